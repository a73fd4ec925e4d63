"""Decisions beyond the tie-break list (FIDE's 2026 checklist Q205/207, C.07 2026): the order the chief arbiter or
the organiser gives players still tied after the whole list, with a reason; each is recorded in the settings' audit,
ranks the standings (the engine's MAN, tiebreaks/engine/decisions.py) and is explained on the player page."""

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tiebreaks.engine import EngineError
from tiebreaks.engine.criteria import parse_criterion
from tiebreaks.engine.ranking import Standings

from ..errors import NotFound, PermissionDenied, ServiceError
from ..models import Entry, Event, ResultChange
from ..models.audit import SettingChange
from ..permissions import AnyUser, acting_user, can_manage_event
from .fide_mode import setting_change_checked
from .results import event_results_changed
from .standings import event_engine_result

DECIDED_BY = ("chief_arbiter", "organiser")


def decided_by_label(code: str) -> str:
    return _("the organiser") if code == "organiser" else _("the chief arbiter")


def _entries(event: Event) -> list[Entry]:
    return list(event.entries.select_related("player").order_by("start_number"))


def decisions_text(event: Event, decisions: list[dict[str, Any]], names: dict[int, str]) -> str:
    """The orders as the settings' audit records them: "A > B (the chief arbiter)"; "–" for none."""
    texts = [
        " > ".join(names.get(e, "?") for e in d["entries"]) + f" ({decided_by_label(d.get('by', ''))})"
        for d in decisions
    ]
    return "; ".join(texts) or "–"


def decision_sentences(event: Event) -> list[str]:
    """Each order in a sentence, as the standings page lists them."""
    if not event.tiebreak_decisions:
        return []
    names = {e.id: e.name for e in _entries(event)}
    out = []
    for d in event.tiebreak_decisions:
        params = {
            "players": " > ".join(names.get(e, "?") for e in d["entries"]),
            "by": decided_by_label(d.get("by", "")),
            "reason": d.get("reason", ""),
            "on": d.get("on", ""),
            "who": d.get("who", ""),
        }
        out.append(
            _(
                "Still tied after the whole tie-break list, ordered by a decision of %(by)s: %(players)s. Reason: "
                "%(reason)s (%(on)s, %(who)s)."
            )
            % params
        )
    return out


def _tied_groups(event: Event, decisions: list[dict[str, Any]]) -> list[set[int]]:
    """The groups of players sharing a place under the event's list and `decisions` (entry ids)."""
    event.tiebreak_decisions = decisions
    try:
        standings = event_engine_result(event)
    except EngineError as exc:
        raise ServiceError(str(exc), code="bad_tiebreak_policy") from None
    if not isinstance(standings, Standings):
        raise RuntimeError("decisions order the players of an individual event")
    by_number = {number: entry_id for entry_id, number in event.entries.values_list("id", "start_number")}
    groups: dict[int, set[int]] = {}
    for row in standings.rows:
        groups.setdefault(row.rank, set()).add(by_number[row.start_number])
    return [group for group in groups.values() if len(group) > 1]


