"""From a loaded project to the report dict (report.json): every check, the ladder, the decision.

__init__.py        compute (the typed Report) and compute_report (its plain JSON): the entry points, by project kind
report.py          header, claim block and assembly, shared by both modes
types.py           Interval, Evidence, Check, Rung: the report model's shapes (reportgen.model)
ladder.py          shared rung machinery: a rung, the logged-value check, rung 2, supported rung
recompute.py       logged against recomputed values and their warning
relevance.py       the useful effect, equivalence, costs per period
model_vs_baseline/ a candidate against a baseline: its rungs and decision
cv/                the same comparison by cross-validation ([evaluation] design = "cv")
before_after/      a tuned model against its earlier version: its sections, rungs and decision
select, evaluation, fairness, noise, classify, data: the sections the modes are built from
"""

from __future__ import annotations

from typing import Any

from reportgen.checks import before_after, cv, model_vs_baseline
from reportgen.checks.report import assemble, header
from reportgen.errors import Problem
from reportgen.model import Report
from reportgen.model.enums import Design, Kind
from reportgen.project import Project

#: each project kind's checks (and cross-validation's): the report sections and the warnings
MODES = {
    Kind.MODEL_VS_BASELINE: model_vs_baseline.compute,
    Kind.BEFORE_AFTER: before_after.compute,
    Design.CV: cv.compute,
}


def mode(project: Project) -> Kind | Design:
    """The key of MODES: the project's kind, or "cv" for a cross-validated comparison."""
    return Design.CV if project.config.design == Design.CV else Kind(project.config.kind)


def _assembled(project: Project, command: str | None) -> tuple[Report, list[Problem]]:
    sections, found = MODES[mode(project)](project)
    warnings = [*project.warnings, *found]
    return assemble(header(project, command), sections, warnings), warnings


def compute(project: Project, command: str | None = None) -> tuple[Report, list[Problem]]:
    """Every check of methods.md: the typed report (reportgen.model) and every warning.

    The warnings are the project's load warnings followed by those the checks found, in the
    order report.json lists them. A report that lacks the documented shape stops the build
    with an internal error (ReportShapeError naming the path). The project is never modified,
    so a second call returns an equal report and equal warnings.
    """
    report, warnings = _assembled(project, command)
    return report, warnings


def compute_report(
    project: Project, command: str | None = None
) -> tuple[dict[str, Any], list[Problem]]:
    """``compute`` as plain JSON: report.json's object (checked against its model) and every
    warning, for callers that read or write the JSON itself."""
    report, warnings = _assembled(project, command)
    return report.to_json(), warnings
