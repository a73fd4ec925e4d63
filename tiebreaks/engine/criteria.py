"""Tie-break descriptors in FIDE's MTB26 notation: parsing and normalisation (spec §5).

A descriptor is ``NAME[/MOD]...``, case-insensitive: ``BH/C1``, ``BH/M2``, ``SB/C1``, ``PS/C1``,
``KS/L-1``, ``BH/P``, ``DE/P``, ``AOB/F``, ``TPN/R``, ``RTNG/R``, ``ARO/U1400``. The FIDE
checker also accepts ``!`` and ``#`` as separators; so do we. ``BH/F`` is Fore Buchholz (``FB``).
``LOT/S<seed>`` is the drawing of lots the list ends with (C.07 Article 4.2), repeatable from its published seed.

>>> parse_criterion("bh/c1").code
'BH/C1'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from .errors import UnknownCriterion

# name -> (modifiers allowed, higher is better, Article)
_CATALOGUE: dict[str, tuple[frozenset[str], bool, str]] = {
    "PTS": (frozenset(), True, "4.2"),
    "DE": (frozenset({"P"}), False, "6"),
    "WIN": (frozenset(), True, "7.1"),
    "WON": (frozenset(), True, "7.2"),
    "BPG": (frozenset(), True, "7.3"),
    "BWG": (frozenset(), True, "7.4"),
    "PS": (frozenset({"C"}), True, "7.5"),
    "REP": (frozenset(), True, "7.6"),
    "STD": (frozenset(), True, "7.7"),
    "TPN": (frozenset({"R"}), False, "7.8"),
    "BH": (frozenset({"C", "M", "P"}), True, "8.1"),
    "AOB": (frozenset({"F"}), True, "8.2"),
    "FB": (frozenset({"C", "M", "P"}), True, "8.3"),
    "SB": (frozenset({"C", "P"}), True, "9.1"),
    "KS": (frozenset({"L"}), True, "9.2"),
    "ARO": (frozenset({"C", "M", "U"}), True, "10.1"),
    "TPR": (frozenset({"U"}), True, "10.2"),
    "PTP": (frozenset({"U"}), True, "10.3"),
    "APRO": (frozenset({"U"}), True, "10.4"),
    "APPO": (frozenset({"U"}), True, "10.5"),
    "RTNG": (frozenset({"R", "U"}), True, "10.6"),
    "LOT": (frozenset({"S"}), False, "4.2"),
    # decisions, not computed criteria (decisions.py): a play-off before the tie-breaks, a manual order last
    "PO": (frozenset(), True, "2.1"),
    "MAN": (frozenset(), False, "4.2"),
}
#: the names of FIDE C.07 (2026); the rest of the catalogue is US Chess rule 34E
FIDE_NAMES = frozenset(_CATALOGUE)
_CATALOGUE.update(
    {
        "MM": (frozenset(), True, "34E1"),
        "SOLK": (frozenset(), True, "34E2"),
        "CUM": (frozenset(), True, "34E3"),
        "MED": (frozenset(), True, "34E4"),
        "H2H": (frozenset(), True, "34E5"),
        "BLK": (frozenset(), True, "34E6"),
        "KASH": (frozenset(), True, "34E7"),
        "OPPCUM": (frozenset(), True, "34E9"),
    }
)

_ALIASES = {"GE": "REP", "SNO": "TPN", "PTN": "TPN", "BUCHHOLZ": "BH", "SONNEBORN-BERGER": "SB"}

#: team criteria (Articles 11-13): known names, computed by the team engine (not individual events)
TEAM_CRITERIA = frozenset(
    {
        "MPTS",
        "GPTS",
        "MPVGP",
        "EMMSB",
        "EMGSB",
        "EGMSB",
        "EGGSB",
        "ESB",
        "EDE",
        "EDEBT",
        "EDEBB",
        "EDET",
        "EDEB",
        "BC",
        "TBR",
        "BBE",
        "SSSC",
    }
)

RATING_CRITERIA = frozenset({"ARO", "TPR", "PTP", "APRO", "APPO", "RTNG"})
BUCHHOLZ_FAMILY = frozenset({"BH", "AOB", "FB"})

_MOD_RE = re.compile(r"^(?:(C|M)(\d+)|L([+-]?)(\d+)|U(\d+)|(P|F|R)|S(\d{1,9}))$")


@dataclass(frozen=True)
class Criterion:
    """A parsed tie-break descriptor.

    ``cut`` / ``median``: how many least / least-and-most significant values to remove;
    ``limit_half_points``: Koya limit offset in half points; ``forfeits_as_games``: ``/P``;
    ``fore``: ``/F`` (AOB of Fore Buchholz); ``reverse``: ``/R``; ``unrated_rating``: ``/U<r>``;
    ``seed``: ``/S<seed>`` of the drawing of lots.
    """

    name: str
    cut: int = 0
    median: int = 0
    limit_half_points: int = 0
    forfeits_as_games: bool = False
    fore: bool = False
    reverse: bool = False
    unrated_rating: int | None = None
    limit_unsigned: bool = False
    seed: int | None = None

    @cached_property
    def code(self) -> str:
        """The canonical descriptor (signed Koya limit, modifiers in a fixed order)."""
        parts = [self.name]
        if self.cut:
            parts.append(f"C{self.cut}")
        if self.median:
            parts.append(f"M{self.median}")
        if self.name == "KS" and self.limit_half_points:
            parts.append(f"L{self.limit_half_points:+d}")
        if self.forfeits_as_games:
            parts.append("P")
        if self.fore:
            parts.append("F")
        if self.reverse:
            parts.append("R")
        if self.unrated_rating is not None:
            parts.append(f"U{self.unrated_rating}")
        if self.seed is not None:
            parts.append(f"S{self.seed}")
        return "/".join(parts)

    @property
    def higher_is_better(self) -> bool:
        base = _CATALOGUE[self.name][1]
        return (not base) if self.reverse else base

    @property
    def article(self) -> str:
        return _CATALOGUE[self.name][2]

    def __str__(self) -> str:
        return self.code


def parse_criterion(code: str) -> Criterion:
    """Parse one MTB26 descriptor; raise UnknownCriterion with a one-line message if invalid."""
    name, mods = _criterion_name(code)
    allowed = _CATALOGUE[name][0]
    fields: dict[str, object] = {}
    for mod in mods:
        m = _MOD_RE.match(mod)
        if not m:
            raise UnknownCriterion(f"unknown modifier {mod!r} in tie-break criterion {code!r}")
        letter, values = _modifier(m)
        if name == "BH" and letter == "F":
            name = "FB"  # BH/F = Fore Buchholz (MTB26)
            allowed = _CATALOGUE["FB"][0]
            continue
        if letter not in allowed:
            raise UnknownCriterion(f"modifier /{mod} is not allowed for {name} in {code!r}")
        fields.update(values)
    return Criterion(name=name, **fields)  # type: ignore[arg-type]


def _criterion_name(code: str) -> tuple[str, list[str]]:
    """The catalogue name of a descriptor (aliases resolved, the checker's ``@yy`` dropped) and its
    modifiers as written."""
    if not isinstance(code, str) or not code.strip():
        raise UnknownCriterion(f"empty tie-break criterion: {code!r}")
    text = code.strip().upper().replace("!", "/").replace("#", "/")
    name, *mods = text.split("/")
    name = name.split("@", 1)[0]  # checker: ignored @yy suffix
    name = _ALIASES.get(name, name)
    if name in TEAM_CRITERIA or ":" in name:
        raise UnknownCriterion(f"unknown criterion {code!r}: team criteria are not available for individual events")
    if name not in _CATALOGUE:
        raise UnknownCriterion(f"unknown tie-break criterion {code!r} (name {name!r})")
    return name, mods


#: the flag modifiers and the field each one sets
_FLAGS = {"P": "forfeits_as_games", "F": "fore", "R": "reverse"}


def _modifier(m: re.Match[str]) -> tuple[str, dict[str, object]]:
    """A modifier matched by ``_MOD_RE``: the letter the catalogue allows it by, and the fields it sets."""
    if m.group(1):  # /C<n> cut, /M<n> median
        return m.group(1), {"cut" if m.group(1) == "C" else "median": int(m.group(2))}
    if m.group(4) is not None:  # /L<n> Koya limit, signed or not
        sign, value = m.group(3), int(m.group(4))
        return "L", {"limit_half_points": -value if sign == "-" else value, "limit_unsigned": sign == ""}
    if m.group(7) is not None:  # /S<seed> of the drawing of lots
        return "S", {"seed": int(m.group(7))}
    if m.group(5) is not None:  # /U<rating> for the unrated
        return "U", {"unrated_rating": int(m.group(5))}
    letter = m.group(6)
    return letter, {_FLAGS[letter]: True}
