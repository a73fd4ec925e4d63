"""Public pages. Thin: read through selectors (the latest snapshot, stored games), shape for templates.

No page runs the tie-break engine: values and their explanations come from the standings snapshot.
"""

import csv
import dataclasses
import io
from decimal import Decimal

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, get_language_bidi
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tiebreaks.engine.rating_change import (
    K_JUNIOR,
    K_LISTED,
    K_NEW_PLAYER,
    K_REACHED_2400,
    K_UNDER_2400,
    K_UNDER_2400_ASSUMED,
)
from tiebreaks.engine.separation import first_difference
from tiebreaks.explanations import explain_trace, fmt, separation_sentence, standings_note
from tiebreaks.names import criterion_name, rule_set_name

from .. import selectors
from ..dates import event_dates, league_dates
from ..errors import ServiceError
from ..models import Club, Entry, Event, Player, Season
from ..page_cache import cached_page, read_once_per_stamp
from ..permissions import is_league_organiser
from ..selectors import search_players
from ..services.players import leagues_of_player, player_set_anonymised
from ..services.prizes import category_badges
from ..services.ratings import event_record, player_events
from ..services.tiebreak_decisions import decision_sentences, playoff_sentences
from ..text import csv_cell, one_line
from . import charts, table_rows
from .board_stats import board_statistics
from .fide_check import fide_check_view

TEAM_SCORES = ["MPTS", "GPTS"]


def _event_or_404(slug: str) -> Event:
    try:
        return selectors.public_event(slug=slug)
    except Event.DoesNotExist:
        raise Http404 from None


def _standings_or_404(slug: str, traces_of: tuple[int, ...] = (), rows: bool = False) -> selectors.EventStandings:
    """The standings with the entries, read once for the pages rendered under the same stamp, and the traces of the
    participants `traces_of` (each page its own). `rows`: the entries as plain rows (`entry_rows`), for the big
    tables (a 1,000-player open's standings and wallchart), else as model instances (`entries`)."""
    try:
        shared = read_once_per_stamp(
            ("standings-rows" if rows else "standings", slug),
            lambda: selectors.event_standings(slug=slug, with_entries=not rows, with_rows=rows),
        )
    except Event.DoesNotExist:
        raise Http404 from None
    return shared.with_traces(traces_of)


def _columns(standings: selectors.EventStandings) -> list[str]:
    """Tie-break columns in published order; team events show match points and game points first."""
    criteria = list(standings.criteria)
    if standings.event.is_team:
        return TEAM_SCORES + [code for code in criteria if code not in TEAM_SCORES]
    return criteria


def _shown():
    """A function value -> as shown (fmt), each different value formatted once: a big open's few thousand values
    are a few dozen different ones."""
    shown: dict = {}

    def show(value) -> str:
        if value not in shown:
            shown[value] = fmt(value)
        return shown[value]

    return show


def _table(standings: selectors.EventStandings, columns: list[str], badges: dict | None = None) -> list[dict]:
    """The standings' rows with what the page shows of them (an entry's a plain row or a model instance)."""
    show = _shown()
    rows = []
    for row in standings.table:
        entry = row["entry"]
        player = entry.player if entry is not None and entry.player_id else None
        rows.append(
            {
                **row,
                "points_display": show(row["points"]),
                "cells_display": [show(row["values"].get(code)) for code in columns],
                "cells_value": [row["values"].get(code) for code in columns],
                "title": player.title if player else row.get("title", ""),
                "federation": player.federation if player else row.get("federation", ""),
                "rating": entry.rating if entry is not None else row.get("rating"),
                "categories": (badges or {}).get(row["number"], []),
            }
        )
    return rows


def _filters(table: list[dict]) -> dict:
    """The choices of the standings' filters: the clubs, federations and categories present."""
    clubs = {row["entry"].club_display for row in table if row["entry"] is not None and row["entry"].club_display}
    return {
        "clubs": sorted(clubs, key=lambda club: club.name),
        "federations": sorted({row["federation"] for row in table if row["federation"]}),
        "categories": sorted({name for row in table for name in row["categories"]}),
        "rated": any(row["rating"] for row in table),
    }


