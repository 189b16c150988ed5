"""The compiled play loop: whole games with weight or random policies, no Python per decision."""

import numpy as np
from bgsim.sim.api import POLICY_WEIGHTS
from bgsim.sim.borrow import borrow, njit_without_refcounts
from bgsim.sim.games.carpe_diem.decisions import N_ACTION_FIELDS, OVER
from bgsim.sim.games.carpe_diem.kernels.candidates import candidates
from bgsim.sim.games.carpe_diem.kernels.choice import DiscWork, direct_action, new_disc_work
from bgsim.sim.games.carpe_diem.kernels.flow import apply_action
from bgsim.sim.games.carpe_diem.kernels.setup import new_game
from bgsim.sim.games.carpe_diem.kernels.work import PlacementWork, new_placement_work
from bgsim.sim.games.carpe_diem.state import FIN_TOTAL, PHASE, RANK, SEAT
from bgsim.sim.policy import first_best_row
from bgsim.sim.rng import below
from numba import njit


@njit_without_refcounts
def choose_row(feats, n, policy, weights, streams, seat):
    """Row index for one seat: argmax of ``feats @ weights`` (first on ties) or a uniform draw."""
    if policy != POLICY_WEIGHTS:
        return below(streams, seat, n)
    return first_best_row(feats[:n], weights)


@njit(cache=True)
def play_to_end(s, t, p, policies, weights, streams, feats, acts, log):
    """Play ``s`` to the end. ``policies`` (P,) int64 policy kind per seat; ``weights`` (P, F)
    int64; ``streams`` (P,) uint64 seat streams; ``feats``/``acts`` candidate buffers.

    Placement decisions skip the table (``choice.direct_action``, the same rows); the others
    go through ``candidates`` and ``choose_row``."""
    work = new_placement_work()
    disc_work = new_disc_work()
    action = np.empty(N_ACTION_FIELDS, dtype=np.int32)
    play_borrowed(s, t, p, policies, weights, streams, feats, acts, log, work, disc_work, action)


@njit(cache=True)
def play_borrowed(s, t, p, policies, weights, streams, feats, acts, log, work, disc_work, action):
    """The loop of ``play_to_end`` on borrowed views of its arrays (``sim.borrow``: the caller
    holds them for the whole call), so the many calls below count no references. ``work`` a
    PlacementWork, ``disc_work`` a DiscWork; ``action`` (N_ACTION_FIELDS,) int32 scratch."""
    s = borrow(s)
    t = borrow(t)
    p = borrow(p)
    weights = borrow(weights)
    streams = borrow(streams)
    feats = borrow(feats)
    acts = borrow(acts)
    log = borrow(log)
    work = _borrow_work(work)
    disc_work = DiscWork(borrow(disc_work.res), borrow(disc_work.counts), borrow(disc_work.total),
                         borrow(disc_work.other), borrow(disc_work.work), borrow(disc_work.out))
    action = borrow(action)
    while s[PHASE] != OVER:
        seat = s[SEAT]
        if direct_action(s, t, p, policies[seat], weights[seat], streams, work, disc_work, action):
            apply_action(s, t, p, action, log)
            continue
        n = candidates(s, t, p, feats, acts)
        i = choose_row(feats, n, policies[seat], weights[seat], streams, seat)
        apply_action(s, t, p, acts[i], log)


@njit(cache=True)
def _borrow_work(work):
    return PlacementWork(borrow(work.ctx), borrow(work.need), borrow(work.nroot), borrow(work.adj),
                         borrow(work.forbid), borrow(work.frontier), borrow(work.cells), borrow(work.rots),
                         borrow(work.res), borrow(work.row), borrow(work.moves), borrow(work.blocks),
                         borrow(work.link), borrow(work.merged), borrow(work.cell_value))


@njit(cache=True)
def play_batch(t, p, empty_slots, chance_seeds, strategy_seeds, policies, weights, feats, acts, log, out):
    """Play one game per chance seed ((G,) uint64); ``strategy_seeds`` (G, P) uint64.
    Writes final VP and rank to ``out`` (G, P, 2) int32."""
    for g in range(chance_seeds.shape[0]):
        s = new_game(t, p, chance_seeds[g], empty_slots)
        streams = strategy_seeds[g].copy()
        play_to_end(s, t, p, policies, weights, streams, feats, acts, log)
        for seat in range(out.shape[1]):
            out[g, seat, 0] = s[FIN_TOTAL + seat]
            out[g, seat, 1] = s[RANK + seat]
