"""Evaluation noise on paired blocks: the figures of report.json's ``noise.block`` (section 3).

Every gap is "candidate better" positive (section 0).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from reportgen.stats._util import FloatArray, block_counts, paired_blocks, plain, seed_labels
from reportgen.stats.bootstrap import (
    SeedInterval,
    block_bootstrap,
    per_seed_intervals,
    two_level_bootstrap,
    wider_interval,
)
from reportgen.stats.metrics import gaps as signed_gaps
from reportgen.stats.results import Bounds, Reason, Sides, TInterval
from reportgen.stats.ttests import ratio_t, welch

HISTOGRAM_BINS = 40
#: fewer seeds than this on a side: the two-level interval's seed level is coarse
COARSE_BELOW = 5


@dataclass(frozen=True)
class TwoLevel:
    """The two-level bootstrap (seeds and blocks) and the seeds that enter it.

    Attributes
    ----------
    low, high : float or None
    paired : bool
        The seeds were resampled jointly.
    seeds : Sides of int
        Seeds of each model that enter the interval.
    reason : Reason or None
        ``SEEDS_UNSHARED`` (with ``shared``) or ``COARSE_SEED_LEVEL`` (with ``fewest``).
    shared : int or None
        Seed labels both models share, when seeds_paired could not pair them.
    fewest : int or None
        The fewer seeds of the two sides, when the seed level is coarse.
    """

    low: float | None
    high: float | None
    paired: bool
    seeds: Sides[int]
    reason: Reason | None = None
    shared: int | None = None
    fewest: int | None = None


@dataclass(frozen=True)
class Histogram:
    """The bootstrap estimates binned: ``edges`` (bins + 1,) and ``counts`` (bins,)."""

    edges: tuple[float, ...]
    counts: tuple[int, ...]


@dataclass(frozen=True)
class BlockNoise:
    """Evaluation noise on paired blocks: the figures of ``noise.block``.

    Attributes
    ----------
    blocks : int
    rows : int or None
        Rows over the blocks; None without ``counts``.
    gap : float or None
        The row-weighted gap ``sum(g) / sum(n)``.
    low, high : float or None
        The primary interval.
    confidence : float
    resamples : int
    primary : {"bootstrap", "t"} or None
        The wider of the two intervals.
    bootstrap : Bounds
    t : TInterval
    welch : TInterval
        Welch's t on the seed-averaged blocks (``stats.ttests.welch``): what pairing buys.
    per_seed : tuple of SeedInterval
        One per candidate seed (``stats.bootstrap.per_seed_intervals``).
    two_level : TwoLevel
    excludes_zero : bool
        The primary interval excludes zero on either side: wholly above or wholly below it.
    distribution : Histogram or None
    reason : Reason or None
        Why the intervals are None: ``NOTHING_TO_COMPARE``, ``BLOCK_NOT_FINITE``,
        ``ONE_BLOCK``, ``BLOCK_GAPS_ZERO_SPREAD``.
    """

    blocks: int
    confidence: float
    resamples: int
    two_level: TwoLevel
    rows: int | None = None
    gap: float | None = None
    low: float | None = None
    high: float | None = None
    primary: str | None = None
    bootstrap: Bounds = Bounds()
    t: TInterval = TInterval()
    welch: TInterval = TInterval()
    per_seed: tuple[SeedInterval, ...] = ()
    excludes_zero: bool = False
    distribution: Histogram | None = None
    reason: Reason | None = None


def _two_level(
    Ca: FloatArray,
    Ba: FloatArray,
    n: FloatArray,
    *,
    seeds_paired: bool,
    pairs: Any,
    draw: dict[str, Any],
) -> TwoLevel:
    """The two-level interval: the seeds that enter it, its ends and why it is coarse.

    ``draw`` holds ``higher_is_better``, ``resamples``, ``confidence`` and ``rng``.
    """
    s_c, s_b = Ca.shape[0], Ba.shape[0]
    reason, shared, fewest = None, None, None
    paired = bool(seeds_paired)
    if paired and pairs is None:
        pairs = [(i, i) for i in range(min(s_c, s_b))] if s_c == s_b else []
    C2, B2 = Ca, Ba
    if paired:
        idx = list(pairs or [])
        if len(idx) >= 2:
            C2 = Ca[[i for i, _ in idx]]
            B2 = Ba[[j for _, j in idx]]
        else:
            paired = False
            reason, shared = Reason.SEEDS_UNSHARED, len(idx)
    two = two_level_bootstrap(C2, B2, paired=paired, counts=n, **draw)
    if min(C2.shape[0], B2.shape[0]) < COARSE_BELOW and reason is None:
        reason, fewest = Reason.COARSE_SEED_LEVEL, min(C2.shape[0], B2.shape[0])
    return TwoLevel(
        two["low"],
        two["high"],
        paired,
        Sides(int(C2.shape[0]), int(B2.shape[0])),
        reason,
        shared,
        fewest,
    )


def _primary(
    boot: Bounds, t: TInterval, gap: float
) -> tuple[str | None, float | None, float | None, Reason | None]:
    """``primary``, ``low``, ``high`` and ``reason`` of the block line's interval."""
    if t.low is None:
        # zero spread of the linearised block gaps: no interval is shown (never a pass)
        return None, None, None, Reason.BLOCK_GAPS_ZERO_SPREAD
    which, lo, hi = wider_interval(boot, t, gap)
    return which, lo, hi, None


