"""Team tie-break descriptors (``NAME[:MP|:GP][/MOD]...``, C.07 Articles 11-13): parsing, and the
primary score named by a TRF 192 code."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from .criteria import RATING_CRITERIA, Criterion, parse_criterion
from .errors import CriterionNotAllowed, UnknownCriterion

TEAM_NAMES = frozenset(
    {"MPTS", "GPTS", "MPVGP", "EMMSB", "EMGSB", "EGMSB", "EGGSB", "EDE", "EDEBT", "EDEBB", "EDET", "EDEB"}
    | {"BC", "TBR", "BBE", "SSSC"}
)
ESB = {"EMMSB": ("MP", "MP"), "EMGSB": ("MP", "GP"), "EGMSB": ("GP", "MP"), "EGGSB": ("GP", "GP")}
CHAINS = {"EDE": "", "EDEBT": "CT", "EDEBB": "CB", "EDET": "T", "EDEB": "B"}
PLACE_CRITERIA = frozenset({"DE", "EDE", "EDEBT", "EDEBB", "EDET", "EDEB", "TBR", "BBE"})
BOARD_COUNTS = frozenset({"WIN", "WON", "BPG", "BWG", "STD"})
_K_RE = re.compile(r"^K(\d+(?:\.\d+)?)$")


@dataclass(frozen=True)
class TeamCriterion:
    """A parsed team descriptor (``NAME[:MP|:GP][/MOD]...``).

    ``score``: the reference score given with ``:MP`` / ``:GP`` (None: the primary score);
    ``base``: the individual criterion behind it (individual names, ESB cuts, EDE ``/P``, SSSC
    ``/P`` ``/F``); ``divisor``: SSSC ``/K``.
    """

    code: str
    name: str
    score: str | None = None
    base: Criterion | None = None
    divisor: Fraction | None = None

    def __str__(self) -> str:
        return self.code


def parse_team_criterion(code: str) -> TeamCriterion:
    """Parse one team descriptor; raise UnknownCriterion with a one-line message if invalid."""
    name, score, mods = _team_descriptor(code)
    if name in _WHOLE_NAMES:
        if mods or score:
            raise UnknownCriterion(f"{name} takes no reference score or modifier ({code!r})")
        return TeamCriterion(name, name)
    if name in _BUILT_ON or name == "SSSC":
        if score:
            raise UnknownCriterion(f"{name} takes no reference score ({code!r})")
        if name == "SSSC":
            return _sssc(code, mods)
        base = parse_criterion("/".join([_BUILT_ON[name], *mods]))
        return TeamCriterion("/".join([name, *base.code.split("/")[1:]]), name, base=base)
    if name in ("PTS",):
        raise UnknownCriterion(f"{code!r}: a team event's score is MPTS or GPTS")
    return _individual_on_teams(code, name, score, mods)


#: team criteria that take neither a reference score nor a modifier
_WHOLE_NAMES = frozenset({"MPTS", "GPTS", "MPVGP", "BC", "TBR", "BBE"})
#: the extended Sonneborn-Berger (ESB) and direct-encounter chains (EDE): the individual criterion
#: whose modifiers they take
_BUILT_ON = {**dict.fromkeys(ESB, "SB"), **dict.fromkeys(CHAINS, "DE")}


def _team_descriptor(code: str) -> tuple[str, str, list[str]]:
    """A team descriptor's name (the checker's ``ESB:MG`` spelled ``EMGSB``), its reference score
    (``MP``, ``GP`` or "") and its modifiers as written."""
    if not isinstance(code, str) or not code.strip():
        raise UnknownCriterion(f"empty tie-break criterion: {code!r}")
    text = code.strip().upper().replace("!", "/").replace("#", "/")
    head, *mods = text.split("/")
    head = head.split("@", 1)[0]
    name, _, score = head.partition(":")
    score = score.strip()
    if name == "ESB":  # checker spelling ESB:MG = EMGSB
        if score not in ("MM", "MG", "GM", "GG"):
            raise UnknownCriterion(f"unknown criterion {code!r}: ESB needs :MM, :MG, :GM or :GG")
        name, score = f"E{score}SB", ""
    if score and score not in ("MP", "GP"):
        raise UnknownCriterion(f"unknown reference score :{score} in {code!r} (use :MP or :GP)")
    return name, score, mods


def _sssc(code: str, mods: list[str]) -> TeamCriterion:
    """SSSC with its modifiers: ``/K<divisor>``, ``/P`` (forfeits as games), ``/F`` (Fore Buchholz)."""
    divisor: Fraction | None = None
    flags: list[str] = []
    for mod in mods:
        m = _K_RE.match(mod)
        if m:
            divisor = Fraction(m.group(1))
            if divisor <= 0:
                raise UnknownCriterion(f"SSSC divisor must be positive ({code!r})")
        elif mod in ("P", "F"):
            flags.append(mod)
        else:
            raise UnknownCriterion(f"unknown modifier /{mod} in tie-break criterion {code!r}")
    base = parse_criterion("/".join(["FB" if "F" in flags else "BH", *(["P"] if "P" in flags else [])]))
    parts = ["SSSC", *sorted(flags)]
    if divisor is not None:
        parts.append(f"K{divisor}")
    return TeamCriterion("/".join(parts), "SSSC", base=base, divisor=divisor)


def _individual_on_teams(code: str, name: str, score: str, mods: list[str]) -> TeamCriterion:
    """An individual criterion computed on the teams (Article 16), over the reference score given."""
    try:
        base = parse_criterion("/".join([name, *mods]))
    except UnknownCriterion as exc:
        raise UnknownCriterion(f"unknown team tie-break criterion {code!r}: {exc}") from None
    if base.name in RATING_CRITERIA:
        raise CriterionNotAllowed(f"criterion {code!r}: rating-based criteria are not available for teams")
    suffix = f":{score}" if score else ""
    head_code, *rest = base.code.split("/")
    return TeamCriterion("/".join([head_code + suffix, *rest]), base.name, score=score or None, base=base)


def primary_from_event_type(event_type: str) -> str:
    """The primary score from a TRF 192 code suffix (``_GP_MP`` / ``_GP`` ⇒ GP), else MP."""
    code = (event_type or "").strip().upper().removesuffix("_BAKU")
    if code.endswith("_GP_MP") or (code.endswith("_GP") and not code.endswith("_MP_GP")):
        return "GP"
    return "MP"
