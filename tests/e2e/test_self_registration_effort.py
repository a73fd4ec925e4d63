"""Issue #33: what entering 30 players costs the organiser when the players register themselves, counted in a real
browser (as tests/e2e/test_bulk_entry_effort.py counts entering them by hand and from a list): the 30 players type
their own registrations (not the organiser's work), then the organiser opens the event's registrations and accepts
them all, once ticking each and once with the box that chooses everyone waiting for a decision.

Run with -s to read the counts."""

import pytest
from selenium.webdriver.support.select import Select

from leagues.models import Entry, Event, Registration, Role
from leagues.services.registration import registration_settings_save, registration_submit
from tests.e2e.browsing import wait
from tests.factories import EventFactory, LeagueFactory, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def two_opens():
    organiser = UserFactory(username="organiser")  # password "pw"
    events = []
    for name in ("Ticked", "Chosen At Once"):
        league = LeagueFactory(name=f"{name} League", players_without_club=True)
        Role.objects.create(user=organiser, kind=Role.Kind.ORGANISER, league=league)
        event = EventFactory(league=league, name=f"{name} Open", status=Event.Status.PUBLISHED, rounds_count=5)
        fresh = type(organiser).objects.get(pk=organiser.pk)  # the roles it holds are read once per user object
        registration_settings_save(event=event, user=fresh, fields={"is_open": True})
        for n in range(30):  # the players' own work
            registration_submit(
                event=event,
                language="en",
                email=f"p{n}@example.org",
                name=f"Player, Number {n}",
                federation="NOR",
                birth_year=1960 + n,
            )
        events.append(event)
    return events


class Clicks:
    def __init__(self):
        self.clicks = 0

    def click(self, element):
        element.click()
        self.clicks += 1


def _accept_all(browser, live_server, event, *, tick_each: bool) -> Clicks:
    hands = Clicks()
    browser.get(f"{live_server.url}/en/manage/events/{event.slug}/")
    hands.click(browser.find_element("link text", "Registration and check-in"))
    if tick_each:
        for box in browser.find_elements("css selector", 'tr[data-status="pending"] input[name="ids"]'):
            browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
            hands.click(box)
    else:
        box = browser.find_element("id", "choose-pending")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        hands.click(box)
    Select(browser.find_element("id", "bulk-action")).select_by_visible_text("Accept")
    hands.clicks += 2  # open the list, pick "Accept"
    hands.click(browser.find_element("xpath", "//button[normalize-space()='Apply']"))
    wait(browser, lambda d: "Done: 30 registrations." in d.page_source)
    return hands


def test_thirty_self_registered_players_accepted(browser, live_server, two_opens):
    browser.get(f"{live_server.url}/en/accounts/login/")
    browser.find_element("name", "username").send_keys("organiser")
    browser.find_element("name", "password").send_keys("pw\n")
    wait(browser, lambda d: "/accounts/login/" not in d.current_url)

    ticked = _accept_all(browser, live_server, two_opens[0], tick_each=True)
    chosen = _accept_all(browser, live_server, two_opens[1], tick_each=False)
    print(f"\n30 self-registered players accepted, ticking each: {ticked.clicks} clicks, 0 keystrokes")
    print(f"30 self-registered players accepted with one box: {chosen.clicks} clicks, 0 keystrokes")
    for event in two_opens:
        assert Registration.objects.filter(event=event, status="accepted").count() == 30
        assert Entry.objects.filter(event=event).count() == 30
    # one click to the page, one per player or one for all, two for the action, one to apply
    assert (ticked.clicks, chosen.clicks) == (1 + 30 + 2 + 1, 1 + 1 + 2 + 1)
