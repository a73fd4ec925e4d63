"""Every page type passes axe-core's WCAG 2.1 AA rules, its 24 px target size (WCAG 2.2) and its landmark and
heading rules, in a real Chromium, with no violation of any impact: every page type in all five languages at desktop
width (1280 px) and at phone width (390 px), logged out and as the organiser and a club secretary. Each page is loaded
once and checked at both widths: the browser's window is resized between the two checks (the pages lay out by CSS
alone; no script reads the width), and the next page is loaded at the width the last check left, so a page costs one
load and one resize. Colour contrast, which does not change with the language and takes over half of axe's time, is
checked on every page at desktop width in English, and at phone width on each page type once in one of the languages,
the language turning with the day (AXE_ROTATION=N fixes it), so every page's phone-width contrast is checked each day
and every language's in five days.
One test per language, so the suite's two processes share them.
axe-core (MPL-2.0) is not copied here: it is loaded from the file the test extra's selenium-axe-python package
installs (axe-core 4.9), once per browser, into every page it opens. Its violations by rule and impact are written to
ARTIFACTS_DIR/axe-<lang>.json (the before/after table of issues 21 and 38)."""

import datetime
import json
import os
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
import selenium_axe_python
from django.contrib.auth import get_user_model
from django.utils import timezone
from selenium.webdriver.support.wait import WebDriverWait

from leagues.models import (
    Club,
    Entry,
    Event,
    Game,
    LeagueRule,
    Player,
    Registration,
    Result,
    Role,
    Season,
    Team,
    TeamMatch,
)
from leagues.services.cups import cup_draw
from leagues.services.games import public_games
from leagues.services.league_rules import rule_save
from leagues.services.ranking_lists import ranking_list_set
from leagues.services.registration import (
    RosterLine,
    fees_record,
    registration_settings_save,
    registration_submit,
    registrations_decide,
    team_registration_submit,
    withdraw_token,
)
from leagues.services.results import result_record
from tests.e2e.demo import load_demo
from tests.e2e.test_browser import phone
from tests.helpers import present
from tiebreaks.views import GUIDES

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE_JS = Path(selenium_axe_python.__file__).parent / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
WCAG22_RULES = ["target-size"]  # of WCAG 2.2 AA, only the 24 px targets
# axe tags these 'best-practice', so the WCAG tags above leave them out: landmarks and headings a
# screen reader user navigates by (one main, unique landmark names, all content in landmarks, an h1,
# no skipped heading level)
STRUCTURE_RULES = ["heading-order", "landmark-unique", "region", "landmark-one-main", "page-has-heading-one"]
# and a table's column without a heading (its cells are read without one)
STRUCTURE_RULES += ["empty-table-header"]
# AXE_PAGES=prizes,why runs only the pages whose path contains one of these (while fixing a finding, or checking
# a new page type: with -k for the language, e.g. -k he)
ONLY = [part for part in os.environ.get("AXE_PAGES", "").split(",") if part]
PASSWORD = "demo-chess-2026"
TEAM, OPEN = "demo-division-1", "demo-autumn-open"
REGISTERING = "demo-winter-open"  # an event taking registrations (the demo's events have started)
TEAM_REGISTERING = "demo-team-rapid"  # a team event taking teams' registrations
KNOCKOUT = "demo-knockout"  # a knock-out cup of individual games
LANGUAGES = ("en", "el", "tr", "he", "nb")
ROTATION = int(os.environ.get("AXE_ROTATION") or datetime.datetime.now(datetime.UTC).date().toordinal())


def registering_event():
    """An event with registration open: players registered, accepted, on the waiting list, fees recorded, and a
    check-in that has closed (the registration pages and the no-shows page have something to show)."""
    open_event = Event.objects.get(slug=OPEN)
    event = Event.objects.create(
        league=open_event.league,
        season=open_event.season,
        name="Winter Open 2026",
        slug=REGISTERING,
        system=Event.System.SWISS,
        rounds_count=5,
        status=Event.Status.PUBLISHED,
        starts_on=datetime.date(2026, 12, 20),
    )
    organiser = get_user_model().objects.get(username="organiser")
    now = timezone.now()
    fields = {"is_open": True, "deadline": now + datetime.timedelta(days=7), "limit": 3, "fee": Decimal("20.00")}
    registration_settings_save(event=event, user=organiser, fields=fields)
    players = Player.objects.filter(entry__event__slug=OPEN).distinct()[:4]
    made = [
        registration_submit(
            event=event,
            language="en",
            fide_id=p.fide_id or "",
            name=p.name,
            birth_year=p.birth_year or 1990,
            federation=p.federation,
            email=f"player{n}@example.org",
        )[0]
        for n, p in enumerate(players)
    ]
    registrations_decide(event=event, user=organiser, ids=[r.pk for r in made[:2]], decision="accept")
    fees_record(event=event, user=organiser, ids=[made[0].pk], kind="paid")
    registration_settings_save(event=event, user=organiser, fields={"checkin_closes_at": now})


