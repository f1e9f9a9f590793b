"""Large evaluation sets: `evreport build --format json` against a floor script.

    PYTHONPATH=. .venv/bin/python bench/bench_scale.py                 # 2 x 10 seeds, 1e5 / 1e6 rows
    PYTHONPATH=. .venv/bin/python bench/bench_scale.py --sweep         # also 1e5, 1e6, 4e6 test rows
    PYTHONPATH=. .venv/bin/python bench/bench_scale.py --test-rows 200000 --seeds 4   # quick look
    PYTHONPATH=. .venv/bin/python bench/bench_scale.py --split-format csv        # CSV split files
    PYTHONPATH=. .venv/bin/python bench/bench_scale.py --split-format csv --int-weeks  # issue 31's layout

Generates the project once per size (seeded, bench/scale_project.py; kept in --work), then
runs the floor script and the build alternately, --repeat times each, each in a fresh child
process, and prints the median wall time and the peak RSS of each (os.wait4 of the child)
and their ratios. The floor does the work any correct build must do: read every
predictions file with pyarrow, join it to the split file's week and slice by row id (one sort of
the split ids, a binary search per file), per-row log loss, per-week and per-slice sums by
bincount, one sort of the scores per network. With ``--split-format csv`` the split files are CSV
(integer ids written as text) and the floor reads them with ``pyarrow.csv`` (ids inferred
as int64). Targets: time ratio <= 1.5, memory ratio <= 3; in the
sweep, doubling the rows doubles the time within 20 %.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from child import run_child  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

FLOOR = r"""
import sys, glob, os
import numpy as np, pyarrow.compute as pc, pyarrow.csv as pcsv, pyarrow.parquet as pq
root = sys.argv[1]
split = {}
for part in ("validation", "test"):
    if os.path.exists(f"{root}/split/{part}.csv"):
        keep = pcsv.ConvertOptions(include_columns=["row_id", "week", "route"])
        t = pcsv.read_csv(f"{root}/split/{part}.csv", convert_options=keep)
    else:
        t = pq.read_table(f"{root}/split/{part}.parquet", columns=["row_id", "week", "route"])
    ids = t.column("row_id").to_numpy()
    order = np.argsort(ids)
    week = pc.dictionary_encode(t.column("week")).combine_chunks().indices.to_numpy()
    route = pc.dictionary_encode(t.column("route")).combine_chunks().indices.to_numpy()
    split[part] = (ids[order], week[order], route[order])
total = 0.0
for path in sorted(glob.glob(f"{root}/artefacts/predictions/*.parquet")):
    part = "test" if path.endswith("-test.parquet") else "validation"
    sorted_ids, week, route = split[part]
    t = pq.read_table(path, columns=["row_id", "y", "p"])
    pos = np.searchsorted(sorted_ids, t.column("row_id").to_numpy())
    y = t.column("y").to_numpy()
    p = np.clip(t.column("p").to_numpy(), 1e-15, 1 - 1e-15)
    loss = -np.where(y == 1, np.log(p), np.log1p(-p))
    sums = np.bincount(week[pos], weights=loss)
    by_slice = np.bincount(route[pos], weights=loss)
    order = np.argsort(-p, kind="stable")
    total += sums.sum() + by_slice.sum() + float(np.cumsum(y[order])[-1])
