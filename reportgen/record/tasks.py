"""The Recorder's multi-class and regression predictions: checked columns and the per-row
values of the logged metrics, computed by the functions the report recomputes them with
(`reportgen.stats.multiclass`, `reportgen.stats.regression`)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from reportgen.names import did_you_mean
from reportgen.project.task_columns import SUM_TOLERANCE
from reportgen.record.io import floats
from reportgen.stats import multiclass, regression


def class_name(c: Any) -> str:
    """A class label as its p_ column names it: 3 -> "3", 3.0 -> "3", "cat" -> "cat"."""
    if isinstance(c, bool | np.bool_):
        return str(int(c))
    if isinstance(c, int | np.integer):
        return str(int(c))
    if isinstance(c, float | np.floating) and float(c).is_integer():
        return str(int(c))
    return str(c).strip()


def _finite(a: np.ndarray, name: str) -> np.ndarray:
    f, at = floats(a, name)
    if at is not None:
        raise ValueError(
            f"{name}[{', '.join(map(str, at))}] is {float(f[tuple(at)])!r}: it must be finite"
        )
    return f


def _built_in(m: str, higher_is_better: dict, kind: str) -> None:
    """ValueError unless ``m`` is one of the built-in metrics of the task ``kind``."""
    if m not in higher_is_better:
        raise ValueError(
            f"metric={m!r} is not a {kind} metric; built in: {sorted(higher_is_better)}"
            f"{did_you_mean(m, sorted(higher_is_better))} (or log a per-row "
            "column with values=)"
        )


def _warn_unsorted(classes: list, names: list[str]) -> None:
    """Warn when ``classes`` is not sorted: scikit-learn's ``classes_`` always is (np.unique),
    so an unsorted list usually names p's columns in the wrong order (docs/recording.md)."""
    values = [c.item() if isinstance(c, np.generic) else c for c in classes]
    try:
        in_order = sorted(values)
    except TypeError:  # labels of mixed kinds have no order to compare with
        return
    if values != in_order:
        warnings.warn(
            f"classes={names!r} is not in sorted order, but estimator.classes_ always is "
            f"({[class_name(c) for c in in_order]!r}): check that it names p's columns in "
            "predict_proba's order, or the metrics score the wrong class",
            UserWarning,
            stacklevel=6,  # the user's rec.log call
        )


def multiclass_frame(
    y: Any, p: Any, classes: Any, n: int, metrics: list[str]
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The y and p_<class> columns of a multi-class run and its metrics' per-row values.

    ``p`` is ``predict_proba``'s (N, K) output; ``classes`` names its columns in order
    (``estimator.classes_``); without it they are 0 .. K-1.
    """
    pa = _finite(np.asarray(p), "p")
    if pa.ndim != 2 or pa.shape[0] != n:
        raise ValueError(f"p has shape {pa.shape} but row_id has {n} values; it should be ({n}, K)")
    k = pa.shape[1]
    names = [class_name(c) for c in (range(k) if classes is None else list(classes))]
    if len(names) != k:
        raise ValueError(f"classes has {len(names)} labels but p has {k} columns; one per column")
    if len(set(names)) != k or not all(names):
        raise ValueError(f"classes={names!r} must be distinct, non-empty labels")
    if classes is not None:
        _warn_unsorted(list(classes), names)
    out = (pa < 0) | (pa > 1)
    if out.any():
        i, j = np.argwhere(out)[0]
        raise ValueError(f"p[{i}, {j}] = {float(pa[i, j])!r} is outside [0, 1]")
    sums = pa.sum(axis=1)
    off = np.flatnonzero(np.abs(sums - 1.0) > SUM_TOLERANCE)
    if off.size:
        i = int(off[0])
        raise ValueError(
            f"p's row {i} sums to {float(sums[i]):.6g}; class probabilities must sum to 1 (pass "
            "predict_proba's output, not logits or scores)"
        )
    ya = np.asarray(y)
    if ya.ndim != 1 or len(ya) != n:
        raise ValueError(f"y must be 1-D with {n} values, got shape {ya.shape}")
    where = {c: i for i, c in enumerate(names)}
    labels = [class_name(v) for v in ya.tolist()]
    unknown = [v for v in dict.fromkeys(labels) if v not in where]
    if unknown:
        hint = "" if classes is not None else "; pass classes=estimator.classes_ (p's column order)"
        raise ValueError(
            f"y holds {unknown[:5]!r}, which {'is' if len(unknown) == 1 else 'are'} not among "
            f"the classes {names[:12]!r}{hint}"
        )
    idx = np.array([where[v] for v in labels], dtype=np.int64)
    per_row = {}
    for m in metrics:
        _built_in(m, multiclass.HIGHER_IS_BETTER, "multi-class")
        per_row[m] = multiclass.per_row_metric(m, idx, pa)
    ints = all(v.lstrip("-").isdigit() for v in names)
    cols = {
        "y": np.array([int(names[i]) for i in idx], dtype=np.int64)
        if ints
        else np.array([names[i] for i in idx], dtype=object)
    }
    for j, c in enumerate(names):
        cols[f"p_{c}"] = pa[:, j]
    return cols, per_row


def regression_frame(
    y: Any, y_pred: Any, n: int, metrics: list[str]
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The y and y_pred columns of a regression run and its metrics' per-row values."""
    cols = {}
    for name, v in (("y", y), ("y_pred", y_pred)):
        a = np.asarray(v)
        if a.ndim == 2 and a.shape[1] == 1:
            a = a[:, 0]
        if a.ndim != 1 or len(a) != n:
            raise ValueError(
                f"{name} must be 1-D with {n} values (one output), got shape {a.shape}"
            )
        cols[name] = _finite(a, name)
    per_row = {}
    for m in metrics:
        _built_in(m, regression.HIGHER_IS_BETTER, "regression")
        per_row[m] = regression.per_row_metric(m, cols["y"], cols["y_pred"])
    return cols, per_row
