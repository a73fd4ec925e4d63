"""TRF writer: the engine's :class:`~tiebreaks.engine.model.Tournament` as TRF text (§10)."""

from __future__ import annotations

from fractions import Fraction

from tiebreaks.engine.model import Participant, Scoring, Tournament

from .codes import ORDER_INDEX, RECORD_ORDER, fmt_points, points_of, write_scoring


def write_trf(tournament: Tournament) -> str:
    """The tournament as TRF text (CRLF line ends), following the export rules of §10.

    Raises ValueError for what TRF cannot hold: names longer than 33 characters, points that
    are not multiples of one half."""
    t = tournament
    scoring = t.scoring
    out: list[tuple[int, int, str]] = []

    def add(tag: str, text: str) -> None:
        out.append((ORDER_INDEX.get(tag, len(RECORD_ORDER)), len(out), text))

    if t.name:
        add("012", "012 " + t.name)
    if t.start_date:
        add("042", "042 " + t.start_date.replace("-", "/"))
    if t.end_date:
        add("052", "052 " + t.end_date.replace("-", "/"))
    add("062", f"062 {len(t.participants)}")
    add("072", f"072 {sum(1 for p in t.participants if p.rating)}")
    if t.teams:
        add("082", f"082 {len(t.teams)}")
    add("142", f"142 {t.total_rounds}")
    add("162", write_scoring("162", scoring))
    if t.event_type:
        add("192", "192 " + t.event_type)
    if t.tiebreaks:
        if t.tiebreaks[0] == "PTS":
            add("202", "202 " + ",".join(t.tiebreaks[1:]))
        else:
            add("212", "212 " + ",".join(t.tiebreaks))
    if t.match_scoring is not None:
        add("362", write_scoring("362", t.match_scoring))
    for p in sorted(t.participants, key=lambda p: p.start_number):
        add("001", _player_line(p, scoring))
    for team in t.teams:
        members = "".join(f" {m:4d}" for m in team.members)
        if len(team.name) > 32:
            raise ValueError(f"team name {team.name!r} is longer than 32 characters")
        add("310", f"310 {team.number:3d} {team.name:<32} {'':5} {'':6} {'':6} {'':6} {'':3} {members}")

    nrs_tag = ""
    for line in t.extra_records:
        if line.startswith("172"):
            nrs_tag = line[4:7].strip().upper()
    for line in t.extra_records:
        tag = "###" if line.startswith("###") else line[:3].upper()
        add("NRS" if tag == nrs_tag else tag, line)
    out.sort()
    return "".join(text + "\r\n" for _, _, text in out)


def _player_line(p: Participant, scoring: Scoring) -> str:
    if len(p.name) > 33:
        raise ValueError(f"name of player {p.start_number} is longer than 33 characters: {p.name!r}")
    points = sum((points_of(e.code, scoring) for e in p.rounds), Fraction(0))
    head = (
        f"001 {p.start_number:4d} {p.sex[:1]:1}{p.title:>3} {p.name:<33} {p.rating or 0:4d} "
        f"{p.federation:<3} {p.fide_id:>11} {p.birth:<10} {fmt_points(points, 'points'):>4} "
        f"{'' if p.rank is None else p.rank:>4}"
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
