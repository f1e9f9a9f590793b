"""The decision, the claim rewritten to the strongest sentence the shown rungs support, and reconsider-when."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.checks.model_vs_baseline.rungs import slice_numbers, worse_slice_words
from reportgen.checks.noise_lines import repeat_words
from reportgen.checks.orientation import Side, shown_side, zero_words
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
    plural_noun,
    ratio,
    singular_noun,
)


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
        return "not shown to be better: there is no evaluation interval"
    if iv.high < 0:
        return f"not shown to be better: the {_part(iv)} interval {iv.ends} lies below zero"
    if excl and not rule_ok and seed.trivial:
        return (
            f"the interval {iv.ends} excludes zero, but validation disagrees: "
            f"both models train deterministically and the {seed.part} gap "
            f"{gap(seed.validation_gap)} is not positive"
        )
    if excl and not rule_ok:
        return f"the interval {iv.ends} excludes zero, but the seed rule fails: " + (
            f"the gap is {ratio(seed.gap_in_sd, signed=True)} seed sd, not more than "
            f"{given(cfg.seed_sd_multiple)}"
            if seed.gap_in_sd is not None
            else (seed.reason or f"{repeat_words(cfg).noise} is unmeasured")
        )
    if not excl:
        return (
            f"not shown to be better: the {_part(iv)} interval {iv.ends} over "
            f"{iv.what} includes zero"
        )
    return "not shown to be better"


def _seed_beyond(project: Project, seed: SeedNoise) -> str:
    """The seed line's half of "the baseline is better": the gap beyond the bar on its side."""
    if seed.trivial:
        return f"both models train deterministically, with a {seed.part} gap of {gap(seed.validation_gap)}"
    return (
        f"the {seed.part} gap is {ratio(seed.gap_in_sd, signed=True)} seed sd, beyond "
        f"{given(project.config.seed_sd_multiple)} on the baseline's side"
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
            f"the baseline is better: the {_part(iv)} interval {iv.ends} lies below zero and "
            + _seed_beyond(project, seed)
        )
        return Decision(Verdict.KEEP_BASELINE, cfg.baseline, tuple(reasons))
    if sup >= 4:
        reasons.append("correct, fair, larger than noise and relevant are all shown")
        if st["bounded"] != RungStatus.SHOWN:
            reasons.append("adopt within the measured bounds only: " + (ladder[4].missing or ""))
        return Decision(Verdict.ADOPT, cfg.candidate, tuple(reasons))
    reasons += [r.reason for r in ladder[:4] if not r.shown]
    seed_measured = seed.gap_in_sd is not None or seed.trivial
    measured = iv is not None and seed_measured
    if measured and st["larger than noise"] != RungStatus.SHOWN:
        verdict = Verdict.KEEP_BASELINE
        if equivalent(rel):
            reasons.append(
                f"a tie is a finding: the interval lies inside "
                f"±{given(cfg.min_useful_effect, cfg.metric_unit)}, so keep "
                f"the simpler baseline ({cfg.baseline})"
            )
        else:
            reasons.append(
                _not_better_reason(project, seed, iv)
                + f"; keep the simpler baseline ({cfg.baseline})"
            )
    elif not measured or st["correct"] != RungStatus.SHOWN or st["fair"] != RungStatus.SHOWN:
        verdict = Verdict.INCONCLUSIVE
        reasons.append(
            f"the evidence is incomplete, so the simpler baseline ({cfg.baseline}) stays"
        )
    else:
        verdict = Verdict.KEEP_BASELINE
        reasons.append(
            f"the gain is real but not shown to be worth the change: keep {cfg.baseline}"
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
    unnamed = [s for s in slices or [] if repr(s.slice) not in claim]
    worse = worse_slice_words(project.config.candidate, unnamed) if sup >= 2 else None
    return claim if worse is None else f"{claim.removesuffix('.')}; but {worse}."


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
        f"a {_part(iv)} {metric} gap of {iv.signed(iv.gap)} ({conf} interval {iv.ends}, {iv.what})"
        if iv
        else f"a {_seed_gap_part(seed)} {metric} gap of {gap(seed.validation_gap)}"
        if seed.validation_gap is not None
        else f"no {metric} gap (no evaluation interval and no validation gap)"
    )
    if sup == 0:
        return (
            f"Nothing is established yet: {ladder[0].missing}; until then {measured} between {c} and {b} "
            "is a measurement, not evidence that either is better."
        )
    if sup == 1:
        return (
            f"{c}'s code passes its sanity checks, but the comparison with {b} is not shown to be fair "
            f"({ladder[1].missing}), so {measured} does not say which model is better."
        )
    if iv is not None and shown_side(seed, iv) == Side.BASELINE:
        return (
            f"Under a fair comparison, {b} beats {c} on {metric}: the {_part(iv)} gap is "
            f"{iv.signed(iv.gap)}{cfg.unit_after} (negative favours {b}; {conf} interval "
            f"{iv.ends}, {iv.what}), "
            f"and {_seed_beyond(project, seed)}."
        )
    if sup == 2:
        sd = seed.gap_in_sd
        part = seed.part
        seed_txt = (
            f"the {part} gap is {ratio(sd, signed=True)} seed sd against a bar of "
            f"{given(cfg.seed_sd_multiple)}"
            if sd is not None
            else (
                "both models train deterministically (zero seed spread)"
                if seed.trivial
                else f"{repeat_words(cfg).noise} is unmeasured"
            )
        )
        test_txt = (
            f"the {_part(iv)} gap of {iv.signed(iv.gap)}{cfg.unit_after} has a {conf} interval of "
            f"{iv.ends} over "
            f"{iv.what}"
            if iv
            else f"there is no {'cross-validation' if seed.part == CV_PART else 'test'} interval"
        )
        if equivalent(rel):
            return (
                f"Under a fair comparison, {c} and {b} are tied on {metric}: {seed_txt}, and {test_txt}, "
                f"inside ±{given(cfg.min_useful_effect, cfg.metric_unit)}."
            )
        if iv is not None and iv.low > 0 and not seed.passes:
            return (
                f"Under a fair comparison, the {_part(iv)} interval of {c}'s {metric} gap over {b} lies "
                f"above zero, but the gap is not shown to be larger than {repeat_words(cfg).noise}: "
                f"{seed_txt}, and {test_txt}."
            )
        ruled_out = ruled_out_words(rel)
        below = (
            f"; the interval {zero_words(iv)}, but the seed rule does not show {b} better either"
            if iv is not None and iv.below_zero
            else ""
        )
        return (
            f"Under a fair comparison, {c} is not shown to be better than {b} on {metric}: {seed_txt}, "
            f"and {test_txt}" + below + (f"; {ruled_out}" if ruled_out else "") + "."
        )
    noise = (
        f"{ratio(seed.gap_in_sd, signed=True)} seed sd"
        if seed.gap_in_sd is not None
        else "both models train deterministically: zero seed spread"
    )
    if iv is None:  # rung 3 is shown only on an evaluation interval
        raise ValueError("internal error: rung 3 is credited without an evaluation interval")
    base = (
        f"{c} beats {b} by {iv.size(iv.gap)} {_part(iv)} {metric} ({conf} interval {iv.ends}, "
        f"{iv.what}), more than {repeat_words(cfg).noise} ({noise})"
    )
    if sup == 3:
        return base + f", but whether that is worth acting on is not shown ({ladder[3].missing})."
    base += f", at least the useful effect of {given(cfg.min_useful_effect, cfg.metric_unit)}"
    if rel is not None and rel.cost_per_period is not None:
        base += f" (about {cost(rel.cost_per_period)} {cfg.unit} per {cfg.period or 'period'})"
    if sup == 4:
        return base + f"; where it stops holding is not shown ({ladder[4].missing})."
    where = []
    if slices:
        with_interval = [s for s in slices if s.low is not None and not s.worse]
        unmeasured = len([s for s in slices if s.low is None])
        if with_interval:
            where.append(
                f"on each of the {count_noun(len(with_interval), 'slice')} with an interval"
                + (" where it is not worse" if any(s.worse for s in slices) else "")
                + (f" ({count(unmeasured)} too small to measure)" if unmeasured else "")
            )
    if data.blocks and cfg.block:
        where.append(f"over {plural_noun(cfg.block)} {data.first_block} to {data.last_block}")
    return base + (", " + " and ".join(where) if where else "") + "."


