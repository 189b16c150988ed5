"""The balance search's designs and their games: the lever values of a design, the game they make,
what is played and what re-scored, and the games of one design on a range of deals, kept per played
design and rung (``evals/<design>/n<players>/deals-<first>-<end>.parquet``) so that designs sharing
a played game share its games.
"""

import functools
import hashlib
import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from bgsim.experiments.balance_spec import BalanceSpec, Lever, lever_choices
from bgsim.experiments.workers import each
from bgsim.sim.api import GameMeasures, supports
from bgsim.sim.batch import play_batch
from bgsim.sim.registry import make_game
from bgsim.sim.seeding import block_key, deal_seeds
from bgsim.sim.stats.balance import (
    POPULATION,
    Outcomes,
)
from bgsim.strategies import make_strategy

CHUNK_DEALS = 50  # deals per chunk: the unit the workers play


def param_names(spec: BalanceSpec, lever: Lever) -> list[str]:
    """The Optuna parameters of a lever: one, or one per seat after the first for a start vector."""
    if lever.players:
        return [f"{lever.label}.seat{seat + 1}" for seat in range(1, lever.players)]
    return [lever.label]


def distributions(spec: BalanceSpec) -> dict:
    """Optuna's distribution of every parameter, in lever order."""
    from optuna.distributions import CategoricalDistribution, IntDistribution

    game = design_game(spec, spec.players[0], "{}")
    out = {}
    for lever in spec.levers:
        values = lever_choices(lever, game) if lever.param else ()
        for name in param_names(spec, lever):
            out[name] = CategoricalDistribution(values) if values else IntDistribution(lever.low, lever.high)
    return out


def rulebook_design(spec: BalanceSpec) -> dict:
    """The design of the spec's game as it is (the rulebook's, with the spec's fixed params)."""
    design = {}
    for lever in spec.levers:
        game = design_game(spec, lever.players or spec.players[0], "{}")
        if lever.component:
            design[lever.label] = game.payout(_component_index(game, lever.component))
        elif lever.players:
            for seat, name in enumerate(param_names(spec, lever), start=1):
                design[name] = int(game.params.start_vector()[seat])
        else:
            design[lever.label] = getattr(game.params, lever.param)
    return design


def _component_index(game, component: str) -> int:
    attribution = game.profile.attribution(game.profile.choice().attribution)
    return next(row[attribution.id_field] for row in attribution.catalogue if row["id"] == component)


def _rescored(spec: BalanceSpec, lever: Lever) -> bool:
    """A start vector that only adds to the final score: re-scored, not played."""
    if not lever.players:
        return False
    compensation = design_game(spec, lever.players, "{}").profile.compensation
    return compensation is not None and compensation.parameter == lever.param and not compensation.changes_play \
        and compensation.adds_to_score and compensation.tiebreak_column is not None


def start_vector(spec: BalanceSpec, design: dict, n: int) -> tuple[int, ...] | None:
    """The start vector a design sets at ``n`` players (seat 1 as the rulebook's), or None."""
    for lever in spec.levers:
        if lever.players == n:
            first = design_game(spec, n, "{}").params.start_vector()[0]
            return (int(first), *(int(design[name]) for name in param_names(spec, lever)))
    return None


def played_design(spec: BalanceSpec, design: dict, n: int) -> dict:
    """What must be played at ``n`` players: the design without its re-scored start vectors and
    without the levers of other player counts."""
    out = {}
    for lever in spec.levers:
        if lever.players and (lever.players != n or _rescored(spec, lever)):
            continue
        for name in param_names(spec, lever):
            out[name] = design[name]
    return out


def design_key(played: dict) -> str:
    return hashlib.sha256(json.dumps(played, sort_keys=True, default=str).encode()).hexdigest()[:12]


