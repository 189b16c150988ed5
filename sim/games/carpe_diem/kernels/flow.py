"""The game as a state machine: apply one decision, then run every automatic step up to the
next decision that offers a choice (or the end of the game).

Order of a turn (CD-TURN-3): movement, take a tile, depot exhaustion, build or store, banner
step, rewards of the completed features (CD-REWARD-11; a craftsman reward is resolved depth
first: its tile's build and rewards come before the next pending reward of the outer build).
"""

from bgsim.sim.games.carpe_diem.constants import (
    ADMINISTRATOR,
    ANNA_SEAT,
    BAKER,
    BAKERY,
    CRAFTSMAN,
    FOUNTAIN,
    LANDSCAPE_FIRST,
    LANDSCAPE_LAST,
    MARKET,
    MERCHANT,
    N_CELLS,
    N_GOODS,
    N_SEALS,
    POND,
    ROUNDS,
    VILLA,
)
from bgsim.sim.games.carpe_diem.decisions import (
    A_BREAD,
    A_CELL,
    A_COUNT,
    A_MOVE,
    A_ROT,
    A_SLOT,
    A_SPACE,
    A_TARGET,
    ANNA_PATRICIAN,
    ANNA_TIE,
    BREAD_TO,
    CARD_ORDER,
    DISC,
    FULFIL,
    OVER,
    PATRICIAN,
    PAYMENT,
    REWARD_ORDER,
    TURN,
)
from bgsim.sim.games.carpe_diem.decisions import CRAFTSMAN as D_CRAFTSMAN
from bgsim.sim.games.carpe_diem.decisions import FOUNTAIN as D_FOUNTAIN
from bgsim.sim.games.carpe_diem.events import (
    EV_BANNER,
    EV_BREAD,
    EV_COINS,
    EV_COMPLETE,
    EV_CRAFTSMAN,
    EV_DISC,
    EV_FOUNTAIN_DRAW,
    EV_FOUNTAIN_RETURN,
    EV_GOODS,
    EV_MERCHANT,
    EV_MOVE,
    EV_PASS_START,
    EV_PATRICIAN,
    EV_PLACE,
    EV_SCORING_START,
    EV_STORE,
    EV_TAKE,
    log_event,
)
from bgsim.sim.games.carpe_diem.kernels.cards import (
    bread_max,
    counters,
    green_k,
    is_red,
    red_kmax,
    resolve_card,
    resources,
    row_allowed,
)
from bgsim.sim.games.carpe_diem.kernels.depots import exhaust_depot, take_tile
from bgsim.sim.games.carpe_diem.kernels.district import any_legal_placement, build_tile
from bgsim.sim.games.carpe_diem.kernels.economy import (
    STEP_ADMINISTRATOR,
    STEP_BANNER,
    advance_banner,
    fountain_draw,
    fountain_put_under,
    gain_bread,
    gain_coins,
    gain_goods,
    merchant,
    scoring_order,
)
from bgsim.sim.games.carpe_diem.kernels.final import final_scoring
from bgsim.sim.games.carpe_diem.kernels.setup import DISC_SLOT_A, DISC_SLOT_B, deal_pass
from bgsim.sim.games.carpe_diem.kernels.solo import (
    anna_pass_start,
    anna_take,
    anna_turn,
    is_anna,
    random_free_space,
)
from bgsim.sim.games.carpe_diem.param_slots import (
    PR_ANNA_PATRICIAN_RANDOM,
    PR_CANONICAL_PAYMENT,
    PR_CRAFTSMAN_OPTIONAL,
    PR_CRAFTSMAN_STORE,
    PR_FOUNTAIN_SHORT_NONE,
    PR_LANDSCAPE_REWARD_CAP,
    PR_RED_MIN_ONE,
    PR_REWARD_ORDER_FIXED,
    PR_SUPPLY_LIMITS,
    PR_VP_FLOOR,
)
from bgsim.sim.games.carpe_diem.state import (
    BANNER_LEFT,
    BREAD,
    COINS,
    DECISIONS,
    DEPOT_TAKES,
    DISCS,
    FD_DRAWN,
    FD_NDRAWN,
    FDECK_COUNT,
    FOUNTAIN_HELD,
    FOUNTAIN_N,
    GOODS,
    N_PLAYERS,
    PASS_NO,
    PASS_START,
    PATRICIANS_REVEALED,
    PHASE,
    RW_FRAME,
    RW_KIND,
    RW_N,
    RW_NFRAMES,
    RW_SIZE,
    SC_B,
    SC_BREAD_USED,
    SC_CARDS,
    SC_INDEX,
    SC_K,
    SC_ORDER,
    SC_PAY_COINS,
    SC_PAY_KIND,
    SC_SPACE,
    SC_STAGE,
    SEAL,
    SEAT,
    SETUP_NEXT,
    SLOT_CARD,
    SOLO,
    STORED,
    TURN_NO,
)
from bgsim.sim.games.carpe_diem.state import (
    DISC as S_DISC,
)
from bgsim.sim.games.carpe_diem.state import (
    PATRICIAN as S_PATRICIAN,
)
from bgsim.sim.games.carpe_diem.tables import T_CARD_GIVE, T_CARD_PAY
from numba import njit

