"""The compiled loops every game shares, written once: whole games with compiled policies,
batches of games into final states, games in lockstep for Python strategies, the per-decision
step, and paired rollouts for search players and choice values.

A game's kernels know the rules; these loops drive them. ``sim.kernel_binding.bind_loops``
compiles each function below for one game, with the names of the block below bound to that
game's kernels and state entries. So a game's loop calls its rules kernels directly, as a copy
written for the game would (numba inlines across those calls), and is cached with that game's
code (``sim.numba_cache``). Not decorated here: a function of this module is only ever run bound.

Arguments every loop shares:

- ``s`` (STATE_SIZE,) int32, a game state; ``states`` (G, STATE_SIZE) int32, several;
- ``rules``: the tuple the game's rules kernels take after the state (``GameBase.rules_args``),
  passed on unpacked: ``candidates(s, *rules, feats, acts)``;
- ``deal``: the tuple its dealing kernel takes first (``GameBase.deal_args``);
- ``policies`` (P,) int64 policy kind per seat (``sim.api``) with ``weights`` (P, F) int64;
  ``streams`` (P,) uint64, the seats' random streams, advanced;
- ``feats`` (R, F) / ``acts`` (R, A) int32: candidate table buffers, R >= the game's MAX_ROWS;
- ``log`` (n, width) int32: the event log (``sim.event_log``; one row: off).
"""

import numpy as np
from bgsim.sim.borrow import borrow
from bgsim.sim.leads import lead_step
from bgsim.sim.policy import choose_row
from bgsim.sim.rng import next_u64

__all__ = ["BOUND_NAMES", "LOOPS", "REFCOUNT_FREE"]

# Bound per game by ``bind_loops`` (see ``sim.kernel_binding.RulesKernels`` for each one's
# signature); None here, so that a loop run unbound fails at once.
candidates = None  # candidates(s, *rules, feats, acts) -> rows of the pending table (0 once over)
apply_action = None  # apply_action(s, *rules, action, log): one legal action row, in place
deal_into = None  # deal_into(s, *deal, chance_seed, log): a new game into s
determinise = None  # determinise(s, seat, rng): what seat cannot see, dealt at random
direct_action = None  # direct_action(s, *rules, policy, weights, streams, scratch, action) -> bool
new_scratch = None  # new_scratch() -> the game's working memory for direct_action
MAX_ROWS = None  # rows of the largest candidate table
N_ACTION_FIELDS = None  # columns of an action row
PHASE = None  # state entry: the pending decision kind
SEAT = None  # state entry: the seat to decide
OVER = None  # decision kind of a finished game
N_PLAYERS = None  # state entry: the number of seats
FINAL_SCORE = None  # first state entry of the seats' final scores (one per seat)
RANK = None  # first state entry of the seats' ranks (1 = won; shared wins share rank 1)
standing = None  # standing(s, scores) -> round: each seat's running score into scores (P,) int32
MAX_DECISIONS = None  # decisions after which a game that has not ended is a runaway: the loops stop it there

BOUND_NAMES = ("candidates", "apply_action", "deal_into", "determinise", "direct_action", "new_scratch",
               "MAX_ROWS", "N_ACTION_FIELDS", "PHASE", "SEAT", "OVER", "N_PLAYERS", "FINAL_SCORE", "RANK",
               "standing", "MAX_DECISIONS")


def play_to_end(s, rules, policies, weights, streams, feats, acts, log):
    """Play ``s`` to the end: every seat by its compiled policy, no Python per decision. False (and
    ``s`` not over) for a runaway game: one not over after MAX_DECISIONS decisions."""
    scratch = new_scratch()
    action = np.empty(N_ACTION_FIELDS, dtype=np.int32)
    return play_loop(s, rules, policies, weights, streams, feats, acts, log, scratch, action)


def play_loop(s, rules, policies, weights, streams, feats, acts, log, scratch, action):
    """The decisions of ``play_to_end``, on borrowed views of its arguments (``sim.borrow``: the
    caller holds them for the whole call), so the many calls below count no references.

    A decision the game can choose without its table (``direct_action``: the same row the table
    and policy would give, found faster) skips the table; the others go through ``candidates``
    and ``choose_row``. ``scratch`` the game's working memory (``new_scratch``), ``action``
    (N_ACTION_FIELDS,) int32 for the direct choice. Returns False, the game not over, when it has
    not ended within MAX_DECISIONS decisions (a runaway: the caller reports it), else True."""
    s = borrow(s)
    rules = borrow(rules)
    weights = borrow(weights)
    streams = borrow(streams)
    feats = borrow(feats)
    acts = borrow(acts)
    log = borrow(log)
    scratch = borrow(scratch)
    action = borrow(action)
    decisions = 0
    while s[PHASE] != OVER:
        if decisions == MAX_DECISIONS:
            return False
        decisions += 1
        seat = s[SEAT]
        if direct_action(s, *rules, policies[seat], weights[seat], streams, scratch, action):
            apply_action(s, *rules, action, log)
            continue
        n = candidates(s, *rules, feats, acts)
        i = choose_row(feats, n, policies[seat], weights[seat], streams, seat)
        apply_action(s, *rules, acts[i], log)
    return True


