"""Reconsider when: the concrete evidence that would reopen the decision, with today's values,
plus the project's own [reconsider] items."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.checks.model_vs_baseline.decision import _part
from reportgen.checks.model_vs_baseline.rungs import slice_name, slice_numbers
from reportgen.checks.noise_lines import blocks_noun, repeat_words
from reportgen.checks.orientation import part_at
from reportgen.checks.types import Interval, Rung
from reportgen.model.block import BlockNoise
from reportgen.model.enums import Verdict
from reportgen.model.relevance import Slice
from reportgen.model.seed import SeedNoise
from reportgen.project import Project
from reportgen.project.config import Config
from reportgen.words import (
    blocks_phrase,
    count,
    count_noun,
    gap,
    given,
    noun,
    ratio,
    singular_noun,
)
from reportgen.words.i18n import _
from reportgen.words.rungs import status_word


class ItemId:
    """The ids of the reconsider-when items: a design replaces an item by its id."""

    CORRECT = "correct"
    FAIR = "fair"
    SEEDS = "seeds"
    NO_INTERVAL = "no-interval"
    PLAN = "plan"
    EXCLUDES_ZERO = "excludes-zero"
    USEFUL_EFFECT = "useful-gain"
    REACHES_USEFUL = "reaches-useful"
    SLICE = "slice"
    LIVE_GAP = "live-gap"
    GIVEN = "given"


@dataclass(frozen=True)
class ReconsiderItem:
    """One reconsider-when item: its id and the sentence report.json shows."""

    id: str
    text: str


def _no_interval_item(project: Project, block: BlockNoise | None) -> str:
    """What would give the test gap an interval: predictions, more blocks, or what is missing."""
    if block is None:
        return _("per-row test predictions for both models give an evaluation interval (now none)")
    if block.blocks < 2:
        word = project.config.block or "block"
        return _(
            "the test rows fall in at least 2 {blocks}, so that the test gap gets an evaluation "
            "interval (now {now})",
            blocks=blocks_noun(word),
            now=blocks_phrase(block.blocks, project.config.block),
        )
    return _(
        "the test gap gets an evaluation interval (now none: {why})",
        why=block.reason or _("no interval"),
    )


def _live_gap(cfg: Config) -> str:
    """The gap a deployed model is watched on: per period with a period block column, on a new
    group with a group one, on new rows without one (no period was measured)."""
    if not cfg.block:
        return _("the gap on new rows")
    if cfg.block_kind == "period":
        return _("the live {block} gap", block=noun(cfg.block))
    return _("the gap on a new {block}", block=singular_noun(cfg.block))


def reconsider(
    project: Project,
    ladder: list[Rung],
    seed: SeedNoise,
    iv: Interval | None,
    slices: list[Slice] | None,
    verdict: Verdict,
    plan: str | None,
    block: BlockNoise | None = None,
) -> list[str]:
    """Concrete evidence that would reopen the decision, with today's values, plus [reconsider] when.
    ``block``: noise.block, whose reason names why the test gap has no interval."""
    items = reconsider_items(project, ladder, seed, iv, slices, verdict, plan, block)
    return [i.text for i in items]


def reconsider_items(
    project: Project,
    ladder: list[Rung],
    seed: SeedNoise,
    iv: Interval | None,
    slices: list[Slice] | None,
    verdict: Verdict,
    plan: str | None,
    block: BlockNoise | None = None,
) -> list[ReconsiderItem]:
    """The items of ``reconsider`` with their ids, so that a design replaces an item by its id."""
    cfg = project.config
    items = [
        *_rung_items(ladder),
        *_seed_items(project, seed),
        *_interval_items(project, iv, plan, block),
        *_slice_items(project, slices),
    ]
    m = cfg.min_useful_effect
    if verdict == Verdict.ADOPT and m is not None:
        items.append(
            ReconsiderItem(
                ItemId.LIVE_GAP,
                _(
                    "{gap} falls below the useful effect {effect}",
                    gap=_live_gap(cfg),
                    effect=given(m, cfg.metric_unit),
                ),
            )
        )
    items += [ReconsiderItem(ItemId.GIVEN, text) for text in cfg.reconsider_when]
    return items


def _rung_items(ladder: list[Rung]) -> list[ReconsiderItem]:
    """Rungs 1 and 2 shown, when they are not."""
    items = []
    if not ladder[0].shown:
        items.append(
            ReconsiderItem(
                ItemId.CORRECT,
                _(
                    "rung 1 (correct) is shown (now {status}: {missing})",
                    status=status_word(ladder[0].status),
                    missing=ladder[0].missing,
                ),
            )
        )
    if not ladder[1].shown:
        items.append(
            ReconsiderItem(
                ItemId.FAIR,
                _(
                    "the comparison is shown fair (now {status}: {missing})",
                    status=status_word(ladder[1].status),
                    missing=ladder[1].missing,
                ),
            )
        )
    return items


def _seed_items(project: Project, seed: SeedNoise) -> list[ReconsiderItem]:
    """The seed line's item: measured noise, a positive gap, or the gap over the seed bar."""
    cfg = project.config
    n_c, n_b = seed.n.candidate, seed.n.baseline
    want_n = max(5, n_c, n_b)
    # a cv design counts seeds per fold: noise.seed.n is the fewest in any fold
    folds = seed.within_folds
    if seed.gap_in_sd is None and not seed.trivial:
        fields = dict(
            noise=repeat_words(cfg).noise,
            want=count(want_n),
            n_c=count(n_c),
            candidate=cfg.candidate,
            n_b=count(n_b),
            baseline=cfg.baseline,
        )
        text = (
            _(
                "{noise} is measured with at least {want} seeds per fold "
                "(now {n_c} {candidate}, {n_b} {baseline})",
                **fields,
            )
            if folds
            else _(
                "{noise} is measured with at least {want} seeds per model "
                "(now {n_c} {candidate}, {n_b} {baseline})",
                **fields,
            )
        )
        if min(n_c, n_b) < 2:
            # one run a side can never reach rung 3: a second one at least shows determinism
            text += (
                _(
                    ": a second seed per fold also shows whether a model trains "
                    "deterministically (two equal runs: zero seed spread, and with both models "
                    "deterministic the rule is met when the gap is positive)"
                )
                if folds
                else _(
                    ": a second seed per model also shows whether a model trains "
                    "deterministically (two equal runs: zero seed spread, and with both models "
                    "deterministic the rule is met when the gap is positive)"
                )
            )
    elif seed.trivial and not seed.passes:
        text = _(
            "the {part} gap becomes positive (now {gap}; both models train deterministically)",
            part=part_at(seed.part),
            gap=gap(seed.validation_gap),
        )
    elif not seed.passes:
        fields = dict(
            part=part_at(seed.part),
            bar=given(cfg.seed_sd_multiple),
            want=count(want_n),
            sd=ratio(seed.gap_in_sd, signed=True),
            n_c=count(n_c),
            n_b=count(n_b),
            candidate=cfg.candidate,
            baseline=cfg.baseline,
        )
        text = (
            _(
                "the {part} gap exceeds {bar} seed sd with {want} or more seeds of each model "
                "per fold (now {sd} sd, with {n_c} of {candidate} and {n_b} of {baseline} in "
                "the fold with the fewest)",
                **fields,
            )
            if folds
            else _(
                "the {part} gap exceeds {bar} seed sd with {want} or more seeds of each model "
                "(now {sd} sd, with {n_c} of {candidate} and {n_b} of {baseline})",
                **fields,
            )
        )
    else:
        return []
    return [ReconsiderItem(ItemId.SEEDS, text)]


