"""The two noise lines, never merged: seed spread (retraining) and the block bootstrap (evaluation sample)."""

from __future__ import annotations

import numpy as np

from reportgen.checks.evaluation import EvalData
from reportgen.checks.select import ModelRuns
from reportgen.checks.text import blocks_phrase, interval, noun_plural, num, p_text, pct, plural
from reportgen.errors import Problem
from reportgen.project import Project
from reportgen.stats.blocks import block_noise
from reportgen.stats.seeds import paired_seeds, seed_rule


def seed_part(cand: ModelRuns, base: ModelRuns) -> str:
    """Where the seed spread is measured: validation when both models have validation values,
    else test when both have test values (a test-level number), else validation (unmeasured)."""
    if cand.seed_values("validation")[0] and base.seed_values("validation")[0]:
        return "validation"
    if cand.seed_values("test")[0] and base.seed_values("test")[0]:
        return "test"
    return "validation"


def _paired_part(cand: ModelRuns, base: ModelRuns) -> tuple[str, list]:
    """The part the paired seed analysis uses and its shared seed labels (by label, never position):
    test when both models have at least 2 shared labels with test values, else validation."""
    shared = {}
    for part in ("test", "validation"):
        cs, _ = cand.seed_values(part)
        bs, _ = base.seed_values(part)
        shared[part] = sorted(set(cs) & set(bs), key=lambda s: (str(type(s)), s))
    part = "test" if len(shared["test"]) >= 2 else "validation"
    return part, shared[part]


def seed_section(project: Project, cand: ModelRuns, base: ModelRuns) -> tuple[dict, list[Problem]]:
    """noise.seed: the seed rule on the part both models have seeds for, and the paired analysis;
    with a warning when seeds_paired leaves seed labels without a partner."""
    cfg = project.config
    warnings = []
    part = seed_part(cand, base)
    cs, cv = cand.seed_values(part)
    bs, bv = base.seed_values(part)
    out = seed_rule(
        cv,
        bv,
        higher_is_better=cfg.higher_is_better,
        multiple=cfg.seed_sd_multiple,
        sd_from=cfg.seed_sd_from,
    )
    out["part"] = part
    out["sd_from"] = _sd_source(cfg.seed_sd_from, out)
    out["values"] = {
        mr.role: [
            {"seed": s.seed, "value": v, "source": src}
            for s in mr.seeds
            for v, src in [
                (s.val_value, s.val_source)
                if part == "validation"
                else (s.test_value, s.test_source)
            ]
            if v is not None
        ]
        for mr in (cand, base)
    }
    out["left_out"] = cand.left_out + base.left_out
    # how many networks each line rests on (validation-only seeds are normal)
    out["test_networks"] = {
        mr.role: sum(1 for s in mr.seeds if s.test_pred is not None) for mr in (cand, base)
    }
    paired = {
        "n": None,
        "mean": None,
        "sd": None,
        "low": None,
        "high": None,
        "p": None,
        "part": None,
        "seeds": [],
        "unpaired": None,
        "reason": None,
    }
    if cfg.seeds_paired:
        ppart, common = _paired_part(cand, base)
        ct, ctv = cand.seed_values(ppart)
        bt, btv = base.seed_values(ppart)
        ci = dict(zip(ct, ctv, strict=True))
        bi = dict(zip(bt, btv, strict=True))
        unpaired = {
            "candidate": sorted(set(ct) - set(common), key=str),
            "baseline": sorted(set(bt) - set(common), key=str),
        }
        if unpaired["candidate"] or unpaired["baseline"]:
            warnings.append(
                Problem(
                    f"seeds_paired: seeds pair by label; on {ppart} {len(common)} label(s) are shared "
                    f"and these have no partner: {_seed_list(unpaired, cand.name, base.name)}",
                    project.runs_name,
                    slug="unpaired-seeds",
                    severity="warning",
                )
            )
        res = paired_seeds(
            np.array([ci[s] for s in common]),
            np.array([bi[s] for s in common]),
            higher_is_better=cfg.higher_is_better,
            confidence=cfg.confidence,
        )
        paired = {
            **{k: res.get(k) for k in ("n", "mean", "sd", "low", "high", "p", "reason")},
            "part": ppart,
            "seeds": common,
            "unpaired": unpaired,
        }
    out["paired"] = paired
    return out, warnings


def _seed_list(unpaired: dict, cand: str, base: str) -> str:
    parts = []
    for role, name in (("candidate", cand), ("baseline", base)):
        if unpaired[role]:
            parts.append(f"{name} seeds {', '.join(str(s) for s in unpaired[role])}")
    return "; ".join(parts)


