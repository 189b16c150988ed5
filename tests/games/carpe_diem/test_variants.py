"""Robustness variants: every variant loads and plays, a tile shift moves exactly the documented
counts and keeps the engine's constraints, generation is deterministic and leaves the base file
alone, and a variant spec is a valid, distinct run."""

import hashlib
import tomllib
from fractions import Fraction

import pytest
from bgsim.experiments.carpe_diem.variants import (
    BASE_TILES,
    FAMILIES,
    part_counts,
    read_tiles,
    tile_shift,
    variant_rows,
)
from bgsim.experiments.runner import run
from bgsim.experiments.variants import VariantError, declared_variants, variant_spec, write_variant_data
from bgsim.sim import game_seeds, make_game
from bgsim.sim.play import play_game
from bgsim.sim.results.spec import spec_from_dict
from bgsim.strategies import make_strategy

VARIANTS = make_game("carpe_diem").profile.variants
TILE_VARIANTS = [v for v in VARIANTS if tile_shift(v) is not None]
BASE_SPEC = {
    "name": "base",
    "game": {"id": "carpe_diem", "players": [2]},
    "seats": {"mode": "fixed", "strategies": ["greedy"]},
    "run": {"games": 2, "chunk_size": 2, "seed": 5},
}


def named(*names):
    return declared_variants(VARIANTS, names)


def _game_kwargs(variant, directory) -> dict:
    files = write_variant_data(variant, BASE_SPEC["game"], directory)
    return dict(variant.params) | {f"{name}_file": path for name, path in files.items()}


def test_the_required_variants_are_there():
    names = {v.name for v in VARIANTS}
    required = {"villa_table_alternative", "frame_line_straddle"} | {
        f"tiles_{family}_{sign}25" for family in ("villas", "landscapes", "lodgings") for sign in ("plus", "minus")}
    assert required <= names
    assert [v.name for v in named("frame_line_straddle")] == ["frame_line_straddle"]
    with pytest.raises(VariantError, match="unknown variant"):
        named("tiles_meadows_plus25")


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_every_variant_loads_and_plays_to_the_end(variant, tmp_path):
    kwargs = _game_kwargs(variant, tmp_path)
    for n_players in (2, 3, 4):
        game = make_game("carpe_diem", n_players=n_players, **kwargs)
        for seed, mix in ((1, "greedy"), (2, "random")):
            played = play_game(game, [make_strategy(mix, game) for _ in range(n_players)], game_seeds(seed))
            assert game.is_over(played.state)
            assert len(played.result.final_score) == n_players


@pytest.mark.parametrize("variant", TILE_VARIANTS, ids=lambda v: v.name)
def test_a_shift_moves_its_family_by_25_percent_and_keeps_the_manifest_valid(variant, tmp_path):
    path = write_variant_data(variant, BASE_SPEC["game"], tmp_path)["tiles"]
    shift = tile_shift(variant)
    _, base = read_tiles(BASE_TILES)
    _, tiles = read_tiles(path)
    before, after = part_counts(base), part_counts(tiles)
    shifted = FAMILIES[shift.family]
    for t in shifted:  # each type by round(25 % of its count), halves to even
        assert after[t] - before[t] == round(Fraction(shift.percent, 100) * before[t])
    change = sum(after[t] - before[t] for t in shifted) / sum(before[t] for t in shifted)
    assert abs(abs(change) - 0.25) <= 0.04 and (change > 0) == (shift.percent > 0)
    for family, types in FAMILIES.items():  # every family keeps its types equal
        assert len({after[t] for t in types}) == 1, family
        if family != shift.family:  # the others pay (or receive) it, in the opposite direction
            assert all((after[t] - before[t]) * shift.percent <= 0 for t in types)
    assert sum(t["back"] == "light" for t in tiles) == 84 and sum(t["back"] == "dark" for t in tiles) == 39
    assert [t["id"] for t in tiles] == [t["id"] for t in base]
    for tile in tiles:
        parts = tile["parts"]
        assert 1 <= len(parts) <= (1 if tile["back"] == "dark" else 2)
        assert len({p["type"] for p in parts}) == len(parts)
        edges = "".join(p["open"] for p in parts)
        assert len(set(edges)) == len(edges) <= 4
        assert all(("chimneys" in p) == (p["type"] == "villa") for p in parts)


