"""Unplayed rounds: Articles 15 and 16 of FIDE C.07 (2026), driven by the rule set's data.

* 16.1-16.2: every round gets a category (:data:`CAT_GAME` for a game at the board, then
  16.2.1 PAB/FPB, 16.2.2 forfeit win, 16.2.3 requested bye followed by a non-VUR round,
  16.2.4 forfeit loss, 16.2.5 requested bye followed only by VURs or in the last round).
* 16.3: the *adjusted score* others see: 16.2.5 rounds count as a draw.
* 16.4: the *dummy opponent* for a participant's own unplayed round: own score, capped at the
  scheduled opponent's adjusted score (16.4.1, forfeits) or at ``D x n`` (16.4.2, byes).
* 16.5: cuts remove the lowest voluntary unplayed round (VUR) first when it is at least the
  least significant value (:func:`cut_elements`).
* 15.2: with pre-determined pairings (round robins) forfeits are regular games, free rounds are
  no element, and the adjusted score is the score.

Example (spec T4): a 4½/5 player with a half-point bye in round 3 of 5 gets a dummy worth
``min(4½, ½ x 5) = 2½``; Cut-1 removes that dummy (a VUR) although a real opponent has 2.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from . import reasons as R
from .crosstable import (
    FORFEIT_KINDS,
    FORFEIT_LOSS,
    FORFEIT_WIN,
    FPB,
    GAME_KINDS,
    PAB,
    REQUESTED_BYE_KINDS,
    VUR_KINDS,
    Crosstable,
)
from .explain import Adjustment
from .rules import OpponentUnplayed, OwnUnplayed, RuleSet

CAT_GAME = 0
CAT_PAB_FPB = 1  # 16.2.1
CAT_FORFEIT_WIN = 2  # 16.2.2
CAT_REQUESTED_BYE_FOLLOWED = 3  # 16.2.3
CAT_FORFEIT_LOSS = 4  # 16.2.4
CAT_REQUESTED_BYE_LATE = 5  # 16.2.5
CATEGORY_ARTICLE = {
    CAT_GAME: "15.1",
    CAT_PAB_FPB: "16.2.1",
    CAT_FORFEIT_WIN: "16.2.2",
    CAT_REQUESTED_BYE_FOLLOWED: "16.2.3",
    CAT_FORFEIT_LOSS: "16.2.4",
    CAT_REQUESTED_BYE_LATE: "16.2.5",
}


class Element(NamedTuple):
    """One element of a participant's own Buchholz / Sonneborn-Berger (scaled integers).

    ``value``: opponent's (adjusted) score or the dummy's score; ``points``: what the
    participant scored in that round; ``opponent``: scheduled opponent index or -1;
    ``dummy``: True for a dummy opponent; ``vur``: a voluntary unplayed round (cut first).
    """

    round: int
    value: int
    points: int
    opponent: int
    dummy: bool
    vur: bool
    reason: str
    article: str


class Article16:
    """Categories, adjusted scores and dummy opponents for one crosstable and rule set."""

    def __init__(self, ct: Crosstable, rules: RuleSet) -> None:
        self.ct = ct
        self.rules = rules
        k = ct.k
        D = ct.D
        cats: list[list[int]] = []
        adj: list[int] = []
        late_rounds: list[list[int]] = []
        all_games = [CAT_GAME] * k
        #: participants who played every round at the board (no Article 16 at all)
        self.all_games = [GAME_KINDS.issuperset(kinds) for kinds in ct.kinds]
        for kinds, pts, only_games in zip(ct.kinds, ct.pts, self.all_games, strict=True):
            if only_games:  # fast path: every round played at the board
                cats.append(all_games)
                adj.append(sum(pts))
                late_rounds.append([])
                continue
            pc = [CAT_GAME] * k
            seen_non_vur = False
            for r in range(k - 1, -1, -1):
                kind = kinds[r]
                if kind in REQUESTED_BYE_KINDS:
                    pc[r] = CAT_REQUESTED_BYE_FOLLOWED if seen_non_vur else CAT_REQUESTED_BYE_LATE
                elif kind == FORFEIT_LOSS:
                    pc[r] = CAT_FORFEIT_LOSS
                elif kind == FORFEIT_WIN:
                    pc[r] = CAT_FORFEIT_WIN
                elif kind == PAB or kind == FPB:
                    pc[r] = CAT_PAB_FPB
                if kind not in VUR_KINDS:
                    seen_non_vur = True
            cats.append(pc)
            if ct.round_robin or rules.opponent_unplayed is OpponentUnplayed.RAW:
                adj.append(sum(pts))
                late_rounds.append([])
            elif rules.opponent_unplayed is OpponentUnplayed.ALL_AS_DRAWS:
                adj.append(sum(D if c != CAT_GAME else p for c, p in zip(pc, pts, strict=True)))
                late_rounds.append([r for r in range(k) if pc[r] != CAT_GAME])
            else:
                late = [r for r in range(k) if pc[r] == CAT_REQUESTED_BYE_LATE]
                late_rounds.append(late)
                adj.append(sum(pts) + sum(D - pts[r] for r in late))
        self.categories = cats
        self.adjusted = adj
        #: rounds of each participant that count as a draw in their adjusted score
        self.adjusted_rounds = late_rounds
        self.cap_bye = D * k  # 16.4.2: 50 % of the rounds computed (spec §6.4: n = k)
        self._elements: dict[bool, ParticipantElements] = {}

    # ------------------------------------------------------------------------------------
    def game_values(self, i: int) -> list[int]:
        """Element values of a participant who played every round: opponents' adjusted scores."""
        adj = self.adjusted
        return [adj[o] for o in self.ct.opps[i]]

    def elements(self, forfeits_as_games: bool = False) -> ParticipantElements:
        """Every participant's BH/SB elements, built on first access (cached per ``/P`` flag)."""
        cached = self._elements.get(forfeits_as_games)
        if cached is None:
            cached = self._elements[forfeits_as_games] = ParticipantElements(self, forfeits_as_games)
        return cached

    def build_elements(self, i: int, forfeits_as_games: bool) -> list[Element]:
        """Participant ``i``'s elements: a game gives the opponent's adjusted score (16.3); an
        own unplayed round a dummy opponent (16.4) - or, with pre-determined pairings, a
        forfeit is a game and a free round nothing (15.2)."""
        ct, rules, adj = self.ct, self.rules, self.adjusted
        score = ct.score
        kinds, opps, pts, cats = ct.kinds[i], ct.opps[i], ct.pts[i], self.categories[i]
        own = score[i]
        cap_bye = self.cap_bye
        own_mode = rules.own_unplayed
        new = tuple.__new__  # Element(...) without the generated __new__'s extra call
        els: list[Element] = []
        for r, kind in enumerate(kinds):
            o = opps[r]
            if kind in GAME_KINDS:
                reason = R.ADJUSTED_SCORE if adj[o] != score[o] else R.ACTUAL_SCORE
                els.append(new(Element, (r, adj[o], pts[r], o, False, False, reason, "8.1")))
                continue
            if ct.round_robin:
                if o >= 0:  # 15.2: a forfeit is a regular game
                    els.append(new(Element, (r, adj[o], pts[r], o, False, False, R.FORFEIT_COUNTED_AS_GAME, "15.2")))
                continue  # a free round is no element at all
            if o >= 0 and forfeits_as_games and kind in FORFEIT_KINDS:
                els.append(new(Element, (r, adj[o], pts[r], o, False, False, R.FORFEIT_COUNTED_AS_GAME, "6.1.1")))
                continue
            vur = kind in VUR_KINDS
            article = CATEGORY_ARTICLE[cats[r]]
            if own_mode is OwnUnplayed.OMIT:
                continue
            if own_mode is OwnUnplayed.ZERO:
                els.append(new(Element, (r, 0, pts[r], o, True, vur, R.DUMMY_ZERO, article)))
                continue
            value, reason = own, R.DUMMY_OWN_SCORE
            if o >= 0 and kind in FORFEIT_KINDS:
                if rules.dummy_forfeit_cap and adj[o] < own:
                    value, reason = adj[o], R.DUMMY_CAP_OPPONENT_ADJUSTED
                article = "16.4.1"
            else:
                if rules.dummy_bye_cap and cap_bye < own:
                    value, reason = cap_bye, R.DUMMY_CAP_HALF_ROUNDS
                article = "16.4.2"
            els.append(new(Element, (r, value, pts[r], o, True, vur, reason, article)))
        return els


