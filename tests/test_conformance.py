"""The common game interface, checked on every game of the suites (listed games, and unlisted ones
with a rules test: ``tests/suite.py``) and player count.

A new game is done when this file passes for it: play in every tier it supports gives the same
games, compiled and uncompiled code agree, its records match its profile, what a seat observes
survives determinisation, its package has the template's files and spec-page headings, and it
has rules tests named after its rule ids (required of every listed game).
"""

import hashlib
import importlib
import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from bgsim.experiments.bench import GameBench
from bgsim.experiments.variants import VariantData, write_variant_data
from bgsim.reports.extras import HOOKS, ReportExtras
from bgsim.sim import game_seeds, make_game
from bgsim.sim.api import (
    CompiledPlay,
    ComponentAblation,
    ComponentChoices,
    Determinisation,
    Game,
    GameMeasures,
    LockstepBatches,
    Stepping,
    supports,
)
from bgsim.sim.batch import play_batch
from bgsim.sim.play import play_game
from bgsim.sim.profile import round_trip
from bgsim.sim.registry import available_games, parse_id, player_counts
from bgsim.sim.rng import below, new_stream
from bgsim.sim.seeding import GameSeeds
from bgsim.strategies import available_strategies
from bgsim.strategies.base import RandomStrategy, WeightStrategy
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.golden.playthroughs import path_for
from tests.param_slots import SLOTS_MODULE
from tests.spec_pages import parameter_tables
from tests.suite import game_test_folder, rule_ids, rules_tests, suite_games

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "sim" / "games" / "_template"
GAMES = suite_games()  # listed games, and unlisted ones with a rules test (tests/suite.py)
CASES = [(name, n) for name in GAMES for n in player_counts(name)]
# Game ids whose rules differ enough from their game's default to be played through the play, record
# and observation tests too: Sealed Bids' pair offer adds a decision, the winner's take (SB-OFFER-1).
VARIANTS = ["sealed_bids(prize_offer=pair)"]
PLAYED = GAMES + VARIANTS
PLAYED_CASES = CASES + [(game_id, n) for game_id in VARIANTS for n in player_counts(parse_id(game_id)[0])]
# Columns the runner adds to every record row (experiments/runner.py, _chunk_table): a game's own must not clash.
RUNNER_COLUMNS = {"run_id", "game", "rules_version", "n_players", "chunk", "game_index", "deal", "seating", "seed",
                  "strategy_seed", "seat", "strategy"}
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


def _base(game_id: str) -> str:
    """The game's name in a game id ("sealed_bids" for "sealed_bids(prize_offer=pair)")."""
    return parse_id(game_id)[0]


def _scoring_seats(game) -> int:
    """Seats in the result: the players', plus an automa's in a solo game."""
    return game.n_players + (1 if getattr(game, "solo", False) else 0)


def _weights(game, seed: int) -> WeightStrategy:
    """A weight strategy with random integer weights: the same in every tier."""
    rng = np.random.default_rng(seed)
    return WeightStrategy(f"w{seed}", rng.integers(-9, 10, len(game.feature_names)).astype(np.int64))


def _seeds(n: int, base: int) -> tuple[np.ndarray, np.ndarray]:
    chance = np.array([game_seeds(base + i).chance for i in range(n)], dtype=np.uint64)
    strategy = np.array([game_seeds(base + i).strategy for i in range(n)], dtype=np.uint64)
    return chance, strategy


def _mid_game(game, seed: int) -> np.ndarray:
    """A state some random decisions into a game (never over)."""
    state = game.new_state(game_seeds(seed))
    rng = new_stream(seed)
    for _ in range(int(below(rng, 0, 40))):
        table = game.decision(state)
        row = int(below(rng, 0, len(table)))
        probe = state.copy()
        game.apply(probe, table.actions[row].copy())
        if game.is_over(probe):
            break
        state = probe
    return state


