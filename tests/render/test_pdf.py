"""PDF smoke tests: pages and extracted text, never a byte comparison."""

from __future__ import annotations

import io

from pypdf import PdfReader

from tests.render.shown import in_words


def pdf_text(data: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(data))
    text = " ".join(page.extract_text() or "" for page in reader.pages)
    return len(reader.pages), " ".join(text.split())


def test_pdf_pages_and_text(weekly_churn_files, weekly_churn):
    assert weekly_churn_files["report.pdf"].startswith(b"%PDF-")
    pages, text = pdf_text(weekly_churn_files["report.pdf"])
    assert pages >= 2
    assert in_words(weekly_churn["claim"]["rewritten"], weekly_churn) in text
    seed_line, block_line = weekly_churn["noise"]["lines"]
    assert in_words(seed_line, weekly_churn) in text
    # after Results at a glance, which says the test gap and its primary interval, the block
    # line says which interval that is and the other one's ends (tests/render/test_once_per_page.py)
    which = block_line.split(" 30 weeks: ", 1)[1]
    assert "as in Results at a glance (row-weighted over 2,844 rows, " in text
    assert which in text
    assert "page 1 of" in text


def test_running_header_names_the_project(weekly_churn_files, weekly_churn):
    reader = PdfReader(io.BytesIO(weekly_churn_files["report.pdf"]))
    second = " ".join((reader.pages[1].extract_text() or "").split())
    assert weekly_churn["project"]["title"] in second


def test_minimal_and_before_after_pdfs(minimal_files, tuned_no_replay_files):
    for files in (minimal_files, tuned_no_replay_files):
        pages, text = pdf_text(files["report.pdf"])
        assert pages >= 2
        assert "The claim ladder" in text


def _page_texts(data: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(data))
    return [" ".join((page.extract_text() or "").split()) for page in reader.pages]


def test_page_one_prints_the_primary_interval_at_most_twice(weekly_churn_files, weekly_churn):
    """Each number once per page: the supported claim and the reconsider-when line's "now" say
    the primary interval; the decision reasons and the ladder say "the interval"."""
    block = weekly_churn["noise"]["block"]
    assert round(block["low"], 4) == -0.0051 and round(block["high"], 4) == 0.0116
    said = "−0.0051 to +0.0116"
    pages = _page_texts(weekly_churn_files["report.pdf"])
    assert said in pages[0]
    assert pages[0].count(said) <= 2, pages[0]
    # the reasons the ladder says are left to it, in the same words
    assert pages[0].count("the validation gap is +0.88 seed sd, not more than 2") == 1
    assert "the interval is too wide to decide" in pages[0]


def test_page_two_shows_the_results_at_a_glance(weekly_churn_files, weekly_churn):
    """The results table opens page two: each model's test log loss with its own interval,
    and the gap's primary interval once."""
    second = _page_texts(weekly_churn_files["report.pdf"])[1]
    assert "Results at a glance" in second
    mlp = next(
        r
        for r in weekly_churn["results"]
        if (r["model"], r["part"], r["metric"]) == ("mlp", "test", "log_loss")
    )
    assert f"{mlp['mean']:.4f}" in second
    assert f"{mlp['low']:.4f} to {mlp['high']:.4f}" in second
    assert second.count("−0.0051 to +0.0116") >= 1
