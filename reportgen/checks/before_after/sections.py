"""Before and after on one frozen question set: the per-question section, the general set, their intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reportgen.checks.select import ModelRuns, row_metric
from reportgen.checks.types import Interval
from reportgen.project import Project
from reportgen.project.predictions import MISSING_LABEL
from reportgen.stats import before_after as ba
from reportgen.stats.bootstrap import block_bootstrap, wider_interval
from reportgen.stats.ttests import ratio_t
from reportgen.words import blocks_phrase, count_noun, fixed, gap_decimals, given, interval, prob


def _correct(project: Project, mr: ModelRuns, part: str):
    """(predictions, per-row metric) of the first analysed network of a model on a part, or (None, None)."""
    for s in mr.seeds:
        pred = s.test_pred if part == "test" else s.val_pred
        if pred is not None:
            return pred, row_metric(project, pred, s.threshold)
    return None, None


def _by_category(chosen, ids, category) -> dict | None:
    """Count of the chosen question ids per category, most first, then by name (like broken_by_category)."""
    if category is None:
        return None
    cat_of = {str(i): str(c) for i, c in zip(ids, category, strict=True)}
    counts: dict[str, int] = {}
    for i in chosen:
        c = cat_of.get(str(i), "(missing)")
        counts[c] = counts.get(c, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


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
    out["t"] = {k: t[k] for k in ("low", "high", "p", "se", "df")}
    if t["low"] is None:
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
    which, lo, hi = wider_interval(out["bootstrap"], t, out["gap"])
    out.update(primary=which, low=lo, high=hi)
    return out


def question_section(
    project: Project, before_runs: ModelRuns, after_runs: ModelRuns
) -> tuple[dict | None, Interval | None]:
    """report.json ``before_after`` (accuracy before and after on the frozen set's questions,
    fixed and broken questions, the paired interval) and the interval rung 3 rests on; (None,
    None) without per-question predictions of both models."""
    cfg = project.config
    bpred, bvals = _correct(project, before_runs, "test")
    apred, avals = _correct(project, after_runs, "test")
    if bpred is None or apred is None:
        return None, None
    ids = np.array(sorted(set(bpred.row_id) & set(apred.row_id)), dtype=object)
    bi = pd.Index(bpred.row_id).get_indexer(ids)
    ai = pd.Index(apred.row_id).get_indexer(ids)
    b, a = bvals[bi], avals[ai]
    if not cfg.higher_is_better:  # error_rate: "correct" is 1 - error
        b, a = 1 - b, 1 - a
    blocks = apred.block[ai] if (cfg.block and apred.block is not None) else None
    cat = (
        apred.category[ai]
        if apred.category is not None
        else (bpred.category[bi] if bpred.category is not None else None)
    )
    text = (
        apred.text[ai]
        if apred.text is not None
        else (bpred.text[bi] if bpred.text is not None else None)
    )
    piv = paired_interval(project, a - b, blocks, np.random.default_rng(cfg.random_seed))
    fb = ba.fixed_broken(ids, b, a, category=cat, text=text)
    section = {
        "questions": int(len(ids)),
        "before": float(b.mean()),
        "after": float(a.mean()),
        "difference": piv["gap"],
        "low": piv["low"],
        "high": piv["high"],
        "primary": piv["primary"],
        "interval_reason": piv["reason"],
        "blocks": piv["units"],
        "confidence": cfg.confidence,
        "bootstrap": {"low": piv["bootstrap"]["low"], "high": piv["bootstrap"]["high"]},
        "t": {"low": piv["t"]["low"], "high": piv["t"]["high"], "p": piv["t"]["p"]},
        "fixed": fb["fixed"],
        "broken": fb["broken"],
        "mcnemar_p": ba.mcnemar_exact(fb["fixed"], fb["broken"]),
        "fixed_ids": [str(i) for i in fb["fixed_ids"]],
        "broken_ids": [str(i) for i in fb["broken_ids"]],
        "broken_by_category": fb["broken_by_category"],
        "fixed_by_category": _by_category(fb["fixed_ids"], ids, cat),
        "broken_rows": fb["broken_rows"],
        "category_sentence": ba.category_sentence(fb["broken_by_category"], fb["broken"]),
        "artefacts": [bpred.path, apred.path],
    }
    if piv["low"] is None:
        return section, None
    iv = Interval(
        gap=piv["gap"],
        low=piv["low"],
        high=piv["high"],
        source="questions",
        part=None,
        what=blocks_phrase(piv["units"], cfg.block)
        if blocks is not None
        else count_noun(piv["units"], "question"),
    )
    return section, iv


def general_section(project: Project) -> dict | None:
    """The general-abilities set before and after: the drop with a paired interval; held only when
    the interval's upper end of the drop is at most max_drop (a harm must be ruled out, not assumed)."""
    cfg = project.config
    vals, arts, preds = {}, [], {}
    for role in ("baseline", "candidate"):
        name = getattr(cfg, role)
        rows = [
            r
            for r in project.runs
            if r.model == name and r.split == cfg.general_split and r.ok and r.metric == cfg.metric
        ]
        if not rows:
            return None
        r = rows[0]
        pred = project.predictions.get(r.predictions) if r.predictions else None
        if pred is not None:
            preds[role] = (pred, row_metric(project, pred, 0.5))
            vals[role] = float(np.mean(preds[role][1]))
            arts.append(pred.path)
        else:
            vals[role] = r.value
        arts.append(r.cite(project.runs_name))
    before, after = vals["baseline"], vals["candidate"]
    drop = (before - after) if cfg.higher_is_better else (after - before)
    out = {
        "split": cfg.general_split,
        "before": before,
        "after": after,
        "drop": drop,
        "low": None,
        "high": None,
        "max_drop": cfg.max_drop,
        "held": False,
        "status": "not shown",
        "reason": None,
        "questions": None,
        "artefacts": arts,
    }
    if len(preds) == 2:
        (bp, bv), (ap, av) = preds["baseline"], preds["candidate"]
        ids = np.array(sorted(set(bp.row_id) & set(ap.row_id), key=str), dtype=object)
        bpos = {k: i for i, k in enumerate(bp.row_id)}
        apos = {k: i for i, k in enumerate(ap.row_id)}
        b = bv[[bpos[k] for k in ids]]
        a = av[[apos[k] for k in ids]]
        d = (b - a) if cfg.higher_is_better else (a - b)  # per-question drop
        blocks = ap.block[[apos[k] for k in ids]] if (cfg.block and ap.block is not None) else None
        if blocks is not None and np.all(blocks == MISSING_LABEL):
            blocks = None  # the block column is optional on the general set: empty means absent
        iv = paired_interval(project, d, blocks, np.random.default_rng(cfg.random_seed + 1))
        out.update(
            questions=int(ids.size),
            drop=iv["gap"] if iv["gap"] is not None else drop,
            low=iv["low"],
            high=iv["high"],
            primary=iv["primary"],
            bootstrap=iv["bootstrap"],
            t=iv["t"],
        )
        if iv["high"] is None:
            out["reason"] = f"no interval on the drop ({iv['reason']})"
    else:
        out["reason"] = (
            "no per-question predictions on the general set for both models: no interval"
        )
    if out["high"] is not None and out["high"] <= cfg.max_drop + 1e-12:
        out.update(held=True, status="held")
    elif out["low"] is not None and out["low"] > cfg.max_drop:
        out.update(status="dropped", reason="the whole interval of the drop is above max_drop")
    elif out["high"] is not None:
        out["reason"] = (
            f"the drop's upper bound {drop_numbers(out)['high']} exceeds the allowed "
            f"{given(cfg.max_drop)}: holding is not shown"
        )
    return out


