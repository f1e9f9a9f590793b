"""The five-rung claim ladder: each rung's status, artefacts and the one thing missing."""

from __future__ import annotations

from reportgen.checks.fairness import fair_status
from reportgen.checks.select import ModelRuns
from reportgen.checks.text import blocks_phrase, interval, num
from reportgen.names import RUNG_NAMES
from reportgen.project import Project

RUNG_CHECKS = ("initial_loss", "gradient", "overfit", "shapes")
REL_TOL = 1e-6


def rung(n: int, status: str, artefacts: list[str], missing: str | None, summary: str) -> dict:
    return {
        "rung": n,
        "name": RUNG_NAMES[n - 1],
        "status": status,
        "artefacts": list(dict.fromkeys(artefacts)),
        "missing": None if status == "shown" else missing,
        "summary": summary,
    }


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


def logged_check(comparisons: list[dict], checks: list[dict]) -> list[dict]:
    """Append the logged-equals-recomputed check; return the comparisons that disagree."""
    bad = [c for c in comparisons if not c["agree"]]
    checks.append(
        {
            "id": "logged-equals-recomputed",
            "rung": 1,
            "passed": (not bad) if comparisons else None,
            "value": len(bad),
            "bar": 0,
            "artefacts": [c["cite"] for c in (bad or comparisons)],
            "text": (
                f"{len(comparisons) - len(bad)} of {len(comparisons)} logged values agree with the "
                f"values recomputed from predictions (within 1e-6 relative)"
            )
            + (
                f"; e.g. {bad[0]['cite']}: logged {num(bad[0]['logged'], 6)}, recomputed "
                f"{num(bad[0]['recomputed'], 6)}"
                if bad
                else ""
            )
            if comparisons
            else "no predictions to recompute the logged values from",
        }
    )
    return bad


def correct_rung(project: Project, model: str, comparisons: list[dict], checks: list[dict]) -> dict:
    """Rung 1 from the candidate's check files and logged-versus-recomputed metric values."""
    mine = {c.check: c for c in project.checks if c.model == model}
    arts = [c.path for c in mine.values()] + project.evidence.get("correct", [])
    for name in RUNG_CHECKS:
        c = mine.get(name)
        checks.append(
            {
                "id": f"rung1-{name}",
                "rung": 1,
                "passed": c.passed if c else None,
                "value": None,
                "bar": None,
                "artefacts": [c.path] if c else [],
                "text": c.text if c else f"no {name} check file for {model} (not shown)",
            }
        )
    bad = logged_check(comparisons, checks)
    arts += [c["cite"] for c in (bad or comparisons)]
    failed = [c for c in mine.values() if c.passed is False]
    present = [n for n in RUNG_CHECKS if n in mine and mine[n].passed]
    absent = [n for n in RUNG_CHECKS if n not in mine or mine[n].passed is None]
    if failed:
        f = failed[0]
        return rung(
            1,
            "not shown",
            arts,
            f"{f.check} check fails: {f.text}",
            f"{len(failed)} sanity check(s) of {model} fail",
        )
    if not present and not comparisons:
        return rung(
            1,
            "not shown",
            arts,
            f"no sanity-check files for {model} in artefacts/checks/ "
            "(initial_loss, gradient, overfit, shapes) and no predictions to recompute metrics from",
            "nothing shows the training and evaluation code is correct",
        )
    if not absent and comparisons and not bad:
        return rung(
            1,
            "shown",
            arts,
            None,
            f"all four sanity checks of {model} pass and {len(comparisons)} logged values match their "
            "predictions",
        )
    if bad:
        missing = (
            f"{len(bad)} logged value(s) disagree with their predictions, e.g. {bad[0]['cite']} "
            f"(logged {num(bad[0]['logged'], 6)}, recomputed {num(bad[0]['recomputed'], 6)})"
        )
    elif absent:
        missing = f"no {', '.join(absent)} check for {model}"
    else:
        missing = "no predictions to recompute the logged metric values from"
    return rung(1, "partly", arts, missing, f"{len(present)} of 4 sanity checks of {model} pass")


