"""The checks of a multi-class run's predictions (`reportgen.record.inputs.MultiClassRows`):
its probabilities, the class labels naming their columns, and the labels of ``y``."""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np

from reportgen.names import did_you_mean
from reportgen.project.task_columns import SUM_TOLERANCE
from reportgen.record.io import floats


def class_name(c: Any) -> str:
    """A class label as its p_ column names it: 3 -> "3", 3.0 -> "3", "cat" -> "cat"."""
    if isinstance(c, bool | np.bool_):
        return str(int(c))
    if isinstance(c, int | np.integer):
        return str(int(c))
    if isinstance(c, float | np.floating) and float(c).is_integer():
        return str(int(c))
    return str(c).strip()


def finite(a: np.ndarray, name: str) -> np.ndarray:
    f, at = floats(a, name)
    if at is not None:
        raise ValueError(
            f"{name}[{', '.join(map(str, at))}] is {float(f[tuple(at)])!r}: it must be finite"
        )
    return f


def built_in(m: str, higher_is_better: dict, kind: str) -> None:
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
            stacklevel=7,  # the user's rec.log call
        )


def checked_proba(p: Any, n: int) -> np.ndarray:
    """``p`` as an (n, K) float array of class probabilities, or ValueError."""
    pa = finite(np.asarray(p), "p")
    if pa.ndim != 2 or pa.shape[0] != n:
        raise ValueError(f"p has shape {pa.shape} but row_id has {n} values; it should be ({n}, K)")
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
    return pa


def checked_classes(classes: Any, k: int) -> list[str]:
    """The names of p's ``k`` columns: ``classes`` (``estimator.classes_``) as p_ columns name
    them, or 0 .. k-1 without it; ValueError unless one distinct label per column."""
    if classes is not None and (
        isinstance(classes, str | bytes) or not isinstance(classes, Iterable)
    ):
        raise ValueError(
            f"classes={classes!r} must be a list of labels, one per column of p "
            "(estimator.classes_)"
        )
    names = [class_name(c) for c in (range(k) if classes is None else list(classes))]
    if len(names) != k:
        raise ValueError(f"classes has {len(names)} labels but p has {k} columns; one per column")
    if len(set(names)) != k or not all(names):
        raise ValueError(f"classes={names!r} must be distinct, non-empty labels")
    if classes is not None:
        _warn_unsorted(list(classes), names)
    return names


def class_labels(y: Any, names: list[str], n: int, default_classes: bool) -> np.ndarray:
    """Each row's class as its column in p (``names``), or ValueError naming a label of ``y``
    that is not among them."""
    ya = np.asarray(y)
    if ya.ndim != 1 or len(ya) != n:
        raise ValueError(f"y must be 1-D with {n} values, got shape {ya.shape}")
    where = {c: i for i, c in enumerate(names)}
    labels = [class_name(v) for v in ya.tolist()]
    unknown = [v for v in dict.fromkeys(labels) if v not in where]
    if unknown:
        hint = "; pass classes=estimator.classes_ (p's column order)" if default_classes else ""
        raise ValueError(
            f"y holds {unknown[:5]!r}, which {'is' if len(unknown) == 1 else 'are'} not among "
            f"the classes {names[:12]!r}{hint}"
        )
    return np.array([where[v] for v in labels], dtype=np.int64)
