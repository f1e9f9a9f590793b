"""Slices in before/after: each slice's accuracy before and after, the paired difference with its
interval, and the non-inferiority rule of methods.md section 7 for the ``not_worse_on`` slices."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

# the one per-slice reading of the non-inferiority rule, shared with model-against-baseline
from reportgen.checks.before_after.paired import paired_interval
from reportgen.checks.ids import CheckId
from reportgen.checks.noise import SliceFigures, not_worse_margin, slice_entry
from reportgen.checks.types import Check
from reportgen.errors import Problem, said
from reportgen.model.relevance import Slice
from reportgen.project import Project
from reportgen.project.predictions import Predictions
from reportgen.stats.before_after import crossed
from reportgen.words import count, count_noun, gap_decimals, given, interval, prob, with_sign
from reportgen.words.i18n import _, n_
from reportgen.words.rungs import quoted

#: the check id this module writes: one per required slice (rung 4)
NOT_WORSE = CheckId("not-worse-on-*", 4)


def disagreeing_labels(labels: Any, before_labels: Any) -> np.ndarray | None:
    """The positions where the after file's slice label differs from the before file's, or None
    when only one file (or the split file) gives the labels."""
    if labels is None or before_labels is None:
        return None
    a = np.asarray(labels, dtype=object).astype(str)
    b = np.asarray(before_labels, dtype=object).astype(str)
    return np.flatnonzero(a != b)


def label_warning(
    project: Project,
    ids: Any,
    labels: Any,
    before_labels: Any,
    apred: Predictions,
    ai: np.ndarray,
) -> Problem | None:
    """One warning when the two versions label some questions' slice differently: how many, the
    first of them with both labels, and what is left unmeasured."""
    differ = disagreeing_labels(labels, before_labels)
    if differ is None or not len(differ):
        return None
    k = int(differ[0])
    return Problem(
        n_(
            "slice column {column}: the before and after files label {differ} of {n} question "
            "differently (first {id}: {before} before, {after} after); the slices those questions "
            "fall in are not measured. Give both versions the same labels, or put the column in "
            "the split file only",
            "slice column {column}: the before and after files label {differ} of {n} questions "
            "differently (first {id}: {before} before, {after} after); the slices those questions "
            "fall in are not measured. Give both versions the same labels, or put the column in "
            "the split file only",
            len(ids),
            column=said(project.config.slice, None),
            differ=count(len(differ)),
            id=said(str(ids[k]), None),
            before=said(str(before_labels[k]), None),
            after=said(str(labels[k]), None),
        ),
        apred.path,
        apred.line(int(ai[k])),
        apred.extra.get("slice_column"),
        slug="slice-labels-differ",
        severity="warning",
    )


def _unagreed_entry(
    name: str, rows: int, differ: int, required: bool, margin: float | None
) -> Slice:
    """A slice some of whose questions the two versions label differently: not measured."""
    return replace(
        slice_entry(name, rows, None, required, margin),
        not_worse_reason=n_(
            "the before and after files label {differ} of its {n} question differently, and a "
            "slice is measured only on labels both versions agree on (or from the split file)",
            "the before and after files label {differ} of its {n} questions differently, and a "
            "slice is measured only on labels both versions agree on (or from the split file)",
            rows,
            differ=count(differ),
        ),
        labels_disagree=differ,
        before=None,
        after=None,
        fixed=None,
        broken=None,
    )


def slice_entries(
    project: Project,
    before: np.ndarray,
    after: np.ndarray,
    labels: Any,
    blocks: Any,
    before_labels: Any = None,
) -> list[Slice] | None:
    """report.json ``slices`` of a before-after project: one entry per slice label of either
    version (sorted), then each required slice no question carries; None without a slice
    column. ``labels``: the after file's labels (the split file's, when it gives them);
    ``before_labels``: the before file's, when both files carry the column. A slice whose
    questions the two versions label differently is not measured (``labels_disagree``)."""
    cfg = project.config
    if labels is None:
        return None
    labels = np.asarray(labels, dtype=object).astype(str)
    other = labels if before_labels is None else np.asarray(before_labels, dtype=object).astype(str)
    margin = not_worse_margin(project)
    out: list[Slice] = []
    for name in sorted(set(map(str, np.unique(labels))) | set(map(str, np.unique(other)))):
        mask, mask_b = labels == name, other == name
        differ = int((mask ^ mask_b).sum())
        if differ:
            out.append(
                _unagreed_entry(
                    name, int((mask | mask_b).sum()), differ, name in cfg.not_worse_on, margin
                )
            )
            continue
        piv = paired_interval(
            project,
            after[mask] - before[mask],
            blocks[mask] if blocks is not None else None,
            np.random.default_rng(cfg.random_seed),
        )
        res = SliceFigures(
            gap=piv.gap,
            low=piv.low,
            high=piv.high,
            primary=piv.primary,
            blocks=piv.units,
            reason=piv.reason,
        )
        entry = slice_entry(name, int(mask.sum()), res, name in cfg.not_worse_on, margin)
        fixed, broken = crossed(before[mask], after[mask])  # the rule of the whole set's
        entry = replace(
            entry,
            before=float(before[mask].mean()),
            after=float(after[mask].mean()),
            fixed=int(fixed.sum()),
            broken=int(broken.sum()),
        )
        out.append(entry)
    for name in cfg.not_worse_on:
        if name not in {s.slice for s in out}:
            entry = slice_entry(name, 0, None, True, margin)
            out.append(replace(entry, before=None, after=None, fixed=0, broken=0))
    return out


def failing_slices(slices: Sequence[Slice] | None) -> list[Slice]:
    """The required slices not shown to be no worse, in report order."""
    return [s for s in slices or [] if s.required and not s.not_worse]


def _score(v: float | None | Any) -> float | None:
    """A before-after slice's score (its before or after share correct), or None."""
    return v if isinstance(v, float) else None