def _table_copy(game, state):
    table = game.decision(state)
    return table.seat, table.features.copy(), table.actions.copy()


# --- the interface


@pytest.mark.parametrize(("name", "n_players"), PLAYED_CASES)
def test_game_follows_the_common_interface(name, n_players):
    game = make_game(name, n_players=n_players)
    assert isinstance(game, Game)
    assert game.id.startswith(f"{_base(name)}(") and f"n_players={n_players}" in game.id
    assert make_game(game.id).id == game.id  # the canonical id round-trips
    state = game.new_state(game_seeds(11))
    assert state.shape == (game.state_size,) and state.dtype == np.int32
    rng = new_stream(99)
    decisions = 0
    while not game.is_over(state):
        table = game.decision(state)
        assert 1 <= len(table) <= game.max_rows
        assert table.features.shape[1] == len(game.feature_names)
        assert table.actions.shape[1] == len(game.action_fields)
        assert table.kind_name == game.decision_names[table.kind]
        assert 0 <= table.seat < n_players
        assert table.observation == game.observe(state, table.seat)  # strategies see the seat's view only
        assert len({tuple(row) for row in table.actions.tolist()}) == len(table)  # one row per action
        game.apply(state, table.actions[int(below(rng, 0, len(table)))].copy(), validate=True)
        decisions += 1
    result = game.result(state)
    ranks = sorted(result.rank.tolist())  # competition ranking: a shared place skips the places it fills
    assert len(ranks) == _scoring_seats(game) and ranks[0] == 1
    assert all(r == ranks[i - 1] or r == i + 1 for i, r in enumerate(ranks) if i), ranks
    assert (sum(result.categories.values()) == result.final_score).all()
    assert decisions > 0
    assert set(game.feature_docs) == set(game.feature_names)


@pytest.mark.parametrize(("name", "n_players"), PLAYED_CASES)
def test_same_seeds_same_game_and_chance_seed_fixes_the_deal(name, n_players):
    game = make_game(name, n_players=n_players)
    seats = [RandomStrategy()] * n_players
    a = play_game(game, seats, GameSeeds(5, 6))
    b = play_game(game, seats, GameSeeds(5, 6))
    c = play_game(game, seats, GameSeeds(5, 7))
    assert (a.state == b.state).all()
    assert (game.new_state(GameSeeds(5, 6)) == game.new_state(GameSeeds(5, 7))).all()
    assert not (a.state == c.state).all()


# --- tiers


@pytest.mark.parametrize(("name", "n_players"), PLAYED_CASES)
@settings(max_examples=3, deadline=None)
@given(seed=SEEDS)
def test_every_tier_plays_the_same_games(name, n_players, seed):
    game = make_game(name, n_players=n_players)
    chance, strategy_seeds = _seeds(3, seed % 10**6)
    seats = np.tile(np.arange(n_players) % 2, (3, 1)).astype(np.int64)
    for strategies in ([RandomStrategy(), RandomStrategy()], [_weights(game, seed), _weights(game, seed + 1)]):
        tiers = ["per_game"] + (["compiled"] if supports(game, CompiledPlay) else [])
        if supports(game, LockstepBatches) and all(hasattr(s, "score") for s in strategies):
            tiers.append("vectorised")
        finals = {tier: play_batch(game, strategies, seats, chance, strategy_seeds, tier=tier).copy()
                  for tier in tiers}
        for tier in tiers:
            assert all(game.is_over(s) for s in finals[tier])
            assert (finals[tier] == finals["per_game"]).all(), f"{tier} differs from per_game"