# Rank of a reward in the fixed order of AMB-11 (b); also the order used when it cannot matter.
_RANK_LANDSCAPE = 0
_RANK_SMALL = 1
_RANK_LODGING = 2
_RANK_MERCHANT = 3


@njit(cache=True)
def apply_action(s, t, p, act, log):
    """Apply the action row ``act`` ((N_ACTION_FIELDS,) int32) to the pending decision, then
    advance to the next decision. The action must be legal (see ``Game.apply(validate=True)``)."""
    kind = s[PHASE]
    s[DECISIONS] += 1
    if kind == PATRICIAN:
        _apply_patrician(s, t, p, act[A_SPACE], log)
    elif kind == TURN:
        _apply_turn(s, t, p, act, log)
    elif kind == REWARD_ORDER:
        _apply_reward_order(s, t, p, act[A_SLOT], log)
    elif kind == D_CRAFTSMAN:
        _apply_craftsman(s, t, p, act, log)
    elif kind == D_FOUNTAIN:
        _apply_fountain(s, t, p, act[A_SLOT], log)
    elif kind == DISC:
        _apply_disc(s, t, p, act[A_SPACE], log)
    elif kind == CARD_ORDER:
        if act[A_SLOT] == 1:
            first = s[SC_CARDS]
            s[SC_CARDS] = s[SC_CARDS + 1]
            s[SC_CARDS + 1] = first
        _begin_first_card(s, t, p, log)
    elif kind == FULFIL:
        _set_fulfil(s, act[A_BREAD], act[A_COUNT])
        _score_cards(s, t, p, 0, log)
    elif kind == PAYMENT:
        s[SC_PAY_COINS + s[SC_PAY_KIND]] = act[A_COUNT]
        _score_cards(s, t, p, s[SC_PAY_KIND] + 1, log)
    elif kind == ANNA_PATRICIAN:
        _place_anna(s, t, p, act[A_SPACE], log)
    elif kind == ANNA_TIE:
        anna_take(s, t, p, act[A_SLOT], log)  # D13: the human picked among Anna's tied candidates
        _end_turn(s, t, p, log)


@njit(cache=True)
def reward_rank(kind):
    if LANDSCAPE_FIRST <= kind <= LANDSCAPE_LAST:
        return _RANK_LANDSCAPE
    if kind >= MARKET:
        return _RANK_SMALL
    if kind == MERCHANT:
        return _RANK_MERCHANT
    return _RANK_LODGING


@njit(cache=True)
def reward_order_matters(s, p, start, end):
    """Can the order of the pending rewards change the game? (only then is D05 asked)

    Goods matter only to a merchant; a craftsman's chain may complete a merchant or a fountain.
    So: merchant with landscape or craftsman, or craftsman with landscape or fountain. With the
    physical supply (AMB-7) any two different kinds may compete for the supply.
    """
    merchant_ = False
    landscape = False
    craftsman = False
    fountain = False
    first_kind = s[RW_KIND + start]
    distinct = False
    for i in range(start, end):
        k = s[RW_KIND + i]
        distinct = distinct or k != first_kind
        merchant_ = merchant_ or k == MERCHANT
        landscape = landscape or LANDSCAPE_FIRST <= k <= LANDSCAPE_LAST
        craftsman = craftsman or k == CRAFTSMAN
        fountain = fountain or k == FOUNTAIN
    if p[PR_SUPPLY_LIMITS]:
        return distinct
    return (merchant_ and (landscape or craftsman)) or (craftsman and (landscape or fountain))


