"""TRF reader: bytes or text to the engine's :class:`~tiebreaks.engine.model.Tournament` (§9)."""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction

from tiebreaks.engine.model import Participant, RoundEntry, Scoring, Team, Tournament

from .codes import (
    COMPLEMENT,
    GAME_CODES,
    MODELLED,
    ORDER_INDEX,
    RECORD_ORDER,
    SCORE_KEY,
    VALID_CODES,
    Player,
    TRFError,
    code_units,
    int_field,
    is_round_robin,
    parse_date,
    parse_scoring_line,
    points_column,
)


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


def read_trf(data: bytes | str) -> Tournament:
    """Parse a TRF file (bytes in UTF-8 or Latin-1, or text) into a :class:`Tournament`."""
    by_tag = records_by_tag(data)

    def single(tag: str) -> tuple[int, str] | None:
        found = by_tag.get(tag)
        return found[-1] if found else None

    name = ""
    if rec := single("012"):
        name = rec[1][4:].strip()
    start_date = parse_date(rec[1][4:], rec[0], "start date") if (rec := single("042")) else ""
    end_date = parse_date(rec[1][4:], rec[0], "end date") if (rec := single("052")) else ""

    announced_rounds: int | None = None
    for tag, what in (("142", "number of rounds"), ("XXR", "number of rounds (XXR)")):
        if rec := single(tag):
            value = int_field(rec[1][4:], rec[0], what)
            if value is not None:
                announced_rounds = value

    scoring: Scoring | None = None
    if rec := single("162"):
        scoring = parse_scoring_line(rec[1], rec[0], team=False)
    match_scoring = parse_scoring_line(rec[1], rec[0], team=True) if (rec := single("362")) else None

    event_type = rec[1][4:].strip().upper() if (rec := single("192")) else ""
    type_text = rec[1][4:] if (rec := single("092")) else ""

    tiebreaks: list[str] = []
    if rec := single("212"):
        tiebreaks = [item for item in re.split(r"[,\s]+", rec[1][4:].strip()) if item]
    elif rec := single("202"):
        tiebreaks = ["PTS"] + [item for item in re.split(r"[,\s]+", rec[1][4:].strip()) if item]

    # 001 records (§3)
    player_lines = by_tag.get("001", [])
    if not player_lines:
        raise TRFError(None, "no player records (001) in the file")
    parsed: dict[int, Player] = {}
    blocks: dict[str, RoundEntry] = {}  # round block text -> its validated entry, shared by the file
    for n, line in player_lines:
        player = parse_player(n, line, blocks)
        number = player["start_number"]
        if number in parsed:
            raise TRFError(n, f"start number {number} appears twice (also line {parsed[number]['line']})")
        parsed[number] = player
    count = len(parsed)
    for number in range(1, count + 1):
        if number not in parsed:
            biggest = max(parsed)
            raise TRFError(
                parsed[biggest]["line"],
                f"start numbers must run 1..{count} without gaps, but {number} is missing",
            )

    apply_240(by_tag.get("240", []), parsed)
    check_pairings(parsed, announced_rounds)

    if scoring is None:
        scoring = infer_scoring(parsed)
    # points column = awarded points, exactly: integers on the scoring's common denominator
    units, denominator = code_units(scoring)
    for player in parsed.values():
        stated = player["points"]
        if stated is None:
            continue
        awarded = sum([units[e.code] for e in player["rounds"]])
        if awarded * stated.denominator != stated.numerator * denominator:
            raise TRFError(
                player["line"],
                f"player {player['start_number']} has {float(stated):g} in the points column "
                f"but the results add up to {float(Fraction(awarded, denominator)):g}",
            )

    if announced_rounds is None:
        announced_rounds = _last_round_played(parsed)

    teams = parse_teams(by_tag, count)

    extra: list[tuple[int, int, str]] = []  # (order key, file line, text)
    nrs_tag = ""
    if rec := single("172"):
        nrs_tag = rec[1][4:7].strip().upper()
    for tag, records in by_tag.items():
        if tag in MODELLED:
            continue
        key = ORDER_INDEX.get("NRS" if tag == nrs_tag else tag, len(RECORD_ORDER))
        for n, line in records:
            extra.append((key, n, line))
    extra.sort()

    participants = [
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
    ]
    return Tournament(
        participants=participants,
        total_rounds=announced_rounds,
        scoring=scoring,
        name=name,
        round_robin=is_round_robin(event_type, type_text),
        tiebreaks=tiebreaks,
        teams=teams,
        match_scoring=match_scoring,
        start_date=start_date,
        end_date=end_date,
        event_type=event_type,
        extra_records=tuple(line for _, _, line in extra),
    )


