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
from reportgen.model.common import Bounds, MaybeBounds, TTest
from reportgen.model.enums import IntervalSource
from reportgen.model.noise import Interval
from reportgen.model.seed import SeedNoise
from reportgen.view.parts import (
    Figure,
    Row,
    chart_figure,
    in_words,
    metric_name,
    names,
    part_word,
    said,
)
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
from reportgen.words.i18n import _, current, n_, p_
from reportgen.words.intervals import wider_of_two
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
    #: why the primary interval is the one it is (both widths): the HTML's, beside the table of
    #: intervals; the PDF's block line already names the wider one
    primary_reason: str | None
    #: the PDF's note after the block line: which other intervals the HTML and report.json table
    others_note: str | None
    #: the report.json keys the note names, in code type
    others_keys: str | None
    #: noise.block.two_level.reason, word for word: what its seed level is worth
    two_level_note: str | None
    #: noise.clipping.text: rows clipped to p = 0 or 1 that move the test gap
    clipping_note: str | None
    paired_facts: list[Row]
    #: the paired seeds' facts the seed line does not say (the PDF's): sd and p
    paired_print: list[Row]
    #: the third, model-based line: what it would take; None without a budget
    budget_line: str | None
    budget_rows: list[Row]
    budget_figure: Figure | None
    budget_reason: str | None


#: the sections a row of the interval table is read from: each has a lower and an upper end
Ends = MaybeBounds | TTest | Welch | TwoLevel | SeedGap | Interval | Bounds


def noise_view(report: Report, charts: Collection[str]) -> NoiseView:
    """Both noise sources, each with its line word for word and what it covers."""
    noise = report.noise
    lines = [in_words(x, report) for x in noise.lines]
    short = _block_line_after_results(report)
    if short is not None and len(lines) > 1:
        lines[1] = short
    covers = [in_words(x, report) for x in noise.covers]
    words = repeat_words(report.project.repeats)
    reason = noise.seed.reason if noise.seed is not None else None
    return NoiseView(
        lines=lines,
        covers=covers + [DASH] * (len(lines) - len(covers)),
        seed_heading=_("1. {heading}", heading=words.heading),
        # before and after: the line above already says what is not measured (one tuning run)
        seed_missing=None
        if report.before_after is not None
        else _(
            "No seed values to plot: {reason}.",
            reason=reason or _("{noise} is unmeasured", noise=words.noise),
        ),
        **_seed_noise(report, charts),
        **_sample_noise(report, charts),
        **_budget(report, charts),
    )


def _block_line_after_results(report: Report) -> str | None:
    """The block line as the noise section prints it after Results at a glance, which says
    the test gap and its primary interval: which of the two intervals that one is and the other
    one's ends, not the gap and its ends again. None when the results do not say them (no
    results table, or a primary interval that is not the block line's): the line as written."""
    noise = report.noise
    block, iv = noise.block, noise.interval
    if (
        not report.results
        or block is None
        or block.low is None
        or iv is None
        or iv.source != IntervalSource.BLOCK
    ):
        return None
    words = repeat_words(report.project.repeats)
    nets = block.networks
    n_c, n_b = count(nets.candidate), count(nets.baseline)
    networks = words.unit == "network"
    if nets.candidate > 1 or nets.baseline > 1:
        seeds = (
            _("seed-averaged over {n_c} and {n_b} networks", n_c=n_c, n_b=n_b)
            if networks
            else _("seed-averaged over {n_c} and {n_b} runs", n_c=n_c, n_b=n_b)
        )
    else:
        seeds = _("one network per model") if networks else _("one run per model")
    d = gap_decimals(block.gap, block.low, block.high)
    t, bs = block.t, block.bootstrap
    fields = dict(
        head=_("Block bootstrap (which blocks were sampled, for the networks as trained):"),
        conf=confidence(block.confidence),
        what=iv.what,
        section=_("Results at a glance"),
        rows=count_noun(block.rows, "row"),
        seeds=seeds,
        which=wider_of_two(
            block.primary, (t.low, t.high, t.p), (bs.low, bs.high), block.resamples, d
        ),
    )
    if report.data.block_column:
        text = _(
            "{head} the test gap and its {conf} interval over {what}, as in {section} "
            "(row-weighted over {rows}, {seeds}): {which}.",
            **fields,
        )
    else:
        text = _(
            "{head} the test gap and its {conf} interval over {what} (no block column: the "
            "bootstrap resamples rows), as in {section} (row-weighted over {rows}, {seeds}): "
            "{which}.",
            **fields,
        )
    return in_words(text, report)


