"""Unbounded work: each hostile input is refused by a cap checked first.

Every input is made here, small on disk; each refusal names the file, the limit and the
value, and comes well within a second or two.
"""

from __future__ import annotations

import json
import struct
import time
import zipfile

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import set_runs_cell, with_slug

from reportgen.errors import InputError
from reportgen.project import inspect_project
from reportgen.project import manifest as manifest_mod
from reportgen.project import tables as tables_mod
from reportgen.project.files import Reader
from reportgen.project.manifest import freeze
from reportgen.project.tables import TableError, read_table
from reportgen.safezip import UnsafeZipError, count_entries, safe_extract

PRED = "artefacts/predictions/mlp-s1-test.parquet"
#: seconds a refusal may take on a loaded machine (before the caps: 13 s to 292 s)
QUICK = 3


def _timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


# --------------------------------------------------------------------------- manifest


def test_a_manifest_with_60000_parts_is_refused_before_any_is_read(mini, monkeypatch):
    freeze(mini, "2026-01-01T00:00:00Z")
    path = mini / "split" / "manifest.json"
    doc = json.loads(path.read_text())
    doc["files"] = [dict(doc["files"][0], part=f"p{i}") for i in range(60_000)]
    path.write_text(json.dumps(doc, indent=2))
    assert path.stat().st_size > 9_000_000
    monkeypatch.setattr(manifest_mod, "read_table", lambda *a, **k: pytest.fail("read a part"))
    (_, problems), seconds = _timed(lambda: inspect_project(mini))
    [p] = with_slug(problems, "too-large")
    assert p.path == "split/manifest.json" and p.line == 4
    assert p.message == '"files" lists 60,000 parts, over the limit of 1,000; none of them is read'
    assert seconds < QUICK


def test_freeze_refuses_more_split_files_than_a_manifest_may_list(mini, monkeypatch):
    monkeypatch.setattr(manifest_mod, "MAX_MANIFEST_PARTS", 3)
    (mini / "split" / "extra.csv").write_text("row_id\nz1\n")
    (mini / "split" / "more.csv").write_text("row_id\nz2\n")
    with pytest.raises(InputError) as e:
        freeze(mini, "2026-01-01T00:00:00Z")
    [p] = e.value.problems
    assert (p.path, p.slug) == ("split", "too-large")
    assert (
        p.message == "split/ holds 4 split files, over the limit of 3 parts; none of them is read"
    )
    assert not (mini / "split" / "manifest.json").exists()


# --------------------------------------------------------------------------- CSV and Parquet


@pytest.mark.parametrize("end", ["\n", "\r"], ids=["lf", "cr"])
def test_a_csv_with_250000_columns_is_refused_before_parsing(mini, end):
    path = mini / "artefacts" / "predictions" / "mlp-s1-test.csv"
    header = "row_id,y,p," + ",".join(f"c{i}" for i in range(250_000))
    path.write_bytes((header + end + "t1,0,0.5" + ",0" * 250_000 + end).encode())
    assert path.stat().st_size > 2_000_000
    (_, problems), seconds = _timed(lambda: inspect_project(mini))
    [p] = with_slug(problems, "too-large")
    assert (p.path, p.line) == ("artefacts/predictions/mlp-s1-test.csv", 1)
    assert p.message == (
        "the header has 250,003 columns, over the limit of 10,000; the file is not parsed"
    )
    assert seconds < QUICK


def test_a_run_log_with_250000_columns_is_refused(mini):
    path = mini / "runs.csv"
    lines = path.read_text().split("\n")
    lines[0] += "".join(f",x{i}" for i in range(250_000))
    path.write_text("\n".join(lines))
    (_, problems), seconds = _timed(lambda: inspect_project(mini))
    [p] = with_slug(problems, "too-large")
    assert (p.path, p.line) == ("runs.csv", 1)
    assert p.message == "the header has 250,009 columns, over the limit of 10,000"
    assert seconds < QUICK


def test_a_parquet_file_with_too_many_columns_is_refused_from_its_schema(mini, monkeypatch):
    columns = {"row_id": ["t1", "t2"], "y": [0, 1], "p": [0.5, 0.5]}
    columns.update({f"c{i}": [0, 0] for i in range(60)})
    pq.write_table(pa.table(columns), mini / PRED)
    set_runs_cell(mini, 4, "predictions", PRED)
    monkeypatch.setattr(tables_mod, "MAX_TABLE_COLUMNS", 50)
    _, problems = inspect_project(mini)
    [p] = with_slug(problems, "too-large")
    assert p.path == PRED
    assert p.message == "the Parquet file has 63 columns, over the limit of 50"


def _repeated(value: str, n: int):
    """One dictionary entry used by every row: tiny on disk however long the value."""
    return pa.DictionaryArray.from_arrays(pa.array([0] * n, pa.int32()), pa.array([value]))


@pytest.mark.parametrize("column", ["row_id", "text", "week"])
def test_one_long_value_repeated_is_refused_before_it_is_expanded(mini, column):
    n = 1_000
    columns = {"row_id": [f"t{i}" for i in range(n)], "y": [0] * n, "p": [0.5] * n}
    columns[column] = _repeated("x" * 1_000_000, n)  # 1 GB once every row holds a copy
    pq.write_table(pa.table(columns), mini / PRED, compression="zstd")
    assert (mini / PRED).stat().st_size < 4_000
    set_runs_cell(mini, 4, "predictions", PRED)
    (_, problems), seconds = _timed(lambda: inspect_project(mini))
    [p] = with_slug(problems, "too-large")
    assert p.path == PRED
    assert p.message.startswith(
        f"column {column!r} decodes to 1,000,000,000 bytes of text, over the limit of "
        "268,435,456 (the per-file limit"
    )
    assert seconds < QUICK


