"""Arkadia's grid geometry, on plain cells: shape orientations, castle sites, neighbours, and every
placement of every shape as bit masks the kernels test with a few AND operations.

A cell is (row, col), 0-based; its index is ``row * cols + col``. A set of cells is a bit mask of
``MASK_WORDS`` uint64 words (cell i is bit i % 64 of word i // 64), so the largest board holds 256
cells. Adjacent means sharing an edge (diagonal contact never counts).
"""

from dataclasses import dataclass

import numpy as np
from bgsim.sim.games.arkadia.state import MAX_CELLS

__all__ = ["MASK_WORDS", "Placements", "castle_sites", "mask_of", "neighbours", "orientations", "placements",
           "site_cells"]

MASK_WORDS = MAX_CELLS // 64  # uint64 words of a set of cells on the largest board
SITE_SHAPES = {"wide": (3, 4), "tall": (4, 3)}  # the castle site's rows x columns per orientation


def _normal(cells) -> tuple[tuple[int, int], ...]:
    """``cells`` moved so that their top row and left column are 0, sorted."""
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def orientations(cells, mirror: bool = False) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The distinct orientations of a shape: its 4 rotations (ARK-PLACE-2), and with ``mirror`` their
    mirror images too (AMB-6); each normalised, the unrotated shape first."""
    found = []
    shapes = [tuple(cells)] + ([tuple((r, -c) for r, c in cells)] if mirror else [])
    for shape in shapes:
        turned = shape
        for _ in range(4):
            normal = _normal(turned)
            if normal not in found:
                found.append(normal)
            turned = tuple((c, -r) for r, c in turned)  # a quarter turn clockwise
    return tuple(found)


def site_cells(row: int, col: int, orientation: str) -> list[tuple[int, int]]:
    """The 12 cells of a castle site with its top-left cell at (row, col)."""
    height, width = SITE_SHAPES[orientation]
    return [(row + r, col + c) for r in range(height) for c in range(width)]


def castle_sites(rows: int, cols: int, tents) -> list[tuple[int, int, str]]:
    """Every legal castle site (ARK-SETUP-2): inside the board, covering no tent; wide ones first,
    each orientation in reading order of its top-left cell."""
    sites = []
    for orientation, (height, width) in SITE_SHAPES.items():
        for row in range(rows - height + 1):
            for col in range(cols - width + 1):
                if not any(cell in tents for cell in site_cells(row, col, orientation)):
                    sites.append((row, col, orientation))
    return sites


def neighbours(cells, rows: int, cols: int) -> set[tuple[int, int]]:
    """The board cells outside ``cells`` that share an edge with one of them."""
    cells = set(cells)
    around = {(r + dr, c + dc) for r, c in cells for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))}
    return {(r, c) for r, c in around - cells if 0 <= r < rows and 0 <= c < cols}


def mask_of(cells, cols: int) -> np.ndarray:
    """(MASK_WORDS,) uint64 bit mask of ``cells`` on a board ``cols`` wide."""
    mask = np.zeros(MASK_WORDS, dtype=np.uint64)
    for r, c in cells:
        i = r * cols + c
        mask[i // 64] |= np.uint64(1) << np.uint64(i % 64)
    return mask


@dataclass(frozen=True)
class Placements:
    """Every placement of every shape inside the board: K rows.

    shape, orientation: (K,) int8; anchor: (K,) int16, the cell index of the placement's top-left
    corner (of its bounding box); cells: (K, 6) int16, its cell indices, -1 padded; mask: (K,
    MASK_WORDS) uint64, its cells; around: (K, MASK_WORDS) uint64, the board cells adjacent to it.
    ``first``: (S + 1,) int32, placements of shape s are rows first[s] .. first[s + 1] - 1.
    """

    shape: np.ndarray
    orientation: np.ndarray
    anchor: np.ndarray
    cells: np.ndarray
    mask: np.ndarray
    around: np.ndarray
    first: np.ndarray


def placements(shapes, rows: int, cols: int, mirror: bool = False) -> Placements:
    """The placements of ``shapes`` (each a tuple of (row, col) offsets), in shape, orientation and
    anchor order. Legality against the board's contents is the kernels' (ARK-PLACE-3, -4)."""
    rows_out = {"shape": [], "orientation": [], "anchor": [], "cells": [], "mask": [], "around": []}
    first = [0]
    for s, shape in enumerate(shapes):
        for o, cells in enumerate(orientations(shape, mirror)):
            height, width = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
            for row in range(rows - height + 1):
                for col in range(cols - width + 1):
                    placed = [(row + r, col + c) for r, c in cells]
                    rows_out["shape"].append(s)
                    rows_out["orientation"].append(o)
                    rows_out["anchor"].append(row * cols + col)
                    rows_out["cells"].append([r * cols + c for r, c in placed] + [-1] * (6 - len(placed)))
                    rows_out["mask"].append(mask_of(placed, cols))
                    rows_out["around"].append(mask_of(neighbours(placed, rows, cols), cols))
        first.append(len(rows_out["shape"]))
    return Placements(shape=np.array(rows_out["shape"], dtype=np.int8),
                      orientation=np.array(rows_out["orientation"], dtype=np.int8),
                      anchor=np.array(rows_out["anchor"], dtype=np.int16),
                      cells=np.array(rows_out["cells"], dtype=np.int16).reshape(-1, 6),
                      mask=np.array(rows_out["mask"], dtype=np.uint64).reshape(-1, MASK_WORDS),
                      around=np.array(rows_out["around"], dtype=np.uint64).reshape(-1, MASK_WORDS),
                      first=np.array(first, dtype=np.int32))
