"""The prize split's inputs and outputs, its reason codes and the rules it shares between players and
clubs (pure Python)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

# ISO 4217 code -> (symbol, number of decimals of the minor unit); money is in integer minor units
CURRENCIES: dict[str, tuple[str, int]] = {
    "GBP": ("£", 2),
    "EUR": ("€", 2),
    "USD": ("$", 2),
    "NOK": ("kr", 2),
    "SEK": ("kr", 2),
    "DKK": ("kr", 2),
    "TRY": ("₺", 2),
    "ILS": ("₪", 2),
    "CHF": ("CHF", 2),
    "JPY": ("¥", 0),
}

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
            return s.rating is not None and bool(s.rating < self.value)
        if self.kind == "rating_at_least":
            return s.rating is not None and bool(s.rating >= self.value)
        if self.kind == "born_after":
            return s.birth_year is not None and bool(s.birth_year > self.value)
        if self.kind == "born_before":
            return s.birth_year is not None and bool(s.birth_year < self.value)
        if self.kind == "sex":
            return bool(s.sex == self.value)
        if self.kind == "club":
            return bool(s.club == self.value)
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

    def __post_init__(self) -> None:
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
    params: dict[str, Any] = field(default_factory=dict)


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

    def items_of(self, participant_id: Hashable) -> tuple[str, ...]:
        return next((a.items for a in self.awards if a.participant_id == participant_id), ())


def share_equally(
    total: int, members: Sequence[tuple[Hashable, str]], remainder_rule: str
) -> tuple[int, dict[Hashable, int], int]:
    """Split `total` among `members` ((id, name), in tie-break order): the equal share rounded down,
    the extra minor units paid to the first members under "by_tiebreak" (id -> 1), and the remainder
    the organiser keeps under "round_down"."""
    share, rest = divmod(total, len(members))
    if remainder_rule == "by_tiebreak":
        return share, {pid: 1 for pid, _ in members[:rest]}, 0
    return share, {}, rest


def remainder_lines(members: Sequence[tuple[Hashable, str]], extra: dict[Hashable, int], kept: int) -> list[Line]:
    """The explanation of a share's rounding remainder (nothing when the share was exact)."""
    if extra:
        lucky = [(pid, name) for pid, name in members if pid in extra]
        return [Line("remainder_by_tiebreak", {**who(lucky), "amount": len(extra)})]
    if kept:
        return [Line("remainder_unpaid", {**who(members), "amount": kept})]
    return []


def who(members: Sequence[tuple[Hashable, str]]) -> dict[str, Any]:
    return {"participants": tuple(pid for pid, _ in members), "names": tuple(name for _, name in members)}
