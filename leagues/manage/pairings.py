"""The organiser's pairing screen of an individual event: settings and byes before the pairing, "pair"
(run by a worker; the page follows its progress through static/progress.js), the preview with points and
colours, swaps by hand with a reason, publish. Thin views around leagues.services.round_pairings."""

import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from pairings.engine import expected_pairing_seconds, pairing_time_limit

from ..errors import ServiceError
from ..models import Entry, Event, Game, PairingSettings, Result, RoundPairing
from ..permissions import can_manage_event
from ..services.round_pairings import (
    REQUESTED_BYES,
    bye_cancel,
    bye_request,
    bye_warnings,
    changes_by_hand,
    entry_bye_eligibility_set,
    last_paired_round,
    pairable_round_problem,
    pairing_edit,
    pairing_publish,
    pairing_settings_of,
    pairing_settings_save,
    pairing_swap,
    preview_byes,
    preview_rows,
    published_rows,
    round_pair,
    round_withdraw,
)
from ..services.start_numbers import numbers_follow_ranking, round_one_published, start_numbers_sort

BYE_CHOICES = [(kind, Result(result).label) for kind, result in REQUESTED_BYES.items()]


class SettingsForm(forms.Form):
    pab_points = forms.DecimalField(
        label=gettext_lazy("Points for the pairing-allocated bye"), min_value=0, max_digits=4, decimal_places=2
    )
    half_byes_allowed = forms.IntegerField(label=gettext_lazy("Half-point byes a player may request"), min_value=0)
    half_byes_not_last_rounds = forms.IntegerField(
        label=gettext_lazy("No half-point byes in the last rounds"),
        min_value=0,
        required=False,
        help_text=gettext_lazy(
            "A half-point bye beyond the limit or in these last rounds is a warning you confirm (0: none)."
        ),
    )
    board_order = forms.ChoiceField(
        label=gettext_lazy("Board order within a score group"),
        choices=PairingSettings.BoardOrder.choices,
        required=False,
    )
    forbidden_pairs = forms.CharField(
        label=gettext_lazy("Forbidden pairs"),
        required=False,
        help_text=gettext_lazy("Start numbers of players who must not meet (same club or family), e.g. 3-7, 12-15"),
    )
    initial_colour = forms.ChoiceField(
        label=gettext_lazy("Initial colour"),
        required=False,
        choices=[("", gettext_lazy("drawn by lot when round 1 is paired")), *PairingSettings.Colour.choices],
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason for a change after the start"),
        required=False,
        max_length=300,
        help_text=gettext_lazy(
            "Outside FIDE mode a change of the bye's value or of the forbidden pairs after round 1 is published "
            "needs a reason; it is shown publicly with the change."
        ),
    )

    def clean_forbidden_pairs(self):
        text = self.cleaned_data["forbidden_pairs"].strip()
        pairs = []
        for part in filter(None, re.split(r"[,;\s]+", text)):
            match = re.fullmatch(r"(\d+)[-–/](\d+)", part)
            if not match:
                raise forms.ValidationError(_("Write each pair as two start numbers, e.g. 3-7."))
            pairs.append((int(match[1]), int(match[2])))
        return pairs


class PlayerChoiceForm(forms.Form):
    def __init__(self, *args, entries, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(e.pk, f"{e.start_number}. {e.name}") for e in entries]
        self.fields["entry"] = forms.TypedChoiceField(label=_("Player"), choices=choices, coerce=int)


class ByeForm(PlayerChoiceForm):
    kind = forms.ChoiceField(label=gettext_lazy("Bye"), choices=BYE_CHOICES)
    confirm = forms.BooleanField(
        label=gettext_lazy("Enter it despite the warning on the half-point byes' limits"), required=False
    )


class ByeEligibilityForm(PlayerChoiceForm):
    eligible = forms.TypedChoiceField(
        label=gettext_lazy("Pairing-allocated bye"),
        choices=[("yes", gettext_lazy("eligible")), ("no", gettext_lazy("not eligible"))],
        coerce=lambda value: value == "yes",
    )


class SwapForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=300)

    def __init__(self, *args, numbers, **kwargs):
        super().__init__(*args, **kwargs)
        for name, label in (("first", _("Exchange")), ("second", _("with"))):
            self.fields[name] = forms.TypedChoiceField(label=label, choices=numbers, coerce=int)
        self.order_fields(["first", "second", "reason"])


class EditForm(forms.Form):
    """The whole round by hand: each board's white and black, the pairing-allocated bye and the other
    byes, by start number (two empty rows of each to add one); a row left empty is removed."""

    EXTRA = 2

    def __init__(self, *args, pairing, **kwargs):
        super().__init__(*args, **kwargs)
        number = forms.IntegerField
        boards = [*pairing.boards, *[[None, None]] * self.EXTRA]
        for i, (white, black) in enumerate(boards, start=1):
            for side, who, label in (
                ("white", white, _("Board %(number)s, white")),
                ("black", black, _("Board %(number)s, black")),
            ):
                self.fields[f"{side}_{i}"] = number(
                    label=label % {"number": i}, required=False, min_value=1, initial=who
                )
        self.boards_count = len(boards)
        self.fields["pab"] = number(label=_("pairing-allocated bye"), required=False, min_value=1, initial=pairing.pab)
        byes = [*pairing.byes, *[[None, "half"]] * self.EXTRA]
        for j, (who, kind) in enumerate(byes, start=1):
            self.fields[f"bye_{j}"] = number(
                label=_("Bye %(number)s") % {"number": j}, required=False, min_value=1, initial=who
            )
            self.fields[f"bye_kind_{j}"] = forms.ChoiceField(
                label=_("Bye %(number)s, kind") % {"number": j}, choices=BYE_CHOICES, initial=kind
            )
        self.byes_count = len(byes)
        self.fields["reason"] = forms.CharField(label=_("Reason"), max_length=300)

    def rows(self):
        return [(i, self[f"white_{i}"], self[f"black_{i}"]) for i in range(1, self.boards_count + 1)]

    def bye_rows(self):
        return [(self[f"bye_{j}"], self[f"bye_kind_{j}"]) for j in range(1, self.byes_count + 1)]

    def clean(self):
        data = super().clean()
        if data is None:
            raise RuntimeError("Form.clean returns cleaned_data")
        for i in range(1, self.boards_count + 1):
            if (data.get(f"white_{i}") is None) != (data.get(f"black_{i}") is None):
                raise forms.ValidationError(_("Board %(number)s needs two players.") % {"number": i})
        return data

    def round(self):
        """(boards, pab, byes) as the service takes them."""
        data = self.cleaned_data
        boards = [
            (data[f"white_{i}"], data[f"black_{i}"])
            for i in range(1, self.boards_count + 1)
            if data.get(f"white_{i}") is not None
        ]
        byes = [
            (data[f"bye_{j}"], data[f"bye_kind_{j}"])
            for j in range(1, self.byes_count + 1)
            if data.get(f"bye_{j}") is not None
        ]
        return boards, data.get("pab"), byes


#: a team event is paired here when it is a Swiss; a team round robin has its schedule, a cup its draw
ROUND_ROBINS = (Event.System.ROUND_ROBIN, Event.System.DOUBLE_ROUND_ROBIN, Event.System.KNOCKOUT)


def _event(request, slug) -> Event:
    event = get_object_or_404(Event.objects.exclude(kind=Event.Kind.TEAM, system__in=ROUND_ROBINS), slug=slug)
    if not can_manage_event(request.user, event):
        raise DjangoPermissionDenied
    return event


def _default_round(event: Event) -> int:
    last = last_paired_round(event)
    if last and pairable_round_problem(event, last) is None:
        return last  # paired, no result yet: it can still be paired again
    return min(last + 1, event.rounds_count)


@login_required
def pairing_start(request, slug):
    """The pairing screen of the round to pair next."""
    event = _event(request, slug)
    return redirect("manage:pairing", slug=event.slug, number=_default_round(event))


def _entries(event: Event) -> list[Entry]:
    return list(event.entries.select_related("player", "team").order_by("start_number"))


