"""A model's own figure on one part: the mean over its networks, the seed sd across them and
its own interval (not the gap's), the figures of report.json ``results`` (methods.md,
"Results at a glance").

The interval is on the seed-averaged model, the estimand the gap's primary interval compares:
the metric of the model's networks averaged, on the rows (and blocks) they were scored on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.stats._util import FloatArray, as_1d, check_confidence, percentile_interval
from reportgen.stats._util import row_counts as drawn_counts
from reportgen.stats.bootstrap import resample_index, wider_interval
from reportgen.stats.cv import resampled_t, within_fold_spread
from reportgen.stats.described import resamples_per_batch
from reportgen.stats.proportions import wilson
from reportgen.stats.results import Bounds
from reportgen.stats.ttests import ratio_t

#: how a figure's interval was found
BOOTSTRAP, T, WILSON, CORRECTED_T = "bootstrap", "t", "wilson", "corrected t"


@dataclass(frozen=True)
class OwnFigure:
    """One model's figure: its mean, the sd across its networks and its own interval.

    Attributes
    ----------
    mean : float or None
        The mean over the networks of each network's metric; None where undefined.
    sd : float or None
        Sample sd (ddof 1) of the networks' metric; None with one network.
    low, high : float or None
        The model's own interval; None with fewer than 2 blocks (or folds).
    method : str or None
        ``"bootstrap"``, ``"t"`` (the ratio t), ``"wilson"`` or ``"corrected t"``.
    networks : int
    """

    mean: float | None
    sd: float | None
    low: float | None
    high: float | None
    method: str | None
    networks: int


def _sd(values: FloatArray) -> float | None:
    return float(np.std(values, ddof=1)) if values.size >= 2 else None


#: above this many blocks a mean of per-row values takes the ratio t alone (its sampling
#: distribution is normal there, and drawing 2,000 resamples of a million rows costs seconds)
MAX_BOOTSTRAP_BLOCKS = 20_000


@dataclass(frozen=True)
class Measured:
    """One model's metric on one part, as ``block_figures`` takes it.

    Attributes
    ----------
    stats : ndarray, shape (S, B, m)
        Per network and block, the ``m`` sufficient statistics of the metric.
    statistic : callable
        ``(..., m) -> (...)``: the metric from summed statistics (NaN where undefined).
    mean_of_rows : bool
        ``m == 2``: the per-row values' sum and the rows of each block (``mean_stats``).
    lowest, highest : float or None
        The metric's range (0 for a loss, 0 and 1 for a share): an interval end beyond it,
        which a t interval can reach on skewed rows, is clipped to it.
    """

    stats: FloatArray
    statistic: Callable[[FloatArray], FloatArray]
    mean_of_rows: bool
    lowest: float | None = None
    highest: float | None = None

    def clipped(self, low: float, high: float) -> tuple[float, float]:
        """``(low, high)`` inside the metric's range."""
        if self.lowest is not None:
            low, high = max(low, self.lowest), max(high, self.lowest)
        if self.highest is not None:
            low, high = min(low, self.highest), min(high, self.highest)
        return low, high


def block_figures(
    measured: Sequence[Measured],
    *,
    resamples: int,
    confidence: float,
    rng: np.random.Generator,
) -> list[OwnFigure]:
    """Each measured metric's figure, from each network's per-block sufficient statistics.

    Each network's metric is ``statistic`` of its statistics summed over the blocks; the
    figure is their mean and sd. The interval resamples the ``B`` blocks with replacement and
    recomputes the networks' mean metric on every draw: a percentile interval. One index
    matrix per chunk serves every entry (all are scored on the same rows and blocks), so the
    draws do not depend on how many metrics are asked for. For a metric that is a mean of
    per-row values the interval is the wider of that and the ratio t on the seed-averaged
    block sums, the rule of the gap's primary interval (``stats.bootstrap.wider_interval``);
    the ratio t alone above ``MAX_BOOTSTRAP_BLOCKS`` blocks; and with one network, blocks of
    one row each and per-row values 0 or 1 (a share of independent rows) the Wilson score
    interval. An end beyond the metric's range (``Measured.lowest``, ``highest``) is clipped
    to it.

    Parameters
    ----------
    measured : sequence of Measured
        Every entry with the same ``B``.
    resamples : int
    confidence : float
    rng : numpy.random.Generator
        Drawn from only when some entry needs a bootstrap, one ``integers`` matrix per chunk.

    Returns
    -------
    list of OwnFigure
        In the order of ``measured``; no interval with fewer than 2 blocks or a metric
        undefined on the whole part.
    """
    check_confidence(confidence)
    if not measured:
        return []
    blocks = {m.stats.shape[1] for m in measured}
    if len(blocks) != 1 or any(m.stats.ndim != 3 or m.stats.shape[0] == 0 for m in measured):
        raise ValueError("every entry needs (S, B, m) statistics with S >= 1 and one B")
    B = blocks.pop()
    heads: list[OwnFigure] = []
    boot: list[int] = []  # the entries that draw
    for i, m in enumerate(measured):
        if m.mean_of_rows and m.stats.shape[2] != 2:
            raise ValueError("a mean of per-row values has 2 statistics per block")
        per_net = np.asarray(m.statistic(m.stats.sum(axis=1)), dtype=np.float64)
        S = int(m.stats.shape[0])
        if not np.all(np.isfinite(per_net)):
            heads.append(OwnFigure(None, None, None, None, None, S))
            continue
        head = OwnFigure(float(per_net.mean()), _sd(per_net), None, None, None, S)
        if B >= 2 and m.mean_of_rows and S == 1 and _is_share(m.stats[0]):
            successes, n = float(m.stats[0, :, 0].sum()), float(m.stats[0, :, 1].sum())
            w_low, w_high = wilson(successes, n, confidence)
            head = OwnFigure(head.mean, head.sd, w_low, w_high, WILSON, S)
        elif B >= 2 and not (m.mean_of_rows and B > MAX_BOOTSTRAP_BLOCKS):
            boot.append(i)
        heads.append(head)
    draws = _draws([measured[i] for i in boot], B, resamples, rng)
    out = list(heads)
    for i, m in enumerate(measured):
        head = heads[i]
        if head.mean is None or B < 2 or head.method == WILSON:
            continue
        low: float | None = None
        high: float | None = None
        if i in boot:
            d = draws[boot.index(i)]
            d = d[np.isfinite(d)]
            if d.size >= 2:
                low, high = percentile_interval(d, confidence)
        if not m.mean_of_rows:
            if low is not None:
                out[i] = OwnFigure(head.mean, head.sd, low, high, BOOTSTRAP, head.networks)
            continue
        t = ratio_t(m.stats[:, :, 0].mean(axis=0), m.stats[0, :, 1], confidence)
        which, lo, hi = wider_interval(Bounds(low, high), t, head.mean)
        if lo is not None and hi is not None:
            lo, hi = m.clipped(lo, hi)
            out[i] = OwnFigure(head.mean, head.sd, lo, hi, which, head.networks)
        elif low is not None:
            out[i] = OwnFigure(head.mean, head.sd, low, high, BOOTSTRAP, head.networks)
    return out


