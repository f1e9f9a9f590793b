"""Pieces several sections share: a chart, a labelled value, a status word with its colour."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.enums import ChartKey
from reportgen.model.header import Project
from reportgen.stats.metric_registry import unit_power
from reportgen.words import metric_label
from reportgen.words.cells import DASH, passed_word
from reportgen.words.i18n import _, p_
from reportgen.words.rungs import status_word

STATUS_CLASS = {"shown": "shown", "partly": "partly", "not shown": "not-shown"}
STATUS_MARK = {"shown": "✓", "partly": "◐", "not shown": "✗"}


@dataclass(frozen=True)
class Figure:
    """One chart (partials/_figure.html): what to look for, and a text alternative.

    The SVG itself is not part of the view: the page gets it by key (see render.html).
    """

    key: str
    caption: str
    description: str


@dataclass(frozen=True)
class Row:
    """A label and its formatted value, for fact lists."""

    label: str
    value: str


@dataclass(frozen=True)
class Status:
    """A status in words, its CSS class (shown, partly, not-shown, neutral) and a mark."""

    word: str
    css: str
    mark: str


def not_credited() -> Status:
    """A shown rung above an unshown one: its own badge, styled neutrally (never green)."""
    return Status(status_word("shown, not credited"), "not-credited", "○")


#: the unit a project's costs are in without [costs] unit (project/config.py)
DEFAULT_COST_UNIT = "cost units"


def cost_unit(unit: str | None) -> str:
    """The unit costs are in, as printed: the project's [costs] unit as written, else the
    default in the page's language."""
    return unit if unit and unit != DEFAULT_COST_UNIT else _("cost units")


def check_label(check_id: str, cv: bool = False) -> str:
    """A check's or fairness fact's id as its label reads ("manifest-verified" -> "manifest
    verified"), in the page's language; an id evreport does not know reads as its words.
    ``cv``: the report is cross-validated, where the seed rule's gap is the cross-validation
    gap."""
    if cv and check_id == "validation-gap-vs-seed-sd":
        return p_("check", "cross-validation gap vs seed sd")
    if check_id.startswith("not-worse-on-"):
        return _("not worse on {slice}", slice=check_id.removeprefix("not-worse-on-"))
    words = {
        "broken-questions": p_("check", "broken questions"),
        "cv-interval-excludes-zero": p_("check", "cross-validation interval excludes zero"),
        "general-set-held": p_("check", "general set held"),
        "interval-above-zero": p_("check", "interval above zero"),
        "logged-equals-recomputed": p_("check", "logged equals recomputed"),
        "test-interval-excludes-zero": p_("check", "test interval excludes zero"),
        "useful-effect": p_("check", "useful effect"),
        "validation-gap-vs-seed-sd": p_("check", "validation gap vs seed sd"),
        "rung1-gradient": p_("check", "rung 1: gradient"),
        "rung1-initial_loss": p_("check", "rung 1: initial loss"),
        "rung1-overfit": p_("check", "rung 1: overfit"),
        "rung1-overfit-after": p_("check", "rung 1: overfit after"),
        "rung1-sensitivity": p_("check", "rung 1: sensitivity"),
        "rung1-shapes": p_("check", "rung 1: shapes"),
        "rung1-shapes-after": p_("check", "rung 1: shapes after"),
        "rung1-shapes-before": p_("check", "rung 1: shapes before"),
        "fold-predictions-cover-folds": p_("check", "fold predictions cover folds"),
        "folds-cover-rows": p_("check", "folds cover rows"),
        "folds-disjoint": p_("check", "folds disjoint"),
        "folds-frozen": p_("check", "folds frozen"),
        "frozen-before-runs": p_("check", "frozen before runs"),
        "manifest-verified": p_("check", "manifest verified"),
        "parts-disjoint": p_("check", "parts disjoint"),
        "predictions-cover-parts": p_("check", "predictions cover parts"),
        "rule-before-runs": p_("check", "rule before runs"),
        "same-features": p_("check", "same features"),
        "same-folds": p_("check", "same folds"),
        "same-metric": p_("check", "same metric"),
        "same-rows-test": p_("check", "same rows test"),
        "same-rows-validation": p_("check", "same rows validation"),
        "same-split-id": p_("check", "same split id"),
        "test-opened-once-baseline": p_("check", "test opened once baseline"),
        "test-opened-once-candidate": p_("check", "test opened once candidate"),
        "tuning-budget": p_("check", "tuning budget"),
    }
    base = check_id.removeprefix("fair-")
    if base in words:
        said = words[base]
        return said if base == check_id else _("fair {check}", check=said)
    return check_id.replace("-", " ")


