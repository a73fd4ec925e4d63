"""Team competitions: match cards -> match and game points, team forfeits (Art. 16), the team
criteria (EDE and its chains, ESB, BC, TBR, BBE, SSSC) and individual criteria with :MP / :GP.

Every expected value is worked out by hand in the comments (match points 2 / 1 / 0, game points
1 / ½ / 0 unless a test says otherwise).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tiebreaks.cli import main
from tiebreaks.engine import CriterionNotAllowed, EngineError, UnknownCriterion
from tiebreaks.engine.context import Context
from tiebreaks.engine.crosstable import FORFEIT_LOSS, FORFEIT_WIN, PAB, PLAYED, Crosstable
from tiebreaks.engine.model import Participant, RoundEntry, Scoring, Team, Tournament
from tiebreaks.engine.rules import get_rule_set
from tiebreaks.engine.team import compute_team_standings
from tiebreaks.engine.team_criteria import parse_team_criterion, primary_from_event_type
from tiebreaks.engine.team_engine import TeamContext
from tiebreaks.engine.team_explain import TEAM_PAB_DEFAULT, TEAM_REASONS
from tiebreaks.engine.team_matches import TeamCrosstable, derive_team_event
from tiebreaks.trf import write_trf

F = Fraction
_COMPLEMENT = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+", "W": "L", "L": "W", "D": "D"}


class Card:
    """Team event builder: teams of ``boards`` players (start numbers in board order)."""

    def __init__(self, teams: int, boards: int, rounds: int, *, round_robin: bool = False) -> None:
        self.boards = boards
        self.rounds = rounds
        self.round_robin = round_robin
        self.n_teams = teams
        self.entries: dict[int, dict[int, RoundEntry]] = {sn: {} for sn in range(1, teams * boards + 1)}

    def player(self, team: int, board: int) -> int:
        return (team - 1) * self.boards + board

    def match(self, rnd: int, white: int, black: int, results: str) -> None:
        """``results``: one code per board for the first-named team (``1 = 0 + -``), who has
        White on odd boards."""
        for b, code in enumerate(results, start=1):
            a, o = self.player(white, b), self.player(black, b)
            if b % 2 == 0:  # colours alternate by board
                self.entries[a][rnd] = RoundEntry(code, o, "b")
                self.entries[o][rnd] = RoundEntry(_COMPLEMENT[code], a, "w")
            else:
                self.entries[a][rnd] = RoundEntry(code, o, "w")
                self.entries[o][rnd] = RoundEntry(_COMPLEMENT[code], a, "b")

    def alone(self, rnd: int, team: int, board: int, code: str) -> None:
        """A board entry without an opponent (``+``: the other side's board was empty; ``U``...)."""
        self.entries[self.player(team, board)][rnd] = RoundEntry(code, None, None)

    def tournament(self, match_scoring: Scoring | None = None, records: tuple[str, ...] = ()) -> Tournament:
        participants = [
            Participant(sn, f"P{sn}", 2000, tuple(rounds.get(r, RoundEntry(" ")) for r in range(1, self.rounds + 1)))
            for sn, rounds in self.entries.items()
        ]
        teams = [
            Team(t, f"Team {t}", tuple(self.player(t, b) for b in range(1, self.boards + 1)))
            for t in range(1, self.n_teams + 1)
        ]
        return Tournament(
            participants=participants,
            total_rounds=self.rounds,
            round_robin=self.round_robin,
            teams=teams,
            match_scoring=match_scoring,
            extra_records=records,
        )


def _match(t: Tournament, team: int, rnd: int):  # type: ignore[no-untyped-def]
    event = derive_team_event(t)
    return event.matches[event.index[team]][rnd - 1]


# --- match cards ------------------------------------------------------------------------------------
def test_match_card_with_a_forfeited_board_and_an_empty_board() -> None:
    # Team 1 vs Team 2, four boards: board 1 won at the board, board 2 drawn, board 3 lost by
    # forfeit (team 1's player did not come), board 4 empty on team 2's side (team 1's player
    # gets the point, nobody sits opposite).
    card = Card(teams=2, boards=4, rounds=1)
    card.match(1, 1, 2, "1=-")
    card.alone(1, 1, 4, "+")
    t = card.tournament()
    one, two = _match(t, 1, 1), _match(t, 2, 1)
    assert one.game_points == F(5, 2)  # 1 + ½ + 0 + 1
    assert two.game_points == F(3, 2)  # 0 + ½ + 1 (forfeit) + nothing on board 4
    assert (one.result, two.result) == ("W", "L")
    assert (one.match_points, two.match_points) == (2, 0)  # a played match: 2 for the win, 0 for the loss
    assert one.kind == two.kind == PLAYED  # boards were played, so the match was played
    assert [b.played for b in one.boards] == [True, True, False, False]
    assert [b.points for b in one.boards] == [1, F(1, 2), 0, 1]


def test_drawn_match_and_custom_match_points() -> None:
    # 2-2 on four boards is a drawn match; with 3 / 1 / 0 match points each team gets 1
    card = Card(teams=2, boards=4, rounds=1)
    card.match(1, 1, 2, "1010")
    t = card.tournament(Scoring(win=F(3), draw=F(1), loss=F(0)))
    assert (_match(t, 1, 1).result, _match(t, 1, 1).match_points, _match(t, 1, 1).game_points) == ("D", 1, 2)
    assert _match(t, 2, 1).match_points == 1


def test_a_match_lost_on_every_board_at_the_board_is_a_played_loss() -> None:
    card = Card(teams=2, boards=2, rounds=1)
    card.match(1, 1, 2, "00")
    t = card.tournament()
    assert (_match(t, 1, 1).kind, _match(t, 1, 1).match_points, _match(t, 1, 1).game_points) == (PLAYED, 0, 0)
    assert (_match(t, 2, 1).result, _match(t, 2, 1).match_points) == ("W", 2)


def _forfeit_event() -> Tournament:
    # four teams of two, two rounds (Swiss)
    # R1: T1-T2 1½-½ at the board; T3-T4: T4 does not come, both boards + for T3 (2-0 forfeit)
    # R2: T1-T3 1-1 (two draws); T2-T4 2-0 at the board
    card = Card(teams=4, boards=2, rounds=2)
    card.match(1, 1, 2, "1=")
    card.match(1, 3, 4, "++")
    card.match(2, 1, 3, "==")
    card.match(2, 2, 4, "11")
    return card.tournament()


def test_whole_team_forfeit_is_an_unplayed_match() -> None:
    t = _forfeit_event()
    winner, loser = _match(t, 3, 1), _match(t, 4, 1)
    assert (winner.kind, winner.match_points, winner.game_points) == (FORFEIT_WIN, 2, 2)
    assert (loser.kind, loser.match_points, loser.game_points) == (FORFEIT_LOSS, 0, 0)
    standings = compute_team_standings(t, ["MPTS", "GPTS", "WIN", "WON", "REP"])
    three, four = standings.row(3).values, standings.row(4).values
    assert (three["MPTS"], three["GPTS"]) == (3, 3)  # 2 + 1 MP; 2 + 1 GP
    assert (three["WIN"], three["WON"]) == (1, 0)  # the forfeit win is a win, but not won at the board
    assert (four["MPTS"], four["GPTS"], four["REP"]) == (0, 0, 1)  # the forfeit loss is not a round elected


def test_team_forfeit_dummies_follow_article_16() -> None:
    t = _forfeit_event()
    s = compute_team_standings(t, ["MPTS", "BH:MP", "BH:GP", "SB:MP", "BH:MP/C1"])
    # T3: R1 forfeit win -> dummy min(own 3 MP, T4's adjusted 0) = 0 (16.4.1); R2 vs T1 (3 MP)
    assert s.row(3).values["BH:MP"] == 3
    # in game points: dummy min(own 3 GP, T4's 0 GP) = 0; R2 T1 has 2½ GP
    assert s.row(3).values["BH:GP"] == F(5, 2)
    # T4: R1 forfeit loss (a VUR) -> dummy min(own 0, T3's 3) = 0; R2 vs T2 (2 MP): BH 2;
    # Cut-1 removes the VUR first (16.5) -> 2
    assert s.row(4).values["BH:MP"] == 2
    assert s.row(4).values["BH:MP/C1"] == 2
    # T1: T2 (2) + T3 (3) = 5; SB:MP = 2 x 2 (win) + 3 x 1 (draw) = 7
    assert s.row(1).values["BH:MP"] == 5
    assert s.row(1).values["SB:MP"] == 7
    trace = s.explain(3)["BH:MP"]
    assert trace.elements[0].dummy and trace.elements[0].article == "16.4.1"
    assert sum(trace.terms(), F(0)) == 3


def test_extended_sonneborn_berger_pairs_the_two_scores() -> None:
    s = compute_team_standings(_forfeit_event(), ["MPTS", "EMMSB", "EMGSB", "EGMSB", "EGGSB", "ESB:MG"])
    one = s.row(1).values
    assert one["EMMSB"] == 2 * 2 + 3 * 1  # T2 has 2 MP (we won: 2), T3 has 3 MP (drawn: 1)
    assert one["EMGSB"] == 2 * F(3, 2) + 3 * 1  # opponents' MP x our GP: 3 + 3 = 6
    assert one["EGMSB"] == F(5, 2) * 2 + 3 * 1  # opponents' GP x our MP: 5 + 3 = 8
    assert one["EGGSB"] == F(5, 2) * F(3, 2) + 3 * 1  # 3.75 + 3 = 6.75
    assert s.criteria == ["MPTS", "EMMSB", "EMGSB", "EGMSB", "EGGSB"]  # ESB:MG is EMGSB: listed once
    # T3: forfeit-win dummy 0 (MP) x 2 MP + T1 3 MP x 1 = 3
    assert s.row(3).values["EMMSB"] == 3


def test_ranking_with_extended_direct_encounter_then_game_points() -> None:
    s = compute_team_standings(_forfeit_event(), ["MPTS", "EDE", "GPTS"])
    # T1 and T3 on 3 MP drew their match 1-1: EDE separates nobody (0); GP 3 > 2½ puts T3 first
    assert [r.team_number for r in s.rows] == [3, 1, 2, 4]
    assert [r.rank for r in s.rows] == [1, 2, 3, 4]
    assert s.row(1).values["EDE"] == s.row(3).values["EDE"] == 0
    assert s.separation(3, 1).criterion == "GPTS"
    assert s.separation(1, 2).criterion == "MPTS"


def test_ede_uses_the_secondary_score_when_match_points_do_not_separate() -> None:
    # two teams of two meet twice: T1 wins R1 1½-½, T2 wins R2 1½-½ -> both 2 MP and 2 GP;
    # EDE (mutual MP 2-2, mutual GP 2-2) separates nobody
    card = Card(teams=2, boards=2, rounds=2, round_robin=True)
    card.match(1, 1, 2, "1=")
    card.match(2, 2, 1, "1=")
    s = compute_team_standings(card.tournament(), ["MPTS", "EDE"])
    assert s.row(1).values["EDE"] == s.row(2).values["EDE"] == 0
    # three teams, single round robin: all on 2 MP (each won once) - MP mutual 2,2,2; GP decides
    card = Card(teams=3, boards=2, rounds=3, round_robin=True)
    card.match(1, 1, 2, "11")  # T1 2-0 T2
    card.match(2, 2, 3, "1=")  # T2 1½-½ T3
    card.match(3, 3, 1, "1=")  # T3 1½-½ T1
    s = compute_team_standings(card.tournament(), ["MPTS", "EDE"])
    # mutual GP: T1 2 + ½ = 2½, T2 0 + 1½ = 1½, T3 ½ + 1½ = 2 -> T1, T3, T2
    assert [r.team_number for r in s.rows] == [1, 3, 2]
    assert [s.row(n).values["EDE"] for n in (1, 2, 3)] == [1, 3, 2]
    trace = s.explain(1)["EDE"]
    assert trace.details["mutual_gp"] == F(5, 2) and trace.details["place"] == 1


def test_esb_cut_removes_the_opponent_with_the_lowest_total() -> None:
    s = compute_team_standings(_forfeit_event(), ["MPTS", "EMMSB/C1", "EMMSB"])
    # T1: T2 (2 MP) contributes 2 x 2 = 4, T3 (3 MP) 3 x 1 = 3; Cut-1 removes the opponent with the
    # lowest MP (T2), not the lowest contribution: 3 (14.1.2)
    assert (s.row(1).values["EMMSB"], s.row(1).values["EMMSB/C1"]) == (7, 3)
    trace = s.explain(1)["EMMSB/C1"]
    assert [e.removed is not None for e in trace.elements] == [True, False]


def test_direct_encounter_on_either_score() -> None:
    card = Card(teams=3, boards=2, rounds=3, round_robin=True)
    card.match(1, 1, 2, "11")
    card.match(2, 2, 3, "1=")
    card.match(3, 3, 1, "1=")
    s = compute_team_standings(card.tournament(), ["MPTS", "DE:MP", "DE:GP"])
    assert [s.row(n).values["DE:MP"] for n in (1, 2, 3)] == [0, 0, 0]  # each won one match: 2, 2, 2
    assert [s.row(n).values["DE:GP"] for n in (1, 2, 3)] == [1, 3, 2]  # game points 2½, 1½, 2


def _knockout_event() -> Tournament:
    # two teams of two meet twice: R1 board 1 to T1, board 2 to T2 (1-1); R2 two draws (1-1)
    # both 2 MP and 2 GP; board points T1 [1½, ½], T2 [½, 1½]
    card = Card(teams=2, boards=2, rounds=2, round_robin=True)
    card.match(1, 1, 2, "10")
    card.match(2, 2, 1, "==")
    return card.tournament()


def test_board_count_top_board_and_bottom_board_elimination() -> None:
    s = compute_team_standings(_knockout_event(), ["MPTS", "GPTS", "EDE", "BC"])
    assert s.row(1).values["BC"] == F(5, 2)  # 1 x 1½ + 2 x ½
    assert s.row(2).values["BC"] == F(7, 2)  # 1 x ½ + 2 x 1½
    assert [r.team_number for r in s.rows] == [1, 2]  # lower board count is better
    assert s.separation(1, 2).criterion == "BC"
    s = compute_team_standings(_knockout_event(), ["MPTS", "GPTS", "TBR", "BBE"])
    assert (s.row(1).values["TBR"], s.row(2).values["TBR"]) == (1, 2)  # board 1: 1½ > ½
    assert (s.row(1).values["BBE"], s.row(2).values["BBE"]) == (0, 0)  # already separated by TBR
    s = compute_team_standings(_knockout_event(), ["MPTS", "GPTS", "BBE"])
    assert (s.row(1).values["BBE"], s.row(2).values["BBE"]) == (1, 2)  # without board 2: 1½ > ½


@pytest.mark.parametrize("chain", ["EDEBT", "EDEBB", "EDET", "EDEB"])
def test_ede_chains_break_a_tie_of_two_with_knockout_criteria(chain: str) -> None:
    s = compute_team_standings(_knockout_event(), ["MPTS", chain])
    assert [r.team_number for r in s.rows] == [1, 2]
    assert (s.row(1).values[chain], s.row(2).values[chain]) == (1, 2)
    plain = compute_team_standings(_knockout_event(), ["MPTS", "EDE"])
    assert plain.row(1).rank == plain.row(2).rank == 1  # EDE alone: mutual 2-2 in MP and GP


def test_board_count_is_not_applied_between_teams_with_different_game_points() -> None:
    # T1 and T3 tie on MP (3) but not on GP (2½ vs 3): BC must not rank them (Art. 12)
    s = compute_team_standings(_forfeit_event(), ["MPTS", "BC"])
    assert s.row(1).rank == s.row(3).rank == 1
    assert s.row(1).values["BC"] == F(7, 2)  # board points [1½, 1]: 1½ + 2 = 3½, still shown


def test_sssc_and_its_divisor() -> None:
    # 2 rounds, 2 boards: divisor = floor(2 MP x 2 rounds / 2 GP per match) = 2
    s = compute_team_standings(_forfeit_event(), ["MPTS", "SSSC", "MPVGP"])
    assert s.row(1).values["SSSC"] == F(5, 2) + F(5, 2)  # GP 2½ + BH:MP 5 / 2
    assert s.row(1).values["MPVGP"] == F(5, 2)
    assert s.row(3).values["SSSC"] == 3 + F(3, 2)  # GP 3 + BH:MP 3 / 2
    s = compute_team_standings(_forfeit_event(), ["MPTS", "SSSC/K1"])
    assert s.row(1).values["SSSC/K1"] == F(5, 2) + 5
    # 1 round, 4 boards: floor(2 / 4) = 0 -> C.07 gives no divisor; ask for /K
    card = Card(teams=2, boards=4, rounds=1)
    card.match(1, 1, 2, "1100")
    with pytest.raises(EngineError, match="/K"):
        compute_team_standings(card.tournament(), ["MPTS", "SSSC"])


def test_game_point_counts_are_per_board() -> None:
    s = compute_team_standings(_forfeit_event(), ["MPTS", "WIN:GP", "WON:GP", "STD:GP", "WIN"])
    # T3: R1 two forfeit wins, R2 two draws -> 2 board wins, none at the board; STD 1 + 1 + ½ + ½
    assert (s.row(3).values["WIN:GP"], s.row(3).values["WON:GP"], s.row(3).values["STD:GP"]) == (2, 0, 3)
    assert s.row(3).values["WIN"] == 1  # match wins (primary score)


def test_team_pab_defaults_and_match_points_from_the_file() -> None:
    # three teams, one round: T1-T2 played, T3 gets the pairing-allocated bye on both boards
    card = Card(teams=3, boards=2, rounds=1)
    card.match(1, 1, 2, "1=")
    card.alone(1, 3, 1, "U")
    card.alone(1, 3, 2, "U")
    t = card.tournament()
    bye = _match(t, 3, 1)
    assert (bye.kind, bye.match_points, bye.game_points) == (PAB, 1, 2)  # a drawn match's MP, a win per board
    s = compute_team_standings(t, ["MPTS", "GPTS"])
    assert any(n.code == TEAM_PAB_DEFAULT for n in s.notes)
    t = card.tournament(Scoring(win=F(2), draw=F(1), loss=F(0), pab=F(2)))
    assert _match(t, 3, 1).match_points == 2


def test_team_records_320_and_330() -> None:
    # T1-T2 played; T3-T4 have no board entries: record 330 says T4 forfeited the match
    card = Card(teams=4, boards=2, rounds=1)
    card.match(1, 1, 2, "1=")
    t = card.tournament(records=("330 +-   1   3   4",))
    assert (_match(t, 3, 1).kind, _match(t, 3, 1).match_points, _match(t, 3, 1).game_points) == (FORFEIT_WIN, 2, 2)
    assert (_match(t, 4, 1).kind, _match(t, 4, 1).match_points, _match(t, 4, 1).game_points) == (FORFEIT_LOSS, 0, 0)
    assert _match(t, 4, 1).opponent == 3
    t = card.tournament(records=("330 --   1   3   4",))  # double forfeit: a loss for both
    assert _match(t, 3, 1).kind == _match(t, 4, 1).kind == FORFEIT_LOSS
    # three teams: record 320 gives the PAB 1 MP and 1½ GP; no default note then
    card = Card(teams=3, boards=2, rounds=1)
    card.match(1, 1, 2, "1=")
    t = card.tournament(records=("320  1.0  1.5   3",))
    assert (_match(t, 3, 1).kind, _match(t, 3, 1).match_points, _match(t, 3, 1).game_points) == (PAB, 1, F(3, 2))
    assert not compute_team_standings(t, ["MPTS"]).notes
    with pytest.raises(EngineError, match="330"):
        derive_team_event(card.tournament(records=("330 +-   1   3   9",)))


def test_primary_game_points() -> None:
    s = compute_team_standings(_forfeit_event(), ["GPTS", "MPTS", "BH"], primary="GP")
    assert [r.team_number for r in s.rows] == [3, 1, 2, 4]  # GP 3, 2½ (MP 3), 2½ (MP 2), 0
    assert s.row(1).points == F(5, 2)
    assert s.row(1).values["BH"] == F(5, 2) + 3  # BH without suffix uses the primary score (GP)
    assert primary_from_event_type("FIDE_TEAM_TYPEA_GP_MP") == "GP"
    assert primary_from_event_type("FIDE_TEAM_TYPEA_MP_GP") == "MP"
    assert primary_from_event_type("") == "MP"


def test_round_robin_counts_a_team_forfeit_as_a_match() -> None:
    # 15.2: with pre-determined pairings a forfeited match is a regular game for BH/SB/EDE
    card = Card(teams=4, boards=2, rounds=3, round_robin=True)
    card.match(1, 1, 2, "++")  # T2 does not come
    card.match(1, 3, 4, "1=")
    card.match(2, 1, 3, "==")
    card.match(2, 2, 4, "11")
    card.match(3, 4, 1, "00")
    card.match(3, 2, 3, "10")
    s = compute_team_standings(card.tournament(), ["MPTS", "SB:MP", "KS:MP", "EDE"])
    # T1: 2 (forfeit) + 1 + 2 = 5 MP; T2: 0 + 2 + 1 = 3; T3: 2 + 1 + 1 = 4; T4: 0 + 0 + 0 = 0
    assert [s.row(n).points for n in (1, 2, 3, 4)] == [5, 3, 4, 0]
    # SB:MP of T1: T2's 3 x 2 (forfeit counts as a game) + T3's 4 x 1 + T4's 0 x 2 = 10
    assert s.row(1).values["SB:MP"] == 10
    # Koya limit 50 % x 2 x 3 = 3 MP: T2 (3) and T3 (4) qualify: 2 + 1 = 3
    assert s.row(1).values["KS:MP"] == 3
    with pytest.raises(CriterionNotAllowed):
        compute_team_standings(card.tournament(), ["MPTS", "BH:MP"])


# --- descriptors ------------------------------------------------------------------------------------
def test_team_descriptors() -> None:
    assert parse_team_criterion("bh:gp/c1").code == "BH:GP/C1"
    assert parse_team_criterion("ESB:GG").code == "EGGSB"
    assert parse_team_criterion("EMMSB/C1").code == "EMMSB/C1"
    assert parse_team_criterion("SSSC/F/K5").code == "SSSC/F/K5"
    assert parse_team_criterion("WIN").score is None
    with pytest.raises(UnknownCriterion):
        parse_team_criterion("BH:XP")
    with pytest.raises(UnknownCriterion):
        parse_team_criterion("MPTS/C1")
    with pytest.raises(CriterionNotAllowed):
        parse_team_criterion("ARO")


def test_team_contexts_carry_every_attribute_of_the_engine_objects() -> None:
    # the team crosstable/context are built without the individual constructors: if the engine
    # adds a field, this test says so before a criterion fails on teams
    t = _forfeit_event()
    rules = get_rule_set("fide-2026")
    event = derive_team_event(t)
    for score in ("MP", "GP"):
        ct = TeamCrosstable(event, score)
        assert set(vars(Crosstable(t))) <= set(vars(ct))
        assert set(vars(Context(t, rules))) <= set(vars(TeamContext(t, rules, ct)))


def test_team_reason_codes_are_distinct_from_the_engines() -> None:
    from tiebreaks.engine.reasons import ALL_REASONS

    assert TEAM_REASONS and not (TEAM_REASONS & ALL_REASONS)
    assert all(code.startswith("team_") for code in TEAM_REASONS)


def test_cli_explains_a_team(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "teams.trf"
    path.write_text(write_trf(_forfeit_event()), encoding="latin-1")
    assert main(["explain", str(path), "--player", "3", "--criteria", "MPTS,EDE,GPTS,BH:MP", "--json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["row"]["team_number"] == 3 and out["row"]["rank"] == 1
    assert out["explain"]["BH:MP"]["value"] == 3
    assert main(["standings", str(path), "--criteria", "MPTS,EDE,GPTS"]) == 0
    table = capsys.readouterr().out
    assert "Team" in table.splitlines()[2]


def test_board_count_counts_a_team_pab_as_a_win_on_every_board_whatever_its_game_points() -> None:
    # Art. 12 (tiebreak-rules 10.5): "a team PAB counts a win on every board". Record 320 gives the PAB 1½ game
    # points (the site writes a draw on every board); board count still reads a win on each board (1 x 1 + 2 x 1),
    # as FIDE's checker does: counting the 320 value per board instead gave a team of FIDE's TRF-26 sample board
    # counts 5 lower than the checker's (issue #30)
    card = Card(teams=3, boards=2, rounds=1)
    card.match(1, 1, 2, "1=")
    t = card.tournament(records=("320  1.0  1.5   3",))
    s = compute_team_standings(t, ["MPTS", "GPTS", "BC"])
    assert (s.row(3).values["GPTS"], s.row(3).values["BC"]) == (F(3, 2), 3)
