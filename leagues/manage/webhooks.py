"""The workspace page of the user's webhook subscriptions: subscribe (the secret shown once), see the
latest deliveries, send a test event, pause, resume, delete. Every write goes through
leagues.services.webhooks, as the API's do; someone else's subscription is not found (404)."""

from typing import cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from ..errors import NotFound, ServiceError
from ..models import WebhookDelivery, WebhookEvent, WebhookSubscription
from ..services.webhooks import (
    SUBSCRIBABLE,
    webhook_pause,
    webhook_resume,
    webhook_send_test,
    webhook_subscribe,
    webhook_targets_for,
    webhook_unsubscribe,
)

RECENT_DELIVERIES = 5
TARGET_GROUPS = (
    ("league", gettext_lazy("Leagues")),
    ("club", gettext_lazy("Clubs")),
    ("event", gettext_lazy("Events")),
)


class SubscribeForm(forms.Form):
    url = forms.URLField(label=gettext_lazy("Receiver URL (https://…)"), max_length=500, assume_scheme="https")
    target = forms.ChoiceField(label=gettext_lazy("Tell me about"))
    events = forms.MultipleChoiceField(
        label=gettext_lazy("Events"),
        choices=[(name, WebhookEvent(name).label) for name in SUBSCRIBABLE],
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        targets = webhook_targets_for(user)
        cast(forms.ChoiceField, self.fields["target"]).choices = [
            (group, [(f"{kind}:{item.slug}", str(item)) for item in targets[kind]])
            for kind, group in TARGET_GROUPS
            if targets[kind]
        ]


@login_required
def webhooks(request):
    form = SubscribeForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        kind, slug = form.cleaned_data["target"].split(":", 1)
        try:
            subscription = webhook_subscribe(
                user=request.user, url=form.cleaned_data["url"], events=form.cleaned_data["events"], **{kind: slug}
            )
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            # shown in this answer only: never in the messages framework, whose cookie anyone holding it can read
            shown_once = _("Subscribed. Its signing secret: %(secret)s (shown once; keep it with the receiver).") % {
                "secret": subscription.secret
            }
            response = _page(request, SubscribeForm(user=request.user), shown_once)
            response["Cache-Control"] = "no-store"
            return response
    return _page(request, form)


def _page(request, form, shown_once=""):
    # each subscription's latest deliveries, as `recent`
    recent = WebhookDelivery.objects.order_by("-created_at")[:RECENT_DELIVERIES]
    subscriptions = list(
        WebhookSubscription.objects.filter(owner=request.user)
        .select_related("league", "club", "event")
        .prefetch_related(Prefetch("deliveries", queryset=recent, to_attr="recent"))
        .order_by("-created_at")
    )
    context = {"form": form, "subscriptions": subscriptions, "shown_once": shown_once}
    return render(request, "leagues/manage/webhooks.html", context)


ACTIONS = {
    "test": (webhook_send_test, gettext_lazy("A test event is on its way; its delivery shows below.")),
    "pause": (webhook_pause, gettext_lazy("Paused: nothing is delivered until you resume it.")),
    "resume": (webhook_resume, gettext_lazy("Resumed: deliveries start again with the next change.")),
    "delete": (webhook_unsubscribe, gettext_lazy("The subscription was deleted.")),
}


@login_required
@require_POST
def webhook_action(request, subscription_id: int, action: str):
    if action not in ACTIONS:
        raise Http404
    service, done = ACTIONS[action]
    try:
        service(user=request.user, subscription_id=subscription_id)
    except NotFound:
        raise Http404 from None
    messages.success(request, done)
    return redirect("manage:webhooks")