def tied_order_set(
    *,
    event_id: int,
    entry_ids: list[int],
    reason: str,
    decided_by: str,
    user: AnyUser,
    source: str = ResultChange.Source.FORM,
) -> Event:
    """Order players still tied after the whole tie-break list (`entry_ids` first to last, every player of the tie),
    by the chief arbiter's or the organiser's decision, with a reason. An earlier order of any of them is replaced.
    Refused for players the list already separates."""
    with transaction.atomic():
        event: Event = Event.objects.select_for_update().get(pk=event_id)
        if not can_manage_event(user, event):
            raise PermissionDenied(_("Only the league's organiser or the arbiter may order tied players."))
        if event.is_team:
            raise ServiceError(_("A team event's ties are not ordered by a decision here."), code="not_individual")
        reason = reason.strip()
        if not reason:
            raise ServiceError(_("Give the reason for the decision: it is shown publicly."), code="reason_required")
        if decided_by not in DECIDED_BY:
            raise ServiceError(_("Say who decided: the chief arbiter or the organiser."), code="bad_decision")
        names = {e.id: e.name for e in _entries(event)}
        if len(entry_ids) < 2 or len(set(entry_ids)) != len(entry_ids):
            raise ServiceError(_("Name at least two different players, first to last."), code="bad_decision")
        unknown = [e for e in entry_ids if e not in names]
        if unknown:
            raise NotFound(_("No such player in this event."))
        before = list(event.tiebreak_decisions or [])
        others = [d for d in before if not set(d["entries"]) & set(entry_ids)]
        groups = _tied_groups(event, others)
        group = next((g for g in groups if entry_ids[0] in g), set())
        if not set(entry_ids) <= group:
            raise ServiceError(
                _(
                    "These players are not tied after the whole tie-break list: a decision orders only players still "
                    "tied."
                ),
                code="not_tied",
            )
        missing = group - set(entry_ids)
        if missing:
            raise ServiceError(
                _("Order every player of the tie: %(players)s are tied with them too.")
                % {"players": ", ".join(sorted(names[e] for e in missing))},
                code="not_whole_tie",
            )
        decision = {
            "entries": list(entry_ids),
            "reason": reason[:300],
            "by": decided_by,
            "on": timezone.localdate().isoformat(),
            "who": getattr(user, "get_username", lambda: "")() or "",
        }
        after = [*others, decision]
        return _changed(
            event,
            "tiebreak_decisions",
            SettingChange.Setting.DECISION,
            decisions_text(event, before, names),
            decisions_text(event, after, names),
            after,
            user=user,
            source=source,
            reason=reason,
        )


def tied_order_remove(
    *, event_id: int, number: int, user: AnyUser, reason: str, source: str = ResultChange.Source.FORM
) -> Event:
    """Withdraw the `number`-th order (1 = first), with a reason: its players are tied again."""
    return _nth_removed(
        event_id,
        number,
        "tiebreak_decisions",
        SettingChange.Setting.DECISION,
        lambda event, decisions, names: decisions_text(event, decisions, names),
        _("Only the league's organiser or the arbiter may order tied players."),
        user=user,
        reason=reason,
        source=source,
    )


def ties_left(event: Event) -> list[list[Entry]]:
    """The groups of players sharing a place now (under the event's list and its orders), by start number; none in
    a team event (whose ties are not ordered by a decision here)."""
    if event.is_team:
        return []
    entries = {e.id: e for e in _entries(event)}
    groups = _tied_groups(event, list(event.tiebreak_decisions or []))
    return sorted(
        (sorted((entries[e] for e in g), key=lambda e: e.start_number) for g in groups),
        key=lambda g: g[0].start_number,
    )


def entry_ids_of_numbers(event: Event, numbers: list[int]) -> list[int]:
    """The event's entries of these start numbers, in the order given (refused when one is not in the event)."""
    ids = dict(event.entries.filter(start_number__in=numbers).values_list("start_number", "id"))
    missing = [n for n in numbers if n not in ids]
    if missing:
        raise ServiceError(
            _("No player has the start number %(numbers)s.") % {"numbers": ", ".join(map(str, missing))},
            code="bad_decision",
        )
    return [ids[n] for n in numbers]


# --- play-offs -------------------------------------------------------------------------------------------------------

PLAYOFF_RESULTS = ("1-0", "0-1", "1/2")


def _result_shown(result: str) -> str:
    return "½–½" if result == "1/2" else result.replace("-", "–")


def playoffs_text(playoffs: list[dict[str, Any]], names: dict[int, str]) -> str:
    """The play-offs as the settings' audit records them: "1: A – B 1–0, B – A ½–½ (Armageddon)"; "–" for none."""
    texts = []
    for playoff in playoffs:
        games = ", ".join(
            f"{names.get(g['white'], '?')} – {names.get(g['black'], '?')} {_result_shown(g['result'])}"
            + (" (Armageddon)" if g.get("armageddon") else "")
            for g in playoff["games"]
        )
        texts.append(f"{playoff['place']}: {games}")
    return "; ".join(texts) or "–"


