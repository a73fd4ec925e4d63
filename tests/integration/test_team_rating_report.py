"""Issue #32: the FIDE rating report of a team league, the season's games from every match card as one TRF-26 file.

The division is built through the organiser's services (clubs, players with their FIDE data, teams, rosters, the
Berger fixtures) and every card is entered through the card service. Four teams A, B, C, D, four boards, home White
on boards 1 and 3. FIDE's table for four teams: 1-4 2-3 / 4-3 1-2 / 2-4 3-1. Each card from the home team's side
("e-": the home team left the board empty, the away player wins by default; "--" a double forfeit):

    R1  A-D  1 = 0 1   A 2½ D 1½    A wins         B-C  = = e- 1  B 2 C 2      drawn
    R2  D-C  0 0 = +   D 1½ C 2½    C wins         A-B  1 1 = 0   A 2½ B 1½    A wins
    R3  B-D  = 1 -- 1  B 2½ D ½     B wins         C-A  0 = 1 =   C 2 A 2      drawn (A's board 4: a club
                                                                                player off the roster)

Match points 2/1/0: A 2+2+1 = 5, B 1+0+2 = 3, C 1+2+1 = 4, D 0. Game points: A 2½+2½+2 = 7, B 2+1½+2½ = 6,
C 2+2½+2 = 6½, D 1½+1½+½ = 3½. 24 boards: three not played over the board (R1 B-C board 3, R2 D-C board 4,
R3 B-D board 3), so FIDE rates 21 games.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from gacrux.trf2json import trf2json

from leagues.errors import PermissionDenied, ServiceError
from leagues.models import Entry, Event, Game, League, Player, Result, Role, Round, TeamMatch
from leagues.services.clubs import club_save
from leagues.services.events import event_save
from leagues.services.match_cards import match_card_submit
from leagues.services.players import player_save
from leagues.services.rating_report_teams import team_rating_report, team_rating_report_trf
from leagues.services.schedule import fixtures_generate
from leagues.services.standings import event_engine_result
from leagues.services.teams import roster_set, team_save
from pairings.fide_tools import fide_tiebreaks
from tests.factories import EventFactory, UserFactory
from tests.integration.test_fixtures import team_division
from tiebreaks.engine.team import TeamStandings

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_runs")]

#: each round's cards, from the home team's side, by (home, away) team letter
CARDS = {
    1: {("A", "D"): ["1", "=", "0", "1"], ("B", "C"): ["=", "=", "e-", "1"]},
    2: {("D", "C"): ["0", "0", "=", "+"], ("A", "B"): ["1", "1", "=", "0"]},
    3: {("B", "D"): ["=", "1", "--", "1"], ("C", "A"): ["0", "=", "1", "="]},
}
#: a board's result by the home team's side and whether the home team has White
RESULTS: dict[tuple[str, bool], str] = {
    ("1", True): Result.WHITE_WINS,
    ("1", False): Result.BLACK_WINS,
    ("0", True): Result.BLACK_WINS,
    ("0", False): Result.WHITE_WINS,
    ("=", True): Result.DRAW,
    ("=", False): Result.DRAW,
    ("+", True): Result.WHITE_WINS_FORFEIT,
    ("+", False): Result.BLACK_WINS_FORFEIT,
    ("e-", True): Result.BLACK_WINS_FORFEIT,
    ("e-", False): Result.WHITE_WINS_FORFEIT,
    ("--", True): Result.DOUBLE_FORFEIT,
    ("--", False): Result.DOUBLE_FORFEIT,
}
#: TRF codes of (white, black) by the site's result
CODES: dict[str, tuple[str, str]] = {
    Result.WHITE_WINS: ("1", "0"),
    Result.DRAW: ("=", "="),
    Result.BLACK_WINS: ("0", "1"),
    Result.WHITE_WINS_FORFEIT: ("+", "-"),
    Result.BLACK_WINS_FORFEIT: ("-", "+"),
    Result.DOUBLE_FORFEIT: ("-", "-"),
}


@dataclass
class Season:
    league: League
    organiser: User
    event: Event
    teams: dict[str, Entry]  # letter -> Entry
    players: dict[str, list[Player]]  # letter -> [Player], the club's players (the roster's four, then one more)


def build_season(*, cards: dict = CARDS) -> Season:
    league = League.objects.create(name="Fjord League", slug="fjord-league", federation="NOR")
    organiser = UserFactory(username="fjord-organiser")
    Role.objects.create(user=organiser, kind=Role.Kind.ORGANISER, league=league)
    event = event_save(
        league=league,
        user=organiser,
        fields={
            "name": "Division One",
            "slug": "division-one",
            "kind": "team",
            "system": "rr",
            "rounds_count": 3,
            "boards": 4,
            "starts_on": date(2026, 9, 10),
            "venue": "Bergen",
            "time_control": "90 min + 30 s",
        },
    )
    arbiter = UserFactory(username="fjord-arbiter", first_name="Ada", last_name="Arbiter")
    Role.objects.create(user=arbiter, kind=Role.Kind.ARBITER, event=event)
    teams, players = {}, {}
    for index, letter in enumerate("ABCD"):
        club = club_save(league=league, user=organiser, fields={"name": f"Club {letter}", "slug": f"club-{letter}"})
        players[letter] = [
            player_save(
                league=league,
                user=organiser,
                fields={
                    "name": f"{letter}{board}, Player",
                    "rating": 2200 - 100 * board - 10 * index,
                    "fide_id": 1_500_000 + 10 * index + board,
                    "federation": "NOR",
                    "birth_year": 1980 + board,
                    "sex": "m" if board % 2 else "w",
                },
                club=club,
            )
            for board in range(1, 6)
        ]
        team = team_save(event=event, user=organiser, club=club, name=f"Club {letter} 1")
        roster_set(team=team, user=organiser, players=players[letter][:4])
        teams[letter] = team.entry
    fixtures_generate(event=event, user=organiser, starts_on=date(2026, 9, 10), days_between=14)
    event.refresh_from_db()
    season = Season(league, organiser, event, teams, players)
    for number, matches in cards.items():
        for (home, away), boards in matches.items():
            enter_card(season, number, home, away, boards)
    return season


def letter_of(season: Season, entry_id: int) -> str:
    return next(letter for letter, entry in season.teams.items() if entry.pk == entry_id)


def enter_card(season: Season, number: int, home: str, away: str, boards: list[str], user=None) -> TeamMatch:
    """The card through the card service, as the organiser (confirmed at once) or `user`."""
    match = TeamMatch.objects.get(round__event=season.event, round__number=number, home=season.teams[home])
    assert letter_of(season, match.away_id) == away  # FIDE's table as the docstring has it
    results: dict[int, tuple[str, int]] = {}
    lineup: dict[int, tuple[int | None, int | None]] = {}
    for game in match.games.order_by("board"):
        home_white = game.white_id == match.home_id
        results[game.pk] = (RESULTS[boards[game.board - 1], home_white], game.version)
        if boards[game.board - 1] == "e-":
            lineup[game.board] = (None, season.players[away][game.board - 1].pk)
    if number == 3 and away == "A":  # A's fifth club player, off the roster, on board 4
        lineup[4] = (season.players[home][3].pk, season.players["A"][4].pk)
    return match_card_submit(
        match_id=match.pk,
        results=results,
        user=user or season.organiser,
        expected_version=match.version,
        lineup=lineup or None,
    )


def cards_games(event: Event) -> set[tuple]:
    """Every board of every card: (round, White's FIDE id, Black's FIDE id, White's code, Black's code); a board
    with an empty seat as ("empty seat", round, the player's FIDE id, the player's code), since TRF gives the
    player alone no colour ("0000 - +")."""
    games: set[tuple] = set()
    for game in Game.objects.filter(round__event=event, match__isnull=False).select_related(
        "round", "white_player", "black_player"
    ):
        white_code, black_code = CODES[game.result]
        white, black = game.white_player, game.black_player
        if white and black:
            games.add((game.round.number, white.fide_id, black.fide_id, white_code, black_code))
        else:
            alone, code = (white, white_code) if white else (black, black_code)
            assert alone is not None
            games.add(("empty seat", game.round.number, alone.fide_id, code))
    return games


def parsed(text: str) -> tuple[dict[int, dict], dict[int, list[int]], dict[str, str]]:
    """The TRF read by hand, column by column as trf-format.md §3 and §7.2 give them: the players by start number
    (fide id, federation, birth, name, points, rounds as (opponent, colour, code)), the teams' members and the
    header records."""
    players, teams, header = {}, {}, {}
    for line in text.split("\r\n"):
        tag = line[:3]
        if tag == "001":
            rounds, column = [], 91
            while len(line) > column + 7:
                rounds.append((int(line[column : column + 4]), line[column + 5], line[column + 7]))
                column += 10
            players[int(line[4:8])] = {
                "name": line[14:47].strip(),
                "federation": line[53:56].strip(),
                "fide_id": int(line[57:68]) if line[57:68].strip() else None,
                "birth": line[69:79].strip(),
                "sex": line[9],
                "points": Fraction(line[80:84].strip()),
                "rounds": rounds,
            }
        elif tag == "310":
            assert line[71:73] == "  "  # the checker's alignment rule
            teams[int(line[4:7])] = [int(line[c : c + 4]) for c in range(73, len(line), 5)]
        elif tag[:1] in "01" and tag.isdigit():
            header[tag] = line[4:]
    return players, teams, header


def file_games(players: dict[int, dict]) -> set[tuple]:
    """The file's games in the shape of `cards_games`, each read from the side with White and checked against
    the other side's block."""
    games: set[tuple] = set()
    for p in players.values():
        for r, (opponent, colour, code) in enumerate(p["rounds"], start=1):
            if code == "Z":  # not paired: a player who did not play that round
                assert (opponent, colour) == (0, "-")
            elif opponent == 0:
                assert colour == "-"
                games.add(("empty seat", r, p["fide_id"], code))
            elif colour == "w":
                other = players[opponent]["rounds"][r - 1]
                assert other[:2] == (next(n for n, q in players.items() if q is p), "b")
                games.add((r, p["fide_id"], players[opponent]["fide_id"], code, other[2]))
    return games


