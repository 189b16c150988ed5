"""Part 1 of a turn (D1, ARK-TURN-2/3): its BUILD and WORKERS rows, and the choice a weight or random
policy makes among them taken directly, without writing the table (``direct_part1``, the compiled
loops' ``direct_action``): the same row the table and the policy would give, found faster.

BUILD rows: one per distinct card in hand and legal placement: an identical second card (same
shape and family) adds no rows, so that uniform play does not favour duplicated cards and no
policy pays for rows it has seen. Their look-ahead (which buildings under construction a placement
would enclose, and whose workers they pay) works on bit masks and marks nothing on the board: once
per decision each closable building's missing cells and the lowest of them, so that a placement is
tested on that one bit first and on the full cover only then. The legal placements of a shape
come from bitboards, 64 anchors a word (``anchors``).
"""

import numpy as np
from bgsim.sim.api import POLICY_WEIGHTS
from bgsim.sim.borrow import njit_inline_without_refcounts, njit_without_refcounts
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import features as f
from bgsim.sim.games.arkadia.kernels.anchors import legal_placements, pad_boards
from bgsim.sim.games.arkadia.kernels.bits import (
    cells_of,
    count_in,
    covers,
    free_count,
    has_free,
    meets_bits,
    span_of,
    worker_bits,
)
from bgsim.sim.games.arkadia.kernels.board import free_cells_around
from bgsim.sim.games.arkadia.kernels.castle import seal_value
from bgsim.sim.games.arkadia.param_slots import PR_CASTLE_TARGET
from bgsim.sim.games.arkadia.state import (
    B_FAMILY,
    B_PLACEMENT,
    B_STATE,
    CARD_LOC,
    CASTLE_TARGET,
    IN_HAND,
    MASK_WORDS,
    MAX_BUILDINGS,
    MAX_CARDS,
    MAX_CELLS,
    N_BUILDINGS,
    N_FAMILIES,
    NEUTRAL_SCREEN,
    OCCUPIED,
    OWN_SCREEN,
    PAD_WORDS,
    PHASE,
    SEAT,
    SITE_INDEX,
    T_CARD,
    T_COLS,
    T_N_CARDS,
    T_PLACE_SIZE,
    T_ROWS,
    UNDER_CONSTRUCTION,
)
from bgsim.sim.rng import below
from numba import njit

__all__ = ["blank_row", "direct_part1", "new_part1_scratch", "part1_rows"]

_MOST_CELLS = 6  # a shape's most cells: a building with more free cells around cannot close with one placement


@njit_without_refcounts
def _hand(s, t, seat, cards):
    """The seat's cards in id order into ``cards`` ((MAX_CARDS,) int64), one of each identical
    (shape, family) pair: a second such card offers the same BUILD rows again; returns how many."""
    n = 0
    for card in range(t[T_N_CARDS]):
        if s[CARD_LOC + card] != IN_HAND + seat:
            continue
        twin = False
        for i in range(n):
            other = cards[i]
            twin |= (t[T_CARD + 2 * other] == t[T_CARD + 2 * card]
                     and t[T_CARD + 2 * other + 1] == t[T_CARD + 2 * card + 1])
        if not twin:
            cards[n] = card
            n += 1
    return n


@njit_without_refcounts
def _look_ahead(s, t, seat, look):
    """Prepare the BUILD look-ahead of one decision; returns how many buildings one placement could
    close. For each such building i: ``missing[i]`` its free cells around ((MASK_WORDS,) int64 bits,
    1 to 6 of them: none would mean it is enclosed, and completion follows every action,
    ARK-COMPLETE-1), ``first[i]`` (word, bit) of the lowest, ``span[i]`` the words they lie in,
    ``pay[i]`` the seals the seat earns when it closes (its workers there, plus the building's seal).
    For every building b under construction: ``free_around[b]`` and ``own_around[b]`` (look[14],
    look[15]), its free cells around and the seat's workers there.
    ``own``: the seat's workers, ``near``: the union of the missing cells ((MASK_WORDS,) int64).
    ``look``: ``new_look``'s arrays."""
    own, near, missing, first, span, pay = look[0], look[1], look[2], look[3], look[4], look[5]
    free_around, own_around = look[14], look[15]
    for family in range(N_FAMILIES):
        look[8][family] = seal_value(s, t, family)
    pad_boards(s, t, look[10], look[11], look[12])
    worker_bits(s, t[T_ROWS] * t[T_COLS], seat, own)
    near[:] = 0
    n = 0
    for b in range(s[N_BUILDINGS]):
        if s[B_STATE + b] != UNDER_CONSTRUCTION:
            continue
        k = s[B_PLACEMENT + b]
        around = cells_of(t, k) + MASK_WORDS
        lo, hi = span_of(t, k)
        free_around[b] = free_count(s, t, around, lo, hi)
        own_around[b] = count_in(t, around, own, lo, hi)
        if free_around[b] > _MOST_CELLS:
            continue
        missing[n, :] = 0
        first[n, 0] = -1
        for w in range(lo, hi):
            word = np.int64(t[around + w] & ~s[OCCUPIED + w])
            missing[n, w] = word
            near[w] |= word
            if word and first[n, 0] < 0:
                first[n, 0], first[n, 1] = w, word & -word
        span[n, 0], span[n, 1] = lo, hi
        pay[n] = own_around[b] + 1
        n += 1
    return n