def playoff_sentences(event: Event) -> list[str]:
    """Each play-off in a sentence, as the standings page lists them."""
    if not event.playoffs:
        return []
    names = {e.id: e.name for e in _entries(event)}
    out = []
    for playoff in event.playoffs:
        games = []
        for g in playoff["games"]:
            game = f"{names.get(g['white'], '?')} – {names.get(g['black'], '?')} {_result_shown(g['result'])}"
            if g.get("armageddon"):
                game += " " + _("(Armageddon: a draw wins for Black)")
            games.append(game)
        out.append(
            _(
                "Place %(place)s was decided by a play-off, before the tie-breaks (its games count for no points and "
                "no tie-break): %(games)s."
            )
            % {"place": playoff["place"], "games": "; ".join(games)}
        )
    return out


def _points_groups(event: Event) -> dict[int, tuple[int, int]]:
    """Each entry's group of players on the same points, without the play-offs: (first place, last place)."""
    event.playoffs = []
    event.tiebreak_decisions = []
    try:
        standings = event_engine_result(event)
    except EngineError as exc:
        raise ServiceError(str(exc), code="bad_tiebreak_policy") from None
    if not isinstance(standings, Standings):
        raise RuntimeError("decisions order the players of an individual event")
    by_number = {number: entry_id for entry_id, number in event.entries.values_list("id", "start_number")}
    points = [(row.points, by_number[row.start_number]) for row in standings.rows]
    out: dict[int, tuple[int, int]] = {}
    for score in {p for p, _e in points}:
        first = 1 + sum(1 for p, _e in points if p > score)
        last = first + sum(1 for p, _e in points if p == score) - 1
        out.update({e: (first, last) for p, e in points if p == score})
    return out


def playoff_game_add(
    *,
    event_id: int,
    place: int,
    white_id: int,
    black_id: int,
    result: str,
    armageddon: bool = False,
    user: AnyUser,
    source: str = ResultChange.Source.FORM,
) -> Event:
    """Record one play-off game between two players tied on points, deciding `place` (1 = first): the standings
    rank by the play-off before the tie-breaks for that place. An Armageddon game's draw counts as a win for Black.
    The games are not rounds of the event: they count for no points and no tie-break."""
    with transaction.atomic():
        event: Event = Event.objects.select_for_update().get(pk=event_id)
        if not can_manage_event(user, event):
            raise PermissionDenied(_("Only the league's organiser or the arbiter may record a play-off."))
        if event.is_team:
            raise ServiceError(_("A team event's play-offs are not recorded here."), code="not_individual")
        if result not in PLAYOFF_RESULTS:
            raise ServiceError(_("A play-off game's result is 1-0, 0-1 or 1/2."), code="bad_playoff")
        names = {e.id: e.name for e in _entries(event)}
        if white_id not in names or black_id not in names:
            raise NotFound(_("No such player in this event."))
        if white_id == black_id:
            raise ServiceError(_("A play-off game needs two different players."), code="bad_playoff")
        before = [dict(p, games=list(p["games"])) for p in (event.playoffs or [])]
        groups = _points_groups(event)
        white_group, black_group = groups[white_id], groups[black_id]
        if (
            white_group != black_group
            or not white_group[0] <= place <= white_group[1]
            or white_group[0] == white_group[1]
        ):
            raise ServiceError(
                _(
                    "A play-off is played between players tied on points for a place they share: these two are not "
                    "tied for place %(place)s."
                )
                % {"place": place},
                code="not_tied",
            )
        for playoff in before:
            players = {p for g in playoff["games"] for p in (g["white"], g["black"])}
            if playoff["place"] != place and players & {white_id, black_id}:
                raise ServiceError(
                    _("A player plays one play-off: this one already plays the play-off for place %(place)s.")
                    % {"place": playoff["place"]},
                    code="bad_playoff",
                )
        game = {"white": white_id, "black": black_id, "result": result, "armageddon": bool(armageddon)}
        after = [dict(p, games=list(p["games"])) for p in before]
        current = next((p for p in after if p["place"] == place), None)
        if current is None:
            after.append({"place": place, "games": [game]})
            after.sort(key=lambda p: p["place"])
        else:
            current["games"].append(game)
        return _changed(
            event,
            "playoffs",
            SettingChange.Setting.PLAYOFF,
            playoffs_text(before, names),
            playoffs_text(after, names),
            after,
            user=user,
            source=source,
            reason_required=False,
        )


