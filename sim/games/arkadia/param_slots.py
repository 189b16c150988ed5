"""Where each parameter sits in the compiled parameter array, ``(N_PARAMS,) int32``
(``Params.to_array``): the index constants of ``params.TABLE`` that the kernels import, so that
numba compiles each in as a constant.

Written from params.py by ``python -m tests.param_slots``; do not edit.
"""

PR_N_PLAYERS = 0  # n_players
PR_START_SEAT = 1  # start_seat
PR_INTRO = 2  # intro_setup
PR_CASTLE = 3  # castle_placement, 4 entries
PR_NO_ACTION = 7  # no_action_policy
PR_MIN_WORKERS = 8  # min_workers_in_b
PR_TENT_CHOOSE = 9  # tent_reward
PR_CASTLE_TARGET = 10  # castle_is_worker_target
PR_REFILL = 11  # refill_rule
PR_DECK_END = 12  # deck_exhaustion
PR_STALL = 13  # stall_rule
PR_MIRROR = 14  # allow_mirror
PR_NEUTRAL_SUPPLY = 15  # neutral_supply
PR_SEALS = 16  # seal_supply
PR_REFILL_FIRST = 17  # refill_before_completion
PR_START = 18  # start_gold, 4 entries
PR_BUILDING_POINTS = 22  # building_points, 7 entries
PR_EMPTY_B = 29  # empty_b_turn
N_PARAMS = 30  # entries of the array
