"""The candidate table of the pending decision: one row per distinct legal action, its features
(features.py) and its action columns (decisions.py).

Rows are canonical (digest §5.1): a stone card's allocations are told apart only by the heights
of the unfinished houses they leave, a permit target is (height, roof shape, prefecture), and
equal cards are one row. A build action may spend any card of its type (``build_card = lowest``
offers only the lowest of each type, of each colour for permits). Every row is built from what the
deciding seat can see.
"""

from bgsim.sim.borrow import njit_without_refcounts
from bgsim.sim.games.capitol.components import BT_COLOUR
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
    OP_DISCARD,
    OP_NULL,
    OP_PASS,
    OP_PERMIT,
    OP_PLACE,
    OP_ROOF,
    OP_STONE,
    OP_STOP,
    OP_TAKE,
    PLACE,
)
from bgsim.sim.games.capitol.features import (
    F_BID_AFTER,
    F_CARD_VALUE,
    F_DRAW_ROOF,
    F_FIRST_AFTER,
    F_FOUNTAINS_HERE,
    F_ITEM_AMPHITHEATRE,
    F_ITEM_FOUNTAIN,
    F_ITEM_POINTS,
    F_ITEM_TEMPLE,
    F_LAST_AUCTION,
    F_NEW_HOUSES,
    F_NULL,
    F_OPP_PLACE_GAIN,
    F_OPP_POINTS_DELTA,
    F_PASS,
    F_PERMIT_USEFUL,
    F_PLACE_GAIN,
    F_PLACED_HEIGHT,
    F_POINTS_DELTA,
    F_RAISES_HEIGHT,
    F_ROOF_FITS,
    F_ROOF_NEEDED,
    F_ROOFED_HEIGHT,
    F_STONES,
    F_STOP_BID,
    F_STOP_DRAW,
    F_TALLEST_UNFIN,
    F_WINS_TIES,
    F_WORTH,
    F_WORTH_GAP,
    N_FEATURES,
)
from bgsim.sim.games.capitol.kernels.board import (
    house_fits,
    item_fits,
    item_gain,
    n_prefectures,
    place_points,
    rank_masks,
    temple_factor,
)
from bgsim.sim.games.capitol.kernels.flow import may_stop_drawing
from bgsim.sim.games.capitol.param_slots import (
    PR_BUILD_CARD,
    PR_ITEM_POINTS,
    PR_MAX_UNFINISHED,
    PR_NULL_PLAY,
    PR_PARTIAL_TAKE,
    PR_SHORT_TAKE,
)
from bgsim.sim.games.capitol.state import (
    AMPHITHEATRE,
    AUCTION,
    AUCTION_ITEMS,
    AUCTIONS,
    BID_IN,
    BID_SUM,
    CLASS_COLOUR,
    CLASS_TYPE,
    CLASS_VALUE,
    FIN,
    FOUNTAIN,
    FOUNTAINS,
    HAND,
    HAND_TYPE,
    HMAX,
    LOWEST,
    N_CLASSES,
    N_PLAYERS,
    N_TYPES,
    PERMIT,
    PHASE,
    PILE,
    PILE_DRAW,
    PILE_HEAD,
    QCAP,
    ROOF,
    ROOFS,
    ROUND,
    ROUNDS,
    SEAT,
    STONE,
    SUPPLY,
    TALLEST,
    TEMPLE,
    UNFIN,
    WORTH,
)

MAX_ROWS = 1024  # rows beyond this are not offered (far above any table seen in play)


@njit_without_refcounts
def _row(feats, acts, n, kind, op, card, x, y, z):
    """Start row ``n``: zero features and the action columns; returns 1 if it fits, else 0."""
    if n >= feats.shape[0] or n >= MAX_ROWS:
        return 0
    for f in range(N_FEATURES):
        feats[n, f] = 0
    acts[n, A_KIND] = kind
    acts[n, A_OP] = op
    acts[n, A_CARD] = card
    acts[n, A_X] = x
    acts[n, A_Y] = y
    acts[n, A_Z] = z
    return 1


@njit_without_refcounts
def candidates(s, t, p, feats, acts):
    """Fill ``feats`` (R, N_FEATURES) and ``acts`` (R, N_ACTION_FIELDS) int32 with the pending
    table; returns its rows (0 once over)."""
    kind = s[PHASE]
    if kind == BUILD:
        return _build_rows(s, t, p, feats, acts)
    if kind == BID:
        return _bid_rows(s, t, p, feats, acts)
    if kind == PLACE:
        return _place_rows(s, t, p, feats, acts)
    if kind == DRAW:
        return _draw_rows(s, t, p, feats, acts)
    if kind == DISCARD:
        return _discard_rows(s, feats, acts)
    return 0


