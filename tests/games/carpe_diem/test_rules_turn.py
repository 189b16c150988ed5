"""Scenario tests for turns and movement (CD-TURN-1..11) and the next passes (CD-PASS-1..3)."""

import numpy as np
from bgsim.sim.games.carpe_diem import decisions as D
from bgsim.sim.games.carpe_diem.events import events

from tests.games.carpe_diem._scenario import (
    EV,
    SPACE_H20,
    District,
    arrange_last_scorer,
    arrange_turn,
    ev,
    ev_names,
    light_tiles,
    play_random,
)
from tests.games.carpe_diem.helpers import decide, field, fresh, game, rows, shovel

STEP_CW, STEP_CCW, BREAD_TO = D.STEP_CW, D.STEP_CCW, D.BREAD_TO


def _moves(g, s) -> set[tuple[int, int]]:
    """(movement code, destination) pairs offered."""
    return {(r["move"], r["space"]) for r in rows(g, s)}


def _built_district(g, s, seat):
    """A one-tile district (a market on the shovel) so later takes are not the first."""
    d = District(g, s, seat)
    r, c = divmod(shovel(g, s, seat), 6)
    d.meadow((r, c))
    d.sync_taken()
    return d


def _takes_by_pass(log):
    """Take events per pass: pass -> [[seat, space, depot place, tile, ...], ...]."""
    out, current = {}, 0
    for row in events(log):
        if row[0] == EV["pass_start"]:
            current = int(row[2])
        elif row[0] == EV["take"]:
            out.setdefault(current, []).append(row[1:].tolist())
    return out


def test_cd_turn_1_seven_rounds_in_seat_order_from_the_start_player():
    """Each pass: 7 rounds, one turn per player per round, clockwise from the pass's start player."""
    for n, seed in ((2, 11), (3, 12), (4, 13)):
        g = game(n)
        _, log = play_random(g, seed)
        by_pass = _takes_by_pass(log)
        assert sorted(by_pass) == [1, 2, 3, 4]
        for p, takes in by_pass.items():
            start = (p - 1) % n
            assert [t[0] for t in takes] == [(start + i) % n for i in range(7 * n)]


def test_cd_turn_2_patrician_spaces_form_a_circle():
    """Clockwise from P6 is P0 and counter-clockwise from P0 is P6."""
    g = game(4)
    s = fresh(g)
    tiles = light_tiles(g, 2)
    arrange_turn(g, s, 0, {0: [tiles[0]], 3: [tiles[1]]}, patrician=6)
    assert (STEP_CW, 0) in _moves(g, s)
    arrange_turn(g, s, 0, {6: [tiles[0]], 3: [tiles[1]]}, patrician=0)
    assert (STEP_CCW, 6) in _moves(g, s)
    decide(g, s, move=STEP_CCW)
    assert int(field(g, s, "patrician")[0]) == 6


def test_cd_turn_2_patricians_may_share_a_space():
    """A patrician may move onto a space where other patricians already stand."""
    g = game(4)
    s = fresh(g)
    field(g, s, "patrician")[1:4] = 2
    arrange_turn(g, s, 0, {2: light_tiles(g, 2)}, patrician=1)
    assert _moves(g, s) == {(STEP_CW, 2), (STEP_CCW, 2)}
    decide(g, s, move=STEP_CW, space=2)
    assert field(g, s, "patrician")[:4].tolist() == [2, 2, 2, 2]


def test_cd_turn_3_turn_order_move_take_exhaust_build_banner_rewards():
    """A turn runs: movement, take, depot exhaustion, build, banner step, completion rewards."""
    g = game(2)
    s = fresh(g)
    d = _built_district(g, s, 0)
    d.put((1, 1), [("baker", "N")], "baker", "E", dark=True)
    half = d.tile([("baker", "N")], dark=True)
    others = light_tiles(g, 2)
    arrange_turn(g, s, 0, {1: [half] + others}, patrician=0)
    field(g, s, "depot_takes")[1] = 1  # the other player took the 4th tile already
    field(g, s, "banner_left")[0, 8] = 1  # cell (1,2)
    log = g.new_log()
    decide(g, s, log, move=STEP_CW, space=1, slot=0, cell=8, rotation=d.rot(half, "baker", "W"))
    assert ev_names(log) == ["move", "take", "depot_clear", "place", "banner", "steps", "complete", "bread"]
    assert ev(log, "depot_clear") == [[-1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0]]
    assert int(field(g, s, "bread")[0]) == 2 and int(field(g, s, "banner_pos")[0]) == 1


