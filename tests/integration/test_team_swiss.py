"""A team Swiss (FIDE C.04.6) paired on the site from round 1 to the end, every round equal to FIDE's
own engine (gacrux's pairing checker, ``-m fideteam``) run on the event's TRF-26 team export: results
entered through the match cards, a team's half-point bye, a withdrawal, the pairing-allocated byes
that follow, and the published matches' colours (home has White on board 1 by the event's convention)."""

import json
import random
import subprocess
import sys

import pytest

from leagues.errors import ServiceError
from leagues.models import Event, Game, Result, RoundPairing, TeamMatch
from leagues.services.match_cards import match_card_submit
from leagues.services.round_pairings import (
    bye_request,
    pairing_publish,
    pairing_swap,
    preview_rows,
    published_rows,
    round_pair,
    round_withdraw,
)
from leagues.services.standings import event_engine_result
from leagues.services.trf import event_export_trf
from tests.factories import EntryFactory, EventFactory, TeamFactory, TeamMemberFactory, organiser_of
from tests.helpers import gacrux_team_pairing, present

pytestmark = pytest.mark.django_db

BOARD_RESULTS = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS, Result.WHITE_WINS_FORFEIT]


def _team_swiss(teams=16, rounds=7, boards=4, home_white=True):
    event = EventFactory(
        kind=Event.Kind.TEAM, system=Event.System.SWISS, rounds_count=rounds, boards=boards,
        board_one_white_for_home=home_white,
    )  # fmt: skip
    for number in range(1, teams + 1):
        team = TeamFactory(event=event, name=f"Team {number:02d}")
        for board in range(1, boards + 1):
            TeamMemberFactory(team=team, board_order=board)
        EntryFactory(event=event, start_number=number, player=None, team=team, rating=None)
    return event, organiser_of(event.league)


def _pair(event, user, number, capture):
    with capture(execute=True):
        pairing = round_pair(event=event, round_number=number, user=user)
    pairing.refresh_from_db()
    assert pairing.status == RoundPairing.Status.READY, pairing.problem
    return pairing


def _next_of_our_command_line(event, number, tmp_path):
    """``python -m pairings next`` on the site's TRF export: the round after the last with games."""
    path = tmp_path / f"next-{number}.trf"
    path.write_text(event_export_trf(event=event), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pairings", "next", str(path), "--json"], capture_output=True, text=True
    )
    answer = json.loads(run.stdout)
    assert answer["round"] == number and answer["system"] == "fide-team-2026"
    pab = [(bye["start_number"], 0) for bye in answer["byes"] if bye["type"] == "PAB"]
    return [(board["white"], board["black"]) for board in answer["pairings"]] + pab


def _site_round(event, number):
    """The published round as (team with White on board 1, the other team), then (PAB team, 0)."""
    rows = []
    for match in TeamMatch.objects.filter(round__event=event, round__number=number).order_by("pk"):
        first = match.games.get(board=1)
        assert first.white is not None
        rows.append((first.white.start_number, present(first.black).start_number))
    bye = Game.objects.filter(round__event=event, round__number=number, result=Result.PAIRING_BYE).first()
    return rows + ([(present(bye.white).start_number, 0)] if bye else [])


def _enter_results(event, number, user, rng):
    for match in TeamMatch.objects.filter(round__event=event, round__number=number):
        games = match.games.order_by("board")
        results = {g.pk: (rng.choice(BOARD_RESULTS), g.version) for g in games}
        match_card_submit(match_id=match.pk, results=results, user=user, expected_version=match.version)


def test_a_sixteen_team_swiss_is_paired_round_by_round_as_fide_pairs_it(django_capture_on_commit_callbacks, tmp_path):
    event, user = _team_swiss(teams=16, rounds=7)
    entries = {e.start_number: e for e in event.entries.all()}
    rng = random.Random(2026)
    withdrawn: list[int] = []
    for number in range(1, 8):
        if number == 2:  # a team asks for a half-point bye: 15 teams, so a pairing-allocated bye
            bye_request(event=event, round_number=2, entry=entries[7], kind="half", user=user)
        if number == 4:  # a team withdraws: 15 teams from round 4 on
            round_withdraw(entry=entries[12], round_number=4, user=user)
            withdrawn.append(12)
        pairing = _pair(event, user, number, django_capture_on_commit_callbacks)
        fide = gacrux_team_pairing(event, number, tmp_path, withdrawn)  # the initial colour is drawn: in the file
        site = [tuple(board) for board in pairing.boards] + ([(pairing.pab, 0)] if pairing.pab else [])
        assert site == fide, f"round {number}"
        if not withdrawn:  # a withdrawal is not in the file: FIDE's checker is told with -u
            assert _next_of_our_command_line(event, number, tmp_path) == fide, f"round {number}, python -m pairings"
        pairing_publish(pairing=pairing, user=user)
        assert _site_round(event, number) == fide, f"round {number} as published"
        if number in (2, 4, 7):
            assert pairing.pab is not None  # an odd number of teams
        _enter_results(event, number, user, rng)
    standings = event_engine_result(event)
    assert len(standings.rows) == 16


def test_a_published_match_is_a_match_card_with_home_and_away_by_the_events_convention(
    django_capture_on_commit_callbacks,
):
    event, user = _team_swiss(teams=4, rounds=3, boards=4, home_white=False)
    pairing = _pair(event, user, 1, django_capture_on_commit_callbacks)
    pairing_publish(pairing=pairing, user=user)
    matches = TeamMatch.objects.filter(round__event=event).order_by("pk")
    for (white, black), match in zip(pairing.boards, matches, strict=True):
        assert (present(match.away).start_number, present(match.home).start_number) == (
            white,
            black,
        )  # away has White on board 1
        colours = [(g.board, present(g.white).start_number) for g in match.games.order_by("board")]
        assert colours == [(1, white), (2, black), (3, white), (4, black)]
        assert all(g.white_player_id and g.black_player_id for g in match.games.all())  # rosters in board order
    rows = published_rows(event, 1)
    assert [(r.white.entry.start_number, present(r.black).entry.start_number) for r in rows] == [
        tuple(b) for b in pairing.boards
    ]


def test_round_two_is_paired_again_until_the_first_result_and_a_swap_refuses_a_rematch(
    django_capture_on_commit_callbacks,
):
    event, user = _team_swiss(teams=4, rounds=3)
    rng = random.Random(1)
    first = _pair(event, user, 1, django_capture_on_commit_callbacks)
    pairing_publish(pairing=first, user=user)
    _enter_results(event, 1, user, rng)
    second = _pair(event, user, 2, django_capture_on_commit_callbacks)
    (a, b), (c, d) = second.boards
    met = {frozenset(board) for board in first.boards}
    opponent_before = c if frozenset((a, c)) in met else d  # a's opponent of round 1, on the other board
    with pytest.raises(ServiceError) as refused:
        pairing_swap(pairing=second, first=b, second=opponent_before, reason="asked", user=user)
    assert "played each other" in str(refused.value)
    pairing_publish(pairing=second, user=user)
    again = _pair(event, user, 2, django_capture_on_commit_callbacks)  # no result yet: paired again
    pairing_publish(pairing=again, user=user)
    assert TeamMatch.objects.filter(round__event=event, round__number=2).count() == 2
    rows = preview_rows(again)
    assert {seat.entry.start_number for row in rows for seat in (row.white, present(row.black))} == {1, 2, 3, 4}
    _enter_results(event, 2, user, rng)
    with pytest.raises(ServiceError):
        round_pair(event=event, round_number=2, user=user)
