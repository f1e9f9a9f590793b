"""The worker process: a long-lived interpreter that imports reportgen once and builds
project after project, and the memory limit it runs under.

Protocol: the parent writes one JSON task per line to the worker's stdin; the worker
answers ``{"ready": true}`` once warm, then one JSON summary row per task on its own copy
of fd 1 (stdout itself is pointed at stderr, so a library's stray print cannot corrupt
it). When a project overruns its timeout the parent kills the worker and starts another.

A worker never outlives its parent: it runs in a process group of its own (killed as a
whole, so a helper process it started goes too), and it holds the read end of a pipe
whose only write end the parent keeps (the lifeline). When the parent dies in any way,
``kill -9`` included, the kernel closes that end; the worker's watcher thread reads
end-of-file and kills the worker's group at once, in the middle of a build or not.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from reportgen.batch.build import error_row, internal_error, resolve
from reportgen.errors import UsageError, clean_text
from reportgen.words.i18n import _, local_number, speaking

#: address-space limit of each local worker process, in MiB (EVREPORT_WORKER_MEMORY_MB)
DEFAULT_WORKER_MEMORY_MB = 4096
#: how long a fresh worker may take to import reportgen before it counts as broken
STARTUP_TIMEOUT = 120.0


def limit_memory(megabytes: int) -> bool:
    """Cap this process's data segment (heap and private mappings) at ``megabytes`` MiB.

    RLIMIT_DATA rather than RLIMIT_AS: the chart engine reserves tens of GB of address
    space it never uses. A build that needs more gets MemoryError (an error row) or dies
    (a "worker died" row); the machine and the other workers are safe. False where the
    platform has no such limit.
    """
    if megabytes <= 0:
        return False
    try:
        import resource

        limit = megabytes * 1024 * 1024
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
        return True
    except (ImportError, AttributeError, ValueError, OSError):
        return False


def worker_memory_mb() -> int:
    """The per-worker memory limit: EVREPORT_WORKER_MEMORY_MB, or the default (0 = none)."""
    raw = os.environ.get("EVREPORT_WORKER_MEMORY_MB")
    if raw is None:
        return DEFAULT_WORKER_MEMORY_MB
    try:
        return max(0, int(raw))
    except ValueError:
        raise UsageError(
            _(
                "EVREPORT_WORKER_MEMORY_MB={value} is not a whole number of MiB",
                value=repr(clean_text(raw, 40)),
            )
        ) from None


def _watch_lifeline(fd: int) -> None:
    """In the worker: block on the lifeline pipe; end-of-file means the parent is gone."""
    while True:
        try:
            if not os.read(fd, 1):
                break
        except InterruptedError:
            continue
        except OSError:
            break
    _die()


def _die() -> None:
    """Kill this worker's process group (the worker and anything it started), now."""
    import signal

    try:
        os.killpg(os.getpgid(0), signal.SIGKILL)
    finally:
        os._exit(1)


def worker_main(build_ref: str, memory_mb: int = 0, lifeline: int = -1) -> None:
    """Entry point of a worker process: JSON task lines on stdin, JSON row lines on fd 1.

    ``lifeline``: the read end of the pipe the parent holds open (-1: none).
    """
    import importlib

    if lifeline >= 0:
        threading.Thread(target=_watch_lifeline, args=(lifeline,), daemon=True).start()
    limit_memory(memory_mb)

    proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # stray prints from libraries must not corrupt the protocol
    builds: dict[str, Callable[[dict], dict]] = {}
    try:
        builds[build_ref] = resolve(build_ref)
        warm = getattr(builds[build_ref], "warm_modules", ())
    except Exception:
        warm = ()  # reported per project below
    for module in warm:  # import the heavy parts once, before the first clock starts
        try:
            importlib.import_module(module)
        except Exception:
            pass  # a real problem shows up, per project, in build_one
    proto.write(json.dumps({"ready": True}) + "\n")
    proto.flush()
    for line in sys.stdin:
        task = json.loads(line)
        try:
            if task["build"] not in builds:
                builds[task["build"]] = resolve(task["build"])
            row = builds[task["build"]](task)
            text = json.dumps(row, allow_nan=False, default=str)
        except BaseException as e:  # noqa: B036 - SystemExit from a library must not kill the worker
            text = json.dumps(error_row(task, internal_error(e, task)))
        proto.write(text + "\n")
        proto.flush()


