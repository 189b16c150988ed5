"""The Numba cache is keyed per game: an edit of one game recompiles that game only, an edit of the
generic compiled sources every game, an edit of plain Python no kernel reads (results, statistics,
strategies, a game's profile or renderer ...) none."""

import json
import subprocess
import sys
from pathlib import Path

import numba
import pytest
from bgsim.sim import numba_cache
from bgsim.sim.numba_cache import GENERIC, cache_is_cold, source_keys

SOURCES = {
    "sim/rng.py": "def next_u64(): ...\n",
    "sim/games/parameters.py": "LIMIT = 4\n",
    "sim/games/alpha/kernels/flow.py": "from bgsim.sim.games.alpha.state import SIZE\n",
    "sim/games/alpha/state.py": "SIZE = 10\n",
    "sim/games/alpha/profile.py": "UNIT = 'points'\n",
    "sim/games/alpha/render.py": "WIDTH = 80\n",
    "sim/games/beta/kernels/flow.py": "STEPS = 3\n",
    "strategies/weights.py": "WEIGHTS = 1\n",
    "strategies/beta/__init__.py": "GREEDY = 2\n",
    "sim/stats/seats.py": "Z = 1.96\n",
    "sim/results/store.py": "CHUNK = 'chunk'\n",
    "sim/profile.py": "NAME = 'profile'\n",
}


@pytest.fixture
def sources(tmp_path) -> Path:
    """A miniature bgsim: generic modules, two games (one with strategies of its own), and plain
    modules no kernel reads."""
    for name, text in SOURCES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def _changed_after_editing(root: Path, name: str) -> set[str]:
    before = source_keys(root)
    with (root / name).open("a") as source:
        source.write("EDITED = True\n")
    after = source_keys(root)
    assert before.keys() == after.keys()
    return {scope for scope in before if before[scope] != after[scope]}


def test_every_game_and_the_generic_sources_have_a_key(sources):
    keys = source_keys(sources)
    assert set(keys) == {GENERIC, "alpha", "beta"}
    assert keys["alpha"].startswith("alpha-") and keys[GENERIC].startswith("generic-")
    assert len(set(keys.values())) == 3


@pytest.mark.parametrize(("name", "changed"), [
    ("sim/games/alpha/state.py", {"alpha"}),  # a module the game's kernels inline from
    ("sim/games/alpha/kernels/flow.py", {"alpha"}),
    ("sim/games/beta/kernels/flow.py", {"beta"}),
])
def test_an_edit_of_one_game_changes_only_that_games_key(sources, name, changed):
    assert _changed_after_editing(sources, name) == changed


@pytest.mark.parametrize("name", ["sim/rng.py", "sim/games/parameters.py"])
def test_an_edit_of_a_generic_compiled_source_changes_every_key(sources, name):
    assert _changed_after_editing(sources, name) == {GENERIC, "alpha", "beta"}


@pytest.mark.parametrize("name", ["sim/stats/seats.py", "sim/results/store.py", "sim/profile.py",
                                  "sim/games/alpha/profile.py", "sim/games/alpha/render.py",
                                  "strategies/weights.py", "strategies/beta/__init__.py"])
def test_an_edit_of_plain_python_no_kernel_reads_changes_no_key(sources, name):
    assert _changed_after_editing(sources, name) == set()


def test_a_new_module_or_a_renamed_one_changes_the_key(sources):
    before = source_keys(sources)["alpha"]
    (sources / "sim/games/alpha/extra.py").write_text("")
    added = source_keys(sources)["alpha"]
    (sources / "sim/games/alpha/extra.py").rename(sources / "sim/games/alpha/other.py")
    assert len({before, added, source_keys(sources)["alpha"]}) == 3


def test_the_registered_games_each_have_their_own_key():
    from bgsim.sim.registry import available_games

    keys = source_keys()
    assert set(available_games(unlisted=True)) <= set(keys)
    assert len(set(keys.values())) == len(keys)


