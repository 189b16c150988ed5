"""The event log and the turn-by-turn trace: every line fits 80 columns, the events replayed onto
an empty grid give the final position, a completion's payouts are the seals it paid, and the JSON
trace parses."""

import json

import bgsim.strategies.arkadia  # noqa: F401  (registers the game's strategies)
import numpy as np
import pytest
from bgsim.sim import game_seeds, make_game
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.events import EV_CASH, EV_COMPLETE, EV_FINAL, EV_PAYOUT, EV_TURN, events
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
