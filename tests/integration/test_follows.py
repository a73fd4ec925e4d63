"""Following a player or a team: the confirmation link (nothing sent before it), the pairing e-mail in the
follower's language when a round is published, one digest when several results land at once, nothing after
unsubscribing and nothing for a draft event. The e-mails reach a real SMTP server process (aiosmtpd)."""

import datetime
import mailbox
from email import policy
from email.parser import BytesParser

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.test import Client

from leagues.models import Event, Follow, Game, Result, Round
from leagues.services.match_cards import match_card_submit
from leagues.services.results import result_record, round_sheet_save
from leagues.services.round_pairings import pairing_publish, round_pair
from tests.factories import EntryFactory, EventFactory, FollowFactory, PlayerFactory, organiser_of
from tests.helpers import present, search, team_match
from tests.smtp import smtp_server

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

NAMES = ["Berg, Anna", "Demir, Elif", "Kaya, Mert", "Levi, Noa"]


@pytest.fixture
def smtp(tmp_path, settings):
    with smtp_server(tmp_path / "mail") as server:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
        settings.SITE_URL = "http://league.example"
        yield server


def raw_messages(server):
    box = mailbox.Maildir(server.folder, create=True)
    return [BytesParser(policy=policy.default).parsebytes(box.get_bytes(key)) for key in sorted(box.keys())]


def raw_message(server, subject: str):
    """The one message with this subject, headers and all (the server may keep messages in any order)."""
    (message,) = [m for m in raw_messages(server) if str(m["Subject"]).strip() == subject]
    return message


def to(messages, address):
    return [(subject.strip(), body) for recipients, subject, body in messages if address in recipients]


def news_to(messages, address, seen=()):
    """The messages to `address` other than its confirmations (and the news already `seen`), in whatever order the
    SMTP server keeps them (under load it may keep a later message first)."""
    return [m for m in to(messages, address) if "/follow/confirm/" not in m[1] and m not in seen]


def _event(status=Event.Status.PUBLISHED):
    event = EventFactory(rounds_count=3, status=status, name="Fjord Open")
    players = []
    for n, name in enumerate(NAMES, start=1):
        player = PlayerFactory(name=name)
        EntryFactory(event=event, start_number=n, player=player, rating=2400 - 10 * n)
        players.append(player)
    Round.objects.update_or_create(
        event=event,
        number=1,
        defaults={"date": datetime.date(2026, 12, 18), "start_time": datetime.time(18, 30), "venue": "Fjord Hall"},
    )
    return event, organiser_of(event.league), players


def _publish(event, user, number=1):
    pairing = round_pair(event=event, round_number=number, user=user)
    pairing.refresh_from_db()
    return pairing_publish(pairing=pairing, user=user)


def _follow_by_email(client, player, email, language):
    response = client.post(f"/{language}/players/{player.pk}/follow/", {"email": email})
    assert response.status_code == 200


def _game_of(event, player):
    return Game.objects.get(Q(white__player=player) | Q(black__player=player), round__event=event, round__number=1)


def _link(body, path):
    return search(rf"http://league\.example(/\w\w/follow/{path}/\S+/)", body).group(1)


def _confirm(client, body):
    """Open the e-mail's link, then press the page's button (opening it alone confirms nothing)."""
    link = _link(body, "confirm")
    assert client.get(link).status_code == 200
    assert client.post(link).status_code == 200


