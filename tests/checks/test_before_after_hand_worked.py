"""Before/after on hand-worked numbers: the general set, required slices, harms and coverage.

Each project is written answer by answer (tests/checks/builder_ba.py ``write_ba_project``), so
every accuracy, count and interval below is worked out by hand from those answers.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from reportgen.checks import compute_report
from reportgen.project import load_project
from tests.checks.builder_ba import CATEGORIES, GENERAL, HARM, Q300, write_ba_project

Q400 = [f"q{i:04d}" for i in range(400)]
#: a clear gain on the frozen set: 200 of 400 right before; 120 fixed, 20 broken
GAIN = (
    {q: int(i < 200) for i, q in enumerate(Q400)},
    {q: int(i < 180 or 200 <= i < 320) for i, q in enumerate(Q400)},
)
#: the slices of Q400: dates, units, names and places in turn
CATEGORY = {q: CATEGORIES[i % 4] for i, q in enumerate(Q400)}


def t_interval(d, confidence=0.95):
    """The paired t interval of a mean difference, written out."""
    d = np.asarray(d, dtype=float)
    half = scipy.stats.t.ppf(0.5 + confidence / 2, d.size - 1) * d.std(ddof=1) / np.sqrt(d.size)
    return d.mean() - half, d.mean() + half


def sliced(tmp_path, before=GAIN[0], after=GAIN[1]):
    """Q400 in four categories with dates a required slice (no worse by 0.02)."""
    return write_ba_project(
        tmp_path / "p",
        before=before,
        after=after,
        category=CATEGORY,
        evaluation='slice = "category"\nnot_worse_on = ["dates"]\nnot_worse_margin = 0.02',
    )


def report(root):
    return compute_report(load_project(root))[0]


# --------------------------------------------------------------------------- general set


@pytest.mark.parametrize("frozen", [False, True], ids=["general-not-frozen", "general-frozen"])
def test_general_set_scored_on_different_questions(tmp_path, frozen):
    """Before answered g0001-g0500 (0.90), after g0251-g0750 (0.70), alike on the 250 shared."""
    gb = {f"g{i:04d}": int(i > 50) for i in range(1, 501)}  # 450 of 500 right
    ga = {f"g{i:04d}": int(i <= 600) for i in range(251, 751)}  # 350 of 500 right
    root = write_ba_project(
        tmp_path / "p",
        before=GAIN[0],
        after=GAIN[1],
        general_before=gb,
        general_after=ga,
        general_ids=None if frozen else [],
        min_useful_effect=0.05,
    )
    r = report(root)
    g = r["general"]
    assert (g["before"], g["after"]) == (0.9, 0.7)
    assert g["drop"] is None and g["held"] is False and g["status"] == "not shown"
    lacks = "the before version left 250 and the after version 250 of the 750 general questions"
    assert g["reason"] == (
        f"the two versions did not answer the same general questions ({lacks} unanswered), "
        "so the drop is not shown"
    )
    assert r["decision"]["verdict"] == "roll-back"
    assert f"holding the general set is not shown: {g['reason']}" in r["decision"]["reasons"]
    check = next(c for c in r["checks"] if c["id"] == "general-set-held")
    assert check["passed"] is False
    assert check["text"].startswith(
        "general set 0.900 on 500 of 750 questions -> 0.700 on 500 of 750 questions: "
    )
    claim = r["claim"]["rewritten"]
    if frozen:  # split/general.csv in the manifest: coverage fails, the frozen set is not blamed
        assert claim.startswith("The comparison is not shown to be fair: coverage fails (")
        assert "250 general rows missing" in claim and "untouched" not in claim
    else:
        assert claim.endswith(
            f"a useful margin, but holding the general set is not shown: {g['reason']}."
        )


# ------------------------------------------------------------------------ required slices


def test_required_slice_in_before_after(tmp_path):
    """dates fell 0.52 to 0.38 (14 broken, none fixed); 40 fixed in each other category."""
    category = CATEGORY
    rank = {q: i // 4 for i, q in enumerate(Q400)}  # position within its category
    before = {q: int(rank[q] < 52) for q in Q400}
    after = {q: int(rank[q] < (38 if category[q] == "dates" else 92)) for q in Q400}
    root = sliced(tmp_path, before, after)
    r = report(root)
    dates = next(s for s in r["slices"] if s["slice"] == "dates")
    d = [after[q] - before[q] for q in Q400 if category[q] == "dates"]
    assert t_interval(d) == pytest.approx((-0.2092, -0.0708), abs=1e-4)
    t = t_interval(d)  # the primary interval is the wider of the bootstrap and this
    assert dates["high"] - dates["low"] >= t[1] - t[0] - 1e-12
    assert (dates["before"], dates["after"], dates["gap"]) == pytest.approx((0.52, 0.38, -0.14))
    assert (dates["fixed"], dates["broken"]) == (0, 14)
    assert dates["required"] and dates["worse"] and not dates["not_worse"]
    assert r["decision"]["verdict"] == "roll-back"
    assert r["decision"]["reasons"] == [
        "tuning made slice 'dates' (100 questions) worse: from 0.520 to 0.380, difference "
        "−0.140, interval −0.209 to −0.071, beyond the margin −0.02",
        "14 of 14 broken questions are 'dates' (25% of the questions; 0 of them fixed): more "
        "than its share explains (p < 0.001), so tuning broke something specific.",
    ]
    others = [s for s in r["slices"] if s["slice"] != "dates"]
    assert [(s["slice"], s["before"], s["after"]) for s in others] == [
        ("names", 0.52, 0.92),
        ("places", 0.52, 0.92),
        ("units", 0.52, 0.92),
    ]
    assert not any(s["required"] for s in others)


@pytest.mark.parametrize("rename", [100, 1], ids=["all-dates", "one-date"])
def test_slice_labels_that_disagree_are_said_never_zero_questions(tmp_path, rename):
    """The after file calls ``rename`` of before's 100 'dates' questions 'calendar': the slices
    they touch are not measured, with a warning naming how many questions disagree."""
    root = sliced(tmp_path)
    path = root / "artefacts" / "predictions" / "after-test.csv"
    frame = pd.read_csv(path)
    dates = frame.index[frame["category"] == "dates"][:rename]
    frame.loc[dates, "category"] = "calendar"
    frame.to_csv(path, index=False)
    r, warnings = compute_report(load_project(root))
    by_name = {s["slice"]: s for s in r["slices"]}
    assert by_name["dates"]["rows"] == 100 and by_name["calendar"]["rows"] == rename
    for name in ("dates", "calendar"):
        s = by_name[name]
        assert s["labels_disagree"] == rename and s["low"] is None and not s["not_worse"]
    assert "labels_disagree" not in by_name["units"]  # labelled alike: measured as before
    assert not re.search(r"\b0 questions", str(r)) and "no test rows in this slice" not in str(r)
    assert by_name["dates"]["not_worse_reason"] == (
        f"the before and after files label {rename} of its 100 questions differently, and a "
        "slice is measured only on labels both versions agree on (or from the split file)"
    )
    assert r["decision"]["verdict"] == "roll-back"
    assert r["decision"]["reasons"][0] == (
        "slice 'dates' (100 questions) is not shown to be no worse: "
        + by_name["dates"]["not_worse_reason"]
    )
    (w,) = [w for w in warnings if w.slug == "slice-labels-differ"]
    assert (w.path, w.line, w.column, w.severity) == (
        "artefacts/predictions/after-test.csv",
        2,  # q0000, the first 'dates' question, on the file's first data line
        3,
        "warning",
    )
    assert w.message.startswith(
        f"slice column 'category': the before and after files label {rename} of 400 questions "
        "differently (first 'q0000': 'dates' before, 'calendar' after)"
    )


def test_slice_labels_from_the_split_file_alone_agree(tmp_path):
    """Labels only in split/test.csv: both versions get the same labels, no warning."""
    root = sliced(tmp_path)
    for model in ("before", "after"):
        path = root / "artefacts" / "predictions" / f"{model}-test.csv"
        pd.read_csv(path).drop(columns="category").to_csv(path, index=False)
    r, warnings = compute_report(load_project(root))
    assert not [w for w in warnings if w.slug == "slice-labels-differ"]
    assert [(s["slice"], s["rows"]) for s in r["slices"]] == [
        ("dates", 100),
        ("names", 100),
        ("places", 100),
        ("units", 100),
    ]
    assert not any("labels_disagree" in s for s in r["slices"])


# --------------------------------------------------------------------------------- a harm


def test_a_harm_is_said_with_its_numbers(tmp_path):
    """300 questions, 150 right before; 5 fixed, 40 broken: -0.117, McNemar p = 7.9e-8."""
    before, after = HARM
    root = write_ba_project(tmp_path / "p", before=before, after=after)
    r = report(root)
    ba = r["before_after"]
    d = [after[q] - before[q] for q in Q300]
    t = t_interval(d)
    assert t == pytest.approx((-0.15870, -0.07464), abs=1e-5)
    assert (ba["t"]["low"], ba["t"]["high"]) == pytest.approx(t, abs=1e-12)
    p = scipy.stats.binomtest(5, 45, 0.5).pvalue
    assert ba["mcnemar_p"] == pytest.approx(p, rel=1e-12) and f"{p:.1e}" == "7.9e-08"
    assert ba["primary"] == "t"  # wider than the bootstrap here (random_seed 0, 500 resamples)
    assert r["claim"]["rewritten"] == (
        "Tuning made the model worse: frozen-set accuracy fell from 0.500 to 0.383 (−0.117, 95% "
        "interval −0.159 to −0.075; 5 fixed, 40 broken; McNemar p < 0.001)."
    )
    assert r["decision"]["verdict"] == "roll-back"
    assert r["decision"]["reasons"][0].startswith(
        "tuning made it worse: the difference −0.117 has interval "
    )
    assert r["ladder"][2]["summary"] == "tuning made it worse"


# ------------------------------------------------------------------------------- coverage


def test_unanswered_questions_name_coverage_and_the_count(tmp_path):
    """The after version left q0290-q0299 unanswered: accuracies on 290 of 300, coverage fails."""
    before = {q: int(i < 200) for i, q in enumerate(Q300)}
    after = {q: int(i < 207) for i, q in enumerate(Q300[:290])}
    root = write_ba_project(
        tmp_path / "p",
        before=before,
        after=after,
        test_ids=Q300,
    )
    r = report(root)
    ba = r["before_after"]
    assert ba["questions"] == 290
    assert (ba["before"], ba["after"]) == (200 / 290, 207 / 290)  # 0.690 and 0.714
    assert r["fairness"][0]["id"] == "manifest-verified" and r["fairness"][0]["passed"] is True
    claim = r["claim"]["rewritten"]
    assert claim.startswith(
        "The comparison is not shown to be fair: coverage fails (artefacts/predictions/"
        "after-test.csv: 10 test rows missing, 0 not in the part); measured: frozen-set accuracy "
        "went from 0.690 to 0.714 on 290 of 300 questions (+0.0241, "
    )
    assert "untouched" not in claim
    assert (
        "the frozen-set accuracies are on the 290 of 300 questions both versions answered: the "
        "after version left 10 of the 300 frozen questions unanswered"
    ) in r["decision"]["reasons"]
    assert r["decision"]["verdict"] == "roll-back"


def test_no_frozen_question_in_common_is_said_not_computed(tmp_path):
    """Before answered q0000-q0199, after q0200-q0399: nothing to pair, nothing established."""
    root = write_ba_project(
        tmp_path / "p",
        before={q: 1 for q in Q400[:200]},
        after={q: 1 for q in Q400[200:]},
    )
    r = report(root)
    assert r["before_after"]["questions"] == 0 and r["before_after"]["before"] is None
    assert r["claim"]["rewritten"] == (
        "Nothing is established: the two versions answered no frozen question in common (the "
        "before version left 200 and the after version 200 of the 400 frozen questions "
        "unanswered)."
    )
    assert r["decision"]["verdict"] == "roll-back"
    assert (
        "no interval on the difference (0 questions: an interval needs 2)"
        in (r["decision"]["reasons"])
    )


# ------------------------------------------------------------- singulars, reconsider, zero drop


def test_one_question_outside_the_split_is_said_in_the_singular(tmp_path):
    """The after version answered g0300, which split/general.csv does not hold."""
    after_general = {**GENERAL, "g0300": 1}
    root = write_ba_project(
        tmp_path / "p",
        before={q: int(i < 150) for i, q in enumerate(Q300)},
        after={q: int(i < 200) for i, q in enumerate(Q300)},
        general_after=after_general,
        general_ids=sorted(GENERAL),
    )
    r = report(root)
    assert r["general"]["reason"] == (
        "the two versions did not answer the same general questions (the after version answered "
        "1 question that is not in the general set's split file), so the drop is not shown"
    )


def test_reconsider_says_what_would_have_to_become_true(tmp_path):
    """An edited frozen set: the item is a condition with today's state after it, never
    "the frozen set is shown untouched: split/test.csv: sha256 differs"."""
    root = write_ba_project(
        tmp_path / "p",
        before={q: int(i < 150) for i, q in enumerate(Q300)},
        after={q: int(i < 200) for i, q in enumerate(Q300)},
    )
    path = root / "split" / "test.csv"
    path.write_text(path.read_text() + "q0300\n")
    r = report(root)
    assert r["claim"]["reconsider_items"][0] == (
        "the frozen set is shown untouched (now not shown: split/test.csv: sha256 differs "
        "(edited after freezing))"
    )


def test_a_general_set_scored_alike_drops_0_not_0_00000(tmp_path):
    """Both versions 270 of 300 on the general set: the drop is exactly 0."""
    root = write_ba_project(
        tmp_path / "p",
        before=GAIN[0],
        after=GAIN[1],
        min_useful_effect=0.05,
    )
    r = report(root)
    assert r["general"]["drop"] == 0.0
    assert "0.0000" not in str(r)
    assert r["claim"]["rewritten"].endswith(
        "and the general set held: a drop of 0 whose upper bound 0.0122 is within the allowed 0.02."
    )
    # rung 5 in the decision's words, not "upper bound 0.0122 <= 0.02" (tuned-replay page one)
    assert r["ladder"][4]["summary"] == (
        "the general set held (drop 0, upper bound 0.0122 within 0.02)"
    )


@pytest.mark.parametrize("harmed", ["dates", "units"], ids=["required", "not-required"])
def test_a_slice_tuning_made_worse_is_named_when_the_frozen_set_did_not_move(tmp_path, harmed):
    """``harmed`` falls 0.52 to 0.38 while the other three gain 5 questions each: the frozen set
    moves by +1 of 400, its interval holds zero, and the claim still names the harmed slice."""
    rank = {q: i // 4 for i, q in enumerate(Q400)}
    before = {q: int(rank[q] < 52) for q in Q400}
    after = {q: int(rank[q] < (38 if CATEGORY[q] == harmed else 57)) for q in Q400}
    r = report(sliced(tmp_path, before, after))
    section = r["before_after"]
    assert section["low"] < 0 < section["high"]
    s = next(s for s in r["slices"] if s["slice"] == harmed)
    assert s["worse"] and s["required"] is (harmed == "dates")
    claim = r["claim"]["rewritten"]
    assert claim.startswith("Tuning did not clearly change the model"), claim
    assert f"tuning made slice '{harmed}' (100 questions) worse: from 0.520 to 0.380" in claim
    assert claim.count(f"'{harmed}'") == 1 and claim.endswith(".")
