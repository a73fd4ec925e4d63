"""Organisers' and secretaries' pages: thin views around the services (results, match cards, policy, TRF)."""

import base64
import hashlib
import secrets
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tiebreaks.bidi import isolate, isolate_range
from tiebreaks.engine import EngineError, get_rule_set, recommended_criteria
from tiebreaks.explanations import fmt
from tiebreaks.names import CriterionName, criterion_name

from ..errors import DEFAULT_PERMISSION_MESSAGE, ConfirmationNeeded, Conflict, PermissionDenied, ServiceError
from ..models import Event, Game, ImportJob, League, LeagueRule, Player, Result, ResultChange, TeamMatch
from ..permissions import can_enter_result, can_manage_event, can_see_event, is_league_organiser, secretary_club_ids
from ..selectors import corrections_visible_to, round_sheet_games
from ..services.eligibility import division_warnings, match_card_warnings
from ..services.league_rules import card_check, explain, rules_for
from ..services.leagues import can_create_league
from ..services.match_cards import match_card_actions, match_card_confirm, match_card_dispute, match_card_submit
from ..services.policy import event_policy_set
from ..services.results import round_sheet_save
from ..services.schedule import fixtures_generate
from ..services.trf import event_export_trf, import_preview, rule_edition_question
from ..services.trf_jobs import (
    import_here,
    import_job_of,
    import_job_progress,
    import_job_queue,
    import_job_repeated,
    import_jobs_recent,
    runs_in_worker,
)
from .big_forms import many_fields
from .cards import card_form, card_of
from .dashboard import dashboard_for
from .forms import DisputeForm, ImportForm, PolicyForm, ResultsForm, match_score
from .trf_notes import EDITION_NAMES, note_sentence, points_question_sentence, scoring_sentence


@login_required
def dashboard(request):
    """What needs this user now, every item one click from its page, nothing the role cannot open."""
    board = dashboard_for(request.user)
    context = {
        "board": board,
        "events": board.managed,
        "corrections": corrections_visible_to(request.user),
        "can_create_league": can_create_league(request.user),
    }
    return render(request, "leagues/manage/dashboard.html", context)


def _save(request, action, success_message):
    """Run a service; turn its refusal into a message on the page (status 400/403/409)."""
    try:
        action()
    except Conflict as exc:
        messages.error(request, exc.message)
        return 409
    except PermissionDenied as exc:
        messages.error(request, exc.message)
        return 403
    except ServiceError as exc:
        messages.error(request, exc.message)
        return 409 if isinstance(exc, ConfirmationNeeded) else 400
    messages.success(request, success_message)
    return None


