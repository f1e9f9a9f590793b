"""The steps of `Recorder.log` that need no project: the predictions columns of one run (from
its typed rows, `reportgen.record.inputs`, with the per-row values of its metrics), and the
runs.csv append."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from reportgen.project.runs import CV_COLUMNS, OPTIONAL, REQUIRED
from reportgen.record.inputs import (
    THRESHOLD_METRICS,
    Columns,
    TaskRows,
    task_rows,
)
from reportgen.record.io import csv_cell, row_ids_of, vector
from reportgen.safe import atomic_write

COLUMNS = REQUIRED + OPTIONAL
__all__ = ["COLUMNS", "THRESHOLD_METRICS", "append_rows", "predictions_frame"]


def predictions_frame(
    metrics: Sequence[str],
    row_id: Any,
    given: dict[str, Any],
    multiclass: Callable[[Any], bool],
) -> tuple[TaskRows, Columns, Columns]:
    """The typed rows of one run, its predictions columns (validated) and the per-row values
    of its metrics that need no threshold.

    ``given`` holds the arrays of the ``log`` call (y, p, y_pred, classes, correct, category,
    text, values, columns); ``multiclass(p)`` says whether a 2-D ``p`` is multi-class.
    """
    if row_id is None:
        raise ValueError("row_id is required for a run with status 'ok'")
    ids = row_ids_of(row_id)
    n = len(ids)
    rows = task_rows(metrics, n, given, multiclass)
    per_row = rows.per_row(metrics)
    frame = {"row_id": ids, **rows.columns()}
    columns = given["columns"]
    if columns is not None and not isinstance(columns, Mapping):
        raise ValueError(
            f"columns= must be a dict {{column name: values}}, got {type(columns).__name__}"
        )
    for name, col in (columns or {}).items():
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"columns has the key {name!r}; a column name is a non-empty string")
        if name in frame:
            raise ValueError(f"columns[{name!r}] clashes with a predictions column")
        frame[name] = vector(col, f"columns[{name!r}]", n)
    if len(set(map(str, ids))) != n:
        raise ValueError("row_id has duplicate values; each evaluated example once")
    return rows, frame, per_row


def append_rows(
    path: Path,
    header: list[str],
    rows: list[dict[str, str]],
    new: list[dict[str, Any]],
    drop: list[dict[str, str]],
) -> None:
    """Append ``new`` to the run log at ``path``; rewrite it when rows in ``drop`` go or a
    new row fills a column the header lacks (added at the end)."""
    needed = [
        c
        for c in COLUMNS + CV_COLUMNS
        if c not in header and any(r.get(c) not in (None, "") for r in new)
    ]
    if drop or needed:
        keep = [r for r in rows if not any(r is d for d in drop)]
        header = header + needed
        out = io.StringIO(newline="")
        w = csv.writer(out, lineterminator="\n")
        w.writerow(header)
        for r in keep:
            w.writerow([r.get(c, "") for c in header])
        for r in new:
            w.writerow([csv_cell(r.get(c)) for c in header])
        atomic_write(path, out.getvalue().encode("utf-8"))
        return
    out = io.StringIO(newline="")
    w = csv.writer(out, lineterminator="\n")
    for r in new:
        w.writerow([csv_cell(r.get(c)) for c in header])
    data = out.getvalue().encode("utf-8")
    with path.open("rb+") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() > 0:
            f.seek(-1, os.SEEK_END)
            if f.read(1) not in (b"\n", b"\r"):
                data = b"\n" + data
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
