"""The balance search's spec: the levers a designer may move, the measures and their targets, the
search and its confirmation. ``load_balance`` reads and checks a TOML file; everything that can be
wrong with it is a one-line ``SpecError`` before any game is played.

A lever is a game parameter (``param``: an integer in ``low..high``, one of ``choices``, a flag, or
a start vector: one integer per seat after the first, at one player count) or the payout of a
component the game declares in its profile's choice (``component``: a catalogue id, ``low..high``
inside the declared payout range). A measure is one of ``MEASURES``, or one the game declares (its
profile's ``measures``, computed by ``sim.api.GameMeasures``), with a target: a number (a
matrix for ``matchup``), ``"min"``, ``"fair"`` (the fair share 1/n of a seat's win rate) or
``"rulebook"`` (no worse than the rulebook's design on the same deals).

Units: a win rate's target is in percent and its tolerance in percentage points, as every report
speaks (``PERCENT_MEASURES``); the spec holds them as fractions, the unit of ``sim.stats``, so a
search reads the same whichever way its spec was written, and ``to_dict`` writes them back in percent.
"""

import hashlib
import json
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from bgsim.experiments.spec_check import choice_component, tolerance_from
from bgsim.sim.errors import GameIdError, StrategyError
from bgsim.sim.registry import make_game
from bgsim.sim.results.spec import SpecError, check_keys, read_spec_file, require, spec_header
from bgsim.sim.stats.equivalence import Tolerance
from bgsim.strategies import make_strategy

__all__ = ["CHANGES_BY", "DESIGN_MEASURES", "MEASURES", "PERCENT_MEASURES", "SAMPLERS", "BalanceSpec", "Lever",
           "Measure", "balance_from_dict", "load_balance"]

# name -> what it is; every measure is computed per player count and averaged over the counts it names
MEASURES = {
    "seat_imbalance": "the seats' mean squared gap to the fair share, less its sampling noise: about 0 for a "
                      "perfectly balanced design (population games)",
    "first_seat": "the first seat's win rate (population games)",
    "score_spread": "best final score minus the worst, per game (population games)",
    "length": "decisions per game (population games)",
    "matchup": "win rate of each strategy against each other, seats alternating (matchup games)",
    "changes": "lever values the design moves away from the rulebook's (a start vector: one per seat), or with "
               "by = \"distance\" each weighted by how far it moved, as a share of its lever's range (no games)",
}
# measures of the design itself, not of its games: one value for every player count
DESIGN_MEASURES = ("changes",)
CHANGES_BY = ("levers", "distance")
# win rates: targets in percent and tolerances in percentage points in a spec, fractions inside
PERCENT_MEASURES = ("first_seat", "matchup")
SAMPLERS = ("tpe", "nsga2", "cmaes", "random")
REPLACED = {"seat_spread": "seat_imbalance (best minus worst seat reads about 1.6 pp on a perfectly fair game; "
                           "seat_imbalance reads about 0 there)"}
TARGET_WORDS = ("min", "fair", "rulebook")
_KEYS = {
    "": {"name", "description", "game", "population", "lever", "measure", "search", "confirm", "tolerance"},
    "game": {"id", "players", "params", "data"},
    "population": {"strategies"},
    "search": {"sampler", "objective", "budget", "trials", "deals", "seed"},
    "confirm": {"finalists", "deals", "most"},
    "tolerance": {"seat_pp", "power"},
}
_LEVER_KEYS = {"param", "component", "players", "low", "high", "choices"}
_MEASURE_KEYS = {"name", "target", "weight", "players", "strategies", "tolerance", "by"}


@dataclass(frozen=True)
class Lever:
    """One lever: ``param`` or ``component`` (a catalogue id); ``players`` only for a start vector."""

    param: str = ""
    component: str = ""
    players: int = 0  # a start vector's player count
    low: int = 0
    high: int = 0
    choices: tuple = ()  # a choice or flag lever's values

    @property
    def label(self) -> str:
        if self.component:
            return f"payout:{self.component}"
        return f"{self.param}@{self.players}p" if self.players else self.param


