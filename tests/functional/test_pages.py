"""Every page answers in all five languages, with the right <html lang> and direction."""

import re

import pytest
from django.core.management import call_command

LANGUAGES = ["en", "el", "tr", "he", "nb"]


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        call_command("load_demo", stdout=open("/dev/null", "w"))
    yield
    with django_db_blocker.unblock():
        from leagues.models import League

        League.objects.filter(slug="demo-league").delete()


PAGES = ["/{lang}/", "/{lang}/events/demo-autumn-open/", "/{lang}/events/demo-division-1/"]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_page_answers_in_every_language(client, demo, lang, page):
    response = client.get(page.format(lang=lang))
    assert response.status_code == 200
    html = response.content.decode()
    tag = re.search(r"<html[^>]*>", html).group(0)
    assert f'lang="{lang}"' in tag
    assert ('dir="rtl"' if lang == "he" else 'dir="ltr"') in tag


@pytest.mark.django_db
def test_standings_page_shows_the_demo_swiss(client, demo):
    html = client.get("/en/events/demo-autumn-open/").content.decode()
    assert "Autumn Open 2026" in html
    assert "fide-2026" in html
    # eleven players, one row each
    assert html.count("<tr>") == 1 + 11


@pytest.mark.django_db
def test_unknown_event_is_404(client):
    assert client.get("/en/events/no-such-event/").status_code == 404


def test_root_redirects_to_a_language(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response["Location"] == "/en/"


@pytest.mark.django_db
def test_standings_say_being_updated_while_results_are_newer(client, demo):
    from leagues.models import Event

    url = "/en/events/demo-autumn-open/"
    assert "Being updated" not in client.get(url).content.decode()
    Event.objects.filter(slug="demo-autumn-open").update(results_version=999)
    assert "Being updated" in client.get(url).content.decode()
