"""Is it larger than noise? Retraining (seed) noise, or the sampling noise of repeated runs, and
evaluation-sample noise."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

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
    #: what the page says in place of the seed chart when there is none
    seed_missing: str
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


def noise_view(report: dict, charts: Collection[str]) -> NoiseView:
    """Both noise sources, each with its line word for word and what it covers."""
    noise = report["noise"]
    lines = [in_words(str(x), report) for x in noise.get("lines") or []]
    covers = [in_words(str(x), report) for x in noise.get("covers") or []]
    words = repeat_words(report["project"].get("repeats"))
    return NoiseView(
        lines=lines,
        covers=covers + [DASH] * (len(lines) - len(covers)),
        seed_heading=f"1. {words.heading}",
        seed_missing="No seed values to plot: "
        + str((noise.get("seed") or {}).get("reason") or f"{words.noise} is unmeasured")
        + ".",
        **_seed_noise(report, charts),
        **_sample_noise(report, charts),
        **_budget(report, charts),
    )


def _budget(report: dict, charts: Collection[str]) -> dict:
    """The variance budget: both terms, the plan, the seed sd's interval, and its chart."""
    noise = report["noise"]
    b = noise.get("budget")
    if not b:
        return {
            "budget_line": None,
            "budget_rows": [],
            "budget_figure": None,
            "budget_reason": noise.get("budget_reason"),
        }
    plan = b.get("planning") or {}
    sdi = b.get("seed_sd_interval") or {}
    both = plan.get("both_needed")
    # the test gap's decimals (its primary interval's), as the noise lines print the budget
    block = noise.get("block") or {}
    d = gap_decimals(block.get("gap"), block.get("low"), block.get("high"))
    blocks = (report.get("data") or {}).get("block_column") or "block"
    rows = [
        Row("seed term (sd² / S)", f"{variance(b['seed_term'])} ({count_noun(b['S'], 'seed')})"),
        Row("block term (sd² / B)", f"{variance(b['block_term'])} ({count_noun(b['B'], blocks)})"),
        Row("seed share", pct(b.get("seed_share"))),
        Row("combined half-width (model-based)", fixed(b.get("half_width"), d)),
        Row(
            "seed sd, 95% interval (chi-square)"
            if abs(float(report["build"].get("confidence") or 0.95) - 0.95) < 1e-9
            else "seed sd interval (chi-square)",
            f"{spread(b.get('seed_sd'))}: {_sd_interval(b.get('seed_sd'), sdi)}",
        ),
        # the interval's planning, not the seed rule's: "seeds needed 2" beside a failed seed
        # rule read as "2 seeds would pass the rule"
        Row(
            "seeds for the interval to exclude zero, blocks fixed",
            f"{count(plan['seeds_needed'])} (now {count(b['S'])})"
            if plan.get("seeds_needed")
            else "not reachable",
        ),
        Row(
            "blocks for the interval to exclude zero, seeds fixed",
            f"{count(plan['blocks_needed'])} (now {count(b['B'])})"
            if plan.get("blocks_needed")
            else "not reachable",
        ),
        Row(
            "both scaled together",
            f"{count_noun(both['S'], 'seed')} and {count_noun(both['B'], blocks)}"
            + (f": {plan['impractical_text']}" if plan.get("impractical_text") else "")
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
        f"Stacked bar: seed term {variance(b['seed_term'])}, block term "
        f"{variance(b['block_term'])}. "
        f"Line chart: predicted half-width from {fixed(b.get('half_width'), d)} today against "
        f"multiples of {count(b['S'])} seeds and of {count(b['B'])} blocks; today's gap "
        f"{fixed(abs(plan.get('gap') or 0.0), d)}.",
    )
    return {
        "budget_line": in_words(str(b.get("line") or ""), report),
        "budget_rows": rows,
        "budget_figure": figure,
        "budget_reason": in_words(str(plan["reason"]), report) if plan.get("reason") else None,
    }


def _sd_interval(sd: float | None, sdi: dict) -> str:
    """The seed sd's interval: both ends with one decimal count (3 figures of the wider end)."""
    low, high = sdi.get("low"), sdi.get("high")
    if low is None or high is None:
        return DASH
    d = decimals(sd, low, high)
    return f"{fixed(low, d)} to {fixed(high, d)}"


def _seed_noise(report: dict, charts: Collection[str]) -> dict:
    """NoiseView's retraining part: seed values, the rule's numbers, paired seeds."""
    noise = report["noise"]
    measured = noise.get("seed") is not None
    seed = noise.get("seed") or {}
    cand, base = names(report)
    metric_words = metric_name(report)

    rows = seed_rows(report, seed) if measured else []
    rule_word = passed_word(seed.get("passes"))[0]
    n_cand = (seed.get("n") or {}).get("candidate")
    beating = seed.get("seeds_beating_baseline")
    seed_facts = [
        Row("validation gap (candidate better is positive)", gap(seed.get("validation_gap"))),
        Row("seed sd used by the rule", spread(seed.get("sd_used"))),
        Row("gap in seed sd", ratio(seed.get("gap_in_sd"), signed=True)),
        Row("rule: gap must exceed", f"{given(seed.get('multiple'))} seed sd"),
        Row("rule result", rule_word),
        Row(
            f"{cand} seeds beating the {base} mean",
            DASH if beating is None else f"{count(beating)} of {count(n_cand)}",
        ),
    ]
    if not measured:
        seed_facts = []
    seed_fig = None
    if "seed_strip" in charts:
        means = seed.get("mean") or {}
        seed_fig = chart_figure(
            charts,
            "seed_strip",
            f"Each circle is one {repeat_words(report['project'].get('repeats')).one}'s "
            "validation score; the thick tick is the "
            "model's mean. Look at whether the candidate's mean lies beyond the dashed bar "
            "(the shaded band is the distance the rule asks for) and how far the seeds overlap.",
            f"Strip plot of validation {metric_words} per seed. {cand} mean "
            f"{said(metric(means.get('candidate')), 'not measured')}, {base} mean "
            f"{said(metric(means.get('baseline')), 'not measured')}; "
            + (
                f"seed sd used {spread(seed.get('sd_used'))}; the gap is "
                f"{ratio(seed.get('gap_in_sd'), signed=True)} seed sd, the rule needs more than "
                f"{given(seed.get('multiple'))}: {rule_word}."
                if seed.get("gap_in_sd") is not None and seed.get("multiple") is not None
                else f"the seed rule is not measured ({seed.get('reason') or 'no seed sd'})."
            ),
        )

    paired = seed.get("paired") or {}
    paired_facts = []
    if paired.get("mean") is not None:
        d = gap_decimals(paired.get("mean"), paired.get("low"), paired.get("high"))
        paired_facts = [
            Row("paired seeds", count(paired.get("n"))),
            Row("part", str(paired.get("part") or DASH)),
            Row("mean per-seed difference", with_sign(paired.get("mean"), d)),
            Row("sd of differences", spread(paired.get("sd"))),
            Row("t interval", interval(paired.get("low"), paired.get("high"), digits=d)),
            Row("p", pvalue(paired.get("p"))),
        ]
    return {
        "seed_figure": seed_fig,
        "seed_rows": rows,
        "seed_facts": seed_facts,
        "seed_reason": in_words(str(seed["reason"]), report) if seed.get("reason") else None,
        "left_out": [in_words(str(x), report) for x in seed.get("left_out") or []],
        "paired_facts": paired_facts,
    }


def seed_rows(report: dict, seed: dict) -> list[SeedRow]:
    """Each model's seeds: how many, mean, sd and every value."""
    values = seed.get("values") or {}
    rows = []
    for role, name in zip(("candidate", "baseline"), names(report), strict=True):
        vals = [v["value"] for v in values.get(role) or [] if v.get("value") is not None]
        rows.append(
            SeedRow(
                model=f"{name} ({role})",
                n=count((seed.get("n") or {}).get(role)),
                mean=metric((seed.get("mean") or {}).get(role)),
                sd=spread((seed.get("sd") or {}).get(role)),
                values=", ".join(metric(v) for v in vals) or DASH,
            )
        )
    return rows


def _sample_noise(report: dict, charts: Collection[str]) -> dict:
    """NoiseView's evaluation-sample part: the intervals on test and their charts."""
    noise = report["noise"]
    block = noise.get("block")
    out = {"interval_figure": None, "histogram_figure": None, "block_facts": []}
    if block:
        out.update(_block_part(report, block, charts))
    elif (noise.get("interval") or {}).get("low") is not None:
        other = noise["interval"]
        what = other.get("what") or other.get("source") or "the evaluation sample"
        d = gap_decimals(other.get("gap"), other.get("low"), other.get("high"))
        row = _interval_row(
            f"bootstrap over {what}", "resamples the evaluation sample", other.get("gap"), other, d
        )
        out["interval_rows"] = [row]
        out["block_reason"] = (
            "The interval's chart is in the before-and-after section."
            if report.get("before_after")
            else None
        )
    else:
        out["interval_rows"] = []
        out["block_reason"] = "No per-row predictions: the evaluation interval was not computed."
    return {
        "interval_figure": out["interval_figure"],
        "histogram_figure": out["histogram_figure"],
        "interval_rows": out["interval_rows"],
        "block_facts": out["block_facts"],
        "block_reason": out["block_reason"],
        "two_level_note": ((block or {}).get("two_level") or {}).get("reason"),
        "clipping_note": (noise.get("clipping") or {}).get("text"),
    }


def _one_network(block: dict) -> bool:
    """Each model's block line rests on one network."""
    nets = block.get("networks") or {}
    return bool(nets) and all(n == 1 for n in nets.values())


def _boot_label(report: dict) -> str:
    column = (report.get("data") or {}).get("block_column")
    return "block bootstrap (paired)" if column else "bootstrap over rows (paired)"


def _block_part(report: dict, block: dict, charts: Collection[str]) -> dict:
    """The evaluation-sample part when there is a block line: its table, facts and charts."""
    conf = confidence(block.get("confidence"))
    # one decimal count for the whole table: the primary interval's
    d = gap_decimals(block.get("gap"), block.get("low"), block.get("high"))
    primary = block.get("primary") or "bootstrap"
    return {
        "interval_rows": _block_rows(report, block, d),
        "block_facts": [
            Row("blocks", count(block.get("blocks"))),
            Row("confidence", conf),
            Row("resamples", count(block.get("resamples"))),
            Row(
                "primary interval",
                _boot_label(report).removesuffix(" (paired)")
                if primary == "bootstrap"
                else "paired t",
            ),
            Row("interval excludes zero", yes_no(block.get("excludes_zero"))),
        ],
        "block_reason": block.get("primary_reason"),
        "interval_figure": _intervals_figure(report, block, charts, conf, d),
        "histogram_figure": _histogram_figure(block, charts, conf, d),
    }


def _block_rows(report: dict, block: dict, d: int) -> list[IntervalRow]:
    """The block line's intervals of the test gap, then one per candidate seed."""
    cand, base = names(report)
    words = repeat_words(report["project"].get("repeats"))
    boot, t = block.get("bootstrap") or {}, block.get("t") or {}
    welch, two = block.get("welch") or {}, block.get("two_level") or {}
    nets = block.get("networks") or {}
    gap = block.get("gap")
    column = (report.get("data") or {}).get("block_column")
    boot_label = _boot_label(report)
    blocks = plural_noun(column) if column else "single-row blocks"
    named = [
        (boot_label, gap, boot, "low", False),
        ("paired t on block gaps", gap, t, "low", True),
        ("unpaired Welch (what pairing buys)", gap, welch, "se", True),
        (
            "two-level bootstrap (blocks only: no seed level)"
            if _one_network(block)
            else "two-level bootstrap (seeds and blocks)",
            two.get("gap", gap),
            two,
            "low",
            False,
        ),
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
        _interval_row(label, glosses[label], g, part, d, tested)
        for label, g, part, needs, tested in named
        if part.get(needs) is not None
    ]
    return rows + [
        _interval_row(
            f"{cand} {words.unit} seed {s['seed']} against the {base} "
            + (f"{words.unit}" if nets.get("baseline") == 1 else "seed mean"),
            f"one {words.one}: the sample's noise only",
            s.get("gap"),
            s,
            d,
        )
        for s in block.get("per_seed") or []
    ]


def _intervals_figure(
    report: dict, block: dict, charts: Collection[str], conf: str, d: int
) -> Figure | None:
    """The eval_intervals chart: per-network, seed-averaged and two-level intervals."""
    words = repeat_words(report["project"].get("repeats"))
    one = _one_network(block)
    per_seed = [s for s in block.get("per_seed") or [] if s.get("low") is not None]
    clear = sum(1 for s in per_seed if s["low"] > 0)
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
        + f" {said(with_sign(block.get('gap'), d), 'not measured')}, {conf} interval "
        f"{said(interval(block.get('low'), block.get('high'), digits=d), 'not computed')}; "
        f"{count(clear)} of {count(len(per_seed))} single-{words.unit} intervals lie above "
        "zero.",
    )


