"""A league's rules for team match cards: every rule, its check, its words and its penalty, in one place.

A league sets its rules once for every division (``LeagueRule.event`` empty) and may set a rule again for one
division (that division's rule replaces the league's of the same kind). Each rule is a warning or a block:

* the card page (live, as the secretary chooses players, and on save) and the API (the card endpoint, its
  check endpoint and every card's ``rule_violations``) read :func:`card_check`;
* a save is refused when the line-up breaks a blocking rule (:func:`card_blocks`, called by
  ``services.match_cards.match_card_submit`` inside its transaction), except a violation already in the
  organiser's inbox (found after an earlier save: the organiser decides it, the club's corrections go on) and
  a card the league's organiser saves (its violations go to the inbox);
* after a save (and after a rule changes, :func:`event_rules_rescan`) what the saved card breaks goes to the
  organiser's inbox as a :class:`~leagues.models.RuleViolation`; :func:`violation_penalise` applies the rule's
  penalty once, through the card's result service (audited as every result change), :func:`violation_dismiss`
  closes it without one.

Decisions:

* A player's rating is the registry's standard rating (as the eligibility warnings read it); an unrated player
  counts with the event's rating for unrated players in the rating-sum cap, else 0, and is not compared in the
  board order.
* A higher team is a team of the same club in the season with a lower number at the end of its name ("Oslo SK
  1" above "Oslo SK 2", services.eligibility.team_level), in this division or another.
* "Played" means named on a board whose result is recorded, except a board the player's own side lost by
  forfeit (as in ``services.eligibility``). The season is the events of the event's season (the event alone
  without one). "In a round": the same round of the division, or a round of the season on the same date.
* Appearances for a higher team, the number of appearances and another team in the season count the cards
  before this one (an earlier round of the division, an earlier date in another; on the same date the card
  drawn first), so that a card saved again later is not blamed for the appearances after it.
* Reserves are players beyond the team's first ``event.boards`` on its roster, and players not on it; the
  boards from the top are counted, the reserves beyond the allowed number break the rule.
* A rule about the whole card (rating-sum cap, women on the card) has no board; its default penalty falls on the
  side's bottom board with a player.
* A default (the penalty ``board_default``) gives the board to the other side by forfeit: "-/+" when the side
  that broke the rule has white, "+/-" when black.
* Gender: besides "at least N women", a board may be reserved for a woman (``woman_board``, its number the
  board; an empty board keeps the rule, the side loses it by forfeit) and a card may hold at most N men
  (``max_men``, mixed teams as the French federation's Coupe de la Parité fields them; "at most 7 men" on eight
  boards differs from "at least 1 woman" in letting the side leave a board empty instead). A player whose sex
  is not on record counts as a man. (The leagues' current rule texts were not checked for this.)
* Licences: ``licence`` asks for a national federation ID on record; ``licence_date`` for a licence valid on the
  match's day (``Player.licence_until`` on or after the round's date; no date on record breaks it too). The
  organiser sets the date on the player's page or the API, the player's club's secretary through the API
  (services.players.player_licence_set); a change checks the saved cards again.
* Ranking lists (``ranking_list``, services.ranking_lists): only players on a ranking list of the club in the
  season may play; a player on a higher team's list may not play for a lower team; a player of a lower team's
  list plays for a higher team as a reserve, below the team's own listed players (the club's lists read as one
  order: the first team's list, then the second's, ...), at most the rule's number of them on a card (none set:
  any number); a player nominated after the season's nomination deadline breaks it on every card. One reason
  per board, in that order.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..dates import date_format
from ..errors import NotFound, PermissionDenied, ServiceError
from ..models import (
    Entry,
    Event,
    FinishedEventChange,
    Game,
    League,
    LeagueRule,
    Player,
    RankingListEntry,
    Result,
    RuleViolation,
    Team,
    TeamMatch,
)
from ..permissions import AnyUser, acting_user, is_league_organiser, organised_league_ids
from .cups import cup_card_confirmed, cup_card_corrected
from .eligibility import team_level
from .locking import event_lock
from .results import finished_event_override, result_record
from .webhooks import match_card_changed

Kind = LeagueRule.Kind
HOME, AWAY = "home", "away"
PENALTY_REASON = "league rule penalty"  # a site reason of ResultChange, shown in the reader's language

# the rules that need a number, and the number a rule without one uses
NEEDS_VALUE = {
    Kind.BOARD_ORDER,
    Kind.RATING_CAP,
    Kind.MAX_APPEARANCES,
    Kind.RESERVES,
    Kind.WOMEN,
    Kind.WOMAN_BOARD,
    Kind.MAX_MEN,
}
DEFAULT_VALUE = {Kind.HIGHER_TEAM: 1}

_OWN_FORFEIT = {
    "white": {Result.BLACK_WINS_FORFEIT, Result.DOUBLE_FORFEIT},
    "black": {Result.WHITE_WINS_FORFEIT, Result.DOUBLE_FORFEIT},
}


@dataclass(frozen=True)
class Violation:
    """A rule broken by one side of a card: at a board (and its player), or by the whole card (board None)."""

    kind: str
    severity: str
    penalty: str
    rule_id: int
    side: str  # "home" or "away"
    entry_id: int
    board: int | None
    player_id: int | None
    params: dict[str, object] = field(default_factory=dict, hash=False, compare=False)

    @property
    def key(self) -> tuple[str, str, int | None]:
        return (self.kind, self.side, self.board)

    @property
    def blocks(self) -> bool:
        return self.severity == LeagueRule.Severity.BLOCK


class RulesBroken(ServiceError):
    """A save refused by a blocking rule; ``violations`` says which (the pages and the API explain each)."""

    code = "league_rule_broken"

    def __init__(self, violations: list[Violation]):
        self.violations = violations
        sentences = explain(violations)
        super().__init__(
            _("The league's rules do not allow this line-up: %(reasons)s")
            % {"reasons": " ".join(str(s["message"]) for s in sentences)}
        )


# ---------------------------------------------------------------- the rules of a league or division


def rules_for(event: Event) -> dict[str, LeagueRule]:
    """The rules a division plays by: the league's, each replaced by the division's own rule of its kind."""
    found = list(
        LeagueRule.objects.filter(Q(event__isnull=True) | Q(event=event), league_id=event.league_id).order_by("kind")
    )  # one query for both (a card's save asks twice, its answer once more)
    rules: dict[str, LeagueRule] = {}
    for rule in found:
        if rule.event_id is None:
            rules[rule.kind] = rule
    for rule in found:
        if rule.event_id is not None:
            rules[rule.kind] = rule
    return rules


def league_rules(league: League) -> list[LeagueRule]:
    """Every rule of the league, the league's own first, then each division's (the public page)."""
    rules = LeagueRule.objects.filter(league=league).select_related("event")
    return sorted(rules, key=lambda r: (r.event_id is not None, r.event.name if r.event else "", r.kind))


def rule_save(
    *,
    league: League,
    user: AnyUser,
    kind: str,
    severity: str = LeagueRule.Severity.WARNING,
    value: int | None = None,
    penalty: str = LeagueRule.Penalty.NONE,
    event: Event | None = None,
) -> LeagueRule:
    """Set one rule of the league (or of one of its divisions): the organiser's, checked, then every saved card
    of the divisions it concerns checked again (what they now break goes to the organiser's inbox)."""
    if not is_league_organiser(user, league.pk):
        raise PermissionDenied(_("Only the league's organiser sets its rules."))
    if kind not in Kind.values:
        raise ServiceError(_("“%(kind)s” is not a league rule.") % {"kind": kind}, code="bad_rule")
    if severity not in LeagueRule.Severity.values:
        raise ServiceError(_("A rule is a warning or a block."), code="bad_severity")
    if penalty not in LeagueRule.Penalty.values:
        raise ServiceError(_("“%(penalty)s” is not a penalty.") % {"penalty": penalty}, code="bad_penalty")
    if event is not None and event.league_id != league.pk:
        raise ServiceError(_("The division is not of this league."), code="bad_division")
    if value is None:
        value = DEFAULT_VALUE.get(Kind(kind))
    if value is None and kind in NEEDS_VALUE:
        raise ServiceError(_("This rule needs a number."), code="value_required")
    if value is not None and not 0 <= value <= 100000:
        raise ServiceError(_("The rule's number must be between 0 and 100000."), code="bad_value")
    with transaction.atomic():
        rule, _created = LeagueRule.objects.update_or_create(
            league=league,
            event=event,
            kind=kind,
            defaults={"severity": severity, "value": value, "penalty": penalty},
        )
        events = [event] if event is not None else list(Event.objects.filter(league=league, kind=Event.Kind.TEAM))
        for each in events:
            event_rules_rescan(event=each)
    return rule


def rule_delete(*, rule: LeagueRule, user: AnyUser) -> None:
    """Take a rule away; the open violations of it leave the inbox (those decided stay as decided)."""
    if not is_league_organiser(user, rule.league_id):
        raise PermissionDenied(_("Only the league's organiser sets its rules."))
    with transaction.atomic():
        RuleViolation.objects.filter(rule=rule, status=RuleViolation.Status.OPEN).delete()
        rule.delete()


# ---------------------------------------------------------------- checking a card


@dataclass
class _Appearance:
    match_id: int
    entry_id: int
    event_id: int
    round_number: int
    date: datetime.date | None
    played: bool


def _season_events(event: Event) -> list[int]:
    if event.season_id is None:
        return [event.pk]
    return list(Event.objects.filter(season_id=event.season_id, kind=Event.Kind.TEAM).values_list("pk", flat=True))


def season_teams(event: Event) -> list[Team]:
    """The teams of the event's season (the event alone without one), by division and name."""
    teams = Team.objects.filter(event_id__in=_season_events(event)).select_related("club", "event")
    return list(teams.order_by("event__name", "name"))


def _appearances(event_ids: Iterable[int], players: set[int]) -> dict[int, list[_Appearance]]:
    found: dict[int, list[_Appearance]] = defaultdict(list)
    rows = Game.objects.filter(round__event_id__in=list(event_ids), match__isnull=False).filter(
        Q(white_player__in=players) | Q(black_player__in=players)
    )
    for match_id, event_id, number, day, white, black, white_player, black_player, result in rows.values_list(
        "match_id",
        "round__event_id",
        "round__number",
        "round__date",
        "white_id",
        "black_id",
        "white_player_id",
        "black_player_id",
        "result",
    ):
        for colour, entry_id, player_id in (("white", white, white_player), ("black", black, black_player)):
            if player_id not in players or entry_id is None or match_id is None:
                continue
            played = result not in (Result.PENDING, Result.UNKNOWN) and result not in _OWN_FORFEIT[colour]
            found[player_id].append(_Appearance(match_id, entry_id, event_id, number, day, played))
    return found


def _player_id(value: object) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, Player):
        return value.pk
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return None


