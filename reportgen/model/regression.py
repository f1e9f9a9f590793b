"""report.json ``regression``: a regression task's figures per model."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Model, key


@dataclass(frozen=True, slots=True)
class Target(Model):
    """The test target's summary."""

    rows: int = key("test rows")
    mean: float = key("its mean")
    sd: float | None = key("its sample sd (ddof 1), or null with one row")
    min: float = key("its minimum")
    max: float = key("its maximum")


@dataclass(frozen=True, slots=True)
class Points(Model):
    """Actual against predicted, at most 500 rows evenly spaced in the order of y."""

    actual: tuple[float, ...] = key("actual values")
    predicted: tuple[float, ...] = key("predicted values")
    shown: int = key("rows shown")


@dataclass(frozen=True, slots=True)
class BlockRow(Model):
    """One block's regression figures."""

    block: str = key("the block")
    rows: int = key("rows")
    mse: float | None = key("mean squared error, or null")
    rmse: float | None = key("root mean squared error, or null")
    mae: float | None = key("mean absolute error, or null")
    r2: float | None = key("R², or null")
    mean_residual: float | None = key("the mean residual, or null")


@dataclass(frozen=True, slots=True)
class SliceRow(Model):
    """One slice's regression figures."""

    slice: str = key("the slice")
    rows: int = key("rows")
    mse: float | None = key("mean squared error, or null")
    rmse: float | None = key("root mean squared error, or null")
    mae: float | None = key("mean absolute error, or null")
    r2: float | None = key("R², or null")
    mean_residual: float | None = key("the mean residual, or null")


@dataclass(frozen=True, slots=True)
class RegressionSeed(Model):
    """One seed's regression figures."""

    seed: int = key("the seed")
    rows: int = key("rows")
    mse: float = key("mean squared error, or null")
    rmse: float = key("root mean squared error, or null")
    mae: float = key("mean absolute error, or null")
    r2: float = key("R², or null")
    mean_residual: float = key("the mean residual, or null")


@dataclass(frozen=True, slots=True)
class RegressionModel(Model):
    """One model's regression figures (``regression.<model>``)."""

    seed: int = key("the representative seed")
    rows: int = key("rows")
    mse: float | None = key("mean squared error, or null")
    rmse: float | None = key("root mean squared error, or null")
    mae: float | None = key("mean absolute error, or null")
    r2: float | None = key("R², or null")
    mean_residual: float | None = key("the mean residual, or null")
    points: Points = key("actual against predicted")
    by_block: tuple[BlockRow, ...] | None = key("per block; null without a block column")
    by_slice: tuple[SliceRow, ...] | None = key("per slice; null without a slice column")
    per_seed: tuple[RegressionSeed, ...] = key("every seed")


@dataclass(frozen=True, slots=True)
class Regression(Model):
    """``regression``: a regression task's figures per model, one representative network on test."""

    unit: str | None = key("[claim] unit, or null")
    residual: str = key("what a residual is, in words")
    target: Target = key("the test target")
    block_column: str | None = key("the block column, or null")
    slice_column: str | None = key("the slice column, or null")
    candidate: RegressionModel = key("the candidate's figures")
    baseline: RegressionModel = key("the baseline's figures")
