"""Rulebook test vectors on turn flow, setup, scoring order and reward order (digest §5:
TV-15 to TV-25 and TV-27). Each test arranges a position and acts through the engine with
validation on, then checks the legal set offered and the resulting state."""

from collections import Counter, deque

import numpy as np
import pytest
from bgsim.sim import game_seeds
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem import decisions as D
from bgsim.sim.games.carpe_diem.events import (
    EV_DEPOT_CLEAR,
    EV_GAME_END,
    EV_MOVE,
    EV_PASS_START,
    EV_SCORING_START,
    EV_STEPS,
    EV_TAKE,
    events,
)
from bgsim.sim.games.carpe_diem.kernels.final import ranks_before
from bgsim.sim.games.carpe_diem.tables import TABLES
from bgsim.sim.play import play_game
from bgsim.strategies import make_strategy

from tests.games.carpe_diem.helpers import (
    TYPE,
    build_turn,
    card_id,
    cell,
    counts,
    decide,
    feature,
    field,
    find_tile,
    fresh,
    game,
    held,
    matching_rows,
    preset,
    rotation,
    shovel,
    to_scoring,
    to_turn,
)

OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
SCORING_KINDS = (D.DISC, D.CARD_ORDER, D.FULFIL, D.PAYMENT)


# Arrange helpers private to this file


def track_last(g) -> int:
    return int(TABLES.view(g.tables, "track_last")[0])


def neighbour(at: int, letter: str) -> int:
    r, c = divmod(at, K.SIDE)
    dr, dc = STEP[letter]
    if 0 <= r + dr < K.SIDE and 0 <= c + dc < K.SIDE:
        return (r + dr) * K.SIDE + c + dc
    return -1


def put(g, s, seat: int, tile: int, at: int, rot: int = 0):
    """Preset a built tile; a real build would have removed the banner there, so remove it too."""
    preset(g, s, seat, tile, at, rot)
    field(g, s, "banner_left")[seat, at] = 0
    field(g, s, "taken")[seat] = max(int(field(g, s, "taken")[seat]), int(field(g, s, "built")[seat]))


def tiles_of(g, type_name: str, open_edges: int, dark=None) -> list[int]:
    """Every single-part tile of this type with this many open edges."""
    out = []
    for i, tile in enumerate(g.components.tiles):
        if len(tile.parts) != 1 or (dark is not None and tile.dark != dark):
            continue
        part = tile.parts[0]
        if part.type == TYPE[type_name] and bin(part.open_mask).count("1") == open_edges:
            out.append(i)
    return out


def plain_slot(g, s, space: int) -> int:
    """A depot place whose tile has no fountain (so building it asks no fountain decision)."""
    for slot in range(K.DEPOT_SIZE):
        tile = int(field(g, s, "depot")[space, slot])
        if tile >= 0 and all(p.type != TYPE["fountain"] for p in g.components.tiles[tile].parts):
            return slot
    raise LookupError(space)


def meadow_tiles(g) -> list[int]:
    """Single small buildings (meadow on all four edges), fountains left out."""
    return tiles_of(g, "market", 0) + tiles_of(g, "bakery", 0)


def free_neighbour(g, s, seat: int, at: int, avoid=()) -> tuple[int, str]:
    """A neighbour cell of ``at`` that is empty, holds no banner and is not in ``avoid``."""
    for letter in "NESW":
        nb = neighbour(at, letter)
        if nb >= 0 and nb not in avoid and field(g, s, "cell_tile")[seat, nb] < 0 \
                and field(g, s, "banner_left")[seat, nb] == 0:
            return nb, letter
    raise LookupError(at)


def pave(g, s, seat: int, goal, avoid=()) -> list[int]:
    """Preset meadow tiles on a shortest path of cells from the shovel to a cell in ``goal``
    (the shovel first, so the district is a legal one); returns the path."""
    start = shovel(g, s, seat)
    prev = {start: None}
    queue = deque([start])
    end = None
    while queue:
        at = queue.popleft()
        if at in goal:
            end = at
            break
        for letter in "NESW":
            nb = neighbour(at, letter)
            if nb >= 0 and nb not in prev and nb not in avoid:
                prev[nb] = at
                queue.append(nb)
    assert end is not None, "no path"
    path = []
    while end is not None:
        path.append(end)
        end = prev[end]
    path.reverse()
    pool = meadow_tiles(g)
    assert len(pool) >= len(path)
    for at, tile in zip(path, pool, strict=False):
        put(g, s, seat, tile, at)
    return path


def fountain_copies(g, name: str) -> list[int]:
    return [i for i, c in enumerate(g.components.fountain_cards) if c.id == name]


def stack_deck(g, s, top: list[int], held: list[int]):
    """Fountain deck = ``top`` first, then every card neither on top nor held (CD-SETUP-9)."""
    rest = [c for c in range(K.N_FOUNTAIN_CARDS) if c not in top and c not in held]
    deck = top + rest
    field(g, s, "fountain_deck")[:] = -1
    field(g, s, "fountain_deck")[: len(deck)] = deck
    field(g, s, "fdeck_head")[0] = 0
    field(g, s, "fdeck_count")[0] = len(deck)


