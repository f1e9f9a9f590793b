"""What to do about the lowest rung not shown, from what the report says is missing.

The advice is read from the report itself, so a student whose test rows already fall in 30
weekly blocks is never told to "give the test rows a block column": the failing fairness
facts, the seed counts, whether the test gap has an interval, the useful effect, the slices.
Only when the report says nothing more specific does the general paragraph stand in.
"""

from __future__ import annotations

from collections.abc import Callable

from reportgen.model import Report
from reportgen.model.enums import Finding, Kind, Repeats
from reportgen.words import count, count_noun, gap_decimals, given, interval, ratio, with_sign

#: the general paragraph per rung, for a report that says nothing more specific
GENERAL = {
    1: (
        "Add the check files in artefacts/checks/ (initial_loss, gradient, overfit, shapes) "
        "for your candidate model, and a predictions file for every run in runs.csv so that "
        "evreport can recompute each logged value."
    ),
    2: (
        "Freeze your split with 'evreport freeze' before your first run (split/manifest.json), "
        "and log both models in runs.csv on the same rows, features and split_id, each run "
        "with its started_at time."
    ),
    3: (
        "Log more seeds of each model in runs.csv, each with its validation and test "
        "predictions files, so that the gap can be compared with retraining noise and the test "
        "gap gets an interval."
    ),
    4: (
        "State the smallest gain worth having as min_useful_effect in evreport.toml [claim], "
        "so that the report can say whether the gap matters."
    ),
    5: (
        "Add a slice column and list the slices that must not get worse under [evaluation] "
        "not_worse_on (or, for a before-after project, a general question set), so that the "
        "report can show where the result holds."
    ),
}
#: most advice sentences per rung
MOST = 3


def _text(x: str | None) -> str | None:
    """Report text with its outer blanks stripped, None when empty."""
    return x.strip() if x and x.strip() else None


def advice(report: Report, rung: int | None) -> str:
    """The advice for the lowest rung not shown, as one paragraph ("" when every rung is shown)."""
    if rung is None:
        return ""
    pieces = ADVISERS[rung](report) if rung in ADVISERS else []
    return " ".join(pieces[:MOST]) or GENERAL.get(rung, "")


def _correct(report: Report) -> list[str]:
    checks = [c for c in report.checks if c.rung == 1]
    out = []
    sanity = [c for c in checks if c.id.startswith("rung1-")]
    absent = [c.id.removeprefix("rung1-") for c in sanity if c.passed is None]
    failed = [c for c in sanity if c.passed is False]
    for c in failed[:1]:
        text = _text(c.text)
        out.append(
            f"Fix the failing {c.id.removeprefix('rung1-')} check"
            + (f" ({text})" if text else "")
            + " and run it again."
        )
    if absent:
        out.append(f"Add the missing check files to artefacts/checks/: {', '.join(absent)}.")
    logged = next((c for c in checks if c.id == "logged-equals-recomputed"), None)
    if logged is not None and logged.passed is False:
        out.append(
            "Make the logged values in runs.csv agree with their predictions files: the report's "
            "warning names the row and the likely cause."
        )
    elif logged is not None and logged.passed is None:
        out.append(
            "Name a predictions file for every run in runs.csv so that evreport can recompute "
            "each logged value."
        )
    return out


#: advice per fairness fact: (when it failed, when it is unknown)
FACT_ADVICE = {
    "manifest-verified": (
        "Your split files do not match split/manifest.json: restore the frozen files, or "
        "freeze again and rerun the models.",
        "Freeze your split with 'evreport freeze' before your first run (split/manifest.json).",
    ),
    "frozen-before-runs": (
        "The split was frozen after the first run: freeze it before training and rerun.",
        "Log started_at for every run in runs.csv so that the freeze can be shown to come first.",
    ),
    "rule-before-runs": (
        "The decision rule ([rule] written in evreport.toml) is dated after the first run: fix "
        "the rule before you train.",
        "Set [rule] written in evreport.toml to the day you fixed the rule, and log started_at "
        "for every run.",
    ),
    "parts-disjoint": ("Remove the rows that sit in two parts of the split.", None),
    "predictions-cover-parts": (
        "Make each predictions file score exactly the rows of its split part.",
        None,
    ),
    "same-rows-validation": ("Score both models on the same validation rows.", None),
    "same-rows-test": ("Score both models on the same test rows.", None),
    "same-features": (
        "Train both models on the same feature set.",
        "Log the features column for every run in runs.csv.",
    ),
    "same-split-id": (
        "Train both models on the same split.",
        "Log the split_id column for every run in runs.csv.",
    ),
    "same-metric": (
        None,
        "Write predictions files for both models so that evreport recomputes the metric for both.",
    ),
    "tuning-budget": (
        "Give both models a comparable tuning budget on validation (at most twice as many "
        "configurations for one as for the other).",
        "Log the validation runs of both models in runs.csv, one row per configuration tried.",
    ),
    "test-opened-once-candidate": (
        "Score only the one configuration you chose on test, once.",
        "Score the chosen configuration on test.",
    ),
    "test-opened-once-baseline": (
        "Score only the one configuration you chose on test, once.",
        "Score the chosen configuration on test.",
    ),
}


