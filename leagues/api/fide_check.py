"""REST API v1: an event's latest check by FIDE's own tools (pairing checker and tie-break checker, run by the site
on the event's TRF export after each round; leagues/services/fide_check.py)."""

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from ..errors import NotFound
from ..models import Event
from ..services.fide_check import fide_check_of
from .serializers import ErrorSerializer


class FideDifferenceSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["pairing", "tiebreak", "refused"])
    round = serializers.IntegerField(required=False, help_text=gettext_lazy("pairing: the round."))
    number = serializers.IntegerField(required=False, help_text=gettext_lazy("tiebreak: the start number."))
    name = serializers.CharField(required=False)
    criterion = serializers.CharField(required=False, help_text=gettext_lazy("tiebreak: PTS or the tie-break."))
    site = serializers.JSONField(
        required=False, help_text=gettext_lazy("This site's pairing ([white, black], black 0: the bye) or value.")
    )
    fide = serializers.JSONField(required=False, help_text=gettext_lazy("FIDE's checker's pairing or value."))
    tool = serializers.CharField(required=False, help_text=gettext_lazy("refused: pairings or tiebreaks."))
    message = serializers.CharField(required=False)


class FideCheckSerializer(serializers.Serializer):
    event = serializers.CharField()
    checked = serializers.BooleanField(help_text=gettext_lazy("False until the first round is complete."))
    version = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("The results version checked."))
    rounds = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("Rounds checked."))
    pairings_ok = serializers.BooleanField(
        allow_null=True, help_text=gettext_lazy("Every round paired as FIDE's pairing checker pairs it.")
    )
    tiebreaks_ok = serializers.BooleanField(
        allow_null=True,
        help_text=gettext_lazy("Every value of the standings equals FIDE's tie-break checker (null: not FIDE rules)."),
    )
    differences = FideDifferenceSerializer(many=True)
    checked_at = serializers.DateTimeField(allow_null=True)
    trf = serializers.CharField(help_text=gettext_lazy("The TRF file checked: run FIDE's tools on it yourself."))


class FideCheckView(APIView):
    """The event's latest check by FIDE's pairing checker and tie-break checker (gacrux) on its own TRF file."""

    @extend_schema(responses={200: FideCheckSerializer, 404: ErrorSerializer})
    def get(self, request, slug):
        event = Event.objects.public().filter(slug=slug).first()
        if event is None:
            raise NotFound(gettext_lazy("There is no event %(slug)s.") % {"slug": slug}, code="unknown_event")
        check = fide_check_of(event)
        data = {
            "event": event.slug,
            "checked": check is not None,
            "version": check.version if check else None,
            "rounds": check.rounds if check else None,
            "pairings_ok": check.pairings_ok if check else None,
            "tiebreaks_ok": check.tiebreaks_ok if check else None,
            "differences": check.differences if check else [],
            "checked_at": check.checked_at if check else None,
            "trf": f"{settings.SITE_URL}{reverse('event-trf', args=[event.slug])}",
        }
        return Response(FideCheckSerializer(data).data)