def deck_cards(g, s) -> list[int]:
    deck = field(g, s, "fountain_deck")
    head = int(field(g, s, "fdeck_head")[0])
    return [int(deck[(head + i) % K.N_FOUNTAIN_CARDS]) for i in range(int(field(g, s, "fdeck_count")[0]))]


def hold(g, s, seat: int, cards: list[int]):
    field(g, s, "fountain_held")[seat, :] = 0
    field(g, s, "fountain_held")[seat, : len(cards)] = cards
    field(g, s, "fountain_n")[seat] = len(cards)


def to_last_turn(g, s, pass_no: int, space: int, tiles, patrician: int, takes_before: int) -> int:
    """Arrange the last turn of pass ``pass_no``: only depot ``space`` holds ``tiles`` after
    ``takes_before`` takes this pass; returns the seat to move (CD-PASS-1, CD-TURN-1)."""
    n = g.n_players
    start = (pass_no - 1) % n
    seat = (start + K.ROUNDS * n - 1) % n
    depot = field(g, s, "depot")
    depot[:] = -1
    depot[space, : len(tiles)] = tiles
    field(g, s, "depot_takes")[:] = n
    field(g, s, "depot_takes")[space] = takes_before
    field(g, s, "pass_no")[0] = pass_no
    field(g, s, "pass_start")[0] = start
    field(g, s, "turn_no")[0] = K.ROUNDS * n - 1
    field(g, s, "seat")[0] = seat
    field(g, s, "phase")[0] = D.TURN
    field(g, s, "patrician")[seat] = patrician
    for q in range(n):
        field(g, s, "turns")[q, pass_no - 1] = K.ROUNDS - (1 if q == seat else 0)
    return seat


def run_scoring(g, s, log=None) -> list[int]:
    """Play a pass scoring with the first legal row of every decision; the seats that placed a
    disc, in order."""
    seats = []
    while int(field(g, s, "phase")[0]) in SCORING_KINDS:
        tab = g.decision(s)
        if tab.kind == D.DISC:
            seats.append(tab.seat)
        g.apply(s, tab.actions[0].copy(), log, validate=True)
    return seats


def column(g, tab, name: str) -> np.ndarray:
    return tab.actions[:, g.action_fields.index(name)]


def event_rows(log, code) -> np.ndarray:
    ev = events(log)
    return ev[ev[:, 0] == code]


# TV-15


@pytest.mark.parametrize("first", ["C01", "A11"])
def test_tv15_cd_scoring_4_cd_card_5_bread_from_the_first_card_serves_the_second(first):
    """C01 first: its bread makes 3, enough for a bread fulfilment of A11 (+7 VP, 0 bread).
    A11 first: no fish, 2 bread: -4 VP, then C01 leaves 3 bread."""
    g = game(4)
    s = fresh(g)
    villa = find_tile(g, [("villa", "N")], dark=True, chimneys=2)
    put(g, s, 0, villa, shovel(g, s, 0))
    field(g, s, "bread")[0] = 2
    assert counts(g, s, 0)["chimneys"] == 2
    space = 3
    to_scoring(g, s, 0, space, "C01", "A11")
    vp = int(field(g, s, "vp")[0])
    decide(g, s, space=space)
    tab = g.decision(s)
    assert tab.kind == D.CARD_ORDER and tab.seat == 0
    assert sorted(column(g, tab, "tile").tolist()) == sorted([card_id(g, "C01"), card_id(g, "A11")])
    decide(g, s, tile=card_id(g, first))
    if first == "C01":
        tab = g.decision(s)
        assert tab.kind == D.FULFIL and int(column(g, tab, "tile")[0]) == card_id(g, "A11")
        rows = sorted(zip(column(g, tab, "bread").tolist(), column(g, tab, "count").tolist(), strict=True))
        assert rows == [(0, 0), (1, 0)]  # 3 bread now, no fish, no coins
        decide(g, s, bread=1, count=0)
        assert int(field(g, s, "vp")[0]) - vp == 7
        assert int(field(g, s, "bread")[0]) == 0
    else:
        assert int(field(g, s, "vp")[0]) - vp == -4
        assert int(field(g, s, "bread")[0]) == 3
        assert int(field(g, s, "penalties")[0]) == 1
    # the scorer is done: the next seat places its disc
    assert int(field(g, s, "phase")[0]) == D.DISC and int(field(g, s, "seat")[0]) == 1


