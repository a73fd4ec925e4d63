"""Real tournament files as real exporters wrote them (tests/fixtures/real-trf/SOURCES.md).

Every file is read by the command line and round-trips through the writer. Where FIDE's checker
(gacrux) reads the published file, every value of a criteria sample is compared with the
checker's; where it cannot, the checker reads our TRF-2026 and TRF-16 export of the file instead,
and the dialect itself is checked against values worked out by hand from the file's lines.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from tests.golden.checker import CheckerRefused, checker_values, to_hundredths
from tests.paths import TESTS, TRF_SAMPLES
from tiebreaks.engine import compute_standings
from tiebreaks.engine.model import RoundEntry, Tournament
from tiebreaks.engine.team import compute_team_standings
from tiebreaks.trf import encode_trf, read_trf, read_trf_with_notes, trf_problems, write_trf

REAL = TESTS / "fixtures" / "real-trf"
FIDE_SAMPLE = TRF_SAMPLES / "fide-trf26-sample-team.trf"
FILES = [*sorted(REAL.glob("*.trf")), FIDE_SAMPLE]
INDIVIDUAL = [f for f in FILES if f.name not in ("icu-armstrong_2011.trf", FIDE_SAMPLE.name)]
ROOT = TESTS.parent
HALF = Fraction(1, 2)

#: a sample of criteria that every file can carry (ratings are missing in most real files)
CRITERIA = ["BH/C1", "BH", "SB", "PS", "WIN", "DE"]
TEAM_CRITERIA = ["GPTS", "EDE", "BH:MP", "BH:GP", "SB:MP", "EMGSB", "EGGSB", "BC", "TBR", "BBE", "SSSC"]

#: files the checker reads as published (the others: see CHECKER_CANNOT_READ)
CHECKER_READS = [
    "bbpairings-dutch_2025_C5.trf",
    "bbpairings-issue_7.trf",
    "icu-armstrong_2012_with_bom.trf",
    "icu-latin-1.trf",
    "icu-utf-8.trf",
    "icu-valid.trf",
    "javafo-trfx-sample2.trf",
    "lichess-swiss-2020_05.trf",
    "lichess-swiss-2020_06.trf",
    "lichess-swiss-2021_03.trf",
]
#: what the checker says about the others
CHECKER_CANNOT_READ = {
    "icu-bunratty_challengers_2011.trf": "Incorrect score for player",  # blank-result byes
    "icu-bunratty_major_2011.trf": "Incorrect score for player",
    "icu-bunratty_masters_2011.trf": "Incorrect score for player",
    "icu-bunratty_minor_2011.trf": "Incorrect score for player",
    "icu-irish_intermediate_champs_2011.trf": "Incorrect score for player",
    "icu-irish_junior_champs_2011.trf": "Incorrect score for player",
    "swiss-chess-karl-mala-2005.trf": "No result for black in round 1, white=13, black=153",  # colour "-" forfeits
    "icu-armstrong_2011.trf": "Add 300 Out-of-order records",  # team league without line-ups
}


def _read(path: Path) -> Tournament:
    return read_trf(path.read_bytes(), accept_points_column=True)


def _rounds(t: Tournament) -> int:
    """The current round for the checker's -n: the last round in which someone has an opponent."""
    return max(max((r for r, e in enumerate(p.rounds, 1) if e.opponent), default=0) for p in t.participants)


def _encoding(data: bytes) -> str:
    if data.isascii():
        return ""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return ""  # Latin-1: the checker's default
    return "utf-8"


def _ours(t: Tournament, criteria: list[str]) -> dict[int, list[Fraction | None]]:
    criteria = [c for c in criteria if not (t.round_robin and c.startswith("BH"))]
    standings = compute_standings(t, criteria)
    return {row.start_number: [row.points, *(row.values[c] for c in criteria)] for row in standings.rows}


def _differences(ours: dict[int, list[Fraction | None]], checker: dict[int, list[Fraction | None]]) -> list:
    assert sorted(ours) == sorted(checker)
    return [
        (number, i, to_hundredths(mine), theirs)
        for number, values in ours.items()
        for i, (mine, theirs) in enumerate(zip(values, checker[number], strict=True))
        if to_hundredths(mine) != theirs
    ]


