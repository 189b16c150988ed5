"""The rules as a state machine: apply one action, then run the game on to the next decision.

A round is build phase -> three auctions -> scoring -> draw phase (CAP-SETUP-12); decisions with
a single legal row are applied here without asking (a seat without cards passes and bids 0, an
item with one free place goes there, a draw with one pile and no choice to stop is taken).
"""

from bgsim.sim.borrow import njit_without_refcounts
from bgsim.sim.games.capitol.decisions import (
    A_CARD,
    A_KIND,
    A_OP,
    A_X,
    A_Y,
    A_Z,
    ALLOC_ADD1,
    ALLOC_ADD1_ADD1,
    ALLOC_ADD1_NEW,
    ALLOC_ADD2,
    ALLOC_NEW1,
    ALLOC_NEW1_NEW1,
    ALLOC_NEW2,
    BID,
    BUILD,
    DISCARD,
    DRAW,
    OP_ADD,
    OP_PASS,
    OP_PERMIT,
    OP_ROOF,
    OP_STONE,
    OP_TAKE,
    OVER,
    PLACE,
)
from bgsim.sim.games.capitol.events import (
    EV_AUCTION,
    EV_BID,
    EV_BONUS,
    EV_DRAW,
    EV_DRAW_STOP,
    EV_END,
    EV_NO_SPACE,
    EV_NULL,
    EV_PASS,
    EV_PAY,
    EV_PERMIT,
    EV_PLACE_ITEM,
    EV_PREFECTURE,
    EV_REMOVED,
    EV_ROOF,
    EV_ROUND,
    EV_SCORE,
    EV_SCORING,
    EV_STONE,
    EV_TURNOVER,
    EV_WIN,
    log_event,
)
from bgsim.sim.games.capitol.kernels.board import (
    amphitheatre_draws,
    item_fits,
    item_gain,
    n_prefectures,
    place_points,
    rank_masks,
    temple_factor,
)
from bgsim.sim.games.capitol.param_slots import (
    PR_BASE_OPTIONAL,
    PR_BONUS_OPTIONAL,
    PR_CATCH_UP,
    PR_DISCARD_ORDER,
    PR_FINAL_TIEBREAK,
    PR_HAND_LIMIT,
    PR_ITEM_POINTS,
    PR_REVEAL_VALUES,
    PR_ZERO_BID,
)
from bgsim.sim.games.capitol.state import (
    AMPHITHEATRE,
    AUCTION,
    AUCTION_ITEMS,
    BASE_DRAWS,
    BID_IN,
    BID_N,
    BID_SUM,
    BIDDER,
    BIDS,
    BONUS_DRAWS,
    BONUS_LEFT,
    CARDS_PLAYED,
    CLASS_TYPE,
    CLASS_VALUE,
    CONSUL,
    DECISIONS,
    DISCARD_LEFT,
    DRAWER,
    DRAWS_LEFT,
    FIN,
    FIRSTS,
    FOUNTAIN,
    FOUNTAINS,
    FREE,
    HAND,
    HAND_TYPE,
    HMAX,
    HOUSES,
    ITEM_DRAWS,
    ITEM_POINTS,
    KNOWN,
    LARGE,
    LOWEST,
    MAX_P,
    N_CARDS,
    N_CLASSES,
    N_PLAYERS,
    N_TYPES,
    NULL_PLAYS,
    PASSED,
    PHASE,
    PILE,
    PILE_DISCARD,
    PILE_DRAW,
    PILE_HEAD,
    PILE_SEEN,
    PLACED,
    PRICE,
    PTS_FOUNTAIN,
    PTS_ITEM,
    PTS_MAJORITY,
    PTS_TEMPLE,
    QCAP,
    RANK,
    ROOFS,
    ROUND,
    ROUND_PTS,
    ROUNDS,
    SCORE,
    SEAT,
    SECONDS,
    SHAPE,
    STONES,
    SUPPLY,
    TALLEST,
    TEMPLE,
    TEMPLE_ROUND,
    TIE_WINS,
    TIEBREAK,
    TOP,
    UNFIN,
    WINNER,
    WORTH,
)
from bgsim.sim.games.capitol.state import BID as BID_STACK