@many_fields  # a 1,000-player open's sheet has 1,002 fields
@login_required
def round_sheet(request, slug, number):
    """A round's results on one sheet: only the games this user may change are editable. A refusal names
    the board and keeps what was typed (a board changed by someone else meanwhile shows what is stored now)."""
    event = get_object_or_404(Event, slug=slug)
    if not can_see_event(request.user, event):
        raise Http404
    manager = can_manage_event(request.user, event)  # who manages the event may enter every game's result
    # a manager's sheet is saved without its boards' players (a secretary's boards are theirs by their players' clubs);
    # they are read when the page is shown again
    saving = manager and request.method == "POST"
    games = round_sheet_games(event, number, players=not saving)
    if not games:
        messages.error(request, _("Round %(number)s is not paired yet.") % {"number": number})
        return redirect("manage:dashboard")
    frozen = event.status == Event.Status.FINISHED and not is_league_organiser(request.user, event.league_id)
    editable = [] if frozen else games if manager else [g for g in games if can_enter_result(request.user, g)]
    if not editable and not manager and request.method == "GET":
        raise DjangoPermissionDenied
    data = request.POST.copy() if request.method == "POST" else None
    status = 200
    refusal: dict = {}
    checked = False  # the form's errors are shown
    if request.method == "POST":
        form = ResultsForm(data, games=editable)
        posted = {key.split("_", 1)[1] for key in request.POST if key.startswith("result_")}
        if not editable or posted - {str(g.pk) for g in editable}:
            messages.error(request, DEFAULT_PERMISSION_MESSAGE)
            status = 403
        elif form.is_valid():

            def save():
                try:
                    round_sheet_save(
                        event=event,
                        round_number=number,
                        results=form.results(),
                        user=request.user,
                        reason=form.cleaned_data["reason"],
                        later_pairing=form.cleaned_data["later_pairing"],
                    )
                except ServiceError as exc:
                    game = exc.current if isinstance(exc.current, Game) else None
                    refusal["game"], refusal["code"] = game, exc.code
                    refusal["stale"] = isinstance(exc, Conflict)
                    if game is not None:
                        exc.message = _("Board %(board)s: %(problem)s") % {"board": game.board, "problem": exc.message}
                    raise

            status = _save(request, save, _("Round saved. The standings are being updated."))
            if status is None:
                return redirect("manage:round-sheet", slug=slug, number=number)
            checked = True
            # only a board someone else changed meanwhile shows what is stored now; any other refusal (a
            # correction without its reason, after the next round's pairing) keeps the result the user chose
            game = refusal.get("game") if refusal.get("stale") else None
            if game is not None:  # the others keep what was typed
                if data is None:
                    raise RuntimeError("the POST's copy")
                data[f"result_{game.pk}"], data[f"version_{game.pk}"] = game.result, game.version
        else:
            status, checked = 400, True
    if saving:  # the page again, its boards with their players
        games = round_sheet_games(event, number)
        editable = [] if frozen else games
    form = ResultsForm(data, games=editable)
    if checked:
        form.is_valid()
    return render(
        request,
        "leagues/manage/round_sheet.html",
        {
            "event": event,
            "number": number,
            "form": form,
            "games": games,
            "editable": {g.pk for g in editable},
            "ask_later_pairing": _asks_later_pairing(request, refusal),
        },
        status=status,
    )


def _asks_later_pairing(request, refusal) -> bool:
    """The choice about the next round's pairing is shown once a correction was refused for it (and kept while
    the form is sent again)."""
    return refusal.get("code") == "later_round_paired" or "later_pairing" in request.POST


@login_required
def match_card(request, match_id):
    """The card: each board's players from the clubs' rosters, home | result | away, the match score.

    The club that submitted waits for the other; the other club confirms or disputes; the organiser
    may always correct. A user with no part in the match is refused."""
    match = card_of(match_id)
    if not can_see_event(request.user, match.round.event):
        raise Http404
    actions = match_card_actions(request.user, match)
    if not (actions or can_manage_event(request.user, match.round.event) or _plays_in(request.user, match)):
        raise DjangoPermissionDenied
    form = card_form(match, request.POST if request.method == "POST" else None)
    status = 200
    refusal: dict = {}
    if request.method == "POST":
        if "edit" not in actions:
            raise DjangoPermissionDenied
        if form.is_valid():

            def submit():
                try:
                    match_card_submit(
                        match_id=match.pk,
                        results=form.results(),
                        lineup=form.lineup(),
                        user=request.user,
                        expected_version=_posted_card_version(request),
                        reason=form.cleaned_data["reason"],
                        later_pairing=form.cleaned_data["later_pairing"],
                    )
                except ServiceError as exc:
                    refusal["code"] = exc.code
                    raise

            status = _save(request, submit, _("Match card saved."))
            if status is None:
                return redirect("manage:match-card", match_id=match.pk)
            match = card_of(match_id)  # what is stored now; the form keeps what was typed
            actions = match_card_actions(request.user, match)
        else:
            status = 400
    rows = list(form.rows())
    return render(
        request,
        "leagues/manage/match_card.html",
        {
            "match": match,
            "form": form,
            "rows": rows,
            # the score as pages write numbers (tiebreaks.explanations.fmt); manage.js writes it the same way
            "score": [fmt(points) for points in match_score(match, rows)],
            "decimal_separator": get_format("DECIMAL_SEPARATOR"),
            "actions": actions,
            "dispute": DisputeForm(auto_id="id_dispute_%s"),
            "warnings": _warnings(match, form.lineup() if form.is_bound and form.is_valid() else None),
            "confirms_on": _confirms_on(match),
            "card_version": match.version,
            "ask_later_pairing": _asks_later_pairing(request, refusal),
            "manages": can_manage_event(request.user, match.round.event),  # the cup page, else the public bracket
        },
        status=status,
    )


