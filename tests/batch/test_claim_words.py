"""The honest-claim rule reads negations and hedges as the weaker claim.

Ten or more phrasings that claim a gain (or more) and ten or more that do not: a careful
student who writes "does not beat" or "within noise" must not be marked as claiming rung 3.
"""

from __future__ import annotations

import pytest

from reportgen.grading.claim import claimed_rung, honest

#: claims that assert no gain: each reaches rung 2 only
NO_GAIN = [
    "The MLP does not beat gradient boosting.",
    "We found no evidence that the MLP is better.",
    "Lower log loss, but the difference is within noise.",
    "The MLP doesn't outperform the baseline on test log loss.",
    "The tanh MLP is not significantly more accurate than logistic regression.",
    "Neither model is better than the other on accuracy.",
    "The MLP might be slightly better than gradient boosting.",
    "The gain of 0.003 log loss could be due to chance.",
    "We could not show that tuning improves accuracy.",
    "The MLP has a higher AUC, although the difference is not statistically significant.",
    "It is unclear whether the MLP reduces the churn cost.",
    "There is no clear evidence that the candidate beats the baseline by 0.01.",
    "The MLP isn't better than gradient boosting by any margin we can measure.",
    "The candidate fails to beat the baseline on test.",
    "Gradient boosting and the MLP are comparable; the MLP is perhaps lower in log loss.",
    # hedges in a later clause or sentence
    "The MLP beats gradient boosting, although this might be noise.",
    "Lower log loss, but this may be noise.",
    "The MLP is better, but this could be chance.",
    "The MLP outperforms the baseline, although we cannot rule out noise.",
    "The MLP has a higher accuracy, but the interval includes zero.",
    "The MLP lowers log loss by 0.003, which is smaller than the seed noise.",
    "The MLP beats gradient boosting. This may just be chance.",
    "Tuning improves accuracy; chance has not been ruled out.",
]

#: claims that assert a gain (3), its size or worth (4) or its reach (5)
GAIN = [
    ("The MLP beats gradient boosting.", 3),
    ("Not only is the MLP faster, it is also more accurate.", 3),
    ("The MLP is without doubt better than gradient boosting.", 3),
    ("The candidate does not just match the baseline, it outperforms it.", 3),
    ("The MLP is better; the difference is not within noise.", 3),
    ("The MLP clearly beats the baseline, so the difference can't be chance.", 3),
    ("The MLP lowers log loss by 0.007.", 4),
    ("The MLP reduces the cost significantly.", 4),
    ("The MLP is no worse than gradient boosting on any slice and beats it overall.", 5),
    ("Tuning raises accuracy by 38 points without hurting anything else.", 5),
    ("Gradient boosting is worse than the MLP on every week.", 5),
    ("The MLP wins on log loss, and the gain is robust across weeks.", 5),
    # take-backs, negated or absent: still a claim
    ("The MLP did not fail to beat gradient boosting.", 3),
    ("The MLP never fails to beat gradient boosting.", 3),
    ("The MLP is better, and the interval does not include zero.", 3),
    ("The MLP is better; this could not be chance.", 3),
    ("The MLP is better; we can rule out noise.", 3),
    ("The MLP beats the baseline by more than the seed noise.", 3),
    ("The MLP beats gradient boosting. The difference is not within noise.", 3),
    ("The MLP is better; its interval +0.01 to +0.05 excludes zero.", 3),
    ("The MLP beats gradient boosting everywhere. This may be noise.", 5),
]


@pytest.mark.parametrize("text", NO_GAIN)
def test_a_negated_or_hedged_claim_reaches_rung_2(text):
    reach = claimed_rung(text)
    assert reach.rung == 2, reach
    assert reach.words, "feedback names the words that weakened it"
    # honest as soon as fairness is shown, and a student with rung 2 keeps the point
    assert honest(text, 2) and not honest(text, 1)


@pytest.mark.parametrize("text, rung", GAIN)
def test_a_claim_of_a_gain_still_reaches_its_rung(text, rung):
    reach = claimed_rung(text)
    assert reach.rung == rung, reach
    assert not honest(text, rung - 1)


def test_negation_and_within_noise_name_their_words():
    assert claimed_rung("The MLP does not beat gradient boosting").words == ("not",)
    assert "no evidence" in claimed_rung("We found no evidence that the MLP is better").words
    assert claimed_rung("Lower log loss, but the difference is within noise").words == (
        "within noise",
    )


def test_a_take_back_in_one_sentence_leaves_another_sentence_s_claim():
    # the second sentence takes nothing back from the first
    text = "The MLP beats gradient boosting on the shifted slice. Elsewhere they are tied."
    assert claimed_rung(text).rung == 3
    # a bounded claim beside a negated gain still claims rung 5
    assert claimed_rung("A is not better than B, and both are robust everywhere.").rung == 5


def test_hedges_in_a_later_clause_name_their_words():
    assert claimed_rung("The MLP is better, but this could be chance.").words == (
        "could be chance",
    )
    assert claimed_rung("Lower log loss, but this may be noise.").words == ("may be noise",)
    assert claimed_rung("A beats B, although we cannot rule out noise.").words == (
        "cannot rule out noise",
    )
    assert claimed_rung("A beats B, but the interval includes zero.").words == ("includes zero",)
    assert claimed_rung("A beats B by 0.003, smaller than the seed noise.").words == (
        "smaller than the seed noise",
    )


def test_at_least_ten_each_way():
    assert len(NO_GAIN) >= 10 and len(GAIN) >= 10
