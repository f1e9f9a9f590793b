"""Every example's headline figures, recomputed independently with pandas, scipy and scikit-learn."""

import json
import tomllib
from pathlib import Path

import jsonschema
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import log_loss, mean_absolute_error, mean_squared_error, roc_auc_score

from reportgen.checks import compute_report
from reportgen.project import load_project

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(p.parent for p in (ROOT / "examples").glob("*/evreport.toml"))
SCHEMA = json.loads((ROOT / "reportgen" / "report.schema.json").read_text())


@pytest.fixture(scope="module", params=EXAMPLES, ids=[p.name for p in EXAMPLES])
def example(request):
    root = request.param
    report = json.loads(json.dumps(compute_report(load_project(root))[0], allow_nan=False))
    cfg = tomllib.loads((root / "evreport.toml").read_text())
    runs = pd.read_csv(root / "runs.csv", dtype={"config": str})
    return root, cfg, runs, report


def test_schema(example):
    _, _, _, report = example
    jsonschema.Draft202012Validator(SCHEMA).validate(report)


def _analysed(runs, model, split, metric):
    ok = runs[(runs.model == model) & (runs.metric == metric) & (runs.status.fillna("ok") == "ok")]
    test_cfgs = ok[ok.split == "test"].config.unique()
    if len(test_cfgs) == 1:
        ok = ok[ok.config == test_cfgs[0]]
        complete = set(ok[ok.split == "test"].seed) & set(
            ok[ok.split.isin(["validation", "val"])].seed
        )
        ok = ok[ok.seed.isin(complete)]
    return ok[ok.split.isin([split] + (["val"] if split == "validation" else []))].sort_values(
        "seed"
    )


def _read(root, rel):
    p = root / rel
    return pd.read_parquet(p) if p.suffix == ".parquet" else pd.read_csv(p, dtype={"row_id": str})


def _classes(d):
    return [c for c in d.columns if c.startswith("p_")]


def _file_metric(d, metric):
    """A predictions file's metric with scikit-learn, by its task's columns."""
    if "y_pred" in d:
        f = {"squared_error": mean_squared_error, "absolute_error": mean_absolute_error}[metric]
        return f(d.y, d.y_pred)
    cols = _classes(d)
    if cols:
        labels = [int(c[2:]) for c in cols]
        return log_loss(d.y, d[cols].to_numpy(), labels=labels)
    return log_loss(d.y, d.p, labels=[0, 1])


def _row_metric(d, metric):
    """Per-row values of the metric (log loss or a regression error)."""
    eps = np.finfo(float).eps
    if "y_pred" in d:
        r = d.y - d.y_pred
        return r * r if metric == "squared_error" else r.abs()
    cols = _classes(d)
    if cols:
        picked = d[cols].to_numpy()[np.arange(len(d)), [cols.index(f"p_{v}") for v in d.y]]
        return -np.log(np.clip(picked, eps, 1 - eps))
    p = d.p.clip(eps, 1 - eps)
    return -(d.y * np.log(p) + (1 - d.y) * np.log(1 - p))


def test_seed_line(example):
    root, cfg, runs, report = example
    if cfg["claim"].get("kind") == "before-after":
        pytest.skip("no seed line in before-after mode")
    if cfg.get("evaluation", {}).get("design") == "cv":
        pytest.skip("cross-validation: test_cv_figures")
    c, b, metric = cfg["claim"]["candidate"], cfg["claim"]["baseline"], cfg["claim"]["metric"]
    seed = report["noise"]["seed"]
    vals = {}
    for role, model in (("candidate", c), ("baseline", b)):
        rows = _analysed(runs, model, "validation", metric)
        if metric in ("log_loss", "squared_error", "absolute_error") and (
            rows.predictions.notna().all()
        ):
            v = [_file_metric(_read(root, r), metric) for r in rows.predictions]
        else:
            v = rows.value.tolist()
        vals[role] = np.array(v)
        assert seed["n"][role] == len(v)
        assert seed["sd"][role] == pytest.approx(np.std(v, ddof=1), rel=1e-6)
    hib = metric == "accuracy"
    gap = (vals["candidate"].mean() - vals["baseline"].mean()) * (1 if hib else -1)
    assert seed["validation_gap"] == pytest.approx(gap, rel=1e-6, abs=1e-12)
    sd_used = max(seed["sd"]["candidate"], seed["sd"]["baseline"])
    assert seed["gap_in_sd"] == pytest.approx(gap / sd_used, rel=1e-6)
    better = (
        vals["candidate"] > vals["baseline"].mean()
        if hib
        else vals["candidate"] < vals["baseline"].mean()
    )
    assert seed["seeds_beating_baseline"] == int(better.sum())


