"""Hostile MLflow file stores (an instructor importing a student's mlruns/).

A run's artifact_uri is whatever the store says: a path elsewhere on the machine, a URL of
a local service, a listing that lies about sizes. Artifacts are read only from inside the
store unless --allow-remote-artifacts, and every read stops at the byte cap.
"""

from __future__ import annotations

import os
import shutil

import numpy as np
import pandas as pd
import pytest

from tests.record.mlflow_helpers import Listener, LyingArtifactServer, cli

mlflow = pytest.importorskip("mlflow")

SECRET = "row_id,y,p\n1,1,0.123456789\n"  # "outside the store": must never be copied in


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """A file store with two runs (mlp seeds 1 and 2), each with predictions/validation.csv."""
    from mlflow.tracking import MlflowClient

    base = tmp_path_factory.mktemp("hostile")
    os.environ["MLFLOW_ALLOW_FILE_STORE"] = "true"
    try:
        c = MlflowClient(tracking_uri=(base / "mlruns").as_uri())
        eid = c.create_experiment("e")
        ids = []
        for seed in (1, 2):
            rid = c.create_run(eid, tags={"model": "mlp"}).info.run_id
            c.log_param(rid, "seed", seed)
            c.log_metric(rid, "validation_log_loss", 0.5)
            f = base / f"validation-{seed}" / "validation.csv"
            f.parent.mkdir()
            rng = np.random.default_rng(seed)
            pd.DataFrame({"row_id": [1, 2, 3], "y": [0, 1, 1], "p": rng.random(3)}).to_csv(
                f, index=False
            )
            c.log_artifact(rid, str(f), artifact_path="predictions")
            c.set_terminated(rid, "FINISHED")
            ids.append(rid)
    finally:
        os.environ.pop("MLFLOW_ALLOW_FILE_STORE", None)
    return base / "mlruns", eid, ids


@pytest.fixture
def store(pristine, tmp_path):
    """A private copy of the store (each test tampers with it), and an outside folder."""
    src, eid, ids = pristine
    dst = tmp_path / "student" / "mlruns"
    shutil.copytree(src, dst)
    for rid in ids:  # the copy's meta.yaml still names the pristine folder: point it here
        meta = dst / eid / rid / "meta.yaml"
        meta.write_text(meta.read_text().replace(src.as_uri(), dst.as_uri()))
    outside = tmp_path / "elsewhere"
    (outside / "predictions").mkdir(parents=True)
    (outside / "predictions" / "validation.csv").write_text(SECRET)
    return dst, eid, ids, outside


def _set_artifact_uri(store, rid, uri):
    root, eid, _, _ = store
    meta = root / eid / rid / "meta.yaml"
    lines = [
        f"artifact_uri: {uri}" if x.startswith("artifact_uri:") else x
        for x in meta.read_text().splitlines()
    ]
    meta.write_text("\n".join(lines) + "\n")
    shutil.rmtree(root / eid / rid / "artifacts")  # nothing at MLflow's own layout either


def _import(store, tmp_path, *extra):
    root = tmp_path / "project"
    r = cli(
        "import", "mlflow", str(root), "--tracking-uri", store[0].as_uri(), "--experiment", "e",
        *extra,
    )  # fmt: skip
    return r, root


def _copied(root):
    pred = root / "artefacts" / "predictions"
    return sorted(p.read_text() for p in pred.iterdir()) if pred.is_dir() else []


def test_a_file_uri_outside_the_store_is_not_read(store, tmp_path):
    _, _, ids, outside = store
    _set_artifact_uri(store, ids[0], outside.as_uri())
    r, root = _import(store, tmp_path)
    assert r.exit_code == 0, r.output
    assert f"warning: skipped run {ids[0]}" in r.output
    assert f"its artifacts are at {outside.as_uri()}, outside the store" in r.output
    assert "(pass --allow-remote-artifacts to read them)" in r.output
    assert "imported 1 run(s)" in r.output
    assert SECRET not in _copied(root) and len(_copied(root)) == 1

    r, root = _import(store, tmp_path, "--strict")
    assert r.exit_code == 1 and f"evreport: error: run {ids[0]}" in r.output

    r, root = _import(store, tmp_path, "--allow-remote-artifacts")
    assert r.exit_code == 0, r.output
    assert "imported 1 run(s)" in r.output  # the other one was imported before
    assert SECRET in _copied(root)


