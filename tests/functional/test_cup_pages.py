"""A knock-out cup through the organiser's pages (draw, advance, the decider game of a level match) and its public
bracket in English and in Hebrew (right to left): lists of rounds and ties a screen reader reads in order, the team
going through said in words, the round names cups use, and the event's standings address showing the bracket."""

import re

import pytest

from leagues.models import CupTie, Event, TeamMatch
from leagues.services.match_cards import match_card_submit
from tests.factories import EntryFactory, EventFactory, TeamFactory, TeamMemberFactory, organiser_of
from tests.functional.conftest import publish_results
from tests.helpers import present

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = EventFactory(kind=Event.Kind.TEAM, system=Event.System.KNOCKOUT, rounds_count=1, boards=4)
    for number, rating in zip(range(1, 5), (2000, 2200, 2100, 1900), strict=True):
        team = TeamFactory(event=event, name=f"Rooks {number}")
        for board in range(1, 5):
            TeamMemberFactory(team=team, board_order=board)
        EntryFactory(event=event, start_number=number, player=None, team=team, rating=rating)
    return event


def _card(user, match, home_scores):
    """The organiser's card: the home team's score board by board (1, 0.5, 0); confirmed at once."""
    results = {}
    for game in match.games.order_by("board"):
        home = home_scores[game.board - 1]
        home_white = game.white_id == match.home_id
        code = "1/2-1/2" if home == 0.5 else ("1-0" if (home == 1) == home_white else "0-1")
        results[game.pk] = (code, game.version)
    match_card_submit(match_id=match.pk, results=results, user=user, expected_version=match.version)


def _text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_organiser_draws_advances_and_decides_a_level_match_on_the_pages(client, event):
    organiser = organiser_of(event.league)
    client.force_login(organiser)
    url = f"/en/manage/events/{event.slug}/cup/"
    assert url in client.get(f"/en/manage/events/{event.slug}/").content.decode()
    draw = {
        "action": "draw", "draw-seeding": "rating", "draw-first": "board_count", "draw-second": "decider",
        "draw-starts_on": "2027-03-06", "draw-days_between": "14",
    }  # fmt: skip
    assert client.post(url, draw).status_code == 302  # click 1: the draw
    # by rating: seeds 2 (2200), 3 (2100), 1 (2000), 4 (1900); seed 1 meets seed 4, seed 2 seed 3
    ties = list(CupTie.objects.filter(cup__event=event).order_by("position"))
    assert [(present(t.home).start_number, present(t.away).start_number) for t in ties] == [(2, 4), (3, 1)]
    # 2-2 and level on board count too (4 + 1 against 3 + 2): the tie waits for its decider game
    _card(organiser, ties[0].match, [1, 0, 0, 1])
    _card(organiser, ties[1].match, [0, 0, 0.5, 0.5])
    html = client.get(url).content.decode()
    assert "Decider game: Rooks 2 – Rooks 4" in html
    assert not TeamMatch.objects.filter(round__number=2, round__event=event).exists()
    prefix = f"decider-{ties[0].pk}"
    decider = {"action": prefix, f"{prefix}-white": "away",
               f"{prefix}-result": "1-0", f"{prefix}-armageddon": "on"}  # fmt: skip
    assert client.post(url, decider).status_code == 302  # click 2: the decider, which also makes the final
    card = _text(client.get(f"/en/manage/matches/{ties[0].match_id}/").content.decode())
    assert "Decider game Armageddon game (a draw counts as a win for Black): Rooks 4 White, 1-0" in card
    assert "Rooks 4 goes through" in card  # the decider is on the card
    final = TeamMatch.objects.get(round__event=event, round__number=2)
    assert (final.home.start_number, final.away.start_number) == (4, 1)  # Rooks 4 had White and won the Armageddon
    _card(organiser, final, [1, 1, 0.5, 0])  # the final's confirmed card names the winner: no click
    assert "Cup winner: <bdi>Rooks 4</bdi>" in client.get(url).content.decode()
    assert client.post(url, {"action": "advance"}).status_code == 302  # the button changes nothing now
    assert "Cup winner: <bdi>Rooks 4</bdi>" in client.get(url).content.decode()

    english = client.get(f"/en/events/{event.slug}/bracket/").content.decode()
    text = _text(english)
    assert '<ol class="bracket-ties">' in english and 'aria-labelledby="round-1"' in english
    assert "Semi-finals" in text and "Final" in text and "Cup winner: Rooks 4" in text
    assert "Rooks 4 2 goes through" in text  # the Armageddon's winner, at 2-2
    assert "Decided by: decider game" in text and "Decided by: board count" not in text
    assert "Rooks 1 3 goes through" in text  # 1 beat 3 by 3-1 in the semi-final; 4 won the final 2½-1½
    assert "Rooks 4 2.5 goes through" in text
    assert client.get(f"/en/events/{event.slug}/").content.decode().count('class="bracket-tie"') == 3
    # the teams' pages the bracket links to, with the standings computed as the recompute does
    publish_results(event)
    assert client.get(f"/en/events/{event.slug}/teams/4/").status_code == 200

    hebrew = client.get(f"/he/events/{event.slug}/bracket/").content.decode()
    assert 'dir="rtl"' in hebrew and 'lang="he"' in hebrew
    text = _text(hebrew)
    assert "חצי הגמר" in text and "גמר" in text
    assert "Rooks 4 2 עולה לשלב הבא" in text
    assert "מנצחת הגביע: Rooks 4" in text
    assert "ארמגדון" in text
