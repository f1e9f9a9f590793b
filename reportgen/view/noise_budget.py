"""Is it larger than noise, the model-based part: the variance budget's line, its rows (the
seed and block terms, the plans) and its chart."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from reportgen.model import Report
from reportgen.model.base import Missing
from reportgen.model.budget import Budget
from reportgen.model.common import MaybeBounds
from reportgen.view.parts import (
    Row,
    as_sentence,
    chart_figure,
    in_words,
)
from reportgen.words import count_noun, decimals, gap_decimals
from reportgen.words.cells import (
    DASH,
    count,
    fixed,
    pct,
    spread,
    variance,
)
from reportgen.words.i18n import _, current, p_


def budget_part(report: Report, charts: Collection[str]) -> dict[str, Any]:
    """The variance budget: both terms, the plan, the seed sd's interval, and its chart."""
    noise = report.noise
    b = noise.budget
    if not isinstance(b, Budget):
        return {
            "budget_line": None,
            "budget_rows": [],
            "budget_figure": None,
            "budget_reason": noise.budget_reason or None,
        }
    plan = b.planning
    both = plan.both_needed
    # the test gap's decimals (its primary interval's), as the noise lines print the budget
    block = noise.block
    d = (
        gap_decimals(block.gap, block.low, block.high)
        if block is not None
        else gap_decimals(None, None, None)
    )
    column = report.data.block_column
    # the tie row's subject: English names the column as written (or "block")
    if current() == "en":
        blocks = column or "block"
    else:
        blocks = _("blocks '{name}'", name=column) if column else p_("a plan's count", "blocks")
    both_text = DASH
    if both:
        both_text = _(
            "{seeds} and {blocks}", seeds=count_noun(both.S, "seed"), blocks=_blocks(both.B, column)
        )
        if plan.impractical_text:
            both_text = _("{plan}: {why}", plan=both_text, why=plan.impractical_text)
    rows = [
        Row(_("seed term (sd² / S)"), f"{variance(b.seed_term)} ({count_noun(b.S, 'seed')})"),
        Row(_("block term (sd² / B)"), f"{variance(b.block_term)} ({_blocks(b.B, column)})"),
        Row(_("seed share"), pct(b.seed_share)),
        Row(_("combined half-width (model-based)"), fixed(b.half_width, d)),
        Row(
            _("seed sd, 95% interval (chi-square)")
            if abs(float(report.build.confidence or 0.95) - 0.95) < 1e-9
            else _("seed sd interval (chi-square)"),
            f"{spread(b.seed_sd)}: {_sd_interval(b.seed_sd, b.seed_sd_interval)}",
        ),
        # the interval's planning, not the seed rule's: "seeds needed 2" beside a failed seed
        # rule read as "2 seeds would pass the rule"
        Row(
            _("seeds for the interval to exclude zero, blocks fixed"),
            _now(plan.seeds_needed, b.S),
        ),
        Row(
            _("blocks for the interval to exclude zero, seeds fixed"),
            _now(plan.blocks_needed, b.B),
        ),
        *_tie_rows(b, blocks, report),
        Row(_("both scaled together"), both_text),
    ]
    figure = chart_figure(
        charts,
        "budget",
        _(
            "What it would take: the two variance terms of the gap, and the predicted "
            "half-width of the interval as seeds or blocks grow. Below the dashed line (today's "
            "gap) the interval would exclude zero, if the gap stays put. A planning model, not a "
            "measurement."
        ),
        _(
            "Stacked bar: seed term {seed_term}, block term {block_term}. Line chart: predicted "
            "half-width from {half_width} today against multiples of {seeds} seeds and of "
            "{blocks} blocks; today's gap {gap}.",
            seed_term=variance(b.seed_term),
            block_term=variance(b.block_term),
            half_width=fixed(b.half_width, d),
            seeds=count(b.S),
            blocks=count(b.B),
            gap=fixed(abs(plan.gap or 0.0), d),
        ),
    )
    return {
        "budget_line": in_words(b.line or "", report),
        "budget_rows": rows,
        "budget_figure": figure,
        "budget_reason": as_sentence(in_words(plan.reason, report)) if plan.reason else None,
    }


def _blocks(n: int | None, column: str | None) -> str:
    """A count of blocks named by their column, as the budget rows print it: "30 weeks"."""
    return DASH if n is None else count_noun(n, column or "block")


def _now(needed: int | None, now: int | None) -> str:
    """A planned count beside today's: "12 (now 5)"; "not reachable" without a plan."""
    if not needed:
        return _("not reachable")
    return _("{needed} (now {now})", needed=count(needed), now=count(now))


def _tie_rows(b: Budget, blocks: str, report: Report) -> list[Row]:
    """The plan towards a tie (the interval inside plus or minus the useful effect), when the
    project fixes a positive one: the counts, or why none can show it."""
    plan = b.planning
    seeds, blocks_n = plan.seeds_needed_tie, plan.blocks_needed_tie
    if isinstance(seeds, Missing) or isinstance(blocks_n, Missing):
        return []
    reason = plan.reason_tie if isinstance(plan.reason_tie, str) else None
    if seeds is None and blocks_n is None:
        return [Row(_("seeds or blocks for a tie"), in_words(reason, report) if reason else DASH)]
    return [
        Row(_("seeds for a tie (inside the useful effect), blocks fixed"), _now(seeds, b.S)),
        Row(_("{blocks} for a tie, seeds fixed", blocks=blocks), _now(blocks_n, b.B)),
    ]


def _sd_interval(sd: float | None, sdi: MaybeBounds) -> str:
    """The seed sd's interval: both ends with one decimal count (3 figures of the wider end)."""
    low, high = sdi.low, sdi.high
    if low is None or high is None:
        return DASH
    d = decimals(sd, low, high)
    return _("{low} to {high}", low=fixed(low, d), high=fixed(high, d))