def _histogram_figure(block: dict, charts: Collection[str], conf: str, d: int) -> Figure | None:
    """The bootstrap_histogram chart: the resampled mean gap and the quoted interval."""
    boot = block.get("bootstrap") or {}
    primary = block.get("primary") or "bootstrap"
    dist = block.get("distribution") or {}
    primary_words = (
        "the bootstrap's percentile interval"
        if primary == "bootstrap"
        else "the paired t interval, the wider of the two"
    )
    both = primary != "bootstrap" and boot.get("low") is not None
    return chart_figure(
        charts,
        "bootstrap_histogram",
        f"The spread of the resampled mean gap. The dashed lines bound the {conf} interval "
        f"the text quotes ({primary_words})"
        + ("; the dotted lines the bootstrap's own percentile interval" if both else "")
        + ". The red line is zero. Look at how much of the distribution lies on the wrong "
        "side of zero.",
        f"Histogram of {count(block.get('resamples'))} bootstrap means of the block gap "
        f"({count(len(dist.get('counts') or []))} bins); "
        + (
            f"the quoted interval {interval(block['low'], block['high'], digits=d)}"
            + (f", the bootstrap's {interval(boot['low'], boot['high'], digits=d)}" if both else "")
            + f"; zero {'outside' if block.get('excludes_zero') else 'inside'} it."
            if block.get("low") is not None and block.get("high") is not None
            else "no interval."
        ),
    )


def _interval_row(
    label: str, gloss: str, gap: float | None, part: dict, digits: int, tested: bool = False
) -> IntervalRow:
    """One interval for the test gap; p and standard error for the t-based (tested) ones."""
    return IntervalRow(
        label,
        gloss,
        with_sign(gap, digits),
        interval(part.get("low"), part.get("high"), digits=digits),
        pvalue(part.get("p")) if tested else DASH,
        fixed(part.get("se"), digits) if tested else DASH,
    )
