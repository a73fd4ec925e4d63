"""TRF import and export of an event: the import is one transaction, audited as source "import"."""

import datetime
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from pairings import PairingError
from pairings import System as PairingSystem
from pairings.checker import check_event
from pairings.trf import read_event
from tiebreaks.engine import FIDE_EDITIONS, EngineError, fide_edition_for, recommended_criteria
from tiebreaks.engine.model import Participant, RoundEntry, Scoring, Tournament, last_paired_round
from tiebreaks.engine.team import primary_from_event_type
from tiebreaks.trf import TRFError, TRFNote, read_trf_with_notes, trf_problems, write_trf
from tiebreaks.trf.codes import UNPAIRED_AS_BYE, parse_birth
from tiebreaks.trf.dates import file_edition
from tiebreaks.trf.read import ratings_per_round_chosen, round_rating_records

from ..errors import PermissionDenied, ServiceError
from ..models import (
    Entry,
    EntryRating,
    Event,
    Game,
    League,
    PairingSettings,
    Player,
    Result,
    ResultChange,
    Round,
    Season,
)
from ..page_cache import pages_changed
from ..permissions import AnyUser, is_league_organiser
from ..text import CONTROL_CODES
from .cups import cup_trf_lines
from .fide_mode import imported_event_mode, trf_comment_lines, trf_scoring_problems
from .players import registry_blanks_offered
from .policy import compute_standings_check
from .rating_report_teams import team_scores_written
from .ratings import national_federation, rating_chosen, tiebreaks_written
from .results import result_record, results_record_new
from .round_pairings import pairing_records
from .standings import rank_by_tiebreaks, scoring_for, team_tournament_for, tournament_for
from .start_numbers import BYE_BOARD
from .tiebreak_decisions import (
    criteria_with_trf_seed,
    decision_lines_read,
    decision_trf_lines,
    decisions_from_trf,
)
from .trf_teams import TeamPlan, team_event_fill, team_event_update, team_plan, team_update_checked

PAIR_RESULTS = {
    ("1", "0"): Result.WHITE_WINS,
    ("W", "L"): Result.WHITE_WINS,
    ("=", "="): Result.DRAW,
    ("D", "D"): Result.DRAW,
    ("0", "1"): Result.BLACK_WINS,
    ("L", "W"): Result.BLACK_WINS,
    ("+", "-"): Result.WHITE_WINS_FORFEIT,
    ("-", "+"): Result.BLACK_WINS_FORFEIT,
    ("-", "-"): Result.DOUBLE_FORFEIT,
    ("?", "?"): Result.UNKNOWN,
    ("X", "X"): Result.UNKNOWN,
    (" ", " "): Result.PENDING,  # paired, not played yet
}
BYE_RESULTS = {
    "U": Result.PAIRING_BYE,
    "F": Result.FULL_POINT_BYE,
    "H": Result.HALF_POINT_BYE,
    "Z": Result.ZERO_POINT_BYE,
    "A": Result.ABSENT,
    " ": Result.ABSENT,
    "": Result.ABSENT,
}
#: TRF's title field (001, columns 11-13) as the titles players know
TRF_TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM", "wc": "WCM"}


@dataclass(frozen=True)
class RuleEdition:
    """The FIDE rule edition a new event from a file is played under, and what it follows from.

    The file's start date (042) decides it as on the command line (tiebreaks.trf.dates.file_edition: C.07 of
    2026 from 1 March 2026, the earlier edition before), also an ambiguous one the file's other dates settle or
    whose readings all give one edition (`readings` then holds them, and the start stays unknown); a start date
    still ambiguous across 1 March 2026, unreadable or missing decides nothing: the organiser chooses the date's
    reading (or types the date) or the edition itself. `rule_set` "" means: not chosen yet."""

    rule_set: str
    start_date: str = ""  # ISO: the date the edition follows from and the event's start ("" unknown)
    text: str = ""  # the start date as the file writes it ("" none)
    readings: tuple[str, ...] = ()  # an ambiguous start date's readings (ISO)
    chosen: bool = False  # the organiser chose (a reading, a date or the edition)


def rule_edition(
    tournament: Tournament, notes: list[TRFNote], *, start_date: str | None = None, rule_set: str | None = None
) -> RuleEdition:
    """The rule edition of a new event from the file `tournament` (read with `notes`), with the organiser's
    answer if any: `start_date` (a reading of an ambiguous date, or the date of a file without a readable
    one) or `rule_set` (fide-2026 or fide-2023) directly. Raises ServiceError for an answer that is not one."""
    found = file_edition(tournament, notes)
    text, readings = found.text, found.readings
    if start_date:
        try:
            datetime.date.fromisoformat(start_date)
        except ValueError:
            raise ServiceError(
                _("“%(date)s” is not a date (YYYY-MM-DD).") % {"date": start_date}, code="bad_start_date"
            ) from None
        if readings and start_date not in readings:
            raise ServiceError(
                _("The start date “%(text)s” reads as %(readings)s, not as %(date)s.")
                % {"text": text, "readings": _(" or ").join(readings), "date": start_date},
                code="bad_start_date",
            )
    if rule_set:
        if rule_set not in FIDE_EDITIONS:
            raise ServiceError(
                _("Unknown rule edition “%(rules)s” (choose %(editions)s).")
                % {"rules": rule_set, "editions": _(" or ").join(FIDE_EDITIONS)},
                code="bad_rule_set",
            )
        return RuleEdition(rule_set, start_date or found.start_date, text, readings, chosen=True)
    if start_date:
        return RuleEdition(fide_edition_for(start_date), start_date, text, readings, chosen=True)
    return RuleEdition(found.rule_set, found.start_date, text, readings)


def rule_edition_question(edition: RuleEdition) -> str:
    """Why the organiser must choose the rule edition (the CLI's warning, the confirmation's refusal)."""
    if edition.readings:
        return _(
            "The start date “%(text)s” is ambiguous (%(readings)s), and the tiebreak rules depend on it (FIDE's "
            "2026 rules apply from 1 March 2026): choose the date or the rule edition."
        ) % {"text": edition.text, "readings": _(" or ").join(edition.readings)}
    if edition.text:
        return _(
            "The start date “%(text)s” cannot be read, and the tiebreak rules depend on it (FIDE's 2026 rules "
            "apply from 1 March 2026): give the date or choose the rule edition."
        ) % {"text": edition.text}
    return _(
        "The file has no start date, and the tiebreak rules depend on it (FIDE's 2026 rules apply from "
        "1 March 2026): give the date or choose the rule edition."
    )


