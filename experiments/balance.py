"""The balance search: the rule and component values that best meet a designer's objective.

A spec (``experiments/balance_spec.py``) names levers, measures with targets and the search. Each
trial is a design (one value per lever) proposed by Optuna, asked and told here (TPE for one
objective, NSGA-II for several, CMA-ES for many numeric levers, random search as the baseline).
Every design is played on the same deals (deal g of a player count has the same chance in every
trial), so two designs differ by their levers alone. Games are spent where they matter: a design is
played on the first rung of deals, reported to Optuna's successive-halving pruner, and only the
promising go on to the larger rungs. A start vector that only adds to the final score (the profile's
``compensation.changes_play`` is empty) is not played: the games are played with the rulebook's
vector and re-scored under the trial's (``sim.stats.balance.shares_under``), so designs differing
only by it share their games. Finished games are kept per played design and rung
(``evals/<design>/n<players>/deals-<first>-<end>.parquet``).

The study folder holds Optuna's own journal (``optuna.journal``): a killed study resumes from it.
The sampler of step k is seeded with (seed, k) and sees only finished trials, so a trial cut off by
a kill is asked again with the very values it had, and the trials are the same for any number of
workers (workers play the chunks of one trial's rung). Then the finalists and the rulebook's design
are played on fresh deals (seed + 1) and their measures given with bootstrap intervals.
"""

import functools
import hashlib
import json
import tomllib
import warnings
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from bgsim.experiments.balance_spec import DESIGN_MEASURES, BalanceSpec, Lever, Measure, lever_choices
from bgsim.experiments.runner import git_state, package_versions
from bgsim.experiments.studies import resume_command, study_named
from bgsim.experiments.study import Session, StudyResult, csv_or_empty, open_session
from bgsim.experiments.workers import each
from bgsim.sim.api import GameMeasures, supports
from bgsim.sim.batch import play_batch
from bgsim.sim.profile import GameProfile
from bgsim.sim.registry import make_game
from bgsim.sim.results.contents import StudyContents
from bgsim.sim.results.played import played
from bgsim.sim.results.spec import SpecError
from bgsim.sim.results.store import RunStoreError, read_meta, write_json, write_toml
from bgsim.sim.seeding import block_key, deal_seeds
from bgsim.sim.stats.balance import (
    POPULATION,
    Estimate,
    Outcomes,
    deal_members,
    difference_variance,
    measure_estimate,
    seat_covariance,
)
from bgsim.sim.stats.balance import measure_loss as loss_of
from bgsim.sim.stats.equivalence import CANNOT_TELL, HELD, OFF, Equivalence, equivalence, plan_seat_games, seat_tests
from bgsim.strategies import make_strategy

__all__ = ["STUDY", "changed_levers", "contents", "design_games", "evaluate", "measure_column", "objective_values",
           "read", "read_finalists", "read_study", "run_balance"]

STUDY = study_named("balance")
JOURNAL = "optuna.journal"
CHUNK_DEALS = 50  # deals per chunk: the unit the workers play
REPLICATES = 200  # bootstrap samples of the confirmation's intervals
REDUCTION = 3  # successive halving: a third of the designs judged at a rung go on to the next
RATE_MEASURES = ("seat_imbalance", "first_seat", "matchup")  # win rates: their losses in pp²
PP2 = 1e4  # (percentage points per unit of a rate) squared
# the unit finalists.csv states a win-rate measure in, as the reports speak (the seat-order report's
# imbalance_pp2 and gap_pp): the column's suffix and the factor from the fraction sim.stats computes
UNITS = {"seat_imbalance": ("pp2", PP2), "first_seat": ("pct", 100.0), "matchup": ("pct", 100.0)}
ProgressCallback = Callable[[int, int], None]


# --- designs: lever values, the game they make, what is played and what re-scored


def param_names(spec: BalanceSpec, lever: Lever) -> list[str]:
    """The Optuna parameters of a lever: one, or one per seat after the first for a start vector."""
    if lever.players:
        return [f"{lever.label}.seat{seat + 1}" for seat in range(1, lever.players)]
    return [lever.label]


def distributions(spec: BalanceSpec) -> dict:
    """Optuna's distribution of every parameter, in lever order."""
    from optuna.distributions import CategoricalDistribution, IntDistribution

    game = _game(spec, spec.players[0], "{}")
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
        game = _game(spec, lever.players or spec.players[0], "{}")
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
    compensation = _game(spec, lever.players, "{}").profile.compensation
    return compensation is not None and compensation.parameter == lever.param and not compensation.changes_play \
        and compensation.adds_to_score and compensation.tiebreak_column is not None


