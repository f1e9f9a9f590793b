"""The data section of report.json: what was measured (parts, blocks, seeds, configs)."""

from __future__ import annotations

from reportgen.project import Project


def data_section(project: Project, cand, base, ev) -> dict:
    """Rows per part, the analysed seeds and configs; blocks and test rows when ``ev`` is given."""
    m = project.manifest
    parts = (
        {f.part: f.actual_rows if f.actual_rows is not None else f.rows for f in m.files}
        if m
        else {k: len(v) for k, v in project.split_frames.items()}
    )
    out = {
        "parts": parts,
        "block_column": project.config.block,
        "blocks": None,
        "first_block": None,
        "last_block": None,
        "test_rows": None,
        "seeds": {
            "candidate": [s.seed for s in cand.seeds],
            "baseline": [s.seed for s in base.seeds],
        },
        "configs": {"candidate": cand.config, "baseline": base.config},
        "rows_not_shared": None,
    }
    if ev is not None:
        out.update(
            blocks=len(ev.blocks),
            first_block=ev.blocks[0],
            last_block=ev.blocks[-1],
            test_rows=int(len(ev.row_ids)),
            rows_not_shared=ev.dropped,
        )
    return out
