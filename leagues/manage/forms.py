"""Forms for secretaries: a whole round on one sheet, a match card, the tiebreak policy, TRF import."""

from django import forms
from django.utils.translation import gettext_lazy as _

from tiebreaks.engine import RULE_SETS

from ..models import BYE_RESULTS, GAME_RESULTS, Event, Result

GAME_CHOICES = [(code, label) for code, label in Result.choices if code in GAME_RESULTS]
BYE_CHOICES = [(code, label) for code, label in Result.choices if code in BYE_RESULTS]


class ResultsForm(forms.Form):
    """One result field per game (and a hidden version each): the sheet is saved whole or not at all."""

    reason = forms.CharField(
        label=_("Reason for corrections"),
        required=False,
        max_length=300,
        help_text=_("Needed when you change a result that was already entered."),
    )

    def __init__(self, *args, games, **kwargs):
        super().__init__(*args, **kwargs)
        self.games = list(games)
        for game in self.games:
            self.fields[f"result_{game.pk}"] = forms.ChoiceField(
                label=str(game.board),
                choices=BYE_CHOICES if game.is_bye else GAME_CHOICES,
                initial=game.result,
                required=False,
            )
            self.fields[f"version_{game.pk}"] = forms.IntegerField(widget=forms.HiddenInput, initial=game.version)

    def rows(self):
        for game in self.games:
            yield game, self[f"result_{game.pk}"], self[f"version_{game.pk}"]

    def results(self) -> dict[int, tuple[str, int]]:
        data = self.cleaned_data
        return {
            g.pk: (data[f"result_{g.pk}"], data[f"version_{g.pk}"])
            for g in self.games
            if data.get(f"result_{g.pk}") is not None
        }


class PolicyForm(forms.Form):
    rule_set = forms.ChoiceField(label=_("Rule set"), choices=[(name, name) for name in RULE_SETS])
    criteria = forms.CharField(
        label=_("Tiebreak order"),
        max_length=300,
        help_text=_("Criteria in order, separated by commas, e.g. BH/C1, BH, SB."),
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
    name = forms.CharField(label=_("Event name"), max_length=200)
    slug = forms.SlugField(label=_("Address (letters, digits and hyphens)"), max_length=50)
    file = forms.FileField(label=_("TRF file"))
    system = forms.ChoiceField(
        label=_("Pairing system"),
        choices=[("", _("as the file says"))] + [(value, label) for value, label in Event.System.choices],
        required=False,
        help_text=_("Many TRF files do not say that the event was a round robin."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 2_000_000:
            raise forms.ValidationError(_("The file is larger than 2 MB."))
        return upload.read()
