"""Arrange-act helpers for the Capitol rules tests.

Tests deal a game, set state fields directly (``game.field`` returns writable views) and act
through the real engine with ``validate=True``, so every action under test must be in the legal
set the rules produce. Seats are 0-based here; the digest's colours map to seats as
red 0, blue 1, green 2, yellow 3.
"""

from functools import cache

import numpy as np
from bgsim.sim import game_seeds, make_game
from bgsim.sim.games.capitol import decisions as D
from bgsim.sim.games.capitol import state as S
from bgsim.sim.games.capitol.events import EVENT_NAMES, events
from bgsim.sim.games.capitol.kernels.board import house_fits, place_points, rank_masks

EV = {name: code for code, name in EVENT_NAMES.items()}
ROUND, SQUARE = S.ROUND_SHAPE, S.SQUARE_SHAPE
LIGHT_BLUE, LILAC, PINK = 0, 1, 2
# prefectures of the default board (data/board.toml)
CAPITOLINE, PALATINE, ESQUILINE, QUIRINAL, VIMINAL, CAMPUS, AVENTINE, CAELIAN, TIBER = range(9)
GROUP = {LILAC: (CAPITOLINE, PALATINE, ESQUILINE), LIGHT_BLUE: (QUIRINAL, VIMINAL, CAMPUS),
         PINK: (AVENTINE, CAELIAN, TIBER)}


@cache
def game(n_players: int = 4, **params):
    """A cached game object (building one loads and checks the board file)."""
    return make_game("capitol", n_players=n_players, **params)


def fresh(g, seed: int = 0) -> np.ndarray:
    """A dealt game waiting for the first consul's build turn."""
    return g.new_state(game_seeds(seed))


def field(g, s, name):
    return g.field(s, name)


def one(g, s, name) -> int:
    """A one-entry field as an int."""
    return int(g.field(s, name)[0])


# --- cards (classes of state.py)


def roof(v: int) -> int:
    return v - 1


def stone(v: int) -> int:
    return 6 + v


def permit(colour: int, v: int) -> int:
    return 15 + 8 * colour + v - 1


def value(k: int) -> int:
    return int(S.CLASS_VALUE[k])


def set_hand(g, s, seat: int, cards) -> None:
    """``seat`` holds exactly the card classes ``cards``; nobody has seen them."""
    hand = field(g, s, "hand")
    hand[seat] = 0
    for k in cards:
        hand[seat, k] += 1
    field(g, s, "hand_type")[seat] = [int(hand[seat, S.CLASS_TYPE == t].sum()) for t in range(3)]
    field(g, s, "known")[seat] = 0


def hand_list(g, s, seat: int) -> list[int]:
    hand = field(g, s, "hand")[seat]
    return sorted(k for k in range(S.N_CLASSES) for _ in range(int(hand[k])))


def queue(g, s, kind: int) -> tuple[list[int], list[int]]:
    """(draw pile top first, discard pile oldest first) of one card type, as card classes."""
    head = int(field(g, s, "pile_head")[kind])
    n_draw = int(field(g, s, "pile_draw")[kind])
    n_disc = int(field(g, s, "pile_discard")[kind])
    pile = field(g, s, "pile")[kind]
    entries = [int(pile[(head + j) % S.QCAP]) for j in range(n_draw + n_disc)]
    return entries[:n_draw], entries[n_draw:]


def set_queue(g, s, kind: int, draw, discard) -> None:
    """The queue of one card type: ``draw`` face up (top first), then ``discard`` (oldest first)."""
    entries = list(draw) + list(discard)
    field(g, s, "pile_head")[kind] = 0
    field(g, s, "pile_draw")[kind] = len(draw)
    field(g, s, "pile_discard")[kind] = len(discard)
    field(g, s, "pile")[kind] = 0
    field(g, s, "pile")[kind, : len(entries)] = entries
    field(g, s, "pile_seen")[kind] = 0


# --- areas and board


def set_area(g, s, seat: int, unfinished=(), finished=(), roofs=None) -> None:
    """``seat``'s area: unfinished house heights, finished houses as (height, shape)."""
    field(g, s, "unfinished")[seat] = 0
    for h in unfinished:
        field(g, s, "unfinished")[seat, h] += 1
    field(g, s, "finished")[seat] = 0
    for h, shape in finished:
        field(g, s, "finished")[seat, shape, h] += 1
    if roofs is not None:
        field(g, s, "roofs_left")[seat] = roofs


def unfinished_heights(g, s, seat: int) -> tuple[int, ...]:
    u = field(g, s, "unfinished")[seat]
    return tuple(sorted(h for h in range(len(u)) for _ in range(int(u[h]))))


