"""Forms for secretaries: a whole round on one sheet, a match card, the tiebreak policy, TRF import."""

import copy
from html import escape
from typing import Any, TypeVar, cast

from django import forms
from django.http import QueryDict
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tiebreaks.engine import RULE_SETS
from tiebreaks.names import rule_set_name
from tiebreaks.trf.read import records_by_tag

from ..models import BYE_RESULTS, GAME_RESULTS, Event, Result, Season
from ..text import home_result_labels, refuse_control_characters

GAME_CHOICES = [(code, label) for code, label in Result.choices if code in GAME_RESULTS]
BYE_CHOICES = [(code, label) for code, label in Result.choices if code in BYE_RESULTS]
F = TypeVar("F", bound=forms.Field)


def _copied(field: F) -> F:
    """A copy of `field` as a form copies its declared fields (Field.__deepcopy__: its own widget with its own
    attributes, its own messages and validators), its choices shared (nothing changes them): a fifth of the time of
    building the field or deep-copying it."""
    copied = copy.copy(field)
    copied.widget = copy.copy(field.widget)
    copied.widget.attrs = field.widget.attrs.copy()
    copied.error_messages = field.error_messages.copy()
    copied.validators = field.validators[:]
    return copied


class ResultsForm(forms.Form):
    """One result field per game (and a hidden version each): the sheet is saved whole or not at all."""

    reason = forms.CharField(
        label=_("Reason for corrections"),
        required=False,
        max_length=300,
        help_text=_("Needed when you change a result that was already entered."),
    )
    # asked when a correction comes after the next round was paired (services.results.result_record)
    later_pairing = forms.ChoiceField(
        label=_("The next round is paired already"),
        choices=[
            ("keep", _("Keep the next round as it is paired")),
            ("unpair", _("Unpair the next round and pair it again (only while it has no results)")),
        ],
        required=False,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, games, **kwargs):
        super().__init__(*args, **kwargs)
        self.games = list(games)
        # each board's two fields are copies (_copied) of one field of each kind built here: building 216 fields one
        # by one took about 4 ms of a 108-board sheet's page and of its save
        results = {
            bye: forms.ChoiceField(
                choices=BYE_CHOICES if bye else GAME_CHOICES,
                required=False,
                widget=forms.Select(attrs={"class": "result"}),
            )
            for bye in (False, True)
        }
        versions = forms.IntegerField(widget=forms.HiddenInput)
        for game in self.games:
            result = _copied(results[game.is_bye])
            result.label = (
                _("Result of the bye of %(player)s") % {"player": game.white}
                if game.is_bye
                else _("Result on board %(board)s") % {"board": game.board}
            )
            result.initial = game.result
            self.fields[f"result_{game.pk}"] = result
            version = _copied(versions)
            version.initial = game.version
            self.fields[f"version_{game.pk}"] = version

    def rows(self):
        for game in self.games:
            yield game, self[f"result_{game.pk}"], self[f"version_{game.pk}"]

    def sheet_rows(self) -> SafeString:
        """The sheet's rows (board, White, the result's choice and its version, Black), built in Python as the
        template and Django's widgets wrote them: a 500-board sheet through the widgets' templates took a second.
        Each option list is escaped once per sheet; a field with errors is marked and named as before."""
        bye = escape(gettext("bye"))
        corrected = f' <span class="muted">{escape(gettext("corrected"))}</span>'
        options: dict = {}  # the choices' values -> [(value, escaped option without and with "selected")]
        out = []
        for index, game in enumerate(self.games):
            field = self[f"result_{game.pk}"]
            version = self[f"version_{game.pk}"]
            choices = BYE_CHOICES if game.is_bye else GAME_CHOICES  # the field's, as __init__ gave them
            values = tuple(str(value) for value, _label in choices)
            known = options.get(values)
            if known is None:
                known = options[values] = [
                    (
                        str(value),
                        f'<option value="{escape(str(value))}">{escape(str(label))}</option>',
                        f'<option value="{escape(str(value))}" selected>{escape(str(label))}</option>',
                    )
                    for value, label in choices
                ]
            value = field.value()
            chosen = "" if value is None else str(value)
            tags = "".join(selected if shown == chosen else plain for shown, plain, selected in known)
            auto_id = escape(field.auto_id)
            attributes = " autofocus" if index == 0 else ""
            errors = ""
            if field.errors:
                attributes += f' aria-invalid="true" aria-describedby="{auto_id}_error"'
                said = " ".join(conditional_escape(str(error)) for error in field.errors)
                errors = f'<span class="field-error" id="{auto_id}_error">{said}</span>'
            if version.errors:
                hidden = str(version)
            else:
                kept = version.value()
                shown = "" if kept is None or kept == "" else f' value="{escape(str(kept))}"'
                hidden = (
                    f'<input type="hidden" name="{escape(version.html_name)}"{shown} id="{escape(version.auto_id)}">'
                )
            white = game.white_player if game.white_player_id else game.white
            if game.is_bye:
                first, black = bye, bye
            else:
                first = str(game.board)
                black = escape(str(game.black_player if game.black_player_id else game.black))
            out.append(
                "\n    <tr>\n"
                f"      <td>{first}</td>\n"
                f"      <td><bdi>{escape(str(white))}</bdi></td>\n"
                f'      <td class="result"><label class="visually-hidden" for="{auto_id}">{escape(str(field.label))}'
                f'</label><select class="result" name="{escape(field.html_name)}" id="{auto_id}"{attributes}>'
                f"{tags}</select>{hidden}{errors}{corrected if game.corrected else ''}</td>\n"
                f"      <td><bdi>{black}</bdi></td>\n"
                "    </tr>\n  "
            )
        return mark_safe("".join(out))  # noqa: S308 - every value above is escaped

    def results(self) -> dict[int, tuple[str, int]]:
        data = self.cleaned_data
        return {
            g.pk: (data[f"result_{g.pk}"], data[f"version_{g.pk}"])
            for g in self.games
            if f"result_{g.pk}" in self.data  # a field the sheet did not send leaves the game as it is
        }


