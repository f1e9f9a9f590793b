"""Logged against recomputed: each run-log value beside the value recomputed from its predictions."""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.checks.diagnose import diagnose, written
from reportgen.checks.select import ModelRuns, select_runs
from reportgen.errors import Problem
from reportgen.model.data import Comparison
from reportgen.project import Project
from reportgen.words import count, count_noun, full, power_of_ten, sig
from reportgen.words.i18n import _, current, n_

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
    cause = worst.diagnosis.text if worst.diagnosis is not None else _("unknown")
    same = sum(1 for c in bad if c.diagnosis is not None and c.diagnosis.kind == kind)
    if len(bad) > 1:
        cause += (
            _(" (the same for all {n})", n=count(len(bad)))
            if same == len(bad)
            else _(" (the same for {same} of the {n})", same=count(same), n=count(len(bad)))
        )
    line = int(worst.cite.rsplit(":", 1)[1]) if ":" in worst.cite else None
    return [
        Problem(
            n_(
                "{n} of {values} differs from the values recomputed from their predictions "
                "(beyond {tolerance} relative); the largest difference is {largest} here (logged "
                "{logged}, recomputed {recomputed}); likely cause: {cause}. Rung 1 cannot be "
                "shown until they agree",
                "{n} of {values} differ from the values recomputed from their predictions "
                "(beyond {tolerance} relative); the largest difference is {largest} here (logged "
                "{logged}, recomputed {recomputed}); likely cause: {cause}. Rung 1 cannot be "
                "shown until they agree",
                len(bad),
                values=_logged_values(len(comps), project.config.metric),
                tolerance=power_of_ten(REL_TOL, 1),
                largest=sig(abs(worst.logged - worst.recomputed), 3),
                logged=logged_words(worst),
                recomputed=full(worst.recomputed),
                cause=cause,
            ),
            project.runs_name,
            line,
            slug="logged-differs",
            severity="warning",
        )
    ]


def _logged_values(n: int, metric: str) -> str:
    """How many logged values of ``metric``: "12 logged log_loss values" (in another language
    the count of logged values, then the metric's name as the user wrote it)."""
    if current() == "en":
        return count_noun(n, "logged " + metric + " value")
    return _("{values} of {metric}", values=count_noun(n, "logged value"), metric=metric)


def logged_words(c: Comparison) -> str:
    """The logged value as a sentence prints it: as written in the run log."""
    return c.logged_text if c.logged_text is not None else written(c.logged)
