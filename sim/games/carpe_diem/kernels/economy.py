"""Resources, banner track and VP (CD-REWARD-2, -10, -12, CD-CARD-6, AMB-7, -16, -17).

Every gain goes through ``gain_*`` so the optional physical supply (AMB-7) is honoured in one
place; every VP change through ``add_vp`` for the optional floor (AMB-17).
"""

from bgsim.sim.borrow import njit_without_refcounts
from bgsim.sim.games.carpe_diem.constants import MAX_P, N_GOODS
from bgsim.sim.games.carpe_diem.events import EV_LOST_SUPPLY, EV_STEPS, log_event
from bgsim.sim.games.carpe_diem.param_slots import (
    PR_OVERFLOW_ADMIN_ONLY,
    PR_SUPPLY_BREAD,
    PR_SUPPLY_COINS,
    PR_SUPPLY_GOODS,
    PR_SUPPLY_LIMITS,
    PR_VP_FLOOR,
)
from bgsim.sim.games.carpe_diem.state import (
    BANNER_POS,
    BANNER_STAMP,
    BREAD,
    COINS,
    FDECK,
    FDECK_COUNT,
    FDECK_HEAD,
    GOODS,
    N_PLAYERS,
    SOLO,
    STAMP,
    VP,
    VP_FLOORED,
    VP_OVERFLOW,
)
from bgsim.sim.games.carpe_diem.tables import T_TRACK_LAST

STEP_BANNER = 0
STEP_ADMINISTRATOR = 1
STEP_CARD = 2


@njit_without_refcounts
def gain_goods(s, p, seat, kind, amount, log):
    """Give ``amount`` goods of ``kind``; with the physical supply, only what is left (AMB-7)."""
    if p[PR_SUPPLY_LIMITS]:
        held = 0
        for q in range(s[N_PLAYERS]):
            held += s[GOODS + q * N_GOODS + kind]
        left = max(0, p[PR_SUPPLY_GOODS] - held)
        if amount > left:
            log_event(log, EV_LOST_SUPPLY, seat, 0, amount - left)
            amount = left
    s[GOODS + seat * N_GOODS + kind] += amount
    return amount


@njit_without_refcounts
def gain_coins(s, p, seat, amount, log):
    if p[PR_SUPPLY_LIMITS]:
        amount = _cap(s, COINS, p[PR_SUPPLY_COINS], seat, amount, 1, log)
    s[COINS + seat] += amount
    return amount


@njit_without_refcounts
def gain_bread(s, p, seat, amount, log):
    if p[PR_SUPPLY_LIMITS]:
        amount = _cap(s, BREAD, p[PR_SUPPLY_BREAD], seat, amount, 2, log)
    s[BREAD + seat] += amount
    return amount


@njit_without_refcounts
def add_vp(s, p, seat, delta):
    """Change VP by ``delta``, never below the floor if one is set (AMB-17); return the change made."""
    new = s[VP + seat] + delta
    floor = p[PR_VP_FLOOR]
    if floor >= 0 and delta < 0 and new < floor:
        actual = min(0, floor - s[VP + seat])
        s[VP_FLOORED + seat] += actual - delta
        delta = actual
    s[VP + seat] += delta
    return delta


@njit_without_refcounts
def advance_banner(s, t, p, seat, steps, source, log):
    """Move the banner disc ``steps`` steps (CD-REWARD-10); return the overflow VP gained.

    Beyond the last position each step pays 1 VP (AMB-16: for every source, or only for the
    administrator). After a move the disc goes on top of the stack on its space.
    """
    if steps <= 0:
        return 0
    last = t[T_TRACK_LAST]
    pos = s[BANNER_POS + seat]
    overflow = 0
    for _ in range(steps):
        if pos < last:
            pos += 1
        elif p[PR_OVERFLOW_ADMIN_ONLY] == 0 or source == STEP_ADMINISTRATOR:
            overflow += 1
    s[BANNER_POS + seat] = pos
    s[STAMP] += 1
    s[BANNER_STAMP + seat] = s[STAMP]
    if overflow > 0:
        s[VP + seat] += overflow
        s[VP_OVERFLOW + seat] += overflow
    log_event(log, EV_STEPS, seat, steps, pos, overflow, source)
    return overflow


@njit_without_refcounts
def merchant(s, p, seat, log):
    """CD-REWARD-2: return all goods; gain that many coins plus one. Returns (goods, coins)."""
    total = 0
    for k in range(N_GOODS):
        total += s[GOODS + seat * N_GOODS + k]
        s[GOODS + seat * N_GOODS + k] = 0
    coins = gain_coins(s, p, seat, total + 1, log)
    return total, coins


@njit_without_refcounts
def fountain_draw(s, out):
    """Take up to 2 cards from the top of the fountain deck into ``out`` (2,); return how many."""
    n = min(2, s[FDECK_COUNT])
    for i in range(n):
        out[i] = s[FDECK + s[FDECK_HEAD]]
        s[FDECK_HEAD] = (s[FDECK_HEAD] + 1) % 24
        s[FDECK_COUNT] -= 1
    return n


@njit_without_refcounts
def fountain_put_under(s, card):
    """Put ``card`` face down under the fountain deck (CD-REWARD-8)."""
    s[FDECK + (s[FDECK_HEAD] + s[FDECK_COUNT]) % 24] = card
    s[FDECK_COUNT] += 1


@njit_without_refcounts
def scoring_order(s, out):
    """Seats in pass-scoring order (CD-SCORING-2): furthest ahead first, same space top first.
    Solo: the human alone (CD-ANNA-21)."""
    n = 1 if s[SOLO] else s[N_PLAYERS]
    for i in range(n):
        out[i] = i
    for i in range(n):
        for j in range(i + 1, n):
            a = out[i]
            b = out[j]
            pa = s[BANNER_POS + a]
            pb = s[BANNER_POS + b]
            if pb > pa or (pb == pa and s[BANNER_STAMP + b] > s[BANNER_STAMP + a]):
                out[i] = b
                out[j] = a
    for i in range(n, MAX_P):
        out[i] = -1


# Helpers


@njit_without_refcounts
def _cap(s, field, limit, seat, amount, what, log):
    held = 0
    for q in range(s[N_PLAYERS]):
        held += s[field + q]
    left = max(0, limit - held)
    if amount > left:
        log_event(log, EV_LOST_SUPPLY, seat, what, amount - left)
        return left
    return amount
