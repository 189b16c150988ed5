"""The event log and the turn-by-turn trace: every line fits 80 columns, the events replayed onto
an empty grid give the final position, a completion's payouts are the seals it paid, and the JSON
trace parses."""

import json
import re

import bgsim.strategies.arkadia  # noqa: F401  (registers the game's strategies)
import numpy as np
import pytest
from bgsim.sim import game_seeds, make_game
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.events import (
    EV_ACTION_B,
    EV_BANNER,
    EV_CASH,
    EV_COMPLETE,
    EV_DONE,
    EV_FINAL,
    EV_KEEP_BANNER,
    EV_PAYOUT,
    EV_TURN,
    EV_WORKER,
    events,
)
from bgsim.sim.games.arkadia.render import board_lines, replay
from bgsim.sim.play import play_game
from bgsim.strategies import make_strategy

from bgsim.cli import main

SEATS = ("greedy", "random", "greedy", "random")


@pytest.fixture(scope="module", params=[2, 3, 4])
def played(request):
    """A traced game at 2, 3 and 4 players, the golden playthroughs' seats and seed."""
    g = make_game("arkadia", n_players=request.param)
    seats = [make_strategy(kind, g) for kind in SEATS[: g.n_players]]
    return play_game(g, seats, game_seeds(7), log=True), [s.id for s in seats]


def test_every_trace_line_fits_80_columns(played):
    p, ids = played
    for summary in (False, True):
        text = p.game.trace_text(p.state, p.log, p.seeds, ids, summary=summary)
        long = [line for line in text.splitlines() if len(line) > 80]
        assert not long, long[:3]
        assert ("== Turn 1: seat 1 (y) ==" in text) != summary and "== Final scoring ==" in text


def test_the_events_replayed_on_an_empty_grid_give_the_final_position(played):
    """The grid, the castle and every screen, replayed from the setup's and the game's events."""
    p, _ = played
    g, s = p.game, p.state
    rep = replay(g, s, p.log, p.seeds)
    assert board_lines(g, rep.grid) == board_lines(g, s)
    n = g.n_players
    assert rep.heights.tolist() == g.field(s, "field_height").tolist()
    assert [t if h else -1 for t, h in zip(rep.tops, rep.heights, strict=True)] == g.field(s, "field_top").tolist()
    assert rep.own.tolist() == g.field(s, "own_screen")[:n].tolist()
    assert rep.neutral.tolist() == g.field(s, "neutral_screen")[:n].tolist()
    assert rep.banners.tolist() == g.field(s, "banners")[:n].tolist()
    assert rep.gold.tolist() == g.field(s, "gold")[:n].tolist()
    assert not rep.seals.any()  # ARK-END-4: the final cashing leaves no seal


def test_the_log_holds_every_turn_and_the_final_cashing_per_seat(played):
    p, _ = played
    evs = events(p.log)
    finals = [ev for ev in evs if ev[0] == EV_FINAL]
    assert [int(ev[1]) for ev in finals] == list(range(p.game.n_players))
    turns = [ev for ev in evs if ev[0] == EV_TURN]
    assert [int(ev[2]) for ev in turns] == list(range(1, len(turns) + 1))  # turn 0 is logged at the deal
    assert len(evs) < p.game.event_capacity


@pytest.mark.parametrize("n", [2, 3, 4])
def test_ark_complete_4_5_every_completions_payouts_sum_to_the_seals_gained(n):
    """Decision by decision at random: the seals each seat gains (its cashings added back) are the
    payouts the completions of that decision logged, and every payout follows its completion."""
    g = make_game("arkadia", n_players=n)
    rng = np.random.default_rng(n)
    s = g.new_state(game_seeds(11 + n))
    log = g.new_log()
    completions = 0
    while not g.is_over(s):
        table = g.decision(s)
        before, start = g.field(s, "seals")[:n].astype(np.int64), int(log[0, 0])
        g.apply(s, table.actions[int(rng.integers(len(table)))], log)
        new = events(log)[start:]
        gained = g.field(s, "seals")[:n].astype(np.int64) - before
        for ev in new:
            seat = int(ev[1])
            if ev[0] == EV_CASH:
                gained[seat, int(ev[2])] += int(ev[3])
            elif ev[0] == EV_FINAL:
                gained[seat] += ev[2:6]
        paid = np.zeros_like(gained)
        last = None
        for ev in new:
            if ev[0] == EV_COMPLETE:
                last, completions = int(ev[2]), completions + 1
            elif ev[0] == EV_PAYOUT:
                assert int(ev[2]) == last, "a payout without its completion"
                paid[int(ev[1]), int(ev[3])] += int(ev[4])
        assert (paid == gained).all(), (new, gained)
    assert completions > 0
    assert int(g.field(s, "b_state")[: int(g.field(s, "n_buildings")[0])].tolist().count(st.COMPLETED)) == completions