def stored_lineup(match: TeamMatch) -> dict[int, tuple[int | None, int | None]]:
    """The card's players as stored: {board: (home player id, away player id)}."""
    lineup = {}
    for game in match.games.all():
        if game.white_id == match.home_id:
            lineup[game.board] = (game.white_player_id, game.black_player_id)
        else:
            lineup[game.board] = (game.black_player_id, game.white_player_id)
    return lineup


def lineup_with_stored(
    match: TeamMatch, lineup: Mapping[int, tuple[object, object]] | None
) -> dict[int, tuple[object, object]]:
    """The card's players once ``lineup`` (some boards, or none) is written over the stored ones."""
    merged: dict[int, tuple[object, object]] = dict(stored_lineup(match))
    merged.update(lineup or {})
    return merged


def card_check(*, match: TeamMatch, lineup: Mapping[int, tuple[object, object]] | None = None) -> list[Violation]:
    """What the line-up ``lineup`` ({board: (home player, away player)}: ids, Players or None; the stored card's
    players when not given) breaks of the division's rules, by side and board. Nothing is written. The match is read
    again with its round, event and sides unless they came with it (the card a save has just locked)."""
    if not all(relation.is_cached(match) for relation in (TeamMatch.round, TeamMatch.home, TeamMatch.away)):
        match = TeamMatch.objects.select_related("round__event", "home__team", "away__team").get(pk=match.pk)
    event = match.round.event
    rules = rules_for(event)
    if not rules:
        return []
    given = stored_lineup(match) if lineup is None else lineup
    ids = {int(board): (_player_id(h), _player_id(a)) for board, (h, a) in given.items()}
    everyone = {p for pair in ids.values() for p in pair if p is not None}
    players = {p.pk: p for p in Player.objects.filter(pk__in=everyone)}
    season = _season_events(event)
    appearances = _appearances(season, everyone)
    violations: list[Violation] = []
    for side, index, entry in ((HOME, 0, match.home), (AWAY, 1, match.away)):
        boards = sorted(
            (board, players[p]) for board, pair in ids.items() if (p := pair[index]) is not None and p in players
        )
        context = _SideContext(match, event, entry, side, boards, appearances, season)
        for kind, rule in rules.items():
            for board, player_id, params in _CHECKS[Kind(kind)](context, rule.value):
                violations.append(
                    Violation(kind, rule.severity, rule.penalty, rule.pk, side, entry.pk, board, player_id, params)
                )
    return sorted(violations, key=lambda v: (v.side != HOME, v.board or 0, v.kind))


