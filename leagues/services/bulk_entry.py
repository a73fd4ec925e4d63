"""Entering a whole list of players in an individual event at once: a pasted or uploaded list (CSV with a header
row, a spreadsheet, or FIDE's rating-list download) is read, every problem named by its line, and nothing is saved
until the organiser confirms. The confirmation checks the list again and enters every player in one transaction
through the registry (services.players.player_save) and the entry service (services.entries.entry_register), so the
start numbers follow the initial ranking as they do for a player entered by hand.

A newer rating list read during a season (``ratings_refresh_preview`` / ``ratings_refresh_confirm``) gives the
event's players their newer ratings from a round on (``EntryRating``): the ratings per round of FIDE's 2026
checklist.

Players are matched against the registry so that nobody is made twice: by FIDE id, else by name and birth year
(else, without a birth year, by name among the league's own players)."""

from __future__ import annotations

import csv
import dataclasses
import io
import re
import zipfile
from dataclasses import dataclass, field
from datetime import date

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from openpyxl import load_workbook

from ..errors import FieldError, PermissionDenied, ServiceError
from ..models import (
    Club,
    ClubMembership,
    Entry,
    EntryRating,
    Event,
    League,
    MemberRating,
    Player,
    ResultChange,
    SetupChange,
    TeamMember,
)
from ..page_cache import pages_changed
from ..permissions import AnyUser, is_league_organiser
from ..text import has_control_characters
from .entries import LATE_BYES, MAX_RATING, entry_register
from .federations import FIDE_FEDERATIONS
from .players import player_save, players_of_league
from .ratings import TeamRatings, rating_by_method, rating_in_round
from .results import event_results_changed
from .start_numbers import initial_ranking

#: the longest list read at once (a big open has a few hundred players)
MAX_LINES = 2000
#: what a header cell may be called (lower case, without spaces, dots, hyphens or underscores)
COLUMNS = {
    "name": "name",
    "player": "name",
    "fideid": "fide_id",
    "fide": "fide_id",
    "id": "fide_id",
    "idnumber": "fide_id",
    "rating": "rating",
    "elo": "rating",
    "rtg": "rating",
    "federation": "federation",
    "fed": "federation",
    "birthyear": "birth_year",
    "born": "birth_year",
    "bday": "birth_year",
    "yob": "birth_year",
    "sex": "sex",
    "gender": "sex",
    "title": "title",
    "tit": "title",
    "club": "club",
}
#: the columns of FIDE's rating list the site reads (the others are skipped)
FIDE_LIST_COLUMNS = {
    "id": "id",
    "name": "name",
    "fed": "federation",
    "sex": "sex",
    "tit": "title",
    "b-day": "birth_year",
}
#: a title as lists write it: FIDE's letters or TRF's lower-case codes
TITLES = {t.upper(): t for t in Player.Title.values} | {
    "G": "GM",
    "M": "IM",
    "F": "FM",
    "C": "CM",
    "WG": "WGM",
    "WM": "WIM",
    "WF": "WFM",
    "WC": "WCM",
}
SEXES = {"M": "m", "MALE": "m", "F": "w", "W": "w", "FEMALE": "w"}
#: a FIDE rating-list column that holds the standard rating: SRtng, Rtng, or the list's month (SEP26)
_RATING_HEADER = re.compile(r"^(S?RTNG|[A-Z]{3}\d{2})$", re.IGNORECASE)


@dataclass
class ListRow:
    """One player of the list, with what is wrong with it (nothing: it can be entered)."""

    line: int
    name: str = ""
    fide_id: int | None = None
    rating: int | None = None
    federation: str = ""
    birth_year: int | None = None
    sex: str = ""
    title: str = ""
    club_text: str = ""
    problems: list[str] = field(default_factory=list)
    club: Club | None = None
    player: Player | None = None  # the registry's player it is, if any

    def problem(self, message: str) -> None:
        self.problems.append(message)


