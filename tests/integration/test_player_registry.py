"""The player registry: what a TRF import fills in, one player per FIDE id, never joined across leagues silently."""

import datetime

import pytest

from leagues.errors import ServiceError
from leagues.models import Player
from leagues.services.trf import event_import_trf, import_preview
from tests.factories import LeagueFactory, organiser_of
from tiebreaks.engine.model import Participant, RoundEntry, Tournament
from tiebreaks.trf import write_trf

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def _trf(*, fide_ids=("1503014", "24116068")) -> bytes:
    players = [
        Participant(
            1,
            "Carlsen, Magnus",
            2830,
            (RoundEntry("1", 2, "w"),),
            sex="m",
            title="g",
            federation="NOR",
            fide_id=fide_ids[0],
            birth="1990/11/30",
        ),
        Participant(
            2,
            "Hansen, Kari",
            1710,
            (RoundEntry("0", 1, "b"),),
            sex="w",
            title="wf",
            federation="nor",
            fide_id=fide_ids[1],
            birth="2011",
        ),
    ]
    return write_trf(
        Tournament(participants=players, total_rounds=3, name="Registry open", start_date="2026-06-01")
    ).encode()


def _import(league, slug, data, **kwargs):
    return event_import_trf(league=league, name=slug, slug=slug, data=data, user=organiser_of(league), **kwargs)


def test_import_fills_title_federation_rating_and_the_private_fields():
    _import(LeagueFactory(), "registry-open", _trf())
    magnus = Player.objects.get(fide_id=1503014)
    kari = Player.objects.get(fide_id=24116068)
    assert (magnus.title, magnus.federation, magnus.rating, magnus.birth_year, magnus.sex) == (
        "GM",
        "NOR",
        2830,
        1990,
        "m",
    )
    assert (kari.title, kari.federation, kari.birth_year) == ("WFM", "NOR", 2011)
    assert (magnus.birth_date, kari.birth_date) == (datetime.date(1990, 11, 30), None)  # the day only when known
    assert magnus.fide_profile_url == "https://ratings.fide.com/profile/1503014"


def test_same_league_reuses_the_player_without_asking():
    league = LeagueFactory()
    _import(league, "first", _trf())
    _import(league, "second", _trf())
    assert Player.objects.filter(fide_id=1503014).count() == 1
    assert Player.objects.get(fide_id=1503014).entry_set.count() == 2


def test_a_fide_id_of_another_league_is_asked_on_the_preview_and_never_joined_silently():
    _import(LeagueFactory(), "elsewhere", _trf())
    other = LeagueFactory()
    preview = import_preview(data=_trf(), league=other)
    assert [(number, name) for number, name, _player in preview.other_leagues] == [
        (1, "Carlsen, Magnus"),
        (2, "Hansen, Kari"),
    ]
    players_before = Player.objects.count()
    with pytest.raises(ServiceError) as refused:
        _import(other, "here", _trf())
    assert refused.value.code == "players_of_other_leagues"
    assert Player.objects.count() == players_before
    assert not other.events.exists()
    _import(other, "here", _trf(), same_players_confirmed=True)
    assert Player.objects.count() == players_before
    assert Player.objects.get(fide_id=1503014).entry_set.count() == 2


def test_new_fide_ids_need_no_confirmation():
    _import(LeagueFactory(), "elsewhere", _trf())
    other = LeagueFactory()
    assert import_preview(data=_trf(fide_ids=("999001", "999002")), league=other).other_leagues == []
    _import(other, "here", _trf(fide_ids=("999001", "999002")))
    assert Player.objects.count() == 4