def start_vector(spec: BalanceSpec, design: dict, n: int) -> tuple[int, ...] | None:
    """The start vector a design sets at ``n`` players (seat 1 as the rulebook's), or None."""
    for lever in spec.levers:
        if lever.players == n:
            first = _game(spec, n, "{}").params.start_vector()[0]
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
def _game(spec: BalanceSpec, n: int, played_json: str):
    """The game of a played design at ``n`` players: parameters set, then each payout changed."""
    played = json.loads(played_json)
    params = dict(spec.params)
    payouts = []
    for lever in spec.levers:
        if lever.component and lever.label in played:
            payouts.append((lever.component, played[lever.label]))
        elif lever.players and param_names(spec, lever)[0] in played:
            first = _game(spec, n, "{}").params.start_vector()[0]
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
    game = _game(spec, n, played_json)
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
    game = _game(spec, n, "{}")
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


# --- measures and objectives


def changed_levers(spec: BalanceSpec, design: dict) -> dict[str, float]:
    """The design's parameters (``param_names``: a start vector one per seat) whose value is not the
    rulebook's, each with how far it moved as a share of its lever's range (a choice or flag: 1)."""
    rulebook = rulebook_design(spec)
    moved = {}
    for lever in spec.levers:
        for name in param_names(spec, lever):
            if design[name] == rulebook[name]:
                continue
            numeric = not lever.choices and isinstance(design[name], int) and not isinstance(design[name], bool)
            moved[name] = abs(design[name] - rulebook[name]) / max(lever.high - lever.low, 1) if numeric else 1.0
    return moved


def _design_estimate(spec: BalanceSpec, measure: Measure, design: dict) -> Estimate:
    """A measure of the design itself (``changes``): exact, so no variance and a point interval."""
    moved = changed_levers(spec, design)
    value = float(len(moved) if measure.by == "levers" else sum(moved.values()))
    return Estimate(value, 0.0, value, value)


def measure_values(spec: BalanceSpec, measure: Measure, outcomes: dict[int, Outcomes], design: dict) -> dict:
    """``measure`` per player count: its Estimate (``sim.stats.balance``: a value, or a matrix for a
    matchup, with its variance and interval; a measure of the design alike at every count)."""
    if measure.name in DESIGN_MEASURES:
        return {n: _design_estimate(spec, measure, design) for n in measure.players}
    every = all_strategies(spec)
    strategies = [every.index(s) for s in measure.strategies]
    values = {}
    for n in measure.players:
        vector = start_vector(spec, design, n)
        values[n] = measure_estimate(measure.name, outcomes[n], vector, matchup_pairs(spec), strategies)
    return values


def measure_loss(spec: BalanceSpec, measure: Measure, estimate: Estimate, n: int, design: dict, outcomes: Outcomes,
                 rulebook: tuple | None = None) -> float:
    """How far ``estimate`` (``measure`` at ``n`` players of ``design``, played as ``outcomes``) is from
    its target, unbiased there (``sim.stats.balance.measure_loss``): for a win rate (``RATE_MEASURES``)
    in squared percentage points, pp². ``rulebook``: the rulebook's (outcomes by player count, design)
    on the same deals, for a "rulebook" target (a relative excess, without unit)."""
    target = measure.target
    if target != "rulebook" or rulebook is None:
        return loss_of(target, estimate, n) * (PP2 if measure.name in RATE_MEASURES else 1.0)
    rule_outcomes, rule_design = rulebook
    base = measure_values(spec, measure, rule_outcomes, rule_design)[n]
    paired = difference_variance(measure.name, outcomes, rule_outcomes[n], start_vector(spec, design, n),
                                 start_vector(spec, rule_design, n))
    return loss_of(target, estimate, n, base, paired)


def measure_keys(spec: BalanceSpec) -> list[str]:
    """Each measure's name in the results: its own, numbered only where the spec names it twice."""
    names = [m.name for m in spec.measures]
    return [f"{name}:{names[:i].count(name) + 1}" if names.count(name) > 1 else name for i, name in enumerate(names)]


def objective_values(spec: BalanceSpec, outcomes: dict[int, Outcomes], design: dict,
                     rulebook: tuple | None = None) -> tuple[list[float], dict]:
    """The objectives of a design (one weighted sum, or one per measure for a pareto search) and every
    measure's Estimate by player count. ``rulebook``: the rulebook design's (outcomes by player count,
    design) on the same deals, for "rulebook" targets."""
    values = {key: measure_values(spec, m, outcomes, design) for key, m in zip(measure_keys(spec), spec.measures,
                                                                                  strict=True)}
    losses = []
    for (_, by_n), measure in zip(values.items(), spec.measures, strict=True):
        losses.append(measure.weight * float(np.mean([
            measure_loss(spec, measure, estimate, n, design, outcomes[n], rulebook) for n, estimate in by_n.items()])))
    return ([float(sum(losses))] if spec.objective == "weighted" else losses), values