def test_the_report_is_read_by_fides_checker_and_its_games_are_the_cards():
    season = build_season()
    event = season.event
    text = team_rating_report_trf(event=event, user=season.organiser)

    players, teams, header = parsed(text)
    by_fide = {p["fide_id"]: n for n, p in players.items()}
    games = file_games(players)
    assert games == cards_games(event)
    assert len(games) == 24
    rated = {g for g in games if g[0] != "empty seat" and g[3] in ("1", "=", "0") and g[4] in ("1", "=", "0")}
    assert len(rated) == 21  # the three boards not played over the board are forfeits in the file

    # every player with the registry's FIDE data, the teams with their rosters and A's fifth player
    assert set(by_fide) == {p.fide_id for letter in "ABCD" for p in season.players[letter][:4]} | {
        season.players["A"][4].fide_id
    }
    a1 = players[by_fide[1_500_001]]
    assert (a1["name"], a1["federation"], a1["birth"], a1["sex"]) == ("A1, Player", "NOR", "1981", "m")
    assert [players[n]["fide_id"] for n in teams[1]] == [1_500_001, 1_500_002, 1_500_003, 1_500_004, 1_500_005]
    assert [players[n]["fide_id"] for n in teams[4]] == [1_500_031, 1_500_032, 1_500_033, 1_500_034]
    assert header["102"] == "Ada Arbiter"
    assert header["022"] == "Bergen" and header["032"] == "NOR" and header["122"] == "90 min + 30 s"
    assert header["042"] == "2026/09/10" and header["052"] == "2026/10/08"
    assert header["132"].split() == ["26/09/10", "26/09/24", "26/10/08"]

    # FIDE's own reader: no error, the same rated games, the forfeits neither played nor rated
    reader = trf2json()
    reader.parse_file(text, 0)
    status = reader.chessjson["status"]
    assert status["code"] < 400 and not status.get("error"), status
    assert not status.get("info"), status  # the 310 records' points and ranks agree with the games
    tournament = reader.chessjson["event"]["tournaments"][0]
    fide_ids = {p["id"]: p["fideId"] for p in reader.chessjson["event"]["profiles"]}
    cid_fide = {p["cid"]: fide_ids[p["profileId"]] for team in tournament["competitors"] for p in team["cplayers"]}
    fide_rated = {
        (g["round"], cid_fide[g["white"]["cid"]], cid_fide[g["black"]["cid"]])
        for g in tournament["gameList"]
        if g["rated"]
    }
    assert fide_rated == {(r, white, black) for r, white, black, _w, _b in rated}

    # and its team matches are the cards' (team numbers A 1, B 2, C 3, D 4; the team with White on board 1 first)
    matches = {
        (m["round"], m["white"]["cid"], m["black"]["cid"], m["white"]["result"]) for m in tournament["matchList"]
    }
    assert matches == {(1, 1, 4, "W"), (1, 2, 3, "D"), (2, 4, 3, "L"), (2, 1, 2, "W"), (3, 2, 4, "W"), (3, 3, 1, "D")}

    # FIDE's tie-break checker computes the match and game points worked out by hand
    values = fide_tiebreaks(text, ["MPTS", "GPTS"], rounds=3, round_robin=True)
    assert values == {1: [5, 7], 2: [3, 6], 3: [4, Fraction(13, 2)], 4: [0, Fraction(7, 2)]}


