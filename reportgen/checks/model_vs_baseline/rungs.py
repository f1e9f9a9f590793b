"""Rungs 3, 4 and 5 of a model against its baseline, from this mode's evidence (rung 1:
model_vs_baseline.correct; rung 2: ladder.fair_rung)."""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.checks.ids import CheckId
from reportgen.checks.ladder import RungResult, rung
from reportgen.checks.noise_lines import repeat_words
from reportgen.checks.orientation import noise_label, part_at, part_name, side_words, zero_words
from reportgen.checks.types import Check, Interval
from reportgen.model.block import BlockNoise
from reportgen.model.data import Data
from reportgen.model.enums import Finding, IntervalSource, RungStatus
from reportgen.model.relevance import Relevance, Slice
from reportgen.model.seed import SeedNoise
from reportgen.project import Project
from reportgen.words import (
    blocks_phrase,
    count_noun,
    gap,
    gap_decimals,
    given,
    interval,
    ratio,
    with_sign,
)
from reportgen.words.i18n import _, current, n_

SEED_RULE = CheckId("validation-gap-vs-seed-sd", 3)
TEST_INTERVAL = CheckId("test-interval-excludes-zero", 3)
NOT_WORSE = CheckId("not-worse-on-*", 4)
USEFUL_EFFECT = CheckId("useful-effect", 4)


def primary_interval(seed: SeedNoise, block: BlockNoise | None) -> Interval | None:
    """The evaluation interval rung 3 and relevance rest on: the block interval, else the paired seed interval."""
    if (
        block is not None
        and block.low is not None
        and block.high is not None
        and block.gap is not None
    ):
        return Interval(
            gap=block.gap,
            low=block.low,
            high=block.high,
            source=IntervalSource.BLOCK,
            part="test",
            what=blocks_phrase(block.blocks, block.block_column),
        )
    p = seed.paired
    if p.low is not None and p.high is not None and p.mean is not None and p.n is not None:
        return Interval(
            gap=p.mean,
            low=p.low,
            high=p.high,
            source=IntervalSource.PAIRED_SEEDS,
            part=p.part or "validation",
            what=f"{count_noun(p.n, 'seed pair')} ({part_name(p.part or 'validation')})",
        )
    return None


def _seed_check(project: Project, seed: SeedNoise, seed_arts: list[str]) -> Check:
    """The seed rule: the gap in seed sd against the bar (trivially met with zero spread)."""
    bar = project.config.seed_sd_multiple
    rule_ok = seed.passes
    part = part_at(seed.part)
    if seed.trivial:
        text = (
            _(
                "{part} gap {gap}: both models have zero seed spread, so the rule is trivially met",
                part=part,
                gap=gap(seed.validation_gap),
            )
            if rule_ok
            else _(
                "{part} gap {gap}: both models have zero seed spread, so the rule is trivially "
                "failed (the gap is not positive)",
                part=part,
                gap=gap(seed.validation_gap),
            )
        )
    elif seed.gap_in_sd is not None:
        text = _(
            "{part} gap {gap} is {sd} seed sd; the rule needs more than {bar}",
            part=part,
            gap=gap(seed.validation_gap),
            sd=ratio(seed.gap_in_sd, signed=True),
            bar=given(bar),
        )
    else:
        text = _("seed rule not measured: {why}", why=seed.reason)
    return Check(
        id=SEED_RULE.id,
        rung=3,
        passed=rule_ok if (seed.gap_in_sd is not None or seed.trivial) else None,
        value=seed.gap_in_sd,
        bar=bar,
        artefacts=tuple(seed_arts),
        text=text,
    )


def _interval_check(iv: Interval | None, arts: Sequence[str]) -> Check:
    """The evaluation interval excludes zero in the candidate's favour; ``arts``: what it was
    computed from."""
    if iv is None:
        text = _("no evaluation interval (no per-row predictions and no paired seeds)")
    else:
        text = _(
            "{part} interval {ends} ({what}) {lies}",
            part=part_at(_part(iv)),
            ends=iv.ends,
            what=iv.what,
            lies=side_words(iv),
        )
    return Check(
        id=TEST_INTERVAL.id,
        rung=3,
        passed=iv.above_zero if iv else None,
        value=iv.low if iv else None,
        bar=0.0,
        artefacts=tuple(arts) if iv else (),
        text=text,
    )


def _part(iv: Interval | None) -> str:
    """The part the evaluation interval is on."""
    return (iv.part if iv else None) or "test"


