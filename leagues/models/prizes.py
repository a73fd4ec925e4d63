"""Prize funds: the prizes an event offers and, after every standings recompute, who receives what.

The split itself is the pure algorithm in :mod:`tiebreaks.prizes` (spec tiebreak-rules.md §14);
these models hold its inputs (a fund with its place and category prizes, editable by organisers) and
its stored output (a :class:`PrizeAllocation` keyed to the standings snapshot version it was computed
from, with one :class:`PrizeAward` per player or team receiving money or an item).

Money is always an integer of minor units (pence, cents, øre), never a float or a Decimal.
"""

from typing import ClassVar

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from tiebreaks.prizes import CURRENCIES

from .events import Entry, Event

RATING_KINDS = {"rating_below", "rating_at_least"}
YEAR_KINDS = {"born_after", "born_before"}


class PrizeFund(models.Model):
    """An event's prize fund and the rules by which it is split (spec §14)."""

    class Method(models.TextChoices):
        POOL = "pool", _("pool: tied players share the money of the places they occupy")
        US_32B3 = "us-32b3", _("US Chess 32B3: each tied player brings at most one prize into the pool")
        NONE = "none", _("no pooling: the tiebreak order decides the money too")

    class Remainder(models.TextChoices):
        ROUND_DOWN = "round_down", _("shares rounded down, the remainder stays with the organiser")
        BY_TIEBREAK = "by_tiebreak", _("the remainder is paid one minor unit at a time in tiebreak order")

    class ItemTie(models.TextChoices):
        LOT = "lot", _("drawing of lots")
        SHARED = "shared", _("shared by the players still tied")

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="prize_fund", verbose_name=_("event"))
    currency = models.CharField(
        _("currency"), max_length=3, default="GBP", choices=[(code, code) for code in CURRENCIES]
    )
    method = models.CharField(_("method"), max_length=8, choices=Method.choices, default=Method.POOL)
    one_prize_per_player = models.BooleanField(
        _("one money prize per player"), default=True, help_text=_("US Chess 32B1: the most valuable one.")
    )
    remainder = models.CharField(
        _("remainder rule"), max_length=12, choices=Remainder.choices, default=Remainder.ROUND_DOWN
    )
    places_first = models.BooleanField(
        _("place prizes first"),
        default=False,
        help_text=_("Category prizes go only to players who won no place money (not with US 32B3)."),
    )
    item_tie = models.CharField(
        _("players tied after every tiebreak receive items by"),
        max_length=6,
        choices=ItemTie.choices,
        default=ItemTie.LOT,
    )
    lot_order = models.JSONField(
        _("drawing of lots"),
        default=list,
        blank=True,
        help_text=_("Start numbers in the order drawn, for players still tied after every tiebreak."),
    )
    published = models.BooleanField(_("published"), default=False)

    class Meta:
        verbose_name = _("prize fund")
        verbose_name_plural = _("prize funds")

    def __str__(self):
        return str(self.event)

    def clean(self):
        if self.method == self.Method.US_32B3 and (self.places_first or not self.one_prize_per_player):
            raise ValidationError(
                _("US Chess 32B3 presupposes one money prize per player and no 'place prizes first'.")
            )
        if not isinstance(self.lot_order, list) or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in self.lot_order
        ):
            raise ValidationError({"lot_order": _("A list of start numbers, e.g. [7, 2].")})

    @property
    def total(self) -> int:
        """All prize money, in minor units."""
        return sum(prize.amount for prize in self.prizes.all())