@dataclass
class ImportPreview:
    """What an import would do, shown before anything is saved; `problems` lists (line, message)."""

    players: list[tuple[int, str, int | None]] = field(default_factory=list)  # (start number, name, rating)
    rounds: int = 0
    results: int = 0
    tiebreaks: list[str] = field(default_factory=list)
    system: str = ""
    problems: list[tuple[int | None, str]] = field(default_factory=list)  # (line number or None, message)
    update: Event | None = None  # the event the file updates; None: a new event
    # (start number, name in the file, the stored player) of FIDE ids already known from another league only:
    # importing them joins the two records into one player, so the organiser confirms it first
    other_leagues: list[tuple[int, str, Player]] = field(default_factory=list)
    # how the reader understood what real exporters write (dates, results without an opponent,
    # byes from the points column, ...): tiebreaks.trf.TRFNote (line_number, kind, message, params);
    # the site's sentence of each kind: leagues.manage.trf_notes
    notes: list[TRFNote] = field(default_factory=list)
    after_round: int = 0  # the standings are after this round (later rounds: byes entered before their pairing)
    total_rounds: int = 0  # the rounds the file announces
    # points columns that differ from the results, importable when the organiser accepts: TRFError of kind
    # "points_column" (line_number, message, params: player, stated, results)
    points_questions: list[TRFError] = field(default_factory=list)
    # the file's rounds replayed by the pairing engine (pairings.check_event): how many, and the ones that
    # differ as (round, recorded boards, the engine's boards or why it could not pair the round)
    pairings_checked: int = 0
    pairing_differences: list[tuple[int, str, str]] = field(default_factory=list)
    # a new event's rule edition (None: an update, the event keeps its own); edition.rule_set "": the
    # organiser must choose before confirming
    edition: RuleEdition | None = None
    edition_problem: str = ""  # why the organiser's answer to the rule-edition question is not one
    # the game scoring the file gives (162, JaVaFo's BBx, or read from the points columns): a new event keeps it,
    # the pairing-allocated bye's value included
    scoring: Scoring | None = None
    # what is imported but worth a look, as (line number or None, message): FIDE ids given to two players
    warnings: list[tuple[int | None, str]] = field(default_factory=list)
    # a team file (records 013/310): its teams as (team number, name, players), boards per match, the team
    # matches and team byes it creates, and the primary score ("MP" or "GP")
    teams: list[tuple[int, str, int]] = field(default_factory=list)
    boards: int = 0
    matches: int = 0
    team_byes: int = 0
    primary: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems


def import_preview(
    *,
    data: bytes,
    system: str | None = None,
    event: Event | None = None,
    league: League | None = None,
    accept_points_column: bool = False,
    start_date: str | None = None,
    rule_set: str | None = None,
) -> ImportPreview:
    """Every problem of the file (by line), and what importing it would create; saves nothing.

    With `event`, the file updates that event: its participants must be the event's. With `league`, the new
    event's league: the preview lists the FIDE ids known from other leagues only. A points column that differs
    from the results is a problem (also listed in `points_questions`) unless `accept_points_column`.
    A new event's rule edition follows from the start date, or from the organiser's `start_date` or
    `rule_set` (`edition`: see RuleEdition; an edition still to choose is not a problem of the file)."""
    preview = ImportPreview(update=event)
    problems = trf_problems(data)
    preview.points_questions = [p for p in problems if p.kind == "points_column"]
    if accept_points_column:
        problems = [p for p in problems if p.kind != "points_column"]
    if problems:
        preview.problems = [(p.line_number, p.message) for p in problems]
        return preview
    tournament, notes = read_trf_with_notes(data, accept_points_column=accept_points_column)
    preview.problems.extend(storage_problems(data, tournament))
    if event is None:
        preview.warnings = repeated_fide_id_warnings(data, tournament) + unreadable_title_warnings(data, tournament)
    else:  # an update adds no players, and the event keeps its scoring
        preview.warnings = scoring_differs_warnings(data, tournament.scoring, event)
    preview.notes = notes
    preview.scoring = tournament.scoring
    preview.after_round = last_paired_round(p.rounds for p in tournament.participants)
    preview.total_rounds = tournament.total_rounds
    method, national = national_ratings_of_trf(tournament)  # the rating record 172's method chooses
    preview.players = [
        (p.start_number, p.name, rating_chosen(method, p.rating, national.get(p.start_number)))
        for p in tournament.participants
    ]
    preview.rounds = max((len(p.rounds) for p in tournament.participants), default=0)
    if not tournament.teams:
        preview.results = sum(1 for _number, _white, _black, _result in _games(tournament))
    if event is None:  # an update adds no players and keeps the event's rule edition
        preview.other_leagues = players_of_other_leagues(tournament, league)
        try:
            preview.edition = rule_edition(tournament, notes, start_date=start_date, rule_set=rule_set)
        except ServiceError as exc:  # not the file's problem: the question stays open
            preview.edition = rule_edition(tournament, notes)
            preview.edition_problem = exc.message
    try:
        system, criteria = _system_and_criteria(tournament, system, event)
        preview.system = system
        preview.tiebreaks = criteria
        _check_importable(tournament, event)
        if event is not None and tournament.teams:
            team_update_checked(event, tournament)
        elif event is not None:
            _check_update(tournament, event)
        elif problem := tiebreak_list_problem(data, tournament, system, preview.edition):
            preview.problems.append(problem)
        else:  # the decisions and the drawing of lots' seed of the site's own files (### lines)
            preview.tiebreaks = criteria_with_trf_seed(criteria, tournament.extra_records)
            numbers = {p.start_number for p in tournament.participants}
            decision_lines_read(tournament.extra_records, numbers, preview.tiebreaks)
        if tournament.teams:
            _team_preview(preview, tournament)
    except ServiceError as exc:
        preview.problems.append((None, exc.message))
    if not preview.problems and not tournament.teams:
        _check_pairings(preview, data, preview.system)
    return preview


def _team_preview(preview: ImportPreview, tournament: Tournament) -> None:
    """What a team file creates (trf_teams.team_plan); raises ServiceError for what a team event cannot keep."""
    plan = team_plan(tournament)
    preview.teams = [(team.number, team.name, len(team.members)) for team in plan.teams]
    preview.boards = plan.boards
    preview.matches = len(plan.matches)
    preview.team_byes = len(plan.byes)
    preview.results = plan.results
    preview.primary = plan.primary


#: the import preview replays the pairings of files up to this many players (bigger ones would keep the
#: request waiting); each round's replay may take this many seconds
PAIRING_CHECK_MAX_PLAYERS = 150
PAIRING_CHECK_SECONDS = 10.0