@dataclass
class PlayerList:
    """A list read and checked: its rows and the problems of the whole list."""

    kind: str  # "csv", "xlsx" or "fide"
    rows: list[ListRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def lines_with_problems(self) -> list[ListRow]:
        return [row for row in self.rows if row.problems]

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not self.problems and not self.lines_with_problems

    @property
    def new_players(self) -> int:
        return sum(1 for row in self.rows if row.player is None)


# ------------------------------------------------------------------------------------------ reading


def decoded(content: bytes) -> str:
    """Text in UTF-8 (with or without a byte order mark), else Windows-1252 (Latin-1 with its extra letters)."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            return content.decode("cp1252")
        except UnicodeDecodeError:
            return content.decode("latin-1")


def read_player_list(content: bytes) -> PlayerList:
    """The list as rows of raw values: a spreadsheet (.xlsx), FIDE's rating-list text file, or CSV."""
    if content.startswith(b"PK"):
        return _read_xlsx(content)
    text = decoded(content)
    if text.lstrip().lower().startswith("id number"):
        return _read_fide_list(text)
    return _read_csv(text)


def _header_key(cell: str) -> str:
    return re.sub(r"[\s._\-]", "", cell.strip().lower())


#: the columns by their names in the site's languages too (a Greek list may say όνομα, αξιολόγηση, ...)
COLUMN_LABELS = {
    "name": gettext_lazy("name"),
    "fide_id": gettext_lazy("FIDE id"),
    "rating": gettext_lazy("Rating"),
    "federation": gettext_lazy("federation"),
    "birth_year": gettext_lazy("birth year"),
    "sex": gettext_lazy("sex"),
    "title": gettext_lazy("title"),
    "club": gettext_lazy("club"),
}


def _column_names() -> dict[str, str]:
    names = dict(COLUMNS)
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            names.update({_header_key(str(label)): key for key, label in COLUMN_LABELS.items()})
    return names


def _rows_from_table(kind: str, header: list[str], lines: list[tuple[int, list[str]]]) -> PlayerList:
    read = PlayerList(kind)
    names = _column_names()
    columns = [names.get(_header_key(cell)) for cell in header]
    if "name" not in columns:
        read.problems.append(
            _(
                "The first line must name the columns, e.g. name, FIDE id, rating, federation, birth year, sex, "
                "title, club; no column is called “name”."
            )
        )
        return read
    for number, cells in lines:
        if not any(cell.strip() for cell in cells):
            continue
        raw = {}
        for column, cell in zip(columns, cells, strict=False):
            if column and column not in raw:
                raw[column] = cell.strip()
        read.rows.append(_row(number, raw))
    return read


def _read_csv(text: str) -> PlayerList:
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    delimiter = max(";,\t", key=first.count)
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter)
    try:
        header = next(reader, [])
        lines = []
        for cells in reader:
            lines.append((reader.line_num, cells))
            if len(lines) > MAX_LINES:
                break
    except csv.Error as exc:
        read = PlayerList("csv")
        read.problems.append(_("Line %(line)s cannot be read: %(problem)s") % {"line": reader.line_num, "problem": exc})
        return read
    return _limited(_rows_from_table("csv", header, lines))


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _read_xlsx(content: bytes) -> PlayerList:
    try:
        book = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError):
        read = PlayerList("xlsx")
        read.problems.append(_("This file is no spreadsheet the site can read (an .xlsx file is)."))
        return read
    sheet = book.worksheets[0]
    rows = sheet.iter_rows(values_only=True)
    header = [_cell_text(v) for v in next(rows, ())]
    lines = []
    for number, values in enumerate(rows, start=2):
        lines.append((number, [_cell_text(v) for v in values]))
        if len(lines) > MAX_LINES:
            break
    book.close()
    return _limited(_rows_from_table("xlsx", header, lines))