def _taken(outcomes: dict[int, Outcomes], members: dict, sample: np.ndarray) -> dict[int, Outcomes]:
    """The games of the deals ``sample`` ((D,) int64 deal positions, repeats allowed) per player count."""
    return {n: o.take(np.concatenate([members[n][i] for i in sample])) for n, o in outcomes.items()}


# --- the search


def _sampler(spec: BalanceSpec, step: int):
    """The sampler of step ``step``, seeded with (seed, step): a resumed study asks the same."""
    import optuna

    seed = int(np.random.SeedSequence(spec.seed, spawn_key=(step,)).generate_state(1)[0])
    if spec.sampler == "tpe":
        return optuna.samplers.TPESampler(seed=seed, n_startup_trials=8, multivariate=True)
    if spec.sampler == "nsga2":
        return optuna.samplers.NSGAIISampler(seed=seed, population_size=12)
    if spec.sampler == "cmaes":
        return optuna.samplers.CmaEsSampler(seed=seed, n_startup_trials=4, warn_independent_sampling=False)
    return optuna.samplers.RandomSampler(seed=seed)


def _study(spec: BalanceSpec, directory: Path):
    import optuna
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = JournalStorage(JournalFileBackend(str(directory / JOURNAL)))
    directions = ["minimize"] * (1 if spec.objective == "weighted" else len(spec.measures))
    # resources are deals: a design is judged against the others at the first rung's deals, then at
    # each rung that many times more (3: a third go on), so a rung of the spec is where it is judged
    pruner = (optuna.pruners.SuccessiveHalvingPruner(min_resource=spec.deals[0], reduction_factor=REDUCTION)
              if spec.objective == "weighted" and len(spec.deals) > 1 else optuna.pruners.NopPruner())
    return optuna.create_study(storage=storage, study_name=spec.study_id, directions=directions,
                               sampler=_sampler(spec, 0), pruner=pruner, load_if_exists=True)


def run_balance(spec: BalanceSpec, out: str | Path = "runs", jobs: int = 1, resume: bool = False,
                on_progress: ProgressCallback | None = None, on_stage: Callable[[str], None] | None = None,
                client=None) -> StudyResult:
    """Search until the budget (or the trial count) is spent, then confirm the finalists."""
    check_budget(spec)
    directory = Path(out) / spec.study_id
    with open_session(STUDY, spec.study_id, spec.to_dict(), directory, resume, jobs, spec.budget,
                      lambda: {"games": 0, "trials": {}}, on_progress, on_stage) as session:
        session.meta["profile"] = {str(n): _game(spec, n, "{}").profile.to_json() for n in spec.players}
        session.meta["played"] = played_facts(spec)
        write_toml(directory / STUDY.spec_file, spec.to_dict())
        session.save()
        played, study = _search(spec, session, client)
        _write_trials(directory, spec, session.meta)
        importances(study).to_csv(directory / "importances.csv", index=False)
        played += confirm(spec, directory, study, session.meta, jobs, client, session.stage)
        session.count(played, session.done)
    return session.result()


