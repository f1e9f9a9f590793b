"""Before-after charts: the difference with its interval, fixed and broken questions, forgetting."""

from __future__ import annotations

from typing import Any

from reportgen.charts.compose import (
    AMBER,
    BAD,
    DASHED,
    GOOD,
    INK,
    MUTED,
    SOLID,
    WIDTH,
    Datasets,
    dot_whisker,
    layer,
    metric_name,
    unit,
    zero_and_useful,
)
from reportgen.model import Report
from reportgen.model.enums import GeneralStatus
from reportgen.words import given
from reportgen.words.i18n import _, p_


def method_word(method: str) -> str:
    """An interval's method as a chart row names it: bootstrap, t or exact (another as it is)."""
    words = {
        "bootstrap": p_("interval method", "bootstrap"),
        "t": "t",
        "exact": p_("interval method", "exact"),
    }
    return words.get(method, method)


def before_after_interval(report: Report, data: Datasets) -> dict[str, Any] | None:
    """The before/after difference with its interval(s) and zero."""
    import altair as alt

    ba = report.before_after
    if ba is None or ba.difference is None or ba.low is None:
        return None
    primary = ba.primary or "bootstrap"
    shown, compared = _("primary interval"), _("for comparison")
    rows = [
        {
            # TRANSLATORS: a chart row; {method} is the interval's method: bootstrap, t or exact
            "row": _("after − before ({method})", method=method_word(primary)),
            "gap": ba.difference,
            "low": ba.low,
            "high": ba.high,
            "kind": shown,
        }
    ]
    if primary != "t" and ba.t.low is not None:
        rows.append(
            {
                "row": _("after − before ({method})", method=method_word("t")),
                "gap": ba.difference,
                "low": ba.t.low,
                "high": ba.t.high,
                "kind": compared,
            }
        )
    return dot_whisker(
        alt,
        data,
        rows,
        "row",
        _("change in {metric} (after better is positive)", metric=metric_name(report)),
        zero_and_useful(report, _("zero: no change")),
        # the legend names only what is drawn: no "for comparison" without a second interval
        [(shown, INK), (compared, MUTED)] if len(rows) > 1 else [(shown, INK)],
    )


def fixed_broken(report: Report, data: Datasets) -> dict[str, Any] | None:
    """Fixed and broken questions per category; without fixed_by_category, fixed in one bar."""
    import altair as alt

    ba = report.before_after
    if ba is None:
        return None
    broken_by = ba.broken_by_category or {}
    fixed_by = ba.fixed_by_category
    fixed, broken = p_("question", "fixed"), p_("question", "broken")
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
            for what, counts in ((fixed, fixed_by), (broken, broken_by))
        ]
    else:
        rows = [{"category": _("all categories"), "what": fixed, "count": ba.fixed}]
        rows += [
            {"category": str(c), "what": broken, "count": n}
            for c, n in sorted(broken_by.items(), key=lambda kv: (-kv[1], kv[0]))
        ]
    if not rows:
        return None
    order: list[str] = list(dict.fromkeys(r["category"] for r in rows))
    offset = alt.YOffset("what:N", sort=[fixed, broken])
    bars = (
        alt.Chart(data.add(rows))
        .mark_bar(height=10)
        .encode(
            x=alt.X("count:Q", title=_("questions"), axis=alt.Axis(tickMinStep=1)),
            y=alt.Y("category:N", title=None, sort=order),
            yOffset=offset,
            color=alt.Color(
                "what:N",
                title=None,
                scale=alt.Scale(domain=[fixed, broken], range=[GOOD, BAD]),
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
    """The general (forgetting) set's drop with its interval against the allowed drop.

    Drawn on the drop's own scale, not as two bars from zero: a 0.011 drop against a 0.02
    allowance is the question, and bars of 0.84 and 0.83 make it a sliver. The dot is the
    drop (positive: worse after tuning), the whisker its interval, the dashed red line the
    allowance. Coloured by the check's status.
    """
    import altair as alt

    general = report.general
    if general is None or general.drop is None:
        return None
    status = GeneralStatus(general.status)
    colours = {
        GeneralStatus.HELD: (_("held: within the allowance"), GOOD),
        GeneralStatus.DROPPED: (_("dropped: beyond the allowance"), BAD),
        GeneralStatus.NOT_SHOWN: (_("not shown to hold"), AMBER),
    }
    kind = colours[status][0]
    low = general.low if general.low is not None else general.drop
    high = general.high if general.high is not None else general.drop
    # the two scores and the interval are in the facts under the chart: said once
    rows = [{"set": _("general set"), "gap": general.drop, "low": low, "high": high, "kind": kind}]
    refs = [
        {"x": 0, "what": _("zero: no drop"), "colour": INK, "dash": SOLID},
        {
            "x": general.max_drop,
            "what": _("allowed drop ({drop})", drop=given(general.max_drop)),
            "colour": BAD,
            "dash": DASHED,
        },
    ]
    return dot_whisker(
        alt,
        data,
        rows,
        "set",
        _(
            "drop in general-set {metric} (positive: worse after tuning)",
            metric=metric_name(report),
        ),
        refs,
        [colours[status]],
    )