def _read_fide_list(text: str) -> PlayerList:
    """FIDE's rating list as downloaded (players_list_foa.txt and the standard, rapid and blitz lists): fixed
    columns whose places the header line gives (ID Number, Name, Fed, Sex, Tit, WTit, OTit, FOA, the rating
    (SRtng, or the list's month such as SEP26), Gms, K, B-day, Flag)."""
    lines = text.splitlines()
    header = lines[0]
    starts: list[tuple[int, str]] = []
    for match in re.finditer(r"\S+", header):
        word = match.group()
        if word.lower() == "number" and starts and starts[-1][1] == "id":
            continue  # "ID Number" is one column
        key = FIDE_LIST_COLUMNS.get(word.lower(), "-" + word.lower())
        if _RATING_HEADER.match(word) and not any(k == "rating" for _start, k in starts):
            key = "rating"
        starts.append((match.start(), key))
    spans = [
        (key, start, starts[index + 1][0] if index + 1 < len(starts) else None)
        for index, (start, key) in enumerate(starts)
    ]
    read = PlayerList("fide")
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        raw = {}
        for key, start, end in spans:
            value = line[start:end].strip()
            if key == "id":
                raw["fide_id"] = value
            elif not key.startswith("-"):
                raw[key] = "" if key == "birth_year" and value.strip("0") == "" else value
        raw["title"] = raw.get("title") or raw.pop("woman_title", "")  # a WFM without an open title is a WFM
        read.rows.append(_row(number, raw))
        if len(read.rows) > MAX_LINES:
            break
    return _limited(read)


def _limited(read: PlayerList) -> PlayerList:
    if len(read.rows) > MAX_LINES:
        read.rows = read.rows[:MAX_LINES]
        read.problems.append(_("A list holds at most %(count)s players; split it.") % {"count": MAX_LINES})
    return read


def _row(number: int, raw: dict[str, str]) -> ListRow:
    """One line's values checked one by one."""
    row = ListRow(number, name=" ".join(raw.get("name", "").split()), club_text=raw.get("club", ""))
    if not row.name:
        row.problem(_("The name is missing."))
    elif has_control_characters(row.name) or len(row.name) > 200:
        row.problem(_("The name must be one line of at most 200 characters."))
    if fide_id := raw.get("fide_id", ""):
        if fide_id.isdigit() and 0 < int(fide_id) < 10**12:
            row.fide_id = int(fide_id)
        else:
            row.problem(_("The FIDE id “%(value)s” is not a number.") % {"value": fide_id})
    if rating := raw.get("rating", ""):
        if rating.isdigit() and int(rating) <= MAX_RATING:
            row.rating = int(rating) or None  # FIDE's lists write 0 for no rating
        else:
            row.problem(
                _("The rating “%(value)s” cannot be read: a number from 0 to %(max)s.")
                % {"value": rating, "max": MAX_RATING}
            )
    if federation := raw.get("federation", "").upper():
        if federation in FIDE_FEDERATIONS:
            row.federation = federation
        else:
            row.problem(_("“%(value)s” is no FIDE federation code (e.g. NOR, GRE, TUR).") % {"value": federation})
    if born := raw.get("birth_year", ""):
        if born.isdigit() and 1900 <= int(born) <= timezone.localdate().year:
            row.birth_year = int(born)
        else:
            row.problem(_("The birth year “%(value)s” cannot be read.") % {"value": born})
    if sex := raw.get("sex", ""):
        if sex.upper() in SEXES:
            row.sex = SEXES[sex.upper()]
        else:
            row.problem(_("The sex “%(value)s” cannot be read: M or W.") % {"value": sex})
    if title := raw.get("title", ""):
        if title.upper() in TITLES:
            row.title = TITLES[title.upper()]
        else:
            row.problem(_("“%(value)s” is no FIDE title (GM, IM, FM, CM, WGM, WIM, WFM, WCM).") % {"value": title})
    return row


# ------------------------------------------------------------------------------------------ checking


