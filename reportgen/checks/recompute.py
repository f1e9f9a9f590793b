"""Logged against recomputed: each run-log value beside the value recomputed from its predictions."""

from __future__ import annotations

from reportgen.checks.diagnose import diagnose, written
from reportgen.checks.select import ModelRuns, select_runs
from reportgen.errors import Problem
from reportgen.project import Project
from reportgen.words import count, count_noun, full, power_of_ten, sig

#: how far a logged value may be from the recomputed one, relative to the larger
REL_TOL = 1e-6


def logged_vs_recomputed(project: Project, models: list[ModelRuns]) -> list[dict]:
    """Each analysed run-log value beside the value recomputed from its predictions; one that
    disagrees carries its ``diagnosis`` (checks.diagnose: rounding, as far as it reaches)."""
    out = []
    rn = project.runs_name
    for mr in models:
        for s in mr.seeds:
            for row, value, pred in (
                (s.val_row, s.val_value, s.val_pred),
                (s.test_row, s.test_value, s.test_pred),
            ):
                if row is None or pred is None or row.value is None or value is None:
                    continue
                scale = max(abs(row.value), abs(value), 1e-12)
                agree = abs(row.value - value) <= REL_TOL * scale
                comp = {
                    "model": mr.name,
                    "seed": s.seed,
                    "split": row.split,
                    "logged": row.value,
                    # as written in the run log, its own digits (what sentences print)
                    "logged_text": written(row.value, row.value_text),
                    "recomputed": value,
                    "agree": agree,
                    "cite": row.cite(rn),
                    "predictions": pred.path,
                }
                if not agree:
                    threshold = 0.5 if s.threshold is None else s.threshold
                    comp["diagnosis"] = diagnose(
                        project, row.value, value, pred, threshold, row.value_text
                    ).as_dict()
                out.append(comp)
    return out


def recompute_warnings(project: Project, comps: list[dict] | None = None) -> list[Problem]:
    """One warning when logged run-log values disagree with the values recomputed from predictions
    (``comps``: logged_vs_recomputed, computed here when None): how many, the largest difference
    and its row, and the likely cause, as far as rounding can explain it."""
    if comps is None:
        models = [select_runs(project, "candidate"), select_runs(project, "baseline")]
        comps = logged_vs_recomputed(project, models)
    bad = [c for c in comps if not c["agree"]]
    if not bad:
        return []
    worst = max(bad, key=lambda c: abs(c["logged"] - c["recomputed"]))
    cause = worst["diagnosis"]["text"]
    same = sum(1 for c in bad if c["diagnosis"]["kind"] == worst["diagnosis"]["kind"])
    if len(bad) > 1:
        cause += (
            f" (the same for all {count(len(bad))})"
            if same == len(bad)
            else f" (the same for {count(same)} of the {count(len(bad))})"
        )
    line = int(worst["cite"].rsplit(":", 1)[1]) if ":" in worst["cite"] else None
    return [
        Problem(
            f"{count(len(bad))} of {count_noun(len(comps), 'logged ' + project.config.metric + ' value')} "
            f"{'differs' if len(bad) == 1 else 'differ'} from the values "
            f"recomputed from their predictions (beyond {power_of_ten(REL_TOL, 1)} relative); the "
            f"largest difference is {sig(abs(worst['logged'] - worst['recomputed']), 3)} here "
            f"(logged {worst['logged_text']}, recomputed {full(worst['recomputed'])}); "
            f"likely cause: {cause}. Rung 1 cannot be shown until they agree",
            project.runs_name,
            line,
            slug="logged-differs",
            severity="warning",
        )
    ]