print(total)
"""


def project(
    work: Path, n_val: int, n_test: int, seeds: int, split_fmt: str = "parquet", weeks="text"
) -> Path:
    sys.path.insert(0, str(ROOT / "bench"))
    from scale_project import make_scale_project

    tail = ("" if split_fmt == "parquet" else f"-{split_fmt}-split") + (
        "-int-weeks" if weeks == "int" else ""
    )
    path = work / f"scale-{seeds}x{n_val}x{n_test}{tail}"
    if not (path / "evreport.toml").exists():
        t = time.perf_counter()
        make_scale_project(
            path, n_val, n_test, seeds=seeds, ids="int", split_fmt=split_fmt, weeks=weeks
        )
        print(f"generated {path} in {time.perf_counter() - t:.0f} s", flush=True)
    return path


def compare(path: Path, repeat: int, out: Path, max_file_mb: int | None) -> dict:
    floor_cmd = [sys.executable, "-c", FLOOR, str(path)]
    build_cmd = [sys.executable, "-m", "reportgen", "build", str(path), "--format", "json"]
    build_cmd += ["--out", str(out)]
    if max_file_mb:
        build_cmd += ["--max-file-mb", str(max_file_mb)]
    runs: dict[str, list[tuple[float, float]]] = {"floor": [], "build": []}
    for _ in range(repeat):  # alternate, so load from other users hits both alike
        runs["floor"].append(run_child(floor_cmd)[::2])
        runs["build"].append(run_child(build_cmd)[::2])
    med = {k: (statistics.median(w for w, _ in v), max(r for _, r in v)) for k, v in runs.items()}
    return {"runs": runs, "median": med}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--val-rows", type=int, default=None, help="default: test rows / 10")
    ap.add_argument("--test-rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sweep", action="store_true", help="also 1e5, 1e6, 4e6 test rows")
    ap.add_argument("--sweep-seeds", type=int, default=3)
    ap.add_argument("--max-file-mb", type=int, default=None)
    ap.add_argument(
        "--split-format",
        choices=("parquet", "csv"),
        default="parquet",
        help="format of the split files (predictions are Parquet either way)",
    )
    ap.add_argument(
        "--int-weeks", action="store_true", help="the block column as integer week numbers"
    )
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "evreport-scale")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"cores: {os.cpu_count()}; load average {load}; python {sys.version.split()[0]}")
    n_val = args.val_rows or args.test_rows // 10
    weeks = "int" if args.int_weeks else "text"
    path = project(args.work, n_val, args.test_rows, args.seeds, args.split_format, weeks)
    rows = 2 * args.seeds * (n_val + args.test_rows)
    res = compare(path, args.repeat, args.work / "out", args.max_file_mb)
    (fw, fr), (bw, br) = res["median"]["floor"], res["median"]["build"]
    print(
        f"\n2 models x {args.seeds} seeds x ({n_val:,} + {args.test_rows:,}) = {rows:,} rows, "
        f"{args.split_format} split files, {weeks} weeks"
    )
    for name, v in res["runs"].items():
        print(f"  {name:5s} runs: " + ", ".join(f"{w:.2f} s / {r:.0f} MB" for w, r in v))
    print(f"  floor  median {fw:6.2f} s   peak RSS {fr:6.0f} MB")
    print(f"  build  median {bw:6.2f} s   peak RSS {br:6.0f} MB")
    print(f"  ratio  time {bw / fw:.2f} (target <= 1.5)   memory {br / fr:.2f} (target <= 3)")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"  load average after: {load}", flush=True)
    if args.sweep:
        print(f"\nsweep: 2 models x {args.sweep_seeds} seeds, validation rows = test rows / 10")
        prev = None
        for n in (100_000, 1_000_000, 4_000_000):
            p = project(args.work, n // 10, n, args.sweep_seeds, args.split_format)
            r = compare(p, args.repeat, args.work / "out", args.max_file_mb)
            (fw, fr), (bw, br) = r["median"]["floor"], r["median"]["build"]
            per = bw / n * 1e6
            growth = (
                "" if prev is None else f"   time x{bw / prev[1]:.2f} for rows x{n / prev[0]:.0f}"
            )
            print(
                f"  {n:>9,} test rows: build {bw:6.2f} s ({per:.2f} s per 1e6) {br:6.0f} MB;"
                f" floor {fw:6.2f} s {fr:6.0f} MB; ratio {bw / fw:.2f}{growth}",
                flush=True,
            )
            prev = (n, bw)


if __name__ == "__main__":
    main()