def _search(spec: BalanceSpec, session: Session, client):
    """The trials of the search, until the budget or the trial count is spent; returns the games played
    now and the Optuna study. Each trial is in the marker as soon as it is judged."""
    from optuna.trial import TrialState

    directory, meta, jobs = session.directory, session.meta, session.jobs
    study = _study(spec, directory)
    for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study.tell(trial.number, state=TrialState.FAIL)  # cut off by a kill: asked again, with the same values
        study.enqueue_trial(dict(trial.params))
    played_now = 0
    rulebook = rulebook_design(spec)
    meta.setdefault("paid", {})  # every chunk a finished trial (or the rulebook) used: its games count once
    reference = {}  # rung -> the rulebook's measure values on that rung's deals
    for rung, deals in enumerate(spec.deals):
        outcomes, used, games = evaluate(spec, directory, rulebook, deals, spec.seed, jobs, client)
        played_now += games
        _pay(meta, used)
        reference[rung] = (outcomes, rulebook)
    finished = (TrialState.COMPLETE, TrialState.PRUNED)
    space = distributions(spec)
    if not study.get_trials(deepcopy=False) and _in_space(spec, rulebook):
        study.enqueue_trial(rulebook)  # trial 0: the rulebook's design, the bar every other must beat
    best = min((t.values[0] for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
                if len(t.values) == 1), default=None)
    while True:
        done = study.get_trials(deepcopy=False, states=finished)
        if len(done) >= spec.trials or meta["games"] >= spec.budget:
            break
        step = len(done)  # trials are numbered by step: a kill's failed trial takes no number of ours
        study.sampler = _sampler(spec, step)
        trial = study.ask(space)
        trial.set_user_attr("step", step)
        design = dict(trial.params)
        record = {"design": design, "rungs": []}
        used = {}
        for rung, deals in enumerate(spec.deals):
            outcomes, used_here, games = evaluate(spec, directory, design, deals, spec.seed, jobs, client)
            used |= used_here
            played_now += games
            values, measures = objective_values(spec, outcomes, design, reference[rung])
            record["rungs"].append({"deals": deals, "objective": values, "measures": _jsonable(measures)})
            if len(values) == 1 and rung < len(spec.deals) - 1:
                trial.report(values[0], deals)
                if trial.should_prune():
                    study.tell(trial, state=TrialState.PRUNED)
                    record["state"] = "pruned"
                    break
        else:
            study.tell(trial, values)
            record["state"] = "complete"
            if len(values) == 1 and (best is None or values[0] < best):
                best = values[0]
                session.stage(f"trial {step}: best objective so far {best:.4f}")
        record["games"] = _pay(meta, used)
        meta["trials"][str(step)] = record
        session.save()
        session.progress(min(meta["games"], spec.budget))
    return played_now, study


def _pay(meta: dict, used: dict[str, int]) -> int:
    """Count the chunks in ``used`` not paid for yet (the budget counts each game once, whatever a
    kill and a resume did); returns their games."""
    new = {key: rows for key, rows in used.items() if key not in meta["paid"]}
    meta["paid"] |= new
    meta["games"] = meta.get("games", 0) + sum(new.values())
    return sum(new.values())


def _in_space(spec: BalanceSpec, design: dict) -> bool:
    """Whether every lever's range (or choices) holds the design's value."""
    game = _game(spec, spec.players[0], "{}")
    for lever in spec.levers:
        choices = lever_choices(lever, game) if lever.param else ()
        for name in param_names(spec, lever):
            value = design.get(name)
            if not (value in choices if choices else isinstance(value, int) and lever.low <= value <= lever.high):
                return False
    return True


def _jsonable(measures: dict) -> dict:
    """Each measure's values by player count (the Estimates' values) as JSON."""
    return {key: {str(n): (np.asarray(e.value).tolist() if np.ndim(e.value) else float(e.value))
                  for n, e in by_n.items()} for key, by_n in measures.items()}


def _write_trials(directory: Path, spec: BalanceSpec, meta: dict) -> None:
    """``trials.csv``: per trial its state, the rung it reached, its objective(s) there and its design."""
    rows = []
    for number, record in sorted(meta["trials"].items(), key=lambda kv: int(kv[0])):
        last = record["rungs"][-1]
        rows.append({"trial": int(number), "state": record.get("state", ""), "deals": last["deals"],
                     **{f"objective{i}" if i else "objective": v for i, v in enumerate(last["objective"])},
                     **record["design"]})
    pd.DataFrame(rows).to_csv(directory / "trials.csv", index=False)


def importances(study) -> pd.DataFrame:
    """Each parameter's importance per objective (Optuna's PED-ANOVA over the complete trials):
    ``objective, parameter, importance``; empty with fewer than two complete trials."""
    import optuna
    from optuna.trial import TrialState

    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    rows = []
    for index in range(len(study.directions)):
        if len(complete) < 2:
            break
        try:
            with warnings.catch_warnings():  # e.g. "importances will be equal" when few trials differ
                warnings.simplefilter("ignore")
                found = optuna.importance.get_param_importances(
                    study, evaluator=optuna.importance.PedAnovaImportanceEvaluator(),
                    target=(lambda t, i=index: t.values[i]) if len(study.directions) > 1 else None)
        except (ValueError, RuntimeError):  # every trial alike: nothing to apportion
            continue
        rows += [{"objective": index, "parameter": name, "importance": float(value)} for name, value in found.items()]
    return pd.DataFrame(rows, columns=["objective", "parameter", "importance"])


# --- confirmation on fresh deals


