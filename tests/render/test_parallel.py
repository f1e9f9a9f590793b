"""A fresh build's helper processes (render.Helpers): the same files as rendering here."""

from __future__ import annotations

import subprocess
import sys

import pytest

from reportgen.model import Report
from reportgen.names import FORMATS
from reportgen.render import Helpers, render_outputs
from reportgen.render.pdf import PdfUnavailable
from reportgen.render.pdf_process import PdfProcess, PdfProcessError

pdfium = pytest.importorskip("pypdfium2")


def pdf_pages(data: bytes) -> list[str]:
    """The text of each page of a PDF."""
    doc = pdfium.PdfDocument(data)
    return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]


def test_helpers_write_the_same_files(weekly_churn):
    here, problems_here = render_outputs(
        Report.from_json(weekly_churn), FORMATS, chart_process=False
    )
    with Helpers(FORMATS) as helpers:
        there, problems = render_outputs(Report.from_json(weekly_churn), FORMATS, helpers=helpers)
    assert problems == problems_here == []
    assert list(there) == list(here)
    for name in ("report.html", "report.json", "decision-log.md"):
        assert there[name] == here[name], name
    assert pdf_pages(there["report.pdf"]) == pdf_pages(here["report.pdf"])


def test_html_and_json_start_no_pdf_worker(minimal):
    with Helpers(("html", "json")) as helpers:
        assert helpers.pdf is None
        files, problems = render_outputs(
            Report.from_json(minimal), ("html", "json"), helpers=helpers
        )
    assert sorted(files) == ["report.html", "report.json"] and problems == []


def test_helpers_only_in_a_fresh_process():
    code = (
        "import sys; from reportgen.render import Helpers;"
        "print(Helpers.for_fresh_process(('json', 'md')) is None);"
        "print(Helpers.for_fresh_process(('html', 'json')) is None);"
        "h = Helpers.for_fresh_process(('html', 'pdf')); print(h is None); h.close();"
        "import vl_convert; print(Helpers.for_fresh_process(('html', 'pdf')) is None)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # helpers only for a PDF (without one they were measured slower), never with a warm engine
    assert out.stdout.split() == ["True", "True", "False", "True"]


def fake_worker(script: str) -> PdfProcess:
    """A PdfProcess whose worker is ``script`` (reads its stdin, then answers)."""
    worker = PdfProcess().attach(
        subprocess.Popen(
            [sys.executable, "-c", "import os, sys; sys.stdin.buffer.read(); " + script],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    )
    worker.submit_html("<p>x</p>")
    worker.submit_charts({})
    return worker


def test_worker_without_weasyprint_is_a_problem_as_here():
    worker = fake_worker("sys.stdout.buffer.write(b'UPDF not written: WeasyPrint needs Pango')")
    with pytest.raises(PdfUnavailable, match="^PDF not written: WeasyPrint needs Pango$"):
        worker.result()


def test_worker_error_names_the_reason():
    worker = fake_worker("sys.stdout.buffer.write(b'Ethe page is broken'); sys.exit(0)")
    with pytest.raises(PdfProcessError, match="^PDF not written: the page is broken$"):
        worker.result()


def test_worker_crash_names_the_signal():
    worker = fake_worker("os.abort()")
    with pytest.raises(PdfProcessError, match=r"the worker crashed \(signal 6\)"):
        worker.result()


def test_worker_warnings_reach_stderr(capsys):
    worker = fake_worker("sys.stderr.write('WARNING: x\\n'); sys.stdout.buffer.write(b'P%PDF')")
    assert worker.result() == b"%PDF"
    assert capsys.readouterr().err == "WARNING: x\n"


def test_chart_keys_come_before_the_drawing(weekly_churn):
    from reportgen.charts.specs import chart_specs
    from reportgen.render.svg_process import SvgProcess

    helper = SvgProcess().start(specs_here=True)
    try:
        helper.submit_report(Report.from_json(weekly_churn))
        keys = helper.keys()
        svgs = helper.result()
    finally:
        helper.close()
    assert keys == tuple(chart_specs(Report.from_json(weekly_churn))) == tuple(svgs)