@dataclass(frozen=True)
class Measure:
    name: str
    target: object  # float, "min", "fair", "rulebook", or a matrix (tuple of tuples) for matchup
    weight: float = 1.0
    players: tuple[int, ...] = ()  # the counts it is taken at (the spec's, by default)
    strategies: tuple[str, ...] = ()  # matchup: the strategies, in matrix order
    tolerance: float | None = None  # how far from its target it may be (its units); seat measures: [tolerance]
    by: str = "levers"  # changes: count the levers moved, or weigh each by how far ("distance")

    @property
    def label(self) -> str:
        return self.name


@dataclass(frozen=True)
class BalanceSpec:
    name: str
    game: str
    players: tuple[int, ...]
    strategies: tuple[str, ...]  # the population of the seat measures: seat s of deal g plays [(s + g) % m]
    levers: tuple[Lever, ...]
    measures: tuple[Measure, ...]
    sampler: str = "tpe"
    objective: str = "weighted"  # "weighted": one objective, the weighted sum; "pareto": one per measure
    budget: int = 100_000  # games (played, not re-scored) the search may spend
    trials: int = 100  # at most this many trials (a design that is only re-scored spends no games)
    deals: tuple[int, ...] = (50, 150, 450)  # deals per player count at each rung of the successive halving
    seed: int = 1
    finalists: int = 3
    confirm_deals: int | str = "auto"  # fresh deals (seed + 1) per player count for each finalist and the rulebook
    confirm_most: int = 20_000  # "auto" plays at most this many fresh deals per player count
    tolerance: Tolerance = field(default_factory=Tolerance)  # seat measures meet their target within seat_pp
    params: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    description: str = ""

    def to_dict(self) -> dict:
        doc = spec_header(self)
        doc["population"] = {"strategies": list(self.strategies)}
        doc["lever"] = [_lever_doc(lever) for lever in self.levers]
        doc["measure"] = [_measure_doc(m) for m in self.measures]
        doc["search"] = {"sampler": self.sampler, "objective": self.objective, "budget": self.budget,
                         "trials": self.trials, "deals": list(self.deals), "seed": self.seed}
        doc["confirm"] = {"finalists": self.finalists, "deals": self.confirm_deals, "most": self.confirm_most}
        doc["tolerance"] = {"seat_pp": self.tolerance.seat_pp, "power": self.tolerance.power}
        return doc

    def fingerprint(self) -> str:
        """Hash of everything that decides the trials and their games (data files by content)."""
        doc = asdict(self)
        doc.pop("description")
        for measure in doc["measures"]:  # a spec that does not use ``by`` keeps the id it had before it existed
            if measure["by"] == "levers":
                measure.pop("by")
        doc["data"] = {name: hashlib.sha256(Path(path).read_bytes()).hexdigest() for name, path in
                       sorted(self.data.items())}
        return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()[:10]

    @property
    def study_id(self) -> str:
        return f"{self.name}-{self.fingerprint()}"

    def __hash__(self) -> int:  # a key of the per-process game cache (its dicts are not hashable)
        return hash(json.dumps(asdict(self), sort_keys=True, default=str))

    @property
    def total_games(self) -> int:
        """The budget (what the progress counts)."""
        return self.budget

    @property
    def matchup_strategies(self) -> tuple[str, ...]:
        """Every strategy a matchup measure names, in first-named order."""
        seen = []
        for m in self.measures:
            seen += [s for s in m.strategies if s not in seen]
        return tuple(seen)


def _lever_doc(lever: Lever) -> dict:
    doc = {"param": lever.param} if lever.param else {"component": lever.component}
    if lever.players:
        doc["players"] = lever.players
    if lever.choices:
        doc["choices"] = list(lever.choices)
    elif lever.low or lever.high:
        doc |= {"low": lever.low, "high": lever.high}
    return doc


def _measure_doc(m: Measure) -> dict:
    """A measure as the spec states it: a win rate's target in percent and its tolerance in pp."""
    scale = 100.0 if m.name in PERCENT_MEASURES else 1.0
    doc = {"name": m.name, "target": _target_doc(m.target, scale), "weight": m.weight}
    if m.name in DESIGN_MEASURES:
        return doc | {"by": m.by}
    doc["players"] = list(m.players)
    if m.strategies:
        doc["strategies"] = list(m.strategies)
    if m.tolerance is not None:
        doc["tolerance"] = _scaled(m.tolerance, scale)
    return doc


