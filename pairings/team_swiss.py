"""FIDE's Swiss team pairing system (C.04.6, 2026) through gacrux, FIDE TEC's reference implementation.

gacrux pairs teams from a TRF-26 team file; this module writes the state in that shape: one player
record per team and board (team ``t``, board ``b`` is player ``(t - 1) * boards + b``) carrying the
board's result, 310 team records, 352 (the colours alternate down the boards, board 1 gives the
team's colour), 362 match points, 162 game points, 320 the teams' pairing-allocated byes (a drawn
match and a draw on every board), 240 the other byes and the absences (also those of the round to
pair), 260 forbidden pairs (team numbers), 152 the initial colour and 192 FIDE_TEAM_TYPEA_MP_GP
(type A colour preferences, match points primary, game points for colours). gacrux's own reader
takes the text in this process and its team engine pairs the round. Nothing outside this module
knows gacrux's shapes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction

from tiebreaks.trf.codes import fmt_points, points_of, write_scoring

from .dutch import gacrux_read
from .model import REQUESTED_BYE_TYPES, ByeType, PairingError, SwissTeam, TeamPairingState, TeamRound

__all__ = [
    "BOARD_CODES",
    "gacrux_team_pairs",
    "gacrux_team_trf",
    "team_pab_points",
    "team_pairs",
    "team_state_problem",
]

#: a board's result from one side, and the same board from the other side
BOARD_CODES = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D"}
_OTHER = {"w": "b", "b": "w"}


def team_pab_points(state: TeamPairingState) -> tuple[Fraction, Fraction]:
    """Match points and game points of a team's pairing-allocated bye: a drawn match, a draw on
    every board (the Olympiad's 1 match point and 2 game points of four boards)."""
    return state.match_scoring.draw, state.scoring.draw * state.boards


def gacrux_team_trf(state: TeamPairingState) -> str:
    """The state as the TRF-26 team file gacrux reads (the round to pair carries only its byes)."""
    boards = state.boards
    previous = state.round - 1
    lines = [
        "012 chess-league team pairing",
        f"142 {state.total_rounds}",
        f"152 {state.initial_colour.upper()}",
        write_scoring("162", state.scoring),
        "192 FIDE_TEAM_TYPEA_MP_GP",
        "352 " + ("WB" * boards)[:boards],
        write_scoring("362", state.match_scoring),
    ]
    byes: dict[tuple[str, int], list[int]] = {}
    pab: dict[int, int] = {}
    for team in state.teams:
        for r, match in enumerate(team.rounds, start=1):
            if match.opponent is None:
                if match.bye is ByeType.PAB:
                    pab[r] = team.start_number
                else:
                    kind = str(match.bye) if match.bye in REQUESTED_BYE_TYPES else "Z"
                    byes.setdefault((kind, r), []).append(team.start_number)
        for r in range(len(team.rounds) + 1, state.round):  # rounds missing: absent
            byes.setdefault(("Z", r), []).append(team.start_number)
    for number in state.withdrawn:
        byes.setdefault(("Z", state.round), []).append(number)
    for bye in state.requested_byes:
        byes.setdefault((str(bye.type), state.round), []).append(bye.start_number)
    for team in state.teams:
        for b in range(1, boards + 1):
            blocks = [_block(match.opponent, match.colour, match.boards, b, boards) for match in team.rounds]
            blocks += ["  0000 - -"] * (previous - len(team.rounds))
            total = sum((_points(block, state) for block in blocks), Fraction(0))
            number = (team.start_number - 1) * boards + b
            lines.append(
                f"001 {number:4d} {'':38} {0:4d} {'':26} {fmt_points(total, 'points')} {'':4}" + "".join(blocks)
            )
    for team in state.teams:
        first = (team.start_number - 1) * boards
        members = "".join(f" {first + b:4d}" for b in range(1, boards + 1))
        name = f"Team {team.start_number}"
        lines.append(f"310 {team.start_number:3d} {name:<32} {'':5} {'':6} {'':6} {'':6} {'':3} {members}")
    if pab:
        mp, gp = team_pab_points(state)
        teams = "".join(f" {pab.get(r, 0):3d}" if r in pab else "    " for r in range(1, max(pab) + 1))
        lines.append(f"320 {fmt_points(mp, 'score'):>4} {fmt_points(gp, 'score'):>4}{teams}")
    for (kind, r), numbers in sorted(byes.items(), key=lambda item: (item[0][1], item[0][0])):
        lines.append(f"240 {kind} {r:3d}" + "".join(f" {n:4d}" for n in sorted(numbers)))
    lines.extend(f"260 {state.round:3d} {state.round:3d} {a:4d} {b:4d}" for a, b in state.forbidden_pairs)
    return "\n".join(lines) + "\n"


def _block(opponent: int | None, colour: str | None, codes: tuple[str, ...], board: int, boards: int) -> str:
    """One member's round block: the board of a match, or nothing (a bye is a 240 or 320 record)."""
    if opponent is None or board > len(codes):
        return "  0000 - -"
    first = colour or "w"
    own = first if board % 2 == 1 else _OTHER[first]
    return f"  {(opponent - 1) * boards + board:4d} {own} {codes[board - 1]}"


def _points(block: str, state: TeamPairingState) -> Fraction:
    code = block[-1]
    return Fraction(0) if block.startswith("  0000") else points_of(code, state.scoring)


def team_state_problem(state: TeamPairingState) -> str | None:
    """The first problem of a team state in one line, or None when it can be paired."""
    return (
        _team_numbers_problem(state)
        or _team_round_problem(state)
        or _team_history_problem(state)
        or _team_absence_problem(state)
        or _team_forbidden_pairs_problem(state)
        or _no_team_left_problem(state)
    )


def _team_numbers_problem(state: TeamPairingState) -> str | None:
    """Team start numbers 1..n, at least two teams, at least one board a match."""
    count = len(state.teams)
    if sorted(t.start_number for t in state.teams) != list(range(1, count + 1)):
        return f"team start numbers must run 1..{count} without gaps"
    if count < 2:
        return "a round needs at least two teams"
    if state.boards < 1:
        return "a match needs at least one board"
    return None


def _team_round_problem(state: TeamPairingState) -> str | None:
    """The round to pair is one of the event's, and the colour drawn for round 1 is w or b."""
    if not 1 <= state.round <= state.total_rounds:
        return f"round {state.round} cannot be paired: the event has {state.total_rounds} rounds"
    if state.initial_colour not in ("w", "b"):
        return f"initial colour {state.initial_colour!r} is not w or b"
    return None


def _team_history_problem(state: TeamPairingState) -> str | None:
    """Team by team: no result yet in the round to pair, and every earlier match read the same from both sides."""
    by_number = {t.start_number: t for t in state.teams}
    for team in state.teams:
        if len(team.rounds) >= state.round:
            last = len(team.rounds)
            return f"team {team.start_number} has a result in round {last}; round {state.round} is to be paired"
        for r, match in enumerate(team.rounds, start=1):
            if match.opponent is not None:
                problem = _match_problem(state, by_number, team.start_number, r, match)
                if problem:
                    return problem
    return None


def _match_problem(
    state: TeamPairingState, by_number: Mapping[int, SwissTeam], number: int, r: int, match: TeamRound
) -> str | None:
    """A match of round ``r`` seen from team ``number``: the opponent names it back, a result on every
    board, and the other side's boards and colour are this side's mirrored."""
    other = by_number.get(match.opponent) if match.opponent is not None else None
    back = other.rounds[r - 1] if other is not None and len(other.rounds) >= r else None
    if back is None or back.opponent != number:
        return f"round {r}: team {number} and team {match.opponent} do not name each other"
    if len(match.boards) != state.boards or any(code not in BOARD_CODES for code in match.boards):
        return f"round {r}: team {number} needs a result on each of its {state.boards} boards"
    if tuple(BOARD_CODES[c] for c in match.boards) != back.boards or match.colour == back.colour:
        return f"round {r}: the match of team {number} and team {match.opponent} reads two ways"
    return None


def _team_absence_problem(state: TeamPairingState) -> str | None:
    """The withdrawn teams and the requested byes of the round: teams of the event, each absent once,
    each bye one a team may ask for."""
    numbers = {t.start_number for t in state.teams}
    for number, times in _absent(state).items():
        if number not in numbers:
            return f"team {number} is not in the event"
        if times > 1:
            return f"team {number} is withdrawn or has a bye twice in round {state.round}"
    for bye in state.requested_byes:
        if bye.type not in REQUESTED_BYE_TYPES:
            return f"team {bye.start_number} cannot ask for a {bye.type} bye (only H, Z or F)"
    return None


def _team_forbidden_pairs_problem(state: TeamPairingState) -> str | None:
    numbers = {t.start_number for t in state.teams}
    for a, b in state.forbidden_pairs:
        if a not in numbers or b not in numbers or a == b:
            return f"forbidden pair {a}-{b} does not name two teams of the event"
    return None


def _no_team_left_problem(state: TeamPairingState) -> str | None:
    if len(state.teams) - len(_absent(state)) == 0:
        return f"no team is left to pair in round {state.round}"
    return None


def _absent(state: TeamPairingState) -> Counter[int]:
    """How many times each team is withdrawn or on a requested bye in the round to pair."""
    return Counter([*state.withdrawn, *(b.start_number for b in state.requested_byes)])


def team_pairs(state: TeamPairingState) -> list[tuple[int, int]]:
    """gacrux's pairing of the state's round: (white, black) team numbers in board order, 0 = PAB."""
    return gacrux_team_pairs(gacrux_team_trf(state), state.round)


def gacrux_team_pairs(trf_text: str, round_number: int) -> list[tuple[int, int]]:
    """gacrux's C.04.6 pairing of ``round_number``: (white, black) team numbers in board order (white:
    the team with White on board 1), black 0 = the pairing-allocated bye.

    Raises :class:`PairingError` when gacrux refuses the file or finds no legal pairing."""
    from gacrux.gacruxexeptions import GacruxError, GacruxNoLegalPairing
    from gacrux.pairingfideteam import pairing_fideteam

    tournament = gacrux_read(trf_text)
    params = {"experimental": [], "verbose": 0, "top_color": tournament.get("topColor", "w")}
    try:
        engine = pairing_fideteam(tournament, round_number, params)
        brackets = engine.compute_pairing(False, 0)
    except GacruxNoLegalPairing as error:
        raise PairingError(f"round {round_number} cannot be paired: {error}") from None
    except GacruxError as error:
        raise PairingError(f"the pairing engine refused the event: {error}") from None
    except Exception as error:  # a defect of the engine: never a half round
        raise PairingError(f"the pairing engine failed on round {round_number}: {error!r}") from None
    pairs = sorted((pair for bracket in brackets for pair in bracket.get("pairs", [])), key=lambda p: p["board"])
    return [(int(pair["w"]), int(pair["b"])) for pair in pairs]