@njit(cache=True)
def fulfil_options(s, t, p, seat, card):
    """Number of legal (b, k) rows for the current card, and the first of them."""
    res = resources(s, seat)
    bmax = bread_max(p, res)
    red = is_red(t, card)
    kmax = red_kmax(t, card, res) if red else green_k(t, card, counters(s, seat))
    count = 0
    first_b = -1
    first_k = -1
    for b in range(bmax + 1):
        k_lo = 0 if red else kmax
        for k in range(k_lo, kmax + 1):
            if row_allowed(t, p, card, res, b, k, kmax, bmax):
                if count == 0:
                    first_b = b
                    first_k = k
                count += 1
    return count, first_b, first_k


@njit(cache=True)
def payment_range(s, t, seat, card, k, kind, chosen_before):
    """Units of ``kind`` that may be paid with coins: (lo, hi), given coins already committed."""
    need = k * t[T_CARD_GIVE + card * N_GOODS + kind]
    if need == 0:
        return 0, 0
    coins_left = s[COINS + seat] - chosen_before
    lo = max(0, need - s[GOODS + seat * N_GOODS + kind])
    reserve = 0
    for j in range(kind + 1, N_GOODS):
        need_j = k * t[T_CARD_GIVE + card * N_GOODS + j]
        reserve += max(0, need_j - s[GOODS + seat * N_GOODS + j])
    hi = min(need, coins_left - reserve)
    return lo, hi


@njit(cache=True)
def card_order_matters(t, p, a, b):
    """D09 is asked only if the order can change the outcome: a payout of one card (coins, bread)
    could serve the other, a VP floor is set, or (AMB-9 alternative) a red card must be fulfilled
    if possible, so the first card may use up what the second needs."""
    if p[PR_VP_FLOOR] >= 0:
        return True
    if p[PR_RED_MIN_ONE] and (is_red(t, a) or is_red(t, b)):
        return True
    for card in (a, b):
        pay = T_CARD_PAY + card * 4
        if t[pay + 1] > 0 or t[pay + 2] > 0:
            return True
    return False


@njit(cache=True)
def place_tile(s, t, p, seat, tile, cell, rot, source, log):
    """Build ``tile`` and queue its rewards as a new frame (CD-BUILD-7, -8, CD-REWARD-11)."""
    banner = s[BANNER_LEFT + seat * N_CELLS + cell]
    n_done, type0, size0, chim0, type1, size1, chim1 = build_tile(s, t, p, seat, tile, cell, rot)
    log_event(log, EV_PLACE, seat, tile, cell, rot, source)
    if banner:
        s[BANNER_LEFT + seat * N_CELLS + cell] = 0
        log_event(log, EV_BANNER, seat, cell)
        advance_banner(s, t, p, seat, 1, STEP_BANNER, log)
    s[RW_FRAME + s[RW_NFRAMES]] = s[RW_N]
    s[RW_NFRAMES] += 1
    if n_done > 0:
        _queue_reward(s, seat, type0, size0, chim0, log)
    if n_done > 1:
        _queue_reward(s, seat, type1, size1, chim1, log)


@njit(cache=True)
def _queue_reward(s, seat, ptype, size, chim, log):
    """Log a completed feature and queue its reward in the current frame."""
    log_event(log, EV_COMPLETE, seat, ptype, size, chim)
    if ptype != VILLA:  # CD-REWARD-9: villas pay at the end
        s[RW_KIND + s[RW_N]] = ptype
        s[RW_SIZE + s[RW_N]] = size
        s[RW_N] += 1


# Helpers


@njit(cache=True)
def _start_pass(s, t, p, pass_no, log):
    n = s[N_PLAYERS]
    s[PASS_NO] = pass_no
    s[PASS_START] = (pass_no - 1) % n  # CD-PASS-1
    s[TURN_NO] = 0
    for space in range(7):
        s[DEPOT_TAKES + space] = 0
    if pass_no > 1:
        deal_pass(s, pass_no)  # CD-PASS-2
    s[PATRICIANS_REVEALED] = 1
    log_event(log, EV_PASS_START, -1, pass_no, s[PASS_START])
    s[SEAT] = s[PASS_START]
    s[PHASE] = TURN
    if s[SOLO]:
        anna_pass_start(s, t, p, log)
        if is_anna(s, s[SEAT]) and anna_turn(s, t, p, log):  # CD-ANNA-7: Anna starts passes 2 and 4
            _end_turn(s, t, p, log)


