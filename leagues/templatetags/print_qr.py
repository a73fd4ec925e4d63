"""A QR code of the page's own address for printed standings, pairings and crosstables (an inline SVG: no
image request, no script). The address starts with the site's public address (SITE_URL), never the one a reader's
request came by: the page is kept in the cache for every reader."""

from functools import lru_cache

import segno
from django import template
from django.conf import settings
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def page_qr(context) -> str:
    request = context["request"]
    return mark_safe(qr_svg(settings.SITE_URL + request.path))  # noqa: S308 - see qr_svg


@lru_cache(maxsize=2048)
def qr_svg(url: str) -> str:
    """The code of one address, made once per process (about 20 ms of every render of a page otherwise); segno
    writes the SVG, and the only text in it is the escaped title."""
    return segno.make(url, error="m").svg_inline(scale=2, border=2, omitsize=False, title=url)
