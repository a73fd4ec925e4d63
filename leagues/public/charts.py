"""Charts as server-rendered SVG: no JavaScript, no external service, readable on a phone.

>>> svg = line_chart(title="Score", series=[Series("Berg", [1, 1.5, 2.5])], x_labels=["1", "2", "3"])
>>> svg.startswith("<svg")
True

Every chart carries a <title> and a <desc> (screen readers) and a data table is always on the page
next to it, so the chart is never the only way to read the numbers. The plot reads left to right
(rounds in order) in every language; the axis labels are numbers.
"""

from dataclasses import dataclass
from decimal import Decimal
from itertools import count

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

PALETTE = ["#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#16a085", "#7f8c8d", "#b7950b"]
# lines that run on top of each other (teams level on match points) stay distinguishable
DASHES = ["", "7 4", "2 3", "9 3 2 3"]
_ids = count(1)


@dataclass
class Series:
    label: str
    values: list  # numbers (None = no value that round)
    colour: str = ""


def _num(value) -> str:
    text = f"{float(value):.1f}"
    return text[:-2] if text.endswith(".0") else text


def line_chart(
    *,
    title: str,
    series: list[Series],
    x_labels: list[str],
    description: str = "",
    y_min: float | None = None,
    y_max: float | None = None,
    invert: bool = False,
    width: int = 360,
    height: int = 200,
    step: float | None = None,
) -> SafeString:
    """A line chart with one polyline per series. ``invert`` puts the smallest value on top
    (places: 1 is best)."""
    chart_id = f"chart-{next(_ids)}"
    values = [float(v) for s in series for v in s.values if v is not None]
    low = y_min if y_min is not None else min(values, default=0)
    high = y_max if y_max is not None else max(values, default=1)
    if high <= low:
        high = low + 1
    left, right, top, bottom = 34, 10, 10, 26
    plot_w, plot_h = width - left - right, height - top - bottom
    n = max(len(x_labels), 1)

    def x(i: int) -> float:
        return left + (plot_w * (i + 0.5) / n)

    def y(v: float) -> float:
        share = (v - low) / (high - low)
        if invert:
            share = 1 - share
        return top + plot_h * (1 - share)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" '
        f'role="img" aria-labelledby="{chart_id}-title {chart_id}-desc" dir="ltr">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(description or title)}</desc>',
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="#fafafa" stroke="#ccc"/>',
    ]
    # horizontal grid lines and y labels
    span = high - low
    tick = step or (1 if span <= 8 else 2 if span <= 16 else 5 if span <= 40 else 10)
    value = low
    while value <= high + 1e-9:
        yy = y(value)
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{yy:.1f}" y2="{yy:.1f}" stroke="#e3e3e3"/>')
        parts.append(
            f'<text x="{left - 4}" y="{yy + 4:.1f}" text-anchor="end" font-size="11" fill="#555">{_num(value)}</text>'
        )
        value += tick
    for i, label in enumerate(x_labels):
        parts.append(
            f'<text x="{x(i):.1f}" y="{height - 8}" text-anchor="middle" font-size="11" fill="#555">'
            f"{escape(label)}</text>"
        )
    for index, s in enumerate(series):
        colour = s.colour or PALETTE[index % len(PALETTE)]
        points = [(x(i), y(float(v))) for i, v in enumerate(s.values) if v is not None]
        if len(points) > 1:
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            parts.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.5" '
                f'stroke-dasharray="{DASHES[index % len(DASHES)]}" '
                f'stroke-linejoin="round"><title>{escape(s.label)}</title></polyline>'
            )
        for i, v in enumerate(s.values):
            if v is None:
                continue
            parts.append(
                f'<circle cx="{x(i):.1f}" cy="{y(float(v)):.1f}" r="3.5" fill="{colour}">'
                f"<title>{escape(s.label)}: {escape(x_labels[i] if i < len(x_labels) else '')} → {_num(v)}"
                f"</title></circle>"
            )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text above is escaped


def legend(series: list[Series]) -> list[tuple[str, str, str]]:
    """(label, colour, dash pattern) for an HTML legend next to the chart."""
    return [(s.label, s.colour or PALETTE[i % len(PALETTE)], DASHES[i % len(DASHES)]) for i, s in enumerate(series)]


def score_chart(*, title: str, description: str, scores: list[Decimal], rounds: int, max_points) -> SafeString:
    return line_chart(
        title=title,
        description=description,
        series=[Series(title, list(scores))],
        x_labels=[str(r) for r in range(1, rounds + 1)],
        y_min=0,
        y_max=float(max_points),
    )


def place_chart(*, title: str, description: str, places: list[int], rounds: int, participants: int) -> SafeString:
    return line_chart(
        title=title,
        description=description,
        series=[Series(title, list(places), colour=PALETTE[1])],
        x_labels=[str(r) for r in range(1, rounds + 1)],
        y_min=1,
        y_max=max(participants, 2),
        invert=True,
        step=1 if participants <= 12 else None,
    )


def race_chart(*, title: str, description: str, series: list[Series], rounds: int) -> SafeString:
    top = max((float(v) for s in series for v in s.values), default=1)
    return line_chart(
        title=title,
        description=description,
        series=series,
        x_labels=[str(r) for r in range(1, rounds + 1)],
        y_min=0,
        y_max=max(top, 1),
    )
