"""Taking a tile from a depot (CD-TURN-8/9), for players and for Anna alike."""

from bgsim.sim.games.carpe_diem.constants import DEPOT_SIZE, N_PASSES
from bgsim.sim.games.carpe_diem.events import EV_DEPOT_CLEAR, log_event
from bgsim.sim.games.carpe_diem.state import DEPOT, DEPOT_TAKES, N_PLAYERS, PASS_NO, REMOVED, TAKEN, TURNS
from numba import njit


@njit(cache=True)
def take_tile(s, seat, space, slot):
    """Take the tile on place ``slot`` of depot ``space`` for ``seat`` and return it; count the take
    for depot exhaustion (``exhaust_depot``)."""
    tile = s[DEPOT + space * DEPOT_SIZE + slot]
    s[DEPOT + space * DEPOT_SIZE + slot] = -1
    s[TAKEN + seat] += 1
    s[TURNS + seat * N_PASSES + s[PASS_NO] - 1] += 1
    s[DEPOT_TAKES + space] += 1
    return tile


@njit(cache=True)
def exhaust_depot(s, space, log):
    """CD-TURN-9: with 2 players (and solo, CD-ANNA-9) a depot is cleared after its 2nd take, with
    3 players after its 3rd; the tiles left go out of the game."""
    n = s[N_PLAYERS]
    takes = s[DEPOT_TAKES + space]
    if (n == 2 and takes == 2) or (n == 3 and takes == 3):
        removed = 0
        for j in range(DEPOT_SIZE):
            if s[DEPOT + space * DEPOT_SIZE + j] >= 0:
                s[DEPOT + space * DEPOT_SIZE + j] = -1
                removed += 1
        s[REMOVED] += removed
        log_event(log, EV_DEPOT_CLEAR, -1, space, removed)
