"""The Django admin, for site staff: pairings are checked like the pairing service checks them, results
change only through the result service, and saving a prize fund shares the money out again. What a save or a
delete changed reaches the pages and the standings as a service's write does (`PagesFollow`)."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from tiebreaks.money import money
from tiebreaks.prizes import CURRENCIES

from . import models
from . import rules_admin as rules_admin  # the league rules' admin, saved through services.league_rules
from .errors import ServiceError
from .health import worker_status
from .page_cache import pages_changed
from .services.events import AUDITED_AFTER_START, MAX_UNRATED_RATING
from .services.fide_mode import event_started, scoring_problems
from .services.pairings import pairing_problems
from .services.players import player_set_anonymised
from .services.policy import default_tiebreak_order
from .services.prizes import prizes_recompute
from .services.results import event_results_changed, names_changed
from .services.webhooks import event_finished

if TYPE_CHECKING:
    # the mixins below extend ModelAdmin's methods (super() is the ModelAdmin they are mixed into)
    _ModelAdminMixin = admin.ModelAdmin[Any]
else:
    _ModelAdminMixin = object


class GameAdminForm(forms.ModelForm):
    """The admin's check of a pairing: the same hard errors as the pairing service's `game_pair`."""

    class Meta:
        model = models.Game
        fields = ("round", "match", "board", "white", "black", "white_player", "black_player")

    def clean(self):
        cleaned = super().clean()
        if cleaned is None:
            raise RuntimeError("Form.clean returns cleaned_data")
        round_ = cleaned.get("round")
        if round_ is None or self.has_error("round"):
            return cleaned
        problems = pairing_problems(
            round=round_,
            board=cleaned.get("board"),
            white=cleaned.get("white"),
            black=cleaned.get("black"),
            match=cleaned.get("match"),
            white_player=cleaned.get("white_player"),
            black_player=cleaned.get("black_player"),
            exclude_pk=self.instance.pk,
        )
        for problem in problems:
            field = problem.field if problem.field in self.fields else None
            self.add_error(field, forms.ValidationError(problem.message, code=problem.code))
        return cleaned


class TeamMemberInline(admin.TabularInline):
    model = models.TeamMember
    extra = 0
    autocomplete_fields = ("player",)


class MembershipInline(admin.TabularInline):
    model = models.ClubMembership
    extra = 0


class FrozenWhenFinished(_ModelAdminMixin):
    """A finished event is frozen in the admin too: its rows can be read, not changed or deleted (the
    organiser's override, with a public reason, is on the management pages)."""

    event_path: tuple[str, ...] = ("event",)

    def _frozen(self, obj) -> bool:
        for name in self.event_path:
            if obj is None:
                return False
            obj = getattr(obj, name)
        return obj is not None and obj.status == models.Event.Status.FINISHED

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and not self._frozen(obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and not self._frozen(obj)


class PagesFollow(_ModelAdminMixin):
    """A save or a delete in the admin says what it changed, as the services do: the pages of the event the row
    belongs to (`event_path` from the row; () for the event itself) are renewed once the admin's transaction
    commits. Players, clubs and teams are named in the standings: theirs are computed again (names_changed)."""

    event_path: tuple[str, ...] = ("event",)

    def _event_id(self, obj) -> int | None:
        for name in self.event_path:
            obj = getattr(obj, name, None)
        return getattr(obj, "pk", None)

    def changed(self, obj, *, saved: bool) -> None:
        pages_changed(event_id=self._event_id(obj))

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        self.changed(obj, saved=True)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        self.changed(form.instance, saved=True)  # the inlines: a team's roster, a fund's prizes

    def delete_model(self, request, obj):
        self.changed(obj, saved=False)  # read before the row goes
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():  # the pages are renewed once the rows are gone, never before
            for obj in queryset:
                self.changed(obj, saved=False)
            super().delete_queryset(request, queryset)


@admin.register(models.League)
class LeagueAdmin(PagesFollow, admin.ModelAdmin):
    list_display = ("name", "slug")
    prepopulated_fields: ClassVar[dict[str, Sequence[str]]] = {"slug": ("name",)}
    filter_horizontal = ("clubs",)

    def changed(self, obj, *, saved: bool) -> None:
        if not saved:  # its events go with it: the pages kept under their addresses too
            for slug in obj.events.values_list("slug", flat=True):
                pages_changed(gone_slug=slug)


@admin.register(models.Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "league", "starts_on", "ends_on")
    list_filter = ("league",)
    prepopulated_fields: ClassVar[dict[str, Sequence[str]]] = {"slug": ("name",)}


@admin.register(models.Club)
class ClubAdmin(PagesFollow, admin.ModelAdmin):
    list_display = ("name", "short_name")
    search_fields = ("name",)
    prepopulated_fields: ClassVar[dict[str, Sequence[str]]] = {"slug": ("name",)}

    def changed(self, obj, *, saved: bool) -> None:
        (names_changed if saved else pages_changed)(club_id=obj.pk)


@admin.register(models.Player)
class PlayerAdmin(PagesFollow, admin.ModelAdmin):
    list_display = ("name", "title", "federation", "rating", "fide_id", "anonymised")
    list_filter = ("federation", "title", "anonymised")
    search_fields = ("name", "fide_id", "national_id")
    readonly_fields = ("anonymised",)  # changed only by the actions below, which rewrite the stored standings
    actions = ("show_by_initials", "show_by_name")

    def _set_anonymised(self, request, queryset, anonymised):
        for player in queryset:
            try:
                player_set_anonymised(player_id=player.pk, anonymised=anonymised, user=request.user)
            except ServiceError as exc:
                self.message_user(request, f"{player.name}: {exc.message}", messages.ERROR)

    @admin.action(description=_("Show by initials on every public page"))
    def show_by_initials(self, request, queryset):
        self._set_anonymised(request, queryset, True)

    @admin.action(description=_("Show by name again"))
    def show_by_name(self, request, queryset):
        self._set_anonymised(request, queryset, False)

    inlines = (MembershipInline,)

    def changed(self, obj, *, saved: bool) -> None:
        (names_changed if saved else pages_changed)(player_id=obj.pk)


class EventAdminForm(forms.ModelForm):
    """The scoring as every other door checks it (services.fide_mode)."""

    #: chosen on the event's pages; a form that does not send them keeps the event's (new: FIDE's rating, the first)
    OPTIONAL = ("rating_method", "tiebreak_ratings")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.OPTIONAL:
            if name in self.fields:
                self.fields[name].required = False

    def clean_rating_method(self):
        return self.cleaned_data.get("rating_method") or self.instance.rating_method

    def clean_tiebreak_ratings(self):
        return self.cleaned_data.get("tiebreak_ratings") or self.instance.tiebreak_ratings

    def clean(self):
        data = super().clean()
        if data is None:
            raise RuntimeError("Form.clean returns cleaned_data")
        fide_mode = self.instance.fide_mode if self.instance.pk else True
        names = ("points_win", "points_draw", "points_loss")
        if all(data.get(name) is not None for name in names):
            for problem in scoring_problems(**{n.removeprefix("points_"): data[n] for n in names}, fide_mode=fide_mode):
                self.add_error(problem.field if problem.field in names else None, problem.message)
                break
        unrated = data.get("unrated_rating")
        if unrated is not None and unrated > MAX_UNRATED_RATING:
            self.add_error(
                "unrated_rating",
                _("The rating for unrated players is between 0 and %(max)s.") % {"max": MAX_UNRATED_RATING},
            )
        if self.instance.pk and event_started(self.instance):  # audited there: refused in FIDE mode, else recorded
            for name in AUDITED_AFTER_START & set(self.changed_data):
                self.add_error(name, _("The event has started: change it on the event's form, which records it."))
        return data


@admin.action(description=_("Recompute standings now"))
def recompute_now(modeladmin, request, queryset):
    for event in queryset:
        try:
            event_results_changed(event_id=event.pk)
        except ServiceError as exc:
            messages.error(request, exc.message)


@admin.register(models.Event)
class EventAdmin(PagesFollow, FrozenWhenFinished, admin.ModelAdmin):
    event_path = ()
    actions = (recompute_now,)
    form = EventAdminForm

    list_display = ("name", "league", "season", "kind", "system", "status", "rule_set", "results_version")
    list_filter = ("league", "kind", "system", "status")
    prepopulated_fields: ClassVar[dict[str, Sequence[str]]] = {"slug": ("name",)}
    # FIDE mode is left on the event's own page (with a confirmation, recorded) and never turned on again
    readonly_fields = ("results_version", "tiebreak_locked", "fide_mode")

    def save_form(self, request, form, change):
        event = super().save_form(request, form, change)
        if not change and not event.tiebreak_criteria:
            event.tiebreak_criteria = default_tiebreak_order(event)  # the recommended order, as on the manage pages
        return event

    def save_model(self, request, obj, form, change):
        old_slug = models.Event.objects.filter(pk=obj.pk).values_list("slug", flat=True).first() if change else None
        super().save_model(request, obj, form, change)
        if old_slug and old_slug != obj.slug:
            pages_changed(gone_slug=old_slug)  # the pages kept under its old address go
        if obj.status == models.Event.Status.FINISHED and "status" in form.changed_data:
            event_finished(obj)  # its webhook, as finishing it on the event's page sends (services.events)

    def changed(self, obj, *, saved: bool) -> None:
        if saved:
            pages_changed(event_id=obj.pk)
        else:
            pages_changed(gone_slug=obj.slug)  # deleted: the pages kept under its address go


@admin.register(models.Team)
class TeamAdmin(PagesFollow, FrozenWhenFinished, admin.ModelAdmin):
    list_display = ("name", "club", "event")
    list_filter = ("event",)
    inlines = (TeamMemberInline,)

    def changed(self, obj, *, saved: bool) -> None:
        (names_changed if saved else pages_changed)(event_id=obj.event_id)


@admin.register(models.Entry)
class EntryAdmin(PagesFollow, FrozenWhenFinished, admin.ModelAdmin):
    list_display = ("start_number", "__str__", "event", "rating", "withdrawn_after_round")
    list_filter = ("event",)
    autocomplete_fields = ("player",)


@admin.register(models.Round)
class RoundAdmin(PagesFollow, FrozenWhenFinished, admin.ModelAdmin):
    list_display = ("event", "number", "date")
    list_filter = ("event",)


@admin.register(models.TeamMatch)
class TeamMatchAdmin(PagesFollow, FrozenWhenFinished, admin.ModelAdmin):
    """Fixtures are set up here; a card's state changes only through the match card workflow."""

    event_path = ("round", "event")
    list_display = ("round", "home", "away", "status")
    list_filter = ("round__event", "status")
    readonly_fields = (
        "status",
        "submitted_by",
        "submitted_at",
        "confirmed_by",
        "confirmed_at",
        "dispute_reason",
        "version",
    )


@admin.register(models.Game)
class GameAdmin(PagesFollow, FrozenWhenFinished, admin.ModelAdmin):
    """Pairings are set up here; results change only through the result service (audited)."""

    event_path = ("round", "event")
    form = GameAdminForm
    list_display = ("round", "board", "white", "black", "result", "corrected")
    list_filter = ("round__event",)
    readonly_fields = ("result", "version", "corrected")


@admin.register(models.FinishedEventChange)
class FinishedEventChangeAdmin(admin.ModelAdmin):
    list_display = ("at", "event", "subject", "user", "reason")

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


@admin.register(models.ResultChange)
class ResultChangeAdmin(admin.ModelAdmin):
    list_display = ("at", "game", "before", "after", "user", "source", "reason")
    list_filter = ("source",)

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


@admin.register(models.Role)
class RoleAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "league", "club", "event")
    list_filter = ("kind",)


@admin.register(models.StandingsSnapshot)
class StandingsSnapshotAdmin(PagesFollow, admin.ModelAdmin):
    list_display = ("event", "version", "computed_at", "rules", "duration_ms")
    readonly_fields = tuple(f.name for f in models.StandingsSnapshot._meta.fields)

    def has_add_permission(self, request):
        return False


def worker_status_view(request):
    """For organisers: is the standings pipeline keeping up?"""
    context = {
        **admin.site.each_context(request),
        "title": _("Standings workers"),
        "status": worker_status(),
        "stale": [str(e) for e in models.Event.objects.stale()],
    }
    return TemplateResponse(request, "admin/worker_status.html", context)


MAX_PRIZE_MONEY = 2**31 - 1  # minor units: what the prize fund's columns hold


class PrizeInlineFormSet(forms.BaseInlineFormSet):
    def clean(self):
        """All the fund's prizes together fit what the fund can store (the split would fail to save them)."""
        super().clean()
        kept = [form.cleaned_data for form in self.forms if form.cleaned_data and not form.cleaned_data.get("DELETE")]
        if sum(row.get("amount") or 0 for row in kept) > MAX_PRIZE_MONEY:
            currency = self.instance.currency
            decimals = CURRENCIES.get(currency, (currency, 2))[1]
            raise forms.ValidationError(
                _("The prize money is too large: all the prizes together may come to at most %(amount)s.")
                % {"amount": money(MAX_PRIZE_MONEY - MAX_PRIZE_MONEY % 10**decimals, currency)}
            )


class PrizeInline(admin.TabularInline):
    model = models.Prize
    formset = PrizeInlineFormSet
    extra = 1
    fields = (
        "kind",
        "place",
        "category",
        "eligibility_kind",
        "eligibility_value",
        "rank",
        "amount",
        "item",
        "team_size",
    )


@admin.register(models.PrizeFund)
class PrizeFundAdmin(PagesFollow, FrozenWhenFinished, admin.ModelAdmin):
    list_display = ("event", "currency", "method", "published", "paid")
    list_filter = ("method", "published", "currency")
    list_select_related = ("event", "allocation")
    inlines = (PrizeInline,)

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
