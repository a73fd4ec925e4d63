"""The guides list what exists, so the next maintainers can trust them: every module of the tie-break engine in
its README, every make target, site command and document in the project README, every top-level module and
every service of leagues in docs/architecture.md ("Where things live"). A module added without its line fails
here."""

import re

from tests.paths import REPO


def modules(folder: str) -> set[str]:
    return {path.stem for path in (REPO / folder).glob("*.py") if path.stem != "__init__"}


def missing(names, text: str, pattern: str = r"\b{}\b") -> list[str]:
    return sorted(name for name in names if not re.search(pattern.format(re.escape(name)), text))


def make_targets() -> set[str]:
    return set(re.findall(r"^([a-z][a-z-]*):", (REPO / "Makefile").read_text(encoding="utf-8"), flags=re.M))


def where_things_live() -> str:
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    return text[text.index("## Where things live") : text.index("## Which way imports point")]


def services_paragraph() -> str:
    layout = where_things_live()
    start = layout.index("  services/")
    return layout[start : layout.index("\n  selectors.py", start)]


def test_the_finders_see_a_module_left_out():
    assert missing({"ranking", "compact"}, "| `ranking.py` | ranking |", r"`{}\.py`") == ["compact"]
    assert missing({"demo", "bench-night"}, "make demo, make bench", r"`make {}\b") == ["bench-night", "demo"]
    assert "results" in services_paragraph() and "selectors" not in services_paragraph()


def test_the_engine_readme_names_every_module_of_the_engine():
    readme = (REPO / "tiebreaks" / "engine" / "README.md").read_text(encoding="utf-8")
    assert missing(modules("tiebreaks/engine"), readme, r"`{}\.py`") == [], "give each a row in the README's Layout"


def test_the_readme_names_every_make_target_command_and_document():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert missing(make_targets(), readme, r"`make {}\b") == []
    assert missing(modules("leagues/management/commands"), readme, r"`{}\b") == []
    documents = {path.name for path in (REPO / "docs").glob("*.md")} | {"CONTRIBUTING.md"}
    assert missing(documents, readme, r"\]\((?:docs/)?{}\)") == []


def test_the_architecture_names_every_module_and_service_of_leagues():
    left_out = missing(modules("leagues"), where_things_live(), r"\b{}\.py\b")
    assert left_out == [], "give each a line in docs/architecture.md, Where things live"
    left_out = missing(modules("leagues/services"), services_paragraph())
    assert left_out == [], "name each in the services/ paragraph of docs/architecture.md, Where things live"
