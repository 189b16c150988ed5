"""What a seat may see (digest §5.2) and determinisation for search players.

Hidden from a seat: the other hands and the order of the deck. Its ``observe`` view marks every card
it cannot locate HIDDEN, and the deck's order with it. The screens (workers, seals) and the gold are
shown (``screen_view = recall``, the default): every change to them is a public event (3 workers at
the start, 2 per banner, 1 per covered tent, the workers placed, the payouts, the seals cashed and
the gold paid), so a player with perfect recall knows them exactly; the view is that player's (the
digest's perfect-recall view). A card taken from the display is public knowledge too, but the view
keeps it hidden like any card in another hand: it shows no more than the public events, a little
less.

``determinise`` deals the cards the seat cannot locate out again at random: each other seat as many
as it holds (hand sizes are public), the rest into the deck in a random order.

Under ``screen_view = hidden`` (AMB-12, digest §5.2: the view without perfect recall) the game's
``observe`` also runs ``hide_screens``: the other seats' screens (own and neutral workers, seals)
and gold become HIDDEN, and the per-seat counts the records keep of seals and gold (B_PAID,
COMPLETIONS, BANNER_SEALS, BANNER_GOLD, GOLD_FAMILY, GOLD_BANNER) 0. ``determinise`` then deals them
too: what the table shows exactly (own workers: 11 less those in the general supply and on the
board; under physical_88 the seals of each family out of the supply), the rest guessed from the
seat's own holdings (``_deal_screens``)."""

import numpy as np
from bgsim.sim.games.arkadia.state import (
    B_FAMILY,
    B_PAID,
    B_SEAL,
    BANNER_GOLD,
    BANNER_SEALS,
    BANNERS,
    CARD_LOC,
    CELL_KIND,
    CELL_WHO,
    COMPLETIONS,
    DECK,
    DECK_TOP,
    GOLD,
    GOLD_BANNER,
    GOLD_FAMILY,
    HAND_N,
    HIDDEN,
    IN_DECK,
    IN_HAND,
    MAX_CARDS,
    MAX_CELLS,
    MAX_P,
    N_BUILDINGS,
    N_FAMILIES,
    N_PLAYERS,
    NEUTRAL_SCREEN,
    OWN_SCREEN,
    OWN_SUPPLY,
    OWN_WORKERS,
    SEAL_LIMIT,
    SEALS,
    SEALS_OUT,
    WORKER,
)
from bgsim.sim.rng import below, shuffle
from numba import njit


@njit(cache=True)
def _unseen(loc, seat):
    """A card ``seat`` cannot locate: in the deck or another hand (or already HIDDEN in a view)."""
    return loc == HIDDEN or loc == IN_DECK or (IN_HAND <= loc < MAX_P and loc != IN_HAND + seat)


@njit(cache=True)
def observe(s, seat, out):
    """``out`` ((STATE_SIZE,) int32) = the view of ``s`` for ``seat``."""
    out[:] = s
    for card in range(MAX_CARDS):
        if _unseen(s[CARD_LOC + card], seat):
            out[CARD_LOC + card] = HIDDEN
    for i in range(s[DECK_TOP], MAX_CARDS):
        if s[DECK + i] >= 0:
            out[DECK + i] = HIDDEN


@njit(cache=True)
def determinise(s, seat, rng):
    """Deal, in place, the cards ``seat`` cannot locate in ``s`` (a view or a full state) at random;
    ``rng`` (1,) uint64 stream, advanced. What the seat sees is left as it is."""
    unseen = np.empty(MAX_CARDS, dtype=np.int64)
    m = 0
    for card in range(MAX_CARDS):  # ascending ids: independent of where the cards really are
        if _unseen(s[CARD_LOC + card], seat):
            unseen[m] = card
            m += 1
    cards = unseen[:m]
    shuffle(cards, rng, 0)
    k = 0
    for other in range(s[N_PLAYERS]):
        if other == seat:
            continue
        for _ in range(s[HAND_N + other]):
            s[CARD_LOC + cards[k]] = IN_HAND + other
            k += 1
    for i in range(s[DECK_TOP], MAX_CARDS):  # the deck's places still to draw, in the shuffled order
        if s[DECK + i] == -1:
            break
        s[DECK + i] = cards[k]
        s[CARD_LOC + cards[k]] = IN_DECK
        k += 1
    for other in range(s[N_PLAYERS]):
        if other != seat and s[GOLD + other] == HIDDEN:  # a view of screen_view = hidden
            _deal_screens(s, seat, rng)
            break