def drop_numbers(general: dict) -> dict[str, str]:
    """The general set's numbers as printed: scores before and after (rates, 3 decimals), the
    drop and its bounds with one decimal count, the interval (both ends signed), the allowance."""
    d = gap_decimals(general["drop"], general.get("low"), general.get("high"))
    has = general.get("low") is not None and general.get("high") is not None
    return {
        "before": prob(general["before"]),
        "after": prob(general["after"]),
        "drop": fixed(general["drop"], d),
        "high": fixed(general["high"], d) if general.get("high") is not None else "",
        "interval": interval(general["low"], general["high"], digits=d) if has else "",
        "allowed": given(general["max_drop"]),
    }


def general_failure(general: dict) -> str:
    """Why the general set does not count as held, naming the numbers."""
    g = drop_numbers(general)
    if general.get("status") == "dropped" or (
        general.get("high") is None and general["drop"] > general["max_drop"]
    ):
        return (
            f"the general set dropped {g['drop']} ({g['before']} -> {g['after']}), more than the "
            f"allowed {g['allowed']}"
        )
    if general.get("high") is None:
        return (
            f"holding the general set is not shown: {general.get('reason')} (drop {g['drop']}, "
            f"allowed {g['allowed']})"
        )
    return (
        f"holding the general set is not shown: the drop {g['drop']} has an upper bound of "
        f"{g['high']}, above the allowed {g['allowed']}"
    )