@njit(cache=True)
def _apply_patrician(s, t, p, space, log):
    seat = s[SEAT]
    s[S_PATRICIAN + seat] = space
    log_event(log, EV_PATRICIAN, seat, space)
    s[SETUP_NEXT] += 1
    if s[SOLO]:  # CD-ANNA-5: the human places Anna's patrician too (AMB-20)
        if p[PR_ANNA_PATRICIAN_RANDOM]:
            _place_anna(s, t, p, random_free_space(s), log)
        else:
            s[PHASE] = ANNA_PATRICIAN
    elif s[SETUP_NEXT] < s[N_PLAYERS]:
        s[SEAT] = s[SETUP_NEXT]  # CD-SETUP-11: in seat order from seat 0
    else:
        _start_pass(s, t, p, 1, log)


@njit(cache=True)
def _place_anna(s, t, p, space, log):
    s[S_PATRICIAN + ANNA_SEAT] = space
    log_event(log, EV_PATRICIAN, ANNA_SEAT, space)
    _start_pass(s, t, p, 1, log)


@njit(cache=True)
def _apply_turn(s, t, p, act, log):
    seat = s[SEAT]
    move = act[A_MOVE]
    dest = act[A_SPACE]
    origin = s[S_PATRICIAN + seat]
    if move >= BREAD_TO:
        s[BREAD + seat] -= 1  # CD-TURN-7
    s[S_PATRICIAN + seat] = dest
    log_event(log, EV_MOVE, seat, origin, dest, move, act[A_TARGET])
    slot = act[A_SLOT]
    tile = take_tile(s, seat, dest, slot)
    log_event(log, EV_TAKE, seat, dest, slot, tile)
    exhaust_depot(s, dest, log)
    cell = act[A_CELL]
    if cell < 0:
        s[STORED + seat] += 1  # CD-TURN-11
        log_event(log, EV_STORE, seat, tile, 0)
    else:
        place_tile(s, t, p, seat, tile, cell, act[A_ROT], 0, log)
    _continue_turn(s, t, p, log)


@njit(cache=True)
def _continue_turn(s, t, p, log):
    if _resolve_rewards(s, t, p, log):
        return
    _end_turn(s, t, p, log)


@njit(cache=True)
def _end_turn(s, t, p, log):
    """Pass on to the next seat (CD-TURN-1), or to the pass scoring; in a solo game Anna's turns
    are played here, until the human decides again."""
    n = s[N_PLAYERS]
    while True:
        s[TURN_NO] += 1
        if s[TURN_NO] >= ROUNDS * n:
            _start_scoring(s, t, p, log)
            return
        s[SEAT] = (s[PASS_START] + s[TURN_NO]) % n
        s[PHASE] = TURN
        if not is_anna(s, s[SEAT]) or not anna_turn(s, t, p, log):
            return


@njit(cache=True)
def _remove_reward(s, i):
    for j in range(i, s[RW_N] - 1):
        s[RW_KIND + j] = s[RW_KIND + j + 1]
        s[RW_SIZE + j] = s[RW_SIZE + j + 1]
    s[RW_N] -= 1


@njit(cache=True)
def _resolve_rewards(s, t, p, log):
    """Resolve pending rewards until a decision is needed (returns True) or none are left."""
    while s[RW_NFRAMES] > 0:
        start = s[RW_FRAME + s[RW_NFRAMES] - 1]
        end = s[RW_N]
        if start == end:
            s[RW_NFRAMES] -= 1
            continue
        if end - start >= 2 and p[PR_REWARD_ORDER_FIXED] == 0 and reward_order_matters(s, p, start, end):
            s[PHASE] = REWARD_ORDER
            return True
        best = start
        for i in range(start + 1, end):
            if reward_rank(s[RW_KIND + i]) < reward_rank(s[RW_KIND + best]):
                best = i
        kind = s[RW_KIND + best]
        size = s[RW_SIZE + best]
        _remove_reward(s, best)
        if _resolve_one(s, t, p, kind, size, log):
            return True
    return False