def _prizes_url(event: Event) -> str:
    """The event's prize page, when the prizes app is installed (its URLs are not ours)."""
    try:
        return reverse("leagues:event-prizes", kwargs={"slug": event.slug})
    except NoReverseMatch:
        return ""


def _event_context(event: Event, **extra) -> dict:
    """What every event page needs: the event and the rounds that exist (paired or played)."""
    return {
        "event": event,
        "prizes_url": _prizes_url(event),
        "pts": criterion_name("PTS"),
        "round_numbers": list(event.rounds.order_by("number").values_list("number", flat=True)),
        "live": event.status == Event.Status.RUNNING,
        "live_seconds": settings.LIVE_REFRESH_SECONDS,
        **extra,
    }


def home(request):
    return render(
        request, "leagues/home.html", {"leagues": selectors.leagues_with_events(), "seasons": selectors.seasons_list()}
    )


def _cached(request, slug: str, name: str, render, store=True, explained=False):
    """An event page rendered once per change of the event and language, then served from the cache, with an
    ETag and Last-Modified: a reader's (or the live refresh's, or a CDN's) conditional request gets 304 while
    nothing changed. `store=False` for pages of too many variants to keep (rendered each time)."""
    return cached_page(
        slug=slug,
        name=f"{name}-{get_language()}",
        database_stamp=lambda: selectors.event_stamp(slug=slug),
        render=lambda: event_dates(slug, render),
        request=request,
        store=store,
        explained=explained,
    )


def _for_rule_set(name, standings):
    """A FIDE article is no reference for an event under another rule book (US Chess SB is 34E8)."""
    rules = standings.snapshot.rules if standings.snapshot else standings.event.rule_set
    if rules.startswith("fide") or not name.article:
        return name
    return dataclasses.replace(name, article="", rule="34E8" if rules.startswith("us-chess") else "")


def render_standings_of(request, standings):
    """The standings page (a cup's standings address shows its bracket instead: public/cups.py), from standings
    read with the entries as plain rows (`_standings_or_404(..., rows=True)`)."""
    slug = standings.event.slug
    columns = _columns(standings)
    badges = category_badges(standings.event, standings.snapshot, standings.entry_rows)
    table = _table(standings, columns, badges)
    context = _event_context(
        standings.event,
        standings=standings,
        columns=[_for_rule_set(criterion_name(code), standings) for code in columns],
        table=table,
        filters=_filters(table),
        embed_url=reverse("embed:standings", args=[get_language(), slug]),
        results_embed_url=reverse("embed:results", args=[get_language(), slug]),
        round_progress=selectors.round_progress(standings.event),
        rules_name=rule_set_name(standings.snapshot.rules if standings.snapshot else standings.event.rule_set),
        notes=[standings_note(note, isolated=True) for note in standings.notes],
        has_shared=any(row["shared"] for row in table),
        active="standings",
        fide_check=fide_check_view(standings.event),
        # numbers keep left to right inside a right-to-left page; a left-to-right page needs no attribute on
        # each of a big open's ten thousand cells (they inherit its direction)
        ltr_cell=mark_safe(' dir="ltr"') if get_language_bidi() else "",
    )
    context["provisional"] = []
    if standings.event.is_team:
        cards = selectors.match_cards(standings.event, players=False)
        context["provisional"] = selectors.unconfirmed_matches(cards)
        records = selectors.team_records(cards)
        for row in context["table"]:
            row["record"] = records.get(row["entry"].id, (0, 0, 0, 0)) if row["entry"] else (0, 0, 0, 0)
        entries: list = list(standings.entry_rows.values())
        race = selectors.match_point_race(standings.event, cards, entries)
        rounds = max((len(v) for v in race.values()), default=0)
        if rounds:
            order = [row["entry"] for row in context["table"] if row["entry"]] or entries
            series = [charts.Series(entry.name, race[entry.id]) for entry in order]
            context["race_chart"] = charts.race_chart(
                title=_("Match points after each round"),
                description=_("The match-point race of the division, one line per team."),
                series=series,
                rounds=rounds,
            )
            context["race_legend"] = charts.legend(series)
            context["race_rounds"] = list(range(1, rounds + 1))
            context["race_rows"] = [(entry, [fmt(v) for v in race[entry.id]]) for entry in order]
    context["decisions"] = [] if standings.event.is_team else decision_sentences(standings.event)
    context["playoffs"] = [] if standings.event.is_team else playoff_sentences(standings.event)
    context["standings_rows"] = table_rows.standings_rows(
        context["table"], is_team=standings.event.is_team, ltr_cell=context["ltr_cell"]
    )
    return render(request, "leagues/standings.html", context)


