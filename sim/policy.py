"""Compiled helpers for policies that any game's loop or any strategy can share."""

import numpy as np
from bgsim.sim.api import POLICY_WEIGHTS
from bgsim.sim.borrow import njit_without_refcounts
from bgsim.sim.numba_cache import configure_numba_cache
from bgsim.sim.rng import below
from numba import njit

configure_numba_cache()  # before the first kernel is compiled

__all__ = ["choose_row", "first_best_row"]


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


@njit_without_refcounts
def choose_row(feats, n, policy, weights, streams, seat):
    """The row a compiled policy picks from a table of ``n`` rows (``feats`` (>= n, F) int32): the
    first best of ``feats @ weights`` ((F,) int64) for ``POLICY_WEIGHTS``, else a uniform draw from
    seat ``seat``'s stream in ``streams`` ((P,) uint64, advanced), the draws
    ``strategies.base.RandomStrategy`` makes."""
    if policy != POLICY_WEIGHTS:
        return below(streams, seat, n)
    return first_best_row(feats[:n], weights)
