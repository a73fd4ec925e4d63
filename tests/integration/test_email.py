"""Emails reach a real SMTP server process (aiosmtpd), each in its recipient's language, sent after the
commit; a mail server that is down loses no result and blocks no request."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from leagues.models import TeamMatch
from leagues.services.disputes import match_cards_remind
from leagues.services.match_cards import match_card_confirm, match_card_dispute, match_card_submit
from tests.factories import UserFactory
from tests.helpers import present, search
from tests.smtp import smtp_server
from tests.workspace import card_post, division

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]


@pytest.fixture
def smtp(tmp_path, settings):
    with smtp_server(tmp_path / "mail") as server:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
        settings.SITE_URL = "http://league.example"
        yield server


def to(messages, address):
    return [(subject, body) for recipients, subject, body in messages if address in recipients]


def test_a_submitted_card_is_mailed_to_the_other_club_in_its_language(smtp, client):
    d = division(email_languages=("en", "nb"))
    match = d.match()
    client.force_login(d.secretaries[0])
    assert client.post(f"/en/manage/matches/{match.pk}/", card_post(match, {1: "1-0"})).status_code == 302
    messages = smtp.wait_for(1)
    assert len(messages) == 1
    ((subject, body),) = to(messages, "sec-bosporus@example.org")
    assert f"http://league.example/nb/manage/matches/{match.pk}/" in body  # the link in the reader's language
    assert "Fjord SK 1" in subject and not subject.startswith("Match card to confirm")  # written in Norwegian


def test_a_dispute_reaches_the_organiser_and_both_clubs_and_the_settlement_both_clubs(smtp, client):
    d = division()
    match = d.match()
    games = list(match.games.order_by("board"))
    submitted = match_card_submit(
        match_id=match.pk, results={games[0].pk: ("1-0", 0)}, user=d.secretaries[0], expected_version=0
    )
    smtp.wait_for(1)
    match_card_dispute(
        match_id=match.pk, user=d.secretaries[1], reason="Board 1 was a draw", expected_version=submitted.version
    )
    messages = smtp.wait_for(4)
    disputed = [m for m in messages if "disputed" in m[1]]
    assert sorted(r for r, _s, _b in disputed) == [
        "org@example.org",
        "sec-bosporus@example.org",
        "sec-fjord@example.org",
    ]
    assert all("Board 1 was a draw" in body for _r, _s, body in disputed)
    client.force_login(d.organiser)
    match.refresh_from_db()
    client.post(
        f"/en/manage/matches/{match.pk}/settle/",
        card_post(match, {1: "1/2-1/2"}, decision="A draw, as the scoresheets say."),
    )
    messages = smtp.wait_for(6)
    settled = [m for m in messages if "settled" in m[1]]
    assert sorted(r for r, _s, _b in settled) == ["sec-bosporus@example.org", "sec-fjord@example.org"]
    assert all("A draw, as the scoresheets say." in body for _r, _s, body in settled)


def test_a_reminder_before_the_card_confirms_itself_once(smtp):
    d = division()
    match = d.match()
    match_card_submit(match_id=match.pk, results={}, user=d.secretaries[0], expected_version=0)
    smtp.wait_for(1)
    assert match_cards_remind() == 0  # three days to go
    TeamMatch.objects.filter(pk=match.pk).update(submitted_at=timezone.now() - timedelta(days=2, hours=1))
    assert match_cards_remind() == 1
    assert match_cards_remind() == 0  # once
    reminders = [m for m in smtp.wait_for(2) if "Reminder" in m[1]]
    assert [r for r, _s, _b in reminders] == ["sec-bosporus@example.org"]


def test_an_invitation_lets_the_person_choose_a_password_and_log_in(smtp, client):
    d = division()
    client.force_login(d.organiser)
    client.post(
        f"/en/manage/leagues/{d.league.slug}/people/",
        {"email": "arbiter@example.org", "kind": "arbiter", "event": d.event.pk, "email_language": "el"},
    )
    ((recipients, subject, body),) = smtp.wait_for(1)
    assert recipients == "arbiter@example.org"
    # in Greek: the league, who invites, and how long the link works (Django's three days)
    assert "Test League" in subject and "org" in body and "Test League" in body and " 3 ημέρες " in body
    link = search(r"http://league\.example(/el/accounts/reset/\S+/)", body).group(1)
    client.logout()
    form = client.get(link, follow=True)
    assert form.status_code == 200
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "knight-to-f3!", "new_password2": "knight-to-f3!"})
    assert done.status_code == 302
    assert client.login(username="arbiter@example.org", password="knight-to-f3!")
    assert client.get(f"/el/manage/events/{d.event.slug}/").status_code == 200


def test_a_used_invitation_link_offers_to_log_in(smtp, client):
    d = division()
    client.force_login(d.organiser)
    client.post(
        f"/en/manage/leagues/{d.league.slug}/people/",
        {"email": "arbiter@example.org", "kind": "arbiter", "event": d.event.pk, "email_language": "en"},
    )
    ((_recipients, _subject, body),) = smtp.wait_for(1)
    link = search(r"http://league\.example(/en/accounts/reset/\S+/)", body).group(1)
    client.logout()
    form = client.get(link, follow=True)
    client.post(form.redirect_chain[-1][0], {"new_password1": "knight-to-f3!", "new_password2": "knight-to-f3!"})
    client.logout()
    again = client.get(link, follow=True).content.decode()
    assert "has been used or is too old" in again and 'href="/en/accounts/login/"' in again


def test_someone_with_an_account_is_invited_to_log_in_not_to_reset_the_password(smtp, client):
    UserFactory(username="marit", email="marit@example.org")  # has a password already
    d = division()
    client.force_login(d.organiser)
    client.post(
        f"/en/manage/leagues/{d.league.slug}/people/",
        {"email": "marit@example.org", "kind": "organiser", "email_language": "en"},
    )
    ((recipients, subject, body),) = smtp.wait_for(1)
    assert recipients == "marit@example.org" and subject.strip() == "You are invited to Test League"
    assert "http://league.example/en/accounts/login/" in body and "/accounts/reset/" not in body
    assert "marit" in body  # the user name to log in with


def _lined_up_card(d):
    """Round 1 with both boards named: board 1 won by White, board 2 drawn; the home side's score by colours."""
    match = d.match()
    home_club = match.home.team.club.slug
    away_club = ({"fjord", "bosporus"} - {home_club}).pop()
    lineup = {b: (d.players[home_club][b - 1].pk, d.players[away_club][b - 1].pk) for b in (1, 2)}
    return match, card_post(match, {1: "1-0", 2: "1/2-1/2"}, lineup=lineup)


