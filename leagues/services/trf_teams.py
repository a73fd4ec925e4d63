"""A team tournament's TRF file (team records 013 or 310) imported as a team event.

The file's team matches are derived as the command line derives them (tiebreaks.engine.team_matches: the
members' games, 300 board orders, 240 team byes, 320 pairing-allocated byes, 330 forfeited matches), then
stored as the site keeps a team event: a club and a team per team record with its roster in the record's
order, the players, a confirmed team match per match with a game per board (a board left empty has no
player on that side), and a bye game per team bye. Before the import commits, the site's team standings of
the stored event are computed and compared with the command line's on the file: an event whose standings
would differ is refused, naming the first team and value, and nothing is saved.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from django.utils.text import slugify
from django.utils.translation import gettext as _

from tiebreaks.engine import EngineError
from tiebreaks.engine.crosstable import ABSENT, FPB, HPB, PAB, ZPB
from tiebreaks.engine.model import Team, Tournament
from tiebreaks.engine.team import compute_team_standings, primary_from_event_type
from tiebreaks.engine.team_matches import Board, TeamEvent, derive_team_event
from tiebreaks.engine.team_matches import TeamMatch as Match

from ..errors import ServiceError
from ..models import Club, ClubMembership, Entry, Event, Game, League, Player, Result, ResultChange, Round, TeamMatch
from ..permissions import AnyUser
from .clubs import club_save
from .results import results_record_new
from .standings import event_engine_result
from .start_numbers import BYE_BOARD
from .teams import roster_set, team_save

#: the site's result of a team's round without a match, by the engine's kind (an absence is no game at all)
BYE_OF_KIND = {
    PAB: Result.PAIRING_BYE,
    FPB: Result.FULL_POINT_BYE,
    HPB: Result.HALF_POINT_BYE,
    ZPB: Result.ZERO_POINT_BYE,
}
#: a board's result by the codes of the players with White and Black ("" an empty seat)
BOARD_RESULTS = {
    ("1", "0"): Result.WHITE_WINS,
    ("W", "L"): Result.WHITE_WINS,
    ("=", "="): Result.DRAW,
    ("D", "D"): Result.DRAW,
    ("0", "1"): Result.BLACK_WINS,
    ("L", "W"): Result.BLACK_WINS,
    ("+", "-"): Result.WHITE_WINS_FORFEIT,
    ("+", ""): Result.WHITE_WINS_FORFEIT,
    ("-", "+"): Result.BLACK_WINS_FORFEIT,
    ("", "+"): Result.BLACK_WINS_FORFEIT,
    ("-", "-"): Result.DOUBLE_FORFEIT,
    ("?", "?"): Result.UNKNOWN,
}


@dataclass(frozen=True)
class BoardPlan:
    board: int
    white_team: int  # the team number of the side with White
    white: int | None  # start number of the player with White (None: an empty seat)
    black: int | None
    result: str  # Result


@dataclass(frozen=True)
class MatchPlan:
    round: int
    home: int  # team number (White on board 1)
    away: int
    boards: tuple[BoardPlan, ...]


@dataclass
class TeamPlan:
    """What a team file creates: teams (tiebreaks.engine.model.Team), boards per match, matches, team byes
    (round, team number, Result), the primary score ("MP" or "GP") and the match points (win, draw, loss)."""

    derived: TeamEvent
    teams: list[Team] = field(default_factory=list)
    boards: int = 0
    matches: list[MatchPlan] = field(default_factory=list)
    byes: list[tuple[int, int, str]] = field(default_factory=list)
    primary: str = "MP"
    match_points: tuple[Fraction, Fraction, Fraction] = (Fraction(2), Fraction(1), Fraction(0))

    @property
    def results(self) -> int:
        return sum(1 for m in self.matches for b in m.boards if b.result) + len(self.byes)


def _check_team_names(teams: list[Team]) -> None:
    """Each team of the file a name of its own, as the site stores it (the preview refuses what the import would)."""
    seen: set[str] = set()
    for team in teams:
        name = team.name[:200].strip()
        if not name:
            raise ServiceError(_("Team %(team)s of the file has no name.") % {"team": team.number}, code="bad_trf")
        if name in seen:
            raise ServiceError(
                _("Two teams of the file are named %(name)s: each team needs a name of its own.") % {"name": name},
                code="bad_trf",
            )
        seen.add(name)


def team_plan(tournament: Tournament) -> TeamPlan:
    """The team event a team file describes; raises ServiceError for what a team event cannot keep."""
    try:
        derived = derive_team_event(tournament)
    except EngineError as exc:
        raise ServiceError(
            _("The file's team matches cannot be read: %(problem)s") % {"problem": exc}, code="bad_trf"
        ) from None
    scoring = derived.match_scoring
    plan = TeamPlan(
        derived=derived,
        teams=list(tournament.teams),
        boards=derived.boards,
        primary=primary_from_event_type(tournament.event_type),
        match_points=(scoring.win, scoring.draw, scoring.loss),
    )
    _check_team_names(plan.teams)
    index = derived.index
    draw_gp = tournament.scoring.draw * derived.boards
    done: set[tuple[int, int]] = set()
    for r in range(1, derived.k + 1):  # round by round: a refusal names the first round
        for i, number in enumerate(derived.numbers):
            match = derived.matches[i][r - 1]
            if match.opponent is None:
                if match.boards:
                    raise ServiceError(
                        _(
                            "Round %(round)s: team %(team)s won boards by default against no team; record 330 names "
                            "the match."
                        )
                        % {"round": r, "team": number},
                        code="team_trf",
                    )
                if match.kind == ABSENT:
                    continue
                if match.kind == PAB and (match.match_points, match.game_points) != (scoring.draw, draw_gp):
                    raise ServiceError(
                        _(
                            "Round %(round)s: the pairing-allocated bye of team %(team)s is worth %(mp)s match points "
                            "and %(gp)s game points; a team event counts it as a drawn match with a draw on every "
                            "board (%(draw_mp)s and %(draw_gp)s)."
                        )
                        % {
                            "round": r,
                            "team": number,
                            "mp": _number(match.match_points),
                            "gp": _number(match.game_points),
                            "draw_mp": _number(scoring.draw),
                            "draw_gp": _number(draw_gp),
                        },
                        code="team_trf",
                    )
                plan.byes.append((r, number, BYE_OF_KIND[match.kind]))
                continue
            if (r, number) in done:
                continue
            other = derived.matches[index[match.opponent]][r - 1]
            home, away = (match, other) if not match.black or other.black else (other, match)
            done.update({(r, home.team), (r, away.team)})
            boards = _boards(r, home.team, away.team, home, away)
            if not boards:  # a match both teams forfeited (330 --): every board of its card is a double forfeit
                empty = BoardPlan(0, home.team, None, None, Result.DOUBLE_FORFEIT)
                boards = tuple(replace(empty, board=b) for b in range(1, plan.boards + 1))
            plan.matches.append(MatchPlan(r, home.team, away.team, boards))
    plan.matches.sort(key=lambda m: (m.round, m.home))
    plan.byes.sort()
    return plan


def _boards(r: int, home_team: int, away_team: int, home: Match, away: Match) -> tuple[BoardPlan, ...]:
    """A match's boards (tiebreaks.engine.team_matches.Board of both teams): each game on the board of the
    home team's player (a file without line-ups may seat the two players on different boards of their teams),
    a board the home team left empty on the away player's board, or the next free one."""
    by_player = {b.player: b for b in away.boards}
    pairs: list[tuple[int, Board | None, Board | None]] = []
    for mine in home.boards:
        found = by_player.pop(mine.opponent) if mine.opponent in by_player else None
        if mine.opponent is not None and found is None:
            raise ServiceError(
                _("Round %(round)s: player %(player)s of team %(team)s met a player who is not of team %(other)s.")
                % {"round": r, "player": mine.player, "team": home_team, "other": away_team},
                code="team_trf",
            )
        pairs.append((mine.board, mine, found))
    taken = {number for number, _mine, _theirs in pairs}
    for left in by_player.values():
        if left.opponent is not None:  # met a player of the home team who has no board: not this match's
            raise ServiceError(
                _("Round %(round)s: player %(player)s of team %(team)s met a player who is not of team %(other)s.")
                % {"round": r, "player": left.player, "team": away_team, "other": home_team},
                code="team_trf",
            )
        number = left.board if left.board not in taken else max(taken) + 1
        taken.add(number)
        pairs.append((number, None, left))
    boards = []
    for number, at_home, away_seat in sorted(pairs, key=lambda pair: pair[0]):
        home_white = not at_home.black if at_home else away_seat is not None and away_seat.black
        white, black = (at_home, away_seat) if home_white else (away_seat, at_home)
        codes = (white.code if white else "", black.code if black else "")
        result = BOARD_RESULTS.get(codes)
        if result is None:
            raise ServiceError(
                _("Round %(round)s, board %(board)s of teams %(home)s and %(away)s: result %(code)s cannot be stored.")
                % {"round": r, "board": number, "home": home_team, "away": away_team, "code": "/".join(codes)},
                code="bad_trf",
            )
        boards.append(
            BoardPlan(
                number,
                home_team if home_white else away_team,
                white.player if white else None,
                black.player if black else None,
                result,
            )
        )
    return tuple(boards)