def _sd_source(sd_from: str, seed: dict) -> str | None:
    """Which model's sd the rule used (after the deterministic-model substitution)."""
    if seed.get("sd_used") is None:
        return None
    sd = seed["sd"]
    if sd_from != "larger":
        other = "baseline" if sd_from == "candidate" else "candidate"
        return sd_from if sd.get(sd_from) == seed["sd_used"] else other
    return "candidate" if (sd["candidate"] or 0) >= (sd["baseline"] or 0) else "baseline"


def _block_noise(project: Project, ev: EvalData, mask, seeds_paired: bool, pairs=None) -> dict:
    """noise.block statistics on the rows under ``mask`` (all rows when None), the project's rule."""
    cfg = project.config
    C, n, _ = ev.block_sums("candidate", mask)
    B, _, _ = ev.block_sums("baseline", mask)
    return block_noise(
        C,
        B,
        candidate_seeds=ev.seeds["candidate"],
        higher_is_better=cfg.higher_is_better,
        resamples=cfg.resamples,
        confidence=cfg.confidence,
        rng=np.random.default_rng(cfg.random_seed),
        seeds_paired=seeds_paired,
        counts=n,
        pairs=pairs,
    )


def seed_pairs(ev: EvalData) -> list[tuple[int, int]]:
    """(candidate row, baseline row) of each seed label both models have test predictions for."""
    bpos = {s: j for j, s in enumerate(ev.seeds["baseline"])}
    return [(i, bpos[s]) for i, s in enumerate(ev.seeds["candidate"]) if s in bpos]


def block_section(project: Project, ev: EvalData | None, seed: dict | None = None) -> dict | None:
    if ev is None:
        return None
    cfg = project.config
    out = _block_noise(
        project, ev, None, cfg.seeds_paired, seed_pairs(ev) if cfg.seeds_paired else None
    )
    out["block_column"] = ev.block_column
    out["block_kind"] = cfg.block_kind
    out["rows"] = int(len(ev.row_ids))
    out["networks"] = {k: len(v) for k, v in ev.seeds.items()}
    # the test gap in seed sd (the seed line's sd), beside the block line
    sd = (seed or {}).get("sd_used")
    out["gap_in_seed_sd"] = (
        out["gap"] / sd
        if sd and out.get("gap") is not None and not (seed or {}).get("trivial")
        else None
    )
    return out


def _seed_line(project: Project, seed: dict, cand: ModelRuns, base: ModelRuns) -> str:
    cfg = project.config
    unit = cfg.metric.replace("_", " ")
    part = seed.get("part", "validation")
    level = "" if part == "validation" else " measured on test seeds (a test-level number):"
    n_c, n_b = seed["n"]["candidate"], seed["n"]["baseline"]
    head = f"Seed spread (retraining):{level}"
    if seed.get("trivial"):
        s1 = (
            f"{head} the {part} gap is {num(seed.get('validation_gap'))} {unit}; both models have zero "
            f"seed spread over {n_c} and {n_b} seeds (deterministic training), so the seed rule is "
            f"trivially {'met' if seed['passes'] else 'failed (the gap is not positive)'} and the "
            "evaluation line carries the decision."
        )
    elif seed.get("gap_in_sd") is None:
        s1 = (
            f"{head} not measured: {seed.get('reason') or 'fewer than 2 seeds'} "
            f"({plural(n_c, cand.name + ' seed')}, {plural(n_b, base.name + ' seed')}); the {part} gap is "
            f"{num(seed.get('validation_gap'))} {unit}."
        )
    else:
        who = {"candidate": cand.name, "baseline": base.name}
        src = seed.get("sd_from") or "candidate"
        s1 = (
            f"{head} the {part} gap is {num(seed['validation_gap'])} {unit}, "
            f"{num(seed['gap_in_sd'], 2)} seed sd (sd {num(seed['sd_used'])} over {seed['n'][src]} {who[src]} "
            f"seeds{', the larger' if cfg.seed_sd_from == 'larger' and not seed.get('note') else ''}); "
            f"the rule needs more than {num(cfg.seed_sd_multiple)}, so it "
            f"{'passes' if seed['passes'] else 'fails'}; "
            f"{seed['seeds_beating_baseline']} of {n_c} {cand.name} seeds beat the {base.name} mean."
        )
    if seed.get("note"):
        s1 += f" Note: {seed['note']}."
    if n_c != n_b:
        s1 += (
            f" The means compare {plural(n_c, cand.name + ' seed')} with "
            f"{plural(n_b, base.name + ' seed')}."
        )
    if seed.get("left_out"):
        s1 += f" {plural(len(seed['left_out']), 'run row')} left out (listed in the appendix)."
    p = seed["paired"]
    if p.get("low") is not None:
        s1 += (
            f" Paired by seed label ({p['part']}): mean difference {num(p['mean'])}, "
            f"{pct(cfg.confidence)} t interval {interval(p['low'], p['high'])} over "
            f"{plural(p['n'], 'seed pair')}."
        )
    elif cfg.seeds_paired and p.get("reason"):
        s1 += f" Paired by seed label: no interval ({p['reason']})."
    return s1


