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
from ..models import Entry, Event, PairingSettings, ResultChange, Scope
from ..models.audit import SettingChange
from ..permissions import can_manage_event
from ..services.events import event_save
from ..services.fide_mode import fide_mode_leave
from ..services.policy import event_policy_set
from ..services.round_pairings import (
    REQUESTED_BYES,
    bye_request,
    bye_warnings,
    entry_bye_eligibility_set,
    pairing_settings_of,
    pairing_settings_save,
    round_withdraw,
)
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
    unrated_rating = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text=gettext_lazy(
            "The rating assumed for unrated players (0 to 3000) in the initial ranking and the rating-based "
            "tie-breaks; null: none. After the start: refused in FIDE mode, else a recorded hard warning."
        ),
    )
    reason = serializers.CharField(
        max_length=300, required=False, allow_blank=True, write_only=True, help_text=REASON_HELP
    )


class PairingSettingsSerializer(serializers.Serializer):
    pab_points = serializers.DecimalField(max_digits=4, decimal_places=2, min_value=0)
    half_byes_allowed = serializers.IntegerField(min_value=0, required=False)
    half_byes_not_last_rounds = serializers.IntegerField(
        min_value=0,
        required=False,
        help_text=gettext_lazy(
            "A half-point bye asked for in one of these last rounds is a warning to confirm (0: none)."
        ),
    )
    board_order = serializers.ChoiceField(
        choices=PairingSettings.BoardOrder.values,
        required=False,
        help_text=gettext_lazy(
            "How the boards of a round are ordered within a score group: score (FIDE C.04.2, the engine's order), "
            "sum (the sum of the two scores) or tpn (the lower start number)."
        ),
    )
    forbidden_pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=2, max_length=2),
        required=False,
        help_text=gettext_lazy("Pairs of start numbers who must never meet, e.g. [[3, 7], [12, 15]]."),
    )
    reason = serializers.CharField(
        max_length=300, required=False, allow_blank=True, write_only=True, help_text=REASON_HELP
    )


class ByeRequestSerializer(serializers.Serializer):
    start_number = serializers.IntegerField(min_value=1)
    round = serializers.IntegerField(min_value=1, help_text=gettext_lazy("The round not yet paired."))
    kind = serializers.ChoiceField(choices=sorted(REQUESTED_BYES))
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        write_only=True,
        help_text=gettext_lazy(
            "true: enter a half-point bye beyond the event's limits all the same (without it such a request "
            "answers 400 with the code confirmation_required and the warning)."
        ),
    )
    result = serializers.CharField(read_only=True)
    warnings = serializers.ListField(child=serializers.CharField(), read_only=True)


class ByeEligibilitySerializer(serializers.Serializer):
    start_number = serializers.IntegerField(min_value=1)
    kind = serializers.ChoiceField(
        choices=["pab", "half"],
        required=False,
        default="pab",
        help_text=gettext_lazy(
            "pab (the default): the pairing-allocated bye; half: a half-point bye on request (a free entry, the "
            "event's conditions)."
        ),
    )
    eligible = serializers.BooleanField(
        help_text=gettext_lazy(
            "false: the pairing never gives this player the pairing-allocated bye (kind pab), or a half-point bye "
            "the player asks for is refused (kind half)."
        )
    )
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, write_only=True)


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
        fields = ("at", "user", "setting", "before", "after", "source", "reason", "standings_impact")


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
        "unrated_rating": event.unrated_rating,
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
        "half_byes_not_last_rounds": settings.half_byes_not_last_rounds,
        "board_order": settings.board_order,
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
            half_byes_not_last_rounds=data.get("half_byes_not_last_rounds"),
            board_order=data.get("board_order"),
        )
        return Response(_pairing_settings_data(event))


def _entry(event: Event, start_number: int) -> Entry:
    entry = event.entries.select_related("player", "team").filter(start_number=start_number).first()
    if entry is None:
        raise NotFound(gettext_lazy("The event has no start number %(number)s.") % {"number": start_number})
    return entry


class ByeRequestView(APIView):
    """A bye asked for before its round is paired, by the pairing page's service. A half-point bye beyond the
    event's limits is a warning to confirm (``confirm: true``); a full-point bye is entered with a warning
    (a deprecated practice). The answer lists the warnings."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=ByeRequestSerializer,
        responses={201: ByeRequestSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug):
        event = _managed_event(slug, request.user)
        given = ByeRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        entry = _entry(event, data["start_number"])
        warnings = bye_warnings(event=event, round_number=data["round"], entry=entry, kind=data["kind"])
        game = bye_request(
            event=event,
            round_number=data["round"],
            entry=entry,
            kind=data["kind"],
            user=request.user,
            confirmed=data["confirm"],
        )
        game.refresh_from_db()
        answer = {
            "start_number": entry.start_number,
            "round": data["round"],
            "kind": data["kind"],
            "result": game.result,
            "warnings": warnings,
        }
        return Response(answer, status=201)


class ByeEligibilityView(APIView):
    """Mark a player eligible or not for the pairing-allocated bye (a pairing giving it to a player not
    eligible is refused at publishing until the bye is swapped by hand) or, with kind half, for a half-point bye
    on request (such a request is then refused); after the start the change is recorded with the settings'
    changes."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=ByeEligibilitySerializer,
        responses={200: ByeEligibilitySerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug):
        event = _managed_event(slug, request.user)
        given = ByeEligibilitySerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        entry = entry_bye_eligibility_set(
            entry=_entry(event, data["start_number"]),
            eligible=data["eligible"],
            user=request.user,
            reason=data.get("reason", ""),
            source=ResultChange.Source.API,
            kind=data["kind"],
        )
        flag = entry.half_bye_ineligible if data["kind"] == "half" else entry.bye_ineligible
        return Response({"start_number": entry.start_number, "kind": data["kind"], "eligible": not flag})


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
    path("events/<slug:slug>/byes/", ByeRequestView.as_view(), name="event-byes"),
    path("events/<slug:slug>/bye-eligibility/", ByeEligibilityView.as_view(), name="event-bye-eligibility"),
    path("events/<slug:slug>/fide-mode/leave/", FideModeLeaveView.as_view(), name="event-fide-mode-leave"),
    path("events/<slug:slug>/setting-changes/", SettingChangesView.as_view(), name="event-setting-changes"),
]
