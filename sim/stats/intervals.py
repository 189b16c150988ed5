"""Vectorised 95 % intervals shared by the reports: Wilson for proportions (statsmodels), Student t
for means (scipy). Arrays of one shape in, (low, high) arrays of that shape out."""

import numpy as np
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

__all__ = ["fmt_p", "t_bounds", "wilson"]


def wilson(successes: np.ndarray, trials: np.ndarray, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson intervals of proportions (statsmodels); NaN where there are no trials. (N,) arrays."""
    s = np.asarray(successes, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    low = np.full(n.shape, np.nan)
    high = np.full(n.shape, np.nan)
    ok = n > 0
    if ok.any():
        low[ok], high[ok] = proportion_confint(s[ok], n[ok], alpha=1 - confidence, method="wilson")
    return low, high


def t_bounds(mean: np.ndarray, sd: np.ndarray, n: np.ndarray,
             confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Student t intervals of means (scipy); NaN with fewer than 2 values, a point with no spread."""
    mean = np.asarray(mean, dtype=np.float64)
    sd = np.nan_to_num(np.asarray(sd, dtype=np.float64))
    n = np.asarray(n, dtype=np.float64)
    low = np.full(mean.shape, np.nan)
    high = np.full(mean.shape, np.nan)
    ok = n >= 2
    if ok.any():
        scale = sd[ok] / np.sqrt(n[ok])
        spread = scale > 0
        lo, hi = mean[ok].copy(), mean[ok].copy()
        if spread.any():
            lo[spread], hi[spread] = stats.t.interval(confidence, n[ok][spread] - 1, loc=mean[ok][spread],
                                                      scale=scale[spread])
        low[ok], high[ok] = lo, hi
    return low, high


def fmt_p(p: float) -> str:
    """A p- or q-value: two significant digits, and ``< 1e-16`` below what double precision can tell
    from 0 (a q-value is never printed as 0)."""
    if p is None or p != p:  # missing: None or NaN
        return "–"  # the report tables' mark for a missing value
    return "< 1e-16" if p < 1e-16 else f"{p:.2g}"