def _check_pairings(preview: ImportPreview, data: bytes, system: str) -> None:
    """Replay the file's rounds with the pairing engine and list the rounds it pairs differently."""
    if not 1 < len(preview.players) <= PAIRING_CHECK_MAX_PLAYERS:
        return
    engine_system = PairingSystem.DUTCH if system == Event.System.SWISS else PairingSystem.BERGER
    try:
        checks = check_event(read_event(data, engine_system), timeout=PAIRING_CHECK_SECONDS)
    except PairingError:
        return  # e.g. no number of rounds in the file: nothing to replay
    preview.pairings_checked = len(checks)
    preview.pairing_differences = [
        (check.round, _boards_text(check.recorded), check.problem or _boards_text(check.engine))
        for check in checks
        if not check.same
    ]


def _boards_text(pairs: Iterable[tuple[int, int]]) -> str:
    return ", ".join(f"{w} bye" if b == 0 else f"{w}–{abs(b)}" for w, b in sorted(pairs, key=lambda p: (p[1] == 0, p)))


def event_import_trf(
    *,
    league: League,
    name: str,
    slug: str,
    data: bytes,
    user: AnyUser,
    season: Season | None = None,
    system: str | None = None,
    event: Event | None = None,
    same_players_confirmed: bool = False,
    accept_points_column: bool = False,
    start_date: str | None = None,
    rule_set: str | None = None,
    progress: "Progress | None" = None,
    publish: bool = True,
) -> Event:
    """Create an individual event with its players, pairings and results from a TRF file.

    `system` (Event.System) overrides what the file says: many files do not record a round robin.
    With `event` (an existing event of the league), update it instead: the file must list the
    event's participants; new rounds and games are added and results that differ are corrected
    (reason "TRF import"); nothing else changes. Either all of it is saved or nothing.

    A FIDE id known only from another league's events is the same player only when the organiser says so
    (`same_players_confirmed`, after the preview listed them): never joined silently. A points column that
    differs from the results refuses the file unless the organiser accepted it (`accept_points_column`).

    A new event is played under the FIDE rule edition of its start date (and starts on it); when the file's
    start date is ambiguous, unreadable or missing, the organiser's `start_date` or `rule_set` says it, and
    without them the import is refused (rule_edition_question).

    `progress(step, done, total)` hears how far the import is (IMPORT_STEPS), for a worker's import page."""
    report = progress or _no_progress
    if event is not None:
        league = event.league
    if not is_league_organiser(user, league.pk):
        raise PermissionDenied(_("Only the league's organiser may import events."))
    report("reading", 0, 1)
    tournament, notes = _importable_file(data, accept_points_column, event)
    if event is not None:
        report("games", 0, 1)
        return _update_from_file(event, tournament, user)
    _check_new_event(tournament, league, slug, same_players_confirmed)
    edition = rule_edition(tournament, notes, start_date=start_date, rule_set=rule_set)
    if not edition.rule_set:
        raise ServiceError(rule_edition_question(edition), code="rule_edition_needed")
    system, criteria = _new_event_system_and_criteria(data, tournament, system, edition)
    rating_method, national = national_ratings_of_trf(tournament)
    new = _NewEvent(league, season, name, slug, publish, system, criteria, edition, rating_method, national)
    plan = team_plan(tournament) if tournament.teams else None
    with transaction.atomic():
        event = _event_created(new, tournament, plan, user)
        if plan is not None:
            players = _players_from_trf(tournament, new.year, report)
            registry_blanks_offered(league=league, user=user, blanks=_registry_blanks(tournament, players, new.year))
            report("games", 0, 1)
            team_event_fill(event=event, league=league, tournament=tournament, plan=plan, players=players, user=user)
        else:
            _individual_event_filled(event, new, tournament, user, report)
        return event


def _importable_file(data: bytes, accept_points_column: bool, event: Event | None) -> tuple[Tournament, list[TRFNote]]:
    """The file read, with its notes; raises ServiceError when it cannot be read, stored or imported (into
    `event`, for an update)."""
    try:
        tournament, notes = read_trf_with_notes(data, accept_points_column=accept_points_column)
    except TRFError as exc:
        raise ServiceError(_("The file cannot be read: %(problem)s") % {"problem": exc}, code="bad_trf") from None
    for line, problem in storage_problems(data, tournament)[:1]:
        raise ServiceError(_("Line %(line)s: %(problem)s") % {"line": line, "problem": problem}, code="bad_trf")
    _check_importable(tournament, event)
    return tournament, notes


def _update_from_file(event: Event, tournament: Tournament, user: AnyUser) -> Event:
    """An existing event updated from the file: its new rounds and games, its corrected results."""
    if tournament.teams:
        with transaction.atomic():
            event = Event.objects.select_for_update().get(pk=event.pk)
            return team_event_update(event=event, tournament=tournament, user=user)
    return _update_event(event, tournament, user)


def _check_new_event(tournament: Tournament, league: League, slug: str, same_players_confirmed: bool) -> None:
    """A new event joins no other league's players silently and takes no address already taken."""
    others = players_of_other_leagues(tournament, league)
    if others and not same_players_confirmed:
        raise ServiceError(
            _("These FIDE ids belong to players of another league: %(players)s. Confirm they are the same players.")
            % {"players": ", ".join(f"{number} {name} = {player.name}" for number, name, player in others)},
            code="players_of_other_leagues",
        )
    if Event.objects.filter(slug=slug).exists():
        raise ServiceError(
            _("An event with the address “%(slug)s” exists already.") % {"slug": slug}, code="slug_taken"
        )


def _new_event_system_and_criteria(
    data: bytes, tournament: Tournament, system: str | None, edition: RuleEdition
) -> tuple[str, list[str]]:
    """The new event's pairing system and tiebreak list (with the file's drawing of lots' seed); raises
    ServiceError for a tiebreak list the rule edition does not allow."""
    system, criteria = _system_and_criteria(tournament, system, None)
    if invalid := tiebreak_list_problem(data, tournament, system, edition):
        line, message = invalid
        raise ServiceError(
            _("Line %(line)s: %(problem)s") % {"line": line, "problem": message} if line else message,
            code="bad_tiebreak_policy",
        )
    return system, criteria_with_trf_seed(criteria, tournament.extra_records)


@dataclass(frozen=True)
class _NewEvent:
    """What a new event from a file is: where it goes, its name and address, and what the file and the
    organiser decided of its rules."""

    league: League
    season: Season | None
    name: str
    slug: str
    publish: bool
    system: str
    criteria: list[str]
    edition: RuleEdition
    rating_method: str
    national: dict[int, int | None]

    @property
    def year(self) -> int | None:
        """The year the event starts (players' ages, the registry's birth years), None unknown."""
        return int(self.edition.start_date[:4]) if self.edition.start_date else None


