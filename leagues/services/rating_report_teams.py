"""The FIDE rating report of a team league (a team division of a season): the individual games of every match
card as one TRF-26 file, with the checks a federation's rating officer makes before FIDE accepts it.

The file is the division's own TRF export (team records 310, the board orders 300, the forfeited matches 330,
the team byes 240/320: leagues/services/standings.team_tournament_for), each player's line completed with the
FIDE id, federation, title, sex, birth date and the registry name (never the initials shown in public), and the
records a rating officer reads: 022 the venue, 032 the league's federation, 042/052 the first and last round,
102/112 the arbiters, 122 the time control, 132 each round's date.

Each player counts with the rating of the event in each round (services.ratings.TeamRatings: the rating at the
start, then a newer rating list's from a round on), as the 001 line (round 1) and ``### rating from round``
lines write it.

Only games played over the board are rated (FIDE Rating Regulations B.02: forfeited games are not rated). A board
won by default, a double forfeit and a board one team left empty keep their TRF forfeit codes (``+``/``-``, or
``0000 - +`` against an empty seat), which FIDE's rating leaves out, so the file still gives each match its card's
score; a team's bye is a team record (240/320), not a player's game. The report counts both.

Every problem names the page where it is fixed (the player in the league's registry, the division's settings, the
league's people, the match card). Organisers only: it shows birth years and sex, which public pages never show.
"""

from __future__ import annotations

import dataclasses
import datetime
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.translation import gettext as _

from tiebreaks.engine import EngineError
from tiebreaks.engine.model import Tournament
from tiebreaks.engine.team import compute_team_standings
from tiebreaks.trf import write_trf

from ..errors import PermissionDenied, ServiceError
from ..models import Entry, Event, Game, Player, Result, TeamMatch
from ..permissions import AnyUser, event_arbiters, is_league_organiser
from .federations import FIDE_FEDERATIONS
from .fide_mode import trf_comment_lines
from .rating_report import TRF_SEX, TRF_TITLES
from .ratings import TeamRatings
from .standings import team_player_numbers, team_standings, team_tournament_for

#: a board's result played over the board: FIDE rates it
RATED_RESULTS = frozenset({Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS})
#: a board's result FIDE does not rate: a forfeit (a default) on one side or both
FORFEITS = frozenset({Result.WHITE_WINS_FORFEIT, Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT})


@dataclass(frozen=True)
class ReportProblem:
    """Something that keeps FIDE from rating the division, and where it is fixed."""

    code: str  # no_arbiter, no_start_date, no_round_date, no_time_control, no_venue, no_fide_id, ...
    message: str
    fix_url: str  # the page where it is fixed (a path of this site)
    fix_label: str  # that page, as a link names it


@dataclass(frozen=True)
class ReportPlayer:
    number: int  # the player's start number in the report's TRF
    player: Player
    team: str  # the team the player played for (the first, if more)
    rated_games: int
    rating: int | None = None  # the player's rating of the event in round 1
    newer: tuple[tuple[int, int | None], ...] = ()  # (from round, rating): a newer rating list during the season


@dataclass
class TeamRatingReport:
    event: Event
    players: list[ReportPlayer] = field(default_factory=list)  # every player of a rated game, by number
    rounds: list[tuple[int, datetime.date | None]] = field(default_factory=list)  # (round number, date)
    arbiters: list[str] = field(default_factory=list)  # the chief arbiter first, then the deputies
    rated_games: int = 0  # games played over the board: the ones FIDE rates
    unplayed_boards: int = 0  # forfeits and defaults: in the file with their forfeit codes, not rated
    team_byes: int = 0  # a team's rounds without a match (team records, no player's game)
    problems: list[ReportProblem] = field(default_factory=list)


