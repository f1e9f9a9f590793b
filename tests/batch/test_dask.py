"""The same per-project function on a Dask distributed cluster (a small LocalCluster here)."""

from __future__ import annotations

import json

import pytest

from reportgen.batch import run_batch

from .conftest import make_project, zip_tree

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as c:
        yield c


def test_dask_batch_with_a_timeout(tmp_path, cluster, fake_ref):
    subs = tmp_path / "subs"
    make_project(subs / "alice", rung=4)
    make_project(subs / "hung", "sleep", seconds=60)
    zip_tree(make_project(tmp_path / "z"), subs / "zed.zip")
    out = tmp_path / "out"
    result = run_batch(
        [subs],
        out,
        formats=("json", "html"),
        timeout=2.0,
        executor="dask",
        scheduler=cluster.scheduler_address,
        build=fake_ref,
    )
    assert [(r["name"], r["status"]) for r in result.rows] == [
        ("alice", "ok"),
        ("hung", "error"),
        ("zed", "ok"),
    ]
    assert result.rows[1]["error"] == "timed out after 2 s; the project was stopped"
    assert result.exit_code == 1
    report = json.loads((out / "alice" / "report.json").read_text())
    assert result.rows[0]["supported_rung"] == report["claim"]["supported_rung"] == 4
    assert sorted(p.name for p in out.iterdir()) == [
        ".evreport-batch.json",
        ".evreport-lock",
        "alice",
        "index.html",
        "summary.csv",
        "summary.json",
        "zed",
    ]


def test_unreachable_scheduler_is_a_usage_error(tmp_path, fake_ref, monkeypatch):
    import reportgen.batch.executors
    from reportgen.errors import UsageError

    monkeypatch.setattr(reportgen.batch.executors, "DASK_CONNECT_TIMEOUT", "1s")

    make_project(tmp_path / "p")
    with pytest.raises(UsageError, match="cannot reach the Dask scheduler"):
        run_batch(
            [tmp_path / "p"],
            tmp_path / "out",
            executor="dask",
            scheduler="tcp://127.0.0.1:9",
            build=fake_ref,
        )
