"""The league domain's models, one module per group of nouns; every model is importable from here."""

from .audit import FinishedEventChange, ResultChange, TiebreakPolicyChange
from .cups import Cup, CupTie, CupTieChange
from .events import Entry, EntryRating, Event, EventQuerySet, MemberRating, Round, Team, TeamMember
from .fide_check import FideCheck
from .follows import Follow, FollowNotice
from .games import GamePgn, Transmission
from .idempotency import IdempotentRequest
from .imports import ImportJob, PgnImportJob
from .league import Club, ClubMembership, League, Player, Season
from .pairing import PairingChange, PairingSettings, RoundPairing
from .prizes import CURRENCIES, Prize, PrizeAllocation, PrizeAward, PrizeFund
from .proposals import PlayerProposal
from .registration import FeeRecord, RegisteredPlayer, Registration, RegistrationSettings
from .results import BYE_RESULTS, GAME_RESULTS, TRF_CODES, Game, Result, TeamMatch
from .roles import Profile, Role
from .rules import LeagueRule, RankingListEntry, RuleViolation
from .setup_log import SetupChange
from .snapshots import StandingsSnapshot
from .tokens import SCOPE_INCLUDES, ApiToken, Scope
from .webhooks import WebhookDelivery, WebhookEvent, WebhookSubscription

__all__ = [
    "BYE_RESULTS",
    "CURRENCIES",
    "GAME_RESULTS",
    "SCOPE_INCLUDES",
    "TRF_CODES",
    "ApiToken",
    "Club",
    "ClubMembership",
    "Cup",
    "CupTie",
    "CupTieChange",
    "Entry",
    "EntryRating",
    "Event",
    "EventQuerySet",
    "FeeRecord",
    "FideCheck",
    "FinishedEventChange",
    "Follow",
    "FollowNotice",
    "Game",
    "GamePgn",
    "IdempotentRequest",
    "ImportJob",
    "League",
    "LeagueRule",
    "MemberRating",
    "PairingChange",
    "PairingSettings",
    "PgnImportJob",
    "Player",
    "PlayerProposal",
    "Prize",
    "PrizeAllocation",
    "PrizeAward",
    "PrizeFund",
    "Profile",
    "RankingListEntry",
    "RegisteredPlayer",
    "Registration",
    "RegistrationSettings",
    "Result",
    "ResultChange",
    "Role",
    "Round",
    "RoundPairing",
    "RuleViolation",
    "Scope",
    "Season",
    "SetupChange",
    "StandingsSnapshot",
    "Team",
    "TeamMatch",
    "TeamMember",
    "TiebreakPolicyChange",
    "Transmission",
    "WebhookDelivery",
    "WebhookEvent",
    "WebhookSubscription",
]
