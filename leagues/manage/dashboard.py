"""What needs a secretary or an organiser now: the dashboard's reads (no writes here).

Every item links to a page the user may open: cards of the user's clubs, round sheets with a game of
the user's clubs, and, for organisers and arbiters, their events' set-up pages and disputes."""

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import date, timedelta

from django.db.models import Count, Q
from django.utils import timezone

from ..models import Event, Game, League, Result, Round, RoundPairing, TeamMatch
from ..permissions import arbitrated_event_ids, organised_league_ids, secretary_club_ids
from ..services.ranking_lists import lists_to_submit
from ..services.round_pairings import last_paired_round, pairable_round_problem


@dataclass
class Dashboard:
    results_due: list = field(default_factory=list)  # cards to submit whose round date has come
    coming: list = field(default_factory=list)  # cards of the next two weeks (deadlines)
    waiting: list = field(default_factory=list)  # (card, other team, submitted at, confirms on)
    to_confirm: list = field(default_factory=list)  # (card, confirms on)
    disputes: list = field(default_factory=list)
    sheets: list = field(default_factory=list)  # (round, games still without a result)
    managed: list = field(default_factory=list)  # events the user manages
    leagues: list = field(default_factory=list)  # leagues the user organises
    to_pair: list = field(default_factory=list)  # (event, round number) ready to be paired
    to_publish: list = field(default_factory=list)  # round pairings ready to publish
    overdue: int = 0
    rules_broken: int = 0  # open league-rule violations of the user's leagues (each league's count on it)
    ranking_lists: list = field(default_factory=list)  # (team, late nominations only, until) of the user's clubs

    @property
    def empty(self) -> bool:
        return not (
            self.results_due
            or self.waiting
            or self.to_confirm
            or self.disputes
            or self.sheets
            or self.to_pair
            or self.to_publish
            or self.rules_broken
            or self.ranking_lists
        )


def _confirms_on(match: TeamMatch):
    if match.submitted_at is None:
        raise RuntimeError("a submitted card")
    return match.submitted_at + timedelta(days=match.round.event.league.auto_confirm_days)


def dashboard_for(user, today: date | None = None) -> Dashboard:
    today = today or timezone.localdate()
    board = Dashboard()
    clubs = secretary_club_ids(user)
    live = Q(round__event__status__in=[Event.Status.PUBLISHED, Event.Status.RUNNING])
    cards = (
        TeamMatch.objects.filter(live)
        .filter(Q(home__team__club__in=clubs) | Q(away__team__club__in=clubs))
        .select_related("round__event__league", "home__team", "away__team", "submitted_by")
        .order_by("round__date", "round__number", "pk")
    )
    for match in cards:
        day = match.round.date
        due = day is None or day <= today
        if match.status == TeamMatch.Status.SCHEDULED:
            if due:
                board.results_due.append(match)
            elif day is not None and day <= today + timedelta(days=14):
                board.coming.append(match)
        elif match.status == TeamMatch.Status.SUBMITTED:
            submitter_clubs = secretary_club_ids(match.submitted_by)
            home, away = match.home.team, match.away.team
            if not (home is not None and away is not None):
                raise RuntimeError("a match is between two teams")
            ours = clubs & {home.club_id, away.club_id}
            if ours & submitter_clubs:
                other = match.away if home.club_id in submitter_clubs else match.home
                board.waiting.append((match, other, match.submitted_at, _confirms_on(match)))
            else:
                board.to_confirm.append((match, _confirms_on(match)))
        elif match.status == TeamMatch.Status.DISPUTED:
            board.disputes.append(match)
    organised, arbitrated = organised_league_ids(user), arbitrated_event_ids(user)
    managed = (
        Event.objects.all()
        if user.is_superuser
        else Event.objects.filter(Q(league__in=organised) | Q(pk__in=arbitrated))
    )
    board.managed = list(managed.select_related("league", "season").prefetch_related("rounds"))
    leagues = League.objects.all() if user.is_superuser else League.objects.filter(pk__in=organised)
    broken = Count(
        "events__rounds__matches__rule_violations", filter=Q(events__rounds__matches__rule_violations__status="open")
    )
    board.leagues = list(leagues.annotate(rules_broken=broken))
    board.rules_broken = sum(league.rules_broken for league in board.leagues)
    managed_ids = [e.pk for e in board.managed]
    for match in (
        TeamMatch.objects.filter(round__event__in=managed_ids, status=TeamMatch.Status.DISPUTED)
        .exclude(pk__in=[m.pk for m in board.disputes])
        .select_related("round__event__league", "home__team", "away__team")
    ):
        board.disputes.append(match)
    board.overdue = overdue_cards(managed_ids, today).count()
    board.to_pair, board.to_publish = rounds_to_pair_and_publish(board.managed, organised, user)
    # individual events: rounds with a game of the user's clubs (or of a managed event) still to enter
    pending = (
        Game.objects.filter(
            match__isnull=True,
            result=Result.PENDING,
            round__event__status__in=[Event.Status.PUBLISHED, Event.Status.RUNNING],
        )
        .filter(Q(round__event__in=managed_ids) | Q(white__player__clubs__in=clubs) | Q(black__player__clubs__in=clubs))
        .values_list("round_id", flat=True)
    )
    counts: dict[int, int] = {}
    for round_id in pending:
        counts[round_id] = counts.get(round_id, 0) + 1
    rounds = Round.objects.filter(pk__in=counts).select_related("event").order_by("event__name", "number")
    board.sheets = [(rnd, counts[rnd.pk]) for rnd in rounds if rnd.date is None or rnd.date <= today]
    for team in lists_to_submit(user, today):
        season = team.event.season
        # the teams of a season with both days (lists_to_submit)
        if not (season is not None and season.ranking_deadline is not None and season.nomination_deadline is not None):
            raise RuntimeError("lists_to_submit gives teams of a season with both deadlines")
        late = season.ranking_deadline < today  # after the day the lists were due: late nominations only
        board.ranking_lists.append((team, late, season.nomination_deadline if late else season.ranking_deadline))
    return board


def rounds_to_pair_and_publish(managed: list[Event], organised: Collection[int], user) -> tuple[list, list]:
    """The rounds of the Swiss and round-robin events (team Swiss included: a team round robin has its
    schedule) the user organises that can be paired now (the next round, once the rounds before have their
    results), and the pairings ready to publish."""
    events = [
        e
        for e in managed
        if not (e.is_team and e.system != Event.System.SWISS)
        and e.status in (Event.Status.PUBLISHED, Event.Status.RUNNING)
        and (user.is_superuser or e.league_id in organised)
    ]
    ready = {
        p.round.event_id: p
        for p in RoundPairing.objects.filter(round__event__in=events)
        .exclude(status__in=[RoundPairing.Status.PUBLISHED, RoundPairing.Status.FAILED])
        .select_related("round")
    }
    to_pair, to_publish = [], []
    for event in events:
        pairing = ready.get(event.pk)
        if pairing is not None:
            if pairing.status == RoundPairing.Status.READY:
                to_publish.append((event, pairing.round.number))
            continue  # being paired
        number = last_paired_round(event) + 1
        if number <= event.rounds_count and pairable_round_problem(event, number) is None:
            to_pair.append((event, number))
    return to_pair, to_publish


def overdue_cards(event_ids, today: date):
    """Cards whose round date is more than a day past with no card submitted."""
    return TeamMatch.objects.filter(
        round__event__in=event_ids,
        round__event__status__in=[Event.Status.PUBLISHED, Event.Status.RUNNING],
        status=TeamMatch.Status.SCHEDULED,
        round__date__lt=today - timedelta(days=1),
    )