class Worker:
    """One long-lived worker process; ``run`` kills and replaces it when a project overruns."""

    def __init__(self, build_ref: str, cwd: str | None = None, memory_mb: int | None = None):
        self.build_ref = build_ref
        self.cwd = cwd
        self.memory_mb = worker_memory_mb() if memory_mb is None else memory_mb
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue = queue.Queue()
        self.lifeline: int | None = None  # the write end of the worker's lifeline pipe

    def _start(self) -> subprocess.Popen[str]:
        code = (
            "import sys, json; sys.path[:0] = json.loads(sys.argv[1]); "
            "from reportgen.batch.worker import worker_main; "
            "worker_main(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))"
        )
        path = [p for p in sys.path if p]
        self._cut_lifeline()  # a dead predecessor's
        posix = os.name == "posix"
        read_end, self.lifeline = os.pipe() if posix else (-1, None)
        try:
            proc = self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-I",
                    "-c",
                    code,
                    json.dumps(path),
                    self.build_ref,
                    str(self.memory_mb),
                    str(read_end),
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                cwd=self.cwd,
                text=True,
                encoding="utf-8",
                pass_fds=(read_end,) if posix else (),
                start_new_session=posix,  # its own group: killed whole, deaf to our Ctrl-C
            )
        finally:
            if posix:
                os.close(read_end)  # only the worker holds it now
        self.lines = queue.Queue()
        threading.Thread(target=_pump, args=(proc.stdout, self.lines), daemon=True).start()
        hello = self._receive(STARTUP_TIMEOUT)
        if hello is None or not hello.get("ready"):
            self.kill()
            raise RuntimeError(_("the worker process did not start"))
        return proc

    def _receive(self, timeout: float) -> dict | None:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        return None if line is None else json.loads(line)

    def run(self, task: dict, timeout: float) -> dict:
        with speaking(task.get("language")):  # its errors in the build's language
            return self._run(task, timeout)

    def _run(self, task: dict, timeout: float) -> dict:
        try:
            proc = self.proc
            if proc is None or proc.poll() is not None:
                proc = self._start()
            if proc.stdin is None:
                raise RuntimeError(_("the worker process has no stdin pipe"))
            proc.stdin.write(json.dumps(task) + "\n")
            proc.stdin.flush()
        except (OSError, RuntimeError) as e:
            self.kill()
            return error_row(task, _("could not start a worker process: {why}", why=str(e)))
        start = time.perf_counter()
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            _discard_partial(task)
            said = _(
                "timed out after {seconds} s; the project was stopped",
                seconds=local_number(f"{timeout:g}"),
            )
            return error_row(task, said, timeout)
        if line is None:
            code = proc.wait()
            self.proc = None
            self._cut_lifeline()
            _discard_partial(task)
            said = _(
                "the worker process died (exit code {code}) while building this project",
                code=code,
            )
            return error_row(task, said, round(time.perf_counter() - start, 3))
        return json.loads(line)

    def kill(self) -> None:
        """Kill the worker and its process group now; wait for it."""
        proc, self.proc = self.proc, None
        if proc is not None:
            _kill_group(proc)
            proc.wait()
        self._cut_lifeline()

    def _cut_lifeline(self) -> None:
        fd, self.lifeline = self.lifeline, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def close(self) -> None:
        if self.proc is None:
            self._cut_lifeline()
            return
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.kill()


def _kill_group(proc: subprocess.Popen[str]) -> None:
    """SIGKILL the worker's process group (it leads its own), or the worker alone."""
    import signal

    try:
        if os.name == "posix" and os.getpgid(proc.pid) == proc.pid:
            os.killpg(proc.pid, signal.SIGKILL)
            return
    except OSError:
        pass  # already gone
    with contextlib.suppress(OSError):
        proc.kill()


def _pump(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def _discard_partial(task: dict) -> None:
    """After a killed worker: remove its half-written report and extraction folder."""
    shutil.rmtree(task["out_dir"], ignore_errors=True)
    shutil.rmtree(task["tmp_dir"], ignore_errors=True)
