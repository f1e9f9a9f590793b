"""What to do about the lowest rung not shown, from what the report says is missing.

The advice is read from the report itself, so a student whose test rows already fall in 30
weekly blocks is never told to "give the test rows a block column": the failing fairness
facts, the seed counts, whether the test gap has an interval, the useful effect, the slices.
Only when the report says nothing more specific does the general paragraph stand in.
"""

from __future__ import annotations

from collections.abc import Callable

from reportgen.model import Report
from reportgen.model.enums import Finding, IntervalSource, Kind, Repeats
from reportgen.words import count, count_noun, gap_decimals, given, interval, ratio, with_sign
from reportgen.words.i18n import _
from reportgen.words.rungs import quoted

#: the general paragraph per rung (called when written), for a report that says nothing more specific
GENERAL: dict[int, Callable[[], str]] = {
    1: lambda: _(
        "Add the check files in artefacts/checks/ (initial_loss, gradient, overfit, shapes) "
        "for your candidate model, and a predictions file for every run in runs.csv so that "
        "evreport can recompute each logged value."
    ),
    2: lambda: _(
        "Freeze your split with 'evreport freeze' before your first run (split/manifest.json), "
        "and log both models in runs.csv on the same rows, features and split_id, each run "
        "with its started_at time."
    ),
    3: lambda: _(
        "Log more seeds of each model in runs.csv, each with its validation and test "
        "predictions files, so that the gap can be compared with retraining noise and the test "
        "gap gets an interval."
    ),
    4: lambda: _(
        "State the smallest gain worth having as min_useful_effect in evreport.toml [claim], "
        "so that the report can say whether the gap matters."
    ),
    5: lambda: _(
        "Add a slice column and list the slices that must not get worse under [evaluation] "
        "not_worse_on (or, for a before-after project, a general question set), so that the "
        "report can show where the result holds."
    ),
}
#: most advice sentences per rung
MOST = 3
#: the seed rule's check id in both designs (checks.model_vs_baseline.rungs.SEED_RULE; not
#: imported, as that pulls in the statistics)
SEED_RULE = "validation-gap-vs-seed-sd"


def _text(x: str | None) -> str | None:
    """Report text with its outer blanks stripped, None when empty."""
    return x.strip() if x and x.strip() else None


def advice(report: Report, rung: int | None) -> str:
    """The advice for the lowest rung not shown, as one paragraph ("" when every rung is shown)."""
    if rung is None:
        return ""
    pieces = ADVISERS[rung](report) if rung in ADVISERS else []
    return " ".join(pieces[:MOST]) or (GENERAL[rung]() if rung in GENERAL else "")


def _correct(report: Report) -> list[str]:
    checks = [c for c in report.checks if c.rung == 1]
    out = []
    sanity = [c for c in checks if c.id.startswith("rung1-")]
    absent = [c.id.removeprefix("rung1-") for c in sanity if c.passed is None]
    failed = [c for c in sanity if c.passed is False]
    for c in failed[:1]:
        text = _text(c.text)
        name = c.id.removeprefix("rung1-")
        out.append(
            _("Fix the failing {check} check ({text}) and run it again.", check=name, text=text)
            if text
            else _("Fix the failing {check} check and run it again.", check=name)
        )
    if absent:
        out.append(
            _("Add the missing check files to artefacts/checks/: {files}.", files=", ".join(absent))
        )
    logged = next((c for c in checks if c.id == "logged-equals-recomputed"), None)
    if logged is not None and logged.passed is False:
        out.append(
            _(
                "Make the logged values in runs.csv agree with their predictions files: the "
                "report's warning names the row and the likely cause."
            )
        )
    elif logged is not None and logged.passed is None:
        out.append(
            _(
                "Name a predictions file for every run in runs.csv so that evreport can "
                "recompute each logged value."
            )
        )
    return out