def play_into_states(deal, rules, chance, streams, seat_strategy, kinds, weights, feats, acts, log, states_out):
    """Deal and play one game per chance seed ``chance`` ((G,) uint64) into ``states_out``
    ((G, STATE_SIZE) int32); a runaway game is left there not over (``play_loop``). ``streams``
    (G, P) uint64 seat streams, advanced; ``seat_strategy`` (G, P) int64 index into ``kinds`` ((K,)
    int64 policy kinds) and ``weights`` ((K, F) int64)."""
    n_seats = streams.shape[1]
    seat_kinds = np.empty(n_seats, dtype=np.int64)
    seat_weights = np.empty((n_seats, weights.shape[1]), dtype=np.int64)
    scratch = new_scratch()  # one for the batch: the loop leaves nothing in it that a game reads
    action = np.empty(N_ACTION_FIELDS, dtype=np.int32)
    for g in range(chance.shape[0]):
        seat_policies(seat_strategy[g], kinds, weights, seat_kinds, seat_weights)
        deal_into(states_out[g], *deal, chance[g], log)
        play_loop(states_out[g], rules, seat_kinds, seat_weights, streams[g], feats, acts, log, scratch, action)


def seat_policies(strategy_of_seat, kinds, weights, seat_kinds, seat_weights):
    """Each seat's policy kind into ``seat_kinds`` (P,) int64 and weights into ``seat_weights``
    (P, F) int64, from its strategy index ``strategy_of_seat`` (P,) int64 into ``kinds`` / ``weights``."""
    for seat in range(strategy_of_seat.shape[0]):
        k = strategy_of_seat[seat]
        seat_kinds[seat] = kinds[k]
        seat_weights[seat, :] = weights[k]


def play_dealt_states(states, rules, streams, seat_strategy, kinds, weights, feats, acts, log, leads_out):
    """Play every dealt game of ``states`` ((G, STATE_SIZE) int32, changed in place: dealt by
    ``deal_states`` and maybe edited since) to the end, as ``play_into_states`` plays after its
    deal, counting each game's lead changes into ``leads_out`` ((G,) int32, ``lead_changes``).
    ``streams`` (G, P) uint64 advanced; ``seat_strategy``, ``kinds``, ``weights`` as there."""
    n_seats = streams.shape[1]
    seat_kinds = np.empty(n_seats, dtype=np.int64)
    seat_weights = np.empty((n_seats, weights.shape[1]), dtype=np.int64)
    scores = np.zeros(n_seats, dtype=np.int32)
    scratch = new_scratch()
    action = np.empty(N_ACTION_FIELDS, dtype=np.int32)
    for g in range(states.shape[0]):
        seat_policies(seat_strategy[g], kinds, weights, seat_kinds, seat_weights)
        leads_out[g] = play_counting_leads(states[g], rules, seat_kinds, seat_weights, streams[g], feats, acts, log,
                                           scratch, action, scores)


def play_counting_leads(s, rules, policies, weights, streams, feats, acts, log, scratch, action, scores):
    """``play_loop`` (the same decisions, the same game), returning how often the lead changed hands:
    the leader is read when a round ends (``standing``: the seats' running scores, ``scores`` (P,)
    int32 scratch) and once more from the final ranks; each time a unique leader differs from the
    last unique leader counts one change (a tie names no leader and changes nothing). A runaway game
    stops after MAX_DECISIONS decisions, not over, as in ``play_loop``."""
    leader = -1
    changes = 0
    n = s[N_PLAYERS]
    round_now = standing(s, scores)
    decisions = 0
    while s[PHASE] != OVER:
        if decisions == MAX_DECISIONS:
            return changes
        decisions += 1
        seat = s[SEAT]
        if direct_action(s, *rules, policies[seat], weights[seat], streams, scratch, action):
            apply_action(s, *rules, action, log)
        else:
            rows = candidates(s, *rules, feats, acts)
            i = choose_row(feats, rows, policies[seat], weights[seat], streams, seat)
            apply_action(s, *rules, acts[i], log)
        r = standing(s, scores)
        if r != round_now:
            round_now = r
            leader, changes = lead_step(leader, changes, scores, n)
    for seat in range(n):  # the final ranks: the winner leads (shared wins: nobody alone)
        scores[seat] = 1 if s[RANK + seat] == 1 else 0
    leader, changes = lead_step(leader, changes, scores, n)
    return changes