def _block_shapes() -> dict[str, tuple[str, str | None, bool]]:
    """The last four characters of every well-formed round block (" C R": colour, result code)
    -> (code, colour, whether the code needs an opponent), for the fast path of
    :func:`_parse_block`."""
    shapes: dict[str, tuple[str, str | None, bool]] = {}
    for raw_code in VALID_CODES | {c.lower() for c in VALID_CODES}:
        code = raw_code.upper()
        if code not in VALID_CODES:
            continue
        game = code in GAME_CODES
        for raw_colour in "wWbB- ":
            colour = raw_colour.lower()
            colour_value = colour if colour in "wb" else None
            if game and colour_value is None and code not in "+-":
                continue  # a played game needs a colour
            if not game and colour_value is not None:
                continue  # a bye has none
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
        if game:
            if opp_text.strip().isdigit():
                opponent = int(opp_text)
                if opponent:
                    return RoundEntry(code, opponent, colour_value)
        elif opp_text == "0000" or opp_text == "    ":
            return RoundEntry(code)
    # the general path, which names the problem
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
    if code in GAME_CODES:
        if not opponent:
            raise TRFError(n, f"round {rnd} of player {number}: result {code!r} needs an opponent")
        if code not in "+-" and colour_value is None:
            raise TRFError(n, f"round {rnd} of player {number}: a played game needs colour w or b")
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
    for rnd, c in enumerate(range(89, len(line) - 9, 10), start=1):
        block = line[c : c + 10]
        entry = get(block)
        if entry is None:
            entry = blocks[block] = _parse_block(block, n, rnd, number)
        if entry.opponent == number:
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


def infer_scoring(parsed: dict[int, Player]) -> Scoring:
    """No record 162: find the first scoring system that explains every points column (§5).

    Candidates are multiples of one half, so the search runs on integers in half-points."""
    equations = []
    for player in parsed.values():
        points = player["points"]
        if points is None:
            continue
        counts = {"W": 0, "D": 0, "L": 0, "P": 0, "X": 0, "A": 0}
        for entry in player["rounds"]:
            counts[SCORE_KEY[entry.code]] += 1
        # absences score 0 in every candidate; points = halves / 2 <=> halves * den == 2 * num
        equations.append(
            (counts["W"], counts["D"], counts["L"], counts["P"], counts["X"], 2 * points.numerator, points.denominator)
        )
    for pab_choice in ("W", "D", "L"):
        for loss in (0, 1, 2):
            for draw in range(loss + 1, loss + 5):
                for win in range(2 * draw - loss, 2 * draw - loss + 5):
                    pab = win if pab_choice == "W" else draw if pab_choice == "D" else loss
                    if all(
                        (w * win + d * draw + lo * loss + p * pab + x * draw) * den == twice
                        for w, d, lo, p, x, twice, den in equations
                    ):
                        return Scoring(
                            win=Fraction(win, 2),
                            draw=Fraction(draw, 2),
                            loss=Fraction(loss, 2),
                            absence=Fraction(0),
                            pab=None if pab_choice == "W" else Fraction(pab, 2),
                        )
    default = Scoring()
    units, denominator = code_units(default)
    for player in parsed.values():
        points = player["points"]
        if points is None:
            continue
        awarded = sum([units[e.code] for e in player["rounds"]])
        if awarded * points.denominator != points.numerator * denominator:
            raise TRFError(
                player["line"],
                f"player {player['start_number']} has {float(points):g} in the points column but the "
                f"results add up to {float(Fraction(awarded, denominator)):g} (no record 162, and no scoring system "
                "fits every player)",
            )
    raise TRFError(None, "no scoring system fits the points columns")  # pragma: no cover


def _last_round_played(parsed: dict[int, Player]) -> int:
    last = 0
    for player in parsed.values():
        for rnd, entry in enumerate(player["rounds"], start=1):
            if entry.opponent is not None or entry.code not in " AZ":
                last = max(last, rnd)
    return last


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
