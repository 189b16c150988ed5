"""The setup (ARK-SETUP; TV-ARK-4, -14): the castle site from the chance seed, the deal, the
screens and supplies, and the first-game layout."""

import numpy as np
import pytest
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import load_components
from bgsim.sim.games.arkadia.decisions import CASTLE_SITE, PART1
from bgsim.sim.games.arkadia.kernels.setup import new_game
from bgsim.sim.games.arkadia.params import Params
from bgsim.sim.games.arkadia.tables import component_table


@pytest.fixture(scope="module")
def t():
    return component_table(load_components())


def _game(t, seed=7, **params):
    p = Params.from_dict({"n_players": 3, **params}).to_array()
    return new_game(t, p, np.uint64(seed), None)


@pytest.mark.parametrize(("n", "deck", "intro_deck", "supply", "intro_supply"),
                         [(2, 29, 22, 24, 18), (3, 25, 18, 24, 18), (4, 21, 14, 24, 20)])
def test_tv_ark_14_and_4_the_deal_leaves_the_deck_and_supplies_the_digest_counts(t, n, deck, intro_deck, supply,
                                                                               intro_supply):
    for intro, left, neutral in ((False, deck, supply), (True, intro_deck, intro_supply)):
        s = _game(t, n_players=n, intro_setup=intro)
        loc = s[st.CARD_LOC:st.CARD_LOC + 40]
        assert (loc == st.IN_DECK).sum() == left == 40 - 7 * intro - 4 * n - 3
        assert [(loc == st.IN_HAND + seat).sum() for seat in range(n)] == [4] * n and (loc == st.IN_DISPLAY).sum() == 3
        assert s[st.NEUTRAL_SUPPLY] == neutral
        assert s[st.NEUTRAL_SCREEN:st.NEUTRAL_SCREEN + n].tolist() == [(3, 2, 1)[n - 2] if intro else 0] * n
        display = s[st.DISPLAY:st.DISPLAY + 3]
        assert all(loc[c] == st.IN_DISPLAY for c in display)


def test_ark_setup_3_screens_banners_and_supplies(t):
    s = _game(t, n_players=4, start_gold="0/1/2/3")
    assert s[st.OWN_SCREEN:st.OWN_SCREEN + 4].tolist() == [3] * 4  # 3 workers behind each screen
    assert s[st.OWN_SUPPLY:st.OWN_SUPPLY + 4].tolist() == [8] * 4  # the other 8 of each colour
    assert s[st.BANNERS_LEFT:st.BANNERS_LEFT + 4].tolist() == [4] * 4
    assert s[st.START_GOLD:st.START_GOLD + 4].tolist() == [0, 1, 2, 3]
    assert s[st.PHASE] == PART1 and s[st.SEAT] == s[st.START_SEAT] == 0


def test_amb_10_the_castle_site_comes_from_the_chance_seed_a_fixed_site_or_the_start_player(t):
    sites = {int(_game(t, seed=seed)[st.SITE_INDEX]) for seed in range(40)}
    assert sites <= set(range(10)) and len(sites) > 5  # random among the 10 legal sites
    fixed = _game(t, castle_placement="4,8,tall")
    assert fixed[st.SITE_INDEX] == 9 and (fixed[st.CELL_KIND:st.CELL_KIND + 192] == st.SITE).sum() == 12
    chosen = _game(t, castle_placement="chosen")
    assert chosen[st.SITE_INDEX] == -1 and chosen[st.PHASE] == CASTLE_SITE


def test_ark_setup_9_the_first_game_lays_out_seven_buildings_beside_its_castle(t):
    s = _game(t, intro_setup=True)
    assert s[st.SITE_INDEX] == 1 and s[st.N_BUILDINGS] == 7
    assert (s[st.CARD_LOC:st.CARD_LOC + 40] == st.INTRO).sum() == 7
    assert (s[st.CELL_KIND:st.CELL_KIND + 192] == st.BUILDING).sum() == 2 + 3 + 3 + 4 * 4
    assert s[st.B_STATE:st.B_STATE + 7].tolist() == [st.UNDER_CONSTRUCTION] * 7


def test_the_same_seed_deals_the_same_game_and_another_seed_another(t):
    assert (_game(t, seed=5) == _game(t, seed=5)).all()
    assert not (_game(t, seed=5) == _game(t, seed=6)).all()
