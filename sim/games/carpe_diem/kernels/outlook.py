"""The ``next_scoring`` feature: what a build adds to the best free disc space of the next scoring.

One scoring disc scores one pair of cards per pass scoring (CD-SCORING-3..5), so a build is
worth to the next scoring the change in the best pair's plan, not the sum over every card beside
a free space. A pair's plan is the DISC row's: the better card order, each card with its most
valuable (b, k) (``cards.plan_two_cards_into``), valued at 1 per VP, step, coin and bread gained,
minus goods, coins and bread paid, -4 per penalty (CD-CARD-2..7).

Only the spaces the seat can still reach count: the seats that score before it at the next
pass scoring (furthest ahead on the banner track first, CD-SCORING-2; banner positions as they
stand now) are assumed to take, one after the other, the free space whose plan is worth most
to them with what they hold now.

Cost control, so every value is exact yet cheap: the free spaces' current plans are computed
once per decision, on first use; a build re-plans only the spaces one of whose cards it can
change (a green card whose counters change, a red card when goods or coins change, any card
when bread changes); and the outcome of each distinct (resources, counters) result is cached
for the decision, since many placements of one tile complete the same things.

Arrays: ``s`` (STATE_SIZE,) int32; ``t`` (TABLES_SIZE,) int32; ``p`` (N_PARAMS,) int32;
``ctx`` (CTX_SIZE,) int64, the decision's context (``context.py``) whose ``X_DELTA`` and
``X_GOODS_GAIN`` hold the build's counter changes and goods.
"""

from bgsim.sim.borrow import njit_inline_without_refcounts, njit_without_refcounts
from bgsim.sim.games.carpe_diem.constants import MAX_P, N_COUNTERS, N_DISC_SPACES, N_GOODS
from bgsim.sim.games.carpe_diem.kernels.cards import (
    RES_BREAD,
    RES_BREAD_USED,
    RES_COINS,
    RES_SIZE,
    green_counter_mask,
    is_red,
    plan_two_cards_into,
)
from bgsim.sim.games.carpe_diem.kernels.context import (
    CACHE_ENTRIES,
    CACHE_KEY,
    CACHE_STRIDE,
    X_AFTER,
    X_CACHE,
    X_CACHE_N,
    X_COUNTS,
    X_DELTA,
    X_GOODS_GAIN,
    X_ORDER,
    X_OUTLOOK_BASE,
    X_OUTLOOK_READY,
    X_OUTLOOK_SEAT,
    X_PLAN_OUT,
    X_PLAN_TOTAL,
    X_PLAN_WORK,
    X_RES_AFTER,
    X_RES_BASE,
    X_RIVAL_COUNTS,
    X_RIVAL_RES,
    X_SPACE_VALUE,
)
from bgsim.sim.games.carpe_diem.kernels.economy import scoring_order
from bgsim.sim.games.carpe_diem.kernels.setup import DISC_SLOT_A, DISC_SLOT_B
from bgsim.sim.games.carpe_diem.state import (
    BREAD,
    COINS,
    COUNT,
    DISC,
    DISC_LIVE,
    GOODS,
    N_PLAYERS,
    SC_BREAD_USED,
    SLOT_CARD,
)

NO_SPACE = -(1 << 40)  # X_SPACE_VALUE of a space that is taken or not live


@njit_without_refcounts
def reset_outlook(s, seat, ctx):
    """Start a decision: ``seat``'s resources into ``ctx``; plans and cache not yet computed."""
    _fill_resources(s, seat, ctx, X_RES_BASE)
    ctx[X_OUTLOOK_SEAT] = seat
    ctx[X_OUTLOOK_READY] = 0
    ctx[X_CACHE_N] = 0


