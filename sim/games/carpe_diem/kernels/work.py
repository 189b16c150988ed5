"""Scratch arrays of the placement scans, shared by the candidate tables and the compiled loop.

``PlacementWork`` holds what the placement rows of one decision share (the context, per cell
its needs and neighbour roots, the frontier, the per-cell merge tables of
``placements.fill_merges``) and the buffers of one tile's placements. It is allocated once per
table or per compiled game; every entry is written before it is read.
"""

from typing import NamedTuple

import numpy as np
from bgsim.sim.games.carpe_diem.constants import DEPOT_SIZE, N_CELLS, N_SPACES
from bgsim.sim.games.carpe_diem.features import N_FEATURES
from bgsim.sim.games.carpe_diem.kernels.context import CTX_SIZE
from bgsim.sim.games.carpe_diem.kernels.district import R_SIZE
from numba import njit

N_MOVES_MAX = 16
MAX_PLACEMENTS = N_CELLS * 4  # legal placements of one tile at most
NO_ROW = -(1 << 62)  # a value below every row value (choose_row starts from it too)

# Rows of PlacementWork.moves and PlacementWork.blocks.
MV_CODE, MV_TARGET, MV_DEST = 0, 1, 2
BK_DONE, BK_VALUE, BK_SLOT, BK_CELL, BK_ROT, BK_ROWS = 0, 1, 2, 3, 4, 5
# Columns of PlacementWork.merged: the distinct neighbour features a part joins, summed over them:
# open edges, size and chimneys, and row / column bitmasks with the cell's own row and column.
M_OPEN, M_SIZE_SUM, M_CHIM, M_ROWS, M_COLS = 0, 1, 2, 3, 4
M_SIZE = 5
# Rows of PlacementWork.cell_value: weighted adjacency + banner steps, and those steps' value.
CV_BASE, CV_STEPS = 0, 1
# Rows of PlacementWork.designs: a tile design valued in this TURN and its best row.
DS_DESIGN, DS_VALUE, DS_CELL, DS_ROT = 0, 1, 2, 3


class PlacementWork(NamedTuple):
    """Scratch arrays for placement rows, allocated once per table or per compiled game."""

    ctx: np.ndarray  # (CTX_SIZE,) int64: context shared by the rows of one decision (X_*)
    need: np.ndarray  # (36, 4) int64: edge code a tile must show per cell and side (cell_context)
    nroot: np.ndarray  # (36, 4) int64: root of the neighbour feature per cell and side, -1 none
    adj: np.ndarray  # (36,) int64: built neighbours per cell, -1 if occupied
    forbid: np.ndarray  # (36,) int64: forbidden edge bits per cell (forbidden_edges)
    frontier: np.ndarray  # (36,) int64: cells a tile may go to, ascending (ctx[X_N_FRONTIER] of them)
    cells: np.ndarray  # (MAX_PLACEMENTS,) int64: legal placements of one tile: cell
    rots: np.ndarray  # (MAX_PLACEMENTS,) int64: and rotation
    res: np.ndarray  # (MAX_PLACEMENTS, R_SIZE) int64: and their probe results
    row: np.ndarray  # (N_FEATURES,) int64: one feature row
    moves: np.ndarray  # (3, N_MOVES_MAX) int64: TURN movements: code, target, destination (MV_*)
    blocks: np.ndarray  # (6, N_SPACES) int64: per destination depot: best row or row count (BK_*)
    link: np.ndarray  # (36,) int64: per frontier cell, bit d if side d faces a neighbour's feature
    merged: np.ndarray  # (36, 16, M_SIZE) int64: per frontier cell and subset of its ``link`` sides,
    #   what a part open on those sides joins (placements.fill_merges, M_*)
    cell_value: np.ndarray  # (2, 36) int64: per frontier cell, weighted terms of its own (CV_*)
    designs: np.ndarray  # (4, N_SPACES * DEPOT_SIZE) int64: the tile designs a TURN valued, in order,
    #   each with its first best row (DS_*; choice._best_of_depot)


@njit(cache=True)
def new_placement_work():
    """Every entry is written before it is read, so only the small context is zeroed."""
    return PlacementWork(
        np.zeros(CTX_SIZE, dtype=np.int64),
        np.empty((N_CELLS, 4), dtype=np.int64),
        np.empty((N_CELLS, 4), dtype=np.int64),
        np.empty(N_CELLS, dtype=np.int64),
        np.empty(N_CELLS, dtype=np.int64),
        np.empty(N_CELLS, dtype=np.int64),
        np.empty(MAX_PLACEMENTS, dtype=np.int64),
        np.empty(MAX_PLACEMENTS, dtype=np.int64),
        np.empty((MAX_PLACEMENTS, R_SIZE), dtype=np.int64),
        np.empty(N_FEATURES, dtype=np.int64),
        np.empty((3, N_MOVES_MAX), dtype=np.int64),
        np.empty((6, N_SPACES), dtype=np.int64),
        np.empty(N_CELLS, dtype=np.int64),
        np.empty((N_CELLS, 16, M_SIZE), dtype=np.int64),
        np.empty((2, N_CELLS), dtype=np.int64),
        np.empty((4, N_SPACES * DEPOT_SIZE), dtype=np.int64),
    )
