"""Readable traces of Capitol games from the event log (``events.py``) and the state.

Seats count from 1 in the text, as people count them; JSON keeps the 0-based indices. The deal
is read again from the chance seed (``new_state``), since it happens before any log exists.
"""

import re

import numpy as np
from bgsim.sim.games.capitol.decisions import (
    ALLOC_ADD1,
    ALLOC_ADD1_ADD1,
    ALLOC_ADD1_NEW,
    ALLOC_ADD2,
    ALLOC_NEW1,
    ALLOC_NEW1_NEW1,
    ALLOC_NEW2,
)
from bgsim.sim.games.capitol.events import (
    EV_AUCTION,
    EV_BID,
    EV_BONUS,
    EV_DRAW,
    EV_DRAW_STOP,
    EV_END,
    EV_NO_SPACE,
    EV_NULL,
    EV_PASS,
    EV_PAY,
    EV_PERMIT,
    EV_PLACE_ITEM,
    EV_PREFECTURE,
    EV_REMOVED,
    EV_ROOF,
    EV_ROUND,
    EV_SCORE,
    EV_SCORING,
    EV_STONE,
    EV_TURNOVER,
    EV_WIN,
    EVENT_NAMES,
    events,
)
from bgsim.sim.games.capitol.state import (
    CLASS_COLOUR,
    CLASS_TYPE,
    CLASS_VALUE,
    COLOUR_NAMES,
    HMAX,
    ITEM_NAMES,
    N_CLASSES,
    N_TYPES,
    QCAP,
    SHAPE_NAMES,
    STATE,
    TYPE_NAMES,
)

__all__ = ["card_name", "trace_json", "trace_text"]

LEGEND = ("marks: card+ = a bonus draw, earned by an amphitheatre (CAP-DRAW-6)",
          "       houses 2r, 1s, 3- = height 2 with a round roof, height 1 with a",
          "       square roof, height 3 without one; a seat's houses stand in its area",
          "       until a permit moves one onto the board")  # at most 80 columns each


def card_name(k: int) -> str:
    """'roof 5', 'stone 2' or 'lilac permit 7'."""
    kind = TYPE_NAMES[int(CLASS_TYPE[k])]
    value = int(CLASS_VALUE[k])
    if kind == "permit":
        return f"{COLOUR_NAMES[int(CLASS_COLOUR[k])]} permit {value}"
    return f"{kind} {value}"


def _f(state, name):
    return STATE.view(state, name)


def _hand(state, seat) -> list[str]:
    hand = _f(state, "hand")[seat]
    return [card_name(k) for k in range(N_CLASSES) for _ in range(int(hand[k]))]


def _houses(state, seat) -> str:
    fin = _f(state, "finished")[seat]
    unf = _f(state, "unfinished")[seat]
    parts = [f"{h}{SHAPE_NAMES[shape][0]}" for shape in range(2) for h in range(1, HMAX + 1)
             for _ in range(int(fin[shape, h]))]
    parts += [f"{h}-" for h in range(1, HMAX + 1) for _ in range(int(unf[h]))]
    return " ".join(parts) or "none"


def _top(state, kind) -> str:
    if int(_f(state, "pile_draw")[kind]) == 0:
        return "empty"
    head = int(_f(state, "pile_head")[kind])
    return card_name(int(_f(state, "pile")[kind, head % QCAP]))


def _setup_lines(game, start) -> list[str]:
    lines = ["board:"]
    for i, pref in enumerate(game.board.prefectures):
        lines.append(f"  {i + 1}. {pref.name} ({COLOUR_NAMES[pref.colour]}): {pref.small} small spaces, "
                     f"{pref.large} large site{'s' if pref.large != 1 else ''}, {pref.fountains} fountain"
                     f"{'s' if pref.fountains != 1 else ''}")
    for seat in range(game.n_players):
        lines.append(f"seat {seat + 1}: hand {', '.join(_hand(start, seat))}; houses {_houses(start, seat)}; "
                     f"start points {int(_f(start, 'start_points')[seat])}")
    piles = ", ".join(f"{TYPE_NAMES[k]} {int(_f(start, 'pile_draw')[k])} (top {_top(start, k)})"
                      for k in range(N_TYPES))
    lines.append(f"draw piles: {piles}; stone supply {int(_f(start, 'supply')[0])}")
    return lines


