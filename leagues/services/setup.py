"""An organiser sets a season up: seasons, events and their rounds, clubs, players, entries, teams and
rosters, prize funds, and the event's life (draft → published → running → finished).

Every function checks that the user organises the league, validates everything before writing, and
writes in one transaction: a refused call changes nothing. Errors are ServiceError with a code and a
sentence; field errors carry ``field`` so a form can show them next to the field."""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import date, time
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Model, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tiebreaks.engine import EngineError, get_rule_set
from tiebreaks.prizes import CURRENCIES, split_prizes

from ..errors import PermissionDenied, ServiceError
from ..models import (
    Club,
    ClubMembership,
    Entry,
    Event,
    FinishedEventChange,
    Game,
    League,
    MemberRating,
    PairingSettings,
    Player,
    Prize,
    PrizeFund,
    Registration,
    Result,
    ResultChange,
    Role,
    Round,
    RoundPairing,
    Season,
    StandingsSnapshot,
    Team,
    TeamMatch,
    TeamMember,
)
from ..page_cache import pages_changed
from ..permissions import AnyUser, acting_user, can_manage_event, is_league_organiser
from ..selectors import entries_with_clubs, row_number
from ..text import has_control_characters
from .federations import FIDE_FEDERATIONS
from .fide_mode import event_scoring_checked, event_settings_changed
from .players import licence_changed, players_of_league
from .policy import compute_standings_check, default_tiebreak_order, lots_seeded
from .prizes import club_names, prize_options, prize_standings, prizes_recompute, split_prize
from .ranking_lists import deadlines_changed, deadlines_check
from .ratings import rating_by_method
from .results import event_results_changed, finished_event_override, names_changed, result_record
from .webhooks import event_finished


class FieldError(ServiceError):
    """A refusal that belongs to one field of the form."""

    def __init__(self, field: str, message: str, *, code: str = "invalid") -> None:
        super().__init__(message, code=code)
        self.field = field


def _organiser(user: AnyUser, league_id: int) -> None:
    if not is_league_organiser(user, league_id):
        raise PermissionDenied(_("Only the league's organisers may set the league up."))


M = TypeVar("M", bound=Model)


def _validated(instance: M, exclude: Iterable[str] = ()) -> M:
    """Model validation as ServiceErrors: the first field's first message."""
    try:
        instance.full_clean(exclude=list(exclude))
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise FieldError(field if field != "__all__" else "", messages[0]) from None
    return instance


def _assign(instance: Model, fields: dict[str, Any], allowed: Collection[str]) -> None:
    for name, value in fields.items():
        if name not in allowed:
            raise ServiceError(_("“%(field)s” cannot be set here.") % {"field": name}, code="unknown_field")
        setattr(instance, name, value)


# ------------------------------------------------------------------------------------------ the league

LEAGUE_FIELDS = {"name", "auto_confirm_days", "currency", "players_without_club", "federation"}


#: who may create a league: a user (or group) granted this permission in the admin, and superusers
LEAGUE_CREATOR_PERMISSION = "leagues.add_league"
#: league addresses the management pages use themselves (/manage/leagues/new/)
RESERVED_LEAGUE_SLUGS = {"new"}


def can_create_league(user: AnyUser) -> bool:
    return bool(user and user.is_authenticated and user.is_active and user.has_perm(LEAGUE_CREATOR_PERMISSION))


def league_create(*, user: AnyUser, fields: dict[str, Any]) -> League:
    """A new league, by a user allowed to create leagues, who becomes its organiser."""
    if not can_create_league(user):
        raise PermissionDenied(_("Only a league creator may create a league."))
    if not isinstance(user, User):
        raise RuntimeError("a league creator is signed in")
    with transaction.atomic():
        fields = dict(fields)
        league = League(slug=fields.pop("slug", ""))  # a league's address is chosen once, when it is created
        if league.slug in RESERVED_LEAGUE_SLUGS:
            raise FieldError("slug", _("This address is taken by the site; choose another."))
        _league_checked(league, fields)
        league.save()
        Role.objects.create(user=user, kind=Role.Kind.ORGANISER, league=league)
        return league


def league_save(*, league: League, user: AnyUser, fields: dict[str, Any]) -> League:
    """The league's own settings: its name and after how many days an unanswered match card confirms itself."""
    _organiser(user, league.pk)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        federation = league.federation
        _league_checked(league, fields)
        league.save()
        if league.federation != federation:  # its event pages write dates the new federation's way (leagues/dates.py)
            for event_id in league.events.values_list("pk", flat=True):
                pages_changed(event_id=event_id)
        return league


def _league_checked(league: League, fields: dict[str, Any]) -> None:
    _assign(league, fields, LEAGUE_FIELDS)
    if has_control_characters(league.name):
        raise FieldError("name", _("Use letters, digits and punctuation only (no line breaks or control characters)."))
    if league.auto_confirm_days < 1:
        raise FieldError("auto_confirm_days", _("The other club needs at least a day to answer a card."))
    league.federation = (league.federation or "").strip().upper()
    if league.federation and league.federation not in FIDE_FEDERATIONS:
        raise FieldError("federation", _("Give FIDE's three-letter code of a federation, e.g. USA or NOR."))
    _validated(league)


