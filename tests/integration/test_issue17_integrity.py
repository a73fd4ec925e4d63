"""Issue 17: holes an attacker or a careless user found, each closed at its root (services), tried at every door."""

import uuid

import pytest
from rest_framework.test import APIClient

from leagues.errors import Conflict, ServiceError
from leagues.models import Entry, Event, Game, Result, ResultChange, Role, Round, Team, TeamMatch
from leagues.services.match_cards import match_card_confirm, match_card_dispute, match_card_submit
from leagues.services.results import result_record
from leagues.services.tokens import api_token_create
from tests.factories import ClubFactory, EventFactory, PlayerFactory, UserFactory, organiser_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


def client_for(user=None):
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=user, name='t', scopes=['organiser'])[1]}")
    return client


def team_match(boards=4, **event_fields):
    """A team match of two clubs, each with a secretary; returns (event, match, games, (home, away))."""
    clubs = ClubFactory(), ClubFactory()
    event = EventFactory(
        kind=Event.Kind.TEAM,
        system=Event.System.ROUND_ROBIN,
        rounds_count=1,
        boards=boards,
        tiebreak_criteria=["GPTS"],
        **event_fields,
    )
    sides = []
    for number, club in enumerate(clubs, start=1):
        team = Team.objects.create(event=event, club=club, name=f"{club.name} 1")
        sides.append(Entry.objects.create(event=event, start_number=number, team=team))
    rnd = Round.objects.create(event=event, number=1)
    match = TeamMatch.objects.create(round=rnd, home=sides[0], away=sides[1])
    games = [
        Game.objects.create(
            round=rnd,
            match=match,
            board=b,
            white=sides[(b + 1) % 2],
            black=sides[b % 2],
            white_player=PlayerFactory(),
            black_player=PlayerFactory(),
        )
        for b in range(1, boards + 1)
    ]
    secretaries = []
    for club in clubs:
        user = UserFactory()
        Role.objects.create(user=user, kind=Role.Kind.SECRETARY, club=club)
        secretaries.append(user)
    return event, match, games, tuple(secretaries)


def _boards(games):
    return list(Game.objects.filter(pk__in=[g.pk for g in games]).order_by("board").values_list("result", flat=True))


# 1. match cards bypassed through the API


def test_one_club_cannot_post_board_results_of_a_team_match_through_the_game_api():
    event, match, games, (home, _away) = team_match()
    home_wins = Result.WHITE_WINS_FORFEIT if games[0].white.team.club_id else Result.BLACK_WINS_FORFEIT
    for game in games:
        answer = client_for(home).post(f"/api/v1/games/{game.pk}/result/", {"result": home_wins}, format="json")
        assert answer.status_code == 400, answer.content
        assert answer.json()["code"] == "match_card_required"
    assert _boards(games) == [""] * 4
    match.refresh_from_db()
    assert match.status == TeamMatch.Status.SCHEDULED
    assert not ResultChange.objects.exists()
    assert Event.objects.get(pk=event.pk).results_version == 0


def test_confirmed_card_changes_only_by_the_organiser_with_a_reason_and_visibly():
    event, match, games, (home, away) = team_match(boards=2)
    card: dict[int, tuple[str, int]] = {games[0].pk: (Result.WHITE_WINS, 0), games[1].pk: (Result.DRAW, 0)}
    match_card_submit(match_id=match.pk, results=card, user=home, expected_version=0)
    match = match_card_confirm(match_id=match.pk, user=away, expected_version=1)
    organiser = organiser_of(event.league)

    # the game door refuses even the organiser: a card's boards change through the card
    answer = client_for(organiser).post(
        f"/api/v1/games/{games[0].pk}/result/", {"result": Result.BLACK_WINS, "reason": "typo"}, format="json"
    )
    assert answer.status_code == 400
    with pytest.raises(ServiceError):
        result_record(game_id=games[0].pk, result=Result.BLACK_WINS, user=organiser, reason="typo")
    assert _boards(games) == ["1-0", "1/2-1/2"]

    # an arbiter of the event is not the organiser
    arbiter = UserFactory()
    Role.objects.create(user=arbiter, kind=Role.Kind.ARBITER, event=event)
    with pytest.raises(ServiceError) as not_organiser:
        match_card_submit(
            match_id=match.pk,
            results={games[0].pk: (Result.BLACK_WINS, 1)},
            user=arbiter,
            expected_version=match.version,
            reason="typo",
        )
    assert not_organiser.value.code == "card_confirmed"
    with pytest.raises(ServiceError) as no_reason:
        match_card_submit(
            match_id=match.pk,
            results={games[0].pk: (Result.BLACK_WINS, 1)},
            user=organiser,
            expected_version=match.version,
        )
    assert no_reason.value.code == "reason_required"
    changed = match_card_submit(
        match_id=match.pk,
        results={games[0].pk: (Result.BLACK_WINS, 1)},
        user=organiser,
        expected_version=match.version,
        reason="scoresheet says 0-1",
    )
    assert changed.status == TeamMatch.Status.CONFIRMED
    assert _boards(games) == ["0-1", "1/2-1/2"]
    correction = ResultChange.objects.get(game=games[0], before="1-0")
    assert (correction.user, correction.reason) == (organiser, "scoresheet says 0-1")
    round_page = client_for().get(f"/en/events/{event.slug}/rounds/1/")
    assert "scoresheet says 0-1" in round_page.content.decode()