# --- build (D1)


@njit_without_refcounts
def _card_group(k):
    """0 roof cards, 1 stone cards, 2 + colour permits: under ``build_card = lowest`` a build action
    spends the lowest card of a group."""
    if CLASS_TYPE[k] == PERMIT:
        return 2 + CLASS_COLOUR[k]
    return CLASS_TYPE[k]


@njit_without_refcounts
def _highest(s, base):
    """Tallest height with a house in the counts ``s[base + 1 .. base + HMAX]`` (0: none)."""
    for h in range(HMAX, 0, -1):
        if s[base + h] > 0:
            return h
    return 0


@njit_without_refcounts
def _build_rows(s, t, p, feats, acts):
    seat = s[SEAT]
    n = _row(feats, acts, 0, BUILD, OP_PASS, -1, 0, 0, 0)
    feats[0, F_PASS] = 1
    seen = 0  # bit g: the lowest card of group g has been offered (build_card = lowest)
    any_card = p[PR_BUILD_CARD] == 1
    block_group = -1  # the group whose first card's rows are rows block_start..block_end
    block_start = 0
    block_end = 0
    for k in range(N_CLASSES):  # ascending value within each group, the groups one after another
        if s[HAND + seat * N_CLASSES + k] <= 0:
            continue
        group = _card_group(k)
        if not any_card and (seen >> group) & 1:
            continue
        seen |= 1 << group
        v = CLASS_VALUE[k]
        if group == block_group:  # CAP-BUILD-6: the same builds as the group's first card
            n = _rows_for_card(feats, acts, block_start, block_end, n, k, v)
            continue
        block_group, block_start = group, n
        if p[PR_NULL_PLAY] == 1 and _row(feats, acts, n, BUILD, OP_NULL, k, 0, 0, 0):  # CAP-BUILD-5
            feats[n, F_NULL] = 1
            feats[n, F_CARD_VALUE] = v
            n += 1
        kind = CLASS_TYPE[k]
        if kind == ROOF:
            n = _roof_rows(s, t, seat, k, v, feats, acts, n)
        elif kind == STONE:
            n = _stone_rows(s, p, seat, k, v, feats, acts, n)
        else:
            n = _permit_rows(s, t, p, seat, k, v, feats, acts, n)
        block_end = n
    return n


@njit_without_refcounts
def _rows_for_card(feats, acts, start, end, n, k, v):
    """Rows ``start..end`` (one card's builds) again from row ``n`` for card ``k`` of value ``v``:
    a card's value changes no build, so only the card and ``card_value`` differ. Returns the rows."""
    for r in range(start, end):
        if n >= feats.shape[0] or n >= MAX_ROWS:
            return n
        for f in range(feats.shape[1]):
            feats[n, f] = feats[r, f]
        for a in range(acts.shape[1]):
            acts[n, a] = acts[r, a]
        acts[n, A_CARD] = k
        feats[n, F_CARD_VALUE] = v
        n += 1
    return n


@njit_without_refcounts
def _roof_rows(s, t, seat, k, v, feats, acts, n):
    """CAP-BUILD-10: a roof of a shape the seat still has on an unfinished house of height h."""
    for h in range(1, _highest(s, UNFIN + seat * (HMAX + 1)) + 1):
        if s[UNFIN + seat * (HMAX + 1) + h] <= 0:
            continue
        for shape in range(2):
            if s[ROOFS + seat * 2 + shape] <= 0:
                continue
            if _row(feats, acts, n, BUILD, OP_ROOF, k, h, shape, 0):
                fits = 0
                for pref in range(n_prefectures(t)):
                    fits += house_fits(s, t, pref, h, shape)
                feats[n, F_CARD_VALUE] = v
                feats[n, F_ROOFED_HEIGHT] = h
                feats[n, F_ROOF_FITS] = fits
                n += 1
    return n


@njit_without_refcounts
def _stone_row(s, seat, k, v, alloc, y, z, taken, new, top, feats, acts, n):
    if _row(feats, acts, n, BUILD, OP_STONE, k, alloc, y, z):
        feats[n, F_CARD_VALUE] = v
        feats[n, F_STONES] = taken
        feats[n, F_NEW_HOUSES] = new
        feats[n, F_TALLEST_UNFIN] = top
        return n + 1
    return n


