"""Prize split: who receives which prize money and items, exactly, and why (spec tiebreak-rules.md §14).

Pure Python: imports nothing from Django or from the rest of the project.

Money is in integer minor units (pence, cents, øre), never floats. Shares are computed exactly and
paid rounded down; the undistributable remainder is reported (or, on request, paid one unit at a
time in tie-break order). The explanation is data: ``Line(code, params)``, codes listed in ``REASONS``.

Methods (``PrizeOptions.method``):

``"pool"`` (default)
    A group tied on points shares equally the money of the place prizes for the positions it
    occupies (a tie of m at position k pools places k..k+m-1; only prizes that exist). Tied best
    eligible players share a category's prizes equally. With one prize per player, the eligible
    members of a group take a category share instead of their place share when it is strictly larger;
    the freed place then goes to the next player in line.
``"us-32b3"``
    US Chess 32B3: each tied player brings at most one prize (place or category) into a common pool,
    chosen so that the pool is as large as possible, and the pool is shared equally, unless the
    eligible players would get more by sharing only a category prize the others cannot win.
``"none"``
    No pooling: the tie-break order decides the money too.

``places_first=True`` (with "pool" or "none"; the simpler scheme §14 offers as an event option):
place prizes are never given up; category prizes go only to eligible players who won no place money.

Indivisible items (trophy, title, qualification place, free entry) always go strictly by the
published tie-break order, to the player on that place (or the r-th best eligible player for a
category), whether or not that player took the money of that prize; they do not count against the
one-money-prize rule. Players still tied after every tie-break need a drawing of lots
(``PrizeOptions.lot_order``; without one the item is reported as undecided), or, if the event says
so (``item_tie="shared"``), each of them receives the item as shared.

Decisions where the sources are silent: a category share equal to the place share keeps the place;
the 32B3 pool is maximised greedily (swap the lowest place brought for the best open category prize
while that gains); shares shown in ``better_prize_taken``/``us32b3_*`` are rounded down; unrated
players are never under a rating limit; ``born_after``/``born_before`` are strict. Team prizes in a
team event are the same call made on team standings.

Best club team (``ClubTeamPrize``, an individual event): the club whose best ``players`` (N, default 3)
players, in standings order, scored the most points together. A club with fewer than N players in the
standings counts the players it has (its total is simply smaller). Clubs are ranked by that total, then
by the sum of the same players' values of the first published tie-break (missing values count 0), then
by their best player's place. The money follows the method as for players: clubs tied on total points
share the money of the ranks they occupy ("pool" and "us-32b3"; tie-breaks decide only items), while
"none" lets the tie-break sum decide and pools only clubs still equal after it. Club prizes go to the
club (``PrizeResult.club_awards``, keyed by the club value of the standings); they never count against
one prize per player. A club item goes by the club order; clubs still equal after the tie-break sum
share it (``item_tie="shared"``) or need a drawing of lots (club keys in ``lot_order``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

# Reason codes of explanation lines: the one list renderers translate (params in brackets).
REASONS: dict[str, str] = {
    # one player on a prize place receives its money [places, prizes, participants, names, total, share]
    "place_prize": "the player on this prize place receives its money",
    # tied players share the money of the places they occupy [places, prizes, participants, names, total,
    # share, remainder]
    "places_shared_pooled": "players tied on points share equally the money of the places they occupy",
    # the best eligible player receives a category prize [category, ranks, prizes, participants, ...]
    "category_prize": "the best eligible player receives the category prize",
    # tied best eligible players share the category prizes [category, ranks, prizes, participants, ...]
    "category_shared_pooled": "tied best eligible players share the category prizes equally",
    # US 32B3: one prize per tied player pooled [places, prizes, category_prizes, participants, ...]
    "us32b3_pooled": "US 32B3: each tied player brings at most one prize into the pool, shared equally",
    # US 32B3 exception [category, participants, names, share, pooled_share]
    "us32b3_category_alone": "US 32B3: these players get more by sharing only a prize the others cannot win",
    # one money prize per player [participants, names, taken, taken_share, declined, declined_share]
    "better_prize_taken": "one money prize per player: the more valuable one is taken, the other passes on",
    # tie-break decided money [participant, name, other, other_name, criterion, value, other_value]
    "money_by_tiebreak": "no pooling: the tie-break decides which of the players tied on points is paid",
    # rounding [participants, names, amount]
    "remainder_unpaid": "the share is rounded down; the remainder stays with the organiser",
    # rounding [participants, names, amount]
    "remainder_by_tiebreak": "the remainder is paid one minor unit at a time in tie-break order",
    # item, no tie on points [item, place | category+rank, participant, name]
    "place_item": "the item goes to the player on this place",
    # item, no tie on points [item, category, rank, participant, name]
    "category_item": "the item goes to the best eligible player",
    # item between players tied on points [item, ..., participant, name, other, other_name, criterion,
    # value, other_value]
    "item_by_tiebreak": "the item goes to the tied player ahead on the first tie-break that separates them",
    # all tie-breaks equal, lots drawn [item, ..., participant, name, candidates, names]
    "item_by_lot": "still tied after every tie-break: the item goes by the recorded drawing of lots",
    # all tie-breaks equal, no lots recorded [item, ..., candidates, names]
    "item_needs_lot": "still tied after every tie-break: the item needs a drawing of lots",
    # all tie-breaks equal, event shares items [item, ..., candidates, names]
    "item_shared": "still tied after every tie-break: the item is shared, as the event rules say",
    # nobody can receive it [place | category+rank | club_team (rank), amount, item]
    "no_eligible_winner": "no player can receive this prize; its money is not paid",
    # the best club team (one club) receives the prize [club_team (N), ranks, prizes, club, name, players
    # ((participant, name, points), …), total (points), criterion, tiebreak (sum), money, share, remainder]
    "club_team_prize": "the club whose best players scored the most points together receives the prize",
    # clubs tied on those points share the prizes of the ranks they occupy [club_team, ranks, prizes, clubs,
    # names, teams ({club, name, players, total, tiebreak}, …), total (points), criterion, money, share,
    # remainder]
    "club_team_shared": "clubs tied on the points of their best players share the prizes equally",
}
# Club team prizes also use money_by_tiebreak (clubs under "none"), remainder_*, the item codes
# (category_item, item_by_tiebreak, item_by_lot, item_needs_lot, item_shared: participant = the club,
# value = tie-break sums) and no_eligible_winner, with ``club_team`` (the rank) instead of place/category.

METHODS = ("pool", "us-32b3", "none")
REMAINDER_RULES = ("round_down", "by_tiebreak")
ITEM_TIE_RULES = ("lot", "shared")
ELIGIBILITY_KINDS = ("rating_below", "rating_at_least", "born_after", "born_before", "sex", "unrated", "club")


# --------------------------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Standing:
    """One line of the final standings; a sequence of these is given in final rank order."""

    participant_id: Hashable
    name: str
    points: Any  # Fraction, Decimal or int: equal points = tied group
    tiebreak_values: tuple[tuple[str, Any], ...] = ()  # (criterion code, value) in published order
    rating: int | None = None
    birth_year: int | None = None
    sex: str | None = None
    club: str | None = None


@dataclass(frozen=True)
class Eligibility:
    """One eligibility condition: rating_below / rating_at_least (rating; unrated never qualifies),
    born_after / born_before (year, strict; unknown year never qualifies), sex, club (equal value),
    unrated (no value)."""

    kind: str
    value: Any = None

    def admits(self, s: Standing) -> bool:
        if self.kind == "rating_below":
            return s.rating is not None and s.rating < self.value
        if self.kind == "rating_at_least":
            return s.rating is not None and s.rating >= self.value
        if self.kind == "born_after":
            return s.birth_year is not None and s.birth_year > self.value
        if self.kind == "born_before":
            return s.birth_year is not None and s.birth_year < self.value
        if self.kind == "sex":
            return s.sex == self.value
        if self.kind == "club":
            return s.club == self.value
        if self.kind == "unrated":
            return s.rating is None
        raise ValueError(f"unknown eligibility kind {self.kind!r}")


@dataclass(frozen=True)
class PlacePrize:
    place: int  # 1-based
    amount: int = 0  # minor units
    item: str | None = None


@dataclass(frozen=True)
class CategoryPrize:
    """Prize ``rank`` (1 = best) of a category; all conditions in ``eligibility`` must hold."""

    category: str
    eligibility: tuple[Eligibility, ...]
    rank: int = 1
    amount: int = 0
    item: str | None = None

    def __post_init__(self):
        if isinstance(self.eligibility, Eligibility):
            object.__setattr__(self, "eligibility", (self.eligibility,))

    def admits(self, s: Standing) -> bool:
        return all(rule.admits(s) for rule in self.eligibility)


@dataclass(frozen=True)
class ClubTeamPrize:
    """Prize ``rank`` (1 = best) for the best club team: the sum of the points of each club's best
    ``players`` players (fewer if the club has fewer). All club team prizes of a fund count the same N."""

    rank: int = 1
    amount: int = 0
    item: str | None = None
    players: int = 3


@dataclass(frozen=True)
class PrizeOptions:
    method: str = "pool"  # "pool" | "us-32b3" | "none"
    one_prize_per_player: bool = True  # money prizes only; items are never limited
    remainder: str = "round_down"  # | "by_tiebreak"
    currency: str = "GBP"
    lot_order: tuple[Hashable, ...] = ()  # drawing of lots for players tied after all tie-breaks
    item_tie: str = "lot"  # | "shared": players tied after all tie-breaks each receive the item
    places_first: bool = False  # category prizes only for players without place money (not US 32B3)


# -------------------------------------------------------------------------------------------- outputs


@dataclass(frozen=True)
class Line:
    code: str  # a key of REASONS
    params: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Award:
    participant_id: Hashable
    name: str
    money: int
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class PrizeResult:
    awards: tuple[Award, ...]  # standings order; only players who receive money or an item
    lines: tuple[Line, ...]
    currency: str
    fund: int  # all prize money
    total_paid: int
    remainder: int  # rounding remainder kept by the organiser
    unawarded: int  # money of prizes nobody could receive
    club_awards: tuple[Award, ...] = ()  # club order; participant_id = the club; best club team prizes

    def money_of(self, participant_id: Hashable) -> int:
        return next((a.money for a in self.awards if a.participant_id == participant_id), 0)

    def club_money_of(self, club: Hashable) -> int:
        return next((a.money for a in self.club_awards if a.participant_id == club), 0)

    def club_items_of(self, club: Hashable) -> tuple[str, ...]:
        return next((a.items for a in self.club_awards if a.participant_id == club), ())

    def items_of(self, participant_id: Hashable) -> tuple[str, ...]:
        return next((a.items for a in self.awards if a.participant_id == participant_id), ())


# ------------------------------------------------------------------------------------------ algorithm


def first_difference(a: Standing, b: Standing) -> tuple[str, Any, Any] | None:
    """The first published tie-break on which a and b differ: (code, a's value, b's value), or None."""
    for (code, va), (_, vb) in zip(a.tiebreak_values, b.tiebreak_values, strict=False):
        if va != vb:
            return (code, va, vb)
    return None


def split_prizes(
    standings: Sequence[Standing],
    prizes: Sequence[PlacePrize | CategoryPrize | ClubTeamPrize],
    options: PrizeOptions = PrizeOptions(),
    club_names: Mapping[Hashable, str] | None = None,
) -> PrizeResult:
    """Distribute the prize fund over the final standings (given in rank order).

    ``club_names`` maps the standings' club values to the names shown (default: the value itself)."""
    return _Split(standings, prizes, options, club_names or {}).run()


