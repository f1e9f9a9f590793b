"""The noise lines of report.json: the seed line, the block line and the model-based budget
line, in the words and digits of reportgen.words (the test gap keeps its primary interval's
decimals wherever it is printed)."""

from __future__ import annotations

from collections.abc import Callable

from reportgen.checks.orientation import part_at, part_name
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
    noun,
    pct,
    plural_noun,
    ratio,
    spread,
    variance,
    with_sign,
)
from reportgen.words.i18n import _, current
from reportgen.words.intervals import wider_of_two
from reportgen.words.repeats import RepeatWords
from reportgen.words.repeats import repeat_words as words_for_repeats

#: the block line's label (methods.md section 3, revised turn 3): the line is for the networks
#: as trained, whether it rests on one network per model or averages several (English; a
#: sentence prints block_head(), in the build's language)
BLOCK_HEAD = "Block bootstrap (which blocks were sampled, for the networks as trained):"


def block_head(cfg: Config) -> str:
    """The block line's label: BLOCK_HEAD whatever ``[evaluation] repeats`` says. The spec fixes
    this label, and a model evaluated over sampling epochs is still the network as trained; the
    line's own text follows the repeats words."""
    return _("Block bootstrap (which blocks were sampled, for the networks as trained):")


def repeat_words(cfg: Config) -> RepeatWords:
    """The words for the project's repeated runs: retrained seeds, or sampling epochs."""
    return words_for_repeats(cfg.repeats)


def seed_head(cfg: Config) -> str:
    """The seed line's label: "Seed spread (retraining):" or, for repeated sampling runs,
    "Seed spread (repeated runs: sampling noise):"."""
    return _("Seed spread ({label}):", label=repeat_words(cfg).label)


def _gap_words(seed: SeedNoise, unit: str) -> str:
    """ "the validation gap is +0.0032 log loss", or why there is none."""
    part = part_at(seed.part)
    if seed.validation_gap is None:
        return _(
            "there is no {part} gap (a model has no {name} values)",
            part=part,
            name=part_name(seed.part),
        )
    return _("the {part} gap is {gap} {unit}", part=part, gap=gap(seed.validation_gap), unit=unit)


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
    larger = _(", the larger") if cfg.seed_sd_from == "larger" and not seed.note else ""
    seeds = count_noun(getattr(seed.n, src), "seed", adjective=who[src])
    fields = dict(
        opening=opening,
        sd=ratio(seed.gap_in_sd, signed=True),
        spread=spread(seed.sd_used),
        unit=cfg.unit_after,
        over=sd_words(seeds, larger),
        bar=given(cfg.seed_sd_multiple),
        beating=count(seed.seeds_beating_baseline),
        of=count_noun(of, "seed", adjective=cand),
        baseline=base,
        where=where,
    )
    if seed.passes:
        return _(
            "{opening}, {sd} seed sd (sd {spread}{unit}{over}); the rule needs more than {bar}, "
            "so it passes; {beating} of {of} beat the {baseline} mean{where}.",
            **fields,
        )
    return _(
        "{opening}, {sd} seed sd (sd {spread}{unit}{over}); the rule needs more than {bar}, "
        "so it fails; {beating} of {of} beat the {baseline} mean{where}.",
        **fields,
    )


def _seed_line(project: Project, seed: SeedNoise, cand: ModelRuns, base: ModelRuns) -> str:
    """The seed line of the split design: the rule, its note, the left-out rows, the pairs."""
    cfg = project.config
    unit = cfg.metric_words
    part = seed.part
    level = "" if part == "validation" else _(" measured on test seeds (a test-level number):")
    n_c, n_b = seed.n.candidate, seed.n.baseline
    head = f"{seed_head(cfg)}{level}"
    if seed.trivial:
        fields = dict(head=head, gap=_gap_words(seed, unit), n_c=count(n_c), n_b=count(n_b))
        s1 = (
            _(
                "{head} {gap}; both models have zero seed spread over {n_c} and {n_b} seeds "
                "(deterministic training), so the seed rule is trivially met and the evaluation "
                "line carries the decision.",
                **fields,
            )
            if seed.passes
            else _(
                "{head} {gap}; both models have zero seed spread over {n_c} and {n_b} seeds "
                "(deterministic training), so the seed rule is trivially failed (the gap is not "
                "positive) and the evaluation line carries the decision.",
                **fields,
            )
        )
    elif seed.gap_in_sd is None:
        s1 = _(
            "{head} not measured: {why} ({seeds_c}, {seeds_b}); {gap}.",
            head=head,
            why=seed.reason or _("fewer than 2 seeds"),
            seeds_c=count_noun(n_c, "seed", adjective=cand.name),
            seeds_b=count_noun(n_b, "seed", adjective=base.name),
            gap=_gap_words(seed, unit),
        )
    else:
        s1 = seed_rule_words(
            cfg,
            seed,
            (cand.name, base.name),
            f"{head} {_gap_words(seed, unit)}",
            lambda seeds, larger: _(" over {seeds}{larger}", seeds=seeds, larger=larger),
            n_c,
        )
    if seed.note:
        s1 += _(" Note: {note}.", note=seed.note)
    if n_c != n_b:
        s1 += _(
            " The means compare {seeds_c} with {seeds_b}.",
            seeds_c=count_noun(n_c, "seed", adjective=cand.name),
            seeds_b=count_noun(n_b, "seed", adjective=base.name),
        )
    if seed.left_out:
        s1 += left_out_words(len(seed.left_out))
    p = seed.paired
    if p.low is not None:
        d = gap_decimals(p.mean, p.low, p.high)
        s1 += _(
            " Paired by seed label ({part}): mean difference {mean}{unit}, {conf} t interval "
            "{ends} over {pairs}.",
            part=part_name(p.part),
            mean=with_sign(p.mean, d),
            unit=cfg.unit_after,
            conf=confidence(cfg.confidence),
            ends=interval(p.low, p.high, digits=d),
            pairs=count_noun(p.n, "seed pair"),
        )
    elif cfg.seeds_paired and p.reason:
        s1 += _(" Paired by seed label: no interval ({why}).", why=p.reason)
    return s1


