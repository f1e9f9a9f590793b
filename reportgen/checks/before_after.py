"""Before and after: a model tuned on a frozen question set, fixed and broken questions, forgetting."""

from __future__ import annotations

import numpy as np

from reportgen.checks import ladder as lad
from reportgen.checks.data import data_section
from reportgen.checks.fairness import fairness_facts
from reportgen.checks.select import ModelRuns, row_metric, select_runs
from reportgen.checks.text import interval, num, p_text, pct
from reportgen.project import Project
from reportgen.project.predictions import MISSING_LABEL
from reportgen.stats import before_after as ba
from reportgen.stats.bootstrap import block_bootstrap, wider_interval
from reportgen.stats.ttests import ratio_t


def _correct(project: Project, mr: ModelRuns, part: str):
    """(row_ids, correct, prediction) of the first analysed network of a model on a part."""
    for s in mr.seeds:
        pred = s.test_pred if part == "test" else s.val_pred
        if pred is not None:
            return pred, row_metric(project, pred, s.threshold)
    return None, None


#: rung-2 facts that apply to one model against its own earlier version on a frozen question set
BA_FACTS = (
    "manifest-verified",
    "frozen-before-runs",
    "rule-before-runs",
    "parts-disjoint",
    "predictions-cover-parts",
    "same-rows-test",
    "same-metric",
)


def harness_rung(project: Project, comparisons: list[dict], checks: list[dict]) -> dict:
    """Rung 1 in before-after mode: the evaluation harness's own checks and logged-versus-recomputed values."""
    harness = list(project.checks)
    for c in harness:
        checks.append(
            {
                "id": f"rung1-{c.check}-{c.model}",
                "rung": 1,
                "passed": c.passed,
                "value": None,
                "bar": None,
                "artefacts": [c.path],
                "text": c.text,
            }
        )
    bad = lad.logged_check(comparisons, checks)
    arts = (
        [c.path for c in harness]
        + [c["cite"] for c in comparisons]
        + project.evidence.get("correct", [])
    )
    failed = [c for c in harness if c.passed is False]
    if failed:
        return lad.rung(
            1,
            "not shown",
            arts,
            f"{failed[0].check} check fails: {failed[0].text}",
            "an evaluation-harness check fails",
        )
    if harness and all(c.passed for c in harness) and comparisons and not bad:
        return lad.rung(
            1,
            "shown",
            arts,
            None,
            f"{len(harness)} evaluation-harness checks pass and "
            f"{len(comparisons)} logged values match their predictions",
        )
    if not harness and not comparisons:
        return lad.rung(
            1,
            "not shown",
            arts,
            "no evaluation-harness checks (e.g. answer parsing verified on a "
            "sample) in artefacts/checks/",
            "the harness is unchecked",
        )
    missing = (
        f"logged value disagrees with its predictions at {bad[0]['cite']}"
        if bad
        else "no evaluation-harness check files in artefacts/checks/"
        if not harness
        else "no predictions to recompute the logged values from"
    )
    return lad.rung(1, "partly", arts, missing, "the harness is partly checked")


