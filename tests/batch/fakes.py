"""Stand-ins for the real build, for the batch tests only (imported by worker processes too).

A synthetic project is an evreport.toml whose ``[fake]`` table says what the fake build
does: ``behaviour = "ok" | "broken" | "sleep" | "crash" | "raise" | "alloc"``; ``pad_kb`` pads
report.html to a chosen size, ``pidfile`` names a file the building process writes its pid
to. The fake build's report is a real Report (a fixture's, with what the table sets
replaced). The product code never reads that table; only ``fake_build`` below does, and
only tests pass it to run_batch.
"""

from __future__ import annotations

import functools
import json
import os
import time
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import reportgen.api
from reportgen.batch import build_one
from reportgen.errors import InputError, Problem
from reportgen.model import Report
from reportgen.model.enums import RungStatus, Verdict

RUNGS = ("correct", "fair", "larger than noise", "relevant", "bounded")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@functools.cache
def fixture_report(name: str) -> Report:
    """A report of tests/fixtures, parsed once per process."""
    return Report.from_json(json.loads((FIXTURES / name).read_text(encoding="utf-8")))


def with_ladder(report: Report, statuses: list[str], **rows: Any) -> Report:
    """``report`` with the given status per rung (and ``rows`` fields set on every row)."""
    ladder = tuple(
        replace(r, status=RungStatus(s), **rows)
        for r, s in zip(report.ladder, statuses, strict=True)
    )
    return replace(report, ladder=ladder)


def fake_report(spec: dict) -> Report:
    """A real Report (a fixture's) with what the toml's [fake] table sets replaced."""
    rung = int(spec.get("rung", 2))
    statuses = [
        "shown" if i <= rung else ("partly" if i == rung + 1 else "not shown") for i in range(1, 6)
    ]
    churn = fixture_report("report-weekly-churn.json")
    assert churn.noise.seed is not None and churn.noise.block is not None
    seed = replace(churn.noise.seed, gap_in_sd=spec.get("gap_in_sd", 2.5))
    if spec.get("kind") == "before-after":
        base = fixture_report("report-tuned-replay.json")
        assert base.before_after is not None
        ba = replace(base.before_after, difference=0.065, low=0.01, high=0.12)
        base = replace(base, before_after=ba, noise=replace(base.noise, seed=seed, block=None))
    else:
        block = replace(churn.noise.block, gap=spec.get("gap", 0.004), low=0.001, high=0.007)
        base = replace(churn, noise=replace(churn.noise, seed=seed, block=block))
    report = with_ladder(base, statuses)
    verdict = Verdict(spec.get("verdict", "adopt"))
    return replace(
        report,
        project=replace(report.project, title=spec.get("title", "t")),
        claim=replace(report.claim, supported_rung=rung),
        decision=replace(report.decision, verdict=verdict, recommend="mlp"),
    )


def fake_build_report(project_dir, out=None, formats=("html", "json"), command=None, **options):
    """Behaves like reportgen.api.build_report on a synthetic project."""
    from reportgen.outputs import atomic_write_dir

    project_dir = Path(project_dir)
    cfg = tomllib.loads((project_dir / "evreport.toml").read_text(encoding="utf-8"))
    spec = cfg.get("fake", {})
    behaviour = spec.get("behaviour", "ok")
    if behaviour == "broken":
        raise InputError(
            [
                Problem(
                    spec.get("message", "bad value"),
                    path="runs.csv",
                    line=14,
                    column=3,
                    slug="bad-value",
                )
            ]
        )
    if "pidfile" in spec:  # tells a test which process is building this project
        Path(spec["pidfile"]).write_text(str(os.getpid()))
    if behaviour == "sleep":
        time.sleep(float(spec.get("seconds", 60)))
    if behaviour == "crash":
        os._exit(7)
    if behaviour == "raise":
        raise ZeroDivisionError("boom")
    if behaviour == "alloc":  # more memory than the worker's limit allows
        blob = bytearray(int(spec.get("megabytes", 2048)) * 1024 * 1024)
        blob[-1] = 1
    report = fake_report(spec)
    files = {}
    if "json" in formats:
        files["report.json"] = json.dumps(report.to_json(), indent=2).encode()
    if "html" in formats:
        pad = b" " * (int(spec.get("pad_kb", 0)) * 1024)  # a report of a chosen size
        files["report.html"] = b"<!doctype html><title>r</title><p>report</p>" + pad
    written = atomic_write_dir(Path(out), files, versioned=options.get("versioned", True))
    return reportgen.api.BuildResult(report, Path(out), written, [], [])


def fake_build(task: dict) -> dict:
    """The real build_one, with the real build_report swapped for the fake."""
    reportgen.api.build_report = fake_build_report
    return build_one(task)


def after_build_hook(project: Path, report: Report) -> dict:
    """An after-build hook for the hooks test: what the worker saw, added to the row."""
    return {"seen_by_hook": f"{project.name}:{report.decision.verdict}"}
