"""What a seat may see (digest §5.2) and determinisation for search players.

``observe`` writes the seat's view: another seat's hand shrinks to the cards every seat has seen
go into it (``known``: drawn face up, or shown in a losing bid), another seat's bid in progress is
empty, and a pile entry the seat has not seen becomes -1 (a draw pile's top card is seen by all).
The count of decisions made is 0 in a view: each card put on a sealed bid is a decision, so the
count would tell the other seats how many cards a bid holds.
``determinise`` deals the unseen cards of each type at random into the unseen places of that type
(hand sizes per type are public), and gives each opponent that has already bid in this auction a
random bid from its dealt hand; the result depends only on the view and the random stream.
"""

import numpy as np
from bgsim.sim.games.capitol.decisions import BID as BIDDING
from bgsim.sim.games.capitol.decisions import DISCARD
from bgsim.sim.games.capitol.state import (
    BID,
    BID_IN,
    BID_N,
    BID_SUM,
    BIDDER,
    CLASS_COPIES,
    CLASS_TYPE,
    CLASS_VALUE,
    CONSUL,
    DECISIONS,
    HAND,
    HAND_TYPE,
    KNOWN,
    N_CARDS,
    N_CLASSES,
    N_PLAYERS,
    N_TYPES,
    PHASE,
    PILE,
    PILE_DISCARD,
    PILE_DRAW,
    PILE_HEAD,
    PILE_OPEN,
    PILE_SEEN,
    QCAP,
)
from bgsim.sim.rng import below, shuffle
from numba import njit

HIDDEN = -1  # a pile entry the seat has not seen


@njit(cache=True)
def _hide(s, seat):
    """In place: everything ``seat`` cannot see made canonical (the view of ``observe``)."""
    n = s[N_PLAYERS]
    s[DECISIONS] = 0  # digest §5.2: it would count the cards of the sealed bids
    for other in range(n):
        if other == seat:
            continue
        for k in range(N_CLASSES):
            s[HAND + other * N_CLASSES + k] = s[KNOWN + other * N_CLASSES + k]
        if s[PHASE] != DISCARD:  # a bid is seen only at the reveal; D5 follows the reveal
            for i in range(N_CARDS):
                s[BID + other * N_CARDS + i] = 0
            for k in range(N_CLASSES):
                s[BID_IN + other * N_CLASSES + k] = 0
            s[BID_N + other] = 0
            s[BID_SUM + other] = 0
    for kind in range(N_TYPES):
        head = s[PILE_HEAD + kind]
        draw = s[PILE_DRAW + kind]
        live = draw + s[PILE_DISCARD + kind]
        for j in range(QCAP):
            i = (head + j) % QCAP
            at = PILE + kind * QCAP + i
            if j >= live:
                s[at] = 0
                s[PILE_SEEN + kind * QCAP + i] = 0
            elif (s[PILE_SEEN + kind * QCAP + i] >> seat) & 1 == 0 and not (j == 0 and draw > 0) \
                    and not (j < draw and s[PILE_OPEN] == 1):
                s[at] = HIDDEN


@njit(cache=True)
def observe(s, seat, out):
    """``out`` ((STATE_SIZE,) int32) = the view of ``s`` for ``seat``."""
    out[:] = s
    _hide(out, seat)


@njit(cache=True)
def _bidders_done(s, seat):
    """1 for each opponent that has finished its bid in the auction under way (bids go from the consul)."""
    n = s[N_PLAYERS]
    done = np.zeros(n, dtype=np.int64)
    if s[PHASE] != BIDDING:
        return done
    for i in range(s[BIDDER]):
        other = (s[CONSUL] + i) % n
        if other != seat:
            done[other] = 1
    return done


@njit(cache=True)
def determinise(s, seat, rng):
    """Deal, in place, what ``seat`` cannot see in ``s`` (a view or a full state) at random.
    ``rng`` (1,) uint64 stream, advanced. What the seat sees is left as it is."""
    _hide(s, seat)
    n = s[N_PLAYERS]
    pool = np.empty(N_CARDS, dtype=np.int64)
    for kind in range(N_TYPES):
        left = np.zeros(N_CLASSES, dtype=np.int64)  # unseen cards of each class
        for k in range(N_CLASSES):
            if CLASS_TYPE[k] == kind:
                left[k] = CLASS_COPIES[k]
                for other in range(n):
                    left[k] -= s[HAND + other * N_CLASSES + k]
        head = s[PILE_HEAD + kind]
        live = s[PILE_DRAW + kind] + s[PILE_DISCARD + kind]
        for j in range(live):
            k = s[PILE + kind * QCAP + (head + j) % QCAP]
            if k != HIDDEN:
                left[k] -= 1
        m = 0
        for k in range(N_CLASSES):  # ascending classes: independent of where they really were
            for _ in range(left[k]):
                pool[m] = k
                m += 1
        cards = pool[:m]
        shuffle(cards, rng, 0)
        i = 0
        for other in range(n):
            if other == seat:
                continue
            known = 0
            for k in range(N_CLASSES):
                if CLASS_TYPE[k] == kind:
                    known += s[HAND + other * N_CLASSES + k]
            for _ in range(s[HAND_TYPE + other * N_TYPES + kind] - known):
                s[HAND + other * N_CLASSES + cards[i]] += 1
                i += 1
        for j in range(live):
            at = PILE + kind * QCAP + (head + j) % QCAP
            if s[at] == HIDDEN:
                s[at] = cards[i]
                i += 1
    done = _bidders_done(s, seat)
    for other in range(n):
        if done[other]:
            _random_bid(s, other, rng)


@njit(cache=True)
def _random_bid(s, seat, rng):
    """A bid as the random policy would make it: stop or one of the distinct cards left, uniformly."""
    while True:
        options = 1
        for k in range(N_CLASSES):
            if s[HAND + seat * N_CLASSES + k] > s[BID_IN + seat * N_CLASSES + k]:
                options += 1
        pick = below(rng, 0, options)
        if pick == 0:
            return
        for k in range(N_CLASSES):
            if s[HAND + seat * N_CLASSES + k] > s[BID_IN + seat * N_CLASSES + k]:
                pick -= 1
                if pick == 0:
                    s[BID + seat * N_CARDS + s[BID_N + seat]] = k
                    s[BID_N + seat] += 1
                    s[BID_SUM + seat] += CLASS_VALUE[k]
                    s[BID_IN + seat * N_CLASSES + k] += 1
                    break
