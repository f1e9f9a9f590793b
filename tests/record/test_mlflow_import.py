"""`evreport import mlflow` against a real MLflow file store made in a temporary folder."""

from __future__ import annotations

import csv
import os
import time

import pandas as pd
import pytest

from tests.record.conftest import CREATED, TOML, fake_p, write_split
from tests.record.mlflow_helpers import cli, same_figures

mlflow = pytest.importorskip("mlflow")

MODELS = {"mlp": 1.3, "lr": 1.0}
SEEDS = (1, 2, 3, 4, 5)
START_MS = 1_700_000_000_000  # 2023-11-14T22:13:20Z, after the split's CREATED


def _preds(parts, model, seed, part):
    y = parts[part]["y"].to_numpy()
    p = fake_p(y, MODELS[model], seed * 7 + (part == "test"))
    return pd.DataFrame({"row_id": parts[part]["row_id"].to_numpy(), "y": y, "p": p})


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """An MLflow file store with 2 models x 5 seeds (+ a killed and a running run elsewhere)."""
    from mlflow.tracking import MlflowClient
    from sklearn.metrics import log_loss

    base = tmp_path_factory.mktemp("mlflow")
    parts = write_split(base / "data")
    uri = (base / "mlruns").as_uri()
    old = os.environ.get("MLFLOW_ALLOW_FILE_STORE")
    os.environ["MLFLOW_ALLOW_FILE_STORE"] = "true"
    try:
        c = MlflowClient(tracking_uri=uri)
        eid = c.create_experiment("breast")
        k = 0
        for model in MODELS:
            for seed in SEEDS:
                k += 1
                r = c.create_run(eid, start_time=START_MS + 60_000 * k, tags={"model": model})
                rid = r.info.run_id
                for key, v in (
                    ("seed", seed),
                    ("config", f"{model}-a"),
                    ("features", "x"),
                    ("split_id", "s1"),
                ):
                    c.log_param(rid, key, v)
                out = base / "art" / rid / "predictions"
                out.mkdir(parents=True)
                for part, short, ext in (("validation", "val", "parquet"), ("test", "test", "csv")):
                    df = _preds(parts, model, seed, part)
                    c.log_metric(rid, f"{short}_log_loss", log_loss(df.y, df.p))
                    f = out / f"{part}.{ext}"
                    df.to_parquet(f) if ext == "parquet" else df.to_csv(f, index=False)
                    c.log_artifact(rid, str(f), artifact_path="predictions")
                c.log_metric(rid, "train_loss", 0.1)  # not a validation/test metric: ignored
                c.set_terminated(rid, "FINISHED", end_time=START_MS + 60_000 * k + 2500)
        other = c.create_experiment("other")
        r = c.create_run(other, tags={"model": "mlp"})
        c.log_param(r.info.run_id, "seed", 9)
        c.log_metric(r.info.run_id, "validation_log_loss", 0.4)
        c.set_terminated(r.info.run_id, "KILLED")
        r = c.create_run(other, tags={"model": "mlp"})  # still running
        c.log_param(r.info.run_id, "seed", 10)
        nomodel = c.create_experiment("nomodel")
        r = c.create_run(nomodel)
        c.log_param(r.info.run_id, "seed", 1)
        c.log_metric(r.info.run_id, "test_log_loss", 0.4)
        c.set_terminated(r.info.run_id, "FINISHED")
    finally:
        if old is None:
            os.environ.pop("MLFLOW_ALLOW_FILE_STORE", None)
        else:
            os.environ["MLFLOW_ALLOW_FILE_STORE"] = old
    return uri, parts, base


def _new_project(tmp_path, base, name):
    import shutil

    from reportgen.record import Recorder

    root = tmp_path / name
    (root / "split").mkdir(parents=True)
    for f in (base / "data" / "split").iterdir():
        shutil.copy(f, root / "split" / f.name)
    (root / "evreport.toml").write_text(TOML.format(metric="log_loss"))
    Recorder(root).freeze(CREATED)
    return root