def part_word(part: str) -> str:
    """A part of the data as printed in a table cell or a label: test, validation, train
    (report.json keeps the id)."""
    words = {
        "test": p_("part", "test"),
        "validation": p_("part", "validation"),
        "train": p_("part", "train"),
    }
    return words.get(part, part)


def rung_status(status: str, credited: bool | None = None) -> Status:
    """A ladder rung's status: shown, partly, not shown; "shown, not credited" for a shown
    rung that ``credited`` (report.json ``ladder[].credited``) says an unshown rung is below."""
    if status == "shown" and credited is False:
        return not_credited()
    return Status(
        status_word(status), STATUS_CLASS.get(status, "neutral"), STATUS_MARK.get(status, "?")
    )


def outcome(result: bool | None, yes: str, no: str, unknown: str) -> Status:
    """A yes / no / unknown result in the words given: ✓ shown, ✗ not shown, – neutral."""
    if result is True:
        return Status(yes, "shown", "✓")
    if result is False:
        return Status(no, "not-shown", "✗")
    return Status(unknown, "neutral", "–")


def fact_status(passed: bool | None) -> Status:
    """pass / fail / not checked."""
    return outcome(passed, *(passed_word(p)[0] for p in (True, False, None)))


def said(cell: str, missing: str) -> str:
    """A table cell's text for a sentence: ``missing`` (what is missing, in words) for a dash;
    a sentence never prints a placeholder."""
    return missing if cell == DASH else cell


def chart_figure(
    charts: Collection[str], key: ChartKey | str, caption: str, description: str
) -> Figure | None:
    """The figure for chart `key`, or None when the report has no drawing for it; KeyError
    for a key that names no chart."""
    try:
        ChartKey(key)
    except ValueError:
        known = ", ".join(ChartKey)
        raise KeyError(f"unknown chart key {key!r}; the chart keys are {known}") from None
    return Figure(key, caption, description) if key in charts else None


def _project(report: Report) -> Project:
    """The report's project."""
    return report.project


def ids(report: Report) -> tuple[str, str]:
    """(candidate, baseline) model ids, as runs.csv and evreport.toml name them."""
    p = _project(report)
    return p.candidate, p.baseline


def names(report: Report) -> tuple[str, str]:
    """(candidate, baseline) as the page names them: the display names of evreport.toml's
    [models] (report.json ``project.display_names``), else the ids."""
    shown = _project(report).display_names
    cand, base = ids(report)
    return shown.get(cand) or cand, shown.get(base) or base


#: words evreport's own sentences use as words: a model id that is one of them stays an id
#: in report.json's sentences ("before the first run" is no model's name)
OWN_WORDS = frozenset(
    "a after all an and baseline before both candidate general model models network networks "
    "new old seed seeds slice test the train validation".split()
)


def _ids_pattern(model_ids: list[str]) -> re.Pattern[str]:
    """Any of the ids as a word of its own: not inside a path, a file name or a longer name."""
    alternatives = "|".join(re.escape(i) for i in sorted(model_ids, key=len, reverse=True))
    return re.compile(r"(?<![\w./:\\-])(?:" + alternatives + r")(?![\w/\\-]|\.\w)")


def in_words(text: str, report: Report) -> str:
    """A sentence of report.json as the page prints it: each model id that stands as a word
    of its own replaced by the model's display name (checks/ writes ids; see docs/report.md)."""
    subs = {
        i: n
        for i, n in zip(ids(report), names(report), strict=True)
        if n != i and i.lower() not in OWN_WORDS
    }
    if not subs:
        return text
    return _ids_pattern(list(subs)).sub(lambda m: subs[m.group(0)], text)


def metric_name(report: Report) -> str:
    """The metric as words, with [claim] unit: log_loss -> log loss, "squared error, mmHg²"."""
    p = _project(report)
    if not p.unit:
        return p.metric.replace("_", " ")
    return str(metric_label(p.metric, p.unit, power=unit_power(p.metric)))


def says_number(text: str, number: str) -> bool:
    """``text`` already prints ``number`` as a number of its own (26 in "26 questions", not in
    "126" or "0.26"): a line beside it need not say it again."""
    if not number:
        return False
    return re.search(rf"(?<![\d.,]){re.escape(number)}(?![.,]?\d)", text) is not None


def as_sentence(text: str) -> str:
    """A clause of report.json printed as a sentence of its own: a capital first letter and a
    full stop ("more seeds alone cannot settle this: ..." under the budget line)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."