@pytest.mark.parametrize(
    "path",
    ["/api/2.0/mlflow-artifacts/artifacts/1/x/artifacts", "/any/thing"],
)
def test_an_http_artifact_uri_makes_no_request(store, tmp_path, path):
    _, _, ids, _ = store
    listener = Listener()
    try:
        for rid in ids:
            _set_artifact_uri(store, rid, f"http://127.0.0.1:{listener.port}{path}")
        proxy = f"mlflow-artifacts://127.0.0.1:{listener.port}/1/x/artifacts"
        meta = store[0] / store[1] / ids[1] / "meta.yaml"
        meta.write_text(meta.read_text().replace(f"http://127.0.0.1:{listener.port}{path}", proxy))
        r, root = _import(store, tmp_path)
        assert r.exit_code == 0, r.output
        assert r.output.count("warning: skipped run ") == 2
        assert f"its artifacts are at http://127.0.0.1:{listener.port}{path}, outside" in r.output
        assert f"its artifacts are at {proxy}, outside the store" in r.output
        assert listener.connections == 0
    finally:
        listener.close()


def test_symlinks_and_hard_links_to_outside_files_are_not_read(store, tmp_path):
    root_, eid, ids, outside = store
    a = root_ / eid / ids[0] / "artifacts" / "predictions" / "validation.csv"
    a.unlink()
    a.symlink_to(outside / "predictions" / "validation.csv")
    b = root_ / eid / ids[1] / "artifacts" / "predictions" / "validation.csv"
    b.unlink()
    os.link(outside / "predictions" / "validation.csv", b)
    r, root = _import(store, tmp_path)
    assert r.exit_code == 0, r.output
    assert "predictions/validation.csv leads outside the store (through a symlink)" in r.output
    assert "predictions/validation.csv has 2 hard links" in r.output
    assert "imported 0 run(s)" in r.output and _copied(root) == []


def test_a_symlink_among_the_store_metadata_refuses_the_store(store, tmp_path):
    root_, eid, ids, outside = store
    seed = root_ / eid / ids[0] / "params" / "seed"
    seed.unlink()
    seed.symlink_to(outside / "predictions" / "validation.csv")
    r, root = _import(store, tmp_path)
    assert r.exit_code == 1
    assert r.output.strip() == (
        f"evreport: error: the file store {root_.as_uri()} has a symlink, {eid}/{ids[0]}/params/seed; "
        "MLflow writes none, so the store is not read [mlflow-import]"
    )
    assert not root.exists()


def test_a_listing_that_lies_about_size_stops_at_the_cap(store, tmp_path, monkeypatch):
    """The listing says 10 bytes; the file streams on. The download stops at the cap (here
    1 MiB, EVREPORT_MAX_FILE_BYTES), not after 48 MiB arrived."""
    from reportgen.project import files

    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1 << 20)
    _, _, ids, _ = store
    server = LyingArtifactServer(send=48 << 20)
    try:
        uri = f"http://127.0.0.1:{server.port}/api/2.0/mlflow-artifacts/artifacts/1/{ids[0]}/artifacts"
        _set_artifact_uri(store, ids[0], uri)
        r, root = _import(store, tmp_path, "--dry-run", "--allow-remote-artifacts")
        assert r.exit_code == 0 and "would import 2 run(s)" in r.output  # the listing is believed
        r, root = _import(store, tmp_path, "--allow-remote-artifacts")
        assert r.exit_code == 0, r.output
        assert f"warning: skipped run {ids[0]}" in r.output
        assert (
            "predictions/validation.parquet is over the 1,048,576-byte limit "
            "(EVREPORT_MAX_FILE_BYTES); reading stopped after"
        ) in r.output
        assert server.sent < 16 << 20  # stopped early (socket buffers allow a few MiB more)
        assert "imported 1 run(s)" in r.output
    finally:
        server.close()


def test_a_local_file_over_the_cap_is_refused_before_it_is_read(tmp_path):
    from reportgen.importers.mlflow_artifacts import LocalArtifacts, Refused

    (tmp_path / "predictions").mkdir()
    (tmp_path / "predictions" / "validation.csv").write_bytes(b"x" * 2000)
    art = LocalArtifacts(tmp_path, tmp_path, "here")
    assert art.read("predictions/validation.csv", 2000) == b"x" * 2000
    with pytest.raises(Refused, match="is 2,000 bytes, over the 1,999-byte limit"):
        art.read("predictions/validation.csv", 1999)
    os.mkfifo(tmp_path / "predictions" / "test.csv")
    with pytest.raises(Refused, match="is not a regular file"):
        art.read("predictions/test.csv", 1999)


class _HostileServer:
    """An HTTP server on 127.0.0.1 whose answers ``respond(handler)`` writes; counts requests."""

    def __init__(self, respond) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        outer = self
        self.requests: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                outer.requests.append(self.path)
                respond(self)

            do_POST = do_GET

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(5)