def _plays_in(user, match) -> bool:
    """A secretary of one of the two clubs (who may read the card even when it is closed for them)."""
    return bool(secretary_club_ids(user) & {match.home.team.club_id, match.away.team.club_id})


def _confirms_on(match):
    if match.status != TeamMatch.Status.SUBMITTED or not match.submitted_at:
        return None
    return match.submitted_at + timedelta(days=match.round.event.league.auto_confirm_days)


def _warnings(match, lineup=None):
    """The card's eligibility warnings as sentences for the secretary: of ``lineup`` ({board: (home player id,
    away player id)}) when given, else of the players stored on the card; then what it breaks of the league's
    rules (services.league_rules: each a warning or a block). A league with its own board-order rule words the
    board order by that rule only."""
    violations = explain(card_check(match=match, lineup=lineup))
    found = match_card_warnings(match=match, lineup=lineup)
    if rules_for(match.round.event).keys() & {LeagueRule.Kind.BOARD_ORDER, LeagueRule.Kind.FIXED_ORDER}:
        found = [w for w in found if w.code != "board_order"]
    return _warning_sentences(found) + [str(v["message"]) for v in violations]


@login_required
def match_card_warnings_live(request, match_id):
    """The eligibility warnings of the line-up being chosen (the card form's player fields, sent as the query),
    for the card's script: nothing is saved. Only who may edit the card asks."""
    match = card_of(match_id)
    if not can_see_event(request.user, match.round.event):
        raise Http404
    if "edit" not in match_card_actions(request.user, match):
        raise DjangoPermissionDenied
    form = card_form(match, request.GET)
    lineup = {}
    for game in form.games:
        sides = []
        for side in ("home", "away"):
            field = form.fields[f"{side}_{game.pk}"]
            try:
                sides.append(field.clean(request.GET.get(f"{side}_{game.pk}", "")))
            except ValidationError:  # not a player of the choices: that board is as if empty
                sides.append(None)
        lineup[game.board] = tuple(sides)
    return JsonResponse({"warnings": _warnings(match, lineup)})


def _warning_sentences(warnings) -> list[str]:
    names = dict(Player.objects.filter(pk__in={w.player_id for w in warnings}).values_list("pk", "name"))
    sentences = {
        "not_on_roster": _("Board %(board)s: %(player)s is not on the team's roster."),
        "player_twice_on_card": _("Board %(board)s: %(player)s is on this card twice."),
        "board_order": _("Board %(board)s: %(player)s is rated well above the player on a higher board."),
        "played_for_higher_team": _("Board %(board)s: %(player)s has already played for a higher team of the club."),
        "two_teams_of_club": _("Board %(board)s: %(player)s has played for another team of the club in this division."),
    }
    return [sentences.get(w.code, w.code) % {"board": w.board, "player": names.get(w.player_id, "?")} for w in warnings]


def _posted_card_version(request) -> int:
    """The card version the user saw (the form's hidden `card_version`); anything else is refused."""
    value = request.POST.get("card_version", "")
    if not (value.isascii() and value.isdigit() and len(value) < 10):
        raise ServiceError(_("The form is incomplete; reload the match card."), code="bad_card_version")
    return int(value)


def _save_card(request, action, success_message):
    """`_save` for an action on a match card: a card that does not exist is not found."""
    try:
        return _save(request, action, success_message)
    except TeamMatch.DoesNotExist:
        raise Http404 from None


@login_required
@require_POST
def match_confirm(request, match_id):
    _save_card(
        request,
        lambda: match_card_confirm(
            match_id=match_id, user=request.user, expected_version=_posted_card_version(request)
        ),
        _("Match card confirmed."),
    )
    return redirect("manage:match-card", match_id=match_id)


@login_required
@require_POST
def match_dispute(request, match_id):
    form = DisputeForm(request.POST)
    reason = form.data.get("reason", "")
    _save_card(
        request,
        lambda: match_card_dispute(
            match_id=match_id, user=request.user, reason=reason, expected_version=_posted_card_version(request)
        ),
        _("Dispute sent to the organiser."),
    )
    return redirect("manage:match-card", match_id=match_id)