@pytest.mark.parametrize("name", GAMES)
def test_a_games_expert_plays_the_same_games_in_every_tier(name):
    """The expert (``bgsim train``'s weights file, where a game has one) against the best heuristic."""
    names = {e.name for e in available_strategies(name)}
    if "expert" not in names:
        return
    from bgsim.strategies import make_strategy

    for n_players in (min(c for c in player_counts(name) if c >= 2), player_counts(name)[-1]):
        game = make_game(name, n_players=n_players)
        strategies = [make_strategy("expert", game), make_strategy("planner" if "planner" in names else "random", game)]
        chance, strategy_seeds = _seeds(4, 31)
        seats = (np.arange(4)[:, None] + np.arange(n_players)[None, :]) % 2
        tiers = ["per_game"] + (["compiled"] if supports(game, CompiledPlay) else [])
        if supports(game, LockstepBatches) and all(hasattr(s, "score") for s in strategies):
            tiers.append("vectorised")
        finals = {tier: play_batch(game, strategies, seats, chance, strategy_seeds, tier=tier).copy() for tier in tiers}
        for tier in tiers:
            assert (finals[tier] == finals["per_game"]).all(), f"{tier} differs from per_game"


@pytest.mark.parametrize("name", PLAYED)
def test_stepping_follows_apply(name):
    game = make_game(name, n_players=player_counts(_base(name))[-1])
    if not supports(game, Stepping):
        return
    a, b = game.new_state(game_seeds(3)), game.new_state(game_seeds(3))
    rng = new_stream(4)
    table = game.decision(a)
    while not game.is_over(a):
        row = int(below(rng, 0, len(table)))
        action = table.actions[row].copy()
        stepped = game.step(a, row)
        feats, acts = stepped.features.copy(), stepped.actions.copy()
        game.apply(b, action)
        table = game.decision(b)  # the play loop builds the next table too (a game may settle forced steps there)
        assert (a == b).all() and (table.features == feats).all() and (table.actions == acts).all()


@pytest.mark.parametrize("name", PLAYED)
def test_uncompiled_code_plays_the_same_game(name):
    n = min(c for c in player_counts(_base(name)) if c >= 2)
    code = (f"import hashlib, bgsim.sim.games; from bgsim.sim import make_game, game_seeds; "
            f"from bgsim.sim.play import play_game; from bgsim.strategies.base import RandomStrategy; "
            f"g = make_game({name!r}, n_players={n}); "
            f"p = play_game(g, [RandomStrategy()] * {n}, game_seeds(1), compiled=False); "
            f"print(hashlib.sha256(p.state.tobytes()).hexdigest())")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    game = make_game(name, n_players=n)
    state = play_game(game, [RandomStrategy()] * n, game_seeds(1)).state

    assert proc.stdout.strip() == hashlib.sha256(state.tobytes()).hexdigest()


# --- records and profile


@pytest.mark.parametrize(("name", "n_players"), PLAYED_CASES)
def test_records_match_the_profile_and_sum_to_the_score(name, n_players):
    game = make_game(name, n_players=n_players)
    profile = game.profile
    chance, strategy_seeds = _seeds(6, 100)
    states = play_batch(game, [RandomStrategy()], np.zeros((6, n_players), np.int64), chance, strategy_seeds)
    records = game.records(states)
    assert set(records) == set(profile.records)
    assert not set(records) & RUNNER_COLUMNS
    rows = 6 * n_players
    assert {len(column) for column in records.values()} == {rows}
    column = lambda key: np.asarray(records[key].to_numpy(zero_copy_only=False), dtype=np.int64)  # noqa: E731
    assert set(profile.category_columns) <= set(records)
    total = sum(column(c) for c in profile.category_columns)
    comp = profile.compensation
    if comp is not None:
        assert comp.column in records and (comp.tiebreak_column is None or comp.tiebreak_column in records)
        if comp.adds_to_score:
            total = total + column(comp.column)
    assert (column(profile.score_column) == total).all()
    for attribution in profile.attributions:
        assert {attribution.board_column, attribution.events_column} <= set(records)
        fields = {f.name for f in records[attribution.events_column].type.value_type}
        assert {attribution.id_field, attribution.payoff_field} <= fields