def _sentence(text: str) -> str:
    """A clause of report.json printed as a sentence of its own: a capital first letter and a
    full stop ("more seeds alone cannot settle this: ..." under the budget line)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


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
        "budget_reason": _sentence(in_words(plan.reason, report)) if plan.reason else None,
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
            "paired_print": [],
        }
    cand, base = names(report)
    metric_words = metric_name(report)
    rule_word = passed_word(seed.passes)[0]
    seed_facts = [
        Row(_("validation gap (candidate better is positive)"), gap(seed.validation_gap)),
        Row(_("seed sd used by the rule"), spread(seed.sd_used)),
        Row(_("gap in seed sd"), ratio(seed.gap_in_sd, signed=True)),
        Row(_("rule: gap must exceed"), _("{multiple} seed sd", multiple=given(seed.multiple))),
        Row(_("rule result"), rule_word),
        Row(
            _("{candidate} seeds beating the {baseline} mean", candidate=cand, baseline=base),
            _(
                "{k} of {n}",
                k=count(seed.seeds_beating_baseline),
                n=count(seed.n.candidate),
            ),
        ),
    ]
    not_measured = _("not measured")
    rule = (
        _(
            "seed sd used {sd}; the gap is {gap} seed sd, the rule needs more than {multiple}: "
            "{result}.",
            sd=spread(seed.sd_used),
            gap=ratio(seed.gap_in_sd, signed=True),
            multiple=given(seed.multiple),
            result=rule_word,
        )
        if seed.gap_in_sd is not None
        else _("the seed rule is not measured ({reason}).", reason=seed.reason or _("no seed sd"))
    )
    seed_fig = chart_figure(
        charts,
        "seed_strip",
        _(
            "Each circle is one {one}'s validation score; the thick tick is the model's mean. "
            "Look at whether the candidate's mean lies beyond the dashed bar (the shaded band is "
            "the distance the rule asks for) and how far the seeds overlap.",
            one=repeat_words(report.project.repeats).one,
        ),
        # TRANSLATORS: {rule} is "seed sd used ...: pass." or "the seed rule is not measured (...)."
        _(
            "Strip plot of validation {metric} per seed. {candidate} mean {candidate_mean}, "
            "{baseline} mean {baseline_mean}; {rule}",
            metric=metric_words,
            candidate=cand,
            candidate_mean=said(metric(seed.mean.candidate), not_measured),
            baseline=base,
            baseline_mean=said(metric(seed.mean.baseline), not_measured),
            rule=rule,
        ),
    )
    paired = seed.paired
    paired_facts = []
    paired_print: list[Row] = []
    if paired.mean is not None:
        d = gap_decimals(paired.mean, paired.low, paired.high)
        paired_facts = [
            Row(_("paired seeds"), count(paired.n)),
            Row(_("part"), part_word(paired.part) if paired.part else DASH),
            Row(_("mean per-seed difference"), with_sign(paired.mean, d)),
            Row(_("sd of differences"), spread(paired.sd)),
            Row(_("t interval"), interval(paired.low, paired.high, digits=d)),
            Row("p", pvalue(paired.p)),
        ]
        # the seed line says the pairs, the part, the mean and the t interval when there is one
        in_line = {0, 1, 2, 4} if paired.low is not None else set()
        paired_print = [r for i, r in enumerate(paired_facts) if i not in in_line]
    return {
        "seed_figure": seed_fig,
        "seed_rows": seed_rows(report, seed),
        "seed_facts": seed_facts,
        "seed_reason": in_words(seed.reason, report) if seed.reason else None,
        "left_out": [in_words(x, report) for x in seed.left_out],
        "paired_facts": paired_facts,
        "paired_print": paired_print,
    }


def seed_rows(report: Report, seed: SeedNoise | None) -> list[SeedRow]:
    """Each model's seeds: how many, mean, sd and every value."""
    cand, base = names(report)
    labels = (_("{model} (candidate)", model=cand), _("{model} (baseline)", model=base))
    if seed is None:
        return [SeedRow(label, DASH, DASH, DASH, DASH) for label in labels]
    per_model = (
        (
            labels[0],
            seed.values.candidate,
            seed.n.candidate,
            seed.mean.candidate,
            seed.sd.candidate,
        ),
        (labels[1], seed.values.baseline, seed.n.baseline, seed.mean.baseline, seed.sd.baseline),
    )
    return [
        SeedRow(
            model=label,
            n=count(n),
            mean=metric(mean),
            sd=spread(sd),
            values=_list_sep().join(metric(v.value) for v in values) or DASH,
        )
        for label, values, n, mean, sd in per_model
    ]


