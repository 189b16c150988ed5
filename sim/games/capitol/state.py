"""Capitol state: the layout of one flat int32 array (``sim.layout``), and the game's sizes.

Kernels index the array through the offsets below (``s[SCORE + seat]``). Arrays are sized for
4 seats and ``MAX_PREF`` prefectures whatever the player count and board; -1 means "none".

Cards are kept by class, since two cards with equal type, value and colour are interchangeable
(digest §5.1): class k is a roof card (k < 7, value k + 1, 2 copies), a stone card (7 <= k < 15,
value k - 6, 3 copies) or a permit (k >= 15: colour (k - 15) // 8, value (k - 15) % 8 + 1, 1 copy).
Each card type's draw pile and discard pile form one FIFO queue (CAP-DRAW-3): the draw pile is
the first ``pile_draw`` entries from ``pile_head``, the discard pile the ``pile_discard`` after them.
"""

import numpy as np
from bgsim.sim.layout import Layout

__all__ = ["STATE", "STATE_SIZE"]

MAX_P = 4
MAX_PREF = 12  # prefectures a board table may have (the rulebook's has 9)
N_COLOURS = 3  # colour groups = permit colours (CAP-SETUP-2)
COLOUR_NAMES = ("light_blue", "lilac", "pink")
ROUND_SHAPE, SQUARE_SHAPE = 0, 1
SHAPE_NAMES = ("round", "square")
HMAX = 24  # tallest house the state can hold; an allocation above it is not offered (never reached in play)
ROUNDS = 4  # CAP-SETUP-12
AUCTIONS = 12  # CAP-SETUP-9: 3 per round
TOTAL_STONES = 90  # CAP-SETUP-8
START_STONES = 6  # CAP-SETUP-7: houses 1 round, 2 round, 1 square, 2 square
START_ROOFS_LEFT = 3  # per shape, after the start houses (CAP-SETUP-7)
BASE_DRAWS = 6  # CAP-DRAW-5

# Card types and classes
ROOF, STONE, PERMIT = 0, 1, 2
TYPE_NAMES = ("roof", "stone", "permit")
N_TYPES = 3
N_CLASSES = 39
TYPE_FIRST_CLASS = (0, 7, 15)
TYPE_CARDS = (14, 24, 24)  # CAP-SETUP-4
DEAL = (2, 2, 4)  # cards of each type dealt to each player (CAP-SETUP-4)
N_CARDS = 62
QCAP = 24  # queue capacity per type (the largest deck)

CLASS_TYPE = np.array([ROOF] * 7 + [STONE] * 8 + [PERMIT] * 24, dtype=np.int64)
CLASS_VALUE = np.array(list(range(1, 8)) + list(range(1, 9)) + list(range(1, 9)) * 3, dtype=np.int64)
CLASS_COLOUR = np.array([-1] * 15 + [c for c in range(N_COLOURS) for _ in range(8)], dtype=np.int64)
CLASS_COPIES = np.array([2] * 7 + [3] * 8 + [1] * 24, dtype=np.int64)

# Neutral buildings (CAP-SETUP-9)
FOUNTAIN, AMPHITHEATRE, TEMPLE = 1, 2, 3
ITEM_NAMES = ("none", "fountain", "amphitheatre", "temple")
AUCTION_ITEMS = np.array([FOUNTAIN, FOUNTAIN, AMPHITHEATRE] * 2 + [FOUNTAIN, FOUNTAIN, TEMPLE] * 2, dtype=np.int64)

STATE = Layout("capitol state")
_ = STATE.add
N_PLAYERS = _("n_players", 1, "player count")
PHASE = _("phase", 1, "pending decision kind (decisions.py); 0 once over")
SEAT = _("seat", 1, "seat to decide, -1 once over")
ROUND = _("round", 1, "round 0..3 (4 = over)")
CONSUL = _("consul", 1, "seat holding the consul: start player of this round (CAP-SETUP-11, CAP-DRAW-10)")
FIRST_CONSUL = _("first_consul", 1, "start player of round 1")
DECISIONS = _("decisions", 1, "decisions applied so far")
SUPPLY = _("supply", 1, "stones in the common supply (CAP-SETUP-8)")
PASSED = _("passed", MAX_P, "1 once the seat has passed in this build phase (CAP-BUILD-3)")
START_PTS = _("start_points", MAX_P, "points at the start (CAP-SETUP-10: 0; the compensation parameter)")
SCORE = _("score", MAX_P, "current score, start points included (public)")
# hands
HAND = _("hand", (MAX_P, N_CLASSES), "cards of each class in each hand (hidden from the other seats)")
HAND_TYPE = _("hand_type", (MAX_P, N_TYPES),
              "cards of each type in each hand (public: deals, draws and plays show types)")
