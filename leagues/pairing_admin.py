"""The admin's check of a pairing: the same hard errors as :func:`leagues.pairing_services.game_pair`.

Wire it in ``GameAdmin`` with ``form = GameAdminForm``; nothing is registered here.
"""

from django import forms

from .models import Game
from .pairing_services import pairing_problems


class GameAdminForm(forms.ModelForm):
    class Meta:
        model = Game
        fields = ["round", "match", "board", "white", "black", "white_player", "black_player"]

    def clean(self):
        cleaned = super().clean()
        round_ = cleaned.get("round")
        if round_ is None or self.has_error("round"):
            return cleaned
        problems = pairing_problems(
            round=round_,
            board=cleaned.get("board"),
            white=cleaned.get("white"),
            black=cleaned.get("black"),
            match=cleaned.get("match"),
            white_player=cleaned.get("white_player"),
            black_player=cleaned.get("black_player"),
            exclude_pk=self.instance.pk,
        )
        for problem in problems:
            field = problem.field if problem.field in self.fields else None
            self.add_error(field, forms.ValidationError(problem.message, code=problem.code))
        return cleaned