def test_tv15_cd_scoring_4_amb_9_min_one_rule_still_lets_the_player_order_the_cards():
    """With red_card_min_one_if_able, 3 fish and A07 + A11: A11 first pays 3 fish (+7) and A07
    fails (-4) = +3; A07 first must pay 2 fish (+4) and A11 fails (-4) = 0. The order changes the
    result, so the player chooses it (D09)."""
    g = game(4, red_card_min_one_if_able=True)
    s = fresh(g)
    field(g, s, "goods")[0, K.FISH] = 3
    space = 3
    to_scoring(g, s, 0, space, "A07", "A11")
    vp = int(field(g, s, "vp")[0])
    decide(g, s, space=space)
    tab = g.decision(s)
    assert tab.kind == D.CARD_ORDER and tab.seat == 0, f"order not offered: {tab.kind_name}, seat {tab.seat}"
    decide(g, s, tile=card_id(g, "A11"))
    assert int(field(g, s, "vp")[0]) - vp == 3
    assert int(field(g, s, "goods")[0, K.FISH]) == 0


# TV-16


def _fountain_district(g, s, fountains_built: int) -> int:
    """Bakery on the shovel, ``fountains_built`` fountains beside it; returns a free cell for one more."""
    home = shovel(g, s, 0)
    put(g, s, 0, tiles_of(g, "bakery", 0)[0], home)
    spare = tiles_of(g, "fountain", 0)
    for i in range(fountains_built):
        at, _ = free_neighbour(g, s, 0, home)
        put(g, s, 0, spare[i + 1], at)
    at, _ = free_neighbour(g, s, 0, home)
    return at


def test_tv16_cd_reward_8_first_fountain_keeps_one_of_the_two_drawn():
    """No card held: draw F05, F12, keep one, the other goes under the deck."""
    g = game(4)
    s = fresh(g)
    f05, f12 = fountain_copies(g, "F05")[0], fountain_copies(g, "F12")[0]
    stack_deck(g, s, [f05, f12], [])
    at = _fountain_district(g, s, 0)
    build_turn(g, s, 0, tiles_of(g, "fountain", 0)[0], at, 0)
    tab = g.decision(s)
    assert tab.kind == D.FOUNTAIN and tab.seat == 0
    assert sorted(column(g, tab, "tile").tolist()) == sorted([f05, f12])
    decide(g, s, tile=f12)
    assert held(g, s, 0) == [f05]
    deck = deck_cards(g, s)
    assert len(deck) == 23 and deck[-1] == f12  # under the deck
    assert f05 not in deck
    assert counts(g, s, 0)["fountain"] == 1 == int(field(g, s, "fountain_n")[0])


def test_tv16_cd_reward_8_second_fountain_may_return_an_earlier_card():
    """Holding F03: draw F05, F12; any of the three may go under the deck, here F03."""
    g = game(4)
    s = fresh(g)
    f03, f05, f12 = fountain_copies(g, "F03")[0], fountain_copies(g, "F05")[0], fountain_copies(g, "F12")[0]
    hold(g, s, 0, [f03])
    stack_deck(g, s, [f05, f12], [f03])
    at = _fountain_district(g, s, 1)
    build_turn(g, s, 0, tiles_of(g, "fountain", 0)[0], at, 0)
    tab = g.decision(s)
    assert tab.kind == D.FOUNTAIN and tab.seat == 0
    assert sorted(column(g, tab, "tile").tolist()) == sorted([f03, f05, f12])
    decide(g, s, tile=f03)
    assert held(g, s, 0) == sorted([f05, f12])
    deck = deck_cards(g, s)
    assert len(deck) == 22 and deck[-1] == f03
    assert counts(g, s, 0)["fountain"] == 2 == int(field(g, s, "fountain_n")[0])  # net: cards = fountains


# TV-17


def test_tv17_cd_end_5_two_identical_fountain_cards_both_score():
    """Held F10, F10 (market) with 3 markets built: 2 x 3 x 2 = 12 VP at the final scoring."""
    g = game(2)
    s = fresh(g)
    home = shovel(g, s, 0)
    markets = tiles_of(g, "market", 0)
    put(g, s, 0, markets[0], home)
    for tile in markets[1:3]:
        at, _ = free_neighbour(g, s, 0, home)
        put(g, s, 0, tile, at)
    assert counts(g, s, 0)["market"] == 3
    f10 = fountain_copies(g, "F10")
    hold(g, s, 0, f10)
    stack_deck(g, s, [], f10)
    space = 11  # V(1,0): live with 2 players
    to_scoring(g, s, 0, space, "A11", "A11")
    field(g, s, "pass_no")[0] = 4
    decide(g, s, space=space)
    assert run_scoring(g, s) == [1]
    assert g.is_over(s)
    sheet = g.score_sheet(s)
    assert int(sheet["fountain_cards"][0]) == 12
    assert int(sheet["fountain_cards"][1]) == 0
    assert int(field(g, s, "final_fountain")[0]) == 12


# TV-18

LIVE_DISC_SPACES = {  # digest §6.3
    2: {2, 3, 4, 5, 9, 11, 12, 13, 15},
    3: set(range(17)) - {0, 7, 8, 16},  # H(0,0), H(3,1), V(0,0), V(2,2)
    4: set(range(17)),
}
EMPTY_SLOTS = {2: {0, 2, 9, 11}, 3: {0, 11}, 4: set()}  # corners (0,0) (0,2) (3,0) (3,2)
DECK_COUNTS = {2: {"A": 2, "B": 2, "C": 2, "D": 2}, 3: {"A": 2, "B": 3, "C": 2, "D": 3},
               4: {"A": 3, "B": 3, "C": 2, "D": 4}}
