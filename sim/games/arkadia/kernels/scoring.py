"""Banners, cashing and the end (ARK-BANNER, ARK-END): a banner brings two workers and may cash
seals at the castle's current values; the end is triggered by a full level 2, every player then
plays once more with the trigger last, and the final cashing decides the winners (ties share)."""

from bgsim.sim.games.arkadia.events import EV_BANNER, EV_CASH, EV_FINAL, EV_FINAL_ROUND, log_event
from bgsim.sim.games.arkadia.kernels.castle import seal_value
from bgsim.sim.games.arkadia.state import (
    BANNERS_LEFT,
    END_TRIGGERED,
    GOLD,
    GOLD_BANNER,
    GOLD_BUILDINGS,
    GOLD_FAMILY,
    N_FAMILIES,
    OWN_SCREEN,
    OWN_SUPPLY,
    RANK,
    SEALS,
    SEALS_OUT,
    SEAT,
    START_GOLD,
    TIEBREAK,
    TOTAL,
    TURNS_LEFT,
)
from numba import njit


@njit(cache=True)
def use_banner(s, seat, log=None):
    """ARK-BANNER-2: the banner leaves the game; two workers of the seat's colour go behind its screen.
    ``log``: the event log, None where a rules test calls this by hand (so below)."""
    s[BANNERS_LEFT + seat] -= 1
    s[OWN_SUPPLY + seat] -= 2
    s[OWN_SCREEN + seat] += 2
    log_event(log, EV_BANNER, seat, s[BANNERS_LEFT + seat], s[OWN_SCREEN + seat])


@njit(cache=True)
def cash(s, t, seat, family, n, log=None):
    """ARK-BANNER-3, -4: ``n`` seals of ``family`` go back to the supply, each paying as much gold as
    the castle shows fields of that family; returns the gold paid. A banner's cashing is logged even
    for 0 seals (the seat's decision to keep them); the final cashing passes no log."""
    value = seal_value(s, t, family)
    paid = n * value
    log_event(log, EV_CASH, seat, family, n, paid, value)
    s[SEALS + seat * N_FAMILIES + family] -= n
    s[SEALS_OUT + family] -= n  # cashed seals go back to the supply (AMB-8)
    s[GOLD + seat] += paid
    s[GOLD_FAMILY + seat * N_FAMILIES + family] += paid
    return paid


@njit(cache=True)
def end_turn(s, n, log=None):
    """ARK-END-2, -3: pass the turn on. The turn that triggered the end opens the final round, in
    which every player plays once more, the trigger last; returns True when the game is over."""
    if s[TURNS_LEFT] > 0:
        s[TURNS_LEFT] -= 1
        if s[TURNS_LEFT] == 0:
            return True
    elif s[END_TRIGGERED] == 1 and s[TURNS_LEFT] < 0:
        s[TURNS_LEFT] = n
        log_event(log, EV_FINAL_ROUND, -1, n, s[SEAT])
    s[SEAT] = (s[SEAT] + 1) % n
    return False


@njit(cache=True)
def final_cashing(s, t, n, log=None):
    """ARK-END-4, -5: every seal left is cashed at the castle's values; the final gold adds the start
    gold and the gold the seat's buildings paid at once (ARK-VAR-1, 0 by the rules). The most gold
    wins, and equal gold shares the place: there is no tie-break ("es gibt mehrere Gewinner").
    ``tiebreak`` is the seat order, for re-scoring under other start gold."""
    for seat in range(n):
        seals = SEALS + seat * N_FAMILIES  # the seals before they are cashed, for the log
        before = s[GOLD + seat]
        cloth, spice, carpenter, silver = s[seals], s[seals + 1], s[seals + 2], s[seals + 3]
        s[GOLD_BANNER + seat] = s[GOLD + seat]
        for family in range(N_FAMILIES):
            cash(s, t, seat, family, s[SEALS + seat * N_FAMILIES + family])
        s[TOTAL + seat] = s[START_GOLD + seat] + s[GOLD + seat] + s[GOLD_BUILDINGS + seat]
        log_event(log, EV_FINAL, seat, cloth, spice, carpenter, silver, s[GOLD + seat] - before, s[TOTAL + seat])
    for seat in range(n):
        rank = 1
        for other in range(n):
            if s[TOTAL + other] > s[TOTAL + seat]:
                rank += 1
        s[RANK + seat] = rank
        s[TIEBREAK + seat] = seat + 1
    s[SEAT] = -1
