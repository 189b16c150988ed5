"""Readable traces of Sealed Bids games, read from the state alone (it keeps every round's bids).
Seats count from 1 in the text, as people count them; JSON keeps the 0-based indices."""

import numpy as np
from bgsim.sim.games.sealed_bids.state import IN_HAND, MAX_P, N_CARDS, PLAYED, ROUNDS, STATE

__all__ = ["trace_json", "trace_text"]


def _f(state, name):
    return STATE.view(state, name)


def _hand_at_start(state, seat) -> list[int]:
    loc = _f(state, "loc")
    return sorted(c // 2 + 1 for c in range(N_CARDS) if loc[c] in (IN_HAND + seat, PLAYED + seat)
                  or (loc[c] == 4 + seat))


def _rounds(state, n):
    """(round, prize id, bids by seat in bid order, winner) of every finished round."""
    bids = _f(state, "round_bids").reshape(ROUNDS, MAX_P)
    for r in range(int(_f(state, "round")[0])):
        order = [(r + k) % n for k in range(n)]
        yield r, int(_f(state, "prize_deck")[r]), [(s, int(bids[r, s]) // 2 + 1) for s in order], \
            int(_f(state, "round_winner")[r])


def trace_text(game, state: np.ndarray, log=None, seeds=None, strategies=(), summary: bool = False) -> str:
    del log  # the state holds the whole history
    n = game.n_players
    lines = [f"{game.id}  rules v{game.version}"]
    if seeds is not None:
        lines.append(f"chance seed {seeds.chance}, strategy seed {seeds.strategy}")
    for seat in range(n):
        who = strategies[seat] if seat < len(strategies) else "?"
        lines.append(f"  seat {seat + 1}: {who}{'  (bids first in round 1)' if seat == 0 else ''}")
    lines += ["", "== Setup =="]
    for seat in range(n):
        hand = " ".join(str(v) for v in _hand_at_start(state, seat))
        lines.append(f"seat {seat + 1}: hand {hand}, start points {int(_f(state, 'start_points')[seat])}")
    lines.append("prize deck: " + " ".join(f"P{int(p) + 1}" for p in _f(state, "prize_deck")))
    if not summary:
        lines += ["", "== Rounds =="]
        for r, prize, bids, winner in _rounds(state, n):
            shown = ", ".join(f"seat {s + 1} bids {v}" for s, v in bids)
            taker = f"seat {winner + 1} takes P{prize + 1}" if winner >= 0 else f"P{prize + 1} is discarded"
            lines.append(f"round {r + 1}: prize P{prize + 1} ({prize + 1} points); {shown} -> {taker}")
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
    n = game.n_players
    return {
        "game": game.id,
        "rules_version": game.version,
        "seeds": None if seeds is None else {"chance": seeds.chance, "strategy": seeds.strategy},
        "strategies": list(strategies),
        "setup": {"hands": [_hand_at_start(state, s) for s in range(n)],
                  "prize_deck": [int(p) for p in _f(state, "prize_deck")]},
        "events": [{"event": "round", "round": r, "prize": prize, "bids": [{"seat": s, "value": v} for s, v in bids],
                    "winner": winner} for r, prize, bids, winner in _rounds(state, n)],
        "score_sheet": {k: v.tolist() for k, v in game.score_sheet(state).items()},
    }
