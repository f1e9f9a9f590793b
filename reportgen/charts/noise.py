"""Noise charts: the seed strip, evaluation intervals, the bootstrap histogram, the variance budget."""

from __future__ import annotations

import math
from typing import Any

from reportgen.charts.compose import (
    BAD,
    BASELINE_COLOUR,
    CANDIDATE_COLOUR,
    DASHED,
    DOTTED,
    INK,
    MUTED,
    SOLID,
    WIDTH,
    Datasets,
    direction,
    dot_whisker,
    gap_title,
    layer,
    metric_name,
    model_colour,
    model_name,
    models,
    nominal_colour,
    of,
    padded,
    sized,
    unit,
    with_references,
    zero_and_useful,
)
from reportgen.model import Report
from reportgen.model.budget import Budget
from reportgen.stats.budget import half_width
from reportgen.words import confidence, count, given, power_of_ten, sig
from reportgen.words.i18n import _, p_
from reportgen.words.repeats import repeat_words


def seed_strip(report: Report, data: Datasets) -> dict[str, Any] | None:
    """Validation metric per seed and model, the means, and the band the rule asks the gap to clear."""
    import altair as alt

    seed = report.noise.seed
    if seed is None or seed.within_folds:  # cross-validation: the seed line's sd is within folds
        return None
    seeds = [
        (label, v.seed, v.value)
        for role, label, _colour in models(report)
        for v in of(seed.values, role)
    ]
    rows = [{"model": label, "seed": s, "value": value} for label, s, value in seeds]
    if not rows:
        return None
    means = [
        {"model": label, "value": of(seed.mean, role)} for role, label, _colour in models(report)
    ]
    y = alt.Y("model:N", title=None, sort=[m[1] for m in models(report)])
    layers = []
    refs = []
    edge = None
    base_mean = seed.mean.baseline
    hib = report.project.higher_is_better
    if seed.sd_used is not None and seed.multiple:
        reach = seed.multiple * seed.sd_used
        edge = base_mean + reach if hib else base_mean - reach
    # one scale for every layer, with room on both sides: the rule's bar never sits on
    # the frame, where it reads as the axis
    domain = padded([value for _label, _seed, value in seeds] + [edge])
    if domain is None:  # not reached: rows is not empty
        return None
    xscale = alt.Scale(domain=domain, nice=False)
    if edge is not None:
        band = [{"x": min(base_mean, edge), "x2": max(base_mean, edge)}]
        layers.append(
            unit(
                alt.Chart(data.add(band))
                .mark_rect(color="#ece6d6")
                .encode(x=alt.X("x:Q", scale=xscale), x2=alt.X2("x2:Q"))
            )
        )
        refs.append(
            {
                "x": edge,
                "what": (
                    _(
                        "the rule's bar: baseline mean + {multiple} × seed sd",
                        multiple=given(seed.multiple),
                    )
                    if hib
                    else _(
                        "the rule's bar: baseline mean − {multiple} × seed sd",
                        multiple=given(seed.multiple),
                    )
                ),
                "colour": INK,
                "dash": DASHED,
            }
        )
    layers.append(
        unit(
            alt.Chart(data.add(rows))
            .mark_point(size=70, filled=False, strokeWidth=1.8)
            .encode(
                x=alt.X(
                    "value:Q",
                    title=_(
                        "validation {metric} per seed ({direction})",
                        metric=metric_name(report),
                        direction=direction(report),
                    ),
                    scale=xscale,
                ),
                y=y,
                color=model_colour(alt, report),
            )
        )
    )
    if means:
        layers.append(
            unit(
                alt.Chart(data.add(means))
                .mark_tick(thickness=3, size=34)
                .encode(x=alt.X("value:Q", scale=xscale), y=y, color=model_colour(alt, report))
            )
        )
    return sized(with_references(alt, data, layers, refs, xscale), WIDTH, 110)