def lines(
    project: Project, seed: dict, block: dict | None, cand: ModelRuns, base: ModelRuns
) -> tuple[list, list]:
    """The two noise sentences and what each covers."""
    cfg = project.config
    unit = cfg.metric.replace("_", " ")
    s1 = _seed_line(project, seed, cand, base)
    head = "Block bootstrap (which blocks were sampled, one trained network):"
    if block is None:
        s2 = (
            f"{head} not computed: there are no per-row test predictions for both models, so "
            "evaluation noise is unmeasured"
            + (
                " and rung 3 rests on the paired seed interval."
                if seed["paired"].get("low") is not None
                else "."
            )
        )
    elif block.get("low") is None:
        s2 = (
            f"{head} the test gap is {num(block.get('gap'))} {unit} over "
            f"{blocks_phrase(block['blocks'], cfg.block)}, but there is no interval: "
            f"{block.get('reason') or 'fewer than 2 blocks'}."
        )
    else:
        what = blocks_phrase(block["blocks"], cfg.block)
        t, bs = block["t"], block["bootstrap"]
        nets = block.get("networks") or {}
        seeds_txt = (
            f"seed-averaged over {nets.get('candidate')} and {nets.get('baseline')} networks"
            if nets and (nets.get("candidate", 1) > 1 or nets.get("baseline", 1) > 1)
            else "one network per model"
        )
        s2 = (
            f"{head} the test gap is {num(block['gap'])} {unit} (row-weighted over {block['rows']} rows, "
            f"{seeds_txt}), {pct(cfg.confidence)} interval {interval(block['low'], block['high'])} over "
            f"{what}, the wider of the bootstrap ({interval(bs['low'], bs['high'])}, "
            f"{block['resamples']} resamples) and the paired t ({interval(t['low'], t['high'])}, "
            f"{p_text(t['p'])})."
        )
        if block.get("gap_in_seed_sd") is not None:
            s2 += f" The test gap is {num(block['gap_in_seed_sd'], 2)} seed sd."
    blocks_word = noun_plural(cfg.block) if cfg.block else "rows"
    covers = [
        "Seed spread covers retraining: how much the result moves when the same model is trained "
        "again with another seed. It says nothing about which evaluation rows happened to be sampled.",
        f"The block bootstrap covers the evaluation sample: which {blocks_word} happened to be in the "
        "test set, for the networks as trained (seed-averaged). It says nothing about retraining; the "
        "per-network intervals and the two-level interval show that.",
    ]
    return [s1, s2], covers


def not_worse_margin(project: Project) -> float | None:
    """How much worse a required slice may be and still count as not worse."""
    cfg = project.config
    return cfg.not_worse_margin if cfg.not_worse_margin is not None else cfg.min_useful_effect


def slices_section(project: Project, ev: EvalData | None) -> list[dict] | None:
    """Per-slice gap with its interval (the block rule). A required slice is "not worse" only when
    its interval's worse end stays within the margin (non-inferiority): no interval, no pass."""
    cfg = project.config
    if ev is None or ev.slices is None:
        return None
    margin = not_worse_margin(project)
    out = []
    for name in map(str, np.unique(ev.slices)):  # sorted, without a Python string per row
        mask = ev.slices == name
        res = _block_noise(project, ev, mask, False)
        out.append(_slice_entry(name, int(mask.sum()), res, name in cfg.not_worse_on, margin))
    for name in cfg.not_worse_on:
        if name not in {s["slice"] for s in out}:
            out.append(_slice_entry(name, 0, None, True, margin))
    return out


