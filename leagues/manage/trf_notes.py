"""The TRF reader's notes and points-column questions as sentences in the organiser's language.

The reader (tiebreaks.trf) writes English; each note has a kind and its values (params), and this module
writes the site's translated sentence for each kind."""

from fractions import Fraction

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..services.trf import scoring_text

#: what a result written without an opponent (or a blank one the points column explains) stands for
BYE_READINGS = {
    "F": gettext_lazy("an unplayed win (full-point bye)"),
    "H": gettext_lazy("a half-point bye"),
    "Z": gettext_lazy("a zero-point absence"),
}
#: the same in a team file: one board of a team match
BOARD_READINGS = {
    "F": gettext_lazy("a board won by default"),
    "H": gettext_lazy("a half point by default"),
    "Z": gettext_lazy("a board not played"),
}
DATE_RECORDS = {"042": gettext_lazy("start date"), "052": gettext_lazy("end date")}
#: an ambiguous date the file's other dates settle, by (record, what rules its other reading out)
SETTLED_DATES = {
    ("042", "end_date"): gettext_lazy(
        "The start date “%(text)s” is read as %(date)s: its other reading, %(other)s, is after the end date."
    ),
    ("042", "round_dates"): gettext_lazy(
        "The start date “%(text)s” is read as %(date)s: its other reading, %(other)s, does not fit the dates of "
        "the rounds."
    ),
    ("052", "start_date"): gettext_lazy(
        "The end date “%(text)s” is read as %(date)s: its other reading, %(other)s, is before the start date."
    ),
    ("052", "round_dates"): gettext_lazy(
        "The end date “%(text)s” is read as %(date)s: its other reading, %(other)s, does not fit the dates of the "
        "rounds."
    ),
}
#: the FIDE rule editions an import can choose, as organisers know them
EDITION_NAMES = {
    "fide-2026": gettext_lazy("FIDE 2026 (C.07 as in force from 1 March 2026)"),
    "fide-2023": gettext_lazy("FIDE before 2026 (C.07 as in force until 28 February 2026)"),
}


def _points(value) -> str:
    value = Fraction(value)
    decimals = next((n for n in (0, 1) if (value * 10**n).denominator == 1), 2)  # 1, 0.5, 0.25
    return number_format(float(value), decimal_pos=decimals)


def note_sentence(note) -> str:
    """The sentence of one tiebreaks.trf.TRFNote in the active language (its English message for a new kind)."""
    p = note.params
    kind = note.kind
    if kind == "date_settled":
        return str(SETTLED_DATES[p["record"], p["by"]]) % {"text": p["text"], "date": p["date"], "other": p["other"]}
    if kind in ("date_ambiguous", "date_unreadable"):
        what = DATE_RECORDS.get(p.get("record"), p.get("record", ""))
        if kind == "date_ambiguous":
            return _("The %(what)s “%(text)s” is ambiguous (%(readings)s); it is kept as written.") % {
                "what": what,
                "text": p["text"],
                "readings": _(" or ").join(p["readings"]),
            }
        return _("The %(what)s “%(text)s” is not a date the reader knows; it is kept as written.") % {
            "what": what,
            "text": p["text"],
        }
    if kind == "unpaired_result":
        readings = BOARD_READINGS if p["team_event"] else BYE_READINGS
        return _("Round %(round)s, player %(player)s: “%(code)s” without an opponent is read as %(reading)s.") % {
            "round": p["round"],
            "player": p["player"],
            "code": p["code"],
            "reading": readings[p["reading"]],
        }
    if kind == "bye_from_points_column":
        return _("Round %(round)s, player %(player)s: no result; the points column makes it %(reading)s.") % {
            "round": p["round"],
            "player": p["player"],
            "reading": BYE_READINGS[p["reading"]],
        }
    if kind == "forfeit_without_colour":
        return _("Round %(round)s: the forfeit between players %(player)s and %(opponent)s has no colours.") % p
    if kind == "records_kept":
        return _("Records %(records)s are kept as written and written back on export.") % p
    if kind == "mid_event":
        if p["first"] == p["last"]:
            return _("Standings after round %(round)s: the byes entered for round %(first)s wait for its pairing.") % p
        return (
            _("Standings after round %(round)s: the byes entered for rounds %(first)s–%(last)s wait for their pairing.")
            % p
        )
    if kind == "points_column_pre_entered_byes":
        return _("The points column of players %(players)s leaves out the byes entered after round %(round)s.") % p
    if kind == "points_column_ignored":
        return _("Every points column is 0: the results decide the points.")
    if kind == "points_column_accepted":
        return points_question_sentence(note) + " " + _("The results are kept.")
    if kind == "team_byes":
        return _("Record 240 names teams (byes of team matches).")
    return note.message


def points_question_sentence(question, names: dict[int, str] | None = None) -> str:
    """A points column that differs from the results (a TRFError of kind "points_column", or its accepted note);
    with `names` (start number -> name), the player by name too."""
    p = question.params
    values = {"player": p["player"], "stated": _points(p["stated"]), "results": _points(p["results"])}
    if names and p["player"] in names:
        return _(
            "Player %(player)s (%(name)s) has %(stated)s in the points column, but the results add up to %(results)s."
        ) % {**values, "name": names[p["player"]]}
    return _("Player %(player)s has %(stated)s in the points column, but the results add up to %(results)s.") % values


def scoring_sentence(scoring) -> str:
    """The game scoring of an imported file (tiebreaks.engine.model.Scoring) as the preview lists it."""
    return scoring_text(scoring)
