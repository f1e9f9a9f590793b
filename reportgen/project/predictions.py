"""Per-row predictions files (CSV or Parquet): checked values, block and slice joined by row_id."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from reportgen.errors import Problem, quote
from reportgen.project.tables import column_of, line_of, numeric_column


@dataclass
class Predictions:
    """One predictions file as arrays; ``kind`` is "binary" (y, p), "correct" or "metric"."""

    path: str
    part: str
    row_id: np.ndarray  # str objects
    kind: str
    y: np.ndarray | None = None
    p: np.ndarray | None = None
    correct: np.ndarray | None = None
    metric: np.ndarray | None = None
    block: np.ndarray | None = None  # str objects
    slice: np.ndarray | None = None
    category: np.ndarray | None = None
    text: np.ndarray | None = None
    extra: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.row_id)

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
) -> Predictions | None:
    """Check a predictions frame (strings for CSV) and turn it into arrays."""
    before = len(problems)
    if "row_id" not in frame.columns:
        problems.append(
            Problem(
                "no row_id column (required: the example's id in the split files); header: "
                + ", ".join(map(str, frame.columns)),
                name,
                1,
                slug="missing-column",
            )
        )
        return None
    if len(frame) == 0:
        problems.append(Problem("no rows", name, 2, slug="empty"))
        return None
    raw_ids = frame["row_id"]  # a Parquet column may hold nulls: they count as empty
    ids = raw_ids.where(raw_ids.notna(), "").astype(str).str.strip().to_numpy(dtype=object)
    empty = np.flatnonzero(ids == "")
    for i in empty[:3]:
        problems.append(
            Problem(
                "row_id is empty",
                name,
                line_of(frame, int(i)),
                column_of(frame, "row_id"),
                slug="empty-cell",
            )
        )
    order = np.argsort(ids, kind="stable")
    s = ids[order]
    dup = np.flatnonzero(s[1:] == s[:-1])
    for j in dup[:3]:
        a, b = sorted((int(order[j]), int(order[j + 1])))
        problems.append(
            Problem(
                f"duplicate row_id {quote(s[j])} (also at line {line_of(frame, a)})",
                name,
                line_of(frame, b),
                column_of(frame, "row_id"),
                slug="duplicate-row-id",
            )
        )
    cols = set(frame.columns)
    pred = Predictions(name, part, ids, kind="metric")
    pred.extra.update(
        format=frame.attrs.get("format", "csv"),
        lines=frame.attrs.get("lines"),
        row_id_column=column_of(frame, "row_id"),
    )
    if {"y", "p"} <= cols:
        pred.kind = "binary"
        pred.y = numeric_column(frame, "y", name, problems, allowed=(0, 1))
        pred.p = numeric_column(frame, "p", name, problems, low=0.0, high=1.0)
    elif "correct" in cols:
        pred.kind = "correct"
        pred.correct = numeric_column(frame, "correct", name, problems, allowed=(0, 1))
    if "correct" in cols and pred.correct is None:
        pred.correct = numeric_column(frame, "correct", name, problems, allowed=(0, 1))
    if not builtin_metric:
        if metric not in cols:
            problems.append(
                Problem(
                    f"no column {quote(metric)} (the claim's per-row metric)",
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
                f"needs y and p (binary classification) or correct (question sets) to "
                f"compute {metric}; header: {', '.join(map(str, frame.columns))}",
                name,
                1,
                slug="missing-column",
            )
        )
    for col, attr in (
        (block, "block"),
        (slice_col, "slice"),
        ("category", "category"),
        ("text", "text"),
    ):
        if col and col in cols:
            setattr(pred, attr, frame[col].astype(str).to_numpy(dtype=object))
    if len(problems) > before:
        return None
    return pred


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
                f"column {quote(c)} is in neither the predictions nor the split file {split_name}",
                pred.path,
                1,
                slug="missing-column",
            )
        )
    if not need:
        return
    index = pd.Index(split_frame[row_id_col].astype(str).str.strip())
    if not index.is_unique:
        return  # reported by the split checks
    pos = index.get_indexer(pd.Index(pred.row_id))
    absent = np.flatnonzero(pos < 0)
    if len(absent):
        problems.append(
            Problem(
                f"{len(absent)} row_id(s) not in the split file {split_name}, e.g. "
                f"{quote(pred.row_id[absent[0]])}; cannot join {', '.join(c for c, _ in need)}",
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
    for attr, col in columns.items():
        vals = getattr(pred, attr)
        if vals is None:
            continue
        stripped = np.array([str(v).strip() for v in vals], dtype=object)
        empty = (stripped == "") | np.isin(stripped, ["nan", "None", "NaN", "<NA>"])
        if empty.any():
            stripped[empty] = MISSING_LABEL
            problems.append(
                Problem(
                    f"{int(empty.sum())} of {len(vals)} rows have an empty {quote(col)} value; they are "
                    f"grouped as {MISSING_LABEL!r}",
                    pred.path,
                    pred.line(int(np.flatnonzero(empty)[0])),
                    slug="empty-label",
                    severity="warning",
                )
            )
        setattr(pred, attr, stripped)
