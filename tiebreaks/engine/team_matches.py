"""Team matches derived from the board games, and team-level crosstables (spec trf-format §7.8,
tiebreak-rules §10.1).

A team's match in a round is built from the games of its members (TRF 013/310, members in board
order): the members paired against members of one other team are its boards, numbered by the
members' order. Game points (GP) are the sum of the team's board points (a forfeited board counts
for the side that received the point). The match result comes from the game points: more GP wins;
equal GP with both teams above 0 is a draw; 0-0 is a loss for both. Match points (MP) follow from
the result (TRF 362, default 2 / 1 / 0). A match in which no board was played over the board is
an unplayed match: a team forfeit (forfeit win / forfeit loss, Art. 16 for team Swiss events).
A team without an opposing team in a round has a team bye (PAB if its members got ``U``, full-
point bye ``F``, half-point bye ``H``, else a zero-point bye / absence); it gets the bye's match
points and the same value in game points on every board.

Records the 001 lines cannot express are read from ``Tournament.extra_records``: ``240`` (team
full-, half- and zero-point byes; in a team file its numbers are team numbers, §7.3), ``320`` (team
PABs with their match and game points, trf-format §7.4) and ``330`` (forfeited matches, §7.5: the
match is unplayed whatever board entries exist; the winner gets a win on every board). A member's
``0000 - +`` is a board won by default (the other team left it empty: it counts for the match and
game points); ``0000 - -`` is a member who did not play (no board). ``300`` gives a round's board
order when it differs from the team record (board numbers then follow it, empty boards included).
Without a 320 value a team PAB gets a drawn match's MP (FIDE's checker's default) and the game
scoring's PAB points on every board.

The derived matches become two crosstables of the individual engine with the teams as
participants: one scored in match points, one in game points (``D`` = a drawn match's points, so
the 16.4.2 cap is "a drawn match's MP or GP x rounds"). Every individual criterion then works on
teams unchanged - Article 16 included.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from .crosstable import (
    ABSENT,
    FORFEIT_LOSS,
    FORFEIT_WIN,
    FPB,
    GAME_KINDS,
    HPB,
    PAB,
    PLAYED,
    ZPB,
    Crosstable,
)
from .errors import EngineError
from .model import Scoring, Team, Tournament

#: match points when the file gives none (TRF 362 absent): win 2, draw 1, loss 0 (the checker's default)
DEFAULT_MATCH_SCORING = Scoring(win=Fraction(2), draw=Fraction(1), loss=Fraction(0))


@dataclass(frozen=True)
class Board:
    """One board of a team match, seen from one team."""

    board: int  # 1-based board number (the member's position among the team's boards that round)
    player: int  # start number of the team's player
    opponent: int | None  # the opposing player's start number (None: the other side's board was empty)
    opponent_points: Fraction | None  # game points the opposing player scored (None: empty board)
    code: str  # the player's TRF result code
    points: Fraction  # game points the team scored on this board
    played: bool  # played over the board (not a forfeit)
    black: bool  # the team's player had Black


@dataclass(frozen=True)
class TeamMatch:
    """One round of one team: a match (played or forfeited) or a team bye."""

    round: int  # 1-based
    team: int  # team number
    opponent: int | None  # opposing team number; None for a bye / absence
    kind: int  # crosstable kind (PLAYED, FORFEIT_WIN, FORFEIT_LOSS, PAB, FPB, HPB, ZPB, ABSENT)
    result: str  # "W", "D" or "L" from the game points; "" for a bye
    match_points: Fraction
    game_points: Fraction
    opponent_game_points: Fraction | None
    boards: tuple[Board, ...] = ()
    black: bool = False  # the team had Black on board 1

    @property
    def played(self) -> bool:
        return self.kind == PLAYED


@dataclass
class TeamEvent:
    """Every team's matches, round by round, plus the scoring used."""

    tournament: Tournament
    numbers: list[int]  # team numbers, in the order of the team records
    names: list[str]
    matches: list[list[TeamMatch]]  # per team index, per round (0 = round 1)
    boards: int  # boards per match
    k: int  # rounds computed
    match_scoring: Scoring
    game_scoring: Scoring
    pab_default: bool  # a team PAB got the default MP (no 362 P value)

    @property
    def index(self) -> dict[int, int]:
        return {n: i for i, n in enumerate(self.numbers)}

    def mp_total(self, i: int) -> Fraction:
        return sum((m.match_points for m in self.matches[i]), Fraction(0))

    def gp_total(self, i: int) -> Fraction:
        return sum((m.game_points for m in self.matches[i]), Fraction(0))

    def board_points(self, i: int) -> list[Fraction]:
        """GP scored on each board (index 0 = board 1) over the whole event (Art. 12).

        Forfeited boards count as normal wins / losses; a team bye counts its value on every
        board (a PAB: a win on every board, spec §10.5)."""
        bp = [Fraction(0)] * self.boards
        for m in self.matches[i]:
            if m.boards:
                for b in m.boards:
                    if b.board <= self.boards:
                        bp[b.board - 1] += b.points
            elif m.opponent is None and self.boards:
                # a PAB is a win on every board, whatever game points record 320 gives the match
                per_board = self.game_scoring.win if m.kind == PAB else m.game_points / self.boards
                for j in range(self.boards):
                    bp[j] += per_board
        return bp