# 3. confirm and dispute carry the card version the user saw


def test_confirming_or_disputing_a_card_changed_since_it_was_read_is_refused():
    _event, match, games, (home, away) = team_match(boards=2)
    match_card_submit(match_id=match.pk, results={games[0].pk: (Result.WHITE_WINS, 0)}, user=home, expected_version=0)
    seen = TeamMatch.objects.get(pk=match.pk).version
    # the home club corrects its card while the away secretary still has the old one on screen
    match_card_submit(
        match_id=match.pk, results={games[0].pk: (Result.BLACK_WINS, 1)}, user=home, expected_version=seen, reason="x"
    )
    with pytest.raises(Conflict):
        match_card_confirm(match_id=match.pk, user=away, expected_version=seen)
    with pytest.raises(Conflict):
        match_card_dispute(match_id=match.pk, user=away, reason="board 1", expected_version=seen)
    assert TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.SUBMITTED
    api = client_for(away).post(f"/api/v1/matches/{match.pk}/confirm/", {"version": seen}, format="json")
    assert api.status_code == 412
    assert api.json()["current"]["version"] == seen + 1
    api = client_for(away).post(
        f"/api/v1/matches/{match.pk}/dispute/", {"version": seen, "reason": "board 1"}, format="json"
    )
    assert api.status_code == 412
    assert TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.SUBMITTED


def test_the_confirm_page_sends_the_version_it_showed(client):
    _event, match, games, (home, away) = team_match(boards=2)
    match_card_submit(match_id=match.pk, results={games[0].pk: (Result.WHITE_WINS, 0)}, user=home, expected_version=0)
    client.force_login(away)
    page = client.get(f"/en/manage/matches/{match.pk}/").content.decode()
    assert 'name="card_version" value="1"' in page
    stale = client.post(f"/en/manage/matches/{match.pk}/confirm/", {"card_version": "0"})
    assert stale.status_code == 302
    assert TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.SUBMITTED
    client.post(f"/en/manage/matches/{match.pk}/confirm/", {"card_version": "1"})
    assert TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.CONFIRMED


# 12. a non-integer card version answers 400; 13. a double-clicked card submit is idempotent


def test_a_card_form_with_a_non_integer_version_answers_400(client):
    _event, match, games, (home, _away) = team_match(boards=2)
    client.force_login(home)
    answer = client.post(
        f"/en/manage/matches/{match.pk}/",
        {"card_version": "x1", f"result_{games[0].pk}": "1-0", f"version_{games[0].pk}": "0"},
    )
    assert answer.status_code == 400
    assert TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.SCHEDULED


def test_a_double_clicked_card_submit_is_saved_once_and_answers_as_the_first():
    _event, match, games, (home, _away) = team_match(boards=2)
    card: dict[int, tuple[str, int]] = {games[0].pk: (Result.WHITE_WINS, 0), games[1].pk: (Result.DRAW, 0)}
    first = match_card_submit(match_id=match.pk, results=card, user=home, expected_version=0)
    second = match_card_submit(match_id=match.pk, results=card, user=home, expected_version=0)
    assert (second.pk, second.version, second.status) == (first.pk, first.version, TeamMatch.Status.SUBMITTED)
    assert ResultChange.objects.count() == 2
    with pytest.raises(Conflict):  # a different card on the old version is still stale
        match_card_submit(
            match_id=match.pk, results={games[0].pk: (Result.BLACK_WINS, 0)}, user=home, expected_version=0
        )


