"""A fake build for the grading tests: a richer report.json than fakes.py gives.

The synthetic project's ``[fake]`` table sets ``rung``, ``claim``, ``failing`` (check ids
that fail, comma-separated) and ``warnings``; ``inputs`` lists every file of the project
with its sha256, as the real build does for the files it reads.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import replace
from pathlib import Path

from batch.fakes import fake_build_report, fake_report

import reportgen.api
from reportgen.batch import build_one
from reportgen.model import Report
from reportgen.model.data import ReportWarning
from reportgen.model.enums import Severity
from reportgen.model.header import Input
from reportgen.model.ladder import Check

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


def grading_report(project: Path, spec: dict) -> Report:
    report = fake_report(spec)
    failing = {c for c in str(spec.get("failing", "")).split(",") if c}
    checks = tuple(
        Check(
            id=c,
            rung=1,
            passed=c not in failing,
            value=None,
            bar=None,
            artefacts=(),
            text=f"{c} text",
        )
        for c in CHECKS
    )
    ladder = tuple(
        replace(
            r,
            missing=None if r.shown else f"rung {r.rung} is missing",
            artefacts=(f"artefacts/rung{r.rung}.json",),
        )
        for r in report.ladder
    )
    claim = replace(
        report.claim,
        original=spec.get("claim", "A beats B."),
        rewritten="A and B are not shown to differ.",
        reconsider_items=("ten more seeds are run",),
    )
    inputs = tuple(
        Input(
            path=p.relative_to(project).as_posix(),
            sha256=hashlib.sha256(p.read_bytes()).hexdigest(),
            bytes=p.stat().st_size,
        )
        for p in sorted(project.rglob("*"))
        if p.is_file() and p.name != "evreport.toml"
    )
    warning = ReportWarning(
        path=None, line=None, column=None, severity=Severity.WARNING, slug="w", message="w"
    )
    return replace(
        report,
        checks=checks,
        ladder=ladder,
        claim=claim,
        project=replace(report.project, claim=spec.get("claim", "A beats B.")),
        inputs=inputs,
        warnings=(warning,) * int(spec.get("warnings", 0)),
    )


def grading_build_report(project_dir, out=None, formats=("html", "json"), command=None, **options):
    project_dir = Path(project_dir)
    spec = tomllib.loads((project_dir / "evreport.toml").read_text(encoding="utf-8")).get(
        "fake", {}
    )
    result = fake_build_report(project_dir, out, formats, command, **options)
    report = grading_report(project_dir, spec)
    if "json" in formats:
        (Path(out) / "report.json").write_text(json.dumps(report.to_json()), encoding="utf-8")
    return reportgen.api.BuildResult(report, Path(out), result.written, list(report.warnings), [])


def grading_build(task: dict) -> dict:
    """The real build_one around the fake build above."""
    reportgen.api.build_report = grading_build_report
    return build_one(task)
