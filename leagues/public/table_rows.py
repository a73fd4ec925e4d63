"""The body rows of the big tables (standings, Swiss wallchart, a round's pairings), built as HTML in Python.

A 1,000-player open has 1,000 rows of 20 cells: through the template engine (about 20 µs a variable) they took
most of a second to render. Here each translated word is looked up once per table and each link is built from
one reversed URL, and every value is escaped as the template would have escaped it (Django's escape is the
standard library's, called here without its lazy-string wrapper).
"""

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from html import escape as _escape

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ..links import EntryLinks, withdrawn_mark
from ..models import Club, Result
from ..selectors import ClubRow, RoundCell


def escape(value) -> str:
    return _escape(str(value))


def plain_number(value) -> str:
    """A number as the browser reads it (a data-v attribute): unlocalised, at most two decimals, no trailing zeros."""
    number = Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return format(number.normalize(), "f")


def _number_cell(shown: str, value, ltr_cell: str, plain: dict) -> str:
    """A cell showing a number as the page's language writes it. When that is not the number's plain form ("2,5"
    in Norwegian, a dash for none), the plain form is the cell's data-v, which standings.js sorts by: the browser
    never reads a number from localised text, and an English page's cells carry no attribute they would not need.
    Each different cell is made once per table (`plain` keeps them too)."""
    key = ("cell", shown, value)
    cell = plain.get(key)
    if cell is None:
        cell = plain[key] = _new_number_cell(shown, value, ltr_cell, plain)
    return cell


def _new_number_cell(shown: str, value, ltr_cell: str, plain: dict) -> str:
    attribute = ""
    if value is not None:
        if value not in plain:
            plain[value] = plain_number(value)
        if plain[value] != shown:
            attribute = f' data-v="{plain[value]}"'
    return f"<td{ltr_cell}{attribute}>{escape(shown)}</td>"


def _text(value) -> str:
    """A value as a template shows it: None as nothing, else escaped."""
    return "" if value is None else escape(value)


def wallchart_rows(lines: list[dict], *, slug: str) -> SafeString:
    """The wallchart's rows: place, name, start number, rating, points, one cell per round (opponent's start
    number, colour, result; a bye; or a dot for no game), then the tie-breaks.

    A 1,000-player open's wallchart has thousands of cells of a few dozen different values: each symbol, colour,
    bye's result and tie-break value is escaped once per table, each opponent's link and name once."""
    links = EntryLinks(slug)
    bye = escape(_("bye"))
    colours = {
        colour: f'<span class="colour colour-{colour}" title="{escape(name)}">{escape(letter)}</span>'
        for colour, name, letter in (
            ("w", _("White"), pgettext("white pieces, one letter", "w")),
            ("b", _("Black"), pgettext("black pieces, one letter", "b")),
        )
    }
    table = _WallchartTable(
        opponents={},
        player_url=links.player_url,
        bye=bye,
        colours=colours,
        # the link's name says whom and which round, beginning with the number it shows (WCAG 2.5.3)
        named=escape(_("%(number)s %(name)s, round %(round)s")),
        # a result whose game has moves links to the game's page, named by the result it shows and the round
        games=(game_url_prefix(slug), escape(_("%(result)s, the game of round %(round)s"))),
        results={value: escape(label) for value, label in Result.choices},
        symbols={},
    )
    shown: dict = {}  # a value -> escaped: a big open's thousands of values are a few dozen different ones

    def escaped(value) -> str:
        known = shown.get(value)
        if known is None:
            known = shown[value] = escape(value)
        return known

    out = []
    for line in lines:
        entry = line["entry"]
        cells = "".join(_wallchart_cell(cell, table) for cell in line["cells"])
        tiebreaks = "".join(f'<td class="num tb" dir="ltr">{escaped(value)}</td>' for value in line["tiebreaks"])
        out.append(
            "\n    <tr>\n"
            f'      <td class="rank sticky-1"><bdi dir="ltr">{escaped(line["place"])}</bdi></td>\n'
            f'      <th scope="row" class="name sticky-2">{links.link(entry)}\n</th>\n'
            f'      <td class="num opt" dir="ltr">{entry.start_number}</td>\n'
            f'      <td class="num opt" dir="ltr">{_text(entry.rating)}</td>\n'
            f'      <td class="num points"><bdi dir="ltr">{escaped(line["points"])}</bdi></td>\n'
            f"      {cells}\n"
            f"      {tiebreaks}\n"
            "    </tr>\n  "
        )
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


@dataclass
class _WallchartTable:
    """What a wallchart's cells share: each opponent's page and escaped name (by entry id), the player pages'
    address, the escaped words and their link names, the results' names and the symbols, escaped once."""

    opponents: dict
    player_url: Callable[[int], str]
    bye: str
    colours: dict[str, str]
    named: str
    games: tuple[str, str]
    results: dict[str, str]
    symbols: dict[str, str]