def test_a_complete_season_has_no_problem_and_the_report_counts_its_games():
    season = build_season()
    report = team_rating_report(event=season.event, user=season.organiser)
    assert report.problems == []
    assert (report.rated_games, report.unplayed_boards) == (21, 3)
    assert report.arbiters == ["Ada Arbiter"]
    a5 = next(row for row in report.players if row.player == season.players["A"][4])
    assert (a5.team, a5.rated_games) == ("Club A 1", 1)
    # B3 sat at the empty seat's board (round 1) and the double forfeit (round 3): one game rated, round 2's
    b3 = next(row for row in report.players if row.player == season.players["B"][2])
    assert b3.rated_games == 1


def test_every_gap_a_rating_officer_sends_back_is_listed_with_the_page_that_fixes_it():
    season = build_season(cards={1: CARDS[1]})
    event, organiser = season.event, season.organiser
    a1, b2, c2 = season.players["A"][0], season.players["B"][1], season.players["C"][1]
    for player, fields in (
        (a1, {"fide_id": None}),
        (b2, {"federation": "XYZ", "birth_year": None}),
        (c2, {"fide_id": None, "sex": "", "name": "Γεωργίου, Ελένη"}),
    ):
        player_save(
            league=season.league,
            user=organiser,
            fields={f: getattr(player, f) for f in ("name", "rating", "fide_id", "federation", "birth_year", "sex")}
            | fields,
            club=None,
            player=player,
        )
    Role.objects.filter(kind=Role.Kind.ARBITER, event=event).delete()
    event.rounds.filter(number=3).update(date=None)
    Event.objects.filter(pk=event.pk).update(time_control="", venue="")
    event.refresh_from_db()
    # round 2: one card submitted by B's secretary, not confirmed yet; the other not entered at all
    secretary = UserFactory(username="fjord-secretary-b")
    team_b = season.teams["B"].team
    assert team_b is not None
    Role.objects.create(user=secretary, kind=Role.Kind.SECRETARY, club=team_b.club)
    match = enter_card(season, 2, "A", "B", ["1", "1", "=", "0"], user=secretary)

    report = team_rating_report(event=event, user=organiser)
    problems = {(p.code, p.message, p.fix_url) for p in report.problems}
    players = "/en/manage/leagues/fjord-league/players/"
    settings = "/en/manage/leagues/fjord-league/events/division-one/edit/"
    card = f"/en/manage/matches/{match.pk}/"
    other = TeamMatch.objects.get(round__event=event, round__number=2, home=season.teams["D"]).pk
    number = {row.player.pk: row.number for row in report.players}
    round_three = [
        (m.pk, m.home.name, m.away.name)
        for m in TeamMatch.objects.filter(round__event=event, round__number=3).select_related("home", "away")
    ]
    assert problems == {
        ("no_arbiter", _first("no_arbiter", report), "/en/manage/leagues/fjord-league/people/"),
        ("no_round_date", "Rounds without a date: 3.", settings),
        ("no_time_control", _first("no_time_control", report), settings),
        ("no_venue", _first("no_venue", report), settings),
        ("card_not_confirmed", "Round 2, Club A 1 – Club B 1: the card is not confirmed yet.", card),
        ("card_empty", "Round 2, Club D 1 – Club C 1: no result on the card yet.", f"/en/manage/matches/{other}/"),
        *(
            ("card_empty", f"Round 3, {home} – {away}: no result on the card yet.", f"/en/manage/matches/{pk}/")
            for pk, home, away in round_three
        ),
        ("no_fide_id", f"{number[a1.pk]} A1, Player (Club A 1): no FIDE id.", f"{players}{a1.pk}/"),
        (
            "bad_federation",
            f"{number[b2.pk]} B2, Player (Club B 1): the federation XYZ is not one of FIDE's codes.",
            f"{players}{b2.pk}/",
        ),
        ("no_birth_year", f"{number[b2.pk]} B2, Player (Club B 1): no birth year.", f"{players}{b2.pk}/"),
        ("no_fide_id", f"{number[c2.pk]} Γεωργίου, Ελένη (Club C 1): no FIDE id.", f"{players}{c2.pk}/"),
        (
            "no_sex",
            f"{number[c2.pk]} Γεωργίου, Ελένη (Club C 1): a new player for FIDE without sex.",
            f"{players}{c2.pk}/",
        ),
        (
            "name_not_latin",
            f"{number[c2.pk]} Γεωργίου, Ελένη (Club C 1): the name is not written in Latin letters.",
            f"{players}{c2.pk}/",
        ),
    }
    assert "chief arbiter" in _first("no_arbiter", report)
    # the file is still read by FIDE's reader (names in UTF-8, as FIDE's tools are told)
    text = team_rating_report_trf(event=event, user=organiser)
    values = fide_tiebreaks(text, ["MPTS"], rounds=2, round_robin=True)
    # round 1: A 2, D 0, B 1, C 1; round 2: A beats B (2½-1½ on the submitted card), D-C not played
    assert values == {1: [4], 2: [1], 3: [1], 4: [0]}