def _unusable(Ca: FloatArray, Ba: FloatArray) -> Reason | None:
    """Why nothing can be computed on these block matrices (empty, NaN), or None."""
    if Ca.shape[0] == 0 or Ba.shape[0] == 0 or Ca.shape[1] == 0:
        return Reason.NOTHING_TO_COMPARE
    if not (np.all(np.isfinite(Ca)) and np.all(np.isfinite(Ba))):
        return Reason.BLOCK_NOT_FINITE
    return None


def _one_block_seeds(
    Ca: FloatArray, Ba: FloatArray, n: FloatArray, seed_list: list[Any], higher_is_better: bool
) -> tuple[SeedInterval, ...]:
    """``per_seed`` on a single block: each seed's gap, no interval."""
    gaps = signed_gaps(Ca, Ba.mean(axis=0)[None, :], higher_is_better).sum(axis=1) / n.sum()
    return tuple(SeedInterval(plain(s), float(v)) for s, v in zip(seed_list, gaps, strict=True))


def block_noise(
    C: Any,
    Bm: Any,
    *,
    candidate_seeds: Any,
    higher_is_better: bool,
    rng: np.random.Generator,
    resamples: int = 2000,
    confidence: float = 0.95,
    seeds_paired: bool = False,
    counts: Any = None,
    pairs: Any = None,
) -> BlockNoise:
    """Evaluation noise on paired blocks: the ``noise.block`` section of report.json.

    The estimand is the test metric over all rows (row-weighted): per block, the
    sign-ruled difference of the two models' seed-averaged row sums ``g_b`` and the
    row count ``n_b``; the gap is ``sum(g) / sum(n)``. ``rng`` is drawn from in a
    fixed order (block bootstrap, per-seed intervals, two-level bootstrap), so equal
    inputs and an equally seeded generator give identical output; nothing is drawn
    with fewer than 2 blocks. The primary interval is the wider of the percentile
    bootstrap and the ratio t interval (both reported).

    Parameters
    ----------
    C : array-like of shape (S_c, B)
        Candidate: per seed, the sum of the per-row metric within each block (the
        mean when ``counts`` is None: every block then weighs the same).
    Bm : array-like of shape (S_b, B)
        Baseline, likewise.
    candidate_seeds : sequence of length S_c
        Seed labels for ``per_seed``.
    higher_is_better : bool
    rng : numpy.random.Generator
        The build makes it once, ``numpy.random.default_rng(rule.random_seed)``.
    resamples : int, default 2000
    confidence : float, default 0.95
    seeds_paired : bool, default False
        Resample seeds jointly in the two-level bootstrap.
    counts : array-like of shape (B,), optional
        Rows per block (shared by both models: they are scored on the same rows).
    pairs : sequence of (int, int), optional
        With ``seeds_paired``: (candidate row, baseline row) of each shared seed
        label. Only these seeds enter the paired two-level bootstrap. Default: row i
        with row i (only when S_c == S_b).

    Returns
    -------
    BlockNoise
        Every interval None (with the reason) on fewer than 2 blocks, an empty or
        non-finite matrix, or block gaps with zero spread.
    """
    Ca, Ba = paired_blocks(C, Bm, confidence)
    seed_list = seed_labels(candidate_seeds, Ca.shape[0], "candidate_seeds")
    two = TwoLevel(None, None, bool(seeds_paired), Sides(int(Ca.shape[0]), int(Ba.shape[0])))
    head = BlockNoise(
        blocks=int(Ca.shape[1]),
        confidence=float(confidence),
        resamples=int(resamples),
        two_level=two,
    )
    unusable = _unusable(Ca, Ba)
    if unusable:
        return replace(head, reason=unusable)
    n = block_counts(counts, Ca.shape[1])
    rows = int(n.sum()) if counts is not None else None
    g = signed_gaps(Ca.mean(axis=0), Ba.mean(axis=0), higher_is_better)
    gap = float(g.sum() / n.sum())
    if Ca.shape[1] < 2:
        per_seed = _one_block_seeds(Ca, Ba, n, seed_list, higher_is_better)
        return replace(head, rows=rows, gap=gap, per_seed=per_seed, reason=Reason.ONE_BLOCK)
    draw = dict(
        higher_is_better=higher_is_better, resamples=resamples, confidence=confidence, rng=rng
    )
    return _intervals(
        replace(head, rows=rows, gap=gap),
        (Ca, Ba, g, n),
        seed_list,
        draw,
        seeds_paired=seeds_paired,
        pairs=pairs,
    )