@dataclass
class _SideContext:
    match: TeamMatch
    event: Event
    entry: object  # the side's Entry
    side: str
    boards: list[tuple[int, Player]]  # (board, player) from the top
    appearances: dict[int, list[_Appearance]]
    season: list[int]

    def roster(self) -> list[int]:
        team = self.entry.team  # type: ignore[attr-defined]
        return list(team.members.order_by("board_order").values_list("player_id", flat=True))

    def others(self, player_id: int) -> list[_Appearance]:
        """The player's appearances on other cards."""
        return [a for a in self.appearances.get(player_id, []) if a.match_id != self.match.pk]

    def before(self, player_id: int) -> list[_Appearance]:
        """The player's appearances on cards before this one: an earlier round of the division, an earlier date
        in another division; on the same date (or without dates) the card drawn first."""
        this_date, this_number = self.match.round.date, self.match.round.number
        found = []
        for a in self.others(player_id):
            if a.event_id == self.event.pk:
                earlier = (a.round_number, a.match_id) < (this_number, self.match.pk)
            elif a.date is not None and this_date is not None and a.date != this_date:
                earlier = a.date < this_date
            else:
                earlier = a.match_id < self.match.pk
            if earlier:
                found.append(a)
        return found


_Found = list[tuple[int | None, int | None, dict[str, object]]]


