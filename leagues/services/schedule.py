"""Round-robin fixtures for team divisions: FIDE's Berger tables and the service that writes them.

* :func:`berger_schedule` is pure: the pairings of FIDE Handbook C.05 Annex 1 (Berger tables) by
  team number (1 = the first start number), home team first, read from pairings.berger (the one table
  of the individual and the team round robins).
* :func:`fixtures_generate` writes an event's rounds, team matches and board games from it.

Decisions (documented for the pages and the organisers):

* Odd number of teams: the dummy slot is number ``n + 1`` (FIDE: "the highest number counts as a
  bye"). Its pairings are left out of :func:`berger_schedule`; the team without a match in a round
  has the bye. No Game row is written for it: a free round in a round robin has no element and no
  points (tiebreak-rules §7), and a match-less Game would look like an individual bye to result
  entry. :func:`fixtures_byes` names the team with the bye in each round.
* Double round robin: the second cycle is the first with home and away swapped, in the table's
  order. As FIDE recommends for double round robins, the last two rounds of the first cycle are
  exchanged, so no team plays three matches in a row at home or away across the change of cycle.
* Board colours alternate by board; the home team has white on board 1 when
  ``event.board_one_white_for_home`` (then on boards 1, 3, 5 ...), else on boards 2, 4, 6 ...
* Players are filled in from each team's roster in board order (roster place b on board b) where
  the roster is long enough; other boards are left empty for the match card.
* Round dates: ``starts_on`` (or the event's start) plus ``days_between`` days per round; no date
  when neither is known. ``event.rounds_count`` is set to the schedule's length. The rounds' venues stay.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.db import transaction
from django.utils.translation import gettext as _

from pairings.berger import berger_round, berger_rounds

from ..errors import PermissionDenied, ServiceError
from ..models import Entry, Event, Game, Player, Result, ResultChange, Round, TeamMatch, TeamMember
from ..page_cache import pages_changed
from ..permissions import AnyUser, is_league_organiser


def berger_schedule(n_teams: int, *, double: bool = False) -> list[list[tuple[int, int]]]:
    """FIDE's Berger table (C.05 Annex 1, written once in pairings.berger) for ``n_teams`` teams: per round,
    (home, away) numbers, the table's white being the home team.

    Board order as in FIDE's table (6 teams, round 1: 1-6, 2-5, 3-4). With an odd number of teams
    the pairing with the dummy (number n_teams + 1) is left out: the team not listed has the bye.
    ``double``: a second cycle with home and away swapped; the last two rounds of the first cycle
    are exchanged (FIDE's recommendation for double round robins).
    """
    if n_teams < 2:
        raise ValueError("a round robin needs at least two teams")
    return [
        [(home, away) for home, away in berger_round(n_teams, number, double=double) if max(home, away) <= n_teams]
        for number in range(1, berger_rounds(n_teams, double=double) + 1)
    ]


def _schedule_is_played(event: Event) -> bool:
    """Any result recorded (also one reset later), or a match card beyond 'scheduled'."""
    games = Game.objects.filter(round__event=event)
    if games.exclude(result=Result.PENDING).exists():
        return True
    if ResultChange.objects.filter(game__round__event=event).exists():
        return True
    return TeamMatch.objects.filter(round__event=event).exclude(status=TeamMatch.Status.SCHEDULED).exists()


def fixtures_generate(
    *, event: Event, starts_on: date | None = None, days_between: int = 7, user: AnyUser
) -> list[Round]:
    """Write the event's round-robin schedule: rounds, team matches and their board games.

    Replaces an unplayed schedule in one transaction. Raises PermissionDenied (not the league's
    organiser or a superuser) or ServiceError, in which case nothing was written:
    ``not_team_event``, ``not_round_robin``, ``too_few_teams``, ``bad_days_between``,
    ``event_finished``, ``schedule_played`` (a result was recorded: the schedule stays).
    """
    if not is_league_organiser(user, event.league_id):
        raise PermissionDenied(_("Only the league's organisers may draw the schedule."))
    if days_between < 0:
        raise ServiceError(_("The days between rounds cannot be negative."), code="bad_days_between")
    caller_event = event
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if not event.is_team:
            raise ServiceError(_("Fixtures are drawn for team events only."), code="not_team_event")
        if event.is_knockout:
            raise ServiceError(_("A cup's matches come from its bracket, round by round."), code="knockout")
        if not event.is_round_robin:
            raise ServiceError(
                _("A Swiss event is paired round by round, not drawn in advance."), code="not_round_robin"
            )
        if event.status == Event.Status.FINISHED:
            raise ServiceError(_("The event is finished; its schedule can no longer change."), code="event_finished")
        if _schedule_is_played(event):
            raise ServiceError(
                _("Results have already been recorded; the schedule can no longer be drawn again."),
                code="schedule_played",
            )
        entries = list(
            Entry.objects.filter(event=event, team__isnull=False).select_related("team").order_by("start_number")
        )
        if len(entries) < 2:
            raise ServiceError(_("A round robin needs at least two teams."), code="too_few_teams")
        rosters = {
            entry.pk: [
                m.player
                for m in TeamMember.objects.filter(team__entry=entry).select_related("player").order_by("board_order")
            ]
            for entry in entries
        }
        schedule = berger_schedule(len(entries), double=event.system == Event.System.DOUBLE_ROUND_ROBIN)
        venues = dict(Round.objects.filter(event=event).values_list("number", "venue"))  # the organiser's, kept
        Round.objects.filter(event=event).delete()  # unplayed: its matches and games go with it
        first_day = starts_on or event.starts_on
        rounds: list[Round] = []
        games: list[Game] = []
        for number, pairs in enumerate(schedule, start=1):
            day = first_day + timedelta(days=days_between * (number - 1)) if first_day else None
            rnd = Round.objects.create(event=event, number=number, date=day, venue=venues.get(number, ""))
            rounds.append(rnd)
            for home_no, away_no in pairs:
                home, away = entries[home_no - 1], entries[away_no - 1]
                match = TeamMatch.objects.create(round=rnd, home=home, away=away)
                games.extend(board_games(event, rnd, match, home, away, rosters))
        Game.objects.bulk_create(games)
        Event.objects.filter(pk=event.pk).update(rounds_count=len(schedule))
        pages_changed(event_id=event.pk)  # the schedule is on the event's pages
    caller_event.rounds_count = len(schedule)
    return rounds


def board_games(
    event: Event, rnd: Round, match: TeamMatch, home: Entry, away: Entry, rosters: dict[int, list[Player]]
) -> list[Game]:
    out = []
    for board in range(1, event.boards + 1):
        home_player = rosters[home.pk][board - 1] if len(rosters[home.pk]) >= board else None
        away_player = rosters[away.pk][board - 1] if len(rosters[away.pk]) >= board else None
        home_white = (board % 2 == 1) == event.board_one_white_for_home
        out.append(
            Game(
                round=rnd,
                match=match,
                board=board,
                white=home if home_white else away,
                black=away if home_white else home,
                white_player=home_player if home_white else away_player,
                black_player=away_player if home_white else home_player,
            )
        )
    return out


def fixtures_byes(*, event: Event) -> dict[int, Entry]:
    """Round number -> the team entry without a match in that round (odd number of teams)."""
    entries = list(Entry.objects.filter(event=event, team__isnull=False).select_related("team"))
    playing: dict[int, set[int]] = {}
    for number, home_id, away_id in TeamMatch.objects.filter(round__event=event).values_list(
        "round__number", "home_id", "away_id"
    ):
        playing.setdefault(number, set()).update((home_id, away_id))
    byes: dict[int, Entry] = {}
    for number in Round.objects.filter(event=event).values_list("number", flat=True):
        free = [e for e in entries if e.pk not in playing.get(number, set())]
        if len(free) == 1:
            byes[number] = free[0]
    return byes