def _report(root):
    from reportgen.checks import compute_report
    from reportgen.project import load_project

    return compute_report(load_project(root))[0]


def test_import_builds_the_same_report_as_direct_recording(store, tmp_path):
    from reportgen.record import Recorder

    uri, parts, base = store
    imported = _new_project(tmp_path, base, "imported")
    t = time.perf_counter()
    r = cli("import", "mlflow", str(imported), "--tracking-uri", uri, "--experiment", "breast")
    seconds = time.perf_counter() - t
    assert r.exit_code == 0, r.output
    assert "imported 10 run(s) (20 row(s), 20 predictions file(s))" in r.output
    print(f"import of 10 runs: {seconds:.2f} s")

    direct = _new_project(tmp_path, base, "direct")
    rec = Recorder(direct)
    k = 0
    for model in MODELS:
        for seed in SEEDS:
            k += 1
            for part in ("validation", "test"):
                df = _preds(parts, model, seed, part)
                rec.log(
                    model=model,
                    seed=seed,
                    split=part,
                    row_id=df.row_id,
                    y=df.y,
                    p=df.p,
                    metric="log_loss",
                    config=f"{model}-a",
                    features="x",
                    split_id="s1",
                    started_at=pd.Timestamp(
                        START_MS + 60_000 * k, unit="ms", tz="UTC"
                    ).to_pydatetime(),
                )
    a, b = _report(imported), _report(direct)
    same_figures(a, b)
    check = next(c for c in a["checks"] if c["id"] == "logged-equals-recomputed")
    assert check["passed"] is True and check["text"].startswith("20 of 20")

    with open(imported / "runs.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["started_at"] == "2023-11-14T22:14:20.000Z" and rows[0]["fit_seconds"] == "2.5"
    assert rows[0]["notes"].startswith("mlflow_run_id=") and rows[0]["config"] == "mlp-a"
    assert {r["split"] for r in rows} == {"validation", "test"}
    assert rows[0]["predictions"].endswith("-validation.parquet")
    assert rows[1]["predictions"].endswith("-test.csv")

    # re-import: nothing new, nothing rewritten
    before = (imported / "runs.csv").read_bytes()
    r = cli("import", "mlflow", str(imported), "--tracking-uri", uri, "--experiment", "breast")
    assert r.exit_code == 0, r.output
    assert "imported 0 run(s)" in r.output and "10 already imported" in r.output
    assert (imported / "runs.csv").read_bytes() == before


def test_dry_run_writes_nothing(store, tmp_path):
    uri, _, base = store
    root = tmp_path / "empty"
    r = cli(
        "import", "mlflow", str(root), "--tracking-uri", uri, "--experiment", "breast", "--dry-run"
    )
    assert r.exit_code == 0, r.output
    assert r.output.count("would import ") == 11  # 10 runs and the summary
    assert "would import 10 run(s) (20 row(s), 20 predictions file(s))" in r.output
    assert "nothing written (--dry-run)" in r.output
    assert not root.exists()


def test_failed_and_unfinished_runs(store, tmp_path):
    uri, _, base = store
    root = _new_project(tmp_path, base, "other")
    r = cli("import", "mlflow", str(root), "--tracking-uri", uri, "--experiment", "other")
    assert r.exit_code == 0, r.output
    assert "skipped unfinished run" in r.output and "(RUNNING)" in r.output
    with open(root / "runs.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(x["status"], x["value"], x["seed"], x["split"]) for x in rows] == [
        ("failed", "", "9", "validation")
    ]


def test_unknown_experiment_is_one_line(store, tmp_path):
    uri, _, _ = store
    r = cli("import", "mlflow", str(tmp_path / "p"), "--tracking-uri", uri, "--experiment", "x")
    assert r.exit_code == 1
    lines = [x for x in r.output.strip().splitlines() if not x.startswith("note: ")]
    assert len(lines) == 1 and lines[0].startswith("evreport: error: unknown experiment 'x' at")
    assert "experiments there: 'Default', 'breast', 'nomodel', 'other'" in lines[0]
    assert not (tmp_path / "p").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--experiment", "nomodel"], "no 'model' param or tag"),
        (["--experiment", "breast", "--seed-key", "epoch"], "no 'epoch' param or tag"),
    ],
)
def test_runs_that_cannot_become_rows_are_skipped_with_one_warning_each(
    store, tmp_path, args, message
):
    uri, _, base = store
    root = _new_project(tmp_path, base, "p")
    r = cli("import", "mlflow", str(root), "--tracking-uri", uri, *args)
    assert r.exit_code == 0, r.output
    warnings = [x for x in r.output.splitlines() if x.startswith("warning: skipped run ")]
    n = 1 if "nomodel" in args else 10
    assert len(warnings) == n and all(message in w for w in warnings)
    assert "imported 0 run(s) (0 row(s), 0 predictions file(s))" in r.output
    assert f"{n} skipped (see the warnings)" in r.output

    r = cli("import", "mlflow", str(root), "--tracking-uri", uri, *args, "--strict")
    assert r.exit_code == 1
    errors = [x for x in r.output.splitlines() if x.startswith("evreport: error: run ")]
    assert [e.removeprefix("evreport: error: ") for e in errors] == [
        w.removeprefix("warning: skipped ").replace("", "") + " [mlflow-run]" for w in warnings
    ]
    assert f"evreport: error: {n} run(s) cannot become rows; nothing written (--strict)" in r.output


