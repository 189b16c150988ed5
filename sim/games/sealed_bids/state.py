"""Sealed Bids state: the layout of one flat int32 array (``sim.layout``), and the game's sizes.

Kernels index the array through the offsets below (``s[HAND_N + seat]``). Arrays are sized for
4 seats whatever the player count; -1 means "none".
"""

from bgsim.sim.layout import Layout

__all__ = ["STATE", "STATE_SIZE"]

MAX_P = 4
N_CARDS = 24  # bid cards: values 1..12, two of each (SB-SETUP-1); card c has value c // 2 + 1
N_VALUES = 12
HAND = 6  # cards dealt to each seat (SB-SETUP-2)
N_PRIZES = 8  # prize cards P1..P8 of the rulebook game (SB-SETUP-1); points from the params (prize_points)
PAIR_PRIZES = 10  # prize_offer = pair deals P1..P10, two revealed per round (SB-OFFER-1)
PAIR_OFFER = 2  # prizes revealed per round in pair (SB-OFFER-1); single reveals 1
TRIPLE_PRIZES = 15  # prize_offer = triple deals P1..P15, three revealed per round (SB-OFFER-2)
TRIPLE_OFFER = 3  # prizes revealed per round in triple (SB-OFFER-2)
MAX_PRIZES = TRIPLE_PRIZES  # prize ids 0..14: the largest deck, and the entries of the prize_points slot
# By prize_offer code (single, pair, triple: the parameter's choices in order): the prizes revealed
# per round and the prize cards in the deck. A tuple of ints, so the kernels index it as a constant.
OFFER_PRIZES = (1, PAIR_OFFER, TRIPLE_OFFER)
OFFER_DECK = (N_PRIZES, PAIR_PRIZES, TRIPLE_PRIZES)
# One prize (pair: two, triple: three) per round (SB-ROUND-1); the last card in hand is left over (SB-END-2).
ROUNDS = 5

# Where a bid card lies (LOC): a seat's hand, face down as its bid, or played in a finished round.
UNDEALT = -1  # left in the box at setup (hidden from everyone)
HIDDEN = -2  # in an observation only: a card this seat cannot locate
IN_HAND = 0  # + seat
FACE_DOWN = 4  # + seat: this round's bid, not yet revealed (SB-BID-2)
PLAYED = 8  # + seat: bid in a finished round (face up)

STATE = Layout("sealed_bids state")
_ = STATE.add
N_PLAYERS = _("n_players", 1, "player count")
PHASE = _("phase", 1, "pending decision kind (decisions.py): 0 over, 1 bid, 2 take")
SEAT = _("seat", 1, "seat to bid (or to take a prize), -1 once over")
ROUND = _("round", 1, "round 0..4 (5 = over)")
BIDS_MADE = _("bids_made", 1, "bids placed this round")
START_PTS = _("start_points", MAX_P, "start points by seat (SB-SETUP-3)")
HAND_N = _("hand_n", MAX_P, "cards in each hand (visible)")
LOC = _("loc", N_CARDS, "where each bid card lies: UNDEALT, IN_HAND + seat, FACE_DOWN + seat, PLAYED + seat")
BID_CARD = _("bid", MAX_P, "card each seat bid face down this round, -1 none (hidden from the others)")
BID_DOWN = _("bid_down", MAX_P, "1 if the seat has bid this round (visible: the card lies face down)")
PRIZE_DECK = _("prize_deck", MAX_PRIZES, "prize ids in deal order, -1 past the deck; round r reveals entries "
               "k r .. k r + k - 1, k = offer: entry r (single), 2r and 2r + 1 (pair, SB-OFFER-1), 3r .. 3r + 2 "
               "(triple, SB-OFFER-2)")
ROUND_BIDS = _("round_bids", (ROUNDS, MAX_P), "card each seat bid in each finished round, -1 none")
ROUND_WINNER = _("round_winner", ROUNDS, "seat that won each round's bids and took a prize, -1 nobody (SB-TIE-1)")
SPENT = _("spent", MAX_P, "sum of the values a seat has bid (SB-TIE-2)")
PRIZE_PTS = _("prize_points", MAX_P, "points of the prizes taken (SB-WIN-1)")
LEFTOVER_PTS = _("leftover_points", MAX_P, "value // 3 of the cards left in hand (SB-END-2)")
TOTAL = _("total", MAX_P, "final score (SB-END-3)")
RANK = _("rank", MAX_P, "1 = winner, after the tie-break (SB-TIE-2)")
TIEBREAK = _("tiebreak", MAX_P, "place in the tie-break order alone (SB-TIE-2): 1 wins any score tie")
# Appended for prize_offer (SB-OFFER-1, SB-OFFER-2): the kernels that get no parameters (observe,
# determinise) read the deck's size and the prizes per round here; both are visible to every seat.
OFFER = _("offer", 1, "prizes revealed per round: 1 (single), 2 (pair, SB-OFFER-1) or 3 (triple, SB-OFFER-2)")
DECK_N = _("deck_n", 1, "prizes in the deck: 8 (single), 10 (pair) or 15 (triple)")
ROUND_TAKEN = _("round_taken", ROUNDS, "prize id each round's winner took, -1 none (SB-WIN-1, SB-OFFER-1, "
                "SB-OFFER-2)")
STATE_SIZE = STATE.size
