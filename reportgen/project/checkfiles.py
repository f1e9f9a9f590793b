"""Rung-1 check files under artefacts/checks/: one sanity check of the training code each."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeGuard

from reportgen.errors import Problem, clean_text, quote, said, said_ids
from reportgen.project.init_rule import evaluate_initial_loss, evaluate_overfit
from reportgen.words import power_of_ten, sig
from reportgen.words.i18n import _, n_
from reportgen.words.reasons import reason_words

#: the largest max relative error of a gradient check that passes
GRADIENT_BAR = 1e-4
GRADIENT_BAR_WORDS = "10⁻⁴"

KNOWN = {
    "initial_loss": ("value", "classes or target_variance"),
    "gradient": ("max_relative_error",),
    "overfit": ("rows",),
    "shapes": ("passed", "assertions"),
    # a diagnostic cited by rung 1, not one of the four checks (methods, input sensitivity)
    "sensitivity": ("features", "finite_differences or reason"),
}


@dataclass
class CheckFile:
    path: str
    check: str
    model: str
    fields: dict = field(default_factory=dict)
    passed: bool | None = None
    text: str = ""

    def sentence(self) -> str:
        """``text`` in the language being written: the file is read before a build knows its
        language, so the sentence is built again from the file's fields (``text`` without)."""
        return evaluate(self.check, self.fields)[1] if self.fields else self.text


@dataclass(frozen=True)
class CheckVerdict:
    """One kind of rung-1 check of one model, judged from every file of that kind."""

    kind: str
    paths: tuple[str, ...]  #: every file of the kind, sorted
    passed: bool | None  #: False when any file fails, True when every file passes
    detail: str  #: the sentence with its numbers, naming the file when there are several


def verdict(kind: str, files: Iterable[CheckFile]) -> CheckVerdict:
    """The check ``kind`` from all of ``files`` (its files for one model), whatever their
    names: any failing file fails it, and the sentence names the first failing one; a file
    that cannot be judged leaves it uncredited unless another fails."""
    mine = sorted(files, key=lambda c: c.path)
    paths = tuple(c.path for c in mine)
    if len(mine) == 1:
        return CheckVerdict(kind, paths, mine[0].passed, mine[0].sentence())
    failed = [c for c in mine if c.passed is False]
    if failed:
        f = failed[0]
        return CheckVerdict(
            kind,
            paths,
            False,
            n_(
                "{n} of {total} {kind} files fails; {path}: {text}",
                "{n} of {total} {kind} files fail; {path}: {text}",
                len(failed),
                total=len(mine),
                kind=kind,
                path=f.path,
                text=f.sentence(),
            ),
        )
    judged = sum(1 for c in mine if c.passed)
    passed = True if judged == len(mine) else None
    head = (
        n_("all {n} {kind} files pass", "all {n} {kind} files pass", len(mine), kind=kind)
        if passed
        else n_(
            "{n} of {total} {kind} files pass, the others are not credited",
            "{n} of {total} {kind} files pass, the others are not credited",
            judged,
            total=len(mine),
            kind=kind,
        )
    )
    return CheckVerdict(
        kind, paths, passed, head + "".join(f"; {c.path}: {c.sentence()}" for c in mine)
    )


def verdicts(files: Iterable[CheckFile], model: str) -> dict[str, CheckVerdict]:
    """Each kind of check ``model``'s files hold, judged from all of its files, by kind."""
    kinds: dict[str, list[CheckFile]] = {}
    for c in files:
        if c.model == model:
            kinds.setdefault(c.check, []).append(c)
    return {k: verdict(k, kinds[k]) for k in sorted(kinds)}


#: most classes an initial-loss check may name (ln(k) of anything larger is not a sanity check)
MAX_CLASSES = 1_000_000


def _num(v: object) -> TypeGuard[float]:
    """A finite number that fits a float (a 4,000-digit integer does not)."""
    if not isinstance(v, int | float) or isinstance(v, bool):
        return False
    try:
        return math.isfinite(float(v))
    except OverflowError:
        return False


