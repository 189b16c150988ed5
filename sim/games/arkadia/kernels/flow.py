"""The turn (ARK-TURN): apply one action, then run the turn's automatic steps until the next
decision. A turn is part 1 (BUILD, WORKERS or SKIP), then in order the neutral workers for covered
tents, the completions (payouts, castle stones owed), the castle stones, the card refill after a
BUILD, and the banner with its cashing; then the next seat, or the final cashing."""

import numpy as np
from bgsim.sim.games.arkadia.decisions import (
    A_BUILDING,
    A_CARD,
    A_CELL,
    A_COUNT,
    A_FAMILY,
    A_FIELD,
    A_KIND,
    A_NEUTRAL,
    A_PLACEMENT,
    A_SITE,
    A_SLOT,
    BANNER,
    CASH,
    DO_BANNER,
    DO_BUILD,
    DO_CASH,
    DO_DONE,
    DO_PUT,
    DO_SITE,
    DO_SKIP,
    DO_STONE,
    DO_TAKE,
    DO_TENTS,
    DO_WORKERS,
    OVER,
    PART1,
    PUT_WORKER,
    REFILL,
    STONE,
    TENTS,
)
from bgsim.sim.games.arkadia.events import (
    EV_ACTION_B,
    EV_BUILD,
    EV_BUILDING_GOLD,
    EV_DISPLAY,
    EV_DONE,
    EV_END,
    EV_KEEP_BANNER,
    EV_NO_STONE,
    EV_SITE,
    EV_SKIP,
    EV_TAKE,
    EV_TENTS,
    EV_TRIGGER,
    EV_TURN,
    EV_WORKER,
    log_event,
)
from bgsim.sim.games.arkadia.kernels.board import (
    complete_buildings,
    free_cells_around,
    lay_castle_site,
    place_building,
    placement_is_legal,
    put_worker,
)
from bgsim.sim.games.arkadia.kernels.castle import place_stone, stones_available
from bgsim.sim.games.arkadia.kernels.scoring import cash, end_turn, final_cashing, use_banner
from bgsim.sim.games.arkadia.param_slots import (
    PR_BUILDING_POINTS,
    PR_CASTLE_TARGET,
    PR_DECK_END,
    PR_EMPTY_B,
    PR_MIRROR,
    PR_NO_ACTION,
    PR_REFILL,
    PR_REFILL_FIRST,
    PR_STALL,
    PR_TENT_CHOOSE,
)
from bgsim.sim.games.arkadia.state import (
    B_PLACED,
    B_STATE,
    B_TARGET,
    BANNER_GOLD,
    BANNER_SEALS,
    BANNER_TURN,
    BANNERS,
    BANNERS_LEFT,
    BUILT,
    CARD_LOC,
    CASH_FAMILY,
    CASTLE_TARGET,
    DECISIONS,
    DECK,
    DECK_TOP,
    DISPLAY,
    DISPLAY_SIZE,
    END_TRIGGERED,
    GOLD_BUILDINGS,
    HAND,
    HAND_N,
    IDLE_TURNS,
    IN_DISPLAY,
    IN_HAND,
    MAX_CARDS,
    N_BUILDINGS,
    N_FAMILIES,
    N_PLAYERS,
    NEUTRAL,
    NEUTRAL_SCREEN,
    NEUTRAL_SUPPLY,
    OWN_SCREEN,
    PART1_KIND,
    PENDING_TENTS,
    PHASE,
    PLACED_WORKERS,
    PLAYED,
    SEALS,
    SEAT,
    SITE_INDEX,
    SKIPPED,
    STEP_BANNER,
    STEP_BANNER_USED,
    STEP_COMPLETED,
    STEP_REFILLED,
    STEPS_DONE,
    STONES_OWED,
    T_CARD,
    T_N_CARDS,
    T_PLACE_FIRST,
    T_PLACE_TURNED_END,
    TRIGGER_SEAT,
    TURN,
    UNDER_CONSTRUCTION,
)
from numba import njit

SKIP_TURN = 1  # no_action_policy = skip_turn (AMB-1)
FILL_TO_4 = 1  # refill_rule = fill_to_4 (AMB-4)
TRIGGER_END = 1  # deck_exhaustion = trigger_end (AMB-4)
END_IMMEDIATELY = 0  # stall_rule = end_immediately (AMB-5)
EMPTY_B_IDLE = 0  # empty_b_turn = idle (AMB-2 with min_workers_in_b = 0)


