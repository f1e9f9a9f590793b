"""Recorder: log -> build round trip, bad input, refusals, parallel appends."""

from __future__ import annotations

import csv
import multiprocessing as mp
import warnings

import numpy as np
import pandas as pd
import pytest

from reportgen.record import Recorder
from tests.record.conftest import TOML, fake_p, log, log_both


def _report(root):
    from reportgen.checks import compute_report
    from reportgen.project import load_project

    return compute_report(load_project(root))[0]


def _check(report, cid):
    return next(c for c in report["checks"] if c["id"] == cid)


def _rows(root):
    with (root / "runs.csv").open(newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("metric", ["log_loss", "brier", "accuracy", "cost"])
def test_round_trip_logged_equals_recomputed(project, metric):
    root, rec, parts = project
    (root / "evreport.toml").write_text(TOML.format(metric=metric))
    metrics = ["log_loss", "brier", "accuracy", "error_rate", "cost"]
    log_both(rec, parts, 1.2, metric=metrics, split_id="s1", fit_seconds=0.5)
    rows = _rows(root)
    assert len(rows) == 2 * 3 * 2 * 5
    assert all(r["status"] == "ok" and r["env"].startswith("python=") for r in rows)
    assert rows[0]["started_at"].endswith("Z") and rows[0]["fit_seconds"] == "0.5"
    assert rows[0]["predictions"] == "artefacts/predictions/mlp-mlp-a-s1-validation.parquet"
    report = _report(root)
    c = _check(report, "logged-equals-recomputed")
    assert c["passed"] is True, c["text"]
    assert c["text"].startswith("12 of 12 logged values agree")


def test_value_matches_sklearn_and_full_precision(project):
    from sklearn.metrics import log_loss

    root, rec, parts = project
    y = parts["validation"]["y"].to_numpy()
    p = fake_p(y, 1.0, 3)
    got = log(rec, split="val", row_id=parts["validation"]["row_id"], y=y, p=p)
    assert got["log_loss"] == pytest.approx(log_loss(y, p), rel=1e-12)
    back = pd.read_parquet(root / "artefacts/predictions/mlp-s1-validation.parquet")
    assert np.array_equal(back["p"].to_numpy(), p)  # not rounded
    assert float(_rows(root)[0]["value"]) == got["log_loss"]
    assert _rows(root)[0]["split"] == "validation"


def test_test_before_validation_warns_about_threshold(project):
    root, rec, parts = project
    y = parts["test"]["y"].to_numpy()
    with pytest.warns(UserWarning, match="log validation before test"):
        log(
            rec,
            split="test",
            row_id=parts["test"]["row_id"],
            y=y,
            p=fake_p(y, 1, 1),
            metric="accuracy",
        )


def test_failed_run_and_correct_and_values(project):
    root, rec, parts = project
    log(rec, seed=4, split="validation", metric=["log_loss", "brier"], status="failed", notes="OOM")
    ids = parts["validation"]["row_id"]
    c = parts["validation"]["y"].to_numpy() == 1
    got = log(
        rec,
        seed=5,
        split="validation",
        row_id=ids,
        correct=c,
        category=["a"] * len(ids),
        metric=["accuracy", "error_rate"],
    )
    assert got["accuracy"] == pytest.approx(c.mean()) and got["error_rate"] == pytest.approx(
        1 - c.mean()
    )
    v = np.linspace(0, 1, len(ids))
    got = log(rec, seed=6, split="validation", row_id=ids, values=v, metric="latency_ms")
    assert got["latency_ms"] == pytest.approx(0.5)
    rows = _rows(root)
    assert [r["status"] for r in rows[:2]] == ["failed", "failed"] and rows[0]["value"] == ""
    assert rows[0]["predictions"] == "" and rows[0]["notes"] == "OOM"
    back = pd.read_parquet(root / rows[2]["predictions"])
    assert list(back.columns) == ["row_id", "correct", "category"]


#: a valid log call of three validation rows, which the tests below spoil one argument of
THREE_ROWS = dict(
    model="mlp",
    seed=1,
    split="validation",
    row_id=[1060, 1061, 1062],  # rows of the frozen validation part
    y=[0, 1, 1],
    p=[0.2, 0.7, 0.9],
    metric="log_loss",
)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(p=[0.5, float("nan"), 0.5]), r"p\[1\] = nan: p must be finite"),
        (dict(p=[0.5, 1.2, 0.5]), r"p\[1\] = 1.2 is outside \[0.0, 1.0\]"),
        (dict(p=[0.5, 0.5]), "p has 2 values but row_id has 3"),
        (dict(p=[[0.5, 0.5]] * 3), r"p must be 1-D, got shape \(3, 2\); .*\[:, 1\]"),
        (dict(y=[0, 2, 1]), r"y\[1\] = 2.0 is not a valid label"),
        (dict(split="holdout"), r"split='holdout' is not a part of the frozen split.*'test'"),
        (dict(metric="f1"), "metric='f1' is not a built-in metric"),
        (dict(seed=1.5), "seed=1.5 must be a whole number"),
        (dict(row_id=[1.0, 2.0, 3.0]), "row_id must be integers or strings"),
        (dict(row_id=[1060, 1060, 1061]), "row_id has duplicate values"),
        (dict(status="done"), "status='done' is not valid"),
        (dict(correct=[1, 0, 1]), "give exactly one of y and p, correct, or values"),
    ],
)
def test_bad_input_raises_valueerror_naming_the_argument(project, kwargs, message):
    root, rec, _ = project
    args = {**THREE_ROWS, **kwargs}
    with pytest.raises(ValueError, match=message):
        rec.log(**args)
    assert len(_rows(root)) == 0
    assert list((root / "artefacts/predictions").iterdir()) == []


