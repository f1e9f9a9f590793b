"""noise.cv (the resampling line's figures) and noise.seed within folds (the seed line's)."""

from __future__ import annotations

from typing import cast

import numpy as np

from reportgen.checks.cv.gaps import FoldGap as FoldGapRow
from reportgen.checks.cv.gaps import FoldTable
from reportgen.checks.cv.select import FoldRuns
from reportgen.checks.noise import no_pairs, seed_noise
from reportgen.checks.reasons import sentence, t_sentence, t_test
from reportgen.model.base import MISSING
from reportgen.model.common import TTest
from reportgen.model.cv import Bayes, CrossValidation, CvPlanning, FoldGap
from reportgen.model.seed import SeedNoise, SeedValue, SeedValues
from reportgen.project import Project
from reportgen.stats.cv import (
    MAX_REPEATS,
    MIN_FOLD_GAPS,
    CvNoise,
    cv_noise,
    planning,
    within_fold_spread,
)
from reportgen.stats.cv import Bayes as StatsBayes
from reportgen.stats.metrics import gap as signed_gap
from reportgen.stats.results import Bounds, Reason
from reportgen.stats.seeds import spread_rule
from reportgen.words.i18n import _

#: the corrected and naive t of a refused cv analysis: no interval
NO_T = TTest(low=None, high=None, p=None, se=None, df=None)


def t_statistic(gap: float | None, se: float | None) -> float | None:
    """The t statistic of a t interval on the mean fold gap: the gap over its standard error."""
    return None if gap is None or se is None else gap / se


def cv_section(project: Project, table: FoldTable) -> CrossValidation:
    """report.json ``noise.cv``: the fold gaps, the corrected and naive t, the Bayesian
    correlated t against min_useful_effect, and what more repeats could do (its planning
    note is CrossValidation.cv's)."""
    cfg = project.config
    K, R = table.folds, table.repeats
    d = np.array([g.gap for g in table.gaps if g.gap is not None], dtype=float)
    empty = next((g for g in table.gaps if g.gap is None), None)
    refused = _no_rows(empty) if empty is not None else None
    if refused is None and table.gaps and K < 2:
        refused = _("one fold per repeat: nothing was held out")
    if refused is not None:
        res = cv_noise(d, ratio=0.0, confidence=cfg.confidence)
    elif project.folds is not None:
        res = cv_noise(
            d,
            [g.n_test for g in table.gaps],
            [g.n_train for g in table.gaps],
            confidence=cfg.confidence,
            rope=cfg.min_useful_effect,
        )
    else:
        ratio = 1.0 / (K - 1) if K >= 2 else 0.0
        res = cv_noise(d, ratio=ratio, confidence=cfg.confidence, rope=cfg.min_useful_effect)
    corrected, naive = t_test(res.corrected), t_test(res.naive)
    bayes = None if res.bayes is None else bayes_figures(res.bayes)
    test_train_ratio, reason = res.test_train_ratio, cv_reason(res)
    if refused is not None:
        corrected, naive, bayes, test_train_ratio, reason = NO_T, NO_T, None, None, refused
    return CrossValidation(
        repeats=R,
        folds=K,
        J=len(table.gaps),
        gap=res.gap,
        sd=res.sd,
        test_train_ratio=test_train_ratio,
        confidence=cfg.confidence,
        ratio_from="folds.csv" if project.folds is not None else "fold count",
        corrected=corrected,
        naive=naive,
        t=t_statistic(res.gap, corrected.se),
        bayes=bayes,
        planning=_planning(project, res, corrected, test_train_ratio, R, K),
        reason=reason,
        few_folds=res.few_folds,
        excludes_zero=None
        if corrected.low is None or corrected.high is None
        else Bounds(corrected.low, corrected.high).excludes_zero,
        source=table.source,
        complete=R * K == len(table.gaps),
        train_rows_logged=any(g.n_train_from == "train_rows" for g in table.gaps),
        fold_gaps=tuple(
            FoldGap(
                repeat=g.repeat,
                fold=g.fold,
                gap=g.gap,
                rows=g.rows,
                n_test=g.n_test,
                n_train=g.n_train,
                source=g.source,
            )
            for g in table.gaps
        ),
        left_out=tuple(table.left_out),
    )


def cv_reason(res: CvNoise) -> str | None:
    """Why noise.cv has no interval, in words."""
    if res.reason is Reason.TOO_FEW_FOLD_GAPS:
        return sentence(res.reason, n=res.J, minimum=MIN_FOLD_GAPS)
    return t_sentence(res.reason, res.J, "fold gap")


def bayes_figures(b: StatsBayes) -> Bayes:
    """noise.cv.bayes: the rope and the three posterior probabilities."""
    return Bayes(rope=b.rope, p_worse=b.p_worse, p_equivalent=b.p_equivalent, p_better=b.p_better)


