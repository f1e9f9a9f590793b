"""All four rung-1 checks of scikit-learn's MLPClassifier (binary and multi-class) and
MLPRegressor, through their public API only (docs/recording.md).

- initial loss: a clone with plain SGD at learning rate 1e-12 takes one ``partial_fit`` step on
  (X, y): it starts from the same weights (same ``random_state`` and layer sizes), and a 1e-12
  step leaves its predictions at the initial ones. One draw of the initial weights varies a
  lot, so the value is the mean over ``inits`` initialisations (``random_state``,
  ``random_state + 1``, ...), each recorded;
- gradient: cites scikit-learn (its backprop is tested upstream); there is no public gradient;
- overfit: a clone without L2 and without early stopping fits ``rows`` random rows, scored by
  the task's own loss (log loss and accuracy; the MSE against the batch's variance of y);
- shapes: ``coefs_``/``intercepts_`` against the layer sizes, and the predictions' shapes.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from reportgen.sanity.checks import (
    expect_shape,
    initial_loss,
    library_gradient,
    log_loss_of,
    mse_of,
    overfit,
    shapes,
)


def _states(estimator: Any, inits: int, rng: np.random.Generator) -> list[int]:
    """The random states of the initialisations: the estimator's and the next ones, or drawn."""
    base = estimator.get_params().get("random_state")
    if isinstance(base, int | np.integer):
        return [int(base) + i for i in range(inits)]
    return [int(s) for s in rng.integers(0, 2**31 - 1, size=inits)]


def _untrained(estimator: Any, state: int, X: np.ndarray, y: np.ndarray, classes=None):
    """A clone at its initial weights: one ``partial_fit`` step of plain SGD at rate 1e-12."""
    from sklearn.base import clone

    first = clone(estimator).set_params(
        random_state=state,
        solver="sgd",
        learning_rate="constant",
        learning_rate_init=1e-12,
        momentum=0.0,
        nesterovs_momentum=False,
        batch_size=len(y),
        shuffle=False,
        early_stopping=False,
    )
    if classes is None:
        first.partial_fit(X, y)
    else:
        first.partial_fit(X, y, classes=classes)
    return first


