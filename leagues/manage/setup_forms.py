"""Organisers' forms: what they type, validated field by field; the services validate again and write."""

from collections.abc import Collection
from datetime import timedelta
from typing import ClassVar, cast

from django import forms
from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tiebreaks.engine import RULE_SETS, recommended_criteria
from tiebreaks.money import money
from tiebreaks.names import rule_set_name
from tiebreaks.prizes import CURRENCIES

from ..models import Club, Event, League, Player, Prize, PrizeFund, Role, Season
from ..services.entries import LATE_BYES, MAX_RATING
from ..services.events import EVENT_FIELDS
from ..services.players import player_fields, players_of_league
from ..services.prize_funds import FUND_FIELDS, major_units
from ..text import refuse_control_characters

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
MAX_ROUNDS = 30


def field_names(form: forms.ModelForm) -> Collection[str]:
    """The model fields a form edits (its Meta.fields)."""
    names = form._meta.fields
    if names is None:
        raise RuntimeError("every form here names its fields")
    return names


class LeagueForm(forms.ModelForm):
    class Meta:
        model = League
        fields: tuple[str, ...] = ("name", "auto_confirm_days", "currency", "players_without_club", "federation")
        help_texts: ClassVar[dict[str, str | Promise]] = {
            "currency": _("The currency of the league's prize funds, unless a fund names another."),
            "federation": _(
                "FIDE's three-letter code of the league's country, e.g. USA or NOR. The English pages of a league "
                "in the United States write dates month first (Dec 6, 2026), others day first (6 Dec 2026)."
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].validators.append(refuse_control_characters)
        self.fields["currency"].required = False  # not sent: as it was

    def clean_currency(self):
        return self.cleaned_data["currency"] or self.instance.currency


class NewLeagueForm(LeagueForm):
    class Meta(LeagueForm.Meta):
        fields = ("name", "slug", "auto_confirm_days", "currency", "players_without_club", "federation")
        help_texts: ClassVar[dict[str, str | Promise]] = {
            "slug": _("The league's address, e.g. oslo-league: letters, digits and hyphens."),
            "currency": LeagueForm.Meta.help_texts["currency"],
            "federation": LeagueForm.Meta.help_texts["federation"],
        }


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ("name", "slug", "starts_on", "ends_on", "ranking_deadline", "nomination_deadline")
        widgets: ClassVar[dict[str, forms.Widget]] = {
            "starts_on": DATE,
            "ends_on": DATE,
            "ranking_deadline": DATE,
            "nomination_deadline": DATE,
        }

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.league = league


class EventForm(forms.ModelForm):
    """An event's settings and one date per round (empty dates: weekly from the start date)."""

    class Meta:
        model = Event
        fields = (
            "name",
            "slug",
            "season",
            "kind",
            "system",
            "rounds_count",
            "starts_on",
            "venue",
            "time_control",
            "boards",
            "points_win",
            "points_draw",
            "points_loss",
            "primary_score",
            "match_points_win",
            "match_points_draw",
            "match_points_loss",
            "board_one_white_for_home",
            "baku_acceleration",
            "rating_method",
            "unrated_rating",
        )
        widgets: ClassVar[dict[str, forms.Widget]] = {"starts_on": DATE}
        help_texts: ClassVar[dict[str, str | Promise]] = {
            "unrated_rating": _(
                "The rating assumed for unrated players (0 to 3000) in the initial ranking and, when the regulations "
                "announce it, in the rating-based tie-breaks. Empty: none."
            ),
            "boards": _("Team events: boards per match."),
            "rounds_count": _("A round robin of n teams or players has n−1 rounds (odd n: n), twice that double."),
        }

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        if not set(field_names(self)) <= EVENT_FIELDS | {"name", "slug"}:
            raise RuntimeError("the event form edits event fields only")
        self.instance.league = league
        cast(forms.ModelChoiceField, self.fields["season"]).queryset = Season.objects.filter(league=league)
        cast(forms.IntegerField, self.fields["rounds_count"]).min_value = 1
        self.fields["rating_method"].required = False  # not sent: the event's (FIDE's rating for a new one)
        self._tiebreak_fields()
        if self.instance.pk:  # a change of the scoring or the acceleration after the start needs one (issue #31)
            self.fields["reason"] = forms.CharField(
                label=_("Reason for a change after the start"),
                required=False,
                max_length=300,
                validators=[refuse_control_characters],
                help_text=_(
                    "Outside FIDE mode a change of the scoring, the Baku acceleration, the rating method or the "
                    "rating for unrated players after round 1 is published needs a reason; it is shown publicly "
                    "with the change."
                ),
            )
        try:
            count = int(self.data.get("rounds_count") or self.instance.rounds_count or 0)
        except ValueError:
            count = 0
        rounds = {r.number: r for r in self.instance.rounds.all()} if self.instance.pk else {}
        for number in range(1, min(max(count, 1), MAX_ROUNDS) + 1):
            stored = rounds.get(number)
            self.fields[f"round_{number}"] = forms.DateField(
                label=_("Round %(number)s date") % {"number": number},
                required=False,
                widget=DATE,
                initial=stored and stored.date,
            )
            self.fields[f"round_{number}_start"] = forms.TimeField(
                label=_("Round %(number)s start time") % {"number": number},
                required=False,
                widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
                initial=stored and stored.start_time,
            )
            self.fields[f"round_{number}_venue"] = forms.CharField(
                label=_("Round %(number)s venue") % {"number": number},
                required=False,
                max_length=200,
                validators=[refuse_control_characters],
                initial=stored.venue if stored else "",
            )

    def _tiebreak_fields(self):
        """The rule set and the tiebreak order: chosen here for a new event (empty: the recommended order),
        shown (not changed) here afterwards: the policy page changes them, locked from the first result."""
        event = self.instance
        self.fields["rule_set"] = forms.ChoiceField(
            label=_("Rule set"),
            choices=[(name, rule_set_name(name)) for name in RULE_SETS],
            initial=event.rule_set,
            required=False,  # not sent: the model's default
        )
        self.fields["tiebreak_criteria"] = forms.CharField(
            label=_("Tiebreak order"),
            required=False,
            max_length=300,
            initial=", ".join(event.tiebreak_criteria or []),
            help_text=_(
                "Criteria in order, separated by commas. Empty: the recommended order for the event's system and "
                "number of rounds, e.g. Swiss: %(swiss)s; round robin: %(round_robin)s; team events: %(team)s."
            )
            % {
                kind: ", ".join(c for c in recommended_criteria(name) if c != "PTS")
                for kind, name in (("swiss", "swiss"), ("round_robin", "round_robin"), ("team", "team_swiss"))
            },
        )
        if event.pk:
            for name in ("rule_set", "tiebreak_criteria"):
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Change it on the event's tiebreak policy page.")

    def clean_rule_set(self):
        return self.cleaned_data["rule_set"] or self.instance.rule_set

    def clean_rating_method(self):
        return self.cleaned_data["rating_method"] or self.instance.rating_method

    def clean_tiebreak_criteria(self):
        return [code.strip() for code in self.cleaned_data["tiebreak_criteria"].split(",") if code.strip()]

    def round_fields(self):
        """(date, start time, venue) of each round, for the schedule part of the form."""
        count = sum(1 for name in self.fields if name.startswith("round_") and name.count("_") == 1)
        return [(self[f"round_{n}"], self[f"round_{n}_start"], self[f"round_{n}_venue"]) for n in range(1, count + 1)]

    def round_start_times(self):
        """The start times typed, one per round (None: not known yet)."""
        return [self.cleaned_data.get(f"round_{n}_start") for n in range(1, self.cleaned_data["rounds_count"] + 1)]

    def round_venues(self):
        """The venues typed, one per round ("" = the event's venue)."""
        return [self.cleaned_data.get(f"round_{n}_venue", "") for n in range(1, self.cleaned_data["rounds_count"] + 1)]

    def clean_rounds_count(self):
        count = self.cleaned_data["rounds_count"]
        if not 1 <= count <= MAX_ROUNDS:
            raise forms.ValidationError(_("Between 1 and %(max)s rounds.") % {"max": MAX_ROUNDS})
        return count

    def round_dates(self):
        """The dates typed; the empty ones weekly after the one before (or the start date)."""
        data = self.cleaned_data
        previous = data.get("starts_on") and data["starts_on"] - timedelta(weeks=1)
        dates = []
        for number in range(1, data["rounds_count"] + 1):
            day = data.get(f"round_{number}")
            if day is None and previous:
                day = previous + timedelta(weeks=1)
            dates.append(day)
            previous = day
        return dates

    def service_fields(self):
        fields = {name: self.cleaned_data[name] for name in field_names(self)}
        if self.instance.pk is None:  # chosen with a new event only (then on the policy page)
            fields.update(
                rule_set=self.cleaned_data["rule_set"], tiebreak_criteria=self.cleaned_data["tiebreak_criteria"]
            )
        return fields


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ("name", "slug", "short_name")


class PlayerForm(forms.ModelForm):
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none(), required=False)

    class Meta:
        model = Player
        fields = player_fields()

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["club"]).queryset = league.clubs.filter(retired=False)
        if not self.instance.pk and not league.players_without_club:
            self.fields["club"].required = True

    def service_fields(self):
        return {name: self.cleaned_data[name] for name in field_names(self)}


