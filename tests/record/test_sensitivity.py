"""reportgen.sanity.sensitivity: input gradients per raw unit against independent computations."""

from __future__ import annotations

import json

import numpy as np
import pytest

from reportgen.sanity import sensitivity as sens


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def _tiny_tanh(X):
    """The worked example's network: one tanh unit, W1 = [2, -1], W2 = 3, no biases."""
    Xs = (np.asarray(X, float) - [1.0, 2.0]) / [2.0, 4.0]
    return _sigmoid(3.0 * np.tanh(Xs @ [2.0, -1.0]))


def _tiny_tanh_grad(X, scaled=True):
    Xs = (np.asarray(X, float) - [1.0, 2.0]) / [2.0, 4.0]
    h = np.tanh(Xs @ [2.0, -1.0])
    p = _sigmoid(3.0 * h)
    g = (p * (1 - p) * 3.0 * (1 - h * h))[:, None] * np.array([2.0, -1.0])
    return g / [2.0, 4.0] if scaled else g


def test_worked_example_gradient_and_first_order_change():
    x = np.array([[1.0, 2.0]])
    g = _tiny_tanh_grad(x)
    assert g[0] == pytest.approx([0.75, -0.1875], rel=1e-12)
    delta = np.array([0.02, -0.04])
    first = _tiny_tanh(x)[0] + g[0] @ delta
    actual = _tiny_tanh(x + delta)[0]
    assert first == pytest.approx(0.5225, rel=1e-12)
    assert actual == pytest.approx(0.5224780909, abs=1e-10)
    assert first - actual == pytest.approx(2.19e-5, abs=1e-7)
    r = sens.check_sensitivity(_tiny_tanh, x, g, features=["a", "b"])
    assert r["passed"] is True and r["features"][0]["mean"] == pytest.approx(0.75, rel=1e-12)


def test_forgetting_one_over_s_fails_the_finite_difference_check(tmp_path):
    X = np.random.default_rng(0).normal([1, 2], [2, 4], size=(40, 2))
    r = sens.check_sensitivity(
        _tiny_tanh, X, _tiny_tanh_grad(X, scaled=False), project=tmp_path, model="net"
    )
    assert r["passed"] is False and "a factor" in r["text"]
    assert sens.check_sensitivity(_tiny_tanh, X, _tiny_tanh_grad(X))["passed"] is True
    on_disk = json.loads((tmp_path / "artefacts/checks/sensitivity-net.json").read_text())
    assert on_disk["finite_differences"]["passed"] is False


def test_finite_difference_fallback_matches_the_analytical_gradient():
    X = np.random.default_rng(1).normal([1, 2], [2, 4], size=(30, 2))
    r = sens.check_sensitivity(_tiny_tanh, X, features=["a", "b"])
    g = _tiny_tanh_grad(X)
    assert r["gradient"] == "central differences"
    for j, f in enumerate(r["features"]):
        assert f["mean"] == pytest.approx(g[:, j].mean(), rel=1e-4)
        assert f["median_abs"] == pytest.approx(np.median(np.abs(g[:, j])), rel=1e-4)


def _data(n=200, d=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * [1.0, 10.0, 0.1] + [0.0, 50.0, 3.0]
    y = ((X[:, 0] + (X[:, 1] - 50) / 10 - (X[:, 2] - 3) * 10) > 0).astype(int)
    return X, y


@pytest.mark.parametrize("activation", ["relu", "tanh"])
@pytest.mark.parametrize("scaled", [True, False])
def test_mlp_gradient_matches_an_independent_computation(activation, scaled):
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = _data()
    mlp = MLPClassifier((8, 5), activation=activation, max_iter=300, random_state=0)
    est = make_pipeline(StandardScaler(), mlp) if scaled else mlp
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X, y)
    p, g, task = sens.gradient_of(est, X)
    assert task == "binary"
    assert p == pytest.approx(est.predict_proba(X)[:, 1], rel=1e-9)
    # independent: one row at a time, the product of the layers' Jacobians (output to input)
    sc = est.steps[0][1] if scaled else None
    for i in range(0, len(X), 7):
        x = (X[i] - sc.mean_) / sc.scale_ if scaled else X[i]
        J = np.eye(len(x))
        a = x
        for W, b in zip(mlp.coefs_[:-1], mlp.intercepts_[:-1], strict=True):
            z = a @ W + b
            a = np.maximum(z, 0) if activation == "relu" else np.tanh(z)
            d = (z > 0).astype(float) if activation == "relu" else 1 - a**2
            J = J @ W @ np.diag(d)
        dz = (J @ mlp.coefs_[-1])[:, 0] / (sc.scale_ if scaled else 1.0)
        assert g[i] == pytest.approx(p[i] * (1 - p[i]) * dz, rel=1e-6, abs=1e-15)


def test_logistic_regression_is_p_one_minus_p_w_over_s(tmp_path):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = _data()
    est = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y)
    sc, lr = est.steps[0][1], est.steps[1][1]
    p = est.predict_proba(X)[:, 1]
    expected = (p * (1 - p))[:, None] * lr.coef_[0] / sc.scale_
    _, g, _ = sens.gradient_of(est, X)
    assert g == pytest.approx(expected, rel=1e-9)
    r = sens.input_sensitivity(tmp_path, "logreg", est, X, features=["a", "b", "c"])
    assert r["passed"] is True
    assert r["features"][1]["mean"] == pytest.approx(expected[:, 1].mean(), rel=1e-9)


