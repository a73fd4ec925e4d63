"""Fixtures for page tests: the demo league (loaded once per module) and a small event built by hand."""

import pytest
from django.core.management import call_command

from leagues.models import Entry, Event, Game, Result, Round
from leagues.recompute import store_snapshot
from tests.factories import ClubFactory, EventFactory, PlayerFactory
from tests.helpers import engine_snapshot

LANGUAGES = ["en", "el", "tr", "he", "nb"]


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    from django.contrib.auth.models import User

    from leagues.models import Club, League, Player

    with django_db_blocker.unblock():
        before = {model: set(model.objects.values_list("pk", flat=True)) for model in (Player, Club, User)}
        call_command("load_demo", stdout=open("/dev/null", "w"))
    yield
    with django_db_blocker.unblock():  # the next module of this process finds the database as it was
        League.objects.filter(slug="demo-league").delete()
        for model, kept in before.items():
            model.objects.exclude(pk__in=kept).delete()


def record(event, number, board, white, black, result):
    rnd, _ = Round.objects.get_or_create(event=event, number=number)
    return Game.objects.create(round=rnd, board=board, white=white, black=black, result=result)


def publish_results(event):
    """What the services and the recompute do after a result: bump the version, compute, store the
    snapshot (the recompute's own transaction settings cannot run inside a test's transaction)."""
    Event.objects.filter(pk=event.pk).update(results_version=event.results_version + 1)
    event.refresh_from_db()
    store_snapshot(event.pk, event.results_version, engine_snapshot(event), 0)


@pytest.fixture
def bye_event(db):
    """Three rounds, four players, worked out by hand:

    R1  P1–P2 1-0   P3–P4 1-0
    R2  P1–P3 1-0   P2–P4 ½-½
    R3  P1 half-point bye   P2–P3 1-0   P4 pairing-allocated bye

    Scores: P1 2½, P2 1½, P3 1, P4 1½. P1's Buchholz: P2 1½ + P3 1 + a dummy for the bye, P1's own
    2½ capped at ½ × 3 rounds = 1½ (16.4.2), so BH = 4. Cut-1 removes the dummy (a voluntary
    unplayed round, 16.5) although P3's 1 is lower: BH/C1 = 2½.
    P2 (1½): P1 2½ + P4 1½ + P3 1 = BH 5, BH/C1 4.  P4 (1½): P3 1 + P2 1½ + PAB dummy
    min(1½, 1½) = 1½: BH 4, BH/C1 3 (the PAB is no voluntary round: the plain lowest, 1, goes).
    So P2 is above P4 by BH/C1, 4 to 3.
    """
    club = ClubFactory(name="Fjord Chess Club", slug="fjord")
    event = EventFactory(name="Bye Cup", slug="bye-cup", rounds_count=3, tiebreak_criteria=["BH/C1", "BH", "SB"])
    names = ["Aas, Per", "Bakke, Kari", "Dahl, Ola", "Eide, Liv"]
    entries = []
    for number, name in enumerate(names, start=1):
        player = PlayerFactory(name=name)
        player.clubmembership_set.create(club=club)
        entries.append(Entry.objects.create(event=event, start_number=number, player=player, rating=player.rating))
    p1, p2, p3, p4 = entries
    record(event, 1, 1, p1, p2, Result.WHITE_WINS)
    record(event, 1, 2, p3, p4, Result.WHITE_WINS)
    record(event, 2, 1, p1, p3, Result.WHITE_WINS)
    record(event, 2, 2, p2, p4, Result.DRAW)
    record(event, 3, 1, p2, p3, Result.WHITE_WINS)
    record(event, 3, 2, p1, None, Result.HALF_POINT_BYE)
    record(event, 3, 3, p4, None, Result.PAIRING_BYE)
    publish_results(event)
    return event