ALL_SEATS = 15  # PILE_SEEN bits: every seat knows the entry

# Automatic steps between decisions. Each step function returns the next step (DECIDE: a decision
# is pending, or the game is over); ``run`` drives them in a loop, because numba's cache cannot
# hold functions that call each other in a circle.
DECIDE = 0
STEP_START_ROUND = 1
STEP_SETTLE_BUILD = 2
STEP_START_AUCTION = 3
STEP_SETTLE_BID = 4
STEP_RESOLVE = 5
STEP_NEXT_AUCTION = 6
STEP_SCORE = 7
STEP_START_DRAWER = 8
STEP_SETTLE_DRAW = 9
STEP_NEXT_DRAWER = 10


# --- cards


@njit_without_refcounts
def hand_size(s, seat):
    return s[HAND_TYPE + seat * N_TYPES] + s[HAND_TYPE + seat * N_TYPES + 1] + s[HAND_TYPE + seat * N_TYPES + 2]


@njit_without_refcounts
def _discard(s, k, seen):
    """Card class ``k`` goes face down on its type's discard pile (CAP-DRAW-2); ``seen``: PILE_SEEN bits."""
    kind = CLASS_TYPE[k]
    i = (s[PILE_HEAD + kind] + s[PILE_DRAW + kind] + s[PILE_DISCARD + kind]) % QCAP
    s[PILE + kind * QCAP + i] = k
    s[PILE_SEEN + kind * QCAP + i] = seen
    s[PILE_DISCARD + kind] += 1


@njit_without_refcounts
def _forget_played(s, p, seat, k):
    """What the other seats know of ``seat``'s hand after it plays class ``k`` face down (AMB-14).

    ``known`` is a lower bound per class of the drawn cards still in the hand. With the values
    shown, one card of class ``k`` may be gone; with only the type public, any known class of
    that type may be the one."""
    if p[PR_REVEAL_VALUES] == 1:
        if s[KNOWN + seat * N_CLASSES + k] > 0:
            s[KNOWN + seat * N_CLASSES + k] -= 1
        return
    kind = CLASS_TYPE[k]
    for c in range(N_CLASSES):
        if CLASS_TYPE[c] == kind and s[KNOWN + seat * N_CLASSES + c] > 0:
            s[KNOWN + seat * N_CLASSES + c] -= 1


@njit_without_refcounts
def _take_from_hand(s, seat, k):
    s[HAND + seat * N_CLASSES + k] -= 1
    s[HAND_TYPE + seat * N_TYPES + CLASS_TYPE[k]] -= 1


# --- apply


@njit_without_refcounts
def apply_action(s, t, p, action, log):
    """Apply one legal action row ((N_ACTION_FIELDS,) int32) to ``s`` and run on to the next decision."""
    s[DECISIONS] += 1
    kind = action[A_KIND]
    step = DECIDE
    if kind == BUILD:
        step = _apply_build(s, t, p, action, log)
    elif kind == BID:
        step = _apply_bid(s, action)
    elif kind == PLACE:
        step = _place_item(s, action[A_X], log)
    elif kind == DRAW:
        step = _apply_draw(s, action, log)
    elif kind == DISCARD:
        step = _apply_discard(s, t, p, action[A_CARD], log)
    run(s, t, p, step, log)


@njit_without_refcounts
def run(s, t, p, step, log):
    """Take automatic steps from ``step`` until a decision is pending or the game is over."""
    while step != DECIDE:
        if step == STEP_START_ROUND:
            step = _start_round(s, log)
        elif step == STEP_SETTLE_BUILD:
            step = _settle_build(s, log)
        elif step == STEP_START_AUCTION:
            step = _start_auction(s, t, p, log)
        elif step == STEP_SETTLE_BID:
            step = _settle_bid(s)
        elif step == STEP_RESOLVE:
            step = _resolve_auction(s, t, p, log)
        elif step == STEP_NEXT_AUCTION:
            step = _next_auction(s)
        elif step == STEP_SCORE:
            step = _score_round(s, t, p, log)
        elif step == STEP_START_DRAWER:
            step = _start_drawer(s, t, p, log)
        elif step == STEP_SETTLE_DRAW:
            step = _settle_draw(s, p, log)
        else:
            step = _next_drawer(s)


