"""Carpe Diem strategies: one weight strategy per file in ``weights/`` (the personalities).

Ids a designer can write:

* ``greedy``, ``planner``, ...: a weights file of this package;
* ``greedy(vp=12, steps=8)``: that file with some weights changed;
* ``weights(vp=10, villa_vp=20)``: exactly these weights, every other feature 0;
* ``weights(file='my.toml')`` or ``planner(file='my.toml', vp=12)``: weights from a file of
  one's own (a copy of a personality, edited) as the base; the path is relative to the current
  directory. The personality's name then only names the strategy.
"""

import tomllib
from pathlib import Path

from bgsim.sim.errors import StrategyError
from bgsim.strategies import make_strategy, register_strategy
from bgsim.strategies.base import WeightStrategy, load_weights, weights_from
from bgsim.strategies.search import make_search

__all__ = ["BEST_HEURISTIC", "WEIGHTS_DIR", "personalities"]

WEIGHTS_DIR = Path(__file__).parent / "weights"
BEST_HEURISTIC = "planner"  # the strongest weight strategy measured (strategies/README.md)


def personalities() -> list[str]:
    """Names of the weights files of this package, sorted."""
    return sorted(path.stem for path in WEIGHTS_DIR.glob("*.toml"))


def _strategy(game, name: str, params: dict, default: Path | None) -> WeightStrategy:
    """The weight strategy ``name(params)``: base weights from ``file=`` or ``default`` (none:
    all 0), the other parameters override single weights."""
    params = dict(params)
    file = params.pop("file", None)
    if file is not None and not isinstance(file, str):
        raise StrategyError(f"strategy {name}: file must be a path in quotes, got {file!r}")
    if file is not None:
        weights, description = load_weights(Path(file), game.feature_names, params, label=file)
    elif default is not None:
        weights, description = load_weights(default, game.feature_names, params)
    else:
        weights, description = weights_from(params, game.feature_names, "strategy id"), "weights given in the id"
    args = ([f"file={file!r}"] if file is not None else []) + [f"{k}={v}" for k, v in sorted(params.items())]
    suffix = f"({', '.join(args)})" if args else ""
    return WeightStrategy(f"{game.name}/{name}{suffix}", weights, description)


def _personality(name: str):
    return lambda game, **params: _strategy(game, name, params, WEIGHTS_DIR / f"{name}.toml")


for _name in personalities():
    _doc = tomllib.loads((WEIGHTS_DIR / f"{_name}.toml").read_text(encoding="utf-8"))
    register_strategy("carpe_diem", _name, _personality(_name), _doc.get("description", ""))

register_strategy("carpe_diem", "weights", lambda game, **params: _strategy(game, "weights", params, None),
                  "the weights given in the id, every other feature 0: weights(vp=10, villa_vp=20) or "
                  "weights(file='my.toml', vp=12)")


def _search(game, **params):
    return make_search(game, make_strategy, BEST_HEURISTIC, **params)


register_strategy("carpe_diem", "search", _search,
                  f"determinised rollouts: the {BEST_HEURISTIC} policy's best rows, each played to the end on "
                  "sampled hidden tiles and fountain cards")