def _json(h, doc) -> None:
    import json

    body = json.dumps(doc).encode()
    h.send_response(200)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    h.wfile.write(body)


def _artifact_proxy(serve_file):
    """An artifact proxy listing predictions/validation.csv; ``serve_file`` answers the file."""

    def respond(h):
        if "?" in h.path:
            _json(h, {"files": [{"path": "validation.csv", "is_dir": False, "file_size": 30}]})
        else:
            serve_file(h)

    return respond


def _point_runs_at(store, port, ids):
    for rid in ids:
        uri = f"http://127.0.0.1:{port}/api/2.0/mlflow-artifacts/artifacts/1/{rid}/artifacts"
        _set_artifact_uri(store, rid, uri)


def test_an_artifact_proxy_redirect_to_another_origin_is_not_followed(store, tmp_path):
    _, _, ids, _ = store
    other = _HostileServer(lambda h: _json(h, {"row_id": 1}))

    def redirect(h):
        h.send_response(302)
        h.send_header("Location", f"http://127.0.0.1:{other.port}/evil.csv")
        h.send_header("Content-Length", "0")
        h.end_headers()

    proxy = _HostileServer(_artifact_proxy(redirect))
    try:
        _point_runs_at(store, proxy.port, ids[:1])
        r, root = _import(store, tmp_path, "--allow-remote-artifacts")
        assert r.exit_code == 0, r.output
        assert f"warning: skipped run {ids[0]}" in r.output
        assert "answered HTTP 302 (a redirect; not followed)" in r.output
        assert other.requests == []
        assert "imported 1 run(s)" in r.output and len(_copied(root)) == 1
    finally:
        proxy.close()
        other.close()


def _trickle(h):
    """Headers at once, then one byte every 0.2 s for as long as the client listens."""
    import time

    h.send_response(200)
    h.end_headers()
    try:
        for _ in range(300):
            h.wfile.write(b"r")
            h.wfile.flush()
            time.sleep(0.2)
    except OSError:
        pass


def test_a_trickling_download_stops_at_the_artifact_and_import_deadlines(
    store, tmp_path, monkeypatch
):
    import time

    _, _, ids, _ = store
    monkeypatch.setenv("EVREPORT_DOWNLOAD_SECONDS", "1")
    monkeypatch.setenv("EVREPORT_IMPORT_SECONDS", "1.5")
    proxy = _HostileServer(_artifact_proxy(_trickle))
    try:
        _point_runs_at(store, proxy.port, ids)
        start = time.monotonic()
        r, root = _import(store, tmp_path, "--allow-remote-artifacts")
        took = time.monotonic() - start
        assert r.exit_code == 0, r.output
        assert r.output.count("warning: skipped run ") == 2
        assert "took over 1 s (EVREPORT_DOWNLOAD_SECONDS); stopped after" in r.output
        assert "(EVREPORT_IMPORT_SECONDS)" in r.output
        assert "imported 0 run(s)" in r.output and _copied(root) == []
        assert took < 10
    finally:
        proxy.close()


def test_a_bad_download_time_limit_is_one_line(store, tmp_path, monkeypatch):
    monkeypatch.setenv("EVREPORT_DOWNLOAD_SECONDS", "inf")
    r, _ = _import(store, tmp_path)
    assert r.exit_code == 2
    assert r.output.strip() == (
        "evreport: error: EVREPORT_DOWNLOAD_SECONDS='inf' is not a positive number of seconds "
        "[mlflow-usage]"
    )


def test_a_server_paging_forever_is_stopped_at_the_page_cap(tmp_path, monkeypatch):
    from reportgen.importers import mlflow as importer

    monkeypatch.setattr(importer, "MAX_PAGES", 5)
    experiment = {"experiment_id": "1", "name": "e", "lifecycle_stage": "active"}

    def respond(h):
        if "experiments/get-by-name" in h.path:
            _json(h, {"experiment": experiment})
        elif "runs/search" in h.path:
            length = int(h.headers.get("Content-Length") or 0)
            h.rfile.read(length)
            _json(h, {"runs": [], "next_page_token": "more"})
        else:
            h.send_error(404)

    server = _HostileServer(respond)
    try:
        root = tmp_path / "project"
        r = cli(
            "import", "mlflow", str(root), "--tracking-uri", f"http://127.0.0.1:{server.port}",
            "--experiment", "e",
        )  # fmt: skip
        assert r.exit_code == 0, r.output
        assert sum("runs/search" in p for p in server.requests) == 5
        assert "warning: the store still had more runs after 5 pages (0 runs)" in r.output
    finally:
        server.close()