@njit_without_refcounts
def start_game(s, t, p, log):
    """Run a dealt game to its first decision: round 1 begins (CAP-SETUP-12)."""
    run(s, t, p, STEP_START_ROUND, log)


# --- build phase (CAP-BUILD)


@njit_without_refcounts
def _start_round(s, log):
    """CAP-BUILD-1: the build phase starts with the consul."""
    log_event(log, EV_ROUND, -1, s[ROUND], s[CONSUL])
    for seat in range(MAX_P):
        s[PASSED + seat] = 0
    s[PHASE] = BUILD
    s[SEAT] = s[CONSUL]
    return STEP_SETTLE_BUILD


@njit_without_refcounts
def _settle_build(s, log):
    """From the seat in SEAT on, find the next seat to build: it has not passed (CAP-BUILD-1);
    one with no cards passes at once (CAP-BUILD-4). All passed: the auctions (CAP-BUILD-18)."""
    n = s[N_PLAYERS]
    seat = s[SEAT]
    for _ in range(n + 1):
        if s[PASSED + seat] == 0:
            if hand_size(s, seat) > 0:
                s[SEAT] = seat
                return DECIDE
            s[PASSED + seat] = 1
            log_event(log, EV_PASS, seat)
        seat = (seat + 1) % n
    return STEP_START_AUCTION


@njit_without_refcounts
def _apply_build(s, t, p, action, log):
    seat = s[SEAT]
    op = action[A_OP]
    if op == OP_PASS:  # CAP-BUILD-3
        s[PASSED + seat] = 1
        log_event(log, EV_PASS, seat)
    else:
        k = action[A_CARD]
        kind = CLASS_TYPE[k]
        _take_from_hand(s, seat, k)
        _forget_played(s, p, seat, k)
        _discard(s, k, ALL_SEATS if p[PR_REVEAL_VALUES] == 1 else 1 << seat)  # CAP-BUILD-7
        s[CARDS_PLAYED + seat * N_TYPES + kind] += 1
        if op == OP_STONE:
            _allocate_stones(s, seat, action[A_X], action[A_Y], action[A_Z])
            log_event(log, EV_STONE, seat, k, action[A_X], action[A_Y], action[A_Z], s[SUPPLY])
        elif op == OP_ROOF:  # CAP-BUILD-10
            h = action[A_X]
            shape = action[A_Y]
            s[UNFIN + seat * (HMAX + 1) + h] -= 1
            s[FIN + (seat * 2 + shape) * (HMAX + 1) + h] += 1
            s[ROOFS + seat * 2 + shape] -= 1
            log_event(log, EV_ROOF, seat, k, h, shape)
        elif op == OP_PERMIT:  # CAP-BUILD-12
            _place_house(s, seat, action[A_X], action[A_Y], action[A_Z])
            log_event(log, EV_PERMIT, seat, k, action[A_X], action[A_Y], action[A_Z])
        else:  # OP_NULL, CAP-BUILD-5
            s[NULL_PLAYS + seat] += 1
            log_event(log, EV_NULL, seat, k)
    s[SEAT] = (seat + 1) % s[N_PLAYERS]
    return STEP_SETTLE_BUILD


