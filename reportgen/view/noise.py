"""Is it larger than noise? Retraining (seed) noise, or the sampling noise of repeated runs, and
evaluation-sample noise."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from reportgen.model import Report
from reportgen.model.base import Missing
from reportgen.model.block import BlockNoise, SeedGap, TwoLevel, Welch
from reportgen.model.budget import Budget, Clipping
from reportgen.model.common import MaybeBounds, TTest
from reportgen.model.noise import Interval
from reportgen.model.seed import SeedNoise
from reportgen.view.parts import Figure, Row, chart_figure, in_words, metric_name, names, said
from reportgen.words import count_noun, decimals, gap_decimals, plural_noun
from reportgen.words.cells import (
    DASH,
    confidence,
    count,
    fixed,
    gap,
    given,
    interval,
    metric,
    passed_word,
    pct,
    pvalue,
    ratio,
    spread,
    variance,
    with_sign,
    yes_no,
)
from reportgen.words.repeats import repeat_words


@dataclass(frozen=True)
class SeedRow:
    """One model's validation values across seeds, with mean and sd."""

    model: str
    n: str
    mean: str
    sd: str
    values: str


@dataclass(frozen=True)
class IntervalRow:
    """One interval for the test gap (bootstrap, paired t, Welch, per seed)."""

    label: str
    #: what the interval is, in one line, for a reader who does not know the name
    gloss: str
    gap: str
    interval: str
    p: str
    se: str


@dataclass(frozen=True)
class NoiseView:
    """partials/_noise.html: the two noise lines, seed noise, then evaluation-sample noise."""

    lines: list[str]
    covers: list[str]
    #: the heading of the seed part: "1. Retraining", or "1. Repeated runs: sampling noise"
    seed_heading: str
    seed_figure: Figure | None
    #: what the page says in place of the seed chart when there is none; None before and
    #: after, whose seed line already says what one tuning run cannot measure
    seed_missing: str | None
    seed_rows: list[SeedRow]
    seed_facts: list[Row]
    seed_reason: str | None
    left_out: list[str]
    interval_figure: Figure | None
    histogram_figure: Figure | None
    interval_rows: list[IntervalRow]
    block_facts: list[Row]
    block_reason: str | None
    #: noise.block.two_level.reason, word for word: what its seed level is worth
    two_level_note: str | None
    #: noise.clipping.text: rows clipped to p = 0 or 1 that move the test gap
    clipping_note: str | None
    paired_facts: list[Row]
    #: the third, model-based line: what it would take; None without a budget
    budget_line: str | None
    budget_rows: list[Row]
    budget_figure: Figure | None
    budget_reason: str | None


#: the sections a row of the interval table is read from: each has a lower and an upper end
Ends = MaybeBounds | TTest | Welch | TwoLevel | SeedGap | Interval


def noise_view(report: Report, charts: Collection[str]) -> NoiseView:
    """Both noise sources, each with its line word for word and what it covers."""
    noise = report.noise
    lines = [in_words(x, report) for x in noise.lines]
    covers = [in_words(x, report) for x in noise.covers]
    words = repeat_words(report.project.repeats)
    reason = noise.seed.reason if noise.seed is not None else None
    return NoiseView(
        lines=lines,
        covers=covers + [DASH] * (len(lines) - len(covers)),
        seed_heading=f"1. {words.heading}",
        # before and after: the line above already says what is not measured (one tuning run)
        seed_missing=None
        if report.before_after is not None
        else "No seed values to plot: " + (reason or f"{words.noise} is unmeasured") + ".",
        **_seed_noise(report, charts),
        **_sample_noise(report, charts),
        **_budget(report, charts),
    )


