"""Compiled helpers for policies that any game's loop or any strategy can share."""

import numpy as np
from bgsim.sim.numba_cache import configure_numba_cache
from numba import njit

configure_numba_cache()  # before the first kernel is compiled

__all__ = ["first_best_row"]


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