def _target_doc(target, scale: float = 1.0):
    if isinstance(target, tuple):
        return [[_scaled(v, scale) for v in row] for row in target]
    return _scaled(target, scale) if isinstance(target, float) else target


def _scaled(value: float, scale: float) -> float:
    # rounded so that 0.35 is written 35.0, not 35.00000000000001
    return round(value * scale, 10) if scale != 1.0 else value


def load_balance(path: str | Path) -> BalanceSpec:
    """Read and check a balance spec; relative data paths are relative to the file."""
    path = Path(path)
    return balance_from_dict(read_spec_file(path), path.parent, path.stem, path.name)


def balance_from_dict(doc: dict, base_dir: str | Path = ".", default_name: str = "balance",
                      source: str = "spec") -> BalanceSpec:
    check_keys(doc, _KEYS, source)
    game, search, confirm = doc.get("game", {}), doc.get("search", {}), doc.get("confirm", {})
    require("id" in game, f"{source}: [game] id is missing")
    players = game.get("players", [4])
    players = [players] if isinstance(players, int) else players
    require(isinstance(players, list) and players and all(_is_int(n) for n in players),
            f"{source}: [game] players must be a list of player counts")
    strategies = doc.get("population", {}).get("strategies", [])
    require(isinstance(strategies, list) and strategies and all(isinstance(s, str) for s in strategies),
            f"{source}: [population] strategies must be a non-empty list of strategy ids")
    data = {name: str((Path(base_dir) / value).resolve()) for name, value in game.get("data", {}).items()}
    levers = tuple(_lever(item, i, source) for i, item in enumerate(_tables(doc, "lever", source)))
    measures = tuple(_measure(item, i, tuple(players), source) for i, item in enumerate(_tables(doc, "measure",
                                                                                                  source)))
    require(levers, f"{source}: no [[lever]]: name at least one game parameter or component payout to search")
    require(measures, f"{source}: no [[measure]]: name at least one measure with its target")
    labels = [lever.label for lever in levers]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    require(not twice, f"{source}: lever {twice[0] if twice else ''} is named twice")
    sampler = search.get("sampler", "tpe")
    require(sampler in SAMPLERS, f"{source}: search.sampler must be one of {', '.join(SAMPLERS)}, not {sampler!r}")
    objective = search.get("objective", "weighted")
    require(objective in ("weighted", "pareto"), f"{source}: search.objective must be 'weighted' or 'pareto', "
                                                 f"not {objective!r}")
    require(objective == "weighted" or sampler in ("nsga2", "random"),
            f"{source}: a pareto search takes search.sampler 'nsga2' or 'random', not {sampler!r}")
    require(objective == "pareto" or sampler != "nsga2", f"{source}: search.sampler 'nsga2' is for several "
                                                         "objectives: set search.objective = 'pareto'")
    deals = search.get("deals", [50, 150, 450])
    deals = [deals] if _is_int(deals) else deals
    require(isinstance(deals, list) and deals and all(_is_int(d) and d > 0 for d in deals)
            and deals == sorted(set(deals)), f"{source}: search.deals must be increasing positive deal counts (the "
                                             f"rungs of the successive halving), not {deals!r}")
    values = dict(budget=search.get("budget", 100_000), trials=search.get("trials", 100), seed=search.get("seed", 1),
                  finalists=confirm.get("finalists", 3), confirm_most=confirm.get("most", 20_000))
    for key, value in values.items():
        require(_is_int(value) and value >= 0, f"{source}: {_key_name(key)} must be a non-negative integer, "
                                               f"not {value!r}")
    require(values["budget"] > 0 and values["trials"] > 0 and values["finalists"] > 0 and values["confirm_most"] > 1,
            f"{source}: search.budget, search.trials, confirm.finalists and confirm.most (at least 2) must be "
            f"positive")
    confirm_deals = confirm.get("deals", "auto")
    require(confirm_deals == "auto" or _is_int(confirm_deals) and confirm_deals > 1,
            f"{source}: confirm.deals must be \"auto\" or an integer of at least 2, not {confirm_deals!r}")
    values |= {"confirm_deals": confirm_deals, "tolerance": tolerance_from(doc.get("tolerance", {}), source)}
    spec = BalanceSpec(name=doc.get("name", default_name), description=doc.get("description", ""), game=game["id"],
                       players=tuple(players), strategies=tuple(strategies), levers=levers, measures=measures,
                       sampler=sampler, objective=objective, deals=tuple(deals), params=dict(game.get("params", {})),
                       data=data, **values)
    return check_against_game(spec, source)


