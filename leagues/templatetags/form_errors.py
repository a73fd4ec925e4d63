"""A refused form's errors as one summary at its top, each linking to its field, the field's own error under it with
the id its input's aria-describedby names (Django's `<id>_error`)."""

from django import template
from django.core.exceptions import NON_FIELD_ERRORS

register = template.Library()


def _errors_of(form):
    if form is None:
        return []
    if hasattr(form, "forms"):  # a formset: its own errors, then each form's
        items = [("", "", error) for error in form.non_form_errors()]
        for each in form.forms:
            items += _errors_of(each)
        return items
    items = [("", "", error) for error in form.non_field_errors()]
    for name, errors in form.errors.items():
        if name == NON_FIELD_ERRORS:
            continue
        field = form[name] if name in form.fields else None
        if field is None or field.is_hidden:  # no input to go to: the message alone
            items += [("", field.label if field else "", error) for error in errors]
        else:
            items += [(f"#{field.id_for_label or field.auto_id}", field.label, error) for error in errors]
    return items


@register.inclusion_tag("leagues/manage/_error_summary.html")
def error_summary(*forms):
    """{% error_summary form other_form formset %}: nothing when every one is valid or unbound."""
    return {"items": [item for form in forms for item in _errors_of(form)]}


@register.inclusion_tag("leagues/manage/_field_error.html")
def field_error(field):
    """{% field_error field %}: the field's errors, in the element its input's aria-describedby points at."""
    return {"field": field}
