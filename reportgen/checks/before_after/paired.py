"""The paired interval of before/after: a per-question difference over questions or blocks."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from reportgen.checks.present import required
from reportgen.model.before_after import GeneralT
from reportgen.model.common import MaybeBounds
from reportgen.project import Project
from reportgen.stats.bootstrap import block_bootstrap, wider_interval
from reportgen.stats.results import Bounds
from reportgen.stats.ttests import ratio_t
from reportgen.words import count_noun
from reportgen.words.i18n import _, n_


@dataclass(frozen=True, slots=True)
class Paired:
    """The paired difference over questions (or blocks) and its interval."""

    #: the row-weighted mean difference; None without questions
    gap: float | None
    #: the primary interval's ends (None without one) and which it is (bootstrap, t or exact)
    low: float | None
    high: float | None
    primary: str | None
    #: questions (or blocks) resampled
    units: int
    bootstrap: MaybeBounds
    t: GeneralT
    #: why there is no interval (or why the exact bound stands in), else None
    reason: str | None


def paired_interval(
    project: Project, diff: np.ndarray, blocks: Any, rng: np.random.Generator
) -> Paired:
    """Row-weighted mean of ``diff`` with the wider of the ratio bootstrap and ratio t intervals
    over questions (or blocks when given): the estimand of methods.md section 3."""
    cfg = project.config
    if blocks is None:
        g, n = diff.astype(float), np.ones(diff.size)
    else:
        _labels, inv = np.unique(np.asarray(blocks).astype(str), return_inverse=True)
        inv = inv.ravel()
        g = np.bincount(inv, weights=diff)
        n = np.bincount(inv).astype(float)
    gap = float(g.sum() / n.sum()) if n.size else None
    out = Paired(
        gap=gap,
        low=None,
        high=None,
        primary=None,
        units=int(g.size),
        bootstrap=MaybeBounds(low=None, high=None),
        t=GeneralT(low=None, high=None, p=None, se=None, df=None),
        reason=None,
    )
    if g.size < 2:
        reason = _(
            "{units}: an interval needs 2",
            units=count_noun(g.size, "block" if blocks is not None else "question"),
        )
        return replace(out, reason=reason)
    boot = block_bootstrap(g, resamples=cfg.resamples, confidence=cfg.confidence, rng=rng, counts=n)
    t = ratio_t(g, n, cfg.confidence)
    out = replace(
        out,
        bootstrap=MaybeBounds(low=boot["low"], high=boot["high"]),
        t=GeneralT(low=t.low, high=t.high, p=t.p, se=t.se, df=None if t.df is None else int(t.df)),
    )
    if t.low is None:
        if np.all(diff == 0):
            # no question changed: the exact (Clopper-Pearson) bound on the share of questions that
            # changed, 0 of N, bounds the difference either way: |difference| <= 1 - (alpha/2)^(1/N)
            u = float(1.0 - ((1.0 - cfg.confidence) / 2.0) ** (1.0 / diff.size))
            reason = n_(
                "no question changed: exact binomial bound for 0 changed of {n} question",
                "no question changed: exact binomial bound for 0 changed of {n} questions",
                diff.size,
            )
            return replace(out, primary="exact", low=-u, high=u, reason=reason)
        reason = _("zero spread: every question (block) moved the same way, no interval")
        return replace(out, reason=reason)
    which, lo, hi = wider_interval(Bounds(boot["low"], boot["high"]), t, required(gap, "the gap"))
    return replace(out, primary=which, low=lo, high=hi)
