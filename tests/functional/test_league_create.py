"""A league is created on a page, by a user allowed to create leagues (the permission "add league", granted in
the admin, or a superuser), who becomes its organiser; its settings are edited on the next page."""

import pytest
from django.contrib.auth.models import Permission

from leagues.models import League, Role
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NEW = "/en/manage/leagues/new/"


def _creator():
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="add_league", content_type__app_label="leagues"))
    return user


def test_only_a_league_creator_sees_the_link_and_opens_the_page(client):
    client.force_login(UserFactory())
    assert "Create a league" not in client.get("/en/manage/").content.decode()
    assert client.get(NEW).status_code == 403
    assert client.post(NEW, {"name": "Sneaky", "slug": "sneaky", "auto_confirm_days": 3}).status_code == 403
    assert not League.objects.filter(slug="sneaky").exists()
    client.force_login(_creator())
    dashboard = client.get("/en/manage/").content.decode()
    assert 'href="/en/manage/leagues/new/"' in dashboard


def test_the_creator_becomes_the_organiser_and_edits_the_settings(client):
    creator = _creator()
    client.force_login(creator)
    created = client.post(NEW, {"name": "Bosporus League", "slug": "bosporus", "auto_confirm_days": 4})
    assert created.status_code == 302 and created["Location"] == "/en/manage/leagues/bosporus/"
    league = League.objects.get(slug="bosporus")
    assert (league.name, league.auto_confirm_days) == ("Bosporus League", 4)
    assert Role.objects.filter(user=creator, kind=Role.Kind.ORGANISER, league=league).exists()
    assert client.get(created["Location"]).status_code == 200  # the organiser's own league page
    edit = "/en/manage/leagues/bosporus/settings/"
    assert client.post(edit, {"name": "Bosporus Chess League", "auto_confirm_days": 0}).status_code == 400
    assert client.post(edit, {"name": "Bosporus Chess League", "auto_confirm_days": 2}).status_code == 302
    league.refresh_from_db()
    assert (league.name, league.auto_confirm_days) == ("Bosporus Chess League", 2)


@pytest.mark.parametrize(
    "fields, field_error",
    [
        ({"name": "", "slug": "empty", "auto_confirm_days": 3}, "This field is required."),
        ({"name": "Twice", "slug": "taken", "auto_confirm_days": 3}, "League with this Slug already exists."),
        ({"name": "Reserved", "slug": "new", "auto_confirm_days": 3}, "This address is taken by the site"),
        ({"name": "Bad address", "slug": "a b", "auto_confirm_days": 3}, "Enter a valid"),
        ({"name": "Line\nbreak", "slug": "line", "auto_confirm_days": 3}, "no line breaks"),
        ({"name": "Hasty", "slug": "hasty", "auto_confirm_days": 0}, "needs at least a day to answer"),
    ],
)
def test_a_new_league_is_validated_and_nothing_saved_on_an_error(client, fields, field_error):
    League.objects.create(name="Taken", slug="taken")
    client.force_login(_creator())
    roles = Role.objects.count()
    answer = client.post(NEW, fields)
    assert answer.status_code == 400
    assert field_error in answer.content.decode()
    assert League.objects.count() == 1 and Role.objects.count() == roles
