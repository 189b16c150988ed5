"""Banners, cashing and the end (ARK-BANNER, ARK-END; TV-ARK-3, -8)."""

import numpy as np
import pytest
from bgsim.sim.event_log import new_log
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import load_components
from bgsim.sim.games.arkadia.events import (
    EV_END,
    EV_STONE,
    EV_TAKE,
    EV_TRIGGER,
    EVENT_CAP,
    EVENT_WIDTH,
    events,
    log_event,
)
from bgsim.sim.games.arkadia.game import Arkadia
from bgsim.sim.games.arkadia.kernels.board import place_building, placement_is_legal, put_worker
from bgsim.sim.games.arkadia.kernels.castle import place_stone, reset_castle
from bgsim.sim.games.arkadia.kernels.flow import apply_action
from bgsim.sim.games.arkadia.kernels.scoring import cash, end_turn, final_cashing, use_banner
from bgsim.sim.games.arkadia.kernels.setup import new_game
from bgsim.sim.games.arkadia.params import Params
from bgsim.sim.games.arkadia.tables import component_table

from tests.games.arkadia.helpers import placement

CLOTH, SPICE, CARPENTER, SILVERSMITH = range(4)
GREEN = 2


@pytest.fixture(scope="module")
def t():
    return component_table(load_components())


@pytest.fixture
def s():
    state = np.zeros(st.STATE_SIZE, dtype=np.int32)
    reset_castle(state)
    state[st.TURNS_LEFT] = -1
    return state


def test_tv_ark_3_a_banner_brings_two_workers_and_cashes_at_the_castles_values(s, t):
    s[st.BANNERS_LEFT + GREEN], s[st.OWN_SUPPLY + GREEN], s[st.OWN_SCREEN + GREEN] = 4, 8, 1
    s[st.SEALS + GREEN * 4 + CLOTH], s[st.SEALS + GREEN * 4 + SILVERSMITH] = 7, 6
    place_stone(s, CLOTH, 4)  # the castle shows 3 cloth fields: the two printed ones and a stone
    place_stone(s, SILVERSMITH, 5)  # and 4 silversmith: the two printed ones and two stones
    place_stone(s, SILVERSMITH, 1)
    use_banner(s, GREEN)
    assert (s[st.BANNERS_LEFT + GREEN], s[st.OWN_SCREEN + GREEN], s[st.OWN_SUPPLY + GREEN]) == (3, 3, 6)
    assert cash(s, t, GREEN, CLOTH, 7) + cash(s, t, GREEN, SILVERSMITH, 5) == 7 * 3 + 5 * 4 == 41
    assert s[st.GOLD + GREEN] == 41 and s[st.SEALS + GREEN * 4 + SILVERSMITH] == 1  # one kept for later


@pytest.mark.parametrize(("n", "trigger", "after"), [(4, 2, [3, 0, 1, 2]), (2, 0, [1, 0]), (3, 1, [2, 0, 1])])
def test_tv_ark_8_after_the_trigger_every_player_plays_once_more_the_trigger_last(s, n, trigger, after):
    s[st.SEAT] = trigger
    s[st.END_TRIGGERED] = 1  # level 2 filled during this turn
    assert not end_turn(s, n)
    played = []
    while True:
        played.append(int(s[st.SEAT]))
        if end_turn(s, n):
            break
    assert played == after


def test_ark_end_5_final_cashing_and_equal_gold_shares_the_win(s, t):
    n = 3
    s[st.SEALS:st.SEALS + 12] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]  # seat 0 a cloth, seat 1 a spice seal
    s[st.GOLD:st.GOLD + 3] = [10, 10, 11]
    s[st.START_GOLD:st.START_GOLD + 3] = [0, 0, 1]
    final_cashing(s, t, n)
    assert s[st.TOTAL:st.TOTAL + 3].tolist() == [12, 12, 12]  # 10 + 2, 10 + 2, 11 + 1
    assert s[st.RANK:st.RANK + 3].tolist() == [1, 1, 1] and s[st.SEALS:st.SEALS + 12].sum() == 0


def _stalled_but_for_banners(stall_rule: str):
    """A 3-player game where nobody holds a card or a worker, one building has free cells around it and
    every seat still holds its banners: only a banner could make part 1 legal again."""
    t = component_table(load_components())
    p = Params.from_dict({"n_players": 3, "castle_placement": "4,6,wide", "stall_rule": stall_rule}).to_array()
    s = new_game(t, p, np.uint64(5), None)
    k = next(k for k in range(int(t[st.T_PLACE_FIRST]), int(t[st.T_PLACE_TURNED_END])) if placement_is_legal(s, t, k))
    place_building(s, t, k, 0)
    for card in range(int(t[st.T_N_CARDS])):
        if s[st.CARD_LOC + card] >= st.IN_HAND:
            s[st.CARD_LOC + card] = st.PLAYED
    s[st.HAND_N:st.HAND_N + 4] = 0
    s[st.OWN_SCREEN:st.OWN_SCREEN + 4] = 0
    s[st.NEUTRAL_SCREEN:st.NEUTRAL_SCREEN + 4] = 0
    return s, t, p


