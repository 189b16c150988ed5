"""Arkadia's decision kinds (the state's PHASE), after the digest's decision list (§5.1), and the
action columns of the candidate tables (``kernels/candidates.py`` documents the row order)."""

__all__ = ["ACTION_FIELDS", "BANNER", "CASH", "CASTLE_SITE", "DECISION_NAMES", "N_ACTION_FIELDS", "OVER", "PART1",
           "PUT_WORKER", "REFILL", "STONE", "TENTS"]

OVER = 0  # the game is over
CASTLE_SITE = 1  # D0: the start player chooses the castle site (castle_placement = chosen, AMB-10)
PART1 = 2  # D1: BUILD(card, placement), WORKERS(building) or SKIP when neither is legal (ARK-TURN-2..5)
PUT_WORKER = 3  # D1-B, factorised: PUT(cell, own | neutral) around the chosen building, or DONE (ARK-WORKER-2)
TENTS = 4  # how many neutral workers to take for the tents just covered (tent_reward = choose, ARK-PLACE-5)
STONE = 5  # D2: STONE(family, field), once per newly completed building (ARK-CASTLE-3)
REFILL = 6  # D3: TAKE_DISPLAY(i) or TAKE_DECK (ARK-PLACE-8)
BANNER = 7  # D4: NO_BANNER or BANNER (ARK-BANNER-1)
CASH = 8  # D4, factorised: CASH(n) seals of the next family (ARK-BANNER-3)
DECISION_NAMES = ("over", "castle_site", "part1", "put_worker", "tents", "stone", "refill", "banner", "cash")

# What one candidate row does (its A_KIND), with the columns it uses.
DO_SITE = 1  # A_SITE: the castle site (D0)
DO_BUILD = 2  # A_CARD, A_PLACEMENT: play the card, place its building there (ARK-PLACE)
DO_WORKERS = 3  # A_BUILDING: action B around that building (ARK-WORKER-1)
DO_SKIP = 4  # no legal part 1 (AMB-1)
DO_PUT = 5  # A_CELL, A_NEUTRAL: one worker (own 0, neutral 1) on that cell (ARK-WORKER-2)
DO_DONE = 6  # end action B (at least min_workers_in_b placed)
DO_TENTS = 7  # A_COUNT: neutral workers taken for the tents covered (ARK-PLACE-5)
DO_STONE = 8  # A_FAMILY, A_FIELD: one castle stone (ARK-CASTLE-3)
DO_TAKE = 9  # A_SLOT: a display card (0..2), or the deck's top card (-1) (ARK-PLACE-8)
DO_BANNER = 10  # A_COUNT: 1 uses a banner, 0 does not (ARK-BANNER-1)
DO_CASH = 11  # A_FAMILY, A_COUNT: seals of that family cashed (ARK-BANNER-3)

A_KIND, A_SITE, A_CARD, A_PLACEMENT, A_BUILDING, A_CELL, A_NEUTRAL, A_COUNT, A_FAMILY, A_FIELD, A_SLOT = range(11)
ACTION_FIELDS = ("kind", "site", "card", "placement", "building", "cell", "neutral", "count", "family", "field",
                 "slot")
N_ACTION_FIELDS = len(ACTION_FIELDS)
