"""Solo mode: Anna's turn and her final score in the game state (CD-ANNA-7..25).

The rules themselves are in ``anna.py`` and work on Anna's record; here they meet the board:
her patrician moves over the depots, takes a tile, pays her track bonuses (craftsman rolls on the
seal display, fountain cards from the deck, banner steps), converts items, and is scored at the
end. Anna sits in seat 1 and never decides anything: a tie that CD-ANNA-15 (a)-(d) leaves goes
to the human (D13) or to a random draw, as ``anna_tiebreak`` says. Her random numbers were dealt
at setup from the chance stream (``anna_rand``), so a seed fixes her dice too.
"""

import numpy as np
from bgsim.sim.games.carpe_diem.constants import (
    AN_BREAD,
    AN_COINS,
    AN_GOODS,
    AN_PILE,
    AN_PILE_N,
    AN_TRACK,
    ANNA_SEAT,
    ANNA_SIZE,
    DEPOT_SIZE,
    N_CELLS,
    N_COUNTERS,
    N_FOUNTAIN_CARDS,
    N_GOODS,
    N_PASSES,
    N_TYPES,
    POND,
)
from bgsim.sim.games.carpe_diem.decisions import ANNA_TIE
from bgsim.sim.games.carpe_diem.events import (
    EV_ANNA_CARD,
    EV_ANNA_CHOICE,
    EV_ANNA_CONVERT,
    EV_ANNA_DRAW,
    EV_ANNA_FINAL,
    EV_ANNA_MOVE,
    EV_ANNA_ROLL,
    EV_ANNA_TAKE,
    EV_ANNA_TRACK,
    log_event,
)
from bgsim.sim.games.carpe_diem.kernels.anna import (
    REROLL,
    anna_candidates,
    anna_choose,
    anna_convert,
    anna_count,
    anna_fountain_vp,
    anna_gain,
    anna_villa_vp,
    craftsman_slot,
    majority_vp,
    specialisation,
)
from bgsim.sim.games.carpe_diem.kernels.depots import exhaust_depot, take_tile
from bgsim.sim.games.carpe_diem.kernels.economy import STEP_ADMINISTRATOR, STEP_BANNER, advance_banner
from bgsim.sim.games.carpe_diem.param_slots import (
    PR_ANNA_CONVERT_ALL,
    PR_ANNA_CONVERT_AT,
    PR_ANNA_CONVERT_MODE,
    PR_ANNA_CRAFTSMAN_ONE,
    PR_ANNA_CRAFTSMAN_OVERFLOW,
    PR_ANNA_EXTRA_STEPS,
    PR_ANNA_MAJORITY_ANY,
    PR_ANNA_MAJORITY_VP,
    PR_ANNA_ORDER,
    PR_ANNA_TIEBREAK_RANDOM,
    PR_ANNA_TRACK_LEN,
    PR_ANNA_VILLA_DIVISOR,
    PR_ANNA_VILLA_VP,
    PR_ANNA_ZERO_TIE_VP,
    PR_SOLO_TIE,
)
from bgsim.sim.games.carpe_diem.state import (
    ANNA,
    ANNA_CONVERSIONS,
    ANNA_DECK,
    ANNA_FIN_MAJORITY,
    ANNA_MAJORITY,
    ANNA_RAND,
    ANNA_RAND_N,
    ANNA_RAND_NEXT,
    ANNA_ROLLS,
    ANNA_SPACE,
    ANNA_TIED,
    ANNA_TIED_N,
    BANNER_POS,
    CELL_TILE,
    COUNT,
    DEPOT,
    FDECK,
    FDECK_COUNT,
    FDECK_HEAD,
    FIN_BANNER,
    FIN_FOUNTAIN,
    FIN_FRAMES,
    FIN_LEFTOVER,
    FIN_TOTAL,
    FIN_VILLAS,
    N_NODES,
    PASS_NO,
    PATRICIAN,
    PHASE,
    SEAL,
    SEAT,
    SOLO,
    TURNS,
    UF_PARENT,
    VP,
)
from bgsim.sim.games.carpe_diem.tables import ANNA_GREY_FIELDS, T_ANNA_CARDS, T_ANNA_GREY, T_PART_TYPE, T_TILE_NPARTS
from numba import njit

HUMAN = 0
_ROW = 13  # entries per automa card row in the tables: arrow, then 12 symbols
_ROWS = 7
_BY_RULES, _BY_HUMAN, _BY_RANDOM = 0, 1, 2