def _key_name(key: str) -> str:
    return {"confirm_deals": "confirm.deals", "finalists": "confirm.finalists",
            "confirm_most": "confirm.most"}.get(key, f"search.{key}")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _tables(doc: dict, key: str, source: str) -> list[dict]:
    items = doc.get(key, [])
    require(isinstance(items, list) and all(isinstance(i, dict) for i in items),
            f"{source}: {key} must be an array of tables ([[{key}]])")
    return items


def _lever(item: dict, i: int, source: str) -> Lever:
    where = f"{source}: lever {i + 1}"
    unknown = sorted(set(item) - _LEVER_KEYS)
    require(not unknown, f"{where}: unknown key {unknown[0] if unknown else ''!r} (a lever has "
                         f"{', '.join(sorted(_LEVER_KEYS))})")
    require(bool(item.get("param")) != bool(item.get("component")),
            f"{where}: name either param (a game parameter) or component (a component's payout)")
    choices = item.get("choices", [])
    require(isinstance(choices, list), f"{where}: choices must be a list")
    for key in ("low", "high", "players"):
        require(key not in item or _is_int(item[key]), f"{where}: {key} must be an integer, not {item.get(key)!r}")
    if not choices:
        require("low" in item and "high" in item or "param" in item,
                f"{where}: give its range as low and high")
    if "low" in item and "high" in item:
        require(item["low"] < item["high"], f"{where}: low ({item['low']}) must be below high ({item['high']})")
    return Lever(param=item.get("param", ""), component=str(item.get("component", "")),
                 players=item.get("players", 0), low=item.get("low", 0), high=item.get("high", 0),
                 choices=tuple(choices))


def _measure(item: dict, i: int, players: tuple[int, ...], source: str) -> Measure:
    where = f"{source}: measure {i + 1}"
    unknown = sorted(set(item) - _MEASURE_KEYS)
    require(not unknown, f"{where}: unknown key {unknown[0] if unknown else ''!r} (a measure has "
                         f"{', '.join(sorted(_MEASURE_KEYS))})")
    name = item.get("name")
    require(isinstance(name, str) and name, f"{where}: name the measure (one of {', '.join(MEASURES)}, or one "
                                            f"the game declares)")
    require(name not in REPLACED, f"{where}: measure {name} is replaced by {REPLACED.get(name)}")
    weight = item.get("weight", 1.0)
    require(isinstance(weight, int | float) and not isinstance(weight, bool) and weight > 0,
            f"{where}: weight must be a positive number, not {weight!r}")
    if name in DESIGN_MEASURES:
        return _design_measure(item, name, float(weight), players, where)
    require("by" not in item, f"{where}: only a changes measure takes by")
    tolerance = item.get("tolerance")
    require(tolerance is None or isinstance(tolerance, int | float) and not isinstance(tolerance, bool)
            and tolerance > 0, f"{where}: tolerance must be a positive number (in the measure's units; "
                               f"pp for a win rate), not {tolerance!r}")
    at = item.get("players", list(players))
    at = [at] if _is_int(at) else at
    require(isinstance(at, list) and at and all(n in players for n in at),
            f"{where}: players must be among the spec's player counts {list(players)}, not {at!r}")
    strategies = item.get("strategies", [])
    require(isinstance(strategies, list) and all(isinstance(s, str) for s in strategies),
            f"{where}: strategies must be a list of strategy ids")
    if name == "matchup":
        target = _matchup_target(item.get("target"), strategies, where)
    else:
        require(not strategies, f"{where}: only a matchup names strategies")
        target = _target(name, item.get("target", "min"), where)
    scale = 100.0 if name in PERCENT_MEASURES else 1.0  # a win rate's tolerance is in pp, held as a fraction
    return Measure(name=name, target=target, weight=float(weight), players=tuple(at), strategies=tuple(strategies),
                   tolerance=None if tolerance is None else float(tolerance) / scale)