def test_cd_turn_4_patrician_skips_empty_depots():
    """TV-20: depots D0, D3, D5 hold tiles, patrician on P0: clockwise ends on P3, counter-clockwise on P5."""
    g = game(4)
    s = fresh(g)
    t = light_tiles(g, 3)
    arrange_turn(g, s, 0, {0: [t[0]], 3: [t[1]], 5: [t[2]]}, patrician=0)
    moves = _moves(g, s)
    assert {m for m in moves if m[0] in (STEP_CW, STEP_CCW)} == {(STEP_CW, 3), (STEP_CCW, 5)}
    decide(g, s, move=STEP_CCW)
    assert int(field(g, s, "patrician")[0]) == 5
    assert field(g, s, "depot")[5, 0] == -1 and field(g, s, "depot")[3, 0] == t[1]


def test_cd_turn_4_destination_depends_only_on_the_direction():
    """Every clockwise row ends on the same space, and so does every counter-clockwise row."""
    g = game(3)
    s = fresh(g)
    _built_district(g, s, 0)
    arrange_turn(g, s, 0, {2: light_tiles(g, 4), 4: light_tiles(g, 8)[4:]}, patrician=1)
    by_move = {}
    for r in rows(g, s):
        by_move.setdefault(r["move"], set()).add(r["space"])
    assert by_move == {STEP_CW: {2}, STEP_CCW: {4}}


def test_cd_turn_5_both_directions_legal_even_towards_an_empty_neighbour():
    """The empty neighbour's direction stays legal while the other neighbour still has tiles."""
    g = game(4)
    s = fresh(g)
    t = light_tiles(g, 2)
    arrange_turn(g, s, 0, {1: [t[0]], 4: [t[1]]}, patrician=0)  # D6 is empty, D1 is not
    assert _moves(g, s) == {(STEP_CW, 1), (STEP_CCW, 4)}
    decide(g, s, move=STEP_CCW)
    assert int(field(g, s, "patrician")[0]) == 4


def test_cd_turn_6_a_standard_move_never_stays():
    """With tiles on the own depot and elsewhere, no standard move ends on the start space."""
    g = game(4)
    s = fresh(g)
    t = light_tiles(g, 2)
    arrange_turn(g, s, 0, {3: [t[0]], 5: [t[1]]}, patrician=3)
    assert _moves(g, s) == {(STEP_CW, 5), (STEP_CCW, 5)}
    assert all(r["space"] != 3 for r in rows(g, s))


def test_cd_turn_6_full_loop_when_only_the_own_depot_has_tiles():
    """TV-21 (AMB-3 default): both directions loop to the start space; the take empties D4; scoring follows."""
    g = game(2)
    s = fresh(g)
    _built_district(g, s, 1)
    t = light_tiles(g, 3)
    arrange_turn(g, s, 1, {4: t}, patrician=4, turn_no=13)
    field(g, s, "depot_takes")[4] = 1
    assert _moves(g, s) == {(STEP_CW, 4), (STEP_CCW, 4)}
    removed = int(field(g, s, "removed")[0])
    decide(g, s, move=STEP_CW, space=4, slot=1)
    assert (field(g, s, "depot") == -1).all()
    assert int(field(g, s, "removed")[0]) == removed + 2
    assert g.decision(s).kind == D.DISC
    assert int(field(g, s, "patrician")[1]) == 4


