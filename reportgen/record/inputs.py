"""The typed inputs of one `Recorder.log` call: the run (`Run`), the fold it held out
(`HeldOutFold`) and its per-row predictions, one class per task (`BinaryRows`,
`MultiClassRows`, `RegressionRows`, `QuestionRows`, `MetricValues`).

Each is built by its ``of`` classmethod, which checks the keyword arguments of ``log`` and
raises ValueError naming the one that is wrong; `task_rows` is the one place that reads
which of them a call gives.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from reportgen.names import did_you_mean
from reportgen.names import fold as _fold
from reportgen.project.folds import FOLD_SPLIT
from reportgen.project.manifest import canonical_part
from reportgen.project.runs import MAX_CV_NUMBER
from reportgen.record.io import finite_vector, iso_time, vector, zero_one
from reportgen.record.tasks import (
    built_in,
    checked_classes,
    checked_proba,
    class_labels,
    finite,
)
from reportgen.stats import multiclass, regression
from reportgen.stats.metric_registry import CORRECT, METRICS, task_metrics
from reportgen.stats.metrics import HIGHER_IS_BETTER, per_row_metric

THRESHOLD_METRICS = tuple(n for n, m in METRICS.items() if m.threshold)
CORRECT_METRICS = task_metrics(CORRECT)

Columns = dict[str, np.ndarray]


def _text(value: Any, name: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{name}={value!r} must be a string")
    return value


#: a part name the Recorder may put in a file name: no path separator, no "..", not hidden
_PART_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*")


@dataclass(frozen=True)
class Run:
    """The runs.csv cells one ``log`` call shares across its metrics: ``split`` is the canonical
    part name, ``started_at`` an ISO 8601 string (None: the run's first time, or now)."""

    model: str
    seed: int
    split: str
    metrics: tuple[str, ...]
    status: str = "ok"
    run_id: str | None = None
    config: str | None = None
    features: str | None = None
    split_id: str | None = None
    fit_seconds: float | None = None
    started_at: str | None = None
    notes: str | None = None
    env: str | None = None

    @classmethod
    def of(
        cls,
        *,
        model: Any,
        seed: Any,
        split: Any,
        metric: Any,
        status: Any = "ok",
        run_id: Any = None,
        config: Any = None,
        features: Any = None,
        split_id: Any = None,
        fit_seconds: Any = None,
        started_at: Any = None,
        notes: Any = None,
        env: Any = None,
    ) -> Run:
        """The run of one ``log`` call, or ValueError naming the argument."""
        if isinstance(metric, str):
            metrics = [metric]
        elif isinstance(metric, Iterable) and not isinstance(metric, bytes | Mapping):
            metrics = list(metric)
        else:
            metrics = []
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
            raise ValueError(
                f"status={status!r} is not valid. It should be one of ['ok', 'failed']"
            )
        if not isinstance(split, str) or not split.strip():
            raise ValueError(f"split={split!r} must be a split name such as 'validation'")
        if not _PART_NAME.fullmatch(split.strip()):
            raise ValueError(
                f"split={split!r} is not a part name: it names the predictions file, so use "
                "letters, digits, '_' and '-' (such as 'validation' or 'test-2024')"
            )
        if started_at is not None and not isinstance(started_at, str | datetime):
            raise ValueError(f"started_at={started_at!r} is not an ISO 8601 date-time")
        return cls(
            model=model,
            seed=int(seed),
            split=canonical_part(split.strip()),
            metrics=tuple(metrics),
            status=status,
            run_id=_text(run_id, "run_id"),
            config=_text(config, "config"),
            features=features,
            split_id=split_id,
            fit_seconds=_seconds(fit_seconds),
            started_at=iso_time(started_at),
            notes=notes,
            env=env,
        )

    def id_for(self, held_out: HeldOutFold | None) -> str:
        """``run_id``, or model-config-s<seed> (and -r<repeat>-f<fold> for a fold row)."""
        fold_id = held_out.id if held_out is not None else None
        parts = (self.model, self.config, f"s{self.seed}", fold_id)
        return self.run_id or "-".join(x for x in parts if x)


def _seconds(fit_seconds: Any) -> float | None:
    """``fit_seconds`` as a float, or ValueError unless it is finite and not negative."""
    if fit_seconds is None:
        return None
    try:
        seconds = float(fit_seconds)
    except (TypeError, ValueError):
        raise ValueError(f"fit_seconds={fit_seconds!r} must be a finite number >= 0") from None
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"fit_seconds={seconds!r} must be a finite number >= 0")
    return seconds