def test_a_follower_by_email_confirms_then_gets_the_pairing_in_their_language(smtp, client):
    event, user, (anna, _elif, *_rest) = _event()
    _follow_by_email(client, anna, "fan@example.org", "nb")
    ((recipients, subject, body),) = smtp.wait_for(1)  # the confirmation only
    assert recipients == "fan@example.org" and "Berg, Anna" in subject
    assert not subject.startswith("Confirm")  # written in Norwegian
    _confirm(client, body)

    _publish(event, user)
    news = news_to(smtp.wait_for(2), "fan@example.org")
    assert len(news) == 1
    subject, body = news[0]
    game = _game_of(event, anna)
    opponent = (game.black if game.white.player_id == anna.pk else game.white).player.name
    assert opponent in body and f"bord {game.board}" in body
    assert ("hvit" if game.white.player_id == anna.pk else "svart") in body  # the colour, in Norwegian
    assert "18:30" in body or "18.30" in body
    assert "Fjord Hall" in body
    assert subject == "Berg, Anna: paring for runde 1"
    assert "http://league.example/nb/follow/stop/" in body
    header = str(raw_message(smtp, subject)["List-Unsubscribe"]).strip()
    assert header.startswith("<http://league.example/nb/follow/stop/")


def test_an_account_follows_in_one_click_and_reads_in_its_language(smtp, client):
    event, user, (anna, *_rest) = _event()
    reader = get_user_model().objects.create_user("reader", "reader@example.org", "pw-pw-pw-123")
    client.force_login(reader)
    page = client.get(f"/el/players/{anna.pk}/")
    assert f"/el/players/{anna.pk}/follow/" in page.content.decode()
    assert client.post(f"/el/players/{anna.pk}/follow/").status_code == 200  # no address asked, no link to open
    _publish(event, user)
    ((subject, _body),) = to(smtp.wait_for(1), "reader@example.org")
    assert subject == "Berg, Anna: κλήρωση του γύρου 1"  # in Greek, the language of the follow


def test_nothing_before_confirming_and_nothing_after_unsubscribing(smtp, client):
    event, user, (anna, _elif, _kaya, _noa) = _event()
    _follow_by_email(client, anna, "late@example.org", "en")  # never confirmed
    _follow_by_email(client, anna, "leaver@example.org", "en")
    _follow_by_email(client, anna, "stayer@example.org", "en")
    confirmations = smtp.wait_for(3)
    for address in ("leaver@example.org", "stayer@example.org"):
        ((_subject, body),) = to(confirmations, address)
        _confirm(client, body)
    _publish(event, user)
    messages = smtp.wait_for(5)
    ((_subject, body),) = news_to(messages, "leaver@example.org")
    stop = _link(body, "stop")
    assert "Stop" in client.get(stop).content.decode()  # the page asks first: a link checker stops nothing
    assert client.post(stop).status_code == 200  # one click (a mail client's List-Unsubscribe-Post)

    game = _game_of(event, anna)
    result_record(game_id=game.pk, result=Result.DRAW, user=user)
    messages = smtp.wait_for(6)
    assert len(to(messages, "stayer@example.org")) == 3  # confirmation, pairing, result
    assert len(to(messages, "leaver@example.org")) == 2  # confirmation, pairing: nothing after unsubscribing
    assert len(to(messages, "late@example.org")) == 1  # the confirmation only


def test_nothing_for_a_draft_event(smtp, client):
    event, user, (anna, *_rest) = _event(status=Event.Status.DRAFT)
    _follow_by_email(client, anna, "fan@example.org", "en")
    ((_r, _s, body),) = smtp.wait_for(1)
    _confirm(client, body)
    _publish(event, user)  # the draft's pairing: nothing
    Event.objects.filter(pk=event.pk).update(status=Event.Status.PUBLISHED)
    game = _game_of(event, anna)
    result_record(game_id=game.pk, result=Result.WHITE_WINS, user=user)
    messages = to(smtp.wait_for(2), "fan@example.org")
    assert len(messages) == 2
    # the server keeps messages in no particular order: the one that is not the confirmation
    subject, body = next(message for message in messages if not message[0].startswith("Confirm"))
    assert subject == "Berg, Anna: result of round 1"
    assert "has White against" not in body and "has Black against" not in body  # no pairing news of the draft


