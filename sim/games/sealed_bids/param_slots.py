"""Where each parameter sits in the compiled parameter array, ``(N_PARAMS,) int32``
(``Params.to_array``): the index constants of ``params.TABLE`` that the kernels import, so that
numba compiles each in as a constant.

Written from params.py by ``python -m tests.param_slots``; do not edit.
"""

PR_N_PLAYERS = 0  # n_players
PR_BID_TIE = 1  # bid_tie
PR_START = 2  # start_points, 4 entries
PR_FINAL_TIE = 6  # final_tie
PR_PRIZE_OFFER = 7  # prize_offer
PR_PRIZE_POINTS = 8  # prize_points, 15 entries
N_PARAMS = 23  # entries of the array
