"""From a loaded project to the report dict (report.json): every check, the ladder, the decision.

__init__.py        compute_report: the one entry point, by project kind
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

from reportgen.checks import before_after, cv, model_vs_baseline
from reportgen.checks.report import assemble, header, validate
from reportgen.errors import Problem
from reportgen.project import Project

#: each project kind's checks (and cross-validation's): the report sections and the warnings
MODES = {
    "model-vs-baseline": model_vs_baseline.compute,
    "before-after": before_after.compute,
    "cv": cv.compute,
}


def mode(project: Project) -> str:
    """The key of MODES: the project's kind, or "cv" for a cross-validated comparison."""
    return "cv" if project.config.design == "cv" else project.config.kind


def compute_report(project: Project, command: str | None = None) -> tuple[dict, list[Problem]]:
    """Every check of methods.md: the report dict (report-json.md) and every warning.

    The warnings are the project's load warnings followed by those the checks found, in the
    order report.json lists them. The report is parsed once by its model (reportgen.model), so
    a build whose report lacks the documented shape stops with an internal error. The project is never modified, so a second call returns an
    equal report and equal warnings.
    """
    sections, found = MODES[mode(project)](project)
    warnings = [*project.warnings, *found]
    report = assemble(header(project, command), sections, warnings)
    validate(report)
    return report, warnings