def test_cd_turn_6_full_loop_alternative_makes_bread_pay():
    """AMB-3 alternative bread_else_stay: with bread the loop is replaced by a bread move."""
    g = game(2, full_loop="bread_else_stay")
    s = fresh(g)
    _built_district(g, s, 0)
    arrange_turn(g, s, 0, {4: light_tiles(g, 2)}, patrician=4, bread=1)
    assert _moves(g, s) == {(BREAD_TO, 4)}


def test_cd_turn_7_bread_move_to_any_depot_with_tiles_including_staying():
    """TV-20: with 1 bread, bread moves go to P0 (stay), P3 and P5 - exactly the non-empty depots."""
    g = game(4)
    s = fresh(g)
    t = light_tiles(g, 3)
    arrange_turn(g, s, 0, {0: [t[0]], 3: [t[1]], 5: [t[2]]}, patrician=0, bread=1)
    moves = _moves(g, s)
    assert {m for m in moves if m[0] == BREAD_TO} == {(BREAD_TO, 0), (BREAD_TO, 3), (BREAD_TO, 5)}
    assert moves >= {(STEP_CW, 3), (STEP_CCW, 5)}
    decide(g, s, move=BREAD_TO, space=0)
    assert int(field(g, s, "patrician")[0]) == 0
    assert int(field(g, s, "bread")[0]) == 0
    assert field(g, s, "depot")[0, 0] == -1  # the tile came from the own depot


def test_cd_turn_7_bread_move_to_a_far_depot_costs_exactly_one_bread():
    """A bread move ignores the movement rule, costs 1 bread, and the tile comes from the target."""
    g = game(3)
    s = fresh(g)
    t = light_tiles(g, 3)
    arrange_turn(g, s, 0, {1: [t[0]], 4: [t[1], t[2]]}, patrician=0, bread=4)
    decide(g, s, move=BREAD_TO, space=4, slot=0)  # a market: no bread from the tile
    assert int(field(g, s, "patrician")[0]) == 4
    assert int(field(g, s, "bread")[0]) == 3
    assert field(g, s, "depot")[4].tolist() == [-1, t[2], -1, -1]


def test_cd_turn_7_no_bread_move_without_bread_or_to_an_empty_depot():
    """Without bread only the two steps exist; with bread, empty depots are never bread targets."""
    g = game(4)
    s = fresh(g)
    t = light_tiles(g, 2)
    arrange_turn(g, s, 0, {2: [t[0]], 6: [t[1]]}, patrician=0, bread=0)
    field(g, s, "coins")[0] = 5  # coins do not buy a bread move
    assert _moves(g, s) == {(STEP_CW, 2), (STEP_CCW, 6)}
    field(g, s, "bread")[0] = 2
    assert {m[1] for m in _moves(g, s) if m[0] == BREAD_TO} == {2, 6}


def test_cd_turn_8_must_take_exactly_one_tile_from_the_reached_depot():
    """Rows offer each tile of the destination depot (and only those); the take removes just that tile."""
    g = game(4)
    s = fresh(g)
    _built_district(g, s, 0)
    t = light_tiles(g, 6)
    arrange_turn(g, s, 0, {1: t[:4], 5: t[4:]}, patrician=0)
    offered = {(r["space"], r["slot"], r["tile"]) for r in rows(g, s)}
    want = {(1, j, t[j]) for j in range(4)} | {(5, j, t[4 + j]) for j in range(2)}
    assert offered == want
    assert all(r["tile"] >= 0 and r["slot"] >= 0 for r in rows(g, s))
    decide(g, s, move=STEP_CW, slot=2)
    assert field(g, s, "depot")[1].tolist() == [t[0], t[1], -1, t[3]]
    assert int(field(g, s, "taken")[0]) == 2


