"""Arkadia through the lab: a small seat-order study and its report with the game's own answers and
sections (the final round, banner timing, the game measures), the extras' tables against the
records, and every robustness variant a legal game that keeps the exact facts."""

import re
import tomllib
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from bgsim.experiments.arkadia.variants import COMPONENT_RECIPES
from bgsim.experiments.variants import variant_spec
from bgsim.reports.arkadia import banner_timing, final_round, study_measures
from bgsim.sim import game_seeds, make_game
from bgsim.sim.games.arkadia.profile import VARIANTS
from bgsim.sim.play import play_game
from bgsim.sim.results.store import load
from bgsim.strategies import make_strategy

from bgsim.cli import main

SEAT_ORDER = """
name = "ark_seat_order"
[game]
id = "arkadia"
players = [3]
[populations]
greedy = ["greedy"]
[start]
vectors = ["rulebook"]
[run]
games = 48
chunk_size = 24
seed = 1
[compensation]
confirm_games = 24
bootstrap = 20
low = -20
high = 20
"""


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("arkadia_lab")
    (work / "seat_order.toml").write_text(SEAT_ORDER)
    try:
        main(["seat-order", str(work / "seat_order.toml"), "--out", str(work / "studies"), "--quiet"])
    except SystemExit as exc:
        assert exc.code in (0, None)
    (directory,) = (work / "studies").iterdir()
    return directory


def test_the_seat_order_report_has_the_final_round_banner_timing_and_the_buildings(study):
    text = (study / "report" / "index.md").read_text()
    assert "## Arkadia: the final round and banner timing" in text
    assert "**The final round, *greedy*.**" in text and "## Building shapes and seal families" in text
    assert "start gold" in text and " VP" not in text


def test_the_final_round_table_printed_raw_fractions_under_trigger_low(study):
    text = (study / "report" / "index.md").read_text()
    section = text.split("## Arkadia: the final round and banner timing", 1)[1].split("\n## ", 1)[0]
    assert "trigger_low" not in section and "gold_low" not in section
    assert "| trigger seat wins [95 % CI] | each other seat wins [95 % CI] |" in section
    lines = section.splitlines()
    row = lines[lines.index(next(li for li in lines if "trigger seat wins" in li)) + 2]  # the first row
    assert re.search(r"\| \d+\.\d % \[\d+\.\d, \d+\.\d\] \|", row), row  # a rate in percent with its interval
    assert "gold per cashing [95 % CI]" in section


def test_ark_end_2_the_final_round_and_banner_tables_follow_the_records(study):
    (run_dir,) = (study / "cells").iterdir()
    rows = load(run_dir).collect().with_columns(start=pl.lit("rulebook"))
    table = final_round(rows).iloc[0]
    ended = rows.filter(~pl.col("ended_by_stall"))
    trigger = ended.filter(pl.col("triggered_end"))
    assert table["games"] == trigger.height == ended.height // 3  # one trigger per game
    assert table["trigger"] == pytest.approx(trigger["win_share"].mean())
    cashings = [c for seat in rows["cashings"].to_list() for c in seat]
    timing = banner_timing(rows)
    assert timing["banners"].sum() == len(cashings) == rows["banners_used"].sum()
    assert timing["with_seals"].sum() == sum(c["seals"] > 0 for c in cashings)
    measures = study_measures(rows, None)
    turns = measures[measures["measure"] == "turns per game"].iloc[0]
    assert turns["value"] == pytest.approx(rows.filter(pl.col("seat") == 0)["turns"].mean())
    assert final_round(rows.lazy()).equals(final_round(rows))  # lazily aggregated, the same table


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_every_variant_is_a_legal_game_that_keeps_the_exact_facts(tmp_path, variant):
    assert {v.data["components"] for v in VARIANTS if v.data} == set(COMPONENT_RECIPES)
    doc = variant_spec({"name": "s", "game": {"id": "arkadia"}}, variant, tmp_path)
    data = doc["game"]["data"]
    params = doc["game"]["params"] | ({"components_file": data["components"]} if data else {})
    game = make_game("arkadia", n_players=4, intro_setup=True, **params)
    comps = game.components
    assert comps.cards == 40 and len(comps.shapes) == 7
    assert [sum(s.cards[f] for s in comps.shapes) for f in range(4)] == [10, 10, 10, 10]
    assert sorted(comps.castle_fields()).count("blank") == 2
    if data:
        written = tomllib.loads(Path(data["components"]).read_text())
        assert written["status"] == "reconstructed" and variant.name in written["source"]
    seats = [make_strategy("greedy", game)] * 4
    state = play_game(game, seats, game_seeds(5)).state
    assert game.is_over(state) and np.isin(game.field(state, "rank")[:4], [1, 2, 3, 4]).all()
