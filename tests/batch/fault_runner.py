"""`evreport` (the real command line) with the fake build, for the fault tests in a real process.

Test-only: nothing in reportgen reads these variables. ``FAULT_KILL_AFTER`` makes this
process SIGKILL itself at a chosen step of the swap of a rerun:

- ``trash``: the two-rename fallback is forced (no renameat2 exchange), and the process
  dies right after the first old report was moved into ``.evreport-tmp/old`` (the
  window between the two renames);
- ``exchange``: the process dies right after the first exchange (new report in place,
  the old one still in the staging folder).

Usage: ``python fault_runner.py batch SUBMISSIONS --out OUT ...``
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parents[1])]

from batch.fakes import fake_build  # noqa: E402

import reportgen.batch.outdir as outdir  # noqa: E402
import reportgen.batch.run as run  # noqa: E402

run.run_batch.__kwdefaults__["build"] = fake_build


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


STEP = os.environ.get("FAULT_KILL_AFTER")
if STEP == "trash":
    outdir.exchange = lambda a, b: False
    _real_replace = os.replace

    def _replace(src, dst, **kw):
        _real_replace(src, dst, **kw)
        if f"{os.sep}{outdir.TMP_NAME}{os.sep}{outdir.TRASH}{os.sep}" in os.fsdecode(dst):
            _die()

    os.replace = _replace
elif STEP == "exchange":
    _real_exchange = outdir.exchange

    def _exchange(a, b):
        done = _real_exchange(a, b)
        if done:
            _die()
        return done

    outdir.exchange = _exchange

if __name__ == "__main__":
    from reportgen.cli import main

    main(sys.argv[1:], prog_name="evreport")
