"""report.json ``results`` against an independent computation: every mean and sd recomputed from
the project's own files (runs.csv, split files, predictions) with pandas and scikit-learn, and
every interval against a hand-written ratio t, bootstrap, Wilson (statsmodels) or corrected
resampled t, for each task and design."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st
from sklearn import metrics as skm
from statsmodels.stats.proportion import proportion_confint

from reportgen.checks import compute_report
from reportgen.project import load_project
from tests.checks.builder import make_project
from tests.layouts.gen import make_project as make_layout

CAND, BASE = "net", "base"


def _report(root: Path) -> dict:
    report, _ = compute_report(load_project(root))
    return report


def _rows(report: dict, part: str, metric: str) -> dict[str, dict]:
    return {r["model"]: r for r in report["results"] if r["part"] == part and r["metric"] == metric}


def _networks(root: Path, model: str, part: str) -> list[pd.DataFrame]:
    """Each ok network's predictions of one model on one part, read with pandas."""
    runs = pd.read_csv(root / "runs.csv", dtype={"predictions": str})
    cfg = tomllib.loads((root / "evreport.toml").read_text())
    metric = cfg["claim"]["metric"]
    picked = runs[
        (runs.model == model)
        & (runs.split == part)
        & (runs.status == "ok")
        & (runs.metric == metric)
    ].drop_duplicates("seed")
    return [pd.read_csv(root / f, dtype={"row_id": str}) for f in picked.predictions]


def _aligned(root: Path, part: str) -> tuple[dict[str, list[pd.DataFrame]], list[str]]:
    """Both models' networks on the rows every one of them scored, sorted by row id."""
    nets = {m: _networks(root, m, part) for m in (CAND, BASE)}
    common = set.intersection(*(set(df.row_id) for v in nets.values() for df in v))
    ids = sorted(common)
    return {m: [df.set_index("row_id").loc[ids] for df in v] for m, v in nets.items()}, ids


def _blocks(root: Path, part: str, ids: list[str], column: str | None) -> np.ndarray:
    if column is None:
        return np.arange(len(ids))
    split = pd.read_csv(root / "split" / f"{part}.csv", dtype={"row_id": str}).set_index("row_id")
    return split.loc[ids, column].astype(str).to_numpy()


def _ratio_t(per_row: np.ndarray, blocks: np.ndarray, confidence: float = 0.95):
    """Cluster (block) ratio t of a mean of per-row values, by hand: the delta-method se."""
    df = pd.DataFrame({"v": per_row, "b": blocks}).groupby("b")["v"].agg(["sum", "count"])
    g, n = df["sum"].to_numpy(), df["count"].to_numpy().astype(float)
    r, B = g.sum() / n.sum(), len(g)
    se = math.sqrt(B / (B - 1) * np.sum((g - r * n) ** 2) / n.sum() ** 2)
    q = st.t.ppf(0.5 + confidence / 2, B - 1)
    return r - q * se, r + q * se


def _bootstrap(stat, blocks: np.ndarray, *, resamples=4000, seed=123):
    """Percentile bootstrap of ``stat(row mask as counts)`` over resampled blocks, by hand."""
    rng = np.random.default_rng(seed)
    labels, codes = np.unique(blocks, return_inverse=True)
    draws = []
    for _ in range(resamples):
        pick = rng.integers(0, len(labels), len(labels))
        weight = np.bincount(pick, minlength=len(labels))[codes]
        draws.append(stat(weight))
    return np.percentile(draws, [2.5, 97.5])


def _check_row(row: dict, per_net: list[float], *, rows: int):
    assert row["mean"] == pytest.approx(np.mean(per_net), rel=1e-9)
    if len(per_net) > 1:
        assert row["sd"] == pytest.approx(np.std(per_net, ddof=1), rel=1e-9)
    assert row["networks"] == len(per_net)
    assert row["rows"] == rows
    assert row["low"] <= row["mean"] <= row["high"]


def _check_mean_interval(row: dict, seed_avg_rows: np.ndarray, blocks: np.ndarray):
    """The interval of a mean of per-row values: the wider of the ratio t and the bootstrap."""
    t_low, t_high = _ratio_t(seed_avg_rows, blocks)
    b_low, b_high = _bootstrap(lambda w: np.sum(w * seed_avg_rows) / np.sum(w), blocks)
    width = row["high"] - row["low"]
    assert width >= 0.999 * min(t_high - t_low, b_high - b_low)
    assert width == pytest.approx(max(t_high - t_low, b_high - b_low), rel=0.12)
    if t_high - t_low >= 1.12 * (b_high - b_low):  # clearly the t: exactly it
        assert (row["low"], row["high"]) == pytest.approx((max(t_low, 0), t_high), rel=1e-9)


