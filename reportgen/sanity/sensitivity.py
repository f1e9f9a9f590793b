"""Input sensitivity (methods section 10): per-row dp/dx per raw unit, checked by central
finite differences, written to ``artefacts/checks/sensitivity-<model>.json``.

- `input_sensitivity`: scikit-learn ``MLPClassifier``/``MLPRegressor`` (any depth; relu, tanh,
  logistic, identity) and ``LogisticRegression``, alone or after ``StandardScaler`` steps in a
  ``Pipeline`` (the chain rule through 1/s); a tree or tree ensemble is refused;
- `check_sensitivity`: any ``predict`` with a gradient of your own, or central differences.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

# the sentence a piecewise-constant model gets instead of a table of zeros
from reportgen.words.reasons import PIECEWISE_CONSTANT

#: p (1 - p) below this is a saturated row
SATURATED = 1e-3
#: an agreement at one step within this, and at all three within STABLE, passes
TOLERANCE, STABLE = 1e-4, 1e-2


def central_differences(predict: Callable, X: np.ndarray, eps: float) -> np.ndarray:
    """(N, d) central differences of ``predict`` (N,) per raw coordinate, at step ``eps``."""
    out = np.empty(X.shape, dtype=np.float64)
    for j in range(X.shape[1]):
        up, down = X.copy(), X.copy()
        up[:, j] += eps
        down[:, j] -= eps
        diff = np.asarray(predict(up), float).reshape(-1) - np.asarray(predict(down), float)
        out[:, j] = diff.reshape(-1) / (2.0 * eps)
    return out


def _relative(a: np.ndarray, n: np.ndarray) -> np.ndarray:
    """|a - n| / max(|a| + |n|, a thousandth of the largest |a|, 1e-12), entry by entry."""
    floor = max(1e-3 * float(np.max(np.abs(a), initial=0.0)), 1e-12)
    return np.abs(a - n) / np.maximum(np.abs(a) + np.abs(n), floor)


def _step(x: float) -> float:
    """A step as written: eps / 10 of 1e-5 stored as 1e-06, not 1.0000000000000002e-06."""
    return float(f"{x:.12g}")


def kinked(pattern: Callable[[np.ndarray], np.ndarray], X: np.ndarray, h: float) -> np.ndarray:
    """(N, d) True where the central-difference stencil x +- h e_j of row i changes the relu
    activation pattern (``pattern`` (N, units) booleans): a kink lies within the step, where
    the finite differences measure an average of two slopes, not the gradient."""
    at = np.asarray(pattern(X), bool)
    out = np.zeros(X.shape, dtype=bool)
    for j in range(X.shape[1]):
        for sign in (1.0, -1.0):
            Z = X.copy()
            Z[:, j] += sign * h
            out[:, j] |= np.any(np.asarray(pattern(Z), bool) != at, axis=1)
    return out


def agreement(
    predict: Callable,
    X: np.ndarray,
    grad: np.ndarray,
    eps: float,
    names,
    pattern: Callable[[np.ndarray], np.ndarray] | None = None,
) -> dict:
    """The finite-difference agreement at eps, 10 eps and eps / 10, with the worst entry; with
    ``pattern`` (a relu network's activation pattern), the (row, feature) entries whose largest
    stencil crosses a kink are left out and counted in ``excluded``."""
    steps = [eps, _step(eps * 10.0), _step(eps / 10.0)]
    keep = None if pattern is None else ~kinked(pattern, X, max(steps))
    errors, worst = [], None
    for step in steps:
        num = central_differences(predict, X, step)
        rel = _relative(grad, num)
        if keep is not None:
            rel = np.where(keep, rel, 0.0)
        errors.append(float(np.max(rel, initial=0.0)))
        if step == eps and rel.size:
            i, j = np.unravel_index(int(np.argmax(rel)), rel.shape)
            worst = {
                "feature": names[j],
                "row": int(i),
                "analytical": float(grad[i, j]),
                "finite_difference": float(num[i, j]),
                "eps": step,
            }
    best = min(errors)
    out = {
        "eps": steps,
        "relative_errors": errors,
        "max_relative_error": best,
        "passed": bool(best <= TOLERANCE and max(errors) <= STABLE),
        "worst": worst,
    }
    if keep is not None:
        out["excluded"] = int(np.sum(~keep))
    return out


def _names(X: Any, features: Sequence[str] | None, d: int) -> list[str]:
    if features is not None:
        names = [str(f) for f in features]
    elif hasattr(X, "columns"):
        names = [str(c) for c in X.columns]
    else:
        names = [f"x{j + 1}" for j in range(d)]
    if len(names) != d:
        raise ValueError(f"features has {len(names)} names but X has {d} columns")
    return names


def summary(
    grad: np.ndarray,
    saturated: np.ndarray | None,
    names: list[str],
    units: dict[str, str] | None,
) -> list[dict]:
    """Per feature: mean dp/dx, median |dp/dx|, share positive, share of saturated rows."""
    share_sat = None if saturated is None else float(np.mean(saturated))
    return [
        {
            "name": name,
            "unit": (units or {}).get(name),
            "mean": float(np.mean(grad[:, j])),
            "median_abs": float(np.median(np.abs(grad[:, j]))),
            "share_positive": float(np.mean(grad[:, j] > 0)),
            "share_saturated": share_sat,
        }
        for j, name in enumerate(names)
    ]


def check_sensitivity(
    predict: Callable[[np.ndarray], Any],
    X: Any,
    gradient: Any = None,
    *,
    project: Any = None,
    model: str | None = None,
    features: Sequence[str] | None = None,
    units: dict[str, str] | None = None,
    rows: str = "test",
    task: str = "binary",
    eps: float = 1e-5,
    pattern: Callable[[np.ndarray], np.ndarray] | None = None,
) -> dict:
    """Check ``gradient`` (N, d), dp/dx per raw unit, against central differences of
    ``predict`` (class-1 probabilities, the predicted class's probability held to that class,
    or regression predictions); without ``gradient`` the central differences at ``eps`` are
    the gradient. With ``project`` and ``model`` it writes the check file; the record's
    ``passed`` says whether the finite differences agree. ``pattern`` (raw rows -> (N, units)
    booleans, a relu network's units that are on) leaves out of the agreement the entries
    whose stencil crosses a kink, counted in ``excluded``."""
    if rows not in ("test", "validation"):
        raise ValueError(f"rows={rows!r} should be one of ['test', 'validation']")
    if task not in ("binary", "multiclass", "regression"):
        raise ValueError(f"task={task!r} should be one of ['binary', 'multiclass', 'regression']")
    if (project is None) != (model is None):
        raise ValueError("give both project and model to write the file, or neither")
    Xa = np.asarray(X, dtype=np.float64)
    names = _names(X, features, Xa.shape[1])
    method = "analytical"
    if gradient is None:
        grad, method = central_differences(predict, Xa, eps), "central differences"
    else:
        grad = np.asarray(gradient, dtype=np.float64)
        if grad.shape != Xa.shape:
            raise ValueError(f"gradient has shape {grad.shape} but X has {Xa.shape}")
    p = np.asarray(predict(Xa), dtype=np.float64).reshape(-1)
    saturated = None if task == "regression" else p * (1.0 - p) < SATURATED
    fd = agreement(predict, Xa, grad, eps, names, pattern)
    record = {
        "check": "sensitivity",
        "model": model or "",
        "task": task,
        "rows": rows,
        "n_rows": int(Xa.shape[0]),
        "gradient": method,
        "features": summary(grad, saturated, names, units),
        "finite_differences": fd,
    }
    if project is not None:
        from reportgen.sanity.checks import write_check

        return write_check(project, record)
    return {**record, "passed": fd["passed"]}


def _piecewise_constant(est: Any) -> bool:
    mod, name = type(est).__module__, type(est).__name__
    if mod.split(".")[0] in ("xgboost", "lightgbm", "catboost"):
        return True
    return mod.startswith(("sklearn.tree", "sklearn.ensemble")) and any(
        w in name for w in ("Tree", "Forest", "Boost")
    )


def _steps(estimator: Any) -> tuple[Any, Any, Any]:
    """(mu, s, final estimator) of a bare estimator or a Pipeline of StandardScaler steps."""
    steps = getattr(estimator, "steps", None)
    if steps is None:
        return None, None, estimator
    mu: Any = None
    s: Any = None
    for _, step in steps[:-1]:
        if type(step).__name__ != "StandardScaler":
            raise ValueError(
                f"a {type(step).__name__} step has no gradient here; use check_sensitivity"
            )
        m = step.mean_ if step.mean_ is not None else 0.0
        sc = step.scale_ if step.scale_ is not None else 1.0
        mu = m if mu is None else mu + (s if s is not None else 1.0) * m
        s = sc if s is None else s * sc
    return mu, s, steps[-1][1]


_DERIV: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "relu": lambda z, h: (z > 0).astype(np.float64),
    "tanh": lambda z, h: 1.0 - h * h,
    "logistic": lambda z, h: h * (1.0 - h),
    "identity": lambda z, h: np.ones_like(z),
}
_ACT: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "relu": lambda z: np.maximum(z, 0.0),
    "tanh": np.tanh,
    "logistic": lambda z: 1.0 / (1.0 + np.exp(-z)),
    "identity": lambda z: z,
}


def _out_grad(z: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """(the value, d value / d output pre-activations) of the output layer, per row."""
    if kind == "identity":
        return z[:, 0], np.ones_like(z)
    if z.shape[1] == 1:
        p = 1.0 / (1.0 + np.exp(-z[:, 0]))
        return p, (p * (1.0 - p))[:, None]
    e = np.exp(z - z.max(axis=1, keepdims=True))
    P = e / e.sum(axis=1, keepdims=True)
    k = P.argmax(axis=1)
    pk = P[np.arange(len(k)), k]
    G = -pk[:, None] * P
    G[np.arange(len(k)), k] += pk
    return pk, G


def gradient_of(estimator: Any, X: Any) -> tuple[np.ndarray, np.ndarray, str]:
    """(p, dp/dx per raw unit (N, d), task) of a fitted MLP or LogisticRegression, alone or
    after StandardScaler steps: class-1 probability, the predicted class's, or the prediction."""
    mu, s, est = _steps(estimator)
    Xa = np.asarray(X, dtype=np.float64)
    Xs = Xa if mu is None else (Xa - mu) / s
    name = type(est).__name__
    if name in ("MLPClassifier", "MLPRegressor"):
        weights, biases, act = est.coefs_, est.intercepts_, est.activation
        if name == "MLPRegressor" and weights[-1].shape[1] != 1:
            raise ValueError("input sensitivity needs a regressor with one output")
        a, zs, hs = Xs, [], []
        for W, b in zip(weights[:-1], biases[:-1], strict=True):
            z = a @ W + b
            a = _ACT[act](z)
            zs.append(z)
            hs.append(a)
        p, G = _out_grad(a @ weights[-1] + biases[-1], est.out_activation_)
        G = G @ weights[-1].T
        for i in range(len(zs) - 1, -1, -1):
            G = (G * _DERIV[act](zs[i], hs[i])) @ weights[i].T
    elif name == "LogisticRegression":
        W = est.coef_.T
        p, G = _out_grad(Xs @ W + est.intercept_, "softmax")
        G = G @ W.T
    else:
        raise ValueError(
            f"{name} has no analytical input gradient here; use check_sensitivity(predict, X)"
        )
    task = (
        "regression"
        if name == "MLPRegressor"
        else ("binary" if _outputs(est) == 1 else "multiclass")
    )
    return p, (G if s is None else G / s), task


def relu_pattern(estimator: Any) -> Callable[[np.ndarray], np.ndarray] | None:
    """Raw rows -> which hidden units are on, for a relu MLP (alone or after StandardScaler
    steps); None for any other model (no kinks)."""
    mu, s, est = _steps(estimator)
    if type(est).__name__ not in ("MLPClassifier", "MLPRegressor") or est.activation != "relu":
        return None

    def pattern(X: np.ndarray) -> np.ndarray:
        a = np.asarray(X, dtype=np.float64)
        a = a if mu is None else (a - mu) / s
        on = []
        for W, b in zip(est.coefs_[:-1], est.intercepts_[:-1], strict=True):
            z = a @ W + b
            on.append(z > 0)
            a = np.maximum(z, 0.0)
        return np.concatenate(on, axis=1)

    return pattern


def _outputs(est: Any) -> int:
    return int(est.coefs_[-1].shape[1] if hasattr(est, "coefs_") else est.coef_.shape[0])


def _framed(estimator: Any) -> Callable[[np.ndarray], Any]:
    """Rows as the estimator was fitted on them: a DataFrame with its feature names when it
    was fitted on one (scikit-learn then warns about bare arrays), else the array."""
    names = getattr(estimator, "feature_names_in_", None)
    if names is None:
        return lambda Z: Z
    import pandas as pd

    return lambda Z: pd.DataFrame(Z, columns=list(names))


def _predictor(estimator: Any, X: np.ndarray, task: str) -> Callable:
    """``predict`` for the finite differences: the class held at the unperturbed prediction."""
    rows = _framed(estimator)
    if task == "regression":
        return lambda Z: np.asarray(estimator.predict(rows(Z)), float).reshape(-1)
    if task == "binary":
        return lambda Z: estimator.predict_proba(rows(Z))[:, 1]
    k = estimator.predict_proba(rows(X)).argmax(axis=1)
    return lambda Z: estimator.predict_proba(rows(Z))[np.arange(len(k)), k]


def input_sensitivity(
    project: Any,
    model: str,
    estimator: Any,
    X: Any,
    *,
    features: Sequence[str] | None = None,
    units: dict[str, str] | None = None,
    rows: str = "test",
    eps: float = 1e-5,
) -> dict:
    """Record the input sensitivity of a fitted scikit-learn model on the rows ``X`` (test, or
    ``rows="validation"``); a tree or tree ensemble gets its one sentence instead."""
    final = estimator.steps[-1][1] if hasattr(estimator, "steps") else estimator
    if _piecewise_constant(final):
        from reportgen.sanity.checks import write_check

        rec = {
            "check": "sensitivity",
            "model": model,
            "estimator": type(final).__name__,
            "reason": PIECEWISE_CONSTANT,
        }
        return write_check(project, rec)
    Xa = np.asarray(X, dtype=np.float64)
    _, grad, task = gradient_of(estimator, Xa)
    names = _names(X, features, Xa.shape[1]) if features or hasattr(X, "columns") else None
    if names is None and hasattr(estimator, "feature_names_in_"):
        names = [str(c) for c in estimator.feature_names_in_]
    return check_sensitivity(
        _predictor(estimator, Xa, task),
        Xa,
        grad,
        project=project,
        model=model,
        features=names,
        units=units,
        rows=rows,
        task=task,
        eps=eps,
        pattern=relu_pattern(estimator),
    )
