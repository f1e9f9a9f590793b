"""A small numpy MLP for the example projects: softmax cross-entropy, Adam, minibatches.

Float64 throughout, every random draw from an explicit ``numpy.random.Generator``,
so a (seed, data) pair always gives the same network. Also the rung-1 checks
(initial loss, finite-difference gradient, tiny-batch overfit, shape assertions)
that the example projects write to ``artefacts/checks/``.
"""

from __future__ import annotations

import math

import numpy as np

ACTIVATIONS = ("relu", "tanh")


class MLP:
    """Fully connected network, ``n_in -> hidden... -> n_classes`` logits.

    Parameters
    ----------
    n_in : int
        Number of input features.
    hidden : tuple of int
        Hidden layer widths (one or two layers in the examples).
    n_classes : int, default 2
        Output classes; the loss is softmax cross-entropy.
    activation : {"relu", "tanh"}
    rng : numpy.random.Generator
        Source of the initial weights (He init for relu, Glorot for tanh; the
        output layer is scaled down so the untrained net predicts near-uniform).
    """

    def __init__(self, n_in, hidden, n_classes=2, activation="relu", *, rng):
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation={activation!r} is not valid; use one of {ACTIVATIONS}")
        self.activation = activation
        self.n_in = n_in
        self.n_classes = n_classes
        sizes = [n_in, *hidden, n_classes]
        self.params: list[np.ndarray] = []
        for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:], strict=True)):
            scale = math.sqrt(2.0 / a) if activation == "relu" else math.sqrt(2.0 / (a + b))
            if i == len(sizes) - 2:
                scale *= 0.1
            self.params.append(rng.normal(0.0, scale, size=(a, b)))
            self.params.append(np.zeros(b))

    # -- forward / backward -------------------------------------------------
    def _act(self, z):
        return np.maximum(z, 0.0) if self.activation == "relu" else np.tanh(z)

    def _act_grad(self, z, a):
        return (z > 0.0).astype(z.dtype) if self.activation == "relu" else 1.0 - a * a

    def logits(self, X):
        h = X
        n_layers = len(self.params) // 2
        for i in range(n_layers):
            z = h @ self.params[2 * i] + self.params[2 * i + 1]
            h = z if i == n_layers - 1 else self._act(z)
        return h

    def predict_proba(self, X):
        """Class probabilities, shape (n, n_classes)."""
        return softmax(self.logits(X))

    def loss_and_grads(self, X, y, l2=0.0):
        """Mean cross-entropy (+ l2/2 * sum of squared weights) and its gradient per parameter."""
        n_layers = len(self.params) // 2
        hs, zs = [X], []
        h = X
        for i in range(n_layers):
            z = h @ self.params[2 * i] + self.params[2 * i + 1]
            zs.append(z)
            h = z if i == n_layers - 1 else self._act(z)
            hs.append(h)
        logp = log_softmax(hs[-1])
        n = X.shape[0]
        loss = -logp[np.arange(n), y].mean()
        if l2:
            loss += 0.5 * l2 * sum(float(np.sum(W * W)) for W in self.params[0::2])
        delta = np.exp(logp)
        delta[np.arange(n), y] -= 1.0
        delta /= n
        grads: list[np.ndarray] = [None] * len(self.params)  # type: ignore[list-item]
        for i in reversed(range(n_layers)):
            grads[2 * i] = hs[i].T @ delta + (l2 * self.params[2 * i] if l2 else 0.0)
            grads[2 * i + 1] = delta.sum(axis=0)
            if i > 0:
                delta = (delta @ self.params[2 * i].T) * self._act_grad(zs[i - 1], hs[i])
        return float(loss), grads


def log_softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def softmax(z):
    return np.exp(log_softmax(z))