@dataclass(frozen=True)
class HeldOutFold:
    """The fold a ``split="fold"`` row held out: ``repeat`` and ``fold`` from 1, and
    ``train_rows`` when the model trained on fewer rows than the other folds hold."""

    repeat: int
    fold: int
    train_rows: int | None = None

    @classmethod
    def of(cls, part: str, repeat: Any, fold: Any, train_rows: Any) -> HeldOutFold | None:
        """The fold of a row on ``part`` (None when it is not ``"fold"``), or ValueError."""
        if part != FOLD_SPLIT:
            if repeat is not None or fold is not None:
                raise ValueError(
                    f"repeat= and fold= belong to split={FOLD_SPLIT!r} rows (a held-out fold), "
                    f"not to split={part!r}"
                )
            if train_rows is not None:
                raise ValueError(f"train_rows= belongs to split={FOLD_SPLIT!r} rows")
            return None
        if fold is None:
            raise ValueError(f"split={FOLD_SPLIT!r} needs fold= (which fold, from 1, was held out)")
        given = {"repeat": 1 if repeat is None else repeat, "fold": fold, "train_rows": train_rows}
        for name, v in given.items():
            if v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 1:
                raise ValueError(f"{name}={v!r} must be a whole number from 1")
            if v > MAX_CV_NUMBER:
                raise ValueError(
                    f"{name}={v!r} is over the limit of {MAX_CV_NUMBER:,} (18 digits) that "
                    "runs.csv accepts"
                )
        rows = None if train_rows is None else int(train_rows)
        return cls(repeat=int(given["repeat"]), fold=int(fold), train_rows=rows)

    @property
    def id(self) -> str:
        return f"r{self.repeat}-f{self.fold}"


def fold_cells(held_out: HeldOutFold | None) -> dict[str, int | None]:
    """The runs.csv cells repeat, fold and train_rows of a row (all None off a fold)."""
    if held_out is None:
        return {"repeat": None, "fold": None, "train_rows": None}
    return {"repeat": held_out.repeat, "fold": held_out.fold, "train_rows": held_out.train_rows}


@dataclass(frozen=True)
class BinaryRows:
    """A binary classifier's rows: the 0/1 label ``y`` and the class-1 probability ``p``."""

    y: np.ndarray
    p: np.ndarray

    @classmethod
    def of(cls, y: Any, p: Any, n: int) -> BinaryRows:
        p_checked = finite_vector(p, "p", n, 0.0, 1.0)  # first: a 2-D p says "multi-class" best
        return cls(y=zero_one(y, "y", n), p=p_checked)

    def columns(self) -> Columns:
        return {"y": self.y, "p": self.p}

    def per_row(self, metrics: Sequence[str]) -> Columns:
        """The per-row values of the metrics that need no threshold (the rest: the Recorder)."""
        out = {}
        for m in metrics:
            if m not in HIGHER_IS_BETTER:
                raise ValueError(
                    f"metric={m!r} is not a built-in metric {sorted(HIGHER_IS_BETTER)}"
                    f"{did_you_mean(m, HIGHER_IS_BETTER)} (for a metric of your own, log a "
                    "per-row column with values=)"
                )
            if m not in THRESHOLD_METRICS:
                out[m] = per_row_metric(m, y=self.y, p=self.p)
        return out


@dataclass(frozen=True)
class MultiClassRows:
    """A multi-class classifier's rows: ``p`` is predict_proba's (N, K) output, ``classes``
    names its columns (as the p_<class> columns do), ``index`` is each row's class in it."""

    p: np.ndarray
    classes: tuple[str, ...]
    index: np.ndarray

    @classmethod
    def of(cls, y: Any, p: Any, classes: Any, n: int) -> MultiClassRows:
        pa = checked_proba(p, n)
        names = checked_classes(classes, pa.shape[1])
        return cls(p=pa, classes=tuple(names), index=class_labels(y, names, n, classes is None))

    def columns(self) -> Columns:
        names = self.classes
        ints = all(v.lstrip("-").isdigit() for v in names)
        cols = {
            "y": np.array([int(names[i]) for i in self.index], dtype=np.int64)
            if ints
            else np.array([names[i] for i in self.index], dtype=object)
        }
        for j, c in enumerate(names):
            cols[f"p_{c}"] = self.p[:, j]
        return cols

    def per_row(self, metrics: Sequence[str]) -> Columns:
        out = {}
        for m in metrics:
            built_in(m, multiclass.HIGHER_IS_BETTER, "multi-class")
            out[m] = multiclass.per_row_metric(m, self.index, self.p)
        return out


@dataclass(frozen=True)
class RegressionRows:
    """A regression model's rows: the target ``y`` and the prediction ``y_pred``."""

    y: np.ndarray
    y_pred: np.ndarray

    @classmethod
    def of(cls, y: Any, y_pred: Any, n: int) -> RegressionRows:
        cols = {}
        for name, v in (("y", y), ("y_pred", y_pred)):
            a = np.asarray(v)
            if a.ndim == 2 and a.shape[1] == 1:
                a = a[:, 0]
            if a.ndim != 1 or len(a) != n:
                raise ValueError(
                    f"{name} must be 1-D with {n} values (one output), got shape {a.shape}"
                )
            cols[name] = finite(a, name)
        return cls(y=cols["y"], y_pred=cols["y_pred"])

    def columns(self) -> Columns:
        return {"y": self.y, "y_pred": self.y_pred}

    def per_row(self, metrics: Sequence[str]) -> Columns:
        out = {}
        for m in metrics:
            built_in(m, regression.HIGHER_IS_BETTER, "regression")
            out[m] = regression.per_row_metric(m, self.y, self.y_pred)
        return out


