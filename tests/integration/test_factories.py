"""Every model has a factory in tests/factories.py, and each builds a valid row."""

from operator import attrgetter
from typing import Any

import factory
import pytest
from django.apps import apps
from django.db.models import JSONField, Model

from tests import factories

pytestmark = pytest.mark.django_db

FACTORIES: dict[type[Model], Any] = {  # model -> its factory
    f._meta.model: f
    for f in vars(factories).values()
    if isinstance(f, type) and issubclass(f, factory.django.DjangoModelFactory) and f._meta.model
}


def test_every_model_of_the_league_app_has_a_factory():
    models: set[type[Model]] = set(apps.get_app_config("leagues").get_models())
    assert sorted(m.__name__ for m in models if m not in FACTORIES) == []


@pytest.mark.parametrize("model", sorted(apps.get_app_config("leagues").get_models(), key=attrgetter("__name__")))
def test_the_factory_builds_a_row_that_passes_the_model_checks(model):
    row = FACTORIES[model]()
    # JSON fields written by the code (snapshot rows, explanation lines, ...) may start empty
    row.full_clean(exclude=[f.name for f in model._meta.fields if isinstance(f, JSONField)])
    assert model.objects.filter(pk=row.pk).exists()
