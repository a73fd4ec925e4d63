"""The standings page's "checked with FIDE's tools" section: the stored verdict of FIDE's pairing checker and
tie-break checker on the event's own TRF file (leagues/services/fide_check.py), in the reader's language."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..models import Event, FideCheck
from ..services.fide_check import fide_check_of


@dataclass(frozen=True)
class FideCheckView:
    check: FideCheck
    pairings: str
    tiebreaks: str
    differences: list[str]


def _pairs(pairs: list[list[int]]) -> str:
    return ", ".join(_("%(number)s bye") % {"number": w} if not b else f"{w}–{b}" for w, b in pairs)


def _difference(item: dict) -> str:
    if item["kind"] == "pairing":
        return _("Round %(number)s: this site paired %(site)s; FIDE's pairing checker pairs %(fide)s.") % {
            "number": item["round"],
            "site": _pairs(item["site"]),
            "fide": _pairs(item["fide"]),
        }
    if item["kind"] == "tiebreak":
        return _("%(name)s (start number %(number)s), %(criterion)s: %(site)s here, %(fide)s by FIDE's checker.") % {
            "name": item.get("name") or item["number"],
            "number": item["number"],
            "criterion": item["criterion"],
            "site": item["site"] if item["site"] is not None else "–",
            "fide": item["fide"] if item["fide"] is not None else "–",
        }
    if item.get("tool") == "pairings":
        return _("FIDE's pairing checker could not read the file: %(message)s") % {"message": item["message"]}
    return _("FIDE's tie-break checker could not read the file: %(message)s") % {"message": item["message"]}


def fide_check_view(event: Event) -> FideCheckView | None:
    """The event's latest check by FIDE's tools as the page says it; None before the first complete round."""
    check = fide_check_of(event)
    if check is None:
        return None
    pairings = (
        _("Pairings: the same as FIDE's pairing checker makes.")
        if check.pairings_ok
        else _("Pairings: FIDE's pairing checker pairs differently.")
    )
    if check.tiebreaks_ok is None:
        tiebreaks = _("Tie-breaks: not checked (FIDE's tie-break checker applies FIDE's rules only).")
    elif check.tiebreaks_ok:
        tiebreaks = _("Tie-breaks: every value equals FIDE's tie-break checker.")
    else:
        tiebreaks = _("Tie-breaks: FIDE's tie-break checker computes other values.")
    return FideCheckView(check, pairings, tiebreaks, [_difference(item) for item in check.differences[:50]])
