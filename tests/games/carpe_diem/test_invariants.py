"""Properties of random legal play (Hypothesis): conservation, bounds and an independent
re-computation of every district's features from its tiles.

The default profile plays at least 500 games (2, 3 and 4 players, random and greedy seats).
"""

import os

import numpy as np
from bgsim.sim import game_seeds
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem.tables import TABLES
from bgsim.sim.seeding import strategy_streams
from bgsim.strategies import make_strategy
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.carpe_diem.helpers import field, game

# >= 500 games in the default (CI) profile; the quick profile is for a fast local loop
N_EXAMPLES = 30 if os.environ.get("HYPOTHESIS_PROFILE") == "quick" else 520


def tile_accounting(g, s) -> int:
    """Placed + stored + removed + still in play (depots, seals, undealt stocks)."""
    n = g.n_players
    placed = int(field(g, s, "built")[:n].sum())
    stored = int(field(g, s, "stored")[:n].sum())
    removed = int(field(g, s, "removed")[0])
    on_depots = int((field(g, s, "depot") >= 0).sum())
    on_seals = int((field(g, s, "seal") >= 0).sum())
    pass_no = int(field(g, s, "pass_no")[0])
    light_dealt = 28 * max(1, min(pass_no, 3))
    undealt = (K.N_LIGHT - light_dealt) + (28 if pass_no < 4 else 0)
    return placed + stored + removed + on_depots + on_seals + undealt


def check_step(g, s):
    n = g.n_players
    assert tile_accounting(g, s) == K.N_TILES
    for name in ("goods", "coins", "bread", "stored", "discs"):
        assert (field(g, s, name)[:n] >= 0).all(), name
    assert (field(g, s, "banner_pos")[:n] <= int(g.tables[TABLES.fields["track_last"].offset])).all()
    # running VP = start + net card VP + overflow VP (CD-REWARD-10, CD-CARD-6)
    vp = field(g, s, "vp")[:n]
    assert (vp == field(g, s, "vp_start")[:n] + field(g, s, "vp_cards")[:n] + field(g, s, "vp_overflow")[:n]).all()