def derive_team_event(tournament: Tournament) -> TeamEvent:
    """Build every team's matches from the board games (trf-format §7.8)."""
    if not tournament.teams:
        raise EngineError("the tournament has no teams (TRF 013/310 records)")
    ind = Crosstable(tournament)  # the individual crosstable: kinds, opponents, points per game
    k = ind.k
    team_of, order = _members(tournament, ind)
    match_scoring = tournament.match_scoring or DEFAULT_MATCH_SCORING
    game_scoring = tournament.scoring
    pab_default = match_scoring.pab is None
    numbers = {t.number for t in tournament.teams}
    pab_320, pab_mp, pab_gp = _read_320(tournament, numbers)
    forced = _read_330(tournament, numbers, k)
    byes_240 = _read_240(tournament, numbers, k)
    lineups = _read_300(tournament, numbers, k)
    if pab_mp is not None:
        pab_default = False

    # pass 1: boards of each team and round
    raw: dict[tuple[int, int], _Round] = {}
    for team in tournament.teams:
        for r in range(k):
            met, paired, bye_kinds = _pairings(tournament, ind, team, r, team_of, order)
            if (team.number, r) in byes_240:
                bye_kinds.append(byes_240[(team.number, r)])
            opponents = set(met)
            if len(opponents) > 1:
                raise EngineError(
                    f"round {r + 1}: team {team.number} has boards against several teams "
                    f"({', '.join(str(t) for t in sorted(opponents))})"
                )
            opponent = next(iter(opponents)) if opponents else None
            boards = _boards(ind, r, paired, lineups.get((team.number, r)), opponent is not None)
            raw[(team.number, r)] = (opponent, boards, bye_kinds)

    n_boards = max((len(v[1]) for v in raw.values()), default=0)
    if n_boards == 0:
        n_boards = max(len(t.members) for t in tournament.teams)

    for (number, r), (white, black, _) in forced.items():  # 330: who met whom, even without boards
        opponent = black if number == white else white
        current = raw[(number, r)]
        if current[0] is not None and current[0] != opponent:
            raise EngineError(f"record 330: round {r + 1}: team {number} has boards against team {current[0]}")
        raw[(number, r)] = (opponent, current[1], current[2])

    rules = _MatchRules(match_scoring, game_scoring, n_boards, pab_320, pab_mp, pab_gp, forced)
    matches = [[_team_match(rules, raw, team.number, r) for r in range(k)] for team in tournament.teams]
    return TeamEvent(
        tournament=tournament,
        numbers=[t.number for t in tournament.teams],
        names=[t.name for t in tournament.teams],
        matches=matches,
        boards=n_boards,
        k=k,
        match_scoring=match_scoring,
        game_scoring=game_scoring,
        pab_default=pab_default and any(m.kind == PAB for row in matches for m in row),
    )