def _forms(event, entries, settings, pairing, data=None, action=""):
    present = [e for e in entries if e.withdrawn_after_round is None]
    initial = {
        "pab_points": settings.pab_points,
        "half_byes_allowed": settings.half_byes_allowed,
        "half_byes_not_last_rounds": settings.half_byes_not_last_rounds,
        "board_order": settings.board_order,
        "forbidden_pairs": ", ".join(f"{a}-{b}" for a, b in settings.forbidden_pairs),
        "initial_colour": settings.initial_colour,
    }
    numbers = []
    ready = pairing is not None and pairing.status == RoundPairing.Status.READY
    if ready:
        by_number = {e.start_number: e for e in entries}
        seated = [n for board in pairing.boards for n in board] + ([pairing.pab] if pairing.pab else [])
        seated += [n for n, _kind in pairing.byes]
        numbers = [(n, f"{n}. {by_number[n].name}") for n in sorted(seated)]
    return {
        "settings_form": SettingsForm(data if action == "settings" else None, initial=initial),
        "bye_form": ByeForm(data if action == "bye" else None, entries=present, prefix="bye"),
        "withdraw_form": PlayerChoiceForm(data if action == "withdraw" else None, entries=present, prefix="out"),
        "eligibility_form": ByeEligibilityForm(
            data if action == "eligibility" else None, entries=present, prefix="elig"
        ),
        "swap_form": SwapForm(data if action == "swap" else None, numbers=numbers, prefix="swap"),
        "edit_form": EditForm(data if action == "edit" else None, pairing=pairing, prefix="edit") if ready else None,
    }


def _act(request, event, number, pairing, forms_, action):
    """Run the posted action through its service; a refusal is a message and nothing is saved."""
    user = request.user
    entries = {e.pk: e for e in event.entries.all()}
    if action == "pair":
        round_pair(event=event, round_number=number, user=user)
        return _("Round %(number)s is being paired.") % {"number": number}
    if action == "publish" and pairing is not None:
        pairing_publish(pairing=pairing, user=user)
        return _("Round %(number)s is published; results can be entered.") % {"number": number}
    if action == "sort":
        start_numbers_sort(event=event, user=user)
        return _("The start numbers follow the initial ranking.")
    if action == "cancel-bye":
        game = get_object_or_404(Game, pk=request.POST.get("game"), round__event=event)
        bye_cancel(game=game, user=user)
        return _("The bye is taken back.")
    form = forms_.get(f"{action}_form")
    if form is None or not form.is_valid():
        raise ServiceError(_("Please correct the form."))
    data = form.cleaned_data
    if action == "settings":
        pairing_settings_save(
            event=event,
            user=user,
            pab_points=Decimal(data["pab_points"]),
            half_byes_allowed=data["half_byes_allowed"],
            forbidden_pairs=data["forbidden_pairs"],
            initial_colour=data["initial_colour"],
            reason=data["reason"],
            half_byes_not_last_rounds=data.get("half_byes_not_last_rounds") or 0,
            board_order=data.get("board_order") or None,
        )
        return _("The pairing settings are saved.")
    if action == "bye":
        entry = entries[data["entry"]]
        warnings = bye_warnings(event=event, round_number=number, entry=entry, kind=data["kind"])
        bye_request(
            event=event, round_number=number, entry=entry, kind=data["kind"], user=user, confirmed=data["confirm"]
        )
        for warning in warnings:
            messages.warning(request, warning)
        return _("The bye is entered.")
    if action == "eligibility":
        entry_bye_eligibility_set(entry=entries[data["entry"]], eligible=data["eligible"], user=user)
        return _("The eligibility for the pairing-allocated bye is saved.")
    if action == "withdraw":
        round_withdraw(entry=entries[data["entry"]], round_number=number, user=user)
        return _("The player is withdrawn from round %(number)s on.") % {"number": number}
    if action == "edit" and pairing is not None:
        boards, pab, byes = form.round()
        pairing_edit(pairing=pairing, boards=boards, pab=pab, byes=byes, reason=form.cleaned_data["reason"], user=user)
        return _("The round was set by hand.")
    if action == "swap" and pairing is not None:
        pairing_swap(pairing=pairing, first=data["first"], second=data["second"], reason=data["reason"], user=user)
        return _("The pairing was changed by hand.")
    raise ServiceError(_("Please correct the form."))


