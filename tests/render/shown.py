"""What the page prints of a report.json sentence, for tests that hold the report as its JSON."""

from __future__ import annotations

from typing import Any

from reportgen.model import Report
from reportgen.view import parts


def in_words(text: str, report: Report | dict[str, Any]) -> str:
    """``view.parts.in_words`` of ``text``, the report parsed when it is report.json's object."""
    typed = report if isinstance(report, Report) else Report.from_json(report)
    return parts.in_words(text, typed)