@njit_without_refcounts
def _stone_rows(s, p, seat, k, v, feats, acts, n):
    """CAP-BUILD-8, -9: each distinct result of placing the stones taken (digest §5.1)."""
    supply = s[SUPPLY]
    two = supply >= 2
    one = (supply == 1 and p[PR_SHORT_TAKE] == 0) or (supply >= 2 and p[PR_PARTIAL_TAKE] == 1)
    if not two and not one:
        return n
    u = UNFIN + seat * (HMAX + 1)
    tallest = _highest(s, u)
    unfinished = 0
    for h in range(1, tallest + 1):
        unfinished += s[u + h]
    room = 1 << 20  # AMB-10: new houses allowed
    if p[PR_MAX_UNFINISHED] == 1:
        room = s[ROOFS + seat * 2] + s[ROOFS + seat * 2 + 1] - unfinished
    if two:
        for y in range(1, min(tallest, HMAX - 2) + 1):
            if s[u + y] > 0:
                n = _stone_row(s, seat, k, v, ALLOC_ADD2, y, 0, 2, 0, max(tallest, y + 2), feats, acts, n)
        for y in range(1, min(tallest, HMAX - 1) + 1):
            if s[u + y] <= 0:
                continue
            for z in range(y, min(tallest, HMAX - 1) + 1):
                if z == y + 1 or s[u + z] <= 0 or (z == y and s[u + y] < 2):
                    continue  # z == y + 1 leaves the same heights as +2 on y
                n = _stone_row(s, seat, k, v, ALLOC_ADD1_ADD1, y, z, 2, 0, max(tallest, z + 1), feats, acts, n)
        if room >= 1:
            for y in range(2, min(tallest, HMAX - 1) + 1):  # y == 1 leaves the same heights as a new house of 2
                if s[u + y] > 0:
                    n = _stone_row(s, seat, k, v, ALLOC_ADD1_NEW, y, 0, 2, 1, max(tallest, y + 1), feats, acts, n)
            n = _stone_row(s, seat, k, v, ALLOC_NEW2, 0, 0, 2, 1, max(tallest, 2), feats, acts, n)
        if room >= 2:
            n = _stone_row(s, seat, k, v, ALLOC_NEW1_NEW1, 0, 0, 2, 2, max(tallest, 1), feats, acts, n)
    if one:
        for y in range(1, min(tallest, HMAX - 1) + 1):
            if s[u + y] > 0:
                n = _stone_row(s, seat, k, v, ALLOC_ADD1, y, 0, 1, 0, max(tallest, y + 1), feats, acts, n)
        if room >= 1:
            n = _stone_row(s, seat, k, v, ALLOC_NEW1, 0, 0, 1, 1, max(tallest, 1), feats, acts, n)
    return n


@njit_without_refcounts
def _permit_rows(s, t, p, seat, k, v, feats, acts, n):
    """CAP-BUILD-12..16: a finished house (height, shape) into a prefecture of the permit's colour."""
    colour = CLASS_COLOUR[k]
    players = s[N_PLAYERS]
    for shape in range(2):
        base = FIN + (seat * 2 + shape) * (HMAX + 1)
        for h in range(1, _highest(s, base) + 1):
            if s[base + h] <= 0:
                continue
            for pref in range(n_prefectures(t)):
                if t[pref, BT_COLOUR] != colour or not house_fits(s, t, pref, h, shape):
                    continue
                if not _row(feats, acts, n, BUILD, OP_PERMIT, k, h, shape, pref):
                    return n
                f = s[FOUNTAINS + pref]
                factor = temple_factor(s, p, pref)
                first0, second0 = rank_masks(s, p, pref, -1, 0)
                first1, second1 = rank_masks(s, p, pref, seat, h)
                mine = place_points(first1, second1, seat, f, factor) - place_points(first0, second0, seat, f, factor)
                theirs = 0
                for other in range(players):
                    if other != seat:
                        theirs += (place_points(first1, second1, other, f, factor)
                                   - place_points(first0, second0, other, f, factor))
                feats[n, F_CARD_VALUE] = v
                feats[n, F_PLACED_HEIGHT] = h
                feats[n, F_POINTS_DELTA] = mine
                feats[n, F_OPP_POINTS_DELTA] = theirs
                feats[n, F_FIRST_AFTER] = (first1 >> seat) & 1
                feats[n, F_FOUNTAINS_HERE] = f
                feats[n, F_RAISES_HEIGHT] = 1 if h > s[TALLEST + pref] else 0
                n += 1
    return n


# --- bid (D2)


