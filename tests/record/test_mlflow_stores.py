"""MLflow as users run it: MLflow 3's default store (sqlite:///mlflow.db) and a real `mlflow server`.

The breast-cancer example's runs are logged into each store by a subprocess (as a training
script would), imported, and the project must build the same report.json figures as the
example itself (to 1e-9). One server per module, on a free port of 127.0.0.1.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.record.mlflow_helpers import (
    EXAMPLE,
    EXPERIMENT,
    REPO,
    MlflowServer,
    cli,
    log_example,
    mlflow_defaults,
    new_project,
    same_figures,
)

pytest.importorskip("mlflow", reason="the [mlflow] extra is not installed")
pytest.importorskip("sqlalchemy", reason="MLflow's database store needs sqlalchemy")
# `mlflow server` needs flask, graphene, huey and aiohttp beside MLflow's client
HAVE_SERVER = all(
    importlib.util.find_spec(m) for m in ("mlflow.server", "flask", "graphene", "huey", "aiohttp")
)

RUNS = 16  # run_ids in examples/breast-cancer/runs.csv


def _build_json(project: Path, out: Path) -> dict:
    r = cli("build", str(project), "--format", "json", "--out", str(out))
    assert r.exit_code == 0, r.output
    return json.loads((out / "report.json").read_text())


@pytest.fixture(scope="module")
def expected(tmp_path_factory):
    return _build_json(EXAMPLE, tmp_path_factory.mktemp("example-report"))


@pytest.fixture(scope="module")
def default_store(tmp_path_factory):
    """MLflow 3's default store: a script with no tracking URI writes ./mlflow.db and ./mlruns."""
    from mlflow.tracking import MlflowClient

    folder = tmp_path_factory.mktemp("mlflow3-default")
    with mlflow_defaults(folder):
        client = MlflowClient()
        assert client._tracking_client.tracking_uri.startswith("sqlite:")
        assert log_example(client) == RUNS
    assert (folder / "mlflow.db").is_file() and (folder / "mlruns").is_dir()
    return folder


def test_mlflow3_default_store_imports_the_example(default_store, expected, tmp_path, monkeypatch):
    project = new_project(tmp_path / "imported")
    monkeypatch.chdir(default_store)  # the URI a user types in the folder of their script
    t = time.perf_counter()
    r = cli(
        "import", "mlflow", str(project), "--tracking-uri", "sqlite:///mlflow.db",
        "--experiment", EXPERIMENT,
    )  # fmt: skip
    seconds = time.perf_counter() - t
    assert r.exit_code == 0, r.output
    assert f"imported {RUNS} run(s) (78 row(s), 26 predictions file(s))" in r.output
    assert "warning" not in r.output and "Traceback" not in r.output
    print(f"import of {RUNS} runs from sqlite: {seconds:.2f} s")
    same_figures(_build_json(project, tmp_path / "out"), expected)


def test_a_moved_default_store_still_finds_its_artifacts(default_store, expected, tmp_path):
    """mlflow.db records absolute artifact paths; copied elsewhere (a student's hand-in) the
    importer finds them at MLflow's layout inside the copy, never at the recorded path."""
    import shutil

    moved = tmp_path / "hand-in"
    shutil.copytree(default_store, moved)
    shutil.rmtree(default_store / "mlruns" / "1")  # the recorded paths are gone
    try:
        project = new_project(tmp_path / "imported")
        uri = f"sqlite:///{(moved / 'mlflow.db').as_posix()}"
        r = cli("import", "mlflow", str(project), "--tracking-uri", uri, "--experiment", EXPERIMENT)
        assert r.exit_code == 0, r.output
        assert f"imported {RUNS} run(s) (78 row(s), 26 predictions file(s))" in r.output
        same_figures(_build_json(project, tmp_path / "out"), expected)
    finally:
        shutil.copytree(moved / "mlruns" / "1", default_store / "mlruns" / "1")


@pytest.fixture(scope="module", autouse=True)
def server_process(tmp_path_factory):
    """Started with the module's first test, so it loads while the sqlite tests run."""
    if not HAVE_SERVER:
        yield None
        return
    srv = MlflowServer(tmp_path_factory.mktemp("mlflow-server"))
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def server(server_process):
    from mlflow.tracking import MlflowClient

    if server_process is None:
        pytest.skip("the `mlflow server` command cannot start here: pip install -e '.[test]'")
    t = time.perf_counter()
    url = server_process.wait()
    print(f"mlflow server up after a further {time.perf_counter() - t:.1f} s")
    assert log_example(MlflowClient(url)) == RUNS
    return url, server_process.folder


