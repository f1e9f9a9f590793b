"""A small numpy MLP for the rung-1 tests: one tanh hidden layer, a flat parameter vector,
the task's loss with its backprop gradient and a full-batch Adam loop. ``bias`` shifts the
output bias at initialisation and ``scale`` multiplies the initial weights (the two bugs the
initial-loss rule must catch); ``grad_bug`` halves one gradient block (the gradient check's)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class NumpyMLP:
    n_in: int
    hidden: int
    n_out: int  # 1: binary logit or regression output; K: multi-class logits
    task: str
    bias: float = 0.0
    scale: float = 1.0
    grad_bug: bool = False

    def sizes(self):
        return [(self.n_in, self.hidden), (self.hidden,), (self.hidden, self.n_out), (self.n_out,)]

    def unpack(self, theta):
        out, i = [], 0
        for shape in self.sizes():
            n = int(np.prod(shape))
            out.append(theta[i : i + n].reshape(shape))
            i += n
        return out

    def init(self, seed: int) -> np.ndarray:
        """Glorot-uniform weights, zero biases (Keras' default), then the deliberate bugs."""
        rng = np.random.default_rng(seed)
        parts = []
        for shape in self.sizes():
            if len(shape) == 2:
                bound = np.sqrt(6.0 / sum(shape))
                parts.append(self.scale * rng.uniform(-bound, bound, size=shape).ravel())
            else:
                parts.append(np.zeros(shape))
        theta = np.concatenate(parts)
        if self.bias:
            b = self.unpack(theta)[3]
            b[: max(1, self.n_out // 2)] += self.bias  # a view into theta
        return theta

    def forward(self, theta, X):
        W1, b1, W2, b2 = self.unpack(theta)
        z = np.tanh(X @ W1 + b1) @ W2 + b2
        return z if self.task == "multiclass" else z[:, 0]

    def _output_grad(self, z, y):
        """d loss / d outputs, (N, n_out)."""
        n = len(y)
        if self.task == "binary":
            p = 1.0 / (1.0 + np.exp(-z))
            return ((p - y) / n)[:, None]
        if self.task == "multiclass":
            e = np.exp(z - z.max(axis=1, keepdims=True))
            p = e / e.sum(axis=1, keepdims=True)
            p[np.arange(n), y] -= 1.0
            return p / n
        return (2.0 * (z - y) / n)[:, None]

    def loss(self, theta, X, y):
        z = self.forward(theta, X)
        if self.task == "binary":
            return float(np.mean(np.logaddexp(0.0, z) - y * z))
        if self.task == "multiclass":
            m = z.max(axis=1, keepdims=True)
            lse = (m + np.log(np.exp(z - m).sum(axis=1, keepdims=True)))[:, 0]
            return float(np.mean(lse - z[np.arange(len(y)), y]))
        return float(np.mean((z - y) ** 2))

    def grad(self, theta, X, y):
        W1, b1, W2, b2 = self.unpack(theta)
        h = np.tanh(X @ W1 + b1)
        z = h @ W2 + b2
        dz = self._output_grad(z if self.task == "multiclass" else z[:, 0], y)
        dW2 = h.T @ dz
        dh = (dz @ W2.T) * (1 - h**2)
        g = [X.T @ dh, dh.sum(axis=0), dW2 * (0.5 if self.grad_bug else 1.0), dz.sum(axis=0)]
        return np.concatenate([a.ravel() for a in g])

    def train(self, theta, X, y, steps: int = 3000, lr: float = 0.01):
        m = np.zeros_like(theta)
        v = np.zeros_like(theta)
        for t in range(1, steps + 1):
            g = self.grad(theta, X, y)
            m = 0.9 * m + 0.1 * g
            v = 0.999 * v + 0.001 * g * g
            theta = theta - lr * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
        return theta
