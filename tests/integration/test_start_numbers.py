"""Start numbers of an individual Swiss event follow FIDE's initial ranking (C.04.2: rating, then title,
then name) until round 1 is published, whatever order the players were registered in; round 1 then pairs
the top half against the bottom half. After round 1 numbers stay and a late entry takes the next one."""

import pytest
from django.db.models import F

from leagues.errors import ServiceError
from leagues.models import Entry, Event, Game, PairingSettings, RoundPairing
from leagues.services.entries import entry_rating_set, entry_register, entry_remove
from leagues.services.players import player_save
from leagues.services.round_pairings import bye_request, pairing_publish, round_pair
from leagues.services.start_numbers import start_numbers_sort
from tests.factories import ClubFactory, EventFactory, PlayerFactory, organiser_of
from tests.helpers import present

pytestmark = pytest.mark.django_db

# (name, title, rating) in the initial ranking's order; registered below in another order
FIELD = [
    ("Carlsen, Ola", "", 2380),
    ("Berg, Anna", "IM", 2210),  # same rating: the IM before the FM and the untitled players
    ("Aas, Per", "FM", 2210),
    ("Dahl, Eva", "", 2210),  # same rating, no title: alphabetically
    ("Ødegård, Lise", "", 2210),
    ("Ebbesen, Tor", "WGM", 2050),
    ("Foss, Kari", "", 1690),
    ("Grønn, Nils", "", None),  # unrated, the event announces no rating for them: last
]
TYPED = [6, 0, 7, 3, 5, 1, 4, 2]  # the order the organiser typed them in


def _register(event, user, club, order=TYPED):
    for index in order:
        name, title, rating = FIELD[index]
        player = PlayerFactory(name=name, title=title, rating=rating)
        player.clubmembership_set.create(club=club)
        entry_register(event=event, user=user, player=player)


def _event(system=Event.System.SWISS):
    event = EventFactory(rounds_count=5, system=system)
    club = ClubFactory()
    event.league.clubs.add(club)
    return event, organiser_of(event.league), club


def _numbers(event):
    return [
        present(e.player).name
        for e in Entry.objects.filter(event=event).select_related("player").order_by("start_number")
    ]


