"""The report dict's frame, the same in every mode: the header, the claim block and the assembly
of the sections in report.json's order (report-json.md)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from typing import Any, Literal

from reportgen import __version__
from reportgen.checks.jsonsafe import ReportValueError, jsonable
from reportgen.errors import Problem
from reportgen.model import Report
from reportgen.model.base import Model
from reportgen.model.data import ReportWarning
from reportgen.model.enums import Kind, Repeats, Severity, Task, TaskSource
from reportgen.model.header import Build, Input, Tool
from reportgen.model.header import Project as ProjectInfo
from reportgen.model.ladder import Claim
from reportgen.project import Project
from reportgen.project.files import combined_digest
from reportgen.words.i18n import current

SCHEMA: Literal["evreport/1"] = "evreport/1"
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
    "results",
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
    "sensitivity",
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


def _versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for name in LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


@dataclass(frozen=True, slots=True)
class Header:
    """report.json's schema, tool, build, project and inputs: what was built from what."""

    schema: Literal["evreport/1"]
    tool: Tool
    build: Build
    project: ProjectInfo
    inputs: tuple[Input, ...]


def header(project: Project, command: str | None) -> Header:
    """schema, tool, build, project and inputs: what was built from what, and how."""
    cfg = project.config
    return Header(
        schema=SCHEMA,
        tool=Tool(name="evreport", version=__version__),
        build=Build(
            date=build_date(),
            command=command or f"evreport build {project.root}",
            libraries=_versions(),
            random_seed=cfg.random_seed,
            resamples=cfg.resamples,
            confidence=cfg.confidence,
            inputs_sha256=combined_digest(project.inputs),
        ),
        project=ProjectInfo(
            title=cfg.title,
            author=cfg.author,
            kind=Kind(cfg.kind),
            candidate=cfg.candidate,
            baseline=cfg.baseline,
            metric=cfg.metric,
            higher_is_better=cfg.higher_is_better,
            claim=cfg.claim_text,
            block_column=cfg.block,
            slice_column=cfg.slice,
            task=None if project.task is None else Task(project.task),
            task_source=None if project.task_source is None else TaskSource(project.task_source),
            unit=cfg.claim_unit,
            repeats=Repeats(cfg.repeats),
            # [models]: the candidate's and baseline's names as the page prints them
            display_names={
                m: cfg.display_names[m]
                for m in (cfg.candidate, cfg.baseline)
                if m in cfg.display_names
            },
        ),
        inputs=tuple(Input(path=p, sha256=h, bytes=n) for p, (h, n) in project.inputs.items()),
    )


def claim(project: Project, rewritten: str, supported_rung: int, items: list[str]) -> Claim:
    """report.json ``claim``: as written, as supported, and what would reopen the decision."""
    return Claim(
        original=project.config.claim_text,
        rewritten=rewritten,
        supported_rung=supported_rung,
        reconsider_when="; ".join(items),
        reconsider_items=tuple(items),
    )


def _is_model(value: Any) -> bool:
    """A section value the model holds as is: a Model, a list of them or of strings, a map of
    names to Models, or None."""
    if value is None or isinstance(value, Model):
        return True
    if isinstance(value, list | tuple):
        return all(isinstance(v, Model | str) for v in value)
    if isinstance(value, dict):  # a map keyed by model name (sensitivity)
        return all(isinstance(k, str) and isinstance(v, Model) for k, v in value.items())
    return False


def assemble(head: Header, sections: dict[str, Any], warnings: list[Problem]) -> Report:
    """The whole report: the header, every section in order, the warnings; its values checked
    for JSON (jsonable, strict: no numpy scalar its to_json cannot write). A section that is not
    a model object (reportgen.model) is an internal error."""
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        raise ReportValueError(
            f"internal error: report.json has no place for the sections {unknown}"
        )
    values = {k: sections.get(k) for k in SECTIONS}
    untyped = [k for k, v in values.items() if not _is_model(v)]
    if untyped:
        raise ReportValueError(
            f"internal error: the sections {untyped} are not model objects (reportgen.model)"
        )
    found = tuple(
        ReportWarning(
            path=w.path,
            line=w.line,
            column=w.column,
            severity=Severity(w.severity),
            slug=w.slug,
            message=w.message,
        )
        for w in warnings
    )
    tupled: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
    report = Report(
        schema=head.schema,
        tool=head.tool,
        build=head.build,
        project=head.project,
        inputs=head.inputs,
        warnings=found,
        language=current(),  # type: ignore[arg-type]  # one of i18n.LANGUAGES
        **tupled,
    )
    jsonable(report, strict=True)
    return report