def test_a_tracking_server_imports_the_example(server, expected, tmp_path):
    url, folder = server
    project = new_project(tmp_path / "imported")
    t = time.perf_counter()
    r = cli("import", "mlflow", str(project), "--tracking-uri", url, "--experiment", EXPERIMENT)
    seconds = time.perf_counter() - t
    assert r.exit_code == 0, r.output
    assert f"imported {RUNS} run(s) (78 row(s), 26 predictions file(s))" in r.output
    assert "warning" not in r.output
    print(f"import of {RUNS} runs from a server: {seconds:.2f} s")
    same_figures(_build_json(project, tmp_path / "out"), expected)


def test_server_filter_and_reimport(server, tmp_path):
    url, _ = server
    project = new_project(tmp_path / "p")
    base = ("import", "mlflow", str(project), "--tracking-uri", url, "--experiment", EXPERIMENT)
    r = cli(*base, "--filter", "params.model = 'logreg' and params.config = 'logreg-C10'")
    assert r.exit_code == 0, r.output
    assert "imported 5 run(s) (30 row(s), 10 predictions file(s))" in r.output
    r = cli(*base)
    assert r.exit_code == 0, r.output
    assert "imported 11 run(s)" in r.output and "5 already imported" in r.output
    r = cli(*base, "--filter", "params.model = ")
    assert r.exit_code == 2
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("evreport: error: --filter 'params.model = '")


SECRET = "row_id,y,p\n1,1,0.123456789\n"  # outside any store: must never be copied in


def _outside(tmp_path: Path) -> Path:
    folder = tmp_path / "elsewhere"
    (folder / "predictions").mkdir(parents=True)
    (folder / "predictions" / "validation.parquet").write_text(SECRET)
    return folder


def _copied(project: Path) -> list[str]:
    pred = project / "artefacts" / "predictions"
    return [p.read_bytes().decode("latin-1") for p in pred.iterdir()] if pred.is_dir() else []


def test_hostile_artifact_uris_in_a_sqlite_store(default_store, tmp_path):
    """A student's mlflow.db can name any artifact location: a path elsewhere is not read,
    a local URL gets no request; the other runs import."""
    import shutil
    import sqlite3

    from tests.record.mlflow_helpers import Listener

    copy = tmp_path / "hand-in"
    shutil.copytree(default_store, copy)
    outside, listener = _outside(tmp_path), Listener()
    try:
        con = sqlite3.connect(copy / "mlflow.db")
        (a, ea), (b, eb) = con.execute(
            "SELECT run_uuid, experiment_id FROM runs ORDER BY start_time LIMIT 2"
        ).fetchall()
        uris = {
            a: outside.as_uri(),
            b: f"http://127.0.0.1:{listener.port}/api/2.0/mlflow-artifacts/artifacts/x",
        }
        for rid, uri in uris.items():
            con.execute("UPDATE runs SET artifact_uri = ? WHERE run_uuid = ?", (uri, rid))
        con.commit()
        con.close()
        shutil.rmtree(copy / "mlruns" / str(ea) / a)  # nothing at MLflow's own layout either
        shutil.rmtree(copy / "mlruns" / str(eb) / b)
        project = new_project(tmp_path / "p")
        uri = f"sqlite:///{(copy / 'mlflow.db').as_posix()}"
        r = cli("import", "mlflow", str(project), "--tracking-uri", uri, "--experiment", EXPERIMENT)
        assert r.exit_code == 0, r.output
        for rid, art in uris.items():
            assert f"warning: skipped run {rid} " in r.output
            assert f"its artifacts are at {art}, outside the store {uri}; not read" in r.output
        assert f"imported {RUNS - 2} run(s)" in r.output and "2 skipped" in r.output
        assert listener.connections == 0
        assert SECRET not in _copied(project)
    finally:
        listener.close()