def _team_grid(event: Event, order: list[Entry], place_of: dict) -> list[dict]:
    """Round-robin grid of a team event: each cell the match score(s), row team first."""
    scores: dict[tuple[int, int], list[dict[str, str]]] = {}
    for card in selectors.match_cards(event, players=False):
        if not card.finished:
            continue
        home, away = card.match.home_id, card.match.away_id
        scores.setdefault((home, away), []).append({"symbol": f"{fmt(card.home_points)}–{fmt(card.away_points)}"})
        scores.setdefault((away, home), []).append({"symbol": f"{fmt(card.away_points)}–{fmt(card.home_points)}"})
    return [
        {
            "entry": entry,
            "place": place_of.get(entry.start_number, ""),
            "cells": [None if other == entry else scores.get((entry.id, other.id), []) for other in order],
        }
        for entry in order
    ]


def _round_robin_grid(cells: dict, order: list[Entry], place_of: dict) -> list[dict]:
    """Round-robin grid of an individual event: each cell the result(s) of the row player, each linking to its game's
    page when the game has moves."""
    results: dict[tuple[int, int], list[dict]] = {}
    for entry in order:
        for cell in cells[entry.id].values():
            if cell.opponent is not None and cell.symbol:
                game = cell.game.pk if cell.moves and cell.game is not None else None
                results.setdefault((entry.id, cell.opponent.id), []).append(
                    {"symbol": cell.symbol, "game": game, "round": cell.round}
                )
    return [
        {
            "entry": entry,
            "place": place_of.get(entry.start_number, ""),
            "points": fmt(sum((c.points for c in cells[entry.id].values()), Decimal(0))),
            "cells": [None if other == entry else results.get((entry.id, other.id), []) for other in order],
        }
        for entry in order
    ]


def _wallchart(cells: dict, order: list, place_of: dict, played: int) -> list[dict]:
    """Swiss wallchart: per round the opponent's start number (unique, unlike shared places), the colour and
    the result. Each different score is formatted once (a 1,000-player open's are a dozen)."""
    shown: dict[Decimal, str] = {}
    lines = []
    for entry in order:
        own = cells[entry.id]
        points = sum((c.points for c in own.values()), Decimal(0))
        if points not in shown:
            shown[points] = fmt(points)
        lines.append(
            {
                "entry": entry,
                "place": place_of.get(entry.start_number, ""),
                "cells": [own.get(number) for number in range(1, played + 1)],
                "points": shown[points],
            }
        )
    return lines


def event_crosstable(request, slug):
    return _cached(request, slug, "crosstable", lambda: _render_crosstable(request, slug))


