"""One factory per model; each builds a valid row with the fewest choices a test must make."""

import datetime
from typing import TYPE_CHECKING, Any, TypeVar

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Model
from django.utils import timezone
from knox.models import AuthToken

from leagues.models import (
    ApiToken,
    Club,
    ClubMembership,
    Cup,
    CupTie,
    CupTieChange,
    Entry,
    EntryRating,
    Event,
    FideCheck,
    FinishedEventChange,
    Follow,
    FollowNotice,
    Game,
    GamePgn,
    IdempotentRequest,
    ImportJob,
    League,
    LeagueRule,
    MemberRating,
    PairingChange,
    PairingSettings,
    PgnImportJob,
    Player,
    PlayerProposal,
    Prize,
    PrizeAllocation,
    PrizeAward,
    PrizeFund,
    Profile,
    RankingListEntry,
    RegisteredPlayer,
    ResultChange,
    Role,
    Round,
    RoundPairing,
    RuleViolation,
    Scope,
    Season,
    SetupChange,
    StandingsSnapshot,
    Team,
    TeamMatch,
    TeamMember,
    TiebreakPolicyChange,
    Transmission,
    WebhookDelivery,
    WebhookEvent,
    WebhookSubscription,
)
from leagues.models.audit import SettingChange
from leagues.models.registration import FeeRecord, Registration, RegistrationSettings

M = TypeVar("M", bound=Model)

if TYPE_CHECKING:

    class ModelFactory(factory.django.DjangoModelFactory[M]):
        """For mypy: `EventFactory(...)` gives an Event (factory_boy's metaclass call is not annotated)."""

        def __new__(cls, *args: Any, **kwargs: Any) -> M:  # type: ignore[misc]
            ...

else:
    ModelFactory = factory.django.DjangoModelFactory


class UserFactory(ModelFactory[User]):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw")


class ProfileFactory(ModelFactory[Profile]):
    class Meta:
        model = Profile

    user = factory.SubFactory(UserFactory)


class LeagueFactory(ModelFactory[League]):
    class Meta:
        model = League

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")


class SeasonFactory(ModelFactory[Season]):
    class Meta:
        model = Season

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"{2020 + n}/{2021 + n}")
    slug = factory.Sequence(lambda n: f"season-{n}")


class ClubFactory(ModelFactory[Club]):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class PlayerFactory(ModelFactory[Player]):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player, Number{n}")
    rating = factory.Sequence(lambda n: 2000 - n % 2000)  # a valid rating however many players a run makes


class ClubMembershipFactory(ModelFactory[ClubMembership]):
    class Meta:
        model = ClubMembership

    player = factory.SubFactory(PlayerFactory)
    club = factory.SubFactory(ClubFactory)


class RoleFactory(ModelFactory[Role]):
    """A league organiser unless told otherwise (give `kind` with its club or event)."""

    class Meta:
        model = Role

    user = factory.SubFactory(UserFactory)
    kind = Role.Kind.ORGANISER
    league = factory.SubFactory(LeagueFactory)


class EventFactory(ModelFactory[Event]):
    class Meta:
        model = Event

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Event {n}")
    slug = factory.Sequence(lambda n: f"event-{n}")
    rounds_count = 5
    status = Event.Status.PUBLISHED


class TeamFactory(ModelFactory[Team]):
    class Meta:
        model = Team

    event = factory.SubFactory(EventFactory, kind=Event.Kind.TEAM)
    club = factory.SubFactory(ClubFactory)
    name = factory.LazyAttribute(lambda team: f"{team.club.name} 1")


class TeamMemberFactory(ModelFactory[TeamMember]):
    class Meta:
        model = TeamMember

    team = factory.SubFactory(TeamFactory)
    player = factory.SubFactory(PlayerFactory)
    board_order = factory.Sequence(lambda n: n + 1)


class EntryFactory(ModelFactory[Entry]):
    """A player's entry with the player's rating (pass `team=` and `player=None` for a team's)."""

    class Meta:
        model = Entry

    event = factory.SubFactory(EventFactory)
    start_number = factory.Sequence(lambda n: n + 1)
    player = factory.SubFactory(PlayerFactory)
    rating = factory.LazyAttribute(lambda entry: entry.player.rating if entry.player else None)