#: the result codes of a game and who scores: (white's points, black's points) as game results count
_WHITE_SCORE = {
    Result.WHITE_WINS: ("win", "loss"),
    Result.DRAW: ("draw", "draw"),
    Result.BLACK_WINS: ("loss", "win"),
    Result.WHITE_WINS_FORFEIT: ("win", "loss"),
    Result.BLACK_WINS_FORFEIT: ("loss", "win"),
    Result.DOUBLE_FORFEIT: ("loss", "loss"),
}


def card_result_options(event, home_white: bool):
    """(code, label from the home side, home points, away points, key typed for it) for each result of a board."""
    points = {"win": event.points_win, "draw": event.points_draw, "loss": event.points_loss}
    labels = home_result_labels()
    as_home = {
        Result.WHITE_WINS: "home_win" if home_white else "away_win",
        Result.BLACK_WINS: "away_win" if home_white else "home_win",
        Result.DRAW: "draw",
        Result.WHITE_WINS_FORFEIT: "home_forfeit_win" if home_white else "away_forfeit_win",
        Result.BLACK_WINS_FORFEIT: "away_forfeit_win" if home_white else "home_forfeit_win",
        Result.DOUBLE_FORFEIT: "double_forfeit",
    }
    order = ["home_win", "draw", "away_win", "home_forfeit_win", "away_forfeit_win", "double_forfeit"]
    keys = {"home_win": "1", "draw": "=", "away_win": "0"}
    options = [(Result.PENDING.value, "–", "", "", "")]
    for key in order:
        code = next(c for c, k in as_home.items() if k == key)
        white, black = (points[s] for s in _WHITE_SCORE[code])
        home, away = (white, black) if home_white else (black, white)
        options.append((code.value, labels[key], home, away, keys.get(key, "")))
    options.append((Result.UNKNOWN.value, "?", "", "", ""))
    return options


class MatchCardForm(forms.Form):
    """A team match card: each board's two players (from the clubs' rosters) and its result."""

    reason = ResultsForm.base_fields["reason"]
    later_pairing = ResultsForm.base_fields["later_pairing"]

    def __init__(self, *args, match, games, home_choices, away_choices, **kwargs):
        super().__init__(*args, **kwargs)
        self.match, self.games = match, list(games)

        def player_field(choices, label):
            groups = {
                "roster": _("Roster"),
                "reserve": _("Reserves"),
                "club": _("Other club players (not on the roster)"),
            }
            grouped: list[tuple[Any, Any]] = [("", "–")]
            for group, title in groups.items():
                members = [(c.player.pk, c.player.name) for c in choices if c.group == group]
                if members:
                    grouped.append((title, members))
            return forms.TypedChoiceField(label=label, choices=grouped, coerce=int, empty_value=None, required=False)

        for game in self.games:
            home_white = game.white_id == match.home_id
            home_player, away_player = (
                (game.white_player_id, game.black_player_id)
                if home_white
                else (game.black_player_id, game.white_player_id)
            )
            self.fields[f"home_{game.pk}"] = player_field(
                home_choices, _("Home player, board %(board)s") % {"board": game.board}
            )
            self.fields[f"away_{game.pk}"] = player_field(
                away_choices, _("Away player, board %(board)s") % {"board": game.board}
            )
            self.fields[f"home_{game.pk}"].initial = home_player
            self.fields[f"away_{game.pk}"].initial = away_player
            self.fields[f"result_{game.pk}"] = forms.ChoiceField(
                label=_("Result on board %(board)s") % {"board": game.board},
                choices=GAME_CHOICES,
                initial=game.result,
                required=False,
            )
            self.fields[f"version_{game.pk}"] = forms.IntegerField(widget=forms.HiddenInput, initial=game.version)

    def rows(self):
        event = self.match.round.event
        for game in self.games:
            home_white = game.white_id == self.match.home_id
            result = self[f"result_{game.pk}"]
            yield {
                "game": game,
                "home_white": home_white,
                "home": self[f"home_{game.pk}"],
                "away": self[f"away_{game.pk}"],
                "result": result,
                "version": self[f"version_{game.pk}"],
                "options": card_result_options(event, home_white),
                "chosen": result.value() or "",
            }

    def lineup(self) -> dict[int, tuple[int | None, int | None]]:
        data = self.cleaned_data
        return {g.board: (data.get(f"home_{g.pk}"), data.get(f"away_{g.pk}")) for g in self.games}

    def results(self) -> dict[int, tuple[str, int]]:
        data = self.cleaned_data
        return {
            g.pk: (data[f"result_{g.pk}"], data[f"version_{g.pk}"])
            for g in self.games
            if f"result_{g.pk}" in self.data  # a field the sheet did not send leaves the game as it is
        }


