"""Resampling in chunks (bounded memory when every row is a block) gives the same draws as one matrix."""

import numpy as np

import reportgen.stats.noise as nz


def test_block_bootstrap_chunked_equals_one_matrix(monkeypatch):
    d = np.random.default_rng(0).normal(size=52)
    whole = nz.block_bootstrap(d, resamples=3000, confidence=0.95, rng=np.random.default_rng(1))
    monkeypatch.setattr(nz, "MAX_CELLS", 100)  # chunks of one or two resamples
    chunked = nz.block_bootstrap(d, resamples=3000, confidence=0.95, rng=np.random.default_rng(1))
    np.testing.assert_array_equal(whole["means"], chunked["means"])
    assert (whole["low"], whole["high"]) == (chunked["low"], chunked["high"])


def test_per_seed_chunked_equals_one_matrix(monkeypatch):
    rng = np.random.default_rng(3)
    C, base = rng.normal(size=(4, 40)), rng.normal(size=40)
    kw = dict(seeds=[1, 2, 3, 4], higher_is_better=False, resamples=500, confidence=0.9, primary="bootstrap")
    whole = nz.per_seed_intervals(C, base, rng=np.random.default_rng(5), **kw)
    monkeypatch.setattr(nz, "MAX_CELLS", 50)
    chunked = nz.per_seed_intervals(C, base, rng=np.random.default_rng(5), **kw)
    # same draws; only the summation order of the matrix product differs
    assert [w["seed"] for w in whole] == [c["seed"] for c in chunked]
    for w, c in zip(whole, chunked, strict=True):
        np.testing.assert_allclose([w["gap"], w["low"], w["high"]], [c["gap"], c["low"], c["high"]], rtol=1e-12)