def test_every_real_file_is_listed_in_sources():
    sources = (REAL / "SOURCES.md").read_text()
    assert len(FILES) == 19
    assert [f.name for f in FILES if f.name not in sources and f != FIDE_SAMPLE] == []


# --- the command line reads every file ---------------------------------------------------------------
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_command_line_reads_every_real_file(path: Path):
    result = subprocess.run(
        [sys.executable, "-m", "tiebreaks", "standings", str(path), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)["rows"]
    lines = path.read_bytes().replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    teams = sum(1 for line in lines if line[:3] == b"310") or sum(1 for line in lines if line[:3] == b"013")
    players = sum(1 for line in lines if line[:3] == b"001")
    assert len(rows) == (teams or players)
    # one player's points column cannot be explained without guessing: a warning, never a refusal
    expected_warnings = 1 if path.name == "icu-bunratty_challengers_2011.trf" else 0
    assert result.stderr.count("warning:") == expected_warnings == result.stderr.count("\n")


# --- round trips ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_real_file_round_trips(path: Path):
    t = _read(path)
    text = write_trf(t)
    assert read_trf(text) == t
    assert read_trf(encode_trf(text)) == t


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_real_file_round_trips_through_trf16(path: Path):
    t = _read(path)
    back = read_trf(write_trf(t, "2016"))
    assert back.participants == t.participants
    assert (back.scoring, back.total_rounds) == (t.scoring, t.total_rounds)
    assert [(team.name, team.members) for team in back.teams] == [(team.name, team.members) for team in t.teams]


# --- FIDE's checker on the published files -------------------------------------------------------------
@pytest.mark.parametrize("name", CHECKER_READS)
def test_the_checker_gives_the_same_values_for_the_published_file(name: str):
    path = REAL / name
    t = _read(path)
    criteria = [c for c in CRITERIA if not (t.round_robin and c.startswith("BH"))]
    checker = checker_values(
        path, ["PTS", *criteria], rounds=_rounds(t), round_robin=t.round_robin, encoding=_encoding(path.read_bytes())
    )
    differences = _differences(_ours(t, criteria), checker)
    if name == "icu-valid.trf":
        # `0000 - =` in round 1 of players 1 and 8: a half-point bye for us (ICU; a VUR, cut first),
        # a played draw without an opponent for the checker; only their own Cut-1 values differ
        assert {(number, criteria[i - 1]) for number, i, _, _ in differences} == {(1, "BH/C1"), (8, "BH/C1")}
    else:
        assert differences == []


@pytest.mark.parametrize("name", sorted(CHECKER_CANNOT_READ))
def test_the_checker_refuses_these_published_files(name: str):
    path = REAL / name
    t = _read(path)
    with pytest.raises(CheckerRefused, match=CHECKER_CANNOT_READ[name]):
        checker_values(path, ["PTS"] if not t.teams else ["MPTS"], rounds=_rounds(t))


# --- FIDE's checker on our export of every file ------------------------------------------------------------
def _colours_for_the_checker(t: Tournament) -> Tournament:
    """Forfeit pairs written with colour "-" on both sides (Swiss-Chess) crash the checker: give them
    w (lower start number) and b, which no tie-break reads."""
    participants = []
    for p in t.participants:
        rounds = tuple(
            replace(e, colour="w" if p.start_number < e.opponent else "b")
            if e.opponent is not None and e.colour is None
            else e
            for e in p.rounds
        )
        participants.append(replace(p, rounds=rounds))
    return replace(t, participants=participants)


@pytest.mark.parametrize("edition", ["2026", "2016"])
@pytest.mark.parametrize("path", INDIVIDUAL, ids=lambda p: p.stem)
def test_the_checker_reads_our_export_and_gives_our_values(path: Path, edition: str, tmp_path: Path):
    t = _read(path)
    ours = _ours(t, CRITERIA)
    exported = tmp_path / f"{path.stem}-{edition}.trf"
    data = encode_trf(write_trf(_colours_for_the_checker(t), edition))
    exported.write_bytes(data)
    criteria = [c for c in CRITERIA if not (t.round_robin and c.startswith("BH"))]
    checker = checker_values(
        exported, ["PTS", *criteria], rounds=_rounds(t), round_robin=t.round_robin, encoding=_encoding(data)
    )
    differences = _differences(ours, checker)
    if path.name == "icu-valid.trf":  # the half-point byes `0000 - =`, as above
        assert {(number, criteria[i - 1]) for number, i, _, _ in differences} == {(1, "BH/C1"), (8, "BH/C1")}
    else:
        assert differences == []


def _team_values(t: Tournament) -> dict[int, list[Fraction | None]]:
    standings = compute_team_standings(t, TEAM_CRITERIA, primary="MP")
    return {row.team_number: [row.points, *(row.values[c] for c in TEAM_CRITERIA)] for row in standings.rows}


def test_the_checker_gives_the_same_team_values_for_fides_trf26_sample(tmp_path: Path):
    t = _read(FIDE_SAMPLE)
    checker = checker_values(FIDE_SAMPLE, ["MPTS", *TEAM_CRITERIA], rounds=_rounds(t))
    assert _differences(_team_values(t), checker) == []
    exported = tmp_path / "sample-export.trf"
    exported.write_bytes(encode_trf(write_trf(t)))
    assert _differences(_team_values(t), checker_values(exported, ["MPTS", *TEAM_CRITERIA], rounds=_rounds(t))) == []


# --- dialects, against values worked out from the files' own lines --------------------------------------------
def _notes(name: str):
    return read_trf_with_notes((REAL / name).read_bytes(), accept_points_column=True)


@pytest.mark.parametrize(
    ("name", "start", "end"),
    [
        ("icu-bunratty_major_2011.trf", "2011-02-25", "2011-02-27"),  # 25.02.2011
        ("icu-irish_junior_champs_2011.trf", "2011-07-02", "2011-07-03"),  # 2011/07/02
        ("icu-latin-1.trf", "2008-06-07", ""),  # 2008-06-07
        ("lichess-swiss-2020_05.trf", "2020-05-10", "2020-05-10"),  # May 10, 2020
        ("lichess-swiss-2020_06.trf", "2020-05-29", "2020-05-29"),  # May 29, 2020
        ("lichess-swiss-2021_03.trf", "2020-06-26", "2020-06-26"),  # Jun 26, 2020
        ("swiss-chess-karl-mala-2005.trf", "2005-07-28", "2005-07-31"),  # 28. 07. 2005
    ],
)
def test_dates_in_the_shapes_exporters_write(name: str, start: str, end: str):
    t, notes = _notes(name)
    assert (t.start_date, t.end_date) == (start, end)
    assert not [n for n in notes if n.kind.startswith("date")]


def test_day_first_is_read_when_the_day_tells_and_an_end_date_that_can_only_follow_the_start():
    t, notes = _notes("javafo-trfx-sample2.trf")  # 042 24/09/2010, 052 02/10/2010
    assert (t.start_date, t.end_date) == ("2010-09-24", "2010-10-02")  # 2010-02-10 is before the start
    dates = [(n.line_number, n.kind, n.params["other"], n.params["by"]) for n in notes if n.kind.startswith("date")]
    assert dates == [(7, "date_settled", "2010-02-10", "start_date")]
    assert "052 2010/10/02" in write_trf(t).splitlines()


def test_an_ambiguous_date_the_file_cannot_settle_is_kept_as_written_and_reported_with_both_readings():
    t, notes = _notes("icu-armstrong_2011.trf")  # 042 10.09.13 / 052 11.03.13
    # 2013-09-10 would start after either end date; the end date's readings both come after every round
    assert (t.start_date, t.end_date) == ("2010-09-13", "")
    assert "042 10.09.13" not in t.extra_records and "052 11.03.13" in t.extra_records
    dates = [(n.line_number, n.kind, n.readings) for n in notes if n.kind.startswith("date")]
    assert dates == [
        (4, "date_settled", ("2010-09-13",)),
        (5, "date_ambiguous", ("2011-03-13", "2013-03-11")),
    ]
    assert {"042 2010/09/13", "052 11.03.13"} <= set(write_trf(t).splitlines())


def test_the_round_dates_settle_a_start_date_without_an_end_date():
    data = (REAL / "icu-armstrong_2011.trf").read_bytes()  # 132: 10.09.13  10.09.25  10.10.16 ... (YY.MM.DD)
    t, notes = read_trf_with_notes(data.replace(b"052 11.03.13", b"052"))
    assert t.start_date == "2010-09-13"  # 2013-09-10: round 2 (2010-09-25 or 2025-09-10) and 3 cannot follow
    assert [n.params["by"] for n in notes if n.kind == "date_settled"] == ["round_dates"]


def test_an_unplayed_win_without_opponent_counts_as_a_full_point_bye():
    t, notes = _notes("icu-bunratty_major_2011.trf")
    clancy = t.participants[0]  # 001 1 Clancy, Dan 4.0: 0000 - +, (blank), 8 w 1, 17 b =, 21 w 1, 16 b 0
    assert clancy.rounds[0] == RoundEntry("+")
    standings = compute_standings(t, ["BH"])
    assert standings.row(1).points == Fraction(4)  # 1 + 0 + 1 + ½ + 1 + 0 + ... = the points column
    assert any(n.kind == "unpaired_result" and n.line_number == 14 and "unplayed win" in n.message for n in notes)


def test_a_half_point_bye_written_0000_equals():
    t, notes = _notes("icu-valid.trf")  # 001 1 Griffiths 4.0: 0000 - =, 3 b 1, 8 w 1, 5 b =, 7 w 1
    assert t.participants[0].rounds[0] == RoundEntry("=")
    assert compute_standings(t, ["BH"]).row(1).points == Fraction(4)  # ½ + 1 + 1 + ½ + 1
    assert [n.kind for n in notes if n.line_number == 10] == ["unpaired_result"]
    assert "half-point bye" in next(n.message for n in notes if n.line_number == 10)


def test_blank_results_take_their_value_from_the_points_column():
    t, notes = _notes("icu-irish_intermediate_champs_2011.trf")
    byes = [n for n in notes if n.kind == "bye_from_points_column"]
    assert len(byes) == 1 and "player 15" in byes[0].message
    player = t.participants[14]
    assert [e.code for e in player.rounds].count("H") == 1
    assert trf_problems((REAL / "icu-irish_intermediate_champs_2011.trf").read_bytes()) == []


def test_a_bye_the_points_column_cannot_place_is_a_question_with_the_line_and_both_values():
    data = (REAL / "icu-bunratty_challengers_2011.trf").read_bytes()
    problems = trf_problems(data)
    assert [(p.line_number, p.kind) for p in problems] == [(45, "points_column")]
    assert "1.5" in problems[0].message and "add up to 1" in problems[0].message
    assert "one of rounds 1, 3, 4, 5, 6 (no result) is a half-point bye" in problems[0].message
    t = read_trf(data, accept_points_column=True)  # the organiser agreed: the results as written
    assert compute_standings(t, ["BH"]).row(32).points == Fraction(1)


def test_lichess_absences_with_a_blank_opponent():
    t, notes = _notes("lichess-swiss-2020_06.trf")
    defrank = t.participants[4]  # 001 5 defrank 5.5: H, -, 10 w 1, 9 b 1, 3 w 1, 2 b 1, 4 w 0, 1 w 0, 11 b 1, 6 b 0
    assert defrank.rounds[:2] == (RoundEntry("H"), RoundEntry("-"))
    assert compute_standings(t, ["BH"]).row(5).points == Fraction(11, 2)
    # every blank-opponent "-": player 5 round 2, player 8 rounds 2-5, player 13 rounds 4-10
    assert sum(1 for n in notes if n.kind == "unpaired_result") == 12


def test_swiss_chess_forfeits_with_colour_dash_on_both_sides():
    t = _read(REAL / "swiss-chess-karl-mala-2005.trf")
    bakhmatov, opponent = t.participants[12], t.participants[152]  # 13: 153 - -; 153: 13 - +
    assert bakhmatov.rounds[0] == RoundEntry("-", 153, None)
    assert opponent.rounds[0] == RoundEntry("+", 13, None)
    standings = compute_standings(t, ["WIN"])
    assert standings.row(13).points == 0 and standings.row(153).points >= 1


def test_a_mid_event_file_is_ranked_after_the_last_round_with_a_pairing():
    t, notes = _notes("javafo-trfx-sample2.trf")  # 4 of 9 rounds; round 5 holds byes entered before its pairing
    assert t.total_rounds == 9
    rows = compute_standings(t, CRITERIA).rows
    assert rows == compute_standings(replace(t, rounds_computed=4), CRITERIA).rows
    assert rows != compute_standings(replace(t, rounds_computed=5), CRITERIA).rows
    round_5 = {p.start_number: p.rounds[4].code for p in t.participants if len(p.rounds) > 4}
    assert {n: code for n, code in round_5.items() if code != " "} == {22: "Z", 28: "Z", 43: "H"}
    mid = [n for n in notes if n.kind == "mid_event"]
    assert len(mid) == 1 and "after round 4" in mid[0].message
    # player 22 (2.0) leaves its round-5 Z out (worth 0 either way); player 43's 1.0 counts its round-5 H
    assert compute_standings(t, ["BH"]).row(43).points == HALF
    assert write_trf(t).count("0000 - H\r\n") == 1  # the pre-entered bye is kept for the pairing


def test_in_a_team_file_the_numbers_of_record_240_are_teams():
    t, notes = read_trf_with_notes(FIDE_SAMPLE.read_bytes())
    assert any(line.startswith("240 F   1    3") for line in t.extra_records)  # team 3, not player 3
    assert t.participants[2].rounds[0] != RoundEntry("F")
    assert [n.kind for n in notes if n.kind == "team_byes"] == ["team_byes"]


def test_a_team_league_without_line_ups_gets_each_teams_game_points_from_its_members():
    t = _read(REAL / "icu-armstrong_2011.trf")
    assert len(t.teams) == 12
    standings = compute_team_standings(t, ["GPTS"], primary="MP")
    lines = [line for line in (REAL / "icu-armstrong_2011.trf").read_text().splitlines() if line.startswith("001")]
    points = {int(line[4:8]): Fraction(line[80:84].strip() or "0") for line in lines}
    for team in t.teams:  # every game is between two teams: a team's game points are its members' points
        assert standings.row(team.number).values["GPTS"] == sum(points[m] for m in team.members)


def test_latin1_utf8_and_bom_files_read_the_same_names():
    latin, utf8 = _read(REAL / "icu-latin-1.trf"), _read(REAL / "icu-utf-8.trf")
    assert latin == utf8
    assert [p.name for p in latin.participants] == ["Uì Laighlèis,Gearoìdin", "Örr,Mârk", "Bologan,Viktor"]
    bom = _read(REAL / "icu-armstrong_2012_with_bom.trf")
    assert bom.name == "Leinster Chess Union Div 1 Armstrong Cup 2011 - 2012"
    assert any(line.startswith("DDD SSSS") for line in bom.extra_records)  # the column ruler, kept


def test_cr_only_line_ends():
    data = (REAL / "bbpairings-issue_7.trf").read_bytes()
    assert b"\n" not in data
    t = _read(REAL / "bbpairings-issue_7.trf")
    assert len(t.participants) == data.count(b"\r001 ") and t.name.startswith("AutoTest Tournament")


@pytest.mark.parametrize("after", [3, 8])
def test_fides_team_sample_after_an_earlier_round_has_the_checkers_values(after: int):
    """Standings after round 3 or 8 (the command line's --after-round): the records 240 and 330 of later rounds
    wait for their round (they were refused: "record 330: round 4 does not exist")."""
    t = replace(_read(FIDE_SAMPLE), rounds_computed=after)
    checker = checker_values(FIDE_SAMPLE, ["MPTS", *TEAM_CRITERIA], rounds=after)
    assert _differences(_team_values(t), checker) == []