def test_generated_files_say_what_they_are(tmp_path):
    (variant,) = named("tiles_villas_plus25")
    text = (tmp_path / "tiles_villas_plus25" / "tiles.toml")
    write_variant_data(variant, BASE_SPEC["game"], tmp_path)
    body = text.read_text(encoding="utf-8")
    header = "\n".join(line for line in body.splitlines() if line.startswith("#"))
    assert 'status = "reconstructed"' in header
    assert "sim/games/carpe_diem/data/tiles.toml" in header
    assert "Rule:" in header and "villa 46 -> 58" in header
    assert tomllib.loads(body)["status"] == "reconstructed"


def test_generation_is_deterministic_and_leaves_the_base_file_alone(tmp_path):
    digest = hashlib.sha256(BASE_TILES.read_bytes()).hexdigest()
    first = {v.name: (tmp_path / "a" / v.name / "tiles.toml") for v in TILE_VARIANTS}
    for v in TILE_VARIANTS:
        write_variant_data(v, BASE_SPEC["game"], tmp_path / "a")
        write_variant_data(v, BASE_SPEC["game"], tmp_path / "b")
    for name, path in first.items():
        assert path.read_bytes() == (tmp_path / "b" / name / "tiles.toml").read_bytes()
    assert len({p.read_bytes() for p in first.values()}) == len(first)  # every variant is a different manifest
    assert hashlib.sha256(BASE_TILES.read_bytes()).hexdigest() == digest


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_a_variant_spec_is_a_valid_distinct_run(variant, tmp_path):
    doc = variant_spec(BASE_SPEC, variant, tmp_path)
    assert "params" not in BASE_SPEC["game"]  # the base dict is not changed
    spec = spec_from_dict(doc)
    base = spec_from_dict(BASE_SPEC)
    assert spec.run_id != base.run_id and spec.name == f"base_{variant.name}"
    assert spec.params == variant.params
    assert set(spec.data) == set(variant.data)


def test_a_tile_variant_runs_through_the_runner_with_its_data_copied(tmp_path):
    (variant,) = named("tiles_landscapes_minus25")
    spec = spec_from_dict(variant_spec(BASE_SPEC, variant, tmp_path / "data"))
    result = run(spec, out=tmp_path / "runs")
    stored = result.run_dir / "data" / "tiles.toml"
    assert stored.read_bytes() == (tmp_path / "data" / variant.name / "tiles.toml").read_bytes()


def test_a_base_tiles_override_is_the_source_of_the_shift(tmp_path):
    (variant,) = named("tiles_villas_minus25")
    plus = write_variant_data(named("tiles_villas_plus25")[0], BASE_SPEC["game"], tmp_path / "plus")["tiles"]
    base = BASE_SPEC | {"game": BASE_SPEC["game"] | {"params": {"tiles_file": plus}}}
    doc = variant_spec(base, variant, tmp_path / "out")
    assert "tiles_file" not in doc["game"]["params"]
    _, tiles = read_tiles(doc["game"]["data"]["tiles"])
    assert part_counts(tiles)["villa"] == 58 - 14  # -25 % of 58 per type: 14.5 rounds to 14


def test_variant_rows_describe_every_variant():
    rows = variant_rows()
    assert [r["name"] for r in rows] == [v.name for v in VARIANTS]
    villas = next(r for r in rows if r["name"] == "tiles_villas_minus25")
    assert "villas 46" in villas["before"] and "villas 34" in villas["after"]
    assert next(r for r in rows if r["name"] == "villa_table_alternative")["after"] == "villa_vp_table = linear"


def test_every_tile_recipe_of_the_profile_is_a_shift_of_one_family_by_25_percent():
    shifts = [tile_shift(v) for v in TILE_VARIANTS]
    assert sorted((s.family, s.percent) for s in shifts) == sorted((f, p) for f in FAMILIES for p in (25, -25))
    assert all(v.data == {} and v.params for v in VARIANTS if v not in TILE_VARIANTS)


def test_a_recipe_the_module_cannot_read_is_a_variant_error(tmp_path):
    broken = VARIANTS[-1].__class__("tiles_dragons", "a family that does not exist", data={"tiles": "dragons +25"})
    with pytest.raises(VariantError, match="tiles recipe 'dragons \\+25'"):
        write_variant_data(broken, BASE_SPEC["game"], tmp_path)
