"""The architecture, checked on the source: dependencies point one way and the generic layers name no game.

    bgsim (cli, report, api)          the top: may import everything below
      experiments      reports        never each other
      strategies         |            reports: only sim.profile, sim.results and sim.stats
      sim (engine) <-----+            sim.results and sim.stats: results files and statistics, with
                                      sim.errors, sim.profile and sim.digest only: no compiled code, no game

Every ``import`` counts, also those inside functions: a lazy import still couples two modules. The
words a generic module may not use are every registered game's own, read from its profile.
"""

import ast
import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"sim": "bgsim.sim", "strategies": "bgsim.strategies", "experiments": "bgsim.experiments",
           "reports": "bgsim.reports", "bgsim": "bgsim"}


def _modules() -> dict[str, Path]:
    found = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if "_template" in parts:
                continue
            name = ".".join((package, *parts[:-1])) if parts[-1] == "__init__" else ".".join((package, *parts))
            found[name] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The bgsim modules ``name`` imports (``from pkg import sub`` counts as the submodule)."""
    out = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer(module: str) -> str:
    for prefix in ("bgsim.sim.results", "bgsim.sim.stats", "bgsim.sim.games", "bgsim.sim", "bgsim.strategies",
                   "bgsim.experiments", "bgsim.reports"):
        if module == prefix or module.startswith(prefix + "."):
            return prefix
    return "bgsim"


def _game_package(module: str) -> str | None:
    """The per-game package a module belongs to (``bgsim.experiments.<game>``), or None if generic."""
    for package in ("bgsim.sim.games", "bgsim.strategies", "bgsim.experiments", "bgsim.reports"):
        rest = module.removeprefix(package + ".")
        if rest != module:
            game = rest.split(".")[0]
            if (ROOT / "sim" / "games" / game).is_dir() and game not in ("base",):
                return f"{package}.{game}"
    return None


# the generic engine-free modules the results, statistics and reports layers may use beside their own
ENGINE_FREE = {"bgsim.sim.errors", "bgsim.sim.profile", "bgsim.sim.digest"}
ALLOWED = {  # layer -> the layers (every module of them) and the single modules it may import
    "bgsim.sim": {"bgsim.sim", "bgsim.sim.games"},  # the registry imports the games package, which registers each
    "bgsim.sim.games": {"bgsim.sim", "bgsim.sim.games"},
    "bgsim.sim.results": {"bgsim.sim.results", "bgsim.sim.stats", *ENGINE_FREE},
    "bgsim.sim.stats": {"bgsim.sim.stats", "bgsim.sim.results", *ENGINE_FREE},
    "bgsim.strategies": {"bgsim.sim", "bgsim.sim.games", "bgsim.strategies"},
    "bgsim.experiments": {"bgsim.sim", "bgsim.sim.games", "bgsim.sim.results", "bgsim.sim.stats",
                          "bgsim.strategies", "bgsim.experiments"},
    "bgsim.reports": {"bgsim.reports", "bgsim.sim.results", "bgsim.sim.stats", "bgsim.sim.profile", "bgsim.sim.digest"},
}


def _allowed(layer: str, target: str) -> bool:
    return _layer(target) in ALLOWED[layer] or target in ALLOWED[layer]


def test_the_module_graph_was_read():
    assert "bgsim.experiments.runner" in GRAPH and "bgsim.sim.results.store" in GRAPH["bgsim.experiments.runner"]


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_dependencies_point_one_way(module):
    layer = _layer(module)
    if layer == "bgsim":
        return  # the top layer (command line, report dispatch, library surface) may import everything
    wrong = sorted(t for t in GRAPH[module] if not _allowed(layer, t))
    assert not wrong, f"{module} ({layer}) imports {wrong}"


def test_experiments_and_reports_never_import_each_other():
    crossing = sorted((m, t) for m, targets in GRAPH.items() for t in targets
                      if {_layer(m), _layer(t)} == {"bgsim.experiments", "bgsim.reports"})
    assert not crossing


def test_results_and_statistics_load_no_compiled_code_and_no_game():
    """Reports read results and compute statistics without numba or any game's engine."""
    code = ("import importlib, pkgutil, sys\n"
            "import bgsim.sim.results as r, bgsim.sim.stats as s\n"
            "for pkg in (r, s):\n"
            "    for m in pkgutil.iter_modules(pkg.__path__):\n"
            "        importlib.import_module(pkg.__name__ + '.' + m.name)\n"
            "bad = [m for m in sys.modules if m in ('numba', 'bgsim.sim.registry', 'bgsim.sim.batch')\n"
            "       or m.startswith(('bgsim.sim.games', 'bgsim.strategies'))]\n"
            "print(bad)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_no_import_cycle():
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(node):  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    assert not cycles


def test_generic_modules_import_no_game_package():
    for module, targets in GRAPH.items():
        if _game_package(module) is None and module != "bgsim.sim.games":  # it imports the packages it finds
            games = sorted(t for t in targets if _game_package(t) is not None)
            assert not games, f"generic module {module} imports {games}"


def _profile_words(profile) -> set[str]:
    """A game's own vocabulary as its profile declares it: the game's name and title, its automa's
    name, and every compound name (result and score-category columns, the attributed components,
    the compensation parameter, the automa's knobs, columns and rules, variants). A single ordinary
    word a profile also uses (cards, board, items, points) is generic vocabulary and left out."""
    from bgsim.sim.stats.wins import WIN_SHARE

    # the result columns the generic statistics read by name (a game writes them, every study counts them)
    records = set(profile.records) - {WIN_SHARE}
    names = {profile.game, profile.title, profile.score_column, *profile.category_columns, *records,
             *profile.data_overrides, *(v.name for v in profile.variants)}
    for item in profile.attributions:
        names |= {item.name, item.label, item.singular, item.board_column, item.events_column}
    if profile.compensation:
        names |= {profile.compensation.parameter, profile.compensation.column, profile.compensation.label}
    proper = {profile.game, profile.title}
    if profile.automa:
        automa = profile.automa
        proper.add(automa.name)
        names |= {automa.name, automa.score_column, *automa.category_columns.values(), *automa.rules_parameters,
                  *(knob.parameter for knob in automa.knobs)}
    return {name.lower() for name in names if name in proper or re.search(r"[ _]", name)}


def _game_words() -> re.Pattern:
    """Every registered game's own words, as one pattern: a word matches between non-alphanumerics,
    with "_" and " " alike (``start_vp`` also finds "start VP"), so a new game's words are forbidden
    in the generic layers as soon as it is registered."""
    from bgsim.sim.registry import available_games, make_game, player_counts

    words = set()
    for name in available_games(unlisted=True):
        words |= _profile_words(make_game(name, n_players=player_counts(name)[0]).profile)
    alternatives = sorted((re.escape(w).replace(r"\ ", "_").replace("_", "[ _]") for w in words), key=len, reverse=True)
    return re.compile(rf"(?<![a-z0-9])(?:{'|'.join(alternatives)})(?![a-z0-9])", re.IGNORECASE)


GAME_WORDS = _game_words()


def test_the_game_words_come_from_every_registered_profile():
    for word in ("carpe_diem", "Carpe Diem", "anna_start_vp", "Anna's start VP", "vp_villas", "scoring card",
                 "capitol", "pts_temple", "board_items", "sealed_bids", "prize cards", "final_vp"):
        assert GAME_WORDS.search(word), word
    for word in ("final_score", "items", "board", "points", "score_column", "category_columns", "annals"):
        assert not GAME_WORDS.search(word), word


def _code_words(path: Path) -> list[tuple[int, str]]:
    """Identifiers and string literals, with line numbers. Comments, docstrings and strings that give an
    example (help texts with "e.g.") are docs and not read."""
    source = path.read_text(encoding="utf-8")
    docstrings = {node.body[0].value.lineno for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant) and isinstance(node.body[0].value.value, str)}
    words = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        doc = tok.type == tokenize.STRING and (tok.start[0] in docstrings or "e.g." in tok.string)
        if tok.type == tokenize.NAME or (tok.type == tokenize.STRING and not doc):
            words.append((tok.start[0], tok.string))
    return words


