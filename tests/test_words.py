"""reportgen.words: every formatter against hand-written strings, and the properties of the policy.

The table is the policy (docs/report.md, "Numbers and words"): a change to a rule changes a row
here, deliberately.
"""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given as for_all
from hypothesis import strategies as st

from reportgen import words as w
from reportgen.words import cells

M = "\u2212"  # the typographic minus
INF, NAN = math.inf, math.nan

#: (formatter, arguments, keyword arguments, the string a reader sees)
TABLE = [
    # fixed decimals, thousands, minus, negative zero, infinity
    (w.fixed, (0.0085, 4), {}, "0.0085"),
    (w.fixed, (-0.006, 4), {}, f"{M}0.0060"),
    (w.fixed, (-0.00001, 4), {}, "0.0000"),  # no sign on a rounded zero
    (w.fixed, (-0.0, 2), {}, "0.00"),  # negative zero
    # a drop: an exact zero is no change at all, never 0.00000
    (w.change, (0.0, 5), {}, "0"),
    (w.change, (-0.0, 5), {}, "0"),
    (w.change, (0.0123, 3), {}, "0.012"),
    (w.change, (1e-9, 5), {}, "0.00000"),  # float noise is a rounded zero, not an exact one
    (w.fixed, (2600, 0), {}, "2,600"),
    (w.fixed, (-1234.5, 1), {}, f"{M}1,234.5"),
    (w.fixed, (INF, 2), {}, "∞"),
    (w.fixed, (-INF, 2), {}, f"{M}∞"),
    # metric values: 4 significant figures
    (w.metric, (0.447447,), {}, "0.4474"),
    (w.metric, (12.3456,), {}, "12.35"),
    (w.metric, (528.06,), {}, "528.1"),
    (w.metric, (18647.9,), {}, "18,648"),
    (w.metric, (0.99995,), {}, "1.000"),  # the rounding carries: 1.000, not 1.0000
    (w.metric, (0.99994,), {}, "0.9999"),
    (w.metric, (0.00012346,), {}, "0.0001235"),
    (w.metric, (1e-9,), {}, "1.000 × 10⁻⁹"),  # tiny: a power of ten, never 1e-09
    (w.metric, (2.5e15,), {}, "2.500 × 10¹⁵"),  # huge
    (w.metric, (123456789.0,), {}, "123,456,789"),
    (w.metric, (0.0,), {}, "0"),
    (w.metric, (-0.0,), {}, "0"),
    (w.full, (0.44744712345,), {}, "0.4474471"),
    (w.full, (0.4095,), {}, "0.4095000"),
    # costs, spreads: 3 significant figures
    (w.cost, (85.7946,), {}, "85.8"),
    (w.cost, (0.456962,), {}, "0.457"),
    (w.cost, (8,), {}, "8.00"),
    (w.cost, (1716.4,), {}, "1,716"),
    (w.spread, (0.0051749,), {}, "0.00517"),
    (w.spread, (0.0,), {}, "0"),
    # probabilities and thresholds: 3 decimals
    (w.prob, (0.26912,), {}, "0.269"),
    (w.prob, (1,), {}, "1.000"),
    (w.prob, (-0.0001,), {}, "0.000"),
    # ratios: 3 significant figures, at most 2 decimals, signed when a gap
    (w.ratio, (49.92,), {"signed": True}, "+49.9"),
    (w.ratio, (52.33,), {}, "52.3"),
    (w.ratio, (523.3,), {"signed": True}, "+523"),
    (w.ratio, (-1.449,), {"signed": True}, f"{M}1.45"),
    (w.ratio, (9.996,), {"signed": True}, "+10.0"),
    (w.ratio, (0.875,), {}, "0.88"),
    (w.ratio, (0.875,), {"signed": True}, "+0.88"),
    (w.ratio, (-0.7,), {"signed": True}, f"{M}0.70"),
    (w.ratio, (-0.001,), {"signed": True}, "0.00"),
    (w.given, (0.5, "kWh²"), {}, "0.5 kWh²"),
    (w.given, (0.5, None), {}, "0.5"),
    (w.metric_unit, ("kWh",), {"power": 2}, "kWh²"),
    (w.metric_unit, ("kWh",), {"power": 1}, "kWh"),
    (w.metric_unit, ("kWh",), {"power": 0}, None),
    (w.metric_unit, (None,), {"power": 2}, None),
    (w.ratio, (-2.3e-15,), {"signed": True}, "0.00"),
    # variance terms: a power of ten below 0.001
    (w.variance, (5.4e-6,), {}, "5.4 × 10⁻⁶"),
    (w.variance, (1e-5,), {}, "1.0 × 10⁻⁵"),
    (w.variance, (1.7e-4,), {}, "1.7 × 10⁻⁴"),
    (w.variance, (0.0012,), {}, "0.0012"),
    (w.variance, (2.5,), {}, "2.5"),
    (w.variance, (0.0,), {}, "0"),
    (w.power_of_ten, (1e-6, 1), {}, "1 × 10⁻⁶"),
    (w.power_of_ten, (-2.5e20,), {}, f"{M}2.5 × 10²⁰"),
    (w.power_of_ten, (0.0,), {}, "0"),
    # signed numbers and gaps: one decimal count for a gap and its interval
    (w.with_sign, (0.0085, 4), {}, "+0.0085"),
    (w.with_sign, (-0.0104, 4), {}, f"{M}0.0104"),
    (w.with_sign, (0.00001, 4), {}, "0.0000"),
    (w.with_sign, (-0.0, 2), {}, "0.00"),
    (w.gap, (0.0039, -0.0039, 0.0120), {}, "+0.0039"),
    (w.gap, (-0.00698, -0.0154, 0.0020), {}, f"{M}0.0070"),
    (w.gap, (0.00435,), {}, "+0.00435"),
    (w.gap, (-2.78e-17,), {}, "0.000000"),  # float noise: a rounded zero at 6 decimals
    (w.gap, (1.5e9, 1e9, 2e9), {}, "+1,500,000,000"),
    (w.interval, (-0.0039, 0.0120), {}, f"{M}0.0039 to +0.0120"),
    (w.interval, (0.0029, 0.0139), {}, "+0.0029 to +0.0139"),
    (w.interval, (-0.0051, 0.0116), {"digits": 4}, f"{M}0.0051 to +0.0116"),
    (w.interval, (182.9459, 877.4432, 305.351), {}, "+183 to +877"),
    (w.gap_with_interval, (-0.00698, -0.0154, 0.0020), {}, f"{M}0.0070 ({M}0.0154 to +0.0020)"),
    (w.gap_with_interval, (0.398, 0.344, 0.45), {}, "+0.398 (+0.344 to +0.450)"),
    (w.gap_with_interval, (305.351, 182.9459, 877.4432), {}, "+305 (+183 to +877)"),
    (w.gap_with_interval, (1e-9, -2e-9, 4e-9), {}, "0.000000 (0.000000 to 0.000000)"),
    (w.half_width, (0.0092, -0.0051, 0.0116), {}, "0.0092"),  # not "0.01" beside ±0.0092
    (w.gap_decimals, (0.0039, -0.0039, 0.0120), {}, 4),
    (w.decimals, (0.99995,), {"sig": 4}, 3),
    (w.decimals, (1e-12,), {}, 6),
    (w.decimals, (None, INF), {}, 2),
    # counts, percentages, p-values, configured values, points
    (w.count, (2844,), {}, "2,844"),
    (w.count, (200.0,), {}, "200"),
    (w.count, (1,), {}, "1"),
    (w.count, (-3,), {}, f"{M}3"),
    (w.pct, (0.95,), {}, "95%"),
    (w.pct, (0.356,), {}, "36%"),
    (w.pct, (-0.001,), {}, "0%"),
    (w.confidence, (0.95,), {}, "95%"),
    (w.confidence, (0.975,), {}, "97.5%"),
    (w.confidence, (0.9,), {}, "90%"),
    (w.pvalue, (0.0004,), {}, "< 0.001"),
    (w.pvalue, (0.001,), {}, "0.001"),
    (w.pvalue, (0.0371,), {}, "0.037"),
    (w.pvalue, (1.0,), {}, "1.000"),
    (w.p_text, (0.0371,), {}, "p = 0.037"),
    (w.p_text, (0.0004,), {}, "p < 0.001"),
    # posterior probabilities: 3 decimals, never a rounded 0.000 or 1.000 that is not 0 or 1
    (w.posterior, (0.969337,), {}, "0.969"),
    (w.posterior, (6.59e-05,), {}, "< 0.001"),
    (w.posterior, (0.0005,), {}, "0.001"),
    (w.posterior, (0.99996,), {}, "> 0.999"),
    (w.posterior, (0.9994,), {}, "0.999"),
    (w.posterior, (0.0,), {}, "0.000"),
    (w.posterior, (1.0,), {}, "1.000"),
    (w.posterior_text, ("better", 0.0306), {}, "P(better) = 0.031"),
    (w.posterior_text, ("worse", 6.59e-05), {}, "P(worse) < 0.001"),
    (w.posterior_text, ("equivalent", 0.99996), {}, "P(equivalent) > 0.999"),
    (cells.posterior, (6.59e-05,), {}, "<\u00a00.001"),
    (cells.posterior, (None,), {}, "—"),
    (w.given, (0.005,), {}, "0.005"),
    (w.given, (2.0,), {}, "2"),
    (w.given, (-1.5,), {}, f"{M}1.5"),
    (w.given, (-0.005,), {}, f"{M}0.005"),
    (w.given, (1e-05,), {}, "0.00001"),
    (w.given, (10000,), {}, "10,000"),
    (w.quantity, (25.0,), {}, "25"),
    (w.quantity, (0,), {}, "0"),
    (w.quantity, (0.875,), {}, "0.875"),
    (w.points, (2.0,), {}, "2"),
    (w.points, (1.5,), {}, "1.5"),
    (w.points, (-2,), {}, f"{M}2"),
    (w.points, (-0.00001,), {}, "0"),
    (w.points, (1 / 3,), {}, "0.3333"),
    (w.points_value, (2.0,), {}, 2),
    (w.points_value, (-0.0,), {}, 0),
    (w.points_value, (1 / 3,), {}, 0.3333),
    (w.points_value, (-1.5,), {}, -1.5),
    (w.seconds, (12.345,), {}, "12.3"),
    # nouns after counts
    (w.count_noun, (30, "visit_month"), {}, "30 visit months"),
    (w.count_noun, (45, "batch"), {}, "45 batches"),
    (w.count_noun, (12, "city"), {}, "12 cities"),
    (w.count_noun, (1, "week"), {}, "1 week"),
    (w.count_noun, (1, "weeks"), {}, "1 week"),
    (w.count_noun, (2844, "row"), {}, "2,844 rows"),
    (w.count_noun, (1.0, "row"), {}, "1 row"),
    (w.count_noun, (400, "block"), {"adjective": "single-row"}, "400 single-row blocks"),
    (w.count_noun, (5, "seed"), {"adjective": "mlp_v2"}, "5 mlp_v2 seeds"),
    (w.blocks_phrase, (30, "week"), {}, "30 weeks"),
    (w.blocks_phrase, (1, None), {}, "1 row"),
    (w.blocks_phrase, (400, None), {}, "400 rows"),
    (w.plural_noun, ("person",), {}, "people"),
    (w.plural_noun, ("analysis",), {}, "analyses"),
    (w.plural_noun, ("class",), {}, "classes"),
    (w.plural_noun, ("store_id",), {}, "store ids"),
    (w.plural_noun, ("ID",), {}, "IDs"),
    (w.plural_noun, ("days",), {}, "days"),
    (w.singular_noun, ("cities",), {}, "city"),
    (w.singular_noun, ("batches",), {}, "batch"),
    (w.noun, ("visit_month",), {}, "visit month"),
    # table cells: a dash for what is missing, "< 0.001" never breaks
    (cells.metric, (None,), {}, "—"),
    (cells.metric, (NAN,), {}, "—"),
    (cells.count, (None,), {}, "—"),
    (cells.ratio, (None,), {"signed": True}, "—"),
    (cells.interval, (None, 0.1), {}, "—"),
    (cells.interval, (0.0029, 0.0139), {}, "+0.0029 to +0.0139"),
    (cells.gap_with_interval, (0.01, None, None), {}, "+0.0100"),
    (cells.gap_with_interval, (None, 0.0, 1.0), {}, "—"),
    (cells.pvalue, (0.0004,), {}, "<\u00a00.001"),
    (cells.pvalue, (0.0294,), {}, "0.029"),
    (cells.pvalue, (None,), {}, "—"),
    (cells.points, (-2,), {}, f"{M}2"),
    (cells.yes_no, (True,), {}, "yes"),
    (cells.yes_no, (None,), {}, "—"),
    (cells.passed_word, (None,), {}, ("not checked", "neutral")),
    (cells.passed_word, (False,), {}, ("fail", "not-shown")),
    (cells.timestamp, ("2026-03-03T10:00:00+01:00",), {}, "2026-03-03T09:00:00Z"),
    (cells.timestamp, ("2026-12-01",), {}, "2026-12-01"),
    (
        cells.timestamps_in,
        ("frozen 2026-03-02T09:00:00Z, before (2026-03-03T09:00:00+00:00)",),
        {},
        "frozen 2026-03-02T09:00:00Z, before (2026-03-03T09:00:00Z)",
    ),
]