def game_url_prefix(slug: str) -> str:
    """The address of the event's game pages without the game's number: one reverse() for a whole table."""
    return reverse("leagues:game", args=[slug, 0]).removesuffix("0/")


def game_link(prefix: str, game_id: int, shown: str, label: str) -> str:
    """A result (escaped already) linking to its game's page; `label`, if any, is the link's name."""
    named = f' aria-label="{label}"' if label else ""
    return f'<a href="{prefix}{game_id}/"{named}>{shown}</a>'


def _wallchart_cell(cell: RoundCell | None, table: _WallchartTable) -> str:
    if cell is None:
        return '<td class="num wall"><span class="muted">·</span></td>'
    symbol = table.symbols.get(cell.code)
    if symbol is None:
        symbol = table.symbols[cell.code] = escape(cell.symbol)
    if cell.opponent is None:
        game = cell.game
        label = (table.results.get(game.result) or escape(game.result)) if game else ""
        return f'<td class="num wall"><span title="{label}"><bdi dir="ltr">{table.bye} {symbol}</bdi></span></td>'
    opponent = cell.opponent
    number = opponent.start_number
    known = table.opponents.get(opponent.pk)
    if known is None:
        known = table.opponents[opponent.pk] = (table.player_url(number), escape(opponent.name))
    url, name = known
    label = table.named % {"number": number, "name": name, "round": cell.round}
    link = f'<a href="{url}" title="{name}" aria-label="{label}">{number}</a>'
    colour = table.colours["w"] if cell.colour == "w" else table.colours["b"]
    if cell.moves and cell.game is not None and symbol:
        prefix, game_named = table.games
        symbol = game_link(prefix, cell.game.pk, symbol, game_named % {"result": symbol, "round": cell.round})
    return f'<td class="num wall"><bdi dir="ltr">{link}{colour}{symbol}</bdi></td>'


def _club(club: Club | ClubRow, clubs: dict[str, tuple[str, str, str]]) -> tuple[str, str, str]:
    """A club's escaped slug, name as the standings show it and page address, made once per table (`clubs`)."""
    known = clubs.get(club.slug)
    if known is None:
        url = escape(reverse("leagues:club", args=[club.slug]))
        known = clubs[club.slug] = (escape(club.slug), escape(club.short_name or club.name), url)
    return known


def standings_rows(table: list[dict], *, is_team: bool, ltr_cell: str) -> SafeString:
    """The standings' rows: place (a shared one titled so), number, title, name (linked, with its category
    badges and, for players, the club), federation and rating (players), club, the match record (teams),
    points (players) and the tie-breaks. `ltr_cell` is the attribute keeping numbers left to right on a
    right-to-left page ("" on a left-to-right one).

    The cells carry no class (a 1,000-player open has 13,000 of them, a third of the page's bytes went to
    classes): the name is the row's header cell and site.css gives every other cell its column's look by its
    place among the row's data cells, in the order written here."""
    shared_place = escape(_("shared place"))
    clubs: dict[str, tuple[str, str, str]] = {}  # slug -> its escaped slug, name and page
    plain: dict = {}  # value -> its plain form: a big open's thousands of values are a few dozen different ones
    shown: dict = {}  # a place, federation, rating or title -> escaped: a few hundred different ones in a big open

    def escaped(value) -> str:
        known = shown.get(value)
        if known is None:
            known = shown[value] = _text(value)
        return known

    out = []
    for row in table:
        entry = row["entry"]
        club = entry.club_display if entry is not None else None
        categories = row["categories"]
        attributes = ' class="shared"' if row["shared"] else ""
        if club:
            club_slug, club_name, club_url = _club(club, clubs)
            attributes += f' data-club="{club_slug}"'
        if categories:
            attributes += f' data-cat="{"|".join(escape(name) for name in categories)}"'
        place = escaped(row["place"])
        if row["shared"]:
            place = f'<span title="{shared_place}">{place}</span>'
        title = inline_title = ""
        if row["title"]:
            title_name = escaped(entry.player.get_title_display()) if entry is not None and entry.player_id else ""
            title_text = escaped(row["title"])
            title = f'<abbr class="chess-title" title="{title_name}">{title_text}</abbr>'
            inline_title = f'<abbr class="chess-title inline-title" title="{title_name}">{title_text}</abbr> '
        if entry is not None:
            kind = "teams" if entry.team_id else "players"
            name = f'<a href="{kind}/{entry.start_number}/"><bdi>{escape(entry.name)}</bdi></a>'
        else:
            name = f"<bdi>{escape(row['name'])}</bdi>"
        name += withdrawn_mark(entry)
        name += "".join(f' <span class="badge">{escape(category)}</span>' for category in categories)
        if club and not is_team:
            name += f'<span class="club-inline muted"><bdi>{club_name}</bdi></span>'
        if club:
            club_cell = f'<a href="{club_url}"><bdi>{club_name}</bdi></a>'
        else:
            club_cell = ""
        if ltr_cell:  # the place's own direction, not its cell's: the cell sticks to the start of a Hebrew line
            place = f'<bdi dir="ltr">{place}</bdi>'
        parts = [f"<tr{attributes}><td>{place}</td><td{ltr_cell}>{escape(row['number'])}</td>"]
        if not is_team:
            parts.append(f"<td>{title}</td>")
        parts.append(f'<th scope="row">{inline_title}{name}</th>')
        if not is_team:
            parts.append(f"<td{ltr_cell}>{escaped(row['federation'])}</td><td{ltr_cell}>{escaped(row['rating'])}</td>")
        parts.append(f"<td>{club_cell}</td>")
        if is_team:
            parts.extend(f"<td{ltr_cell}>{escape(n)}</td>" for n in row["record"])
        else:
            parts.append(_number_cell(row["points_display"], row["points"], ltr_cell, plain))
        parts.extend(
            _number_cell(shown, value, ltr_cell, plain)
            for shown, value in zip(row["cells_display"], row["cells_value"], strict=True)
        )
        parts.append("</tr>\n")
        out.append("".join(parts))
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