@functools.lru_cache(maxsize=32)
def design_game(spec: BalanceSpec, n: int, played_json: str):
    """The game of a played design at ``n`` players: parameters set, then each payout changed."""
    played = json.loads(played_json)
    params = dict(spec.params)
    payouts = []
    for lever in spec.levers:
        if lever.component and lever.label in played:
            payouts.append((lever.component, played[lever.label]))
        elif lever.players and param_names(spec, lever)[0] in played:
            first = design_game(spec, n, "{}").params.start_vector()[0]
            params[lever.param] = "/".join(str(v) for v in (first, *(played[p] for p in param_names(spec, lever))))
        elif lever.param and lever.label in played:
            params[lever.param] = played[lever.label]
    game = make_game(spec.game, **params, **_files(spec), n_players=n)
    for component, value in payouts:
        game = game.with_payout(_component_index(game, component), int(value))
    return game


def _files(spec: BalanceSpec) -> dict:
    return {f"{name}_file": path for name, path in spec.data.items()}


# --- playing: the games of one design on a range of deals


def all_strategies(spec: BalanceSpec) -> list[str]:
    """The population's strategies, then any a matchup adds: the indices games store."""
    return list(dict.fromkeys((*spec.strategies, *spec.matchup_strategies)))


def matchup_pairs(spec: BalanceSpec) -> list[tuple[int, int]]:
    """Every pair (a, b), a before b, of the matchup strategies (indices into ``all_strategies``)."""
    every = all_strategies(spec)
    return list(combinations([every.index(s) for s in spec.matchup_strategies], 2))


def design_games(spec: BalanceSpec, n: int, deals: np.ndarray) -> tuple[np.ndarray, ...]:
    """The games each deal gets: (pair, rotation, seat_strategy) of every game, deal-major. A
    population game (seat s of deal g: population strategy (s + g) % m), then per matchup pair
    its two rotations (a in the even seats, then in the odd ones)."""
    every = all_strategies(spec)
    population = [every.index(s) for s in spec.strategies]
    pairs = matchup_pairs(spec)
    rows, pair, rotation = [], [], []
    seats = np.arange(n)
    for g in deals:
        rows.append([population[(s + g) % len(population)] for s in seats])
        pair.append(POPULATION)
        rotation.append(0)
        for p, (a, b) in enumerate(pairs):
            for r in (0, 1):
                rows.append([a if (s + r) % 2 == 0 else b for s in seats])
                pair.append(p)
                rotation.append(r)
    per_deal = 1 + 2 * len(pairs)
    return np.repeat(deals, per_deal), np.array(pair), np.array(rotation), np.array(rows, dtype=np.int64)


def play_chunk(spec: BalanceSpec, n: int, played_json: str, first: int, stop: int, seed: int) -> pa.Table:
    """The games of a played design on deals ``first..stop-1`` at ``n`` players (deals of ``seed``)."""
    game = design_game(spec, n, played_json)
    strategies = [make_strategy(sid, game) for sid in all_strategies(spec)]
    deal, pair, rotation, seat_strategy = design_games(spec, n, np.arange(first, stop))
    chance, strategy_seeds = deal_seeds(block_key(seed, n), deal)
    states = play_batch(game, strategies, seat_strategy, chance, strategy_seeds).copy()
    scores, ranks = game.final_standings(states)
    start = _start(game, n)
    tiebreak = _tiebreak(game, states, ranks)
    length = states[:, game.decisions_index] if game.decisions_index is not None else np.zeros(len(states))
    columns = {"deal": deal, "pair": pair, "rotation": rotation, "length": length.astype(np.int64)}
    for s in range(n):
        columns |= {f"strategy{s}": seat_strategy[:, s], f"base{s}": scores[:, s].astype(np.int64) - start[s],
                    f"tiebreak{s}": tiebreak[:, s]}
    table = {k: pa.array(np.asarray(v, dtype=np.int64)) for k, v in columns.items()}
    if supports(game, GameMeasures):
        table |= {f"measure:{k}": pa.array(np.asarray(v, dtype=np.float64)) for k, v in
                  game.game_measures(states).items()}
    return pa.table(table)


def _start(game, n: int) -> np.ndarray:
    """(n,) int64 the start values the game's seats play with (0 for a game without them)."""
    return np.asarray(game.params.start_vector()[:n] if game.profile.compensation else np.zeros(n), dtype=np.int64)