# ------------------------------------------------------------------------------------------ seasons

SEASON_FIELDS = {"name", "slug", "starts_on", "ends_on", "ranking_deadline", "nomination_deadline"}


def season_save(*, league: League, user: AnyUser, fields: dict[str, Any], season: Season | None = None) -> Season:
    _organiser(user, league.pk)
    with transaction.atomic():
        season = season or Season(league=league)
        if season.league_id != league.pk:
            raise PermissionDenied(_("This season belongs to another league."))
        before = (season.ranking_deadline, season.nomination_deadline)
        _assign(season, fields, SEASON_FIELDS)
        if season.starts_on and season.ends_on and season.ends_on < season.starts_on:
            raise FieldError("ends_on", _("The season cannot end before it starts."))
        deadlines_check(season)
        _validated(season)
        season.save()
        if season.pk and before != (season.ranking_deadline, season.nomination_deadline):
            deadlines_changed(season)
        return season


# ------------------------------------------------------------------------------------------ events

EVENT_FIELDS = {
    "season",
    "name",
    "slug",
    "kind",
    "system",
    "rounds_count",
    "starts_on",
    "venue",
    "time_control",
    "boards",
    "points_win",
    "points_draw",
    "points_loss",
    "match_points_win",
    "match_points_draw",
    "match_points_loss",
    "primary_score",
    "board_one_white_for_home",
    "baku_acceleration",
    "rating_method",
    "unrated_rating",
}
#: chosen when the event is created; later on the tiebreak policy page (services.policy: locked from the first
#: game's result, then changed only by the organiser with a reason shown publicly)
NEW_EVENT_FIELDS = EVENT_FIELDS | {"rule_set", "tiebreak_criteria"}
#: what may no longer change once a result is in
FIXED_AFTER_FIRST_RESULT = {"kind", "system", "boards", "points_win", "points_draw", "points_loss", "baku_acceleration"}
#: settings whose change after the start services.fide_mode refuses (FIDE mode) or records (a hard warning)
AUDITED_AFTER_START = {"rating_method", "unrated_rating"}
#: the highest rating an event may announce for its unrated players (their assumed rating, FIDE C.07 Article 10)
MAX_UNRATED_RATING = 3000


def _has_results(event: Event) -> bool:
    return event.pk is not None and Game.objects.filter(round__event=event).exclude(result=Result.PENDING).exists()


def event_save(
    *,
    league: League,
    user: AnyUser,
    fields: dict[str, Any],
    round_dates: list[date | None] | None = None,
    round_venues: list[str] | None = None,
    round_start_times: list[time | None] | None = None,
    event: Event | None = None,
    reason: str = "",
    source: str = ResultChange.Source.FORM,
) -> Event:
    """Create or edit an event (individual or team; Swiss, round robin, double round robin) and its rounds'
    dates and venues (an empty venue: the event's). Rounds are numbered 1..rounds_count; a round with games
    is never removed.

    A new event gets its rule set and tiebreak order here (``rule_set``, ``tiebreak_criteria``; an empty order:
    the recommended one for its system, rounds and rule set). An event still following the recommended order
    follows it when its system or number of rounds changes, until the first result.

    The scoring is checked by services.fide_mode (every door's one check); once the event has started, a change
    of its scoring or Baku acceleration is refused in FIDE mode, else needs a `reason` and is recorded."""
    _organiser(user, league.pk)
    with transaction.atomic():
        if event is not None:
            event = Event.objects.select_for_update().get(pk=event.pk)
            if event.league_id != league.pk:
                raise PermissionDenied(_("This event belongs to another league."))
            if event.status == Event.Status.FINISHED:
                raise ServiceError(_("The event is finished; it can no longer change."), code="event_finished")
            before = {name: getattr(event, name) for name in FIXED_AFTER_FIRST_RESULT | AUDITED_AFTER_START}
            recommended = event.tiebreak_criteria == default_tiebreak_order(event)
        else:
            event, before, recommended = Event(league=league), None, True
        old_slug = event.slug  # a new address: the pages kept under the old one go
        _assign(event, fields, EVENT_FIELDS if before is not None else NEW_EVENT_FIELDS)
        if event.season is not None and event.season.league_id != league.pk:
            raise FieldError("season", _("This season belongs to another league."))
        if before is not None:
            event_settings_changed(event, before=before, user=user, reason=reason, source=source)
        if before is not None and _has_results(event):
            changed = [name for name in FIXED_AFTER_FIRST_RESULT if getattr(event, name) != before[name]]
            if changed:
                raise FieldError(
                    changed[0],
                    _("Results are in: the kind, system, boards and scoring can no longer change."),
                    code="event_played",
                )
        if event.rounds_count < 1:
            raise FieldError("rounds_count", _("An event has at least one round."))
        if event.baku_acceleration and (event.is_team or event.is_round_robin):
            raise FieldError("baku_acceleration", _("Only an individual Swiss event can be accelerated."))
        event_scoring_checked(event)
        if event.unrated_rating is not None and not 0 <= event.unrated_rating <= MAX_UNRATED_RATING:
            raise FieldError(
                "unrated_rating",
                _("The rating for unrated players is between 0 and %(max)s.") % {"max": MAX_UNRATED_RATING},
                code="bad_unrated_rating",
            )
        if event.match_points_loss > event.match_points_draw or event.match_points_draw > event.match_points_win:
            raise FieldError(
                "match_points_draw", _("A match won must score at least a drawn one, a drawn one at least a lost one.")
            )
        _tiebreak_order_checked(event, new=before is None, recommended=recommended)
        _validated(event, exclude=["results_version"])
        event.save()
        _rounds_save(event, round_dates or [], round_venues, round_start_times)
        pages_changed(event_id=event.pk, gone_slug=old_slug if old_slug and old_slug != event.slug else None)
        return event