def _no_interval_item(project: Project, block: BlockNoise | None) -> str:
    """What would give the test gap an interval: predictions, more blocks, or what is missing."""
    if block is None:
        return "per-row test predictions for both models give an evaluation interval (now none)"
    if block.blocks < 2:
        word = project.config.block or "block"
        return (
            f"the test rows fall in at least 2 {plural_noun(word)}, so that the test gap gets an "
            f"evaluation interval (now {blocks_phrase(block.blocks, project.config.block)})"
        )
    return f"the test gap gets an evaluation interval (now none: {block.reason or 'no interval'})"


def _live_gap(cfg: Config) -> str:
    """The gap a deployed model is watched on: per period with a period block column, on a new
    group with a group one, on new rows without one (no period was measured)."""
    if not cfg.block:
        return "the gap on new rows"
    if cfg.block_kind == "period":
        return f"the live {noun(cfg.block)} gap"
    return f"the gap on a new {singular_noun(cfg.block)}"


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
                f"{_live_gap(cfg)} falls below the useful effect {given(m, cfg.metric_unit)}",
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
                f"rung 1 (correct) is shown (now {ladder[0].status}: {ladder[0].missing})",
            )
        )
    if not ladder[1].shown:
        items.append(
            ReconsiderItem(
                ItemId.FAIR,
                f"the comparison is shown fair (now {ladder[1].status}: {ladder[1].missing})",
            )
        )
    return items