@pytest.mark.parametrize(("name", "n_players"), PLAYED_CASES)
def test_profile_round_trips_through_json(name, n_players):
    game = make_game(name, n_players=n_players)
    profile = game.profile
    assert round_trip(profile) == profile
    assert json.loads(json.dumps(profile.to_json())) == profile.to_json()
    assert profile.game == _base(name) and set(profile.player_counts) == set(player_counts(_base(name)))
    comp = profile.compensation
    if comp is not None:
        assert set(comp.rulebook) <= set(profile.player_counts)
        assert all(len(v) == n and v[0] == comp.fixed_first for n, v in comp.rulebook.items())
        make_game(name, n_players=max(comp.rulebook), **{comp.parameter: "equal"})  # named vectors build


# --- observations


@pytest.mark.parametrize(("name", "n_players"), PLAYED_CASES)
@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_determinisation_keeps_what_the_seat_sees(name, n_players, seed):
    game = make_game(name, n_players=n_players)
    if not supports(game, Determinisation):
        return
    state = _mid_game(game, seed)
    seat, feats, acts = _table_copy(game, state)
    observation = game.observe(state, seat)
    determinised = game.determinise(observation, new_stream(seed + 1))
    assert determinised.shape == state.shape
    assert game.observe(determinised, seat) == observation
    seat_d, feats_d, acts_d = _table_copy(game, determinised)
    assert seat_d == seat and (feats_d == feats).all() and (acts_d == acts).all()
    policies = [RandomStrategy().compiled_policy(game)] * n_players
    values = game.rollout_values(observation, acts[:2], 2, new_stream(seed), policies)
    assert values.shape == (min(2, len(acts)),) and np.isfinite(values).all()


@pytest.mark.parametrize(("name", "n_players"), PLAYED_CASES)
def test_identical_choices_played_on_the_same_chance_have_identical_outcomes(name, n_players):
    """The paired design of choice values: every alternative is played on the same determinisations
    with the same seat streams, so alternatives that are the same action give the same outcomes,
    rollout by rollout (a choice value of exactly 0), and the same seed gives the same rollouts."""
    game = make_game(name, n_players=n_players)
    if not supports(game, Determinisation):
        return
    state = _mid_game(game, 11)
    seat, _, acts = _table_copy(game, state)
    observation = game.observe(state, seat)
    policies = [RandomStrategy().compiled_policy(game)] * n_players  # draws from the seat streams
    same = np.repeat(acts[:1], 3, axis=0)
    shares, margins = game.rollout_outcomes(observation, same, 6, new_stream(5), policies)
    assert shares.shape == margins.shape == (3, 6)
    assert (shares == shares[0]).all() and (margins == margins[0]).all()
    assert ((shares >= 0) & (shares <= 1)).all()
    again, _ = game.rollout_outcomes(observation, same[:1], 6, new_stream(5), policies)
    assert (again[0] == shares[0]).all()


def _first_choice(game, seed: int):
    """(state, table, components) at the first declared component choice of a random game, or None."""
    declared = game.profile.choice().decisions
    state = game.new_state(game_seeds(seed))
    rng = new_stream(seed)
    while not game.is_over(state):
        table = game.decision(state)
        components = game.choice_components(state, table)
        assert (components is None) or table.kind_name in declared, f"{table.kind_name} is no declared choice"
        if components is not None:
            return state, table, components
        game.apply(state, table.actions[int(below(rng, 0, len(table)))].copy())
    return None