class Prize(models.Model):
    """A place prize (place k), a category prize (the r-th best eligible player) or a best club team prize
    (the r-th best club by the points of its best ``team_size`` players; paid to the club), money and/or
    an item."""

    class Kind(models.TextChoices):
        PLACE = "place", _("place prize")
        CATEGORY = "category", _("category prize")
        CLUB_TEAM = "club_team", _("best club team")

    class Eligibility(models.TextChoices):
        RATING_BELOW = "rating_below", _("rating below")
        RATING_AT_LEAST = "rating_at_least", _("rating at least")
        BORN_AFTER = "born_after", _("born after")
        BORN_BEFORE = "born_before", _("born before")
        SEX = "sex", _("sex")
        UNRATED = "unrated", _("unrated")
        CLUB = "club", _("club")

    fund = models.ForeignKey(PrizeFund, on_delete=models.CASCADE, related_name="prizes", verbose_name=_("fund"))
    kind = models.CharField(_("kind"), max_length=9, choices=Kind.choices, default=Kind.PLACE)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    category = models.CharField(
        _("category"), max_length=100, blank=True, help_text=_("The category's name as readers see it, e.g. U1800.")
    )
    eligibility_kind = models.CharField(_("eligibility"), max_length=16, choices=Eligibility.choices, blank=True)
    eligibility_value = models.CharField(
        _("eligibility value"),
        max_length=100,
        blank=True,
        help_text=_("A rating or a year (a whole number), 'm' or 'w' for sex, a club's slug; empty for unrated."),
    )
    rank = models.PositiveSmallIntegerField(_("rank in the category"), default=1)
    amount = models.PositiveIntegerField(_("amount in minor units"), default=0, help_text=_("E.g. 15000 for £150."))
    item = models.CharField(
        _("indivisible item"), max_length=200, blank=True, help_text=_("A trophy, title or qualification place.")
    )
    # best club team: how many of each club's best players count (a club with fewer counts those it has)
    team_size = models.PositiveSmallIntegerField(_("players"), default=3, validators=[MinValueValidator(1)])
    # the organiser's order: the split reads the prizes in it (a player eligible for two equal category
    # prizes takes the first), so the preview, the saved fund and the published page use the same
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        ordering: ClassVar[list[str]] = ["fund", "position", "pk"]
        constraints = (
            models.CheckConstraint(
                condition=models.Q(kind="place", place__gte=1)
                | (
                    models.Q(kind="category", place__isnull=True)
                    & ~models.Q(category="")
                    & ~models.Q(eligibility_kind="")
                )
                | models.Q(kind="club_team", place__isnull=True, team_size__gte=1),
                name="prize_is_place_category_or_club_team",
            ),
            models.UniqueConstraint(
                fields=["fund", "place"], condition=models.Q(kind="place"), name="place_prize_once"
            ),
            models.UniqueConstraint(
                fields=["fund", "category", "rank"], condition=models.Q(kind="category"), name="category_rank_once"
            ),
            models.UniqueConstraint(
                fields=["fund", "rank"], condition=models.Q(kind="club_team"), name="club_team_rank_once"
            ),
        )
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")

    def __str__(self):
        if self.kind == self.Kind.PLACE:
            return _("place %(place)s") % {"place": self.place}
        category = self.Kind.CLUB_TEAM.label if self.kind == self.Kind.CLUB_TEAM else self.category
        return _("%(category)s, prize %(rank)s") % {"category": category, "rank": self.rank}

    @property
    def eligibility_typed(self):
        """The eligibility value as the split algorithm compares it (an int for ratings and years)."""
        if self.eligibility_kind in RATING_KINDS | YEAR_KINDS:
            return int(self.eligibility_value)
        if self.eligibility_kind == self.Eligibility.UNRATED:
            return None
        return self.eligibility_value

    def clean(self):
        if self.kind == self.Kind.PLACE:
            if not self.place:
                raise ValidationError({"place": _("A place prize needs its place (1 or more).")})
            return
        if self.kind == self.Kind.CLUB_TEAM:
            # ranked among clubs, for every club: a place or an eligibility rule would mean nothing
            self.place = None
            return
        if not self.category or not self.eligibility_kind:
            raise ValidationError(_("A category prize needs a category name and an eligibility rule."))
        if self.place:
            raise ValidationError({"place": _("A category prize has a rank, not a place.")})
        if self.eligibility_kind in RATING_KINDS | YEAR_KINDS and not self.eligibility_value.strip().isdecimal():
            raise ValidationError({"eligibility_value": _("Expected a whole number.")})


class PrizeAllocation(models.Model):
    """The stored split of a fund over one standings snapshot: totals and the explanation lines.

    ``lines`` holds the algorithm's reason codes with their parameters (JSON: tuples as lists, money as
    integers of minor units, tiebreak values as exact decimal strings); pages turn them into sentences.
    Provisional until the event is finished (and while the standings are newer than the allocation).
    """

    fund = models.OneToOneField(PrizeFund, on_delete=models.CASCADE, related_name="allocation", verbose_name=_("fund"))
    version = models.PositiveIntegerField(_("standings version"))
    computed_at = models.DateTimeField(_("computed at"))
    currency = models.CharField(_("currency"), max_length=3)
    fund_total = models.PositiveIntegerField(_("prize money"))
    total_paid = models.PositiveIntegerField(_("paid"))
    remainder = models.PositiveIntegerField(_("rounding remainder"))
    unawarded = models.PositiveIntegerField(_("not awarded"))
    lines = models.JSONField(_("explanation lines"), default=list)
    # best club team prizes, paid to clubs (not entries): [{"club": slug, "name", "money", "items"}, …]
    club_awards = models.JSONField(_("prize awards"), default=list)
    event_finished = models.BooleanField(_("event finished when computed"), default=False)

    class Meta:
        verbose_name = _("prize allocation")
        verbose_name_plural = _("prize allocations")

    def is_provisional(self, event, snapshot_version: int | None) -> bool:
        """Final only when the event is finished and the allocation follows the latest standings."""
        return event.status != Event.Status.FINISHED or snapshot_version != self.version


class PrizeAward(models.Model):
    """What one participant receives: money (minor units) and indivisible items."""

    allocation = models.ForeignKey(
        PrizeAllocation, on_delete=models.CASCADE, related_name="awards", verbose_name=_("allocation")
    )
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+", verbose_name=_("entry"))
    position = models.PositiveSmallIntegerField(_("position in the standings"))
    money = models.PositiveIntegerField(_("money in minor units"), default=0)
    items = models.JSONField(_("items"), default=list)

    class Meta:
        ordering: ClassVar[list[str]] = ["allocation", "position"]
        constraints = (models.UniqueConstraint(fields=["allocation", "entry"], name="award_once_per_entry"),)
        verbose_name = _("prize award")
        verbose_name_plural = _("prize awards")
