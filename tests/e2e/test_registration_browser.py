"""A 60-player open filled by the players themselves (issue #33), in a real browser, with a real SMTP server process
reading the e-mails.

The organiser opens registration on the event's page (limit 60, waiting list, a fee of 20.00, a check-in closing
time). Players register on the public form: a few in the browser (one by FIDE id, one in Norwegian, one submitting
twice), the rest through the same HTTP form by a plain HTTP client; past the limit the form says the event is full
and the next registrations go to the waiting list. The organiser accepts the 60 in bulk (checkboxes), records three
fees paid, checks in 58, closes the check-in, confirms the two no-shows once, pairs and publishes round 1 (29
boards, neither no-show on them), and exports the entries and the fees' ledger as CSV.
"""

import csv
import io
from datetime import timedelta

import pytest
import requests
from django.utils import timezone

from leagues.models import Entry, Event, FeeRecord, Game, League, Registration, RoundPairing
from tests.e2e.browsing import wait
from tests.factories import EventFactory, LeagueFactory, PlayerFactory, RoleFactory, UserFactory
from tests.helpers import present
from tests.smtp import smtp_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LIMIT = 60


@pytest.fixture
def smtp(tmp_path, settings, live_server):
    with smtp_server(tmp_path / "mail") as server:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
        settings.SITE_URL = live_server.url
        yield server


def _field(driver, name, value):
    element = driver.find_element("name", name)
    element.clear()
    if value:
        element.send_keys(str(value))


def _press(driver, text):
    old = driver.find_element("tag name", "html")
    driver.find_element("xpath", f"//button[normalize-space()={text!r}]").click()
    wait(driver, lambda d: old.id != d.find_element("tag name", "html").id, timeout=120)


def _register_in_browser(driver, base, slug, language="en", **fields):
    driver.get(f"{base}/{language}/events/{slug}/register/")
    for name, value in fields.items():
        _field(driver, name, value)
    old = driver.find_element("tag name", "html")
    driver.find_element("css selector", "form.register-form button[type=submit]").click()
    wait(driver, lambda d: old.id != d.find_element("tag name", "html").id)
    return driver.find_element("tag name", "main").text


def _tick(driver, registrations):
    for registration in registrations:
        box = driver.find_element("id", f"choose-{registration.pk}")
        # not ticked yet: brought to the middle of the window, then clicked (one round trip for both questions)
        if not driver.execute_script(
            "const box = arguments[0];"
            "if (box.checked) return true; box.scrollIntoView({block: 'center'}); return false",
            box,
        ):
            box.click()


def _bulk(driver, action_label):
    from selenium.webdriver.support.select import Select

    Select(driver.find_element("id", "bulk-action")).select_by_visible_text(action_label)
    _press(driver, "Apply")
    return driver.find_element("css selector", "ul.messages").text