def _intervals(
    head: BlockNoise,
    blocks: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
    seed_list: list[Any],
    draw: dict[str, Any],
    *,
    seeds_paired: bool,
    pairs: Any,
) -> BlockNoise:
    """``head`` (blocks, rows and gap) with its intervals on 2 or more blocks, from the block
    matrices, block gaps and counts ``blocks``, drawn from ``draw["rng"]`` in order: block
    bootstrap, per-seed intervals, two-level bootstrap."""
    Ca, Ba, g, n = blocks
    hib, confidence = draw["higher_is_better"], draw["confidence"]
    gap = float(g.sum() / n.sum())
    boot = block_bootstrap(
        g, resamples=draw["resamples"], confidence=confidence, rng=draw["rng"], counts=n
    )
    t = ratio_t(g, n, confidence)
    interval = TInterval(t.low, t.high, t.p, t.se, t.df)
    bounds = Bounds(boot["low"], boot["high"])
    b_mean = Ba.mean(axis=0)
    counts_h, edges = np.histogram(boot["means"], bins=HISTOGRAM_BINS)
    welch_t = welch(Ca.mean(axis=0), b_mean, higher_is_better=hib, confidence=confidence, counts=n)
    per_seed = per_seed_intervals(Ca, b_mean, seeds=seed_list, counts=n, **draw)
    two = _two_level(Ca, Ba, n, seeds_paired=seeds_paired, pairs=pairs, draw=draw)
    primary, low, high, reason = _primary(bounds, interval, gap)
    return replace(
        head,
        bootstrap=bounds,
        t=interval,
        welch=welch_t,
        per_seed=per_seed,
        two_level=two,
        primary=primary,
        low=low,
        high=high,
        reason=reason,
        excludes_zero=Bounds(low, high).excludes_zero,
        distribution=Histogram(
            tuple(float(e) for e in edges), tuple(int(c) for c in counts_h.tolist())
        ),
    )
