"""Scoring-card kernels (CD-CARD): fulfilments, payments, payouts, and the plan estimates
shown as features of the DISC and CARD_ORDER decisions.

Resources travel as a (7,) int64 array ``res``: goods fish, herb, grape, chicken, then coins,
bread, and bread fulfilments already used in this pass scoring.
"""

import numpy as np
from bgsim.sim.borrow import njit_inline_without_refcounts, njit_without_refcounts
from bgsim.sim.games.carpe_diem.constants import (
    N_COUNTERS,
    N_GOODS,
    PAY_BREAD,
    PAY_COINS,
    PAY_STEPS,
    PAY_VP,
)
from bgsim.sim.games.carpe_diem.events import EV_CARD, log_event
from bgsim.sim.games.carpe_diem.kernels.economy import (
    STEP_CARD,
    add_vp,
    advance_banner,
    gain_bread,
    gain_coins,
)
from bgsim.sim.games.carpe_diem.param_slots import (
    PR_BREAD_COUNTS,
    PR_BREAD_PER_CARD,
    PR_BREAD_PER_SCORING,
    PR_RED_MIN_ONE,
)
from bgsim.sim.games.carpe_diem.state import (
    BREAD,
    CARD_LOG,
    CARD_LOG_FIELDS,
    CARDLOG,
    CARDLOG_N,
    COINS,
    COUNT,
    GOODS,
    PASS_NO,
    PENALTIES,
    SC_BREAD_USED,
    VP_CARDS,
)
from bgsim.sim.games.carpe_diem.tables import (
    T_CARD_GIVE,
    T_CARD_HAVE_IDX,
    T_CARD_HAVE_QTY,
    T_CARD_PAY,
    T_CARD_RED,
)
from numba import njit

RES_COINS = N_GOODS
RES_BREAD = N_GOODS + 1
RES_BREAD_USED = N_GOODS + 2
RES_SIZE = N_GOODS + 3

# Outcome of one (b, k) on one card: a (9,) int64 array with these entries.
O_VP = 0  # payout VP minus 4 per penalty
O_STEPS = 1
O_COINS = 2  # coins gained
O_BREAD = 3  # bread gained
O_GOODS_PAID = 4
O_COINS_PAID = 5
O_BREAD_PAID = 6
O_PENALTY = 7
O_FULFIL = 8
O_SIZE = 9


@njit(cache=True)
def resources(s, seat):
    res = np.zeros(RES_SIZE, dtype=np.int64)
    for k in range(N_GOODS):
        res[k] = s[GOODS + seat * N_GOODS + k]
    res[RES_COINS] = s[COINS + seat]
    res[RES_BREAD] = s[BREAD + seat]
    res[RES_BREAD_USED] = s[SC_BREAD_USED]
    return res


@njit(cache=True)
def counters(s, seat):
    out = np.zeros(N_COUNTERS, dtype=np.int64)
    for i in range(N_COUNTERS):
        out[i] = s[COUNT + seat * N_COUNTERS + i]
    return out


@njit_inline_without_refcounts
def is_red(t, card):
    return t[T_CARD_RED + card] == 1


@njit_inline_without_refcounts
def green_k(t, card, counts):
    """Fulfilments of a green card: the minimum over its components of count // quantity (CD-CARD-3)."""
    return green_k_from(t, card, counts, 0)


