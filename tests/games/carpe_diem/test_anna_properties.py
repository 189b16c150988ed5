"""Properties of random solo games against the automa Anna (Hypothesis; CD-ANNA-7..25).

Each game is stepped decision by decision with an event log. A shadow board (depots, seal
display, Anna's patrician, specialisation and the tiles she took) is kept from the events alone
and compared with the state after every step, so every move and take of Anna is checked against
what really lay on the board. The human's seat is played by the ``random`` and ``greedy``
strategies. The first property uses the rulebook's rules with the difficulty knobs turned; the
second the alternatives of the solo ambiguities (AMB-4, -5, -20, -21, -23..27, -29).

The default profile plays at least 500 games per property.
"""

import os

import numpy as np
from bgsim.sim import game_seeds
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem.anna_data import load_anna
from bgsim.sim.games.carpe_diem.events import EVENT_NAMES, events
from bgsim.sim.games.carpe_diem.tables import TABLES
from bgsim.sim.seeding import strategy_streams
from bgsim.strategies import make_strategy
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.carpe_diem.helpers import field, game

N_EXAMPLES = 30 if os.environ.get("HYPOTHESIS_PROFILE") == "quick" else 520

EV = {name: code for code, name in EVENT_NAMES.items()}
HUMAN, ANNA = 0, 1
ANNA_DATA = load_anna()
ARROW = {"CW": 0, "CCW": 1}
# CD-ANNA-17: what one part pays her: (coins, bread, goods, banner steps)
PAYS = {K.MERCHANT: (1, 0, 0, 0), K.MARKET: (1, 0, 0, 0), K.BAKER: (0, 2, 0, 0), K.BAKERY: (0, 1, 0, 0),
        K.ADMINISTRATOR: (0, 0, 0, 2), K.POND: (0, 0, 1, 0), K.GARDEN: (0, 0, 1, 0), K.VINEYARD: (0, 0, 1, 0),
        K.CHICKEN_YARD: (0, 0, 1, 0)}
RULEBOOK_VARIANTS = [  # difficulty knobs and the random tie-break, rules otherwise as printed
    {},
    {"anna_convert_at": 3},
    {"anna_convert_at": 4, "anna_extra_steps": 1},
    {"anna_tiebreak": "random"},
    {"anna_start_vp": 6, "anna_convert_at": 7, "anna_majority_vp": 12},
]
AMBIGUITY_VARIANTS = [
    {"anna_craftsman_overflow": "last", "anna_craftsman_villa": "one", "anna_villa_vp": "one_per_chimney"},
    {"anna_craftsman_overflow": "reroll", "anna_convert_mode": "per_category",
     "anna_villa_vp": "virtual_villas_of_5"},
    {"anna_convert_mode": "per_kind", "anna_track_len": 6, "anna_zero_tie_vp": 0, "anna_tiebreak": "random"},
    {"anna_convert_return": "all", "anna_majority_vp": 20, "anna_villa_count_divisor": None, "solo_tie": "anna"},
    {"anna_majority_count": "any", "solo_banner_stack": "anna_bottom", "anna_patrician_placement": "random",
     "solo_tie": "human"},
]


def grey(ptype: int, pos: int) -> int:
    values = ANNA_DATA.grey[K.TYPE_NAMES[ptype]]
    return values[min(pos, len(values) - 1)]