def test_refuses_reuse_unless_replace(project):
    root, rec, _ = project
    args = dict(THREE_ROWS)
    rec.log(**args)
    with pytest.raises(ValueError, match="already has a validation row for metric 'log_loss'"):
        rec.log(**args)
    with pytest.raises(ValueError, match="already used by model 'mlp' seed 1"):
        rec.log(**{**args, "seed": 2, "run_id": "mlp-s1"})
    with pytest.raises(ValueError, match="already exists with other predictions"):
        rec.log(**{**args, "metric": "brier", "p": [0.1, 0.7, 0.9]})
    rec.log(**{**args, "metric": "brier"})  # same predictions, another metric: fine
    rec.log(**{**args, "p": [0.1, 0.8, 0.9]}, replace=True)
    rows = _rows(root)
    assert [r["metric"] for r in rows] == ["log_loss"]  # the whole (run, split) was replaced
    assert float(rows[0]["value"]) == pytest.approx(-np.mean(np.log([0.9, 0.8, 0.9])))


def test_creates_layout_without_overwriting(tmp_path):
    root = tmp_path / "new"
    Recorder(root)
    assert (root / "evreport.toml").exists() and (root / "artefacts/checks").is_dir()
    assert (root / "runs.csv").read_text().startswith("run_id,model,seed,split,metric,value,status")
    (root / "evreport.toml").write_text("title = 'mine'\n")
    Recorder(root)
    assert (root / "evreport.toml").read_text() == "title = 'mine'\n"


def test_no_manifest_warns(tmp_path):
    rec = Recorder(tmp_path / "p")
    with pytest.warns(UserWarning, match="freeze the split"):
        log(rec, model="m", split="validation", row_id=["a"], y=[1], p=[0.9])


def test_adds_missing_optional_columns(project):
    root, rec, _ = project
    (root / "runs.csv").write_text("run_id,model,seed,split,metric,value\n")
    log(rec, split="validation", row_id=[1060, 1061], y=[0, 1], p=[0.3, 0.6], notes="n")
    rows = _rows(root)
    assert rows[0]["notes"] == "n" and rows[0]["predictions"].endswith(".parquet")


def _worker(args):
    root, worker, n = args
    warnings.simplefilter("ignore")
    rec = Recorder(root)
    rng = np.random.default_rng(worker)
    for i in range(n):
        y = rng.integers(0, 2, size=50)
        log(
            rec,
            model=f"m{worker}",
            seed=i,
            split="validation",
            row_id=np.arange(1060, 1110),
            y=y,
            p=rng.uniform(0.01, 0.99, size=50),
            metric=["log_loss", "brier"],
        )
    return n


