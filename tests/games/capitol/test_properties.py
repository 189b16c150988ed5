"""Properties of random legal Capitol games at 2, 3 and 4 players (Hypothesis), checked after every
decision: 90 stones, 40 roofs (10 per colour) and 62 cards conserved, house heights as houses
arrive (CAP-BUILD-16), 12 auctions and 4 scorings, the final score as the sum of the scoring
events; and that a seat's candidate table does not depend on what it cannot see (digest §5.2)."""

import numpy as np
from bgsim.sim.games.capitol import decisions as D
from bgsim.sim.games.capitol import state as S
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.capitol.helpers import (
    EV,
    bid,
    ev,
    field,
    fresh,
    game,
    kind,
    pass_all,
    permit,
    roof,
    seat,
    set_hand,
    stone,
)

HEIGHTS = np.arange(S.HMAX + 1)
VARIANTS = [  # parameter sets for the second property: every ambiguity off its default somewhere
    {},
    {"partial_stone_take": True, "short_stone_take": "none", "max_unfinished": "unused_roofs"},
    {"bid_discard_order": "winner_choice", "zero_bid_policy": "tie_rule", "temple_from": "next_round"},
    {"bid_discard_order": "canonical", "allow_null_play": False, "hand_limit": 12, "tied_bid": "remove"},
    {"shared_first_second": "none", "first_tiebreak": "none", "base_draws_optional": True,
     "bonus_draws_optional": False, "build_card": "any", "start_seat": "random"},
    {"reveal_played_values": True, "draw_pile_visibility": "all", "final_tiebreak": "stones",
     "partial_stone_take": True},
]


class Ledger:
    """The invariants of one game, checked step by step."""

    def __init__(self, g, s):
        self.g = g
        self.n = g.n_players
        self.on_board = np.zeros(self.n, dtype=np.int64)  # houses each seat has placed
        self.last_supply = int(field(g, s, "supply")[0])

    def f(self, s, name):
        return self.g.field(s, name)

    def before(self, s, row):
        """CAP-BUILD-16 (and -12, -14) for a permit row about to be applied."""
        if row[D.A_KIND] != D.BUILD or row[D.A_OP] != D.OP_PERMIT:
            return
        h, shape, pref = int(row[D.A_X]), int(row[D.A_Y]), int(row[D.A_Z])
        houses = int(self.f(s, "houses")[pref])
        if houses == 0:
            assert h == 1
        else:
            tallest = int(self.f(s, "tallest")[pref])
            assert h in (tallest, tallest + 1), (h, tallest)
            assert shape == self.f(s, "shape")[pref]
        assert self.g.board_table[pref, 0] == S.CLASS_COLOUR[row[D.A_CARD]]
        assert self.f(s, "finished")[seat(s), shape, h] >= 1
        self.on_board[seat(s)] += 1

    def after(self, s):
        n = self.n
        unfinished = self.f(s, "unfinished")[:n]
        finished = self.f(s, "finished")[:n]
        # 90 stones: supply + unfinished + finished in the areas + on the board
        stones = (int(self.f(s, "supply")[0]) + int((unfinished * HEIGHTS).sum()) + int((finished * HEIGHTS).sum())
                  + int(self.f(s, "stones")[:, :n].sum()))
        assert stones == S.TOTAL_STONES
        supply = int(self.f(s, "supply")[0])
        assert 0 <= supply <= self.last_supply  # never replenished (CAP-BUILD-9)
        self.last_supply = supply
        # roofs: 10 per colour = unused + finished houses in the area + houses on the board
        per_colour = self.f(s, "roofs_left")[:n].sum(axis=1) + finished.sum(axis=(1, 2)) + self.on_board
        assert per_colour.tolist() == [10] * n
        assert int(self.f(s, "houses").sum()) == int(self.on_board.sum())
        # 62 cards: hands + piles; a bid is part of its hand
        counts = self.f(s, "hand")[:n].sum(axis=0).astype(np.int64)
        hand_type = self.f(s, "hand_type")[:n]
        for t in range(3):
            head = int(self.f(s, "pile_head")[t])
            live = int(self.f(s, "pile_draw")[t]) + int(self.f(s, "pile_discard")[t])
            for j in range(live):
                counts[int(self.f(s, "pile")[t, (head + j) % S.QCAP])] += 1
            assert (hand_type[:, t] == self.f(s, "hand")[:n][:, S.CLASS_TYPE == t].sum(axis=1)).all()
        assert counts.tolist() == S.CLASS_COPIES.tolist() and counts.sum() == S.N_CARDS
        assert (self.f(s, "bid_in")[:n] <= self.f(s, "hand")[:n]).all()
        assert (self.f(s, "known")[:n] <= self.f(s, "hand")[:n]).all()

    def finish(self, s, log):
        g, n = self.g, self.n
        assert g.is_over(s)
        assert (self.f(s, "winner") != -2).all()  # 12 auctions held
        e = ev(log)
        assert (e[:, 0] == EV["auction"]).sum() == 12
        assert (e[:, 0] == EV["scoring"]).sum() == 4
        scored = np.zeros(n, dtype=np.int64)
        for row in e[e[:, 0] == EV["score"]]:
            scored[row[1]] += row[5]
        start = self.f(s, "start_points")[:n].astype(np.int64)
        score = self.f(s, "score")[:n].astype(np.int64)
        assert (score == start + scored).all()
        parts = start + self.f(s, "pts_majority")[:n] + self.f(s, "pts_fountain")[:n] + self.f(s, "pts_temple")[:n]
        assert (score == parts).all()
        assert (self.f(s, "round_points")[:, :n].sum(axis=0) == scored).all()
        best = score.max()
        assert ((self.f(s, "rank")[:n] == 1) == (score == best)).all() or g.params.final_tiebreak == "stones"