def eval_intervals(report: Report, data: Datasets) -> dict[str, Any] | None:
    """One evaluation interval per trained network (evaluation run) beside the seed-averaged and
    two-level ones; with one network per model, labelled as one network with no seed level."""
    import altair as alt

    block = report.noise.block
    if block is None or block.gap is None:
        return None
    cand = model_name(report, "candidate")
    words = repeat_words(report.project.repeats)
    one = block.networks.candidate == 1 and block.networks.baseline == 1
    runs = words.unit == "run"  # evaluation runs over sampling epochs, not retrained networks
    single = _("one evaluation run") if runs else _("one trained network")
    averaged = (
        (_("one run per model") if runs else _("one network per model"))
        if one
        else _("seed-averaged")
    )
    both = _("blocks only (no seed level)") if one else _("both noise sources")
    rows = [
        {
            # TRANSLATORS: a chart row: the candidate's network trained with seed {seed} (its id)
            "row": _("{model} seed {seed}", model=cand, seed=s.seed),
            "gap": s.gap,
            "low": s.low,
            "high": s.high,
            "kind": single,
        }
        for s in block.per_seed
        if s.gap is not None
    ]
    primary = block.primary or "bootstrap"
    rows.append(
        {
            "row": (
                (_("test gap (t)") if one else _("seed-averaged (t)"))
                if primary == "t"
                else (_("test gap (bootstrap)") if one else _("seed-averaged (bootstrap)"))
            ),
            "gap": block.gap,
            "low": block.low,
            "high": block.high,
            "kind": averaged,
        }
    )
    two = block.two_level
    if two.low is not None:
        rows.append(
            {
                "row": _("two-level (blocks only)") if one else _("two-level (seeds and blocks)"),
                "gap": block.gap,
                "low": two.low,
                "high": two.high,
                "kind": both,
            }
        )
    return dot_whisker(
        alt,
        data,
        rows,
        "row",
        gap_title(report),
        zero_and_useful(report, _("zero: no difference")),
        [(single, MUTED), (averaged, INK), (both, CANDIDATE_COLOUR)],
    )


def bootstrap_histogram(report: Report, data: Datasets) -> dict[str, Any] | None:
    """The bootstrap distribution of the mean block gap with its interval and zero marked."""
    import altair as alt

    block = report.noise.block
    dist = None if block is None else block.distribution
    if block is None or dist is None or not dist.counts:
        return None
    edges, counts = list(dist.edges), dist.counts
    bars = [
        {"lo": edges[i], "hi": edges[i + 1], "count": c}
        for i, c in enumerate(counts)
        if i + 1 < len(edges)
    ]
    conf = block.confidence or 0.95
    refs: list[dict[str, Any]] = [
        {"x": 0, "what": p_("chart reference", "zero"), "colour": BAD, "dash": SOLID}
    ]
    # the interval the text quotes is the primary one (noise.block low/high); when that is the
    # paired t, the bootstrap's own percentile interval is drawn too, and each is labelled
    primary = block.primary or "bootstrap"
    level = confidence(conf)
    if block.low is not None and block.high is not None:
        label = (
            _("{level} interval quoted (bootstrap)", level=level)
            if primary == "bootstrap"
            else _("{level} interval quoted (paired t)", level=level)
        )
        refs += [
            {"x": block.low, "what": label, "colour": INK, "dash": DASHED},
            {"x": block.high, "what": label, "colour": INK, "dash": DASHED},
        ]
    boot = block.bootstrap
    if primary != "bootstrap" and boot.low is not None and boot.high is not None:
        label = _("{level} bootstrap percentile interval", level=level)
        refs += [
            {"x": boot.low, "what": label, "colour": MUTED, "dash": DOTTED},
            {"x": boot.high, "what": label, "colour": MUTED, "dash": DOTTED},
        ]
    refs.append(
        {"x": block.gap, "what": _("observed gap"), "colour": CANDIDATE_COLOUR, "dash": SOLID}
    )
    hist = (
        alt.Chart(data.add(bars))
        .mark_rect(color="#b9c7d6", stroke="white", strokeWidth=0.5)
        .encode(
            x=alt.X(
                "lo:Q",
                title=_(
                    "resampled mean gap in {metric} (candidate better is positive)",
                    metric=metric_name(report),
                ),
                scale=alt.Scale(
                    domain=padded(edges + [r["x"] for r in refs], 0.04, include_zero=True),
                    nice=False,
                ),
            ),
            x2=alt.X2("hi:Q"),
            y=alt.Y("count:Q", title=_("resamples")),
        )
    )
    return sized(with_references(alt, data, [unit(hist)], refs), WIDTH, 150)


# ---------------------------------------------------------------- the variance budget


