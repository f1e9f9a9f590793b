"""Faults against `evreport batch` in real processes.

A full disk (a real tmpfs), a kill at a chosen step of the swap, a syscall made to fail
under strace, two batches at once and a killed batch: the class's earlier results
survive each, and no worker outlives its batch.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reportgen.batch import outdir as outdir_mod
from reportgen.batch.outdir import TMP_NAME, TRASH
from reportgen.safe import LOCK_NAME, lock_folder

from .conftest import make_project, snapshot

RUNNER = Path(__file__).with_name("fault_runner.py")


def cli(*args, env: dict | None = None, **kw) -> subprocess.CompletedProcess:
    """The real `evreport` command line in a new process, with the fake build."""
    return subprocess.run(
        [sys.executable, str(RUNNER), *map(str, args)],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
        **kw,
    )


def start(*args, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(RUNNER), *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


def wait_for(predicate, timeout: float = 30.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def alive(pid: int) -> bool:
    """The process exists and is not a zombie (a container's init may never reap it)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def reports(out: Path) -> dict:
    """Every report folder's files and their bytes (what the class would lose)."""
    return {
        f"{d.name}/{f.name}": f.read_bytes()
        for d in sorted(out.iterdir())
        if d.is_dir() and not d.name.startswith(".")
        for f in sorted(d.iterdir())
    }


def first_batch(tmp_path: Path, out: Path, **fake) -> Path:
    """An earlier batch's OUT with alice/ and bob/ (built in this process: it is quicker)."""
    from batch.fakes import fake_build

    from reportgen.batch import run_batch

    subs = tmp_path / "subs"
    for n in ("alice", "bob"):
        make_project(subs / n, **fake)
    result = run_batch([subs], out, formats=("html", "json"), jobs=2, build=fake_build)
    assert result.exit_code == 0, result.rows
    return subs


# --------------------------------------------------------------------------- 1: a full disk


@pytest.fixture
def small_disk(tmp_path):
    """A real 4 MiB tmpfs (root only), unmounted afterwards."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)], capture_output=True
    )
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.decode(errors='replace').strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def fill(disk: Path, leave: int) -> Path:
    """Fill the file system, then free ``leave`` bytes again."""
    filler = disk / "filler"
    with open(filler, "wb") as f:
        try:
            while True:
                f.write(b"\0" * 65536)
                f.flush()
        except OSError:
            pass
    os.truncate(filler, max(0, filler.stat().st_size - leave))
    return filler


def test_a_full_disk_during_a_forced_rerun_keeps_every_earlier_report(tmp_path, small_disk):
    out = small_disk / "out"
    subs = first_batch(tmp_path, out, pad_kb=600)
    before = reports(out)
    assert sorted({k.split("/")[0] for k in before}) == ["alice", "bob"]
    filler = fill(small_disk, leave=128 * 1024)  # room for the summary, not for a report
    r = cli("batch", subs, "--out", out, "-j", "1", "-q", "--format", "html,json", "--force")
    assert r.returncode == 1, r.stderr
    rows = json.loads((out / "summary.json").read_text())["submissions"]
    for row in rows:
        assert row["status"] == "error" and "the disk is full" in row["error"], row
        assert f"the earlier report in {row['name']}/ is kept" in row["notes"]
    assert reports(out) == before  # a failed rebuild never removes the old result
    assert not (out / TMP_NAME).exists()
    filler.unlink()  # with room again, the next rerun builds both
    r = cli("batch", subs, "--out", out, "-j", "1", "-q", "--format", "html,json")
    assert r.returncode == 0, r.stderr
    assert {"report.html", "report.json"} <= set(os.listdir(out / "alice"))


# --------------------------------------------------------------------------- 2: the swap


def test_a_kill_between_the_two_swap_renames_is_recovered_by_the_next_run(tmp_path):
    out = tmp_path / "out"
    subs = first_batch(tmp_path, out)
    before = reports(out)
    r = cli("batch", subs, "--out", out, "-j", "1", "-q", env={"FAULT_KILL_AFTER": "trash"})
    assert r.returncode == -signal.SIGKILL
    # the window: alice/ is out of OUT, its only copy in the trash
    assert not (out / "alice").exists()
    assert (out / TMP_NAME / TRASH / "alice" / "report.json").is_file()
    # the next run fails to build alice, so what it shows is the restored earlier report
    make_project(subs / "alice", behaviour="broken")
    r = cli("batch", subs, "--out", out, "-j", "1", "-q", "--format", "html,json")
    assert r.returncode == 1
    after = reports(out)
    assert {k: v for k, v in after.items() if k.startswith("alice/")} == {
        k: v for k, v in before.items() if k.startswith("alice/")
    }
    rows = {r["name"]: r for r in json.loads((out / "summary.json").read_text())["submissions"]}
    assert rows["alice"]["status"] == "error"
    assert "the earlier report in alice/ is kept" in rows["alice"]["notes"]
    assert rows["bob"]["status"] == "ok" and not (out / TMP_NAME).exists()


def test_a_kill_right_after_the_exchange_leaves_a_complete_new_report(tmp_path):
    out = tmp_path / "out"
    subs = first_batch(tmp_path, out, verdict="adopt")
    make_project(subs / "alice", verdict="keep-baseline")
    r = cli("batch", subs, "--out", out, "-j", "1", "-q", env={"FAULT_KILL_AFTER": "exchange"})
    assert r.returncode == -signal.SIGKILL
    report = json.loads((out / "alice" / "report.json").read_text())
    assert report["decision"]["verdict"] == "keep-baseline"  # the new one, whole
    assert (out / "bob" / "report.json").is_file()
    r = cli("batch", subs, "--out", out, "-j", "1", "-q")
    assert r.returncode == 0, r.stderr


@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace")
def test_an_exchange_failing_under_strace_keeps_the_old_reports(tmp_path):
    out = tmp_path / "out"
    subs = first_batch(tmp_path, out)
    before = reports(out)
    # the batch process's first renameat2 (the exchange of alice) fails with ENOSPC
    r = subprocess.run(
        ["strace", "-qq", "-o", os.devnull, "-e", "trace=renameat2"]
        + ["-e", "inject=renameat2:error=ENOSPC:when=1"]
        + [sys.executable, str(RUNNER), "batch", str(subs), "--out", str(out), "-j", "1", "-q"]
        + ["--format", "html,json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if "inject" in r.stderr and r.returncode != 1:
        pytest.skip(f"strace cannot inject here: {r.stderr.strip()}")
    assert r.returncode == 1, r.stderr
    assert "cannot write the batch into --out" in r.stderr and "the disk is full" in r.stderr
    assert reports(out) == before and not (out / TMP_NAME).exists()


def test_a_failing_second_rename_puts_the_old_report_back(tmp_path, monkeypatch):
    dst, new, trash = tmp_path / "alice", tmp_path / "new", tmp_path / "trash"
    dst.mkdir()
    (dst / "report.json").write_text("old")
    new.mkdir()
    (new / "report.json").write_text("new")
    real = os.replace
    monkeypatch.setattr(outdir_mod, "exchange", lambda a, b: False)

    def replace(src, target):
        if Path(src) == new:
            raise OSError(28, "No space left on device")
        real(src, target)

    monkeypatch.setattr(outdir_mod.os, "replace", replace)
    with pytest.raises(OSError):
        outdir_mod.replace_folder(dst, new, trash)
    assert (dst / "report.json").read_text() == "old" and not trash.exists()


# --------------------------------------------------------------------------- 4: the lock


def test_a_second_batch_into_the_same_out_stops_with_one_line(tmp_path):
    subs = tmp_path / "subs"
    pidfile = tmp_path / "building.pid"
    make_project(subs / "slow", behaviour="sleep", seconds=4, pidfile=str(pidfile))
    make_project(subs / "quick")
    out = tmp_path / "out"
    first = start("batch", subs, "--out", out, "-j", "1", "-q", "--format", "json")
    try:
        wait_for(pidfile.exists, what="the first batch to start building")
        second = cli("batch", subs, "--out", out, "-j", "1", "-q", "--format", "json")
        assert second.returncode == 2
        assert second.stderr.strip().splitlines() == [
            f"evreport batch: error: --out {out} is in use by another evreport process "
            f"(pid {first.pid}); wait for it to finish or choose another folder [out-in-use]"
        ]
        assert first.wait(timeout=60) == 0, first.stderr.read()
    finally:
        first.kill()
    marker = json.loads((out / ".evreport-batch.json").read_text())
    assert {"quick", "slow"} <= set(marker["entries"])
    again = cli("batch", subs, "--out", out, "-j", "1", "-q", "--format", "json")
    assert again.returncode == 0, again.stderr  # and the next batch works as usual


def hold_lock(folder: Path, seconds: float) -> subprocess.Popen:
    """Another process holding ``folder``'s lock for ``seconds``."""
    code = (
        "import sys, time; from pathlib import Path; from reportgen.safe import lock_folder\n"
        "with lock_folder(Path(sys.argv[1])):\n"
        "    print('locked', flush=True); time.sleep(float(sys.argv[2]))\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(folder), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "locked"
    return proc


def test_a_build_waits_for_another_writer_of_its_out(tmp_path):
    from reportgen.outputs import atomic_write_dir

    out = tmp_path / "out"
    out.mkdir()
    holder = hold_lock(out, 1.0)
    start_time = time.monotonic()
    atomic_write_dir(out, {"report.json": b"{}"})
    assert time.monotonic() - start_time > 0.5  # it waited for the other process
    assert (out / "report.json").read_bytes() == b"{}"
    holder.wait(timeout=10)


def test_a_build_into_a_busy_out_stops_with_one_line(tmp_path, monkeypatch):
    from reportgen import outputs
    from reportgen.errors import InputError

    out = tmp_path / "out"
    out.mkdir()
    holder = hold_lock(out, 30)
    monkeypatch.setattr(outputs, "LOCK_WAIT", 0.3)
    try:
        with pytest.raises(InputError) as e:
            outputs.atomic_write_dir(out, {"report.json": b"{}"})
    finally:
        holder.kill()
        holder.wait()
    assert str(e.value) == (
        f"{out}: error: output folder {out} is in use by another evreport process "
        f"(pid {holder.pid}); wait for it to finish and build again [out-in-use]"
    )
    assert sorted(os.listdir(out)) == [LOCK_NAME]


def test_a_killed_lock_holder_never_leaves_the_lock_taken(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    holder = hold_lock(out, 60)
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    with lock_folder(out):  # free at once
        pass


# --------------------------------------------------------------------------- 8: workers


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["TERM", "KILL"])
def test_workers_die_with_their_batch(tmp_path, sig):
    out = tmp_path / "out"
    subs = first_batch(tmp_path, out)
    before = reports(out)
    pidfiles = [tmp_path / f"{n}.pid" for n in ("alice", "bob")]
    for n, pf in zip(("alice", "bob"), pidfiles, strict=True):
        make_project(subs / n, behaviour="sleep", seconds=60, pidfile=str(pf))
    batch = start("batch", subs, "--out", out, "-j", "2", "-q", "--timeout", "100")
    wait_for(lambda: all(p.exists() for p in pidfiles), what="both workers to build")
    workers = [int(p.read_text()) for p in pidfiles]
    assert all(alive(w) for w in workers)
    batch.send_signal(sig)
    code = batch.wait(timeout=30)
    wait_for(lambda: not any(alive(w) for w in workers), timeout=10, what="the workers to die")
    assert reports(out) == before  # the earlier class, untouched
    if sig == signal.SIGTERM:  # handled like Ctrl-C: one line, staging removed, exit 128+15
        assert code == 128 + signal.SIGTERM
        assert batch.stderr.read().strip().startswith("evreport batch: stopped by SIGTERM;")
        assert not (out / TMP_NAME).exists()
    else:
        assert code == -signal.SIGKILL
    for n in ("alice", "bob"):
        make_project(subs / n)
    r = cli("batch", subs, "--out", out, "-j", "2", "-q", "--format", "html,json")
    assert r.returncode == 0, r.stderr  # and the next batch works
    assert snapshot(out / "alice")
