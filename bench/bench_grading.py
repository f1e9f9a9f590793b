"""Benchmark re-grading: a class of generated submissions graded twice into the same OUT.

    .venv/bin/python bench/bench_grading.py [--students 120] [--jobs 2] [--formats json,html]

Each student is a copy of one of the four examples (round robin) with its own title and
claim, so every submission has its own input hash. The first run builds every report and
grades it with the template rubric; the second run, on unchanged input, reuses them.
Prints both wall times, the ratio, and how many were reused. Writes to a temporary folder
that is removed afterwards.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reportgen.batch import run_batch  # noqa: E402
from reportgen.grading import GradingOptions  # noqa: E402
from reportgen.grading.rubric import TEMPLATE, parse_rubric  # noqa: E402

EXAMPLES = ("weekly-churn", "moons-tie", "tuned-replay", "tuned-no-replay")
CLAIMS = ("{c} is better than {b}.", "{c} and {b} are tied.", "{c} beats {b} by 2 points.")


def make_class(folder: Path, n: int) -> Path:
    subs = folder / "subs"
    for i in range(n):
        dst = subs / f"student-{i:03d}"
        shutil.copytree(ROOT / "examples" / EXAMPLES[i % len(EXAMPLES)], dst)
        toml = dst / "evreport.toml"
        text = toml.read_text(encoding="utf-8")
        claim = tomllib.loads(text)["claim"]
        new = CLAIMS[i % len(CLAIMS)].format(c=claim["candidate"], b=claim["baseline"])
        text = text.replace(
            f'text              = "{claim["text"]}"', f'text              = "{new}"'
        )
        text = text.replace("title", f"# student {i}\ntitle", 1)
        toml.write_text(text, encoding="utf-8")
    return subs


def timed(subs: Path, out: Path, jobs: int, formats: tuple[str, ...]):
    opts = GradingOptions(rubric=parse_rubric(tomllib.loads(TEMPLATE)))
    start = time.perf_counter()
    result = run_batch([subs], out, formats=formats, jobs=jobs, timeout=600, grading=opts)
    wall = time.perf_counter() - start
    failed = [(r["name"], r["error"]) for r in result.rows if r["status"] != "ok"]
    return wall, result, failed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=120)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--formats", default="json,html")
    args = ap.parse_args()
    formats = tuple(args.formats.split(","))
    with tempfile.TemporaryDirectory(prefix="evreport-bench-grading-") as tmp:
        subs = make_class(Path(tmp), args.students)
        out = Path(tmp) / "out"
        first, r1, failed1 = timed(subs, out, args.jobs, formats)
        second, r2, failed2 = timed(subs, out, args.jobs, formats)
        print(f"students: {args.students}, --jobs {args.jobs}, formats {','.join(formats)}")
        print(f"first run:  {first:7.1f} s  ({len(r1.rows)} built, {len(failed1)} failed)")
        print(f"second run: {second:7.1f} s  ({r2.extra['reused']} reused, {len(failed2)} failed)")
        print(f"second / first: {100 * second / first:.1f} %")
        print(f"copied-work groups: {len(r2.extra['duplicates'])}")
        for name, err in (failed1 + failed2)[:5]:
            print(f"  failed {name}: {err}")


if __name__ == "__main__":
    main()