def _first(code: str, report) -> str:
    return next(p.message for p in report.problems if p.code == code)


def test_only_the_leagues_organiser_sees_it_and_an_individual_event_has_its_own():
    season = build_season(cards={1: CARDS[1]})
    arbiter = Role.objects.get(kind=Role.Kind.ARBITER, event=season.event).user
    with pytest.raises(PermissionDenied):
        team_rating_report(event=season.event, user=arbiter)
    individual = EventFactory(league=season.league)
    with pytest.raises(ServiceError) as refused:
        team_rating_report(event=individual, user=season.organiser)
    assert refused.value.code == "individual_event"


def test_the_demo_team_division_is_read_by_fides_checker_with_no_error_and_its_games_are_the_cards():
    call_command("load_demo", stdout=open("/dev/null", "w"))
    event = Event.objects.get(slug="demo-division-1")
    organiser = Role.objects.get(kind=Role.Kind.ORGANISER, league=event.league).user
    text = team_rating_report_trf(event=event, user=organiser)
    reader = trf2json()
    reader.parse_file(text, 0)
    status = reader.chessjson["status"]
    assert status["code"] < 400 and not status.get("error") and not status.get("info"), status

    players, _teams, _header = parsed(text)
    names = {n: p["name"] for n, p in players.items()}
    cards = set()
    for game in Game.objects.filter(round__event=event, match__isnull=False).select_related(
        "round", "white_player", "black_player"
    ):
        if game.result:  # round 3's boards are on the cards submitted (one disputed): their results are in too
            assert game.white_player is not None and game.black_player is not None
            cards.add((game.round.number, game.white_player.name, game.black_player.name, *CODES[game.result]))
    in_file = set()
    for p in players.values():
        for r, (opponent, colour, code) in enumerate(p["rounds"], start=1):
            if colour == "w":
                in_file.add((r, p["name"], names[opponent], code, players[opponent]["rounds"][r - 1][2]))
    assert in_file == cards
    assert len(cards) == 24  # three rounds of two matches of four boards
    # the demo's forfeit (round 2, board 4) is in the file as one, and FIDE's reader does not rate it
    tournament = reader.chessjson["event"]["tournaments"][0]
    assert sum(1 for g in tournament["gameList"] if g["rated"]) == 23
    report = team_rating_report(event=event, user=organiser)
    assert report.rated_games == 23 and report.unplayed_boards == 1
    codes = {p.code for p in report.problems}
    assert {"no_arbiter", "card_disputed", "card_not_confirmed", "no_fide_id", "no_federation"} <= codes
    # FIDE's tie-break checker gives each team the match and game points the site's standings give it
    values = fide_tiebreaks(text, ["MPTS", "GPTS"], rounds=3, round_robin=True)
    site = event_engine_result(event)
    assert isinstance(site, TeamStandings)
    assert values == {row.team_number: [row.values["MPTS"], row.values["GPTS"]] for row in site.rows}