START_VP = {2: [8, 9], 3: [8, 9, 13], 4: [8, 9, 10, 11]}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_tv18_cd_setup_6_to_8_and_14_cards_slots_disc_spaces_and_start_vp(n):
    """Cards per deck on the board, empty corner slots, live disc spaces (§6.3), start VP."""
    g = game(n)
    for seed in range(12):
        s = fresh(g, seed)
        slots = field(g, s, "slot_card")
        empty = {i for i in range(K.N_SLOTS) if slots[i] < 0}
        assert empty == EMPTY_SLOTS[n], seed
        cards = [int(c) for c in slots if c >= 0]
        assert len(set(cards)) == len(cards) == {2: 8, 3: 10, 4: 12}[n]
        decks = Counter(K.DECKS[g.components.scoring_cards[c].deck] for c in cards)
        assert decks == DECK_COUNTS[n], seed
        live = {i for i in range(K.N_DISC_SPACES) if field(g, s, "disc_live")[i]}
        assert live == LIVE_DISC_SPACES[n], seed
        assert len(live) == 4 * n + 1
        assert field(g, s, "vp")[:n].tolist() == START_VP[n]
        assert field(g, s, "vp_start")[:n].tolist() == START_VP[n]


def test_tv18_cd_setup_7_three_players_other_diagonal_is_a_mirror_image():
    """The other pair of opposite corners also leaves 13 live disc spaces."""
    g = game(3, three_player_empty_corners="top_right_bottom_left")
    for seed in range(6):
        s = fresh(g, seed)
        slots = field(g, s, "slot_card")
        assert {i for i in range(K.N_SLOTS) if slots[i] < 0} == {2, 9}
        live = {i for i in range(K.N_DISC_SPACES) if field(g, s, "disc_live")[i]}
        assert live == set(range(17)) - {1, 6, 10, 14}  # H(0,1), H(3,0), V(0,2), V(2,0)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_tv18_cd_setup_8_first_pass_scoring_offers_every_live_disc_space(n):
    """Through a real pass 1: the first scorer may use exactly the 4N + 1 live spaces."""
    g = game(n)
    for seed in (1, 2):
        seeds = game_seeds(seed)
        s = g.new_state(seeds)
        player = make_strategy("random", g)
        streams = np.array([seed + 1], dtype=np.uint64)
        while int(field(g, s, "phase")[0]) != D.DISC:
            tab = g.decision(s)
            g.apply(s, tab.actions[player.choose(tab, streams)].copy(), validate=True)
        assert int(field(g, s, "pass_no")[0]) == 1
        assert set(column(g, g.decision(s), "space").tolist()) == LIVE_DISC_SPACES[n]


# TV-19


def test_tv19_cd_setup_13_cd_scoring_2_initial_stack_scores_last_seat_first():
    """No banner steps in pass 1: all discs on the start field, seat 3 on top -> 3, 2, 1, 0."""
    g = game(4)
    s = fresh(g, 3)
    seat = to_last_turn(g, s, 1, 1, [int(field(g, s, "depot")[1, plain_slot(g, s, 1)])], 0, 3)
    assert seat == 3
    home = shovel(g, s, seat)
    assert field(g, s, "banner_left")[seat, home] == 0
    log = g.new_log()
    decide(g, s, log, move=D.STEP_CW, space=1, cell=home)  # its first tile: on the shovel
    assert (field(g, s, "banner_pos")[:4] == 0).all()
    assert int(field(g, s, "phase")[0]) == D.DISC
    assert field(g, s, "score_order")[:4].tolist() == [3, 2, 1, 0]
    assert run_scoring(g, s, log) == [3, 2, 1, 0]
    assert len(event_rows(log, EV_SCORING_START)) == 1
    assert int(field(g, s, "pass_no")[0]) == 2


def _tv19_position(g, seed=5):
    """Pass 4, last turn (seat 2): seats at 5, 3, 2, 0; seat 2 builds on a banner cell and so
    arrives on seat 1's space, on top of its disc. Every card is A11 and nobody holds goods, so
    every seat loses 8 VP; VP are set so that all final totals tie."""
    s = fresh(g, seed)
    positions = [5, 3, 2, 0]
    field(g, s, "banner_pos")[:4] = positions
    field(g, s, "banner_stamp")[:4] = [3, 4, 1, 2]  # arrival order: seat 2, 3, 0, 1
    field(g, s, "stamp")[0] = 4
    board = g.components.boards[int(field(g, s, "board")[2])]
    banners = set(board.banners)
    path = pave(g, s, 2, {nb for b in banners for nb in (neighbour(b, x) for x in "NESW") if nb >= 0},
                avoid=banners)
    goal = next(b for b in banners if any(neighbour(path[-1], x) == b for x in "NESW"))
    market = [t for t in tiles_of(g, "market", 0) if t not in field(g, s, "cell_tile")[2]][0]
    seat = to_last_turn(g, s, 4, 1, [market], 0, 3)
    assert seat == 2
    field(g, s, "slot_card")[:] = card_id(g, "A11")
    field(g, s, "disc")[:] = -1
    field(g, s, "discs")[:4] = 1
    for q in range(4):
        field(g, s, "goods")[q] = 0
        field(g, s, "coins")[q] = 0
        field(g, s, "bread")[q] = 0
        field(g, s, "vp")[q] = 20 - positions[q] - (1 if q == 2 else 0)  # seat 2 steps once more
        field(g, s, "vp_start")[q] = field(g, s, "vp")[q]
    return s, goal


