"""Distances from a target that read 0 at the target: seat imbalance and its kin.

"Best seat's win rate minus the worst's" reads about 1.6 pp on 4,000 deals of a perfectly fair
game, and its bootstrap interval never covers 0: noise alone spreads the seats. The squared distance
of estimates from their targets has the same bias, but a known one: its expectation is the true
squared distance plus the estimates' sampling variances. So

    value = mean_k (estimate_k - target_k)^2 - mean_k Var(estimate_k)

is unbiased at every true value, 0 included: a perfectly balanced design reads about 0 (sometimes
a little below), and ``noise`` (the subtracted mean variance) is what the plain squared distance
would read there. Seat imbalance is this for the seats' win rates against the fair share 1/n: the
mean squared gap, in squared win-rate units (pp^2 when shown).

Its interval inverts the distribution of the squared distance: with covariance S of the estimates,
|estimate - target|^2 is close to c * chi-square with nu degrees of freedom and noncentrality
|true - target|^2 / c, where c = tr(S^2) / tr(S) and nu = tr(S)^2 / tr(S^2) (exact for seats near
balance, whose covariance is a multiple of a projection). The noncentralities whose distribution
puts the observed value within its central 95 % form the interval; it starts at 0 when the observed
value is one a balanced design gives often enough (``at_target``): then the design cannot be told
from perfect balance with these games.
"""

from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

__all__ = ["QuadraticDistance", "quadratic_distance", "seat_imbalance"]


@dataclass(frozen=True)
class QuadraticDistance:
    """value: unbiased estimate of mean_k (true_k - target_k)^2; low/high: its interval (low >= 0);
    noise: mean_k Var(estimate_k), what the plain squared distance reads at the target; at_target:
    the interval reaches 0 (cannot be told from the target); the root-mean-square distance's interval
    is sqrt(low) .. sqrt(high)."""

    value: float
    low: float
    high: float
    noise: float
    at_target: bool

    @property
    def rms_high(self) -> float:
        """The largest root-mean-square distance the interval allows."""
        return float(np.sqrt(self.high))


def quadratic_distance(estimate, target, covariance, confidence: float = 0.95) -> QuadraticDistance:
    """The mean squared distance of the (K,) ``estimate`` from the (K,) ``target``, unbiased, with
    its interval; ``covariance`` (K, K) float64 is the estimates' (clustered by deal where deals
    repeat)."""
    e = np.asarray(estimate, dtype=np.float64) - np.asarray(target, dtype=np.float64)
    cov = np.asarray(covariance, dtype=np.float64).reshape(len(e), len(e))
    k = len(e)
    tr = float(np.trace(cov))
    tr2 = float(np.sum(cov * cov.T))
    observed = float(e @ e)
    value = (observed - tr) / k
    if not np.isfinite(tr) or tr <= 0 or tr2 <= 0:  # no sampling noise: the distance is known
        return QuadraticDistance(observed / k, observed / k, observed / k, 0.0, observed == 0)
    scale, df = tr2 / tr, tr * tr / tr2
    x = observed / scale
    tail = (1 - confidence) / 2
    low_nc = 0.0 if stats.chi2.sf(x, df) >= tail else _solve(lambda nc: stats.ncx2.sf(x, df, nc) - tail, x)
    high_nc = 0.0 if stats.chi2.cdf(x, df) <= tail else _solve(lambda nc: tail - stats.ncx2.cdf(x, df, nc), x)
    return QuadraticDistance(value=float(value), low=low_nc * scale / k, high=high_nc * scale / k, noise=tr / k,
                             at_target=low_nc == 0.0)


def _solve(rising, x: float) -> float:
    """The noncentrality at which ``rising`` (increasing in it, negative at 0) crosses 0."""
    high = max(4.0, 2 * x + 10)
    while rising(high) < 0:
        high *= 2
    return float(optimize.brentq(rising, 0.0, high, xtol=1e-10, rtol=1e-10))


def seat_imbalance(rates, covariance, confidence: float = 0.95) -> QuadraticDistance:
    """Seat imbalance of one table: the mean squared gap of the (P,) seat win ``rates`` to the fair
    share 1/P, unbiased, with its interval; ``covariance`` (P, P) of the rates."""
    rates = np.asarray(rates, dtype=np.float64)
    return quadratic_distance(rates, np.full(len(rates), 1.0 / len(rates)), covariance, confidence)
