"""Speed of the stats hot paths against naive versions; prints a table.

Run: .venv/bin/python bench/bench_stats.py

Timings are best-of-k wall times. The naive threshold search (one pass over all
rows per candidate threshold) is timed on a smaller N and extrapolated
quadratically to 1,000,000 rows, since with continuous scores the number of
candidates grows with N; the table says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from reportgen.stats.bootstrap import block_bootstrap, two_level_bootstrap
from reportgen.stats.threshold import PREDICT_NONE, choose_threshold, select_from_curve


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``repeat`` calls, in seconds (after one warm-up call)."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


# ----------------------------------------------------------------- naive references


def naive_block_bootstrap(d: np.ndarray, resamples: int, rng: np.random.Generator) -> np.ndarray:
    b = d.size
    return np.array([d[rng.integers(0, b, size=b)].mean() for _ in range(resamples)])


def naive_two_level(
    C: np.ndarray, Bm: np.ndarray, resamples: int, rng: np.random.Generator
) -> np.ndarray:
    s_c, b = C.shape
    s_b = Bm.shape[0]
    out = np.empty(resamples)
    for r in range(resamples):
        bi = rng.integers(0, b, size=b)
        sc = rng.integers(0, s_c, size=s_c)
        sb = rng.integers(0, s_b, size=s_b)
        out[r] = Bm[sb][:, bi].mean() - C[sc][:, bi].mean()
    return out


def materialised_two_level(
    C: np.ndarray, Bm: np.ndarray, resamples: int, rng: np.random.Generator
) -> np.ndarray:
    """Vectorised but builds (R, S, B) gathers: the design the bilinear form avoids."""
    s_c, b = C.shape
    s_b = Bm.shape[0]
    bi = rng.integers(0, b, size=(resamples, b))
    sc = rng.integers(0, s_c, size=(resamples, s_c))
    sb = rng.integers(0, s_b, size=(resamples, s_b))
    c = C[sc[:, :, None], bi[:, None, :]].mean(axis=(1, 2))
    base = Bm[sb[:, :, None], bi[:, None, :]].mean(axis=(1, 2))
    return base - c


def naive_threshold(p: np.ndarray, y: np.ndarray, c_fp: float, c_fn: float) -> float | None:
    """One pass over all rows per candidate threshold (numpy inside the pass)."""
    cands = np.unique(np.concatenate((p, [0.5, PREDICT_NONE])))
    costs = np.empty(cands.size)
    neg = ~y
    for i, t in enumerate(cands):
        pred = p >= t
        costs[i] = (
            c_fp * np.count_nonzero(pred & neg) + c_fn * np.count_nonzero(~pred & y)
        ) / p.size
    return select_from_curve(cands, costs)


# ----------------------------------------------------------------- main


def main() -> None:
    rng = np.random.default_rng(0)
    rows: list[tuple[str, float, float, str, str]] = []

    # block bootstrap: 52 blocks x 10,000 resamples
    d = rng.normal(0.005, 0.02, 52)
    fast = best_of(
        lambda: block_bootstrap(d, resamples=10_000, confidence=0.95, rng=np.random.default_rng(1)),
        repeat=20,
    )
    slow = best_of(lambda: naive_block_bootstrap(d, 10_000, np.random.default_rng(1)), repeat=3)
    rows.append(
        ("block bootstrap 52 x 10,000", fast, slow, "< 20 ms", "Python loop over resamples")
    )

    # two-level bootstrap: 10 seeds x 52 blocks x 10,000 resamples
    C = rng.normal(0.30, 0.02, (10, 52))
    Bm = rng.normal(0.31, 0.02, (10, 52))
    fast = best_of(
        lambda: two_level_bootstrap(
            C,
            Bm,
            higher_is_better=False,
            paired=False,
            resamples=10_000,
            confidence=0.95,
            rng=np.random.default_rng(1),
        ),
        repeat=10,
    )
    slow = best_of(lambda: naive_two_level(C, Bm, 10_000, np.random.default_rng(1)), repeat=2)
    mat = best_of(lambda: materialised_two_level(C, Bm, 10_000, np.random.default_rng(1)), repeat=3)
    rows.append(
        ("two-level 10 x 52 x 10,000", fast, slow, "< 100 ms", "Python loop over resamples")
    )
    rows.append(("two-level 10 x 52 x 10,000", fast, mat, "", "vectorised (R,S,B) gather"))

    # threshold search on 1,000,000 validation rows (continuous scores: ~N candidates)
    n_big, n_small = 1_000_000, 20_000
    p = rng.random(n_big)
    y = rng.random(n_big) < p
    fast = best_of(lambda: choose_threshold(p, y, 1.0, 3.0), repeat=5)
    ps, ys = p[:n_small], y[:n_small]
    assert choose_threshold(ps, ys, 1.0, 3.0) == naive_threshold(ps, ys, 1.0, 3.0)
    fast_small = best_of(lambda: choose_threshold(ps, ys, 1.0, 3.0), repeat=10)
    slow_small = best_of(lambda: naive_threshold(ps, ys, 1.0, 3.0), repeat=2)
    slow_extrapolated = slow_small * (n_big / n_small) ** 2
    rows.append(("threshold 20,000 rows", fast_small, slow_small, "", "one pass per candidate"))
    rows.append(
        (
            "threshold 1,000,000 rows",
            fast,
            slow_extrapolated,
            "< 0.3 s",
            "one pass per candidate, EXTRAPOLATED x(50^2) from 20,000",
        )
    )
    p2 = np.round(p, 2)
    fast_tied = best_of(lambda: choose_threshold(p2, y, 1.0, 3.0), repeat=5)
    rows.append(("threshold 1,000,000 rows, 2-dp ties", fast_tied, float("nan"), "< 0.3 s", "-"))

    print(f"{'case':<38} {'ours':>11} {'naive':>12} {'ratio':>9}  {'target':<9} naive is")
    print("-" * 120)
    for name, f, s, target, what in rows:
        ratio = f"{s / f:8.0f}x" if np.isfinite(s) else "-"
        naive = f"{s * 1e3:10.1f}ms" if np.isfinite(s) else "-"
        print(f"{name:<38} {f * 1e3:9.2f}ms {naive:>12} {ratio:>9}  {target:<9} {what}")


if __name__ == "__main__":
    main()