def _board_order(c: _SideContext, tolerance: int | None) -> _Found:
    found: _Found = []
    for i, (board, player) in enumerate(c.boards):
        if player.rating is None:
            continue
        for above_board, above in c.boards[:i]:
            if above.rating is not None and player.rating - above.rating > (tolerance or 0):
                found.append(
                    (
                        board,
                        player.pk,
                        {"above": above.pk, "above_board": above_board, "difference": player.rating - above.rating},
                    )
                )
                break
    return found


def _fixed_order(c: _SideContext, _value: int | None) -> _Found:
    order = {player_id: i for i, player_id in enumerate(c.roster())}
    found: _Found = []
    listed = [(board, player) for board, player in c.boards if player.pk in order]
    for i, (board, player) in enumerate(listed):
        for above_board, above in listed[:i]:
            if order[above.pk] > order[player.pk]:
                found.append((board, player.pk, {"above": above.pk, "above_board": above_board}))
                break
    return found


def _rating_cap(c: _SideContext, cap: int | None) -> _Found:
    unrated = c.event.unrated_rating or 0
    total = sum(player.rating if player.rating is not None else unrated for _board, player in c.boards)
    if cap is not None and total > cap:
        return [(None, None, {"total": total, "cap": cap})]
    return []


def _higher_team(c: _SideContext, times: int | None) -> _Found:
    team = c.entry.team  # type: ignore[attr-defined]
    level = team_level(team.name)
    higher = set(
        Entry.objects.filter(event_id__in=c.season, team__club_id=team.club_id)
        .exclude(pk=c.entry.pk)  # type: ignore[attr-defined]
        .values_list("pk", "team__name")
    )
    higher_ids = {pk for pk, name in higher if team_level(name) < level}
    found: _Found = []
    for board, player in c.boards:
        count = sum(1 for a in c.before(player.pk) if a.played and a.entry_id in higher_ids)
        if count >= (times or 1):
            found.append((board, player.pk, {"count": count}))
    return found


def _max_appearances(c: _SideContext, most: int | None) -> _Found:
    found: _Found = []
    for board, player in c.boards:
        count = sum(1 for a in c.before(player.pk) if a.played)
        if count >= (most or 0):
            found.append((board, player.pk, {"count": count, "most": most}))
    return found


def _one_team_season(c: _SideContext, _value: int | None) -> _Found:
    found: _Found = []
    for board, player in c.boards:
        other = sorted({a.entry_id for a in c.before(player.pk) if a.played and a.entry_id != c.entry.pk})  # type: ignore[attr-defined]
        if other:
            found.append((board, player.pk, {"other": other[0]}))
    return found


def _one_team_round(c: _SideContext, _value: int | None) -> _Found:
    found: _Found = []
    number, date = c.match.round.number, c.match.round.date
    for board, player in c.boards:
        other = sorted(
            {
                a.entry_id
                for a in c.others(player.pk)
                if a.entry_id != c.entry.pk  # type: ignore[attr-defined]
                and ((a.event_id == c.event.pk and a.round_number == number) or (date is not None and a.date == date))
            }
        )
        if other:
            found.append((board, player.pk, {"other": other[0]}))
    return found


def _reserves(c: _SideContext, most: int | None) -> _Found:
    regular = set(c.roster()[: c.event.boards])
    found: _Found = []
    reserves = 0
    for board, player in c.boards:
        if player.pk in regular:
            continue
        reserves += 1
        if reserves > (most or 0):
            found.append((board, player.pk, {"most": most}))
    return found


def _women(c: _SideContext, least: int | None) -> _Found:
    count = sum(1 for _board, player in c.boards if player.sex == Player.Sex.FEMALE)
    if least is not None and count < least:
        return [(None, None, {"count": count, "least": least})]
    return []


def _licence(c: _SideContext, _value: int | None) -> _Found:
    return [(board, player.pk, {}) for board, player in c.boards if not player.national_id.strip()]


def _licence_valid(c: _SideContext, _value: int | None) -> _Found:
    day = c.match.round.date or timezone.localdate()
    found: _Found = []
    for board, player in c.boards:
        if player.licence_until is None:
            found.append((board, player.pk, {"reason": "unknown"}))
        elif player.licence_until < day:
            found.append((board, player.pk, {"until": player.licence_until.isoformat(), "day": day.isoformat()}))
    return found


def _is_woman(player: Player) -> bool:
    return player.sex == Player.Sex.FEMALE


def _woman_board(c: _SideContext, board_number: int | None) -> _Found:
    # an empty board keeps the rule (the side loses it by forfeit)
    return [(board, player.pk, {}) for board, player in c.boards if board == board_number and not _is_woman(player)]


