"""The decision, the claim rewritten to the strongest sentence the shown rungs support, and reconsider-when."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.checks.ladder import rung_reason
from reportgen.checks.model_vs_baseline.rungs import slice_name, slice_numbers, worse_slice_words
from reportgen.checks.noise_lines import blocks_noun, repeat_words
from reportgen.checks.orientation import Side, part_at, shown_side, zero_words
from reportgen.checks.relevance import ruled_out_words
from reportgen.checks.types import Interval, Rung
from reportgen.model.block import BlockNoise
from reportgen.model.data import Data
from reportgen.model.enums import Finding, RungStatus, Verdict
from reportgen.model.ladder import Decision
from reportgen.model.relevance import Relevance, Slice
from reportgen.model.seed import SeedNoise
from reportgen.project import Project
from reportgen.project.config import Config
from reportgen.words import (
    blocks_phrase,
    confidence,
    cost,
    count,
    count_noun,
    gap,
    given,
    noun,
    ratio,
    singular_noun,
)
from reportgen.words.i18n import _, p_
from reportgen.words.rungs import status_word


class ItemId:
    """The ids of the reconsider-when items: a design replaces an item by its id."""

    CORRECT = "correct"
    FAIR = "fair"
    SEEDS = "seeds"
    NO_INTERVAL = "no-interval"
    PLAN = "plan"
    EXCLUDES_ZERO = "excludes-zero"
    USEFUL_EFFECT = "useful-gain"
    REACHES_USEFUL = "reaches-useful"
    SLICE = "slice"
    LIVE_GAP = "live-gap"
    GIVEN = "given"


@dataclass(frozen=True)
class ReconsiderItem:
    """One reconsider-when item: its id and the sentence report.json shows."""

    id: str
    text: str


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


def _no_interval_item(project: Project, block: BlockNoise | None) -> str:
    """What would give the test gap an interval: predictions, more blocks, or what is missing."""
    if block is None:
        return _("per-row test predictions for both models give an evaluation interval (now none)")
    if block.blocks < 2:
        word = project.config.block or "block"
        return _(
            "the test rows fall in at least 2 {blocks}, so that the test gap gets an evaluation "
            "interval (now {now})",
            blocks=blocks_noun(word),
            now=blocks_phrase(block.blocks, project.config.block),
        )
    return _(
        "the test gap gets an evaluation interval (now none: {why})",
        why=block.reason or _("no interval"),
    )


def _live_gap(cfg: Config) -> str:
    """The gap a deployed model is watched on: per period with a period block column, on a new
    group with a group one, on new rows without one (no period was measured)."""
    if not cfg.block:
        return _("the gap on new rows")
    if cfg.block_kind == "period":
        return _("the live {block} gap", block=noun(cfg.block))
    return _("the gap on a new {block}", block=singular_noun(cfg.block))


def reconsider(
    project: Project,
    ladder: list[Rung],
    seed: SeedNoise,
    iv: Interval | None,
    slices: list[Slice] | None,
    verdict: Verdict,
    plan: str | None,
    block: BlockNoise | None = None,
) -> list[str]:
    """Concrete evidence that would reopen the decision, with today's values, plus [reconsider] when.
    ``block``: noise.block, whose reason names why the test gap has no interval."""
    items = reconsider_items(project, ladder, seed, iv, slices, verdict, plan, block)
    return [i.text for i in items]


def reconsider_items(
    project: Project,
    ladder: list[Rung],
    seed: SeedNoise,
    iv: Interval | None,
    slices: list[Slice] | None,
    verdict: Verdict,
    plan: str | None,
    block: BlockNoise | None = None,
) -> list[ReconsiderItem]:
    """The items of ``reconsider`` with their ids, so that a design replaces an item by its id."""
    cfg = project.config
    items = [
        *_rung_items(ladder),
        *_seed_items(project, seed),
        *_interval_items(project, iv, plan, block),
        *_slice_items(project, slices),
    ]
    m = cfg.min_useful_effect
    if verdict == Verdict.ADOPT and m is not None:
        items.append(
            ReconsiderItem(
                ItemId.LIVE_GAP,
                _(
                    "{gap} falls below the useful effect {effect}",
                    gap=_live_gap(cfg),
                    effect=given(m, cfg.metric_unit),
                ),
            )
        )
    items += [ReconsiderItem(ItemId.GIVEN, text) for text in cfg.reconsider_when]
    return items


def _rung_items(ladder: list[Rung]) -> list[ReconsiderItem]:
    """Rungs 1 and 2 shown, when they are not."""
    items = []
    if not ladder[0].shown:
        items.append(
            ReconsiderItem(
                ItemId.CORRECT,
                _(
                    "rung 1 (correct) is shown (now {status}: {missing})",
                    status=status_word(ladder[0].status),
                    missing=ladder[0].missing,
                ),
            )
        )
    if not ladder[1].shown:
        items.append(
            ReconsiderItem(
                ItemId.FAIR,
                _(
                    "the comparison is shown fair (now {status}: {missing})",
                    status=status_word(ladder[1].status),
                    missing=ladder[1].missing,
                ),
            )
        )
    return items


def _seed_items(project: Project, seed: SeedNoise) -> list[ReconsiderItem]:
    """The seed line's item: measured noise, a positive gap, or the gap over the seed bar."""
    cfg = project.config
    n_c, n_b = seed.n.candidate, seed.n.baseline
    want_n = max(5, n_c, n_b)
    # a cv design counts seeds per fold: noise.seed.n is the fewest in any fold
    folds = seed.within_folds
    if seed.gap_in_sd is None and not seed.trivial:
        fields = dict(
            noise=repeat_words(cfg).noise,
            want=count(want_n),
            n_c=count(n_c),
            candidate=cfg.candidate,
            n_b=count(n_b),
            baseline=cfg.baseline,
        )
        text = (
            _(
                "{noise} is measured with at least {want} seeds per fold "
                "(now {n_c} {candidate}, {n_b} {baseline})",
                **fields,
            )
            if folds
            else _(
                "{noise} is measured with at least {want} seeds per model "
                "(now {n_c} {candidate}, {n_b} {baseline})",
                **fields,
            )
        )
        if min(n_c, n_b) < 2:
            # one run a side can never reach rung 3: a second one at least shows determinism
            text += (
                _(
                    ": a second seed per fold also shows whether a model trains "
                    "deterministically (two equal runs: zero seed spread, and with both models "
                    "deterministic the rule is met when the gap is positive)"
                )
                if folds
                else _(
                    ": a second seed per model also shows whether a model trains "
                    "deterministically (two equal runs: zero seed spread, and with both models "
                    "deterministic the rule is met when the gap is positive)"
                )
            )
    elif seed.trivial and not seed.passes:
        text = _(
            "the {part} gap becomes positive (now {gap}; both models train deterministically)",
            part=part_at(seed.part),
            gap=gap(seed.validation_gap),
        )
    elif not seed.passes:
        fields = dict(
            part=part_at(seed.part),
            bar=given(cfg.seed_sd_multiple),
            want=count(want_n),
            sd=ratio(seed.gap_in_sd, signed=True),
            n_c=count(n_c),
            n_b=count(n_b),
            candidate=cfg.candidate,
            baseline=cfg.baseline,
        )
        text = (
            _(
                "the {part} gap exceeds {bar} seed sd with {want} or more seeds of each model "
                "per fold (now {sd} sd, with {n_c} of {candidate} and {n_b} of {baseline} in "
                "the fold with the fewest)",
                **fields,
            )
            if folds
            else _(
                "the {part} gap exceeds {bar} seed sd with {want} or more seeds of each model "
                "(now {sd} sd, with {n_c} of {candidate} and {n_b} of {baseline})",
                **fields,
            )
        )
    else:
        return []
    return [ReconsiderItem(ItemId.SEEDS, text)]