@pytest.mark.parametrize(("name", "n_players"), PLAYED_CASES)
def test_declared_component_choices_name_components_and_change_only_their_payout(name, n_players):
    """The engine side of a profile's ``choices`` (component-value studies): the rows of a declared
    decision take components of the attribution's catalogue, and ``with_payout`` changes one payout
    and nothing else: at its present payout it plays exactly as the game itself."""
    game = make_game(name, n_players=n_players)
    choice = game.profile.choice()
    if choice is None:
        return
    assert supports(game, ComponentChoices) and supports(game, Determinisation)
    assert game.profile.attribution(choice.attribution) is not None
    low, high = choice.payout_range
    assert low < high
    found = next(filter(None, (_first_choice(game, seed) for seed in range(5))), None)
    assert found is not None, "no declared choice came up in 5 random games"
    state, table, components = found
    catalogue = len(game.profile.attribution(choice.attribution).catalogue)
    assert components.dtype == np.int64 and components.ndim == 2 and len(components) == len(table)
    assert ((components == -1) | ((components >= 0) & (components < catalogue))).all()
    component = int(components.max())
    now = game.payout(component)
    same, changed = game.with_payout(component, now), game.with_payout(component, now + 3)
    assert changed.payout(component) == now + 3 and game.payout(component) == now
    assert [changed.payout(c) for c in range(catalogue) if c != component] == \
        [game.payout(c) for c in range(catalogue) if c != component]
    observation = game.observe(state, table.seat)
    policies = [RandomStrategy().compiled_policy(game)] * n_players
    actions = table.actions.copy()
    expected = game.rollout_outcomes(observation, actions, 4, new_stream(9), policies)
    again = same.rollout_outcomes(observation, actions, 4, new_stream(9), policies)
    assert all((a == b).all() for a, b in zip(expected, again, strict=True))


@pytest.mark.parametrize("name", PLAYED)
def test_determinisations_differ_in_what_is_hidden(name):
    game = make_game(name, n_players=player_counts(_base(name))[-1])
    if not supports(game, Determinisation):
        return
    differ = 0
    for seed in range(5):
        state = _mid_game(game, seed)
        observation = game.observe(state, game.decision(state).seat)
        a = game.determinise(observation, new_stream(2 * seed))
        b = game.determinise(observation, new_stream(2 * seed + 1))
        differ += int(not (a == b).all())
    assert differ > 0


def _sealed_run(game, state: np.ndarray, seat: int, rng: np.ndarray) -> np.ndarray:
    """``state`` after random choices of ``seat`` for as long as it decides sealed decisions in the
    sealed round under way (until the reveal)."""
    state = state.copy()
    index = game.sealed_round_index
    sealed_round = None if index is None else state[index]
    while not game.is_over(state) and (index is None or state[index] == sealed_round):
        table = game.decision(state)
        if table.seat != seat or table.kind_name not in game.sealed_decisions:
            break
        game.apply(state, table.actions[int(below(rng, 0, len(table)))].copy())
    return state


@pytest.mark.parametrize(("name", "n_players"), PLAYED_CASES)
def test_another_seats_sealed_choices_change_nothing_a_seat_sees(name, n_players):
    """Two histories that differ only in one seat's sealed choices (a bid it keeps hidden until the
    reveal, a card it puts back unseen) give the next seat to decide before the reveal the same
    observation and the same candidate table: no counter, size or step count may betray the hidden
    choices. Choices that are never revealed are compared at the very next decision of another seat."""
    game = make_game(name, n_players=n_players)
    if not game.sealed_decisions or n_players < 2:
        return  # solo: no other player to hide a choice from
    compared = 0
    for seed in range(6):
        state = game.new_state(game_seeds(seed))
        rng = new_stream(seed)
        while not game.is_over(state) and compared < 40 * (seed + 1):
            table = game.decision(state)
            if table.kind_name in game.sealed_decisions:
                a = _sealed_run(game, state, table.seat, new_stream(1000 * seed + compared))
                b = _sealed_run(game, state, table.seat, new_stream(1000 * seed + compared + 500))
                kinds = {game.decision(a).kind_name, game.decision(b).kind_name}
                (seat_a, feats_a, acts_a), (seat_b, feats_b, acts_b) = _table_copy(game, a), _table_copy(game, b)
                index = game.sealed_round_index
                before_the_reveal = index is None or (a[index] == b[index] == state[index]
                                                      and kinds <= set(game.sealed_decisions))
                if before_the_reveal and seat_a == seat_b != table.seat and not (a == b).all():
                    compared += 1
                    assert game.observe(a, seat_a) == game.observe(b, seat_b), f"seed {seed}: the observations differ"
                    assert feats_a.shape == feats_b.shape and (feats_a == feats_b).all() and (acts_a == acts_b).all()
                table = game.decision(state)
            game.apply(state, table.actions[int(below(rng, 0, len(table)))].copy())
    assert compared > 0, f"{name} never reached two sealed histories to compare"


