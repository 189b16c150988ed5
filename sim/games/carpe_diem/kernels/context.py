"""The context shared by every placement row of one decision: the layout of a (CTX_SIZE,) int64
array (``work.PlacementWork.ctx``), filled by ``candidates.placement_context`` (table
path) or ``placements.fill_context`` (compiled path) and read by every row's valuation.
"""

X_POS = 0  # banner position
X_LAST = 1  # last track position
X_GOODS = 2  # goods held
X_SEALS = 3  # tiles on the seal display
X_FIRST = 4  # 1 while the district is empty (shovel cell only)
X_GREEN_N = 5  # green cards beside free disc spaces
X_GREEN = 6  # their card ids (12)
X_GREEN_K = 18  # their current fulfilments (12)
X_GREEN_UNITS = 30  # their payout units per fulfilment (12)
X_RED_WANTS = 42  # 1 if a red card beside a free space takes goods kind g (4)
X_FOUNTAIN_VP = 46  # VP per item of the held fountain cards, by counter (15)
X_COUNTS = 61  # current counters (15)
X_N_FRONTIER = 76  # cells in PlacementWork.frontier
X_DELTA = 77  # scratch of placement_features: counter changes (15)
X_GOODS_GAIN = 92  # scratch of placement_features: goods gained by kind (4)
X_AFTER = 96  # scratch of placement_features: counters after the build (15)
X_TILE_CODE = 111  # scratch of legal_placements: edge_code per rotation, -1 if a repeat (4)
X_GREEN_MASK = 115  # per green card in X_GREEN: bit c set if it counts counter c (12)
X_GREEN_ANY = 127  # union of X_GREEN_MASK
X_OPEN_TASK_TYPES = 128  # bit f set if a frame task for feature type f is not yet met
# next_scoring (outlook.py): the deciding seat's resources, plan scratch, and per decision the
# base plan value of every free disc space (computed on first use) and a cache of outcomes.
X_RES_BASE = 129  # resources now, in cards.resources' order (7)
X_RES_AFTER = 136  # resources after the build (7)
X_PLAN_WORK = 143  # plan scratch (7)
X_PLAN_OUT = 150  # plan scratch (9)
X_PLAN_TOTAL = 159  # plan scratch (9)
X_OUTLOOK_READY = 168  # 1 once X_OUTLOOK_BASE and X_SPACE_VALUE hold this decision's values
X_OUTLOOK_BASE = 169  # best plan value over the free live disc spaces now (0 if none)
X_SPACE_VALUE = 170  # plan value per disc space now, NO_SPACE if not free, not live, or taken first (17)
X_COIN_GAIN = 187  # scratch of a placement's valuation: coins from markets (merchant apart)
X_BREAD_GAIN = 188  # scratch of a placement's valuation: bread gained
X_CACHE_N = 189  # outcomes stored in the cache so far
X_CACHE = 190  # CACHE_ENTRIES x CACHE_STRIDE: key (resources after (6), counter changes (15)), value
X_OUTLOOK_SEAT = 542  # the deciding seat
X_ORDER = 543  # scoring order of the next pass scoring (CD-SCORING-2) (4)
X_RIVAL_COUNTS = 547  # counters of a seat scoring earlier (15)
X_RIVAL_RES = 562  # its resources (7)
CACHE_ENTRIES = 16
CACHE_KEY = 6 + 15
CACHE_STRIDE = CACHE_KEY + 1
CTX_SIZE = X_RIVAL_RES + 7
assert X_CACHE + CACHE_ENTRIES * CACHE_STRIDE == X_OUTLOOK_SEAT