@njit(cache=True)
def is_anna(s, seat):
    return s[SOLO] == 1 and seat == ANNA_SEAT


@njit(cache=True)
def anna_record(s):
    """Anna's record, a (ANNA_SIZE,) int32 view into ``s`` (layout in constants.py)."""
    return s[ANNA: ANNA + ANNA_SIZE]


@njit(cache=True)
def anna_grey(t):
    """Grey numbers, a (N_TYPES, ANNA_GREY_FIELDS) int32 view into the tables."""
    return t[T_ANNA_GREY: T_ANNA_GREY + N_TYPES * ANNA_GREY_FIELDS].reshape((N_TYPES, ANNA_GREY_FIELDS))


@njit(cache=True)
def anna_draw(s, k):
    """The next of Anna's dealt random numbers, uniform in 0..k-1 (k <= 16). The 96 dealt numbers
    cover any game; were they ever used up, they would be read again from the start."""
    i = s[ANNA_RAND_NEXT]
    s[ANNA_RAND_NEXT] = (i + 1) % ANNA_RAND_N
    return s[ANNA_RAND + i] % k


@njit(cache=True)
def random_free_space(s):
    """AMB-20 alternative: a random space without a patrician for Anna's."""
    free = 7 - 1
    k = anna_draw(s, free)
    for space in range(7):
        if space == s[PATRICIAN + HUMAN]:
            continue
        if k == 0:
            return space
        k -= 1
    return -1


@njit(cache=True)
def anna_pass_start(s, t, p, log):
    """CD-ANNA-12: reveal the pass's automa card; the extra-steps difficulty knob pays here."""
    log_event(log, EV_ANNA_CARD, ANNA_SEAT, s[PASS_NO], s[ANNA_DECK + s[PASS_NO] - 1])
    if p[PR_ANNA_EXTRA_STEPS] > 0:
        advance_banner(s, t, p, ANNA_SEAT, p[PR_ANNA_EXTRA_STEPS], STEP_BANNER, log)


@njit(cache=True)
def anna_turn(s, t, p, log):
    """CD-ANNA-13..19: one turn of Anna. Returns True when it is over, False when the human has to
    break a tie between her candidates first (D13: PHASE = ANNA_TIE, the tied places in anna_tied)."""
    pass_no = s[PASS_NO]
    card = s[ANNA_DECK + pass_no - 1]
    row = s[TURNS + ANNA_SEAT * N_PASSES + pass_no - 1]  # her i-th turn of the pass reads row i
    base = T_ANNA_CARDS + (card * _ROWS + row) * _ROW
    arrow = t[base]
    origin = s[PATRICIAN + ANNA_SEAT]
    dest = _step(s, origin, 1 if arrow == 0 else -1)  # CD-ANNA-13
    s[PATRICIAN + ANNA_SEAT] = dest
    log_event(log, EV_ANNA_MOVE, ANNA_SEAT, origin, dest, arrow, row + 1)

    tiles = np.empty(DEPOT_SIZE, dtype=np.int32)
    places = np.empty(DEPOT_SIZE, dtype=np.int64)
    n_tiles = 0
    for j in range(DEPOT_SIZE):
        tile = s[DEPOT + dest * DEPOT_SIZE + j]
        if tile >= 0:
            tiles[n_tiles] = tile
            places[n_tiles] = j
            n_tiles += 1
    a = anna_record(s)
    cands = np.empty(DEPOT_SIZE, dtype=np.int32)
    best = np.empty(DEPOT_SIZE, dtype=np.int32)
    n, shown = anna_candidates(a, t, tiles[:n_tiles], t[base + 1: base + _ROW], cands)  # CD-ANNA-14
    order = p[PR_ANNA_ORDER: PR_ANNA_ORDER + 4].astype(np.int64)
    m = anna_choose(a, t, cands, n, shown, best, order)  # CD-ANNA-15 (a)-(d)
    s[ANNA_SPACE] = dest
    s[ANNA_TIED_N] = m
    for i in range(m):
        for j in range(n_tiles):
            if tiles[j] == best[i]:
                s[ANNA_TIED + i] = places[j]
    if m > 1 and p[PR_ANNA_TIEBREAK_RANDOM] == 0:
        log_event(log, EV_ANNA_CHOICE, ANNA_SEAT, shown, n, m, _BY_HUMAN)
        s[SEAT] = HUMAN
        s[PHASE] = ANNA_TIE
        return False
    pick = anna_draw(s, m) if m > 1 else 0
    log_event(log, EV_ANNA_CHOICE, ANNA_SEAT, shown, n, m, _BY_RANDOM if m > 1 else _BY_RULES)
    anna_take(s, t, p, s[ANNA_TIED + pick], log)
    return True