def test_tv19_cd_scoring_2_order_by_position_then_stack_top_first():
    """Positions 5, 3 (bottom), 3 (top), 0 -> scoring order 0, 2, 1, 3."""
    g = game(4)
    s, goal = _tv19_position(g)
    rows = matching_rows(g, s, move=D.STEP_CW, cell=goal)
    assert rows and all(g.decision(s).features[r, g.feature_names.index("banner")] == 1 for r in rows)
    log = g.new_log()
    decide(g, s, log, move=D.STEP_CW, cell=goal)
    pos = field(g, s, "banner_pos")[:4].tolist()
    stamp = field(g, s, "banner_stamp")[:4]
    assert pos == [5, 3, 3, 0]
    assert stamp[2] > stamp[1]  # CD-REWARD-10: on top of the stack
    assert int(field(g, s, "phase")[0]) == D.DISC
    assert field(g, s, "score_order")[:4].tolist() == [0, 2, 1, 3]
    assert run_scoring(g, s, log) == [0, 2, 1, 3]


def test_tv19_cd_tie_2_tied_players_rank_furthest_back_first():
    """All totals tie: seat 3 (position 0) wins, then seat 1 (bottom of the stack on 3), seat 2
    (top), seat 0 (position 5)."""
    g = game(4)
    s, goal = _tv19_position(g)
    log = g.new_log()
    decide(g, s, log, move=D.STEP_CW, cell=goal)
    run_scoring(g, s, log)
    assert g.is_over(s)
    sheet = g.score_sheet(s)
    assert len(set(sheet["total"].tolist())) == 1, sheet["total"]
    assert sheet["rank"].tolist() == [4, 2, 3, 1]
    assert int(event_rows(log, EV_GAME_END)[0, 1]) == 3
    priority = [3, 1, 2, 0]
    for i, a in enumerate(priority):
        for b in priority[i + 1:]:
            assert ranks_before(s, g.param_array, a, b)
            assert not ranks_before(s, g.param_array, b, a)
    # AMB-13 alternative: the upper disc counts as further back
    upper = game(4, tie_stack_order="upper_is_back").param_array
    assert ranks_before(s, upper, 2, 1) and not ranks_before(s, upper, 1, 2)


# TV-20


def test_tv20_cd_turn_4_5_7_step_and_bread_destinations():
    """Depots D0, D3, D5 hold tiles; patrician on P0 with 1 bread: CW -> P3, CCW -> P5, bread to
    P0, P3 or P5 (staying included)."""
    g = game(4)
    s = fresh(g)
    depot = field(g, s, "depot")
    for space in (1, 2, 4, 6):
        depot[space] = -1
    assert int(field(g, s, "patrician")[0]) == 0 and int(field(g, s, "seat")[0]) == 0
    field(g, s, "bread")[0] = 1
    tab = g.decision(s)
    assert tab.kind == D.TURN
    moves = set(zip(column(g, tab, "move").tolist(), column(g, tab, "target").tolist(),
                    column(g, tab, "space").tolist(), strict=True))
    assert moves == {(D.STEP_CW, -1, 3), (D.STEP_CCW, -1, 5),
                     (D.BREAD_TO, 0, 0), (D.BREAD_TO, 3, 3), (D.BREAD_TO, 5, 5)}
    for space in (0, 3, 5):  # CD-TURN-8: any tile of the reached depot
        offered = set(column(g, tab, "tile")[column(g, tab, "space") == space].tolist())
        assert offered == {int(t) for t in depot[space] if t >= 0}
    home = shovel(g, s, 0)
    for move, dest, bread_left in ((D.STEP_CW, 3, 1), (D.STEP_CCW, 5, 1), (D.BREAD_TO, 0, 0),
                                   (D.BREAD_TO, 3, 0), (D.BREAD_TO, 5, 0)):
        t = s.copy()
        tile = int(depot[dest, 2])
        log = g.new_log()
        decide(g, t, log, move=move, space=dest, slot=2, cell=home)
        assert int(field(g, t, "patrician")[0]) == dest
        assert int(field(g, t, "bread")[0]) == bread_left
        assert field(g, t, "depot")[dest, 2] == -1
        assert int(field(g, t, "cell_tile")[0, home]) == tile
        assert event_rows(log, EV_MOVE)[0, 2:5].tolist() == [0, dest, move]