def reference_features(g, s, seat):
    """Flood-fill the district's parts (independent of the engine's union-find).

    Returns counters like the engine's CD-FEATURE-7 counters, the villa VP of completed villas,
    the largest landscape, and a list of completed features (type, rows mask, cols mask)."""
    tiles = field(g, s, "cell_tile")[seat]
    rots = field(g, s, "cell_rot")[seat]
    comp = g.components

    def parts_at(cell):
        tile = int(tiles[cell])
        out = []
        for j, part in enumerate(comp.tiles[tile].parts):
            r = int(rots[cell])
            mask = ((part.open_mask << r) | (part.open_mask >> (4 - r))) & 0xF
            out.append((j, part.type, mask, part.chimneys))
        return out

    seen = set()
    counts = np.zeros(K.N_COUNTERS, dtype=np.int64)
    villa_vp = 0
    largest_landscape = 0
    completed = []
    villa_table = TABLES.view(g.tables, "villa_vp")
    for cell in range(K.N_CELLS):
        if tiles[cell] < 0:
            continue
        for j, ptype, _, chim in parts_at(cell):
            if ptype == K.VILLA:
                counts[K.C_CHIMNEYS] += chim
            if (cell, j) in seen:
                continue
            stack, members, open_edges, done = [(cell, j)], [], 0, True
            seen.add((cell, j))
            while stack:
                c, pj = stack.pop()
                members.append((c, pj))
                for jj, _, mask, _ in parts_at(c):
                    if jj != pj:
                        continue
                    for d in range(4):
                        if not mask >> d & 1:
                            continue
                        r, col = divmod(c, K.SIDE)
                        nr, nc = r + K.DR[d], col + K.DC[d]
                        if not (0 <= nr < K.SIDE and 0 <= nc < K.SIDE) or tiles[nr * K.SIDE + nc] < 0:
                            done = False
                            open_edges += 1
                            continue
                        nb = nr * K.SIDE + nc
                        match = [q for q, qt, qm, _ in parts_at(nb) if qm >> ((d + 2) % 4) & 1]
                        assert match and parts_at(nb)[match[0]][1] == ptype, "open edge facing another feature"
                        if (nb, match[0]) not in seen:
                            seen.add((nb, match[0]))
                            stack.append((nb, match[0]))
            size = len({c for c, _ in members})
            if K.LANDSCAPE_FIRST <= ptype <= K.LANDSCAPE_LAST:
                largest_landscape = max(largest_landscape, size)
            if not done:
                continue
            counts[ptype] += 1
            if K.LANDSCAPE_FIRST <= ptype <= K.LANDSCAPE_LAST:
                counts[K.C_LANDSCAPES] += 1
            elif K.LODGING_FIRST <= ptype <= K.LODGING_LAST:
                counts[K.C_LODGINGS] += 1
            elif ptype == K.VILLA:
                chim = sum(comp.tiles[int(tiles[c])].parts[pj].chimneys for c, pj in members)
                villa_vp += int(villa_table[chim])
            rows = cols = 0
            for c, _ in members:
                rows |= 1 << (c // K.SIDE)
                cols |= 1 << (c % K.SIDE)
            completed.append((ptype, rows, cols))
    return counts, villa_vp, largest_landscape, completed


def reference_frame_vp(g, s, seat, completed):
    """CD-END-6 with the default cell-line reading, straight from the frame data."""
    total = 0
    for side in range(4):
        piece = g.components.frames[int(field(g, s, "frame_piece")[seat, side])]
        for task in piece.tasks:
            index = task.position if side in (0, 1) else K.SIDE - 1 - task.position
            along_row = side in (1, 3)
            if any(t == task.type and ((rows if along_row else cols) >> index) & 1 for t, rows, cols in completed):
                total += task.vp
    return total


def check_final(g, s):
    n = g.n_players
    rot_edge = TABLES.view(g.tables, "rot_edge")
    sheet = g.score_sheet(s)
    categories = ("start", "cards", "villas", "leftovers", "banner", "fountain_cards", "frame_tasks")
    assert (sum(sheet[c] for c in categories) == sheet["total"]).all()  # CD-END-7
    assert sorted(sheet["rank"].tolist()) == list(range(1, n + 1))  # CD-TIE-2: a strict order
    assert (field(g, s, "turns")[:n] == K.ROUNDS).all()  # CD-TURN-10: 7 turns per pass each
    discs = field(g, s, "disc")
    live = field(g, s, "disc_live")
    for seat in range(n):  # CD-SCORING-3/5: 4 discs each, on distinct live spaces
        spaces = np.flatnonzero(discs == seat)
        assert len(spaces) == K.N_DISCS and live[spaces].all()
    assert int(field(g, s, "discs")[:n].sum()) == 0
    assert (field(g, s, "depot") < 0).all()
    for seat in range(n):
        tiles = field(g, s, "cell_tile")[seat]
        rots = field(g, s, "cell_rot")[seat]
        for cell in np.flatnonzero(tiles >= 0):
            r, c = divmod(int(cell), K.SIDE)
            for d in range(4):
                code = rot_edge[tiles[cell], rots[cell], d]
                nr, nc = r + K.DR[d], c + K.DC[d]
                if not (0 <= nr < K.SIDE and 0 <= nc < K.SIDE):
                    assert code == K.MEADOW  # CD-BUILD-5: the frame is meadow
                    continue
                nb = nr * K.SIDE + nc
                if tiles[nb] >= 0:  # CD-BUILD-5: every touching edge matches
                    assert rot_edge[tiles[nb], rots[nb], (d + 2) % 4] == code
        counts, villa_vp, largest, completed = reference_features(g, s, seat)
        assert (counts == field(g, s, "count")[seat]).all()
        assert villa_vp == sheet["villas"][seat]
        assert largest <= 4  # CD-BUILD-6 / AMB-2
        assert reference_frame_vp(g, s, seat, completed) == sheet["frame_tasks"][seat]


def play_checked(n_players, seed, seat_kinds):
    g = game(n_players)
    seats = [make_strategy(kind, g) for kind in seat_kinds[:n_players]]
    seeds = game_seeds(seed)
    s = g.new_state(seeds)
    streams = strategy_streams(seeds, n_players)
    check_step(g, s)
    while not g.is_over(s):
        tab = g.decision(s)
        assert len(tab) >= 1
        row = seats[tab.seat].choose(tab, streams[tab.seat: tab.seat + 1])
        g.apply(s, tab.actions[row].copy())
        check_step(g, s)
    check_final(g, s)


@settings(max_examples=N_EXAMPLES)
@given(
    n_players=st.sampled_from([2, 3, 4]),
    seed=st.integers(min_value=0, max_value=2**32),
    seat_kinds=st.lists(st.sampled_from(["random", "random", "greedy"]), min_size=4, max_size=4),
)
def test_random_legal_play_keeps_every_invariant(n_players, seed, seat_kinds):
    """Edges match, the frame is meadow, 123 tiles are accounted for, 7 turns per pass, 4 discs on
    distinct live spaces, no resource below zero, final VP = sum of the categories, and the engine's
    feature counters agree with an independent flood fill."""
    play_checked(n_players, seed, seat_kinds)
