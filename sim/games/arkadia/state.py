"""The arrays Arkadia's kernels share: the state (one flat int32 array, ``sim.layout``) and the
component table's layout (``tables.py`` fills it from the component data), with the game's sizes.

Kernels index the state through the offsets below (``s[SEALS + seat * N_FAMILIES + f]``); -1 means
"none". What a seat cannot see sits in fields of its own (hands, the deck, the screens, gold), so
``observe`` can hide them.
"""

from bgsim.sim.layout import Layout

__all__ = ["STATE", "STATE_SIZE", "TABLE", "TABLE_SIZE"]

MAX_P = 4
N_FAMILIES = 4  # cloth, spice, carpenter, silversmith (components.FAMILIES)
MAX_SHAPES = 7
MAX_CELLS = 256  # the largest board a components file may give (components.py checks it)
MASK_WORDS = MAX_CELLS // 32  # int32 words of a set of cells
MAX_CARDS = 64  # building cards (40 in the box)
MAX_BUILDINGS = MAX_CARDS  # one building per card, the first game's included
MAX_SITES = 128  # legal castle sites on the largest board
SITE_CELLS = 12  # the castle site, 3 x 4
MAX_PLACEMENTS = MAX_SHAPES * 8 * MAX_CELLS  # every shape, orientation (mirrors included) and anchor
N_FIELDS = 10  # castle fields (004)
LEVELS = 3
HAND = 4  # cards in hand (ARK-SETUP-6)
DISPLAY_SIZE = 3
SEALS_PER_FAMILY = 30  # AMB-8 physical_88: 20 single seals and two 5-seals per family
OWN_WORKERS = 11  # per colour: 3 at the start and 2 for each of the 4 banners (ARK-SETUP-3, -4)
START_WORKERS = 3
BANNERS = 4
NEUTRAL = MAX_P  # the colour code of a neutral worker in CELL_WHO
CASTLE_TARGET = MAX_BUILDINGS  # action B's target id for the castle site (castle_is_worker_target, AMB-3)

# What a cell holds (CELL_KIND).
FREE, SITE, BUILDING, WORKER = range(4)
# Building states (B_STATE).
UNDER_CONSTRUCTION, COMPLETED = 1, 2
# This turn's part 1 (PART1_KIND) and the steps after it (STEPS_DONE bits).
BUILT, PLACED_WORKERS, SKIPPED = 1, 2, 3
STEP_COMPLETED, STEP_REFILLED, STEP_BANNER, STEP_BANNER_USED = 1, 2, 4, 8
# Where a card lies (CARD_LOC).
IN_DECK = -1  # face down (the order is hidden)
HIDDEN = -2  # in an observation only: a card this seat cannot locate
NO_CARD = -3  # an id past the box's last card
IN_HAND = 0  # + seat
IN_DISPLAY = MAX_P  # face up in the display
PLAYED = MAX_P + 1  # played: out of the game, its building on the board (ARK-PLACE-7)
INTRO = MAX_P + 2  # removed for the first-game layout (ARK-SETUP-9)

STATE = Layout("arkadia state")
_ = STATE.add
N_PLAYERS = _("n_players", 1, "player count")
PHASE = _("phase", 1, "pending decision kind (decisions.py), 0 over")
SEAT = _("seat", 1, "seat to decide, -1 once over")
DECISIONS = _("decisions", 1, "decisions made so far (for error messages)")
TURN = _("turn", 1, "turns begun so far")
START_SEAT = _("start_seat", 1, "the start player (ARK-SETUP-7)")
SITE_INDEX = _("site", 1, "the castle site: its row in the table's legal sites, -1 before setup places it")
CELL_KIND = _("cell_kind", MAX_CELLS, "what each cell holds: FREE, SITE, BUILDING or WORKER")
CELL_WHO = _("cell_who", MAX_CELLS, "a building's id, a worker's colour (seat, or NEUTRAL), else -1")
OCCUPIED = _("occupied", MASK_WORDS, "the cells not FREE as bits (cell i: bit i % 32 of word i // 32), to test "
             "placements and enclosure against the table's masks word by word")