@njit_inline_without_refcounts
def _closes_others(t, mask, lo, hi, look, n_open):
    """(buildings, seals to the seat) of the closable buildings that the cells of the mask at
    ``t[mask:...]`` (bits only in words lo..hi-1) would enclose: each missing all its free cells."""
    near, missing, first, span, pay = look[1], look[2], look[3], look[4], look[5]
    done, earned = 0, 0
    if n_open and meets_bits(t, mask, near, lo, hi):
        for i in range(n_open):
            if t[mask + first[i, 0]] & first[i, 1] and covers(t, mask, missing[i], span[i, 0], span[i, 1]):
                done += 1
                earned += pay[i]
    return done, earned


@njit_inline_without_refcounts
def _build_features(s, t, k, look, n_open):
    """(free_after, mine, completes, my_payout) of placing on ``k``: the free cells around the new
    building, the seat's workers there, the buildings it would enclose (itself too when nothing
    around it is free) and the seals that pays the seat. ``look`` as ``_look_ahead`` fills it."""
    own = look[0]
    mask = cells_of(t, k)
    lo, hi = span_of(t, k)
    free_after = free_count(s, t, mask + MASK_WORDS, lo, hi)
    mine = count_in(t, mask + MASK_WORDS, own, lo, hi)
    done, earned = 0, 0
    if free_after == 0:  # the new building is enclosed at once
        done, earned = 1, mine + 1
    closed, paid = _closes_others(t, mask, lo, hi, look, n_open)
    done += closed
    earned += paid
    return free_after, mine, done, earned


@njit_inline_without_refcounts
def _build_value(s, t, k, look, n_open, weights):
    """``_build_features`` weighed by ``weights`` ((N_FEATURES,) int64), the features of weight 0
    left uncounted: whether the new building closes at once needs no count of the free cells."""
    own = look[0]
    mask = cells_of(t, k)
    lo, hi = span_of(t, k)
    value = np.int64(0)
    if weights[f.F_FREE_AFTER] != 0:
        free_after = free_count(s, t, mask + MASK_WORDS, lo, hi)
        value += weights[f.F_FREE_AFTER] * free_after
        enclosed = free_after == 0
    else:
        enclosed = not has_free(s, t, mask + MASK_WORDS, lo, hi)
    mine = 0
    if weights[f.F_MY_WORKERS_AROUND] != 0 or (enclosed and weights[f.F_MY_PAYOUT] != 0):
        mine = count_in(t, mask + MASK_WORDS, own, lo, hi)
        value += weights[f.F_MY_WORKERS_AROUND] * mine
    done, earned = 0, 0
    if enclosed:
        done, earned = 1, mine + 1
    closed, paid = _closes_others(t, mask, lo, hi, look, n_open)
    done += closed
    earned += paid
    return value + weights[f.F_COMPLETES] * done + weights[f.F_MY_PAYOUT] * earned


@njit(cache=True)
def new_look():
    """The working memory of one part-1 decision (the hot loops below allocate nothing, so that
    they count no references): own, near, missing, first, span, pay as ``_look_ahead`` fills
    them, the hand's cards and family weights ((MAX_CARDS,) int64 each), each family's seal value
    ((N_FAMILIES,) int64), the free cells around the castle site ((24,) int64), the padded boards
    of the anchor tests (free, front, taken: (PAD_WORDS,) uint64, ``anchors.pad_boards``) and a
    shape's legal placements ((8 * MAX_CELLS,) int64); per building under construction, its free
    cells around and the seat's workers there ((MAX_BUILDINGS,) int64 each)."""
    return (np.empty(MASK_WORDS, dtype=np.int64), np.empty(MASK_WORDS, dtype=np.int64),
            np.empty((MAX_BUILDINGS, MASK_WORDS), dtype=np.int64), np.empty((MAX_BUILDINGS, 2), dtype=np.int64),
            np.empty((MAX_BUILDINGS, 2), dtype=np.int64), np.empty(MAX_BUILDINGS, dtype=np.int64),
            np.empty(MAX_CARDS, dtype=np.int64), np.empty(MAX_CARDS, dtype=np.int64),
            np.empty(N_FAMILIES, dtype=np.int64), np.empty(24, dtype=np.int64),
            np.empty(PAD_WORDS, dtype=np.uint64), np.empty(PAD_WORDS, dtype=np.uint64),
            np.empty(PAD_WORDS, dtype=np.uint64), np.empty(8 * MAX_CELLS, dtype=np.int64),
            np.empty(MAX_BUILDINGS, dtype=np.int64), np.empty(MAX_BUILDINGS, dtype=np.int64))