def _list_sep() -> str:
    """Between the values of a list of numbers: ", " in English; "; " where a decimal comma
    would make a comma ambiguous ("0,4312; 0,4401")."""
    # TRANSLATORS: the separator between the numbers of a list, with its space
    return _(", ")


def _sample_noise(report: Report, charts: Collection[str]) -> dict[str, Any]:
    """NoiseView's evaluation-sample part: the intervals on test and their charts."""
    noise = report.noise
    block = noise.block
    out: dict[str, Any] = {
        "interval_figure": None,
        "histogram_figure": None,
        "block_facts": [],
        "primary_reason": None,
    }
    if block is not None:
        out.update(_block_part(report, block, charts))
    elif noise.interval is not None:
        other = noise.interval
        what = other.what or other.source or _("the evaluation sample")
        d = gap_decimals(other.gap, other.low, other.high)
        row = _interval_row(
            _("bootstrap over {what}", what=what),
            _("resamples the evaluation sample"),
            other.gap,
            other,
            d,
        )
        out["interval_rows"] = [row]
        out["block_reason"] = (
            _("The interval's chart is in the before-and-after section.")
            if report.before_after
            else None
        )
    else:
        out["interval_rows"] = []
        out["block_reason"] = _("No per-row predictions: the evaluation interval was not computed.")
    clipping = noise.clipping
    return {
        "interval_figure": out["interval_figure"],
        "histogram_figure": out["histogram_figure"],
        "interval_rows": out["interval_rows"],
        "block_facts": out["block_facts"],
        "block_reason": out["block_reason"],
        "primary_reason": out["primary_reason"],
        "others_note": _others_note(report) if out["interval_rows"] else None,
        "others_keys": _others_keys(report) if out["interval_rows"] else None,
        "two_level_note": block.two_level.reason if block is not None else None,
        "clipping_note": clipping.text if isinstance(clipping, Clipping) else None,
    }


def _one_network(block: BlockNoise) -> bool:
    """Each model's block line rests on one network."""
    return block.networks.candidate == 1 and block.networks.baseline == 1


def _boot_label(report: Report) -> str:
    """The bootstrap's name: over blocks with a block column, else over rows."""
    column = report.data.block_column
    return _("block bootstrap (paired)") if column else _("bootstrap over rows (paired)")


def _boot_name(report: Report) -> str:
    """The bootstrap's name without "(paired)", as the primary interval's row names it."""
    column = report.data.block_column
    return _("block bootstrap") if column else _("bootstrap over rows")


