"""Multi-class and regression figures against scikit-learn and against binning by hand."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import metrics as skm

from reportgen.stats import multiclass as mc
from reportgen.stats import regression as rg
from reportgen.stats.described import block_statistic_gap

TOL = 1e-12


def _data(k: int, n: int = 400, seed: int = 0):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, k)) * 1.5
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    y = np.array([rng.choice(k, p=row) for row in p])
    return y, p


@pytest.mark.parametrize("k", [3, 10])
def test_multiclass_metrics_match_sklearn(k):
    y, p = _data(k)
    labels = list(range(k))
    assert mc.per_row_metric("log_loss", y, p).mean() == pytest.approx(
        skm.log_loss(y, p, labels=labels), rel=TOL
    )
    assert mc.per_row_metric("brier", y, p).mean() == pytest.approx(
        skm.brier_score_loss(y, p, labels=labels), rel=TOL
    )
    # the multi-class Brier is the sum over classes of each class's one-vs-rest Brier
    per_class = sum(skm.brier_score_loss(y == c, p[:, c]) for c in labels)
    assert mc.per_row_metric("brier", y, p).mean() == pytest.approx(per_class, rel=TOL)
    acc = skm.accuracy_score(y, p.argmax(axis=1))
    assert mc.per_row_metric("accuracy", y, p).mean() == pytest.approx(acc, rel=TOL)
    assert mc.per_row_metric("error_rate", y, p).mean() == pytest.approx(1 - acc, rel=TOL)


def test_two_class_brier_is_the_binary_brier():
    y, p = _data(2)
    assert mc.per_row_metric("brier", y, p).mean() == pytest.approx(
        np.mean((p[:, 1] - y) ** 2), rel=TOL
    )
    assert mc.per_row_metric("brier", y, p).mean() == pytest.approx(
        skm.brier_score_loss(y, p), rel=TOL
    )  # scikit-learn's scale_by_half="auto" halves two columns too


def test_log_loss_clips_like_sklearn():
    y = np.array([0, 1, 2])
    p = np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    assert mc.per_row_metric("log_loss", y, p).mean() == pytest.approx(
        skm.log_loss(y, p, labels=[0, 1, 2]), rel=TOL
    )


@pytest.mark.parametrize("k", [3, 10])
def test_confusion_recall_precision_f1_match_sklearn(k):
    y, p = _data(k, seed=1)
    y[y == k - 1] = 0  # one class never occurs
    hat = p.argmax(axis=1)
    conf = mc.confusion(y, hat, k)
    assert conf.tolist() == skm.confusion_matrix(y, hat, labels=list(range(k))).tolist()
    per = mc.per_class(conf)
    rec = skm.recall_score(y, hat, labels=list(range(k)), average=None, zero_division=np.nan)
    prec = skm.precision_score(y, hat, labels=list(range(k)), average=None, zero_division=np.nan)
    for c in range(k):
        for ours, theirs in ((per[c].recall, rec[c]), (per[c].precision, prec[c])):
            if np.isnan(theirs):
                assert ours is None
            else:
                assert ours == pytest.approx(theirs, rel=TOL)
    assert per[k - 1].rows == 0 and per[k - 1].recall is None
    assert mc.macro_f1(conf) == pytest.approx(skm.f1_score(y, hat, average="macro"), rel=TOL)
    assert mc.macro_f1_batch(conf[None])[0] == pytest.approx(mc.macro_f1(conf), rel=TOL)
    norm = mc.row_normalised(conf)
    assert norm[k - 1] is None
    assert norm[0] == pytest.approx((conf[0] / conf[0].sum()).tolist(), rel=TOL)


def _ece_by_hand(score, hit, bins):
    """Equal-width bins, the last closed, one Python loop per row."""
    total, n = 0.0, len(score)
    members = [[] for _ in range(bins)]
    for s, h in zip(score, hit, strict=True):
        b = min(int(s * bins), bins - 1)
        members[b].append((s, h))
    for rows in members:
        if rows:
            total += len(rows) * abs(np.mean([s for s, _ in rows]) - np.mean([h for _, h in rows]))
    return total / n


@pytest.mark.parametrize("bins", [5, 10])
def test_top_label_and_classwise_ece_by_hand(bins):
    y, p = _data(4, seed=2)
    top = mc.top_label(y, p, bins)
    assert top.ece == pytest.approx(
        _ece_by_hand(p.max(axis=1), (p.argmax(axis=1) == y).astype(float), bins), rel=1e-12
    )
    assert sum(b.count for b in top.bins) == len(y)
    cw = mc.classwise_ece(y, p, bins)
    want = [_ece_by_hand(p[:, c], (y == c).astype(float), bins) for c in range(4)]
    assert cw.per_class == pytest.approx(want, rel=1e-12)
    assert cw.mean == pytest.approx(np.mean(want), rel=1e-12)


def test_regression_metrics_match_sklearn():
    rng = np.random.default_rng(3)
    y = rng.normal(150, 70, size=300)
    y_pred = y + rng.normal(5, 40, size=300)
    s = rg.summary(y, y_pred)
    assert s.mse == pytest.approx(skm.mean_squared_error(y, y_pred), rel=TOL)
    assert s.rmse == pytest.approx(skm.root_mean_squared_error(y, y_pred), rel=TOL)
    assert s.mae == pytest.approx(skm.mean_absolute_error(y, y_pred), rel=TOL)
    assert s.r2 == pytest.approx(skm.r2_score(y, y_pred), rel=TOL)
    assert s.mean_residual == pytest.approx(np.mean(y - y_pred), rel=TOL)
    for name, ref in (
        ("squared_error", skm.mean_squared_error),
        ("absolute_error", skm.mean_absolute_error),
    ):
        assert rg.per_row_metric(name, y, y_pred).mean() == pytest.approx(ref(y, y_pred), rel=TOL)


def test_regression_by_group_matches_pandas():
    import pandas as pd

    rng = np.random.default_rng(4)
    y = rng.normal(size=200)
    y_pred = y + rng.normal(size=200)
    codes = rng.integers(0, 4, size=200)
    got = rg.by_group(codes, y, y_pred, 5)
    assert got[4].rows == 0 and got[4].mse is None
    frame = pd.DataFrame({"g": codes, "y": y, "p": y_pred})
    for g, part in frame.groupby("g"):
        assert got[g].rows == len(part)
        assert got[g].mse == pytest.approx(skm.mean_squared_error(part.y, part.p), rel=1e-12)
        assert got[g].mae == pytest.approx(skm.mean_absolute_error(part.y, part.p), rel=1e-12)
        assert got[g].r2 == pytest.approx(skm.r2_score(part.y, part.p), rel=1e-10)


def test_thin_points_keeps_the_range():
    rng = np.random.default_rng(5)
    y = rng.normal(size=2000)
    keep = rg.thin_points(y, y, 500)
    assert 490 <= keep.size <= 500
    assert y[keep].min() == y.min() and y[keep].max() == y.max()
    assert rg.thin_points(y[:10], y[:10], 500).size == 10


def test_r2_from_block_sums_is_r2_of_the_rows():
    rng = np.random.default_rng(6)
    y = rng.normal(size=120)
    y_pred = 0.5 * y + rng.normal(size=120)
    codes = np.repeat(np.arange(12), 10)
    sums = rg.r2_block_stats(codes, y, y_pred, 12)
    assert rg.r2_from_sums(sums.sum(axis=0)) == pytest.approx(skm.r2_score(y, y_pred), rel=1e-10)


def test_block_bootstrap_of_a_recomputed_metric_by_brute_force():
    """Resampled blocks, the metric recomputed from each draw's rows, the same index matrix."""
    rng = np.random.default_rng(7)
    k, n_blocks, per = 3, 15, 12
    y = rng.integers(0, k, size=n_blocks * per)
    hat_c = np.where(rng.random(y.size) < 0.7, y, rng.integers(0, k, size=y.size))
    hat_b = np.where(rng.random(y.size) < 0.6, y, rng.integers(0, k, size=y.size))
    codes = np.repeat(np.arange(n_blocks), per)

    def stats(hat):
        flat = np.bincount((codes * k + y) * k + hat, minlength=n_blocks * k * k)
        return flat.reshape(n_blocks, k * k)[None].astype(float)

    def statistic(s):
        return mc.macro_f1_batch(s.reshape(-1, k, k)).reshape(s.shape[:-1])

    res = block_statistic_gap(
        stats(hat_c),
        stats(hat_b),
        statistic,
        higher_is_better=True,
        resamples=300,
        confidence=0.9,
        rng=np.random.default_rng(11),
    )
    assert res.candidate == pytest.approx(skm.f1_score(y, hat_c, average="macro"), rel=TOL)
    assert res.gap == pytest.approx(
        skm.f1_score(y, hat_c, average="macro") - skm.f1_score(y, hat_b, average="macro"), rel=TOL
    )
    idx = np.random.default_rng(11).integers(0, n_blocks, size=(300, n_blocks))
    draws = []
    for row in idx:
        rows = np.concatenate([np.flatnonzero(codes == b) for b in row])
        draws.append(
            skm.f1_score(y[rows], hat_c[rows], average="macro")
            - skm.f1_score(y[rows], hat_b[rows], average="macro")
        )
    lo, hi = np.percentile(draws, [5, 95])
    assert (res.low, res.high) == pytest.approx((lo, hi), rel=1e-10)
    assert res.low <= res.gap <= res.high