def test_a_sixty_player_open_filled_by_self_registration(browser, live_server, smtp):
    base = live_server.url
    league = LeagueFactory(name="Fjord League", slug="fjord-league")
    League.objects.filter(pk=league.pk).update(players_without_club=True)
    event = EventFactory(
        league=league, name="Fjord Open", slug="fjord-open", rounds_count=5, status=Event.Status.PUBLISHED
    )
    organiser = UserFactory(username="organiser")  # password "pw"
    RoleFactory(user=organiser, league=league)
    PlayerFactory(name="Berg, Anna", fide_id=1500100, rating=2250, federation="NOR")  # in the registry already

    # the organiser opens registration on the event's page
    browser.get(f"{base}/en/accounts/login/")
    _field(browser, "username", "organiser")
    _field(browser, "password", "pw")
    _press(browser, "Log in")
    browser.get(f"{base}/en/manage/events/{event.slug}/")
    browser.find_element("link text", "Registration and check-in").click()
    browser.find_element("id", "id_is_open").click()
    _field(browser, "limit", LIMIT)
    _field(browser, "fee", "20.00")
    later = timezone.localtime(timezone.now() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    browser.execute_script(
        "arguments[0].value = arguments[1]", browser.find_element("name", "checkin_closes_at"), later
    )
    _press(browser, "Save")
    assert "The registration settings are saved." in browser.find_element("css selector", "ul.messages").text
    browser.delete_all_cookies()  # the players are not logged in

    # a few players register in the browser
    browser.get(f"{base}/en/events/{event.slug}/")
    browser.find_element("link text", "Registration form").click()
    assert "60 places left." in browser.find_element("tag name", "main").text
    text = _register_in_browser(browser, base, event.slug, fide_id="1500100", email="anna@example.org")
    assert "Berg, Anna, your registration is received." in text
    norwegian = {"name": "Dahl, Ola", "federation": "NOR", "birth_year": "1988", "email": "ola@example.org"}
    text = _register_in_browser(browser, base, event.slug, "nb", **norwegian)
    assert "Dahl, Ola" in text and "your registration is received" not in text  # told in Norwegian
    twice = {"name": "Eide, Liv", "federation": "NOR", "birth_year": "2001", "email": "liv@example.org"}
    _register_in_browser(browser, base, event.slug, **twice)
    text = _register_in_browser(browser, base, event.slug, **twice)  # submitted again: no second registration
    assert "Eide, Liv is registered already" in text
    assert Registration.objects.filter(event=event).count() == 3

    # the rest through the same HTTP form, by a plain HTTP client
    with requests.Session() as http:
        for n in range(4, LIMIT + 1):
            answer = http.post(
                f"{base}/en/events/{event.slug}/register/",
                data={
                    "name": f"Player, Number {n:02d}",
                    "federation": "NOR",
                    "birth_year": str(1960 + n % 40),
                    "email": f"p{n}@example.org",
                },
                timeout=60,
            )
            assert answer.status_code == 200 and "your registration is received" in answer.text
        # the limit is reached: the form says so, and the next registrations go to the waiting list
        form = http.get(f"{base}/en/events/{event.slug}/register/", timeout=60).text
        assert "The event is full: a new registration goes to the waiting list." in form
        late = http.post(
            f"{base}/en/events/{event.slug}/register/",
            data={"name": "Late, Lars", "federation": "NOR", "birth_year": "1999", "email": "lars@example.org"},
            timeout=60,
        )
        assert "you are on the waiting list" in late.text
    text = _register_in_browser(
        browser, base, event.slug, name="Later, Lise", federation="NOR", birth_year="1995", email="lise@example.org"
    )
    assert "the event is full: you are on the waiting list" in text
    statuses = list(Registration.objects.filter(event=event).values_list("status", flat=True))
    assert statuses.count("pending") == LIMIT and statuses.count("waiting") == 2

    # the organiser accepts the 60 in bulk
    browser.get(f"{base}/en/accounts/login/")
    _field(browser, "username", "organiser")
    _field(browser, "password", "pw")
    _press(browser, "Log in")
    page = f"{base}/en/manage/events/{event.slug}/registration/"
    browser.get(page)
    pending = list(Registration.objects.filter(event=event, status="pending"))
    waiting = list(Registration.objects.filter(event=event, status="waiting"))
    _tick(browser, pending + waiting[:1])
    assert "Only 60 of the 60 places are free: accept fewer players." in _bulk(browser, "Accept")  # 61: refused
    assert not Entry.objects.filter(event=event).exists()
    _tick(browser, pending)
    assert "Done: 60 registrations." in _bulk(browser, "Accept")
    entries = list(Entry.objects.filter(event=event).select_related("player").order_by("start_number"))
    assert len(entries) == LIMIT and [e.start_number for e in entries] == list(range(1, LIMIT + 1))
    assert present(entries[0].player).name == "Berg, Anna"  # the only rated player: start number 1
    assert FeeRecord.objects.filter(registration__event=event, kind="due").count() == LIMIT

    # three pay at the desk; 58 check in
    payers = pending[:3]
    _tick(browser, payers)
    assert "Done: 3 registrations." in _bulk(browser, "Entry fee paid")
    no_shows = [r for r in pending if r.email in ("p17@example.org", "p42@example.org")]
    checking_in = [r for r in pending if r not in no_shows]
    _tick(browser, checking_in)
    assert "Done: 58 registrations." in _bulk(browser, "Check in")

    # the organiser closes the check-in: round 1 waits for the one confirmation
    earlier = timezone.localtime(timezone.now() - timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M")
    browser.execute_script(
        "arguments[0].value = arguments[1]", browser.find_element("name", "checkin_closes_at"), earlier
    )
    old = browser.find_element("tag name", "html")
    browser.find_element("name", "checkin_closes_at").submit()
    wait(browser, lambda d: old.id != d.find_element("tag name", "html").id)
    notice = browser.find_element("css selector", "p.updating").text
    assert "The check-in has closed" in notice
    browser.find_element("css selector", "p.updating a").click()
    listed = [li.text for li in browser.find_elements("css selector", "ul.no-shows li")]
    numbers = {r.pk: present(Registration.objects.get(pk=r.pk).entry).start_number for r in no_shows}
    assert sorted(listed) == sorted(f"{numbers[r.pk]}. {r.name}" for r in no_shows)
    _press(browser, "Withdraw these 2 players from round 1")
    assert "2 players withdrawn from round 1" in browser.find_element("css selector", "ul.messages").text
    withdrawn = set(Entry.objects.filter(event=event, withdrawn_after_round=0).values_list("pk", flat=True))
    assert len(withdrawn) == 2

    # round 1 is paired and published without them
    browser.get(f"{base}/en/manage/events/{event.slug}/pairing/1/")
    browser.find_element("xpath", "//button[normalize-space()='Pair round 1']").click()
    wait(browser, lambda d: d.find_elements("css selector", "section.pairing-preview table.pairings"), timeout=180)
    assert RoundPairing.objects.get(round__event=event).status == RoundPairing.Status.READY
    old = browser.find_element("tag name", "html")
    browser.find_element("xpath", "//button[normalize-space()='Publish round 1']").click()
    wait(browser, lambda d: old.id != d.find_element("tag name", "html").id, timeout=60)
    # the published round, or the page's answer if it is not (what a failure here shows)
    wait(browser, lambda d: d.find_elements("css selector", "section.published, ul.messages"), timeout=60)
    assert browser.find_elements("css selector", "section.published"), browser.find_element("tag name", "main").text
    games = list(Game.objects.filter(round__event=event, round__number=1))
    boards = [g for g in games if g.black_id is not None]
    assert len(boards) == 29 and not any(g.result == "bye:pairing" for g in games)
    on_boards = {g.white_id for g in boards} | {g.black_id for g in boards}
    assert len(on_boards) == 58 and not on_boards & withdrawn

    # the entries and the ledger, exported (with the organiser's session)
    http = requests.Session()
    for cookie in browser.get_cookies():
        http.cookies.set(cookie["name"], cookie["value"])
    exported = http.get(f"{page}registrations.csv", timeout=60)
    assert exported.headers["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(exported.text)))
    assert rows[0][:2] == ["Start number", "Name"]
    accepted = [row for row in rows[1:] if row[7] == "accepted"]
    assert len(accepted) == LIMIT and [row[0] for row in accepted] == [str(n) for n in range(1, LIMIT + 1)]
    assert sum(row[8] == "yes" for row in accepted) == 58
    assert sum(row[9] == "0.00" for row in accepted) == 3  # the three who paid owe nothing
    ledger = list(csv.reader(io.StringIO(http.get(f"{page}entry-fees.csv", timeout=60).text)))
    kinds = [row[3] for row in ledger[1:]]
    assert kinds.count("due") == LIMIT and kinds.count("paid") == 3
    assert all(row[4] == "20.00" and row[6] == "organiser" for row in ledger[1:])

    # the e-mails: 62 registrations, 60 acceptances, each in the entrant's language
    messages = smtp.wait_for(2 * LIMIT + 2, timeout=60)
    assert len(messages) == 2 * LIMIT + 2
    ola = sorted(subject for to, subject, _body in messages if to == "ola@example.org")
    assert ola == ["Påmelding til Fjord Open: godtatt", "Påmelding til Fjord Open: mottatt"]
    lise = [subject for to, subject, _body in messages if to == "lise@example.org"]
    assert lise == ["Registration for Fjord Open: waiting list"]
    liv = sorted(subject for to, subject, _body in messages if to == "liv@example.org")
    assert liv == ["Registration for Fjord Open: accepted", "Registration for Fjord Open: received"]
