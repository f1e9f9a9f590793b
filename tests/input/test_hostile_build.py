"""A killed `evreport build` never leaves files of two builds in --out.

The files of a build go into ``.evreport-builds/ID/``; one rename of the symlink
``.evreport-current`` switches every top-level name (each a link through it) at once.
Each test kills a real process at every step of the write and reads --out as a user would.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import make_project, report_view

from reportgen.outputs import CURRENT, STORE, atomic_write_dir

REPO = Path(__file__).resolve().parents[2]

#: in a new process: write NEW into OUT, SIGKILLed at the Nth call of a file-system step
KILL_AT_STEP = """
import os, signal, shutil, sys
sys.path.insert(0, sys.argv[3])
import reportgen.outputs as outputs
n = int(sys.argv[2])
calls = [0]
def counted(fn):
    def wrapper(*a, **k):
        calls[0] += 1
        if calls[0] == n:
            os.kill(os.getpid(), signal.SIGKILL)
        return fn(*a, **k)
    return wrapper
for name in ("replace", "symlink", "link", "fsync", "mkdir", "rmdir", "unlink"):
    setattr(os, name, counted(getattr(os, name)))
shutil.rmtree = counted(shutil.rmtree)
outputs.atomic_write_dir(sys.argv[1], {"report.json": b"v2 json", "report.html": b"v2 html"})
"""


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def kill_at(out: Path, step: int) -> int:
    r = subprocess.run(
        [sys.executable, "-c", KILL_AT_STEP, str(out), str(step), str(REPO)], timeout=60
    )
    return r.returncode


OLD = {"report.json": b"v1 json", "report.html": b"v1 html", "report.pdf": b"v1 pdf"}
NEW = {"report.json": b"v2 json", "report.html": b"v2 html", "report.pdf": b"v1 pdf"}


def earlier_build(out: Path, plain: bool) -> None:
    """``out`` as an earlier build left it: versioned, or plain files of an older evreport."""
    if plain:
        out.mkdir(parents=True)
        for name, data in OLD.items():
            (out / name).write_bytes(data)
    else:
        atomic_write_dir(out, OLD)
    (out / "notes.txt").write_bytes(b"the user's own")


@pytest.mark.parametrize("plain", [False, True], ids=["versioned", "plain-files-before"])
def test_a_build_killed_at_any_step_leaves_the_old_or_the_new_set(tmp_path, plain):
    old = {n: sha(d) for n, d in {**OLD, "notes.txt": b"the user's own"}.items()}
    new = {n: sha(d) for n, d in {**NEW, "notes.txt": b"the user's own"}.items()}
    seen = []
    for step in range(1, 60):
        out = tmp_path / f"out{step}"
        earlier_build(out, plain)
        code = kill_at(out, step)
        view = report_view(out)
        assert view in (old, new), (step, view)
        seen.append("old" if view == old else "new")
        if code == 0:  # the write got past every step: nothing left to kill
            break
    else:
        pytest.fail("the write never finished")
    assert seen[0] == "old" and seen[-1] == "new"
    assert seen == sorted(seen, key=["old", "new"].index)  # it switches once, never back
    # and the next build after any of those kills is whole and clean
    atomic_write_dir(out, {"report.json": b"v3"})
    assert report_view(out)["report.json"] == sha(b"v3")
    assert len(list((out / STORE).iterdir())) == 1


def test_a_versioned_out_is_plain_to_read_copy_move_and_zip(tmp_path):
    out = tmp_path / "report"
    atomic_write_dir(out, {"report.html": b"<p>v1", "report.json": b"{}", "report.pdf": b"%PDF"})
    atomic_write_dir(out, {"report.html": b"<p>v2", "report.json": b"{}"})
    # every link stays inside the folder: relative, so a copy or a move keeps working
    for name in ("report.html", "report.json", "report.pdf"):
        assert os.readlink(out / name) == f"{CURRENT}/{name}"
        assert Path(os.path.realpath(out / name)).is_relative_to(out.resolve())
    assert (out / "report.pdf").read_bytes() == b"%PDF"  # an earlier file, left as it was
    subprocess.run(["cp", "-r", str(out), str(tmp_path / "copy")], check=True)
    moved = tmp_path / "moved"
    out.rename(moved)
    for folder in (tmp_path / "copy", moved):
        assert (folder / "report.html").read_bytes() == b"<p>v2"
    archive = shutil.make_archive(str(tmp_path / "py"), "zip", moved)
    with zipfile.ZipFile(archive) as zf:
        assert zf.read("report.html") == b"<p>v2"
    if shutil.which("zip"):
        subprocess.run(["zip", "-qr", str(tmp_path / "info.zip"), "."], cwd=moved, check=True)
        with zipfile.ZipFile(tmp_path / "info.zip") as zf:
            assert zf.read("report.html") == b"<p>v2"


@pytest.mark.parametrize("entry", [STORE, CURRENT])
def test_a_build_never_writes_through_a_store_or_current_link_not_its_own(tmp_path, entry):
    from reportgen.errors import InputError

    out = tmp_path / "out"
    out.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, out / entry)
    (out / "report.json").write_bytes(b"plain")  # would be adopted into the current set
    with pytest.raises(InputError, match="is not evreport's; refusing to write"):
        atomic_write_dir(out, {"report.json": b"{}"})
    assert list(elsewhere.iterdir()) == []
    assert (out / "report.json").read_bytes() == b"plain"


def test_without_symlinks_the_files_are_renamed_one_by_one(tmp_path, monkeypatch):
    from reportgen import outputs

    def no_symlinks(*a, **k):
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(outputs.os, "symlink", no_symlinks)
    out = tmp_path / "out"
    atomic_write_dir(out, {"report.json": b"{}"})
    assert (out / "report.json").is_file() and not (out / "report.json").is_symlink()
    assert not (out / STORE).exists() and not (out / CURRENT).exists()


def test_a_batch_report_folder_holds_plain_files(tmp_path):
    from batch.conftest import make_project as fake_project
    from batch.fakes import fake_build

    from reportgen.batch import run_batch

    fake_project(tmp_path / "subs" / "alice")
    run_batch([tmp_path / "subs"], tmp_path / "out", formats=("json", "html"), build=fake_build)
    folder = tmp_path / "out" / "alice"
    assert sorted(p.name for p in folder.iterdir()) == ["report.html", "report.json"]
    assert not any(p.is_symlink() for p in folder.iterdir())


def _evreport(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "reportgen", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )


def test_a_committed_report_folder_with_planted_links_is_never_written_through(tmp_path):
    project = make_project(tmp_path / "P")
    target = tmp_path / "target"
    target.mkdir()
    store = project / "report" / STORE
    store.mkdir(parents=True)
    os.symlink(target, store / "aaaaaaaaaaaa")
    os.symlink(f"{STORE}/aaaaaaaaaaaa", project / "report" / CURRENT)
    (project / "report" / "report.html").write_bytes(b"x")
    r = _evreport("build", str(project), "--format", "json")
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"{STORE} or {CURRENT} in" in r.stderr and "leads outside" in r.stderr
    assert list(target.iterdir()) == []
    assert (project / "report" / "report.html").read_bytes() == b"x"
