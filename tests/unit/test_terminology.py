"""Every translation names chess concepts as its language's glossary (docs/glossary/<lang>.toml) says.

For each glossary term, every catalogue entry whose English text contains the term must be translated
with the native term (or one of its listed inflected stems) and with none of the terms listed as
wrong; those wrong terms appear in no other entry either (unless another term of that entry uses
them); and no translation uses another form of address than the glossary's one.
"""

import functools
import re
import tomllib
import unicodedata
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary"
LOCALE = ROOT / "locale"
LANGUAGES = ["el", "tr", "he", "nb"]

# Every chess concept the site names; each glossary has a term for each of them.
CONCEPTS = {
    "pairing", "round", "bye", "pairing-allocated bye", "full-point bye", "half-point bye", "zero-point bye",
    "requested bye", "forfeit", "win by forfeit", "loss by forfeit", "double forfeit", "dummy opponent",
    "virtual opponent", "unplayed round", "free round", "Swiss", "round robin", "start number", "rating",
    "performance", "title", "tiebreak", "Buchholz", "Sonneborn-Berger", "progressive score", "cumulative",
    "direct encounter", "number of wins", "games with Black", "Koya", "average rating of opponents", "Cut-1",
    "Median-1", "cut", "median", "modifier", "Modified Median", "Solkoff", "match points", "game points", "board",
    "over the board", "line-up", "roster", "reserve", "prize", "pooling", "standings", "crosstable",
    "team match", "match card", "game", "draw", "player", "opponent", "arbiter", "organiser", "trophy",
    "withdraw", "team", "background worker", "random seed", "three-letter code", "tiebreak policy",
    "play-off", "Armageddon", "tournament",
}  # fmt: skip


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")  # %(rating)s is a name in the code, not a word of either language


def normalise(text: str) -> str:
    """Case-folded, without accents: «Κλήρωση» and «κληρωση», «Maç» and «mac» compare equal."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def unquote(line: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), line[1:-1])


def catalogue(po_text: str) -> list[dict]:
    """The entries of a .po file: msgid, msgid_plural and every msgstr, without the header and obsolete ones."""
    entries = []
    for block in po_text.split("\n\n"):
        entry: dict[str, Any] = {"msgstr": []}
        field: str | None = None
        for line in block.splitlines():
            keyword = re.match(r'(msgid_plural|msgid|msgstr(?:\[\d+\])?) (".*")$', line)
            if keyword:
                field = keyword.group(1)
                text = unquote(keyword.group(2))
                if field.startswith("msgstr"):
                    entry["msgstr"].append(text)
                else:
                    entry[field] = text
            elif line.startswith('"') and field:
                if field.startswith("msgstr"):
                    entry["msgstr"][-1] += unquote(line)
                else:
                    entry[field] += unquote(line)
        if entry.get("msgid"):
            entries.append(entry)
    return entries


def glossary(lang: str) -> dict:
    return tomllib.loads((GLOSSARY / f"{lang}.toml").read_text(encoding="utf-8"))


@functools.cache
def english_pattern(phrases: tuple[str, ...]) -> re.Pattern:
    """Whole-word (a hyphen belongs to the word) and case-insensitive."""
    alternatives = "|".join(re.escape(phrase) for phrase in sorted(phrases, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)


def native_pattern(patterns: list[str]) -> re.Pattern | None:
    return compiled(tuple(patterns)) if patterns else None


def stems_pattern(term: dict) -> re.Pattern:
    """A term's stems (every term of the glossary has some)."""
    pattern = native_pattern(term["stems"])
    assert pattern is not None
    return pattern


@functools.cache
def compiled(patterns: tuple[str, ...]) -> re.Pattern:
    return re.compile("|".join(f"(?:{normalise(p)})" for p in patterns))


@functools.cache
def words_of(english: str) -> str:
    return re.sub(r"<[^>]*>|\w+(?:\.\w+)+", " ", PLACEHOLDER.sub(" ", english))  # no markup, no code names


def names_term(english: str, term: dict) -> bool:
    english = words_of(english)
    if term.get("except"):
        english = english_pattern(tuple(term["except"])).sub(" ", english)
    return bool(english_pattern(tuple(term["match"])).search(english))


def terminology_problems(terms: list[dict], entries: list[dict]) -> list[str]:
    problems = []
    for term in terms:
        stems, wrong = stems_pattern(term), native_pattern(term["wrong"])
        for entry in entries:
            english = entry["msgid"] + "\n" + entry.get("msgid_plural", "")
            if not names_term(english, term):
                continue
            for translation in filter(None, entry["msgstr"]):  # an empty one is test_translations' finding
                text = normalise(PLACEHOLDER.sub(" ", translation))
                if wrong and (found := wrong.search(text)):
                    problems.append(f"{term['english']!r}: wrong term {found.group(0)!r} in: {translation!r}")
                elif not stems.search(text):
                    problems.append(f"{term['english']!r} is not {term['native']!r} in: {translation!r}")
    return problems


