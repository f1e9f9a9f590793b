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

    zero = {
        name: s is not None and _no_spread(x)
        for name, s, x in (("candidate", sd_c, c), ("baseline", sd_b, b))
    }
    note: str | None = None
    trivial = False
    if reason is None and sd_from != "larger" and zero[sd_from]:
        other = "baseline" if sd_from == "candidate" else "candidate"
        other_sd = sd_b if other == "baseline" else sd_c
        if other_sd is not None and not zero[other]:
            sd_used = other_sd
            note = (
                f"the {sd_from} has zero seed spread (deterministic, e.g. logistic regression): "
                f"the {other}'s sd is used"
            )
    elif reason is None and sd_from == "larger":
        det = [k for k, z in zero.items() if z]
        if len(det) == 1:
            note = (
                f"the {det[0]} has zero seed spread (deterministic, e.g. logistic regression, which "
                f"is normal): the {'baseline' if det[0] == 'candidate' else 'candidate'}'s sd is used"
            )
    gap_in_sd: float | None = None
    if reason is None and vgap is None:
        reason = "no validation gap: a model has no seeds"
    elif reason is None and (sd_used == 0.0 or (zero["candidate"] and zero["baseline"])):
        trivial = True
        reason = (
            "both models have zero seed spread (deterministic training): the seed rule is "
            "trivially met when the gap is positive, and the evaluation line carries the decision"
        )
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
        "passes": bool(
            (gap_in_sd is not None and gap_in_sd > multiple)
            or (trivial and vgap is not None and vgap > 0)
        ),
        "trivial": trivial,
        "deterministic": [k for k, z in zero.items() if z],
        "note": note,
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


def _counts(counts: Any, n_blocks: int) -> np.ndarray:
    """Rows per block as float64 (all ones when None); every count must be > 0."""
    if counts is None:
        return np.ones(n_blocks)
    n = as_1d(counts, "counts")
    if n.size != n_blocks:
        raise ValueError(f"counts has {n.size} blocks but the sums have {n_blocks}")
    if np.any(n <= 0) or not np.all(np.isfinite(n)):
        raise ValueError("counts must be positive and finite (an empty block has no rows)")
    return n


def ratio_var(g: np.ndarray, n: np.ndarray) -> float:
    """Delta-method (linearisation) variance of ``sum(g) / sum(n)`` over B sampled blocks.

    ``B / (B - 1) * sum((g_b - R n_b)^2) / sum(n)^2`` with ``R = sum(g) / sum(n)``: the
    cluster-sampling ratio variance. With equal blocks (n_b = m) it is exactly
    ``var(g / m, ddof=1) / B``, the one-sample t variance of the per-block means.
    """
    b = g.size
    r = g.sum() / n.sum()
    e = g - r * n
    return float(b / (b - 1) * np.sum(e * e) / n.sum() ** 2)


def ratio_t(g: Any, counts: Any, confidence: float) -> dict[str, Any]:
    """Paired t interval on the row-weighted gap ``sum(g) / sum(n)`` (ratio standard error).

    Parameters
    ----------
    g : array-like of shape (B,)
        Per-block sums of the per-row gap (sign rule applied).
    counts : array-like of shape (B,), optional
        Rows per block (all ones when None: ``g`` are then per-block gaps and this is
        ``paired_t``).
    confidence : float

    Returns
    -------
    dict
        ``gap``, ``low``, ``high``, ``p``, ``se`` (delta-method ratio se), ``df``
        (B - 1). Interval and p None with fewer than 2 blocks or zero spread of the
        linearised residuals ``g_b - R n_b`` (up to float rounding). The interval is
        ``gap -/+ q se``, so it always contains its own point estimate.
    """
    _check_confidence(confidence)
    ga = as_1d(g, "g")
    n = _counts(counts, ga.size)
    out: dict[str, Any] = {
        "gap": None,
        "low": None,
        "high": None,
        "p": None,
        "se": None,
        "df": None,
    }
    if ga.size == 0:
        return out
    r = float(ga.sum() / n.sum())
    out["gap"] = r
    if ga.size < 2:
        return out
    out["se"] = float(np.sqrt(ratio_var(ga, n)))
    out["df"] = int(ga.size - 1)
    resid = ga - r * n
    scale = max(float(np.max(np.abs(ga))), float(np.max(np.abs(r * n))), 1e-300)
    if float(np.max(np.abs(resid))) <= 1e3 * SPREAD_RTOL * scale or out["se"] == 0.0:
        return out
    low, high, p = t_test(r, out["se"], out["df"], confidence)
    out.update(low=low, high=high, p=p)
    return out


