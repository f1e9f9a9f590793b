"""Narrowing what a step before has made sure of: a seed's test predictions, a kind's arrays.

Predictions hold ``proba`` (multi-class), ``y_pred`` (regression) and the rest as optional
fields, one set per kind; select_runs and representative() keep only seeds whose predictions
are of the kind a section reads. These helpers say so to the type checker, and fail loudly
(an internal error, never bad input) if that ever stops being true.
"""

from __future__ import annotations

from typing import TypeVar

from reportgen.checks.select import SeedRun
from reportgen.project.predictions import Predictions

T = TypeVar("T")


def required(value: T | None, what: str) -> T:
    """``value``, which an earlier step guarantees is there."""
    if value is None:
        raise AssertionError(f"internal error: {what} is missing")
    return value


def test_of(s: SeedRun) -> Predictions:
    """The test predictions of a seed chosen for having them."""
    return required(s.test_pred, f"the test predictions of seed {s.seed}")


def threshold_of(s: SeedRun) -> float:
    """The seed's decision threshold (select_runs sets one on every seed it keeps)."""
    return required(s.threshold, f"the threshold of seed {s.seed}")