@pytest.mark.parametrize(
    "fmt,args,kwargs,want", TABLE, ids=[f"{f.__name__}{a}" for f, a, _, _ in TABLE]
)
def test_formatter(fmt, args, kwargs, want):
    assert fmt(*args, **kwargs) == want


#: formatters a sentence uses: each refuses a missing number (the caller says what is missing)
STRICT = [
    w.fixed,
    w.metric,
    w.full,
    w.cost,
    w.spread,
    w.prob,
    w.ratio,
    w.variance,
    w.gap,
    w.count,
    w.pct,
    w.confidence,
    w.pvalue,
    w.p_text,
    w.posterior,
    w.given,
    w.quantity,
    w.points,
    w.seconds,
]


@pytest.mark.parametrize("fmt", STRICT, ids=lambda f: f.__name__)
@pytest.mark.parametrize("missing", [None, NAN], ids=["None", "nan"])
def test_a_sentence_never_prints_a_missing_number(fmt, missing):
    args = (missing, 2) if fmt is w.fixed else (missing,)
    with pytest.raises(w.MissingNumber, match="missing|NaN"):
        fmt(*args)


def test_missing_interval_ends_and_counts_raise():
    with pytest.raises(w.MissingNumber):
        w.interval(None, 0.1)
    with pytest.raises(w.MissingNumber):
        w.count_noun(None, "row")
    with pytest.raises(ValueError, match="not a whole number"):
        w.count(2.5)
    with pytest.raises(TypeError, match="boolean"):
        w.metric(True)


