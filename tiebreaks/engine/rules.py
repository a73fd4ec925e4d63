"""Named rule sets as data (spec §12.1, Art. 16.6).

A rule set says how unplayed rounds enter the tie-breaks (Articles 15-16 and their older or
national counterparts) and which criteria exist. The criterion functions read these fields; they
never test a rule set's *name*. Adding ``fide-2023``, ``us-chess`` or ``chess-caddy`` later means
adding a :class:`RuleSet` value (plus, for US criteria, a few criterion functions).

Rule sets (spec §12.1):

* ``fide-2026`` - C.07 applied from 1 March 2026 (the default);
* ``fide-2023`` - C.07 of 1 Sep 2023 to 28 Feb 2026 (also the Apr/Aug 2024 texts): dummy
  opponents without the 2026 caps, no STD/TPN/RTNG (new in 2026);
* ``us-chess`` - US Chess rule 34 (spec §11): opponents' unplayed rounds count ½, own unplayed
  rounds are opponents with adjusted score 0, plain numerical cuts, the US systems ``MM``,
  ``SOLK``, ``MED``, ``CUM``, ``OPPCUM``, ``KASH``, ``SB``, ``BLK``, ``H2H`` (module
  :mod:`.uschess`); ``us-chess-cum-full-point`` is the same with 34E3 Cumulative subtracting
  only unplayed wins and one-point byes (not half-point byes);
* ``chess-caddy`` - the Chess Caddy app: Buchholz, Sonneborn-Berger and cumulative (PS) only,
  forfeited and bye rounds contribute nothing, opponents' raw scores, no cuts.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from .criteria import FIDE_NAMES

if TYPE_CHECKING:
    from .criteria import Criterion


class OwnUnplayed(StrEnum):
    """What a participant's own unplayed round contributes to their own BH/SB."""

    DUMMY = "dummy"  # FIDE 16.4: a dummy opponent with the participant's own score (maybe capped)
    ZERO = "zero"  # US Chess 34: an opponent with adjusted score 0
    OMIT = "omit"  # Chess Caddy: no element at all


class OpponentUnplayed(StrEnum):
    """How an opponent's unplayed rounds enter the score others see (adjusted score)."""

    ARTICLE_16_3 = "article_16_3"  # FIDE 16.3: requested byes followed only by VURs count as draws
    ALL_AS_DRAWS = "all_as_draws"  # US Chess 34: every unplayed round counts as a draw
    RAW = "raw"  # the final score as it is


@dataclass(frozen=True)
class RuleSet:
    """One named set of tie-break rules.

    * ``dummy_forfeit_cap``: 16.4.1 (2026) - a forfeit dummy's score is at most the scheduled
      opponent's adjusted score;
    * ``dummy_bye_cap``: 16.4.2 (2026) - a bye/absence dummy's score is at most ``D x n``;
    * ``cut_vur_first``: 16.5 - cuts remove the lowest voluntary unplayed round first;
    * ``buchholz_in_round_robin``: False = refuse BH/AOB/FB for pre-determined pairings (note
      to Art. 8);
    * ``criteria``: the criterion names this rule set offers;
    * ``modifiers``: the modifier letters (``C``, ``M``, ``P``, ``L``, ``F``, ``R``, ``U``)
      its criteria accept; None = whatever the criterion accepts (spec §5.1);
    * ``recommended``: the published default order by event type (``swiss``, ``round_robin``),
      PTS first; None = spec §13, filtered to what the rule set offers (:func:`recommended_criteria`);
    * ``cumulative_half_point_reduction``: US 34E3 Cumulative also subtracts ``D`` for each
      half-point bye (unplayed draw), not only ``W`` for each unplayed win or one-point bye.
    """

    name: str
    edition: str
    own_unplayed: OwnUnplayed
    opponent_unplayed: OpponentUnplayed
    dummy_forfeit_cap: bool
    dummy_bye_cap: bool
    cut_vur_first: bool
    buchholz_in_round_robin: bool
    criteria: frozenset[str]
    #: "n" of 16.4.2 and "last round" of 16.2.5 for provisional standings: rounds computed (k)
    cap_rounds_is_rounds_computed: bool = True
    modifiers: frozenset[str] | None = None
    recommended: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    cumulative_half_point_reduction: bool = True

    def refusal(self, crit: Criterion) -> str | None:
        """Why ``crit`` is not available under this rule set (one line), or None if it is."""
        if crit.name not in self.criteria:
            offered = ", ".join(sorted(self.criteria))
            return f"criterion {crit.code} is not part of the rule set {self.name} (it offers {offered})"
        if self.modifiers is not None:
            used = _modifier_letters(crit) - self.modifiers
            if used:
                letters = ", ".join(f"/{m}" for m in sorted(used))
                return f"criterion {crit.code}: the rule set {self.name} offers no {letters} modifier"
        return None


