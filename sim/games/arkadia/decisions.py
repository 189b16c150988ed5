"""Arkadia's decision kinds (the state's PHASE), after the digest's decision list (§5.1). The
candidate tables (their action columns and order) come with the kernels that build them."""

__all__ = ["BANNER", "CASH", "CASTLE_SITE", "OVER", "PART1", "PUT_WORKER", "REFILL", "STONE", "TENTS"]

OVER = 0  # the game is over
CASTLE_SITE = 1  # D0: the start player chooses the castle site (castle_placement = chosen, AMB-10)
PART1 = 2  # D1: BUILD(card, placement), WORKERS(building) or SKIP when neither is legal (ARK-TURN-2..5)
PUT_WORKER = 3  # D1-B, factorised: PUT(cell, own | neutral) around the chosen building, or DONE (ARK-WORKER-2)
TENTS = 4  # how many neutral workers to take for the tents just covered (tent_reward = choose, ARK-PLACE-5)
STONE = 5  # D2: STONE(family, field), once per newly completed building (ARK-CASTLE-3)
REFILL = 6  # D3: TAKE_DISPLAY(i) or TAKE_DECK (ARK-PLACE-8)
BANNER = 7  # D4: NO_BANNER or BANNER (ARK-BANNER-1)
CASH = 8  # D4, factorised: CASH(n) seals of the next family (ARK-BANNER-3)
