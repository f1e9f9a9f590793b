"""Per-row metrics against scikit-learn, and the sign rule."""

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, brier_score_loss, log_loss

from reportgen.stats.metrics import HIGHER_IS_BETTER, gap, per_row_metric


def _tied_data(seed, n=500, decimals=1):
    rng = np.random.default_rng(seed)
    p = np.round(rng.random(n), decimals)
    y = (rng.random(n) < p).astype(int)
    return p, y


def test_direction_registry():
    assert HIGHER_IS_BETTER == {
        "log_loss": False,
        "brier": False,
        "accuracy": True,
        "error_rate": False,
        "cost": False,
    }


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("decimals", [1, 2])
def test_means_equal_sklearn(seed, decimals):
    p, y = _tied_data(seed, decimals=decimals)
    # include exact 0 and 1 to exercise the clipping
    p[:3] = [0.0, 1.0, 1.0]
    y[:3] = [1, 0, 1]
    assert per_row_metric("log_loss", y=y, p=p).mean() == pytest.approx(
        log_loss(y, p, labels=[0, 1]), rel=1e-12
    )
    assert per_row_metric("brier", y=y, p=p).mean() == pytest.approx(
        brier_score_loss(y, p), rel=1e-12
    )
    acc = accuracy_score(y, (p >= 0.5).astype(int))
    assert per_row_metric("accuracy", y=y, p=p).mean() == pytest.approx(acc, rel=1e-15)
    assert per_row_metric("error_rate", y=y, p=p).mean() == pytest.approx(1 - acc, rel=1e-12)


def test_log_loss_clips_like_sklearn():
    eps = np.finfo(np.float64).eps
    v = per_row_metric("log_loss", y=[1, 0], p=[0.0, 1.0])
    assert v == pytest.approx([-np.log(eps), -np.log(eps)], rel=1e-15)


def test_accuracy_threshold_is_inclusive_and_correct_overrides():
    v = per_row_metric("accuracy", y=[1, 0, 1], p=[0.5, 0.5, 0.49])
    assert v.tolist() == [1.0, 0.0, 0.0]
    assert per_row_metric("accuracy", correct=[True, False]).tolist() == [1.0, 0.0]
    assert per_row_metric("error_rate", correct=[True, False]).tolist() == [0.0, 1.0]


def test_cost_per_row(example):
    p, y = example
    # t = 0.4 predicts rows 2-4 positive: row 2 is a FP; no FN
    v = per_row_metric("cost", y=y, p=p, threshold=0.4, c_fp=1.0, c_fn=3.0)
    assert v.tolist() == [0.0, 1.0, 0.0, 0.0]
    # t = 0.5: only 0.9 predicted positive: the positive at 0.4 is a FN
    v = per_row_metric("cost", y=y, p=p, threshold=0.5, c_fp=1.0, c_fn=3.0)
    assert v.tolist() == [0.0, 0.0, 3.0, 0.0]


def test_unknown_metric_named():
    with pytest.raises(ValueError, match="auc.*log_loss"):
        per_row_metric("auc", y=[1], p=[0.5])


def test_bad_label_named():
    with pytest.raises(ValueError, match="y=2 is not a valid label"):
        per_row_metric("brier", y=[0, 2], p=[0.5, 0.5])


def test_gap_sign_rule():
    assert gap(0.30, 0.35, higher_is_better=False) == pytest.approx(0.05)
    assert gap(0.70, 0.65, higher_is_better=True) == pytest.approx(0.05)
    assert gap(0.40, 0.35, higher_is_better=False) == pytest.approx(-0.05)
    assert isinstance(gap(1, 2, True), float)
    g = gap(np.array([1.0, 2.0]), np.array([2.0, 2.0]), higher_is_better=False)
    assert g.tolist() == [1.0, 0.0]