def _decline_a_round(s, t, p, turns: int) -> None:
    for _ in range(turns):
        for kind in (d.DO_SKIP, d.DO_BANNER):  # skip part 1, keep the banner (A_COUNT 0)
            assert s[st.PHASE] != d.OVER
            action = np.zeros(d.N_ACTION_FIELDS, dtype=np.int64)
            action[d.A_KIND] = kind
            apply_action(s, t, p, action, None)


def test_amb_5_a_round_in_which_every_seat_skips_and_keeps_its_banners_ends_the_game():
    s, t, p = _stalled_but_for_banners("end_immediately")
    assert s[st.PHASE] == d.PART1 and s[st.BANNERS_LEFT] > 0
    _decline_a_round(s, t, p, 2)
    assert s[st.PHASE] == d.PART1  # two idle turns of three: a seat may still raise its banner
    _decline_a_round(s, t, p, 1)
    assert s[st.PHASE] == d.OVER and s[st.RANK] >= 1


def test_amb_5_stall_rule_none_lets_declining_banners_go_on():
    s, t, p = _stalled_but_for_banners("none")
    _decline_a_round(s, t, p, 6)
    assert s[st.PHASE] == d.PART1


def test_amb_8_physical_seals_run_out_and_payouts_stop_until_cashing_returns_them():
    t = component_table(load_components())
    for supply, limit in (("unlimited", 0), ("physical_88", st.SEALS_PER_FAMILY)):
        p = Params.from_dict({"n_players": 2, "castle_placement": "4,6,wide", "seal_supply": supply}).to_array()
        s = new_game(t, p, np.uint64(3), None)
        assert s[st.SEAL_LIMIT] == limit
    k = next(k for k in range(int(t[st.T_PLACE_FIRST]), int(t[st.T_PLACE_TURNED_END])) if placement_is_legal(s, t, k))
    s[st.SEALS_OUT] = st.SEALS_PER_FAMILY  # every cloth seal is out: behind the screens
    s[st.SEALS] = st.SEALS_PER_FAMILY
    b, _ = place_building(s, t, k, 0)
    assert s[st.B_SEAL + b] == 0  # no seal left to put on it (ARK-PLACE-6)
    cash(s, t, 0, 0, 2)
    assert s[st.SEALS_OUT] == st.SEALS_PER_FAMILY - 2  # cashed seals return to the supply (ARK-BANNER-3)
    b2, _ = place_building(s, t, next(j for j in range(k + 1, int(t[st.T_PLACE_TURNED_END]))
                                      if placement_is_legal(s, t, j)), 0)
    assert s[st.B_SEAL + b2] == 1 and s[st.SEALS_OUT] == st.SEALS_PER_FAMILY - 1


