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
    for line in weekly_churn["noise"]["lines"]:
        assert in_words(line, weekly_churn) in text
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