def _tiebreak_order_checked(event: Event, *, new: bool, recommended: bool) -> None:
    """A new event without an order, or one following the recommended order before its first result, takes the
    recommended order of its (new) settings; the order must fit the event (Buchholz is no round robin's)."""
    try:
        get_rule_set(event.rule_set)
    except EngineError:
        raise FieldError("rule_set", _("Choose one of the rule sets offered.")) from None
    if not isinstance(event.tiebreak_criteria, list) or not all(isinstance(c, str) for c in event.tiebreak_criteria):
        raise FieldError("tiebreak_criteria", _("Criteria in order, separated by commas, e.g. BH/C1, BH, SB."))
    codes = [code.strip() for code in event.tiebreak_criteria if code.strip() and code.strip().upper() != "PTS"]
    if (new and not codes) or ((recommended or not codes) and not new and not event.policy_locked):
        codes = default_tiebreak_order(event)
    event.tiebreak_criteria = codes = lots_seeded(event, codes)
    try:
        compute_standings_check(event, event.rule_set, codes)
    except EngineError as exc:
        raise FieldError(
            "tiebreak_criteria" if new else "system",
            _("This tiebreak order does not fit the event: %(problem)s") % {"problem": exc},
            code="bad_tiebreak_policy",
        ) from None


def _rounds_save(
    event: Event,
    round_dates: list[date | None],
    round_venues: list[str] | None = None,
    round_start_times: list[time | None] | None = None,
) -> None:
    rounds = {r.number: r for r in Round.objects.filter(event=event)}
    for number in range(1, event.rounds_count + 1):
        rnd = rounds.get(number) or Round(event=event, number=number)
        if round_dates or rnd.pk is None:
            rnd.date = round_dates[number - 1] if number <= len(round_dates) else None
        if round_start_times is not None:  # the time the round starts (followers' e-mails, calendar feeds)
            rnd.start_time = round_start_times[number - 1] if number <= len(round_start_times) else None
        if round_venues is not None:
            rnd.venue = (round_venues[number - 1] if number <= len(round_venues) else "").strip()
            if has_control_characters(rnd.venue) or len(rnd.venue) > 200:
                raise FieldError(
                    f"round_{number}_venue",
                    _("Round %(number)s: a venue is one line of at most 200 characters.") % {"number": number},
                )
        rnd.save()
    extra = [r for number, r in rounds.items() if number > event.rounds_count]
    if any(r.games.exists() for r in extra):
        raise FieldError("rounds_count", _("A round that is already paired cannot be removed."), code="round_paired")
    Round.objects.filter(pk__in=[r.pk for r in extra]).delete()
    dated = [d for d in round_dates[: event.rounds_count] if d]
    if dated != sorted(dated):
        raise FieldError("round_dates", _("The rounds' dates must follow each other."), code="round_dates_order")


#: the moves of an event's life
TRANSITIONS: dict[str, set[str]] = {
    Event.Status.DRAFT: {Event.Status.PUBLISHED},
    Event.Status.PUBLISHED: {Event.Status.DRAFT, Event.Status.RUNNING},
    Event.Status.RUNNING: {Event.Status.FINISHED},
    Event.Status.FINISHED: set(),
}


def event_status_set(*, event: Event, user: AnyUser, status: str) -> Event:
    """Publish, start or finish an event. Finishing freezes it: results, policy, cards and prizes stay as
    they are, and the prize split becomes final."""
    _organiser(user, event.league_id)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if status not in TRANSITIONS[event.status]:
            raise ServiceError(
                _("An event that is %(now)s cannot become %(next)s.")
                % {"now": event.get_status_display(), "next": Event.Status(status).label},
                code="bad_transition",
            )
        if status == Event.Status.DRAFT and _has_results(event):
            raise ServiceError(_("Results are in: the event stays public."), code="event_played")
        if status == Event.Status.PUBLISHED and not event.entries.exists():
            raise ServiceError(_("Register the participants before publishing the event."), code="no_entries")
        if status == Event.Status.PUBLISHED and not event.tiebreak_criteria:
            raise ServiceError(
                _(
                    "Choose the event's tiebreak order on its tiebreak policy page "
                    "before publishing it (FIDE C.07 4.1)."
                ),
                code="no_tiebreak_order",
            )
        event.status = status
        if status == Event.Status.FINISHED:
            event.tiebreak_locked = True
        event.save(update_fields=["status", "tiebreak_locked"])
        pages_changed(event_id=event.pk)
        if status == Event.Status.FINISHED:
            event_finished(event)  # its webhook, after the commit
    if status == Event.Status.FINISHED:
        prizes_recompute(event.pk)  # the allocation now says the event is finished: final
    return event