def stray_wrong_terms(terms: list[dict], entries: list[dict]) -> list[str]:
    """A term's wrong words outside the entries that name it, unless another term of the entry uses them
    (el εικονικός is wrong for the dummy opponent but right for the virtual opponent)."""
    problems = []
    for entry in entries:
        english = entry["msgid"] + "\n" + entry.get("msgid_plural", "")
        named = [term for term in terms if names_term(english, term)]
        for term in terms:
            wrong = native_pattern(term["wrong"])
            if not wrong or term in named:
                continue
            for translation in entry["msgstr"]:
                found = wrong.search(normalise(PLACEHOLDER.sub(" ", translation)))
                if found and not any(stems_pattern(other).search(found.group(0)) for other in named):
                    problems.append(f"{term['english']!r}: wrong term {found.group(0)!r} in: {translation!r}")
    return problems


def address_problems(address: dict, entries: list[dict]) -> list[str]:
    wrong = native_pattern(address["wrong"])
    assert wrong is not None
    return [
        f"another form of address than the glossary's: {found.group(0)!r} in {translation!r}"
        for entry in entries
        for translation in entry["msgstr"]
        if (found := wrong.search(normalise(translation)))
    ]


def entries_of(lang: str) -> list[dict]:
    return catalogue((LOCALE / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_glossary_covers_every_concept_with_its_source(lang):
    terms = glossary(lang)["term"]
    assert {term["english"] for term in terms} == CONCEPTS
    for term in terms:
        assert term["native"] and term["stems"] and term["source"], term["english"]
        native_pattern(term["stems"] + term["wrong"])  # every pattern compiles


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_uses_the_glossary_terms(lang):
    problems = terminology_problems(glossary(lang)["term"], entries_of(lang))
    assert not problems, f"{lang}: {len(problems)} entries off the glossary:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_wrong_terms_appear_nowhere_else(lang):
    problems = stray_wrong_terms(glossary(lang)["term"], entries_of(lang))
    assert not problems, f"{lang}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_uses_one_form_of_address(lang):
    problems = address_problems(glossary(lang)["address"], entries_of(lang))
    assert not problems, f"{lang}:\n" + "\n".join(problems)


SAMPLE = """msgid ""
msgstr ""

msgid "Your own unplayed round: the dummy opponent"
msgstr "Kendi oynanmamış turunuz: sanal rakip"

msgid "a dummy opponent with your score, capped"
msgstr "sizin puanınızda, üst sınırlı bir kukla rakip"

msgid "%(count)s dummy opponent"
msgid_plural "%(count)s dummy opponents"
msgstr[0] "%(count)s kukla rakip"
msgstr[1] "%(count)s sanal "
"rakip"

msgid "Dummy opponents are not virtual opponents."
msgstr "Kukla rakiplerin adı böyle."
"""


def test_checker_finds_a_wrong_term_and_accepts_inflected_forms():
    dummy = next(term for term in glossary("tr")["term"] if term["english"] == "dummy opponent")
    problems = terminology_problems([dummy], catalogue(SAMPLE))
    assert len(problems) == 2
    assert "'sanal'" in problems[0] and "Kendi oynanmamış" in problems[0]
    assert "'sanal'" in problems[1] and "sanal rakip" in problems[1]  # the continued line of msgstr[1]


def test_a_wrong_term_is_found_where_the_entry_does_not_name_the_concept():
    terms = glossary("nb")["term"]
    entries = catalogue('msgid "Tiebreak-like values"\nmsgstr "Kvalitetspoengene"\n\nmsgid "Monrad"\nmsgstr "Monrad"\n')
    assert [problem.split(":")[0] for problem in stray_wrong_terms(terms, entries)] == ["'tiebreak'", "'Swiss'"]
    dummy = catalogue('msgid "The dummy opponent"\nmsgstr "Dummymotstanderen"\n')
    assert stray_wrong_terms(terms, dummy) == []  # «dummy» is wrong only for the virtual opponent


def test_checker_reads_whole_words_only():
    swiss = {"match": ["Swiss"], "except": [], "stems": ["sveits"], "wrong": [], "english": "Swiss", "native": "x"}
    entries = catalogue('msgid "Swissair"\nmsgstr "Swissair"\n\nmsgid "a Swiss event"\nmsgstr "en monradturnering"\n')
    assert terminology_problems([swiss], entries) == ["'Swiss' is not 'x' in: 'en monradturnering'"]
    board = {"match": ["board"], "except": ["over the board"], "stems": ["bord"], "wrong": [], "english": "board"}
    assert not names_term("Games won over the board", board) and names_term("Board 3", board)
    assert not names_term("Draw the round-robin schedule", {"match": ["round"], "except": []})


# The wrong terms issue 21 found in the catalogues: each one, put back into an entry, is reported.
ISSUE_21_WRONG_TERMS = [
    ("el", "The dummy opponent", "Ο εικονικός αντίπαλος"),  # noqa: RUF001 - Greek text
    ("el", "Pairings", "Ζευγαρώματα"),
    ("el", "A half-point bye", "Ένα bye μισού βαθμού"),
    ("el", "Round robin", "Πουλ"),
    ("el", "Start number", "Αριθμός κατάταξης"),
    ("tr", "The dummy opponent", "Sanal rakip"),
    ("tr", "Rating", "Rating"),
    ("tr", "One game", "Bir oyun"),
    ("tr", "Buchholz Cut-1", "Buchholz Kesme-1"),
    ("tr", "Median-1", "Medyan-1"),
    ("tr", "Direct encounter", "Aralarındaki maç"),
    ("he", "The dummy opponent", "היריב הווירטואלי"),
    ("he", "Rating", "מד כוח"),
    ("he", "Start number", "מספר פתיחה"),
    ("he", "Tiebreak", "שובר שוויים"),
    ("nb", "Swiss", "Monrad"),
    ("nb", "Tiebreak", "Kvalitetspoeng"),
    ("nb", "A bye", "En fri runde"),
    ("nb", "A free round", "En bye"),
]


@pytest.mark.parametrize(("lang", "english", "wrong"), ISSUE_21_WRONG_TERMS)
def test_every_wrong_term_of_issue_21_is_reported(lang, english, wrong):
    terms = glossary(lang)["term"]
    entries = catalogue(f'msgid "{english}"\nmsgstr "{wrong}"\n')
    assert terminology_problems(terms, entries), (english, wrong)
    # and in an entry about something else too
    other = catalogue(f'msgid "Save"\nmsgstr "{wrong}"\n')
    assert stray_wrong_terms(terms, other), (english, wrong)


# Issue 38: Turkish sentences that read wrong whatever the glossary term (each pattern found them).
TURKISH_WORDING = [
    # «kural 34E1» without the possessive: «34E1 kuralı», «34E1 kuralına göre»
    (r"\bkural\s+(?:%\(\w+\)s|\d)", None, "a rule number before «kural»"),
    # a club, event or league name followed by its kind: «Kadıköy Satranç Kulübü kulübünün»
    (r"%\((?:club|event|league)\)s\s+(?:kulüb|turnuva|lig)", None, "a name followed by the word of its kind"),
    # an explanation line of a round, numbered by its list already: «1. 1. tur:»
    (r"^%\(round\)s\. tur\b", r"^Round %\(round\)s", "a round's line starting with its ordinal"),
]


@pytest.mark.parametrize(("pattern", "english", "problem"), TURKISH_WORDING)
def test_turkish_wording(pattern, english, problem):
    found = [
        translation
        for entry in entries_of("tr")
        if english is None or re.match(english, entry["msgid"])
        for translation in entry["msgstr"]
        if re.search(pattern, translation)
    ]
    assert not found, f"{problem}:\n" + "\n".join(found)


# Issue 38: in Greek a player's score is «σκορ» (seed 000: «το άθροισμα των σκορ των αντιπάλων σας»), the
# standings «βαθμολογία»; the one word for both made «τελική βαθμολογία αντιπάλου» read as a league table.
SCORE = re.compile(r"(?<![\w-])scores?(?![\w-])(?! games)", re.IGNORECASE)


def test_greek_calls_a_score_skor_and_keeps_vathmologia_for_the_standings():
    found = [
        translation
        for entry in entries_of("el")
        if SCORE.search(words_of(entry["msgid"] + "\n" + entry.get("msgid_plural", "")))
        and not re.search(r"standings|table", entry["msgid"], re.IGNORECASE)
        for translation in entry["msgstr"]
        if re.search(r"βαθμολογί", translation, re.IGNORECASE)
    ]
    assert not found, "a score called «βαθμολογία»:\n" + "\n".join(found)


# Issue 38: an event called by a word for another kind of gathering in the newest strings
ISSUE_38_WRONG_TERMS = [
    ("nb", "The event is full.", "Arrangementet er fullt."),
    ("tr", "The event is full.", "Etkinlik dolu."),
]


@pytest.mark.parametrize(("lang", "english", "wrong"), ISSUE_38_WRONG_TERMS)
def test_every_wrong_term_of_issue_38_is_reported(lang, english, wrong):
    terms = glossary(lang)["term"]
    assert stray_wrong_terms(terms, catalogue(f'msgid "{english}"\nmsgstr "{wrong}"\n')), (english, wrong)
