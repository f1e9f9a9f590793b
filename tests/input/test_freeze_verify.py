"""freeze -> load verifies every split file; an edit after freezing fails rung 2, not the load."""

from __future__ import annotations

import hashlib
import json

import pandas as pd
import pytest

from reportgen.checks import compute_report
from reportgen.errors import InputError
from reportgen.project import load_project
from reportgen.project.manifest import freeze

CREATED = "2026-04-06T08:30:00Z"


@pytest.fixture
def refrozen(example):
    """moons-tie with its manifest rewritten by freeze()."""
    root = example("moons-tie")
    (root / "split" / "manifest.json").unlink()
    manifest = freeze(root, CREATED)
    return root, manifest


def test_freeze_writes_hashes_rows_parts(refrozen):
    root, m = refrozen
    on_disk = json.loads((root / "split" / "manifest.json").read_text())
    assert on_disk == m
    assert m["created"] == CREATED and m["row_id"] == "row_id"
    assert [f["part"] for f in m["files"]] == ["test", "train", "validation"]
    for f in m["files"]:
        path = root / f["path"]
        assert f["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert f["rows"] == len(pd.read_csv(path))
    assert [f["rows"] for f in m["files"]] == [400, 200, 200]


def test_freeze_then_load_verifies_every_file(refrozen):
    root, m = refrozen
    project = load_project(root)
    files = project.manifest.files
    assert [(f.part, f.path, f.rows) for f in files] == [
        (e["part"], e["path"], e["rows"]) for e in m["files"]
    ]
    assert all(f.hash_ok is True and f.rows_ok is True for f in files)
    report, _ = compute_report(project)
    fact = report["fairness"][0]
    assert fact["id"] == "manifest-verified" and fact["passed"] is True
    assert report["ladder"][1]["name"] == "fair"
    assert report["ladder"][1]["status"] != "not shown"


def test_freeze_is_reproducible_with_created(refrozen):
    root, _ = refrozen
    first = (root / "split" / "manifest.json").read_bytes()
    freeze(root, CREATED)
    assert (root / "split" / "manifest.json").read_bytes() == first


def test_freeze_reads_val_alias_and_parquet(tmp_path):
    (tmp_path / "split").mkdir()
    (tmp_path / "split" / "val.csv").write_text("row_id,x\n1,a\n2,b\n")
    pd.DataFrame({"row_id": ["3", "4", "5"]}).to_parquet(tmp_path / "split" / "test.parquet")
    m = freeze(tmp_path, "2026-01-01")
    assert [(f["part"], f["path"], f["rows"]) for f in m["files"]] == [
        ("test", "split/test.parquet", 3),
        ("validation", "split/val.csv", 2),
    ]


def test_freeze_without_split_files(tmp_path):
    with pytest.raises(InputError) as e:
        freeze(tmp_path)
    assert "no split/ folder" in str(e.value)
    (tmp_path / "split").mkdir()
    (tmp_path / "split" / "notes.txt").write_text("x")
    with pytest.raises(InputError) as e:
        freeze(tmp_path)
    assert "no .csv or .parquet split files in split/" in str(e.value)


def test_freeze_bad_created(tmp_path):
    (tmp_path / "split").mkdir()
    (tmp_path / "split" / "test.csv").write_text("row_id\n1\n")
    with pytest.raises(InputError) as e:
        freeze(tmp_path, "next week")
    assert "--created 'next week' is not an ISO 8601 date-time" in str(e.value)
    assert not (tmp_path / "split" / "manifest.json").exists()


def test_edit_after_freezing_fails_the_fact_not_the_load(refrozen):
    root, _ = refrozen
    path = root / "split" / "train.csv"
    lines = path.read_text().splitlines(keepends=True)
    cells = lines[5].split(",")
    cells[1] = cells[1] + "1"  # one digit more in one feature: same rows, new bytes
    lines[5] = ",".join(cells)
    path.write_text("".join(lines))
    project = load_project(root)  # still loads
    by_part = {f.part: f for f in project.manifest.files}
    assert (by_part["train"].hash_ok, by_part["train"].rows_ok) == (False, True)
    assert (by_part["test"].hash_ok, by_part["validation"].hash_ok) == (True, True)
    report, _ = compute_report(project)
    fact = report["fairness"][0]
    assert fact["id"] == "manifest-verified"
    assert fact["passed"] is False
    assert fact["text"] == "split/train.csv: sha256 differs (edited after freezing)"
    rung2 = report["ladder"][1]
    assert (rung2["rung"], rung2["name"], rung2["status"]) == (2, "fair", "not shown")
    assert rung2["missing"] == fact["text"]


def test_row_count_mismatch_fails_the_fact(refrozen):
    root, _ = refrozen
    mpath = root / "split" / "manifest.json"
    doc = json.loads(mpath.read_text())
    doc["files"][1]["rows"] = 199  # train really has 200
    mpath.write_text(json.dumps(doc))
    report, _ = compute_report(load_project(root))
    fact = report["fairness"][0]
    assert fact["passed"] is False
    assert fact["text"] == "split/train.csv: 200 rows, manifest says 199"
    assert report["ladder"][1]["status"] == "not shown"


def test_no_manifest_still_builds_the_report(example):
    root = example("moons-tie")
    (root / "split" / "manifest.json").unlink()
    project = load_project(root)
    assert project.manifest is None
    [w] = project.warnings
    assert (w.slug, w.severity, w.path) == ("no-manifest", "warning", "split/manifest.json")
    assert set(project.split_frames) == {"test", "train", "validation"}  # read from split/
    report, _ = compute_report(project)
    fact = report["fairness"][0]
    assert (fact["id"], fact["passed"]) == ("manifest-verified", False)
    rung2 = report["ladder"][1]
    assert rung2["status"] == "not shown"
    assert "manifest" in rung2["missing"]
    assert report["warnings"][0]["slug"] == "no-manifest"
