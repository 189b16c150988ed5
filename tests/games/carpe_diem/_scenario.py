"""Shared arrange/act helpers for the rule-scenario tests (test_rules_*.py).

Builds on ``helpers.py``: districts are arranged with ``preset`` (no rewards), the action under
test always goes through ``g.apply(..., validate=True)``.
"""

import numpy as np
from bgsim.sim import game_seeds
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem import decisions as D
from bgsim.sim.games.carpe_diem.events import EVENT_NAMES, events
from bgsim.sim.games.carpe_diem.kernels.setup import DISC_SLOT_A, DISC_SLOT_B

from tests.games.carpe_diem.helpers import (
    card_id,
    decide,
    field,
    find_tile,
    fountain_id,
    preset,
    rotation,
    rows,
)

EV = {name: code for code, name in EVENT_NAMES.items()}
SPACE_H20 = 4  # disc space H(2,0): live for every player count
LAST = 29  # banner track last position (track.toml)


def cell_of(r: int, c: int) -> int:
    return r * K.SIDE + c


def rc(cell: int) -> tuple[int, int]:
    return divmod(int(cell), K.SIDE)


def feature_rows(g, s) -> list[tuple[dict, dict]]:
    tab = g.decision(s)
    return [
        (dict(zip(g.action_fields, map(int, a), strict=True)), dict(zip(g.feature_names, map(int, f), strict=True)))
        for a, f in zip(tab.actions, tab.features, strict=True)
    ]


def placements(g, s, tile: int | None = None) -> set[tuple[int, int]]:
    """(cell, rotation) of every placement row (of ``tile`` if given); STORE rows excluded."""
    return {(r["cell"], r["rotation"]) for r in rows(g, s) if r["cell"] >= 0 and (tile is None or r["tile"] == tile)}


def cells(g, s, tile: int | None = None) -> set[int]:
    return {c for c, _ in placements(g, s, tile)}


def store_rows(g, s, tile: int | None = None) -> list[dict]:
    return [r for r in rows(g, s) if r["tile"] >= 0 and r["cell"] < 0 and (tile is None or r["tile"] == tile)]


def ev(log, name: str) -> list[list[int]]:
    """Events of one kind: [seat, values...] per event."""
    return [row[1:].tolist() for row in events(log) if row[0] == EV[name]]


def ev_names(log) -> list[str]:
    return [EVENT_NAMES[int(code)] for code in events(log)[:, 0]]


class District:
    """Arranges one seat's district tile by tile (``preset``: no rewards, no banner steps).

    ``put`` takes a part list as for ``find_tile`` and the direction(s) one of its parts should
    open to; every tile is used at most once per arrangement.
    """

    def __init__(self, g, s, seat: int = 0, banners: bool = False):
        self.g, self.s, self.seat = g, s, seat
        self.used: set[int] = set()
        for q in range(g.n_players):
            self.used |= {int(t) for t in field(g, s, "cell_tile")[q] if t >= 0}
        if not banners:
            field(g, s, "banner_left")[seat] = 0

    def tile(self, parts, dark=None, chimneys=None) -> int:
        t = find_tile(self.g, parts, dark=dark, chimneys=chimneys, exclude=tuple(self.used))
        self.used.add(t)
        return t

    def rot(self, tile, part_type=None, letters=None) -> int:
        return 0 if part_type is None else rotation(self.g, tile, part_type, letters)

    def put(self, at: tuple[int, int], parts, part_type=None, letters=None, dark=None, chimneys=None) -> int:
        t = self.tile(parts, dark=dark, chimneys=chimneys)
        preset(self.g, self.s, self.seat, t, cell_of(*at), self.rot(t, part_type, letters))
        return t

    def meadow(self, at: tuple[int, int], building: str = "market") -> int:
        """A small building (meadow on every edge)."""
        return self.put(at, [(building, "")])

    def sync_taken(self):
        """Tiles built by arrangement count as taken (so the next take is not the first)."""
        field(self.g, self.s, "taken")[self.seat] = max(1, int(field(self.g, self.s, "built")[self.seat]))


def arrange_turn(g, s, seat: int, depots: dict, patrician: int, bread: int = 0, turn_no: int = 0):
    """A TURN for ``seat`` with the given depots (space -> tile list; all others empty)."""
    depot = field(g, s, "depot")
    depot[:] = -1
    for space, tiles in depots.items():
        for j, t in enumerate(tiles):
            depot[space, j] = t
    field(g, s, "depot_takes")[:] = 0
    field(g, s, "patrician")[seat] = patrician
    field(g, s, "bread")[seat] = bread
    field(g, s, "phase")[0] = D.TURN
    field(g, s, "seat")[0] = seat
    field(g, s, "turn_no")[0] = turn_no
    field(g, s, "pass_start")[0] = (seat - turn_no) % g.n_players


