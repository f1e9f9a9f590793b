"""The noise lines of a cv design: the seed line (retraining, within folds), the resampling line
(cross-validation), and the block line of a held-out test part when there is one; the planning
note. Every number through reportgen.words."""

from __future__ import annotations

from typing import cast

from reportgen import words
from reportgen.checks.cv.noise import t_statistic
from reportgen.checks.cv.select import FoldRuns
from reportgen.checks.noise_lines import seed_rule_words
from reportgen.model.cv import CrossValidation
from reportgen.model.seed import SeedNoise
from reportgen.project import Project
from reportgen.stats.cv import FEW_FOLD_GAPS

SEED_HEAD = "Seed spread (retraining):"


def cv_head(cv: CrossValidation) -> str:
    """ "Resampling (cross-validation, 10 x 10 folds: which rows trained and tested each model):" """
    return (
        f"Resampling (cross-validation, {words.count(cv.repeats)} x "
        f"{words.count(cv.folds)} folds: which rows trained and tested each model):"
    )


def seed_line(
    project: Project, seed: SeedNoise, cand: FoldRuns, base: FoldRuns, cv: CrossValidation
) -> str:
    """The seed line within folds: the rule on the mean fold gap, with the within-fold seed sd
    (the gap with the resampling line's decimals)."""
    cfg = project.config
    unit = cfg.metric_words
    n_c, n_b = seed.n.candidate, seed.n.baseline
    folds = words.count_noun(seed.folds or 0, "fold")
    g = seed.validation_gap
    gap_words = (
        f"the cross-validation gap is {words.with_sign(g, cv_digits(cv))} {unit}"
        if g is not None
        else "there is no cross-validation gap"
    )
    if seed.trivial:
        s = (
            f"{SEED_HEAD} {gap_words}; both models have zero seed spread within every fold "
            f"({words.count(n_c)} and {words.count(n_b)} seeds per fold: deterministic "
            "training), so the seed rule is trivially "
            f"{'met' if seed.passes else 'failed (the gap is not positive)'}"
            " and the resampling line carries the decision."
        )
    elif seed.gap_in_sd is None:
        s = (
            f"{SEED_HEAD} not measured within folds: {seed.reason or 'fewer than 2 seeds'} "
            f"({words.count_noun(n_c, 'seed', adjective=cand.name)} and "
            f"{words.count_noun(n_b, 'seed', adjective=base.name)} per fold); {gap_words}."
        )
    else:
        s = seed_rule_words(
            cfg,
            seed,
            (cand.name, base.name),
            f"{SEED_HEAD} {gap_words}",
            lambda seeds, larger: (
                f": the mean over {folds} of each fold's seed variance, {seeds} per fold{larger}"
            ),
            len(seed.values.candidate),
            " over the folds",
        )
    if seed.note:
        s += f" Note: {seed.note}."
    s += " The fold gaps compare seed-averaged networks."
    s += seed_count_words(cand, base)
    if seed.left_out:
        s += (
            f" {words.count_noun(len(seed.left_out), 'run row')} left out (listed in the appendix)."
        )
    return s


def t_words(t: float | None) -> str:
    """A t statistic: 3 significant figures, at most 2 decimals, signed ("+0.78", "−2.13")."""
    return words.ratio(t, signed=True)


def t_and_p(t: float | None, p: float | None) -> str:
    """ "t = +0.78, two-sided p = 0.455": the statistic and its two-sided p-value."""
    return f"t = {t_words(t)}, two-sided {words.p_text(p)}"


def seed_count_words(*models: FoldRuns) -> str:
    """When a model's folds hold different numbers of seeds: that the seeds per fold counted
    here (noise.seed.n) are the fewest in any fold, while every seed is analysed; else ""."""
    varied = []
    for fr in models:
        per_fold = [len(nets) for nets in fr.nets.values() if nets]
        if per_fold and min(per_fold) != max(per_fold):
            varied.append(
                f"{fr.name} has {words.count(min(per_fold))} to {words.count(max(per_fold))} "
                f"per fold, {words.count_noun(len(fr.seeds()), 'seed')} in all"
            )
    if not varied:
        return ""
    return (
        " Seeds per fold count the fewest in any fold: "
        f"{'; '.join(varied)}; every seed is analysed."
    )


def cv_digits(cv: CrossValidation) -> int:
    """The decimals of the cv gap wherever it is printed: its corrected interval's."""
    return words.gap_decimals(cv.gap, cv.corrected.low, cv.corrected.high)


def _ratio_words(cv: CrossValidation, folds_path: str | None) -> str:
    """Where the test-over-train ratio of the corrected variance comes from, in words."""
    r = words.sig(cast(float, cv.test_train_ratio), 3)  # a corrected interval has its ratio
    if cv.ratio_from == "fold count":
        return (
            f"n_test/n_train = 1/(K − 1) = {r} from the fold count: there is no split/folds.csv, "
            "so equal folds are assumed"
        )
    logged = ", training rows as logged in train_rows" if cv.train_rows_logged else ""
    return f"n_test/n_train = {r}, the mean over the folds of {folds_path or 'split/folds.csv'}{logged}"