N_BUILDINGS = _("n_buildings", 1, "buildings placed, the first game's included")
B_PLACEMENT = _("b_placement", MAX_BUILDINGS, "each building's row in the table's placements")
B_FAMILY = _("b_family", MAX_BUILDINGS, "the family of the seal put on each building (ARK-PLACE-6)")
B_STATE = _("b_state", MAX_BUILDINGS, "UNDER_CONSTRUCTION (a seal on it) or COMPLETED (ARK-COMPLETE-8)")
FIELD_HEIGHT = _("field_height", N_FIELDS, "castle stones on each field (ARK-CASTLE-2)")
FIELD_TOP = _("field_top", N_FIELDS, "family of each field's top stone, -1 for an empty field")
STONE_SUPPLY = _("stone_supply", (LEVELS, N_FAMILIES), "castle stones left per level and family (ARK-SETUP-5)")
LEVEL = _("level", 1, "the castle level stones go to: 1..3 (ARK-CASTLE-2)")
STONES_OWED = _("stones_owed", 1, "castle stones the active player still places this turn (ARK-CASTLE-1)")
END_TRIGGERED = _("end_triggered", 1, "1 once level 2 is full (ARK-END-1)")
TURNS_LEFT = _("turns_left", 1, "turns of the final round still to come, -1 before the end is triggered")
DECK = _("deck", MAX_CARDS, "card ids in draw order, -1 once drawn (the order is hidden)")
DECK_TOP = _("deck_top", 1, "index in DECK of the next card")
DISPLAY = _("display", DISPLAY_SIZE, "the face-up cards, -1 for an empty place")
CARD_LOC = _("card_loc", MAX_CARDS, "where each card lies: IN_DECK, IN_HAND + seat, IN_DISPLAY, PLAYED or INTRO")
HAND_N = _("hand_n", MAX_P, "cards in each hand (public)")
OWN_SCREEN = _("own_screen", MAX_P, "own workers behind each screen (hidden)")
NEUTRAL_SCREEN = _("neutral_screen", MAX_P, "neutral workers behind each screen (hidden)")
OWN_SUPPLY = _("own_supply", MAX_P, "workers of each colour still in the general supply")
NEUTRAL_SUPPLY = _("neutral_supply", 1, "neutral workers in the general supply (AMB-7: -1 unlimited)")
SEALS = _("seals", (MAX_P, N_FAMILIES), "seals behind each screen by family (hidden)")
SEAL_LIMIT = _("seal_limit", 1, "seals per family in the box: 0 unlimited (AMB-8)")
SEALS_OUT = _("seals_out", N_FAMILIES, "seals of each family out of the supply: on buildings and behind screens")
B_SEAL = _("b_seal", MAX_BUILDINGS, "1 while a seal lies on the building (ARK-PLACE-6; none when the supply was "
           "empty, AMB-8)")
BANNERS_LEFT = _("banners", MAX_P, "banners each seat still holds (public, ARK-BANNER)")
GOLD = _("gold", MAX_P, "gold from cashings (every cashing is a public event, AMB-12)")
START_GOLD = _("start_gold", MAX_P, "gold by seat at the start (the compensation vector)")
B_TARGET = _("b_target", 1, "action B in progress: the chosen building, else -1")
B_PLACED = _("b_placed", 1, "workers placed so far in the action B in progress")
CASH_FAMILY = _("cash_family", 1, "a banner's cashing in progress: the next family to decide, else -1")
PART1_KIND = _("part1_kind", 1, "this turn's part 1: 0 not yet, BUILT, PLACED_WORKERS or SKIPPED")
STEPS_DONE = _("steps_done", 1, "this turn's steps done so far: STEP_* bits")
PENDING_TENTS = _("pending_tents", 1, "tents just covered whose neutral workers are still to be chosen")
IDLE_TURNS = _("idle_turns", 1, "turns in a row with part 1 skipped and no banner used (AMB-5)")
TOTAL = _("total", MAX_P, "final gold: start gold, cashings and the final cashing (ARK-END-4)")
RANK = _("rank", MAX_P, "1 = a winner; equal gold shares the place (ARK-END-5: several winners)")
TIEBREAK = _("tiebreak", MAX_P, "place in seat order alone (the rules share ties; re-ranks under other start gold)")
# What the records attribute gold to (derived from public events: kept for the result rows).
B_PLACER = _("b_placer", MAX_BUILDINGS, "the seat that placed each building, -1 for the first-game layout")
B_TENTS = _("b_tents", MAX_BUILDINGS, "tents each building covered (ARK-PLACE-5)")
B_PAID = _("b_paid", (MAX_BUILDINGS, MAX_P), "seals each building paid each seat: its workers' payout, the "
          "building's own seal to the seat completing it (ARK-COMPLETE-4, -5)")
COMPLETIONS = _("completions", MAX_P, "buildings each seat completed (ARK-COMPLETE-5: their seal, a castle stone)")
TRIGGER_SEAT = _("trigger_seat", 1, "the seat whose turn triggered the end (ARK-END-1), -1 for none (a stall "
                   "before any trigger)")
