"""The noise lines of report.json: the seed line, the block line and the model-based budget
line, in the words and digits of reportgen.words (the test gap keeps its primary interval's
decimals wherever it is printed)."""

from __future__ import annotations

from collections.abc import Callable

from reportgen.checks.select import ModelRuns
from reportgen.model.block import BlockNoise
from reportgen.model.budget import BothNeeded, Budget
from reportgen.model.seed import SeedNoise
from reportgen.project import Project
from reportgen.project.config import Config
from reportgen.words import (
    blocks_phrase,
    confidence,
    count,
    count_noun,
    fixed,
    gap,
    gap_decimals,
    given,
    interval,
    p_text,
    pct,
    plural_noun,
    ratio,
    spread,
    variance,
    with_sign,
)
from reportgen.words.repeats import RepeatWords
from reportgen.words.repeats import repeat_words as words_for_repeats

#: the block line's label (methods.md section 3, revised turn 3): the line is for the networks
#: as trained, whether it rests on one network per model or averages several
BLOCK_HEAD = "Block bootstrap (which blocks were sampled, for the networks as trained):"


def block_head(cfg: Config) -> str:
    """The block line's label: BLOCK_HEAD whatever ``[evaluation] repeats`` says. The spec fixes
    this label, and a model evaluated over sampling epochs is still the network as trained; the
    line's own text follows the repeats words."""
    return BLOCK_HEAD


def repeat_words(cfg: Config) -> RepeatWords:
    """The words for the project's repeated runs: retrained seeds, or sampling epochs."""
    return words_for_repeats(cfg.repeats)


def seed_head(cfg: Config) -> str:
    """The seed line's label: "Seed spread (retraining):" or, for repeated sampling runs,
    "Seed spread (repeated runs: sampling noise):"."""
    return f"Seed spread ({repeat_words(cfg).label}):"


def _gap_words(seed: SeedNoise, unit: str) -> str:
    """ "the validation gap is +0.0032 log loss", or why there is none."""
    part = seed.part
    if seed.validation_gap is None:
        return f"there is no {part} gap (a model has no {part} values)"
    return f"the {part} gap is {gap(seed.validation_gap)} {unit}"


def seed_rule_words(
    cfg: Config,
    seed: SeedNoise,
    names: tuple[str, str],
    opening: str,
    sd_words: Callable[[str, str], str],
    of: int,
    where: str = "",
) -> str:
    """A measured seed line: the gap in seed sd, the sd (``sd_words(seeds, larger)`` says what
    it is over), the rule's verdict and how many of ``of`` candidate seeds beat the baseline's
    mean (``where``: " over the folds")."""
    cand, base = names
    who = {"candidate": cand, "baseline": base}
    src = seed.sd_from or "candidate"
    larger = ", the larger" if cfg.seed_sd_from == "larger" and not seed.note else ""
    seeds = count_noun(getattr(seed.n, src), "seed", adjective=who[src])
    return (
        f"{opening}, {ratio(seed.gap_in_sd, signed=True)} seed sd (sd "
        f"{spread(seed.sd_used)}{cfg.unit_after}{sd_words(seeds, larger)}); the rule needs more than "
        f"{given(cfg.seed_sd_multiple)}, so it {'passes' if seed.passes else 'fails'}; "
        f"{count(seed.seeds_beating_baseline)} of {count_noun(of, 'seed', adjective=cand)} "
        f"beat the {base} mean{where}."
    )


