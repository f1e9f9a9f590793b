"""The rule may predate the freeze, and the credited ladder in both modes."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from reportgen.checks import compute_report
from reportgen.checks.ladder import credit
from reportgen.checks.ladder import rung as make_rung
from reportgen.model import Report
from reportgen.project import load_project
from reportgen.render.html import render_html
from reportgen.view import build_view
from reportgen.view.summary import ladder_view
from tests.checks.builder import make_project
from tests.checks.builder_ba import make_ba_project


def _fact(report: dict, fact: str) -> dict:
    return next(f for f in report["fairness"] if f["id"] == fact)


def _written(root, day: str) -> None:
    toml = root / "evreport.toml"
    toml.write_text(re.sub(r"written = \S+", f"written = {day}", toml.read_text()))


# the builder freezes on 2026-01-01, writes the rule on 2026-01-02, starts the runs 2026-01-03


def test_a_rule_written_before_the_freeze_is_pre_registered_not_unfair(tmp_path):
    root = make_project(tmp_path / "p")
    _written(root, "2025-12-29")
    report, _ = compute_report(load_project(root))
    fact = _fact(report, "rule-before-runs")
    assert fact["passed"] is True
    assert fact["text"] == (
        "decision rule written 2025-12-29, on or before the first run (2026-01-03); it also "
        "predates the freeze (2026-01-01): fixed even earlier, which is stronger, not a "
        "fairness failure"
    )
    assert report["ladder"][1]["status"] == "shown"


def test_a_rule_written_after_the_first_run_fails(tmp_path):
    root = make_project(tmp_path / "p")
    _written(root, "2026-01-04")
    fact = _fact(compute_report(load_project(root))[0], "rule-before-runs")
    assert fact["passed"] is False
    assert fact["text"] == "decision rule written 2026-01-04, AFTER the first run (2026-01-03)"


def test_the_first_run_s_day_itself_passes_and_no_run_times_is_unknown(tmp_path):
    root = make_project(tmp_path / "p")
    _written(root, "2026-01-03")
    assert _fact(compute_report(load_project(root))[0], "rule-before-runs")["passed"] is True
    runs = pd.read_csv(root / "runs.csv").drop(columns=["started_at"])
    runs.to_csv(root / "runs.csv", index=False)
    fact = _fact(compute_report(load_project(root))[0], "rule-before-runs")
    assert fact["passed"] is None
    assert "cannot be shown to predate the first run" in fact["text"]


def _statuses(report: dict) -> list[tuple[str, bool]]:
    return [(r["status"], r["credited"]) for r in report["ladder"]]


def test_credited_ladder_model_against_baseline(tmp_path):
    # noise not cleared: rungs 3 and 4 partly, rung 5 (slices and weeks measured) shown
    root = make_project(tmp_path / "p", cand_strength=1.0, seed_jitter=0.3)
    report, _ = compute_report(load_project(root))
    assert _statuses(report) == [
        ("shown", True),
        ("shown", True),
        ("partly", False),
        ("partly", False),
        ("shown", False),
    ]
    assert report["claim"]["supported_rung"] == 2
    row = ladder_view(Report.from_json(report))[4]
    assert (row.status.word, row.status.css) == ("shown, not credited", "not-credited")
    assert row.missing == (
        "not credited: rung 3 (larger than noise) below it is partly, and a rung counts "
        "only when every rung below it is shown"
    )
    assert [r.status.css for r in ladder_view(Report.from_json(report))[:2]] == ["shown", "shown"]


def test_credited_ladder_before_after(tmp_path):
    # no clear change on the frozen set, but the general set held: rung 5 shown, not credited
    root = make_ba_project(tmp_path / "p", fixed=20, broken=20, general_drop=1 / 300)
    report, _ = compute_report(load_project(root))
    assert _statuses(report)[2] == ("not shown", False)
    assert _statuses(report)[4] == ("shown", False)
    assert ladder_view(Report.from_json(report))[4].status.word == "shown, not credited"


def test_page_one_shows_the_not_credited_badge_never_green(tmp_path):
    root = make_project(tmp_path / "p", cand_strength=1.0, seed_jitter=0.3)
    report, _ = compute_report(load_project(root))
    html = render_html(build_view(Report.from_json(report), set()), {})
    ladder = html.split('aria-labelledby="h-ladder"')[1].split("</section>")[0]
    rows = re.findall(r'<tr class="row-([\w-]+)">', ladder)
    assert rows == ["shown", "shown", "partly", "partly", "not-credited"]
    badge = '<span class="status status-not-credited"><span class="mark" aria-hidden="true">○'
    assert badge + "</span> shown, not credited</span>" in ladder
    assert ladder.count("status-shown") == 2  # green for rungs 1 and 2 only


@pytest.mark.parametrize("rung", [1, 2, 3, 4, 5])
def test_credited_is_every_rung_below_shown(rung):
    ladder = [make_rung(i, "shown" if i != rung else "partly", [], "x", "s") for i in range(1, 6)]
    assert [r.credited for r in credit(ladder)] == [i < rung for i in range(1, 6)]


def test_reconsider_items_are_conditions_with_today_after_them():
    """Never "rung 1 is shown: no predictions ... (now partly)", which
    reads as if rung 1 were shown; the condition first, then today's state and what is missing."""
    from tests.render.make_fixtures import minimal_report

    items = minimal_report()["claim"]["reconsider_items"]
    assert items[0].startswith(
        "rung 1 (correct) is shown (now not shown: no sanity-check files for new in "
        "artefacts/checks/"
    )
    assert items[1] == (
        "the comparison is shown fair (now not shown: no frozen-split manifest: the split was "
        "never frozen (run `evreport freeze` before training))"
    )
    # one run a side never reaches rung 3: the item says a second seed at least shows determinism
    assert items[2] == (
        "retraining noise is measured with at least 5 seeds per model (now 1 new, 1 old): a "
        "second seed per model also shows whether a model trains deterministically (two equal "
        "runs: zero seed spread, and with both models deterministic the rule is met when the "
        "gap is positive)"
    )
    assert not any(
        re.match(r"(rung 1|the comparison|the frozen set) is shown[^(]*:", i) for i in items
    )
