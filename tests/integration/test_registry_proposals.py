"""Issue 35: another league's organiser can no longer fill a shared player's blank fields through a TRF import.
What the file has for a player another league keeps is a proposal: nothing is written until an organiser of a
league keeping the player accepts it on the league's players page (the proposing league cannot)."""

import pytest

from leagues.models import Player, PlayerProposal
from leagues.services.players import player_save
from leagues.services.trf import event_import_trf
from tests.factories import LeagueFactory, organiser_of
from tests.helpers import text_of
from tiebreaks.engine.model import Participant, RoundEntry, Tournament
from tiebreaks.trf import write_trf

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def _trf() -> bytes:
    players = [
        Participant(
            1, "Hansen, Kari", 1710, (RoundEntry("1", 2, "w"),), sex="w", title="wf", federation="NOR",
            fide_id="24116068", birth="2011",
        ),
        Participant(2, "Berg, Ola", 1650, (RoundEntry("0", 1, "b"),), federation="NOR", fide_id="24116070"),
    ]  # fmt: skip
    return write_trf(Tournament(participants=players, total_rounds=3, name="Open", start_date="2026-06-01")).encode()


def _kept_by_home():
    """Kari in the registry of her home league, her federation, title and birth year blank."""
    home = LeagueFactory()
    kari = player_save(
        league=home, user=organiser_of(home), fields={"name": "Hansen, Kari", "fide_id": 24116068}, club=None
    )
    return home, kari


def test_another_leagues_import_proposes_and_writes_nothing_until_the_home_league_accepts(client):
    home, kari = _kept_by_home()
    other = LeagueFactory()
    intruder = organiser_of(other)
    event_import_trf(league=other, name="Open", slug="open", data=_trf(), user=intruder, same_players_confirmed=True)
    kari.refresh_from_db()
    assert (kari.federation, kari.title, kari.birth_year) == ("", "", None)  # nothing written
    proposed = {(p.field, p.value) for p in PlayerProposal.objects.filter(player=kari, league=other)}
    assert {("federation", "NOR"), ("title", "WFM"), ("birth_year", "2011")} <= proposed

    # the other league's organiser cannot accept its own proposal
    client.force_login(intruder)
    federation = PlayerProposal.objects.get(player=kari, field="federation")
    answer = client.post(f"/en/manage/leagues/{other.slug}/players/", {"proposal": federation.pk, "decision": "accept"})
    assert answer.status_code in (302, 403)
    kari.refresh_from_db()
    assert kari.federation == ""

    # the home league's organiser sees the proposals and decides
    client.force_login(organiser_of(home))
    page = text_of(client.get(f"/en/manage/leagues/{home.slug}/players/").content.decode())
    assert "Changes proposed by other leagues" in page
    assert "Hansen, Kari" in page and "NOR" in page
    accepted = client.post(
        f"/en/manage/leagues/{home.slug}/players/", {"proposal": federation.pk, "decision": "accept"}
    )
    assert accepted.status_code == 302
    title = PlayerProposal.objects.get(player=kari, field="title")
    client.post(f"/en/manage/leagues/{home.slug}/players/", {"proposal": title.pk, "decision": "decline"})
    kari.refresh_from_db()
    assert (kari.federation, kari.title) == ("NOR", "")
    assert PlayerProposal.objects.get(pk=title.pk).status == PlayerProposal.Status.DECLINED


def test_a_player_only_the_importing_league_keeps_still_gets_its_blank_fields_from_the_file():
    home, kari = _kept_by_home()
    event_import_trf(league=home, name="Open", slug="open", data=_trf(), user=organiser_of(home))
    kari.refresh_from_db()
    assert (kari.federation, kari.title, kari.birth_year) == ("NOR", "WFM", 2011)
    assert not PlayerProposal.objects.exists()
    assert Player.objects.filter(fide_id=24116070).get().federation == "NOR"  # a new player: as in the file