KNOWN = _("known", (MAX_P, N_CLASSES), "cards of each class in each hand that every seat has seen (drawn face up)")
# a player's own area (public)
UNFIN = _("unfinished", (MAX_P, HMAX + 1), "unfinished houses of each height in each area")
FIN = _("finished", (MAX_P, 2, HMAX + 1), "finished houses of each roof shape and height in each area")
ROOFS = _("roofs_left", (MAX_P, 2), "unused roofs of each shape")
# card piles: one FIFO queue per type (CAP-DRAW-3)
PILE = _("pile", (N_TYPES, QCAP), "card classes of each type's queue (circular, from pile_head)")
PILE_SEEN = _("pile_seen", (N_TYPES, QCAP), "bit s set: seat s knows this entry's class (AMB-14)")
PILE_HEAD = _("pile_head", N_TYPES, "queue index of the draw pile's top card")
PILE_DRAW = _("pile_draw", N_TYPES, "cards in the face-up draw pile")
PILE_DISCARD = _("pile_discard", N_TYPES, "cards in the face-down discard pile (after the draw pile in the queue)")
PILE_OPEN = _("pile_open", 1, "1 if every card of a draw pile is visible, not only the top (AMB-15)")
# the board
FREE = _("free", MAX_PREF, "free small spaces of each prefecture")
FOUNTAINS = _("fountains", MAX_PREF, "fountains in each prefecture, printed and auctioned (CAP-SCORE-3)")
LARGE = _("large", MAX_PREF, "item on the large site: 0 free, 2 amphitheatre, 3 temple; -1 no large site")
TEMPLE_ROUND = _("temple_round", MAX_PREF, "round the temple was placed, -1 none (AMB-3)")
SHAPE = _("shape", MAX_PREF, "roof shape of the houses in each prefecture, -1 none yet (CAP-BUILD-14)")
TALLEST = _("tallest", MAX_PREF, "height of the tallest house in each prefecture, 0 none (CAP-BUILD-16)")
HOUSES = _("houses", MAX_PREF, "houses in each prefecture")
STONES = _("stones", (MAX_PREF, MAX_P), "stones of each seat's houses in each prefecture (CAP-SCORE-2)")
TOP = _("top", (MAX_PREF, MAX_P), "height of each seat's tallest house in each prefecture (CAP-SCORE-6)")
# auctions
AUCTION = _("auction", 1, "auction 0..11 under way or next (CAP-SETUP-9)")
BIDDER = _("bidders_done", 1, "seats that have finished their bid in this auction")
WORTH = _("worth", MAX_P, "what the item on offer would give each seat per scoring, placed at its best (features)")
LOWEST = _("lowest_score", 1, "seat with the unique lowest score, which wins tied bids (CAP-AUCTION-7); -1 none")
BID = _("bid", (MAX_P, N_CARDS), "card classes of each seat's bid, top of the stack first (hidden until the reveal)")
BID_N = _("bid_n", MAX_P, "cards in each seat's bid (hidden until the reveal)")
BID_SUM = _("bid_sum", MAX_P, "face value of each seat's bid (hidden until the reveal)")
BID_IN = _("bid_in", (MAX_P, N_CLASSES), "cards of each class in each seat's bid (hidden until the reveal)")
WINNER = _("winner", AUCTIONS, "seat that won each auction, -1 nobody (removed), -2 not yet held")
PRICE = _("price", AUCTIONS, "face value the winner paid")
BIDS = _("bids", (AUCTIONS, MAX_P), "every seat's revealed bid in each auction (CAP-AUCTION-4)")
PLACED = _("placed", AUCTIONS, "prefecture each won item went to, -1 none")
ITEM_POINTS = _("item_points", AUCTIONS, "points the item gave its winner: at once (CAP-VAR-1) and in the "
                 "scorings after it was placed")
ITEM_DRAWS = _("item_draws", AUCTIONS, "extra draws an amphitheatre gave its winner")
DISCARD_LEFT = _("discard_left", 1, "cards of the winning bid still to discard (AMB-13 winner_choice)")
# draw phase
DRAWER = _("drawers_done", 1, "seats that have finished drawing this round")
DRAWS_LEFT = _("draws_left", 1, "base draws left for the seat drawing (CAP-DRAW-5)")
BONUS_LEFT = _("bonus_left", 1, "bonus draws left for the seat drawing (CAP-DRAW-6)")
# results
PTS_MAJORITY = _("pts_majority", MAX_P, "2 points per first place (CAP-SCORE-3), undoubled")
PTS_FOUNTAIN = _("pts_fountain", MAX_P, "1 point per fountain for first and second places (CAP-SCORE-3), undoubled")
PTS_TEMPLE = _("pts_temple", MAX_P, "points added by temples doubling a prefecture (CAP-SCORE-8)")
ROUND_PTS = _("round_points", (ROUNDS, MAX_P), "points each seat scored in each round's scoring")
TIE_WINS = _("tie_wins", MAX_P, "auctions won on a tied bid by the lower score (CAP-AUCTION-7)")
FIRSTS = _("firsts", MAX_P, "first places taken over the four scorings")
SECONDS = _("seconds", MAX_P, "second places taken over the four scorings")
BONUS_DRAWS = _("bonus_draws", MAX_P, "amphitheatre draws earned (CAP-DRAW-6)")
CARDS_PLAYED = _("cards_played", (MAX_P, N_TYPES), "cards of each type played in build phases")
NULL_PLAYS = _("null_plays", MAX_P, "cards played without their action (CAP-BUILD-5)")
RANK = _("rank", MAX_P, "1 = winner; equal scores share the rank (CAP-END-2, AMB-16)")
TIEBREAK = _("tiebreak", MAX_P, "place in the tie-break order alone: stones on the board, then seat order")
# Appended last, so the fields before keep their offsets.
PTS_ITEM = _("pts_item", MAX_P, "points the items won paid at once (CAP-VAR-1, the item_points lever; 0 by the rules)")
STATE_SIZE = STATE.size
