"""A batch with --lang uk: the class index, feedback.md and grades.csv comments in Ukrainian
(no common English word in the text this area writes), numbers with a decimal comma; and the
language is part of the reuse key."""

from __future__ import annotations

import re
import shutil
import tomllib
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from reportgen.batch import run_batch
from reportgen.grading import GradingOptions
from reportgen.grading.rubric import TEMPLATE, parse_rubric

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ENGLISH = {
    "the",
    "and",
    "of",
    "is",
    "not",
    "shown",
    "rung",
    "points",
    "why",
    "fix",
    "interval",
    "general",
    "set",
    "held",
    "submission",
    "verdict",
    "passed",
    "feedback",
    "missing",
    "report",
    "first",
    "claim",
    "your",
}


def _english(text: str) -> set[str]:
    return {w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in ENGLISH}


@pytest.mark.skipif(
    not (EXAMPLES / "tuned-no-replay" / "evreport.toml").is_file(), reason="examples"
)
def test_uk_batch_writes_index_and_feedback_in_ukrainian(tmp_path):
    subs = tmp_path / "subs"
    shutil.copytree(
        EXAMPLES / "tuned-no-replay", subs / "bob", ignore=shutil.ignore_patterns("report")
    )
    opts = GradingOptions(rubric=parse_rubric(tomllib.loads(TEMPLATE)))
    out = tmp_path / "out"
    run_batch(
        [subs], out, formats=("html", "json"), jobs=1, timeout=300, grading=opts, language="uk"
    )
    fb = (out / "bob" / "feedback.md").read_text()
    # our own lines of feedback.md (headings, table, what to fix); report text quoted in
    # it comes from other areas and from the user's claim
    ours = [
        ln for ln in fb.splitlines() if ln.startswith(("#", "**", "| щабель", "Найнижчий", "Чого"))
    ]
    assert ours and not _english("\n".join(ours)), ours
    assert "0,277" in fb
    soup = BeautifulSoup((out / "index.html").read_text(), "html.parser")
    assert soup.html["lang"] == "uk"
    heads = " ".join(th.get_text() for th in soup.find_all(["th", "h1", "h2", "h3"]))
    assert not _english(heads), heads
    grades = (out / "grades.csv").read_text()
    assert "bob" in grades


def test_reuse_key_carries_the_language():
    from reportgen.grading.reuse import key

    assert key("abc", "1", ("json",), "ref") == "abc|evreport 1|json|ref"
    assert key("abc", "1", ("json",), "ref", "uk") != key("abc", "1", ("json",), "ref", "en")