@njit(cache=True)
def anna_take(s, t, p, place, log):
    """CD-ANNA-16..20: Anna takes the tile on ``place`` of the depot at ``anna_space``; it leaves the
    game; her tracks advance and pay, craftsman rolls and fountain draws included. After the tile
    and after each seal tile a roll wins, her banner steps are taken and, as soon as she holds
    enough items, they become banner steps (CD-ANNA-19: „Sobald ... unmittelbar")."""
    space = s[ANNA_SPACE]
    tile = take_tile(s, ANNA_SEAT, space, place)
    log_event(log, EV_ANNA_TAKE, ANNA_SEAT, space, place, tile)
    exhaust_depot(s, space, log)  # CD-ANNA-9
    a = anna_record(s)
    track_len = p[PR_ANNA_TRACK_LEN]
    steps, rolls, draws = _gain(s, t, a, tile, True, track_len, log)
    _settle(s, t, p, a, steps, log)
    while rolls > 0 or draws > 0:
        if draws > 0:
            draws -= 1
            _draw_fountain(s, t, a, log)
            continue
        rolls -= 1
        roll = 0
        seal = REROLL
        while seal == REROLL:  # AMB-5 "reroll": until the roll names a tile
            roll = anna_draw(s, 6) + 1
            s[ANNA_ROLLS] += 1
            seal = craftsman_slot(s[SEAL: SEAL + 11], roll, p[PR_ANNA_CRAFTSMAN_OVERFLOW])
        if seal < 0:
            log_event(log, EV_ANNA_ROLL, ANNA_SEAT, roll, -1, -1)
            continue
        won = s[SEAL + seal]
        s[SEAL + seal] = -1
        log_event(log, EV_ANNA_ROLL, ANNA_SEAT, roll, seal, won)
        steps, more_rolls, more_draws = _gain(s, t, a, won, p[PR_ANNA_CRAFTSMAN_ONE] == 0, track_len, log)
        _settle(s, t, p, a, steps, log)
        rolls += more_rolls
        draws += more_draws


@njit(cache=True)
def anna_final(s, t, p, log):
    """CD-ANNA-22..24: Anna's final VP into seat 1's final fields (villa track in final_villas,
    fountain cards in final_fountain, majorities in anna_final_majority); no leftovers."""
    a = anna_record(s)
    grey = anna_grey(t)
    divisor = p[PR_ANNA_VILLA_DIVISOR]
    majorities = 0
    for ptype in range(POND, N_TYPES):  # the 11 non-villa tracks
        vp = majority_vp(anna_count(a, grey, ptype, divisor), human_count(s, t, p, ptype),
                         p[PR_ANNA_ZERO_TIE_VP], p[PR_ANNA_MAJORITY_VP])
        s[ANNA_MAJORITY + ptype] = vp
        majorities += vp
    s[ANNA_FIN_MAJORITY] = majorities
    s[FIN_VILLAS + ANNA_SEAT] = anna_villa_vp(a, t, p[PR_ANNA_VILLA_VP])
    s[FIN_FOUNTAIN + ANNA_SEAT] = anna_fountain_vp(a, t, grey, divisor)
    s[FIN_BANNER + ANNA_SEAT] = s[BANNER_POS + ANNA_SEAT]
    s[FIN_LEFTOVER + ANNA_SEAT] = 0
    s[FIN_FRAMES + ANNA_SEAT] = 0
    s[FIN_TOTAL + ANNA_SEAT] = (s[VP + ANNA_SEAT] + s[FIN_BANNER + ANNA_SEAT] + s[FIN_VILLAS + ANNA_SEAT]
                                + majorities + s[FIN_FOUNTAIN + ANNA_SEAT])