def _fair(report: Report) -> list[str]:
    out = []
    for f in report.fairness:
        if f.passed is True:
            continue
        failed, unknown = FACT_ADVICE.get(f.id, (None, None))
        said = failed if f.passed is False else unknown
        if said and said not in out:
            text = _text(f.text)
            out.append(said[:-1] + f" (now: {text})." if text and f.passed is False else said)
    return out


def _seed(report: Report) -> list[str]:
    """What the seed line asks for: more seeds when unmeasured, a larger gap when it fails."""
    seed = report.noise.seed
    if seed is None:
        return []
    samples = report.project.repeats == Repeats.SAMPLES
    in_sd = seed.gap_in_sd
    if in_sd is None and not seed.trivial:
        return [
            f"Log at least 5 seeds of each model in runs.csv, each with its validation "
            f"predictions (now {count(seed.n.candidate)} and {count(seed.n.baseline)}), so that "
            + ("the sampling noise of repeated runs" if samples else "retraining noise")
            + " is measured."
        ]
    if in_sd is not None and not seed.passes:
        return [
            f"The validation gap is {ratio(in_sd, signed=True)} seed sd and the rule needs more "
            f"than {given(seed.multiple)}: more seeds make the sd better known but do not raise "
            "the ratio; only a larger gap passes it."
        ]
    return []


def _noise(report: Report) -> list[str]:
    out = _seed(report)
    block, iv = report.noise.block, report.noise.interval
    if block is None and iv is None:
        out.append(
            "Write per-row test predictions for both models (a predictions file for each test "
            "run) so that the test gap gets an interval."
        )
    elif block is None and iv is not None:
        out.extend(_test_interval(report, iv.low, iv.high, iv.gap))
    elif block is not None and block.low is None:
        reason = _text(block.reason)
        if 0 <= block.blocks < 2:
            out.append(
                f"The test rows fall in {count_noun(block.blocks, 'block')}, and an interval "
                "needs at least 2: score the test part over more blocks."
            )
        elif reason:
            out.append(f"The test gap has no interval: {reason}.")
    elif block is not None and block.low is not None and block.high is not None:
        out.extend(_test_interval(report, block.low, block.high, block.gap))
    return out


def _test_interval(report: Report, low: float, high: float, gap: float | None) -> list[str]:
    """What the test interval says: a harm when wholly below zero, undecided when it spans zero."""
    ends = interval(low, high, digits=gap_decimals(gap, low, high))
    if high < 0:
        cand = _text(report.project.candidate) or "the candidate"
        base = _text(report.project.baseline) or "the baseline"
        return [
            f"The test interval {ends} lies wholly below zero: {cand} is worse than {base} on "
            "the test rows, a harm that more test rows would not turn into a gain; claim the "
            "harm, as the claim your evidence supports does."
        ]
    if low <= 0:
        return [
            f"The test interval {ends} includes zero: more test rows (more blocks) narrow it; "
            "the reconsider-when items below say how many."
        ]
    return []


def _relevant(report: Report) -> list[str]:
    rel = report.relevance
    out = []
    if rel is None:
        return ["There is no evaluation interval to judge the size of the gap: show rung 3 first."]
    m = rel.min_useful_effect
    if m is None:
        out.append(
            "State the smallest gain worth having as min_useful_effect in evreport.toml [claim], "
            "before new runs."
        )
    elif rel.finding == Finding.POSITIVE_NOT_USEFUL:
        low = with_sign(rel.low, gap_decimals(rel.gap, rel.low, rel.high))
        out.append(
            f"The interval's lower end {low} does not "
            f"reach your useful effect {given(m)}: the gain may be real but is not shown to be "
            "worth having; more test data would narrow the interval."
        )
    for s in report.slices or ():
        if s.required and not s.not_worse:
            why = _text(s.not_worse_reason)
            out.append(
                f"Show that the candidate is no worse on slice {s.slice!r}"
                + (f" (now: {why})." if why else ".")
            )
    return out


def _bounded(report: Report) -> list[str]:
    project = report.project
    out = []
    if project.kind == Kind.BEFORE_AFTER:
        general = report.general
        if general is None:
            out.append(
                "Score both versions on a general question set ([general] split in "
                "evreport.toml), so that forgetting is measured."
            )
        elif _text(general.reason):
            out.append(f"The general set is not shown to hold: {_text(general.reason)}.")
        return out
    if not project.slice_column:
        out.append(
            "Add a slice column ([evaluation] slice) and list the slices that must not get "
            "worse under not_worse_on."
        )
    if not project.block_column:
        out.append(
            "Add a block column ([evaluation] block, for example the week) so that the report "
            "can state the period the result was measured on."
        )
    return out


ADVISERS: dict[int, Callable[[Report], list[str]]] = {
    1: _correct,
    2: _fair,
    3: _noise,
    4: _relevant,
    5: _bounded,
}