#: below this total the variance axis is scaled (ticks 0 to 9.9 and "× 10⁻⁵" in its title):
#: plain decimals of a smaller number would be mostly zeros
SCALED_BELOW = 1e-3
VARIANCE_FORMAT = ",~r"


def variance_scale(total: float) -> tuple[float, str]:
    """The variance axis: the factor its values are drawn times and its title. Ticks are never
    in exponent form: decimals from 10⁻³ up (0.0015; 50,000 for a regression target's squared
    units), and below that the values times a power of ten, named in the title (× 10⁻⁵)."""
    if not total or total >= SCALED_BELOW:
        return 1.0, _("variance of the gap")
    exponent = math.floor(math.log10(total))
    power = power_of_ten(10.0**exponent, 1).removeprefix("1 × ")
    return 10.0**-exponent, _("variance of the gap (× {power})", power=power)


def budget(report: Report, data: Datasets) -> dict[str, Any] | None:
    """The two variance terms as a stacked bar, and the predicted half-width as seeds or blocks
    grow, with today's gap marked (a planning model, not a measurement)."""
    import altair as alt

    b = report.noise.budget
    if not isinstance(b, Budget) or not b.total:
        return None
    term = repeat_words(report.project.repeats).term
    block_term = _("block term (evaluation sample)")
    times, title = variance_scale(b.total)
    terms = [
        {"what": term, "value": b.seed_term * times, "order": 1},
        {"what": block_term, "value": b.block_term * times, "order": 2},
    ]
    bar = unit(
        alt.Chart(data.add(terms))
        .mark_bar(height=18)
        .encode(
            x=alt.X(
                "value:Q",
                stack="zero",
                title=title,
                axis=alt.Axis(format=VARIANCE_FORMAT, tickCount=4),
            ),
            color=nominal_colour(
                alt,
                "what",
                [
                    (term, CANDIDATE_COLOUR),
                    (block_term, MUTED),
                ],
                title=None,
            ),
            order=alt.Order("order:Q"),
        )
    )
    z = b.z
    s_var, b_var = b.seed_sd**2, b.block_sd**2
    S, B = b.S, b.B
    more_seeds = _("more seeds ({n} now), blocks fixed", n=count(S))
    more_blocks = _("more blocks ({n} now), seeds fixed", n=count(B))
    rows: list[dict[str, Any]] = []
    for k in (1, 1.5, 2, 3, 4, 6, 8, 10):
        rows.append({"k": k, "half": half_width(s_var, S * k, b_var, B, z), "what": more_seeds})
        rows.append({"k": k, "half": half_width(s_var, S, b_var, B * k, z), "what": more_blocks})
    gap = abs(b.planning.gap or 0.0)
    lines = unit(
        alt.Chart(data.add(rows))
        .mark_line(point=True, strokeWidth=1.6)
        .encode(
            x=alt.X(
                "k:Q",
                # TRANSLATORS: the x axis: how many times today's seeds (or blocks) are used
                title=_("times today's count"),
                scale=alt.Scale(type="log", domain=[1, 10]),
            ),
            y=alt.Y("half:Q", title=_("predicted half-width"), scale=alt.Scale(zero=True)),
            color=nominal_colour(
                alt,
                "what",
                [
                    (more_seeds, CANDIDATE_COLOUR),
                    (more_blocks, BASELINE_COLOUR),
                ],
                title=None,
            ),
        )
    )
    ref = unit(
        alt.Chart(
            data.add(
                [
                    {
                        "y": gap,
                        "what": _(
                            "today's gap ({gap}): below it, zero is excluded", gap=sig(gap, 3)
                        ),
                    }
                ]
            )
        )
        .mark_rule(strokeWidth=1.5, strokeDash=DASHED, color=INK)
        .encode(y="y:Q", tooltip=alt.Tooltip("what:N"))
    )
    label = unit(
        alt.Chart(data.add([{"y": gap, "k": 10, "what": _("today's gap")}]))
        .mark_text(align="right", dy=-6, fontSize=11, color=INK)
        .encode(x="k:Q", y="y:Q", text="what:N")
    )
    return {
        "vconcat": [
            sized(bar, 380, 16),
            sized(layer(lines, ref, label), 380, 110),
        ],
        "resolve": {"scale": {"color": "independent"}},
    }