def _block_part(report: Report, block: BlockNoise, charts: Collection[str]) -> dict[str, Any]:
    """The evaluation-sample part when there is a block line: its table, facts and charts."""
    conf = confidence(block.confidence)
    # one decimal count for the whole table: the primary interval's
    d = gap_decimals(block.gap, block.low, block.high)
    primary = block.primary or "bootstrap"
    return {
        "interval_rows": _block_rows(report, block, d) + _model_based_row(report, block, d),
        "block_facts": [
            Row(_("blocks"), count(block.blocks)),
            Row(_("confidence"), conf),
            Row(_("resamples"), count(block.resamples)),
            Row(
                _("primary interval"),
                _boot_name(report) if primary == "bootstrap" else _("paired t"),
            ),
            Row(_("interval excludes zero"), yes_no(block.excludes_zero)),
        ],
        "block_reason": None,
        "primary_reason": _sentence(block.primary_reason) if block.primary_reason else None,
        "interval_figure": _intervals_figure(report, block, charts, conf, d),
        "histogram_figure": _histogram_figure(block, charts, conf, d),
    }


def _model_based_row(report: Report, block: BlockNoise, d: int) -> list[IntervalRow]:
    """The model-based interval (noise.budget.combined) as a row of the table of intervals:
    its ends are said there only, the budget line gives its plus or minus and terms."""
    b = report.noise.budget
    if not isinstance(b, Budget):
        return []
    return [
        _interval_row(
            _("model-based (seed and block terms)"),
            _(
                "the gap plus or minus the half-width of the seed and block terms together: a "
                "planning model, not a measurement"
            ),
            block.gap,
            b.combined,
            d,
        )
    ]


def _others_keys(report: Report) -> str:
    """The report.json keys of the intervals the PDF's note points to."""
    if report.noise.block is None:
        return "noise.interval"
    if isinstance(report.noise.budget, Budget):
        return "noise.block, noise.budget"
    return "noise.block"


def _others_note(report: Report) -> str:
    """The PDF's note under the evaluation line: where the other intervals of the test gap are
    (the line names the primary one and why)."""
    block = report.noise.block
    if block is None:
        return _("The interval's table is in the HTML report and report.json.")
    if isinstance(report.noise.budget, Budget):
        return _(
            "The other intervals of the test gap (Welch, two-level, model-based, per network) "
            "are tabled in the HTML report and report.json"
        )
    return _(
        "The other intervals of the test gap (Welch, two-level, per network) are tabled in the "
        "HTML report and report.json"
    )


def _block_rows(report: Report, block: BlockNoise, d: int) -> list[IntervalRow]:
    """The block line's intervals of the test gap, then one per candidate seed."""
    cand, base = names(report)
    words = repeat_words(report.project.repeats)
    column = report.data.block_column
    # the evaluation blocks as a plural noun in a gloss: "weeks"; in another language the
    # column's name stays as written, after the word for blocks ("блоки «week»")
    if column:
        blocks = plural_noun(column) if current() == "en" else _("blocks '{name}'", name=column)
    else:
        blocks = _("rows")
    glosses: list[tuple[str, str, Ends, bool, bool]] = [
        (
            _boot_label(report),
            _("resamples whole {blocks} with both models' rows kept together", blocks=blocks),
            block.bootstrap,
            block.bootstrap.low is not None,
            False,
        ),
        (
            _("paired t on block gaps"),
            _("a t interval on the gap of each of the {blocks}", blocks=blocks),
            block.t,
            block.t.low is not None,
            True,
        ),
        (
            _("unpaired Welch (what pairing buys)"),
            _(
                "treats the two models' scores as independent samples; how much wider it is "
                "than the paired t is what pairing buys"
            ),
            block.welch,
            block.welch.se is not None,
            True,
        ),
        (
            _("two-level bootstrap (blocks only: no seed level)")
            if _one_network(block)
            else _("two-level bootstrap (seeds and blocks)"),
            _(
                "resamples {blocks} only: with one {unit} per model there is no seed level to "
                "resample",
                blocks=blocks,
                unit=_unit_word(words.unit),
            )
            if _one_network(block)
            else _(
                "resamples the {units}, then {blocks}: {moves} and the sample at once",
                units=_units_word(words.unit),
                blocks=blocks,
                moves=words.moves,
            ),
            block.two_level,
            block.two_level.low is not None,
            False,
        ),
    ]
    rows = [
        _interval_row(label, gloss, block.gap, part, d, tested)
        for label, gloss, part, present, tested in glosses
        if present
    ]
    one_base = block.networks.baseline == 1
    return rows + [
        _interval_row(
            _seed_label(words.unit, cand, base, str(s.seed), one_base),
            _("one {one}: the sample's noise only", one=words.one),
            s.gap,
            s,
            d,
        )
        for s in block.per_seed
    ]


