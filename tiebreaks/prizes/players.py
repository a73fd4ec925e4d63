"""Place and category prizes to players: the money by the fund's method (pooled, US 32B3, or by
tie-break), then the indivisible items by the tie-break order (pure Python)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

from ..engine.separation import first_difference
from .model import (
    Award,
    CategoryPrize,
    ClubTeamPrize,
    Line,
    PlacePrize,
    PrizeOptions,
    Standing,
    remainder_lines,
    share_equally,
    who,
)


class PlayerSplit:
    def __init__(
        self,
        standings: list[Standing],
        prizes: Sequence[PlacePrize | CategoryPrize | ClubTeamPrize],
        options: PrizeOptions,
    ) -> None:
        self.standings = standings
        self.options = options
        self.places = {p.place: p for p in prizes if isinstance(p, PlacePrize)}
        self.cats: dict[str, dict[int, CategoryPrize]] = {}
        for p in prizes:
            if isinstance(p, CategoryPrize):
                self.cats.setdefault(p.category, {})[p.rank] = p
        self.next_place = 1
        self.next_rank = {key: 1 for key in self.cats}
        self.money = {s.participant_id: 0 for s in self.standings}
        self.items: dict[Hashable, list[str]] = {s.participant_id: [] for s in self.standings}
        self.lines: list[Line] = []
        self.remainder = 0
        self.unawarded = 0

    def _rule(self, key: str) -> CategoryPrize:
        return next(iter(self.cats[key].values()))

    def _place_prizes(self, count: int) -> list[tuple[int, int]]:
        """(place, amount) of the money place prizes on the next `count` places."""
        rng = range(self.next_place, self.next_place + count)
        return [(k, self.places[k].amount) for k in rng if k in self.places and self.places[k].amount]

    def _cat_prizes(self, key: str, count: int) -> list[tuple[int, int]]:
        first = self.next_rank[key]
        prizes = self.cats[key]
        return [(r, prizes[r].amount) for r in range(first, first + count) if r in prizes and prizes[r].amount]

    def _place_amount(self, place: int) -> int:
        return self.places[place].amount if place in self.places else 0

    def _cat_amount(self, key: str, rank: int) -> int:
        return self.cats[key][rank].amount if rank in self.cats[key] else 0

    def _eligible(self, key: str, members: Sequence[Standing]) -> list[Standing]:
        rule = self._rule(key)
        return [s for s in members if rule.admits(s)]

    @staticmethod
    def _who(members: Sequence[Standing]) -> dict[str, Any]:
        return who([(s.participant_id, s.name) for s in members])

    def _groups(self, entries: Sequence[Standing]) -> list[list[Standing]]:
        if self.options.method == "none":
            return [[s] for s in entries]
        groups: list[list[Standing]] = []
        for s in entries:
            if groups and groups[-1][0].points == s.points:
                groups[-1].append(s)
            else:
                groups.append([s])
        return groups

    def _pay(self, members: Sequence[Standing], total: int, code: str, params: dict[str, Any]) -> None:
        """Share `total` equally among `members` (standings order) and explain it."""
        people = [(s.participant_id, s.name) for s in members]
        share, extra, kept = share_equally(total, people, self.options.remainder)
        self.lines.append(
            Line(code, {**params, **self._who(members), "total": total, "share": share, "remainder": len(extra) + kept})
        )
        for s in members:
            self.money[s.participant_id] += share + extra.get(s.participant_id, 0)
        self.remainder += kept
        self.lines.extend(remainder_lines(people, extra, kept))

    def _pay_places(self, members: Sequence[Standing]) -> None:
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

    def _pay_category(self, key: str, members: Sequence[Standing]) -> None:
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

    def _explain_money_tiebreak(self, s: Standing) -> None:
        i = self.standings.index(s)
        if i + 1 < len(self.standings) and self.standings[i + 1].points == s.points:
            other = self.standings[i + 1]
            diff = first_difference(s.tiebreak_values, other.tiebreak_values)
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

    def run(self) -> tuple[Award, ...]:
        """Pay the money, then the items; the awards in standings order (players receiving something)."""
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
        self.unawarded = self._unawarded()
        self._items()
        return tuple(
            Award(s.participant_id, s.name, self.money[s.participant_id], tuple(self.items[s.participant_id]))
            for s in self.standings
            if self.money[s.participant_id] or self.items[s.participant_id]
        )

    def _group_one_prize(self, group: Sequence[Standing]) -> None:
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

    def _declined(
        self,
        members: Sequence[Standing],
        taken: tuple[str, ...],
        taken_share: Fraction,
        declined: tuple[str, ...],
        declined_share: Fraction,
    ) -> None:
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

    def _group_us32b3(self, group: Sequence[Standing]) -> None:
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

    def _bring(self, pool: Sequence[Standing]) -> tuple[int, dict[str, list[Standing]], int]:
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

    def _items(self) -> None:
        for k in sorted(self.places):
            place_item = self.places[k].item
            if place_item:
                self._item(place_item, self.standings, k - 1, {"place": k}, "place_item")
        for key, prizes in self.cats.items():
            eligible = self._eligible(key, self.standings)
            for r in sorted(prizes):
                cat_item = prizes[r].item
                if cat_item:
                    self._item(cat_item, eligible, r - 1, {"category": key, "rank": r}, "category_item")

    def _item(self, item: str, seq: Sequence[Standing], i: int, where: dict[str, Any], plain_code: str) -> None:
        params: dict[str, Any] = {"item": item, **where}
        if i >= len(seq):
            self.lines.append(Line("no_eligible_winner", {**params, "amount": 0}))
            return
        s = seq[i]

        def same(t: Standing) -> bool:
            return t.points == s.points and first_difference(s.tiebreak_values, t.tiebreak_values) is None

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
        diff = first_difference(s.tiebreak_values, other.tiebreak_values)
        # a neighbour on equal points with no difference would have made a cluster above
        if diff is None:
            raise RuntimeError("a neighbour on equal points with no difference would have made a cluster above")
        code, value, other_value = diff
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

    def _give(self, s: Standing, item: str) -> None:
        self.items[s.participant_id].append(item)
