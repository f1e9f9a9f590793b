"""The decision, and the claim rewritten to the strongest sentence the shown rungs support
(reconsider-when is model_vs_baseline.reconsider)."""

from __future__ import annotations

from reportgen.checks.ladder import rung_reason
from reportgen.checks.model_vs_baseline.rungs import slice_name, worse_slice_words
from reportgen.checks.noise_lines import blocks_noun, repeat_words
from reportgen.checks.orientation import Side, part_at, shown_side, zero_words
from reportgen.checks.relevance import ruled_out_words
from reportgen.checks.types import Interval, Rung
from reportgen.model.data import Data
from reportgen.model.enums import Finding, RungStatus, Verdict
from reportgen.model.ladder import Decision
from reportgen.model.relevance import Relevance, Slice
from reportgen.model.seed import SeedNoise
from reportgen.project import Project
from reportgen.project.config import Config
from reportgen.words import (
    confidence,
    cost,
    count,
    count_noun,
    gap,
    given,
    ratio,
)
from reportgen.words.i18n import _, p_

#: noise.seed.part of a cv design
CV_PART = "cross-validation"


def _part(iv: Interval | None) -> str:
    """Which part the evaluation interval is on: test (blocks), or the paired seeds' part."""
    return (iv.part if iv else None) or "test"


def _seed_gap_part(seed: SeedNoise) -> str:
    """What the seed line's gap is measured on when there is no interval: the mean fold gap of a
    cv design, else the validation part."""
    return CV_PART if seed.part == CV_PART else "validation"


def equivalent(rel: Relevance | None) -> bool:
    """A tie is shown only when the interval lies inside plus or minus min_useful_effect."""
    return rel is not None and rel.finding == Finding.EQUIVALENT


def _not_better_reason(project: Project, seed: SeedNoise, iv: Interval | None) -> str:
    """Why the candidate is not shown to be better, in words that claim no more than was shown."""
    cfg = project.config
    rule_ok = seed.passes
    excl = iv is not None and iv.low > 0
    if iv is None:
        return _("not shown to be better: there is no evaluation interval")
    if iv.high < 0:
        return _(
            "not shown to be better: the {part} interval {ends} lies below zero",
            part=part_at(_part(iv)),
            ends=iv.ends,
        )
    if excl and not rule_ok and seed.trivial:
        return _(
            "the interval {ends} excludes zero, but validation disagrees: both models train "
            "deterministically and the {part} gap {gap} is not positive",
            ends=iv.ends,
            part=part_at(seed.part),
            gap=gap(seed.validation_gap),
        )
    if excl and not rule_ok:
        if seed.gap_in_sd is not None:
            return _(
                "the interval {ends} excludes zero, but the seed rule fails: the gap is {sd} "
                "seed sd, not more than {bar}",
                ends=iv.ends,
                sd=ratio(seed.gap_in_sd, signed=True),
                bar=given(cfg.seed_sd_multiple),
            )
        return _(
            "the interval {ends} excludes zero, but the seed rule fails: {why}",
            ends=iv.ends,
            why=seed.reason or unmeasured(cfg),
        )
    if not excl:
        return _(
            "not shown to be better: the {part} interval {ends} over {what} includes zero",
            part=part_at(_part(iv)),
            ends=iv.ends,
            what=iv.what,
        )
    return _("not shown to be better")


def unmeasured(cfg: Config) -> str:
    """ "retraining noise is unmeasured" (or the sampling noise of repeated runs)."""
    return _("{noise} is unmeasured", noise=repeat_words(cfg).noise)


def _seed_beyond(project: Project, seed: SeedNoise) -> str:
    """The seed line's half of "the baseline is better": the gap beyond the bar on its side."""
    if seed.trivial:
        return _(
            "both models train deterministically, with a {part} gap of {gap}",
            part=part_at(seed.part),
            gap=gap(seed.validation_gap),
        )
    return _(
        "the {part} gap is {sd} seed sd, beyond {bar} on the baseline's side",
        part=part_at(seed.part),
        sd=ratio(seed.gap_in_sd, signed=True),
        bar=given(project.config.seed_sd_multiple),
    )


