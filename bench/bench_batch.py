"""Benchmark evreport batch: N copies of an example project, --jobs 1 against --jobs 2.

    .venv/bin/python bench/bench_batch.py [--copies 100] [--pdf-copies 20] [--jobs 1,2]

Prints projects per second and the speed-up for HTML+JSON, then HTML+JSON+PDF, and what a
fresh interpreter per project would cost (the import a long-lived worker pays once).
Everything is written to a temporary folder that is removed afterwards.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reportgen.batch import WARM_MODULES, run_batch  # noqa: E402


def make_copies(example: Path, folder: Path, n: int) -> Path:
    subs = folder / "subs"
    for i in range(n):
        shutil.copytree(example, subs / f"student-{i:03d}", ignore=shutil.ignore_patterns("report"))
    return subs


def one_run(subs: Path, out: Path, jobs: int, formats: tuple[str, ...]):
    """Wall seconds, projects, CPU seconds of the workers, failures."""
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = run_batch([subs], out, formats=formats, jobs=jobs, timeout=600)
    wall = time.perf_counter() - start
    cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    failed = [(r["name"], r["error"]) for r in result.rows if r["status"] != "ok"]
    return wall, len(result.rows), cpu, failed


def import_cost() -> float:
    code = f"import importlib\nfor m in {WARM_MODULES!r}:\n    importlib.import_module(m)"
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--example", default=str(ROOT / "examples" / "weekly-churn"))
    ap.add_argument("--copies", type=int, default=100)
    ap.add_argument("--pdf-copies", type=int, default=20)
    ap.add_argument("--jobs", default="1,2")
    args = ap.parse_args()
    jobs_list = [int(j) for j in args.jobs.split(",")]
    print(f"python {sys.version.split()[0]}, example {args.example}")
    print(f"fresh interpreter + imports (paid once per worker here): {import_cost():.2f} s")
    for formats, copies in (
        (("html", "json"), args.copies),
        (("html", "json", "pdf"), args.pdf_copies),
    ):
        if copies <= 0:
            continue
        with tempfile.TemporaryDirectory(prefix="evreport-bench-") as tmp:
            subs = make_copies(Path(args.example), Path(tmp), copies)
            base = None
            for jobs in jobs_list:
                load = os.getloadavg()[0]
                wall, n, cpu, failed = one_run(subs, Path(tmp) / f"out-{jobs}", jobs, formats)
                rate = n / wall
                base = base or rate
                print(
                    f"{'+'.join(formats):14s} {n:4d} projects  --jobs {jobs}: {wall:7.1f} s  "
                    f"{rate:5.2f} projects/s  speed-up {rate / base:4.2f}x  "
                    f"worker CPU {cpu / n:4.2f} s/project  load before {load:.1f} "
                    f"on {os.cpu_count()} CPUs"
                    + (f"  FAILED {len(failed)}: {failed[:2]}" if failed else ""),
                    flush=True,
                )


if __name__ == "__main__":
    main()