@login_required
def policy(request, slug):
    event = get_object_or_404(Event, slug=slug)
    if not can_manage_event(request.user, event):
        raise DjangoPermissionDenied
    initial = {
        "rule_set": event.rule_set,
        "criteria": ", ".join(event.tiebreak_criteria),
        "tiebreak_ratings": event.tiebreak_ratings,
    }
    form = PolicyForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            status = _save(
                request,
                lambda: event_policy_set(
                    event_id=event.pk,
                    rule_set=form.cleaned_data["rule_set"],
                    criteria=form.cleaned_data["criteria"],
                    user=request.user,
                    reason=form.cleaned_data["reason"],
                    tiebreak_ratings=form.cleaned_data["tiebreak_ratings"] or None,
                ),
                _("Tiebreak policy saved."),
            )
            if status is None:
                return redirect("manage:policy", slug=slug)
    kind = ("team_" if event.is_team else "") + ("round_robin" if event.is_round_robin else "swiss")
    picker = policy_picker(event, kind)
    rating_based = {"ARO", "TPR", "PTP", "APRO", "APPO", "RTNG"}
    unrated = event.entries.filter(rating__isnull=True, player__isnull=False).count()
    uses_ratings = any(code.split("/")[0].upper() in rating_based for code in event.tiebreak_criteria)
    return render(
        request,
        "leagues/manage/policy.html",
        {
            "unrated_warning": unrated if uses_ratings and event.unrated_rating is None else 0,
            "event": event,
            "form": form,
            "recommended": ", ".join(c for c in recommended_criteria(kind) if c != "PTS"),
            "picker": picker,
            "changes": event.policy_changes.select_related("user"),
        },
        status=status,
    )


def _swiss_rounds(first: int, last: int) -> str:
    """A recommended order's situation, its range of rounds one unit read left to right in a Hebrew sentence
    (tiebreaks.bidi): "3–4", never "4–3"."""
    start, end = isolate_range(first, last)
    return _("Swiss, %(first)s–%(last)s rounds") % {"first": start, "last": end}


def policy_picker(event, kind) -> dict:
    """The criteria the event's rule set offers and the recommended orders, named in the user's language."""
    orders: list[tuple[str, list[str], list[CriterionName]]] = []
    situations = (
        [
            (_swiss_rounds(3, 4), 3),
            (_swiss_rounds(5, 7), 5),
            (_("Swiss, %(rounds)s rounds or more") % {"rounds": isolate(8)}, 9),
        ]
        if kind == "swiss"
        else [(_("this kind of event"), None)]
    )
    for label, rounds in situations:
        try:
            codes = [c for c in recommended_criteria(kind, rounds=rounds, rules=event.rule_set) if c != "PTS"]
        except EngineError:
            continue
        if codes and all(codes != known for _label, known, _names in orders):
            orders.append((label, codes, [criterion_name(c) for c in codes]))
    if event.is_team:
        codes = sorted({c for _label, known, _names in orders for c in known} | set(event.tiebreak_criteria))
    else:
        offered = get_rule_set(event.rule_set).criteria
        codes = sorted(offered - {"PTS", "PO", "MAN"}) + [c for c in ("BH/C1", "BH/C2", "BH/M1") if "BH" in offered]
    return {"orders": orders, "criteria": [criterion_name(c) for c in codes]}


@login_required
def audit(request, slug):
    event = get_object_or_404(Event, slug=slug)
    if not can_manage_event(request.user, event):
        raise DjangoPermissionDenied
    changes = ResultChange.objects.filter(game__round__event=event).select_related(
        "user",
        "game__round",
        "game__white__player",
        "game__black__player",
        "game__white__team",
        "game__black__team",
        "game__white_player",
        "game__black_player",
    )
    labels = dict(Result.choices)
    rows = [
        {
            "change": change,
            "white": change.game.white_player or change.game.white,
            "black": change.game.black_player or change.game.black,
            "before": labels.get(change.before, change.before) if change.before else "–",
            "after": labels.get(change.after, change.after) if change.after else labels[Result.PENDING],
        }
        for change in changes[:500]
    ]
    settings = event.setting_changes.select_related("user")  # settings changed after the start (issue #31)
    return render(request, "leagues/manage/audit.html", {"event": event, "rows": rows, "settings": settings})


