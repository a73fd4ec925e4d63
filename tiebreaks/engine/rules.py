"""Named rule sets as data (spec §12.1, Art. 16.6).

A rule set says how unplayed rounds enter the tie-breaks (Articles 15-16 and their older or
national counterparts) and which criteria exist. The criterion functions read these fields; they
never test a rule set's *name*. Adding ``fide-2023``, ``us-chess`` or ``chess-caddy`` later means
adding a :class:`RuleSet` value (plus, for US criteria, a few criterion functions).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .criteria import known_names


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
    * ``criteria``: the criterion names this rule set offers.
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


FIDE_2026 = RuleSet(
    name="fide-2026",
    edition="FIDE C.07, applied from 1 March 2026",
    own_unplayed=OwnUnplayed.DUMMY,
    opponent_unplayed=OpponentUnplayed.ARTICLE_16_3,
    dummy_forfeit_cap=True,
    dummy_bye_cap=True,
    cut_vur_first=True,
    buchholz_in_round_robin=False,
    criteria=known_names(),
)

#: rule sets by name; only fide-2026 is complete so far
RULE_SETS: dict[str, RuleSet] = {FIDE_2026.name: FIDE_2026}

#: spec §13: recommended order by event type (PTS first, as in TRF record 212)
_RECOMMENDED: dict[str, tuple[str, ...]] = {
    "swiss": ("PTS", "BH/C1", "BH", "SB"),
    "swiss_short": ("PTS", "PS", "BH"),
    "swiss_weekend": ("PTS", "BH/C1", "BH/C2", "SB"),
    "round_robin": ("PTS", "SB", "DE", "KS"),
    "team_swiss": ("MPTS", "GPTS"),
    "team_round_robin": ("MPTS", "GPTS"),
}


def recommended_criteria(event_type: str, rounds: int | None = None) -> list[str]:
    """Spec §13 recommended tie-break list (MTB26 codes, PTS first) for an event type.

    ``event_type``: ``swiss``, ``round_robin``, ``team_swiss`` or ``team_round_robin``. For a
    Swiss, ``rounds`` picks the row: 3-4 rounds ``PS, BH``; 5-7 ``BH/C1, BH, SB``; 8 or more
    ``BH/C1, BH/C2, SB``; unknown ``BH/C1, BH, SB``.
    """
    if event_type == "swiss" and rounds is not None:
        if rounds <= 4:
            return list(_RECOMMENDED["swiss_short"])
        if rounds >= 8:
            return list(_RECOMMENDED["swiss_weekend"])
    try:
        return list(_RECOMMENDED[event_type])
    except KeyError:
        from .errors import EngineError

        raise EngineError(
            f"unknown event type {event_type!r} (expected swiss, round_robin, team_swiss, team_round_robin)"
        ) from None


def get_rule_set(name: str) -> RuleSet:
    try:
        return RULE_SETS[name]
    except KeyError:
        from .errors import EngineError

        raise EngineError(f"unknown rule set {name!r} (known: {', '.join(sorted(RULE_SETS))})") from None