def test_tv20_cd_turn_7_no_bread_move_without_bread():
    """Without bread only the two steps are offered, neither ending on the start space."""
    g = game(4)
    s = fresh(g)
    tab = g.decision(s)
    assert set(column(g, tab, "move").tolist()) == {D.STEP_CW, D.STEP_CCW}
    assert set(column(g, tab, "space").tolist()) == {1, 6}  # CD-TURN-6: never the start space


# TV-21


def test_tv21_cd_turn_6_9_amb_3_full_loop_on_the_last_turn():
    """2 players, last turn: only D4 (3 tiles, 1 taken) has tiles and the mover stands on P4.
    Both directions loop round to P4; the take clears the depot and the pass scoring starts."""
    g = game(2)
    s = fresh(g)
    tiles = [int(t) for t in field(g, s, "depot")[4, :3]]
    seat = to_last_turn(g, s, 1, 4, tiles, 4, 1)
    assert seat == 1
    put(g, s, seat, meadow_tiles(g)[0], shovel(g, s, seat))
    field(g, s, "bread")[seat] = 0
    removed = int(field(g, s, "removed")[0])
    tab = g.decision(s)
    assert tab.kind == D.TURN and tab.seat == seat
    moves = set(zip(column(g, tab, "move").tolist(), column(g, tab, "space").tolist(), strict=True))
    assert moves == {(D.STEP_CW, 4), (D.STEP_CCW, 4)}
    assert set(column(g, tab, "tile").tolist()) == set(tiles)
    log = g.new_log()
    decide(g, s, log, move=D.STEP_CCW, space=4, slot=1, cell=-1)
    assert int(field(g, s, "patrician")[seat]) == 4
    assert (field(g, s, "depot")[4] == -1).all()
    assert int(field(g, s, "removed")[0]) == removed + 2
    assert event_rows(log, EV_DEPOT_CLEAR)[:, 2:4].tolist() == [[4, 2]]
    assert int(field(g, s, "stored")[seat]) == 1
    assert (field(g, s, "depot") == -1).all()
    assert len(event_rows(log, EV_SCORING_START)) == 1
    assert int(field(g, s, "phase")[0]) == D.DISC


# TV-22


@pytest.mark.parametrize(("n", "removed"), [(2, 2), (3, 1), (4, 0)])
def test_tv22_cd_turn_9_depot_exhaustion_after_n_takes(n, removed):
    """Every seat steps from P1 onto P2 and takes from D2: after the N-th take the rest of D2
    leaves the game (2 players: 2 tiles, 3 players: 1, 4 players: none)."""
    g = game(n)
    s = fresh(g)
    field(g, s, "patrician")[:n] = 1
    log = g.new_log()
    for k in range(n):
        seat = int(field(g, s, "seat")[0])
        assert seat == k
        decide(g, s, log, move=D.STEP_CW, space=2, slot=plain_slot(g, s, 2), cell=shovel(g, s, seat))
        left = int((field(g, s, "depot")[2] >= 0).sum())
        assert int(field(g, s, "depot_takes")[2]) == k + 1
        if k + 1 < n:
            assert left == 4 - (k + 1), k
            assert int(field(g, s, "removed")[0]) == 0
    assert left == 0
    assert int(field(g, s, "removed")[0]) == removed
    clears = event_rows(log, EV_DEPOT_CLEAR)
    if n < 4:
        assert clears[:, 2:4].tolist() == [[2, removed]]
    else:
        assert len(clears) == 0
    # the exhausted depot is passed over from now on (CD-TURN-4)
    tab = g.decision(s)
    assert 2 not in set(column(g, tab, "space").tolist())
    assert set(column(g, tab, "space").tolist()) == {1, 3}


# TV-23


def test_tv23_cd_reward_10_administrator_overflow_at_track_end():
    """Position L-1, administrator completed: 1 step to L, 1 VP for the surplus step, on top of
    the disc already on L."""
    g = game(4)
    s = fresh(g)
    last = track_last(g)
    field(g, s, "banner_pos")[:2] = [last - 1, last]
    field(g, s, "banner_stamp")[:2] = [1, 5]
    field(g, s, "stamp")[0] = 5
    home = shovel(g, s, 0)
    at, letter = free_neighbour(g, s, 0, home)
    half = find_tile(g, [("administrator", "N")], dark=True)
    other = find_tile(g, [("administrator", "N")], dark=True, exclude=(half,))
    put(g, s, 0, half, home, rotation(g, half, "administrator", letter))
    vp = int(field(g, s, "vp")[0])
    log = g.new_log()
    feats = build_turn(g, s, 0, other, at, rotation(g, other, "administrator", OPPOSITE[letter]), log)
    assert feature(g, feats, "steps") == 2 and feature(g, feats, "vp") == 1  # the offered row
    assert counts(g, s, 0)["administrator"] == 1
    assert int(field(g, s, "banner_pos")[0]) == last
    assert int(field(g, s, "vp")[0]) - vp == 1
    assert int(field(g, s, "vp_overflow")[0]) == 1
    assert int(field(g, s, "banner_stamp")[0]) > int(field(g, s, "banner_stamp")[1])
    assert event_rows(log, EV_STEPS)[:, 1:6].tolist() == [[0, 2, last, 1, 1]]  # source: administrator


