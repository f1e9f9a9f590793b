"""Write the hand-made report fixtures in tests/fixtures/ (run: python tests/render/make_fixtures.py).

The numbers are synthetic but internally consistent (curves, bins and confusion matrices are
computed from simulated predictions), so the charts look like real ones. They follow
docs/report-json.md key for key; the real pipeline replaces them once examples exist.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from reportgen.stats.proportions import wilson

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
LIBRARIES = {
    "altair": "6.3.0",
    "jinja2": "3.1.6",
    "numpy": "2.4.6",
    "pandas": "2.3.3",
    "scipy": "1.16.2",
    "vl-convert-python": "1.9.0",
    "weasyprint": "70.0",
}


def r(x: float, digits: int = 6) -> float:
    return float(round(float(x), digits))


def thin(xs: list, limit: int = 500) -> list[int]:
    n = len(xs)
    if n <= limit:
        return list(range(n))
    return sorted(set(np.linspace(0, n - 1, limit).round().astype(int).tolist()))


def roc_pr(y: np.ndarray, p: np.ndarray) -> dict:
    order = np.argsort(-p, kind="stable")
    ys, ps = y[order], p[order]
    distinct = np.r_[np.nonzero(np.diff(ps))[0], len(ps) - 1]
    tp = np.cumsum(ys)[distinct]
    fp = (distinct + 1) - tp
    pos, neg = ys.sum(), len(ys) - ys.sum()
    tpr = np.r_[0, tp / pos]
    fpr = np.r_[0, fp / neg]
    auc = float(np.trapezoid(tpr, fpr))
    precision = tp / (tp + fp)
    recall = tp / pos
    ap = float(np.sum(np.diff(np.r_[0, recall]) * precision))
    keep = thin(list(fpr))
    keep_pr = thin(list(recall))
    return {
        "roc_auc": r(auc, 4),
        "average_precision": r(ap, 4),
        "roc": {"fpr": [r(fpr[i], 5) for i in keep], "tpr": [r(tpr[i], 5) for i in keep]},
        "pr": {
            "recall": [r(recall[i], 5) for i in keep_pr],
            "precision": [r(precision[i], 5) for i in keep_pr],
        },
    }


def confusion(y: np.ndarray, p: np.ndarray, t: float) -> list[list[int]]:
    pred = p >= t
    tn = int(((~pred) & (y == 0)).sum())
    fp = int((pred & (y == 0)).sum())
    fn = int(((~pred) & (y == 1)).sum())
    tp = int((pred & (y == 1)).sum())
    return [[tn, fp], [fn, tp]]


def cost(cm: list[list[int]], c_fp: float, c_fn: float) -> float:
    n = sum(sum(row) for row in cm)
    return (c_fp * cm[0][1] + c_fn * cm[1][0]) / n


def threshold_block(yv, pv, yt, pt, seed, c_fp, c_fn, per_seed) -> dict:
    grid = np.unique(np.r_[pv, 0.5])
    costs = np.array([cost(confusion(yv, pv, t), c_fp, c_fn) for t in grid])
    best = int(np.argmin(costs))
    t = float(grid[best])
    cm_v = confusion(yv, pv, t)
    cm_t = confusion(yt, pt, t)
    keep = thin(list(grid))

    def prec_rec(cm):
        tp, fp, fn = cm[1][1], cm[0][1], cm[1][0]
        return (tp / (tp + fp) if tp + fp else 0.0, tp / (tp + fn) if tp + fn else 0.0)

    pt_, rt_ = prec_rec(cm_t)
    pv_, rv_ = prec_rec(cm_v)
    test_cost = cost(cm_t, c_fp, c_fn)
    return {
        "seed": seed,
        "threshold": r(t, 4),
        "validation_cost": r(costs[best], 4),
        "test_cost": r(test_cost, 4),
        "confusion": cm_t,
        "precision": r(pt_, 4),
        "recall": r(rt_, 4),
        "predicted_positive": cm_t[0][1] + cm_t[1][1],
        "actual_positive": cm_t[1][0] + cm_t[1][1],
        "rows": len(yt),
        "validation_confusion": cm_v,
        "validation_precision": r(pv_, 4),
        "validation_recall": r(rv_, 4),
        "mean_test_cost": r(np.mean([s["test_cost"] for s in per_seed]), 4),
        "per_seed": per_seed,
        "curve": {
            "threshold": [r(grid[i], 4) for i in keep],
            "cost": [r(costs[i], 4) for i in keep],
        },
    }


def calibration(y, p, bins=10) -> dict:
    idx = np.minimum((p * bins).astype(int), bins - 1)
    out = []
    for b in range(bins):
        m = idx == b
        n = int(m.sum())
        out.append(
            {
                "low": r(b / bins, 4),
                "high": r((b + 1) / bins, 4),
                "count": n,
                "mean_p": r(p[m].mean(), 4) if n else None,
                "fraction_positive": r(y[m].mean(), 4) if n else None,
                # the interval the pipeline writes (stats.calibration.reliability_bins)
                **dict(
                    zip(
                        ("fraction_low", "fraction_high"),
                        (r(v, 4) for v in wilson(int(y[m].sum()), n, 0.95)) if n else (None, None),
                        strict=True,
                    )
                ),
            }
        )
    ece = sum(
        b["count"] * abs(b["mean_p"] - b["fraction_positive"]) for b in out if b["count"]
    ) / len(y)
    return {"ece": r(ece, 4), "brier": r(np.mean((p - y) ** 2), 4), "bins": out}


def build_info(command: str) -> dict:
    return {"date": "2026-11-30", "command": command, "libraries": LIBRARIES}


def sample_report() -> dict:
    rng = np.random.default_rng(7)
    n_val, n_test = 2000, 2600
    z_v, z_t = rng.normal(size=n_val), rng.normal(size=n_test)
    yv = (rng.random(n_val) < 1 / (1 + np.exp(-(z_v * 1.6 - 1.6)))).astype(int)
    yt = (rng.random(n_test) < 1 / (1 + np.exp(-(z_t * 1.6 - 1.6)))).astype(int)

    def scores(z, sharp, shift, noise):
        lin = z * sharp - 1.6 + shift + rng.normal(scale=noise, size=len(z))
        return np.clip(np.round(1 / (1 + np.exp(-lin)), 3), 0.001, 0.999)

    pv_c, pt_c = scores(z_v, 1.45, 0.05, 0.55), scores(z_t, 1.45, 0.05, 0.55)
    pv_b, pt_b = scores(z_v, 1.25, -0.15, 0.6), scores(z_t, 1.25, -0.15, 0.6)

    c_fp, c_fn = 1.0, 3.0
    seeds = [1, 2, 3, 4, 5]
    cand_vals = [0.3012, 0.2951, 0.3068, 0.2987, 0.3104]
    base_vals = [0.3049, 0.3031, 0.3062, 0.3040, 0.3058]
    sd_c, sd_b = float(np.std(cand_vals, ddof=1)), float(np.std(base_vals, ddof=1))
    mean_c, mean_b = float(np.mean(cand_vals)), float(np.mean(base_vals))
    gap_v = mean_b - mean_c
    sd_used = max(sd_c, sd_b)
    gap_in_sd = gap_v / sd_used

    per_seed_c = [
        {"seed": s, "threshold": t, "validation_cost": vc, "test_cost": tc}
        for s, t, vc, tc in zip(
            seeds,
            [0.262, 0.281, 0.255, 0.27, 0.291],
            [0.401, 0.395, 0.41, 0.398, 0.412],
            [0.419, 0.411, 0.427, 0.414, 0.43],
            strict=True,
        )
    ]
    per_seed_b = [
        {"seed": s, "threshold": t, "validation_cost": vc, "test_cost": tc}
        for s, t, vc, tc in zip(
            seeds,
            [0.244, 0.25, 0.238, 0.247, 0.252],
            [0.421, 0.418, 0.425, 0.42, 0.423],
            [0.437, 0.433, 0.44, 0.436, 0.439],
            strict=True,
        )
    ]
    th_c = threshold_block(yv, pv_c, yt, pt_c, 4, c_fp, c_fn, per_seed_c)
    th_b = threshold_block(yv, pv_b, yt, pt_b, 4, c_fp, c_fn, per_seed_b)
    rk_c, rk_b = roc_pr(yt, pt_c), roc_pr(yt, pt_b)
    cal_c, cal_b = calibration(yt, pt_c), calibration(yt, pt_b)

    # block bootstrap: 52 weekly block gaps
    block_gaps = rng.normal(0.0085, 0.021, size=52)
    boot = rng.choice(block_gaps, size=(2000, 52), replace=True).mean(axis=1)
    low, high = np.percentile(boot, [2.5, 97.5])
    edges = np.linspace(boot.min(), boot.max(), 41)
    counts, _ = np.histogram(boot, bins=edges)
    gap_t = float(block_gaps.mean())

    claim_original = (
        "The MLP beats gradient boosting by 0.004 test log loss <script>alert(1)</script> "
        "& is ready to replace it."
    )
    rewritten = (
        f"On 52 weeks of 2025 test data, the MLP's log loss is {gap_t:.4f} lower than gradient "
        f"boosting's (95% block-bootstrap interval {low:.4f} to {high:.4f}) for one set of "
        f"trained networks, but the validation gap ({gap_v:.4f}) is only {gap_in_sd:.2f} seed "
        "standard deviations, so the difference is not shown to exceed retraining noise."
    )
    reconsider_items = [
        f"the validation gap exceeds 2 seed sd over 5 or more seeds (now {gap_in_sd:.2f} sd)",
        "the evaluation interval's lower end stays above 0 with every trained network (now 2 of 5)",
        "twelve more months of history",
    ]
    line_seed = (
        f"Seed spread (retraining): validation gap {gap_v:.4f} log loss is {gap_in_sd:.2f} seed "
        f"sd (sd {sd_used:.4f}, larger of the two, 5 seeds each); the rule needs more than 2.0 sd, "
        "so it fails; 2 of 5 MLP seeds beat the gradient boosting mean."
    )
    line_block = (
        f"Block bootstrap (which blocks were sampled, one trained network): test gap "
        f"{gap_t:.4f} log loss, 95% interval {low:.4f} to {high:.4f} over 52 weekly blocks "
        "(2000 resamples); it excludes zero."
    )
    per_seed_block = [
        {"seed": s, "gap": r(g, 4), "low": r(g - 0.0056, 4), "high": r(g + 0.0054, 4)}
        for s, g in zip(seeds, [0.0061, 0.0121, 0.0019, 0.0098, -0.0007], strict=True)
    ]

    ladder = [
        {
            "rung": 1,
            "name": "correct",
            "status": "shown",
            "artefacts": [
                "artefacts/checks/gradient.json",
                "artefacts/checks/initial_loss.json",
                "artefacts/checks/overfit.json",
                "artefacts/checks/shapes.json",
            ],
            "missing": None,
            "summary": "All four rung-1 checks pass for the MLP and the logged log loss matches the "
            "value recomputed from predictions for all 10 runs.",
        },
        {
            "rung": 2,
            "name": "fair",
            "status": "shown",
            "artefacts": ["split/manifest.json", "runs.csv:2", "runs.csv:22"],
            "missing": None,
            "summary": "Same frozen split (manifest verified), same features, test opened once per "
            "model, tuning budgets 12 and 9 configurations.",
        },
        {
            "rung": 3,
            "name": "larger than noise",
            "status": "partly",
            "artefacts": ["runs.csv:14", "runs.csv:15", "artefacts/predictions/mlp-s4-test.csv"],
            "missing": f"a validation gap larger than 2 seed sd (now {gap_in_sd:.2f} sd)",
            "summary": "The test interval excludes zero for one trained network, but the validation "
            "gap is within retraining noise.",
        },
        {
            "rung": 4,
            "name": "relevant",
            "status": "not shown",
            "artefacts": ["artefacts/cost-model.md"],
            "missing": "an interval whose lower end reaches the useful effect 0.003 (now 0.0029)",
            "summary": "The gain would save about 180 orders sent to manual review per week, but "
            "the interval's lower end is below the useful effect.",
        },
        {
            "rung": 5,
            "name": "bounded",
            "status": "partly",
            "artefacts": ["artefacts/predictions/mlp-s4-test.csv"],
            "missing": "a slice analysis on the shifted route with more than 26 weeks",
            "summary": "Per-route gaps measured; the MLP is worse on the shifted route.",
        },
    ]

    return {
        "schema": "evreport/1",
        "tool": {"name": "evreport", "version": "0.1.0"},
        "build": build_info("evreport build examples/weekly-churn"),
        "project": {
            "title": "Weekly churn: MLP & gradient boosting",
            "author": "A. Student",
            "kind": "model-vs-baseline",
            "candidate": "mlp",
            "baseline": "gbm",
            "metric": "log_loss",
            "higher_is_better": False,
            "claim": claim_original,
            "block_column": "week",
            "slice_column": "route",
        },
        "inputs": [
            {"path": "artefacts/checks/gradient.json", "sha256": "3f" * 32, "bytes": 212},
            {"path": "artefacts/predictions/gbm-s4-test.csv", "sha256": "a1" * 32, "bytes": 81234},
            {"path": "artefacts/predictions/mlp-s4-test.csv", "sha256": "b7" * 32, "bytes": 81502},
            {"path": "evreport.toml", "sha256": "0c" * 32, "bytes": 1188},
            {"path": "runs.csv", "sha256": "9e" * 32, "bytes": 4410},
            {"path": "split/manifest.json", "sha256": "5d" * 32, "bytes": 702},
        ],
        "ladder": ladder,
        "claim": {
            "original": claim_original,
            "rewritten": rewritten,
            "supported_rung": 2,
            "reconsider_when": "Reconsider when " + "; ".join(reconsider_items) + ".",
            "reconsider_items": reconsider_items,
        },
        "decision": {
            "verdict": "keep-baseline",
            "recommend": "gbm",
            "reasons": [
                f"The validation gap ({gap_v:.4f}) is {gap_in_sd:.2f} seed sd, below the rule's "
                "2.0: retraining noise is not cleared.",
                "With noise not cleared, the simpler model stays: gradient boosting.",
                "The MLP is worse on the shifted route (interval wholly below zero).",
            ],
        },
        "checks": [
            {
                "id": "validation-gap-vs-seed-sd",
                "rung": 3,
                "passed": False,
                "value": r(gap_in_sd, 4),
                "bar": 2.0,
                "text": "Validation gap in seed sd.",
                "artefacts": ["runs.csv:14"],
            },
            {
                "id": "block-interval-excludes-zero",
                "rung": 3,
                "passed": True,
                "value": r(low, 4),
                "bar": 0.0,
                "text": "Lower end of the block-bootstrap interval.",
                "artefacts": ["artefacts/predictions/mlp-s4-test.csv"],
            },
        ],
        "fairness": [
            {
                "id": "manifest-verified",
                "passed": True,
                "text": "Split manifest verified: hashes and row counts match, created before the "
                "first run, no row in two parts.",
                "artefacts": ["split/manifest.json"],
            },
            {
                "id": "test-opened-once",
                "passed": True,
                "text": "Test opened once per model: one configuration each (mlp-b, gbm-a).",
                "artefacts": ["runs.csv:14", "runs.csv:34"],
            },
            {
                "id": "tuning-budget",
                "passed": True,
                "text": "Tuning budgets comparable: 12 MLP configurations against 9 for gradient "
                "boosting (ratio 1.33, limit 2).",
                "artefacts": ["runs.csv:2", "runs.csv:22"],
            },
            {
                "id": "same-features",
                "passed": True,
                "text": "Same feature set for both models (features = f-2025-08).",
                "artefacts": ["runs.csv:2"],
            },
            {
                "id": "same-split",
                "passed": None,
                "text": "Same split id for both models could not be checked: runs.csv has no "
                "split_id column.",
                "artefacts": [],
            },
        ],
        "noise": {
            "seed": {
                "n": {"candidate": 5, "baseline": 5},
                "sd": {"candidate": r(sd_c), "baseline": r(sd_b)},
                "mean": {"candidate": r(mean_c), "baseline": r(mean_b)},
                "sd_used": r(sd_used),
                "validation_gap": r(gap_v),
                "gap_in_sd": r(gap_in_sd, 4),
                "multiple": 2.0,
                "passes": False,
                "seeds_beating_baseline": 2,
                "reason": None,
                "values": {
                    "candidate": [
                        {"seed": s, "value": v, "source": f"runs.csv:{12 + i}"}
                        for i, (s, v) in enumerate(zip(seeds, cand_vals, strict=True))
                    ],
                    "baseline": [
                        {"seed": s, "value": v, "source": f"runs.csv:{32 + i}"}
                        for i, (s, v) in enumerate(zip(seeds, base_vals, strict=True))
                    ],
                },
                "paired": {
                    "n": None,
                    "mean": None,
                    "sd": None,
                    "low": None,
                    "high": None,
                    "p": None,
                    "part": None,
                },
                "left_out": ["mlp seed 6 (runs.csv:40): status failed"],
            },
            "block": {
                "blocks": 52,
                "gap": r(gap_t),
                "low": r(low),
                "high": r(high),
                "confidence": 0.95,
                "resamples": 2000,
                "primary": "bootstrap",
                "primary_reason": None,
                "bootstrap": {"low": r(low), "high": r(high)},
                "t": {"low": r(low - 0.0002), "high": r(high + 0.0003), "p": 0.0061, "se": 0.0029},
                "welch": {"se": 0.0112, "p": 0.447, "low": -0.0137, "high": 0.0307},
                "per_seed": per_seed_block,
                "two_level": {"gap": r(gap_t - 0.0003), "low": -0.0011, "high": 0.0162},
                "excludes_zero": True,
                "distribution": {
                    "edges": [r(e) for e in edges],
                    "counts": [int(c) for c in counts],
                },
            },
            "lines": [line_seed, line_block],
            "covers": [
                "Covers retraining: how much the validation metric moves when the same model is "
                "trained again with another seed. It does not cover which test rows were drawn.",
                "Covers the evaluation sample: which weeks happened to be in the test part, for "
                "one trained network per model. It does not cover retraining.",
            ],
        },
        "relevance": {
            "min_useful_effect": 0.003,
            "finding": "positive-not-useful",
            "gap": r(gap_t),
            "low": r(low),
            "high": r(high),
            "per_period": r(gap_t * 10000, 2),
            "cases_per_period": 10000,
            "period": "week",
            "unit": "orders sent to manual review",
            "cost_per_case": {
                "candidate": th_c["test_cost"],
                "baseline": th_b["test_cost"],
                "difference": r(th_b["test_cost"] - th_c["test_cost"], 4),
            },
            "cost_per_period": r((th_b["test_cost"] - th_c["test_cost"]) * 10000, 1),
            "text": "The interval is above zero but its lower end (0.0029) is below the useful "
            "effect 0.003: a useful gain is not established.",
        },
        "threshold": {
            "candidate": th_c,
            "baseline": th_b,
            "theoretical_cutoff": 0.25,
            "costs": {
                "false_positive": c_fp,
                "false_negative": c_fn,
                "unit": "orders sent to manual review",
                "cases_per_period": 10000,
                "period": "week",
            },
            "rule": "validation-cost",
        },
        "ranking": {
            "candidate": {"seed": 4, **rk_c, "mean_roc_auc": r(rk_c["roc_auc"] - 0.002, 4)},
            "baseline": {"seed": 4, **rk_b, "mean_roc_auc": r(rk_b["roc_auc"] + 0.001, 4)},
        },
        "calibration": {
            "candidate": {"seed": 4, **cal_c},
            "baseline": {"seed": 4, **cal_b},
            "bins": 10,
        },
        "slices": [
            {
                "slice": "city",
                "rows": 1210,
                "blocks": 52,
                "gap": 0.0131,
                "low": 0.0062,
                "high": 0.0199,
                "worse": False,
                "required": False,
            },
            {
                "slice": "rural",
                "rows": 750,
                "blocks": 52,
                "gap": 0.0072,
                "low": -0.0021,
                "high": 0.0168,
                "worse": False,
                "required": False,
            },
            {
                "slice": "shifted",
                "rows": 640,
                "blocks": 26,
                "gap": -0.006,
                "low": -0.0104,
                "high": -0.0018,
                "worse": True,
                "required": True,
            },
        ],
        "data": {
            "parts": {"train": 6000, "validation": 2000, "test": 2600},
            "block_column": "week",
            "blocks": 52,
            "first_block": "2025-01",
            "last_block": "2025-52",
            "test_rows": 2600,
            "seeds": {"candidate": seeds, "baseline": seeds},
            "configs": {"candidate": "mlp-b", "baseline": "gbm-a"},
        },
        "not_tested": [
            "Data after 2025-52: the test part ends there.",
            "Customers outside the three routes in the split.",
            "Retraining on a different split: one frozen split was used.",
        ],
        "before_after": None,
        "general": None,
        "warnings": [
            {
                "path": "runs.csv",
                "line": 40,
                "column": 8,
                "severity": "warning",
                "slug": "failed-run",
                "message": "mlp seed 6 has status failed; it is left out of every analysis.",
            },
            {
                "path": "evreport.toml",
                "line": None,
                "column": None,
                "severity": "warning",
                "slug": "rule-written-late",
                "message": "[rule] written 2026-09-01 is after the first run's started_at "
                "(2026-08-31T14:02:00Z).",
            },
        ],
    }


def before_after_report() -> dict:
    rng = np.random.default_rng(11)
    categories = ["dates", "units", "names", "arithmetic"]
    broken_rows = [
        {"id": f"q{n}", "category": c, "text": t}
        for n, c, t in [
            (17, "dates", "Which weekday was 29 February 2024?"),
            (23, "dates", "How many days lie between 3 March and 1 April?"),
            (41, "dates", "What date is 90 days after 15 November 2025?"),
            (58, "dates", "Is 1900 a leap year?"),
            (77, "dates", "Which ISO week contains 1 January 2027?"),
            (92, "dates", "What is the last day of February 2100?"),
            (118, "dates", "How many Mondays are in March 2026?"),
            (131, "units", "Convert 3 ft 4 in to centimetres."),
            (164, "names", 'Who wrote "<b>Middlemarch</b>" & under which name?'),
        ]
    ]
    diffs = rng.normal(0.065, 0.03, size=2000)
    edges = np.linspace(diffs.min(), diffs.max(), 41)
    counts, _ = np.histogram(diffs, bins=edges)
    claim = "Fine-tuning on the date set fixes date questions without hurting anything else."
    return {
        "schema": "evreport/1",
        "tool": {"name": "evreport", "version": "0.1.0"},
        "build": build_info("evreport build examples/date-finetune"),
        "project": {
            "title": "Date fine-tune: before and after",
            "author": None,
            "kind": "before-after",
            "candidate": "after",
            "baseline": "before",
            "metric": "accuracy",
            "higher_is_better": True,
            "claim": claim,
            "block_column": None,
            "slice_column": None,
        },
        "inputs": [
            {"path": "evreport.toml", "sha256": "12" * 32, "bytes": 640},
            {"path": "predictions/after.csv", "sha256": "34" * 32, "bytes": 20480},
            {"path": "predictions/before.csv", "sha256": "56" * 32, "bytes": 20311},
            {"path": "runs.csv", "sha256": "78" * 32, "bytes": 512},
        ],
        "ladder": [
            {
                "rung": 1,
                "name": "correct",
                "status": "partly",
                "artefacts": ["runs.csv:3"],
                "missing": "a recomputed accuracy for the general set",
                "summary": "Logged accuracy matches the predictions for the frozen set.",
            },
            {
                "rung": 2,
                "name": "fair",
                "status": "shown",
                "artefacts": ["split/manifest.json"],
                "missing": None,
                "summary": "Same 200 frozen questions before and after.",
            },
            {
                "rung": 3,
                "name": "larger than noise",
                "status": "shown",
                "artefacts": ["predictions/after.csv", "predictions/before.csv"],
                "missing": None,
                "summary": "The paired interval over questions excludes zero.",
            },
            {
                "rung": 4,
                "name": "relevant",
                "status": "not shown",
                "artefacts": [],
                "missing": "the general set to hold within the allowed drop 0.02 (now 0.41)",
                "summary": "The general set dropped far more than allowed.",
            },
            {
                "rung": 5,
                "name": "bounded",
                "status": "not shown",
                "artefacts": [],
                "missing": "the general set to hold",
                "summary": "Forgetting on the general set is not bounded.",
            },
        ],
        "claim": {
            "original": claim,
            "rewritten": "On 200 frozen questions, fine-tuning raises accuracy from 0.640 to "
            "0.705 (95% interval 0.010 to 0.120), but general-set accuracy falls from 0.99 to "
            "0.58, so the change is not shown to be safe.",
            "supported_rung": 0,
            "reconsider_when": "Reconsider when the general set holds within 0.02 of 0.99 "
            "(now a drop of 0.41).",
            "reconsider_items": ["the general set holds within 0.02 of 0.99 (now a drop of 0.41)"],
        },
        "decision": {
            "verdict": "roll-back",
            "recommend": "before",
            "reasons": [
                "The general set dropped by 0.41, more than the allowed 0.02.",
                "7 of 9 broken questions are date questions: the fine-tune broke part of what it "
                "was meant to fix.",
            ],
        },
        "checks": [],
        "fairness": [
            {
                "id": "manifest-verified",
                "passed": True,
                "text": "Question-set manifest verified.",
                "artefacts": ["split/manifest.json"],
            },
        ],
        "noise": {
            "seed": {
                "n": {"candidate": 1, "baseline": 1},
                "sd": {"candidate": None, "baseline": None},
                "mean": {"candidate": 0.705, "baseline": 0.64},
                "sd_used": None,
                "validation_gap": None,
                "gap_in_sd": None,
                "multiple": 2.0,
                "passes": None,
                "seeds_beating_baseline": None,
                "reason": "one run per model: retraining noise is unmeasured",
                "values": {
                    "candidate": [{"seed": 0, "value": 0.705, "source": "runs.csv:3"}],
                    "baseline": [{"seed": 0, "value": 0.64, "source": "runs.csv:2"}],
                },
                "paired": {
                    "n": None,
                    "mean": None,
                    "sd": None,
                    "low": None,
                    "high": None,
                    "p": None,
                    "part": None,
                },
                "left_out": [],
            },
            "block": {
                "blocks": 200,
                "gap": 0.065,
                "low": 0.01,
                "high": 0.12,
                "confidence": 0.95,
                "resamples": 2000,
                "primary": "bootstrap",
                "primary_reason": None,
                "bootstrap": {"low": 0.01, "high": 0.12},
                "t": {"low": 0.008, "high": 0.122, "p": 0.024, "se": 0.029},
                "welch": {"se": 0.046, "p": 0.16, "low": -0.025, "high": 0.155},
                "per_seed": [],
                "two_level": None,
                "excludes_zero": True,
                "distribution": {
                    "edges": [r(e) for e in edges],
                    "counts": [int(c) for c in counts],
                },
            },
            "lines": [
                "Seed spread (retraining): not measured: one run per model.",
                "Block bootstrap (which blocks were sampled, one trained network): accuracy "
                "difference 0.065, 95% interval 0.010 to 0.120 over 200 questions (2000 "
                "resamples); it excludes zero.",
            ],
            "covers": [
                "Would cover retraining noise; with one run per model it is unmeasured.",
                "Covers which questions were sampled, for the one fine-tuned model. It does not "
                "cover another fine-tuning run.",
            ],
        },
        "relevance": None,
        "threshold": None,
        "ranking": None,
        "calibration": None,
        "slices": None,
        "data": {
            "parts": {"test": 200, "general": 500},
            "block_column": None,
            "blocks": 200,
            "first_block": None,
            "last_block": None,
            "test_rows": 200,
            "seeds": {"candidate": [0], "baseline": [0]},
            "configs": {"candidate": None, "baseline": None},
        },
        "not_tested": ["Questions outside the four categories of the frozen set."],
        "before_after": {
            "before": 0.64,
            "after": 0.705,
            "difference": 0.065,
            "low": 0.01,
            "high": 0.12,
            "fixed": 22,
            "broken": 9,
            "mcnemar_p": 0.0294,
            "broken_ids": [b["id"] for b in broken_rows],
            "broken_by_category": {"dates": 7, "units": 1, "names": 1},
            "fixed_ids": [f"q{i}" for i in range(200, 222)],
            "broken_rows": broken_rows,
            "category_sentence": "7 of 9 broken questions are dates.",
            "questions": 200,
            "t": {"low": 0.008, "high": 0.122, "p": 0.024},
            "blocks": 200,
            "primary": "bootstrap",
            "categories": categories,
        },
        "general": {"before": 0.99, "after": 0.58, "drop": 0.41, "max_drop": 0.02, "held": False},
        "warnings": [],
    }


def minimal_report() -> dict:
    return {
        "schema": "evreport/1",
        "tool": {"name": "evreport", "version": "0.1.0"},
        "build": build_info("evreport build examples/minimal"),
        "project": {
            "title": "Minimal: two runs, nothing else",
            "author": None,
            "kind": "model-vs-baseline",
            "candidate": "new",
            "baseline": "old",
            "metric": "accuracy",
            "higher_is_better": True,
            "claim": "The new model is better.",
            "block_column": None,
            "slice_column": None,
        },
        "inputs": [{"path": "runs.csv", "sha256": "ab" * 32, "bytes": 120}],
        "ladder": [
            {
                "rung": i + 1,
                "name": name,
                "status": "not shown",
                "artefacts": [],
                "missing": missing,
                "summary": None,
            }
            for i, (name, missing) in enumerate(
                [
                    ("correct", "rung-1 check files for new"),
                    ("fair", "a split manifest"),
                    ("larger than noise", "two or more seeds per model"),
                    ("relevant", "a min_useful_effect"),
                    ("bounded", "a slice column or a period"),
                ]
            )
        ],
        "claim": {
            "original": "The new model is better.",
            "rewritten": "Nothing beyond the logged numbers is shown: new scored 0.81 and old "
            "0.80 accuracy on test, one run each.",
            "supported_rung": 0,
            "reconsider_when": "Reconsider when rung-1 checks, a split manifest and two or more "
            "seeds per model exist.",
            "reconsider_items": [],
        },
        "decision": {"verdict": "inconclusive", "recommend": "old", "reasons": []},
        "checks": [],
        "fairness": [],
        "noise": {
            "seed": {
                "n": {"candidate": 1, "baseline": 1},
                "sd": {"candidate": None, "baseline": None},
                "mean": {"candidate": None, "baseline": None},
                "sd_used": None,
                "validation_gap": None,
                "gap_in_sd": None,
                "multiple": 2.0,
                "passes": None,
                "seeds_beating_baseline": None,
                "reason": "fewer than 2 seeds per model",
                "values": {"candidate": [], "baseline": []},
                "paired": None,
                "left_out": [],
            },
            "block": None,
            "lines": [
                "Seed spread (retraining): not measured: fewer than 2 seeds per model.",
                "Block bootstrap (which blocks were sampled, one trained network): not measured: "
                "no per-row predictions.",
            ],
            "covers": [
                "Would cover retraining noise; unmeasured here.",
                "Would cover which test rows were drawn; unmeasured here.",
            ],
        },
        "relevance": None,
        "threshold": None,
        "ranking": None,
        "calibration": None,
        "slices": None,
        "data": {
            "parts": {},
            "block_column": None,
            "blocks": None,
            "first_block": None,
            "last_block": None,
            "test_rows": None,
            "seeds": {"candidate": [], "baseline": []},
            "configs": {"candidate": None, "baseline": None},
        },
        "not_tested": [],
        "before_after": None,
        "general": None,
        "warnings": [],
    }


def main() -> None:
    for name, report in [
        ("report-sample.json", sample_report()),
        ("report-before-after.json", before_after_report()),
        ("report-minimal.json", minimal_report()),
    ]:
        text = json.dumps(report, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
        (FIXTURES / name).write_text(text, encoding="utf-8")
        print(f"wrote {FIXTURES / name} ({len(text)} bytes)")


if __name__ == "__main__":
    main()
