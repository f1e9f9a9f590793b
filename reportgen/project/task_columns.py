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
from reportgen.project.config import TASK_METRICS, Config
from reportgen.project.tables import cell_problem, numeric_column, stripped_text
from reportgen.words.i18n import _, local_number, n_
from reportgen.words.numbers import count

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
            "binary": _("y (0 or 1) and p (the class-1 probability)"),
            "multiclass": _("y (the class) and one p_<class> column per class (p_0, p_1, ...)"),
            "regression": _("y (the actual value) and y_pred (the prediction)"),
        }[task]
        hint = next(
            (
                _('; the columns fit task = "{task}"', task=k)
                for k in ("binary", "multiclass", "regression")
                if has[k]
            ),
            "",
        )
        message = _(
            "[claim] task is {task}: this file needs {need}; header: {header}",
            task=repr(task),
            need=need,
            header=header,
        )
        return None, message + hint
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
            Problem(
                _(
                    "{n} p_ columns, over the limit of {limit} classes",
                    n=count(len(cc)),
                    limit=count(MAX_CLASSES),
                ),
                name,
                1,
            )
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
    text = stripped_text(raw)
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
        message = _(
            "y = {value} is not one of the classes of the p_ columns ({classes}); add its p_ "
            "column or fix the label",
            value=quote(str(raw.iloc[i])),
            classes=shown,
        )
        problems.append(cell_problem(frame, i, "y", message, name, "bad-value"))
    if len(bad) > 5:
        more = len(bad) - 5
        problems.append(
            Problem(
                n_(
                    "{n} more labels without a p_ column",
                    "{n} more labels without a p_ column",
                    more,
                    n=local_number(str(more)),  # English as before: no separator
                ),
                name,
            )
        )
    return out


def _check_sums(
    frame, proba: np.ndarray, columns: list[str], name: str, problems: list[Problem]
) -> None:
    """Every row's class probabilities sum to 1 (within SUM_TOLERANCE). Any column of the row
    may be the wrong one, so the problem names the row and the p_ columns it summed, at the
    column number of the first."""
    sums = proba.sum(axis=1)
    bad = np.flatnonzero(~(np.abs(sums - 1.0) <= SUM_TOLERANCE))
    if len(columns) > 2:
        span = _("{first} to {last}", first=columns[0], last=columns[-1])
    else:
        span = _(" and ").join(columns)
    for i in bad[:3]:
        message = _(
            "the row's p_ columns ({columns}) sum to {total}; class probabilities must sum to 1 "
            "(within {tolerance}): write predict_proba's rows, one column per class",
            columns=span,
            total=local_number(f"{sums[i]:.6g}"),
            tolerance=local_number(f"{SUM_TOLERANCE:g}"),
        )
        problems.append(cell_problem(frame, i, columns[0], message, name, "bad-value"))
    if len(bad) > 3:
        more = len(bad) - 3
        problems.append(
            Problem(
                n_(
                    "{n} more rows whose p_ columns do not sum to 1",
                    "{n} more rows whose p_ columns do not sum to 1",
                    more,
                    n=local_number(str(more)),  # English as before: no separator
                ),
                name,
            )
        )


def parse_regression(frame, pred, name: str, problems: list[Problem]) -> None:
    """y and y_pred as finite numbers."""
    pred.kind = "regression"
    pred.y = numeric_column(frame, "y", name, problems)
    pred.y_pred = numeric_column(frame, "y_pred", name, problems)


def main_task(config: Config, kinds: dict[str, str | None]) -> str | None:
    """The task the files should hold: [claim] task, else the only task the metric belongs
    to (squared_error: regression), else the task most files hold."""
    if config.task is not None:
        return config.task
    owners = [t for t, ms in TASK_METRICS.items() if config.metric in ms]
    if len(owners) == 1:
        return owners[0]
    held = [k for k in kinds.values() if k in TASK_METRICS]
    return max(dict.fromkeys(held), key=held.count) if held else None


def drop_odd_task_problems(
    config: Config,
    kinds: dict[str, str | None],
    spans: dict[str, tuple[int, int]],
    problems: list[Problem],
) -> None:
    """Without [claim] task, a file of another task than the rest gets the one
    ``[mixed-tasks]`` error (project_task), not a line per value that its task reads wrongly
    ("y must be 0 or 1" for every row of a regression target)."""
    tasks = {k for k in kinds.values() if k in TASK_METRICS}
    if config.task is not None or len(tasks) < 2:
        return
    main = main_task(config, kinds)
    drop = set()
    for name, kind in kinds.items():
        if kind in TASK_METRICS and kind != main and name in spans:
            drop |= {id(p) for p in problems[slice(*spans[name])]}
    problems[:] = [p for p in problems if id(p) not in drop]


def project_task(
    config: Config,
    predictions: dict,
    problems: list[Problem],
    kinds: dict[str, str | None] | None = None,
) -> tuple[str | None, str | None, tuple[str, ...] | None]:
    """(task, where it came from, classes): [claim] task, else the one task every predictions
    file holds (``kinds``: each file's by its header, else the parsed files'), else a
    regression metric's; files of two tasks, or multi-class files with different classes,
    are problems (a file of two tasks at the odd file)."""
    first: dict[str, str] = {}
    classes: dict[tuple[str, ...], str] = {}
    for path, kind in (kinds or {p: pred.kind for p, pred in predictions.items()}).items():
        if kind in TASK_METRICS:
            first.setdefault(kind, path)
    for path, pred in predictions.items():
        if pred.kind == "multiclass":
            classes.setdefault(pred.classes, path)
    if config.task is None and len(first) > 1:
        problems.append(
            Problem(
                _(
                    "the predictions files hold different tasks: {files}; one comparison is one "
                    'task: set [claim] task = "..." and fix the other files',
                    files="; ".join(f"{p} ({k})" for k, p in first.items()),
                ),
                next(
                    (p for k, p in first.items() if k != main_task(config, kinds or {})),
                    next(iter(first.values())),
                ),
                1,
                slug="mixed-tasks",
            )
        )
    if len(classes) > 1:
        (a, pa), (b, pb) = list(classes.items())[:2]
        problems.append(
            Problem(
                _(
                    "the multi-class files have different classes: {first} has {first_columns}, "
                    "{second} has {second_columns}; write one p_ column for every class in every "
                    "file",
                    first=pa,
                    first_columns=", ".join("p_" + c for c in a),
                    second=pb,
                    second_columns=", ".join("p_" + c for c in b),
                ),
                pb,
                1,
                slug="mixed-classes",
            )
        )
    cls = next(iter(classes), None)
    if config.task is not None:
        return config.task, "config", cls
    if len(first) == 1:
        return next(iter(first)), "predictions", cls
    if config.metric in TASK_METRICS["regression"]:
        return "regression", "metric", None
    return None, None, None