def test_parallel_processes_lose_nothing(project):
    root, _, _ = project
    n = 25
    with mp.get_context("spawn").Pool(4) as pool:
        assert pool.map(_worker, [(root, w, n) for w in range(4)]) == [n] * 4
    rows = _rows(root)
    assert len(rows) == 4 * n * 2
    assert len({(r["run_id"], r["metric"]) for r in rows}) == 4 * n * 2
    assert all(len(r) == len(rows[0]) and r["value"] for r in rows)
    assert len(list((root / "artefacts/predictions").glob("*.parquet"))) == 4 * n
    assert not list((root / "artefacts/predictions").glob(".*tmp"))


def test_csv_predictions_round_trip_exactly(project):
    root, _, parts = project
    rec = Recorder(root, predictions="csv")
    y = parts["validation"]["y"].to_numpy()
    p = fake_p(y, 1.0, 5)
    log(
        rec,
        split="validation",
        row_id=parts["validation"]["row_id"],
        y=y,
        p=p,
        columns={"week": np.arange(len(y)) % 4},
    )
    back = pd.read_csv(root / "artefacts/predictions/mlp-s1-validation.csv")
    assert list(back.columns) == ["row_id", "y", "p", "week"]
    assert np.array_equal(back["p"].to_numpy(), p)
    with pytest.raises(ValueError, match="predictions='xlsx' is not valid"):
        Recorder(root, predictions="xlsx")


@pytest.mark.parametrize("first, second", [("x/y", "x-y"), ("../x", "x"), ("x-y", "x/y")])
def test_models_whose_names_sanitise_alike_get_one_predictions_file_each(project, first, second):
    root, rec, _ = project
    rec.log(**{**THREE_ROWS, "model": first})
    rec.log(**{**THREE_ROWS, "model": second, "p": [0.3, 0.6, 0.7]}, replace=True)
    rows = {r["model"]: r for r in _rows(root)}
    assert rows[first]["predictions"] != rows[second]["predictions"]
    for model, p in ((first, THREE_ROWS["p"]), (second, [0.3, 0.6, 0.7])):
        back = pd.read_parquet(root / rows[model]["predictions"])
        assert back["p"].tolist() == pytest.approx(p)  # each logged value has its own file
    assert all("/" not in r["predictions"].split("/", 2)[2] for r in rows.values())


def test_replace_never_replaces_another_runs_predictions_file(project):
    root, rec, _ = project
    rec.log(**{**THREE_ROWS, "run_id": "a"})
    file = _rows(root)[0]["predictions"]
    before = (root / file).read_bytes()
    rows = list(csv.DictReader(open(root / "runs.csv", encoding="utf-8")))
    rows[0]["predictions"] = file.replace("/a-", "/b-")  # runs.csv says b's file is a's
    with open(root / "runs.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    (root / file).rename(root / rows[0]["predictions"])
    with pytest.raises(ValueError, match=r"holds the predictions of run_id='a'"):
        rec.log(**{**THREE_ROWS, "run_id": "b", "seed": 2, "p": [0.3, 0.6, 0.7]}, replace=True)
    assert (root / rows[0]["predictions"]).read_bytes() == before


@pytest.mark.parametrize("split", ["../x", "a/b", ".hidden", "x\\y", "a b"])
def test_a_split_that_is_not_a_part_name_is_a_value_error_naming_split(project, split):
    _, rec, _ = project
    with pytest.raises(ValueError, match=r"^split=.* is not a part name"):
        rec.log(**{**THREE_ROWS, "split": split})


@pytest.mark.parametrize("name", ["fold", "repeat", "train_rows"])
def test_a_fold_number_beyond_what_runs_csv_accepts_is_refused_by_the_recorder(project, name):
    _, rec, _ = project
    args = {**THREE_ROWS, "split": "fold", "fold": 1, name: 10**30}
    with pytest.raises(ValueError, match=rf"^{name}=10+ is over the limit of 999,999"):
        rec.log(**args)