@njit(cache=True)
def apply_action(s, t, p, action, log):
    """Apply one candidate row ``action`` ((N_ACTION_FIELDS,) int) of the pending decision, then move
    on to the next decision (ARK-TURN-2, -6)."""
    seat = s[SEAT]
    kind = action[A_KIND]
    s[DECISIONS] += 1
    if kind == DO_SITE:
        lay_castle_site(s, t, action[A_SITE])
        log_event(log, EV_SITE, seat, action[A_SITE])
        s[PHASE] = PART1  # a setup choice, not a turn: the start player's first turn starts (ARK-TURN-2, -3)
        return
    elif kind == DO_BUILD:
        _build(s, t, p, seat, action[A_CARD], action[A_PLACEMENT], log)
    elif kind == DO_WORKERS:
        log_event(log, EV_ACTION_B, seat, action[A_BUILDING])
        s[PART1_KIND] = PLACED_WORKERS
        s[B_TARGET] = action[A_BUILDING]
        s[B_PLACED] = 0
        s[PHASE] = PUT_WORKER
        return
    elif kind == DO_SKIP:
        log_event(log, EV_SKIP, seat)
        s[PART1_KIND] = SKIPPED
        if p[PR_NO_ACTION] == SKIP_TURN:
            s[STEPS_DONE] = STEP_COMPLETED | STEP_REFILLED | STEP_BANNER
    elif kind == DO_PUT:
        neutral = action[A_NEUTRAL] == 1
        put_worker(s, action[A_CELL], NEUTRAL if neutral else seat)
        log_event(log, EV_WORKER, seat, action[A_CELL], NEUTRAL if neutral else seat, s[B_TARGET])
        if neutral:
            s[NEUTRAL_SCREEN + seat] -= 1
        else:
            s[OWN_SCREEN + seat] -= 1
        s[B_PLACED] += 1
        return  # more workers, or DONE, stay with the seat (ARK-WORKER-2)
    elif kind == DO_DONE:
        log_event(log, EV_DONE, seat, s[B_TARGET], s[B_PLACED])
        s[B_TARGET] = -1
    elif kind == DO_TENTS:
        before = s[NEUTRAL_SCREEN + seat]
        take_neutrals(s, seat, action[A_COUNT])
        log_event(log, EV_TENTS, seat, s[PENDING_TENTS], s[NEUTRAL_SCREEN + seat] - before)
        s[PENDING_TENTS] = 0
    elif kind == DO_STONE:
        place_stone(s, action[A_FAMILY], action[A_FIELD], log)
    elif kind == DO_TAKE:
        take_card(s, seat, action[A_SLOT], log)
        if not (p[PR_REFILL] == FILL_TO_4 and s[HAND_N + seat] < HAND and cards_to_take(s)):
            s[STEPS_DONE] |= STEP_REFILLED
    elif kind == DO_BANNER:
        s[STEPS_DONE] |= STEP_BANNER
        if action[A_COUNT] == 1:
            s[STEPS_DONE] |= STEP_BANNER_USED
            s[BANNER_TURN + seat * BANNERS + BANNERS - s[BANNERS_LEFT + seat]] = s[TURN]  # the banner used now
            use_banner(s, seat, log)
            s[CASH_FAMILY] = 0
        else:
            log_event(log, EV_KEEP_BANNER, seat, s[BANNERS_LEFT + seat])
    elif kind == DO_CASH:
        gold = cash(s, t, seat, action[A_FAMILY], action[A_COUNT], log)
        used = seat * BANNERS + BANNERS - 1 - s[BANNERS_LEFT + seat]  # the banner this cashing belongs to
        s[BANNER_SEALS + used] += action[A_COUNT]
        s[BANNER_GOLD + used] += gold
        s[CASH_FAMILY] = action[A_FAMILY] + 1
    advance(s, t, p, log)


@njit(cache=True)
def _build(s, t, p, seat, card, placement, log):
    """ARK-PLACE-1..7: the card is played, its building placed with a seal of the card's family; the
    neutral workers for the tents it covers come at once, or as a decision (tent_reward = choose)."""
    s[CARD_LOC + card] = PLAYED
    s[HAND_N + seat] -= 1
    s[PART1_KIND] = BUILT
    b, tents = place_building(s, t, placement, t[T_CARD + 2 * card + 1])
    before = s[NEUTRAL_SCREEN + seat]
    if tents > 0:
        # tent_reward = choose asks only where there is a choice: up to what the supply still holds
        # (AMB-7), so an empty supply asks nothing
        offered = tents if s[NEUTRAL_SUPPLY] < 0 else min(tents, s[NEUTRAL_SUPPLY])
        if p[PR_TENT_CHOOSE] == 1 and offered > 0:
            s[PENDING_TENTS] = offered
        else:
            take_neutrals(s, seat, tents)
    log_event(log, EV_BUILD, seat, card, t[T_CARD + 2 * card], t[T_CARD + 2 * card + 1], placement, b, tents,
              s[NEUTRAL_SCREEN + seat] - before)
    _score_building(s, p, seat, t[T_CARD + 2 * card], b, log)