def fair_rung(facts: list[dict], project: Project, checks: list[dict]) -> dict:
    status, missing = fair_status(facts)
    arts = [a for f in facts for a in f["artefacts"]] + project.evidence.get("fair", [])
    for f in facts:
        checks.append(
            {
                "id": f"fair-{f['id']}",
                "rung": 2,
                "passed": f["passed"],
                "value": None,
                "bar": None,
                "text": f["text"],
                "artefacts": f["artefacts"],
            }
        )
    n_ok = sum(1 for f in facts if f["passed"])
    return rung(2, status, arts, missing, f"{n_ok} of {len(facts)} fairness facts shown")


def primary_interval(seed: dict, block: dict | None) -> dict | None:
    """The evaluation interval rung 3 and relevance rest on: the block interval, else the paired seed interval."""
    if block is not None and block.get("low") is not None:
        return {
            "gap": block["gap"],
            "low": block["low"],
            "high": block["high"],
            "source": "block",
            "part": "test",
            "what": blocks_phrase(block["blocks"], block.get("block_column")),
        }
    p = seed.get("paired") or {}
    if p.get("low") is not None:
        return {
            "gap": p["mean"],
            "low": p["low"],
            "high": p["high"],
            "source": "paired-seeds",
            "part": p.get("part") or "validation",
            "what": f"{p['n']} seed pairs ({p.get('part') or 'validation'})",
        }
    return None


def noise_rung(
    project: Project, seed: dict, block: dict | None, iv: dict | None, checks: list[dict]
) -> dict:
    cfg = project.config
    seed_arts = [v["source"] for role in ("candidate", "baseline") for v in seed["values"][role]]
    rule_ok = bool(seed.get("passes"))
    checks.append(
        {
            "id": "validation-gap-vs-seed-sd",
            "rung": 3,
            "passed": rule_ok
            if (seed.get("gap_in_sd") is not None or seed.get("trivial"))
            else None,
            "value": seed.get("gap_in_sd"),
            "bar": cfg.seed_sd_multiple,
            "artefacts": seed_arts,
            "text": (
                f"{seed.get('part', 'validation')} gap {num(seed.get('validation_gap'))}: both models have "
                "zero seed spread, so the rule is trivially "
                + ("met" if rule_ok else "failed (the gap is not positive)")
                if seed.get("trivial")
                else f"{seed.get('part', 'validation')} gap {num(seed.get('validation_gap'))} is "
                f"{num(seed.get('gap_in_sd'), 2)} seed sd; the rule needs more than "
                f"{num(cfg.seed_sd_multiple)}"
                if seed.get("gap_in_sd") is not None
                else f"seed rule not measured: {seed.get('reason')}"
            ),
        }
    )
    excl = iv is not None and iv["low"] > 0
    checks.append(
        {
            "id": "test-interval-excludes-zero",
            "rung": 3,
            "passed": excl if iv else None,
            "value": iv["low"] if iv else None,
            "bar": 0.0,
            "artefacts": [],
            "text": (
                f"{iv.get('part', 'test')} interval {interval(iv['low'], iv['high'])} ({iv['what']}) "
                + (
                    "excludes zero in the candidate's favour"
                    if excl
                    else "does not exclude zero in the candidate's favour"
                )
            )
            if iv
            else "no evaluation interval (no per-row predictions and no paired seeds)",
        }
    )
    arts = (
        seed_arts
        + (["runs.csv"] if not seed_arts else [])
        + project.evidence.get("larger_than_noise", [])
    )
    if rule_ok and excl:
        return rung(
            3,
            "shown",
            arts,
            None,
            "the gap clears the seed rule and the test interval excludes zero",
        )
    if seed.get("gap_in_sd") is None and not seed.get("trivial"):
        missing = seed.get("reason") or "retraining noise unmeasured: fewer than 2 seeds"
    elif not rule_ok and seed.get("trivial"):
        missing = (
            f"both models are deterministic and the {seed.get('part', 'validation')} gap "
            f"{num(seed.get('validation_gap'))} is not positive"
        )
    elif not rule_ok:
        missing = (
            f"the {seed.get('part', 'validation')} gap is {num(seed['gap_in_sd'], 2)} seed sd, not more than "
            f"{num(cfg.seed_sd_multiple)}"
        )
    elif iv is None:
        missing = "no evaluation interval on test (no per-row predictions)"
    else:
        missing = (
            f"the {iv.get('part', 'test')} interval {interval(iv['low'], iv['high'])} does not "
            "exclude zero in the candidate's favour"
        )
    status = "partly" if (rule_ok or excl) else "not shown"
    return rung(
        3,
        status,
        arts,
        missing,
        "seed rule "
        + ("passes" if rule_ok else "fails")
        + "; test interval "
        + ("excludes zero" if excl else "includes zero or is missing"),
    )


