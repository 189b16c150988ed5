"""The ablation of a component-value study (experiments/ablation.py) on Carpe Diem's scoring cards:
each deal is played with every card it holds and again with that card replaced by an undealt card
of its deck; the rows are a function of the spec alone (workers, chunk size, a kill and a resume
change nothing), a replacement by the card itself changes exactly nothing, and the report shows it."""

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from bgsim.experiments import ablation
from bgsim.experiments import component_value as cv
from bgsim.sim.games.carpe_diem.state import SLOT_CARD
from bgsim.sim.seeding import block_key, deal_seeds
from bgsim.sim.stats.ablation import ablation_effects
from pandas.testing import assert_frame_equal

from bgsim.report import build_report
from tests.runner.conftest import cli

SPEC = """
name = "{name}"
[game]
id = "{game}"
players = [2]
[population]
strategies = ["greedy"]
[sample]
games = 2
rollouts = 2
chunk_size = 2
seed = 3
[solver]
q = 0.0
[ablation]
deals = {deals}
chunk_size = {chunk}
fresh_deals = {fresh}
"""
CARDS_AT_2 = 8  # 2 per deck (CD-SETUP-6)


def write(tmp_path: Path, name: str = "ablate", deals: int = 12, chunk: int = 4, game: str = "carpe_diem",
          fresh: int = 0) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(SPEC.format(name=name, deals=deals, chunk=chunk, game=game, fresh=fresh))
    return path


def rows(directory: Path) -> pd.DataFrame:
    paths = sorted((directory / "ablation" / "n2").glob("chunk-*.parquet"))
    frame = pd.concat([pq.read_table(p).to_pandas() for p in paths], ignore_index=True)
    return frame.sort_values(["deal", "component"]).reset_index(drop=True)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> tuple[cv.ComponentValueSpec, Path]:
    tmp = tmp_path_factory.mktemp("ablation")
    spec = cv.load_component_value(write(tmp))
    return spec, cv.run_component_value(spec, out=tmp / "runs").directory


def test_every_card_of_a_deal_is_replaced_by_an_undealt_card_of_its_deck(reference):
    spec, directory = reference
    table = rows(directory)
    game = cv._setup(spec, 2).game
    assert table.groupby("deal").size().tolist() == [CARDS_AT_2] * spec.ablation_deals
    chance, _ = deal_seeds(block_key(spec.seed, 2), np.arange(spec.ablation_deals))
    dealt = game.deal_states(chance)
    decks = {int(c): card.deck for c, card in enumerate(game.components.scoring_cards)}
    for r in table.itertuples():
        on_slots = set(dealt[r.deal, SLOT_CARD: SLOT_CARD + 12].tolist())
        assert r.component in on_slots and r.replacement not in on_slots
        assert decks[r.component] == decks[r.replacement]
    for arm in ("with", "without"):  # a game's win shares add up to 1
        assert np.allclose(table[[f"win_{arm}_0", f"win_{arm}_1"]].sum(axis=1), 1.0)
    assert (table["leads_with"] >= 0).all() and (table["spread_with"] >= 0).all()
    assert 0 < table["winner_changed"].mean() < 1
    effects = pd.read_csv(directory / "ablation.csv")
    assert len(effects) == table["component"].nunique() and set(effects["deals"]) <= set(range(1, 13))
    assert np.allclose(effects["seat0"], -effects["seat1"])  # what one seat gains the other loses


@pytest.mark.own_workers
def test_ablation_rows_are_identical_for_any_workers_and_chunk_size(reference, tmp_path):
    spec, directory = reference
    other = cv.load_component_value(write(tmp_path, chunk=5))
    assert other.study_id == spec.study_id
    again = cv.run_component_value(other, out=tmp_path / "runs", jobs=2).directory
    assert_frame_equal(rows(again), rows(directory))
    assert_frame_equal(pd.read_csv(again / "ablation.csv"), pd.read_csv(directory / "ablation.csv"))