def train(model, X, y, *, epochs, batch_size, lr, l2=0.0, rng, beta1=0.9, beta2=0.999, eps=1e-8):
    """Adam on shuffled minibatches; returns the mean training loss per epoch."""
    m = [np.zeros_like(p) for p in model.params]
    v = [np.zeros_like(p) for p in model.params]
    t = 0
    history = []
    n = X.shape[0]
    for _ in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        for start in range(0, n, batch_size):
            idx = order[start : start + batch_size]
            loss, grads = model.loss_and_grads(X[idx], y[idx], l2)
            total += loss * len(idx)
            t += 1
            for k, g in enumerate(grads):
                m[k] = beta1 * m[k] + (1 - beta1) * g
                v[k] = beta2 * v[k] + (1 - beta2) * g * g
                mhat = m[k] / (1 - beta1**t)
                vhat = v[k] / (1 - beta2**t)
                model.params[k] -= lr * mhat / (np.sqrt(vhat) + eps)
        history.append(total / n)
    return history


# -- rung-1 checks -----------------------------------------------------------
def check_initial_loss(model, X, y):
    """Loss of the untrained net on a batch, to compare with ln(n_classes)."""
    loss, _ = model.loss_and_grads(X, y, 0.0)
    return {
        "value": round(loss, 6),
        "classes": model.n_classes,
        "expected": round(math.log(model.n_classes), 6),
        "rows": int(X.shape[0]),
    }


def check_gradient(model, X, y, l2=0.0, h=1e-6):
    """Largest relative error of backprop against central differences over every parameter."""
    _, grads = model.loss_and_grads(X, y, l2)
    worst = 0.0
    n_checked = 0
    for p, g in zip(model.params, grads, strict=True):
        flat, gflat = p.reshape(-1), g.reshape(-1)
        for j in range(flat.size):
            old = flat[j]
            flat[j] = old + h
            lp, _ = model.loss_and_grads(X, y, l2)
            flat[j] = old - h
            lm, _ = model.loss_and_grads(X, y, l2)
            flat[j] = old
            num = (lp - lm) / (2 * h)
            denom = max(abs(num) + abs(gflat[j]), 1e-8)
            worst = max(worst, abs(num - gflat[j]) / denom)
            n_checked += 1
    return {
        "max_relative_error": float(f"{worst:.3e}"),
        "parameters_checked": n_checked,
        "rows": int(X.shape[0]),
        "step": h,
        "dtype": "float64",
        "method": "central differences, |a-n| / max(|a|+|n|, 1e-8)",
    }


def check_overfit(model, X, y, *, epochs, lr, rng):
    """Train on a tiny batch with no regularisation; it should be memorised."""
    history = train(model, X, y, epochs=epochs, batch_size=X.shape[0], lr=lr, l2=0.0, rng=rng)
    acc = float((model.predict_proba(X).argmax(axis=1) == y).mean())
    return {
        "rows": int(X.shape[0]),
        "epochs": epochs,
        "final_loss": float(f"{history[-1]:.3e}"),
        "accuracy": acc,
    }


def check_shapes(model, X, y):
    """Run shape and sanity assertions on one forward/backward pass; count them."""
    n = X.shape[0]
    assertions = 0

    def ok(cond, what):
        nonlocal assertions
        assert cond, what
        assertions += 1

    ok(X.ndim == 2 and X.shape[1] == model.n_in, "input is (n, n_in)")
    ok(y.shape == (n,), "labels are (n,)")
    ok(set(np.unique(y)) <= set(range(model.n_classes)), "labels in range")
    proba = model.predict_proba(X)
    ok(proba.shape == (n, model.n_classes), "proba is (n, classes)")
    ok(np.allclose(proba.sum(axis=1), 1.0), "proba rows sum to 1")
    ok(bool(np.all((proba >= 0) & (proba <= 1))), "proba in [0, 1]")
    _, grads = model.loss_and_grads(X, y, 1e-3)
    for p, g in zip(model.params, grads, strict=True):
        ok(p.shape == g.shape, "gradient matches parameter shape")
        ok(bool(np.all(np.isfinite(g))), "gradient finite")
    ok(model.logits(X[:1]).shape == (1, model.n_classes), "single row keeps batch axis")
    return {"passed": True, "assertions": assertions}