def _checked(event: Event, read: PlayerList) -> PlayerList:
    """The rows against the league: clubs, the registry, the event's entries, and each other."""
    league: League = event.league
    if event.is_team:
        read.problems.append(_("Players of a team event play in its teams' rosters."))
        return read
    if not read.rows and not read.problems:
        read.problems.append(_("The list has no players."))
    clubs = list(league.clubs.all())
    by_fide_id = {p.fide_id: p for p in Player.objects.filter(fide_id__in=[r.fide_id for r in read.rows if r.fide_id])}
    in_league = players_of_league(league)
    entered = {e.player_id: e for e in Entry.objects.filter(event=event, player__isnull=False)}
    seen_fide: dict[int, int] = {}
    seen_name: dict[tuple[str, int | None], int] = {}
    for row in read.rows:
        if row.club_text:
            row.club = _club(clubs, row.club_text)
            if row.club is None:
                row.problem(_("No club of the league is called “%(value)s”.") % {"value": row.club_text})
        elif not league.players_without_club:
            row.problem(_("The league enters players of its clubs only: name the club."))
        if row.fide_id:
            if row.fide_id in seen_fide:
                row.problem(
                    _("The FIDE id %(id)s is on line %(line)s already.")
                    % {"id": row.fide_id, "line": seen_fide[row.fide_id]}
                )
            seen_fide.setdefault(row.fide_id, row.line)
            row.player = by_fide_id.get(row.fide_id)
        elif row.name:
            key = (row.name.casefold(), row.birth_year)
            if key in seen_name:
                row.problem(_("The same player is on line %(line)s already.") % {"line": seen_name[key]})
            seen_name.setdefault(key, row.line)
            candidates = Player.objects.filter(name__iexact=row.name)
            candidates = (
                candidates.filter(birth_year=row.birth_year)
                if row.birth_year
                else candidates.filter(pk__in=in_league.values("pk"))
            )
            row.player = candidates.order_by("pk").first()
        if row.player is not None and row.player.pk in entered:
            row.problem(
                _("%(player)s is entered already (start number %(number)s).")
                % {"player": row.player.name, "number": entered[row.player.pk].start_number}
            )
    return read


def _club(clubs: list[Club], text: str) -> Club | None:
    wanted = text.casefold()
    for club in clubs:
        if wanted in (club.name.casefold(), club.short_name.casefold(), club.slug.casefold()):
            return club
    return None


def _allowed(event: Event, user: AnyUser) -> None:
    if not is_league_organiser(user, event.league_id):
        raise PermissionDenied(_("Only the league's organisers may set the league up."))
    if event.status == Event.Status.FINISHED:
        raise ServiceError(_("The event is finished; it can no longer change."), code="event_finished")


def bulk_entry_preview(*, event: Event, user: AnyUser, content: bytes) -> PlayerList:
    """The list read and checked against the league and the event; nothing is saved."""
    _allowed(event, user)
    return _checked(event, read_player_list(content))


def bulk_entry_confirm(
    *, event: Event, user: AnyUser, content: bytes, late_bye: str = "zero", source: str = ResultChange.Source.FORM
) -> list[Entry]:
    """Enter every player of the list, or none: the list is checked again (``list_has_problems`` with nothing
    saved when a line is wrong), new players join the registry, known ones are linked to the league, and each
    is entered in the order of FIDE's initial ranking, so the start numbers need no second pass."""
    if late_bye not in LATE_BYES:
        raise FieldError("late_bye", _("Choose the bye for the rounds missed."))
    _allowed(event, user)
    with transaction.atomic():
        event = Event.objects.select_for_update().select_related("league").get(pk=event.pk)
        checked = _checked(event, read_player_list(content))
        if not checked.ok:
            first = (checked.problems or [_line_problem(checked.lines_with_problems[0])])[0]
            raise ServiceError(
                _("Nothing was entered: %(problem)s") % {"problem": first},
                code="list_has_problems",
            )
        league = event.league
        pending = []
        for index, row in enumerate(checked.rows, start=1):
            player = row.player
            if player is None:
                player = player_save(league=league, user=user, fields=_new_player_fields(row), club=row.club)
            else:
                league.players.add(player)
                if row.club is not None:
                    ClubMembership.objects.get_or_create(player=player, club=row.club)
            rating = row.rating if row.rating is not None else rating_by_method(player, event.rating_method)
            pending.append(Entry(event=event, player=player, rating=rating, start_number=index))
        entries = [
            entry_register(event=event, user=user, player=player, rating=entry.rating, late_bye=late_bye)
            for entry in initial_ranking(pending, event.unrated_rating)
            if (player := entry.player) is not None
        ]
        SetupChange.objects.create(
            league=league,
            user=user if isinstance(user, User) else None,
            subject=SetupChange.Subject.ENTRY,
            action=SetupChange.Action.ENTERED,
            name=_("%(count)s players (%(new)s new in the registry)")
            % {"count": len(entries), "new": checked.new_players},
            event_name=event.name,
            source=source,
        )
        return entries


