"""The built-in metrics, one ``Metric`` each: the one place a metric's facts are stated.

As scikit-learn's scorers keep a metric's function, sign and needed input in one object,
each entry holds its per-row functions (one per predictions kind it is computed from), its
direction, whether it needs a decision threshold or the error costs, the power of the
target's unit its values are in, what users call it and the words a sentence names it by.
Every other table of built-in metrics derives from ``METRICS``: the ``HIGHER_IS_BETTER`` of
``stats.metrics``, ``stats.multiclass`` and ``stats.regression``, ``project.config``'s
``TASK_METRICS``, the Recorder's threshold and ``correct`` metrics, ``names.metric_aliases()``.

The per-row functions take validated arrays (the task modules' ``per_row_metric`` validate):

- ``"binary"``: ``(y, p, threshold, c_fp, c_fn)``, ``y`` bool, ``p`` class-1 probabilities;
- ``"multiclass"``: ``(y, proba)``, ``y`` class indices into the columns of ``proba`` (N, K);
- ``"regression"``: ``(y, y_pred)``, both float64;
- ``"correct"``: ``(correct,)``, bool, one question scored right or wrong per row.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from reportgen.stats._util import EPS, BoolArray, FloatArray, IntArray

#: the tasks of a model-vs-baseline claim (``[claim] task``), in the order config lists them
TASKS = ("binary", "multiclass", "regression")
#: the predictions kind of a question set scored right or wrong (not a task of its own)
CORRECT = "correct"


@dataclass(frozen=True)
class Metric:
    """One built-in metric: its per-row functions, direction, needed input and words."""

    name: str
    higher_is_better: bool
    #: predictions kind ("binary", "multiclass", "regression", "correct") -> per-row function
    per_row: Mapping[str, Callable[..., FloatArray]]
    #: the noun phrase a sentence names its value by ("mean squared error")
    words: str
    #: whether the per-row value depends on the decision threshold
    threshold: bool = False
    #: whether the per-row value is priced by the error costs ([costs])
    costs: bool = False
    #: the power of the target's unit its values are in: 2 for a squared error ("mmHg²")
    unit_power: int = 1
    #: what users also call it, as they write it (compared folded: no case or separators)
    aliases: tuple[str, ...] = ()
    #: the built-in metric that is 1 minus this one, row by row
    complement: str | None = None

    @property
    def tasks(self) -> tuple[str, ...]:
        """The tasks it is built in for, in the order of ``TASKS``."""
        return tuple(t for t in TASKS if t in self.per_row)

    @property
    def from_correct(self) -> bool:
        """Whether it can be computed from a ``correct`` column alone."""
        return CORRECT in self.per_row


def _binary_log_loss(y: BoolArray, p: FloatArray, *_: float) -> FloatArray:
    pc = np.clip(p, EPS, 1.0 - EPS)
    return -np.where(y, np.log(pc), np.log(1.0 - pc))


def _binary_brier(y: BoolArray, p: FloatArray, *_: float) -> FloatArray:
    return (p - y.astype(np.float64)) ** 2


def _binary_accuracy(y: BoolArray, p: FloatArray, threshold: float, *_: float) -> FloatArray:
    return np.equal(p >= threshold, y).astype(np.float64)


def _binary_error_rate(y: BoolArray, p: FloatArray, threshold: float, *_: float) -> FloatArray:
    return np.not_equal(p >= threshold, y).astype(np.float64)


def _binary_cost(
    y: BoolArray, p: FloatArray, threshold: float, c_fp: float, c_fn: float
) -> FloatArray:
    pred = p >= threshold
    return np.where(pred & ~y, float(c_fp), 0.0) + np.where(~pred & y, float(c_fn), 0.0)


def _multiclass_log_loss(y: IntArray, proba: FloatArray) -> FloatArray:
    return -np.log(np.clip(proba[np.arange(y.size), y], EPS, 1.0 - EPS))


def _multiclass_brier(y: IntArray, proba: FloatArray) -> FloatArray:
    onehot = np.zeros_like(proba)
    onehot[np.arange(y.size), y] = 1.0
    per: FloatArray = ((proba - onehot) ** 2).sum(axis=1)
    return per * 0.5 if proba.shape[1] == 2 else per


def _multiclass_accuracy(y: IntArray, proba: FloatArray) -> FloatArray:
    right: FloatArray = np.equal(proba.argmax(axis=1), y).astype(np.float64)
    return right


def _multiclass_error_rate(y: IntArray, proba: FloatArray) -> FloatArray:
    wrong: FloatArray = 1.0 - _multiclass_accuracy(y, proba)
    return wrong


def _squared_error(y: FloatArray, y_pred: FloatArray) -> FloatArray:
    r = y - y_pred
    return r * r


def _absolute_error(y: FloatArray, y_pred: FloatArray) -> FloatArray:
    return np.abs(y - y_pred)


def _right(correct: BoolArray) -> FloatArray:
    return correct.astype(np.float64)


def _wrong(correct: BoolArray) -> FloatArray:
    return 1.0 - correct.astype(np.float64)


METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric(
            "log_loss",
            False,
            {"binary": _binary_log_loss, "multiclass": _multiclass_log_loss},
            "log loss",
            aliases=("nll", "cross_entropy"),
        ),
        Metric("brier", False, {"binary": _binary_brier, "multiclass": _multiclass_brier}, "brier"),
        Metric(
            "accuracy",
            True,
            {"binary": _binary_accuracy, "multiclass": _multiclass_accuracy, CORRECT: _right},
            "accuracy",
            threshold=True,
            aliases=("acc",),
            complement="error_rate",
        ),
        Metric(
            "error_rate",
            False,
            {"binary": _binary_error_rate, "multiclass": _multiclass_error_rate, CORRECT: _wrong},
            "error rate",
            threshold=True,
            aliases=("error",),
            complement="accuracy",
        ),
        Metric("cost", False, {"binary": _binary_cost}, "cost", threshold=True, costs=True),
        Metric(
            "squared_error",
            False,
            {"regression": _squared_error},
            "mean squared error",
            unit_power=2,
            aliases=("mse", "mean_squared_error", "l2"),
        ),
        Metric(
            "absolute_error",
            False,
            {"regression": _absolute_error},
            "mean absolute error",
            aliases=("mae", "mean_absolute_error", "l1"),
        ),
    )
}


def task_metrics(task: str) -> tuple[str, ...]:
    """The names of the built-in metrics of a task (or of the ``correct`` kind), in order."""
    return tuple(n for n, m in METRICS.items() if task in m.per_row)


def higher_is_better(kind: str) -> dict[str, bool]:
    """name -> direction of the built-in metrics computed from predictions of ``kind``."""
    return {n: m.higher_is_better for n, m in METRICS.items() if kind in m.per_row}


def unit_power(name: str) -> int:
    """The power of the target's unit a metric's values are in: 2 for squared_error, else 1
    (a metric of the user's own is taken in the unit as given)."""
    m = METRICS.get(name)
    return 1 if m is None else m.unit_power