@njit(cache=True)
def blank_row(feats, acts, n, kind):
    """Row ``n`` of a table cleared, its action of ``kind`` (``decisions.DO_*``)."""
    for j in range(feats.shape[1]):
        feats[n, j] = 0
    for j in range(acts.shape[1]):
        acts[n, j] = 0
    acts[n, d.A_KIND] = kind


@njit(cache=True)
def part1_rows(s, t, p, seat, feats, acts):
    """The part-1 table: every legal BUILD with its features (cards in id order, the first of
    identical cards, each placement in table order), then the WORKERS rows; returns its rows (0
    when there is no legal part 1)."""
    look = new_look()
    n_open = _look_ahead(s, t, seat, look)
    return _fill_worker_rows(s, t, p, seat, feats, acts, _fill_build_rows(s, t, p, seat, feats, acts, 0, look, n_open),
                             look)


@njit_without_refcounts
def _fill_build_rows(s, t, p, seat, feats, acts, n, look, n_open):
    cards = look[6]
    for c in range(_hand(s, t, seat, cards)):
        card = cards[c]
        shape, family = t[T_CARD + 2 * card], t[T_CARD + 2 * card + 1]
        value = look[8][family]
        placements = look[13]
        for x in range(legal_placements(t, p, shape, look[10], look[11], placements)):
            k = placements[x]
            free_after, mine, done, earned = _build_features(s, t, k, look, n_open)
            blank_row(feats, acts, n, d.DO_BUILD)
            acts[n, d.A_CARD] = card
            acts[n, d.A_PLACEMENT] = k
            feats[n, f.F_BUILD] = 1
            feats[n, f.F_CELLS] = t[T_PLACE_SIZE + 2 * k]
            feats[n, f.F_TENTS] = t[T_PLACE_SIZE + 2 * k + 1]
            feats[n, f.F_FREE_AFTER] = free_after
            feats[n, f.F_MY_WORKERS_AROUND] = mine
            feats[n, f.F_COMPLETES] = done
            feats[n, f.F_MY_PAYOUT] = earned
            feats[n, f.F_FAMILY_VALUE] = value
            n += 1
    return n


@njit_without_refcounts
def _fill_worker_rows(s, t, p, seat, feats, acts, n, look):
    """Every WORKERS row from row ``n`` on (buildings by id with a free cell around, then the castle
    site under castle_is_worker_target), if the seat holds a worker; returns the next free row.
    ``look`` as ``_look_ahead`` filled it: each building's free cells and the seat's workers around
    it, and the families' values."""
    held = s[OWN_SCREEN + seat] + s[NEUTRAL_SCREEN + seat]
    if held == 0:
        return n
    free_around, own_around = look[14], look[15]
    for b in range(s[N_BUILDINGS]):
        free = free_around[b]
        if s[B_STATE + b] != UNDER_CONSTRUCTION or free == 0:
            continue
        blank_row(feats, acts, n, d.DO_WORKERS)
        acts[n, d.A_BUILDING] = b
        feats[n, f.F_WORKERS] = 1
        feats[n, f.F_FREE_AROUND] = free
        feats[n, f.F_FAMILY_VALUE] = look[8][s[B_FAMILY + b]]
        feats[n, f.F_MY_WORKERS_AROUND] = own_around[b]
        feats[n, f.F_CLOSABLE] = 1 if held >= free else 0
        n += 1
    if p[PR_CASTLE_TARGET] == 1 and s[SITE_INDEX] >= 0:  # AMB-3: the castle site, which never pays
        free = free_cells_around(s, t, CASTLE_TARGET, look[9])
        if free > 0:
            blank_row(feats, acts, n, d.DO_WORKERS)
            acts[n, d.A_BUILDING] = CASTLE_TARGET
            feats[n, f.F_WORKERS] = 1
            feats[n, f.F_FREE_AROUND] = free
            n += 1
    return n


# Direct choice


