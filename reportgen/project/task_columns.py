"""Which task a predictions file holds, and its multi-class and regression columns.

    binary       y (0 or 1) and p (the class-1 probability)
    multiclass   y (a class name) and one p_<class> column per class
    regression   y and y_pred (numbers)

``[claim] task`` says which one the files must hold; without it each file's columns decide
(y and p, then p_<class>, then y_pred). Every problem names the file, line and column.
"""

from __future__ import annotations

import re

import numpy as np

from reportgen.errors import Problem, quote
from reportgen.project.tables import column_of, line_of, numeric_column

#: how far a row's class probabilities may sum from 1 (rounded values pass; logits do not)
SUM_TOLERANCE = 1e-3
#: most classes a multi-class file may have
MAX_CLASSES = 1000
PREFIX = "p_"


def natural_key(s: str):
    """Sort key that puts "p_2" before "p_10"."""
    return [
        (0, float(t), "") if re.fullmatch(r"\d+(\.\d+)?", t) else (1, 0.0, t)
        for t in re.split(r"(\d+(?:\.\d+)?)", s)
        if t != ""
    ]


def class_columns(columns) -> list[tuple[str, str]]:
    """(column, class name) of every ``p_<class>`` column, classes in natural order."""
    found = [(c, c[len(PREFIX) :]) for c in map(str, columns) if c.startswith(PREFIX)]
    found = [(c, k) for c, k in found if k.strip()]
    return sorted(found, key=lambda ck: natural_key(ck[1]))


def detect(columns, task: str | None) -> tuple[str | None, str | None]:
    """(kind, problem): the kind of file these columns make for ``task`` (None: inferred), or
    the problem that stops it being one. Kinds: binary, multiclass, regression, correct,
    metric (only a per-row column)."""
    cols = set(map(str, columns))
    has = {
        "binary": {"y", "p"} <= cols,
        "multiclass": "y" in cols and len(class_columns(cols)) >= 2,
        "regression": {"y", "y_pred"} <= cols,
    }
    header = ", ".join(map(str, columns))
    if task is not None:
        if has[task]:
            return task, None
        need = {
            "binary": "y (0 or 1) and p (the class-1 probability)",
            "multiclass": "y (the class) and one p_<class> column per class (p_0, p_1, ...)",
            "regression": "y (the actual value) and y_pred (the prediction)",
        }[task]
        hint = next(
            (
                f'; the columns fit task = "{k}"'
                for k in ("binary", "multiclass", "regression")
                if has[k]
            ),
            "",
        )
        return None, f"[claim] task is {task!r}: this file needs {need}; header: {header}{hint}"
    for kind in ("binary", "multiclass", "regression"):
        if has[kind]:
            return kind, None
    if "correct" in cols:
        return "correct", None
    return "metric", None


def parse_multiclass(frame, pred, name: str, problems: list[Problem]) -> None:
    """y as class indices into the ``p_<class>`` columns, which become the (N, K) ``proba``."""
    cc = class_columns(frame.columns)
    if len(cc) > MAX_CLASSES:
        problems.append(
            Problem(f"{len(cc):,} p_ columns, over the limit of {MAX_CLASSES:,} classes", name, 1)
        )
        return
    cols = [numeric_column(frame, c, name, problems, low=0.0, high=1.0) for c, _ in cc]
    classes = [k for _, k in cc]
    pred.kind = "multiclass"
    pred.classes = tuple(classes)
    pred.proba = np.column_stack(cols)
    pred.y = _class_index(frame, classes, name, problems)
    if np.all(np.isfinite(pred.proba)):
        _check_sums(frame, pred.proba, [c for c, _ in cc], name, problems)


def _class_index(frame, classes: list[str], name: str, problems: list[Problem]) -> np.ndarray:
    """Each row's y as the index of its class; a label without a p_ column is a problem."""
    import pandas as pd

    raw = frame["y"]
    text = raw.where(raw.notna(), "").astype(str).str.strip()
    codes, distinct = pd.factorize(text.to_numpy(dtype=object))
    where = {k: i for i, k in enumerate(classes)}
    index = np.full(len(distinct), -1, dtype=np.int64)
    for j, v in enumerate(distinct):
        k = where.get(v)
        if k is None:
            try:
                f = float(v)
                k = where.get(str(int(f))) if f.is_integer() else None
            except (ValueError, OverflowError):
                k = None
        if k is not None:
            index[j] = k
    out = index[codes]
    bad = np.flatnonzero(out < 0)
    shown = ", ".join(classes[:12]) + (", ..." if len(classes) > 12 else "")
    for i in bad[:5]:
        problems.append(
            Problem(
                f"y = {quote(str(raw.iloc[i]))} is not one of the classes of the p_ columns "
                f"({shown}); add its p_ column or fix the label",
                name,
                line_of(frame, int(i)),
                column_of(frame, "y"),
                slug="bad-value",
            )
        )
    if len(bad) > 5:
        problems.append(Problem(f"{len(bad) - 5} more labels without a p_ column", name))
    return out


def _check_sums(
    frame, proba: np.ndarray, columns: list[str], name: str, problems: list[Problem]
) -> None:
    """Every row's class probabilities sum to 1 (within SUM_TOLERANCE). Any column of the row
    may be the wrong one, so the problem names the row and the p_ columns it summed, at the
    column number of the first."""
    sums = proba.sum(axis=1)
    bad = np.flatnonzero(~(np.abs(sums - 1.0) <= SUM_TOLERANCE))
    span = f"{columns[0]} to {columns[-1]}" if len(columns) > 2 else " and ".join(columns)
    for i in bad[:3]:
        problems.append(
            Problem(
                f"the row's p_ columns ({span}) sum to {sums[i]:.6g}; class probabilities must "
                f"sum to 1 (within {SUM_TOLERANCE:g}): write predict_proba's rows, one column "
                "per class",
                name,
                line_of(frame, int(i)),
                column_of(frame, columns[0]),
                slug="bad-value",
            )
        )
    if len(bad) > 3:
        problems.append(Problem(f"{len(bad) - 3} more rows whose p_ columns do not sum to 1", name))


def parse_regression(frame, pred, name: str, problems: list[Problem]) -> None:
    """y and y_pred as finite numbers."""
    pred.kind = "regression"
    pred.y = numeric_column(frame, "y", name, problems)
    pred.y_pred = numeric_column(frame, "y_pred", name, problems)
