"""A player's profile across events: points, performance and FIDE rating change; search by name or FIDE id."""

import datetime
import html
import re

import pytest

from leagues.models import Entry, Player, Result
from tests.factories import EventFactory, PlayerFactory, organiser_of
from tests.functional.conftest import LANGUAGES, publish_results, record
from tests.helpers import search

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana(db):
    """Ana (2000) beats Bo (2100) and draws with Cy (1900). Worked by hand, table 8.1(b), K 20:
    the win +1 - .36 = +.64, the draw .5 - .64 = -.14: 20 x .50 = +10.0. Performance: average 2000,
    1½ of 2 = 75 %, dp +193: 2193."""
    event = EventFactory(name="Spring Open", slug="spring-open", rounds_count=2, starts_on=datetime.date(2026, 4, 1))
    ratings = {"Ana, Lee": 2000, "Bo, Kim": 2100, "Cy, Ray": 1900}
    entries = []
    for number, (name, rating) in enumerate(ratings.items(), start=1):
        player = PlayerFactory(name=name, rating=rating, fide_id=900000 + number, federation="NOR")
        entries.append(Entry.objects.create(event=event, start_number=number, player=player, rating=rating))
    a, b, c = entries
    record(event, 1, 1, a, b, Result.WHITE_WINS)
    record(event, 1, 2, c, None, Result.PAIRING_BYE)
    record(event, 2, 1, c, a, Result.DRAW)
    record(event, 2, 2, b, None, Result.PAIRING_BYE)
    publish_results(event)
    return a.player


def _text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_profile_shows_points_performance_and_rating_change(client, ana):
    html = client.get(f"/en/players/{ana.pk}/").content.decode()
    row = _text(search(r'<table class="profile-events">.*?</table>', html, re.S).group(0))
    assert "Spring Open" in row and "1.5" in row and "2193" in row and "+10.0" in row
    assert "https://ratings.fide.com/profile/900001" in html
    games = _text(search(r'<details class="profile-games">.*?</details>', html, re.S).group(0))
    assert "+12.8" in games and "−2.8" in games  # 20 x .64 and 20 x -.14


def test_event_player_page_shows_the_change_per_game_and_links_the_profile(client, ana):
    html = client.get("/en/events/spring-open/players/1/").content.decode()
    assert f'href="/en/players/{ana.pk}/"' in html
    assert "Rating change +10.0 over 2 rated games; performance 2193." in _text(html)
    assert "+12.8" in html


def test_a_junior_has_k_40_without_the_birth_year_showing(client, ana):
    Player.objects.filter(pk=ana.pk).update(birth_year=2010)  # 16 in 2026, under 2300: K 40
    html = client.get(f"/en/players/{ana.pk}/").content.decode()
    assert "+20.0" in html and "2010" not in html


@pytest.mark.parametrize("lang", LANGUAGES)
def test_profile_in_every_language(client, ana, lang):
    response = client.get(f"/{lang}/players/{ana.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert ('dir="rtl"' if lang == "he" else 'dir="ltr"') in html[:300]
    assert "2193" in html


def test_search_by_name_or_fide_id_from_every_page(client, ana):
    assert 'action="/en/players/"' in client.get("/en/events/spring-open/").content.decode()
    found = client.get("/en/players/?q=ana").content.decode()
    assert f'href="/en/players/{ana.pk}/"' in found
    by_id = client.get("/en/players/?q=900001")
    assert by_id.status_code == 302 and by_id["Location"] == f"/en/players/{ana.pk}/"
    assert "No player found" in client.get("/en/players/?q=99999999999999999999").content.decode()


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_an_anonymised_player_is_not_found_and_shows_initials(client, ana, django_capture_on_commit_callbacks):
    client.force_login(organiser_of(ana.entry_set.first().event.league))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/en/players/{ana.pk}/initials/", {"anonymised": "1"})
    assert response.status_code == 302
    client.logout()
    assert f"/en/players/{ana.pk}/" not in client.get("/en/players/?q=ana").content.decode()
    assert client.get("/en/players/?q=900001").status_code == 200  # no redirect: not found
    html = client.get(f"/en/players/{ana.pk}/").content.decode()
    assert "L. A." in html and "Ana" not in html and "900001" not in html


def test_only_an_organiser_may_anonymise(client, ana):
    assert client.post(f"/en/players/{ana.pk}/initials/", {"anonymised": "1"}).status_code == 403
    assert not Player.objects.get(pk=ana.pk).anonymised


@pytest.mark.parametrize(
    ("registry", "change", "k_text"),
    [
        ({}, "+10.0", "K = 20: rated below 2400; 30 or more rated games assumed"),
        ({"fide_games": 45}, "+10.0", "K = 20: rated below 2400."),
        ({"fide_games": 12}, "+20.0", "K = 40: fewer than 30 rated games"),  # new to FIDE's list
        (
            {"birth_year": 2008, "birth_date": datetime.date(2008, 12, 31)},
            "+20.0",
            "K = 40: under 18, rated below 2300",
        ),
        ({"birth_year": 2007}, "+10.0", "K = 20: rated below 2400"),  # 19 in 2026
        ({"k_factor": 10, "fide_games": 12}, "+5.0", "K = 10: as on FIDE's rating list"),  # the list's K wins
    ],
)
def test_the_player_page_says_which_k_the_rating_change_used_and_why(client, ana, registry, change, k_text):
    Player.objects.filter(pk=ana.pk).update(**registry)
    page = _text(html.unescape(client.get("/en/events/spring-open/players/1/").content.decode()))
    assert f"Rating change {change} over 2 rated games" in page and k_text in page
    profile = html.unescape(client.get(f"/en/players/{ana.pk}/").content.decode())
    assert k_text.rstrip(".") in profile  # the K column's explanation
    assert "2008" not in profile and "2007" not in profile  # the birth stays private


def test_the_k_column_and_its_reason_are_translated(client, ana):
    Player.objects.filter(pk=ana.pk).update(fide_games=3)
    html = client.get("/el/events/spring-open/players/1/").content.decode()
    assert "K = 40: λιγότερες από 30 παρτίδες με αξιολόγηση" in html


@pytest.mark.parametrize(
    ("lang", "label", "misread"),
    [
        ("en", "National federation ID", "National id"),
        ("tr", "Ulusal federasyon numarası", "Ulusal kimlik"),  # the citizen's identity number
        ("nb", "ID i det nasjonale forbundet", "Nasjonal id"),
        ("el", "Αριθμός μητρώου εθνικής ομοσπονδίας", "Εθνικός κωδικός"),
    ],
)
def test_the_national_id_is_named_the_federation_s_number(client, ana, lang, label, misread):
    Player.objects.filter(pk=ana.pk).update(national_id="NOR-123456")
    text = _text(client.get(f"/{lang}/players/{ana.pk}/").content.decode())
    assert f"{label} NOR-123456" in text
    assert misread not in text
