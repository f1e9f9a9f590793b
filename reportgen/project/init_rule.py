"""The rung-1 rules for the loss before training and the tiny-batch overfit, per task
(docs/methods.md, "Rung 1: the initial loss").

An untrained network's output logits are small random numbers, not zeros. With C classes
and each logit of variance v, the expected cross-entropy is about ``ln C + (C-1)/(2C) v``
(binary with one logit z: ``ln 2 + var(z)/8``). A default initialisation (Glorot, He,
PyTorch's) keeps v below LOGIT_VARIANCE on standardised inputs, averaged over a few
initialisations (measured in docs/methods.md); a shifted output bias of +3 adds far more.
A regression network's output of variance 2v starts at ``var(y) (1 + 2v)`` when y is
standardised. So the loss passes from LOW_SHARE of the reference to the reference plus
that term.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeGuard

from reportgen.words import count, metric
from reportgen.words.i18n import _, n_

#: the largest per-logit variance a default initialisation gives (averaged over its draws)
LOGIT_VARIANCE = 2.0
#: below this share of the reference the network already knows something: not untrained
LOW_SHARE = 0.75
#: a memorised tiny batch: final loss at most this (nats), or this share of var(y)
OVERFIT_LOSS = 0.05
#: a final loss below this is floating-point noise around zero: printed as "about 0 (below 10⁻¹²)", not as 1.690 × 10⁻³²
LOSS_FLOOR = 1e-12
#: initialisations the helpers average over; fewer are named in a failure
STEADY_INITS = 5


def classification_bounds(reference: float, classes: int) -> tuple[float, float]:
    """(lowest, highest) initial loss of a healthy untrained classifier with this reference."""
    return LOW_SHARE * reference, reference + (classes - 1) / (2 * classes) * LOGIT_VARIANCE


def regression_bounds(target_variance: float) -> tuple[float, float]:
    """(lowest, highest) initial MSE of a healthy untrained regressor: var(y) is the loss of
    predicting the training mean."""
    return LOW_SHARE * target_variance, target_variance * (1 + 2 * LOGIT_VARIANCE)


def _draws(f: dict) -> str:
    n = f.get("inits")
    if isinstance(n, int) and not isinstance(n, bool) and n >= STEADY_INITS:
        return ""
    if isinstance(n, int) and not isinstance(n, bool) and n > 1:
        return n_(
            " (from the mean of {n} initialisation: the loss of a single draw of a narrow "
            "network varies a lot; average over {steady}, as reportgen.sanity does)",
            " (from the mean of {n} initialisations: the loss of a single draw of a narrow "
            "network varies a lot; average over {steady}, as reportgen.sanity does)",
            n,
            steady=count(STEADY_INITS),
        )
    return _(
        " (from one initialisation: the loss of a single draw of a narrow network varies a "
        "lot; average over {steady}, as reportgen.sanity does)",
        steady=count(STEADY_INITS),
    )


def initial_loss_verdict(
    value: float,
    reference: float,
    what: str,
    low: float,
    high: float,
    f: dict,
    regression: bool = False,
) -> tuple[bool, str]:
    """Pass/fail and the sentence: which side of the healthy range the loss is on, and why."""
    figures = {"value": metric(value), "what": what, "reference": metric(reference)}
    head = (
        _("initial MSE {value} against {what} = {reference}", **figures)
        if regression
        else _("initial loss {value} against {what} = {reference}", **figures)
    )
    if value > high:
        # only what moves an untrained network's loss: shifted or permuted labels and labels
        # leaking into the inputs leave it where it is, so they are not named
        cause = (
            _(
                "the output starts far from the targets: a shifted output bias, a target that "
                "is not standardised (start the output bias at the training mean), or "
                "unstandardised inputs feeding relu units?"
            )
            if regression
            else _("a shifted output bias, or unstandardised inputs feeding relu units?")
        )
        return False, _(
            "{head}: far above what a default initialisation gives (up to {high}): {cause}{draws}",
            head=head,
            high=metric(high),
            cause=cause,
            draws=_draws(f),
        )
    if value < low:
        return False, _(
            "{head}: below what an untrained network gives (at least {low}): measured after "
            "some training, or an output bias started at the class log-prior without "
            "prior_loss in the file?",
            head=head,
            low=metric(low),
        )
    return True, _(
        "{head}: within what a default initialisation gives (up to {high})",
        head=head,
        high=metric(high),
    )


def evaluate_initial_loss(
    f: dict, number: Callable[[object], TypeGuard[float]], max_classes: int
) -> tuple[bool | None, str]:
    """The initial_loss check of a file ``f`` (``number``: is a value a finite number)."""
    v = f.get("value")
    if f.get("task") == "regression" or "target_variance" in f:
        var = f.get("target_variance")
        if not (number(v) and number(var) and var > 0):
            return None, _(
                "a regression initial_loss needs a numeric value and target_variance > 0"
            )
        low, high = regression_bounds(var)
        what = _("the variance of y (the loss of predicting the training mean)")
        return initial_loss_verdict(v, var, what, low, high, f, regression=True)
    k = f.get("classes")
    if not (number(v) and isinstance(k, int) and not isinstance(k, bool) and 2 <= k <= max_classes):
        return None, _(
            "needs a numeric value and classes between 2 and {most}", most=count(max_classes)
        )
    prior = f.get("prior_loss")  # optional: the loss of predicting the class prior
    if number(prior) and prior > 0:
        ref, what = float(prior), _("the class-prior entropy")
    else:
        ref, what = math.log(k), f"ln {count(k)}"
    low, high = classification_bounds(ref, k)
    return initial_loss_verdict(float(v), ref, what, low, high, f)


def _loss(loss: float) -> str:
    """A final training loss: 4 significant figures, or "about 0" at the floating-point floor."""
    return _("about 0 (below 10⁻¹²)") if abs(loss) < LOSS_FLOOR else metric(loss)


def evaluate_overfit(
    f: dict, number: Callable[[object], TypeGuard[float]], rows_text: str | None
) -> tuple[bool | None, str]:
    """The overfit check: accuracy 1.0 or a final loss at most OVERFIT_LOSS (classification),
    a final MSE at most OVERFIT_LOSS of the batch's var(y) (regression)."""
    acc, loss = f.get("accuracy"), f.get("final_loss")
    head = _("overfit {rows} rows: ", rows=rows_text) if rows_text is not None else _("overfit: ")
    var = f.get("target_variance")
    if f.get("task") == "regression" or "target_variance" in f:
        if not (number(loss) and number(var) and var > 0):
            return None, _(
                "a regression overfit needs final_loss (the MSE) and target_variance > 0"
            )
        ok = loss <= OVERFIT_LOSS * var
        figures = {"head": head, "loss": _loss(loss), "variance": metric(var)}
        return ok, (
            _(
                "{head}final MSE {loss} against the batch's variance of y {variance} (memorised)",
                **figures,
            )
            if ok
            else _(
                "{head}final MSE {loss} against the batch's variance of y {variance} (did not "
                "memorise: above {bar})",
                bar=metric(OVERFIT_LOSS * var),
                **figures,
            )
        )
    if not (number(acc) or number(loss)):
        return None, _("needs final_loss and/or accuracy")
    ok = (number(acc) and acc == 1.0) or (number(loss) and loss <= OVERFIT_LOSS)
    bits = [
        _("accuracy {value}", value=metric(acc)) if number(acc) else None,
        _("final loss {value}", value=_loss(loss)) if number(loss) else None,
    ]
    said = ", ".join(b for b in bits if b)
    return ok, (
        _("{head}{figures} (memorised)", head=head, figures=said)
        if ok
        else _("{head}{figures} (did not memorise)", head=head, figures=said)
    )