def _budget(report: Report, charts: Collection[str]) -> dict[str, Any]:
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
    blocks = report.data.block_column or "block"
    rows = [
        Row("seed term (sd² / S)", f"{variance(b.seed_term)} ({count_noun(b.S, 'seed')})"),
        Row("block term (sd² / B)", f"{variance(b.block_term)} ({count_noun(b.B, blocks)})"),
        Row("seed share", pct(b.seed_share)),
        Row("combined half-width (model-based)", fixed(b.half_width, d)),
        Row(
            "seed sd, 95% interval (chi-square)"
            if abs(float(report.build.confidence or 0.95) - 0.95) < 1e-9
            else "seed sd interval (chi-square)",
            f"{spread(b.seed_sd)}: {_sd_interval(b.seed_sd, b.seed_sd_interval)}",
        ),
        # the interval's planning, not the seed rule's: "seeds needed 2" beside a failed seed
        # rule read as "2 seeds would pass the rule"
        Row(
            "seeds for the interval to exclude zero, blocks fixed",
            f"{count(plan.seeds_needed)} (now {count(b.S)})"
            if plan.seeds_needed
            else "not reachable",
        ),
        Row(
            "blocks for the interval to exclude zero, seeds fixed",
            f"{count(plan.blocks_needed)} (now {count(b.B)})"
            if plan.blocks_needed
            else "not reachable",
        ),
        *_tie_rows(b, blocks, report),
        Row(
            "both scaled together",
            f"{count_noun(both.S, 'seed')} and {count_noun(both.B, blocks)}"
            + (f": {plan.impractical_text}" if plan.impractical_text else "")
            if both
            else DASH,
        ),
    ]
    figure = chart_figure(
        charts,
        "budget",
        "What it would take: the two variance terms of the gap, and the predicted half-width of "
        "the interval as seeds or blocks grow. Below the dashed line (today's gap) the interval "
        "would exclude zero, if the gap stays put. A planning model, not a measurement.",
        f"Stacked bar: seed term {variance(b.seed_term)}, block term "
        f"{variance(b.block_term)}. "
        f"Line chart: predicted half-width from {fixed(b.half_width, d)} today against "
        f"multiples of {count(b.S)} seeds and of {count(b.B)} blocks; today's gap "
        f"{fixed(abs(plan.gap or 0.0), d)}.",
    )
    return {
        "budget_line": in_words(b.line or "", report),
        "budget_rows": rows,
        "budget_figure": figure,
        "budget_reason": in_words(plan.reason, report) if plan.reason else None,
    }


def _tie_rows(b: Budget, blocks: str, report: Report) -> list[Row]:
    """The plan towards a tie (the interval inside plus or minus the useful effect), when the
    project fixes a positive one: the counts, or why none can show it."""
    plan = b.planning
    seeds, blocks_n = plan.seeds_needed_tie, plan.blocks_needed_tie
    if isinstance(seeds, Missing) or isinstance(blocks_n, Missing):
        return []
    reason = plan.reason_tie if isinstance(plan.reason_tie, str) else None
    if seeds is None and blocks_n is None:
        return [Row("seeds or blocks for a tie", in_words(reason, report) if reason else DASH)]
    return [
        Row(
            "seeds for a tie (inside the useful effect), blocks fixed",
            f"{count(seeds)} (now {count(b.S)})" if seeds else "not reachable",
        ),
        Row(
            f"{blocks} for a tie, seeds fixed",
            f"{count(blocks_n)} (now {count(b.B)})" if blocks_n else "not reachable",
        ),
    ]


def _sd_interval(sd: float | None, sdi: MaybeBounds) -> str:
    """The seed sd's interval: both ends with one decimal count (3 figures of the wider end)."""
    low, high = sdi.low, sdi.high
    if low is None or high is None:
        return DASH
    d = decimals(sd, low, high)
    return f"{fixed(low, d)} to {fixed(high, d)}"