def _render_crosstable(request, slug):
    standings = _standings_or_404(slug, rows=True)
    event = standings.event
    entries: list = sorted(standings.entry_rows.values(), key=lambda e: e.start_number)
    columns = _columns(standings)
    table = standings.table
    order = [row["entry"] for row in table if row["entry"]]
    ranked = {entry.id for entry in order}
    order += [e for e in entries if e.id not in ranked]  # entries not in the standings yet
    place_of = {row["number"]: row["place"] for row in table}
    show = _shown()
    tiebreaks = {row["number"]: [show(row["values"].get(code)) for code in columns] for row in table}
    context = _event_context(
        event,
        standings=standings,
        active="crosstable",
        order=order,
        columns=[_for_rule_set(criterion_name(code), standings) for code in columns],
    )
    if event.is_team:
        lines, kind = _team_grid(event, order, place_of), "grid"
    else:
        _rounds, cells = selectors.individual_rounds(event, entries)
        if event.is_round_robin:
            lines, kind = _round_robin_grid(cells, order, place_of), "grid"
        else:
            played = selectors.completed_rounds(event)
            lines, kind = _wallchart(cells, order, place_of, played), "wallchart"
            context["played_rounds"] = list(range(1, played + 1))
    for line in lines:
        line["tiebreaks"] = tiebreaks.get(line["entry"].start_number, [])
    context.update(kind=kind, grid=lines, wallchart=lines)
    if kind == "wallchart":
        context["wallchart_rows"] = table_rows.wallchart_rows(lines, slug=slug)
    return render(request, "leagues/crosstable.html", context)


def event_round(request, slug, number):
    return _cached(request, slug, f"round-{number}", lambda: _render_round(request, slug, number))


def _render_round(request, slug, number):
    event = _event_or_404(slug)
    rnd = event.rounds.filter(number=number).first()
    if rnd is None:
        raise Http404
    context = _event_context(
        event,
        round=rnd,
        active=f"round-{number}",
        previous=number - 1 if number > 1 else None,
        next=number + 1 if event.rounds.filter(number=number + 1).exists() else None,
    )
    if event.is_team:
        context["cards"] = selectors.match_cards(event, round_number=number)
    else:
        games = selectors.round_boards(rnd)  # plain rows: a 1,000-player open's round has 500 boards
        points = selectors.round_points(event)
        shown: dict[Decimal, str] = {}

        def before(entry_id: int) -> str:  # points before this round, as pairing cards show them
            total = sum((p for n, p in points.get(entry_id, {}).items() if n < number), Decimal(0))
            if total not in shown:
                shown[total] = fmt(total)
            return shown[total]

        # the boards first, then the byes (players without an opponent this round)
        context["games"] = [g for g in games if g.black_id is not None]
        context["byes"] = [g for g in games if g.black_id is None]
        context["pairing_rows"] = table_rows.pairing_rows(context["games"], slug=slug, before=before)
    context["corrections"] = selectors.round_corrections(rnd)
    return render(request, "leagues/round.html", context)


def _entry_or_404(event: Event, number: int) -> Entry:
    entry = event.entries.select_related("player", "team__club").filter(start_number=number).first()
    if entry is None:
        raise Http404
    return entry


def _explained_for(standings: selectors.EventStandings, number: int) -> list:
    """Every published criterion of one participant, explained from the snapshot's traces."""
    names = {number: e.name for number, e in (standings.entry_rows or standings.entries).items()}
    codes = _columns(standings)
    traces = [standings.trace(number, code) for code in codes]
    return [explain_trace(trace, name_of=names, isolated=True) for trace in traces if trace is not None]


def event_player(request, slug, number):
    return _cached(request, slug, f"player-{number}", lambda: _render_player(request, slug, number), explained=True)


def _shared_round_places(rows: list[dict], places: list[int]) -> list[str]:
    """A player's place after each round as the standings write it: a place shared with others as 2–3."""
    shown = []
    for index, place in enumerate(places):
        sharing = sum(1 for row in rows if (row.get("round_places") or [])[index : index + 1] == [place])
        shown.append(str(place) if sharing <= 1 else f"{place}–{place + sharing - 1}")
    return shown


