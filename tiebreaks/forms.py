"""The calculator's form, and the small engine Tournament built from what a player knows.

A player knows their own results and each opponent's final score, not the whole crosstable. The
engine needs a crosstable, so :func:`synthetic_tournament` makes one up: each opponent gets the
entered result against the player, and their other rounds are filled so that their final score is
exactly the one entered (full-point byes for whole points, a draw or a loss against a made-up
player for the rest). Byes that are not requested never change an opponent's adjusted score
(Article 16.3), so the opponent counts with exactly the score entered. The guides' worked
examples use the same builder.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tiebreaks.engine.model import Participant, RoundEntry, Tournament

MAX_ROUNDS = 15
DEFAULT_ROUNDS = 5

# kind -> (own TRF code, opponent's TRF code or None for byes, own points in 1/½/0)
KINDS: dict[str, tuple[str, str | None, Fraction]] = {
    "win": ("1", "0", Fraction(1)),
    "draw": ("=", "=", Fraction(1, 2)),
    "loss": ("0", "1", Fraction(0)),
    "forfeit_win": ("+", "-", Fraction(1)),
    "forfeit_loss": ("-", "+", Fraction(0)),
    "pab": ("U", None, Fraction(1)),
    "fpb": ("F", None, Fraction(1)),
    "hpb": ("H", None, Fraction(1, 2)),
    "zpb": ("Z", None, Fraction(0)),
}
KIND_CHOICES = [
    ("", _("— choose —")),
    ("win", _("Win")),
    ("draw", _("Draw")),
    ("loss", _("Loss")),
    ("forfeit_win", _("Won by forfeit (opponent did not come)")),
    ("forfeit_loss", _("Lost by forfeit (I did not come)")),
    ("pab", _("Pairing-allocated bye (odd number of players)")),
    ("fpb", _("Full-point bye")),
    ("hpb", _("Half-point bye (requested)")),
    ("zpb", _("Zero-point bye or absent")),
]


@dataclass(frozen=True)
class RoundSpec:
    kind: str
    opponent_score: Fraction | None = None
    opponent_rating: int | None = None

    @property
    def has_opponent(self) -> bool:
        return KINDS[self.kind][1] is not None


def opponent_points(kind: str) -> Fraction:
    """What the opponent scored against the player in this round."""
    code = KINDS[kind][1]
    return {"1": Fraction(1), "=": Fraction(1, 2), "+": Fraction(1)}.get(code or "", Fraction(0))


def synthetic_tournament(
    players: list[tuple[str, list[RoundSpec]]],
    *,
    rating: int | None = None,
    filler_rating: int | None = 1500,
    name: str = "",
    played_fillers: bool = False,
) -> Tournament:
    """A Tournament in which the focal players (start numbers 1..len(players)) have exactly the
    given rounds, and each of their opponents exactly the given final score.

    ``played_fillers``: an opponent's other points come from games won against made-up players,
    never from full-point byes, for rule sets in which an opponent's unplayed rounds count as
    draws (US Chess rule 34), so that the opponent counts with exactly the score entered there too.
    """
    rounds = max(len(specs) for _, specs in players)
    participants: list[Participant] = []
    blocks: dict[int, dict[int, RoundEntry]] = {}
    names: dict[int, str] = {}
    ratings: dict[int, int | None] = {}
    next_number = len(players) + 1

    def new(label: str, rating_: int | None) -> int:
        nonlocal next_number
        number = next_number
        next_number += 1
        blocks[number] = {}
        names[number] = label
        ratings[number] = rating_
        return number

    for index, (player_name, specs) in enumerate(players, start=1):
        blocks[index] = {}
        names[index] = player_name
        ratings[index] = rating
        for r, spec in enumerate(specs, start=1):
            own_code, their_code, _points = KINDS[spec.kind]
            if their_code is None:
                blocks[index][r] = RoundEntry(code=own_code)
                continue
            opponent = new(f"{player_name} R{r}", spec.opponent_rating or filler_rating)
            colour = "w" if r % 2 else "b"
            other = "b" if colour == "w" else "w"
            blocks[index][r] = RoundEntry(code=own_code, opponent=opponent, colour=colour)
            blocks[opponent][r] = RoundEntry(code=their_code, opponent=index, colour=other)
            remaining = (spec.opponent_score or Fraction(0)) - opponent_points(spec.kind)
            for other_round in range(1, rounds + 1):
                if other_round == r:
                    continue
                if remaining >= 1 and not played_fillers:
                    blocks[opponent][other_round] = RoundEntry(code="F")
                    remaining -= 1
                    continue
                if remaining >= 1:
                    filler = new(f"{player_name} R{r}/{other_round}", filler_rating)
                    blocks[opponent][other_round] = RoundEntry(code="1", opponent=filler, colour="w")
                    blocks[filler][other_round] = RoundEntry(code="0", opponent=opponent, colour="b")
                    remaining -= 1
                    continue
                filler = new(f"{player_name} R{r}/{other_round}", filler_rating)
                code, filler_code = ("=", "=") if remaining == Fraction(1, 2) else ("0", "1")
                remaining -= Fraction(1, 2) if remaining == Fraction(1, 2) else 0
                blocks[opponent][other_round] = RoundEntry(code=code, opponent=filler, colour="w")
                blocks[filler][other_round] = RoundEntry(code=filler_code, opponent=opponent, colour="b")
    for number in sorted(blocks):
        entries = tuple(blocks[number].get(r, RoundEntry(code="Z")) for r in range(1, rounds + 1))
        participants.append(
            Participant(start_number=number, name=names[number], rating=ratings[number], rounds=entries)
        )
    return Tournament(participants=participants, total_rounds=rounds, name=name)


def _show(value: Fraction) -> str:
    from .explanations import fmt

    return fmt(Decimal(value.numerator) / Decimal(value.denominator))


def _half_points(value: Decimal) -> bool:
    return (value * 2) == (value * 2).to_integral_value()


class CalculatorForm(forms.Form):
    """Rounds entered one per row: what happened, and the opponent's final score. The number of
    rows comes from :func:`parse_round_count` (never an error: it is kept inside the range)."""

    def __init__(self, *args: Any, round_count: int = DEFAULT_ROUNDS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.round_count = round_count
        for r in range(1, round_count + 1):
            self.fields[f"kind_{r}"] = forms.ChoiceField(
                label=_("Round %(number)s: result") % {"number": r}, choices=KIND_CHOICES, required=False
            )
            self.fields[f"opponent_{r}"] = forms.CharField(
                label=_("Round %(number)s: opponent's final score") % {"number": r},
                required=False,
                max_length=6,
                widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 4}),
            )

    def round_rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        return [(r, self[f"kind_{r}"], self[f"opponent_{r}"]) for r in range(1, self.round_count + 1)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data  # what Form.clean returns
        specs: list[RoundSpec] = []
        n = self.round_count
        for r in range(1, n + 1):
            kind = cleaned.get(f"kind_{r}") or ""
            raw = (cleaned.get(f"opponent_{r}") or "").strip().replace(",", ".").replace("½", ".5")
            if raw.startswith("."):
                raw = "0" + raw
            if not kind:
                self.add_error(f"kind_{r}", _("Choose what happened in round %(number)s.") % {"number": r})
                continue
            if KINDS[kind][1] is None:
                if raw:
                    self.add_error(f"opponent_{r}", _("A bye has no opponent: leave the opponent's score empty."))
                    continue
                specs.append(RoundSpec(kind))
                continue
            if not raw:
                self.add_error(f"opponent_{r}", _("Enter the opponent's final score, e.g. 2.5."))
                continue
            try:
                score = Decimal(raw)
            except InvalidOperation:
                self.add_error(f"opponent_{r}", _("Enter a number such as 3 or 2.5."))
                continue
            if not score.is_finite():
                self.add_error(f"opponent_{r}", _("Enter a number such as 3 or 2.5."))
                continue
            if score < 0:
                self.add_error(f"opponent_{r}", _("A score cannot be negative."))
                continue
            if not _half_points(score):
                self.add_error(f"opponent_{r}", _("Scores go in half points, e.g. 2 or 2.5."))
                continue
            if score > n:
                self.add_error(
                    f"opponent_{r}",
                    ngettext(
                        "An opponent cannot score more than %(max)s in %(rounds)s round.",
                        "An opponent cannot score more than %(max)s in %(rounds)s rounds.",
                        n,
                    )
                    % {"max": n, "rounds": n},
                )
                continue
            fraction = Fraction(score)
            against = opponent_points(kind)
            if fraction < against:
                self.add_error(
                    f"opponent_{r}",
                    _("This opponent scored %(points)s against you, so their final score is at least %(points)s.")
                    % {"points": _show(against)},
                )
                continue
            if fraction - against > n - 1:
                self.add_error(
                    f"opponent_{r}",
                    _("With %(points)s against you, this opponent can have at most %(max)s points.")
                    % {"points": _show(against), "max": _show(against + n - 1)},
                )
                continue
            specs.append(RoundSpec(kind, fraction))
        cleaned["specs"] = specs
        return cleaned


def parse_round_count(value: str | None) -> int:
    """The number of rounds asked for, kept inside the calculator's range (never an error)."""
    try:
        number = int(value or DEFAULT_ROUNDS)
    except (TypeError, ValueError):
        return DEFAULT_ROUNDS
    return min(max(number, 1), MAX_ROUNDS)
