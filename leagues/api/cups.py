"""REST API v1: a knock-out cup's bracket (GET, public once the event is), its draw and advance (the organiser's,
POST), and the decider game of a level match recorded on its card (POST), by the manage pages' service
(services/cups.py). A refused request answers 400/403 with the service's code and changes nothing."""

from django.urls import path
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import selectors
from ..errors import NotFound
from ..models import Cup, CupTie, Event, Scope
from ..permissions import can_see_event
from ..services.cups import cup_advance, cup_decider_record, cup_draw
from .serializers import ErrorSerializer


class BracketTeamSerializer(serializers.Serializer):
    start_number = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True)
    points = serializers.CharField(allow_null=True, help_text=gettext_lazy("Game points, once the card is complete."))
    goes_through = serializers.BooleanField()


class DeciderSerializer(serializers.Serializer):
    white = serializers.IntegerField(help_text=gettext_lazy("The start number of the team whose player had White."))
    result = serializers.ChoiceField(choices=CupTie.DeciderResult.choices)
    armageddon = serializers.BooleanField()
    white_player = serializers.IntegerField(allow_null=True)
    black_player = serializers.IntegerField(allow_null=True)


class BracketTieSerializer(serializers.Serializer):
    id = serializers.IntegerField(
        allow_null=True, help_text=gettext_lazy("The tie's id (its decider is recorded by it); empty: not made yet.")
    )
    position = serializers.IntegerField()
    home = BracketTeamSerializer()
    away = BracketTeamSerializer(allow_null=True, help_text=gettext_lazy("Empty: a bye."))
    match = serializers.IntegerField(
        allow_null=True, help_text=gettext_lazy("The match card's id (a team cup); empty in an individual cup.")
    )
    games = serializers.ListField(
        child=serializers.IntegerField(),
        help_text=gettext_lazy("The ids of the tie's games (an individual cup: one, or the games of a mini-match)."),
    )
    decided_by = serializers.ChoiceField(
        choices=["", *CupTie.DecidedBy.values], help_text=gettext_lazy("What decided the tie; empty: not decided yet.")
    )
    decider = DeciderSerializer(allow_null=True)


class BracketRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField(allow_null=True)
    ties = BracketTieSerializer(many=True)


class BracketSerializer(serializers.Serializer):
    event = serializers.CharField()
    drawn = serializers.BooleanField()
    seeding = serializers.CharField(allow_null=True)
    tie_resolution = serializers.ListField(child=serializers.CharField())
    games_per_tie = serializers.IntegerField(allow_null=True)
    rounds = BracketRoundSerializer(many=True)
    champion = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("The start number of the winner."))
    waiting = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text=gettext_lazy(
            "After an advance: the ties still waiting, each with its position and what it waits for (its match card, "
            "its games' results in an individual cup, or a decider game)."
        ),
    )


class DrawSerializer(serializers.Serializer):
    seeding = serializers.ChoiceField(choices=Cup.Seeding.values, default=Cup.Seeding.RATING)
    tie_resolution = serializers.ListField(
        child=serializers.ChoiceField(choices=Cup.Resolution.values), required=False, allow_empty=True
    )
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        help_text=gettext_lazy("Seeding in your order: every team's start number, the top-seeded team first."),
    )
    starts_on = serializers.DateField(required=False, allow_null=True)
    days_between = serializers.IntegerField(required=False, default=7)
    games_per_tie = serializers.IntegerField(
        required=False, default=1, help_text=gettext_lazy("An individual cup: the games of a tie (1 to 20).")
    )


class DeciderInputSerializer(serializers.Serializer):
    white = serializers.ChoiceField(choices=["home", "away"])
    result = serializers.ChoiceField(choices=CupTie.DeciderResult.choices)
    armageddon = serializers.BooleanField(default=False)
    white_player = serializers.IntegerField(required=False, allow_null=True)
    black_player = serializers.IntegerField(required=False, allow_null=True)


def _side(side) -> dict | None:
    if side is None:
        return None
    entry = side.entry
    return {
        "start_number": entry.start_number if entry else None,
        "name": entry.name if entry else None,
        "seed": side.seed,
        "points": side.points or None,
        "goes_through": side.goes_through,
    }


