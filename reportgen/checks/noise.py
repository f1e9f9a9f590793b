"""The two noise lines, never merged: seed spread (retraining) and the block bootstrap (evaluation sample)."""

from __future__ import annotations

import numpy as np

from reportgen.checks.evaluation import EvalData
from reportgen.checks.select import ModelRuns
from reportgen.checks.text import interval, num, pct, plural
from reportgen.project import Project
from reportgen.stats import noise as nz


def seed_section(project: Project, cand: ModelRuns, base: ModelRuns) -> dict:
    cfg = project.config
    cs, cv = cand.seed_values("validation")
    bs, bv = base.seed_values("validation")
    out = nz.seed_rule(
        cv,
        bv,
        higher_is_better=cfg.higher_is_better,
        multiple=cfg.seed_sd_multiple,
        sd_from=cfg.seed_sd_from,
    )
    out["values"] = {
        mr.role: [
            {"seed": s.seed, "value": s.val_value, "source": s.val_source}
            for s in mr.seeds
            if s.val_value is not None
        ]
        for mr in (cand, base)
    }
    out["left_out"] = cand.left_out + base.left_out
    paired = {
        "n": None,
        "mean": None,
        "sd": None,
        "low": None,
        "high": None,
        "p": None,
        "part": None,
    }
    if cfg.seeds_paired:
        part = "test"
        ct, ctv = cand.seed_values("test")
        bt, btv = base.seed_values("test")
        common = sorted(set(ct) & set(bt))
        if len(common) < 2:
            part, (ct, ctv), (bt, btv) = "validation", (cs, cv), (bs, bv)
            common = sorted(set(ct) & set(bt))
        ci = {s: v for s, v in zip(ct, ctv, strict=True)}
        bi = {s: v for s, v in zip(bt, btv, strict=True)}
        res = nz.paired_seeds(
            np.array([ci[s] for s in common]),
            np.array([bi[s] for s in common]),
            higher_is_better=cfg.higher_is_better,
            confidence=cfg.confidence,
        )
        paired = {
            **{k: res.get(k) for k in ("n", "mean", "sd", "low", "high", "p")},
            "part": part,
            "seeds": common,
        }
    out["paired"] = paired
    return out


def _block_noise(project: Project, ev: EvalData, mask, seeds_paired: bool) -> dict:
    """noise.block statistics on the rows under ``mask`` (all rows when None), the project's rule."""
    cfg = project.config
    C, _ = ev.block_means("candidate", mask)
    B, _ = ev.block_means("baseline", mask)
    return nz.block_noise(
        C,
        B,
        candidate_seeds=ev.seeds["candidate"],
        higher_is_better=cfg.higher_is_better,
        resamples=cfg.resamples,
        confidence=cfg.confidence,
        random_seed=cfg.random_seed,
        seeds_paired=seeds_paired,
    )


def block_section(project: Project, ev: EvalData | None) -> dict | None:
    if ev is None:
        return None
    cfg = project.config
    paired = cfg.seeds_paired and len(ev.seeds["candidate"]) == len(ev.seeds["baseline"])
    out = _block_noise(project, ev, None, paired)
    out["block_column"] = ev.block_column
    out["rows"] = int(len(ev.row_ids))
    return out