def _seed_noise(report: Report, charts: Collection[str]) -> dict[str, Any]:
    """NoiseView's retraining part: seed values, the rule's numbers, paired seeds."""
    seed = report.noise.seed
    if seed is None:
        return {
            "seed_figure": None,
            "seed_rows": [],
            "seed_facts": [],
            "seed_reason": None,
            "left_out": [],
            "paired_facts": [],
        }
    cand, base = names(report)
    metric_words = metric_name(report)
    rule_word = passed_word(seed.passes)[0]
    seed_facts = [
        Row("validation gap (candidate better is positive)", gap(seed.validation_gap)),
        Row("seed sd used by the rule", spread(seed.sd_used)),
        Row("gap in seed sd", ratio(seed.gap_in_sd, signed=True)),
        Row("rule: gap must exceed", f"{given(seed.multiple)} seed sd"),
        Row("rule result", rule_word),
        Row(
            f"{cand} seeds beating the {base} mean",
            f"{count(seed.seeds_beating_baseline)} of {count(seed.n.candidate)}",
        ),
    ]
    seed_fig = chart_figure(
        charts,
        "seed_strip",
        f"Each circle is one {repeat_words(report.project.repeats).one}'s "
        "validation score; the thick tick is the "
        "model's mean. Look at whether the candidate's mean lies beyond the dashed bar "
        "(the shaded band is the distance the rule asks for) and how far the seeds overlap.",
        f"Strip plot of validation {metric_words} per seed. {cand} mean "
        f"{said(metric(seed.mean.candidate), 'not measured')}, {base} mean "
        f"{said(metric(seed.mean.baseline), 'not measured')}; "
        + (
            f"seed sd used {spread(seed.sd_used)}; the gap is "
            f"{ratio(seed.gap_in_sd, signed=True)} seed sd, the rule needs more than "
            f"{given(seed.multiple)}: {rule_word}."
            if seed.gap_in_sd is not None
            else f"the seed rule is not measured ({seed.reason or 'no seed sd'})."
        ),
    )
    paired = seed.paired
    paired_facts = []
    if paired.mean is not None:
        d = gap_decimals(paired.mean, paired.low, paired.high)
        paired_facts = [
            Row("paired seeds", count(paired.n)),
            Row("part", paired.part or DASH),
            Row("mean per-seed difference", with_sign(paired.mean, d)),
            Row("sd of differences", spread(paired.sd)),
            Row("t interval", interval(paired.low, paired.high, digits=d)),
            Row("p", pvalue(paired.p)),
        ]
    return {
        "seed_figure": seed_fig,
        "seed_rows": seed_rows(report, seed),
        "seed_facts": seed_facts,
        "seed_reason": in_words(seed.reason, report) if seed.reason else None,
        "left_out": [in_words(x, report) for x in seed.left_out],
        "paired_facts": paired_facts,
    }


def seed_rows(report: Report, seed: SeedNoise | None) -> list[SeedRow]:
    """Each model's seeds: how many, mean, sd and every value."""
    if seed is None:
        return [
            SeedRow(f"{name} ({role})", DASH, DASH, DASH, DASH)
            for role, name in zip(("candidate", "baseline"), names(report), strict=True)
        ]
    per_model = (
        (
            "candidate",
            seed.values.candidate,
            seed.n.candidate,
            seed.mean.candidate,
            seed.sd.candidate,
        ),
        ("baseline", seed.values.baseline, seed.n.baseline, seed.mean.baseline, seed.sd.baseline),
    )
    return [
        SeedRow(
            model=f"{name} ({role})",
            n=count(n),
            mean=metric(mean),
            sd=spread(sd),
            values=", ".join(metric(v.value) for v in values) or DASH,
        )
        for (role, values, n, mean, sd), name in zip(per_model, names(report), strict=True)
    ]


