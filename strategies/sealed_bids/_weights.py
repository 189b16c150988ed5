"""Stand-in for ``bgsim.strategies.weights.register_weight_strategies`` where it does not exist
yet: one weight strategy per file in a weights folder, ``weights(...)`` and ``search``."""

import tomllib
from pathlib import Path

from bgsim.sim.errors import StrategyError
from bgsim.strategies import make_strategy, register_strategy
from bgsim.strategies.base import WeightStrategy, load_weights, weights_from
from bgsim.strategies.search import make_search

__all__ = ["register_weight_strategies"]


def register_weight_strategies(game_name: str, weights_dir: Path, best_heuristic: str) -> None:
    def build(game, name, params, default):
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
        return WeightStrategy(f"{game.name}/{name}{'(' + ', '.join(args) + ')' if args else ''}", weights, description)

    for path in sorted(Path(weights_dir).glob("*.toml")):
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
        register_strategy(game_name, path.stem,
                          lambda game, _n=path.stem, _p=path, **params: build(game, _n, params, _p),
                          doc.get("description", ""))
    register_strategy(game_name, "weights", lambda game, **params: build(game, "weights", params, None),
                      "the weights given in the id, every other feature 0")
    register_strategy(game_name, "search",
                      lambda game, **params: make_search(game, make_strategy, best_heuristic, **params),
                      f"determinised rollouts of the {best_heuristic} policy's best rows")