def published_pairing_rows(
    boards: list, *, slug: str, round_number: int = 0, with_moves: frozenset[int] = frozenset()
) -> SafeString:
    """The published pairings' boards: board; White's number, name, rating and points before the round; the result
    (a dash before it is played); Black's points before the round, name, rating and number. On a phone only the
    board, the names and the result are shown (the others are "opt"), so a board reads in one row. The result of a
    game in `with_moves` links to the game's page."""
    links = EntryLinks(slug)
    results = {value: escape(label) for value, label in Result.choices}
    words = {value for value, label in Result.choices if " " in str(label)}  # "white wins by forfeit" may wrap
    prefix, game_named = game_url_prefix(slug), escape(_("%(result)s, the game of round %(round)s"))
    out = []
    for row in boards:
        white, black = row.white, row.black
        game_result = row.game.result if row.game is not None else ""
        result = results.get(game_result, escape(game_result)) if game_result else escape(row.score) or "–"
        result_class = "result words" if game_result in words else "result"
        if row.game is not None and row.game.pk in with_moves:  # its moves: a link to the game's page
            result = game_link(prefix, row.game.pk, result, game_named % {"result": result, "round": round_number})
        out.append(
            f'<tr>\n    <td class="num"><bdi dir="ltr">{row.number}</bdi></td>\n'
            f'    <td class="num opt"><bdi dir="ltr">{white.entry.start_number}</bdi></td>'
            f"<td>{links.link(white.entry)}</td>"
            f'<td class="num opt"><bdi dir="ltr">{_text(white.entry.rating)}</bdi></td>'
            f'<td class="num opt"><bdi dir="ltr">{escape(white.shown_points)}</bdi></td>\n'
            f'    <td class="{result_class}"><bdi dir="ltr">{result}</bdi></td>\n'
            f'    <td class="num opt"><bdi dir="ltr">{escape(black.shown_points)}</bdi></td>'
            f"<td>{links.link(black.entry)}</td>"
            f'<td class="num opt"><bdi dir="ltr">{_text(black.entry.rating)}</bdi></td>'
            f'<td class="num opt"><bdi dir="ltr">{black.entry.start_number}</bdi></td>\n  </tr>'
        )
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


def pairing_rows(games: list, *, slug: str, before: Callable[[int], str]) -> SafeString:
    """A round's boards: board, White's rating, name and points before the round (`before`: an entry's, as text),
    the result (or "not played yet"), Black's points before the round, name and rating."""
    links = EntryLinks(slug)
    results = {value: escape(label) for value, label in Result.choices}
    words = {value for value, label in Result.choices if " " in str(label)}  # "white wins by forfeit" may wrap
    not_played = f'<span class="muted">{escape(_("not played yet"))}</span>'
    game_url = game_url_prefix(slug)  # the game's page: its moves
    out = []
    for game in games:
        result = results.get(game.result, escape(game.result)) if game.result else not_played
        result = f'<a href="{game_url}{game.pk}/">{result}</a>'
        result_class = "result words" if not game.result or game.result in words else "result"
        out.append(
            f'\n      <tr><td class="num" dir="ltr">{game.board}</td>\n'
            f'        <td class="num opt" dir="ltr">{_text(game.white.rating)}</td>\n'
            f"        <td>{links.link(game.white)}\n</td>\n"
            f'        <td class="num opt" dir="ltr">{escape(before(game.white_id))}</td>\n'
            f'        <td class="{result_class}"><bdi dir="ltr">{result}</bdi></td>\n'
            f'        <td class="num opt" dir="ltr">{escape(before(game.black_id))}</td>\n'
            f"        <td>{links.link(game.black)}\n</td>\n"
            f'        <td class="num opt" dir="ltr">{_text(game.black.rating)}</td></tr>\n    '
        )
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped
