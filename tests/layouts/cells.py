"""The cells of the layout matrix: a pairwise covering set of the axes plus named special cells."""

from __future__ import annotations

import itertools
import random

#: model-against-baseline axes ("No traceback, ever")
MVB_AXES: dict[str, list] = {
    "layout": ["canonical", "val-only", "test-only", "both", "partly"],
    "predictions": [True, False],
    "fmt": ["csv", "parquet"],
    "paired": [False, True],
    "labels": ["match", "disjoint", "extra"],
    "metric": [
        "log_loss",
        "brier",
        "accuracy",
        "error_rate",
        "cost",
        "custom_low",
        "custom_high",
    ],
    "blocks": ["none", "one", "equal", "unequal", "weekly52"],
    "slices": ["none", "normal", "one-row"],
    "one_class": [False, True],
    "effect": ["strong", "tie", "disagree"],
}

#: before-after axes
BA_AXES: dict[str, list] = {
    "category": [True, False],
    "general": [True, False],
    "blocks": ["none", "equal"],
    "predictions": [True, False],
    "fmt": ["csv", "parquet"],
    "general_broken": [0, 4, 60],
}


#: multi-class and regression axes: the layouts, blocks and slices of the binary
#: matrix with each task's own metrics; "canonical" and "val-only" score seeds on validation only
TASK_LAYOUTS: dict[str, list] = {
    "layout": ["both", "canonical", "val-only", "test-only"],
    "blocks": ["none", "equal", "unequal"],
    "slices": ["none", "normal"],
    "fmt": ["csv", "parquet"],
    "predictions": [True, False],
    "explicit_task": [True, False],
}
MC_AXES: dict[str, list] = {
    "metric": ["log_loss", "brier", "accuracy", "error_rate"],
    **TASK_LAYOUTS,
    "missing_class": [False, True],
    "classes": [3, 10],
}
REG_AXES: dict[str, list] = {
    "metric": ["squared_error", "absolute_error"],
    **TASK_LAYOUTS,
    "unit": [None, "mmHg"],
}


def pairwise(axes: dict[str, list], seed: int = 0, tries: int = 20) -> list[dict]:
    """A deterministic greedy (AETG-style) set of rows covering every pair of axis values."""
    names = list(axes)
    index = {n: i for i, n in enumerate(names)}

    def pair(k1, v1, k2, v2):
        if index[k1] > index[k2]:
            k1, v1, k2, v2 = k2, v2, k1, v1
        return (k1, repr(v1), k2, repr(v2))

    uncovered = {
        pair(k1, v1, k2, v2)
        for k1, k2 in itertools.combinations(names, 2)
        for v1 in axes[k1]
        for v2 in axes[k2]
    }
    values = {n: {repr(v): v for v in axes[n]} for n in names}
    rng = random.Random(seed)
    rows: list[dict] = []
    while uncovered:
        best, best_new = None, set()
        ordered = sorted(uncovered)
        for _ in range(tries):
            k1, r1, k2, r2 = rng.choice(ordered)
            row = {k1: values[k1][r1], k2: values[k2][r2]}
            rest = [n for n in names if n not in row]
            rng.shuffle(rest)
            for k in rest:
                scored = [
                    (sum(pair(k, v, m, row[m]) in uncovered for m in row), rng.random(), i)
                    for i, v in enumerate(axes[k])
                ]
                row[k] = axes[k][max(scored)[2]]
            new = {
                pair(a, row[a], b, row[b]) for a, b in itertools.combinations(names, 2)
            } & uncovered
            if len(new) > len(best_new):
                best, best_new = row, new
        rows.append({n: best[n] for n in names})
        uncovered -= best_new
    return rows


#: the id words of a two-valued axis: (when true, when false)
_FLAG_WORDS = {
    "predictions": ("pred", "runlog"),
    "paired": ("paired", "unpaired"),
    "one_class": ("1class", "2class"),
    "category": ("cat", "nocat"),
    "general": ("general", "nogeneral"),
    "explicit_task": ("explicit", "inferred"),
    "missing_class": ("missing", "allclasses"),
}
#: the id word of a valued axis
_VALUE_WORDS = {
    "general_broken": "gdrop{}",
    "labels": "labels-{}",
    "blocks": "blocks-{}",
    "slices": "slices-{}",
    "classes": "{}classes",
}


def _short(key: str, value) -> str:
    if key in _FLAG_WORDS:
        return _FLAG_WORDS[key][0 if value else 1]
    if key in _VALUE_WORDS:
        return _VALUE_WORDS[key].format(value)
    if key == "unit":
        return value or "nounit"
    return str(value)


def cell_id(prefix: str, cell: dict) -> str:
    return prefix + "-" + "-".join(_short(k, v) for k, v in cell.items() if k != "id")


def mvb_cells() -> list[dict]:
    return [{"id": cell_id("mvb", c), **c} for c in pairwise(MVB_AXES)]


def task_cells() -> list[dict]:
    """The multi-class and the regression pairwise sets."""
    mc = [{"task": "multiclass", **c} for c in pairwise(MC_AXES)]
    reg = [{"task": "regression", **c} for c in pairwise(REG_AXES)]
    return [{"id": cell_id("task", c), **c} for c in mc + reg]


def ba_cells() -> list[dict]:
    return [{"id": cell_id("ba", c), "kind": "ba", **c} for c in pairwise(BA_AXES)]


#: named cells that the figure tests use (and the matrix builds too)
CANONICAL = {"id": "canonical-weekly52", "layout": "canonical", "blocks": "weekly52"}
CANONICAL_RUNLOG = {
    "id": "canonical-runlog-paired",
    "layout": "canonical",
    "blocks": "weekly52",
    "predictions": False,
    "paired": True,
}
UNEQUAL_FLIP = {"id": "unequal-flip", "blocks": "unequal", "effect": "flip", "slices": "none"}
ONE_ROW_SLICE = {
    "id": "one-row-slice-harm",
    "slices": "one-row",
    "effect": "very-strong",
    "blocks": [40] * 30,
}
#: the same evidence without the harmful one-row slice: the control that would adopt
ONE_ROW_CONTROL = {**ONE_ROW_SLICE, "id": "one-row-slice-control", "slices": "none"}
ONE_CLASS = {"id": "one-class-test", "one_class": True}
TIE = {"id": "tie-log-loss", "effect": "tie"}
#: a tie inside a wide equivalence band: "tied" is allowed here
TIE_WIDE_BAND = {"id": "tie-inside-band", "effect": "tie", "min_useful_effect": 0.5}
TEST_ONLY = {"id": "test-only-seeds", "layout": "test-only"}
DISAGREE = {"id": "validation-test-disagree", "effect": "disagree"}
GROUP = {"id": "block-kind-group", "block_kind": "group", "block_col": "batch"}
PERIOD = {"id": "block-kind-period", "block_kind": "period"}
MARGIN = {"id": "not-worse-margin", "not_worse_margin": 0.05}
BA_NO_CATEGORY = {"id": "ba-no-category", "kind": "ba", "category": False}
BA_GENERAL_DROP = {"id": "ba-general-drop-0.013", "kind": "ba", "general_broken": 4}
BA_BLOCKS = {"id": "ba-blocks", "kind": "ba", "blocks": "equal"}
#: few unequal blocks (t primary): the point estimate and the interval must share one estimand
BA_UNEQUAL = {
    "id": "ba-unequal-blocks",
    "kind": "ba",
    "blocks": [340] + [5] * 12,
    "general_blocks": True,
    "broken": 60,
    "fixed_in_small_blocks": True,
}
BA_BLOCKS_GENERAL = {
    "id": "ba-blocks-general-blocks",
    "kind": "ba",
    "blocks": "equal",
    "general_blocks": True,
}
#: before/after blind spots. The general set on other questions
#: (today: the 150 shared ones pair, drop 0, "held", adopt)
BA_GENERAL_OTHER = {
    "id": "ba-general-other-questions",
    "kind": "ba",
    "general_shift": 150,
    "general_in_split": False,
    "min_useful_effect": 0.05,
}
#: ... and with split/general.csv (all 450) in the manifest: coverage fails, held must be false
BA_GENERAL_OTHER_FROZEN = {
    **BA_GENERAL_OTHER,
    "id": "ba-general-other-frozen",
    "general_in_split": True,
}
#: item 2: q0150 twice in split/test.csv (301 rows, 300 answered): an input error
BA_DUPLICATE_ID = {
    "id": "ba-duplicate-question-id",
    "kind": "ba",
    "questions": 300,
    "duplicate_id": True,
}
#: item 3: every broken question is 'dates' (0.52 -> 0.38), a required slice with margin 0.02
BA_SLICE_WORSE = {
    "id": "ba-required-slice-worse",
    "kind": "ba",
    "broken_category": "dates",
    "category_before": 52,
    "broken": 14,
    "slice_required": "dates",
    "not_worse_margin": 0.02,
}
#: item 4: 5 fixed, 40 broken of 300: a clear harm
BA_HARM = {"id": "ba-tuning-harms", "kind": "ba", "questions": 300, "fixed": 5, "broken": 40}
#: item 5: the after version left 10 frozen questions unanswered; the general file misses rows
BA_UNANSWERED = {
    "id": "ba-after-left-10-unanswered",
    "kind": "ba",
    "questions": 300,
    "unanswered": 10,
}
BA_GENERAL_ROWS_MISSING = {"id": "ba-general-rows-missing", "kind": "ba", "general_unanswered": 10}
BA_ISSUE_20 = [
    BA_GENERAL_OTHER,
    BA_GENERAL_OTHER_FROZEN,
    BA_DUPLICATE_ID,
    BA_SLICE_WORSE,
    BA_HARM,
    BA_UNANSWERED,
    BA_GENERAL_ROWS_MISSING,
]
DETERMINISTIC_BASE = {"id": "deterministic-baseline", "deterministic": "baseline"}
DETERMINISTIC_BOTH = {"id": "deterministic-both", "deterministic": "both"}
BA_EDITED = {"id": "ba-edited-after-freeze", "kind": "ba", "edit_after_freeze": True}
MVB_EDITED = {"id": "mvb-edited-after-freeze", "edit_after_freeze": True, "effect": "very-strong"}
ROUNDED = {"id": "logged-rounded-4-decimals", "log_digits": 4}
EMPTY_BLOCKS = {"id": "empty-block-values-3", "empty_block_rows": 3}
NO_VAL_BLOCK = {"id": "validation-without-block-column", "val_block_column": False}
PAIRED = {
    f"paired-{layout}-{labels}": {
        "id": f"paired-{layout}-{labels}",
        "layout": layout,
        "labels": labels,
        "paired": True,
    }
    for layout in ("both", "val-only")
    for labels in ("match", "extra", "disjoint")
}

SPECIAL = [
    CANONICAL,
    CANONICAL_RUNLOG,
    UNEQUAL_FLIP,
    ONE_ROW_SLICE,
    ONE_ROW_CONTROL,
    ONE_CLASS,
    TIE,
    TIE_WIDE_BAND,
    TEST_ONLY,
    DISAGREE,
    GROUP,
    PERIOD,
    MARGIN,
    BA_NO_CATEGORY,
    BA_GENERAL_DROP,
    BA_BLOCKS,
    BA_BLOCKS_GENERAL,
    BA_UNEQUAL,
    DETERMINISTIC_BASE,
    DETERMINISTIC_BOTH,
    BA_EDITED,
    MVB_EDITED,
    ROUNDED,
    EMPTY_BLOCKS,
    NO_VAL_BLOCK,
    *PAIRED.values(),
    *BA_ISSUE_20,
]


#: cross-validation cells: the layouts of tests/layouts/gen_cv.py
CV_CELLS = [
    {"id": "cv-3-folds", "kind": "cv", "repeats": 1, "folds": 3, "rows": 60},
    {"id": "cv-1-repeat", "kind": "cv", "repeats": 1, "folds": 10, "rows": 200},
    {"id": "cv-unequal-folds", "kind": "cv", "repeats": 2, "sizes": [50, 30, 20, 10]},
    {"id": "cv-runlog-only", "kind": "cv", "predictions": False, "folds_file": False},
    {"id": "cv-runlog-with-folds", "kind": "cv", "predictions": False},
    {"id": "cv-5x10", "kind": "cv", "repeats": 5, "folds": 10, "rows": 150, "seeds": (2, 1)},
    {"id": "cv-test-part", "kind": "cv", "test_part": True},
    {"id": "cv-two-folds-refused", "kind": "cv", "repeats": 1, "folds": 2, "rows": 40},
    {"id": "cv-leave-one-out", "kind": "cv", "repeats": 1, "folds": 8, "rows": 8},
    {"id": "cv-tie-wide-band", "kind": "cv", "effect": "tie", "min_useful_effect": 0.5},
    {"id": "cv-train-rows", "kind": "cv", "train_rows": 100},
    {"id": "cv-parquet-accuracy", "kind": "cv", "fmt": "parquet", "metric": "accuracy"},
    {"id": "cv-custom-metric", "kind": "cv", "metric": "custom_low"},
    {"id": "cv-deterministic-baseline", "kind": "cv", "deterministic_baseline": True},
    {"id": "cv-worse", "kind": "cv", "effect": "worse"},
    {"id": "cv-no-useful-effect", "kind": "cv", "min_useful_effect": None},
]


def cv_cells() -> list[dict]:
    return list(CV_CELLS)


#: named task cells the figure tests use: one class missing from the first test block, and
#: both tasks on unequal blocks with slices (and a unit)
MC_MISSING = {
    "id": "task-multiclass-missing-class",
    "task": "multiclass",
    "missing_class": True,
    "blocks": "equal",
}
MC_CANONICAL = {"id": "task-multiclass-canonical", "task": "multiclass", "layout": "canonical"}
REG_UNIT = {"id": "task-regression-unit", "task": "regression", "unit": "mmHg"}
REG_UNEQUAL = {
    "id": "task-regression-unequal",
    "task": "regression",
    "blocks": "unequal",
    "metric": "absolute_error",
}
MC_BINARY_CLASSES = {"id": "task-multiclass-2classes", "task": "multiclass", "classes": 2}
TASK_SPECIAL = [MC_MISSING, MC_CANONICAL, REG_UNIT, REG_UNEQUAL, MC_BINARY_CLASSES]


def all_cells() -> list[dict]:
    return mvb_cells() + ba_cells() + SPECIAL + task_cells() + TASK_SPECIAL + cv_cells()


# --------------------------------------------------------------------------- the consistency matrix

#: "Every sentence agrees with every number": which way the evidence points, on which task, in
#: which design, with or without blocks, and how the seeds stand
CONSISTENCY_AXES: dict[str, list] = {
    "direction": ["better-useful", "better-not-useful", "tie", "inconclusive", "worse"],
    "task": ["binary", "multiclass", "regression", "questions"],
    "design": ["split", "cv", "cv-test", "before-after"],
    "blocks": ["column", "none"],
    "seeds": ["unpaired", "paired", "one"],
}


def consistency_valid(row: dict) -> bool:
    """Whether a combination of the consistency axes can be built: before/after scores one
    network per version on questions; cross-validation is binary, without a block column."""
    if (row["design"] == "before-after") != (row["task"] == "questions"):
        return False
    if row["design"] == "before-after":
        return row["seeds"] == "one"
    if row["design"] in ("cv", "cv-test"):
        return row["task"] == "binary" and row["blocks"] == "none"
    return True