def test_the_json_trace_parses_and_numbers_seats_from_0(capsys):
    with pytest.raises(SystemExit) as info:
        main(["play", "arkadia", "--players", "3", "--seed", "7", "--json"])
    out = capsys.readouterr().out
    assert info.value.code == 0 and max(len(line) for line in out.splitlines()) <= 80
    doc = json.loads(out)
    assert doc["game"] == "arkadia(n_players=3)"
    assert {e["seat"] for e in doc["events"]} - {-1} == {0, 1, 2}
    assert doc["turns"] and all(len(line) <= 80 for line in doc["turns"][-1]["position"]["board"])
    assert {"build", "take", "complete", "payout", "stone", "final", "end"} <= {e["event"] for e in doc["events"]}
    assert len(doc["end"]["events"]) == 3 + 1  # EV_FINAL per seat, then EV_END


@pytest.mark.parametrize("params", [{"intro_setup": True}, {"castle_placement": "chosen"}], ids=["intro", "chosen"])
def test_ark_setup_9_amb_10_the_layout_and_a_chosen_site_are_replayed_too(params):
    """The first game's buildings come from the setup's events, a chosen site from the game's."""
    g = make_game("arkadia", n_players=3, **params)
    seats = [make_strategy("random", g) for _ in range(3)]
    p = play_game(g, seats, game_seeds(5), log=True)
    assert board_lines(g, replay(g, p.state, p.log, p.seeds).grid) == board_lines(g, p.state)
    text = g.trace_text(p.state, p.log, p.seeds, [s.id for s in seats])
    assert ("layout: building 0" in text) == ("intro_setup" in params)
    assert ("(chosen by seat 1)" in text) == ("castle_placement" in params)
    assert max(len(line) for line in text.splitlines()) <= 80


# --- decisions that change nothing on the board are logged and told too


@pytest.fixture(scope="module")
def declining():
    """A 3-player game played a decision at a time at random, except that each seat keeps its first
    banner offered, cashes 0 seals of every family it is asked about, and ends action B with DONE
    (the one way it ends): (game, state, log, [(kind, seat, new events) per decision])."""
    g = make_game("arkadia", n_players=3)
    rng = np.random.default_rng(4)
    s = g.new_state(game_seeds(4))
    log = g.new_log()
    kept, steps = set(), []
    while not g.is_over(s):
        table = g.decision(s)
        rows = table.actions
        if table.kind == d.BANNER and table.seat not in kept:
            row, _ = next((r, kept.add(table.seat)) for r in rows if r[d.A_COUNT] == 0)
        elif table.kind == d.CASH:
            row = next(r for r in rows if r[d.A_COUNT] == 0)
        else:
            row = rows[int(rng.integers(len(table)))]
        start = int(log[0, 0])
        g.apply(s, row.copy(), log)
        steps.append((int(row[d.A_KIND]), table.seat, events(log)[start:].copy()))
    return g, s, log, steps


def _text(g, s, log):
    return g.trace_text(s, log, game_seeds(4), ["random"] * 3)


def test_ark_banner_1_a_banner_kept_is_logged_and_told(declining):
    """ARK-BANNER-1: the seat MAY use a banner; keeping it is its decision, with the banners it holds."""
    g, s, log, steps = declining
    banners = [(seat, evs) for kind, seat, evs in steps if kind == d.DO_BANNER]
    kept = [(seat, evs[0]) for seat, evs in banners if evs[0][0] == EV_KEEP_BANNER]
    assert {seat for seat, _ in kept} == {0, 1, 2} and any(evs[0][0] == EV_BANNER for _, evs in banners)
    assert all(int(ev[1]) == seat and 0 < int(ev[2]) <= 4 for seat, ev in kept)
    assert [int(x) for x in kept[0][1][:3]] == [EV_KEEP_BANNER, 0, 4]  # every seat keeps its first banner offered
    assert "seat 1 raises no banner (4 left)" in _text(g, s, log)


def test_ark_banner_3_a_cashing_of_0_seals_is_logged_and_told(declining):
    """ARK-BANNER-3: the seat cashes any number of its seals, 0 included: 0 is a decision too."""
    g, s, log, steps = declining
    cashings = [(seat, evs) for kind, seat, evs in steps if kind == d.DO_CASH]
    assert cashings
    for seat, evs in cashings:
        assert int(evs[0][0]) == EV_CASH and int(evs[0][1]) == seat and int(evs[0][3]) == int(evs[0][4]) == 0
    text = _text(g, s, log)
    assert re.search(r"seat \d cashes no (cloth|spice|carpenter|silversmith) seal: keeps [1-9]\d* at \d+", text)


def test_ark_worker_2_done_after_placing_workers_is_logged_and_told(declining):
    """ARK-WORKER-2: the seat places workers until it says DONE; the log has it after the workers,
    with the building and how many it placed, and the trace ends the action B line with it."""
    g, s, log, steps = declining
    dones = [(seat, evs) for kind, seat, evs in steps if kind == d.DO_DONE]
    assert dones
    evs = events(log)
    for i in np.flatnonzero(evs[:, 0] == EV_DONE):
        start = max(j for j in range(i) if evs[j, 0] == EV_ACTION_B)
        placed = evs[start + 1:i]
        assert (placed[:, 0] == EV_WORKER).all() and evs[i, 1] == evs[start, 1]
        assert [int(evs[i, 2]), int(evs[i, 3])] == [int(evs[start, 2]), len(placed)]
    lines = [line for line in _text(g, s, log).replace("\n    ", " ").splitlines() if "places workers by" in line]
    assert len(lines) == len(dones) and all(line.endswith("; done") for line in lines)
