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

import json
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
from bgsim.experiments.balance_play import (
    all_strategies,
    design_game,
    design_games,
    distributions,
    evaluate,
    matchup_pairs,
    param_names,
    rulebook_design,
    start_vector,
)
from bgsim.experiments.balance_spec import DESIGN_MEASURES, BalanceSpec, Measure, lever_choices
from bgsim.experiments.runner import git_state, package_versions
from bgsim.experiments.studies import study_named
from bgsim.experiments.study import Session, StudyResult, open_session
from bgsim.sim.results.played import played
from bgsim.sim.results.spec import SpecError
from bgsim.sim.results.store import write_json, write_toml
from bgsim.sim.stats.balance import (
    Estimate,
    Outcomes,
    deal_members,
    difference_variance,
    measure_estimate,
    seat_covariance,
)
from bgsim.sim.stats.balance import measure_loss as loss_of
from bgsim.sim.stats.equivalence import CANNOT_TELL, HELD, OFF, Equivalence, equivalence, plan_seat_games, seat_tests

__all__ = ["STUDY", "UNITS", "changed_levers", "measure_column", "objective_values", "run_balance"]

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
        session.meta["profile"] = {str(n): design_game(spec, n, "{}").profile.to_json() for n in spec.players}
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
    game = design_game(spec, spec.players[0], "{}")
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


def played_facts(spec: BalanceSpec) -> dict:
    blocks = []
    for n in spec.players:
        game = design_game(spec, n, "{}")
        blocks.append({"game_id": game.id, "rules_version": game.version, "data_files": game.data_files,
                       "strategies": all_strategies(spec)})
    meta = {"blocks": blocks, "seeds": {"seed": spec.seed}, "git": git_state(), "versions": package_versions()}
    return played([meta], spec.to_dict())