def test_a_gap_and_its_interval_print_the_same_digits_in_a_sentence_and_a_table():
    low, high, gap = -0.0051, 0.0116, 0.00326
    assert w.gap_with_interval(gap, low, high) == cells.gap_with_interval(gap, low, high)
    assert w.gap_with_interval(gap, low, high) == f"+0.0033 ({M}0.0051 to +0.0116)"


# properties -------------------------------------------------------------------------------

finite = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False)
NUMBER = re.compile(r"^([+\u2212]?)([\d,]+)(?:\.(\d+))?$")


def _read(text: str) -> tuple[float, int]:
    """A printed fixed-point number back as (value, decimals printed)."""
    m = NUMBER.match(text)
    assert m, text
    sign = -1.0 if m.group(1) == M else 1.0
    digits = m.group(3) or ""
    return sign * float(m.group(2).replace(",", "") + ("." + digits if digits else "")), len(digits)


@for_all(finite, finite, finite)
def test_interval_ends_round_trip_within_half_a_unit(a, b, c):
    low, point, high = sorted((a, b, c))
    text = w.interval(low, high, point)
    ends = text.split(" to ")
    assert len(ends) == 2, text
    for printed, true in zip(ends, (low, high), strict=True):
        value, d = _read(printed)
        assert abs(value - true) <= 0.5 * 10.0**-d * (1 + 1e-9) + abs(true) * 1e-15, (text, true)
    gap_text = w.gap(point, low, high)
    assert _read(gap_text)[1] == _read(ends[0])[1]  # one decimal count for the three


