"""No form builds its choices' labels in the language that was active when its module loaded (issue 38: the
tie-break policy page's "Rule set" menu was English in every language)."""

from django import forms
from django.urls import get_resolver
from django.utils import translation
from django.utils.functional import Promise


def every_form_class():
    get_resolver().url_patterns  # loads every view, and so every form the site shows  # noqa: B018
    found, todo = set(), [forms.BaseForm]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return [cls for cls in found if cls.__module__.startswith(("leagues.", "tiebreaks."))]


def labels(choices):
    for _value, label in choices:
        if isinstance(label, list | tuple):
            yield from labels(label)
        else:
            yield label


def frozen_labels(form_class) -> list[str]:
    """Labels that are plain text although the catalogue translates them: translated once, at import."""
    frozen = []
    with translation.override("el"):
        for name, field in form_class.base_fields.items():
            choices = getattr(field, "choices", None)
            if choices is None or isinstance(field, forms.ModelChoiceField):  # rows of the database, not text
                continue
            if callable(getattr(choices, "choices_func", None)):
                continue  # choices computed when the form is made, in the language of its request
            for label in labels(choices):
                if isinstance(label, str) and not isinstance(label, Promise) and translation.gettext(label) != label:
                    frozen.append(f"{form_class.__qualname__}.{name}: {label}")
    return frozen


def test_no_form_translates_its_choices_when_its_module_loads():
    classes = every_form_class()
    assert len(classes) > 10  # the walk found the site's forms
    frozen = [label for cls in classes for label in frozen_labels(cls)]
    assert not frozen, frozen


def test_the_check_sees_a_frozen_label():
    class Frozen(forms.Form):
        kind = forms.ChoiceField(choices=[("r", str(translation.gettext_lazy("Standings")))])

    assert frozen_labels(Frozen) == ["test_the_check_sees_a_frozen_label.<locals>.Frozen.kind: Standings"]