def evaluate(check: str, f: dict) -> tuple[bool | None, str]:
    """Pass/fail of one rung-1 check and a sentence with its numbers (the initial loss and the
    overfit by task: reportgen.project.init_rule)."""
    if check == "initial_loss":
        return evaluate_initial_loss(f, _num, MAX_CLASSES)
    if check == "gradient":
        e, lib = f.get("max_relative_error"), f.get("library")
        if not _num(e) and isinstance(lib, str) and lib.strip():
            return True, _(
                "gradient from a tested library ({library}), not measured",
                library=lib.strip()[:80],
            )
        if not _num(e):
            return None, _(
                "needs a numeric max_relative_error (or the tested library it comes from)"
            )
        ok = e <= GRADIENT_BAR
        words = {"error": sig(e, 2), "bar": GRADIENT_BAR_WORDS}
        return ok, (
            _("gradient check max relative error {error} (at most {bar})", **words)
            if ok
            else _("gradient check max relative error {error} (above {bar})", **words)
        )
    if check == "overfit":
        rows = f.get("rows")
        return evaluate_overfit(f, _num, clean_text(rows, 40) if rows is not None else None)
    if check == "shapes":
        p, n = f.get("passed"), f.get("assertions")
        if not isinstance(p, bool):
            return None, _("needs passed = true/false")
        if n is None:
            return p, _("shape assertions passed") if p else _("shape assertions FAILED")
        n = clean_text(n, 40)
        return p, (
            _("shape assertions passed ({n} assertions)", n=n)
            if p
            else _("shape assertions FAILED ({n} assertions)", n=n)
        )
    if check == "sensitivity":
        return evaluate_sensitivity(f)
    return None, _("unknown check {name}", name=quote(check))


def evaluate_sensitivity(f: dict) -> tuple[bool | None, str]:
    """The finite-difference agreement of an input-sensitivity file (methods section 10): the
    whole file checked first (project/sensitivity.py); a model it is not defined for has its
    reason and no verdict."""
    from reportgen.project.sensitivity import BadFile, parse_sensitivity

    try:
        s = parse_sensitivity(f)
    except BadFile as e:
        return None, str(e)
    if s.reason is not None or s.check is None:
        return None, reason_words(s.reason or "")
    c = s.check
    left_out = (
        n_(
            "; {n} entry beside a relu kink left out",
            "; {n} entries beside a relu kink left out",
            int(c.excluded),
        )
        if c.excluded
        else ""
    )
    if c.passed:
        return True, _(
            "input gradients agree with central differences (max relative error {error}){left_out}",
            error=sig(c.max_relative_error, 2),
            left_out=left_out,
        )
    w = f.get("finite_differences", {}).get("worst")
    w = w if isinstance(w, dict) else {}
    a, n, eps = w.get("analytical"), w.get("finite_difference"), w.get("eps")
    if _num(a) and _num(n) and _num(eps) and eps > 0:
        factor = n / a if a else None
        guess = (
            (
                _(": a factor {factor}, a missing 1/s?", factor=sig(factor, 3))
                if abs(factor - 1) > 0.01
                else _(": a factor {factor}", factor=sig(factor, 3))
            )
            if factor is not None and factor > 0
            else ""
        )
        return False, _(
            "dp/dx_{feature} analytical {analytical}, finite difference {numerical} at eps = "
            "{eps}{guess}{left_out}",
            feature=clean_text(w.get("feature"), 40),
            analytical=sig(a, 3),
            numerical=sig(n, 3),
            eps=power_of_ten(eps, 1),
            guess=guess,
            left_out=left_out,
        )
    return False, _(
        "input gradients disagree with central differences (max relative error {error}){left_out}",
        error=sig(c.max_relative_error, 2),
        left_out=left_out,
    )


def parse_checkfile(
    text: str, name: str, problems: list[Problem], warnings: list[Problem]
) -> CheckFile | None:
    from reportgen.project.manifest import BAD, parse_json

    doc = parse_json(text, name, problems)
    if doc is BAD:
        return None
    if (
        not isinstance(doc, dict)
        or not isinstance(doc.get("check"), str)
        or not isinstance(doc.get("model"), str)
    ):
        problems.append(
            Problem(
                _('a check file is an object with string "check" and "model" fields'),
                name,
                1,
                slug="bad-check",
            )
        )
        return None
    check = doc["check"]
    if check not in KNOWN:
        warnings.append(
            Problem(
                _(
                    "unknown check {check} (known: {known}); it is listed but not credited",
                    check=said(check),
                    known=said_ids(KNOWN),
                ),
                name,
                1,
                slug="unknown-check",
                severity="warning",
            )
        )
    passed, text_ = evaluate(check, doc)
    if passed is None and check in KNOWN and not (check == "sensitivity" and "reason" in doc):
        warnings.append(
            Problem(
                _("{check}: {text}; the check is not credited", check=check, text=text_),
                name,
                1,
                slug="bad-check",
                severity="warning",
            )
        )
    return CheckFile(name, check, doc["model"], doc, passed, text_)