def _pair(event, user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        pairing = round_pair(event=event, round_number=1, user=user)
    pairing.refresh_from_db()
    assert pairing.status == RoundPairing.Status.READY, pairing.problem
    return pairing


def test_players_typed_in_any_order_are_numbered_by_the_initial_ranking_and_round_one_pairs_halves(
    django_capture_on_commit_callbacks,
):
    event, user, club = _event()
    _register(event, user, club)
    assert _numbers(event) == [name for name, _title, _rating in FIELD]
    pairing = _pair(event, user, django_capture_on_commit_callbacks)
    # FIDE Dutch, round 1: seed k of the top half meets seed k + N/2; board 1 is seed 1 against seed 5
    assert [sorted(board) for board in pairing.boards] == [[1, 5], [2, 6], [3, 7], [4, 8]]
    names = dict(Entry.objects.filter(event=event).values_list("start_number", "player__name"))
    assert {names[n] for n in pairing.boards[0]} == {"Carlsen, Ola", "Ødegård, Lise"}
    top_eight_meetings = [b for b in pairing.boards if max(b) <= 4]
    assert top_eight_meetings == []  # no two of the top half meet in round 1


def test_an_announced_rating_for_unrated_players_places_them_by_it():
    event, user, club = _event()
    Event.objects.filter(pk=event.pk).update(unrated_rating=2000)
    event.refresh_from_db()
    _register(event, user, club)
    assert _numbers(event)[-2:] == ["Grønn, Nils", "Foss, Kari"]  # 2000 (announced) above 1690


def test_a_corrected_rating_re_sorts_before_round_one_and_the_numbers_keep_byes_and_forbidden_pairs():
    event, user, club = _event()
    _register(event, user, club)
    entries = {present(e.player).name: e for e in Entry.objects.filter(event=event).select_related("player")}
    foss, carlsen = entries["Foss, Kari"], entries["Carlsen, Ola"]
    PairingSettings.objects.create(event=event, forbidden_pairs=[[foss.start_number, carlsen.start_number]])
    bye_request(event=event, round_number=1, entry=foss, kind="half", user=user)
    player_save(league=event.league, user=user, fields={"rating": 2500}, club=None, player=foss.player)
    assert _numbers(event)[0] == "Foss, Kari"
    foss.refresh_from_db()
    carlsen.refresh_from_db()
    assert (foss.start_number, foss.rating, carlsen.start_number) == (1, 2500, 2)
    assert PairingSettings.objects.get(event=event).forbidden_pairs == [[1, 2]]
    bye = Game.objects.get(round__event=event, black__isnull=True)
    assert (bye.white_id, bye.board) == (foss.pk, 10001)


def test_the_organiser_re_sorts_before_round_one_and_is_refused_after(django_capture_on_commit_callbacks):
    event, user, club = _event()
    _register(event, user, club)
    # numbers typed by hand elsewhere (e.g. the admin): the button puts them back in the ranking's order
    entries = list(Entry.objects.filter(event=event).order_by("start_number"))
    Entry.objects.filter(event=event).update(start_number=F("start_number") + 100)  # out of the way, then reversed
    for number, entry in enumerate(reversed(entries), start=1):
        Entry.objects.filter(pk=entry.pk).update(start_number=number)
    assert _numbers(event)[0] == "Grønn, Nils"
    sorted_entries = start_numbers_sort(event=event, user=user)
    assert [present(e.player).name for e in sorted_entries] == [name for name, _t, _r in FIELD]
    assert _numbers(event) == [name for name, _t, _r in FIELD]
    pairing_publish(pairing=_pair(event, user, django_capture_on_commit_callbacks), user=user)
    with pytest.raises(ServiceError) as refused:
        start_numbers_sort(event=event, user=user)
    assert refused.value.code == "round_one_published"


def test_a_late_entry_takes_the_next_number_and_nobody_else_moves(django_capture_on_commit_callbacks):
    event, user, club = _event()
    _register(event, user, club)
    pairing_publish(pairing=_pair(event, user, django_capture_on_commit_callbacks), user=user)
    before = _numbers(event)
    late = PlayerFactory(name="Aaberg, Top", title="GM", rating=2600)
    late.clubmembership_set.create(club=club)
    entry = entry_register(event=event, user=user, player=late)
    assert entry.start_number == 9  # C.04.2: numbers given are kept; the late entry is numbered after them
    assert _numbers(event) == [*before, "Aaberg, Top"]
    assert before == [name for name, _t, _r in FIELD]


def test_a_round_robin_keeps_the_order_of_registration():
    event, user, club = _event(system=Event.System.ROUND_ROBIN)
    _register(event, user, club)
    assert _numbers(event) == [FIELD[i][0] for i in TYPED]
    with pytest.raises(ServiceError) as refused:
        start_numbers_sort(event=event, user=user)
    assert refused.value.code == "not_swiss"


def test_a_rating_at_start_corrected_or_a_player_taken_off_renumbers_until_round_one(
    django_capture_on_commit_callbacks,
):
    event, user, club = _event()
    _register(event, user, club)
    entries = {present(e.player).name: e for e in Entry.objects.filter(event=event).select_related("player")}
    assert entry_rating_set(entry=entries["Foss, Kari"], user=user, rating=2300).start_number == 2
    assert _numbers(event)[:3] == ["Carlsen, Ola", "Foss, Kari", "Berg, Anna"]
    entry_remove(entry=entries["Carlsen, Ola"], user=user)
    assert _numbers(event) == ["Foss, Kari", *[name for name, _t, _r in FIELD[1:6]], "Grønn, Nils"]
    assert sorted(Entry.objects.filter(event=event).values_list("start_number", flat=True)) == list(range(1, 8))
    pairing_publish(pairing=_pair(event, user, django_capture_on_commit_callbacks), user=user)
    before = _numbers(event)
    entry_rating_set(entry=entries["Grønn, Nils"], user=user, rating=2500)  # a correction after round 1
    assert _numbers(event) == before  # numbers stay
    with pytest.raises(ServiceError) as refused:
        entry_remove(entry=entries["Foss, Kari"], user=user)
    assert refused.value.code == "round_one_published"
    assert _numbers(event) == before