#: session key of the file between the preview and the confirmation
IMPORT_SESSION_KEY = "trf_import"
#: session key of the last file uploaded, kept while the upload form has an error
KEPT_SESSION_KEY = "trf_import_kept"


@login_required
def import_trf(request, league):
    """Upload a TRF file, see the preview (every problem by line), then confirm: nothing is saved before.

    Between the two steps the file's bytes stay on the server, in the session (stored server-side),
    with their SHA-256 digest; the preview page sends back only that digest. Confirming imports
    the stored bytes only when the posted digest names them and they still hash to it, and reads
    them again: a second upload in another tab, or a tampered form, imports nothing."""
    league = get_object_or_404(League, slug=league)
    if request.method == "POST" and "confirm" in request.POST:
        return _import_confirmed(request, league)

    kept = request.session.get(KEPT_SESSION_KEY) or {}
    kept = kept if kept.get("league") == league.slug else {}
    form = ImportForm(
        request.POST or None,
        request.FILES or None,
        league=league,
        kept=base64.b64decode(kept["data"]) if kept else None,
        kept_name=kept.get("name", ""),
    )
    status = 200
    if request.method == "POST":
        status = 400
        valid = form.is_valid()
        if form.kept is not None:  # the file stays on the server until the form is right
            request.session[KEPT_SESSION_KEY] = {
                "league": league.slug,
                "name": form.kept_name,
                "data": base64.b64encode(form.kept).decode("ascii"),
            }
        if valid:
            return _import_previewed(request, league, form)
    jobs = import_jobs_recent(league=league, user=request.user)
    return render(request, "leagues/manage/import.html", {"league": league, "form": form, "jobs": jobs}, status=status)


def _import_confirmed(request, league):
    """The confirmation of a previewed file: imported here or by a worker, or the preview again with why not."""
    pending = request.session.get(IMPORT_SESSION_KEY) or {}
    data = base64.b64decode(pending["data"]) if pending.get("data") else b""
    digest = request.POST.get("digest", "")
    if not (
        pending
        and pending.get("league") == league.slug
        and digest == pending.get("digest")
        and hashlib.sha256(data).hexdigest() == digest
    ):
        repeated = import_job_repeated(league=league, user=request.user, digest=digest)
        if repeated is not None:  # confirmed a moment ago (a double click): follow that import
            return _follow(request, league, repeated, again=True)
        messages.error(request, _("The previewed file is no longer available; please upload it again."))
        return render(
            request, "leagues/manage/import.html", {"league": league, "form": ImportForm(league=league)}, status=400
        )
    target = _import_target(league, pending["slug"])
    accepted = request.POST.get("accept_points_column") == "1"
    choice = _edition_choice(request.POST.get("edition", ""))
    preview = import_preview(
        data=data,
        system=pending["system"] or None,
        event=target,
        league=league,
        accept_points_column=accepted,
        **choice,
    )
    context = _preview_context(league, preview, pending, target)
    if not accepted and preview.points_questions and len(preview.problems) == len(preview.points_questions):
        messages.error(request, _("Accept the points columns that differ from the results to import the file."))
        context = _preview_context(
            league, _import_preview(data, pending["system"] or None, target, league), pending, target
        )
        return render(request, "leagues/manage/import_preview.html", context, status=400)
    if not preview.ok:
        messages.error(request, _("A file with problems cannot be imported."))
        return render(request, "leagues/manage/import_preview.html", context, status=400)
    if preview.edition is not None and not preview.edition.rule_set:
        messages.error(request, preview.edition_problem or rule_edition_question(preview.edition))
        return render(request, "leagues/manage/import_preview.html", context, status=400)
    params = {
        "name": pending["name"],
        "slug": pending["slug"],
        "season": pending.get("season"),
        "system": pending["system"],
        "event": target.pk if target else None,
        "same_players_confirmed": request.POST.get("same_players") == "1",
        "accept_points_column": accepted,
        "start_date": choice.get("start_date", ""),
        "rule_set": choice.get("rule_set", ""),
        "publish": request.POST.get("publish") == "1",  # a new event stays a draft unless the organiser says
    }
    job_args = {
        "league": league,
        "user": request.user,
        "data": data,
        "params": params,
        "preview": pending.get("preview") or pending["digest"],  # a double click confirms it twice
        "players": len(preview.players),
        "rounds": preview.rounds,
    }
    try:
        if runs_in_worker(len(preview.players), preview.rounds):  # answered at once, imported by a worker
            job, imported = import_job_queue(**job_args), False
        else:
            job, imported = import_here(**job_args)
    except PermissionDenied as exc:
        messages.error(request, exc.message)
        return render(request, "leagues/manage/import_preview.html", context, status=403)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return render(request, "leagues/manage/import_preview.html", context, status=400)
    request.session.pop(IMPORT_SESSION_KEY, None)
    request.session.pop(KEPT_SESSION_KEY, None)
    if imported:
        messages.success(
            request,
            _("Event updated. Its standings are being computed.")
            if target
            else _("Event imported. Its standings are being computed."),
        )
    if target is None and preview.edition is not None:
        messages.info(
            request,
            _("The event's tiebreak rules: %(edition)s.") % {"edition": EDITION_NAMES[preview.edition.rule_set]},
        )
    return _follow(request, league, job, again=not imported)