#: a team's round before scoring: the opposing team (None: none), its boards, the kinds of its members'
#: byes and absences (and a 240 team bye)
_Round = tuple[int | None, list[Board], list[int]]
#: a member's board before numbering: (position, player, opponent or None for an empty board, result code,
#: player index, opponent index or -1, played over the board)
_Paired = tuple[int, int, int | None, str, int, int, bool]


@dataclass(frozen=True)
class _MatchRules:
    """What scores a team's round besides its boards: the scorings, the boards per match and the records
    320 (team PABs) and 330 (forfeited matches)."""

    match_scoring: Scoring
    game_scoring: Scoring
    n_boards: int
    pab_320: set[tuple[int, int]]
    pab_mp: Fraction | None
    pab_gp: Fraction | None
    forced: dict[tuple[int, int], tuple[int, int, str]]


def _members(tournament: Tournament, ind: Crosstable) -> tuple[dict[int, int], dict[int, int]]:
    """Each member's team and their position in its record (board order), every member in one team."""
    team_of: dict[int, int] = {}
    order: dict[int, int] = {}
    for team in tournament.teams:
        for pos, sn in enumerate(team.members):
            if sn not in ind.index:
                raise EngineError(f"team {team.number}: member {sn} has no player record")
            if sn in team_of:
                raise EngineError(f"player {sn} is in team {team_of[sn]} and team {team.number}")
            team_of[sn] = team.number
            order[sn] = pos
    return team_of, order


def _pairings(
    tournament: Tournament, ind: Crosstable, team: Team, r: int, team_of: dict[int, int], order: dict[int, int]
) -> tuple[list[int], list[_Paired], list[int]]:
    """A team's members in round ``r``: the team of each opponent met, the boards (games and boards won
    by default) and the kinds of the members who did not play."""
    opponents: list[int] = []
    paired: list[_Paired] = []
    bye_kinds: list[int] = []
    for sn in team.members:
        i = ind.index[sn]
        kind, o = ind.kinds[i][r], ind.opps[i][r]
        rounds = tournament.participants[i].rounds
        code = rounds[r].code if r < len(rounds) else " "
        if o >= 0:
            osn = ind.start_numbers[o]
            other = team_of.get(osn)
            if other is None:
                raise EngineError(f"round {r + 1}: player {sn} (team {team.number}) met {osn}, who is in no team")
            if other == team.number:
                raise EngineError(f"round {r + 1}: player {sn} met {osn} of the same team {team.number}")
            opponents.append(other)
            paired.append((order[sn], sn, osn, code, i, o, kind in GAME_KINDS))
        elif code == "+":  # a board won by default: the other team left it empty
            paired.append((order[sn], sn, None, code, i, -1, False))
        else:  # 0000 - - in a team file: a member who did not play (no board)
            bye_kinds.append(kind)
    return opponents, paired, bye_kinds


def _boards(ind: Crosstable, r: int, paired: list[_Paired], lineup: list[int] | None, met: bool) -> list[Board]:
    """A team's boards in round ``r``, numbered by the members' order (by the 300 record's order when
    it has one: 0000 a board left empty)."""
    boards: list[Board] = []
    if lineup is not None:  # 300: this round's board order (0000: a board left empty)
        paired = [(lineup.index(p[1]) + 1 if p[1] in lineup else len(lineup) + p[0], *p[1:]) for p in paired]
    if met or paired:
        for b, (_, sn, opp_sn, code, i, o, otb) in enumerate(sorted(paired), start=1):
            other_points = ind.frac(ind.pts[o][r]) if o >= 0 else None
            board = b if lineup is None else sorted(paired)[b - 1][0]
            boards.append(
                Board(board, sn, opp_sn, other_points, code, ind.frac(ind.pts[i][r]), otb, bool(ind.black[i][r]))
            )
    return boards