class RoundFactory(ModelFactory[Round]):
    class Meta:
        model = Round

    event = factory.SubFactory(EventFactory)
    number = 1


class TeamMatchFactory(ModelFactory[TeamMatch]):
    class Meta:
        model = TeamMatch

    round = factory.SubFactory(RoundFactory, event__kind=Event.Kind.TEAM)
    home = factory.SubFactory(
        EntryFactory, event=factory.SelfAttribute("..round.event"), player=None, team=factory.SubFactory(TeamFactory)
    )
    away = factory.SubFactory(
        EntryFactory, event=factory.SelfAttribute("..round.event"), player=None, team=factory.SubFactory(TeamFactory)
    )


class GameFactory(ModelFactory[Game]):
    """A game of two new entries of the round's event (pass `black=None` for a bye)."""

    class Meta:
        model = Game

    round = factory.SubFactory(RoundFactory)
    board = factory.Sequence(lambda n: n + 1)
    white = factory.SubFactory(EntryFactory, event=factory.SelfAttribute("..round.event"))
    black = factory.SubFactory(EntryFactory, event=factory.SelfAttribute("..round.event"))


class ResultChangeFactory(ModelFactory[ResultChange]):
    class Meta:
        model = ResultChange

    game = factory.SubFactory(GameFactory)
    after = "1-0"
    source = ResultChange.Source.FORM


class TiebreakPolicyChangeFactory(ModelFactory[TiebreakPolicyChange]):
    class Meta:
        model = TiebreakPolicyChange

    event = factory.SubFactory(EventFactory)
    user = factory.SubFactory(UserFactory)
    rule_set_before = "fide-2026"
    rule_set_after = "fide-2026"
    criteria_after = factory.LazyFunction(lambda: ["BH/C1", "BH"])
    reason = "agreed at the captains' meeting"


class FinishedEventChangeFactory(ModelFactory[FinishedEventChange]):
    class Meta:
        model = FinishedEventChange

    event = factory.SubFactory(EventFactory, status=Event.Status.FINISHED)
    user = factory.SubFactory(UserFactory)
    subject = FinishedEventChange.Subject.RESULTS
    reason = "the arbiter's correction of board 3"


class StandingsSnapshotFactory(ModelFactory[StandingsSnapshot]):
    class Meta:
        model = StandingsSnapshot

    event = factory.SubFactory(EventFactory)
    version = 1
    computed_at = factory.LazyFunction(timezone.now)
    rules = "fide-2026"


class IdempotentRequestFactory(ModelFactory[IdempotentRequest]):
    class Meta:
        model = IdempotentRequest

    user = factory.SubFactory(UserFactory)
    key = factory.Sequence(lambda n: f"key-{n}")
    fingerprint = "0" * 64
    status = 200
    body = factory.LazyFunction(dict)


class ImportJobFactory(ModelFactory[ImportJob]):
    class Meta:
        model = ImportJob

    league = factory.SubFactory(LeagueFactory)
    requested_by = factory.SubFactory(UserFactory)
    key = factory.Sequence(lambda n: f"{n:064x}")
    digest = "0" * 64
    params = factory.LazyFunction(lambda: {"name": "Club open", "slug": "club-open"})


class PrizeFundFactory(ModelFactory[PrizeFund]):
    class Meta:
        model = PrizeFund

    event = factory.SubFactory(EventFactory)
    published = True


class PrizeFactory(ModelFactory[Prize]):
    """A place prize (give `kind` and its fields for a category or best club team prize)."""

    class Meta:
        model = Prize

    fund = factory.SubFactory(PrizeFundFactory)
    place = factory.Sequence(lambda n: n + 1)
    amount = 10000


class PrizeAllocationFactory(ModelFactory[PrizeAllocation]):
    class Meta:
        model = PrizeAllocation

    fund = factory.SubFactory(PrizeFundFactory)
    version = 1
    computed_at = factory.LazyFunction(timezone.now)
    currency = "GBP"
    fund_total = 0
    total_paid = 0
    remainder = 0
    unawarded = 0


