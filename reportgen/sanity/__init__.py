"""Rung-1 checks users run in their training code; each writes one file under artefacts/checks/.

    checks.py   the four checks of docs/format.md: initial loss, gradient, overfit, shapes
    scikit.py   all four for scikit-learn's MLPClassifier and MLPRegressor (public API only)
    loop.py     all four for a network you wrote yourself, from init/forward/loss/grad/train
    sensitivity.py  input gradients dp/dx per raw unit, checked by finite differences

Every function returns the written record with ``passed`` and ``text`` exactly as the report
will judge it (`reportgen.project.checkfiles.evaluate`).
"""

from __future__ import annotations

from reportgen.sanity.checks import (
    class_prior_loss,
    expect_shape,
    gradient_check,
    initial_loss,
    library_gradient,
    log_loss_of,
    mse_of,
    overfit,
    shapes,
    write_check,
)
from reportgen.sanity.loop import check_network
from reportgen.sanity.scikit import check_mlp_classifier, check_mlp_regressor
from reportgen.sanity.sensitivity import check_sensitivity, input_sensitivity

__all__ = [
    "check_mlp_classifier",
    "check_mlp_regressor",
    "check_network",
    "check_sensitivity",
    "class_prior_loss",
    "expect_shape",
    "gradient_check",
    "initial_loss",
    "input_sensitivity",
    "library_gradient",
    "log_loss_of",
    "mse_of",
    "overfit",
    "shapes",
    "write_check",
]
