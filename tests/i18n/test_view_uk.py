"""The Ukrainian HTML of weekly-churn: <html lang="uk">, and the page's own headings, table
heads and status words are Ukrainian (the view layer's and templates' words)."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from reportgen.words.i18n import speaking

ENGLISH = {
    "Contents",
    "Decision",
    "Rung",
    "Status",
    "Artefacts",
    "Reconsider when",
    "Warnings",
    "The claim ladder",
    "Results at a glance",
    "Calibration",
    "Fairness of the comparison",
    "shown",
    "not shown",
    "partly",
    "Model",
    "Interval",
    "Gap",
}


@pytest.fixture(scope="module")
def page() -> BeautifulSoup:
    import tempfile

    from reportgen.api import build_report

    with tempfile.TemporaryDirectory() as out:
        result = build_report("examples/weekly-churn", out, ("html",), language="uk")
        html = (result.out_dir / "report.html").read_text(encoding="utf-8")
    return BeautifulSoup(html, "html.parser")


def test_html_lang_is_uk(page):
    assert page.html["lang"] == "uk"


def test_headings_table_heads_and_statuses_are_ukrainian(page):
    texts = [t.get_text(" ", strip=True) for t in page.select("h1, h2, h3, h4, th[scope=col]")]
    texts += [t.get_text(" ", strip=True) for t in page.select("span.status")]
    left = sorted({t for t in texts for w in ENGLISH if t == w or t.endswith(" " + w)})
    assert not left, left
    assert "Драбина твердження" in texts


def test_build_date_is_babel_long_date(page):
    byline = page.select_one("p.byline").get_text(" ", strip=True)
    assert "грудня" in byline or "р." in byline  # "3 грудня 2026 р." (Babel: narrow no-break space)


def test_english_unchanged_outside_speaking():
    with speaking("en"):
        from reportgen.words import date_text

        assert date_text("2026-12-03") == "2026-12-03"


def test_page_one_gives_only_the_reasons_the_ladder_does_not_say(page):
    """As in English: the rungs' own reasons are in the ladder's "one thing missing" column,
    and the interval's ends (and the blocks they are over) are in the claim box."""
    reasons = [li.get_text(" ", strip=True) for li in page.select("ul.reasons li")]
    assert len(reasons) == 1, reasons
    assert reasons[0].startswith("не показано, що кандидат кращий"), reasons
    assert "−0,0051" not in reasons[0] and "«week»" not in reasons[0], reasons