# 16. API throttles count per client across processes, X-Forwarded-For only from configured proxies


def _throttled_to_three(monkeypatch):
    from leagues.api.throttling import AnonThrottle

    monkeypatch.setattr(AnonThrottle, "THROTTLE_RATES", {"anon": "3/minute", "user": "100/minute"})


def _forget_process_memory():
    """What another web process would see: nothing of this process's memory."""
    from django.conf import settings
    from django.core.cache import caches

    for alias in settings.CACHES:
        if not settings.CACHES[alias]["BACKEND"].endswith("RedisCache"):
            caches[alias].clear()


def test_api_throttle_counts_across_processes(monkeypatch):
    _throttled_to_three(monkeypatch)
    reader = client_for()
    assert [reader.get("/api/v1/leagues/").status_code for _ in range(3)] == [200, 200, 200]
    _forget_process_memory()
    refused = reader.get("/api/v1/leagues/")
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"


def test_api_throttle_trusts_forwarded_for_only_from_the_configured_proxies(monkeypatch, settings):
    _throttled_to_three(monkeypatch)
    settings.NUM_PROXIES = 0
    reader = client_for()
    answers = [
        reader.get("/api/v1/leagues/", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}").status_code for n in range(4)
    ]  # a client inventing a new address each time is still one client
    assert answers == [200, 200, 200, 429]
    settings.NUM_PROXIES = 1
    behind_proxy = {"REMOTE_ADDR": "10.0.0.2"}
    other = reader.get("/api/v1/leagues/", HTTP_X_FORWARDED_FOR="198.51.100.7", **behind_proxy)
    assert other.status_code == 200  # another client behind our proxy has its own count


def test_api_throttle_fails_open_when_redis_is_down(monkeypatch, settings):
    _throttled_to_three(monkeypatch)
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        },
    }
    reader = client_for()
    assert [reader.get("/api/v1/leagues/").status_code for _ in range(4)] == [200] * 4


# 5. a committed write never answers an error; one renewal and one recompute per event and transaction


class _Calls:
    """Counts the calls of a real function (which still runs)."""

    def __init__(self, monkeypatch, module, name, fail=False, run=True):
        self.count, original = 0, getattr(module, name)

        def counted(*args, **kwargs):
            self.count += 1
            if fail:
                raise RuntimeError("the cache fell over after the commit")
            return original(*args, **kwargs) if run else None

        monkeypatch.setattr(module, name, counted)


@pytest.mark.django_db(transaction=True)  # threads: each has its own connection and commits
def test_a_result_entered_while_redis_hangs_is_saved_and_answered_success(monkeypatch, settings):
    """A Redis that accepts connections and never answers, as broker, page cache and throttle counter: the
    result is saved and answered 200 (before: the broker's connection waited for ever). Its time is in
    tests/bench/bench_redis_hung.py."""
    import threading

    from leagues import page_cache
    from leagues.models import Game
    from tests.e2e.worker import broker_for_this_process
    from tests.factories import swiss_event
    from tests.serving import HungRedis

    event, _entries, games = swiss_event(players=4)
    api = client_for(organiser_of(event.league))
    hung = HungRedis()
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": hung.url}}
    settings.CACHES["default"]["BACKEND"] = "django.core.cache.backends.redis.RedisCache"
    monkeypatch.setattr(page_cache.store, "_STORE", None)
    answers = []
    try:
        with broker_for_this_process(hung.url):
            body = {"result": Result.WHITE_WINS}
            entering = threading.Thread(
                target=lambda: answers.append(api.post(f"/api/v1/games/{games[0].pk}/result/", body, format="json")),
                daemon=True,
            )
            entering.start()
            entering.join(timeout=30)
    finally:
        hung.close()
    assert answers, "entering a result never answered while Redis hung"
    assert answers[0].status_code == 200
    assert Game.objects.get(pk=games[0].pk).result == Result.WHITE_WINS