def _number(value: Fraction) -> str:
    return f"{float(value):g}"


def team_event_fill(
    *,
    event: Event,
    league: League,
    tournament: Tournament,
    plan: TeamPlan,
    players: dict[int, Player],
    user: AnyUser,
) -> None:
    """Create the plan's clubs, teams, rosters, rounds, matches, boards and byes in `event` (inside the import's
    transaction) and check that the site's standings equal the file's (ServiceError otherwise)."""
    entries: dict[int, Entry] = {}
    for team in plan.teams:
        club = league.clubs.filter(name=team.name[:200]).first() or club_save(
            league=league, user=user, fields={"name": team.name[:200], "slug": _club_slug(event, team.number)}
        )
        ClubMembership.objects.bulk_create(ClubMembership(player=players[sn], club=club) for sn in team.members)
        saved = team_save(event=event, user=user, club=club, name=team.name[:200])
        roster_set(team=saved, user=user, players=[players[sn] for sn in team.members])
        entries[team.number] = Entry.objects.get(team=saved)
    _matches_and_byes(event, plan, entries, players, user, after_round=0)
    _check_same_standings(event, tournament, plan, {n: e.start_number for n, e in entries.items()})


def _matches_and_byes(
    event: Event,
    plan: TeamPlan,
    entries: dict[int, Entry],
    players: dict[int, Player],
    user: AnyUser,
    *,
    after_round: int,
) -> None:
    """Save the plan's matches (confirmed match cards, a game per board) and team byes of the rounds after
    `after_round`, through results_record_new (audited as the import)."""
    rounds: dict[int, Round] = {r.number: r for r in event.rounds.all()}

    def round_of(number: int) -> Round:
        if number not in rounds:
            rounds[number] = Round.objects.create(event=event, number=number)
        return rounds[number]

    games = []
    for planned in plan.matches:
        if planned.round <= after_round:
            continue
        home, away = entries[planned.home], entries[planned.away]
        match = TeamMatch.objects.create(
            round=round_of(planned.round), home=home, away=away, status=TeamMatch.Status.CONFIRMED
        )
        for b in planned.boards:
            white, black = (home, away) if b.white_team == planned.home else (away, home)
            games.append(
                Game(
                    round=match.round,
                    match=match,
                    board=b.board,
                    white=white,
                    black=black,
                    white_player=players[b.white] if b.white else None,
                    black_player=players[b.black] if b.black else None,
                    result=b.result,
                )
            )
    for number, team_number, result in plan.byes:
        if number > after_round:
            entry = entries[team_number]
            games.append(Game(round=round_of(number), board=BYE_BOARD + entry.start_number, white=entry, result=result))
    if games:
        results_record_new(event=event, games=games, user=user, source=ResultChange.Source.IMPORT)


