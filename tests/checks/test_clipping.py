"""Log-loss clipping is stated when it moves the test gap."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from reportgen.checks import compute_report
from reportgen.model import Report
from reportgen.project import load_project
from reportgen.render.html import render_html
from reportgen.view import build_view
from tests.checks.builder import make_project
from tests.layouts.gen import make_project as make_cell

EPS = float(np.finfo(float).eps)


def _loss(p: np.ndarray, y: np.ndarray) -> np.ndarray:
    q = np.clip(p, EPS, 1 - EPS)
    return -(y * np.log(q) + (1 - y) * np.log(1 - q))


def _clip_two_rows(root, seeds: int) -> list[str]:
    """Score two test rows of every candidate network 0 or 1 with the wrong label."""
    hit = None
    for seed in range(1, seeds + 1):
        path = root / f"artefacts/predictions/net-{seed}-test.csv"
        frame = pd.read_csv(path)
        if hit is None:
            hit = [frame.index[frame["y"] == 1][0], frame.index[frame["y"] == 0][0]]
        frame.loc[hit[0], "p"] = 0.0
        frame.loc[hit[1], "p"] = 1.0
        frame.to_csv(path, index=False)
    return [
        str(pd.read_csv(root / "artefacts/predictions/net-1-test.csv")["row_id"][i]) for i in hit
    ]


def _gaps(root, seeds: int, drop: list[str]) -> tuple[float, float]:
    """The row-weighted seed-averaged test gap (baseline minus candidate log loss), with and
    without the ``drop`` rows: computed here, from the files."""
    means = {}
    for model in ("net", "base"):
        per_row = []
        for seed in range(1, seeds + 1):
            f = pd.read_csv(root / f"artefacts/predictions/{model}-{seed}-test.csv")
            per_row.append(
                pd.Series(_loss(f["p"].to_numpy(), f["y"].to_numpy()), index=f["row_id"])
            )
        means[model] = pd.concat(per_row, axis=1).mean(axis=1)
    gap = means["base"] - means["net"]
    return float(gap.mean()), float(gap.drop(drop).mean())


def test_two_clipped_rows_in_300_add_0_24_and_flip_the_gap(tmp_path):
    # 30 weeks of 10 rows: 300 test rows, as in the issue
    root = make_project(tmp_path / "p", seeds=3, rows_per_block=10, cand_strength=1.6)
    ids = _clip_two_rows(root, 3)
    report, warnings = compute_report(load_project(root))
    clip = report["noise"]["clipping"]
    gap, without = _gaps(root, 3, ids)
    assert clip["rows"] == {"candidate": 2, "baseline": 0}
    assert clip["rows_total"] == 300 and clip["rows_without"] == 298
    assert clip["gap"] == report["noise"]["block"]["gap"]
    assert math.isclose(clip["gap"], gap, rel_tol=1e-12)
    assert math.isclose(clip["gap_without"], without, rel_tol=1e-12)
    # each row costs -ln(eps) = 36.04: two of them add 0.24 to the candidate's mean log loss
    assert math.isclose(2 * -math.log(EPS) / 300, 0.2403, abs_tol=1e-4)
    assert gap < 0 < without  # the clipped rows flip the test gap
    assert clip["matters"] is True
    assert clip["text"].startswith(
        "Log-loss clipping: 2 test rows of net and 0 of base have p = 0 or 1 with the wrong "
        "label (in at least one network), each clipped to a loss of 36.04; without those 2 rows "
        "the test gap is +"
    )
    assert "(the other sign)" in clip["text"]
    (w,) = [w for w in warnings if w.slug == "log-loss-clipped"]
    assert w.message == clip["text"] and w.path == "artefacts/predictions/net-1-test.csv"
    html = render_html(build_view(Report.from_json(report), set()), {})
    assert clip["text"].replace("'", "&#39;") in html


def test_no_clipped_rows_no_sentence(tmp_path):
    root = make_project(tmp_path / "p", seeds=3)
    report, warnings = compute_report(load_project(root))
    clip = report["noise"]["clipping"]
    assert clip["rows"] == {"candidate": 0, "baseline": 0}
    assert clip["gap_without"] == clip["gap"] and clip["matters"] is False
    assert clip["text"] is None
    assert not [w for w in warnings if w.slug == "log-loss-clipped"]


def test_only_log_loss_has_a_clipping_section(tmp_path):
    gen = make_cell(tmp_path / "p", metric="brier")
    report, _ = compute_report(load_project(gen.path))
    assert report["noise"]["block"] is not None and report["noise"]["clipping"] is None
