"""Why a logged value differs from the one recomputed from its predictions: rounding, but only
as far as rounding can move the metric; beyond that another metric or other rows.

Rounding of the logged value moves it by at most half a unit of its last written decimal.
Rounding of the scores moves the metric by at most what every score moving within half a unit
of its last decimal can do, row by row, for the metric's own formula: each per-row value is
monotone in its score on [0, 1] (log loss, Brier) or a step at the threshold (accuracy, error
rate, cost), so re-scoring every row at both ends of its rounding interval gives the exact
largest change up and down.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

import numpy as np

from reportgen.model.data import Diagnosis
from reportgen.model.enums import DiagnosisKind
from reportgen.project import Project
from reportgen.project.predictions import Predictions
from reportgen.stats.metric_registry import METRICS, task_metrics
from reportgen.stats.metrics import per_row_metric
from reportgen.words import MINUS, count_noun, full, given, metric, sig
from reportgen.words.i18n import _

#: the most decimals a rounded scores file is recognised by
MAX_SCORE_DECIMALS = 6


#: a plain decimal as a run log may hold it (no exponent)
_PLAIN = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)")


#: a logged value with more significant digits than this prints as ``words.full`` does
FULL_FIGURES = 7


def written(value: float, text: str | None = None) -> str:
    """A logged value as written in the run log, its own digits, never padded ("0.290" stays
    0.290, not 0.2900000), with a typographic minus; one written with more than 7 significant
    digits is rounded to 7 like the recomputed value beside it; one written with an exponent,
    or not at hand, is its shortest decimal up to 7 significant digits."""
    if text and _PLAIN.fullmatch(text) and float(text) == value:
        if len(Decimal(text).as_tuple().digits) > FULL_FIGURES:
            return full(value)
        t = text.lstrip("+")
        return MINUS + t[1:] if t.startswith("-") else t
    shortest = given(value)
    return (
        full(value)
        if sum(ch.isdigit() for ch in shortest.lstrip("0.−,")) > FULL_FIGURES
        else shortest
    )


def written_decimals(x: float, text: str | None = None) -> int:
    """The decimals of a logged value as written: of ``text`` when given ("0.290": 3, "4.1e-3":
    4), else of its shortest form."""
    try:
        d = Decimal(text) if text else Decimal(repr(float(x))).normalize()
    except InvalidOperation:
        d = Decimal(repr(float(x))).normalize()
    exp = d.as_tuple().exponent
    return max(0, -int(exp)) if isinstance(exp, int) else 0


def score_decimals(p: np.ndarray) -> int | None:
    """How many decimals every score was written with, when 6 or fewer (a rounded file)."""
    p = np.asarray(p, dtype=float)
    if p.size == 0:
        return None
    for k in range(0, MAX_SCORE_DECIMALS + 1):
        scaled = p * 10.0**k
        if np.all(np.abs(scaled - np.round(scaled)) <= 1e-6):
            return k
    return None


def _per_row(name: str, project: Project, y: Any, p: Any, threshold: float) -> np.ndarray:
    cfg = project.config
    return per_row_metric(
        name, y=y, p=p, threshold=threshold, c_fp=cfg.false_positive, c_fn=cfg.false_negative
    )


def score_rounding_bounds(
    project: Project, pred: Predictions, threshold: float
) -> tuple[int, float, float] | None:
    """(decimals, largest rise, largest fall) of the metric when every score of ``pred`` moves
    within half a unit of its last decimal; None when the scores are not rounded."""
    cfg = project.config
    if not cfg.builtin_metric:
        if pred.metric is None:
            return None
        k = score_decimals(pred.metric)
        return None if k is None else (k, 0.5 * 10.0**-k, 0.5 * 10.0**-k)
    if pred.kind != "binary" or pred.p is None:
        return None
    k = score_decimals(pred.p)
    if k is None:
        return None
    h = 0.5 * 10.0**-k
    p = np.asarray(pred.p, dtype=float)
    now = _per_row(cfg.metric, project, pred.y, p, threshold)
    ends = np.stack(
        [
            _per_row(cfg.metric, project, pred.y, np.clip(p + d, 0.0, 1.0), threshold)
            for d in (-h, h)
        ]
    )
    rise = float(np.mean(ends.max(axis=0) - now))
    fall = float(np.mean(now - ends.min(axis=0)))
    return k, max(rise, 0.0), max(fall, 0.0)


def _other_metrics(project: Project, pred: Predictions, threshold: float) -> dict[str, float]:
    """The other built-in metrics of the same predictions (binary scores only), by name."""
    cfg = project.config
    if pred.kind != "binary" or pred.p is None:
        return {}
    unpriced = [n for n in task_metrics("binary") if not METRICS[n].costs]
    out = {}
    for name in unpriced:
        if name != cfg.metric:
            out[name] = float(np.mean(_per_row(name, project, pred.y, pred.p, threshold)))
    at_threshold = [n for n in unpriced if METRICS[n].threshold]
    if cfg.metric in at_threshold and threshold != 0.5:
        for name in at_threshold:
            out[f"{name} at threshold 0.5"] = float(
                np.mean(_per_row(name, project, pred.y, pred.p, 0.5))
            )
    return out


def diagnose(
    project: Project,
    logged: float,
    recomputed: float,
    pred: Predictions,
    threshold: float,
    text: str | None = None,
) -> Diagnosis:
    """The likely cause of ``logged`` (written ``text`` in the run log) differing from
    ``recomputed`` (from ``pred``)."""
    cfg = project.config
    name = cfg.metric.replace("_", " ")
    shown = written(logged, text)
    diff = logged - recomputed
    tol = 1e-6 * max(abs(logged), abs(recomputed), 1e-12)
    k_log = written_decimals(logged, text)
    h_log = 0.5 * 10.0**-k_log
    if abs(diff) <= h_log + tol:
        return Diagnosis(
            DiagnosisKind.LOGGED_ROUNDED,
            h_log,
            _(
                "the logged value {shown} was rounded to {decimals}, which moves it by at most "
                "{bound}: log the full-precision value (e.g. repr of the float)",
                shown=shown,
                decimals=count_noun(k_log, "decimal"),
                bound=given(h_log),
            ),
        )
    scores = score_rounding_bounds(project, pred, threshold)
    if scores is not None:
        k_p, rise, fall = scores
        bound = rise if diff > 0 else fall
        if abs(diff) <= bound + h_log + tol:
            return Diagnosis(
                DiagnosisKind.SCORES_ROUNDED,
                bound + h_log,
                _(
                    "the scores in {path} were rounded to {decimals}, which can move the {metric} "
                    "by up to {bound} here (difference {diff}): write predictions at full precision",
                    path=pred.path,
                    decimals=count_noun(k_p, "decimal"),
                    metric=name,
                    bound=sig(bound),
                    diff=sig(abs(diff)),
                ),
            )
    bound = h_log + (max(scores[1], scores[2]) if scores else 0.0)
    figures = {
        "diff": sig(abs(diff)),
        "bound": sig(bound),
        "decimals": count_noun(k_log, "decimal"),
    }
    beyond = (
        _(
            "the difference {diff} is beyond what rounding explains here (at most {bound}: the "
            "logged value to {decimals}, the scores to {score_decimals})",
            score_decimals=count_noun(scores[0], "decimal"),
            **figures,
        )
        if scores
        else _(
            "the difference {diff} is beyond what rounding explains here (at most {bound}: the "
            "logged value to {decimals})",
            **figures,
        )
    )
    match_tol = h_log + tol
    complement = getattr(METRICS.get(cfg.metric), "complement", None)
    if complement and abs(logged - (1.0 - recomputed)) <= match_tol:
        other = complement.replace("_", " ")
        return Diagnosis(
            DiagnosisKind.COMPLEMENT,
            bound,
            _(
                "{beyond}; the logged value {shown} is 1 − the recomputed {metric} ({value}): it "
                "looks like the {other} logged as {metric}",
                beyond=beyond,
                shown=shown,
                metric=name,
                value=metric(1.0 - recomputed),
                other=other,
            ),
        )
    for other, v in _other_metrics(project, pred, threshold).items():
        if abs(logged - v) <= match_tol:
            return Diagnosis(
                DiagnosisKind.OTHER_METRIC,
                bound,
                _(
                    "{beyond}; the logged value {shown} matches the {other} of the same "
                    "predictions ({value}): it looks like a different metric logged as {metric}",
                    beyond=beyond,
                    shown=shown,
                    other=other.replace("_", " "),
                    value=metric(v),
                    metric=name,
                ),
            )
    return Diagnosis(
        DiagnosisKind.BEYOND_ROUNDING,
        bound,
        _(
            "{beyond}: the logged value looks like a different metric definition (e.g. another "
            "log base, clipping, threshold or averaging) or a different set of rows than the "
            "predictions file holds",
            beyond=beyond,
        ),
    )
