"""Before-after charts: the difference with its interval, fixed and broken questions, forgetting."""

from __future__ import annotations

from typing import Any

from reportgen.charts.compose import (
    BAD,
    BASELINE_COLOUR,
    CANDIDATE_COLOUR,
    DASHED,
    GOOD,
    INK,
    MUTED,
    WIDTH,
    Datasets,
    direction,
    dot_whisker,
    layer,
    metric_name,
    sized,
    unit,
    with_references,
    zero_and_useful,
)
from reportgen.model import Report
from reportgen.stats.proportions import wilson


def before_after_interval(report: Report, data: Datasets) -> dict[str, Any] | None:
    """The before/after difference with its interval(s) and zero."""
    import altair as alt

    ba = report.before_after
    if ba is None or ba.difference is None or ba.low is None:
        return None
    primary = ba.primary or "bootstrap"
    rows = [
        {
            "row": f"after − before ({primary})",
            "gap": ba.difference,
            "low": ba.low,
            "high": ba.high,
            "kind": "primary interval",
        }
    ]
    if primary != "t" and ba.t.low is not None:
        rows.append(
            {
                "row": "after − before (t)",
                "gap": ba.difference,
                "low": ba.t.low,
                "high": ba.t.high,
                "kind": "for comparison",
            }
        )
    return dot_whisker(
        alt,
        data,
        rows,
        "row",
        f"change in {metric_name(report)} (after better is positive)",
        zero_and_useful(report, "zero: no change"),
        [("primary interval", INK), ("for comparison", MUTED)],
    )


def fixed_broken(report: Report, data: Datasets) -> dict[str, Any] | None:
    """Fixed and broken questions per category; without fixed_by_category, fixed in one bar."""
    import altair as alt

    ba = report.before_after
    if ba is None:
        return None
    broken_by = ba.broken_by_category or {}
    fixed_by = ba.fixed_by_category
    rows: list[dict[str, Any]]
    if fixed_by:
        # both bars for every category, most broken first: a regression shows at the top
        cats = sorted(
            set(fixed_by) | set(broken_by),
            key=lambda c: (-broken_by.get(c, 0), -fixed_by.get(c, 0), str(c)),
        )
        rows = [
            {"category": str(c), "what": what, "count": counts.get(c, 0)}
            for c in cats
            for what, counts in (("fixed", fixed_by), ("broken", broken_by))
        ]
    else:
        rows = [{"category": "all categories", "what": "fixed", "count": ba.fixed}]
        rows += [
            {"category": str(c), "what": "broken", "count": n}
            for c, n in sorted(broken_by.items(), key=lambda kv: (-kv[1], kv[0]))
        ]
    if not rows:
        return None
    order: list[str] = list(dict.fromkeys(r["category"] for r in rows))
    offset = alt.YOffset("what:N", sort=["fixed", "broken"])
    bars = (
        alt.Chart(data.add(rows))
        .mark_bar(height=10)
        .encode(
            x=alt.X("count:Q", title="questions", axis=alt.Axis(tickMinStep=1)),
            y=alt.Y("category:N", title=None, sort=order),
            yOffset=offset,
            color=alt.Color(
                "what:N",
                title=None,
                scale=alt.Scale(domain=["fixed", "broken"], range=[GOOD, BAD]),
            ),
        )
    )
    labels = (
        alt.Chart(data.add(rows))
        .mark_text(align="left", dx=3, fontSize=11, color=INK)
        .encode(
            x=alt.X("count:Q"),
            y=alt.Y("category:N", sort=order),
            yOffset=offset,
            text=alt.Text("count:Q"),
        )
    )
    return layer(unit(bars), unit(labels), width=WIDTH - 80, height=max(60, 30 * len(order)))


def forgetting(report: Report, data: Datasets) -> dict[str, Any] | None:
    """General-set metric before and after against the lowest value the allowed drop permits.

    Each bar is labelled with its value and the rows it rests on; for accuracy (a
    proportion) a Wilson interval at the report's confidence shows how much of the drop the
    sample size could explain.
    """
    import altair as alt

    general = report.general
    if general is None or general.before is None or general.after is None:
        return None
    hib = report.project.higher_is_better
    before, after = general.before, general.after
    n: float | None = report.data.parts.get(general.split or "general")
    proportion = bool(n) and all(0 <= v <= 1 for v in (before, after))
    proportion = proportion and report.project.metric in ("accuracy", "exact_match")
    confidence = report.build.confidence
    cov = general.coverage
    rows: list[dict[str, Any]] = []
    for when, value in (("before", before), ("after", after)):
        if cov is not None and not cov.complete:  # each version's score is on its own questions
            side = cov.before if when == "before" else cov.after
            n = side.answered + side.outside
        row: dict[str, Any] = {"when": when, "value": value, "label": f"{value:.3f}"}
        if n:
            row["label"] += (
                f" ({round(value * n):,} of {int(n):,} right)"
                if proportion
                else (f" ({int(n):,} rows)")
            )
        if proportion and n is not None:  # proportion implies a count n (parts' or a side's)
            row["low"], row["high"] = wilson(value * n, n, confidence)
        rows.append(row)
    drop = general.max_drop
    floor = before - drop if hib else before + drop
    xs = [r["value"] for r in rows] + [r.get("high") for r in rows] + [floor]
    # bars start at zero; a little room past the longest bar, its interval and the floor
    xscale = alt.Scale(domain=[0, 1.06 * max(x for x in xs if x is not None)], nice=False)
    source = data.add(rows)
    y = alt.Y("when:N", title=None, sort=["before", "after"])
    bars = (
        alt.Chart(source)
        .mark_bar(height=22)
        .encode(
            x=alt.X(
                "value:Q",
                title=f"general-set {metric_name(report)} ({direction(report)})",
                scale=xscale,
            ),
            y=y,
            color=alt.Color(
                "when:N",
                title=None,
                scale=alt.Scale(
                    domain=["before", "after"], range=[BASELINE_COLOUR, CANDIDATE_COLOUR]
                ),
                legend=None,
            ),
        )
    )
    layers = [unit(bars)]
    if proportion:
        layers.append(
            unit(
                alt.Chart(source)
                .mark_rule(strokeWidth=1.5, color=INK)
                .encode(x=alt.X("low:Q", scale=xscale), x2=alt.X2("high:Q"), y=y)
            )
        )
    layers.append(
        unit(
            alt.Chart(source)
            # inside the bar, from its base: clear of the interval and the floor line
            .mark_text(align="left", dx=6, fontSize=11, color="white")
            .encode(
                x=alt.datum(0),
                y=y,
                text=alt.Text("label:N"),
            )
        )
    )
    refs = [
        {
            "x": floor,
            "what": f"{'lowest' if hib else 'highest'} value the allowed drop permits",
            "colour": BAD,
            "dash": DASHED,
        }
    ]
    return sized(with_references(alt, data, layers, refs, xscale), WIDTH - 80, 80)