def _round_place(places: list[str], number: int, played: int, row: dict | None):
    """The place after a round (in the standings as they were then, tie-breaks included; in a snapshot from before
    those were stored: by points), and after the last round with results the standings' own place as the page's
    headline writes it (a shared place as 2–3)."""
    if number > played:
        return ""
    if number == played and row is not None:
        return row["place"]
    return places[number - 1]


def _render_player(request, slug, number):
    # the entries as plain rows, as the standings page reads them under the same stamp: the card shows one
    # player's games, its opponents and the table's places
    standings = _standings_or_404(slug, traces_of=(number,), rows=True)
    event = standings.event
    if event.is_team:
        _entry_or_404(event, number)
        return redirect("leagues:event-team", slug=slug, number=number)
    entries = standings.entry_rows
    entry = entries.get(number)
    if entry is None:
        raise Http404
    _rounds, cells = selectors.individual_rounds(event, entries.values(), of_entry=entry.pk)
    played = selectors.completed_rounds(event)
    own = cells[entry.pk]
    scores = selectors.running_scores({round_: cell.points for round_, cell in own.items()}, played)
    # the place the player had after each round: the standings with the event's tie-breaks as they stood then
    # (stored by the recompute), else by points
    stored = (standings.row_of(number) or {}).get("round_places") or []
    by_tiebreaks = len(stored) >= played and None not in stored[:played]
    if by_tiebreaks:
        places = stored[:played]
        places_shown = _shared_round_places(standings.rows, places)
    else:
        points = selectors.round_points(event)
        everyone = {e.pk: selectors.running_scores(points.get(e.pk, {}), played) for e in entries.values()}
        places = selectors.places_by_round(everyone, played)[entry.pk]
        places_shown = [str(place) for place in places]
    table = standings.table
    rank_of = {selectors.row_number(row): row for row in table}
    round_rows = []
    paired = max([played, *own.keys()])
    for number_ in range(1, paired + 1):
        cell = own.get(number_)
        done = number_ <= played
        round_rows.append(
            {
                "number": number_,
                "cell": cell,
                "score": fmt(scores[number_ - 1]) if done else "",
                "place": _round_place(places_shown, number_, played, rank_of.get(number)),
                "opponent_row": rank_of.get(cell.opponent.start_number) if cell and cell.opponent else None,
            }
        )
    if entry.player_id is None:
        raise RuntimeError("an individual event's entry")
    record = event_record(entry.player_id, event)
    changes = {g.round: signed(g.change) for g in record.games if g.change is not None} if record else {}
    by_round = {g.round: g for g in record.games} if record else {}
    for round_row in round_rows:
        round_row["change"] = changes.get(round_row["number"], "")
        played_game = by_round.get(round_row["number"])  # the ratings of that round (a newer list may apply)
        round_row["own_rating"] = played_game.own_rating if played_game else None
        round_row["opponent_rating"] = played_game.opponent_rating if played_game else None
    explained = _explained_for(standings, number)
    row = standings.row_of(number)
    tied = [r for r in table if row and r["points"] == row["points"] and r["number"] != number]
    # "why this order?" at the top of the page: against the participant just above (the leader: just below)
    at = next((i for i, r in enumerate(table) if r["number"] == number), None)
    neighbour = None if at is None or len(table) < 2 else table[at - 1 if at else 1]["number"]
    context = _event_context(
        event,
        standings=standings,
        entry=entry,
        row=rank_of.get(number),
        rounds=round_rows,
        explained=explained,
        tied=tied,
        neighbour=neighbour,
        why_url=reverse("leagues:event-why", args=[slug]),  # once: a big open's players share points by the hundred
        places_by_tiebreaks=by_tiebreaks,
        active="players",
        points_display=fmt(row["points"]) if row else fmt(scores[-1] if scores else 0),
        rating_result=record.result if record else None,
        rating_change=signed(record.result.change) if record and record.result else "",
        rating_k=k_explained(record.k) if record and record.k else "",
        # a newer rating list applied during the event: the ratings of each round are shown
        rating_changes=record.rating_changes if record else [],
        ratings_per_round=bool(record and (record.rating_changes or any(g.newer_list for g in record.games))),
    )
    if played:
        max_points = event.points_win * played
        context["score_chart"] = charts.score_chart(
            title=_("Score after each round"),
            description=_("%(name)s: points after each round.") % {"name": entry.name},
            scores=scores,
            rounds=played,
            max_points=max_points,
        )
        if by_tiebreaks:
            title = _("Place after each round")
            description = _("%(name)s: place in the standings after each round, tie-breaks included (1 is best).")
        else:
            title = _("Place by points after each round")
            description = _("%(name)s: place by points after each round (1 is best).")
        context["place_chart"] = charts.place_chart(
            title=title,
            description=description % {"name": entry.name},
            places=places,
            rounds=played,
            participants=len(entries),
        )
    return render(request, "leagues/player.html", context)


