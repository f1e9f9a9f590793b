"""Per-row metric matrices on the test part, paired by row_id, with blocks and slices."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.checks.select import ModelRuns, SeedRun, row_metric
from reportgen.project import Project
from reportgen.project.predictions import Predictions

#: each role's networks with the predictions of the part analysed
Nets = dict[str, list[tuple[SeedRun, Predictions]]]


@dataclass
class EvalData:
    row_ids: np.ndarray  # (N,) sorted common row ids (keys of the part's ids on the fast path)
    blocks: list[str]  # (B,) block labels in natural order
    block_codes: np.ndarray  # (N,) index into blocks
    slices: np.ndarray | None  # (N,) slice label per row
    values: dict[str, np.ndarray]  # role -> (S, N) per-row metric
    seeds: dict[str, list[int]]
    dropped: dict[str, int]  # role -> rows scored but not shared by every network
    block_column: str | None

    def block_sums(
        self, role: str, mask: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """(S, B') per-row metric summed in each block, (B',) rows per block, block indices.

        Only blocks with rows under ``mask`` appear; the row-weighted metric of seed s
        is ``sums[s].sum() / counts.sum()``.
        """
        codes = self.block_codes if mask is None else self.block_codes[mask]
        present = np.unique(codes)
        remap = np.full(len(self.blocks), -1)
        remap[present] = np.arange(len(present))
        c = remap[codes]
        counts = np.bincount(c, minlength=len(present)).astype(float)
        # one seed's rows at a time: a masked copy of one row, not of the (S, N) matrix
        sums = np.stack(
            [
                np.bincount(c, weights=v if mask is None else v[mask], minlength=len(present))
                for v in self.values[role]
            ]
        )
        return sums, counts, present.tolist()


def natural_key(s: str) -> list[tuple[int, float, str]]:
    return [
        (0, float(t), "") if re.fullmatch(r"-?\d+(\.\d+)?", t) else (1, 0.0, t)
        for t in re.split(r"(-?\d+(?:\.\d+)?)", s)
        if t != ""
    ]


def build_eval(
    project: Project, cand: ModelRuns, base: ModelRuns, part: str = "test"
) -> EvalData | None:
    """Align every network's test predictions on the rows they all share; None without predictions."""
    import pandas as pd

    nets: Nets = {}
    for mr in (cand, base):
        pairs = [(s, s.test_pred if part == "test" else s.val_pred) for s in mr.seeds]
        nets[mr.role] = [(s, p) for s, p in pairs if p is not None]
    if not nets["candidate"] or not nets["baseline"]:
        return None
    preds = [p for v in nets.values() for _, p in v]
    if preds[0].part_keys is not None and all(
        p.keys is not None and p.part_keys is preds[0].part_keys for p in preds
    ):
        return _build_eval_keyed(project, nets, preds[0].part_keys)
    common = None
    for v in nets.values():
        for _, p in v:
            ids = set(p.row_id)
            common = ids if common is None else common & ids
    if not common:
        return None
    ref = nets["candidate"][0][1]
    row_ids = np.array(sorted(common), dtype=object)
    ref_pos = pd.Index(ref.row_id).get_indexer(row_ids)
    cfg = project.config
    block = ref.block if cfg.block else None
    block_col = cfg.block if block is not None else None
    uniq, codes = _coded(block[ref_pos] if block is not None else row_ids)
    slices = ref.slice[ref_pos].astype(str) if cfg.slice and ref.slice is not None else None
    values: dict[str, np.ndarray] = {}
    seeds: dict[str, list[int]] = {}
    dropped: dict[str, int] = {}
    for role, v in nets.items():
        mats = []
        for s, p in v:
            pos = pd.Index(p.row_id).get_indexer(row_ids)
            mats.append(row_metric(project, p, s.threshold)[pos])
        values[role] = np.vstack(mats).astype(float)
        seeds[role] = [s.seed for s, _ in v]
        dropped[role] = max(len(p) for _, p in v) - len(row_ids)
    return EvalData(row_ids, uniq, codes, slices, values, seeds, dropped, block_col)