class PrizeAwardFactory(ModelFactory[PrizeAward]):
    class Meta:
        model = PrizeAward

    allocation = factory.SubFactory(PrizeAllocationFactory)
    entry = factory.SubFactory(EntryFactory, event=factory.SelfAttribute("..allocation.fund.event"))
    position = 1


class PairingSettingsFactory(ModelFactory[PairingSettings]):
    class Meta:
        model = PairingSettings

    event = factory.SubFactory(EventFactory)


class RoundPairingFactory(ModelFactory[RoundPairing]):
    """A round's pairing ready to publish: one board, start numbers 1 (white) and 2."""

    class Meta:
        model = RoundPairing

    round = factory.SubFactory(RoundFactory)
    status = RoundPairing.Status.READY
    system = "dutch-2026"
    boards = factory.LazyFunction(lambda: [[1, 2]])
    requested_by = factory.SubFactory(UserFactory)


class PairingChangeFactory(ModelFactory[PairingChange]):
    class Meta:
        model = PairingChange

    pairing = factory.SubFactory(RoundPairingFactory)
    user = factory.SubFactory(UserFactory)
    reason = "the players asked not to meet again"
    before = factory.LazyFunction(lambda: [[1, 2]])
    after = factory.LazyFunction(lambda: [[2, 1]])


class ApiTokenFactory(ModelFactory[ApiToken]):
    """A read token of a new user (knox keeps its digest)."""

    class Meta:
        model = ApiToken

    auth_token = factory.LazyFunction(lambda: AuthToken.objects.create(UserFactory())[0])
    name = factory.Sequence(lambda n: f"token {n}")
    scopes = factory.LazyFunction(lambda: [Scope.READ])


class WebhookSubscriptionFactory(ModelFactory[WebhookSubscription]):
    """A subscription to one league's results."""

    class Meta:
        model = WebhookSubscription

    owner = factory.SubFactory(UserFactory)
    url = factory.Sequence(lambda n: f"https://club{n}.example.org/hook")
    events = factory.LazyFunction(lambda: [WebhookEvent.RESULT_RECORDED])
    league = factory.SubFactory(LeagueFactory)
    secret = factory.Sequence(lambda n: f"secret-{n:032d}")


class WebhookDeliveryFactory(ModelFactory[WebhookDelivery]):
    class Meta:
        model = WebhookDelivery

    subscription = factory.SubFactory(WebhookSubscriptionFactory)
    event_type = WebhookEvent.RESULT_RECORDED
    occurrence = factory.Sequence(lambda n: f"result:{n}")
    body = "{}"


class GamePgnFactory(ModelFactory[GamePgn]):
    class Meta:
        model = GamePgn

    game = factory.SubFactory(GameFactory)
    version = 1
    movetext = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *"
    updated_by = factory.SubFactory(UserFactory)


class TransmissionFactory(ModelFactory[Transmission]):
    """A 15-minute delay of an event's live boards."""

    class Meta:
        model = Transmission

    event = factory.SubFactory(EventFactory)
    delay_minutes = 15


class SettingChangeFactory(ModelFactory[SettingChange]):
    class Meta:
        model = SettingChange

    event = factory.SubFactory(EventFactory)
    user = factory.SubFactory(UserFactory)
    setting = SettingChange.Setting.PAB
    before = "1"
    after = "0.5"
    source = ResultChange.Source.FORM
    reason = "agreed at the captains' meeting"


class SetupChangeFactory(ModelFactory[SetupChange]):
    class Meta:
        model = SetupChange

    league = factory.SubFactory(LeagueFactory)
    user = factory.SubFactory(UserFactory)
    subject = SetupChange.Subject.PLAYER
    action = SetupChange.Action.ARCHIVED
    name = factory.Sequence(lambda n: f"Player, Number{n}")
    source = ResultChange.Source.FORM