def _seed_items(project: Project, seed: SeedNoise) -> list[ReconsiderItem]:
    """The seed line's item: measured noise, a positive gap, or the gap over the seed bar."""
    cfg = project.config
    n_c, n_b = seed.n.candidate, seed.n.baseline
    want_n = max(5, n_c, n_b)
    # a cv design counts seeds per fold: noise.seed.n is the fewest in any fold
    per, fewest = (
        (" per fold", " per fold, the fewest in any fold") if seed.within_folds else ("", "")
    )
    if seed.gap_in_sd is None and not seed.trivial:
        each = " per fold" if seed.within_folds else " per model"
        text = (
            f"{repeat_words(cfg).noise} is measured with at least {count(want_n)} seeds{each} "
            f"(now {count(n_c)} {cfg.candidate}, {count(n_b)} {cfg.baseline})"
        )
        if min(n_c, n_b) < 2:
            # one run a side can never reach rung 3: a second one at least shows determinism
            text += (
                f": a second seed{each} also shows whether a model trains deterministically "
                "(two equal runs: zero seed spread, and with both models deterministic the rule "
                "is met when the gap is positive)"
            )
    elif seed.trivial and not seed.passes:
        text = (
            f"the {seed.part} gap becomes positive (now "
            f"{gap(seed.validation_gap)}; both models train deterministically)"
        )
    elif not seed.passes:
        text = (
            f"the {seed.part} gap exceeds {given(cfg.seed_sd_multiple)} seed sd "
            f"over {count(want_n)} or more seeds{per} "
            f"(now {ratio(seed.gap_in_sd, signed=True)} sd over {count(n_c)} and {count(n_b)}"
            f"{fewest})"
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
                f"the {_part(iv)} interval lies above zero (now {iv.ends} over {iv.what})",
            )
        )
    m = cfg.min_useful_effect
    if m is None:
        items.append(
            ReconsiderItem(
                ItemId.USEFUL_EFFECT,
                "a min_useful_effect is fixed in evreport.toml before new runs (now none)",
            )
        )
    elif iv is not None and iv.low < m:
        items.append(
            ReconsiderItem(
                ItemId.REACHES_USEFUL,
                f"the interval's lower end reaches the useful effect {given(m, cfg.metric_unit)} "
                f"(now {iv.signed(iv.low)})",
            )
        )
    return items


def _slice_items(project: Project, slices: list[Slice] | None) -> list[ReconsiderItem]:
    """Each required slice not shown no worse: an interval to be had, or its worse end above the bar."""
    cfg = project.config
    items = []
    for s in slices or []:
        if s.required and not s.not_worse:
            bar = given(-s.margin) if s.margin is not None else "a fixed not_worse_margin"
            if s.low is None:
                text = (
                    f"slice {s.slice!r} has enough test rows and blocks for an interval (now "
                    f"{count_noun(s.rows, 'row')} in {count_noun(s.blocks, 'block')}, "
                    f"no interval), and its worse end stays above {bar}"
                )
            else:
                g, ends, low = slice_numbers(s)
                text = (
                    f"{cfg.candidate} is shown no worse on slice {s.slice!r}: the interval's worse "
                    f"end stays above {bar} (now {low}: gap {g}, interval {ends}, "
                    f"{count_noun(s.rows, 'row')})"
                )
            items.append(ReconsiderItem(ItemId.SLICE, text))
    return items
