"""The four rung-1 checks of docs/format.md, one file each under artefacts/checks/: the loss
before training, a central-difference gradient check, memorising a tiny batch, shape
assertions. Every function returns the written record with ``passed`` and ``text`` exactly
as the report will judge it (`reportgen.project.checkfiles.evaluate`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from reportgen.project.checkfiles import evaluate
from reportgen.safe import atomic_write, safe_file_name


def _root(project: Any) -> Path:
    """The project folder of a path or a `Recorder` (a Path's own ``.root`` is "/", not this)."""
    from reportgen.record import Recorder

    return project.root if isinstance(project, Recorder) else Path(project)


def write_check(project: Any, record: dict, name: str | None = None) -> dict:
    """Write one check file (``artefacts/checks/<check>-<model>.json``); return it with its verdict."""
    if not isinstance(record.get("check"), str) or not isinstance(record.get("model"), str):
        raise ValueError('a check record needs string "check" and "model" fields')
    folder = _root(project) / "artefacts" / "checks"
    folder.mkdir(parents=True, exist_ok=True)
    name = (
        name
        or "-".join(safe_file_name(record[k], sep="-", empty=None) for k in ("check", "model"))
        + ".json"
    )
    atomic_write(folder / name, (json.dumps(record, indent=2) + "\n").encode("utf-8"))
    passed, text = evaluate(record["check"], record)
    return {**record, "passed": passed, "text": text, "path": f"artefacts/checks/{name}"}


def log_loss_of(proba: Any, y: Any) -> float:
    """Mean cross-entropy of class probabilities ``proba`` (N, K) or class-1 probabilities (N,)."""
    pr = np.asarray(proba, dtype=np.float64)
    ya = np.asarray(y).astype(np.int64)
    if pr.ndim == 1:
        pr = np.stack([1.0 - pr, pr], axis=1)
    if pr.ndim != 2 or pr.shape[0] != ya.shape[0]:
        raise ValueError(f"proba has shape {pr.shape} but y has {ya.shape[0]} rows")
    eps = float(np.finfo(np.float64).eps)
    picked = np.clip(pr[np.arange(len(ya)), ya], eps, 1.0)
    return float(-np.mean(np.log(picked)))


def class_prior_loss(y: Any) -> float:
    """The loss of always predicting the class frequencies of ``y`` (its entropy, in nats)."""
    _, counts = np.unique(np.asarray(y), return_counts=True)
    f = counts / counts.sum()
    return float(-(f * np.log(f)).sum())


def mse_of(pred: Any, y: Any) -> float:
    """Mean squared error of predictions ``pred`` (N,) against ``y`` (N,)."""
    pa = np.asarray(pred, dtype=np.float64).reshape(-1)
    ya = np.asarray(y, dtype=np.float64).reshape(-1)
    if pa.shape != ya.shape:
        raise ValueError(f"predictions have {pa.size} values but y has {ya.size}")
    return float(np.mean((ya - pa) ** 2))


def initial_loss(
    project: Any,
    model: str,
    value: float,
    classes: int | None = None,
    *,
    y: Any = None,
    reference: str = "uniform",
    task: str | None = None,
    rows: int | None = None,
    extra: dict | None = None,
) -> dict:
    """Record the loss before any update, judged against its reference (docs/methods.md).

    Classification: ln(classes), or with ``reference="prior"`` (needs ``y``) the entropy of
    the class frequencies, for a network whose output bias starts at them. Regression
    (``task="regression"``, needs ``y``): the initial MSE against the variance of ``y``, the
    loss of predicting the training mean.
    """
    if not (isinstance(value, int | float) and math.isfinite(value)):
        raise ValueError(f"value={value!r} must be a finite number")
    if task == "regression":
        if y is None:
            raise ValueError('task="regression" needs y (the targets the loss was measured on)')
        ya = np.asarray(y, dtype=np.float64)
        rec = {
            "check": "initial_loss",
            "model": model,
            "task": "regression",
            "value": float(value),
            "target_variance": float(np.var(ya)),
            "target_mean": float(np.mean(ya)),
        }
        if rows is not None:
            rec["rows"] = int(rows)
        return write_check(project, {**rec, **(extra or {})})
    if task not in (None, "binary", "multiclass"):
        raise ValueError(
            f"task={task!r} is not valid. It should be one of ['binary', 'multiclass', 'regression']"
        )
    if not isinstance(classes, int) or classes < 2:
        raise ValueError(f"classes={classes!r} must be a whole number >= 2")
    rec = {"check": "initial_loss", "model": model, "value": float(value), "classes": classes}
    rec["ln_classes"] = math.log(classes)
    if reference == "prior":
        if y is None:
            raise ValueError('reference="prior" needs y (the labels the loss was measured on)')
        rec["prior_loss"] = class_prior_loss(y)
    elif reference != "uniform":
        raise ValueError(f"reference={reference!r} should be one of ['uniform', 'prior']")
    if rows is not None:
        rec["rows"] = int(rows)
    return write_check(project, {**rec, **(extra or {})})


def mean_initial_loss(
    project: Any,
    model: str,
    values: list[float],
    classes: int | None = None,
    *,
    y: Any,
    extra: dict,
    **options: Any,
) -> dict:
    """`initial_loss` of the mean of ``values``, the losses of several initialisations on all
    of ``y``'s rows (``extra`` records them; ``options`` are initial_loss's task, reference)."""
    value = float(np.mean(values))
    return initial_loss(project, model, value, classes, y=y, rows=len(y), extra=extra, **options)


def gradient_check(
    project: Any,
    model: str,
    loss: Callable[[np.ndarray], float],
    grad: Callable[[np.ndarray], np.ndarray],
    params: Any,
    *,
    step: float = 1e-6,
    max_params: int | None = None,
    rng: np.random.Generator | None = None,
) -> dict:
    """Compare ``grad(params)`` with central differences of ``loss`` on a flat float64 vector.

    Relative error per parameter is ``|a - n| / max(|a| + |n|, 1e-8)``; the file records
    the largest. ``max_params`` checks a random subset (drawn with ``rng``) of a large vector.
    """
    theta = np.array(params, dtype=np.float64).reshape(-1)
    analytic = np.asarray(grad(theta.copy()), dtype=np.float64).reshape(-1)
    if analytic.shape != theta.shape:
        raise ValueError(f"grad(params) has {analytic.size} values but params has {theta.size}")
    idx = np.arange(theta.size)
    if max_params is not None and max_params < theta.size:
        if rng is None:
            raise ValueError("max_params needs rng (a numpy Generator) to choose the parameters")
        idx = np.sort(rng.choice(theta.size, size=max_params, replace=False))
    worst, worst_at = 0.0, None
    for j in idx:
        old = theta[j]
        theta[j] = old + step
        lp = float(loss(theta.copy()))
        theta[j] = old - step
        lm = float(loss(theta.copy()))
        theta[j] = old
        num = (lp - lm) / (2.0 * step)
        err = abs(num - analytic[j]) / max(abs(num) + abs(analytic[j]), 1e-8)
        if not math.isfinite(err):
            err = math.inf
        if err > worst or worst_at is None:
            worst, worst_at = err, int(j)
    rec = {
        "check": "gradient",
        "model": model,
        "max_relative_error": float(f"{worst:.3e}") if math.isfinite(worst) else 1e300,
        "worst_parameter": worst_at,
        "parameters_checked": int(idx.size),
        "parameters": int(theta.size),
        "step": step,
        "method": "central differences, |a-n| / max(|a|+|n|, 1e-8)",
    }
    return write_check(project, rec)


def library_gradient(project: Any, model: str, library: str) -> dict:
    """Cite the tested library that computes the gradient, instead of a measured error.

    Acceptable only when the library computes the whole gradient (no loss or layer of
    your own); a network you wrote yourself needs `gradient_check` (docs/format.md).
    """
    if not isinstance(library, str) or not library.strip():
        raise ValueError(f"library={library!r} must name the library and its version")
    return write_check(project, {"check": "gradient", "model": model, "library": library.strip()})


def overfit(
    project: Any,
    model: str,
    fit: Callable[[np.ndarray, np.ndarray], Callable[[np.ndarray], np.ndarray]],
    X: Any,
    y: Any,
    *,
    rows: int = 32,
    rng: np.random.Generator,
    task: str | None = None,
) -> dict:
    """Fit on ``rows`` random rows (no regularisation is up to ``fit``); it should memorise them.

    ``fit(X, y)`` returns a ``predict_proba`` callable giving (N, K) or class-1 (N,)
    probabilities, scored by log loss and accuracy; with ``task="regression"`` a ``predict``
    callable, scored by the MSE against the batch's variance of y.
    """
    Xa, ya = np.asarray(X), np.asarray(y)
    if len(Xa) != len(ya):
        raise ValueError(f"X has {len(Xa)} rows but y has {len(ya)}")
    if rows > len(ya):
        raise ValueError(f"rows={rows} is more than the {len(ya)} rows given")
    pick = np.sort(rng.choice(len(ya), size=rows, replace=False))
    Xb, yb = Xa[pick], ya[pick]
    if task == "regression":
        pred = np.asarray(fit(Xb, yb)(Xb), dtype=np.float64).reshape(-1)
        yf = yb.astype(np.float64)
        rec = {
            "check": "overfit",
            "model": model,
            "task": "regression",
            "rows": int(rows),
            "final_loss": float(f"{mse_of(pred, yf):.3e}"),
            "target_variance": float(np.var(yf)),
        }
        return write_check(project, rec)
    proba = np.asarray(fit(Xb, yb)(Xb), dtype=np.float64)
    pred = (proba >= 0.5).astype(np.int64) if proba.ndim == 1 else proba.argmax(axis=1)
    rec = {
        "check": "overfit",
        "model": model,
        "rows": int(rows),
        "final_loss": float(f"{log_loss_of(proba, yb):.3e}"),
        "accuracy": float((pred == yb.astype(np.int64)).mean()),
    }
    return write_check(project, rec)


def shapes(project: Any, model: str, assertions: Sequence[tuple[str, bool]]) -> dict:
    """Record shape assertions as (description, holds) pairs; the check passes when all hold."""
    items = [(str(d), bool(ok)) for d, ok in assertions]
    if not items:
        raise ValueError("assertions is empty; give (description, holds) pairs")
    failed = [d for d, ok in items if not ok]
    rec = {
        "check": "shapes",
        "model": model,
        "passed": not failed,
        "assertions": len(items),
        "failed": failed,
    }
    return write_check(project, rec)


def expect_shape(name: str, array: Any, shape: tuple) -> tuple[str, bool]:
    """One shape assertion: ``array.shape == shape``, described with both shapes."""
    got = tuple(np.shape(array))
    return f"{name} is {shape} (got {got})", got == tuple(shape)