FIDE_2026 = RuleSet(
    name="fide-2026",
    edition="FIDE C.07, applied from 1 March 2026",
    own_unplayed=OwnUnplayed.DUMMY,
    opponent_unplayed=OpponentUnplayed.ARTICLE_16_3,
    dummy_forfeit_cap=True,
    dummy_bye_cap=True,
    cut_vur_first=True,
    buchholz_in_round_robin=False,
    criteria=FIDE_NAMES,
)

#: FIDE C.07 of 1 Sep 2023 (also the Apr/Aug 2024 texts), applied until 28 Feb 2026: dummies
#: are the own final score without the 2026 caps; STD, TPN and RTNG did not exist (spec §12.1)
FIDE_2023 = RuleSet(
    name="fide-2023",
    edition="FIDE C.07, applied from 1 September 2023 to 28 February 2026",
    own_unplayed=OwnUnplayed.DUMMY,
    opponent_unplayed=OpponentUnplayed.ARTICLE_16_3,
    dummy_forfeit_cap=False,
    dummy_bye_cap=False,
    cut_vur_first=True,
    buchholz_in_round_robin=True,  # the ban on BH/AOB/FB in round robins is the 2026 note to Art. 8
    criteria=FIDE_NAMES - {"STD", "TPN", "RTNG"},
)

#: the US Chess systems of rule 34E offered by the engine (34E10, 34E11 lack a text; 34E12/13
#: are play-offs and coin flips, outside the engine)
US_CHESS_CRITERIA = frozenset({"MM", "SOLK", "MED", "CUM", "OPPCUM", "KASH", "SB", "BLK", "H2H"})

#: US Chess Official Rules, 7th ed., rule 34 (spec §11)
US_CHESS = RuleSet(
    name="us-chess",
    edition="US Chess Official Rules of Chess, 7th edition, rule 34",
    own_unplayed=OwnUnplayed.ZERO,
    opponent_unplayed=OpponentUnplayed.ALL_AS_DRAWS,
    dummy_forfeit_cap=False,
    dummy_bye_cap=False,
    cut_vur_first=False,
    buchholz_in_round_robin=False,
    criteria=US_CHESS_CRITERIA,
    modifiers=frozenset(),  # every US system has a fixed definition
    recommended=(("swiss", ("PTS", "MM", "SOLK", "CUM", "OPPCUM")),),  # 34: the default order
)

#: the same, with 34E3 Cumulative reduced only for unplayed wins and one-point byes
US_CHESS_CUM_FULL_POINT = dataclasses.replace(
    US_CHESS,
    name="us-chess-cum-full-point",
    edition="US Chess rule 34; Cumulative (34E3) reduced only for unplayed wins and one-point byes",
    cumulative_half_point_reduction=False,
)

#: the Chess Caddy app: BH, SB and cumulative (PS) only; a forfeited or bye round contributes
#: nothing (no dummy, no element); opponents count with their raw final score; no cuts
CHESS_CADDY = RuleSet(
    name="chess-caddy",
    edition="Chess Caddy app (not FIDE-endorsed): Buchholz, Sonneborn-Berger, cumulative",
    own_unplayed=OwnUnplayed.OMIT,
    opponent_unplayed=OpponentUnplayed.RAW,
    dummy_forfeit_cap=False,
    dummy_bye_cap=False,
    cut_vur_first=False,
    buchholz_in_round_robin=False,
    criteria=frozenset({"BH", "SB", "PS"}),
    modifiers=frozenset(),
)

#: rule sets by name
RULE_SETS: dict[str, RuleSet] = {
    rule_set.name: rule_set for rule_set in (FIDE_2026, FIDE_2023, US_CHESS, US_CHESS_CUM_FULL_POINT, CHESS_CADDY)
}

