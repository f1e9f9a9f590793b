"""The two noise lines, never merged: seed spread (retraining) and the block bootstrap (evaluation sample)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, cast

import numpy as np

from reportgen.checks.evaluation import EvalData
from reportgen.checks.noise_budget import budget_section as budget_section
from reportgen.checks.noise_lines import (
    repeat_words,
)
from reportgen.checks.reasons import sentence, t_sentence, t_test
from reportgen.checks.select import ModelRuns
from reportgen.errors import Problem
from reportgen.model.base import MISSING
from reportgen.model.block import BlockNoise as BlockModel
from reportgen.model.block import Distribution, SeedGap, Welch
from reportgen.model.block import TwoLevel as TwoLevelModel
from reportgen.model.common import FloatPair, IntPair, MaybeBounds, MaybeFloatPair, SeedLists, TTest
from reportgen.model.relevance import Slice
from reportgen.model.seed import Paired, PairedMeasured, SeedNoise, SeedValue, SeedValues
from reportgen.project import Project
from reportgen.stats.blocks import BlockNoise as BlockStats
from reportgen.stats.blocks import TwoLevel, block_noise
from reportgen.stats.results import Reason, Sides
from reportgen.stats.seeds import SeedRule, paired_seeds, seed_rule
from reportgen.words import (
    count,
    count_noun,
    gap_decimals,
    given,
    sig,
    with_sign,
)

#: below this many blocks the percentile bootstrap undercovers (docs/methods.md, section 3)
FEW_BLOCKS = 30


def seed_part(cand: ModelRuns, base: ModelRuns) -> str:
    """Where the seed spread is measured: validation when both models have validation values,
    else test when both have test values (a test-level number), else validation (unmeasured)."""
    if cand.seed_values("validation")[0] and base.seed_values("validation")[0]:
        return "validation"
    if cand.seed_values("test")[0] and base.seed_values("test")[0]:
        return "test"
    return "validation"


def _paired_part(cand: ModelRuns, base: ModelRuns) -> tuple[str, list[int]]:
    """The part the paired seed analysis uses and its shared seed labels (by label, never position):
    test when both models have at least 2 shared labels with test values, else validation."""
    shared = {}
    for part in ("test", "validation"):
        cs, _ = cand.seed_values(part)
        bs, _ = base.seed_values(part)
        shared[part] = sorted(set(cs) & set(bs), key=lambda s: (str(type(s)), s))
    part = "test" if len(shared["test"]) >= 2 else "validation"
    return part, shared[part]


def seed_section(
    project: Project, cand: ModelRuns, base: ModelRuns
) -> tuple[SeedNoise, list[Problem]]:
    """noise.seed: the seed rule on the part both models have seeds for, and the paired analysis;
    with a warning when seeds_paired leaves seed labels without a partner."""
    cfg = project.config
    warnings = []
    part = seed_part(cand, base)
    cs, cv = cand.seed_values(part)
    bs, bv = base.seed_values(part)
    rule = seed_rule(
        cv,
        bv,
        higher_is_better=cfg.higher_is_better,
        multiple=cfg.seed_sd_multiple,
        sd_from=cfg.seed_sd_from,
    )
    values = {
        mr.role: tuple(
            SeedValue(seed=s.seed, value=v, source=src, folds=None)
            for s in mr.seeds
            for v, src in [
                (s.val_value, s.val_source)
                if part == "validation"
                else (s.test_value, s.test_source)
            ]
            if v is not None
        )
        for mr in (cand, base)
    }
    paired: Paired = no_pairs()
    if cfg.seeds_paired:
        ppart, common = _paired_part(cand, base)
        ct, ctv = cand.seed_values(ppart)
        bt, btv = base.seed_values(ppart)
        ci = dict(zip(ct, ctv, strict=True))
        bi = dict(zip(bt, btv, strict=True))
        unpaired = SeedLists(
            candidate=tuple(sorted(set(ct) - set(common), key=str)),
            baseline=tuple(sorted(set(bt) - set(common), key=str)),
        )
        if unpaired.candidate or unpaired.baseline:
            warnings.append(
                Problem(
                    f"seeds_paired: seeds pair by label; on {ppart} "
                    f"{count_noun(len(common), 'label')} {'is' if len(common) == 1 else 'are'} "
                    f"shared and these have no partner: {_seed_list(unpaired, cand.name, base.name)}",
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
        paired = PairedMeasured(
            n=res.n,
            mean=res.mean,
            sd=res.sd,
            low=res.low,
            high=res.high,
            p=res.p,
            reason=t_sentence(res.reason, res.n, "paired seed"),
            part=ppart,
            seeds=tuple(common),
            unpaired=unpaired,
        )
    seed = seed_noise(
        rule,
        sd_from=cfg.seed_sd_from,
        part=part,
        values=SeedValues(candidate=values["candidate"], baseline=values["baseline"]),
        left_out=tuple(cand.left_out + base.left_out),
        # how many networks each line rests on (validation-only seeds are normal)
        test_networks=IntPair(
            candidate=sum(1 for s in cand.seeds if s.test_pred is not None),
            baseline=sum(1 for s in base.seeds if s.test_pred is not None),
        ),
        paired=paired,
        noise=repeat_words(cfg).noise,
    )
    return seed, warnings


def seed_noise(
    rule: SeedRule,
    *,
    sd_from: str,
    part: str,
    values: SeedValues,
    left_out: tuple[str, ...],
    test_networks: IntPair | None,
    paired: Paired,
    within_folds: bool | None = None,
    folds: int | None = None,
    noise: str = "retraining noise",
    per: str = "",
) -> SeedNoise:
    """noise.seed from the seed rule (``sd_from``: the project's seed_sd_from), its reason and
    note in words (``noise`` names the noise the seeds measure, ``per`` where the seeds are
    counted), and what the design measured it on: ``part``, ``values``, the rows left out,
    the test networks, the paired analysis and, in a cv design, the folds."""
    note = None
    if rule.note is not None and rule.substituted is not None:
        note = sentence(rule.note, zero=rule.substituted[0], used=rule.substituted[1])
    reason = (
        sentence(rule.reason, short=rule.short, noise=noise, per=per)
        if rule.reason is Reason.TOO_FEW_SEEDS
        else sentence(rule.reason)
    )
    return SeedNoise(
        n=IntPair(candidate=rule.n.candidate, baseline=rule.n.baseline),
        sd=MaybeFloatPair(candidate=rule.sd.candidate, baseline=rule.sd.baseline),
        # the model states both means: a side without one fails the report's validation
        mean=FloatPair(
            candidate=cast(float, rule.mean.candidate), baseline=cast(float, rule.mean.baseline)
        ),
        sd_used=rule.sd_used,
        validation_gap=rule.validation_gap,
        gap_in_sd=rule.gap_in_sd,
        multiple=rule.multiple,
        passes=rule.passes,
        trivial=rule.trivial,
        deterministic=tuple(rule.deterministic),
        note=note,
        # none without a baseline mean to beat (cv: a fold without the baseline's values)
        seeds_beating_baseline=rule.seeds_beating_baseline or 0,
        reason=reason,
        part=part,
        within_folds=within_folds,
        folds=folds,
        sd_from=sd_source(sd_from, rule.sd, rule.sd_used),
        values=values,
        left_out=left_out,
        test_networks=test_networks,
        paired=paired,
    )


def no_pairs(reason: str | None = None) -> Paired:
    """noise.seed.paired when no seed pairs are compared (and why, when it says)."""
    return Paired(
        n=None,
        mean=None,
        sd=None,
        low=None,
        high=None,
        p=None,
        part=None,
        seeds=(),
        unpaired=None,
        reason=reason,
    )


def _seed_list(unpaired: SeedLists, cand: str, base: str) -> str:
    parts = []
    for seeds, name in ((unpaired.candidate, cand), (unpaired.baseline, base)):
        if seeds:
            parts.append(f"{name} seeds {', '.join(str(s) for s in seeds)}")
    return "; ".join(parts)


def sd_source(sd_from: str, sd: Sides[float | None], sd_used: float | None) -> str | None:
    """Which model's sd the rule used (after the deterministic-model substitution)."""
    if sd_used is None:
        return None
    if sd_from != "larger":
        other = "baseline" if sd_from == "candidate" else "candidate"
        return sd_from if getattr(sd, sd_from, None) == sd_used else other
    return "candidate" if (sd.candidate or 0) >= (sd.baseline or 0) else "baseline"


def _block_noise(
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
    text = f"the wider of the two: bootstrap width {sig(widths['bootstrap'])}, t width {sig(widths['t'])}"
    if blocks < FEW_BLOCKS:
        text += f" ({count(blocks)} blocks: the percentile bootstrap undercovers)"
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
    res = _block_noise(
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
        return "there is no two-level interval" + (
            f", because the block line has none ({block_reason})" if block_reason else ""
        )
    if nets["candidate"] == 1 and nets["baseline"] == 1:
        return (
            f"one {repeat_words(cfg).unit} per model: the two-level interval has no seed level at "
            "all (it resamples the blocks only), so it says nothing about "
            f"{repeat_words(cfg).noise}"
        )
    notes = []
    if cfg.seeds_paired and not two.paired:
        shared = len(seed_pairs(ev))
        notes.append(
            f"seeds_paired, but {count_noun(shared, 'seed label')} "
            f"{'is' if shared == 1 else 'are'} shared by both models: the seeds are resampled "
            "independently"
        )
    seeds = two.seeds
    fewest = min(seeds.candidate, seeds.baseline)
    if fewest <= COARSE_SEEDS:
        names = {"candidate": cfg.candidate, "baseline": cfg.baseline}
        one = [names[k] for k in ("candidate", "baseline") if getattr(seeds, k) == 1]
        notes.append(
            f"with {count(COARSE_SEEDS)} or fewer seeds on a side (here {count(seeds.candidate)} "
            f"and {count(seeds.baseline)}) the seed level stays coarse"
            + (
                f"; {one[0]} has one {repeat_words(cfg).unit}, so its side has no seed level"
                if one
                else ""
            )
        )
    return "; ".join(notes) or None


def not_worse_margin(project: Project) -> float | None:
    """How much worse a required slice may be and still count as not worse."""
    cfg = project.config
    return cfg.not_worse_margin if cfg.not_worse_margin is not None else cfg.min_useful_effect


@dataclass(frozen=True, slots=True)
class SliceFigures:
    """The interval of one slice's gap: its blocks, gap and ends, and why there is none."""

    blocks: int
    gap: float | None
    low: float | None
    high: float | None
    primary: str | None
    reason: str | None


def slices_section(project: Project, ev: EvalData | None) -> list[Slice] | None:
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
        figures = SliceFigures(
            blocks=res.blocks,
            gap=res.gap,
            low=res.low,
            high=res.high,
            primary=res.primary,
            reason=sentence(res.reason),
        )
        out.append(slice_entry(name, int(mask.sum()), figures, name in cfg.not_worse_on, margin))
    for name in cfg.not_worse_on:
        if name not in {s.slice for s in out}:
            out.append(slice_entry(name, 0, None, True, margin))
    return out


def _not_worse_reason(res: SliceFigures | None, margin: float | None) -> str | None:
    """Why a slice is not shown within the margin (non-inferiority), or None when it is."""
    if res is None:
        return "no test rows in this slice"
    low, high = res.low, res.high
    if low is None or high is None:
        return f"no interval ({res.reason or 'too few blocks'})"
    if margin is None:
        return "no not_worse_margin (or min_useful_effect) fixed: non-inferiority has no bar"
    if low >= -margin:
        return None
    return (
        f"the interval's worse end {with_sign(low, gap_decimals(res.gap, low, high))} is "
        f"beyond the margin {given(-margin)}"
    )


def slice_entry(
    name: str, rows: int, res: SliceFigures | None, required: bool, margin: float | None
) -> Slice:
    """One entry of ``slices`` (``res``: its interval; None for a slice without test rows)."""
    reason = _not_worse_reason(res, margin)
    low = res.low if res else None
    high = res.high if res else None
    return Slice(
        slice=name,
        rows=rows,
        blocks=res.blocks if res else 0,
        gap=res.gap if res else None,
        low=low,
        high=high,
        primary=res.primary if res else None,
        # worse: shown worse (interval wholly below 0); None when there is no interval
        worse=None if low is None or high is None else bool(high < 0),
        required=required,
        margin=margin,
        # not_worse: shown within the margin (non-inferiority); False when not shown
        not_worse=reason is None,
        not_worse_reason=reason,
        labels_disagree=None,
        before=MISSING,
        after=MISSING,
        fixed=MISSING,
        broken=MISSING,
    )


def _slice_entry(
    name: str, rows: int, res: dict[str, Any] | None, required: bool, margin: float | None
) -> dict[str, Any]:
    """``slice_entry`` as a plain object, for a caller that reads and extends it as a dict
    (``res``: SliceFigures' fields by name)."""
    figures = None if res is None else SliceFigures(**res)
    return dict(slice_entry(name, rows, figures, required, margin).json_items())
