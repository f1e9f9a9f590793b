"""report.json `data`."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Model, key
from reportgen.model.common import IntPair, SeedLists, StrPair
from reportgen.model.enums import DiagnosisKind, Severity


@dataclass(frozen=True, slots=True)
class Configs(Model):
    """report.data.configs"""

    candidate: str | None
    baseline: str | None


@dataclass(frozen=True, slots=True)
class CvData(Model):
    """report.data.cv"""

    rows: int | None
    repeats: int
    folds: int
    fold_gaps: int
    folds_file: str | None
    seeds: SeedLists
    configs: StrPair


@dataclass(frozen=True, slots=True)
class Data(Model):
    """report.data"""

    parts: dict[str, int]
    block_column: str | None
    blocks: int | None
    first_block: str | None
    last_block: str | None
    test_rows: int | None
    seeds: SeedLists
    configs: Configs
    rows_not_shared: IntPair | None
    cv: CvData | None = key("", omit_if_none=True)


@dataclass(frozen=True, slots=True)
class Diagnosis(Model):
    """report.comparisons[].diagnosis"""

    kind: DiagnosisKind
    bound: float
    text: str


@dataclass(frozen=True, slots=True)
class Comparison(Model):
    """report.comparisons[]"""

    model: str
    seed: int
    split: str
    logged: float
    logged_text: str | None = key("", omit_if_none=True)
    recomputed: float
    agree: bool
    cite: str
    predictions: str
    repeat: int | None = key("", omit_if_none=True)
    fold: int | None = key("", omit_if_none=True)
    diagnosis: Diagnosis | None = key("", omit_if_none=True)


@dataclass(frozen=True, slots=True)
class ReportWarning(Model):
    """report.warnings[]"""

    path: str | None
    line: int | None
    column: int | None
    severity: Severity
    slug: str
    message: str
