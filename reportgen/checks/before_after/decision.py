"""Adopt or roll back after tuning: the verdict, the claim rewritten, reconsider-when, the noise lines."""

from __future__ import annotations

from reportgen.checks.before_after.sections import drop_numbers, general_failure
from reportgen.checks.noise_lines import BLOCK_HEAD
from reportgen.checks.types import Interval, Rung
from reportgen.project import Project
from reportgen.words import (
    confidence,
    count,
    count_noun,
    gap_decimals,
    given,
    interval,
    p_text,
    prob,
    with_sign,
)

#: what one tuning run on one frozen set never tests
NOT_TESTED = (
    "questions outside the frozen set's categories",
    "retraining noise of the tuning itself (one tuning run)",
)


def _bar(project: Project) -> float:
    """The gain the interval's lower end must exceed: the useful effect, else zero."""
    m = project.config.min_useful_effect
    return m if m is not None else 0.0


def _bar_words(project: Project) -> str:
    m = project.config.min_useful_effect
    return f"the useful effect {given(m)}" if m is not None else "zero"


def decide(
    project: Project,
    ladder: list[Rung],
    iv: Interval | None,
    section: dict | None,
    general: dict | None,
) -> dict:
    """Adopt only when correct and fair are shown, the gain clears the bar and the general set held."""
    cfg = project.config
    failed = [r.reason for r in ladder[:2] if not r.shown]
    if iv is None:
        failed.append("no per-question predictions before and after to form an interval")
    elif not iv.low > _bar(project):
        failed.append(f"the interval {iv.ends} is not above " + _bar_words(project))
    if general is None:
        failed.append(f"no general-abilities set (split {cfg.general_split!r}) to check forgetting")
    elif not general["held"]:
        failed.append(general_failure(general))
    if not failed:
        verdict, rec = "adopt", cfg.candidate
        g = drop_numbers(general)
        reasons = [
            f"the gain {iv.signed(iv.gap)} ({iv.ends}) is above "
            + _bar_words(project)
            + f" and the general set held (drop {g['drop']}, upper bound {g['high']} within "
            f"{g['allowed']})"
        ]
    else:
        verdict, rec, reasons = "roll-back", cfg.baseline, failed
    if section and section["category_sentence"]:
        reasons.append(section["category_sentence"])
    return {"verdict": verdict, "recommend": rec, "reasons": reasons}


def rewrite_claim(
    project: Project, ladder: list[Rung], sup: int, section: dict | None, general: dict | None
) -> str:
    """One sentence with numbers, never above the supported rung."""
    cfg = project.config
    if section is None:
        return "Nothing is established: there are no per-question results before and after."
    acc = cfg.metric.replace("_", " ")
    d = gap_decimals(section["difference"], section["low"], section["high"])
    change = (
        f"{with_sign(section['difference'], d)}, {confidence(cfg.confidence)} interval "
        f"{interval(section['low'], section['high'], digits=d)}"
        if section["low"] is not None
        else f"{with_sign(section['difference'], d)}, no interval"
    )
    detail = f"({change}; {count(section['fixed'])} fixed, {count(section['broken'])} broken)"
    moved = f"from {prob(section['before'])} to {prob(section['after'])} {detail}"
    meas = f"frozen-set {acc} went {moved}"
    if sup == 0:
        return f"Nothing is established yet ({ladder[0].missing}); measured: {meas}."
    if sup == 1:
        return (
            f"The frozen set is not shown to be untouched ({ladder[1].missing}); measured: {meas}."
        )
    if sup == 2:
        return f"Tuning did not clearly change the model: {meas}."
    if sup == 3:
        return f"Tuning raised frozen-set {acc} {moved}, but a useful gain is not shown: {ladder[3].missing}."
    if sup == 4:
        return f"Tuning raised frozen-set {acc} {moved}, a useful margin, but {ladder[4].missing}."
    g = drop_numbers(general)
    return (
        f"Tuning raised frozen-set {acc} {moved}, a useful margin, and the general set held: a drop "
        f"of {g['drop']} whose upper bound {g['high']} is within the allowed {g['allowed']}."
    )


def reconsider(
    project: Project,
    ladder: list[Rung],
    iv: Interval | None,
    section: dict | None,
    general: dict | None,
) -> list[str]:
    """Concrete evidence that would reopen the decision, with today's values, plus [reconsider] when."""
    cfg = project.config
    items = []
    if iv is not None and not iv.low > _bar(project):
        items.append(
            f"the interval's lower end exceeds {given(_bar(project))} (now {iv.signed(iv.low)})"
        )
    if general is not None and not general["held"]:
        g = drop_numbers(general)
        now = (
            f"now {g['drop']}, interval {g['interval']}"
            if g["interval"]
            else f"now {g['drop']}, no interval"
        )
        items.append(
            f"the general set's drop is shown to be at most {g['allowed']}: its interval's "
            f"upper end within it ({now}), e.g. by tuning with replay of general examples"
        )
    if general is None:
        items.append(
            f"a general-abilities set (split {cfg.general_split!r}) is scored before and after"
        )
    if section and section["broken"]:
        top = next(iter(section["broken_by_category"] or {}), None)
        items.append(
            f"the {count_noun(section['broken'], 'broken question')} "
            + ("is fixed or explained" if section["broken"] == 1 else "are fixed or explained")
            + (f" (most are {top!r})" if section["category_sentence"] else "")
        )
    if not ladder[1].shown:
        items.append(f"the frozen set is shown untouched: {ladder[1].missing}")
    return items + cfg.reconsider_when


def noise_section(project: Project, iv: Interval | None, section: dict | None) -> dict:
    """report.json ``noise``: no seed line (one tuning run), the question (block) bootstrap line."""
    cfg = project.config
    head = BLOCK_HEAD
    block_line = (
        f"{head} accuracy difference "
        f"{iv.signed(iv.gap)}, {confidence(cfg.confidence)} interval {iv.ends} over "
        f"{iv.what} ({count_noun(cfg.resamples, 'resample')}); McNemar exact "
        f"{p_text(section['mcnemar_p'])}."
        if iv
        else f"{head} not computed."
    )
    return {
        "seed": None,
        "block": None,
        "interval": iv,
        "lines": [
            "Seed spread (retraining): not applicable: one tuned model against its own earlier version; "
            "retraining noise of the tuning run is not measured.",
            block_line,
        ],
        "covers": [
            "Retraining noise would need several tuning runs with different seeds.",
            "The bootstrap covers which questions happened to be in the frozen set, for the model "
            "as tuned.",
        ],
    }
