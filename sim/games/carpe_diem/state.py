"""Carpe Diem game state: the layout of one flat int32 array (see ``sim.layout``).

Every field is declared once here with its shape and meaning; kernels index the flat array
with the offsets below (``s[VP + seat]``, ``s[CELL_TILE + seat * 36 + cell]``). Arrays are
sized for 4 seats whatever the player count. ``-1`` means "none" throughout.
"""

from bgsim.sim.games.carpe_diem.constants import (
    ANNA_SIZE,
    DEPOT_SIZE,
    MAX_P,
    N_CELLS,
    N_COUNTERS,
    N_DARK,
    N_DISC_SPACES,
    N_FOUNTAIN_CARDS,
    N_GOODS,
    N_LIGHT,
    N_PASSES,
    N_SEALS,
    N_SLOTS,
    N_SPACES,
    N_TASKS,
    N_TYPES,
)
from bgsim.sim.layout import Layout

__all__ = ["STATE", "STATE_SIZE"]

N_NODES = 2 * N_CELLS  # union-find node = cell * 2 + part index
REWARD_CAP = 64  # pending rewards (a craftsman chain is at most 11 builds deep)
FRAME_CAP = 16  # nested builds with pending rewards
CARD_LOG = 2 * N_PASSES  # triggered cards per seat: 2 per pass scoring
CARD_LOG_FIELDS = 9  # pass, card, k, b, vp, coins, bread, steps, penalty
ANNA_RAND_N = 96  # Anna's draws per game: a roll per craftsman part she takes, a draw per random tie
RAND_RANGE = 720720  # lcm(1..16): a draw modulo any k <= 16 is exactly uniform

STATE = Layout("carpe_diem state")
_ = STATE.add

# --- progress and the pending decision
N_PLAYERS = _("n_players", 1, "player count 2..4")
PHASE = _("phase", 1, "pending decision kind (decisions.py), 0 = game over")
SEAT = _("seat", 1, "seat that decides next")
PASS_NO = _("pass_no", 1, "1..4; 0 during setup")
TURN_NO = _("turn_no", 1, "turns played in this pass, 0..7N")
PASS_START = _("pass_start", 1, "start player of this pass (CD-PASS-1)")
DECISIONS = _("decisions", 1, "decisions applied so far")
STAMP = _("stamp", 1, "banner-stack arrival counter; a higher stamp lies higher in a stack")
SETUP_NEXT = _("setup_next", 1, "next seat to place its patrician (D01)")
PATRICIANS_REVEALED = _("revealed", 1, "1 once the pass-1 depot tiles are face up")

# --- pass scoring in progress (CD-SCORING)
SC_ORDER = _("score_order", MAX_P, "scoring order of this pass scoring (CD-SCORING-2)")
SC_INDEX = _("score_index", 1, "position in score_order of the active scorer")
SC_SPACE = _("score_space", 1, "disc space chosen by the active scorer")
SC_CARDS = _("score_cards", 2, "the two triggered card ids, in resolution order once chosen")
SC_STAGE = _("score_stage", 1, "0: first card pending, 1: second card pending")
SC_B = _("score_b", 1, "bread fulfilments chosen for the current card")
SC_K = _("score_k", 1, "normal fulfilments chosen for the current card")
SC_PAY_KIND = _("score_pay_kind", 1, "goods kind of the pending payment decision")
SC_PAY_COINS = _("score_pay_coins", N_GOODS, "units per goods kind paid with coins (D11)")
SC_BREAD_USED = _("score_bread_used", 1, "bread fulfilments used in this pass scoring (AMB-8)")

# --- pending rewards: a stack of frames, one per build (CD-REWARD-11)
RW_KIND = _("reward_kind", REWARD_CAP, "pending reward: completed feature type")
RW_SIZE = _("reward_size", REWARD_CAP, "tiles of the completed feature (landscape goods)")
RW_N = _("reward_n", 1, "pending rewards on the stack")
RW_FRAME = _("reward_frame", FRAME_CAP, "index in reward_kind where each frame starts")
RW_NFRAMES = _("reward_nframes", 1, "frames on the stack")
FD_DRAWN = _("fountain_drawn", 2, "fountain cards drawn by the pending fountain (D07)")
FD_NDRAWN = _("fountain_ndrawn", 1, "how many were drawn, 0..2")

