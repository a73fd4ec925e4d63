"""A team Swiss (FIDE C.04.6) on the site: its state for the pairing engine, and its published round.

The round is paired, previewed, changed by hand, published and paired again through
:mod:`.round_pairings`, as an individual Swiss is; this module holds what differs for teams:

* the engine's input (:class:`pairings.TeamPairingState`) read from the event: every earlier match
  with its board results (the team with White on board 1 is the match's white), the teams' byes
  (bye games of the team entry, board BYE_BOARD + start number, as for players) and absences;
* a published board is a team match (:class:`TeamMatch`: home and away are White and Black on board
  1 under the event's ``board_one_white_for_home``) with one game per board, the players filled in from
  the rosters in board order, so the match cards work as in a round robin;
* a team's pairing-allocated bye is worth a drawn match and a draw on every board
  (:func:`pairings.team_swiss.team_pab_points`), for the standings (record 320) as for the pairing.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from pairings import ByeType, RequestedBye, Scoring, SwissTeam, TeamPairingState, TeamRound
from pairings.team_swiss import BOARD_CODES, team_pab_points

from ..models import Entry, Event, Game, PairingSettings, Player, Result, Round, TeamMatch, TeamMember
from ..models.results import TRF_CODES
from .schedule import board_games

__all__ = [
    "is_team_swiss",
    "match_score",
    "match_scoring_of",
    "team_board_records",
    "team_bye_records",
    "team_pairing_records",
    "team_pairing_state",
    "team_rounds_before",
    "team_rounds_publish",
    "team_seat_figures",
]

#: the bye each bye result of a team stands for
TEAM_BYES: dict[str, ByeType] = {
    Result.PAIRING_BYE: ByeType.PAB,
    Result.FULL_POINT_BYE: ByeType.FULL,
    Result.HALF_POINT_BYE: ByeType.HALF,
    Result.ZERO_POINT_BYE: ByeType.ZERO,
    Result.ABSENT: ByeType.ZERO,
}


def is_team_swiss(event: Event) -> bool:
    return event.is_team and event.system == Event.System.SWISS


def match_scoring_of(event: Event) -> tuple[Fraction, Fraction, Fraction]:
    return Fraction(event.match_points_win), Fraction(event.match_points_draw), Fraction(event.match_points_loss)


def team_rounds_before(event: Event, round_number: int) -> dict[int, tuple[TeamRound, ...]]:
    """Start number → the team's rounds 1..round_number-1 (a round without match or bye: absent)."""
    rounds: dict[int, dict[int, TeamRound]] = defaultdict(dict)
    games = (
        Game.objects.filter(round__event=event, round__number__lt=round_number)
        .select_related("round", "white", "black")
        .order_by("round__number", "match_id", "board")
    )
    by_match: dict[int, list[Game]] = defaultdict(list)
    for game in games:
        if game.match_id is not None:
            by_match[game.match_id].append(game)
        elif game.black_id is None and game.white is not None and game.result in TEAM_BYES:
            rounds[game.white.start_number][game.round.number] = TeamRound(bye=TEAM_BYES[game.result])
    for boards in by_match.values():
        first = boards[0]
        if first.white is None or first.black is None:
            raise RuntimeError("a match's board has both teams")
        white, black = first.white, first.black
        codes: dict[int, list[str]] = {white.pk: [], black.pk: []}
        for game in boards:
            white_code, black_code = TRF_CODES.get(game.result, (" ", " "))
            codes[game.white_id].append(white_code)  # type: ignore[index]
            codes[game.black_id].append(black_code or " ")  # type: ignore[index]
        number = first.round.number
        rounds[white.start_number][number] = TeamRound(black.start_number, "w", tuple(codes[white.pk]))
        rounds[black.start_number][number] = TeamRound(white.start_number, "b", tuple(codes[black.pk]))
    numbers = event.entries.values_list("start_number", flat=True)
    return {n: tuple(rounds[n].get(r, TeamRound()) for r in range(1, round_number)) for n in numbers}