def _team_match(rules: _MatchRules, raw: dict[tuple[int, int], _Round], number: int, r: int) -> TeamMatch:
    """Team ``number``'s match (or bye) in round ``r``, scored."""
    opponent, boards, bye_kinds = raw[(number, r)]
    if opponent is None and not boards:
        return _bye_match(rules, number, r, bye_kinds)
    gp = sum((b.points for b in boards), Fraction(0))
    if opponent is None:
        other_gp = Fraction(0)  # only empty-board forfeits: nobody on the other side
    else:
        back = raw[(opponent, r)]
        if back[0] != number:
            raise EngineError(
                f"round {r + 1}: team {number} meets team {opponent}, but team {opponent}'s boards say otherwise"
            )
        other_gp = sum((b.points for b in back[1]), Fraction(0))
    if (number, r) in rules.forced:  # 330: a forfeited match, whatever the boards say
        return _forfeited_match(rules, number, r, opponent, boards, gp)
    result = _match_result(gp, other_gp)
    ms = rules.match_scoring
    if any(b.played for b in boards):
        kind = PLAYED
        mp = {"W": ms.win, "D": ms.draw, "L": ms.loss}[result]
    elif result == "W":
        kind, mp = FORFEIT_WIN, ms.win
    else:  # forfeited match not won: a VUR (16.1.2), worth A (or a draw's MP if drawn)
        kind = FORFEIT_LOSS
        mp = ms.draw if result == "D" else ms.absence
    black = boards[0].black if boards else False
    return TeamMatch(r + 1, number, opponent, kind, result, Fraction(mp), gp, other_gp, tuple(boards), black)


def _match_result(gp: Fraction, other_gp: Fraction) -> str:
    """A match's result from the game points: more wins; equal with both above 0 draws; 0-0 loses for both."""
    if gp > other_gp:
        return "W"
    if gp < other_gp:
        return "L"
    if gp > 0 and other_gp > 0:
        return "D"
    return "L"  # 0-0: a loss for both


def _forfeited_match(
    rules: _MatchRules, number: int, r: int, opponent: int | None, boards: list[Board], gp: Fraction
) -> TeamMatch:
    """A match record 330 gives as forfeited: the winner gets a win on every board (without boards)."""
    white, _, code = rules.forced[(number, r)]
    mine = code[0] if number == white else code[1]
    won = mine == "+"
    if not boards:
        gp = Fraction(rules.game_scoring.win) * rules.n_boards if won else Fraction(0)
    return TeamMatch(
        r + 1,
        number,
        opponent,
        FORFEIT_WIN if won else FORFEIT_LOSS,
        "W" if won else "L",
        Fraction(rules.match_scoring.win if won else rules.match_scoring.absence),
        gp,
        None,
        tuple(boards),
        number != white,
    )


def _bye_match(rules: _MatchRules, number: int, r: int, kinds: list[int]) -> TeamMatch:
    """A round without an opposing team: a team PAB (320, or members with U), a full-, half- or
    zero-point bye, or an absence; the bye's match points, its value on every board."""
    match_scoring, game_scoring = rules.match_scoring, rules.game_scoring
    if (number, r) in rules.pab_320 or PAB in kinds:
        kind = PAB
        mp = match_scoring.pab if match_scoring.pab is not None else match_scoring.draw
        if rules.pab_mp is not None:
            mp = rules.pab_mp
        if rules.pab_gp is not None:
            return TeamMatch(r + 1, number, None, kind, "", Fraction(mp), rules.pab_gp, None)
        per_board = game_scoring.pab_points
    elif FPB in kinds:
        kind, mp, per_board = FPB, match_scoring.win, game_scoring.win
    elif HPB in kinds:
        kind, mp, per_board = HPB, match_scoring.draw, game_scoring.draw
    elif ZPB in kinds:
        kind, mp, per_board = ZPB, Fraction(0), Fraction(0)
    else:
        kind, mp, per_board = ABSENT, Fraction(0), Fraction(0)
    return TeamMatch(r + 1, number, None, kind, "", Fraction(mp), per_board * rules.n_boards, None)