def playoff_game_remove(
    *, event_id: int, place: int, number: int, user: AnyUser, reason: str, source: str = ResultChange.Source.FORM
) -> Event:
    """Delete the `number`-th game (1 = first) of the play-off for `place`, with a reason (a game entered wrongly)."""
    with transaction.atomic():
        event: Event = Event.objects.select_for_update().get(pk=event_id)
        if not can_manage_event(user, event):
            raise PermissionDenied(_("Only the league's organiser or the arbiter may record a play-off."))
        before = [dict(p, games=list(p["games"])) for p in (event.playoffs or [])]
        after = [dict(p, games=list(p["games"])) for p in before]
        current = next((p for p in after if p["place"] == place), None)
        if current is None or not 1 <= number <= len(current["games"]):
            raise NotFound(_("No such play-off game."))
        if not reason.strip():
            raise ServiceError(_("Give the reason: it is shown publicly."), code="reason_required")
        del current["games"][number - 1]
        after = [p for p in after if p["games"]]
        names = {e.id: e.name for e in _entries(event)}
        return _changed(
            event,
            "playoffs",
            SettingChange.Setting.PLAYOFF,
            playoffs_text(before, names),
            playoffs_text(after, names),
            after,
            user=user,
            source=source,
            reason=reason,
        )


# --- values set from outside the computation --------------------------------------------------------------------------


def external_values_text(values: list[dict[str, Any]], names: dict[int, str]) -> str:
    """The values as the settings' audit records them: "A: BH = 5/2"; "–" for none."""
    return "; ".join(f"{names.get(v['entry'], '?')}: {v['criterion']} = {v['value']}" for v in values) or "–"


def external_value_set(
    *,
    event_id: int,
    entry_id: int,
    criterion: str,
    value: str,
    reason: str,
    decided_by: str,
    user: AnyUser,
    source: str = ResultChange.Source.FORM,
) -> Event:
    """Set a player's value of one criterion of the event's list from outside the computation (a value from another
    stage, a ruling), with a reason: the standings use it in place of the computed one and explain it. A value set
    before for the same player and criterion is replaced."""
    with transaction.atomic():
        event: Event = Event.objects.select_for_update().get(pk=event_id)
        if not can_manage_event(user, event):
            raise PermissionDenied(_("Only the league's organiser or the arbiter may set a tie-break value."))
        if event.is_team:
            raise ServiceError(_("A team event's tie-break values are not set here."), code="not_individual")
        reason = reason.strip()
        if not reason:
            raise ServiceError(_("Give the reason for the decision: it is shown publicly."), code="reason_required")
        if decided_by not in DECIDED_BY:
            raise ServiceError(_("Say who decided: the chief arbiter or the organiser."), code="bad_decision")
        listed = {}
        for code in event.tiebreak_criteria:
            try:
                listed[parse_criterion(code).code] = code
            except EngineError:
                continue
        try:
            code = parse_criterion(criterion).code
        except EngineError:
            code = ""
        if code not in listed or code.split("/")[0] in ("LOT", "PTS"):
            raise ServiceError(
                _("%(criterion)s is not a tie-break of the event's list.") % {"criterion": criterion},
                code="bad_external_value",
            )
        try:
            number = Fraction(value.strip().replace(",", "."))
        except (ValueError, ZeroDivisionError):
            number = None
        if number is None or abs(number) >= 100_000:
            raise ServiceError(_("Write the value as a number, e.g. 12.5 or 25/2."), code="bad_external_value")
        names = {e.id: e.name for e in _entries(event)}
        if entry_id not in names:
            raise NotFound(_("No such player in this event."))
        before = list(event.tiebreak_external or [])
        given = {
            "entry": entry_id,
            "criterion": code,
            "value": str(number),
            "reason": reason[:300],
            "by": decided_by,
            "on": timezone.localdate().isoformat(),
            "who": getattr(user, "get_username", lambda: "")() or "",
        }
        after = [v for v in before if (v["entry"], v["criterion"]) != (entry_id, code)] + [given]
        return _changed(
            event,
            "tiebreak_external",
            SettingChange.Setting.EXTERNAL,
            external_values_text(before, names),
            external_values_text(after, names),
            after,
            user=user,
            source=source,
            reason=reason,
        )


