"""A player asks to withdraw after round 1 and the organiser confirms (issue #33), in a real Chromium on a 390 px
phone, the player in Hebrew (right to left): the page of the link in their e-mails asks with a labelled reason and a
button, fits the phone without sideways scrolling and passes axe-core's WCAG 2.1 AA rules (as
tests/e2e/test_accessibility.py checks every page); the organiser's registrations page lists the request with its
reason, passes axe too, and one button withdraws the player from round 2 on."""

import pytest

from leagues.models import Event, Registration
from leagues.services.registration import (
    registration_settings_save,
    registration_submit,
    registrations_decide,
    withdraw_token,
)
from leagues.services.round_pairings import pairing_publish, round_pair
from tests.e2e.browsing import wait
from tests.e2e.test_accessibility import axe_violations, load_axe_into_every_page
from tests.e2e.test_browser import phone, save_png
from tests.factories import EventFactory, organiser_of
from tests.helpers import present

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

REASON = "חולה בשפעת"  # "ill with flu"
SCROLL_WIDTH = "return document.documentElement.scrollWidth"


@pytest.fixture
def started(live_server):
    event = EventFactory(status=Event.Status.PUBLISHED, name="Fjord Open", slug="fjord-open", rounds_count=5)
    event.league.players_without_club = True
    event.league.save()
    organiser = organiser_of(event.league)
    organiser.username, organiser.email = "organiser", "organiser@example.org"
    organiser.set_password("pw")
    organiser.save()
    registration_settings_save(event=event, user=organiser, fields={"is_open": True})
    for n in range(1, 5):
        registration_submit(
            event=event,
            language="he" if n == 1 else "en",
            email=f"p{n}@example.org",
            name=f"Player, Number {n}",
            federation="NOR",
            birth_year=1990,
        )
    registrations_decide(
        event=event, user=organiser, ids=Registration.objects.values_list("pk", flat=True), decision="accept"
    )
    pairing_publish(pairing=round_pair(event=event, round_number=1, user=organiser), user=organiser)
    return event, Registration.objects.get(name="Player, Number 1")


def test_a_player_asks_on_a_phone_and_the_organiser_confirms(browser, live_server, started):
    event, asking = started
    load_axe_into_every_page(browser)
    browser.set_script_timeout(60)
    phone(browser)
    browser.get(f"{live_server.url}/he/registration/withdraw/{withdraw_token(asking)}/")
    assert browser.find_element("tag name", "html").get_attribute("dir") == "rtl"
    reason = browser.find_element("id", "reason")
    assert browser.find_element("css selector", "label[for=reason]").text
    assert browser.execute_script(SCROLL_WIDTH) <= 390
    assert axe_violations(browser) == []
    save_png(browser, "withdrawal-request-he-phone.png")
    reason.send_keys(REASON)
    button = browser.find_element("css selector", "main form button[type=submit]")
    assert browser.execute_script(
        "const b = arguments[0].getBoundingClientRect(); return b.left >= 0 && b.right <= 390", button
    )
    button.click()
    status = wait(browser, lambda d: d.find_element("css selector", "p.withdrawal-requested"))
    assert "Player, Number 1" in status.text
    assert browser.execute_script(SCROLL_WIDTH) <= 390
    assert axe_violations(browser) == []
    asking.refresh_from_db()
    assert (asking.status, asking.withdrawal_reason) == ("accepted", REASON)

    browser.get(f"{live_server.url}/en/accounts/login/")
    browser.find_element("name", "username").send_keys("organiser")
    browser.find_element("name", "password").send_keys("pw\n")
    wait(browser, lambda d: "/accounts/login/" not in d.current_url)
    browser.get(f"{live_server.url}/en/manage/events/{event.slug}/registration/")
    request = browser.find_element("id", f"withdrawal-request-{asking.pk}")
    assert REASON in request.text
    assert axe_violations(browser) == []
    save_png(browser, "withdrawal-request-organiser-phone.png")
    request.find_element("xpath", ".//button[normalize-space()='Withdraw Player, Number 1']").click()
    wait(browser, lambda d: "Withdrawn: Player, Number 1." in d.page_source)
    asking = Registration.objects.select_related("entry").get(pk=asking.pk)
    entry = present(asking.entry)
    assert (asking.status, entry.withdrawn_after_round) == ("withdrawn", 1)  # not paired from round 2 on
    assert not browser.find_elements("id", f"withdrawal-request-{asking.pk}")
