"""Scenario tests for the solo variant against the automa Anna (CD-ANNA-1..25, TV-A7) through the
real engine, and engine-level checks of the solo ambiguities and difficulty knobs (AMB-4, -5,
-20..29; anna_start_vp, anna_majority_vp, anna_convert_at, anna_extra_steps).

The kernels themselves are checked against TV-A1..A6 in test_anna_rules.py. Here a state is
arranged, then the human acts with ``validate=True`` and Anna's turn (or the final scoring)
follows inside the engine. Anna's turn is usually the last of pass 1 (turn 14), so after it the
pass scoring begins and nothing else moves.
"""

from functools import cache

import numpy as np
import pytest
from bgsim.sim import game_seeds
from bgsim.sim.errors import IllegalActionError
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem import decisions as D
from bgsim.sim.games.carpe_diem.anna_data import load_anna
from bgsim.sim.games.carpe_diem.events import events
from bgsim.sim.games.carpe_diem.tables import TABLES

from tests.games.carpe_diem._scenario import (
    EV,
    LAST,
    SPACE_H20,
    District,
    arrange_last_scorer,
    ev,
    ev_names,
    finish_game,
    play_random,
    seal_tiles,
)
from tests.games.carpe_diem.helpers import decide, field, game, rows

ANNA_DATA = load_anna()
CARDS = ANNA_DATA.cards
HUMAN, ANNA = 0, 1
HUMAN_DEPOT = 6  # the human's turn takes the only tile of depot 6, stepping clockwise from P5
SOLO_LIVE = {2, 3, 4, 5, 11, 12, 13}  # H(1,0) H(1,1) H(2,0) H(2,1) V(1,0) V(1,1) V(1,2), digest §6.3
TYPE = {name: code for code, name in enumerate(K.TYPE_NAMES)}


def row_with(arrow: str) -> tuple[int, int]:
    """(card, row) of the first automa row with this arrow."""
    return next((c, r) for c, card in enumerate(CARDS) for r, a in enumerate(card.arrows) if a == arrow)


CW_ROW, CCW_ROW = row_with("CW"), row_with("CCW")
K1_ROW1 = (0, 0)  # card K1, row 1: the symbol walk of CD-ANNA-14 is read from the data


def symbols(card_row) -> tuple[str, ...]:
    c, r = card_row
    return CARDS[c].symbols[r]


def grey(track: str, pos: int) -> int:
    """Anna's count on ``track`` with her cube on field ``pos`` (the last number holds beyond, AMB-29)."""
    values = ANNA_DATA.grey[track]
    return values[min(pos, len(values) - 1)]


@cache
def tiles_by_parts(n_players=1):
    """parts key -> tile ids; key = sorted ((type name, chimneys), ...)."""
    out = {}
    for i, t in enumerate(game(n_players).components.tiles):
        key = tuple(sorted((K.TYPE_NAMES[p.type], p.chimneys) for p in t.parts))
        out.setdefault(key, []).append(i)
    return out


class Pool:
    """Hands out distinct tiles that are not on the seal display of ``s``."""

    def __init__(self, g, s):
        self.used = {int(t) for t in field(g, s, "seal") if t >= 0}

    def take(self, *types, chimneys=None) -> int:
        for key, ids in tiles_by_parts().items():
            if sorted(n for n, _ in key) != sorted(types):
                continue
            if chimneys is not None and not any(n == "villa" and c == chimneys for n, c in key):
                continue
            for i in ids:
                if i not in self.used:
                    self.used.add(i)
                    return i
        raise LookupError((types, chimneys))


def solo(seed=0, human=0, anna=1, **params):
    """A dealt solo game after D01 (human on ``human``) and D12 (Anna on ``anna``): pass 1, human to move."""
    g = game(1, **params)
    s = g.new_state(game_seeds(seed))
    decide(g, s, space=human)
    if g.params.anna_patrician_placement == "human":
        decide(g, s, space=anna)
    return g, s


def rec(g, s):
    """Anna's record (tracks, coins, bread, goods, fountain pile), a view."""
    return field(g, s, "anna")


def track(g, s, name: str) -> int:
    return int(rec(g, s)[K.AN_TRACK + TYPE[name]])


def held(g, s) -> int:
    a = rec(g, s)
    return int(a[K.AN_COINS] + a[K.AN_BREAD] + a[K.AN_GOODS: K.AN_GOODS + K.N_GOODS].sum())


def pile(g, s) -> list[int]:
    a = rec(g, s)
    return a[K.AN_PILE: K.AN_PILE + a[K.AN_PILE_N]].tolist()


def card_of(g, counts: str, copy: int = 0) -> int:
    """A fountain card id scoring ``counts`` (a COUNTER_NAMES entry; villa cards count "villas")."""
    ids = [i for i, c in enumerate(g.components.fountain_cards) if K.COUNTER_NAMES[c.counter] == counts]
    return ids[copy]


def set_pile(g, s, *cards):
    a = rec(g, s)
    a[K.AN_PILE: K.AN_PILE + 24] = 0
    a[K.AN_PILE: K.AN_PILE + len(cards)] = cards
    a[K.AN_PILE_N] = len(cards)


def set_spec(g, s, type_name: str):
    """Anna's pile = one card whose type is her specialisation (CD-ANNA-11)."""
    counts = "villas" if type_name == "villa" else type_name
    set_pile(g, s, card_of(g, counts))


def set_rolls(g, s, *values):
    """Anna's next dealt random numbers: a d6 roll reads ``value % 6 + 1``, a random tie ``value % m``."""
    field(g, s, "anna_rand")[: len(values)] = values
    field(g, s, "anna_rand_next")[0] = 0


def arrange(g, s, depots: dict, anna_at: int, row=CW_ROW, spec="fountain", coins=0, bread=0, turn_no=12,
            pool: Pool | None = None, human_at: int = HUMAN_DEPOT - 1):
    """The human's TURN (turn ``turn_no``, even: the human is start player) with ``depots`` on the board,
    Anna's patrician on ``anna_at`` and her next turn reading automa ``row`` = (card, row) of pass 1.
    Unless ``depots`` has depot 6, it gets a single market for the human to take."""
    pool = pool or Pool(g, s)
    depot = field(g, s, "depot")
    depot[:] = -1
    for space, tiles in depots.items():
        depot[space, : len(tiles)] = tiles
    if HUMAN_DEPOT not in depots:
        depot[HUMAN_DEPOT, 0] = pool.take("market")
    field(g, s, "depot_takes")[:] = 0
    field(g, s, "patrician")[:2] = [human_at, anna_at]
    field(g, s, "anna_deck")[0] = row[0]
    field(g, s, "turns")[ANNA, 0] = row[1]
    a = rec(g, s)
    a[K.AN_COINS], a[K.AN_BREAD] = coins, bread
    a[K.AN_GOODS: K.AN_GOODS + K.N_GOODS] = 0
    if spec is not None:
        set_spec(g, s, spec)
    field(g, s, "bread")[HUMAN] = 0
    field(g, s, "banner_left")[HUMAN] = 0  # the human's market gives no banner step
    field(g, s, "pass_no")[0] = 1
    field(g, s, "turn_no")[0] = turn_no
    field(g, s, "pass_start")[0] = turn_no % 2
    field(g, s, "phase")[0] = D.TURN
    field(g, s, "seat")[0] = HUMAN
    return pool


def human_turn(g, s, log=None, space=HUMAN_DEPOT, slot=0):
    """The human steps clockwise to ``space`` and takes the tile on ``slot`` (first legal placement)."""
    log = g.new_log() if log is None else log
    decide(g, s, log, move=D.STEP_CW, space=space, slot=slot)
    return log


def anna_taken(log) -> list[int]:
    return [e[3] for e in ev(log, "anna_take")]


def anna_turn(g, s, depots, anna_at, **kw):
    """Arrange (see ``arrange``), play the human's turn; Anna's turn follows. Returns the log."""
    arrange(g, s, depots, anna_at, **kw)
    return human_turn(g, s)


# --- setup: CD-ANNA-1..12, TV-A7


def test_cd_anna_1_human_in_seat_0_anna_in_seat_1_and_every_decision_is_the_humans():
    """CD-ANNA-1: one human (seat 0) against Anna (seat 1); the engine asks only seat 0, also D12/D13."""
    g = game(1)
    assert g.solo and g.n_players == 1
    s = g.new_state(game_seeds(4))
    assert int(field(g, s, "solo")[0]) == 1 and int(field(g, s, "n_players")[0]) == 2
    kinds = set()

    def seen(_, tab):
        assert tab.seat == HUMAN
        kinds.add(tab.kind_name)

    s, log = play_random(g, 4, on_decision=seen)
    assert {"patrician", "anna_patrician", "turn", "disc"} <= kinds
    assert {e[0] for e in ev(log, "take")} == {HUMAN} and {e[0] for e in ev(log, "anna_take")} == {ANNA}