@njit(cache=True)
def _score_building(s, p, seat, shape, b, log):
    """ARK-VAR-1: the seat scores its building's ``building_points`` in gold at once (0 by the rules),
    kept apart from the cashings (``gold``) so that the score's categories stay apart; the final
    cashing adds it to the total (ARK-END-4). The event is written only for gold paid, so the
    rulebook game's log is unchanged."""
    gold = p[PR_BUILDING_POINTS + shape]
    if gold != 0:
        s[GOLD_BUILDINGS + seat] += gold
        log_event(log, EV_BUILDING_GOLD, seat, b, shape, gold)


@njit(cache=True)
def take_neutrals(s, seat, count):
    """Up to ``count`` neutral workers from the supply behind the seat's screen; a short supply gives
    what it has (AMB-7), an unlimited one (-1) always suffices."""
    if s[NEUTRAL_SUPPLY] >= 0:
        count = min(count, s[NEUTRAL_SUPPLY])
        s[NEUTRAL_SUPPLY] -= count
    s[NEUTRAL_SCREEN + seat] += count


@njit(cache=True)
def deck_has_cards(s):
    top = s[DECK_TOP]
    return top < MAX_CARDS and s[DECK + top] >= 0


@njit(cache=True)
def cards_to_take(s):
    """A card is left to take: in the display or the deck (AMB-4: the display is not refilled once
    the deck is empty)."""
    if deck_has_cards(s):
        return True
    for i in range(DISPLAY_SIZE):
        if s[DISPLAY + i] >= 0:
            return True
    return False


@njit(cache=True)
def take_card(s, seat, slot, log):
    """ARK-PLACE-8: a display card (its place refilled from the deck at once) or the deck's top card."""
    if slot < 0:
        card = s[DECK + s[DECK_TOP]]
        s[DECK + s[DECK_TOP]] = -1
        s[DECK_TOP] += 1
    else:
        card = s[DISPLAY + slot]
        s[DISPLAY + slot] = -1
        if deck_has_cards(s):
            s[DISPLAY + slot] = s[DECK + s[DECK_TOP]]
            s[CARD_LOC + s[DISPLAY + slot]] = IN_DISPLAY
            s[DECK + s[DECK_TOP]] = -1
            s[DECK_TOP] += 1
    s[CARD_LOC + card] = IN_HAND + seat
    s[HAND_N + seat] += 1
    log_event(log, EV_TAKE, seat, slot, card)
    if slot >= 0:
        log_event(log, EV_DISPLAY, -1, slot, s[DISPLAY + slot])


@njit(cache=True)
def _refill_due(s):
    """Whether the refill (ARK-PLACE-8) waits for a REFILL decision now (then pending); a refill with
    nothing to take is marked done at once."""
    if s[STEPS_DONE] & STEP_REFILLED:
        return False
    if cards_to_take(s):
        s[PHASE] = REFILL
        return True
    s[STEPS_DONE] |= STEP_REFILLED
    return False