BANNER_TURN = _("banner_turn", (MAX_P, BANNERS), "the game turn each banner was used in, -1 unused")
BANNER_SEALS = _("banner_seals", (MAX_P, BANNERS), "seals each banner cashed")
BANNER_GOLD = _("banner_gold", (MAX_P, BANNERS), "gold each banner's cashing brought (ARK-BANNER-3)")
GOLD_BANNER = _("gold_banner", MAX_P, "gold from cashings with banners, before the final cashing (ARK-BANNER-3)")
GOLD_FAMILY = _("gold_family", (MAX_P, N_FAMILIES), "gold from each family's seals, every cashing included")
# Appended last, so the fields before keep their offsets.
GOLD_BUILDINGS = _("gold_buildings", MAX_P, "gold the seat's placed buildings paid at once (ARK-VAR-1, the "
                   "building_points lever; 0 by the rules)")
STATE_SIZE = STATE.size

# The component table (the kernels' ``t``), filled by ``tables.component_table``.
TABLE = Layout("arkadia component table")
_t = TABLE.add
T_ROWS = _t("rows", 1, "board rows")
T_COLS = _t("cols", 1, "board columns")
T_TENT = _t("tent", MAX_CELLS, "1 for a printed tent cell (ARK-PLACE-5)")
T_NEIGHBOURS = _t("neighbours", (MAX_CELLS, 4), "the up to 4 cells sharing an edge with each cell, -1 padded")
T_N_SITES = _t("n_sites", 1, "legal castle sites (ARK-SETUP-2)")
T_SITE_CELLS = _t("site_cells", (MAX_SITES, SITE_CELLS), "each legal site's cells, in site_cells order")
T_SITE_FIELD = _t("site_field", (MAX_SITES, SITE_CELLS), "the castle field each site cell holds, -1 courtyard")
T_FIELD_PRINT = _t("field_print", N_FIELDS, "each field's printed family, -1 blank (ARK-CASTLE-7)")
T_N_CARDS = _t("n_cards", 1, "building cards in the box")
T_CARD = _t("card", (MAX_CARDS, 2), "each card's shape and family")
T_N_PLACEMENTS = _t("n_placements", 1, "placements of every shape in every orientation at every anchor")
T_PLACE_FIRST = _t("place_first", MAX_SHAPES + 1, "placements of shape s: rows place_first[s] .. [s + 1] - 1")
T_PLACE_TURNED_END = _t("place_turned_end", MAX_SHAPES, "end of shape s's rotations: its mirror images follow "
                        "(used only under allow_mirror, AMB-6)")
T_PLACE_CELLS = _t("place_cells", (MAX_PLACEMENTS, 6), "each placement's cells, -1 padded")
T_PLACE_SIZE = _t("place_size", (MAX_PLACEMENTS, 2), "each placement's cells and the tents among them")
_t("place_bits_pad", (-TABLE.size) % 16, "padding: each placement's masks on one 64-byte cache line")
T_PLACE_BITS = _t("place_bits", (MAX_PLACEMENTS, 2, MASK_WORDS), "each placement's cells, then the cells around "
                  "it, as bits (like OCCUPIED)")
T_PLACE_SPAN = _t("place_span", (MAX_PLACEMENTS, 2), "each placement's first and past-last word of place_bits "
                  "holding a bit (of its cells or the cells around): the mask tests read only these")
# The padded board of the anchor tests (kernels/anchors.py): the grid's rows, each followed by
# pad_guard columns, with one guard row above and pad_guard rows below; guards stay empty, so that
# a shape shifted off the grid meets no free cell.
PAD_WORDS = 64  # uint64 words of the largest padded board (tables.py checks it)
ORIENT_FIELDS = 9  # per orientation: first placement, anchors per row, cells, then the cells' offsets (6)
T_PAD_WIDTH = _t("pad_width", 1, "bits per row of the padded board: the grid's columns and the guard")
T_PAD_WORDS = _t("pad_words", 1, "uint64 words the padded board spans")
T_PAD_CELL = _t("pad_cell", MAX_CELLS, "each cell's bit on the padded board")
T_ORIENT_FIRST = _t("orient_first", MAX_SHAPES + 1, "orientations of shape s: rows orient_first[s] .. [s + 1] - 1")
T_ORIENT_TURNED_END = _t("orient_turned_end", MAX_SHAPES, "end of shape s's rotations: its mirror images follow")
T_ORIENT = _t("orient", (MAX_SHAPES * 8, ORIENT_FIELDS), "each orientation: its first placement (anchors follow "
              "in reading order), anchors per row, cells, and each cell's offset from the anchor on the padded board")
T_INTRO_SITE = _t("intro_site", 1, "the first game's castle site (its row in the sites)")
T_N_INTRO = _t("n_intro", 1, "buildings of the first-game layout")
T_INTRO = _t("intro", (MAX_SHAPES, 3), "each first-game building: its card, its placement and its family")
TABLE_SIZE = TABLE.size