@njit(cache=True)
def _apply_reward_order(s, t, p, index, log):
    start = s[RW_FRAME + s[RW_NFRAMES] - 1]
    kind = s[RW_KIND + start + index]
    size = s[RW_SIZE + start + index]
    _remove_reward(s, start + index)
    if _resolve_one(s, t, p, kind, size, log):
        return
    _continue_turn(s, t, p, log)


@njit(cache=True)
def _resolve_one(s, t, p, kind, size, log):
    """Pay one reward (CD-REWARD-1..8); True if it needs a decision first (craftsman, fountain)."""
    seat = s[SEAT]
    if LANDSCAPE_FIRST <= kind <= LANDSCAPE_LAST:
        goods = size - 1
        cap = p[PR_LANDSCAPE_REWARD_CAP]
        if cap > 0:
            goods = min(goods, cap)
        got = gain_goods(s, p, seat, kind - POND, goods, log)
        log_event(log, EV_GOODS, seat, kind - POND, got)
    elif kind == MERCHANT:
        returned, coins = merchant(s, p, seat, log)
        log_event(log, EV_MERCHANT, seat, returned, coins)
    elif kind == BAKER:
        log_event(log, EV_BREAD, seat, gain_bread(s, p, seat, 2, log))
    elif kind == ADMINISTRATOR:
        advance_banner(s, t, p, seat, 2, STEP_ADMINISTRATOR, log)
    elif kind == MARKET:
        log_event(log, EV_COINS, seat, gain_coins(s, p, seat, 1, log))
    elif kind == BAKERY:
        log_event(log, EV_BREAD, seat, gain_bread(s, p, seat, 1, log))
    elif kind == CRAFTSMAN:
        for i in range(N_SEALS):
            tile = s[SEAL + i]
            if tile < 0:
                continue
            if p[PR_CRAFTSMAN_OPTIONAL] or p[PR_CRAFTSMAN_STORE] or any_legal_placement(s, t, p, seat, tile):
                s[PHASE] = D_CRAFTSMAN
                return True
        # the display is empty, or (AMB-12 (c)) no seal tile can be built: no effect
        log_event(log, EV_CRAFTSMAN, seat, -1, -1)
    elif kind == FOUNTAIN:
        if p[PR_FOUNTAIN_SHORT_NONE] and s[FDECK_COUNT] < 2:
            log_event(log, EV_FOUNTAIN_DRAW, seat, 0, -1, -1)
            return False
        n = fountain_draw(s, s[FD_DRAWN: FD_DRAWN + 2])
        s[FD_NDRAWN] = n
        log_event(log, EV_FOUNTAIN_DRAW, seat, n, s[FD_DRAWN] if n > 0 else -1, s[FD_DRAWN + 1] if n > 1 else -1)
        if n == 0:
            return False
        if n == 1 and s[FOUNTAIN_N + seat] == 0:
            _keep_fountain_cards(s, seat)  # nothing to choose: keep the one card
            return False
        s[PHASE] = D_FOUNTAIN
        return True
    return False


@njit(cache=True)
def _keep_fountain_cards(s, seat):
    for i in range(s[FD_NDRAWN]):
        s[FOUNTAIN_HELD + seat * 24 + s[FOUNTAIN_N + seat]] = s[FD_DRAWN + i]
        s[FOUNTAIN_N + seat] += 1
    s[FD_NDRAWN] = 0


@njit(cache=True)
def _apply_fountain(s, t, p, index, log):
    """CD-REWARD-8: put one card (drawn or held) under the deck, keep the rest."""
    seat = s[SEAT]
    n = s[FD_NDRAWN]
    returned = -1
    if 0 <= index < n:
        returned = s[FD_DRAWN + index]
        s[FD_DRAWN + index] = s[FD_DRAWN + n - 1]
        s[FD_NDRAWN] = n - 1
    elif index >= n:
        h = index - n
        held = FOUNTAIN_HELD + seat * 24
        returned = s[held + h]
        for j in range(h, s[FOUNTAIN_N + seat] - 1):
            s[held + j] = s[held + j + 1]
        s[FOUNTAIN_N + seat] -= 1
    _keep_fountain_cards(s, seat)
    if returned >= 0:
        fountain_put_under(s, returned)
    log_event(log, EV_FOUNTAIN_RETURN, seat, returned)
    _continue_turn(s, t, p, log)


