"""ARK-PLACE-3, -4: the bitboard listing of a shape's legal placements (``kernels.anchors``) is the
one-by-one test of every placement (``board.placement_is_legal``), in table order, on boards of
random play, on the reconstructed grid and on grids of other sizes, with and without mirror
images (AMB-6)."""

import dataclasses

import numpy as np
import pytest
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import load_components
from bgsim.sim.games.arkadia.kernels.anchors import legal_placements, pad_boards
from bgsim.sim.games.arkadia.kernels.board import placement_is_legal
from bgsim.sim.games.arkadia.kernels.flow import apply_action
from bgsim.sim.games.arkadia.kernels.setup import new_game
from bgsim.sim.games.arkadia.params import Params
from bgsim.sim.games.arkadia.tables import component_table
from bgsim.sim.rng import below

from tests.games.arkadia.helpers import NO_LOG, table

GRIDS = [(12, 16), (11, 15), (13, 17), (9, 21)]  # the reconstructed grid, and smaller, larger, odd ones


def _components(rows, cols):
    comps = load_components(intro_setup=False)
    if (rows, cols) == (comps.rows, comps.cols):
        return comps
    tents = frozenset((r, c) for r, c in comps.tents if r < rows and c < cols)
    return dataclasses.replace(comps, rows=rows, cols=cols, tents=tents)


@pytest.mark.parametrize(("rows", "cols"), GRIDS)
@pytest.mark.parametrize("mirror", [False, True])
def test_ark_place_3_4_the_bitboard_listing_is_the_one_by_one_test(rows, cols, mirror):
    t = component_table(_components(rows, cols))
    p = Params.from_dict({"n_players": 3, "allow_mirror": mirror}).to_array()
    free, front, taken = (np.zeros(st.PAD_WORDS, dtype=np.uint64) for _ in range(3))
    out = np.empty(8 * st.MAX_CELLS, dtype=np.int64)
    boards = 0
    for seed in range(3):
        s = new_game(t, p, np.uint64(seed), None)
        stream = np.array([seed + 7], dtype=np.uint64)
        while s[st.PHASE] != d.OVER and boards < 400:
            pad_boards(s, t, free, front, taken)
            for shape in range(len(load_components(intro_setup=False).shapes)):
                n = legal_placements(t, p, shape, free, front, out)
                end = t[st.T_PLACE_FIRST + shape + 1] if mirror else t[st.T_PLACE_TURNED_END + shape]
                expected = [k for k in range(t[st.T_PLACE_FIRST + shape], end) if placement_is_legal(s, t, k)]
                assert out[:n].tolist() == expected
            boards += 1
            _, acts = table(s, t, p)
            apply_action(s, t, p, acts[below(stream, 0, len(acts))], NO_LOG)
    assert boards > 100
