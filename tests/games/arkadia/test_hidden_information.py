"""What a seat may see (digest §5.2): the other hands and the deck order are hidden, a determinised
state looks the same to the seat, and it plays on legally."""

import numpy as np
import pytest
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import load_components
from bgsim.sim.games.arkadia.features import N_FEATURES
from bgsim.sim.games.arkadia.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games.arkadia.kernels.flow import apply_action
from bgsim.sim.games.arkadia.kernels.search import determinise, observe
from bgsim.sim.games.arkadia.kernels.setup import new_game
from bgsim.sim.games.arkadia.params import Params
from bgsim.sim.games.arkadia.tables import component_table


@pytest.fixture(scope="module")
def t():
    return component_table(load_components())


def _played(t, p, turns, seed=3):
    """A game after ``turns`` random decisions."""
    feats = np.zeros((MAX_ROWS, N_FEATURES), dtype=np.int32)
    acts = np.zeros((MAX_ROWS, d.N_ACTION_FIELDS), dtype=np.int32)
    rng = np.random.default_rng(seed)
    s = new_game(t, p, np.uint64(seed), None)
    for _ in range(turns):
        rows = candidates(s, t, p, feats, acts)
        if rows == 0:
            raise AssertionError("the game ended before the decisions the test asks for")
        apply_action(s, t, p, acts[rng.integers(rows)].copy(), None)
    return s


def _view(s, seat):
    out = np.empty_like(s)
    observe(s, seat, out)
    return out


@pytest.mark.parametrize("turns", [0, 40, 150])
def test_a_seat_sees_its_hand_the_display_and_the_board_but_not_other_hands_or_the_deck(t, turns):
    p = Params.from_dict({"n_players": 3}).to_array()
    s = _played(t, p, turns)
    seat = int(s[st.SEAT])
    view = _view(s, seat)
    loc, seen = s[st.CARD_LOC:st.CARD_LOC + 40], view[st.CARD_LOC:st.CARD_LOC + 40]
    mine = loc == st.IN_HAND + seat
    assert (seen[mine] == loc[mine]).all() and (seen[loc >= st.MAX_P] == loc[loc >= st.MAX_P]).all()
    assert (seen[(loc < st.MAX_P) & ~mine] == st.HIDDEN).all()
    deck = s[st.DECK + s[st.DECK_TOP]:st.DECK + 64]
    assert (view[st.DECK + s[st.DECK_TOP]:st.DECK + 64][deck >= 0] == st.HIDDEN).all()
    hidden = np.ones(st.STATE_SIZE, dtype=bool)
    hidden[st.CARD_LOC:st.CARD_LOC + 64] = False
    hidden[st.DECK:st.DECK + 64] = False
    assert (view[hidden] == s[hidden]).all()  # everything else is public (or derivable, §5.2)


@pytest.mark.parametrize("turns", [0, 60, 120])
def test_a_determinised_state_looks_the_same_and_plays_on(t, turns):
    p = Params.from_dict({"n_players": 4}).to_array()
    s = _played(t, p, turns, seed=5)
    seat = int(s[st.SEAT])
    view = _view(s, seat)
    for draw in range(5):
        guess = view.copy()
        rng = np.array([np.uint64(99 + draw)])
        determinise(guess, seat, rng)
        assert (_view(guess, seat) == view).all()
        loc = guess[st.CARD_LOC:st.CARD_LOC + 40]
        assert [(loc == st.IN_HAND + k).sum() for k in range(4)] == s[st.HAND_N:st.HAND_N + 4].tolist()
        in_deck = guess[st.DECK + guess[st.DECK_TOP]:st.DECK + 64]
        assert sorted(in_deck[in_deck >= 0]) == sorted(np.flatnonzero(loc == st.IN_DECK).tolist())
        feats = np.zeros((MAX_ROWS, N_FEATURES), dtype=np.int32)
        acts = np.zeros((MAX_ROWS, d.N_ACTION_FIELDS), dtype=np.int32)
        feats2, acts2 = feats.copy(), acts.copy()
        n = candidates(s, t, p, feats, acts)
        assert candidates(guess, t, p, feats2, acts2) == n  # the seat's own table is the same
        assert (feats[:n] == feats2[:n]).all() and (acts[:n] == acts2[:n]).all()
