"""noise.block, the evaluation line's figures: the block bootstrap and ratio t on the test rows,
the per-seed and two-level intervals, with their reasons in words."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

import numpy as np

from reportgen.checks.evaluation import EvalData
from reportgen.checks.noise_lines import repeat_words
from reportgen.checks.reasons import sentence, t_test
from reportgen.model.block import BlockNoise as BlockModel
from reportgen.model.block import Distribution, SeedGap, Welch
from reportgen.model.block import TwoLevel as TwoLevelModel
from reportgen.model.common import IntPair, MaybeBounds, TTest
from reportgen.model.seed import SeedNoise
from reportgen.project import Project
from reportgen.stats.blocks import BlockNoise as BlockStats
from reportgen.stats.blocks import TwoLevel, block_noise
from reportgen.stats.results import Reason
from reportgen.words import count, count_noun, sig
from reportgen.words.i18n import _, n_

#: below this many blocks the percentile bootstrap undercovers (docs/methods.md, section 3)
FEW_BLOCKS = 30


def block_stats(
    project: Project,
    ev: EvalData,
    mask: np.ndarray | None,
    seeds_paired: bool,
    pairs: list[tuple[int, int]] | None = None,
) -> BlockStats:
    """The block statistics on the rows under ``mask`` (all rows when None), the project's rule."""
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


def block_model(
    res: BlockStats,
    *,
    rows: int,
    block_column: str | None,
    block_kind: str,
    networks: IntPair,
    gap_in_seed_sd: float | None,
) -> BlockModel:
    """noise.block from the statistics, the reasons in words, with the fields of the evaluation
    data: its rows, block column and kind, the networks per model and the test gap in the seed
    line's sd."""
    two = res.two_level
    dist = res.distribution
    bootstrap = MaybeBounds(low=res.bootstrap.low, high=res.bootstrap.high)
    t = t_test(res.t)
    return BlockModel(
        blocks=res.blocks,
        rows=rows,
        gap=res.gap,
        low=res.low,
        high=res.high,
        confidence=res.confidence,
        resamples=res.resamples,
        primary=res.primary,
        primary_reason=primary_reason(res.primary, res.blocks, bootstrap, t),
        bootstrap=bootstrap,
        t=t,
        welch=Welch(
            se=res.welch.se, p=res.welch.p, low=res.welch.low, high=res.welch.high, df=res.welch.df
        ),
        per_seed=tuple(
            SeedGap(seed=p.seed, gap=p.gap, low=p.low, high=p.high, primary=p.primary)
            for p in res.per_seed
        ),
        two_level=TwoLevelModel(
            low=two.low,
            high=two.high,
            paired=two.paired,
            seeds=IntPair(candidate=two.seeds.candidate, baseline=two.seeds.baseline),
            reason=sentence(two.reason, **_two_level_numbers(two)),
        ),
        excludes_zero=res.excludes_zero,
        distribution=None
        if dist is None
        else Distribution(edges=tuple(dist.edges), counts=tuple(dist.counts)),
        reason=sentence(res.reason),
        block_column=block_column,
        block_kind=block_kind,
        networks=networks,
        gap_in_seed_sd=gap_in_seed_sd,
    )


def _two_level_numbers(two: TwoLevel) -> dict[str, int | None]:
    """The numbers the two-level interval's reason code says."""
    if two.reason is Reason.SEEDS_UNSHARED:
        return {"shared": two.shared}
    if two.reason is Reason.COARSE_SEED_LEVEL:
        return {"fewest": two.fewest}
    return {}


def primary_reason(
    primary: str | None, blocks: int, bootstrap: MaybeBounds, t: TTest | MaybeBounds
) -> str | None:
    """Why the primary interval of a ``noise.block`` is the one it is: the two widths at 3
    significant figures; None when there is no primary interval."""
    if primary is None:
        return None
    widths = {k: _width(iv) for k, iv in (("bootstrap", bootstrap), ("t", t))}
    text = _(
        "the wider of the two: bootstrap width {bootstrap}, t width {t}",
        bootstrap=sig(widths["bootstrap"]),
        t=sig(widths["t"]),
    )
    if blocks < FEW_BLOCKS:
        text += _(
            " ({n} blocks: the percentile bootstrap undercovers)",
            n=count(blocks),
        )
    return text


