from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ..models import Club, Entry, Event, Game, League, Player, Result, Round, Season, Team, TeamMatch

WRITABLE_RESULTS = [(code, label) for code, label in Result.choices if code]


class LeagueSerializer(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = ("slug", "name")


class SeasonSerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Season
        fields = ("id", "league", "slug", "name", "starts_on", "ends_on")


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ("slug", "name", "short_name")


class PlayerSerializer(serializers.ModelSerializer):
    """A player as the public sees them: never the birth year or sex; an anonymised player by initials only."""

    name = serializers.CharField(source="public_name", read_only=True)
    fide_id = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = (
            "id",
            "name",
            "fide_id",
            "federation",
            "title",
            "arbiter_title",
            "rating",
            "rating_rapid",
            "rating_blitz",
            "rating_national",
        )

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_fide_id(self, player) -> int | None:
        return None if player.anonymised else player.fide_id


class TeamSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    event = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    roster = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = ("id", "name", "club", "event", "roster")

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_roster(self, team) -> list[int]:
        return [m.player_id for m in team.members.all()]


class EventSerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    season = serializers.SlugRelatedField(slug_field="slug", read_only=True, allow_null=True)

    class Meta:
        model = Event
        fields = (
            "slug",
            "name",
            "league",
            "season",
            "kind",
            "system",
            "status",
            "rounds_count",
            "starts_on",
            "points_win",
            "points_draw",
            "points_loss",
            "match_points_win",
            "match_points_draw",
            "match_points_loss",
            "primary_score",
            "baku_acceleration",
            "fide_mode",
            "rule_set",
            "tiebreak_criteria",
            "tiebreak_locked",
            "results_version",
        )


class EntrySerializer(serializers.ModelSerializer):
    name = serializers.CharField(read_only=True)

    class Meta:
        model = Entry
        fields = (
            "start_number",
            "name",
            "player",
            "team",
            "rating",
            "withdrawn_after_round",
            "bye_ineligible",
            "half_bye_ineligible",
        )
        read_only_fields = ("bye_ineligible", "half_bye_ineligible")


class RoundSerializer(serializers.ModelSerializer):
    venue = serializers.CharField(
        source="place", read_only=True, help_text=_("Where the round is played (else the event's venue).")
    )

    class Meta:
        model = Round
        fields = ("number", "date", "venue")


class GameSerializer(serializers.ModelSerializer):
    event = serializers.SlugRelatedField(source="round.event", slug_field="slug", read_only=True)
    round = serializers.IntegerField(source="round.number", read_only=True)
    white = serializers.IntegerField(source="white.start_number", read_only=True, allow_null=True)
    black = serializers.IntegerField(source="black.start_number", read_only=True, allow_null=True)

    class Meta:
        model = Game
        fields = (
            "id",
            "event",
            "round",
            "match",
            "board",
            "white",
            "black",
            "white_player",
            "black_player",
            "result",
            "version",
            "corrected",
        )


class TeamMatchSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number", read_only=True)
    home = serializers.IntegerField(source="home.start_number", read_only=True)
    away = serializers.IntegerField(source="away.start_number", read_only=True)
    games = GameSerializer(many=True, read_only=True)

    class Meta:
        model = TeamMatch
        fields = ("id", "round", "home", "away", "status", "version", "dispute_reason", "games")


LATER_PAIRING_HELP = _(
    "A correction after a later round was paired (answered 409 later_round_paired until chosen): keep that round "
    "as paired, or unpair it (only while it has no results) to pair it again."
)


class ResultWriteSerializer(serializers.Serializer):
    result = serializers.ChoiceField(choices=WRITABLE_RESULTS, help_text=_("A result code."))
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=300, help_text=_("Required when correcting a result.")
    )
    later_pairing = serializers.ChoiceField(choices=["keep", "unpair"], required=False, help_text=LATER_PAIRING_HELP)


class BoardResultSerializer(serializers.Serializer):
    game = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    result = serializers.ChoiceField(choices=WRITABLE_RESULTS)
    version = serializers.IntegerField(min_value=0, max_value=2**31 - 1)


class LineupBoardSerializer(serializers.Serializer):
    board = serializers.IntegerField(min_value=1, max_value=999)
    home_player = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, allow_null=True, help_text=_("The home team's player (id); null: nobody.")
    )
    away_player = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, allow_null=True, help_text=_("The away team's player (id); null: nobody.")
    )


class RuleViolationSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text=_("The league rule broken."))
    severity = serializers.ChoiceField(choices=["warning", "block"])
    side = serializers.CharField(help_text=_("The side that broke the rule: home or away."))
    board = serializers.IntegerField(allow_null=True, help_text=_("Null: the whole card."))
    player = serializers.IntegerField(allow_null=True)
    message = serializers.CharField(help_text=_("In the language asked for."))


class LineupCheckSerializer(serializers.Serializer):
    lineup = LineupBoardSerializer(many=True, required=False)


class LineupCheckAnswerSerializer(serializers.Serializer):
    blocked = serializers.BooleanField(help_text=_("A blocking rule is broken: the card would be refused."))
    violations = RuleViolationSerializer(many=True)


class MatchCardSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, help_text=_("The match card's version you saw.")
    )
    boards = BoardResultSerializer(many=True)
    lineup = LineupBoardSerializer(
        many=True, required=False, help_text=_("The players at the boards, checked against the league's rules.")
    )
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300)
    later_pairing = serializers.ChoiceField(choices=["keep", "unpair"], required=False, help_text=LATER_PAIRING_HELP)


class CardVersionSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, help_text=_("The match card's version you saw; a stale one gets 412.")
    )


class DisputeSerializer(CardVersionSerializer):
    reason = serializers.CharField(max_length=300)


class StandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    start_number = serializers.IntegerField(required=False)
    team_number = serializers.IntegerField(required=False)
    name = serializers.CharField(help_text=_("An anonymised player's initials."))
    title = serializers.CharField(required=False, allow_blank=True, help_text=_("GM, IM, FM, CM, WGM, WIM, WFM, WCM"))
    federation = serializers.CharField(required=False, allow_blank=True, help_text=_("FIDE's three-letter code"))
    rating = serializers.IntegerField(required=False, allow_null=True, help_text=_("The rating at the start"))
    points = serializers.FloatField()
    values = serializers.DictField(child=serializers.FloatField(allow_null=True))


class StandingsSerializer(serializers.Serializer):
    event = serializers.CharField()
    rules = serializers.CharField()
    criteria = serializers.ListField(child=serializers.CharField())
    version = serializers.IntegerField(help_text=_("The results version the standings were computed from."))
    results_version = serializers.IntegerField()
    being_updated = serializers.BooleanField()
    computed_at = serializers.DateTimeField(allow_null=True)
    rows = StandingsRowSerializer(many=True)
    notes = serializers.ListField(child=serializers.DictField())
    explanations = serializers.DictField(required=False)


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    current = GameSerializer(required=False)


class MatchConflictSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    current = TeamMatchSerializer()
