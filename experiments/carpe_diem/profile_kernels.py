"""Where Carpe Diem's compiled games spend their time, kernel by kernel.

Plays games as the compiled loop plays them (``sim.loops.play_loop``: the same choices, the same
games) and times each decision's choice (``direct_action``, or the table and ``choose_row``) and
its ``apply_action`` by the processor's cycle counter, its own cost taken off, per decision kind.
Then a weighted TURN is split over the recorded states of those games' TURNs (checked to end as
``play_states`` ends them), each copied into one buffer: its stages one by one, the frontier's
cells and merge tables, the placement valuation per tile design, its placements by what they
complete, and the frame-task values of their completions.

    python -m bgsim.experiments.carpe_diem.profile_kernels [--players 4] [--strategy greedy]
                                                         [--games 100] [--passes 3]

Prints per kernel µs per call, calls per game, µs per game and its share of the game's timed
kernels; indented rows split the row above them. Timed one by one, the kernels take some 10-20 %
longer than the compiled loop's whole game (``play_states``, printed too): the counter's reads and
the timing code stand between them, and a recorded state copied into the buffer is not quite as hot
as the loop's. The timing kernels are ``profile_timers``'.
"""

import argparse
import statistics
import time

import numpy as np
from bgsim.experiments.bench import engine_rate
from bgsim.experiments.carpe_diem.profile_timers import (
    N_KINDS,
    N_ROWS,
    TURN_ROWS,
    counter_cost,
    now,
    time_games,
    time_turns,
)
from bgsim.sim import make_game
from bgsim.sim.api import POLICY_WEIGHTS
from bgsim.sim.games.carpe_diem.constants import DEPOT_SIZE, N_SPACES
from bgsim.sim.games.carpe_diem.decisions import DECISION_NAMES, TURN
from bgsim.sim.games.carpe_diem.kernels.candidates import candidates
from bgsim.sim.games.carpe_diem.kernels.choice import direct_action, new_scratch
from bgsim.sim.games.carpe_diem.kernels.flow import apply_action
from bgsim.sim.games.carpe_diem.kernels.setup import deal_into
from bgsim.sim.games.carpe_diem.kernels.work import MAX_PLACEMENTS
from bgsim.sim.games.carpe_diem.state import PHASE, SEAT
from bgsim.sim.policy import choose_row
from bgsim.sim.seeding import block_key, deal_seeds, seat_streams
from bgsim.strategies import make_strategy


def record(game, policies, n_games: int, seed: int) -> np.ndarray:
    """The states before every decision of ``n_games`` games ((D, STATE_SIZE) int32, in play order),
    played as ``play_states`` plays them."""
    n = game.n_players
    chance, strat = deal_seeds(block_key(seed, n), np.arange(n_games))
    streams = seat_streams(strat, n)
    kinds, weights = game.policy_arrays(policies)
    t, p = game.rules_args
    scratch = new_scratch()
    action = np.empty(game._acts.shape[1], dtype=np.int32)
    states, finals = [], []
    s = np.empty(game.state_size, dtype=np.int32)
    for g in range(n_games):
        deal_into(s, *game.deal_args, chance[g], game._no_log)
        while s[PHASE] != 0:
            states.append(s.copy())
            row = action
            if not direct_action(s, t, p, kinds[0], weights[0], streams[g], scratch, action):
                rows = candidates(s, t, p, game._feats, game._acts)
                row = game._acts[choose_row(game._feats, rows, kinds[0], weights[0], streams[g], s[SEAT])]
            apply_action(s, t, p, row, game._no_log)
        finals.append(s.copy())
    played = game.play_states(chance, seat_streams(strat, n), np.zeros((n_games, n), np.int64), policies)
    assert np.array_equal(np.array(finals), played), "recorded games differ from the compiled loop's"
    return np.array(states)