def _tiebreak(game, states: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """(G, P) int64 tie-break places: the profile's column, else the final ranks (1 first)."""
    compensation = game.profile.compensation
    n = ranks.shape[1]
    if compensation is not None and compensation.tiebreak_column:
        return np.asarray(game.records(states)[compensation.tiebreak_column], dtype=np.int64).reshape(-1, n)
    return ranks.astype(np.int64)


def _outcomes(spec: BalanceSpec, n: int, tables: list[pa.Table]) -> Outcomes:
    frame = pa.concat_tables(tables, promote_options="default").to_pandas()
    game = design_game(spec, n, "{}")
    start = _start(game, n)
    cols = lambda prefix: frame[[f"{prefix}{s}" for s in range(n)]].to_numpy(np.int64)  # noqa: E731
    return Outcomes(deal=frame["deal"].to_numpy(np.int64), pair=frame["pair"].to_numpy(np.int64),
                    rotation=frame["rotation"].to_numpy(np.int64), seat_strategy=cols("strategy"), base=cols("base"),
                    start=start, tiebreak=cols("tiebreak"), length=frame["length"].to_numpy(np.int64),
                    shared=bool(game.profile.shared_wins),
                    declared={c[8:]: frame[c].to_numpy(np.float64) for c in frame.columns if c.startswith("measure:")})


def chunks(deals: int, rungs: tuple[int, ...] = ()) -> list[tuple[int, int]]:
    """(first, end) deals of each chunk of deals 0..deals-1: split at every rung below ``deals``, so a
    larger rung plays only its new deals, and each stretch in pieces of at most CHUNK_DEALS, at least
    two where it can be (two workers share even a small rung). The same for any number of workers."""
    edges = sorted({0, deals} | {r for r in rungs if r < deals})
    out = []
    for a, b in zip(edges, edges[1:], strict=False):
        pieces = max(2 if b - a >= 2 else 1, -(-(b - a) // CHUNK_DEALS))
        bounds = [a + (b - a) * i // pieces for i in range(pieces + 1)]
        out += list(zip(bounds, bounds[1:], strict=False))
    return out


def evaluate(spec: BalanceSpec, directory: Path, design: dict, deals: int, seed: int, jobs: int = 1,
             client=None, folder: str = "evals") -> tuple[dict[int, Outcomes], dict[str, int], int]:
    """The outcomes of ``design`` on deals 0..deals-1 of ``seed`` per player count, from the chunks
    on disk and the ones played now; with the games of every chunk used (chunk name -> games) and
    the games played now."""
    todo, found = [], {}
    for n in spec.players:
        played_json = json.dumps(played_design(spec, design, n), sort_keys=True, default=str)
        where = Path(directory) / folder / design_key(json.loads(played_json)) / f"n{n}"
        found[n] = []
        for first, stop in chunks(deals, spec.deals if folder == "evals" else ()):
            path = where / f"deals-{first:06d}-{stop:06d}.parquet"
            table = _read(path)
            if table is None:
                todo.append((spec, n, played_json, first, stop, seed))
            found[n].append((first, path, table))
    games = 0
    results = {}
    for args, table in each(_timed_play, todo, jobs, client):
        _, n, played_json, first, stop, _ = args
        where = Path(directory) / folder / design_key(json.loads(played_json)) / f"n{n}"
        where.mkdir(parents=True, exist_ok=True)
        _write(where / f"deals-{first:06d}-{stop:06d}.parquet", table)
        results[(n, first)] = table
        games += table.num_rows
    out, used = {}, {}
    for n in spec.players:
        tables = [table if table is not None else results[(n, first)] for first, _, table in found[n]]
        out[n] = _outcomes(spec, n, tables)
        used |= {str(path.relative_to(directory)): table.num_rows for (_, path, _), table in zip(found[n], tables,
                                                                                                 strict=True)}
    return out, used, games


def _timed_play(*args) -> tuple[tuple, pa.Table]:
    return args, play_chunk(*args)


def _read(path: Path) -> pa.Table | None:
    try:
        return pq.read_table(path)
    except (OSError, pa.ArrowInvalid):
        return None


def _write(path: Path, table: pa.Table) -> None:
    """Atomically (a kill leaves the chunk whole or absent)."""
    tmp = path.with_suffix(".tmp")
    pq.write_table(table, tmp, compression="zstd")
    tmp.replace(path)