def team_registering_event():
    """A team event taking registrations: two captains' teams registered, one of them accepted (the captain's form
    and the organiser's team registrations page have something to show)."""
    division = Event.objects.get(slug=TEAM)
    event = Event.objects.create(
        league=division.league,
        season=division.season,
        name="Team Rapid 2026",
        slug=TEAM_REGISTERING,
        kind=Event.Kind.TEAM,
        system=Event.System.SWISS,
        rounds_count=5,
        boards=2,
        status=Event.Status.PUBLISHED,
        starts_on=datetime.date(2026, 12, 27),
    )
    organiser = get_user_model().objects.get(username="organiser")
    deadline = timezone.now() + datetime.timedelta(days=7)
    registration_settings_save(event=event, user=organiser, fields={"is_open": True, "deadline": deadline, "limit": 4})
    made = [
        team_registration_submit(
            event=event,
            language="en",
            email=f"captain{n}@example.org",
            team=f"{club} Rapid",
            club=club,
            players=[
                RosterLine(name=f"{club} Rapid, Player {b}", federation="NOR", birth_year=1990 + b) for b in (1, 2)
            ],
        )[0]
        for n, club in enumerate(("Oslo Sjakkselskap", "Haifa Chess Club"))
    ]
    registrations_decide(event=event, user=organiser, ids=[made[0].pk], decision="accept")


def season_rules_and_lists():
    """The season's ranking lists (due yesterday, so public; set by the organiser today, so nominated late), the
    league's new rules (a board for a woman, most men, submitted ranking lists, a licence valid on the match date), a
    player's licence date, the open's rating for unrated players and a player not eligible for a half-point bye."""
    organiser = get_user_model().objects.get(username="organiser")
    today = timezone.localdate()
    Season.objects.filter(league__slug="demo-league", slug="2026").update(
        ranking_deadline=today - datetime.timedelta(days=1), nomination_deadline=today + datetime.timedelta(days=7)
    )
    for team in Team.objects.filter(event__slug=TEAM).prefetch_related("members"):
        players = [member.player_id for member in team.members.order_by("board_order")]
        ranking_list_set(team=team, user=organiser, players=players)
    league = Event.objects.get(slug=TEAM).league
    block = LeagueRule.Severity.BLOCK
    for kind, value in (("woman_board", 4), ("max_men", 3), ("ranking_list", None), ("licence_date", None)):
        rule_save(league=league, user=organiser, kind=kind, severity=block, value=value)
    Player.objects.filter(pk=present(Player.objects.first()).pk).update(licence_until=datetime.date(2027, 6, 30))
    Event.objects.filter(slug=OPEN).update(unrated_rating=1000)
    Entry.objects.filter(pk=present(Entry.objects.filter(event__slug=OPEN).first()).pk).update(half_bye_ineligible=True)


def knockout_cup():
    """A knock-out cup of six players, ties of two games (byes to the two best): one tie played, 1½-½."""
    open_event = Event.objects.get(slug=OPEN)
    event = Event.objects.create(
        league=open_event.league,
        season=open_event.season,
        name="Knock-out Cup 2026",
        slug=KNOCKOUT,
        system=Event.System.KNOCKOUT,
        rounds_count=3,
        status=Event.Status.PUBLISHED,
        starts_on=datetime.date(2026, 11, 7),
    )
    for number, entry in enumerate(open_event.entries.order_by("start_number")[:6], start=1):
        Entry.objects.create(event=event, start_number=number, player=entry.player, rating=entry.rating)
    organiser = get_user_model().objects.get(username="organiser")
    cup_draw(event=event, user=organiser, games_per_tie=2)
    for game, result in zip(
        Game.objects.filter(round__event=event).order_by("pk")[:2], (Result.WHITE_WINS, Result.DRAW), strict=True
    ):
        result_record(game_id=game.pk, result=result, user=organiser)


def page_types_data():
    """What the page types need beyond the demo."""
    registering_event()
    team_registering_event()
    season_rules_and_lists()
    knockout_cup()