def _deck_and_level_2_in_one_turn(refill_first: bool):
    """Seat 0's turn under deck_exhaustion = trigger_end: one card left in the deck, level 2 one stone
    short, and a residence in hand that is enclosed the moment it is placed at (0,0)-(0,1) (workers
    on (1,0), (1,1), (0,2) and the board's edge, TV-ARK-9). Its stone fills level 2; its refill
    empties the deck. Returns the events of the turn's decisions and the final state."""
    t = component_table(load_components())
    p = Params.from_dict({"n_players": 3, "castle_placement": "4,6,wide", "deck_exhaustion": "trigger_end",
                          "refill_before_completion": refill_first}).to_array()
    s = new_game(t, p, np.uint64(5), None)
    for field in range(st.N_FIELDS):  # level 1 full, level 2 nine stones
        place_stone(s, next(f for f in range(4) if s[st.STONE_SUPPLY + f] > 0), field)
    for field in range(st.N_FIELDS - 1):
        place_stone(s, next(f for f in range(4) if s[st.STONE_SUPPLY + 4 + f] > 0), field)
    assert s[st.LEVEL] == 2 and s[st.END_TRIGGERED] == 0
    top, last = int(s[st.DECK_TOP]), int(np.flatnonzero(s[st.DECK:st.DECK + st.MAX_CARDS] >= 0).max())
    drawn = [int(c) for c in s[st.DECK + top:st.DECK + last]]
    s[st.DECK + top:st.DECK + last] = -1  # every card but the last one drawn already
    s[st.DECK_TOP] = last
    residence = next(c for c in drawn if t[st.T_CARD + 2 * c] == 0)
    for card in drawn:
        s[st.CARD_LOC + card] = st.PLAYED
    s[st.CARD_LOC + residence] = st.IN_HAND
    s[st.HAND_N] += 1
    for cell, colour in ((16, 1), (17, st.NEUTRAL), (2, 2)):
        put_worker(s, cell, colour)
    log = new_log(EVENT_CAP, EVENT_WIDTH)

    def decide(kind, **columns):
        action = np.zeros(d.N_ACTION_FIELDS, dtype=np.int64)
        action[d.A_KIND] = kind
        for name, value in columns.items():
            action[d.ACTION_FIELDS.index(name)] = value
        apply_action(s, t, p, action, log)

    decide(d.DO_BUILD, card=residence, placement=placement(t, "residence", [(0, 0), (0, 1)]))
    for _ in range(2):  # the stone and the refill, in the reading's order
        if s[st.PHASE] == d.STONE:
            decide(d.DO_STONE, family=next(f for f in range(4) if s[st.STONE_SUPPLY + 4 + f] > 0),
                   field=st.N_FIELDS - 1)
        else:
            assert s[st.PHASE] == d.REFILL
            decide(d.DO_TAKE, slot=-1)
    assert s[st.PHASE] == d.BANNER and s[st.LEVEL] == 3 and s[st.DECK + last] == -1
    return events(log), s


@pytest.mark.parametrize(("refill_first", "reason"), [(True, 1), (False, 0)], ids=["refill_first", "stones_first"])
def test_ark_end_1_amb_4_amb_11_the_trigger_is_what_happened_first_in_the_turn(refill_first, reason):
    """AMB-11 (b) refills the hand as the end of action A, before the completion and its stone: the
    refill empties the deck first, so the deck triggers the end (AMB-4, trigger_end). In the default
    order the stone fills level 2 before the refill (ARK-END-1). One trigger, the turn's seat."""
    evs, s = _deck_and_level_2_in_one_turn(refill_first)
    order = [int(ev[0]) for ev in evs if ev[0] in (EV_TAKE, EV_STONE)]
    assert order == ([EV_TAKE, EV_STONE] if refill_first else [EV_STONE, EV_TAKE])
    assert [int(ev[2]) for ev in evs if ev[0] == EV_TRIGGER] == [reason]
    assert s[st.END_TRIGGERED] == 1 and s[st.TRIGGER_SEAT] == 0


@pytest.mark.parametrize("final_round", [False, True], ids=["before_the_trigger", "in_the_final_round"])
def test_ark_end_7_amb_5_a_stall_in_the_final_round_is_the_triggers_end(final_round):
    """ARK-END-7: when nobody can act any more the game ends at once, which equals playing it out.
    Before a trigger that is a stall (no trigger seat, ``ended_by_stall``); inside the final round it
    is the end the trigger began (ARK-END-2, -4): the trigger seat stays, the game did not stall, and
    the trace names the trigger."""
    s, t, p = _stalled_but_for_banners("end_immediately")
    s[st.BANNERS_LEFT:st.BANNERS_LEFT + 4] = 0  # no banner either: nobody can ever act again
    log = new_log(EVENT_CAP, EVENT_WIDTH)
    if final_round:  # seat 2 filled level 2 in its turn; seat 0 opens the final round
        log_event(log, EV_TRIGGER, 2, 0)
        s[st.END_TRIGGERED], s[st.TRIGGER_SEAT], s[st.TURNS_LEFT] = 1, 2, 3
    action = np.zeros(d.N_ACTION_FIELDS, dtype=np.int64)
    action[d.A_KIND] = d.DO_SKIP
    apply_action(s, t, p, action, log)
    assert s[st.PHASE] == d.OVER
    assert [int(ev[2]) for ev in events(log) if ev[0] == EV_END] == [2 if final_round else 1]
    game = Arkadia(Params.from_dict({"n_players": 3, "castle_placement": "4,6,wide"}))
    rows = game.records(s[None, :])
    assert rows["ended_by_stall"].to_pylist() == [not final_round] * 3
    assert rows["triggered_end"].to_pylist() == [False, False, final_round]
    end = game.trace_text(s, log, None, ()).split("== Final cashing ==")[1]
    assert ("the final round after level 2 filled ends early" in end) == final_round
    assert ("nobody can change anything any more (AMB-5)" in end) != final_round
