"""TRF reader and writer (tiebreaks/trf.py) against shared/spec/trf-format.md.

Expected values come from the spec's tables (§12.1, §12.2), the golden JSON files and hand
arithmetic, never from the reader's own output.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import cast

import pytest

from tests.paths import BENCH
from tests.paths import GOLDEN as GOLDEN_DIR
from tiebreaks.engine.model import Participant, RoundEntry, Scoring, Team, Tournament
from tiebreaks.trf import (
    TRFError,
    apply_national_ratings,
    encode_trf,
    read_trf,
    read_trf_with_notes,
    trf_problems,
    write_trf,
)

ROOT = Path(__file__).resolve().parents[2]

GOLDEN = sorted(GOLDEN_DIR.glob("**/*.json"))
EXAMPLE = (ROOT / "tests" / "fixtures" / "trf" / "golden-mini-swiss.trf").read_text()
HALF = Fraction(1, 2)


def example_lines() -> list[str]:
    return EXAMPLE.splitlines()


def edit(lines: list[str], prefix: str, new: str | None) -> list[str]:
    """Replace (or drop, when new is None) the line starting with prefix."""
    out = []
    for line in lines:
        if line.startswith(prefix):
            if new is not None:
                out.append(new)
        else:
            out.append(line)
    return out


def line_number(lines: list[str], prefix: str) -> int:
    return next(i for i, line in enumerate(lines, start=1) if line.startswith(prefix))


def without_comments(t: Tournament) -> Tournament:
    return replace(t, extra_records=tuple(r for r in t.extra_records if not r.startswith("###")))


# --- §12 complete example --------------------------------------------------------------------


def test_it_reads_the_header_of_the_spec_example():
    t = read_trf(EXAMPLE)
    assert t.name == "Golden Club Swiss 2026"
    assert (t.start_date, t.end_date) == ("2026-04-04", "2026-04-05")
    assert t.total_rounds == 5
    assert t.scoring == Scoring(
        win=Fraction(1), draw=HALF, loss=Fraction(0), absence=Fraction(0), pab=Fraction(1), unknown=HALF
    )
    assert t.tiebreaks == ["PTS", "BH/C1", "BH", "SB"]
    assert t.event_type == "FIDE_DUTCH_2025"
    assert t.round_robin is False
    assert t.teams == []
    assert "022 Oslo" in t.extra_records and "032 NOR" in t.extra_records
    assert len(t.participants) == 7
    assert all(p.rating for p in t.participants)


# §12.2: (opponent, colour, code) per round, "absent" rounds missing from the line
SPEC_ROUNDS = {
    1: [(4, "w", "1"), (3, "b", "="), (2, "w", "0"), (None, None, "F"), (5, "b", "1")],
    2: [(5, "w", "="), (None, None, "H"), (1, "b", "1"), (3, "w", "1"), (6, "w", "+")],
    3: [(6, "b", "1"), (1, "w", "="), (5, "b", "D"), (2, "b", "0"), (4, "w", "1")],
    4: [(1, "b", "0"), (7, "w", "+"), (6, "b", "="), (5, "w", "0"), (3, "b", "0")],
    5: [(2, "b", "="), (6, "w", "1"), (3, "w", "D"), (4, "b", "1"), (1, "w", "0")],
    6: [(3, "w", "0"), (5, "b", "0"), (4, "w", "="), (None, None, "Z"), (2, "b", "-")],
    7: [(None, None, "U"), (4, "b", "-"), (None, None, "Z")],
}
SPEC_PLAYERS = {  # name, sex, rating, points, rank column
    1: ("Alpha, Anna", "w", 2100, Fraction(7, 2), 2),
    2: ("Bravo, Ben", "m", 2050, Fraction(4), 1),
    3: ("Charlie, Cem", "m", 2000, Fraction(3), 4),
    4: ("Delta, Dina", "w", 1950, Fraction(3, 2), 5),
    5: ("Echo, Eirik", "m", 1900, Fraction(3), 3),
    6: ("Foxtrot, Fay", "w", 1850, HALF, 7),
    7: ("Golf, Gil", "m", 1800, Fraction(1), 6),
}
POINTS_OF_CODE: dict[str, int | Fraction] = {
    "1": 1,
    "+": 1,
    "F": 1,
    "U": 1,
    "=": HALF,
    "D": HALF,
    "H": HALF,
    "0": 0,
    "-": 0,
    "Z": 0,
}


@pytest.mark.parametrize("number", sorted(SPEC_ROUNDS))
def test_it_reads_every_round_of_the_spec_example(number):
    t = read_trf(EXAMPLE)
    player = t.participants[number - 1]
    name, sex, rating, points, rank = SPEC_PLAYERS[number]
    assert (player.start_number, player.name, player.sex, player.rating, player.rank) == (
        number,
        name,
        sex,
        rating,
        rank,
    )
    assert player.federation == "NOR"
    assert [(e.opponent, e.colour, e.code) for e in player.rounds] == SPEC_ROUNDS[number]
    assert sum(POINTS_OF_CODE[e.code] for e in player.rounds) == points


def test_player_seven_has_no_entries_after_round_three():
    t = read_trf(EXAMPLE)
    assert len(t.participants[6].rounds) == 3


def test_crlf_comments_and_lowercase_codes_parse_identically():
    base = read_trf(EXAMPLE)
    lines = example_lines()
    lines.insert(5, "### a comment in the middle")
    lines = [line.replace("0000 - H", "0000 - h").replace(" w 1", " w 1") for line in lines]
    lines = [line[:91] + line[91:].replace(" b D", " b d").replace(" w D", " w d") for line in lines]
    variant = read_trf("\r\n".join(lines) + "\r\n")
    assert "### a comment in the middle" in variant.extra_records
    assert without_comments(variant) == base


def test_a_212_list_is_the_202_list_with_pts():
    lines = edit(example_lines(), "202", "212 PTS,BH/C1,BH,SB")
    assert read_trf("\n".join(lines)) == read_trf(EXAMPLE)


def test_a_240_record_agreeing_with_the_001_record_and_xxr_change_nothing():
    lines = [*example_lines(), "240 H   2    2", "XXR 5"]
    assert read_trf("\n".join(lines)) == read_trf(EXAMPLE)


def test_a_240_record_adds_a_bye_the_001_record_lacks():
    lines = example_lines()
    # player 7 has no round 4 on the line; 240 gives a half-point bye there (and the points follow)
    lines = [
        line.replace("    1.0    6  0000 - U", "    1.5    6  0000 - U") if line.startswith("001    7") else line
        for line in lines
    ]
    t = read_trf("\n".join([*lines, "240 H   4    7"]))
    assert t.participants[6].rounds[3] == RoundEntry("H")


def test_a_240_record_contradicting_the_001_record_is_rejected():
    lines = [*example_lines(), "240 F   2    2"]
    with pytest.raises(TRFError) as error:
        read_trf("\n".join(lines))
    assert error.value.line_number == len(lines)
    assert "player 2" in str(error.value) and "round 2" in str(error.value)
    assert str(error.value).startswith(f"line {len(lines)}: ")


def test_a_wrong_points_column_is_rejected_with_its_line():
    lines = example_lines()
    n = line_number(lines, "001    1")
    lines[n - 1] = lines[n - 1][:80] + " 4.5" + lines[n - 1][84:]
    with pytest.raises(TRFError) as error:
        read_trf("\n".join(lines))
    assert error.value.line_number == n
    assert "4.5" in str(error.value) and "3.5" in str(error.value)


# --- encodings ------------------------------------------------------------------------------

NORDIC = "Ødegård, Åse"


def nordic_file() -> str:
    lines = example_lines()
    n = line_number(lines, "001    1")
    lines[n - 1] = lines[n - 1][:14] + f"{NORDIC:<33}" + lines[n - 1][47:]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1", "utf-8-sig"])
def test_it_reads_utf8_and_latin1_bytes(encoding):
    t = read_trf(nordic_file().encode(encoding))
    assert t.participants[0].name == NORDIC
    assert t.participants[0].rounds == read_trf(EXAMPLE).participants[0].rounds


def test_utf8_misread_as_latin1_is_rejected_as_misaligned():
    garbled = nordic_file().encode("utf-8").decode("latin-1")
    with pytest.raises(TRFError) as error:
        read_trf(garbled)
    assert error.value.line_number == line_number(example_lines(), "001    1")
    assert "misaligned" in str(error.value)


def test_export_is_latin1_when_possible_and_utf8_otherwise():
    assert encode_trf("Ødegård") == "Ødegård".encode("latin-1")
    assert encode_trf("Γεώργιος") == "Γεώργιος".encode()


# --- consistency rules (§4, §9): each error names its line -------------------------------------


def set_block(lines: list[str], player: int, rnd: int, block: str) -> tuple[list[str], int]:
    n = line_number(lines, f"001 {player:4d}")
    line = lines[n - 1].ljust(91 + 10 * rnd)
    c = 91 + 10 * (rnd - 1)
    lines = list(lines)
    lines[n - 1] = (line[:c] + block + line[c + 8 :]).rstrip()
    return lines, n


def rejected(lines: list[str]) -> TRFError:
    with pytest.raises(TRFError) as error:
        read_trf("\n".join(lines))
    return error.value


def test_an_opponent_who_points_elsewhere_is_rejected():
    # player 1 round 1 says opponent 5 (5's round 1 is against 2)
    lines, n = set_block(example_lines(), 1, 1, "   5 w 1")
    error = rejected(lines)
    assert error.line_number == n
    assert "round 1 of player 1 says opponent 5 but player 5's round 1 points elsewhere" in str(error)


def test_non_complementary_codes_are_rejected():
    lines, n = set_block(example_lines(), 1, 1, "   4 w =")  # 4 has a loss against 1
    error = rejected(lines)
    assert error.line_number == n
    assert "'='" in str(error) and "'0'" in str(error)


def test_both_players_with_the_same_colour_are_rejected():
    lines, n = set_block(example_lines(), 1, 1, "   4 b 1")
    error = rejected(lines)
    assert error.line_number == n and "colour" in str(error)


def test_two_pairing_allocated_byes_in_one_round_are_rejected():
    lines = example_lines()
    lines, _ = set_block(lines, 6, 4, "0000 - U")  # 6 already has a Z in round 4; 7 has nothing
    lines, n7 = set_block(lines, 7, 4, "0000 - U")
    n6 = line_number(lines, "001    6")
    lines = [line.replace("    0.5    7", "    1.5    7") for line in lines]
    lines = [line.replace("    1.0    6", "    2.0    6") for line in lines]
    error = rejected(lines)
    assert error.line_number == max(n6, n7)
    assert "round 4" in str(error) and "U" in str(error)


def test_a_bye_with_an_opponent_is_rejected():
    lines, n = set_block(example_lines(), 1, 4, "   3 - F")
    error = rejected(lines)
    assert error.line_number == n and "must not have an opponent" in str(error)


def test_a_game_with_a_colour_but_no_opponent_is_rejected():
    lines, n = set_block(example_lines(), 1, 1, "0000 w 1")
    error = rejected(lines)
    assert error.line_number == n and "without an opponent has a colour" in str(error)


def test_an_unknown_result_code_is_rejected():
    lines, n = set_block(example_lines(), 3, 2, "   1 w Q")
    error = rejected(lines)
    assert error.line_number == n and "'Q'" in str(error)


def test_an_opponent_without_a_player_record_is_rejected():
    lines, n = set_block(example_lines(), 7, 3, "  12 w 1")
    error = rejected(lines)
    assert error.line_number == n and "12" in str(error)


def test_a_gap_in_start_numbers_is_rejected():
    lines = [line.replace("001    7", "001    9", 1) for line in example_lines()]
    lines = [line.replace("     7 w +", "     9 w +") for line in lines]
    error = rejected(lines)
    assert "7 is missing" in str(error)
    assert error.line_number == line_number(lines, "001    9")


def test_a_duplicate_start_number_is_rejected():
    lines = example_lines()
    lines.append(lines[line_number(lines, "001    7") - 1])
    error = rejected(lines)
    assert error.line_number == len(lines) and "twice" in str(error)


def test_more_results_than_announced_rounds_are_rejected():
    lines = edit(example_lines(), "142", "142 4")
    error = rejected(lines)
    assert error.line_number == line_number(lines, "001    1") and "4" in str(error)


def test_a_date_that_is_no_date_is_kept_as_written_with_a_note():
    lines = edit(example_lines(), "042", "042 next tuesday")
    t, notes = read_trf_with_notes("\n".join(lines))
    assert t.start_date == "" and "042 next tuesday" in t.extra_records
    assert [(n.line_number, n.kind) for n in notes] == [(line_number(lines, "042"), "date_unreadable")]
    assert "042 next tuesday" in write_trf(t).splitlines()


def test_a_file_without_players_is_rejected():
    with pytest.raises(TRFError, match="no player records"):
        read_trf("012 Empty\n142 5\n")


def test_a_shifted_round_block_is_rejected():
    lines = example_lines()
    n = line_number(lines, "001    2")
    lines[n - 1] = lines[n - 1][:90] + " " + lines[n - 1][90:]  # one column to the right
    error = rejected(lines)
    assert error.line_number == n and "misaligned" in str(error)


# --- scoring (§5) -----------------------------------------------------------------------------


def test_without_162_the_scoring_is_inferred_from_the_points_columns():
    lines = edit(example_lines(), "162", None)
    assert read_trf("\n".join(lines)).scoring.win == 1


def test_three_points_for_a_win_is_inferred():
    # Alpha: 1 = 0 F 1 -> 3 + 1 + 0 + 3 + 3 = 10 with 3-1-0; the other lines follow
    three = {1: 10, 2: 11, 3: 8, 4: 4, 5: 8, 6: 1, 7: 3}
    lines = edit(example_lines(), "162", None)
    for number, points in three.items():
        n = line_number(lines, f"001 {number:4d}")
        lines[n - 1] = lines[n - 1][:80] + f"{points:4.1f}" + lines[n - 1][84:]
    scoring = read_trf("\n".join(lines)).scoring
    assert (scoring.win, scoring.draw, scoring.loss, scoring.pab_points) == (3, 1, 0, 3)


def test_362_accepts_both_spellings():
    one = read_trf(EXAMPLE + "362  W 3.0    D 1.0    L 0.0\n").match_scoring
    two = read_trf(EXAMPLE + "362 TW 3.0   TD 1.0   TL 0.0\n").match_scoring
    assert one == two
    assert one is not None
    assert (one.win, one.draw, one.loss) == (3, 1, 0)


# --- event type ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("record", "round_robin"),
    [
        ("192 FIDE_ROUNDROBIN", True),
        ("192 BERGER_DOUBLEROUNDROBIN", True),
        ("192 FIDE_DUTCH_2025", False),
        ("092 Individual: Round robin", True),
        ("092 Berger tables", True),
        ("092 Individual: Swiss-System", False),
    ],
)
def test_the_tournament_type_decides_round_robin(record, round_robin):
    lines = [*edit(edit(example_lines(), "192", None), "092", None), record]
    assert read_trf("\n".join(lines)).round_robin is round_robin


def test_192_wins_over_092():
    lines = edit(example_lines(), "092", "092 Round robin")
    assert read_trf("\n".join(lines)).round_robin is False  # 192 says FIDE_DUTCH_2025


# --- national ratings (§6) --------------------------------------------------------------------


def test_172_higher_of_fide_and_national_rating():
    nrs = "NOR    1 w    Alpha, Anna                       2150"
    nrs2 = "NOR    2 m    Bravo, Ben                        1900"
    t = apply_national_ratings(read_trf(EXAMPLE + "172 NOR HBFN\n" + nrs + "\n" + nrs2 + "\n"))
    assert [p.rating for p in t.participants[:3]] == [2150, 2050, 2000]


def test_national_records_survive_a_round_trip():
    text = EXAMPLE + "172 NOR NRO\nNOR    1 w    Alpha, Anna                       2150\n"
    t = read_trf(text)
    assert read_trf(write_trf(t)) == t
    assert "NOR    1 w    Alpha, Anna                       2150" in write_trf(t).splitlines()


# --- teams ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [p for p in GOLDEN if p.parent.name == "team"], ids=lambda p: p.name)
def test_013_team_records_give_the_golden_teams(path):
    gold = json.loads(path.read_text())
    t = read_trf(gold["trf"])
    assert [team.number for team in t.teams] == [int(k) for k in gold["teams"]]
    assert {str(team.number): list(team.members) for team in t.teams} == gold["teams"]


# --- round trips ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_golden_files_round_trip(path):
    text = json.loads(path.read_text())["trf"]
    t = read_trf(text)
    written = write_trf(t)
    assert read_trf(written) == t
    assert written.endswith("\r\n") and "\n" not in written.replace("\r\n", "")
    original = {line.rstrip() for line in text.splitlines() if line.strip()}
    out = {line.rstrip() for line in written.splitlines()}
    if t.teams:  # 013 records are written as 310 (spec §10), and 162 is always written
        original = {line for line in original if not line.startswith("013")}
        out = {line for line in out if not line.startswith(("310", "162"))}
    assert out == original


def test_the_spec_example_round_trips_line_for_line():
    written = write_trf(read_trf(EXAMPLE))
    assert written.splitlines() == example_lines()


def test_a_built_tournament_round_trips():
    players = [
        Participant(1, "One, Ann", 2000, (RoundEntry("1", 2, "w"), RoundEntry("H"), RoundEntry(" ")), sex="w"),
        Participant(2, "Two, Bob", None, (RoundEntry("0", 1, "b"), RoundEntry("+", 3, None)), title="FM"),
        Participant(3, "Three, Cy", 1800, (RoundEntry("U"), RoundEntry("-", 2, None), RoundEntry("Z")), rank=3),
    ]
    t = Tournament(
        participants=players,
        total_rounds=3,
        scoring=Scoring(win=Fraction(3), draw=Fraction(1)),
        name="Built",
        tiebreaks=["MPTS", "GPTS"],
        teams=[Team(1, "Team A", (1, 2)), Team(2, "Team B", (3,))],
        match_scoring=Scoring(win=Fraction(2), draw=Fraction(1)),
        start_date="2026-05-01",
        event_type="FIDE_TEAM_SWISS_MP",
    )
    assert read_trf(write_trf(t)) == t


def test_writing_rejects_points_trf_cannot_hold():
    t = read_trf(EXAMPLE)
    with pytest.raises(ValueError, match="halves"):
        write_trf(replace(t, scoring=Scoring(draw=Fraction(1, 4))))


@pytest.mark.parametrize("edition", ["2026", "2016"])
def test_long_names_and_control_characters_never_break_the_written_file(edition):
    t = read_trf(EXAMPLE)
    odd = [
        replace(t.participants[0], name="Wolfeschlegelsteinhausenbergerdorff, Hubert Blaine"),  # 50 characters
        replace(t.participants[1], name="Bravo,\r\nBen\tthe\x00Second", title="GM\n", federation="N\rOR"),
        replace(t.participants[2], fide_id="123456789012345", birth="1975.  .  extra"),
        *t.participants[3:],
    ]
    text = write_trf(replace(t, participants=odd, name="Club\r\nOpen"), edition)
    lines = text.split("\r\n")
    assert lines[-1] == "" and all("\r" not in line and "\n" not in line for line in lines)
    players = [line for line in lines if line.startswith("001")]
    assert len(players) == 7
    # every round block still starts at column 92 (index 91): the fixed columns held
    assert all(line[89:91] == "  " and line[91:95].strip().isdigit() for line in players)
    back = read_trf(text)
    assert back.participants[0].name == "Wolfeschlegelsteinhausenbergerdorff, Hubert Blaine"[:33]
    assert back.participants[1].name == "Bravo,  Ben the Second"
    assert back.participants[1].title == "GM" and back.participants[1].federation == "N O"
    assert back.name == "Club  Open"
    assert [p.rounds for p in back.participants] == [p.rounds for p in t.participants]


def test_writing_recomputes_player_counts_and_always_writes_162():
    lines = edit(edit(edit(example_lines(), "062", "062 99"), "072", None), "162", None)
    written = write_trf(read_trf("\n".join(lines))).splitlines()
    assert "062 7" in written and "072 7" in written
    assert any(line.startswith("162  W 1.0    D 0.5") for line in written)


@pytest.mark.parametrize("size", [100, 1000])
def test_the_generated_benchmark_files_round_trip(size):
    # FIDE's tournament generator: YY/MM/DD dates and a blank after the last round block
    data = (BENCH / f"swiss-{size}-players.trf").read_bytes()
    t = read_trf(data)
    assert len(t.participants) == size
    assert t.start_date == "2026-11-29"
    assert read_trf(write_trf(t)) == t


def random_tournament(seed: int) -> Tournament:
    """A valid random crosstable using every result code, odd names and optional fields."""
    import random

    rng = random.Random(seed)
    n, rounds = rng.randint(2, 14), rng.randint(1, 9)
    table: dict[int, list[RoundEntry]] = {p: [] for p in range(1, n + 1)}
    pabs = 0
    for _ in range(rounds):
        players = list(range(1, n + 1))
        rng.shuffle(players)
        pab_given = False
        paired = False  # every round has a pairing (a round of byes only is one not paired yet)
        while players:
            a = players.pop()
            if not players or (paired and rng.random() < 0.15):
                code = "U" if not pab_given and rng.random() < 0.5 else rng.choice("FHZA ")
                pab_given |= code == "U"
                pabs += code == "U"
                table[a].append(RoundEntry(code))
                continue
            b = players.pop()
            paired = True
            pair = rng.choice([("1", "0"), ("0", "1"), ("=", "="), ("W", "L"), ("D", "D"), ("X", "?"),
                               ("+", "-"), ("-", "+"), ("-", "-")])  # fmt: skip
            colours: tuple[str | None, str | None] = ("w", "b") if rng.random() < 0.5 else ("b", "w")
            if pair[0] in "+-" and rng.random() < 0.3:
                colours = (None, None)
            table[a].append(RoundEntry(pair[0], b, colours[0]))
            table[b].append(RoundEntry(pair[1], a, colours[1]))
    for p in table:  # trailing rounds may be missing from a line (not paired)
        while table[p] and table[p][-1] == RoundEntry(" ") and rng.random() < 0.5:
            table[p].pop()
    names = ["Ødegård, Åse", "Smith, John", "Çelik, Şule", "Müller-Lüdenscheidt, K.", "O'Brien, Ní"]
    participants = [
        Participant(
            start_number=p,
            name=f"{rng.choice(names)} {p}",
            rating=rng.choice([None, rng.randint(1000, 2800)]),
            rounds=tuple(table[p]),
            sex=rng.choice(["", "m", "w"]),
            title=rng.choice(["", "GM", "WFM", "CM"]),
            federation=rng.choice(["", "NOR", "TUR"]),
            fide_id=rng.choice(["", "0", str(rng.randint(1, 99999999))]),
            birth=rng.choice(["", "1990", "2001/02/03"]),
            rank=rng.choice([None, p]),
        )
        for p in range(1, n + 1)
    ]
    scoring = rng.choice([Scoring(), Scoring(win=Fraction(3), draw=Fraction(1), pab=Fraction(1))])
    return Tournament(
        participants=participants,
        total_rounds=rounds + rng.randint(0, 2),
        scoring=scoring,
        name=rng.choice(["", "Open ÆØÅ 2026"]),
        tiebreaks=rng.choice([[], ["PTS", "BH/C1", "SB"], ["PTS"]]),
        start_date=rng.choice(["", "2026-03-01"]),
        end_date=rng.choice(["", "2026-03-09"]),
        event_type=rng.choice(["", "FIDE_DUTCH_2025"]),
        extra_records=rng.choice([(), ("022 Tromsø", "092 Individual: Swiss-System")]),
    )


@pytest.mark.parametrize("seed", range(200))
def test_random_tournaments_round_trip_in_every_encoding(seed):
    t = random_tournament(seed)
    text = write_trf(t)
    assert read_trf(text) == t
    assert read_trf(encode_trf(text)) == t
    assert read_trf(text.encode("utf-8")) == t


# --- every problem at once (the import preview) ------------------------------------------------


def problem_lines(lines: list[str]) -> list[int | None]:
    return [p.line_number for p in trf_problems("\n".join(lines))]


def test_a_readable_file_has_no_problems():
    assert trf_problems(EXAMPLE) == []


def test_three_broken_lines_are_all_listed_with_their_numbers():
    lines = edit(example_lines(), "142", "142 nine")
    lines, n3 = set_block(lines, 3, 2, "   1 w Q")  # unknown result code
    n5 = line_number(lines, "001    5")
    lines[n5 - 1] = lines[n5 - 1][:48] + "abcd" + lines[n5 - 1][52:]  # rating is not a number
    problems = trf_problems("\n".join(lines))
    assert [p.line_number for p in problems] == sorted([line_number(lines, "142"), n3, n5])
    assert "'Q'" in str(problems[[p.line_number for p in problems].index(n3)])
    assert "abcd" in str(problems[[p.line_number for p in problems].index(n5)])
    # read_trf still stops at the first problem
    with pytest.raises(TRFError) as error:
        read_trf("\n".join(lines))
    assert error.value.line_number == line_number(lines, "142")


def test_problems_across_lines_are_reported_on_each_offending_line():
    lines, n1 = set_block(example_lines(), 1, 1, "   5 w 1")  # 5 played 2 in round 1
    lines, n3 = set_block(lines, 3, 2, "   1 w 1")  # 1 has a draw against 3
    n4 = line_number(lines, "001    4")
    n6 = line_number(lines, "001    6")
    lines[n6 - 1] = lines[n6 - 1][:80] + "99.0" + lines[n6 - 1][84:]  # points column
    problems = trf_problems("\n".join(lines))
    by_line: dict[int | None, list[str]] = {}
    for problem in problems:
        by_line.setdefault(problem.line_number, []).append(str(problem))
    assert "player 1 says opponent 5" in by_line[n1][0]
    assert any("player 3 has '1' against 1" in text for text in by_line[n3])
    assert "player 4 says opponent 1" in by_line[n4][0]  # the other side of the one-sided pairing
    assert "99" in by_line[n6][0]
    assert [p.line_number for p in problems] == sorted(cast(int, p.line_number) for p in problems)  # each has one


def test_a_player_record_that_cannot_be_read_is_reported_once():
    lines, n = set_block(example_lines(), 2, 1, "   X w 1")  # opponent is not a number
    problems = trf_problems("\n".join(lines))
    assert [p.line_number for p in problems] == [n]  # its opponents' records are not blamed


def test_a_file_without_players_is_one_problem_of_the_whole_file():
    problems = trf_problems("012 Nothing here\n")
    assert [(p.line_number, "no player records" in p.message) for p in problems] == [(None, True)]


# --- what real exporters write (issue: real tournament files) -------------------------------------
@pytest.mark.parametrize(
    ("text", "readings"),
    [
        ("2026/06/01", ("2026-06-01",)),
        ("2026-06-01", ("2026-06-01",)),
        ("01.06.2026", ("2026-06-01",)),  # dots with the year last: day first
        ("28. 07. 2005", ("2005-07-28",)),
        ("24/09/2010", ("2010-09-24",)),  # 24 cannot be a month
        ("May 29, 2020", ("2020-05-29",)),
        ("2026/06/01   ", ("2026-06-01",)),
        ("26/11/29", ("2026-11-29",)),  # YY/MM/DD, the TRF round-date format
        ("10.09.13", ("2010-09-13", "2013-09-10")),  # ambiguous: YY.MM.DD or DD.MM.YY
        ("03/04/2011", ("2011-04-03", "2011-03-04")),  # ambiguous: day or month first
        ("", ()),
        ("next tuesday", ()),
        ("2026/02/30", ()),  # no such day
    ],
)
def test_dates_in_the_shapes_exporters_write(text, readings):
    from tiebreaks.trf.codes import parse_date

    assert parse_date(text) == readings


def test_an_ambiguous_start_date_is_kept_and_reported_with_its_readings():
    lines = edit(example_lines(), "042", "042 03/04/2026")
    t, notes = read_trf_with_notes("\n".join(lines))
    assert t.start_date == "" and "042 03/04/2026" in t.extra_records
    assert [(n.kind, n.readings) for n in notes] == [("date_ambiguous", ("2026-04-03", "2026-03-04"))]
    assert read_trf(write_trf(t)) == t


@pytest.mark.parametrize(
    ("block", "points", "meaning"),
    [
        ("0000 - +", "3.5", "an unplayed win"),  # player 1's round 4 F written as 0000 - +: same value
        ("0000 - =", "3.0", "a half-point bye"),
        ("0000 - -", "2.5", "a zero-point absence"),
        ("     - -", "2.5", "a zero-point absence"),  # lichess: blank opponent
    ],
)
def test_results_without_an_opponent_stand_for_the_bye_of_the_same_value(block, points, meaning):
    # player 1: 4 w 1, 3 b =, 2 w 0, [round 4], 5 b 1 -> 2.5 before round 4
    lines, n = set_block(example_lines(), 1, 4, block)
    lines[n - 1] = lines[n - 1][:80] + f"{points:>4}" + lines[n - 1][84:]
    t, notes = read_trf_with_notes("\n".join(lines))
    assert t.participants[0].rounds[3] == RoundEntry(block[-1])
    assert [n.kind for n in notes] == ["unpaired_result"] and meaning in notes[0].message
    from tiebreaks.engine import compute_standings

    assert compute_standings(t, ["BH"]).row(1).points == Fraction(points)
    assert read_trf(write_trf(t)) == t


def test_a_blank_result_whose_value_only_the_points_column_gives_becomes_that_bye():
    lines, _n = set_block(example_lines(), 1, 4, "0000 -  ")  # F with its code left blank (ICU)
    t, notes = read_trf_with_notes("\n".join(lines))  # points column 3.5 = 2.5 + the bye
    assert t.participants[0].rounds[3] == RoundEntry("F")
    assert [n.kind for n in notes] == ["bye_from_points_column"]


def test_a_points_column_with_or_without_the_pre_entered_bye_of_the_next_round():
    from tiebreaks.engine import compute_standings

    for points, leaves_out in (("4.5", False), ("4.0", True)):
        lines, n = set_block(example_lines(), 2, 6, "0000 - H")  # player 2 (4.0) asks for a bye in round 6
        lines = edit(lines, "142", "142 7")
        lines[n - 1] = lines[n - 1][:80] + f"{points:>4}" + lines[n - 1][84:]
        t, notes = read_trf_with_notes("\n".join(lines))
        assert ("points_column_pre_entered_byes" in [x.kind for x in notes]) is leaves_out
        assert "mid_event" in [x.kind for x in notes]
        assert compute_standings(t, ["BH"]).row(2).points == 4  # round 6 is not counted yet
        assert t.participants[1].rounds[5] == RoundEntry("H")  # but kept for its pairing


def test_an_all_zero_points_column_is_ignored():
    lines = [line[:80] + " 0.0" + line[84:] if line.startswith("001") else line for line in example_lines()]
    t, notes = read_trf_with_notes("\n".join(lines))
    assert [n.kind for n in notes] == ["points_column_ignored"]
    assert t.scoring == read_trf(EXAMPLE).scoring  # record 162


def test_a_wrong_points_column_is_a_question_with_the_line_and_both_values():
    lines = example_lines()
    n = line_number(lines, "001    1")
    lines[n - 1] = lines[n - 1][:80] + " 4.5" + lines[n - 1][84:]
    text = "\n".join(lines)
    problems = trf_problems(text)
    assert [(p.line_number, p.kind) for p in problems] == [(n, "points_column")]
    assert "4.5" in problems[0].message and "add up to 3.5" in problems[0].message
    with pytest.raises(TRFError):
        read_trf(text)
    t, notes = read_trf_with_notes(text, accept_points_column=True)
    assert [x.kind for x in notes] == ["points_column_accepted"] and t == read_trf(EXAMPLE)


def test_javafo_scoring_records_stand_for_162():
    # the spec example without 162 but with football scoring in JaVaFo's records: the points
    # columns (1 / ½ / 0) no longer fit, so the records decide and each column is a question
    lines = [*edit(example_lines(), "162", None), "BBW  3.0", "BBD  1.0", "BBL  0.0", "BBZ  0.0", "BBF  0.0"]
    problems = trf_problems("\n".join(lines))
    assert problems and {p.kind for p in problems} == {"points_column"}
    t = read_trf("\n".join(lines), accept_points_column=True)
    assert t.scoring == Scoring(win=Fraction(3), draw=Fraction(1))
    # and TRF-16 writes a scoring system as those records
    sixteen = write_trf(t, "2016")
    assert "BBW  3.0" in sixteen.splitlines() and "162" not in [line[:3] for line in sixteen.splitlines()]
    assert read_trf(sixteen).scoring == t.scoring


def test_every_extension_record_is_kept_and_written_back():
    extension = [
        "### a comment",
        "102 IA Ada Arbiter 1234567",
        "152 W",
        "172 NOR NIDOF",
        "182 Our Pairing Program",
        "222 5400+30",
        "250     1.0   1   2    1    3",
        "260   1   5    1    2",
        "299 -  0.0  1.5",
        "XXA    1  1.0",
        "XXC white1",
        "XXZ 4 7",
        "DAT Tornelo line",
    ]
    text = "\n".join(example_lines() + extension)
    t = read_trf(text)
    written = write_trf(t).splitlines()
    assert all(line in written for line in extension)
    assert read_trf(write_trf(t)) == t
    sixteen = write_trf(t, "2016").splitlines()
    assert "152 W" not in sixteen and "222 5400+30" not in sixteen and "XXR 5" in sixteen
    assert "### a comment" in sixteen and "XXC white1" in sixteen


def test_club_codes_local_ids_and_odd_birth_dates_are_kept():
    lines = example_lines()
    n = line_number(lines, "001    1")
    line = lines[n - 1]
    lines[n - 1] = line[:53] + "KIL" + line[56:57] + "       5193" + line[68:69] + "1975.  .  " + line[79:]
    t = read_trf("\n".join(lines))
    p = t.participants[0]
    assert (p.federation, p.fide_id, p.birth) == ("KIL", "5193", "1975.  .")
    assert read_trf(write_trf(t)) == t


def test_greek_and_hebrew_names_are_written_in_utf8_and_read_back():
    t = read_trf(EXAMPLE)
    names = ["Παπαδόπουλος, Γιώργος", "כהן, דוד"]
    t2 = replace(t, participants=[replace(p, name=nm) for p, nm in zip(t.participants[:2], names, strict=True)]
                 + t.participants[2:])  # fmt: skip
    data = encode_trf(write_trf(t2))
    assert data.decode("utf-8").count("\r\n") == len(write_trf(t2).splitlines())
    assert [p.name for p in read_trf(data).participants[:2]] == names
    assert read_trf(data) == t2


def test_cr_only_and_bom_files_read_like_the_spec_example():
    expected = read_trf(EXAMPLE)
    assert read_trf("\r".join(example_lines())) == expected
    assert read_trf(b"\xef\xbb\xbf" + "\r\n".join(example_lines()).encode("utf-8")) == expected