def bracket_data(event: Event) -> dict:
    bracket = selectors.cup_bracket(event)
    cup = bracket.cup
    rounds = []
    for rnd in bracket.rounds:
        ties = []
        for tie in rnd.ties:
            decider = None
            if tie.decider:
                decider = {
                    "white": tie.decider["white"].start_number,
                    "result": tie.decider["result"],
                    "armageddon": tie.decider["armageddon"],
                    "white_player": getattr(tie.decider["white_player"], "pk", None),
                    "black_player": getattr(tie.decider["black_player"], "pk", None),
                }
            ties.append(
                {
                    "id": tie.tie_id,
                    "position": tie.position,
                    "home": _side(tie.home),
                    "away": _side(tie.away),
                    "match": tie.match.pk if tie.match else None,
                    "games": [] if tie.match else [game.pk for game in tie.games],
                    "decided_by": tie.decided_by,
                    "decider": decider,
                }
            )
        rounds.append({"number": rnd.number, "name": rnd.name, "date": rnd.date, "ties": ties})
    return {
        "event": event.slug,
        "drawn": cup is not None,
        "seeding": cup.seeding if cup else None,
        "tie_resolution": list(cup.tie_resolution) if cup else [],
        "games_per_tie": cup.games_per_tie if cup else None,
        "rounds": rounds,
        "champion": bracket.champion.start_number if bracket.champion else None,
    }


def _cup_event(slug: str, user) -> Event:
    event = Event.objects.filter(slug=slug, system=Event.System.KNOCKOUT).first()
    if event is None or not can_see_event(user, event):
        raise NotFound(gettext_lazy("There is no cup %(slug)s.") % {"slug": slug}, code="unknown_event")
    return event


def _answer(event: Event, progress=None, status: int = 200) -> Response:
    data = bracket_data(event)
    if progress is not None:
        data["waiting"] = [{"position": tie.position, "for": why} for tie, why in progress.waiting]
    return Response(BracketSerializer(data).data, status=status, headers={"Cache-Control": "no-cache"})


class BracketView(APIView):
    """A cup's bracket: every round with its name and date, each tie's teams, seeds, score on the card, who goes
    through and by what (a bye, the score, the cup's tie resolution, the decider game)."""

    @extend_schema(responses={200: BracketSerializer, 404: ErrorSerializer})
    def get(self, request, slug):
        return _answer(_cup_event(slug, request.user))


class DrawView(APIView):
    """Draw the cup (again, while nothing is played): seeding, the tie resolution in order, the rounds' dates."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=DrawSerializer,
        responses={201: BracketSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug):
        event = _cup_event(slug, request.user)
        given = DrawSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        cup_draw(
            event=event,
            user=request.user,
            seeding=data["seeding"],
            tie_resolution=data.get("tie_resolution"),
            order=data.get("order"),
            starts_on=data.get("starts_on"),
            days_between=data["days_between"],
            games_per_tie=data["games_per_tie"],
        )
        return _answer(event, status=201)


class AdvanceView(APIView):
    """Decide the current round's ties from their confirmed cards; once all are decided, the next round's matches
    are made. The answer lists the ties still waiting (for their card, or for a decider game)."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=None,
        responses={200: BracketSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, slug):
        event = _cup_event(slug, request.user)
        return _answer(event, cup_advance(event=event, user=request.user))


class DeciderView(APIView):
    """Record the decider game of a level cup tie (a play-off, or Armageddon: a draw sends Black's team or player
    through): a team cup's on its match card (matches/{id}/decider/), an individual cup's on its tie
    (cup-ties/{id}/decider/); the cup advances."""

    required_scope = Scope.ORGANISER

    @extend_schema(
        request=DeciderInputSerializer,
        responses={200: BracketSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def post(self, request, match_id=None, tie_id=None):
        given = DeciderInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        tie, progress = cup_decider_record(
            match_id=match_id,
            tie_id=tie_id,
            user=request.user,
            white=data["white"],
            result=data["result"],
            armageddon=data["armageddon"],
            white_player_id=data.get("white_player"),
            black_player_id=data.get("black_player"),
        )
        return _answer(tie.cup.event, progress)


urlpatterns = [
    path("events/<slug:slug>/bracket/", BracketView.as_view(), name="event-bracket"),
    path("events/<slug:slug>/cup/draw/", DrawView.as_view(), name="cup-draw"),
    path("events/<slug:slug>/cup/advance/", AdvanceView.as_view(), name="cup-advance"),
    path("matches/<int:match_id>/decider/", DeciderView.as_view(), name="match-decider"),
    path("cup-ties/<int:tie_id>/decider/", DeciderView.as_view(), name="cup-tie-decider"),
]
