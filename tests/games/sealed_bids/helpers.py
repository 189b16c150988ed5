"""Test positions for Sealed Bids: reading a state field and dealing chosen hands."""

from bgsim.sim.games.sealed_bids.state import IN_HAND, UNDEALT


def field(game, state, name):
    return game.field(state, name)


def deal_hands(game, state, hands):
    """Give each seat the cards of ``hands`` (values, seat by seat); the rest go to the box."""
    loc = field(game, state, "loc")
    loc[:] = UNDEALT
    for seat, values in enumerate(hands):
        for v in values:
            card = 2 * (v - 1) + (1 if loc[2 * (v - 1)] != UNDEALT else 0)
            loc[card] = IN_HAND + seat
        field(game, state, "hand_n")[seat] = len(values)