def _sample_noise(report: Report, charts: Collection[str]) -> dict[str, Any]:
    """NoiseView's evaluation-sample part: the intervals on test and their charts."""
    noise = report.noise
    block = noise.block
    out: dict[str, Any] = {"interval_figure": None, "histogram_figure": None, "block_facts": []}
    if block is not None:
        out.update(_block_part(report, block, charts))
    elif noise.interval is not None:
        other = noise.interval
        what = other.what or other.source or "the evaluation sample"
        d = gap_decimals(other.gap, other.low, other.high)
        row = _interval_row(
            f"bootstrap over {what}", "resamples the evaluation sample", other.gap, other, d
        )
        out["interval_rows"] = [row]
        out["block_reason"] = (
            "The interval's chart is in the before-and-after section."
            if report.before_after
            else None
        )
    else:
        out["interval_rows"] = []
        out["block_reason"] = "No per-row predictions: the evaluation interval was not computed."
    clipping = noise.clipping
    return {
        "interval_figure": out["interval_figure"],
        "histogram_figure": out["histogram_figure"],
        "interval_rows": out["interval_rows"],
        "block_facts": out["block_facts"],
        "block_reason": out["block_reason"],
        "two_level_note": block.two_level.reason if block is not None else None,
        "clipping_note": clipping.text if isinstance(clipping, Clipping) else None,
    }


def _one_network(block: BlockNoise) -> bool:
    """Each model's block line rests on one network."""
    return block.networks.candidate == 1 and block.networks.baseline == 1


def _boot_label(report: Report) -> str:
    """The bootstrap's name: over blocks with a block column, else over rows."""
    column = report.data.block_column
    return "block bootstrap (paired)" if column else "bootstrap over rows (paired)"


def _block_part(report: Report, block: BlockNoise, charts: Collection[str]) -> dict[str, Any]:
    """The evaluation-sample part when there is a block line: its table, facts and charts."""
    conf = confidence(block.confidence)
    # one decimal count for the whole table: the primary interval's
    d = gap_decimals(block.gap, block.low, block.high)
    primary = block.primary or "bootstrap"
    return {
        "interval_rows": _block_rows(report, block, d),
        "block_facts": [
            Row("blocks", count(block.blocks)),
            Row("confidence", conf),
            Row("resamples", count(block.resamples)),
            Row(
                "primary interval",
                _boot_label(report).removesuffix(" (paired)")
                if primary == "bootstrap"
                else "paired t",
            ),
            Row("interval excludes zero", yes_no(block.excludes_zero)),
        ],
        "block_reason": block.primary_reason,
        "interval_figure": _intervals_figure(report, block, charts, conf, d),
        "histogram_figure": _histogram_figure(block, charts, conf, d),
    }


def _block_rows(report: Report, block: BlockNoise, d: int) -> list[IntervalRow]:
    """The block line's intervals of the test gap, then one per candidate seed."""
    cand, base = names(report)
    words = repeat_words(report.project.repeats)
    column = report.data.block_column
    boot_label = _boot_label(report)
    blocks = plural_noun(column) if column else "rows"
    two_label = (
        "two-level bootstrap (blocks only: no seed level)"
        if _one_network(block)
        else "two-level bootstrap (seeds and blocks)"
    )
    named: list[tuple[str, Ends, bool, bool]] = [
        (boot_label, block.bootstrap, block.bootstrap.low is not None, False),
        ("paired t on block gaps", block.t, block.t.low is not None, True),
        ("unpaired Welch (what pairing buys)", block.welch, block.welch.se is not None, True),
        (two_label, block.two_level, block.two_level.low is not None, False),
    ]
    glosses = {
        boot_label: f"resamples whole {blocks} with both models' rows kept together",
        "paired t on block gaps": f"a t interval on the gap of each of the {blocks}",
        "unpaired Welch (what pairing buys)": (
            "treats the two models' scores as independent samples; how much wider it is "
            "than the paired t is what pairing buys"
        ),
        "two-level bootstrap (seeds and blocks)": (
            f"resamples the {plural_noun(words.unit)}, then {blocks}: {words.moves} and the "
            "sample at once"
        ),
        "two-level bootstrap (blocks only: no seed level)": (
            f"resamples {blocks} only: with one {words.unit} per model there is no seed "
            "level to resample"
        ),
    }
    rows = [
        _interval_row(label, glosses[label], block.gap, part, d, tested)
        for label, part, present, tested in named
        if present
    ]
    return rows + [
        _interval_row(
            f"{cand} {words.unit} seed {s.seed} against the {base} "
            + (f"{words.unit}" if block.networks.baseline == 1 else "seed mean"),
            f"one {words.one}: the sample's noise only",
            s.gap,
            s,
            d,
        )
        for s in block.per_seed
    ]


