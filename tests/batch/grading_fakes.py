"""A fake build for the grading tests: a richer report.json than fakes.py gives.

The synthetic project's ``[fake]`` table sets ``rung``, ``claim``, ``failing`` (check ids
that fail, comma-separated) and ``warnings``; ``inputs`` lists every file of the project
with its sha256, as the real build does for the files it reads.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

from batch.fakes import PartialReport, fake_build_report, fake_report

import reportgen.api
from reportgen.batch import build_one

#: the rubric the grading tests score against
RUBRIC = {
    "rungs": {
        "correct": {"shown": 2, "partly": 1},
        "larger_than_noise": {"shown": 3, "partly": 1, "not_shown": 0},
    },
    "checks": {"logged-equals-recomputed": 1.5, "not-worse-on-*": 1},
    "claim": {"honest": 2},
    "deductions": {"per_warning": 0.5, "max_warnings": 1, "late": 3},
}
CHECKS = ("logged-equals-recomputed", "fair-test-opened-once-candidate", "not-worse-on-shifted")


def grading_report(project: Path, spec: dict) -> dict:
    report = fake_report(spec)
    failing = {c for c in str(spec.get("failing", "")).split(",") if c}
    report["checks"] = [
        {"id": c, "rung": 1, "passed": c not in failing, "text": f"{c} text"} for c in CHECKS
    ]
    for row in report["ladder"]:
        row["missing"] = None if row["status"] == "shown" else f"rung {row['rung']} is missing"
        row["artefacts"] = [f"artefacts/rung{row['rung']}.json"]
    report["claim"].update(
        original=spec.get("claim", "A beats B."),
        rewritten="A and B are not shown to differ.",
        reconsider_items=["ten more seeds are run"],
    )
    report["project"]["claim"] = spec.get("claim", "A beats B.")
    report["inputs"] = [
        {
            "path": p.relative_to(project).as_posix(),
            "sha256": hashlib.sha256(p.read_bytes()).hexdigest(),
        }
        for p in sorted(project.rglob("*"))
        if p.is_file() and p.name != "evreport.toml"
    ]
    report["warnings"] = [{"message": "w"}] * int(spec.get("warnings", 0))
    return report


def grading_build_report(project_dir, out=None, formats=("html", "json"), command=None, **options):
    project_dir = Path(project_dir)
    spec = tomllib.loads((project_dir / "evreport.toml").read_text(encoding="utf-8")).get(
        "fake", {}
    )
    result = fake_build_report(project_dir, out, formats, command, **options)
    report = grading_report(project_dir, spec)
    if "json" in formats:
        (Path(out) / "report.json").write_text(json.dumps(report), encoding="utf-8")
    return reportgen.api.BuildResult(
        PartialReport(report), Path(out), result.written, report["warnings"], []
    )


def grading_build(task: dict) -> dict:
    """The real build_one around the fake build above."""
    reportgen.api.build_report = grading_build_report
    return build_one(task)
