"""Open data: Chess-JSON that gacrux reads back, TRF, standings and crosstables as CSV and XLSX, a season's
zip; CORS for reads only; ETag / 304 on reads; rate-limit headers; cursor pages for the big lists."""

import csv
import io
import json
import zipfile

import pytest
from gacrux.chessjson import chessjson
from openpyxl import load_workbook
from rest_framework.test import APIClient

from leagues.models import Player, Result, Season
from leagues.services.results import result_record
from leagues.services.tokens import api_token_create
from tests.factories import organiser_of, swiss_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def played_round_one():
    event, entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser)
    result_record(game_id=games[1].pk, result=Result.DRAW, user=organiser)
    return event, entries, games


def test_chess_json_is_read_back_by_gacrux_with_every_player_and_result():
    event, entries, games = played_round_one()
    body = APIClient().get(f"/api/v1/events/{event.slug}/export.json").content.decode()

    reader = chessjson()
    reader.parse_file(body, 0)
    assert reader.chessjson["status"]["code"] == 0
    tournament = reader.chessjson["event"]["tournaments"][0]
    profiles = {p["id"]: p for p in reader.chessjson["event"]["profiles"]}
    names = {c["cid"]: profiles[c["profileId"]]["fideName"] for c in tournament["competitors"]}
    assert names == {e.start_number: e.player.name for e in entries}
    played = {
        (g["round"], g["white"]["cid"], g["black"]["cid"], g["white"]["result"], g["black"]["result"])
        for g in tournament["gameList"]
        if g["black"]
    }
    white0, black0 = games[0].white.start_number, games[0].black.start_number
    white1, black1 = games[1].white.start_number, games[1].black.start_number
    assert played == {(1, white0, black0, "W", "L"), (1, white1, black1, "D", "D")}


def test_standings_and_crosstable_as_csv_and_xlsx_agree_with_the_api():
    event, _entries, games = played_round_one()
    client = APIClient()
    api_rows = client.get(f"/api/v1/events/{event.slug}/standings/").json()["rows"]
    expected = [(str(r["rank"]), str(r["start_number"]), r["name"]) for r in api_rows]

    lines = client.get(f"/api/v1/events/{event.slug}/standings.csv").content.decode().splitlines()
    assert lines[0].startswith("# ")
    table = list(csv.reader(lines[1:]))
    assert table[0][:4] == ["rank", "start_number", "name", "points"]
    assert [tuple(row[:3]) for row in table[1:]] == expected

    book = load_workbook(io.BytesIO(client.get(f"/api/v1/events/{event.slug}/standings.xlsx").content))
    sheet = [[cell.value for cell in row] for row in book.active.iter_rows()]
    assert [(str(r[0]), str(r[1]), r[2]) for r in sheet[1:]] == expected

    cross = list(
        csv.reader(client.get(f"/api/v1/events/{event.slug}/crosstable.csv").content.decode().splitlines()[1:])
    )
    by_number = {row[1]: row for row in cross[1:]}
    white, black = games[0].white.start_number, games[0].black.start_number
    assert by_number[str(white)][4] == f"{black}w1"
    assert by_number[str(black)][4] == f"{white}b0"
    assert by_number[str(games[1].black.start_number)][4] == f"{games[1].white.start_number}b½"
    crossbook = load_workbook(io.BytesIO(client.get(f"/api/v1/events/{event.slug}/crosstable.xlsx").content))
    assert next([c.value for c in row] for row in crossbook.active.iter_rows())[4] == "R1"


def test_a_name_that_looks_like_a_formula_stays_text_in_csv_and_xlsx():
    event, entries, games = played_round_one()
    Player.objects.filter(pk=entries[0].player_id).update(name='=HYPERLINK("http://x.example","win")')
    client = APIClient()
    result_record(game_id=games[0].pk, result=Result.BLACK_WINS, user=organiser_of(event.league), reason="typo")
    text = client.get(f"/api/v1/events/{event.slug}/standings.csv").content.decode()
    assert "'=HYPERLINK" in text
    book = load_workbook(io.BytesIO(client.get(f"/api/v1/events/{event.slug}/standings.xlsx").content))
    cells = [cell for row in book.active.iter_rows() for cell in row if "HYPERLINK" in str(cell.value)]
    assert cells and all(cell.data_type == "s" for cell in cells)


def test_a_season_bundle_holds_every_public_event_in_every_format():
    event, _entries, _games = played_round_one()
    season = Season.objects.create(league=event.league, name="2026", slug="2026")
    event.season = season
    event.save()
    answer = APIClient().get(f"/api/v1/seasons/{season.pk}/bundle.zip")
    assert answer["Content-Type"] == "application/zip"
    bundle = zipfile.ZipFile(io.BytesIO(answer.content))
    names = set(bundle.namelist())
    folder = event.slug
    assert {f"{folder}/{folder}.trf", f"{folder}/{folder}.json", f"{folder}/standings.csv"} <= names
    assert {f"{folder}/crosstable.csv", f"{folder}/{folder}.xlsx", "manifest.json"} <= names
    assert [e["slug"] for e in json.loads(bundle.read("manifest.json"))["events"]] == [event.slug]
    assert bundle.read(f"{folder}/{folder}.trf").decode().startswith("012")


