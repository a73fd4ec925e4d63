"""FIDE's Berger tables (Handbook C.05 Annex 1) for individual round robins, pure.

Start numbers are the Berger numbers drawn by lot. An odd number of players adds a dummy, the
number n + 1 ("the highest number counts as a bye"): whoever meets it has the round's bye.
Double round robin: the second cycle is the first with colours reversed; as FIDE recommends, the
last two rounds of the first cycle are exchanged, so nobody plays three games running with one
colour across the change of cycle.
"""

from __future__ import annotations

__all__ = ["berger_cycle", "berger_round", "berger_rounds"]


def berger_cycle(players: int) -> list[list[tuple[int, int]]]:
    """FIDE's table for ``players`` (odd numbers include the dummy n + 1): per round, (white,
    black) in the table's board order.

    Round 1 pairs 1-n, 2-(n-1), ...; each later round moves every number but n on by n/2 (modulo
    n - 1, numbers 1..n-1), boards keeping their orientation, and number n, always on board 1,
    takes black in odd rounds and white in even ones.
    """
    if players < 2:
        raise ValueError("a round robin needs at least two players")
    n = players + players % 2
    half = n // 2

    def moved(number: int) -> int:
        return number if number == n else (number - 1 + half) % (n - 1) + 1

    boards = [(i, n + 1 - i) for i in range(1, half + 1)]
    cycle: list[list[tuple[int, int]]] = []
    for number in range(1, n):
        if number > 1:
            boards = [(moved(w), moved(b)) for w, b in boards]
        white, black = boards[0]
        other = white if black == n else black
        boards[0] = (other, n) if number % 2 else (n, other)
        cycle.append(list(boards))
    return cycle


def berger_rounds(players: int, *, double: bool = False) -> int:
    """The number of rounds of the round robin."""
    rounds = players + players % 2 - 1
    return 2 * rounds if double else rounds


def berger_round(players: int, round_number: int, *, double: bool = False) -> list[tuple[int, int]]:
    """The (white, black) boards of one round, dummy included for an odd number of players."""
    cycle = berger_cycle(players)
    length = len(cycle)
    if not 1 <= round_number <= berger_rounds(players, double=double):
        raise ValueError(
            f"a {'double ' if double else ''}round robin of {players} players has "
            f"{berger_rounds(players, double=double)} rounds, not {round_number}"
        )
    if not double:
        return cycle[round_number - 1]
    if round_number > length:
        return [(b, w) for w, b in cycle[round_number - length - 1]]
    if length >= 2 and round_number >= length - 1:
        round_number = 2 * length - 1 - round_number  # the last two of the first cycle exchanged
    return cycle[round_number - 1]
