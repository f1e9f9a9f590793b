"""The data section of report.json: what was measured (parts, blocks, seeds, configs)."""

from __future__ import annotations

from typing import Any

from reportgen.checks.select import ModelRuns
from reportgen.model.common import IntPair, SeedLists
from reportgen.model.data import Configs, Data
from reportgen.project import Project


def data_section(project: Project, cand: ModelRuns, base: ModelRuns, ev: Any) -> Data:
    """Rows per part, the analysed seeds and configs; blocks and test rows when ``ev`` is given."""
    m = project.manifest
    parts = (
        {f.part: f.actual_rows if f.actual_rows is not None else f.rows for f in m.files}
        if m
        else {k: len(v) for k, v in project.split_frames.items()}
    )
    return Data(
        parts=parts,
        block_column=project.config.block,
        blocks=None if ev is None else len(ev.blocks),
        first_block=None if ev is None else ev.blocks[0],
        last_block=None if ev is None else ev.blocks[-1],
        test_rows=None if ev is None else int(len(ev.row_ids)),
        seeds=SeedLists(
            candidate=tuple(s.seed for s in cand.seeds),
            baseline=tuple(s.seed for s in base.seeds),
        ),
        configs=Configs(candidate=cand.config, baseline=base.config),
        rows_not_shared=None if ev is None else IntPair(**ev.dropped),
        cv=None,
    )