def team_pairing_state(
    event: Event,
    round_number: int,
    settings: PairingSettings,
    requested: tuple[tuple[int, ByeType], ...],
    withdrawn: tuple[int, ...],
    scoring: Scoring,
    initial_colour: str,
) -> TeamPairingState:
    """The engine's input for `round_number` of a team Swiss, read from the event as it is stored."""
    win, draw, loss = match_scoring_of(event)
    names = dict(event.entries.select_related("team").values_list("start_number", "team__name"))
    rounds = team_rounds_before(event, round_number)
    return TeamPairingState(
        teams=tuple(SwissTeam(n, rounds[n], names.get(n) or "") for n in sorted(rounds)),
        round=round_number,
        total_rounds=event.rounds_count,
        boards=event.boards,
        requested_byes=tuple(RequestedBye(n, kind) for n, kind in requested),
        withdrawn=withdrawn,
        forbidden_pairs=tuple((a, b) for a, b in settings.forbidden_pairs),
        scoring=scoring,
        match_scoring=Scoring(win, draw, loss),
        initial_colour=initial_colour,
    )


def team_seat_figures(state: TeamPairingState) -> dict[int, tuple[Fraction, str]]:
    """Start number → (match points, colours on board 1 of the matches played) before the round."""
    win, draw, loss = state.match_scoring.win, state.match_scoring.draw, state.match_scoring.loss
    pab_mp, _gp = team_pab_points(state)
    byes = {ByeType.PAB: pab_mp, ByeType.FULL: win, ByeType.HALF: draw}
    figures = {}
    for team in state.teams:
        points, colours = Fraction(0), ""
        for match in team.rounds:
            if match.opponent is None:
                points += byes.get(match.bye, Fraction(0)) if match.bye else Fraction(0)
                continue
            own = sum((_board_points(c, state) for c in match.boards), Fraction(0))
            other = sum((_board_points(_mirror(c), state) for c in match.boards), Fraction(0))
            points += win if own > other else draw if own == other and own > 0 else loss
            if any(c in "1=0WDL" for c in match.boards):
                colours += match.colour or ""
        figures[team.start_number] = (points, colours)
    return figures


def _mirror(code: str) -> str:
    return BOARD_CODES.get(code, code)


def _board_points(code: str, state: TeamPairingState) -> Fraction:
    scoring = state.scoring
    return {"1": scoring.win, "+": scoring.win, "W": scoring.win, "=": scoring.draw, "D": scoring.draw}.get(
        code, scoring.loss if code in "0L" else Fraction(0)
    )


def team_rounds_publish(
    event: Event, rnd: Round, boards: list[list[int]], entries: dict[int, Entry]
) -> list[TeamMatch]:
    """The paired boards as team matches of the round, each with a game per board (players from the
    rosters in board order; the match card may change them)."""
    TeamMatch.objects.filter(round=rnd).delete()  # a round paired again: its unplayed matches go
    rosters: dict[int, list[Player]] = defaultdict(list)
    for member in TeamMember.objects.filter(team__event=event).select_related("player").order_by("board_order"):
        rosters[member.team_id].append(member.player)
    team_rosters = {entry.pk: rosters.get(entry.team_id or 0, []) for entry in entries.values()}
    matches, games = [], []
    for white, black in boards:
        first, second = entries[white], entries[black]
        home, away = (first, second) if event.board_one_white_for_home else (second, first)
        match = TeamMatch.objects.create(round=rnd, home=home, away=away)
        matches.append(match)
        games.extend(board_games(event, rnd, match, home, away, team_rosters))
    Game.objects.bulk_create(games)
    return matches


def team_bye_records(event: Event, games: list[Game]) -> list[str]:
    """TRF-26 records of a team Swiss's byes, read by the standings and by FIDE's tools alike: 320 the
    pairing-allocated byes (a drawn match, a draw on every board), 240 the other byes (team numbers)."""
    pab: dict[int, int] = {}
    byes: dict[tuple[str, int], list[int]] = defaultdict(list)
    for game in games:
        if game.match_id is None and game.black_id is None and game.white is not None and game.result in TEAM_BYES:
            kind, number = TEAM_BYES[game.result], game.round.number
            if kind is ByeType.PAB:
                pab[number] = game.white.start_number
            else:
                byes[(str(kind), number)].append(game.white.start_number)
    records = []
    if pab:
        draw = Fraction(event.match_points_draw)
        boards_draw = Fraction(event.points_draw) * event.boards
        teams = "".join(f" {pab[r]:3d}" if r in pab else "    " for r in range(1, max(pab) + 1))
        records.append(f"320 {_points(draw):>4} {_points(boards_draw):>4}{teams}")
    for (letter, number), teams_of in sorted(byes.items(), key=lambda item: (item[0][1], item[0][0])):
        records.append(f"240 {letter} {number:3d}" + "".join(f" {n:4d}" for n in sorted(teams_of)))
    return records


