"""Organisers' pages: a league's seasons, events, clubs, players, entries, teams and rosters, prizes,
people and disputes. Thin views: the forms check what was typed, the services (leagues/services/leagues.py,
events.py, clubs.py, players.py, entries.py, teams.py, prize_funds.py, people.py, disputes.py) check again
and write."""

from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db.models import Field
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tiebreaks.money import money

from ..errors import PermissionDenied, ServiceError
from ..models import Entry, Event, League, Player, Role, Team, TeamMatch
from ..permissions import can_manage_event, event_arbiters, is_league_organiser
from ..prize_sentences import line_sentence
from ..services.clubs import club_save
from ..services.disputes import match_card_settle
from ..services.entries import entry_rating_set, entry_register
from ..services.events import TRANSITIONS, event_save, event_status_set
from ..services.league_rules import explain, violation_dismiss, violation_penalise
from ..services.league_rules import inbox as league_rules_inbox
from ..services.leagues import can_create_league, league_create, league_save, season_save
from ..services.people import league_people, role_change, role_invite, role_remove
from ..services.players import player_proposal_decide, player_proposals_for, player_save, players_of_league
from ..services.prize_funds import PrizeInput, prize_fund_save, prizes_preview
from ..services.ratings import long_event_days
from ..services.results import later_round_paired
from ..services.round_pairings import entry_bye_eligibility_set
from ..services.start_numbers import round_one_published
from ..services.teams import roster_set, team_save
from .cards import card_form, card_of
from .dashboard import overdue_cards
from .setup_forms import (
    ClubForm,
    DecisionForm,
    EntryForm,
    EntryRatingForm,
    EventForm,
    InviteForm,
    LeagueForm,
    NewLeagueForm,
    PlayerForm,
    PrizeFormSet,
    PrizeFundForm,
    RoleForm,
    RosterForm,
    SeasonForm,
    TeamForm,
    field_names,
    prize_initial,
)


def _league(request, slug) -> League:
    league = get_object_or_404(League, slug=slug)
    if not is_league_organiser(request.user, league.pk):
        raise DjangoPermissionDenied
    return league


def _event(request, slug, organiser=True) -> Event:
    event = get_object_or_404(Event.objects.select_related("league", "season"), slug=slug)
    allowed = is_league_organiser(request.user, event.league_id) if organiser else can_manage_event(request.user, event)
    if not allowed:
        raise DjangoPermissionDenied
    return event


def _run(request, form, action, done):
    """Run a service for a valid form; a refusal goes next to its field (or on top). True when saved."""
    try:
        action()
    except ServiceError as exc:
        field = getattr(exc, "field", "")
        if field and field in form.fields:
            form.add_error(field, exc.message)
        elif isinstance(exc, PermissionDenied):
            raise DjangoPermissionDenied from None
        else:
            form.add_error(None, exc.message)
        return False
    messages.success(request, done)
    return True


@login_required
def league(request, slug):
    league = _league(request, slug)
    events = league.events.select_related("season").order_by("season__name", "name")
    return render(
        request,
        "leagues/manage/league.html",
        {
            "league": league,
            "seasons": league.seasons.all(),
            "events": events,
            "clubs": league.clubs.all(),
            "setup_changes": league.setup_changes.select_related("user")[:20],
            "open_disputes": TeamMatch.objects.filter(
                round__event__league=league, status=TeamMatch.Status.DISPUTED
            ).count(),
        },
    )


@login_required
def league_new(request):
    """A new league, for users allowed to create leagues (the creator becomes its organiser)."""
    if not can_create_league(request.user):
        raise DjangoPermissionDenied
    form = NewLeagueForm(request.POST or None)
    saved = {}
    if request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in field_names(form)}

        def run():
            saved["league"] = league_create(user=request.user, fields=fields)

        if _run(request, form, run, _("League created: add its clubs, seasons and events.")):
            return redirect("manage:league", slug=saved["league"].slug)
    return render(
        request,
        "leagues/manage/form.html",
        {"form": form, "title": _("New league")},
        status=400 if form.errors else 200,
    )