def finalists(spec: BalanceSpec, study) -> list:
    """The best complete trials (one objective) or the Pareto set, at most ``finalists``, each design
    once and none the rulebook's (it is played beside them anyway)."""
    from optuna.trial import TrialState

    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    ranked = (sorted(complete, key=lambda t: (t.values[0], _step(t))) if spec.objective == "weighted"
              else sorted(study.best_trials, key=lambda t: (sum(t.values), _step(t))))
    chosen, seen = [], {json.dumps(rulebook_design(spec), sort_keys=True, default=str)}  # the reference already
    for trial in ranked:  # a design asked twice is one finalist
        key = json.dumps(trial.params, sort_keys=True, default=str)
        if key not in seen and len(chosen) < spec.finalists:
            seen.add(key)
            chosen.append(trial)
    return chosen


def confirm(spec: BalanceSpec, directory: Path, study, meta: dict, jobs: int, client,
            on_stage: Callable[[str], None] | None) -> int:
    """Play the finalists and the rulebook's design on fresh deals (seed + 1): ``finalists.csv`` gets
    every measure with its 95 % interval and, where the measure has a tolerance, whether it meets its
    target within it (two one-sided tests, ``target_verdicts``); the objective on the fresh deals (the
    answer; the search's own is the discovery estimate, larger than it will be on fresh deals), and
    its paired difference from the rulebook's with a bootstrap interval over deals."""
    chosen = finalists(spec, study)
    deals = confirm_deals(spec)
    meta["confirm_deals"] = deals
    if on_stage and chosen:
        on_stage(f"confirming {len(chosen)} finalist{'s' if len(chosen) != 1 else ''} on {deals:,} "
                 f"fresh deals per player count")
    rulebook = rulebook_design(spec)
    designs = [("rulebook", rulebook)] + [(f"trial {_step(t)}", dict(t.params)) for t in chosen]
    games = 0
    fresh = {}
    for label, design in designs:
        outcomes, _, played_games = evaluate(spec, directory, design, deals, spec.seed + 1, jobs, client,
                                             folder="confirm")
        games += played_games
        fresh[label] = outcomes
    rows = [_confirmed(spec, label, design, fresh[label], (fresh["rulebook"], rulebook), meta)
            for label, design in designs]
    pd.DataFrame(rows).to_csv(directory / "finalists.csv", index=False)
    if spec.objective == "weighted" and chosen:
        write_json(directory / "best.json", near_best(spec, directory, study, jobs, client))
    return games


def rung_games(spec: BalanceSpec, deals: int) -> int:
    """The games one design plays on a rung of ``deals`` deals, over every player count."""
    return sum(len(design_games(spec, n, np.arange(deals))[0]) for n in spec.players)


def check_budget(spec: BalanceSpec) -> None:
    """A one-line error unless the budget pays for the rulebook's design on every rung (the bar every
    trial is measured against) and one more design's first rung: a smaller one searches nothing."""
    rulebook = sum(rung_games(spec, deals) for deals in spec.deals)
    need = rulebook + rung_games(spec, spec.deals[0])
    if spec.budget < need:
        raise SpecError(f"search.budget = {spec.budget:,} games cannot pay for one trial: the rulebook's design "
                        f"on every rung plays {rulebook:,} games and a trial's first rung {need - rulebook:,}, so "
                        f"the budget must be at least {need:,}")


def confirm_deals(spec: BalanceSpec) -> int:
    """Fresh deals per player count of the confirmation: the spec's number, or for "auto" the most
    any seat measure needs for its tolerance and power (``sim.stats.equivalence.plan_seat_games``:
    one population game per deal), capped by ``confirm.most``."""
    if spec.confirm_deals != "auto":
        return int(spec.confirm_deals)
    seat_measures = [m for m in spec.measures if m.name in ("seat_imbalance", "first_seat")]
    if not seat_measures:
        return min(spec.confirm_most, 1000)
    needed = max(plan_seat_games(n, spec.tolerance) for m in seat_measures for n in m.players)
    return int(min(spec.confirm_most, needed))