def test_block_gap_and_auc(example):
    root, cfg, runs, report = example
    if cfg["claim"].get("kind") == "before-after" or report["noise"]["block"] is None:
        pytest.skip("no block section")
    c, b, metric = cfg["claim"]["candidate"], cfg["claim"]["baseline"], cfg["claim"]["metric"]
    block = cfg.get("evaluation", {}).get("block")
    frames = {}
    for role, model in (("candidate", c), ("baseline", b)):
        rows = _analysed(runs, model, "test", metric)
        per_seed = []
        for rel in rows.predictions:
            d = _read(root, rel)
            d["row_id"] = d["row_id"].astype(str)
            if block and block not in d:
                split = pd.read_csv(root / "split" / "test.csv", dtype={"row_id": str})
                d = d.merge(split[["row_id", block]], on="row_id")
            if metric in ("log_loss", "squared_error", "absolute_error"):
                d["m"] = _row_metric(d, metric)
            else:
                pytest.skip("threshold-dependent metric: covered by the stats tests")
            key = block if block else "row_id"
            per_seed.append(d.groupby(key)["m"].sum())
            counts = d.groupby(key)["m"].size()
        frames[role] = pd.concat(per_seed, axis=1).mean(axis=1)
    g = frames["baseline"] - frames["candidate"]  # per-block gap sums (lower is better)
    n = counts.reindex(g.index).to_numpy(float)
    assert report["noise"]["block"]["blocks"] == len(g)
    # the row-weighted estimand: the test metric over all rows, as the logged test values
    gap = g.sum() / n.sum()
    assert report["noise"]["block"]["gap"] == pytest.approx(gap, rel=1e-9)
    # the ratio t interval, delta-method se written out here with pandas
    from scipy import stats

    resid = g.to_numpy() - gap * n
    se = np.sqrt(len(g) / (len(g) - 1) * (resid**2).sum()) / n.sum()
    q = stats.t.ppf(0.5 + cfg.get("rule", {}).get("confidence", 0.95) / 2, len(g) - 1)
    assert report["noise"]["block"]["t"]["low"] == pytest.approx(gap - q * se, rel=1e-9)
    assert report["noise"]["block"]["t"]["high"] == pytest.approx(gap + q * se, rel=1e-9)
    # the gap equals the difference of the seed-averaged logged test values
    logged = {
        role: _analysed(runs, model, "test", metric).value.mean()
        for role, model in (("candidate", c), ("baseline", b))
    }
    assert report["noise"]["block"]["gap"] == pytest.approx(
        logged["baseline"] - logged["candidate"], rel=1e-6
    )
    # AUC of the representative seed against scikit-learn
    if report["ranking"]:
        seed = report["ranking"]["candidate"]["seed"]
        rel = _analysed(runs, c, "test", metric).set_index("seed").loc[seed, "predictions"]
        d = _read(root, rel)
        assert report["ranking"]["candidate"]["roc_auc"] == pytest.approx(
            roc_auc_score(d.y, d.p), rel=1e-12
        )


def test_noise_lines_and_ladder(example):
    _, cfg, _, report = example
    a, b, *test = report["noise"]["lines"]
    if cfg.get("evaluation", {}).get("repeats") == "samples":  # epochs: repeated evaluations
        assert a.startswith("Seed spread (repeated runs: sampling noise): ")
    else:
        assert a.startswith("Seed spread (retraining): ")
    if cfg.get("evaluation", {}).get("design") == "cv":
        assert b.startswith("Resampling (cross-validation, ")
        assert all(t.startswith("Block bootstrap (which blocks") for t in test)
    else:
        assert not test
        assert b.startswith(
            "Block bootstrap (which blocks were sampled, for the networks as trained): "
        )
    assert [r["name"] for r in report["ladder"]] == [
        "correct",
        "fair",
        "larger than noise",
        "relevant",
        "bounded",
    ]
    assert all(r["status"] in ("shown", "partly", "not shown") for r in report["ladder"])