@njit_inline_without_refcounts
def green_k_from(t, card, values, offset):
    """:func:`green_k` with counter c read from ``values[offset + c]`` (any 1-D int array)."""
    k = 1 << 30
    for j in range(3):
        idx = t[T_CARD_HAVE_IDX + card * 3 + j]
        if idx < 0:
            break
        k = min(k, values[offset + idx] // t[T_CARD_HAVE_QTY + card * 3 + j])
    return k


@njit_inline_without_refcounts
def red_feasible(t, card, res, k):
    """Can the goods and coins in ``res`` pay ``k`` fulfilments of a red card (CD-CARD-4)?"""
    short = 0
    for i in range(N_GOODS):
        short += max(0, k * t[T_CARD_GIVE + card * N_GOODS + i] - res[i])
    return res[RES_COINS] >= short


@njit_inline_without_refcounts
def red_kmax(t, card, res):
    per = 0
    total = res[RES_COINS]
    for i in range(N_GOODS):
        per += t[T_CARD_GIVE + card * N_GOODS + i]
        total += res[i]
    k = total // per
    while k > 0 and not red_feasible(t, card, res, k):
        k -= 1
    return k


@njit_inline_without_refcounts
def bread_max(p, res):
    """Bread fulfilments possible on one card: 3 bread each, within the AMB-8 caps."""
    b = res[RES_BREAD] // 3
    if p[PR_BREAD_PER_CARD] >= 0:
        b = min(b, p[PR_BREAD_PER_CARD])
    if p[PR_BREAD_PER_SCORING] >= 0:
        b = min(b, max(0, p[PR_BREAD_PER_SCORING] - res[RES_BREAD_USED]))
    return b


@njit_inline_without_refcounts
def row_allowed(t, p, card, res, b, k, kmax, bmax):
    """AMB-9: with red_card_min_one_if_able, f = 0 is illegal on a red card that could be fulfilled."""
    if p[PR_RED_MIN_ONE] and is_red(t, card) and b + k == 0 and (kmax > 0 or bmax > 0):
        return False
    return True


@njit_inline_without_refcounts
def outcome(t, p, card, res, b, k, out):
    """The outcome of ``b`` bread and ``k`` normal fulfilments, paid canonically (own goods first)."""
    for i in range(O_SIZE):
        out[i] = 0
    out[O_BREAD_PAID] = 3 * b
    if is_red(t, card):
        for i in range(N_GOODS):
            need = k * t[T_CARD_GIVE + card * N_GOODS + i]
            own = min(need, res[i])
            out[O_GOODS_PAID] += own
            out[O_COINS_PAID] += need - own
    f = k + b
    penalty = f == 0 if p[PR_BREAD_COUNTS] else k == 0
    pay = T_CARD_PAY + card * 4
    if penalty:
        out[O_PENALTY] = 1
        out[O_VP] = -4
    if f > 0:
        out[O_VP] += f * t[pay + PAY_VP]
        out[O_COINS] = f * t[pay + PAY_COINS]
        out[O_BREAD] = f * t[pay + PAY_BREAD]
        out[O_STEPS] = f * t[pay + PAY_STEPS]
    out[O_FULFIL] = f


@njit_inline_without_refcounts
def _outcome_value_of(t, p, card, res, b, k, red):
    """``outcome_value`` of ``outcome(t, p, card, res, b, k)`` without writing the outcome (``red``:
    ``is_red(t, card)``)."""
    value = -3 * b  # bread paid
    if red:
        for i in range(N_GOODS):
            value -= k * t[T_CARD_GIVE + card * N_GOODS + i]  # goods and coins paid: own first, then coins
    f = k + b
    penalty = f == 0 if p[PR_BREAD_COUNTS] else k == 0
    if penalty:
        value -= 4
    if f > 0:
        pay = T_CARD_PAY + card * 4
        value += f * (t[pay + PAY_VP] + t[pay + PAY_COINS] + t[pay + PAY_BREAD] + t[pay + PAY_STEPS])
    return value


@njit_inline_without_refcounts
def outcome_value(out):
    """Plan value in the common unit: VP, steps, coins, bread and goods count 1 each."""
    return (out[O_VP] + out[O_STEPS] + out[O_COINS] + out[O_BREAD]
            - out[O_GOODS_PAID] - out[O_COINS_PAID] - out[O_BREAD_PAID])


@njit_inline_without_refcounts
def spend(t, card, res, out, b):
    """Update ``res`` by the outcome ``out`` (canonical payment) of ``b`` bread fulfilments."""
    if is_red(t, card):
        k = out[O_FULFIL] - b
        for i in range(N_GOODS):
            need = k * t[T_CARD_GIVE + card * N_GOODS + i]
            res[i] -= min(need, res[i])
    res[RES_COINS] += out[O_COINS] - out[O_COINS_PAID]
    res[RES_BREAD] += out[O_BREAD] - out[O_BREAD_PAID]
    res[RES_BREAD_USED] += b


@njit_inline_without_refcounts
def best_outcome(t, p, card, counts, res, out):
    """The most valuable (b, k) for ``card`` (smallest b, k on ties); fills ``out``, returns b.
    The rows are compared by ``_outcome_value_of``; only the best one is written out."""
    bmax = bread_max(p, res)
    red = is_red(t, card)
    kmax = red_kmax(t, card, res) if red else green_k(t, card, counts)
    best = -(1 << 40)
    best_b = -1
    best_k = -1
    for b in range(bmax + 1):
        k_lo = 0 if red else kmax
        for k in range(k_lo, kmax + 1):
            if not row_allowed(t, p, card, res, b, k, kmax, bmax):
                continue
            v = _outcome_value_of(t, p, card, res, b, k, red)
            if v > best:
                best = v
                best_b = b
                best_k = k
    if best_b < 0:
        return 0
    outcome(t, p, card, res, best_b, best_k, out)
    return best_b


@njit(cache=True)
def plan_two_cards(t, p, first, second, counts, res, total):
    """Resolve ``first`` then ``second`` greedily from ``res``; sum the outcomes into ``total``."""
    work = np.empty(RES_SIZE, dtype=np.int64)
    out = np.empty(O_SIZE, dtype=np.int64)
    return plan_two_cards_into(t, p, first, second, counts, res, total, work, out)


@njit_inline_without_refcounts
def plan_two_cards_into(t, p, first, second, counts, res, total, work, out):
    """:func:`plan_two_cards` with its scratch given: ``work`` (RES_SIZE,) and ``out`` (O_SIZE,) int64."""
    for i in range(RES_SIZE):
        work[i] = res[i]
    for i in range(O_SIZE):
        total[i] = 0
        out[i] = 0
    for card in (first, second):
        b = best_outcome(t, p, card, counts, work, out)
        spend(t, card, work, out, b)
        for i in range(O_SIZE):
            total[i] += out[i]
    return outcome_value(total)


@njit_without_refcounts
def fill_resources(s, seat, res):
    """:func:`resources` into ``res`` (RES_SIZE,) int64."""
    for k in range(N_GOODS):
        res[k] = s[GOODS + seat * N_GOODS + k]
    res[RES_COINS] = s[COINS + seat]
    res[RES_BREAD] = s[BREAD + seat]
    res[RES_BREAD_USED] = s[SC_BREAD_USED]


@njit_without_refcounts
def fill_counters(s, seat, out):
    """:func:`counters` into ``out`` (N_COUNTERS,) int64."""
    for i in range(N_COUNTERS):
        out[i] = s[COUNT + seat * N_COUNTERS + i]


@njit_without_refcounts
def resolve_card(s, t, p, seat, card, b, k, pay_coins, log):
    """Pay and pay out one triggered card (CD-CARD-2..8). ``pay_coins`` (4,): units paid by coin."""
    s[BREAD + seat] -= 3 * b
    s[SC_BREAD_USED] += b
    goods_paid = 0
    coins_paid = 0
    if is_red(t, card):
        for i in range(N_GOODS):
            need = k * t[T_CARD_GIVE + card * N_GOODS + i]
            by_coin = pay_coins[i]
            s[GOODS + seat * N_GOODS + i] -= need - by_coin
            s[COINS + seat] -= by_coin
            goods_paid += need - by_coin
            coins_paid += by_coin
    f = k + b
    penalty = f == 0 if p[PR_BREAD_COUNTS] else k == 0
    pay = T_CARD_PAY + card * 4
    vp = 0
    if penalty:
        vp += add_vp(s, p, seat, -4)  # CD-CARD-6
        s[PENALTIES + seat] += 1
    coins = 0
    bread = 0
    steps = 0
    if f > 0:
        vp += add_vp(s, p, seat, f * t[pay + PAY_VP])
        coins = gain_coins(s, p, seat, f * t[pay + PAY_COINS], log)
        bread = gain_bread(s, p, seat, f * t[pay + PAY_BREAD], log)
        steps = f * t[pay + PAY_STEPS]
    s[VP_CARDS + seat] += vp
    log_event(log, EV_CARD, seat, card, k, b, vp, coins, bread, steps, goods_paid, coins_paid, 1 if penalty else 0)
    if steps > 0:
        advance_banner(s, t, p, seat, steps, STEP_CARD, log)
    n = s[CARDLOG_N + seat]
    if n < CARD_LOG:
        row = CARDLOG + (seat * CARD_LOG + n) * CARD_LOG_FIELDS
        s[row] = s[PASS_NO]
        s[row + 1] = card
        s[row + 2] = k
        s[row + 3] = b
        s[row + 4] = vp
        s[row + 5] = coins
        s[row + 6] = bread
        s[row + 7] = steps
        s[row + 8] = 1 if penalty else 0
        s[CARDLOG_N + seat] = n + 1


@njit_without_refcounts
def green_counter_mask(t, card):
    """Bit c set if the green ``card`` counts counter c (CD-CARD-3)."""
    mask = 0
    for j in range(3):
        idx = t[T_CARD_HAVE_IDX + card * 3 + j]
        if idx < 0:
            break
        mask |= 1 << idx
    return mask
