"""The Wilson score interval of a proportion (methods.md section 6), at the configured confidence."""

import math

import pytest
from statsmodels.stats.proportion import proportion_confint

from reportgen.stats._util import z_value
from reportgen.stats.proportions import wilson

CASES = [
    (0, 1),
    (1, 1),
    (0, 5),
    (5, 5),
    (1, 3),
    (2, 3),
    (7, 20),
    (45, 866),
    (430, 979),
    (1, 10_000),
]


@pytest.mark.parametrize("confidence", [0.95, 0.8])
@pytest.mark.parametrize(("k", "n"), CASES)
def test_wilson_equals_statsmodels(k, n, confidence):
    ref = proportion_confint(k, n, alpha=1 - confidence, method="wilson")
    assert wilson(k, n, confidence) == pytest.approx(ref, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("confidence", [0.95, 0.8])
def test_wilson_closed_form_at_the_ends(confidence):
    # all positive: [n / (n + z^2), 1]; none positive: [0, z^2 / (n + z^2)]
    z2 = z_value(confidence) ** 2
    for n in (1, 2, 7, 50):
        assert wilson(n, n, confidence) == pytest.approx((n / (n + z2), 1.0), rel=1e-12)
        assert wilson(0, n, confidence) == pytest.approx((0.0, z2 / (n + z2)), rel=1e-12)


def test_wilson_hand_worked_one_of_four_at_95():
    # p = 1/4, z^2 = 3.8414588..., centre (0.25 + z^2/8) / (1 + z^2/4), half-width
    # z sqrt(0.25 * 0.75 / 4 + z^2 / 64) / (1 + z^2/4)
    z = 1.959963984540054
    assert z_value(0.95) == pytest.approx(z, rel=1e-15)  # not 1.96
    centre = (0.25 + z * z / 8) / (1 + z * z / 4)
    half = z * math.sqrt(0.25 * 0.75 / 4 + z * z / 64) / (1 + z * z / 4)
    low, high = wilson(1, 4, 0.95)
    assert (low, high) == pytest.approx((centre - half, centre + half), rel=1e-14)
    assert (low, high) == pytest.approx((0.0455873, 0.6993582), abs=1e-7)


def test_wilson_small_bins_are_wide_and_narrower_at_lower_confidence():
    low, high = wilson(2, 3, 0.95)  # 2 of 3: the interval spans most of [0, 1]
    assert low < 0.25 and high > 0.9 and high - low > 0.6
    low80, high80 = wilson(2, 3, 0.8)
    assert low < low80 < 2 / 3 < high80 < high


def test_wilson_refuses_bad_input():
    with pytest.raises(ValueError, match="n=0"):
        wilson(0, 0, 0.95)
    with pytest.raises(ValueError, match="successes=4"):
        wilson(4, 3, 0.95)
    with pytest.raises(ValueError, match="confidence=1.0"):
        wilson(1, 3, 1.0)
