"""Rung-1 check files under artefacts/checks/: one sanity check of the training code each."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeGuard

from reportgen.errors import Problem, clean_text, quote
from reportgen.project.init_rule import evaluate_initial_loss, evaluate_overfit
from reportgen.words import count_noun, power_of_ten, sig

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
        return CheckVerdict(kind, paths, mine[0].passed, mine[0].text)
    failed = [c for c in mine if c.passed is False]
    if failed:
        f = failed[0]
        fail = "fails" if len(failed) == 1 else "fail"
        return CheckVerdict(
            kind,
            paths,
            False,
            f"{len(failed)} of {len(mine)} {kind} files {fail}; {f.path}: {f.text}",
        )
    judged = sum(1 for c in mine if c.passed)
    passed = True if judged == len(mine) else None
    head = (
        f"all {len(mine)} {kind} files pass"
        if passed
        else f"{judged} of {len(mine)} {kind} files pass, the others are not credited"
    )
    return CheckVerdict(kind, paths, passed, head + "".join(f"; {c.path}: {c.text}" for c in mine))


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
            return True, f"gradient from a tested library ({lib.strip()[:80]}), not measured"
        if not _num(e):
            return None, "needs a numeric max_relative_error (or the tested library it comes from)"
        ok = e <= GRADIENT_BAR
        bar = GRADIENT_BAR_WORDS
        return ok, (
            f"gradient check max relative error {sig(e, 2)} "
            + (f"(at most {bar})" if ok else f"(above {bar})")
        )
    if check == "overfit":
        rows = f.get("rows")
        return evaluate_overfit(f, _num, clean_text(rows, 40) if rows is not None else None)
    if check == "shapes":
        p, n = f.get("passed"), f.get("assertions")
        if not isinstance(p, bool):
            return None, "needs passed = true/false"
        return p, f"shape assertions {'passed' if p else 'FAILED'}" + (
            f" ({clean_text(n, 40)} assertions)" if n is not None else ""
        )
    if check == "sensitivity":
        return evaluate_sensitivity(f)
    return None, f"unknown check {quote(check)}"


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
        return None, s.reason or ""
    c = s.check
    left_out = (
        f"; {count_noun(c.excluded, 'entry')} beside a relu kink left out" if c.excluded else ""
    )
    if c.passed:
        return True, (
            "input gradients agree with central differences (max relative error "
            f"{sig(c.max_relative_error, 2)}){left_out}"
        )
    w = f.get("finite_differences", {}).get("worst")
    w = w if isinstance(w, dict) else {}
    a, n, eps = w.get("analytical"), w.get("finite_difference"), w.get("eps")
    if _num(a) and _num(n) and _num(eps) and eps > 0:
        factor = n / a if a else None
        guess = (
            f": a factor {sig(factor, 3)}" + (", a missing 1/s?" if abs(factor - 1) > 0.01 else "")
            if factor is not None and factor > 0
            else ""
        )
        return False, (
            f"dp/dx_{clean_text(w.get('feature'), 40)} analytical {sig(a, 3)}, finite difference "
            f"{sig(n, 3)} at eps = {power_of_ten(eps, 1)}{guess}{left_out}"
        )
    return False, (
        "input gradients disagree with central differences (max relative error "
        f"{sig(c.max_relative_error, 2)}){left_out}"
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
                'a check file is an object with string "check" and "model" fields',
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
                f"unknown check {quote(check)} (known: {', '.join(KNOWN)}); it is listed but not "
                "credited",
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
                f"{check}: {text_}; the check is not credited",
                name,
                1,
                slug="bad-check",
                severity="warning",
            )
        )
    return CheckFile(name, check, doc["model"], doc, passed, text_)