def _line_problem(row: ListRow) -> str:
    return _("line %(line)s: %(problem)s") % {"line": row.line, "problem": row.problems[0]}


def _new_player_fields(row: ListRow) -> dict[str, object]:
    return {
        "name": row.name,
        "fide_id": row.fide_id,
        "rating": row.rating,
        "federation": row.federation,
        "birth_year": row.birth_year,
        "sex": row.sex,
        "title": row.title,
    }


# ------------------------------------------------------------------------------------------ ratings from a newer list


@dataclass
class RatingChange:
    """One player whose rating a newer list changes from a round on: an individual event's entry, or a team
    event's board player (``entry`` None, ``team`` the team they are on the roster of)."""

    line: int
    player: Player
    number: int  # the entry's start number; a team player's: the team's
    name: str
    before: int | None  # the rating the player has in that round until now
    after: int | None
    entry: Entry | None = None
    team: str = ""


@dataclass
class RatingRefresh:
    """A newer rating list read against the event's players: what changes from which round; nothing is saved until
    the organiser confirms."""

    from_round: int
    list_date: date | None
    changes: list[RatingChange] = field(default_factory=list)
    unchanged: int = 0  # players on the list whose rating stays
    not_entered: int = 0  # lines naming no player of the event (a whole federation's list, say)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _from_round(event: Event, from_round: int | None, list_date: date | None) -> int:
    """The round the newer ratings apply from: the one given, else the first round played on or after the list's
    date."""
    if from_round is None and list_date is not None:
        dated = event.rounds.filter(date__gte=list_date).order_by("number").values_list("number", flat=True).first()
        if dated is None:
            raise FieldError("list_date", _("No round of the event is played on or after the list's date."))
        from_round = dated
    if from_round is None:
        raise FieldError("from_round", _("Name the round the newer ratings apply from, or the list's date."))
    if not 2 <= from_round <= event.rounds_count:
        raise FieldError(
            "from_round",
            _("A newer rating applies from round 2 to round %(last)s; round 1 uses the rating at start.")
            % {"last": event.rounds_count},
        )
    return from_round


def _rated_players(event: Event, from_round: int) -> list[RatingChange]:
    """The event's players as a newer list may change them, each with the rating they have in `from_round` until
    now: an individual event's entries; a team event's rostered players (ratings per round for the boards'
    players, FIDE's 2026 checklist)."""
    if not event.is_team:
        entries = event.entries.filter(player__isnull=False).select_related("player").prefetch_related("round_ratings")
        return [
            RatingChange(
                line=0,
                player=e.player,
                number=e.start_number,
                name=e.name,
                before=rating_in_round(e.rating, [(r.from_round, r.rating) for r in e.round_ratings.all()], from_round),
                after=None,
                entry=e,
            )
            for e in entries
            if e.player is not None
        ]
    members = TeamMember.objects.filter(team__event=event).select_related("player", "team")
    members = members.order_by("team__entry__start_number", "board_order")
    seen: set[int] = set()
    found = []
    ratings = TeamRatings(event, {m.player_id for m in members})
    for member in members:
        if member.player_id in seen:
            continue
        seen.add(member.player_id)
        entry = Entry.objects.filter(team=member.team_id).values_list("start_number", flat=True).first()
        found.append(
            RatingChange(
                line=0,
                player=member.player,
                number=entry or 0,
                name=member.player.name,
                before=ratings.in_round(member.player, from_round),
                after=None,
                team=member.team.name,
            )
        )
    return found