class FideCheckFactory(ModelFactory[FideCheck]):
    """A clean check of an event after round 1."""

    class Meta:
        model = FideCheck

    event = factory.SubFactory(EventFactory)
    version = 1
    rounds = 1
    pairings_ok = True
    tiebreaks_ok = True
    checked_at = factory.LazyFunction(timezone.now)


class FollowFactory(ModelFactory[Follow]):
    """A confirmed follower of a player by e-mail (pass `player=None` and `team=` for a team's)."""

    class Meta:
        model = Follow

    email = factory.Sequence(lambda n: f"fan{n}@example.org")
    language = "en"
    player = factory.SubFactory(PlayerFactory)
    confirmed_at = factory.LazyFunction(timezone.now)


class FollowNoticeFactory(ModelFactory[FollowNotice]):
    """A waiting notice of a result of a game the followed player played."""

    class Meta:
        model = FollowNotice

    game = factory.SubFactory(GameFactory)
    follow = factory.SubFactory(FollowFactory, player=factory.SelfAttribute("..game.white.player"))
    event = factory.SelfAttribute("game.round.event")
    kind = FollowNotice.Kind.RESULT
    round_number = factory.SelfAttribute("game.round.number")


class RegistrationSettingsFactory(ModelFactory[RegistrationSettings]):
    """An individual event open for registration, without limit or fee."""

    class Meta:
        model = RegistrationSettings

    event = factory.SubFactory(EventFactory, status=Event.Status.PUBLISHED)
    is_open = True


class RegistrationFactory(ModelFactory[Registration]):
    """A player's registration waiting for the organiser's decision."""

    class Meta:
        model = Registration

    event = factory.SubFactory(EventFactory, status=Event.Status.PUBLISHED)
    name = factory.Sequence(lambda n: f"Registered, Player {n}")
    birth_year = 1990
    key = factory.LazyAttribute(lambda r: f"name:{r.name.casefold()}|{r.birth_year}")
    email = factory.Sequence(lambda n: f"entrant{n}@example.org")
    language = "en"


class FeeRecordFactory(ModelFactory[FeeRecord]):
    """An entry fee due (15.00 in minor units)."""

    class Meta:
        model = FeeRecord

    registration = factory.SubFactory(RegistrationFactory)
    kind = FeeRecord.Kind.DUE
    amount = 1500


class EntryRatingFactory(ModelFactory[EntryRating]):
    """A newer rating list's rating of an entry, from round 2 on."""

    class Meta:
        model = EntryRating

    entry = factory.SubFactory(EntryFactory)
    from_round = 2
    rating = 1850


class PgnImportJobFactory(ModelFactory[PgnImportJob]):
    """A big PGN file of an event waiting for a worker."""

    class Meta:
        model = PgnImportJob

    event = factory.SubFactory(EventFactory)
    requested_by = factory.SubFactory(UserFactory)
    digest = "0" * 64
    text = '[Event "?"]\n\n1. e4 *\n'


class PlayerProposalFactory(ModelFactory[PlayerProposal]):
    """Another league's proposed value for a blank field of a shared player."""

    class Meta:
        model = PlayerProposal

    player = factory.SubFactory(PlayerFactory)
    league = factory.SubFactory(LeagueFactory)
    field = "title"
    value = "FM"


class CupFactory(ModelFactory[Cup]):
    """The draw of a knock-out cup (a team event of the system knock-out), seeded by rating."""

    class Meta:
        model = Cup

    event = factory.SubFactory(EventFactory, kind=Event.Kind.TEAM, system=Event.System.KNOCKOUT)
    drawn_by = factory.SubFactory(UserFactory)


def _cup_match(tie):
    """The card of a tie in its round of the cup's event (the round made once, shared by the round's ties)."""
    rnd, _ = Round.objects.get_or_create(event=tie.cup.event, number=tie.round_number)
    return TeamMatchFactory(round=rnd, home=tie.home, away=tie.away)


