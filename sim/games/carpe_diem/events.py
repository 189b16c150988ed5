"""The events of a Carpe Diem game: what happened, written by the kernels into the event log
(``sim.event_log``: one row per event, its code, the seat, then the values below), read by
``render.py``."""

from bgsim.sim.event_log import events, log_event

__all__ = ["EVENT_CAP", "EVENT_NAMES", "EVENT_WIDTH", "events", "log_event"]

EVENT_WIDTH = 12  # code, seat, then up to 10 values
EVENT_CAP = 4096

EV_PASS_START = 1  # pass, start seat
EV_PATRICIAN = 2  # space
EV_MOVE = 3  # from, to, move code, bread target
EV_TAKE = 4  # space, depot place, tile
EV_DEPOT_CLEAR = 5  # space, tiles removed
EV_PLACE = 6  # tile, cell, rotation, source (0 depot, 1 seal display)
EV_STORE = 7  # tile, source
EV_BANNER = 8  # cell
EV_STEPS = 9  # steps, new position, overflow VP, source (0 banner, 1 administrator, 2 card)
EV_COMPLETE = 10  # feature type, tiles, chimneys
EV_GOODS = 11  # kind, amount
EV_MERCHANT = 12  # goods returned, coins gained
EV_BREAD = 13  # amount
EV_COINS = 14  # amount
EV_CRAFTSMAN = 15  # seal space (-1 none left / declined), tile
EV_FOUNTAIN_DRAW = 16  # cards drawn (n), card 1, card 2
EV_FOUNTAIN_RETURN = 17  # card put under the deck (-1 none)
EV_SCORING_START = 18  # pass
EV_DISC = 19  # disc space, card A, card B
EV_CARD = 20  # card, k, b, vp, coins, bread, steps, goods paid, coins paid, penalty
EV_FINAL = 21  # villas, leftovers, banner, fountain cards, frames, total, rank
EV_GAME_END = 22  # winner
EV_LOST_SUPPLY = 23  # what (0 goods, 1 coins, 2 bread), amount lost to an empty supply (AMB-7)
# Solo: Anna's actions (seat 1) and the human's choices for her (D12, D13)
EV_ANNA_CARD = 24  # pass, automa card (index into anna.toml's cards)
EV_ANNA_MOVE = 25  # from, to, arrow (0 CW, 1 CCW), card row 1..7
EV_ANNA_CHOICE = 26  # type shown (0 = fallback), candidates, tied after (a)-(d), by (0 rules, 1 human, 2 random)
EV_ANNA_TAKE = 27  # space, depot place, tile
EV_ANNA_TRACK = 28  # tile, type 1, its new field, type 2 (0 none), its new field, coins, bread, goods, banner steps
EV_ANNA_ROLL = 29  # d6, seal space (-1 none left), tile
EV_ANNA_DRAW = 30  # fountain card put on top of her pile (-1 deck empty), her new specialisation
EV_ANNA_CONVERT = 31  # items returned, banner steps
EV_ANNA_FINAL = 32  # running VP (start + overflow), banner, villa track, majorities, fountain cards, total, rank
EVENT_NAMES = {
    EV_PASS_START: "pass_start", EV_PATRICIAN: "patrician", EV_MOVE: "move", EV_TAKE: "take",
    EV_DEPOT_CLEAR: "depot_clear", EV_PLACE: "place", EV_STORE: "store", EV_BANNER: "banner",
    EV_STEPS: "steps", EV_COMPLETE: "complete", EV_GOODS: "goods", EV_MERCHANT: "merchant",
    EV_BREAD: "bread", EV_COINS: "coins", EV_CRAFTSMAN: "craftsman",
    EV_FOUNTAIN_DRAW: "fountain_draw", EV_FOUNTAIN_RETURN: "fountain_return",
    EV_SCORING_START: "scoring_start", EV_DISC: "disc", EV_CARD: "card", EV_FINAL: "final",
    EV_GAME_END: "game_end", EV_LOST_SUPPLY: "lost_supply",
    EV_ANNA_CARD: "anna_card", EV_ANNA_MOVE: "anna_move", EV_ANNA_CHOICE: "anna_choice",
    EV_ANNA_TAKE: "anna_take", EV_ANNA_TRACK: "anna_track", EV_ANNA_ROLL: "anna_roll",
    EV_ANNA_DRAW: "anna_draw", EV_ANNA_CONVERT: "anna_convert", EV_ANNA_FINAL: "anna_final",
}
