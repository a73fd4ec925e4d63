"""Admin for prize funds: the fund's rules with its prizes inline; saving re-splits the money."""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from .prize_models import Prize, PrizeFund
from .prize_services import prizes_recompute


class PrizeInline(admin.TabularInline):
    model = Prize
    extra = 1
    fields = [
        "kind",
        "place",
        "category",
        "eligibility_kind",
        "eligibility_value",
        "rank",
        "amount",
        "item",
        "team_size",
    ]


@admin.register(PrizeFund)
class PrizeFundAdmin(admin.ModelAdmin):
    list_display = ["event", "currency", "method", "published", "paid"]
    list_filter = ["method", "published", "currency"]
    list_select_related = ["event", "allocation"]
    inlines = [PrizeInline]

    @admin.display(description=_("paid (minor units)"))
    def paid(self, fund):
        allocation = getattr(fund, "allocation", None)
        return allocation.total_paid if allocation else None

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # the standings have not changed, the prizes have: split again over the stored snapshot
        try:
            prizes_recompute(form.instance.event_id, strict=True)
        except ValueError as exc:
            messages.error(request, _("The prizes could not be shared out: %(reason)s") % {"reason": exc})
