"""CSV split files: canonical integer ids take the integer path, others the text path.

Each case builds a small project with bench/scale_project.py and compares its report with
the report of the general path (no row keys at all, every id a Python string) to 1e-12.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest

from reportgen.project import inspect_project, load
from reportgen.project.rowkeys import canonical_ints
from tests.compare import differences

ROOT = Path(__file__).resolve().parents[2]
TEST_PRED = "artefacts/predictions/cand-s1-test.parquet"


def _project(path: Path, ids: str = "int", fmt: str = "parquet") -> Path:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from scale_project import make_scale_project
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return make_scale_project(path, 400, 1_500, seeds=2, ids=ids, fmt=fmt, split_fmt="csv")


def _report(project: Path, general: bool = False, monkeypatch=None) -> dict:
    from reportgen.checks import compute_report
    from reportgen.checks.jsonsafe import jsonable

    if general:  # no keys for any part: every file takes the general (string) path
        monkeypatch.setattr(load, "part_keys", lambda frame, column: None)
    proj = load.load_project(project)
    if general:
        assert all(p.keys is None for p in proj.predictions.values())
        monkeypatch.undo()
    report = json.loads(json.dumps(jsonable(compute_report(proj, "cmd")[0])))
    for key in ("date", "libraries"):
        report["build"].pop(key)
    return report, proj


def _same_as_general(project: Path, monkeypatch) -> object:
    fast, proj = _report(project)
    general, _ = _report(project, general=True, monkeypatch=monkeypatch)
    diffs = differences(fast, general)
    assert not diffs, "\n".join(diffs[:20])
    return proj


def _rewrite_split_ids(project: Path, part: str, change) -> list[str]:
    """Rewrite the row_id cells of split/PART.csv as text and freeze again."""
    from reportgen.project.manifest import freeze

    path = project / "split" / f"{part}.csv"
    table = pcsv.read_csv(
        path, convert_options=pcsv.ConvertOptions(column_types={"row_id": pa.string()})
    )
    ids = table.column("row_id").to_pylist()
    change(ids)
    table = table.set_column(0, "row_id", pa.array(ids, pa.string()))
    pcsv.write_csv(table, path, write_options=pcsv.WriteOptions(quoting_style="none"))
    freeze(project, created="2026-01-01T00:00:00Z")
    return ids


def test_canonical_integer_csv_ids_take_the_integer_path(tmp_path, monkeypatch):
    project = _project(tmp_path / "p")
    proj = _same_as_general(project, monkeypatch)
    keys = proj.part_keys["test"]
    assert keys.int_sorted is not None and keys.int_table is not None
    pred = proj.predictions[TEST_PRED]
    assert pred.keys is not None and pred.part_keys is keys
    # the text of integer keys is made again on demand: the same ids as the CSV file
    first = sorted(str(v) for v in range(2 * 10**8, 2 * 10**8 + 1_500))
    assert keys.sorted_text.to_pylist() == first


def test_a_non_canonical_id_sends_the_split_to_the_text_path(tmp_path, monkeypatch):
    # "0200000007" is not "200000007": the split file is text, and so are the predictions
    project = _project(tmp_path / "p", fmt="csv")
    odd = "0200000007"
    _rewrite_split_ids(project, "test", lambda ids: ids.__setitem__(ids.index("200000007"), odd))
    for rel in sorted((project / "artefacts" / "predictions").glob("*-test.csv")):
        rel.write_text(rel.read_text().replace("\n200000007,", f"\n{odd},"))
    proj = _same_as_general(project, monkeypatch)
    keys = proj.part_keys["test"]
    assert keys.int_sorted is None
    assert all(p.keys is not None for p in proj.predictions.values())
    assert odd in keys.sorted_text.to_pylist()


@pytest.mark.parametrize("form", ["0200000007", "+200000007", "2.00000007e8"])
def test_an_integer_never_matches_another_spelling(tmp_path, form):
    # the split file spells id 200000007 otherwise; Parquet int 200000007 is not that id
    project = _project(tmp_path / "p")
    _rewrite_split_ids(project, "test", lambda ids: ids.__setitem__(ids.index("200000007"), form))
    row = pq.read_table(project / TEST_PRED).column("row_id").to_pylist().index(200000007)
    proj, problems = inspect_project(project)
    assert proj is None
    found = [p for p in problems if p.slug == "unknown-row-id" and p.path == TEST_PRED]
    assert found and found[0].line == row + 1
    assert "'200000007'" in found[0].message


def test_a_prediction_spelled_with_a_leading_zero_is_not_in_a_canonical_split(tmp_path):
    project = _project(tmp_path / "p", fmt="csv")
    rel = "artefacts/predictions/base-s2-test.csv"
    lines = (project / rel).read_text().split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("200000042,"))
    lines[at] = "0" + lines[at]
    (project / rel).write_text("\n".join(lines))
    proj, problems = inspect_project(project)
    assert proj is None
    [p] = [p for p in problems if p.slug == "unknown-row-id"]
    assert (p.path, p.line) == (rel, at + 1) and "'0200000042'" in p.message


def test_text_ids_in_csv_split_files(tmp_path, monkeypatch):
    project = _project(tmp_path / "p", ids="str", fmt="csv")
    # one file misses a row: it still gets keys (the ids it has are all in the part)
    rel = project / "artefacts/predictions/cand-s2-validation.csv"
    lines = rel.read_text().split("\n")
    rel.write_text("\n".join(lines[:3] + lines[4:]))
    proj = _same_as_general(project, monkeypatch)
    assert proj.part_keys["test"].int_sorted is None
    assert all(p.keys is not None for p in proj.predictions.values())


def test_canonical_ints():
    good = ["0", "7", "10", "200000042", "9223372036854775807"]
    assert canonical_ints(pa.array(good)).tolist() == [int(v) for v in good]
    bad = ["007", "+7", "-7", " 7", "7 ", "7.0", "1e3", "", "\u0663", "9223372036854775808"]
    for v in bad:
        assert canonical_ints(pa.array(["1", v])) is None, v
    assert canonical_ints(pa.array(["1", None])) is None
    assert canonical_ints(pa.array([], pa.string())) is None
    assert isinstance(canonical_ints(pa.array(good)), np.ndarray)


@pytest.mark.parametrize(
    "body, lines",
    [
        ('"row_id","y"\n"a",0\n"b",1\n', None),  # quoted, one record a line: no csv pass
        ('"row_id","y"\r\n"a",0\r\n"b",1', None),
        ('"row_id","y"\n"a",0\n\n"b",1\n', [2, 4]),  # a blank line
        ('"row_id","text"\n"a","two\nlines"\n"b",x\n', [2, 4]),  # a quoted line break
        ('"row_id","y"\n"a",0\r"b",1\n"c",0\n', [2, 3, 4]),  # a lone \r ends a line too
    ],
)
def test_csv_line_numbers_with_quotes(tmp_path, body, lines):
    from reportgen.project.files import Reader
    from reportgen.project.tables import line_of, read_table

    (tmp_path / "t.csv").write_bytes(body.encode())
    frame = read_table(Reader(tmp_path), tmp_path / "t.csv")
    got = frame.attrs.get("lines")
    if lines is None:
        assert got is None and [line_of(frame, i) for i in range(len(frame))] == [2, 3]
    else:
        assert got is not None and got.tolist() == lines
