"""Files the integer-key path cannot take fall back to the general path, which names the row."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reportgen.project import inspect_project

ROOT = Path(__file__).resolve().parents[2]
REL = "artefacts/predictions/cand-s1-test.parquet"


@pytest.fixture
def project(tmp_path):
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from scale_project import make_scale_project
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return make_scale_project(tmp_path / "p", 500, 2_000, seeds=2, ids="int")


def _rewrite_ids(project: Path, change) -> np.ndarray:
    table = pq.read_table(project / REL)
    ids = table.column("row_id").to_numpy().copy()
    change(ids)
    pq.write_table(table.set_column(0, "row_id", pa.array(ids)), project / REL)
    return ids


def test_clean_integer_ids_take_keys(project):
    proj, problems = inspect_project(project)
    assert proj is not None, [str(p) for p in problems]
    pred = proj.predictions[REL]
    assert pred.keys is not None and pred.stored_ids is None
    assert len(pred) == 2_000 and len(set(pred.row_id)) == 2_000
    assert pred.block is not None and pred.block.dtype == object


def test_duplicate_integer_id_is_named_by_row(project):
    ids = _rewrite_ids(project, lambda a: a.__setitem__(9, a[4]))
    proj, problems = inspect_project(project)
    assert proj is None
    [p] = [p for p in problems if p.slug == "duplicate-row-id"]
    assert p.message == f"duplicate row_id '{ids[4]}' (also at line 5)"
    assert (p.path, p.line, p.column) == (REL, 10, 1)


def test_integer_id_outside_the_split_is_named(project):
    _rewrite_ids(project, lambda a: a.__setitem__(6, 10**15))
    proj, problems = inspect_project(project)
    assert proj is None
    [p] = [p for p in problems if p.slug == "unknown-row-id"]
    assert "1 row_id(s) not in the split file" in p.message and "'1000000000000000'" in p.message
    assert (p.path, p.line) == (REL, 7)
