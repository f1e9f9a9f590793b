"""The real build on a shipped example, as a folder and as a zip: rows match report.json."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from reportgen.batch import RUNG_COLUMNS, run_batch

from .conftest import snapshot, zip_tree

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "weekly-churn"


@pytest.mark.skipif(
    not (EXAMPLE / "evreport.toml").is_file(), reason="examples/weekly-churn not generated"
)
def test_weekly_churn_as_folder_and_zip(tmp_path):
    project = tmp_path / "subs" / "alice"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("report"))
    zip_tree(project, tmp_path / "subs" / "bob.zip", top="weekly-churn")
    out = tmp_path / "out"
    before = snapshot(tmp_path, skip=out)
    result = run_batch([tmp_path / "subs"], out, formats=("html", "json"), jobs=2, timeout=120)
    assert [(r["name"], r["status"], r["error"]) for r in result.rows] == [
        ("alice", "ok", None),
        ("bob", "ok", None),
    ]
    assert result.exit_code == 0
    assert snapshot(tmp_path, skip=out) == before
    for row in result.rows:
        report = json.loads((out / row["name"] / "report.json").read_text())
        assert row["verdict"] == report["decision"]["verdict"]
        assert row["recommend"] == report["decision"]["recommend"]
        assert row["supported_rung"] == report["claim"]["supported_rung"]
        assert [row[c] for c in RUNG_COLUMNS] == [r["status"] for r in report["ladder"]]
        assert (row["gap"], row["gap_low"], row["gap_high"]) == tuple(
            report["noise"]["block"][k] for k in ("gap", "low", "high")
        )
        assert row["seed_gap_in_sd"] == report["noise"]["seed"]["gap_in_sd"]
    # a folder and a zip of the same project give the same verdict
    assert result.rows[0]["verdict"] == result.rows[1]["verdict"]
    soup = BeautifulSoup((out / "index.html").read_text(), "html.parser")
    assert [a["href"] for a in soup.select("#by-name tbody tr > td:first-child a")] == [
        "alice/report.html",
        "bob/report.html",
    ]
    assert all((out / a["href"]).is_file() for a in soup.find_all("a"))
