"""Links to an event's entries, built from one reversed URL per page: used by the standings, wallchart and round
tables (leagues/public/table_rows.py) and by the {% entry_link %} tag of every other page
(leagues/templatetags/entry_links.py)."""

from html import escape as _escape

from django.urls import reverse
from django.utils.translation import gettext as _

from .models import Entry


def escape(value) -> str:
    return _escape(str(value))


NUMBER = 999999999  # stands for the start number in a reversed URL


def url_of(name: str, slug: str):
    """A function number -> the URL of `name` for that number in the event (escaped), from one reverse()."""
    head, _sep, tail = reverse(name, args=[slug, NUMBER]).rpartition(str(NUMBER))
    head, tail = escape(head), escape(tail)
    return lambda number: f"{head}{number}{tail}"


class EntryLinks:
    """Links to the pages of one event's entries (a player's or a team's), their names isolated. The one place of
    this markup: templates include leagues/_entry_link.html, which calls {% entry_link %}."""

    def __init__(self, slug: str):
        self.player_url = url_of("leagues:event-player", slug)
        self.team_url = url_of("leagues:event-team", slug)

    def link(self, entry: Entry) -> str:
        url = self.team_url(entry.start_number) if entry.team_id else self.player_url(entry.start_number)
        return f'<a href="{url}"><bdi>{escape(entry.name)}</bdi></a>' + withdrawn_mark(entry)


def withdrawn_mark(entry: Entry | None) -> str:
    """The mark after a withdrawn player's (team's) name on every page: "withdrawn", titled with the round."""
    after = entry.withdrawn_after_round if entry is not None else None
    if after is None:
        return ""
    title = escape(_("withdrew after round %(round)s") % {"round": after})
    return f' <span class="badge withdrawn" title="{title}">{escape(_("withdrawn"))}</span>'
