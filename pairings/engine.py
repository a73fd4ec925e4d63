"""The one entry point: :func:`pair_round` pairs one round of an event under a named system.

Every input is checked first (:func:`state_problem`); a rejected state names its problem in one
line and nothing is paired. FIDE Dutch runs in a child process with a deadline that grows with
the event (:func:`pairing_time_limit`), so a pairing that fails or takes too long ends with a
:class:`PairingError`, never with half a round.
"""

from __future__ import annotations

import gc
import os
import pickle
import select
import signal
import time
from collections import Counter
from collections.abc import Callable
from typing import Literal, TypeVar

from .berger import berger_round, berger_rounds
from .dutch import dutch_pairs
from .model import (
    REQUESTED_BYE_TYPES,
    Board,
    Bye,
    ByeType,
    PairingError,
    PairingState,
    RoundPairing,
    System,
    TeamPairingState,
)
from .team_swiss import team_pairs, team_state_problem

__all__ = [
    "BY_SIZE",
    "DEFAULT_TIMEOUT",
    "expected_pairing_seconds",
    "pair_round",
    "pairing_time_limit",
    "state_problem",
]

#: seconds a pairing may take at least, whatever the event's size
DEFAULT_TIMEOUT = 300.0
#: a pairing's deadline by the event's size (:func:`pairing_time_limit`)
BY_SIZE: Literal["by size"] = "by size"

A = TypeVar("A")
T = TypeVar("T")


def expected_pairing_seconds(players: int) -> float:
    """A rough estimate of the seconds a Dutch pairing of ``players`` takes on one quiet core: gacrux
    weighs every pair of players, so it grows as the square of the field (a 1,000-player open about
    9 s, 2,000 players about half a minute)."""
    return 1.0 + 8.0 * (players / 1000) ** 2


def pairing_time_limit(players: int) -> float:
    """Seconds a pairing of ``players`` may take: 30 times the estimate and never under
    :data:`DEFAULT_TIMEOUT` (300 s up to about 1,000 players, 2,000 players about 16 minutes), so a
    big open on a busy host is not stopped for time."""
    return max(DEFAULT_TIMEOUT, 30 * expected_pairing_seconds(players))


def pair_round(
    state: PairingState | TeamPairingState,
    system: System = System.DUTCH,
    *,
    timeout: float | Literal["by size"] | None = BY_SIZE,
) -> RoundPairing:
    """Pair ``state.round``: the boards in FIDE order and the byes (the PAB, then the requested
    byes by start number). A team Swiss (:class:`TeamPairingState`, ``System.TEAM_SWISS``) pairs
    teams: a board is a match, white the team with White on board 1.

    ``timeout``: seconds the Dutch engine may run (in a child process), by default
    :func:`pairing_time_limit` of the event's size; None runs it in this process without a
    deadline. Raises :class:`PairingError` when the state is inconsistent, when no legal pairing
    exists, or when the engine fails or runs out of time."""
    if timeout == BY_SIZE:
        timeout = pairing_time_limit(len(state.teams if isinstance(state, TeamPairingState) else state.players))
    if isinstance(state, TeamPairingState) or system is System.TEAM_SWISS:
        if not isinstance(state, TeamPairingState) or system is not System.TEAM_SWISS:
            raise PairingError("a team Swiss pairs teams (a TeamPairingState) and nothing else")
        return _pair_team_swiss(state, timeout)
    problem = state_problem(state, system)
    if problem:
        raise PairingError(problem)
    if system is System.BERGER:
        return _pair_berger(state)
    requested = tuple(sorted((Bye(b.start_number, b.type) for b in state.requested_byes), key=lambda b: b.start_number))
    # the state goes to the child with the fork: gacrux's form of it is built there
    pairs = dutch_pairs(state) if timeout is None else _in_child(_dutch_pairs, state, state.round, timeout)
    boards = tuple(Board(i, w, b) for i, (w, b) in enumerate((p for p in pairs if p[1]), start=1))
    pab = tuple(Bye(w, ByeType.PAB) for w, b in pairs if not b)
    result = RoundPairing(state.round, _system_name(state, system), boards, pab + requested)
    _check_complete(state, result)
    return result


