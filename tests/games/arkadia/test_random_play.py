"""Random legal play to the end (the candidate tables and the flow together): every game ends, and
what the rules conserve stays conserved (cards, workers, castle stones)."""

import numpy as np
import pytest
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import load_components
from bgsim.sim.games.arkadia.features import N_FEATURES
from bgsim.sim.games.arkadia.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games.arkadia.kernels.flow import apply_action
from bgsim.sim.games.arkadia.kernels.setup import new_game
from bgsim.sim.games.arkadia.params import Params
from bgsim.sim.games.arkadia.tables import component_table

CAP = 20_000  # decisions; a game that has not ended by then is a defect


@pytest.fixture(scope="module")
def t():
    return component_table(load_components())


def _check(s, n):
    loc = s[st.CARD_LOC:st.CARD_LOC + 40]
    assert [(loc == st.IN_HAND + seat).sum() for seat in range(n)] == s[st.HAND_N:st.HAND_N + n].tolist()
    assert (loc == st.PLAYED).sum() + (loc == st.INTRO).sum() == s[st.N_BUILDINGS]
    kind, who = s[st.CELL_KIND:st.CELL_KIND + 192], s[st.CELL_WHO:st.CELL_WHO + 192]
    for seat in range(n):
        on_board = ((kind == st.WORKER) & (who == seat)).sum()
        assert s[st.OWN_SCREEN + seat] + s[st.OWN_SUPPLY + seat] + on_board == 11  # ARK-SETUP-3, -4
        assert 0 <= s[st.BANNERS_LEFT + seat] <= 4 and s[st.OWN_SUPPLY + seat] == 2 * s[st.BANNERS_LEFT + seat]
    neutral = ((kind == st.WORKER) & (who == st.NEUTRAL)).sum() + s[st.NEUTRAL_SCREEN:st.NEUTRAL_SCREEN + n].sum()
    assert neutral + s[st.NEUTRAL_SUPPLY] == 24
    stones = s[st.FIELD_HEIGHT:st.FIELD_HEIGHT + 10].sum() + s[st.STONE_SUPPLY:st.STONE_SUPPLY + 12].sum()
    assert stones == 28 and (s[st.SEALS:st.SEALS + 4 * n] >= 0).all()


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("intro", [False, True])
def test_random_legal_play_ends_and_conserves(t, n, intro):
    p = Params.from_dict({"n_players": n, "intro_setup": intro, "castle_placement": "chosen" if n == 3 else
                          "random"}).to_array()
    feats = np.zeros((MAX_ROWS, N_FEATURES), dtype=np.int32)
    acts = np.zeros((MAX_ROWS, d.N_ACTION_FIELDS), dtype=np.int32)
    rng = np.random.default_rng(n * 10 + intro)
    for game in range(6):
        s = new_game(t, p, np.uint64(1000 + game), None)
        for _ in range(CAP):
            rows = candidates(s, t, p, feats, acts)
            if rows == 0:
                break
            apply_action(s, t, p, acts[rng.integers(rows)].copy(), None)
            _check(s, n)
        assert s[st.PHASE] == d.OVER, "the game did not end"
        ranks = s[st.RANK:st.RANK + n]
        assert ranks.min() == 1 and (s[st.TOTAL:st.TOTAL + n] >= 0).all()
