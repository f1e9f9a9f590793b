"""The general-abilities set before and after (forgetting): the drop with its paired interval, held
only when shown, and its words."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from reportgen.checks.before_after.coverage import coverage, coverage_words
from reportgen.checks.before_after.paired import paired_interval
from reportgen.checks.before_after.repeats import repeat_means
from reportgen.checks.select import row_metric
from reportgen.model.base import MISSING
from reportgen.model.before_after import General
from reportgen.model.enums import GeneralStatus
from reportgen.project import Project
from reportgen.project.predictions import MISSING_LABEL, Predictions
from reportgen.words import change, count, count_noun, gap_decimals, given, interval, prob
from reportgen.words.i18n import _, n_


def general_section(project: Project) -> General | None:
    """The general-abilities set before and after: the drop with a paired interval; held only when
    the interval's upper end of the drop is at most max_drop (a harm must be ruled out, not assumed)."""
    cfg = project.config
    vals: dict[str, float | None] = {}
    arts: list[str] = []
    preds: dict[str, tuple[Predictions, np.ndarray]] = {}
    for role in ("baseline", "candidate"):
        name = getattr(cfg, role)
        rows = [
            r
            for r in project.runs
            if r.model == name and r.split == cfg.general_split and r.ok and r.metric == cfg.metric
        ]
        if not rows:
            return None
        r = rows[0]
        # several runs (epochs) of one version: each question's mean over them (section 8)
        loaded: list[tuple[Predictions, np.ndarray]] = []
        for row in rows:
            pred = project.predictions.get(row.predictions) if row.predictions else None
            if pred is not None and all(pred.path != p.path for p, _ in loaded):
                loaded.append((pred, row_metric(project, pred, 0.5)))
        if loaded:
            preds[role] = repeat_means(loaded)
            vals[role] = float(np.mean(preds[role][1]))
            arts.append(preds[role][0].path)
        else:
            vals[role] = r.value
        arts.append(r.cite(project.runs_name))
    before, after = vals["baseline"], vals["candidate"]
    if before is None or after is None:
        drop = None
    else:
        drop = (before - after) if cfg.higher_is_better else (after - before)
    out = General(
        split=cfg.general_split,
        before=before,
        after=after,
        drop=drop,
        low=None,
        high=None,
        max_drop=cfg.max_drop,
        held=False,
        status=GeneralStatus.NOT_SHOWN,
        reason=None,
        questions=None,
        coverage=None,
        artefacts=tuple(arts),
        primary=MISSING,
        bootstrap=MISSING,
        t=MISSING,
    )
    if len(preds) != 2:
        reason = _("no per-question predictions on the general set for both models: no interval")
        return _judged(project, replace(out, reason=reason))
    (bp, bv), (ap, av) = preds["baseline"], preds["candidate"]
    cov, ids = coverage(project, cfg.general_split, bp.row_id, ap.row_id)
    if not cov.complete:
        # paired by question id: a drop on other questions than each version's own is no drop
        reason = _(
            "the two versions did not answer the same general questions ({why}), so the drop is "
            "not shown",
            why=coverage_words(cov, "general"),
        )
        return replace(out, coverage=cov, drop=None, reason=reason)
    bpos = pd.Index(bp.row_id).get_indexer(ids)
    apos = pd.Index(ap.row_id).get_indexer(ids)
    b, a = bv[bpos], av[apos]
    d = (b - a) if cfg.higher_is_better else (a - b)  # per-question drop
    blocks = ap.block[apos] if (cfg.block and ap.block is not None) else None
    if blocks is not None and np.all(blocks == MISSING_LABEL):
        blocks = None  # the block column is optional on the general set: empty means absent
    iv = paired_interval(project, d, blocks, np.random.default_rng(cfg.random_seed + 1))
    out = replace(
        out,
        coverage=cov,
        questions=int(ids.size),
        drop=iv.gap if iv.gap is not None else drop,
        low=iv.low,
        high=iv.high,
        primary=iv.primary,
        bootstrap=iv.bootstrap,
        t=iv.t,
        reason=_("no interval on the drop ({reason})", reason=iv.reason)
        if iv.high is None
        else None,
    )
    return _judged(project, out)


def _judged(project: Project, out: General) -> General:
    """``out`` held when its drop's upper end is within max_drop, dropped when its whole
    interval is above it, else not shown with the reason."""
    max_drop = project.config.max_drop
    if out.high is not None and out.high <= max_drop + 1e-12:
        return replace(out, held=True, status=GeneralStatus.HELD)
    if out.low is not None and out.low > max_drop:
        reason = _("the whole interval of the drop is above max_drop")
        return replace(out, status=GeneralStatus.DROPPED, reason=reason)
    if out.high is not None:
        reason = _(
            "the drop's upper bound {high} exceeds the allowed {allowed}: holding is not shown",
            high=drop_numbers(out)["high"],
            allowed=given(max_drop),
        )
        return replace(out, reason=reason)
    return out


def drop_numbers(general: General) -> dict[str, str]:
    """The general set's numbers as printed: scores before and after (rates, 3 decimals), the
    drop and its bounds with one decimal count, the interval (both ends signed), the allowance."""
    d = gap_decimals(general.drop, general.low, general.high)
    low, high = general.low, general.high
    return {
        "before": prob(general.before),
        "after": prob(general.after),
        "drop": change(general.drop, d),
        "high": change(high, d) if high is not None else "",
        "interval": interval(low, high, digits=d) if low is not None and high is not None else "",
        "allowed": given(general.max_drop),
    }


def unpaired(general: General) -> bool:
    """The two versions answered different general questions: no drop is shown."""
    cov = general.coverage
    return cov is not None and not cov.complete


def general_scores(general: General) -> str:
    """The general-set scores before and after, each on how many questions when the versions
    answered different ones: "0.900 on 500 of 750 questions -> 0.700 on 500 of 750 questions"."""
    cov = general.coverage
    if cov is None or cov.complete:
        return f"{prob(general.before)} -> {prob(general.after)}"
    each = []
    for side, score in ((cov.before, general.before), (cov.after, general.after)):
        on = (
            n_(
                "{answered} of {n} question",
                "{answered} of {n} questions",
                cov.questions,
                answered=count(side.answered),
            )
            if not side.outside
            else count_noun(side.answered + side.outside, "question")
        )
        each.append(_("{score} on {questions}", score=prob(score), questions=on))
    return " -> ".join(each)


def general_failure(general: General) -> str:
    """Why the general set does not count as held, naming the numbers."""
    if unpaired(general):
        return _("holding the general set is not shown: {reason}", reason=general.reason)
    g = drop_numbers(general)
    if general.status == "dropped" or (
        general.high is None and general.drop is not None and general.drop > general.max_drop
    ):
        return _(
            "the general set dropped {drop} ({before} -> {after}), more than the allowed {allowed}",
            **g,
        )
    if general.high is None:
        return _(
            "holding the general set is not shown: {reason} (drop {drop}, allowed {allowed})",
            reason=general.reason,
            **g,
        )
    return _(
        "holding the general set is not shown: the drop {drop} has an upper bound of {high}, "
        "above the allowed {allowed}",
        **g,
    )
