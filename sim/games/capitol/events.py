"""The events of a Capitol game: what happened, written by the kernels into the event log
(``sim.event_log``: one row per event, its code, the seat, then the values below), read by
``render.py``."""

from bgsim.sim.event_log import events, log_event

__all__ = ["EVENT_CAP", "EVENT_NAMES", "EVENT_WIDTH", "events", "log_event"]

EVENT_WIDTH = 8  # code, seat, then up to 6 values
EVENT_CAP = 2048

EV_ROUND = 1  # round, consul
EV_PASS = 2  # (seat)
EV_STONE = 3  # card class, allocation, y, z, stones taken
EV_ROOF = 4  # card class, height, shape
EV_PERMIT = 5  # card class, height, shape, prefecture
EV_NULL = 6  # card class
EV_AUCTION = 7  # auction, item
EV_NO_SPACE = 8  # auction, item: removed unheld, no free space (AMB-17)
EV_BID = 9  # auction, bid value, cards in the bid (one per seat, at the reveal)
# auction, price, reason (0 highest, 1 lower score in a tie, 2 tie_rule with no bids), points scored at once
# (CAP-VAR-1 item_points; 0 by the rules)
EV_WIN = 10
EV_REMOVED = 11  # auction, reason (1 nobody bid, 2 tie with equal scores, 3 off the track from the deal)
EV_PAY = 12  # card class (one per card of the winning bid, in discard order)
EV_PLACE_ITEM = 13  # auction, item, prefecture
EV_SCORE = 14  # round, prefecture, place (1 first, 2 second), points, stones, tallest
EV_SCORING = 15  # round (start of a scoring phase)
EV_DRAW = 16  # card class, pile type, bonus (0 base, 1 bonus)
EV_DRAW_STOP = 17  # draws left, bonus left (declined or lost)
EV_TURNOVER = 18  # pile type, cards turned over (CAP-DRAW-3)
EV_BONUS = 19  # amphitheatre bonus draws (CAP-DRAW-6)
EV_END = 20  # (seat = -1) final scores follow in the state
EV_PREFECTURE = 21  # round, prefecture, fountains, factor (2: temple), first seats mask, second seats mask
EVENT_NAMES = {
    EV_ROUND: "round", EV_PASS: "pass", EV_STONE: "stone", EV_ROOF: "roof", EV_PERMIT: "permit", EV_NULL: "null",
    EV_AUCTION: "auction", EV_NO_SPACE: "no_space", EV_BID: "bid", EV_WIN: "win", EV_REMOVED: "removed",
    EV_PAY: "pay", EV_PLACE_ITEM: "place_item", EV_SCORE: "score", EV_SCORING: "scoring", EV_DRAW: "draw",
    EV_DRAW_STOP: "draw_stop", EV_TURNOVER: "turnover", EV_BONUS: "bonus", EV_END: "end",
    EV_PREFECTURE: "prefecture",
}
