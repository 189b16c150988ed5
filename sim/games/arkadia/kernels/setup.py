"""The setup: every chance event of a game, from its chance seed, in this order: the castle site
(castle_placement = random, AMB-10), the shuffle of the building cards, the random start seat
(start_seat = random). Then the deal (ARK-SETUP-6: 4 cards to each seat from seat 0 on, 3 to the
display), the screens and supplies (ARK-SETUP-3, -4), the castle's stone supplies (ARK-SETUP-5),
and the first-game layout (ARK-SETUP-9)."""

import numpy as np
from bgsim.sim.games.arkadia.decisions import CASTLE_SITE, PART1
from bgsim.sim.games.arkadia.events import EV_DISPLAY, EV_HAND, EV_LAYOUT, EV_SITE, EV_TURN, log_event, logging_on
from bgsim.sim.games.arkadia.kernels.board import lay_castle_site, place_building
from bgsim.sim.games.arkadia.kernels.castle import reset_castle
from bgsim.sim.games.arkadia.param_slots import (
    PR_CASTLE,
    PR_INTRO,
    PR_N_PLAYERS,
    PR_NEUTRAL_SUPPLY,
    PR_SEALS,
    PR_START,
    PR_START_SEAT,
)
from bgsim.sim.games.arkadia.params import CASTLE_CHOSEN, CASTLE_RANDOM
from bgsim.sim.games.arkadia.state import (
    B_PLACER,
    B_TARGET,
    BANNER_TURN,
    BANNERS,
    BANNERS_LEFT,
    CARD_LOC,
    CASH_FAMILY,
    CELL_KIND,
    CELL_WHO,
    DECK,
    DECK_TOP,
    DISPLAY,
    DISPLAY_SIZE,
    HAND,
    HAND_N,
    IN_DECK,
    IN_DISPLAY,
    IN_HAND,
    INTRO,
    MAX_CARDS,
    MAX_CELLS,
    MAX_P,
    N_PLAYERS,
    NEUTRAL_SCREEN,
    NEUTRAL_SUPPLY,
    NO_CARD,
    OWN_SCREEN,
    OWN_SUPPLY,
    OWN_WORKERS,
    PHASE,
    SEAL_LIMIT,
    SEALS_PER_FAMILY,
    SEAT,
    SITE_INDEX,
    START_GOLD,
    START_SEAT,
    START_WORKERS,
    STATE_SIZE,
    T_CARD,
    T_COLS,
    T_INTRO,
    T_INTRO_SITE,
    T_N_CARDS,
    T_N_INTRO,
    T_N_SITES,
    T_ROWS,
    T_SITE_CELLS,
    TRIGGER_SEAT,
    TURN,
    TURNS_LEFT,
)
from bgsim.sim.rng import below, shuffle
from numba import njit

PHYSICAL_SEALS = 1  # seal_supply = physical_88 (AMB-8)

INTRO_NEUTRALS = (0, 0, 3, 2, 1)  # extra neutral workers each, by player count (ARK-SETUP-9)


@njit(cache=True)
def _site(t, p, rng):
    """The castle site's row in the table's sites: the first game's, a fixed one, a random one from
    the chance stream, or -1 when the start player chooses it."""
    if p[PR_INTRO]:
        return t[T_INTRO_SITE]
    mode = p[PR_CASTLE]
    if mode == CASTLE_RANDOM:
        return below(rng, 0, t[T_N_SITES])
    if mode == CASTLE_CHOSEN:
        return -1
    cols = t[T_COLS]
    for site in range(t[T_N_SITES]):  # a fixed site: the one whose top-left cell and orientation match
        first = t[T_SITE_CELLS + site * 12]
        tall = t[T_SITE_CELLS + site * 12 + 3] == first + cols  # a tall site's 4th cell starts its second row
        if first == p[PR_CASTLE + 1] * cols + p[PR_CASTLE + 2] and tall == (p[PR_CASTLE + 3] == 1):
            return site
    return -1


