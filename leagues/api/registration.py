"""REST API v1: online registration for an individual event, with the service of the pages
(leagues/services/registration.py). Anyone registers (``POST .../registrations/``: the same player again answers
the registration they have, 200 instead of 201); the organiser (organiser scope) reads and sets the registration
settings, lists the registrations, decides in bulk (accept, refuse, waiting list, withdraw), checks players in,
records entry fees and reads their ledger line by line, confirms the withdrawal of the players who did not check in,
and confirms or declines the players' requests to withdraw. A registered player withdraws with the key of the link
in their e-mails (``POST registrations/withdraw/``), by the rule of the page's button: at once before round 1 is
published, afterwards as a request the organiser confirms. A captain registers a team for a team event
(``POST .../team-registrations/``: the team, its club, the captain's e-mail and the roster board by board); the
organiser decides on the teams with the same bulk actions, and each team's row lists its players."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from ..models import Event, FeeRecord, Registration, Scope
from ..permissions import can_manage_event
from ..services.registration import (
    WITHDRAWAL_REASON_LENGTH,
    RosterLine,
    checkin_set,
    fee_amount,
    fee_ledger,
    fee_lines,
    fees_record,
    no_shows,
    no_shows_withdraw,
    registration_settings_save,
    registration_submit,
    registration_withdraw_by_link,
    registrations_decide,
    registrations_of,
    rosters_of,
    settings_of,
    team_registration_submit,
    withdrawal_requests_decide,
)
from .serializers import ErrorSerializer

#: what the organiser does with the chosen registrations (the page's actions)
BULK_ACTIONS = (
    "accept",
    "refuse",
    "wait",
    "withdraw",
    "checkin",
    "checkin_undo",
    "paid",
    "refunded",
    "withdrawal_confirm",
    "withdrawal_decline",
)


class RegistrationSettingsSerializer(serializers.Serializer):
    is_open = serializers.BooleanField(required=False)
    deadline = serializers.DateTimeField(required=False, allow_null=True)
    limit = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=9999)
    waiting_list = serializers.BooleanField(required=False)
    fee = serializers.DecimalField(
        required=False,
        allow_null=True,
        max_digits=9,
        decimal_places=2,
        min_value=0,
        help_text=gettext_lazy("In the league's currency, e.g. 15.00."),
    )
    checkin_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    reserves = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=99,
        help_text=gettext_lazy("A team event: the reserves a team may name besides its boards; null: no limit."),
    )


class RegisterSerializer(serializers.Serializer):
    email = serializers.CharField(max_length=254)
    fide_id = serializers.CharField(required=False, allow_blank=True, max_length=20)
    name = serializers.CharField(required=False, allow_blank=True, max_length=200)
    federation = serializers.CharField(required=False, allow_blank=True, max_length=3)
    birth_year = serializers.CharField(required=False, allow_blank=True, max_length=4)
    club = serializers.CharField(required=False, allow_blank=True, max_length=200)
    language = serializers.CharField(required=False, allow_blank=True, max_length=10)


class RosterLineSerializer(serializers.Serializer):
    fide_id = serializers.CharField(required=False, allow_blank=True, allow_null=True, max_length=20)
    name = serializers.CharField(required=False, allow_blank=True, max_length=200)
    federation = serializers.CharField(required=False, allow_blank=True, max_length=3)
    birth_year = serializers.CharField(required=False, allow_blank=True, allow_null=True, max_length=4)


class TeamRegisterSerializer(serializers.Serializer):
    email = serializers.CharField(max_length=254, help_text=gettext_lazy("The captain's e-mail address."))
    team = serializers.CharField(max_length=200, help_text=gettext_lazy("The team's name, e.g. Oslo SK 2."))
    club = serializers.CharField(max_length=200, help_text=gettext_lazy("A club of the league (name or short name)."))
    players = RosterLineSerializer(
        many=True,
        max_length=100,
        help_text=gettext_lazy(
            "The roster in board order: at least the event's boards, at most its boards and reserves. Each player "
            "by FIDE id, or name, federation and birth year."
        ),
    )
    language = serializers.CharField(required=False, allow_blank=True, max_length=10)


class RosterPlayerSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    name = serializers.CharField()
    fide_id = serializers.IntegerField(allow_null=True)
    federation = serializers.CharField()
    birth_year = serializers.IntegerField(allow_null=True)


class RegistrationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=Registration.Status.choices)


class RegistrationRowSerializer(RegistrationSerializer):
    fide_id = serializers.IntegerField(allow_null=True)
    federation = serializers.CharField()
    birth_year = serializers.IntegerField(allow_null=True)
    club = serializers.CharField()
    email = serializers.CharField()
    registered_at = serializers.DateTimeField()
    start_number = serializers.IntegerField(allow_null=True)
    checked_in_at = serializers.DateTimeField(allow_null=True)
    fee_owed = serializers.DecimalField(max_digits=11, decimal_places=2)
    withdrawal_requested_at = serializers.DateTimeField(
        allow_null=True, help_text=gettext_lazy("When the player asked to withdraw; null: no request waits.")
    )
    withdrawal_reason = serializers.CharField(help_text=gettext_lazy("The reason the player gave, if any."))
    players = RosterPlayerSerializer(
        many=True, help_text=gettext_lazy("A team's registration: its players in board order (empty otherwise).")
    )


class FeeLineSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    registration = serializers.IntegerField(help_text=gettext_lazy("The registration's id."))
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=FeeRecord.Kind.choices)
    amount = serializers.DecimalField(
        max_digits=11, decimal_places=2, help_text=gettext_lazy("In the league's currency, e.g. 15.00.")
    )
    currency = serializers.CharField()
    recorded_at = serializers.DateTimeField()
    recorded_by = serializers.CharField(allow_null=True, help_text=gettext_lazy("The user's name; null: unknown."))


class WithdrawSerializer(serializers.Serializer):
    token = serializers.CharField(
        max_length=500, help_text=gettext_lazy("The key of the withdrawal link in the player's e-mails.")
    )
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=WITHDRAWAL_REASON_LENGTH,
        help_text=gettext_lazy("Why, if the player likes (after round 1 only the organiser reads it)."),
    )


class WithdrawnSerializer(RegistrationSerializer):
    withdrawn = serializers.BooleanField(
        help_text=gettext_lazy("True: withdrawn now. False: round 1 is published, the request waits for the organiser.")
    )
    withdrawal_requested_at = serializers.DateTimeField(allow_null=True)


class BulkSerializer(serializers.Serializer):
    ids = serializers.ListField(child=serializers.IntegerField(), allow_empty=False, max_length=10000)
    action = serializers.ChoiceField(choices=BULK_ACTIONS)
    amount = serializers.DecimalField(
        required=False, max_digits=9, decimal_places=2, min_value=0, help_text=gettext_lazy("Empty: the event's fee.")
    )


class DoneSerializer(serializers.Serializer):
    done = serializers.IntegerField()


class NoShowsSerializer(serializers.Serializer):
    ids = serializers.ListField(child=serializers.IntegerField(), allow_empty=True, max_length=10000)


def _event(slug: str, request) -> Event:
    event = get_object_or_404(Event.objects.select_related("league"), slug=slug)
    if not can_manage_event(request.user, event):
        raise PermissionDenied()
    return event


def _settings(event: Event) -> dict:
    found = settings_of(event)
    return {
        "is_open": found.is_open,
        "deadline": found.deadline,
        "limit": found.limit,
        "waiting_list": found.waiting_list,
        "fee": fee_amount(event, found.fee),
        "checkin_closes_at": found.checkin_closes_at,
        "reserves": found.reserves,
    }


def _row(event: Event, registration: Registration, owed, roster=()) -> dict:
    asking = registration.status == Registration.Status.ACCEPTED  # a request answered leaves its time behind
    return {
        "id": registration.pk,
        "name": registration.name,
        "status": registration.status,
        "fide_id": registration.fide_id,
        "federation": registration.federation,
        "birth_year": registration.birth_year,
        "club": registration.club,
        "email": registration.email,
        "registered_at": registration.created_at,
        "start_number": registration.entry.start_number if registration.entry else None,
        "checked_in_at": registration.checked_in_at,
        "fee_owed": fee_amount(event, owed),
        "withdrawal_requested_at": registration.withdrawal_requested_at if asking else None,
        "withdrawal_reason": registration.withdrawal_reason if asking else "",
        "players": [
            {
                "board": line.board_order,
                "name": line.name,
                "fide_id": line.fide_id,
                "federation": line.federation,
                "birth_year": line.birth_year,
            }
            for line in roster
        ],
    }


class RegistrationSettingsView(APIView):
    required_scope = Scope.ORGANISER
    read_scope = Scope.ORGANISER

    @extend_schema(
        responses={200: RegistrationSettingsSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
        operation_id="event_registration_settings",
    )
    def get(self, request, slug):
        """The event's registration settings."""
        event = _event(slug, request)
        return Response(RegistrationSettingsSerializer(_settings(event)).data)

    @extend_schema(
        request=RegistrationSettingsSerializer,
        responses={
            200: RegistrationSettingsSerializer,
            400: ErrorSerializer,
            403: ErrorSerializer,
            404: ErrorSerializer,
        },
        operation_id="event_registration_settings_save",
    )
    def patch(self, request, slug):
        """Open or close registration; set its deadline, limit, waiting list, entry fee and check-in closing time."""
        event = _event(slug, request)
        given = RegistrationSettingsSerializer(data=request.data, partial=True)
        given.is_valid(raise_exception=True)
        registration_settings_save(event=event, user=request.user, fields=dict(given.validated_data))
        return Response(RegistrationSettingsSerializer(_settings(event)).data)


