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
    ("my_gold_change", "STONE: the change of what the seat's seals are worth now: its seals of the row's family "
     "if the stone raises it, less its seals of the family the stone covers"),
    ("lowers_other", "STONE: 1 if the stone covers a family the seat holds no seal of"),
    ("my_workers_around", "BUILD, WORKERS: the seat's workers next to the building (each pays when it completes)"),
    ("free_after", "BUILD: free cells around the new building once placed (0: it completes at once)"),
    ("closable", "WORKERS, PUT: 1 if the workers behind the seat's screen (for PUT, this one included) can fill "
     "every free cell around the building: it can complete the building this turn"),
    ("own_pays", "PUT (own worker): the values of the families of the buildings under construction next to the "
     "cell, one payout each (ARK-WORKER-6)"),
    ("seals_at_risk", "BANNER (use), CASH: seals (cashed, or all held for BANNER) times the fields showing their "
     "family that the current level still covers (ARK-CASTLE-2: each open field gets a stone)"),
    ("seals_can_rise", "BANNER (use), CASH: seals times the fields their family can still gain on the current "
     "level (its stones on the level's supply, at most the open fields showing another family)"),
    ("stones_to_end", "BANNER (use): castle stones still to place until level 2 fills and the end comes "
     "(ARK-END-1, 0 once triggered); CASH: that times the seals cashed"),
    ("workers_held", "BANNER (use): workers behind the seat's screen, own and neutral"),
    ("banners_left", "BANNER (use): banners the seat still holds"),
    # The columns below each belong to one decision, some repeating a column above there, so that a
    # fitted expert weighs every decision apart (a worker put is not an action B started): a column
    # shared by two decisions makes one weight serve both.
    ("put_free_left", "PUT: free cells left around the target building once this worker stands (0: it completes, "
     "ARK-COMPLETE-1)"),
    ("put_closable", "PUT: closable, on PUT rows only"),
    ("done_placed", "DONE: workers this action B has placed (ARK-WORKER-2)"),
    ("done_free_left", "DONE: free cells left around the target building"),
    ("take_cells", "REFILL (display card): the cells of the card's building (ARK-PLACE-8)"),
    ("take_value", "REFILL (display card): the castle's value of the card's family now"),
    ("take_my_seals", "REFILL (display card): the seat's seals of the card's family"),
    ("put_completes", "PUT: completes, on PUT rows only"),
    ("put_my_payout", "PUT: my_payout, on PUT rows only"),
    ("stone_family_value", "STONE: family_value, on STONE rows only"),
    ("cash_at_risk", "CASH: seals_at_risk, on CASH rows only"),
    ("cash_can_rise", "CASH: seals_can_rise, on CASH rows only"),
    ("cash_to_end", "CASH: stones_to_end, on CASH rows only"),
)

FEATURE_NAMES = tuple(name for name, _ in _FEATURES)
FEATURE_DOCS = dict(_FEATURES)
N_FEATURES = len(FEATURE_NAMES)
(F_BUILD, F_WORKERS, F_PUT_OWN, F_PUT_NEUTRAL, F_DONE, F_CELLS, F_TENTS, F_COMPLETES, F_MY_PAYOUT, F_FAMILY_VALUE,
 F_FREE_AROUND, F_MY_SEALS, F_VALUE_CHANGE, F_TAKE_DECK, F_USE_BANNER, F_CASH_COUNT, F_CASH_GOLD, F_TENTS_TAKEN,
 F_SKIP, F_MY_GOLD_CHANGE, F_LOWERS_OTHER, F_MY_WORKERS_AROUND, F_FREE_AFTER, F_CLOSABLE, F_OWN_PAYS,
 F_SEALS_AT_RISK, F_SEALS_CAN_RISE, F_STONES_TO_END, F_WORKERS_HELD, F_BANNERS_LEFT, F_PUT_FREE_LEFT, F_PUT_CLOSABLE,
 F_DONE_PLACED, F_DONE_FREE_LEFT, F_TAKE_CELLS, F_TAKE_VALUE, F_TAKE_MY_SEALS, F_PUT_COMPLETES, F_PUT_MY_PAYOUT,
 F_STONE_FAMILY_VALUE, F_CASH_AT_RISK, F_CASH_CAN_RISE, F_CASH_TO_END) = range(N_FEATURES)
