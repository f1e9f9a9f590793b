"""Threshold, ranking and calibration per model: one representative network, every seed listed."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from reportgen.checks.present import test_of, threshold_of
from reportgen.checks.select import ModelRuns, SeedRun
from reportgen.model.ranking import (
    Calibration,
    CalibrationBin,
    CalibrationModel,
    PrBand,
    PrecisionRecall,
    Ranking,
    RankingModel,
    Roc,
    RocBand,
)
from reportgen.model.threshold import CostCurve, Costs, Threshold, ThresholdModel, ThresholdSeed
from reportgen.project import Project
from reportgen.project.predictions import Predictions
from reportgen.stats import calibration, ranking, threshold
from reportgen.words import count_noun, prob
from reportgen.words.i18n import _


def representative(mr: ModelRuns, kind: str = "binary") -> SeedRun | None:
    """The seed with the median validation metric (lower median) among seeds with test
    predictions of this ``kind``; chosen on validation, never on test (by seed label when no
    seed has a validation value)."""
    cands = [s for s in mr.seeds if s.test_pred is not None and s.test_pred.kind == kind]
    if not cands:
        return None
    with_val = [s for s in cands if s.val_value is not None]
    if with_val:
        order = sorted(with_val, key=lambda s: (s.val_value or 0.0, s.seed))
    else:
        order = sorted(cands, key=lambda s: s.seed)
    return order[(len(order) - 1) // 2]


def costs_of(project: Project) -> Costs:
    """report.json ``threshold.costs``: the rule's two error costs and their unit and period."""
    cfg = project.config
    return Costs(
        false_positive=cfg.false_positive,
        false_negative=cfg.false_negative,
        unit=cfg.unit,
        cases_per_period=cfg.cases_per_period,
        period=cfg.period,
    )


def _binary_val(s: SeedRun) -> Predictions | None:
    """The seed's validation predictions when they are binary, else None."""
    vp = s.val_pred
    return vp if vp is not None and vp.kind == "binary" else None


def curve_lists(xs: Any, ys: Any) -> tuple[list[float], list[float]]:
    x, y = ranking.thin(np.asarray(xs, float), np.asarray(ys, float), 500)
    return [float(v) for v in x], [float(v) for v in y]


def classification(
    project: Project, cand: ModelRuns, base: ModelRuns
) -> tuple[Threshold | None, Ranking | None, Calibration | None]:
    """The threshold, ranking and calibration sections, or (None, None, None) without y/p predictions."""
    cfg = project.config
    fp, fn = cfg.false_positive, cfg.false_negative
    th, rk, cal = [], [], []
    for mr in (cand, base):
        rep = representative(mr)
        if rep is None:
            return None, None, None
        per_seed, counts, (roc_band, pr_band) = _per_seed(project, mr, rep)
        vp = _binary_val(rep)
        tp = test_of(rep)
        th.append(_threshold_entry(project, mr, rep, vp, per_seed))
        rk.append(
            replace(_ranking_entry(rep, vp, counts, per_seed), roc_band=roc_band, pr_band=pr_band)
        )
        bins = calibration.reliability_bins(tp.p, tp.y, cfg.bins, confidence=cfg.confidence)
        cal.append(
            CalibrationModel(
                seed=rep.seed,
                ece=calibration.ece(tp.p, tp.y, cfg.bins),
                brier=calibration.brier(tp.p, tp.y),
                validation_ece=calibration.ece(vp.p, vp.y, cfg.bins) if vp is not None else None,
                bins=tuple(calibration_bin(b) for b in bins),
            )
        )
    costs = costs_of(project)
    threshold_section = Threshold(
        candidate=th[0],
        baseline=th[1],
        theoretical_cutoff=threshold.theoretical_cutoff(fp, fn),
        costs=costs,
        rule=cfg.threshold,
    )
    return (
        threshold_section,
        Ranking(candidate=rk[0], baseline=rk[1]),
        Calibration(candidate=cal[0], baseline=cal[1], bins=cfg.bins),
    )


def _band(curves: list[Any], grid: Any) -> tuple[list[float], list[float], list[float], int] | None:
    """The grid and the lowest and highest seed curve on it, and the curves it spans."""
    band = ranking.curve_band(curves)
    if band is None:
        return None
    low, high = band
    return (
        [float(v) for v in grid],
        [float(v) for v in low],
        [float(v) for v in high],
        sum(c is not None for c in curves),
    )


def roc_spread(curves: list[Any], grid: Any) -> RocBand | None:
    """ranking.<role>.roc_band: every network's ROC spread on the grid."""
    b = _band(curves, grid)
    return None if b is None else RocBand(tuple(b[0]), tuple(b[1]), tuple(b[2]), b[3])


def pr_spread(curves: list[Any], grid: Any) -> PrBand | None:
    """ranking.<role>.pr_band: every network's precision-recall spread on the grid."""
    b = _band(curves, grid)
    return None if b is None else PrBand(tuple(b[0]), tuple(b[1]), tuple(b[2]), b[3])


