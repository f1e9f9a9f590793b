"""From a loaded project to the report dict (report.json): every check, the ladder, the decision."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from importlib import metadata

from reportgen import __version__
from reportgen.checks import decision as dec
from reportgen.checks import ladder as lad
from reportgen.checks.classify import classification
from reportgen.checks.data import data_section
from reportgen.checks.evaluation import build_eval
from reportgen.checks.fairness import fairness_facts
from reportgen.checks.noise import (
    block_section,
    budget_section,
    lines,
    plan_sentence,
    seed_section,
    slices_section,
)
from reportgen.checks.select import select_runs
from reportgen.checks.text import noun_plural, num
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
        },
        "inputs": [{"path": p, "sha256": h, "bytes": n} for p, (h, n) in project.inputs.items()],
    }


def not_tested(project: Project, ev, cand, base) -> list[str]:
    cfg = project.config
    out = []
    if ev is None:
        out.append("no per-row test predictions: the evaluation sample's noise was never measured")
    else:
        if not cfg.block:
            out.append(
                "no block column: every row is treated as an independent block (time or group "
                "dependence untested)"
            )
        elif cfg.block_kind == "period":
            out.append(
                f"{noun_plural(cfg.block)} after {ev.blocks[-1]} (drift beyond the test period)"
            )
        else:
            out.append(
                f"{noun_plural(cfg.block)} other than the {len(ev.blocks)} measured (a new "
                f"{cfg.block} may behave differently)"
            )
        if ev.slices is None:
            out.append("no slice column: performance on segments was never tested")
    if len(cand.seeds) < 5 or len(base.seeds) < 5:
        out.append(
            f"fewer than 5 seeds per model ({len(cand.seeds)} and {len(base.seeds)}): retraining noise is "
            "coarsely measured"
        )
    if not any(r.split not in ("train", "validation", "test") for r in project.runs):
        out.append("no other evaluation set (e.g. a later period or another population)")
    return out


def measured_artefacts(project: Project, cand, base) -> list[str]:
    """The test split and test predictions the slices and the period were measured on."""
    out = []
    if project.manifest and project.manifest.part("test"):
        out.append(project.manifest.part("test").path)
    for mr in (cand, base):
        out += [s.test_pred.path for s in mr.seeds if s.test_pred is not None][:1]
    return out


def sign_disagreement(seed: dict, block: dict | None) -> dict | None:
    """The validation (seed-line) gap and the test (block-line) gap point in opposite directions."""
    v = seed.get("validation_gap")
    t = (block or {}).get("gap")
    if seed.get("part") != "validation" or v is None or t is None or v * t >= 0:
        return None
    return {
        "validation_gap": v,
        "test_gap": t,
        "text": (
            f"validation and test disagree: the validation gap is {num(v)} and the test gap {num(t)} "
            f"(opposite signs), so "
            + (
                "validation favours the candidate and test the baseline"
                if v > 0
                else "validation favours the baseline and test the candidate"
            )
        ),
    }


def compute_report(project: Project, command: str | None = None) -> dict:
    """Every check of methods.md, as the report dict (report-json.md)."""
    from reportgen.checks.jsonsafe import jsonable

    if project.config.kind == "before-after":
        from reportgen.checks.before_after import compute_before_after

        return jsonable(compute_before_after(project, header(project, command)))
    cfg = project.config
    cand, base = select_runs(project, "candidate"), select_runs(project, "baseline")
    ev = build_eval(project, cand, base)
    checks: list[dict] = []
    comparisons = lad.logged_vs_recomputed(project, [cand, base])
    project.warnings.extend(lad.recompute_warnings(project, comparisons))
    facts = fairness_facts(project, cand, base)
    seed = seed_section(project, cand, base)
    block = block_section(project, ev, seed)
    th, rk, cal = classification(project, cand, base)
    slices = slices_section(project, ev)
    iv = lad.primary_interval(seed, block)
    rel = lad.relevance(project, iv, th, slices)
    data = data_section(project, cand, base, ev)
    untested = not_tested(project, ev, cand, base)
    ladder = [
        lad.correct_rung(project, cfg.candidate, comparisons, checks),
        lad.fair_rung(facts, project, checks),
        lad.noise_rung(project, seed, block, iv, checks),
        lad.relevant_rung(project, rel, slices, checks),
        lad.bounded_rung(
            project, slices, data, None, untested, measured_artefacts(project, cand, base)
        ),
    ]
    sup = lad.supported(ladder)
    decision = dec.decide(
        project,
        ladder,
        iv,
        sup,
        seed.get("gap_in_sd") is not None or bool(seed.get("trivial")),
        rel=rel,
        seed=seed,
    )
    flip = sign_disagreement(seed, block)
    if flip:
        decision["reasons"].append(flip["text"])
    budget, budget_reason = budget_section(project, seed, block)
    items = dec.reconsider(
        project, ladder, seed, iv, rel, slices, decision["verdict"], plan_sentence(project, budget)
    )
    noise_lines, covers = lines(project, seed, block, cand, base)
    report = header(project, command)
    report.update(
        {
            "ladder": ladder,
            "claim": {
                "original": cfg.claim_text,
                "rewritten": dec.rewrite_claim(project, ladder, sup, iv, seed, rel, slices, data),
                "supported_rung": sup,
                "reconsider_when": "; ".join(items),
                "reconsider_items": items,
            },
            "decision": decision,
            "checks": checks,
            "fairness": facts,
            "noise": {
                "seed": seed,
                "block": block,
                "lines": noise_lines,
                "covers": covers,
                "interval": iv,
                "sign_disagreement": flip,
                "budget": budget,
                "budget_reason": budget_reason,
            },
            "relevance": rel,
            "threshold": th,
            "ranking": rk,
            "calibration": cal,
            "slices": slices,
            "data": data,
            "not_tested": untested,
            "comparisons": comparisons,
            "before_after": None,
            "general": None,
            "warnings": [w.as_dict() for w in project.warnings],
        }
    )
    return jsonable(report)