def play_checked(g, seed: int) -> None:
    s = fresh(g, seed)
    rng = np.random.default_rng(seed)
    log = g.new_log()
    ledger = Ledger(g, s)
    ledger.after(s)
    while kind(s) != D.OVER:
        acts = g.decision(s).actions
        assert len(acts) >= 1
        row = acts[int(rng.integers(len(acts)))].copy()
        ledger.before(s, row)
        g.apply(s, row, log)
        ledger.after(s)
    ledger.finish(s, log)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_games_conserve_components_and_score_by_the_rules_2p(seed):
    play_checked(game(2), seed)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_games_conserve_components_and_score_by_the_rules_3p(seed):
    play_checked(game(3), seed)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_games_conserve_components_and_score_by_the_rules_4p(seed):
    play_checked(game(4), seed)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.sampled_from([2, 3, 4]), variant=st.integers(0, len(VARIANTS) - 1))
def test_random_games_under_every_ambiguity_variant(seed, n, variant):
    play_checked(game(n, **VARIANTS[variant]), seed)


# --- hidden information (digest §5.2: private hands never leak through another seat's table)


def _table(g, s):
    t = g.decision(s)
    return t.kind, t.seat, t.actions.copy(), t.features.copy()


def _same_table(a, b):
    return a[0] == b[0] and a[1] == b[1] and np.array_equal(a[2], b[2]) and np.array_equal(a[3], b[3])


def _reshuffle_hand(g, s, other, rng):
    """``other``'s hand with the same cards of each type, the same known cards and the same bid,
    the rest of each type drawn at random; True if it changed."""
    hand = field(g, s, "hand")[other]
    keep = np.maximum(field(g, s, "known")[other], field(g, s, "bid_in")[other])
    new = keep.copy()
    for t in range(3):
        classes = np.flatnonzero(S.CLASS_TYPE == t)
        free = int(field(g, s, "hand_type")[other, t]) - int(keep[classes].sum())
        for _ in range(free):
            new[int(rng.choice(classes))] += 1
    changed = not np.array_equal(new, hand)
    hand[:] = new
    return changed


