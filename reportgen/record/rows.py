"""The steps of `Recorder.log` that need no project: its arguments checked, the predictions
columns of one run (with the per-row values of its metrics), and the runs.csv append."""

from __future__ import annotations

import csv
import io
import math
import os
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from reportgen.names import did_you_mean
from reportgen.names import fold as _fold
from reportgen.project.manifest import canonical_part
from reportgen.project.runs import CV_COLUMNS, OPTIONAL, REQUIRED
from reportgen.record.io import csv_cell, finite_vector, row_ids_of, vector, zero_one
from reportgen.safe import atomic_write
from reportgen.stats.metric_registry import CORRECT, METRICS, task_metrics
from reportgen.stats.metrics import HIGHER_IS_BETTER, per_row_metric

COLUMNS = REQUIRED + OPTIONAL
THRESHOLD_METRICS = tuple(n for n, m in METRICS.items() if m.threshold)
CORRECT_METRICS = task_metrics(CORRECT)

Columns = dict[str, np.ndarray]


def checked_run(
    model: str, seed: int, split: str, metric: str | Sequence[str], status: str
) -> tuple[list[str], int, str, str]:
    """``(metrics, seed, status, part)`` of one ``log`` call, or ValueError naming the argument."""
    metrics = [metric] if isinstance(metric, str) else list(metric)
    if not metrics or not all(isinstance(m, str) and m.strip() for m in metrics):
        raise ValueError(f"metric={metric!r} must be a metric name or a list of them")
    if len(set(metrics)) != len(metrics):
        raise ValueError(f"metric={metric!r} names a metric twice")
    if not isinstance(model, str) or not model.strip():
        raise ValueError(f"model={model!r} must be a non-empty string")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise ValueError(f"seed={seed!r} must be a whole number")
    status = str(status).strip().lower()
    if status not in ("ok", "failed"):
        raise ValueError(f"status={status!r} is not valid. It should be one of ['ok', 'failed']")
    if not isinstance(split, str) or not split.strip():
        raise ValueError(f"split={split!r} must be a split name such as 'validation'")
    return metrics, int(seed), status, canonical_part(split.strip())


def checked_seconds(fit_seconds: float | None) -> float | None:
    """``fit_seconds`` as a float, or ValueError unless it is finite and not negative."""
    if fit_seconds is None:
        return None
    fit_seconds = float(fit_seconds)
    if not math.isfinite(fit_seconds) or fit_seconds < 0:
        raise ValueError(f"fit_seconds={fit_seconds!r} must be a finite number >= 0")
    return fit_seconds


def predictions_frame(
    metrics: list[str],
    row_id: Any,
    given: dict[str, Any],
    multiclass: Callable[[Any], bool],
) -> tuple[Columns, Columns]:
    """The predictions columns of one run (validated) and the per-row values of its metrics
    that need no threshold.

    ``given`` holds the arrays of the ``log`` call (y, p, y_pred, classes, correct, category,
    text, values, columns); ``multiclass(p)`` says whether a 2-D ``p`` is multi-class.
    """
    if row_id is None:
        raise ValueError("row_id is required for a run with status 'ok'")
    ids = row_ids_of(row_id)
    n = len(ids)
    kind = _kind(given)
    if kind == "y/p":
        frame, per_row = _scored(metrics, given, n, multiclass)
    elif kind == "correct":
        frame, per_row = _correct(metrics, given["correct"], n)
    else:
        frame, per_row = _own_values(metrics, given["values"], n)
    frame = {"row_id": ids, **frame}
    for name in ("category", "text"):
        if given[name] is not None:
            frame[name] = vector(given[name], name, n).astype(str).astype(object)
    for name, col in (given["columns"] or {}).items():
        if name in frame:
            raise ValueError(f"columns[{name!r}] clashes with a predictions column")
        frame[name] = vector(col, f"columns[{name!r}]", n)
    if len(set(map(str, ids))) != n:
        raise ValueError("row_id has duplicate values; each evaluated example once")
    return frame, per_row


