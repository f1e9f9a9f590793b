"""index.html for an instructor: every roster student (no submission said), the late penalty,
links to each report's files, the metric beside each gap, display names, the credited badge."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from reportgen.batch.index import index_context, render_index
from reportgen.batch.summary import BatchResult

from .fakes import fixture_report


def row(name: str, **kw) -> dict:
    r = {
        "name": name,
        "status": "ok",
        "verdict": "keep-baseline",
        "recommend": "gbm",
        "supported_rung": 2,
        "rung1_correct": "shown",
        "rung2_fair": "shown",
        "rung3_larger_than_noise": "not shown",
        "rung4_relevant": "not shown",
        "rung5_bounded": "shown",
        "gap": 0.0033,
        "gap_low": -0.0051,
        "gap_high": 0.0116,
        "seed_gap_in_sd": 0.88,
        "seconds": 1.0,
        "report": f"{name}/report.html",
        "metric": "log loss",
        "display": {
            "candidate": "MLP (1 x 32)",
            "baseline": "gradient boosting",
            "recommend": "gradient boosting",
        },
        "total": 6.0,
        "max": 14.0,
        "student": f"{name}@uni.example",
    }
    r.update(kw)
    return r


def page(tmp_path: Path, rows: list[dict], extra: dict | None = None) -> BeautifulSoup:
    result = BatchResult(tmp_path, rows, 1.0, extra or {"roster_missing": []})
    return BeautifulSoup(render_index(index_context(result)), "html.parser")


def cells_of(soup: BeautifulSoup, name: str) -> list[str]:
    for tr in soup.select("#by-name tbody tr"):
        if tr.td.get_text(" ", strip=True).startswith(name):
            return [td.get_text(" ", strip=True) for td in tr.find_all("td")]
    raise AssertionError(f"{name} not in the by-name table")


def test_every_roster_student_is_listed_and_a_missing_one_says_no_submission(tmp_path):
    extra = {
        "roster_missing": [
            {
                "name": "dave",
                "student": "dave@uni.example",
                "status": "missing",
                "error": "no submission with this name",
            }
        ]
    }
    soup = page(tmp_path, [row("alice"), row("carol")], extra)
    names = [tr.td.get_text(strip=True) for tr in soup.select("#by-name tbody tr")]
    assert names == ["alice", "carol", "dave"]
    dave = cells_of(soup, "dave")
    assert dave[1:3] == ["dave@uni.example", "missing"] and "no submission" in dave
    assert "1 on the roster without a submission" in soup.select_one(".meta").get_text()
    assert not soup.select("#by-name tbody tr")[2].find_all("td", class_="error")


def test_the_late_penalty_is_shown_beside_the_points(tmp_path):
    why = "a run started at 2026-04-10T11:45:00Z, after the deadline 2026-04-08T23:59:00Z"
    soup = page(tmp_path, [row("alice"), row("carol", late={"points": -2.0, "why": why})])
    assert cells_of(soup, "carol")[3] == "6 of 14 −2 late"
    assert soup.select_one(".late")["title"] == why
    assert cells_of(soup, "alice")[3] == "6 of 14"  # on time: no late mark


def test_links_go_only_to_files_that_exist_in_the_folder(tmp_path):
    (tmp_path / "alice").mkdir()
    for f in ("report.html", "report.pdf", "feedback.md"):
        (tmp_path / "alice" / f).write_text("x")
    (tmp_path / "bob").mkdir()
    (tmp_path / "bob" / "report.html").write_text("x")
    (tmp_path / "secret.md").write_text("x")
    (tmp_path / "bob" / "feedback.md").symlink_to(tmp_path / "secret.md")
    (tmp_path / "dave").mkdir()  # a --format json batch: its report.json is the report
    (tmp_path / "dave" / "report.json").write_text("{}")
    soup = page(tmp_path, [row("alice"), row("bob"), row("carol"), row("dave")])
    hrefs = {
        tr.td.get_text(strip=True): [a["href"] for a in tr.select("td.links a")]
        for tr in soup.select("#by-name tbody tr")
    }
    assert hrefs == {
        "alice": ["alice/report.html", "alice/report.pdf", "alice/feedback.md"],
        "bob": ["bob/report.html"],  # its feedback.md is a link out of the folder
        "carol": [],  # nothing was written
        "dave": ["dave/report.json"],
    }
    assert [a["href"] for a in soup.select("#by-rung a")] == [
        "alice/report.html",
        "bob/report.html",
        "dave/report.json",
    ]
    for a in soup.find_all("a"):
        assert not a["href"].startswith(("/", "..")) and (tmp_path / a["href"]).is_file()


def test_the_gap_names_its_metric_and_models_their_display_names(tmp_path):
    soup = page(tmp_path, [row("alice"), row("bob", metric="accuracy", verdict="adopt", gap=0.006)])
    alice, bob = cells_of(soup, "alice"), cells_of(soup, "bob")
    assert "log loss gap +0.0033 (−0.0051 to +0.0116)" in alice
    assert "accuracy gap +0.0060 (−0.0051 to +0.0116)" in bob
    assert "keep gradient boosting" in alice and "adopt MLP (1 x 32)" in bob
    assert "keep-baseline" not in soup.select_one("#by-name").get_text()


def test_the_credited_ladder_badge_and_a_shown_rung_not_credited(tmp_path):
    soup = page(
        tmp_path, [row("alice"), row("bob", rung3_larger_than_noise="shown", supported_rung=3)]
    )
    alice, bob = cells_of(soup, "alice"), cells_of(soup, "bob")
    assert "2 of 5 shown" in alice and "3 of 5 shown" in bob  # the badge alone: it is the rung
    assert alice[-5] == "shown, not credited"  # rung 5 above the unshown rung 3
    assert bob[-7] == "shown" and len(soup.select("#by-name td.not-credited")) == 2


def test_student_text_is_escaped(tmp_path):
    evil = row(
        "alice",
        student="<script>x</script>",
        display={"candidate": "<b>m</b>", "baseline": "<i>b</i>"},
        metric="<em>m</em>",
    )
    html = render_index(index_context(BatchResult(tmp_path, [evil], 1.0, {})))
    assert (
        "<script>x" not in html
        and "<b>m" not in html
        and "<i>b" not in html
        and "<em>m" not in html
    )


def test_a_cross_validated_gap_is_shown_and_named_so(tmp_path):
    # breast-cancer-cv has no test part: its gap is the mean fold gap with the corrected
    # interval, which the by-name table showed as "—"
    from reportgen.batch import summary_fields

    fields = summary_fields(fixture_report("report-breast-cancer-cv.json"))
    assert fields["gap_kind"] == "cv" and fields["gap"] == pytest.approx(0.003551, abs=1e-6)
    cv = row("bob", **{k: fields[k] for k in ("gap_kind", "gap", "gap_low", "gap_high")})
    bob = cells_of(page(tmp_path, [cv]), "bob")
    assert "log loss cross-validation gap +0.0036 (−0.0032 to +0.0103)" in bob, bob
    # a cross-validated project with a held-out test part reports that part's test gap
    assert summary_fields(fixture_report("report-cv-test-part.json"))["gap_kind"] == "block"