@njit(cache=True)
def _apply_craftsman(s, t, p, act, log):
    """CD-REWARD-5: build (or store) the chosen seal tile; its completions pay depth first."""
    seat = s[SEAT]
    seal = act[A_SPACE]
    if seal < 0:
        log_event(log, EV_CRAFTSMAN, seat, -1, -1)  # declined (craftsman_optional)
    else:
        tile = s[SEAL + seal]
        s[SEAL + seal] = -1
        log_event(log, EV_CRAFTSMAN, seat, seal, tile)
        if act[A_CELL] < 0:
            s[STORED + seat] += 1
            log_event(log, EV_STORE, seat, tile, 1)
        else:
            place_tile(s, t, p, seat, tile, act[A_CELL], act[A_ROT], 1, log)
    _continue_turn(s, t, p, log)


@njit(cache=True)
def _start_scoring(s, t, p, log):
    log_event(log, EV_SCORING_START, -1, s[PASS_NO])
    scoring_order(s, s[SC_ORDER: SC_ORDER + 4])  # CD-SCORING-2, computed once
    s[SC_INDEX] = 0
    _begin_scorer(s)


@njit(cache=True)
def _begin_scorer(s):
    s[SEAT] = s[SC_ORDER + s[SC_INDEX]]
    s[SC_BREAD_USED] = 0
    s[PHASE] = DISC


@njit(cache=True)
def _apply_disc(s, t, p, space, log):
    """CD-SCORING-3/4: the disc stays on the space and triggers the two cards beside it."""
    seat = s[SEAT]
    s[S_DISC + space] = seat
    s[DISCS + seat] -= 1
    s[SC_SPACE] = space
    a = s[SLOT_CARD + DISC_SLOT_A[space]]
    b = s[SLOT_CARD + DISC_SLOT_B[space]]
    s[SC_CARDS] = a
    s[SC_CARDS + 1] = b
    log_event(log, EV_DISC, seat, space, a, b)
    if card_order_matters(t, p, a, b):
        s[PHASE] = CARD_ORDER
    else:
        _begin_first_card(s, t, p, log)


@njit(cache=True)
def _begin_first_card(s, t, p, log):
    s[SC_STAGE] = 0
    count, b, k = fulfil_options(s, t, p, s[SEAT], s[SC_CARDS])
    if count == 1:
        _set_fulfil(s, b, k)
        _score_cards(s, t, p, 0, log)
    else:
        s[PHASE] = FULFIL


@njit(cache=True)
def _set_fulfil(s, b, k):
    s[SC_B] = b
    s[SC_K] = k
    for i in range(N_GOODS):
        s[SC_PAY_COINS + i] = 0


@njit(cache=True)
def _score_cards(s, t, p, pay_from, log):
    """Carry the active scorer on from a chosen (b, k): payments (D11), payout, the second card,
    the next scorer, the next pass or the final scoring. Stops at the next real choice."""
    seat = s[SEAT]
    while True:
        card = s[SC_CARDS + s[SC_STAGE]]
        k = s[SC_K]
        if is_red(t, card) and k > 0:
            for g in range(pay_from, N_GOODS):
                chosen = 0
                for j in range(g):
                    chosen += s[SC_PAY_COINS + j]
                lo, hi = payment_range(s, t, seat, card, k, g, chosen)
                if hi > lo and p[PR_CANONICAL_PAYMENT] == 0:
                    s[SC_PAY_KIND] = g
                    s[PHASE] = PAYMENT
                    return
                s[SC_PAY_COINS + g] = lo  # own goods first (CD-CARD-9)
        resolve_card(s, t, p, seat, card, s[SC_B], k, s[SC_PAY_COINS: SC_PAY_COINS + N_GOODS], log)
        if s[SC_STAGE] == 1:
            break
        s[SC_STAGE] = 1  # CD-SCORING-4: gains of the first card serve the second
        count, b, k2 = fulfil_options(s, t, p, seat, s[SC_CARDS + 1])
        if count > 1:
            s[PHASE] = FULFIL
            return
        _set_fulfil(s, b, k2)
        pay_from = 0
    s[SC_INDEX] += 1
    if s[SC_INDEX] < (1 if s[SOLO] else s[N_PLAYERS]):  # CD-ANNA-21: only the human scores
        _begin_scorer(s)
    elif s[PASS_NO] < 4:
        _start_pass(s, t, p, s[PASS_NO] + 1, log)
    else:
        final_scoring(s, t, p, log)
        s[SEAT] = -1
        s[PHASE] = OVER
