"""All checks for a synthetic project of 2 models x 10 seeds x 100,000 test rows, excluding file reading.

Run: .venv/bin/python bench/bench_checks.py   (prints best-of-3 seconds for compute_report)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reportgen.checks import compute_report  # noqa: E402
from reportgen.project import load_project  # noqa: E402
from tests.checks.builder import make_project  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        root = make_project(Path(d) / "p", seeds=10, blocks=50, rows_per_block=2000)
        t1 = time.perf_counter()
        project = load_project(root)
        t2 = time.perf_counter()
        best = min(_timed(project) for _ in range(3))
        print(
            f"project: 2 models x 10 seeds x {50 * 2000:,} test rows (50 weekly blocks), 2000 resamples"
        )
        print(f"  generate {t1 - t0:.1f} s, load (file reading) {t2 - t1:.2f} s")
        print(f"  all checks (compute_report), best of 3: {best:.2f} s  (target < 3 s)")


def _timed(project) -> float:
    t = time.perf_counter()
    compute_report(project)
    return time.perf_counter() - t


if __name__ == "__main__":
    main()
