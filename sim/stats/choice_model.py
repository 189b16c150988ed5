"""A conditional logit over candidate tables: the weights under which a player's decisions are most
likely, each decision a softmax over its table's rows (``features @ weights``), fitted by maximum
likelihood with scipy's L-BFGS-B and an exact gradient; standard errors from the observed
information (the exact Hessian at the optimum), so that ``intervals`` are Wald intervals.

The decisions' rows are stacked: ``features`` (R, F) float64, decision g owning rows
``offsets[g]:offsets[g + 1]`` and choosing row ``chosen[g]`` (an index into its own rows). Instead
of one chosen row a decision may give each of its rows a probability (``targets`` (R,) float64,
summing to 1 within each decision; soft targets, such as a softmax over a search's row values):
the fit then maximises the expected log-likelihood, sum of targets x log softmax. A
column that never differs between the rows of one decision says nothing about a choice and
cannot be fitted: ``fit_choice_model`` names such columns instead of returning a weight for them.
"""

from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

__all__ = ["ChoiceFit", "fit_choice_model"]


@dataclass(frozen=True)
class ChoiceFit:
    """Fitted weights (F,) float64, their standard errors (F,) float64, the log-likelihood at the
    optimum, the decisions fitted and whether the optimiser reported convergence."""

    weights: np.ndarray
    stderr: np.ndarray
    log_likelihood: float
    decisions: int
    converged: bool

    def intervals(self, level: float = 0.95) -> np.ndarray:
        """(F, 2) float64: each weight's Wald interval at ``level`` (normal quantile x standard error)."""
        z = stats.norm.ppf(0.5 + level / 2)
        return np.stack([self.weights - z * self.stderr, self.weights + z * self.stderr], axis=1)


def fit_choice_model(features: np.ndarray, offsets: np.ndarray, chosen: np.ndarray | None = None, *,
                     targets: np.ndarray | None = None) -> ChoiceFit:
    """The maximum-likelihood weights of the decisions (see the module doc for the arguments): give
    ``chosen`` or ``targets``. Raises ValueError for inconsistent arguments or a column that no
    decision's rows vary in."""
    features = np.asarray(features, dtype=np.float64)
    offsets = np.asarray(offsets, dtype=np.int64)
    sizes = np.diff(offsets)
    if features.ndim != 2 or offsets[0] != 0 or offsets[-1] != len(features) or (sizes < 1).any():
        raise ValueError("features must be (rows, F) and offsets must split all of its rows into decisions")
    target = _row_targets(chosen, targets, offsets, sizes)
    group = np.repeat(np.arange(len(sizes)), sizes)
    centred = features - _group_means(features, group, sizes)  # the softmax sees only within-decision differences
    flat = np.flatnonzero(np.abs(centred).max(axis=0) == 0)
    if flat.size:
        raise ValueError(f"columns {flat.tolist()} never differ between the rows of a decision: no weight fits them")
    scale = centred.std(axis=0)  # standardised for the optimiser; weights are returned in the columns' units
    x = centred / scale
    target_x = target @ x  # the targets' feature sum: the likelihood's only contact with them

    def negative_log_likelihood(beta):
        logits = x @ beta
        log_norm, probs = _log_softmax_parts(logits, group, offsets)
        gradient = probs @ x - target_x
        return log_norm.sum() - target @ logits, gradient

    result = optimize.minimize(negative_log_likelihood, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B",
                               options={"maxiter": 1000, "gtol": 1e-9})
    weights = result.x / scale
    information = _information(centred, weights, group, offsets)
    variance = np.diag(np.linalg.pinv(information))
    # separable decisions (a weight that grows without bound) leave no curvature: no interval, NaN
    stderr = np.sqrt(np.where(variance > 0, variance, np.nan))
    return ChoiceFit(weights=weights, stderr=stderr, log_likelihood=float(-result.fun), decisions=len(sizes),
                     converged=bool(result.success))


def _row_targets(chosen, targets, offsets: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Each row's target probability (R,) float64: 1 for the chosen row, or the given targets."""
    if (chosen is None) == (targets is None):
        raise ValueError("give either chosen or targets")
    if targets is None:
        chosen = np.asarray(chosen, dtype=np.int64)
        if chosen.shape != sizes.shape or (chosen < 0).any() or (chosen >= sizes).any():
            raise ValueError("chosen must name one row of each decision")
        target = np.zeros(offsets[-1])
        target[offsets[:-1] + chosen] = 1.0
        return target
    target = np.asarray(targets, dtype=np.float64)
    if target.shape != (offsets[-1],) or not np.isfinite(target).all() or (target < 0).any() \
            or not np.allclose(np.add.reduceat(target, offsets[:-1]), 1.0):
        raise ValueError("targets must give every row a probability, summing to 1 within each decision")
    return target


def _group_means(features: np.ndarray, group: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    sums = np.zeros((len(sizes), features.shape[1]))
    np.add.at(sums, group, features)
    return (sums / sizes[:, None])[group]


def _log_softmax_parts(logits: np.ndarray, group: np.ndarray, offsets: np.ndarray):
    """Each decision's log normaliser (G,) and each row's probability (R,), stable for large logits."""
    top = np.maximum.reduceat(logits, offsets[:-1])
    exps = np.exp(logits - top[group])
    totals = np.add.reduceat(exps, offsets[:-1])
    return top + np.log(totals), exps / totals[group]


def _information(x: np.ndarray, weights: np.ndarray, group: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The observed information (F, F) at ``weights``: the sum over decisions of the covariance of
    the rows' features under the decision's softmax."""
    _, probs = _log_softmax_parts(x @ weights, group, offsets)
    mean = np.add.reduceat(probs[:, None] * x, offsets[:-1], axis=0)  # (G, F)
    second = (probs[:, None] * x).T @ x
    return second - mean.T @ mean
