"""Before and after on one frozen question set: the per-question section and the interval rung 3 rests on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from reportgen.checks.before_after.coverage import coverage
from reportgen.checks.before_after.paired import paired_interval
from reportgen.checks.before_after.repeats import repeat_means
from reportgen.checks.before_after.slices import label_warning, slice_entries
from reportgen.checks.select import ModelRuns, row_metric
from reportgen.checks.types import Interval
from reportgen.errors import Problem
from reportgen.model.before_after import BeforeAfter, BrokenRow, TInterval
from reportgen.model.enums import IntervalSource
from reportgen.model.relevance import Slice
from reportgen.project import Project
from reportgen.project.predictions import Predictions
from reportgen.stats import before_after as ba
from reportgen.words import blocks_phrase, count, count_noun, p_text, pct
from reportgen.words.i18n import _
from reportgen.words.rungs import ticked


def _correct(
    project: Project, mr: ModelRuns, part: str
) -> tuple[Predictions, np.ndarray, int] | tuple[None, None, int]:
    """(predictions of the first analysed run, each of its questions' per-row metric averaged
    over every analysed run of the model on the part, how many runs) or (None, None, 0).

    Several runs of one version are repeated evaluations (epochs): a question's score is its
    mean over the runs that answered it (methods.md section 8)."""
    preds = [
        (pred, row_metric(project, pred, s.threshold))
        for s in mr.seeds
        if (pred := s.test_pred if part == "test" else s.val_pred) is not None
    ]
    if not preds:
        return None, None, 0
    return (*repeat_means(preds), len(preds))


def _by_category(chosen: Sequence[Any], ids: Any, category: Any) -> dict[str, int] | None:
    """Count of the chosen question ids per category, most first, then by name (like broken_by_category)."""
    if category is None:
        return None
    cat_of = {str(i): str(c) for i, c in zip(ids, category, strict=True)}
    counts: dict[str, int] = {}
    for i in chosen:
        c = cat_of.get(str(i), "(missing)")
        counts[c] = counts.get(c, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _column(
    apred: Predictions, bpred: Predictions, attr: str, ai: np.ndarray, bi: np.ndarray
) -> Any:
    """A per-question column (category, text, slice) aligned with the paired questions, the after
    file's first, else the before file's; None when neither has it."""
    if getattr(apred, attr) is not None:
        return getattr(apred, attr)[ai]
    if getattr(bpred, attr) is not None:
        return getattr(bpred, attr)[bi]
    return None


@dataclass(frozen=True, slots=True)
class Questions:
    """What the frozen question set gives: report.json ``before_after``, its ``slices``, the
    warning when the versions label slices differently, and the interval rung 3 rests on."""

    section: BeforeAfter
    slices: list[Slice] | None
    label_warning: Problem | None
    interval: Interval | None


def question_section(
    project: Project, before_runs: ModelRuns, after_runs: ModelRuns
) -> Questions | None:
    """report.json ``before_after`` (accuracy before and after on the frozen set's questions both
    versions answered, how many each answered, fixed and broken questions, the paired interval)
    with the slices and the interval rung 3 rests on; None without per-question predictions
    of both models."""
    cfg = project.config
    bpred, bvals, b_runs = _correct(project, before_runs, "test")
    apred, avals, a_runs = _correct(project, after_runs, "test")
    if bpred is None or apred is None or bvals is None or avals is None:
        return None
    cov, ids = coverage(project, "test", bpred.row_id, apred.row_id)
    bi = pd.Index(bpred.row_id).get_indexer(ids)
    ai = pd.Index(apred.row_id).get_indexer(ids)
    b, a = bvals[bi], avals[ai]
    if not cfg.higher_is_better:  # error_rate: "correct" is 1 - error
        b, a = 1 - b, 1 - a
    blocks = apred.block[ai] if (cfg.block and apred.block is not None) else None
    cat = _column(apred, bpred, "category", ai, bi)
    text = _column(apred, bpred, "text", ai, bi)
    labels = _column(apred, bpred, "slice", ai, bi) if cfg.slice else None
    if cat is None:  # no category column: the slice column groups the broken questions
        cat = labels
    before_labels = (
        bpred.slice[bi]
        if cfg.slice and apred.slice is not None and bpred.slice is not None
        else None
    )
    piv = paired_interval(project, a - b, blocks, np.random.default_rng(cfg.random_seed))
    fb = ba.fixed_broken(ids, b, a, category=cat, text=text)
    section = BeforeAfter(
        questions=int(len(ids)),
        before=float(b.mean()) if len(ids) else None,
        after=float(a.mean()) if len(ids) else None,
        difference=piv.gap,
        low=piv.low,
        high=piv.high,
        primary=piv.primary,
        interval_reason=piv.reason,
        blocks=piv.units,
        confidence=cfg.confidence,
        bootstrap=piv.bootstrap,
        t=TInterval(low=piv.t.low, high=piv.t.high, p=piv.t.p),
        fixed=fb.fixed,
        broken=fb.broken,
        # McNemar's test is on questions answered once; means over epochs have no such pairs
        mcnemar_p=ba.mcnemar_exact(fb.fixed, fb.broken) if a_runs == b_runs == 1 else None,
        fixed_ids=tuple(str(i) for i in fb.fixed_ids),
        broken_ids=tuple(str(i) for i in fb.broken_ids),
        broken_by_category=fb.broken_by_category,
        fixed_by_category=_by_category(fb.fixed_ids, ids, cat),
        broken_rows=tuple(
            BrokenRow(id=str(r.id), category=r.category, text=r.text) for r in fb.broken_rows
        ),
        category_sentence=category_sentence(
            ba.dominant_category(
                fb.broken_by_category,
                fb.broken,
                _by_category(list(ids), ids, cat),
                _by_category(fb.fixed_ids, ids, cat),
            )
        ),
        coverage=cov,
        # every predictions file the interval read: each run (epoch) of both versions
        artefacts=tuple(
            dict.fromkeys(
                pred.path
                for mr in (before_runs, after_runs)
                for sr in mr.seeds
                if (pred := sr.test_pred) is not None
            )
        ),
        repeats={"before": b_runs, "after": a_runs} if max(a_runs, b_runs) > 1 else None,
    )
    slices = slice_entries(project, b, a, labels, blocks, before_labels)
    warning = label_warning(project, ids, labels, before_labels, apred, ai)
    if piv.low is None or piv.high is None or piv.gap is None:
        return Questions(section, slices, warning, None)
    iv = Interval(
        gap=piv.gap,
        low=piv.low,
        high=piv.high,
        source=IntervalSource.QUESTIONS,
        part=None,
        what=blocks_phrase(piv.units, cfg.block)
        if blocks is not None
        else count_noun(piv.units, "question"),
    )
    return Questions(section, slices, warning, iv)


def category_sentence(dominant: ba.Dominant | None) -> str | None:
    """The sentence when one category holds most of the broken questions, e.g. "7 of 9 broken
    questions are 'dates': tuning broke something specific."; None without such a category."""
    if dominant is None:
        return None
    name = ticked(dominant.name)
    if dominant.broken == 1:
        return _("The 1 broken question is {name}.", name=name)
    head = dict(count=count(dominant.count), broken=count(dominant.broken), name=name)
    if dominant.p_share is None or dominant.questions is None or dominant.total is None:
        return _(
            "{count} of {broken} broken questions are {name}: tuning broke something specific.",
            **head,
        )
    share = _("{pct} of the questions", pct=pct(dominant.questions / dominant.total))
    fixed = count(dominant.fixed)
    if dominant.specific:
        return _(
            "{count} of {broken} broken questions are {name} ({share}; {fixed} of them fixed): "
            "more than its share explains ({p}), so tuning broke something specific.",
            share=share,
            fixed=fixed,
            p=p_text(dominant.p_share),
            **head,
        )
    if (dominant.fixed or 0) >= dominant.count:
        return _(
            "{count} of {broken} broken questions are {name} ({share}), but {fixed} {name} "
            "questions were fixed: tuning moved that kind both ways.",
            share=share,
            fixed=fixed,
            **head,
        )
    return _(
        "{count} of {broken} broken questions are {name} ({share}): about its share ({p}), so "
        "no sign that tuning broke one kind.",
        share=share,
        p=p_text(dominant.p_share),
        **head,
    )