def _intervals_figure(
    report: Report, block: BlockNoise, charts: Collection[str], conf: str, d: int
) -> Figure | None:
    """The eval_intervals chart: per-network, seed-averaged and two-level intervals."""
    words = repeat_words(report.project.repeats)
    one = _one_network(block)
    lows = [s.low for s in block.per_seed if s.low is not None]
    clear = sum(1 for low in lows if low > 0)
    return chart_figure(
        charts,
        "eval_intervals",
        (
            f"The evaluation interval of the test gap with one {words.one} per model "
            f"(black; grey, the same here: the candidate's one {words.unit}) and the "
            "two-level interval (blue), which here resamples blocks only: with one "
            f"{words.unit} per model there is no seed level, so nothing here measures "
            f"{words.noise}. Look at whether the intervals stay clear of zero."
        )
        if one
        else (
            f"One evaluation interval per {words.one_candidate} (grey) beside the "
            "seed-averaged interval (black) and the two-level interval that also resamples "
            f"seeds (blue). Look at how far {words.moves} moves the centre, and whether the "
            "intervals stay clear of zero."
        ),
        f"Dot-and-whisker chart of {metric_name(report)} gaps on test. "
        + ("Gap" if one else "Seed-averaged gap")
        + f" {said(with_sign(block.gap, d), 'not measured')}, {conf} interval "
        f"{said(interval(block.low, block.high, digits=d), 'not computed')}; "
        f"{count(clear)} of {count(len(lows))} single-{words.unit} intervals lie above "
        "zero.",
    )


def _histogram_figure(
    block: BlockNoise, charts: Collection[str], conf: str, d: int
) -> Figure | None:
    """The bootstrap_histogram chart: the resampled mean gap and the quoted interval."""
    boot = block.bootstrap
    primary = block.primary or "bootstrap"
    bins = len(block.distribution.counts) if block.distribution is not None else 0
    primary_words = (
        "the bootstrap's percentile interval"
        if primary == "bootstrap"
        else "the paired t interval, the wider of the two"
    )
    both = primary != "bootstrap" and boot.low is not None
    return chart_figure(
        charts,
        "bootstrap_histogram",
        f"The spread of the resampled mean gap. The dashed lines bound the {conf} interval "
        f"the text quotes ({primary_words})"
        + ("; the dotted lines the bootstrap's own percentile interval" if both else "")
        + ". The red line is zero. Look at how much of the distribution lies on the wrong "
        "side of zero.",
        f"Histogram of {count(block.resamples)} bootstrap means of the block gap "
        f"({count(bins)} bins); "
        + (
            f"the quoted interval {interval(block.low, block.high, digits=d)}"
            + (f", the bootstrap's {interval(boot.low, boot.high, digits=d)}" if both else "")
            + f"; zero {'outside' if block.excludes_zero else 'inside'} it."
            if block.low is not None and block.high is not None
            else "no interval."
        ),
    )


def _interval_row(
    label: str, gloss: str, gap: float | None, part: Ends, digits: int, tested: bool = False
) -> IntervalRow:
    """One interval for the test gap; p and standard error for the t-based (tested) ones."""
    return IntervalRow(
        label,
        gloss,
        with_sign(gap, digits),
        interval(part.low, part.high, digits=digits),
        pvalue(part.p) if isinstance(part, TTest | Welch) and tested else DASH,
        fixed(part.se, digits) if isinstance(part, TTest | Welch) and tested else DASH,
    )
