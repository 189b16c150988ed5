"""The compiled loop's placement scan (``kernels.placements``) against the probe of the tables.

``fill_merges`` tabulates, per frontier cell and per set of linking sides, what a tile part there
joins; the weighted valuation reads those tables instead of walking the union-find. Over random
legal play, every entry must equal ``district.merge_part`` (CD-FEATURE-2), for every part mask.
"""

from bgsim.sim import game_seeds
from bgsim.sim.games.carpe_diem.kernels.context import X_N_FRONTIER
from bgsim.sim.games.carpe_diem.kernels.district import merge_part
from bgsim.sim.games.carpe_diem.kernels.placements import fill_frontier
from bgsim.sim.games.carpe_diem.kernels.work import (
    M_CHIM,
    M_COLS,
    M_OPEN,
    M_ROWS,
    M_SIZE_SUM,
    new_placement_work,
)
from bgsim.sim.seeding import strategy_streams
from bgsim.strategies import make_strategy
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.carpe_diem.helpers import game


def check_frontier_tables(g, s, seat) -> int:
    """Compare every tabulated merge of ``seat``'s frontier with ``merge_part``; return the number
    of (cell, mask) pairs checked."""
    s = s.copy()  # finding roots shortens union-find paths in place
    work = new_placement_work()
    fill_frontier(s, g.tables, seat, work)
    checked = 0
    for i in range(work.ctx[X_N_FRONTIER]):
        cell = int(work.frontier[i])
        for mask in range(16):
            chim = 2
            n_open, links, open_sum, size, chim_sum, rows, cols = merge_part(s, seat, cell, mask, chim, work.need,
                                                                             work.nroot)
            sides = mask & int(work.link[cell])
            got = work.merged[cell, sides]
            assert n_open == bin(mask).count("1")
            assert links == bin(sides).count("1")
            assert (open_sum, size, chim_sum, rows, cols) == (
                got[M_OPEN], 1 + got[M_SIZE_SUM], chim + got[M_CHIM], got[M_ROWS], got[M_COLS]), (cell, mask)
            checked += 1
    return checked


@settings(max_examples=12, deadline=None)
@given(n_players=st.sampled_from([2, 3, 4]), seed=st.integers(min_value=0, max_value=2**32),
       kind=st.sampled_from(["random", "greedy"]))
def test_CD_FEATURE_2_frontier_tables_equal_merge_part(n_players, seed, kind):
    """Every TURN of a random or greedy game: each frontier cell's tabulated merges equal
    ``merge_part`` for all 16 part masks, so the weighted scan values rows as the tables do."""
    g = game(n_players)
    strategy = make_strategy(kind, g)
    seeds = game_seeds(seed)
    s = g.new_state(seeds)
    streams = strategy_streams(seeds, n_players)
    checked = 0
    while not g.is_over(s):
        tab = g.decision(s)
        if tab.kind_name == "turn":
            checked += check_frontier_tables(g, s, tab.seat)
        row = strategy.choose(tab, streams[tab.seat: tab.seat + 1])
        g.apply(s, tab.actions[row].copy())
    assert checked > 1000