def test_a_round_sheet_renews_the_pages_and_sends_the_recompute_once(monkeypatch):
    from leagues import page_cache
    from leagues.services import results
    from leagues.services.results import round_sheet_save
    from tests.factories import swiss_event

    event, _entries, games = swiss_event(players=12)
    renewals = _Calls(monkeypatch, page_cache.stamps, "event_pages_changed")
    # queued only: the worker's recompute renews the pages again in its own transaction
    recomputes = _Calls(monkeypatch, results, "enqueue_recompute", run=False)
    sheet: dict[int, tuple[str, int]] = {game.pk: (Result.DRAW, 0) for game in games}
    round_sheet_save(event=event, round_number=1, results=sheet, user=organiser_of(event.league))
    assert _boards(games) == [Result.DRAW] * 6
    assert (renewals.count, recomputes.count) == (1, 1)


def test_an_import_renews_the_pages_and_sends_the_recompute_once(monkeypatch):
    import json

    from leagues import page_cache
    from leagues.services import results
    from leagues.services.trf import event_import_trf
    from tests.factories import LeagueFactory
    from tests.paths import GOLDEN

    trf = json.loads((GOLDEN / "swiss-p014-r06-s01021.json").read_text())["trf"]
    league = LeagueFactory()
    renewals = _Calls(monkeypatch, page_cache.stamps, "event_pages_changed")
    # queued only: the worker's recompute renews the pages again in its own transaction
    recomputes = _Calls(monkeypatch, results, "enqueue_recompute", run=False)
    event = event_import_trf(league=league, name="Big", slug="big", data=trf.encode(), user=organiser_of(league))
    assert Game.objects.filter(round__event=event).count() > 40
    assert (renewals.count, recomputes.count) == (1, 1)


def test_a_saved_result_is_answered_as_saved_even_when_after_commit_work_fails(monkeypatch):
    from leagues import page_cache
    from tests.factories import swiss_event

    event, _entries, games = swiss_event(players=4)
    _Calls(monkeypatch, page_cache.stamps, "event_pages_changed", fail=True)
    answer = client_for(organiser_of(event.league)).post(
        f"/api/v1/games/{games[0].pk}/result/", {"result": Result.WHITE_WINS}, format="json"
    )
    assert answer.status_code == 200
    assert _boards(games[:1]) == [Result.WHITE_WINS]


# 6. every problem found at preview, with its line; 18. rounds above the event's limit


def _golden_trf() -> list[str]:
    import json

    from tests.paths import GOLDEN

    return json.loads((GOLDEN / "swiss-p008-r05-s01000.json").read_text())["trf"].splitlines()


def _line_of(lines, prefix):
    return next(n for n, line in enumerate(lines, start=1) if line.startswith(prefix))


def _with_fide_id(line: str, fide_id: str) -> str:
    return line[:57] + fide_id.rjust(11) + line[68:]


def _broken_files():
    """(what is wrong, file, line the preview must name)."""
    lines = _golden_trf()
    first = _line_of(lines, "001    1")
    cases = []
    bad = list(lines)
    bad[first - 1] = _with_fide_id(bad[first - 1], "12AB456")
    cases.append(("non-numeric FIDE id", bad, first))
    # a FIDE id repeated in a file is no longer refused: both are imported, with a warning
    # (tests/functional/test_trf_import_scoring.py)
    bad = list(lines)
    rounds = _line_of(lines, "142")
    bad[rounds - 1] = "142 99999"
    cases.append(("142 99999", bad, rounds))
    bad = list(lines)
    bad[first - 1] = bad[first - 1][:14] + "Play\x00r" + bad[first - 1][20:]
    cases.append(("NUL byte in a name", bad, first))
    return [(why, ("\n".join(bad) + "\n").encode("latin-1"), line) for why, bad, line in cases]


@pytest.mark.parametrize(("why", "data", "line"), _broken_files(), ids=[c[0] for c in _broken_files()])
def test_a_file_the_league_cannot_store_is_refused_at_preview_with_its_line(why, data, line):
    from leagues.models import Player
    from leagues.services.trf import event_import_trf, import_preview
    from tests.factories import LeagueFactory

    league = LeagueFactory()
    preview = import_preview(data=data, league=league)
    assert not preview.ok, why
    assert line in [number for number, _message in preview.problems], preview.problems
    with pytest.raises(ServiceError):
        event_import_trf(league=league, name="Broken", slug="broken", data=data, user=organiser_of(league))
    assert not Event.objects.filter(slug="broken").exists()
    assert not Player.objects.exists()


