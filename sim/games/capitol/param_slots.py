"""Where each parameter sits in the compiled parameter array, ``(N_PARAMS,) int32``
(``Params.to_array``): the index constants of ``params.TABLE`` that the kernels import, so that
numba compiles each in as a constant.

Written from params.py by ``python -m tests.param_slots``; do not edit.
"""

PR_N_PLAYERS = 0  # n_players
PR_START_SEAT = 1  # start_seat
PR_SHARED_FIRST_SECOND = 2  # shared_first_second
PR_FIRST_TIEBREAK = 3  # first_tiebreak
PR_TEMPLE_FROM = 4  # temple_from
PR_ZERO_BID = 5  # zero_bid_policy
PR_NULL_PLAY = 6  # allow_null_play
PR_HAND_LIMIT = 7  # hand_limit
PR_SHORT_TAKE = 8  # short_stone_take
PR_PARTIAL_TAKE = 9  # partial_stone_take
PR_MAX_UNFINISHED = 10  # max_unfinished
PR_BONUS_OPTIONAL = 11  # bonus_draws_optional
PR_BASE_OPTIONAL = 12  # base_draws_optional
PR_DISCARD_ORDER = 13  # bid_discard_order
PR_REVEAL_VALUES = 14  # reveal_played_values
PR_PILE_VISIBLE = 15  # draw_pile_visibility
PR_FINAL_TIEBREAK = 16  # final_tiebreak
PR_CATCH_UP = 17  # tied_bid
PR_BUILD_CARD = 18  # build_card
PR_START = 19  # start_points, 4 entries
PR_HEIGHT_TIE_LOSERS = 23  # height_tie_losers
PR_ITEM_POINTS = 24  # item_points, 12 entries
N_PARAMS = 36  # entries of the array
