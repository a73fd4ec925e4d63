"""REST API v1: an event's settings that FIDE's 2026 checklist watches (issue #31), by the same services as the
manage pages: the game scoring, Baku acceleration and tiebreak order, the pairing settings (the bye's value,
forbidden pairs), a withdrawal, leaving FIDE mode (with ``confirm`` and a reason), and the record of the
settings changed after the start. Refused changes answer 400 with the service's code and change nothing."""

from django.db import transaction
from django.urls import path
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from ..errors import NotFound, PermissionDenied
from ..models import Event, ResultChange, Scope
from ..models.audit import SettingChange
from ..permissions import can_manage_event
from ..services.fide_mode import fide_mode_leave
from ..services.policy import event_policy_set
from ..services.round_pairings import pairing_settings_of, pairing_settings_save, round_withdraw
from ..services.setup import event_save
from .serializers import ErrorSerializer

REASON_HELP = gettext_lazy("Why: needed for a change after the event started (round 1 published), shown publicly.")


class EventSettingsSerializer(serializers.Serializer):
    slug = serializers.SlugField(read_only=True)
    fide_mode = serializers.BooleanField(read_only=True)
    points_win = serializers.DecimalField(max_digits=4, decimal_places=2, required=False)
    points_draw = serializers.DecimalField(max_digits=4, decimal_places=2, required=False)
    points_loss = serializers.DecimalField(max_digits=4, decimal_places=2, required=False)
    baku_acceleration = serializers.BooleanField(required=False)
    rule_set = serializers.CharField(max_length=20, required=False)
    tiebreak_criteria = serializers.ListField(child=serializers.CharField(max_length=30), required=False)
    tiebreak_ratings = serializers.ChoiceField(
        choices=Event.TiebreakRatings.values,
        required=False,
        help_text=gettext_lazy(
            "Which rating the rating-based tie-breaks read: first (the rating at the start, FIDE's rule unless "
            "the regulations say otherwise) or round (each opponent's rating in the round they met)."
        ),
    )
    rating_method = serializers.ChoiceField(
        choices=Event.RatingMethod.values,
        required=False,
        help_text=gettext_lazy("Which of a player's ratings the event takes from the registry (TRF record 172)."),
    )
    reason = serializers.CharField(
        max_length=300, required=False, allow_blank=True, write_only=True, help_text=REASON_HELP
    )


class PairingSettingsSerializer(serializers.Serializer):
    pab_points = serializers.DecimalField(max_digits=4, decimal_places=2, min_value=0)
    half_byes_allowed = serializers.IntegerField(min_value=0, required=False)
    forbidden_pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=2, max_length=2),
        required=False,
        help_text=gettext_lazy("Pairs of start numbers who must never meet, e.g. [[3, 7], [12, 15]]."),
    )
    reason = serializers.CharField(
        max_length=300, required=False, allow_blank=True, write_only=True, help_text=REASON_HELP
    )


class WithdrawalSerializer(serializers.Serializer):
    start_number = serializers.IntegerField(min_value=1)
    round = serializers.IntegerField(min_value=1, help_text=gettext_lazy("The first round the player misses."))
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)


class FideModeLeaveSerializer(serializers.Serializer):
    confirm = serializers.BooleanField(
        help_text=gettext_lazy("true: the event leaves FIDE mode for good (it cannot go back).")
    )
    reason = serializers.CharField(max_length=300)


class SettingChangeSerializer(serializers.ModelSerializer):
    user = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = SettingChange
        fields = ["at", "user", "setting", "before", "after", "source", "reason", "standings_impact"]


def _managed_event(slug: str, user) -> Event:
    event = Event.objects.filter(slug=slug).first()
    if event is None or (event.status == Event.Status.DRAFT and not can_manage_event(user, event)):
        raise NotFound(gettext_lazy("There is no event %(slug)s.") % {"slug": slug}, code="unknown_event")
    if not can_manage_event(user, event):
        raise PermissionDenied(gettext_lazy("Only the league's organiser or the event's arbiter may do this."))
    return event


def _settings_data(event: Event) -> dict:
    event.refresh_from_db()
    return {
        "slug": event.slug,
        "fide_mode": event.fide_mode,
        "points_win": str(event.points_win),
        "points_draw": str(event.points_draw),
        "points_loss": str(event.points_loss),
        "baku_acceleration": event.baku_acceleration,
        "rule_set": event.rule_set,
        "tiebreak_criteria": event.tiebreak_criteria,
        "tiebreak_ratings": event.tiebreak_ratings,
        "rating_method": event.rating_method,
    }