def _no_rows(g: FoldGapRow) -> str:
    return _(
        "repeat {repeat} fold {fold} has no rows that every network scored: its gap is undefined",
        repeat=g.repeat,
        fold=g.fold,
    )


def _planning(
    project: Project,
    res: CvNoise,
    corrected: TTest,
    ratio: float | None,
    R: int,
    K: int,
) -> CvPlanning:
    """noise.cv.planning: repeats needed, the floor no number of repeats goes below, and why
    (its text is the planning note, written once the section is whole)."""
    cfg = project.config
    if corrected.se is None:
        return CvPlanning(
            repeats_needed=None,
            floor_half_width=None,
            reason=_("no corrected interval, so no planning figures"),
            half_width=None,
            settled=None,
            repeats_cannot=None,
            floor_exceeds_useful=MISSING,
            text=None,
        )
    # a corrected interval has its mean, sd and ratio
    plan = planning(
        cast(float, res.gap),
        cast(float, res.sd),
        repeats=R,
        folds=K,
        ratio=cast(float, ratio),
        confidence=cfg.confidence,
        useful=cfg.min_useful_effect,
        J=res.J,
    )
    if plan.settled:
        reason = _("the corrected interval already excludes zero")
    elif plan.repeats_cannot:
        reason = _("more repeats cannot settle it: the gap is inside the floor half-width")
    elif plan.repeats_needed is None:
        reason = _("more than {n} repeats would be needed", n=MAX_REPEATS)
    else:
        reason = _("more repeats could settle it if the gap and the fold-gap sd stay as they are")
    return CvPlanning(
        repeats_needed=plan.repeats_needed,
        floor_half_width=plan.floor_half_width,
        reason=reason,
        half_width=plan.half_width,
        settled=plan.settled,
        repeats_cannot=plan.repeats_cannot,
        floor_exceeds_useful=plan.floor_exceeds_useful,
        text=None,
    )


def cv_seed_section(
    project: Project, cand: FoldRuns, base: FoldRuns, table: FoldTable
) -> SeedNoise:
    """noise.seed in a cv design: the seed spread within folds (the mean over the analysed folds
    of each fold's seed variance), the rule on the mean fold gap; the fold gaps average seeds."""
    cfg = project.config
    keys = [(g.repeat, g.fold) for g in table.gaps]
    spread = {}
    for fr in (cand, base):
        vals = [[n.value for n in fr.nets[k] if n.value is not None] for k in keys]
        spread[fr.role] = within_fold_spread(vals) if keys and all(vals) else None
    gap = (
        float(np.mean([g.gap for g in table.gaps]))
        if table.gaps and all(g.gap is not None for g in table.gaps)
        else None
    )
    per_seed = {fr.role: _seed_means(fr, keys) for fr in (cand, base)}
    base_mean = spread["baseline"].mean if spread["baseline"] else None
    beating = (
        sum(
            1
            for v in per_seed["candidate"]
            if signed_gap(v.value, base_mean, cfg.higher_is_better) > 0
        )
        if base_mean is not None
        else None
    )
    sp = {role: spread[role] for role in ("candidate", "baseline")}
    rule = spread_rule(
        n={role: v.n if v else 0 for role, v in sp.items()},
        sd={role: v.sd if v else None for role, v in sp.items()},
        mean={role: v.mean if v else None for role, v in sp.items()},
        zero={role: v.zero if v else False for role, v in sp.items()},
        gap=gap,
        beating=beating,
        multiple=cfg.seed_sd_multiple,
        sd_from=cfg.seed_sd_from,
    )
    reason = _("cross-validation: seeds are compared within folds (the seed line), not paired")
    return seed_noise(
        rule,
        sd_from=cfg.seed_sd_from,
        part="cross-validation",
        values=SeedValues(candidate=per_seed["candidate"], baseline=per_seed["baseline"]),
        left_out=tuple(cand.left_out + base.left_out + table.left_out),
        test_networks=None,
        paired=no_pairs(reason if cfg.seeds_paired else None),
        within_folds=True,
        folds=len(keys),
        per=_(" per fold"),
    )


def _seed_means(fr: FoldRuns, keys: list[tuple[int, int]]) -> tuple[SeedValue, ...]:
    """Per seed label, its mean fold metric over the analysed folds it trained on."""
    out = []
    for seed in fr.seeds():
        vals = [n.value for k in keys for n in fr.nets.get(k, []) if n.seed == seed]
        vals = [v for v in vals if v is not None]
        if vals:
            out.append(
                SeedValue(
                    seed=seed,
                    value=float(np.mean(vals)),
                    source=_("mean over {n} folds", n=len(vals)),
                    folds=len(vals),
                )
            )
    return tuple(out)
