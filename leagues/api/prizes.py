"""REST API v1: an event's prize fund and its split, the same lines the prize page shows, as data."""

from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from ..errors import NotFound
from ..models import Event
from ..prize_sentences import lines_with_text
from ..services.prizes import prizes_for_event
from .serializers import ErrorSerializer


class PrizeSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["place", "category", "club_team"])
    place = serializers.IntegerField(allow_null=True)
    category = serializers.CharField()
    eligibility_kind = serializers.CharField()
    eligibility_value = serializers.CharField()
    rank = serializers.IntegerField()
    amount = serializers.IntegerField(help_text=gettext_lazy("Minor units (pence, cents, øre)."))
    item = serializers.CharField()
    players = serializers.IntegerField(allow_null=True)  # best club team: best N players per club; else null


class PrizeLineSerializer(serializers.Serializer):
    code = serializers.CharField(help_text=gettext_lazy("A reason code of tiebreaks.prizes.REASONS."))
    params = serializers.DictField(
        help_text=gettext_lazy("The reason's parameters: money in minor units, tiebreak values as decimal strings.")
    )
    text = serializers.CharField(help_text=gettext_lazy("The line as a sentence in the request's language."))


class PrizeAwardSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text=gettext_lazy("Start number (players) or team number (teams)."))
    name = serializers.CharField()
    position = serializers.IntegerField()
    money = serializers.IntegerField(help_text=gettext_lazy("Minor units."))
    items = serializers.ListField(child=serializers.CharField())


class ClubAwardSerializer(serializers.Serializer):
    club = serializers.CharField()  # the club's slug
    name = serializers.CharField()
    money = serializers.IntegerField(help_text=gettext_lazy("Minor units."))
    items = serializers.ListField(child=serializers.CharField())


class PrizesSerializer(serializers.Serializer):
    event = serializers.CharField()
    currency = serializers.CharField()
    method = serializers.CharField()
    one_prize_per_player = serializers.BooleanField()
    remainder_rule = serializers.CharField()
    places_first = serializers.BooleanField()
    provisional = serializers.BooleanField(help_text=gettext_lazy("True until the event is finished."))
    being_updated = serializers.BooleanField()
    version = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("The standings version split."))
    fund = serializers.IntegerField(help_text=gettext_lazy("All prize money, minor units."))
    total_paid = serializers.IntegerField(allow_null=True)
    remainder = serializers.IntegerField(allow_null=True)
    unawarded = serializers.IntegerField(allow_null=True)
    prizes = PrizeSerializer(many=True)
    lines = PrizeLineSerializer(many=True)
    awards = PrizeAwardSerializer(many=True)
    club_awards = ClubAwardSerializer(many=True)  # best club team prizes, paid to clubs, in club order


class EventPrizesView(APIView):
    """The published prize fund of an event and who receives what, with the reasons (provisional until finished)."""

    @extend_schema(responses={200: PrizesSerializer, 404: ErrorSerializer})
    def get(self, request, slug):
        try:
            prizes = prizes_for_event(slug=slug)
        except Event.DoesNotExist:
            raise NotFound(_("There is no event %(slug)s.") % {"slug": slug}, code="unknown_event") from None
        if prizes.fund is None:
            raise NotFound(_("No prize fund has been published for this event."), code="no_prize_fund")
        fund, allocation = prizes.fund, prizes.allocation
        data = {
            "event": prizes.event.slug,
            "currency": fund.currency,
            "method": fund.method,
            "one_prize_per_player": fund.one_prize_per_player,
            "remainder_rule": fund.remainder,
            "places_first": fund.places_first,
            "provisional": prizes.provisional,
            "being_updated": prizes.being_updated,
            "version": allocation.version if allocation else None,
            "fund": fund.total,
            "total_paid": allocation.total_paid if allocation else None,
            "remainder": allocation.remainder if allocation else None,
            "unawarded": allocation.unawarded if allocation else None,
            "prizes": [
                {
                    "kind": p.kind,
                    "place": p.place,
                    "category": p.category,
                    "eligibility_kind": p.eligibility_kind,
                    "eligibility_value": p.eligibility_value,
                    "rank": p.rank,
                    "amount": p.amount,
                    "item": p.item,
                    "players": p.team_size if p.kind == "club_team" else None,
                }
                for p in prizes.prizes
            ],
            "lines": lines_with_text(prizes),
            "awards": [
                {
                    "number": a.entry.start_number,
                    "name": a.entry.name,
                    "position": a.position,
                    "money": a.money,
                    "items": list(a.items),
                }
                for a in prizes.awards
            ],
            "club_awards": [
                {"club": a["club"], "name": a["name"], "money": a["money"], "items": list(a["items"])}
                for a in (allocation.club_awards if allocation else [])
            ],
        }
        return Response(data, headers={"Cache-Control": "no-cache"})


# included from leagues/api/urls.py, so the prize API lives in this one module
urlpatterns = [path("events/<slug:slug>/prizes/", EventPrizesView.as_view(), name="event-prizes")]
