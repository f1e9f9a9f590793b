"""Each number once per page (issue 31): the PDF names the primary interval and why, and
leaves the other intervals, and the rows restating a noise line, to the HTML and report.json.

Pages are read with pdftotext (one page per form feed), whitespace joined, so a figure wrapped
over two lines still counts."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from reportgen.words import interval
from reportgen.words.numbers import gap_decimals
from tests.render.test_text import visible_text

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="no pdftotext")


def pdf_pages(pdf: bytes) -> list[str]:
    """The text of each page by pdftotext -layout, whitespace joined."""
    out = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode("utf-8")
    pages = out.split("\f")
    if pages and not pages[-1].strip():
        pages.pop()
    return [" ".join(p.split()) for p in pages]


def _ends(report: dict, part: dict) -> str:
    block = report["noise"]["block"]
    d = gap_decimals(block["gap"], block["low"], block["high"])
    return interval(part["low"], part["high"], digits=d)


def test_weekly_churn_prints_its_primary_interval_once_per_page(weekly_churn_files, weekly_churn):
    """Page one at most twice, every other page at most once: the results box says it, the
    block line names the wider of the two and the bootstrap's own ends, the relevance facts and
    the appendix do not say it again."""
    said = _ends(weekly_churn, weekly_churn["noise"]["block"])
    assert said == "−0.0051 to +0.0116"
    pages = pdf_pages(weekly_churn_files["report.pdf"])
    counts = [p.count(said) for p in pages]
    assert counts[0] <= 2, counts
    assert all(c <= 1 for c in counts[1:]), counts
    second = pages[1]
    assert "Results at a glance" in second
    # the block line: which one is primary and the other one's ends, the gap not said again
    bootstrap = _ends(weekly_churn, weekly_churn["noise"]["block"]["bootstrap"])
    assert f"the wider of the two is the paired t (p = 0.435); the bootstrap gives {bootstrap}" in (
        second
    )
    assert "the wider of the bootstrap" not in second
    assert second.count("+0.0032") == 1, second
    assert "The test gap is +0.63 seed sd." in second


def test_the_pdf_prints_no_ends_of_the_model_based_interval(weekly_churn_files, weekly_churn):
    """The budget line keeps its plus or minus and its terms; the model-based interval's ends
    are the HTML's table's (and report.json's noise.budget.combined)."""
    combined = weekly_churn["noise"]["budget"]["combined"]
    ends = _ends(weekly_churn, combined)
    low, high = ends.split(" to ")
    text = " ".join(pdf_pages(weekly_churn_files["report.pdf"]))
    assert "plus or minus 0.0092" in text
    for x in (ends, low, high):
        assert x not in text, x
    html = visible_text(weekly_churn_files["report.html"].decode("utf-8"))
    assert "model-based (seed and block terms)" in html
    assert ends in html


def test_the_widths_and_a_lower_case_sentence_stay_out_of_the_pdf(weekly_churn_files):
    text = " ".join(pdf_pages(weekly_churn_files["report.pdf"]))
    assert "bootstrap width" not in text
    assert "more seeds alone cannot settle this" not in text
    assert "More seeds alone cannot settle this: the block term alone gives" in text
    html = visible_text(weekly_churn_files["report.html"].decode("utf-8"))
    assert "The wider of the two: bootstrap width 0.0153, t width 0.0167." in html


def test_the_relevance_cost_says_its_basis(weekly_churn_files, weekly_churn):
    """Page six's cost per case is the mean over all networks at each one's own threshold (the
    threshold table's "Mean test cost, all seeds"), not the representative network's."""
    c = weekly_churn["relevance"]["cost_per_case"]
    th = weekly_churn["threshold"]
    assert c["candidate"] == th["candidate"]["mean_test_cost"]
    text = " ".join(pdf_pages(weekly_churn_files["report.pdf"]))
    assert (
        "mean test cost per case over all networks, each at its own threshold, candidate / "
        "baseline: 0.457 / 0.466"
    ) in text


def test_noise_boxes_are_not_restated_by_rows_below_them(example_builds):
    """breast-cancer-cv: the seed line and the resampling line say the rule's numbers, the
    design's and both intervals; breast-cancer: the seed line says the paired seeds' mean and
    interval. The PDF keeps only what the lines do not say; the HTML keeps every row."""
    report, files = example_builds["breast-cancer-cv"]
    text = " ".join(pdf_pages(files["report.pdf"]))
    for row in ("gap in seed sd:", "rule result:", "fold gaps (J):", "sd of the fold gaps:"):
        assert row not in text, row
    assert "naive paired t over folds (too narrow)" not in text
    assert "corrected interval excludes zero: no" in text
    html = visible_text(files["report.html"].decode("utf-8"))
    for row in ("gap in seed sd", "fold gaps (J)", "naive paired t over folds (too narrow)"):
        assert row in html, row
    report, files = example_builds["breast-cancer"]
    text = " ".join(pdf_pages(files["report.pdf"]))
    assert "mean per-seed difference:" not in text
    assert "sd of differences: 0.0578" in text
    assert "mean per-seed difference" in visible_text(files["report.html"].decode("utf-8"))