def external_value_remove(
    *, event_id: int, number: int, user: AnyUser, reason: str, source: str = ResultChange.Source.FORM
) -> Event:
    """Withdraw the `number`-th value set from outside (1 = first), with a reason: the computed value counts again."""
    return _nth_removed(
        event_id,
        number,
        "tiebreak_external",
        SettingChange.Setting.EXTERNAL,
        lambda event, values, names: external_values_text(values, names),
        _("Only the league's organiser or the arbiter may set a tie-break value."),
        user=user,
        reason=reason,
        source=source,
    )


def _nth_removed(
    event_id: int,
    number: int,
    field: str,
    setting: str,
    text: Callable[[Event, list[dict[str, Any]], dict[int, str]], str],
    refused: str,
    *,
    user: AnyUser,
    reason: str,
    source: str,
) -> Event:
    """The event without the `number`-th decision (1 = first) of its list `field`, audited as `setting` with a
    reason; `refused`: what a user who may not manage the event is told."""
    with transaction.atomic():
        event: Event = Event.objects.select_for_update().get(pk=event_id)
        if not can_manage_event(user, event):
            raise PermissionDenied(refused)
        before = list(getattr(event, field) or [])
        if not 1 <= number <= len(before):
            raise NotFound(_("No such decision."))
        if not reason.strip():
            raise ServiceError(_("Give the reason for the decision: it is shown publicly."), code="reason_required")
        names = {e.id: e.name for e in _entries(event)}
        after = before[: number - 1] + before[number:]
        return _changed(
            event,
            field,
            setting,
            text(event, before, names),
            text(event, after, names),
            after,
            user=user,
            source=source,
            reason=reason,
        )


def _changed(
    event: Event,
    field: str,
    setting: str,
    before: str,
    after: str,
    value: list[dict[str, Any]],
    *,
    user: AnyUser,
    source: str,
    reason: str = "",
    reason_required: bool = True,
) -> Event:
    """Audit one change of the event's decisions (refused where FIDE mode locks them), keep it, recompute."""
    setting_change_checked(
        event,
        setting=setting,
        before=before,
        after=after,
        user=user,
        reason=reason,
        source=source,
        reason_required=reason_required,
    )
    setattr(event, field, value)
    event.save(update_fields=[field])
    event_results_changed(event_id=event.pk)
    return event


# --- in the event's TRF file ------------------------------------------------------------------------------------------
# TRF-26 has no record for these decisions (nor for the drawing of lots' seed, which 202/212 carry only inside the
# site's LOT/S<seed> code): the site writes each as a ``###`` line of its export and reads them back on import.

TRF_TIED_ORDER = "### tied order"
TRF_PLAYOFF = "### play-off for place"
TRF_EXTERNAL = "### external value"
TRF_LOTS = "### drawing of lots: seed"


