"""Scenario tests for the setup rules CD-SETUP-1..15 (rules digest §2.1)."""

import numpy as np
import pytest
from bgsim.sim import game_seeds, make_game
from bgsim.sim.errors import GameIdError, IllegalActionError
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem import decisions as D
from bgsim.sim.games.carpe_diem.kernels.setup import DISC_SLOT_A, DISC_SLOT_B

from tests.games.carpe_diem._scenario import arrange_turn, light_tiles
from tests.games.carpe_diem.helpers import decide, field, fresh, game, rows, shovel

SEEDS = range(12)
DECK_COUNTS = {2: (2, 2, 2, 2), 3: (2, 3, 2, 3), 4: (3, 3, 2, 4)}


def _dealt(n, seed=0, **params):
    g = game(n, **params)
    return g, g.new_state(game_seeds(seed))


def _deck_of(g, card):
    return "ABCD"[g.components.scoring_cards[card].deck]


def test_cd_setup_1_two_to_four_players_only():
    """The game is for 2, 3 or 4 players (1 = solo against Anna, CD-ANNA-1); other counts are rejected."""
    for n in (2, 3, 4):
        g, s = _dealt(n)
        assert int(field(g, s, "n_players")[0]) == n
    for n in (0, 5):
        with pytest.raises(GameIdError):
            make_game("carpe_diem", n_players=n)


def test_cd_setup_1_seat_0_is_the_start_player_of_pass_1():
    """After setup, pass 1 starts with seat 0 as start player and first mover."""
    for n in (2, 3, 4):
        g = game(n)
        s = fresh(g, 3)
        assert int(field(g, s, "pass_no")[0]) == 1
        assert int(field(g, s, "pass_start")[0]) == 0
        tab = g.decision(s)
        assert (tab.kind, tab.seat) == (D.TURN, 0)


def test_cd_setup_2_four_random_frame_pieces_per_player():
    """Each player gets 4 of the 16 frame pieces at random, no piece twice, in random order."""
    first_sides = set()
    piece_sets = set()
    for seed in SEEDS:
        for n in (2, 3, 4):
            g, s = _dealt(n, seed)
            pieces = field(g, s, "frame_piece")[:n]
            assert pieces.shape == (n, 4)
            flat = pieces.ravel().tolist()
            assert len(set(flat)) == 4 * n
            assert all(0 <= p < K.N_FRAME_PIECES for p in flat)
            tasks = [task for p in flat for task in g.components.frames[p].tasks]
            assert len(tasks) == 8 * n  # 2 tasks per piece
            if n == 4:
                assert sorted(flat) == list(range(16))
                first_sides.add(int(pieces[0, 0]))
                piece_sets.add(frozenset(pieces[0].tolist()))
    assert len(first_sides) >= 4
    assert len(piece_sets) >= 4


def test_cd_setup_3_one_random_unrotated_district_board_per_player():
    """Each player gets a different board of the 4, laid as printed (shovel and banners unrotated)."""
    boards_seen = set()
    for seed in SEEDS:
        g, s = _dealt(4, seed)
        boards = field(g, s, "board")[:4].tolist()
        assert sorted(boards) == [0, 1, 2, 3]
        boards_seen.add(boards[0])
        for seat in range(4):
            board = g.components.boards[boards[seat]]
            banners = set(np.flatnonzero(field(g, s, "banner_left")[seat]).tolist())
            assert banners == set(board.banners)
            assert shovel(g, s, seat) == board.shovel
    assert len(boards_seen) >= 3


def test_cd_setup_3_first_tile_goes_on_the_printed_shovel_cell():
    """The board is not rotated: the first tile's only cell is the board's printed shovel cell."""
    g = game(3)
    for seed in range(4):
        s = fresh(g, seed)
        arrange_turn(g, s, 0, {1: light_tiles(g, 1)}, patrician=0)
        assert {r["cell"] for r in rows(g, s)} == {g.components.boards[int(field(g, s, "board")[0])].shovel}


def test_cd_setup_4_nine_banners_on_every_district():
    """Each player's 9 banner cells hold a banner; unused seats have none."""
    for n in (2, 3, 4):
        g, s = _dealt(n, 5)
        banners = field(g, s, "banner_left")
        for seat in range(n):
            assert int(banners[seat].sum()) == K.N_BANNERS
        assert int(banners[n:].sum()) == 0


def test_cd_setup_5_four_scoring_discs_in_storage_and_banner_disc_on_start():
    """Every player has 4 scoring discs in storage, his banner disc at position 0 and no placed disc."""
    for n in (2, 3, 4):
        g, s = _dealt(n, 1)
        assert field(g, s, "discs")[:n].tolist() == [4] * n
        assert field(g, s, "banner_pos")[:n].tolist() == [0] * n
        assert (field(g, s, "disc") == -1).all()
        assert field(g, s, "patrician")[:n].tolist() == [-1] * n  # placed by D01