def _resample_idx(rng: np.random.Generator, r: int, k: int):
    """Yield (chunk, k) index matrices for ``r`` resamples of ``k`` units, in chunks.

    Successive chunks from one generator give the same stream as one (r, k) draw. Sums over
    drawn units are taken by gathering (``x[idx].sum(axis=1)``), which is faster than
    building count matrices and multiplying, and needs no BLAS threads.
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
    _check_confidence(confidence)
    da = as_1d(d, "d")
    if da.size == 0:
        raise ValueError("block_bootstrap needs at least one block gap")
    n = _counts(counts, da.size)
    # successive chunks from one generator give the same stream as one (R, B) draw
    means = np.concatenate(
        [da[i].sum(axis=1) / n[i].sum(axis=1) for i in _resample_idx(rng, int(resamples), da.size)]
    )
    low, high = percentile_interval(means, confidence)
    return {"gap": float(da.sum() / n.sum()), "low": low, "high": high, "means": means}


def welch(
    candidate_blocks: Any,
    baseline_blocks: Any,
    *,
    higher_is_better: bool,
    confidence: float,
    counts: Any = None,
) -> dict[str, Any]:
    """Unpaired contrast on the same estimand: what pairing buys.

    Each model's row-weighted metric ``sum / N`` gets its own ratio (delta-method)
    variance; ``se = sqrt(v_c + v_b)`` with Welch-Satterthwaite df. With equal blocks
    this is ``scipy.stats.ttest_ind(equal_var=False)`` on the block means.

    Parameters
    ----------
    candidate_blocks, baseline_blocks : array-like of shape (B,)
        Seed-averaged per-block sums of the per-row metric (per-block means when
        ``counts`` is None). Unequal lengths are allowed only without counts.
    higher_is_better : bool
    confidence : float
    counts : array-like of shape (B,), optional

    Returns
    -------
    dict
        ``se``, ``p``, ``low``, ``high``, ``df``. None values with fewer than 2
        blocks on a side or zero spread on both.
    """
    _check_confidence(confidence)
    c = as_1d(candidate_blocks, "candidate_blocks")
    b = as_1d(baseline_blocks, "baseline_blocks")
    out: dict[str, Any] = {"se": None, "p": None, "low": None, "high": None, "df": None}
    if c.size < 2 or b.size < 2:
        return out
    nc = _counts(counts, c.size)
    nb = _counts(counts, b.size)
    v1, v2 = ratio_var(c, nc), ratio_var(b, nb)
    se = float(np.sqrt(v1 + v2))
    out["se"] = se
    if se == 0.0 or (_no_spread(c / nc) and _no_spread(b / nb)):
        return out
    rc, rb = float(c.sum() / nc.sum()), float(b.sum() / nb.sum())
    first, second = (rc, rb) if higher_is_better else (rb, rc)
    df = float((v1 + v2) ** 2 / (v1**2 / (c.size - 1) + v2**2 / (b.size - 1)))
    low, high, p = t_test(first - second, se, df, confidence)
    out.update(p=p, low=low, high=high, df=df)
    return out


def wider_interval(boot: dict, t: dict, point: float) -> tuple[str, float | None, float | None]:
    """The primary interval: the wider of bootstrap and t among those that contain ``point``."""
    opts = []
    for name, iv in (("bootstrap", boot), ("t", t)):
        lo, hi = iv.get("low"), iv.get("high")
        if lo is not None and hi is not None and lo <= point <= hi:
            opts.append((hi - lo, name == "t", name, lo, hi))
    if not opts:
        return "t", None, None
    _, _, name, lo, hi = max(opts)
    return name, lo, hi


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
) -> list[dict[str, Any]]:
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
    list of dict, length S_c
        ``{"seed", "gap", "low", "high", "primary"}``.
    """
    _check_confidence(confidence)
    Ca = np.atleast_2d(np.asarray(C, dtype=np.float64))
    bm = as_1d(base_mean, "base_mean")
    seed_list = list(np.asarray(seeds, dtype=object).tolist())
    if len(seed_list) != Ca.shape[0]:
        raise ValueError(f"seeds has {len(seed_list)} labels for {Ca.shape[0]} candidate seeds")
    if Ca.shape[1] != bm.size:
        raise ValueError(f"C has {Ca.shape[1]} blocks but base_mean has {bm.size}")
    if primary not in ("bootstrap", "t", "wider"):
        raise ValueError(
            f"primary={primary!r} is not valid. It should be one of ['bootstrap', 't', 'wider']"
        )
    n_blocks = Ca.shape[1]
    n = _counts(counts, n_blocks)
    D = signed_gap(Ca, bm[None, :], higher_is_better)  # (S_c, B) gap sums
    gaps = D.sum(axis=1) / n.sum()
    # bootstrap: (S_c, B) @ (B, R) over shared draws, in chunks of resamples
    est = np.concatenate(
        [
            np.stack([row[i].sum(axis=1) for row in D]) / n[i].sum(axis=1)[None, :]
            for i in _resample_idx(rng, int(resamples), n_blocks)
        ],
        axis=1,
    )  # (S_c, R)
    alpha = (1.0 - confidence) / 2.0
    q = np.percentile(est, [100.0 * alpha, 100.0 * (1.0 - alpha)], axis=1)
    out = []
    for i, s in enumerate(seed_list):
        boot = {"low": float(q[0, i]), "high": float(q[1, i])}
        t = ratio_t(D[i], n, confidence)  # S_c is small
        if primary == "wider":
            which, lo, hi = wider_interval(boot, t, float(gaps[i]))
        else:
            which, lo, hi = (
                primary,
                (boot if primary == "bootstrap" else t)["low"],
                (boot if primary == "bootstrap" else t)["high"],
            )
        out.append(
            {"seed": _plain(s), "gap": float(gaps[i]), "low": lo, "high": hi, "primary": which}
        )
    return out


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
    _check_confidence(confidence)
    Ca = np.atleast_2d(np.asarray(C, dtype=np.float64))
    Ba = np.atleast_2d(np.asarray(Bm, dtype=np.float64))
    s_c, n_blocks = Ca.shape
    s_b = Ba.shape[0]
    if Ba.shape[1] != n_blocks:
        raise ValueError(f"C has {n_blocks} blocks but Bm has {Ba.shape[1]}")
    if paired and s_c != s_b:
        raise ValueError(f"paired seeds need S_c == S_b, got {s_c} and {s_b}")
    n = _counts(counts, n_blocks)
    r = int(resamples)
    # Each chunk of block draws is reduced at once to per-seed sums (R, S) and the row
    # counts (R,): the (R, B) count matrix is never held whole. Same draws, same order.
    pc, pb, dn = [], [], []
    for i in _resample_idx(rng, r, n_blocks):
        pc.append(np.stack([row[i].sum(axis=1) for row in Ca], axis=1))  # (chunk, S_c)
        pb.append(np.stack([row[i].sum(axis=1) for row in Ba], axis=1))
        dn.append(n[i].sum(axis=1))
    Pc, Pb, N = np.concatenate(pc), np.concatenate(pb), np.concatenate(dn)
    w_c = row_counts(rng.integers(0, s_c, size=(r, s_c)), s_c)  # (R, S_c)
    w_b = w_c if paired else row_counts(rng.integers(0, s_b, size=(r, s_b)), s_b)
    cand = np.einsum("rs,rs->r", w_c, Pc) / s_c
    base = np.einsum("rs,rs->r", w_b, Pb) / s_b
    means = signed_gap(cand, base, higher_is_better) / N
    low, high = percentile_interval(means, confidence)
    point = signed_gap(Ca.mean(axis=0), Ba.mean(axis=0), higher_is_better).sum() / n.sum()
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
    counts: Any = None,
    pairs: Any = None,
) -> dict[str, Any]:
    """Evaluation noise on paired blocks: the ``noise.block`` section of report.json.

    The estimand is the test metric over all rows (row-weighted): per block, the
    sign-ruled difference of the two models' seed-averaged row sums ``g_b`` and the
    row count ``n_b``; the gap is ``sum(g) / sum(n)``. One generator
    ``numpy.random.default_rng(random_seed)`` is used in a fixed order (block
    bootstrap, per-seed intervals, two-level bootstrap), so equal inputs give
    identical output. The primary interval is the wider of the percentile bootstrap
    and the ratio t interval (both reported).

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
    resamples : int, default 2000
    confidence : float, default 0.95
    random_seed : int, default 0
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
        ``primary_reason``, ``bootstrap`` {low, high}, ``t`` {low, high, p, se, df},
        ``welch`` {se, p, low, high, df}, ``per_seed`` [{seed, gap, low, high,
        primary}], ``two_level`` {low, high, paired, seeds {candidate, baseline},
        reason}, ``excludes_zero`` (primary low > 0), ``distribution`` {edges (41,),
        counts (40,)} of the bootstrap estimates, ``reason`` (why intervals are None).
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
    out: dict[str, Any] = {
        "blocks": int(n_blocks),
        "rows": None,
        "gap": None,
        "low": None,
        "high": None,
        "confidence": float(confidence),
        "resamples": int(resamples),
        "primary": None,
        "primary_reason": None,
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
        out["reason"] = "a block value is NaN or infinite: intervals not computed"
        return out
    n = _counts(counts, n_blocks)
    out["rows"] = int(n.sum()) if counts is not None else None
    c_mean, b_mean = Ca.mean(axis=0), Ba.mean(axis=0)
    g = signed_gap(c_mean, b_mean, higher_is_better)
    out["gap"] = float(g.sum() / n.sum())
    if n_blocks < 2:
        out["reason"] = "1 block: an interval needs at least 2"
        out["per_seed"] = [
            {"seed": _plain(s), "gap": float(v), "low": None, "high": None, "primary": None}
            for s, v in zip(
                seed_list,
                signed_gap(Ca, b_mean[None, :], higher_is_better).sum(axis=1) / n.sum(),
                strict=True,
            )
        ]
        return out

    rng = np.random.default_rng(random_seed)
    boot = block_bootstrap(g, resamples=resamples, confidence=confidence, rng=rng, counts=n)
    t = ratio_t(g, n, confidence)
    out["bootstrap"] = {"low": boot["low"], "high": boot["high"]}
    out["t"] = {k: t[k] for k in ("low", "high", "p", "se", "df")}
    out["welch"] = welch(
        c_mean, b_mean, higher_is_better=higher_is_better, confidence=confidence, counts=n
    )
    out["per_seed"] = per_seed_intervals(
        Ca,
        b_mean,
        seeds=seed_list,
        higher_is_better=higher_is_better,
        resamples=resamples,
        confidence=confidence,
        rng=rng,
        counts=n,
    )
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
            out["two_level"]["reason"] = (
                f"seeds_paired, but only {len(idx)} seed label(s) are shared by both models: "
                "seeds resampled independently"
            )
    out["two_level"]["paired"] = paired
    out["two_level"]["seeds"] = {"candidate": int(C2.shape[0]), "baseline": int(B2.shape[0])}
    two = two_level_bootstrap(
        C2,
        B2,
        higher_is_better=higher_is_better,
        paired=paired,
        resamples=resamples,
        confidence=confidence,
        rng=rng,
        counts=n,
    )
    out["two_level"].update(low=two["low"], high=two["high"])
    if min(C2.shape[0], B2.shape[0]) < 5 and out["two_level"]["reason"] is None:
        out["two_level"]["reason"] = (
            f"{min(C2.shape[0], B2.shape[0])} seed(s) on a side: the seed level of this interval "
            "is coarse"
        )
    if t["low"] is None:
        # zero spread of the linearised block gaps: no interval is shown (never a pass)
        out["primary"] = None
        out["reason"] = (
            "the block gaps have zero spread (every block gives the same row-weighted gap): "
            "no interval"
        )
    else:
        which, lo, hi = wider_interval(boot, t, out["gap"])
        out["primary"] = which
        out["low"], out["high"] = lo, hi
        w_boot = boot["high"] - boot["low"]
        w_t = t["high"] - t["low"]
        out["primary_reason"] = (
            f"the wider of the two: bootstrap width {w_boot:.3g}, t width {w_t:.3g}"
            + (
                f" ({n_blocks} blocks: the percentile bootstrap undercovers)"
                if n_blocks < 30
                else ""
            )
        )
    out["excludes_zero"] = bool(out["low"] is not None and out["low"] > 0)
    counts_h, edges = np.histogram(boot["means"], bins=HISTOGRAM_BINS)
    out["distribution"] = {"edges": [float(e) for e in edges], "counts": counts_h.tolist()}
    return out
