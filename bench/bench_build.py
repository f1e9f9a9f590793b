"""Time report rendering: render_outputs per format on the fixture, and fresh-process builds.

    .venv/bin/python bench/bench_build.py            # both parts
    .venv/bin/python bench/bench_build.py --render   # in-process render_outputs only

Prints wall and CPU seconds, best of N. Targets (issue #4): a full build of an example from
a fresh process under 4 s; HTML and JSON alone under 2.5 s. A fresh process draws its charts
in a helper process (render/svg_process.py), so its CPU exceeds its wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "report-weekly-churn.json"
EXAMPLES = ["weekly-churn", "tuned-no-replay"]


def render_in_fresh_process(fmt: str) -> tuple[float, float]:
    """render_outputs(fixture, (fmt,)) in a new interpreter: imports and start-up included."""
    code = (
        "import json, sys, time; t = time.perf_counter();"
        "from reportgen.render import render_outputs;"
        "from reportgen.model import Report;"
        f"r = Report.from_json(json.load(open({str(FIXTURE)!r})));"
        f"files, problems = render_outputs(r, ({fmt!r},));"
        "assert not problems, problems;"
        "print(time.perf_counter() - t)"
    )
    return _timed([sys.executable, "-c", code])


def build_example(name: str, formats: str) -> tuple[float, float]:
    out = Path(tempfile.mkdtemp(prefix="evreport-bench-"))
    try:
        exe = Path(sys.executable).with_name("evreport")
        cmd = [str(exe), "build", str(ROOT / "examples" / name), "--out", str(out)]
        return _timed(cmd + ["--format", formats])
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _timed(cmd: list[str]) -> tuple[float, float]:
    """(wall, CPU of the child) seconds for one subprocess run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def best(fn, *args, repeat: int = 3) -> tuple[float, float]:
    runs = [fn(*args) for _ in range(repeat)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


def in_process(repeat: int) -> None:
    from reportgen.model import Report
    from reportgen.render import render_outputs

    report = Report.from_json(json.loads(FIXTURE.read_text(encoding="utf-8")))
    # charts in this process (chart_process=False): a long-lived process keeps a warm engine
    render_outputs(report, ("html", "pdf"), chart_process=False)  # warm imports and vl-convert
    print(f"render_outputs on {FIXTURE.name}, warm process, best of {repeat}:")
    for formats in [("json",), ("md",), ("html",), ("pdf",), ("html", "pdf", "json", "md")]:
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            files, _ = render_outputs(report, formats, chart_process=False)
            times.append(time.perf_counter() - t)
        sizes = ", ".join(f"{k} {len(v) / 1024:.0f} KiB" for k, v in files.items())
        print(f"  {'+'.join(formats):20s} {min(times):6.2f} s   ({sizes})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--render", action="store_true", help="in-process render only")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    in_process(args.repeat)
    if args.render:
        return
    print(f"render_outputs in a fresh process (imports included), best of {args.repeat}:")
    for fmt in ("json", "html", "pdf"):
        wall, cpu = best(render_in_fresh_process, fmt, repeat=args.repeat)
        print(f"  {fmt:20s} wall {wall:5.2f} s  cpu {cpu:5.2f} s")
    print(f"evreport build (fresh process), best of {args.repeat}:")
    for name in EXAMPLES:
        if not (ROOT / "examples" / name).is_dir():
            print(f"  {name}: not present")
            continue
        for formats in ("html,pdf,json,md", "html,json"):
            wall, cpu = best(build_example, name, formats, repeat=args.repeat)
            print(f"  {name:16s} {formats:18s} wall {wall:5.2f} s  cpu {cpu:5.2f} s")


if __name__ == "__main__":
    main()