def _event_created(new: _NewEvent, tournament: Tournament, plan: TeamPlan | None, user: AnyUser) -> Event:
    """The new event row, its pairing-allocated bye's value and its FIDE mode, its pages renewed."""
    scoring = tournament.scoring
    baku = not plan and new.system == Event.System.SWISS and "BAKU" in tournament.event_type.upper()
    event = Event.objects.create(
        league=new.league,
        season=new.season,
        name=new.name,
        slug=new.slug,
        # a draft, seen by the league's organisers only, unless the organiser publishes it with the import
        status=Event.Status.PUBLISHED if new.publish else Event.Status.DRAFT,
        system=new.system,
        rounds_count=tournament.total_rounds,
        starts_on=new.edition.start_date or None,
        rule_set=new.edition.rule_set,
        points_win=_decimal(scoring.win),
        points_draw=_decimal(scoring.draw),
        points_loss=_decimal(scoring.loss),
        points_absence=_decimal(scoring.absence),
        points_unknown=None if scoring.unknown is None else _decimal(scoring.unknown),
        tiebreak_criteria=new.criteria,
        rating_method=new.rating_method,
        baku_acceleration=baku,
        **_team_event_fields(plan),
    )
    if scoring.pab is not None:  # BBU, or P of record 162: the pairing-allocated bye's value
        PairingSettings.objects.create(event=event, pab_points=_decimal(scoring.pab))
    pages_changed(event_id=event.pk)  # a deleted event's address taken again: its pages are this event's
    imported_event_mode(event, scoring, user)
    return event


def _team_event_fields(plan: TeamPlan | None) -> dict[str, Any]:
    """A team event's boards and match points from a team file's plan; nothing for an individual event."""
    if plan is None:
        return {}
    win, draw, loss = plan.match_points
    return {
        "kind": Event.Kind.TEAM,
        "boards": plan.boards,
        "match_points_win": _decimal(win),
        "match_points_draw": _decimal(draw),
        "match_points_loss": _decimal(loss),
        "primary_score": (Event.PrimaryScore.GAME_POINTS if plan.primary == "GP" else Event.PrimaryScore.MATCH_POINTS),
    }


def _individual_event_filled(
    event: Event, new: _NewEvent, tournament: Tournament, user: AnyUser, report: "Progress"
) -> None:
    """A new individual event's entries, ratings, tiebreak decisions, rounds, games and byes, and its
    tiebreak list checked on the standings; raises ServiceError for a list the engine refuses."""
    entries = _entries_from_trf(
        event, tournament, new.year, report, national=new.national, rating_method=new.rating_method
    )
    _round_ratings_from_trf(event, tournament, entries)
    decisions_from_trf(event, tournament.extra_records, entries, user)
    # a stored player's blank fields: written if no other league keeps the player, else proposed to them
    entered = {number: entry.player for number, entry in entries.items()}
    registry_blanks_offered(
        league=new.league, user=user, blanks=_registry_blanks(tournament, entered, new.year, national=new.national)
    )
    report("games", 0, 1)
    new_games = _new_games(event, tournament, entries)
    results_record_new(event=event, games=new_games, user=user, source=ResultChange.Source.IMPORT)
    report("checking", 0, 1)
    try:
        compute_standings_check(event, event.rule_set, new.criteria)
    except EngineError as exc:
        raise ServiceError(
            _("The file's tiebreak list is not valid: %(problem)s") % {"problem": exc}, code="bad_tiebreak_policy"
        ) from None


def _new_games(event: Event, tournament: Tournament, entries: Mapping[int, Entry]) -> list[Game]:
    """The file's games and byes, unsaved, on boards numbered in file order (a bye on its bye board); each
    round of the file is created."""
    rounds: dict[int, Round] = {}
    boards: dict[int, int] = {}
    new_games = []
    for number, white, black, result in _games(tournament):
        if number not in rounds:
            rounds[number] = Round.objects.create(event=event, number=number)
        if black is None:
            game = Game(round=rounds[number], board=BYE_BOARD + white, white=entries[white], result=result)
        else:
            boards[number] = board = boards.get(number, 0) + 1
            game = Game(round=rounds[number], board=board, white=entries[white], black=entries[black], result=result)
        new_games.append(game)
    return new_games


def national_ratings_of_trf(tournament: Tournament) -> tuple[str, dict[int, int | None]]:
    """TRF-26 record 172: the rating method the file's event used (FIDE, NRO, FIDON, NIDOF, HBFN, LBFN; the site's
    own older files say it in a ``### rating method:`` line) and the national rating of each player's NRS record
    (the record tagged with 172's federation), by start number. A method the site does not have (OTHER) is read as
    FIDE's: the 001 ratings stay."""
    federation = method = ""
    for line in tournament.extra_records:
        if line.startswith("172"):
            federation, method = line[4:7].strip().upper(), line[8:13].strip().upper()
        elif line.lower().startswith("### rating method:") and not federation:
            method = line.split(":", 1)[1].strip().upper()
    national: dict[int, int | None] = {}
    for line in tournament.extra_records if federation else ():
        if line[:3].upper() == federation and line[4:8].strip().isdigit():
            rating = line[48:52].strip()
            national[int(line[4:8])] = int(rating) if rating.isdigit() and int(rating) else None
    if method not in Event.RatingMethod.values:
        method = Event.RatingMethod.FIDE
    return method, national


def _round_ratings_from_trf(event: Event, tournament: Tournament, entries: Mapping[int, Entry]) -> None:
    """What the site's own TRF files say in ``###`` lines (TRF-26 holds one rating per player): each newer rating
    from a round on, and the regulations' choice of the rating of each round for the rating-based tie-breaks."""
    newer = {
        (number, from_round): (rating, date)
        for number, from_round, rating, date in round_rating_records(tournament)
        if number in entries and from_round <= event.rounds_count
    }
    EntryRating.objects.bulk_create(
        EntryRating(
            entry=entries[number],
            from_round=from_round,
            rating=rating,
            list_date=datetime.date.fromisoformat(date) if date else None,
        )
        for (number, from_round), (rating, date) in newer.items()
    )
    if ratings_per_round_chosen(tournament):
        event.tiebreak_ratings = Event.TiebreakRatings.ROUND
        event.save(update_fields=["tiebreak_ratings"])


#: the steps of an import its progress names, in order: reading the file, saving the players (done of total),
#: saving the rounds, games and byes, checking the tiebreak policy (then the standings are computed by a worker)
IMPORT_STEPS = ("reading", "players", "games", "checking")
Progress = Callable[[str, int, int], None]


def _no_progress(step: str, done: int, total: int) -> None:
    pass


def _fide_id(p: Participant) -> int | None:
    return int(p.fide_id) if p.fide_id.isdecimal() and int(p.fide_id) else None