@for_all(finite, st.integers(min_value=0, max_value=6))
def test_signed_numbers_start_with_a_sign_or_are_a_bare_zero(x, digits):
    for text in (w.with_sign(x, digits), w.gap(x), w.ratio(x, signed=True)):
        assert text[0] in "+" + M or text.strip("0.,") == "", text
        assert "-" not in text  # never an ASCII hyphen-minus


@for_all(st.one_of(finite, st.floats(min_value=-1e-3, max_value=1e-3)))
def test_formatting_is_deterministic_and_never_writes_an_exponent(x):
    fmts = [w.metric, w.cost, w.spread, w.prob, w.variance, w.gap, w.full, w.given]
    for fmt in fmts:
        first = fmt(x)
        assert first == fmt(x)
        assert not re.search(r"\de[-+]?\d|-", first), (fmt.__name__, x, first)


def test_words_is_a_leaf_every_layer_can_use():
    """reportgen.words imports nothing else of reportgen, so checks, view, batch and grading
    can all use it without a cycle."""
    from tests.test_import_graph import import_graph

    graph = import_graph()
    mods = [m for m in graph if m == "reportgen.words" or m.startswith("reportgen.words.")]
    # __init__, catalog, cells, i18n, intervals, nouns, numbers, reasons, repeats, rungs
    assert len(mods) == 10
    for m in mods:
        assert {d for d in graph[m] if not d.startswith("reportgen.words")} == set(), m