def decide(
    project: Project,
    ladder: list[Rung],
    iv: Interval | None,
    sup: int,
    seed: SeedNoise,
    rel: Relevance | None,
) -> Decision:
    """Verdict and recommendation for model-vs-baseline. Without a shown gain the simpler baseline stays;
    the word "tie" is used only when equivalence is shown."""
    cfg = project.config
    st = {r.name: r.status for r in ladder}
    reasons = []
    if (
        iv is not None
        and shown_side(seed, iv) == Side.BASELINE
        and st["correct"] == RungStatus.SHOWN
        and st["fair"] == RungStatus.SHOWN
    ):
        reasons.append(
            _(
                "the baseline is better: the {part} interval {ends} lies below zero and {seed}",
                part=part_at(_part(iv)),
                ends=iv.ends,
                seed=_seed_beyond(project, seed),
            )
        )
        return Decision(Verdict.KEEP_BASELINE, cfg.baseline, tuple(reasons))
    if sup >= 4:
        reasons.append(_("correct, fair, larger than noise and relevant are all shown"))
        if st["bounded"] != RungStatus.SHOWN:
            reasons.append(
                _(
                    "adopt within the measured bounds only: {missing}",
                    missing=ladder[4].missing or "",
                )
            )
        return Decision(Verdict.ADOPT, cfg.candidate, tuple(reasons))
    reasons += [rung_reason(r) for r in ladder[:4] if not r.shown]
    seed_measured = seed.gap_in_sd is not None or seed.trivial
    measured = iv is not None and seed_measured
    if measured and st["larger than noise"] != RungStatus.SHOWN:
        verdict = Verdict.KEEP_BASELINE
        if equivalent(rel):
            reasons.append(
                _(
                    "a tie is a finding: the interval lies inside ±{effect}, so keep the simpler "
                    "baseline ({baseline})",
                    effect=given(cfg.min_useful_effect, cfg.metric_unit),
                    baseline=cfg.baseline,
                )
            )
        else:
            reasons.append(
                _(
                    "{reason}; keep the simpler baseline ({baseline})",
                    reason=_not_better_reason(project, seed, iv),
                    baseline=cfg.baseline,
                )
            )
    elif not measured or st["correct"] != RungStatus.SHOWN or st["fair"] != RungStatus.SHOWN:
        verdict = Verdict.INCONCLUSIVE
        reasons.append(
            _(
                "the evidence is incomplete, so the simpler baseline ({baseline}) stays",
                baseline=cfg.baseline,
            )
        )
    else:
        verdict = Verdict.KEEP_BASELINE
        reasons.append(
            _(
                "the gain is real but not shown to be worth the change: keep {baseline}",
                baseline=cfg.baseline,
            )
        )
    return Decision(verdict, cfg.baseline, tuple(reasons))


def rewrite_claim(
    project: Project,
    ladder: list[Rung],
    sup: int,
    iv: Interval | None,
    seed: SeedNoise,
    rel: Relevance | None,
    slices: list[Slice] | None,
    data: Data,
) -> str:
    """One sentence with numbers, never above the supported rung; a slice shown worse is named
    in every branch that speaks of the gap, listed in not_worse_on or not."""
    claim = _claim(project, ladder, sup, iv, seed, rel, slices, data)
    unnamed = [s for s in slices or [] if slice_name(s.slice) not in claim]
    worse = worse_slice_words(project.config.candidate, unnamed) if sup >= 2 else None
    return (
        claim
        if worse is None
        else _("{claim}; but {worse}.", claim=claim.removesuffix("."), worse=worse)
    )