class EventSettingsView(APIView):
    """The event's game scoring, Baku acceleration and tiebreak order (PATCH: the organiser's scope). In FIDE
    mode the scoring is 1 / ½ / 0 and, once the event has started, it and the acceleration are locked; outside
    FIDE mode such a change needs a reason and is recorded as a hard warning."""

    required_scope = Scope.ORGANISER

    @extend_schema(responses={200: EventSettingsSerializer, 403: ErrorSerializer, 404: ErrorSerializer})
    def get(self, request, slug):
        return Response(_settings_data(_managed_event(slug, request.user)))

    @extend_schema(
        request=EventSettingsSerializer,
        responses={200: EventSettingsSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def patch(self, request, slug):
        event = _managed_event(slug, request.user)
        given = EventSettingsSerializer(data=request.data, partial=True)
        given.is_valid(raise_exception=True)
        data = dict(given.validated_data)
        reason = data.pop("reason", "")
        policy = {key: data.pop(key) for key in ("rule_set", "tiebreak_criteria", "tiebreak_ratings") if key in data}
        with transaction.atomic():  # all of it or nothing
            if data:
                event_save(
                    league=event.league,
                    user=request.user,
                    fields=data,
                    event=event,
                    reason=reason,
                    source=ResultChange.Source.API,
                )
            if policy:
                event_policy_set(
                    event_id=event.pk,
                    rule_set=policy.get("rule_set", event.rule_set),
                    criteria=policy.get("tiebreak_criteria", event.tiebreak_criteria),
                    tiebreak_ratings=policy.get("tiebreak_ratings"),
                    user=request.user,
                    reason=reason,
                    source=ResultChange.Source.API,
                )
        return Response(_settings_data(event))


def _pairing_settings_data(event: Event) -> dict:
    settings = pairing_settings_of(event)
    return {
        "pab_points": str(settings.pab_points),
        "half_byes_allowed": settings.half_byes_allowed,
        "forbidden_pairs": settings.forbidden_pairs,
    }


class PairingSettingsView(APIView):
    """An individual event's pairing settings: the pairing-allocated bye's value and the forbidden pairs. In
    FIDE mode the bye is worth a win or a draw, and neither changes once the event has started."""

    required_scope = Scope.ORGANISER

    @extend_schema(responses={200: PairingSettingsSerializer, 403: ErrorSerializer, 404: ErrorSerializer})
    def get(self, request, slug):
        return Response(_pairing_settings_data(_managed_event(slug, request.user)))

    @extend_schema(
        request=PairingSettingsSerializer,
        responses={200: PairingSettingsSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def put(self, request, slug):
        event = _managed_event(slug, request.user)
        current = pairing_settings_of(event)
        given = PairingSettingsSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        pairing_settings_save(
            event=event,
            user=request.user,
            pab_points=data["pab_points"],
            half_byes_allowed=data.get("half_byes_allowed", current.half_byes_allowed),
            forbidden_pairs=[tuple(pair) for pair in data.get("forbidden_pairs", current.forbidden_pairs)],
            reason=data.get("reason", ""),
            source=ResultChange.Source.API,
        )
        return Response(_pairing_settings_data(event))


class WithdrawalView(APIView):
    """Withdraw a player from a round not yet paired on; after the start it is recorded with the settings'
    changes."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=WithdrawalSerializer,
        responses={204: None, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug):
        event = _managed_event(slug, request.user)
        given = WithdrawalSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        entry = event.entries.filter(start_number=data["start_number"]).first()
        if entry is None:
            raise NotFound(gettext_lazy("The event has no start number %(number)s.") % {"number": data["start_number"]})
        round_withdraw(
            entry=entry,
            round_number=data["round"],
            user=request.user,
            reason=data.get("reason", ""),
            source=ResultChange.Source.API,
        )
        return Response(status=204)


class FideModeLeaveView(APIView):
    """Take the event out of FIDE mode for good: the league's organiser, with ``confirm: true`` and a reason
    (without the confirmation nothing changes). Recorded on the audit page and in the TRF export."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=FideModeLeaveSerializer,
        responses={200: EventSettingsSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug):
        event = _managed_event(slug, request.user)
        given = FideModeLeaveSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        fide_mode_leave(
            event=event,
            user=request.user,
            confirmed=data["confirm"],
            reason=data["reason"],
            source=ResultChange.Source.API,
        )
        return Response(_settings_data(event))


class SettingChangesView(APIView):
    """The event's settings changed after the start, and its leaving FIDE mode: newest first."""

    required_scope = Scope.ORGANISER

    @extend_schema(responses={200: SettingChangeSerializer(many=True), 403: ErrorSerializer, 404: ErrorSerializer})
    def get(self, request, slug):
        event = _managed_event(slug, request.user)
        return Response(SettingChangeSerializer(event.setting_changes.select_related("user"), many=True).data)


urlpatterns = [
    path("events/<slug:slug>/settings/", EventSettingsView.as_view(), name="event-settings"),
    path("events/<slug:slug>/pairing-settings/", PairingSettingsView.as_view(), name="event-pairing-settings"),
    path("events/<slug:slug>/withdrawals/", WithdrawalView.as_view(), name="event-withdrawals"),
    path("events/<slug:slug>/fide-mode/leave/", FideModeLeaveView.as_view(), name="event-fide-mode-leave"),
    path("events/<slug:slug>/setting-changes/", SettingChangesView.as_view(), name="event-setting-changes"),
]
