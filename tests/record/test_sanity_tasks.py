"""Rung 1 for every task: healthy default initialisations pass the
initial-loss rule, deliberately broken networks fail it with the reason, for scikit-learn's
MLPClassifier and MLPRegressor, a hand-written numpy network, and PyTorch where installed."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from reportgen import sanity
from reportgen.project.checkfiles import evaluate
from reportgen.project.init_rule import LOGIT_VARIANCE, classification_bounds
from tests.record.nets import NumpyMLP


@pytest.fixture(scope="module")
def digits():
    from sklearn.datasets import load_digits
    from sklearn.preprocessing import StandardScaler

    d = load_digits()
    return StandardScaler().fit_transform(d.data), d.target


@pytest.fixture(scope="module")
def diabetes():
    from sklearn.datasets import load_diabetes
    from sklearn.preprocessing import StandardScaler

    d = load_diabetes()
    y = d.target
    return StandardScaler().fit_transform(d.data), (y - y.mean()) / y.std(), y


def _by_check(results):
    return {r["check"]: r for r in results}


# ---------------------------------------------------------------- the rule itself


def test_bounds_are_the_small_logit_expansion_at_the_default_variance():
    low, high = classification_bounds(math.log(2), 2)
    assert high == pytest.approx(math.log(2) + LOGIT_VARIANCE / 4)  # ln 2 + 1/2 = 1.193
    assert low == pytest.approx(0.75 * math.log(2))
    assert classification_bounds(math.log(10), 10)[1] == pytest.approx(math.log(10) + 0.9)


@pytest.mark.parametrize(
    ("value", "passed", "words"),
    [
        (0.70, True, "within what a default initialisation gives (up to 1.193)"),  # small weights
        (0.80, True, "within what a default initialisation gives"),  # Glorot, the course's figure
        (0.8732, True, "0.8732 against ln 2 = 0.6931: within"),  # the stock network
        (
            1.62,
            False,
            "far above what a default initialisation gives (up to 1.193): a shifted "
            "output bias, or unstandardised inputs feeding relu units?",
        ),  # output bias +3
        (0.40, False, "below what an untrained network gives (at least 0.5199)"),
    ],
)
def test_course_reference_points(value, passed, words):
    ok, text = evaluate("initial_loss", {"value": value, "classes": 2, "inits": 5})
    assert ok is passed and words in text, text


def test_a_single_draw_that_fails_says_to_average():
    _, text = evaluate("initial_loss", {"value": 1.3, "classes": 2})
    assert "from one initialisation" in text and "average over 5" in text
    _, text = evaluate("initial_loss", {"value": 1.3, "classes": 2, "inits": 5})
    assert "average" not in text


def test_regression_rule_against_the_variance_of_y():
    ok, text = evaluate("initial_loss", {"value": 1.7, "target_variance": 1.0})
    assert ok and "initial MSE 1.700 against the variance of y" in text and "up to 5.000" in text
    ok, text = evaluate(
        "initial_loss", {"value": 10.0, "task": "regression", "target_variance": 1.0}
    )
    assert not ok and "not standardised" in text
    ok, _ = evaluate("initial_loss", {"value": 0.5, "target_variance": 1.0})
    assert ok is False  # explains half the variance before training: not untrained
    assert evaluate("initial_loss", {"value": 1.0, "task": "regression"})[0] is None


def test_regression_overfit_is_scored_against_the_batch_variance():
    ok, text = evaluate("overfit", {"rows": 32, "final_loss": 0.04, "target_variance": 1.0})
    assert ok and "final MSE 0.04000" in text and "(memorised)" in text
    ok, text = evaluate("overfit", {"rows": 32, "final_loss": 0.06, "target_variance": 1.0})
    assert not ok and "did not memorise: above 0.05000" in text


def test_a_loss_at_the_floating_point_floor_prints_about_zero():
    """1.69e-32 is float noise around zero, not a figure to read (1.690 × 10⁻³²)."""
    ok, text = evaluate("overfit", {"rows": 32, "final_loss": 1.69e-32, "target_variance": 0.68})
    assert ok and "final MSE about 0 (below 10⁻¹²) against" in text
    ok, text = evaluate("overfit", {"rows": 32, "final_loss": 3e-40, "accuracy": 1.0})
    assert ok and "final loss about 0 (below 10⁻¹²)" in text
    ok, text = evaluate("overfit", {"rows": 32, "final_loss": 1.337e-5, "accuracy": 1.0})
    assert "final loss 1.337 × 10⁻⁵" in text


# ---------------------------------------------------------------- scikit-learn


def _sklearn_init_loss(est, X, y, state, bias):
    """The adapter's measurement by hand, with the output bias shifted after initialisation."""
    from sklearn.base import clone

    classes = np.unique(y)
    m = clone(est).set_params(
        random_state=state,
        solver="sgd",
        learning_rate_init=1e-12,
        momentum=0.0,
        batch_size=len(y),
        shuffle=False,
    )
    m.partial_fit(X, y, classes=classes)
    m.intercepts_[-1][: max(1, m.intercepts_[-1].size // 2)] += bias
    return sanity.log_loss_of(m.predict_proba(X), np.searchsorted(classes, y))


def test_stock_mlp_classifier_passes_and_a_shifted_bias_fails(tmp_path, digits):
    from sklearn.neural_network import MLPClassifier

    X, target = digits
    y = (target >= 5).astype(int)
    est = MLPClassifier((32,), random_state=0)
    res = _by_check(sanity.check_mlp_classifier(tmp_path, "mlp", est, X, y))
    assert all(r["passed"] for r in res.values()), [r["text"] for r in res.values()]
    assert 0.80 < res["initial_loss"]["value"] < 0.95  # well above 25% of ln 2, still healthy
    assert "within what a default initialisation gives" in res["initial_loss"]["text"]
    bugged = np.mean([_sklearn_init_loss(est, X, y, s, 3.0) for s in range(5)])
    bad = sanity.initial_loss(tmp_path, "mlp", float(bugged), 2, extra={"inits": 5})
    assert (
        bad["passed"] is False
        and "a shifted output bias, or unstandardised inputs" in bad["text"]
        and "label" not in bad["text"]
    )


def test_multiclass_mlp_classifier(tmp_path, digits):
    from sklearn.neural_network import MLPClassifier

    X, y = digits
    est = MLPClassifier((32,), random_state=0, max_iter=300)
    res = _by_check(sanity.check_mlp_classifier(tmp_path, "mlp", est, X[:600], y[:600]))
    assert all(r["passed"] for r in res.values()), [r["text"] for r in res.values()]
    assert res["initial_loss"]["classes"] == 10 and "ln 10" in res["initial_loss"]["text"]
    assert res["shapes"]["assertions"] == 13
    # a +5 shift on half the classes is far above; +3 on ten classes costs less than the bound
    bugged = np.mean([_sklearn_init_loss(est, X[:600], y[:600], s, 5.0) for s in range(5)])
    assert sanity.initial_loss(tmp_path, "mlp", float(bugged), 10)["passed"] is False


def test_mlp_regressor_healthy_and_broken(tmp_path, diabetes):
    from sklearn.neural_network import MLPRegressor

    X, y_std, y_raw = diabetes
    est = MLPRegressor(hidden_layer_sizes=(32,), random_state=0)
    res = _by_check(sanity.check_mlp_regressor(tmp_path, "mlp", est, X, y_std))
    assert all(r["passed"] for r in res.values()), [r["text"] for r in res.values()]
    init = res["initial_loss"]
    assert init["target_variance"] == pytest.approx(1.0) and init["task"] == "regression"
    assert 1.0 < init["value"] < 3.0 and len(init["prediction_means"]) == 5
    assert res["overfit"]["final_loss"] <= 0.05 * res["overfit"]["target_variance"]
    assert res["shapes"]["assertions"] == 12
    # a target 1000 away from the zero-centred output: far above
    far = _by_check(sanity.check_mlp_regressor(tmp_path, "mlp", est, X, y_raw + 1000))
    assert far["initial_loss"]["passed"] is False
    assert "a target that is not standardised" in far["initial_loss"]["text"]


# ---------------------------------------------------------------- a hand-written loop


def _labels(target, task):
    """The digits' targets as a binary, a 3-class or a standardised regression label."""
    return {
        "binary": (target >= 5).astype(int),
        "multiclass": target % 3,
        "regression": (target - target.mean()) / target.std(),
    }[task]


def _check_network(tmp_path, net, task, X, y, train):
    """sanity.check_network of a NumpyMLP, by check name."""
    return _by_check(
        sanity.check_network(
            tmp_path,
            "net",
            task=task,
            init=net.init,
            forward=net.forward,
            loss=net.loss,
            grad=net.grad,
            train=train,
            X=X,
            y=y,
            rng=np.random.default_rng(0),
        )
    )


@pytest.mark.parametrize("task", ["binary", "multiclass", "regression"])
def test_manual_loop_healthy_network_passes(tmp_path, task, digits):
    X, target = digits
    X, target = X[:300], target[:300]
    y = _labels(target, task)
    net = NumpyMLP(X.shape[1], 16, 3 if task == "multiclass" else 1, task)
    res = _check_network(tmp_path, net, task, X, y, net.train)
    assert all(r["passed"] for r in res.values()), [r["text"] for r in res.values()]
    assert res["gradient"]["max_relative_error"] < 1e-4  # central differences, step 1e-6


@pytest.mark.parametrize(
    ("task", "bug", "check"),
    [
        ("binary", {"bias": 3.0}, "initial_loss"),
        ("multiclass", {"bias": 3.0}, "initial_loss"),
        ("regression", {"bias": 3.0}, "initial_loss"),
        ("binary", {"scale": 10.0}, "initial_loss"),
        ("multiclass", {"grad_bug": True}, "gradient"),
    ],
)
def test_manual_loop_broken_network_fails(tmp_path, task, bug, check, digits):
    X, target = digits
    X, target = X[:300], target[:300]
    y = _labels(target, task)
    net = NumpyMLP(X.shape[1], 16, 3 if task == "multiclass" else 1, task, **bug)
    res = _check_network(
        tmp_path, net, task, X, y, lambda th, Xb, yb: net.train(th, Xb, yb, steps=50)
    )
    assert res[check]["passed"] is False, res[check]["text"]
    if check == "initial_loss":
        assert "far above" in res[check]["text"]


def test_manual_loop_loss_that_is_not_the_task_loss_fails_shapes(tmp_path, digits):
    X, target = digits
    y = (target[:200] >= 5).astype(int)
    net = NumpyMLP(X.shape[1], 8, 1, "binary")
    res = _by_check(
        sanity.check_network(
            tmp_path,
            "net",
            task="binary",
            init=net.init,
            forward=net.forward,
            loss=lambda th, Xb, yb: 2 * net.loss(th, Xb, yb),
            grad=net.grad,
            train=lambda th, Xb, yb: net.train(th, Xb, yb, steps=20),
            X=X[:200],
            y=y,
            rng=np.random.default_rng(0),
        )
    )
    assert res["shapes"]["passed"] is False
    assert any("equals the task's loss" in f for f in res["shapes"]["failed"])


# ---------------------------------------------------------------- PyTorch defaults


def _torch_loss(torch, nn, X, y, classes, seed, bias):
    torch.manual_seed(seed)
    out = 1 if classes == 2 else classes
    net = nn.Sequential(nn.Linear(X.shape[1], 32), nn.ReLU(), nn.Linear(32, out))
    with torch.no_grad():
        net[2].bias[: max(1, out // 2)] += bias
        z = net(torch.from_numpy(X).float())
        if classes == 2:
            return float(nn.BCEWithLogitsLoss()(z[:, 0], torch.from_numpy(y).float()))
        return float(nn.CrossEntropyLoss()(z, torch.from_numpy(y).long()))


@pytest.mark.parametrize("classes", [2, 10])
def test_pytorch_default_init_passes_and_shifted_bias_fails(tmp_path, digits, classes):
    torch = pytest.importorskip("torch")
    from torch import nn

    X, target = digits
    y = (target >= 5).astype(np.int64) if classes == 2 else target.astype(np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        healthy = np.mean([_torch_loss(torch, nn, X, y, classes, s, 0.0) for s in range(5)])
        bugged = np.mean(
            [
                _torch_loss(torch, nn, X, y, classes, s, 6.0 if classes > 2 else 3.0)
                for s in range(5)
            ]
        )
    ok = sanity.initial_loss(tmp_path, "net", float(healthy), classes, extra={"inits": 5})
    assert ok["passed"] is True, ok["text"]
    assert healthy < math.log(classes) + 0.1  # PyTorch's default starts with small logits
    bad = sanity.initial_loss(tmp_path, "net", float(bugged), classes, extra={"inits": 5})
    assert bad["passed"] is False and "far above" in bad["text"]