def test_one_bad_run_does_not_stop_the_others(store, tmp_path):
    """A seed that is no whole number: that run is skipped, the other nine are imported;
    with --strict nothing is written at all."""
    from mlflow.tracking import MlflowClient

    uri, _, base = store
    os.environ["MLFLOW_ALLOW_FILE_STORE"] = "true"
    try:
        c = MlflowClient(tracking_uri=uri)
        eid = c.get_experiment_by_name("breast").experiment_id
        runs = c.search_runs([eid], order_by=["attributes.start_time ASC"])
        bad = runs[3].info.run_id
        seed_file = base / "mlruns" / eid / bad / "params" / "seed"
        old = seed_file.read_text()
        seed_file.write_text("2.5")
    finally:
        os.environ.pop("MLFLOW_ALLOW_FILE_STORE", None)
    try:
        root = _new_project(tmp_path, base, "strict")
        args = ("import", "mlflow", str(root), "--tracking-uri", uri, "--experiment", "breast")
        before = (root / "runs.csv").read_bytes()
        r = cli(*args, "--strict")
        assert r.exit_code == 1
        assert f"evreport: error: run {bad} " in r.output and "seed = '2.5' is not a whole number"
        assert (root / "runs.csv").read_bytes() == before
        assert list((root / "artefacts" / "predictions").iterdir()) == []
        assert [p.name for p in root.iterdir() if p.name.startswith(".evreport-mlflow")] == []

        r = cli(*args)
        assert r.exit_code == 0, r.output
        assert f"warning: skipped run {bad} " in r.output
        assert "imported 9 run(s) (18 row(s), 18 predictions file(s))" in r.output
        assert "1 skipped (see the warnings)" in r.output
    finally:
        seed_file.write_text(old)