# bgsim.sim.games finds the game packages on disk and imports each one
@pytest.mark.parametrize("module", sorted(m for m in GRAPH if _game_package(m) is None and m != "bgsim.sim.games"))
def test_generic_modules_name_no_game(module):
    hits = [f"line {line}: {word[:60]}" for line, word in _code_words(MODULES[module]) if GAME_WORDS.search(word)]
    assert not hits, f"{MODULES[module].relative_to(ROOT)} names a game: {hits[:5]}"


_TYPE_CHECKING_ONLY = {"bgsim.sim.api": {"bgsim.sim.profile"}}  # imported for annotations, never at run time


def test_no_kernel_reads_a_module_the_numba_cache_leaves_out_of_its_keys():
    """The Numba cache keys a compiled function by the sources it may read and leaves plain modules
    out (sim/numba_cache.py): no module that defines kernels may import one, directly or not."""
    from bgsim.sim.numba_cache import plain

    decorated = re.compile(r"^@njit", flags=re.M)  # @njit(...), @njit_without_refcounts ...
    compiled = [name for name, path in MODULES.items() if decorated.search(path.read_text(encoding="utf-8"))]
    assert "bgsim.sim.loops" not in compiled and "bgsim.sim.games.capitol.kernels.flow" in compiled
    reached = set()
    todo = [*compiled, "bgsim.sim.loops"]  # the shared loops are compiled where a game binds them
    while todo:
        module = todo.pop()
        if module not in reached:
            reached.add(module)
            todo.extend(GRAPH[module] - _TYPE_CHECKING_ONLY.get(module, set()))
    leaks = sorted(name for name in reached if plain(MODULES[name].relative_to(ROOT)))
    assert not leaks, f"kernels read modules outside the cache keys: {leaks}"
    assert plain(Path("sim/games/capitol/profile.py")) and plain(Path("sim/registry.py"))