def team_board_records(
    games: list[Game], number: dict[int, int], members: dict[int, list[int]], starts: dict[int, int], boards: int
) -> list[str]:
    """TRF-26 records of what a match's boards say beyond the players' games (trf-format §7.5, §7.6): 300 a
    team's board order in a round when it is not its roster's (a player out of order, or a board left empty),
    330 a forfeited match (one team, or both, fielded nobody: the other wins every board it had a player on).
    `number`: player id -> start number in the file; `members`: team entry id -> its players in board order;
    `starts`: team entry id -> team number; `boards`: boards per match (a 300 record lists every board)."""
    by_match: dict[int, list[Game]] = defaultdict(list)
    for game in games:
        if game.match_id is not None:
            by_match[game.match_id].append(game)
    lineups, forfeits = [], []
    for played in by_match.values():
        match = played[0].match
        if match is None:
            raise RuntimeError("the boards are grouped by their match")
        r = played[0].round.number
        if any(g.result in (Result.PENDING, Result.UNKNOWN) for g in played):
            continue  # not played yet: its boards say nothing yet
        seated: dict[int, dict[int, int]] = {match.home_id: {}, match.away_id: {}}  # entry -> board -> player
        for g in played:
            for entry_id, player_id in ((g.white_id, g.white_player_id), (g.black_id, g.black_player_id)):
                if entry_id in seated and player_id:
                    seated[entry_id][g.board] = player_id
        home, away = seated[match.home_id], seated[match.away_id]
        if not home or not away:  # a team that fielded nobody: the match is forfeited
            kind = "+-" if home else "-+" if away else "--"
            forfeits.append((r, f"330 {kind} {r:3d} {starts[match.home_id]:3d} {starts[match.away_id]:3d}"))
        for entry, other, seats in ((match.home_id, match.away_id, home), (match.away_id, match.home_id, away)):
            if not seats:
                continue
            order = {player_id: pos for pos, player_id in enumerate(members[entry])}
            by_roster = sorted(seats.values(), key=lambda player_id: order.get(player_id, len(order)))
            if sorted(seats) == list(range(1, len(seats) + 1)) and [seats[b] for b in sorted(seats)] == by_roster:
                continue  # the boards follow the roster: no record needed
            players = "".join(f" {number[seats[b]] if b in seats else 0:4d}" for b in range(1, max(boards, *seats) + 1))
            lineups.append((r, f"300 {r:3d} {starts[entry]:3d} {starts[other]:3d}{players}"))
    return [record for _r, record in sorted(lineups)] + [record for _r, record in sorted(forfeits)]


def _points(value: Fraction) -> str:
    return f"{float(value):.1f}"


def team_pairing_records(event: Event) -> list[str]:
    """The TRF-26 records FIDE's tools pair a team Swiss by: 192 (C.04.6, type A colours, match points
    then game points), 352 (the colours down the boards of the team with White on board 1), 152 (the
    initial colour) and 260 (forbidden pairs, team numbers, every round)."""
    if not is_team_swiss(event):
        return []
    settings = PairingSettings.objects.filter(event=event).first() or PairingSettings(event=event)
    records = ["192 FIDE_TEAM_TYPEA_MP_GP", "352 " + ("WB" * event.boards)[: event.boards]]
    if settings.initial_colour:
        records.append(f"152 {settings.initial_colour.upper()}")
    records += [f"260 {1:3d} {event.rounds_count:3d} {a:4d} {b:4d}" for a, b in settings.forbidden_pairs]
    return records


def match_score(event: Event, games: list[Game]) -> str:
    """A match's score from the team with White on board 1 ("2½-1½"), "" until every board has a result."""
    if not games or any(g.result in ("", Result.UNKNOWN) for g in games):
        return ""
    first = games[0].white_id
    points = {"1": event.points_win, "+": event.points_win, "=": event.points_draw}
    own = other = Fraction(0)
    for game in games:
        white_code, black_code = TRF_CODES[game.result]
        white_points = Fraction(points.get(white_code, event.points_loss))
        black_points = Fraction(points.get(black_code or "", event.points_loss))
        own += white_points if game.white_id == first else black_points
        other += black_points if game.white_id == first else white_points
    return f"{_shown(own)}-{_shown(other)}"


def _shown(value: Fraction) -> str:
    whole, rest = divmod(value, 1)
    if rest == 0:
        return str(int(whole))
    return f"{int(whole) or ''}½" if rest == Fraction(1, 2) else f"{float(value):g}"