def _slice_entry(name: str, rows: int, res: dict | None, required: bool, margin) -> dict:
    low = res["low"] if res else None
    high = res["high"] if res else None
    if res is None:
        reason = "no test rows in this slice"
    elif low is None:
        reason = f"no interval ({res.get('reason') or 'too few blocks'})"
    elif margin is None:
        reason = "no not_worse_margin (or min_useful_effect) fixed: non-inferiority has no bar"
    elif low >= -margin:
        reason = None
    else:
        reason = f"the interval's worse end {num(low)} is beyond the margin -{num(margin)}"
    return {
        "slice": name,
        "rows": rows,
        "blocks": res["blocks"] if res else 0,
        "gap": res["gap"] if res else None,
        "low": low,
        "high": high,
        "primary": res["primary"] if res else None,
        # worse: shown worse (interval wholly below 0); None when there is no interval
        "worse": None if low is None else bool(high < 0),
        "required": required,
        "margin": margin,
        # not_worse: shown within the margin (non-inferiority); False when not shown
        "not_worse": reason is None,
        "not_worse_reason": reason,
    }


def budget_section(
    project: Project, seed: dict, block: dict | None
) -> tuple[dict | None, str | None]:
    """noise.budget: Var(gap) ~ s_seed^2 / S + s_block^2 / B with the planning figures, or
    (None, reason)."""
    from reportgen.stats import budget as bd

    cfg = project.config
    S = min(seed["n"]["candidate"], seed["n"]["baseline"])
    sd = seed.get("sd_used")
    if sd is None or S < 2:
        return None, "fewer than 2 seeds on a side: the seed term of the budget is unknown"
    if block is None:
        return None, "no per-row test predictions: the block term of the budget is unknown"
    B = block.get("blocks") or 0
    se = (block.get("t") or {}).get("se")
    if B < 2 or se is None or block.get("gap") is None:
        return None, "fewer than 2 blocks: the block term of the budget is unknown"
    out = bd.budget(
        seed_sd=sd,
        n_seeds=S,
        block_var_of_gap=se**2,
        n_blocks=B,
        gap=block["gap"],
        confidence=cfg.confidence,
        min_useful_effect=cfg.min_useful_effect,
    )
    out["seed_part"] = seed.get("part", "validation")
    out["seed_sd_interval"] = bd.sd_interval(
        sd, seed["n"].get(seed.get("sd_from") or "candidate") or S, cfg.confidence
    )
    two = block.get("two_level") or {}
    out["two_level_half_width"] = (
        (two["high"] - two["low"]) / 2 if two.get("low") is not None else None
    )
    nets = block.get("networks") or {}
    out["test_networks"] = min(nets.values()) if nets else None
    out["line"] = budget_line(project, out, block)
    if out["test_networks"] is not None and out["test_networks"] < S:
        out["line"] += (
            f" Today's test gap rests on {out['test_networks']} network(s) per model, not {S}: the "
            f"seed term describes a gap averaged over {S} seeds per model and understates the "
            "retraining noise of today's gap."
        )
    return out, None


def budget_line(project: Project, b: dict, block: dict) -> str:
    """The third, model-based line: both sources in one interval, beside the two measured ones."""
    cfg = project.config
    unit = cfg.metric.replace("_", " ")
    what = blocks_phrase(b["B"], cfg.block)
    lo, hi = b["combined"]["low"], b["combined"]["high"]
    s = (
        f"Both sources (model-based): gap {num(block['gap'])} {unit} plus or minus "
        f"{num(b['half_width'], 2)}, {interval(lo, hi)}: seed term {num(b['seed_term'], 2)} "
        f"({num(b['seed_sd'])}^2 / {b['S']} seeds"
        + (", validation sd" if b["seed_part"] == "validation" else ", test sd")
        + f") and block term {num(b['block_term'], 2)} (over {what}); the seed share is "
        + (f"{b['seed_share'] * 100:.0f}%" if b["seed_share"] is not None else "n/a")
        + "."
    )
    hw2 = b.get("two_level_half_width")
    if hw2:
        ratio = b["half_width"] / hw2
        if abs(ratio - 1) > 0.25:
            s += (
                f" The two-level bootstrap's half-width is {num(hw2, 2)}: the model-based one is "
                f"{pct(abs(ratio - 1))} {'wider' if ratio > 1 else 'narrower'}, so trust the measured one."
            )
    return s


def plan_sentence(project: Project, budget: dict | None) -> str | None:
    """The reconsider-when sentence from the planner, or None when it has nothing to add."""
    if not budget:
        return None
    cfg = project.config
    p = budget["planning"]
    S, B = budget["S"], budget["B"]
    gap = p["gap"]
    word = noun_plural(cfg.block) if cfg.block else "test rows"
    now = f"now {S} seeds, {B} {word}"
    if gap <= 0:
        return None
    both = p.get("both_needed")
    if both and (both["S"], both["B"]) != (S, B):
        s = (
            f"with {both['S']} seeds and {both['B']} {word} the interval would exclude zero if the gap "
            f"stays at {num(gap)} ({now}; a planning estimate from the variance budget)"
        )
        return s
    return None