def covering(axes: dict[str, list], valid) -> list[dict]:
    """A deterministic greedy set of valid rows covering every pair of axis values that some
    valid row holds: each step takes the valid row covering the most pairs still uncovered."""
    names = list(axes)
    rows = [
        dict(zip(names, values, strict=True))
        for values in itertools.product(*(axes[n] for n in names))
    ]
    rows = [r for r in rows if valid(r)]

    def pairs(row: dict) -> set:
        return {(a, repr(row[a]), b, repr(row[b])) for a, b in itertools.combinations(names, 2)}

    uncovered = set().union(*(pairs(r) for r in rows))
    chosen: list[dict] = []
    while uncovered:
        best = max(rows, key=lambda r: len(pairs(r) & uncovered))
        chosen.append(best)
        uncovered -= pairs(best)
    return chosen


#: per task: the effect and useful effect of each direction (the metric's scale differs)
_DIRECTION = {
    "binary": {
        "better-useful": ("strong", 0.001),
        "better-not-useful": ("strong", 0.5),
        "tie": ("tie", 0.5),
        "inconclusive": ("tie", 0.005),
        "worse": ("worse", 0.005),
    },
    "regression": {
        "better-useful": ("strong", 1.0),
        "better-not-useful": ("strong", 100.0),
        "tie": ("tie", 20.0),
        "inconclusive": ("tie", 0.01),
        "worse": ("worse", 1.0),
    },
}
_DIRECTION["multiclass"] = {**_DIRECTION["binary"], "better-useful": ("very-strong", 0.005)}
#: before/after: (fixed, broken, useful effect) of 400 questions
_BA_DIRECTION = {
    "better-useful": (120, 20, 0.05),
    "better-not-useful": (60, 20, 0.5),
    "tie": (10, 10, 0.2),
    "inconclusive": (14, 10, 0.01),
    "worse": (5, 40, 0.01),
}


def consistency_cell(row: dict) -> dict:
    """The generator cell of one row of the consistency axes, with the row's id."""
    cid = "cons-" + "-".join(str(row[k]) for k in CONSISTENCY_AXES)
    d = row["direction"]
    if row["design"] == "before-after":
        fixed, broken, m = _BA_DIRECTION[d]
        blocks = "equal" if row["blocks"] == "column" else "none"
        cell = {"kind": "ba", "fixed": fixed, "broken": broken, "min_useful_effect": m}
        return {"id": cid, **cell, "blocks": blocks}
    effect, m = _DIRECTION[row["task"]][d]
    seeds = 1 if row["seeds"] == "one" else 5
    paired = row["seeds"] == "paired"
    if row["design"] in ("cv", "cv-test"):
        n = 1 if seeds == 1 else 2
        return {
            "id": cid,
            "kind": "cv",
            "effect": effect,
            "min_useful_effect": m,
            "repeats": 2,
            "folds": 5,
            "rows": 400,
            "seeds": (n, n),
            "paired": paired,
            "test_part": row["design"] == "cv-test",
        }
    cell = {
        "id": cid,
        "effect": effect,
        "min_useful_effect": m,
        "seeds": seeds,
        "paired": paired,
        "blocks": "equal" if row["blocks"] == "column" else "none",
    }
    if row["task"] != "binary":
        cell["task"] = row["task"]
    if row["task"] == "regression":
        cell.update(unit="mmHg", slices="none", scale=10.0)
    return cell


#: the conflicts page one must name, which the axes alone do not produce: validation and test
#: of opposite signs, and a two-level interval holding zero while the primary lies above it
CONSISTENCY_CONFLICTS = [
    {"id": "cons-conflict-sign-disagreement", "effect": "disagree"},
    {
        "id": "cons-conflict-two-level-includes-zero",
        "effect": "strong",
        "seeds": 3,
        "seed_jitter": 0.35,
        "seed": 2,
    },
]


def consistency_cells() -> list[dict]:
    """The consistency matrix: a pairwise covering set of CONSISTENCY_AXES' buildable rows,
    then the conflict cells."""
    rows = covering(CONSISTENCY_AXES, consistency_valid)
    return [consistency_cell(r) for r in rows] + CONSISTENCY_CONFLICTS
