"""The noise lines of a cv design: the seed line (retraining, within folds), the resampling line
(cross-validation), and the block line of a held-out test part when there is one; the planning
note. Every number through reportgen.words."""

from __future__ import annotations

from typing import cast

from reportgen import words
from reportgen.checks.cv.noise import t_statistic
from reportgen.checks.cv.select import FoldRuns
from reportgen.checks.noise_lines import left_out_words, seed_rule_words
from reportgen.model.cv import CrossValidation
from reportgen.model.seed import SeedNoise
from reportgen.project import Project
from reportgen.stats.cv import FEW_FOLD_GAPS
from reportgen.words.i18n import _, p_


def seed_head() -> str:
    """The seed line's label within folds: "Seed spread (retraining):"."""
    return _("Seed spread (retraining):")


def cv_head(cv: CrossValidation) -> str:
    """ "Resampling (cross-validation, 10 x 10 folds: which rows trained and tested each model):" """
    return _(
        "Resampling (cross-validation, {repeats} x {folds} folds: which rows trained and tested "
        "each model):",
        repeats=words.count(cv.repeats),
        folds=words.count(cv.folds),
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
    head = seed_head()
    gap_words = (
        _(
            "the cross-validation gap is {gap} {unit}",
            gap=words.with_sign(g, cv_digits(cv)),
            unit=unit,
        )
        if g is not None
        else _("there is no cross-validation gap")
    )
    if seed.trivial:
        fields = dict(head=head, gap=gap_words, n_c=words.count(n_c), n_b=words.count(n_b))
        s = (
            _(
                "{head} {gap}; both models have zero seed spread within every fold ({n_c} and "
                "{n_b} seeds per fold: deterministic training), so the seed rule is trivially "
                "met and the resampling line carries the decision.",
                **fields,
            )
            if seed.passes
            else _(
                "{head} {gap}; both models have zero seed spread within every fold ({n_c} and "
                "{n_b} seeds per fold: deterministic training), so the seed rule is trivially "
                "failed (the gap is not positive) and the resampling line carries the decision.",
                **fields,
            )
        )
    elif seed.gap_in_sd is None:
        s = _(
            "{head} not measured within folds: {why} ({seeds_c} and {seeds_b} per fold); {gap}.",
            head=head,
            why=seed.reason or _("fewer than 2 seeds"),
            seeds_c=words.count_noun(n_c, "seed", adjective=cand.name),
            seeds_b=words.count_noun(n_b, "seed", adjective=base.name),
            gap=gap_words,
        )
    else:
        s = seed_rule_words(
            cfg,
            seed,
            (cand.name, base.name),
            f"{head} {gap_words}",
            lambda seeds, larger: _(
                ": the mean over {folds} of each fold's seed variance, {seeds} per fold{larger}",
                folds=folds,
                seeds=seeds,
                larger=larger,
            ),
            len(seed.values.candidate),
            _(" over the folds"),
        )
    if seed.note:
        s += _(" Note: {note}.", note=seed.note)
    s += _(" The fold gaps compare seed-averaged networks.")
    s += seed_count_words(cand, base)
    if seed.left_out:
        s += left_out_words(len(seed.left_out))
    return s


def t_words(t: float | None) -> str:
    """A t statistic: 3 significant figures, at most 2 decimals, signed ("+0.78", "−2.13")."""
    return words.ratio(t, signed=True)


def t_and_p(t: float | None, p: float | None) -> str:
    """ "t = +0.78, two-sided p = 0.455": the statistic and its two-sided p-value."""
    return _("t = {t}, two-sided {p}", t=t_words(t), p=words.p_text(p))


def seed_count_words(*models: FoldRuns) -> str:
    """When a model's folds hold different numbers of seeds: that the seeds per fold counted
    here (noise.seed.n) are the fewest in any fold, while every seed is analysed; else ""."""
    varied = []
    for fr in models:
        per_fold = [len(nets) for nets in fr.nets.values() if nets]
        if per_fold and min(per_fold) != max(per_fold):
            varied.append(
                _(
                    "{model} has {low} to {high} per fold, {seeds} in all",
                    model=fr.name,
                    low=words.count(min(per_fold)),
                    high=words.count(max(per_fold)),
                    seeds=words.count_noun(len(fr.seeds()), "seed"),
                )
            )
    if not varied:
        return ""
    return _(
        " Seeds per fold count the fewest in any fold: {models}; every seed is analysed.",
        models="; ".join(varied),
    )


def cv_digits(cv: CrossValidation) -> int:
    """The decimals of the cv gap wherever it is printed: its corrected interval's."""
    return words.gap_decimals(cv.gap, cv.corrected.low, cv.corrected.high)


def _ratio_words(cv: CrossValidation, folds_path: str | None) -> str:
    """Where the test-over-train ratio of the corrected variance comes from, in words."""
    r = words.sig(cast(float, cv.test_train_ratio), 3)  # a corrected interval has its ratio
    if cv.ratio_from == "fold count":
        return _(
            "n_test/n_train = 1/(K − 1) = {r} from the fold count: there is no split/folds.csv, "
            "so equal folds are assumed",
            r=r,
        )
    fields = dict(r=r, path=folds_path or "split/folds.csv")
    if cv.train_rows_logged:
        return _(
            "n_test/n_train = {r}, the mean over the folds of {path}, training rows as logged "
            "in train_rows",
            **fields,
        )
    return _("n_test/n_train = {r}, the mean over the folds of {path}", **fields)


def cv_line(project: Project, cv: CrossValidation) -> str:
    """The resampling line: both intervals and the three probabilities."""
    cfg = project.config
    unit = cfg.metric_words
    head = cv_head(cv)
    what = words.count_noun(cv.J, "fold gap")
    if not cv.complete:
        what += _(
            " ({repeats} repeats of up to {folds} folds)",
            repeats=words.count(cv.repeats),
            folds=words.count(cv.folds),
        )
    if cv.reason:
        if cv.gap is not None:
            return _(
                "{head} the mean fold gap is {gap} {unit} over {what}, but no interval: {why}.",
                head=head,
                gap=words.gap(cv.gap),
                unit=unit,
                what=what,
                why=cv.reason,
            )
        return _("{head} no interval: {why}.", head=head, why=cv.reason)
    d = cv_digits(cv)
    c, n = cv.corrected, cv.naive
    if c.low is None:
        return _(
            "{head} the mean fold gap is {gap} {unit} over {what}, but there is no interval: the "
            "fold gaps have no spread.",
            head=head,
            gap=words.with_sign(cv.gap, d),
            unit=unit,
            what=what,
        )
    folds_path = project.folds.path if project.folds is not None else None
    s = _(
        "{head} the mean fold gap is {gap} {unit} over {what} (sd {sd}); the corrected resampled "
        "t gives the {conf} interval {ends} ({t}; variance (1/{J} + {ratio}) × sd², df {df}; "
        "{ratio_words}); the naive paired t over folds, {naive} ({naive_t}), is too narrow "
        "because the folds' training sets overlap.",
        head=head,
        gap=words.with_sign(cv.gap, d),
        unit=unit,
        what=what,
        sd=words.spread(cv.sd),
        conf=words.confidence(cv.confidence),
        ends=words.interval(c.low, c.high, digits=d),
        t=t_and_p(cv.t, c.p),
        J=words.count(cv.J),
        ratio=words.sig(cv.test_train_ratio, 3),
        df=words.count(c.df),
        ratio_words=_ratio_words(cv, folds_path),
        naive=words.interval(n.low, n.high, digits=d),
        naive_t=t_and_p(t_statistic(cv.gap, n.se), n.p),
    )
    b = cv.bayes
    if b is not None:
        # the posteriors' names are said before the sentence: Babel does not extract a
        # message nested in another function's call inside a message's arguments
        worse = p_("a posterior's name: P(worse)", "worse")
        equivalent = p_("a posterior's name: P(equivalent)", "equivalent")
        better = p_("a posterior's name: P(better)", "better")
        s += _(
            " Bayesian correlated t with ±{rope} as the region of practical equivalence: "
            "{worse}, {equivalent}, {better}",
            rope=words.given(b.rope),
            worse=words.posterior_text(worse, b.p_worse),
            equivalent=words.posterior_text(equivalent, b.p_equivalent),
            better=words.posterior_text(better, b.p_better),
        ) + (
            _(
                "; the verdict follows the interval, which does not lie inside ±{rope}, so even "
                "a likely tie is not shown as one.",
                rope=words.given(b.rope),
            )
            if c.low is not None
            and c.high is not None
            and b.p_equivalent >= 0.5
            and not (-b.rope < c.low and c.high < b.rope)
            else "."
        )
    elif cfg.min_useful_effect is None:
        s += _(
            " No min_useful_effect is fixed, so the Bayesian correlated t has no region of "
            "practical equivalence."
        )
    if cv.J < FEW_FOLD_GAPS:
        s += _(
            " Only {gaps}: their sd, and so both intervals, rest on few values ({n} or more "
            "advised).",
            gaps=words.count_noun(cv.J, "fold gap"),
            n=words.count(FEW_FOLD_GAPS),
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
    base = _(
        "More repeats shrink only the 1/J part of the corrected variance; the n_test/n_train "
        "part stays, so no number of repeats takes the half-width (now {now}) below {floor}.",
        now=now,
        floor=floor,
    )
    m = project.config.min_useful_effect
    if p.settled:
        s = base + _(" The corrected interval already excludes zero.")
    elif p.repeats_cannot:
        s = base + _(
            " The mean fold gap {gap} lies inside that floor, so more repeats cannot settle it; "
            "what would: more data (a larger sample narrows the fold gaps themselves), or a "
            "held-out test part large enough to decide on its own, scored once.",
            gap=words.with_sign(cv.gap, d),
        )
    elif p.repeats_needed is not None:
        s = base + _(
            " With {repeats} repeats of {folds} folds the interval would exclude zero if the gap "
            "stays at {gap} and the fold-gap sd stays as it is (a planning estimate).",
            repeats=words.count(p.repeats_needed),
            folds=words.count(cv.folds),
            gap=words.with_sign(cv.gap, d),
        )
    else:
        s = f"{base} {p.reason}."
    if p.floor_exceeds_useful and m is not None and undecided(cv, m):
        s += _(
            " The floor is at least the useful effect {effect}, so the interval can never lie "
            "inside ±{effect}: cross-validation on these rows cannot show a tie, however often "
            "it is repeated.",
            effect=words.given(m),
        )
    return s


def undecided(cv: CrossValidation, m: float) -> bool:
    """The corrected interval neither shows nor rules out a useful gain: it holds ``m``."""
    low, high = cv.corrected.low, cv.corrected.high
    return low is not None and high is not None and low < m <= high