def test_several_results_at_once_make_one_digest(smtp, client):
    event, user, (anna, elif_, _kaya, _noa) = _event()
    for player in (anna, elif_):  # a club follows two of its players from one address
        _follow_by_email(client, player, "club@example.org", "en")
    for _subject, body in to(smtp.wait_for(2), "club@example.org"):
        _confirm(client, body)
    _publish(event, user)
    pairing_news = news_to(smtp.wait_for(3), "club@example.org")
    assert len(pairing_news) == 1  # both players' pairings in one e-mail
    games = list(Game.objects.filter(round__event=event, round__number=1).order_by("board"))
    round_sheet_save(
        event=event, round_number=1, results={g.pk: (Result.WHITE_WINS, g.version) for g in games}, user=user
    )
    news = news_to(smtp.wait_for(4), "club@example.org", seen=pairing_news)
    assert len(news) == 1
    ((subject, body),) = news
    assert "news from Fjord Open" in subject
    followed = [g for g in games if {present(g.white).player_id, present(g.black).player_id} & {anna.pk, elif_.pk}]
    for game in followed:
        assert game.white is not None and game.black is not None
        assert game.white.player is not None and game.black.player is not None
        assert f"board {game.board}: {game.white.player.name} – {game.black.player.name}, 1–0" in body or (
            f"board {game.board}: {game.white.player.name} – {game.black.player.name}, 1-0" in body
        ), body
    assert body.count("Round 1 of Fjord Open, board") == len(followed)


def test_a_teams_follower_and_a_board_players_follower_get_the_results_of_a_match_card(smtp):
    event, match, games, _secretaries = team_match(boards=2)
    home_team = present(match.home.team)
    FollowFactory(player=None, team=home_team, email="team@example.org")
    FollowFactory(player=games[1].black_player, email="fan@example.org")
    FollowFactory(player=PlayerFactory(), email="other@example.org")  # plays nowhere in this match
    match_card_submit(
        match_id=match.pk,
        results={g.pk: (Result.WHITE_WINS, g.version) for g in games},
        user=organiser_of(event.league),
        expected_version=match.version,
    )
    messages = smtp.wait_for(2)
    ((_subject, team_news),) = news_to(messages, "team@example.org")
    for game in games:  # every board of the team's match
        white, black = present(game.white_player).name, present(game.black_player).name
        assert f"board {game.board}: {white} – {black}" in team_news, team_news
    ((_subject, fan_news),) = news_to(messages, "fan@example.org")
    assert f"board 2: {present(games[1].white_player).name} – {present(games[1].black_player).name}" in fan_news
    assert "board 1:" not in fan_news
    assert not to(messages, "other@example.org")


def test_the_calendar_feeds_of_a_player_carry_the_round_start_time(client):
    event, user, (anna, *_rest) = _event()
    _publish(event, user)
    feed = client.get(f"/en/players/{anna.pk}/games.ics").content.decode()
    opponent = _game_of(event, anna)
    name = (opponent.black if opponent.white.player_id == anna.pk else opponent.white).player.name
    assert "DTSTART:20261218T183000Z" in feed  # 18:30 in the site's time zone (UTC here)
    assert "LOCATION:Fjord Hall" in feed
    assert f"Fjord Open: round 1 against {name}".replace(",", "\\,") in feed.replace("\r\n ", "")
    rounds = client.get(f"/en/events/{event.slug}/rounds.ics").content.decode()
    assert "DTSTART:20261218T183000Z" in rounds


def test_the_organiser_sets_a_rounds_start_time_on_the_event_form_and_the_team_feed_carries_it(client):
    from tests.functional.test_feeds_and_widgets import _event_form_post
    from tests.workspace import division

    d = division()
    client.force_login(d.organiser)
    url = f"/en/manage/leagues/{d.league.slug}/events/{d.event.slug}/edit/"
    assert 'name="round_1_start"' in client.get(url).content.decode()
    saved = client.post(url, _event_form_post(d.event, round_1_start="19:15"))
    assert saved.status_code == 302
    rnd = Round.objects.get(event=d.event, number=1)
    assert rnd.start_time == datetime.time(19, 15)
    number = d.match().home.start_number
    feed = client.get(f"/en/events/{d.event.slug}/teams/{number}/fixtures.ics").content.decode()
    assert f"DTSTART:{rnd.date:%Y%m%d}T191500Z" in feed