@njit(cache=True)
def new_part1_scratch():
    """The working memory of ``direct_part1``, made once per batch of games: a table for the WORKERS
    rows ((MAX_BUILDINGS + 1, N_FEATURES) int32 features, (MAX_BUILDINGS + 1, N_ACTION_FIELDS) int32
    actions) and ``new_look``'s arrays."""
    return (np.zeros((MAX_BUILDINGS + 1, f.N_FEATURES), dtype=np.int32),
            np.zeros((MAX_BUILDINGS + 1, d.N_ACTION_FIELDS), dtype=np.int32), new_look())


@njit(cache=True)
def direct_part1(s, t, p, policy, weights, streams, scratch, action):
    """The part-1 row ``policy`` would choose from the table, into ``action`` ((N_ACTION_FIELDS,)
    int32): for weights the first best of ``feats @ weights`` ((N_FEATURES,) int64), else a uniform
    draw from the seat's stream in ``streams`` ((P,) uint64, advanced). False, for the table, when
    another decision is pending."""
    if s[PHASE] != d.PART1:
        return False
    worker_feats, worker_acts, look = scratch
    seat = s[SEAT]
    n_open = _look_ahead(s, t, seat, look)
    n_workers = _fill_worker_rows(s, t, p, seat, worker_feats, worker_acts, 0, look)
    action[:] = 0
    if policy == POLICY_WEIGHTS:
        _weighted(s, t, p, seat, weights, worker_feats, worker_acts, n_workers, look, n_open, action)
    else:
        _uniform(s, t, p, seat, streams, worker_acts, n_workers, look, action)
    return True


@njit_without_refcounts
def _weighted(s, t, p, seat, weights, worker_feats, worker_acts, n_workers, look, n_open, action):
    """The first best row by value. Among cards of one shape only the one whose family weighs most
    (the first on ties) can hold it: each of its rows is worth at least the same placement's row of
    the others, and comes first when worth as much."""
    cards, values = look[6], look[7]
    n_cards = _hand(s, t, seat, cards)
    for c in range(n_cards):
        values[c] = weights[f.F_FAMILY_VALUE] * look[8][t[T_CARD + 2 * cards[c] + 1]]
    best = np.int64(-(1 << 62))  # as sim.policy.first_best_row
    any_row = False
    for c in range(n_cards):
        card, shape = cards[c], t[T_CARD + 2 * cards[c]]
        dominated = False
        for o in range(n_cards):
            if o != c and t[T_CARD + 2 * cards[o]] == shape:
                dominated |= values[o] > values[c] or (values[o] == values[c] and o < c)
        if dominated:
            continue
        base = weights[f.F_BUILD] + values[c]
        placements = look[13]
        for x in range(legal_placements(t, p, shape, look[10], look[11], placements)):
            k = placements[x]
            any_row = True
            value = (base + weights[f.F_CELLS] * t[T_PLACE_SIZE + 2 * k]
                     + weights[f.F_TENTS] * t[T_PLACE_SIZE + 2 * k + 1] + _build_value(s, t, k, look, n_open, weights))
            if value > best:
                best = value
                action[d.A_KIND], action[d.A_CARD], action[d.A_PLACEMENT] = d.DO_BUILD, card, k
    for i in range(n_workers):
        value = np.int64(0)
        for j in range(f.N_FEATURES):
            value += np.int64(worker_feats[i, j]) * weights[j]
        if value > best:
            best = value
            for j in range(action.shape[0]):
                action[j] = worker_acts[i, j]
    if not any_row and n_workers == 0:
        action[d.A_KIND] = d.DO_SKIP


@njit_without_refcounts
def _uniform(s, t, p, seat, streams, worker_acts, n_workers, look, action):
    """A uniform draw over the table's rows (one draw, as ``choose_row`` makes), found by counting;
    ``look`` as ``_look_ahead`` filled it."""
    cards, placements = look[6], look[13]
    n_cards = _hand(s, t, seat, cards)
    n_build = 0
    for c in range(n_cards):
        n_build += legal_placements(t, p, t[T_CARD + 2 * cards[c]], look[10], look[11], placements)
    n = n_build + n_workers
    r = below(streams, seat, max(n, 1))
    if n == 0:
        action[d.A_KIND] = d.DO_SKIP
        return
    if r >= n_build:
        for j in range(action.shape[0]):
            action[j] = worker_acts[r - n_build, j]
        return
    for c in range(n_cards):
        legal = legal_placements(t, p, t[T_CARD + 2 * cards[c]], look[10], look[11], placements)
        if r < legal:
            action[d.A_KIND], action[d.A_CARD], action[d.A_PLACEMENT] = d.DO_BUILD, cards[c], placements[r]
            return
        r -= legal