def _takes_from_one_depot(n, takes):
    """Seats 0.. take in turn from D1 (4 tiles, D4 also stocked); returns the state after each take."""
    g = game(n)
    s = fresh(g)
    stock = light_tiles(g, 8)
    arrange_turn(g, s, 0, {1: stock[:4], 4: stock[4:]}, patrician=0)
    field(g, s, "patrician")[:n] = 0
    out = []
    for i in range(takes):
        seat = i % n
        assert g.decision(s).seat == seat
        field(g, s, "patrician")[seat] = 0
        decide(g, s, move=STEP_CW, space=1, cell=shovel(g, s, seat))  # each seat's first tile
        out.append((int((field(g, s, "depot")[1] >= 0).sum()), int(field(g, s, "removed")[0]),
                    field(g, s, "stored")[:n].tolist()))
    return g, s, out


def test_cd_turn_9_two_players_second_take_removes_the_other_two():
    """N=2: right after the 2nd take from a depot its 2 remaining tiles leave the game (nobody stores them)."""
    _, _, out = _takes_from_one_depot(2, 2)
    assert out[0][:2] == (3, 0)
    assert out[1] == (0, 2, [0, 0])


def test_cd_turn_9_three_players_third_take_removes_the_last():
    """N=3: right after the 3rd take from a depot its last tile leaves the game."""
    _, _, out = _takes_from_one_depot(3, 3)
    assert [o[:2] for o in out] == [(3, 0), (2, 0), (0, 1)]


def test_cd_turn_9_four_players_no_removal():
    """N=4: a depot gives all 4 tiles, nothing is removed."""
    _, _, out = _takes_from_one_depot(4, 4)
    assert [o[:2] for o in out] == [(3, 0), (2, 0), (1, 0), (0, 0)]


def test_cd_turn_9_takes_count_for_the_current_pass_across_players():
    """N=2: takes by different players add up; the depot in D4 is untouched by D1's exhaustion."""
    g, s, _ = _takes_from_one_depot(2, 2)
    assert int(field(g, s, "depot_takes")[1]) == 2
    assert int((field(g, s, "depot")[4] >= 0).sum()) == 4


def test_cd_turn_10_every_depot_yields_n_tiles_per_pass_and_all_are_empty_at_scoring():
    """Whole games: 7 turns per player per pass, N takes per depot per pass, empty depots at each scoring."""
    for n, seed in ((2, 21), (3, 22), (4, 23)):
        g = game(n)
        empty_at_scoring = []

        def check(s, tab, g=g, out=empty_at_scoring):
            if tab.kind == D.DISC:
                out.append(bool((field(g, s, "depot") == -1).all()))

        s, log = play_random(g, seed, check)
        assert empty_at_scoring and all(empty_at_scoring)
        assert (field(g, s, "turns")[:n] == 7).all()
        for p, takes in _takes_by_pass(log).items():
            per_depot = np.bincount([t[1] for t in takes], minlength=7)
            assert per_depot.tolist() == [n] * 7, p


def test_cd_turn_11_storing_is_allowed_even_with_a_legal_placement():
    """After the first tile, STORE is offered for every tile, beside its legal placements."""
    g = game(4)
    s = fresh(g)
    _built_district(g, s, 0)
    t = light_tiles(g, 2)
    arrange_turn(g, s, 0, {1: t}, patrician=0)
    for tile in t:
        tile_rows = [r for r in rows(g, s) if r["tile"] == tile]
        assert any(r["cell"] >= 0 for r in tile_rows)
        assert sum(r["cell"] < 0 for r in tile_rows) == 2  # one STORE per movement (CW, CCW)


def test_cd_turn_11_a_stored_tile_goes_face_down_into_storage():
    """Storing builds nothing: no banner step, no reward, no counter; the storage count grows."""
    g = game(4)
    s = fresh(g)
    d = _built_district(g, s, 0)
    market = d.tile([("market", "")])
    arrange_turn(g, s, 0, {1: [market]}, patrician=0)
    field(g, s, "banner_left")[0, :] = 1
    field(g, s, "banner_left")[0, shovel(g, s, 0)] = 0
    before = {k: field(g, s, k)[0].copy() for k in ("cell_tile", "count", "banner_left")}
    coins, pos = int(field(g, s, "coins")[0]), int(field(g, s, "banner_pos")[0])
    decide(g, s, move=STEP_CW, cell=-1)
    assert int(field(g, s, "stored")[0]) == 1
    for k, v in before.items():
        assert (field(g, s, k)[0] == v).all(), k
    assert int(field(g, s, "coins")[0]) == coins and int(field(g, s, "banner_pos")[0]) == pos