def _max_men(c: _SideContext, most: int | None) -> _Found:
    count = sum(1 for _board, player in c.boards if not _is_woman(player))
    if most is not None and count > most:
        return [(None, None, {"count": count, "most": most})]
    return []


def _ranking_list(c: _SideContext, lower_reserves: int | None) -> _Found:
    team = c.entry.team  # type: ignore[attr-defined]
    level = team_level(team.name)
    teams = {t.pk: t for t in season_teams(c.event) if t.club_id == team.club_id}
    season = c.event.season
    closed = season.nomination_deadline if season is not None else None
    on_lists = RankingListEntry.objects.filter(team_id__in=list(teams), player__in=[p for _b, p in c.boards])
    listed = {e.player_id: e for e in on_lists}
    found: _Found = []
    reserves = 0
    ranked: list[
        tuple[tuple[int, int], int, int]
    ] = []  # (place on the club's lists, board, player) of the boards above
    for board, player in c.boards:
        entry = listed.get(player.pk)
        params: dict[str, object] | None = None
        if entry is None:
            params = {"reason": "unlisted"}
        else:
            list_team = teams[entry.team_id]
            list_level = team_level(list_team.name)
            place = (list_level, entry.position)  # a lower team's list comes after this team's
            above = next(((b, p) for key, b, p in ranked if key > place), None)
            if list_team.pk != team.pk and list_level < level:
                params = {"reason": "higher", "list": list_team.name}
            elif closed is not None and entry.nominated_on > closed:
                params = {"reason": "late", "day": entry.nominated_on.isoformat(), "closed": closed.isoformat()}
            elif list_team.pk != team.pk and lower_reserves is not None and (reserves := reserves + 1) > lower_reserves:
                params = {"reason": "reserve", "list": list_team.name, "most": lower_reserves}
            elif above is not None:
                params = {"reason": "order", "above": above[1], "above_board": above[0]}
            ranked.append((place, board, player.pk))
        if params is not None:
            found.append((board, player.pk, params))
    return found


_CHECKS = {
    Kind.BOARD_ORDER: _board_order,
    Kind.FIXED_ORDER: _fixed_order,
    Kind.RATING_CAP: _rating_cap,
    Kind.HIGHER_TEAM: _higher_team,
    Kind.MAX_APPEARANCES: _max_appearances,
    Kind.ONE_TEAM_SEASON: _one_team_season,
    Kind.ONE_TEAM_ROUND: _one_team_round,
    Kind.RESERVES: _reserves,
    Kind.WOMEN: _women,
    Kind.LICENCE: _licence,
    Kind.LICENCE_VALID: _licence_valid,
    Kind.WOMAN_BOARD: _woman_board,
    Kind.MAX_MEN: _max_men,
    Kind.RANKING_LIST: _ranking_list,
}


def card_blocks(
    *, match: TeamMatch, lineup: Mapping[int, tuple[object, object]] | None = None, user: AnyUser = None
) -> None:
    """Refuse (RulesBroken) a line-up (``lineup``: the boards a save names, written over the stored ones) that
    breaks a blocking rule, except what the organiser's inbox holds for this card already (found after an earlier
    save: the organiser decides it). The league's organiser is not refused (a settled dispute, a card entered for a
    club), nor is the stored line-up read for them: what the card breaks goes to the inbox with it.
    Call inside the card's transaction."""
    if user is not None and is_league_organiser(user, match.round.event.league_id):
        return
    known = set(RuleViolation.objects.filter(match=match).values_list("kind", "side", "board"))
    checked = card_check(match=match, lineup=lineup_with_stored(match, lineup))
    blocking = [v for v in checked if v.blocks and v.key not in known]
    if blocking:
        raise RulesBroken(blocking)


def penalties_kept(*, match: TeamMatch, results: Mapping[int, tuple[str, int]], user: AnyUser) -> None:
    """A board defaulted by a penalty keeps its result: only the league's organiser changes it (a correction with
    its reason); a club's new card that would undo it is refused (ServiceError ``penalty_board``), since the
    penalty is applied once and never again. Call inside the card's transaction."""
    if is_league_organiser(user, match.round.event.league_id):
        return
    penalised = RuleViolation.objects.filter(
        match=match, status=RuleViolation.Status.PENALISED, penalty=LeagueRule.Penalty.BOARD_DEFAULT
    )
    defaulted = {v.params.get("game") for v in penalised}
    boards = {game.pk: game for game in match.games.filter(pk__in=defaulted - {None})}
    for game_id, (code, _version) in sorted(results.items()):
        game = boards.get(game_id)
        if game is not None and code != game.result:
            raise ServiceError(
                _("Board %(board)s was defaulted under the league's rules; only the organiser can change its result.")
                % {"board": game.board},
                code="penalty_board",
            )


# ---------------------------------------------------------------- words