def near_best(spec: BalanceSpec, directory: Path, study, jobs: int = 1, client=None) -> dict:
    """The best design and the designs the search's deals cannot tell from it: every complete trial
    whose objective minus the best's has a paired bootstrap interval (over the last rung's deals)
    reaching 0. Each lever's range over them is the answer's interval: a statement about the
    search's own deals (the discovery), which the finalists' fresh deals check."""
    from optuna.trial import TrialState

    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    best = min(complete, key=lambda t: (t.values[0], _step(t)))
    deals = spec.deals[-1]
    rulebook = rulebook_design(spec)
    rule_outcomes = evaluate(spec, directory, rulebook, deals, spec.seed, jobs, client)[0]
    rule_members = {n: deal_members(o) for n, o in rule_outcomes.items()}
    seed = int(np.random.SeedSequence(spec.seed, spawn_key=(98,)).generate_state(1)[0])
    picks = np.random.default_rng(seed).integers(0, deals, (REPLICATES // 2, deals))
    designs = {}
    for trial in sorted(complete, key=_step):  # a design asked again is its first trial
        designs.setdefault(json.dumps(trial.params, sort_keys=True, default=str), trial)
    samples = {}
    for key, trial in designs.items():
        outcomes = evaluate(spec, directory, dict(trial.params), deals, spec.seed, jobs, client)[0]
        members = {n: deal_members(o) for n, o in outcomes.items()}
        samples[key] = np.array([sum(objective_values(
            spec, _taken(outcomes, members, s), dict(trial.params),
            (_taken(rule_outcomes, rule_members, s), rulebook))[0]) for s in picks])
    best_key = json.dumps(best.params, sort_keys=True, default=str)
    close = [key for key in designs if np.percentile(samples[key] - samples[best_key], 2.5) <= 0]
    ranges = {}
    for name in best.params:
        values = [designs[key].params[name] for key in close]
        numeric = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        ranges[name] = [min(values), max(values)] if numeric else sorted(set(values), key=str)
    return {"trial": _step(best), "design": dict(best.params), "objective": best.values[0], "deals": deals,
            "is_rulebook": best_key == json.dumps(rulebook, sort_keys=True, default=str),
            "designs": len(designs),
            "indistinguishable": sorted(_step(designs[key]) for key in close), "ranges": ranges}


def _step(trial) -> int:
    """A trial's number in the search (its step), whatever trials a kill failed before it."""
    return int(trial.user_attrs["step"])


def target_verdicts(spec: BalanceSpec, measure: Measure, estimate: Estimate, outcomes: Outcomes, n: int,
                    design: dict) -> Equivalence | None:
    """Whether ``measure`` at ``n`` players meets its target within its tolerance on these games (two
    one-sided tests, ``sim.stats.equivalence``): every seat within ``seat_pp`` of its fair share for
    seat imbalance; the first seat's rate, or every matchup cell, within ``seat_pp`` of its target;
    any other measure with a numeric target within the measure's own ``tolerance``. None where no
    tolerance applies (a "min" or "rulebook" target without one)."""
    seat_tolerance = spec.tolerance.seat_pp / 100
    alpha = spec.tolerance.alpha
    deals = len(np.unique(outcomes.deal))
    if measure.name == "seat_imbalance":
        rates, cov, _ = seat_covariance(outcomes, start_vector(spec, design, n))
        return equivalence(rates - 1.0 / n, np.sqrt(np.diag(cov)), seat_tolerance, deals, alpha, k=seat_tests(n))
    if measure.name == "matchup":
        value, variance = np.asarray(estimate.value), np.asarray(estimate.variance)
        target = np.asarray(measure.target)
        upper = np.triu_indices(len(value), 1)
        return equivalence((value - target)[upper], np.sqrt(variance[upper]), measure.tolerance or seat_tolerance,
                           deals, alpha)
    if measure.target in ("min", "rulebook"):
        return None
    goal = 1.0 / n if measure.target == "fair" else float(measure.target)
    tolerance = measure.tolerance or (seat_tolerance if measure.name == "first_seat" else None)
    if tolerance is None:
        return None
    return equivalence(float(estimate.value) - goal, np.sqrt(float(estimate.variance)), tolerance, deals, alpha, k=1)


def _confirmed(spec: BalanceSpec, label: str, design: dict, outcomes: dict[int, Outcomes], rulebook: tuple,
               meta: dict) -> dict:
    """One row of ``finalists.csv``: ``design`` on the fresh deals."""
    row = {"design": label, **{f"lever:{k}": v for k, v in design.items()}}
    values, measures = objective_values(spec, outcomes, design, rulebook)
    number = None if label == "rulebook" else int(label.split()[1])
    search = meta["trials"].get(str(number), {}).get("rungs", [{}])[-1] if number is not None else {}
    row["objective"] = values[0] if len(values) == 1 else float(sum(values))
    row["search_objective"] = (search.get("objective") or [np.nan])[0] if number is not None else np.nan
    seed = int(np.random.SeedSequence(spec.seed, spawn_key=(99,)).generate_state(1)[0])
    deals = len(deal_members(next(iter(outcomes.values()))))
    picks = np.random.default_rng(seed).integers(0, deals, (REPLICATES, deals))
    rule_outcomes, rule_design = rulebook
    members = {n: deal_members(o) for n, o in outcomes.items()}
    rule_members = {n: deal_members(o) for n, o in rule_outcomes.items()}

    def objective_on(sample: np.ndarray, which: dict[int, Outcomes], which_members: dict, which_design: dict) -> float:
        reference = (_taken(rule_outcomes, rule_members, sample), rule_design)
        return float(sum(objective_values(spec, _taken(which, which_members, sample), which_design, reference)[0]))

    diffs = np.array([objective_on(s, outcomes, members, design) - objective_on(s, rule_outcomes, rule_members,
                                                                                rule_design) for s in picks])
    row["vs_rulebook"] = float(row["objective"] - sum(objective_values(spec, rule_outcomes, rule_design,
                                                                           rulebook)[0]))
    row["vs_rulebook_low"], row["vs_rulebook_high"] = np.percentile(diffs, [2.5, 97.5]).tolist()
    row["better"] = None if label == "rulebook" else bool(row["vs_rulebook_high"] < 0)
    moved = changed_levers(spec, design)
    row["levers_changed"], row["changed_levers"] = len(moved), "; ".join(moved)
    verdicts = []
    for key, by_n in measures.items():
        measure = spec.measures[measure_keys(spec).index(key)]
        if measure.name in DESIGN_MEASURES:  # the same at every player count: one column, exact
            row[key] = float(next(iter(by_n.values())).value)
            continue
        for n, estimate in by_n.items():
            name = measure_column(key, n)
            row |= _estimate_cells(name, measure, estimate)
            verdict = target_verdicts(spec, measure, estimate, outcomes[n], n, design)
            if verdict is not None:
                row[f"{name}_outcome"] = verdict.outcome
                verdicts.append(verdict)
    row["outcome"] = _overall(verdicts)
    unsure = [v.games_to_tell for v in verdicts if v.outcome == CANNOT_TELL and np.isfinite(v.games_to_tell)]
    row["deals_to_tell"] = float(max(unsure)) if unsure else None
    return row


def measure_column(key: str, n: int) -> str:
    """A measure's column in finalists.csv: its key (``measure_keys``) at ``n`` players, a win rate's
    name followed by its unit (``UNITS``): ``seat_imbalance_pp2@3p``, ``first_seat_pct:2@4p``."""
    name = key.split(":")[0]
    unit = UNITS.get(name)
    return f"{key if unit is None else f'{name}_{unit[0]}{key[len(name):]}'}@{n}p"


def _estimate_cells(name: str, measure: Measure, estimate: Estimate) -> dict:
    """The numeric cells of an estimate in its unit: ``name``, ``name_low``, ``name_high`` (a matchup:
    those of each cell, ``name[row vs column]``, its row's win rate against its column's), and for
    seat imbalance its noise floor and whether it cannot be told from perfect balance."""
    scale = UNITS.get(measure.name, ("", 1.0))[1]
    if not np.ndim(estimate.value):
        cells = {name: float(estimate.value) * scale, f"{name}_low": float(estimate.low) * scale,
                 f"{name}_high": float(estimate.high) * scale}
        if measure.name == "seat_imbalance":
            cells |= {f"{name}_noise": estimate.noise * scale, f"{name}_at_target": bool(estimate.at_target)}
        return cells
    value, low, high = (np.asarray(v, dtype=np.float64) * scale for v in (estimate.value, estimate.low,
                                                                          estimate.high))
    cells = {}
    for i, a in enumerate(measure.strategies):
        for j, b in enumerate(measure.strategies):
            if i != j:
                cell = f"{name}[{a} vs {b}]"
                cells |= {cell: value[i, j], f"{cell}_low": low[i, j], f"{cell}_high": high[i, j]}
    return cells


def _overall(verdicts: list[Equivalence]) -> str | None:
    """A design's verdict over its measures: off if any is off, held if every one held, else cannot
    tell; None where no measure has a tolerance."""
    if not verdicts:
        return None
    outcomes = {v.outcome for v in verdicts}
    return OFF if OFF in outcomes else HELD if outcomes == {HELD} else CANNOT_TELL


# --- bookkeeping


def read_study(directory: str | Path) -> dict:
    return read_meta(Path(directory), STUDY.marker, STUDY.noun)


def read(directory: str | Path) -> pl.LazyFrame:
    """The trials of a finished search (``bgsim.load``): trials.csv, one row per trial with its design
    and measures (the search keeps the games of a trial only as chunks of outcomes)."""
    directory = Path(directory)
    meta = read_study(directory)
    if meta.get("status") != "complete":
        raise RunStoreError(f"{directory.name}: the balance study is {meta.get('status')}; finish it with --resume")
    return pl.from_pandas(csv_or_empty(directory / "trials.csv")).lazy()


def contents(directory: str | Path) -> StudyContents:
    """What the balance report reads (``reports.balance_report.report``): the finalists, the best
    design and the levers' importances."""
    directory = Path(directory)
    meta = read_study(directory)
    spec = tomllib.loads((directory / STUDY.spec_file).read_text(encoding="utf-8"))
    profile = GameProfile.from_json(next(iter(meta["profile"].values())))
    best = directory / "best.json"
    parts = {"spec": spec, "finalists": read_finalists(directory),
             "best": json.loads(best.read_text()) if best.exists() else {},
             "importances": csv_or_empty(directory / "importances.csv")}
    games = meta.get("games", 0)
    return StudyContents(STUDY.kind, meta, profile, games, max(games, spec.get("search", {}).get("budget", games)),
                         resume_command(directory), meta.get("played") or {}, parts)


def read_finalists(directory: str | Path) -> pd.DataFrame:
    """``finalists.csv`` of a study (empty before the confirmation). One written before its columns had
    units (win rates as fractions, a matchup matrix as JSON text in one cell) is converted on reading,
    so that a stored study still renders; a cell that cannot be read is a one-line RunStoreError."""
    path = Path(directory) / "finalists.csv"
    try:
        rows = pd.read_csv(path)
    except (FileNotFoundError, pd.errors.EmptyDataError):
        return pd.DataFrame()
    return _with_units(rows, _matchup_strategies(Path(directory)), path)


def _matchup_strategies(directory: Path) -> dict[str, list[str]]:
    """Each matchup measure's key (``measure_keys``) -> its strategies, from the stored spec."""
    try:
        measures = tomllib.loads((directory / STUDY.spec_file).read_text(encoding="utf-8")).get("measure", [])
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    names = [m.get("name", "") for m in measures]
    keys = [f"{name}:{names[:i].count(name) + 1}" if names.count(name) > 1 else name for i, name in enumerate(names)]
    return {key: list(m.get("strategies", [])) for key, m in zip(keys, measures, strict=True)}


def _with_units(rows: pd.DataFrame, strategies: dict[str, list[str]], path: Path) -> pd.DataFrame:
    """``rows`` with every win-rate column of the old form (``first_seat@4p``: a fraction) in the
    current one (``first_seat_pct@4p``: percent); current columns as they are."""
    out = {}
    for column in rows.columns:
        key, _, at = column.partition("@")
        name = key.split(":")[0]
        if column.startswith("lever:") or not at or name not in UNITS:
            out[column] = rows[column]
            continue
        unit, scale = UNITS[name]
        players, _, suffix = at.partition("_")  # "4p", "low" | "high" | "noise" | "at_target" | "outcome" | ""
        stem = f"{name}_{unit}{key[len(name):]}@{players}"
        if suffix in ("at_target", "outcome"):
            out[f"{stem}_{suffix}"] = rows[column]
        elif name == "matchup":
            out |= _matrix_cells(rows[column], stem, suffix, strategies.get(key, []), scale, f"{path}: {column}")
        else:
            out[f"{stem}{'_' + suffix if suffix else ''}"] = pd.to_numeric(rows[column], errors="coerce") * scale
    return pd.DataFrame(out, index=rows.index)


def _matrix_cells(cells: pd.Series, stem: str, suffix: str, strategies: list[str], scale: float,
                  where: str) -> dict[str, list[float]]:
    """A column of matrices written as JSON text, one numeric column per cell off the diagonal
    (``stem[row vs column]``, then ``_low``/``_high``)."""
    k = len(strategies)
    out = {f"{stem}[{a} vs {b}]{'_' + suffix if suffix else ''}": [] for a in strategies for b in strategies if a != b}
    for text in cells:
        try:
            matrix = np.full((k, k), np.nan) if pd.isna(text) else np.asarray(json.loads(text), dtype=np.float64)
        except (TypeError, ValueError):
            raise RunStoreError(f"{where}: {text!r} is not a matrix of win rates") from None
        if matrix.shape != (k, k):
            raise RunStoreError(f"{where}: a {'x'.join(map(str, matrix.shape))} matrix for the {k} strategies the "
                                f"spec's matchup names")
        for column, (i, j) in zip(out, [(i, j) for i in range(k) for j in range(k) if i != j], strict=True):
            out[column].append(float(matrix[i, j]) * scale)
    return out


def played_facts(spec: BalanceSpec) -> dict:
    blocks = []
    for n in spec.players:
        game = _game(spec, n, "{}")
        blocks.append({"game_id": game.id, "rules_version": game.version, "data_files": game.data_files,
                       "strategies": all_strategies(spec)})
    meta = {"blocks": blocks, "seeds": {"seed": spec.seed}, "git": git_state(), "versions": package_versions()}
    return played([meta], spec.to_dict())
