"""The one translated registry of tie-break names: criterion code -> short and long name.

Pages never spell a criterion's name in a template: they ask :func:`criterion_name`, which knows
the FIDE 2026 codes (MTB26 notation, e.g. ``BH/C1``), the team codes and the common modified forms.
A modified code that has no entry of its own (``BH/C3``, ``KS/L+1``...) gets a long name built
from a whole translated pattern with named placeholders.

>>> criterion_name("BH/C1").long   # doctest: +SKIP
'Buchholz Cut-1'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


@dataclass(frozen=True)
class CriterionName:
    code: str
    short: str
    long: str
    article: str = ""  # FIDE C.07 Article (empty for criteria of other rule books)
    rule: str = ""  # US Chess rule 34 paragraph, e.g. "34E1" (empty for FIDE criteria)

    @property
    def reference(self) -> str:
        """Where the criterion is defined, as a reader would cite it."""
        if self.rule:
            return _("US Chess rule %(rule)s") % {"rule": self.rule}
        if self.article:
            return _("FIDE C.07 Article %(article)s") % {"article": self.article}
        return ""


# code -> (short name, long name, FIDE C.07 Article)
_NAMES = {
    "PTS": (pgettext_lazy("tiebreak short name", "Pts"), _("Points"), "4.2"),
    "DE": (pgettext_lazy("tiebreak short name", "DE"), _("Direct encounter"), "6"),
    "DE/P": (pgettext_lazy("tiebreak short name", "DE/P"), _("Direct encounter, forfeits counted"), "6"),
    "WIN": (pgettext_lazy("tiebreak short name", "WIN"), _("Number of wins"), "7.1"),
    "WON": (pgettext_lazy("tiebreak short name", "WON"), _("Games won over the board"), "7.2"),
    "BPG": (pgettext_lazy("tiebreak short name", "BPG"), _("Games played with Black"), "7.3"),
    "BWG": (pgettext_lazy("tiebreak short name", "BWG"), _("Games won with Black"), "7.4"),
    "PS": (pgettext_lazy("tiebreak short name", "PS"), _("Progressive score"), "7.5"),
    "PS/C1": (pgettext_lazy("tiebreak short name", "PS-C1"), _("Progressive score Cut-1"), "7.5"),
    "REP": (pgettext_lazy("tiebreak short name", "REP"), _("Rounds elected to play"), "7.6"),
    "STD": (pgettext_lazy("tiebreak short name", "STD"), _("Standard points"), "7.7"),
    "TPN": (pgettext_lazy("tiebreak short name", "TPN"), _("Tournament pairing number"), "7.8"),
    "BH": (pgettext_lazy("tiebreak short name", "BH"), _("Buchholz"), "8.1"),
    "BH/C1": (pgettext_lazy("tiebreak short name", "BH-C1"), _("Buchholz Cut-1"), "8.1"),
    "BH/C2": (pgettext_lazy("tiebreak short name", "BH-C2"), _("Buchholz Cut-2"), "8.1"),
    "BH/M1": (pgettext_lazy("tiebreak short name", "BH-M1"), _("Buchholz Median-1"), "8.1"),
    "BH/M2": (pgettext_lazy("tiebreak short name", "BH-M2"), _("Buchholz Median-2"), "8.1"),
    "AOB": (pgettext_lazy("tiebreak short name", "AOB"), _("Average of opponents' Buchholz"), "8.2"),
    "FB": (pgettext_lazy("tiebreak short name", "FB"), _("Fore Buchholz"), "8.3"),
    "SB": (pgettext_lazy("tiebreak short name", "SB"), _("Sonneborn-Berger"), "9.1"),
    "SB/C1": (pgettext_lazy("tiebreak short name", "SB-C1"), _("Sonneborn-Berger Cut-1"), "9.1"),
    "KS": (pgettext_lazy("tiebreak short name", "KS"), _("Koya system"), "9.2"),
    "ARO": (pgettext_lazy("tiebreak short name", "ARO"), _("Average rating of opponents"), "10.1"),
    "ARO/C1": (pgettext_lazy("tiebreak short name", "ARO-C1"), _("Average rating of opponents Cut-1"), "10.1"),
    "TPR": (pgettext_lazy("tiebreak short name", "TPR"), _("Tournament performance rating"), "10.2"),
    "PTP": (pgettext_lazy("tiebreak short name", "PTP"), _("Perfect tournament performance"), "10.3"),
    "APRO": (pgettext_lazy("tiebreak short name", "APRO"), _("Average performance rating of opponents"), "10.4"),
    "APPO": (pgettext_lazy("tiebreak short name", "APPO"), _("Average perfect performance of opponents"), "10.5"),
    "RTNG": (pgettext_lazy("tiebreak short name", "RTNG"), _("Rating"), "10.6"),
    "LOT": (pgettext_lazy("tiebreak short name", "Lot"), _("Drawing of lots"), "4.2"),
    "PO": (pgettext_lazy("tiebreak short name", "Play-off"), _("Play-off"), "2.1"),
    "MAN": (pgettext_lazy("tiebreak short name", "Decision"), _("Decision among players still tied"), "4.2"),
    # team events (Articles 11-13)
    "MPTS": (pgettext_lazy("tiebreak short name", "MP"), _("Match points"), "11"),
    "GPTS": (pgettext_lazy("tiebreak short name", "GP"), _("Game points"), "11"),
    "MPVGP": (pgettext_lazy("tiebreak short name", "MPvGP"), _("Secondary score"), "13.1"),
    "EMMSB": (pgettext_lazy("tiebreak short name", "EMMSB"), _("Extended Sonneborn-Berger (match points)"), "13.2"),
    "EMGSB": (
        pgettext_lazy("tiebreak short name", "EMGSB"),
        _("Extended Sonneborn-Berger (opponents' match points, own game points)"),
        "13.2",
    ),
    "EGMSB": (
        pgettext_lazy("tiebreak short name", "EGMSB"),
        _("Extended Sonneborn-Berger (opponents' game points, own match points)"),
        "13.2",
    ),
    "EGGSB": (pgettext_lazy("tiebreak short name", "EGGSB"), _("Extended Sonneborn-Berger (game points)"), "13.2"),
    "EDE": (pgettext_lazy("tiebreak short name", "EDE"), _("Extended direct encounter"), "13.3"),
    "BC": (pgettext_lazy("tiebreak short name", "BC"), _("Board count"), "12.1"),
    "TBR": (pgettext_lazy("tiebreak short name", "TBR"), _("Top board results"), "12.2"),
    "BBE": (pgettext_lazy("tiebreak short name", "BBE"), _("Bottom board elimination"), "12.3"),
    "SSSC": (pgettext_lazy("tiebreak short name", "SSSC"), _("Scores and schedule strength combination"), "13.4"),
}

# US Chess rule 34E (rule sets us-chess and us-chess-cum-full-point): code -> (short, long, rule)
_US_NAMES = {
    "MM": (pgettext_lazy("tiebreak short name", "MM"), _("Modified Median"), "34E1"),
    "SOLK": (pgettext_lazy("tiebreak short name", "Solk"), _("Solkoff"), "34E2"),
    "CUM": (pgettext_lazy("tiebreak short name", "Cum"), _("Cumulative"), "34E3"),
    "MED": (pgettext_lazy("tiebreak short name", "Med"), _("Median (Harkness)"), "34E4"),
    "H2H": (pgettext_lazy("tiebreak short name", "H2H"), _("Result between tied players"), "34E5"),
    "BLK": (pgettext_lazy("tiebreak short name", "Blk"), _("Most games with Black"), "34E6"),
    "KASH": (pgettext_lazy("tiebreak short name", "Kash"), _("Kashdan"), "34E7"),
    "OPPCUM": (pgettext_lazy("tiebreak short name", "OppCum"), _("Cumulative of opposition"), "34E9"),
}

_MODIFIED = re.compile(r"^(?P<name>[A-Z]+)/(?P<letter>[CM])(?P<count>\d+)$")
_SEEDED_LOTS = re.compile(r"^LOT/S(?P<seed>\d+)$")


def _pattern_long(code: str) -> str | None:
    match = _MODIFIED.match(code)
    if not match or match["name"] not in _NAMES:
        return None
    base = _NAMES[match["name"]][1]
    if match["letter"] == "C":
        return _("%(name)s Cut-%(count)s") % {"name": base, "count": match["count"]}
    return _("%(name)s Median-%(count)s") % {"name": base, "count": match["count"]}


def criterion_name(code: str) -> CriterionName:
    """The short and long translated name of a criterion code (unknown codes keep their code)."""
    code = code.strip()
    key = code.upper()
    if key in _US_NAMES:
        short, long, rule = _US_NAMES[key]
        return CriterionName(code, str(short), str(long), "", rule)
    if key in _NAMES:
        short, long, article = _NAMES[key]
        return CriterionName(code, str(short), str(long), article)
    base = key.split("/", 1)[0]
    seeded = _SEEDED_LOTS.match(key)
    if seeded:  # the seed is part of what readers must see: it lets them repeat the drawing
        short, _long, article = _NAMES["LOT"]
        return CriterionName(code, str(short), _("Drawing of lots, seed %(seed)s") % {"seed": seeded["seed"]}, article)
    long_name = _pattern_long(key)
    if long_name is not None:
        return CriterionName(code, code.replace("/", "-"), long_name, _NAMES[base][2])
    if base in _NAMES:
        short, long, article = _NAMES[base]
        modifiers = code.split("/", 1)[1]
        return CriterionName(
            code,
            code.replace("/", "-"),
            _("%(name)s (modifiers %(modifiers)s)") % {"name": long, "modifiers": modifiers},
            article,
        )
    return CriterionName(code, code, code)


def names_for(codes: Iterable[str]) -> dict[str, CriterionName]:
    """Names for templates, keyed by code with "/" as "_" (``names.BH_C1.long``)."""
    return {code.replace("/", "_"): criterion_name(code) for code in codes}


def every_criterion_name() -> dict[str, CriterionName]:
    """Every criterion named here, for the guides' templates (``names.BH_C1.long``): a criterion given its names
    above is at once in every template."""
    return names_for([*_NAMES, *_US_NAMES])


def rule_set_name(name: str) -> str:
    """A rule set's name as readers know it."""
    return str(RULE_SET_NAMES.get(name, name))


#: every rule set of the engine (tiebreaks.engine.RULE_SETS) and its other spellings
RULE_SET_NAMES = {
    "fide-2026": _("FIDE 2026 (C.07, from 1 March 2026)"),
    "fide-2023": _("FIDE 2023 (C.07, September 2023 to February 2026)"),
    "fide-2024": _("FIDE 2023 (C.07, September 2023 to February 2026)"),
    "us-chess": _("US Chess rule 34"),
    "uschess": _("US Chess rule 34"),
    "us-chess-cum-full-point": _("US Chess rule 34, Cumulative reduced only for unplayed wins and one-point byes"),
    "chess-caddy": _("Chess Caddy app (Buchholz, Sonneborn-Berger, cumulative; not FIDE rules)"),
    "chesscaddy": _("Chess Caddy app (Buchholz, Sonneborn-Berger, cumulative; not FIDE rules)"),
}