def _sentence(kind: str, params: Mapping[str, Any]) -> str:
    count = int(params.get("count") or 0)
    sentences = {
        Kind.BOARD_ORDER: _(
            "Board %(board)s: %(player)s is rated %(difference)s points above %(above)s on board %(above_board)s; "
            "the league allows %(value)s."
        ),
        Kind.FIXED_ORDER: _(
            "Board %(board)s: %(player)s sits below %(above)s (board %(above_board)s), who comes after them in the "
            "team's board order."
        ),
        Kind.RATING_CAP: _("%(team)s: the ratings on the card add up to %(total)s, above the cap of %(cap)s."),
        Kind.HIGHER_TEAM: ngettext(
            "Board %(board)s: %(player)s has played %(count)s time for a higher team of the club, so may no longer "
            "play for %(team)s.",
            "Board %(board)s: %(player)s has played %(count)s times for a higher team of the club, so may no longer "
            "play for %(team)s.",
            count,
        ),
        Kind.MAX_APPEARANCES: ngettext(
            "Board %(board)s: %(player)s has already played %(count)s match this season; the league allows %(most)s.",
            "Board %(board)s: %(player)s has already played %(count)s matches this season; the league allows %(most)s.",
            count,
        ),
        Kind.ONE_TEAM_SEASON: _("Board %(board)s: %(player)s has already played for %(other)s this season."),
        Kind.ONE_TEAM_ROUND: _("Board %(board)s: %(player)s is also named for %(other)s in this round."),
        Kind.RESERVES: _("Board %(board)s: %(player)s is a reserve beyond the %(most)s the league allows on a card."),
        Kind.WOMEN: _("%(team)s: women on the card: %(count)s; the league asks for at least %(least)s."),
        Kind.LICENCE: _("Board %(board)s: %(player)s has no licence (national federation ID) on record."),
        Kind.LICENCE_VALID: _(
            "Board %(board)s: the licence of %(player)s ran out on %(until)s, before the match on %(day)s."
        ),
        Kind.WOMAN_BOARD: _("Board %(board)s is reserved for a woman; %(player)s is not on record as one."),
        Kind.MAX_MEN: _("%(team)s: men on the card: %(count)s; the league allows at most %(most)s."),
    }
    if kind == Kind.LICENCE_VALID and params.get("reason") == "unknown":
        return _("Board %(board)s: %(player)s has no licence valid-until date on record.") % params
    if kind == Kind.RANKING_LIST:
        return _ranking_sentence(params)
    return sentences[Kind(kind)] % params


def _ranking_sentence(params: Mapping[str, Any]) -> str:
    sentences = {
        "unlisted": _("Board %(board)s: %(player)s is not on the club's ranking lists."),
        "higher": _("Board %(board)s: %(player)s is on the ranking list of %(list)s, a higher team of the club."),
        "late": _(
            "Board %(board)s: %(player)s was nominated on %(day)s, after the last day of nominations (%(closed)s)."
        ),
        "reserve": _(
            "Board %(board)s: %(player)s is a reserve from the list of %(list)s beyond the %(most)s the league allows."
        ),
        "order": _(
            "Board %(board)s: %(player)s sits below %(above)s (board %(above_board)s), who comes after them on the "
            "club's ranking lists."
        ),
    }
    return sentences[str(params.get("reason"))] % params


def explain(violations: Iterable[Violation | RuleViolation]) -> list[dict[str, Any]]:
    """Each violation as the pages and the API give it: its code, warning or block, side, board, player and a
    sentence in the active language."""
    violations = list(violations)
    if not violations:  # most cards: no name to look up
        return []
    player_ids: set[Any] = set()
    entry_ids: set[Any] = set()
    for v in violations:
        player_ids |= {v.player_id, v.params.get("above")}
        entry_ids |= {v.params.get("other"), v.entry_id if isinstance(v, Violation) else _entry_of(v)}
    names: dict[Any, str] = {p.pk: p.public_name for p in Player.objects.filter(pk__in=player_ids - {None})}
    teams: dict[Any, str] = dict(Entry.objects.filter(pk__in=entry_ids - {None}).values_list("pk", "team__name"))
    rule_ids = {v.rule_id for v in violations if v.rule_id is not None}
    rules: dict[Any, Any] = dict(LeagueRule.objects.filter(pk__in=rule_ids).values_list("pk", "value"))
    answer = []
    for v in violations:
        entry_id = v.entry_id if isinstance(v, Violation) else _entry_of(v)
        params = (
            dict(v.params)
            | _dates(v.params)
            | {
                "board": v.board,
                "player": names.get(v.player_id, "?"),
                "above": names.get(v.params.get("above"), "?"),
                "other": teams.get(v.params.get("other"), "?"),
                "team": teams.get(entry_id, "?"),
                "value": rules.get(v.rule_id, "?"),
            }
        )
        reason = _sentence(v.kind, params)
        if v.severity == LeagueRule.Severity.BLOCK:
            message = _("Not allowed: %(reason)s") % {"reason": reason}
        else:
            message = _("Warning: %(reason)s") % {"reason": reason}
        answer.append(
            {
                "rule": v.kind,
                "severity": v.severity,
                "side": v.side,
                "board": v.board,
                "player": v.player_id,
                "message": message,
            }
        )
    return answer