def test_binary_results_match_sklearn_on_test_and_validation(tmp_path):
    root = make_project(tmp_path / "p", seeds=4)
    toml = (root / "evreport.toml").read_text()
    (root / "evreport.toml").write_text(
        toml.replace("[evaluation]\n", "[evaluation]\nthreshold = 0.5\n")
    )
    report = _report(root)
    assert [(r["part"], r["metric"], r["model"]) for r in report["results"]][:4] == [
        ("test", "log_loss", CAND),
        ("test", "log_loss", BASE),
        ("test", "accuracy", CAND),
        ("test", "accuracy", BASE),
    ]
    for part in ("test", "validation"):
        nets, ids = _aligned(root, part)
        blocks = _blocks(root, part, ids, "week")
        for metric, fn in (
            ("log_loss", lambda d: skm.log_loss(d.y, d.p, labels=[0, 1])),
            ("accuracy", lambda d: skm.accuracy_score(d.y, d.p >= 0.5)),
        ):
            got = _rows(report, part, metric)
            for model, dfs in nets.items():
                _check_row(got[model], [fn(d) for d in dfs], rows=len(ids))
                if metric == "log_loss":
                    per_row = np.mean(
                        [-np.log(np.where(d.y == 1, d.p, 1 - d.p)) for d in dfs], axis=0
                    )
                else:
                    per_row = np.mean([((d.p >= 0.5) == d.y).astype(float) for d in dfs], axis=0)
                _check_mean_interval(got[model], per_row, blocks)
    # the gap on the same basis: the two models' test log loss differ by the block line's gap
    test = _rows(report, "test", "log_loss")
    assert test[BASE]["mean"] - test[CAND]["mean"] == pytest.approx(
        report["noise"]["block"]["gap"], rel=1e-9
    )
    assert "30 weeks" in test[CAND]["basis"]


def test_multiclass_results_match_sklearn_accuracy_and_macro_f1(tmp_path):
    root = tmp_path / "mc"
    make_layout(root, task="multiclass", seeds=3)
    report = _report(root)
    nets, ids = _aligned(root, "test")
    blocks = _blocks(root, "test", ids, "week")
    proba = {
        m: [d[[c for c in d.columns if c.startswith("p_")]].to_numpy() for d in v]
        for m, v in nets.items()
    }
    for model, dfs in nets.items():
        hats = [p.argmax(axis=1) for p in proba[model]]
        acc = [skm.accuracy_score(d.y, h) for d, h in zip(dfs, hats, strict=True)]
        f1 = [skm.f1_score(d.y, h, average="macro") for d, h in zip(dfs, hats, strict=True)]
        ll = [
            skm.log_loss(d.y, p, labels=[0, 1, 2]) for d, p in zip(dfs, proba[model], strict=True)
        ]
        _check_row(_rows(report, "test", "accuracy")[model], acc, rows=len(ids))
        _check_row(_rows(report, "test", "log_loss")[model], ll, rows=len(ids))
        row = _rows(report, "test", "macro_f1")[model]
        _check_row(row, f1, rows=len(ids))

        def drawn_f1(w, dfs=dfs, hats=hats):
            return np.mean(
                [
                    skm.f1_score(d.y, h, average="macro", sample_weight=w)
                    for d, h in zip(dfs, hats, strict=True)
                ]
            )

        b_low, b_high = _bootstrap(drawn_f1, blocks, resamples=400)
        assert row["high"] - row["low"] == pytest.approx(b_high - b_low, rel=0.25)
        assert "recomputing" in row["basis"]
    # macro F1 and accuracy of one model stand on one basis: the same networks and rows
    assert (
        _rows(report, "test", "macro_f1")[CAND]["networks"]
        == _rows(report, "test", "accuracy")[CAND]["networks"]
    )


