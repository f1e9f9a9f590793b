"""`evreport import mlflow` of a cross-validation: fold and repeat from params or tags.

A generated cv project (2 x 3 folds, a held-out test part) is logged into MLflow 3's default
store (sqlite:///mlflow.db) one MLflow run per network and fold, as a training loop would;
imported into a project with the same config and split, it must build the same figures as
the project itself (to 1e-9).
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from tests.layouts.gen_cv import make_cv_project
from tests.record.mlflow_helpers import cli, mlflow_defaults, numbers

pytest.importorskip("mlflow", reason="the [mlflow] extra is not installed")
pytest.importorskip("sqlalchemy", reason="MLflow's database store needs sqlalchemy")

EXPERIMENT = "cv"
START_MS = 1_767_398_400_000  # 2026-01-03T00:00:00Z, after the split's freeze
CELL = {"repeats": 2, "folds": 3, "rows": 90, "seeds": (2, 1), "test_part": True}


def _log(client, project: Path) -> int:
    """One MLflow run per run_id, repeat and fold of the project's runs.csv. The candidate's
    fold runs carry fold and repeat as params and log fold_<metric> with predictions/fold.csv;
    the baseline's carry them as tags (repeat 1 left out: the default) and log test_<metric>
    with predictions/test.parquet, the other spelling the importer reads."""
    import pandas as pd
    from mlflow.entities import Metric, Param

    with open(project / "runs.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    eid = client.create_experiment(EXPERIMENT)
    stage = project.parent / "stage"
    stage.mkdir()
    for i, r in enumerate(rows):
        t = START_MS + 1000 * i
        fold_run = r["split"] == "fold"
        as_tags = fold_run and r["model"] == "base"
        tags = {"model": r["model"]}
        params = [Param(k, r[k]) for k in ("seed", "config", "features", "split_id")]
        if fold_run and as_tags:
            tags["fold"] = r["fold"]
            if r["repeat"] != "1":
                tags["repeat"] = r["repeat"]
        elif fold_run:
            params += [Param("fold", r["fold"]), Param("repeat", r["repeat"])]
        rid = client.create_run(eid, start_time=t, tags=tags).info.run_id
        prefix = "test" if (as_tags or not fold_run) else "fold"
        metrics = [Metric(f"{prefix}_{r['metric']}", float(r["value"]), t, 0)]
        metrics.append(Metric("train_loss", 0.1, t, 0))  # ignored
        client.log_batch(rid, metrics=metrics, params=params)
        frame = pd.read_csv(project / r["predictions"], dtype={"row_id": str})
        folder = stage / str(i)
        folder.mkdir()
        if as_tags:
            frame.to_parquet(folder / "test.parquet", index=False)
        else:
            frame.to_csv(folder / f"{prefix}.csv", index=False, float_format="%.17g")
        for f in folder.iterdir():
            client.log_artifact(rid, str(f), artifact_path="predictions")
        client.set_terminated(rid, "FINISHED", end_time=t + 500)
    # runs that cannot become rows
    bad = client.create_experiment("cv-bad")
    for tags, metric in (
        ({"model": "net", "seed": "1", "repeat": "2"}, "fold_log_loss"),  # repeat, no fold
        ({"model": "net", "seed": "1", "fold": "0"}, "fold_log_loss"),  # fold from 1
        ({"model": "net", "seed": "1", "fold": "2"}, "train_loss"),  # no held-out score
    ):
        rid = client.create_run(bad, start_time=START_MS, tags=tags).info.run_id
        client.log_metric(rid, metric, 0.3)
        client.set_terminated(rid, "FINISHED")
    return len(rows)


@pytest.fixture(scope="module")
def cv_store(tmp_path_factory):
    """The generated project and MLflow 3's default store in a folder beside it."""
    from mlflow.tracking import MlflowClient

    base = tmp_path_factory.mktemp("mlflow-cv")
    project = base / "project"
    make_cv_project(project, **CELL)
    folder = base / "store"
    folder.mkdir()
    with mlflow_defaults(folder):
        n = _log(MlflowClient(), project)
    return project, folder, n


def _empty_project(src: Path, dest: Path) -> Path:
    """The project's config, split and check files, and no runs."""
    dest.mkdir(parents=True)
    shutil.copy(src / "evreport.toml", dest / "evreport.toml")
    shutil.copytree(src / "split", dest / "split")
    shutil.copytree(src / "artefacts" / "checks", dest / "artefacts" / "checks")
    return dest


def _build_json(project: Path, out: Path) -> dict:
    r = cli("build", str(project), "--format", "json", "--out", str(out))
    assert r.exit_code == 0, r.output
    return json.loads((out / "report.json").read_text())


def test_fold_and_repeat_from_params_or_tags(cv_store, tmp_path, monkeypatch):
    project, folder, n = cv_store
    target = _empty_project(project, tmp_path / "imported")
    monkeypatch.chdir(folder)
    r = cli(
        "import", "mlflow", str(target), "--tracking-uri", "sqlite:///mlflow.db",
        "--experiment", EXPERIMENT,
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert f"imported {n} run(s) ({n} row(s), {n} predictions file(s))" in r.output
    assert "warning" not in r.output
    assert "net seed 2 repeat 2 fold 3 (ok;" in r.output
    with open(target / "runs.csv", newline="") as f:
        got = list(csv.DictReader(f))
    folds = sorted((g["model"], g["seed"], g["repeat"], g["fold"]) for g in got if g["fold"])
    with open(project / "runs.csv", newline="") as f:
        want = sorted(
            (w["model"], w["seed"], w["repeat"], w["fold"]) for w in csv.DictReader(f) if w["fold"]
        )
    assert folds == want
    assert {g["split"] for g in got} == {"fold", "test"}
    assert all(g["repeat"] == g["fold"] == "" for g in got if g["split"] == "test")
    assert all(g["predictions"].endswith(("-fold.csv", "-fold.parquet")) for g in got if g["fold"])

    have, expect = (
        _build_json(target, tmp_path / "out"),
        _build_json(project, tmp_path / "out-project"),
    )
    assert have["noise"]["cv"]["J"] == 6
    a, b = numbers(have), numbers(expect)
    assert a.keys() == b.keys()
    diff = {k: (a[k], b[k]) for k in a if a[k] != pytest.approx(b[k], rel=1e-9, abs=1e-12)}
    assert diff == {}
    assert have["decision"] == expect["decision"]


def test_fold_runs_that_cannot_become_rows_are_named(cv_store, tmp_path, monkeypatch):
    _, folder, _ = cv_store
    monkeypatch.chdir(folder)
    r = cli(
        "import", "mlflow", str(tmp_path / "p"), "--tracking-uri", "sqlite:///mlflow.db",
        "--experiment", "cv-bad", "--dry-run",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "repeat = '2' but no 'fold' param or tag" in r.output
    assert "fold = '0' is not a whole number from 1" in r.output
    assert "no fold_<metric>, test_<metric> or validation_<metric> metric" in r.output
    assert "3 skipped" in r.output