def noise_rung(
    project: Project, seed: SeedNoise, iv: Interval | None, scored: Sequence[str] = ()
) -> RungResult:
    """Rung 3: the gap clears the seed rule (retraining) and the evaluation interval excludes zero.

    ``scored``: the test split file and both models' test predictions, which a block interval
    is computed from; an interval over paired seeds rests on the seed values themselves.
    """
    cfg = project.config
    seed_arts = [v.source for v in (*seed.values.candidate, *seed.values.baseline)]
    iv_arts = list(scored) if iv is not None and iv.source == IntervalSource.BLOCK else seed_arts
    checks = [_seed_check(project, seed, seed_arts), _interval_check(iv, iv_arts)]
    rule_ok = seed.passes
    excl = iv is not None and iv.above_zero
    arts = (
        seed_arts
        + (["runs.csv"] if not seed_arts else [])
        + [a for a in iv_arts if a not in seed_arts]
        + project.evidence.get("larger_than_noise", [])
    )
    if rule_ok and excl:
        return rung(
            3,
            RungStatus.SHOWN,
            arts,
            None,
            _(
                "the gap clears the seed rule and the {part} interval lies above zero",
                part=part_at(_part(iv)),
            ),
        ), checks
    if seed.gap_in_sd is None and not seed.trivial:
        missing = seed.reason or _(
            "{noise} unmeasured: fewer than 2 seeds", noise=repeat_words(cfg).noise
        )
    elif not rule_ok and seed.trivial:
        missing = _(
            "both models are deterministic and the {part} gap {gap} is not positive",
            part=part_at(seed.part),
            gap=gap(seed.validation_gap),
        )
    elif not rule_ok:
        missing = _(
            "the {part} gap is {sd} seed sd, not more than {bar}",
            part=part_at(seed.part),
            sd=ratio(seed.gap_in_sd, signed=True),
            bar=given(cfg.seed_sd_multiple),
        )
    elif iv is None:
        missing = _("no evaluation interval on test (no per-row predictions)")
    else:
        missing = _(
            "the {part} interval {ends} {lies}",
            part=part_at(_part(iv)),
            ends=iv.ends,
            lies=zero_words(iv),
        )
    summary = noise_label(seed, iv, _("{part} interval", part=part_at(_part(iv))))
    return rung(
        3, RungStatus.PARTLY if (rule_ok or excl) else RungStatus.NOT_SHOWN, arts, missing, summary
    ), checks


def slice_numbers(s: Slice) -> tuple[str, str, str]:
    """A slice's gap, interval and lower end as printed, with one decimal count for the three."""
    d = gap_decimals(s.gap, s.low, s.high)
    return with_sign(s.gap, d), interval(s.low, s.high, digits=d), with_sign(s.low, d)


def slice_name(value: object) -> str:
    """A slice's value as a sentence quotes it: 'shifted' in English (its repr), «shifted» in
    another language."""
    return repr(value) if current() == "en" else f"«{value}»"


def worse_slices(slices: list[Slice] | None) -> list[Slice]:
    """The slices whose interval lies wholly below zero, whether or not not_worse_on lists them."""
    return [s for s in slices or [] if s.worse]


def worse_slice_words(candidate: str, slices: list[Slice] | None) -> str | None:
    """ "net is worse on slice 'g2' (gap −0.107, interval −0.128 to −0.086, 240 test rows)", for
    every slice shown worse, or None when there is none."""
    worse = worse_slices(slices)
    if not worse:
        return None
    each = [
        _(
            "{slice} (gap {gap}, interval {ends}, {rows})",
            slice=slice_name(s.slice),
            gap=slice_numbers(s)[0],
            ends=slice_numbers(s)[1],
            rows=count_noun(s.rows, "test row"),
        )
        for s in worse
    ]
    return n_(
        "{candidate} is worse on slice {slices}",
        "{candidate} is worse on slices {slices}",
        len(each),
        candidate=candidate,
        slices=", ".join(each),
    )


def _slice_check(s: Slice, scored: Sequence[str]) -> Check:
    """A required slice: not worse than the baseline within the margin; ``scored``: the test
    split file (its slice column) and the test predictions its rows were scored in."""
    where = _("slice {slice} ({rows})", slice=slice_name(s.slice), rows=count_noun(s.rows, "row"))
    if s.low is not None:
        g, ends, _low = slice_numbers(s)
        where += _(": gap {gap}, interval {ends}", gap=g, ends=ends)
    elif s.gap is not None:
        where += _(": gap {gap}, no interval", gap=gap(s.gap))
    else:
        where += _(": no gap measured")
    # a slice is shown not worse only against a margin
    shown = (
        _(
            "not worse shown: the worse end stays within the margin {margin}",
            margin=given(-s.margin),
        )
        if s.not_worse and s.margin is not None
        else _("not worse is not shown: {why}", why=s.not_worse_reason)
    )
    return Check(
        id=NOT_WORSE.of(s.slice),
        rung=4,
        passed=s.not_worse,
        value=s.low,
        bar=-s.margin if s.margin is not None else None,
        artefacts=tuple(scored),
        text=f"{where}; {shown}",
    )