def _describe(game, ev) -> str | None:
    """One line for one event, or None for an event folded into another line."""
    code, seat = int(ev[0]), int(ev[1])
    a, b, c, d, e = (int(x) for x in ev[2:7])
    who = f"seat {seat + 1}"
    prefs = [p.name for p in game.board.prefectures]
    if code == EV_ROUND:
        return f"\n== Round {a + 1} (consul: seat {b + 1}) ==\n-- build phase --"
    if code == EV_PASS:
        return f"{who} passes"
    if code == EV_STONE:
        taken = 2 if b <= 4 else 1
        return f"{who} plays {card_name(a)}: {_stones(b, c, d)} in its area; supply {e} (took {taken})"
    if code == EV_ROOF:
        return f"{who} plays {card_name(a)}: {SHAPE_NAMES[c]} roof on the house of height {b}"
    if code == EV_PERMIT:
        return f"{who} plays {card_name(a)}: house of height {b} ({SHAPE_NAMES[c]}) into {prefs[d]}"
    if code == EV_NULL:
        return f"{who} plays {card_name(a)} without its action"
    if code == EV_AUCTION:
        return f"-- auction {a + 1}: {ITEM_NAMES[b]} --"
    if code == EV_NO_SPACE:
        return f"   no free place for the {ITEM_NAMES[b]}: it leaves the game (AMB-17)"
    if code == EV_BID:
        return f"   {who} bids {b}" + (f" ({c} card{'s' if c != 1 else ''})" if c else "")
    if code == EV_WIN:
        why = {0: "highest bid", 1: "tied, lower score", 2: "no bids, lowest score"}[c]
        scored = f", scores {d} point{'s' if abs(d) != 1 else ''} at once (CAP-VAR-1)" if d else ""  # 0 by the rules
        return f"   {who} wins for {b} ({why}){scored}"
    if code == EV_REMOVED:
        if b == 1:
            return "   nobody bids: the item leaves the game"
        if b == 3:
            return "   taken off the track before the game: no auction"
        return "   tied bids, equal scores: the item leaves the game"
    if code == EV_PAY:
        return f"   {who} discards {card_name(a)}"
    if code == EV_PLACE_ITEM:
        return f"   {who} places the {ITEM_NAMES[b]} in {prefs[c]}"
    if code == EV_SCORING:
        return f"-- scoring {a + 1} --"
    if code == EV_PREFECTURE:
        extras = [f"{c} fountain{'s' if c != 1 else ''}"] + (["temple doubles"] if d == 2 else [])
        return f"   {prefs[b]} ({', '.join(extras)}):"

    if code == EV_BONUS:
        return f"{who} earns {a} amphitheatre draw{'s' if a != 1 else ''} (marked +)"
    if code == EV_DRAW_STOP:
        return f"{who} stops drawing ({a + b} draw{'s' if a + b != 1 else ''} not taken)"
    if code == EV_TURNOVER:
        return f"   the {TYPE_NAMES[a]} discard pile ({b} cards) is turned over"
    if code == EV_END:
        return None
    return f"{EVENT_NAMES.get(code, code)} {who} {a} {b} {c} {d} {e}"


def _stones(alloc: int, y: int, z: int) -> str:
    """What a stone card built, by its allocation and the heights ``y``, ``z`` of the unfinished
    houses it added to. Stones go to houses in the seat's own area (CAP-BUILD-8); a permit later
    moves a finished house onto the board."""
    return {ALLOC_ADD2: f"+2 on a house of height {y}",
            ALLOC_ADD1_ADD1: f"+1 on two houses of height {y}" if y == z else f"+1 on houses of heights {y} and {z}",
            ALLOC_ADD1_NEW: f"+1 on a house of height {y} and a new house of 1",
            ALLOC_NEW1_NEW1: "two new houses of 1",
            ALLOC_NEW2: "a new house of 2",
            ALLOC_ADD1: f"+1 on a house of height {y}",
            ALLOC_NEW1: "a new house of 1"}[alloc]


def _draws(drawn) -> str:
    """One line for a seat's run of draws; bonus draws marked with +."""
    cards = ", ".join(card_name(int(ev[2])) + ("+" if int(ev[4]) else "") for ev in drawn)
    return f"seat {int(drawn[0][1]) + 1} draws {cards}"


def _placings(scored) -> list[str]:
    """One line per placed seat of a prefecture, first places first, with what decided a tie."""
    firsts = [ev for ev in scored if int(ev[4]) == 1]
    seconds = [ev for ev in scored if int(ev[4]) == 2]
    top_stones = max((int(ev[6]) for ev in firsts), default=0)
    lines = []
    for ev in firsts + seconds:
        seat, place, pts, stones, tallest = int(ev[1]), int(ev[4]), int(ev[5]), int(ev[6]), int(ev[7])
        note = ""
        if place == 1 and len(firsts) > 1:
            note = " (shared first)"
        elif place == 2 and stones == top_stones:
            note = " (tied on stones, lower tallest house)"
        elif place == 2 and len(seconds) > 1:
            note = " (shared second)"
        word = "first" if place == 1 else "second"
        lines.append(f"      seat {seat + 1} {word}: {stones} stone{'s' if stones != 1 else ''}, tallest {tallest}, "
                     f"{pts} point{'s' if pts != 1 else ''}{note}")
    return lines


