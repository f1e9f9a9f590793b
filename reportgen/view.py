"""The report context: one dataclass per template section, every number formatted once, here.

Templates only print these strings. Nothing here builds HTML; the only markup is chart SVG
produced by vl-convert from our own specs (see charts.py), carried in Figure.svg.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

DASH = "—"
MINUS = "\u2212"

RUNG_NAMES = ["correct", "fair", "larger than noise", "relevant", "bounded"]
STATUS_CLASS = {"shown": "shown", "partly": "partly", "not shown": "not-shown"}
STATUS_MARK = {"shown": "✓", "partly": "◐", "not shown": "✗"}
#: artefacts listed per rung on page one; longer lists are completed in the appendix
PAGE_ONE_ARTEFACTS = 3
VERDICT_CLASS = {
    "adopt": "shown",
    "keep-baseline": "partly",
    "roll-back": "not-shown",
    "inconclusive": "neutral",
}


# ---------------------------------------------------------------- formatting


def num(x: float | int | None, digits: int = 4) -> str:
    """A number with a fixed count of decimals and a typographic minus; None is a dash."""
    if x is None:
        return DASH
    text = f"{x:,.{digits}f}"
    if text.startswith("-"):
        text = MINUS + text[1:]
        if text.strip(MINUS + "0.,") == "":
            text = text[1:]  # "−0.0000" reads as a sign that is not there
    return text


def signed(x: float | None, digits: int = 4) -> str:
    """A gap with an explicit sign (+0.0085, −0.0060)."""
    if x is None:
        return DASH
    text = num(x, digits)
    return text if text.startswith(MINUS) or float(x) == 0 else "+" + text


def count(n: int | None) -> str:
    return DASH if n is None else f"{n:,}"


def pct(x: float | None, digits: int = 0) -> str:
    return DASH if x is None else f"{x * 100:.{digits}f}%"


def pvalue(p: float | None) -> str:
    if p is None:
        return DASH
    if p < 0.001:
        return "< 0.001"
    return f"{p:.3f}"


def interval(low: float | None, high: float | None, digits: int = 4) -> str:
    if low is None or high is None:
        return DASH
    return f"{signed(low, digits)} to {signed(high, digits)}"


def passed_word(passed: bool | None) -> tuple[str, str]:
    """(word, css class) for a check result; None means it could not be checked."""
    if passed is True:
        return "pass", "shown"
    if passed is False:
        return "fail", "not-shown"
    return "not checked", "neutral"


def yes_no(x: bool | None) -> str:
    return DASH if x is None else ("yes" if x else "no")


# ---------------------------------------------------------------- context dataclasses


@dataclass(frozen=True)
class Figure:
    """One chart: inline SVG from vl-convert, what to look for, and a text alternative."""

    key: str
    svg: str
    caption: str
    description: str

    @property
    def data_uri(self) -> str:
        """The SVG as a data: URI, for the <img> of the printed page."""
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg.encode("utf-8")).decode()


@dataclass(frozen=True)
class Row:
    """A label and its formatted value, for fact lists."""

    label: str
    value: str


@dataclass(frozen=True)
class Status:
    word: str
    css: str
    mark: str


@dataclass(frozen=True)
class LadderRow:
    rung: int
    name: str
    status: Status
    artefacts: list[str]
    #: the first few artefacts, for page one; the rest are counted in `artefacts_more`
    artefacts_shown: list[str]
    artefacts_more: str | None
    missing: str
    summary: str | None


@dataclass(frozen=True)
class ComparisonRow:
    """A logged metric value against the one recomputed from predictions (rung 1)."""

    model: str
    seed: str
    split: str
    logged: str
    recomputed: str
    agree: Status
    cite: str


@dataclass(frozen=True)
class Fact:
    """A pass/fail fact with its evidence (fairness, individual checks)."""

    label: str
    text: str
    status: Status
    artefacts: list[str]
    value: str = DASH
    bar: str = DASH


@dataclass(frozen=True)
class Header:
    title: str
    author: str | None
    date: str
    version: str
    kind: str
    candidate: str
    baseline: str
    metric: str
    direction: str


@dataclass(frozen=True)
class ClaimView:
    original: str
    rewritten: str
    supported: str
    reconsider_when: str
    reconsider_items: list[str]


@dataclass(frozen=True)
class DecisionView:
    verdict: str
    css: str
    recommend: str
    recommend_role: str
    reasons: list[str]
    alternatives: list[str]


@dataclass(frozen=True)
class SeedRow:
    model: str
    n: str
    mean: str
    sd: str
    values: str


@dataclass(frozen=True)
class IntervalRow:
    label: str
    gap: str
    interval: str
    p: str
    se: str


@dataclass(frozen=True)
class NoiseView:
    lines: list[str]
    covers: list[str]
    seed_figure: Figure | None
    seed_rows: list[SeedRow]
    seed_facts: list[Row]
    seed_reason: str | None
    left_out: list[str]
    interval_figure: Figure | None
    histogram_figure: Figure | None
    interval_rows: list[IntervalRow]
    block_facts: list[Row]
    block_reason: str | None
    paired_facts: list[Row]


@dataclass(frozen=True)
class ModelThreshold:
    model: str
    seed: str
    threshold: str
    validation_cost: str
    test_cost: str
    mean_test_cost: str
    precision: str
    recall: str
    tn: str
    fp: str
    fn: str
    tp: str
    rows: str
    predicted_positive: str
    actual_positive: str
    auc: str
    ap: str


@dataclass(frozen=True)
class ThresholdView:
    figure: Figure | None
    ranking_figure: Figure | None
    models: list[ModelThreshold]
    facts: list[Row]
    unit: str
    rule: str


@dataclass(frozen=True)
class BinRow:
    bin: str
    candidate_count: str
    candidate_mean_p: str
    candidate_observed: str
    baseline_count: str
    baseline_mean_p: str
    baseline_observed: str


@dataclass(frozen=True)
class CalibrationView:
    figure: Figure | None
    summary: list[Row]
    bins: list[BinRow]


@dataclass(frozen=True)
class SliceRow:
    slice: str
    rows: str
    blocks: str
    gap: str
    interval: str
    reading: str
    css: str
    required: str


@dataclass(frozen=True)
class SlicesView:
    figure: Figure | None
    rows: list[SliceRow]


@dataclass(frozen=True)
class BoundsView:
    data: list[Row]
    not_tested: list[str]
    relevance: list[Row]
    relevance_text: str | None


@dataclass(frozen=True)
class BrokenRow:
    id: str
    category: str
    text: str


@dataclass(frozen=True)
class BeforeAfterView:
    summary: list[Row]
    interval_figure: Figure | None
    categories_figure: Figure | None
    forgetting_figure: Figure | None
    category_sentence: str | None
    broken: list[BrokenRow]
    general: list[Row]
    general_status: Status | None


@dataclass(frozen=True)
class FileRow:
    path: str
    sha256: str
    size: str


@dataclass(frozen=True)
class ProvenanceView:
    inputs: list[FileRow]
    libraries: list[Row]
    settings: list[Row]
    command: str


@dataclass(frozen=True)
class WarningRow:
    where: str
    severity: str
    slug: str
    message: str


@dataclass(frozen=True)
class ReportView:
    """Everything templates/report.html prints, in reading order."""

    header: Header
    claim: ClaimView
    decision: DecisionView
    ladder: list[LadderRow]
    noise: NoiseView
    threshold: ThresholdView | None
    calibration: CalibrationView | None
    slices: SlicesView | None
    bounds: BoundsView
    fairness: list[Fact]
    checks: list[Fact]
    provenance: ProvenanceView
    before_after: BeforeAfterView | None
    warnings: list[WarningRow]
    comparisons: list[ComparisonRow]


# ---------------------------------------------------------------- builders


def _status(status: str) -> Status:
    return Status(status, STATUS_CLASS.get(status, "neutral"), STATUS_MARK.get(status, "?"))


def _fact_status(passed: bool | None) -> Status:
    word, css = passed_word(passed)
    return Status(word, css, {"shown": "✓", "not-shown": "✗"}.get(css, "–"))


def _figure(charts: dict[str, str], key: str, caption: str, description: str) -> Figure | None:
    svg = charts.get(key)
    if svg is None:
        return None
    return Figure(key, svg, caption, description)


def _names(report: dict) -> tuple[str, str]:
    p = report["project"]
    return str(p["candidate"]), str(p["baseline"])


def _metric(report: dict) -> str:
    return str(report["project"]["metric"]).replace("_", " ")


def header_view(report: dict) -> Header:
    p = report["project"]
    return Header(
        title=str(p["title"]),
        author=p.get("author"),
        date=str(report.get("build", {}).get("date") or DASH),
        version=str(report.get("tool", {}).get("version") or DASH),
        kind="before and after" if p["kind"] == "before-after" else "model against baseline",
        candidate=str(p["candidate"]),
        baseline=str(p["baseline"]),
        metric=_metric(report),
        direction="higher is better" if p["higher_is_better"] else "lower is better",
    )


def claim_view(report: dict) -> ClaimView:
    c = report["claim"]
    rung = c.get("supported_rung") or 0
    if rung <= 0:
        supported = "The evidence supports no rung of the ladder: not even rung 1 (correct)."
    else:
        supported = (
            f"The evidence supports the claim up to rung {rung} ({RUNG_NAMES[rung - 1]}); "
            "the rewritten claim says no more than that."
        )
    return ClaimView(
        original=str(c.get("original") or report["project"].get("claim") or DASH),
        rewritten=str(c.get("rewritten") or DASH),
        supported=supported,
        reconsider_when=_strip_prefix(str(c.get("reconsider_when") or DASH), "reconsider when"),
        reconsider_items=[str(i) for i in c.get("reconsider_items") or []],
    )


def _strip_prefix(text: str, prefix: str) -> str:
    """Drop a leading label the template already prints ("Reconsider when ...")."""
    if text.lower().startswith(prefix):
        rest = text[len(prefix) :].lstrip(" :")
        return rest[:1].upper() + rest[1:] if rest else text
    return text


def decision_view(report: dict) -> DecisionView:
    d = report["decision"]
    cand, base = _names(report)
    verdict = d.get("verdict") or "inconclusive"
    words = {
        "adopt": f"Adopt {cand}",
        "keep-baseline": f"Keep {base}",
        "roll-back": f"Roll back to {base}",
        "inconclusive": "Inconclusive",
    }
    recommend = str(d.get("recommend") or base)
    role = "candidate" if recommend == cand else "baseline" if recommend == base else "model"
    other = base if recommend == cand else cand
    if verdict == "adopt":
        alternatives = [f"Keep {base}: the baseline stays if the evidence is judged insufficient."]
    else:
        alternatives = [
            f"Adopt {other}: not supported by this evidence; see the reconsider-when line "
            "for what would change that."
        ]
    return DecisionView(
        verdict=words.get(verdict, verdict),
        css=VERDICT_CLASS.get(verdict, "neutral"),
        recommend=recommend,
        recommend_role=role,
        reasons=[str(r) for r in d.get("reasons") or []],
        alternatives=alternatives,
    )


def ladder_view(report: dict) -> list[LadderRow]:
    rows = []
    for r in report["ladder"]:
        artefacts = [str(a) for a in r.get("artefacts") or []]
        more = len(artefacts) - PAGE_ONE_ARTEFACTS
        rows.append(
            LadderRow(
                rung=int(r["rung"]),
                name=str(r["name"]),
                status=_status(r["status"]),
                artefacts=artefacts,
                artefacts_shown=artefacts if more <= 0 else artefacts[: PAGE_ONE_ARTEFACTS - 1],
                artefacts_more=None if more <= 0 else f"+ {more + 1} more (see Evidence by rung)",
                missing=str(r.get("missing") or DASH),
                summary=r.get("summary"),
            )
        )
    return rows


def noise_view(report: dict, charts: dict[str, str]) -> NoiseView:
    noise = report["noise"]
    measured = noise.get("seed") is not None
    seed = noise.get("seed") or {}
    block = noise.get("block")
    cand, base = _names(report)
    metric = _metric(report)
    roles = [("candidate", cand), ("baseline", base)]

    seed_rows = []
    values = seed.get("values") or {}
    for role, name in roles:
        vals = [v["value"] for v in values.get(role) or [] if v.get("value") is not None]
        seed_rows.append(
            SeedRow(
                model=f"{name} ({role})",
                n=count((seed.get("n") or {}).get(role)),
                mean=num((seed.get("mean") or {}).get(role)),
                sd=num((seed.get("sd") or {}).get(role)),
                values=", ".join(num(v) for v in vals) or DASH,
            )
        )
    if not measured:
        seed_rows = []
    rule_word = passed_word(seed.get("passes"))[0]
    n_cand = (seed.get("n") or {}).get("candidate")
    beating = seed.get("seeds_beating_baseline")
    seed_facts = [
        Row("validation gap (candidate better is positive)", signed(seed.get("validation_gap"))),
        Row("seed sd used by the rule", num(seed.get("sd_used"))),
        Row("gap in seed sd", num(seed.get("gap_in_sd"), 2)),
        Row("rule: gap must exceed", f"{num(seed.get('multiple'), 1)} seed sd"),
        Row("rule result", rule_word),
        Row(
            f"{cand} seeds beating the {base} mean",
            DASH if beating is None else f"{beating} of {count(n_cand)}",
        ),
    ]
    if not measured:
        seed_facts = []
    seed_fig = None
    if "seed_strip" in charts:
        means = seed.get("mean") or {}
        seed_fig = _figure(
            charts,
            "seed_strip",
            "Each circle is one trained network's validation score; the thick tick is the "
            "model's mean. Look at whether the candidate's mean lies beyond the dashed bar "
            "(the shaded band is the distance the rule asks for) and how far the seeds overlap.",
            f"Strip plot of validation {metric} per seed. {cand} mean {num(means.get('candidate'))}, "
            f"{base} mean {num(means.get('baseline'))}; seed sd used "
            f"{num(seed.get('sd_used'))}; the gap is {num(seed.get('gap_in_sd'), 2)} seed sd, "
            f"the rule needs more than {num(seed.get('multiple'), 1)}: {rule_word}.",
        )

    interval_rows: list[IntervalRow] = []
    block_facts: list[Row] = []
    interval_fig = hist_fig = None
    block_reason = None
    if block:
        conf = pct(block.get("confidence"))
        boot = block.get("bootstrap") or {}
        t = block.get("t") or {}
        welch = block.get("welch") or {}
        if boot.get("low") is not None:
            interval_rows.append(
                IntervalRow(
                    "block bootstrap (paired)",
                    signed(block.get("gap")),
                    interval(boot.get("low"), boot.get("high")),
                    DASH,
                    DASH,
                )
            )
        if t.get("low") is not None:
            interval_rows.append(
                IntervalRow(
                    "paired t on block gaps",
                    signed(block.get("gap")),
                    interval(t.get("low"), t.get("high")),
                    pvalue(t.get("p")),
                    num(t.get("se")),
                )
            )
        if welch.get("se") is not None:
            interval_rows.append(
                IntervalRow(
                    "unpaired Welch (what pairing buys)",
                    signed(block.get("gap")),
                    interval(welch.get("low"), welch.get("high")),
                    pvalue(welch.get("p")),
                    num(welch.get("se")),
                )
            )
        two = block.get("two_level") or {}
        if two.get("low") is not None:
            interval_rows.append(
                IntervalRow(
                    "two-level bootstrap (seeds and blocks)",
                    signed(two.get("gap", block.get("gap"))),
                    interval(two.get("low"), two.get("high")),
                    DASH,
                    DASH,
                )
            )
        for s in block.get("per_seed") or []:
            interval_rows.append(
                IntervalRow(
                    f"{cand} network seed {s['seed']} against the {base} seed mean",
                    signed(s.get("gap")),
                    interval(s.get("low"), s.get("high")),
                    DASH,
                    DASH,
                )
            )
        primary = block.get("primary") or "bootstrap"
        block_facts = [
            Row("blocks", count(block.get("blocks"))),
            Row("confidence", conf),
            Row("resamples", count(block.get("resamples"))),
            Row(
                "primary interval",
                "block bootstrap" if primary == "bootstrap" else "paired t",
            ),
            Row("interval excludes zero", yes_no(block.get("excludes_zero"))),
        ]
        block_reason = block.get("primary_reason")
        per_seed = [s for s in block.get("per_seed") or [] if s.get("low") is not None]
        clear = sum(1 for s in per_seed if s["low"] > 0)
        interval_fig = _figure(
            charts,
            "eval_intervals",
            "One evaluation interval per trained candidate network (grey) beside the "
            "seed-averaged interval (black) and the two-level interval that also resamples "
            "seeds (blue). Look at how far retraining moves the centre, and whether the "
            "intervals stay clear of zero.",
            f"Dot-and-whisker chart of {metric} gaps on test. Seed-averaged gap "
            f"{signed(block.get('gap'))}, {conf} interval "
            f"{interval(block.get('low'), block.get('high'))}; "
            f"{clear} of {len(per_seed)} single-network intervals lie above zero.",
        )
        dist = block.get("distribution") or {}
        hist_fig = _figure(
            charts,
            "bootstrap_histogram",
            "The spread of the resampled mean gap: the dashed lines bound the interval, the "
            "red line is zero. Look at how much of the distribution lies on the wrong side of "
            "zero.",
            f"Histogram of {count(block.get('resamples'))} bootstrap means of the block gap "
            f"({len(dist.get('counts') or [])} bins); interval "
            f"{interval(boot.get('low', block.get('low')), boot.get('high', block.get('high')))}"
            f", zero {'outside' if block.get('excludes_zero') else 'inside'} it.",
        )
    elif (noise.get("interval") or {}).get("low") is not None:
        other = noise["interval"]
        interval_rows.append(
            IntervalRow(
                f"bootstrap over {other.get('what') or other.get('source') or 'the evaluation sample'}",
                signed(other.get("gap")),
                interval(other.get("low"), other.get("high")),
                DASH,
                DASH,
            )
        )
        block_reason = (
            "The interval's chart is in the before-and-after section."
            if report.get("before_after")
            else None
        )
    else:
        block_reason = "No per-row predictions: the evaluation interval was not computed."

    paired = seed.get("paired") or {}
    paired_facts = []
    if paired.get("mean") is not None:
        paired_facts = [
            Row("paired seeds", count(paired.get("n"))),
            Row("part", str(paired.get("part") or DASH)),
            Row("mean per-seed difference", signed(paired.get("mean"))),
            Row("sd of differences", num(paired.get("sd"))),
            Row("t interval", interval(paired.get("low"), paired.get("high"))),
            Row("p", pvalue(paired.get("p"))),
        ]

    lines = [str(x) for x in noise.get("lines") or []]
    covers = [str(x) for x in noise.get("covers") or []]
    return NoiseView(
        lines=lines,
        covers=covers + [DASH] * (len(lines) - len(covers)),
        seed_figure=seed_fig,
        seed_rows=seed_rows,
        seed_facts=seed_facts,
        seed_reason=seed.get("reason"),
        left_out=[str(x) for x in seed.get("left_out") or []],
        interval_figure=interval_fig,
        histogram_figure=hist_fig,
        interval_rows=interval_rows,
        block_facts=block_facts,
        block_reason=block_reason,
        paired_facts=paired_facts,
    )


def threshold_view(report: dict, charts: dict[str, str]) -> ThresholdView | None:
    th = report.get("threshold")
    if not th:
        return None
    ranking = report.get("ranking") or {}
    cand, base = _names(report)
    costs = th.get("costs") or {}
    unit = str(costs.get("unit") or "cost units")
    models = []
    for role, name in (("candidate", cand), ("baseline", base)):
        m = th.get(role) or {}
        rk = ranking.get(role) or {}
        cm = m.get("confusion") or [[None, None], [None, None]]
        models.append(
            ModelThreshold(
                model=f"{name} ({role})",
                seed=count(m.get("seed")),
                threshold=_threshold_text(m.get("threshold")),
                validation_cost=num(m.get("validation_cost")),
                test_cost=num(m.get("test_cost")),
                mean_test_cost=num(m.get("mean_test_cost")),
                precision=num(m.get("precision"), 3),
                recall=num(m.get("recall"), 3),
                tn=count(cm[0][0]),
                fp=count(cm[0][1]),
                fn=count(cm[1][0]),
                tp=count(cm[1][1]),
                rows=count(m.get("rows")),
                predicted_positive=count(m.get("predicted_positive")),
                actual_positive=count(m.get("actual_positive")),
                auc=num(rk.get("roc_auc"), 3),
                ap=num(rk.get("average_precision"), 3),
            )
        )
    facts = [
        Row("cost of a false positive", f"{num(costs.get('false_positive'), 2)} ({unit})"),
        Row("cost of a false negative", f"{num(costs.get('false_negative'), 2)} ({unit})"),
        Row("theoretical cutoff c_FP / (c_FP + c_FN)", num(th.get("theoretical_cutoff"), 3)),
    ]
    if costs.get("cases_per_period") is not None:
        facts.append(
            Row(f"cases per {costs.get('period') or 'period'}", count(costs["cases_per_period"]))
        )
    rule = th.get("rule")
    rule_text = (
        "each model picks its own threshold on its validation rows (minimum cost)"
        if rule == "validation-cost"
        else f"fixed threshold {num(rule, 3)}"
        if isinstance(rule, int | float)
        else DASH
    )
    c, b = th.get("candidate") or {}, th.get("baseline") or {}
    figure = _figure(
        charts,
        "threshold_cost",
        "Validation cost per case as the threshold moves; the diamonds mark each model's "
        "chosen threshold and the dashed line the theoretical cutoff. Look at how flat the "
        "curves are near their minimum: a flat minimum makes the choice robust.",
        f"Line chart of validation cost against threshold. {cand} chooses "
        f"{_threshold_text(c.get('threshold'))} (validation cost {num(c.get('validation_cost'))}), "
        f"{base} chooses {_threshold_text(b.get('threshold'))} "
        f"(validation cost {num(b.get('validation_cost'))}); theoretical cutoff "
        f"{num(th.get('theoretical_cutoff'), 3)}.",
    )
    rc, rb = ranking.get("candidate") or {}, ranking.get("baseline") or {}
    ranking_fig = _figure(
        charts,
        "ranking",
        f"ROC (left) and precision-recall (right) on test. ROC AUC {cand} "
        f"{num(rc.get('roc_auc'), 3)}, {base} {num(rb.get('roc_auc'), 3)}; average precision "
        f"{cand} {num(rc.get('average_precision'), 3)}, {base} "
        f"{num(rb.get('average_precision'), 3)}. Look at where the curves separate: that is "
        "where the choice of threshold matters.",
        f"ROC and precision-recall curves for {cand} and {base}, with the chance diagonal and "
        "the positive rate as the precision baseline.",
    )
    return ThresholdView(figure, ranking_fig, models, facts, unit, rule_text)


def _threshold_text(t: float | None) -> str:
    if t is None:
        return DASH
    if t > 1.0:
        return "none (predict no positives)"
    return num(t, 3)


def calibration_view(report: dict, charts: dict[str, str]) -> CalibrationView | None:
    cal = report.get("calibration")
    if not cal:
        return None
    cand, base = _names(report)
    c, b = cal.get("candidate") or {}, cal.get("baseline") or {}
    summary = [
        Row(f"{cand} ECE / Brier", f"{num(c.get('ece'))} / {num(c.get('brier'))}"),
        Row(f"{base} ECE / Brier", f"{num(b.get('ece'))} / {num(b.get('brier'))}"),
        Row("bins", count(cal.get("bins"))),
    ]
    bins = []
    cb, bb = c.get("bins") or [], b.get("bins") or []
    for i in range(max(len(cb), len(bb))):
        x = cb[i] if i < len(cb) else {}
        y = bb[i] if i < len(bb) else {}
        edge = x or y
        bins.append(
            BinRow(
                bin=f"{num(edge.get('low'), 2)}–{num(edge.get('high'), 2)}",
                candidate_count=count(x.get("count")),
                candidate_mean_p=num(x.get("mean_p"), 3),
                candidate_observed=num(x.get("fraction_positive"), 3),
                baseline_count=count(y.get("count")),
                baseline_mean_p=num(y.get("mean_p"), 3),
                baseline_observed=num(y.get("fraction_positive"), 3),
            )
        )
    empty = sum(1 for x in cb + bb if not x.get("count"))
    figure = _figure(
        charts,
        "reliability",
        f"Reliability diagram on test: observed positive fraction against mean predicted "
        f"probability per bin; the dashed diagonal is perfect calibration. ECE {cand} "
        f"{num(c.get('ece'))}, {base} {num(b.get('ece'))}; Brier {cand} {num(c.get('brier'))}, "
        f"{base} {num(b.get('brier'))}. The bars below give the rows in each bin: look for "
        "departures from the diagonal where the bars are tall."
        + (f" {empty} empty bins are not drawn." if empty else ""),
        f"Reliability diagram for {cand} and {base} with bin counts; ECE {num(c.get('ece'))} "
        f"and {num(b.get('ece'))}.",
    )
    return CalibrationView(figure, summary, bins)


def slices_view(report: dict, charts: dict[str, str]) -> SlicesView | None:
    slices = report.get("slices")
    if slices is None:
        return None
    rows = []
    for s in slices:
        if s.get("worse"):
            reading, css = "candidate worse", "not-shown"
        elif s.get("low") is not None and s["low"] > 0:
            reading, css = "candidate better", "shown"
        elif s.get("low") is None:
            reading, css = "not measured", "neutral"
        else:
            reading, css = "no clear difference", "neutral"
        rows.append(
            SliceRow(
                slice=str(s["slice"]),
                rows=count(s.get("rows")),
                blocks=count(s.get("blocks")),
                gap=signed(s.get("gap")),
                interval=interval(s.get("low"), s.get("high")),
                reading=reading,
                css=css,
                required=yes_no(s.get("required")),
            )
        )
    worse = [r.slice for r in rows if r.reading == "candidate worse"]
    figure = _figure(
        charts,
        "slices",
        "Gap per slice with its interval (candidate better is positive). Look for intervals "
        "wholly below zero (red): there the candidate is worse.",
        f"Dot-and-whisker chart of per-slice gaps for {len(rows)} slices; candidate worse on "
        f"{', '.join(worse) if worse else 'none'}.",
    )
    return SlicesView(figure, rows)


def bounds_view(report: dict) -> BoundsView:
    data = report.get("data") or {}
    rows = []
    for part, n in (data.get("parts") or {}).items():
        rows.append(Row(f"{part} rows", count(n)))
    if data.get("block_column"):
        rows.append(Row("block column", str(data["block_column"])))
    if data.get("blocks") is not None:
        rows.append(Row("blocks on test", count(data["blocks"])))
    if data.get("first_block") is not None or data.get("last_block") is not None:
        rows.append(
            Row(
                "period measured",
                f"{data.get('first_block') or DASH} to {data.get('last_block') or DASH}",
            )
        )
    cand, base = _names(report)
    seeds = data.get("seeds") or {}
    configs = data.get("configs") or {}
    for role, name in (("candidate", cand), ("baseline", base)):
        s = seeds.get(role) or []
        rows.append(
            Row(f"{name} seeds", f"{len(s)} ({', '.join(str(x) for x in s)})" if s else DASH)
        )
        if configs.get(role):
            rows.append(Row(f"{name} configuration scored on test", str(configs[role])))
    rel = report.get("relevance")
    relevance_rows: list[Row] = []
    relevance_text = None
    if rel:
        period = rel.get("period") or "period"
        unit = rel.get("unit") or "cost units"
        finding = rel.get("finding")
        relevance_rows = [
            Row("smallest useful effect", num(rel.get("min_useful_effect"))),
            Row("finding", (finding or DASH).replace("-", " ")),
            Row(
                "test gap and interval",
                f"{signed(rel.get('gap'))} ({interval(rel.get('low'), rel.get('high'))})",
            ),
        ]
        if rel.get("per_period") is not None:
            relevance_rows.append(
                Row(
                    f"gap × {count(rel.get('cases_per_period'))} cases per {period}",
                    f"{signed(rel.get('per_period'), 1)} {_metric(report)}",
                )
            )
        cpc = rel.get("cost_per_case") or {}
        if cpc.get("difference") is not None:
            relevance_rows.append(
                Row(
                    "test cost per case (candidate / baseline)",
                    f"{num(cpc.get('candidate'))} / {num(cpc.get('baseline'))} {unit}",
                )
            )
        if rel.get("cost_per_period") is not None:
            relevance_rows.append(
                Row(f"saving per {period}", f"{signed(rel.get('cost_per_period'), 1)} {unit}")
            )
        relevance_text = rel.get("text")
    return BoundsView(
        data=rows,
        not_tested=[str(x) for x in report.get("not_tested") or []],
        relevance=relevance_rows,
        relevance_text=relevance_text,
    )


def _facts(items: list[dict], with_values: bool = False) -> list[Fact]:
    out = []
    for f in items or []:
        out.append(
            Fact(
                label=str(f.get("id", "")).replace("-", " "),
                text=str(f.get("text") or DASH),
                status=_fact_status(f.get("passed")),
                artefacts=[str(a) for a in f.get("artefacts") or []],
                value=num(f.get("value")) if with_values else DASH,
                bar=num(f.get("bar")) if with_values else DASH,
            )
        )
    return out


def provenance_view(report: dict) -> ProvenanceView:
    build = report.get("build") or {}
    block = report["noise"].get("block") or {}
    rule = report.get("rule") or {}
    inputs = [
        FileRow(str(i["path"]), str(i.get("sha256") or DASH), count(i.get("bytes")))
        for i in report.get("inputs") or []
    ]
    tool = report.get("tool") or {}
    libraries = [Row(str(tool.get("name", "evreport")), str(tool.get("version", DASH)))]
    libraries += [Row(str(k), str(v)) for k, v in sorted((build.get("libraries") or {}).items())]
    seed = build.get("random_seed", rule.get("random_seed"))
    settings = [
        Row("report schema", str(report.get("schema") or DASH)),
        Row("build date", str(build.get("date") or DASH)),
        Row("random seed", DASH if seed is None else str(seed)),
        Row("bootstrap resamples", count(build.get("resamples", block.get("resamples")))),
        Row("confidence", pct(build.get("confidence", block.get("confidence")))),
    ]
    return ProvenanceView(inputs, libraries, settings, str(build.get("command") or DASH))


def before_after_view(report: dict, charts: dict[str, str]) -> BeforeAfterView | None:
    ba = report.get("before_after")
    if not ba:
        return None
    general = report.get("general")
    metric = _metric(report)
    summary = [
        Row(f"{metric} before", num(ba.get("before"), 3)),
        Row(f"{metric} after", num(ba.get("after"), 3)),
        Row("difference (after − before)", signed(ba.get("difference"), 3)),
        Row("interval", interval(ba.get("low"), ba.get("high"), 3)),
        Row("questions", count(ba.get("questions"))),
        Row("fixed (wrong before, right after)", count(ba.get("fixed"))),
        Row("broken (right before, wrong after)", count(ba.get("broken"))),
        Row("McNemar exact p", pvalue(ba.get("mcnemar_p"))),
    ]
    broken = [
        BrokenRow(str(b.get("id")), str(b.get("category") or DASH), str(b.get("text") or DASH))
        for b in ba.get("broken_rows") or []
    ]
    if not broken:
        broken = [BrokenRow(str(i), DASH, DASH) for i in ba.get("broken_ids") or []]
    general_rows: list[Row] = []
    general_status = None
    if general:
        general_rows = [
            Row("general set before", num(general.get("before"), 3)),
            Row("general set after", num(general.get("after"), 3)),
            Row("drop", num(general.get("drop"), 3)),
            Row("largest drop allowed", num(general.get("max_drop"), 3)),
        ]
        held = general.get("held")
        general_status = Status(
            {True: "held", False: "did not hold"}.get(held, "not checked"),
            {True: "shown", False: "not-shown"}.get(held, "neutral"),
            {True: "✓", False: "✗"}.get(held, "–"),
        )
    by_cat = ba.get("broken_by_category") or {}
    interval_fig = _figure(
        charts,
        "before_after_interval",
        "The change in the frozen set's score with its interval. Look at whether the interval "
        "clears zero (and the smallest useful effect, when one is set).",
        f"Interval chart: difference {signed(ba.get('difference'), 3)}, interval "
        f"{interval(ba.get('low'), ba.get('high'), 3)}.",
    )
    cat_fig = _figure(
        charts,
        "fixed_broken",
        "Questions fixed and broken, by category. Look at whether the broken ones are all one "
        "kind: that points to a specific regression rather than noise.",
        f"Bar chart: {count(ba.get('fixed'))} fixed, {count(ba.get('broken'))} broken; broken by "
        "category: " + (", ".join(f"{k} {v}" for k, v in sorted(by_cat.items())) or DASH) + ".",
    )
    forget_fig = None
    if general:
        forget_fig = _figure(
            charts,
            "forgetting",
            "The general (forgetting) set before and after; the dashed red line is the lowest "
            "score the allowed drop permits. Look at whether the after bar reaches it.",
            f"Bar chart: general set {num(general.get('before'), 3)} before, "
            f"{num(general.get('after'), 3)} after; allowed drop {num(general.get('max_drop'), 3)}; "
            f"{general_status.word if general_status else DASH}.",
        )
    return BeforeAfterView(
        summary=summary,
        interval_figure=interval_fig,
        categories_figure=cat_fig,
        forgetting_figure=forget_fig,
        category_sentence=ba.get("category_sentence"),
        broken=broken,
        general=general_rows,
        general_status=general_status,
    )


def warnings_view(report: dict) -> list[WarningRow]:
    rows = []
    for w in report.get("warnings") or []:
        where = str(w.get("path") or "<project>")
        if w.get("line") is not None:
            where += f":{w['line']}"
            if w.get("column") is not None:
                where += f":{w['column']}"
        rows.append(
            WarningRow(
                where,
                str(w.get("severity") or DASH),
                str(w.get("slug") or DASH),
                str(w.get("message") or DASH),
            )
        )
    return rows


def comparisons_view(report: dict) -> list[ComparisonRow]:
    rows = []
    for c in report.get("comparisons") or []:
        agree = c.get("agree")
        rows.append(
            ComparisonRow(
                model=str(c.get("model")),
                seed=str(c.get("seed")),
                split=str(c.get("split")),
                logged=_full(c.get("logged")),
                recomputed=_full(c.get("recomputed")),
                agree=Status(
                    {True: "agree", False: "disagree"}.get(agree, "not compared"),
                    {True: "shown", False: "not-shown"}.get(agree, "neutral"),
                    {True: "✓", False: "✗"}.get(agree, "–"),
                ),
                cite=str(c.get("cite") or DASH),
            )
        )
    return rows


def _full(x: float | None) -> str:
    """A logged or recomputed value to 6 decimals: enough to see a disagreement."""
    return num(x, 6)


def build_view(report: dict, charts: dict[str, str]) -> ReportView:
    """The whole report context from the report dict and its chart SVGs (see charts.build_charts)."""
    return ReportView(
        header=header_view(report),
        claim=claim_view(report),
        decision=decision_view(report),
        ladder=ladder_view(report),
        noise=noise_view(report, charts),
        threshold=threshold_view(report, charts),
        calibration=calibration_view(report, charts),
        slices=slices_view(report, charts),
        bounds=bounds_view(report),
        fairness=_facts(report.get("fairness") or []),
        checks=_facts(report.get("checks") or [], with_values=True),
        provenance=provenance_view(report),
        before_after=before_after_view(report, charts),
        warnings=warnings_view(report),
        comparisons=comparisons_view(report),
    )