def light_tiles(g, n: int, exclude=()) -> list[int]:
    """``n`` light tiles without a fountain (no decision on building): one-part markets, then
    bakeries (they fit beside any meadow edge), then the rest."""
    light = [i for i, t in enumerate(g.components.tiles)
             if not t.dark and i not in exclude and all(p.type != K.FOUNTAIN for p in t.parts)]
    small = [i for kind in (K.MARKET, K.BAKERY) for i in light
             if len(g.components.tiles[i].parts) == 1 and g.components.tiles[i].parts[0].type == kind]
    return (small + [i for i in light if i not in small])[:n]


def arrange_last_scorer(g, s, seat: int, card_a: str, card_b: str, pass_no: int, space: int = SPACE_H20):
    """The DISC decision of the last scorer of pass ``pass_no``; ``space`` joins the two cards."""
    slots = field(g, s, "slot_card")
    slots[DISC_SLOT_A[space]] = card_id(g, card_a)
    slots[DISC_SLOT_B[space]] = card_id(g, card_b)
    field(g, s, "disc_live")[space] = 1
    field(g, s, "disc")[space] = -1
    order = field(g, s, "score_order")
    order[:] = -1
    others = [q for q in range(g.n_players) if q != seat]
    for j, q in enumerate(others + [seat]):
        order[j] = q
    field(g, s, "score_index")[0] = g.n_players - 1
    field(g, s, "score_bread_used")[0] = 0
    field(g, s, "pass_no")[0] = pass_no
    field(g, s, "turn_no")[0] = 7 * g.n_players
    field(g, s, "depot")[:] = -1
    field(g, s, "phase")[0] = D.DISC
    field(g, s, "seat")[0] = seat


def finish_game(g, s, seat: int = 0, card_a: str = "D21", card_b: str = "D22", log=None):
    """Arrange the last disc of pass 4 for ``seat`` and play it (bread 0 keeps it one decision)."""
    arrange_last_scorer(g, s, seat, card_a, card_b, 4)
    decide(g, s, log, space=SPACE_H20)
    while not g.is_over(s):  # any later choice (order, fulfilment): take the first row
        tab = g.decision(s)
        g.apply(s, tab.actions[0].copy(), log, validate=True)


def set_fountain_deck(g, s, top: list[str], held: dict | None = None):
    """Fountain deck with the named cards on top (first copies), ``held`` {seat: [names]} in hand;
    the remaining cards follow in index order."""
    used: set[int] = set()
    hand_ids = {}
    for seat, names in (held or {}).items():
        hand_ids[seat] = []
        for name in names:
            c = _copy(g, name, taken=used)
            used.add(c)
            hand_ids[seat].append(c)
    top_ids = []
    for name in top:
        c = _copy(g, name, taken=used)
        used.add(c)
        top_ids.append(c)
    rest = [c for c in range(K.N_FOUNTAIN_CARDS) if c not in used]
    deck = top_ids + rest
    arr = field(g, s, "fountain_deck")
    arr[:] = -1
    arr[: len(deck)] = deck
    field(g, s, "fdeck_head")[0] = 0
    field(g, s, "fdeck_count")[0] = len(deck)
    for seat, ids in hand_ids.items():
        field(g, s, "fountain_held")[seat] = -1
        field(g, s, "fountain_held")[seat, : len(ids)] = ids
        field(g, s, "fountain_n")[seat] = len(ids)
    return top_ids, hand_ids


def deck_bottom(g, s) -> int:
    head, count = int(field(g, s, "fdeck_head")[0]), int(field(g, s, "fdeck_count")[0])
    return int(field(g, s, "fountain_deck")[(head + count - 1) % K.N_FOUNTAIN_CARDS])


def play_random(g, seed: int, on_decision=None, strategy_rows=None):
    """A whole game with uniformly random legal rows, validated; returns (state, log).

    ``on_decision(s, table)`` sees every decision before it is taken.
    """
    rng = np.random.default_rng(seed)
    s = g.new_state(game_seeds(seed))
    log = g.new_log()
    while not g.is_over(s):
        tab = g.decision(s)
        if on_decision is not None:
            on_decision(s, tab)
        row = int(rng.integers(len(tab)))
        g.apply(s, tab.actions[row].copy(), log, validate=True)
    return s, log