def test_cd_anna_3_human_sets_up_as_usual_anna_has_no_district_frame_or_discs():
    """CD-ANNA-3: board, frame, banners and discs for the human only; Anna has no district or discs."""
    for seed in range(4):
        g = game(1)
        s = g.new_state(game_seeds(seed))
        assert int(field(g, s, "board")[HUMAN]) >= 0 and int(field(g, s, "board")[ANNA]) == -1
        assert int(field(g, s, "banner_left")[HUMAN].sum()) == K.N_BANNERS
        assert int(field(g, s, "banner_left")[ANNA].sum()) == 0
        assert len(set(field(g, s, "frame_piece")[HUMAN].tolist())) == 4
        assert field(g, s, "discs")[:2].tolist() == [K.N_DISCS, 0]
        assert (field(g, s, "cell_tile")[ANNA] == -1).all()
        assert field(g, s, "stored")[:2].tolist() == [0, 0]
        assert field(g, s, "fountain_n")[:2].tolist() == [0, 0]  # Anna's card is in her pile, not held
        for name in ("coins", "bread"):
            assert int(field(g, s, name)[HUMAN]) == 0  # CD-SETUP-15 for the human


def test_cd_anna_4_six_cards_2a2b1c1d_in_two_adjacent_rows_seven_live_disc_spaces():
    """CD-ANNA-4 / TV-18 solo: 2A 2B 1C 1D shuffled onto slot rows 1 and 2; 7 live disc spaces (§6.3)."""
    layouts = set()
    for seed in range(10):
        g = game(1)
        s = g.new_state(game_seeds(seed))
        slots = field(g, s, "slot_card")
        assert (slots[[0, 1, 2, 9, 10, 11]] == -1).all() and (slots[3:9] >= 0).all()
        decks = sorted("ABCD"[g.components.scoring_cards[c].deck] for c in slots[3:9])
        assert decks == ["A", "A", "B", "B", "C", "D"]
        assert len(set(slots[3:9].tolist())) == 6
        assert set(np.flatnonzero(field(g, s, "disc_live")).tolist()) == SOLO_LIVE
        layouts.add(tuple("ABCD"[g.components.scoring_cards[c].deck] for c in slots[3:9]))
    assert len(layouts) > 2  # shuffled, not laid by deck


def test_cd_anna_4_solo_cards_changes_the_draw():
    """CD-ANNA-4: the solo_cards parameter picks other decks (a harder game)."""
    g = game(1, solo_cards="1A1B2C2D")
    s = g.new_state(game_seeds(2))
    decks = sorted("ABCD"[g.components.scoring_cards[c].deck] for c in field(g, s, "slot_card")[3:9])
    assert decks == ["A", "B", "C", "C", "D", "D"]


def test_cd_anna_4_the_human_places_four_discs_on_the_seven_live_spaces():
    """CD-ANNA-4, -21: 4 of the 7 live spaces get the human's discs; Anna places none."""
    g = game(1)
    s, log = play_random(g, 8)
    discs = field(g, s, "disc")
    assert set(np.flatnonzero(discs == HUMAN).tolist()) <= SOLO_LIVE
    assert int((discs == HUMAN).sum()) == 4 and int((discs == ANNA).sum()) == 0
    assert {e[0] for e in ev(log, "disc")} == {HUMAN}


def test_cd_anna_5_d12_human_places_annas_patrician_on_a_free_space_before_the_reveal():
    """CD-ANNA-5 / AMB-20 default: D12 is the human's, any space but his own, tiles still face down."""
    g = game(1)
    s = g.new_state(game_seeds(1))
    decide(g, s, space=3)
    tab = g.decision(s)
    assert (tab.kind_name, tab.seat) == ("anna_patrician", HUMAN)
    assert sorted(r["space"] for r in rows(g, s)) == [0, 1, 2, 4, 5, 6]  # distinct from the human's
    assert int(field(g, s, "revealed")[0]) == 0 and not tab.column("depot_tiles").any()
    onto_human = tab.actions[0].copy()
    onto_human[D.A_SPACE] = 3
    with pytest.raises(IllegalActionError):
        g.apply(s, onto_human, validate=True)
    decide(g, s, space=0)
    assert field(g, s, "patrician")[:2].tolist() == [3, 0]
    assert int(field(g, s, "revealed")[0]) == 1 and int(field(g, s, "pass_no")[0]) == 1
    assert (g.decision(s).kind_name, g.decision(s).seat) == ("turn", HUMAN)


def test_cd_anna_6_amb_21_both_banner_discs_on_0_human_at_the_bottom():
    """CD-ANNA-6 / AMB-21: both discs on position 0, the human's at the bottom (or Anna's, anna_bottom)."""
    g = game(1)
    s = g.new_state(game_seeds(0))
    assert field(g, s, "banner_pos")[:2].tolist() == [0, 0]
    stamp = field(g, s, "banner_stamp")
    assert stamp[HUMAN] < stamp[ANNA]  # a lower stamp lies lower in the stack
    g2 = game(1, solo_banner_stack="anna_bottom")
    s2 = g2.new_state(game_seeds(0))
    assert field(g2, s2, "banner_pos")[:2].tolist() == [0, 0]
    assert field(g2, s2, "banner_stamp")[ANNA] < field(g2, s2, "banner_stamp")[HUMAN]


def test_cd_anna_2_the_d6_rolls_every_face():
    """CD-ANNA-2, -18: Anna's craftsman rolls are a d6 (1..6, every face turns up)."""
    g = game(1)
    faces = set()
    for seed in range(12):
        _, log = play_random(g, seed)
        faces |= {e[1] for e in ev(log, "anna_roll")}
    assert faces == {1, 2, 3, 4, 5, 6}


def test_cd_anna_8_start_vp_human_8_anna_0():
    g, s = solo(3)
    assert field(g, s, "vp")[:2].tolist() == [8, 0] and field(g, s, "vp_start")[:2].tolist() == [8, 0]


def test_cd_anna_10_every_track_cube_starts_on_field_0():
    """CD-ANNA-10: the 12 cubes start on the first field."""
    for seed in range(3):
        g = game(1)
        s = g.new_state(game_seeds(seed))
        assert (rec(g, s)[K.AN_TRACK: K.AN_TRACK + K.N_TYPES] == 0).all()


def test_cd_anna_11_one_coin_one_bread_and_the_top_fountain_card():
    """CD-ANNA-11: 1 coin, 1 bread, no goods and the top card of the shuffled fountain deck."""
    specs = set()
    for seed in range(12):
        g = game(1)
        s = g.new_state(game_seeds(seed))
        a = rec(g, s)
        assert (a[K.AN_COINS], a[K.AN_BREAD]) == (1, 1)
        assert (a[K.AN_GOODS: K.AN_GOODS + K.N_GOODS] == 0).all()
        assert a[K.AN_PILE_N] == 1
        deck = field(g, s, "fountain_deck")
        head, count = int(field(g, s, "fdeck_head")[0]), int(field(g, s, "fdeck_count")[0])
        # the card was the top of the shuffled deck: the deck now starts one further down
        assert (head, count) == (1, K.N_FOUNTAIN_CARDS - 1) and int(deck[0]) == int(a[K.AN_PILE])
        assert int(a[K.AN_PILE]) not in [int(deck[(head + i) % 24]) for i in range(count)]
        specs.add(g.components.fountain_cards[int(a[K.AN_PILE])].counter)
    assert len(specs) >= 4  # drawn at random


def test_cd_anna_12_automa_deck_is_shuffled_from_the_chance_seed_one_card_per_pass():
    """CD-ANNA-12: 8 cards shuffled by the seed; pass p reveals card p; turn i reads row i."""
    decks = set()
    for seed in range(8):
        g = game(1)
        s = g.new_state(game_seeds(seed))
        deck = field(g, s, "anna_deck").tolist()
        assert sorted(deck) == list(range(8))
        decks.add(tuple(deck))
        assert field(g, g.new_state(game_seeds(seed)), "anna_deck").tolist() == deck  # same seed, same deck
    assert len(decks) >= 6
    g = game(1)
    s, log = play_random(g, 5)
    deck = field(g, s, "anna_deck").tolist()
    assert [e[1:3] for e in ev(log, "anna_card")] == [[p, deck[p - 1]] for p in (1, 2, 3, 4)]
    # Anna's i-th turn of a pass reads row i of the pass's card, arrow as printed
    moves, pass_no = [], 0
    for row in events(log):
        if row[0] == EV["pass_start"]:
            pass_no = int(row[2])
        elif row[0] == EV["anna_move"]:
            moves.append((pass_no, int(row[4]), int(row[5])))
    for p in (1, 2, 3, 4):
        mine = [(arrow, r) for q, arrow, r in moves if q == p]
        assert [r for _, r in mine] == list(range(1, 8))
        card = CARDS[deck[p - 1]]
        assert [("CW", "CCW")[arrow] for arrow, _ in mine] == list(card.arrows)


