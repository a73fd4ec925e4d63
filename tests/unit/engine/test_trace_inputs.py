"""A worker builds again only the traces whose inputs changed (issue #37): after one result, the participants whose
TraceInputs are unchanged have exactly the traces they had before, for every golden tournament (byes, forfeits,
withdrawals, round robins), under every rule set, whatever the result became (a game, a forfeit, a bye of another
kind); a criterion that reads more than a participant's and their opponents' rounds builds everybody again."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from tests.golden._trf_min import parse_trf
from tiebreaks.engine import compute_standings
from tiebreaks.engine.criteria import parse_criterion
from tiebreaks.engine.model import RoundEntry, Tournament
from tiebreaks.engine.rules import RULE_SETS

from .test_compact_explanations import CASES, FILES  # every golden tournament under FIDE 2026, a third under the rest

LOCAL = ["BH/C1", "BH", "SB", "PS", "WIN", "FB", "BH/P", "SB/P", "BH/M2", "FB/C1", "BPG", "BWG", "WON", "REP", "STD"]
GAMES = [("1", "0"), ("=", "="), ("0", "1"), ("+", "-"), ("-", "+"), ("-", "-")]
BYES = ["H", "Z", "U", "F"]


def _one_result_changed(tournament: Tournament, rng: random.Random) -> tuple[Tournament, set[int]]:
    """The tournament with one result of one round changed (both sides of a game), and who played it."""
    people = {p.start_number: p for p in tournament.participants}
    player = rng.choice([p for p in tournament.participants if p.rounds])
    r = rng.randrange(len(player.rounds))
    entry = player.rounds[r]
    changed = {player.start_number: entry}
    if entry.opponent and entry.opponent in people and len(people[entry.opponent].rounds) > r:
        mine, theirs = rng.choice([g for g in GAMES if g[0] != entry.code])
        changed[player.start_number] = replace(entry, code=mine)
        other = people[entry.opponent].rounds[r]
        changed[entry.opponent] = replace(other, code=theirs)
    else:
        changed[player.start_number] = RoundEntry(code=rng.choice([b for b in BYES if b != entry.code]))
    participants = [
        replace(p, rounds=tuple(changed[p.start_number] if j == r else e for j, e in enumerate(p.rounds)))
        if p.start_number in changed
        else p
        for p in tournament.participants
    ]
    return replace(tournament, participants=participants), set(changed)


@pytest.mark.parametrize(("path", "rules"), CASES, ids=lambda case: getattr(case, "stem", case))
def test_traces_with_unchanged_inputs_are_the_traces_before(path: Path, rules: str) -> None:
    data = json.loads(path.read_text())
    tournament = parse_trf(data["trf"], round_robin=data["mode"] == "round_robin")
    rule_set = RULE_SETS[rules]
    codes = [c for c in LOCAL if rule_set.refusal(parse_criterion(c)) is None]
    options = {"rules": rules, "unrated_rating": data["checker"]["unrated_rating"]}
    options["allow_buchholz_in_round_robin"] = True
    before = compute_standings(tournament, codes, **options)
    traces_before = dict(before.compact_explanations())
    rng = random.Random(path.stem + rules)
    for _ in range(4):
        changed, players = _one_result_changed(tournament, rng)
        after = compute_standings(changed, codes, **options)
        inputs = after.trace_inputs()
        if inputs is None:  # SB in the US form reads every round as a draw for the unplayed: not first-order
            assert "SB" in codes and rule_set.opponent_unplayed.name == "ALL_AS_DRAWS"
            return
        unchanged = inputs.unchanged(before.trace_inputs())
        assert not {str(n) for n in players} & unchanged
        # a result leaves the traces of all but its players and those who met them as they were
        apart = {
            str(p.start_number)
            for p in changed.participants
            if p.start_number not in players and not any(e.opponent in players for e in p.rounds)
        }
        assert apart <= unchanged
        traces_after = dict(after.compact_explanations())
        for number in unchanged:
            assert traces_after[number] == traces_before[number], number
        # the unchanged are told apart from the rest: given None, and only they
        assert {n for n, t in after.compact_explanations(unchanged) if t is None} == unchanged


def test_a_criterion_reading_ratings_or_ranks_builds_everybody_again() -> None:
    data = next(d for d in map(json.loads, map(Path.read_text, FILES)) if d["mode"] != "round_robin")
    tournament = parse_trf(data["trf"], round_robin=data["mode"] == "round_robin")
    for extra in ("ARO", "DE", "AOB", "TPR"):
        standings = compute_standings(tournament, ["BH", "SB", extra], unrated_rating=data["checker"]["unrated_rating"])
        assert standings.trace_inputs() is None, extra
    assert compute_standings(tournament, ["BH", "SB"]).trace_inputs() is not None