@login_required
def league_edit(request, slug):
    league = _league(request, slug)
    form = LeagueForm(request.POST or None, instance=League.objects.get(pk=league.pk))
    if request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in field_names(form)}
        if _run(request, form, lambda: league_save(league=league, user=request.user, fields=fields), _("Saved.")):
            return redirect("manage:league", slug=league.slug)
    return render(
        request,
        "leagues/manage/form.html",
        {"league": league, "form": form, "title": _("League settings")},
        status=400 if form.errors else 200,
    )


@login_required
def season_edit(request, slug, season_id=None):
    league = _league(request, slug)
    season = get_object_or_404(league.seasons, pk=season_id) if season_id else None
    form = SeasonForm(request.POST or None, instance=season, league=league)
    if request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in field_names(form)}
        if _run(
            request,
            form,
            lambda: season_save(league=league, user=request.user, fields=fields, season=season),
            _("Season saved."),
        ):
            return redirect("manage:league", slug=league.slug)
    return render(
        request,
        "leagues/manage/form.html",
        {"league": league, "form": form, "title": _("Edit the season") if season else _("New season")},
        status=400 if form.errors else 200,
    )


@login_required
def event_edit(request, slug, event_slug=None):
    league = _league(request, slug)
    event = get_object_or_404(Event, slug=event_slug, league=league) if event_slug else None
    form = EventForm(request.POST or None, instance=event, league=league, initial={"season": request.GET.get("season")})
    if request.method == "POST" and form.is_valid():
        saved = {}

        def run():
            saved["event"] = event_save(
                league=league,
                user=request.user,
                fields=form.service_fields(),
                round_dates=form.round_dates(),
                round_venues=form.round_venues(),
                round_start_times=form.round_start_times(),
                event=event,
                reason=form.cleaned_data.get("reason", ""),
            )

        if _run(request, form, run, _("Event saved.")):
            return redirect("manage:event", slug=saved["event"].slug)
    return render(
        request,
        "leagues/manage/event_form.html",
        {"league": league, "form": form, "event": event, "title": _("Edit the event") if event else _("New event")},
        status=400 if form.errors else 200,
    )


@login_required
def event(request, slug):
    """An event's set-up: participants, rosters, schedule, prizes, policy, status."""
    event = _event(request, slug, organiser=False)
    organiser = is_league_organiser(request.user, event.league_id)
    entries = event.entries.select_related("player", "team__club").prefetch_related("team__members__player")
    return render(
        request,
        "leagues/manage/event.html",
        {
            "event": event,
            "organiser": organiser,
            "entries": entries,
            "rounds": event.rounds.all(),
            "next_status": sorted(TRANSITIONS[event.status]) if organiser else [],
            "arbiters": event_arbiters(event),
            "long_event_days": long_event_days(event),
        },
    )


@login_required
@require_POST
def event_status(request, slug):
    event = _event(request, slug)
    try:
        event_status_set(event=event, user=request.user, status=request.POST.get("status", ""))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("The event is now %(status)s.") % {"status": Event.objects.get(pk=event.pk).get_status_display()}
        )
    return redirect("manage:event", slug=event.slug)


@login_required
def entries(request, slug):
    event = _event(request, slug)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action == "rating" and not event.is_team:
        return _entry_rating(request, event)
    if action == "half_bye" and not event.is_team:
        return _entry_half_bye(request, event)
    form: TeamForm | EntryForm
    if event.is_team:
        form = TeamForm(request.POST or None, event=event)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            if _run(
                request,
                form,
                lambda: team_save(event=event, user=request.user, club=data["club"], name=data["name"]),
                _("Team registered."),
            ):
                return redirect("manage:entries", slug=event.slug)
    else:
        form = EntryForm(request.POST or None, event=event)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            if _run(
                request,
                form,
                lambda: entry_register(
                    event=event,
                    user=request.user,
                    player=data["player"],
                    rating=data["rating"],
                    late_bye=data["late_bye"],
                ),
                _("Player registered."),
            ):
                return redirect("manage:entries", slug=event.slug)
    return render(
        request,
        "leagues/manage/entries.html",
        {
            "event": event,
            "form": form,
            "entries": event.entries.select_related("player", "team__club"),
            "late": round_one_published(event),
        },
        status=400 if form.errors else 200,
    )