@njit(cache=True)
def _seals_on_buildings(s):
    """(N_FAMILIES,) int64: the seals lying on buildings under construction, by family (public)."""
    out = np.zeros(N_FAMILIES, dtype=np.int64)
    for b in range(s[N_BUILDINGS]):
        if s[B_SEAL + b] == 1:
            out[s[B_FAMILY + b]] += 1
    return out


@njit(cache=True)
def hide_screens(view, seat):
    """``screen_view = hidden`` (AMB-12, digest §5.2): in ``view`` ((STATE_SIZE,) int32, a view of
    ``observe``), the other seats' screens and gold HIDDEN, and the counts of seals and gold the
    records keep per seat 0, so that states differing only there give the same view. Under an
    unlimited seal supply (AMB-8) the seals out of it count only those on buildings and the seat's
    own (nothing to count on the table); the physical supply is counted on the table and stays."""
    n = view[N_PLAYERS]
    for other in range(n):
        if other == seat:
            continue
        view[OWN_SCREEN + other] = HIDDEN
        view[NEUTRAL_SCREEN + other] = HIDDEN
        view[GOLD + other] = HIDDEN
        view[GOLD_BANNER + other] = 0
        view[COMPLETIONS + other] = 0
        for f in range(N_FAMILIES):
            view[SEALS + other * N_FAMILIES + f] = HIDDEN
            view[GOLD_FAMILY + other * N_FAMILIES + f] = 0
        for k in range(BANNERS):
            view[BANNER_SEALS + other * BANNERS + k] = 0
            view[BANNER_GOLD + other * BANNERS + k] = 0
        for b in range(view[N_BUILDINGS]):
            view[B_PAID + b * MAX_P + other] = 0
    if view[SEAL_LIMIT] == 0:
        on_buildings = _seals_on_buildings(view)
        for f in range(N_FAMILIES):
            view[SEALS_OUT + f] = on_buildings[f] + view[SEALS + seat * N_FAMILIES + f]


@njit(cache=True)
def _deal_screens(s, seat, rng):
    """The screens and gold ``hide_screens`` hid, dealt for ``seat``: each other seat's own workers as
    the table counts them (ARK-SETUP-3, -4: 11 of its colour, less the general supply's and the
    board's); its neutral workers and gold as many as the seat holds itself, having no count of
    them; its seals as many as the seat holds, each of a family at random. Under physical_88 the
    seals out of the supply are counted on the table (AMB-8): those not on a building or behind the
    seat's own screen are dealt among the other seats at random instead."""
    n = s[N_PLAYERS]
    on_board = np.zeros(MAX_P, dtype=np.int64)
    for cell in range(MAX_CELLS):
        if s[CELL_KIND + cell] == WORKER and s[CELL_WHO + cell] < MAX_P:
            on_board[s[CELL_WHO + cell]] += 1
    others = np.empty(MAX_P, dtype=np.int64)
    m = 0
    held = 0
    for f in range(N_FAMILIES):
        held += s[SEALS + seat * N_FAMILIES + f]
    for other in range(n):
        if other == seat:
            continue
        others[m] = other
        m += 1
        s[OWN_SCREEN + other] = OWN_WORKERS - s[OWN_SUPPLY + other] - on_board[other]
        s[NEUTRAL_SCREEN + other] = s[NEUTRAL_SCREEN + seat]
        s[GOLD + other] = s[GOLD + seat]
        for f in range(N_FAMILIES):
            s[SEALS + other * N_FAMILIES + f] = 0
    on_buildings = _seals_on_buildings(s)
    if s[SEAL_LIMIT] > 0:
        for f in range(N_FAMILIES):
            for _ in range(s[SEALS_OUT + f] - on_buildings[f] - s[SEALS + seat * N_FAMILIES + f]):
                s[SEALS + others[below(rng, 0, m)] * N_FAMILIES + f] += 1
        return
    for k in range(m):
        for _ in range(held):
            s[SEALS + others[k] * N_FAMILIES + below(rng, 0, N_FAMILIES)] += 1
    for f in range(N_FAMILIES):
        total = on_buildings[f]
        for other in range(n):
            total += s[SEALS + other * N_FAMILIES + f]
        s[SEALS_OUT + f] = total
