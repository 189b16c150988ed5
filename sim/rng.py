"""A small counter-based generator (SplitMix64) usable inside compiled kernels.

Every random draw of a game (deals inside ``new_game``, random strategies) comes from a
SplitMix64 stream whose 64-bit seed is derived from a NumPy ``SeedSequence`` (see
``sim.seeding``). The same seed gives the same stream in compiled code, in Python, and with
``NUMBA_DISABLE_JIT=1``.

A stream's state is one element of a ``uint64`` array, so kernels can advance it in place.
"""

import warnings

import numpy as np
from bgsim.sim.borrow import njit_without_refcounts
from numba import config

__all__ = ["next_u64", "below", "shuffle", "new_stream"]

if config.DISABLE_JIT:  # uncompiled, NumPy warns about the intended 64-bit wrap-around
    warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning, module=__name__)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@njit_without_refcounts
def next_u64(stream, i):
    """Advance stream ``i`` of ``stream`` ((k,) uint64) and return the next 64-bit output."""
    z = stream[i] + _GOLDEN
    stream[i] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit_without_refcounts
def below(stream, i, n):
    """A draw in ``0..n-1`` (n < 2**32) from stream ``i``; multiply-shift, no modulo bias worth naming."""
    hi = next_u64(stream, i) >> _S32
    return np.int64((hi * np.uint64(n)) >> _S32)


@njit_without_refcounts
def shuffle(values, stream, i):
    """Fisher–Yates shuffle of ``values`` (1-D int array) in place, drawing from stream ``i``."""
    for j in range(values.shape[0] - 1, 0, -1):
        k = below(stream, i, j + 1)
        tmp = values[j]
        values[j] = values[k]
        values[k] = tmp


def new_stream(seed: int) -> np.ndarray:
    """A one-element stream array for ``seed`` (any int; reduced modulo 2**64)."""
    return np.array([seed % (1 << 64)], dtype=np.uint64)