def _interval_items(
    project: Project, iv: Interval | None, plan: str | None, block: BlockNoise | None
) -> list[ReconsiderItem]:
    """The evaluation interval's items: one to be had, the plan, zero excluded, the useful effect."""
    cfg = project.config
    items = []
    if iv is None:
        items.append(ReconsiderItem(ItemId.NO_INTERVAL, _no_interval_item(project, block)))
    elif iv.low <= 0:
        if plan:
            items.append(ReconsiderItem(ItemId.PLAN, plan))
        items.append(
            ReconsiderItem(
                ItemId.EXCLUDES_ZERO,
                _(
                    "the {part} interval lies above zero (now {ends} over {what})",
                    part=part_at(_part(iv)),
                    ends=iv.ends,
                    what=iv.what,
                ),
            )
        )
    m = cfg.min_useful_effect
    if m is None:
        items.append(
            ReconsiderItem(
                ItemId.USEFUL_EFFECT,
                _("a min_useful_effect is fixed in evreport.toml before new runs (now none)"),
            )
        )
    elif iv is not None and iv.low < m:
        items.append(
            ReconsiderItem(
                ItemId.REACHES_USEFUL,
                _(
                    "the interval's lower end reaches the useful effect {effect} (now {low})",
                    effect=given(m, cfg.metric_unit),
                    low=iv.signed(iv.low),
                ),
            )
        )
    return items


def _slice_items(project: Project, slices: list[Slice] | None) -> list[ReconsiderItem]:
    """Each required slice not shown no worse: an interval to be had, or its worse end above the bar."""
    cfg = project.config
    items = []
    for s in slices or []:
        if s.required and not s.not_worse:
            bar = given(-s.margin) if s.margin is not None else _("a fixed not_worse_margin")
            if s.low is None:
                text = _(
                    "slice {slice} has enough test rows and blocks for an interval (now {rows} in "
                    "{blocks}, no interval), and its worse end stays above {bar}",
                    slice=slice_name(s.slice),
                    rows=count_noun(s.rows, "row"),
                    blocks=count_noun(s.blocks, "block"),
                    bar=bar,
                )
            else:
                g, ends, low = slice_numbers(s)
                text = _(
                    "{candidate} is shown no worse on slice {slice}: the interval's worse end "
                    "stays above {bar} (now {low}: gap {gap}, interval {ends}, {rows})",
                    candidate=cfg.candidate,
                    slice=slice_name(s.slice),
                    bar=bar,
                    low=low,
                    gap=g,
                    ends=ends,
                    rows=count_noun(s.rows, "row"),
                )
            items.append(ReconsiderItem(ItemId.SLICE, text))
    return items