def event_team(request, slug, number):
    return _cached(request, slug, f"team-{number}", lambda: _render_team(request, slug, number), explained=True)


def _render_team(request, slug, number):
    standings = _standings_or_404(slug, traces_of=(number,))
    event = standings.event
    entry = standings.entries.get(number)
    if entry is None or entry.team is None:
        raise Http404
    cards = selectors.match_cards(event, entry=entry)
    scored = selectors.player_scores(event, cards)
    roster = []  # each member with their games and points
    for member in entry.team.members.select_related("player").order_by("board_order"):
        games, points = scored.get(member.player_id, (0, Decimal(0)))
        roster.append((member, games, fmt(points)))
    row = standings.row_of(number)
    table_row = next((r for r in standings.table if r["number"] == number), None)
    context = _event_context(
        event,
        standings=standings,
        entry=entry,
        cards=cards,
        roster=roster,
        row=table_row,
        active="teams",
        embed_url=reverse("embed:team-fixtures", args=[get_language(), slug, number]),
        values=[(criterion_name(code), fmt(row["values"].get(code))) for code in _columns(standings)] if row else [],
        explained=_explained_for(standings, number),
    )
    return render(request, "leagues/team.html", context)


def _int_param(request, name):
    try:
        return int(request.GET.get(name, ""))
    except ValueError:
        return None


def event_why(request, slug):
    """Why one participant is above another: one page per pair asked, so a pair's page is not kept (rendered each
    time); the page choosing the pair is one per event and language, kept like the standings (a 1,000-player
    open's takes half a second to render)."""
    a, b = _int_param(request, "a"), _int_param(request, "b")
    chooser = a is None and b is None
    return _cached(request, slug, f"why-{a}-{b}", lambda: _render_why(request, slug), store=chooser, explained=True)


def _render_why(request, slug):
    standings = _standings_or_404(slug)  # the traces read only for a pair that a tie-break separates
    event = standings.event
    table = _table(standings, list(standings.criteria))
    a, b = _int_param(request, "a"), _int_param(request, "b")
    context = _event_context(event, standings=standings, table=table, active="why", a=a, b=b)
    if a is None or b is None:  # the form opens on two different participants, the first two listed
        numbers = [row["number"] for row in table]
        context["a"] = a if a is not None else next((n for n in numbers if n != b), None)
        context["b"] = b if b is not None else next((n for n in numbers if n != context["a"]), None)
        return render(request, "leagues/why.html", context)
    row_a, row_b = standings.row_of(a), standings.row_of(b)
    if row_a is None or row_b is None:
        raise Http404
    upper, lower = (row_a, row_b) if (row_a["rank"], a) <= (row_b["rank"], b) else (row_b, row_a)
    name_upper, name_lower = upper["name"], lower["name"]
    deciding, value_upper, value_lower = first_difference(
        [("PTS", upper["points"]), *((code, upper["values"].get(code)) for code in standings.criteria)],
        [("PTS", lower["points"]), *((code, lower["values"].get(code)) for code in standings.criteria)],
    ) or (None, None, None)
    comparison = [(criterion_name("PTS"), fmt(upper["points"]), fmt(lower["points"]), deciding == "PTS")]
    for code in standings.criteria:
        comparison.append(
            (criterion_name(code), fmt(upper["values"].get(code)), fmt(lower["values"].get(code)), code == deciding)
        )
    context.update(
        upper=upper,
        lower=lower,
        deciding=criterion_name(deciding) if deciding else None,
        comparison=comparison,
        equal_points=upper["points"] == lower["points"],
        same=a == b,
        sentence=separation_sentence(name_upper, name_lower, deciding, value_upper, value_lower, isolated=True),
        upper_number=selectors.row_number(upper),
        lower_number=selectors.row_number(lower),
    )
    if deciding and deciding != "PTS":
        names = {e.start_number: e.name for e in standings.entries.values()}
        traces = [standings.trace(selectors.row_number(r), deciding) for r in (upper, lower)]
        context["deciding_explained"] = [
            (r, explain_trace(t, name_of=names, isolated=True))
            for r, t in zip((upper, lower), traces, strict=True)
            if t
        ]
    return render(request, "leagues/why.html", context)