#: C.07 (2026) applies to events that start on or after this date; earlier ones: FIDE_2023 (spec §12.1,
#: as FIDE's checker chooses its rules edition from record 042)
FIDE_2026_FROM = "2026-03-01"
#: the FIDE editions an event can be played under, newest first
FIDE_EDITIONS = (FIDE_2026.name, FIDE_2023.name)


def fide_edition_for(start_date: str) -> str:
    """The FIDE rule set in force on an event's start date (ISO ``YYYY-MM-DD``)."""
    return FIDE_2026.name if start_date >= FIDE_2026_FROM else FIDE_2023.name


#: other spellings: the spec writes ``uschess`` and ``chesscaddy``; the 2024 texts are fide-2023
RULE_SET_ALIASES = {"uschess": "us-chess", "chesscaddy": "chess-caddy", "fide-2024": "fide-2023"}


def _modifier_letters(crit: Criterion) -> frozenset[str]:
    used = set()
    if crit.cut:
        used.add("C")
    if crit.median:
        used.add("M")
    if crit.limit_half_points:
        used.add("L")
    if crit.forfeits_as_games:
        used.add("P")
    if crit.fore:
        used.add("F")
    if crit.reverse:
        used.add("R")
    if crit.unrated_rating is not None:
        used.add("U")
    return frozenset(used)


def check_criterion(rule_set: RuleSet, crit: Criterion) -> None:
    """Raise :class:`CriterionNotAllowed` (one line) if ``rule_set`` does not offer ``crit``:
    a name it does not list (STD under fide-2023, BH under us-chess) or a modifier it does not
    offer (BH/C1 under chess-caddy, SB/C1 under us-chess)."""
    reason = rule_set.refusal(crit)
    if reason is not None:
        from .errors import CriterionNotAllowed

        raise CriterionNotAllowed(reason)


#: spec §13: recommended order by event type (PTS first, as in TRF record 212)
_RECOMMENDED: dict[str, tuple[str, ...]] = {
    "swiss": ("PTS", "BH/C1", "BH", "SB"),
    "swiss_short": ("PTS", "PS", "BH"),
    "swiss_weekend": ("PTS", "BH/C1", "BH/C2", "SB"),
    "round_robin": ("PTS", "SB", "DE", "KS"),
    "team_swiss": ("MPTS", "GPTS"),
    "team_round_robin": ("MPTS", "GPTS"),
}


def recommended_criteria(event_type: str, rounds: int | None = None, rules: str = "fide-2026") -> list[str]:
    """Recommended tie-break list (PTS first) for an event type under a rule set.

    ``event_type``: ``swiss``, ``round_robin``, ``team_swiss`` or ``team_round_robin``. A rule
    set that publishes a default order gives it (US Chess rule 34, Swiss:
    ``MM, SOLK, CUM, OPPCUM``). Otherwise spec §13: for a Swiss, ``rounds`` picks the row: 3-4
    rounds ``PS, BH``; 5-7 ``BH/C1, BH, SB``; 8 or more ``BH/C1, BH/C2, SB``; unknown
    ``BH/C1, BH, SB`` - keeping only what the rule set offers (chess-caddy: no cuts).
    """
    from .errors import EngineError

    rule_set = get_rule_set(rules)
    if rule_set.recommended is not None:
        published = dict(rule_set.recommended)
        if event_type in published:
            return list(published[event_type])
        raise EngineError(
            f"the rule set {rule_set.name} publishes no default order for {event_type!r} events; name the criteria"
        )
    key = event_type
    if event_type == "swiss" and rounds is not None:
        if rounds <= 4:
            key = "swiss_short"
        elif rounds >= 8:
            key = "swiss_weekend"
    try:
        codes = _RECOMMENDED[key]
    except KeyError:
        raise EngineError(
            f"unknown event type {event_type!r} (expected swiss, round_robin, team_swiss, team_round_robin)"
        ) from None
    if rule_set is FIDE_2026 or event_type.startswith("team_"):
        return list(codes)
    from .criteria import parse_criterion

    return [c for c in codes if c == "PTS" or rule_set.refusal(parse_criterion(c)) is None]


def get_rule_set(name: str) -> RuleSet:
    """The rule set called ``name`` (or one of its :data:`RULE_SET_ALIASES`)."""
    try:
        return RULE_SETS[RULE_SET_ALIASES.get(name, name)]
    except KeyError:
        from .errors import EngineError

        raise EngineError(f"unknown rule set {name!r} (known: {', '.join(sorted(RULE_SETS))})") from None
