"""What a seat may see (SB-INFO), determinisation and rollouts for search players.

``observe`` writes the seat's view: every card the seat cannot locate (the other hands,
their face-down bids, the cards left in the box) becomes HIDDEN, and the prize cards still to
come are listed in ascending order. ``determinise`` deals those hidden cards out again at random
(hand sizes and face-down bids are visible, so each seat gets as many as it holds) and shuffles
the prizes to come; the result depends only on the view and the random stream.
"""

import numpy as np
from bgsim.sim.games.sealed_bids.kernels.flow import apply_action
from bgsim.sim.games.sealed_bids.kernels.play import play_to_end
from bgsim.sim.games.sealed_bids.state import (
    BID_CARD,
    BID_DOWN,
    FACE_DOWN,
    HAND_N,
    HIDDEN,
    IN_HAND,
    LOC,
    N_CARDS,
    N_PLAYERS,
    N_PRIZES,
    PLAYED,
    PRIZE_DECK,
    RANK,
    ROUND,
    ROUNDS,
    TOTAL,
    UNDEALT,
)
from bgsim.sim.rng import next_u64, shuffle
from numba import njit


@njit(cache=True)
def _known(loc, seat):
    return loc == IN_HAND + seat or loc == FACE_DOWN + seat or loc >= PLAYED


@njit(cache=True)
def _first_hidden_prize(s):
    """Prize entries from this index on are still face down (the current round's is revealed)."""
    return min(s[ROUND] + 1, ROUNDS) if s[ROUND] < ROUNDS else ROUNDS


@njit(cache=True)
def observe(s, seat, out):
    """``out`` ((STATE_SIZE,) int32) = the view of ``s`` for ``seat`` (SB-INFO-1..3)."""
    out[:] = s
    for c in range(N_CARDS):
        if not _known(s[LOC + c], seat):
            out[LOC + c] = HIDDEN
    for other in range(s[N_PLAYERS]):
        if other != seat and s[BID_DOWN + other]:
            out[BID_CARD + other] = HIDDEN
    first = _first_hidden_prize(s)
    out[PRIZE_DECK + first: PRIZE_DECK + N_PRIZES] = np.sort(s[PRIZE_DECK + first: PRIZE_DECK + N_PRIZES])


@njit(cache=True)
def determinise(s, seat, rng):
    """Deal, in place, what ``seat`` cannot see in ``s`` (a view or a full state) at random.
    ``rng`` (1,) uint64 stream, advanced. What the seat sees is left as it is."""
    n = s[N_PLAYERS]
    pool = np.empty(N_CARDS, dtype=np.int64)
    m = 0
    for c in range(N_CARDS):
        if not _known(s[LOC + c], seat):
            pool[m] = c
            m += 1
    cards = pool[:m]  # ascending card ids: independent of where they really were
    shuffle(cards, rng, 0)
    k = 0
    for other in range(n):
        if other == seat:
            continue
        for _ in range(s[HAND_N + other]):
            s[LOC + cards[k]] = IN_HAND + other
            k += 1
        if s[BID_DOWN + other]:
            s[LOC + cards[k]] = FACE_DOWN + other
            s[BID_CARD + other] = cards[k]
            k += 1
    for i in range(k, m):
        s[LOC + cards[i]] = UNDEALT
    first = _first_hidden_prize(s)
    prizes = np.sort(s[PRIZE_DECK + first: PRIZE_DECK + N_PRIZES])
    shuffle(prizes, rng, 0)
    s[PRIZE_DECK + first: PRIZE_DECK + N_PRIZES] = prizes


@njit(cache=True)
def seat_outcome(s, seat, margin_scale):
    """1 for a win, plus the margin over the best opponent / ``margin_scale``."""
    best_other = -(1 << 30)
    for other in range(s[N_PLAYERS]):
        if other != seat and s[TOTAL + other] > best_other:
            best_other = s[TOTAL + other]
    won = 1.0 if s[RANK + seat] == 1 else 0.0
    return won + (s[TOTAL + seat] - best_other) / margin_scale


@njit(cache=True)
def rollout_values(view, p, seat, root_acts, n_det, rng, kinds, weights, margin_scale, feats, acts, values):
    """Mean outcome for ``seat`` of each action ``root_acts`` ((K, A) int32, legal in ``view``)
    into ``values`` ((K,) float64): each played to the end on the same ``n_det`` determinisations
    by ``kinds`` (P,) int64 / ``weights`` (P, F) int64 policies; ``rng`` (1,) uint64, advanced."""
    base = np.empty_like(view)
    work = np.empty_like(view)
    streams = np.empty(kinds.shape[0], dtype=np.uint64)
    values[:] = 0.0
    for _ in range(n_det):
        base[:] = view
        determinise(base, seat, rng)
        stream_seed = next_u64(rng, 0)
        for k in range(root_acts.shape[0]):
            work[:] = base
            for i in range(streams.shape[0]):
                streams[i] = stream_seed + np.uint64(i)  # the same policy draws for every candidate
            apply_action(work, p, root_acts[k])
            play_to_end(work, p, kinds, weights, streams, feats, acts)
            values[k] += seat_outcome(work, seat, margin_scale)
    values /= n_det