@njit_without_refcounts
def next_scoring(s, t, p, ctx, changed, coins, bread, merchant_):
    """Change of the best free disc space's plan value by a build whose counter changes
    (``changed``: bit c if counter c changes) and goods are in ``ctx``, which gains ``coins``
    (markets) and ``bread``, and completes a merchant lodging (``merchant_``: resolved last,
    as in AMB-11's fixed order, it turns every good into a coin, plus 1: CD-REWARD-2)."""
    if ctx[X_OUTLOOK_READY] == 0:
        _plan_spaces(s, t, p, ctx)
    goods = 0
    for g in range(N_GOODS):
        ctx[X_RES_AFTER + g] = ctx[X_RES_BASE + g] + ctx[X_GOODS_GAIN + g]
        goods += ctx[X_RES_AFTER + g]
    ctx[X_RES_AFTER + RES_COINS] = ctx[X_RES_BASE + RES_COINS] + coins
    ctx[X_RES_AFTER + RES_BREAD] = ctx[X_RES_BASE + RES_BREAD] + bread
    ctx[X_RES_AFTER + RES_BREAD_USED] = ctx[X_RES_BASE + RES_BREAD_USED]
    if merchant_:
        for g in range(N_GOODS):
            ctx[X_RES_AFTER + g] = 0
        ctx[X_RES_AFTER + RES_COINS] += goods + 1
    money = merchant_ or coins > 0  # red cards take goods and coins (CD-CARD-4)
    for g in range(N_GOODS):
        money = money or ctx[X_GOODS_GAIN + g] > 0
    if not _any_space_changes(s, t, ctx, changed, money, bread > 0):
        return 0
    entry = _cached(ctx)
    if entry >= 0:
        return ctx[X_CACHE + entry * CACHE_STRIDE + CACHE_KEY] - ctx[X_OUTLOOK_BASE]
    for c in range(N_COUNTERS):
        ctx[X_AFTER + c] = ctx[X_COUNTS + c] + ctx[X_DELTA + c]
    best = NO_SPACE
    for space in range(N_DISC_SPACES):
        value = ctx[X_SPACE_VALUE + space]
        if value == NO_SPACE:
            continue
        a = s[SLOT_CARD + DISC_SLOT_A[space]]
        b = s[SLOT_CARD + DISC_SLOT_B[space]]
        if bread > 0 or _card_changes(t, a, changed, money) or _card_changes(t, b, changed, money):
            value = _pair_value(t, p, a, b, ctx, X_AFTER, X_RES_AFTER)
        best = max(best, value)
    if best == NO_SPACE:
        best = 0
    _store(ctx, best)
    return best - ctx[X_OUTLOOK_BASE]


@njit_without_refcounts
def _plan_spaces(s, t, p, ctx):
    """Each reachable free live disc space's plan value now, and the best of them."""
    for space in range(N_DISC_SPACES):
        ctx[X_SPACE_VALUE + space] = 0 if s[DISC_LIVE + space] and s[DISC + space] < 0 else NO_SPACE
    _take_rivals_spaces(s, t, p, ctx)
    best = NO_SPACE
    for space in range(N_DISC_SPACES):
        if ctx[X_SPACE_VALUE + space] == NO_SPACE:
            continue
        a = s[SLOT_CARD + DISC_SLOT_A[space]]
        b = s[SLOT_CARD + DISC_SLOT_B[space]]
        value = _pair_value(t, p, a, b, ctx, X_COUNTS, X_RES_BASE)
        ctx[X_SPACE_VALUE + space] = value
        best = max(best, value)
    ctx[X_OUTLOOK_BASE] = 0 if best == NO_SPACE else best
    ctx[X_OUTLOOK_READY] = 1