@njit(cache=True)
def advance(s, t, p, log):
    """Run the turn's automatic steps up to the next decision (ARK-TURN-6, AMB-11), or end the turn."""
    seat = s[SEAT]
    if s[PENDING_TENTS] > 0:
        s[PHASE] = TENTS
        return
    built = s[PART1_KIND] == BUILT
    if built and p[PR_REFILL_FIRST] == 1:
        if _refill_due(s):
            return
        if p[PR_DECK_END] == TRIGGER_END:
            # AMB-11 (b): the refill is the end of action A (ARK-PLACE-8, 004 "Anschließend ergänzt
            # der Spieler"), and completions, payouts and castle stones follow the action (ARK-TURN-2,
            # ARK-COMPLETE-1, ARK-CASTLE-1). A refill that empties the deck triggers the end (AMB-4,
            # trigger_end) before any stone of this turn can fill level 2 (ARK-END-1, ARK-CASTLE-5), so
            # the deck is the trigger; in the default order the stones come first and level 2 is.
            _deck_trigger(s, seat, log)
    if not s[STEPS_DONE] & STEP_COMPLETED:
        complete_buildings(s, t, seat, log)
        s[STEPS_DONE] |= STEP_COMPLETED
    if s[STONES_OWED] > 0:
        if stones_available(s) > 0:
            s[PHASE] = STONE
            return
        log_event(log, EV_NO_STONE, seat, s[STONES_OWED])
        s[STONES_OWED] = 0  # AMB-9: no stone is left to place
    if built and _refill_due(s):
        return
    if p[PR_DECK_END] == TRIGGER_END:
        _deck_trigger(s, seat, log)
    if not s[STEPS_DONE] & STEP_BANNER:
        if s[BANNERS_LEFT + seat] > 0:
            s[PHASE] = BANNER
            return
        s[STEPS_DONE] |= STEP_BANNER
    if s[CASH_FAMILY] >= 0:
        while s[CASH_FAMILY] < N_FAMILIES and s[SEALS + seat * N_FAMILIES + s[CASH_FAMILY]] == 0:
            s[CASH_FAMILY] += 1
        if s[CASH_FAMILY] < N_FAMILIES:
            s[PHASE] = CASH
            return
        s[CASH_FAMILY] = -1
    n = s[N_PLAYERS]
    # AMB-5: a turn that changed nothing; AMB-2 (min_workers_in_b = 0): an action B without a worker
    # changes nothing either, and counts as idle unless empty_b_turn = action
    empty_b = s[PART1_KIND] == PLACED_WORKERS and s[B_PLACED] == 0 and p[PR_EMPTY_B] == EMPTY_B_IDLE
    idle = (s[PART1_KIND] == SKIPPED or empty_b) and not s[STEPS_DONE] & STEP_BANNER_USED
    s[IDLE_TURNS] = s[IDLE_TURNS] + 1 if idle else 0
    if end_turn(s, n, log):
        final_cashing(s, t, n, log)
        log_event(log, EV_END, -1, 0)
        s[PHASE] = OVER
        return
    s[TURN] += 1
    s[PART1_KIND] = 0
    s[STEPS_DONE] = 0
    s[PHASE] = PART1
    if p[PR_STALL] == END_IMMEDIATELY and (s[IDLE_TURNS] >= n or not _anyone_can_act(s, t, p, n)):
        # AMB-5: nothing can change any more, or a whole round changed nothing (every seat skipped part 1
        # and kept its banners: the round would repeat as long as the seats decline them); ending now
        # equals playing it out. Inside the final round that is the end its trigger began (ARK-END-2,
        # -4): the game ends by the trigger, not by a stall (EV_END reason 2)
        final_cashing(s, t, n, log)
        log_event(log, EV_END, -1, 2 if s[END_TRIGGERED] == 1 else 1)
        s[PHASE] = OVER
        return
    log_event(log, EV_TURN, s[SEAT], s[TURN], s[SEAT])


@njit(cache=True)
def _deck_trigger(s, seat, log):
    """AMB-4, deck_exhaustion = trigger_end: an empty deck triggers the end in ``seat``'s turn, like a
    full level 2 (ARK-END-1); whichever comes first names the trigger."""
    if deck_has_cards(s):
        return
    if s[END_TRIGGERED] == 0:
        log_event(log, EV_TRIGGER, seat, 1)
        s[TRIGGER_SEAT] = seat
    s[END_TRIGGERED] = 1


@njit(cache=True)
def _anyone_can_act(s, t, p, n):
    """AMB-5: some seat holds a card with a legal placement, or holds (or can get by a banner) a worker
    while a building under construction has a free cell around it."""
    free_building = False
    around = np.empty(24, dtype=np.int64)
    for b in range(s[N_BUILDINGS]):
        if s[B_STATE + b] == UNDER_CONSTRUCTION and free_cells_around(s, t, b, around) > 0:
            free_building = True
            break
    if p[PR_CASTLE_TARGET] == 1 and s[SITE_INDEX] >= 0 and free_cells_around(s, t, CASTLE_TARGET, around) > 0:
        free_building = True  # AMB-3: workers may go around the castle site too
    for seat in range(n):
        workers = s[OWN_SCREEN + seat] + s[NEUTRAL_SCREEN + seat] > 0 or s[BANNERS_LEFT + seat] > 0
        if workers and free_building:
            return True
        for card in range(t[T_N_CARDS]):
            if s[CARD_LOC + card] != IN_HAND + seat:
                continue
            shape = t[T_CARD + 2 * card]
            last = t[T_PLACE_FIRST + shape + 1] if p[PR_MIRROR] else t[T_PLACE_TURNED_END + shape]
            for k in range(t[T_PLACE_FIRST + shape], last):
                if placement_is_legal(s, t, k):
                    return True
    return False