# --- packages, spec pages, generated modules, golden files


def slot_modules() -> dict[Path, object]:
    """Each game's ``param_slots.py`` (the template's too) -> the ParamTable it is written from."""
    return {page.with_name(SLOTS_MODULE): table for page, table in parameter_tables(GAMES).items()}


def _headings(readme: Path) -> set[str]:
    return set(re.findall(r"^## (.+?)\s*$", readme.read_text(encoding="utf-8"), flags=re.M))


@pytest.mark.parametrize("name", GAMES)
def test_game_package_has_the_template_files_and_headings(name):
    package = Path(importlib.import_module(f"bgsim.sim.games.{name}").__file__).parent
    wanted = {p.relative_to(TEMPLATE) for p in TEMPLATE.rglob("*") if p.suffix in (".py", ".md")}
    missing = sorted(str(p) for p in wanted if not (package / p).exists())
    assert not missing, f"{name} lacks template files: {missing}"
    assert _headings(TEMPLATE / "README.md") <= _headings(package / "README.md")
    strategies = ROOT / "strategies" / name
    assert (strategies / "__init__.py").exists() and list((strategies / "weights").glob("*.toml"))


@pytest.mark.parametrize("page", sorted(parameter_tables(GAMES)), ids=lambda page: page.parent.name)
def test_the_spec_pages_parameter_table_is_written_from_the_games_parameter_table(page):
    text = page.read_text(encoding="utf-8")
    assert parameter_tables(GAMES)[page].on_page(text) == text, f"{page}: run python -m tests.spec_pages"


@pytest.mark.parametrize("path", sorted(slot_modules()), ids=lambda path: path.parent.name)
def test_the_index_constants_the_kernels_import_are_written_from_the_games_parameter_table(path):
    wanted = slot_modules()[path].slots_source()
    found = path.read_text(encoding="utf-8") if path.exists() else ""
    assert found == wanted, f"{path} is out of date with its params.py: run python -m tests.param_slots"


@pytest.mark.parametrize("name", GAMES)
def test_the_games_compiled_loops_are_the_shared_ones_bound_to_its_kernels(name):
    from bgsim.sim import loops

    game = make_game(name, n_players=player_counts(name)[0])
    assert game.kernels.RULES.candidates is game.kernels.candidates
    for shared in loops.LOOPS:
        bound = getattr(game.kernels.LOOPS, shared.__name__)
        assert bound.py_func.__code__ is shared.__code__, f"{name} writes its own {shared.__name__}"
        for name_in_loop in loops.BOUND_NAMES:
            assert bound.py_func.__globals__[name_in_loop] is not None, f"{name_in_loop} unbound in {shared.__name__}"


@pytest.mark.parametrize(("name", "n_players"), CASES)
def test_every_game_has_a_golden_playthrough(name, n_players):
    assert path_for(name, n_players).exists(), f"run python -m tests.golden.regenerate {_base(name)}"


@pytest.mark.parametrize("name", list(available_games()))
def test_every_listed_game_has_a_rules_test_named_after_a_rule_id(name):
    assert rule_ids(name), f"{name}'s spec page cites no rule id (like XX-TURN-2)"
    example = f"test_{sorted(rule_ids(name))[0].replace('-', '_')}_..."
    assert rules_tests(name), (f"{name} is listed but {game_test_folder(name)} has no rules test named after a rule "
                               f"id of its spec page ({example})")


# --- the parts a game's entry declares above the engine


