"""{% entry_link entry %}: the link to an entry's page in the event of the page (its `event`)."""

from django import template
from django.utils.safestring import mark_safe

from ..public.table_rows import EntryLinks

register = template.Library()


@register.simple_tag(takes_context=True)
def entry_link(context, entry) -> str:
    return mark_safe(EntryLinks(context["event"].slug).link(entry))  # noqa: S308 - EntryLinks escapes