def team_rating_report(*, event: Event, user: AnyUser) -> TeamRatingReport:
    """What the division's FIDE rating report holds, with every problem a rating officer would send back;
    saves nothing."""
    if not is_league_organiser(user, event.league_id):
        raise PermissionDenied(_("Only the league's organiser may see the rating report."))
    if not event.is_team:
        raise ServiceError(_("This rating report is made for team events."), code="individual_event")
    games = _games(event)
    report = TeamRatingReport(event=event)
    dates = dict(event.rounds.values_list("number", "date"))
    report.rounds = [(number, dates.get(number)) for number in range(1, event.rounds_count + 1)]
    report.arbiters = [user.get_full_name() or user.get_username() for user in event_arbiters(event)]
    numbers = _numbers(event, games)
    rated: dict[int, int] = defaultdict(int)
    team_of: dict[int, str] = {}
    for game in games:
        if game.match_id is None:
            report.team_byes += game.result in (
                Result.PAIRING_BYE,
                Result.FULL_POINT_BYE,
                Result.HALF_POINT_BYE,
                Result.ZERO_POINT_BYE,
            )
            continue
        if game.result in FORFEITS:
            report.unplayed_boards += 1
        if game.result in RATED_RESULTS and game.white_player_id and game.black_player_id:
            report.rated_games += 1
            for player_id, side in ((game.white_player_id, game.white), (game.black_player_id, game.black)):
                rated[player_id] += 1
                if player_id not in team_of and side is not None:
                    team_of[player_id] = side.name
    people = Player.objects.in_bulk(list(rated))
    ratings = TeamRatings(event, set(rated))  # each player's rating of the event round by round
    report.players = sorted(
        (
            ReportPlayer(
                numbers[pk],
                people[pk],
                team_of.get(pk, ""),
                count,
                ratings.in_round(people[pk], 1),
                tuple(ratings.newer(people[pk])),
            )
            for pk, count in rated.items()
        ),
        key=lambda row: row.number,
    )
    report.problems = _event_problems(report) + _card_problems(event, games) + _player_problems(report)
    return report


def _games(event: Event) -> list[Game]:
    return list(
        Game.objects.filter(round__event=event)
        .select_related("round", "match", "white", "black", "white__team", "black__team")
        .order_by("round__number", "board")
    )


def _entries(event: Event) -> list[Entry]:
    return list(
        event.entries.select_related("player", "team").prefetch_related("team__members").order_by("start_number")
    )


def _numbers(event: Event, games: list[Game]) -> dict[int, int]:
    """Each player's start number in the report's TRF (the export's numbering: teams in order, rosters in
    board order, then who played off the roster)."""
    return team_player_numbers(games, _entries(event))[1]


def _event_problems(report: TeamRatingReport) -> list[ReportProblem]:
    event = report.event
    settings = reverse("manage:event-edit", args=[event.league.slug, event.slug])
    settings_label = _("Settings and round dates")
    problems = []
    if not report.arbiters:
        problems.append(
            ReportProblem(
                "no_arbiter",
                _("No chief arbiter is named for the event: FIDE rates an event only under its chief arbiter."),
                reverse("manage:people", args=[event.league.slug]),
                _("People and roles"),
            )
        )
    if event.starts_on is None:
        problems.append(ReportProblem("no_start_date", _("The event has no start date."), settings, settings_label))
    undated = [str(number) for number, date in report.rounds if date is None]
    if undated:
        problems.append(
            ReportProblem(
                "no_round_date",
                _("Rounds without a date: %(rounds)s.") % {"rounds": ", ".join(undated)},
                settings,
                settings_label,
            )
        )
    if not event.time_control.strip():
        problems.append(
            ReportProblem(
                "no_time_control",
                _("The event has no time control: FIDE rates standard, rapid and blitz games apart."),
                settings,
                settings_label,
            )
        )
    if not event.venue.strip():
        problems.append(
            ReportProblem("no_venue", _("The event has no venue (the city of the report)."), settings, settings_label)
        )
    if not report.rated_games:
        problems.append(
            ReportProblem(
                "no_rated_games",
                _("No game of the event has been played over the board yet: there is nothing to rate."),
                reverse("manage:cup" if event.is_knockout else "manage:fixtures", args=[event.slug]),
                _("Cup bracket and drawing of lots") if event.is_knockout else _("Fixtures and warnings"),
            )
        )
    return problems


