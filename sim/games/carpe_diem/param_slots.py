"""Where each parameter sits in the compiled parameter array, ``(N_PARAMS,) int32``
(``Params.to_array``): the index constants of ``params.TABLE`` that the kernels import, so that
numba compiles each in as a constant.

Written from params.py by ``python -m tests.param_slots``; do not edit.
"""

PR_N_PLAYERS = 0  # n_players
PR_FRAME_LINE_STRADDLE = 1  # frame_line_mode
PR_LANDSCAPE_MAX = 2  # landscape_max_tiles
PR_LANDSCAPE_REWARD_CAP = 3  # landscape_reward_cap
PR_FULL_LOOP_BREAD = 4  # full_loop
PR_BREAD_COUNTS = 5  # bread_counts_as_fulfilment
PR_SUPPLY_LIMITS = 6  # supply_limits
PR_BREAD_PER_CARD = 7  # bread_fulfilments_per_card
PR_BREAD_PER_SCORING = 8  # bread_fulfilments_per_scoring
PR_RED_MIN_ONE = 9  # red_card_min_one_if_able
PR_FIRST_TILE_STORE = 10  # first_tile_may_be_stored
PR_REWARD_ORDER_FIXED = 11  # reward_order
PR_CRAFTSMAN_OPTIONAL = 12  # craftsman_optional
PR_CRAFTSMAN_STORE = 13  # craftsman_tile_may_be_stored
PR_TIE_UPPER_IS_BACK = 14  # tie_stack_order
PR_PATRICIANS_AFTER_REVEAL = 15  # patrician_placement
PR_BREAD_TARGET_TILES = 16  # bread_target_must_have_tiles
PR_OVERFLOW_ADMIN_ONLY = 17  # track_overflow_vp
PR_VP_FLOOR = 18  # vp_floor
PR_FOUNTAIN_SHORT_NONE = 19  # fountain_short_deck
PR_ONE_TASK_PER_FEATURE = 20  # feature_scores_one_task_only
PR_CANONICAL_PAYMENT = 21  # canonical_payment
PR_SUPPLY_GOODS = 22  # goods of each kind in the physical supply
PR_SUPPLY_COINS = 23  # coins in the physical supply
PR_SUPPLY_BREAD = 24  # bread in the physical supply
PR_START_VP = 25  # start_vp, 4 entries
PR_SOLO = 29  # 1 in a solo game: the human in seat 0, Anna in seat 1
PR_SOLO_CARDS = 30  # solo_cards, 4 entries
PR_ANNA_PATRICIAN_RANDOM = 34  # anna_patrician_placement
PR_ANNA_BOTTOM = 35  # solo_banner_stack
PR_ANNA_ORDER = 36  # anna_candidate_order, 4 entries
PR_ANNA_CRAFTSMAN_ONE = 40  # anna_craftsman_villa
PR_ANNA_MAJORITY_ANY = 41  # anna_majority_count
PR_ANNA_ZERO_TIE_VP = 42  # anna_zero_tie_vp
PR_ANNA_VILLA_DIVISOR = 43  # anna_villa_count_divisor
PR_ANNA_VILLA_VP = 44  # anna_villa_vp
PR_SOLO_TIE = 45  # solo_tie
PR_ANNA_TRACK_LEN = 46  # anna_track_len
PR_ANNA_TIEBREAK_RANDOM = 47  # anna_tiebreak
PR_ANNA_CONVERT_MODE = 48  # anna_convert_mode
PR_ANNA_CONVERT_ALL = 49  # anna_convert_return
PR_ANNA_CRAFTSMAN_OVERFLOW = 50  # anna_craftsman_overflow
PR_ANNA_MAJORITY_VP = 51  # anna_majority_vp
PR_ANNA_CONVERT_AT = 52  # anna_convert_at
PR_ANNA_EXTRA_STEPS = 53  # anna_extra_steps
N_PARAMS = 54  # entries of the array
