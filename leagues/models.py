"""The league domain. Results are stored as codes, never as points: every rule set derives its own numbers."""

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class League(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), unique=True)
    clubs = models.ManyToManyField("Club", related_name="leagues", blank=True, verbose_name=_("clubs"))
    auto_confirm_days = models.PositiveSmallIntegerField(
        _("days until an unconfirmed match card confirms itself"), default=3
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self):
        return self.name


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("league"))
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("slug"))
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [models.UniqueConstraint(fields=["league", "slug"], name="season_slug_per_league")]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self):
        return f"{self.league} {self.name}"


class Club(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), unique=True)
    short_name = models.CharField(_("short name"), max_length=30, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self):
        return self.name


class Player(models.Model):
    class Sex(models.TextChoices):
        MALE = "m", _("male")
        FEMALE = "w", _("female")

    name = models.CharField(_("name"), max_length=200, help_text=_("Lastname, Firstname"))
    fide_id = models.PositiveBigIntegerField(_("FIDE id"), null=True, blank=True, unique=True)
    national_id = models.CharField(_("national id"), max_length=30, blank=True)
    rating = models.PositiveSmallIntegerField(_("rating"), null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    clubs = models.ManyToManyField(Club, through="ClubMembership", related_name="players", verbose_name=_("clubs"))

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self):
        return self.name


class ClubMembership(models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, verbose_name=_("player"))
    club = models.ForeignKey(Club, on_delete=models.CASCADE, verbose_name=_("club"))
    since = models.DateField(_("since"), null=True, blank=True)
    until = models.DateField(_("until"), null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "club", "since"], name="membership_once")]
        verbose_name = _("club membership")
        verbose_name_plural = _("club memberships")


class EventQuerySet(models.QuerySet):
    def public(self):
        return self.exclude(status=Event.Status.DRAFT)

    def stale(self):
        """Events whose standings snapshot is older than their results."""
        return self.filter(
            models.Q(snapshot__isnull=True, results_version__gt=0)
            | models.Q(snapshot__version__lt=models.F("results_version"))
        )


class Event(models.Model):
    class Kind(models.TextChoices):
        INDIVIDUAL = "individual", _("individual")
        TEAM = "team", _("team")

    class System(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "rr", _("round robin")
        DOUBLE_ROUND_ROBIN = "drr", _("double round robin")

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class PrimaryScore(models.TextChoices):
        MATCH_POINTS = "mp", _("match points")
        GAME_POINTS = "gp", _("game points")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="events", verbose_name=_("league"))
    season = models.ForeignKey(
        Season, on_delete=models.SET_NULL, null=True, blank=True, related_name="events", verbose_name=_("season")
    )
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), unique=True)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.INDIVIDUAL)
    system = models.CharField(_("system"), max_length=5, choices=System.choices, default=System.SWISS)
    rounds_count = models.PositiveSmallIntegerField(_("number of rounds"))
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    # game scoring (TRF 162) and, for team events, match points (TRF 362)
    points_win = models.DecimalField(_("points for a win"), max_digits=4, decimal_places=2, default=Decimal("1"))
    points_draw = models.DecimalField(_("points for a draw"), max_digits=4, decimal_places=2, default=Decimal("0.5"))
    points_loss = models.DecimalField(_("points for a loss"), max_digits=4, decimal_places=2, default=Decimal("0"))
    match_points_win = models.DecimalField(_("match points for a win"), max_digits=4, decimal_places=2, default=2)
    match_points_draw = models.DecimalField(_("match points for a draw"), max_digits=4, decimal_places=2, default=1)
    match_points_loss = models.DecimalField(_("match points for a loss"), max_digits=4, decimal_places=2, default=0)
    primary_score = models.CharField(
        _("primary score"), max_length=2, choices=PrimaryScore.choices, default=PrimaryScore.MATCH_POINTS
    )
    boards = models.PositiveSmallIntegerField(_("boards per match"), default=4)
    board_one_white_for_home = models.BooleanField(_("home team has white on board 1"), default=True)
    # tiebreak policy: a named rule set and the ordered criteria, locked from the first result (C.07 4.1)
    rule_set = models.CharField(_("tiebreak rule set"), max_length=20, default="fide-2026")
    tiebreak_criteria = models.JSONField(_("tiebreak criteria"), default=list, blank=True)
    tiebreak_locked = models.BooleanField(_("tiebreak policy locked"), default=False)
    unrated_rating = models.PositiveSmallIntegerField(_("rating for unrated players"), null=True, blank=True)
    results_version = models.PositiveIntegerField(_("results version"), default=0, editable=False)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self):
        return self.name

    @property
    def is_team(self) -> bool:
        return self.kind == self.Kind.TEAM

    @property
    def is_round_robin(self) -> bool:
        return self.system != self.System.SWISS


