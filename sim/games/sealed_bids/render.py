"""Readable traces of Sealed Bids games, read from the state alone (it keeps every round's bids and
the prize each winner took). Seats count from 1 in the text, as people count them; JSON keeps the
0-based indices. Prize points come from the game's parameters (``prize_points``)."""

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
    """(round, prize ids on offer, bids by seat in bid order, winner, prize id taken or -1) of every
    finished round; one prize on offer per round, two in pair (SB-OFFER-1), three in triple
    (SB-OFFER-2)."""
    bids = _f(state, "round_bids").reshape(ROUNDS, MAX_P)
    offer = int(_f(state, "offer")[0])
    deck = _f(state, "prize_deck")
    for r in range(int(_f(state, "round")[0])):
        order = [(r + k) % n for k in range(n)]
        offered = [int(p) for p in deck[offer * r: offer * (r + 1)]]
        yield r, offered, [(s, int(bids[r, s]) // 2 + 1) for s in order], int(_f(state, "round_winner")[r]), \
            int(_f(state, "round_taken")[r])


def _listed(words: list[str]) -> str:
    """'a', 'a and b', 'a, b and c': how the trace names the prizes of a round."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _offer_text(offered: list[int], points: np.ndarray) -> str:
    """The prizes on offer with their points (``points`` (10,) or (15,) int64 by prize id)."""
    shown = _listed([f"P{p + 1} ({points[p]} points)" for p in offered])
    return f"prize {shown}" if len(offered) == 1 else f"prizes {shown}"


def _outcome_text(offered: list[int], winner: int, taken: int) -> str:
    """Who took what: SB-WIN-1, SB-TIE-1 (discard), SB-OFFER-1 and SB-OFFER-2 (the prizes not taken
    leave the game)."""
    if winner < 0:
        return _listed([f"P{p + 1}" for p in offered]) + (" is" if len(offered) == 1 else " are") + " discarded"
    left = [f"P{p + 1}" for p in offered if p != taken]
    verb = "leaves" if len(left) == 1 else "leave"
    return f"seat {winner + 1} takes P{taken + 1}" + (f", {_listed(left)} {verb} the game" if left else "")


def trace_text(game, state: np.ndarray, log=None, seeds=None, strategies=(), summary: bool = False) -> str:
    del log  # the state holds the whole history
    n = game.n_players
    points = game.prize_points
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
    lines.append("prize deck: " + " ".join(f"P{int(p) + 1}" for p in _deck(state)))
    if not summary:
        lines += ["", "== Rounds =="]
        for r, offered, bids, winner, taken in _rounds(state, n):
            shown = ", ".join(f"seat {s + 1} bids {v}" for s, v in bids)
            lines.append(f"round {r + 1}: {_offer_text(offered, points)}; {shown} -> "
                         f"{_outcome_text(offered, winner, taken)}")
    lines += ["", "== Final scoring =="]
    sheet = game.score_sheet(state)
    names = [k for k in sheet if k != "rank"]
    lines.append("seat  " + "  ".join(f"{k:>8}" for k in names) + "  rank")
    for seat in range(n):
        lines.append(f"{seat + 1:>4}  " + "  ".join(f"{int(sheet[k][seat]):>8}" for k in names)
                     + f"  {int(sheet['rank'][seat]):>4}")
    return "\n".join(lines) + "\n"


def _deck(state) -> np.ndarray:
    """The prize ids of the deck in deal order: 8, 10 in pair, 15 in triple (entries past the deck are -1)."""
    return _f(state, "prize_deck")[: int(_f(state, "deck_n")[0])]


def _round_event(r, offered, bids, winner, taken) -> dict:
    """One round of ``trace_json``: the prize on offer, or in pair and triple all of them and the one
    taken."""
    event = {"event": "round", "round": r}
    event |= {"prize": offered[0]} if len(offered) == 1 else {"prizes": offered, "taken": taken}
    return event | {"bids": [{"seat": s, "value": v} for s, v in bids], "winner": winner}


def trace_json(game, state: np.ndarray, log=None, seeds=None, strategies=()) -> dict:
    del log
    n = game.n_players
    return {
        "game": game.id,
        "rules_version": game.version,
        "seeds": None if seeds is None else {"chance": seeds.chance, "strategy": seeds.strategy},
        "strategies": list(strategies),
        "setup": {"hands": [_hand_at_start(state, s) for s in range(n)],
                  "prize_deck": [int(p) for p in _deck(state)]},
        "events": [_round_event(*item) for item in _rounds(state, n)],
        "score_sheet": {k: v.tolist() for k, v in game.score_sheet(state).items()},
    }
