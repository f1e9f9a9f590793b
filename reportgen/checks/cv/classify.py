"""Threshold, ranking and calibration of a cross-validation design (methods.md section 9,
docs/methods.md "Cross-validation: cross-fitted threshold"), from each repeat's out-of-fold
predictions: every row is scored once per repeat by the network of its fold.

An out-of-fold set is one repeat's i-th network (by seed) of every fold. Each figure is computed
per set; a repeat's figure is the mean over its sets and ``cv`` gives the mean over repeats, the
spread across them and the lowest and highest. The fields the split design fills come from the
representative set (the median out-of-fold metric, as the split design's median validation
metric), its bands spanning every set. The threshold is cross-fitted: each fold's threshold is
chosen on the other folds' rows of the same set and applied to its own, so no row both chooses
and measures the cost.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from reportgen.checks.classify import (
    calibration_bin,
    confusion_tuple,
    costs_of,
    curve_lists,
    pr_spread,
    roc_spread,
)
from reportgen.checks.cv.select import FoldRuns
from reportgen.model.ranking import (
    Calibration,
    CalibrationModel,
    CvCalibration,
    CvRanking,
    PrecisionRecall,
    Ranking,
    RankingModel,
    Roc,
)
from reportgen.model.threshold import (
    CostCurve,
    CvThreshold,
    OverRepeats,
    Threshold,
    ThresholdModel,
    ThresholdSeed,
)
from reportgen.project import Project
from reportgen.stats import calibration, ranking, threshold
from reportgen.stats._util import FloatArray, IntArray
from reportgen.words import count, count_noun
from reportgen.words.i18n import _, n_


@dataclass(frozen=True, slots=True)
class OofSet:
    """One repeat's out-of-fold predictions of one network slot: every row once."""

    repeat: int
    slot: int
    seed: int  # the seed of the slot's network in the repeat's first fold
    p: FloatArray
    y: IntArray
    fold: IntArray
    metric: float  # the mean of the networks' fold metric: picks the representative


def oof_sets(fr: FoldRuns) -> list[OofSet]:
    """Every complete out-of-fold set of a model: repeat r, slot i when every fold of repeat r
    has an i-th network (by seed) with binary predictions."""
    out = []
    for r in sorted({k[0] for k in fr.nets}):
        folds = sorted(k for k in fr.nets if k[0] == r)
        nets = [sorted(fr.nets[k], key=lambda n: n.seed) for k in folds]
        for i in range(min(len(v) for v in nets)):
            chosen = [v[i] for v in nets]
            preds = [n.pred for n in chosen]
            if any(pr is None or pr.kind != "binary" for pr in preds):
                continue
            ps = [pr.p for pr in preds if pr is not None and pr.p is not None]
            ys = [pr.y for pr in preds if pr is not None and pr.y is not None]
            if len(ps) != len(chosen) or len(ys) != len(chosen):
                continue
            out.append(
                OofSet(
                    repeat=r,
                    slot=i,
                    seed=chosen[0].seed,
                    p=np.concatenate(ps).astype(float),
                    y=np.concatenate(ys).astype(np.int64),
                    fold=np.concatenate(
                        [
                            np.full(len(p), k[1], dtype=np.int64)
                            for p, k in zip(ps, folds, strict=True)
                        ]
                    ),
                    metric=float(np.mean([n.value for n in chosen])),
                )
            )
    return out


def over_repeats(sets: list[OofSet], values: list[float | None]) -> OverRepeats:
    """A figure per set summarised over repeats: each repeat's mean over its sets, then the mean,
    sd (ddof 1), lowest and highest over repeats (sets without the figure left out)."""
    per: dict[int, list[float]] = {}
    for s, v in zip(sets, values, strict=True):
        if v is not None:
            per.setdefault(s.repeat, []).append(v)
    rep = np.array([np.mean(v) for _, v in sorted(per.items())], dtype=float)
    if rep.size == 0:
        return OverRepeats(mean=None, sd=None, low=None, high=None, repeats=0)
    return OverRepeats(
        mean=float(rep.mean()),
        sd=float(rep.std(ddof=1)) if rep.size > 1 else None,
        low=float(rep.min()),
        high=float(rep.max()),
        repeats=int(rep.size),
    )