@njit_without_refcounts
def _take_rivals_spaces(s, t, p, ctx):
    """Mark NO_SPACE the spaces the seats scoring before the deciding one would take (module doc)."""
    order = ctx[X_ORDER: X_ORDER + MAX_P]
    scoring_order(s, order)
    for i in range(s[N_PLAYERS]):
        rival = order[i]
        if rival == ctx[X_OUTLOOK_SEAT]:
            return
        _fill_resources(s, rival, ctx, X_RIVAL_RES)
        for c in range(N_COUNTERS):
            ctx[X_RIVAL_COUNTS + c] = s[COUNT + rival * N_COUNTERS + c]
        best = NO_SPACE
        best_space = -1
        for space in range(N_DISC_SPACES):
            if ctx[X_SPACE_VALUE + space] == NO_SPACE:
                continue
            a = s[SLOT_CARD + DISC_SLOT_A[space]]
            b = s[SLOT_CARD + DISC_SLOT_B[space]]
            value = _pair_value(t, p, a, b, ctx, X_RIVAL_COUNTS, X_RIVAL_RES)
            if value > best:
                best = value
                best_space = space
        if best_space >= 0:
            ctx[X_SPACE_VALUE + best_space] = NO_SPACE


@njit_without_refcounts
def _fill_resources(s, seat, ctx, at):
    """``seat``'s resources into ``ctx[at:]`` in ``cards.resources``' order (no bread used yet)."""
    for g in range(N_GOODS):
        ctx[at + g] = s[GOODS + seat * N_GOODS + g]
    ctx[at + RES_COINS] = s[COINS + seat]
    ctx[at + RES_BREAD] = s[BREAD + seat]
    ctx[at + RES_BREAD_USED] = s[SC_BREAD_USED]


@njit_without_refcounts
def _pair_value(t, p, a, b, ctx, counts_at, res_at):
    """Plan value of the pair (a, b) in its better order, counters and resources read from ``ctx``."""
    counts = ctx[counts_at: counts_at + N_COUNTERS]
    res = ctx[res_at: res_at + RES_SIZE]
    work = ctx[X_PLAN_WORK: X_PLAN_WORK + RES_SIZE]
    out = ctx[X_PLAN_OUT: X_PLAN_OUT + 9]
    total = ctx[X_PLAN_TOTAL: X_PLAN_TOTAL + 9]
    best = 0
    for order in range(2):  # one call site: the plan is compiled into this kernel once
        first, second = (a, b) if order == 0 else (b, a)
        value = plan_two_cards_into(t, p, first, second, counts, res, total, work, out)
        best = value if order == 0 else max(best, value)
    return best


@njit_inline_without_refcounts
def _card_changes(t, card, changed, money):
    if is_red(t, card):
        return money
    return (green_counter_mask(t, card) & changed) != 0


@njit_inline_without_refcounts
def _any_space_changes(s, t, ctx, changed, money, bread):
    for space in range(N_DISC_SPACES):
        if ctx[X_SPACE_VALUE + space] == NO_SPACE:
            continue
        if bread:
            return True
        if _card_changes(t, s[SLOT_CARD + DISC_SLOT_A[space]], changed, money):
            return True
        if _card_changes(t, s[SLOT_CARD + DISC_SLOT_B[space]], changed, money):
            return True
    return False


@njit_inline_without_refcounts
def _key_at(ctx, i):
    """Entry ``i`` of the cache key: resources after (goods, coins, bread), then counter changes."""
    if i < 6:
        return ctx[X_RES_AFTER + i]
    return ctx[X_DELTA + i - 6]


@njit_inline_without_refcounts
def _cached(ctx):
    """Cache entry holding this build's key, or -1."""
    for e in range(min(ctx[X_CACHE_N], CACHE_ENTRIES)):
        base = X_CACHE + e * CACHE_STRIDE
        same = True
        for i in range(CACHE_KEY):
            if ctx[base + i] != _key_at(ctx, i):
                same = False
                break
        if same:
            return e
    return -1


@njit_without_refcounts
def _store(ctx, value):
    """Keep this build's key and plan value (the oldest entry goes once the cache is full)."""
    base = X_CACHE + (ctx[X_CACHE_N] % CACHE_ENTRIES) * CACHE_STRIDE
    for i in range(CACHE_KEY):
        ctx[base + i] = _key_at(ctx, i)
    ctx[base + CACHE_KEY] = value
    ctx[X_CACHE_N] += 1