def seal_tiles(g, s, tiles: dict):
    """Seal display: {seal space: tile}; every other seal space empty."""
    seal = field(g, s, "seal")
    seal[:] = -1
    for space, t in tiles.items():
        seal[space] = t


def _copy(g, name: str, taken: set) -> int:
    first = fountain_id(g, name)
    return first if first not in taken else first + 1


# --- an independent reading of the building rules, for comparison with the engine


def edge_codes(g, tile: int, rot: int) -> list[int]:
    """Edge code at N, E, S, W of ``tile`` turned ``rot`` quarter turns clockwise (CD-BUILD-4)."""
    codes = [K.MEADOW] * 4
    for part in g.components.tiles[tile].parts:
        for d in range(4):
            if part.open_mask >> d & 1:
                codes[(d + rot) % 4] = part.type
    return codes


def open_dirs(g, tile: int, rot: int, j: int) -> list[int]:
    part = g.components.tiles[tile].parts[j]
    return [(d + rot) % 4 for d in range(4) if part.open_mask >> d & 1]


_STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))


def neighbour(cell: int, d: int) -> int:
    r, c = divmod(cell, K.SIDE)
    r, c = r + _STEP[d][0], c + _STEP[d][1]
    return r * K.SIDE + c if 0 <= r < K.SIDE and 0 <= c < K.SIDE else -1


def features(g, grid: dict) -> list[dict]:
    """Connected features of a district ``grid`` {cell: (tile, rot)}: type, nodes, tiles, open, chimneys."""
    seen, out = set(), []
    for cell, (tile, _) in grid.items():
        for j, part in enumerate(g.components.tiles[tile].parts):
            if (cell, j) in seen:
                continue
            stack, nodes, open_edges, chim = [(cell, j)], [], 0, 0
            seen.add((cell, j))
            while stack:
                c, k = stack.pop()
                nodes.append((c, k))
                t, r = grid[c]
                chim += g.components.tiles[t].parts[k].chimneys
                for d in open_dirs(g, t, r, k):
                    n = neighbour(c, d)
                    if n not in grid:
                        open_edges += 1
                        continue
                    nt, nr = grid[n]
                    for q in range(len(g.components.tiles[nt].parts)):
                        if (d + 2) % 4 in open_dirs(g, nt, nr, q) and (n, q) not in seen:
                            seen.add((n, q))
                            stack.append((n, q))
            out.append({"type": part.type, "nodes": nodes, "tiles": len({c for c, _ in nodes}),
                        "open": open_edges, "chimneys": chim})
    return out


def legal_patterns(g, grid: dict, tile: int, max_landscape: int = 4) -> set:
    """(cell, N/E/S/W edge codes, open masks by part) of every legal placement of ``tile`` (CD-BUILD-2..6)."""
    out = set()
    feats = features(g, grid)
    size_of = {node: f["tiles"] for f in feats for node in f["nodes"]}
    root_of = {node: i for i, f in enumerate(feats) for node in f["nodes"]}
    for cell in range(K.N_CELLS):
        if cell in grid or not any(neighbour(cell, d) in grid for d in range(4)):
            continue
        for rot in range(4):
            codes = edge_codes(g, tile, rot)
            ok = True
            for d in range(4):
                n = neighbour(cell, d)
                if n < 0:
                    ok = ok and codes[d] == K.MEADOW
                elif n in grid:
                    ok = ok and edge_codes(g, *grid[n])[(d + 2) % 4] == codes[d]
            if not ok:
                continue
            for j, part in enumerate(g.components.tiles[tile].parts):
                if not K.LANDSCAPE_FIRST <= part.type <= K.LANDSCAPE_LAST:
                    continue
                joined = {}
                for d in open_dirs(g, tile, rot, j):
                    n = neighbour(cell, d)
                    if n in grid:
                        nt, nr = grid[n]
                        q = next(q for q in range(len(g.components.tiles[nt].parts))
                                 if (d + 2) % 4 in open_dirs(g, nt, nr, q))
                        joined[root_of[(n, q)]] = size_of[(n, q)]
                if max_landscape and 1 + sum(joined.values()) > max_landscape:
                    ok = False
            if ok:
                masks = tuple(sum(1 << d for d in open_dirs(g, tile, rot, j))
                              for j in range(len(g.components.tiles[tile].parts)))
                out.add((cell, tuple(codes), masks))
    return out


def grid_of(g, s, seat: int) -> dict:
    tiles, rots = field(g, s, "cell_tile")[seat], field(g, s, "cell_rot")[seat]
    return {c: (int(tiles[c]), int(rots[c])) for c in range(K.N_CELLS) if tiles[c] >= 0}
