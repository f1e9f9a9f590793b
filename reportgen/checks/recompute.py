"""Logged against recomputed: each run-log value beside the value recomputed from its predictions."""

from __future__ import annotations

import numpy as np

from reportgen.checks.select import ModelRuns, select_runs
from reportgen.errors import Problem
from reportgen.project import Project
from reportgen.words import count, count_noun, full, power_of_ten, sig

#: how far a logged value may be from the recomputed one, relative to the larger
REL_TOL = 1e-6


def logged_vs_recomputed(project: Project, models: list[ModelRuns]) -> list[dict]:
    """Each analysed run-log value beside the value recomputed from its predictions."""
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
                out.append(
                    {
                        "model": mr.name,
                        "seed": s.seed,
                        "split": row.split,
                        "logged": row.value,
                        "recomputed": value,
                        "agree": agree,
                        "cite": row.cite(rn),
                        "predictions": pred.path,
                    }
                )
    return out


def _decimals(p) -> int | None:
    """How many decimals the scores were written with, when 6 or fewer (a rounded file)."""
    p = np.asarray(p, dtype=float)
    if p.size == 0:
        return None
    for k in range(0, 7):
        scaled = p * 10.0**k
        if np.all(np.abs(scaled - np.round(scaled)) <= 1e-6):
            return k
    return None


def recompute_warnings(project: Project, comps: list[dict] | None = None) -> list[Problem]:
    """One warning when logged run-log values disagree with the values recomputed from predictions
    (``comps``: logged_vs_recomputed, computed here when None): how many, the largest difference
    and its row, and the likely cause."""
    if comps is None:
        models = [select_runs(project, "candidate"), select_runs(project, "baseline")]
        comps = logged_vs_recomputed(project, models)
    bad = [c for c in comps if not c["agree"]]
    if not bad:
        return []
    worst = max(bad, key=lambda c: abs(c["logged"] - c["recomputed"]))
    pred = project.predictions.get(worst["predictions"])
    k_logged = _decimals([c["logged"] for c in bad])
    k_p = _decimals(pred.p) if pred is not None and pred.kind == "binary" else None
    rounded_logged = k_logged is not None and all(
        abs(round(c["recomputed"], k_logged) - c["logged"]) <= 0.51 * 10.0**-k_logged for c in bad
    )
    if rounded_logged:
        cause = (
            f"the logged values were rounded to {k_logged} decimals: log the full-precision value "
            "(e.g. repr of the float)"
        )
    elif k_p is not None:
        cause = (
            f"the scores p in {worst['predictions']} were rounded to {k_p} decimals: write "
            "predictions at full precision"
        )
    else:
        cause = (
            "a different metric definition (e.g. another log base, clipping, threshold or "
            "averaging) or predictions that are not the ones the logged value came from"
        )
    line = int(worst["cite"].rsplit(":", 1)[1]) if ":" in worst["cite"] else None
    return [
        Problem(
            f"{count(len(bad))} of {count_noun(len(comps), 'logged ' + project.config.metric + ' value')} "
            f"{'differs' if len(bad) == 1 else 'differ'} from the values "
            f"recomputed from their predictions (beyond {power_of_ten(REL_TOL, 1)} relative); the "
            f"largest difference is {sig(abs(worst['logged'] - worst['recomputed']), 3)} here "
            f"(logged {full(worst['logged'])}, recomputed {full(worst['recomputed'])}); "
            f"likely cause: {cause}. Rung 1 cannot be shown until they agree",
            project.runs_name,
            line,
            slug="logged-differs",
            severity="warning",
        )
    ]
