"""Retraining noise (seed spread) and evaluation noise (paired blocks), methods.md sections 2-3.

Every gap is "candidate better" positive (section 0). Functions that produce report
fields return plain floats/ints/lists/dicts with None for what cannot be computed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import special

from reportgen.stats._util import as_1d, percentile_interval, row_counts, to_float
from reportgen.stats.metrics import gap as signed_gap

SD_FROM = ("candidate", "baseline", "larger")
PRIMARY_T_BELOW_BLOCKS = 20
HISTOGRAM_BINS = 40
SPREAD_RTOL = 1e-12
"""Spread below this, relative to the largest |value|, is float rounding: no t interval."""


#: largest resample chunk, in index cells (bounds memory when B is large)
MAX_CELLS = 4_000_000


def _sd(x: np.ndarray) -> float | None:
    """Sample sd (ddof=1), None when fewer than 2 values."""
    return float(np.std(x, ddof=1)) if x.size >= 2 else None


def _no_spread(x: np.ndarray) -> bool:
    """True when the sd is 0 up to float rounding: sd <= 1e-12 * max|x| (ddof=1, n >= 2)."""
    return bool(np.std(x, ddof=1) <= SPREAD_RTOL * np.max(np.abs(x)))


def _mean(x: np.ndarray) -> float | None:
    return float(np.mean(x)) if x.size else None


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence={confidence!r} is not valid. It should be in (0, 1)")


# --------------------------------------------------------------------------- seeds


def seed_rule(
    candidate_values: Any,
    baseline_values: Any,
    *,
    higher_is_better: bool,
    multiple: float = 2.0,
    sd_from: str = "larger",
) -> dict[str, Any]:
    """The seed rule: does the validation gap exceed ``multiple`` seed sds? (section 2)

    Parameters
    ----------
    candidate_values : array-like of shape (S_c,)
        Validation metric per candidate seed.
    baseline_values : array-like of shape (S_b,)
        Validation metric per baseline seed.
    higher_is_better : bool
        Direction of the metric.
    multiple : float, default 2.0
        ``seed_sd_multiple``; the rule passes when ``gap_in_sd > multiple`` (strictly).
    sd_from : {"larger", "candidate", "baseline"}, default "larger"
        Which sd is used. With "larger", both sides need at least 2 seeds.

    Returns
    -------
    dict
        ``n`` {candidate, baseline}; ``sd`` {candidate, baseline} (ddof=1, None when
        n < 2); ``mean`` {candidate, baseline}; ``sd_used``; ``validation_gap`` (gap
        of the seed means, sign rule); ``gap_in_sd`` (None when the sd is unmeasured
        or 0); ``multiple``; ``passes`` (False when unmeasured);
        ``seeds_beating_baseline`` (candidate seeds strictly better than the baseline
        mean; None without baseline seeds); ``reason`` (why ``gap_in_sd`` is None).
    """
    if sd_from not in SD_FROM:
        raise ValueError(f"sd_from={sd_from!r} is not valid. It should be one of {list(SD_FROM)}")
    c = as_1d(candidate_values, "candidate_values")
    b = as_1d(baseline_values, "baseline_values")
    sd_c, sd_b = _sd(c), _sd(b)
    mean_c, mean_b = _mean(c), _mean(b)
    vgap = (
        signed_gap(mean_c, mean_b, higher_is_better)
        if mean_c is not None and mean_b is not None
        else None
    )
    beating = (
        int(np.count_nonzero(signed_gap(c, mean_b, higher_is_better) > 0))
        if mean_b is not None
        else None
    )

    reason: str | None = None
    if sd_from == "larger":
        short = [name for name, s in (("candidate", sd_c), ("baseline", sd_b)) if s is None]
        sd_used = None if short else max(sd_c, sd_b)  # type: ignore[type-var]
        if short:
            reason = (
                f"retraining noise unmeasured: fewer than 2 seeds for the {' and '.join(short)}"
            )
    else:
        sd_used = sd_c if sd_from == "candidate" else sd_b
        if sd_used is None:
            reason = f"retraining noise unmeasured: fewer than 2 seeds for the {sd_from}"

    gap_in_sd: float | None = None
    if reason is None and vgap is None:
        reason = "no validation gap: a model has no seeds"
    elif reason is None and sd_used == 0.0:
        reason = "seed sd is 0: the seeds agree exactly, so the gap cannot be scaled by it"
    elif reason is None:
        gap_in_sd = to_float(vgap / sd_used)  # type: ignore[operator]

    return {
        "n": {"candidate": int(c.size), "baseline": int(b.size)},
        "sd": {"candidate": sd_c, "baseline": sd_b},
        "mean": {"candidate": mean_c, "baseline": mean_b},
        "sd_used": sd_used,
        "validation_gap": vgap,
        "gap_in_sd": gap_in_sd,
        "multiple": float(multiple),
        "passes": bool(gap_in_sd is not None and gap_in_sd > multiple),
        "seeds_beating_baseline": beating,
        "reason": reason,
    }


def paired_seeds(
    candidate_values: Any,
    baseline_values: Any,
    *,
    higher_is_better: bool,
    confidence: float = 0.95,
) -> dict[str, Any]:
    """Per-seed differences ``d_i`` (seed i against seed i) with a Student t interval.

    Uses ``scipy.stats.ttest_rel(candidate, baseline)`` for higher-is-better and
    ``ttest_rel(baseline, candidate)`` otherwise, so the interval is on the gap.

    Parameters
    ----------
    candidate_values, baseline_values : array-like of shape (n,)
        Metric per seed, aligned by seed.
    higher_is_better : bool
    confidence : float, default 0.95

    Returns
    -------
    dict
        ``n``, ``mean``, ``sd`` (ddof=1), ``low``, ``high``, ``p`` (two-sided),
        ``reason``. All but ``n`` None when n < 2 (``mean`` is kept when n == 1);
        interval and p None when the differences have zero spread (up to float
        rounding, see ``SPREAD_RTOL``).
    """
    _check_confidence(confidence)
    c = as_1d(candidate_values, "candidate_values")
    b = as_1d(baseline_values, "baseline_values")
    if c.size != b.size:
        raise ValueError(
            f"paired seeds need one baseline seed per candidate seed, got {c.size} and {b.size}"
        )
    d = signed_gap(c, b, higher_is_better)
    out: dict[str, Any] = {
        "n": int(c.size),
        "mean": _mean(d),
        "sd": _sd(d),
        "low": None,
        "high": None,
        "p": None,
        "reason": None,
    }
    if c.size < 2:
        out["reason"] = f"{c.size} paired seed(s): a t interval needs at least 2"
        return out
    if _no_spread(d):
        out["reason"] = "the per-seed differences are all equal: zero spread, no t interval"
        return out
    # equals scipy.stats.ttest_rel(first, second) with first = the better-direction side
    low, high, p = t_test(
        float(np.mean(d)), float(np.std(d, ddof=1)) / np.sqrt(d.size), d.size - 1, confidence
    )
    out.update(low=low, high=high, p=p)
    return out


# --------------------------------------------------------------------------- blocks


def t_test(mean: float, se: float, df: float, confidence: float) -> tuple[float, float, float]:
    """Student t interval ``mean -/+ q * se`` and the two-sided p-value of ``mean / se``.

    Uses scipy.special (stdtrit, stdtr), the same functions scipy.stats' t distribution
    calls, without importing scipy.stats (about half a second at start-up).
    """
    q = float(special.stdtrit(df, 1.0 - (1.0 - confidence) / 2.0))
    p = float(2.0 * special.stdtr(df, -abs(mean / se)))
    return mean - q * se, mean + q * se, min(p, 1.0)


def paired_t(d: Any, confidence: float) -> dict[str, Any]:
    """One-sample t interval and two-sided p-value on block gaps ``d`` (scipy ttest_1samp).

    Parameters
    ----------
    d : array-like of shape (B,)
        Per-block gaps, sign rule applied.
    confidence : float

    Returns
    -------
    dict
        ``low``, ``high``, ``p``, ``se`` (sd / sqrt(B)), ``df`` (B - 1). None values
        when B < 2; interval and p None when the gaps have zero spread (up to
        float rounding, see ``SPREAD_RTOL``).
    """
    _check_confidence(confidence)
    da = as_1d(d, "d")
    out: dict[str, Any] = {"low": None, "high": None, "p": None, "se": None, "df": None}
    if da.size < 2:
        return out
    sd = float(np.std(da, ddof=1))
    out["se"] = sd / float(np.sqrt(da.size))
    out["df"] = int(da.size - 1)
    if _no_spread(da):
        return out
    # equals scipy.stats.ttest_1samp(d, 0).confidence_interval(confidence)
    low, high, p = t_test(float(da.mean()), out["se"], out["df"], confidence)
    out.update(low=low, high=high, p=p)
    return out


def block_bootstrap(
    d: Any, *, resamples: int, confidence: float, rng: np.random.Generator
) -> dict[str, Any]:
    """Percentile bootstrap of the mean block gap.

    Draws one ``(resamples, B)`` index matrix with ``rng.integers`` and averages each
    row; percentile interval by ``numpy.percentile`` (linear).

    Parameters
    ----------
    d : array-like of shape (B,)
        Per-block gaps, sign rule applied; B >= 1.
    resamples : int
        ``R``.
    confidence : float
    rng : numpy.random.Generator

    Returns
    -------
    dict
        ``gap`` (mean of d), ``low``, ``high``, ``means`` (ndarray of shape (R,), the
        bootstrap means; not JSON, for the histogram).
    """
    _check_confidence(confidence)
    da = as_1d(d, "d")
    if da.size == 0:
        raise ValueError("block_bootstrap needs at least one block gap")
    # resample rows in chunks so memory stays bounded when every row is a block (B large);
    # successive draws from one generator give the same stream as one (R, B) draw
    r, b = int(resamples), da.size
    step = max(1, MAX_CELLS // b)
    means = np.concatenate(
        [da[rng.integers(0, b, size=(min(step, r - i), b))].mean(axis=1) for i in range(0, r, step)]
    )
    low, high = percentile_interval(means, confidence)
    return {"gap": float(da.mean()), "low": low, "high": high, "means": means}


def welch(
    candidate_blocks: Any,
    baseline_blocks: Any,
    *,
    higher_is_better: bool,
    confidence: float,
) -> dict[str, Any]:
    """Unpaired Welch contrast on the two models' block means: what pairing buys.

    ``scipy.stats.ttest_ind(equal_var=False)``, ordered so the interval is on the gap.

    Parameters
    ----------
    candidate_blocks, baseline_blocks : array-like of shape (B_c,), (B_b,)
        Seed-averaged block means per model.
    higher_is_better : bool
    confidence : float

    Returns
    -------
    dict
        ``se`` (sqrt(var_c/B_c + var_b/B_b)), ``p``, ``low``, ``high``, ``df``
        (Welch-Satterthwaite). None values with fewer than 2 blocks on a side or
        zero spread on both.
    """
    _check_confidence(confidence)
    c = as_1d(candidate_blocks, "candidate_blocks")
    b = as_1d(baseline_blocks, "baseline_blocks")
    out: dict[str, Any] = {"se": None, "p": None, "low": None, "high": None, "df": None}
    if c.size < 2 or b.size < 2:
        return out
    se = float(np.sqrt(np.var(c, ddof=1) / c.size + np.var(b, ddof=1) / b.size))
    out["se"] = se
    if _no_spread(c) and _no_spread(b):
        return out
    # equals scipy.stats.ttest_ind(first, second, equal_var=False) (Welch-Satterthwaite df)
    first, second = (c, b) if higher_is_better else (b, c)
    v1, v2 = np.var(first, ddof=1) / first.size, np.var(second, ddof=1) / second.size
    df = float((v1 + v2) ** 2 / (v1**2 / (first.size - 1) + v2**2 / (second.size - 1)))
    low, high, p = t_test(float(first.mean() - second.mean()), se, df, confidence)
    out.update(p=p, low=low, high=high, df=df)
    return out


def per_seed_intervals(
    C: Any,
    base_mean: Any,
    *,
    seeds: Any,
    higher_is_better: bool,
    resamples: int,
    confidence: float,
    rng: np.random.Generator,
    primary: str,
) -> list[dict[str, Any]]:
    """One interval per trained candidate network against the baseline's seed mean.

    Shows that retraining moves the centre. With ``primary="bootstrap"`` all seeds
    share one ``(resamples, B)`` index matrix (common random numbers, one draw from
    ``rng``); with ``"t"`` the paired t interval is used and ``rng`` is not touched.

    Parameters
    ----------
    C : array-like of shape (S_c, B)
        Per candidate seed, mean per-row metric within each block.
    base_mean : array-like of shape (B,)
        The baseline's seed-averaged block means.
    seeds : sequence of length S_c
        Seed labels, reported as given (numpy scalars converted).
    higher_is_better : bool
    resamples : int
    confidence : float
    rng : numpy.random.Generator
    primary : {"bootstrap", "t"}

    Returns
    -------
    list of dict, length S_c
        ``{"seed", "gap", "low", "high"}``.
    """
    _check_confidence(confidence)
    Ca = np.atleast_2d(np.asarray(C, dtype=np.float64))
    bm = as_1d(base_mean, "base_mean")
    seed_list = list(np.asarray(seeds, dtype=object).tolist())
    if len(seed_list) != Ca.shape[0]:
        raise ValueError(f"seeds has {len(seed_list)} labels for {Ca.shape[0]} candidate seeds")
    if Ca.shape[1] != bm.size:
        raise ValueError(f"C has {Ca.shape[1]} blocks but base_mean has {bm.size}")
    if primary not in ("bootstrap", "t"):
        raise ValueError(
            f"primary={primary!r} is not valid. It should be one of ['bootstrap', 't']"
        )
    D = signed_gap(Ca, bm[None, :], higher_is_better)  # (S_c, B)
    gaps = D.mean(axis=1)
    n_blocks = D.shape[1]
    lows: list[float | None]
    highs: list[float | None]
    if primary == "bootstrap" and n_blocks >= 1:
        # sum over resampled blocks via counts: (S_c, B) @ (B, R), in chunks of resamples
        r, step = int(resamples), max(1, MAX_CELLS // n_blocks)
        means = np.concatenate(
            [
                (
                    D
                    @ row_counts(
                        rng.integers(0, n_blocks, size=(min(step, r - i), n_blocks)), n_blocks
                    ).T
                )
                / n_blocks
                for i in range(0, r, step)
            ],
            axis=1,
        )  # (S_c, R)
        alpha = (1.0 - confidence) / 2.0
        q = np.percentile(means, [100.0 * alpha, 100.0 * (1.0 - alpha)], axis=1)
        lows, highs = [float(v) for v in q[0]], [float(v) for v in q[1]]
    else:
        ts = [paired_t(row, confidence) for row in D]  # S_c is small; scipy per seed
        lows, highs = [t["low"] for t in ts], [t["high"] for t in ts]
    return [
        {"seed": _plain(s), "gap": float(g), "low": lo, "high": hi}
        for s, g, lo, hi in zip(seed_list, gaps, lows, highs, strict=True)
    ]


def _plain(x: Any) -> Any:
    """numpy scalar -> Python scalar; other values unchanged."""
    return x.item() if isinstance(x, np.generic) else x


def two_level_bootstrap(
    C: Any,
    Bm: Any,
    *,
    higher_is_better: bool,
    paired: bool,
    resamples: int,
    confidence: float,
    rng: np.random.Generator,
) -> dict[str, Any]:
    """Both noise sources in one interval: resample seeds and blocks in each draw.

    Per draw: the blocks (shared by both models), then the candidate's seeds and the
    baseline's seeds (the same seed indices when ``paired``), and the mean gap. The
    estimate is bilinear in the seed and block resampling counts, so each draw is
    ``w_c @ C @ v / (S_c B) - w_b @ Bm @ v / (S_b B)`` with count vectors ``w``, ``v``:
    no ``(R, S, B)`` array is built. Draw order from ``rng``: blocks, candidate
    seeds, baseline seeds (omitted when paired).

    Parameters
    ----------
    C : array-like of shape (S_c, B)
        Candidate per-seed block means (raw metric).
    Bm : array-like of shape (S_b, B)
        Baseline per-seed block means (raw metric).
    higher_is_better : bool
    paired : bool
        Resample seeds jointly; needs ``S_c == S_b``.
    resamples : int
    confidence : float
    rng : numpy.random.Generator

    Returns
    -------
    dict
        ``gap`` (mean gap on the full sample), ``low``, ``high``.
    """
    _check_confidence(confidence)
    Ca = np.atleast_2d(np.asarray(C, dtype=np.float64))
    Ba = np.atleast_2d(np.asarray(Bm, dtype=np.float64))
    s_c, n_blocks = Ca.shape
    s_b = Ba.shape[0]
    if Ba.shape[1] != n_blocks:
        raise ValueError(f"C has {n_blocks} blocks but Bm has {Ba.shape[1]}")
    if paired and s_c != s_b:
        raise ValueError(f"paired seeds need S_c == S_b, got {s_c} and {s_b}")
    r = int(resamples)
    # The mean gap of draw r is linear in its block counts v[r]:
    #   (1/B) * sum_b v[r, b] * (w_c[r] @ Ca[:, b] / s_c - w_b[r] @ Ba[:, b] / s_b)
    # so each chunk of block draws is reduced at once to per-seed sums (R, S) and the
    # (R, B) count matrix is never held whole. Same draws, same order as one (R, B) matrix.
    step = max(1, MAX_CELLS // n_blocks)
    pc, pb = [], []
    for i in range(0, r, step):
        v = row_counts(rng.integers(0, n_blocks, size=(min(step, r - i), n_blocks)), n_blocks)
        pc.append(v @ Ca.T)  # (chunk, S_c): resampled block sums per candidate seed
        pb.append(v @ Ba.T)
    Pc, Pb = np.concatenate(pc), np.concatenate(pb)
    w_c = row_counts(rng.integers(0, s_c, size=(r, s_c)), s_c)  # (R, S_c)
    w_b = w_c if paired else row_counts(rng.integers(0, s_b, size=(r, s_b)), s_b)
    cand = np.einsum("rs,rs->r", w_c, Pc) / s_c
    base = np.einsum("rs,rs->r", w_b, Pb) / s_b
    means = signed_gap(cand, base, higher_is_better) / n_blocks
    low, high = percentile_interval(means, confidence)
    point = signed_gap(Ca.mean(axis=0), Ba.mean(axis=0), higher_is_better).mean()
    return {"gap": float(point), "low": low, "high": high}


def block_noise(
    C: Any,
    Bm: Any,
    *,
    candidate_seeds: Any,
    higher_is_better: bool,
    resamples: int = 2000,
    confidence: float = 0.95,
    random_seed: int = 0,
    seeds_paired: bool = False,
) -> dict[str, Any]:
    """Evaluation noise on paired blocks: the ``noise.block`` section of report.json.

    Block gaps ``d_b`` are the sign-ruled differences of the two models' seed-averaged
    block means. One generator ``numpy.random.default_rng(random_seed)`` is used in a
    fixed order (block bootstrap, per-seed intervals, two-level bootstrap), so equal
    inputs give identical output.

    Parameters
    ----------
    C : array-like of shape (S_c, B)
        Candidate: per seed, the mean per-row metric within each block (raw metric).
    Bm : array-like of shape (S_b, B)
        Baseline, likewise.
    candidate_seeds : sequence of length S_c
        Seed labels for ``per_seed``.
    higher_is_better : bool
    resamples : int, default 2000
    confidence : float, default 0.95
    random_seed : int, default 0
    seeds_paired : bool, default False
        Resample seeds jointly in the two-level bootstrap (needs S_c == S_b).

    Returns
    -------
    dict
        ``blocks``, ``gap``, ``low``, ``high`` (the primary interval), ``confidence``,
        ``resamples``, ``primary`` ("t" under 20 blocks, else "bootstrap"),
        ``primary_reason``, ``bootstrap`` {low, high}, ``t`` {low, high, p, se, df},
        ``welch`` {se, p, low, high, df}, ``per_seed`` [{seed, gap, low, high}],
        ``two_level`` {low, high, paired, seeds {candidate, baseline}, reason},
        ``excludes_zero`` (primary low > 0), ``distribution`` {edges (41,), counts
        (40,)} of the bootstrap means, ``reason`` (why intervals are None).
    """
    _check_confidence(confidence)
    Ca = np.atleast_2d(np.asarray(C, dtype=np.float64))
    Ba = np.atleast_2d(np.asarray(Bm, dtype=np.float64))
    s_c, n_blocks = Ca.shape
    s_b = Ba.shape[0]
    if Ba.shape[1] != n_blocks:
        raise ValueError(f"C has {n_blocks} blocks but Bm has {Ba.shape[1]}")
    seed_list = list(np.asarray(candidate_seeds, dtype=object).tolist())
    if len(seed_list) != s_c:
        raise ValueError(f"candidate_seeds has {len(seed_list)} labels for {s_c} candidate seeds")

    primary = "t" if n_blocks < PRIMARY_T_BELOW_BLOCKS else "bootstrap"
    primary_reason = (
        f"{n_blocks} blocks (< {PRIMARY_T_BELOW_BLOCKS}): the block bootstrap undercovers, "
        "so the paired t interval is primary"
        if primary == "t"
        else None
    )
    out: dict[str, Any] = {
        "blocks": int(n_blocks),
        "gap": None,
        "low": None,
        "high": None,
        "confidence": float(confidence),
        "resamples": int(resamples),
        "primary": primary,
        "primary_reason": primary_reason,
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
    if s_c == 0 or s_b == 0 or n_blocks == 0:
        out["reason"] = "no blocks or no seeds: nothing to compare"
        return out
    if not (np.all(np.isfinite(Ca)) and np.all(np.isfinite(Ba))):
        out["reason"] = "a block mean is NaN or infinite (empty block?): intervals not computed"
        return out
    c_mean, b_mean = Ca.mean(axis=0), Ba.mean(axis=0)
    d = signed_gap(c_mean, b_mean, higher_is_better)
    out["gap"] = float(d.mean())
    if n_blocks < 2:
        out["reason"] = f"{n_blocks} block: an interval needs at least 2"
        out["per_seed"] = [
            {"seed": _plain(s), "gap": float(g), "low": None, "high": None}
            for s, g in zip(
                seed_list,
                signed_gap(Ca, b_mean[None, :], higher_is_better).mean(axis=1),
                strict=True,
            )
        ]
        return out

    rng = np.random.default_rng(random_seed)
    boot = block_bootstrap(d, resamples=resamples, confidence=confidence, rng=rng)
    t = paired_t(d, confidence)
    out["bootstrap"] = {"low": boot["low"], "high": boot["high"]}
    out["t"] = t
    out["welch"] = welch(c_mean, b_mean, higher_is_better=higher_is_better, confidence=confidence)
    out["per_seed"] = per_seed_intervals(
        Ca,
        b_mean,
        seeds=seed_list,
        higher_is_better=higher_is_better,
        resamples=resamples,
        confidence=confidence,
        rng=rng,
        primary=primary,
    )
    if seeds_paired and s_c != s_b:
        out["two_level"]["reason"] = (
            f"seeds_paired but {s_c} candidate and {s_b} baseline seeds: cannot pair"
        )
    else:
        two = two_level_bootstrap(
            Ca,
            Ba,
            higher_is_better=higher_is_better,
            paired=seeds_paired,
            resamples=resamples,
            confidence=confidence,
            rng=rng,
        )
        out["two_level"].update(low=two["low"], high=two["high"])
        if min(s_c, s_b) < 5:
            out["two_level"]["reason"] = (
                f"{min(s_c, s_b)} seed(s) on a side: the seed level of this interval is coarse"
            )
    chosen = t if primary == "t" else boot
    out["low"], out["high"] = chosen["low"], chosen["high"]
    if out["low"] is None:
        out["reason"] = "the block gaps have zero spread: the t interval is undefined"
    out["excludes_zero"] = bool(out["low"] is not None and out["low"] > 0)
    counts, edges = np.histogram(boot["means"], bins=HISTOGRAM_BINS)
    out["distribution"] = {"edges": [float(e) for e in edges], "counts": counts.tolist()}
    return out
