"""Carpe Diem strategies: weight files in ``weights/``; ``name(feature=value)`` overrides weights."""

import tomllib
from pathlib import Path

from strategies import make_strategy, register_strategy
from strategies.base import WeightStrategy, load_weights
from strategies.search import make_search

WEIGHTS_DIR = Path(__file__).parent / "weights"
BEST_HEURISTIC = "greedy"  # the strongest weight strategy measured (strategies/README.md)


def _weight_strategy(name: str):
    def factory(game, **overrides):
        weights, description = load_weights(WEIGHTS_DIR / f"{name}.toml", game.feature_names, overrides)
        suffix = "(" + ", ".join(f"{k}={v}" for k, v in sorted(overrides.items())) + ")" if overrides else ""
        return WeightStrategy(f"{game.name}/{name}{suffix}", weights, description)

    return factory


for _path in sorted(WEIGHTS_DIR.glob("*.toml")):
    _summary = tomllib.loads(_path.read_text(encoding="utf-8")).get("description", "")
    register_strategy("carpe_diem", _path.stem, _weight_strategy(_path.stem), _summary)


def _search(game, **params):
    return make_search(game, make_strategy, **params)


register_strategy("carpe_diem", "search", _search,
                  "determinised rollouts: the policy's best rows, each played to the end on sampled hidden "
                  "tiles and fountain cards")