def _design_measure(item: dict, name: str, weight: float, players: tuple[int, ...], where: str) -> Measure:
    """``changes``: a count (or distance) of the design's own levers, so it has no player counts, no
    strategies and no sampling error (so no tolerance to test), and 0, the rulebook's, is its floor."""
    for key in ("players", "strategies", "tolerance"):
        require(key not in item, f"{where}: {name} measures the design's levers, not its games: it takes no {key}")
    by = item.get("by", "levers")
    require(by in CHANGES_BY, f"{where}: by must be \"levers\" (how many lever values moved) or \"distance\" "
                              f"(how far, as a share of each lever's range), not {by!r}")
    target = item.get("target", "min")
    require(target in (0, "min") and not isinstance(target, bool),
            f"{where}: {name}'s target is 0 (\"min\"): the rulebook's design changes nothing; its weight says "
            f"what one change must buy in the other measures' losses, not {target!r}")
    return Measure(name=name, target="min", weight=weight, players=players, by=by)


def _matchup_target(target, strategies: list, where: str) -> tuple:
    """A matchup's target: a k x k matrix of win rates in percent, held as fractions. A matrix with no
    cell above 1 can only be fractions (a cell and its mirror add up to 100 %): refused in one line."""
    k = len(strategies)
    require(k >= 2 and len(set(strategies)) == k, f"{where}: a matchup names two or more different strategies")
    require(isinstance(target, list) and len(target) == k and all(
        isinstance(row, list) and len(row) == k and all(_is_number(v) and 0 <= v <= 100 for v in row)
        for row in target), f"{where}: a matchup's target is a {k} x {k} matrix of win rates in percent (rows and "
                            f"columns in the order of its strategies), not {target!r}")
    require(any(v > 1 for row in target for v in row),
            f"{where}: a matchup's target is in percent (50 on the diagonal), not fractions: write "
            f"{_percent_words(target)}")
    return tuple(tuple(float(v) / 100 for v in row) for row in target)


def _target(name: str, target, where: str):
    """A number (a win rate's in percent, held as a fraction) or one of ``TARGET_WORDS``."""
    require(_is_number(target) or target in TARGET_WORDS,
            f"{where}: target must be a number or one of {', '.join(TARGET_WORDS)}, not {target!r}")
    if not _is_number(target):
        return target
    if name == "seat_imbalance":  # already a squared distance: 0 is its floor, so it is minimised
        require(target == 0, f"{where}: seat_imbalance's target is 0 (\"min\") or \"rulebook\", not {target!r}")
        return "min"
    if name in PERCENT_MEASURES:
        require(0 <= target <= 100, f"{where}: {name}'s target is a win rate in percent (0 to 100), not {target!r}")
        # a seat that should win less than 1 % of games is no design goal: such a number is a fraction
        require(not 0 < target < 1, f"{where}: {name}'s target is a win rate in percent, not a fraction: write "
                                    f"{_percent(target)} for {target!r}")
        return float(target) / 100
    return float(target)


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _percent(value: float) -> str:
    return f"{round(100 * value, 8):g}"


def _percent_words(matrix: list) -> str:
    return "[" + ", ".join("[" + ", ".join(_percent(v) for v in row) + "]" for row in matrix) + "]"