def deal_states(deal, chance, log, states_out):
    """Deal one game per chance seed ((G,) uint64) into ``states_out`` (G, STATE_SIZE) int32."""
    for g in range(chance.shape[0]):
        deal_into(states_out[g], *deal, chance[g], log)


def stack_tables(states, games, rules, feats, acts, offsets):
    """Stack the tables of ``states[games[j]]`` (``games`` (m,) int64) into ``feats`` (R, F) /
    ``acts`` (R, A) int32; ``offsets`` (m + 1,) int64 gets each table's first row. Stops while
    MAX_ROWS rows are still free, so that no table overflows; returns how many games it stacked
    (call again for the rest)."""
    row = 0
    offsets[0] = 0
    for j in range(games.shape[0]):
        if feats.shape[0] - row < MAX_ROWS:
            return j
        row += candidates(states[games[j]], *rules, feats[row:], acts[row:])
        offsets[j + 1] = row
    return games.shape[0]


def apply_best_rows(states, games, rules, acts, offsets, values, log):
    """For each stacked table j apply its first row of highest ``values`` ((R,) int64 or float64)
    to ``states[games[j]]``."""
    for j in range(games.shape[0]):
        best = offsets[j]
        for r in range(offsets[j] + 1, offsets[j + 1]):
            if values[r] > values[best]:
                best = r
        apply_action(states[games[j]], *rules, acts[best], log)


def apply_row_and_decide(s, rules, row, feats, acts, log):
    """Apply row ``row`` of the pending table (``acts``) and build the next into ``feats`` /
    ``acts``; returns its rows. One compiled call per decision for Python strategies."""
    apply_action(s, *rules, acts[row], log)
    return candidates(s, *rules, feats, acts)


def rollout_outcomes(view, rules, seat, root_acts, n_det, rng, kinds, weights, feats, acts, log, shares,
                     margins):
    """Each action of ``root_acts`` ((K, A) int32, legal in ``view``, left unchanged) played to the
    end on ``n_det`` determinisations for ``seat``: ``shares`` (K, n_det) float64 gets the seat's
    share of the win (1/k of a win shared by k seats, else 0), ``margins`` (K, n_det) int64 its final
    score minus the best other seat's.

    Determinisation d is drawn once (from ``rng``, (1,) uint64, advanced) and every action is
    played on it with the same seat streams: the actions differ only by what they do (common
    random numbers), so identical actions give identical columns. A rollout that does not end within
    MAX_DECISIONS decisions (a runaway) gets a NaN share and a 0 margin."""
    base = np.empty_like(view)
    work = np.empty_like(view)
    streams = np.empty(kinds.shape[0], dtype=np.uint64)
    scratch = new_scratch()
    action = np.empty(N_ACTION_FIELDS, dtype=np.int32)
    for d in range(n_det):
        base[:] = view
        determinise(base, seat, rng)
        stream_seed = next_u64(rng, 0)
        for k in range(root_acts.shape[0]):
            work[:] = base
            for i in range(streams.shape[0]):
                streams[i] = stream_seed + np.uint64(i)
            apply_action(work, *rules, root_acts[k], log)
            if not play_loop(work, rules, kinds, weights, streams, feats, acts, log, scratch, action):
                shares[k, d] = np.nan
                margins[k, d] = 0
                continue
            winners = 0
            best_other = -(1 << 30)
            for other in range(work[N_PLAYERS]):
                winners += 1 if work[RANK + other] == 1 else 0
                if other != seat and work[FINAL_SCORE + other] > best_other:
                    best_other = work[FINAL_SCORE + other]
            shares[k, d] = 1.0 / winners if work[RANK + seat] == 1 else 0.0
            margins[k, d] = work[FINAL_SCORE + seat] - best_other


LOOPS = (play_to_end, play_loop, play_into_states, seat_policies, play_dealt_states, play_counting_leads, deal_states,
         stack_tables, apply_best_rows, apply_row_and_decide, rollout_outcomes)
REFCOUNT_FREE = ("play_loop",)  # compiled without reference counts when the game's play allows it
