"""Fixed numbers and codes of Carpe Diem (rule constants, not component data).

Everything here is a plain int or a tuple, so compiled kernels read it as a constant.
Coordinates: district cell ``r * 6 + c`` with row 0 farthest from the owner (digest §0).
"""

# Sizes fixed by the rules (CD-SETUP, digest §6.1).
MAX_P = 4
SIDE = 6
N_CELLS = 36
N_SPACES = 7  # patrician spaces P0..P6 = depots D0..D6, a circle (CD-TURN-2)
DEPOT_SIZE = 4
N_SEALS = 11
N_LIGHT = 84
N_DARK = 39
N_TILES = N_LIGHT + N_DARK
N_SCORING_CARDS = 60
N_FOUNTAIN_CARDS = 24
N_FRAME_PIECES = 16
N_BOARDS = 4
N_BANNERS = 9
N_SLOTS = 12  # card slots, 4 rows x 3 columns (digest §6.3)
N_DISC_SPACES = 17
N_PASSES = 4
ROUNDS = 7
N_DISCS = 4  # scoring discs per player
N_TASKS = 8  # frame tasks per player: 4 pieces x 2
MAX_PARTS = 2

# Directions; a tile rotated by r quarter turns clockwise shows at direction d the edge
# it had at (d - r) mod 4.
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
DIRECTION_LETTERS = "NESW"
DR = (-1, 0, 1, 0)
DC = (0, 1, 0, -1)

# Part types; the first ten double as edge codes (CD-BUILD-4), small buildings never reach an edge.
MEADOW = 0
VILLA = 1
POND = 2
GARDEN = 3
VINEYARD = 4
CHICKEN_YARD = 5
MERCHANT = 6
BAKER = 7
ADMINISTRATOR = 8
CRAFTSMAN = 9
MARKET = 10
BAKERY = 11
FOUNTAIN = 12
N_TYPES = 13
TYPE_NAMES = (
    "meadow", "villa", "pond", "garden", "vineyard", "chicken_yard",
    "merchant", "baker", "administrator", "craftsman", "market", "bakery", "fountain",
)
LANDSCAPE_FIRST, LANDSCAPE_LAST = POND, CHICKEN_YARD
LODGING_FIRST, LODGING_LAST = MERCHANT, CRAFTSMAN

# Goods (CD-REWARD-1): a landscape of type t yields goods kind t - POND.
FISH, HERB, GRAPE, CHICKEN = 0, 1, 2, 3
N_GOODS = 4
GOODS_NAMES = ("fish", "herb", "grape", "chicken")

# Anna's record in a solo game (state field "anna", kernels/anna.py): track cube per feature type
# (index = type code; villa = chimneys), her coins, bread and goods, and her fountain-card pile
# (bottom first; the top card is her specialisation, CD-ANNA-11).
AN_TRACK = 0
AN_COINS = N_TYPES
AN_BREAD = AN_COINS + 1
AN_GOODS = AN_BREAD + 1
AN_PILE_N = AN_GOODS + N_GOODS
AN_PILE = AN_PILE_N + 1
ANNA_SIZE = AN_PILE + 24  # a pile holds at most the 24 fountain cards

# Counters of CD-FEATURE-7, per seat: index 1..12 = completed features (villas, landscapes,
# lodgings) or built small buildings of that type; 0 = all chimneys; 13/14 = all landscapes /
# all lodgings completed.
C_CHIMNEYS = 0
C_LANDSCAPES = 13
C_LODGINGS = 14
N_COUNTERS = 15
COUNTER_NAMES = (
    "chimneys", "villas", "pond", "garden", "vineyard", "chicken_yard", "merchant", "baker",
    "administrator", "craftsman", "market", "bakery", "fountain", "landscapes", "lodgings",
)

# Scoring-card payout columns (CD-CARD-8).
PAY_VP, PAY_COINS, PAY_BREAD, PAY_STEPS = 0, 1, 2, 3
PAYOUT_NAMES = ("vp", "coins", "bread", "steps")
DECKS = "ABCD"

# Card-slot grid and disc spaces (digest §6.3): slot (r, c) = 3 * r + c; H(r, c) joins
# (r, c)-(r, c+1) for r 0..3, c 0..1 (spaces 0..7); V(r, c) joins (r, c)-(r+1, c) for r 0..2,
# c 0..2 (spaces 8..16).
DISC_SLOT_A = (0, 1, 3, 4, 6, 7, 9, 10, 0, 1, 2, 3, 4, 5, 6, 7, 8)
DISC_SLOT_B = (1, 2, 4, 5, 7, 8, 10, 11, 3, 4, 5, 6, 7, 8, 9, 10, 11)


def disc_space_name(space: int) -> str:
    if space < 8:
        return f"H({space // 2},{space % 2})"
    v = space - 8
    return f"V({v // 3},{v % 3})"


# Start VP by seat, clockwise from the start player (CD-SETUP-14).
START_VP = {2: (8, 9), 3: (8, 9, 13), 4: (8, 9, 10, 11)}
# Scoring cards drawn per deck A, B, C, D (CD-SETUP-6).
CARDS_PER_DECK = {2: (2, 2, 2, 2), 3: (2, 3, 2, 3), 4: (3, 3, 2, 4)}
# Empty card slots (CD-SETUP-7): 2 players all corners; 3 players two opposite corners.
EMPTY_SLOTS = {2: (0, 2, 9, 11), 3: (0, 11), 4: ()}
EMPTY_SLOTS_3P_OTHER_DIAGONAL = (2, 9)
# Solo (CD-ANNA): the human plays seat 0 and the automa Anna seat 1.
ANNA_SEAT = 1
# Solo (CD-ANNA-4): 6 cards in two vertically adjacent rows, slot rows 1 and 2.
SOLO_EMPTY_SLOTS = (0, 1, 2, 9, 10, 11)