def test_deterministic(example):
    root, _, _, report = example
    again = json.loads(json.dumps(compute_report(load_project(root))[0], allow_nan=False))
    assert again == report


def test_before_after_figures(example):
    root, cfg, runs, report = example
    if cfg["claim"].get("kind") != "before-after":
        pytest.skip("model-vs-baseline example")
    from scipy.stats import binomtest

    def preds(model, split):
        """Each question's score: its mean over every run (epoch) of the model on the split."""
        rows = runs[(runs.model == model) & (runs.split == split)]
        frames = [_read(root, p).set_index("row_id") for p in rows.predictions]
        out = frames[0].copy()
        out["correct"] = pd.concat([f.correct for f in frames], axis=1).mean(axis=1)
        return out

    repeated = runs[runs.split == "test"].groupby("model").size().max() > 1

    before, after = (
        preds(cfg["claim"]["baseline"], "test"),
        preds(cfg["claim"]["candidate"], "test"),
    )
    both = before.merge(after, left_index=True, right_index=True, suffixes=("_b", "_a"))
    # right when the question's score is above one half (0 or 1 with one run each)
    fixed = both[(both.correct_b < 0.5) & (both.correct_a > 0.5)]
    broken = both[(both.correct_b > 0.5) & (both.correct_a < 0.5)]
    ba = report["before_after"]
    assert ba["questions"] == len(both)
    assert ba["before"] == pytest.approx(both.correct_b.mean(), rel=1e-12)
    assert ba["after"] == pytest.approx(both.correct_a.mean(), rel=1e-12)
    assert (ba["fixed"], ba["broken"]) == (len(fixed), len(broken))
    assert sorted(ba["broken_ids"]) == sorted(broken.index)
    if repeated:  # McNemar's test is for questions answered once
        assert ba["mcnemar_p"] is None
    else:
        assert ba["mcnemar_p"] == pytest.approx(
            binomtest(len(fixed), len(fixed) + len(broken), 0.5).pvalue, rel=1e-12
        )
    assert (
        ba["broken_by_category"]
        == broken.category_a.value_counts()
        .sort_index()
        .sort_values(ascending=False, kind="stable")
        .to_dict()
    )
    g_before = preds(cfg["claim"]["baseline"], "general").correct.mean()
    g_after = preds(cfg["claim"]["candidate"], "general").correct.mean()
    gen = report["general"]
    assert gen["drop"] == pytest.approx(g_before - g_after, rel=1e-12)
    # held only when the paired interval's upper end of the drop is within max_drop (a harm must be
    # ruled out): the t bound on per-question drops, written out with scipy here
    from scipy import stats

    gb = preds(cfg["claim"]["baseline"], "general")
    ga = preds(cfg["claim"]["candidate"], "general")
    per_q = (gb.correct - ga.correct.reindex(gb.index)).to_numpy(float)
    t_hi = stats.ttest_1samp(per_q, 0).confidence_interval(0.95).high
    assert gen["t"]["high"] == pytest.approx(t_hi, rel=1e-9)
    assert gen["high"] >= t_hi - 1e-12  # the primary is the wider of bootstrap and t
    assert gen["held"] == (gen["high"] <= cfg["general"]["max_drop"])
    # the decision follows the spec's rule from these numbers
    m = cfg["claim"].get("min_useful_effect", 0.0)
    adopt = ba["low"] > m and gen["held"]
    assert report["decision"]["verdict"] == ("adopt" if adopt else "roll-back")