def _dates(params: Mapping[str, Any]) -> dict[str, str]:
    """The days a violation names, as the reader writes them."""
    return {
        key: date_format(datetime.date.fromisoformat(params[key]))
        for key in ("until", "day", "closed")
        if isinstance(params.get(key), str)
    }


def _entry_of(v: RuleViolation) -> int:
    return v.match.home_id if v.side == HOME else v.match.away_id


def rule_sentence(rule: LeagueRule) -> str:
    """What the rule asks, for the public page of the league's rules."""
    value = rule.value or 0
    sentences = {
        Kind.BOARD_ORDER: _(
            "Board order: no player may be rated more than %(value)s points above a team-mate on a higher board."
        ),
        Kind.FIXED_ORDER: _("Fixed board order: a team's players sit in the order of its list."),
        Kind.RATING_CAP: _("Rating-sum cap: the ratings of a team's players on a card add up to at most %(value)s."),
        Kind.HIGHER_TEAM: ngettext(
            "A player who has played %(value)s time for a higher team of the club may no longer play for a lower one.",
            "A player who has played %(value)s times for a higher team of the club may no longer play for a lower one.",
            value,
        ),
        Kind.MAX_APPEARANCES: ngettext(
            "A player plays at most %(value)s match in the season.",
            "A player plays at most %(value)s matches in the season.",
            value,
        ),
        Kind.ONE_TEAM_SEASON: _("A player plays for one team only in the season."),
        Kind.ONE_TEAM_ROUND: _("A player plays for one team only in a round."),
        Kind.RESERVES: ngettext(
            "At most %(value)s reserve (a player beyond the team's regular boards) on a card.",
            "At most %(value)s reserves (players beyond the team's regular boards) on a card.",
            value,
        ),
        Kind.WOMEN: ngettext(
            "At least %(value)s woman on each team's card.",
            "At least %(value)s women on each team's card.",
            value,
        ),
        Kind.LICENCE: _("Only players with a licence (a national federation ID on record) may play."),
        Kind.LICENCE_VALID: _("A player's licence must be valid on the day of the match."),
        Kind.WOMAN_BOARD: _("Board %(value)s of each team is reserved for a woman (or left empty)."),
        Kind.MAX_MEN: ngettext(
            "At most %(value)s man on each team's card (a player not on record as a woman counts as a man).",
            "At most %(value)s men on each team's card (a player not on record as a woman counts as a man).",
            value,
        ),
        Kind.RANKING_LIST: _(
            "Only players on the club's submitted ranking lists may play, in the order of the lists, and none "
            "nominated after the last day of nominations; a player of a lower team's list may play for a higher "
            "team as a reserve."
        )
        if rule.value is None
        else ngettext(
            "Only players on the club's submitted ranking lists may play, in the order of the lists, and none "
            "nominated after the last day of nominations; at most %(value)s player of a lower team's list on a "
            "higher team's card.",
            "Only players on the club's submitted ranking lists may play, in the order of the lists, and none "
            "nominated after the last day of nominations; at most %(value)s players of a lower team's list on a "
            "higher team's card.",
            value,
        ),
    }
    return sentences[Kind(rule.kind)] % {"value": rule.value}


# ---------------------------------------------------------------- violations of saved cards: the organiser's inbox


def card_violations_record(*, match: TeamMatch) -> list[RuleViolation]:
    """After a save: what the stored card breaks goes to the organiser's inbox (once per rule, side and board);
    open violations the card no longer breaks leave it. Call inside the card's transaction."""
    current = {v.key: v for v in card_check(match=match)}
    stored = list(RuleViolation.objects.filter(match=match))  # one query: the open ones and every one known
    for violation in stored:
        key = (violation.kind, violation.side, violation.board)
        if violation.status == RuleViolation.Status.OPEN and key not in current:
            violation.delete()
    known = {(v.kind, v.side, v.board) for v in stored}
    recorded = []
    for key, v in current.items():
        if key in known:
            continue
        recorded.append(
            RuleViolation.objects.create(
                match=match,
                rule_id=v.rule_id,
                kind=v.kind,
                severity=v.severity,
                penalty=v.penalty,
                board=v.board,
                side=v.side,
                player_id=v.player_id,
                params=v.params,
            )
        )
    return recorded


def event_rules_rescan(*, event: Event) -> int:
    """Every saved card of the division checked again (a rule changed): returns how many violations are new."""
    new = 0
    saved = TeamMatch.objects.filter(round__event=event).exclude(status=TeamMatch.Status.SCHEDULED)
    for match in saved.order_by("pk"):
        new += len(card_violations_record(match=match))
    return new