def basis(sets: list[OofSet], folds: int) -> str:
    """The words of what the figures rest on."""
    repeats = len({s.repeat for s in sets})
    per = len(sets) // repeats if repeats else 0
    # more than one network per fold: English has only the plural
    nets = (
        ""
        if per <= 1
        else n_(
            ", {n} networks per fold each giving its own set",
            ", {n} networks per fold each giving its own set",
            per,
        )
    )
    return _(
        "out-of-fold predictions of {repeats} of {folds} folds: every row scored once per "
        "repeat by the network that did not train on it{nets}; figures are means over repeats "
        "with the spread across repeats",
        repeats=count_noun(repeats, "repeat"),
        folds=count(folds),
        nets=nets,
    )


def threshold_basis() -> str:
    """How the cross-fitted threshold is chosen, in the language being written."""
    return _(
        "cross-fitted: within each repeat, each fold's threshold is the cost-minimising one on "
        "the other folds' out-of-fold rows, applied to that fold's rows; cost and confusion are "
        "pooled over the repeat's rows, so no row both chooses and measures the threshold"
    )


def cv_classification(
    project: Project, fc: FoldRuns, fb: FoldRuns
) -> tuple[Threshold | None, Ranking | None, Calibration | None]:
    """The threshold, ranking and calibration sections of a cv design, or (None, None, None)
    without a complete out-of-fold set of binary predictions for both models."""
    cfg = project.config
    fp, fn = cfg.false_positive, cfg.false_negative
    th, rk, cal = [], [], []
    for fr in (fc, fb):
        sets = oof_sets(fr)
        if not sets:
            return None, None, None
        folds = len(set(sets[0].fold.tolist()))
        fits = [threshold.cross_fitted(s.p, s.y, s.fold, fp, fn) for s in sets]
        if any(f is None for f in fits):
            return None, None, None
        order = sorted(
            range(len(sets)), key=lambda i: (sets[i].metric, sets[i].repeat, sets[i].slot)
        )
        ri = order[(len(order) - 1) // 2]
        words = basis(sets, folds)
        th.append(_threshold(project, sets, fits, ri, words))
        rk.append(_ranking(sets, ri, words))
        cal.append(_calibration(project, sets, ri, words))
    costs = costs_of(project)
    return (
        Threshold(
            candidate=th[0],
            baseline=th[1],
            theoretical_cutoff=threshold.theoretical_cutoff(fp, fn),
            costs=costs,
            rule=cfg.threshold,
        ),
        Ranking(candidate=rk[0], baseline=rk[1]),
        Calibration(candidate=cal[0], baseline=cal[1], bins=cfg.bins),
    )


def _threshold(
    project: Project,
    sets: list[OofSet],
    fits: list[threshold.CrossFitted | None],
    ri: int,
    words: str,
) -> ThresholdModel:
    cfg = project.config
    fp, fn = cfg.false_positive, cfg.false_negative
    done = [f for f in fits if f is not None]
    rep, fit = sets[ri], done[ri]
    (tn, fpos), (fneg, tp) = fit.confusion
    medians = [float(np.median(f.thresholds)) for f in done]
    ts, cs = threshold.cost_curve(rep.p, rep.y, fp, fn)
    keep = ts <= 1.0
    cx, cy = curve_lists(ts[keep], cs[keep])
    conf = np.mean([np.array(f.confusion, dtype=float) for f in done], axis=0)
    costs = [f.cost for f in done]
    aucs = [ranking.roc_auc(s.p, s.y) for s in sets]
    per_seed = tuple(
        ThresholdSeed(seed=s.seed, threshold=m, validation_cost=None, test_cost=f.cost, roc_auc=a)
        for s, f, m, a in zip(sets, done, medians, aucs, strict=True)
    )
    t = medians[ri]
    return ThresholdModel(
        seed=rep.seed,
        threshold=t,
        threshold_reason=None,
        predicts_none=bool(min(fit.thresholds) > 1.0),
        validation_cost=None,
        test_cost=fit.cost,
        confusion=confusion_tuple([[tn, fpos], [fneg, tp]]),
        precision=tp / (tp + fpos) if tp + fpos else 0.0,
        recall=tp / (tp + fneg) if tp + fneg else 0.0,
        false_positive_rate=fpos / (fpos + tn) if fpos + tn else None,
        predicted_positive=tp + fpos,
        actual_positive=tp + fneg,
        rows=fit.rows,
        validation_confusion=None,
        validation_precision=None,
        validation_recall=None,
        mean_test_cost=float(np.mean([c for c in costs if c is not None])),
        per_seed=per_seed,
        curve=CostCurve(threshold=tuple(cx), cost=tuple(cy)),
        cv=CvThreshold(
            basis=f"{threshold_basis()}; {words}",
            cost=over_repeats(sets, list(costs)),
            thresholds=over_repeats(sets, list(medians)),
            confusion=tuple(tuple(float(v) for v in row) for row in conf),
            sets=len(sets),
        ),
    )


def _ranking(sets: list[OofSet], ri: int, words: str) -> RankingModel:
    grid = ranking.band_grid()
    rocs, prs, aucs, aps = [], [], [], []
    for s in sets:
        counts = ranking.descending_counts(s.p, s.y)
        rocs.append(ranking.roc_on_grid(counts, grid))
        prs.append(ranking.pr_on_grid(counts, grid))
        aucs.append(ranking.roc_auc(s.p, s.y, counts))
        aps.append(ranking.average_precision(s.p, s.y, counts))
    rep = sets[ri]
    counts = ranking.descending_counts(rep.p, rep.y)
    n_pos = int(np.count_nonzero(rep.y))
    n_neg = int(rep.y.size - n_pos)
    roc = pr = None
    if aucs[ri] is not None:
        fx, fy = curve_lists(*ranking.roc_points(rep.p, rep.y, counts))
        roc = Roc(fpr=tuple(fx), tpr=tuple(fy))
    if aps[ri] is not None:
        rx, ry = curve_lists(*ranking.pr_points(rep.p, rep.y, counts))
        pr = PrecisionRecall(recall=tuple(rx), precision=tuple(ry))
    auc_ok = [a for a in aucs if a is not None]
    return RankingModel(
        seed=rep.seed,
        roc_auc=aucs[ri],
        roc_auc_reason=None if aucs[ri] is not None else _("one class only: ROC AUC is undefined"),
        average_precision=aps[ri],
        average_precision_reason=None
        if aps[ri] is not None
        else _("no positives: average precision is undefined"),
        validation_roc_auc=None,
        mean_roc_auc=float(np.mean(auc_ok)) if auc_ok else None,
        positives=n_pos,
        negatives=n_neg,
        roc=roc,
        pr=pr,
        roc_band=roc_spread(rocs, grid),
        pr_band=pr_spread(prs, grid),
        cv=CvRanking(
            basis=words,
            roc_auc=over_repeats(sets, list(aucs)),
            average_precision=over_repeats(sets, list(aps)),
        ),
    )


def _calibration(project: Project, sets: list[OofSet], ri: int, words: str) -> CalibrationModel:
    cfg = project.config
    rep = sets[ri]
    eces = [calibration.ece(s.p, s.y, cfg.bins) for s in sets]
    briers = [calibration.brier(s.p, s.y) for s in sets]
    per_bin: list[list[float]] = [[] for _ in range(cfg.bins)]
    for s in sets:
        for b, rb in enumerate(calibration.reliability_bins(s.p, s.y, cfg.bins)):
            if rb.fraction_positive is not None:
                per_bin[b].append(rb.fraction_positive)
    bins = calibration.reliability_bins(rep.p, rep.y, cfg.bins, confidence=cfg.confidence)
    model = CalibrationModel(
        seed=rep.seed,
        ece=eces[ri],
        brier=briers[ri],
        validation_ece=None,
        bins=tuple(calibration_bin(b) for b in bins),
    )
    return replace(
        model,
        cv=CvCalibration(
            basis=words,
            ece=over_repeats(sets, list(eces)),
            brier=over_repeats(sets, list(briers)),
            band_low=tuple(min(v) if v else None for v in per_bin),
            band_high=tuple(max(v) if v else None for v in per_bin),
        ),
    )