def test_cors_lets_browsers_read_but_never_write():
    _event, _entries, games = played_round_one()
    client = APIClient()
    read = client.get("/api/v1/events/", HTTP_ORIGIN="https://club.example")
    assert read["Access-Control-Allow-Origin"] == "*"
    preflight = client.options(
        f"/api/v1/games/{games[0].pk}/result/",
        HTTP_ORIGIN="https://club.example",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization,content-type",
    )
    assert "POST" not in preflight.get("Access-Control-Allow-Methods", "")
    assert "Access-Control-Allow-Origin" not in client.get("/en/", HTTP_ORIGIN="https://club.example")


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/events/",
        "/api/v1/games/?limit=2",
        "/api/v1/players/",
        "/api/v1/events/{slug}/",
        "/api/v1/events/{slug}/standings/",
        "/api/v1/events/{slug}/export.json",
        "/api/v1/events/{slug}/crosstable.csv",
    ],
)
def test_every_read_has_an_etag_a_304_and_rate_limit_headers(path):
    event, _entries, _games = played_round_one()
    client = APIClient()
    first = client.get(path.format(slug=event.slug))
    assert first.status_code == 200 and first["ETag"]
    assert int(first["X-RateLimit-Limit"]) > int(first["X-RateLimit-Remaining"]) >= 0
    again = client.get(path.format(slug=event.slug), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["X-RateLimit-Remaining"]


def test_writes_carry_rate_limit_headers_too():
    event, _entries, games = played_round_one()
    client = APIClient()
    client.force_login(organiser_of(event.league))
    body = {"result": "0-1", "reason": "scoresheet"}
    answer = client.post(f"/api/v1/games/{games[0].pk}/result/", body, format="json")
    assert answer.status_code == 200 and answer["X-RateLimit-Limit"]


def test_refused_and_unknown_answers_carry_rate_limit_headers_and_count(monkeypatch):
    from leagues.api.throttling import AnonThrottle, UserThrottle

    for throttle in (AnonThrottle, UserThrottle):
        monkeypatch.setattr(throttle, "THROTTLE_RATES", {"anon": "5/minute", "user": "100/minute"})
    event, _entries, games = played_round_one()
    _, read_only = api_token_create(user=organiser_of(event.league), name="reader", scopes=["read"])
    scoped, stranger = APIClient(), APIClient()
    scoped.credentials(HTTP_AUTHORIZATION=f"Bearer {read_only}")
    stranger.credentials(HTTP_AUTHORIZATION="Bearer cl_not-a-token")
    body = {"result": "0-1", "reason": "scoresheet"}
    answers = {
        401: stranger.post(f"/api/v1/games/{games[0].pk}/result/", body, format="json"),
        403: scoped.post(f"/api/v1/games/{games[0].pk}/result/", body, format="json"),
        404: scoped.get("/api/v1/events/no-such-event/"),
    }
    for status, answer in answers.items():
        assert answer.status_code == status
        assert int(answer["X-RateLimit-Limit"]) >= int(answer["X-RateLimit-Remaining"]) >= 0, status
        assert int(answer["X-RateLimit-Reset"]) > 0, status
    assert answers[401]["X-RateLimit-Limit"] == "5"  # a failed token is counted as the anonymous address
    assert answers[403]["X-RateLimit-Limit"] == "100"  # a forbidden user is counted as that user
    anonymous = APIClient()
    unknown = [anonymous.get("/api/v1/no-such-route/") for _ in range(3)]
    assert [a.status_code for a in unknown] == [404, 404, 404]
    assert [a["X-RateLimit-Remaining"] for a in unknown] == ["3", "2", "1"]
    # the address's fifth request is its last: a guesser at tokens is then refused as any client over its limit
    last, over = (stranger.post(f"/api/v1/games/{games[0].pk}/result/", body, format="json") for _ in range(2))
    assert (last.status_code, last["X-RateLimit-Remaining"]) == (401, "0")
    assert (over.status_code, over["X-RateLimit-Remaining"]) == (429, "0")
    assert over.json()["code"] == "throttled"
    assert over["Retry-After"]


def test_cursor_pages_walk_every_game_once_and_offset_still_counts():
    event, _entries, games = swiss_event(players=8)
    client = APIClient()
    seen, url = [], f"/api/v1/games/?event={event.slug}&limit=3"
    while url:
        page = client.get(url).json()
        assert "count" not in page
        seen += [g["id"] for g in page["results"]]
        url = page["next"]
    assert sorted(seen) == sorted(g.pk for g in games) and len(seen) == len(set(seen))
    assert client.get(f"/api/v1/games/?event={event.slug}&offset=0").json()["count"] == len(games)
