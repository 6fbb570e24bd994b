"""Difficulty models: a linear score over the features of :mod:`.profile`, fitted to labels.

Landreau's TIPE study (2025) §2.B: Difficulté(S) = Σ_j α_j n_j + Σ_j β_j 1[n_j > 0], the
weights fitted by least squares (``lstsq``) or by simulated annealing (``anneal``).  Here the
features are standardised on the training rows and a small ridge term keeps the normal
equations well posed (a feature that never varies would make them singular); the stored
weights are converted back to the raw features, so that ``score = intercept + Σ
weight·feature`` can be read off the JSON.  ``transform = "log"`` fits log(label) (solve
times are roughly log-normal).  Quality is always measured on puzzles the model was not
fitted on: k-fold cross-validation (:func:`cross_validate`), Pearson's r and Spearman's ρ
with 95 % intervals by Fisher's z (Spearman's with the Fieller–Hartley–Pearson variance).
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from ..models.input_bounds import check_nesting, read_whole
from ..models.reader import decode_bytes

MODEL_FORMAT = "puzzlebench-rating-model/1"


@dataclass
class DifficultyModel:
    name: str
    target: str
    features: list[str]
    weights: list[float]
    intercept: float
    transform: str = "none"          # "none" or "log"
    bounds: tuple[float, float] | None = None   # predictions are clipped into these
    fitted: dict = field(default_factory=dict)  # data, command, cross-validation figures

    @property
    def target_scale(self) -> str:
        """``se`` for the shipped SE-scale model (its score yields to SE's own rule when SE's
        ladder solves the puzzle), else ``own`` (a model's score is always its own)."""
        return "se" if self.name == "se" else "own"

    def predict_row(self, features: dict[str, float]) -> float:
        z = self.intercept + sum(w * features.get(name, 0.0) for name, w in zip(self.features, self.weights))
        return self._output(z)

    def predict(self, X: np.ndarray) -> np.ndarray:
        return np.array([self._output(z) for z in X @ np.array(self.weights) + self.intercept])

    def _output(self, z: float) -> float:
        y = math.exp(min(z, 50.0)) if self.transform == "log" else z
        if self.bounds:
            y = min(max(y, self.bounds[0]), self.bounds[1])
        return float(y)

    def to_json(self) -> str:
        data = {"format": MODEL_FORMAT, **asdict(self)}
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def from_dict(cls, data: dict) -> "DifficultyModel":
        if not isinstance(data, dict):   # a JSON list has no .get: refused with its type
            raise ValueError(f"not a rating model (a JSON {type(data).__name__}, not an object)")
        if data.get("format") != MODEL_FORMAT:
            raise ValueError(f"not a rating model (format {data.get('format')!r}, expected {MODEL_FORMAT!r})")
        if len(data["features"]) != len(data["weights"]):
            raise ValueError(f"{len(data['features'])} features but {len(data['weights'])} weights")
        bounds = tuple(data["bounds"]) if data.get("bounds") else None
        return cls(data["name"], data["target"], list(data["features"]),
                   [float(w) for w in data["weights"]], float(data["intercept"]),
                   data.get("transform", "none"), bounds, data.get("fitted", {}))


# -- fitting ----------------------------------------------------------------------------------

def _standardise(X: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    sd[sd == 0] = 1.0
    return (X - mu) / sd, mu, sd


def least_squares(Z: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """Weights (last: intercept) minimising ||Zw − y||² + ridge·||w||² (intercept unpenalised)."""
    A = np.hstack([Z, np.ones((len(Z), 1))])
    penalty = ridge * np.eye(A.shape[1])
    penalty[-1, -1] = 0.0
    try:
        return np.linalg.solve(A.T @ A + penalty, A.T @ y)
    except np.linalg.LinAlgError:   # singular: --ridge 0 on collinear features; the least-norm weights
        return np.linalg.lstsq(A.T @ A + penalty, A.T @ y, rcond=None)[0]


def simulated_annealing(Z: np.ndarray, y: np.ndarray, ridge: float, *, steps: int = 20000,
                        seed: int = 1, start_temperature: float = 1.0) -> np.ndarray:
    """Landreau's "recuit simulé": move one weight at a time by a random amount, accept a
    worse mean squared error with probability exp(−Δ/T), T cooling geometrically."""
    rng = np.random.default_rng(seed)
    A = np.hstack([Z, np.ones((len(Z), 1))])
    w = np.zeros(A.shape[1])
    w[-1] = y.mean()
    residual = A @ w - y

    def cost(res, weights):
        return float(res @ res) / len(y) + ridge * float(weights[:-1] @ weights[:-1]) / len(y)

    current = cost(residual, w)
    best_w, best = w.copy(), current
    scale = max(float(y.std()), 1e-9)
    for k in range(steps):
        t = start_temperature * scale * scale * (0.001 ** (k / steps))
        j = int(rng.integers(A.shape[1]))
        delta = float(rng.normal(0.0, 0.1 * scale))
        new_res = residual + delta * A[:, j]
        w[j] += delta
        new = cost(new_res, w)
        if new <= current or rng.random() < math.exp(-(new - current) / max(t, 1e-12)):
            residual, current = new_res, new
            if new < best:
                best_w, best = w.copy(), new
        else:
            w[j] -= delta
    return best_w


def fit(X: np.ndarray, y: np.ndarray, feature_names: Sequence[str], *, name: str, target: str,
        transform: str = "none", method: str = "lstsq", ridge: float = 1.0, seed: int = 1) -> DifficultyModel:
    """Fit a linear model; the weights come back in the raw features' units."""
    if transform not in ("none", "log"):
        raise ValueError(f"transform {transform!r}: none or log")
    t = np.log(y) if transform == "log" else np.asarray(y, dtype=float)
    Z, mu, sd = _standardise(np.asarray(X, dtype=float))
    if method == "lstsq":
        wz = least_squares(Z, t, ridge)
    elif method == "anneal":
        wz = simulated_annealing(Z, t, ridge, seed=seed)
    else:
        raise ValueError(f"method {method!r}: lstsq or anneal")
    weights = wz[:-1] / sd
    intercept = float(wz[-1] - (wz[:-1] * mu / sd).sum())
    low, high = float(np.min(y)), float(np.max(y))
    margin = 0.1 * (high - low)
    bounds = (max(low - margin, 0.0) if low >= 0 else low - margin, high + margin)
    return DifficultyModel(name, target, list(feature_names), [float(w) for w in weights],
                           intercept, transform, bounds)


# -- measuring --------------------------------------------------------------------------------

def ranks(x: Sequence[float]) -> np.ndarray:
    """Ranks 1..n, ties sharing their mean rank."""
    x = np.asarray(x, dtype=float)
    order = np.argsort(x, kind="mergesort")
    r = np.empty(len(x))
    sorted_x = x[order]
    i = 0
    while i < len(x):
        j = i
        while j + 1 < len(x) and sorted_x[j + 1] == sorted_x[i]:
            j += 1
        r[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return r


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.std() == 0 or y.std() == 0:
        return float("nan")
    return float(np.corrcoef(x, y)[0, 1])


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    return pearson(ranks(x), ranks(y))


@dataclass(frozen=True)
class Correlation:
    r: float
    low: float
    high: float
    n: int

    def __str__(self) -> str:
        return f"{self.r:.3f} [{self.low:.3f}, {self.high:.3f}]"


def fisher_interval(r: float, n: int, variance: float = 1.0, z_crit: float = 1.959964) -> Correlation:
    """95 % interval by Fisher's z = atanh(r), standard error √(variance/(n−3))."""
    if n <= 3 or math.isnan(r) or abs(r) >= 1:
        return Correlation(r, float("nan"), float("nan"), n)
    z, se = math.atanh(r), math.sqrt(variance / (n - 3))
    return Correlation(r, math.tanh(z - z_crit * se), math.tanh(z + z_crit * se), n)


def correlations(pred: Sequence[float], y: Sequence[float]) -> dict[str, Correlation]:
    n = len(y)
    return {"pearson": fisher_interval(pearson(pred, y), n),
            "spearman": fisher_interval(spearman(pred, y), n, variance=1.06)}


def folds_of(n: int, k: int, seed: int = 1) -> list[np.ndarray]:
    return np.array_split(np.random.default_rng(seed).permutation(n), k)


def cross_validate(X: np.ndarray, y: np.ndarray, fitter: Callable[[np.ndarray, np.ndarray], DifficultyModel],
                   k: int = 5, seed: int = 1) -> np.ndarray:
    """Out-of-fold predictions: every row predicted by a model fitted without its fold."""
    if k < 2 or k > len(y):
        raise ValueError(f"{k} folds for {len(y)} rows: need 2 <= folds <= rows")
    pred = np.zeros(len(y))
    for test in folds_of(len(y), k, seed):
        train = np.setdiff1d(np.arange(len(y)), test)
        pred[test] = fitter(X[train], y[train]).predict(X[test])
    return pred


def load_model(path: str | Path) -> DifficultyModel:
    """A model saved as JSON; a file past the bounds of what is read (its size, its nesting,
    on which the parser recurses) is an error placed in it."""
    with open(path, "rb") as stream:
        text = decode_bytes(read_whole(stream, str(path)), str(path), expected="a rating model (JSON)")
    check_nesting(text, str(path))
    return DifficultyModel.from_dict(json.loads(text))