# ------------------------------------------------------------------------------------------ clubs, players

CLUB_FIELDS = {"name", "slug", "short_name"}


def club_save(*, league: League, user: AnyUser, fields: dict[str, Any], club: Club | None = None) -> Club:
    _organiser(user, league.pk)
    with transaction.atomic():
        if club is not None and not league.clubs.filter(pk=club.pk).exists():
            raise PermissionDenied(_("This club does not play in the league."))
        renamed = club is not None
        club = club or Club()
        _assign(club, fields, CLUB_FIELDS)
        _validated(club)
        club.save()
        league.clubs.add(club)
        if renamed:
            names_changed(club_id=club.pk)  # the standings and pages of its events name it anew
        return club


def player_fields() -> list[str]:
    """The player registry's fields this installation has, in form order."""
    names = {f.name for f in Player._meta.get_fields()}
    order = [
        "name",
        "fide_id",
        "federation",
        "title",
        "rating",
        "rating_rapid",
        "rating_blitz",
        "rating_national",
        "national_id",
        "licence_until",
        "birth_year",
        "birth_date",
        "sex",
        "fide_games",
        "k_factor",
        "anonymised",
    ]
    return [name for name in order if name in names]


def player_save(
    *, league: League, user: AnyUser, fields: dict[str, Any], club: Club | None, player: Player | None = None
) -> Player:
    """Create or edit a player of the league; ``club`` adds a membership. A new player without a club is
    allowed when the league allows players without a club (its setting, on by default)."""
    _organiser(user, league.pk)
    with transaction.atomic():
        if club is not None and not league.clubs.filter(pk=club.pk).exists():
            raise FieldError("club", _("This club does not play in the league."))
        if player is not None and not players_of_league(league).filter(pk=player.pk).exists():
            raise PermissionDenied(_("This player is not in the league's registry."))
        if player is None and club is None and not league.players_without_club:
            raise FieldError("club", _("The league enters players of its clubs only: choose the club."))
        before = (player.rating, player.title, player.name) if player is not None else None
        licence_before = player.licence_until if player is not None else None
        player = player or Player()
        _assign(player, fields, set(player_fields()))
        if player.federation:
            player.federation = player.federation.upper()
        if player.birth_date:  # one birth, the year follows the date
            player.birth_year = player.birth_date.year
        _validated(player)
        player.save()
        if club is not None:
            ClubMembership.objects.get_or_create(player=player, club=club)
        league.players.add(player)
        if before is not None and before != (player.rating, player.title, player.name):
            _player_ranking_changed(player, league, old_rating=before[0])
        if before is not None:
            names_changed(player_id=player.pk)  # the standings and pages of its events show it anew
            if licence_before != player.licence_until:
                licence_changed(player)
        return player


def _player_ranking_changed(player: Player, league: League, *, old_rating: int | None) -> None:
    """A player's rating, title or name changed: in the league's events not yet started (round 1 not
    published) an entry that took its rating from the registry takes the new one, and the start numbers
    follow the initial ranking again."""
    for entry in Entry.objects.filter(player=player, event__league=league).select_related("event"):
        event = Event.objects.select_for_update().get(pk=entry.event_id)
        if round_one_published(event) or event.status == Event.Status.FINISHED:
            continue
        if entry.rating == old_rating and entry.rating != player.rating:
            entry.rating = player.rating
            entry.save(update_fields=["rating"])
        if numbers_follow_ranking(event):
            _start_numbers_ranked(event)


# ------------------------------------------------------------------------------------------ entries

LATE_BYES = {"zero": Result.ZERO_POINT_BYE, "half": Result.HALF_POINT_BYE}


def _editable_event(event: Event, user: AnyUser) -> Event:
    _organiser(user, event.league_id)
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(_("The event is finished; it can no longer change."), code="event_finished")
    return event


