"""Feature columns of Carpe Diem's candidate tables: integers a heuristic can weigh.

One namespace serves every decision kind; a column that does not apply to a kind is 0.
All values describe the row's own, immediate consequences for the deciding seat, computed by
the rules (no look-ahead beyond the current build or the current pass scoring):

* placements (TURN, CRAFTSMAN) are valued with their rewards resolved in the fixed order of
  AMB-11 (landscape goods, small buildings, baker / administrator / craftsman, merchant last);
* scoring rows (DISC, CARD_ORDER) describe the best plan found by resolving the triggered
  cards one after the other, each with its most valuable (b, k), valuing VP, steps, coins,
  bread and goods at 1 each and the penalty at -4; FULFIL and PAYMENT rows describe exactly
  that choice.

The planning columns look a little further, still without simulating anyone else:

* ``next_scoring``: one disc scores one pair of cards per pass scoring (CD-SCORING-3..5), so a
  build is worth to the next scoring what it adds to the best free live disc space (the value
  of its better card order, as in the DISC rows, in units of 1 per VP, step, coin and bread,
  minus what is paid), not the sum over every card beside a free space (``card_value``).
  Opponents who score first (CD-SCORING-2) may still take that space.
* ``frame_vp_open``: frame tasks (CD-END-6) an incomplete feature already touches the line of.
* ``rival_distance``, ``planned_reward``, ``fountain_open``: the only columns that tell the rows
  of D01 (before the tiles are revealed, AMB-14), D05 and an early D07 apart.
"""

__all__ = ["FEATURE_NAMES", "FEATURE_DOCS", "N_FEATURES"]

_FEATURES = (
    ("bread_spent", "bread paid for a bread move (D02)"),
    ("store", "1 if the tile is stored face down instead of built"),
    ("tile_parts", "parts on the tile taken"),
    ("dark_tile", "1 if the tile has a dark back"),
    ("adjacent", "built neighbours of the cell"),
    ("matched_edges", "non-meadow edges joined to a neighbour's open edge"),
    ("open_edges_added", "open edges the tile leaves facing empty cells"),
    ("banner", "1 if the cell holds a banner (one banner step)"),
    ("chimneys", "chimneys added to the district"),
    ("villas_completed", "villas completed by the build"),
    ("landscapes_completed", "landscapes completed by the build"),
    ("lodgings_completed", "lodgings completed by the build"),
    ("small_buildings", "markets, bakeries and fountains built"),
    ("villa_vp", "end-game VP of the villas completed (villa table)"),
    ("largest_villa_open", "open edges left on the villa the tile joins (0 if none)"),
    ("frame_vp", "VP of frame tasks newly met"),
    ("fountain_card_vp", "end-game VP the build adds to held fountain cards; D07: VP of the hand kept"),
    ("card_value", "fulfilments gained on green cards beside free disc spaces x payout units"),
    ("card_goods", "goods gained of kinds that red cards beside free disc spaces take"),
    ("vp", "VP gained now"),
    ("steps", "banner-track steps gained"),
    ("coins", "coins gained"),
    ("bread", "bread gained"),
    ("goods", "goods gained"),
    ("goods_lost", "goods given up (merchant conversion or card payment)"),
    ("coins_paid", "coins paid on scoring cards"),
    ("bread_paid", "bread paid for card fulfilments"),
    ("craftsman_tiles", "seal tiles the build earns (craftsman lodgings with tiles on display)"),
    ("fountain_draws", "fountains built: draw 2 fountain cards, keep 1"),
    ("penalties", "-4 VP penalties (unfulfilled cards)"),
    ("fulfilments", "scoring-card fulfilments"),
    ("depot_tiles", "tiles visible in the depot beside the space (D01 after reveal, TURN)"),
    # Planning columns, appended so the columns above keep their indices.
    ("next_scoring", "change of the best free disc space's plan value at the next pass scoring"),
    ("frame_vp_open", "VP of frame tasks not yet met that the incomplete features built on would meet"),
    ("rival_distance", "D01: steps from the space to the nearest other patrician (0 if none stands)"),
    ("planned_reward", "D05: 1 for the reward the fixed order of AMB-11 resolves next"),
    ("fountain_open", "D07: 2 VP per incomplete feature of a kept fountain card's type in the district"),
)

FEATURE_NAMES = tuple(name for name, _ in _FEATURES)
FEATURE_DOCS = dict(_FEATURES)
N_FEATURES = len(FEATURE_NAMES)

# Column indices for the kernels (one constant per feature, same order as above).
(F_BREAD_SPENT, F_STORE, F_TILE_PARTS, F_DARK, F_ADJACENT, F_MATCHED, F_OPEN_ADDED, F_BANNER,
 F_CHIMNEYS, F_VILLAS, F_LANDSCAPES, F_LODGINGS, F_SMALL, F_VILLA_VP, F_VILLA_OPEN, F_FRAME_VP,
 F_FOUNTAIN_VP, F_CARD_VALUE, F_CARD_GOODS, F_VP, F_STEPS, F_COINS, F_BREAD, F_GOODS,
 F_GOODS_LOST, F_COINS_PAID, F_BREAD_PAID, F_CRAFTSMAN, F_FOUNTAIN_DRAWS, F_PENALTIES,
 F_FULFILMENTS, F_DEPOT_TILES, F_NEXT_SCORING, F_FRAME_OPEN, F_RIVAL_DISTANCE, F_PLANNED_REWARD,
 F_FOUNTAIN_OPEN) = range(N_FEATURES)

# Features that existed before the planning columns (engine fingerprints draw weights for these).
N_BASE_FEATURES = F_NEXT_SCORING