def _memoriser(estimator: Any, overfit_iter: int, trained: list, predict: str):
    """``fit(Xb, yb)`` for the overfit check: a clone without L2 and early stopping."""
    from sklearn.base import clone
    from sklearn.exceptions import ConvergenceWarning

    def fit(Xb, yb):
        m = clone(estimator).set_params(
            alpha=0.0,
            max_iter=overfit_iter,
            tol=0.0,
            n_iter_no_change=overfit_iter,
            early_stopping=False,
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            m.fit(Xb, yb)
        trained.append(m)
        return getattr(m, predict)

    return fit


def _layer_shapes(m: Any, n_in: int, n_out: int) -> list[tuple[str, bool]]:
    """Assertions on the fitted layers: their count and every weight and bias shape."""
    hidden = m.hidden_layer_sizes
    hidden = [hidden] if isinstance(hidden, int) else list(hidden)
    units = [n_in, *hidden, n_out]
    checks = [
        ("n_layers_ is hidden layers + 2", m.n_layers_ == len(units)),
        ("n_outputs_", m.n_outputs_ == n_out),
        ("one weight matrix per layer", len(m.coefs_) == len(units) - 1),
        ("one bias vector per layer", len(m.intercepts_) == len(units) - 1),
    ]
    for i, (a, b) in enumerate(zip(units[:-1], units[1:], strict=True)):
        if i < len(m.coefs_):
            checks.append(expect_shape(f"coefs_[{i}]", m.coefs_[i], (a, b)))
        if i < len(m.intercepts_):
            checks.append(expect_shape(f"intercepts_[{i}]", m.intercepts_[i], (b,)))
    return checks


def check_mlp_classifier(
    project: Any,
    model: str,
    estimator: Any,
    X: Any,
    y: Any,
    *,
    rows: int = 32,
    overfit_iter: int = 2000,
    rng: np.random.Generator | None = None,
    reference: str = "uniform",
    inits: int = 5,
) -> list[dict]:
    """All four rung-1 checks of an (unfitted) ``MLPClassifier``, binary or multi-class.

    The initial loss is judged against ln(classes) (``reference="prior"``: the entropy of the
    class frequencies of ``y``); see the module docstring for each check.
    """
    import sklearn

    Xa, ya = np.asarray(X, dtype=np.float64), np.asarray(y)
    classes = np.unique(ya)
    rng = rng if rng is not None else np.random.default_rng(0)
    states = _states(estimator, inits, rng)
    losses = []
    for state in states:
        first = _untrained(estimator, state, Xa, ya, classes)
        losses.append(log_loss_of(first.predict_proba(Xa), np.searchsorted(classes, ya)))
    results = [
        initial_loss(
            project,
            model,
            float(np.mean(losses)),
            int(len(classes)),
            y=ya,
            reference=reference,
            rows=len(ya),
            extra={"inits": len(states), "random_states": states, "values": losses},
        ),
        library_gradient(
            project, model, f"scikit-learn {sklearn.__version__} {type(estimator).__name__}"
        ),
    ]
    trained: list[Any] = []
    fit = _memoriser(estimator, overfit_iter, trained, "predict_proba")
    # labels as class indices, so overfit's accuracy compares argmax with them
    results.append(
        overfit(project, model, fit, Xa, np.searchsorted(classes, ya), rows=rows, rng=rng)
    )
    m = trained[0]
    n_out = 1 if len(classes) == 2 else len(classes)
    checks = _layer_shapes(m, Xa.shape[1], n_out)
    proba = m.predict_proba(Xa[:5])
    checks += [
        expect_shape("predict_proba(5 rows)", proba, (5, len(classes))),
        ("probabilities sum to 1", bool(np.allclose(proba.sum(axis=1), 1.0))),
        ("probabilities in [0, 1]", bool(np.all((proba >= 0) & (proba <= 1)))),
        expect_shape("predict_proba(1 row)", m.predict_proba(Xa[:1]), (1, len(classes))),
        ("all weights finite", all(np.all(np.isfinite(c)) for c in m.coefs_)),
    ]
    results.append(shapes(project, model, checks))
    return results


def check_mlp_regressor(
    project: Any,
    model: str,
    estimator: Any,
    X: Any,
    y: Any,
    *,
    rows: int = 32,
    overfit_iter: int = 2000,
    rng: np.random.Generator | None = None,
    inits: int = 5,
) -> list[dict]:
    """All four rung-1 checks of an (unfitted) ``MLPRegressor`` with one output.

    The initial MSE is judged against the variance of ``y``, the loss of predicting the
    training mean: pass ``y`` as the network is trained on it (standardised, when you
    standardise the target). See the module docstring for each check.
    """
    import sklearn

    Xa = np.asarray(X, dtype=np.float64)
    ya = np.asarray(y, dtype=np.float64)
    if ya.ndim != 1:
        raise ValueError(f"y must be 1-D (one output), got shape {ya.shape}")
    rng = rng if rng is not None else np.random.default_rng(0)
    states = _states(estimator, inits, rng)
    losses, means = [], []
    for state in states:
        out = _untrained(estimator, state, Xa, ya).predict(Xa)
        losses.append(mse_of(out, ya))
        means.append(float(np.mean(out)))
    results = [
        initial_loss(
            project,
            model,
            float(np.mean(losses)),
            y=ya,
            task="regression",
            rows=len(ya),
            extra={
                "inits": len(states),
                "random_states": states,
                "values": losses,
                "prediction_means": means,
            },
        ),
        library_gradient(
            project, model, f"scikit-learn {sklearn.__version__} {type(estimator).__name__}"
        ),
    ]
    trained: list[Any] = []
    fit = _memoriser(estimator, overfit_iter, trained, "predict")
    results.append(overfit(project, model, fit, Xa, ya, rows=rows, rng=rng, task="regression"))
    m = trained[0]
    checks = _layer_shapes(m, Xa.shape[1], 1)
    out = m.predict(Xa[:5])
    checks += [
        expect_shape("predict(5 rows)", out, (5,)),
        expect_shape("predict(1 row)", m.predict(Xa[:1]), (1,)),
        ("predictions finite", bool(np.all(np.isfinite(out)))),
        ("all weights finite", all(np.all(np.isfinite(c)) for c in m.coefs_)),
    ]
    results.append(shapes(project, model, checks))
    return results