def test_tv23_cd_reward_10_card_steps_beyond_track_end_pay_vp():
    """Position L, C04 with 6 chimneys: 3 steps, all surplus -> +3 VP, disc on top of the stack."""
    g = game(4)
    s = fresh(g)
    last = track_last(g)
    field(g, s, "banner_pos")[:2] = [last, last]
    field(g, s, "banner_stamp")[:2] = [1, 5]
    field(g, s, "stamp")[0] = 5
    home = shovel(g, s, 0)
    villas = [t for t in tiles_of(g, "villa", 2) + tiles_of(g, "villa", 3)
              if g.components.tiles[t].parts[0].chimneys == 3][:2]
    r, c = divmod(home, K.SIDE)
    put(g, s, 0, villas[0], home)
    put(g, s, 0, villas[1], cell(r, c + 2) if c + 2 < K.SIDE else cell(r, c - 2))
    assert counts(g, s, 0)["chimneys"] == 6
    space = 3
    to_scoring(g, s, 0, space, "C04", "C01")  # C01 pays bread only, so VP change = overflow VP
    vp = int(field(g, s, "vp")[0])
    log = g.new_log()
    decide(g, s, log, space=space)
    decide(g, s, log, tile=card_id(g, "C04"))
    assert int(field(g, s, "banner_pos")[0]) == last
    assert int(field(g, s, "vp")[0]) - vp == 3
    assert int(field(g, s, "vp_overflow")[0]) == 3
    assert int(field(g, s, "bread")[0]) == 3
    assert int(field(g, s, "banner_stamp")[0]) > int(field(g, s, "banner_stamp")[1])
    assert event_rows(log, EV_STEPS)[:, 1:6].tolist() == [[0, 3, last, 3, 2]]


# TV-24


@pytest.mark.parametrize(("seed", "kind"), [(11, "random"), (12, "greedy"), (13, "random")])
def test_tv24_cd_pass_1_start_player_moves_left_each_pass(seed, kind):
    """3 players: start players 0, 1, 2, 0; within a pass turns go clockwise from the start
    player (pass 2: 1, 2, 0, ...), 7 rounds."""
    g = game(3)
    played = play_game(g, [make_strategy(kind, g) for _ in range(3)], game_seeds(seed), log=True, validate=True)
    log = played.log
    assert int(log[0, 0]) < log.shape[0] - 1  # the log is complete
    starts = event_rows(log, EV_PASS_START)
    assert starts[:, 2:4].tolist() == [[1, 0], [2, 1], [3, 2], [4, 0]]
    ev = events(log)
    pass_no = 0
    movers = {p: [] for p in range(1, 5)}
    for row in ev:
        if row[0] == EV_PASS_START:
            pass_no = int(row[2])
        elif row[0] == EV_TAKE:
            movers[pass_no].append(int(row[1]))
    for p, start in zip(range(1, 5), (0, 1, 2, 0), strict=True):
        assert movers[p] == [(start + i) % 3 for i in range(21)], p
    assert movers[2][:3] == [1, 2, 0]
    assert (field(g, played.state, "turns")[:3] == K.ROUNDS).all()


# TV-25


def _tv25_district(g, south):
    """Seat 0 paved from the shovel to a cell beside (0,3), not over (0,3) or (1,3); ``south``
    = what lies on (1,3): None, a pond end open to the north, or a meadow tile."""
    s = fresh(g)
    target, below = cell(0, 3), cell(1, 3)
    pond = find_tile(g, [("pond", "N")], dark=True)
    pave(g, s, 0, {cell(0, 2), cell(0, 4)}, avoid={target, below})
    if south == "pond":
        other = find_tile(g, [("pond", "N")], dark=True, exclude=(pond,))
        put(g, s, 0, other, below, rotation(g, other, "pond", "N"))
    elif south == "meadow":
        used = set(field(g, s, "cell_tile")[0].tolist())
        put(g, s, 0, next(t for t in meadow_tiles(g) if t not in used), below)
    to_turn(g, s, 0, [pond])
    return s, pond


def _rotations_at(g, s, tile, at):
    tab = g.decision(s)
    rows = matching_rows(g, s, move=D.STEP_CW, tile=tile, cell=at)
    return {int(tab.actions[r, g.action_fields.index("rotation")]) for r in rows}


