"""Time `evreport build` against Evidently's ClassificationPreset HTML on the same data.

    .venv/bin/python bench/bench_peer.py --cache ~/.cache/evreport-bench        # 5 rounds
    EVREPORT_PEER_CACHE=~/.cache/evreport-bench .venv/bin/python bench/bench_peer.py -n 7

The peer: Evidently 0.7.23 with pandas < 3, installed once with pip into its own
virtualenv under the cache folder, builds the HTML of ClassificationPreset on one model
pair of examples/weekly-churn (the candidate's seed-1 test predictions as current data,
the baseline's as reference). Each round runs, in turn, the peer, the full build (HTML,
PDF, JSON, Markdown) and the HTML + JSON build, each a fresh process writing into a fresh
folder, and WeasyPrint alone printing the same page (bench/pdf_floor.py: the import, layout
and drawing any build that prints this report with WeasyPrint must spend). It prints each command's median wall and CPU seconds (the CPU of the process and
of the helper processes it waited for), the median of the per-round ratios to the peer,
the core count and the load average before and after.

On a machine shared with other work the CPU ratio is the steadier figure: when every core
is busy, a build's helper processes share one scheduling group's time (Linux autogroup)
and its wall time follows its total CPU; on an idle machine they run side by side.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from child import run_child  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "examples" / "weekly-churn"
PEER_REQUIREMENTS = ["evidently==0.7.23", "pandas<3"]
#: the peer's script, written into the cache folder
PEER_SCRIPT = """\
import sys

import pandas as pd
from evidently import BinaryClassification, DataDefinition, Dataset, Report
from evidently.presets import ClassificationPreset

project, out = sys.argv[1], sys.argv[2]
cur = pd.read_csv(f"{project}/artefacts/predictions/r03-mlp-s1-test.csv")
ref = pd.read_csv(f"{project}/artefacts/predictions/r04-gbm-s1-test.csv")
dd = DataDefinition(
    classification=[BinaryClassification(target="y", prediction_probas="p")],
    numerical_columns=["p"],
    categorical_columns=["y"],
)
report = Report([ClassificationPreset()])
snapshot = report.run(
    Dataset.from_pandas(cur, data_definition=dd), Dataset.from_pandas(ref, data_definition=dd)
)
snapshot.save_html(out)
"""


def peer_python(cache: Path) -> Path:
    """The peer virtualenv's python, created and installed on first use."""
    venv = cache / "evidently-0.7.23"
    python = venv / "bin" / "python"
    if not (venv / ".installed").exists():
        print(f"installing {' '.join(PEER_REQUIREMENTS)} into {venv} (once)", flush=True)
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", *PEER_REQUIREMENTS], check=True
        )
        (venv / ".installed").touch()
    (cache / "peer.py").write_text(PEER_SCRIPT, encoding="utf-8")
    return python


def timed(cmd: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one fresh process; CPU includes the children it waited for."""
    return run_child(cmd)[:2]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--cache",
        default=os.environ.get("EVREPORT_PEER_CACHE"),
        help="folder for the peer's virtualenv (or EVREPORT_PEER_CACHE)",
    )
    parser.add_argument("-n", "--rounds", type=int, default=5)
    args = parser.parse_args()
    if not args.cache:
        parser.error("give --cache DIR or set EVREPORT_PEER_CACHE")
    cache = Path(args.cache).expanduser().resolve()
    cache.mkdir(parents=True, exist_ok=True)
    python = peer_python(cache)
    evreport = str(Path(sys.executable).with_name("evreport"))
    work = Path(tempfile.mkdtemp(prefix="evreport-peer-"))
    floor = str(Path(__file__).with_name("pdf_floor.py"))
    subprocess.run([sys.executable, floor, "--prepare", str(PROJECT), str(work)], check=True)
    commands = {
        "peer (ClassificationPreset HTML)": lambda i: [
            str(python),
            str(cache / "peer.py"),
            str(PROJECT),
            str(work / f"peer-{i}.html"),
        ],
        "evreport full (HTML, PDF, JSON, MD)": lambda i: [
            evreport,
            "build",
            str(PROJECT),
            "--out",
            str(work / f"full-{i}"),
        ],
        "evreport HTML + JSON": lambda i: [
            evreport,
            "build",
            str(PROJECT),
            "--out",
            str(work / f"hj-{i}"),
            "--format",
            "html,json",
        ],
        "WeasyPrint alone (the same PDF)": lambda i: [
            sys.executable,
            floor,
            str(work / "page.html"),
            str(work / "charts.json"),
            str(work / f"floor-{i}.pdf"),
        ],
    }
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"{cores} cores usable ({os.cpu_count()} on the machine); load before: {load()}")
    try:
        for cmd in commands.values():  # warm-up round, not counted: disk caches, .pyc files
            timed(cmd("warm"))
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for i in range(args.rounds):
            for name, cmd in commands.items():
                runs[name].append(timed(cmd(i)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"load after: {load()}; {args.rounds} rounds, commands in turn")
    peer = runs[next(iter(commands))]
    print(f"{'':38s} {'wall s':>8s} {'cpu s':>8s} {'wall/peer':>10s} {'cpu/peer':>9s}")
    for name, times in runs.items():
        wall = statistics.median(t[0] for t in times)
        cpu = statistics.median(t[1] for t in times)
        wall_ratio = statistics.median(t[0] / p[0] for t, p in zip(times, peer, strict=True))
        cpu_ratio = statistics.median(t[1] / p[1] for t, p in zip(times, peer, strict=True))
        print(f"{name:38s} {wall:8.2f} {cpu:8.2f} {wall_ratio:10.3f} {cpu_ratio:9.3f}")


if __name__ == "__main__":
    main()
