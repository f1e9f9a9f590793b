"""Resampling in chunks (bounded memory when every row is a block) gives the same draws as one matrix."""

import numpy as np

import reportgen.stats.bootstrap as bs


def test_block_bootstrap_chunked_equals_one_matrix(monkeypatch):
    d = np.random.default_rng(0).normal(size=52)
    whole = bs.block_bootstrap(d, resamples=3000, confidence=0.95, rng=np.random.default_rng(1))
    monkeypatch.setattr(bs, "MAX_CELLS", 100)  # chunks of one or two resamples
    chunked = bs.block_bootstrap(d, resamples=3000, confidence=0.95, rng=np.random.default_rng(1))
    # same draws; only the summation order of the matrix product may differ
    np.testing.assert_allclose(whole["means"], chunked["means"], rtol=1e-12)
    np.testing.assert_allclose(
        [whole["low"], whole["high"]], [chunked["low"], chunked["high"]], rtol=1e-12
    )


def test_per_seed_chunked_equals_one_matrix(monkeypatch):
    rng = np.random.default_rng(3)
    C, base = rng.normal(size=(4, 40)), rng.normal(size=40)
    kw = dict(
        seeds=[1, 2, 3, 4],
        higher_is_better=False,
        resamples=500,
        confidence=0.9,
        primary="bootstrap",
    )
    whole = bs.per_seed_intervals(C, base, rng=np.random.default_rng(5), **kw)
    monkeypatch.setattr(bs, "MAX_CELLS", 50)
    chunked = bs.per_seed_intervals(C, base, rng=np.random.default_rng(5), **kw)
    # same draws; only the summation order of the matrix product differs
    assert [w.seed for w in whole] == [c.seed for c in chunked]
    for w, c in zip(whole, chunked, strict=True):
        np.testing.assert_allclose([w.gap, w.low, w.high], [c.gap, c.low, c.high], rtol=1e-12)


def test_two_level_chunked_equals_one_matrix(monkeypatch):
    rng = np.random.default_rng(9)
    C, B = rng.normal(size=(5, 60)), rng.normal(size=(4, 60))
    kw = dict(higher_is_better=True, paired=False, resamples=700, confidence=0.95)
    whole = bs.two_level_bootstrap(C, B, rng=np.random.default_rng(2), **kw)
    monkeypatch.setattr(bs, "MAX_CELLS", 120)  # two resamples per chunk
    chunked = bs.two_level_bootstrap(C, B, rng=np.random.default_rng(2), **kw)
    np.testing.assert_allclose(
        [whole["low"], whole["high"]], [chunked["low"], chunked["high"]], rtol=1e-12
    )
    assert whole["gap"] == chunked["gap"]


def test_two_level_memory_is_bounded_with_many_blocks():
    # every row a block: 50,000 blocks x 2000 resamples would be 0.8 GB as one count matrix
    rng = np.random.default_rng(4)
    C, B = rng.normal(size=(3, 50_000)), rng.normal(size=(3, 50_000))
    out = bs.two_level_bootstrap(
        C,
        B,
        higher_is_better=False,
        paired=True,
        resamples=2000,
        confidence=0.9,
        rng=np.random.default_rng(0),
    )
    assert out["low"] <= out["gap"] <= out["high"]