def _claim(
    project: Project,
    ladder: list[Rung],
    sup: int,
    iv: Interval | None,
    seed: SeedNoise,
    rel: Relevance | None,
    slices: list[Slice] | None,
    data: Data,
) -> str:
    """The rewritten claim before the slices shown worse are named."""
    cfg = project.config
    c, b, metric = cfg.candidate, cfg.baseline, cfg.metric_words
    conf = confidence(cfg.confidence)
    measured = (
        _(
            "a {part} {metric} gap of {gap} ({conf} interval {ends}, {what})",
            part=part_at(_part(iv)),
            metric=metric,
            gap=iv.signed(iv.gap),
            conf=conf,
            ends=iv.ends,
            what=iv.what,
        )
        if iv
        else _(
            "a {part} {metric} gap of {gap}",
            part=part_at(_seed_gap_part(seed)),
            metric=metric,
            gap=gap(seed.validation_gap),
        )
        if seed.validation_gap is not None
        else _("no {metric} gap (no evaluation interval and no validation gap)", metric=metric)
    )
    if sup == 0:
        return _(
            "Nothing is established yet: {missing}; until then {measured} between {candidate} "
            "and {baseline} is a measurement, not evidence that either is better.",
            missing=ladder[0].missing,
            measured=measured,
            candidate=c,
            baseline=b,
        )
    if sup == 1:
        return _(
            "{candidate}'s code passes its sanity checks, but the comparison with {baseline} is "
            "not shown to be fair ({missing}), so {measured} does not say which model is better.",
            candidate=c,
            baseline=b,
            missing=ladder[1].missing,
            measured=measured,
        )
    if iv is not None and shown_side(seed, iv) == Side.BASELINE:
        return _(
            "Under a fair comparison, {baseline} beats {candidate} on {metric}: the {part} gap "
            "is {gap}{unit} (negative favours {baseline}; {conf} interval {ends}, {what}), "
            "and {seed}.",
            baseline=b,
            candidate=c,
            metric=metric,
            part=part_at(_part(iv)),
            gap=iv.signed(iv.gap),
            unit=cfg.unit_after,
            conf=conf,
            ends=iv.ends,
            what=iv.what,
            seed=_seed_beyond(project, seed),
        )
    if sup == 2:
        sd = seed.gap_in_sd
        seed_txt = (
            _(
                "the {part} gap is {sd} seed sd, where the seed rule asks for more than {bar}",
                part=part_at(seed.part),
                sd=ratio(sd, signed=True),
                bar=given(cfg.seed_sd_multiple),
            )
            if sd is not None
            else (
                _("both models train deterministically (zero seed spread)")
                if seed.trivial
                else unmeasured(cfg)
            )
        )
        test_txt = (
            _(
                "the {part} gap of {gap}{unit} has a {conf} interval of {ends} over {what}",
                part=part_at(_part(iv)),
                gap=iv.signed(iv.gap),
                unit=cfg.unit_after,
                conf=conf,
                ends=iv.ends,
                what=iv.what,
            )
            if iv
            else _(
                "there is no {part} interval",
                part=part_at("cross-validation" if seed.part == CV_PART else "test"),
            )
        )
        if equivalent(rel):
            return _(
                "Under a fair comparison, {candidate} and {baseline} are tied on {metric}: "
                "{seed}, and {test}, inside ±{effect}.",
                candidate=c,
                baseline=b,
                metric=metric,
                seed=seed_txt,
                test=test_txt,
                effect=given(cfg.min_useful_effect, cfg.metric_unit),
            )
        if iv is not None and iv.low > 0 and not seed.passes:
            return _(
                "Under a fair comparison, the {part} interval of {candidate}'s {metric} gap over "
                "{baseline} lies above zero, but the gap is not shown to be larger than "
                "{noise}: {seed}, and {test}.",
                part=part_at(_part(iv)),
                candidate=c,
                metric=metric,
                baseline=b,
                noise=repeat_words(cfg).noise,
                seed=seed_txt,
                test=test_txt,
            )
        ruled_out = ruled_out_words(rel)
        below = (
            _(
                "; the interval {lies}, but the seed rule does not show {baseline} better either",
                lies=zero_words(iv),
                baseline=b,
            )
            if iv is not None and iv.below_zero
            else ""
        )
        return (
            _(
                "Under a fair comparison, {candidate} is not shown to be better than {baseline} "
                "on {metric}: {seed}, and {test}",
                candidate=c,
                baseline=b,
                metric=metric,
                seed=seed_txt,
                test=test_txt,
            )
            + below
            + (f"; {ruled_out}" if ruled_out else "")
            + "."
        )
    noise = (
        _("{sd} seed sd", sd=ratio(seed.gap_in_sd, signed=True))
        if seed.gap_in_sd is not None
        else _("both models train deterministically: zero seed spread")
    )
    if iv is None:  # rung 3 is shown only on an evaluation interval
        raise ValueError("internal error: rung 3 is credited without an evaluation interval")
    base = _(
        "{candidate} beats {baseline} by {size} {part} {metric} ({conf} interval {ends}, "
        "{what}), more than {noise} ({sd})",
        candidate=c,
        baseline=b,
        size=iv.size(iv.gap),
        part=part_at(_part(iv)),
        metric=metric,
        conf=conf,
        ends=iv.ends,
        what=iv.what,
        noise=repeat_words(cfg).noise,
        sd=noise,
    )
    if sup == 3:
        return base + _(
            ", but whether that is worth acting on is not shown ({missing}).",
            missing=ladder[3].missing,
        )
    base += _(
        ", at least the useful effect of {effect}",
        effect=given(cfg.min_useful_effect, cfg.metric_unit),
    )
    if rel is not None and rel.cost_per_period is not None:
        base += _(
            " (about {cost} {unit} per {period})",
            cost=cost(rel.cost_per_period),
            unit=cfg.unit,
            period=cfg.period or _("period"),
        )
    if sup == 4:
        return base + _(
            "; where it stops holding is not shown ({missing}).", missing=ladder[4].missing
        )
    where = []
    if slices:
        with_interval = [s for s in slices if s.low is not None and not s.worse]
        unmeasured_n = len([s for s in slices if s.low is None])
        if with_interval:
            where.append(
                _(
                    "on each of the {slices} with an interval",
                    slices=count_noun(len(with_interval), "slice"),
                )
                + (_(" where it is not worse") if any(s.worse for s in slices) else "")
                + (_(" ({n} too small to measure)", n=count(unmeasured_n)) if unmeasured_n else "")
            )
    if data.blocks and cfg.block:
        where.append(
            _(
                "over {blocks} {first} to {last}",
                blocks=blocks_noun(cfg.block),
                first=data.first_block,
                last=data.last_block,
            )
        )
    return base + (", " + p_("joins two phrases", " and ").join(where) if where else "") + "."