def _draws(
    measured: Sequence[Measured], B: int, resamples: int, rng: np.random.Generator
) -> list[FloatArray]:
    """(R,) the networks' mean metric of each entry on every draw of the ``B`` blocks."""
    if not measured:
        return []
    found: list[list[FloatArray]] = [[] for _ in measured]
    widest = max(m.stats.shape[0] * m.stats.shape[2] for m in measured)
    per_batch = resamples_per_batch(1, widest)
    for idx in resample_index(rng, int(resamples), B):
        counts = drawn_counts(idx, B)  # (r, B)
        for lo in range(0, counts.shape[0], per_batch):
            part = counts[None, lo : lo + per_batch]
            for k, m in enumerate(measured):
                drawn = np.matmul(part, m.stats)  # (S, r, m)
                with np.errstate(invalid="ignore", divide="ignore"):
                    found[k].append(np.asarray(m.statistic(drawn)).mean(axis=0))
    return [np.concatenate(f) for f in found]


def _is_share(net: FloatArray) -> bool:
    """One network's (B, 2) block statistics are single rows valued 0 or 1."""
    return bool(np.all(net[:, 1] == 1.0) and np.all((net[:, 0] == 0.0) | (net[:, 0] == 1.0)))


def mean_stats(values: Any, codes: Any, n_blocks: int) -> FloatArray:
    """(B, 2) per-block ``(sum, rows)`` of one network's per-row values, for ``block_figure``.

    Parameters
    ----------
    values : array-like, shape (N,)
    codes : array-like of int, shape (N,)
        Each row's block index in ``[0, n_blocks)``.
    n_blocks : int
    """
    v = as_1d(values, "values")
    c = np.asarray(codes, dtype=np.int64)
    sums = np.bincount(c, weights=v, minlength=n_blocks)
    rows = np.bincount(c, minlength=n_blocks).astype(np.float64)
    return np.stack([sums, rows], axis=1)


def row_mean(s: FloatArray) -> FloatArray:
    """The metric of ``(sum, rows)`` statistics: their ratio (NaN without rows)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        out: FloatArray = s[..., 0] / s[..., 1]
    return out


def root_row_mean(s: FloatArray) -> FloatArray:
    """The square root of ``row_mean``: RMSE from the squared errors' ``(sum, rows)``."""
    out: FloatArray = np.sqrt(row_mean(s))
    return out


def fold_figure(folds: Sequence[Any], ratio: float, confidence: float) -> OwnFigure:
    """A model's figure over cross-validation folds: the mean over the folds of each fold's
    mean over its networks, the seed sd within folds (``stats.cv.within_fold_spread``) and the
    corrected resampled t on the per-fold means (Nadeau and Bengio: the folds share training
    rows, so the variance is ``(1/J + n_test/n_train) sd²``), as the gap's interval.

    Parameters
    ----------
    folds : sequence of array-like, one per fold
        The fold metric of each network trained on that fold.
    ratio : float
        ``n_test / n_train`` of the correction (``stats.cv.holdout_ratio``).
    confidence : float
    """
    spread = within_fold_spread(folds)
    means = np.array([as_1d(f, "fold").mean() for f in folds], dtype=np.float64)
    if not np.all(np.isfinite(means)):
        return OwnFigure(None, None, None, None, None, spread.n)
    res = resampled_t(means, ratio, confidence)
    low, high = res.corrected.low, res.corrected.high
    return OwnFigure(
        float(means.mean()),
        spread.sd,
        low,
        high,
        CORRECTED_T if low is not None else None,
        spread.n,
    )
