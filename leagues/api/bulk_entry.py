"""REST API v1: an organiser enters a list of players in an individual event (the organiser's scope), with the
service of the page (leagues/services/bulk_entry.py): without ``confirm`` the answer is the preview, every
problem named by its line, nothing saved; with ``confirm`` every player is entered, or none (400
``list_has_problems``). The same for a newer rating list during the event (``ratings-list``): the players' ratings
from a round on."""

import base64
import binascii

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from ..errors import ServiceError
from ..models import Event, ResultChange, Scope
from ..services.bulk_entry import (
    bulk_entry_confirm,
    bulk_entry_preview,
    ratings_refresh_confirm,
    ratings_refresh_preview,
)
from .serializers import ErrorSerializer


class EntryListSerializer(serializers.Serializer):
    content = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text=gettext_lazy("The list as text: CSV with a header row, or FIDE's rating list."),
    )
    content_base64 = serializers.CharField(
        required=False, help_text=gettext_lazy("The file as uploaded (e.g. an .xlsx spreadsheet), in base64.")
    )
    confirm = serializers.BooleanField(default=False)
    late_bye = serializers.ChoiceField(choices=["zero", "half"], default="zero")


class ListLineSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    name = serializers.CharField()
    fide_id = serializers.IntegerField(allow_null=True)
    rating = serializers.IntegerField(allow_null=True)
    federation = serializers.CharField()
    birth_year = serializers.IntegerField(allow_null=True)
    sex = serializers.CharField()
    title = serializers.CharField()
    club = serializers.CharField(allow_null=True)
    known = serializers.BooleanField()
    problems = serializers.ListField(child=serializers.CharField())


class ListPreviewSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    problems = serializers.ListField(child=serializers.CharField())
    lines = ListLineSerializer(many=True)


class EnteredSerializer(serializers.Serializer):
    entered = serializers.IntegerField()


class EntryListView(APIView):
    required_scope = Scope.ORGANISER

    @extend_schema(
        request=EntryListSerializer,
        responses={
            200: ListPreviewSerializer,
            201: EnteredSerializer,
            400: ErrorSerializer,
            403: ErrorSerializer,
            404: ErrorSerializer,
        },
        operation_id="event_entry_list",
    )
    def post(self, request, slug):
        """Preview a list of players (nothing saved), or enter them all with ``confirm``."""
        event = get_object_or_404(Event.objects.select_related("league"), slug=slug)
        given = EntryListSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        if data.get("content_base64"):
            try:
                content = base64.b64decode(data["content_base64"], validate=True)
            except (binascii.Error, ValueError):
                raise ServiceError(_("content_base64 is not base64."), code="invalid") from None
        else:
            content = data.get("content", "").encode("utf-8")
        if data["confirm"]:
            entries = bulk_entry_confirm(
                event=event,
                user=request.user,
                content=content,
                late_bye=data["late_bye"],
                source=ResultChange.Source.API,
            )
            return Response({"entered": len(entries)}, status=status.HTTP_201_CREATED)
        preview = bulk_entry_preview(event=event, user=request.user, content=content)
        lines = [
            {
                "line": row.line,
                "name": row.name,
                "fide_id": row.fide_id,
                "rating": row.rating,
                "federation": row.federation,
                "birth_year": row.birth_year,
                "sex": row.sex,
                "title": row.title,
                "club": row.club.name if row.club else None,
                "known": row.player is not None,
                "problems": row.problems,
            }
            for row in preview.rows
        ]
        return Response({"ok": preview.ok, "problems": preview.problems, "lines": lines})


class RatingsListSerializer(serializers.Serializer):
    content = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text=gettext_lazy("The newer list as text: CSV with a header row (FIDE id or name, rating), or FIDE's."),
    )
    content_base64 = serializers.CharField(
        required=False, help_text=gettext_lazy("The file as uploaded (e.g. an .xlsx spreadsheet), in base64.")
    )
    from_round = serializers.IntegerField(
        required=False, min_value=2, help_text=gettext_lazy("The round the newer ratings apply from.")
    )
    list_date = serializers.DateField(
        required=False,
        help_text=gettext_lazy("The list's date: without from_round, the first round played on or after it."),
    )
    confirm = serializers.BooleanField(default=False)


class RatingChangeSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    start_number = serializers.IntegerField(help_text=gettext_lazy("A team event's player: the team's start number."))
    name = serializers.CharField()
    team = serializers.CharField(help_text=gettext_lazy("A team event's player: the team; else empty."))
    before = serializers.IntegerField(allow_null=True)
    after = serializers.IntegerField(allow_null=True)


class RatingsPreviewSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    confirmed = serializers.BooleanField()
    from_round = serializers.IntegerField()
    list_date = serializers.DateField(allow_null=True)
    changes = RatingChangeSerializer(many=True)
    unchanged = serializers.IntegerField()
    not_entered = serializers.IntegerField()
    problems = serializers.ListField(child=serializers.CharField())


class RatingsListView(APIView):
    """A newer rating list during the event (a league's season): the players' ratings from a round on (a team
    event's: its rostered players', ``team`` naming the team), by the page's service
    (leagues/services/bulk_entry.py); without ``confirm`` nothing is saved."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=RatingsListSerializer,
        responses={200: RatingsPreviewSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
        operation_id="event_ratings_list",
    )
    def post(self, request, slug):
        """Preview whose rating a newer list changes from which round, or save every change with ``confirm``."""
        event = get_object_or_404(Event.objects.select_related("league"), slug=slug)
        given = RatingsListSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        content = _content(data)
        when = {"from_round": data.get("from_round"), "list_date": data.get("list_date")}
        if data["confirm"]:
            refresh = ratings_refresh_confirm(
                event=event, user=request.user, content=content, source=ResultChange.Source.API, **when
            )
        else:
            refresh = ratings_refresh_preview(event=event, user=request.user, content=content, **when)
        return Response(
            {
                "ok": refresh.ok,
                "confirmed": data["confirm"],
                "from_round": refresh.from_round,
                "list_date": refresh.list_date,
                "changes": [
                    {
                        "line": change.line,
                        "start_number": change.number,  # a team event's player: the team's start number
                        "name": change.name,
                        "team": change.team,
                        "before": change.before,
                        "after": change.after,
                    }
                    for change in refresh.changes
                ],
                "unchanged": refresh.unchanged,
                "not_entered": refresh.not_entered,
                "problems": refresh.problems,
            }
        )


def _content(data: dict) -> bytes:
    if data.get("content_base64"):
        try:
            return base64.b64decode(data["content_base64"], validate=True)
        except (binascii.Error, ValueError):
            raise ServiceError(_("content_base64 is not base64."), code="invalid") from None
    return data.get("content", "").encode("utf-8")


urlpatterns = [
    path("events/<slug:slug>/entry-list/", EntryListView.as_view(), name="event-entry-list"),
    path("events/<slug:slug>/ratings-list/", RatingsListView.as_view(), name="event-ratings-list"),
]