def test_a_killed_ablation_resumes_exactly_and_new_deals_keep_the_points(reference, tmp_path):
    spec, directory = reference
    copy = tmp_path / directory.name
    shutil.copytree(directory, copy)
    meta = json.loads((copy / cv.STUDY.marker).read_text())
    (copy / "ablation" / "n2" / "chunk-000004.parquet").unlink()  # killed before this chunk was written
    del meta["ablation_chunks"]["n2-4"], meta["ablation_chunks"]["n2-8"]  # and before meta.json knew the next
    meta["status"] = "sampling"
    (copy / cv.STUDY.marker).write_text(json.dumps(meta))
    (copy / "ablation.csv").unlink()
    result = cv.run_component_value(spec, out=tmp_path, resume=True)
    assert result.games_played == spec.ablation_chunk  # only the missing chunk
    assert_frame_equal(rows(copy), rows(directory))
    assert_frame_equal(pd.read_csv(copy / "ablation.csv"), pd.read_csv(directory / "ablation.csv"))
    points = (copy / "points" / "n2" / "chunk-000000.parquet").stat().st_mtime_ns
    more = cv.load_component_value(write(tmp_path, deals=16))
    assert more.study_id == spec.study_id
    assert cv.run_component_value(more, out=tmp_path, resume=True).games_played == 16  # the ablation again
    assert (copy / "points" / "n2" / "chunk-000000.parquet").stat().st_mtime_ns == points
    assert rows(copy)["deal"].nunique() == 16


def test_a_replacement_by_the_card_itself_changes_exactly_nothing(reference, monkeypatch):
    """The paired design: both games of a pair have the same chance and seat streams, so an ablation
    that changes nothing gives the same game twice, and every effect is exactly 0."""
    spec, _ = reference
    setup = cv._setup(spec, 2)
    monkeypatch.setattr(setup.game, "ablate", lambda states, c, picks: (states.copy(), np.full(len(states), c)))
    table = ablation.sample_ablation_chunk(setup, spec.seed, 0, 12).to_pandas()
    effects = ablation_effects(table, 2)
    effects = effects[effects["deals"] >= 2]  # an interval and a test need two deals
    assert len(effects) > 5
    for column in ("seat0", "seat1", "seat_effect", "spread", "leads", "changed", "seat0_low", "seat0_high"):
        assert (effects[column] == 0).all(), column
    assert (effects["seat_q"] == 1).all()


def test_the_report_says_what_replacing_a_card_changes(reference, tmp_path):
    spec, directory = reference
    copy = tmp_path / directory.name
    shutil.copytree(directory, copy)
    report, _ = build_report(copy)
    text = report.markdown()
    assert "**2 players, without each scoring card:** replacing it changes who wins in" in text
    assert "## 2 players: with and without each scoring card" in text
    assert "**Ablation.** 12 deals per player count" in text and "another card of its deck" in text


def test_fresh_deals_check_every_effect_found_and_the_report_counts_what_held(reference, tmp_path):
    spec, directory = reference
    copy = tmp_path / directory.name
    shutil.copytree(directory, copy)
    checked = cv.load_component_value(write(tmp_path, fresh=8))
    assert checked.study_id == spec.study_id
    assert cv.run_component_value(checked, out=tmp_path, resume=True).games_played == 8  # the main deals kept
    effects = pd.read_csv(copy / "ablation.csv")
    assert {"seat_confirmed", "seat_outcome", "spread_fresh", "leads_fresh_low", "seat_fresh_q"} <= set(effects.columns)
    assert effects.loc[effects["seat_q"] >= 0.05, "seat_confirmed"].isna().all()  # only effects found are checked
    assert len(list((copy / "ablation_fresh" / "n2").glob("chunk-*.parquet"))) == 2
    text = build_report(copy)[0].markdown()
    assert "On fresh deals (another seed)" in text and "measured again on 8 fresh deals per player count" in text


@pytest.mark.parametrize(("change", "message"), [
    ("deals = 12\nchunk_size = 4\nfresh_deals = 0", "deals = 0\nchunk_size = 4\nfresh_deals = 5"),
    ("deals = 12", "deals = -1"),
    ("chunk_size = 4", "chunk_size = 0"),
    ('id = "carpe_diem"', 'id = "arkadia"'),  # its building shapes have no declared ablation
])
def test_a_bad_ablation_spec_ends_in_one_line_with_status_2(tmp_path, capsys, change, message):
    path = write(tmp_path)
    path.write_text(path.read_text().replace(change, message))
    code, out, err = cli(capsys, "component-value", path, "--out", tmp_path / "runs", "--quiet")
    assert code == 2 and out == "" and err.startswith("bgsim: error: ") and err.count("\n") == 1, err
    assert "ablation" in err and not (tmp_path / "runs").exists()
