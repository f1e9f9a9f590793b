"""Every example builds in Ukrainian: the same figures as in English, the same page count
within one page, numbers with the decimal comma, and no traceback (issue 34).

The English figures are the example's fixture (tests/fixtures/report-NAME.json, which
tests/test_fixtures.py holds equal to today's English build), so only the PDF examples are
built in English here, for their page count."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from reportgen.api import build_report
from tests.compare import differences

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").iterdir() if (p / "evreport.toml").exists())
FIXTURES = ROOT / "tests" / "fixtures"
#: built to PDF too (a PDF costs seconds): one of each design, and the binary examples whose
#: page fill is held (test_the_ukrainian_binary_pages_are_three_quarters_full)
PDF = ("weekly-churn", "breast-cancer-cv", "tuned-replay", "breast-cancer", "moons-tie")
#: the binary pages' three-quarters rule (tests/render/test_layout.py BINARY_FILL) in uk too
UK_BINARY_FILL = 0.75


def _numbers(x):
    """report.json with every text replaced by its type: what must not change with the language."""
    if isinstance(x, dict):
        return {k: _numbers(v) for k, v in x.items() if k not in ("build", "language")}
    if isinstance(x, list):
        return [_numbers(v) for v in x]
    return x if isinstance(x, int | float) or x is None else type(x).__name__


_BUILT: dict[str, Path] = {}


def _built(name: str, tmp_path_factory) -> Path:
    """The example built in Ukrainian, and in English when its PDF is compared (once per
    session)."""
    if name not in _BUILT:
        out = tmp_path_factory.mktemp(name)
        formats = ("json", "html", "md", "pdf") if name in PDF else ("json", "html", "md")
        for lang in ("en", "uk") if name in PDF else ("uk",):
            res = build_report(ROOT / "examples" / name, out / lang, formats, language=lang)
            assert not res.render_problems, res.render_problems
        _BUILT[name] = out
    return _BUILT[name]


@pytest.mark.parametrize("name", EXAMPLES)
def test_an_example_in_ukrainian_has_the_english_figures(name, tmp_path_factory):
    out = _built(name, tmp_path_factory)
    got = {
        "en": json.loads(FIXTURES.joinpath(f"report-{name}.json").read_text(encoding="utf-8")),
        "uk": json.loads((out / "uk" / "report.json").read_text(encoding="utf-8")),
    }
    assert got["uk"]["language"] == "uk" and got["en"]["language"] == "en"
    # within a float's last bits, as tests/test_fixtures.py holds the fixture to a build
    assert differences(_numbers(got["en"]), _numbers(got["uk"])) == []
    # ids, slugs and statuses stay English for a grader's scripts
    assert [r["status"] for r in got["uk"]["ladder"]] == [r["status"] for r in got["en"]["ladder"]]
    assert got["uk"]["decision"]["verdict"] == got["en"]["decision"]["verdict"]
    html = (out / "uk" / "report.html").read_text(encoding="utf-8")
    assert '<html lang="uk"' in html
    # the decision's sentences are Ukrainian, with a decimal comma wherever a decimal prints
    reasons = " ".join(got["uk"]["decision"]["reasons"])
    assert re.search("[а-яіїєґ]{4,}", reasons), reasons
    assert not re.search(r"\d\.\d", reasons), reasons


@pytest.mark.parametrize("name", PDF)
def test_the_ukrainian_pdf_has_the_english_page_count_within_one(name, tmp_path_factory):
    from pypdf import PdfReader

    out = _built(name, tmp_path_factory)
    pages = {lang: len(PdfReader(out / lang / "report.pdf").pages) for lang in ("en", "uk")}
    assert abs(pages["uk"] - pages["en"]) <= 1, pages


@pytest.mark.parametrize("name", PDF)
def test_the_ukrainian_pdf_keeps_to_its_page_budget(name, tmp_path_factory):
    """docs/report.md's page budget and page rules hold in Ukrainian too (its words run 15 to
    25 % longer; styles/uk.css): at most the budget's pages, none but the last less than
    half full, and page one holding the whole ladder (tests/render/test_layout.py in English)."""
    from tests.render.test_layout import MIN_FILL, page_budget, page_fills, page_texts

    out = _built(name, tmp_path_factory) / "uk"
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    pdf = (out / "report.pdf").read_bytes()
    fills = page_fills(pdf)
    assert len(fills) <= page_budget(report), f"{name}: {len(fills)} pages, {page_budget(report)}"
    thin = [(i + 1, round(f, 2)) for i, f in enumerate(fills[:-1]) if f < MIN_FILL]
    assert thin == [], f"{name}: pages less than half full (page, fill): {thin}; all {fills}"
    first, second = page_texts(pdf)[:2]
    ladder = "Драбина твердження"
    assert ladder in first and ladder not in second, f"{name}: page two starts {second[:80]!r}"
    # the running head and the page numbers are the language's too (render/html.py)
    assert f"сторінка 1 з {len(fills)}" in first and "звіт про оцінювання" in second


def _prose_left(out: Path, project: Path) -> dict[str, list[str]]:
    """English prose left in a Ukrainian build: the visible text of report.html, the charts'
    own SVG text included, the text fields of report.json and decision-log.md, as
    tests/i18n/english.py reads them."""
    from bs4 import BeautifulSoup

    from tests.i18n.english import english_runs, json_text, user_phrases, user_words

    haystack, phrases = user_words(project), user_phrases(project)
    soup = BeautifulSoup((out / "report.html").read_text(encoding="utf-8"), "html.parser")
    for t in soup(["script", "style", "code", "pre", "title"]):
        t.decompose()
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    left = {}
    md = (out / "decision-log.md").read_text(encoding="utf-8")
    for name, texts in (
        ("report.html", list(soup.stripped_strings)),
        ("report.json", json_text(doc)),
        # the Markdown's code spans are commands and paths, like the HTML's <code>
        ("decision-log.md", [re.sub(r"`[^`]*`", " ", line) for line in md.splitlines()]),
    ):
        runs = sorted({r for t in texts for r in english_runs(t, haystack, phrases)})
        if runs:
            left[name] = runs
    return left


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_english_prose_is_left(name, tmp_path_factory):
    out = _built(name, tmp_path_factory)
    assert _prose_left(out / "uk", ROOT / "examples" / name) == {}


def test_weekly_churn_in_ukrainian_prints_its_primary_interval_once_per_page(tmp_path_factory):
    """Each number once per page in Ukrainian too (tests/render/test_once_per_page.py): page
    one at most twice, every other page at most once, no ends of the model-based interval."""
    from tests.render.test_once_per_page import pdf_pages

    out = _built("weekly-churn", tmp_path_factory)
    pages = pdf_pages((out / "uk" / "report.pdf").read_bytes())
    counts = [p.count("−0,0051 до +0,0116") for p in pages]
    assert counts[0] <= 2 and all(c <= 1 for c in counts[1:]), counts
    text = " ".join(pages)
    assert "−0,0060" not in text and "+0,0125" not in text
    assert "ширший із двох — інтервал парного t-тесту (p = 0,435)" in text


@pytest.mark.parametrize("name", ["breast-cancer", "moons-tie", "weekly-churn"])
def test_the_ukrainian_binary_pages_are_three_quarters_full(name, tmp_path_factory):
    from tests.render.test_layout import page_fills

    fills = page_fills((_built(name, tmp_path_factory) / "uk" / "report.pdf").read_bytes())
    thin = [(i + 1, round(f, 2)) for i, f in enumerate(fills[:-1]) if f < UK_BINARY_FILL]
    assert thin == [], f"{name}: pages less than {UK_BINARY_FILL:.0%} full: {thin}; {fills}"
