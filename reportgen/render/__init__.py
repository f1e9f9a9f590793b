"""Render a report dict to the files a build writes: HTML, PDF, report.json, decision-log.md.

Heavy libraries (altair, vl_convert, weasyprint) are imported inside functions so that
importing this package, and ``evreport --help``, stays instant.
"""

from __future__ import annotations

import json
import sys

FORMATS = ("html", "pdf", "json", "md")
FILE_NAMES = {
    "html": "report.html",
    "pdf": "report.pdf",
    "json": "report.json",
    "md": "decision-log.md",
}


def report_json(report: dict) -> bytes:
    """The report dict as the report.json file (the versioned contract)."""
    text = json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    return text.encode("utf-8")


def render_outputs(
    report: dict, formats: tuple[str, ...], *, chart_process: bool | None = None
) -> tuple[dict[str, bytes], list[str]]:
    """Render the requested formats; returns ({file name: bytes}, problems).

    A PDF that cannot be made because WeasyPrint's system libraries are missing is a problem,
    not a failure: the other files are still returned.

    chart_process: draw the charts in a helper process (True), in this one (False), or
    (None) in a helper unless vl-convert is already loaded here, as in a batch worker
    that keeps its warm engine from one project to the next.
    """
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise ValueError(
            f"unknown output format(s) {', '.join(map(repr, unknown))}; "
            f"valid formats are {', '.join(FORMATS)}"
        )
    files: dict[str, bytes] = {}
    problems: list[str] = []
    page = "html" in formats or "pdf" in formats
    view = None
    if page or "md" in formats:
        from reportgen.view import build_view

        charts = chart_svgs(report, "pdf" in formats, chart_process) if page else {}
        view = build_view(report, charts)
    if page:
        from reportgen.render.html import render_html
    if "html" in formats:
        files[FILE_NAMES["html"]] = render_html(view).encode("utf-8")
    if "pdf" in formats:
        from reportgen.render.pdf import PdfUnavailable, render_pdf

        try:
            files[FILE_NAMES["pdf"]] = render_pdf(render_html(view, for_print=True))
        except PdfUnavailable as exc:
            problems.append(str(exc))
    if "json" in formats:
        files[FILE_NAMES["json"]] = report_json(report)
    if "md" in formats:
        from reportgen.render.md import render_markdown

        files[FILE_NAMES["md"]] = render_markdown(view).encode("utf-8")
    return files, problems


def chart_svgs(report: dict, pdf: bool, chart_process: bool | None) -> dict[str, str]:
    """Chart key -> SVG; in a helper process, this one loads WeasyPrint (for a PDF) meanwhile."""
    from reportgen import charts

    if chart_process is None:
        chart_process = "vl_convert" not in sys.modules
    if not chart_process:
        return charts.build_charts(report)
    from reportgen.render.svg_process import SvgProcess

    with SvgProcess() as helper:  # its engine starts while altair loads here
        specs = charts.chart_specs(report)
        if not specs:
            return {}
        helper.submit(specs)
        if pdf:
            from reportgen.render.pdf import PdfUnavailable, load_weasyprint

            try:
                load_weasyprint()
            except PdfUnavailable:
                pass  # render_pdf raises it again and the build reports it
        return helper.result()