def _import_previewed(request, league, form):
    """The preview of a valid upload; the file is kept in the session for the confirmation when it can be imported."""
    if not is_league_organiser(request.user, league.pk):
        messages.error(request, _("Only the league's organiser may import events."))
        return render(request, "leagues/manage/import.html", {"league": league, "form": form}, status=403)
    data, slug = form.cleaned_data["file"], form.cleaned_data["slug"]
    system = form.cleaned_data["system"] or ""
    target = _import_target(league, slug)
    preview = _import_preview(data, system or None, target, league)
    if target is None and Event.objects.filter(slug=slug).exists():
        preview.problems.append((None, _("An event with the address “%(slug)s” exists already.") % {"slug": slug}))
    season = form.cleaned_data["season"]
    pending = {
        "league": league.slug,
        "name": form.cleaned_data["name"],
        "slug": slug,
        "season": season.pk if season else None,
        "system": system,
        "digest": hashlib.sha256(data).hexdigest(),
        "preview": secrets.token_hex(8),  # this preview: confirmed twice, imported once
    }
    if preview.ok:
        request.session[IMPORT_SESSION_KEY] = {**pending, "data": base64.b64encode(data).decode("ascii")}
    else:
        request.session.pop(IMPORT_SESSION_KEY, None)
    return render(
        request,
        "leagues/manage/import_preview.html",
        _preview_context(league, preview, pending, target),
        status=200 if preview.ok else 400,
    )


def _follow(request, league, job, *, again):
    """Where a confirmation leads: the event a small file was imported into, or the page following a big
    file's import by a worker (`again`: this confirmation repeated an earlier one)."""
    if not runs_in_worker(job.players, job.rounds) and job.status == ImportJob.Status.DONE and job.event:
        if again:
            messages.info(request, _("This file is imported already."))
        if job.event.status == Event.Status.DRAFT:  # not public yet: its page, where it is published
            return redirect("manage:event", slug=job.event.slug)
        return redirect("leagues:event-standings", slug=job.event.slug)
    return redirect("manage:import-job", league=league.slug, job=job.pk)


@login_required
def import_job(request, league, job):
    """A big import run by a worker: its progress while it runs (followed by static/progress.js), then
    the event's link, or why nothing was imported."""
    league = get_object_or_404(League, slug=league)
    found = import_job_of(league=league, user=request.user, job_id=job)
    if found is None:
        raise Http404
    progress = import_job_progress(found)
    context = {
        "league": league,
        "job": found,
        "progress": progress,
        "step": import_step_sentence(progress),
        "working": progress["status"] in ("queued", "running"),
    }
    return render(request, "leagues/manage/import_job.html", context)


