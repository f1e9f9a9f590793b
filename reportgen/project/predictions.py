"""Per-row predictions files (CSV or Parquet): checked values, block and slice joined by row_id."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from reportgen.errors import Problem, said, said_ids
from reportgen.project.rowkeys import PartKeys, as_labels
from reportgen.project.tables import (
    cannot_read_on,
    cell_problem,
    column_of,
    line_of,
    numeric_column,
    stripped_text,
)
from reportgen.project.task_columns import detect, parse_multiclass, parse_regression
from reportgen.words import count
from reportgen.words.i18n import _, n_, p_


@dataclass
class Predictions:
    """One predictions file as arrays; ``kind`` is "binary" (y, p), "multiclass" (y as class
    indices into ``classes``, ``proba``), "regression" (y, y_pred), "correct" or "metric"."""

    path: str
    part: str
    stored_ids: np.ndarray | None  # str objects; None while ``keys`` stand for them
    kind: str
    y: np.ndarray | None = None
    p: np.ndarray | None = None
    correct: np.ndarray | None = None
    metric: np.ndarray | None = None
    proba: np.ndarray | None = None  # (N, K) class probabilities (multiclass)
    classes: tuple[str, ...] | None = None  # the K class names, from the p_<class> columns
    y_pred: np.ndarray | None = None  # (N,) predicted values (regression)
    stored_block: np.ndarray | None = None  # str objects, unless held as codes (see block)
    stored_slice: np.ndarray | None = None
    category: np.ndarray | None = None
    text: np.ndarray | None = None
    extra: dict = field(default_factory=dict)
    keys: np.ndarray | None = None  # (N,) int32 positions of the ids in ``part_keys``' order
    part_keys: PartKeys | None = None

    def __len__(self) -> int:
        if self.keys is not None:
            return len(self.keys)
        assert self.stored_ids is not None  # the ids are held as keys or as strings
        return len(self.stored_ids)

    def _labels(self, attr: str) -> np.ndarray | None:
        coded = self.extra.get("label_codes", {}).get(attr)
        if coded is not None:  # one byte or two per row until a caller wants strings
            codes, distinct = coded
            return distinct[codes]
        return getattr(self, "stored_" + attr)

    def _set_labels(self, attr: str, values: np.ndarray | None) -> None:
        self.extra.get("label_codes", {}).pop(attr, None)
        setattr(self, "stored_" + attr, values)

    def set_coded(self, attr: str, codes: np.ndarray, distinct: np.ndarray) -> None:
        """Hold block or slice labels as ``distinct[codes]`` (codes in the smallest integer type)."""
        n = len(distinct)
        small = np.int8 if n < 2**7 else np.int16 if n < 2**15 else np.int32 if n < 2**31 else None
        self._set_labels(attr, None)
        self.extra.setdefault("label_codes", {})[attr] = (codes.astype(small or np.int64), distinct)

    block = property(
        lambda self: self._labels("block"),
        lambda self, v: self._set_labels("block", v),
        doc="(N,) block label per row (str objects), or None.",
    )
    slice = property(
        lambda self: self._labels("slice"),
        lambda self, v: self._set_labels("slice", v),
        doc="(N,) slice label per row (str objects), or None.",
    )

    @property
    def row_id(self) -> np.ndarray:
        """The row ids as Python strings (built from the keys on first use)."""
        if self.stored_ids is None:
            assert self.part_keys is not None and self.keys is not None  # ids held as keys
            self.stored_ids = self.part_keys.text_of(self.keys)
        return self.stored_ids

    def line(self, index: int) -> int:
        """File line (CSV) or 1-based row (Parquet) of row ``index``."""
        lines = self.extra.get("lines")
        if lines is not None:
            return int(lines[index])
        return index + 2 if self.extra.get("format", "csv") == "csv" else index + 1


def parse_predictions(
    frame,
    name: str,
    part: str,
    metric: str,
    builtin_metric: bool,
    problems: list[Problem],
    block: str | None = None,
    slice_col: str | None = None,
    part_keys: PartKeys | None = None,
    task: str | None = None,
) -> Predictions | None:
    """Check a predictions frame (strings for CSV) and turn it into arrays.

    ``task`` ([claim] task) says which columns the file must hold; None lets them decide.

    With ``part_keys`` (the split part's ids) a file whose ids are all plain, unique and in
    the split file gets integer keys instead of string ids; any other file takes the
    general path, which names the first bad rows.
    """
    before = len(problems)
    missing = (
        _(
            "no row_id column (required: the example's id in the split files); header: {header}",
            header=said_ids(map(str, frame.columns)),
        )
        if "row_id" not in frame.columns
        else None
    )
    if cannot_read_on(frame, name, missing, problems):
        return None
    keys = part_keys.keys_of(frame["row_id"]) if part_keys is not None else None
    if keys is not None:
        pred = Predictions(name, part, None, kind="metric", keys=keys, part_keys=part_keys)
    else:
        pred = _checked_ids(frame, name, part, problems)
    return _parse_values(
        frame, pred, name, metric, builtin_metric, problems, block, slice_col, before, task
    )


def _checked_ids(frame, name: str, part: str, problems: list[Problem]) -> Predictions:
    """The general path: ids as stripped strings; empty and duplicate ids become Problems."""
    ids = stripped_text(frame["row_id"]).to_numpy(dtype=object)  # a null counts as empty
    for i in np.flatnonzero(ids == "")[:3]:
        problems.append(
            cell_problem(
                frame, i, "row_id", _("{column} is empty", column="row_id"), name, "empty-cell"
            )
        )
    order = np.argsort(ids, kind="stable")
    s = ids[order]
    dup = np.flatnonzero(s[1:] == s[:-1])
    for j in dup[:3]:
        a, b = sorted((int(order[j]), int(order[j + 1])))
        message = _(
            "duplicate row_id {value} (also at line {line})",
            value=said(s[j]),
            line=line_of(frame, a),
        )
        problems.append(cell_problem(frame, b, "row_id", message, name, "duplicate-row-id"))
    return Predictions(name, part, ids, kind="metric")


def _parse_values(
    frame,
    pred: Predictions,
    name: str,
    metric: str,
    builtin_metric: bool,
    problems: list[Problem],
    block: str | None,
    slice_col: str | None,
    before: int,
    task: str | None = None,
) -> Predictions | None:
    cols = set(frame.columns)
    pred.extra.update(
        format=frame.attrs.get("format", "csv"),
        lines=frame.attrs.get("lines"),
        row_id_column=column_of(frame, "row_id"),
        slice_column=column_of(frame, slice_col) if slice_col else None,
    )
    kind, problem = detect(frame.columns, task)
    if problem is not None:
        problems.append(Problem(problem, name, 1, slug="missing-column"))
        return None
    if kind == "binary":
        pred.kind = "binary"
        pred.y = numeric_column(frame, "y", name, problems, allowed=(0, 1))
        pred.p = numeric_column(frame, "p", name, problems, low=0.0, high=1.0)
    elif kind == "multiclass":
        parse_multiclass(frame, pred, name, problems)
    elif kind == "regression":
        parse_regression(frame, pred, name, problems)
    elif "correct" in cols:
        pred.kind = "correct"
        pred.correct = numeric_column(frame, "correct", name, problems, allowed=(0, 1))
    if "correct" in cols and pred.correct is None:
        pred.correct = numeric_column(frame, "correct", name, problems, allowed=(0, 1))
    if not builtin_metric:
        if metric not in cols:
            problems.append(
                Problem(
                    _("no column {column} (the claim's per-row metric)", column=said(metric)),
                    name,
                    1,
                    slug="missing-column",
                )
            )
        else:
            pred.metric = numeric_column(frame, metric, name, problems)
    elif pred.kind == "metric":
        problems.append(
            Problem(
                _(
                    "needs y and p (binary classification), y and p_<class> columns "
                    "(multi-class), y and y_pred (regression) or correct (question sets) to "
                    "compute {metric}; header: {header}",
                    metric=metric,
                    header=said_ids(map(str, frame.columns)),
                ),
                name,
                1,
                slug="missing-column",
            )
        )
    else:
        mismatch = metric_mismatch(metric, pred.kind)
        if mismatch:
            problems.append(Problem(mismatch, name, 1, slug="missing-column"))
    for col, attr in (
        (block, "block"),
        (slice_col, "slice"),
        ("category", "category"),
        ("text", "text"),
    ):
        if col and col in cols:
            setattr(pred, attr, as_labels(frame[col]))
    if len(problems) > before:
        return None
    if pred.y is not None and pred.kind == "binary":  # 0 or 1: one byte a row (stats take bool)
        pred.y = pred.y == 1.0
    return pred


def metric_mismatch(metric: str, kind: str) -> str | None:
    """Why a built-in ``metric`` cannot be computed from a file of this ``kind``, or None."""
    from reportgen.project.config import TASK_METRICS

    fits = TASK_METRICS.get(kind)
    if fits is None or metric in fits:
        return None
    owner = [t for t, ms in TASK_METRICS.items() if metric in ms]
    return _(
        "{metric} is a metric of {tasks} tasks, and this file holds {kind} predictions; their "
        "built-in metrics: {metrics}",
        metric=metric,
        tasks=_(" or ").join(task_words(t) for t in owner),
        kind=task_words(kind),
        metrics=said_ids(fits),
    )


def task_words(task: str) -> str:
    """A task's name in a sentence: "binary", "multiclass", "regression" in English."""
    # TRANSLATORS: in a sentence "a metric of binary tasks", "this file holds binary predictions"
    words = {
        "binary": p_("task", "binary"),
        "multiclass": p_("task", "multiclass"),
        "regression": p_("task", "regression"),
    }
    return words.get(task, task)


def join_columns(
    pred: Predictions,
    split_frame,
    row_id_col: str,
    block: str | None,
    slice_col: str | None,
    split_name: str,
    problems: list[Problem],
    required: bool = True,
) -> None:
    """Fill block / slice (and category, text) from the split file by row_id where the predictions lack them.

    The block and slice columns are required only where they are used (``required``: the test
    part); elsewhere a missing column is no problem.
    """
    import pandas as pd

    wanted = [(block, "block"), (slice_col, "slice"), ("category", "category"), ("text", "text")]
    need = [
        (c, a) for c, a in wanted if c and getattr(pred, a) is None and c in split_frame.columns
    ]
    missing_cols = [
        c for c, a in wanted[:2] if c and getattr(pred, a) is None and c not in split_frame.columns
    ]
    for c in missing_cols if required else []:
        problems.append(
            Problem(
                _(
                    "column {column} is in neither the predictions nor the split file {what}",
                    column=said(c),
                    what=split_name,
                ),
                pred.path,
                1,
                slug="missing-column",
            )
        )
    if not need:
        return
    if pred.keys is not None and pred.part_keys is not None:  # ids checked against this split
        pos = pred.part_keys.split_pos[pred.keys]
        for c, attr in need:
            codes, distinct = pred.part_keys.labels(split_frame, c)
            if attr in ("block", "slice"):
                pred.set_coded(attr, codes[pos], distinct)
            else:
                setattr(pred, attr, distinct[codes[pos]])
        return
    index = pd.Index(split_frame[row_id_col].astype(str).str.strip())
    if not index.is_unique:
        return  # reported by the split checks
    pos = index.get_indexer(pd.Index(pred.row_id))
    absent = np.flatnonzero(pos < 0)
    if len(absent):
        problems.append(
            Problem(
                # TRANSLATORS: {what} is "for part 'test'"
                _(
                    "{count} row_id(s) not in the split file {what}, e.g. {value}; cannot join "
                    "{columns}",
                    count=len(absent),
                    what=split_name,
                    value=said(pred.row_id[absent[0]]),
                    columns=said_ids(c for c, _a in need),
                ),
                pred.path,
                pred.line(int(absent[0])),
                pred.extra.get("row_id_column"),
                slug="unknown-row-id",
            )
        )
        return
    for c, attr in need:
        setattr(pred, attr, split_frame[c].astype(str).to_numpy(dtype=object)[pos])


MISSING_LABEL = "(missing)"


def empty_labels(pred: Predictions, columns: dict[str, str], problems: list[Problem]) -> None:
    """Rows with an empty block or slice value: relabelled "(missing)", one warning with their count."""
    import pandas as pd

    for attr, col in columns.items():
        # each distinct label is stripped and tested once
        coded = pred.extra.get("label_codes", {}).get(attr)
        if coded is None:
            vals = getattr(pred, attr)
            if vals is None:
                continue
            coded = pd.factorize(np.asarray(vals, dtype=object), use_na_sentinel=False)
        codes, uniques = coded
        distinct = np.array([str(v).strip() for v in uniques], dtype=object)
        empty_u = (distinct == "") | np.isin(distinct, ["nan", "None", "NaN", "<NA>"])
        distinct[empty_u] = MISSING_LABEL
        if empty_u.any():
            empty = empty_u[codes]
            problems.append(
                Problem(
                    # TRANSLATORS: {n} counts the file's rows, {empty} those with no label
                    n_(
                        "{empty} of {n} rows have an empty {column} value; they are grouped as "
                        "{label}",
                        "{empty} of {n} rows have an empty {column} value; they are grouped as "
                        "{label}",
                        len(codes),
                        empty=count(int(empty.sum())),
                        column=said(col),
                        label=said(MISSING_LABEL, None),
                    ),
                    pred.path,
                    pred.line(int(np.flatnonzero(empty)[0])),
                    slug="empty-label",
                    severity="warning",
                )
            )
        pred.set_coded(attr, codes, distinct)
