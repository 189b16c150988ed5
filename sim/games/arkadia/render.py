"""Readable traces of Arkadia games from the event log (``events.py``): the setup, then turn by
turn the grid in ASCII with the castle and the seats beside it, and what happened; the final
cashing and the score sheet. Every line fits 80 columns. Seats count from 1 in the text, as people
count them; JSON keeps the 0-based indices.

Only the final state is given, so the trace replays the events onto an empty grid (``Replay``).
The setup's events come from dealing again from the chance seed into a log of its own, since a
played game is dealt before its log exists; without seeds the trace starts from the castle site.
"""

from dataclasses import dataclass, field

import numpy as np
from bgsim.sim.event_log import new_log
from bgsim.sim.games.arkadia.components import FAMILIES, SHAPES
from bgsim.sim.games.arkadia.events import (
    EV_ACTION_B,
    EV_BANNER,
    EV_BUILD,
    EV_BUILDING_GOLD,
    EV_CASH,
    EV_COMPLETE,
    EV_DISPLAY,
    EV_DONE,
    EV_END,
    EV_FINAL,
    EV_FINAL_ROUND,
    EV_HAND,
    EV_KEEP_BANNER,
    EV_LAYOUT,
    EV_LEVEL,
    EV_NO_STONE,
    EV_PAYOUT,
    EV_SITE,
    EV_SKIP,
    EV_STONE,
    EV_TAKE,
    EV_TENTS,
    EV_TRIGGER,
    EV_TURN,
    EV_WORKER,
    EVENT_NAMES,
    events,
)
from bgsim.sim.games.arkadia.state import (
    BUILDING,
    CASTLE_TARGET,
    COMPLETED,
    FREE,
    MAX_CELLS,
    N_FIELDS,
    NEUTRAL,
    SITE,
    SITE_CELLS,
    STATE,
    STATE_SIZE,
    T_CARD,
    T_COLS,
    T_FIELD_PRINT,
    T_PLACE_CELLS,
    T_ROWS,
    T_SITE_CELLS,
    T_SITE_FIELD,
    T_TENT,
    UNDER_CONSTRUCTION,
    WORKER,
)

__all__ = ["Replay", "board_lines", "card_name", "replay", "trace_json", "trace_text"]

SHAPE_LETTERS = "RFTMSHK"  # residence, farm, tavern, mill, smithy, trade centre (Handelskontor), monastery (Kloster)
COLOUR_LETTERS = "yogvn"  # yellow, orange, green, violet seats; n neutral
FAMILY_ABBR = ("cl", "sp", "ca", "si")  # cloth, spice, carpenter, silversmith
PANEL_AT = 40  # the column where the panel beside the grid begins
LEGEND = ("grid:   R F T M S H K a building under construction (residence, farm, tavern,",
          "        mill, smithy, trade centre, monastery), lower case once completed;",
          "        y o g v a seat's worker, n a neutral one; # the castle site; ^ a tent",
          "castle: a field's stones and the family on top (Cl Sp Ca Si); an empty field",
          "        shows its printed seal (cl sp ca si, -- blank); .. the courtyard",
          "seats:  own and neutral workers behind the screen, seals, banners, gold",
          "cells:  (row,col); a building at the top-left corner of its bounding box")  # <= 80 columns


def _f(state, name):
    return STATE.view(state, name)