def team_event_update(*, event: Event, tournament: Tournament, user: AnyUser) -> Event:
    """Add a team file's later rounds to the team event imported from its earlier version (inside the import's
    transaction): the same teams with the same players in the same order, the rounds the event has already
    exactly as the file has them; then the site's standings must equal the file's. Raises ServiceError."""
    plan, entries, players, done = team_update_checked(event, tournament)
    _matches_and_byes(event, plan, entries, players, user, after_round=done)
    _check_same_standings(event, tournament, plan, {n: e.start_number for n, e in entries.items()})
    return event


def team_update_checked(
    event: Event, tournament: Tournament
) -> tuple[TeamPlan, dict[int, Entry], dict[int, Player], int]:
    """What a team file adds to `event` (team_event_update): the plan, the event's entries and players by the
    file's numbers, and the last round the event has; raises ServiceError for a file that changes the event."""
    if event.status == Event.Status.FINISHED:
        raise ServiceError(_("The event is finished; its results can no longer change."), code="event_finished")
    plan = team_plan(tournament)
    entries, players = _same_teams(event, plan, tournament)
    stored = _stored_rounds(event)
    done = max(stored, default=0)
    for number in range(1, done + 1):
        if _planned_round(plan, number) != stored.get(number, set()):
            raise ServiceError(
                _(
                    "Round %(round)s: the file's matches, boards or byes differ from the event's; an import adds the "
                    "later rounds of a team event but does not change its rounds."
                )
                % {"round": number},
                code="team_round_differs",
            )
    if plan.derived.k > event.rounds_count:
        raise ServiceError(
            _("The file has %(file)s rounds but the event only %(event)s.")
            % {"file": plan.derived.k, "event": event.rounds_count},
            code="too_many_rounds",
        )
    return plan, entries, players, done