@pytest.mark.parametrize("south", [None, "pond", "meadow"])
def test_tv25_cd_build_5_pond_end_against_the_frame(south):
    """A pond end on (0,3): the pond may not face the frame (north); facing south it is legal iff
    (1,3) is empty or shows a pond edge to the north."""
    g = game(4)
    s, pond = _tv25_district(g, south)
    at = cell(0, 3)
    legal = _rotations_at(g, s, pond, at)
    north, south_rot = rotation(g, pond, "pond", "N"), rotation(g, pond, "pond", "S")
    assert legal, "(0,3) must be reachable: it touches the paved path"
    assert north not in legal
    if south == "meadow":
        assert south_rot not in legal
        return
    assert south_rot in legal
    if south == "pond":
        assert legal == {south_rot}  # every other rotation shows meadow to the pond edge below
    fish = int(field(g, s, "goods")[0, K.FISH])
    decide(g, s, move=D.STEP_CW, tile=pond, cell=at, rotation=south_rot)
    assert int(field(g, s, "cell_tile")[0, at]) == pond
    assert int(field(g, s, "cell_rot")[0, at]) == south_rot
    if south == "pond":  # the two ends close a 2-tile pond: 1 fish (CD-REWARD-1)
        assert counts(g, s, 0)["pond"] == 1
        assert int(field(g, s, "goods")[0, K.FISH]) == fish + 1


# TV-27


def _tv27_position(g):
    """Seat 0: merchant half on the shovel and a 2-tile vineyard (end + middle) so that one
    merchant/vineyard tile completes both the lodging and a 3-tile vineyard. (The tile data has
    no pond + merchant tile; the vineyard is the landscape that pairs with a merchant half.)"""
    s = fresh(g)
    home = shovel(g, s, 0)
    tile = find_tile(g, [("merchant", "N"), ("vineyard", "N")], dark=False)
    parts = {g.components.tiles[tile].parts[j].type: j for j in range(2)}
    for rot in range(4):
        open_dir = {}
        for ptype, j in parts.items():
            mask = g.components.tiles[tile].parts[j].open_mask
            mask = ((mask << rot) | (mask >> (4 - rot))) & 0xF
            open_dir[ptype] = "NESW"[mask.bit_length() - 1]
        dm, dv = open_dir[TYPE["merchant"]], open_dir[TYPE["vineyard"]]
        x = neighbour(home, OPPOSITE[dm])
        if x < 0:
            continue
        mid = neighbour(x, dv)
        if mid < 0 or mid == home:
            continue
        for d2 in "NESW":
            if d2 == OPPOSITE[dv]:
                continue
            end = neighbour(mid, d2)
            if end < 0 or end in (home, x):
                continue
            letters = "".join(sorted({OPPOSITE[dv], d2}, key="NESW".index))
            try:
                middle = find_tile(g, [("vineyard", letters)], dark=False)
            except LookupError:
                continue
            put(g, s, 0, find_tile(g, [("merchant", "N")], dark=True), home,
                rotation(g, find_tile(g, [("merchant", "N")], dark=True), "merchant", OPPOSITE[dm]))
            vend = find_tile(g, [("vineyard", "N")], dark=True)
            put(g, s, 0, vend, end, rotation(g, vend, "vineyard", OPPOSITE[d2]))
            put(g, s, 0, middle, mid, rotation(g, middle, "vineyard", letters))
            field(g, s, "banner_left")[0, x] = 0  # no banner step in this build
            return s, tile, x, rot
    raise LookupError("no layout")


@pytest.mark.parametrize("first", ["vineyard", "merchant"])
def test_tv27_cd_reward_11_amb_11_player_orders_landscape_and_merchant(first):
    """Landscape first: 2 grapes, then the merchant converts them: 0 grapes, 3 coins.
    Merchant first: 1 coin, then 2 grapes are kept."""
    g = game(4)
    s, tile, x, rot = _tv27_position(g)
    feats = build_turn(g, s, 0, tile, x, rot)
    assert feature(g, feats, "landscapes_completed") == 1 and feature(g, feats, "lodgings_completed") == 1
    tab = g.decision(s)
    assert tab.kind == D.REWARD_ORDER and tab.seat == 0
    assert sorted(column(g, tab, "count").tolist()) == sorted([TYPE["vineyard"], TYPE["merchant"]])
    decide(g, s, count=TYPE[first])
    grapes = int(field(g, s, "goods")[0, K.GRAPE])
    coins = int(field(g, s, "coins")[0])
    if first == "vineyard":
        assert (grapes, coins) == (0, 3)
    else:
        assert (grapes, coins) == (2, 1)
    assert counts(g, s, 0)["vineyard"] == 1 and counts(g, s, 0)["merchant"] == 1
    assert int(field(g, s, "phase")[0]) == D.TURN and int(field(g, s, "seat")[0]) == 1


def test_tv27_amb_11_fixed_order_converts_the_new_goods():
    """AMB-11 (b): no choice; landscape goods come first, the merchant converts them."""
    g = game(4, reward_order="fixed")
    s, tile, x, rot = _tv27_position(g)
    build_turn(g, s, 0, tile, x, rot)
    assert int(field(g, s, "phase")[0]) == D.TURN and int(field(g, s, "seat")[0]) == 1
    assert int(field(g, s, "goods")[0, K.GRAPE]) == 0
    assert int(field(g, s, "coins")[0]) == 3