@njit(cache=True)
def deal_into(s, t, p, chance, log):
    """A new game into ``s`` ((STATE_SIZE,) int32) from the component table ``t``, the parameters
    ``p`` ((N_PARAMS,) int32) and the 64-bit chance seed. ``log`` gets the setup's events: a played
    game is dealt without one, its trace deals again into a log of its own (``events.py``)."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = chance
    n = p[PR_N_PLAYERS]
    s[:] = 0
    s[N_PLAYERS] = n
    s[TRIGGER_SEAT] = -1
    s[SEAL_LIMIT] = SEALS_PER_FAMILY if p[PR_SEALS] == PHYSICAL_SEALS else 0  # AMB-8: 0 unlimited
    for i in range(MAX_P * BANNERS):
        s[BANNER_TURN + i] = -1
    for cell in range(MAX_CELLS):
        s[CELL_WHO + cell] = -1
    cells = t[T_ROWS] * t[T_COLS]
    for cell in range(cells, MAX_CELLS):  # cells beyond the board count as taken: nothing goes there
        s[CELL_KIND + cell] = -1
    site = _site(t, p, rng)
    s[SITE_INDEX] = -1
    if site >= 0:
        lay_castle_site(s, t, site)
        log_event(log, EV_SITE, -1, site)
    n_cards = t[T_N_CARDS]
    intro = t[T_N_INTRO] if p[PR_INTRO] else 0
    for card in range(MAX_CARDS):  # past the last card the deck reads empty (-1)
        s[CARD_LOC + card] = IN_DECK if card < n_cards else NO_CARD
        s[DECK + card] = -1
    for i in range(intro):  # ARK-SETUP-9: the layout's buildings, their cards out of the deck
        card, place, family = t[T_INTRO + 3 * i], t[T_INTRO + 3 * i + 1], t[T_INTRO + 3 * i + 2]
        s[CARD_LOC + card] = INTRO
        b, _ = place_building(s, t, place, family)
        s[B_PLACER + b] = -1  # nobody's: the layout was laid out before play
        log_event(log, EV_LAYOUT, -1, b, card, t[T_CARD + 2 * card], family, place)
    deck = np.empty(n_cards - intro, dtype=np.int64)
    k = 0
    for card in range(n_cards):
        if s[CARD_LOC + card] == IN_DECK:
            deck[k] = card
            k += 1
    shuffle(deck, rng, 0)
    for i in range(len(deck)):
        s[DECK + i] = deck[i]
    s[DECK_TOP] = 0
    start = p[PR_START_SEAT]
    s[START_SEAT] = below(rng, 0, n) if start < 0 else start
    for seat in range(n):
        for _ in range(HAND):
            _deal(s, IN_HAND + seat)
        s[HAND_N + seat] = HAND
    for i in range(DISPLAY_SIZE):
        s[DISPLAY + i] = s[DECK + s[DECK_TOP]]
        _deal(s, IN_DISPLAY)
    extra = INTRO_NEUTRALS[n] if p[PR_INTRO] else 0
    supply = p[PR_NEUTRAL_SUPPLY]
    s[NEUTRAL_SUPPLY] = -1 if supply < 0 else max(supply - extra * n, 0)  # -1: unlimited (AMB-7)
    for seat in range(n):
        s[OWN_SCREEN + seat] = START_WORKERS
        s[OWN_SUPPLY + seat] = OWN_WORKERS - START_WORKERS
        s[BANNERS_LEFT + seat] = BANNERS
        s[NEUTRAL_SCREEN + seat] = extra
        s[START_GOLD + seat] = p[PR_START + seat]
    reset_castle(s)
    s[TURNS_LEFT] = -1
    s[B_TARGET] = -1
    s[CASH_FAMILY] = -1
    s[SEAT] = s[START_SEAT]
    s[PHASE] = CASTLE_SITE if site < 0 else PART1
    _log_deal(s, n, log)


@njit(cache=True)
def _log_deal(s, n, log):
    """The hands (in card id order), the display and the first turn's start."""
    if not logging_on(log):
        return  # no need to look for the hands
    hand = np.full(HAND, -1, dtype=np.int64)
    for seat in range(n):
        k = 0
        for card in range(MAX_CARDS):
            if s[CARD_LOC + card] == IN_HAND + seat and k < HAND:
                hand[k] = card
                k += 1
        log_event(log, EV_HAND, seat, hand[0], hand[1], hand[2], hand[3])
    for i in range(DISPLAY_SIZE):
        log_event(log, EV_DISPLAY, -1, i, s[DISPLAY + i])
    log_event(log, EV_TURN, s[SEAT], s[TURN], s[SEAT])


@njit(cache=True)
def _deal(s, location):
    """The top card of the deck to ``location`` (a hand, or the display)."""
    card = s[DECK + s[DECK_TOP]]
    s[DECK + s[DECK_TOP]] = -1
    s[DECK_TOP] += 1
    s[CARD_LOC + card] = location


@njit(cache=True)
def new_game(t, p, chance, log):
    """A dealt game, (STATE_SIZE,) int32, waiting for the start player."""
    s = np.empty(STATE_SIZE, dtype=np.int32)
    deal_into(s, t, p, chance, log)
    return s
