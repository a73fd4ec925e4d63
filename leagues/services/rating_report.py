"""The FIDE rating report of an individual event: what a federation's rating officer needs, and what is missing.

Each player's rating at the start and, when a newer rating list applied during the event (a league's season),
the rating from each later round on (FIDE's 2026 checklist: ratings per round). TRF-26 holds one rating per
player (columns 49-52: the one at the start), so the report's TRF names the newer ones in ``###`` lines.

Organisers only (it shows birth years and sex, which public pages never show)."""

import dataclasses
import datetime
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from tiebreaks.trf import write_trf

from ..errors import PermissionDenied, ServiceError
from ..models import Entry, Event, Game
from ..permissions import AnyUser, event_arbiters, is_league_organiser
from .ratings import rating_comment_lines, tiebreaks_written
from .standings import tournament_for

#: the report's TRF: the sex and title fields as TRF writes them
TRF_SEX = {"m": "m", "w": "w"}
TRF_TITLES = {"GM": "g", "IM": "m", "FM": "f", "CM": "c", "WGM": "wg", "WIM": "wm", "WFM": "wf", "WCM": "wc"}


@dataclass
class RatingReport:
    event: Event
    rows: list[Entry] = field(default_factory=list)  # the event's entries, by start number (entry.player filled)
    rounds: list[tuple[int, datetime.date | None]] = field(default_factory=list)  # (round number, date)
    arbiters: list[str] = field(default_factory=list)  # names of the event's arbiters
    federations: list[str] = field(default_factory=list)  # the players' federations, most frequent first
    warnings: list[str] = field(default_factory=list)  # what the rating officer will miss, as sentences


def rating_report(*, event: Event, user: AnyUser) -> RatingReport:
    """What FIDE's rating report of `event` holds, with a warning for each missing piece; saves nothing."""
    if not is_league_organiser(user, event.league_id):
        raise PermissionDenied(_("Only the league's organiser may see the rating report."))
    if event.is_team:
        raise ServiceError(_("The rating report is made for individual events."), code="team_event")
    report = RatingReport(event=event)
    report.rows = list(
        event.entries.select_related("player").prefetch_related("round_ratings").order_by("start_number")
    )
    dates = dict(event.rounds.values_list("number", "date"))
    report.rounds = [(number, dates.get(number)) for number in range(1, event.rounds_count + 1)]
    report.arbiters = sorted(arbiter.get_full_name() or arbiter.get_username() for arbiter in event_arbiters(event))
    counts: dict[str, int] = {}
    for entry in report.rows:
        if entry.player and entry.player.federation:
            counts[entry.player.federation] = counts.get(entry.player.federation, 0) + 1
    report.federations = sorted(counts, key=lambda code: (-counts[code], code))
    report.warnings = _warnings(report)
    return report


def _warnings(report: RatingReport) -> list[str]:
    warnings = []
    if not report.arbiters:
        warnings.append(_("No arbiter is named for the event."))
    if report.event.starts_on is None:
        warnings.append(_("The event has no start date."))
    undated = [str(number) for number, date in report.rounds if date is None]
    if undated:
        warnings.append(_("Rounds without a date: %(rounds)s.") % {"rounds": ", ".join(undated)})
    for entry in report.rows:
        player = entry.player
        if player is None:
            continue
        who = {"number": entry.start_number, "name": player.name}
        if not player.federation:
            warnings.append(_("%(number)s %(name)s: no federation.") % who)
        if player.fide_id:
            continue
        warnings.append(_("%(number)s %(name)s: no FIDE id (a new player for FIDE).") % who)
        if player.birth_year is None:
            warnings.append(_("%(number)s %(name)s: a new player without a birth year.") % who)
        if not player.sex:
            warnings.append(_("%(number)s %(name)s: a new player without sex.") % who)
    return warnings


def rating_report_trf(*, event: Event, user: AnyUser) -> str:
    """The report as a TRF file: the event's export with FIDE ids, federations, titles, sex and birth dates
    (YYYY/MM/DD, or the year alone when only it is known)."""
    report = rating_report(event=event, user=user)
    games = list(
        Game.objects.filter(round__event=event)
        .select_related("round", "white", "black")
        .order_by("round__number", "board")
    )
    tournament = tournament_for(event, games, report.rows)
    players = {entry.start_number: entry.player for entry in report.rows}
    participants = []
    for participant in tournament.participants:
        player = players.get(participant.start_number)
        if player is not None:
            participant = dataclasses.replace(
                participant,
                fide_id=str(player.fide_id or ""),
                federation=player.federation,
                sex=TRF_SEX.get(player.sex, ""),
                title=TRF_TITLES.get(player.title, ""),
                birth=f"{player.birth_date:%Y/%m/%d}" if player.birth_date else str(player.birth_year or ""),
            )
        participants.append(participant)
    extra = list(rating_comment_lines(event))
    if report.arbiters:
        extra.append("102 " + "; ".join(report.arbiters))
    if any(date for _number, date in report.rounds):  # 132: each round's date above its column of results
        extra.append(
            "132" + " " * 88 + "".join(f"{date:%y/%m/%d}  " if date else " " * 10 for _n, date in report.rounds)
        )
    return write_trf(
        dataclasses.replace(
            tournament,
            participants=participants,
            tiebreaks=tiebreaks_written(event.tiebreak_criteria, event.unrated_rating),
            start_date=event.starts_on.isoformat() if event.starts_on else "",
            extra_records=tuple(extra),
        )
    )