class Shadow:
    """The board as the events tell it (CD-TURN-8/9, CD-ANNA-13..18), checked against the state."""

    def __init__(self, g, s):
        self.g = g
        self.p = g.params
        self.parts = [[(p.type, p.chimneys) for p in t.parts] for t in g.components.tiles]
        self.counter = [c.counter for c in g.components.fountain_cards]
        self.depot = field(g, s, "depot").copy()
        self.seal = field(g, s, "seal").copy()
        self.light = field(g, s, "light_stock").copy()
        self.dark = field(g, s, "dark_stock").copy()
        self.deck = field(g, s, "anna_deck").copy()
        self.spec = self.counter[int(field(g, s, "anna")[K.AN_PILE])]  # CD-ANNA-11: her first card
        self.anna_at = -1
        self.pass_no = 0
        self.anna_turns = 0
        self.takes = np.zeros(7, dtype=np.int64)
        self.anna_tiles: list[int] = []  # every tile Anna took, from depots and seal spaces
        self.from_seals: set[int] = set()
        self.human_tiles: set[int] = set()
        self.draws = 0
        self.drawn = 0
        self.move = None  # (destination, row) of Anna's pending turn
        self.choice = None

    def shows(self, tile, ptype):
        return any(t == ptype for t, _ in self.parts[tile])

    def deal(self, pass_no):
        for k in range(28):
            self.depot.flat[k] = self.light[(pass_no - 1) * 28 + k] if pass_no <= 3 else self.dark[11 + k]

    def step_from(self, start, direction):
        """CD-ANNA-13 / CD-TURN-4: 1 space on, empty depots skipped; a full loop ends at the start."""
        q = start
        for _ in range(7):
            q = (q + direction) % 7
            if (self.depot[q] >= 0).any():
                return q
        return start

    def take(self, space, place, tile):
        assert tile >= 0 and self.depot[space, place] == tile, "a tile that is not there"
        self.depot[space, place] = -1
        self.takes[space] += 1

    def record(self):
        """Anna's tracks and her gains before conversions, from the tiles she took (CD-ANNA-16..18)."""
        tracks = np.zeros(K.N_TYPES, dtype=np.int64)
        gained = np.zeros(4, dtype=np.int64)  # coins, bread, goods, banner steps
        for tile in self.anna_tiles:
            for ptype, chimneys in self.parts[tile]:
                by_one = tile in self.from_seals and self.p.anna_craftsman_villa == "one"  # AMB-23
                tracks[ptype] += chimneys if ptype == K.VILLA and not by_one else 1
                gained += PAYS.get(ptype, (0, 0, 0, 0))
        if self.p.anna_track_len:  # AMB-29: the cube stops on the last field
            tracks = np.minimum(tracks, self.p.anna_track_len - 1)
        return tracks, gained

    def read(self, log, start):
        """Replay events ``start..``; returns the number of events read."""
        rows = events(log)
        for row in rows[start:]:
            code, seat, v = int(row[0]), int(row[1]), [int(x) for x in row[2:]]
            if code == EV["pass_start"]:
                self.pass_no, self.anna_turns = v[0], 0
                self.takes[:] = 0
                if v[0] > 1:
                    self.deal(v[0])
                assert v[1] == (v[0] - 1) % 2  # CD-ANNA-7: human, Anna, human, Anna
            elif code == EV["scoring_start"]:
                assert (self.takes == 2).all()  # CD-ANNA-9: every depot yields 2 tiles per pass
            elif code == EV["patrician"] and seat == ANNA:
                self.anna_at = v[0]
            elif code == EV["take"]:
                assert seat == HUMAN and v[2] not in self.anna_tiles
                self.take(v[0], v[1], v[2])
                self.human_tiles.add(v[2])
            elif code == EV["depot_clear"]:
                assert self.takes[v[0]] == 2 and int((self.depot[v[0]] >= 0).sum()) == v[1] == 2  # CD-ANNA-9
                self.depot[v[0]] = -1
            elif code == EV["craftsman"] and v[0] >= 0:
                assert self.seal[v[0]] == v[1] and v[1] not in self.anna_tiles
                self.seal[v[0]] = -1
                self.human_tiles.add(v[1])
            elif code == EV["anna_card"]:
                assert v == [self.pass_no, int(self.deck[self.pass_no - 1])] + [0] * 8  # CD-ANNA-12
            elif code == EV["anna_move"]:
                self._anna_move(*v[:4])
            elif code == EV["anna_choice"]:
                self.choice = v[:4]
            elif code == EV["anna_take"]:
                self._anna_take(*v[:3])
            elif code == EV["anna_roll"]:
                self._anna_roll(*v[:3])
            elif code == EV["anna_draw"]:
                self.draws += 1
                if v[0] >= 0:
                    self.drawn += 1
                    self.spec = self.counter[v[0]]
                assert v[1] == self.spec
        return len(rows)

    def _anna_move(self, origin, dest, arrow, row):
        assert origin == self.anna_at
        self.anna_turns += 1
        assert row == self.anna_turns  # her i-th turn reads row i
        card = ANNA_DATA.cards[int(self.deck[self.pass_no - 1])]
        assert arrow == ARROW[card.arrows[row - 1]]
        assert dest == self.step_from(origin, 1 if arrow == 0 else -1), "CD-ANNA-13"
        assert (self.depot[dest] >= 0).any(), "Anna moved to an empty depot"
        self.anna_at = dest
        self.move = (dest, row)

    def _anna_take(self, space, place, tile):
        dest, row = self.move
        assert space == dest, "Anna took from another depot than the one she moved to"
        here = [int(t) for t in self.depot[space] if t >= 0]
        # CD-ANNA-14: her specialisation first, else the first row symbol shown by a tile here
        order = [self.spec] + [K.TYPE_NAMES.index(n) for n in
                               ANNA_DATA.cards[int(self.deck[self.pass_no - 1])].symbols[row - 1]]
        shown = next(t for t in order if any(self.shows(x, t) for x in here))
        cands = [x for x in here if self.shows(x, shown)]
        assert self.choice[:2] == [shown, len(cands)]
        assert self.shows(tile, shown)
        # CD-ANNA-15 (a)-(d) on the tracks before this take; the tie left goes to (e)
        tracks, _ = self.record()
        keys = {x: self.key(x, shown, tracks) for x in cands}
        best = max(keys.values())
        assert keys[tile] == best and self.choice[2] == sum(k == best for k in keys.values())
        human = self.p.anna_tiebreak == "human"
        assert self.choice[3] == (0 if self.choice[2] == 1 else 1 if human else 2)
        self.take(space, place, tile)
        self.anna_tiles.append(tile)
        self.move = None

    def _anna_roll(self, roll, space, tile):
        """CD-ANNA-18: the n-th tile still lying, counted from S0; a roll above them by AMB-5."""
        assert 1 <= roll <= 6
        lying = [i for i in range(11) if self.seal[i] >= 0]
        if not lying:
            assert space == tile == -1
            return
        mode = self.p.anna_craftsman_overflow
        if mode == "reroll":
            assert roll <= len(lying)
        n = min(roll, len(lying)) if mode == "last" else (roll - 1) % len(lying) + 1
        assert space == lying[n - 1] and self.seal[space] == tile
        self.seal[space] = -1
        self.anna_tiles.append(tile)
        self.from_seals.add(tile)

    def key(self, tile, shown, tracks):
        """CD-ANNA-15: (a) parts; (b) group of the other part; (c) its track furthest back; (d) chimneys."""
        other = next((t for t, _ in self.parts[tile] if t != shown), 0)
        group = (4 if other == K.VILLA else 3 if K.LODGING_FIRST <= other <= K.LODGING_LAST
                 else 2 if K.LANDSCAPE_FIRST <= other <= K.LANDSCAPE_LAST else 1 if other else 0)
        chimneys = next((c for t, c in self.parts[tile] if t == K.VILLA), -1)
        return len(self.parts[tile]), group, -tracks[other] if other else 0, chimneys

    def check(self, g, s):
        assert (self.depot == field(g, s, "depot")).all()
        assert (self.seal == field(g, s, "seal")).all()
        if self.anna_at >= 0:
            assert self.anna_at == int(field(g, s, "patrician")[ANNA])


