"""report.json `regression`."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Model, key


@dataclass(frozen=True, slots=True)
class Target(Model):
    """report.regression.target"""

    rows: int
    mean: float
    sd: float | None
    min: float
    max: float


@dataclass(frozen=True, slots=True)
class Points(Model):
    """report.regression.role.points"""

    actual: tuple[float, ...]
    predicted: tuple[float, ...]
    shown: int


@dataclass(frozen=True, slots=True)
class BlockRow(Model):
    """report.regression.role.by_block[]"""

    block: str
    rows: int
    mse: float | None
    rmse: float | None
    mae: float | None
    r2: float | None
    mean_residual: float | None


@dataclass(frozen=True, slots=True)
class SliceRow(Model):
    """report.regression.role.by_slice[]"""

    slice: str
    rows: int
    mse: float | None
    rmse: float | None
    mae: float | None
    r2: float | None
    mean_residual: float | None


@dataclass(frozen=True, slots=True)
class RegressionSeed(Model):
    """report.regression.role.per_seed[]"""

    seed: int
    rows: int
    mse: float
    rmse: float
    mae: float
    r2: float
    mean_residual: float


@dataclass(frozen=True, slots=True)
class RegressionModel(Model):
    """report.regression.role"""

    seed: int
    rows: int
    mse: float | None
    rmse: float | None
    mae: float | None
    r2: float | None
    mean_residual: float | None
    points: Points
    by_block: tuple[BlockRow, ...] | None
    by_slice: tuple[SliceRow, ...] | None
    per_seed: tuple[RegressionSeed, ...]


@dataclass(frozen=True, slots=True)
class Regression(Model):
    """report.regression"""

    unit: str | None
    residual: str
    target: Target
    block_column: str | None
    slice_column: str | None
    candidate: RegressionModel = key("the candidate's figures")
    baseline: RegressionModel = key("the baseline's figures")