def trace_text(game, state: np.ndarray, log=None, seeds=None, strategies=(), summary: bool = False) -> str:
    n = game.n_players
    lines = [f"{game.id}  rules v{game.version}"]
    if seeds is not None:
        lines.append(f"chance seed {seeds.chance}, strategy seed {seeds.strategy}")
    first = int(_f(state, "first_consul")[0])
    for seat in range(n):
        who = strategies[seat] if seat < len(strategies) else "?"
        lines.append(f"  seat {seat + 1}: {who}{'  (first consul)' if seat == first else ''}")
    lines += LEGEND
    if seeds is not None:
        lines += ["", "== Setup =="] + _setup_lines(game, game.new_state(seeds))
    if not summary and log is not None:
        evs = events(log)
        if len(evs) and int(evs[0][0]) != EV_ROUND:  # the deal ran round 1's start before the log existed
            lines.append(f"\n== Round 1 (consul: seat {first + 1}) ==\n-- build phase --")
        in_draws = False
        scored: list = []  # the EV_SCORE events of the prefecture being scored
        drawn: list = []  # the EV_DRAW events of the seat drawing
        for ev in evs:
            code = int(ev[0])
            if code == EV_SCORE:
                scored.append(ev)
                continue
            if scored:
                lines += _placings(scored)
                scored = []
            if code == EV_DRAW and drawn and int(drawn[0][1]) != int(ev[1]):
                lines.append(_draws(drawn))
                drawn = []
            if code == EV_DRAW:
                if not in_draws:
                    lines.append("-- draw phase --")
                    in_draws = True
                drawn.append(ev)
                continue
            if drawn:
                lines.append(_draws(drawn))
                drawn = []
            if code in (EV_DRAW, EV_BONUS, EV_DRAW_STOP) and not in_draws:
                lines.append("-- draw phase --")
                in_draws = True
            elif code == EV_ROUND:
                in_draws = False
            text = _describe(game, ev)
            if text is not None:
                lines.append(text)
        lines += _placings(scored)
        if drawn:
            lines.append(_draws(drawn))
    lines += ["", "== Final scoring =="]
    sheet = game.score_sheet(state)
    names = [k for k in sheet if k != "rank"]
    # 6 columns: 78 wide; the item_points lever (CAP-VAR-1) adds a seventh
    lines.append("seat  " + "  ".join(f"{k:>10}" for k in names) + "  rank")
    for seat in range(n):
        lines.append(f"{seat + 1:>4}  " + "  ".join(f"{int(sheet[k][seat]):>10}" for k in names)
                     + f"  {int(sheet['rank'][seat]):>4}")
    return "\n".join(_wrapped(lines)) + "\n"


def _wrapped(lines: list[str], width: int = 80) -> list[str]:
    """Lines longer than ``width`` broken after a comma or semicolon (a card name stays whole),
    continued with a deeper indent."""
    out = []
    for text in "\n".join(lines).split("\n"):
        if len(text) <= width:
            out.append(text)
            continue
        indent = " " * (len(text) - len(text.lstrip()) + 4)
        line = ""
        for piece in re.split(r"(?<=[,;:]) ", text):
            if line and len(line) + 1 + len(piece) > width:
                out.append(line)
                line = indent + piece
            else:
                line = f"{line} {piece}" if line else piece
        out.append(line)
    return out


def trace_json(game, state: np.ndarray, log=None, seeds=None, strategies=()) -> dict:
    evs = [] if log is None else events(log)
    return {
        "game": game.id,
        "rules_version": game.version,
        "seeds": None if seeds is None else {"chance": seeds.chance, "strategy": seeds.strategy},
        "strategies": list(strategies),
        "board": [{"name": p.name, "colour": COLOUR_NAMES[p.colour], "small": p.small, "large": p.large,
                   "fountains": p.fountains} for p in game.board.prefectures],
        "setup": None if seeds is None else {"hands": [_hand(game.new_state(seeds), s) for s in range(game.n_players)]},
        "events": [{"event": EVENT_NAMES.get(int(ev[0]), str(int(ev[0]))), "seat": int(ev[1]),
                    "values": [int(x) for x in ev[2:]]} for ev in evs],
        "score_sheet": {k: v.tolist() for k, v in game.score_sheet(state).items()},
    }