def below_threshold(a, p) -> bool:
    """CD-ANNA-19 / AMB-4: nothing left that would convert."""
    coins, bread, goods = int(a[K.AN_COINS]), int(a[K.AN_BREAD]), a[K.AN_GOODS: K.AN_GOODS + K.N_GOODS]
    at = p.anna_convert_at
    if p.anna_convert_mode == "total":
        return coins + bread + int(goods.sum()) < at
    if p.anna_convert_mode == "per_category":
        return coins < at and bread < at and int(goods.sum()) < at
    return coins < at and bread < at and bool((goods < at).all())


def check_step(g, s, sh: Shadow, prev_tracks, anna_moved):
    p = g.params
    a = field(g, s, "anna")
    tracks = a[K.AN_TRACK: K.AN_TRACK + K.N_TYPES].astype(np.int64)
    assert (tracks >= prev_tracks).all(), "a track cube moved back"
    want_tracks, gained = sh.record()
    assert (tracks == want_tracks).all() and tracks[0] == 0
    held = int(a[K.AN_COINS] + a[K.AN_BREAD] + a[K.AN_GOODS: K.AN_GOODS + K.N_GOODS].sum())
    conversions = int(field(g, s, "anna_conversions")[0])
    bound = 2 + int(gained[:3].sum()) - p.anna_convert_at * conversions  # CD-ANNA-11, -17, -19
    assert held == bound if p.anna_convert_return == "five" else held <= bound
    if anna_moved:
        assert below_threshold(a, p), "items left after her turn reach the conversion threshold"
    assert (a[K.AN_COINS: K.AN_GOODS + K.N_GOODS] >= 0).all()
    banner = int(field(g, s, "banner_pos")[ANNA] + field(g, s, "vp_overflow")[ANNA])
    assert banner == int(gained[3]) + conversions + p.anna_extra_steps * sh.pass_no  # CD-ANNA-17, -19, -20
    # CD-ANNA-21: her VP only ever grow by overflow steps
    assert int(field(g, s, "vp")[ANNA]) == p.anna_start_vp + int(field(g, s, "vp_overflow")[ANNA])
    fountains = sum(1 for tile in sh.anna_tiles for ptype, _ in sh.parts[tile] if ptype == K.FOUNTAIN)
    assert int(a[K.AN_PILE_N]) == 1 + sh.drawn and sh.draws == fountains  # one card per fountain part
    # 123 tiles: built, stored, removed, on depots and seals, undealt, or taken by Anna
    pass_no = max(1, int(field(g, s, "pass_no")[0]))
    undealt = (K.N_LIGHT - 28 * min(pass_no, 3)) + (28 if pass_no < 4 else 0)
    accounted = (int(field(g, s, "built")[HUMAN]) + int(field(g, s, "stored")[HUMAN]) + int(field(g, s, "removed")[0])
                 + int((field(g, s, "depot") >= 0).sum()) + int((field(g, s, "seal") >= 0).sum()) + undealt
                 + len(sh.anna_tiles))
    assert accounted == K.N_TILES
    assert int(field(g, s, "built")[ANNA]) == 0 and int(field(g, s, "stored")[ANNA]) == 0
    return tracks