def relevant_rung(
    project: Project, rel: Relevance | None, slices: list[Slice] | None, scored: Sequence[str] = ()
) -> RungResult:
    """Rung 4: a gain worth acting on (the useful effect) and no required slice worse.

    ``scored``: the test split file and test predictions the slices were measured on.
    """
    cfg = project.config
    arts = list(project.evidence.get("relevant", []))
    if cfg.min_useful_effect is not None:
        arts.append(f"{project.paths.config}:{cfg.lines.get('claim.min_useful_effect', 1)}")
    req = [s for s in (slices or []) if s.required]
    bad_slices = [s for s in req if not s.not_worse]
    checks = [_slice_check(s, scored) for s in req]
    if req:
        arts += [a for a in scored if a not in arts]
    if rel is None:
        return rung(
            4,
            RungStatus.NOT_SHOWN,
            arts,
            _("no evaluation interval to judge the size of the gap"),
            _("relevance unmeasured"),
        ), checks
    checks.append(
        Check(
            id=USEFUL_EFFECT.id,
            rung=4,
            passed=rel.finding == Finding.USEFUL_GAIN_SHOWN
            if cfg.min_useful_effect is not None
            else None,
            value=rel.low,
            bar=cfg.min_useful_effect,
            artefacts=tuple(arts[:2]),
            text=rel.text,
        )
    )
    if rel.finding == Finding.USEFUL_GAIN_SHOWN and not bad_slices:
        return rung(4, RungStatus.SHOWN, arts, None, rel.text), checks
    if rel.finding not in (Finding.USEFUL_GAIN_SHOWN, Finding.POSITIVE_NOT_USEFUL):
        return rung(
            4, RungStatus.NOT_SHOWN, arts, rel.finding_text, _("no gain worth acting on is shown")
        ), checks
    if bad_slices:
        s = bad_slices[0]
        missing = (
            _(
                "the candidate is worse on slice {slice} (gap {gap}, interval {ends})",
                slice=slice_name(s.slice),
                gap=slice_numbers(s)[0],
                ends=slice_numbers(s)[1],
            )
            if s.worse
            else _(
                "not being worse on slice {slice} is not shown: {why}",
                slice=slice_name(s.slice),
                why=s.not_worse_reason,
            )
        )
    elif cfg.min_useful_effect is None:
        missing = _(
            "no min_useful_effect fixed in evreport.toml: what gap would be worth acting on?"
        )
    else:
        missing = _(
            "the interval's lower end {low} does not reach the useful effect {effect}",
            low=with_sign(rel.low, gap_decimals(rel.gap, rel.low, rel.high)),
            effect=given(cfg.min_useful_effect, cfg.metric_unit),
        )
    return rung(4, RungStatus.PARTLY, arts, missing, rel.text), checks


def bounded_rung(
    project: Project,
    slices: list[Slice] | None,
    data: Data,
    not_tested: list[str],
    measured: list[str],
) -> RungResult:
    """Rung 5: where the result was measured (slices, the block period); ``measured``: the test
    split and predictions they come from; the first of ``not_tested`` when nothing was measured."""
    cfg = project.config
    arts = list(project.evidence.get("bounded", [])) + list(measured)
    parts = []
    if slices:
        parts.append(_("{slices} with intervals", slices=count_noun(len(slices), "slice")))
        worse = worse_slices(slices)
        if worse:
            parts.append(
                _(
                    "{candidate} worse on {slices}",
                    candidate=cfg.candidate,
                    slices=", ".join(slice_name(s.slice) for s in worse),
                )
            )
    if data.blocks and cfg.block:
        parts.append(
            _(
                "{blocks} ({first} to {last})",
                blocks=count_noun(data.blocks, cfg.block),
                first=data.first_block,
                last=data.last_block,
            )
        )
    if slices and cfg.block and data.blocks:
        return rung(5, RungStatus.SHOWN, arts, None, "; ".join(parts)), []
    if parts:
        missing = (
            _("no slice column: where the result stops holding is untested")
            if not slices
            else _("no block column: the period measured is not stated")
        )
        return rung(5, RungStatus.PARTLY, arts, missing, "; ".join(parts)), []
    return rung(
        5,
        RungStatus.NOT_SHOWN,
        arts,
        not_tested[0] if not_tested else _("no slices or period measured"),
        _("where the result stops holding is not shown"),
    ), []