def test_cd_setup_6_scoring_cards_drawn_per_deck_by_player_count():
    """N=2: 2A 2B 2C 2D; N=3: 2A 3B 2C 3D; N=4: 3A 3B 2C 4D; all different cards."""
    for n, want in DECK_COUNTS.items():
        drawn_sets = set()
        for seed in SEEDS:
            g, s = _dealt(n, seed)
            cards = [int(c) for c in field(g, s, "slot_card") if c >= 0]
            assert len(cards) == len(set(cards)) == sum(want)
            got = tuple(sum(_deck_of(g, c) == d for c in cards) for d in "ABCD")
            assert got == want
            drawn_sets.add(frozenset(cards))
        assert len(drawn_sets) == len(SEEDS)  # random draws


def test_cd_setup_7_empty_slots_by_player_count():
    """All 12 slots are used with 4 players, all but (0,0) and (3,2) with 3, all but the corners with 2."""
    want = {4: set(), 3: {0, 11}, 2: {0, 2, 9, 11}}
    for n, empty in want.items():
        for seed in range(4):
            g, s = _dealt(n, seed)
            got = {slot for slot in range(K.N_SLOTS) if field(g, s, "slot_card")[slot] < 0}
            assert got == empty


def test_cd_setup_7_three_players_other_diagonal_mirror():
    """With the mirrored layout, 3 players leave (0,2) and (3,0) empty instead."""
    g, s = _dealt(3, 2, three_player_empty_corners="top_right_bottom_left")
    assert {slot for slot in range(K.N_SLOTS) if field(g, s, "slot_card")[slot] < 0} == {2, 9}
    assert int(field(g, s, "disc_live").sum()) == 13


def test_cd_setup_7_layout_is_shuffled():
    """The drawn cards lie in random order: decks are mixed across slots."""
    layouts = set()
    for seed in SEEDS:
        g, s = _dealt(4, seed)
        layouts.add(tuple(_deck_of(g, int(c)) for c in field(g, s, "slot_card")))
    assert len(layouts) == len(SEEDS)


def test_cd_setup_8_live_disc_spaces_are_4n_plus_1():
    """A disc space is live iff both its slots hold cards: 9, 13, 17 spaces for 2, 3, 4 players."""
    exact = {
        2: {"H(1,0)", "H(1,1)", "H(2,0)", "H(2,1)", "V(0,1)", "V(1,0)", "V(1,1)", "V(1,2)", "V(2,1)"},
        3: {K.disc_space_name(sp) for sp in range(17)} - {"H(0,0)", "V(0,0)", "H(3,1)", "V(2,2)"},
        4: {K.disc_space_name(sp) for sp in range(17)},
    }
    for n in (2, 3, 4):
        g, s = _dealt(n, 4)
        live = field(g, s, "disc_live")
        slots = field(g, s, "slot_card")
        for space in range(K.N_DISC_SPACES):
            both = slots[DISC_SLOT_A[space]] >= 0 and slots[DISC_SLOT_B[space]] >= 0
            assert bool(live[space]) == both
        assert int(live.sum()) == 4 * n + 1
        assert {K.disc_space_name(sp) for sp in range(17) if live[sp]} == exact[n]


def test_cd_setup_9_fountain_deck_is_all_24_cards_shuffled():
    """The fountain deck holds the 24 cards face down in random order."""
    orders = set()
    for seed in SEEDS:
        g, s = _dealt(2, seed)
        assert int(field(g, s, "fdeck_count")[0]) == 24
        head = int(field(g, s, "fdeck_head")[0])
        deck = np.roll(field(g, s, "fountain_deck"), -head).tolist()
        assert sorted(deck) == list(range(24))
        orders.add(tuple(deck))
        assert field(g, s, "fountain_n")[:2].tolist() == [0, 0]
    assert len(orders) == len(SEEDS)


def test_cd_setup_10_dark_tiles_on_the_11_seal_spaces_and_separate_stocks():
    """Light and dark tiles are shuffled apart; 11 dark tiles go face up on the seals, 28 stay for pass 4."""
    for seed in range(5):
        g, s = _dealt(4, seed)
        tiles = g.components.tiles
        light = field(g, s, "light_stock").tolist()
        dark = field(g, s, "dark_stock").tolist()
        assert sorted(light) == sorted(i for i, t in enumerate(tiles) if not t.dark)
        assert sorted(dark) == sorted(i for i, t in enumerate(tiles) if t.dark)
        seal = field(g, s, "seal").tolist()
        assert len(seal) == 11 and all(tiles[t].dark for t in seal)
        assert seal == dark[:11]
        assert not set(seal) & set(dark[11:]) and len(dark[11:]) == 28


