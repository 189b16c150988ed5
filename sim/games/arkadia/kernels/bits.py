"""Sets of cells as bits, word by word: the OCCUPIED words of the state against the masks of the
component table (``T_PLACE_BITS``: a placement's cells, then the cells around it). Cell i is bit
i % 32 of word i // 32 of MASK_WORDS int32 words."""

import numpy as np
from bgsim.sim.games.arkadia.state import CELL_KIND, CELL_WHO, MASK_WORDS, OCCUPIED, T_PLACE_BITS, WORKER
from numba import njit

__all__ = ["cells_of", "count_in", "enclosed_with", "free_count", "meets", "meets_bits", "popcount", "word_bit",
           "worker_bits"]


@njit(cache=True)
def popcount(word):
    """Bits set in the low 32 bits of ``word`` (an int32 word may be negative)."""
    x = np.int64(word) & 0xFFFFFFFF
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return (x * 0x01010101 & 0xFFFFFFFF) >> 24


@njit(cache=True)
def word_bit(cell):
    """The bit of ``cell`` in its int32 word, as a value an int32 holds (bit 31 is the sign)."""
    bit = np.int64(1) << np.int64(cell & 31)
    return bit - (np.int64(1) << np.int64(32)) if bit >= (np.int64(1) << np.int64(31)) else bit


@njit(cache=True)
def cells_of(t, k):
    """Offset in ``t`` of placement ``k``'s cell mask; its around mask follows at + MASK_WORDS."""
    return T_PLACE_BITS + k * 2 * MASK_WORDS


@njit(cache=True)
def free_count(s, t, mask):
    """Cells of the mask at ``t[mask:mask + MASK_WORDS]`` that are free."""
    n = 0
    for w in range(MASK_WORDS):
        word = t[mask + w] & ~s[OCCUPIED + w]
        if word:  # a placement's mask spans one or two words: skip the empty ones
            n += popcount(word)
    return n


@njit(cache=True)
def count_in(t, mask, bits):
    """Cells of the mask at ``t[mask:...]`` that are in ``bits`` ((MASK_WORDS,) int64)."""
    n = 0
    for w in range(MASK_WORDS):
        word = t[mask + w] & bits[w]
        if word:
            n += popcount(word)
    return n


@njit(cache=True)
def worker_bits(s, n_cells, colour, out):
    """The cells holding a worker of ``colour`` into ``out`` ((MASK_WORDS,) int64)."""
    out[:] = 0
    for cell in range(n_cells):
        if s[CELL_KIND + cell] == WORKER and s[CELL_WHO + cell] == colour:
            out[cell >> 5] |= word_bit(cell)


@njit(cache=True)
def meets_bits(t, mask, bits):
    """Whether the mask at ``t[mask:...]`` shares a cell with ``bits`` ((MASK_WORDS,) int64)."""
    for w in range(MASK_WORDS):
        if t[mask + w] & bits[w]:
            return True
    return False


@njit(cache=True)
def meets(t, a, b):
    """Whether the masks at ``t[a:...]`` and ``t[b:...]`` share a cell."""
    for w in range(MASK_WORDS):
        if t[a + w] & t[b + w]:
            return True
    return False


@njit(cache=True)
def enclosed_with(s, t, around, extra):
    """Whether every cell of the around mask at ``t[around:...]`` is occupied once the cells of the
    mask at ``t[extra:...]`` are too (ARK-COMPLETE-2)."""
    for w in range(MASK_WORDS):
        if t[around + w] & ~(s[OCCUPIED + w] | t[extra + w]):
            return False
    return True

