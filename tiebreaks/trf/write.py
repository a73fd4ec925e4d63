"""TRF writer: the engine's :class:`~tiebreaks.engine.model.Tournament` as TRF text.

``write_trf(t)`` writes TRF-2026 (records 142, 162 always, 192, 202/212, 310, 362 and every kept
record); ``write_trf(t, edition="2016")`` writes TRF-16 for older readers: the same player
records, ``XXR`` for the number of rounds, 013 team records, JaVaFo's BBx records for a scoring
system other than 1 / ½ / 0, and none of the TRF-2026 records. Text fields never break the fixed
columns: control characters (CR, LF, tabs, ...) become blanks and each field is cut to its width
(a name to 33 characters). Points must be multiples of one half (the ``11.5`` format).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from tiebreaks.engine.model import Participant, RoundEntry, Scoring, Tournament

from .codes import ORDER_INDEX, RECORD_ORDER, TRF26_ONLY, UNPAIRED_AS_BYE, fmt_points, points_of, write_scoring

EDITIONS = ("2026", "2016")
_CONTROL = {c: " " for c in (*range(32), *range(0x7F, 0xA0))}


def field(text: str, width: int | None = None) -> str:
    """A text field as TRF can hold it: control characters as blanks, at most ``width`` long."""
    text = text.translate(_CONTROL).strip()
    return text if width is None else text[:width].rstrip()


def write_trf(tournament: Tournament, edition: str = "2026") -> str:
    """The tournament as TRF text (CRLF line ends) in the given edition ("2026" or "2016")."""
    if edition not in EDITIONS:
        raise ValueError(f"unknown TRF edition {edition!r} (known: {', '.join(EDITIONS)})")
    trf16 = edition == "2016"
    t = tournament
    scoring = t.scoring
    out: list[tuple[int, int, str]] = []

    def add(tag: str, text: str) -> None:
        out.append((ORDER_INDEX.get(tag, len(RECORD_ORDER)), len(out), text))

    _header(t, add)
    if trf16:
        _trf16_rounds_and_scoring(t, add)
    else:
        _trf26_rounds_and_scoring(t, add)
    for p in sorted(t.participants, key=lambda p: p.start_number):
        add("001", _player_line(p, scoring))
    _team_records(t, trf16, add)
    _kept_records(t, trf16, add)
    out.sort()
    return "".join(text + "\r\n" for _, _, text in out)


#: adds one record: its tag (which orders it) and its text
_Add = Callable[[str, str], None]


def _header(t: Tournament, add: _Add) -> None:
    """Records 012 (name), 042 / 052 (dates), 062 / 072 / 082 (players, rated players, teams)."""
    if t.name:
        add("012", "012 " + field(t.name))
    if t.start_date:
        add("042", "042 " + t.start_date.replace("-", "/"))
    if t.end_date:
        add("052", "052 " + t.end_date.replace("-", "/"))
    add("062", f"062 {len(t.participants)}")
    add("072", f"072 {sum(1 for p in t.participants if p.rating)}")
    if t.teams:
        add("082", f"082 {len(t.teams)}")


def _trf16_rounds_and_scoring(t: Tournament, add: _Add) -> None:
    """TRF-16: XXR (rounds) and JaVaFo's BBx records for a scoring system other than 1 / ½ / 0."""
    scoring = t.scoring
    add("XXR", f"XXR {t.total_rounds}")
    if scoring != Scoring():
        for tag, value in (("BBW", scoring.win), ("BBD", scoring.draw), ("BBL", scoring.loss)):
            add("BB", f"{tag} {fmt_points(value, 'score')}")
        add("BB", f"BBZ {fmt_points(scoring.absence, 'score')}")
        add("BB", f"BBF {fmt_points(scoring.absence, 'score')}")
        if scoring.pab is not None:
            add("BB", f"BBU {fmt_points(scoring.pab, 'score')}")


def _trf26_rounds_and_scoring(t: Tournament, add: _Add) -> None:
    """TRF-2026: 142 (rounds), 162 (scoring), 192 (event type), 202 / 212 (tie-breaks), 362 (match scoring)."""
    add("142", f"142 {t.total_rounds}")
    add("162", write_scoring("162", t.scoring))
    if t.event_type:
        add("192", "192 " + field(t.event_type))
    if t.tiebreaks:
        if t.tiebreaks[0] == "PTS":
            add("202", "202 " + ",".join(t.tiebreaks[1:]))
        else:
            add("212", "212 " + ",".join(t.tiebreaks))
    if t.match_scoring is not None:
        add("362", write_scoring("362", t.match_scoring))


def _team_records(t: Tournament, trf16: bool, add: _Add) -> None:
    """One record per team: 013 in TRF-16, 310 in TRF-2026."""
    for team in t.teams:
        name = field(team.name, 32)
        if trf16:
            add("013", f"013 {name:<32}" + "".join(f"{m:4d} " for m in team.members).rstrip())
        else:
            members = "".join(f" {m:4d}" for m in team.members)
            add("310", f"310 {team.number:3d} {name:<32} {'':5} {'':6} {'':6} {'':6} {'':3} {members}")


def _kept_records(t: Tournament, trf16: bool, add: _Add) -> None:
    """Every record the model does not hold, as read (the national rating's tag, record 172, ordered as
    NRS); TRF-16 leaves out the TRF-2026 records, and BBx when it writes its own."""
    scoring = t.scoring
    nrs_tag = ""
    for line in t.extra_records:
        if line.startswith("172"):
            nrs_tag = line[4:7].strip().upper()
    for line in t.extra_records:
        tag = "###" if line.startswith("###") else line[:3].upper()
        if trf16 and (tag in TRF26_ONLY or tag == nrs_tag or (tag.startswith("BB") and scoring != Scoring())):
            continue
        add("NRS" if tag == nrs_tag else tag, line.translate(_CONTROL))


def _entry_points(entry: RoundEntry, scoring: Scoring) -> Fraction:
    code = entry.code
    if entry.opponent is None:
        code = UNPAIRED_AS_BYE.get(code, code)  # 0000 - +: the bye it stands for
    return points_of(code, scoring)


def _player_line(p: Participant, scoring: Scoring) -> str:
    points = sum((_entry_points(e, scoring) for e in p.rounds), Fraction(0))
    head = (
        f"001 {p.start_number:4d} {field(p.sex, 1):1}{field(p.title, 3):>3} {field(p.name, 33):<33} "
        f"{p.rating or 0:4d} {field(p.federation, 3):<3} {field(p.fide_id, 11):>11} {field(p.birth, 10):<10} "
        f"{fmt_points(points, 'points'):>4} {'' if p.rank is None else p.rank:>4}"
    )
    blocks = []
    for entry in p.rounds:
        if entry.code == " " and entry.opponent is None:
            blocks.append("  " + " " * 8)
        else:
            opponent = f"{entry.opponent:4d}" if entry.opponent else "0000"
            blocks.append(f"  {opponent} {entry.colour or '-'} {entry.code}")
    return head + "".join(blocks)


def encode_trf(text: str) -> bytes:
    """Latin-1 when every character fits (what the FIDE checker reads by default), else UTF-8."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8")
