"""Capitol through the lab: a seat-order study and its report with the game's own answers and
sections (consul schedule, auction items, catch-up measures), a robustness study over its variants,
the variants themselves, and the tuner and replay reading the game's score column."""

import json
import re
import tomllib
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from bgsim.experiments.capitol.variants import BOARD_TRANSFORMS
from bgsim.experiments.variants import VariantError, declared_variants, variant_spec
from bgsim.reports.capitol import _how_often, consul_schedule, item_values, study_measures
from bgsim.sim import make_game
from bgsim.sim.games.capitol.profile import VARIANTS
from bgsim.sim.results.store import load

from bgsim.cli import main

SEAT_ORDER = """
name = "cap_seat_order"
[game]
id = "capitol"
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

ROBUSTNESS = """
name = "cap_robustness"
base = "seat_order.toml"
variants = ["no_catch_up", "board_tight"]
[override]
run = { games = 24, chunk_size = 24 }
compensation = { confirm_games = 0, bootstrap = 10 }
"""


def _cli(*args: str) -> None:
    try:
        main(list(args))
    except SystemExit as exc:
        assert exc.code in (0, None), f"bgsim {' '.join(args)} exited with {exc.code}"


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("capitol_lab")
    (directory / "seat_order.toml").write_text(SEAT_ORDER)
    (directory / "robustness.toml").write_text(ROBUSTNESS)
    return directory


@pytest.fixture(scope="module")
def study(work) -> Path:
    """The seat-order study of ``SEAT_ORDER``, run once through the CLI with its report."""
    _cli("seat-order", str(work / "seat_order.toml"), "--out", str(work / "studies"), "--quiet")
    (directory,) = (work / "studies").iterdir()
    return directory


def test_consul_schedule_gives_seat_1_two_rounds_at_3_players():
    assert consul_schedule(3) == [1, 2, 3, 1]  # CAP-DRAW-10: the consul moves left after each draw phase
    assert consul_schedule(4) == [1, 2, 3, 4] and consul_schedule(2) == [1, 2, 1, 2]


def test_seat_order_report_has_the_consul_the_items_and_the_balancing_vector(study):
    text = (study / "report" / "index.md").read_text()
    assert "The consul (the start player) in rounds 1-4: 3 players: seats 1, 2, 3, 1" in text
    assert "Start points that balance the seats within ±2 pp (seat 1 holds 0), *greedy*: 3 players" in text
    assert "Is the 3-player" not in text  # the rules give no head start to justify
    assert "Capitol: consul and auction items" in text and "per fulfilment" not in text
    items = (study / "report" / "tables" / "item_values.csv").read_text().splitlines()
    assert items[0].startswith("n_players,item,won_per_game") and len(items) == 4  # fountain, amphitheatre, temple


def test_seat_order_report_speaks_of_auction_items_in_points(study):
    """No word of another game's components: no triggers, penalties, card files or VP; a negative
    difference reads "less often", and a payoff clause that would only say +0.0 is left out."""
    report = study / "report"
    text = "\n".join((report / name).read_text() for name in ("index.md", "index.html"))
    text += "\n".join(p.name for p in report.rglob("*")) + (report / "tables" / "seats.csv").read_text()
    for word in ("trigger", "penalty rate", "card_flags", "cards.csv", " VP", "VP-", "mean_vp", "+0.0 points",
                 "points-equivalents"):
        assert word not in text, word
    assert not re.search(r"more often [^\n\[]*-\d", text)  # no "more often by -24.3 pp"
    assert "the seats that bought it won more (less) often" in text and "payoff per purchase" in text
    assert (report / "tables" / "items_flags.csv").exists() and (report / "tables" / "items.csv").exists()
    line = next(s for s in text.splitlines() if s.startswith("- Seats that won a fountain won the game"))
    assert re.search(r": \d+\.\d pp (more|less) often \[[-+]\d+\.\d, [-+]\d+\.\d\] at 3 players", line), line


def test_a_win_rate_difference_reads_more_or_less_often():
    assert _how_often(-0.243, -0.40, -0.086) == "24.3 pp less often [-40.0, -8.6]"
    assert _how_often(0.05, -0.01, 0.11) == "5.0 pp more often [-1.0, +11.0]"
    assert _how_often(-0.0004, -0.1, 0.1) == "as often [-10.0, +10.0]"


def test_item_values_and_measures_follow_the_records(study):
    (run_dir,) = (study / "cells").iterdir()
    rows = load(run_dir).collect().with_columns(start=pl.lit("rulebook"))
    values = item_values(rows)
    fountain = values[values["item"] == "fountain"].iloc[0]
    events = [e for seat_items in rows["items"].to_list() for e in seat_items if e["kind"] == 1]
    assert fountain["price"] == pytest.approx(np.mean([e["price"] for e in events]))
    assert fountain["won_per_game"] == pytest.approx(len(events) / (rows.height / 3))
    measures = study_measures(rows, None)
    ties = measures[measures["measure"] == "auctions decided by the catch-up rule"].iloc[0]
    assert ties["trials"] == 12 * rows.height // 3
    assert ties["value"] == pytest.approx(rows["tie_bid_wins"].sum() / ties["trials"])
    # the study loader hands over a LazyFrame: the same tables, aggregated from the query
    assert item_values(rows.lazy()).equals(values) and study_measures(rows.lazy(), None).equals(measures)


def test_robustness_study_compares_the_catch_up_measures(work):
    _cli("robustness", str(work / "robustness.toml"), "--out", str(work / "robustness"), "--quiet")
    (study,) = (work / "robustness").iterdir()
    text = (study / "report" / "index.md").read_text()
    assert "Capitol measures per variant" in text and "auction item conclusions" in text and " cards" not in text
    table = (study / "report" / "tables" / "game_measures_by_variant.csv").read_text()
    assert "no_catch_up" in table and "board_tight" in table
    line = next(s for s in text.splitlines() if s.startswith("- auctions decided by the catch-up rule"))
    assert "no_catch_up: 0.0 %" in line  # with the rule off no auction is won on a tie


def test_every_variant_keeps_the_exact_board_facts(tmp_path):
    assert {v.data["board"] for v in VARIANTS if v.data} == set(BOARD_TRANSFORMS)  # every transform is played
    assert {v.name: v.params for v in VARIANTS if v.params} == {
        "no_catch_up": {"tied_bid": "remove"}, "temple_next_round": {"temple_from": "next_round"},
        "second_next_group": {"height_tie_losers": "none"}, "build_lowest_card": {"build_card": "lowest"}}
    for variant in VARIANTS:
        doc = variant_spec({"name": "s", "game": {"id": "capitol"}}, variant, tmp_path)
        params = doc["game"]["params"] | ({"board_file": doc["game"]["data"]["board"]} if doc["game"]["data"] else {})
        game = make_game("capitol", n_players=3, **params)
        prefs = game.board.prefectures
        assert len(prefs) == 9 and sorted(sum(p.colour == c for p in prefs) for c in range(3)) == [3, 3, 3]
        assert sum(p.fountains for p in prefs) == 4 and prefs[0].name == "capitoline" and prefs[0].fountains == 2
        if variant.data:
            board = tomllib.loads(Path(doc["game"]["data"]["board"]).read_text())
            assert board["status"] == "reconstructed" and variant.name in board["source"]
    tight = variant_spec({"game": {"id": "capitol"}}, declared_variants(VARIANTS, ["board_tight"])[0], tmp_path)
    assert sum(p["small"] for p in tomllib.loads(Path(tight["game"]["data"]["board"]).read_text())["prefecture"]) == 45
    with pytest.raises(VariantError, match="unknown variant 'nope'"):
        declared_variants(VARIANTS, ["nope"])


def test_tune_and_replay_read_the_score_column(work, study, capsys):
    out = work / "tuned.toml"
    _cli("tune", "greedy", "--game", "capitol", "--players", "2", "--games", "8", "--rounds", "1",
         "--features", "pass", "--out", str(out))
    assert "[weights]" in out.read_text()
    (run_dir,) = (study / "cells").iterdir()
    capsys.readouterr()
    _cli("replay", str(run_dir), "3", "--summary")
    assert "replays to the stored result (final points" in capsys.readouterr().out
    assert json.loads((run_dir / "meta.json").read_text())["profile"]["score_column"] == "final_points"