def _card_problems(event: Event, games: list[Game]) -> list[ReportProblem]:
    """Cards whose results are not final: not confirmed, disputed, a board without a result or with an unknown
    one, a result played over the board with an empty seat."""
    problems = []
    by_match: dict[int, list[Game]] = defaultdict(list)
    for game in games:
        if game.match_id is not None:
            by_match[game.match_id].append(game)
    for boards in by_match.values():
        match = boards[0].match
        if match is None:
            raise RuntimeError("the boards are grouped by their match")
        who = {"round": boards[0].round.number, "home": match.home.name, "away": match.away.name}
        card = reverse("manage:match-card", args=[match.pk])
        label = _("Match card")
        if match.status == TeamMatch.Status.DISPUTED:
            message = _("Round %(round)s, %(home)s – %(away)s: the card is disputed.") % who
            problems.append(ReportProblem("card_disputed", message, card, label))
        elif not any(g.result for g in boards):
            message = _("Round %(round)s, %(home)s – %(away)s: no result on the card yet.") % who
            problems.append(ReportProblem("card_empty", message, card, label))
            continue
        elif match.status != TeamMatch.Status.CONFIRMED:
            message = _("Round %(round)s, %(home)s – %(away)s: the card is not confirmed yet.") % who
            problems.append(ReportProblem("card_not_confirmed", message, card, label))
        for game in boards:
            at = {**who, "board": game.board}
            if game.result == Result.PENDING:
                message = _("Round %(round)s, %(home)s – %(away)s, board %(board)s: no result yet.") % at
                problems.append(ReportProblem("no_result", message, card, label))
            elif game.result == Result.UNKNOWN:
                message = _("Round %(round)s, %(home)s – %(away)s, board %(board)s: the result is not known.") % at
                problems.append(ReportProblem("unknown_result", message, card, label))
            elif game.result in RATED_RESULTS and not (game.white_player_id and game.black_player_id):
                message = (
                    _(
                        "Round %(round)s, %(home)s – %(away)s, board %(board)s: a game played over the board "
                        "without a player on one side."
                    )
                    % at
                )
                problems.append(ReportProblem("no_player", message, card, label))
    return problems


def _latin(name: str) -> bool:
    """Whether every letter of the name is a Latin one (FIDE's names are written in Latin letters)."""
    return all(unicodedata.name(c, "").startswith("LATIN") for c in name if c.isalpha())


def _player_problems(report: TeamRatingReport) -> list[ReportProblem]:
    league = report.event.league.slug
    label = _("The player's page")
    problems = []
    for row in report.players:
        player = row.player
        page = reverse("manage:player-edit", args=[league, player.pk])
        who = {"number": row.number, "name": player.name, "team": row.team, "federation": player.federation}
        found = []
        if not player.fide_id:
            found.append(("no_fide_id", _("%(number)s %(name)s (%(team)s): no FIDE id.")))
        if not player.federation:
            found.append(("no_federation", _("%(number)s %(name)s (%(team)s): no federation.")))
        elif player.federation not in FIDE_FEDERATIONS:
            found.append(
                (
                    "bad_federation",
                    _("%(number)s %(name)s (%(team)s): the federation %(federation)s is not one of FIDE's codes."),
                )
            )
        if player.birth_year is None and player.birth_date is None:
            found.append(("no_birth_year", _("%(number)s %(name)s (%(team)s): no birth year.")))
        if not player.fide_id and not player.sex:
            found.append(("no_sex", _("%(number)s %(name)s (%(team)s): a new player for FIDE without sex.")))
        if not _latin(player.name):
            found.append(
                ("name_not_latin", _("%(number)s %(name)s (%(team)s): the name is not written in Latin letters."))
            )
        problems += [ReportProblem(code, message % who, page, label) for code, message in found]
    return problems


