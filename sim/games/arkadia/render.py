"""Readable pictures of Arkadia games, read from the state: the grid in ASCII within 80 columns
(buildings by shape letter, lower case once completed; workers by colour; tents; the castle site),
the castle's stones and seal values, and the score sheet. Seats count from 1 in the text."""

import numpy as np
from bgsim.sim.games.arkadia.components import FAMILIES, SHAPES
from bgsim.sim.games.arkadia.state import (
    BUILDING,
    COMPLETED,
    FREE,
    MAX_CELLS,
    NEUTRAL,
    SITE,
    STATE,
    T_COLS,
    T_ROWS,
    T_TENT,
    WORKER,
)

__all__ = ["board_lines", "trace_json", "trace_text"]

SHAPE_LETTERS = "RFTMSHK"  # residence, farm, tavern, mill, smithy, trade centre (Handelskontor), monastery (Kloster)
COLOUR_LETTERS = "yogvn"  # yellow, orange, green, violet seats; n neutral


def _f(state, name):
    return STATE.view(state, name)


def board_lines(game, state: np.ndarray) -> list[str]:
    """The grid, one text row per board row: ``R`` a building of shape R (``r`` once completed), a
    worker by colour (``y o g v``, ``n`` neutral), ``#`` the castle site, ``^`` an uncovered tent."""
    t = game.table
    rows, cols = int(t[T_ROWS]), int(t[T_COLS])
    kind, who = _f(state, "cell_kind")[:MAX_CELLS], _f(state, "cell_who")[:MAX_CELLS]
    placement, done = _f(state, "b_placement"), _f(state, "b_state")
    out = ["    " + "".join(f"{c % 10:>2}" for c in range(cols))]
    for r in range(rows):
        cells = []
        for c in range(cols):
            i = r * cols + c
            if kind[i] == BUILDING:
                b = int(who[i])
                shape = int(np.searchsorted(game.place_first, int(placement[b]), side="right") - 1)
                letter = SHAPE_LETTERS[shape]
                cells.append(letter.lower() if done[b] == COMPLETED else letter)
            elif kind[i] == WORKER:
                cells.append(COLOUR_LETTERS[min(int(who[i]), NEUTRAL)])
            elif kind[i] == SITE:
                cells.append("#")
            elif kind[i] == FREE and t[T_TENT + i]:
                cells.append("^")
            else:
                cells.append(".")
        out.append(f"{r:>3} " + "".join(f"{x:>2}" for x in cells))
    return out


def _castle(game, state) -> str:
    values = [game.seal_value(state, f) for f in range(len(FAMILIES))]
    heights = _f(state, "field_height")
    return (f"castle: {int(heights.sum())} stones, level {int(_f(state, 'level')[0])}; seal values "
            + ", ".join(f"{f} {v}" for f, v in zip(FAMILIES, values, strict=True)))


def trace_text(game, state: np.ndarray, log=None, seeds=None, strategies=(), summary: bool = False) -> str:
    """The game's final position and score sheet (the turn-by-turn trace needs the event log)."""
    del log, summary
    n = game.n_players
    lines = [f"{game.id}  rules v{game.version}"]
    if seeds is not None:
        lines.append(f"chance seed {seeds.chance}, strategy seed {seeds.strategy}")
    for seat in range(n):
        who = strategies[seat] if seat < len(strategies) else "?"
        lines.append(f"  seat {seat + 1} ({COLOUR_LETTERS[seat]}): {who}")
    lines += ["", "== Final position ==", *board_lines(game, state), _castle(game, state),
              "buildings: " + ", ".join(f"{SHAPE_LETTERS[i]} {name}" for i, name in enumerate(SHAPES))]
    lines += ["", "== Final scoring =="]
    sheet = game.score_sheet(state)
    names = [k for k in sheet if k != "rank"]
    lines.append("seat  " + "  ".join(f"{k:>8}" for k in names) + "  rank")
    for seat in range(n):
        lines.append(f"{seat + 1:>4}  " + "  ".join(f"{int(sheet[k][seat]):>8}" for k in names)
                     + f"  {int(sheet['rank'][seat]):>4}")
    return "\n".join(lines) + "\n"


def trace_json(game, state: np.ndarray, log=None, seeds=None, strategies=()) -> dict:
    del log
    sheet = game.score_sheet(state)
    return {"game": game.id, "rules_version": game.version,
            "seeds": None if seeds is None else {"chance": seeds.chance, "strategy": seeds.strategy},
            "strategies": list(strategies), "board": board_lines(game, state),
            "score_sheet": {k: [int(v) for v in vals] for k, vals in sheet.items()}}
