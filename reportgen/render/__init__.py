"""Render a report to the files a build writes: HTML, PDF, report.json, decision-log.md.

Heavy libraries (altair, vl_convert, weasyprint) are imported inside functions so that
importing this package, and ``evreport --help``, stays instant.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager

from reportgen.model import Report
from reportgen.names import FILE_NAMES, FORMATS
from reportgen.render.svg_process import ChartProcessError


def report_json(report: Report | dict) -> bytes:
    """The report as the report.json file (the versioned contract); a dict is its plain JSON."""
    data = report.to_json() if isinstance(report, Report) else report
    text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    return text.encode("utf-8")


class Helpers:
    """The helper processes of one fresh build, started before the project is loaded.

    The chart helper (render.svg_process, building the specs too) and, for a PDF, the PDF
    worker (render.pdf_process) load their libraries and warm up while this process loads
    and checks the project; render_outputs then hands them the report and the printed page.
    """

    def __init__(self, formats: tuple[str, ...]) -> None:
        from reportgen.render.pdf_process import PdfProcess
        from reportgen.render.svg_process import SvgProcess

        self.charts = SvgProcess().start(specs_here=True)
        self.pdf = PdfProcess().start() if "pdf" in formats else None

    @classmethod
    def for_fresh_process(cls, formats: tuple[str, ...]) -> Helpers | None:
        """Helpers when this process has no warm chart engine (a fresh ``evreport build``)
        and a PDF is asked for; None otherwise. Without a PDF they do not pay: the HTML waits
        for the charts either way, and the chart helper building the specs itself was
        measured slower (0.55x of the peer's time against 0.51x, docs/performance.md)."""
        if "vl_convert" in sys.modules or "pdf" not in formats:
            return None
        return cls(formats)

    def close(self) -> None:
        """Stop whatever is still running (after an error on this side)."""
        self.charts.close()
        if self.pdf is not None:
            self.pdf.close()

    def __enter__(self) -> Helpers:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def render_outputs(
    report: Report,
    formats: tuple[str, ...],
    *,
    chart_process: bool | None = None,
    helpers: Helpers | None = None,
    links: str | None = None,
) -> tuple[dict[str, bytes], list[str]]:
    """Render the requested formats; returns ({file name: bytes}, problems).

    A PDF that cannot be made because WeasyPrint's system libraries are missing is a problem,
    not a failure: the other files are still returned.

    chart_process: draw the charts in a helper process (True), in this one (False), or
    (None) in a helper unless vl-convert is already loaded here, as in a batch worker
    that keeps its warm engine from one project to the next. A long-lived caller that
    renders many reports should pass False (or import vl_convert first).

    helpers: processes started early (Helpers.for_fresh_process); they build and draw the
    charts and write the PDF, in parallel with this process (chart_process is then unused).
    links: the relative path from the report's folder to the project's
    (safe.project_link); the HTML then links each artefact to its file. None: plain text.
    """
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise ValueError(
            f"unknown output format(s) {', '.join(map(repr, unknown))}; "
            f"valid formats are {', '.join(FORMATS)}"
        )
    from reportgen.words.i18n import speaking

    # the pages speak the report's language (its text fields are written in it)
    with speaking(report.language):
        return _render(report, formats, chart_process, helpers, links)


def _render(
    report: Report,
    formats: tuple[str, ...],
    chart_process: bool | None,
    helpers: Helpers | None,
    links: str | None,
) -> tuple[dict[str, bytes], list[str]]:
    """render_outputs in the report's language."""
    if helpers is not None and {"html", "pdf"} & set(formats):
        return _render_in_parallel(report, formats, helpers, links)
    out: dict[str, bytes] = {}
    problems: list[str] = []
    view = None
    if "html" in formats or "pdf" in formats:
        from reportgen.render.html import render_html
        from reportgen.view import build_view

        with drawn_charts(report, chart_process) as (keys, svgs):
            view = build_view(report, keys, links)
            try:
                if "pdf" in formats:  # laid out while the helper still draws the charts
                    from reportgen.render.pdf import PdfUnavailable, render_pdf

                    try:
                        out["pdf"] = render_pdf(render_html(view, for_print=True), svgs)
                    except PdfUnavailable as exc:
                        problems.append(str(exc))
                charts = svgs()  # raises if drawing failed, even when only the PDF needed it
            except ChartProcessError as exc:
                charts = None
                out.pop("pdf", None)
                problems.append(_without_charts(exc, formats))
        if "html" in formats and charts is not None:
            out["html"] = render_html(view, charts).encode("utf-8")
    if "md" in formats and view is None:
        from reportgen.view import build_view

        view = build_view(report, (), links)
    _json_and_md(report, formats, view, out)
    return {FILE_NAMES[f]: out[f] for f in FORMATS if f in out}, problems


def _without_charts(exc: Exception, formats: tuple[str, ...]) -> str:
    """The render problem of charts that could not be drawn: what is not written."""
    lost = " and ".join(FILE_NAMES[f] for f in ("html", "pdf") if f in formats)
    kept = ", ".join(FILE_NAMES[f] for f in ("json", "md") if f in formats) or "nothing else"
    return f"{exc}; {lost} not written (written: {kept})"


def _json_and_md(report: Report, formats: tuple[str, ...], view, out: dict[str, bytes]) -> None:
    """report.json and decision-log.md into ``out``, when asked for (md from ``view``)."""
    if "json" in formats:
        out["json"] = report_json(report)
    if "md" in formats:
        from reportgen.render.md import render_markdown

        out["md"] = render_markdown(view).encode("utf-8")


def _render_in_parallel(
    report: Report, formats: tuple[str, ...], helpers: Helpers, links: str | None
) -> tuple[dict[str, bytes], list[str]]:
    """render_outputs with Helpers: the same files; the PDF is laid out while this process
    writes the others, and the charts are drawn meanwhile."""
    from reportgen.render.html import render_html
    from reportgen.render.pdf import PdfUnavailable
    from reportgen.view import build_view

    out: dict[str, bytes] = {}
    problems: list[str] = []
    helpers.charts.submit_report(report)
    view = build_view(report, helpers.charts.keys(), links)
    pdf = helpers.pdf if "pdf" in formats else None
    if pdf is not None:
        pdf.submit_html(render_html(view, for_print=True))
    _json_and_md(report, formats, view, out)  # while the PDF is laid out
    try:
        charts = helpers.charts.result()
    except ChartProcessError as exc:
        problems.append(_without_charts(exc, formats))
        return {FILE_NAMES[f]: out[f] for f in FORMATS if f in out}, problems
    if pdf is not None:
        pdf.submit_charts(charts)
    if "html" in formats:
        out["html"] = render_html(view, charts).encode("utf-8")
    if pdf is not None:
        try:
            out["pdf"] = pdf.result()
        except PdfUnavailable as exc:
            problems.append(str(exc))
    return {FILE_NAMES[f]: out[f] for f in FORMATS if f in out}, problems


@contextmanager
def drawn_charts(report: Report, chart_process: bool | None):
    """(chart keys, svgs): the keys at once; svgs() returns key -> SVG, waiting if need be.

    In a helper process (see svg_process) the SVG is drawn while this process goes on.
    """
    from reportgen.charts.specs import build_charts, chart_specs

    if chart_process is None:
        chart_process = "vl_convert" not in sys.modules
    if not chart_process:
        drawn = build_charts(report)
        yield tuple(drawn), lambda: drawn
        return
    from reportgen.render.svg_process import SvgProcess

    with SvgProcess() as helper:  # its engine starts while altair loads here
        specs = chart_specs(report)
        if specs:
            helper.submit(specs)
        yield tuple(specs), helper.result if specs else dict