def test_a_file_declaring_999_rounds_with_one_record_is_refused():
    from leagues.services.trf import import_preview
    from tests.factories import LeagueFactory

    lines = _golden_trf()
    rounds = _line_of(lines, "142")
    lines[rounds - 1] = "142 999"
    players = [n for n, line in enumerate(lines) if line.startswith("001")]
    lines = [line for n, line in enumerate(lines) if n not in players[1:]]
    first = next(n for n, line in enumerate(lines) if line.startswith("001"))
    lines[first] = lines[first][:80] + " 0.0" + lines[first][84:89]
    preview = import_preview(data=("\n".join(lines) + "\n").encode(), league=LeagueFactory())
    assert any("rounds above the event's limit" in message for _line, message in preview.problems), preview.problems


# 7. CSV exports neutralise formulas; no newline reaches the comment line; the import form refuses control characters


def test_standings_csv_neutralises_formulas_and_keeps_the_comment_one_line(client):
    import csv
    import io

    from leagues.models import Player
    from leagues.recompute import standings_recompute_event
    from tests.factories import swiss_event

    event, entries, _games = swiss_event(players=4)
    Event.objects.filter(pk=event.pk).update(name="Open\n=cmd|'/c calc'!A1")
    names = ['=HYPERLINK("http://x")', "+SUM(A1)", "-2+3", "@SUM(1)", "\tTab", "\rReturn"]
    for entry, name in zip(entries, names, strict=False):
        Player.objects.filter(pk=entry.player_id).update(name=name)
    Event.objects.filter(pk=event.pk).update(results_version=1)
    standings_recompute_event(event.pk)
    body = client.get(f"/en/events/{event.slug}/standings.csv").content.decode()
    comment, table = body.split("\n", 1)
    assert comment.startswith("# Open =cmd")
    assert not table.startswith("=")
    rows = list(csv.reader(io.StringIO(table)))
    cells = [cell for row in rows[1:] for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")], cells


def test_the_import_form_refuses_control_characters_in_the_event_name():
    from django.core.files.uploadedfile import SimpleUploadedFile

    from leagues.manage.forms import ImportForm
    from tests.factories import LeagueFactory

    form = ImportForm(
        {"name": "Open\r\n# injected", "slug": "open"},
        {"file": SimpleUploadedFile("a.trf", b"012 x\n")},
        league=LeagueFactory(),
    )
    assert not form.is_valid()
    assert "name" in form.errors


# 8. secretaries' rights: memberships current at the round's date, clubs of the event's league; corrections seen


def _secretary_of(club):
    user = UserFactory()
    Role.objects.create(user=user, kind=Role.Kind.SECRETARY, club=club)
    return user


def test_a_secretary_answers_only_for_members_on_the_rounds_date_and_in_the_events_league():
    from datetime import date

    from leagues.errors import PermissionDenied
    from leagues.models import ClubMembership
    from tests.factories import swiss_event

    old_club, club, foreign = ClubFactory(), ClubFactory(), ClubFactory()
    event, entries, games = swiss_event(players=4, club=club)
    event.league.clubs.add(old_club)
    Round.objects.filter(event=event, number=1).update(date=date(2026, 10, 1))
    white = entries[0].player
    ClubMembership.objects.create(player=white, club=old_club, since=date(2020, 1, 1), until=date(2025, 12, 31))
    ClubMembership.objects.create(player=white, club=foreign, since=date(2020, 1, 1))  # a club of no league event
    for outsider in (_secretary_of(old_club), _secretary_of(foreign)):
        with pytest.raises(PermissionDenied):
            result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=outsider)
    assert _boards(games[:1]) == [""]
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=_secretary_of(club))
    assert _boards(games[:1]) == [Result.WHITE_WINS]


def test_a_correction_by_one_club_is_listed_for_the_other_club_and_the_organiser(client):
    from leagues.models import ClubMembership
    from leagues.selectors import corrections_visible_to
    from tests.factories import swiss_event

    home, away, unrelated = ClubFactory(), ClubFactory(), ClubFactory()
    event, entries, games = swiss_event(players=2, club=home)
    event.league.clubs.add(away, unrelated)
    ClubMembership.objects.filter(player=entries[1].player).update(club=away)
    home_secretary, away_secretary, organiser = _secretary_of(home), _secretary_of(away), organiser_of(event.league)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=home_secretary)
    result_record(game_id=games[0].pk, result=Result.BLACK_WINS, user=home_secretary, reason="scoresheet")
    correction = ResultChange.objects.get(before=Result.WHITE_WINS)
    assert corrections_visible_to(away_secretary) == [correction]
    assert corrections_visible_to(organiser) == [correction]
    assert corrections_visible_to(home_secretary) == []  # their own
    assert corrections_visible_to(_secretary_of(unrelated)) == []
    client.force_login(away_secretary)
    assert "scoresheet" in client.get("/en/manage/").content.decode()