class ParticipantElements:
    """Lazy per-participant element lists (most criteria only need a few of them)."""

    def __init__(self, a16: Article16, forfeits_as_games: bool) -> None:
        self.a16 = a16
        self.forfeits_as_games = forfeits_as_games
        self.cache: dict[int, list[Element]] = {}

    def __getitem__(self, i: int) -> list[Element]:
        els = self.cache.get(i)
        if els is None:
            els = self.cache[i] = self.a16.build_elements(i, self.forfeits_as_games)
        return els

    def __len__(self) -> int:
        return self.a16.ct.n_players

    def __iter__(self) -> Iterator[list[Element]]:
        return (self[i] for i in range(len(self)))


def adjustments_of(a16: Article16, q: int) -> tuple[Adjustment, ...]:
    """The rounds of participant ``q`` that its adjusted score counts differently (16.3)."""
    rounds = a16.adjusted_rounds[q]
    if not rounds:
        return ()
    ct = a16.ct
    reason = (
        R.REQUESTED_BYE_COUNTS_AS_DRAW
        if a16.rules.opponent_unplayed is OpponentUnplayed.ARTICLE_16_3
        else R.UNPLAYED_COUNTS_AS_DRAW
    )
    return tuple(Adjustment(r + 1, reason, "16.3", ct.frac(ct.pts[q][r]), ct.frac(ct.D)) for r in rounds)


