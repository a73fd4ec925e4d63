"""Issue 31 (FIDE's 2026 checklist Q46): an event out of FIDE mode says so on every page of its management, not
only on its own page: the organiser always sees that changes after the start are hard warnings, shown publicly."""

import pytest

from tests.factories import EntryFactory, EventFactory, PlayerFactory, organiser_of

pytestmark = pytest.mark.django_db

PAGES = ("", "entries/", "prizes/", "pairing/1/", "policy/", "tied/", "playoffs/", "audit/", "rating-report/")
NOTE = "Out of FIDE mode: each change of a setting after the start is a hard warning, shown publicly."


@pytest.mark.parametrize("fide_mode", [False, True])
def test_every_management_page_of_an_event_out_of_fide_mode_says_so(client, fide_mode):
    event = EventFactory(rounds_count=5, fide_mode=fide_mode)
    for n in range(1, 5):
        EntryFactory(event=event, start_number=n, player=PlayerFactory(), rating=2000 - n)
    client.force_login(organiser_of(event.league))
    for page in PAGES:
        answer = client.get(f"/en/manage/events/{event.slug}/{page}")
        assert answer.status_code == 200, (page, answer.status_code)
        shown = answer.content.decode()
        assert ('id="fide-mode-off"' in shown) is not fide_mode, page
        if not fide_mode:
            assert NOTE in shown


def test_the_note_is_translated(client):
    event = EventFactory(rounds_count=5, fide_mode=False)
    client.force_login(organiser_of(event.league))
    for lang in ("el", "tr", "he", "nb"):
        shown = client.get(f"/{lang}/manage/events/{event.slug}/policy/").content.decode()
        assert 'id="fide-mode-off"' in shown and NOTE not in shown, lang
