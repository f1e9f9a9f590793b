"""Before and after (kind = "before-after"): a model tuned on a frozen question set against its
earlier version; fixed and broken questions, and forgetting on a general-abilities set."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from reportgen.checks.before_after import decision as dec
from reportgen.checks.before_after.evaluated import same_evaluation
from reportgen.checks.before_after.general import general_section
from reportgen.checks.before_after.rungs import (
    BA_FACTS,
    general_rung,
    harness_rung,
    noise_rung,
    relevant_rung,
)
from reportgen.checks.before_after.sections import question_section
from reportgen.checks.data import data_section
from reportgen.checks.fairness import fairness_facts
from reportgen.checks.ladder import climb, fair_rung, supported
from reportgen.checks.recompute import comparisons as recomputed
from reportgen.checks.recompute import recompute_warnings
from reportgen.checks.relevance import relevance
from reportgen.checks.report import claim
from reportgen.checks.results import before_after_results
from reportgen.checks.select import select_runs
from reportgen.errors import Problem
from reportgen.project import Project


def compute(project: Project) -> tuple[dict[str, Any], list[Problem]]:
    """Every section of report.json for a before-after project, and the warnings found."""
    before_runs, after_runs = select_runs(project, "baseline"), select_runs(project, "candidate")
    comparisons = recomputed(project, [after_runs, before_runs])
    facts = [f for f in fairness_facts(project, after_runs, before_runs) if f.id in BA_FACTS]
    facts += same_evaluation(project, after_runs, before_runs)
    general = general_section(project)
    questions = question_section(project, before_runs, after_runs)
    section = questions.section if questions else None
    slices = questions.slices if questions else None
    label_warning = questions.label_warning if questions else None
    iv = questions.interval if questions else None
    rel = relevance(project, iv, None)
    ladder, checks = climb(
        harness_rung(project, comparisons),
        fair_rung(project, facts),
        noise_rung(project, section, iv),
        relevant_rung(project, section, iv, slices, rel),
        general_rung(project, general),
    )
    sup = supported(ladder)
    rewritten = dec.rewrite_claim(project, ladder, sup, section, general, slices, facts, rel)
    items = dec.reconsider(project, ladder, iv, section, general, slices, facts)
    data = data_section(project, after_runs, before_runs, None)
    if section:
        data = replace(data, blocks=section.blocks, test_rows=section.questions)
    sections = {
        "ladder": ladder,
        "claim": claim(project, rewritten, sup, items),
        "decision": dec.decide(project, ladder, iv, section, general, slices, rel),
        "results": before_after_results(project, before_runs, after_runs),
        "checks": checks,
        "fairness": facts,
        "noise": dec.noise_section(project, iv, section),
        "relevance": rel,
        "slices": slices,
        "data": data,
        "not_tested": dec.not_tested(),
        "comparisons": comparisons,
        "before_after": section,
        "general": general,
    }
    return sections, recompute_warnings(project, comparisons) + (
        [label_warning] if label_warning else []
    )