class EntryForm(forms.Form):
    player = forms.ModelChoiceField(label=_("Player"), queryset=Player.objects.none())
    rating = forms.IntegerField(
        label=_("Rating at start"),
        required=False,
        min_value=0,
        max_value=MAX_RATING,
        help_text=_("Empty: the player's rating."),
    )
    late_bye = forms.ChoiceField(
        label=_("Rounds already played"),
        choices=[("zero", _("zero-point bye in each")), ("half", _("half-point bye in each"))],
        initial="zero",
        help_text=_("Only for a late entry."),
    )

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        # the stubs type the choices' getter as the setter's input; it gives the normalised list
        late_byes = cast(forms.ChoiceField, self.fields["late_bye"]).choices
        if set(dict(late_byes)) != set(LATE_BYES):  # type: ignore[arg-type]
            raise RuntimeError("the late-bye choices are LATE_BYES")
        cast(forms.ModelChoiceField, self.fields["player"]).queryset = (
            players_of_league(event.league)
            .filter(retired=False)
            .exclude(pk__in=event.entries.filter(player__isnull=False).values("player"))
            .order_by("name")
        )


class EntryRatingForm(forms.Form):
    """A registered player's rating at start, corrected (empty: unrated)."""

    rating = forms.IntegerField(label=_("Rating at start"), required=False, min_value=0, max_value=MAX_RATING)