def test_a_team_swiss_with_a_pairing_allocated_bye_is_read_with_the_bye_as_a_team_record():
    """Three teams of two boards, round 1 of a team Swiss: team 1 beats team 2 1½-½ (board 1 won by team 1's White,
    board 2 drawn), team 3 has the pairing-allocated bye, a drawn match with a draw on every board (team_swiss.py):
    match points 2, 0, 1; game points 1½, ½, 1. Two games rated; the bye is no player's game."""
    event, entries = team_division(teams=3, roster=2, boards=2, system=Event.System.SWISS)
    organiser = UserFactory(username="fjord-organiser")
    Role.objects.create(user=organiser, kind=Role.Kind.ORGANISER, league=event.league)
    rnd = Round.objects.create(event=event, number=1)
    match = TeamMatch.objects.create(round=rnd, home=entries[0], away=entries[1], status=TeamMatch.Status.CONFIRMED)
    home, away = ([m.player for m in e.team.members.order_by("board_order")] for e in entries[:2])
    Game.objects.create(
        round=rnd, match=match, board=1, white=entries[0], black=entries[1], white_player=home[0],
        black_player=away[0], result=Result.WHITE_WINS,
    )  # fmt: skip
    Game.objects.create(
        round=rnd, match=match, board=2, white=entries[1], black=entries[0], white_player=away[1],
        black_player=home[1], result=Result.DRAW,
    )  # fmt: skip
    Game.objects.create(round=rnd, board=1003, white=entries[2], result=Result.PAIRING_BYE)

    report = team_rating_report(event=event, user=organiser)
    assert (report.rated_games, report.unplayed_boards, report.team_byes) == (2, 0, 1)
    assert {row.player.pk for row in report.players} == {p.pk for p in home + away}
    text = team_rating_report_trf(event=event, user=organiser)
    players, teams, header = parsed(text)
    assert header["092"] == "Team Swiss-System" and header["192"] == "FIDE_TEAM_TYPEA_MP_GP"
    assert [players[n]["rounds"] for n in teams[3]] == [[(0, "-", "Z")], [(0, "-", "Z")]]
    reader = trf2json()
    reader.parse_file(text, 0)
    status = reader.chessjson["status"]
    assert status["code"] < 400 and not status.get("error") and not status.get("info"), status
    values = fide_tiebreaks(text, ["MPTS", "GPTS"], rounds=1)
    assert values == {1: [2, Fraction(3, 2)], 2: [0, Fraction(1, 2)], 3: [1, 1]}
