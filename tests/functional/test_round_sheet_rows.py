"""The round sheet's rows are built in Python (issue #37: a 500-board sheet through Django's widget templates took a
second of CPU); they must read byte for byte as the template and Django's own widgets wrote them: the result's
choice with the stored (or typed) result selected, the hidden version, a bye, a corrected result, a refused field's
error, names that need escaping, in English and in a translated, right-to-left language."""

import pytest
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from leagues.manage.forms import ResultsForm
from leagues.models import Result
from leagues.selectors import round_sheet_games
from tests.factories import EntryFactory, EventFactory, GameFactory, PlayerFactory, RoundFactory, organiser_of

pytestmark = pytest.mark.django_db

# the rows as templates/leagues/manage/_results_table.html wrote them through Django's widgets before
WIDGET_ROWS = Template(
    """{% load i18n %}{% for game, field, version in form.rows %}
    <tr>
      <td>{% if game.is_bye %}{% translate "bye" %}{% else %}{{ game.board }}{% endif %}</td>
      <td><bdi>{% if game.white_player %}{{ game.white_player }}{% else %}{{ game.white }}{% endif %}</bdi></td>
      <td class="result"><label class="visually-hidden" for="{{ field.id_for_label }}">{{ field.label }}</label><select class="result" name="{{ field.html_name }}" id="{{ field.id_for_label }}"{% if forloop.first %} autofocus{% endif %}{% if field.errors %} aria-invalid="true" aria-describedby="{{ field.auto_id }}_error"{% endif %}>{% for option in field %}{{ option.tag }}{% endfor %}</select>{{ version }}{% include "leagues/manage/_field_error.html" %}{% if game.corrected %} <span class="muted">{% translate "corrected" %}</span>{% endif %}</td>
      <td><bdi>{% if game.is_bye %}{% translate "bye" %}{% elif game.black_player %}{{ game.black_player }}{% else %}{{ game.black }}{% endif %}</bdi></td>
    </tr>
  {% endfor %}"""  # noqa: E501 - the template's own lines
)


@pytest.fixture
def sheet():
    """Round 3 of an open: a played and corrected board, a pending one, names with markup, a bye."""
    event = EventFactory(name="Rows Open", slug="rows-open")
    rnd = RoundFactory(event=event, number=3)

    def entry(name):
        return EntryFactory(event=event, player=PlayerFactory(name=name))

    GameFactory(
        round=rnd,
        board=1,
        white=entry('Ann "<b>" & Co'),
        black=entry("Ørjan Åsheim"),
        result=Result.DRAW,
        version=4,
        corrected=True,
    )
    GameFactory(round=rnd, board=2, white=entry("שרה לוי"), black=entry("Ελένη Παπαδοπούλου"))
    GameFactory(round=rnd, board=3, white=entry("Zeynep Yılmaz"), black=None, result=Result.HALF_POINT_BYE)
    return event


def _both(form) -> tuple[str, str]:
    return str(form.sheet_rows()), WIDGET_ROWS.render(Context({"form": form}))


@pytest.mark.parametrize("language", ["en", "he", "nb"])
def test_the_sheet_rows_read_as_the_widgets_wrote_them(sheet, language):
    games = round_sheet_games(sheet, 3)
    assert [g.board for g in games] == [1, 2, 3]
    with translation.override(language):
        built, widgets = _both(ResultsForm(games=games))
    assert built == widgets
    assert '<option value="1/2-1/2" selected>' in built  # the stored draw of board 1
    assert "Ann &quot;&lt;b&gt;&quot; &amp; Co" in built


def test_a_typed_sheet_with_a_refused_field_reads_as_the_widgets_wrote_it(sheet):
    games = round_sheet_games(sheet, 3)
    first, second, bye = games
    data = {
        f"result_{first.pk}": Result.WHITE_WINS,  # typed: selected instead of the stored draw
        f"version_{first.pk}": "4",
        f"result_{second.pk}": "2-0",  # not a result: the field says why
        f"version_{second.pk}": "",
        f"result_{bye.pk}": Result.HALF_POINT_BYE,
        f"version_{bye.pk}": "not a number",
    }
    form = ResultsForm(data, games=games)
    assert not form.is_valid()
    built, widgets = _both(form)
    assert built == widgets
    assert f'<option value="{Result.WHITE_WINS}" selected>' in built
    assert f'aria-describedby="id_result_{second.pk}_error"' in built


def test_the_sheet_page_shows_the_rows(sheet):
    browser = Client()
    browser.force_login(organiser_of(sheet.league))
    page = browser.get("/en/manage/events/rows-open/rounds/3/").content.decode()
    assert page.count('<select class="result"') == 3
    assert "<td><bdi>bye</bdi></td>" in page and '<span class="muted">corrected</span>' in page
