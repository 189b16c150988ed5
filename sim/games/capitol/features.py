"""Feature columns of Capitol's candidate tables: integers a heuristic can weigh.

Every column is computed from what the deciding seat can see (its hand and bid, the public board,
areas, scores, hand sizes and the visible tops of the draw piles), so a determinised state offers
the same table. A column that would be equal on every row of a table cannot rank its rows, so
per-table facts (the item on offer, the bidder's chance in ties) are given on the rows they argue for.
"""

__all__ = ["FEATURE_DOCS", "FEATURE_NAMES", "N_FEATURES"]

_FEATURES = (
    ("pass", "build: 1 for passing (CAP-BUILD-3)"),
    ("null_play", "build: 1 for a card played without its action (CAP-BUILD-5)"),
    ("card_value", "value of the card spent (build: the bidding strength it takes from the hand), added to the "
                   "bid (bid), or drawn (draw)"),
    ("stones", "build: stones taken from the supply"),
    ("new_houses", "build: unfinished houses started"),
    ("tallest_unfinished", "build (stone): height of the tallest unfinished house after the action"),
    ("roofed_height", "build (roof): height of the house that gets its roof"),
    ("roof_fits", "build (roof): prefectures where the new finished house could be placed now"),
    ("placed_height", "build (permit): height of the house placed"),
    ("points_delta", "build (permit): change of the seat's points in the prefecture if it were scored now"),
    ("opp_points_delta", "build (permit): change of the other seats' points there, summed"),
    ("first_after", "build (permit): 1 if the seat is first in the prefecture afterwards"),
    ("fountains_here", "build (permit) and place: fountains in the prefecture"),
    ("raises_height", "build (permit): 1 if the house is taller than every house there before"),
    ("stop_bid", "bid: 1 for the stop card: the bid is complete"),
    ("bid_after", "bid: face value of the bid after this row"),
    ("worth", "bid (adding rows): the seat's best gain per scoring from the item, placed now"),
    ("worth_gap", "bid (adding rows): 3 * item_points - bid after; > 0 while the bid is cheap"),
    ("item_points", "bid (adding rows): worth x scorings left: the points (draws) the item would bring by the "
                    "current standings, plus what its winner scores at once (the item_points lever, CAP-VAR-1)"),
    ("last_auction", "bid (adding rows): 1 in the game's last auction: cards kept score nothing (CAP-END-3)"),
    ("wins_ties", "bid (adding rows): 1 if the seat has the unique lowest score, so it wins tied bids (CAP-AUCTION-7)"),
    ("item_fountain", "bid (adding rows): 1 if the item is a fountain"),
    ("item_amphitheatre", "bid (adding rows): 1 if the item is an amphitheatre"),
    ("item_temple", "bid (adding rows): 1 if the item is a temple"),
    ("place_gain", "place: the seat's gain per scoring from the item in this prefecture (points; draws for an "
                   "amphitheatre)"),
    ("opp_place_gain", "place: the best other seat's gain per scoring from it there"),
    ("stop_draw", "draw: 1 for declining the draws left (AMB-11)"),
    ("draw_roof", "draw: 1 for the roof pile"),
    ("draw_stone", "draw: 1 for the stone pile"),
    ("draw_permit", "draw: 1 for the permit pile"),
    ("permit_useful", "draw (permit): 1 if a finished house of the seat could go into a prefecture of its colour now"),
    ("roof_needed", "draw (roof): 1 if the seat has an unfinished house, an unused roof and no roof card"),
)

FEATURE_NAMES = tuple(name for name, _ in _FEATURES)
FEATURE_DOCS = dict(_FEATURES)
N_FEATURES = len(FEATURE_NAMES)
(F_PASS, F_NULL, F_CARD_VALUE, F_STONES, F_NEW_HOUSES, F_TALLEST_UNFIN, F_ROOFED_HEIGHT, F_ROOF_FITS,
 F_PLACED_HEIGHT, F_POINTS_DELTA, F_OPP_POINTS_DELTA, F_FIRST_AFTER, F_FOUNTAINS_HERE, F_RAISES_HEIGHT,
 F_STOP_BID, F_BID_AFTER, F_WORTH, F_WORTH_GAP, F_ITEM_POINTS, F_LAST_AUCTION, F_WINS_TIES, F_ITEM_FOUNTAIN,
 F_ITEM_AMPHITHEATRE, F_ITEM_TEMPLE, F_PLACE_GAIN, F_OPP_PLACE_GAIN, F_STOP_DRAW, F_DRAW_ROOF, F_DRAW_STONE,
 F_DRAW_PERMIT, F_PERMIT_USEFUL, F_ROOF_NEEDED) = range(N_FEATURES)