def _play_choices(g, seed, choices):
    """A game dealt from ``seed`` whose human rows come from another random stream."""
    rng = np.random.default_rng(choices)
    s = g.new_state(game_seeds(seed))
    log = g.new_log()
    while not g.is_over(s):
        g.apply(s, g.decision(s).actions[int(rng.integers(len(g.decision(s))))].copy(), log, validate=True)
    return s, log


def test_cd_anna_12_annas_randomness_does_not_depend_on_the_humans_play():
    """Her deck and her dice are dealt from the chance seed: two different human games draw the same."""
    g = game(1)
    dealt = g.new_state(game_seeds(21))
    (a, log_a), (b, log_b) = _play_choices(g, 21, 1), _play_choices(g, 21, 2)
    assert ev(log_a, "take") != ev(log_b, "take")
    for s in (a, b):
        for name in ("anna_deck", "anna_rand"):
            assert (field(g, s, name) == field(g, dealt, name)).all()
    assert ev(log_a, "anna_card") == ev(log_b, "anna_card")


def test_tv_a7_cd_anna_7_start_player_by_pass_is_human_anna_human_anna():
    """TV-A7: start players [human, Anna, human, Anna]; turns alternate, 7 each per pass."""
    g = game(1)
    for seed in (2, 9):
        _, log = play_random(g, seed)
        assert [e[1:3] for e in ev(log, "pass_start")] == [[1, 0], [2, 1], [3, 0], [4, 1]]
        takes, pass_no = {}, 0
        for row in events(log):
            if row[0] == EV["pass_start"]:
                pass_no = int(row[2])
            elif row[0] in (EV["take"], EV["anna_take"]):
                takes.setdefault(pass_no, []).append(int(row[1]))
        for p, seats in takes.items():
            start = (p - 1) % 2
            assert seats == [(start + i) % 2 for i in range(14)]  # alternating, 7 turns each


def test_tv_a7_cd_anna_7_after_pass_1_anna_opens_pass_2():
    """The pass-1 scoring is the human's alone; then Anna, start player of pass 2, moves first."""
    g, s = solo(0)
    log = g.new_log()
    arrange_last_scorer(g, s, HUMAN, "D21", "D22", 1)
    decide(g, s, log, space=SPACE_H20)
    while g.decision(s).kind_name != "turn":
        g.apply(s, g.decision(s).actions[0].copy(), log, validate=True)
    assert int(field(g, s, "pass_no")[0]) == 2 and int(field(g, s, "pass_start")[0]) == ANNA
    assert int(field(g, s, "turns")[ANNA, 1]) == 1 and int(field(g, s, "turns")[HUMAN, 1]) == 0
    assert len(ev(log, "anna_take")) == 1 and int(field(g, s, "turn_no")[0]) == 1


def test_tv_a7_cd_anna_9_every_depot_yields_two_tiles_per_pass_counting_both():
    """TV-A7 / CD-ANNA-9: 2 takes per depot and pass (human and Anna together), then 2 tiles leave."""
    g = game(1)
    for seed in (3, 14):
        s, log = play_random(g, seed)
        per_depot, pass_no = {}, 0
        for row in events(log):
            if row[0] == EV["pass_start"]:
                pass_no = int(row[2])
            elif row[0] in (EV["take"], EV["anna_take"]):
                key = (pass_no, int(row[2]))
                per_depot[key] = per_depot.get(key, 0) + 1
        assert per_depot == {(p, d): 2 for p in (1, 2, 3, 4) for d in range(7)}
        assert [e[2] for e in ev(log, "depot_clear")] == [2] * 28
        assert int(field(g, s, "removed")[0]) == 56


def test_tv_a7_cd_anna_9_the_human_takes_first_and_annas_take_exhausts_the_depot():
    """CD-ANNA-9: the human's take and Anna's take from one depot exhaust it."""
    g, s = solo(0)
    pool = Pool(g, s)
    four = [pool.take("market"), pool.take("bakery"), pool.take("pond"), pool.take("garden")]
    arrange(g, s, {3: four}, anna_at=2, row=CW_ROW, spec="bakery", pool=pool, human_at=2)
    log = human_turn(g, s, space=3, slot=0)  # human P2 -> P3, takes the market
    assert int(field(g, s, "patrician")[HUMAN]) == 3
    assert anna_taken(log) == [four[1]]  # Anna P2 -> P3, her specialisation: the bakery
    assert ev(log, "depot_clear") == [[-1, 3, 2] + [0] * 8]
    assert (field(g, s, "depot")[3] == -1).all() and int(field(g, s, "removed")[0]) == 2


def test_tv_a7_cd_anna_9_anna_takes_first_and_the_humans_take_exhausts_the_depot():
    """CD-ANNA-9: Anna's take counts for the human's second take too."""
    g, s = solo(0)
    pool = Pool(g, s)
    four = [pool.take("bakery"), pool.take("market"), pool.take("pond"), pool.take("garden")]
    arrange(g, s, {3: four}, anna_at=2, row=CW_ROW, spec="bakery", turn_no=0, pool=pool)
    human_turn(g, s)  # turn 1: the human's market from depot 6; turn 2: Anna takes the bakery from depot 3
    assert field(g, s, "depot")[3].tolist() == [-1, four[1], four[2], four[3]]
    assert int(field(g, s, "depot_takes")[3]) == 1
    field(g, s, "patrician")[HUMAN] = 2
    log = human_turn(g, s, space=3, slot=1)  # turn 3: the human takes the second tile of depot 3
    assert ev(log, "depot_clear") == [[-1, 3, 2] + [0] * 8]
    assert (field(g, s, "depot")[3] == -1).all()


# --- Anna's turn: CD-ANNA-13..20


def test_cd_anna_13_one_space_in_the_arrows_direction():
    """CD-ANNA-13: one space by the row's arrow (CW +1, CCW -1), to a neighbour with tiles."""
    g, s = solo(0)
    pool = Pool(g, s)
    a, b = pool.take("market"), pool.take("market")
    log = anna_turn(g, s, {3: [a], 4: [b]}, anna_at=2, row=CW_ROW, spec="market", pool=pool)
    assert ev(log, "anna_move")[0][:5] == [ANNA, 2, 3, 0, CW_ROW[1] + 1]
    assert int(field(g, s, "patrician")[ANNA]) == 3 and anna_taken(log) == [a]
    g, s = solo(0)
    pool = Pool(g, s)
    a, b = pool.take("market"), pool.take("market")
    log = anna_turn(g, s, {1: [a], 3: [b]}, anna_at=2, row=CCW_ROW, spec="market", pool=pool)
    assert ev(log, "anna_move")[0][:4] == [ANNA, 2, 1, 1] and anna_taken(log) == [a]


@pytest.mark.parametrize(("arrow_row", "start", "dest"), [(CW_ROW, 0, 3), (CCW_ROW, 0, 4), (CW_ROW, 5, 1)])
def test_cd_anna_13_empty_depots_are_skipped(arrow_row, start, dest):
    """From P0 clockwise past empty D1, D2 to D3; counter-clockwise past D6 (emptied by the human)
    and D5 to D4; from P5 clockwise past D6 and the empty D0 to D1."""
    g, s = solo(0)
    pool = Pool(g, s)
    tiles = {1 if dest == 1 else 3: [pool.take("market")], 4: [pool.take("market")]}
    log = anna_turn(g, s, tiles, anna_at=start, row=arrow_row, spec="market", pool=pool)
    assert ev(log, "anna_move")[0][1:3] == [start, dest]
    assert int(field(g, s, "patrician")[ANNA]) == dest
    assert anna_taken(log) == tiles[dest]


def test_cd_anna_13_amb_3_full_loop_when_only_her_own_depot_has_tiles():
    """CD-ANNA-13 / AMB-3: with only her own depot left she loops round and takes there."""
    g, s = solo(0)
    pool = Pool(g, s)
    mine = [pool.take("market"), pool.take("bakery")]
    log = anna_turn(g, s, {2: mine}, anna_at=2, row=CW_ROW, spec="bakery", pool=pool)
    assert ev(log, "anna_move")[0][1:3] == [2, 2] and anna_taken(log) == [mine[1]]


def test_cd_anna_13_anna_never_uses_bread_to_move():
    """CD-ANNA-13: bread never moves her to her specialisation elsewhere."""
    g, s = solo(0)
    pool = Pool(g, s)
    far, near = pool.take("fountain"), pool.take("market")
    log = anna_turn(g, s, {5: [far], 3: [near]}, anna_at=2, row=CW_ROW, spec="fountain", bread=3, pool=pool)
    assert anna_taken(log) == [near]  # her specialisation lies elsewhere; she steps, she does not jump
    assert int(rec(g, s)[K.AN_BREAD]) == 3


def test_cd_anna_14_a_tile_of_her_specialisation_comes_first():
    """CD-ANNA-14 (1): her top fountain card's type beats the row's first symbol."""
    g, s = solo(0)
    pool = Pool(g, s)
    first = symbols(K1_ROW1)[0]
    spec = next(t for t in symbols(K1_ROW1)[1:] if t != "villa")
    depot = [pool.take(first), pool.take(spec)]
    log = anna_turn(g, s, {3: depot}, anna_at=4, row=K1_ROW1, spec=spec, pool=pool)  # K1 row 1 is CCW
    assert anna_taken(log) == [depot[1]]
    assert ev(log, "anna_choice")[0][1:5] == [TYPE[spec], 1, 1, 0]
    assert track(g, s, spec) == 1 and track(g, s, first) == 0


