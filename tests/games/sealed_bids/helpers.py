"""Test positions for Sealed Bids: reading a state field, the prize deck and dealing chosen hands."""

from bgsim.sim.games.sealed_bids.state import IN_HAND, UNDEALT


def field(game, state, name):
    return game.field(state, name)


def dealt_prizes(game, state):
    """The prize deck of ``state`` as dealt (8, 10 or 15 entries: ``deck_n``), a view into it; the
    field itself is as long as the largest deck, -1 past this game's."""
    return field(game, state, "prize_deck")[: int(field(game, state, "deck_n")[0])]


def deal_hands(game, state, hands):
    """Give each seat the cards of ``hands`` (values, seat by seat); the rest go to the box."""
    loc = field(game, state, "loc")
    loc[:] = UNDEALT
    for seat, values in enumerate(hands):
        for v in values:
            card = 2 * (v - 1) + (1 if loc[2 * (v - 1)] != UNDEALT else 0)
            loc[card] = IN_HAND + seat
        field(game, state, "hand_n")[seat] = len(values)
