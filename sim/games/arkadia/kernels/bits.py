"""Sets of cells as bits, word by word: the OCCUPIED words of the state against the masks of the
component table (``T_PLACE_BITS``: a placement's cells, then the cells around it). Cell i is bit
i % 32 of word i // 32 of MASK_WORDS int32 words; a placement's bits lie in the few words of its
span (``T_PLACE_SPAN``), and the tests read only those."""

import numpy as np
from bgsim.sim.games.arkadia.state import CELL_KIND, CELL_WHO, MASK_WORDS, OCCUPIED, T_PLACE_BITS, T_PLACE_SPAN, WORKER
from numba import config, njit, types
from numba.extending import intrinsic

__all__ = ["cells_of", "count_in", "covers", "free_count", "has_free", "meets_bits", "popcount", "span_of", "word_bit",
           "worker_bits"]


@intrinsic
def _count_ones(typingctx, value):
    """The machine's population count of a uint64 (LLVM's ctpop: one instruction where there is one)."""
    if value != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


if config.DISABLE_JIT:

    def popcount(word):
        """Bits set in the low 32 bits of ``word`` (an int32 word may be negative)."""
        return bin(int(word) & 0xFFFFFFFF).count("1")

else:

    @njit(cache=True)
    def popcount(word):
        """Bits set in the low 32 bits of ``word`` (an int32 word may be negative)."""
        return np.int64(_count_ones(np.uint64(np.int64(word) & 0xFFFFFFFF)))


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
def span_of(t, k):
    """(first, past-last) word of placement ``k``'s masks holding a bit: the only words its tests read."""
    return t[T_PLACE_SPAN + 2 * k], t[T_PLACE_SPAN + 2 * k + 1]


@njit(cache=True)
def free_count(s, t, mask, lo, hi):
    """Cells of the mask at ``t[mask:mask + MASK_WORDS]`` (bits only in words lo..hi-1) that are free."""
    n = 0
    for w in range(lo, hi):
        word = t[mask + w] & ~s[OCCUPIED + w]
        if word:
            n += popcount(word)
    return n


@njit(cache=True)
def has_free(s, t, mask, lo, hi):
    """Whether a cell of the mask at ``t[mask:...]`` (bits only in words lo..hi-1) is free."""
    for w in range(lo, hi):
        if t[mask + w] & ~s[OCCUPIED + w]:
            return True
    return False


@njit(cache=True)
def count_in(t, mask, bits, lo, hi):
    """Cells of the mask at ``t[mask:...]`` (bits only in words lo..hi-1) that are in ``bits``
    ((MASK_WORDS,) int64)."""
    n = 0
    for w in range(lo, hi):
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
def meets_bits(t, mask, bits, lo, hi):
    """Whether the mask at ``t[mask:...]`` (bits only in words lo..hi-1) shares a cell with ``bits``
    ((MASK_WORDS,) int64)."""
    for w in range(lo, hi):
        if t[mask + w] & bits[w]:
            return True
    return False


@njit(cache=True)
def covers(t, mask, bits, lo, hi):
    """Whether the mask at ``t[mask:...]`` holds every cell of ``bits`` ((MASK_WORDS,) int64, bits
    only in words lo..hi-1)."""
    for w in range(lo, hi):
        if bits[w] & ~t[mask + w]:
            return False
    return True