def test_kernels_are_cached_under_their_games_key_and_generic_ones_under_the_generic_key():
    from bgsim.sim.games.carpe_diem.kernels import flow
    from bgsim.sim.policy import first_best_row

    keys = numba_cache._current_keys()  # as the kernels were decorated, even if a source changed since
    base = Path(numba.config.CACHE_DIR)
    kernels = [value for value in vars(flow).values()
               if isinstance(value, numba.core.dispatcher.Dispatcher) and value.py_func.__module__ == flow.__name__]
    assert kernels
    for kernel in kernels:
        assert Path(kernel._cache._cache_path).parent == base / keys["carpe_diem"]
    assert Path(first_best_row._cache._cache_path).parent == base / keys[GENERIC]


def test_the_shared_loops_are_cached_under_the_key_of_each_game_they_are_bound_to():
    from bgsim.sim.games.capitol.kernels import loops as capitol
    from bgsim.sim.games.sealed_bids.kernels import loops as sealed_bids

    keys = numba_cache._current_keys()
    base = Path(numba.config.CACHE_DIR)
    for game, kernels in (("capitol", capitol), ("sealed_bids", sealed_bids)):
        for loop in (kernels.LOOPS.play_to_end, kernels.LOOPS.play_loop, kernels.LOOPS.rollout_outcomes):
            assert Path(loop._cache._cache_path).parent == base / keys[game]


def test_a_games_bound_loops_load_from_the_cache_in_a_fresh_process():
    code = """if True:
        import json
        import numpy as np
        from bgsim.sim import make_game
        from bgsim.strategies import make_strategy
        game = make_game("sealed_bids", n_players=2)
        streams = np.arange(4, dtype=np.uint64).reshape(2, 2)
        game.play_states(np.arange(2, dtype=np.uint64), streams, np.zeros((2, 2), np.int64),
                         [make_strategy("greedy", game).compiled_policy(game)])
        stats = game.kernels.LOOPS.play_into_states.stats
        print(json.dumps([sum(stats.cache_hits.values()), sum(stats.cache_misses.values())]))
    """
    for _ in range(2):  # the first process compiles if no earlier one did
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout) == [1, 0]


def test_a_function_outside_bgsim_goes_to_numbas_own_cache_directory(tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))

    def double(x):
        return 2 * x

    compiled = numba.njit(cache=True)(double)
    assert Path(compiled._cache._cache_path).parent == tmp_path  # numba's folder per source folder, no key


