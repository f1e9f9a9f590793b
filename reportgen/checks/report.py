"""The report dict's frame, the same in every mode: the header, the claim block and the assembly
of the sections in report.json's order (report-json.md)."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from importlib import metadata

from reportgen import __version__
from reportgen.checks.jsonsafe import ReportValueError, jsonable
from reportgen.errors import Problem
from reportgen.model import Report, ReportShapeError
from reportgen.project import Project

SCHEMA = "evreport/1"
LIBRARIES = (
    "numpy",
    "scipy",
    "pandas",
    "scikit-learn",
    "pyarrow",
    "altair",
    "vl-convert-python",
    "weasyprint",
    "jinja2",
)
#: the sections a mode computes, in report.json's order after the header; one it leaves out is null
SECTIONS = (
    "ladder",
    "claim",
    "decision",
    "checks",
    "fairness",
    "noise",
    "relevance",
    "threshold",
    "ranking",
    "calibration",
    "multiclass",
    "regression",
    "descriptions",
    "slices",
    "data",
    "not_tested",
    "comparisons",
    "before_after",
    "general",
)


def build_date() -> str:
    """UTC day of the build, or of SOURCE_DATE_EPOCH when set (reproducible builds)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = (
        datetime.fromtimestamp(int(epoch), UTC) if epoch and epoch.isdigit() else datetime.now(UTC)
    )
    return when.date().isoformat()


def _versions() -> dict:
    out = {}
    for name in LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def header(project: Project, command: str | None) -> dict:
    """schema, tool, build, project and inputs: what was built from what, and how."""
    cfg = project.config
    return {
        "schema": SCHEMA,
        "tool": {"name": "evreport", "version": __version__},
        "build": {
            "date": build_date(),
            "command": command or f"evreport build {project.root}",
            "libraries": _versions(),
            "random_seed": cfg.random_seed,
            "resamples": cfg.resamples,
            "confidence": cfg.confidence,
        },
        "project": {
            "title": cfg.title,
            "author": cfg.author,
            "kind": cfg.kind,
            "candidate": cfg.candidate,
            "baseline": cfg.baseline,
            "metric": cfg.metric,
            "higher_is_better": cfg.higher_is_better,
            "claim": cfg.claim_text,
            "block_column": cfg.block,
            "slice_column": cfg.slice,
            "task": project.task,
            "task_source": project.task_source,
            "unit": cfg.claim_unit,
            "repeats": cfg.repeats,
            # [models]: the candidate's and baseline's names as the page prints them
            "display_names": {
                m: cfg.display_names[m]
                for m in (cfg.candidate, cfg.baseline)
                if m in cfg.display_names
            },
        },
        "inputs": [{"path": p, "sha256": h, "bytes": n} for p, (h, n) in project.inputs.items()],
    }


def claim(project: Project, rewritten: str, supported_rung: int, items: list[str]) -> dict:
    """report.json ``claim``: as written, as supported, and what would reopen the decision."""
    return {
        "original": project.config.claim_text,
        "rewritten": rewritten,
        "supported_rung": supported_rung,
        "reconsider_when": "; ".join(items),
        "reconsider_items": items,
    }


def assemble(head: dict, sections: dict, warnings: list[Problem]) -> dict:
    """The whole report as plain JSON types: the header, every section in order, the warnings."""
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        raise ReportValueError(
            f"internal error: report.json has no place for the sections {unknown}"
        )
    report = {**head, **{k: sections.get(k) for k in SECTIONS}}
    if isinstance(report["noise"], dict):  # noise.cv: null outside a cv design
        report["noise"].setdefault("cv", None)
    report["warnings"] = [w.as_dict() for w in warnings]
    return jsonable(report)


def validate(report: dict) -> Report:
    """The report parsed by its model (reportgen.model): a build checks its own output's shape.

    A mismatch is an internal error (ReportShapeError naming the JSON path), never bad input.
    """
    try:
        return Report.from_json(report)
    except ReportShapeError as e:
        raise ReportShapeError(
            f"internal error: {e}; please report this with the project (report.json would not "
            "have the shape docs/report-json.md states)"
        ) from None