def relevance(
    project: Project, iv: dict | None, th: dict | None, slices: list[dict] | None
) -> dict | None:
    cfg = project.config
    if iv is None:
        return None
    m = cfg.min_useful_effect
    low, high, gap = iv["low"], iv["high"], iv["gap"]
    if m is not None:  # m = 0: any gain that clears zero is useful; equivalence needs m > 0
        if low >= m and low > 0:
            finding = "useful-gain-shown"
        elif low > 0:
            finding = "positive-not-useful"
        elif m > 0 and -m < low and high < m:
            finding = "equivalent"
        elif high < 0:
            finding = "worse"
        else:
            finding = "inconclusive"
    else:
        finding = "positive-not-useful" if low > 0 else ("worse" if high < 0 else "inconclusive")
    out = {
        "min_useful_effect": m,
        "finding": finding,
        "gap": gap,
        "low": low,
        "high": high,
        "per_period": gap * cfg.cases_per_period if cfg.cases_per_period else None,
        "cases_per_period": cfg.cases_per_period,
        "period": cfg.period,
        "unit": cfg.unit,
        "metric_unit": cfg.metric,
        "cost_per_case": None,
        "cost_per_period": None,
    }
    if th is not None:
        c, b = th["candidate"]["mean_test_cost"], th["baseline"]["mean_test_cost"]
        out["cost_per_case"] = {"candidate": c, "baseline": b, "difference": b - c}
        if cfg.cases_per_period:
            out["cost_per_period"] = (b - c) * cfg.cases_per_period
    texts = {
        "useful-gain-shown": f"the interval's lower end {num(low)} reaches the useful effect {num(m)}",
        "positive-not-useful": (
            f"the gain is positive (lower end {num(low)}) but below the useful effect {num(m)} in "
            "part"
            if m
            else f"the gain is positive (lower end {num(low)}) but no "
            "min_useful_effect was fixed, so usefulness is not established"
        ),
        "equivalent": f"the interval {interval(low, high)} lies inside ±{num(m)}: practically equivalent, a tie",
        "worse": f"the interval {interval(low, high)} lies below zero: the candidate is worse",
        "inconclusive": f"the interval {interval(low, high)} is too wide to decide",
    }
    out["finding_text"] = texts[finding]
    out["text"] = texts[finding]
    if out["cost_per_period"] is not None:
        out["text"] += (
            f"; at each model's validation-chosen threshold the candidate "
            f"{'saves' if out['cost_per_period'] >= 0 else 'costs'} {num(abs(out['cost_per_period']))} "
            f"{cfg.unit} per {cfg.period or 'period'}"
        )
    return out


def relevant_rung(
    project: Project, rel: dict | None, slices: list[dict] | None, checks: list[dict]
) -> dict:
    cfg = project.config
    arts = list(project.evidence.get("relevant", []))
    if cfg.min_useful_effect is not None:
        arts.append(f"{project.paths.config}:{cfg.lines.get('claim.min_useful_effect', 1)}")
    req = [s for s in (slices or []) if s["required"]]
    bad_slices = [s for s in req if not s.get("not_worse")]
    for s in req:
        checks.append(
            {
                "id": f"not-worse-on-{s['slice']}",
                "rung": 4,
                "passed": bool(s.get("not_worse")),
                "value": s["low"],
                "bar": -s["margin"] if s.get("margin") is not None else None,
                "artefacts": [],
                "text": f"slice {s['slice']!r} ({s['rows']} rows): gap {num(s['gap'])}, interval "
                f"{interval(s['low'], s['high'])}; "
                + (
                    f"not worse shown: the worse end stays within the margin -{num(s['margin'])}"
                    if s.get("not_worse")
                    else f"not worse is not shown: {s.get('not_worse_reason')}"
                ),
            }
        )
    if rel is None:
        return rung(
            4,
            "not shown",
            arts,
            "no evaluation interval to judge the size of the gap",
            "relevance unmeasured",
        )
    checks.append(
        {
            "id": "useful-effect",
            "rung": 4,
            "passed": rel["finding"] == "useful-gain-shown"
            if cfg.min_useful_effect is not None
            else None,
            "value": rel["low"],
            "bar": cfg.min_useful_effect,
            "artefacts": arts[:2],
            "text": rel["text"],
        }
    )
    if rel["finding"] == "useful-gain-shown" and not bad_slices:
        return rung(4, "shown", arts, None, rel["text"])
    if rel["finding"] in ("useful-gain-shown", "positive-not-useful"):
        if bad_slices:
            s = bad_slices[0]
            missing = (
                f"the candidate is worse on slice {s['slice']!r} (gap {num(s['gap'])}, interval "
                f"{interval(s['low'], s['high'])})"
                if s["worse"]
                else f"not being worse on slice {s['slice']!r} is not shown: {s.get('not_worse_reason')}"
            )
        elif cfg.min_useful_effect is None:
            missing = (
                "no min_useful_effect fixed in evreport.toml: what gap would be worth acting on?"
            )
        else:
            missing = f"the interval's lower end {num(rel['low'])} does not reach the useful effect {num(cfg.min_useful_effect)}"
        return rung(4, "partly", arts, missing, rel["text"])
    return rung(4, "not shown", arts, rel["finding_text"], "no gain worth acting on is shown")


