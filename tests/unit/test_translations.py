"""Every user-facing string is translated in el, tr, he and nb; a missing or fuzzy one fails here."""

import re
from pathlib import Path

import pytest
from django.utils import translation

LOCALE = Path(__file__).resolve().parents[2] / "locale"
LANGUAGES = ["el", "tr", "he", "nb"]


def untranslated(po_text: str) -> list[str]:
    missing = []
    for block in po_text.split("\n\n")[1:]:
        if "#~" in block:  # obsolete entries are not shown to anybody
            continue
        msgid = re.search(r'^msgid "(.*)"', block, re.M)
        if "#, fuzzy" in block:
            missing.append(f"fuzzy: {msgid.group(1) if msgid else block[:60]}")
            continue
        lines = block.splitlines()
        for index, line in enumerate(lines):
            continued = index + 1 < len(lines) and lines[index + 1].startswith('"')
            if re.match(r'msgstr(\[\d\])? ""$', line) and not continued:
                missing.append(msgid.group(1) if msgid else block[:60])
    return missing


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_is_complete(lang):
    po = LOCALE / lang / "LC_MESSAGES" / "django.po"
    assert po.exists(), f"no catalogue for {lang}"
    missing = untranslated(po.read_text(encoding="utf-8"))
    assert not missing, f"{lang}: {len(missing)} untranslated, e.g. {missing[:5]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_catalogue_is_used(lang):
    with translation.override(lang):
        assert translation.gettext("Standings") != "Standings"
        assert translation.gettext("Being updated: new results are being included in these standings.") != (
            "Being updated: new results are being included in these standings."
        )


def test_checker_notices_an_empty_translation():
    sample = 'msgid ""\nmsgstr ""\n\nmsgid "Rank"\nmsgstr ""\n\nmsgid "Name"\nmsgstr "Όνομα"\n'
    assert untranslated(sample) == ["Rank"]


SOURCES = ["manage.py", "config", "leagues", "tiebreaks", "pairings", "templates", "locale"]


def test_every_string_in_the_code_is_in_every_catalogue(tmp_path):
    """makemessages over a copy of the code: a string marked for translation but missing from a catalogue is
    added there untranslated, and fails like a missing translation."""
    import shutil
    import subprocess
    import sys

    root = LOCALE.parent
    for name in SOURCES:
        source = root / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
        else:
            shutil.copy(source, tmp_path / name)
    command = [sys.executable, "manage.py", "makemessages", "--no-obsolete", "-v", "0"]
    subprocess.run(command + [arg for lang in LANGUAGES for arg in ("-l", lang)], cwd=tmp_path, check=True)
    missing = {
        lang: untranslated((tmp_path / "locale" / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8"))
        for lang in LANGUAGES
    }
    assert not any(missing.values()), f"not in the catalogues: { {k: v[:5] for k, v in missing.items() if v} }"


def test_hebrew_says_one_as_a_word():
    """Hebrew's form for one writes the word (סיבוב אחד): a number after the noun reads as an ordinal ("סיבוב 1"
    is round 1, not one round)."""
    from tests.unit.test_terminology import catalogue

    entries = catalogue((LOCALE / "he" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8"))
    numbered = [e["msgstr"][0] for e in entries if "msgid_plural" in e and "%(count)s" in e["msgstr"][0]]
    assert not numbered