def test_filter_is_mlflow_search_syntax(store, tmp_path):
    uri, _, base = store
    root = _new_project(tmp_path, base, "f")
    args = ("import", "mlflow", str(root), "--tracking-uri", uri, "--experiment", "breast")
    r = cli(*args, "--filter", "tags.model = 'lr' and params.seed != '3'", "--dry-run")
    assert r.exit_code == 0, r.output
    assert "would import 4 run(s) (8 row(s), 8 predictions file(s))" in r.output
    assert r.output.count("would import lr-s") == 4 and "would import lr-s3" not in r.output
    r = cli(*args, "--filter", "metrics.val_log_loss < 0")
    assert r.exit_code == 0 and "imported 0 run(s)" in r.output
    r = cli(*args, "--filter", "params.seed ~ 1")
    assert r.exit_code == 2
    lines = [x for x in r.output.strip().splitlines() if not x.startswith("note: ")]
    assert (
        len(lines) == 1
        and "--filter 'params.seed ~ 1' is not valid MLflow search syntax" in lines[0]
    )
    assert lines[0].endswith("[mlflow-usage]")


def test_unreachable_store_fails_fast(tmp_path):
    r = cli(
        "import",
        "mlflow",
        str(tmp_path / "p"),
        "--tracking-uri",
        (tmp_path / "missing").as_uri(),
        "--experiment",
        "x",
    )
    assert r.exit_code == 1 and "no MLflow store at" in r.output
    assert len(r.output.strip().splitlines()) == 1
    t = time.perf_counter()
    r = cli(
        "import",
        "mlflow",
        str(tmp_path / "p"),
        "--tracking-uri",
        "http://127.0.0.1:9",
        "--experiment",
        "x",
    )
    assert r.exit_code == 1
    assert r.output.strip() == (
        "evreport: error: cannot read the tracking store http://127.0.0.1:9: the connection "
        "failed (is `mlflow server` running there?) [mlflow-import]"
    )
    assert time.perf_counter() - t < 30


def test_mlflow_missing_is_a_usage_error(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "mlflow", None)
    monkeypatch.setitem(sys.modules, "mlflow.tracking", None)
    r = cli("import", "mlflow", str(tmp_path), "--tracking-uri", "file:x", "--experiment", "e")
    assert r.exit_code == 2
    assert "pip install 'evreport[mlflow]'" in r.output and "[mlflow-missing]" in r.output


def test_help_does_not_import_mlflow():
    import subprocess
    import sys

    code = "import sys; from reportgen.cli import main; print('mlflow' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _one_line(r, code: int) -> str:
    assert r.exit_code == code, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1, r.output
    assert lines[0].startswith("evreport: error: ") and "Traceback" not in lines[0]
    return lines[0]


@pytest.mark.parametrize(
    "uri, code, message",
    [
        ("sqlite:///missing.db", 1, "no MLflow database at sqlite:///missing.db (missing.db): the file does not exist"),
        ("sqlite://", 2, "sqlite:// names no database file; use sqlite:///mlflow.db"),
        ("sqlite:///:memory:", 2, "names no database file"),
        ("ftp://host/mlruns", 2, "unsupported tracking URI scheme 'ftp' in ftp://host/mlruns; use sqlite:///PATH"),
        ("s3://bucket/mlruns", 2, "unsupported tracking URI scheme 's3'"),
        ("http://", 2, "http:// names no host"),
        ("file://otherhost/mlruns", 2, "a file URI with a host (otherhost) is not a local folder"),
        ("not-sqlite.db", 2, "is a database file; name it as a database store: --tracking-uri sqlite:///not-sqlite.db"),
        ("sqlite:///not-sqlite.db", 1, "not-sqlite.db) is not an SQLite database"),
        ("sqlite:///other.db", 1, "is an SQLite database without MLflow's tables (experiments, runs); not an MLflow store"),
    ],
)  # fmt: skip
def test_an_unreadable_store_is_one_line_naming_it(tmp_path, monkeypatch, uri, code, message):
    import sqlite3

    monkeypatch.chdir(tmp_path)
    (tmp_path / "not-sqlite.db").write_text("hello")
    con = sqlite3.connect(tmp_path / "other.db")
    con.execute("CREATE TABLE notes (x)")
    con.commit()
    con.close()
    before = sorted(p.name for p in tmp_path.iterdir())
    r = cli("import", "mlflow", "p", "--tracking-uri", uri, "--experiment", "x")
    assert message in _one_line(r, code)
    assert (
        sorted(p.name for p in tmp_path.iterdir()) == before
    )  # nothing created, not even mlflow.db
    con = sqlite3.connect(tmp_path / "other.db")
    assert [r[0] for r in con.execute("SELECT name FROM sqlite_master")] == ["notes"]
    con.close()