def test_saturated_network_reports_its_saturated_share():
    X = np.random.default_rng(2).normal([1, 2], [2, 4], size=(100, 2))

    def steep(Z):
        return _sigmoid(40.0 * np.tanh(((Z - [1, 2]) / [2, 4]) @ [2.0, -1.0]))

    r = sens.check_sensitivity(steep, X)
    share = r["features"][0]["share_saturated"]
    p = steep(X)
    assert share == pytest.approx(np.mean(p * (1 - p) < 1e-3)) and share > 0.5


def test_gradient_boosting_is_refused_with_its_sentence(tmp_path):
    from sklearn.ensemble import GradientBoostingClassifier

    X, y = _data(n=60)
    gb = GradientBoostingClassifier(n_estimators=5).fit(X, y)
    r = sens.input_sensitivity(tmp_path, "gbt", gb, X)
    assert r["reason"] == "local gradients are not defined for a piecewise-constant model"
    assert r["passed"] is None and "features" not in r


def test_multiclass_and_regression_mlps_agree_with_finite_differences(tmp_path):
    import warnings

    from sklearn.neural_network import MLPClassifier, MLPRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, _ = _data()
    y3 = np.digitize(X[:, 0], [-0.5, 0.5])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf = make_pipeline(
            StandardScaler(),
            MLPClassifier(hidden_layer_sizes=(6,), activation="logistic", random_state=0),
        ).fit(X, y3)
        reg = make_pipeline(
            StandardScaler(),
            MLPRegressor(hidden_layer_sizes=(6,), activation="tanh", random_state=0),
        ).fit(X, X[:, 0] * 3.0)
    r = sens.input_sensitivity(tmp_path, "mlp3", clf, X, units={"x1": "cm"})
    assert r["task"] == "multiclass" and r["passed"] is True
    assert r["features"][0]["unit"] == "cm"
    r = sens.input_sensitivity(tmp_path, "reg", reg, X)
    assert r["task"] == "regression" and r["passed"] is True
    assert r["features"][0]["share_saturated"] is None


def _kinked_relu_net():
    """One relu unit h = max(x1, 0), z = 3 h + 0.2 x2 (a second unit, always on): the first
    row sits at x1 = 0, on the kink, where the gradient in x1 is 0 but central differences
    average the two slopes (half of 3 p (1 - p))."""
    from sklearn.neural_network import MLPClassifier

    X, y = np.array([[0.0, 1.0], [1.0, 2.0], [-1.0, 0.5], [0.5, -1.0]]), np.array([1, 1, 0, 0])
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mlp = MLPClassifier((2,), activation="relu", max_iter=5, random_state=0).fit(X, y)
    mlp.coefs_ = [np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[3.0], [0.2]])]
    mlp.intercepts_ = [np.array([0.0, 10.0]), np.array([0.0])]
    return mlp, X


def test_a_row_on_a_relu_kink_is_left_out_of_the_agreement_and_counted(tmp_path):
    mlp, X = _kinked_relu_net()
    p, g, _ = sens.gradient_of(mlp, X)
    assert g[0, 0] == 0.0  # the kink: relu's derivative at 0 is taken as 0
    rec = sens.input_sensitivity(tmp_path, "net", mlp, X)
    fd = rec["finite_differences"]
    assert fd["excluded"] == 1 and rec["passed"] is True
    # without the exclusion the kink row fails: analytical 0 against 1.5 p (1 - p)
    fd_all = sens.agreement(lambda Z: mlp.predict_proba(Z)[:, 1], X, g, 1e-5, ["x1", "x2"])
    assert fd_all["passed"] is False and "excluded" not in fd_all
    assert fd_all["worst"]["row"] == 0 and fd_all["worst"]["feature"] == "x1"
    assert fd_all["worst"]["finite_difference"] == pytest.approx(1.5 * p[0] * (1 - p[0]), rel=1e-4)


def test_the_steps_are_stored_as_written():
    fd = sens.agreement(lambda Z: Z[:, 0], np.ones((2, 1)), np.ones((2, 1)), 1e-5, ["x"])
    assert fd["eps"] == [1e-05, 0.0001, 1e-06]
    assert json.dumps(fd["eps"]) == "[1e-05, 0.0001, 1e-06]"


def test_a_pipeline_fitted_on_a_dataframe_is_perturbed_as_one_without_warnings(tmp_path):
    import warnings

    import pandas as pd
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = _data()
    frame = pd.DataFrame(X, columns=["age", "dose", "weight"])
    est = make_pipeline(StandardScaler(), LogisticRegression()).fit(frame, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "X does not have valid feature names" would raise
        rec = sens.input_sensitivity(tmp_path, "lr", est, frame, units={"age": "year"})
    assert rec["passed"] is True
    assert [f["name"] for f in rec["features"]] == ["age", "dose", "weight"]