def clubs(request):
    return render(request, "leagues/clubs.html", {"clubs": selectors.clubs_list()})


def club(request, slug):
    try:
        club_, players, teams, events, entries = selectors.club_detail(slug=slug)
    except Club.DoesNotExist:
        raise Http404 from None
    return render(
        request,
        "leagues/club.html",
        {"club": club_, "players": players, "teams": teams, "events": events, "entries": entries},
    )


def season(request, league, slug):
    try:
        season_, events = selectors.season_detail(league_slug=league, season_slug=slug)
    except Season.DoesNotExist:
        raise Http404 from None
    with league_dates(season_.league):
        return render(
            request,
            "leagues/season.html",
            {
                "season": season_,
                "divisions": [e for e in events if e.is_team],
                "individual": [e for e in events if not e.is_team],
            },
        )


def event_boards(request, slug):
    """Board statistics of a team event: each player's points, games and performance, per board."""
    return _cached(request, slug, "boards", lambda: _render_boards(request, slug))


def _render_boards(request, slug):
    event = _event_or_404(slug)
    if not event.is_team:
        raise Http404
    stats = board_statistics(event=event)
    teams = dict(event.entries.values_list("pk", "team__name"))
    boards: dict = {}

    def shown(stat) -> tuple:
        # the points as every page writes them (2,5 or 2.5; a Fraction printed itself as 5/2)
        return stat, teams.get(stat.entry_id, ""), fmt(Decimal(stat.points.numerator) / stat.points.denominator)

    for stat in stats:
        if stat.board is not None:
            boards.setdefault(stat.board, []).append(shown(stat))
    overall = [shown(stat) for stat in stats if stat.board is None]
    context = _event_context(event, active="boards", boards=sorted(boards.items()), overall=overall)
    return render(request, "leagues/boards.html", context)


def event_standings_csv(request, slug):
    """The standings as CSV: a first comment line names the rule set and the criteria order."""
    return _cached(request, slug, "standings-csv", lambda: _render_standings_csv(slug))


def _render_standings_csv(slug):
    standings = _standings_or_404(slug)
    out = io.StringIO()
    rules = standings.snapshot.rules if standings.snapshot else standings.event.rule_set
    out.write(
        one_line(
            f"# {standings.event.name}; rule set: {rules}; criteria: {', '.join(standings.criteria)}; "
            f"results version {standings.snapshot.version if standings.snapshot else 0}"
        )
        + "\n"
    )
    writer = csv.writer(out)
    number = "team_number" if standings.event.is_team else "start_number"
    writer.writerow(["rank", number, "name", "points", *standings.criteria, "withdrawn_after_round"])
    withdrawn: dict[int | None, int | None] = dict(
        standings.event.entries.filter(withdrawn_after_round__isnull=False).values_list(
            "start_number", "withdrawn_after_round"
        )
    )
    for row in standings.rows:
        cells = [
            row["rank"],
            row.get(number),
            row["name"],
            row["points"],
            *("" if row["values"].get(code) is None else row["values"][code] for code in standings.criteria),
            withdrawn.get(row.get(number), ""),
        ]
        writer.writerow([csv_cell(cell) for cell in cells])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{standings.event.slug}-standings.csv"'
    return response


