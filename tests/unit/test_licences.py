"""The project is AGPL-3.0-or-later, and every package it installs is listed in docs/dependencies.md under a licence
that may be combined with it (issue 34): a new dependency, or one whose licence changed, fails here."""

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# licences that may be combined with AGPL-3.0-or-later (SPDX ids)
COMPATIBLE = {
    "MIT",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "Apache-2.0",
    "PSF-2.0",
    "ISC",
    "MPL-2.0",
    "LGPL-3.0-only",
    "LGPL-3.0-or-later",
    "GPL-3.0-only",
    "GPL-3.0-or-later",
    "AGPL-3.0-only",
    "AGPL-3.0-or-later",
}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def documented() -> dict[str, str]:
    rows = re.findall(r"^\| ([a-z0-9.-]+) \| ([^|]+) \|", (ROOT / "docs/dependencies.md").read_text(), re.M)
    return {canonical(name): licence.strip() for name, licence in rows if name != "package"}


def installed_for(requirements: list[str], extra: str = "") -> set[str]:
    """The packages `pip install` brings for these requirements, read from the installed metadata."""
    found: set[str] = set()
    todo = [(Requirement(r), extra) for r in requirements]
    while todo:
        requirement, wanted = todo.pop()
        name = canonical(requirement.name)
        if requirement.marker and not requirement.marker.evaluate({"extra": wanted}):
            continue
        if name in found:
            continue
        found.add(name)
        for extra_name in requirement.extras or {""}:
            todo += [(Requirement(r), extra_name) for r in metadata.requires(requirement.name) or []]
    return found


def spdx_terms(expression: str) -> set[str]:
    return set(re.split(r"\s+(?:AND|OR)\s+", expression.strip("() ")))


def test_the_project_says_it_is_agpl():
    assert PYPROJECT["project"]["license"] == "AGPL-3.0-or-later"
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "GNU AFFERO GENERAL PUBLIC LICENSE" in licence and "Version 3, 19 November 2007" in licence
    assert "AGPL-3.0-or-later" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_installed_package_is_listed_under_a_compatible_licence():
    listed = documented()
    needed = installed_for(PYPROJECT["project"]["dependencies"])
    needed |= {canonical(Requirement(r).name) for r in PYPROJECT["project"]["optional-dependencies"]["test"]}
    assert not needed - listed.keys(), f"not in docs/dependencies.md: {sorted(needed - listed.keys())}"
    incompatible = {name: listed[name] for name in needed if not spdx_terms(listed[name]) <= COMPATIBLE}
    assert not incompatible


def test_the_listed_licence_is_the_one_the_package_declares():
    differing = {}
    for name, licence in documented().items():
        # typeshed's PackageMetadata (Python 3.11) leaves out the get() every metadata object has
        declared = metadata.metadata(name).get("License-Expression")  # type: ignore[attr-defined]
        if declared and spdx_terms(declared) != spdx_terms(licence):
            differing[name] = (declared, licence)
    assert not differing


def test_the_check_notices_an_incompatible_licence():
    assert not spdx_terms("SSPL-1.0") <= COMPATIBLE
    assert not spdx_terms("MIT OR Commons-Clause") <= COMPATIBLE
    assert spdx_terms("Apache-2.0 OR BSD-2-Clause") <= COMPATIBLE


VENDOR = ROOT / "static" / "vendor"


def vendored() -> dict[str, dict]:
    """The rows of docs/dependencies.md's table of browser code vendored in static/vendor/."""
    text = (ROOT / "docs/dependencies.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([@a-z0-9/.-]+)` \| ([0-9][^|]*) \| ([^|]+) \| ([^|]*) \|", text, re.M)
    return {
        name: {
            "version": version.strip(),
            "licence": licence.strip(),
            "bundled": re.findall(r"`([@a-z0-9/.-]+)` [0-9][^ ]* \(([^)]+)\)", bundled),
        }
        for name, version, licence, bundled in rows
    }


def test_every_vendored_browser_package_is_listed_with_its_version_and_a_compatible_licence():
    import json

    listed = vendored()
    folders = {path.name for path in VENDOR.iterdir() if path.is_dir()}
    assert folders, "the game page's board is vendored in static/vendor/"
    assert folders == listed.keys(), "give each folder of static/vendor/ its row in docs/dependencies.md"
    for name, row in listed.items():
        folder = VENDOR / name
        package = json.loads((folder / "package.json").read_text(encoding="utf-8"))
        assert (package["name"], package["version"], package["license"]) == (name, row["version"], row["licence"])
        licence_text = (folder / "LICENSE").read_text(encoding="utf-8")
        if row["licence"].startswith("GPL-3.0"):
            assert "GNU GENERAL PUBLIC LICENSE" in licence_text and "Version 3, 29 June 2007" in licence_text
        licences = [row["licence"], *(licence for _bundled, licence in row["bundled"])]
        assert all(spdx_terms(licence) <= COMPATIBLE for licence in licences), (name, licences)
        for bundled, licence in row["bundled"]:  # a bundled package under another licence has its own text here
            if licence != row["licence"]:
                assert (folder / f"LICENSE.{bundled.lstrip('@').replace('/', '-')}").exists(), bundled