def test_cd_anna_14_otherwise_the_first_row_symbol_found_in_the_depot_decides():
    """No tile of her specialisation: the row is read left to right; the first symbol shown by any
    tile makes the candidates, even against a 2-part tile of later symbols (CD-ANNA-15 comes after)."""
    g, s = solo(0)
    pool = Pool(g, s)
    order = symbols(K1_ROW1)
    two_part = next(
        (key, ids) for key, ids in tiles_by_parts().items()
        if len(key) == 2 and all(order.index(n) >= 4 for n, _ in key)
    )
    early = order[2]
    single = pool.take(early)
    double = pool.take(*(n for n, _ in two_part[0]))
    spec = next(t for t in order if t not in {early, *(n for n, _ in two_part[0])})
    log = anna_turn(g, s, {3: [double, single]}, anna_at=4, row=K1_ROW1, spec=spec, pool=pool)
    assert anna_taken(log) == [single]
    assert ev(log, "anna_choice")[0][1:3] == [TYPE[early], 1]


def test_cd_anna_15_a_two_parts_before_one():
    """CD-ANNA-15 (a), TV-A3-like: the 2-part tile; both tracks advance, both bonuses pay."""
    g, s = solo(0)
    pool = Pool(g, s)
    one, two = pool.take("pond"), pool.take("pond", "administrator")
    log = anna_turn(g, s, {3: [one, two]}, anna_at=2, spec="pond", pool=pool)
    assert anna_taken(log) == [two]
    assert ev(log, "anna_choice")[0][1:5] == [TYPE["pond"], 2, 1, 0]
    assert track(g, s, "pond") == 1 and track(g, s, "administrator") == 1
    assert int(rec(g, s)[K.AN_GOODS + K.FISH]) == 1 and int(field(g, s, "banner_pos")[ANNA]) == 2


@pytest.mark.parametrize(("others", "wins"), [
    (("bakery", "garden", "administrator", "villa"), "villa"),
    (("bakery", "garden", "administrator"), "administrator"),
    (("bakery", "garden"), "garden"),
])
def test_cd_anna_15_b_the_other_parts_group_villa_lodging_landscape_small(others, wins):
    """CD-ANNA-15 (b): among 2-part pond tiles the other part decides: villa > lodging > landscape > small."""
    g, s = solo(0)
    pool = Pool(g, s)
    tiles = {o: pool.take("pond", o) for o in others}
    log = anna_turn(g, s, {3: list(tiles.values())}, anna_at=2, spec="pond", pool=pool)
    assert anna_taken(log) == [tiles[wins]] and track(g, s, "pond") == 1
    assert all((track(g, s, o) > 0) == (o == wins) for o in others)


@pytest.mark.parametrize(("merchant_at", "administrator_at", "wins"), [(3, 0, "administrator"), (0, 3, "merchant")])
def test_cd_anna_15_c_within_a_group_the_other_parts_track_furthest_back(merchant_at, administrator_at, wins):
    """CD-ANNA-15 (c): two villa+lodging tiles; the lodging whose cube is further back wins."""
    g, s = solo(0)
    pool = Pool(g, s)
    tiles = {"merchant": pool.take("villa", "merchant", chimneys=1),
             "administrator": pool.take("villa", "administrator", chimneys=1)}
    arrange(g, s, {3: list(tiles.values())}, anna_at=2, spec="villa", pool=pool)
    rec(g, s)[K.AN_TRACK + TYPE["merchant"]] = merchant_at
    rec(g, s)[K.AN_TRACK + TYPE["administrator"]] = administrator_at
    log = human_turn(g, s)
    assert anna_taken(log) == [tiles[wins]]
    assert track(g, s, "villa") == 1 and track(g, s, wins) == 1 + (merchant_at if wins == "merchant" else
                                                                    administrator_at)


def test_cd_anna_15_d_among_villa_tiles_the_most_chimneys():
    """CD-ANNA-15 (d) / TV-A4-like: the villa with more chimneys; the track moves by chimneys."""
    g, s = solo(0)
    pool = Pool(g, s)
    v2, v3 = pool.take("villa", chimneys=2), pool.take("villa", chimneys=3)
    log = anna_turn(g, s, {3: [v2, v3]}, anna_at=2, spec="villa", pool=pool)
    assert anna_taken(log) == [v3] and track(g, s, "villa") == 3


def test_cd_anna_15_amb_22_two_parts_still_beat_more_chimneys():
    """AMB-22: (a) comes before (d), also for villa candidates."""
    g, s = solo(0)
    pool = Pool(g, s)
    v3, double = pool.take("villa", chimneys=3), pool.take("villa", "market", chimneys=1)
    log = anna_turn(g, s, {3: [v3, double]}, anna_at=2, spec="villa", pool=pool)
    assert anna_taken(log) == [double] and track(g, s, "villa") == 1 and track(g, s, "market") == 1


def test_cd_anna_15_e_d13_a_tie_goes_to_the_human():
    """CD-ANNA-15 (e), D13 (anna_tiebreak = human): the human picks among the tied tiles."""
    g, s = solo(0)
    pool = Pool(g, s)
    ponds = [pool.take("pond"), pool.take("pond"), pool.take("garden")]
    log = anna_turn(g, s, {3: ponds}, anna_at=2, spec="pond", pool=pool)
    tab = g.decision(s)
    assert (tab.kind_name, tab.seat) == ("anna_tie", HUMAN)
    assert [(r["space"], r["slot"], r["tile"]) for r in rows(g, s)] == [(3, 0, ponds[0]), (3, 1, ponds[1])]
    assert ev(log, "anna_choice")[0][1:5] == [TYPE["pond"], 2, 2, 1]
    assert anna_taken(log) == [] and track(g, s, "pond") == 0  # nothing happens before the choice
    decide(g, s, log, slot=1)
    assert anna_taken(log) == [ponds[1]]
    assert field(g, s, "depot")[3].tolist() == [ponds[0], -1, ponds[2], -1]
    assert track(g, s, "pond") == 1 and g.decision(s).kind_name == "disc"  # her turn ended the pass


@pytest.mark.parametrize("draw", [0, 1])
def test_cd_anna_15_e_random_tiebreak_draws_from_her_dealt_numbers(draw):
    """CD-ANNA-15 (e), anna_tiebreak = random: no D13; her next dealt number picks the tile."""
    g, s = solo(0, anna_tiebreak="random")
    pool = Pool(g, s)
    ponds = [pool.take("pond"), pool.take("pond")]
    arrange(g, s, {3: ponds}, anna_at=2, spec="pond", pool=pool)
    set_rolls(g, s, 4 + draw)  # (4 + draw) % 2 tied candidates
    log = human_turn(g, s)
    assert g.decision(s).kind_name == "disc"  # no D13
    assert ev(log, "anna_choice")[0][1:5] == [TYPE["pond"], 2, 2, 2]
    assert anna_taken(log) == [ponds[draw]] and int(field(g, s, "anna_rand_next")[0]) == 1


def test_cd_anna_16_the_tile_leaves_the_game():
    """CD-ANNA-16: Anna builds and stores nothing; the tile is gone for the human too."""
    g, s = solo(0)
    pool = Pool(g, s)
    tile, other = pool.take("merchant", "vineyard"), pool.take("market")
    log = anna_turn(g, s, {3: [tile, other]}, anna_at=2, spec="merchant", turn_no=0, pool=pool)
    assert anna_taken(log) == [tile]
    assert tile not in field(g, s, "depot").ravel().tolist()
    assert tile not in field(g, s, "cell_tile").ravel().tolist()
    assert int(field(g, s, "built")[ANNA]) == 0 and int(field(g, s, "stored")[ANNA]) == 0
    assert int(field(g, s, "taken")[ANNA]) == 1 and int(field(g, s, "removed")[0]) == 0
    assert all(r["tile"] != tile for r in rows(g, s))  # the human's next turn cannot get it
    assert [e[0] for e in ev(log, "place")] == [HUMAN]  # only the human's market was built


BONUS = {  # CD-ANNA-17: (coins, bread, goods kind or None, banner steps, fountain draws)
    "merchant": (1, 0, None, 0, 0), "baker": (0, 2, None, 0, 0), "administrator": (0, 0, None, 2, 0),
    "pond": (0, 0, K.FISH, 0, 0), "vineyard": (0, 0, K.GRAPE, 0, 0), "garden": (0, 0, K.HERB, 0, 0),
    "chicken_yard": (0, 0, K.CHICKEN, 0, 0), "market": (1, 0, None, 0, 0), "bakery": (0, 1, None, 0, 0),
    "fountain": (0, 0, None, 0, 1), "craftsman": (0, 0, None, 0, 0),
}