def _seed_line(project: Project, seed: SeedNoise, cand: ModelRuns, base: ModelRuns) -> str:
    """The seed line of the split design: the rule, its note, the left-out rows, the pairs."""
    cfg = project.config
    unit = cfg.metric_words
    part = seed.part
    level = "" if part == "validation" else " measured on test seeds (a test-level number):"
    n_c, n_b = seed.n.candidate, seed.n.baseline
    head = f"{seed_head(cfg)}{level}"
    if seed.trivial:
        s1 = (
            f"{head} {_gap_words(seed, unit)}; both models have zero "
            f"seed spread over {count(n_c)} and {count(n_b)} seeds (deterministic training), so "
            f"the seed rule is trivially "
            f"{'met' if seed.passes else 'failed (the gap is not positive)'} and the "
            "evaluation line carries the decision."
        )
    elif seed.gap_in_sd is None:
        s1 = (
            f"{head} not measured: {seed.reason or 'fewer than 2 seeds'} "
            f"({count_noun(n_c, 'seed', adjective=cand.name)}, "
            f"{count_noun(n_b, 'seed', adjective=base.name)}); {_gap_words(seed, unit)}."
        )
    else:
        s1 = seed_rule_words(
            cfg,
            seed,
            (cand.name, base.name),
            f"{head} {_gap_words(seed, unit)}",
            lambda seeds, larger: f" over {seeds}{larger}",
            n_c,
        )
    if seed.note:
        s1 += f" Note: {seed.note}."
    if n_c != n_b:
        s1 += (
            f" The means compare {count_noun(n_c, 'seed', adjective=cand.name)} with "
            f"{count_noun(n_b, 'seed', adjective=base.name)}."
        )
    if seed.left_out:
        s1 += f" {count_noun(len(seed.left_out), 'run row')} left out (listed in the appendix)."
    p = seed.paired
    if p.low is not None:
        d = gap_decimals(p.mean, p.low, p.high)
        s1 += (
            f" Paired by seed label ({p.part}): mean difference {with_sign(p.mean, d)}"
            f"{cfg.unit_after}, "
            f"{confidence(cfg.confidence)} t interval {interval(p.low, p.high, digits=d)} "
            f"over {count_noun(p.n, 'seed pair')}."
        )
    elif cfg.seeds_paired and p.reason:
        s1 += f" Paired by seed label: no interval ({p.reason})."
    return s1


def lines(
    project: Project,
    seed: SeedNoise,
    block: BlockNoise | None,
    cand: ModelRuns,
    base: ModelRuns,
) -> tuple[list[str], list[str]]:
    """The two noise sentences and what each covers; the test gap in seed sd is a seed-line
    figure (the seed sd scales it), so it is said there, never in the block line."""
    cfg = project.config
    words = repeat_words(cfg)
    unit = cfg.metric_words
    s1 = _seed_line(project, seed, cand, base)
    if block is not None and block.gap_in_seed_sd is not None:
        s1 += (
            f" The test gap, {with_sign(block.gap, test_decimals(block))} {unit}, is "
            f"{ratio(block.gap_in_seed_sd, signed=True)} seed sd."
        )
    head = block_head(cfg)
    if block is None:
        s2 = (
            f"{head} not computed: there are no per-row test predictions for both models, so "
            "evaluation noise is unmeasured"
            + (
                " and rung 3 rests on the paired seed interval."
                if seed.paired.low is not None
                else "."
            )
        )
    elif block.low is None:
        test_gap = (
            f"the test gap is {gap(block.gap)} {unit}"
            if block.gap is not None
            else "there is no test gap"
        )
        s2 = (
            f"{head} {test_gap} over "
            f"{blocks_phrase(block.blocks, cfg.block)}, but there is no interval: "
            f"{block.reason or 'fewer than 2 blocks'}."
        )
    else:
        s2 = f"{head} {_block_sentence(project, block, unit)}"
    blocks_word = plural_noun(cfg.block) if cfg.block else "rows"
    sample = (
        f"The block bootstrap covers the evaluation sample: which {blocks_word} happened to be in "
        f"the test set, for {words.as_is}"
    )
    covers = [
        f"Seed spread covers {words.noise}: how much the result moves when {words.again}. It "
        "says nothing about which evaluation rows happened to be sampled.",
        f"{sample}, one per model (no seed averaging). It says nothing about {words.noise}, and "
        f"with one {words.unit} per model nothing on this page measures it."
        if one_per_model(block)
        else f"{sample} (seed-averaged). It says nothing about {words.noise}; the "
        f"per-{words.unit} intervals and the two-level interval show that.",
    ]
    return [s1, s2], covers


def one_per_model(block: BlockNoise | None) -> bool:
    """The test gap rests on one network (one run) per model: no seed averaging, no seed level."""
    return block is not None and block.networks.candidate == block.networks.baseline == 1


def test_decimals(block: BlockNoise | None) -> int:
    """The decimals of the test gap wherever it is printed (the block line, the budget, the
    plan, the sign disagreement): its primary interval's, as the table of intervals has them."""
    if block is None:
        return gap_decimals(None, None, None)
    return gap_decimals(block.gap, block.low, block.high)


