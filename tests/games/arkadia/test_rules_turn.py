"""The turn (ARK-TURN-2, -6; ARK-PLACE-5, -8; ARK-WORKER; ARK-BANNER): part 1, then the tents, the
completions, the castle stones, the refill and the banner, in that order, then the next seat."""

import numpy as np
import pytest
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import load_components
from bgsim.sim.games.arkadia.kernels.board import placement_is_legal, put_worker
from bgsim.sim.games.arkadia.kernels.setup import new_game
from bgsim.sim.games.arkadia.params import Params
from bgsim.sim.games.arkadia.tables import component_table

from tests.games.arkadia.helpers import COLS, RESIDENCE_CLOTH, act, give, placement, table


@pytest.fixture(scope="module")
def t():
    return component_table(load_components())


def _game(t, **params):
    p = Params.from_dict({"n_players": 3, "castle_placement": "4,6,wide", **params}).to_array()
    return new_game(t, p, np.uint64(11), None), p


def test_ark_turn_6_a_build_then_refill_then_banner_then_the_next_seat(t):
    s, p = _game(t)
    hand = [c for c in range(40) if s[st.CARD_LOC + c] == st.IN_HAND]
    card = hand[0]
    shape = t[st.T_CARD + 2 * card]
    k = next(k for k in range(t[st.T_PLACE_FIRST + shape], t[st.T_PLACE_TURNED_END + shape])
             if placement_is_legal(s, t, k))
    deck_top = s[st.DECK_TOP]
    act(s, t, p, d.DO_BUILD, card=card, placement=k)
    assert s[st.CARD_LOC + card] == st.PLAYED and s[st.N_BUILDINGS] == 1 and s[st.PHASE] == d.REFILL
    shown = s[st.DISPLAY]
    act(s, t, p, d.DO_TAKE, slot=0)  # ARK-PLACE-8: a display card, its place refilled from the deck at once
    assert s[st.CARD_LOC + shown] == st.IN_HAND and s[st.HAND_N] == 4 and s[st.DECK_TOP] == deck_top + 1
    assert (s[st.DISPLAY:st.DISPLAY + 3] >= 0).all() and s[st.PHASE] == d.BANNER
    act(s, t, p, d.DO_BANNER, count=0)
    assert s[st.SEAT] == 1 and s[st.PHASE] == d.PART1 and s[st.TURN] == 1


@pytest.mark.parametrize(("reward", "taken"), [("take_all", 2), ("choose", 1)])
def test_ark_place_5_covered_tents_bring_neutral_workers(t, reward, taken):
    s, p = _game(t, tent_reward=reward)
    give(s, RESIDENCE_CLOTH)
    act(s, t, p, d.DO_BUILD, card=RESIDENCE_CLOTH, placement=placement(t, 0, [(3, 7), (3, 8)]))  # 2 tents
    if reward == "choose":
        assert s[st.PHASE] == d.TENTS and s[st.PENDING_TENTS] == 2
        act(s, t, p, d.DO_TENTS, count=1)
    assert s[st.NEUTRAL_SCREEN] == taken and s[st.NEUTRAL_SUPPLY] == 24 - taken and s[st.PHASE] == d.REFILL


@pytest.mark.parametrize(("supply", "asked"), [(0, None), (1, 1), (5, 2)])
def test_ark_place_5_amb_7_tent_reward_choose_asks_only_for_what_the_supply_holds(t, supply, asked):
    """An empty neutral supply used to bring a question with one answer: take nothing."""
    s, p = _game(t, tent_reward="choose")
    s[st.NEUTRAL_SUPPLY] = supply
    give(s, RESIDENCE_CLOTH)
    act(s, t, p, d.DO_BUILD, card=RESIDENCE_CLOTH, placement=placement(t, 0, [(3, 7), (3, 8)]))  # 2 tents
    if asked is None:
        assert s[st.PHASE] == d.REFILL and s[st.NEUTRAL_SCREEN] == 0 and s[st.NEUTRAL_SUPPLY] == 0
    else:
        assert s[st.PHASE] == d.TENTS and s[st.PENDING_TENTS] == asked


