"""reportgen.sanity: hand-checked numbers, the files it writes, the scikit-learn adapter."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from reportgen import sanity
from reportgen.errors import Problem
from reportgen.project.checkfiles import evaluate, parse_checkfile
from reportgen.sanity.scikit import check_mlp_classifier, check_mlp_regressor


def _read(tmp_path, result):
    return json.loads((tmp_path / result["path"]).read_text())


def test_class_prior_loss_by_hand():
    # -(0.75 ln 0.75 + 0.25 ln 0.25)
    assert sanity.class_prior_loss([0, 0, 0, 1]) == pytest.approx(0.5623351446188083)
    assert sanity.class_prior_loss([0, 1, 2]) == pytest.approx(math.log(3))


def test_initial_loss_against_ln_classes_and_prior(tmp_path):
    r = sanity.initial_loss(tmp_path, "mlp", 0.7, 2)  # ln 2 = 0.693: 0.520 to 1.193 pass
    assert r["passed"] is True and r["path"] == "artefacts/checks/initial_loss-mlp.json"
    assert _read(tmp_path, r) == {
        "check": "initial_loss",
        "model": "mlp",
        "value": 0.7,
        "classes": 2,
        "ln_classes": math.log(2),
    }
    assert sanity.initial_loss(tmp_path, "mlp", 1.19, 2)["passed"] is True
    assert sanity.initial_loss(tmp_path, "mlp", 1.20, 2)["passed"] is False  # > ln 2 + 1/2
    assert sanity.initial_loss(tmp_path, "mlp", 0.51, 2)["passed"] is False  # < 0.75 ln 2
    r = sanity.initial_loss(tmp_path, "mlp", 0.45, 2, y=[0, 0, 0, 1], reference="prior")
    assert r["passed"] is True and "class-prior entropy = 0.5623" in r["text"]
    assert (
        sanity.initial_loss(tmp_path, "mlp", 0.45, 2, y=[0, 0, 0, 1])["passed"] is False
    )  # 0.45 is within reach of the prior entropy 0.562, not of ln 2
    with pytest.raises(ValueError, match="needs y"):
        sanity.initial_loss(tmp_path, "mlp", 0.7, 2, reference="prior")


def test_gradient_check_passes_right_and_finds_wrong_gradient(tmp_path):
    rng = np.random.default_rng(0)
    A, b = rng.normal(size=(7, 5)), rng.normal(size=7)

    def loss(t):
        return 0.5 * float(np.sum((A @ t - b) ** 2))

    theta = rng.normal(size=5)
    good = sanity.gradient_check(tmp_path, "net", loss, lambda t: A.T @ (A @ t - b), theta)
    assert good["passed"] is True and good["max_relative_error"] < 1e-7
    assert good["parameters_checked"] == 5
    # sum of squares has gradient 2t; a gradient of t is off by |2t - t| / (|2t| + |t|) = 1/3
    bad = sanity.gradient_check(tmp_path, "net", lambda t: float(t @ t), lambda t: t, theta)
    assert bad["passed"] is False and bad["max_relative_error"] == pytest.approx(
        1 / 3, rel=1e-3
    )  # written to 4 digits
    sub = sanity.gradient_check(
        tmp_path, "net", loss, lambda t: A.T @ (A @ t - b), theta, max_params=2, rng=rng
    )
    assert sub["parameters_checked"] == 2 and sub["parameters"] == 5


def test_library_gradient_is_credited(tmp_path):
    r = sanity.library_gradient(tmp_path, "mlp", "scikit-learn 1.9.1 MLPClassifier")
    assert r["passed"] is True
    assert (
        r["text"]
        == "gradient from a tested library (scikit-learn 1.9.1 MLPClassifier), not measured"
    )
    # a measured error wins over a citation; neither is a warning, not a credit
    assert evaluate("gradient", {"library": "x", "max_relative_error": 0.5})[0] is False
    warnings: list[Problem] = []
    cf = parse_checkfile('{"check": "gradient", "model": "m"}', "g.json", [], warnings)
    assert cf.passed is None and "tested library" in warnings[0].message


def test_overfit_memorise_or_not(tmp_path):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(100, 3))
    y = (X[:, 0] > 0).astype(int)

    def lookup(Xb, yb):
        table = {tuple(r): v for r, v in zip(Xb, yb, strict=True)}
        return lambda Z: np.array([0.999 if table[tuple(r)] else 0.001 for r in Z])

    r = sanity.overfit(tmp_path, "m", lookup, X, y, rows=32, rng=rng)
    assert r["accuracy"] == 1.0 and r["final_loss"] == pytest.approx(-math.log(0.999), rel=1e-3)
    assert r["passed"] is True and r["rows"] == 32
    r = sanity.overfit(tmp_path, "m", lambda Xb, yb: lambda Z: np.full(len(Z), 0.5), X, y, rng=rng)
    assert r["final_loss"] == pytest.approx(math.log(2), rel=1e-3) and r["passed"] is False


def test_shapes(tmp_path):
    w = np.zeros((3, 4))
    r = sanity.shapes(tmp_path, "m", [sanity.expect_shape("W", w, (3, 4)), ("finite", True)])
    assert r["passed"] is True and r["assertions"] == 2
    r = sanity.shapes(tmp_path, "m", [sanity.expect_shape("W", w, (4, 3))])
    assert r["passed"] is False and r["failed"] == ["W is (4, 3) (got (3, 4))"]


def test_sklearn_mlp_adapter_public_api_only(tmp_path):
    from sklearn.datasets import load_breast_cancer
    from sklearn.neural_network import MLPClassifier
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    est = MLPClassifier(hidden_layer_sizes=(64, 32), random_state=1)
    res = sanity.check_mlp_classifier(tmp_path, "mlp", est, X, y, rng=np.random.default_rng(0))
    by = {r["check"]: r for r in res}
    assert set(by) == {"initial_loss", "gradient", "overfit", "shapes"}
    assert all(r["passed"] for r in res), [r["text"] for r in res]
    assert by["overfit"]["accuracy"] == 1.0 and by["overfit"]["rows"] == 32
    assert by["shapes"]["assertions"] == 15
    assert by["gradient"]["library"].startswith("scikit-learn ")
    # the initial loss is the loss at the initial weights: the same clone, 1e-12 steps apart
    from sklearn.base import clone

    twin = clone(est).set_params(
        solver="sgd", learning_rate_init=1e-12, momentum=0.0, batch_size=len(y), alpha=0.0
    )
    twin.partial_fit(X, y, classes=[0, 1])
    init = by["initial_loss"]
    assert init["random_states"] == [1, 2, 3, 4, 5] and init["inits"] == 5
    assert init["values"][0] == pytest.approx(twin.loss_curve_[0], rel=1e-6)
    assert init["value"] == pytest.approx(np.mean(init["values"]), rel=1e-12)
    assert not hasattr(est, "coefs_")  # the user's estimator is left unfitted
    for r in res:
        cf = parse_checkfile((tmp_path / r["path"]).read_text(), r["path"], [], [])
        assert cf.passed is True


@pytest.mark.parametrize(
    ("adapter", "name"),
    [(check_mlp_classifier, "check_mlp_classifier"), (check_mlp_regressor, "check_mlp_regressor")],
)
def test_a_misspelt_option_is_named_as_the_adapters_own(adapter, name):
    """The options are typed keywords (MlpOptions): a typo names the adapter and the option."""
    with pytest.raises(
        TypeError,
        match=rf"^{name}\(\) got an unexpected keyword argument 'row'; "
        r"did you mean 'rows'\?$",
    ):
        adapter(None, "mlp", None, [[0.0]], [0.0], row=3)