def _unit_word(unit: str) -> str:
    """One repeat as a noun in a sentence: network, run."""
    return {"network": p_("repeat", "network"), "run": p_("repeat", "run")}.get(unit, unit)


def _units_word(unit: str) -> str:
    """The repeats as a plural noun in a sentence: networks, runs."""
    return {"network": p_("repeat", "networks"), "run": p_("repeat", "runs")}.get(
        unit, plural_noun(unit)
    )


def _seed_label(unit: str, cand: str, base: str, seed: str, one_base: bool) -> str:
    """The row of one candidate network: "mlp network seed 3 against the gbm seed mean"."""
    if unit == "run":
        if one_base:
            return _(
                "{candidate} run seed {seed} against the {baseline} run",
                candidate=cand,
                seed=seed,
                baseline=base,
            )
        return _(
            "{candidate} run seed {seed} against the {baseline} seed mean",
            candidate=cand,
            seed=seed,
            baseline=base,
        )
    if one_base:
        return _(
            "{candidate} network seed {seed} against the {baseline} network",
            candidate=cand,
            seed=seed,
            baseline=base,
        )
    return _(
        "{candidate} network seed {seed} against the {baseline} seed mean",
        candidate=cand,
        seed=seed,
        baseline=base,
    )


def _intervals_figure(
    report: Report, block: BlockNoise, charts: Collection[str], conf: str, d: int
) -> Figure | None:
    """The eval_intervals chart: per-network, seed-averaged and two-level intervals."""
    words = repeat_words(report.project.repeats)
    one = _one_network(block)
    lows = [s.low for s in block.per_seed if s.low is not None]
    clear = sum(1 for low in lows if low > 0)
    caption = (
        _(
            "The evaluation interval of the test gap with one {one} per model (black; grey, the "
            "same here: the candidate's one {unit}) and the two-level interval (blue), which "
            "here resamples blocks only: with one {unit} per model there is no seed level, so "
            "nothing here measures {noise}. Look at whether the intervals stay clear of zero.",
            one=words.one,
            unit=_unit_word(words.unit),
            noise=words.noise,
        )
        if one
        else _(
            "One evaluation interval per {one} (grey) beside the seed-averaged interval (black) "
            "and the two-level interval that also resamples seeds (blue). Look at how far "
            "{moves} moves the centre, and whether the intervals stay clear of zero.",
            one=words.one_candidate,
            moves=words.moves,
        )
    )
    fields = {
        "metric": metric_name(report),
        "gap": said(with_sign(block.gap, d), _("not measured")),
        "confidence": conf,
        "interval": said(interval(block.low, block.high, digits=d), _("not computed")),
        "clear": count(clear),
    }
    n = len(lows)
    if words.unit == "run":
        description = (
            n_(
                "Dot-and-whisker chart of {metric} gaps on test. Gap {gap}, {confidence} "
                "interval {interval}; {clear} of {n} single-run intervals lie above zero.",
                "Dot-and-whisker chart of {metric} gaps on test. Gap {gap}, {confidence} "
                "interval {interval}; {clear} of {n} single-run intervals lie above zero.",
                n,
                **fields,
            )
            if one
            else n_(
                "Dot-and-whisker chart of {metric} gaps on test. Seed-averaged gap {gap}, "
                "{confidence} interval {interval}; {clear} of {n} single-run intervals lie "
                "above zero.",
                "Dot-and-whisker chart of {metric} gaps on test. Seed-averaged gap {gap}, "
                "{confidence} interval {interval}; {clear} of {n} single-run intervals lie "
                "above zero.",
                n,
                **fields,
            )
        )
    else:
        description = (
            n_(
                "Dot-and-whisker chart of {metric} gaps on test. Gap {gap}, {confidence} "
                "interval {interval}; {clear} of {n} single-network intervals lie above zero.",
                "Dot-and-whisker chart of {metric} gaps on test. Gap {gap}, {confidence} "
                "interval {interval}; {clear} of {n} single-network intervals lie above zero.",
                n,
                **fields,
            )
            if one
            else n_(
                "Dot-and-whisker chart of {metric} gaps on test. Seed-averaged gap {gap}, "
                "{confidence} interval {interval}; {clear} of {n} single-network intervals lie "
                "above zero.",
                "Dot-and-whisker chart of {metric} gaps on test. Seed-averaged gap {gap}, "
                "{confidence} interval {interval}; {clear} of {n} single-network intervals lie "
                "above zero.",
                n,
                **fields,
            )
        )
    return chart_figure(charts, "eval_intervals", caption, description)