@dataclass(frozen=True)
class QuestionRows:
    """A question set scored right or wrong (``correct``, 0/1), with each question's optional
    ``category`` and ``text``."""

    correct: np.ndarray
    category: np.ndarray | None = None
    text: np.ndarray | None = None

    @classmethod
    def of(cls, correct: Any, category: Any, text: Any, n: int) -> QuestionRows:
        labels = [
            None if v is None else vector(v, name, n).astype(str).astype(object)
            for name, v in (("category", category), ("text", text))
        ]
        return cls(correct=zero_one(correct, "correct", n), category=labels[0], text=labels[1])

    def columns(self) -> Columns:
        cols = {"correct": self.correct}
        for name, v in (("category", self.category), ("text", self.text)):
            if v is not None:
                cols[name] = v
        return cols

    def per_row(self, metrics: Sequence[str]) -> Columns:
        out = {}
        for m in metrics:
            if m not in CORRECT_METRICS:
                raise ValueError(
                    f"metric={m!r} cannot be computed from correct=; it should be one of "
                    f"{list(CORRECT_METRICS)}{did_you_mean(m, CORRECT_METRICS)}"
                )
            out[m] = per_row_metric(m, correct=self.correct)
        return out


@dataclass(frozen=True)
class MetricValues:
    """Per-row values of metrics of the user's own (``values=``), one column per metric."""

    values: dict[str, np.ndarray]

    @classmethod
    def of(cls, metrics: Sequence[str], values: Any, n: int) -> MetricValues:
        vals = values if isinstance(values, dict) else {metrics[0]: values}
        if not isinstance(values, dict) and len(metrics) != 1:
            raise ValueError("values= with several metrics must be a dict {metric: values}")
        if set(vals) != set(metrics):
            raise ValueError(
                f"values= has metrics {sorted(vals)} but metric= names {list(metrics)}"
            )
        out = {}
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
                    stacklevel=5,  # of, task_rows, predictions_frame, Recorder.log, the caller
                )
            out[m] = finite_vector(v, f"values[{m!r}]", n)
        return cls(values=out)

    def columns(self) -> Columns:
        return dict(self.values)

    def per_row(self, metrics: Sequence[str]) -> Columns:
        return dict(self.values)


TaskRows = BinaryRows | MultiClassRows | RegressionRows | QuestionRows | MetricValues


def task_rows(
    metrics: Sequence[str],
    n: int,
    given: dict[str, Any],
    multiclass_p: Callable[[Any], bool],
) -> TaskRows:
    """The typed rows of a call that gives y and p (binary or multi-class), y and y_pred,
    correct, or values, for ``n`` row ids; ValueError naming an argument given wrongly.

    ``given`` holds the arrays of the ``log`` call (y, p, y_pred, classes, correct, category,
    text, values); ``multiclass_p(p)`` says whether a 2-D ``p`` is multi-class.
    """
    y, p, y_pred, classes = given["y"], given["p"], given["y_pred"], given["classes"]
    kind = _kind(given)
    if kind != "correct":
        for name in ("category", "text"):
            if given[name] is not None:
                raise ValueError(
                    f"{name}= belongs to a question set (correct=), not to a run logged with "
                    f"{_KIND_NAMES[kind] if y_pred is None else 'y and y_pred'}"
                )
    if kind == "correct":
        _no_classes(classes, "correct=")
        return QuestionRows.of(given["correct"], given["category"], given["text"], n)
    if kind == "values":
        _no_classes(classes, "values=")
        return MetricValues.of(metrics, given["values"], n)
    if y is not None and y_pred is not None:
        _no_classes(classes, "y_pred= (regression)")
        return RegressionRows.of(y, y_pred, n)
    if y is not None and multiclass_p(p):
        return MultiClassRows.of(y, p, classes, n)
    if y is None or p is None:
        raise ValueError(
            "p (or y_pred, for regression) is required together with y"
            if p is None
            else "y is required together with p"
        )
    rows = BinaryRows.of(y, p, n)
    _no_classes(classes, "a binary p (one column: the class-1 probability)")
    return rows


_KIND_NAMES = {"y/p": "y and p", "values": "values="}


def _no_classes(classes: Any, what: str) -> None:
    if classes is not None:
        raise ValueError(
            f"classes= names the columns of a multi-class p (predict_proba's (N, K) output); "
            f"it does not go with {what}"
        )


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