def check_against_game(spec: BalanceSpec, source: str) -> BalanceSpec:
    """Every lever exists in the game and stays inside what it allows; every strategy exists. The
    spec comes back with each component lever called by the component's id (an id it had before is
    replaced), so that labels, tables and files name it as the game does."""
    spec = _components_by_id(spec, source)
    for n in spec.players:
        try:
            files = {f"{name}_file": path for name, path in spec.data.items()}
            game = make_game(spec.game, **spec.params, **files, n_players=n)
            for sid in (*spec.strategies, *spec.matchup_strategies):
                make_strategy(sid, game)
        except (GameIdError, StrategyError) as exc:
            raise SpecError(f"{source}: {exc}") from None
        for lever in spec.levers:
            _check_lever(lever, game, n, source)
        require(game.decisions_index is not None or all(m.name != "length" for m in spec.measures),
                f"{source}: measure length: {game.name} does not count its decisions")
        for measure in spec.measures:
            known = [*MEASURES, *game.profile.measures]
            require(measure.name in known, f"{source}: unknown measure {measure.name!r}; the measures are "
                                           f"{', '.join(known)}")
            require(measure.target != "fair" or measure.name == "first_seat",
                    f"{source}: measure {measure.name}: target 'fair' is for first_seat")
    for lever in spec.levers:
        require(not lever.players or lever.players in spec.players,
                f"{source}: lever {lever.label}: players {lever.players} is not among the spec's {list(spec.players)}")
    return spec


def _components_by_id(spec: BalanceSpec, source: str) -> BalanceSpec:
    """The spec with every component lever named by its id; a one-line SpecError listing the ids for
    a name the game's component choice does not know."""
    if not any(lever.component for lever in spec.levers):
        return spec
    try:
        files = {f"{name}_file": path for name, path in spec.data.items()}
        profile = make_game(spec.game, **spec.params, **files, n_players=spec.players[0]).profile
    except (GameIdError, StrategyError) as exc:
        raise SpecError(f"{source}: {exc}") from None
    levers = tuple(replace(lever, component=choice_component(profile, lever.component, f"{source}: lever {i + 1}"))
                   if lever.component else lever for i, lever in enumerate(spec.levers))
    labels = [lever.label for lever in levers]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    require(not twice, f"{source}: lever {twice[0] if twice else ''} is named twice")
    return replace(spec, levers=levers)


def _check_lever(lever: Lever, game, n: int, source: str) -> None:
    where = f"{source}: lever {lever.label}"
    if lever.component:
        choice = game.profile.choice()
        choice_component(game.profile, lever.component, where)
        low, high = choice.allowed
        require(low <= lever.low and lever.high <= high, f"{where}: the range {lever.low}..{lever.high} is outside "
                                                          f"what {game.name} allows for its {choice.payout} "
                                                          f"({low}..{high})")
        return
    table = game.params.table
    row = table.by_name.get(lever.param)
    require(row is not None and row.kind not in ("players", "path", "text", "seat"),
            f"{where}: {game.name} has no parameter {lever.param!r} a search can move (see `bgsim games "
            f"{game.name}`)")
    if row.kind == "start":
        require(lever.players, f"{where}: a start vector is set per player count: give players")
        require(lever.choices == (), f"{where}: a start vector takes low and high, not choices")
        return
    require(not lever.players, f"{where}: only a start vector lever names players")
    if row.kind == "int":
        lowest = row.low if row.low is not None else -(2**31)
        highest = row.high if row.high is not None else 2**31 - 1
        require(not lever.choices, f"{where}: an integer parameter takes low and high, not choices")
        require(lowest <= lever.low and lever.high <= highest,
                f"{where}: the range {lever.low}..{lever.high} is outside what {lever.param} allows "
                f"({lowest}..{'' if row.high is None else highest})")
    elif row.kind == "choice":
        require(lever.choices and all(c in row.choices for c in lever.choices) and len(lever.choices) > 1,
                f"{where}: give two or more choices out of {', '.join(row.choices)}")
    elif row.kind == "flag":
        require(not lever.choices or set(lever.choices) <= {True, False},
                f"{where}: a flag's choices are true and false")


def lever_choices(lever: Lever, game) -> tuple:
    """The values of a choice or flag lever (a flag without choices: both)."""
    if lever.choices:
        return lever.choices
    row = game.params.table.by_name.get(lever.param)
    return (False, True) if row is not None and row.kind == "flag" else ()