def match_score(match, rows) -> tuple:
    """The running match score (home, away) in game points from the rows' chosen results."""
    home = away = 0
    for row in rows:
        for code, _label, h, a, _key in row["options"]:
            if code == row["chosen"] and h != "":
                home, away = home + h, away + a
    return home, away


def rule_set_choices() -> list[tuple[str, str]]:
    """The rule sets, named in the language of the request that shows the form (not of the module's import)."""
    return [(name, rule_set_name(name)) for name in RULE_SETS]


class PolicyForm(forms.Form):
    rule_set = forms.ChoiceField(label=_("Rule set"), choices=rule_set_choices)
    criteria = forms.CharField(
        label=_("Tiebreak order"),
        max_length=300,
        help_text=_("Criteria in order, separated by commas, e.g. BH/C1, BH, SB."),
    )
    tiebreak_ratings = forms.ChoiceField(
        label=_("Ratings in rating-based tie-breaks"),
        choices=Event.TiebreakRatings.choices,
        initial=Event.TiebreakRatings.FIRST,
        required=False,
        help_text=_(
            "FIDE uses each player's first rating unless the event's regulations say otherwise; with the rating "
            "of each round, an opponent counts with the rating they had in the round you met."
        ),
    )
    reason = forms.CharField(
        label=_("Reason for the change"),
        required=False,
        max_length=300,
        help_text=_("Required once the first result is in: the change is shown publicly."),
    )

    def clean_criteria(self):
        return [c.strip() for c in self.cleaned_data["criteria"].split(",") if c.strip()]


class DisputeForm(forms.Form):
    reason = forms.CharField(label=_("What is wrong with the card?"), max_length=300)


class ImportForm(forms.Form):
    """A TRF file and where it goes. Name and address may stay empty: they are read from the file (line 012).
    After an error the file is kept on the server: the form can be sent again without choosing it again."""

    file = forms.FileField(label=_("TRF file"), required=False)
    name = forms.CharField(
        label=_("Event name"),
        max_length=200,
        required=False,
        validators=[refuse_control_characters],
        help_text=_("Empty: the file's name."),
    )
    slug = forms.SlugField(
        label=_("Address (letters, digits and hyphens)"),
        max_length=50,
        required=False,
        help_text=_("Empty: made from the name. The address of an event of this league updates that event."),
    )
    season = forms.ModelChoiceField(label=_("Season"), queryset=Season.objects.none(), required=False)
    system = forms.ChoiceField(
        label=_("Pairing system"),
        choices=[("", _("as the file says"))] + [(value, label) for value, label in Event.System.choices],
        required=False,
        help_text=_("Many TRF files do not say that the event was a round robin."),
    )

    def __init__(self, *args, league, kept: bytes | None = None, kept_name: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.league, self.kept, self.kept_name = league, kept, kept_name
        cast(forms.ModelChoiceField, self.fields["season"]).queryset = league.seasons.all()

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload is None:
            if self.kept is None:
                raise forms.ValidationError(_("Choose the TRF file."))
            return self.kept
        if upload.size > 2_000_000:
            raise forms.ValidationError(_("The file is larger than 2 MB."))
        self.kept, self.kept_name = upload.read(), upload.name
        return self.kept

    def clean(self):
        data = super().clean()
        if data is None:
            raise RuntimeError("Form.clean returns cleaned_data")
        if self.kept is None:
            return data
        if not data.get("name") and not self.has_error("name"):
            data["name"] = trf_event_name(self.kept) or self.kept_name.rsplit(".", 1)[0]
            self.data = posted = cast("QueryDict | dict[str, Any]", self.data).copy()
            posted["name"] = data["name"]
        if not data.get("slug") and not self.has_error("slug"):
            data["slug"] = free_slug(slugify(data["name"])[:50] or "imported-event", self.league)
            self.data = posted = cast("QueryDict | dict[str, Any]", self.data).copy()
            posted["slug"] = data["slug"]
        return data


def trf_event_name(data: bytes) -> str:
    """The tournament's name as the file gives it (record 012), or ""."""
    records = records_by_tag(data).get("012") or []
    name = records[0][1][4:].strip() if records else ""
    return "".join(ch for ch in name if ch.isprintable())[:200]


def free_slug(slug: str, league) -> str:
    """``slug``, or with -2, -3 ... when another league's event has it (this league's updates its event)."""
    candidate, number = slug, 1
    while Event.objects.filter(slug=candidate).exclude(league=league).exists():
        number += 1
        candidate = f"{slug[:45]}-{number}"
    return candidate