def _registry_fields(p: Participant, this_year: int, national: int | None = None) -> dict[str, Any]:
    """What a TRF 001 line tells about a player beyond the event: title, federation, rating, sex, birth year and,
    when the file gives the day, birth date (private: organisers' pages, the rating report and K only); and the
    national rating of the player's NRS record (record 172), if any."""
    birth_year, birth_date = parse_birth(p.birth, this_year=this_year)
    return {
        "title": TRF_TITLES.get(p.title.strip().lower(), ""),
        "federation": p.federation.strip().upper()[:3],
        "rating": p.rating or None,
        "rating_national": national or None,
        "sex": p.sex if p.sex in ("m", "w") else "",
        "birth_year": birth_year,
        "birth_date": birth_date or None,
    }


#: players saved per statement (the import's progress moves on after each)
PLAYERS_PER_BATCH = 250


def _entries_from_trf(
    event: Event,
    tournament: Tournament,
    this_year: int | None,
    report: "Progress",
    *,
    national: Mapping[int, int | None] | None = None,
    rating_method: str = Event.RatingMethod.FIDE,
) -> dict[int, Entry]:
    """The event's entries by start number, with their players (_players_from_trf); each entry's rating is the one
    the file's rating method (record 172) chooses from the 001 rating and the national rating record."""
    national = national or {}
    players = _players_from_trf(tournament, this_year, report, national=national)
    entries: dict[int, Entry] = {}
    participants = tournament.participants
    for start in range(0, len(participants), PLAYERS_PER_BATCH):
        batch = [
            Entry(
                event=event,
                start_number=p.start_number,
                rating=rating_chosen(rating_method, p.rating, national.get(p.start_number)),
                player=players[p.start_number],
            )
            for p in participants[start : start + PLAYERS_PER_BATCH]
        ]
        entries.update((entry.start_number, entry) for entry in Entry.objects.bulk_create(batch))
    return entries


def _players_from_trf(
    tournament: Tournament,
    this_year: int | None,
    report: "Progress",
    *,
    national: Mapping[int, int | None] | None = None,
) -> dict[int, Player]:
    """The players of the file by start number: the stored one of each FIDE id (blank fields filled from the
    file), else a new one; saved a batch at a time (a 2,000-player file in a few statements). A FIDE id the file
    gives to a second player is that player's no more: a new player without one (the preview warned,
    repeated_fide_id_warnings)."""
    participants = tournament.participants
    taken: set[int] = set()
    year = this_year or timezone.localdate().year
    stored = {
        player.fide_id: player
        for player in Player.objects.filter(fide_id__in=[f for f in map(_fide_id, participants) if f])
    }
    players: dict[int, Player] = {}
    for start in range(0, len(participants), PLAYERS_PER_BATCH):
        report("players", start, len(participants))
        new_players = []
        for p in participants[start : start + PLAYERS_PER_BATCH]:
            fields, fide_id = _registry_fields(p, year, (national or {}).get(p.start_number)), _fide_id(p)
            if fide_id in taken:
                fide_id = None
            elif fide_id:
                taken.add(fide_id)
            player = stored.get(fide_id) if fide_id else None
            if player is None:
                player = Player(name=p.name, fide_id=fide_id, **fields)
                new_players.append(player)
            # a stored player's blank fields are not written here: the caller offers them (_registry_blanks)
            players[p.start_number] = player
        Player.objects.bulk_create(new_players)  # the players of this batch have their ids now
    return players


def _registry_blanks(
    tournament: Tournament,
    players: Mapping[int, Player | None],
    this_year: int | None,
    *,
    national: Mapping[int, int | None] | None = None,
) -> dict[int, dict[str, Any]]:
    """Player id → the registry fields the file has that a stored player of it lacks (a new player was saved
    with the file's fields already)."""
    year = this_year or timezone.localdate().year
    blanks: dict[int, dict[str, Any]] = {}
    for p in tournament.participants:
        player = players.get(p.start_number)
        if player is None or player.pk is None:
            continue
        fields = _registry_fields(p, year, (national or {}).get(p.start_number))
        missing = {name: value for name, value in fields.items() if value and not getattr(player, name)}
        if missing:
            blanks.setdefault(player.pk, missing)
    return blanks


def players_of_other_leagues(tournament: Tournament, league: League | None) -> list[tuple[int, str, Player]]:
    """Participants whose FIDE id is a stored player who played in other leagues, never in `league`."""
    by_fide_id: dict[int | None, Participant] = {}
    for p in tournament.participants:
        if _fide_id(p):
            by_fide_id.setdefault(_fide_id(p), p)  # a FIDE id given twice is the first player's
    stored = (
        Player.objects.filter(fide_id__in=by_fide_id)
        .filter(Q(entry__isnull=False) | Q(teammember__isnull=False))
        .distinct()
    )
    if league is not None:
        stored = stored.exclude(entry__event__league=league).exclude(teammember__team__event__league=league)
    return sorted(
        ((by_fide_id[player.fide_id].start_number, by_fide_id[player.fide_id].name, player) for player in stored),
        key=lambda item: item[0],
    )


def _system_and_criteria(tournament: Tournament, system: str | None, event: Event | None) -> tuple[str, list[str]]:
    if event is not None:
        return event.system, list(event.tiebreak_criteria)
    if system is None:
        system = Event.System.ROUND_ROBIN if tournament.round_robin else Event.System.SWISS
    if system not in Event.System.values:
        raise ServiceError(_("Unknown pairing system “%(system)s”.") % {"system": system}, code="bad_system")
    kind = "swiss" if system == Event.System.SWISS else "round_robin"
    if tournament.teams:  # a team event lists its primary score first (202's PTS is the primary score)
        primary = primary_from_event_type(tournament.event_type)
        listed = tournament.tiebreaks or recommended_criteria(f"team_{kind}", tournament.total_rounds)
        return system, [f"{primary}TS" if c.upper() == "PTS" else c for c in listed]
    return system, [c for c in (tournament.tiebreaks or recommended_criteria(kind)) if c.upper() != "PTS"]


#: the most rounds an event may have (a double round robin of 40 players has 78)
MAX_ROUNDS = 99


def storage_problems(data: bytes, tournament: Tournament) -> list[tuple[int | None, str]]:
    """What a readable file says that the league cannot store, each with its line (the same list at preview
    and at confirmation): control characters, FIDE ids that are not numbers, too many rounds, a scoring the
    event cannot keep."""
    problems: list[tuple[int | None, str]] = []
    player_lines = _player_lines(data)
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if CONTROL_CODES & set(raw):
            problems.append((number, _("The line contains a control character (such as NUL).")))
    for p in tournament.participants:
        fide_id = p.fide_id.strip()
        if fide_id and not (fide_id.isascii() and fide_id.isdigit() and len(fide_id) <= 15):
            problems.append(
                (player_lines.get(p.start_number), _("The FIDE id “%(id)s” is not a number.") % {"id": fide_id})
            )
    played = max((len(p.rounds) for p in tournament.participants), default=0)
    if max(tournament.total_rounds or 0, played) > MAX_ROUNDS:
        problems.append(
            (
                _record_line(data, ("142",)),
                _("%(rounds)s rounds above the event's limit of %(limit)s.")
                % {"rounds": max(tournament.total_rounds or 0, played), "limit": MAX_ROUNDS},
            )
        )
    problems.extend(_scoring_problems(data, tournament.scoring))
    return sorted(problems, key=lambda problem: problem[0] or 0)