class RegistrationsView(APIView):
    required_scope = Scope.ORGANISER
    read_scope = Scope.ORGANISER

    def get_permissions(self):
        if self.request.method == "POST":
            return [AllowAny()]  # anyone registers; a token or session adds nothing
        return super().get_permissions()

    @extend_schema(
        responses={200: RegistrationRowSerializer(many=True), 403: ErrorSerializer, 404: ErrorSerializer},
        operation_id="event_registrations",
    )
    def get(self, request, slug):
        """Every registration of the event, oldest first (the organiser's and the arbiter's)."""
        event = _event(slug, request)
        lines, rosters = fee_lines(event), rosters_of(event)
        rows = [_row(event, r, lines[r.pk].balance, rosters.get(r.pk, [])) for r in registrations_of(event)]
        return Response(RegistrationRowSerializer(rows, many=True).data)

    @extend_schema(
        request=RegisterSerializer,
        responses={
            201: RegistrationSerializer,
            200: RegistrationSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
        },
        operation_id="event_register",
    )
    def post(self, request, slug):
        """Register for the event: a FIDE id, or name, federation, birth year and club; an e-mail address. The same
        player registering again gets 200 and the registration they have."""
        event = get_object_or_404(
            Event.objects.select_related("league").exclude(status=Event.Status.DRAFT),
            slug=slug,
            kind=Event.Kind.INDIVIDUAL,
        )
        given = RegisterSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = dict(given.validated_data)
        language = data.pop("language", "") or request.LANGUAGE_CODE
        registration, created = registration_submit(event=event, language=language, **data)
        answer = {"id": registration.pk, "name": registration.name, "status": registration.status}
        return Response(answer, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class TeamRegistrationsView(APIView):
    permission_classes = (AllowAny,)  # a captain registers without an account, as a player does

    @extend_schema(
        request=TeamRegisterSerializer,
        responses={
            201: RegistrationSerializer,
            200: RegistrationSerializer,
            400: ErrorSerializer,
            404: ErrorSerializer,
        },
        operation_id="event_team_register",
    )
    def post(self, request, slug):
        """Register a team for a team event: its name, its club, the captain's e-mail and the roster board by board.
        The same team (its name) registering again gets 200 and the registration it has. 400 with the field
        (``players``: too few or too many, a player twice or on another team's roster) and nothing saved."""
        event = get_object_or_404(
            Event.objects.select_related("league").exclude(status=Event.Status.DRAFT),
            slug=slug,
            kind=Event.Kind.TEAM,
        )
        given = TeamRegisterSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = dict(given.validated_data)
        language = data.pop("language", "") or request.LANGUAGE_CODE
        players = [RosterLine(**dict(line)) for line in data.pop("players")]
        registration, created = team_registration_submit(event=event, language=language, players=players, **data)
        answer = {"id": registration.pk, "name": registration.name, "status": registration.status}
        return Response(answer, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class RegistrationsBulkView(APIView):
    required_scope = Scope.ORGANISER

    @extend_schema(
        request=BulkSerializer,
        responses={200: DoneSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
        operation_id="event_registrations_bulk",
    )
    def post(self, request, slug):
        """Accept, refuse, move to the waiting list, withdraw, check in (or undo), record the entry fee paid or
        refunded, or confirm or decline the players' requests to withdraw, for every chosen registration or none."""
        event = _event(slug, request)
        given = BulkSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        ids, action = given.validated_data["ids"], given.validated_data["action"]
        if action in ("checkin", "checkin_undo"):
            done = checkin_set(event=event, user=request.user, ids=ids, checked_in=action == "checkin")
        elif action in ("paid", "refunded"):
            kind = FeeRecord.Kind.PAID if action == "paid" else FeeRecord.Kind.REFUNDED
            done = fees_record(
                event=event, user=request.user, ids=ids, kind=kind, amount=given.validated_data.get("amount")
            )
        elif action in ("withdrawal_confirm", "withdrawal_decline"):
            confirm = action == "withdrawal_confirm"
            done = len(withdrawal_requests_decide(event=event, user=request.user, ids=ids, confirm=confirm))
        else:
            done = len(registrations_decide(event=event, user=request.user, ids=ids, decision=action))
        return Response({"done": done})


class FeeLedgerView(APIView):
    required_scope = Scope.ORGANISER
    read_scope = Scope.ORGANISER

    @extend_schema(
        responses={200: FeeLineSerializer(many=True), 403: ErrorSerializer, 404: ErrorSerializer},
        operation_id="event_registration_fees",
    )
    def get(self, request, slug):
        """Every line of the entry fees' ledger, oldest first: due (on acceptance), paid or refunded, the amount,
        for whom, when and by whom (the CSV export's lines)."""
        event = _event(slug, request)
        lines = [
            {
                "id": record.pk,
                "registration": record.registration_id,
                "name": record.registration.name,
                "kind": record.kind,
                "amount": fee_amount(event, record.amount),
                "currency": event.league.currency,
                "recorded_at": record.recorded_at,
                "recorded_by": record.recorded_by.get_username() if record.recorded_by else None,
            }
            for record in fee_ledger(event=event, user=request.user)
        ]
        return Response(FeeLineSerializer(lines, many=True).data)


class WithdrawView(APIView):
    permission_classes = (AllowAny,)  # the link's signed key is the credential; a token or session adds nothing

    @extend_schema(
        request=WithdrawSerializer,
        responses={200: WithdrawnSerializer, 400: ErrorSerializer},
        operation_id="registration_withdraw",
    )
    def post(self, request):
        """A registered player withdraws, with the key of the withdrawal link in their e-mails (the last part of its
        address), by the rule of the page's button: before round 1 is published the registration is withdrawn at
        once (an accepted player's entry leaves the event, the organisers are told); afterwards an accepted player's
        request waits for the organiser to confirm (asking again changes nothing). 400 ``bad_link`` for a key that
        is not valid, ``cannot_withdraw`` when it cannot be done; then nothing changed."""
        given = WithdrawSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        registration, withdrawn = registration_withdraw_by_link(
            token=given.validated_data["token"], reason=given.validated_data.get("reason", "")
        )
        answer = {
            "id": registration.pk,
            "name": registration.name,
            "status": registration.status,
            "withdrawn": withdrawn,
            "withdrawal_requested_at": None if withdrawn else registration.withdrawal_requested_at,
        }
        return Response(WithdrawnSerializer(answer).data)


class NoShowsView(APIView):
    required_scope = Scope.ORGANISER
    read_scope = Scope.ORGANISER

    @extend_schema(
        responses={200: NoShowsSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
        operation_id="event_no_shows",
    )
    def get(self, request, slug):
        """The accepted players who have not checked in."""
        event = _event(slug, request)
        return Response({"ids": [r.pk for r in no_shows(event)]})

    @extend_schema(
        request=NoShowsSerializer,
        responses={200: DoneSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 409: ErrorSerializer},
        operation_id="event_no_shows_withdraw",
    )
    def post(self, request, slug):
        """Confirm the list of players who did not check in (as GET gave it): each is withdrawn from round 1 on.
        After the check-in's closing time; 409 when someone checked in meanwhile."""
        event = _event(slug, request)
        given = NoShowsSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        withdrawn = no_shows_withdraw(event=event, user=request.user, ids=given.validated_data["ids"])
        return Response({"done": len(withdrawn)})


urlpatterns = [
    path("events/<slug:slug>/registration/", RegistrationSettingsView.as_view(), name="event-registration"),
    path("events/<slug:slug>/registrations/", RegistrationsView.as_view(), name="event-registrations"),
    path("events/<slug:slug>/team-registrations/", TeamRegistrationsView.as_view(), name="event-team-registrations"),
    path("events/<slug:slug>/registrations/bulk/", RegistrationsBulkView.as_view(), name="event-registrations-bulk"),
    path("events/<slug:slug>/registrations/no-shows/", NoShowsView.as_view(), name="event-no-shows"),
    path("events/<slug:slug>/registrations/fees/", FeeLedgerView.as_view(), name="event-registration-fees"),
    path("registrations/withdraw/", WithdrawView.as_view(), name="registration-withdraw"),
]
