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
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

import numpy as np

from reportgen.sanity import checks


class MlpOptions(TypedDict, total=False):
    """The keyword options both adapters take (defaults in `_Budget`)."""

    rows: int  #: the random rows the overfit check memorises (32)
    overfit_iter: int  #: the overfit clone's ``max_iter`` (2000)
    rng: np.random.Generator | None  #: draws the overfit rows (and unseeded states); seed 0
    inits: int  #: initialisations the initial loss is the mean of (5)


@dataclass(frozen=True)
class _Budget:
    rows: int = 32
    overfit_iter: int = 2000
    rng: np.random.Generator | None = None
    inits: int = 5


def _budget(options: MlpOptions, adapter: str) -> _Budget:
    """The options as a `_Budget`; an unknown keyword is named as the adapter's own."""
    from reportgen.names import did_you_mean

    for key in options:
        if key not in MlpOptions.__annotations__:
            raise TypeError(
                f"{adapter}() got an unexpected keyword argument {key!r}"
                + did_you_mean(key, MlpOptions.__annotations__)
            )
    return _Budget(**options)


def _states(estimator: Any, inits: int, rng: np.random.Generator) -> list[int]:
    """The random states of the initialisations: the estimator's and the next ones, or drawn."""
    base = estimator.get_params().get("random_state")
    if isinstance(base, int | np.integer):
        return [int(base) + i for i in range(inits)]
    return [int(s) for s in rng.integers(0, 2**31 - 1, size=inits)]


def untrained(estimator: Any, state: int, X: np.ndarray, y: np.ndarray, classes=None):
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
    found = [
        ("n_layers_ is hidden layers + 2", m.n_layers_ == len(units)),
        ("n_outputs_", m.n_outputs_ == n_out),
        ("one weight matrix per layer", len(m.coefs_) == len(units) - 1),
        ("one bias vector per layer", len(m.intercepts_) == len(units) - 1),
    ]
    for i, (a, b) in enumerate(zip(units[:-1], units[1:], strict=True)):
        if i < len(m.coefs_):
            found.append(checks.expect_shape(f"coefs_[{i}]", m.coefs_[i], (a, b)))
        if i < len(m.intercepts_):
            found.append(checks.expect_shape(f"intercepts_[{i}]", m.intercepts_[i], (b,)))
    return found


def _after_initial(
    project: Any,
    model: str,
    estimator: Any,
    first: dict,
    fit_data: tuple[np.ndarray, np.ndarray, str | None],
    budget: _Budget,
    rng: np.random.Generator,
    outputs: Any,
) -> list[dict]:
    """The initial-loss record ``first``, then the gradient, overfit and shapes checks.

    ``fit_data`` is (X, the overfit's targets, its task); ``outputs(m)`` gives the number of
    outputs and the assertions on the predictions of the network the overfit trained.
    """
    import sklearn

    Xa, target, task = fit_data
    results = [
        first,
        checks.library_gradient(
            project, model, f"scikit-learn {sklearn.__version__} {type(estimator).__name__}"
        ),
    ]
    trained: list[Any] = []
    predict = "predict" if task == "regression" else "predict_proba"
    fit = _memoriser(estimator, budget.overfit_iter, trained, predict)
    results.append(
        checks.overfit(project, model, fit, Xa, target, rows=budget.rows, rng=rng, task=task)
    )
    m = trained[0]
    n_out, predictions = outputs(m)
    found = _layer_shapes(m, Xa.shape[1], n_out) + predictions
    found.append(("all weights finite", all(np.all(np.isfinite(c)) for c in m.coefs_)))
    results.append(checks.shapes(project, model, found))
    return results


def check_mlp_classifier(
    project: Any,
    model: str,
    estimator: Any,
    X: Any,
    y: Any,
    *,
    reference: str = "uniform",
    **options: Unpack[MlpOptions],
) -> list[dict]:
    """All four rung-1 checks of an (unfitted) ``MLPClassifier``, binary or multi-class.

    The initial loss is judged against ln(classes) (``reference="prior"``: the entropy of the
    class frequencies of ``y``); ``options`` are `MlpOptions`. See the module docstring for
    each check.
    """
    budget = _budget(options, "check_mlp_classifier")
    Xa, ya = np.asarray(X, dtype=np.float64), np.asarray(y)
    classes = np.unique(ya)
    rng = budget.rng if budget.rng is not None else np.random.default_rng(0)
    states = _states(estimator, budget.inits, rng)
    index = np.searchsorted(classes, ya)  # labels as class indices, as argmax gives them
    losses = [
        checks.log_loss_of(untrained(estimator, s, Xa, ya, classes).predict_proba(Xa), index)
        for s in states
    ]
    extra = {"inits": len(states), "random_states": states, "values": losses}
    first = checks.mean_initial_loss(
        project, model, losses, int(len(classes)), y=ya, reference=reference, extra=extra
    )

    def outputs(m: Any) -> tuple[int, list[tuple[str, bool]]]:
        proba = m.predict_proba(Xa[:5])
        return 1 if len(classes) == 2 else len(classes), [
            checks.expect_shape("predict_proba(5 rows)", proba, (5, len(classes))),
            ("probabilities sum to 1", bool(np.allclose(proba.sum(axis=1), 1.0))),
            ("probabilities in [0, 1]", bool(np.all((proba >= 0) & (proba <= 1)))),
            checks.expect_shape("predict_proba(1 row)", m.predict_proba(Xa[:1]), (1, len(classes))),
        ]

    return _after_initial(project, model, estimator, first, (Xa, index, None), budget, rng, outputs)


def check_mlp_regressor(
    project: Any, model: str, estimator: Any, X: Any, y: Any, **options: Unpack[MlpOptions]
) -> list[dict]:
    """All four rung-1 checks of an (unfitted) ``MLPRegressor`` with one output.

    The initial MSE is judged against the variance of ``y``, the loss of predicting the
    training mean: pass ``y`` as the network is trained on it (standardised, when you
    standardise the target); ``options`` are `MlpOptions`. See the module docstring for each
    check.
    """
    budget = _budget(options, "check_mlp_regressor")
    Xa = np.asarray(X, dtype=np.float64)
    ya = np.asarray(y, dtype=np.float64)
    if ya.ndim != 1:
        raise ValueError(f"y must be 1-D (one output), got shape {ya.shape}")
    rng = budget.rng if budget.rng is not None else np.random.default_rng(0)
    states = _states(estimator, budget.inits, rng)
    losses, means = [], []
    for state in states:
        out = untrained(estimator, state, Xa, ya).predict(Xa)
        losses.append(checks.mse_of(out, ya))
        means.append(float(np.mean(out)))
    extra = {
        "inits": len(states),
        "random_states": states,
        "values": losses,
        "prediction_means": means,
    }
    first = checks.mean_initial_loss(project, model, losses, y=ya, task="regression", extra=extra)

    def outputs(m: Any) -> tuple[int, list[tuple[str, bool]]]:
        out = m.predict(Xa[:5])
        return 1, [
            checks.expect_shape("predict(5 rows)", out, (5,)),
            checks.expect_shape("predict(1 row)", m.predict(Xa[:1]), (1,)),
            ("predictions finite", bool(np.all(np.isfinite(out)))),
        ]

    return _after_initial(
        project, model, estimator, first, (Xa, ya, "regression"), budget, rng, outputs
    )
