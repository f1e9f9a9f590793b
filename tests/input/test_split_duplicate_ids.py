"""A repeated row id in any split file is an input error at freeze, validate and
build, naming both lines; the keyed fast path still takes clean files."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from reportgen.cli import main
from reportgen.errors import InputError
from reportgen.project import inspect_project
from reportgen.project.manifest import freeze
from reportgen.project.rowkeys import repeated_ids

ROOT = Path(__file__).resolve().parents[2]
CREATED = "2026-04-06T08:30:00Z"


def _refreeze_by_hand(root: Path) -> None:
    """The manifest an older evreport wrote for these split files (freeze now refuses them)."""
    import hashlib

    m = json.loads((root / "split" / "manifest.json").read_text())
    for f in m["files"]:
        path = root / f["path"]
        f["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
        table = pq.read_table(path) if path.suffix == ".parquet" else pd.read_csv(path, dtype=str)
        f["rows"] = len(table)
    (root / "split" / "manifest.json").write_text(json.dumps(m, indent=2))


@pytest.fixture
def moons(tmp_path):
    """moons-tie (model against baseline) with split/test.csv's row 6 given row 2's id."""
    root = tmp_path / "moons"
    shutil.copytree(ROOT / "examples" / "moons-tie", root, ignore=shutil.ignore_patterns("report"))
    test = root / "split" / "test.csv"
    lines = test.read_text().splitlines(keepends=True)
    first_id = lines[2].split(",", 1)[0]  # data row 2, line 3
    lines[6] = first_id + "," + lines[6].split(",", 1)[1]  # line 7 now repeats it
    test.write_text("".join(lines))
    _refreeze_by_hand(root)
    return root, first_id


WANT = "split/test.csv:7:1: error: duplicate row_id '{id}': also at split/test.csv:3:1"


@pytest.mark.parametrize("command", ["validate", "build"])
def test_model_against_baseline_split_with_a_repeated_id_is_refused(moons, tmp_path, command):
    root, rid = moons
    args = [command, str(root)] + (["--out", str(tmp_path / "out")] if command == "build" else [])
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 1, r.output
    assert WANT.format(id=rid) in r.output
    assert "[duplicate-row-id]" in r.output
    assert not (tmp_path / "out" / "report.json").exists()


def test_freeze_refuses_a_split_file_with_a_repeated_id(moons):
    root, rid = moons
    before = (root / "split" / "manifest.json").read_bytes()
    with pytest.raises(InputError) as e:
        freeze(root, CREATED)
    [p] = e.value.problems
    assert (p.path, p.line, p.column, p.slug) == ("split/test.csv", 7, 1, "duplicate-row-id")
    assert p.message == (
        f"duplicate row_id '{rid}': also at split/test.csv:3:1; "
        "each row of a split file needs its own id"
    )
    assert (root / "split" / "manifest.json").read_bytes() == before


def test_padded_ids_repeat_too(tmp_path):
    """' q7' and 'q7' are one id to every check (str(v).strip()): the general path finds it."""
    root = tmp_path / "p"
    (root / "split").mkdir(parents=True)
    pd.DataFrame({"row_id": ["q1", " q7", "q3", "q7 "]}).to_csv(
        root / "split" / "test.csv", index=False
    )
    with pytest.raises(InputError) as e:
        freeze(root, CREATED)
    [p] = e.value.problems
    assert (p.line, p.message.split(":")[0]) == (5, "duplicate row_id 'q7'")
    assert "also at split/test.csv:3:1" in p.message


def test_integer_parquet_split_with_a_repeated_id_names_its_rows(tmp_path):
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from scale_project import make_scale_project
    finally:
        sys.path.remove(str(ROOT / "bench"))
    root = make_scale_project(tmp_path / "p", 300, 400, seeds=1, ids="int")
    path = root / "split" / "test.parquet"
    table = pq.read_table(path)
    ids = table.column("row_id").to_numpy().copy()
    ids[250] = ids[17]
    pq.write_table(table.set_column(0, "row_id", pa.array(ids)), path)
    _refreeze_by_hand(root)
    project, problems = inspect_project(root)
    assert project is None
    [p] = [p for p in problems if p.slug == "duplicate-row-id" and p.path == "split/test.parquet"]
    # Parquet rows are cited 1-based: row 251 repeats row 18
    assert (p.line, p.column) == (251, 1)
    assert p.message.startswith(f"duplicate row_id '{ids[17]}': also at split/test.parquet:18:1")


def test_clean_split_files_keep_the_keyed_path(tmp_path):
    """No second look at split files whose ids became keys (they are unique by construction)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from scale_project import make_scale_project
    finally:
        sys.path.remove(str(ROOT / "bench"))
    root = make_scale_project(tmp_path / "p", 300, 400, seeds=1, ids="str", fmt="csv")
    project, problems = inspect_project(root)
    assert project is not None, [str(p) for p in problems]
    assert all(k is not None for k in project.part_keys.values())


def test_repeated_ids_counts_every_repeat_in_file_order():
    ids = pd.Series(["a", "b", "a", "c", "b", "a"], dtype=object)
    found, n = repeated_ids(ids, limit=2)
    assert n == 3
    assert found == [("a", 0, 2), ("b", 1, 4)]
    assert repeated_ids(pd.Series(np.arange(10))) == ([], 0)
    assert repeated_ids(pd.Series(["", "", "x"], dtype=object)) == ([], 0)  # empty ids: elsewhere