def _entry(name: str):
    return available_games(unlisted=True)[name]


@pytest.mark.parametrize("name", GAMES)
def test_the_declared_strategies_part_registers_the_games_own_strategies(name):
    assert _entry(name).parts.strategies is not None, f"{name} declares no strategies part"
    own = [s.name for s in available_strategies(name) if s.game == name]
    assert "greedy" in own, f"{name}'s strategies part registers {own}"


@pytest.mark.parametrize("name", GAMES)
def test_the_declared_report_extras_follow_their_contract(name):
    extras = _entry(name).parts.load("reports")
    if extras is None:
        return  # the generic reports alone
    assert isinstance(extras, ReportExtras), f"{name}'s reports part is a {type(extras).__name__}"
    for hook, default in HOOKS.items():
        wanted = list(inspect.signature(default).parameters)
        given = list(inspect.signature(getattr(extras, hook)).parameters)
        assert len(given) == len(wanted), f"{name}: {hook} takes {given}, the contract {wanted}"


@pytest.mark.parametrize("name", GAMES)
def test_every_declared_variant_sets_real_parameters_and_derives_its_data(name, tmp_path):
    profile = make_game(name).profile
    part = _entry(name).parts.load("variants")
    if any(v.data for v in profile.variants):
        assert isinstance(part, VariantData), f"{name}'s variants replace data files, but it declares no VariantData"
    assert len({v.name for v in profile.variants}) == len(profile.variants)
    for variant in profile.variants:
        assert variant.params or variant.data, f"{variant.name} changes nothing"
        assert set(variant.data) <= set(profile.data_overrides), f"{variant.name} replaces an unknown data file"
        files = write_variant_data(variant, {"id": name}, tmp_path)
        game = make_game(name, **variant.params, **{f"{k}_file": v for k, v in files.items()})
        assert all(game.data_files[k]["sha256"] != make_game(name).data_files[k]["sha256"] for k in files)
        assert game.id != make_game(name).id


@pytest.mark.parametrize("name", GAMES)
def test_a_declared_bench_is_a_game_bench(name):
    bench = _entry(name).parts.load("bench")
    assert bench is None or isinstance(bench, GameBench)


@pytest.mark.parametrize("name", GAMES)
def test_a_declared_calibration_plays_the_game_with_its_own_strategies_and_parameters(name):
    from bgsim.experiments.calibration_suite import GameCalibration
    from bgsim.strategies import make_strategy

    found = _entry(name).parts.load("calibration")
    if found is None:
        return
    assert isinstance(found, GameCalibration) and found.game == name
    game = make_game(name, n_players=4)
    for sid in (found.self_play, *found.mixed):
        make_strategy(sid, game)
    assert len(found.mixed) >= 4 and game.profile.compensation is not None  # its start vector is a check
    assert make_game(name, **found.change).id != make_game(name).id  # a change of the rules
    assert make_game(name, **found.shared).profile.shared_wins  # tied wins shared


def _recounted_leads(game, seeds: GameSeeds, strategy) -> int:
    """Lead changes of one game counted here, decision by decision, from the game's running scores
    (its ``standing`` kernel) at each round's end and its final ranks: the definition of
    ``sim.leads`` written again, for the compiled count to be checked against."""
    state = game.new_state(seeds)
    n = int(state[game.kernels.RULES.n_players])
    scores = np.zeros(n, dtype=np.int32)
    readings = []
    round_now = game.kernels.standing(state, scores)
    table = game.decision(state)
    while not game.is_over(state):
        table = game.step(state, strategy.choose(table, np.zeros(1, dtype=np.uint64)))
        now = game.kernels.standing(state, scores)
        if now != round_now:
            round_now = now
            readings.append(scores.copy())
    readings.append((game.final_standings(state[None])[1][0] == 1).astype(np.int32))
    leader, changes = -1, 0
    for reading in readings:
        top = np.flatnonzero(reading == reading.max())
        if len(top) == 1:
            changes += leader >= 0 and top[0] != leader
            leader = top[0]
    return changes


