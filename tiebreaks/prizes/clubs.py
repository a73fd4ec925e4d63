"""Best club team prizes: each club's best N players, clubs ranked by their points, then by the sum of
the same players' first tie-break, then by their best player's place; money and items to the club
(pure Python)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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
)


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

    def params(self) -> dict[str, Any]:
        return {
            "club": self.club,
            "name": self.name,
            "players": tuple((s.participant_id, s.name, s.points) for s in self.players),
            "total": self.total,
            "tiebreak": self.tiebreak,
        }


class ClubSplit:
    def __init__(
        self,
        standings: list[Standing],
        prizes: Sequence[PlacePrize | CategoryPrize | ClubTeamPrize],
        options: PrizeOptions,
        club_names: Mapping[Any, str],
    ) -> None:
        self.standings = standings
        self.options = options
        self.club_names = dict(club_names)
        self.club_prizes = {p.rank: p for p in prizes if isinstance(p, ClubTeamPrize)}
        self.lines: list[Line] = []
        self.remainder = 0
        self.unawarded = 0

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

    def run(self) -> tuple[Award, ...]:
        """Pay the money and the items; the awards in club order (clubs receiving something)."""
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
                self.unawarded += self.club_prizes[r].amount
                self.lines.append(Line("no_eligible_winner", {"club_team": r, "amount": self.club_prizes[r].amount}))
        for r in sorted(self.club_prizes):
            item = self.club_prizes[r].item
            if item:
                self._club_item(item, teams, r)
        return tuple(
            Award(t.club, t.name, self.club_money[t.club], tuple(self.club_items[t.club]))
            for t in teams
            if self.club_money[t.club] or self.club_items[t.club]
        )

    def _pay_clubs(self, group: list[_Team], prizes: tuple[tuple[int, int], ...], ranks: tuple[int, int]) -> None:
        money = sum(a for _, a in prizes)
        clubs = [(t.club, t.name) for t in group]
        share, extra, kept = share_equally(money, clubs, self.options.remainder)
        params = {
            "team_size": next(iter(self.club_prizes.values())).players,
            "ranks": ranks,
            "prizes": prizes,
            "criterion": group[0].criterion,
            "money": money,
            "share": share,
            "remainder": len(extra) + kept,
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
            self.club_money[t.club] += share + extra.get(t.club, 0)
        self.remainder += kept
        self.lines.extend(remainder_lines(clubs, extra, kept))

    def _club_item(self, item: str, teams: list[_Team], rank: int) -> None:
        params = {"item": item, "club_team": rank}
        i = rank - 1
        if i >= len(teams):
            self.lines.append(Line("no_eligible_winner", {**params, "amount": 0}))
            return
        t = teams[i]

        def same(u: _Team) -> bool:
            return bool(u.total == t.total and u.tiebreak == t.tiebreak)

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
