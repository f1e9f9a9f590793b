"""The charts of a Ukrainian build draw Ukrainian: axis titles, legends, rule labels and the
numbers Vega writes on the ticks (decimal comma, typographic minus), while an English spec
keeps its config as it was (issue 34)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from reportgen.api import build_report
from reportgen.charts.compose import CONFIG
from reportgen.charts.specs import chart_specs
from reportgen.model import Report
from tests.i18n.english import english_runs, user_phrases, user_words

ROOT = Path(__file__).resolve().parents[2]
#: a model-against-baseline with every section, and a cross-validation design
BUILT = ("weekly-churn", "breast-cancer-cv")
FIXTURES = sorted((ROOT / "tests" / "fixtures").glob("report-*.json"))


@pytest.fixture(scope="module")
def chart_texts(tmp_path_factory) -> dict[str, list[str]]:
    """Example -> the text of every <text> element of the charts of its Ukrainian report.html."""
    from bs4 import BeautifulSoup

    out = tmp_path_factory.mktemp("charts-uk")
    texts = {}
    for name in BUILT:
        res = build_report(ROOT / "examples" / name, out / name, ("json", "html"), language="uk")
        assert not res.render_problems, res.render_problems
        soup = BeautifulSoup(
            (out / name / "report.html").read_text(encoding="utf-8"), "html.parser"
        )
        svgs = soup.find_all("svg", class_="marks")  # Vega's: the charts, not icons
        texts[name] = [t.get_text() for s in svgs for t in s.find_all("text")]
    return texts


@pytest.mark.parametrize("name", BUILT)
def test_a_ukrainian_chart_draws_no_english_prose(name, chart_texts):
    project = ROOT / "examples" / name
    haystack, phrases = user_words(project), user_phrases(project)
    texts = chart_texts[name]
    assert len(texts) > 50  # the charts were drawn and read
    left = sorted({r for t in texts for r in english_runs(t, haystack, phrases)})
    assert left == [], left
    words = " ".join(texts)
    assert "кандидат" in words and "різниця" in words


@pytest.mark.parametrize("name", BUILT)
def test_a_ukrainian_chart_writes_its_numbers_with_a_decimal_comma(name, chart_texts):
    numbers = [t for t in chart_texts[name] if re.fullmatch(r"[−\-]?[\d\s\u00a0,.]+", t.strip())]
    assert numbers  # the ticks
    assert not [t for t in numbers if re.search(r"\d\.\d", t) or "-" in t], numbers
    assert any(re.search(r"\d,\d", t) for t in numbers), numbers


def _report(path: Path, language: str) -> Report:
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc = copy.deepcopy(doc)
    doc["language"] = language
    return Report.from_json(doc)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_the_number_locale_is_in_a_ukrainian_spec_only(path):
    uk = chart_specs(_report(path, "uk"))
    en = chart_specs(_report(path, "en"))
    assert uk.keys() == en.keys()
    for key in en:
        assert en[key]["config"] == CONFIG, key
        locale = uk[key]["config"]["locale"]["number"]
        assert (locale["decimal"], locale["minus"]) == (",", "\u2212"), key
    # built after the Ukrainian ones, the English specs hold no Ukrainian word: no chart
    # word is fixed at import or kept from the last build
    assert not re.search("[а-яіїєґ]", json.dumps(en, ensure_ascii=False), re.IGNORECASE)
