"""Logged against recomputed: each run-log value beside the value recomputed from its predictions."""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.checks.diagnose import diagnose, written
from reportgen.checks.select import ModelRuns, select_runs
from reportgen.errors import Problem
from reportgen.model.data import Comparison
from reportgen.project import Project
from reportgen.words import count, count_noun, full, power_of_ten, sig

#: how far a logged value may be from the recomputed one, relative to the larger
REL_TOL = 1e-6


def agrees(logged: float, recomputed: float) -> bool:
    """The logged value is the recomputed one, within REL_TOL of the larger."""
    scale = max(abs(logged), abs(recomputed), 1e-12)
    return bool(abs(logged - recomputed) <= REL_TOL * scale)


def comparisons(project: Project, models: Sequence[ModelRuns]) -> list[Comparison]:
    """report.json ``comparisons``: each analysed run-log value beside the value recomputed
    from its predictions; one that disagrees carries its ``diagnosis`` (checks.diagnose:
    rounding, as far as it reaches)."""
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
                agree = agrees(row.value, value)
                threshold = 0.5 if s.threshold is None else s.threshold
                out.append(
                    Comparison(
                        model=mr.name,
                        seed=s.seed,
                        split=row.split,
                        logged=row.value,
                        # as written in the run log, its own digits (what sentences print)
                        logged_text=written(row.value, row.value_text),
                        recomputed=value,
                        agree=agree,
                        cite=row.cite(rn),
                        predictions=pred.path,
                        repeat=None,
                        fold=None,
                        diagnosis=None
                        if agree
                        else diagnose(project, row.value, value, pred, threshold, row.value_text),
                    )
                )
    return out


def recompute_warnings(
    project: Project, comps: Sequence[Comparison] | None = None
) -> list[Problem]:
    """One warning when logged run-log values disagree with the values recomputed from predictions
    (``comps``: ``comparisons``, computed here when None): how many, the largest difference
    and its row, and the likely cause, as far as rounding can explain it."""
    if comps is None:
        models = [select_runs(project, "candidate"), select_runs(project, "baseline")]
        comps = comparisons(project, models)
    bad = [c for c in comps if not c.agree]
    if not bad:
        return []
    worst = max(bad, key=lambda c: abs(c.logged - c.recomputed))
    kind = worst.diagnosis.kind if worst.diagnosis is not None else None
    cause = worst.diagnosis.text if worst.diagnosis is not None else "unknown"
    same = sum(1 for c in bad if c.diagnosis is not None and c.diagnosis.kind == kind)
    if len(bad) > 1:
        cause += (
            f" (the same for all {count(len(bad))})"
            if same == len(bad)
            else f" (the same for {count(same)} of the {count(len(bad))})"
        )
    line = int(worst.cite.rsplit(":", 1)[1]) if ":" in worst.cite else None
    return [
        Problem(
            f"{count(len(bad))} of {count_noun(len(comps), 'logged ' + project.config.metric + ' value')} "
            f"{'differs' if len(bad) == 1 else 'differ'} from the values "
            f"recomputed from their predictions (beyond {power_of_ten(REL_TOL, 1)} relative); the "
            f"largest difference is {sig(abs(worst.logged - worst.recomputed), 3)} here "
            f"(logged {logged_words(worst)}, recomputed {full(worst.recomputed)}); "
            f"likely cause: {cause}. Rung 1 cannot be shown until they agree",
            project.runs_name,
            line,
            slug="logged-differs",
            severity="warning",
        )
    ]


def logged_words(c: Comparison) -> str:
    """The logged value as a sentence prints it: as written in the run log."""
    return c.logged_text if c.logged_text is not None else written(c.logged)