def test_a_database_store_without_sqlalchemy_says_what_to_install(tmp_path, monkeypatch):
    from reportgen.importers import mlflow_store

    monkeypatch.setattr(mlflow_store, "_missing", lambda modules: list(modules))
    r = cli(
        "import",
        "mlflow",
        str(tmp_path),
        "--tracking-uri",
        "sqlite:///mlflow.db",
        "--experiment",
        "e",
    )
    assert _one_line(r, 2) == (
        "evreport: error: reading the database store sqlite:///mlflow.db needs sqlalchemy and "
        "alembic (MLflow's SQLAlchemy store, which mlflow-skinny leaves out); install: "
        "pip install 'evreport[mlflow]' [mlflow-missing]"
    )


@pytest.mark.parametrize("value", [None, "true", "1", "false", "0", "nope"])
def test_file_store_with_and_without_the_opt_out(store, tmp_path, monkeypatch, value):
    uri, _, _ = store
    if value is None:
        monkeypatch.delenv("MLFLOW_ALLOW_FILE_STORE", raising=False)
    else:
        monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", value)
    args = (
        "import",
        "mlflow",
        str(tmp_path / "p"),
        "--tracking-uri",
        uri,
        "--experiment",
        "breast",
    )
    r = cli(*args, "--dry-run")
    if value in (None, "true", "1"):
        assert r.exit_code == 0, r.output
        assert "would import 10 run(s)" in r.output
        note = f"note: reading the file store {uri} with MLFLOW_ALLOW_FILE_STORE=true (MLflow 3"
        assert (note in r.output) is (value is None)
        assert os.environ.get("MLFLOW_ALLOW_FILE_STORE") == value  # restored afterwards
    else:
        assert _one_line(r, 1) == (
            f"evreport: error: MLFLOW_ALLOW_FILE_STORE={value!r} makes MLflow refuse the file "
            f"store {uri}; set MLFLOW_ALLOW_FILE_STORE=true to read it [mlflow-import]"
        )


def test_mlflow3_artifact_folder_named_as_a_file_store(tmp_path):
    """MLflow 3 writes runs to mlflow.db and only artifacts to mlruns/: naming mlruns/ gives
    one line pointing at the database, and none of MLflow's tracebacks (a real process)."""
    import subprocess
    import sys

    (tmp_path / "mlruns" / "1" / ("ab" * 16) / "artifacts").mkdir(parents=True)
    (tmp_path / "mlflow.db").write_bytes(b"SQLite format 3\x00")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MLFLOW_")}
    out = subprocess.run(
        [sys.executable, "-m", "reportgen", "import", "mlflow", "p", "--tracking-uri",
         "file:./mlruns", "--experiment", "churn"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.strip().splitlines() == [
        "evreport: error: unknown experiment 'churn' at file:./mlruns; experiments there: none; "
        "its folders have no meta.yaml, so it holds only the artifacts of an MLflow 3 database "
        "store: the runs are in sqlite:///mlflow.db (pass that as --tracking-uri) [mlflow-import]"
    ]


def test_start_times_keep_their_milliseconds():
    from reportgen.importers.mlflow import _iso_ms

    assert _iso_ms(1_700_000_060_123) == "2023-11-14T22:14:20.123Z"
    assert _iso_ms(1_700_000_060_000) == "2023-11-14T22:14:20.000Z"
    assert _iso_ms(None) is None
