"""The sentences of the statistics' reason codes: each code and its numbers in report.json's words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from reportgen.model.common import TTest
from reportgen.stats.results import Reason, TInterval

#: the words of each code; the numbers a code needs are keyword arguments
SENTENCES: dict[Reason, Callable[..., str]] = {
    Reason.TOO_FEW_SEEDS: lambda short, noise="retraining noise", per="": (
        f"{noise} unmeasured: fewer than 2 seeds{per} for the {' and '.join(short)}"
    ),
    Reason.NO_GAP: lambda: "no validation gap: a model has no seeds",
    Reason.BOTH_DETERMINISTIC: lambda: (
        "both models have zero seed spread (deterministic training): the seed rule is "
        "trivially met when the gap is positive, and the evaluation line carries the decision"
    ),
    Reason.CHOSEN_SIDE_DETERMINISTIC: lambda zero, used: (
        f"the {zero} has zero seed spread (it trains deterministically: the same fit for every "
        "seed): "
        f"the {used}'s sd is used"
    ),
    Reason.ONE_SIDE_DETERMINISTIC: lambda zero, used: (
        f"the {zero} has zero seed spread (it trains deterministically, as ridge, logistic "
        f"regression or an SVM do, which is normal): the {used}'s sd is used"
    ),
    Reason.TOO_FEW_FOR_T: lambda n, unit: f"{n} {unit}(s): a t interval needs at least 2",
    Reason.ZERO_SPREAD: lambda values: f"the {values} are all equal: zero spread, no t interval",
    Reason.NOTHING_TO_COMPARE: lambda: "no blocks or no seeds: nothing to compare",
    Reason.BLOCK_NOT_FINITE: lambda: "a block value is NaN or infinite: intervals not computed",
    Reason.ONE_BLOCK: lambda: "1 block: an interval needs at least 2",
    Reason.BLOCK_GAPS_ZERO_SPREAD: lambda: (
        "the block gaps have zero spread (every block gives the same row-weighted gap): no interval"
    ),
    Reason.SEEDS_UNSHARED: lambda shared: (
        f"seeds_paired, but only {shared} seed label(s) are shared by both models: "
        "seeds resampled independently"
    ),
    Reason.COARSE_SEED_LEVEL: lambda fewest: (
        f"{fewest} seed(s) on a side: the seed level of this interval is coarse"
    ),
    Reason.TOO_FEW_FOLD_GAPS: lambda n, minimum: (
        f"{n} fold gap(s): the corrected resampled t needs at least {minimum}"
    ),
    Reason.FOLD_GAP_NOT_FINITE: lambda: "a fold gap is not a finite number",
    Reason.FOLD_WITHOUT_TEST_ROWS: lambda: "a fold has no held-out rows: its gap is undefined",
    Reason.LEAVE_ONE_OUT: lambda: (
        "leave-one-out (every fold holds out one row): the corrected resampled t does not "
        "apply; use k-fold with k = 5 or 10, repeated"
    ),
    Reason.FOLD_WITHOUT_TRAIN_ROWS: lambda: "a fold has no training rows",
    Reason.TOO_FEW_BLOCKS: lambda: "fewer than 2 blocks: no interval",
    Reason.METRIC_UNDEFINED: lambda: "undefined on these rows",
    Reason.UNDEFINED_ON_RESAMPLES: lambda: "the metric is undefined on almost every resample",
    Reason.GAP_NOT_ABOVE_TARGET: lambda what: (
        f"the gap is not above {what}: more seeds or blocks cannot show it is"
    ),
    Reason.SEEDS_ALONE_CANNOT: lambda width: (
        "more seeds alone cannot settle this: the block term alone gives plus or minus " + width
    ),
    Reason.BLOCKS_ALONE_CANNOT: lambda width: (
        "more blocks alone cannot settle this: the seed term alone gives plus or minus " + width
    ),
}

#: how a t refusal names one difference and all of them, per kind of difference
T_UNITS = {
    "paired seed": "per-seed differences",
    "fold gap": "fold gaps",
}


def sentence(reason: Reason | None, **numbers: Any) -> str | None:
    """The sentence of ``reason`` with its numbers; None for no reason."""
    if reason is None:
        return None
    return SENTENCES[reason](**numbers)


def t_sentence(reason: Reason | None, n: int, unit: str) -> str | None:
    """Why a t interval on ``n`` differences (each one ``unit``, a key of T_UNITS) is missing."""
    if reason is Reason.TOO_FEW_FOR_T:
        return sentence(reason, n=n, unit=unit)
    if reason is Reason.ZERO_SPREAD:
        return sentence(reason, values=T_UNITS[unit])
    return sentence(reason)


def t_test(t: TInterval) -> TTest:
    """A t interval as report.json holds it: its ends, p value, standard error and df."""
    df = None if t.df is None else cast(int, t.df)  # a paired t's df is an integer
    return TTest(low=t.low, high=t.high, p=t.p, se=t.se, df=df)