def left_out_words(n: int) -> str:
    """ " 2 run rows left out (listed below).", after a seed line's sentence (the noise
    section lists them right after the line)."""
    return _(" {rows} left out (listed below).", rows=count_noun(n, "run row"))


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
        # the test gap itself is the block line's (and the results' at a glance): said here
        # in seed sd only, so a page does not print it a third time
        s1 += _(
            " The test gap is {sd} seed sd.",
            sd=ratio(block.gap_in_seed_sd, signed=True),
        )
    head = block_head(cfg)
    if block is None:
        s2 = (
            _(
                "{head} not computed: there are no per-row test predictions for both models, so "
                "evaluation noise is unmeasured and rung 3 rests on the paired seed interval.",
                head=head,
            )
            if seed.paired.low is not None
            else _(
                "{head} not computed: there are no per-row test predictions for both models, so "
                "evaluation noise is unmeasured.",
                head=head,
            )
        )
    elif block.low is None:
        test_gap = (
            _("the test gap is {gap} {unit}", gap=gap(block.gap), unit=unit)
            if block.gap is not None
            else _("there is no test gap")
        )
        s2 = _(
            "{head} {gap} over {blocks}, but there is no interval: {why}.",
            head=head,
            gap=test_gap,
            blocks=blocks_phrase(block.blocks, cfg.block),
            why=block.reason or _("fewer than 2 blocks"),
        )
    else:
        s2 = f"{head} {_block_sentence(project, block, unit)}"
    fields = dict(
        blocks=blocks_noun(cfg.block),
        as_is=words.as_is,
        noise=words.noise,
    )
    networks = words.unit == "network"
    if one_per_model(block):
        sample = (
            _(
                "The block bootstrap covers the evaluation sample: which {blocks} happened to be "
                "in the test set, for {as_is}, one per model (no seed averaging). It says nothing "
                "about {noise}, and with one network per model nothing on this page measures it.",
                **fields,
            )
            if networks
            else _(
                "The block bootstrap covers the evaluation sample: which {blocks} happened to be "
                "in the test set, for {as_is}, one per model (no seed averaging). It says nothing "
                "about {noise}, and with one run per model nothing on this page measures it.",
                **fields,
            )
        )
    else:
        sample = (
            _(
                "The block bootstrap covers the evaluation sample: which {blocks} happened to be "
                "in the test set, for {as_is} (seed-averaged). It says nothing about {noise}; the "
                "per-network intervals and the two-level interval show that.",
                **fields,
            )
            if networks
            else _(
                "The block bootstrap covers the evaluation sample: which {blocks} happened to be "
                "in the test set, for {as_is} (seed-averaged). It says nothing about {noise}; the "
                "per-run intervals and the two-level interval show that.",
                **fields,
            )
        )
    covers = [
        _(
            "Seed spread covers {noise}: how much the result moves when {again}. It says nothing "
            "about which evaluation rows happened to be sampled.",
            noise=words.noise,
            again=words.again,
        ),
        sample,
    ]
    return [s1, s2], covers


