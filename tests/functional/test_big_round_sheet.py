"""A big open's round sheet saves: 1,000 players are 500 boards, a result and a version each, with the form's token
and reason 1,002 fields, more than Django reads from a form by default (1,000: issue #30, the sheet was refused
with a bare 400 and everything typed was lost). Forms of anonymous visitors keep Django's limit."""

import re
from html import unescape
from urllib.parse import urlencode

import pytest
from django.test import Client

from leagues.models import Entry, Game, Player, Result, Round
from tests.factories import EventFactory, organiser_of
from tests.helpers import search

pytestmark = pytest.mark.django_db

BOARDS = 500


@pytest.fixture
def big_open():
    """A 1,000-player open, round 1 paired: 500 boards, nothing played yet."""
    event = EventFactory(name="Big Open", slug="big-open", rounds_count=9)
    players = Player.objects.bulk_create(Player(name=f"Player, Number{n}", rating=2400 - n) for n in range(2 * BOARDS))
    entries = Entry.objects.bulk_create(
        Entry(event=event, start_number=n + 1, player=player, rating=player.rating) for n, player in enumerate(players)
    )
    rnd = Round.objects.create(event=event, number=1)
    Game.objects.bulk_create(
        Game(round=rnd, board=b + 1, white=entries[b], black=entries[b + BOARDS]) for b in range(BOARDS)
    )
    return event


def _sheet_fields(html):
    """The fields the sheet's form sends as a browser sends them: hidden inputs, the reason, each result select."""
    form = search(r'<form method="post"[^>]*>(.*?)</form>', html, re.S).group(1)
    fields = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name:
            fields[name.group(1)] = unescape(value.group(1)) if value else ""
    for name in re.findall(r'<select[^>]*name="(result_\d+)"', form):
        fields[name] = ""
    return fields


def test_a_500_board_round_sheet_saves_every_result(big_open):
    organiser = organiser_of(big_open.league)
    browser = Client(enforce_csrf_checks=True)  # the token is read from the form, as the site reads it
    browser.force_login(organiser)
    sheet = f"/en/manage/events/{big_open.slug}/rounds/1/"
    fields = _sheet_fields(browser.get(sheet).content.decode())
    results = [name for name in fields if name.startswith("result_")]
    assert len(results) == BOARDS and len(fields) == 2 * BOARDS + 2  # token and reason
    games = {g.pk: g.board for g in Game.objects.filter(round__event=big_open)}
    for name in results:
        fields[name] = Result.WHITE_WINS if games[int(name.removeprefix("result_"))] % 2 else Result.DRAW

    answer = browser.post(sheet, urlencode(fields), content_type="application/x-www-form-urlencoded")  # as browsers

    assert answer.status_code == 302 and answer["Location"] == sheet
    saved = dict(Game.objects.filter(round__event=big_open).values_list("board", "result"))
    assert saved == {b: Result.WHITE_WINS if b % 2 else Result.DRAW for b in range(1, BOARDS + 1)}
    assert "Round saved." in browser.get(sheet).content.decode()


def test_anonymous_forms_keep_djangos_limit_of_fields(big_open):
    visitor = Client(enforce_csrf_checks=True)  # as a browser: the token is looked for in the form
    visitor.get("/en/accounts/login/")  # the form's token, in its cookie
    many = {f"field_{n}": "x" for n in range(1001)} | {"csrfmiddlewaretoken": visitor.cookies["csrftoken"].value}
    assert visitor.post("/en/accounts/login/", many).status_code == 400
    assert visitor.post(f"/en/manage/events/{big_open.slug}/rounds/1/", many).status_code == 400