def entry_register(
    *, event: Event, user: AnyUser, player: Player, rating: int | None = None, late_bye: str = "zero"
) -> Entry:
    """Register a player in an individual event. Until round 1 is published a Swiss event's start numbers
    follow the initial ranking (:func:`initial_ranking`), so the entry takes its place there and those
    below move down one; a round robin's entry, and a late entry, take the next start number. A late
    entry (rounds already published) receives a zero-point (or, as the organiser decides, half-point)
    bye in each round it missed."""
    if late_bye not in LATE_BYES:
        raise FieldError("late_bye", _("Choose the bye for the rounds missed."))
    with transaction.atomic():
        event = _editable_event(event, user)
        if event.is_team:
            raise ServiceError(_("Players of a team event play in its teams' rosters."), code="team_event")
        if not players_of_league(event.league).filter(pk=player.pk).exists():
            raise FieldError("player", _("This player is not in the league's registry."))
        if not event.league.players_without_club and not player.clubs.filter(leagues=event.league).exists():
            raise FieldError("player", _("The league enters players of its clubs only."))
        if Entry.objects.filter(event=event, player=player).exists():
            raise FieldError("player", _("%(player)s is registered already.") % {"player": player.name})
        number = (Entry.objects.filter(event=event).aggregate(n=Max("start_number"))["n"] or 0) + 1
        if rating is None:
            rating = rating_by_method(player, event.rating_method)
        entry = Entry.objects.create(event=event, start_number=number, player=player, rating=rating)
        late = round_one_published(event)
        for rnd in _published_rounds(event):
            board = (rnd.games.aggregate(b=Max("board"))["b"] or 0) + 1
            game = Game.objects.create(round=rnd, board=board, white=entry)
            result_record(
                game_id=game.pk,
                result=LATE_BYES[late_bye],
                user=user,
                source=ResultChange.Source.FORM,
                reason="late entry",
            )
        if not late and numbers_follow_ranking(event):
            _start_numbers_ranked(event)
            entry.refresh_from_db()
        event_results_changed(event_id=event.pk)
        return entry


def entry_withdraw(*, entry: Entry, user: AnyUser, after_round: int | None) -> Entry:
    with transaction.atomic():
        event = _editable_event(entry.event, user)
        if after_round is not None and not 0 <= after_round <= event.rounds_count:
            raise FieldError("after_round", _("No such round."))
        entry.withdrawn_after_round = after_round
        entry.save(update_fields=["withdrawn_after_round"])
        event_results_changed(event_id=event.pk)
        return entry


# ------------------------------------------------------------------------------------------ start numbers

#: FIDE's titles in the order of the initial ranking (C.04.2): among equal ratings a GM comes first, a
#: player without a title last
TITLE_ORDER = ("GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM")
#: a bye's or an absence's board: BYE_BOARD + the player's start number (as round_pairings and the imports store
#: it), above every real board of the largest open (a 20,000-player round has 10,000 boards) and within a small
#: integer (start numbers up to 22,767)
BYE_BOARD = 10000
#: start numbers are moved out of the way by this much while they are renumbered (they stay unique)
_RENUMBER_SHIFT = 10000
#: the highest rating an entry may have (as the registration form allows)
MAX_RATING = 3500


def numbers_follow_ranking(event: Event) -> bool:
    """An individual Swiss event's start numbers are its pairing numbers: the initial ranking. A round
    robin's numbers are its drawing of lots (Berger tables) and a team event's are its teams' order."""
    return not event.is_team and event.system == Event.System.SWISS


def _published_rounds(event: Event) -> Iterable[Round]:
    """The rounds whose boards are published (or were imported): a game between two players or a
    pairing-allocated bye (a bye requested before the pairing does not make a round published)."""
    paired = Q(games__black__isnull=False) | Q(games__result=Result.PAIRING_BYE)
    return Round.objects.filter(event=event).filter(paired).distinct().order_by("number")


def round_one_published(event: Event) -> bool:
    """Whether a round's boards are out: from then on start numbers no longer change (C.04.2)."""
    paired = Q(black__isnull=False) | Q(result=Result.PAIRING_BYE)
    return Game.objects.filter(round__event=event).filter(paired).exists()