def test_the_follow_form_sends_one_confirmation_an_hour_to_an_address(smtp, client):
    _, _user, (anna, elif_, *_rest) = _event()
    for _ in range(3):
        _follow_by_email(client, anna, "victim@example.org", "en")
    _follow_by_email(client, elif_, "victim@example.org", "en")  # another player: its own confirmation
    messages = to(smtp.wait_for(2), "victim@example.org")
    assert sorted(subject for subject, _body in messages) == [
        "Confirm that you follow Berg, Anna",
        "Confirm that you follow Demir, Elif",
    ]


def test_opening_the_confirmation_link_confirms_nothing_its_button_does(smtp):
    """A mail scanner or a link preview opens (GET) every link of an e-mail: that follows no one. The page names the
    player and has a button whose POST, with the page's CSRF token, confirms; a POST without the token is refused."""
    event, user, (anna, *_rest) = _event()
    browser = Client(enforce_csrf_checks=True)
    _follow_by_email(browser, anna, "fan@example.org", "en")  # the form by address is free of CSRF
    ((_recipients, _subject, body),) = smtp.wait_for(1)
    assert "open this link and press the button on the page" in body
    link = _link(body, "confirm")
    scanner = Client(enforce_csrf_checks=True)
    for _ in range(2):
        page = scanner.get(link)
        assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    html = page.content.decode()
    assert "Confirm that you want an e-mail when the pairings of <bdi>Berg, Anna</bdi> are published" in html
    assert 'method="post"' in html and 'name="csrfmiddlewaretoken"' in html
    assert Follow.objects.get(email="fan@example.org").confirmed_at is None
    assert scanner.post(link).status_code == 403  # no token: a page elsewhere cannot confirm
    assert Follow.objects.get(email="fan@example.org").confirmed_at is None
    token = search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    done = scanner.post(link, {"csrfmiddlewaretoken": token})
    assert done.status_code == 200 and "Confirmed: you follow Berg, Anna." in done.content.decode()
    assert Follow.objects.get(email="fan@example.org").confirmed_at is not None
    again = scanner.get(link).content.decode()  # opened once more: it says so, no button
    assert "Confirmed: you follow Berg, Anna." in again and 'method="post"' not in again
    _publish(event, user)
    assert len(to(smtp.wait_for(2), "fan@example.org")) == 2  # the pairing is sent now


def test_opening_the_unsubscribe_link_stops_nothing_a_one_click_post_does(smtp, client):
    """The unsubscribe link opened (GET) asks with a button and changes nothing; RFC 8058's one-click POST of a mail
    client (List-Unsubscribe-Post, no CSRF token) stops the e-mails."""
    event, user, (anna, *_rest) = _event()
    _follow_by_email(client, anna, "fan@example.org", "en")
    ((_r, _s, body),) = smtp.wait_for(1)
    _confirm(client, body)
    _publish(event, user)
    ((subject, news),) = news_to(smtp.wait_for(2), "fan@example.org")
    stop = _link(news, "stop")
    assert str(raw_message(smtp, subject)["List-Unsubscribe-Post"]).strip() == "List-Unsubscribe=One-Click"
    mail_client = Client(enforce_csrf_checks=True)
    page = mail_client.get(stop)
    assert page.status_code == 200 and 'method="post"' in page.content.decode()
    assert Follow.objects.filter(email="fan@example.org").exists()
    one_click = mail_client.post(stop, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
    assert one_click.status_code == 200 and "You no longer follow Berg, Anna" in one_click.content.decode()
    assert not Follow.objects.filter(email="fan@example.org").exists()
