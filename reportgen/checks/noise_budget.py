"""noise.budget as report.json has it: the statistics' variance budget, its planning and the
Both sources (model-based) line."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import cast

from reportgen.checks.noise_lines import budget_line, impractical_text, repeat_words, test_decimals
from reportgen.checks.reasons import sentence
from reportgen.model.base import MISSING
from reportgen.model.block import BlockNoise
from reportgen.model.budget import BothNeeded, Budget, GridPoint, Planning
from reportgen.model.common import Bounds, MaybeBounds
from reportgen.model.seed import SeedNoise
from reportgen.project import Project
from reportgen.stats import budget as bd
from reportgen.stats.budget import Plan
from reportgen.stats.results import Reason
from reportgen.words import count, count_noun, fixed, given
from reportgen.words.i18n import _


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


def _tie_reason(
    project: Project, tie: Plan, gap: float, number: Callable[[float], str]
) -> str | None:
    """Why no count of seeds or blocks shows a tie: the gap is not inside the useful effect's
    band, or one term alone is too wide; None when every count is there."""
    if Reason.GAP_NOT_ABOVE_TARGET in tie.reasons:
        m = given(project.config.min_useful_effect, project.config.metric_unit)
        return _(
            "the gap's size {size} reaches the useful effect {effect}: more seeds or blocks "
            "cannot show a tie",
            size=number(abs(gap)),
            effect=m,
        )
    return plan_reason(tie, "", number)


def _both(plan: Plan) -> BothNeeded | None:
    """The seeds and blocks both scaled by one factor, as report.json has them."""
    both = plan.both_needed
    return None if both is None else BothNeeded(S=both.S, B=both.B, scale=both.scale)


def planning(project: Project, res: bd.Budget, number: Callable[[float], str]) -> Planning:
    """noise.budget.planning: what more seeds or blocks would settle the claim (``number``
    prints a half-width), with the sentence when the both-scaled plan is impractical."""
    plan, useful, tie = res.plan, res.plan_useful, res.plan_tie
    both = _both(plan)
    impractical = impractical_text(project, both)
    return Planning(
        gap=res.gap,
        seeds_needed=plan.seeds_needed,
        blocks_needed=plan.blocks_needed,
        both_needed=both,
        # TRANSLATORS: what the gap is not above: "the gap is not above zero"
        reason=plan_reason(plan, _("zero"), number),
        seeds_needed_useful=None if useful is None else useful.seeds_needed,
        blocks_needed_useful=None if useful is None else useful.blocks_needed,
        reason_useful=None
        if useful is None
        # TRANSLATORS: what the gap is not above: "the gap is not above the useful effect"
        else plan_reason(useful, _("the useful effect"), number),
        grid=tuple(GridPoint(S=g.S, B=g.B, half_width=g.half_width) for g in res.grid),
        both_needed_useful=MISSING if useful is None else _both(useful),
        impractical_text=impractical,
        impractical=impractical is not None,
        seeds_needed_tie=MISSING if tie is None else tie.seeds_needed,
        blocks_needed_tie=MISSING if tie is None else tie.blocks_needed,
        reason_tie=MISSING if tie is None else _tie_reason(project, tie, res.gap, number),
    )


def budget_section(
    project: Project, seed: SeedNoise, block: BlockNoise | None
) -> tuple[Budget | None, str | None]:
    """noise.budget: Var(gap) ~ s_seed^2 / S + s_block^2 / B with the planning figures, or
    (None, reason)."""
    cfg = project.config
    S = min(seed.n.candidate, seed.n.baseline)
    sd = seed.sd_used
    if sd is None or S < 2:
        return None, _("fewer than 2 seeds on a side: the seed term of the budget is unknown")
    if block is None:
        return None, _("no per-row test predictions: the block term of the budget is unknown")
    B = block.blocks
    se = block.t.se
    if B < 2 or se is None or block.gap is None:
        return None, _("fewer than 2 blocks: the block term of the budget is unknown")
    res = bd.budget(
        seed_sd=sd,
        n_seeds=S,
        block_var_of_gap=se**2,
        n_blocks=B,
        gap=block.gap,
        confidence=cfg.confidence,
        min_useful_effect=cfg.min_useful_effect,
    )
    sd_iv = bd.sd_interval(sd, getattr(seed.n, seed.sd_from or "candidate") or S, cfg.confidence)
    two = block.two_level
    nets = min(block.networks.candidate, block.networks.baseline)
    budget = Budget(
        seed_term=res.seed_term,
        block_term=res.block_term,
        total=res.total,
        # the model states the share: both terms zero fail the report's validation
        seed_share=cast(float, res.seed_share),
        S=res.S,
        B=res.B,
        seed_sd=res.seed_sd,
        block_sd=res.block_sd,
        z=res.z,
        half_width=res.half_width,
        # a budget always has its combined interval
        combined=Bounds(low=cast(float, res.combined.low), high=cast(float, res.combined.high)),
        # the half-width's decimals are the test gap's
        planning=planning(project, res, lambda v: fixed(v, test_decimals(block))),
        seed_part=seed.part,
        seed_sd_interval=MaybeBounds(low=sd_iv.low, high=sd_iv.high),
        two_level_half_width=(two.high - two.low) / 2
        if two.low is not None and two.high is not None
        else None,
        test_networks=nets,
        line="",
    )
    line = budget_line(project, budget, block)
    if nets < S:
        line += _(
            " Today's test gap rests on {nets} per model, not {n}: the seed term describes a gap "
            "averaged over {seeds} per model and understates the {noise} of today's gap.",
            nets=count_noun(nets, repeat_words(cfg).unit),
            n=count(S),
            seeds=count_noun(S, "seed"),
            noise=repeat_words(cfg).noise,
        )
    return replace(budget, line=line), None
