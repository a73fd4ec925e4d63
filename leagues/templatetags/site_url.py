"""The site's public address (setting SITE_URL), the same for every reader: what a printed page's QR code, a widget's
code to copy and a calendar entry point to. A page kept in the cache for everyone never carries the address (host,
scheme) its first reader's request came by."""

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def site_url(path: str = "") -> str:
    return settings.SITE_URL + path
