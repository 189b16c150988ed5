"""The weight strategies of a game, registered in one call from its strategy package.

A game's strategy package keeps one TOML file per personality in a folder and calls
``register_weight_strategies``. Ids a designer can then write for that game:

* ``greedy``, ``planner``, ...: a weights file of the folder (its file name without ``.toml``);
* ``greedy(vp=12, steps=8)``: that file with some weights changed;
* ``weights(vp=10)``: exactly these weights, every other feature 0;
* ``weights(file='my.toml')`` or ``planner(file='my.toml', vp=12)``: weights from a file of
  one's own (a copy of a personality, edited) as the base; the path is relative to the current
  directory. The personality's name then only names the strategy;
* ``search(...)``: determinised rollouts with the best personality as policy
  (``strategies.search``), for a game that supports ``Determinisation``;
* ``strong(...)``: the same search at a small budget with the game's ``expert`` (a weights file
  fitted to the search by ``bgsim train``) as policy, where the folder holds one: a strong player
  cheap enough for studies.
"""

import dataclasses
import keyword
import tomllib
from pathlib import Path

from bgsim.sim.api import Determinisation
from bgsim.sim.errors import StrategyError
from bgsim.strategies import make_strategy, register_strategy
from bgsim.strategies.base import WeightStrategy, load_weights, weights_from
from bgsim.strategies.search import make_search

__all__ = ["EXPERT", "STRONG", "register_weight_strategies", "weight_files", "weight_strategy"]

EXPERT = "expert"  # the weights file fitted to the search (bgsim train), where a game has one
STRONG = {"width": 2, "rollouts": 2}  # the strong player's search budget: 4 rollouts a decision, 48 by default


def weight_files(weights_dir: Path) -> list[str]:
    """Names of the weights files in ``weights_dir``, sorted."""
    return sorted(path.stem for path in Path(weights_dir).glob("*.toml"))


def weight_strategy(game, name: str, params: dict, default: Path | None) -> WeightStrategy:
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


def _example_feature(game_class: type | None) -> str:
    """The game's first feature that an id can name (a keyword such as ``pass`` cannot be one)."""
    names = getattr(game_class, "feature_names", ())
    return next((f for f in names if f.isidentifier() and not keyword.iskeyword(f)), "feature")


def register_weight_strategies(game_name: str, weights_dir: Path, best_heuristic: str, *,
                               game_class: type | None = None, example: str | None = None,
                               hidden: str = "sampled hidden information") -> None:
    """Register for ``game_name``: one strategy per weights file of ``weights_dir`` (described by
    the file's ``description``), ``weights(...)``, and ``search`` with ``best_heuristic`` as its
    rollout policy when ``game_class`` supports ``Determinisation``.

    ``example``: weights for the ``weights`` strategy's description (``weights(<example>)``), by
    default one built from the game's first feature;
    ``hidden``: what the search player's rollouts are played on, for its description.
    """
    def personality(name: str):
        return lambda game, **params: weight_strategy(game, name, params, Path(weights_dir) / f"{name}.toml")

    for name in weight_files(weights_dir):
        doc = tomllib.loads((Path(weights_dir) / f"{name}.toml").read_text(encoding="utf-8"))
        register_strategy(game_name, name, personality(name), doc.get("description", ""))

    example = example or f"{_example_feature(game_class)}=10"
    feature = example.split("=", 1)[0].strip()
    register_strategy(game_name, "weights", lambda game, **params: weight_strategy(game, "weights", params, None),
                      f"the weights given in the id, every other feature 0: weights({example}) or "
                      f"weights(file='my.toml', {feature}=12)")

    if game_class is not None and issubclass(game_class, Determinisation):
        register_strategy(game_name, "search",
                          lambda game, **params: make_search(game, make_strategy, best_heuristic, **params),
                          f"determinised rollouts: the {best_heuristic} policy's best rows, each played to the end "
                          f"on {hidden}")
        if EXPERT in weight_files(weights_dir):
            register_strategy(game_name, "strong", _strong,
                              f"search(policy='{EXPERT}', {', '.join(f'{k}={v}' for k, v in STRONG.items())}): the "
                              f"{EXPERT}'s best rows played out on {hidden}, at a twelfth of search's rollouts")


def _strong(game, **params):
    """``strong(...)``: ``search`` with the expert inside and the ``STRONG`` budget; parameters as search's."""
    search = make_search(game, make_strategy, EXPERT, **(STRONG | params))
    changed = {k: v for k, v in params.items() if STRONG.get(k) != v}
    suffix = f"({', '.join(f'{k}={v}' for k, v in sorted(changed.items()))})" if changed else ""
    return dataclasses.replace(search, id=f"{game.name}/strong{suffix}")
