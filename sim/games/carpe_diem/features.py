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
)

FEATURE_NAMES = tuple(name for name, _ in _FEATURES)
FEATURE_DOCS = dict(_FEATURES)
N_FEATURES = len(FEATURE_NAMES)

# Column indices for the kernels (one constant per feature, same order as above).
(F_BREAD_SPENT, F_STORE, F_TILE_PARTS, F_DARK, F_ADJACENT, F_MATCHED, F_OPEN_ADDED, F_BANNER,
 F_CHIMNEYS, F_VILLAS, F_LANDSCAPES, F_LODGINGS, F_SMALL, F_VILLA_VP, F_VILLA_OPEN, F_FRAME_VP,
 F_FOUNTAIN_VP, F_CARD_VALUE, F_CARD_GOODS, F_VP, F_STEPS, F_COINS, F_BREAD, F_GOODS,
 F_GOODS_LOST, F_COINS_PAID, F_BREAD_PAID, F_CRAFTSMAN, F_FOUNTAIN_DRAWS, F_PENALTIES,
 F_FULFILMENTS, F_DEPOT_TILES) = range(N_FEATURES)