def _entry_rating(request, event: Event):
    """A registered player's rating at start corrected; a refusal is a message and nothing changes. Taking a player
    off the event is the confirmation page's (leagues/manage/removals.py), which the list's "Remove" leads to."""
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=request.POST.get("entry"), event=event)
    try:
        form = EntryRatingForm(request.POST)
        if not form.is_valid():
            raise ServiceError(form.errors["rating"][0])
        entry_rating_set(entry=entry, user=request.user, rating=form.cleaned_data["rating"])
        messages.success(request, _("The rating of %(player)s is saved.") % {"player": entry.name})
    except PermissionDenied:
        raise DjangoPermissionDenied from None
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("manage:entries", slug=event.slug)


def _entry_half_bye(request, event: Event):
    """A player marked eligible or not for a half-point bye on request (a free entry, the event's conditions)."""
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=request.POST.get("entry"), event=event)
    eligible = request.POST.get("eligible") == "yes"
    try:
        entry_bye_eligibility_set(entry=entry, eligible=eligible, user=request.user, kind="half")
        if eligible:
            messages.success(request, _("%(player)s may ask for a half-point bye.") % {"player": entry.name})
        else:
            messages.success(request, _("%(player)s is not eligible for a half-point bye.") % {"player": entry.name})
    except PermissionDenied:
        raise DjangoPermissionDenied from None
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("manage:entries", slug=event.slug)


@login_required
def roster(request, slug, team_id):
    event = _event(request, slug)
    team = get_object_or_404(Team.objects.select_related("club", "event"), pk=team_id, event=event)
    form = RosterForm(request.POST or None, team=team)
    if request.method == "POST" and form.is_valid():
        if _run(
            request, form, lambda: roster_set(team=team, user=request.user, players=form.roster()), _("Roster saved.")
        ):
            return redirect("manage:roster", slug=event.slug, team_id=team.pk)
    return render(
        request,
        "leagues/manage/roster.html",
        {"event": event, "team": team, "form": form},
        status=400 if form.errors else 200,
    )


#: what makes a row of the prize form a prize; a row without any of them is one of the blank rows the form
#: offers for a new prize, whatever its kind, rank or players counted show
PRIZE_DETAILS = ("place", "category", "eligibility_kind", "eligibility_value", "amount", "item")


def _prize_inputs(formset) -> list[PrizeInput]:
    """The prizes typed, in the organiser's order; blank and deleted rows left out."""
    out = []
    for data in formset.cleaned_data:
        if not data or data.get("DELETE") or not any(data.get(name) for name in PRIZE_DETAILS):
            continue
        out.append(
            PrizeInput(
                kind=data["kind"],
                place=data.get("place"),
                category=data.get("category") or "",
                eligibility_kind=data.get("eligibility_kind") or "",
                eligibility_value=data.get("eligibility_value") or "",
                rank=data.get("rank") or 1,
                amount=data.get("amount") or Decimal(0),
                item=data.get("item") or "",
                team_size=data.get("team_size") or 3,
            )
        )
    return out