# 9. draft events: hidden from the API and from the pages of users without a role in them


def test_a_draft_events_rows_are_hidden_from_the_api_and_from_secretaries_pages(client):
    from tests.factories import swiss_event

    club = ClubFactory()
    event, entries, games = swiss_event(players=2, club=club, status=Event.Status.DRAFT)
    team_event, match, _, (home, _away) = team_match(boards=2, status=Event.Status.DRAFT)
    reader = client_for()
    assert reader.get("/api/v1/games/", {"event": event.slug}).json()["results"] == []
    assert reader.get(f"/api/v1/games/{games[0].pk}/").status_code == 404
    assert reader.get(f"/api/v1/matches/{match.pk}/").status_code == 404
    assert reader.get("/api/v1/teams/", {"event": team_event.slug}).json()["results"] == []
    listed = {p["id"] for p in reader.get("/api/v1/players/", {"limit": 500}).json()["results"]}
    assert not listed & {entry.player_id for entry in entries}
    client.force_login(_secretary_of(club))
    assert client.get(f"/en/manage/events/{event.slug}/rounds/1/").status_code == 404
    client.force_login(home)
    assert client.get(f"/en/manage/matches/{match.pk}/").status_code == 404
    client.force_login(organiser_of(event.league))
    assert client.get(f"/en/manage/events/{event.slug}/rounds/1/").status_code == 200


# 10. a round sheet that omits a result field leaves that game unchanged


def test_a_round_sheet_without_a_games_field_leaves_that_game_as_it_is(client):
    from tests.factories import swiss_event

    event, _entries, games = swiss_event(players=4)
    organiser = organiser_of(event.league)
    result_record(game_id=games[1].pk, result=Result.DRAW, user=organiser)
    client.force_login(organiser)
    sheet = {
        f"result_{games[0].pk}": Result.WHITE_WINS,
        f"version_{games[0].pk}": "0",
        f"version_{games[1].pk}": "1",
        "reason": "",
    }  # board 2's result field is missing (an old form, a script)
    client.post(f"/en/manage/events/{event.slug}/rounds/1/", sheet)
    assert _boards(games) == [Result.WHITE_WINS, Result.DRAW]


# 12. an over-long Idempotency-Key answers 400 in the API's error shape; 13. parallel retries get the first answer


def test_an_over_long_idempotency_key_answers_400_and_changes_nothing():
    from tests.factories import swiss_event

    event, _entries, games = swiss_event(players=2)
    answer = client_for(organiser_of(event.league)).post(
        f"/api/v1/games/{games[0].pk}/result/",
        {"result": Result.WHITE_WINS},
        format="json",
        headers={"Idempotency-Key": "k" * 201},
    )
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid"
    assert "Idempotency-Key" in answer.json()["message"]
    assert _boards(games) == [""]


@pytest.mark.django_db(transaction=True)  # threads: each has its own connection and commits
def test_parallel_retries_with_one_idempotency_key_all_get_the_first_answer(on_postgres):
    import threading

    from django.db import connection

    from tests.factories import swiss_event

    event, _entries, games = swiss_event(players=2)
    user = organiser_of(event.league)

    def retry(start, game, result, key, answers):
        try:
            start.wait()
            answer = client_for(user).post(
                f"/api/v1/games/{game.pk}/result/",
                {"result": result, "reason": "retry"},
                format="json",
                headers={"Idempotency-Key": key, "If-Match": f'"v{game.version}"'},
            )
            answers.append(answer.status_code)
        finally:
            connection.close()

    for attempt, result in enumerate([Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]):
        game = Game.objects.get(pk=games[0].pk)
        start = threading.Barrier(4)
        answers: list[int] = []  # the status codes of the four retries
        threads = [
            threading.Thread(target=retry, args=(start, game, result, f"retry-{attempt}", answers)) for _ in range(4)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert answers == [200] * 4, answers
        assert Game.objects.get(pk=game.pk).version == game.version + 1


# 15. the shared page cache never stores a visitor's query string


def test_a_cached_page_never_carries_a_visitors_query_string(client):
    from tests.factories import swiss_event

    event, _entries, games = swiss_event(players=2)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser_of(event.league))
    url = f"/en/events/{event.slug}/"
    first = client.get(url, {"next": "//evil.example/phish", "ref": "visitor-secret-7"})
    assert first.status_code == 200
    for page in (first, client.get(url)):
        body = page.content.decode()
        assert "visitor-secret-7" not in body
        assert "evil.example" not in body