@pytest.mark.parametrize("name", sorted(BONUS))
def test_cd_anna_17_each_track_advances_one_field_and_pays_its_bonus(name):
    """CD-ANNA-17: every bonus of the tracker table, in the game state."""
    g, s = solo(5)
    pool = Pool(g, s)
    tile = pool.take(name)
    arrange(g, s, {3: [tile]}, anna_at=2, spec=name, pool=pool)
    seal_tiles(g, s, {})  # a craftsman roll finds no seal tile
    top = int(field(g, s, "fountain_deck")[field(g, s, "fdeck_head")[0]])
    count = int(field(g, s, "fdeck_count")[0])
    log = human_turn(g, s)
    coins, bread, kind, steps, draws = BONUS[name]
    a = rec(g, s)
    assert track(g, s, name) == 1 and sum(a[K.AN_TRACK: K.AN_TRACK + K.N_TYPES]) == 1
    assert (a[K.AN_COINS], a[K.AN_BREAD]) == (coins, bread)
    goods = [0] * 4
    if kind is not None:
        goods[kind] = 1
    assert a[K.AN_GOODS: K.AN_GOODS + 4].tolist() == goods
    assert int(field(g, s, "banner_pos")[ANNA]) == steps
    assert int(field(g, s, "fdeck_count")[0]) == count - draws
    if draws:
        assert pile(g, s) == [card_of(g, "fountain"), top]  # on top: her new specialisation
        assert ev(log, "anna_draw")[0][1:3] == [top, g.components.fountain_cards[top].counter]
    else:
        assert len(pile(g, s)) == 1
    if name == "craftsman":
        assert ev(log, "anna_roll")[0][2:4] == [-1, -1] and int(field(g, s, "anna_rolls")[0]) == 1


def test_cd_anna_17_villa_advances_one_field_per_chimney_and_pays_nothing_now():
    """CD-ANNA-17 villa row: +1 field per chimney, no bonus during play."""
    g, s = solo(0)
    pool = Pool(g, s)
    tile = pool.take("villa", "pond", chimneys=2)
    log = anna_turn(g, s, {3: [tile]}, anna_at=2, spec="villa", pool=pool)
    assert anna_taken(log) == [tile] and track(g, s, "villa") == 2 and track(g, s, "pond") == 1
    assert held(g, s) == 1 and int(field(g, s, "vp")[ANNA]) == 0


def test_cd_anna_17_fountain_draw_makes_a_new_specialisation_for_her_next_turn():
    """CD-ANNA-17 fountain row, CD-ANNA-11: the drawn card goes on top and rules her next choice."""
    g, s = solo(0)
    pool = Pool(g, s)
    fountain = pool.take("fountain")
    arrange(g, s, {3: [fountain]}, anna_at=2, spec="fountain", turn_no=0, pool=pool)
    deck = field(g, s, "fountain_deck")
    head = int(field(g, s, "fdeck_head")[0])
    deck[head] = card_of(g, "pond")  # the card she will draw
    human_turn(g, s)
    assert pile(g, s)[-1] == card_of(g, "pond")
    # her next turn: a pond tile beats the row's symbols
    pond, other = pool.take("pond"), pool.take(symbols(CW_ROW)[0] if symbols(CW_ROW)[0] != "pond" else "market")
    field(g, s, "depot")[:] = -1
    field(g, s, "depot")[5] = [other, pond, -1, -1]
    field(g, s, "depot")[0, 0] = pool.take("market")
    field(g, s, "patrician")[:2] = [6, 4]
    field(g, s, "turns")[ANNA, 0] = CW_ROW[1]
    log = human_turn(g, s, space=0)
    assert anna_taken(log) == [pond]


@pytest.mark.parametrize(("roll", "space"), [(1, 0), (3, 3), (4, 7), (6, 2)])
def test_cd_anna_18_craftsman_roll_takes_the_nth_seal_tile_left_to_right(roll, space):
    """TV-A2 in the game: seal tiles on S0, S2, S3, S7; a 6 counts on to the 2nd (AMB-5 cyclic)."""
    g, s = solo(0)
    pool = Pool(g, s)
    seals = {0: pool.take("market"), 2: pool.take("pond"), 3: pool.take("baker"), 7: pool.take("bakery")}
    seal_tiles(g, s, seals)
    craftsman = pool.take("craftsman")
    arrange(g, s, {3: [craftsman]}, anna_at=2, spec="craftsman", pool=pool)
    set_rolls(g, s, roll - 1 + 6 * 7)
    log = human_turn(g, s)
    won = seals[space]
    assert ev(log, "anna_roll")[0][1:4] == [roll, space, won]
    left = {k: v for k, v in seals.items() if k != space}
    assert {i: int(t) for i, t in enumerate(field(g, s, "seal")) if t >= 0} == left
    name = K.TYPE_NAMES[g.components.tiles[won].parts[0].type]
    assert track(g, s, "craftsman") == 1 and track(g, s, name) == 1  # its track advanced, its bonus paid
    assert held(g, s) == {"market": 1, "pond": 1, "baker": 2, "bakery": 1}[name]
    assert won not in field(g, s, "cell_tile").ravel().tolist()


def test_cd_anna_18_a_craftsman_seal_tile_rolls_again():
    """CD-ANNA-18: a craftsman tile from the seal display rolls again."""
    g, s = solo(0)
    pool = Pool(g, s)
    seals = {1: pool.take("craftsman"), 4: pool.take("market"), 9: pool.take("bakery")}
    seal_tiles(g, s, seals)
    arrange(g, s, {3: [pool.take("craftsman")]}, anna_at=2, spec="craftsman", pool=pool)
    set_rolls(g, s, 0, 1)  # 1st roll 1 -> S1 (craftsman), 2nd roll 2 -> 2nd of S4, S9 = S9
    log = human_turn(g, s)
    assert [e[1:4] for e in ev(log, "anna_roll")] == [[1, 1, seals[1]], [2, 9, seals[9]]]
    assert track(g, s, "craftsman") == 2 and track(g, s, "bakery") == 1 and track(g, s, "market") == 0
    assert int(field(g, s, "anna_rolls")[0]) == 2
    assert field(g, s, "seal").tolist().count(-1) == 10


@pytest.mark.parametrize(("mode", "advance"), [("chimneys", 2), ("one", 1)])
def test_cd_anna_18_amb_23_a_villa_seal_tile_advances_by_its_chimneys(mode, advance):
    """AMB-23: a villa won by the roll moves the villa cube by its chimneys (default) or by 1."""
    g, s = solo(0, anna_craftsman_villa=mode)
    pool = Pool(g, s)
    villa = pool.take("villa", chimneys=2)
    seal_tiles(g, s, {5: villa})
    arrange(g, s, {3: [pool.take("craftsman")]}, anna_at=2, spec="craftsman", pool=pool)
    set_rolls(g, s, 3)
    log = human_turn(g, s)
    assert ev(log, "anna_roll")[0][1:4] == [4, 5, villa]
    assert track(g, s, "villa") == advance


def test_cd_anna_18_no_seal_tile_left_no_effect():
    """CD-ANNA-18: m = 0: the roll has no effect."""
    g, s = solo(0)
    pool = Pool(g, s)
    seal_tiles(g, s, {})
    arrange(g, s, {3: [pool.take("craftsman")]}, anna_at=2, spec="craftsman", pool=pool)
    before = rec(g, s).copy()
    log = human_turn(g, s)
    delta = rec(g, s) - before
    assert delta[K.AN_TRACK + TYPE["craftsman"]] == 1 and int(np.abs(delta).sum()) == 1
    assert ev(log, "anna_roll")[0][2:4] == [-1, -1]


@pytest.mark.parametrize(("overflow", "space", "rolls"), [("cyclic", 3, 1), ("last", 7, 1), ("reroll", 0, 2)])
def test_cd_anna_18_amb_5_a_roll_above_the_tiles_left(overflow, space, rolls):
    """Seal tiles on S0, S3, S7; a roll of 5: cyclic -> 2nd (S3), last -> S7, reroll -> the next roll (1: S0)."""
    g, s = solo(0, anna_craftsman_overflow=overflow)
    pool = Pool(g, s)
    seals = {0: pool.take("market"), 3: pool.take("market"), 7: pool.take("market")}
    seal_tiles(g, s, seals)
    arrange(g, s, {3: [pool.take("craftsman")]}, anna_at=2, spec="craftsman", pool=pool)
    set_rolls(g, s, 4, 0)
    log = human_turn(g, s)
    assert ev(log, "anna_roll")[0][1:4] == [5 if rolls == 1 else 1, space, seals[space]]
    assert int(field(g, s, "anna_rolls")[0]) == rolls and int(field(g, s, "seal")[space]) == -1


