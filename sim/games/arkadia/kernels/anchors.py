"""Every legal placement of a shape at once (ARK-PLACE-3, -4), by bitboards: an anchor (the top-left
corner of a placement's bounding box) is legal when each of the orientation's cells, shifted by
the anchor, is free, and one of them lies beside an occupied cell. On the padded board of the
component table (``T_PAD_*``: a guard after each row and below the grid, never free) one word of
shifted bits tests 64 anchors; placements come out in table order (orientation, then anchor in
reading order), the order of testing them one by one with ``board.placement_is_legal``.

Boards are (PAD_WORDS,) uint64 arrays: bit i of word i // 64 is padded cell i.
"""

import numpy as np
from bgsim.sim.borrow import njit_inline_without_refcounts, njit_without_refcounts
from bgsim.sim.games.arkadia.param_slots import PR_MIRROR
from bgsim.sim.games.arkadia.state import (
    OCCUPIED,
    ORIENT_FIELDS,
    T_COLS,
    T_ORIENT,
    T_ORIENT_FIRST,
    T_ORIENT_TURNED_END,
    T_PAD_CELL,
    T_PAD_WIDTH,
    T_PAD_WORDS,
    T_ROWS,
)
from numba import config, njit, types
from numba.extending import intrinsic

__all__ = ["legal_placements", "pad_boards"]

_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@intrinsic
def _trailing_zeros(typingctx, value):
    """The index of the lowest set bit of a non-zero uint64 (LLVM's cttz)."""
    if value != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return types.uint64(types.uint64), codegen


if config.DISABLE_JIT:

    def _lowest_bit(word):
        return (int(word) & -int(word)).bit_length() - 1

else:

    @njit(cache=True)
    def _lowest_bit(word):
        return np.int64(_trailing_zeros(word))


@njit_inline_without_refcounts
def _shifted(board, j, d, n_words):
    """Word ``j`` of ``board`` moved ``d`` bits towards bit 0 (bit i of the result is bit i + d of
    the board; ``d`` may be negative), reading 0 beyond the board's ``n_words`` words."""
    if d < 0:
        q, r = (-d) >> 6, (-d) & 63
        low = board[j - q] if 0 <= j - q < n_words else np.uint64(0)
        if r == 0:
            return low
        below = board[j - q - 1] if 0 <= j - q - 1 < n_words else np.uint64(0)
        return (low << np.uint64(r)) | (below >> np.uint64(64 - r))
    q, r = d >> 6, d & 63
    low = board[j + q] if j + q < n_words else np.uint64(0)
    if r == 0:
        return low
    high = board[j + q + 1] if j + q + 1 < n_words else np.uint64(0)
    return (low >> np.uint64(r)) | (high << np.uint64(64 - r))


@njit_without_refcounts
def pad_boards(s, t, free, front, taken):
    """Fill ``free`` (the free cells), ``taken`` (the others) and ``front`` (free cells sharing an
    edge with a taken one) on the padded board: the boards of one decision's anchor tests."""
    n_words = t[T_PAD_WORDS]
    width = t[T_PAD_WIDTH]
    for j in range(n_words):
        free[j] = 0
        taken[j] = 0
    for cell in range(t[T_ROWS] * t[T_COLS]):
        bit = t[T_PAD_CELL + cell]
        mark = _ONE << np.uint64(bit & 63)
        if (s[OCCUPIED + (cell >> 5)] >> (cell & 31)) & 1:
            taken[bit >> 6] |= mark
        else:
            free[bit >> 6] |= mark
    for j in range(n_words):  # the guards keep a row's ends from touching the next row's
        beside = (_shifted(taken, j, 1, n_words) | _shifted(taken, j, -1, n_words)
                  | _shifted(taken, j, width, n_words) | _shifted(taken, j, -width, n_words))
        front[j] = beside & free[j]


@njit_without_refcounts
def legal_placements(t, p, shape, free, front, out):
    """The legal placements of ``shape`` into ``out`` ((>= 8 * MAX_CELLS,) int64) in table order:
    its rotations, and its mirror images under allow_mirror (AMB-6); returns how many. ``free``
    and ``front`` as ``pad_boards`` fills them."""
    n_words = t[T_PAD_WORDS]
    width = t[T_PAD_WIDTH]
    first_word = width >> 6  # the grid's rows, where legal anchors lie
    last_word = (width * (t[T_ROWS] + 1)) >> 6
    end = t[T_ORIENT_FIRST + shape + 1] if p[PR_MIRROR] else t[T_ORIENT_TURNED_END + shape]
    n = 0
    for o in range(t[T_ORIENT_FIRST + shape], end):
        base = T_ORIENT + o * ORIENT_FIELDS
        first, per_row, cells = t[base], t[base + 1], t[base + 2]
        for j in range(first_word, last_word + 1):
            fits = _ALL
            for i in range(cells):
                fits &= _shifted(free, j, t[base + 3 + i], n_words)
                if fits == 0:
                    break
            if fits == 0:
                continue
            touches = np.uint64(0)
            for i in range(cells):
                touches |= _shifted(front, j, t[base + 3 + i], n_words)
            anchors = fits & touches
            while anchors:
                anchor = j * 64 + _lowest_bit(anchors)
                anchors &= anchors - _ONE
                row = anchor // width - 1
                out[n] = first + row * per_row + anchor - (row + 1) * width
                n += 1
    return n
