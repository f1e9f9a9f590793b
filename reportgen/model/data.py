"""report.json ``data``, ``comparisons`` and ``warnings``."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Model, key
from reportgen.model.common import IntPair, SeedLists
from reportgen.model.enums import DiagnosisKind, Severity


@dataclass(frozen=True, slots=True)
class Configs(Model):
    """The config of each model (None when the run log has none)."""

    candidate: str | None = key("the candidate's config, or null")
    baseline: str | None = key("the baseline's config, or null")


@dataclass(frozen=True, slots=True)
class CvData(Model):
    """``data.cv``: what was cross-validated."""

    rows: int | None = key("rows cross-validated, or null")
    repeats: int = key("repeats")
    folds: int = key("folds")
    fold_gaps: int = key("fold gaps")
    folds_file: str | None = key("the folds file, or null")
    seeds: SeedLists = key("seed labels per model")
    configs: Configs = key("the config of each model")


@dataclass(frozen=True, slots=True)
class Data(Model):
    """``data``: what was measured: parts, blocks, seeds and configs."""

    parts: dict[str, int] = key("part name -> rows")
    block_column: str | None = key("the block column, or null")
    blocks: int | None = key("test blocks, or null")
    first_block: str | None = key("the first block, or null")
    last_block: str | None = key("the last block, or null")
    test_rows: int | None = key("test rows, or null")
    seeds: SeedLists = key("seed labels per model")
    configs: Configs = key("the config of each model")
    rows_not_shared: IntPair | None = key("test rows per model the other lacks, or null")
    cv: CvData | None = key(
        "what was cross-validated; absent in the split design", omit_if_none=True
    )


@dataclass(frozen=True, slots=True)
class Diagnosis(Model):
    """Why a logged value disagrees with the recomputed one, as far as rounding can tell."""

    kind: DiagnosisKind = key("the likely cause")
    bound: float = key("the largest difference rounding can explain")
    text: str = key("the diagnosis in words")


@dataclass(frozen=True, slots=True)
class Comparison(Model):
    """One entry of ``comparisons``: a logged run-log value beside the value recomputed from its predictions (rung 1)."""

    model: str = key("the model")
    seed: int = key("the seed")
    split: str = key("test, validation or fold")
    logged: float = key("the logged value")
    logged_text: str | None = key(
        "the logged value as written; absent in a cv design", omit_if_none=True
    )
    recomputed: float = key("the value recomputed from the predictions")
    agree: bool = key("they agree")
    cite: str = key("the run-log line: runs.csv:14")
    predictions: str = key("the predictions file")
    repeat: int | None = key("cv design: the repeat; absent otherwise", omit_if_none=True)
    fold: int | None = key("cv design: the fold; absent otherwise", omit_if_none=True)
    diagnosis: Diagnosis | None = key(
        "why they disagree; absent when they agree", omit_if_none=True
    )


@dataclass(frozen=True, slots=True)
class ReportWarning(Model):
    """One entry of ``warnings``: a non-fatal input finding."""

    path: str | None = key("the file, or null for the project")
    line: int | None = key("the line, or null")
    column: int | None = key("the column, or null")
    severity: Severity = key("warning (or error)")
    slug: str = key("its identifier")
    message: str = key("the finding in words")