@dataclass(frozen=True)
class _Team:
    """A club's team for the best-club-team prizes: its best N players in standings order."""

    club: Hashable
    name: str
    players: tuple[Standing, ...]
    total: Any  # their points
    criterion: str | None  # the first published tie-break
    tiebreak: Any  # the sum of their values of it
    first: int  # the standings index of the club's best player

    def params(self) -> dict:
        return {
            "club": self.club,
            "name": self.name,
            "players": tuple((s.participant_id, s.name, s.points) for s in self.players),
            "total": self.total,
            "tiebreak": self.tiebreak,
        }


class _Split:
    def __init__(self, standings, prizes, options, club_names=None):
        self.standings = list(standings)
        self.options = options
        self.club_names = dict(club_names or {})
        self.club_prizes = {p.rank: p for p in prizes if isinstance(p, ClubTeamPrize)}
        self.places = {p.place: p for p in prizes if isinstance(p, PlacePrize)}
        self.cats: dict[str, dict[int, CategoryPrize]] = {}
        for p in prizes:
            if isinstance(p, CategoryPrize):
                self.cats.setdefault(p.category, {})[p.rank] = p
        self._validate(prizes)
        self.next_place = 1
        self.next_rank = {key: 1 for key in self.cats}
        self.money = {s.participant_id: 0 for s in self.standings}
        self.items = {s.participant_id: [] for s in self.standings}
        self.lines: list[Line] = []
        self.remainder = 0

    def _validate(self, prizes):
        o = self.options
        if o.method not in METHODS:
            raise ValueError(f"unknown method {o.method!r}")
        if o.item_tie not in ITEM_TIE_RULES:
            raise ValueError(f"unknown item tie rule {o.item_tie!r}")
        if o.remainder not in REMAINDER_RULES:
            raise ValueError(f"unknown remainder rule {o.remainder!r}")
        if o.method == "us-32b3" and (o.places_first or not o.one_prize_per_player):
            raise ValueError("US 32B3 presupposes one cash prize per player (32B1), the most valuable")
        ids = [s.participant_id for s in self.standings]
        if len(set(ids)) != len(ids):
            raise ValueError("participant ids must be unique")
        for a, b in zip(self.standings, self.standings[1:], strict=False):
            if b.points > a.points:
                raise ValueError("standings must be in rank order (points never increase)")
        for p in prizes:
            if not isinstance(p.amount, int) or isinstance(p.amount, bool) or p.amount < 0:
                raise ValueError(f"prize amounts are non-negative integers of minor units: {p!r}")
        if len(self.places) != sum(isinstance(p, PlacePrize) for p in prizes) or min(self.places, default=1) < 1:
            raise ValueError("place prizes need distinct places from 1")
        for p in prizes:
            if isinstance(p, CategoryPrize):
                for rule in p.eligibility:
                    if rule.kind not in ELIGIBILITY_KINDS:
                        raise ValueError(f"unknown eligibility kind {rule.kind!r}")
                if p.eligibility != self._rule(p.category).eligibility:
                    raise ValueError(f"category {p.category!r}: all its prizes need the same eligibility")
        if sum(isinstance(p, CategoryPrize) for p in prizes) != sum(len(c) for c in self.cats.values()):
            raise ValueError("category prizes need distinct ranks")
        club = [p for p in prizes if isinstance(p, ClubTeamPrize)]
        if len(self.club_prizes) != len(club) or min(self.club_prizes, default=1) < 1:
            raise ValueError("club team prizes need distinct ranks from 1")
        if len({p.players for p in club}) > 1 or any(
            not isinstance(p.players, int) or isinstance(p.players, bool) or p.players < 1 for p in club
        ):
            raise ValueError("club team prizes need one and the same number of players counted, at least 1")

    # --- helpers

    def _rule(self, key) -> CategoryPrize:
        return next(iter(self.cats[key].values()))

    def _place_prizes(self, count) -> list[tuple[int, int]]:
        """(place, amount) of the money place prizes on the next `count` places."""
        rng = range(self.next_place, self.next_place + count)
        return [(k, self.places[k].amount) for k in rng if k in self.places and self.places[k].amount]

    def _cat_prizes(self, key, count) -> list[tuple[int, int]]:
        first = self.next_rank[key]
        prizes = self.cats[key]
        return [(r, prizes[r].amount) for r in range(first, first + count) if r in prizes and prizes[r].amount]

    def _place_amount(self, place) -> int:
        return self.places[place].amount if place in self.places else 0

    def _cat_amount(self, key, rank) -> int:
        return self.cats[key][rank].amount if rank in self.cats[key] else 0

    def _eligible(self, key, members) -> list[Standing]:
        rule = self._rule(key)
        return [s for s in members if rule.admits(s)]

    @staticmethod
    def _who(members) -> dict:
        return {
            "participants": tuple(s.participant_id for s in members),
            "names": tuple(s.name for s in members),
        }

    def _groups(self, entries) -> list[list[Standing]]:
        if self.options.method == "none":
            return [[s] for s in entries]
        groups: list[list[Standing]] = []
        for s in entries:
            if groups and groups[-1][0].points == s.points:
                groups[-1].append(s)
            else:
                groups.append([s])
        return groups

    def _pay(self, members, total, code, params):
        """Share `total` equally among `members` (standings order) and explain it."""
        share, rest = divmod(total, len(members))
        self.lines.append(
            Line(code, {**params, **self._who(members), "total": total, "share": share, "remainder": rest})
        )
        for s in members:
            self.money[s.participant_id] += share
        if not rest:
            return
        if self.options.remainder == "by_tiebreak":
            lucky = members[:rest]
            for s in lucky:
                self.money[s.participant_id] += 1
            self.lines.append(Line("remainder_by_tiebreak", {**self._who(lucky), "amount": rest}))
        else:
            self.remainder += rest
            self.lines.append(Line("remainder_unpaid", {**self._who(members), "amount": rest}))

    def _pay_places(self, members):
        if not members:
            return
        prizes = self._place_prizes(len(members))
        first, last = self.next_place, self.next_place + len(members) - 1
        self.next_place = last + 1
        if not prizes:
            return
        code = "place_prize" if len(members) == 1 else "places_shared_pooled"
        self._pay(members, sum(a for _, a in prizes), code, {"places": (first, last), "prizes": tuple(prizes)})
        if self.options.method == "none":
            self._explain_money_tiebreak(members[0])

    def _pay_category(self, key, members):
        prizes = self._cat_prizes(key, len(members))
        first = self.next_rank[key]
        self.next_rank[key] += len(members)
        if not prizes:
            return
        code = "category_prize" if len(members) == 1 else "category_shared_pooled"
        self._pay(
            members,
            sum(a for _, a in prizes),
            code,
            {"category": key, "ranks": (first, first + len(members) - 1), "prizes": tuple(prizes)},
        )

    def _explain_money_tiebreak(self, s):
        i = self.standings.index(s)
        if i + 1 < len(self.standings) and self.standings[i + 1].points == s.points:
            other = self.standings[i + 1]
            diff = first_difference(s, other)
            self.lines.append(
                Line(
                    "money_by_tiebreak",
                    {
                        "participant": s.participant_id,
                        "name": s.name,
                        "other": other.participant_id,
                        "other_name": other.name,
                        "criterion": diff[0] if diff else None,
                        "value": diff[1] if diff else None,
                        "other_value": diff[2] if diff else None,
                    },
                )
            )

    # --- money

    def run(self) -> PrizeResult:
        if self.options.one_prize_per_player:
            for group in self._groups(self.standings):
                if self.options.method == "us-32b3":
                    self._group_us32b3(group)
                else:
                    self._group_one_prize(group)
        else:
            for group in self._groups(self.standings):
                self._pay_places(group)
            for key in self.cats:
                for group in self._groups(self._eligible(key, self.standings)):
                    self._pay_category(key, group)
        unawarded = self._unawarded()
        self._items()
        club_awards = self._club_teams()
        unawarded += self.club_unawarded
        fund = (
            sum(p.amount for p in self.places.values())
            + sum(p.amount for c in self.cats.values() for p in c.values())
            + sum(p.amount for p in self.club_prizes.values())
        )
        awards = tuple(
            Award(s.participant_id, s.name, self.money[s.participant_id], tuple(self.items[s.participant_id]))
            for s in self.standings
            if self.money[s.participant_id] or self.items[s.participant_id]
        )
        return PrizeResult(
            awards,
            tuple(self.lines),
            self.options.currency,
            fund,
            sum(self.money.values()) + sum(a.money for a in club_awards),
            self.remainder,
            unawarded,
            club_awards,
        )

    def _group_one_prize(self, group):
        """Pool (or, for "none", a single player): place share unless a category share is larger."""
        takers = list(group)
        while takers:
            place_share = Fraction(sum(a for _, a in self._place_prizes(len(takers))), len(takers))
            best = None
            for key in self.cats:
                eligible = self._eligible(key, takers)
                if eligible:
                    share = Fraction(sum(a for _, a in self._cat_prizes(key, len(eligible))), len(eligible))
                    better = share > place_share and not (self.options.places_first and place_share)
                    if better and (best is None or share > best[2]):
                        best = (key, eligible, share)
            if best is None:
                break
            key, eligible, share = best
            if place_share:
                self._declined(eligible, ("category", key), share, ("places",), place_share)
            self._pay_category(key, eligible)
            takers = [s for s in takers if s not in eligible]
        if takers:
            place_share = Fraction(sum(a for _, a in self._place_prizes(len(takers))), len(takers))
            for key in self.cats:
                eligible = self._eligible(key, takers)
                if eligible and place_share:
                    share = Fraction(sum(a for _, a in self._cat_prizes(key, len(eligible))), len(eligible))
                    if share:
                        self._declined(eligible, ("places",), place_share, ("category", key), share)
        self._pay_places(takers)

    def _declined(self, members, taken, taken_share, declined, declined_share):
        self.lines.append(
            Line(
                "better_prize_taken",
                {
                    **self._who(members),
                    "taken": taken,
                    "taken_share": int(taken_share),
                    "declined": declined,
                    "declined_share": int(declined_share),
                },
            )
        )

    def _group_us32b3(self, group):
        pool = list(group)
        while len(pool) > 1:
            n_place, brought, total = self._bring(pool)
            pooled_share = Fraction(total, len(pool))
            best = None
            for key in self.cats:
                eligible = self._eligible(key, pool)
                if eligible and len(eligible) < len(pool):
                    share = Fraction(sum(a for _, a in self._cat_prizes(key, len(eligible))), len(eligible))
                    if share > pooled_share and (best is None or share > best[2]):
                        best = (key, eligible, share)
            if best is None:
                break
            key, eligible, share = best
            self.lines.append(
                Line(
                    "us32b3_category_alone",
                    {
                        **self._who(eligible),
                        "category": key,
                        "share": int(share),
                        "pooled_share": int(pooled_share),
                    },
                )
            )
            self._pay_category(key, eligible)
            pool = [s for s in pool if s not in eligible]
        if len(pool) <= 1:
            self._group_one_prize(pool)
            return
        if not any(brought.values()):
            self._pay_places(pool)
            return
        place_prizes = self._place_prizes(n_place)
        cat_prizes = tuple(
            (key, r, a) for key, members in brought.items() if members for r, a in self._cat_prizes(key, len(members))
        )
        params = {
            "places": (self.next_place, self.next_place + n_place - 1) if n_place else None,
            "prizes": tuple(place_prizes),
            "category_prizes": cat_prizes,
        }
        self.next_place += n_place
        for key, members in brought.items():
            self.next_rank[key] += len(members)
        self._pay(pool, total, "us32b3_pooled", params)

    def _bring(self, pool):
        """Each member brings at most one prize; maximise the pool. Start with places for everyone,
        then swap the lowest place brought for the best category prize a place-bringer may win."""
        n_place = len(pool)
        free = list(pool)
        brought: dict[str, list[Standing]] = {key: [] for key in self.cats}
        while n_place:
            lowest = self._place_amount(self.next_place + n_place - 1)
            best = None
            for key in self.cats:
                candidates = self._eligible(key, free)
                value = self._cat_amount(key, self.next_rank[key] + len(brought[key]))
                if candidates and value > lowest and (best is None or value > best[0]):
                    best = (value, key, candidates)
            if best is None:
                break
            _, key, candidates = best
            member = min(candidates, key=lambda s: sum(self._rule(k).admits(s) for k in self.cats))
            free.remove(member)
            brought[key].append(member)
            n_place -= 1
        total = sum(a for _, a in self._place_prizes(n_place)) + sum(
            a for key, members in brought.items() for _, a in self._cat_prizes(key, len(members))
        )
        return n_place, brought, total

    def _unawarded(self) -> int:
        lost = 0
        for k in sorted(self.places):
            if k >= self.next_place and self.places[k].amount:
                lost += self.places[k].amount
                self.lines.append(Line("no_eligible_winner", {"place": k, "amount": self.places[k].amount}))
        for key, prizes in self.cats.items():
            for r in sorted(prizes):
                if r >= self.next_rank[key] and prizes[r].amount:
                    lost += prizes[r].amount
                    self.lines.append(
                        Line("no_eligible_winner", {"category": key, "rank": r, "amount": prizes[r].amount})
                    )
        return lost

    # --- items

    def _items(self):
        for k in sorted(self.places):
            if self.places[k].item:
                self._item(self.places[k].item, self.standings, k - 1, {"place": k}, "place_item")
        for key, prizes in self.cats.items():
            eligible = self._eligible(key, self.standings)
            for r in sorted(prizes):
                if prizes[r].item:
                    self._item(prizes[r].item, eligible, r - 1, {"category": key, "rank": r}, "category_item")

    def _item(self, item, seq, i, where, plain_code):
        params = {"item": item, **where}
        if i >= len(seq):
            self.lines.append(Line("no_eligible_winner", {**params, "amount": 0}))
            return
        s = seq[i]

        def same(t):
            return t.points == s.points and first_difference(s, t) is None

        lo, hi = i, i
        while lo > 0 and same(seq[lo - 1]):
            lo -= 1
        while hi + 1 < len(seq) and same(seq[hi + 1]):
            hi += 1
        if lo < hi:
            cluster = seq[lo : hi + 1]
            lots = self.options.lot_order
            candidates = {
                "candidates": tuple(t.participant_id for t in cluster),
                "names": tuple(t.name for t in cluster),
            }
            if self.options.item_tie == "shared":
                for t in cluster:
                    self._give(t, item)
                self.lines.append(Line("item_shared", {**params, **candidates}))
            elif all(t.participant_id in lots for t in cluster):
                drawn = sorted(cluster, key=lambda t: lots.index(t.participant_id))[i - lo]
                self._give(drawn, item)
                self.lines.append(
                    Line(
                        "item_by_lot",
                        {**params, "participant": drawn.participant_id, "name": drawn.name, **candidates},
                    )
                )
            else:
                self.lines.append(Line("item_needs_lot", {**params, **candidates}))
            return
        self._give(s, item)
        params.update(participant=s.participant_id, name=s.name)
        nxt = seq[i + 1] if i + 1 < len(seq) and seq[i + 1].points == s.points else None
        prev = seq[i - 1] if i > 0 and seq[i - 1].points == s.points else None
        other = nxt or prev
        if other is None:
            self.lines.append(Line(plain_code, params))
            return
        code, value, other_value = first_difference(s, other)
        self.lines.append(
            Line(
                "item_by_tiebreak",
                {
                    **params,
                    "other": other.participant_id,
                    "other_name": other.name,
                    "criterion": code,
                    "value": value,
                    "other_value": other_value,
                },
            )
        )

    def _give(self, s, item):
        self.items[s.participant_id].append(item)

    # --- best club team

    def _teams(self) -> list[_Team]:
        """Each club's best N players (standings order), clubs in order: total points, tie-break sum,
        best player's place. A club with fewer than N players counts those it has."""
        size = next(iter(self.club_prizes.values())).players
        members: dict[Hashable, list[tuple[int, Standing]]] = {}
        for i, s in enumerate(self.standings):
            if s.club is not None:
                members.setdefault(s.club, []).append((i, s))
        teams = []
        for club, indexed in members.items():
            best = tuple(s for _, s in indexed[:size])
            criterion = best[0].tiebreak_values[0][0] if best[0].tiebreak_values else None
            tiebreak = None
            if criterion is not None:
                values = (s.tiebreak_values[0][1] for s in best if s.tiebreak_values)
                tiebreak = sum((v for v in values if v is not None), 0)
            teams.append(
                _Team(
                    club=club,
                    name=str(self.club_names.get(club, club)),
                    players=best,
                    total=sum((s.points for s in best), 0),
                    criterion=criterion,
                    tiebreak=tiebreak,
                    first=indexed[0][0],
                )
            )
        teams.sort(key=lambda t: (-t.total, -(t.tiebreak or 0), t.first))
        return teams

    def _club_teams(self) -> tuple[Award, ...]:
        self.club_unawarded = 0
        if not self.club_prizes:
            return ()
        teams = self._teams()
        self.club_money = {t.club: 0 for t in teams}
        self.club_items: dict[Hashable, list[str]] = {t.club: [] for t in teams}
        pooled = self.options.method != "none"
        groups: list[list[_Team]] = []
        for t in teams:
            if groups and groups[-1][0].total == t.total and (pooled or groups[-1][0].tiebreak == t.tiebreak):
                groups[-1].append(t)
            else:
                groups.append([t])
        rank = 1
        for group in groups:
            first, last = rank, rank + len(group) - 1
            rank = last + 1
            prizes = tuple(
                (r, self.club_prizes[r].amount)
                for r in range(first, last + 1)
                if r in self.club_prizes and self.club_prizes[r].amount
            )
            if not prizes:
                continue
            self._pay_clubs(group, prizes, (first, last))
            i = teams.index(group[-1])
            if not pooled and i + 1 < len(teams) and teams[i + 1].total == group[-1].total:
                t, other = group[-1], teams[i + 1]
                self.lines.append(
                    Line(
                        "money_by_tiebreak",
                        {
                            "participant": t.club,
                            "name": t.name,
                            "other": other.club,
                            "other_name": other.name,
                            "criterion": t.criterion,
                            "value": t.tiebreak,
                            "other_value": other.tiebreak,
                            "club_team": first,
                        },
                    )
                )
        for r in sorted(self.club_prizes):
            if r >= rank and self.club_prizes[r].amount:
                self.club_unawarded += self.club_prizes[r].amount
                self.lines.append(Line("no_eligible_winner", {"club_team": r, "amount": self.club_prizes[r].amount}))
        for r in sorted(self.club_prizes):
            if self.club_prizes[r].item:
                self._club_item(self.club_prizes[r].item, teams, r)
        return tuple(
            Award(t.club, t.name, self.club_money[t.club], tuple(self.club_items[t.club]))
            for t in teams
            if self.club_money[t.club] or self.club_items[t.club]
        )

    def _pay_clubs(self, group, prizes, ranks):
        money = sum(a for _, a in prizes)
        share, rest = divmod(money, len(group))
        params = {
            "team_size": next(iter(self.club_prizes.values())).players,
            "ranks": ranks,
            "prizes": prizes,
            "criterion": group[0].criterion,
            "money": money,
            "share": share,
            "remainder": rest,
        }
        if len(group) == 1:
            self.lines.append(Line("club_team_prize", {**params, **group[0].params()}))
        else:
            self.lines.append(
                Line(
                    "club_team_shared",
                    {
                        **params,
                        "clubs": tuple(t.club for t in group),
                        "names": tuple(t.name for t in group),
                        "teams": tuple(t.params() for t in group),
                        "total": group[0].total,
                    },
                )
            )
        for t in group:
            self.club_money[t.club] += share
        if not rest:
            return
        who = {"participants": tuple(t.club for t in group), "names": tuple(t.name for t in group)}
        if self.options.remainder == "by_tiebreak":
            for t in group[:rest]:
                self.club_money[t.club] += 1
            lucky = group[:rest]
            self.lines.append(
                Line(
                    "remainder_by_tiebreak",
                    {
                        "participants": tuple(t.club for t in lucky),
                        "names": tuple(t.name for t in lucky),
                        "amount": rest,
                    },
                )
            )
        else:
            self.remainder += rest
            self.lines.append(Line("remainder_unpaid", {**who, "amount": rest}))

    def _club_item(self, item, teams, rank):
        params = {"item": item, "club_team": rank}
        i = rank - 1
        if i >= len(teams):
            self.lines.append(Line("no_eligible_winner", {**params, "amount": 0}))
            return
        t = teams[i]

        def same(u):
            return u.total == t.total and u.tiebreak == t.tiebreak

        lo, hi = i, i
        while lo > 0 and same(teams[lo - 1]):
            lo -= 1
        while hi + 1 < len(teams) and same(teams[hi + 1]):
            hi += 1
        if lo < hi:
            cluster = teams[lo : hi + 1]
            lots = self.options.lot_order
            candidates = {"candidates": tuple(u.club for u in cluster), "names": tuple(u.name for u in cluster)}
            if self.options.item_tie == "shared":
                for u in cluster:
                    self.club_items[u.club].append(item)
                self.lines.append(Line("item_shared", {**params, **candidates}))
            elif all(u.club in lots for u in cluster):
                drawn = sorted(cluster, key=lambda u: lots.index(u.club))[i - lo]
                self.club_items[drawn.club].append(item)
                self.lines.append(
                    Line("item_by_lot", {**params, "participant": drawn.club, "name": drawn.name, **candidates})
                )
            else:
                self.lines.append(Line("item_needs_lot", {**params, **candidates}))
            return
        self.club_items[t.club].append(item)
        params.update(participant=t.club, name=t.name)
        nxt = teams[i + 1] if i + 1 < len(teams) and teams[i + 1].total == t.total else None
        prev = teams[i - 1] if i > 0 and teams[i - 1].total == t.total else None
        other = nxt or prev
        if other is None:
            self.lines.append(Line("category_item", params))
            return
        self.lines.append(
            Line(
                "item_by_tiebreak",
                {
                    **params,
                    "other": other.club,
                    "other_name": other.name,
                    "criterion": t.criterion,
                    "value": t.tiebreak,
                    "other_value": other.tiebreak,
                },
            )
        )
