"""The paired interval of before/after: a per-question difference over questions or blocks."""

from __future__ import annotations

import numpy as np

from reportgen.project import Project
from reportgen.stats.bootstrap import block_bootstrap, wider_interval
from reportgen.stats.results import Bounds
from reportgen.stats.ttests import ratio_t
from reportgen.words import count_noun


def paired_interval(project: Project, diff: np.ndarray, blocks, rng: np.random.Generator) -> dict:
    """Row-weighted mean of ``diff`` with the wider of the ratio bootstrap and ratio t intervals
    over questions (or blocks when given): the estimand of methods.md section 3."""
    cfg = project.config
    if blocks is None:
        g, n = diff.astype(float), np.ones(diff.size)
    else:
        _, inv = np.unique(np.asarray(blocks).astype(str), return_inverse=True)
        inv = inv.ravel()
        g = np.bincount(inv, weights=diff)
        n = np.bincount(inv).astype(float)
    out = {
        "gap": float(g.sum() / n.sum()) if n.size else None,
        "low": None,
        "high": None,
        "primary": None,
        "units": int(g.size),
        "bootstrap": {"low": None, "high": None},
        "t": {"low": None, "high": None, "p": None, "se": None, "df": None},
        "reason": None,
    }
    if g.size < 2:
        out["reason"] = (
            f"{count_noun(g.size, 'block' if blocks is not None else 'question')}: "
            "an interval needs 2"
        )
        return out
    boot = block_bootstrap(g, resamples=cfg.resamples, confidence=cfg.confidence, rng=rng, counts=n)
    t = ratio_t(g, n, cfg.confidence)
    out["bootstrap"] = {"low": boot["low"], "high": boot["high"]}
    out["t"] = {"low": t.low, "high": t.high, "p": t.p, "se": t.se, "df": t.df}
    if t.low is None:
        if np.all(diff == 0):
            # no question changed: the exact (Clopper-Pearson) bound on the share of questions that
            # changed, 0 of N, bounds the difference either way: |difference| <= 1 - (alpha/2)^(1/N)
            u = float(1.0 - ((1.0 - cfg.confidence) / 2.0) ** (1.0 / diff.size))
            out.update(primary="exact", low=-u, high=u)
            out["reason"] = (
                "no question changed: exact binomial bound for 0 changed of "
                f"{count_noun(diff.size, 'question')}"
            )
            return out
        out["reason"] = "zero spread: every question (block) moved the same way, no interval"
        return out
    which, lo, hi = wider_interval(Bounds(boot["low"], boot["high"]), t, out["gap"])
    out.update(primary=which, low=lo, high=hi)
    return out