@login_required
def import_job_status(request, league, job):
    """What the worker has done so far (the import page polls it)."""
    league = get_object_or_404(League, slug=league)
    found = import_job_of(league=league, user=request.user, job_id=job)
    if found is None:
        raise Http404
    progress = import_job_progress(found)
    return JsonResponse(
        {
            "status": progress["status"],
            "progress": progress["progress"],
            "step": import_step_sentence(progress),
            "problem": progress["problem"],
        }
    )


def import_step_sentence(progress) -> str:
    """The step of an import as the page says it."""
    step, done, total = progress["step"], progress["done"], progress["total"]
    if step == "reading":
        return _("Reading the file")
    if step == "players":
        return _("Saving players %(done)s of %(total)s") % {"done": done, "total": total}
    if step == "games":
        return _("Saving rounds, games and byes")
    if step == "checking":
        return _("Checking the tiebreak policy")
    if step == "done":
        return _("Imported")
    if step == "failed":
        return _("Nothing was imported")
    return _("Waiting for a worker")


def _import_preview(data, system, event, league):
    """The service's preview; a file whose only problems are points-column questions is previewed as
    accepted (its `points_questions` stay listed): the organiser accepts them when confirming."""
    preview = import_preview(data=data, system=system, event=event, league=league)
    if preview.points_questions and len(preview.problems) == len(preview.points_questions):
        preview = import_preview(data=data, system=system, event=event, league=league, accept_points_column=True)
    return preview


def _edition_choice(value: str) -> dict:
    """The preview's answer to the rule-edition question: a rule set by name, or a start date (ISO)."""
    if not value:
        return {}
    return {"rule_set": value} if value in EDITION_NAMES else {"start_date": value}


def _preview_context(league, preview, pending, event):
    """The import preview page's context: the reader's notes and questions as sentences of the page's language."""
    names = {number: name for number, name, _rating in preview.players}
    return {
        "league": league,
        "preview": preview,
        "pending": pending,
        "event": event,
        # an accepted points column is listed with the questions
        "notes": [(n.line_number, note_sentence(n)) for n in preview.notes if n.kind != "points_column_accepted"],
        "questions": [(q.line_number, points_question_sentence(q, names)) for q in preview.points_questions],
        # a new event keeps the file's scoring; an update keeps the event's
        "scoring": scoring_sentence(preview.scoring) if preview.scoring and event is None else "",
        "edition_name": EDITION_NAMES.get(preview.edition.rule_set, "") if preview.edition else "",
        "edition_readings": _(" or ").join(preview.edition.readings) if preview.edition else "",
        "edition_question": (
            rule_edition_question(preview.edition) if preview.edition and not preview.edition.rule_set else ""
        ),
        "editions": list(EDITION_NAMES.items()),
    }


def _import_target(league, slug):
    """The event of this league a file with this address updates; None: the file creates one."""
    return Event.objects.filter(league=league, slug=slug).first()


def export_trf(request, slug):
    event = get_object_or_404(Event.objects.public(), slug=slug)
    response = HttpResponse(event_export_trf(event=event), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.trf"'
    return response


@login_required
def fixtures(request, slug):
    """The organiser draws a team division's round-robin schedule (Berger tables) and sees its warnings."""
    event = get_object_or_404(Event, slug=slug, kind=Event.Kind.TEAM)
    if not can_manage_event(request.user, event):
        raise DjangoPermissionDenied
    if event.is_knockout and request.method != "POST":  # a cup's matches come from its bracket: the cup's page
        return redirect("manage:cup", slug=slug)
    status = 200
    if request.method == "POST":
        status = _save(request, lambda: fixtures_generate(event=event, user=request.user), _("The schedule is drawn."))
        if status is None:
            return redirect("manage:fixtures", slug=slug)
    matches = (
        TeamMatch.objects.filter(round__event=event)
        .select_related("round", "home", "away")
        .order_by("round__number", "pk")
    )
    return render(
        request,
        "leagues/manage/fixtures.html",
        {
            "event": event,
            "matches": matches,
            "warnings": _warning_sentences(division_warnings(event=event)),
        },
        status=status or 200,
    )
