"""The sentences of the statistics' reason codes: each code and its numbers in report.json's words."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from reportgen.model.common import TTest
from reportgen.stats.results import Reason, TInterval
from reportgen.words.i18n import _, p_


def _role(role: str) -> str:
    """A model's role ("candidate", "baseline") after "the" ("for the candidate")."""
    if role == "candidate":
        return p_("a model's role, after 'the'", "candidate")
    if role == "baseline":
        return p_("a model's role, after 'the'", "baseline")
    return role


def _roles(roles: Sequence[str]) -> str:
    """ "candidate and baseline" (the roles a statistic names)."""
    return p_("joins two phrases", " and ").join(_role(r) for r in roles)


def _too_few_for_t(n: int, unit: str) -> str:
    if unit == "paired seed":
        return _("{n} paired seed(s): a t interval needs at least 2", n=n)
    if unit == "fold gap":
        return _("{n} fold gap(s): a t interval needs at least 2", n=n)
    return _("{n} {unit}(s): a t interval needs at least 2", n=n, unit=unit)


def _zero_spread(values: str) -> str:
    if values == "per-seed differences":
        return _("the per-seed differences are all equal: zero spread, no t interval")
    if values == "fold gaps":
        return _("the fold gaps are all equal: zero spread, no t interval")
    return _("the {values} are all equal: zero spread, no t interval", values=values)


#: the words of each code, in the build's language (looked up at each call); the numbers a
#: code needs are keyword arguments
SENTENCES: dict[Reason, Callable[..., str]] = {
    Reason.TOO_FEW_SEEDS: lambda short, noise=None, per="": _(
        "{noise} unmeasured: fewer than 2 seeds{per} for the {roles}",
        noise=noise if noise is not None else _("retraining noise"),
        per=per,
        roles=_roles(short),
    ),
    Reason.NO_GAP: lambda: _("no validation gap: a model has no seeds"),
    Reason.BOTH_DETERMINISTIC: lambda: _(
        "both models have zero seed spread (deterministic training): the seed rule is "
        "trivially met when the gap is positive, and the evaluation line carries the decision"
    ),
    Reason.CHOSEN_SIDE_DETERMINISTIC: lambda zero, used: _(
        "the {zero} has zero seed spread (it trains deterministically: the same fit for every "
        "seed): the {used}'s sd is used",
        zero=_role(zero),
        used=_role(used),
    ),
    Reason.ONE_SIDE_DETERMINISTIC: lambda zero, used: _(
        "the {zero} has zero seed spread (it trains deterministically, as ridge, logistic "
        "regression or an SVM do, which is normal): the {used}'s sd is used",
        zero=_role(zero),
        used=_role(used),
    ),
    Reason.TOO_FEW_FOR_T: _too_few_for_t,
    Reason.ZERO_SPREAD: _zero_spread,
    Reason.NOTHING_TO_COMPARE: lambda: _("no blocks or no seeds: nothing to compare"),
    Reason.BLOCK_NOT_FINITE: lambda: _("a block value is NaN or infinite: intervals not computed"),
    Reason.ONE_BLOCK: lambda: _("1 block: an interval needs at least 2"),
    Reason.BLOCK_GAPS_ZERO_SPREAD: lambda: _(
        "the block gaps have zero spread (every block gives the same row-weighted gap): no interval"
    ),
    Reason.SEEDS_UNSHARED: lambda shared: _(
        "seeds_paired, but only {shared} seed label(s) are shared by both models: "
        "seeds resampled independently",
        shared=shared,
    ),
    Reason.COARSE_SEED_LEVEL: lambda fewest: _(
        "{fewest} seed(s) on a side: the seed level of this interval is coarse", fewest=fewest
    ),
    Reason.TOO_FEW_FOLD_GAPS: lambda n, minimum: _(
        "{n} fold gap(s): the corrected resampled t needs at least {minimum}", n=n, minimum=minimum
    ),
    Reason.FOLD_GAP_NOT_FINITE: lambda: _("a fold gap is not a finite number"),
    Reason.FOLD_WITHOUT_TEST_ROWS: lambda: _("a fold has no held-out rows: its gap is undefined"),
    Reason.LEAVE_ONE_OUT: lambda: _(
        "leave-one-out (every fold holds out one row): the corrected resampled t does not "
        "apply; use k-fold with k = 5 or 10, repeated"
    ),
    Reason.FOLD_WITHOUT_TRAIN_ROWS: lambda: _("a fold has no training rows"),
    Reason.TOO_FEW_BLOCKS: lambda: _("fewer than 2 blocks: no interval"),
    Reason.METRIC_UNDEFINED: lambda: _("undefined on these rows"),
    Reason.UNDEFINED_ON_RESAMPLES: lambda: _("the metric is undefined on almost every resample"),
    Reason.GAP_NOT_ABOVE_TARGET: lambda what: _(
        "the gap is not above {what}: more seeds or blocks cannot show it is", what=what
    ),
    Reason.SEEDS_ALONE_CANNOT: lambda width: _(
        "more seeds alone cannot settle this: the block term alone gives plus or minus {width}",
        width=width,
    ),
    Reason.BLOCKS_ALONE_CANNOT: lambda width: _(
        "more blocks alone cannot settle this: the seed term alone gives plus or minus {width}",
        width=width,
    ),
}

#: how a t refusal names one difference and all of them, per kind of difference (ids: the
#: sentences above print them in the build's language)
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