def _s(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


# --- the grid


def board_lines(game, state: np.ndarray) -> list[str]:
    """The grid, one text row per board row: ``R`` a building of shape R (``r`` once completed), a
    worker by colour (``y o g v``, ``n`` neutral), ``#`` the castle site, ``^`` an uncovered tent.
    Reads only the cells and the buildings' placements and states, so a replayed state draws too."""
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
                letter = SHAPE_LETTERS[_shape(game, int(placement[b]))]
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


def _shape(game, placement: int) -> int:
    return int(np.searchsorted(game.place_first, placement, side="right") - 1)


def _cells(game, placement: int) -> list[int]:
    cells = game.table[T_PLACE_CELLS + 6 * placement: T_PLACE_CELLS + 6 * placement + 6]
    return [int(c) for c in cells if c >= 0]


def _at(game, cell: int) -> str:
    cols = int(game.table[T_COLS])
    return f"({cell // cols},{cell % cols})"


def _corner(game, cells: list[int]) -> str:
    """The top-left corner of the cells' bounding box, as (row,col)."""
    cols = int(game.table[T_COLS])
    return f"({min(c // cols for c in cells)},{min(c % cols for c in cells)})"


def card_name(game, card: int) -> str:
    """'mill/spice': the card's shape and family."""
    t = game.table
    return f"{SHAPES[int(t[T_CARD + 2 * card])]}/{FAMILIES[int(t[T_CARD + 2 * card + 1])]}"


# --- the replay


@dataclass
class Replay:
    """What the events say so far: the grid in a state array ((STATE_SIZE,) int32, only its cells
    and buildings filled: enough for ``board_lines``), the castle and each seat's screen.

    heights, tops: (N_FIELDS,) int64, stones and the top stone's family (-1 none) per field;
    own, neutral, banners, gold: (P,) int64; seals: (P, 4) int64."""

    game: object
    n: int
    grid: np.ndarray = field(init=False)
    heights: np.ndarray = field(init=False)
    tops: np.ndarray = field(init=False)
    level: int = 1
    site: int = -1
    names: dict = field(default_factory=dict)  # building -> "mill/spice"

    def __post_init__(self):
        self.grid = np.zeros(STATE_SIZE, dtype=np.int32)
        _f(self.grid, "cell_who")[:] = -1
        self.heights = np.zeros(N_FIELDS, dtype=np.int64)
        self.tops = np.full(N_FIELDS, -1, dtype=np.int64)
        self.own = np.zeros(self.n, dtype=np.int64)
        self.neutral = np.zeros(self.n, dtype=np.int64)
        self.banners = np.zeros(self.n, dtype=np.int64)
        self.gold = np.zeros(self.n, dtype=np.int64)
        self.seals = np.zeros((self.n, len(FAMILIES)), dtype=np.int64)

    def screens_from(self, dealt: np.ndarray) -> None:
        """The screens and banners of the dealt state ((STATE_SIZE,) int32): the setup's, no event."""
        self.own[:] = _f(dealt, "own_screen")[: self.n]
        self.neutral[:] = _f(dealt, "neutral_screen")[: self.n]
        self.banners[:] = _f(dealt, "banners")[: self.n]

    def apply(self, ev) -> None:
        code, seat = int(ev[0]), int(ev[1])
        a, b, c, d, e, f, g = (int(x) for x in ev[2:9])
        if code == EV_SITE:
            self._lay_site(a)
        elif code == EV_LAYOUT:
            self._build(a, e, c, d)
        elif code == EV_BUILD:
            self._build(e, d, b, c)
            self.neutral[seat] += g
        elif code == EV_TENTS:
            self.neutral[seat] += b
        elif code == EV_WORKER:
            _f(self.grid, "cell_kind")[a] = WORKER
            _f(self.grid, "cell_who")[a] = b
            (self.neutral if b == NEUTRAL else self.own)[seat] -= 1
        elif code == EV_COMPLETE:
            _f(self.grid, "b_state")[a] = COMPLETED
        elif code == EV_PAYOUT:
            self.seals[seat, b] += c
        elif code == EV_STONE:
            self.heights[b], self.tops[b] = c, a
        elif code == EV_LEVEL:
            self.level = b
        elif code == EV_BANNER:
            self.banners[seat], self.own[seat] = a, b
        elif code == EV_CASH:
            self.seals[seat, a] -= b
            self.gold[seat] += c
        elif code == EV_BUILDING_GOLD:
            self.gold[seat] += c
        elif code == EV_FINAL:
            self.seals[seat] -= (a, b, c, d)
            self.gold[seat] += e

    def _lay_site(self, site: int) -> None:
        self.site = site
        t = self.game.table
        for i in range(SITE_CELLS):
            _f(self.grid, "cell_kind")[int(t[T_SITE_CELLS + site * SITE_CELLS + i])] = SITE

    def _build(self, b: int, placement: int, shape: int, family: int) -> None:
        for cell in _cells(self.game, placement):
            _f(self.grid, "cell_kind")[cell] = BUILDING
            _f(self.grid, "cell_who")[cell] = b
        _f(self.grid, "b_placement")[b] = placement
        _f(self.grid, "b_state")[b] = UNDER_CONSTRUCTION
        self.names[b] = f"{SHAPES[shape]}/{FAMILIES[family]}"

    def seal_values(self) -> list[int]:
        """ARK-CASTLE-7: per family, the fields showing it (a top stone, else the printed seal)."""
        printed = self.game.table[T_FIELD_PRINT: T_FIELD_PRINT + N_FIELDS]
        shown = [int(self.tops[f]) if self.heights[f] else int(printed[f]) for f in range(N_FIELDS)]
        return [shown.count(fam) for fam in range(len(FAMILIES))]

    def castle_rows(self) -> list[str]:
        """The castle site as it lies, one text row per board row of it: 3 characters a field."""
        if self.site < 0:
            return ["(no castle site yet)"]
        t, cols = self.game.table, int(self.game.table[T_COLS])
        printed = t[T_FIELD_PRINT: T_FIELD_PRINT + N_FIELDS]
        rows: dict[int, list[str]] = {}
        for i in range(SITE_CELLS):
            cell = int(t[T_SITE_CELLS + self.site * SITE_CELLS + i])
            fld = int(t[T_SITE_FIELD + self.site * SITE_CELLS + i])
            if fld < 0:
                text = " .."
            elif self.heights[fld]:
                text = f"{int(self.heights[fld])}{FAMILY_ABBR[int(self.tops[fld])].capitalize()}"
            else:
                text = f" {FAMILY_ABBR[int(printed[fld])]}" if printed[fld] >= 0 else " --"
            rows.setdefault(cell // cols, []).append(text)
        return [" ".join(row) for _, row in sorted(rows.items())]

    def panel(self) -> list[str]:
        """The lines beside the grid: the castle, the seal values and the seats."""
        lines = [f"castle: level {self.level}, {_s(int(self.heights.sum()), 'stone')}"]
        lines += ["  " + row for row in self.castle_rows()]
        lines.append("values " + " ".join(f"{a} {v}" for a, v in zip(FAMILY_ABBR, self.seal_values(), strict=True)))
        lines.append("seat   own neu  cl sp ca si  ban gold")
        for seat in range(self.n):
            seals = " ".join(f"{int(x):>2}" for x in self.seals[seat])
            lines.append(f"{seat + 1} {COLOUR_LETTERS[seat]}   {int(self.own[seat]):>3} {int(self.neutral[seat]):>3}  "
                         f"{seals}  {int(self.banners[seat]):>3} {int(self.gold[seat]):>4}")
        return lines

    def picture(self) -> list[str]:
        """The grid with the panel beside it."""
        grid, panel = board_lines(self.game, self.grid), self.panel()
        height = max(len(grid), len(panel))
        grid += [""] * (height - len(grid))
        panel += [""] * (height - len(panel))
        return [f"{g:<{PANEL_AT}}{p}".rstrip() for g, p in zip(grid, panel, strict=True)]


def setup_events(game, seeds) -> np.ndarray:
    """The setup's events, (n, EVENT_WIDTH) int32: the game dealt again from the chance seed."""
    log = new_log(game.event_capacity, game.event_width)
    game.kernels.deal_into(np.empty(STATE_SIZE, dtype=np.int32), *game.deal_args, np.uint64(seeds.chance), log)
    return events(log).copy()


def all_events(game, state, log, seeds) -> np.ndarray:
    """The setup's events, then the log's. Without seeds the setup is what the final state tells:
    the castle site (unless a seat chose it) and the first turn's start."""
    played = np.zeros((0, game.event_width), dtype=np.int32) if log is None else events(log)
    if seeds is not None:
        return np.concatenate([setup_events(game, seeds), played])
    head = np.zeros((2, game.event_width), dtype=np.int32)
    site, first = int(_f(state, "site")[0]), int(_f(state, "start_seat")[0])
    head[0, :3] = (EV_SITE, -1, site)
    head[1, :4] = (EV_TURN, first, 0, first)
    chosen = site < 0 or any(int(ev[0]) == EV_SITE for ev in played)
    return np.concatenate([head[1:] if chosen else head, played])


def replay(game, state: np.ndarray, log, seeds) -> Replay:
    """The replay of every event of a played game (see ``Replay``)."""
    rep = Replay(game, game.n_players)
    if seeds is not None:
        rep.screens_from(game.new_state(seeds))
    for ev in all_events(game, state, log, seeds):
        rep.apply(ev)
    return rep


# --- what happened, in words


def _line(game, rep: Replay, ev) -> str | None:
    """One line for one event (after ``rep`` applied it), or None for an event told elsewhere."""
    code, seat = int(ev[0]), int(ev[1])
    a, b, c, d, e, f, g = (int(x) for x in ev[2:9])
    who = f"seat {seat + 1}"
    if code == EV_SITE:
        return _site_line(game, a, seat)
    if code == EV_LAYOUT:
        return f"layout: building {a}, {SHAPES[c]}/{FAMILIES[d]}, at {_corner(game, _cells(game, e))}"
    if code == EV_HAND:
        return f"{who} is dealt " + ", ".join(card_name(game, x) for x in (a, b, c, d) if x >= 0)
    if code == EV_DISPLAY:
        return None if b < 0 else f"display {a + 1}: {card_name(game, b)}"
    if code == EV_BUILD:
        tents = f"; {_s(f, 'tent')}: takes {_s(g, 'neutral worker')}" if f else ""
        return f"{who} builds {SHAPES[b]}/{FAMILIES[c]} at {_corner(game, _cells(game, d))}, building {e}{tents}"
    if code == EV_BUILDING_GOLD:  # only under the building_points lever
        return f"{who} scores {c} gold at once for building {a}, a {SHAPES[b]} (ARK-VAR-1)"
    if code == EV_TENTS:
        return f"{who} takes {_s(b, 'neutral worker')} for {_s(a, 'tent')}"
    if code == EV_SKIP:
        return f"{who} has no legal action: part 1 skipped (AMB-1)"
    if code == EV_STONE:
        return f"{who} puts a {FAMILIES[a]} stone on field {b} (level {c})"
    if code == EV_LEVEL:
        return f"castle level {a} is full: level {b} opens" + ("" if b <= 2 else " (ARK-CASTLE-5)")
    if code == EV_NO_STONE:
        return f"{who} owes {_s(a, 'castle stone')}, none left to place (AMB-9)"
    if code == EV_TAKE:
        return f"{who} takes {card_name(game, b)} from the deck"
    if code == EV_BANNER:
        return f"{who} raises a banner ({a} left): 2 workers behind the screen"
    if code == EV_KEEP_BANNER:
        return f"{who} raises no banner ({a} left)"
    if code == EV_CASH:
        if b == 0:
            return f"{who} cashes no {FAMILIES[a]} seal: keeps {int(rep.seals[seat, a])} at {d}"
        return f"{who} cashes {_s(b, FAMILIES[a] + ' seal')} at {d}: {c} gold"
    if code == EV_TRIGGER:
        why = "level 2 of the castle is full" if a == 0 else "the deck is empty"
        return f"the end is triggered: {why} (ARK-END-1)"
    if code == EV_FINAL_ROUND:
        return f"final round: every seat plays once more, seat {b + 1} last (ARK-END-2)"
    if code == EV_END:
        return None
    return f"{EVENT_NAMES.get(code, code)} {who} {a} {b} {c} {d} {e} {f} {g}"


def _site_line(game, site: int, seat: int) -> str:
    t, cols = game.table, int(game.table[T_COLS])
    cells = [int(t[T_SITE_CELLS + site * SITE_CELLS + i]) for i in range(SITE_CELLS)]
    tall = len({c // cols for c in cells}) == 4
    by = "drawn" if seat < 0 else f"chosen by seat {seat + 1}"
    return f"castle site at {_corner(game, cells)}, {'tall' if tall else 'wide'} ({by})"


def _workers_line(game, rep: Replay, start, placed) -> str:
    """Action B in one line: the building, each worker, own or neutral, and the seat's DONE."""
    b = int(start[2])
    done = "; done" if placed and int(placed[-1][0]) == EV_DONE else ""
    workers = [ev for ev in placed if int(ev[0]) == EV_WORKER]
    parts = [f"{'neutral' if int(ev[3]) == NEUTRAL else 'own'} {_at(game, int(ev[2]))}" for ev in workers]
    target = "the castle site" if b == CASTLE_TARGET else f"building {b} ({rep.names.get(b, '?')})"
    return f"seat {int(start[1]) + 1} places workers by {target}: " + (", ".join(parts) if parts else "none") + done


def _take_line(game, take, refill) -> str:
    """A card taken from the display, and the card laid in its place."""
    new = int(refill[0][3]) if len(refill) else -1
    after = f", refilled with {card_name(game, new)}" if new >= 0 else ", left empty"
    return f"seat {int(take[1]) + 1} takes {card_name(game, int(take[3]))} from display {int(take[2]) + 1}{after}"


def _completion_line(rep: Replay, done, paid) -> str:
    b = int(done[2])
    pays = ", ".join(f"seat {int(ev[1]) + 1} {_s(int(ev[4]), 'seal')}" for ev in paid)
    return f"building {b} ({rep.names.get(b, '?')}) completed: {pays or 'no payout'}"


def _words(game, rep: Replay, evs) -> list[str]:
    """The lines for a run of events, replaying them into ``rep``; action B's workers and a
    completion's payouts are folded into one line each."""
    lines, i = [], 0
    while i < len(evs):
        ev = evs[i]
        rep.apply(ev)
        code, j = int(ev[0]), i + 1
        folded = {EV_ACTION_B: EV_WORKER, EV_COMPLETE: EV_PAYOUT, EV_TAKE: EV_DISPLAY}.get(code)
        if code == EV_TAKE and int(ev[2]) < 0:
            folded = None  # from the deck: no display place to refill
        if folded is not None:
            while j < len(evs) and int(evs[j][0]) == folded:
                rep.apply(evs[j])
                j += 1
            if code == EV_ACTION_B and j < len(evs) and int(evs[j][0]) == EV_DONE:
                j += 1  # the seat's DONE ends the line
            inner = evs[i + 1: j]
            lines.append(_workers_line(game, rep, ev, inner) if code == EV_ACTION_B
                         else _take_line(game, ev, inner) if code == EV_TAKE else _completion_line(rep, ev, inner))
        else:
            text = _line(game, rep, ev)
            if text is not None:
                lines.append(text)
        if code == EV_STONE and (j >= len(evs) or int(evs[j][0]) not in (EV_STONE, EV_LEVEL, EV_TRIGGER)):
            lines.append("seal values now " + ", ".join(
                f"{name} {v}" for name, v in zip(FAMILIES, rep.seal_values(), strict=True)))
        i = j
    return lines


def _split(evs) -> tuple[list, list, list]:
    """The events before the first turn, each turn's (its EV_TURN first), and the end's."""
    setup, turns, end = [], [], []
    for ev in evs:
        code = int(ev[0])
        if code in (EV_FINAL, EV_END) or end:
            end.append(ev)
        elif code == EV_TURN:
            turns.append([ev])
        elif turns:
            turns[-1].append(ev)
        else:
            setup.append(ev)
    return setup, turns, end


_TRIGGERS = ("level 2 filled", "the deck ran out")  # EV_TRIGGER's reasons


def _final_lines(game, rep: Replay, end, trigger: int) -> list[str]:
    """The final cashing and the end; ``trigger`` the EV_TRIGGER reason of the game, -1 none."""
    lines = []
    for ev in end:
        rep.apply(ev)
        code, seat = int(ev[0]), int(ev[1])
        if code == EV_FINAL:
            seals = ", ".join(f"{int(ev[2 + k])} {FAMILY_ABBR[k]}" for k in range(len(FAMILIES)))
            lines.append(f"seat {seat + 1} cashes {seals}: {int(ev[6])} gold, {int(ev[7])} in all")
        elif code == EV_END:
            reason = int(ev[2])
            if reason == 0:
                why = "the final round is played (ARK-END-3)"
            elif reason == 1:
                why = "nobody can change anything any more (AMB-5)"
            else:  # the stall safeguard inside the final round: the trigger's end, played out at once
                after = _TRIGGERS[trigger] if 0 <= trigger < len(_TRIGGERS) else "the trigger"
                why = (f"the final round after {after} ends early: its other turns could change nothing "
                       "(ARK-END-2, AMB-5)")
            lines.append(f"the game ends: {why}")
    return lines


def _trigger(evs) -> int:
    """The reason of the game's EV_TRIGGER (0 level 2 full, 1 the deck empty), -1 without one."""
    return next((int(ev[2]) for ev in evs if int(ev[0]) == EV_TRIGGER), -1)


def _header(game, state, seeds, strategies) -> list[str]:
    lines = [f"{game.id}  rules v{game.version}"]
    if seeds is not None:
        lines.append(f"chance seed {seeds.chance}, strategy seed {seeds.strategy}")
    first = int(_f(state, "start_seat")[0])
    for seat in range(game.n_players):
        who = strategies[seat] if seat < len(strategies) else "?"
        lines.append(f"  seat {seat + 1} ({COLOUR_LETTERS[seat]}): {who}{'  (start player)' if seat == first else ''}")
    return lines


def _score_lines(game, state) -> list[str]:
    sheet = game.score_sheet(state)
    names = [k for k in sheet if k != "rank"]
    width = {k: max(8, len(k)) for k in names}  # "buildings" (ARK-VAR-1) is one wider than the rest
    lines = ["seat  " + "  ".join(f"{k:>{width[k]}}" for k in names) + "  rank"]
    for seat in range(game.n_players):
        lines.append(f"{seat + 1:>4}  " + "  ".join(f"{int(sheet[k][seat]):>{width[k]}}" for k in names)
                     + f"  {int(sheet['rank'][seat]):>4}")
    return lines


def _turn_title(ev) -> str:
    return f"== Turn {int(ev[2]) + 1}: seat {int(ev[3]) + 1} ({COLOUR_LETTERS[int(ev[3])]}) =="


def trace_text(game, state: np.ndarray, log=None, seeds=None, strategies=(), summary: bool = False) -> str:
    """The trace: the header, the setup, every turn (its title, the grid and panel after it, what
    happened), the final cashing and the score sheet; ``summary`` leaves out the turns."""
    lines = _header(game, state, seeds, strategies) + list(LEGEND)
    rep = Replay(game, game.n_players)
    if seeds is not None:
        rep.screens_from(game.new_state(seeds))
    evs = all_events(game, state, log, seeds)
    setup, turns, end = _split(evs)
    lines += ["", "== Setup =="] + _words(game, rep, setup)
    if summary:
        for ev in [e for turn in turns for e in turn]:
            rep.apply(ev)
    else:
        lines += rep.picture()
        for turn in turns:
            happened = _words(game, rep, turn[1:])
            lines += ["", _turn_title(turn[0]), *rep.picture(), *happened]
    lines += ["", "== Final cashing =="] + _final_lines(game, rep, end, _trigger(evs))
    if summary:
        lines += rep.picture()
    lines += ["", "== Final scoring =="] + _score_lines(game, state)
    return "\n".join(_fitted(lines)) + "\n"


def _fitted(lines: list[str], width: int = 80) -> list[str]:
    """Lines longer than ``width`` broken after a comma, colon or semicolon, continued indented."""
    out = []
    for text in "\n".join(lines).split("\n"):
        while len(text) > width:
            cut = max(text.rfind(sep, 0, width) for sep in (", ", ": ", "; "))
            if cut <= 0:
                break
            out.append(text[: cut + 1])
            text = "    " + text[cut + 2:]
        out.append(text)
    return out


def _json_text(lines: list[str]) -> list[str]:
    """The lines fitted so that the JSON, indented and quoted, stays within 80 columns too."""
    return _fitted(lines, width=72)


def _event_json(ev) -> dict:
    return {"event": EVENT_NAMES.get(int(ev[0]), str(int(ev[0]))), "seat": int(ev[1]),
            "values": [int(x) for x in ev[2:]]}


def _state_json(rep: Replay) -> dict:
    return {"board": board_lines(rep.game, rep.grid), "castle_level": rep.level,
            "field_heights": rep.heights.tolist(), "field_tops": rep.tops.tolist(),
            "seal_values": dict(zip(FAMILIES, rep.seal_values(), strict=True)),
            "seats": [{"own_workers": int(rep.own[s]), "neutral_workers": int(rep.neutral[s]),
                       "seals": dict(zip(FAMILIES, rep.seals[s].tolist(), strict=True)),
                       "banners": int(rep.banners[s]), "gold": int(rep.gold[s])} for s in range(rep.n)]}


def trace_json(game, state: np.ndarray, log=None, seeds=None, strategies=()) -> dict:
    """The trace as data: every event (setup included), then the same by part: the setup, each turn
    with the position after it, the end; the score sheet. Values as in ``events.py``, 0-based seats."""
    rep = Replay(game, game.n_players)
    if seeds is not None:
        rep.screens_from(game.new_state(seeds))
    evs = all_events(game, state, log, seeds)
    setup, turns, end = _split(evs)
    doc_setup = {"events": [_event_json(ev) for ev in setup], "text": _json_text(_words(game, rep, setup)),
                 "position": _state_json(rep)}
    doc_turns = []
    for turn in turns:
        text = _json_text(_words(game, rep, turn[1:]))
        doc_turns.append({"turn": int(turn[0][2]), "seat": int(turn[0][3]), "text": text,
                          "events": [_event_json(ev) for ev in turn[1:]], "position": _state_json(rep)})
    text = _json_text(_final_lines(game, rep, end, _trigger(evs)))
    sheet = game.score_sheet(state)
    return {"game": game.id, "rules_version": game.version,
            "seeds": None if seeds is None else {"chance": seeds.chance, "strategy": seeds.strategy},
            "strategies": list(strategies), "families": list(FAMILIES), "shapes": list(SHAPES),
            "events": [_event_json(ev) for ev in evs], "setup": doc_setup, "turns": doc_turns,
            "end": {"events": [_event_json(ev) for ev in end], "text": text, "position": _state_json(rep)},
            "score_sheet": {k: [int(v) for v in vals] for k, vals in sheet.items()}}