def profile(n_players: int, strategy_id: str, n_games: int, passes: int, seed: int = 1000) -> list[tuple]:
    """Rows (label, µs per call, calls per game, indent) of the kernels' split over ``n_games``
    games: the median of ``passes`` passes."""
    game = make_game("carpe_diem", n_players=n_players)
    policy = make_strategy(strategy_id, game).compiled_policy(game)
    t, p = game.rules_args
    pol_kinds, pol_weights = game.policy_arrays([policy])
    kind, weights = int(pol_kinds[0]), pol_weights[0]
    scratch = new_scratch()
    action = np.empty(game._acts.shape[1], dtype=np.int32)
    chance, strat = deal_seeds(block_key(seed, n_players), np.arange(n_games))
    tare = int(counter_cost(100_000))
    per_us = _cycles_per_us()

    def timed(run, size: int) -> tuple[np.ndarray, np.ndarray]:
        """µs per timed call of each row of ``out`` (3, size) that ``run(out)`` fills, the median
        over the passes, and each row's calls per game."""
        per_call = []
        for r in range(passes + 1):
            out = np.zeros((3, size), dtype=np.int64)
            run(out)
            if r > 0:  # the first pass compiles and warms up
                per_call.append(out[0] / np.maximum(out[2], 1))
        # a call shorter than the counter's own read can come out below 0
        return np.maximum(np.median(np.array(per_call), axis=0), 0) / per_us, out[1] / n_games

    s = np.empty(game.state_size, dtype=np.int32)
    us, calls = timed(lambda o: time_games(game.deal_args, chance, t, p, kind, weights, seat_streams(strat, n_players),
                                            scratch, action, game._feats, game._acts, game._no_log, s, tare, o),
                      3 * N_KINDS + 1)
    rows = []
    for k in range(N_KINDS):
        if not calls[k]:
            continue
        how = "candidates + choose_row" if calls[2 * N_KINDS + 1 + k] == calls[k] else "direct_action"
        rows.append((f"{DECISION_NAMES[k]}: choice ({how})", us[k], calls[k], 0))
        if k == TURN and kind == POLICY_WEIGHTS:
            rows += _turn_split(game, policy, n_games, seed, weights, scratch[0], tare, timed)
        rows.append((f"{DECISION_NAMES[k]}: apply_action", us[N_KINDS + k], calls[N_KINDS + k], 0))
    rows.append(("deal_into", us[2 * N_KINDS], calls[2 * N_KINDS], 0))
    return rows


def _turn_split(game, policy, n_games: int, seed: int, weights: np.ndarray, work, tare: int, timed) -> list[tuple]:
    """The rows of ``TURN_ROWS``: the stages of the TURNs of recorded games, each state copied into
    one buffer first (the first stage, ``turn_movements``, pays about 0.1 µs for that copy)."""
    states = record(game, [policy], n_games, seed)
    idx = np.flatnonzero(states[:, PHASE] == TURN)
    t, p = game.rules_args
    hot = np.empty_like(states[0])
    lists = np.empty((3, 2 * MAX_PLACEMENTS, 3), dtype=np.int64)
    counts = np.empty(3, dtype=np.int64)
    valued = np.empty(1 + N_SPACES * DEPOT_SIZE, dtype=np.int64)
    us, calls = timed(lambda o: time_turns(states, idx, t, p, weights, work, lists, counts, valued, hot, tare, o),
                      N_ROWS)
    return [(label, us[row], calls[row], indent) for row, indent, label in TURN_ROWS]


def _cycles_per_us() -> float:
    now()  # compiled first, not while timed
    start, cycles = time.perf_counter(), now()
    time.sleep(0.2)
    return (now() - cycles) / (time.perf_counter() - start) / 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--strategy", default="greedy")
    parser.add_argument("--games", type=int, default=100, help="games played per pass")
    parser.add_argument("--passes", type=int, default=3, help="timed passes over the games (median)")
    args = parser.parse_args(argv)
    rows = profile(args.players, args.strategy, args.games, args.passes)
    rate = statistics.median(engine_rate("carpe_diem", args.players, args.strategy, 500, 5))
    total = sum(us * calls for _, us, calls, indent in rows if indent == 0)
    print(f"Carpe Diem, {args.players} players, {args.strategy}: {1e6 / rate:,.0f} µs per game in the compiled loop "
          f"({rate:,.0f} games/s); {total:,.0f} µs per game timed kernel by kernel (share: of these)\n")
    print(f"{'kernel':<62} {'µs/call':>8} {'calls/game':>10} {'µs/game':>8} {'share':>6}")
    for label, us, calls, indent in rows:
        print(f"{'  ' * indent + label:<62} {us:>8.3f} {calls:>10.1f} {us * calls:>8.1f} {us * calls / total:>6.1%}")

if __name__ == "__main__":
    main()
