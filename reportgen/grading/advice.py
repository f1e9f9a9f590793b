"""What to do about the lowest rung not shown, from what the report says is missing.

Feedback used to give every student the same paragraph per rung, so a student whose test rows
already fell in 30 weekly blocks was told to "give the test rows a block column". The advice
here is read from the report itself: the failing fairness facts, the seed counts, whether the
test gap has an interval, the useful effect, the slices. Only when the report says nothing
usable (an old or hand-made report.json) does the general paragraph stand in.

Every value read is student data: anything that is not the type expected is ignored.
"""

from __future__ import annotations

import math
from collections.abc import Callable

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


def _num(x: object) -> float | None:
    """A finite number from the report, else None (student data)."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return None
    return float(x) if math.isfinite(x) else None


def _int(x: object) -> int | None:
    v = _num(x)
    return int(v) if v is not None and v.is_integer() and v >= 0 else None


def _dict(x: object) -> dict:
    return x if isinstance(x, dict) else {}


def _text(x: object) -> str | None:
    return x.strip() if isinstance(x, str) and x.strip() else None


def advice(report: dict, rung: int | None) -> str:
    """The advice for the lowest rung not shown, as one paragraph ("" when every rung is shown)."""
    if rung is None:
        return ""
    pieces = ADVISERS[rung](report) if rung in ADVISERS else []
    return " ".join(pieces[:MOST]) or GENERAL.get(rung, "")


def _correct(report: dict) -> list[str]:
    checks = [c for c in report.get("checks") or [] if isinstance(c, dict) and c.get("rung") == 1]
    out = []
    absent = [
        str(c["id"]).removeprefix("rung1-")
        for c in checks
        if str(c.get("id", "")).startswith("rung1-") and c.get("passed") is None
    ]
    failed = [
        c for c in checks if str(c.get("id", "")).startswith("rung1-") and c.get("passed") is False
    ]
    for c in failed[:1]:
        out.append(
            f"Fix the failing {str(c['id']).removeprefix('rung1-')} check"
            + (f" ({_text(c.get('text'))})" if _text(c.get("text")) else "")
            + " and run it again."
        )
    if absent:
        out.append(f"Add the missing check files to artefacts/checks/: {', '.join(absent)}.")
    logged = next((c for c in checks if c.get("id") == "logged-equals-recomputed"), None)
    if logged is not None and logged.get("passed") is False:
        out.append(
            "Make the logged values in runs.csv agree with their predictions files: the report's "
            "warning names the row and the likely cause."
        )
    elif logged is not None and logged.get("passed") is None:
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


def _fair(report: dict) -> list[str]:
    out = []
    for f in report.get("fairness") or []:
        if not isinstance(f, dict) or f.get("passed") is True:
            continue
        failed, unknown = FACT_ADVICE.get(str(f.get("id")), (None, None))
        said = failed if f.get("passed") is False else unknown
        if said and said not in out:
            text = _text(f.get("text"))
            out.append(
                said[:-1] + f" (now: {text})." if text and f.get("passed") is False else said
            )
    return out


def _noise(report: dict) -> list[str]:
    noise = _dict(report.get("noise"))
    seed, block = _dict(noise.get("seed")), noise.get("block")
    samples = _dict(report.get("project")).get("repeats") == "samples"
    out = []
    n = _dict(seed.get("n"))
    n_c, n_b = _int(n.get("candidate")), _int(n.get("baseline"))
    in_sd, bar = _num(seed.get("gap_in_sd")), _num(seed.get("multiple"))
    if in_sd is None and not seed.get("trivial") and n_c is not None and n_b is not None:
        out.append(
            f"Log at least 5 seeds of each model in runs.csv, each with its validation "
            f"predictions (now {count(n_c)} and {count(n_b)}), so that "
            + ("the sampling noise of repeated runs" if samples else "retraining noise")
            + " is measured."
        )
    elif in_sd is not None and bar is not None and seed.get("passes") is False:
        out.append(
            f"The validation gap is {ratio(in_sd, signed=True)} seed sd and the rule needs more "
            f"than {given(bar)}: more seeds make the sd better known but do not raise the ratio; "
            "only a larger gap passes it."
        )
    iv = block if isinstance(block, dict) else _dict(noise.get("interval"))
    if block is None and _num(iv.get("low")) is None:
        out.append(
            "Write per-row test predictions for both models (a predictions file for each test "
            "run) so that the test gap gets an interval."
        )
    elif _num(iv.get("low")) is None:
        blocks = _int(iv.get("blocks"))
        if blocks is not None and blocks < 2:
            out.append(
                f"The test rows fall in {count_noun(blocks, 'block')}, and an interval needs at "
                "least 2: score the test part over more blocks."
            )
        elif _text(iv.get("reason")):
            out.append(f"The test gap has no interval: {_text(iv.get('reason'))}.")
    else:
        low, high, gap = _num(iv.get("low")), _num(iv.get("high")), _num(iv.get("gap"))
        if low is not None and high is not None:
            out.extend(_test_interval(report, low, high, gap))
    return out


def _test_interval(report: dict, low: float, high: float, gap: float | None) -> list[str]:
    """What the test interval says: a harm when wholly below zero, undecided when it spans zero."""
    ends = interval(low, high, digits=gap_decimals(gap, low, high))
    if high < 0:
        project = _dict(report.get("project"))
        cand = _text(project.get("candidate")) or "the candidate"
        base = _text(project.get("baseline")) or "the baseline"
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


def _relevant(report: dict) -> list[str]:
    rel = report.get("relevance")
    out = []
    if not isinstance(rel, dict):
        return ["There is no evaluation interval to judge the size of the gap: show rung 3 first."]
    m = _num(rel.get("min_useful_effect"))
    low, high, gap = _num(rel.get("low")), _num(rel.get("high")), _num(rel.get("gap"))
    if m is None:
        out.append(
            "State the smallest gain worth having as min_useful_effect in evreport.toml [claim], "
            "before new runs."
        )
    elif rel.get("finding") == "positive-not-useful" and low is not None:
        out.append(
            f"The interval's lower end {with_sign(low, gap_decimals(gap, low, high))} does not "
            f"reach your useful effect {given(m)}: the gain may be real but is not shown to be "
            "worth having; more test data would narrow the interval."
        )
    for s in report.get("slices") or []:
        if isinstance(s, dict) and s.get("required") and s.get("not_worse") is False:
            why = _text(s.get("not_worse_reason"))
            out.append(
                f"Show that the candidate is no worse on slice {str(s.get('slice'))!r}"
                + (f" (now: {why})." if why else ".")
            )
    return out


def _bounded(report: dict) -> list[str]:
    project = _dict(report.get("project"))
    out = []
    if project.get("kind") == "before-after":
        general = report.get("general")
        if not isinstance(general, dict):
            out.append(
                "Score both versions on a general question set ([general] split in "
                "evreport.toml), so that forgetting is measured."
            )
        elif _text(general.get("reason")):
            out.append(f"The general set is not shown to hold: {_text(general.get('reason'))}.")
        return out
    if not project.get("slice_column"):
        out.append(
            "Add a slice column ([evaluation] slice) and list the slices that must not get "
            "worse under not_worse_on."
        )
    if not project.get("block_column"):
        out.append(
            "Add a block column ([evaluation] block, for example the week) so that the report "
            "can state the period the result was measured on."
        )
    return out


ADVISERS: dict[int, Callable[[dict], list[str]]] = {
    1: _correct,
    2: _fair,
    3: _noise,
    4: _relevant,
    5: _bounded,
}