def _kind(given: dict[str, Any]) -> str:
    """Which one of y and p (or y_pred), correct, or values the call gives."""
    scores = next((given[k] for k in ("p", "y_pred", "y") if given[k] is not None), None)
    named = [
        k
        for k, v in (("y/p", scores), ("correct", given["correct"]), ("values", given["values"]))
        if v is not None
    ]
    if len(named) != 1:
        raise ValueError(
            "give exactly one of y and p, correct, or values"
            + (f" (got {' and '.join(named)})" if named else "")
        )
    if named[0] == "y/p" and given["p"] is not None and given["y_pred"] is not None:
        raise ValueError("give p (classification) or y_pred (regression), not both")
    return named[0]


def _scored(
    metrics: list[str], given: dict[str, Any], n: int, multiclass: Callable[[Any], bool]
) -> tuple[Columns, Columns]:
    """The columns of a run scored by y and p (binary or multi-class) or y and y_pred."""
    y, p, y_pred = given["y"], given["p"], given["y_pred"]
    if y is not None and (y_pred is not None or multiclass(p)):
        from reportgen.record.tasks import multiclass_frame, regression_frame

        if y_pred is not None:
            return regression_frame(y, y_pred, n, metrics)
        return multiclass_frame(y, p, given["classes"], n, metrics)
    if y is None or p is None:
        raise ValueError(
            "p (or y_pred, for regression) is required together with y"
            if p is None
            else "y is required together with p"
        )
    p_checked = finite_vector(p, "p", n, 0.0, 1.0)  # first: a 2-D p says "multi-class" best
    frame = {"y": zero_one(y, "y", n), "p": p_checked}
    per_row = {}
    for m in metrics:
        if m not in HIGHER_IS_BETTER:
            raise ValueError(
                f"metric={m!r} is not a built-in metric {sorted(HIGHER_IS_BETTER)}"
                f"{did_you_mean(m, HIGHER_IS_BETTER)} (for a metric of your own, log a "
                "per-row column with values=)"
            )
        if m not in THRESHOLD_METRICS:
            per_row[m] = per_row_metric(m, y=frame["y"], p=frame["p"])
    return frame, per_row


def _correct(metrics: list[str], correct: Any, n: int) -> tuple[Columns, Columns]:
    """The column of a question set scored right or wrong, and its accuracy or error rate."""
    frame = {"correct": zero_one(correct, "correct", n)}
    per_row = {}
    for m in metrics:
        if m not in CORRECT_METRICS:
            raise ValueError(
                f"metric={m!r} cannot be computed from correct=; it should be one of "
                f"{list(CORRECT_METRICS)}{did_you_mean(m, CORRECT_METRICS)}"
            )
        per_row[m] = per_row_metric(m, correct=frame["correct"])
    return frame, per_row


def _own_values(metrics: list[str], values: Any, n: int) -> tuple[Columns, Columns]:
    """The per-row columns of metrics of the user's own (``values=``)."""
    vals = values if isinstance(values, dict) else {metrics[0]: values}
    if not isinstance(values, dict) and len(metrics) != 1:
        raise ValueError("values= with several metrics must be a dict {metric: values}")
    if set(vals) != set(metrics):
        raise ValueError(f"values= has metrics {sorted(vals)} but metric= names {metrics}")
    frame = {}
    for m, v in vals.items():
        if m in HIGHER_IS_BETTER:
            raise ValueError(
                f"metric={m!r} is built in: give y and p (or correct) so the report can "
                "recompute it"
            )
        near = [k for k in HIGHER_IS_BETTER if _fold(k) == _fold(m)]
        if near:
            warnings.warn(
                f"metric={m!r} is logged as a metric of your own (values=), but it reads "
                f"like the built-in {near[0]!r}: give y and p with metric={near[0]!r} so "
                "the report can recompute it",
                stacklevel=4,  # _own_values, predictions_frame, Recorder.log, the caller
            )
        frame[m] = finite_vector(v, f"values[{m!r}]", n)
    return frame, dict(frame)


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
