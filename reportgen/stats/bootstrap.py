"""Bootstrap intervals on paired blocks: block, per-seed and two-level (methods.md section 3).

Every gap is "candidate better" positive (section 0). Every function that resamples
takes a ``numpy.random.Generator`` and draws from it in a documented order, so equal
inputs and an equally seeded generator give identical output.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.stats._util import (
    IntArray,
    as_1d,
    block_counts,
    check_confidence,
    paired_blocks,
    percentile_interval,
    plain,
    row_counts,
    seed_labels,
)
from reportgen.stats.metrics import gaps as signed_gaps
from reportgen.stats.results import Bounds, TInterval
from reportgen.stats.ttests import ratio_t

#: largest resample chunk, in index cells (bounds memory when B is large)
MAX_CELLS = 4_000_000


def resample_index(rng: np.random.Generator, r: int, k: int) -> Iterator[IntArray]:
    """Index matrices for ``r`` resamples of ``k`` units with replacement, in chunks.

    Successive chunks from one generator give the same stream as one ``(r, k)`` draw
    ``rng.integers(0, k, size=(r, k))``. Sums over drawn units are taken by gathering
    (``x[idx].sum(axis=1)``), which is faster than building count matrices and
    multiplying, and needs no BLAS threads.

    Parameters
    ----------
    rng : numpy.random.Generator
        Drawn from in order, one ``integers`` call per chunk.
    r : int
        Resamples.
    k : int
        Units (blocks or seeds) per resample, ``k >= 1``.

    Yields
    ------
    ndarray of int64, shape (chunk, k)
        ``chunk <= max(1, MAX_CELLS // k)`` rows; the chunks add up to ``r`` rows.
    """
    step = max(1, MAX_CELLS // k)
    for i in range(0, r, step):
        yield rng.integers(0, k, size=(min(step, r - i), k))


def block_bootstrap(
    d: Any,
    *,
    resamples: int,
    confidence: float,
    rng: np.random.Generator,
    counts: Any = None,
) -> dict[str, Any]:
    """Percentile bootstrap of the row-weighted gap over resampled blocks.

    Each draw resamples the B blocks with replacement (one ``rng.integers`` matrix,
    drawn in chunks) and takes the ratio estimate ``sum of drawn g / sum of drawn n``;
    percentile interval by ``numpy.percentile`` (linear).

    Parameters
    ----------
    d : array-like of shape (B,)
        Per-block sums of the per-row gap (sign rule applied); with ``counts`` None,
        per-block gaps (each block weighs the same). B >= 1.
    resamples : int
        ``R``.
    confidence : float
    rng : numpy.random.Generator
    counts : array-like of shape (B,), optional
        Rows per block.

    Returns
    -------
    dict
        ``gap`` (sum(d) / sum(n)), ``low``, ``high``, ``means`` (ndarray of shape (R,),
        the bootstrap estimates; not JSON, for the histogram).
    """
    check_confidence(confidence)
    da = as_1d(d, "d")
    if da.size == 0:
        raise ValueError("block_bootstrap needs at least one block gap")
    n = block_counts(counts, da.size)
    # successive chunks from one generator give the same stream as one (R, B) draw
    means = np.concatenate(
        [da[i].sum(axis=1) / n[i].sum(axis=1) for i in resample_index(rng, int(resamples), da.size)]
    )
    low, high = percentile_interval(means, confidence)
    return {"gap": float(da.sum() / n.sum()), "low": low, "high": high, "means": means}


def wider_interval(
    boot: Bounds, t: TInterval, point: float
) -> tuple[str, float | None, float | None]:
    """The primary interval: the wider of bootstrap and t among those that contain ``point``."""
    opts = []
    for name, iv in (("bootstrap", boot), ("t", t)):
        lo, hi = iv.low, iv.high
        if lo is not None and hi is not None and lo <= point <= hi:
            opts.append((hi - lo, name == "t", name, lo, hi))
    if not opts:
        return "t", None, None
    _, _, name, lo, hi = max(opts)
    return name, lo, hi


@dataclass(frozen=True)
class SeedInterval:
    """One candidate network's gap against the baseline's seed mean, with its interval.

    Attributes
    ----------
    seed : Any
        The seed label as given (numpy scalars converted).
    gap : float
    low, high : float or None
    primary : {"bootstrap", "t"} or None
        Which interval ``low`` and ``high`` are; None when there is none.
    """

    seed: Any
    gap: float
    low: float | None = None
    high: float | None = None
    primary: str | None = None


def per_seed_intervals(
    C: Any,
    base_mean: Any,
    *,
    seeds: Any,
    higher_is_better: bool,
    resamples: int,
    confidence: float,
    rng: np.random.Generator,
    primary: str = "wider",
    counts: Any = None,
) -> tuple[SeedInterval, ...]:
    """One interval per trained candidate network against the baseline's seed mean.

    Shows that retraining moves the centre. All seeds share one ``(resamples, B)``
    index matrix (common random numbers, one draw from ``rng``) for the bootstrap;
    the ratio t interval is computed too, and ``primary`` picks which is reported
    ("wider": the wider of the two, as for the headline interval).

    Parameters
    ----------
    C : array-like of shape (S_c, B)
        Per candidate seed, the per-block sums of the per-row metric (means when
        ``counts`` is None).
    base_mean : array-like of shape (B,)
        The baseline's seed-averaged per-block sums (or means).
    seeds : sequence of length S_c
        Seed labels, reported as given (numpy scalars converted).
    higher_is_better : bool
    resamples : int
    confidence : float
    rng : numpy.random.Generator
    primary : {"wider", "bootstrap", "t"}, default "wider"
    counts : array-like of shape (B,), optional

    Returns
    -------
    tuple of SeedInterval, length S_c
    """
    check_confidence(confidence)
    Ca = np.atleast_2d(np.asarray(C, dtype=np.float64))
    bm = as_1d(base_mean, "base_mean")
    seed_list = seed_labels(seeds, Ca.shape[0], "seeds")
    if Ca.shape[1] != bm.size:
        raise ValueError(f"C has {Ca.shape[1]} blocks but base_mean has {bm.size}")
    if primary not in ("bootstrap", "t", "wider"):
        raise ValueError(
            f"primary={primary!r} is not valid. It should be one of ['bootstrap', 't', 'wider']"
        )
    n_blocks = Ca.shape[1]
    n = block_counts(counts, n_blocks)
    D = signed_gaps(Ca, bm[None, :], higher_is_better)  # (S_c, B) gap sums
    gaps = D.sum(axis=1) / n.sum()
    # bootstrap: (S_c, B) @ (B, R) over shared draws, in chunks of resamples
    est = np.concatenate(
        [
            np.stack([row[i].sum(axis=1) for row in D]) / n[i].sum(axis=1)[None, :]
            for i in resample_index(rng, int(resamples), n_blocks)
        ],
        axis=1,
    )  # (S_c, R)
    alpha = (1.0 - confidence) / 2.0
    q = np.percentile(est, [100.0 * alpha, 100.0 * (1.0 - alpha)], axis=1)
    out = []
    for i, s in enumerate(seed_list):
        boot = Bounds(float(q[0, i]), float(q[1, i]))
        t = ratio_t(D[i], n, confidence)  # S_c is small
        if primary == "wider":
            which, lo, hi = wider_interval(boot, t, float(gaps[i]))
        else:
            chosen = boot if primary == "bootstrap" else t
            which, lo, hi = primary, chosen.low, chosen.high
        out.append(SeedInterval(plain(s), float(gaps[i]), lo, hi, which))
    return tuple(out)


def two_level_bootstrap(
    C: Any,
    Bm: Any,
    *,
    higher_is_better: bool,
    paired: bool,
    resamples: int,
    confidence: float,
    rng: np.random.Generator,
    counts: Any = None,
) -> dict[str, Any]:
    """Both noise sources in one interval: resample seeds and blocks in each draw.

    Per draw: the blocks (shared by both models), then the candidate's seeds and the
    baseline's seeds (the same seed indices when ``paired``: rows of ``C`` and ``Bm``
    must then be aligned by seed label), and the row-weighted gap. The estimate is
    bilinear in the seed and block resampling counts, so each draw is
    ``(w_c @ C @ v / S_c - w_b @ Bm @ v / S_b) / (n @ v)`` with count vectors ``w``,
    ``v``: no ``(R, S, B)`` array is built. Draw order from ``rng``: blocks,
    candidate seeds, baseline seeds (omitted when paired).

    Parameters
    ----------
    C : array-like of shape (S_c, B)
        Candidate per-seed block sums of the per-row metric (means when ``counts`` is None).
    Bm : array-like of shape (S_b, B)
        Baseline, likewise.
    higher_is_better : bool
    paired : bool
        Resample seeds jointly; needs ``S_c == S_b``.
    resamples : int
    confidence : float
    rng : numpy.random.Generator
    counts : array-like of shape (B,), optional

    Returns
    -------
    dict
        ``gap`` (row-weighted gap of the seed means on the full sample), ``low``, ``high``.
    """
    Ca, Ba = paired_blocks(C, Bm, confidence)
    (s_c, n_blocks), s_b = Ca.shape, Ba.shape[0]
    if paired and s_c != s_b:
        raise ValueError(f"paired seeds need S_c == S_b, got {s_c} and {s_b}")
    n = block_counts(counts, n_blocks)
    r = int(resamples)
    # Each chunk of block draws is reduced at once to per-seed sums (R, S) and the row
    # counts (R,): the (R, B) count matrix is never held whole. Same draws, same order.
    pc, pb, dn = [], [], []
    for i in resample_index(rng, r, n_blocks):
        pc.append(np.stack([row[i].sum(axis=1) for row in Ca], axis=1))  # (chunk, S_c)
        pb.append(np.stack([row[i].sum(axis=1) for row in Ba], axis=1))
        dn.append(n[i].sum(axis=1))
    Pc, Pb, N = np.concatenate(pc), np.concatenate(pb), np.concatenate(dn)
    w_c = row_counts(rng.integers(0, s_c, size=(r, s_c)), s_c)  # (R, S_c)
    w_b = w_c if paired else row_counts(rng.integers(0, s_b, size=(r, s_b)), s_b)
    cand = np.einsum("rs,rs->r", w_c, Pc) / s_c
    base = np.einsum("rs,rs->r", w_b, Pb) / s_b
    means = signed_gaps(cand, base, higher_is_better) / N
    low, high = percentile_interval(means, confidence)
    point = signed_gaps(Ca.mean(axis=0), Ba.mean(axis=0), higher_is_better).sum() / n.sum()
    return {"gap": float(point), "low": low, "high": high}
