"""Several runs of one version on a question set: repeated evaluations (epochs) of the same
model, averaged per question (methods.md section 8)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from reportgen.project.predictions import Predictions


def repeat_means(preds: Sequence[tuple[Predictions, np.ndarray]]) -> tuple[Predictions, np.ndarray]:
    """The first file and, per question of it, the mean of the per-row values of every file
    that answered it (NaN-free: the first file answered each of its questions)."""
    first, vals = preds[0]
    if len(preds) == 1:
        return first, vals
    index = pd.Index(first.row_id)
    total = np.asarray(vals, dtype=float).copy()
    n = np.ones(total.size)
    for pred, v in preds[1:]:
        pos = pd.Index(pred.row_id).get_indexer(index)
        hit = pos >= 0
        total[hit] += np.asarray(v, dtype=float)[pos[hit]]
        n[hit] += 1
    return first, total / n
