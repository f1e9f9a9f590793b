"""Hostile submissions and flaky machines against `evreport batch`.

OUT only loses what an earlier batch provably made, always holds a complete old or new
result, and names, zips and memory hogs each cost one error row, never the class.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import struct
import zipfile
from pathlib import Path

import pytest

from reportgen.batch import MARKER, read_marker, run_batch
from reportgen.batch import run as batch_mod
from reportgen.errors import InputError, UsageError
from reportgen.safe import LOCK_NAME
from reportgen.safezip import ExtractionFailed, UnsafeZipError, count_entries, safe_extract

from .conftest import make_project, raw_zip, snapshot, zip_tree

REPO = Path(__file__).resolve().parents[2]


def names_in(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir())


# --------------------------------------------------------------------------- what may be removed


def test_a_foreign_summary_json_does_not_license_deleting_folders(tmp_path, fake_ref):
    out = tmp_path / "out"
    (out / "thesis").mkdir(parents=True)
    (out / "thesis" / "chapter1.tex").write_text("precious")
    (out / "summary.json").write_text(
        json.dumps({"schema": "evreport-batch/1", "submissions": [{"name": "thesis"}]})
    )
    make_project(tmp_path / "p")
    before = snapshot(out)
    with pytest.raises(UsageError, match=f"holds no {MARKER}"):
        run_batch([tmp_path / "p"], out, formats=("json",), jobs=1, build=fake_ref)
    assert snapshot(out) == before


def test_marker_entries_that_are_not_plain_names_are_ignored(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    entries = ["alice", "../escape", "/etc", "a/b", ".hidden", "summary.csv", ".evreport-tmp"]
    (out / MARKER).write_text(json.dumps({"schema": "evreport-batch-out/1", "entries": entries}))
    assert read_marker(out) == ["alice", "summary.csv", ".evreport-tmp"]
    (out / MARKER).write_text(json.dumps({"schema": "something-else", "entries": ["alice"]}))
    with pytest.raises(UsageError, match="unreadable"):
        read_marker(out)


def test_a_users_file_beside_an_earlier_batch_survives_a_rerun(tmp_path, fake_ref):
    make_project(tmp_path / "subs" / "alice")
    out = tmp_path / "out"
    run_batch([tmp_path / "subs"], out, formats=("json",), jobs=1, build=fake_ref)
    (out / "notes.txt").write_text("mine")
    (out / "bob").mkdir()  # same name as a submission that appears later
    (out / "bob" / "keep.txt").write_text("mine too")
    make_project(tmp_path / "subs" / "bob")
    result = run_batch([tmp_path / "subs"], out, formats=("json",), jobs=1, build=fake_ref)
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "bob" / "keep.txt").read_text() == "mine too"
    bob = next(r for r in result.rows if r["name"] == "bob")
    assert bob["status"] == "error" and "was not made by evreport batch" in bob["error"]


# --------------------------------------------------------------------------- interrupted reruns


def _first_batch(tmp_path, fake_ref):
    for n in ("p1", "p2"):
        make_project(tmp_path / "subs" / n)
    out = tmp_path / "out"
    first = run_batch([tmp_path / "subs"], out, formats=("json",), jobs=1, build=fake_ref)
    assert first.exit_code == 0
    return out, snapshot(out)


def test_an_interrupted_rerun_keeps_the_old_result_and_the_next_rerun_works(tmp_path, fake_ref):
    out, before = _first_batch(tmp_path, fake_ref)
    make_project(tmp_path / "subs" / "p3")

    def interrupt(done, total, row):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_batch(
            [tmp_path / "subs"], out, formats=("json",), jobs=1, build=fake_ref, progress=interrupt
        )
    after = snapshot(out)
    assert {k: v for k, v in after.items() if k not in (MARKER, LOCK_NAME)} == {
        k: v for k, v in before.items() if k not in (MARKER, LOCK_NAME)
    }  # every old report and the old summary, untouched
    again = run_batch([tmp_path / "subs"], out, formats=("json",), jobs=1, build=fake_ref)
    assert [r["name"] for r in again.rows] == ["p1", "p2", "p3"]
    assert names_in(out) == [
        MARKER,
        LOCK_NAME,
        "index.html",
        "p1",
        "p2",
        "p3",
        "summary.csv",
        "summary.json",
    ]


def test_a_crash_during_the_swap_leaves_complete_reports_and_a_rerun_works(
    tmp_path, fake_ref, monkeypatch
):
    out, _ = _first_batch(tmp_path, fake_ref)
    shutil.rmtree(tmp_path / "subs" / "p1")
    make_project(tmp_path / "subs" / "p3")

    def crash(result):
        raise RuntimeError("power cut")

    monkeypatch.setattr(batch_mod, "write_summary", crash)
    with pytest.raises(RuntimeError):
        run_batch([tmp_path / "subs"], out, formats=("json",), jobs=1, build=fake_ref)
    for name in ("p1", "p2", "p3"):  # each report folder is complete (old or new)
        assert (out / name / "report.json").is_file()
    monkeypatch.undo()
    again = run_batch([tmp_path / "subs"], out, formats=("json",), jobs=1, build=fake_ref)
    assert again.exit_code == 0
    assert names_in(out) == [
        MARKER,
        LOCK_NAME,
        "index.html",
        "p2",
        "p3",
        "summary.csv",
        "summary.json",
    ]


# --------------------------------------------------------------------------- names


def test_non_utf8_submission_names_are_summarised(tmp_path, fake_ref):
    subs = Path(os.fsdecode(os.fsencode(tmp_path) + b"/subs"))
    make_project(Path(os.fsdecode(os.fsencode(subs) + b"/M\xfcller")))
    zip_tree(make_project(tmp_path / "j"), Path(os.fsdecode(os.fsencode(subs) + b"/J\xf6rg.zip")))
    out = tmp_path / "out"
    for _ in range(2):  # and a rerun into the same OUT
        result = run_batch([subs], out, formats=("json",), jobs=1, build=fake_ref)
        assert result.exit_code == 0, result.rows
        assert [r["name"] for r in result.rows] == ["Jorg", "Muller"]
    table = list(csv.DictReader(io.StringIO((out / "summary.csv").read_text(encoding="utf-8"))))
    assert [r["source"].rsplit("/", 1)[1] for r in table] == ["J\ufffdrg.zip", "M\ufffdller"]
    assert "Muller/report.json" in (out / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("timeout", [float("inf"), float("nan"), 0.0])
def test_timeout_must_be_finite(tmp_path, fake_ref, timeout):
    make_project(tmp_path / "p")
    with pytest.raises(UsageError, match="finite number of seconds"):
        run_batch([tmp_path / "p"], tmp_path / "out", timeout=timeout, build=fake_ref)


# --------------------------------------------------------------------------- the machine


def test_a_memory_hog_gets_an_error_row_and_its_neighbour_builds(tmp_path, fake_ref):
    make_project(tmp_path / "subs" / "a-hog", "alloc", megabytes=3000)
    make_project(tmp_path / "subs" / "b-ok")
    result = run_batch(
        [tmp_path / "subs"],
        tmp_path / "out",
        formats=("json",),
        jobs=1,
        build=fake_ref,
        memory_mb=1500,
    )
    hog, ok = result.rows
    assert ok["status"] == "ok"
    assert hog["status"] == "error"
    assert "memory" in hog["error"] or "worker process died" in hog["error"]


def test_read_only_out_is_one_line_and_leaves_nothing(tmp_path, fake_ref, monkeypatch):
    make_project(tmp_path / "p")
    out = tmp_path / "out"

    def read_only(*a, **k):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(batch_mod, "write_marker", read_only)
    with pytest.raises(InputError) as e:
        run_batch([tmp_path / "p"], out, formats=("json",), jobs=1, build=fake_ref)
    assert "cannot write the batch into --out" in str(e.value)
    assert "the file system is read-only" in str(e.value)
    assert names_in(out) == [LOCK_NAME]  # the lock file only


# --------------------------------------------------------------------------- zips


def test_zip_entry_count_is_read_from_the_end_record(tmp_path):
    # no entries at all, but an end record that claims 60,000 of them
    eocd = b"PK\x05\x06" + struct.pack("<HHHHIIH", 0, 0, 60_000, 60_000, 46 * 60_000, 0, 0)
    path = tmp_path / "claims.zip"
    path.write_bytes(eocd)
    with pytest.raises(UnsafeZipError, match="has 60,000 entries; the limit is 10,000"):
        count_entries(path, 10_000)
    with pytest.raises(UnsafeZipError, match="60,000 entries"):
        safe_extract(path, tmp_path / "dest")


def _patched_zip(tmp_path, name: str, patch) -> Path:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(name, b"data")
    path = tmp_path / "z.zip"
    path.write_bytes(patch(buf.getvalue()))
    return path


def test_zip_name_flagged_utf8_with_invalid_bytes(tmp_path):
    path = _patched_zip(tmp_path, "é.txt", lambda b: b.replace("é".encode(), b"\xff\xfe"))
    with pytest.raises(UnsafeZipError, match="flagged as UTF-8 that is not valid UTF-8"):
        safe_extract(path, tmp_path / "dest")


def test_encrypted_zip_is_named(tmp_path):
    def encrypt_flag(b: bytes) -> bytes:
        b = bytearray(b)
        b[6] |= 1  # local header flags
        cd = b.rfind(b"PK\x01\x02")
        b[cd + 8] |= 1  # central directory flags
        return bytes(b)

    path = _patched_zip(tmp_path, "evreport.toml", encrypt_flag)
    with pytest.raises(UnsafeZipError, match="password-protected"):
        safe_extract(path, tmp_path / "dest")


def test_a_full_disk_is_not_blamed_on_the_zip(tmp_path, monkeypatch):
    path = raw_zip(tmp_path / "ok.zip", [("evreport.toml", b"title = 'x'\n")])
    real_open = open

    def full(file, mode="r", *a, **k):
        if "x" in mode:
            raise OSError(28, "No space left on device")
        return real_open(file, mode, *a, **k)

    monkeypatch.setattr("builtins.open", full)
    with pytest.raises(ExtractionFailed, match="not a problem with the zip"):
        safe_extract(path, tmp_path / "dest")


# --------------------------------------------------------------------------- a real class


def _mini(root: Path) -> Path:
    from input.conftest import make_project as make_real_project

    return make_real_project(root)


def test_hostile_submissions_beside_good_ones(tmp_path):
    """Real builds: the good ones are graded, every bad one gets one line of reason."""
    subs = tmp_path / "subs"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "passwd").write_text("root:x:0:0:SECRET-LINE\n")
    _mini(subs / "good")
    # a model name with control characters: charts must still be drawn
    ctrl = _mini(subs / "ctrl")
    runs, toml = ctrl / "runs.csv", ctrl / "evreport.toml"
    runs.write_text(runs.read_text().replace(",mlp,", ",ml\x0bp\x07,"))
    toml.write_text(toml.read_text().replace('"mlp"', '"ml\\u000bp\\u0007"'))
    # runs.csv is a link to a secret outside
    leak = _mini(subs / "leak")
    (leak / "runs.csv").unlink()
    os.symlink(outside / "passwd", leak / "runs.csv")
    # a symlink loop
    loop = _mini(subs / "loop")
    (loop / "evreport.toml").unlink()
    os.symlink("evreport.toml", loop / "evreport.toml")
    # a deeply nested check file and a 5000-digit integer
    deep = _mini(subs / "deep")
    (deep / "artefacts" / "checks" / "deep.json").write_text("[" * 50_000 + "]" * 50_000)
    (deep / "artefacts" / "checks" / "huge.json").write_text('{"v": ' + "9" * 5000 + "}")
    # a zip slip and a zip whose UTF-8 flagged name is not UTF-8
    raw_zip(subs / "slip.zip", [("../../escaped.txt", b"x"), ("evreport.toml", b"")])
    _patched_zip(subs, "é.txt", lambda b: b.replace("é".encode(), b"\xff\xfe")).rename(
        subs / "badname.zip"
    )
    # a non-UTF-8 name (a broken project, so it fails fast; good ones are tested with fakes)
    (Path(os.fsdecode(os.fsencode(subs) + b"/M\xfcller")) / "evreport.toml").parent.mkdir()

    out = tmp_path / "out"
    result = run_batch([subs], out, formats=("html", "json"), jobs=2, timeout=120)
    rows = {r["name"]: r for r in result.rows}
    ok = sorted(n for n, r in rows.items() if r["status"] == "ok")
    assert ok == ["ctrl", "good"], {n: r["error"] for n, r in rows.items()}
    assert sorted(rows) == ["Muller", "badname", "ctrl", "deep", "good", "leak", "loop", "slip"]
    for r in result.rows:
        if r["status"] == "error":
            assert r["error"] and "\n" not in r["error"] and "Traceback" not in r["error"]
            assert "internal error" not in r["error"], r["error"]
            assert str(tmp_path) not in r["error"]
        assert "SECRET" not in json.dumps(r)
    assert "leads outside the project folder" in rows["leak"]["error"]
    assert "symlink loop" in rows["loop"]["error"]
    assert "nested too deeply" in rows["deep"]["error"]
    assert "climbs out of the folder" in rows["slip"]["error"]
    assert "not valid UTF-8" in rows["badname"]["error"]
    assert "<svg" in (out / "ctrl" / "report.html").read_text(encoding="utf-8")
    report = json.loads((out / "ctrl" / "report.json").read_text(encoding="utf-8"))
    assert report["project"]["candidate"] == "ml\x0bp\x07"  # the original text is kept
    summary = (out / "summary.csv").read_text(encoding="utf-8")
    assert "SECRET" not in summary and "SECRET" not in (out / "index.html").read_text()


def test_a_symlinked_submission_is_reported_not_followed(tmp_path, fake_ref):
    subs = tmp_path / "subs"
    make_project(subs / "alice")
    os.symlink("/", subs / "root-link")
    os.symlink(subs / "alice", subs / "alias")
    result = run_batch([subs], tmp_path / "out", formats=("json",), jobs=1, build=fake_ref)
    rows = {r["name"]: r for r in result.rows}
    assert rows["alice"]["status"] == "ok"
    for name in ("alias", "root-link"):
        assert rows[name]["error"] == (
            "<project>: error: the submission is a symlink; it is not followed "
            "(submit a folder or a zip) [symlink]"
        )


def test_a_batch_killed_while_writing_its_first_marker_can_be_rerun(tmp_path, fake_ref):
    out = tmp_path / "out"
    out.mkdir()
    (out / f".evreport-{MARKER}.tmp").write_text("{")
    make_project(tmp_path / "p")
    result = run_batch([tmp_path / "p"], out, formats=("json",), jobs=1, build=fake_ref)
    assert result.exit_code == 0
    assert names_in(out) == [MARKER, LOCK_NAME, "index.html", "p", "summary.csv", "summary.json"]


def test_batch_cli_bad_timeout_and_memory_setting_are_one_line(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from reportgen.cli import main

    make_project(tmp_path / "p")
    args = ["batch", str(tmp_path / "p"), "--out", str(tmp_path / "out")]
    r = CliRunner().invoke(main, [*args, "--timeout", "inf"])
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [
        "evreport batch: error: --timeout inf is not valid; it must be a finite number of "
        "seconds above 0 [usage]"
    ]
    monkeypatch.setenv("EVREPORT_WORKER_MEMORY_MB", "lots")
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2
    assert "EVREPORT_WORKER_MEMORY_MB='lots' is not a whole number of MiB" in r.output
    assert not (tmp_path / "out").exists()


def test_a_symlinked_staging_folder_is_never_recovered_from(tmp_path, fake_ref):
    from reportgen.batch.outdir import TMP_NAME, TRASH, recover

    out, before = _first_batch(tmp_path, fake_ref)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / TRASH / "p9").mkdir(parents=True)
    (elsewhere / TRASH / "p9" / "secret.txt").write_text("not OUT's")
    os.symlink(elsewhere, out / TMP_NAME)
    assert recover(out) == []
    assert (elsewhere / TRASH / "p9" / "secret.txt").read_text() == "not OUT's"
    assert not (out / "p9").exists()
    again = run_batch([tmp_path / "subs"], out, formats=("json",), jobs=1, build=fake_ref)
    assert again.exit_code == 0
    assert (elsewhere / TRASH / "p9" / "secret.txt").read_text() == "not OUT's"
    assert "p9" not in names_in(out) and TMP_NAME not in names_in(out)