def public_pages():
    player = present(Player.objects.filter(entry__event__slug=OPEN).first())
    registration = present(Registration.objects.filter(event__slug=REGISTERING).first())
    return [
        "/",
        "/clubs/",
        "/clubs/oslo-sk/",
        "/leagues/demo-league/seasons/2026/",
        f"/events/{OPEN}/",
        f"/events/{OPEN}/crosstable/",
        f"/events/{TEAM}/crosstable/",
        f"/events/{OPEN}/rounds/1/",
        f"/events/{TEAM}/rounds/1/",
        f"/events/{OPEN}/pairings/",
        f"/events/{OPEN}/players/1/",
        f"/events/{TEAM}/teams/1/",
        f"/events/{OPEN}/prizes/",
        f"/events/{OPEN}/why/",
        f"/events/{TEAM}/boards/",
        f"/events/{OPEN}/rounds/1/pairings/",
        f"/events/{OPEN}/games/{present(public_games().filter(round__event__slug=OPEN).first()).pk}/",
        # the widgets other sites embed: /embed/<lang>/...
        f"/events/{REGISTERING}/",
        f"/events/{REGISTERING}/register/",
        f"/registration/withdraw/{withdraw_token(registration)}/",
        f"/events/{TEAM_REGISTERING}/register/",
        "/leagues/demo-league/rules/",
        "/leagues/demo-league/seasons/2026/ranking-lists/",
        f"/events/{KNOCKOUT}/",
        f"/embed/events/{OPEN}/standings/",
        f"/embed/events/{TEAM}/standings/",
        f"/embed/events/{TEAM}/results/",
        f"/embed/events/{TEAM}/teams/1/fixtures/",
        "/tiebreaks/",
        *(f"/tiebreaks/{slug}/" for slug in GUIDES),
        "/tiebreaks/calculator/",
        "/about/",
        f"/players/{player.pk}/",
        f"/players/?q={player.name.split(',')[0]}",
        "/accounts/login/",
        "/accounts/password_reset/",
        "/no-such-page/",
    ]


def organiser_pages():
    match = present(TeamMatch.objects.filter(round__event__slug=TEAM).first())
    return [
        "/manage/",
        f"/manage/events/{TEAM}/rounds/1/",
        f"/manage/events/{OPEN}/rounds/1/",
        f"/manage/events/{OPEN}/rounds/1/moves/",
        f"/manage/events/{OPEN}/pairing/",
        f"/manage/events/{OPEN}/transmission/",
        f"/manage/events/{OPEN}/fide-mode/",
        f"/manage/matches/{match.pk}/",
        f"/manage/matches/{match.pk}/settle/",
        f"/manage/events/{TEAM}/policy/",
        f"/manage/events/{TEAM}/audit/",
        "/manage/leagues/demo-league/import/",
        "/manage/leagues/demo-league/disputes/",
        "/manage/leagues/demo-league/",
        "/manage/leagues/demo-league/settings/",
        "/manage/leagues/demo-league/seasons/new/",
        "/manage/leagues/demo-league/events/new/",
        f"/manage/leagues/demo-league/events/{OPEN}/edit/",
        "/manage/leagues/demo-league/clubs/",
        "/manage/leagues/demo-league/players/",
        "/manage/leagues/demo-league/people/",
        f"/manage/events/{TEAM}/",
        f"/manage/events/{TEAM}/entries/",
        f"/manage/events/{OPEN}/prizes/",
        f"/manage/events/{TEAM}/fixtures/",
        f"/manage/events/{TEAM}/teams/{present(Team.objects.filter(event__slug=TEAM).first()).pk}/roster/",
        f"/manage/events/{OPEN}/rating-report/",
        f"/manage/events/{TEAM}/rating-report/",
        f"/manage/leagues/demo-league/clubs/{Club.objects.get(slug='oslo-sk').pk}/",
        f"/manage/leagues/demo-league/players/{present(Player.objects.first()).pk}/",
        f"/manage/leagues/demo-league/people/{present(Role.objects.filter(league__slug='demo-league').first()).pk}/",
        "/manage/account/",
        "/manage/account/tokens/",
        "/manage/webhooks/",
        f"/manage/events/{REGISTERING}/registration/",
        f"/manage/events/{REGISTERING}/registration/no-shows/",
        f"/manage/events/{TEAM_REGISTERING}/registration/",
        f"/manage/leagues/demo-league/seasons/{Season.objects.get(league__slug='demo-league').pk}/ranking-lists/",
        f"/manage/events/{OPEN}/entries/",
        f"/manage/events/{TEAM}/entries/ratings/",
        f"/manage/events/{KNOCKOUT}/cup/",
        "/manage/leagues/demo-league/rules/",
    ]


