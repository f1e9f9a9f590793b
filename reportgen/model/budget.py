"""report.json ``noise.budget`` and ``noise.clipping``: the noise budget and log-loss clipping."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Missing, Model, key
from reportgen.model.common import Bounds, IntPair, MaybeBounds


@dataclass(frozen=True, slots=True)
class BothNeeded(Model):
    """Seeds and blocks both scaled by one factor to settle the claim."""

    S: int = key("seeds")
    B: int = key("blocks")
    scale: float = key("the factor both grow by (1: today's suffice)")


@dataclass(frozen=True, slots=True)
class GridPoint(Model):
    """One point of the planning grid: seeds, blocks and the half-width they give."""

    S: int = key("seeds")
    B: int = key("blocks")
    half_width: float = key("the half-width they give")


@dataclass(frozen=True, slots=True)
class Planning(Model):
    """``noise.budget.planning``: what more seeds or blocks would settle the claim."""

    gap: float = key("the gap to settle")
    seeds_needed: int | None = key("seeds needed to exclude zero, or null")
    blocks_needed: int | None = key("blocks needed to exclude zero, or null")
    both_needed: BothNeeded | None = key("both scaled to exclude zero, or null")
    reason: str | None = key("why none is needed or possible, or null")
    seeds_needed_useful: int | None = key("seeds needed to reach the useful effect, or null")
    blocks_needed_useful: int | None = key("blocks needed to reach the useful effect, or null")
    reason_useful: str | None = key("why none is needed or possible for the useful effect, or null")
    grid: tuple[GridPoint, ...] = key("half-widths for more seeds and blocks")
    both_needed_useful: BothNeeded | None | Missing = key(
        "the seeds and blocks both scaled to reach the useful effect; absent without one"
    )
    impractical_text: str | None = key("when impractical, the sentence saying so; else null")
    impractical: bool = key("both_needed asks for more than 4 times today's seeds and blocks")
    seeds_needed_tie: int | None | Missing = key(
        "seeds needed for the interval to lie inside plus or minus the useful effect (a tie), "
        "or null; absent without a positive useful effect"
    )
    blocks_needed_tie: int | None | Missing = key(
        "blocks needed for a tie, or null; absent without a positive useful effect"
    )
    reason_tie: str | None | Missing = key(
        "why no count can show a tie, or null; absent without a positive useful effect"
    )


@dataclass(frozen=True, slots=True)
class Budget(Model):
    """``noise.budget``: the noise budget, seed and block terms of the interval (a planning model)."""

    seed_term: float = key("the seed variance term")
    block_term: float = key("the block variance term")
    total: float = key("their sum")
    seed_share: float = key("the seed term's share of the total")
    S: int = key("seeds today")
    B: int = key("blocks today")
    seed_sd: float = key("the seed sd")
    block_sd: float = key("the block sd")
    z: float = key("the normal quantile of the confidence")
    half_width: float = key("the model-based half-width")
    combined: Bounds = key("the gap plus and minus the half-width")
    planning: Planning = key("what more seeds or blocks would do")
    seed_part: str = key("where the seed sd was measured")
    seed_sd_interval: MaybeBounds = key(
        "the seed sd's interval (null ends with fewer than 2 seeds)"
    )
    two_level_half_width: float | None = key("the two-level interval's half-width, or null")
    test_networks: int | None = key("the fewest test networks of a model, or null")
    line: str = key("the Both sources (model-based) sentence")


@dataclass(frozen=True, slots=True)
class Clipping(Model):
    """``noise.clipping``: log-loss rows clipped at p = 0 or 1 and whether they move the gap."""

    eps: float = key("the clip")
    clipped_loss: float = key("the loss of a clipped row: -ln(eps)")
    rows: IntPair = key("test rows per model that hit the clip in at least one network")
    rows_total: int = key("test rows")
    rows_without: int = key("rows neither model clipped")
    gap: float = key("the test gap")
    gap_without: float | None = key("the gap on rows neither model clipped, or null")
    change: float | None = key("how far the clipped rows move the gap, or null")
    interval_width: float | None = key("the primary interval's width, or null")
    matters: bool = key("the change exceeds a tenth of the interval width")
    text: str | None = key("the sentence the noise section shows when it matters, else null")
