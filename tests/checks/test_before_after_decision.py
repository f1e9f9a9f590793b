"""Before-after: the decision table, hand-worked fixed/broken and McNemar, the category sentence."""

import itertools

import pytest
from scipy.stats import binomtest

from reportgen.checks import compute_report
from reportgen.project import load_project
from tests.checks.builder_ba import make_ba_project

# interval: "above" (a clear gain), "below" (a clear loss) or "around" zero; general held or dropped;
# min_useful_effect absent, or present and larger than the gain's lower end
INTERVALS = {
    "above": {"fixed": 120, "broken": 20},
    "around": {"fixed": 20, "broken": 20},
    "below": {"fixed": 10, "broken": 90},
}
GENERAL = {
    "held": 1 / 300,
    "dropped": 0.2,
}  # held: one broken general question of 300 (upper bound < 0.02)
USEFUL = {"none": None, "small": 0.05, "large": 0.5}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    out = {}
    for iv, gen, mue in itertools.product(INTERVALS, GENERAL, USEFUL):
        root = make_ba_project(
            tmp_path_factory.mktemp(f"{iv}-{gen}-{mue}"),
            **INTERVALS[iv],
            general_drop=GENERAL[gen],
            min_useful_effect=USEFUL[mue],
        )
        out[(iv, gen, mue)] = compute_report(load_project(root))[0]
    return out


@pytest.mark.parametrize("iv,gen,mue", list(itertools.product(INTERVALS, GENERAL, USEFUL)))
def test_decision_table(table, iv, gen, mue):
    r = table[(iv, gen, mue)]
    ba, d = r["before_after"], r["decision"]
    adopt = iv == "above" and gen == "held" and mue != "large"
    assert d["verdict"] == ("adopt" if adopt else "roll-back"), (ba["low"], ba["high"], d)
    assert d["recommend"] == ("after" if adopt else "before")
    reasons = " ".join(d["reasons"])
    if gen == "dropped":
        assert "general set dropped" in reasons
        assert r["general"]["held"] is False
        assert r["ladder"][4]["status"] == "not shown"
    else:
        assert r["general"]["held"] is True
    if iv == "below":  # a harm is said to be one, not "not above zero"
        assert "tuning made it worse" in reasons and "is not above" not in reasons, reasons
    elif iv != "above" or mue == "large":
        assert "is not above" in reasons, reasons
    # the interval itself is on the side the table says
    if iv == "above":
        assert ba["low"] > 0
    elif iv == "below":
        assert ba["high"] < 0
    else:
        assert ba["low"] < 0 < ba["high"]
    if mue == "large" and iv == "above":
        assert "useful effect" in reasons


def test_fixed_broken_accuracies_and_mcnemar_by_hand(table):
    r = table[("above", "held", "none")]
    ba = r["before_after"]
    assert (ba["fixed"], ba["broken"]) == (120, 20)
    assert ba["questions"] == 400
    assert ba["before"] == pytest.approx(200 / 400)
    assert ba["after"] == pytest.approx((200 + 120 - 20) / 400)
    assert ba["difference"] == pytest.approx(100 / 400)
    assert ba["mcnemar_p"] == pytest.approx(binomtest(120, 140, 0.5).pvalue, rel=1e-12)
    assert len(ba["broken_ids"]) == 20 and len(ba["fixed_ids"]) == 120
    assert sum(ba["broken_by_category"].values()) == 20
    assert sum(ba["fixed_by_category"].values()) == 120
    assert r["general"]["drop"] == pytest.approx(1 / 300, abs=1e-9)


def test_a_category_fixed_more_often_than_broken_moved_both_ways(tmp_path):
    """All 9 broken questions are 'dates', but 27 'dates' questions were fixed: no specific harm."""
    r, _ = compute_report(
        load_project(make_ba_project(tmp_path / "p", broken=9, broken_category="dates"))
    )
    ba = r["before_after"]
    assert ba["broken_by_category"] == {"dates": 9} and ba["fixed_by_category"]["dates"] == 27
    assert ba["category_sentence"] == (
        "9 of 9 broken questions are 'dates' (25% of the questions), but 27 'dates' questions "
        "were fixed: tuning moved that kind both ways."
    )
    assert ba["category_sentence"] in r["decision"]["reasons"]
    assert all(row["category"] == "dates" for row in ba["broken_rows"])


def test_a_category_broken_beyond_its_share_and_not_fixed_is_specific(tmp_path):
    r, _ = compute_report(
        load_project(make_ba_project(tmp_path / "p", fixed=0, broken=9, broken_category="dates"))
    )
    # 9 of 9 in a quarter of the questions: P(X >= 9) = 0.25 ** 9 = 3.8e-6
    assert r["before_after"]["category_sentence"] == (
        "9 of 9 broken questions are 'dates' (25% of the questions; 0 of them fixed): more than "
        "its share explains (p < 0.001), so tuning broke something specific."
    )


def test_no_category_sentence_when_spread(table):
    assert table[("above", "held", "none")]["before_after"]["category_sentence"] is None