#: the records that give the game scoring: TRF-26's 162, else JaVaFo's BBx (as the reader takes them)
SCORING_RECORDS = ("162", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU")


def _scoring_problems(data: bytes, scoring: Scoring) -> list[tuple[int | None, str]]:
    """The file's scoring values an event cannot keep: a zero-point bye (BBZ) and a forfeit loss (BBF) of
    different values (the engine counts both as one absence value, 162's A), or a value with more than two
    decimals or outside 0 to 100."""
    line = _record_line(data, SCORING_RECORDS)
    problems: list[tuple[int | None, str]] = []
    javafo = _javafo_values(data)
    if "BBZ" in javafo and "BBF" in javafo and javafo["BBZ"][1] != javafo["BBF"][1]:
        problems.append(
            (
                javafo["BBF"][0],
                _(
                    "The file gives %(zero)s points for a zero-point bye (BBZ) but %(forfeit)s for a forfeit loss "
                    "(BBF); the site counts both alike."
                )
                % {"zero": _points_text(javafo["BBZ"][1]), "forfeit": _points_text(javafo["BBF"][1])},
            )
        )
    values = [scoring.win, scoring.draw, scoring.loss, scoring.pab_points, scoring.absence, scoring.unknown_points]
    for value in values:
        if (value * 100).denominator != 1 or not 0 <= value < 100:
            problems.append((line, _("The scoring value %(points)s cannot be stored.") % {"points": float(value)}))
            break
    problems.extend((line, message) for message in trf_scoring_problems(scoring))  # every door's one check
    return problems


def _javafo_values(data: bytes) -> dict[str, tuple[int, Fraction]]:
    """JaVaFo's BBZ and BBF records that give a number: tag -> (line, value)."""
    found: dict[str, tuple[int, Fraction]] = {}
    for number, raw in enumerate(data.split(b"\n"), start=1):
        tag = raw.lstrip(b"\xef\xbb\xbf")[:3].upper()
        if tag in (b"BBZ", b"BBF"):
            try:
                value = Fraction(raw[4:].decode("ascii", "replace").strip().replace(",", "."))
            except ValueError:
                continue  # the reader refused it already
            found.setdefault(tag.decode(), (number, value))
    return found


def _record_line(data: bytes, tags: tuple[str, ...]) -> int | None:
    """The line of the first record of the first tag in `tags` the file has (None: none of them)."""
    found: dict[bytes, int] = {}
    for number, raw in enumerate(data.split(b"\n"), start=1):
        tag = raw.lstrip(b"\xef\xbb\xbf")[:3].upper()
        found.setdefault(tag, number)
    return next((found[t.encode()] for t in tags if t.encode() in found), None)


def _player_lines(data: bytes) -> dict[int, int]:
    """The line of each start number's 001 record."""
    lines: dict[int, int] = {}
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if raw.startswith(b"001") and raw[4:8].strip().isdigit():
            lines.setdefault(int(raw[4:8]), number)
    return lines


def scoring_text(scoring: Scoring) -> str:
    """A game scoring as the import lists it: win 1, draw 0.5, loss 0, pairing-allocated bye 0.5; then, when the
    file gives them other values than FIDE's, the zero-point bye and forfeit loss, and a result not known."""
    text = _("win %(win)s, draw %(draw)s, loss %(loss)s, pairing-allocated bye %(pab)s") % {
        "win": _points_text(scoring.win),
        "draw": _points_text(scoring.draw),
        "loss": _points_text(scoring.loss),
        "pab": _points_text(scoring.pab_points),
    }
    if scoring.absence:
        text += _(", zero-point bye and forfeit loss %(points)s") % {"points": _points_text(scoring.absence)}
    if scoring.unknown_points != scoring.draw:
        text += _(", result not known %(points)s") % {"points": _points_text(scoring.unknown_points)}
    return text


def _points_text(value: Fraction) -> str:
    decimals = next((n for n in (0, 1) if (value * 10**n).denominator == 1), 2)  # 1, 0.5, 0.25
    return number_format(float(value), decimal_pos=decimals)


def scoring_differs_warnings(data: bytes, scoring: Scoring, event: Event) -> list[tuple[int | None, str]]:
    """A file that updates an event and gives a scoring of its own (162 or BBx) other than the event's: the
    event keeps its scoring (it is fixed from the first result), so its points may differ from the file's."""
    line = _record_line(data, SCORING_RECORDS)
    stored = scoring_for(event)
    values = (scoring.win, scoring.draw, scoring.loss, scoring.pab_points, scoring.absence, scoring.unknown_points)
    kept = (stored.win, stored.draw, stored.loss, stored.pab_points, stored.absence, stored.unknown_points)
    if line is None or values == kept:
        return []
    return [
        (
            line,
            _("The file's scoring (%(file)s) is not the event's (%(event)s); the event keeps its own.")
            % {"file": scoring_text(scoring), "event": scoring_text(stored)},
        )
    ]


def unreadable_title_warnings(data: bytes, tournament: Tournament) -> list[tuple[int | None, str]]:
    """A title the file writes other than in TRF's codes (g, m, f, c, wg, wm, wf, wc: "IM" for m is common) is
    left out of the import: each as (the player's line, warning)."""
    player_lines = _player_lines(data)
    codes = ", ".join(TRF_TITLES)
    return [
        (
            player_lines.get(p.start_number),
            _(
                "The title “%(title)s” of player %(number)s (%(name)s) is not one of TRF's title codes (%(codes)s): "
                "the player is imported without a title."
            )
            % {"title": p.title.strip(), "number": p.start_number, "name": p.name, "codes": codes},
        )
        for p in tournament.participants
        if p.title.strip() and p.title.strip().lower() not in TRF_TITLES
    ]


def repeated_fide_id_warnings(data: bytes, tournament: Tournament) -> list[tuple[int | None, str]]:
    """A FIDE id the file gives to two players (some exporters repeat one): both are imported, as two entries;
    the second keeps no FIDE id. Each as (line of the second player, warning)."""
    player_lines = _player_lines(data)
    first: dict[int, Participant] = {}
    warnings: list[tuple[int | None, str]] = []
    for p in tournament.participants:
        fide_id = _fide_id(p)
        if fide_id is None:
            continue
        if fide_id not in first:
            first[fide_id] = p
            continue
        other = first[fide_id]
        warnings.append(
            (
                player_lines.get(p.start_number),
                _(
                    "FIDE id %(id)s is given to player %(first)s (%(first_name)s) and to player %(second)s "
                    "(%(second_name)s); they may be the same person. Both are imported, as two entries; "
                    "player %(second)s without the FIDE id."
                )
                % {
                    "id": fide_id,
                    "first": other.start_number,
                    "first_name": other.name,
                    "second": p.start_number,
                    "second_name": p.name,
                },
            )
        )
    return warnings


def tiebreak_list_problem(
    data: bytes, tournament: Tournament, system: str, edition: RuleEdition | None
) -> tuple[int | None, str] | None:
    """Why the file's tiebreak list (212, else 202) is not valid for the event, with the record's line (None:
    it is valid, or the file has none). Checked under the edition's rules; under each FIDE edition while the
    organiser has not chosen one, and a problem only when no edition takes the list."""
    criteria = [c for c in tournament.tiebreaks if c.upper() != "PTS"]
    if not criteria:
        return None
    editions = [edition.rule_set] if edition is not None and edition.rule_set else list(FIDE_EDITIONS)
    reasons = []
    for rules in editions:
        try:
            kind = Event.Kind.TEAM if tournament.teams else Event.Kind.INDIVIDUAL
            checked = Event(kind=kind, system=system, rounds_count=tournament.total_rounds)
            compute_standings_check(checked, rules, criteria)
            return None
        except EngineError as exc:
            reasons.append(str(exc))
    return (
        _record_line(data, ("212", "202")),
        _("The file's tiebreak list is not valid: %(problem)s") % {"problem": reasons[0]},
    )


def _check_importable(tournament: Tournament, event: Event | None) -> None:
    """What the file may say but the league cannot store; raises ServiceError."""
    if tournament.teams:
        if event is not None and not event.is_team:
            raise ServiceError(_("The file has team records, but the event is not a team event."), code="team_trf")
        return
    for _number, _white, _black, _result in _games(tournament):
        pass  # _games raises for a result that cannot be stored


def _games(tournament: Tournament) -> Iterator[tuple[int, int, int | None, str]]:
    """(round, white start number, black start number or None for a bye, result) of every game."""
    by_number = {p.start_number: p for p in tournament.participants}
    played_rounds = max((len(p.rounds) for p in tournament.participants), default=0)
    for number in range(1, played_rounds + 1):
        for p in tournament.participants:
            if number > len(p.rounds):
                continue
            block = p.rounds[number - 1]
            if block.opponent is None:  # a bye; 0000 - + and the like: the bye of the same value
                code = UNPAIRED_AS_BYE.get(block.code, block.code).strip()
                yield number, p.start_number, None, BYE_RESULTS.get(code, Result.ABSENT)
            elif block.colour == "w" or (block.colour != "b" and p.start_number < block.opponent):
                other = by_number[block.opponent].rounds[number - 1]
                result = PAIR_RESULTS.get((block.code, other.code))
                if result is None:
                    raise ServiceError(
                        _("Round %(round)s, player %(player)s: result %(code)s cannot be stored.")
                        % {"round": number, "player": p.start_number, "code": block.code},
                        code="bad_trf",
                    )
                yield number, p.start_number, block.opponent, result


def _player_name(entry: Entry) -> str:
    if entry.player is None:
        raise RuntimeError("an individual event's entries are players")
    return entry.player.name


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _check_update(tournament: Tournament, event: Event) -> dict[int, Entry]:
    """Refuse an update the event cannot take; returns the event's entries by start number."""
    if event.status == Event.Status.FINISHED:
        raise ServiceError(_("The event is finished; its results can no longer change."), code="event_finished")
    if event.is_team:
        raise ServiceError(
            _("The event is a team event, but the file has no team records (013 or 310)."), code="team_trf"
        )
    played_rounds = max((len(p.rounds) for p in tournament.participants), default=0)
    if played_rounds > event.rounds_count:
        raise ServiceError(
            _("The file has %(file)s rounds but the event only %(event)s.")
            % {"file": played_rounds, "event": event.rounds_count},
            code="too_many_rounds",
        )
    entries = {e.start_number: e for e in event.entries.select_related("player")}
    in_file = {p.start_number: p.name for p in tournament.participants}
    for number in sorted(set(entries) | set(in_file)):
        entry, name = entries.get(number), in_file.get(number)
        if entry is None:
            raise ServiceError(
                _("Start number %(number)s (%(name)s) is in the file but not in the event.")
                % {"number": number, "name": name},
                code="participants_differ",
            )
        if name is None:
            raise ServiceError(
                _("Start number %(number)s (%(name)s) is in the event but not in the file.")
                % {"number": number, "name": _player_name(entry)},
                code="participants_differ",
            )
        if not _same_name(_player_name(entry), name):
            raise ServiceError(
                _("Start number %(number)s is “%(file)s” in the file but “%(event)s” in the event.")
                % {"number": number, "file": name, "event": _player_name(entry)},
                code="participants_differ",
            )
    return entries


def _update_event(event: Event, tournament: Tournament, user: AnyUser) -> Event:
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        entries = _check_update(tournament, event)
        rounds = {r.number: r for r in event.rounds.all()}
        games: dict[int, dict[int, Game]] = {}  # round -> entry id -> the entry's game in that round
        new_games: list[Game] = []
        last_board: dict[int, int] = {}  # round -> the highest board of a game (not a bye) so far
        game: Game | None
        for game in Game.objects.filter(round__event=event).select_related("round"):
            for entry_id in (game.white_id, game.black_id):
                if entry_id is not None:
                    games.setdefault(game.round.number, {})[entry_id] = game
        for number, white, black, result in _games(tournament):
            white_entry, black_entry = entries[white], entries[black] if black is not None else None
            existing = games.get(number, {})
            game = existing.get(white_entry.pk) or (existing.get(black_entry.pk) if black_entry else None)
            if game is not None:
                if game.white_id != white_entry.pk or game.black_id != (black_entry.pk if black_entry else None):
                    raise ServiceError(
                        _(
                            "Round %(round)s: the file pairs %(white)s with %(black)s, but the event pairs them "
                            "differently; an import cannot change pairings."
                        )
                        % {
                            "round": number,
                            "white": _player_name(white_entry),
                            "black": _player_name(black_entry) if black_entry else _("a bye"),
                        },
                        code="pairing_differs",
                    )
                if game.result != result:
                    result_record(
                        game_id=game.pk,
                        result=result,
                        user=user,
                        source=ResultChange.Source.IMPORT,
                        reason=IMPORT_REASON,
                    )
                continue
            if number not in rounds:
                rounds[number] = Round.objects.create(event=event, number=number)
            if black_entry is None:
                board = BYE_BOARD + white
            else:
                if number not in last_board:
                    last_board[number] = (
                        Game.objects.filter(round=rounds[number], board__lt=BYE_BOARD)
                        .order_by("-board")
                        .values_list("board", flat=True)
                        .first()
                        or 0
                    )
                last_board[number] = board = last_board[number] + 1
            game = Game(round=rounds[number], board=board, white=white_entry, black=black_entry, result=result)
            new_games.append(game)
            games.setdefault(number, {}).update({e.pk: game for e in (white_entry, black_entry) if e})
        if new_games:
            results_record_new(event=event, games=new_games, user=user, source=ResultChange.Source.IMPORT)
        return event


#: the reason of every correction an import makes (the audit trail shows it)
IMPORT_REASON = "TRF import"


def _decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


def event_export_trf(*, event: Event) -> str:
    entries = list(
        event.entries.select_related("player", "team").prefetch_related("team__members").order_by("start_number")
    )
    games = list(
        Game.objects.filter(round__event=event)
        .select_related("round", "match", "white", "black")
        .order_by("round__number", "board")
    )
    build = team_tournament_for if event.is_team else tournament_for
    tournament = build(event, games, entries)
    tournament.tiebreaks = tiebreaks_written(event.tiebreak_criteria, event.unrated_rating)
    if event.baku_acceleration:
        tournament.event_type = "FIDE_DUTCH_2026_BAKU"  # read back (and by gacrux) as the accelerated Dutch
    elif event.is_round_robin and not event.is_team:  # so FIDE's checkers pair and break ties as a round robin
        double = event.system == Event.System.DOUBLE_ROUND_ROBIN
        tournament.event_type = "FIDE_DOUBLEROUNDROBIN" if double else "FIDE_ROUNDROBIN"
    elif event.is_knockout:  # TRF-26 192: a (team) knock-out; the bracket itself in ### lines (services.cups)
        tournament.event_type = "CUSTOM_TEAM_KNOCKOUT" if event.is_team else "CUSTOM_KNOCKOUT"
        tournament.extra_records = (*tournament.extra_records, *cup_trf_lines(event))
    if not event.is_team:
        tournament.participants = rank_by_tiebreaks(event, tournament)
        tournament.extra_records = (*tournament.extra_records, *pairing_records(event))
        tournament.participants = _without_unpaired_rounds(_with_games_to_play(tournament.participants, games), games)
    tournament.extra_records = (*tournament.extra_records, *national_rating_records(event, tournament, entries))
    if not event.is_team:
        tournament.extra_records = (*tournament.extra_records, *decision_trf_lines(event))
        tournament.extra_records = (*tournament.extra_records, *full_point_bye_lines(games))
    tournament.extra_records = (*tournament.extra_records, *trf_comment_lines(event))
    if event.is_knockout and event.is_team:  # its 310 records with the teams' points, as FIDE's checker reads them
        return team_scores_written(write_trf(tournament), tournament, event, games, entries)
    return write_trf(tournament)


def full_point_bye_lines(games: list[Game]) -> list[str]:
    """Each full-point bye given on request as a ``###`` line (FIDE's 2026 checklist Q179: a deprecated practice,
    which the file's ``F`` code alone does not say was asked for)."""
    return [
        f"### full-point bye on request (a deprecated practice): round {g.round.number}, player {g.white.start_number}"
        for g in games
        if g.result == Result.FULL_POINT_BYE and g.black_id is None and g.white is not None
    ]


def national_rating_records(event: Event, tournament: Tournament, entries: list[Entry]) -> list[str]:
    """TRF-26 record 172 (the league's federation and the event's rating method) when the method is not FIDE's,
    and, in an individual event, one national rating record (NRS, tagged with that federation) per player with a
    national rating: the registry's, unless the method would then choose another rating than the event's (the 001
    line's): then the event's, so a reader choosing by 172 finds each player's rating of the event again."""
    federation = national_federation(event)
    if event.rating_method == Event.RatingMethod.FIDE or not federation:
        return []
    lines = [f"172 {federation} {event.rating_method}"]
    if event.is_team:
        return lines
    by_number = {e.start_number: e for e in entries}
    for p in sorted(tournament.participants, key=lambda p: p.start_number):
        entry = by_number.get(p.start_number)
        if entry is None or entry.player is None:
            continue
        national = entry.player.rating_national or None
        if rating_chosen(event.rating_method, entry.rating, national) != (entry.rating or None):
            national = entry.rating or None
        if national is None:
            continue
        sex = entry.player.sex if entry.player.sex in ("m", "w") else " "
        lines.append(f"{federation} {p.start_number:4d} {sex}{'':3} {p.name[:33]:<33} {national:4d}")
    return lines


def _with_games_to_play(participants: list[Participant], games: list[Game]) -> list[Participant]:
    """A published round not yet played is in the file as its pairings: opponent and colour, no
    result (``  12 w  ``), so another program reads the current boards."""
    to_play: dict[int, dict[int, RoundEntry]] = defaultdict(dict)
    for g in games:
        if g.result == Result.PENDING and g.black_id is not None:
            if g.white is None or g.black is None:
                raise RuntimeError("a game between two entries")
            white, black = g.white.start_number, g.black.start_number
            to_play[white][g.round.number] = RoundEntry(" ", black, "w")
            to_play[black][g.round.number] = RoundEntry(" ", white, "b")
    if not to_play:
        return participants
    last = max(number for rounds in to_play.values() for number in rounds)
    kept = []
    for p in participants:
        rounds = list(p.rounds) + [RoundEntry("Z")] * (last - len(p.rounds))
        for number, entry in to_play[p.start_number].items():
            rounds[number - 1] = entry
        kept.append(replace(p, rounds=tuple(rounds)))
    return kept


def _without_unpaired_rounds(participants: list[Participant], games: list[Game]) -> list[Participant]:
    """After the last paired round the file holds only the byes entered before a pairing: a player
    without one gets no round block there (``0000 - Z`` would read as an announced absence)."""
    last_paired = max(
        (g.round.number for g in games if g.black_id is not None or g.result == Result.PAIRING_BYE), default=0
    )
    entered = {
        (g.white.start_number, g.round.number)
        for g in games
        if g.black_id is None and g.white is not None and g.round.number > last_paired
    }
    kept = []
    for p in participants:
        rounds = list(p.rounds)
        while len(rounds) > last_paired and (p.start_number, len(rounds)) not in entered:
            rounds.pop()
        kept.append(replace(p, rounds=tuple(rounds)))
    return kept
