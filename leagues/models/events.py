"""Events and their participants: an event's teams and rosters, entries (a player or a team) and rounds."""

from decimal import Decimal
from typing import ClassVar

from django.db import models
from django.utils.translation import gettext_lazy as _

from .league import Club, League, Player, Season


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
        KNOCKOUT = "ko", _("knock-out cup")

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
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    time_control = models.CharField(_("time control"), max_length=100, blank=True, help_text=_("E.g. 90 min + 30 s"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    # game scoring (TRF 162) and, for team events, match points (TRF 362)
    points_win = models.DecimalField(_("points for a win"), max_digits=4, decimal_places=2, default=Decimal("1"))
    points_draw = models.DecimalField(_("points for a draw"), max_digits=4, decimal_places=2, default=Decimal("0.5"))
    points_loss = models.DecimalField(_("points for a loss"), max_digits=4, decimal_places=2, default=Decimal("0"))
    # what an imported TRF file gives (162's A and X, JaVaFo's BBZ/BBF): FIDE counts 0 and a draw
    points_absence = models.DecimalField(
        _("points for a zero-point bye or a forfeit loss"), max_digits=4, decimal_places=2, default=Decimal("0")
    )
    points_unknown = models.DecimalField(
        _("points for a result not known"),
        max_digits=4,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("Empty: a draw."),
    )
    match_points_win = models.DecimalField(_("match points for a win"), max_digits=4, decimal_places=2, default=2)
    match_points_draw = models.DecimalField(_("match points for a draw"), max_digits=4, decimal_places=2, default=1)
    match_points_loss = models.DecimalField(_("match points for a loss"), max_digits=4, decimal_places=2, default=0)
    primary_score = models.CharField(
        _("primary score"), max_length=2, choices=PrimaryScore.choices, default=PrimaryScore.MATCH_POINTS
    )
    boards = models.PositiveSmallIntegerField(_("boards per match"), default=4)
    board_one_white_for_home = models.BooleanField(_("home team has white on board 1"), default=True)
    # FIDE's Baku acceleration (C.04.5): the top group gets virtual points in the first rounds' pairings
    baku_acceleration = models.BooleanField(
        _("Baku acceleration"),
        default=False,
        help_text=_(
            "Swiss events: in the first half of the rounds the top half of the field is paired with virtual "
            "points, so the leaders meet sooner (FIDE C.04.5)."
        ),
    )
    # FIDE mode (FIDE's 2026 checklist for tournament programs): on by default, the site refuses what FIDE calls a
    # hard failure (a scoring other than 1/½/0, a bye worth other than a win or a draw, settings changed after the
    # start); left with a confirmation and a reason (leagues/services/fide_mode.py), recorded, never turned on again
    fide_mode = models.BooleanField(
        _("FIDE mode"),
        default=True,
        help_text=_(
            "The site refuses what FIDE's rules for tournament programs call a hard failure. Leaving FIDE mode is "
            "recorded and cannot be undone."
        ),
    )
    # tiebreak policy: a named rule set and the ordered criteria, locked from the first result (C.07 4.1)
    rule_set = models.CharField(_("tiebreak rule set"), max_length=20, default="fide-2026")
    tiebreak_criteria = models.JSONField(_("tiebreak criteria"), default=list, blank=True)
    tiebreak_locked = models.BooleanField(_("tiebreak policy locked"), default=False)
    unrated_rating = models.PositiveSmallIntegerField(_("rating for unrated players"), null=True, blank=True)
    # decisions beyond the tie-break list (FIDE 2026 checklist Q205/207, services/tiebreak_decisions.py): orders of
    # players still tied after the whole list, each {"entries": [entry ids, first to last], "reason", "by"
    # ("chief_arbiter" or "organiser"), "on" (ISO date), "who"}; and play-offs deciding places before the tie-breaks,
    # each {"place", "games": [{"white", "black" (entry ids), "result" ("1-0", "0-1", "1/2"), "armageddon"}]} -
    # not rounds of the event: they count for no points and no tie-break
    tiebreak_decisions = models.JSONField(_("orders of players still tied"), default=list, blank=True)
    playoffs = models.JSONField(_("play-offs"), default=list, blank=True)
    # values of a criterion set from outside the computation, each {"entry", "criterion", "value" (a fraction as
    # text, "5/2"), "reason", "by", "on", "who"}: the standings use them in place of the computed ones
    tiebreak_external = models.JSONField(_("tie-break values set from outside"), default=list, blank=True)

    class RatingMethod(models.TextChoices):
        """Which of a player's ratings the event uses (TRF-26 record 172; FIDE's 2026 checklist)."""

        FIDE = "FIDE", _("FIDE rating")
        NRO = "NRO", _("national rating")
        FIDON = "FIDON", _("FIDE rating, else national rating")
        NIDOF = "NIDOF", _("national rating, else FIDE rating")
        HBFN = "HBFN", _("the higher of FIDE and national rating")
        LBFN = "LBFN", _("the lower of FIDE and national rating")

    rating_method = models.CharField(
        _("rating method"),
        max_length=5,
        choices=RatingMethod.choices,
        default=RatingMethod.FIDE,
        help_text=_("Which of a player's ratings the event takes from the registry."),
    )

    class TiebreakRatings(models.TextChoices):
        """Which rating the rating-based tie-breaks read when a newer rating list appears during the event."""

        FIRST = "first", _("the first rating (at the start of the event)")
        ROUND = "round", _("the rating of each round")

    # C.07 (2026), note to Article 10: the first rating unless the regulations say otherwise
    tiebreak_ratings = models.CharField(
        _("ratings in rating-based tie-breaks"),
        max_length=5,
        choices=TiebreakRatings.choices,
        default=TiebreakRatings.FIRST,
        help_text=_(
            "FIDE uses each player's first rating unless the event's regulations say otherwise; with the rating "
            "of each round, an opponent counts with the rating they had in the round you met."
        ),
    )
    results_version = models.PositiveIntegerField(_("results version"), default=0, editable=False)
    # an event with results is archived, never deleted: its pages stay readable, the lists no longer show it
    archived = models.BooleanField(_("archived"), default=False)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering: ClassVar[list[str]] = ["-starts_on", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self):
        return self.name

    @property
    def is_team(self) -> bool:
        return self.kind == self.Kind.TEAM

    @property
    def is_round_robin(self) -> bool:
        return self.system in (self.System.ROUND_ROBIN, self.System.DOUBLE_ROUND_ROBIN)

    @property
    def is_knockout(self) -> bool:
        """A knock-out cup (single elimination, leagues/services/cups.py): neither paired nor a round robin; its
        standings are its bracket."""
        return self.system == self.System.KNOCKOUT

    @property
    def policy_locked(self) -> bool:
        """The tiebreak policy is locked (C.07 4.1) once a game has its result, and when the event is finished.
        A bye (given by the pairing or asked for) is no game: it sets ``tiebreak_locked`` as any result does,
        but the order may still change freely until the first game's result."""
        if self.status == self.Status.FINISHED:
            return True
        if not self.tiebreak_locked or self.pk is None:
            return False
        games = models.Q(games__black__isnull=False) | models.Q(games__match__isnull=False)
        return self.rounds.filter(games, games__result__gt="").exists()


class Team(models.Model):
    """A club's team in a team event, e.g. "Oslo SK 2"."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams", verbose_name=_("event"))
    club = models.ForeignKey(Club, on_delete=models.RESTRICT, related_name="teams", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=200)

    class Meta:
        ordering: ClassVar[list[str]] = ["name"]
        constraints = (models.UniqueConstraint(fields=["event", "name"], name="team_name_per_event"),)
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
        ordering: ClassVar[list[str]] = ["team", "board_order"]
        constraints = (
            models.UniqueConstraint(fields=["team", "board_order"], name="roster_board_once"),
            models.UniqueConstraint(fields=["team", "player"], name="roster_player_once"),
        )
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
    # the pairing never gives this player the pairing-allocated bye (FIDE 2026 checklist)
    bye_ineligible = models.BooleanField(_("not eligible for the pairing-allocated bye"), default=False)
    # a half-point bye this player asks for is refused (a free entry, the event's conditions: FIDE 2026 checklist)
    half_bye_ineligible = models.BooleanField(_("not eligible for a half-point bye"), default=False)
    club_display: Club | None  # the entry's club, set by selectors.entries_with_clubs (not a column)

    class Meta:
        ordering: ClassVar[list[str]] = ["event", "start_number"]
        constraints = (
            models.UniqueConstraint(fields=["event", "start_number"], name="start_number_once"),
            models.UniqueConstraint(fields=["event", "player"], name="player_once_per_event"),
            models.CheckConstraint(
                condition=models.Q(player__isnull=False, team__isnull=True)
                | models.Q(player__isnull=True, team__isnull=False),
                name="entry_is_player_or_team",
            ),
        )
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self):
        return str(self.player or self.team)

    @property
    def name(self) -> str:
        if self.player is not None:
            return self.player.public_name
        if self.team is None:
            raise RuntimeError("an entry is a player's or a team's")
        return self.team.name


class EntryRating(models.Model):
    """An entry's rating from a round on, when a newer rating list appears during the event (a league's season):
    the entry's ``rating`` holds until the first of these rows (FIDE's 2026 checklist: ratings per round)."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="round_ratings", verbose_name=_("entry"))
    from_round = models.PositiveSmallIntegerField(_("from round"))
    rating = models.PositiveSmallIntegerField(_("rating"), null=True, blank=True)  # None: unrated from then on
    list_date = models.DateField(_("rating list of"), null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["entry", "from_round"]
        constraints = (
            models.UniqueConstraint(fields=["entry", "from_round"], name="entry_rating_once_per_round"),
            models.CheckConstraint(condition=models.Q(from_round__gte=2), name="entry_rating_from_round_two"),
        )
        verbose_name = _("rating from a round on")
        verbose_name_plural = _("ratings from a round on")


class MemberRating(models.Model):
    """A team event's player's rating from a round on (FIDE's 2026 checklist: ratings per round, for the boards'
    players): from round 1 the rating at the start, recorded with the roster; a later round's when a newer rating
    list applied during the season. Kept per event and player, so a roster change keeps it."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="member_ratings", verbose_name=_("event"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player"))
    from_round = models.PositiveSmallIntegerField(_("from round"))
    rating = models.PositiveSmallIntegerField(_("rating"), null=True, blank=True)  # None: unrated from then on
    list_date = models.DateField(_("rating list of"), null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["event", "player", "from_round"]
        constraints = (
            models.UniqueConstraint(fields=["event", "player", "from_round"], name="member_rating_once_per_round"),
            models.CheckConstraint(condition=models.Q(from_round__gte=1), name="member_rating_from_round_one"),
        )
        verbose_name = _("team player's rating from a round on")
        verbose_name_plural = _("team players' ratings from a round on")


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("event"))
    number = models.PositiveSmallIntegerField(_("number"))
    date = models.DateField(_("date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True, help_text=_("Empty: the event's venue."))
    start_time = models.TimeField(_("start time"), null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["event", "number"]
        constraints = (models.UniqueConstraint(fields=["event", "number"], name="round_once"),)
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self):
        return f"{self.event} R{self.number}"

    @property
    def place(self) -> str:
        """Where the round is played: its own venue, else the event's."""
        return self.venue or self.event.venue
