"""TRF reader: bytes or text to the engine's :class:`~tiebreaks.engine.model.Tournament`.

Reads what real exporters write (Swiss-Manager, Swiss-Chess, Vega, lichess, JaVaFo, bbpPairings,
the Irish Chess Union's exporter, FIDE's TRF-2026 sample), as FIDE's checker reads it:

* dates in any common shape; an ambiguous one (``10.09.13``) is read as the only reading the
  file's other dates allow (end date, round dates: :mod:`.dates`); one the reader cannot
  understand, or one still ambiguous, is kept as written and reported in a note, never a reason
  to refuse the file;
* results without an opponent (``0000 - +``, ``0000 - -``, ``0000 - =``, blank opponent with
  ``-``) are kept as written and stand for the bye of the same value (notes say how each was
  read); a blank result whose value only the points column gives (ICU) becomes that bye;
* the points column may include or leave out the byes entered for a round not paired yet; an
  all-zero column is ignored; any other difference is a problem naming the line and both
  values (importable when the organiser accepts it: ``accept_points_column``);
* standings are computed after the last round with a pairing between two players (the engine's
  default, :func:`~tiebreaks.engine.model.last_paired_round`); later byes entered before that
  round's pairing are kept for it, and a note says so;
* in a team file the numbers of record 240 are team numbers (kept for the team engine);
* a game paired but not played yet (opponent and colour, blank result: the boards of a published
  round, as the site exports them) is kept as such (code ``" "`` with the opponent);
* every record the model does not hold (extension records, comments, unknown tags, a date kept
  as text) is kept verbatim in ``Tournament.extra_records`` and written back on export.

Refused, with the line: start numbers not 1..N, a player record that cannot be read (misaligned
columns, an unknown result code, a game with one colour), pairings that do not point back with
the complementary result and opposite colours, two pairing-allocated byes in one round, a 240
record contradicting the 001 record, a points column that differs from the results.
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import Any

from tiebreaks.engine.model import Participant, RoundEntry, Scoring, Team, Tournament, last_paired_round

from .codes import (
    COMPLEMENT,
    GAME_CODES,
    MODELLED,
    ORDER_INDEX,
    RECORD_ORDER,
    UNPAIRED_AS_BYE,
    VALID_CODES,
    Player,
    TRFError,
    TRFNote,
    code_units,
    int_field,
    is_round_robin,
    parse_date,
    parse_scoring_line,
    points_column,
)
from .dates import round_dates, settle_dates, settled_note

#: what a result written without an opponent stands for, in an individual and in a team event
_UNPAIRED_MEANING = {"F": "an unplayed win (full-point bye)", "H": "a half-point bye", "Z": "a zero-point absence"}
_UNPAIRED_BOARD = {"F": "a board won by default", "H": "a half point by default", "Z": "a board not played"}


def decode_trf(data: bytes | str) -> str:
    """Bytes to text: strict UTF-8 first (BOM stripped), else Windows-1252 / Latin-1; NFC (§1)."""
    if isinstance(data, str):
        text = data
    else:
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            try:
                text = data.decode("cp1252")
            except UnicodeDecodeError:
                text = data.decode("latin-1")
    if text.startswith("\ufeff"):
        text = text[1:]
    if text.isascii():  # ASCII text is already NFC (and unicodedata need not be imported)
        return text
    import unicodedata

    return unicodedata.normalize("NFC", text)


def read_trf_file(path: str) -> Tournament:
    with open(path, "rb") as handle:
        return read_trf(handle.read())


def records_by_tag(data: bytes | str) -> dict[str, list[tuple[int, str]]]:
    """Every record of the file by its tag, each as (line number, text), in file order."""
    text = decode_trf(data)
    if "\r" in text:  # CRLF, or old Mac CR: the same lines as splitting at \r\n, \r or \n
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    by_tag: dict[str, list[tuple[int, str]]] = {}
    for n, line in enumerate(text.split("\n"), start=1):
        if len(line.rstrip()) < 3:  # blank, or too short to carry a tag
            continue
        tag = "###" if line.startswith("###") else line[:3].upper()
        records = by_tag.get(tag)
        if records is None:
            by_tag[tag] = [(n, line)]
        else:
            records.append((n, line))
    return by_tag


def read_trf(data: bytes | str, *, accept_points_column: bool = False) -> Tournament:
    """Parse a TRF file (bytes in UTF-8 or Latin-1, or text) into a :class:`Tournament`.

    Raises :class:`TRFError` (with the line) for the first problem; a points column that differs
    from the results is accepted (and noted) with ``accept_points_column``."""
    return read_trf_with_notes(data, accept_points_column=accept_points_column)[0]


def read_trf_with_notes(data: bytes | str, *, accept_points_column: bool = False) -> tuple[Tournament, list[TRFNote]]:
    """:func:`read_trf`, and the notes that say how the reader understood the file (line order)."""
    reading = _Reading(data, collect=False, accept_points_column=accept_points_column)
    tournament = reading.tournament()
    if tournament is None:
        raise RuntimeError("a reading that does not only collect notes returns the tournament")
    return tournament, reading.notes


def trf_problems(data: bytes | str) -> list[TRFError]:
    """Every problem of a TRF file that :func:`read_trf` would refuse, each with its line number
    (None for a problem of the whole file), in line order; an empty list for a readable file.

    Where :func:`read_trf` stops at the first problem, this reads on: every header record and
    every 001 and 240 record on its own, then the checks across lines (pairings, byes per round,
    points columns, teams) for the players whose records could be read. A player record that
    cannot be read is reported once; the pairings that name it are not reported again."""
    reading = _Reading(data, collect=True, accept_points_column=False)
    reading.tournament()
    return sorted(reading.problems, key=lambda p: (p.line_number is not None, p.line_number or 0))


class _Reading:
    """One reading of one file. With ``collect``, problems are gathered (``problems``) and the
    reading goes on where it can; without, the first problem is raised."""

    def __init__(self, data: bytes | str, *, collect: bool, accept_points_column: bool) -> None:
        self.by_tag = records_by_tag(data)
        self.collect = collect
        self.accept_points_column = accept_points_column
        self.problems: list[TRFError] = []
        self.notes: list[TRFNote] = []
        self.kept: list[tuple[int, str]] = []  # modelled records kept verbatim (a date kept as text)

    def fail(self, problem: TRFError) -> None:
        if not self.collect:
            raise problem
        self.problems.append(problem)

    def attempt(self, check: Any, *args: Any, **kwargs: Any) -> Any:
        """``check(*args)``, or None after recording its problem (collecting) - else it raises."""
        if not self.collect:
            return check(*args, **kwargs)
        try:
            return check(*args, **kwargs)
        except TRFError as exc:
            self.problems.append(exc)
            return None

    def single(self, tag: str) -> tuple[int, str] | None:
        found = self.by_tag.get(tag)
        return found[-1] if found else None

    # --- header -----------------------------------------------------------------------------
    def date(self, tag: str, what: str) -> str:
        rec = self.single(tag)
        if rec is None:
            return ""
        n, line = rec
        text = line[4:].strip()
        readings = parse_date(text)
        if len(readings) == 1:
            return readings[0]
        if text:
            self.kept.append(rec)  # written back as it was
            if readings:
                self.notes.append(
                    TRFNote(
                        n,
                        "date_ambiguous",
                        f"the {what} {text!r} is ambiguous: {' or '.join(readings)}; kept as written",
                        readings,
                        {"record": tag, "text": text, "readings": readings},
                    )
                )
            else:
                self.notes.append(
                    TRFNote(
                        n,
                        "date_unreadable",
                        f"the {what} {text!r} is not a date; kept as written",
                        params={"record": tag, "text": text},
                    )
                )
        return ""

    def settle_dates(self, start_date: str, end_date: str) -> tuple[str, str]:
        """The start and end dates, an ambiguous one read as the only reading the file's other dates allow
        (:func:`.dates.settle_dates`); its note says why, and it is no longer kept as written."""
        ambiguous = {n.params["record"]: n for n in self.notes if n.kind == "date_ambiguous"}
        if not ambiguous:
            return start_date, end_date
        rec = self.single("132")
        settled = settle_dates(
            ambiguous["042"].readings if "042" in ambiguous else (start_date,) if start_date else (),
            ambiguous["052"].readings if "052" in ambiguous else (end_date,) if end_date else (),
            round_dates(rec[1]) if rec else [],
        )
        for tag, (reading, other, by) in settled.items():
            note = ambiguous[tag]
            self.notes[self.notes.index(note)] = settled_note(note, reading, other, by)
            self.kept = [kept for kept in self.kept if kept[0] != note.line_number]
        return settled.get("042", (start_date,))[0], settled.get("052", (end_date,))[0]

    def announced_rounds(self) -> int | None:
        announced: int | None = None
        for tag, what in (("142", "number of rounds"), ("XXR", "number of rounds (XXR)")):
            if rec := self.single(tag):
                value = self.attempt(int_field, rec[1][4:].strip().split(" ", 1)[0], rec[0], what)
                if value is not None:
                    announced = value
        return announced

    def scoring(self) -> tuple[Scoring | None, Scoring | None]:
        """Game scoring (162, else JaVaFo's BBx records) and team match scoring (362)."""
        scoring: Scoring | None = None
        if rec := self.single("162"):
            scoring = self.attempt(parse_scoring_line, rec[1], rec[0], team=False)
        elif any(tag in self.by_tag for tag in ("BBW", "BBD", "BBL", "BBZ", "BBF", "BBU")):
            scoring = self.attempt(self._javafo_scoring)
        match_scoring = None
        if rec := self.single("362"):
            match_scoring = self.attempt(parse_scoring_line, rec[1], rec[0], team=True)
        return scoring, match_scoring

    def _javafo_scoring(self) -> Scoring:
        """JaVaFo / bbpPairings scoring records: ``BBW 3.0`` (win), BBD, BBL, BBZ (zero-point bye),
        BBF (forfeit loss), BBU (pairing-allocated bye); unset values are the defaults."""
        values: dict[str, Fraction] = {}
        for tag in ("BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"):
            if rec := self.single(tag):
                text = rec[1][4:].strip()
                try:
                    value = points_column(text)
                except ValueError:
                    value = None
                if value is None:
                    raise TRFError(rec[0], f"scoring value {text!r} of {tag} is not a number")
                values[tag[2]] = value
        base = Scoring()
        return Scoring(
            win=values.get("W", base.win),
            draw=values.get("D", base.draw),
            loss=values.get("L", base.loss),
            absence=values.get("Z", values.get("F", base.absence)),
            pab=values.get("U"),
        )

    # --- the whole file ---------------------------------------------------------------------
    def tournament(self) -> Tournament | None:
        by_tag = self.by_tag
        name = rec[1][4:].strip() if (rec := self.single("012")) else ""
        start_date, end_date = self.settle_dates(self.date("042", "start date"), self.date("052", "end date"))
        announced = self.announced_rounds()
        scoring, match_scoring = self.scoring()
        event_type = rec[1][4:].strip().upper() if (rec := self.single("192")) else ""
        type_text = rec[1][4:] if (rec := self.single("092")) else ""
        tiebreaks: list[str] = []
        if rec := self.single("212"):
            tiebreaks = [item for item in re.split(r"[,\s]+", rec[1][4:].strip()) if item]
        elif rec := self.single("202"):
            tiebreaks = ["PTS"] + [item for item in re.split(r"[,\s]+", rec[1][4:].strip()) if item]

        parsed = self.players()
        if parsed is None:
            return None
        count = len(by_tag["001"])
        teams = self.attempt(parse_teams, by_tag, count) or []
        if teams:
            if "240" in by_tag:  # team numbers: the team engine applies them to the matches
                self.kept.extend(by_tag["240"])
                self.notes.append(
                    TRFNote(
                        by_tag["240"][0][0], "team_byes", "record 240 names teams (byes of team matches)", params={}
                    )
                )
        else:
            for record in by_tag.get("240", []):
                self.attempt(apply_240, [record], parsed)
        check_pairings(parsed, announced, problems=self.problems if self.collect else None, unreadable=self.unreadable)
        self.unpaired_results(parsed, bool(teams))
        self.forfeits_without_colour(parsed)
        longest = max((len(p["rounds"]) for p in parsed.values()), default=0)
        played = longest  # usually someone is paired in the last round; else the engine's rule decides
        rounds = [p["rounds"] for p in parsed.values()]
        if longest and not any(len(r) == longest and r[-1].opponent is not None for r in rounds):
            played = last_paired_round(rounds)
        if 0 < played < longest:
            self.notes.append(
                TRFNote(
                    None,
                    "mid_event",
                    f"standings after round {played}: the byes entered for round {played + 1}"
                    f"{'' if longest == played + 1 else f'-{longest}'} wait for its pairing",
                    params={"round": played, "first": played + 1, "last": longest},
                )
            )
        scoring = self.points_columns(parsed, scoring, played)
        if self.collect:
            return None
        if scoring is None:
            raise RuntimeError("a reading that does not only collect notes has the scoring")
        if announced is None:
            announced = _last_round_played(parsed)
        extra_records = self.extra_records()
        # the extension records (XXR, XXC, BBx, ### comments ...) that exporters add to the standard
        if extensions := [line for line in extra_records if not line[:3].isdigit()]:
            tags = ", ".join(dict.fromkeys(line[:3].strip() for line in extensions))
            self.notes.append(
                TRFNote(
                    None,
                    "records_kept",
                    f"records {tags} are kept as written and written back on export",
                    params={"records": tags},
                )
            )
        return Tournament(
            participants=[
                Participant(
                    start_number=p["start_number"],
                    name=p["name"],
                    rating=p["rating"],
                    rounds=tuple(p["rounds"]),
                    sex=p["sex"],
                    title=p["title"],
                    federation=p["federation"],
                    fide_id=p["fide_id"],
                    birth=p["birth"],
                    rank=p["rank"],
                )
                for p in sorted(parsed.values(), key=lambda p: p["start_number"])
            ],
            total_rounds=announced,
            scoring=scoring,
            name=name,
            round_robin=is_round_robin(event_type, type_text),
            tiebreaks=tiebreaks,
            teams=teams,
            match_scoring=match_scoring,
            start_date=start_date,
            end_date=end_date,
            event_type=event_type,
            extra_records=extra_records,
        )

    def players(self) -> dict[int, Player] | None:
        """Every 001 record by start number; start numbers must run 1..N."""
        player_lines = self.by_tag.get("001", [])
        self.unreadable: set[int] = set()  # start numbers of player records that could not be read
        if not player_lines:
            self.fail(TRFError(None, "no player records (001) in the file"))
            return None
        parsed: dict[int, Player] = {}
        blocks: dict[str, RoundEntry] = {}  # round block text -> its validated entry, shared by the file
        parse = parse_player if not self.collect else lambda *args: self.attempt(parse_player, *args)
        for n, line in player_lines:
            player = parse(n, line, blocks)
            if player is None:
                number_text = line[4:8].strip()
                if number_text.isdigit():
                    self.unreadable.add(int(number_text))
                continue
            number = player["start_number"]
            if number in parsed:
                self.fail(TRFError(n, f"start number {number} appears twice (also line {parsed[number]['line']})"))
                continue
            parsed[number] = player
        count = len(player_lines)
        known = set(parsed) | self.unreadable
        for number in range(1, count + 1):
            if number not in known and parsed:
                self.fail(
                    TRFError(
                        parsed[max(parsed)]["line"],
                        f"start numbers must run 1..{count} without gaps, but {number} is missing",
                    )
                )
        return parsed

    def unpaired_results(self, parsed: dict[int, Player], team_event: bool) -> None:
        """A note for every result written without an opponent (``0000 - +``): what it stands for."""
        meaning = _UNPAIRED_BOARD if team_event else _UNPAIRED_MEANING
        for player in parsed.values():
            if not player["unpaired"]:
                continue
            for rnd, entry in enumerate(player["rounds"], start=1):
                if entry.opponent is None and entry.code in UNPAIRED_AS_BYE:
                    self.notes.append(
                        TRFNote(
                            player["line"],
                            "unpaired_result",
                            f"round {rnd} of player {player['start_number']}: {entry.code!r} without an "
                            f"opponent read as {meaning[UNPAIRED_AS_BYE[entry.code]]}",
                            params={
                                "round": rnd,
                                "player": player["start_number"],
                                "code": entry.code,
                                "reading": UNPAIRED_AS_BYE[entry.code],
                                "team_event": team_event,
                            },
                        )
                    )

    def forfeits_without_colour(self, parsed: dict[int, Player]) -> None:
        """A note for every forfeit between two players written with colour ``-`` (``153 - -``)."""
        for player in parsed.values():
            for rnd, entry in enumerate(player["rounds"], start=1):
                if entry.opponent is not None and entry.colour is None and entry.opponent > player["start_number"]:
                    self.notes.append(
                        TRFNote(
                            player["line"],
                            "forfeit_without_colour",
                            f"round {rnd}: the forfeit between players {player['start_number']} and "
                            f"{entry.opponent} has no colours",
                            params={"round": rnd, "player": player["start_number"], "opponent": entry.opponent},
                        )
                    )

    def extra_records(self) -> tuple[str, ...]:
        """Every record the model does not hold, in the checker's record order (then file order)."""
        extra: list[tuple[int, int, str]] = []  # (order key, file line, text)
        nrs_tag = rec[1][4:7].strip().upper() if (rec := self.single("172")) else ""
        for tag, records in self.by_tag.items():
            if tag in MODELLED:
                continue
            key = ORDER_INDEX.get("NRS" if tag == nrs_tag else tag, len(RECORD_ORDER))
            for n, line in records:
                extra.append((key, n, line))
        for n, line in self.kept:
            extra.append((ORDER_INDEX.get(line[:3], len(RECORD_ORDER)), n, line))
        extra.sort()
        return tuple(line for _, _, line in extra)

    # --- points columns (cols 81-84) ---------------------------------------------------------
    def points_columns(self, parsed: dict[int, Player], scoring: Scoring | None, played: int) -> Scoring | None:
        """Check every points column against the results; without record 162 (or BBx), first
        find the scoring system that explains them (the first candidate that fits every player,
        else the one that fits most). Returns the scoring."""
        stated = [p for p in parsed.values() if p["points"] is not None]
        suffix = ""
        if stated and all(p["points"] == 0 for p in stated):
            reference = scoring or Scoring()
            units, _ = code_units(reference)
            if any(_awarded(p, units) for p in stated):
                self.notes.append(
                    TRFNote(
                        None,
                        "points_column_ignored",
                        "every points column is 0: the results decide the points",
                        params={},
                    )
                )
                return reference
        if scoring is None:
            scoring, fitting = _infer_scoring(stated, played)
            if not fitting:
                suffix = " (no record 162, and no scoring system fits every player)"
        units, den = code_units(scoring)
        leaving_out: list[int] = []
        for player in stated:
            points = player["points"]
            if not player["unpaired"]:  # the usual case without a call: the column is the results' sum
                if sum([units[e.code] for e in player["rounds"]]) * points.denominator == points.numerator * den:
                    continue
            fit = _fit(player, units, den, played)
            if fit == "all":
                continue
            if fit == "played":
                leaving_out.append(player["start_number"])
            elif fit is not None:
                self._byes_from_points_column(player, fit)
            else:
                self._points_column_differs(player, units, den, suffix)
        if leaving_out:
            players = ", ".join(str(n) for n in sorted(leaving_out))
            self.notes.append(
                TRFNote(
                    None,
                    "points_column_pre_entered_byes",
                    f"the points column of player{'s' if len(leaving_out) > 1 else ''} {players} leaves out the "
                    f"byes entered after round {played}",
                    params={"players": players, "round": played},
                )
            )
        return scoring

    def _byes_from_points_column(self, player: Player, fit: str) -> None:
        """Every round without a result becomes the bye ``fit`` (F or H): the only reading of the
        points column that fits."""
        rounds = player["rounds"]
        for r, entry in enumerate(rounds):
            if entry.code == " " and entry.opponent is None:
                rounds[r] = RoundEntry(fit)
                self.notes.append(
                    TRFNote(
                        player["line"],
                        "bye_from_points_column",
                        f"round {r + 1} of player {player['start_number']} has no result; the points "
                        f"column makes it {_UNPAIRED_MEANING[fit]} ({fit})",
                        params={"round": r + 1, "player": player["start_number"], "reading": fit},
                    )
                )

    def _points_column_differs(self, player: Player, units: dict[str, int], den: int, suffix: str) -> None:
        """A points column no reading of the results explains: an error, or a note when the reader
        accepts points columns (the results kept)."""
        total = Fraction(_awarded(player, units), den)
        message = (
            f"player {player['start_number']} has {float(player['points']):g} in the points column "
            f"but the results add up to {float(total):g}{suffix}"
        )
        params = {"player": player["start_number"], "stated": player["points"], "results": total}
        blanks = [r for r, e in enumerate(player["rounds"], 1) if e.code == " " and e.opponent is None]
        gap = player["points"] - total
        for code in ("F", "H"):
            if len(blanks) > 1 and gap == Fraction(units[code] - units[" "], den):
                message += (
                    f": one of rounds {', '.join(map(str, blanks))} (no result) is "
                    f"{_UNPAIRED_MEANING[code]}, the file does not say which"
                )
        if self.accept_points_column:
            self.notes.append(
                TRFNote(player["line"], "points_column_accepted", message + "; results kept", params=params)
            )
        else:
            self.fail(TRFError(player["line"], message, kind="points_column", params=params))


def _awarded(player: Player, units: dict[str, int], upto: int | None = None) -> int:
    """The player's points on the scoring's denominator (rounds 1..upto; all without it)."""
    rounds = player["rounds"] if upto is None else player["rounds"][:upto]
    if player["unpaired"]:
        return sum([units[UNPAIRED_AS_BYE.get(e.code, e.code) if e.opponent is None else e.code] for e in rounds])
    return sum([units[e.code] for e in rounds])


def _fit(player: Player, units: dict[str, int], den: int, played: int) -> str | None:
    """How the points column agrees with the results: ``"all"`` rounds, the rounds ``"played"``
    (leaving out byes entered after the last round with a game), ``"F"`` / ``"H"`` (every blank
    result is that bye: the only reading that fits), or None."""
    stated = player["points"]
    num, sden = stated.numerator, stated.denominator
    total = _awarded(player, units)
    if total * sden == num * den:
        return "all"
    rounds = player["rounds"]
    if played < len(rounds) and _awarded(player, units, played) * sden == num * den:
        return "played"
    blanks = sum(1 for e in rounds if e.code == " " and e.opponent is None)
    if blanks:
        gap = num * den - total * sden
        for code in ("F", "H"):
            value = (units[code] - units[" "]) * sden
            if value > 0 and gap == value * blanks:
                return code
    return None


@cache
def _candidate_scorings() -> list[Scoring]:
    """Scoring systems tried without record 162, most usual first (multiples of one half); built
    on first use (most files have record 162)."""
    found = []
    for pab_choice in ("W", "D", "L"):
        for loss in (0, 1, 2):
            for draw in range(loss + 1, loss + 5):
                for win in range(2 * draw - loss, 2 * draw - loss + 5):
                    pab = win if pab_choice == "W" else draw if pab_choice == "D" else loss
                    found.append(
                        Scoring(
                            win=Fraction(win, 2),
                            draw=Fraction(draw, 2),
                            loss=Fraction(loss, 2),
                            absence=Fraction(0),
                            pab=None if pab_choice == "W" else Fraction(pab, 2),
                        )
                    )
    return found


def _infer_scoring(stated: list[Player], played: int) -> tuple[Scoring, bool]:
    """No record 162: the first candidate that explains every points column (True), else the
    one that explains most of them (False; the default scoring when none explains any)."""
    best, best_count = Scoring(), 0
    candidates = _candidate_scorings()
    for candidate in candidates:
        units, den = code_units(candidate)
        if all(_fit(p, units, den, played) for p in stated):
            return candidate, True
    for candidate in candidates:
        units, den = code_units(candidate)
        count = sum(1 for p in stated if _fit(p, units, den, played))
        if count > best_count:
            best, best_count = candidate, count
    return best, False


def _last_round_played(parsed: dict[int, Player]) -> int:
    last = 0
    for player in parsed.values():
        for rnd, entry in enumerate(player["rounds"], start=1):
            if entry.opponent is not None or entry.code not in " AZ":
                last = max(last, rnd)
    return last


def _block_shapes() -> dict[str, tuple[str, str | None, bool]]:
    """The last four characters of every well-formed round block (" C R": colour, result code)
    -> (code, colour, whether it is a game code), for the fast path of :func:`_parse_block`."""
    shapes: dict[str, tuple[str, str | None, bool]] = {}
    for raw_code in VALID_CODES | {c.lower() for c in VALID_CODES}:
        code = raw_code.upper()
        if code not in VALID_CODES:
            continue
        game = code in GAME_CODES
        for raw_colour in "wWbB- ":
            colour = raw_colour.lower()
            colour_value = colour if colour in "wb" else None
            if colour_value is not None and not game:
                continue  # a bye has no colour
            shapes[f" {raw_colour} {raw_code}"] = (code, colour_value, game)
    return shapes


_BLOCK_SHAPES = _block_shapes()


def _parse_block(block: str, n: int, rnd: int, number: int) -> RoundEntry:
    """One 10-character round block ("  OOOO C R"), every check but the own-opponent one
    (which depends on the player, not on the block)."""
    shape = _BLOCK_SHAPES.get(block[6:])
    if shape is not None and block[:2] == "  ":  # fast path: a well-formed block
        code, colour_value, game = shape
        opp_text = block[2:6]
        if opp_text == "0000" or opp_text == "    ":
            if colour_value is None:
                return RoundEntry(code)  # a bye, or a result without an opponent (0000 - +)
        elif game and opp_text.strip().isdigit() and (colour_value is not None or code in "+-"):
            return RoundEntry(code, int(opp_text), colour_value)
    # the general path, which names the problem
    return _checked_block(block, n, rnd, number)


def _checked_block(block: str, n: int, rnd: int, number: int) -> RoundEntry:
    """A round block that is not well formed, or not in the usual way: its entry, or the error that
    names its problem (alignment, opponent, colour, result code, then the three together)."""
    c = 91 + 10 * (rnd - 1)
    if block[:2].strip() or block[6] != " " or block[8] != " ":
        raise TRFError(
            n,
            f"round {rnd} of player {number} is misaligned (columns {c - 1}-{c + 8} read "
            f"{block!r}; wrong encoding or shifted name?)",
        )
    opp_text = block[2:6].strip()
    if opp_text and not opp_text.isdigit():
        raise TRFError(n, f"round {rnd} of player {number}: opponent {opp_text!r} is not a number")
    opponent = int(opp_text) if opp_text else 0
    colour = block[7].lower()
    code = block[9].upper()
    if colour not in "wb- ":
        raise TRFError(n, f"round {rnd} of player {number}: colour {block[7]!r} is not w, b or -")
    if code not in VALID_CODES:
        raise TRFError(n, f"round {rnd} of player {number}: unknown result code {block[9]!r}")
    colour_value = colour if colour in "wb" else None
    return _paired_entry(n, rnd, number, code, opponent, colour_value)


def _paired_entry(n: int, rnd: int, number: int, code: str, opponent: int, colour_value: str | None) -> RoundEntry:
    """A block's entry once its fields are read: the opponent, colour and result code must go together
    (a game has an opponent and a colour, a forfeit an opponent, a bye or absence neither)."""
    if not opponent:
        if colour_value is not None:
            raise TRFError(n, f"round {rnd} of player {number}: {code!r} without an opponent has a colour")
    elif code in GAME_CODES:
        if code not in "+-" and colour_value is None:
            raise TRFError(n, f"round {rnd} of player {number}: a played game needs colour w or b")
    elif code == " " and colour_value is not None:
        pass  # paired, not played yet: opponent and colour, no result (a published round's boards)
    else:
        if opponent:
            raise TRFError(
                n,
                f"round {rnd} of player {number}: bye or absence {code!r} must not have an opponent (found {opponent})",
            )
        if colour_value is not None:
            raise TRFError(n, f"round {rnd} of player {number}: bye or absence {code!r} has a colour")
    return RoundEntry(code=code, opponent=opponent or None, colour=colour_value)


def parse_player(n: int, line: str, blocks: dict[str, RoundEntry] | None = None) -> Player:
    """One 001 record. ``blocks`` caches each distinct round block's validated entry (a game
    appears once per opponent and colour, so about half the blocks of a Swiss file repeat)."""
    number = int_field(line[4:8], n, "start number")
    if not number:
        raise TRFError(n, "player record without a start number (columns 5-8)")
    if blocks is None:
        blocks = {}
    # the round grid first: a shifted line (wrong encoding) is reported as misaligned.
    # Round r is the 10 characters from column 90 + 10 (r - 1); only complete blocks count.
    rounds: list[RoundEntry] = []
    append = rounds.append
    get = blocks.get
    unpaired = False  # a result written without an opponent (0000 - +)
    for rnd, c in enumerate(range(89, len(line) - 9, 10), start=1):
        block = line[c : c + 10]
        entry = get(block)
        if entry is None:
            entry = blocks[block] = _parse_block(block, n, rnd, number)
        opponent = entry.opponent
        if opponent is None:
            if entry.code in GAME_CODES:
                unpaired = True
        elif opponent == number:
            raise TRFError(n, f"round {rnd} of player {number} names the player as their own opponent")
        append(entry)
    # rating, points and rank: the usual well-formed field without a call; anything else
    # (blank, or an error to report) through the general parsers
    text = line[48:52]
    rating = int(text) if text.strip().isdigit() else int_field(text, n, f"rating of player {number}")
    text = line[80:84]
    try:
        points = points_column(text)
    except ValueError:
        raise TRFError(n, f"points {text.strip()!r} of player {number} are not a number") from None
    text = line[85:89]
    rank = int(text) if text.strip().isdigit() else int_field(text, n, f"rank of player {number}")
    return {
        "line": n,
        "start_number": number,
        "sex": line[9:10].strip(),
        "title": line[10:13].strip(),
        "name": line[14:47].strip(),
        "rating": rating or None,
        "federation": line[53:56].strip(),
        "fide_id": line[57:68].strip(),
        "birth": line[69:79].strip(),
        "points": points,
        "rank": rank,
        "rounds": rounds,
        "unpaired": unpaired,
    }


def apply_240(records: list[tuple[int, str]], parsed: dict[int, Player]) -> None:
    """240 byes (§7.3): add the bye where the 001 record lacks it; reject a contradiction."""
    for n, line in records:
        kind = (line[4:5].strip() or "Z").upper()
        if kind not in "FHZ":
            raise TRFError(n, f"bye type {kind!r} is not F, H or Z")
        rnd = int_field(line[6:9], n, "round")
        if not rnd:
            raise TRFError(n, "bye record without a round (columns 7-9)")
        for start in range(10, len(line), 5):
            number = int_field(line[start : start + 4], n, "player")
            if not number:
                continue
            if number not in parsed:
                raise TRFError(n, f"bye for player {number}, who has no 001 record")
            rounds = parsed[number]["rounds"]
            if len(rounds) >= rnd and rounds[rnd - 1].code not in (" ", kind):
                raise TRFError(
                    n,
                    f"bye {kind!r} for player {number} in round {rnd} contradicts the 001 record "
                    f"(line {parsed[number]['line']}), which says {rounds[rnd - 1].code!r}",
                )
            while len(rounds) < rnd:
                rounds.append(RoundEntry(" "))
            rounds[rnd - 1] = RoundEntry(kind)


def check_pairings(
    parsed: dict[int, Player],
    announced_rounds: int | None,
    *,
    problems: list[TRFError] | None = None,
    unreadable: set[int] | frozenset[int] = frozenset(),
) -> None:
    """Reciprocal pairings, opposite colours, complementary codes, one U per round (§4).

    Raises at the first problem; with ``problems``, appends the first problem of every player
    record instead and reads on (pairings with the ``unreadable`` start numbers are skipped)."""
    pab_in_round: dict[int, int] = {}
    rounds_of = {number: player["rounds"] for number, player in parsed.items()}
    failed: set[int] = set()
    for number, player in sorted(parsed.items()):
        try:
            _check_player_pairings(number, player, rounds_of, pab_in_round, announced_rounds, failed, unreadable)
        except TRFError as exc:
            if problems is None:
                raise
            problems.append(exc)
            failed.add(number)


def _check_player_pairings(
    number: int,
    player: Player,
    rounds_of: dict[int, list[RoundEntry]],
    pab_in_round: dict[int, int],
    announced_rounds: int | None,
    failed: set[int],
    unreadable: set[int] | frozenset[int],
) -> None:
    complement = COMPLEMENT
    n = player["line"]
    rounds = player["rounds"]
    if announced_rounds is not None and len(rounds) > announced_rounds:
        raise TRFError(
            n,
            f"player {number} has results for {len(rounds)} rounds but the file announces {announced_rounds}",
        )
    for rnd, entry in enumerate(rounds, start=1):
        opp = entry.opponent
        if opp is not None and opp in unreadable:
            continue
        if opp is None:
            if entry.code == "U":
                if rnd in pab_in_round:
                    raise TRFError(
                        n,
                        f"round {rnd}: players {pab_in_round[rnd]} and {number} both have a "
                        f"pairing-allocated bye (U); at most one per round",
                    )
                pab_in_round[rnd] = number
            continue
        opp_rounds = rounds_of.get(opp)
        if opp_rounds is None:
            raise TRFError(n, f"round {rnd} of player {number} names opponent {opp}, who has no 001 record")
        if len(opp_rounds) < rnd:
            raise TRFError(
                n,
                f"round {rnd} of player {number} says opponent {opp} but player {opp}'s record has no round {rnd}",
            )
        back = opp_rounds[rnd - 1]
        if back.opponent != number:
            raise TRFError(
                n,
                f"round {rnd} of player {number} says opponent {opp} but player {opp}'s round {rnd} points elsewhere",
            )
        if opp < number and opp not in failed:
            # the opponent's visit (earlier: ascending order) already checked this game from
            # the other side and found it sound; codes and colours are symmetric checks
            continue
        code = entry.code
        if back.code not in complement[code]:
            expected = " or ".join(repr(c) for c in complement[code])
            raise TRFError(
                n,
                f"round {rnd}: player {number} has {code!r} against {opp} but player "
                f"{opp} has {back.code!r} (expected {expected})",
            )
        colour = entry.colour
        back_colour = back.colour
        if colour is not None and colour == back_colour:
            raise TRFError(
                n,
                f"round {rnd}: players {number} and {opp} both have colour {colour!r}",
            )
        if (colour is None) != (back_colour is None) and code not in "+-":
            raise TRFError(n, f"round {rnd}: only one of players {number} and {opp} has a colour")


def parse_teams(by_tag: dict[str, list[tuple[int, str]]], count: int) -> list[Team]:
    teams: list[Team] = []
    if "310" in by_tag:
        for n, line in by_tag["310"]:
            number = int_field(line[4:7], n, "team number")
            if not number:
                raise TRFError(n, "team record without a team number (columns 5-7)")
            members = _members(line, 73, n, count)
            teams.append(Team(number=number, name=line[8:40].strip(), members=members))
        teams.sort(key=lambda t: t.number)
    else:
        for index, (n, line) in enumerate(by_tag.get("013", []), start=1):
            teams.append(Team(number=index, name=line[4:36].strip(), members=_members(line, 36, n, count)))
    seen: dict[int, int] = {}
    for team in teams:
        for member in team.members:
            if member in seen:
                raise TRFError(None, f"player {member} is in team {seen[member]} and team {team.number}")
            seen[member] = team.number
    return teams


def _members(line: str, first: int, n: int, count: int) -> tuple[int, ...]:
    members = []
    for start in range(first, len(line), 5):
        number = int_field(line[start : start + 4], n, "team member")
        if not number:
            continue
        if number > count:
            raise TRFError(n, f"team member {number} has no 001 record")
        members.append(number)
    return tuple(members)


def apply_national_ratings(tournament: Tournament) -> Tournament:
    """The tournament with each rating chosen by record 172's method from the 001 (FIDE) rating
    and the national rating record; unchanged without 172 (or with method FIDE)."""
    federation = method = ""
    for line in tournament.extra_records:
        if line.startswith("172"):
            federation, method = line[4:7].strip().upper(), line[8:13].strip().upper()
    if not federation or method in ("", "FIDE"):
        return tournament
    national: dict[int, int | None] = {}
    for line in tournament.extra_records:
        if line[:3].upper() == federation and line[4:8].strip().isdigit():
            rating = line[48:52].strip()
            national[int(line[4:8])] = int(rating) if rating.isdigit() and int(rating) else None

    def choose(fide: int | None, nat: int | None) -> int | None:
        if method == "NRO":
            return nat
        if method == "FIDON":
            return fide if fide else nat
        if method == "NIDOF":
            return nat if nat else fide
        if method in ("HBFN", "LBFN"):
            known = [r for r in (fide, nat) if r]
            if not known:
                return None
            return max(known) if method == "HBFN" else min(known)
        return None  # OTHER: the checker yields no rating

    participants = [replace(p, rating=choose(p.rating, national.get(p.start_number))) for p in tournament.participants]
    return replace(tournament, participants=participants)


#: the ``###`` lines in which the site's TRF files name what TRF-26 cannot hold: a newer rating from a round on
#: (start number, rating, the list's date) and the regulations' choice of the rating of each round for the
#: rating-based tie-breaks (leagues.services.ratings.rating_comment_lines writes them)
ROUND_RATING_LINE = re.compile(
    r"^### rating from round (\d+):\s*(\d+)\s+(\d+)(?:\s+\(list of (\d{4}-\d{2}-\d{2})\))?\s*$", re.IGNORECASE
)
RATINGS_PER_ROUND_LINE = "### rating-based tie-breaks: rating of each round"


def round_rating_records(tournament: Tournament) -> list[tuple[int, int, int | None, str]]:
    """The newer ratings the file's ``###`` lines name: (start number, from round, rating or None for unrated,
    the list's ISO date or "") in the file's order; round 1 or a start number without a 001 record is skipped."""
    numbers = {p.start_number for p in tournament.participants}
    out = []
    for line in tournament.extra_records:
        m = ROUND_RATING_LINE.match(line.rstrip())
        if m is None:
            continue
        from_round, number, rating = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if from_round >= 2 and number in numbers:
            out.append((number, from_round, rating or None, m.group(4) or ""))
    return out


def ratings_per_round_chosen(tournament: Tournament) -> bool:
    """Whether the file says the rating-based tie-breaks read the rating of each round (not the first rating)."""
    return any(line.rstrip().lower() == RATINGS_PER_ROUND_LINE for line in tournament.extra_records)


def apply_round_ratings(tournament: Tournament) -> Tournament:
    """The tournament with each participant's rating in every round (``Participant.round_ratings``) from the
    file's ``###`` newer-rating lines; unchanged without them. The 001 rating stays the first rating."""
    changes: dict[int, list[tuple[int, int | None]]] = {}
    for number, from_round, rating, _date in round_rating_records(tournament):
        changes.setdefault(number, []).append((from_round, rating))
    if not changes:
        return tournament
    rounds = max([tournament.total_rounds, *(len(p.rounds) for p in tournament.participants)])
    participants = []
    for p in tournament.participants:
        newer = sorted(changes.get(p.start_number, []))
        if newer:
            by_round: list[int | None] = []
            current = p.rating
            for number in range(1, rounds + 1):
                while newer and newer[0][0] <= number:
                    current = newer.pop(0)[1]
                by_round.append(current)
            p = replace(p, round_ratings=tuple(by_round))
        participants.append(p)
    return replace(tournament, participants=participants)
