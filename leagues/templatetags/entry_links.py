"""{% entry_link entry %}: the link to an entry's page in the event of the page (its `event`)."""

from django import template
from django.utils.safestring import mark_safe

from ..links import EntryLinks

register = template.Library()


@register.simple_tag(takes_context=True)
def entry_link(context, entry) -> str:
    # one EntryLinks per page (included templates share the page's context): its URLs are reversed once, not per link
    slug = context["event"].slug
    links = getattr(context, "entry_links", None)
    if links is None or links[0] != slug:
        links = context.entry_links = (slug, EntryLinks(slug))
    return mark_safe(links[1].link(entry))  # noqa: S308 - EntryLinks escapes