def lines(
    project: Project, seed: dict, block: dict | None, cand: ModelRuns, base: ModelRuns
) -> tuple[list, list]:
    """The two noise sentences and what each covers."""
    cfg = project.config
    unit = cfg.metric.replace("_", " ")
    n_c, n_b = seed["n"]["candidate"], seed["n"]["baseline"]
    if seed.get("gap_in_sd") is None:
        s1 = (
            f"Seed spread (retraining): not measured: {seed.get('reason') or 'fewer than 2 seeds'} "
            f"({plural(n_c, cand.name + ' seed')}, {plural(n_b, base.name + ' seed')}); the validation gap is "
            f"{num(seed.get('validation_gap'))} {unit}."
        )
    else:
        who = {"candidate": cand.name, "baseline": base.name}
        src = (
            cfg.seed_sd_from
            if cfg.seed_sd_from != "larger"
            else (
                "candidate"
                if (seed["sd"]["candidate"] or 0) >= (seed["sd"]["baseline"] or 0)
                else "baseline"
            )
        )
        s1 = (
            f"Seed spread (retraining): the validation gap is {num(seed['validation_gap'])} {unit}, "
            f"{num(seed['gap_in_sd'], 2)} seed sd (sd {num(seed['sd_used'])} over {seed['n'][src]} {who[src]} "
            f"seeds{', the larger' if cfg.seed_sd_from == 'larger' else ''}); the rule needs more than "
            f"{num(cfg.seed_sd_multiple)}, so it {'passes' if seed['passes'] else 'fails'}; "
            f"{seed['seeds_beating_baseline']} of {n_c} {cand.name} seeds beat the {base.name} mean."
        )
    if n_c != n_b:
        s1 += (
            f" Note: the means compare {plural(n_c, cand.name + ' seed')} with {plural(n_b, base.name + ' seed')}"
            + (
                f" ({len(seed['left_out'])} run rows left out: {seed['left_out'][0]}"
                + (", ..." if len(seed["left_out"]) > 1 else "")
                + ")"
                if seed.get("left_out")
                else ""
            )
            + "."
        )
    if seed["paired"].get("low") is not None:
        p = seed["paired"]
        s1 += (
            f" Paired by seed ({p['part']}): mean difference {num(p['mean'])}, {pct(cfg.confidence)} t interval "
            f"{interval(p['low'], p['high'])} over {p['n']} seed pairs."
        )
    if block is None:
        s2 = (
            "Block bootstrap (which blocks were sampled, one trained network): not computed: there are no per-row "
            "test predictions for both models, so evaluation noise is unmeasured"
            + (
                " and rung 3 rests on the paired seed interval."
                if seed["paired"].get("low") is not None
                else "."
            )
        )
    elif block.get("low") is None:
        s2 = (
            f"Block bootstrap (which blocks were sampled, one trained network): not computed: "
            f"{block.get('reason') or 'fewer than 2 blocks'}."
        )
    else:
        what = f"{block['blocks']} {cfg.block or 'row'} blocks"
        t = block["t"]
        if block["primary"] == "t":
            s2 = (
                f"Block bootstrap (which blocks were sampled, one trained network): with only {what} the "
                f"bootstrap undercovers, so the paired t interval is primary: test gap {num(block['gap'])} {unit}, "
                f"{pct(cfg.confidence)} interval {interval(block['low'], block['high'])} (p = {num(t['p'], 2)}; "
                f"bootstrap {interval(block['bootstrap']['low'], block['bootstrap']['high'])})."
            )
        else:
            s2 = (
                f"Block bootstrap (which blocks were sampled, one trained network): the test gap is "
                f"{num(block['gap'])} {unit}, {pct(cfg.confidence)} interval {interval(block['low'], block['high'])}"
                f" over {what} ({block['resamples']} resamples); paired t: {interval(t['low'], t['high'])}, "
                f"p = {num(t['p'], 2)}."
            )
    covers = [
        "Seed spread covers retraining: how much the validation result moves when the same model is trained "
        "again with another seed. It says nothing about which evaluation rows happened to be sampled.",
        "The block bootstrap covers the evaluation sample: which "
        + (f"{cfg.block}s" if cfg.block else "rows")
        + " happened to be in the test set, for the networks as "
        "trained (seed-averaged). It says nothing about retraining; the per-network intervals and the two-level "
        "interval show that.",
    ]
    return [s1, s2], covers


def slices_section(project: Project, ev: EvalData | None) -> list[dict] | None:
    """Per-slice gap with its interval (the block rule), and whether a required slice is worse."""
    cfg = project.config
    if ev is None or ev.slices is None:
        return None
    out = []
    for name in sorted(set(ev.slices.tolist())):
        mask = ev.slices == name
        res = _block_noise(project, ev, mask, False)
        worse = res["high"] is not None and res["high"] < 0
        out.append(
            {
                "slice": name,
                "rows": int(mask.sum()),
                "blocks": res["blocks"],
                "gap": res["gap"],
                "low": res["low"],
                "high": res["high"],
                "primary": res["primary"],
                "worse": bool(worse),
                "required": name in cfg.not_worse_on,
            }
        )
    for name in cfg.not_worse_on:
        if name not in {s["slice"] for s in out}:
            out.append(
                {
                    "slice": name,
                    "rows": 0,
                    "blocks": 0,
                    "gap": None,
                    "low": None,
                    "high": None,
                    "primary": None,
                    "worse": None,
                    "required": True,
                }
            )
    return out
