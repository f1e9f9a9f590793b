"""Slices in before/after: each slice's accuracy before and after, the paired difference with its
interval, and the non-inferiority rule of methods.md section 7 for the ``not_worse_on`` slices."""

from __future__ import annotations

import numpy as np

# the one per-slice reading of the non-inferiority rule, shared with model-against-baseline
from reportgen.checks.before_after.paired import paired_interval
from reportgen.checks.noise import _slice_entry, not_worse_margin
from reportgen.checks.types import Check
from reportgen.project import Project
from reportgen.words import count_noun, gap_decimals, given, interval, prob, with_sign


def slice_entries(
    project: Project, before: np.ndarray, after: np.ndarray, labels, blocks
) -> list[dict] | None:
    """report.json ``slices`` of a before-after project: one entry per slice label (sorted), then
    each required slice no question carries; None without a slice column."""
    cfg = project.config
    if labels is None:
        return None
    labels = np.asarray(labels, dtype=object).astype(str)
    margin = not_worse_margin(project)
    out = []
    for name in map(str, np.unique(labels)):
        mask = labels == name
        piv = paired_interval(
            project,
            after[mask] - before[mask],
            blocks[mask] if blocks is not None else None,
            np.random.default_rng(cfg.random_seed),
        )
        res = {
            "gap": piv["gap"],
            "low": piv["low"],
            "high": piv["high"],
            "primary": piv["primary"],
            "blocks": piv["units"],
            "reason": piv["reason"],
        }
        entry = _slice_entry(name, int(mask.sum()), res, name in cfg.not_worse_on, margin)
        b, a = before[mask].astype(bool), after[mask].astype(bool)
        entry.update(
            before=float(before[mask].mean()),
            after=float(after[mask].mean()),
            fixed=int((~b & a).sum()),
            broken=int((b & ~a).sum()),
        )
        out.append(entry)
    for name in cfg.not_worse_on:
        if name not in {s["slice"] for s in out}:
            entry = _slice_entry(name, 0, None, True, margin)
            entry.update(before=None, after=None, fixed=0, broken=0)
            out.append(entry)
    return out


def failing_slices(slices: list[dict] | None) -> list[dict]:
    """The required slices not shown to be no worse, in report order."""
    return [s for s in slices or [] if s["required"] and not s["not_worse"]]


def _numbers(s: dict) -> str:
    """A slice's accuracies and difference with its interval: "from 0.520 to 0.380, difference
    −0.140, interval −0.209 to −0.071"."""
    moved = (
        f"from {prob(s['before'])} to {prob(s['after'])}, " if s.get("before") is not None else ""
    )
    if s.get("low") is None:
        if s.get("gap") is None:
            return moved + "no difference measured"
        return f"{moved}difference {with_sign(s['gap'], gap_decimals(s['gap']))}, no interval"
    d = gap_decimals(s["gap"], s["low"], s["high"])
    return (
        f"{moved}difference {with_sign(s['gap'], d)}, interval "
        f"{interval(s['low'], s['high'], digits=d)}"
    )


def slice_numbers(s: dict) -> dict[str, str]:
    """A slice's numbers as printed: its worse end (signed) and its scores and difference."""
    d = gap_decimals(s["gap"], s["low"], s["high"])
    return {"low": with_sign(s["low"], d), "moved": _numbers(s)}


def slice_failure(s: dict, subject: str = "tuning") -> str:
    """Why a required slice holds the decision back, with its numbers ("tuning made slice 'dates'
    (100 questions) worse: ..."); ``subject`` is who made it worse."""
    where = f"slice {s['slice']!r} ({count_noun(s['rows'], 'question')})"
    if s.get("worse"):
        beyond = f", beyond the margin {given(-s['margin'])}" if s.get("margin") is not None else ""
        return f"{subject} made {where} worse: {_numbers(s)}{beyond}"
    return f"{where} is not shown to be no worse: {_numbers(s)}; {s['not_worse_reason']}"


def slice_check(s: dict) -> Check:
    """A required slice: not worse after tuning than before, within the margin."""
    where = f"slice {s['slice']!r} ({count_noun(s['rows'], 'question')}): {_numbers(s)}; "
    return Check(
        id=f"not-worse-on-{s['slice']}",
        rung=4,
        passed=bool(s["not_worse"]),
        value=s["low"],
        bar=-s["margin"] if s.get("margin") is not None else None,
        artefacts=(),
        text=where
        + (
            f"not worse shown: the worse end stays within the margin {given(-s['margin'])}"
            if s["not_worse"]
            else f"not worse is not shown: {s['not_worse_reason']}"
        ),
    )