def test_hostile_artifact_locations_on_a_server(server, tmp_path):
    """On a tracking server only its own artifact proxy is read: an experiment whose
    artifact location is a local path or another local service is not."""
    from mlflow.tracking import MlflowClient

    from tests.record.mlflow_helpers import Listener

    url, _ = server
    outside, listener = _outside(tmp_path), Listener()
    try:
        c = MlflowClient(url)
        locations = {
            "hostile-file": outside.parent.as_uri(),
            "hostile-http": f"http://127.0.0.1:{listener.port}/api/2.0/mlflow-artifacts/artifacts",
            "hostile-proxy": f"mlflow-artifacts://127.0.0.1:{listener.port}/x",
        }
        for name, location in locations.items():
            eid = c.create_experiment(name, artifact_location=location)
            rid = c.create_run(eid, tags={"model": "mlp"}).info.run_id
            c.log_param(rid, "seed", 1)
            c.log_metric(rid, "validation_log_loss", 0.5)
            c.set_terminated(rid, "FINISHED")
            project = new_project(tmp_path / name)
            r = cli("import", "mlflow", str(project), "--tracking-uri", url, "--experiment", name)
            assert r.exit_code == 0, r.output
            assert f"warning: skipped run {rid} " in r.output, r.output
            assert f"outside the tracking server {url}; not read" in r.output
        assert listener.connections == 0
        assert SECRET not in _copied(tmp_path / "hostile-file")
    finally:
        listener.close()


def test_an_artifact_over_the_cap_on_a_server_is_not_downloaded(server, tmp_path, monkeypatch):
    from mlflow.tracking import MlflowClient

    from reportgen.project import files

    url, _ = server
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1000)
    c = MlflowClient(url)
    eid = c.create_experiment("big")
    rid = c.create_run(eid, tags={"model": "mlp"}).info.run_id
    c.log_param(rid, "seed", 1)
    c.log_metric(rid, "validation_log_loss", 0.5)
    (tmp_path / "validation.csv").write_text("row_id,y,p\n" + "1,1,0.5\n" * 500)
    c.log_artifact(rid, str(tmp_path / "validation.csv"), artifact_path="predictions")
    c.set_terminated(rid, "FINISHED")
    r = cli(
        "import",
        "mlflow",
        str(tmp_path / "p"),
        "--tracking-uri",
        url,
        "--experiment",
        "big",
        "--strict",
    )
    assert r.exit_code == 1
    assert (
        f"evreport: error: run {rid} " in r.output
        and "artifact predictions/validation.csv is 4,011 bytes, over the 1,000-byte limit"
        in r.output
    )


def _moved_store(store: Path, to: Path) -> Path:
    """A copy of a sqlite store whose runs' artifact locations name the copy's own folder."""
    import shutil
    import sqlite3

    shutil.copytree(store, to)
    con = sqlite3.connect(to / "mlflow.db")
    for table, column in (("runs", "artifact_uri"), ("experiments", "artifact_location")):
        con.execute(f"UPDATE {table} SET {column} = replace({column}, ?, ?)", (str(store), str(to)))
    con.commit()
    con.close()
    return to


def test_build_logs_the_report_back_to_its_run(default_store, tmp_path):
    """`build --mlflow-run ID --tracking-uri URI`: the written files become the run's
    report/ artifacts and its verdict a tag; a wrong run id is one line, the report kept."""

    from mlflow.tracking import MlflowClient

    copy = _moved_store(default_store, tmp_path / "store")
    uri = f"sqlite:///{(copy / 'mlflow.db').as_posix()}"
    c = MlflowClient(uri)
    rid = c.search_runs([c.get_experiment_by_name(EXPERIMENT).experiment_id])[0].info.run_id
    out = tmp_path / "out"
    args = ("build", str(EXAMPLE), "--format", "json,md", "--out", str(out))
    r = cli(*args, "--mlflow-run", rid, "--tracking-uri", uri)
    assert r.exit_code == 0, r.output
    assert f"logged 2 report file(s) to MLflow run {rid} (report/) at {uri}" in r.output
    assert sorted(a.path for a in c.list_artifacts(rid, "report")) == [
        "report/decision-log.md",
        "report/report.json",
    ]
    tags = c.get_run(rid).data.tags
    assert tags["evreport.verdict"] == "keep-baseline" and tags["evreport.supported_rung"] == "2"

    r = cli(*args, "--mlflow-run", "0" * 32, "--tracking-uri", uri)
    assert r.exit_code == 1
    assert (
        r.output.strip()
        .splitlines()[-1]
        .startswith(
            f"evreport: error: the report was written but not logged to MLflow: no run {'0' * 32} at {uri}"
        )
    )
    assert (out / "report.json").is_file()
    r = cli(*args, "--tracking-uri", uri)
    assert r.exit_code == 2 and "--mlflow-run is missing [mlflow-usage]" in r.output


