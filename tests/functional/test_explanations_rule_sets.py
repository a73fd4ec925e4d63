"""Every rule set reads in the reader's words: criterion names, rule-set names, a sentence for every
reason code the engine defines, and a US Chess event explained under rule 34 (not FIDE Articles)."""

import pytest
from django.utils import translation

from leagues.models import Game, Result, Round
from leagues.services.results import result_record
from tests.factories import organiser_of, swiss_event
from tests.helpers import section, text_of
from tiebreaks.engine import RULE_SETS
from tiebreaks.engine.reasons import ALL_REASONS
from tiebreaks.engine.team import TEAM_REASONS
from tiebreaks.explanations import reason_sentence
from tiebreaks.names import criterion_name, rule_set_name

ENGINE_CODES = sorted(ALL_REASONS | TEAM_REASONS)


@pytest.mark.parametrize("code", ENGINE_CODES)
def test_every_reason_code_of_the_engine_has_a_sentence(code):
    with translation.override("en"):
        sentence = reason_sentence(code)
    assert sentence, f"no sentence for the reason code {code!r}"
    assert code not in sentence  # a sentence, not the raw code shown to the reader
    assert "%(" not in sentence  # every placeholder filled


@pytest.mark.parametrize("rule_set", sorted(RULE_SETS))
def test_every_criterion_of_every_rule_set_has_a_name(rule_set):
    with translation.override("en"):
        assert rule_set_name(rule_set) != rule_set  # a name readers know, not the engine's key
        for code in RULE_SETS[rule_set].criteria:
            name = criterion_name(code)
            assert name.long != code and name.short, code


def test_us_criteria_are_named_and_cite_rule_34():
    with translation.override("en"):
        expected = {
            "MM": ("Modified Median", "34E1"),
            "SOLK": ("Solkoff", "34E2"),
            "CUM": ("Cumulative", "34E3"),
            "MED": ("Median (Harkness)", "34E4"),
            "H2H": ("Result between tied players", "34E5"),
            "BLK": ("Most games with Black", "34E6"),
            "KASH": ("Kashdan", "34E7"),
            "OPPCUM": ("Cumulative of opposition", "34E9"),
        }
        for code, (long, rule) in expected.items():
            name = criterion_name(code)
            assert (name.long, name.rule, name.article) == (long, rule, "")
            assert name.reference == f"US Chess rule {rule}"
        assert rule_set_name("chess-caddy").startswith("Chess Caddy")


@pytest.fixture
def us_event():
    """Four players, three rounds, US Chess rule 34 (criteria MM, Solkoff, Cumulative, OppCum):

    R1  P1–P3 1-0   P2–P4 1-0
    R2  P1–P2 1-0   P3–P4 ½-½
    R3  P2–P3 1-0   P1 half-point bye   P4 pairing-allocated bye

    Scores: P1 2½, P2 2, P4 1½, P3 ½. Rule 34 counts every unplayed round of an opponent as a draw:
    P4's adjusted score is 0 + ½ + ½ = 1 (their bye's 1 becomes ½); an own unplayed round is an
    opponent with 0.
    P2: opponents P4 1, P1 2½, P3 ½. Solkoff 4. 2 of 3 is a plus score: MM drops the lowest (½): 3½.
    P1: opponents P3 ½, P2 2, bye 0: Solkoff 2½; plus score, the 0 is dropped: MM 2½.
    Cumulative (34E3): P1 1 + 2 + 2½ = 5½ less the half-point bye's ½ = 5; P2 1 + 1 + 2 = 4;
    P3 0 + ½ + ½ = 1; P4 0 + ½ + 1½ = 2 less the bye's 1 = 1. OppCum P2: 1 + 5 + 1 = 7.
    """
    event, entries, games = swiss_event(
        players=4,
        rounds=3,
        rule_set="us-chess",
        tiebreak_criteria=["MM", "SOLK", "CUM", "OPPCUM"],
        name="US Open",
        slug="us-open",
    )
    p1, p2, p3, p4 = entries
    user = organiser_of(event.league)
    r2 = Round.objects.create(event=event, number=2)
    r3 = Round.objects.create(event=event, number=3)
    plan = [
        (games[0], Result.WHITE_WINS),  # P1–P3
        (games[1], Result.WHITE_WINS),  # P2–P4
        (Game.objects.create(round=r2, board=1, white=p1, black=p2), Result.WHITE_WINS),
        (Game.objects.create(round=r2, board=2, white=p3, black=p4), Result.DRAW),
        (Game.objects.create(round=r3, board=1, white=p2, black=p3), Result.WHITE_WINS),
        (Game.objects.create(round=r3, board=2, white=p1), Result.HALF_POINT_BYE),
        (Game.objects.create(round=r3, board=3, white=p4), Result.PAIRING_BYE),
    ]
    for game, result in plan:
        result_record(game_id=game.pk, result=result, user=user)
    return event


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_us_chess_event_shows_us_names_in_the_standings(client, us_event):
    html = client.get("/en/events/us-open/").content.decode()
    text = text_of(html)
    assert "Tiebreak rule set: US Chess rule 34" in text
    for short, long in (
        ("MM", "Modified Median"),
        ("Solk", "Solkoff"),
        ("Cum", "Cumulative"),
        ("OppCum", "Cumulative of opposition"),
    ):
        assert f'<abbr title="{long}"><bdi>{short}</bdi></abbr>' in html
    # P2's row: 2 points, MM 3.5, Solkoff 4, Cumulative 4, OppCum 7
    assert "2 3.5 4 4 7" in text


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_us_chess_player_page_explains_under_rule_34(client, us_event):
    html = client.get("/en/events/us-open/players/2/").content.decode()
    mm = section(html, "Modified Median")
    assert "Modified Median: 3.5" in mm
    assert "US Chess rule 34E1" in mm and "FIDE C.07" not in mm
    # P4 had a pairing-allocated bye (1 point): under rule 34 it counts as a draw for P2
    assert "final score 1.5, counts with 1: every unplayed round of theirs counts as a draw" in mm
    assert "2 of a possible 3 is a plus score (above half), so the lowest opponent is dropped" in mm
    assert "Dropped: with a plus score the lowest opponent goes (US Chess rule 34E1)." in mm
    assert "1 + 2.5 = 3.5" in mm
    assert "Solkoff: 4" in section(html, "Solkoff")
    opp = section(html, "Cumulative of opposition")
    assert "Cumulative of opposition: 7" in opp and "34E9" in opp


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_us_chess_cumulative_takes_off_the_bye(client, us_event):
    cum = section(client.get("/en/events/us-open/players/1/").content.decode(), "Cumulative:")
    assert "Cumulative: 5" in cum
    assert "Round 3 was a half-point bye or another unplayed draw: its 0.5 is taken off again" in cum
    assert "34E3" in cum


@pytest.mark.django_db
@pytest.mark.usefixtures("on_commit_runs")
def test_us_chess_sonneborn_berger_is_not_cited_as_a_fide_article(client, us_event):
    from leagues.services.policy import event_policy_set

    event_policy_set(
        event_id=us_event.pk,
        rule_set="us-chess",
        criteria=["MM", "SB"],
        user=organiser_of(us_event.league),
        reason="club rules name SB second",
    )
    text = text_of(client.get("/en/events/us-open/").content.decode())
    assert "US Chess rule 34E8" in text
    assert "FIDE C.07 Article 9.1" not in text
