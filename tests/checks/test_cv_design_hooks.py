"""The cv design's hooks: the cv figures do not depend on which hook asks for them first."""

from __future__ import annotations

import json

from reportgen.checks.cv import CrossValidation
from reportgen.checks.select import select_runs
from reportgen.project import ProjectPaths, load_project
from tests.layouts import cells as C
from tests.layouts.gen_cv import make_cv_project


def _design(path):
    project = load_project(path, ProjectPaths())
    cand, base = select_runs(project, "candidate"), select_runs(project, "baseline")
    return CrossValidation(project, cand, base)


def test_cv_figures_are_the_same_whichever_hook_asks_first(tmp_path):
    cell = C.cv_cells()[0]
    gen = make_cv_project(tmp_path / "p", **cell)
    seed_first = _design(gen.path)
    seed, _ = seed_first.seed()
    iv_after = seed_first.interval(seed, None)
    interval_first = _design(gen.path)
    iv_before = interval_first.interval(seed, None)
    rung_first = _design(gen.path)
    rung = rung_first.noise_rung(seed, iv_before)
    assert iv_before == iv_after
    assert repr(rung) == repr(seed_first.noise_rung(seed, iv_after))
    figures = [
        json.dumps(d.cv.to_json(), sort_keys=True) for d in (seed_first, interval_first, rung_first)
    ]
    assert figures[0] == figures[1] == figures[2]
    assert interval_first.cv.planning.text == seed_first.cv.planning.text
    assert interval_first.noise(seed, None).cv is interval_first.cv