def test_card_mails_carry_the_score_and_the_boards(smtp, client):
    d = division()
    match, post = _lined_up_card(d)
    client.force_login(d.secretaries[0])
    assert client.post(f"/en/manage/matches/{match.pk}/", post).status_code == 302
    ((_recipients, _subject, body),) = smtp.wait_for(1)
    board1, board2 = match.games.select_related("white_player", "black_player").order_by("board")
    home_won_board1 = board1.white_id == match.home_id
    score = "1.5–0.5" if home_won_board1 else "0.5–1.5"
    assert f"{match.home.name} {score} {match.away.name}" in body
    assert f"Board 1: {board1.white_player.name} – {board1.black_player.name}, 1-0" in body
    assert f"Board 2: {board2.white_player.name} – {board2.black_player.name}, ½-½" in body


def test_a_correction_of_a_confirmed_card_says_what_changed(smtp, client):
    d = division()
    match, post = _lined_up_card(d)
    client.force_login(d.secretaries[0])
    client.post(f"/en/manage/matches/{match.pk}/", post)
    match.refresh_from_db()
    match_card_confirm(match_id=match.pk, user=d.secretaries[1], expected_version=match.version)
    smtp.wait_for(3)  # submitted to one club, confirmed to both
    match.refresh_from_db()
    board2 = match.games.get(board=2)
    match_card_submit(
        match_id=match.pk,
        results={board2.pk: ("1-0", board2.version)},
        user=d.organiser,
        expected_version=match.version,
        reason="The scoresheet of board 2 says White won.",
    )
    corrected = [m for m in smtp.wait_for(5) if "Match card corrected" in m[1]]
    assert sorted(r for r, _s, _b in corrected) == ["sec-bosporus@example.org", "sec-fjord@example.org"]
    for _r, _s, body in corrected:
        assert "Board 2: ½-½ → 1-0" in body and "Board 1:" not in body.split("What changed")[1].split("\n\n")[0]
        assert "The scoresheet of board 2 says White won." in body


def test_password_reset_sends_the_link(smtp, client):
    d = division()
    response = client.post("/en/accounts/password_reset/", {"email": "sec-fjord@example.org"})
    assert response.status_code == 302
    ((recipients, _subject, body),) = smtp.wait_for(1)
    assert recipients == "sec-fjord@example.org" and "/en/accounts/reset/" in body
    assert d.secretaries[0].username in body


def test_a_mail_server_that_is_down_loses_no_result_and_blocks_no_request(tmp_path, settings, client):
    with smtp_server(tmp_path / "mail", start=False) as down:  # nothing listens on its port
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", down.port
        d = division()
        match = d.match()
        client.force_login(d.secretaries[0])
        response = client.post(f"/en/manage/matches/{match.pk}/", card_post(match, {1: "1-0"}))
        assert response.status_code == 302
        assert TeamMatch.objects.get(pk=match.pk).status == TeamMatch.Status.SUBMITTED
        assert match.games.get(board=1).result == "1-0"


def test_the_demo_sends_no_mail(smtp):
    call_command("load_demo", stdout=open("/dev/null", "w"))
    assert smtp.messages() == []


@pytest.mark.parametrize(("federation", "month_first"), [("USA", True), ("NOR", False)])
def test_a_card_mail_writes_the_day_as_the_league_s_country_does(smtp, client, federation, month_first):
    """Issue 38: a US league's English mail says "confirms itself on Dec 9, 2026", a European one "9 Dec 2026"."""
    d = division()
    d.league.federation = federation
    d.league.save()
    match = d.match()
    client.force_login(d.secretaries[0])
    assert client.post(f"/en/manage/matches/{match.pk}/", card_post(match, {1: "1-0"})).status_code == 302
    ((_recipients, _subject, body),) = smtp.wait_for(1)
    match.refresh_from_db()
    day = (present(match.submitted_at) + timedelta(days=d.league.auto_confirm_days)).date()  # the site's zone is UTC
    month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][day.month - 1]
    written = f"{month} {day.day}, {day.year}" if month_first else f"{day.day} {month} {day.year}"
    assert f"confirms itself on {written}." in " ".join(body.split())