def expected_time(players: int) -> str:
    """What the screen expects a Swiss pairing of ``players`` to take (a rough estimate by the field's
    size, :func:`pairings.engine.expected_pairing_seconds`) and its time limit."""
    seconds = expected_pairing_seconds(players)
    limit = int(pairing_time_limit(players) // 60)
    if seconds < 10:
        return _("Pairing this round should take a few seconds; its time limit is %(limit)s minutes.") % {
            "limit": limit
        }
    if seconds < 60:
        seconds = 5 * round(seconds / 5)
        return ngettext(
            "Pairing this round should take about %(seconds)s second; its time limit is %(limit)s minutes.",
            "Pairing this round should take about %(seconds)s seconds; its time limit is %(limit)s minutes.",
            seconds,
        ) % {"seconds": seconds, "limit": limit}
    minutes = round(seconds / 60)
    return ngettext(
        "Pairing this round should take about %(minutes)s minute; its time limit is %(limit)s minutes.",
        "Pairing this round should take about %(minutes)s minutes; its time limit is %(limit)s minutes.",
        minutes,
    ) % {"minutes": minutes, "limit": limit}


@login_required
def pairing(request, slug, number):
    event = _event(request, slug)
    entries = _entries(event)
    settings = pairing_settings_of(event)
    pairing = RoundPairing.objects.filter(round__event=event, round__number=number).first()
    action = request.POST.get("action", "") if request.method == "POST" else ""
    forms_ = _forms(event, entries, settings, pairing, request.POST if action else None, action)
    status = 200
    if action:
        try:
            message = _act(request, event, number, pairing, forms_, action)
        except (ServiceError, InvalidOperation) as exc:
            messages.error(request, getattr(exc, "message", str(exc)))
            status = 403 if getattr(exc, "status", 400) == 403 else 400
        else:
            messages.success(request, message)
            return redirect("manage:pairing", slug=event.slug, number=number)
    pairing = RoundPairing.objects.filter(round__event=event, round__number=number).first()
    byes = (
        Game.objects.filter(round__event=event, round__number=number, black__isnull=True)
        .select_related("white__player")
        .order_by("board")
    )
    # the pairing to preview: made, not published yet
    ready = pairing if pairing is not None and pairing.status == RoundPairing.Status.READY else None
    present = [e for e in entries if e.withdrawn_after_round is None or e.withdrawn_after_round >= number]
    context = {
        "event": event,
        "number": number,
        "rounds": range(1, event.rounds_count + 1),
        "settings": settings,
        "pairing": pairing,
        "problem": pairable_round_problem(event, number),
        "working": pairing is not None and pairing.status in (RoundPairing.Status.QUEUED, RoundPairing.Status.RUNNING),
        "rows": preview_rows(ready) if ready is not None else [],
        "preview_byes": preview_byes(ready) if ready is not None else [],
        "present": present,
        "expected_time": expected_time(len(present)) if event.system == Event.System.SWISS else "",
        "published": published_rows(event, number) if last_paired_round(event) >= number else [],
        "byes": byes,
        "withdrawn": [e for e in entries if e.withdrawn_after_round is not None],
        "ineligible": [e for e in entries if e.bye_ineligible],
        "pab_ineligible": next(
            (e for e in entries if ready is not None and e.bye_ineligible and e.start_number == ready.pab), None
        ),
        "changes": changes_by_hand(pairing) if pairing is not None else [],
        "entries_url": reverse("manage:entries", args=[event.slug]),
        "can_sort": numbers_follow_ranking(event) and not round_one_published(event),
        "entries": entries,
        **forms_,
    }
    return render(request, "leagues/manage/pairing.html", context, status=status)


@login_required
def pairing_status(request, slug, number):
    """What the worker has done so far (the screen polls it while the round is being paired)."""
    event = _event(request, slug)
    pairing = RoundPairing.objects.filter(round__event=event, round__number=number).first()
    if pairing is None:
        return JsonResponse({"status": None, "progress": 0, "problem": ""})
    return JsonResponse({"status": pairing.status, "progress": pairing.progress, "problem": pairing.problem})
