"""The words and numbers a reviewer reads: no draft marks in any example's report.

The view's own text must be clean. Sentences that come from checks/ (noise lines, reasons,
check texts) are tested separately, so a defect there is named as such.
"""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

from reportgen.view.appendix import measured
from reportgen.words import count_noun
from reportgen.words.cells import count, quantity
from tests.forbidden import forbidden_forms

from .conftest import EXAMPLES

COUNT_NOUNS = (
    r"(?:cases|rows|seeds|blocks|questions|resamples|bins|files|runs|configs|weeks|assertions)"
)
DEFECTS = {
    "ellipsis before a bracket": re.compile(r",\s*\.\.\.\)"),
    "doubled parentheses": re.compile(r"\(\(|\)\)"),
    "1 with a plural noun": re.compile(r"(?<![\d.,])\b1 (?:[a-z-]+ )?" + COUNT_NOUNS + r"\b"),
    "regular plural of an -s/-ch word": re.compile(r"\b\w+(?:ch|sh|x|s)s\b(?<!ss)"),
    "float printed for a count": re.compile(r"\b\d[\d,]*\.0+ " + COUNT_NOUNS + r"\b"),
    "integer with zero decimals": re.compile(r"(?<![\d.])[1-9]\d*\.0000\b"),
    "mixed time zones": re.compile(r"\d{2}:\d{2}(?::\d{2})?\+00:00"),
}
#: words the plural rule would flag that are right
#: ("epochs": the ch of epoch is a k, so its plural takes s)
PLURAL_OK = {"process", "class", "less", "pass", "across", "business", "unless", "miss", "epochs"}


def defects(text: str) -> list[tuple[str, str]]:
    """(defect, the words around it) for every draft mark in `text`."""
    found = []
    for name, pattern in DEFECTS.items():
        for m in pattern.finditer(text):
            if name.startswith("regular plural") and m.group(0).lower() in PLURAL_OK:
                continue
            found.append((name, text[max(0, m.start() - 40) : m.end() + 20]))
    return found


def visible_text(html: str) -> str:
    """The page's words as a reader sees them: no style, no chart markup."""
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["style", "svg", "script", "title"]):
        tag.decompose()
    return " ".join(soup.get_text(" ").split())


def report_strings(report: dict) -> list[str]:
    """Every sentence of the report dict longer than a few words (the text checks/ writes)."""
    out = []

    def walk(x):
        if isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str) and len(x.split()) >= 3:
            out.append(" ".join(x.split()))

    for key in ("claim", "decision", "ladder", "checks", "fairness", "noise", "relevance"):
        walk(report.get(key))
    walk(report.get("not_tested"))
    return out


def test_defect_patterns_catch_known_defects():
    bad = (
        "2 run rows left out: mlp seed 4 (validation, runs.csv:12): status failed, ...). "
        "(retention-offer costs (EUR 20 each)) 1 empty bins, 3 batchs, 200.0 cases, "
        "value 25.0000, first run 2026-03-03T09:00:00+00:00"
    )
    assert {d for d, _ in defects(bad)} == set(DEFECTS)
    good = "1 empty bin, 3 batches, 200 cases, value 25, 0.0000, 2026-03-03T09:00:00Z, process"
    assert defects(good) == []


def test_counts_are_integers_and_nouns_agree():
    assert count(200.0) == "200"
    assert count(25) == "25"
    assert quantity(25.0) == "25"
    assert measured(25, None) == "25"
    assert measured(0, 0) == "0 against 0"
    assert count_noun(1, "empty bin") == "1 empty bin"
    assert count_noun(3, "batch") == "3 batches"
    assert count_noun(2.0, "row") == "2 rows"


@pytest.mark.parametrize("name", EXAMPLES)
def test_view_text_has_no_draft_marks(example_builds, name):
    """The report's words minus the sentences checks/ wrote: what the view adds is clean."""
    report, files = example_builds[name]
    text = visible_text(files["report.html"].decode("utf-8"))
    for sentence in sorted(report_strings(report), key=len, reverse=True):
        text = text.replace(sentence, " ")
    assert defects(text) == []


@pytest.mark.parametrize("name", EXAMPLES)
def test_checks_text_has_no_draft_marks(example_builds, name):
    report, _ = example_builds[name]
    assert [d for s in report_strings(report) for d in defects(s)] == []


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_strings_follow_the_number_policy(example_builds, name):
    """Every string of the example's report.json: the forms reportgen.words forbids."""
    report, _ = example_builds[name]
    assert forbidden_forms(report) == []


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_sign_convention_is_stated_once_in_the_noise_section(example_builds, name):
    report, files = example_builds[name]
    soup = BeautifulSoup(files["report.html"].decode("utf-8"), "html.parser")
    noise = soup.select("section.noise")
    if report["project"]["kind"] == "before-after" or not noise:
        pytest.skip("no model-against-baseline noise section")
    text = " ".join(s.get_text(" ") for s in noise)
    assert text.count("positive = the candidate is better") == 1