def _pair_team_swiss(state: TeamPairingState, timeout: float | None) -> RoundPairing:
    problem = team_state_problem(state)
    if problem:
        raise PairingError(problem)
    pairs = team_pairs(state) if timeout is None else _in_child(_team_pairs, state, state.round, timeout)
    boards = tuple(Board(i, w, b) for i, (w, b) in enumerate((p for p in pairs if p[1]), start=1))
    pab = tuple(Bye(w, ByeType.PAB) for w, b in pairs if not b)
    requested = tuple(sorted((Bye(b.start_number, b.type) for b in state.requested_byes), key=lambda b: b.start_number))
    result = RoundPairing(state.round, str(System.TEAM_SWISS), boards, pab + requested)
    absent = set(state.withdrawn) | {b.start_number for b in state.requested_byes}
    seen = [n for board in boards for n in (board.white, board.black)] + [bye.start_number for bye in pab]
    if Counter(seen) != Counter({t.start_number for t in state.teams} - absent):
        raise PairingError(f"the pairing engine returned an incomplete round {state.round}; nothing was paired")
    return result


def _system_name(state: PairingState, system: System) -> str:
    if system is System.BERGER:
        return "berger-double" if state.double_round_robin else "berger"
    return "dutch-2026-baku" if state.acceleration is not None else "dutch-2026"


def _pair_berger(state: PairingState) -> RoundPairing:
    """The table's boards; a player paired with the dummy has the PAB. Pairings are fixed in a round
    robin: an absent player keeps the board (the game is then scored as a forfeit), and is not
    listed as a bye."""
    count = len(state.players)
    boards: list[Board] = []
    byes: list[Bye] = []
    for white, black in berger_round(count, state.round, double=state.double_round_robin):
        if max(white, black) > count:
            byes.append(Bye(min(white, black), ByeType.PAB))
        else:
            boards.append(Board(len(boards) + 1, white, black))
    return RoundPairing(state.round, _system_name(state, System.BERGER), tuple(boards), tuple(byes))


def _check_complete(state: PairingState, result: RoundPairing) -> None:
    """Every present player exactly once, nobody absent paired: the engine's answer is whole."""
    absent = set(state.withdrawn) | {b.start_number for b in state.requested_byes}
    expected = {p.start_number for p in state.players} - absent
    seen = [n for board in result.boards for n in (board.white, board.black)]
    seen += [bye.start_number for bye in result.byes if bye.type is ByeType.PAB]
    if Counter(seen) != Counter(expected):
        raise PairingError(f"the pairing engine returned an incomplete round {state.round}; nothing was paired")


def state_problem(state: PairingState, system: System = System.DUTCH) -> str | None:
    """The first problem of the state in one line, or None when it can be paired."""
    return (
        _start_numbers_problem(state)
        or _round_problem(state, system)
        or _initial_colour_problem(state.initial_colour)
        or _history_problem(state)
        or _absence_problem(state)
        or _forbidden_pairs_problem(state)
        or _acceleration_problem(state)
        or _nobody_left_problem(state, system)
    )


def _start_numbers_problem(state: PairingState) -> str | None:
    """Start numbers 1..n, each once, and at least two players."""
    numbers = [p.start_number for p in state.players]
    count = len(numbers)
    if sorted(numbers) != list(range(1, count + 1)):
        duplicates = sorted(n for n, k in Counter(numbers).items() if k > 1)
        if duplicates:
            return f"start number {duplicates[0]} is used twice"
        return f"start numbers must run 1..{count} without gaps"
    if count < 2:
        return "a round needs at least two players"
    return None


def _round_problem(state: PairingState, system: System) -> str | None:
    """The round to pair is one of the event's rounds (a round robin's follow from its field)."""
    rnd = state.round
    if rnd < 1:
        return f"round {rnd} does not exist"
    count = len(state.players)
    rounds = berger_rounds(count, double=state.double_round_robin) if system is System.BERGER else state.total_rounds
    if rnd > rounds:
        return f"round {rnd} cannot be paired: the event has {rounds} rounds"
    return None


def _initial_colour_problem(initial_colour: str) -> str | None:
    if initial_colour not in ("w", "b"):
        return f"initial colour {initial_colour!r} is not w or b"
    return None


def _history_problem(state: PairingState) -> str | None:
    """Player by player: no result yet in the round to pair, and each earlier game seen from both sides."""
    by_number = {p.start_number: p for p in state.players}
    rnd = state.round
    for player in state.players:
        if len(player.rounds) >= rnd:
            number, last = player.start_number, len(player.rounds)
            return f"player {number} has a result in round {last}; round {rnd} is to be paired"
        for r, entry in enumerate(player.rounds, start=1):
            opponent = by_number.get(entry.opponent) if entry.opponent is not None else None
            if entry.opponent is not None and (
                opponent is None or len(opponent.rounds) < r or opponent.rounds[r - 1].opponent != player.start_number
            ):
                return f"round {r}: player {player.start_number} and player {entry.opponent} do not name each other"
    return None