@login_required
def prizes(request, slug):
    """The prize fund in the currency's units, with a preview of who would win if the event ended today."""
    event = _event(request, slug)
    fund = getattr(event, "prize_fund", None) if hasattr(event, "prize_fund") else None
    form = PrizeFundForm(
        request.POST or None,
        instance=fund,
        finished=event.status == Event.Status.FINISHED,
        initial=None if fund else {"currency": event.league.currency},
    )
    formset = PrizeFormSet(request.POST or None, initial=prize_initial(fund), prefix="prizes")
    preview = None
    if request.method == "POST" and form.is_valid() and formset.is_valid():
        fields = {name: form.cleaned_data[name] for name in field_names(form)}
        inputs = _prize_inputs(formset)
        if "preview" in request.POST:
            try:
                preview = prizes_preview(event=event, fields=fields, prizes=inputs)
            except ServiceError as exc:
                form.add_error(None, exc.message)
        elif _run(
            request,
            form,
            lambda: prize_fund_save(
                event=event, user=request.user, fields=fields, prizes=inputs, reason=form.cleaned_data.get("reason", "")
            ),
            _("Prizes saved."),
        ):
            return redirect("manage:prizes", slug=event.slug)
    elif request.method == "GET" and fund is not None:
        preview = prizes_preview(
            event=event, fields={n: getattr(fund, n) for n in field_names(form)}, prizes=_stored_inputs(fund)
        )
    sentences, awards = [], []
    if preview is not None:
        sentences = [line_sentence(code, params, preview.currency, isolated=True) for code, params in preview.lines]
        awards = [
            (place, name, money(amount, preview.currency), items) for place, name, amount, items in preview.awards
        ]
    return render(
        request,
        "leagues/manage/prizes.html",
        {
            "event": event,
            "form": form,
            "formset": formset,
            "preview": preview,
            "sentences": sentences,
            "awards": awards,
        },
        status=400 if (form.errors or formset.errors) else 200,
    )


def _stored_inputs(fund):
    return [PrizeInput(**row) for row in prize_initial(fund)]


@login_required
def clubs(request, slug, club_id=None):
    league = _league(request, slug)
    club = get_object_or_404(league.clubs, pk=club_id) if club_id else None
    form = ClubForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in field_names(form)}
        if _run(
            request,
            form,
            lambda: club_save(league=league, user=request.user, fields=fields, club=club),
            _("Club saved."),
        ):
            return redirect("manage:clubs", slug=league.slug)
    return render(
        request,
        "leagues/manage/clubs.html",
        {"league": league, "form": form, "club": club, "clubs": league.clubs.all()},
        status=400 if form.errors else 200,
    )


@login_required
def players(request, slug, player_id=None):
    league = _league(request, slug)
    in_league = players_of_league(league)
    player = get_object_or_404(in_league, pk=player_id) if player_id else None
    if request.method == "POST" and "proposal" in request.POST:  # another league's proposed change: decided here
        try:
            proposal = player_proposal_decide(
                proposal_id=int(request.POST["proposal"]) if request.POST["proposal"].isdigit() else 0,
                accept=request.POST.get("decision") == "accept",
                user=request.user,
            )
        except PermissionDenied:
            raise DjangoPermissionDenied from None
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _("The change is accepted.")
                if proposal.status == proposal.Status.ACCEPTED
                else _("The change is declined; nothing was written."),
            )
        return redirect("manage:players", slug=league.slug)
    form = PlayerForm(request.POST or None, instance=player, league=league)
    if request.method == "POST" and form.is_valid():
        fields = form.service_fields()
        club = form.cleaned_data.get("club")
        if _run(
            request,
            form,
            lambda: player_save(league=league, user=request.user, fields=fields, club=club, player=player),
            _("Player saved."),
        ):
            return redirect("manage:players", slug=league.slug)
    return render(
        request,
        "leagues/manage/players.html",
        {
            "league": league,
            "form": form,
            "player": player,
            "players": in_league.prefetch_related("clubs").order_by("name"),
            "proposals": [(proposal, _player_field_label(proposal.field)) for proposal in player_proposals_for(league)],
        },
        status=400 if form.errors else 200,
    )


@login_required
def people(request, slug):
    league = _league(request, slug)
    form = InviteForm(request.POST or None, league=league, initial={"email_language": request.LANGUAGE_CODE})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if _run(
            request,
            form,
            lambda: role_invite(
                league=league,
                user=request.user,
                email=data["email"],
                kind=data["kind"],
                club=data.get("club"),
                event=data.get("event"),
                language=data["email_language"],
            ),
            _("Invitation sent."),
        ):
            return redirect("manage:people", slug=league.slug)
    return render(
        request,
        "leagues/manage/people.html",
        {"league": league, "form": form, "roles": league_people(league)},
        status=400 if form.errors else 200,
    )


