"""report.json ``tool``, ``build``, ``project`` and ``inputs``: what was built from what."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from reportgen.model.base import Model, key
from reportgen.model.enums import Kind, Repeats, Task, TaskSource


@dataclass(frozen=True, slots=True)
class Tool(Model):
    """``tool``: the program that wrote the report."""

    name: Literal["evreport"] = key("always evreport")
    version: str = key("the evreport version")


@dataclass(frozen=True, slots=True)
class Build(Model):
    """``build``: when and how the report was built."""

    date: str = key("the UTC day of the build, or of SOURCE_DATE_EPOCH when set")
    command: str = key("the command line that built it")
    libraries: dict[str, str | None] = key(
        "library name -> installed version, null when not installed"
    )
    random_seed: int = key("seed of every bootstrap generator")
    resamples: int = key("bootstrap resamples")
    confidence: float = key("the confidence level of every interval")
    inputs_sha256: str = key(
        "one SHA-256 over every input file: of the lines sha256sum prints for them, sorted by "
        "path in byte order"
    )


@dataclass(frozen=True, slots=True)
class Project(Model):
    """``project``: what was compared, from evreport.toml and the predictions."""

    title: str = key("the project's title")
    author: str | None = key("its author, or null")
    kind: Kind = key("the kind of comparison")
    candidate: str = key("the candidate model's name")
    baseline: str = key("the baseline model's name")
    metric: str = key("the claim's metric")
    higher_is_better: bool = key("a larger metric is better")
    claim: str = key("the claim text as written")
    block_column: str | None = key("the block column, or null")
    slice_column: str | None = key("the slice column, or null")
    task: Task | None = key(
        "the task: [claim] task, else the one task every predictions file holds, else a regression metric's; null for a per-row column metric or question sets"
    )
    task_source: TaskSource | None = key("where the task was read, or null with no task")
    unit: str | None = key("[claim] unit: what the target is counted in")
    repeats: Repeats = key("what the repeated runs are: [evaluation] repeats")
    display_names: dict[str, str] = key(
        "model name -> the name the page prints ([models]); {} without"
    )


@dataclass(frozen=True, slots=True)
class Input(Model):
    """One entry of ``inputs``: a file the build read."""

    path: str = key("the file's path in the project")
    sha256: str = key("its SHA-256")
    bytes: int = key("its size in bytes")
