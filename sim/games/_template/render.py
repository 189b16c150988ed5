"""Readable traces (text for people, JSON for programs); no rules live here.

FILL IN: the setup, one line per event (from the state or an event log), the score sheet.
"""

import numpy as np

__all__ = ["trace_json", "trace_text"]


def trace_text(game, state: np.ndarray, log=None, seeds=None, strategies=(), summary: bool = False) -> str:
    lines = [f"{game.id}  rules v{game.version}"]
    if seeds is not None:
        lines.append(f"chance seed {seeds.chance}, strategy seed {seeds.strategy}")
    lines += [f"  seat {seat + 1}: {sid}" for seat, sid in enumerate(strategies)]
    sheet = game.score_sheet(state)
    lines += ["", "== Final scoring =="]
    lines += [f"seat {seat + 1}: " + ", ".join(f"{k} {int(v[seat])}" for k, v in sheet.items())
              for seat in range(game.n_players)]
    return "\n".join(lines) + "\n"


def trace_json(game, state: np.ndarray, log=None, seeds=None, strategies=()) -> dict:
    return {"game": game.id, "rules_version": game.version, "strategies": list(strategies),
            "seeds": None if seeds is None else {"chance": seeds.chance, "strategy": seeds.strategy},
            "score_sheet": {k: v.tolist() for k, v in game.score_sheet(state).items()}}