def _same_teams(event: Event, plan: TeamPlan, tournament: Tournament) -> tuple[dict[int, Entry], dict[int, Player]]:
    """The event's team entries by the file's team number, and its players by the file's start number: the file
    lists the event's teams in start-number order, with the rosters' players in board order (by name)."""
    stored = list(event.entries.select_related("team").order_by("start_number"))
    names = {p.start_number: p.name for p in tournament.participants}
    if len(stored) != len(plan.teams):
        raise ServiceError(
            _("The file has %(file)s teams but the event %(event)s.") % {"file": len(plan.teams), "event": len(stored)},
            code="participants_differ",
        )
    entries: dict[int, Entry] = {}
    players: dict[int, Player] = {}
    for entry, team in zip(stored, plan.teams, strict=True):
        if entry.team is None:
            raise RuntimeError("a team event's entries are teams")
        roster = [m.player for m in entry.team.members.select_related("player").order_by("board_order")]
        same = _same_name(entry.team.name, team.name) and len(roster) == len(team.members)
        if not same or any(not _same_name(p.name, names[sn]) for p, sn in zip(roster, team.members, strict=False)):
            raise ServiceError(
                _("Team %(number)s is “%(file)s” with its players in the file but “%(event)s” in the event.")
                % {"number": entry.start_number, "file": team.name, "event": entry.team.name},
                code="participants_differ",
            )
        entries[team.number] = entry
        players.update(zip(team.members, roster, strict=True))
    return entries, players


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _stored_rounds(event: Event) -> dict[int, set[tuple[object, ...]]]:
    """Each round of the event as a set: (team numbers, board, player names, result) of every board, (team, bye
    result) of every team bye."""
    out: dict[int, set[tuple[object, ...]]] = {}
    games = Game.objects.filter(round__event=event).select_related(
        "round", "white", "black", "white_player", "black_player"
    )
    for g in games:
        if g.white is None:
            raise RuntimeError("every board and bye has a white side")
        if g.match_id is None:
            item: tuple[object, ...] = ("bye", g.white.start_number, g.result)
        else:
            if g.black is None:
                raise RuntimeError("a board is between two teams")
            item = (
                g.white.start_number,
                g.black.start_number,
                g.board,
                g.white_player.name if g.white_player else "",
                g.black_player.name if g.black_player else "",
                g.result,
            )
        out.setdefault(g.round.number, set()).add(item)
    return out


def _planned_round(plan: TeamPlan, number: int) -> set[tuple[object, ...]]:
    """A round of the plan in the shape of _stored_rounds (team numbers are the event's start numbers, in order)."""
    start = {team.number: i for i, team in enumerate(plan.teams, start=1)}
    names = {p.start_number: p.name for p in plan.derived.tournament.participants}
    out: set[tuple[object, ...]] = set()
    for m in plan.matches:
        if m.round != number:
            continue
        for b in m.boards:
            other = m.away if b.white_team == m.home else m.home
            out.add(
                (
                    start[b.white_team],
                    start[other],
                    b.board,
                    names.get(b.white or 0, ""),
                    names.get(b.black or 0, ""),
                    b.result,
                )
            )
    out.update(("bye", start[team], result) for r, team, result in plan.byes if r == number)
    return out


def _check_same_standings(event: Event, tournament: Tournament, plan: TeamPlan, numbers: dict[int, int]) -> None:
    """The stored event's team standings against the command line's on the file (same rules and criteria)."""
    criteria = list(event.tiebreak_criteria)
    try:
        expected = compute_team_standings(tournament, criteria, rules=event.rule_set, primary=plan.primary)
        site = event_engine_result(event)
    except EngineError as exc:
        raise ServiceError(
            _("The file's tiebreak list is not valid: %(problem)s") % {"problem": exc}, code="bad_tiebreak_policy"
        ) from None
    stored = {row.team_number: row for row in site.rows}  # type: ignore[union-attr]
    names = {team.number: team.name for team in plan.teams}
    for row in expected.rows:
        mine = stored[numbers[row.team_number]]
        for name, theirs, ours in [
            (_("rank"), row.rank, mine.rank),
            (_("points"), row.points, mine.points),
            *((c, row.values[c], mine.values.get(c)) for c in row.values),
        ]:
            if theirs != ours:
                raise ServiceError(
                    _(
                        "The site cannot keep this team file as it is: team %(team)s (%(name)s) would get "
                        "%(ours)s for %(what)s, where the file gives %(theirs)s. Nothing has been imported."
                    )
                    % {
                        "team": row.team_number,
                        "name": names.get(row.team_number, ""),
                        "ours": _shown(ours),
                        "what": name,
                        "theirs": _shown(theirs),
                    },
                    code="team_trf",
                )


def _shown(value: object) -> str:
    return _number(value) if isinstance(value, Fraction) else str(value)


def _club_slug(event: Event, number: int) -> str:
    """A new club's address: the event's, then the team number (and a count, if a club took it already)."""
    base = f"{slugify(event.slug)[:40]}-team-{number}"
    slug, more = base, 1
    while Club.objects.filter(slug=slug).exists():
        more += 1
        slug = f"{base}-{more}"
    return slug