def test_ark_worker_and_complete_an_action_b_completes_pays_and_owes_a_stone_then_a_banner_cashes(t):
    s, p = _game(t)
    give(s, RESIDENCE_CLOTH)
    act(s, t, p, d.DO_BUILD, card=RESIDENCE_CLOTH, placement=placement(t, 0, [(3, 6), (3, 7)]))
    act(s, t, p, d.DO_TAKE, slot=-1)
    act(s, t, p, d.DO_BANNER, count=0)
    for cell in ((2, 7), (3, 5), (3, 8)):  # the residence's free neighbours but one, (2, 6)
        put_worker(s, cell[0] * COLS + cell[1], st.NEUTRAL)
    assert s[st.SEAT] == 1
    act(s, t, p, d.DO_WORKERS, building=0)
    assert s[st.PHASE] == d.PUT_WORKER
    act(s, t, p, d.DO_PUT, cell=2 * COLS + 6, neutral=0)
    assert s[st.OWN_SCREEN + 1] == 2 and s[st.PHASE] == d.PUT_WORKER
    act(s, t, p, d.DO_DONE)
    # ARK-COMPLETE-4, -5: seat 1's worker pays 1 cloth and the building's seal 1 more; one stone owed
    assert s[st.SEALS + 4] == 2 and s[st.STONES_OWED] == 1 and s[st.PHASE] == d.STONE
    act(s, t, p, d.DO_STONE, family=0, field=4)  # cloth on a blank field: cloth now shows 3
    assert s[st.PHASE] == d.BANNER  # no refill after action B
    act(s, t, p, d.DO_BANNER, count=1)
    assert s[st.PHASE] == d.CASH and s[st.CASH_FAMILY] == 0 and s[st.OWN_SCREEN + 1] == 4
    act(s, t, p, d.DO_CASH, family=0, count=2)
    assert s[st.GOLD + 1] == 6 and s[st.SEAT] == 2 and s[st.PHASE] == d.PART1


def test_ark_end_the_last_turn_of_the_final_round_ends_with_the_final_cashing(t):
    s, p = _game(t)
    s[st.END_TRIGGERED], s[st.TURNS_LEFT] = 1, 1  # the trigger's own last turn
    s[st.SEALS + 5] = 3  # seat 1 holds 3 spice: worth 2 each on an empty castle
    act(s, t, p, d.DO_SKIP)
    assert s[st.PHASE] == d.BANNER
    act(s, t, p, d.DO_BANNER, count=0)
    assert s[st.PHASE] == d.OVER and s[st.TOTAL:st.TOTAL + 3].tolist() == [0, 6, 0]
    assert s[st.RANK:st.RANK + 3].tolist() == [2, 1, 2]


def test_amb_1_skip_turn_leaves_out_the_banner(t):
    s, p = _game(t, no_action_policy="skip_turn")
    act(s, t, p, d.DO_SKIP)
    assert s[st.SEAT] == 1 and s[st.PHASE] == d.PART1


def test_ark_place_1_identical_cards_in_hand_offer_their_builds_once(t):
    """A card is its shape and its family: a second identical card in hand adds no BUILD rows (one
    row per distinct card), so that uniform play does not favour a duplicated card; a card of the
    same shape in another family keeps its own rows."""
    s, p = _game(t)
    cards = t[st.T_CARD:st.T_CARD + 2 * int(t[st.T_N_CARDS])].reshape(-1, 2)
    first, twin = [c for c in range(len(cards)) if (cards[c] == cards[RESIDENCE_CLOTH]).all()][:2]
    shape, family = cards[first]
    other_family = next(c for c in range(len(cards)) if cards[c, 0] == shape and cards[c, 1] != family)
    for c in range(len(cards)):
        if s[st.CARD_LOC + c] == st.IN_HAND:
            s[st.CARD_LOC + c], s[st.HAND_N] = st.PLAYED, s[st.HAND_N] - 1
    give(s, first)
    _, alone = table(s, t, p)
    give(s, twin)
    _, with_twin = table(s, t, p)
    builds = with_twin[with_twin[:, d.A_KIND] == d.DO_BUILD]
    assert len(builds) > 0 and (with_twin == alone).all() and set(builds[:, d.A_CARD]) == {first}
    give(s, other_family)
    _, with_other = table(s, t, p)
    counts = np.bincount(with_other[with_other[:, d.A_KIND] == d.DO_BUILD][:, d.A_CARD])
    assert counts[first] == counts[other_family] == len(builds) and counts[twin] == 0