def inbox(user: AnyUser) -> list[RuleViolation]:
    """The open violations of the leagues the user organises (the organiser's dashboard)."""
    rows = RuleViolation.objects.filter(status=RuleViolation.Status.OPEN).select_related(
        "match__round__event", "match__home__team", "match__away__team", "player"
    )
    if not (user and user.is_authenticated and user.is_superuser):
        rows = rows.filter(match__round__event__league__in=organised_league_ids(user))
    return list(rows.order_by("found_at", "pk"))


def _penalty_board(violation: RuleViolation) -> Game | None:
    games = violation.match.games.all()
    entry_id = _entry_of(violation)
    if violation.board is not None:
        return games.filter(board=violation.board).first()
    mine = [
        g
        for g in games.order_by("-board")
        if (g.white_id == entry_id and g.white_player_id) or (g.black_id == entry_id and g.black_player_id)
    ]
    return mine[0] if mine else games.order_by("-board").first()


def violation_penalise(*, violation_id: int, user: AnyUser, later_pairing: str = "") -> RuleViolation:
    """Apply the penalty the rule set (a default on the board), once: through the card's result service, audited
    as a result change with the reason "penalty under the league's rules". Applying it again changes nothing.

    In a knock-out cup whose next round is made, a default that changes who goes through makes the next round's
    match again, or is refused (ConfirmationNeeded ``later_round_paired``) once that match has results, unless
    ``later_pairing`` is "keep" (services.cups.cup_card_corrected)."""
    with transaction.atomic():
        event_id = (
            RuleViolation.objects.filter(pk=violation_id).values_list("match__round__event_id", flat=True).first()
        )
        if event_id is None:
            raise NotFound(_("There is no such rule violation."), code="unknown_violation")
        event_lock(event_id)  # the event's row first, as every write of its results (services.locking.event_lock)
        violation = RuleViolation.objects.select_for_update().select_related("match").get(pk=violation_id)
        event = Event.objects.get(pk=event_id)
        if not is_league_organiser(user, event.league_id):
            raise PermissionDenied(_("Only the league's organiser decides a rule violation."))
        if violation.status == RuleViolation.Status.PENALISED:
            return violation  # applied once already
        if violation.status == RuleViolation.Status.DISMISSED:
            raise ServiceError(_("This violation was dismissed."), code="violation_dismissed")
        if violation.penalty == LeagueRule.Penalty.BOARD_DEFAULT:
            game = _penalty_board(violation)
            if game is None:
                raise ServiceError(_("The card has no board to default."), code="no_board")
            entry_id = _entry_of(violation)
            result = Result.BLACK_WINS_FORFEIT if game.white_id == entry_id else Result.WHITE_WINS_FORFEIT
            _board_result(violation.match_id, game.pk, result, event, user, later_pairing)
            violation.params = {**violation.params, "game": game.pk}  # the board defaulted, kept so from now on
        violation.status = RuleViolation.Status.PENALISED
        violation.handled_by, violation.handled_at = acting_user(user), timezone.now()
        violation.save(update_fields=["status", "handled_by", "handled_at", "params"])
    return violation


def _board_result(
    match_id: int, game_id: int, result: str, event: Event, user: AnyUser, later_pairing: str = ""
) -> None:
    """The penalty's result on one board, through the card's result service (audited with the reason "penalty
    under the league's rules"); the card's version rises, as after every change of the card."""
    match = TeamMatch.objects.select_for_update(of=("self",)).get(pk=match_id)
    finished_event_override(event, user, PENALTY_REASON, FinishedEventChange.Subject.CARD)
    if Game.objects.get(pk=game_id).result == result:
        return
    result_record(game_id=game_id, result=result, user=user, reason=PENALTY_REASON, card=match, later_pairing="keep")
    match.version += 1
    match.save(update_fields=["version"])
    match_card_changed(match)
    cup_card_corrected(match, user=user, reason=PENALTY_REASON, later_pairing=later_pairing)
    cup_card_confirmed(match)  # a tie of the cup's current round: decided again with the default


def violation_dismiss(*, violation_id: int, user: AnyUser) -> RuleViolation:
    """Close a violation without a penalty (the organiser's decision)."""
    with transaction.atomic():
        try:
            violation = RuleViolation.objects.select_for_update().select_related("match__round").get(pk=violation_id)
        except RuleViolation.DoesNotExist:
            raise NotFound(_("There is no such rule violation."), code="unknown_violation") from None
        if not is_league_organiser(user, violation.match.round.event.league_id):
            raise PermissionDenied(_("Only the league's organiser decides a rule violation."))
        if violation.status == RuleViolation.Status.OPEN:
            violation.status = RuleViolation.Status.DISMISSED
            violation.handled_by, violation.handled_at = acting_user(user), timezone.now()
            violation.save(update_fields=["status", "handled_by", "handled_at"])
    return violation