# 14. a finished event is frozen: results, cards and tiebreak policy; the organiser overrides with a reason, publicly


def test_a_finished_event_is_frozen_but_for_the_organisers_public_override_with_a_reason(client):
    from leagues.models import TiebreakPolicyChange
    from leagues.services.policy import event_policy_set
    from tests.factories import swiss_event

    club = ClubFactory()
    event, _entries, games = swiss_event(players=2, club=club)
    organiser, secretary = organiser_of(event.league), _secretary_of(club)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=secretary)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED, tiebreak_locked=False)
    with pytest.raises(ServiceError):
        result_record(game_id=games[0].pk, result=Result.DRAW, user=secretary, reason="typo")
    with pytest.raises(ServiceError) as no_reason:
        result_record(game_id=games[0].pk, result=Result.DRAW, user=organiser)
    assert no_reason.value.code == "reason_required"
    with pytest.raises(ServiceError):  # the policy too, even though no lock was recorded
        event_policy_set(event_id=event.pk, rule_set="fide-2026", criteria=["SB"], user=organiser)
    result_record(game_id=games[0].pk, result=Result.DRAW, user=organiser, reason="arbiter's report")
    event_policy_set(event_id=event.pk, rule_set="fide-2026", criteria=["SB"], user=organiser, reason="appeal")
    assert TiebreakPolicyChange.objects.get(event=event).reason == "appeal"
    assert "arbiter&#x27;s report" in client.get(f"/en/events/{event.slug}/rounds/1/").content.decode()

    team_event, match, boards, (home, away) = team_match(boards=1)
    match_card_submit(match_id=match.pk, results={boards[0].pk: (Result.WHITE_WINS, 0)}, user=home, expected_version=0)
    Event.objects.filter(pk=team_event.pk).update(status=Event.Status.FINISHED)
    with pytest.raises(ServiceError):
        match_card_confirm(match_id=match.pk, user=away, expected_version=1)
    with pytest.raises(ServiceError):
        match_card_submit(
            match_id=match.pk, results={boards[0].pk: (Result.DRAW, 1)}, user=home, expected_version=1, reason="x"
        )


# settings and headers: /healthz reports a stale worker heartbeat


def test_healthz_reports_a_stale_worker_heartbeat(client, monkeypatch, settings):
    import time

    import redis as redis_lib
    from celery import current_app

    from leagues import broker

    url = settings.CACHES["default"].get("LOCATION") or ""
    if not url.startswith("redis"):
        pytest.skip("needs Redis")
    monkeypatch.setattr(current_app.conf, "broker_url", url)
    # its own key: workers of other test runs beat into the same Redis
    settings.WORKER_HEARTBEAT_KEY = f"chess-league-test:{uuid.uuid4().hex}:worker-heartbeat"
    store = redis_lib.Redis.from_url(url)
    try:
        store.set(broker.heartbeat_key(), str(time.time() - 3 * 3600))
        stale = client.get("/healthz")
        assert stale.status_code == 503, stale.json()
        assert stale.json()["checks"]["worker"].startswith("stale")
        broker.record_heartbeat()
        fresh = client.get("/healthz")
        assert (fresh.status_code, fresh.json()["checks"]["worker"]) == (200, "ok")
    finally:
        store.delete(broker.heartbeat_key())


# settings and headers: the API answers as its schema says


def test_unknown_api_routes_and_matches_answer_json_404_and_pages_are_validated():
    reader = client_for()
    for url in ("/api/v1/no-such-thing/", "/api/v1/events/x/y/z/", "/api/v1/matches/999999/"):
        answer = reader.get(url)
        assert answer.status_code == 404, url
        assert answer["Content-Type"].startswith("application/json"), url
        assert answer.json()["code"] in ("not_found", "unknown_match"), url
    user = UserFactory()
    card = client_for(user).post("/api/v1/matches/999999/confirm/", {"version": 0}, format="json")
    assert (card.status_code, card.json()["code"]) == (404, "unknown_match")
    for query in ({"limit": "x"}, {"limit": "-1"}, {"offset": "1e3"}, {"limit": "0"}):
        answer = reader.get("/api/v1/leagues/", query)
        assert answer.status_code == 400, query
        assert answer.json()["code"] == "invalid"
    assert reader.get("/api/v1/leagues/", {"limit": "100000", "offset": "5"}).status_code == 200