def _alphabetical(name: str) -> str:
    """A name as the alphabet orders it: without accents, case folded."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def initial_ranking(entries: Iterable[Entry], unrated_rating: int | None) -> list[Entry]:
    """FIDE's initial ranking (C.04.2, C.04.3 2026): rating descending, then title (GM, IM, WGM, FM, WIM,
    CM, WFM, WCM, none), then name alphabetically. An unrated player counts with the rating the event
    announces for unrated players; without one, below every rated player."""

    def key(entry: Entry) -> tuple[int, int, str, int]:
        rating = entry.rating if entry.rating is not None else (unrated_rating or 0)
        player, team = entry.player, entry.team
        title = player.title if player is not None else ""
        rank = TITLE_ORDER.index(title) if title in TITLE_ORDER else len(TITLE_ORDER)
        name = player.name if player is not None else team.name if team is not None else ""
        return (-rating, rank, _alphabetical(name), entry.start_number)

    return sorted(entries, key=key)


def _start_numbers_ranked(event: Event) -> bool:
    """Give the event's entries the start numbers 1..N of the initial ranking (inside the caller's
    transaction, the event locked). What names players by start number before round 1 follows: requested
    byes' boards and the forbidden pairs; a pairing of round 1 not yet published must be made again.
    Returns whether a number changed."""
    entries = list(Entry.objects.filter(event=event).select_related("player", "team"))
    return _renumbered(event, initial_ranking(entries, event.unrated_rating))


def _renumbered(event: Event, ranked: list[Entry]) -> bool:
    """Give `ranked` the start numbers 1..N in its order; see :func:`_start_numbers_ranked`."""
    moved = {e.start_number: n for n, e in enumerate(ranked, start=1)}
    if all(old == new for old, new in moved.items()):
        return False
    Entry.objects.filter(event=event).update(start_number=F("start_number") + _RENUMBER_SHIFT)
    for number, entry in enumerate(ranked, start=1):
        entry.start_number = number
    Entry.objects.bulk_update(ranked, ["start_number"])
    byes = list(Game.objects.filter(round__event=event, black__isnull=True, board__gt=BYE_BOARD))
    Game.objects.filter(pk__in=[g.pk for g in byes]).update(board=F("board") + _RENUMBER_SHIFT)
    for game in byes:
        game.board = BYE_BOARD + moved.get(game.board - BYE_BOARD, game.board - BYE_BOARD)
    Game.objects.bulk_update(byes, ["board"])
    settings = PairingSettings.objects.filter(event=event).first()
    if settings is not None and settings.forbidden_pairs:
        settings.forbidden_pairs = sorted(
            sorted([moved.get(a, a), moved.get(b, b)]) for a, b in settings.forbidden_pairs
        )
        settings.save(update_fields=["forbidden_pairs"])
    _pairing_outdated(event)
    event_results_changed(event_id=event.pk)  # the standings and pages name players by start number
    return True


def _pairing_outdated(event: Event) -> None:
    """A pairing not yet published names players by their old start numbers: it must be made again."""
    RoundPairing.objects.filter(round__event=event).exclude(status=RoundPairing.Status.PUBLISHED).update(
        status=RoundPairing.Status.FAILED,
        attempt=F("attempt") + 1,
        boards=[],
        pab=None,
        problem=_("The start numbers changed after the pairing; pair the round again."),
    )


def start_numbers_sort(*, event: Event, user: AnyUser) -> list[Entry]:
    """Sort the start numbers by the initial ranking again (e.g. after a rating, title or name was
    corrected), before round 1 is published; the organiser or the event's arbiter. Refused
    (``round_one_published``, ``not_swiss``, ``event_finished``) with nothing changed.

    After round 1 numbers stay: a late entry takes the next number (C.04.2 lets an arbiter re-assign
    pairing numbers, it never obliges to; the published rounds, standings and players' addresses keep
    theirs)."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not can_manage_event(user, event):
            raise PermissionDenied(_("Only the league's organiser or the event's arbiter may pair rounds."))
        if event.status == Event.Status.FINISHED:
            raise ServiceError(_("The event is finished; it can no longer change."), code="event_finished")
        if not numbers_follow_ranking(event):
            raise ServiceError(
                _("Only an individual Swiss event's start numbers follow the ratings (a round robin's: by lot)."),
                code="not_swiss",
            )
        if round_one_published(event):
            raise ServiceError(
                _("Round 1 is published: the start numbers no longer change. A late entry takes the next number."),
                code="round_one_published",
            )
        if _start_numbers_ranked(event):
            pages_changed(event_id=event.pk)
        return list(Entry.objects.filter(event=event).select_related("player").order_by("start_number"))


def entry_rating_set(*, entry: Entry, user: AnyUser, rating: int | None) -> Entry:
    """Correct a player's rating at the start of the event (empty: unrated). Until round 1 is published a
    Swiss event's start numbers follow the initial ranking again; afterwards they stay."""
    if rating is not None and not 0 <= rating <= MAX_RATING:
        raise FieldError("rating", _("A rating is a number from 0 to %(max)s.") % {"max": MAX_RATING})
    with transaction.atomic():
        event = _editable_event(entry.event, user)
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.player_id is None:
            raise ServiceError(_("Players of a team event play in its teams' rosters."), code="team_event")
        if entry.rating == rating:
            return entry
        entry.rating = rating
        entry.save(update_fields=["rating"])
        if numbers_follow_ranking(event) and not round_one_published(event):
            _start_numbers_ranked(event)
            entry.refresh_from_db()
        event_results_changed(event_id=event.pk)  # ratings count in tiebreaks (ARO, TPR) and the rating report
        return entry


def entry_remove(*, entry: Entry, user: AnyUser) -> None:
    """Take a player off an event before round 1 is published (afterwards the player withdraws instead).
    Their requested byes and forbidden pairs go with them; the start numbers close up (a Swiss event's in
    the initial ranking, a round robin's in their order) and a pairing not yet published is made again."""
    with transaction.atomic():
        event = _editable_event(entry.event, user)
        _entry_removed(event, entry, acting_user(user))