def _records(tournament: Tournament, tag: str) -> list[str]:
    return [line for line in tournament.extra_records if line[:3] == tag]


def _team_field(text: str, what: str, line: str, numbers: set[int]) -> int:
    text = text.strip()
    if not text:
        return 0
    if not text.isdigit():
        raise EngineError(f"record {line[:3]}: {what} {text!r} is not a number ({line.strip()!r})")
    value = int(text)
    if value and value not in numbers:
        raise EngineError(f"record {line[:3]}: {what} {value} does not exist ({line.strip()!r})")
    return value


def _points_field(text: str, line: str) -> Fraction | None:
    text = text.strip().replace(",", ".")
    if not text:
        return None
    try:
        return Fraction(text)
    except ValueError:
        raise EngineError(f"record 320: bad points {text!r} ({line.strip()!r})") from None


_240_KINDS = {"F": FPB, "H": HPB, "Z": ZPB, "": ZPB}


def _read_240(tournament: Tournament, numbers: set[int], k: int) -> dict[tuple[int, int], int]:
    """Record 240 of a team file (trf-format §7.3; the numbers are team numbers): full-, half- and
    zero-point byes of team matches -> {(team, round index): kind}."""
    out: dict[tuple[int, int], int] = {}
    for line in _records(tournament, "240"):
        kind = _240_KINDS.get(line[4:5].strip().upper())
        if kind is None:
            raise EngineError(f"record 240: bye type {line[4:5]!r} is not F, H or Z ({line.strip()!r})")
        rnd = _team_field(line[6:9], "round", line, set(range(1000)))  # a later round than k: not yet computed
        for pos in range(10, len(line), 5):
            team = _team_field(line[pos : pos + 4], "team", line, numbers)
            if team and rnd and rnd <= k:
                out[(team, rnd - 1)] = kind
    return out


def _read_300(tournament: Tournament, numbers: set[int], k: int) -> dict[tuple[int, int], list[int]]:
    """Record 300 (trf-format §7.6): a team's board order in one round, when it differs from the
    team record -> {(team, round index): [player on board 1, 2, ...]} (0 = a board left empty)."""
    out: dict[tuple[int, int], list[int]] = {}
    for line in _records(tournament, "300"):
        rnd = _team_field(line[4:7], "round", line, set(range(1, max(k, 1) + 1)) | set(range(k + 1, 1000)))
        team = _team_field(line[8:11], "team", line, numbers)
        if not (rnd and team):
            raise EngineError(f"record 300 needs a round and a team ({line.strip()!r})")
        players = []
        for pos in range(16, len(line), 5):
            text = line[pos : pos + 4].strip()
            if not text.isdigit():
                if text:
                    raise EngineError(f"record 300: player {text!r} is not a number ({line.strip()!r})")
                continue
            players.append(int(text))
        if rnd <= k:
            out[(team, rnd - 1)] = players
    return out


def _read_320(
    tournament: Tournament, numbers: set[int]
) -> tuple[set[tuple[int, int]], Fraction | None, Fraction | None]:
    """Record 320 (trf-format §7.4): MP and GP of a team PAB, then the PAB team of each round."""
    teams: set[tuple[int, int]] = set()
    mp = gp = None
    for line in _records(tournament, "320"):
        mp = _points_field(line[4:8], line) if line[4:8].strip() else mp
        gp = _points_field(line[9:13], line) if line[9:13].strip() else gp
        r, pos = 0, 14
        while pos < len(line):
            team = _team_field(line[pos : pos + 3], "team", line, numbers)
            if team:
                teams.add((team, r))
            r, pos = r + 1, pos + 4
    return teams, mp, gp


_330_TYPES = {"+-": "+-", "10": "+-", "WL": "+-", "WZ": "+-", "-+": "-+", "01": "-+", "LW": "-+", "ZW": "-+"}
_330_TYPES |= {"--": "--", "00": "--", "LL": "--", "ZZ": "--"}


def _read_330(tournament: Tournament, numbers: set[int], k: int) -> dict[tuple[int, int], tuple[int, int, str]]:
    """Record 330 (trf-format §7.5): forfeited matches -> {(team, round index): (white, black, type)}."""
    out: dict[tuple[int, int], tuple[int, int, str]] = {}
    for line in _records(tournament, "330"):
        code = _330_TYPES.get(line[4:6].upper())
        if code is None:
            raise EngineError(f"record 330: unknown type {line[4:6]!r} ({line.strip()!r})")
        rnd = _team_field(line[7:10], "round", line, set(range(1, 1000)))
        white = _team_field(line[11:14], "team", line, numbers)
        black = _team_field(line[15:18], "team", line, numbers)
        if not (rnd and white and black) or white == black:
            raise EngineError(f"record 330 needs a round and two different teams ({line.strip()!r})")
        if rnd > k:  # a round after the ones computed (standings after an earlier round)
            continue
        for team in (white, black):
            out[(team, rnd - 1)] = (white, black, code)
    return out


class TeamCrosstable(Crosstable):
    """The individual engine's crosstable with teams as participants, scored in MP or GP.

    ``score_name`` is ``"MP"`` (points = match points, W/D/L = the match scoring) or ``"GP"``
    (points = game points, W/D/L = the game scoring x boards: a whole match's worth).
    """

    def __init__(self, event: TeamEvent, score_name: str) -> None:
        t = event.tournament
        self.tournament = t
        self.score_name = score_name
        self.n_players = len(event.numbers)
        self.start_numbers = list(event.numbers)
        self.names = list(event.names)
        self.ratings = [None] * self.n_players
        self.round_ratings: list[tuple[int | None, ...]] = [()] * self.n_players
        self.index = {n: i for i, n in enumerate(event.numbers)}
        self.k = event.k
        self.round_robin = bool(t.round_robin)
        self.fore = False
        if score_name == "MP":
            s = event.match_scoring
            scale = 1
            values = [m.match_points for row in event.matches for m in row]
        else:
            s = event.game_scoring
            scale = event.boards
            values = [m.game_points for row in event.matches for m in row]
        base = [s.win, s.draw, s.loss, s.absence, s.pab_points, s.unknown_points]
        if score_name == "MP" and s.pab is None:
            base[4] = s.draw  # team PAB default: a drawn match's MP
        base = [Fraction(v) * scale for v in base]
        unit = 1
        for v in [*base, *values]:
            unit = lcm(unit, Fraction(v).denominator)
        self.unit = unit

        def scaled(v: Fraction) -> int:
            return int(Fraction(v) * unit)

        self.W, self.D, self.L, self.A, self.P, self.X = (scaled(v) for v in base)
        index = self.index
        kinds: list[list[int]] = []
        opps: list[list[int]] = []
        pts: list[list[int]] = []
        black: list[list[bool]] = []
        halves: list[list[int]] = []
        paired_last: list[int] = []
        for row in event.matches:
            kinds.append([m.kind for m in row])
            opps.append([index[m.opponent] if m.opponent is not None else -1 for m in row])
            pts.append([scaled(m.match_points if score_name == "MP" else m.game_points) for m in row])
            black.append([m.black for m in row])
            halves.append([{"W": 2, "D": 1}.get(m.result, 0) if m.kind == PLAYED else 0 for m in row])
            if row:
                last = row[-1]
                paired_last.append(index[last.opponent] if last.opponent is not None else -1)
            else:
                paired_last.append(-1)
        self.kinds = kinds
        self.opps = opps
        self.pts = pts
        self.black = black
        self.halves = halves
        self.paired_last = paired_last
        self.score = [sum(p) for p in pts]


__all__ = [
    "DEFAULT_MATCH_SCORING",
    "Board",
    "TeamCrosstable",
    "TeamEvent",
    "TeamMatch",
    "derive_team_event",
]
