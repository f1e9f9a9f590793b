"""Every number and noun a reader sees, one policy for report.json's sentences, the view's
tables, the batch index, feedback and the grade sheet.

    numbers.py   the formatters, by quantity; a missing value raises (sentences say what is missing)
    nouns.py     a count with its noun: user column names read as words, English plurals
    cells.py     the same formatters for table cells: a missing value is a dash

The policy, by quantity (the same digits for the same number, in a sentence and in a table):

    metric value (score, loss)     4 significant figures                  0.4474, 528.1
    logged against recomputed      7 significant figures (rung 1)         0.4474471
    a model's own interval         the decimals of its value at 4         0.4662 (0.4466 to 0.4859)
    (results)                      significant figures, unsigned
    gap with its interval          one decimal count for the three: 3     +0.0039 (−0.0039 to +0.0120)
                                   significant figures of the widest
    half-width of an interval      the interval's decimals                0.0092
    standard deviation             3 significant figures                  0.00517
    cost                           3 significant figures                  0.457, 85.8
    value in the target's units    the decimals of 3 significant figures  52.3 (sd 77.1), 2,913
    (regression residual, MAE,     of the target's test sd (of its square
    RMSE, prediction; an MSE)      for squared units): one count a table
    R², a class's recall           3 decimals, as a probability           0.612
    probability, threshold, rate   3 decimals                             0.315
    ratio (gap in seed sd)         3 significant figures, at most 2       +0.88, +49.9
                                   decimals; signed as a gap
    p-value                        3 decimals, "< 0.001" below            p = 0.037, p < 0.001
    posterior probability          3 decimals, "< 0.001" and "> 0.999"    P(better) = 0.031,
                                   at the ends                            P(worse) < 0.001
    variance term                  2 significant figures; below 0.001     0.0012, 5.4 × 10⁻⁶
                                   as a power of ten
    count                          integer, thousands separated           2,844
    percentage                     whole percent                          95%
    configured value               as written, with the metric's unit     0.005, 2, 0.5 kWh²
                                   when [claim] unit gives one
    rubric points                  as scored, at most 4 decimals          2, 1.5, −2

A typographic minus (U+2212) everywhere a number is printed, no sign on a rounded zero, both
ends of an interval signed. Fixed notation for everyday magnitudes; a value below 10⁻⁴ or
from 10¹⁵ on is a power of ten (1.2 × 10⁻⁵). A gap never is: its decimals stop at 6, so a gap
below 10⁻⁶ prints as a rounded zero (the float noise of two equal scores is no finding). An
exact zero drop (no change at all: `change`) prints as 0, never 0.00000.
"""

from __future__ import annotations

from reportgen.words.nouns import (
    blocks_phrase,
    count_noun,
    metric_label,
    metric_unit,
    noun,
    plural_noun,
    singular_noun,
)
from reportgen.words.numbers import (
    MINUS,
    MissingNumber,
    beside_logged,
    change,
    confidence,
    cost,
    count,
    date_text,
    decimals,
    file_size,
    fixed,
    full,
    gap,
    gap_decimals,
    gap_with_interval,
    given,
    half_width,
    interval,
    metric,
    p_text,
    pct,
    points,
    points_value,
    posterior,
    posterior_text,
    power_of_ten,
    prob,
    pvalue,
    quantity,
    ratio,
    seconds,
    sig,
    spread,
    target,
    target_decimals,
    variance,
    with_sign,
)

__all__ = [
    "MINUS",
    "MissingNumber",
    "beside_logged",
    "blocks_phrase",
    "change",
    "confidence",
    "cost",
    "count",
    "count_noun",
    "date_text",
    "decimals",
    "fixed",
    "full",
    "gap",
    "gap_decimals",
    "gap_with_interval",
    "given",
    "half_width",
    "interval",
    "metric",
    "metric_label",
    "metric_unit",
    "noun",
    "p_text",
    "file_size",
    "pct",
    "plural_noun",
    "points",
    "points_value",
    "posterior",
    "posterior_text",
    "power_of_ten",
    "prob",
    "pvalue",
    "quantity",
    "ratio",
    "seconds",
    "sig",
    "spread",
    "singular_noun",
    "target",
    "target_decimals",
    "variance",
    "with_sign",
]
