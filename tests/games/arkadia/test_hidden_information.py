"""What a seat may see (digest §5.2): the other hands and the deck order are hidden, a determinised
state looks the same to the seat, and it plays on legally; the other screens and gold are shown as
perfect recall knows them, or hidden under ``screen_view = hidden`` (AMB-12)."""

import bgsim.strategies.arkadia  # noqa: F401  (registers the game's strategies)
import numpy as np
import pytest
from bgsim.sim import game_seeds, make_game
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
from bgsim.sim.rng import below, new_stream
from bgsim.strategies import make_strategy


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


# --- screen_view (AMB-12, digest §5.2): the other screens and gold as perfect recall knows them, or hidden

SCREENS = ("own_screen", "neutral_screen", "seals", "gold")
RECORDS = ("gold_family", "gold_banner", "banner_seals", "banner_gold", "completions")


def _mid_game(game, decisions=150, seed=3):
    """A game after ``decisions`` random decisions, by the generic interface."""
    s = game.new_state(game_seeds(seed))
    rng = new_stream(seed)
    for _ in range(decisions):
        table = game.decision(s)
        game.apply(s, table.actions[int(below(rng, 0, len(table)))].copy())
    assert not game.is_over(s)
    return s


def _per_seat(game, view, name):
    return game.field(view, name)[: game.n_players]


def test_amb_12_screen_view_recall_shows_the_other_screens_and_gold_as_perfect_recall_knows_them():
    game = make_game("arkadia", n_players=4)
    assert game.params.screen_view == "recall"
    s = _mid_game(game)
    seat = game.decision(s).seat
    assert (game.observe(s, seat).view == _view(s, seat)).all()  # the kernel's view, unchanged
    for name in SCREENS:
        assert (_per_seat(game, game.observe(s, seat).view, name) == _per_seat(game, s, name)).all()


@pytest.mark.parametrize("seals", ["unlimited", "physical_88"])
def test_amb_12_screen_view_hidden_hides_the_other_screens_and_gold_but_not_the_seats_own(seals):
    recall = make_game("arkadia", n_players=4, seal_supply=seals)
    game = make_game("arkadia", n_players=4, seal_supply=seals, screen_view="hidden")
    s = _mid_game(game)
    table = game.decision(s)
    seat, view = table.seat, table.observation.view
    others = [o for o in range(4) if o != seat]
    for name in SCREENS:
        seen = _per_seat(game, view, name)
        assert (seen[others] == st.HIDDEN).all() and (seen[seat] == _per_seat(game, s, name)[seat]).all()
    for name in RECORDS:
        assert not _per_seat(game, view, name)[others].any()
    assert not game.field(view, "b_paid")[:, others].any()
    assert (game.field(view, "b_placer") == game.field(s, "b_placer")).all()
    public = np.ones(st.STATE_SIZE, dtype=bool)  # everything else is as the recall view shows it
    for name in (*SCREENS, *RECORDS, "b_paid", "seals_out"):
        f = st.STATE.fields[name]
        public[f.offset: f.offset + f.size] = False
    assert (view[public] == recall.observe(s, seat).view[public]).all()
    out = game.field(view, "seals_out")
    if seals == "physical_88":  # the physical supply is counted on the table (AMB-8)
        assert (out == game.field(s, "seals_out")).all()
    else:
        assert (out <= game.field(s, "seals_out")).all()
    # a seat that keeps no count cannot tell states apart that differ only behind the other screens
    other = s.copy()
    o = others[0]
    for name, change in (("gold", 7), ("neutral_screen", 1)):
        game.field(other, name)[o] += change
    game.field(other, "seals")[o, 0] += 1
    game.field(other, "seals_out")[0] += 1
    game.field(other, "b_paid")[0, o] += 1
    if seals == "unlimited":
        assert game.observe(other, seat) == game.observe(s, seat)
    assert recall.observe(other, seat) != recall.observe(s, seat)
    # the rules and the features read only the seat's own screen: the table is the recall game's
    again = recall.decision(s)
    assert (again.features == table.features).all() and (again.actions == table.actions).all()


@pytest.mark.parametrize("seals", ["unlimited", "physical_88"])
def test_amb_12_a_determinised_hidden_view_looks_the_same_and_plays_on(seals):
    game = make_game("arkadia", n_players=4, seal_supply=seals, screen_view="hidden")
    s = _mid_game(game)
    table = game.decision(s)
    seat, observation = table.seat, table.observation
    feats, acts = table.features.copy(), table.actions.copy()
    guesses = []
    for draw in range(4):
        guess = game.determinise(observation, new_stream(40 + draw))
        guesses.append(guess)
        assert game.observe(guess, seat) == observation
        for name in SCREENS:
            assert (_per_seat(game, guess, name) >= 0).all()
        # own workers as the table counts them: 11 of the colour less the general supply's and the board's
        assert (_per_seat(game, guess, "own_screen") == _per_seat(game, s, "own_screen")).all()
        held = game.field(guess, "seals")[:4].sum(axis=0)
        on_buildings = np.zeros(4, dtype=np.int64)
        for b in range(int(game.field(s, "n_buildings")[0])):
            if game.field(s, "b_seal")[b]:
                on_buildings[game.field(s, "b_family")[b]] += 1
        assert (game.field(guess, "seals_out") == held + on_buildings).all()
        if seals == "physical_88":
            assert (held == game.field(s, "seals")[:4].sum(axis=0)).all()  # the supply's count, dealt
        again = game.decision(guess)
        assert again.seat == seat and (again.features == feats).all() and (again.actions == acts).all()
    assert any((a != guesses[0]).any() for a in guesses[1:])
    policies = [make_strategy("greedy", game).compiled_policy(game)] * 4
    values = game.rollout_values(observation, acts[:2], 3, new_stream(7), policies)
    assert np.isfinite(values).all()