@njit_without_refcounts
def _bid_rows(s, t, p, feats, acts):
    """CAP-AUCTION-3: stop (the bid is complete) or one more card on top of the stack."""
    seat = s[SEAT]
    item = AUCTION_ITEMS[s[AUCTION]]
    bid = s[BID_SUM + seat]
    n = _row(feats, acts, 0, BID, OP_STOP, -1, 0, 0, 0)
    feats[0, F_STOP_BID] = 1
    feats[0, F_BID_AFTER] = bid
    worth = s[WORTH + seat]
    lowest = 1 if s[LOWEST] == seat else 0
    scorings = ROUNDS - s[ROUND]
    at_once = p[PR_ITEM_POINTS + s[AUCTION]]  # what the winner scores at once (CAP-VAR-1; 0 by the rules)
    for k in range(N_CLASSES):
        if s[HAND + seat * N_CLASSES + k] - s[BID_IN + seat * N_CLASSES + k] <= 0:
            continue
        if not _row(feats, acts, n, BID, OP_ADD, k, 0, 0, 0):
            break
        v = CLASS_VALUE[k]
        feats[n, F_CARD_VALUE] = v
        feats[n, F_BID_AFTER] = bid + v
        feats[n, F_WORTH] = worth
        feats[n, F_WORTH_GAP] = 3 * (worth * scorings + at_once) - bid - v
        feats[n, F_ITEM_POINTS] = worth * scorings + at_once
        feats[n, F_LAST_AUCTION] = 1 if s[AUCTION] == AUCTIONS - 1 else 0
        feats[n, F_WINS_TIES] = lowest
        feats[n, F_ITEM_FOUNTAIN] = 1 if item == FOUNTAIN else 0
        feats[n, F_ITEM_AMPHITHEATRE] = 1 if item == AMPHITHEATRE else 0
        feats[n, F_ITEM_TEMPLE] = 1 if item == TEMPLE else 0
        n += 1
    return n


# --- place (D3)


@njit_without_refcounts
def _place_rows(s, t, p, feats, acts):
    """CAP-AUCTION-9: any prefecture with a free place for the item."""
    seat = s[SEAT]
    item = AUCTION_ITEMS[s[AUCTION]]
    n = 0
    for pref in range(n_prefectures(t)):
        if not item_fits(s, t, pref, item):
            continue
        if not _row(feats, acts, n, PLACE, OP_PLACE, -1, pref, 0, 0):
            break
        best_other = 0
        for other in range(s[N_PLAYERS]):
            if other != seat:
                best_other = max(best_other, item_gain(s, p, pref, item, other))
        feats[n, F_PLACE_GAIN] = item_gain(s, p, pref, item, seat)
        feats[n, F_OPP_PLACE_GAIN] = best_other
        feats[n, F_FOUNTAINS_HERE] = s[FOUNTAINS + pref]
        n += 1
    return n


# --- draw (D4)


@njit_without_refcounts
def _permit_useful(s, t, seat, colour):
    for shape in range(2):
        base = FIN + (seat * 2 + shape) * (HMAX + 1)
        for h in range(1, _highest(s, base) + 1):
            if s[base + h] <= 0:
                continue
            for pref in range(n_prefectures(t)):
                if t[pref, BT_COLOUR] == colour and house_fits(s, t, pref, h, shape):
                    return 1
    return 0


@njit_without_refcounts
def _draw_rows(s, t, p, feats, acts):
    """CAP-DRAW-5: the top card of any non-empty pile (seen before choosing), or stop (AMB-11)."""
    seat = s[SEAT]
    n = 0
    if may_stop_drawing(s, p):
        n = _row(feats, acts, 0, DRAW, OP_STOP, -1, 0, 0, 0)
        feats[0, F_STOP_DRAW] = 1
    unfinished = _highest(s, UNFIN + seat * (HMAX + 1))  # > 0 iff the seat has an unfinished house
    roofs = s[ROOFS + seat * 2] + s[ROOFS + seat * 2 + 1]
    for kind in range(N_TYPES):
        if s[PILE_DRAW + kind] <= 0:
            continue
        top = s[PILE + kind * QCAP + s[PILE_HEAD + kind]]
        _row(feats, acts, n, DRAW, OP_TAKE, -1, kind, 0, 0)
        feats[n, F_CARD_VALUE] = CLASS_VALUE[top]
        feats[n, F_DRAW_ROOF + kind] = 1  # draw_roof, draw_stone, draw_permit follow the type codes
        if kind == PERMIT:
            feats[n, F_PERMIT_USEFUL] = _permit_useful(s, t, seat, CLASS_COLOUR[top])
        elif kind == ROOF:
            feats[n, F_ROOF_NEEDED] = 1 if unfinished > 0 and roofs > 0 and s[HAND_TYPE + seat * N_TYPES] == 0 else 0
        n += 1
    return n


# --- discard order (D5)


@njit_without_refcounts
def _discard_rows(s, feats, acts):
    """AMB-13 winner_choice: the next card of the winning bid to go on its discard pile."""
    seat = s[SEAT]
    n = 0
    for k in range(N_CLASSES):
        if s[BID_IN + seat * N_CLASSES + k] > 0 and _row(feats, acts, n, DISCARD, OP_DISCARD, k, 0, 0, 0):
            feats[n, F_CARD_VALUE] = CLASS_VALUE[k]
            n += 1
    return n

