"""Every example builds in Ukrainian: the same figures as in English, the same page count
within one page, numbers with the decimal comma, and no traceback (issue 34)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from reportgen.api import build_report

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").iterdir() if (p / "evreport.toml").exists())
#: built to PDF too (a PDF costs seconds): one of each design
PDF = ("weekly-churn", "breast-cancer-cv", "tuned-replay")


def _numbers(x):
    """report.json with every text replaced by its type: what must not change with the language."""
    if isinstance(x, dict):
        return {k: _numbers(v) for k, v in x.items() if k not in ("build", "language")}
    if isinstance(x, list):
        return [_numbers(v) for v in x]
    return x if isinstance(x, int | float) or x is None else type(x).__name__


_BUILT: dict[str, Path] = {}


def _built(name: str, tmp_path_factory) -> Path:
    """The example built in English and in Ukrainian (once per session)."""
    if name not in _BUILT:
        out = tmp_path_factory.mktemp(name)
        formats = ("json", "html", "md", "pdf") if name in PDF else ("json", "html", "md")
        for lang in ("en", "uk"):
            res = build_report(ROOT / "examples" / name, out / lang, formats, language=lang)
            assert not res.render_problems, res.render_problems
        _BUILT[name] = out
    return _BUILT[name]


@pytest.mark.parametrize("name", EXAMPLES)
def test_an_example_in_ukrainian_has_the_english_figures(name, tmp_path_factory):
    out = _built(name, tmp_path_factory)
    got = {
        lang: json.loads((out / lang / "report.json").read_text(encoding="utf-8"))
        for lang in ("en", "uk")
    }
    assert got["uk"]["language"] == "uk" and got["en"]["language"] == "en"
    assert _numbers(got["uk"]) == _numbers(got["en"])
    # ids, slugs and statuses stay English for a grader's scripts
    assert [r["status"] for r in got["uk"]["ladder"]] == [r["status"] for r in got["en"]["ladder"]]
    assert got["uk"]["decision"]["verdict"] == got["en"]["decision"]["verdict"]
    html = (out / "uk" / "report.html").read_text(encoding="utf-8")
    assert '<html lang="uk"' in html
    # the decision's sentences are Ukrainian, with a decimal comma wherever a decimal prints
    reasons = " ".join(got["uk"]["decision"]["reasons"])
    assert re.search("[а-яіїєґ]{4,}", reasons), reasons
    assert not re.search(r"\d\.\d", reasons), reasons


#: known gap (issue 34 open): the longer Ukrainian page one pushes the ladder to page two,
#: and these PDFs are two pages longer than their English ones
LONGER = {"weekly-churn": "9 pages against 7", "breast-cancer-cv": "8 pages against 6"}


def _case(name: str):
    if name in LONGER:
        reason = f"the Ukrainian PDF is longer: {LONGER[name]}"
        return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=reason))
    return name


@pytest.mark.parametrize("name", [_case(n) for n in PDF])
def test_the_ukrainian_pdf_has_the_english_page_count_within_one(name, tmp_path_factory):
    from pypdf import PdfReader

    out = _built(name, tmp_path_factory)
    pages = {lang: len(PdfReader(out / lang / "report.pdf").pages) for lang in ("en", "uk")}
    assert abs(pages["uk"] - pages["en"]) <= 1, pages


def _prose_outside_charts(out: Path, project: Path) -> dict[str, list[str]]:
    """English prose left in a Ukrainian build, outside the charts' own SVG text (their axis
    titles and legends are reportgen.charts'): the visible text of report.html and the text
    fields of report.json, as tests/i18n/english.py reads them."""
    import tomllib

    from bs4 import BeautifulSoup

    from tests.i18n.english import english_runs, json_text, user_phrases, user_words

    haystack, phrases = user_words(project), user_phrases(project)
    # the claim's metric id read as words ("squared_error" in a byline as "squared error")
    metric = tomllib.loads((project / "evreport.toml").read_text(encoding="utf-8"))
    metric_id = metric.get("claim", {}).get("metric", "")
    phrases = [*phrases, metric_id.replace("_", " ")] if "_" in metric_id else phrases
    soup = BeautifulSoup((out / "report.html").read_text(encoding="utf-8"), "html.parser")
    for t in soup(["script", "style", "code", "pre", "title", "svg"]):
        t.decompose()
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    left = {}
    for name, texts in (
        ("report.html", list(soup.stripped_strings)),
        ("report.json", json_text(doc)),
    ):
        runs = sorted({r for t in texts for r in english_runs(t, haystack, phrases)})
        if runs:
            left[name] = runs
    return left


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_english_prose_is_left_outside_the_charts(name, tmp_path_factory):
    out = _built(name, tmp_path_factory)
    assert _prose_outside_charts(out / "uk", ROOT / "examples" / name) == {}
