"""A cross-validation design's threshold, ranking and calibration (checks/cv/classify.py)
against an independent computation: each repeat's out-of-fold predictions rebuilt from runs.csv
and the predictions files, scikit-learn's ROC AUC and Brier score, and a brute-force
cross-fitted threshold (a loop over every candidate threshold of the other folds' rows)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import brier_score_loss, roc_auc_score

from reportgen.checks import compute_report
from reportgen.project import load_project
from tests.layouts.gen_cv import make_cv_project

EPS = np.finfo(np.float64).eps


def _brute_threshold(p, y, c_fp, c_fn):
    cands = sorted({float(v) for v in p} | {0.5, float(np.nextafter(1.0, np.inf))})
    costs = [
        (c_fp * np.sum((p >= t) & (y == 0)) + c_fn * np.sum((p < t) & (y == 1))) / len(p)
        for t in cands
    ]
    cmin = min(costs)
    tied = [t for t, c in zip(cands, costs, strict=True) if c - cmin <= 8 * EPS * abs(cmin)]
    dmin = min(abs(t - 0.5) for t in tied)
    return max(t for t in tied if abs(t - 0.5) - dmin <= 8 * EPS * dmin)


def _oof_sets(path, model):
    """{(repeat, slot): (p, y, fold)} rebuilt from runs.csv and the predictions files."""
    runs = pd.read_csv(path / "runs.csv")
    runs = runs[(runs.model == model) & (runs.split == "fold") & (runs.metric == "log_loss")]
    out = {}
    for r, rr in runs.groupby("repeat"):
        per_fold = {k: g.sort_values("seed") for k, g in rr.groupby("fold")}
        for slot in range(min(len(g) for g in per_fold.values())):
            ps, ys, fs = [], [], []
            for k, g in sorted(per_fold.items()):
                pred = pd.read_csv(path / g.iloc[slot].predictions)
                ps.append(pred.p.to_numpy(float))
                ys.append(pred.y.to_numpy(int))
                fs.append(np.full(len(pred), k))
            out[(int(r), slot)] = tuple(np.concatenate(a) for a in (ps, ys, fs))
    return out


def _over_repeats(values):
    """{(repeat, slot): v} -> (mean over repeats of each repeat's slot mean, sd ddof 1)."""
    reps = {}
    for (r, _), v in values.items():
        reps.setdefault(r, []).append(v)
    per = np.array([np.mean(v) for _, v in sorted(reps.items())])
    return per.mean(), per.std(ddof=1)


@pytest.fixture(scope="module")
def cv_built(tmp_path_factory):
    gen = make_cv_project(tmp_path_factory.mktemp("cv") / "p")
    report, _ = compute_report(load_project(gen.path))
    return gen.path, report


@pytest.mark.parametrize("role", ["candidate", "baseline"])
def test_out_of_fold_auc_brier_and_cross_fitted_cost_match_an_independent_computation(
    cv_built, role
):
    path, report = cv_built
    model = report["project"][role]
    costs = report["threshold"]["costs"]
    c_fp, c_fn = costs["false_positive"], costs["false_negative"]
    sets = _oof_sets(path, model)
    auc, brier, cost = {}, {}, {}
    for key, (p, y, fold) in sets.items():
        auc[key] = roc_auc_score(y, p)
        brier[key] = brier_score_loss(y, p)
        errors = 0.0
        for k in np.unique(fold):
            t = _brute_threshold(p[fold != k], y[fold != k], c_fp, c_fn)
            pk, yk = p[fold == k], y[fold == k]
            errors += c_fp * np.sum((pk >= t) & (yk == 0)) + c_fn * np.sum((pk < t) & (yk == 1))
        cost[key] = errors / len(p)
    rk = report["ranking"][role]["cv"]["roc_auc"]
    cal = report["calibration"][role]["cv"]["brier"]
    th = report["threshold"][role]["cv"]
    for got, want in ((rk, auc), (cal, brier), (th["cost"], cost)):
        mean, sd = _over_repeats(want)
        assert got["mean"] == pytest.approx(mean, rel=1e-12)
        assert got["sd"] == pytest.approx(sd, rel=1e-9)
        assert got["repeats"] == 3
    assert th["sets"] == len(sets) == 6  # 3 repeats x 2 networks per fold
    assert "cross-fitted" in th["basis"]
    # the confusion is pooled over a repeat's rows: every row once per set
    assert sum(map(sum, th["confusion"])) == pytest.approx(200)


def test_the_split_designs_fields_are_one_typical_out_of_fold_set(cv_built):
    _, report = cv_built
    th, rk = report["threshold"]["candidate"], report["ranking"]["candidate"]
    assert th["rows"] == 200 and sum(map(sum, th["confusion"])) == 200
    assert th["validation_cost"] is None
    assert rk["roc_band"]["seeds"] == 6
    assert (
        len(report["calibration"]["candidate"]["cv"]["band_low"]) == report["calibration"]["bins"]
    )
