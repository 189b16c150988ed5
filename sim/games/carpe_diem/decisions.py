"""Decision kinds and the action columns of Carpe Diem's candidate tables (digest §4).

The engine groups the decision list D01–D13 into tables a heuristic can compare row by row:

=================  ==============  ==========================================================
kind               digest          one row per
=================  ==============  ==========================================================
PATRICIAN          D01             free patrician space
TURN               D02 + D03 + D04 movement x tile in the reached depot x placement or STORE
REWARD_ORDER       D05             pending reward of one build (asked only if order matters)
CRAFTSMAN          D06 + D04       seal tile x placement or STORE (DECLINE if optional)
FOUNTAIN           D07             card put under the deck (or none, short deck only)
DISC               D08             empty live disc space
CARD_ORDER         D09             triggered card resolved first (asked only if order matters)
FULFIL             D10 + D11 k     (b, k): bread and normal fulfilments of the current card
PAYMENT            D11 payment     units of one goods kind paid with coins instead of goods
ANNA_PATRICIAN     D12             free space for Anna's patrician (solo, the human decides)
ANNA_TIE           D13             tile Anna takes among those tied after CD-ANNA-15 (a)-(d)
=================  ==============  ==========================================================

D12 and D13 belong to the solo automa (CD-ANNA); both are the human's (seat 0) decisions.
Decisions with a single legal action are resolved by the engine and never asked:
FULFIL, PAYMENT, FOUNTAIN and CARD_ORDER with one row.

Candidate order (ties go to the first row): TURN — movement STEP_CW, STEP_CCW, then bread
targets by space; within a movement depot slot 0..3; within a tile cells 0..35 by rotation
0..3, then STORE. Other kinds list rows by ascending action values.
"""

__all__ = ["DECISION_NAMES", "ACTION_FIELDS", "N_ACTION_FIELDS"]

OVER = 0
PATRICIAN = 1
TURN = 2
REWARD_ORDER = 3
CRAFTSMAN = 4
FOUNTAIN = 5
DISC = 6
CARD_ORDER = 7
FULFIL = 8
PAYMENT = 9
ANNA_PATRICIAN = 10
ANNA_TIE = 11
DECISION_NAMES = (
    "over", "patrician", "turn", "reward_order", "craftsman", "fountain", "disc", "card_order",
    "fulfil", "payment", "anna_patrician", "anna_tie",
)

# Movement codes (D02).
STEP_CW = 0
STEP_CCW = 1
BREAD_TO = 2  # pay 1 bread, go to `target` (which has tiles)
BREAD_THEN_CW = 3  # AMB-15 alternative: bread to an empty `target`, then on clockwise
BREAD_THEN_CCW = 4
MOVE_NAMES = ("step_cw", "step_ccw", "bread_to", "bread_then_cw", "bread_then_ccw")

# Action columns; -1 where a column does not apply.
A_KIND = 0  # decision kind
A_MOVE = 1  # TURN: movement code
A_TARGET = 2  # TURN: space paid for with bread (== space unless AMB-15 alternative)
A_SPACE = 3  # TURN: space whose depot gives the tile; PATRICIAN, ANNA_PATRICIAN: space; DISC: disc
#             space; CRAFTSMAN: seal space (-1 = decline); ANNA_TIE: the depot's space
A_SLOT = 4  # TURN, ANNA_TIE: depot place 0..3; REWARD_ORDER: pending reward index; FOUNTAIN: index into
#            drawn + held cards (-1 = return none); CARD_ORDER: 0/1 triggered card first; PAYMENT: goods kind
A_TILE = 5  # TURN / CRAFTSMAN / ANNA_TIE: tile id; FOUNTAIN: fountain card id; CARD_ORDER / FULFIL: scoring card id
A_CELL = 6  # TURN / CRAFTSMAN: district cell, -1 = store
A_ROT = 7  # TURN / CRAFTSMAN: quarter turns clockwise
A_BREAD = 8  # FULFIL: bread fulfilments b
A_COUNT = 9  # FULFIL: normal fulfilments k; PAYMENT: units paid with coins; REWARD_ORDER: feature type
ACTION_FIELDS = ("kind", "move", "target", "space", "slot", "tile", "cell", "rotation", "bread", "count")
N_ACTION_FIELDS = len(ACTION_FIELDS)
