"""Stand-ins for the real build, for the batch tests only (imported by worker processes too).

A synthetic project is an evreport.toml whose ``[fake]`` table says what the fake build
does: ``behaviour = "ok" | "broken" | "sleep" | "crash" | "raise" | "alloc"``; ``pad_kb`` pads
report.html to a chosen size, ``pidfile`` names a file the building process writes its pid to. The product code never
reads that table; only ``fake_build`` below does, and only tests pass it to run_batch.
"""

from __future__ import annotations

import json
import os
import time
import tomllib
from pathlib import Path

import reportgen.api
from reportgen.batch import build_one
from reportgen.errors import InputError, Problem

RUNGS = ("correct", "fair", "larger than noise", "relevant", "bounded")


class PartialReport:
    """A fake build's partial report.json in place of a Report: what the batch reads of it."""

    def __init__(self, data: dict) -> None:
        self.data = data

    def to_json(self) -> dict:
        return self.data


def fake_report(spec: dict) -> dict:
    """A report.json-shaped dict whose numbers come from the toml's [fake] table."""
    rung = int(spec.get("rung", 2))
    statuses = [
        "shown" if i <= rung else ("partly" if i == rung + 1 else "not shown") for i in range(1, 6)
    ]
    before_after = spec.get("kind") == "before-after"
    return {
        "schema": "evreport/1",
        "project": {"title": spec.get("title", "t")},
        "ladder": [
            {"rung": i, "name": n, "status": s}
            for i, (n, s) in enumerate(zip(RUNGS, statuses, strict=True), 1)
        ],
        "claim": {"supported_rung": rung},
        "decision": {"verdict": spec.get("verdict", "adopt"), "recommend": "mlp"},
        "noise": {
            "seed": {"gap_in_sd": spec.get("gap_in_sd", 2.5)},
            "block": None
            if before_after
            else {"gap": spec.get("gap", 0.004), "low": 0.001, "high": 0.007},
        },
        "before_after": {"difference": 0.065, "low": 0.01, "high": 0.12} if before_after else None,
    }


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
        files["report.json"] = json.dumps(report, indent=2).encode()
    if "html" in formats:
        pad = b" " * (int(spec.get("pad_kb", 0)) * 1024)  # a report of a chosen size
        files["report.html"] = b"<!doctype html><title>r</title><p>report</p>" + pad
    written = atomic_write_dir(Path(out), files, versioned=options.get("versioned", True))
    return reportgen.api.BuildResult(PartialReport(report), Path(out), written, [], [])


def fake_build(task: dict) -> dict:
    """The real build_one, with the real build_report swapped for the fake."""
    reportgen.api.build_report = fake_build_report
    return build_one(task)


def after_build_hook(project: Path, report: dict) -> dict:
    """An after-build hook for the hooks test: what the worker saw, added to the row."""
    return {"seen_by_hook": f"{project.name}:{report['decision']['verdict']}"}