def test_the_schema_says_an_events_season_may_be_null():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert schema["components"]["schemas"]["Event"]["properties"]["season"].get("nullable") is True


# 11. TRF export with names over 33 characters or CR/LF in a name: a valid file, no 500


def test_trf_export_of_long_and_multi_line_names_is_a_valid_file(client):
    from leagues.models import Player
    from tests.factories import swiss_event
    from tiebreaks.trf import read_trf, trf_problems

    event, entries, games = swiss_event(players=4)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser_of(event.league))
    Player.objects.filter(pk=entries[0].player_id).update(name="Wolfeschlegelsteinhausenbergerdorff, Hubert Blaine")
    Player.objects.filter(pk=entries[1].player_id).update(name="Smith,\r\nJohn\n001 9999 m    Injected")
    answer = client.get(f"/en/manage/events/{event.slug}/export.trf")
    assert answer.status_code == 200
    data = answer.content
    assert [p.message for p in trf_problems(data)] == []
    assert len(read_trf(data).participants) == 4
    assert not any(line.startswith(b"001 9999") for line in data.splitlines())


# 17. renaming a player, club or team reaches the standings and every cached page at once


def test_a_renamed_player_or_team_shows_at_once_in_the_standings_and_the_cached_pages(client):
    from leagues.models import Player
    from leagues.services.players import player_save
    from leagues.services.teams import team_save
    from tests.factories import swiss_event

    event, entries, games = swiss_event(players=2, club=ClubFactory())
    organiser = organiser_of(event.league)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser)
    page, api = f"/en/events/{event.slug}/", f"/api/v1/events/{event.slug}/standings/"
    assert client.get(page).status_code == 200 and client.get(api).status_code == 200  # both cached now
    player = Player.objects.get(pk=entries[0].player_id)
    player_save(league=event.league, user=organiser, fields={"name": "Renamed, Ada"}, club=None, player=player)
    assert "Renamed, Ada" in client.get(page).content.decode()
    assert "Renamed, Ada" in [row["name"] for row in client.get(api).json()["rows"]]

    team_event, match, boards, (home, _away) = team_match(boards=1)
    match_card_submit(match_id=match.pk, results={boards[0].pk: (Result.DRAW, 0)}, user=home, expected_version=0)
    team_page = f"/en/events/{team_event.slug}/"
    client.get(team_page)
    team = Team.objects.get(pk=match.home.team_id)
    team_event.league.clubs.add(team.club)
    team_save(event=team_event, user=organiser_of(team_event.league), club=team.club, name="Renamed Rooks", team=team)
    assert "Renamed Rooks" in client.get(team_page).content.decode()


# 18. expensive public pages are cached like the standings


def test_a_player_page_is_rendered_once_then_served_from_the_cache(client, django_assert_max_num_queries):
    from tests.factories import swiss_event

    event, _entries, games = swiss_event(players=8)
    result_record(game_id=games[0].pk, result=Result.WHITE_WINS, user=organiser_of(event.league))
    url = f"/en/events/{event.slug}/players/1/"
    first = client.get(url)
    assert first.status_code == 200
    with django_assert_max_num_queries(1):
        again = client.get(url)
    assert again.content == first.content


def test_the_admin_changes_neither_a_cards_state_nor_a_finished_events_prizes(client):
    from leagues.models import PrizeFund

    event, match, _games, (_home, _away) = team_match(boards=1)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    client.post(
        f"/admin/leagues/teammatch/{match.pk}/change/",
        {"round": match.round_id, "home": match.home_id, "away": match.away_id, "status": "confirmed"},
    )
    assert TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.SCHEDULED
    fund = PrizeFund.objects.create(event=event, currency="GBP")
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    page = client.get(f"/admin/leagues/prizefund/{fund.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    assert client.post(f"/admin/leagues/prizefund/{fund.pk}/delete/", {"post": "yes"}).status_code == 403
    assert PrizeFund.objects.filter(pk=fund.pk).exists()
