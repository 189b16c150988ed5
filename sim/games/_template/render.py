"""Readable traces (text for people, JSON for programs) from the final state and the event log;
no rules live here. Seats count from 1 in the text, as people count them; JSON keeps the 0-based
indices.

FILL IN: the setup, one line per event, the score sheet.
"""

import numpy as np
from bgsim.sim.games._template.state import EV_DRAW, EVENT_NAMES, IN_HAND, PLAYED, STATE, events

__all__ = ["trace_json", "trace_text"]


def _dealt_hands(state: np.ndarray, log: np.ndarray | None, n: int) -> list[list[int]]:
    """Card ids each seat was dealt: the cards it holds or played, less those the log shows it drew."""
    loc = STATE.view(state, "loc")
    drawn = {(int(e[1]), int(e[2])) for e in events(log) if e[0] == EV_DRAW}
    return [[c for c in range(len(loc)) if loc[c] in (IN_HAND + seat, PLAYED + seat) and (seat, c) not in drawn]
            for seat in range(n)]


def _event_text(game, event: np.ndarray) -> str:
    code, seat, card, points, bonus = (int(v) for v in event)
    if code == EV_DRAW:
        return f"seat {seat + 1} draws card {card} ({_points(game.card_table[card])})"
    extra = f" + {bonus} bonus" if bonus else ""
    return f"seat {seat + 1} plays card {card}: {_points(points)}{extra}"


def _points(n: int) -> str:
    return f"{int(n)} point{'' if n == 1 else 's'}"


def trace_text(game, state: np.ndarray, log=None, seeds=None, strategies=(), summary: bool = False) -> str:
    n = game.n_players
    lines = [f"{game.id}  rules v{game.version}"]
    if seeds is not None:
        lines.append(f"chance seed {seeds.chance}, strategy seed {seeds.strategy}")
    for seat in range(n):
        who = strategies[seat] if seat < len(strategies) else "?"
        lines.append(f"  seat {seat + 1}: {who}{'  (plays first every round)' if seat == 0 else ''}")
    if log is not None:
        lines += ["", "== Setup =="]
        for seat, hand in enumerate(_dealt_hands(state, log, n)):
            cards = ", ".join(f"card {c} ({_points(game.card_table[c])})" for c in hand)
            lines.append(f"seat {seat + 1}: hand {cards}, start points {int(game.field(state, 'start_points')[seat])}")
        if not summary:
            lines += ["", "== Turns =="]
            lines += [_event_text(game, event) for event in events(log)]
    lines += ["", "== Final scoring =="]
    sheet = game.score_sheet(state)
    names = [k for k in sheet if k != "rank"]
    lines.append("seat  " + "  ".join(f"{k:>6}" for k in names) + "  rank")
    for seat in range(n):
        lines.append(f"{seat + 1:>4}  " + "  ".join(f"{int(sheet[k][seat]):>6}" for k in names)
                     + f"  {int(sheet['rank'][seat]):>4}")
    return "\n".join(lines) + "\n"


def _event_json(event: np.ndarray) -> dict:
    code, seat, card, points, bonus = (int(v) for v in event)
    if code == EV_DRAW:
        return {"event": EVENT_NAMES[code], "seat": seat, "card": card}
    return {"event": EVENT_NAMES[code], "seat": seat, "card": card, "points": points, "bonus": bonus}


def trace_json(game, state: np.ndarray, log=None, seeds=None, strategies=()) -> dict:
    return {
        "game": game.id,
        "rules_version": game.version,
        "seeds": None if seeds is None else {"chance": seeds.chance, "strategy": seeds.strategy},
        "strategies": list(strategies),
        "setup": None if log is None else {"hands": _dealt_hands(state, log, game.n_players)},
        "events": [_event_json(event) for event in events(log)],
        "score_sheet": {k: v.tolist() for k, v in game.score_sheet(state).items()},
    }