def _width(iv: TTest | MaybeBounds) -> float:
    """The width of an interval the primary one was chosen from (both ends are there)."""
    return cast(float, iv.high) - cast(float, iv.low)


def seed_pairs(ev: EvalData) -> list[tuple[int, int]]:
    """(candidate row, baseline row) of each seed label both models have test predictions for."""
    bpos = {s: j for j, s in enumerate(ev.seeds["baseline"])}
    return [(i, bpos[s]) for i, s in enumerate(ev.seeds["candidate"]) if s in bpos]


def block_section(
    project: Project, ev: EvalData | None, seed: SeedNoise | None = None
) -> BlockModel | None:
    """noise.block: the block bootstrap and ratio t on the test rows, with the two-level note
    and the test gap in the seed line's sd; None without per-row test predictions."""
    if ev is None:
        return None
    cfg = project.config
    res = block_stats(
        project, ev, None, cfg.seeds_paired, seed_pairs(ev) if cfg.seeds_paired else None
    )
    sd = seed.sd_used if seed is not None else None
    block = block_model(
        res,
        rows=int(len(ev.row_ids)),
        block_column=ev.block_column,
        block_kind=cfg.block_kind,
        networks=IntPair(candidate=len(ev.seeds["candidate"]), baseline=len(ev.seeds["baseline"])),
        # the test gap in seed sd (the seed line's sd), beside the block line
        gap_in_seed_sd=res.gap / sd
        if sd and res.gap is not None and not (seed is not None and seed.trivial)
        else None,
    )
    # the words of the two-level interval's seed level are the checks', not the statistics'
    two = block.two_level
    return replace(
        block, two_level=replace(two, reason=two_level_note(project, two, ev, block.reason))
    )


#: with this many seeds or fewer on a side the two-level interval's seed level stays coarse
COARSE_SEEDS = 5


def two_level_note(
    project: Project, two: TwoLevelModel, ev: EvalData, block_reason: str | None = None
) -> str | None:
    """What the two-level interval's seed level is worth (methods.md section 3): none with one
    network per model, coarse with at most 5 seeds on a side, and whether seeds_paired could
    pair them; why there is no two-level interval (``block_reason``: the block line's) when
    there is none; None when there is nothing to say."""
    cfg = project.config
    nets = {k: len(v) for k, v in ev.seeds.items()}
    if two.low is None:
        return (
            _(
                "there is no two-level interval, because the block line has none ({why})",
                why=block_reason,
            )
            if block_reason
            else _("there is no two-level interval")
        )
    networks = repeat_words(cfg).unit == "network"
    noise = repeat_words(cfg).noise
    if nets["candidate"] == 1 and nets["baseline"] == 1:
        return (
            _(
                "one network per model: the two-level interval has no seed level at all (it "
                "resamples the blocks only), so it says nothing about {noise}",
                noise=noise,
            )
            if networks
            else _(
                "one run per model: the two-level interval has no seed level at all (it "
                "resamples the blocks only), so it says nothing about {noise}",
                noise=noise,
            )
        )
    notes = []
    if cfg.seeds_paired and not two.paired:
        shared = len(seed_pairs(ev))
        notes.append(
            n_(
                "seeds_paired, but {labels} is shared by both models: the seeds are resampled "
                "independently",
                "seeds_paired, but {labels} are shared by both models: the seeds are resampled "
                "independently",
                shared,
                labels=count_noun(shared, "seed label"),
            )
        )
    seeds = two.seeds
    fewest = min(seeds.candidate, seeds.baseline)
    if fewest <= COARSE_SEEDS:
        names = {"candidate": cfg.candidate, "baseline": cfg.baseline}
        one = [names[k] for k in ("candidate", "baseline") if getattr(seeds, k) == 1]
        note = _(
            "with {most} or fewer seeds on a side (here {n_c} and {n_b}) the seed level stays "
            "coarse",
            most=count(COARSE_SEEDS),
            n_c=count(seeds.candidate),
            n_b=count(seeds.baseline),
        )
        if one:
            note += (
                _("; {model} has one network, so its side has no seed level", model=one[0])
                if networks
                else _("; {model} has one run, so its side has no seed level", model=one[0])
            )
        notes.append(note)
    return "; ".join(notes) or None