class TeamForm(forms.Form):
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none())
    name = forms.CharField(
        label=_("Team name"), max_length=200, help_text=_("E.g. “Oslo SK 2”: the number orders the club's teams.")
    )

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["club"]).queryset = event.league.clubs.filter(retired=False)


class RosterForm(forms.Form):
    """The roster in board order: one choice per place; the places after the event's boards are reserves."""

    def __init__(self, *args, team, **kwargs):
        super().__init__(*args, **kwargs)
        players = list(team.club.players.order_by("name"))
        current = [m.player_id for m in team.members.order_by("board_order")]
        boards = team.event.boards
        for place in range(1, max(len(players), 1) + 1):
            label = (
                _("Board %(place)s") % {"place": place}
                if place <= boards
                else _("Reserve %(place)s") % {"place": place - boards}
            )
            self.fields[f"place_{place}"] = forms.ModelChoiceField(
                label=label,
                queryset=team.club.players.all(),
                required=False,
                initial=current[place - 1] if place <= len(current) else None,
            )
        self.players = players

    def roster(self):
        return [self.cleaned_data[name] for name in self.fields if self.cleaned_data.get(name)]


class PrizeFundForm(forms.ModelForm):
    class Meta:
        model = PrizeFund
        fields = sorted(FUND_FIELDS)

    def __init__(self, *args, finished=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.order_fields(
            ["currency", "method", "one_prize_per_player", "places_first", "remainder", "item_tie", "published"]
        )
        self.fields["published"].help_text = _("Readers see the prizes and today's winners once published.")
        if finished:
            self.fields["reason"] = forms.CharField(
                label=_("Reason for the change"),
                max_length=300,
                help_text=_("The event is finished: the reason is shown on its public page."),
            )


class PrizeForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind"), choices=Prize.Kind.choices, initial=Prize.Kind.PLACE)
    place = forms.IntegerField(label=_("Place"), required=False, min_value=1)
    category = forms.CharField(label=_("Category"), required=False, max_length=100)
    eligibility_kind = forms.ChoiceField(
        label=_("Eligibility"), required=False, choices=[("", "–"), *Prize.Eligibility.choices]
    )
    eligibility_value = forms.CharField(label=_("Eligibility value"), required=False, max_length=100)
    rank = forms.IntegerField(label=_("Rank in the category"), required=False, min_value=1, initial=1)
    amount = forms.DecimalField(label=_("Amount"), min_value=0, decimal_places=2, max_digits=12, initial=0)
    item = forms.CharField(label=_("Indivisible item"), required=False, max_length=200)
    team_size = forms.IntegerField(label=_("Players counted"), required=False, min_value=1, initial=3)

    #: the kinds of prize that use a field (the others use it on every kind): the page shows only these
    KINDS_OF_FIELD: ClassVar[dict[str, tuple[str, ...]]] = {
        "place": (Prize.Kind.PLACE,),
        "category": (Prize.Kind.CATEGORY,),
        "eligibility_kind": (Prize.Kind.CATEGORY,),
        "eligibility_value": (Prize.Kind.CATEGORY,),
        "rank": (Prize.Kind.CATEGORY, Prize.Kind.CLUB_TEAM),
        "team_size": (Prize.Kind.CLUB_TEAM,),
    }

    def kind_now(self) -> str:
        """The kind the form shows: as posted, else as stored, else a place prize."""
        if self.is_bound:
            return self.data.get(self.add_prefix("kind"), "") or Prize.Kind.PLACE
        return self.initial.get("kind") or Prize.Kind.PLACE

    def fields_by_kind(self):
        """(field, the kinds using it as "a b" or "" for every kind, unused by the kind shown) for each field; a
        field with an error is always shown."""
        kind = self.kind_now()
        for field in self.visible_fields():
            kinds = self.KINDS_OF_FIELD.get(field.name, ())
            yield field, " ".join(kinds), bool(kinds) and kind not in kinds and not field.errors


MAX_PRIZE_MONEY = 2**31 - 1  # minor units: what the prize fund's columns hold


class BasePrizeFormSet(forms.BaseFormSet):
    def clean(self):
        """All prizes together in the fund's currency (posted beside them) fit what the fund can store."""
        super().clean()
        currency = self.data.get("currency", "")
        decimals = CURRENCIES.get(currency, (currency, 2))[1]
        rows = [form.cleaned_data for form in self.forms if form.is_valid() and not form.cleaned_data.get("DELETE")]
        total = sum((row.get("amount") or 0) * 10**decimals for row in rows)
        if total > MAX_PRIZE_MONEY:
            raise forms.ValidationError(
                _("The prize money is too large: all the prizes together may come to at most %(amount)s.")
                % {"amount": money(MAX_PRIZE_MONEY - MAX_PRIZE_MONEY % 10**decimals, currency)},
                code="prize_money_too_large",
            )


PrizeFormSet = forms.formset_factory(PrizeForm, formset=BasePrizeFormSet, extra=2, can_delete=True)


def prize_initial(fund):
    if fund is None:
        return []
    return [
        {
            "kind": p.kind,
            "place": p.place,
            "category": p.category,
            "eligibility_kind": p.eligibility_kind,
            "eligibility_value": p.eligibility_value,
            "rank": p.rank,
            "amount": major_units(p.amount, fund.currency),
            "item": p.item,
            "team_size": p.team_size,
        }
        for p in fund.prizes.all()
    ]


class InviteForm(forms.Form):
    email = forms.EmailField(label=_("Email address"))
    kind = forms.ChoiceField(label=_("Role"), choices=Role.Kind.choices)
    club = forms.ModelChoiceField(label=_("Club (secretaries)"), queryset=Club.objects.none(), required=False)
    event = forms.ModelChoiceField(label=_("Event (arbiters)"), queryset=Event.objects.none(), required=False)
    email_language = forms.ChoiceField(label=_("Language of the emails"), choices=settings.LANGUAGES)

    def __init__(self, *args, league, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["club"]).queryset = league.clubs.all()
        cast(forms.ModelChoiceField, self.fields["event"]).queryset = league.events.all()

    def clean(self):
        data = super().clean()
        if data is None:
            raise RuntimeError("Form.clean returns cleaned_data")
        if data.get("kind") == Role.Kind.SECRETARY and not data.get("club"):
            self.add_error("club", _("A secretary works for a club: choose it."))
        if data.get("kind") == Role.Kind.ARBITER and not data.get("event"):
            self.add_error("event", _("An arbiter works for an event: choose it."))
        return data


class RoleForm(InviteForm):
    """A role changed: its kind and what it is for (the person stays)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["email"], self.fields["email_language"]


class DecisionForm(forms.Form):
    decision = forms.CharField(
        label=_("Decision"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Both clubs read it on the card and by email."),
    )