@njit(cache=True)
def human_count(s, t, p, ptype):
    """The human's count of ``ptype`` in a majority (AMB-24): completed lodgings and landscapes and
    built small buildings, or (alternative) every feature of the type, completed or not."""
    if p[PR_ANNA_MAJORITY_ANY] == 0:
        return s[COUNT + HUMAN * N_COUNTERS + ptype]
    n = 0
    for node in range(N_NODES):
        if s[UF_PARENT + HUMAN * N_NODES + node] != node:
            continue
        tile = s[CELL_TILE + HUMAN * N_CELLS + node // 2]
        if tile >= 0 and t[T_PART_TYPE + tile * 2 + node % 2] == ptype:
            n += 1
    return n


@njit(cache=True)
def human_ranks_first(s, p, banner_first):
    """Does the human rank before Anna? More VP first; a tie by AMB-27: ``banner_first`` (the
    CD-TIE-2 verdict on the two discs), or the human, or Anna."""
    human = s[FIN_TOTAL + HUMAN]
    anna = s[FIN_TOTAL + ANNA_SEAT]
    if human != anna:
        return human > anna
    mode = p[PR_SOLO_TIE]
    if mode == 1:
        return True
    if mode == 2:
        return False
    return banner_first


@njit(cache=True)
def log_anna_final(s, log):
    log_event(log, EV_ANNA_FINAL, ANNA_SEAT, s[VP + ANNA_SEAT], s[FIN_BANNER + ANNA_SEAT],
              s[FIN_VILLAS + ANNA_SEAT], s[ANNA_FIN_MAJORITY], s[FIN_FOUNTAIN + ANNA_SEAT],
              s[FIN_TOTAL + ANNA_SEAT], 0)


# Helpers


@njit(cache=True)
def _settle(s, t, p, a, steps, log):
    """Anna's administrator steps of one tile, then CD-ANNA-19's conversion of what she holds."""
    advance_banner(s, t, p, ANNA_SEAT, steps, STEP_ADMINISTRATOR, log)
    held = _held(a)
    converted = anna_convert(a, p[PR_ANNA_CONVERT_AT], p[PR_ANNA_CONVERT_MODE], p[PR_ANNA_CONVERT_ALL] == 1)
    if converted > 0:  # CD-ANNA-19
        s[ANNA_CONVERSIONS] += converted
        log_event(log, EV_ANNA_CONVERT, ANNA_SEAT, held - _held(a), converted)
        advance_banner(s, t, p, ANNA_SEAT, converted, STEP_BANNER, log)


@njit(cache=True)
def _step(s, start, direction):
    """CD-ANNA-13: one space on, past empty depots; back to ``start`` after a full loop (AMB-3)."""
    q = start
    for _ in range(7):
        q = (q + direction + 7) % 7
        for j in range(DEPOT_SIZE):
            if s[DEPOT + q * DEPOT_SIZE + j] >= 0:
                return q
    return start


@njit(cache=True)
def _gain(s, t, a, tile, villa_by_chimneys, track_len, log):
    coins = a[AN_COINS]
    bread = a[AN_BREAD]
    goods = _goods(a)
    steps, rolls, draws = anna_gain(a, tile, t, villa_by_chimneys, track_len)
    first = t[T_PART_TYPE + tile * 2]
    second = t[T_PART_TYPE + tile * 2 + 1] if t[T_TILE_NPARTS + tile] > 1 else 0
    log_event(log, EV_ANNA_TRACK, ANNA_SEAT, tile, first, a[AN_TRACK + first], second,
              a[AN_TRACK + second] if second > 0 else 0, a[AN_COINS] - coins, a[AN_BREAD] - bread,
              _goods(a) - goods, steps)
    return steps, rolls, draws


@njit(cache=True)
def _draw_fountain(s, t, a, log):
    """CD-ANNA-17 fountain: the top card of the deck goes on top of her pile (new specialisation)."""
    if s[FDECK_COUNT] == 0:
        log_event(log, EV_ANNA_DRAW, ANNA_SEAT, -1, specialisation(a, t))
        return
    card = s[FDECK + s[FDECK_HEAD]]
    s[FDECK_HEAD] = (s[FDECK_HEAD] + 1) % N_FOUNTAIN_CARDS
    s[FDECK_COUNT] -= 1
    a[AN_PILE + a[AN_PILE_N]] = card
    a[AN_PILE_N] += 1
    log_event(log, EV_ANNA_DRAW, ANNA_SEAT, card, specialisation(a, t))


@njit(cache=True)
def _goods(a):
    total = 0
    for k in range(N_GOODS):
        total += a[AN_GOODS + k]
    return total


@njit(cache=True)
def _held(a):
    return a[AN_COINS] + a[AN_BREAD] + _goods(a)

