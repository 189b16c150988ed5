"""Decision kinds and action columns of Capitol's candidate tables (digest §5.1, D1-D5).

A sealed bid (D2) is a sequence of one-card decisions, each putting one more card on top of the
bid stack, ended by STOP; the stack stays hidden from the other seats until every seat has bid.
The flow applies the forced cases without asking: a seat with no cards passes and bids 0, an item
with one free place goes there, a draw from the only pile with no choice to stop is taken. (A
table with one row can still be asked elsewhere, e.g. pass alone under ``allow_null_play = false``.)
"""

__all__ = ["ACTION_FIELDS", "DECISION_NAMES", "N_ACTION_FIELDS"]

OVER = 0
BUILD = 1  # D1, CAP-BUILD-2
BID = 2  # D2, CAP-AUCTION-3
PLACE = 3  # D3, CAP-AUCTION-9
DRAW = 4  # D4, CAP-DRAW-5
DISCARD = 5  # D5, AMB-13 winner_choice
DECISION_NAMES = ("over", "build", "bid", "place", "draw", "discard")

A_KIND = 0  # the decision kind
A_OP = 1  # what the row does (OP_* below)
A_CARD = 2  # card class played, bid or discarded (state.py), -1 none
A_X = 3  # stone allocation / height / prefecture / pile type, by op
A_Y = 4
A_Z = 5
ACTION_FIELDS = ("kind", "op", "card", "x", "y", "z")
N_ACTION_FIELDS = len(ACTION_FIELDS)

# build (D1)
OP_PASS = 0
OP_STONE = 1  # x = allocation (ALLOC_*), y, z = heights of the unfinished houses it adds to
OP_ROOF = 2  # x = height of the unfinished house, y = roof shape
OP_PERMIT = 3  # x = height, y = roof shape of the finished house, z = prefecture
OP_NULL = 4  # the card is discarded without its action (CAP-BUILD-5)
# bid (D2) and draw (D4)
OP_STOP = 0
OP_ADD = 1  # bid: put card class ``card`` on the stack
OP_TAKE = 1  # draw: take the top card of pile type x
# place (D3): x = prefecture; discard (D5): card = class to discard next
OP_PLACE = 1
OP_DISCARD = 1

# Stone allocations (CAP-BUILD-8, -9), written as the change to the unfinished houses
ALLOC_ADD2 = 0  # +2 on a house of height y
ALLOC_ADD1_ADD1 = 1  # +1 on a house of height y and +1 on another of height z (y <= z)
ALLOC_ADD1_NEW = 2  # +1 on a house of height y and a new house of height 1
ALLOC_NEW1_NEW1 = 3  # two new houses of height 1
ALLOC_NEW2 = 4  # one new house of height 2
ALLOC_ADD1 = 5  # one stone: +1 on a house of height y
ALLOC_NEW1 = 6  # one stone: a new house of height 1
ALLOC_NAMES = ("+2 on a house", "+1 on two houses", "+1 on a house and a new house", "two new houses",
               "a new house of 2", "+1 on a house", "a new house of 1")
