"""Bidirectional text: names, numbers, ranges and amounts keep their own direction inside a translated
sentence (so in Hebrew "3–4" stays "3–4" and "£200 + £100" stays in order). The sentence builders of
the pages mark them with Unicode isolates (never the catalogues); pages show the marks as <bdi>, which
is how HTML maps those isolates (UAX #9); plain-text outputs are built without them."""

import re

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

FSI, LRI, PDI = "\u2068", "\u2066", "\u2069"  # first-strong isolate, left-to-right isolate, pop isolate
# every bidi control: marks, embeddings, overrides, isolates (none belongs in a name or a catalogue)
CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def isolate(value: object) -> str:
    """A name, number or amount as one unit in its own direction (the first strong letter decides)."""
    return f"{FSI}{CONTROLS.sub('', str(value))}{PDI}"


def isolate_ltr(value: object) -> str:
    """A calculation ("(1 + 2) ÷ 3 = 1") as one unit read left to right."""
    return f"{LRI}{CONTROLS.sub('', str(value))}{PDI}"


def isolate_range(first: object, last: object) -> tuple[str, str]:
    """The two ends of a range written "%(first)s–%(last)s": the range reads left to right as one unit."""
    return f"{LRI}{CONTROLS.sub('', str(first))}", f"{CONTROLS.sub('', str(last))}{PDI}"


def as_html(text: str) -> SafeString:
    """A sentence with isolates as escaped HTML with <bdi> elements."""
    html = conditional_escape(text).replace(FSI, "<bdi>").replace(LRI, '<bdi dir="ltr">').replace(PDI, "</bdi>")
    return mark_safe(html)  # noqa: S308 - escaped above; only the isolates became markup


def bdi(value: object, direction: str = "") -> SafeString:
    """One value as an escaped <bdi> element (a template's placeholder inside a translated sentence)."""
    if direction:
        return format_html('<bdi dir="{}">{}</bdi>', direction, CONTROLS.sub("", str(value)))
    return format_html("<bdi>{}</bdi>", CONTROLS.sub("", str(value)))
