"""Text that leaves the site in files (CSV, TRF) or comes in through forms: no control characters, and no
CSV cell a spreadsheet would run as a formula; and the words a match card's results are written in, shared by the
secretaries' card and the public one."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

#: code points that are not text: C0 controls but the tab and line ends, DEL
CONTROL_CODES = frozenset(range(32)) - {9, 10, 13} | {127}
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def has_control_characters(text: str) -> bool:
    """Any C0 control character or DEL, tabs and line ends included (a name is one line)."""
    return any(ord(c) < 32 or ord(c) == 127 for c in text)


def refuse_control_characters(value: str) -> None:
    """A form validator for names: one line of plain text."""
    if has_control_characters(value):
        raise ValidationError(_("Use letters, digits and punctuation only (no line breaks or control characters)."))


def one_line(text: str) -> str:
    """The text with every control character (line ends included) replaced by a space."""
    return "".join(" " if ord(c) < 32 or ord(c) == 127 else c for c in text)


#: cells that begin like a formula but are none: a bye or a forfeit win is "+", a forfeit loss "-"
_RESULT_CODES = frozenset({"+", "-"})


def csv_cell(value: object) -> object:
    """A cell a spreadsheet shows as text: one beginning with = + - @, a tab or CR gets a leading apostrophe
    (numbers stay numbers, and a lone + or -, a result code, is no formula: it stays as it is)."""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS) and value not in _RESULT_CODES:
        return "'" + value
    return value


def home_result_labels() -> dict[str, str]:
    """A match card's result choices as the home team reads them (home score first)."""
    return {
        "home_win": "1-0",
        "draw": "½-½",
        "away_win": "0-1",
        "home_forfeit_win": "+/- " + str(_("(forfeit)")),
        "away_forfeit_win": "-/+ " + str(_("(forfeit)")),
        "double_forfeit": "-/- " + str(_("(double forfeit)")),
    }
