"""Render a report dict to the files a build writes: HTML, PDF, report.json, decision-log.md.

Heavy libraries (altair, vl_convert, weasyprint) are imported inside functions so that
importing this package, and ``evreport --help``, stays instant.
"""

from __future__ import annotations

import json

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


def render_outputs(report: dict, formats: tuple[str, ...]) -> tuple[dict[str, bytes], list[str]]:
    """Render the requested formats; returns ({file name: bytes}, problems).

    A PDF that cannot be made because WeasyPrint's system libraries are missing is a problem,
    not a failure: the other files are still returned.
    """
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise ValueError(
            f"unknown output format(s) {', '.join(map(repr, unknown))}; "
            f"valid formats are {', '.join(FORMATS)}"
        )
    files: dict[str, bytes] = {}
    problems: list[str] = []
    html_text = None
    view = None
    if "html" in formats or "pdf" in formats or "md" in formats:
        from reportgen.view import build_view

        charts: dict[str, str] = {}
        if "html" in formats or "pdf" in formats:
            from reportgen.charts import build_charts

            charts = build_charts(report)
        view = build_view(report, charts)
    if "html" in formats or "pdf" in formats:
        from reportgen.render.html import render_html

        html_text = render_html(view)
    if "html" in formats:
        files[FILE_NAMES["html"]] = html_text.encode("utf-8")
    if "pdf" in formats:
        from reportgen.render.pdf import PdfUnavailable, render_pdf

        try:
            files[FILE_NAMES["pdf"]] = render_pdf(html_text)
        except PdfUnavailable as exc:
            problems.append(str(exc))
    if "json" in formats:
        files[FILE_NAMES["json"]] = report_json(report)
    if "md" in formats:
        from reportgen.render.md import render_markdown

        files[FILE_NAMES["md"]] = render_markdown(view).encode("utf-8")
    return files, problems
