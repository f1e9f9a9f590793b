"""Shared by the MLflow import tests: log examples/breast-cancer into real MLflow stores."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "breast-cancer"
EXPERIMENT = "breast-cancer"


def log_example(client) -> int:
    """Log the example's runs through ``client``: one MLflow run per run_id of its runs.csv,
    with its params, its metrics as <split>_<metric> and its predictions as artifacts."""
    import csv
    import tempfile
    from datetime import datetime

    from mlflow.entities import Metric, Param

    runs: dict[str, list[dict]] = {}
    with open(EXAMPLE / "runs.csv", newline="") as f:
        for r in csv.DictReader(f):
            runs.setdefault(r["run_id"], []).append(r)
    eid = client.create_experiment(EXPERIMENT)
    with tempfile.TemporaryDirectory() as tmp:
        for run_id, rows in runs.items():
            first = rows[0]
            when = datetime.fromisoformat(first["started_at"].replace("Z", "+00:00"))
            t = int(when.timestamp() * 1000)
            rid = client.create_run(eid, start_time=t, run_name=run_id).info.run_id
            keys = ("model", "seed", "config", "features", "split_id", "env")
            params = [Param(k, first[k]) for k in keys if first[k]]
            metrics = [Metric(f"{r['split']}_{r['metric']}", float(r["value"]), t, 0) for r in rows]
            client.log_batch(rid, metrics=metrics, params=params)
            for part in ("validation", "test"):
                for src in {
                    r["predictions"] for r in rows if r["split"] == part and r["predictions"]
                }:
                    dst = Path(tmp) / f"{part}.parquet"
                    shutil.copyfile(EXAMPLE / src, dst)
                    client.log_artifact(rid, str(dst), artifact_path="predictions")
            client.set_terminated(rid, "FINISHED", end_time=t + 2000)
    return len(runs)


@contextlib.contextmanager
def mlflow_defaults(folder: Path):
    """MLflow as a script with no tracking URI sees it, in ``folder`` (MLflow 3: ./mlflow.db)."""
    import pytest

    with pytest.MonkeyPatch.context() as mp:
        for k in [k for k in os.environ if k.startswith("MLFLOW_")]:
            mp.delenv(k)
        mp.chdir(folder)
        yield


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without any MLFLOW_* variable of the caller, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MLFLOW_")}
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class MlflowServer:
    """A real `mlflow server` on a free port of 127.0.0.1: sqlite backend, local artifact folder.

    ``start`` returns at once (the server loads while other tests run); ``wait`` blocks
    until /health answers, with a timeout; ``stop`` ends its process group.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.url = f"http://127.0.0.1:{free_port()}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.log = open(self.folder / "server.log", "wb")  # noqa: SIM115  (closed by stop)
        self.proc = subprocess.Popen(
            [
                sys.executable, "-m", "mlflow", "server",
                "--backend-store-uri", f"sqlite:///{(self.folder / 'server.db').as_posix()}",
                "--artifacts-destination", str(self.folder / "mlartifacts"),
                "--host", "127.0.0.1", "--port", self.url.rsplit(":", 1)[1], "--workers", "1",
            ],
            cwd=self.folder,
            env=clean_env(
                # permissive, as a hostile server would be: experiments may name any artifact host
                MLFLOW_ALLOWED_HOST_ADDRESSED_ARTIFACT_SCHEMES="http,https,mlflow-artifacts",
                # no job runner (seven huey worker processes for GenAI jobs, not tracking)
                MLFLOW_SERVER_ENABLE_JOB_EXECUTION="false",
            ),
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def wait(self, timeout: float = 180.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                text = (self.folder / "server.log").read_text(errors="replace")
                raise RuntimeError(
                    f"mlflow server exited with {self.proc.returncode}: {text[-2000:]}"
                )
            try:
                with urllib.request.urlopen(f"{self.url}/health", timeout=2) as r:
                    if r.status == 200:
                        return self.url
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"mlflow server not up on {self.url} after {timeout:.0f} s")
            time.sleep(0.25)

    def stop(self) -> None:
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, 15)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, 9)
            self.proc.wait(10)
        self.log.close()


def new_project(folder: Path) -> Path:
    """A project with the example's config, split and rung-1 check files, and no runs."""
    folder.mkdir(parents=True)
    shutil.copy(EXAMPLE / "evreport.toml", folder / "evreport.toml")
    shutil.copytree(EXAMPLE / "split", folder / "split")
    shutil.copytree(EXAMPLE / "artefacts" / "checks", folder / "artefacts" / "checks")
    return folder


def cli(*args: str):
    from reportgen.cli import main

    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def numbers(obj, path: str = "") -> dict[str, float]:
    """Every number in a report, by path; inputs, build data, artefact lists and warnings left out."""
    out: dict[str, float] = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("inputs", "build", "artefacts", "warnings"):
                continue
            out.update(numbers(v, f"{path}.{k}"))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.update(numbers(v, f"{path}[{i}]"))
    elif isinstance(obj, int | float) and not isinstance(obj, bool):
        out[path] = obj
    return out


def same_figures(got: dict, want: dict) -> None:
    """Two reports agree on every number (to 1e-9), the decision and the supported rung."""
    a, b = numbers(got), numbers(want)
    assert a.keys() == b.keys()
    diff = {k: (a[k], b[k]) for k in a if a[k] != pytest.approx(b[k], rel=1e-9, abs=1e-12)}
    assert diff == {}
    assert got["decision"] == want["decision"]
    assert got["claim"]["supported_rung"] == want["claim"]["supported_rung"]


class Listener:
    """A TCP listener on 127.0.0.1 that counts connections: a request that must not be made."""

    def __init__(self) -> None:
        import threading

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.sock.close()


class LyingArtifactServer:
    """An MLflow artifact proxy whose listing says every file has 10 bytes, then streams
    ``send`` bytes for it (and counts what it managed to send before the client hung up)."""

    def __init__(self, send: int) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        outer = self
        self.sent = 0
        self.requests: list[str] = []

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                outer.requests.append(self.path)
                if "?" in self.path:  # the listing
                    body = b'{"files": [{"path": "validation.parquet", "is_dir": false, "file_size": 10}]}'
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                self.send_response(200)  # no Content-Length: read until the server closes
                self.end_headers()
                chunk = b"\0" * (1 << 16)
                try:
                    while outer.sent < send:
                        self.wfile.write(chunk)
                        outer.sent += len(chunk)
                except OSError:
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(5)