def test_regression_results_match_sklearn_mse_rmse_and_mae(tmp_path):
    root = tmp_path / "reg"
    make_layout(root, task="regression", seeds=3)
    report = _report(root)
    nets, ids = _aligned(root, "test")
    blocks = _blocks(root, "test", ids, "week")
    for model, dfs in nets.items():
        mse = [skm.mean_squared_error(d.y, d.y_pred) for d in dfs]
        _check_row(_rows(report, "test", "squared_error")[model], mse, rows=len(ids))
        _check_row(_rows(report, "test", "rmse")[model], [math.sqrt(v) for v in mse], rows=len(ids))
        mae = [skm.mean_absolute_error(d.y, d.y_pred) for d in dfs]
        _check_row(_rows(report, "test", "absolute_error")[model], mae, rows=len(ids))
        sq = np.mean([(d.y - d.y_pred).to_numpy() ** 2 for d in dfs], axis=0)
        _check_mean_interval(_rows(report, "test", "squared_error")[model], sq, blocks)
    assert {r["part"] for r in report["results"]} == {"test", "validation"}


def test_cross_validation_results_are_fold_means_with_the_corrected_t(tmp_path):
    root = tmp_path / "cv"
    make_layout(root, kind="cv", repeats=3, folds=5, rows=200, seeds=(2, 2))
    report = _report(root)
    runs = pd.read_csv(root / "runs.csv")
    folds = pd.read_csv(root / "split" / "folds.csv")
    n = folds.groupby("repeat").size().iloc[0]
    sizes = folds.groupby(["repeat", "fold"]).size()
    ratio = float(np.mean(sizes / (n - sizes)))
    for metric, fn in (
        ("log_loss", lambda d: skm.log_loss(d.y, d.p, labels=[0, 1])),
        ("accuracy", lambda d: skm.accuracy_score(d.y, d.p >= 0.5)),
    ):
        got = _rows(report, "cv", metric)
        for model in (CAND, BASE):
            mine = runs[(runs.model == model) & (runs.split == "fold")]
            per_fold = [
                [fn(pd.read_csv(root / f)) for f in g.predictions]
                for _, g in mine.groupby(["repeat", "fold"])
            ]
            means = np.array([np.mean(v) for v in per_fold])
            J = means.size
            se = math.sqrt(1 / J + ratio) * np.std(means, ddof=1)
            q = st.t.ppf(0.975, J - 1)
            row = got[model]
            assert row["mean"] == pytest.approx(means.mean(), rel=1e-9)
            assert row["sd"] == pytest.approx(
                math.sqrt(np.mean([np.var(v, ddof=1) for v in per_fold])), rel=1e-9
            )
            assert (row["low"], row["high"]) == pytest.approx(
                (means.mean() - q * se, means.mean() + q * se), rel=1e-9
            )
            assert row["networks"] == 2 and row["rows"] == n
            assert "corrected resampled t" in row["basis"]


def test_before_after_results_are_the_two_versions_with_wilson_intervals(tmp_path):
    root = tmp_path / "ba"
    make_layout(root, kind="ba")
    report = _report(root)
    for part, split in (("test", "test"), ("general", "general")):
        got = _rows(report, part, "accuracy")
        assert list(got) == ["before", "after"]
        dfs = {
            m: pd.read_csv(
                root / "artefacts" / "predictions" / f"{m}-{split}.csv", dtype={"row_id": str}
            )
            for m in got
        }
        ids = sorted(set(dfs["before"].row_id) & set(dfs["after"].row_id))
        for model, d in dfs.items():
            right = d.set_index("row_id").loc[ids, "correct"]
            row = got[model]
            assert row["mean"] == pytest.approx(right.mean(), rel=1e-12)
            low, high = proportion_confint(right.sum(), len(ids), 0.05, method="wilson")
            assert (row["low"], row["high"]) == pytest.approx((low, high), rel=1e-9)
            assert row["networks"] == 1 and row["sd"] is None and row["rows"] == len(ids)
            assert "Wilson" in row["basis"]


def test_a_run_log_only_project_has_logged_means_and_no_interval(tmp_path):
    root = make_project(tmp_path / "p", seeds=3, predictions=False)
    report = _report(root)
    runs = pd.read_csv(root / "runs.csv")
    for part in ("test", "validation"):
        got = _rows(report, part, "log_loss")
        for model in (CAND, BASE):
            vals = runs[(runs.model == model) & (runs.split == part)].drop_duplicates("seed").value
            assert got[model]["mean"] == pytest.approx(vals.mean(), rel=1e-12)
            assert got[model]["sd"] == pytest.approx(vals.std(ddof=1), rel=1e-12)
            assert got[model]["low"] is None and got[model]["rows"] is None