@njit_without_refcounts
def _allocate_stones(s, seat, alloc, y, z):
    """CAP-BUILD-8: the stones taken go at once onto unfinished houses or start new ones."""
    u = UNFIN + seat * (HMAX + 1)
    if alloc == ALLOC_ADD2:
        s[u + y] -= 1
        s[u + y + 2] += 1
        s[SUPPLY] -= 2
    elif alloc == ALLOC_ADD1_ADD1:
        s[u + y] -= 1
        s[u + y + 1] += 1
        s[u + z] -= 1
        s[u + z + 1] += 1
        s[SUPPLY] -= 2
    elif alloc == ALLOC_ADD1_NEW:
        s[u + y] -= 1
        s[u + y + 1] += 1
        s[u + 1] += 1
        s[SUPPLY] -= 2
    elif alloc == ALLOC_NEW1_NEW1:
        s[u + 1] += 2
        s[SUPPLY] -= 2
    elif alloc == ALLOC_NEW2:
        s[u + 2] += 1
        s[SUPPLY] -= 2
    elif alloc == ALLOC_ADD1:
        s[u + y] -= 1
        s[u + y + 1] += 1
        s[SUPPLY] -= 1
    elif alloc == ALLOC_NEW1:
        s[u + 1] += 1
        s[SUPPLY] -= 1


@njit_without_refcounts
def _place_house(s, seat, h, shape, pref):
    """A finished house leaves the area for a small space of ``pref`` (CAP-BUILD-12, -17)."""
    s[FIN + (seat * 2 + shape) * (HMAX + 1) + h] -= 1
    s[FREE + pref] -= 1
    s[HOUSES + pref] += 1
    s[SHAPE + pref] = shape
    if h > s[TALLEST + pref]:
        s[TALLEST + pref] = h
    s[STONES + pref * MAX_P + seat] += h
    if h > s[TOP + pref * MAX_P + seat]:
        s[TOP + pref * MAX_P + seat] = h


# --- auction phase (CAP-AUCTION)


@njit_without_refcounts
def _start_auction(s, t, p, log):
    """CAP-AUCTION-1: the next item of the track; AMB-17 an item with no free place is removed, and an
    item taken off the track before the game (an ablation, marked by a winner of -1 at the deal) is
    not auctioned."""
    a = s[AUCTION]
    item = AUCTION_ITEMS[a]
    log_event(log, EV_AUCTION, -1, a, item)
    if s[WINNER + a] == -1:
        log_event(log, EV_REMOVED, -1, a, 3)
        return STEP_NEXT_AUCTION
    fits = 0
    for pref in range(n_prefectures(t)):
        fits += item_fits(s, t, pref, item)
    if fits == 0:
        s[WINNER + a] = -1
        log_event(log, EV_NO_SPACE, -1, a, item)
        return STEP_NEXT_AUCTION
    s[BIDDER] = 0
    s[PHASE] = BID
    s[SEAT] = s[CONSUL]
    _rate_item(s, t, p, item)
    return STEP_SETTLE_BID


@njit_without_refcounts
def _rate_item(s, t, p, item):
    """Public facts the bid features read, fixed for the whole auction: each seat's best gain from
    the item, and the seat that would win a tie (the unique lowest score, CAP-AUCTION-7)."""
    n = s[N_PLAYERS]
    lowest = -1
    for seat in range(n):
        best = 0
        for pref in range(n_prefectures(t)):
            if item_fits(s, t, pref, item):
                gain = item_gain(s, p, pref, item, seat)
                if gain > best:
                    best = gain
        s[WORTH + seat] = best
        unique = True
        for other in range(n):
            if other != seat and s[SCORE + other] <= s[SCORE + seat]:
                unique = False
        if unique:
            lowest = seat
    s[LOWEST] = lowest


@njit_without_refcounts
def bid_cards_left(s, seat):
    """Cards of ``seat``'s hand not yet in its bid."""
    return hand_size(s, seat) - s[BID_N + seat]


@njit_without_refcounts
def _settle_bid(s):
    """The seat in SEAT bids unless it has no card left to add (its bid is then complete);
    when every seat has bid, the reveal (CAP-AUCTION-4)."""
    n = s[N_PLAYERS]
    while s[BIDDER] < n:
        seat = s[SEAT]
        if bid_cards_left(s, seat) > 0:
            return DECIDE
        s[BIDDER] += 1
        s[SEAT] = (seat + 1) % n
    return STEP_RESOLVE