def entry_remove_by_registration(*, entry: Entry) -> None:
    """The registration service's own removal of an entry, for a player who withdraws their registration with the
    signed link of its e-mails (leagues/services/registration.py checks the link): the same rule as
    :func:`entry_remove`, without an organiser."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=entry.event_id)
        if event.status == Event.Status.FINISHED:
            raise ServiceError(_("The event is finished; it can no longer change."), code="event_finished")
        _entry_removed(event, entry, None)


def in_schedule(entry: Entry) -> bool:
    """Whether a team entry has matches in its event's schedule (a league's drawn fixtures, a cup's ties): such a team
    is withdrawn, not taken off."""
    return entry.team_id is not None and TeamMatch.objects.filter(Q(home=entry) | Q(away=entry)).exists()


def _entry_removed(event: Event, entry: Entry, by: User | None) -> None:
    """Whoever removes an entry, a registration that held it frees its place: it is withdrawn (and the organiser's
    registration page offers the place to the first on the waiting list)."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if in_schedule(entry):
        raise ServiceError(
            _("%(team)s has matches in the schedule: withdraw the team instead.") % {"team": entry.name},
            code="team_in_schedule",
        )
    if round_one_published(event):
        raise ServiceError(
            _("Round 1 is published: %(player)s can only withdraw.") % {"player": entry.name},
            code="round_one_published",
        )
    number = entry.start_number
    Game.objects.filter(round__event=event).filter(Q(white=entry) | Q(black=entry)).delete()
    settings = PairingSettings.objects.filter(event=event).first()
    if settings is not None and settings.forbidden_pairs:
        settings.forbidden_pairs = [pair for pair in settings.forbidden_pairs if number not in pair]
        settings.save(update_fields=["forbidden_pairs"])
    Registration.objects.filter(entry=entry).update(
        status=Registration.Status.WITHDRAWN, entry=None, decided_at=timezone.now(), decided_by=by
    )
    team_id = entry.team_id
    entry.delete()
    if team_id is not None:
        Team.objects.filter(pk=team_id).delete()  # a team entry's team and roster go with it
    if numbers_follow_ranking(event):
        _start_numbers_ranked(event)
    else:
        _start_numbers_closed_up(event)
    _pairing_outdated(event)
    event_results_changed(event_id=event.pk)


def _start_numbers_closed_up(event: Event) -> None:
    """Number the entries 1..N in their present order (after one left)."""
    entries = list(Entry.objects.filter(event=event).select_related("player", "team").order_by("start_number"))
    _renumbered(event, entries)


def team_save(*, event: Event, user: AnyUser, club: Club, name: str, team: Team | None = None) -> Team:
    """A club's team in a team event, registered with the next start number."""
    with transaction.atomic():
        event = _editable_event(event, user)
        if not event.is_team:
            raise ServiceError(_("Teams play in team events only."), code="not_team_event")
        if not event.league.clubs.filter(pk=club.pk).exists():
            raise FieldError("club", _("This club does not play in the league."))
        if not name.strip():
            raise FieldError("name", _("The team needs a name."))
        if Team.objects.filter(event=event, name=name.strip()).exclude(pk__in=[team.pk] if team else []).exists():
            raise FieldError("name", _("The event has a team of this name already."))
        if team is None:
            team = Team.objects.create(event=event, club=club, name=name.strip())
            number = (Entry.objects.filter(event=event).aggregate(n=Max("start_number"))["n"] or 0) + 1
            Entry.objects.create(event=event, start_number=number, team=team)
        else:
            team.name, team.club = name.strip(), club
            team.save(update_fields=["name", "club"])
            names_changed(event_id=event.pk)  # the standings name the team anew
        pages_changed(event_id=event.pk)
        return team


def roster_set(*, team: Team, user: AnyUser, players: list[Player]) -> list[TeamMember]:
    """The team's roster in board order: the first ``event.boards`` are its regular players, the rest its
    reserves. Players of the team's club only, each once. A player new to the event gets the rating of the event
    from round 1 (the registry's under its rating method), which a later registry change no longer moves."""
    with transaction.atomic():
        _editable_event(team.event, user)
        ids = [p.pk for p in players]
        if len(ids) != len(set(ids)):
            raise FieldError("players", _("A player is on the roster twice."))
        members = set(ClubMembership.objects.filter(club=team.club_id, player__in=ids).values_list("player", flat=True))
        for player in players:
            if player.pk not in members:
                raise FieldError(
                    "players", _("%(player)s is not a player of %(club)s.") % {"player": player.name, "club": team.club}
                )
        TeamMember.objects.filter(team=team).delete()
        saved = TeamMember.objects.bulk_create(
            TeamMember(team=team, player=player, board_order=order) for order, player in enumerate(players, start=1)
        )
        # each player's rating of the event from round 1 (ratings per round: a newer list adds later rounds)
        event, method = team.event, team.event.rating_method
        MemberRating.objects.bulk_create(
            [MemberRating(event=event, player=p, from_round=1, rating=rating_by_method(p, method)) for p in players],
            ignore_conflicts=True,
        )
        pages_changed(event_id=team.event_id)
        return saved


# ------------------------------------------------------------------------------------------ prizes

FUND_FIELDS = {"currency", "method", "one_prize_per_player", "remainder", "places_first", "item_tie", "published"}