def build_houses(g, s, pref: int, houses, shape: int = ROUND, check: bool = True) -> None:
    """Put houses (seat, height) into ``pref`` in building order, as a permit would; with
    ``check`` each must fit by CAP-BUILD-13..16 when it arrives."""
    for seat, h in houses:
        if check:
            assert house_fits(s, g.board_table, pref, h, shape), (pref, seat, h)
        field(g, s, "free")[pref] -= 1
        field(g, s, "houses")[pref] += 1
        field(g, s, "shape")[pref] = shape
        field(g, s, "tallest")[pref] = max(int(field(g, s, "tallest")[pref]), h)
        field(g, s, "stones")[pref, seat] += h
        field(g, s, "top")[pref, seat] = max(int(field(g, s, "top")[pref, seat]), h)


def ranks(g, s, pref: int) -> tuple[set[int], set[int]]:
    """(first, second) seats of ``pref`` by the engine's CAP-SCORE-7 kernel."""
    first, second = rank_masks(s, g.param_array, pref, -1, 0)
    n = g.n_players
    return {p for p in range(n) if first >> p & 1}, {p for p in range(n) if second >> p & 1}


def points(g, s, pref: int, factor: int = 1) -> list[int]:
    first, second = rank_masks(s, g.param_array, pref, -1, 0)
    f = int(field(g, s, "fountains")[pref])
    return [int(place_points(first, second, p, f, factor)) for p in range(g.n_players)]


# --- acting


def act(kind: int, op: int, card: int = -1, x: int = 0, y: int = 0, z: int = 0) -> np.ndarray:
    return np.array([kind, op, card, x, y, z], dtype=np.int32)


def rows(g, s) -> list[tuple[int, ...]]:
    """The pending table's action rows as tuples."""
    return [tuple(int(v) for v in r) for r in g.decision(s).actions]


def do(g, s, row, log=None) -> None:
    g.apply(s, np.asarray(row, dtype=np.int32), log, validate=True)


def kind(s) -> int:
    return int(s[S.PHASE])


def seat(s) -> int:
    return int(s[S.SEAT])


def pass_turn(g, s, log=None) -> None:
    assert kind(s) == D.BUILD
    do(g, s, act(D.BUILD, D.OP_PASS), log)


def pass_all(g, s, log=None) -> None:
    """Every seat still building passes: the auction phase begins."""
    while kind(s) == D.BUILD:
        pass_turn(g, s, log)


def bid(g, s, who: int, cards=(), log=None) -> None:
    """``who`` (the seat to bid) puts ``cards`` on its stack, top first, then the stop card."""
    assert kind(s) == D.BID and seat(s) == who, (kind(s), seat(s), who)
    complete = len(cards) == int(field(g, s, "hand_type")[who].sum())  # every card in the bid: no stop needed
    for k in cards:
        do(g, s, act(D.BID, D.OP_ADD, k), log)
    if not complete:
        do(g, s, act(D.BID, D.OP_STOP), log)


def passive_row(g, s) -> np.ndarray:
    """The do-little action of the pending decision: pass, stop bidding, the first pile, the first place."""
    table = g.decision(s)
    acts = table.actions
    if table.kind in (D.BUILD, D.BID):
        return acts[0].copy()
    if table.kind == D.DRAW:
        takes = [r for r in acts if r[D.A_OP] == D.OP_TAKE]
        return takes[0].copy()
    return acts[0].copy()


def drive(g, s, until, log=None, limit: int = 5000) -> None:
    """Apply passive rows until ``until(s)`` holds."""
    for _ in range(limit):
        if until(s):
            return
        assert kind(s) != D.OVER, "the game ended first"
        do(g, s, passive_row(g, s), log)
    raise AssertionError("drive: step limit")


def to_auction(g, s, a: int, log=None) -> None:
    """Drive passively to the first bid decision of auction ``a`` (0..11)."""
    drive(g, s, lambda x: kind(x) == D.BID and int(x[S.AUCTION]) == a, log)


def to_build(g, s, r: int, log=None) -> None:
    """Drive passively to the first build decision of round ``r`` (0..3)."""
    drive(g, s, lambda x: kind(x) == D.BUILD and int(x[S.ROUND]) == r, log)


def stop_all_bids(g, s, log=None) -> None:
    """Every seat bids 0 in the auction under way."""
    a = int(s[S.AUCTION])
    while kind(s) == D.BID and int(s[S.AUCTION]) == a:
        bid(g, s, seat(s), (), log)


def ev(log) -> np.ndarray:
    return events(log)


def ev_rows(log, name: str) -> np.ndarray:
    e = events(log)
    return e[e[:, 0] == EV[name]]


def random_play(g, s, rng, log=None, on_step=None) -> None:
    """Play ``s`` to the end with uniformly random legal rows from ``rng`` (numpy Generator).
    ``on_step(s, row)`` is called before each action is applied."""
    while kind(s) != D.OVER:
        acts = g.decision(s).actions
        row = acts[int(rng.integers(len(acts)))].copy()
        if on_step is not None:
            on_step(s, row)
        g.apply(s, row, log)