def _by_category(chosen, ids, category) -> dict | None:
    """Count of the chosen question ids per category, most first, then by name (like broken_by_category)."""
    if category is None:
        return None
    cat_of = {str(i): str(c) for i, c in zip(ids, category, strict=True)}
    counts: dict[str, int] = {}
    for i in chosen:
        c = cat_of.get(str(i), "(missing)")
        counts[c] = counts.get(c, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _paired_interval(project: Project, diff: np.ndarray, blocks, rng) -> dict:
    """Row-weighted mean of ``diff`` with the wider of the ratio bootstrap and ratio t intervals
    over questions (or blocks when given): the estimand of methods.md section 3."""
    cfg = project.config
    if blocks is None:
        g, n = diff.astype(float), np.ones(diff.size)
    else:
        _, inv = np.unique(np.asarray(blocks).astype(str), return_inverse=True)
        inv = inv.ravel()
        g = np.bincount(inv, weights=diff)
        n = np.bincount(inv).astype(float)
    out = {
        "gap": float(g.sum() / n.sum()) if n.size else None,
        "low": None,
        "high": None,
        "primary": None,
        "units": int(g.size),
        "bootstrap": {"low": None, "high": None},
        "t": {"low": None, "high": None, "p": None, "se": None, "df": None},
        "reason": None,
    }
    if g.size < 2:
        out["reason"] = (
            f"{g.size} {'block' if blocks is not None else 'question'}(s): an interval needs 2"
        )
        return out
    boot = block_bootstrap(g, resamples=cfg.resamples, confidence=cfg.confidence, rng=rng, counts=n)
    t = ratio_t(g, n, cfg.confidence)
    out["bootstrap"] = {"low": boot["low"], "high": boot["high"]}
    out["t"] = {k: t[k] for k in ("low", "high", "p", "se", "df")}
    if t["low"] is None:
        if np.all(diff == 0):
            # no question changed: the exact (Clopper-Pearson) bound on the share of questions that
            # changed, 0 of N, bounds the difference either way: |difference| <= 1 - (alpha/2)^(1/N)
            u = float(1.0 - ((1.0 - cfg.confidence) / 2.0) ** (1.0 / diff.size))
            out.update(primary="exact", low=-u, high=u)
            out["reason"] = (
                f"no question changed: exact binomial bound for 0 changed of {diff.size} questions"
            )
            return out
        out["reason"] = "zero spread: every question (block) moved the same way, no interval"
        return out
    which, lo, hi = wider_interval(out["bootstrap"], t, out["gap"])
    out.update(primary=which, low=lo, high=hi)
    return out


def general_section(project: Project) -> dict | None:
    """The general-abilities set before and after: the drop with a paired interval; held only when
    the interval's upper end of the drop is at most max_drop (a harm must be ruled out, not assumed)."""
    cfg = project.config
    vals, arts, preds = {}, [], {}
    for role in ("baseline", "candidate"):
        name = getattr(cfg, role)
        rows = [
            r
            for r in project.runs
            if r.model == name and r.split == cfg.general_split and r.ok and r.metric == cfg.metric
        ]
        if not rows:
            return None
        r = rows[0]
        pred = project.predictions.get(r.predictions) if r.predictions else None
        if pred is not None:
            preds[role] = (pred, row_metric(project, pred, 0.5))
            vals[role] = float(np.mean(preds[role][1]))
            arts.append(pred.path)
        else:
            vals[role] = r.value
        arts.append(r.cite(project.runs_name))
    before, after = vals["baseline"], vals["candidate"]
    drop = (before - after) if cfg.higher_is_better else (after - before)
    out = {
        "split": cfg.general_split,
        "before": before,
        "after": after,
        "drop": drop,
        "low": None,
        "high": None,
        "max_drop": cfg.max_drop,
        "held": False,
        "status": "not shown",
        "reason": None,
        "questions": None,
        "artefacts": arts,
    }
    if len(preds) == 2:
        (bp, bv), (ap, av) = preds["baseline"], preds["candidate"]
        ids = np.array(sorted(set(bp.row_id) & set(ap.row_id), key=str), dtype=object)
        bpos = {k: i for i, k in enumerate(bp.row_id)}
        apos = {k: i for i, k in enumerate(ap.row_id)}
        b = bv[[bpos[k] for k in ids]]
        a = av[[apos[k] for k in ids]]
        d = (b - a) if cfg.higher_is_better else (a - b)  # per-question drop
        blocks = ap.block[[apos[k] for k in ids]] if (cfg.block and ap.block is not None) else None
        if blocks is not None and np.all(blocks == MISSING_LABEL):
            blocks = None  # the block column is optional on the general set: empty means absent
        iv = _paired_interval(project, d, blocks, np.random.default_rng(cfg.random_seed + 1))
        out.update(
            questions=int(ids.size),
            drop=iv["gap"] if iv["gap"] is not None else drop,
            low=iv["low"],
            high=iv["high"],
            primary=iv["primary"],
            bootstrap=iv["bootstrap"],
            t=iv["t"],
        )
        if iv["high"] is None:
            out["reason"] = f"no interval on the drop ({iv['reason']})"
    else:
        out["reason"] = (
            "no per-question predictions on the general set for both models: no interval"
        )
    if out["high"] is not None and out["high"] <= cfg.max_drop + 1e-12:
        out.update(held=True, status="held")
    elif out["low"] is not None and out["low"] > cfg.max_drop:
        out.update(status="dropped", reason="the whole interval of the drop is above max_drop")
    elif out["high"] is not None:
        out["reason"] = (
            f"the drop's upper bound {num(out['high'])} exceeds the allowed {num(cfg.max_drop)}: "
            "holding is not shown"
        )
    return out


def general_failure(general: dict) -> str:
    """Why the general set does not count as held, naming the numbers."""
    if general.get("status") == "dropped" or (
        general.get("high") is None and general["drop"] > general["max_drop"]
    ):
        return (
            f"the general set dropped {num(general['drop'])} ({num(general['before'])} -> "
            f"{num(general['after'])}), more than the allowed {num(general['max_drop'])}"
        )
    if general.get("high") is None:
        return (
            f"holding the general set is not shown: {general.get('reason')} (drop {num(general['drop'])}, "
            f"allowed {num(general['max_drop'])})"
        )
    return (
        f"holding the general set is not shown: the drop {num(general['drop'])} has an upper bound of "
        f"{num(general['high'])}, above the allowed {num(general['max_drop'])}"
    )


def compute_before_after(project: Project, report: dict) -> dict:
    cfg = project.config
    before_runs, after_runs = select_runs(project, "baseline"), select_runs(project, "candidate")
    bpred, bvals = _correct(project, before_runs, "test")
    apred, avals = _correct(project, after_runs, "test")
    checks: list[dict] = []
    comparisons = lad.logged_vs_recomputed(project, [after_runs, before_runs])
    project.warnings.extend(lad.recompute_warnings(project, comparisons))
    facts = [f for f in fairness_facts(project, after_runs, before_runs) if f["id"] in BA_FACTS]
    general = general_section(project)
    section = None
    iv = None
    if bpred is not None and apred is not None:
        import pandas as pd

        ids = np.array(sorted(set(bpred.row_id) & set(apred.row_id)), dtype=object)
        bi = pd.Index(bpred.row_id).get_indexer(ids)
        ai = pd.Index(apred.row_id).get_indexer(ids)
        b, a = bvals[bi], avals[ai]
        if not cfg.higher_is_better:  # error_rate: "correct" is 1 - error
            b, a = 1 - b, 1 - a
        blocks = apred.block[ai] if (cfg.block and apred.block is not None) else None
        cat = (
            apred.category[ai]
            if apred.category is not None
            else (bpred.category[bi] if bpred.category is not None else None)
        )
        text = (
            apred.text[ai]
            if apred.text is not None
            else (bpred.text[bi] if bpred.text is not None else None)
        )
        rng = np.random.default_rng(cfg.random_seed)
        piv = _paired_interval(project, a - b, blocks, rng)
        low, high, primary = piv["low"], piv["high"], piv["primary"]
        boot = {
            "before": float(b.mean()),
            "after": float(a.mean()),
            "difference": piv["gap"],
            "low": piv["bootstrap"]["low"],
            "high": piv["bootstrap"]["high"],
        }
        t = piv["t"]
        d = np.zeros(piv["units"])
        fb = ba.fixed_broken(ids, b, a, category=cat, text=text)
        section = {
            "questions": int(len(ids)),
            "before": boot["before"],
            "after": boot["after"],
            "difference": boot["difference"],
            "low": low,
            "high": high,
            "primary": primary,
            "interval_reason": piv["reason"],
            "blocks": int(len(d)),
            "confidence": cfg.confidence,
            "bootstrap": {"low": boot["low"], "high": boot["high"]},
            "t": {"low": t["low"], "high": t["high"], "p": t["p"]},
            "fixed": fb["fixed"],
            "broken": fb["broken"],
            "mcnemar_p": ba.mcnemar_exact(fb["fixed"], fb["broken"]),
            "fixed_ids": [str(i) for i in fb["fixed_ids"]],
            "broken_ids": [str(i) for i in fb["broken_ids"]],
            "broken_by_category": fb["broken_by_category"],
            "fixed_by_category": _by_category(fb["fixed_ids"], ids, cat),
            "broken_rows": fb["broken_rows"],
            "category_sentence": ba.category_sentence(fb["broken_by_category"], fb["broken"]),
            "artefacts": [bpred.path, apred.path],
        }
        if low is not None:
            iv = {
                "gap": section["difference"],
                "low": low,
                "high": high,
                "source": "questions",
                "what": f"{len(d)} {'blocks' if blocks is not None else 'questions'}",
            }

    m = cfg.min_useful_effect
    bar = m if m is not None else 0.0
    above = iv is not None and iv["low"] > bar
    held = general is not None and general["held"]
    # ladder
    ladder = [harness_rung(project, comparisons, checks)]
    ladder.append(lad.fair_rung(facts, project, checks))
    checks.append(
        {
            "id": "interval-above-zero",
            "rung": 3,
            "passed": (iv["low"] > 0) if iv else None,
            "value": iv["low"] if iv else None,
            "bar": 0.0,
            "artefacts": section["artefacts"] if section else [],
            "text": f"{pct(cfg.confidence)} interval of the accuracy difference {interval(iv['low'], iv['high'])}"
            if iv
            else "no per-question predictions before and after",
        }
    )
    if iv is None:
        ladder.append(
            lad.rung(
                3, "not shown", [], "no per-question predictions before and after", "unmeasured"
            )
        )
    elif iv["low"] > 0:
        ladder.append(
            lad.rung(
                3,
                "shown",
                section["artefacts"],
                None,
                f"the difference {num(iv['gap'])} has interval {interval(iv['low'], iv['high'])}, "
                f"above zero; McNemar {p_text(section['mcnemar_p'])}",
            )
        )
    else:
        ladder.append(
            lad.rung(
                3,
                "not shown",
                section["artefacts"],
                f"the interval {interval(iv['low'], iv['high'])} includes zero",
                "within noise",
            )
        )
    rel_arts = list(project.evidence.get("relevant", []))
    if iv is None:
        ladder.append(lad.rung(4, "not shown", rel_arts, "no interval", "unmeasured"))
    elif m is not None and iv["low"] > m:
        ladder.append(
            lad.rung(
                4,
                "shown",
                rel_arts + section["artefacts"],
                None,
                f"the interval's lower end {num(iv['low'])} is above the useful effect {num(m)}",
            )
        )
    elif iv["low"] > 0:
        ladder.append(
            lad.rung(
                4,
                "partly",
                rel_arts,
                f"the lower end {num(iv['low'])} does not reach the useful effect {num(m)}"
                if m is not None
                else "no min_useful_effect fixed",
                "positive, usefulness not established",
            )
        )
    else:
        ladder.append(lad.rung(4, "not shown", rel_arts, "no gain shown", "no gain shown"))
    if section:
        checks.append(
            {
                "id": "broken-questions",
                "rung": 4,
                "passed": None,
                "value": section["broken"],
                "bar": None,
                "artefacts": section["artefacts"],
                "text": f"{section['fixed']} questions fixed, {section['broken']} broken"
                + (f"; {section['category_sentence']}" if section["category_sentence"] else ""),
            }
        )
    if general is not None:
        checks.append(
            {
                "id": "general-set-held",
                "rung": 5,
                "passed": general["held"],
                "value": general["drop"],
                "bar": general["max_drop"],
                "artefacts": general["artefacts"],
                "text": f"general set {num(general['before'])} -> {num(general['after'])}, drop "
                f"{num(general['drop'])}, {pct(cfg.confidence)} interval "
                f"{interval(general['low'], general['high'])} (allowed {num(general['max_drop'])}): "
                + ("held" if general["held"] else general_failure(general)),
            }
        )
    ladder.append(lad.bounded_rung(project, None, {}, general, []))
    sup = lad.supported(ladder)

    reasons, failed = [], []
    for r in ladder[:2]:
        if r["status"] != "shown":
            failed.append(f"rung {r['rung']} ({r['name']}) is {r['status']}: {r['missing']}")
    if iv is None:
        failed.append("no per-question predictions before and after to form an interval")
    elif not above:
        failed.append(
            f"the interval {interval(iv['low'], iv['high'])} is not above "
            + (f"the useful effect {num(m)}" if m is not None else "zero")
        )
    if general is None:
        failed.append(f"no general-abilities set (split {cfg.general_split!r}) to check forgetting")
    elif not held:
        failed.append(general_failure(general))
    if not failed:
        verdict, rec = "adopt", cfg.candidate
        reasons.append(
            f"the gain {num(iv['gap'])} ({interval(iv['low'], iv['high'])}) is above "
            + (f"the useful effect {num(m)}" if m is not None else "zero")
            + f" and the general set held (drop {num(general['drop'])}, upper bound "
            f"{num(general['high'])} within {num(general['max_drop'])})"
        )
    else:
        verdict, rec = "roll-back", cfg.baseline
        reasons += failed
    if section and section["category_sentence"]:
        reasons.append(section["category_sentence"])
    # claim
    acc = cfg.metric.replace("_", " ")
    if section is None:
        rewritten = "Nothing is established: there are no per-question results before and after."
    else:
        detail = (
            f"({'+' if section['difference'] >= 0 else ''}{num(section['difference'])}, {pct(cfg.confidence)} "
            f"interval {interval(section['low'], section['high'])}; {section['fixed']} fixed, "
            f"{section['broken']} broken)"
        )
        moved = f"from {num(section['before'])} to {num(section['after'])} {detail}"
        meas = f"frozen-set {acc} went {moved}"
        if sup == 0:
            rewritten = f"Nothing is established yet ({ladder[0]['missing']}); measured: {meas}."
        elif sup == 1:
            rewritten = f"The frozen set is not shown to be untouched ({ladder[1]['missing']}); measured: {meas}."
        elif sup == 2:
            rewritten = f"Tuning did not clearly change the model: {meas}."
        elif sup == 3:
            rewritten = f"Tuning raised frozen-set {acc} {moved}, but a useful gain is not shown: {ladder[3]['missing']}."
        elif sup == 4:
            rewritten = (
                f"Tuning raised frozen-set {acc} {moved}, a useful margin, but "
                f"{ladder[4]['missing']}."
            )
        else:
            rewritten = (
                f"Tuning raised frozen-set {acc} {moved}, a useful margin, and the general set held: a drop of "
                f"{num(general['drop'])} whose upper bound {num(general['high'])} is within the allowed "
                f"{num(general['max_drop'])}."
            )
    items = []
    if iv is not None and not above:
        items.append(f"the interval's lower end exceeds {num(bar)} (now {num(iv['low'])})")
    if general is not None and not held:
        items.append(
            f"the general set's drop is shown to be at most {num(general['max_drop'])}: its interval's "
            f"upper end within it (now {num(general['drop'])}, interval "
            f"{interval(general['low'], general['high'])}), e.g. by tuning with replay of general examples"
        )
    if general is None:
        items.append(
            f"a general-abilities set (split {cfg.general_split!r}) is scored before and after"
        )
    if section and section["broken"]:
        top = next(iter(section["broken_by_category"] or {}), None)
        items.append(
            f"the {section['broken']} broken questions are fixed or explained"
            + (f" (most are {top!r})" if section["category_sentence"] else "")
        )
    if ladder[1]["status"] != "shown":
        items.append(f"the frozen set is shown untouched: {ladder[1]['missing']}")
    items += cfg.reconsider_when
    data = data_section(project, after_runs, before_runs, None)
    if section:
        data.update(blocks=section["blocks"], test_rows=section["questions"])
    report.update(
        {
            "ladder": ladder,
            "claim": {
                "original": cfg.claim_text,
                "rewritten": rewritten,
                "supported_rung": sup,
                "reconsider_when": "; ".join(items),
                "reconsider_items": items,
            },
            "decision": {"verdict": verdict, "recommend": rec, "reasons": reasons},
            "checks": checks,
            "fairness": facts,
            "noise": {
                "seed": None,
                "block": None,
                "interval": iv,
                "lines": [
                    "Seed spread (retraining): not applicable: one tuned model against its own earlier version; "
                    "retraining noise of the tuning run is not measured.",
                    (
                        f"Block bootstrap (which blocks were sampled, one trained network): accuracy difference "
                        f"{num(iv['gap'])}, {pct(cfg.confidence)} interval {interval(iv['low'], iv['high'])} over "
                        f"{iv['what']} ({cfg.resamples} resamples); McNemar exact {p_text(section['mcnemar_p'])}."
                        if iv
                        else "Block bootstrap (which blocks were sampled, one trained network): not computed."
                    ),
                ],
                "covers": [
                    "Retraining noise would need several tuning runs with different seeds.",
                    "The bootstrap covers which questions happened to be in the frozen set, for the model "
                    "as tuned.",
                ],
            },
            "relevance": lad.relevance(project, iv, None, None),
            "threshold": None,
            "ranking": None,
            "calibration": None,
            "slices": None,
            "data": data,
            "not_tested": [
                "questions outside the frozen set's categories",
                "retraining noise of the tuning itself (one tuning run)",
            ],
            "comparisons": comparisons,
            "before_after": section,
            "general": general,
            "warnings": [w.as_dict() for w in project.warnings],
        }
    )
    return report