@pytest.mark.parametrize(("coins", "bread", "tile", "steps", "left"), [
    (2, 2, "market", 1, 0),  # 5 in total -> 1 step, nothing left
    (2, 1, "market", 0, 4),  # 4: nothing happens
    (4, 4, "baker", 2, 0),  # 10: returned 5 twice
    (3, 2, "baker", 1, 2),  # 7: exactly 5 go back, 2 stay
])
def test_cd_anna_19_five_items_in_total_become_a_banner_step(coins, bread, tile, steps, left):
    """CD-ANNA-19 / AMB-4 default (TV-A1 in the game): return 5 per step while 5 or more are held."""
    g, s = solo(0)
    pool = Pool(g, s)
    log = anna_turn(g, s, {3: [pool.take(tile)]}, anna_at=2, spec=tile, coins=coins, bread=bread, pool=pool)
    assert held(g, s) == left
    assert int(field(g, s, "banner_pos")[ANNA]) == steps
    assert int(field(g, s, "anna_conversions")[0]) == steps
    assert [e[1:3] for e in ev(log, "anna_convert")] == ([[5 * steps, steps]] if steps else [])


@pytest.mark.parametrize(("returned", "coins_left"), [("all", 1), ("five", 1)])
def test_cd_anna_19_she_converts_as_soon_as_she_holds_enough(returned, coins_left):
    """CD-ANNA-19 „Sobald ... unmittelbar": 4 coins, a market + craftsman tile makes 5 and they go back
    before the roll's market pays its coin. Converting only at the end of the turn would have returned
    all 6 under AMB-4's alternative ``all``."""
    g, s = solo(0, anna_convert_return=returned)
    pool = Pool(g, s)
    seal_tiles(g, s, {0: pool.take("market")})
    arrange(g, s, {3: [pool.take("market", "craftsman")]}, anna_at=2, spec="market", coins=4, pool=pool)
    set_rolls(g, s, 0)
    log = human_turn(g, s)
    names = [n for n in ev_names(log) if n.startswith("anna_")]
    assert names.index("anna_convert") < names.index("anna_roll")
    assert rec(g, s)[K.AN_COINS] == coins_left and int(field(g, s, "banner_pos")[ANNA]) == 1


def test_cd_anna_19_goods_of_any_kind_count_with_coins_and_bread():
    """CD-ANNA-19: coins, bread and every kind of goods add up."""
    g, s = solo(0)
    pool = Pool(g, s)
    arrange(g, s, {3: [pool.take("pond")]}, anna_at=2, spec="pond", coins=1, bread=1, pool=pool)
    rec(g, s)[K.AN_GOODS + K.HERB] = 1
    rec(g, s)[K.AN_GOODS + K.GRAPE] = 1
    human_turn(g, s)
    assert held(g, s) == 0 and int(field(g, s, "banner_pos")[ANNA]) == 1


@pytest.mark.parametrize(("mode", "returned", "coins", "bread", "goods", "tile", "steps", "left"), [
    ("total", "five", 1, 3, 0, "pond", 1, 0),
    ("per_category", "five", 1, 3, 0, "pond", 0, 5),  # 1 coin, 3 bread, 1 fish: no category reaches 5
    ("per_category", "five", 1, 4, 0, "bakery", 1, 1),  # 5 bread -> 1 step, the coin stays
    ("per_kind", "five", 1, 4, 0, "bakery", 1, 1),
    ("per_category", "five", 0, 0, 2, "pond", 1, 0),  # 2 herb + 2 grape + 1 fish: 5 goods
    ("per_kind", "five", 0, 0, 2, "pond", 0, 5),  # ... but no kind reaches 5
    ("total", "all", 2, 5, 0, "bakery", 1, 0),  # 8 in total: all go back
    ("total", "five", 2, 5, 0, "bakery", 1, 3),
])
def test_cd_anna_19_amb_4_what_counts_and_what_goes_back(mode, returned, coins, bread, goods, tile, steps, left):
    """AMB-4: total / per category / per kind, and returning exactly 5 or everything."""
    g, s = solo(0, anna_convert_mode=mode, anna_convert_return=returned)
    pool = Pool(g, s)
    arrange(g, s, {3: [pool.take(tile)]}, anna_at=2, spec=tile, coins=coins, bread=bread, pool=pool)
    rec(g, s)[K.AN_GOODS + K.HERB] = goods
    rec(g, s)[K.AN_GOODS + K.GRAPE] = goods
    human_turn(g, s)
    assert int(field(g, s, "banner_pos")[ANNA]) == steps and held(g, s) == left


def test_cd_anna_20_her_disc_goes_on_top_of_the_humans():
    """CD-ANNA-20 / CD-REWARD-10: arriving on the human's space, her disc goes on top."""
    g, s = solo(0)
    pool = Pool(g, s)
    arrange(g, s, {3: [pool.take("administrator")]}, anna_at=2, spec="administrator", pool=pool)
    field(g, s, "banner_pos")[:2] = [3, 1]
    human_turn(g, s)
    stamp = field(g, s, "banner_stamp")
    assert field(g, s, "banner_pos")[:2].tolist() == [3, 3] and stamp[ANNA] > stamp[HUMAN]


@pytest.mark.parametrize(("start", "tile", "coins", "pos", "vp"), [
    (LAST - 1, "administrator", 0, LAST, 1),  # +2 steps: one to L, one pays 1 VP
    (LAST, "administrator", 0, LAST, 2),
    (LAST, "market", 4, LAST, 1),  # a conversion step at L pays 1 VP
])
def test_cd_anna_20_steps_beyond_the_last_space_pay_her_1_vp_each(start, tile, coins, pos, vp):
    """CD-ANNA-20: surplus steps at L pay 1 VP each, from the administrator and from conversion."""
    g, s = solo(0)
    pool = Pool(g, s)
    arrange(g, s, {3: [pool.take(tile)]}, anna_at=2, spec=tile, coins=coins, pool=pool)
    field(g, s, "banner_pos")[ANNA] = start
    human_turn(g, s)
    assert int(field(g, s, "banner_pos")[ANNA]) == pos
    assert int(field(g, s, "vp")[ANNA]) == vp and int(field(g, s, "vp_overflow")[ANNA]) == vp


def test_cd_anna_20_amb_16_administrator_only_her_conversion_overflow_is_lost():
    """AMB-16 alternative: a conversion step at L pays Anna nothing."""
    g, s = solo(0, track_overflow_vp="administrator_only")
    pool = Pool(g, s)
    arrange(g, s, {3: [pool.take("market")]}, anna_at=2, spec="market", coins=4, pool=pool)
    field(g, s, "banner_pos")[ANNA] = LAST
    human_turn(g, s)
    assert int(field(g, s, "vp")[ANNA]) == 0 and held(g, s) == 0


# --- scoring: CD-ANNA-21..25


def test_cd_anna_21_only_the_human_scores_and_anna_never_loses_vp():
    """CD-ANNA-21: the pass scoring is the human's alone (his -8 here); Anna's VP stay as they are."""
    g, s = solo(0)
    field(g, s, "vp")[ANNA] = 3
    log = g.new_log()
    arrange_last_scorer(g, s, HUMAN, "A01", "D21", 1)  # the human fulfils neither: -8
    assert field(g, s, "score_order").tolist() == [HUMAN, -1, -1, -1]
    decide(g, s, log, space=SPACE_H20)
    while g.decision(s).kind_name != "turn":
        g.apply(s, g.decision(s).actions[0].copy(), log, validate=True)
    assert int(field(g, s, "vp")[HUMAN]) == 8 - 8 and int(field(g, s, "vp")[ANNA]) == 3
    assert [e[0] for e in ev(log, "disc")] == [HUMAN] and int(field(g, s, "discs")[ANNA]) == 0
    assert int(field(g, s, "cardlog_n")[ANNA]) == 0


def test_cd_anna_21_in_a_whole_game_annas_vp_is_start_plus_overflow():
    """CD-ANNA-21: no card VP, no penalty for Anna at any decision of a game."""
    g = game(1)

    def check(s, _):
        assert int(field(g, s, "vp")[ANNA]) == int(field(g, s, "vp_start")[ANNA] + field(g, s, "vp_overflow")[ANNA])
        assert int(field(g, s, "vp_cards")[ANNA]) == 0 and int(field(g, s, "penalties")[ANNA]) == 0

    for seed in (1, 6):
        s, _ = play_random(g, seed, on_decision=check)
        check(s, None)


def _final(g, s, log=None):
    finish_game(g, s, HUMAN, log=log)
    return g.score_sheet(s)


def _anna_at_the_end(g, s):
    """A known Anna: banner 6, villa track 5 (7 VP, exact anchor), merchant 4 (grey 2), all else 0;
    pile F03 (merchant); 4 coins and 3 fish left over."""
    a = rec(g, s)
    a[K.AN_TRACK: K.AN_TRACK + K.N_TYPES] = 0
    a[K.AN_TRACK + K.VILLA] = 5
    a[K.AN_TRACK + TYPE["merchant"]] = 4
    a[K.AN_COINS], a[K.AN_BREAD] = 4, 0
    a[K.AN_GOODS + K.FISH] = 3
    set_pile(g, s, card_of(g, "merchant"))
    field(g, s, "banner_pos")[ANNA] = 6


