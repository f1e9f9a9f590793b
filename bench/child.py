"""One fresh child process timed from outside: what the benches under bench/ share."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_child(cmd: list[str]) -> tuple[float, float, float]:
    """(wall s, CPU s of it and the children it waited for, peak RSS in MB) of one process.

    Its output is thrown away; a failure stops the bench with the command and its stderr.
    The child runs as a user's Python does, caching the bytecode it compiles (an installed
    wheel's is compiled at install), even where the bench's own environment says
    PYTHONDONTWRITEBYTECODE: a warm-up run then leaves .pyc files for the timed ones.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # Linux: kilobytes