def _per_seed(
    project: Project, mr: ModelRuns, rep: Any
) -> tuple[list[ThresholdSeed], Any, tuple[RocBand | None, PrBand | None]]:
    """Each network's threshold, costs and ROC AUC, the representative's sorted counts, and
    the spread of every network's ROC and precision-recall curves (their bands)."""
    fp, fn = project.config.false_positive, project.config.false_negative
    per_seed = []
    grid = ranking.band_grid()
    rocs, prs = [], []
    sorted_once = {}  # the representative's descending_counts: one sort per network
    for s in mr.seeds:
        tp = s.test_pred
        if tp is None or tp.kind != "binary":
            continue
        vp = _binary_val(s)
        t = threshold_of(s)
        vt = threshold.at_threshold(vp.p, vp.y, t, fp, fn) if vp is not None else None
        tt = threshold.at_threshold(tp.p, tp.y, t, fp, fn)
        counts = ranking.descending_counts(tp.p, tp.y)
        rocs.append(ranking.roc_on_grid(counts, grid))
        prs.append(ranking.pr_on_grid(counts, grid))
        if s is rep:  # kept for its curves; the other seeds' counts are dropped at once
            sorted_once[s.seed] = counts
        per_seed.append(
            ThresholdSeed(
                seed=s.seed,
                threshold=t,
                validation_cost=vt["cost"] if vt else None,
                test_cost=tt["cost"],
                roc_auc=ranking.roc_auc(tp.p, tp.y, counts),
            )
        )
    tp = rep.test_pred
    counts = sorted_once.get(rep.seed) or ranking.descending_counts(tp.p, tp.y)
    return per_seed, counts, (roc_spread(rocs, grid), pr_spread(prs, grid))


def _threshold_entry(
    project: Project, mr: ModelRuns, rep: Any, vp: Any, per_seed: list[ThresholdSeed]
) -> ThresholdModel:
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
        cx, cy = curve_lists(ts[keep], cs[keep])
        curve = CostCurve(threshold=tuple(cx), cost=tuple(cy))
    threshold_reason = None
    if vp is None:
        threshold_reason = (
            _(
                "no validation predictions for {model} seed {seed}: the threshold is the fixed "
                "{threshold}",
                model=mr.name,
                seed=rep.seed,
                threshold=prob(cfg.threshold),
            )
            if isinstance(cfg.threshold, float)
            else _(
                "no validation predictions for {model} seed {seed}: the threshold is 0.5 (the "
                "cost-minimising threshold is chosen on validation predictions)",
                model=mr.name,
                seed=rep.seed,
            )
        )
    return ThresholdModel(
        seed=rep.seed,
        threshold=rep.threshold,
        threshold_reason=threshold_reason,
        predicts_none=bool(rep.threshold > 1.0),
        validation_cost=v["cost"] if v else None,
        test_cost=t["cost"],
        confusion=confusion_tuple(t["confusion"]),
        precision=t["precision"],
        recall=t["recall"],
        false_positive_rate=t["false_positive_rate"],
        predicted_positive=t["predicted_positive"],
        actual_positive=t["actual_positive"],
        rows=t["rows"],
        validation_confusion=confusion_tuple(v["confusion"]) if v else None,
        validation_precision=v["precision"] if v else None,
        validation_recall=v["recall"] if v else None,
        mean_test_cost=float(np.mean([p.test_cost for p in per_seed])),
        per_seed=tuple(per_seed),
        curve=curve,
    )


def confusion_tuple(rows: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    """A confusion matrix as the model holds it."""
    return tuple(tuple(r) for r in rows)


def _ranking_entry(rep: Any, vp: Any, counts: Any, per_seed: list[ThresholdSeed]) -> RankingModel:
    """ranking.<role>: the representative's ROC AUC and average precision with their curves."""
    tp = rep.test_pred
    aucs = [p.roc_auc for p in per_seed if p.roc_auc is not None]
    n_pos = int(np.count_nonzero(tp.y))
    n_neg = int(tp.y.size - n_pos)
    auc = ranking.roc_auc(tp.p, tp.y, counts)
    ap = ranking.average_precision(tp.p, tp.y, counts)
    roc = pr = None
    if auc is not None:
        fpr, tpr = ranking.roc_points(tp.p, tp.y, counts)
        fx, fy = curve_lists(fpr, tpr)
        roc = Roc(fpr=tuple(fx), tpr=tuple(fy))
    if ap is not None:
        rec, prec = ranking.pr_points(tp.p, tp.y, counts)
        rx, ry = curve_lists(rec, prec)
        pr = PrecisionRecall(recall=tuple(rx), precision=tuple(ry))
    one_class = (
        _(
            "the test part has one class only ({positives}, {negatives}): ROC AUC is undefined",
            positives=count_noun(n_pos, "positive"),
            negatives=count_noun(n_neg, "negative"),
        )
        if not (n_pos and n_neg)
        else None
    )
    return RankingModel(
        seed=rep.seed,
        roc_auc=auc,
        roc_auc_reason=None if auc is not None else one_class,
        average_precision=ap,
        average_precision_reason=None
        if ap is not None
        else _("no positives in the test part: average precision is undefined"),
        validation_roc_auc=ranking.roc_auc(vp.p, vp.y) if vp is not None else None,
        mean_roc_auc=float(np.mean(aucs)) if aucs else None,
        positives=n_pos,
        negatives=n_neg,
        roc=roc,
        pr=pr,
        roc_band=None,
        pr_band=None,
    )


def calibration_bin(b: calibration.ReliabilityBin) -> CalibrationBin:
    """One reliability bin as report.json holds it."""
    return CalibrationBin(
        low=b.low,
        high=b.high,
        count=b.count,
        mean_p=b.mean_p,
        fraction_positive=b.fraction_positive,
        fraction_low=b.fraction_low,
        fraction_high=b.fraction_high,
    )