def test_the_text_limit_counts_every_use_of_a_dictionary_value(tmp_path):
    n = 1_000
    table = pa.table({"row_id": [f"r{i}" for i in range(n)], "text": _repeated("y" * 1_000, n)})
    pq.write_table(table, tmp_path / "t.parquet")  # text: 1,000,000 bytes expanded
    frame = read_table(Reader(tmp_path, max_file_bytes=1_000_000), tmp_path / "t.parquet")
    assert len(frame) == n and len({id(v) for v in frame["text"]}) == 1  # held once
    assert frame["row_id"].tolist() == [f"r{i}" for i in range(n)]
    assert frame["row_id"].dtype == "str"  # Arrow strings, as a CSV file's, not objects
    with pytest.raises(TableError) as e:
        read_table(Reader(tmp_path, max_file_bytes=999_999), tmp_path / "t.parquet")
    assert "column 'text' decodes to 1,000,000 bytes of text, over the limit of 999,999" in str(
        e.value
    )


def test_repeated_row_ids_without_an_arrow_schema_are_refused_before_expanding(tmp_path):
    # plain strings to a reader that finds no Arrow schema, dictionary pages in the file
    table = pa.table({"row_id": _repeated("r" * 1_000_000, 1_000), "y": [0] * 1_000})
    pq.write_table(table, tmp_path / "t.parquet", compression="zstd", store_schema=False)
    assert pq.read_schema(tmp_path / "t.parquet").field("row_id").type == pa.string()
    reader = Reader(tmp_path)
    (_, seconds) = _timed(
        lambda: pytest.raises(TableError, read_table, reader, tmp_path / "t.parquet")
    )
    assert seconds < QUICK


def test_a_large_dictionary_is_refused_from_the_metadata_before_decoding(tmp_path, monkeypatch):
    values = [f"{i:04d}" + "z" * 1_000 for i in range(300)]  # 300 KB of distinct text
    pq.write_table(pa.table({"row_id": values}), tmp_path / "t.parquet", compression="zstd")
    assert (tmp_path / "t.parquet").stat().st_size < 20_000
    monkeypatch.setattr(pq, "read_table", lambda *a, **k: pytest.fail("decoded"))
    with pytest.raises(TableError) as e:
        read_table(Reader(tmp_path, max_file_bytes=100_000), tmp_path / "t.parquet")
    assert e.value.problem.slug == "too-large"
    assert "column 'row_id' decodes to " in str(e.value) and "the limit of 100,000" in str(e.value)


# --------------------------------------------------------------------------- zip


def _zip_with_end_records(path, real: int, classic: int, zip64: int, zip64_at_locator=None):
    """A zip whose central directory holds ``real`` entries while its end records claim
    ``classic`` (the classic record) and ``zip64`` (the ZIP64 record before the locator);
    ``zip64_at_locator``: another ZIP64 record, where the locator points."""
    cd = b""
    for i in range(real):
        name = f"f{i}".encode()
        cd += (
            struct.pack(
                "<4s4B4HL2L5H2L",
                b"PK\x01\x02",
                20,
                3,
                20,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                0,
                len(name),
                0,
                0,
                0,
                0,
                0,
                0,
            )
            + name
        )

    start = 0 if zip64_at_locator is None else 56  # the other record comes first

    def zip64_record(count):
        return struct.pack(
            "<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, len(cd), start
        )

    body = b"" if zip64_at_locator is None else zip64_record(zip64_at_locator)
    body += cd
    here = len(body)
    body += zip64_record(zip64)
    locator = struct.pack("<4sLQL", b"PK\x06\x07", 0, here if start == 0 else 0, 1)
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, classic, classic, 46 * classic, start, 0)
    path.write_bytes(body + locator + end)
    return path


@pytest.mark.parametrize("at_locator", [None, 3], ids=["zip64-record", "two-zip64-records"])
def test_a_zip64_count_is_refused_before_any_entry_is_parsed(tmp_path, monkeypatch, at_locator):
    path = _zip_with_end_records(tmp_path / "s.zip", 2_000, 3, 1_000_000, at_locator)
    # zipfile itself would list the entries the central directory holds
    assert len(zipfile.ZipFile(path).infolist()) == 2_000
    monkeypatch.setattr(zipfile, "ZipFile", lambda *a, **k: pytest.fail("parsed"))
    with pytest.raises(UnsafeZipError) as e:
        safe_extract(path, tmp_path / "out")
    assert str(e.value) == "s.zip has 1,000,000 entries; the limit is 10,000"


def test_the_zip64_record_the_locator_names_is_checked_too(tmp_path):
    path = _zip_with_end_records(tmp_path / "s.zip", 3, 3, 3, zip64_at_locator=1_000_000)
    with pytest.raises(UnsafeZipError, match="1,000,000 entries; the limit is 10,000"):
        count_entries(path, 10_000)
    assert count_entries(_zip_with_end_records(tmp_path / "ok.zip", 3, 3, 3), 10_000) == 3