def blocks_noun(block: str | None) -> str:
    """The evaluation blocks as a plural noun: the block column's plural ("weeks"; in another
    language its name stays as written: "блоки «week»"), or "rows" without one."""
    if not block:
        return _("rows")
    if current() == "en":
        return plural_noun(block)
    return _("blocks '{name}'", name=noun(block))


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
    networks = repeat_words(cfg).unit == "network"
    averaged = nets.candidate > 1 or nets.baseline > 1
    n_c, n_b = count(nets.candidate), count(nets.baseline)
    if averaged:
        seeds_txt = (
            _("seed-averaged over {n_c} and {n_b} networks", n_c=n_c, n_b=n_b)
            if networks
            else _("seed-averaged over {n_c} and {n_b} runs", n_c=n_c, n_b=n_b)
        )
    else:
        seeds_txt = _("one network per model") if networks else _("one run per model")
    fields = dict(
        gap=with_sign(block.gap, d),
        unit=unit,
        rows=count_noun(block.rows, "row"),
        seeds=seeds_txt,
        conf=confidence(cfg.confidence),
        ends=interval(block.low, block.high, digits=d),
        what=what,
        which=wider_of_two(
            block.primary, (t.low, t.high, t.p), (bs.low, bs.high), block.resamples, d
        ),
    )
    if cfg.block:
        return _(
            "the test gap is {gap} {unit} (row-weighted over {rows}, {seeds}), {conf} interval "
            "{ends} over {what}: {which}.",
            **fields,
        )
    return _(
        "the test gap is {gap} {unit} (row-weighted over {rows}, {seeds}), {conf} interval "
        "{ends} over {what} (no block column: the bootstrap resamples rows): {which}.",
        **fields,
    )


def budget_line(project: Project, b: Budget, block: BlockNoise) -> str:
    """The third, model-based line: both sources in one half-width, beside the two measured
    ones; its ends (noise.budget.combined) are not said here but tabled with the other
    intervals of the test gap, so the page prints no second set of ends for one gap."""
    cfg = project.config
    unit = cfg.metric_words
    what = blocks_phrase(b.B, cfg.block)
    d = test_decimals(block)
    share = (
        _("the seed share is {share}", share=pct(b.seed_share))
        if b.seed_share is not None
        else _("the seed share is undefined (both terms are zero)")
    )
    fields = dict(
        gap=with_sign(block.gap, d),
        unit=unit,
        hw=fixed(b.half_width, d),
        seed_term=variance(b.seed_term),
        sd=spread(b.seed_sd),
        seeds=count_noun(b.S, "seed"),
        block_term=variance(b.block_term),
        what=what,
        share=share,
    )
    s = (
        _(
            "Both sources (model-based): gap {gap} {unit} plus or minus {hw}: seed term "
            "{seed_term} ({sd}² / {seeds}, validation sd) and block term {block_term} (over "
            "{what}); {share}.",
            **fields,
        )
        if b.seed_part == "validation"
        else _(
            "Both sources (model-based): gap {gap} {unit} plus or minus {hw}: seed term "
            "{seed_term} ({sd}² / {seeds}, test sd) and block term {block_term} (over "
            "{what}); {share}.",
            **fields,
        )
    )
    hw2 = b.two_level_half_width
    if hw2:
        ratio_ = b.half_width / hw2
        if abs(ratio_ - 1) > 0.25:
            fields2 = dict(hw=fixed(hw2, d), pct=pct(abs(ratio_ - 1)))
            s += (
                _(
                    " The two-level bootstrap's half-width is {hw}: the model-based one is "
                    "{pct} wider, so trust the measured one.",
                    **fields2,
                )
                if ratio_ > 1
                else _(
                    " The two-level bootstrap's half-width is {hw}: the model-based one is "
                    "{pct} narrower, so trust the measured one.",
                    **fields2,
                )
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
    text = (
        _(
            "impractical: {scale} times today's seeds and {blocks}",
            scale=fixed(both.scale, 1),
            blocks=blocks_noun(word),
        )
        if column
        else _("impractical: {scale} times today's seeds and test rows", scale=fixed(both.scale, 1))
    )
    per_year = PER_YEAR.get((column or "").lower().removesuffix("s"))
    if per_year and project.config.block_kind == "period":
        years = both.B / per_year
        text += _(", {years} years of data", years=fixed(years, 1))
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
    if g <= 0:
        return None
    both = p.both_needed
    if both is not None and (both.S, both.B) != (S, B):
        impractical = "; " + p.impractical_text if p.impractical_text else ""
        return _(
            "with {seeds} and {blocks} the interval would exclude zero if the gap stays at "
            "{gap}{unit}{impractical} (now {seeds_now}, {blocks_now}; a planning estimate from "
            "the variance budget)",
            seeds=count_noun(both.S, "seed"),
            blocks=count_noun(both.B, word),
            gap=with_sign(g, test_decimals(block)),
            unit=cfg.unit_after,
            impractical=impractical,
            seeds_now=count_noun(S, "seed"),
            blocks_now=count_noun(B, word),
        )
    return None