def _histogram_figure(
    block: BlockNoise, charts: Collection[str], conf: str, d: int
) -> Figure | None:
    """The bootstrap_histogram chart: the resampled mean gap and the quoted interval."""
    boot = block.bootstrap
    primary = block.primary or "bootstrap"
    bins = len(block.distribution.counts) if block.distribution is not None else 0
    both = primary != "bootstrap" and boot.low is not None
    if primary == "bootstrap":
        caption = _(
            "The spread of the resampled mean gap. The dashed lines bound the {confidence} "
            "interval the text quotes (the bootstrap's percentile interval). The red line is "
            "zero. Look at how much of the distribution lies on the wrong side of zero.",
            confidence=conf,
        )
    elif both:
        caption = _(
            "The spread of the resampled mean gap. The dashed lines bound the {confidence} "
            "interval the text quotes (the paired t interval, the wider of the two); the dotted "
            "lines the bootstrap's own percentile interval. The red line is zero. Look at how "
            "much of the distribution lies on the wrong side of zero.",
            confidence=conf,
        )
    else:
        caption = _(
            "The spread of the resampled mean gap. The dashed lines bound the {confidence} "
            "interval the text quotes (the paired t interval, the wider of the two). The red "
            "line is zero. Look at how much of the distribution lies on the wrong side of zero.",
            confidence=conf,
        )
    head = n_(
        "Histogram of {resamples} bootstrap means of the block gap ({n} bins); ",
        "Histogram of {resamples} bootstrap means of the block gap ({n} bins); ",
        bins,
        resamples=count(block.resamples),
    )
    if block.low is None or block.high is None:
        # TRANSLATORS: ends the histogram's description ("Histogram of ...; no interval.")
        tail = _("no interval.")
    else:
        quoted = interval(block.low, block.high, digits=d)
        if both:
            own = interval(boot.low, boot.high, digits=d)
            tail = (
                _(
                    "the quoted interval {quoted}, the bootstrap's {own}; zero outside it.",
                    quoted=quoted,
                    own=own,
                )
                if block.excludes_zero
                else _(
                    "the quoted interval {quoted}, the bootstrap's {own}; zero inside it.",
                    quoted=quoted,
                    own=own,
                )
            )
        else:
            tail = (
                _("the quoted interval {quoted}; zero outside it.", quoted=quoted)
                if block.excludes_zero
                else _("the quoted interval {quoted}; zero inside it.", quoted=quoted)
            )
    return chart_figure(charts, "bootstrap_histogram", caption, head + tail)


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