def _epochs_project(tmp_path: Path, n: int = 60, epochs: int = 3):
    """A before/after project of lm-eval runs: each version answered n questions (subjects
    a, b, c) over ``epochs`` runs; the project's root and each version's (epochs, n) scores."""
    from tests.record.evallog_helpers import cli, write_lm_eval

    rng = np.random.default_rng(5)
    chance = {"before": rng.uniform(0.2, 0.8, n)}
    chance["after"] = np.clip(chance["before"] + 0.15, 0, 1)
    subjects = [("a", "b", "c")[i % 3] for i in range(n)]
    root = tmp_path / "p"
    scores = {}
    for version in ("before", "after"):
        runs = (rng.random((epochs, n)) < chance[version]).astype(float)
        scores[version] = runs
        paths = [
            write_lm_eval(
                tmp_path / f"{version}{e}", runs[e].tolist(), stamp=f"2026-01-0{e + 1}",
                subjects=subjects,
            )
            for e in range(epochs)
        ]  # fmt: skip
        r = cli(
            "import", "lm-eval", str(root), *map(str, paths), "--model", version,
            "--metric", "acc", "--slice-key", "subject",
        )  # fmt: skip
        assert r.exit_code == 0, r.output
    toml = (root / "evreport.toml").read_text(encoding="utf-8")
    toml = toml.replace('kind      = "model-vs-baseline"', 'kind      = "before-after"')
    toml = toml.replace('candidate = "candidate"', 'candidate = "after"')
    (root / "evreport.toml").write_text(toml, encoding="utf-8")
    return root, scores, np.array(subjects)


def test_before_after_with_epochs_is_the_mean_of_runs_over_question_means(tmp_path):
    """Three lm-eval runs (epochs) per version: each row is the mean of the version's runs, their
    sd, and the interval over questions of each question's mean over the runs (questions as
    clusters), at least as wide as the one-sample t on those means (the wider-of rule)."""
    root, scores, _ = _epochs_project(tmp_path)
    n, epochs = 60, 3
    got = _rows(_report(root), "test", "accuracy")
    assert list(got) == ["before", "after"]
    for version, runs in scores.items():
        row = got[version]
        assert row["mean"] == pytest.approx(runs.mean(), rel=1e-12)
        assert row["sd"] == pytest.approx(runs.mean(axis=1).std(ddof=1), rel=1e-12)
        assert row["networks"] == epochs and row["rows"] == n
        assert "3 evaluation runs" in row["basis"]
        q = runs.mean(axis=0)  # each question's mean over the epochs
        t = st.ttest_1samp(q, 0.0).confidence_interval(0.95)
        assert row["low"] <= t.low + 1e-12 and row["high"] >= t.high - 1e-12
        assert row["high"] - row["low"] < 2.5 * (t.high - t.low)


def test_before_after_slices_count_fixed_and_broken_by_the_whole_sets_rule(tmp_path):
    """With epochs a question is fixed when its mean over the runs crossed one half upwards, in
    every slice as in the whole set (a mean of 1/3 is not "right")."""
    root, scores, subjects = _epochs_project(tmp_path)
    report = _report(root)
    b, a = scores["before"].mean(axis=0), scores["after"].mean(axis=0)
    fixed, broken = (b < 0.5) & (a > 0.5), (b > 0.5) & (a < 0.5)
    ba = report["before_after"]
    assert (ba["fixed"], ba["broken"]) == (int(fixed.sum()), int(broken.sum()))
    by_slice = {s["slice"]: s for s in report["slices"]}
    assert set(by_slice) == {"a", "b", "c"}
    for name, s in by_slice.items():
        m = subjects == name
        assert (s["fixed"], s["broken"]) == (int(fixed[m].sum()), int(broken[m].sum()))
        assert s["before"] == pytest.approx(b[m].mean(), rel=1e-12)
    assert sum(s["fixed"] for s in by_slice.values()) == ba["fixed"]
    # rung 3 cites every predictions file its interval read: each epoch of both versions
    runs = pd.read_csv(root / "runs.csv")
    files = list(runs[runs.model == "before"].predictions) + list(
        runs[runs.model == "after"].predictions
    )
    assert len(files) == 6 and ba["artefacts"] == files
    assert set(files) <= set(report["ladder"][2]["artefacts"])
