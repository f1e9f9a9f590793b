"""Each reason code of the statistics has its sentence in checks/, word for word."""

from __future__ import annotations

import pytest

from reportgen.checks.before_after.sections import category_sentence
from reportgen.checks.reasons import SENTENCES, sentence, t_sentence
from reportgen.stats.before_after import Dominant
from reportgen.stats.results import Reason

CASES = [
    (
        Reason.TOO_FEW_SEEDS,
        {"short": ("candidate", "baseline")},
        "retraining noise unmeasured: fewer than 2 seeds for the candidate and baseline",
    ),
    (
        Reason.TOO_FEW_SEEDS,
        {"short": ("baseline",), "noise": "evaluation noise", "per": " per fold"},
        "evaluation noise unmeasured: fewer than 2 seeds per fold for the baseline",
    ),
    (Reason.NO_GAP, {}, "no validation gap: a model has no seeds"),
    (
        Reason.BOTH_DETERMINISTIC,
        {},
        "both models have zero seed spread (deterministic training): the seed rule is trivially "
        "met when the gap is positive, and the evaluation line carries the decision",
    ),
    (
        Reason.CHOSEN_SIDE_DETERMINISTIC,
        {"zero": "baseline", "used": "candidate"},
        "the baseline has zero seed spread (it trains deterministically: the same fit for every "
        "seed): the candidate's sd is used",
    ),
    (
        Reason.ONE_SIDE_DETERMINISTIC,
        {"zero": "candidate", "used": "baseline"},
        "the candidate has zero seed spread (it trains deterministically, as ridge, logistic "
        "regression or an SVM do, which is normal): the baseline's sd is used",
    ),
    (
        Reason.TOO_FEW_FOR_T,
        {"n": 1, "unit": "paired seed"},
        "1 paired seed(s): a t interval needs at least 2",
    ),
    (
        Reason.ZERO_SPREAD,
        {"values": "fold gaps"},
        "the fold gaps are all equal: zero spread, no t interval",
    ),
    (Reason.NOTHING_TO_COMPARE, {}, "no blocks or no seeds: nothing to compare"),
    (Reason.BLOCK_NOT_FINITE, {}, "a block value is NaN or infinite: intervals not computed"),
    (Reason.ONE_BLOCK, {}, "1 block: an interval needs at least 2"),
    (
        Reason.BLOCK_GAPS_ZERO_SPREAD,
        {},
        "the block gaps have zero spread (every block gives the same row-weighted gap): no "
        "interval",
    ),
    (
        Reason.SEEDS_UNSHARED,
        {"shared": 1},
        "seeds_paired, but only 1 seed label(s) are shared by both models: seeds resampled "
        "independently",
    ),
    (
        Reason.COARSE_SEED_LEVEL,
        {"fewest": 3},
        "3 seed(s) on a side: the seed level of this interval is coarse",
    ),
    (
        Reason.TOO_FEW_FOLD_GAPS,
        {"n": 2, "minimum": 3},
        "2 fold gap(s): the corrected resampled t needs at least 3",
    ),
    (Reason.FOLD_GAP_NOT_FINITE, {}, "a fold gap is not a finite number"),
    (Reason.FOLD_WITHOUT_TEST_ROWS, {}, "a fold has no held-out rows: its gap is undefined"),
    (
        Reason.LEAVE_ONE_OUT,
        {},
        "leave-one-out (every fold holds out one row): the corrected resampled t does not apply; "
        "use k-fold with k = 5 or 10, repeated",
    ),
    (Reason.FOLD_WITHOUT_TRAIN_ROWS, {}, "a fold has no training rows"),
    (Reason.TOO_FEW_BLOCKS, {}, "fewer than 2 blocks: no interval"),
    (Reason.METRIC_UNDEFINED, {}, "undefined on these rows"),
    (
        Reason.UNDEFINED_ON_RESAMPLES,
        {},
        "the metric is undefined on almost every resample",
    ),
    (
        Reason.GAP_NOT_ABOVE_TARGET,
        {"what": "the useful effect"},
        "the gap is not above the useful effect: more seeds or blocks cannot show it is",
    ),
    (
        Reason.SEEDS_ALONE_CANNOT,
        {"width": "0.012"},
        "more seeds alone cannot settle this: the block term alone gives plus or minus 0.012",
    ),
    (
        Reason.BLOCKS_ALONE_CANNOT,
        {"width": "0.012"},
        "more blocks alone cannot settle this: the seed term alone gives plus or minus 0.012",
    ),
]


@pytest.mark.parametrize("reason, numbers, text", CASES, ids=[f"{c[0]}" for c in CASES])
def test_each_code_reads_as_its_sentence(reason, numbers, text):
    assert sentence(reason, **numbers) == text


def test_every_code_has_a_sentence_and_a_case():
    assert set(SENTENCES) == set(Reason)
    assert {c[0] for c in CASES} == set(Reason)
    assert sentence(None) is None


def test_t_refusals_name_their_differences():
    assert t_sentence(Reason.TOO_FEW_FOR_T, 0, "fold gap") == (
        "0 fold gap(s): a t interval needs at least 2"
    )
    assert t_sentence(Reason.ZERO_SPREAD, 4, "paired seed") == (
        "the per-seed differences are all equal: zero spread, no t interval"
    )
    assert t_sentence(None, 4, "fold gap") is None


def test_the_dominant_category_sentence():
    assert category_sentence(Dominant("dates", 7, 9)) == (
        "7 of 9 broken questions are 'dates': tuning broke something specific."
    )
    assert category_sentence(Dominant("dates", 1, 1)) == "The 1 broken question is 'dates'."
    assert category_sentence(None) is None