def _player_or_404(pk: int) -> Player:
    player = Player.objects.filter(pk=pk).first()
    if player is None:
        raise Http404
    return player


def player_profile(request, pk):
    """A player across every event and season: results, points, performance and rating change per event."""
    player = _player_or_404(pk)
    records = player_events(player)
    memberships = player.clubmembership_set.select_related("club").order_by("since", "id")
    may_anonymise = any(is_league_organiser(request.user, league.pk) for league in leagues_of_player(player))
    return render(
        request,
        "leagues/profile.html",
        {
            "player": player,
            "records": [_record_context(record) for record in records],
            # the games with moves: their results link to the games' pages
            "with_moves": selectors.game_ids_with_moves(g.game.pk for record in records for g in record.games),
            "memberships": memberships,
            "may_anonymise": may_anonymise,
            "ratings": [
                (label, value)
                for label, value in (
                    (_("Standard"), player.rating),
                    (_("Rapid"), player.rating_rapid),
                    (_("Blitz"), player.rating_blitz),
                    (_("National"), player.rating_national),
                )
                if value
            ],
        },
    )


def _record_context(record) -> dict:
    result = record.result
    return {
        "record": record,
        "points": fmt(record.points),
        "change": signed(result.change) if result else "",
        "change_class": change_class(result.change) if result else "",
        "performance": result.performance if result else None,
        "k": record.k.k if record.k else None,
        "k_explained": k_explained(record.k) if record.k else "",
        "games": [{"played": g, "change": signed(g.change) if g.change is not None else ""} for g in record.games],
    }


def k_explained(k) -> str:
    """The K a rating change used and why (a tiebreaks.engine.rating_change.DevelopmentCoefficient)."""
    reasons = {
        K_LISTED: _("as on FIDE's rating list"),
        K_NEW_PLAYER: _("fewer than 30 rated games"),
        K_JUNIOR: _("under 18, rated below 2300"),
        K_REACHED_2400: _("rated 2400 or more"),
        K_UNDER_2400: _("rated below 2400"),
        K_UNDER_2400_ASSUMED: _("rated below 2400; 30 or more rated games assumed"),
    }
    text = _("K = %(k)s: %(reason)s") % {"k": k.k, "reason": reasons[k.reason]}
    return text + (_(", lowered so that K × games is at most 700") if k.limited else "")


def signed(value) -> str:
    """A rating change as players read it: +12.4, −3.0 (one decimal in the language's own way, +12,4 in
    Greek, a real minus sign)."""
    text = number_format(abs(float(value)), decimal_pos=1)
    return f"+{text}" if value > 0 else (f"−{text}" if value < 0 else text)


def change_class(value) -> str:
    return "gain" if value > 0 else ("loss" if value < 0 else "")


@require_POST
def player_anonymise(request, pk):
    """An organiser shows a player by initials (or by name again); the service checks who may."""
    try:
        player_set_anonymised(player_id=pk, anonymised=request.POST.get("anonymised") == "1", user=request.user)
    except ServiceError as exc:
        return HttpResponse(exc.message, status=exc.status)
    return redirect("leagues:player-profile", pk=pk)


def player_search(request):
    """Players by name (part of it) or FIDE id; a player shown by initials is found by neither."""
    query = request.GET.get("q", "").strip()[:100]
    players = search_players(query) if query else []
    if len(players) == 1 and query.isdecimal():
        return redirect("leagues:player-profile", pk=players[0].pk)
    return render(request, "leagues/player_search.html", {"query": query, "players": players})