@njit_without_refcounts
def _apply_bid(s, action):
    seat = s[SEAT]
    if action[A_OP] == OP_ADD:  # CAP-AUCTION-3: one more card above the stop card
        k = action[A_CARD]
        s[BID_STACK + seat * N_CARDS + s[BID_N + seat]] = k
        s[BID_N + seat] += 1
        s[BID_SUM + seat] += CLASS_VALUE[k]
        s[BID_IN + seat * N_CLASSES + k] += 1
    else:  # the stop card: the bid is complete
        s[BIDDER] += 1
        s[SEAT] = (seat + 1) % s[N_PLAYERS]
    return STEP_SETTLE_BID


@njit_without_refcounts
def _resolve_auction(s, t, p, log):
    """CAP-AUCTION-4..8: the highest bid wins; a tie goes to the unique lowest score, else nobody."""
    n = s[N_PLAYERS]
    a = s[AUCTION]
    best = 0
    for seat in range(n):
        s[BIDS + a * MAX_P + seat] = s[BID_SUM + seat]
        log_event(log, EV_BID, seat, a, s[BID_SUM + seat], s[BID_N + seat])
        if s[BID_SUM + seat] > best:
            best = s[BID_SUM + seat]
    for seat in range(n):  # the cards above the stop card are seen by all (CAP-AUCTION-4)
        for k in range(N_CLASSES):
            shown = s[BID_IN + seat * N_CLASSES + k]
            if shown > s[KNOWN + seat * N_CLASSES + k]:
                s[KNOWN + seat * N_CLASSES + k] = shown
    tied = 0
    n_tied = 0
    for seat in range(n):
        if s[BID_SUM + seat] == best:
            tied |= 1 << seat
            n_tied += 1
    winner = -1
    reason = 0
    if best == 0 and p[PR_ZERO_BID] == 0:  # AMB-5 remove
        log_event(log, EV_REMOVED, -1, a, 1)
    elif n_tied == 1:  # CAP-AUCTION-6
        for seat in range(n):
            if (tied >> seat) & 1:
                winner = seat
    elif p[PR_CATCH_UP] == 1:  # CAP-AUCTION-7, AMB-4: the unique lowest score among the tied
        low = 1 << 30
        n_low = 0
        for seat in range(n):
            if (tied >> seat) & 1:
                if s[SCORE + seat] < low:
                    low = s[SCORE + seat]
                    n_low = 1
                    winner = seat
                elif s[SCORE + seat] == low:
                    n_low += 1
        if n_low > 1:
            winner = -1
        reason = 2 if best == 0 else 1
        if winner < 0:
            log_event(log, EV_REMOVED, -1, a, 2)
    else:
        log_event(log, EV_REMOVED, -1, a, 2)
    s[WINNER + a] = winner
    if winner < 0:
        _clear_bids(s)
        return STEP_NEXT_AUCTION
    s[PRICE + a] = best
    if reason == 1:
        s[TIE_WINS + winner] += 1
    log_event(log, EV_WIN, winner, a, best, reason, _score_item(s, p, a, winner))
    order = p[PR_DISCARD_ORDER]
    if order == 1 and _distinct_bid_classes(s, winner) > 1:  # AMB-13 winner_choice: D5
        s[DISCARD_LEFT] = s[BID_N + winner]
        s[PHASE] = DISCARD
        s[SEAT] = winner
        return DECIDE
    if order == 2 or order == 1:  # canonical: ascending value, then colour
        for v in range(1, 9):
            for k in range(N_CLASSES):
                if CLASS_VALUE[k] == v:
                    for _ in range(s[BID_IN + winner * N_CLASSES + k]):
                        _pay(s, winner, k, log)
    else:  # stack_order: top of the stack first
        for i in range(s[BID_N + winner]):
            _pay(s, winner, s[BID_STACK + winner * N_CARDS + i], log)
    return _finish_payment(s, t, winner, log)


@njit_without_refcounts
def _score_item(s, p, a, winner):
    """CAP-VAR-1: the winner of item ``a`` scores its ``item_points`` at once (0 by the rules), so a
    later tied bid (CAP-AUCTION-7) already reads the new score. Returns the points."""
    pts = p[PR_ITEM_POINTS + a]
    s[SCORE + winner] += pts
    s[PTS_ITEM + winner] += pts
    s[ITEM_POINTS + a] += pts  # the item's payoff in the records counts them too
    return pts