def test_cd_setup_11_patricians_placed_in_seat_order_on_free_spaces():
    """D01 goes seat 0, 1, ...; each may choose any space no patrician stands on."""
    g = game(4)
    s = g.new_state(game_seeds(7))
    chosen = [5, 2, 6, 0]
    for seat, space in enumerate(chosen):
        tab = g.decision(s)
        assert (tab.kind, tab.seat) == (D.PATRICIAN, seat)
        offered = sorted(r["space"] for r in rows(g, s))
        assert offered == sorted(set(range(7)) - set(chosen[:seat]))
        if seat > 0:  # an occupied space is refused
            bad = tab.actions[0].copy()
            bad[g.action_fields.index("space")] = chosen[0]
            with pytest.raises(IllegalActionError):
                g.apply(s, bad, validate=True)
        decide(g, s, space=space)
    assert field(g, s, "patrician")[:4].tolist() == chosen


def test_cd_setup_11_patricians_placed_before_the_tiles_are_revealed():
    """AMB-14 default: depot contents are not visible to D01; the deal is revealed afterwards."""
    g = game(3)
    s = g.new_state(game_seeds(1))
    for seat in range(3):
        assert int(field(g, s, "revealed")[0]) == 0
        tab = g.decision(s)
        assert (tab.column("depot_tiles") == 0).all()
        decide(g, s, space=seat)
    assert int(field(g, s, "revealed")[0]) == 1
    g2 = game(3, patrician_placement="after_reveal")  # AMB-14 alternative: tiles seen while placing
    s2 = g2.new_state(game_seeds(1))
    assert int(field(g2, s2, "revealed")[0]) == 1
    assert (g2.decision(s2).column("depot_tiles") > 0).all()


def test_cd_setup_12_four_light_tiles_on_each_depot():
    """Pass 1 deals 4 light tiles face up on each of the 7 depots, 28 in all, from the light stock."""
    for n in (2, 3, 4):
        g = game(n)
        s = fresh(g, 2)
        depot = field(g, s, "depot")
        assert depot.shape == (7, 4) and (depot >= 0).all()
        assert all(not g.components.tiles[int(t)].dark for t in depot.ravel())
        assert sorted(depot.ravel().tolist()) == sorted(field(g, s, "light_stock")[:28].tolist())


def test_cd_setup_13_banner_stack_seat_0_at_the_bottom():
    """Banner discs stack on position 0 from seat 0 (bottom) to seat N-1 (top)."""
    for n in (2, 3, 4):
        g, s = _dealt(n)
        stamps = field(g, s, "banner_stamp")[:n].tolist()
        assert stamps == sorted(stamps) and len(set(stamps)) == n


def test_cd_setup_13_without_steps_the_last_seat_scores_first():
    """The stack order decides the first pass scoring: top disc (seat N-1) first, seat 0 last."""
    for n in (2, 3, 4):
        g = game(n)
        s = fresh(g, 1)
        seat = n - 1
        arrange_turn(g, s, seat, {3: light_tiles(g, 1)}, patrician=2, turn_no=7 * n - 1)
        decide(g, s, space=3, cell=shovel(g, s, seat))  # the first tile: shovel, no banner there
        assert g.decision(s).kind == D.DISC
        assert field(g, s, "score_order")[:n].tolist() == list(range(n - 1, -1, -1))
        assert g.decision(s).seat == n - 1


def test_cd_setup_14_start_vp_by_seat():
    """Start VP: 8/9 for 2 players, 8/9/13 for 3, 8/9/10/11 for 4."""
    want = {2: [8, 9], 3: [8, 9, 13], 4: [8, 9, 10, 11]}
    for n, vp in want.items():
        g, s = _dealt(n, 9)
        assert field(g, s, "vp")[:n].tolist() == vp
        assert field(g, s, "vp_start")[:n].tolist() == vp


def test_cd_setup_15_players_start_with_empty_storage():
    """No goods, coins, bread, fountain cards or stored tiles at the start; nothing built."""
    for n in (2, 3, 4):
        g = game(n)
        s = fresh(g, 4)
        assert (field(g, s, "goods")[:n] == 0).all()
        for name in ("coins", "bread", "fountain_n", "stored", "taken", "built"):
            assert field(g, s, name)[:n].tolist() == [0] * n, name
        assert (field(g, s, "cell_tile")[:n] == -1).all()