# --- main board
DEPOT = _("depot", (N_SPACES, DEPOT_SIZE), "tile id on each depot place, -1 taken or removed")
DEPOT_TAKES = _("depot_takes", N_SPACES, "tiles taken from each depot this pass (CD-TURN-9)")
SEAL = _("seal", N_SEALS, "tile id on each seal space, -1 empty (never refilled)")
LIGHT_STOCK = _("light_stock", N_LIGHT, "shuffled light tiles; pass p deals entries 28(p-1)..28p-1")
DARK_STOCK = _("dark_stock", N_DARK, "shuffled dark tiles; 0..10 went to the seals, 11..38 to pass 4")
REMOVED = _("removed", 1, "tiles removed from the game by depot exhaustion")
SLOT_CARD = _("slot_card", N_SLOTS, "scoring card on each slot, -1 empty")
DISC = _("disc", N_DISC_SPACES, "seat whose scoring disc lies on the space, -1 free")
DISC_LIVE = _("disc_live", N_DISC_SPACES, "1 if both slots of the space hold a card (CD-SETUP-8)")
FDECK = _("fountain_deck", N_FOUNTAIN_CARDS, "fountain deck as a ring buffer, top at fdeck_head")
FDECK_HEAD = _("fdeck_head", 1, "ring index of the top card")
FDECK_COUNT = _("fdeck_count", 1, "cards in the deck")

# --- per seat: score and supply
VP = _("vp", MAX_P, "victory points now")
VP_START = _("vp_start", MAX_P, "start VP (CD-SETUP-14)")
VP_CARDS = _("vp_cards", MAX_P, "net VP from scoring cards: payouts minus penalties")
VP_OVERFLOW = _("vp_overflow", MAX_P, "VP from steps beyond the last track space (CD-REWARD-10)")
VP_FLOORED = _("vp_floored", MAX_P, "VP not lost because of vp_floor (AMB-17)")
PENALTIES = _("penalties", MAX_P, "-4 VP penalties taken")
BANNER_POS = _("banner_pos", MAX_P, "banner-disc position 0..L")
BANNER_STAMP = _("banner_stamp", MAX_P, "stack stamp of the banner disc")
GOODS = _("goods", (MAX_P, N_GOODS), "goods held: fish, herb, grape, chicken")
COINS = _("coins", MAX_P, "coins held")
BREAD = _("bread", MAX_P, "bread held")
STORED = _("stored", MAX_P, "tiles stored face down (CD-TURN-11)")
DISCS = _("discs", MAX_P, "scoring discs still in storage")
TAKEN = _("taken", MAX_P, "tiles taken from depots so far")
BUILT = _("built", MAX_P, "tiles built in the district")
TURNS = _("turns", (MAX_P, N_PASSES), "turns taken per pass")
PATRICIAN = _("patrician", MAX_P, "patrician space 0..6, -1 before setup")
BOARD = _("board", MAX_P, "district board index")
FRAME_PIECE = _("frame_piece", (MAX_P, 4), "frame piece on side N, E, S, W")
FOUNTAIN_HELD = _("fountain_held", (MAX_P, N_FOUNTAIN_CARDS), "fountain card ids held, first n valid")
FOUNTAIN_N = _("fountain_n", MAX_P, "fountain cards held")
COUNT = _("count", (MAX_P, N_COUNTERS), "CD-FEATURE-7 counters (constants.COUNTER_NAMES)")
VILLA_VP_SUM = _("villa_vp_sum", MAX_P, "end VP of the completed villas (CD-END-2)")
TASK_DONE = _("task_done", (MAX_P, N_TASKS), "1 once a frame task is met; task = side * 2 + j")
CARDLOG = _("cardlog", (MAX_P, CARD_LOG, CARD_LOG_FIELDS),
            "triggered cards: pass, card, k, b, vp, coins, bread, steps, penalty")