class CupTieFactory(ModelFactory[CupTie]):
    """A tie of round 1 not yet played: seeds 1 (home) and 2, two new teams of the cup's event and their card."""

    class Meta:
        model = CupTie

    cup = factory.SubFactory(CupFactory)
    round_number = 1
    position = factory.Sequence(lambda n: n + 1)
    home = factory.SubFactory(
        EntryFactory,
        event=factory.SelfAttribute("..cup.event"),
        player=None,
        team=factory.SubFactory(TeamFactory, event=factory.SelfAttribute("..event")),
    )
    away = factory.SubFactory(
        EntryFactory,
        event=factory.SelfAttribute("..cup.event"),
        player=None,
        team=factory.SubFactory(TeamFactory, event=factory.SelfAttribute("..event")),
    )
    home_seed = 1
    away_seed = 2
    match = factory.LazyAttribute(_cup_match)


class CupTieChangeFactory(ModelFactory[CupTieChange]):
    """The team going through a tie replaced (home by away) after a corrected card."""

    class Meta:
        model = CupTieChange

    tie = factory.SubFactory(CupTieFactory)
    user = factory.SubFactory(UserFactory)
    before = factory.SelfAttribute("tie.home")
    after = factory.SelfAttribute("tie.away")
    reason = "the arbiter's correction of board 2"


class LeagueRuleFactory(ModelFactory[LeagueRule]):
    """A league's rule (every division): board order within 100 rating points, a warning."""

    class Meta:
        model = LeagueRule

    league = factory.SubFactory(LeagueFactory)
    kind = LeagueRule.Kind.BOARD_ORDER
    severity = LeagueRule.Severity.WARNING
    value = 100


class RuleViolationFactory(ModelFactory[RuleViolation]):
    """An open warning of a match card: board 2 of the home team out of order under its league's rule."""

    class Meta:
        model = RuleViolation

    match = factory.SubFactory(TeamMatchFactory)
    rule = factory.SubFactory(LeagueRuleFactory, league=factory.SelfAttribute("..match.round.event.league"))
    kind = factory.SelfAttribute("rule.kind")
    severity = factory.SelfAttribute("rule.severity")
    penalty = factory.SelfAttribute("rule.penalty")
    board = 2
    side = "home"


def swiss_event(players=4, rounds=5, club=None, **kwargs):
    """An individual Swiss event with `players` entries (all in `club` if given) and round 1 paired."""
    event = EventFactory(rounds_count=rounds, **kwargs)
    if club is not None:
        event.league.clubs.add(club)  # a club's secretary enters results of its league's events
    entries = []
    for n in range(1, players + 1):
        player = PlayerFactory()
        if club is not None:
            ClubMembershipFactory(player=player, club=club)
        entries.append(EntryFactory(event=event, start_number=n, player=player))
    rnd = RoundFactory(event=event)
    half = players // 2
    games = [GameFactory(round=rnd, board=b + 1, white=entries[b], black=entries[b + half]) for b in range(half)]
    if players % 2:
        games.append(GameFactory(round=rnd, board=half + 1, white=entries[-1], black=None))
    return event, entries, games


def organiser_of(league):
    return RoleFactory(league=league).user


class MemberRatingFactory(ModelFactory[MemberRating]):
    """A team event's player rated 1850 from round 2 on (a newer rating list read into the league)."""

    class Meta:
        model = MemberRating

    event = factory.SubFactory(EventFactory, kind=Event.Kind.TEAM)
    player = factory.SubFactory(PlayerFactory)
    from_round = 2
    rating = 1850


class RankingListEntryFactory(ModelFactory[RankingListEntry]):
    """The first place of a team's submitted ranking list."""

    class Meta:
        model = RankingListEntry

    team = factory.SubFactory(TeamFactory)
    player = factory.SubFactory(PlayerFactory)
    position = 1
    nominated_on = datetime.date(2026, 9, 1)


class RegisteredPlayerFactory(ModelFactory[RegisteredPlayer]):
    """Board 1 of a team's registration, found by name and birth year."""

    class Meta:
        model = RegisteredPlayer

    registration = factory.SubFactory(RegistrationFactory, name="Fjord 1")
    board_order = 1
    name = factory.Sequence(lambda n: f"Rostered, Player {n}")
    birth_year = 1990
    key = factory.LazyAttribute(lambda r: f"name:{r.name.casefold()}|{r.birth_year}")
