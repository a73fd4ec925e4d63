"""The import preview of real files (tests/fixtures/real-trf, see SOURCES.md): how each dialect was read, in the
organiser's language; a points column that differs from the results is imported only when the organiser accepts."""

import hashlib
import html

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from leagues.models import Event
from tests.factories import LeagueFactory, organiser_of
from tests.paths import TESTS

pytestmark = pytest.mark.django_db
REAL = TESTS / "fixtures" / "real-trf"

#: a real file for every kind of note, and a sentence of that note in English and in Greek
NOTES = [
    # ### comments kept; 052 02/10/2010 (2010-02-10 would end before the start); byes entered for round 5
    (
        "javafo-trfx-sample2.trf",
        [
            "Records ### are kept as written",
            "The end date “02/10/2010” is read as 2010-10-02: its other reading, 2010-02-10, is before the start date.",
            "after round 4 of 9",
            "wait for its pairing",
        ],
        ["διατηρούνται όπως γράφτηκαν", "διαβάζεται ως 2010-10-02", "μετά τον γύρο 4 από 9"],
    ),
    # 0000 - + of player 1 in round 1; byes written as a blank result
    (
        "icu-bunratty_major_2011.trf",
        [
            "Round 1, player 1: “+” without an opponent is read as an unplayed win (full-point bye).",
            "the points column makes it a half-point bye",
        ],
        ["χωρίς αντίπαλο διαβάζεται ως", "ρεπό μισού βαθμού"],
    ),
    # 153 - - / 13 - +
    ("swiss-chess-karl-mala-2005.trf", ["the forfeit between players 13 and 153 has no colours"], ["χωρίς χρώματα"]),
]


@pytest.fixture
def page(client):
    league = LeagueFactory()
    client.force_login(organiser_of(league))
    return client, league


def upload(client, league, data, lang="en"):
    file = SimpleUploadedFile("event.trf", data)
    url = f"/{lang}/manage/leagues/{league.slug}/import/"
    return client.post(url, {"name": "Real event", "slug": "real-event", "file": file})


@pytest.mark.parametrize(("name", "english", "greek"), NOTES, ids=[n for n, _, _ in NOTES])
def test_the_preview_says_how_a_real_file_was_read_in_the_organisers_language(page, name, english, greek):
    client, league = page
    data = (REAL / name).read_bytes()
    body = html.unescape(upload(client, league, data).content.decode())
    assert "How the file was read" in body
    for sentence in english:
        assert sentence in body
    body = html.unescape(upload(client, league, data, lang="el").content.decode())
    for sentence in greek:
        assert sentence in body
    for sentence in english:
        assert sentence not in body


def test_a_wrong_points_column_is_imported_only_when_the_organiser_accepts_it(page):
    client, league = page
    data = (REAL / "icu-bunratty_challengers_2011.trf").read_bytes()
    line = next(n for n, text in enumerate(data.split(b"\n"), 1) if text.startswith(b"001   32"))
    preview = upload(client, league, data)
    body = html.unescape(preview.content.decode())
    assert preview.status_code == 200
    assert f"Line {line}:" in body
    assert "Player 32 (O'Flaherty, Kevin) has 1.5 in the points column, but the results add up to 1." in body
    assert 'name="accept_points_column"' in body
    digest = hashlib.sha256(data).hexdigest()
    url = f"/en/manage/leagues/{league.slug}/import/"
    refused = client.post(url, {"confirm": "1", "publish": "1", "digest": digest})
    assert refused.status_code == 400 and not Event.objects.filter(slug="real-event").exists()
    assert "Accept the points columns" in html.unescape(refused.content.decode())
    assert 'name="accept_points_column"' in refused.content.decode()  # asked again, on the same preview
    done = client.post(url, {"confirm": "1", "publish": "1", "digest": digest, "accept_points_column": "1"})
    assert done.status_code == 302
    event = Event.objects.get(slug="real-event")
    assert event.entries.count() == 63


BAD_FILES = [
    b"",
    b"\xff\xfe\x00\x00garbage",
    b"001    1 m    Solo, Player                      1800 NOR    12345678 1990/01/01  1.0    1     2 w 1\n",
    b"012 Only a name\n042 32/13/2020\n",
    b"001    1      A                                 1800                          9.5    1  0000 - +\n" * 3,
    b"001 abcd\x00\r\n142 x\r\n",
]


@pytest.mark.parametrize("data", BAD_FILES)
def test_a_bad_file_never_answers_an_error_and_saves_nothing(page, data):
    client, league = page
    response = upload(client, league, data)
    assert response.status_code in (200, 400)
    assert not Event.objects.filter(slug="real-event").exists()
    if response.status_code == 400:
        assert (
            "Nothing has been saved" in html.unescape(response.content.decode()) or "file" in response.content.decode()
        )