@njit_without_refcounts
def _clear_bids(s):
    """Every bid back in its hand (CAP-AUCTION-6): the stacks are empty until the next auction."""
    for seat in range(MAX_P):
        for i in range(s[BID_N + seat]):
            s[BID_STACK + seat * N_CARDS + i] = 0
        s[BID_N + seat] = 0
        s[BID_SUM + seat] = 0
        for k in range(N_CLASSES):
            s[BID_IN + seat * N_CLASSES + k] = 0
    s[DISCARD_LEFT] = 0


@njit_without_refcounts
def _distinct_bid_classes(s, seat):
    m = 0
    for k in range(N_CLASSES):
        if s[BID_IN + seat * N_CLASSES + k] > 0:
            m += 1
    return m


@njit_without_refcounts
def _pay(s, seat, k, log):
    """One card of the winning bid goes to its discard pile, seen by all (CAP-AUCTION-6)."""
    _take_from_hand(s, seat, k)
    if s[KNOWN + seat * N_CLASSES + k] > 0:
        s[KNOWN + seat * N_CLASSES + k] -= 1
    _discard(s, k, ALL_SEATS)
    log_event(log, EV_PAY, seat, k)


@njit_without_refcounts
def _apply_discard(s, t, p, k, log):
    """D5: the winner puts the next card of his bid on its discard pile (AMB-13 winner_choice)."""
    seat = s[SEAT]
    _pay(s, seat, k, log)
    s[BID_IN + seat * N_CLASSES + k] -= 1
    s[DISCARD_LEFT] -= 1
    if s[DISCARD_LEFT] > 0 and _distinct_bid_classes(s, seat) > 1:
        return DECIDE
    for c in range(N_CLASSES):  # one class left: its cards go in any order
        for _ in range(s[BID_IN + seat * N_CLASSES + c]):
            _pay(s, seat, c, log)
    return _finish_payment(s, t, seat, log)


@njit_without_refcounts
def _finish_payment(s, t, winner, log):
    """The bids are settled; the winner places the item (CAP-AUCTION-9)."""
    _clear_bids(s)
    item = AUCTION_ITEMS[s[AUCTION]]
    only = -1
    fits = 0
    for pref in range(n_prefectures(t)):
        if item_fits(s, t, pref, item):
            fits += 1
            only = pref
    if fits == 1:
        return _place_item(s, only, log)
    s[PHASE] = PLACE
    s[SEAT] = winner
    return DECIDE


@njit_without_refcounts
def _place_item(s, pref, log):
    a = s[AUCTION]
    item = AUCTION_ITEMS[a]
    if item == FOUNTAIN:  # CAP-AUCTION-10
        s[FREE + pref] -= 1
        s[FOUNTAINS + pref] += 1
    else:
        s[LARGE + pref] = item
        if item == TEMPLE:
            s[TEMPLE_ROUND + pref] = s[ROUND]
    s[PLACED + a] = pref
    log_event(log, EV_PLACE_ITEM, s[WINNER + a], a, item, pref)
    return STEP_NEXT_AUCTION


@njit_without_refcounts
def _next_auction(s):
    """CAP-AUCTION-11: three auctions a round, then the scoring."""
    s[AUCTION] += 1
    return STEP_SCORE if s[AUCTION] % 3 == 0 else STEP_START_AUCTION


# --- scoring (CAP-SCORE)