def _refresh_read(event: Event, content: bytes, from_round: int, list_date: date | None) -> RatingRefresh:
    read = read_player_list(content)
    refresh = RatingRefresh(from_round=from_round, list_date=list_date, problems=list(read.problems))
    for row in read.lines_with_problems:
        refresh.problems.append(_line_problem(row))
    rated = _rated_players(event, from_round)
    by_fide_id = {r.player.fide_id: r for r in rated if r.player.fide_id}
    by_name: dict[str, list[RatingChange]] = {}
    for r in rated:
        by_name.setdefault(r.player.name.casefold(), []).append(r)
    seen: dict[int, int] = {}
    for row in read.rows:
        if row.problems:
            continue
        found = by_fide_id.get(row.fide_id) if row.fide_id else None
        if found is None and not row.fide_id:
            named = by_name.get(row.name.casefold(), [])
            found = named[0] if len(named) == 1 else None
        if found is None:
            refresh.not_entered += 1
            continue
        if found.player.pk in seen:
            refresh.problems.append(
                _("line %(line)s: %(player)s is on line %(first)s already.")
                % {"line": row.line, "player": found.name, "first": seen[found.player.pk]}
            )
            continue
        seen[found.player.pk] = row.line
        if row.rating is None:  # the list gives no rating: the player keeps the one they have
            refresh.unchanged += 1
            continue
        if found.before == row.rating:
            refresh.unchanged += 1
        else:
            refresh.changes.append(dataclasses.replace(found, line=row.line, after=row.rating))
    return refresh


def ratings_refresh_preview(
    *, event: Event, user: AnyUser, content: bytes, from_round: int | None = None, list_date: date | None = None
) -> RatingRefresh:
    """A newer rating list read against the event's players (by FIDE id, else by name; a team event's: its
    rostered players): whose rating changes from which round (given, or the first round on or after the list's
    date). Nothing is saved."""
    _allowed(event, user)
    return _refresh_read(event, content, _from_round(event, from_round, list_date), list_date)


def ratings_refresh_confirm(
    *,
    event: Event,
    user: AnyUser,
    content: bytes,
    from_round: int | None = None,
    list_date: date | None = None,
    source: str = ResultChange.Source.FORM,
) -> RatingRefresh:
    """Every rating the newer list changes, from that round on, or none (``list_has_problems``). Round 1 and the
    rounds before keep the ratings they had: the player pages, the rating-based tie-breaks (when the event reads
    the rating of each round) and the rating report show each round's rating. A team event's player without a
    rating of round 1 yet keeps the registry's of now for the rounds before."""
    _allowed(event, user)
    with transaction.atomic():
        event = Event.objects.select_for_update().select_related("league").get(pk=event.pk)
        refresh = _refresh_read(event, content, _from_round(event, from_round, list_date), list_date)
        if not refresh.ok:
            raise ServiceError(
                _("Nothing was changed: %(problem)s") % {"problem": refresh.problems[0]}, code="list_has_problems"
            )
        for change in refresh.changes:
            if change.entry is not None:
                EntryRating.objects.update_or_create(
                    entry=change.entry,
                    from_round=refresh.from_round,
                    defaults={"rating": change.after, "list_date": list_date},
                )
                continue
            MemberRating.objects.get_or_create(  # the rounds before keep the rating they had
                event=event,
                player=change.player,
                from_round=1,
                defaults={"rating": rating_by_method(change.player, event.rating_method)},
            )
            MemberRating.objects.update_or_create(
                event=event,
                player=change.player,
                from_round=refresh.from_round,
                defaults={"rating": change.after, "list_date": list_date},
            )
        if refresh.changes:
            SetupChange.objects.create(
                league=event.league,
                user=user if isinstance(user, User) else None,
                subject=SetupChange.Subject.ENTRY,
                action=SetupChange.Action.RATED,
                name=_("%(count)s ratings from round %(round)s")
                % {"count": len(refresh.changes), "round": refresh.from_round},
                event_name=event.name,
                source=source,
            )
            pages_changed(event_id=event.pk)
            if event.results_version:  # the standings read the ratings (and the rating of each round, if chosen)
                event_results_changed(event_id=event.pk)
        return refresh
