"""Rung 1 of a model against its baseline, correct: the candidate's sanity checks
(artefacts/checks/), the input-sensitivity agreement and the logged values recomputed."""

from __future__ import annotations

from reportgen.checks.ids import CheckId
from reportgen.checks.ladder import RungResult, logged_check, rung
from reportgen.checks.recompute import logged_words
from reportgen.checks.types import Check, Rung
from reportgen.model.data import Comparison
from reportgen.model.enums import RungStatus
from reportgen.project import Project
from reportgen.project.checkfiles import CheckVerdict, verdicts
from reportgen.words import (
    count,
    count_noun,
    full,
)
from reportgen.words.i18n import _, n_

#: the candidate's rung-1 sanity checks (artefacts/checks/)
RUNG_CHECKS = ("initial_loss", "gradient", "overfit", "shapes")
#: the check ids this module writes: a rung-1 check per sanity check, the seed rule and the
#: evaluation interval (rung 3), each required slice and the useful effect (rung 4)
SANITY = {name: CheckId(f"rung1-{name}", 1) for name in RUNG_CHECKS}
#: the input-sensitivity file's finite-difference agreement, cited beside the gradient check
#: when the candidate has one (a diagnostic: it fails rung 1 when it disagrees, never counts
#: among the four)
SENSITIVITY_KIND = "sensitivity"
SENSITIVITY = CheckId("rung1-sensitivity", 1)
#: rung 1's check ids in report order
RUNG1 = (
    SANITY["initial_loss"],
    SANITY["gradient"],
    SENSITIVITY,
    SANITY["overfit"],
    SANITY["shapes"],
)


def correct_rung(
    project: Project, model: str, comparisons: list[Comparison], doubt: str | None = None
) -> RungResult:
    """Rung 1 from the candidate's check files and logged-versus-recomputed metric values;
    ``doubt`` (the candidate's class columns look misnamed) makes a shown rung partly and is
    its one thing missing."""
    mine = verdicts(project.checks, model)
    checks = []
    for name in RUNG_CHECKS:
        c = mine.get(name)
        checks.append(
            Check(
                id=SANITY[name].id,
                rung=1,
                passed=c.passed if c else None,
                value=None,
                bar=None,
                artefacts=c.paths if c else (),
                text=c.detail
                if c
                else _("no {check} check file for {model} (not shown)", check=name, model=model),
            )
        )
        s = _sensitivity(project, model, mine)
        if name == "gradient" and s is not None:
            checks.append(
                Check(
                    SENSITIVITY.id,
                    1,
                    s.passed,
                    None,
                    None,
                    s.paths,
                    s.detail,
                )
            )
    logged, bad = logged_check(comparisons)
    arts = sorted(p for c in mine.values() for p in c.paths) + project.evidence.get("correct", [])
    arts += [c.cite for c in (bad or comparisons)]
    status = _correct_status(model, mine, comparisons, bad, arts)
    if doubt and status.status != RungStatus.NOT_SHOWN:  # the misnamed columns void the rest
        status = rung(
            1,
            RungStatus.PARTLY,
            arts,
            doubt,
            _("{summary}; its class columns look misnamed", summary=status.summary),
        )
    return status, [*checks, logged]


def _sensitivity(
    project: Project, model: str, mine: dict[str, CheckVerdict]
) -> CheckVerdict | None:
    """The candidate's sensitivity verdict when a file holds gradients (a file that only says
    why a model has none, a tree's, has no agreement to cite)."""
    v = mine.get(SENSITIVITY_KIND)
    files = [c for c in project.checks if c.model == model and c.check == SENSITIVITY_KIND]
    if v is None or all("reason" in c.fields for c in files):
        return None
    return v


def _correct_status(
    model: str,
    mine: dict[str, CheckVerdict],
    comparisons: list[Comparison],
    bad: list[Comparison],
    arts: list[str],
) -> Rung:
    failed = [
        mine[n] for n in (*RUNG_CHECKS, SENSITIVITY_KIND) if n in mine and mine[n].passed is False
    ]
    present = [n for n in RUNG_CHECKS if n in mine and mine[n].passed]
    absent = [n for n in RUNG_CHECKS if n not in mine or mine[n].passed is None]
    if failed:
        f = failed[0]
        return rung(
            1,
            RungStatus.NOT_SHOWN,
            arts,
            _("{check} check fails: {detail}", check=f.kind, detail=f.detail),
            n_(
                "{checks} of {model} fails",
                "{checks} of {model} fail",
                len(failed),
                checks=count_noun(len(failed), "sanity check"),
                model=model,
            ),
        )
    if not present and not comparisons:
        return rung(
            1,
            RungStatus.NOT_SHOWN,
            arts,
            _(
                "no sanity-check files for {model} in artefacts/checks/ (initial_loss, gradient, "
                "overfit, shapes) and no predictions to recompute metrics from",
                model=model,
            ),
            _("nothing shows the training and evaluation code is correct"),
        )
    if not absent and comparisons and not bad:
        return rung(
            1,
            RungStatus.SHOWN,
            arts,
            None,
            n_(
                "all four sanity checks of {model} pass and {values} matches its prediction",
                "all four sanity checks of {model} pass and {values} match their predictions",
                len(comparisons),
                model=model,
                values=count_noun(len(comparisons), "logged value"),
            ),
        )
    if bad:
        missing = n_(
            "{values} disagrees with its predictions, e.g. {cite} (logged {logged}, "
            "recomputed {recomputed})",
            "{values} disagree with their predictions, e.g. {cite} (logged {logged}, "
            "recomputed {recomputed})",
            len(bad),
            values=count_noun(len(bad), "logged value"),
            cite=bad[0].cite,
            logged=logged_words(bad[0]),
            recomputed=full(bad[0].recomputed),
        )
    elif absent:
        missing = _("no {checks} check for {model}", checks=", ".join(absent), model=model)
    else:
        missing = _("no predictions to recompute the logged metric values from")
    return rung(
        1,
        RungStatus.PARTLY,
        arts,
        missing,
        n_(
            "{passed} of 4 sanity checks of {model} passes",
            "{passed} of 4 sanity checks of {model} pass",
            len(present),
            passed=count(len(present)),
            model=model,
        ),
    )