def test_cd_pass_1_start_player_passes_to_the_left_each_pass():
    """TV-24: start players of passes 1-4 are seats (p-1) mod N; pass 2 with 3 players goes 1, 2, 0."""
    for n, seed in ((2, 31), (3, 32), (4, 33)):
        g = game(n)
        _, log = play_random(g, seed)
        assert [e[1:3] for e in ev(log, "pass_start")] == [[p, (p - 1) % n] for p in (1, 2, 3, 4)]
        if n == 3:
            assert [t[0] for t in _takes_by_pass(log)[2]][:3] == [1, 2, 0]


def test_cd_pass_1_pass_scoring_hands_over_to_the_next_start_player():
    """After the last disc of pass p, seat p mod N opens pass p+1."""
    g = game(3)
    for p in (1, 2, 3):
        s = fresh(g, p)
        arrange_last_scorer(g, s, 0, "D21", "D22", p)
        decide(g, s, space=SPACE_H20)
        tab = g.decision(s)
        assert int(field(g, s, "pass_no")[0]) == p + 1
        assert (tab.kind, tab.seat) == (D.TURN, p % 3)
        assert int(field(g, s, "pass_start")[0]) == p % 3


def test_cd_pass_2_light_tiles_for_passes_2_and_3_dark_tiles_for_pass_4():
    """Each new pass deals 4 tiles per depot: the next 28 light tiles, then the 28 remaining dark tiles."""
    g = game(4)
    for p in (1, 2, 3):
        s = fresh(g, 40 + p)
        arrange_last_scorer(g, s, 1, "D21", "D22", p)
        decide(g, s, space=SPACE_H20)
        depot = field(g, s, "depot")
        if p < 3:
            want = field(g, s, "light_stock")[28 * p: 28 * (p + 1)]
        else:
            want = field(g, s, "dark_stock")[11:]
        assert depot.ravel().tolist() == want.tolist()
        assert all(g.components.tiles[int(t)].dark == (p == 3) for t in depot.ravel())


def test_cd_pass_3_board_and_players_unchanged_between_passes():
    """Patricians, banner discs and stack, scoring discs, seal display, districts and storage carry over."""
    g = game(3)
    s = fresh(g, 5)
    d = District(g, s, 1)
    d.put((2, 2), [("villa", "N")], "villa", "E", dark=True)
    field(g, s, "patrician")[:3] = [4, 4, 1]
    field(g, s, "banner_pos")[:3] = [3, 7, 3]
    field(g, s, "seal")[[1, 6]] = -1
    field(g, s, "disc")[0] = 2
    field(g, s, "goods")[1] = [1, 0, 2, 0]
    field(g, s, "coins")[:3] = [2, 3, 0]
    field(g, s, "bread")[:3] = [5, 1, 0]
    field(g, s, "stored")[:3] = [1, 2, 0]
    keep = ("patrician", "banner_pos", "banner_stamp", "seal", "cell_tile", "cell_rot", "banner_left",
            "goods", "coins", "bread", "stored", "fountain_held", "fountain_n", "count", "frame_piece")
    arrange_last_scorer(g, s, 2, "D21", "D22", 1)  # seat 2 has no bakery and no market: -8
    before = {k: field(g, s, k).copy() for k in keep}
    vp = field(g, s, "vp")[:3].copy()
    decide(g, s, space=SPACE_H20)
    assert int(field(g, s, "pass_no")[0]) == 2
    for k, v in before.items():
        assert (field(g, s, k) == v).all(), k
    assert field(g, s, "vp")[:3].tolist() == [vp[0], vp[1], vp[2] - 8]
    assert field(g, s, "disc")[[0, SPACE_H20]].tolist() == [2, 2]