def test_an_import_never_writes_to_the_students_sqlite_store(default_store, tmp_path):
    """A store with MLflow's tables and no experiment (MLflow would insert "Default"), with
    an AFTER INSERT trigger: the file keeps its bytes and the trigger never fires; a good
    store's file keeps its bytes through a whole import too."""
    import hashlib
    import shutil
    import sqlite3

    def sha(p: Path) -> str:
        return hashlib.sha256(p.read_bytes()).hexdigest()

    empty = tmp_path / "empty" / "mlflow.db"
    empty.parent.mkdir()
    uri = f"sqlite:///{empty.as_posix()}"
    subprocess.run(  # MLflow creates its tables (and "Default"), in a process of its own
        [sys.executable, "-c", f"import mlflow; mlflow.MlflowClient({uri!r}).search_experiments()"],
        check=True,
        timeout=120,
    )
    con = sqlite3.connect(empty)
    con.execute("DELETE FROM experiment_tags")
    con.execute("DELETE FROM experiments")
    con.execute("CREATE TABLE fired (n INTEGER)")
    con.execute(
        "CREATE TRIGGER t AFTER INSERT ON experiments BEGIN INSERT INTO fired VALUES (1); END"
    )
    con.commit()
    con.close()
    before = sha(empty)
    r = subprocess.run(
        [sys.executable, "-m", "reportgen", "import", "mlflow", str(tmp_path / "p")]
        + ["--tracking-uri", uri, "--experiment", "e"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    assert r.returncode == 1 and "unknown experiment 'e'" in r.stderr, r.stderr
    assert sha(empty) == before
    con = sqlite3.connect(f"file:{empty}?mode=ro", uri=True)
    assert con.execute("SELECT count(*) FROM fired").fetchone() == (0,)
    assert con.execute("SELECT count(*) FROM experiments").fetchone() == (0,)
    con.close()

    copy = tmp_path / "hand-in"
    shutil.copytree(default_store, copy)
    before = sha(copy / "mlflow.db")
    project = new_project(tmp_path / "good")
    uri = f"sqlite:///{(copy / 'mlflow.db').as_posix()}"
    r = cli("import", "mlflow", str(project), "--tracking-uri", uri, "--experiment", EXPERIMENT)
    assert r.exit_code == 0 and f"imported {RUNS} run(s)" in r.output, r.output
    assert sha(copy / "mlflow.db") == before


def test_build_logs_nothing_to_a_run_whose_artifacts_are_elsewhere(default_store, tmp_path):
    """`build --mlflow-run`: a run whose artifact location is a folder outside the store, or
    another host, is one line and exit 1; nothing is written there, no request is made."""
    import sqlite3

    from tests.record.mlflow_helpers import Listener

    copy = _moved_store(default_store, tmp_path / "store")
    somewhere, listener = tmp_path / "somewhere", Listener()
    somewhere.mkdir()
    try:
        con = sqlite3.connect(copy / "mlflow.db")
        (a,), (b,) = con.execute("SELECT run_uuid FROM runs ORDER BY start_time LIMIT 2")
        uris = {
            a: somewhere.as_uri(),
            b: f"http://127.0.0.1:{listener.port}/api/2.0/mlflow-artifacts/artifacts/x",
        }
        for rid, art in uris.items():
            con.execute("UPDATE runs SET artifact_uri = ? WHERE run_uuid = ?", (art, rid))
        con.commit()
        con.close()
        uri = f"sqlite:///{(copy / 'mlflow.db').as_posix()}"
        out = tmp_path / "out"
        for rid, art in uris.items():
            r = cli(
                "build", str(EXAMPLE), "--format", "json", "--out", str(out),
                "--mlflow-run", rid, "--tracking-uri", uri,
            )  # fmt: skip
            assert r.exit_code == 1, r.output
            assert r.output.strip().splitlines()[-1] == (
                "evreport: error: the report was written but not logged to MLflow: run "
                f"{rid}: its artifacts are at {art}, outside the store {uri}; nothing is "
                "written there [mlflow-import]"
            )
            assert (out / "report.json").is_file()
        assert list(somewhere.rglob("*")) == []
        assert listener.connections == 0
    finally:
        listener.close()