class Team(models.Model):
    """A club's team in a team event, e.g. "Oslo SK 2"."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams", verbose_name=_("event"))
    club = models.ForeignKey(Club, on_delete=models.RESTRICT, related_name="teams", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=200)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="team_name_per_event")]
        verbose_name = _("team")
        verbose_name_plural = _("teams")

    def __str__(self):
        return self.name


class TeamMember(models.Model):
    """The roster: a team's players in board order."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members", verbose_name=_("team"))
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, verbose_name=_("player"))
    board_order = models.PositiveSmallIntegerField(_("board order"))

    class Meta:
        ordering = ["team", "board_order"]
        constraints = [
            models.UniqueConstraint(fields=["team", "board_order"], name="roster_board_once"),
            models.UniqueConstraint(fields=["team", "player"], name="roster_player_once"),
        ]
        verbose_name = _("team member")
        verbose_name_plural = _("team members")


class Entry(models.Model):
    """A participant of an event: a player (individual events) or a team (team events)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries", verbose_name=_("event"))
    start_number = models.PositiveSmallIntegerField(_("start number"))
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, null=True, blank=True, verbose_name=_("player"))
    team = models.OneToOneField(Team, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("team"))
    rating = models.PositiveSmallIntegerField(_("rating at start"), null=True, blank=True)
    withdrawn_after_round = models.PositiveSmallIntegerField(_("withdrew after round"), null=True, blank=True)

    class Meta:
        ordering = ["event", "start_number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "start_number"], name="start_number_once"),
            models.UniqueConstraint(fields=["event", "player"], name="player_once_per_event"),
            models.CheckConstraint(
                condition=models.Q(player__isnull=False, team__isnull=True)
                | models.Q(player__isnull=True, team__isnull=False),
                name="entry_is_player_or_team",
            ),
        ]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self):
        return str(self.player or self.team)

    @property
    def name(self) -> str:
        return self.player.name if self.player_id else self.team.name

    @property
    def club(self):
        if self.team_id:
            return self.team.club
        membership = self.player.clubmembership_set.select_related("club").first()
        return membership.club if membership else None


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("event"))
    number = models.PositiveSmallIntegerField(_("number"))
    date = models.DateField(_("date"), null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="round_once")]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self):
        return f"{self.event} R{self.number}"


class TeamMatch(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("scheduled")
        SUBMITTED = "submitted", _("submitted")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches", verbose_name=_("round"))
    home = models.ForeignKey(Entry, on_delete=models.RESTRICT, related_name="home_matches", verbose_name=_("home"))
    away = models.ForeignKey(Entry, on_delete=models.RESTRICT, related_name="away_matches", verbose_name=_("away"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("submitted by"),
    )
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    dispute_reason = models.CharField(_("reason for the dispute"), max_length=300, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)

    class Meta:
        ordering = ["round", "id"]
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")

    def __str__(self):
        return f"{self.home} – {self.away}"


class Result(models.TextChoices):
    """Result codes of a game or bye (TRF result codes, spec trf-format §4), never points."""

    PENDING = "", _("not played yet")
    WHITE_WINS = "1-0", _("1-0")
    DRAW = "1/2-1/2", _("½-½")
    BLACK_WINS = "0-1", _("0-1")
    WHITE_WINS_FORFEIT = "+/-", _("white wins by forfeit")
    BLACK_WINS_FORFEIT = "-/+", _("black wins by forfeit")
    DOUBLE_FORFEIT = "-/-", _("double forfeit")
    UNKNOWN = "?", _("result not known yet")
    PAIRING_BYE = "bye:pab", _("pairing-allocated bye")
    FULL_POINT_BYE = "bye:full", _("full-point bye")
    HALF_POINT_BYE = "bye:half", _("half-point bye")
    ZERO_POINT_BYE = "bye:zero", _("zero-point bye")
    ABSENT = "absent", _("absent")


GAME_RESULTS = {
    Result.PENDING,
    Result.WHITE_WINS,
    Result.DRAW,
    Result.BLACK_WINS,
    Result.WHITE_WINS_FORFEIT,
    Result.BLACK_WINS_FORFEIT,
    Result.DOUBLE_FORFEIT,
    Result.UNKNOWN,
}
BYE_RESULTS = {
    Result.PAIRING_BYE,
    Result.FULL_POINT_BYE,
    Result.HALF_POINT_BYE,
    Result.ZERO_POINT_BYE,
    Result.ABSENT,
}
# TRF code of (white, black) for a game, of the player alone for a bye
TRF_CODES = {
    Result.WHITE_WINS: ("1", "0"),
    Result.DRAW: ("=", "="),
    Result.BLACK_WINS: ("0", "1"),
    Result.WHITE_WINS_FORFEIT: ("+", "-"),
    Result.BLACK_WINS_FORFEIT: ("-", "+"),
    Result.DOUBLE_FORFEIT: ("-", "-"),
    Result.UNKNOWN: ("?", "?"),
    Result.PAIRING_BYE: ("U", None),
    Result.FULL_POINT_BYE: ("F", None),
    Result.HALF_POINT_BYE: ("H", None),
    Result.ZERO_POINT_BYE: ("Z", None),
    Result.ABSENT: ("Z", None),
}


class Game(models.Model):
    """A pairing of one round: two entries at a board, or one entry with a bye (black empty)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games", verbose_name=_("round"))
    match = models.ForeignKey(
        TeamMatch, on_delete=models.CASCADE, null=True, blank=True, related_name="games", verbose_name=_("match")
    )
    board = models.PositiveSmallIntegerField(_("board"))
    white = models.ForeignKey(
        Entry, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("white")
    )
    black = models.ForeignKey(
        Entry, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("black")
    )
    # team events: the players at the board (entries are the teams)
    white_player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("white player")
    )
    black_player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("black player")
    )
    result = models.CharField(_("result"), max_length=8, choices=Result.choices, blank=True, default="")
    version = models.PositiveIntegerField(_("version"), default=0, help_text=_("Raised by every change of the result."))
    corrected = models.BooleanField(_("corrected"), default=False)

    class Meta:
        ordering = ["round", "match", "board"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "match", "board"], name="board_once_per_match", nulls_distinct=False
            ),
        ]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self):
        return f"{self.round} #{self.board}: {self.white} – {self.black or '—'} {self.result}"

    @property
    def is_bye(self) -> bool:
        return self.black_id is None and self.match_id is None


