"""The two noise lines, never merged: seed spread (retraining) here, noise.seed, and the block
bootstrap (evaluation sample) in noise_block; and ``slices``, each slice's gap with its block
interval."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from reportgen.checks.evaluation import EvalData
from reportgen.checks.noise_block import block_stats
from reportgen.checks.noise_budget import budget_section as budget_section
from reportgen.checks.noise_lines import repeat_words
from reportgen.checks.orientation import part_name
from reportgen.checks.reasons import sentence, t_sentence
from reportgen.checks.select import ModelRuns
from reportgen.errors import Problem
from reportgen.model.base import MISSING
from reportgen.model.common import FloatPair, IntPair, MaybeFloatPair, SeedLists
from reportgen.model.relevance import Slice
from reportgen.model.seed import Paired, PairedMeasured, SeedNoise, SeedValue, SeedValues
from reportgen.project import Project
from reportgen.stats.results import Reason, Sides
from reportgen.stats.seeds import SeedRule, paired_seeds, seed_rule
from reportgen.words import (
    count_noun,
    gap_decimals,
    given,
    with_sign,
)
from reportgen.words.i18n import _, n_
from reportgen.words.repeats import repeat_words as words_for_repeats


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
                    n_(
                        "seeds_paired: seeds pair by label; on {part} {labels} is shared and "
                        "these have no partner: {seeds}",
                        "seeds_paired: seeds pair by label; on {part} {labels} are shared and "
                        "these have no partner: {seeds}",
                        len(common),
                        part=part_name(ppart),
                        labels=count_noun(len(common), "label"),
                        seeds=_seed_list(unpaired, cand.name, base.name),
                    ),
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
    noise: str | None = None,
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
        sentence(
            rule.reason,
            short=rule.short,
            noise=noise if noise is not None else words_for_repeats(None).noise,
            per=per,
        )
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
            parts.append(_("{model} seeds {seeds}", model=name, seeds=", ".join(map(str, seeds))))
    return "; ".join(parts)


def sd_source(sd_from: str, sd: Sides[float | None], sd_used: float | None) -> str | None:
    """Which model's sd the rule used (after the deterministic-model substitution)."""
    if sd_used is None:
        return None
    if sd_from != "larger":
        other = "baseline" if sd_from == "candidate" else "candidate"
        return sd_from if getattr(sd, sd_from, None) == sd_used else other
    return "candidate" if (sd.candidate or 0) >= (sd.baseline or 0) else "baseline"


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
        res = block_stats(project, ev, mask, False)
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
        return _("no test rows in this slice")
    low, high = res.low, res.high
    if low is None or high is None:
        return _("no interval ({why})", why=res.reason or _("too few blocks"))
    if margin is None:
        return _("no not_worse_margin (or min_useful_effect) fixed: non-inferiority has no bar")
    if low >= -margin:
        return None
    return _(
        "the interval's worse end {low} is beyond the margin {margin}",
        low=with_sign(low, gap_decimals(res.gap, low, high)),
        margin=given(-margin),
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