def test_the_cache_is_cold_until_the_current_sources_have_compiled_functions(tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(numba_cache, "_current_keys", lambda: {GENERIC: "generic-01", "alpha": "alpha-02",
                                                                 "beta": "beta-03"})
    assert cache_is_cold() and cache_is_cold("alpha")
    (tmp_path / "alpha-00" / "kernels_0123").mkdir(parents=True)  # compiled from sources since edited
    (tmp_path / "alpha-00" / "kernels_0123" / "flow.play-40.py311.nbi").write_bytes(b"")
    assert cache_is_cold() and cache_is_cold("alpha")
    (tmp_path / "alpha-02" / "kernels_0123").mkdir(parents=True)
    assert cache_is_cold("alpha")
    (tmp_path / "alpha-02" / "kernels_0123" / "flow.play-40.py311.nbi").write_bytes(b"")
    assert not cache_is_cold("alpha") and not cache_is_cold()
    assert cache_is_cold("beta")


@pytest.mark.parametrize(("variable", "other"), [("BGSIM_NUMBA_CACHE", "NUMBA_CACHE_DIR"),
                                                 ("NUMBA_CACHE_DIR", "BGSIM_NUMBA_CACHE")])
def test_the_base_directory_follows_the_environment(tmp_path, monkeypatch, variable, other):
    monkeypatch.delenv(other, raising=False)
    monkeypatch.setenv(variable, str(tmp_path / "explicit"))
    assert numba_cache._base_directory() == tmp_path / "explicit"
    monkeypatch.delenv(variable)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert numba_cache._base_directory() == tmp_path / "xdg" / "bgsim" / "numba"


# --- the numba internals the keyed locator builds on (pinned in pyproject.toml)

ROOT = Path(__file__).resolve().parents[1]
MOVED = ("numba {version}: {what}. sim/numba_cache.py's keyed cache locator relies on it; adapt the patch "
         "before widening the numba pin in pyproject.toml")


def _numba_pin():
    import tomllib

    from packaging.requirements import Requirement

    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    (pin,) = [Requirement(d) for d in dependencies if Requirement(d).name == "numba"]
    return pin.specifier


def _fail_unless(condition: bool, what: str) -> None:
    if not condition:
        pytest.fail(MOVED.format(version=numba.__version__, what=what), pytrace=False)


def test_the_installed_numba_is_in_the_range_pyproject_pins():
    pin = _numba_pin()
    assert pin.contains(numba.__version__), (f"numba {numba.__version__} is outside {pin}, the range "
                                             "sim/numba_cache.py's locator patch is tested in")
    assert any(spec.operator == "<" for spec in pin), f"{pin}: numba is pinned below the next untested version"


def test_the_cache_internals_the_locator_patch_builds_on_are_where_it_expects():
    import inspect

    from numba.core import caching

    locator = getattr(caching, "UserProvidedCacheLocator", None)
    _fail_unless(isinstance(locator, type), "numba.core.caching.UserProvidedCacheLocator is gone")
    for name, parameters in (("__init__", ["self", "py_func", "py_file"]), ("from_function", ["py_func", "py_file"]),
                             ("get_suitable_cache_subpath", ["py_file"])):
        method = getattr(locator, name, None)
        found = list(inspect.signature(method).parameters) if callable(method) else None
        _fail_unless(found == parameters, f"UserProvidedCacheLocator.{name} takes {found}, not {parameters}")
    _fail_unless(callable(getattr(locator, "get_cache_path", None)), "UserProvidedCacheLocator.get_cache_path is gone")
    impl = getattr(caching, "CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    _fail_unless(isinstance(classes, list), "numba.core.caching.CacheImpl._locator_classes is no longer a list")
    _fail_unless(locator in classes, "CacheImpl._locator_classes no longer holds UserProvidedCacheLocator")
    _fail_unless(classes[0].__name__ == "SourceKeyedCacheLocator", "the keyed locator is not asked first")
    _fail_unless(not numba.config.CACHE_LOCATOR_CLASSES,
                 "NUMBA_CACHE_LOCATOR_CLASSES is set, and numba then never asks CacheImpl._locator_classes")
    assert numba_cache.numba_internals() == (locator, impl)


def test_a_kernel_compiled_with_cache_finds_its_directory_through_the_keyed_locator():
    from bgsim.sim.games.sealed_bids.kernels import flow

    cache = flow.apply_action._cache  # numba's FunctionCache of a dispatcher, and its CacheImpl
    located = getattr(getattr(cache, "_impl", None), "locator", None)
    _fail_unless(type(located).__name__ == "SourceKeyedCacheLocator",
                 f"a cached dispatcher's _cache._impl.locator is a {type(located).__name__}")
    expected = Path(numba.config.CACHE_DIR) / numba_cache._current_keys()["sealed_bids"]
    assert Path(located.get_cache_path()).parent == expected == Path(cache._cache_path).parent


def test_a_numba_without_the_internals_is_a_clear_error(monkeypatch):
    from numba.core import caching

    monkeypatch.delattr(caching, "UserProvidedCacheLocator")
    with pytest.raises(ImportError, match=r"numba .* has no numba\.core\.caching\.UserProvidedCacheLocator .* "
                                          "install the numba version pyproject.toml names"):
        numba_cache.numba_internals()
