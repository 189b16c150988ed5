"""Feature columns: integers a heuristic weighs, computed only from what the deciding seat sees (its
hand and screen, the public board and castle), so a determinised state offers the same table. A
row's kind features are 1 for its kind and 0 otherwise."""

__all__ = ["FEATURE_DOCS", "FEATURE_NAMES", "N_FEATURES"]

_FEATURES = (
    ("build", "the row plays a card and places its building (D1, ARK-PLACE)"),
    ("workers", "the row starts an action B (D1, ARK-WORKER)"),
    ("put_own", "the row puts one own worker (D1-B)"),
    ("put_neutral", "the row puts one neutral worker (D1-B)"),
    ("done", "the row ends an action B"),
    ("cells", "BUILD: the building's cells"),
    ("tents", "BUILD: tents covered, the neutral workers they bring (ARK-PLACE-5)"),
    ("completes", "BUILD, PUT: buildings the row completes (ARK-COMPLETE-1)"),
    ("my_payout", "BUILD, PUT: seals the seat earns from the buildings the row completes"),
    ("family_value", "BUILD, WORKERS, STONE, CASH: the castle's value of the row's family now"),
    ("free_around", "WORKERS, PUT: free cells around the target building"),
    ("my_seals", "STONE, CASH: the seat's seals of the row's family"),
    ("value_change", "STONE: the change of the family's value by this stone (ARK-CASTLE-7)"),
    ("take_deck", "REFILL: the deck's top card instead of a display card"),
    ("use_banner", "BANNER: use a banner now (ARK-BANNER-1)"),
    ("cash_count", "CASH: seals cashed"),
    ("cash_gold", "CASH: the gold they bring"),
    ("tents_taken", "TENTS: neutral workers taken"),
    ("skip", "SKIP: no legal part 1 (AMB-1)"),
)

FEATURE_NAMES = tuple(name for name, _ in _FEATURES)
FEATURE_DOCS = dict(_FEATURES)
N_FEATURES = len(FEATURE_NAMES)
(F_BUILD, F_WORKERS, F_PUT_OWN, F_PUT_NEUTRAL, F_DONE, F_CELLS, F_TENTS, F_COMPLETES, F_MY_PAYOUT, F_FAMILY_VALUE,
 F_FREE_AROUND, F_MY_SEALS, F_VALUE_CHANGE, F_TAKE_DECK, F_USE_BANNER, F_CASH_COUNT, F_CASH_GOLD, F_TENTS_TAKEN,
 F_SKIP) = range(N_FEATURES)