def team_rating_report_trf(*, event: Event, user: AnyUser) -> str:
    """The report as one TRF-26 file: the division's team export with each player's FIDE data, and the records a
    rating officer reads (venue, federation, dates, arbiters, time control, round dates)."""
    report = team_rating_report(event=event, user=user)
    games = _games(event)
    entries = _entries(event)
    tournament = team_tournament_for(event, games, entries)
    numbers = team_player_numbers(games, entries)[1]
    people = Player.objects.in_bulk(list(numbers))
    by_number = {n: people[pk] for pk, n in numbers.items()}
    participants = []
    for participant in tournament.participants:
        player = by_number[participant.start_number]
        participants.append(
            dataclasses.replace(
                participant,
                name=player.name,  # the rating stays the event's at round 1 (team_tournament_for)
                fide_id=str(player.fide_id or ""),
                federation=player.federation,
                sex=TRF_SEX.get(player.sex, ""),
                title=TRF_TITLES.get(player.title, ""),
                birth=f"{player.birth_date:%Y/%m/%d}" if player.birth_date else str(player.birth_year or ""),
            )
        )
    dated = [date for _number, date in report.rounds if date]
    records = []
    if event.venue.strip():
        records.append("022 " + event.venue.strip())
    if event.league.federation:
        records.append("032 " + event.league.federation)
    records.append("092 " + ("Team round robin" if event.is_round_robin else "Team Swiss-System"))
    if report.arbiters:
        records.append("102 " + report.arbiters[0])
        records += ["112 " + name for name in report.arbiters[1:]]
    if event.time_control.strip():
        records.append("122 " + event.time_control.strip())
    if dated:  # 132: each round's date above its column of results
        records.append(
            "132" + " " * 88 + "".join(f"{date:%y/%m/%d}  " if date else " " * 10 for _n, date in report.rounds)
        )
    records += tournament.extra_records
    records += trf_comment_lines(event)
    start = event.starts_on or (min(dated) if dated else None)
    tournament = dataclasses.replace(
        tournament,
        name=event.name if not event.season else f"{event.name} {event.season.name}",
        participants=participants,
        tiebreaks=list(event.tiebreak_criteria),
        start_date=start.isoformat() if start else "",
        end_date=max(dated).isoformat() if dated else "",
        extra_records=tuple(records),
    )
    return team_scores_written(write_trf(tournament), tournament, event, games, entries)


def team_scores_written(
    text: str, tournament: Tournament, event: Event, games: list[Game], entries: list[Entry]
) -> str:
    """The 310 records with each team's match points (cols 55-60), game points (62-67) and rank (69-71), as the
    site's standings have them: FIDE's checker compares them with the players' games."""
    if not any(p.rounds for p in tournament.participants):
        return text
    try:
        scores = compute_team_standings(tournament, ["MPTS", "GPTS"], rules=event.rule_set, primary="MP")
        ranks = {row.team_number: row.rank for row in team_standings(event, games, entries).rows}
    except EngineError:
        return text
    filled = {}
    for row in scores.rows:
        mp, gp = row.values.get("MPTS"), row.values.get("GPTS")
        if mp is not None and gp is not None:
            filled[row.team_number] = f"{float(mp):6.1f} {float(gp):6.1f} {ranks.get(row.team_number, ''):>3}"
    lines = []
    for line in text.split("\r\n"):
        if line.startswith("310 ") and line[4:7].strip().isdigit() and int(line[4:7]) in filled:
            line = line[:54] + filled[int(line[4:7])] + line[71:]
        lines.append(line)
    return "\r\n".join(lines)
