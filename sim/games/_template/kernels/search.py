"""What a seat may see (XX-INFO), determinisation and rollouts for search players.

``observe`` hides what the seat cannot see in a canonical arrangement: every card it cannot
locate (the other hands, the pile) becomes HIDDEN, and so does the pile order. ``determinise``
deals those cards out again at random: each other seat as many as it holds (hand sizes are
visible), the rest into the pile in a random order. Both depend only on what the seat sees, so
observing a determinised state gives the same observation.

FILL IN: the game's hidden parts, each with its canonical form and its random deal.
"""

import numpy as np
from bgsim.sim.games._template.kernels.flow import apply_action
from bgsim.sim.games._template.kernels.play import play_to_end
from bgsim.sim.games._template.state import (
    HAND_N,
    HIDDEN,
    IN_HAND,
    IN_PILE,
    LOC,
    N_CARDS,
    N_PLAYERS,
    PILE,
    PILE_TOP,
    PLAYED,
    RANK,
    TOTAL,
)
from bgsim.sim.rng import next_u64, shuffle
from numba import njit


@njit(cache=True)
def _seen(loc, seat):
    """Whether ``seat`` knows where a card at ``loc`` lies: in its own hand, or played."""
    return loc == IN_HAND + seat or loc >= PLAYED


@njit(cache=True)
def observe(s, seat, out):
    """``out`` ((STATE_SIZE,) int32) = the view of ``s`` for ``seat``."""
    out[:] = s
    for card in range(N_CARDS):
        if not _seen(s[LOC + card], seat):
            out[LOC + card] = HIDDEN
    for i in range(s[PILE_TOP], N_CARDS):
        out[PILE + i] = HIDDEN


@njit(cache=True)
def determinise(s, seat, rng):
    """Deal, in place, what ``seat`` cannot see in ``s`` (a view or a full state) at random;
    ``rng`` (1,) uint64 stream, advanced. What the seat sees is left as it is."""
    unseen = np.empty(N_CARDS, dtype=np.int64)
    m = 0
    for card in range(N_CARDS):
        if not _seen(s[LOC + card], seat):
            unseen[m] = card
            m += 1
    cards = unseen[:m]  # ascending ids: independent of where the cards really are
    shuffle(cards, rng, 0)
    k = 0
    for other in range(s[N_PLAYERS]):
        if other == seat:
            continue
        for _ in range(s[HAND_N + other]):
            s[LOC + cards[k]] = IN_HAND + other
            k += 1
    for i in range(s[PILE_TOP], N_CARDS):  # the rest is the pile, in the shuffled order
        s[LOC + cards[k]] = IN_PILE
        s[PILE + i] = cards[k]
        k += 1


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
def rollout_values(view, t, p, seat, root_acts, n_det, rng, kinds, weights, margin_scale, feats, acts, log, values):
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
            apply_action(work, t, p, root_acts[k], log)
            play_to_end(work, t, p, kinds, weights, streams, feats, acts, log)
            values[k] += seat_outcome(work, seat, margin_scale)
    values /= n_det
