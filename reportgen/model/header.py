"""report.json `header`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from reportgen.model.base import Model, key
from reportgen.model.enums import Kind, Repeats, Task, TaskSource


@dataclass(frozen=True, slots=True)
class Tool(Model):
    """report.tool"""

    name: Literal["evreport"]
    version: str


@dataclass(frozen=True, slots=True)
class Build(Model):
    """report.build"""

    date: str
    command: str
    libraries: dict[str, str | None]
    random_seed: int
    resamples: int
    confidence: float


@dataclass(frozen=True, slots=True)
class Project(Model):
    """report.project"""

    title: str
    author: str | None
    kind: Kind
    candidate: str
    baseline: str
    metric: str
    higher_is_better: bool
    claim: str
    block_column: str | None
    slice_column: str | None
    task: Task | None = key(
        "the task: [claim] task, else the one task every predictions file holds, else a regression metric's; null for a per-row column metric or question sets"
    )
    task_source: TaskSource | None
    unit: str | None = key("[claim] unit: what the target is counted in")
    repeats: Repeats
    display_names: dict[str, str]


@dataclass(frozen=True, slots=True)
class Input(Model):
    """report.inputs[]"""

    path: str
    sha256: str
    bytes: int