def minor_units(amount: Decimal, currency: str) -> int:
    """An amount in the currency's units (e.g. 150.50 pounds) as minor units (15050 pence)."""
    decimals = CURRENCIES.get(currency, (currency, 2))[1]
    scaled = (Decimal(amount) * 10**decimals).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    if scaled != Decimal(amount) * 10**decimals:
        raise ServiceError(_("%(currency)s has no smaller unit than this.") % {"currency": currency}, code="bad_amount")
    return int(scaled)


def major_units(amount: int, currency: str) -> Decimal:
    decimals = CURRENCIES.get(currency, (currency, 2))[1]
    return Decimal(amount) / 10**decimals if decimals else Decimal(amount)


@dataclass
class PrizeInput:
    kind: str
    place: int | None = None
    category: str = ""
    eligibility_kind: str = ""
    eligibility_value: str = ""
    rank: int = 1
    amount: Decimal = Decimal(0)  # in the currency's units
    item: str = ""
    team_size: int = 3


def _prizes(fund: PrizeFund, prizes: list[PrizeInput]) -> list[Prize]:
    built = []
    for index, given in enumerate(prizes, start=1):
        if given.amount < 0:
            raise FieldError(f"prizes-{index}", _("An amount cannot be negative."))
        prize = Prize(
            fund=fund,
            kind=given.kind,
            place=given.place if given.kind == Prize.Kind.PLACE else None,
            category=given.category,
            eligibility_kind=given.eligibility_kind,
            eligibility_value=given.eligibility_value,
            rank=given.rank or 1,
            amount=minor_units(given.amount, fund.currency),
            item=given.item,
            team_size=given.team_size or 3,
            position=index,  # the organiser's order, which the split follows
        )
        try:
            prize.full_clean(exclude=["fund"], validate_constraints=False)
        except ValidationError as exc:
            messages = [m for ms in exc.message_dict.values() for m in ms]
            raise FieldError(f"prizes-{index}", messages[0]) from None
        built.append(prize)
    keys = [(p.kind, p.place, p.category, p.rank) for p in built]
    if len(keys) != len(set(keys)):
        raise FieldError("prizes", _("Two prizes have the same place or the same category and rank."))
    return built


def prize_fund_save(
    *, event: Event, user: AnyUser, fields: dict[str, Any], prizes: list[PrizeInput], reason: str = ""
) -> PrizeFund:
    """Replace the event's prize fund and prizes (amounts in the currency's units) and split it again.
    A finished event's prizes change only by its organiser, with a reason shown publicly."""
    with transaction.atomic():
        _organiser(user, event.league_id)
        event = Event.objects.select_for_update().get(pk=event.pk)
        finished_event_override(event, user, reason, FinishedEventChange.Subject.PRIZES)
        fund = PrizeFund.objects.filter(event=event).first() or PrizeFund(event=event, currency=event.league.currency)
        _assign(fund, fields, FUND_FIELDS)
        _validated(fund, exclude=["event", "lot_order"])
        fund.save()
        built = _prizes(fund, prizes)
        fund.prizes.all().delete()
        try:
            with transaction.atomic():
                Prize.objects.bulk_create(built)
        except IntegrityError:
            raise FieldError("prizes", _("Two prizes have the same place or the same category and rank.")) from None
        try:
            prizes_recompute(event.pk, strict=True)
        except ValueError as exc:
            raise FieldError("prizes", str(exc), code="prize_split_refused") from None
        pages_changed(event_id=event.pk)
        return fund


@dataclass
class PrizePreview:
    currency: str
    awards: list[tuple[int, str, int, list[str]]]  # (place, name, money in minor units, items)
    lines: list[tuple[str, dict[str, Any]]]  # the split's reason lines (code, params)
    total_paid: int
    fund_total: int
    problem: str = ""


def prizes_preview(*, event: Event, fields: dict[str, Any], prizes: list[PrizeInput]) -> PrizePreview:
    """Who would receive what if the standings ended today, with these prizes: nothing is saved."""
    fund = PrizeFund(event=event, currency=event.league.currency)
    _assign(fund, fields, FUND_FIELDS)
    built = _prizes(fund, prizes)
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    if snapshot is None:
        return PrizePreview(fund.currency, [], [], 0, sum(p.amount for p in built), _("No standings yet."))
    entries = {entry.start_number: entry for entry in entries_with_clubs(event)}
    try:
        result = split_prizes(
            prize_standings(snapshot, entries),
            [split_prize(p) for p in built],
            prize_options(fund),
            club_names(entries),
        )
    except ValueError as exc:
        return PrizePreview(fund.currency, [], [], 0, sum(p.amount for p in built), str(exc))
    place = {row_number(row): index for index, row in enumerate(snapshot.rows, start=1)}
    awards = sorted(
        (place.get(a.participant_id, 0), entries[a.participant_id].name, a.money, list(a.items))
        for a in result.awards
        if a.participant_id in entries
    )
    awards += [(0, a.name, a.money, list(a.items)) for a in result.club_awards]
    lines = [(line.code, line.params) for line in result.lines]
    return PrizePreview(fund.currency, awards, lines, result.total_paid, result.fund)