class Removal(NamedTuple):
    position: int  # index into the element list
    reason: str


def cut_elements(
    lsv_keys: Sequence[tuple[int, int]],
    contributions: Sequence[int],
    vurs: Sequence[bool],
    *,
    low: int,
    high: int,
    vur_first: bool,
) -> list[Removal]:
    """Article 14 / 16.5: which elements Cut-``low`` and then Median ``high`` remove.

    One least-significant step (16.5.1): ``LSV`` = the element with the smallest
    ``lsv_keys`` (BH: its value; SB: (opponent score, contribution)). If a VUR remains, ``V``
    = the VUR with the lowest contribution; ``V`` is removed if its contribution is at least
    ``LSV``'s, else ``LSV``. Repeated ``low`` times (16.5.2); then the ``high`` largest
    contributions are removed plainly (Median). Removing more than exists removes everything.
    """
    remaining = list(range(len(contributions)))
    removed: list[Removal] = []
    for _ in range(low):
        if not remaining:
            break
        lsv = min(remaining, key=lambda j: (lsv_keys[j], j))
        chosen, reason = lsv, R.CUT_LOWEST
        if vur_first:
            vur_left = [j for j in remaining if vurs[j]]
            if vur_left:
                v = min(vur_left, key=lambda j: (contributions[j], j))
                if v != lsv and contributions[v] >= contributions[lsv]:
                    chosen, reason = v, R.CUT_VUR_FIRST
                elif v == lsv:
                    chosen, reason = v, R.CUT_VUR_FIRST
        remaining.remove(chosen)
        removed.append(Removal(chosen, reason))
    for _ in range(high):
        if not remaining:
            break
        top = max(remaining, key=lambda j: (contributions[j], -j))
        remaining.remove(top)
        removed.append(Removal(top, R.MEDIAN_HIGHEST))
    return removed


def cut_sum_sorted(
    total: int, vur_sorted: list[int], other_sorted: list[int], low: int, high: int, vur_first: bool
) -> int:
    """Fast Buchholz-type cut (element value = contribution) on pre-sorted value lists.

    For Buchholz a VUR can never be below the least significant value, so with 16.5 the
    lowest VURs go first, then the lowest other values; the Median part removes the highest.
    """
    if not low and not high:
        return total
    if vur_first:
        nv = min(low, len(vur_sorted))
        rest_low = low - nv
        removed = sum(vur_sorted[:nv])
        if rest_low:
            removed += sum(other_sorted[:rest_low])
            rem_vur: list[int] = vur_sorted[nv:]
            rem_other = other_sorted[rest_low:]
        else:
            rem_vur = vur_sorted[nv:]
            rem_other = other_sorted
    else:
        merged = sorted(vur_sorted + other_sorted)
        removed = sum(merged[:low])
        rem_vur, rem_other = [], merged[low:]
    if high:
        if rem_vur:
            rest = sorted(rem_vur + rem_other)
        else:
            rest = rem_other
        if high >= len(rest):
            removed += sum(rest)
        else:
            removed += sum(rest[-high:])
    return total - removed