def _decided(d: dict[str, Any]) -> str:
    return f"{d.get('on') or '-'} by {d.get('by') or 'chief_arbiter'} ({d.get('who') or '-'})"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def decision_trf_lines(event: Event) -> list[str]:
    """The event's decisions beyond the tie-break list as ``###`` lines (start numbers, as TRF names players):
    the drawing of lots' seed, each order of players still tied, each play-off game and each value set from outside,
    with who decided, when and why."""
    numbers = dict(event.entries.values_list("id", "start_number"))
    lines = []
    for code in event.tiebreak_criteria or []:
        try:
            crit = parse_criterion(code)
        except EngineError:
            continue
        if crit.name == "LOT" and crit.seed is not None:
            lines.append(f"{TRF_LOTS} {crit.seed}")
    for d in event.tiebreak_decisions or []:
        order = " ".join(str(numbers[e]) for e in d["entries"] if e in numbers)
        lines.append(f"{TRF_TIED_ORDER} {_decided(d)}: {order}; reason: {_one_line(d.get('reason', ''))}")
    for playoff in event.playoffs or []:
        for g in playoff["games"]:
            if g["white"] in numbers and g["black"] in numbers:
                armageddon = " armageddon" if g.get("armageddon") else ""
                lines.append(
                    f"{TRF_PLAYOFF} {playoff['place']}: {numbers[g['white']]} - {numbers[g['black']]} "
                    f"{g['result']}{armageddon}"
                )
    for v in event.tiebreak_external or []:
        if v["entry"] in numbers:
            lines.append(
                f"{TRF_EXTERNAL} {_decided(v)}: {numbers[v['entry']]} {v['criterion']} {v['value']}; "
                f"reason: {_one_line(v.get('reason', ''))}"
            )
    return lines


_DECIDED_RE = r"(?P<on>\S+) by (?P<by>\w+) \((?P<who>[^)]*)\)"
_TIED_ORDER_RE = re.compile(rf"^{re.escape(TRF_TIED_ORDER)} {_DECIDED_RE}: (?P<order>[\d ]+); reason: (?P<reason>.*)$")
_PLAYOFF_RE = re.compile(
    rf"^{re.escape(TRF_PLAYOFF)} (?P<place>\d+): (?P<white>\d+) - (?P<black>\d+) (?P<result>\S+)(?P<arm> armageddon)?$"
)
_EXTERNAL_RE = re.compile(
    rf"^{re.escape(TRF_EXTERNAL)} {_DECIDED_RE}: (?P<number>\d+) (?P<criterion>\S+) (?P<value>\S+); "
    r"reason: (?P<reason>.*)$"
)
_LOTS_RE = re.compile(rf"^{re.escape(TRF_LOTS)} (?P<seed>\d{{1,9}})$")


def lots_seed_of_trf(lines: tuple[str, ...]) -> int | None:
    """The drawing of lots' seed a file's ``###`` line names, if any."""
    for line in lines:
        if m := _LOTS_RE.match(line.strip()):
            return int(m["seed"])
    return None


def criteria_with_trf_seed(criteria: list[str], lines: tuple[str, ...]) -> list[str]:
    """The file's tie-break list with its drawing of lots: a list that ends without LOT, or with LOT not yet drawn,
    gets the seed the ``###`` line names (another program may have written 202 without the site's LOT code)."""
    seed = lots_seed_of_trf(lines)
    if seed is None:
        return criteria
    kept = [c for c in criteria if c.split("/")[0].strip().upper() != "LOT" or re.search(r"/S\d+", c, re.I)]
    if any(c.split("/")[0].strip().upper() == "LOT" for c in kept):
        return kept
    return [*kept, f"LOT/S{seed}"]


def _bad_line(line: str) -> ServiceError:
    return ServiceError(
        _("The file's decision line cannot be read: %(line)s") % {"line": line[:200]}, code="bad_trf_decision"
    )


