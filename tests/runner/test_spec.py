"""Experiment specs: the committed examples load, seatings and chunk plans are as documented."""

import tomllib
from pathlib import Path

import pytest
from bgsim.experiments.runner import build_block
from bgsim.experiments.spec_check import check_spec
from bgsim.experiments.spec_check import load_spec as check_spec_file
from bgsim.sim.results.spec import RunSpec, SpecError, load_spec

STUDY_KEYS = {"tournament", "populations", "base", "ladder", "population", "teacher"}  # tables of other specs
CONFIGS = sorted(path for path in (Path(__file__).resolve().parents[2] / "experiments" / "configs").glob("*.toml")
                 if not STUDY_KEYS & set(tomllib.loads(path.read_text())))
# tournaments: test_tournament.py; seat-order, robustness and difficulty studies: tests/reports/; component-value
# studies: tests/runner/test_component_value.py


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_committed_specs_load_and_build_every_block(path):
    spec = load_spec(path)
    assert spec.run_id.startswith(spec.name + "-")
    for block in spec.blocks():
        game, strategies, seating_index = build_block(spec, block)
        assert game.n_players == block.n_players
        assert seating_index.shape == (len(block.seatings), block.n_players)


def test_seating_modes():
    fixed = RunSpec(name="f", game="carpe_diem", players=(3,), strategies=("greedy",), games=2)
    assert fixed.seatings(3) == (("greedy",) * 3,)
    perms = RunSpec(name="p", game="carpe_diem", players=(3,), strategies=("a", "b", "b"), mode="permutations",
                    games=3)
    assert perms.seatings(3) == (("a", "b", "b"), ("b", "a", "b"), ("b", "b", "a"))  # distinct orders only
    rotate = RunSpec(name="r", game="carpe_diem", players=(2, 4), strategies=("x",), focus="f", mode="rotate",
                     games=4)
    assert rotate.seatings(4) == (("f", "x", "x", "x"), ("x", "f", "x", "x"), ("x", "x", "f", "x"),
                                  ("x", "x", "x", "f"))


def test_chunks_cover_every_game_once_per_player_count():
    spec = RunSpec(name="c", game="carpe_diem", players=(2, 4), strategies=("greedy",), games=10, chunk_size=4)
    chunks = spec.chunks()
    assert [(c.block, c.start, c.stop) for c in chunks] == [(0, 0, 4), (0, 4, 8), (0, 8, 10), (1, 0, 4),
                                                           (1, 4, 8), (1, 8, 10)]
    assert [c.index for c in chunks] == list(range(6))
    assert [b.offset for b in spec.blocks()] == [0, 10]


def test_the_run_id_changes_with_anything_that_changes_the_games():
    base = dict(name="x", game="carpe_diem", players=(2,), strategies=("greedy",), games=4)
    ids = {RunSpec(**base).run_id, RunSpec(**base, seed=1).run_id, RunSpec(**base, params={"vp_floor": 0}).run_id,
           RunSpec(**(base | {"strategies": ("random",)})).run_id}
    assert len(ids) == 4
    assert RunSpec(**base).run_id == RunSpec(**base, description="other words").run_id


@pytest.mark.parametrize("changes, message", [
    ({"games": 0}, "run.games must be at least 1"),
    ({"chunk_size": -1}, "run.chunk_size"),
    ({"seed": -5}, "non-negative"),
    ({"mode": "shuffle"}, "seats.mode must be one of"),
    ({"players": (2, 2)}, "twice"),
    ({"name": "a b"}, "name 'a b'"),
])
def test_invalid_values_are_named(changes, message):
    with pytest.raises(SpecError, match=message):
        RunSpec(**({"name": "x", "game": "carpe_diem", "players": (2,), "strategies": ("greedy",)} | changes))


def test_a_player_count_the_game_is_not_for_is_named_before_the_seatings(tmp_path):
    """players = [2, 7] used to say 'not a multiple of the 7 seatings'; the game's registry knows
    the counts it is for. The spec reader checks only the form; the loader that plays specs asks
    the registry first."""
    path = tmp_path / "seven.toml"
    path.write_text('[game]\nid = "carpe_diem"\nplayers = [2, 7]\n[seats]\nmode = "rotate"\nfocus = "random"\n'
                    'others = ["greedy"]\n[run]\ngames = 12\n')
    with pytest.raises(SpecError) as info:
        check_spec_file(path)
    assert str(info.value) == "seven.toml: game.players: 7 players is not allowed for carpe_diem (allowed: 1-4)"
    with pytest.raises(SpecError, match="not a multiple of the 7 seatings"):
        load_spec(path)  # the form alone
    with pytest.raises(SpecError, match=r"game.id: unknown game 'carpe_dium' .*did you mean 'carpe_diem'\?"):
        check_spec(RunSpec(name="x", game="carpe_dium", players=(2,), strategies=("greedy",)))


def test_the_tier_is_checked_against_the_batch_tiers(tmp_path):
    spec = RunSpec(name="x", game="carpe_diem", players=(2,), strategies=("greedy",), tier="fast")
    with pytest.raises(SpecError, match="run.tier must be one of auto, compiled"):
        check_spec(spec)


def test_the_study_and_tournament_loaders_name_a_player_count_the_game_is_not_for():
    from bgsim.experiments.seat_order import seat_order_from_dict
    from bgsim.experiments.tournament import tournament_from_dict

    seat_order = {"name": "s", "game": {"id": "carpe_diem", "players": [2, 7]}, "populations": {"g": ["greedy"]},
                  "start": {"vectors": ["rulebook"]}, "run": {"games": 5040}}
    with pytest.raises(SpecError, match=r"7 players is not allowed for carpe_diem \(allowed: 1-4\)"):
        seat_order_from_dict(seat_order)
    tournament = {"name": "t", "game": {"id": "carpe_diem", "players": [2, 7]},
                  "tournament": {"strategies": ["random", "greedy"]}, "run": {"games": 5040}}
    with pytest.raises(SpecError, match=r"7 players is not allowed for carpe_diem \(allowed: 1-4\)"):
        tournament_from_dict(tournament)