def test_cv_figures(example):
    """A cv example's fold gaps from its predictions (scikit-learn's log loss per file), the
    corrected resampled t with scipy, the Bayesian correlated t with baycomp."""
    root, cfg, runs, report = example
    if cfg.get("evaluation", {}).get("design") != "cv":
        pytest.skip("not a cross-validation example")
    from baycomp import CorrelatedTTest
    from baycomp.single import Posterior
    from scipy import stats

    c, b, metric = cfg["claim"]["candidate"], cfg["claim"]["baseline"], cfg["claim"]["metric"]
    assert metric == "log_loss"
    folds = pd.read_csv(root / "split" / "folds.csv", dtype={"row_id": str})
    rows = runs[(runs.split == "fold") & (runs.metric == metric)]
    loss = {}
    for (model, r, k), grp in rows.groupby(["model", "repeat", "fold"]):
        loss[(model, r, k)] = np.mean(
            [log_loss(d.y, d.p, labels=[0, 1]) for d in (_read(root, p) for p in grp.predictions)]
        )
    keys = sorted({(r, k) for _, r, k in loss})
    d = np.array([loss[(b, r, k)] - loss[(c, r, k)] for r, k in keys])
    cv = report["noise"]["cv"]
    np.testing.assert_allclose([g["gap"] for g in cv["fold_gaps"]], d, rtol=1e-9)
    sizes = folds.groupby(["repeat", "fold"]).size().to_numpy(float)
    n = folds.row_id.nunique()
    ratio = float(np.mean(sizes / (n - sizes)))
    assert cv["test_train_ratio"] == pytest.approx(ratio, rel=1e-12)
    J = d.size
    se = np.sqrt((1 / J + ratio) * d.var(ddof=1))
    q = stats.t.ppf(0.975, J - 1)
    assert cv["corrected"]["low"] == pytest.approx(d.mean() - q * se, rel=1e-9)
    assert cv["corrected"]["high"] == pytest.approx(d.mean() + q * se, rel=1e-9)
    assert cv["naive"]["se"] == pytest.approx(d.std(ddof=1) / np.sqrt(J), rel=1e-9)
    R, K = folds.repeat.nunique(), folds.fold.nunique()
    rope = cfg["claim"]["min_useful_effect"]
    if len(set(sizes)) == 1:  # equal folds: baycomp's own correction, 1 / (K - 1)
        theirs = CorrelatedTTest.probs(np.zeros(J), d, rope=rope, runs=R)
    else:  # unequal folds (569 rows in 10): baycomp's posterior with the fold-size ratio
        theirs = Posterior(d.mean(), se**2, J - 1, rope).probs()
    bayes = cv["bayes"]
    assert (bayes["p_worse"], bayes["p_equivalent"], bayes["p_better"]) == pytest.approx(
        theirs, abs=1e-9
    )
    assert (cv["repeats"], cv["folds"], cv["J"]) == (R, K, R * K)


def test_cv_readme_quotes_the_report(example):
    """breast-cancer-cv's README says what the corrected interval shows that the naive one
    hides; every figure it quotes is the report's, as the report prints it."""
    root, cfg, _, report = example
    if root.name != "breast-cancer-cv":
        pytest.skip("the README of breast-cancer-cv")
    readme = " ".join((root / "README.md").read_text().split())
    cv = report["noise"]["cv"]
    line = report["noise"]["lines"][1]
    plan = cv["planning"]["text"]
    assert report["data"]["cv"]["rows"] == 569 and "569 tumours" in readme
    for quoted, source in (
        ("+0.0036 log loss over the 100 fold gaps", "+0.0036 log loss over 100 fold gaps"),
        (
            "+0.0016 to +0.0055 (t = +3.63, two-sided p < 0.001)",
            "+0.0016 to +0.0055 (t = +3.63, two-sided p < 0.001)",
        ),
        (
            "−0.0032 to +0.0103 (t = +1.04, two-sided p = 0.300)",
            "−0.0032 to +0.0103 (t = +1.04, two-sided p = 0.300;",
        ),
        ("P(equivalent) = 0.969", "P(equivalent) = 0.969"),
        ("P(better) = 0.031", "P(better) = 0.031"),
        ("within ±0.01", "±0.01 as the region"),
    ):
        assert quoted in readme and source in line, (quoted, source)
    for quoted in ("(now 0.0068)", "below 0.0064"):
        assert quoted in readme and quoted in plan
    assert cv["planning"]["repeats_cannot"] is True and "would not settle it" in readme
    assert round(cv["corrected"]["se"] / cv["naive"]["se"], 1) == 3.5
    assert "standard error 3.5-fold" in readme
    assert report["decision"]["verdict"] == "keep-baseline"
    assert "keeps the simpler logistic regression" in readme