def test_cd_anna_22_final_vp_is_running_banner_villa_majorities_fountain_no_leftovers():
    """CD-ANNA-22: 2 running + 6 banner + 7 villa (5 chimneys) + 60 majorities + 4 fountain; 4 coins
    and 3 fish score nothing."""
    g, s = solo(0)
    _anna_at_the_end(g, s)
    field(g, s, "vp")[ANNA] = 2  # overflow VP gained in play
    log = g.new_log()
    sheet = _final(g, s, log)
    assert grey("merchant", 4) == 2
    majorities = 10 + 5 * 10  # merchant 2 > 0; the other 10 tracks 0-0 (AMB-24: 5)
    assert int(field(g, s, "anna_final_majority")[0]) == majorities
    assert int(field(g, s, "final_villas")[ANNA]) == 7 and int(field(g, s, "final_fountain")[ANNA]) == 2 * 2
    assert int(field(g, s, "final_banner")[ANNA]) == 6 and int(field(g, s, "final_leftovers")[ANNA]) == 0
    assert int(field(g, s, "final_frames")[ANNA]) == 0
    assert int(sheet["total"][ANNA]) == 2 + 6 + 7 + majorities + 4
    assert ev(log, "anna_final")[0][1:8] == [2, 6, 7, majorities, 4, 2 + 6 + 7 + majorities + 4, 0]


def test_cd_anna_22_records_split_annas_vp_by_source():
    """CD-ANNA-22 in the result records: the anna_vp_* columns sum to anna_vp; margin = final_vp - anna_vp."""
    g, s = solo(0, anna_start_vp=3)
    _anna_at_the_end(g, s)
    field(g, s, "vp")[ANNA] = 5  # 3 start + 2 overflow
    field(g, s, "vp_overflow")[ANNA] = 2
    _final(g, s)
    r = {k: v.to_pylist()[0] for k, v in g.records(s[None, :]).items()}
    parts = ("anna_vp_start", "anna_vp_banner", "anna_vp_villa", "anna_vp_majority", "anna_vp_fountain")
    assert [r[k] for k in parts] == [3, 6 + 2, 7, 60, 4]
    assert r["anna_vp"] == sum(r[k] for k in parts) == int(field(g, s, "final_total")[ANNA])
    assert r["margin"] == r["final_vp"] - r["anna_vp"] and r["final_vp"] == int(field(g, s, "final_total")[HUMAN])
    assert r["won"] == (r["margin"] > 0)


def _human_features(g, s):
    """The human's district: 2 markets, 1 bakery, a completed merchant lodging, an incomplete pond."""
    d = District(g, s, HUMAN)
    d.meadow((0, 0), "market")
    d.meadow((0, 2), "market")
    d.meadow((0, 4), "bakery")
    d.put((2, 0), [("merchant", "E")], "merchant", "E")
    d.put((2, 1), [("merchant", "W")], "merchant", "W")
    d.put((4, 4), [("pond", "N")], "pond", "N")
    return d


@pytest.mark.parametrize(("majority_count", "pond_vp"), [("completed", 5), ("any", 0)])
def test_cd_anna_23_majorities_against_the_humans_counts_in_the_game(majority_count, pond_vp):
    """Market: Anna 2 vs 2 -> 5; bakery: Anna 3 vs 1 -> 10; merchant: Anna grey 1 vs 1 -> 5;
    fountain 0-0 -> 5; pond: Anna 0 vs completed 0 -> 5, or (AMB-24 any) vs 1 built -> 0."""
    g, s = solo(0, anna_majority_count=majority_count)
    _human_features(g, s)
    counts = field(g, s, "count")[HUMAN]
    assert [int(counts[TYPE[n]]) for n in ("market", "bakery", "merchant", "pond")] == [2, 1, 1, 0]
    a = rec(g, s)
    a[K.AN_TRACK + TYPE["market"]] = 2
    a[K.AN_TRACK + TYPE["bakery"]] = 3
    a[K.AN_TRACK + TYPE["merchant"]] = 2
    _final(g, s)
    maj = field(g, s, "anna_majority")
    assert grey("merchant", 2) == 1 and grey("bakery", 3) == 3
    got = {n: int(maj[TYPE[n]]) for n in ("market", "bakery", "merchant", "fountain", "pond")}
    assert got == {"market": 5, "bakery": 10, "merchant": 5, "fountain": 5, "pond": pond_vp}
    assert int(maj[K.VILLA]) == 0  # the villa track has no majority
    assert int(field(g, s, "anna_final_majority")[0]) == int(maj.sum())


def test_cd_anna_23_amb_24_a_zero_zero_tie_pays_anna_zero_tie_vp():
    """AMB-24: 11 tracks at 0-0 pay 5 each by default, 0 with anna_zero_tie_vp = 0."""
    g, s = solo(0, anna_zero_tie_vp=0)
    _final(g, s)
    assert int(field(g, s, "anna_final_majority")[0]) == 0
    g, s = solo(0)
    _final(g, s)
    assert int(field(g, s, "anna_final_majority")[0]) == 11 * 5


def test_cd_anna_24_every_card_of_her_pile_scores_by_her_grey_numbers():
    """TV-A6 at the final scoring: F08 (pond) and two F10 (market); pond field 5 (grey 2), market field 3."""
    g, s = solo(0)
    _human_features(g, s)  # the human's 2 markets do not count for Anna's cards
    a = rec(g, s)
    a[K.AN_TRACK + TYPE["pond"]] = 5
    a[K.AN_TRACK + TYPE["market"]] = 3
    set_pile(g, s, card_of(g, "pond"), card_of(g, "market", 0), card_of(g, "market", 1))
    _final(g, s)
    assert int(field(g, s, "final_fountain")[ANNA]) == 2 * grey("pond", 5) + 2 * 2 * grey("market", 3) == 16


@pytest.mark.parametrize(("divisor", "vp"), [(5, 2 * 2), (None, 0)])
def test_cd_anna_24_amb_25_a_villa_card_counts_villa_field_over_5(divisor, vp):
    """AMB-25: a villa fountain card counts villa field // 5 (14 -> 2), or nothing."""
    g, s = solo(0, anna_villa_count_divisor=divisor)
    rec(g, s)[K.AN_TRACK + K.VILLA] = 14
    set_pile(g, s, card_of(g, "villas"))
    _final(g, s)
    assert int(field(g, s, "final_fountain")[ANNA]) == vp


@pytest.mark.parametrize(("mode", "vp"), [("table_on_total", 26), ("one_per_chimney", 14),
                                          ("virtual_villas_of_5", 2 * 7 + 5)])
def test_cd_anna_22_amb_26_villa_track_vp(mode, vp):
    """14 chimneys: the villa table's exact anchor 26; 14 x 1; two villas of 5 (7 each) and one of 4."""
    g, s = solo(0, anna_villa_vp=mode)
    rec(g, s)[K.AN_TRACK + K.VILLA] = 14
    assert int(TABLES.view(g.tables, "villa_vp")[4]) == 5
    _final(g, s)
    assert int(field(g, s, "final_villas")[ANNA]) == vp


def _tied_final(g, s, human_pos, anna_pos):
    """Finish with equal final VP (the human's VP set after a trial run) and the given banner positions."""
    field(g, s, "banner_pos")[:2] = [human_pos, anna_pos]
    trial = s.copy()
    finish_game(g, trial, HUMAN)
    totals = field(g, trial, "final_total")
    field(g, s, "vp")[HUMAN] += int(totals[ANNA] - totals[HUMAN])
    log = g.new_log()
    finish_game(g, s, HUMAN, log=log)
    assert field(g, s, "final_total")[HUMAN] == field(g, s, "final_total")[ANNA]
    return field(g, s, "rank")[:2].tolist(), ev(log, "game_end")[0][0]


@pytest.mark.parametrize(("human_pos", "anna_pos", "ranks"), [(3, 5, [1, 2]), (5, 3, [2, 1]), (0, 0, [1, 2])])
def test_cd_anna_25_amb_27_a_tie_goes_to_the_disc_further_back(human_pos, anna_pos, ranks):
    """CD-ANNA-25 / AMB-27 default: equal VP, the disc further back (lower, or lower in the stack) wins."""
    g, s = solo(0)
    got, winner = _tied_final(g, s, human_pos, anna_pos)
    assert got == ranks and winner == ranks.index(1)
    r = {k: v.to_pylist()[0] for k, v in g.records(s[None, :]).items()}
    assert r["margin"] == 0 and r["tie"] and r["won"] == (ranks[0] == 1)


def test_cd_anna_25_amb_21_anna_at_the_bottom_wins_a_tie_on_the_start_space():
    """AMB-21 alternative: Anna's disc at the bottom of the start stack wins a tie there."""
    g, s = solo(0, solo_banner_stack="anna_bottom")
    assert _tied_final(g, s, 0, 0)[0] == [2, 1]


