"""Hypothesis strategies: valid crosstables (consistent pairings, byes, forfeits, withdrawals)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tiebreaks.engine.model import Participant, RoundEntry, Tournament

_COMPLEMENT = {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+"}


@st.composite
def tournaments(draw: Any, *, unplayed: bool = True, max_players: int = 10, max_rounds: int = 7) -> Tournament:
    """A Swiss-like crosstable. With ``unplayed=False`` every round is a game at the board."""
    n = draw(st.integers(2, max_players))
    if not unplayed and n % 2:
        n += 1
    k = draw(st.integers(1, max_rounds))
    rows: list[list[RoundEntry]] = [[] for _ in range(n)]
    withdrawn_from = {p: k + 1 for p in range(n)}
    joins_at = {p: 1 for p in range(n)}  # late entrants: absent before they join
    if unplayed:
        for p in draw(st.sets(st.integers(0, n - 1), max_size=2)):
            withdrawn_from[p] = draw(st.integers(1, k + 1))
        for p in draw(st.sets(st.integers(0, n - 1), max_size=1)):
            joins_at[p] = draw(st.integers(1, k))
    for rnd in range(1, k + 1):
        order = draw(st.permutations(range(n)))
        available = []
        for p in order:
            if rnd >= withdrawn_from[p] or rnd < joins_at[p]:
                rows[p].append(RoundEntry(draw(st.sampled_from(["Z", " "]))))
                continue
            if unplayed and draw(st.integers(0, 9)) == 0:
                rows[p].append(RoundEntry(draw(st.sampled_from(["H", "Z", "F"]))))
                continue
            available.append(p)
        if len(available) % 2:
            rows[available.pop()].append(RoundEntry("U"))
        for a, b in zip(available[::2], available[1::2], strict=True):
            if unplayed:
                result = draw(st.sampled_from(["1", "=", "0", "1", "=", "0", "W", "D", "+", "-", "--"]))
            else:
                result = draw(st.sampled_from(["1", "=", "0", "W", "D", "L"]))
            code_a = "-" if result == "--" else result
            code_b = "-" if result == "--" else _COMPLEMENT[result]
            rows[a].append(RoundEntry(code_a, b + 1, "w"))
            rows[b].append(RoundEntry(code_b, a + 1, "b"))
        # every participant has exactly one entry for this round
        assert all(len(r) == rnd for r in rows)
    ratings = draw(st.lists(st.integers(1000, 2800), min_size=n, max_size=n))
    participants = [
        Participant(start_number=p + 1, name=f"Player {p + 1}", rating=ratings[p], rounds=tuple(rows[p]))
        for p in range(n)
    ]
    return Tournament(participants, k)


@st.composite
def round_robins(draw: Any, *, max_players: int = 8) -> Tournament:
    """A round robin (circle method; free round written ``0000 - Z`` for odd numbers), with
    forfeits, optionally double, possibly not finished (fewer rounds computed)."""
    n = draw(st.integers(3, max_players))
    cycles = draw(st.integers(1, 2))
    ring = list(range(n)) + ([None] if n % 2 else [])
    m = len(ring)
    schedule: list[list[tuple[int | None, int | None]]] = []
    for rnd in range(m - 1):
        pairs = [(ring[i], ring[m - 1 - i]) for i in range(m // 2)]
        schedule.append([(a, b) if rnd % 2 else (b, a) for a, b in pairs])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    schedule = schedule * cycles
    rounds_played = draw(st.integers(1, len(schedule)))
    rows: list[list[RoundEntry]] = [[] for _ in range(n)]
    for rnd in range(rounds_played):
        for a, b in schedule[rnd]:
            if a is None or b is None:
                rows[a if a is not None else b].append(RoundEntry("Z"))  # type: ignore[index]
                continue
            result = draw(st.sampled_from(["1", "=", "0", "1", "=", "0", "+", "-", "--"]))
            code_a = "-" if result == "--" else result
            code_b = "-" if result == "--" else _COMPLEMENT[result]
            rows[a].append(RoundEntry(code_a, b + 1, "w"))
            rows[b].append(RoundEntry(code_b, a + 1, "b"))
    ratings = draw(st.lists(st.integers(1000, 2800), min_size=n, max_size=n))
    participants = [
        Participant(start_number=p + 1, name=f"Player {p + 1}", rating=ratings[p], rounds=tuple(rows[p]))
        for p in range(n)
    ]
    return Tournament(participants, len(schedule), rounds_computed=rounds_played, round_robin=True)
