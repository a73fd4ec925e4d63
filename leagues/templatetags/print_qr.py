"""A QR code of the page's own address for printed standings, pairings and crosstables (an inline SVG: no
image request, no script)."""

import segno
from django import template
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def page_qr(context) -> str:
    request = context["request"]
    url = request.build_absolute_uri(request.path)
    svg = segno.make(url, error="m").svg_inline(scale=2, border=2, omitsize=False, title=url)
    return mark_safe(svg)  # segno writes the SVG; the only text in it is the escaped title