def _absence_problem(state: PairingState) -> str | None:
    """The withdrawn players and the requested byes of the round: players of the event, each absent once."""
    numbers = {p.start_number for p in state.players}
    rnd = state.round
    withdrawn = Counter(state.withdrawn)
    for number, times in withdrawn.items():
        if number not in numbers:
            return f"withdrawn player {number} is not in the event"
        if times > 1:
            return f"player {number} is withdrawn twice"
    requested = Counter(b.start_number for b in state.requested_byes)
    for bye in state.requested_byes:
        if bye.start_number not in numbers:
            return f"bye for player {bye.start_number}, who is not in the event"
        if bye.type not in REQUESTED_BYE_TYPES:
            return f"player {bye.start_number} cannot ask for a {bye.type} bye (only H, Z or F)"
        if requested[bye.start_number] > 1:
            return f"player {bye.start_number} has two byes in round {rnd}"
        if bye.start_number in withdrawn:
            return f"player {bye.start_number} is withdrawn and has a bye in round {rnd}"
    return None


def _forbidden_pairs_problem(state: PairingState) -> str | None:
    numbers = {p.start_number for p in state.players}
    for a, b in state.forbidden_pairs:
        if a not in numbers or b not in numbers:
            return f"forbidden pair {a}-{b} names a player who is not in the event"
        if a == b:
            return f"forbidden pair {a}-{b} names one player twice"
    return None


def _acceleration_problem(state: PairingState) -> str | None:
    """Baku acceleration: its last group A player is one of the event's."""
    last_ga = state.acceleration.last_ga_player if state.acceleration is not None else None
    if last_ga is not None and not 1 <= last_ga <= len(state.players):
        return f"the last player of the accelerated group, {last_ga}, is not in the event"
    return None


def _nobody_left_problem(state: PairingState, system: System) -> str | None:
    """A Swiss round with every player withdrawn or on a requested bye has nobody to pair (a round
    robin keeps its boards)."""
    withdrawn, requested = set(state.withdrawn), {b.start_number for b in state.requested_byes}
    if system is System.DUTCH and len(state.players) - len(withdrawn) - len(requested) == 0:
        return f"nobody is left to pair in round {state.round}"
    return None


#: in a forked pairing child only (None in every other process): gacrux's work, left to the child's exit
_left_to_exit: list[object] | None = None


def _dutch_pairs(state: PairingState, _round_number: int) -> list[tuple[int, int]]:
    return dutch_pairs(state, keep=_left_to_exit)


def _team_pairs(state: TeamPairingState, _round_number: int) -> list[tuple[int, int]]:
    return team_pairs(state)


def _in_child(function: Callable[[A, int], T], argument: A, round_number: int, timeout: float) -> T:
    """``function(argument, round_number)`` in a forked child: its answer, or a PairingError when it
    fails, dies or misses the deadline (the child is then killed)."""
    global _left_to_exit  # set in the forked child only
    if not hasattr(os, "fork"):  # pragma: no cover - no fork: run here, without a deadline
        return function(argument, round_number)
    read_end, write_end = os.pipe()
    gc.freeze()  # the child's collections skip (and so do not copy) the parent's objects
    pid = os.fork()
    if pid:
        gc.unfreeze()
    else:  # the child: answer through the pipe, then leave without cleanup handlers
        os.close(read_end)
        _left_to_exit = []  # its exit hands gacrux's work back at once, not one object at a time
        try:
            answer: tuple[str, object] = ("ok", function(argument, round_number))
        except PairingError as error:
            answer = ("error", str(error))
        except BaseException as error:  # whatever happens, the parent hears of it
            answer = ("error", f"the pairing engine failed on round {round_number}: {error!r}")
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(pickle.dumps(answer))
        os._exit(0)
    os.close(write_end)
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    try:
        with os.fdopen(read_end, "rb", buffering=0) as pipe:
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([pipe], [], [], left)[0]:
                    os.kill(pid, signal.SIGKILL)
                    raise PairingError(f"pairing round {round_number} took over {timeout:g} s; nothing was paired")
                chunk = pipe.read(1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
    finally:
        os.waitpid(pid, 0)
    if not chunks:
        raise PairingError(f"the pairing engine stopped without an answer on round {round_number}")
    status, value = pickle.loads(b"".join(chunks))  # noqa: S301 - our own forked child wrote it
    if status != "ok":
        raise PairingError(str(value))
    return value  # type: ignore[no-any-return]