#: advice per fairness fact, in the language written: (when it failed, when it is unknown)
FACT_ADVICE: dict[str, Callable[[], tuple[str | None, str | None]]] = {
    "manifest-verified": lambda: (
        _(
            "Your split files do not match split/manifest.json: restore the frozen files, or "
            "freeze again and rerun the models."
        ),
        _("Freeze your split with 'evreport freeze' before your first run (split/manifest.json)."),
    ),
    "frozen-before-runs": lambda: (
        _("The split was frozen after the first run: freeze it before training and rerun."),
        _(
            "Log started_at for every run in runs.csv so that the freeze can be shown to come first."
        ),
    ),
    "rule-before-runs": lambda: (
        _(
            "The decision rule ([rule] written in evreport.toml) is dated after the first run: "
            "fix the rule before you train."
        ),
        _(
            "Set [rule] written in evreport.toml to the day you fixed the rule, and log "
            "started_at for every run."
        ),
    ),
    "parts-disjoint": lambda: (_("Remove the rows that sit in two parts of the split."), None),
    "predictions-cover-parts": lambda: (
        _("Make each predictions file score exactly the rows of its split part."),
        None,
    ),
    "same-rows-validation": lambda: (_("Score both models on the same validation rows."), None),
    "same-rows-test": lambda: (_("Score both models on the same test rows."), None),
    "same-features": lambda: (
        _("Train both models on the same feature set."),
        _("Log the features column for every run in runs.csv."),
    ),
    "same-split-id": lambda: (
        _("Train both models on the same split."),
        _("Log the split_id column for every run in runs.csv."),
    ),
    "same-metric": lambda: (
        None,
        _(
            "Write predictions files for both models so that evreport recomputes the metric for "
            "both."
        ),
    ),
    "tuning-budget": lambda: (
        _(
            "Give both models a comparable tuning budget on validation (at most twice as many "
            "configurations for one as for the other)."
        ),
        _("Log the validation runs of both models in runs.csv, one row per configuration tried."),
    ),
    "test-opened-once-candidate": lambda: (
        _("Score only the one configuration you chose on test, once."),
        _("Score the chosen configuration on test."),
    ),
    "test-opened-once-baseline": lambda: (
        _("Score only the one configuration you chose on test, once."),
        _("Score the chosen configuration on test."),
    ),
}


def _fair(report: Report) -> list[str]:
    out = []
    for f in report.fairness:
        if f.passed is True:
            continue
        failed, unknown = FACT_ADVICE[f.id]() if f.id in FACT_ADVICE else (None, None)
        said = failed if f.passed is False else unknown
        if said and said not in out:
            text = _text(f.text)
            out.append(
                _("{advice} (now: {now}).", advice=said[:-1], now=text)
                if text and f.passed is False
                else said
            )
    return out


def _seed(report: Report) -> list[str]:
    """What the seed line asks for: more seeds when unmeasured, a larger gap when it fails."""
    seed = report.noise.seed
    if seed is None:
        return []
    samples = report.project.repeats == Repeats.SAMPLES
    in_sd = seed.gap_in_sd
    if in_sd is None and not seed.trivial:
        fields = dict(candidate=count(seed.n.candidate), baseline=count(seed.n.baseline))
        return [
            _(
                "Log at least 5 seeds of each model in runs.csv, each with its validation "
                "predictions (now {candidate} and {baseline}), so that the sampling noise of "
                "repeated runs is measured.",
                **fields,
            )
            if samples
            else _(
                "Log at least 5 seeds of each model in runs.csv, each with its validation "
                "predictions (now {candidate} and {baseline}), so that retraining noise is "
                "measured.",
                **fields,
            )
        ]
    if in_sd is not None and not seed.passes:
        fields = dict(ratio=ratio(in_sd, signed=True), multiple=given(seed.multiple))
        return [
            _(
                "The cross-validation gap is {ratio} seed sd (within folds) and the rule needs "
                "more than {multiple}: more seeds in each fold make the sd better known but do "
                "not raise the ratio; only a larger gap passes it.",
                **fields,
            )
            if seed.part == "cross-validation"
            else _(
                "The validation gap is {ratio} seed sd and the rule needs more than {multiple}: "
                "more seeds make the sd better known but do not raise the ratio; only a larger "
                "gap passes it.",
                **fields,
            )
        ]
    return []


def restates_missing(report: Report, rung: int | None) -> bool:
    """The advice for ``rung`` opens by saying its missing thing with the same numbers: rung 3
    when the seed rule is measured and fails and its check is the rung's first that did not
    pass (the ladder then names the seed rule), so feedback leaves the "what is missing"
    line out instead of saying it twice."""
    seed = report.noise.seed
    if rung != 3 or seed is None or seed.trivial or seed.gap_in_sd is None or seed.passes:
        return False
    first = next((c.id for c in report.checks if c.rung == 3 and not c.passed), None)
    return first == SEED_RULE


def _noise(report: Report) -> list[str]:
    out = _seed(report)
    block, iv = report.noise.block, report.noise.interval
    if iv is not None and iv.source == IntervalSource.CV_CORRECTED:
        # cross-validated: rung 3 rests on the corrected interval over the folds, even when
        # a held-out test part has a block interval of its own
        out.extend(_cv_interval(report, iv.low, iv.high, iv.gap))
    elif block is None and iv is None:
        out.append(
            _(
                "Write per-row test predictions for both models (a predictions file for each "
                "test run) so that the test gap gets an interval."
            )
        )
    elif block is None and iv is not None:
        out.extend(_test_interval(report, iv.low, iv.high, iv.gap))
    elif block is not None and block.low is None:
        reason = _text(block.reason)
        if 0 <= block.blocks < 2:
            out.append(
                _(
                    "The test rows fall in {blocks}, and an interval needs at least 2: score the "
                    "test part over more blocks.",
                    blocks=count_noun(block.blocks, "block"),
                )
            )
        elif reason:
            out.append(_("The test gap has no interval: {reason}.", reason=reason))
    elif block is not None and block.low is not None and block.high is not None:
        out.extend(_test_interval(report, block.low, block.high, block.gap))
    return out