@pytest.mark.parametrize(("name", "n_players"), PLAYED_CASES)
def test_dealt_games_play_as_dealt_and_count_the_lead_changes_of_the_running_score(name, n_players):
    """``play_dealt`` (the ablation's loop) plays a dealt game exactly as ``play_states`` does, and
    its lead changes are those of the running scores read at every round's end and the final ranks."""
    game = make_game(name, n_players=n_players)
    if not (supports(game, CompiledPlay) and supports(game, LockstepBatches)):
        return
    chance, strategy_seeds = _seeds(4, 77)
    strategy = _weights(game, 3)  # deterministic: no draws from the seat streams
    policies = [strategy.compiled_policy(game)]
    seats = np.zeros((4, n_players), dtype=np.int64)
    streams = np.zeros((4, n_players), dtype=np.uint64)
    expected = game.play_states(chance, streams.copy(), seats, policies).copy()
    dealt = game.deal_states(chance)
    leads = game.play_dealt(dealt, streams.copy(), seats, policies)
    assert (dealt == expected).all()
    recount = [_recounted_leads(game, GameSeeds(int(c), int(s)), strategy)
               for c, s in zip(chance, strategy_seeds, strict=True)]
    assert leads.tolist() == recount


@pytest.mark.parametrize(("name", "n_players"), PLAYED_CASES)
def test_a_declared_ablation_replaces_the_component_and_nothing_else(name, n_players):
    """The ablation of a component-value study: each dealt state holds some components; ``ablate``
    returns copies without the component (another in its place, or none), changes nothing else of
    the deal that could matter (only entries a component occupies), leaves its input alone, and the
    ablated deals play to the end."""
    game = make_game(name, n_players=n_players)
    choice = game.profile.choice()
    if choice is None or not choice.ablation:
        return
    assert supports(game, ComponentAblation)
    catalogue = len(game.profile.attribution(choice.attribution).catalogue)
    chance, _ = _seeds(6, 5)
    dealt = game.deal_states(chance)
    held = game.dealt_components(dealt)
    assert held.shape == (6, catalogue) and held.dtype == bool and held.any(axis=1).all()
    for component in np.flatnonzero(held.any(axis=0))[:4]:
        rows = np.flatnonzero(held[:, component])
        before = dealt[rows].copy()
        ablated, replacement = game.ablate(dealt[rows], int(component), np.linspace(0, 0.99, len(rows)))
        assert (dealt[rows] == before).all() and ablated.shape == before.shape
        assert ((replacement == -1) | ((replacement >= 0) & (replacement < catalogue))).all()
        assert (replacement != component).all()
        assert not game.dealt_components(ablated)[:, component].any()
        assert ((ablated != before).sum(axis=1) == 1).all()  # one entry: where the component lay
        game.play_dealt(ablated, np.zeros((len(rows), n_players), np.uint64), np.zeros((len(rows), n_players),
                        np.int64), [RandomStrategy().compiled_policy(game)])
        assert all(game.is_over(s) for s in ablated)


@pytest.mark.parametrize(("name", "n_players"), PLAYED_CASES)
def test_a_games_declared_measures_are_the_ones_it_computes(name, n_players):
    """The profile's ``measures`` (what a balance search may target besides scores) and the engine's
    ``game_measures``: the same names, one finite value per finished game."""
    game = make_game(name, n_players=n_players)
    if not game.profile.measures:
        assert not supports(game, GameMeasures)
        return
    chance, strategy_seeds = _seeds(3, 21)
    seats = np.zeros((3, n_players), dtype=np.int64)
    states = play_batch(game, [RandomStrategy()], seats, chance, strategy_seeds)
    values = game.game_measures(states)
    assert set(values) == set(game.profile.measures)
    assert all(v.shape == (3,) and np.isfinite(v).all() for v in values.values())