def secretary_pages():
    match = present(TeamMatch.objects.filter(round__event__slug=TEAM, home__team__club__slug="oslo-sk").first())
    return [
        "/manage/",
        f"/manage/matches/{match.pk}/",
        f"/manage/events/{TEAM}/rounds/1/",
        f"/manage/teams/{match.home.team_id}/ranking-list/",
    ]


def set_width(driver, width):
    if width == 390:
        phone(driver)
    else:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False},
        )


def load_axe_into_every_page(driver):
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": AXE_JS.read_text()})


def axe_violations(driver, skip=()):
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const rules = axe.getRules(arguments[0]).map(r => r.ruleId).concat(arguments[1])"
        "  .filter(r => !arguments[2].includes(r));"
        "axe.run(document, {runOnly: {type: 'rule', values: rules}, resultTypes: ['violations']})"
        ".then(done, e => done({error: String(e)}));",
        TAGS,
        WCAG22_RULES + STRUCTURE_RULES,
        list(skip),
    )
    assert "error" not in result, result
    return result["violations"]


def address(site, lang, path):
    if path.startswith("/embed/"):
        return f"{site}/embed/{lang}/{path.removeprefix('/embed/')}"
    return f"{site}/{lang}{path}"


def log_in(driver, site, username):
    driver.delete_all_cookies()
    driver.get(f"{site}/en/accounts/login/")
    driver.find_element("name", "username").send_keys(username)
    driver.find_element("name", "password").send_keys(PASSWORD)
    driver.find_element("css selector", "main form button[type=submit], main form button").click()
    WebDriverWait(driver, 20).until(lambda d: "/accounts/login/" not in d.current_url)


#: the languages checked here; the others in test_accessibility_more_languages.py (two files: the suite's two
#: processes check at once, about two minutes a language under load)
HERE = ("en", "el", "he")


@pytest.mark.parametrize("lang", HERE)
def test_every_page_passes_axe_wcag21_aa(browser, live_server, lang):
    every_page_passes_axe_wcag21_aa(browser, live_server, lang)


def every_page_passes_axe_wcag21_aa(browser, live_server, lang):
    """Every page of the demo and page_types_data, as a visitor, the organiser and a secretary see it, in `lang`, at
    desktop and phone widths: no violation of the WCAG 2.1 AA rules (and the structure rules above)."""
    load_demo()
    page_types_data()
    site = live_server.url
    browser.set_script_timeout(60)
    load_axe_into_every_page(browser)
    views = 0
    by_rule: Counter[tuple[str, str]] = Counter()
    failures = []
    width = 1280
    set_width(browser, width)
    try:
        for who, pages in (
            ("visitor", public_pages()),
            ("organiser", organiser_pages()),
            ("secretary-oslo-sk", secretary_pages()),
        ):
            if who != "visitor":
                log_in(browser, site, who)
            for number, path in enumerate(pages):
                if ONLY and not any(part in path for part in ONLY):
                    continue
                contrast_today = LANGUAGES[(number + ROTATION) % len(LANGUAGES)] == lang
                browser.get(address(site, lang, path))  # at the width the last check left
                for turn in range(2):  # one load, both widths: the window is resized between the checks
                    if turn:
                        width = 390 if width == 1280 else 1280
                        set_width(browser, width)
                    views += 1
                    # colours do not change with the language: contrast (over half of axe's time) is checked in
                    # English at desktop width and on the day's phone-width pages, every other rule everywhere
                    contrast = (lang == "en" and width == 1280) or (width == 390 and contrast_today)
                    skip = () if contrast else ("color-contrast",)
                    for violation in axe_violations(browser, skip):
                        by_rule[(violation["id"], violation["impact"])] += 1
                        targets = [node["target"] for node in violation["nodes"]][:3]
                        failures.append(f"{who} {width}px {address('', lang, path)}: {violation['id']} {targets}")
    finally:  # the table of what was visited, even when a page fails to load
        folder = Path(os.environ.get("ARTIFACTS_DIR") or "/tmp/chess-league-artifacts")
        folder.mkdir(parents=True, exist_ok=True)
        table = {"page_views": views, "violations": [[r, i, n] for (r, i), n in sorted(by_rule.items())]}
        (folder / f"axe-{lang}.json").write_text(json.dumps({**table, "failures": failures}, indent=1))
    assert not failures, f"AXE_ROTATION={ROTATION} " + json.dumps(table) + "\n" + "\n".join(failures[:40])
