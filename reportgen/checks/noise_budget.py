"""noise.budget's figures as report.json has them, from the statistics' variance budget."""

from __future__ import annotations

from collections.abc import Callable

from reportgen.checks.reasons import sentence
from reportgen.stats.budget import Budget, Plan
from reportgen.stats.results import Reason


def plan_reason(plan: Plan, what: str, number: Callable[[float], str]) -> str | None:
    """Why a plan has no count (``what``: the plan's target in words; ``number`` prints a
    half-width), the reasons joined by "; "; None when every count is there."""
    words = []
    for reason in plan.reasons:
        if reason is Reason.GAP_NOT_ABOVE_TARGET:
            words.append(sentence(reason, what=what))
        elif reason is Reason.SEEDS_ALONE_CANNOT:
            words.append(sentence(reason, width=number(plan.block_alone)))
        else:
            words.append(sentence(reason, width=number(plan.seed_alone)))
    return "; ".join(w for w in words if w) or None


def _both(plan: Plan) -> dict | None:
    both = plan.both_needed
    return None if both is None else {"S": both.S, "B": both.B, "scale": both.scale}


def budget_dict(res: Budget, number: Callable[[float], str]) -> dict:
    """noise.budget's figures and planning (before the checks' lines and notes are added)."""
    plan, useful = res.plan, res.plan_useful
    planning = {
        "gap": res.gap,
        "seeds_needed": plan.seeds_needed,
        "blocks_needed": plan.blocks_needed,
        "both_needed": _both(plan),
        "reason": plan_reason(plan, "zero", number),
        "seeds_needed_useful": None if useful is None else useful.seeds_needed,
        "blocks_needed_useful": None if useful is None else useful.blocks_needed,
        "reason_useful": None
        if useful is None
        else plan_reason(useful, "the useful effect", number),
        "grid": [{"S": g.S, "B": g.B, "half_width": g.half_width} for g in res.grid],
    }
    if useful is not None:
        planning["both_needed_useful"] = _both(useful)
    return {
        "seed_term": res.seed_term,
        "block_term": res.block_term,
        "total": res.total,
        "seed_share": res.seed_share,
        "S": res.S,
        "B": res.B,
        "seed_sd": res.seed_sd,
        "block_sd": res.block_sd,
        "z": res.z,
        "half_width": res.half_width,
        "combined": {"low": res.combined.low, "high": res.combined.high},
        "planning": planning,
    }