def bounded_rung(
    project: Project,
    slices: list[dict] | None,
    data: dict,
    general: dict | None,
    not_tested: list[str],
    measured: list[str] | None = None,
) -> dict:
    cfg = project.config
    # what was measured: the test predictions and split the slices and period come from
    arts = list(project.evidence.get("bounded", [])) + list(measured or [])
    parts = []
    if slices:
        parts.append(f"{len(slices)} slices with intervals")
    if data.get("blocks") and cfg.block:
        parts.append(
            f"{data['blocks']} {cfg.block} blocks ({data.get('first_block')} to {data.get('last_block')})"
        )
    if cfg.kind == "before-after":
        if general is None:
            return rung(
                5,
                "not shown",
                arts,
                "no general-abilities set: forgetting was never tested",
                "forgetting untested",
            )
        if not general["held"]:
            from reportgen.checks.before_after import general_failure

            return rung(
                5,
                "not shown",
                arts + general.get("artefacts", []),
                general_failure(general),
                "the general set did not hold"
                if general.get("status") == "dropped"
                else "holding the general set is not shown",
            )
        arts += general.get("artefacts", [])
        return rung(
            5,
            "shown",
            arts,
            None,
            f"the general set held (drop {num(general['drop'])}, upper bound {num(general['high'])} "
            f"<= {num(general['max_drop'])})" + (f"; {parts[0]}" if parts else ""),
        )
    if slices and cfg.block and data.get("blocks"):
        return rung(5, "shown", arts, None, "; ".join(parts))
    if parts:
        return rung(
            5,
            "partly",
            arts,
            "no slice column: where the result stops holding is untested"
            if not slices
            else "no block column: the period measured is not stated",
            "; ".join(parts),
        )
    return rung(
        5,
        "not shown",
        arts,
        not_tested[0] if not_tested else "no slices or period measured",
        "where the result stops holding is not shown",
    )


def supported(ladder: list[dict]) -> int:
    n = 0
    for r in ladder:
        if r["status"] != "shown":
            break
        n += 1
    return n


def _decimals(p) -> int | None:
    """How many decimals the scores were written with, when 6 or fewer (a rounded file)."""
    import numpy as np

    p = np.asarray(p, dtype=float)
    if p.size == 0:
        return None
    for k in range(0, 7):
        scaled = p * 10.0**k
        if np.all(np.abs(scaled - np.round(scaled)) <= 1e-6):
            return k
    return None


def recompute_warnings(project: Project, comps: list[dict] | None = None) -> list:
    """One warning when logged run-log values disagree with the values recomputed from predictions
    (``comps``: logged_vs_recomputed, computed here when None): how many, the largest difference
    and its row, and the likely cause."""
    from reportgen.checks.select import select_runs
    from reportgen.errors import Problem

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
            f"{len(bad)} of {len(comps)} logged {project.config.metric} values differ from the values "
            f"recomputed from their predictions (beyond 1e-6 relative); the largest difference is "
            f"{abs(worst['logged'] - worst['recomputed']):.3g} here (logged {worst['logged']:.6g}, "
            f"recomputed {worst['recomputed']:.6g}); likely cause: {cause}. Rung 1 cannot be shown "
            "until they agree",
            project.runs_name,
            line,
            slug="logged-differs",
            severity="warning",
        )
    ]