def _confusion_stats(k: int, n_blocks: int, accuracy: float, seed: int):
    """(1, B, k*k) confusion counts of one network, one row per block."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, size=n_blocks)
    hat = np.where(rng.random(n_blocks) < accuracy, y, rng.integers(0, k, size=n_blocks))
    flat = np.bincount((np.arange(n_blocks) * k + y) * k + hat, minlength=n_blocks * k * k)
    return flat.reshape(1, n_blocks, k * k).astype(float)


def _macro_f1_gap(k: int, cand, base, resamples: int):
    def statistic(s):
        return mc.macro_f1_batch(s.reshape(-1, k, k)).reshape(s.shape[:-1])

    return block_statistic_gap(
        cand,
        base,
        statistic,
        higher_is_better=True,
        resamples=resamples,
        confidence=0.9,
        rng=np.random.default_rng(3),
    )


def test_a_macro_f1_bootstrap_over_many_classes_holds_one_batch_of_resamples_at_a_time(
    monkeypatch,
):
    import tracemalloc

    from reportgen.stats import described

    k, n_blocks = 100, 20
    cand, base = _confusion_stats(k, n_blocks, 0.7, 1), _confusion_stats(k, n_blocks, 0.5, 2)
    monkeypatch.setattr(described, "MEMORY_BYTES", 16 * 2**20)
    tracemalloc.start()
    try:
        res = _macro_f1_gap(k, cand, base, resamples=2000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert res.low is not None and res.resamples == 2000
    assert peak < 40 * 2**20  # all 2,000 resamples at once: over 300 MiB


def test_batching_the_resamples_by_memory_leaves_the_interval_unchanged(monkeypatch):
    from reportgen.stats import described

    k, n_blocks = 12, 30
    cand, base = _confusion_stats(k, n_blocks, 0.8, 4), _confusion_stats(k, n_blocks, 0.6, 5)
    whole = _macro_f1_gap(k, cand, base, resamples=500)
    monkeypatch.setattr(described, "MEMORY_BYTES", 1)
    assert described.resamples_per_batch(1, k * k) == 1
    assert _macro_f1_gap(k, cand, base, resamples=500) == whole
