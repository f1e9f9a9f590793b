"""The study behind the rung-1 initial-loss rule (docs/methods.md, "Rung 1: the initial loss").

    .venv/bin/python bench/bench_initial_loss.py [--seeds 20] [--quick]

For scikit-learn's MLPClassifier and MLPRegressor (widths 8 to 256-128, relu / tanh /
logistic) on standardised data (digits binary and 10-class, breast cancer, wine, a
200-feature Gaussian problem; diabetes, make_regression, Friedman 1), the loss at the
initial weights (measured as reportgen.sanity does) over ``--seeds`` initialisations, the
mean of 5 initialisations, and the same networks with the output bias shifted by +3 (by
+3 target sd for regression). Each loss is shown as the logit variance v it implies,
``(loss - ln C) / ((C - 1) / 2C)`` (regression: ``(MSE / var y - 1) / 2``), the quantity
the rule bounds by LOGIT_VARIANCE = 2. Prints one line per network and a summary.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reportgen.project.init_rule import LOGIT_VARIANCE  # noqa: E402
from reportgen.sanity import log_loss_of, mse_of  # noqa: E402
from reportgen.sanity.scikit import untrained  # noqa: E402

WIDTHS = [(8,), (32,), (128,), (64, 32), (256, 128)]


def classifier_v(est, X, y, state, bias=0.0) -> float:
    classes = np.unique(y)
    m = untrained(est, state, X, y, classes)
    b = m.intercepts_[-1]
    b[: max(1, b.size // 2)] += bias
    c = len(classes)
    loss = log_loss_of(m.predict_proba(X), np.searchsorted(classes, y))
    return (loss - math.log(c)) / ((c - 1) / (2 * c))


def regressor_v(est, X, y, state, shift=0.0) -> float:
    m = untrained(est, state, X, y)
    m.intercepts_[-1] += shift * y.std()
    return (mse_of(m.predict(X), y) / np.var(y) - 1) / 2


def datasets():
    from sklearn.datasets import (
        load_breast_cancer,
        load_diabetes,
        load_digits,
        load_wine,
        make_classification,
        make_friedman1,
        make_regression,
    )
    from sklearn.preprocessing import StandardScaler

    s = StandardScaler().fit_transform
    d = load_digits()
    bc, w, db = load_breast_cancer(), load_wine(), load_diabetes()
    Xg, yg = make_classification(2000, 200, n_informative=20, random_state=0)
    Xr, yr = make_regression(1000, 50, n_informative=10, noise=5, random_state=0)
    Xf, yf = make_friedman1(1000, 10, random_state=0)
    z = lambda v: (v - v.mean()) / v.std()  # noqa: E731
    return {
        "classifier": {
            "digits>=5": (s(d.data), (d.target >= 5).astype(int)),
            "digits-odd": (s(d.data), d.target % 2),
            "breast-cancer": (s(bc.data), bc.target),
            "gauss-200": (s(Xg), yg),
            "digits-10": (s(d.data), d.target),
            "wine-3": (s(w.data), w.target),
        },
        "regressor": {
            "diabetes": (s(db.data), z(db.target)),
            "make_regression": (s(Xr), z(yr)),
            "friedman1": (s(Xf), z(yf)),
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--quick", action="store_true", help="two widths, relu only")
    args = ap.parse_args()
    from sklearn.neural_network import MLPClassifier, MLPRegressor

    warnings.simplefilter("ignore")
    widths = WIDTHS[:2] if args.quick else WIDTHS
    n = args.seeds - args.seeds % 5
    singles, means, bugs = [], [], []
    for kind, sets in datasets().items():
        acts = (
            ["relu"]
            if args.quick
            else (["relu", "tanh", "logistic"] if kind == "classifier" else ["relu", "tanh"])
        )
        for (name, (X, y)), hid, act in itertools.product(sets.items(), widths, acts):
            if kind == "classifier":
                est = MLPClassifier(hidden_layer_sizes=hid, activation=act)
                v = np.array([classifier_v(est, X, y, s) for s in range(n)])
                vb = np.array([classifier_v(est, X, y, s, 3.0) for s in range(5)])
            else:
                est = MLPRegressor(hidden_layer_sizes=hid, activation=act)
                v = np.array([regressor_v(est, X, y, s) for s in range(n)])
                vb = np.array([regressor_v(est, X, y, s, 3.0) for s in range(5)])
            m5 = v.reshape(-1, 5).mean(axis=1)
            singles += v.tolist()
            means += m5.tolist()
            bugs.append((name, float(vb.mean())))
            print(
                f"{kind:10s} {name:15s} {str(hid):10s} {act:8s} v: single max {v.max():5.2f} "
                f"mean {v.mean():5.2f}; mean of 5 max {m5.max():5.2f}; +3 bias {vb.mean():5.2f}",
                flush=True,
            )
    s, m = np.array(singles), np.array(means)
    print(
        f"\nbound v <= {LOGIT_VARIANCE}: single draws over it {np.mean(s > LOGIT_VARIANCE):.1%} "
        f"(max {s.max():.2f}); means of 5 over it {np.mean(m > LOGIT_VARIANCE):.1%} "
        f"(max {m.max():.2f}); +3 bias caught {np.mean([b > LOGIT_VARIANCE for _, b in bugs]):.0%}"
        f" (lowest {min(b for _, b in bugs):.2f}, {min(bugs, key=lambda t: t[1])[0]})"
    )


if __name__ == "__main__":
    main()