@pytest.mark.parametrize(("mode", "ranks"), [("human", [1, 2]), ("anna", [2, 1])])
def test_cd_anna_25_amb_27_solo_tie_human_or_anna_wins_ties(mode, ranks):
    """AMB-27 alternatives: ties go to the human, or to Anna, whatever the banner discs say."""
    g, s = solo(0, solo_tie=mode)
    assert _tied_final(g, s, 5, 3)[0] == ranks  # the banner discs would give it to Anna
    g, s = solo(0, solo_tie=mode)
    assert _tied_final(g, s, 3, 5)[0] == ranks


@pytest.mark.parametrize(("mode", "ahead", "ranks"), [("anna", 1, [1, 2]), ("human", -1, [2, 1]),
                                                     ("banner", 1, [1, 2])])
def test_cd_anna_25_more_vp_wins_whatever_the_tie_rule(mode, ahead, ranks):
    """CD-ANNA-25: one VP more wins under every solo_tie."""
    g, s = solo(0, solo_tie=mode)
    field(g, s, "banner_pos")[:2] = [5, 3]  # Anna further back
    trial = s.copy()
    finish_game(g, trial, HUMAN)
    totals = field(g, trial, "final_total")
    field(g, s, "vp")[HUMAN] += int(totals[ANNA] - totals[HUMAN]) + ahead
    finish_game(g, s, HUMAN)
    assert field(g, s, "rank")[:2].tolist() == ranks


# --- AMB-20 and the difficulty knobs


def test_amb_20_random_places_annas_patrician_on_a_random_free_space():
    """AMB-20 alternative: no D12; a space other than the human's, drawn from the seed."""
    g = game(1, anna_patrician_placement="random")
    spaces = set()
    for seed in range(20):
        s = g.new_state(game_seeds(seed))
        decide(g, s, space=seed % 7)
        assert g.decision(s).kind_name == "turn"  # no D12
        anna = int(field(g, s, "patrician")[ANNA])
        assert 0 <= anna < 7 and anna != seed % 7
        spaces.add(anna)
        again = g.new_state(game_seeds(seed))
        decide(g, again, space=seed % 7)
        assert int(field(g, again, "patrician")[ANNA]) == anna  # fixed by the seed
    assert len(spaces) >= 5


def test_knob_anna_start_vp_shows_in_her_start_and_final_vp():
    """anna_start_vp: her start VP and, one for one, her final VP; the human's are untouched."""
    base, s0 = solo(0)
    knob, s7 = solo(0, anna_start_vp=7)
    assert field(knob, s7, "vp")[:2].tolist() == [8, 7] and field(knob, s7, "vp_start")[:2].tolist() == [8, 7]
    _final(base, s0)
    _final(knob, s7)
    assert int(field(knob, s7, "final_total")[ANNA]) == int(field(base, s0, "final_total")[ANNA]) + 7
    assert int(field(knob, s7, "final_total")[HUMAN]) == int(field(base, s0, "final_total")[HUMAN])


def test_knob_anna_extra_steps_move_her_disc_at_every_pass_start():
    """anna_extra_steps: her disc moves that many steps as each pass starts (4 times a game)."""
    g = game(1, anna_extra_steps=2)
    s = g.new_state(game_seeds(0))
    decide(g, s, space=0)
    log = g.new_log()
    decide(g, s, log, space=1)
    assert int(field(g, s, "banner_pos")[ANNA]) == 2 and int(field(g, s, "banner_pos")[HUMAN]) == 0
    assert ev(log, "steps") == [[ANNA, 2, 2, 0, 0] + [0] * 6]
    s, log = play_random(g, 11)
    names = [int(r[0]) for r in events(log)]
    for i, code in enumerate(names):
        if code == EV["anna_card"]:
            nxt = events(log)[i + 1]
            assert nxt[:3].tolist() == [EV["steps"], ANNA, 2] and int(nxt[5]) == 0  # source 0: not an administrator
    assert names.count(EV["anna_card"]) == 4
    steps = sum(int(e[1]) for e in ev(log, "steps") if e[0] == ANNA)
    assert steps == 4 * 2 + 2 * track(g, s, "administrator") + int(field(g, s, "anna_conversions")[0])


@pytest.mark.parametrize(("at", "coins", "bread", "steps", "left"), [(3, 1, 1, 1, 0), (3, 0, 0, 0, 1),
                                                                    (7, 2, 2, 0, 5), (7, 3, 3, 1, 0)])
def test_knob_anna_convert_at_sets_the_threshold(at, coins, bread, steps, left):
    """anna_convert_at: the number of items that become one banner step."""
    g, s = solo(0, anna_convert_at=at)
    pool = Pool(g, s)
    log = anna_turn(g, s, {3: [pool.take("market")]}, anna_at=2, spec="market", coins=coins, bread=bread, pool=pool)
    assert int(field(g, s, "banner_pos")[ANNA]) == steps and held(g, s) == left
    assert [e[1:3] for e in ev(log, "anna_convert")] == ([[at, 1]] if steps else [])


@pytest.mark.parametrize(("vp", "win", "tie", "zero_tie"), [(10, 10, 5, 5), (20, 20, 10, 5), (7, 7, 3, 3)])
def test_knob_anna_majority_vp_win_pays_it_a_tie_half(vp, win, tie, zero_tie):
    """Market: Anna grey 3 vs 2 (win); bakery 1 vs 1 (tie); the 9 others 0-0 (the zero-tie VP, at
    most half, AMB-24)."""
    g, s = solo(0, anna_majority_vp=vp)
    _human_features(g, s)  # 2 markets, 1 bakery, 1 merchant lodging
    a = rec(g, s)
    a[K.AN_TRACK + TYPE["market"]] = 3
    a[K.AN_TRACK + TYPE["bakery"]] = 1
    a[K.AN_TRACK + TYPE["merchant"]] = 2  # grey 1 vs 1: a tie
    _final(g, s)
    maj = field(g, s, "anna_majority")
    assert [int(maj[TYPE[n]]) for n in ("market", "bakery", "merchant", "pond")] == [win, tie, tie, zero_tie]
    assert int(field(g, s, "anna_final_majority")[0]) == win + 2 * tie + 8 * zero_tie


# --- AMB-22, -28, -29 in the game


def test_amb_22_candidate_order_puts_the_track_criterion_first():
    """'c,a,b,d': the other part's track comes first, so a 1-part tile (no other track) beats a
    2-part tile whose other track is ahead; by default the 2-part tile wins."""
    for order, wins in (("a,b,c,d", 1), ("c,a,b,d", 0)):
        g, s = solo(0, anna_candidate_order=order)
        pool = Pool(g, s)
        tiles = [pool.take("pond"), pool.take("pond", "administrator")]
        arrange(g, s, {3: tiles}, anna_at=2, spec="pond", pool=pool)
        rec(g, s)[K.AN_TRACK + TYPE["administrator"]] = 2
        log = human_turn(g, s)
        assert anna_taken(log) == [tiles[wins]], order


def test_amb_28_a_row_without_a_matching_symbol_falls_back_to_every_tile(tmp_path):
    """With an automa file whose K1 row 1 lists only the fountain, and neither her specialisation nor
    a fountain in the depot, Anna chooses among all tiles by CD-ANNA-15 (2 parts first)."""
    from bgsim.sim.games.carpe_diem.components import DATA_DIR

    text = (DATA_DIR / "anna.toml").read_text()
    first = text.index("symbols = [", text.index('id = "K1"'))
    end = text.index("]", first)
    path = tmp_path / "anna.toml"
    path.write_text(text[:first] + 'symbols = ["fountain"' + text[end:])
    g, s = solo(0, anna_file=str(path))
    assert g.anna.cards[0].symbols[0] == ("fountain",)
    pool = Pool(g, s)
    tiles = [pool.take("pond"), pool.take("merchant", "vineyard"), pool.take("market")]
    log = anna_turn(g, s, {3: tiles}, anna_at=4, row=K1_ROW1, spec="garden", pool=pool)
    assert ev(log, "anna_choice")[0][1:3] == [0, 3]  # type 0: the fallback, all 3 tiles
    assert anna_taken(log) == [tiles[1]]


def test_amb_29_a_bounded_track_stops_the_cube_but_pays_the_bonus():
    """AMB-29: with anna_track_len the cube stays on the last field, the bonus still pays; unbounded by default."""
    g, s = solo(0, anna_track_len=3)
    pool = Pool(g, s)
    arrange(g, s, {3: [pool.take("market")]}, anna_at=2, spec="market", pool=pool)
    rec(g, s)[K.AN_TRACK + TYPE["market"]] = 2
    human_turn(g, s)
    assert track(g, s, "market") == 2 and int(rec(g, s)[K.AN_COINS]) == 1
    g, s = solo(0)
    pool = Pool(g, s)
    arrange(g, s, {3: [pool.take("market")]}, anna_at=2, spec="market", pool=pool)
    rec(g, s)[K.AN_TRACK + TYPE["market"]] = 40  # unbounded by default: on past the printed fields
    human_turn(g, s)
    assert track(g, s, "market") == 41
