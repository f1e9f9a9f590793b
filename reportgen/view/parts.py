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
from reportgen.words.i18n import p_

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
    return Status(p_("rung status", "shown, not credited"), "not-credited", "○")


def status_word(status: str) -> str:
    """A rung's status as printed: shown, partly, not shown (report.json keeps the id)."""
    words = {
        "shown": p_("rung status", "shown"),
        "partly": p_("rung status", "partly"),
        "not shown": p_("rung status", "not shown"),
    }
    return words.get(status, status)


def rung_word(name: str) -> str:
    """A rung's name as printed ("larger than noise"): report.json's ``ladder[].name`` is the
    English id of the rung; a name that is no rung's is printed as it is."""
    words = {
        "correct": p_("rung", "correct"),
        "fair": p_("rung", "fair"),
        "larger than noise": p_("rung", "larger than noise"),
        "relevant": p_("rung", "relevant"),
        "bounded": p_("rung", "bounded"),
    }
    return words.get(name, name)


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