@login_required
def role_edit(request, slug, role_id):
    league = _league(request, slug)
    role = get_object_or_404(league_people(league), pk=role_id)
    initial = {"kind": role.kind, "club": role.club_id, "event": role.event_id}
    form = RoleForm(request.POST or None, league=league, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if _run(
            request,
            form,
            lambda: role_change(
                role=role, league=league, user=request.user, kind=data["kind"], club=data["club"], event=data["event"]
            ),
            _("Role changed."),
        ):
            return redirect("manage:people", slug=league.slug)
    title = _("Role of %(user)s") % {"user": role.user.username}
    return render(
        request,
        "leagues/manage/form.html",
        {"league": league, "form": form, "title": title},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def role_delete(request, slug, role_id):
    league = _league(request, slug)
    role = get_object_or_404(Role, pk=role_id)
    try:
        role_remove(role=role, league=league, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Role removed."))
    return redirect("manage:people", slug=league.slug)


@login_required
def disputes(request, slug):
    """Every disputed card of the league and every card overdue (round played, no card), with reasons; and the
    league rules broken on saved cards (services.league_rules), each with its penalty to apply or to dismiss."""
    league = _league(request, slug)
    if request.method == "POST":
        chosen = request.POST.get("action")
        action = violation_penalise if chosen in ("penalise", "penalise_keep") else violation_dismiss
        violation = request.POST.get("violation", "")
        try:
            if not (violation.isascii() and violation.isdigit() and len(violation) < 10):
                raise ServiceError(_("There is no such rule violation."), code="unknown_violation")
            if action is violation_penalise:  # a cup: "keep" leaves its next round as it is made
                violation_penalise(
                    violation_id=int(violation),
                    user=request.user,
                    later_pairing="keep" if chosen == "penalise_keep" else "",
                )
            else:
                violation_dismiss(violation_id=int(violation), user=request.user)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                _("Penalty applied.") if action is violation_penalise else _("Violation dismissed without a penalty."),
            )
        return redirect("manage:disputes", slug=league.slug)
    violations = [v for v in league_rules_inbox(request.user) if v.match.round.event.league_id == league.pk]
    cards = TeamMatch.objects.select_related("round__event", "home__team", "away__team")
    event_ids = list(league.events.values_list("pk", flat=True))
    return render(
        request,
        "leagues/manage/disputes.html",
        {
            "league": league,
            "disputed": cards.filter(round__event__league=league, status=TeamMatch.Status.DISPUTED),
            "overdue": overdue_cards(event_ids, timezone.localdate()).select_related(
                "round__event", "home__team", "away__team"
            ),
            "settled": cards.filter(round__event__league=league).exclude(decision="").order_by("-settled_at")[:20],
            "violations": list(zip(violations, explain(violations), strict=True)),
        },
    )


@login_required
def dispute(request, match_id):
    """Settle one disputed card: the results as decided and a decision both clubs read."""
    match = card_of(match_id)
    if not can_manage_event(request.user, match.round.event):
        raise DjangoPermissionDenied
    card = card_form(match, request.POST if request.method == "POST" else None)
    form = DecisionForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and card.is_valid():
        if _run(
            request,
            form,
            lambda: match_card_settle(
                match_id=match.pk,
                user=request.user,
                decision=form.cleaned_data["decision"],
                results=card.results(),
                lineup=card.lineup(),
                expected_version=int(request.POST.get("card_version", -1)),
                later_pairing=card.cleaned_data["later_pairing"],
            ),
            _("Dispute settled; both clubs are told."),
        ):
            return redirect("manage:match-card", match_id=match.pk)
    rows = list(card.rows())
    return render(
        request,
        "leagues/manage/dispute.html",
        {
            "match": match,
            "form": form,
            "card": card,
            "rows": rows,
            "card_version": match.version,
            # the next round paired already: a correction asks what becomes of it (services.results)
            "ask_later_pairing": later_round_paired(match.round.event, match.round.number) is not None,
        },
        status=400 if form.errors else 200,
    )


def _player_field_label(name: str):
    """The label of a player's field a club proposes to change (a plain field of the model)."""
    field = Player._meta.get_field(name)
    if not isinstance(field, Field):
        raise RuntimeError("a player field a club proposes to change is a plain model field")
    return field.verbose_name
