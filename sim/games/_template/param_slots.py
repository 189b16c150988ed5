"""Where each parameter sits in the compiled parameter array, ``(N_PARAMS,) int32``
(``Params.to_array``): the index constants of ``params.TABLE`` that the kernels import, so that
numba compiles each in as a constant.

Written from params.py by ``python -m tests.param_slots``; do not edit.
"""

PR_N_PLAYERS = 0  # n_players
PR_START = 1  # start_points, 4 entries
N_PARAMS = 5  # entries of the array
