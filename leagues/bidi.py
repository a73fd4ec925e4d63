"""Bidirectional text: names, numbers, ranges and amounts keep their own direction inside a translated
sentence (so in Hebrew "3–4" stays "3–4" and "£200 + £100" stays in order). The sentence builders mark
them with Unicode isolates (never the catalogues); pages show the marks as <bdi> (UAX #9)."""

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

FSI, LRI, PDI = "\u2068", "\u2066", "\u2069"  # first-strong isolate, left-to-right isolate, pop isolate


def isolate(value) -> str:
    """A name, number or amount as one unit in its own direction."""
    return f"{FSI}{value}{PDI}"


def isolate_range(first, last) -> tuple[str, str]:
    """The two ends of a range written "%(first)s–%(last)s": the range reads left to right as one unit."""
    return f"{LRI}{first}", f"{last}{PDI}"


def as_html(text: str) -> SafeString:
    """A sentence with isolates as escaped HTML with <bdi> elements."""
    html = conditional_escape(text).replace(FSI, "<bdi>").replace(LRI, '<bdi dir="ltr">').replace(PDI, "</bdi>")
    return mark_safe(html)  # noqa: S308 - escaped above; only the isolates became markup