def cv_line(project: Project, cv: CrossValidation) -> str:
    """The resampling line: both intervals and the three probabilities."""
    cfg = project.config
    unit = cfg.metric_words
    head = cv_head(cv)
    what = words.count_noun(cv.J, "fold gap")
    if not cv.complete:
        what += f" ({words.count(cv.repeats)} repeats of up to {words.count(cv.folds)} folds)"
    if cv.reason:
        mean = (
            f"the mean fold gap is {words.gap(cv.gap)} {unit} over {what}, but "
            if cv.gap is not None
            else ""
        )
        return f"{head} {mean}no interval: {cv.reason}."
    d = cv_digits(cv)
    c, n = cv.corrected, cv.naive
    if c.low is None:
        return (
            f"{head} the mean fold gap is {words.with_sign(cv.gap, d)} {unit} over {what}, but "
            "there is no interval: the fold gaps have no spread."
        )
    folds_path = project.folds.path if project.folds is not None else None
    s = (
        f"{head} the mean fold gap is {words.with_sign(cv.gap, d)} {unit} over {what} (sd "
        f"{words.spread(cv.sd)}); the corrected resampled t gives the "
        f"{words.confidence(cv.confidence)} interval "
        f"{words.interval(c.low, c.high, digits=d)} ({t_and_p(cv.t, c.p)}; variance "
        f"(1/{words.count(cv.J)} + {words.sig(cv.test_train_ratio, 3)}) × sd², df "
        f"{words.count(c.df)}; {_ratio_words(cv, folds_path)}); the naive paired t over "
        f"folds, {words.interval(n.low, n.high, digits=d)} "
        f"({t_and_p(t_statistic(cv.gap, n.se), n.p)}), is "
        "too narrow because the folds' training sets overlap."
    )
    b = cv.bayes
    if b is not None:
        s += (
            f" Bayesian correlated t with ±{words.given(b.rope)} as the region of practical "
            f"equivalence: {words.posterior_text('worse', b.p_worse)}, "
            f"{words.posterior_text('equivalent', b.p_equivalent)}, "
            f"{words.posterior_text('better', b.p_better)}"
            + (
                f"; the verdict follows the interval, which does not lie inside "
                f"±{words.given(b.rope)}, so even a likely tie is not shown as one."
                if c.low is not None
                and c.high is not None
                and b.p_equivalent >= 0.5
                and not (-b.rope < c.low and c.high < b.rope)
                else "."
            )
        )
    elif cfg.min_useful_effect is None:
        s += " No min_useful_effect is fixed, so the Bayesian correlated t has no region of practical equivalence."
    if cv.J < FEW_FOLD_GAPS:
        s += (
            f" Only {words.count_noun(cv.J, 'fold gap')}: their sd, and so both intervals, "
            f"rest on few values ({words.count(FEW_FOLD_GAPS)} or more advised)."
        )
    return s


def planning_note(project: Project, cv: CrossValidation) -> str | None:
    """More repeats shrink only the 1/J part: when they cannot settle it, and what would."""
    p = cv.planning
    if p.floor_half_width is None:
        return None
    d = cv_digits(cv)
    floor = words.fixed(p.floor_half_width, d)
    now = words.fixed(cast(float, p.half_width), d)  # a planned interval has its half-width
    base = (
        f"More repeats shrink only the 1/J part of the corrected variance; the n_test/n_train "
        f"part stays, so no number of repeats takes the half-width (now {now}) below {floor}."
    )
    m = project.config.min_useful_effect
    if p.settled:
        s = f"{base} The corrected interval already excludes zero."
    elif p.repeats_cannot:
        s = (
            f"{base} The mean fold gap {words.with_sign(cv.gap, d)} lies inside that floor, so "
            "more repeats cannot settle it; what would: more data (a larger sample narrows the "
            "fold gaps themselves), or a held-out test part large enough to decide on its own, "
            "scored once."
        )
    elif p.repeats_needed is not None:
        s = (
            f"{base} With {words.count(p.repeats_needed)} repeats of "
            f"{words.count(cv.folds)} folds the interval would exclude zero if the gap stays "
            f"at {words.with_sign(cv.gap, d)} and the fold-gap sd stays as it is (a planning "
            "estimate)."
        )
    else:
        s = f"{base} {p.reason}."
    if p.floor_exceeds_useful and m is not None and undecided(cv, m):
        s += (
            f" The floor is at least the useful effect {words.given(m)}, so the interval can "
            f"never lie inside ±{words.given(m)}: cross-validation on these rows cannot show a "
            "tie, however often it is repeated."
        )
    return s


def undecided(cv: CrossValidation, m: float) -> bool:
    """The corrected interval neither shows nor rules out a useful gain: it holds ``m``."""
    low, high = cv.corrected.low, cv.corrected.high
    return low is not None and high is not None and low < m <= high
