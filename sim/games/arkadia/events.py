"""The events of an Arkadia game: what happened, written by the kernels into the event log
(``sim.event_log``: one row per event, its code, the seat (-1 for none), then the values below),
read by ``render.py``. Cards, placements, sites and buildings are the component table's ids;
cells are ``row * cols + col``; families index ``components.FAMILIES``.

The setup's events (castle site, first-game layout, deal, first turn) are written by ``deal_into``
only when it is given a log: a played game is dealt before its log exists, so the renderer deals
again from the chance seed into a log of its own.

The kernels take ``log = None`` too (rules tests call them so), hence ``log_event`` and
``logging_on`` below: the compiler drops the call for a None log."""

from bgsim.sim import event_log
from bgsim.sim.event_log import events
from numba import njit

__all__ = ["EVENT_CAP", "EVENT_NAMES", "EVENT_WIDTH", "events", "log_event", "logging_on"]

EVENT_WIDTH = 9  # code, seat, then up to 7 values
EVENT_CAP = 4096  # a long game logs about 1,000 events (a few hundred decisions, most log one or two)

EV_SITE = 1  # site (its row in the table's sites); seat: the chooser, -1 when dealt (AMB-10)
EV_LAYOUT = 2  # (seat -1) building, card, shape, family, placement: the first-game layout (ARK-SETUP-9)
EV_HAND = 3  # card, card, card, card: the seat's dealt hand (ARK-SETUP-6)
EV_DISPLAY = 4  # (seat -1) slot, card: a card laid face up in the display, -1 none (deal and refill)
EV_TURN = 5  # turn (0-based), seat: a turn begins (seat also in the seat column)
EV_BUILD = 6  # card, shape, family, placement, building, tents covered, neutral workers taken (ARK-PLACE)
EV_TENTS = 7  # tents covered, neutral workers taken (tent_reward = choose, ARK-PLACE-5)
EV_ACTION_B = 8  # building: action B around it begins (ARK-WORKER-1)
EV_WORKER = 9  # cell, colour (the seat, or NEUTRAL = 4), building: one worker placed (ARK-WORKER-2)
EV_SKIP = 10  # (seat) part 1 skipped, no legal action (AMB-1)
EV_COMPLETE = 11  # building, family; seat: the active player (ARK-COMPLETE-1)
EV_PAYOUT = 12  # building, family, seals: one per seat paid, its own seal to the active one included
EV_STONE = 13  # family, field, level (the field's new height), stones still owed (ARK-CASTLE-3)
EV_LEVEL = 14  # (seat -1) level filled, the next level (ARK-CASTLE-4, -5)
EV_NO_STONE = 15  # stones owed but none left to place (AMB-9)
EV_TAKE = 16  # slot (-1 the deck), card: the card taken after action A (ARK-PLACE-8)
EV_BANNER = 17  # banners left, own workers behind the screen: a banner raised (ARK-BANNER-2)
EV_CASH = 18  # family, seals (0: the seat keeps them), gold, seal value: one cashing with a banner (ARK-BANNER-3, -4)
EV_TRIGGER = 19  # reason (0 level 2 full, 1 the deck empty under deck_exhaustion = trigger_end): ARK-END-1
EV_FINAL_ROUND = 20  # (seat -1) turns in the final round, the trigger's seat (it plays last, ARK-END-2)
EV_FINAL = 21  # cloth, spice, carpenter, silversmith seals cashed, their gold, the total (ARK-END-4)
# (seat -1) reason: 0 the final round played (ARK-END-4); 1 a stall before the end was triggered: nobody can act
# or a round changed nothing (AMB-5); 2 the same inside the final round, which it cuts short (the trigger's end)
EV_END = 22
# building, shape, gold: the gold a placed building paid its placer at once (ARK-VAR-1, the building_points lever;
# written only when it pays, so never by the rules)
EV_BUILDING_GOLD = 23
EV_KEEP_BANNER = 24  # banners left: the seat uses none this turn (D4, ARK-BANNER-1)
EV_DONE = 25  # building, workers placed: the seat ends its action B (D1-B DONE, ARK-WORKER-2)
EVENT_NAMES = {
    EV_SITE: "site", EV_LAYOUT: "layout", EV_HAND: "hand", EV_DISPLAY: "display", EV_TURN: "turn",
    EV_BUILD: "build", EV_TENTS: "tents", EV_ACTION_B: "action_b", EV_WORKER: "worker", EV_SKIP: "skip",
    EV_COMPLETE: "complete", EV_PAYOUT: "payout", EV_STONE: "stone", EV_LEVEL: "level", EV_NO_STONE: "no_stone",
    EV_TAKE: "take", EV_BANNER: "banner", EV_CASH: "cash", EV_TRIGGER: "trigger", EV_FINAL_ROUND: "final_round",
    EV_FINAL: "final", EV_END: "end", EV_BUILDING_GOLD: "building_gold", EV_KEEP_BANNER: "keep_banner",
    EV_DONE: "done",
}


@njit(cache=True)
def log_event(log, code, seat, a=0, b=0, c=0, d=0, e=0, f=0, g=0):
    """``sim.event_log.log_event`` for a (n + 1, EVENT_WIDTH) int32 ``log``; nothing for None."""
    if log is not None:
        event_log.log_event(log, code, seat, a, b, c, d, e, f, g)


@njit(cache=True)
def logging_on(log):
    """Whether ``log`` keeps events: not None, and more than the one row of a disabled log."""
    if log is None:
        return False
    return log.shape[0] > 1