def _rebid(g, s, other, rng):
    """A different bid in progress for ``other``, from its own hand (a random non-empty stack,
    or the empty one if it had bid cards); True if it changed."""
    hand = field(g, s, "hand")[other]
    cards = [k for k in range(S.N_CLASSES) for _ in range(int(hand[k]))]
    old = [int(k) for k in field(g, s, "bid")[other, : int(field(g, s, "bid_n")[other])]]
    rng.shuffle(cards)
    cards = cards[: int(rng.integers(1, len(cards) + 1))] if cards else []
    if cards == old:
        cards = []
    field(g, s, "bid")[other] = 0
    field(g, s, "bid")[other, : len(cards)] = cards
    field(g, s, "bid_n")[other] = len(cards)
    field(g, s, "bid_sum")[other] = int(sum(S.CLASS_VALUE[k] for k in cards))
    field(g, s, "bid_in")[other] = np.bincount(np.array(cards, dtype=np.int64), minlength=S.N_CLASSES) \
        if cards else 0
    return cards != old


def _bidders_done(g, s):
    n = g.n_players
    consul = int(field(g, s, "consul")[0])
    return [(consul + i) % n for i in range(int(field(g, s, "bidders_done")[0]))]


HIDDEN_VARIANTS = [{}, {"bid_discard_order": "winner_choice", "reveal_played_values": True,
                         "draw_pile_visibility": "all", "build_card": "any"}]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.sampled_from([2, 3, 4]), variant=st.sampled_from([0, 1]))
def test_tables_do_not_depend_on_other_seats_hidden_hands_or_bids(seed, n, variant):
    g = game(n, **HIDDEN_VARIANTS[variant])
    s = fresh(g, seed)
    play = np.random.default_rng(seed)
    change = np.random.default_rng(seed + 1)
    hands_changed = 0
    while kind(s) != D.OVER:
        me = seat(s)
        base = _table(g, s)
        view = g.observe(s, me).view.copy()
        for other in range(n):
            if other == me:
                continue
            c = s.copy()
            hands_changed += _reshuffle_hand(g, c, other, change)
            assert _same_table(base, _table(g, c)), "a hidden hand changed the table"
            assert np.array_equal(view, g.observe(c, me).view)
        if kind(s) == D.BID:
            for other in _bidders_done(g, s):
                c = s.copy()
                _rebid(g, c, other, change)
                assert _same_table(base, _table(g, c)), "another seat's sealed bid changed the table"
                assert np.array_equal(view, g.observe(c, me).view)
        acts = g.decision(s).actions
        g.apply(s, acts[int(play.integers(len(acts)))].copy())
    assert hands_changed > 0


def test_a_sealed_bid_in_progress_does_not_change_the_next_bidders_table():
    g = game(3)
    s = fresh(g, 77)
    set_hand(g, s, 0, [stone(8), roof(7), permit(0, 5), stone(1)])
    set_hand(g, s, 1, [stone(3), roof(2), permit(2, 2)])
    pass_all(g, s)
    rng = np.random.default_rng(77)
    bid(g, s, 0, [stone(8), roof(7)])  # seat 0 bids 8 + 7; seat 1 is to bid
    assert seat(s) == 1 and kind(s) == D.BID
    base = _table(g, s)
    view = g.observe(s, 1).view.copy()
    changed = 0
    for _ in range(20):
        c = s.copy()
        changed += _rebid(g, c, 0, rng)
        assert _same_table(base, _table(g, c))
        assert np.array_equal(view, g.observe(c, 1).view)
        c = s.copy()
        _reshuffle_hand(g, c, 0, rng)
        _reshuffle_hand(g, c, 2, rng)
        assert _same_table(base, _table(g, c))
    assert changed == 20