def decision_lines_read(
    lines: tuple[str, ...], numbers: set[int], criteria: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The decisions a file's ``###`` lines give (decision_trf_lines), players named by start number: orders of
    players still tied, play-offs, values set from outside. A line naming a player the file does not have (not in
    `numbers`), a result, a decider or a criterion (not in `criteria`) the site does not know is refused with a
    ServiceError naming it."""
    orders: list[dict[str, Any]] = []
    playoffs: dict[int, dict[str, Any]] = {}
    external: list[dict[str, Any]] = []
    listed = set()
    for code in criteria:
        try:
            listed.add(parse_criterion(code).code)
        except EngineError:
            continue

    def number_of(text: str, line: str) -> int:
        if int(text) not in numbers:
            raise _bad_line(line)
        return int(text)

    for raw in lines:
        line = raw.strip()
        if m := _TIED_ORDER_RE.match(line):
            order = [number_of(n, line) for n in m["order"].split()]
            if len(order) < 2 or len(set(order)) != len(order) or m["by"] not in DECIDED_BY:
                raise _bad_line(line)
            orders.append(
                {"entries": order, "reason": m["reason"][:300], "by": m["by"], "on": m["on"], "who": m["who"]}
            )
        elif m := _PLAYOFF_RE.match(line):
            white, black = number_of(m["white"], line), number_of(m["black"], line)
            if m["result"] not in PLAYOFF_RESULTS or white == black or int(m["place"]) < 1:
                raise _bad_line(line)
            game = {"white": white, "black": black, "result": m["result"], "armageddon": bool(m["arm"])}
            playoffs.setdefault(int(m["place"]), {"place": int(m["place"]), "games": []})["games"].append(game)
        elif m := _EXTERNAL_RE.match(line):
            try:
                code = parse_criterion(m["criterion"]).code
                value = Fraction(m["value"])
            except (EngineError, ValueError, ZeroDivisionError):
                raise _bad_line(line) from None
            if code not in listed or code.split("/")[0] in ("LOT", "PTS") or m["by"] not in DECIDED_BY:
                raise _bad_line(line)
            external.append(
                {
                    "entry": number_of(m["number"], line),
                    "criterion": code,
                    "value": str(value),
                    "reason": m["reason"][:300],
                    "by": m["by"],
                    "on": m["on"],
                    "who": m["who"],
                }
            )
        elif line.startswith((TRF_TIED_ORDER, TRF_PLAYOFF, TRF_EXTERNAL, TRF_LOTS)) and not _LOTS_RE.match(line):
            raise _bad_line(line)
    return orders, sorted(playoffs.values(), key=lambda p: p["place"]), external


def decisions_from_trf(event: Event, lines: tuple[str, ...], entries: dict[int, Entry], user: AnyUser) -> None:
    """Keep on a newly imported event the decisions its file's ``###`` lines give (decision_lines_read), each with
    who decided, when and why as the file says; one line of the settings' audit for each kind (source: the import).
    A line that cannot be read refuses the import (the caller's transaction saves nothing)."""
    orders, playoffs, external = decision_lines_read(lines, set(entries), list(event.tiebreak_criteria or []))
    if not (orders or playoffs or external):
        return
    ids = {number: entry.pk for number, entry in entries.items()}
    for d in orders:
        d["entries"] = [ids[n] for n in d["entries"]]
    for playoff in playoffs:
        for g in playoff["games"]:
            g["white"], g["black"] = ids[g["white"]], ids[g["black"]]
    for v in external:
        v["entry"] = ids[v["entry"]]
    names = {e.pk: e.name for e in entries.values()}
    for field, setting, text, value in (
        ("tiebreak_decisions", SettingChange.Setting.DECISION, decisions_text(event, orders, names), orders),
        ("playoffs", SettingChange.Setting.PLAYOFF, playoffs_text(playoffs, names), playoffs),
        ("tiebreak_external", SettingChange.Setting.EXTERNAL, external_values_text(external, names), external),
    ):
        if not value:
            continue
        setattr(event, field, value)
        SettingChange.objects.create(
            event=event,
            user=acting_user(user),
            setting=setting,
            before="–",
            after=text[:300],
            source=ResultChange.Source.IMPORT,
            reason="TRF import",
            standings_impact=[],
        )
    event.save(update_fields=["tiebreak_decisions", "playoffs", "tiebreak_external"])