CARDLOG_N = _("cardlog_n", MAX_P, "entries in cardlog")
FIN_VILLAS = _("final_villas", MAX_P, "final scoring: completed villas (CD-END-2)")
FIN_LEFTOVER = _("final_leftovers", MAX_P, "final scoring: leftover material / 2 (CD-END-3)")
FIN_BANNER = _("final_banner", MAX_P, "final scoring: banner position (CD-END-4)")
FIN_FOUNTAIN = _("final_fountain", MAX_P, "final scoring: fountain cards (CD-END-5)")
FIN_FRAMES = _("final_frames", MAX_P, "final scoring: frame tasks (CD-END-6)")
FIN_TOTAL = _("final_total", MAX_P, "final VP (CD-END-7)")
RANK = _("rank", MAX_P, "1 = winner, after the tie-break (CD-TIE)")

# --- per seat: the district and its features (union-find over parts, CD-FEATURE-1)
CELL_TILE = _("cell_tile", (MAX_P, N_CELLS), "tile built on the cell, -1 empty")
CELL_ROT = _("cell_rot", (MAX_P, N_CELLS), "rotation of that tile, quarter turns clockwise")
BANNER_LEFT = _("banner_left", (MAX_P, N_CELLS), "1 while a banner lies on the cell")
UF_PARENT = _("uf_parent", (MAX_P, N_NODES), "union-find parent of node cell*2+part, -1 unused")
UF_OPEN = _("uf_open", (MAX_P, N_NODES), "root: open edges of the feature still facing no tile")
UF_SIZE = _("uf_size", (MAX_P, N_NODES), "root: tiles in the feature")
UF_CHIM = _("uf_chim", (MAX_P, N_NODES), "root: chimneys of the feature (villas)")
UF_ROWS = _("uf_rows", (MAX_P, N_NODES), "root: bitmask of rows the feature touches")
UF_COLS = _("uf_cols", (MAX_P, N_NODES), "root: bitmask of columns the feature touches")
UF_DONE = _("uf_done", (MAX_P, N_NODES), "root: 1 once the feature is completed")

# --- solo mode against Anna (CD-ANNA); seat 1's VP, banner disc, patrician and final_* fields
# are Anna's, her district fields stay unused. Unused in a 2-4 player game.
SOLO = _("solo", 1, "1 in a solo game")
ANNA = _("anna", ANNA_SIZE, "Anna's record: tracks, coins, bread, goods, fountain pile (kernels/anna.py)")
ANNA_DECK = _("anna_deck", 8, "automa cards in draw order; the card of pass p is entry p - 1 (CD-ANNA-12)")
ANNA_RAND = _("anna_rand", ANNA_RAND_N, "uniform draws in 0..RAND_RANGE-1 for Anna's dice and random ties, "
                                          "dealt from the chance stream at setup")
ANNA_RAND_NEXT = _("anna_rand_next", 1, "next unused entry of anna_rand")
ANNA_TIED = _("anna_tied", DEPOT_SIZE, "depot places of the candidates tied after CD-ANNA-15 (a)-(d) (D13)")
ANNA_TIED_N = _("anna_tied_n", 1, "how many are tied")
ANNA_SPACE = _("anna_space", 1, "space of the depot Anna takes from on the pending turn")
ANNA_ROLLS = _("anna_rolls", 1, "craftsman rolls made (CD-ANNA-18)")
ANNA_CONVERSIONS = _("anna_conversions", 1, "banner steps from converting items (CD-ANNA-19)")
ANNA_MAJORITY = _("anna_majority", N_TYPES, "final scoring: Anna's majority VP per track (CD-ANNA-23)")
ANNA_FIN_MAJORITY = _("anna_final_majority", 1, "final scoring: Anna's majority VP in all (CD-ANNA-23)")

STATE_SIZE = STATE.size
