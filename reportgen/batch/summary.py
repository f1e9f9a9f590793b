"""The class summary: the rows of a batch, summary.csv and summary.json (docs/batch.md)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportgen.batch.build import COLUMNS
from reportgen.errors import EXIT_INPUT, EXIT_OK
from reportgen.names import RUNG_NAMES
from reportgen.safe import csv_cell

SUMMARY_SCHEMA = "evreport-batch/1"
#: per-row keys of summary.json beyond COLUMNS: reuse, rubric points and the late deduction,
#: the roster's student, the metric in words and the models' display names (index.html)
EXTRA_ROW_KEYS = ("reused", "total", "max", "late", "student", "metric", "display")


@dataclass
class BatchResult:
    """The rows of the summary, in name order, and what the batch exits with."""

    out: Path
    rows: list[dict[str, Any]]
    seconds: float = 0.0
    #: top-level keys the hooks add to summary.json (grading: reused, duplicates ...)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def failed(self) -> int:
        return sum(r["status"] != "ok" for r in self.rows)

    @property
    def exit_code(self) -> int:
        return EXIT_INPUT if self.failed else EXIT_OK


def summary_csv(rows: Sequence[dict[str, Any]]) -> str:
    """summary.csv: one row per submission, COLUMNS; no cell can become a formula."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow([csv_cell(r.get(c)) for c in COLUMNS])
    return buf.getvalue()


def counts(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """How many submissions built, failed, and reached each rung (supported_rung >= k)."""
    ok = [r for r in rows if r["status"] == "ok"]
    reached = {
        name: sum(
            1 for r in ok if isinstance(r.get("supported_rung"), int) and r["supported_rung"] >= k
        )
        for k, name in enumerate(RUNG_NAMES, 1)
    }
    return {
        "submissions": len(rows),
        "ok": len(ok),
        "errors": len(rows) - len(ok),
        "reached": reached,
    }


def summary_json(result: BatchResult) -> str:
    from reportgen import __version__

    doc = {
        "schema": SUMMARY_SCHEMA,
        "tool": {"name": "evreport", "version": __version__},
        "columns": list(COLUMNS),
        "counts": counts(result.rows),
        "submissions": [
            {c: r.get(c) for c in (*COLUMNS, *EXTRA_ROW_KEYS, "detail") if c in r}
            for r in result.rows
        ],
        **result.extra,
    }
    return json.dumps(doc, indent=2, allow_nan=False, default=str) + "\n"