@pytest.mark.parametrize(
    "n,text",
    [
        (0, "0 bytes"),
        (1, "1 byte"),
        (999, "999 bytes"),
        (1000, "1.00 kB"),
        (4096, "4.10 kB"),
        (99_949, "99.9 kB"),
        (99_950, "100 kB"),
        (999_499, "999 kB"),
        (999_500, "1.00 MB"),
        (1_286_031, "1.29 MB"),
        (12_400_000, "12.4 MB"),
        (3_200_000_000, "3.20 GB"),
    ],
)
def test_file_size_in_decimal_units_with_three_figures(n, text):
    assert w.file_size(n) == text


@pytest.mark.parametrize(
    ("recomputed", "logged", "agree", "want"),
    [
        # agreeing values read alike: the logged value's own decimals (issue 31: "0.86" beside
        # "0.8600000")
        (0.86, "0.86", True, "0.86"),
        (0.8600000004, "0.86", True, "0.86"),
        (0.4733333333, "0.4733333", True, "0.4733333"),
        (0.824, "0.8240", True, "0.8240"),
        (8.6e-05, "8.6e-05", True, "0.000086"),
        (12.0, "12", True, "12"),
        # disagreeing: the fewest decimals beyond the logged ones that show the difference
        (0.2904, "0.290", False, "0.2904"),
        (0.70, "0.29", False, "0.70"),
        (0.29000312, "0.29", False, "0.290003"),
        # no number as written, or not compared: 7 significant figures
        (0.86, None, True, "0.8600000"),
        (0.86, "n/a", True, "0.8600000"),
        (0.86, "0.86", None, "0.8600000"),
    ],
)
def test_a_recomputed_value_has_the_logged_values_decimals(recomputed, logged, agree, want):
    assert w.beside_logged(recomputed, logged, agree) == want
    assert cells.beside_logged(None, logged, agree) == cells.DASH