def _block_sentence(project: Project, block: BlockNoise, unit: str) -> str:
    """The block line with its intervals: every interval in it has the primary one's decimals,
    as the table of intervals beside it does."""
    cfg = project.config
    what = blocks_phrase(block.blocks, cfg.block)
    t, bs = block.t, block.bootstrap
    d = test_decimals(block)
    nets = block.networks
    repeat = repeat_words(cfg).unit
    seeds_txt = (
        f"seed-averaged over {count(nets.candidate)} and {count(nets.baseline)} "
        f"{plural_noun(repeat)}"
        if nets.candidate > 1 or nets.baseline > 1
        else f"one {repeat} per model"
    )
    t_txt = interval(t.low, t.high, digits=d)
    if t.p is not None:
        t_txt += f", {p_text(t.p)}"
    s2 = (
        f"the test gap is {with_sign(block.gap, d)} {unit} (row-weighted over "
        f"{count_noun(block.rows, 'row')}, {seeds_txt}), {confidence(cfg.confidence)} interval "
        f"{interval(block.low, block.high, digits=d)} over {what}"
        + ("" if cfg.block else " (no block column: the bootstrap resamples rows)")
        + ", the wider of the "
        f"bootstrap ({interval(bs.low, bs.high, digits=d)}, "
        f"{count_noun(block.resamples, 'resample')}) and the paired t ({t_txt})."
    )
    return s2


def budget_line(project: Project, b: Budget, block: BlockNoise) -> str:
    """The third, model-based line: both sources in one interval, beside the two measured ones."""
    cfg = project.config
    unit = cfg.metric_words
    what = blocks_phrase(b.B, cfg.block)
    lo, hi = b.combined.low, b.combined.high
    d = test_decimals(block)
    share = (
        f"the seed share is {pct(b.seed_share)}"
        if b.seed_share is not None
        else "the seed share is undefined (both terms are zero)"
    )
    s = (
        f"Both sources (model-based): gap {with_sign(block.gap, d)} {unit} plus or minus "
        f"{fixed(b.half_width, d)}, {interval(lo, hi, digits=d)}: "
        f"seed term {variance(b.seed_term)} ({spread(b.seed_sd)}² / {count_noun(b.S, 'seed')}"
        + (", validation sd" if b.seed_part == "validation" else ", test sd")
        + f") and block term {variance(b.block_term)} (over {what}); {share}."
    )
    hw2 = b.two_level_half_width
    if hw2:
        ratio_ = b.half_width / hw2
        if abs(ratio_ - 1) > 0.25:
            s += (
                " The two-level bootstrap's half-width is "
                f"{fixed(hw2, d)}: the "
                f"model-based one is {pct(abs(ratio_ - 1))} "
                f"{'wider' if ratio_ > 1 else 'narrower'}, so trust the measured one."
            )
    return s


#: a plan that needs more than this many times today's seeds and blocks is flagged impractical
IMPRACTICAL_SCALE = 4.0
#: blocks per year for a block column that names a period, to say how long a plan's data take
PER_YEAR = {"week": 52.18, "day": 365.25, "month": 12.0, "quarter": 4.0}


def impractical_text(project: Project, both: BothNeeded | None) -> str | None:
    """noise.budget.planning.impractical_text: why the both-scaled plan (``both``) is no plan
    (it needs more than IMPRACTICAL_SCALE times today's seeds and blocks), or None."""
    if both is None or both.scale <= IMPRACTICAL_SCALE:
        return None
    column = project.config.block
    word = column or "test row"
    text = f"impractical: {fixed(both.scale, 1)} times today's seeds and {plural_noun(word)}"
    per_year = PER_YEAR.get((column or "").lower().removesuffix("s"))
    if per_year and project.config.block_kind == "period":
        text += f", {fixed(both.B / per_year, 1)} years of data"
    return text


def plan_sentence(project: Project, budget: Budget | None, block: BlockNoise | None) -> str | None:
    """The reconsider-when sentence from the planner, or None when it has nothing to add."""
    if budget is None:
        return None
    cfg = project.config
    p = budget.planning
    S, B = budget.S, budget.B
    g = p.gap
    word = cfg.block or "test row"
    now = f"now {count_noun(S, 'seed')}, {count_noun(B, word)}"
    if g <= 0:
        return None
    both = p.both_needed
    if both is not None and (both.S, both.B) != (S, B):
        s = (
            f"with {count_noun(both.S, 'seed')} and {count_noun(both.B, word)} the interval "
            f"would exclude zero if the gap stays at {with_sign(g, test_decimals(block))}"
            f"{cfg.unit_after}"
            + (f"; {p.impractical_text}" if p.impractical_text else "")
            + f" ({now}; a planning estimate from the variance budget)"
        )
        return s
    return None
