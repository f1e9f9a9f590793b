"""Evaluation noise on paired blocks: the figures of report.json's ``noise.block`` (section 3).

Every gap is "candidate better" positive (section 0).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from reportgen.stats._util import block_counts, paired_blocks, plain, seed_labels
from reportgen.stats.bootstrap import (
    block_bootstrap,
    per_seed_intervals,
    two_level_bootstrap,
    wider_interval,
)
from reportgen.stats.metrics import gap as signed_gap
from reportgen.stats.ttests import ratio_t, welch

HISTOGRAM_BINS = 40


def _section(
    n_blocks: int, s_c: int, s_b: int, confidence: float, resamples: int, seeds_paired: bool
) -> dict[str, Any]:
    """The ``noise.block`` section with every figure None: what is filled in when it can be."""
    return {
        "blocks": int(n_blocks),
        "rows": None,
        "gap": None,
        "low": None,
        "high": None,
        "confidence": float(confidence),
        "resamples": int(resamples),
        "primary": None,
        "primary_reason": None,  # the sentence: checks/noise.py writes it
        "bootstrap": {"low": None, "high": None},
        "t": {"low": None, "high": None, "p": None, "se": None, "df": None},
        "welch": {"se": None, "p": None, "low": None, "high": None, "df": None},
        "per_seed": [],
        "two_level": {
            "low": None,
            "high": None,
            "paired": bool(seeds_paired),
            "seeds": {"candidate": int(s_c), "baseline": int(s_b)},
            "reason": None,
        },
        "excludes_zero": False,
        "distribution": None,
        "reason": None,
    }


def _two_level(
    Ca: np.ndarray,
    Ba: np.ndarray,
    n: np.ndarray,
    *,
    seeds_paired: bool,
    pairs: Any,
    draw: dict[str, Any],
) -> dict[str, Any]:
    """``noise.block.two_level``: the seeds that enter it, its interval and why it is coarse.

    ``draw`` holds ``higher_is_better``, ``resamples``, ``confidence`` and ``rng``.
    """
    s_c, s_b = Ca.shape[0], Ba.shape[0]
    reason = None
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
            reason = (
                f"seeds_paired, but only {len(idx)} seed label(s) are shared by both models: "
                "seeds resampled independently"
            )
    two = two_level_bootstrap(C2, B2, paired=paired, counts=n, **draw)
    if min(C2.shape[0], B2.shape[0]) < 5 and reason is None:
        reason = (
            f"{min(C2.shape[0], B2.shape[0])} seed(s) on a side: the seed level of this interval "
            "is coarse"
        )
    return {
        "low": two["low"],
        "high": two["high"],
        "paired": paired,
        "seeds": {"candidate": int(C2.shape[0]), "baseline": int(B2.shape[0])},
        "reason": reason,
    }


def _primary(boot: dict, t: dict, gap: float) -> dict[str, Any]:
    """``primary``, ``low``, ``high`` and ``reason`` of ``noise.block`` (checks/noise.py says
    why the primary is the one it is: ``primary_reason``)."""
    if t["low"] is None:
        # zero spread of the linearised block gaps: no interval is shown (never a pass)
        return {
            "primary": None,
            "reason": (
                "the block gaps have zero spread (every block gives the same row-weighted gap): "
                "no interval"
            ),
        }
    which, lo, hi = wider_interval(boot, t, gap)
    return {"primary": which, "low": lo, "high": hi}


def _unusable(Ca: np.ndarray, Ba: np.ndarray) -> str | None:
    """Why nothing can be computed on these block matrices (empty, NaN), or None."""
    if Ca.shape[0] == 0 or Ba.shape[0] == 0 or Ca.shape[1] == 0:
        return "no blocks or no seeds: nothing to compare"
    if not (np.all(np.isfinite(Ca)) and np.all(np.isfinite(Ba))):
        return "a block value is NaN or infinite: intervals not computed"
    return None


def _one_block_seeds(
    Ca: np.ndarray, Ba: np.ndarray, n: np.ndarray, seed_list: list, higher_is_better: bool
) -> list[dict[str, Any]]:
    """``per_seed`` on a single block: each seed's gap, no interval."""
    gaps = signed_gap(Ca, Ba.mean(axis=0)[None, :], higher_is_better).sum(axis=1) / n.sum()
    return [
        {"seed": plain(s), "gap": float(v), "low": None, "high": None, "primary": None}
        for s, v in zip(seed_list, gaps, strict=True)
    ]


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
) -> dict[str, Any]:
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
    dict
        ``blocks``, ``rows``, ``gap``, ``low``, ``high`` (the primary interval),
        ``confidence``, ``resamples``, ``primary`` ("bootstrap" or "t", the wider),
        ``primary_reason`` (None: the sentence is the caller's), ``bootstrap`` {low, high}, ``t`` {low, high, p, se, df},
        ``welch`` {se, p, low, high, df}, ``per_seed`` [{seed, gap, low, high,
        primary}], ``two_level`` {low, high, paired, seeds {candidate, baseline},
        reason}, ``excludes_zero`` (primary low > 0), ``distribution`` {edges (41,),
        counts (40,)} of the bootstrap estimates, ``reason`` (why intervals are None).
    """
    Ca, Ba = paired_blocks(C, Bm, confidence)
    seed_list = seed_labels(candidate_seeds, Ca.shape[0], "candidate_seeds")
    out = _section(Ca.shape[1], Ca.shape[0], Ba.shape[0], confidence, resamples, seeds_paired)
    out["reason"] = _unusable(Ca, Ba)
    if out["reason"]:
        return out
    n = block_counts(counts, Ca.shape[1])
    out["rows"] = int(n.sum()) if counts is not None else None
    g = signed_gap(Ca.mean(axis=0), Ba.mean(axis=0), higher_is_better)
    out["gap"] = float(g.sum() / n.sum())
    if Ca.shape[1] < 2:
        out["reason"] = "1 block: an interval needs at least 2"
        out["per_seed"] = _one_block_seeds(Ca, Ba, n, seed_list, higher_is_better)
        return out
    draw = dict(
        higher_is_better=higher_is_better, resamples=resamples, confidence=confidence, rng=rng
    )
    out.update(_intervals(Ca, Ba, g, n, seed_list, draw, seeds_paired=seeds_paired, pairs=pairs))
    out["excludes_zero"] = bool(out["low"] is not None and out["low"] > 0)
    return out


def _intervals(
    Ca: np.ndarray,
    Ba: np.ndarray,
    g: np.ndarray,
    n: np.ndarray,
    seed_list: list,
    draw: dict[str, Any],
    *,
    seeds_paired: bool,
    pairs: Any,
) -> dict[str, Any]:
    """The intervals of ``noise.block`` on 2 or more blocks, drawn from ``draw["rng"]`` in order:
    block bootstrap, per-seed intervals, two-level bootstrap."""
    hib, confidence = draw["higher_is_better"], draw["confidence"]
    gap = float(g.sum() / n.sum())
    boot = block_bootstrap(
        g, resamples=draw["resamples"], confidence=confidence, rng=draw["rng"], counts=n
    )
    t = ratio_t(g, n, confidence)
    b_mean = Ba.mean(axis=0)
    counts_h, edges = np.histogram(boot["means"], bins=HISTOGRAM_BINS)
    return {
        "bootstrap": {"low": boot["low"], "high": boot["high"]},
        "t": {k: t[k] for k in ("low", "high", "p", "se", "df")},
        "welch": welch(
            Ca.mean(axis=0), b_mean, higher_is_better=hib, confidence=confidence, counts=n
        ),
        "per_seed": per_seed_intervals(Ca, b_mean, seeds=seed_list, counts=n, **draw),
        "two_level": _two_level(Ca, Ba, n, seeds_paired=seeds_paired, pairs=pairs, draw=draw),
        **_primary(boot, t, gap),
        "distribution": {"edges": [float(e) for e in edges], "counts": counts_h.tolist()},
    }