class ResultChange(models.Model):
    """The audit trail: every change of a result, who made it, from where and why."""

    class Source(models.TextChoices):
        FORM = "form", _("form")
        API = "api", _("API")
        IMPORT = "import", _("import")
        ADMIN = "admin", _("admin")
        DEMO = "demo", _("demo data")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes", verbose_name=_("game"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("user")
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    before = models.CharField(_("before"), max_length=8, blank=True)
    after = models.CharField(_("after"), max_length=8)
    source = models.CharField(_("source"), max_length=8, choices=Source.choices)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    # for corrections: what the correction changed in the standings (filled by the recompute)
    standings_impact = models.JSONField(_("effect on the standings"), null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("result change")
        verbose_name_plural = _("result changes")


class TiebreakPolicyChange(models.Model):
    """A change of a locked tiebreak policy: only by an organiser, with a reason, shown publicly."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="policy_changes", verbose_name=_("event"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, verbose_name=_("user"))
    at = models.DateTimeField(_("at"), auto_now_add=True)
    rule_set_before = models.CharField(_("rule set before"), max_length=20)
    rule_set_after = models.CharField(_("rule set after"), max_length=20)
    criteria_before = models.JSONField(_("criteria before"), default=list)
    criteria_after = models.JSONField(_("criteria after"), default=list)
    reason = models.CharField(_("reason"), max_length=300)

    class Meta:
        ordering = ["-at"]
        verbose_name = _("tiebreak policy change")
        verbose_name_plural = _("tiebreak policy changes")


class Role(models.Model):
    """Who may enter results: league organisers, club secretaries, event arbiters."""

    class Kind(models.TextChoices):
        ORGANISER = "organiser", _("league organiser")
        SECRETARY = "secretary", _("club secretary")
        ARBITER = "arbiter", _("arbiter")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="roles", verbose_name=_("user")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    league = models.ForeignKey(League, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("league"))
    club = models.ForeignKey(Club, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("club"))
    event = models.ForeignKey(Event, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("event"))

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind="organiser", league__isnull=False)
                | models.Q(kind="secretary", club__isnull=False)
                | models.Q(kind="arbiter", event__isnull=False),
                name="role_has_its_scope",
            )
        ]
        verbose_name = _("role")
        verbose_name_plural = _("roles")

    def __str__(self):
        return f"{self.user} {self.get_kind_display()}"


class StandingsSnapshot(models.Model):
    """The latest computed standings of an event; written only by the recompute, newer versions only."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="snapshot", verbose_name=_("event"))
    version = models.PositiveIntegerField(_("results version"))
    computed_at = models.DateTimeField(_("computed at"))
    rules = models.CharField(_("rule set"), max_length=20)
    criteria = models.JSONField(_("criteria"), default=list)
    rows = models.JSONField(_("rows"), default=list)
    notes = models.JSONField(_("notes"), default=list)
    explanations = models.JSONField(_("explanations"), default=dict)
    duration_ms = models.PositiveIntegerField(_("duration (ms)"), default=0)

    class Meta:
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")


class IdempotentRequest(models.Model):
    """The first answer to an API POST sent with an Idempotency-Key, replayed to retries."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("user"))
    key = models.CharField(_("key"), max_length=200)
    fingerprint = models.CharField(_("request fingerprint"), max_length=64)
    status = models.PositiveSmallIntegerField(_("status"))
    body = models.JSONField(_("body"))
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once")]
        verbose_name = _("idempotent request")
        verbose_name_plural = _("idempotent requests")


from .prize_models import *  # noqa: E402,F401,F403
