"""Every link a demo user can reach from the dashboard answers 200: nothing shown that the role cannot open."""

import re

import pytest

from leagues.management.commands.load_demo import PASSWORD

pytestmark = pytest.mark.django_db

ROLES = ["organiser", "secretary-oslo-sk", "secretary-athens-cc", "secretary-kadikoy-sk", "secretary-haifa-cc"]


def links(html: str) -> set[str]:
    return {href for href in re.findall(r'href="(/(?:en|he)/[^"#]*)"', html)}


@pytest.mark.parametrize("username", ROLES)
@pytest.mark.parametrize("lang", ["en", "he"])
def test_every_link_from_the_dashboard_answers(client, demo, username, lang):
    assert client.login(username=username, password=PASSWORD)
    start = f"/{lang}/manage/"
    seen, todo, broken = set(), [start], []
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url, follow=True)  # a page that moves on (e.g. to the round to pair) counts once there
        if response.status_code != 200:
            broken.append((url, response.status_code))
            continue
        if url.startswith(f"/{lang}/manage/") and "text/html" in response["Content-Type"]:
            html = response.content.decode()
            assert f'<html lang="{lang}" dir="{"rtl" if lang == "he" else "ltr"}">' in html
            todo.extend(links(html) - seen)  # management pages are followed; public pages are checked once
    assert broken == []
    assert len(seen) > 3