def _numbers(s: Slice) -> str:
    """A slice's accuracies and difference with its interval: "from 0.520 to 0.380, difference
    −0.140, interval −0.209 to −0.071"."""
    before, after = _score(s.before), _score(s.after)
    if s.low is None or s.high is None:
        if s.gap is None:
            rest = _("no difference measured")
        else:
            rest = _("difference {gap}, no interval", gap=with_sign(s.gap, gap_decimals(s.gap)))
    else:
        d = gap_decimals(s.gap, s.low, s.high)
        rest = _(
            "difference {gap}, interval {ends}",
            gap=with_sign(s.gap, d),
            ends=interval(s.low, s.high, digits=d),
        )
    if before is None:
        return rest
    moved = _("from {before} to {after}", before=prob(before), after=prob(after))
    return f"{moved}, {rest}"


def slice_numbers(s: Slice) -> dict[str, str]:
    """A slice's numbers as printed: its worse end (signed) and its scores and difference."""
    d = gap_decimals(s.gap, s.low, s.high)
    return {"low": with_sign(s.low, d), "moved": _numbers(s)}


def slice_failure(s: Slice, subject: str = "tuning") -> str:
    """Why a required slice holds the decision back, with its numbers ("tuning made slice 'dates'
    (100 questions) worse: ..."); ``subject`` is who made it worse."""
    where = _slice_where(s)
    if s.worse:
        numbers = _numbers(s)
        if s.margin is not None:
            numbers = _(
                "{numbers}, beyond the margin {margin}", numbers=numbers, margin=given(-s.margin)
            )
        if subject == "it":
            return _("it made {where} worse: {numbers}", where=where, numbers=numbers)
        return _("tuning made {where} worse: {numbers}", where=where, numbers=numbers)
    nums = "" if s.labels_disagree else f"{_numbers(s)}; "
    return _(
        "{where} is not shown to be no worse: {why}",
        where=where,
        why=nums + str(s.not_worse_reason),
    )


def _slice_where(s: Slice) -> str:
    """A slice and its size: "slice 'dates' (100 questions)"."""
    return _(
        "slice {name} ({questions})",
        name=quoted(s.slice),
        questions=count_noun(s.rows, "question"),
    )


def slice_check(s: Slice, scored: tuple[str, ...] = ()) -> Check:
    """A required slice: not worse after tuning than before, within the margin; ``scored``:
    the question files its rows were scored in."""
    where = f"{_slice_where(s)}: " + ("" if s.labels_disagree else f"{_numbers(s)}; ")
    return Check(
        id=NOT_WORSE.of(s.slice),
        rung=4,
        passed=bool(s.not_worse),
        value=s.low,
        bar=-s.margin if s.margin is not None else None,
        artefacts=scored,
        text=where
        + (
            _(
                "not worse shown: the worse end stays within the margin {margin}",
                margin=given(-s.margin) if s.margin is not None else "",
            )
            if s.not_worse
            else _("not worse is not shown: {reason}", reason=s.not_worse_reason)
        ),
    )
