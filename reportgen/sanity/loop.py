"""All four rung-1 checks of a network you wrote yourself (numpy, any framework), from a few
plain functions of a flat float64 parameter vector (docs/recording.md, "A manual loop").

    init(seed) -> params                the initial parameters of one initialisation
    forward(params, X) -> outputs       binary: the class-1 logit (N,); multi-class: the
                                        logits (N, K); regression: the predictions (N,)
    loss(params, X, y) -> float         your training loss
    grad(params, X, y) -> vector        its gradient, as your training loop computes it
    train(params, X, y) -> params       your training loop (used on a tiny batch, no L2)

The task's own loss is computed here from ``forward`` (sigmoid or softmax cross-entropy, or
the MSE), so a ``loss`` that disagrees with it at the initial parameters fails the shapes check.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from reportgen.sanity.checks import (
    expect_shape,
    gradient_check,
    log_loss_of,
    mean_initial_loss,
    mse_of,
    overfit,
    shapes,
)

TASKS = ("binary", "multiclass", "regression")


def task_outputs(task: str, outputs: Any) -> np.ndarray:
    """What the task's loss takes from the outputs: probabilities, or the predictions."""
    z = np.asarray(outputs, dtype=np.float64)
    if task == "binary":
        z = z.reshape(-1)
        e = np.exp(-np.abs(z))  # never overflows
        return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))
    if task == "multiclass":
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    return z.reshape(-1)


def task_loss(task: str, outputs: Any, y: Any) -> float:
    """The task's loss: log loss of the sigmoid or softmax of the logits, or the MSE."""
    if task == "regression":
        return mse_of(task_outputs(task, outputs), y)
    return log_loss_of(task_outputs(task, outputs), y)


def check_network(
    project: Any,
    model: str,
    *,
    task: str,
    init: Callable[[int], np.ndarray],
    forward: Callable[[np.ndarray, np.ndarray], np.ndarray],
    loss: Callable[[np.ndarray, np.ndarray, np.ndarray], float],
    grad: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray],
    train: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray],
    X: Any,
    y: Any,
    rng: np.random.Generator,
    inits: int = 5,
    rows: int = 32,
    gradient_rows: int = 16,
    max_params: int | None = 500,
) -> list[dict]:
    """The four rung-1 check files of a hand-written network; ``y`` holds class indices
    (0 .. K-1) for a classifier. Initialisations use seeds 0 .. inits-1."""
    if task not in TASKS:
        raise ValueError(f"task={task!r} is not valid. It should be one of {list(TASKS)}")
    Xa = np.asarray(X, dtype=np.float64)
    ya = np.asarray(y)
    yl = ya.astype(np.float64) if task == "regression" else ya.astype(np.int64)
    values = [task_loss(task, forward(init(seed), Xa), yl) for seed in range(inits)]
    extra = {"inits": inits, "values": values}
    if task == "regression":
        first = mean_initial_loss(project, model, values, y=yl, task="regression", extra=extra)
    else:
        k = 2 if task == "binary" else int(np.shape(forward(init(0), Xa[:1]))[1])
        first = mean_initial_loss(project, model, values, k, y=yl, extra=extra)
    theta0 = np.asarray(init(0), dtype=np.float64).reshape(-1)
    pick = np.sort(rng.choice(len(yl), size=min(gradient_rows, len(yl)), replace=False))
    Xg, yg = Xa[pick], yl[pick]
    results = [
        first,
        gradient_check(
            project,
            model,
            lambda th: loss(th, Xg, yg),
            lambda th: grad(th, Xg, yg),
            theta0,
            max_params=max_params,
            rng=rng,
        ),
    ]

    def fit(Xb, yb):
        params = train(theta0.copy(), Xb, yb)
        return lambda Z: task_outputs(task, forward(params, Z))

    results.append(
        overfit(
            project,
            model,
            fit,
            Xa,
            yl,
            rows=rows,
            rng=rng,
            task="regression" if task == "regression" else None,
        )
    )
    out = np.asarray(forward(theta0, Xa[:5]))
    want = (5,) if task != "multiclass" else (5, out.shape[-1] if out.ndim == 2 else -1)
    own, ours = float(loss(theta0, Xa, yl)), task_loss(task, forward(theta0, Xa), yl)
    checks = [
        expect_shape("forward(5 rows)", out, want),
        expect_shape("forward(1 row)", forward(theta0, Xa[:1]), (1, *want[1:])),
        ("outputs finite", bool(np.all(np.isfinite(out)))),
        expect_shape("grad(params)", grad(theta0, Xg, yg), theta0.shape),
        (
            f"loss(params) equals the task's loss at the initial parameters ({own:.6g} and {ours:.6g})",
            abs(own - ours) <= 1e-6 * max(abs(own), abs(ours), 1e-12),
        ),
    ]
    results.append(shapes(project, model, checks))
    return results