def _interval_items(
    project: Project, iv: Interval | None, plan: str | None, block: BlockNoise | None
) -> list[ReconsiderItem]:
    """The evaluation interval's items: one to be had, the plan, zero excluded, the useful effect."""
    cfg = project.config
    items = []
    if iv is None:
        items.append(ReconsiderItem(ItemId.NO_INTERVAL, _no_interval_item(project, block)))
    elif iv.low <= 0:
        if plan:
            items.append(ReconsiderItem(ItemId.PLAN, plan))
        items.append(
            ReconsiderItem(
                ItemId.EXCLUDES_ZERO,
                _(
                    "the {part} interval lies above zero (now {ends} over {what})",
                    part=part_at(_part(iv)),
                    ends=iv.ends,
                    what=iv.what,
                ),
            )
        )
    m = cfg.min_useful_effect
    if m is None:
        items.append(
            ReconsiderItem(
                ItemId.USEFUL_EFFECT,
                _("a min_useful_effect is fixed in evreport.toml before new runs (now none)"),
            )
        )
    elif iv is not None and iv.low < m:
        items.append(
            ReconsiderItem(
                ItemId.REACHES_USEFUL,
                _(
                    "the interval's lower end reaches the useful effect {effect} (now {low})",
                    effect=given(m, cfg.metric_unit),
                    low=iv.signed(iv.low),
                ),
            )
        )
    return items


def _slice_items(project: Project, slices: list[Slice] | None) -> list[ReconsiderItem]:
    """Each required slice not shown no worse: an interval to be had, or its worse end above the bar."""
    cfg = project.config
    items = []
    for s in slices or []:
        if s.required and not s.not_worse:
            bar = given(-s.margin) if s.margin is not None else _("a fixed not_worse_margin")
            if s.low is None:
                text = _(
                    "slice {slice} has enough test rows and blocks for an interval (now {rows} in "
                    "{blocks}, no interval), and its worse end stays above {bar}",
                    slice=slice_name(s.slice),
                    rows=count_noun(s.rows, "row"),
                    blocks=count_noun(s.blocks, "block"),
                    bar=bar,
                )
            else:
                g, ends, low = slice_numbers(s)
                text = _(
                    "{candidate} is shown no worse on slice {slice}: the interval's worse end "
                    "stays above {bar} (now {low}: gap {gap}, interval {ends}, {rows})",
                    candidate=cfg.candidate,
                    slice=slice_name(s.slice),
                    bar=bar,
                    low=low,
                    gap=g,
                    ends=ends,
                    rows=count_noun(s.rows, "row"),
                )
            items.append(ReconsiderItem(ItemId.SLICE, text))
    return items