@njit_without_refcounts
def _score_round(s, t, p, log):
    """CAP-SCORE-1..8: every prefecture on its own; a temple doubles its points."""
    n = s[N_PLAYERS]
    r = s[ROUND]
    log_event(log, EV_SCORING, -1, r)
    for pref in range(n_prefectures(t)):
        first, second = rank_masks(s, p, pref, -1, 0)
        if first == 0:
            continue
        f = s[FOUNTAINS + pref]
        factor = temple_factor(s, p, pref)
        log_event(log, EV_PREFECTURE, -1, r, pref, f, factor, first, second)
        for seat in range(n):
            pts = place_points(first, second, seat, f, factor)
            is_first = (first >> seat) & 1
            if not is_first and not (second >> seat) & 1:
                continue
            s[SCORE + seat] += pts
            s[ROUND_PTS + r * MAX_P + seat] += pts
            if is_first:
                s[PTS_MAJORITY + seat] += 2
                s[PTS_FOUNTAIN + seat] += f
                s[FIRSTS + seat] += 1
            else:
                s[PTS_FOUNTAIN + seat] += f
                s[SECONDS + seat] += 1
            s[PTS_TEMPLE + seat] += pts - pts // factor
            log_event(log, EV_SCORE, seat, r, pref, 1 if is_first else 2, pts, s[STONES + pref * MAX_P + seat],
                      s[TOP + pref * MAX_P + seat])
            _credit_items(s, pref, seat, pts // factor, factor)
    if r == ROUNDS - 1:  # CAP-END-1
        _end_game(s, t, p, log)
        return DECIDE
    s[DRAWER] = 0  # CAP-DRAW-4: from the consul clockwise, each seat makes all its draws
    s[PHASE] = DRAW
    s[SEAT] = s[CONSUL]
    return STEP_START_DRAWER


@njit_without_refcounts
def _credit_items(s, pref, seat, base_pts, factor):
    """Points that an item placed in ``pref`` gave its winner ``seat`` in this scoring: each
    fountain 1 (doubled by a temple), a temple the doubled half."""
    for a in range(s[AUCTION]):
        if s[PLACED + a] != pref or s[WINNER + a] != seat:
            continue
        item = AUCTION_ITEMS[a]
        if item == FOUNTAIN:
            s[ITEM_POINTS + a] += factor
        elif item == TEMPLE and factor == 2:
            s[ITEM_POINTS + a] += base_pts


# --- draw phase (CAP-DRAW)


@njit_without_refcounts
def _start_drawer(s, t, p, log):
    """CAP-DRAW-5, -6: 6 draws plus the amphitheatre bonus."""
    seat = s[SEAT]
    bonus = 0
    for pref in range(n_prefectures(t)):
        if s[LARGE + pref] == AMPHITHEATRE:
            first, second = rank_masks(s, p, pref, -1, 0)
            extra = amphitheatre_draws(first, second, seat)
            bonus += extra
            if extra > 0:
                for a in range(s[AUCTION]):
                    if s[PLACED + a] == pref and s[WINNER + a] == seat and AUCTION_ITEMS[a] == AMPHITHEATRE:
                        s[ITEM_DRAWS + a] += extra
    s[DRAWS_LEFT] = BASE_DRAWS
    s[BONUS_LEFT] = bonus
    s[BONUS_DRAWS + seat] += bonus
    if bonus > 0:
        log_event(log, EV_BONUS, seat, bonus)
    return STEP_SETTLE_DRAW


@njit_without_refcounts
def turn_over(s, kind, log):
    """CAP-DRAW-3: an empty draw pile is replaced by its discard pile, turned over unshuffled."""
    if s[PILE_DRAW + kind] == 0 and s[PILE_DISCARD + kind] > 0:
        log_event(log, EV_TURNOVER, -1, kind, s[PILE_DISCARD + kind])
        s[PILE_DRAW + kind] = s[PILE_DISCARD + kind]
        s[PILE_DISCARD + kind] = 0


@njit_without_refcounts
def may_stop_drawing(s, p):
    """AMB-11: stopping is allowed before a bonus draw, or before a base draw if those are optional."""
    if s[DRAWS_LEFT] > 0:
        return p[PR_BASE_OPTIONAL] == 1
    return p[PR_BONUS_OPTIONAL] == 1


@njit_without_refcounts
def _settle_draw(s, p, log):
    """Ask the drawing seat for its next pile unless its draws are over or have no choice."""
    while True:
        seat = s[SEAT]
        for kind in range(N_TYPES):
            turn_over(s, kind, log)
        left = s[DRAWS_LEFT] + s[BONUS_LEFT]
        piles = 0
        only = -1
        for kind in range(N_TYPES):
            if s[PILE_DRAW + kind] > 0:
                piles += 1
                only = kind
        limit = p[PR_HAND_LIMIT]
        if left == 0 or piles == 0 or (limit > 0 and hand_size(s, seat) >= limit):  # AMB-12, AMB-7
            if left > 0:
                log_event(log, EV_DRAW_STOP, seat, s[DRAWS_LEFT], s[BONUS_LEFT])
            return STEP_NEXT_DRAWER
        if piles == 1 and not may_stop_drawing(s, p):
            _draw(s, seat, only, log)
            continue
        s[PHASE] = DRAW
        return DECIDE


@njit_without_refcounts
def _draw(s, seat, kind, log):
    """The top card of pile ``kind`` goes to ``seat``'s hand, seen by all (digest §5.2)."""
    head = s[PILE_HEAD + kind]
    k = s[PILE + kind * QCAP + head]
    s[PILE_HEAD + kind] = (head + 1) % QCAP
    s[PILE_DRAW + kind] -= 1
    s[HAND + seat * N_CLASSES + k] += 1
    s[HAND_TYPE + seat * N_TYPES + kind] += 1
    s[KNOWN + seat * N_CLASSES + k] += 1
    bonus = 0
    if s[DRAWS_LEFT] > 0:
        s[DRAWS_LEFT] -= 1
    else:
        s[BONUS_LEFT] -= 1
        bonus = 1
    log_event(log, EV_DRAW, seat, k, kind, bonus)


@njit_without_refcounts
def _apply_draw(s, action, log):
    seat = s[SEAT]
    if action[A_OP] == OP_TAKE:
        _draw(s, seat, action[A_X], log)
    else:  # stop: the remaining draws are declined (AMB-11)
        log_event(log, EV_DRAW_STOP, seat, s[DRAWS_LEFT], s[BONUS_LEFT])
        s[DRAWS_LEFT] = 0
        s[BONUS_LEFT] = 0
    return STEP_SETTLE_DRAW


@njit_without_refcounts
def _next_drawer(s):
    """The next seat draws; after the last, the consul moves left and a round begins (CAP-DRAW-10)."""
    n = s[N_PLAYERS]
    s[DRAWS_LEFT] = 0
    s[BONUS_LEFT] = 0
    s[DRAWER] += 1
    if s[DRAWER] < n:
        s[SEAT] = (s[CONSUL] + s[DRAWER]) % n
        return STEP_START_DRAWER
    s[CONSUL] = (s[CONSUL] + 1) % n
    s[ROUND] += 1
    return STEP_START_ROUND


# --- the end (CAP-END)


@njit_without_refcounts
def stones_on_board(s, t, seat):
    total = 0
    for pref in range(n_prefectures(t)):
        total += s[STONES + pref * MAX_P + seat]
    return total


@njit_without_refcounts
def _end_game(s, t, p, log):
    """CAP-END-2: the highest score wins; equal scores share the win (AMB-16) unless
    ``final_tiebreak = stones``. ``tiebreak``: the order of stones on the board, then seat order."""
    n = s[N_PLAYERS]
    for seat in range(n):
        rank = 1
        place = 1
        mine = stones_on_board(s, t, seat)
        for other in range(n):
            if other == seat:
                continue
            theirs = stones_on_board(s, t, other)
            ahead = theirs > mine or (theirs == mine and other < seat)
            if ahead:
                place += 1
            if s[SCORE + other] > s[SCORE + seat]:
                rank += 1
            elif s[SCORE + other] == s[SCORE + seat] and p[PR_FINAL_TIEBREAK] == 1 and theirs > mine:
                rank += 1
        s[RANK + seat] = rank
        s[TIEBREAK + seat] = place
    s[ROUND] = ROUNDS
    s[PHASE] = OVER
    s[SEAT] = -1
    log_event(log, EV_END, -1)