def _positions(keys: np.ndarray, n: int) -> np.ndarray:
    """(n,) row of each key in a file, -1 where the file lacks it."""
    inv = np.full(n, -1, dtype=np.int64)
    inv[keys] = np.arange(keys.size)
    return inv


def _keys(p: Predictions) -> np.ndarray:
    """A keyed file's positions in its part's ids (build_eval takes the keyed path only then)."""
    if p.keys is None:
        raise AssertionError(f"{p.path} has no keys")
    return p.keys


def _build_eval_keyed(project: Project, nets: Nets, part_keys: Any) -> EvalData | None:
    """build_eval when every file has keys of one split part: counting and indexing, no hashing.

    Keys sort as the ids' strings, so rows come in the order of the general path.
    """
    n = len(part_keys)
    seen = np.zeros(n, dtype=np.int32)
    count = 0
    for v in nets.values():
        for _, p in v:
            seen[p.keys] += 1
            count += 1
    row_ids = np.flatnonzero(seen == count)
    del seen
    if not row_ids.size:
        return None
    ref = nets["candidate"][0][1]
    ref_pos = _positions(_keys(ref), n)[row_ids]
    cfg = project.config
    block = ref.block if cfg.block else None
    block_col = cfg.block if block is not None else None
    coded = ref.extra.get("label_codes", {})
    if block is not None and "block" in coded:  # ref.block == distinct[codes]
        codes, distinct = coded["block"]
        uniq, codes = _coded_from(codes[ref_pos], distinct)
    elif block is not None:
        uniq, codes = _coded(block[ref_pos])
    else:  # one block per row
        uniq, codes = _coded(part_keys.text_of(row_ids))
    slices = ref.slice[ref_pos].astype(str) if cfg.slice and ref.slice is not None else None
    values: dict[str, np.ndarray] = {}
    seeds: dict[str, list[int]] = {}
    dropped: dict[str, int] = {}
    for role, v in nets.items():
        mat = np.empty((len(v), row_ids.size))
        for i, (s, p) in enumerate(v):
            mat[i] = row_metric(project, p, s.threshold)[_positions(_keys(p), n)[row_ids]]
        values[role] = mat
        seeds[role] = [s.seed for s, _ in v]
        dropped[role] = max(len(p) for _, p in v) - len(row_ids)
    return EvalData(row_ids, uniq, codes, slices, values, seeds, dropped, block_col)


def _coded(labels: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Distinct labels in natural order (ties, such as "01" and "1", in order of first appearance,
    never hash order) and the (N,) int64 index of each row's label."""
    import pandas as pd

    first, distinct = pd.factorize(labels.astype(str))
    uniq = sorted(distinct.tolist(), key=natural_key)
    where = {u: i for i, u in enumerate(distinct.tolist())}
    rank = np.empty(len(uniq), dtype=np.int64)
    rank[[where[u] for u in uniq]] = np.arange(len(uniq))
    return uniq, rank[first]


def _coded_from(codes: np.ndarray, distinct: np.ndarray) -> tuple[list[str], np.ndarray]:
    """_coded of ``distinct[codes]`` without building the (N,) labels."""
    present = np.flatnonzero(np.bincount(codes, minlength=len(distinct)))
    text = distinct[present].astype(str)
    uniq = sorted(dict.fromkeys(text.tolist()), key=natural_key)  # ties keep code order
    where = {u: i for i, u in enumerate(uniq)}
    rank = np.full(len(distinct), -1, dtype=np.int64)
    rank[present] = [where[t] for t in text.tolist()]
    return uniq, rank[codes]


def positions(ev: EvalData, pred: Predictions) -> np.ndarray:
    """(N,) row of each of ``ev``'s rows in one predictions file (every row is there: ``ev``
    holds the rows all analysed networks share)."""
    import pandas as pd

    keys, part_keys = pred.keys, pred.part_keys
    if ev.row_ids.dtype.kind in "iu" and keys is not None and part_keys is not None:
        keyed: np.ndarray = _positions(keys, len(part_keys))[ev.row_ids]  # the keyed path's rows
        return keyed
    found: np.ndarray = pd.Index(pred.row_id).get_indexer(ev.row_ids)
    return found