def villa_track_vp(g, chimneys: int) -> int:
    """AMB-26: the villa table on her chimneys, 1 per chimney, or virtual villas of 5."""
    table = TABLES.view(g.tables, "villa_vp")
    mode = g.params.anna_villa_vp
    if mode == "one_per_chimney":
        return chimneys
    if mode == "virtual_villas_of_5":
        return chimneys // 5 * int(table[5]) + (int(table[chimneys % 5]) if chimneys % 5 else 0)
    return int(table[chimneys])


def human_ranks_first(g, s) -> bool:
    """CD-ANNA-25: more VP; a tie by AMB-27 (banner: the disc further back, lower in a stack)."""
    total, pos, stamp = (field(g, s, n)[:2].tolist() for n in ("final_total", "banner_pos", "banner_stamp"))
    if total[HUMAN] != total[ANNA]:
        return total[HUMAN] > total[ANNA]
    if g.params.solo_tie != "banner":
        return g.params.solo_tie == "human"
    return (pos[HUMAN], stamp[HUMAN]) < (pos[ANNA], stamp[ANNA])


def check_final(g, s, sh: Shadow):
    p = g.params
    a = field(g, s, "anna")
    f = lambda name: int(field(g, s, name)[ANNA])  # noqa: E731
    majorities = int(field(g, s, "anna_final_majority")[0])
    # CD-ANNA-22: running VP + banner + villa track + majorities + fountain cards, no leftovers
    assert f("final_total") == f("vp") + f("final_banner") + f("final_villas") + majorities + f("final_fountain")
    assert f("final_leftovers") == 0 and f("final_frames") == 0 and f("final_banner") == f("banner_pos")
    assert f("final_villas") == villa_track_vp(g, int(a[K.AN_TRACK + K.VILLA]))
    maj = field(g, s, "anna_majority")
    assert majorities == int(maj[K.POND:].sum()) and int(maj[K.VILLA]) == 0
    if p.anna_majority_count == "completed":
        human = field(g, s, "count")[HUMAN]
        win = p.anna_majority_vp
        for ptype in range(K.POND, K.N_TYPES):  # CD-ANNA-23: 11 tracks against the human's counts
            mine, his = grey(ptype, int(a[K.AN_TRACK + ptype])), int(human[ptype])
            tie = min(p.anna_zero_tie_vp, win // 2) if mine == 0 else win // 2
            assert int(maj[ptype]) == (win if mine > his else tie if mine == his else 0)
    fountain = 0  # CD-ANNA-24: every card of the pile by her grey numbers (villa: AMB-25)
    divisor = p.anna_villa_count_divisor
    for card in a[K.AN_PILE: K.AN_PILE + a[K.AN_PILE_N]]:
        ptype = sh.counter[int(card)]
        if ptype == K.VILLA:
            count = int(a[K.AN_TRACK + K.VILLA]) // divisor if divisor else 0
        else:
            count = grey(ptype, int(a[K.AN_TRACK + ptype]))
        fountain += g.components.fountain_cards[int(card)].vp_per_item * count
    assert f("final_fountain") == fountain
    # records: the human's row; Anna's VP by source sums to anna_vp; margin = final_vp - anna_vp
    r = {k: v.to_pylist()[0] for k, v in g.records(s[None, :]).items()}
    parts = ("anna_vp_start", "anna_vp_banner", "anna_vp_villa", "anna_vp_majority", "anna_vp_fountain")
    assert r["anna_vp"] == sum(r[k] for k in parts) == f("final_total")
    assert r["anna_vp_start"] == p.anna_start_vp and r["anna_vp_majority"] == majorities
    assert r["margin"] == r["final_vp"] - r["anna_vp"] and r["final_vp"] == int(field(g, s, "final_total")[HUMAN])
    first = human_ranks_first(g, s)
    assert field(g, s, "rank")[:2].tolist() == ([1, 2] if first else [2, 1]) and r["won"] == first
    # CD-ANNA-16: what Anna took is out of the game
    taken = set(sh.anna_tiles)
    assert len(taken) == len(sh.anna_tiles)
    assert not taken & {int(t) for t in field(g, s, "cell_tile")[HUMAN] if t >= 0}
    assert not taken & sh.human_tiles
    assert int(field(g, s, "taken")[ANNA]) == 28 and (field(g, s, "turns")[ANNA] == K.ROUNDS).all()
    assert (field(g, s, "depot") < 0).all()


def play_solo(seed, human_kind, params):
    g = game(1, **params)
    strategy = make_strategy(human_kind, g)
    seeds = game_seeds(seed)
    s = g.new_state(seeds)
    streams = strategy_streams(seeds, 1)
    log = g.new_log()
    sh = Shadow(g, s)
    read = 0
    tracks = np.zeros(K.N_TYPES, dtype=np.int64)
    while not g.is_over(s):
        tab = g.decision(s)
        assert tab.seat == HUMAN and len(tab) >= 1  # Anna never decides; D12/D13 are the human's
        row = strategy.choose(tab, streams[0:1])
        g.apply(s, tab.actions[row].copy(), log)
        before = len(sh.anna_tiles)
        read = sh.read(log, read)
        assert read < log.shape[0] - 1, "event log full"
        sh.check(g, s)
        if not g.is_over(s):  # D13 is asked exactly when her pending turn left a tie to the human
            waiting = sh.move is not None
            assert (g.decision(s).kind_name == "anna_tie") == waiting
            if waiting:
                assert len(g.decision(s)) == sh.choice[2] and g.params.anna_tiebreak == "human"
        tracks = check_step(g, s, sh, tracks, anna_moved=len(sh.anna_tiles) > before)
    check_final(g, s, sh)


@settings(max_examples=N_EXAMPLES)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    human_kind=st.sampled_from(["random", "random", "greedy"]),
    variant=st.sampled_from(range(len(RULEBOOK_VARIANTS))),
)
def test_random_solo_play_keeps_annas_invariants(seed, human_kind, variant):
    """Anna moves by her row's arrow to the next depot with tiles and takes a tile that lies there
    (her specialisation, else the row's first symbol found; then CD-ANNA-15); her cubes only move
    on and match the tiles she took; after her turn her items are below the threshold; her banner,
    VP and pile follow from her tiles; 123 tiles stay accounted for; her final score is the sum
    of its categories, in the state and in the records; her tiles never come back."""
    play_solo(seed, human_kind, RULEBOOK_VARIANTS[variant])


@settings(max_examples=N_EXAMPLES)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    human_kind=st.sampled_from(["random", "greedy"]),
    variant=st.sampled_from(range(len(AMBIGUITY_VARIANTS))),
)
def test_random_solo_play_under_the_ambiguity_alternatives(seed, human_kind, variant):
    """The same invariants under the alternative readings of AMB-4, -5, -20, -21, -23..27 and -29."""
    play_solo(seed, human_kind, AMBIGUITY_VARIANTS[variant])
