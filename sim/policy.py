"""Compiled helpers for policies that any game's loop or any strategy can share."""

import numpy as np
from bgsim.sim.api import POLICY_WEIGHTS
from bgsim.sim.borrow import njit_without_refcounts
from bgsim.sim.numba_cache import configure_numba_cache
from bgsim.sim.rng import below
from numba import njit

configure_numba_cache()  # before the first kernel is compiled

__all__ = ["best_rows", "choose_row", "first_best_row"]


@njit(cache=True)
def first_best_row(features, weights):
    """Index of the first row of ``features`` ((n, F) int32) with the highest ``features @ weights``
    ((F,) int64, exact integer arithmetic): the weight policy's choice in every tier."""
    best = 0
    best_value = np.int64(-(1 << 62))
    for i in range(features.shape[0]):
        value = np.int64(0)
        for f in range(features.shape[1]):
            value += np.int64(features[i, f]) * weights[f]
        if value > best_value:
            best_value = value
            best = i
    return best


@njit(cache=True)
def best_rows(features, weights, width):
    """The ``width`` rows (fewer if the table has fewer) of highest ``features @ weights`` ((n, F)
    int32, (F,) int64, exact), best first, equal values in table order: (k,) int64, what
    ``np.argsort(-values, kind="stable")[:width]`` gives, without the sort of the whole table."""
    n = features.shape[0]
    values = np.empty(n, dtype=np.int64)
    for i in range(n):
        value = np.int64(0)
        for f in range(features.shape[1]):
            value += np.int64(features[i, f]) * weights[f]
        values[i] = value
    k = min(width, n)
    rows = np.empty(k, dtype=np.int64)
    taken = np.zeros(n, dtype=np.bool_)
    for j in range(k):  # width is small: k passes beat a sort
        best = -1
        for i in range(n):
            if not taken[i] and (best < 0 or values[i] > values[best]):
                best = i
        taken[best] = True
        rows[j] = best
    return rows


@njit_without_refcounts
def choose_row(feats, n, policy, weights, streams, seat):
    """The row a compiled policy picks from a table of ``n`` rows (``feats`` (>= n, F) int32): the
    first best of ``feats @ weights`` ((F,) int64) for ``POLICY_WEIGHTS``, else a uniform draw from
    seat ``seat``'s stream in ``streams`` ((P,) uint64, advanced), the draws
    ``strategies.base.RandomStrategy`` makes."""
    if policy != POLICY_WEIGHTS:
        return below(streams, seat, n)
    return first_best_row(feats[:n], weights)