def _test_interval(report: Report, low: float, high: float, gap: float | None) -> list[str]:
    """What the test interval says: a harm when wholly below zero, undecided when it spans zero."""
    ends = interval(low, high, digits=gap_decimals(gap, low, high))
    if high < 0:
        cand = _text(report.project.candidate) or _("the candidate")
        base = _text(report.project.baseline) or _("the baseline")
        return [
            _(
                "The test interval {ends} lies wholly below zero: {candidate} is worse than "
                "{baseline} on the test rows, a harm that more test rows would not turn into a "
                "gain; claim the harm, as the claim your evidence supports does.",
                ends=ends,
                candidate=cand,
                baseline=base,
            )
        ]
    if low <= 0:
        return [
            _(
                "The test interval {ends} includes zero: more test rows (more blocks) narrow it; "
                "the reconsider-when items below say how many.",
                ends=ends,
            )
        ]
    return []


def _cv_interval(report: Report, low: float, high: float, gap: float | None) -> list[str]:
    """What the cross-validation interval says, and what would narrow it: more repeats (when
    the report's planning says they can), more folds or more data; never more test blocks."""
    ends = interval(low, high, digits=gap_decimals(gap, low, high))
    if high < 0:
        cand = _text(report.project.candidate) or _("the candidate")
        base = _text(report.project.baseline) or _("the baseline")
        return [
            _(
                "The cross-validation interval {ends} lies wholly below zero: {candidate} is "
                "worse than {baseline} across the folds, a harm that more data would not turn "
                "into a gain; claim the harm, as the claim your evidence supports does.",
                ends=ends,
                candidate=cand,
                baseline=base,
            )
        ]
    if low > 0:
        return []
    cv = getattr(report.noise, "cv", None)
    planning = cv.planning if cv is not None else None
    if planning is not None and planning.repeats_cannot:
        return [
            _(
                "The cross-validation interval {ends} includes zero, and more repeats cannot "
                "narrow it enough: the folds' training sets overlap, so part of its width stays "
                "whatever the number of repeats; more data (a larger sample) narrow it.",
                ends=ends,
            )
        ]
    if planning is not None and planning.repeats_needed:
        return [
            _(
                "The cross-validation interval {ends} includes zero: about {repeats} of "
                "the same cross-validation would narrow it enough if the gap stays as it is; "
                "more data narrow it too.",
                ends=ends,
                repeats=count_noun(planning.repeats_needed, "repeat"),
            )
        ]
    return [
        _(
            "The cross-validation interval {ends} includes zero: more repeats of the "
            "cross-validation, more folds or more data narrow it.",
            ends=ends,
        )
    ]


def _relevant(report: Report) -> list[str]:
    rel = report.relevance
    out = []
    if rel is None:
        return [
            _("There is no evaluation interval to judge the size of the gap: show rung 3 first.")
        ]
    m = rel.min_useful_effect
    if m is None:
        out.append(
            _(
                "State the smallest gain worth having as min_useful_effect in evreport.toml "
                "[claim], before new runs."
            )
        )
    elif rel.finding == Finding.POSITIVE_NOT_USEFUL:
        low = with_sign(rel.low, gap_decimals(rel.gap, rel.low, rel.high))
        out.append(
            _(
                "The interval's lower end {low} does not reach your useful effect {effect}: the "
                "gain may be real but is not shown to be worth having; more test data would "
                "narrow the interval.",
                low=low,
                effect=given(m),
            )
        )
    for s in report.slices or ():
        if s.required and not s.not_worse:
            why = _text(s.not_worse_reason)
            name = quoted(s.slice)
            out.append(
                _(
                    "Show that the candidate is no worse on slice {name} (now: {why}).",
                    name=name,
                    why=why,
                )
                if why
                else _("Show that the candidate is no worse on slice {name}.", name=name)
            )
    return out


def _bounded(report: Report) -> list[str]:
    project = report.project
    out = []
    if project.kind == Kind.BEFORE_AFTER:
        general = report.general
        if general is None:
            out.append(
                _(
                    "Score both versions on a general question set ([general] split in "
                    "evreport.toml), so that forgetting is measured."
                )
            )
        elif _text(general.reason):
            out.append(
                _("The general set is not shown to hold: {reason}.", reason=_text(general.reason))
            )
        return out
    if not project.slice_column:
        out.append(
            _(
                "Add a slice column ([evaluation] slice) and list the slices that must not get "
                "worse under not_worse_on."
            )
        )
    if not project.block_column:
        out.append(
            _(
                "Add a block column ([evaluation] block, for example the week) so that the "
                "report can state the period the result was measured on."
            )
        )
    return out


ADVISERS: dict[int, Callable[[Report], list[str]]] = {
    1: _correct,
    2: _fair,
    3: _noise,
    4: _relevant,
    5: _bounded,
}
