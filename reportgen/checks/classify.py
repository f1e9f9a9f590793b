"""Threshold, ranking and calibration per model: one representative network, every seed listed."""

from __future__ import annotations

import numpy as np

from reportgen.checks.select import ModelRuns
from reportgen.project import Project
from reportgen.stats import calibration, ranking, threshold
from reportgen.words import count_noun, prob


def representative(mr: ModelRuns, kind: str = "binary"):
    """The seed with the median validation metric (lower median) among seeds with test
    predictions of this ``kind``; chosen on validation, never on test (by seed label when no
    seed has a validation value)."""
    cands = [s for s in mr.seeds if s.test_pred is not None and s.test_pred.kind == kind]
    if not cands:
        return None
    with_val = [s for s in cands if s.val_value is not None]
    if with_val:
        order = sorted(with_val, key=lambda s: (s.val_value, s.seed))
    else:
        order = sorted(cands, key=lambda s: s.seed)
    return order[(len(order) - 1) // 2]


def _binary_val(s) -> bool:
    return s.val_pred is not None and s.val_pred.kind == "binary"


def _curve(xs, ys) -> tuple[list[float], list[float]]:
    x, y = ranking.thin(np.asarray(xs, float), np.asarray(ys, float), 500)
    return [float(v) for v in x], [float(v) for v in y]


def classification(
    project: Project, cand: ModelRuns, base: ModelRuns
) -> tuple[dict | None, dict | None, dict | None]:
    """The threshold, ranking and calibration sections, or (None, None, None) without y/p predictions."""
    cfg = project.config
    fp, fn = cfg.false_positive, cfg.false_negative
    th, rk, cal = {}, {}, {}
    for mr in (cand, base):
        rep = representative(mr)
        if rep is None:
            return None, None, None
        per_seed, counts, bands = _per_seed(project, mr, rep)
        vp = rep.val_pred if _binary_val(rep) else None
        th[mr.role] = _threshold_entry(project, mr, rep, vp, per_seed)
        rk[mr.role] = _ranking_entry(rep, vp, counts, per_seed) | bands
        cal[mr.role] = {
            "seed": rep.seed,
            "ece": calibration.ece(rep.test_pred.p, rep.test_pred.y, cfg.bins),
            "brier": calibration.brier(rep.test_pred.p, rep.test_pred.y),
            "validation_ece": calibration.ece(vp.p, vp.y, cfg.bins) if vp is not None else None,
            "bins": calibration.reliability_bins(
                rep.test_pred.p, rep.test_pred.y, cfg.bins, confidence=cfg.confidence
            ),
        }
    th["theoretical_cutoff"] = threshold.theoretical_cutoff(fp, fn)
    th["costs"] = {
        "false_positive": fp,
        "false_negative": fn,
        "unit": cfg.unit,
        "cases_per_period": cfg.cases_per_period,
        "period": cfg.period,
    }
    th["rule"] = cfg.threshold
    cal["bins"] = cfg.bins
    return th, rk, cal


def _band(curves: list, grid, xkey: str) -> dict | None:
    """ranking.<role>.roc_band / pr_band: the lowest and highest seed curve on the grid."""
    band = ranking.curve_band(curves)
    if band is None:
        return None
    low, high = band
    return {
        xkey: [float(v) for v in grid],
        "low": [float(v) for v in low],
        "high": [float(v) for v in high],
        "seeds": sum(c is not None for c in curves),
    }


def _per_seed(project: Project, mr: ModelRuns, rep) -> tuple[list[dict], object, dict]:
    """Each network's threshold, costs and ROC AUC, the representative's sorted counts, and
    the spread of every network's ROC and precision-recall curves (their bands)."""
    fp, fn = project.config.false_positive, project.config.false_negative
    per_seed = []
    grid = ranking.band_grid()
    rocs, prs = [], []
    sorted_once = {}  # the representative's descending_counts: one sort per network
    for s in mr.seeds:
        if s.test_pred is None or s.test_pred.kind != "binary":
            continue
        vt = (
            threshold.at_threshold(s.val_pred.p, s.val_pred.y, s.threshold, fp, fn)
            if _binary_val(s)
            else None
        )
        tt = threshold.at_threshold(s.test_pred.p, s.test_pred.y, s.threshold, fp, fn)
        counts = ranking.descending_counts(s.test_pred.p, s.test_pred.y)
        rocs.append(ranking.roc_on_grid(counts, grid))
        prs.append(ranking.pr_on_grid(counts, grid))
        if s is rep:  # kept for its curves; the other seeds' counts are dropped at once
            sorted_once[s.seed] = counts
        per_seed.append(
            {
                "seed": s.seed,
                "threshold": s.threshold,
                "validation_cost": vt["cost"] if vt else None,
                "test_cost": tt["cost"],
                "roc_auc": ranking.roc_auc(s.test_pred.p, s.test_pred.y, counts),
            }
        )
    tp = rep.test_pred
    counts = sorted_once.get(rep.seed) or ranking.descending_counts(tp.p, tp.y)
    bands = {"roc_band": _band(rocs, grid, "fpr"), "pr_band": _band(prs, grid, "recall")}
    return per_seed, counts, bands


def _threshold_entry(project: Project, mr: ModelRuns, rep, vp, per_seed: list[dict]) -> dict:
    """threshold.<role>: the representative's validation-chosen threshold, on validation and test."""
    cfg = project.config
    fp, fn = cfg.false_positive, cfg.false_negative
    tp = rep.test_pred
    v = threshold.at_threshold(vp.p, vp.y, rep.threshold, fp, fn) if vp is not None else None
    t = threshold.at_threshold(tp.p, tp.y, rep.threshold, fp, fn)
    curve = None
    if vp is not None:
        ts, cs = threshold.cost_curve(vp.p, vp.y, fp, fn)
        keep = ts <= 1.0  # the "predict none" sentinel is marked separately
        cx, cy = _curve(ts[keep], cs[keep])
        curve = {"threshold": cx, "cost": cy}
    threshold_reason = None
    if vp is None:
        threshold_reason = (
            f"no validation predictions for {mr.name} seed {rep.seed}: the threshold is "
            + (
                f"the fixed {prob(cfg.threshold)}"
                if isinstance(cfg.threshold, float)
                else "0.5 (the cost-minimising threshold is chosen on validation predictions)"
            )
        )
    return {
        "seed": rep.seed,
        "threshold": rep.threshold,
        "threshold_reason": threshold_reason,
        "predicts_none": bool(rep.threshold > 1.0),
        "validation_cost": v["cost"] if v else None,
        "test_cost": t["cost"],
        "confusion": t["confusion"],
        "precision": t["precision"],
        "recall": t["recall"],
        "false_positive_rate": t["false_positive_rate"],
        "predicted_positive": t["predicted_positive"],
        "actual_positive": t["actual_positive"],
        "rows": t["rows"],
        "validation_confusion": v["confusion"] if v else None,
        "validation_precision": v["precision"] if v else None,
        "validation_recall": v["recall"] if v else None,
        "mean_test_cost": float(np.mean([p["test_cost"] for p in per_seed])),
        "per_seed": per_seed,
        "curve": curve,
    }


def _ranking_entry(rep, vp, counts, per_seed: list[dict]) -> dict:
    """ranking.<role>: the representative's ROC AUC and average precision with their curves."""
    tp = rep.test_pred
    aucs = [p["roc_auc"] for p in per_seed if p["roc_auc"] is not None]
    n_pos = int(np.count_nonzero(tp.y))
    n_neg = int(tp.y.size - n_pos)
    auc = ranking.roc_auc(tp.p, tp.y, counts)
    ap = ranking.average_precision(tp.p, tp.y, counts)
    roc = pr = None
    if auc is not None:
        fpr, tpr = ranking.roc_points(tp.p, tp.y, counts)
        fx, fy = _curve(fpr, tpr)
        roc = {"fpr": fx, "tpr": fy}
    if ap is not None:
        rec, prec = ranking.pr_points(tp.p, tp.y, counts)
        rx, ry = _curve(rec, prec)
        pr = {"recall": rx, "precision": ry}
    one_class = (
        f"the test part has one class only ({count_noun(n_pos, 'positive')}, "
        f"{count_noun(n_neg, 'negative')})"
        if not (n_pos and n_neg)
        else None
    )
    return {
        "seed": rep.seed,
        "roc_auc": auc,
        "roc_auc_reason": None if auc is not None else f"{one_class}: ROC AUC is undefined",
        "average_precision": ap,
        "average_precision_reason": None
        if ap is not None
        else "no positives in the test part: average precision is undefined",
        "validation_roc_auc": ranking.roc_auc(vp.p, vp.y) if vp is not None else None,
        "mean_roc_auc": float(np.mean(aucs)) if aucs else None,
        "positives": n_pos,
        "negatives": n_neg,
        "roc": roc,
        "pr": pr,
    }
