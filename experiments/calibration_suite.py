"""The calibration suite: every kind of interval and verdict a report prints, tried at a known truth.

Each check plants a truth, draws many independent replicates of what a study would measure, and
counts how often the interval covers the truth (coverage, nominally 95 %) or how often a verdict
comes out wrong (false flags, false "held", false "off": nominally at most alpha, 5 %). A check
passes when the count is within binomial bounds of its nominal level: coverage at least
``nominal - Z * se``, a false rate at most ``nominal + Z * se``, with se the binomial standard error
over the replicates and Z = 3.09 (one-sided 99.9 %), so that a sound method fails a check by chance
about once in a thousand.

Truths are planted two ways:

- **games**: a fast game declares how it is played for the suite (its entry's ``calibration``
  part, a ``GameCalibration``: the lab's small test game, Sealed Bids). It is played in a large run
  whose rates stand in for the truth (hundreds of thousands of games; their own error is a few per
  cent of a replicate's), and in an independent run cut into replicates of whole deals. Mixed tables
  play each deal in every seating, so they test the clustering by deal;
- **planted**: numbers drawn with a known answer (multinomial seats, exchangeable components,
  paired changes with deal effects), for truths a game cannot be set to exactly (a seat exactly at
  the tolerance, components alike in distribution).

Some checks run the method a study used before (``replaced``): they are expected to fail, and the
table says so; they show what each check can catch.

``python -m bgsim.experiments.calibration_suite`` runs the full suite (``make calibrate``) and prints
the table; ``--quick`` runs the short form that ``make test`` runs (tests/calibration/).
"""

import argparse
import functools
import math
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
from bgsim.sim.registry import available_games, make_game
from bgsim.sim.results.spec import RunSpec
from bgsim.sim.results.store import load
from bgsim.sim.stats.ablation import ablation_effects, deal_columns, fresh_check
from bgsim.sim.stats.balance import POPULATION, Outcomes, deal_members, measure_estimate, measure_loss
from bgsim.sim.stats.choice_value import ChoicePoint, choice_values, point_values
from bgsim.sim.stats.equivalence import HELD, OFF, equivalence, seat_tests
from bgsim.sim.stats.intervals import t_bounds, wilson
from bgsim.sim.stats.seats import change_findings, imbalance_table, paired_change, seat_table, start_effect
from scipy import stats

__all__ = ["CHECKS", "Check", "GameCalibration", "Result", "run_checks"]

Z_BOUND = 3.09  # one-sided 99.9 %: a sound method fails a check by chance about once in a thousand
NOMINAL = 0.95
ALPHA = 0.05


@dataclass(frozen=True)
class GameCalibration:
    """How a game is played for the suite (its entry's ``calibration`` part): its id, a strategy for
    self-play, four strategies for a mixed table (one per seat), a rule change that moves play (game
    parameters, and the change in words), and the parameters under which tied wins are shared."""

    game: str
    self_play: str
    mixed: tuple[str, ...]
    change: dict
    change_words: str
    shared: dict


def calibration_game() -> GameCalibration:
    """The first registered game that declares how the suite plays it."""
    for entry in available_games(unlisted=True).values():
        found = entry.parts.load("calibration")
        if found is not None:
            return found
    raise LookupError("no registered game declares a calibration part")


def _score() -> str:
    """The calibration game's final-score column (its profile's)."""
    return make_game(calibration_game().game).profile.score_column


def _start_parameter() -> str:
    """The calibration game's compensation parameter (its start vector)."""
    return make_game(calibration_game().game).profile.compensation.parameter


@dataclass(frozen=True)
class Result:
    """What a check counted: ``hits`` of ``trials`` (covered, or wrong verdicts), against ``nominal``
    (a coverage, or the largest false rate allowed) over ``replicates`` independent replicates."""

    hits: int
    trials: int
    nominal: float
    kind: str  # "coverage" (at least nominal) or "false rate" (at most nominal)
    replicates: int
    detail: str = ""

    @property
    def rate(self) -> float:
        return self.hits / self.trials if self.trials else float("nan")

    @property
    def bound(self) -> float:
        se = math.sqrt(self.nominal * (1 - self.nominal) / max(self.replicates, 1))
        return self.nominal - Z_BOUND * se if self.kind == "coverage" else self.nominal + Z_BOUND * se

    @property
    def passes(self) -> bool:
        return self.rate >= self.bound if self.kind == "coverage" else self.rate <= self.bound


@dataclass(frozen=True)
class Check:
    """One row of the suite: ``what`` is checked, at which ``truth``, by ``run(replicates, seed)``;
    ``replaced``: a method a study used before, expected to fail."""

    name: str
    what: str
    truth: str
    run: Callable[[int, int], Result]
    quick: int  # replicates of the short form (make test)
    full: int  # replicates of the full suite (make calibrate)
    replaced: bool = False


def _coverage(low, high, truth) -> tuple[int, int]:
    low, high, truth = (np.asarray(v, dtype=np.float64) for v in (low, high, truth))
    return int(((low <= truth) & (truth <= high)).sum()), int(low.size)


# --- games: the calibration game's runs, cut into replicates of whole deals


def _strategies(players: int, mixed: bool) -> tuple[str, ...]:
    """The calibration game's self-play strategy, or its mixed table's first ``players``."""
    cal = calibration_game()
    return cal.mixed[:players] if mixed else (cal.self_play,)


def _params(which: str | None) -> dict | None:
    """The calibration game's parameters for ``which``: "shared" (tied wins shared), "change" (its rule
    change), None (its rules)."""
    cal = calibration_game()
    return {"shared": cal.shared, "change": cal.change}.get(which) if which else None


class Played:
    """The calibration game's runs, made once per process and shared by the checks that read them."""

    def __init__(self):
        self.root = Path(tempfile.mkdtemp(prefix="bgsim-calibration-"))
        self.cache: dict = {}

    def rows(self, name: str, players: int, strategies: tuple[str, ...], games: int, seed: int,
             params: dict | None = None) -> pl.LazyFrame:
        from bgsim.experiments.runner import run

        key = (name, players, strategies, games, seed, tuple(sorted((params or {}).items())))
        if key not in self.cache:
            mode = "fixed" if len(strategies) == 1 else "permutations"
            seatings = 1 if mode == "fixed" else math.factorial(players)
            spec = RunSpec(name=f"{name}-{len(self.cache)}", game=calibration_game().game, players=(players,),
                           strategies=strategies,
                           mode=mode, games=games, chunk_size=max(seatings, (20_000 // seatings) * seatings),
                           seed=seed, tier="compiled", params=dict(params or {}))
            self.cache[key] = run(spec, out=self.root, jobs=1).run_dir
        return load(self.cache[key])

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


PLAYED: Played | None = None


def _played() -> Played:
    global PLAYED
    if PLAYED is None:
        PLAYED = Played()
    return PLAYED


def _replicates(rows: pl.LazyFrame, deals: int) -> pl.LazyFrame:
    """``rows`` labelled with their replicate (``population``): blocks of ``deals`` whole deals."""
    return rows.with_columns((pl.col("deal") // deals).cast(pl.String).alias("population"))


def _game_rows(players: int, strategies: tuple[str, ...], replicates: int, deals: int, seed: int,
               params: dict | None = None, name: str = "reps") -> pl.LazyFrame:
    seatings = 1 if len(strategies) == 1 else math.factorial(players)
    rows = _played().rows(name, players, strategies, replicates * deals * seatings, seed, params)
    return _replicates(rows, deals)


TRUTH_GAMES = {"quick": 240_000, "full": 1_200_000}  # games of a truth run: their error is a few % of a replicate's
_SIZE = {"truth": TRUTH_GAMES["quick"]}


def _truth_rows(players: int, strategies: tuple[str, ...], games: int | None = None, params: dict | None = None):
    seatings = 1 if len(strategies) == 1 else math.factorial(players)
    games = games or _SIZE["truth"]
    return _played().rows("truth", players, strategies, games // seatings * seatings, 7_777, params)


def _seat_truth(players, strategies, params=None, games=None) -> pd.Series:
    truth = seat_table(_truth_rows(players, strategies, games, params), _score())
    return truth.set_index("seat")["win_rate"]


def seat_rates(players: int, mixed: bool, which: str | None = None, naive: bool = False, games: int = 600):
    """Coverage of the seat table's win-rate intervals (clustered by deal), or of plain Wilson
    intervals that count every game as independent (``naive``: the method before), on replicates of
    about ``games`` games."""
    deals = games // (math.factorial(players) if mixed else 1)

    def run(replicates: int, seed: int) -> Result:
        strategies, params = _strategies(players, mixed), _params(which)
        truth = _seat_truth(players, strategies, params)
        table = seat_table(_game_rows(players, strategies, replicates, deals, seed, params), _score())
        truths = table["seat"].map(truth)
        if naive:
            low, high = wilson(table["wins"].to_numpy(), table["games"].to_numpy())
        else:
            low, high = table["win_rate_low"], table["win_rate_high"]
        hits, trials = _coverage(low, high, truths)
        return Result(hits, trials, NOMINAL, "coverage", replicates, f"{len(table) // players} replicates of "
                      f"{int(table['games'].iloc[0]):,} games")
    return run


def seat_means(players: int):
    """Coverage of the seat table's mean-score intervals on a mixed table (t, clustered by deal)."""
    deals = 600 // math.factorial(players)

    def run(replicates: int, seed: int) -> Result:
        strategies = _strategies(players, True)
        truth = seat_table(_truth_rows(players, strategies), _score()).set_index("seat")["mean_score"]
        table = seat_table(_game_rows(players, strategies, replicates, deals, seed), _score())
        hits, trials = _coverage(table["mean_score_low"], table["mean_score_high"], table["seat"].map(truth))
        return Result(hits, trials, NOMINAL, "coverage", replicates)
    return run


def start_effects(players: int):
    """Coverage of the paired start-vector effects on a mixed table (rulebook against equal start
    values, game by game, clustered by deal)."""
    seatings = math.factorial(players)
    deals = 600 // seatings

    def labelled(rows, start):
        return rows.with_columns(pl.lit(start).alias("start"))

    def effects(rulebook, equal):
        return start_effect(pl.concat([labelled(rulebook, "rulebook"), labelled(equal, "equal")]))

    def run(replicates: int, seed: int) -> Result:
        strategies = _strategies(players, True)
        truth_rows = [labelled(_truth_rows(players, strategies, params={_start_parameter(): s}), s).with_columns(
            pl.lit("all").alias("population")) for s in ("rulebook", "equal")]
        truth = start_effect(pl.concat(truth_rows)).set_index("seat")["diff_pp"]
        reps = [_game_rows(players, strategies, replicates, deals, seed, {_start_parameter(): s}) for s in
                ("rulebook", "equal")]
        table = effects(*reps)
        hits, trials = _coverage(table["diff_low"], table["diff_high"], table["seat"].map(truth))
        return Result(hits, trials, NOMINAL, "coverage", replicates)
    return run


def what_if_changes(players: int):
    """Coverage of the what-if's paired changes on a mixed table (the calibration game's rule change
    against its rules, on the same deals, clustered by deal)."""
    seatings = math.factorial(players)
    deals = 600 // seatings

    def run(replicates: int, seed: int) -> Result:
        strategies, variant = _strategies(players, True), _params("change")
        base_truth = _truth_rows(players, strategies).with_columns(pl.lit("all").alias("population"))
        var_truth = _truth_rows(players, strategies, params=variant).with_columns(pl.lit("all").alias("population"))
        truth = paired_change(base_truth, var_truth, _score()).set_index("seat")["win_pp"]
        base = _game_rows(players, strategies, replicates, deals, seed)
        changed = _game_rows(players, strategies, replicates, deals, seed, variant)
        table = paired_change(base, changed, _score())
        hits, trials = _coverage(table["win_low"], table["win_high"], table["seat"].map(truth))
        return Result(hits, trials, NOMINAL, "coverage", replicates)
    return run


def game_imbalance(players: int, mixed: bool):
    """Coverage of seat imbalance's interval on played games (truth: the mean squared gap of the
    large run's seat rates)."""
    deals = 2400 // (math.factorial(players) if mixed else 1)

    def run(replicates: int, seed: int) -> Result:
        strategies, params = _strategies(players, mixed), None
        rates = _seat_truth(players, strategies, params, 2 * _SIZE["truth"]).sort_index().to_numpy()
        truth = 1e4 * float(((rates - 1 / players) ** 2).mean())
        table = imbalance_table(_game_rows(players, strategies, replicates, deals, seed, params))
        hits, trials = _coverage(table["imbalance_low_pp2"], table["imbalance_high_pp2"], np.full(len(table), truth))
        return Result(hits, trials, NOMINAL, "coverage", replicates, f"truth {truth:.2f} pp²")
    return run


# --- planted truths


def _multinomial_shares(rng, rates: np.ndarray, games: int) -> np.ndarray:
    """(games, P) float64 one winner per game drawn with ``rates``."""
    winners = rng.choice(len(rates), games, p=rates)
    return np.eye(len(rates))[winners]


def _outcomes(shares: np.ndarray) -> Outcomes:
    """Population games (one per deal) whose seat shares are ``shares`` (G, P), as balance outcomes:
    the winner's base score 1 above the others."""
    g, p = shares.shape
    base = np.rint(shares).astype(np.int64)
    return Outcomes(deal=np.arange(g), pair=np.full(g, POPULATION), rotation=np.zeros(g, np.int64),
                    seat_strategy=np.zeros((g, p), np.int64), base=base, start=np.zeros(p, np.int64),
                    tiebreak=np.tile(np.arange(1, p + 1), (g, 1)), length=np.full(g, 10))


def planted_imbalance(players: int, gap_pp: float, games: int = 4000, replaced: bool = False):
    """Seat imbalance at a planted truth (seat 1 ``gap_pp`` above its share, the last seat as far
    below): coverage of its interval; ``replaced``: the best seat's rate minus the worst's with a
    percentile bootstrap over deals, against its truth."""
    rates = np.full(players, 1 / players)
    rates[0] += gap_pp / 100
    rates[-1] -= gap_pp / 100

    def run(replicates: int, seed: int) -> Result:
        rng = np.random.default_rng(seed)
        hits = 0
        for _ in range(replicates):
            shares = _multinomial_shares(rng, rates, games)
            if replaced:
                truth = rates.max() - rates.min()
                boots = []
                for _ in range(100):
                    pick = rng.integers(0, games, games)
                    r = shares[pick].mean(axis=0)
                    boots.append(r.max() - r.min())
                low, high = np.percentile(boots, [2.5, 97.5])
            else:
                truth = float(((rates - 1 / players) ** 2).mean())
                estimate = measure_estimate("seat_imbalance", _outcomes(shares))
                low, high = estimate.low, estimate.high
            hits += low <= truth <= high
        return Result(int(hits), replicates, NOMINAL, "coverage", replicates, f"{games:,} games each")
    return run


def planted_loss_bias(players: int = 3, games: int = 4000, replaced: bool = False):
    """A perfectly fair first seat: how often the loss's mean over replicates reads above 0 by more
    than its noise, per block of replicates (a biased loss does almost always). ``replaced``: the
    distance |rate - 1/n|."""
    rates = np.full(players, 1 / players)

    def run(replicates: int, seed: int) -> Result:
        rng = np.random.default_rng(seed)
        losses = []
        for _ in range(replicates):
            estimate = measure_estimate("first_seat", _outcomes(_multinomial_shares(rng, rates, games)))
            losses.append(abs(estimate.value - 1 / players) if replaced else measure_loss("fair", estimate, players))
        losses = np.array(losses)
        blocks = losses[: len(losses) // 20 * 20].reshape(20, -1)  # 20 blocks: their mean's t test against 0
        t = blocks.mean(axis=1) / (blocks.std(axis=1, ddof=1) / np.sqrt(blocks.shape[1]))
        wrong = int((stats.t.sf(t, blocks.shape[1] - 1) < ALPHA).sum())
        return Result(wrong, len(blocks), ALPHA, "false rate", len(blocks),
                      f"mean loss {losses.mean():+.2e} (truth 0)")
    return run


def planted_seat_verdicts(players: int, gap_pp: float, games: int = 8000, replaced: bool = False):
    """Seat verdicts within ±2 pp: with every seat fair (``gap_pp`` 0) the share called off; with
    seat 1 exactly at the tolerance (``gap_pp`` 2, the others sharing its excess) the share called
    held. ``replaced``: "every seat's 95 % interval contains the fair share" as held: wrong when it
    is not held with every seat fair, or held at the tolerance."""
    rates = np.full(players, 1 / players)
    rates[0] += gap_pp / 100
    rates[1:] -= gap_pp / 100 / (players - 1)

    def run(replicates: int, seed: int) -> Result:
        rng = np.random.default_rng(seed)
        wrong = 0
        for _ in range(replicates):
            shares = _multinomial_shares(rng, rates, games)
            rate = shares.mean(axis=0)
            if replaced:
                low, high = wilson(shares.sum(axis=0), np.full(players, games))
                held = bool(((low <= 1 / players) & (1 / players <= high)).all())
                wrong += (not held) if gap_pp == 0 else held
                continue
            se = np.sqrt(rate * (1 - rate) / games)
            verdict = equivalence(rate - 1 / players, se, 0.02, games, ALPHA, k=seat_tests(players))
            wrong += verdict.outcome == (OFF if gap_pp == 0 else HELD)
        return Result(wrong, replicates, ALPHA, "false rate", replicates)
    return run


def planted_seat_verdicts_tight(players: int = 4, gap_pp: float = 1.5, games: int = 4800):
    """A tolerance of ±1 pp and seat 1 truly 1.5 pp off (the others sharing its excess): the share
    wrongly called held within the tolerance."""
    rates = np.full(players, 1 / players)
    rates[0] += gap_pp / 100
    rates[1:] -= gap_pp / 100 / (players - 1)

    def run(replicates: int, seed: int) -> Result:
        rng = np.random.default_rng(seed)
        wrong = 0
        for _ in range(replicates):
            rate = _multinomial_shares(rng, rates, games).mean(axis=0)
            se = np.sqrt(rate * (1 - rate) / games)
            wrong += equivalence(rate - 1 / players, se, 0.01, games, ALPHA, k=seat_tests(players)).outcome == HELD
        return Result(wrong, replicates, ALPHA, "false rate", replicates)
    return run


def planted_payout_verdicts(off_steps: float, replaced: bool = False):
    """Payout verdicts within ±0.5 payout step: a fresh value whose truth is ``off_steps`` steps from
    even (0: even, 0.5: at the tolerance; a step moves the value 3 pp), its standard error a third of
    the tolerance; wrong is "off" at 0, "held" at the tolerance. ``replaced``: "the fresh interval
    contains 0" as held, wrong when the truth is a whole step (1 VP) off."""
    step = 0.03
    se = 0.5 * step / 3

    def run(replicates: int, seed: int) -> Result:
        rng = np.random.default_rng(seed)
        estimates = rng.normal(off_steps * step, se, replicates)
        wrong = 0
        for e in estimates:
            if replaced:
                wrong += abs(e) <= 1.96 * se * 3  # the fresh games then were fewer: three times the error
                continue
            verdict = equivalence(e, se, 0.5 * step, 200, ALPHA, k=1)
            wrong += verdict.outcome == (OFF if off_steps == 0 else HELD)
        return Result(int(wrong), replicates, ALPHA, "false rate", replicates)
    return run


def planted_off_when_unresolved(truth: float = 0.0, replaced: bool = False):
    """"Off" where the games are far too few to resolve the tolerance: a quantity inside it (at
    ``truth`` tolerances from its target), its standard error 20 tolerances; wrong is "off".
    ``replaced``: off read from the held test's 1 - 2 alpha interval (before), which then errs on
    either side, up to 2 alpha in all."""
    tolerance, se = 0.02, 0.4

    def run(replicates: int, seed: int) -> Result:
        estimates = np.random.default_rng(seed).normal(truth * tolerance, se, replicates)
        alpha = 2 * ALPHA if replaced else ALPHA  # the off test at 2 alpha is the held test's interval
        wrong = sum(equivalence(e, se, tolerance, 10_000, alpha, k=1).outcome == OFF for e in estimates)
        return Result(int(wrong), replicates, ALPHA, "false rate", replicates)
    return run


def _alike_points(rng, games: int, offered: int, alone: bool, rollouts: int = 16) -> pd.DataFrame:
    """Decision points of ``games`` source games (3 each) offering components alike in distribution
    (12 of them, dealt at random): each alternative's true win chance depends on the position only.
    ``alone``: one component on offer against letting it go (two rows take it, one does not)."""
    frames = []
    for g in range(games):
        for _ in range(3):
            if alone:
                comps = np.array([rng.integers(12)] * 2 + [-1])
                p = rng.uniform(0.2, 0.6, 3)
                p[:2] += 0.1  # going for it is better than letting it go, whichever it is
            else:
                comps = rng.choice(12, offered, replace=False)
                p = rng.uniform(0.1, 0.6, offered)
            common = rng.random(rollouts)  # the rollouts' shared chance
            shares = (common[None, :] < p[:, None]).astype(float)
            own = rng.random((len(p), rollouts)) < 0.3
            shares = np.where(own, (rng.random((len(p), rollouts)) < p[:, None]).astype(float), shares)
            frames.append(point_values(ChoicePoint(g, comps, shares, np.zeros_like(shares, dtype=np.int64))))
    return pd.concat(frames, ignore_index=True)


def _replaced_point_values(point: ChoicePoint) -> pd.DataFrame:
    """The choice value before: a component's best row against the best row without it."""
    shares, comps = point.shares, point.rows()
    pick = shares[:, 0::2]
    out = []
    for component in point.offered():
        takes = (comps == component).any(axis=1)
        rows, others = np.flatnonzero(takes), np.flatnonzero(~takes)
        best = rows[np.argmax(pick[rows].mean(axis=1))]
        rival = others[np.argmax(pick[others].mean(axis=1))]
        out.append({"component": int(component), "game": point.game,
                    "win": float((shares[best, 1::2] - shares[rival, 1::2]).mean()), "margin": 0.0, "alone": False})
    return pd.DataFrame(out)


def planted_choice_values(offered: int, alone: bool = False, games: int = 200):
    """Components alike in distribution: the share of components flagged (q < 0.05) over replicate
    studies of ``games`` source games, ``offered`` on offer at each point (or one ``alone``)."""
    def run(replicates: int, seed: int) -> Result:
        rng = np.random.default_rng(seed)
        flagged = tested = 0
        means = []
        for _ in range(replicates):
            values = choice_values(_alike_points(rng, games, offered, alone))
            flagged += int((values["q"] < ALPHA).sum())
            tested += int(values["q"].notna().sum())
            means.append(values["win"].mean())
        return Result(flagged, tested, ALPHA, "false rate", replicates,
                      f"mean value {100 * np.mean(means):+.2f} pp (truth 0)")
    return run


def planted_replaced_choice_values(offered: int, games: int = 200):
    """The choice value before, against the best alternative without the component, on components
    alike in distribution: the share flagged."""
    def run(replicates: int, seed: int) -> Result:
        rng = np.random.default_rng(seed)
        flagged = tested = 0
        means = []
        for _ in range(replicates):
            frames = []
            for g in range(games):
                for _ in range(3):
                    comps = rng.choice(12, offered, replace=False)
                    p = rng.uniform(0.1, 0.6, offered)
                    common = rng.random(16)
                    shares = (common[None, :] < p[:, None]).astype(float)
                    own = rng.random((offered, 16)) < 0.3
                    shares = np.where(own, (rng.random((offered, 16)) < p[:, None]).astype(float), shares)
                    frames.append(_replaced_point_values(ChoicePoint(g, comps, shares,
                                                                     np.zeros_like(shares, dtype=np.int64))))
            values = choice_values(pd.concat(frames, ignore_index=True))
            flagged += int((values["q"] < ALPHA).sum())
            tested += int(values["q"].notna().sum())
            means.append(values["win"].mean())
        return Result(flagged, tested, ALPHA, "false rate", replicates,
                      f"mean value {100 * np.mean(means):+.2f} pp (truth 0)")
    return run


def planted_choice_coverage(offered: int, games: int = 200):
    """Coverage of a component's value interval at its truth, 0 for components alike."""
    def run(replicates: int, seed: int) -> Result:
        rng = np.random.default_rng(seed)
        hits = trials = 0
        for _ in range(replicates):
            values = choice_values(_alike_points(rng, games, offered, False))
            ok = values["win_low"].notna()
            h, t = _coverage(values.loc[ok, "win_low"], values.loc[ok, "win_high"], np.zeros(int(ok.sum())))
            hits, trials = hits + h, trials + t
        return Result(hits, trials, NOMINAL, "coverage", replicates)
    return run


def planted_family(tables: int = 18, deals: int = 300, seatings: int = 6, replaced: bool = False):
    """What-if findings under a change that moves nothing: ``tables`` seat findings (player counts,
    populations, seats) of paired changes with deal effects; the share of replicates with any finding
    flagged. ``replaced``: every seat whose paired interval excludes 0, uncorrected."""
    def run(replicates: int, seed: int) -> Result:
        rng = np.random.default_rng(seed)
        wrong = 0
        for _ in range(replicates):
            rows = []
            for k in range(tables):
                deal_effect = rng.normal(0, 0.3, deals)
                diffs = np.repeat(deal_effect, seatings) + rng.normal(0, 0.3, deals * seatings)
                mean = diffs.mean()
                se = np.sqrt(np.var(diffs.reshape(deals, seatings).sum(axis=1), ddof=1) * deals) / len(diffs)
                t = mean / se
                p = 2 * stats.t.sf(abs(t), deals - 1)
                half = stats.t.ppf(0.975, deals - 1) * se
                rows.append({"variant": "v", "n_players": 3, "population": f"p{k}", "start": "rulebook", "seat": 0,
                             "differing": len(diffs), "win_pp": 100 * mean, "win_low": 100 * (mean - half),
                             "win_high": 100 * (mean + half), "win_p": p})
            table = pd.DataFrame(rows)
            if replaced:
                wrong += bool(((table["win_low"] > 0) | (table["win_high"] < 0)).any())
            else:
                wrong += bool((change_findings(table)["moved"] != 0).any())
        return Result(int(wrong), replicates, ALPHA, "false rate", replicates, f"{tables} findings a replicate")
    return run


def planted_fresh_confirmation(components: int = 12, deals: int = 400):
    """Ablation effects found on one set of deals and checked on fresh ones, where no component moves
    anything: the share of replicates in which some effect found is confirmed."""
    def run(replicates: int, seed: int) -> Result:
        rng = np.random.default_rng(seed)
        wrong = checked = 0
        for _ in range(replicates):
            tables = []
            for _ in range(2):
                frames = []
                for c in range(components):
                    won = rng.integers(0, 2, (deals, 2))
                    with_ = np.stack([won[:, 0], 1 - won[:, 0]], axis=1).astype(float)
                    without = np.stack([won[:, 1], 1 - won[:, 1]], axis=1).astype(float)
                    frame = {"deal": np.arange(deals), "component": c, "replacement": -1}
                    for arm, shares in (("with", with_), ("without", without)):
                        for i in range(2):
                            frame[f"win_{arm}_{i}"] = shares[:, i]
                    frame |= {"spread_with": rng.normal(10, 3, deals), "spread_without": rng.normal(10, 3, deals),
                              "leads_with": rng.poisson(2, deals), "leads_without": rng.poisson(2, deals),
                              "winner_changed": (won[:, 0] != won[:, 1]).astype(int)}
                    frames.append(pd.DataFrame(frame)[list(deal_columns(2))])
                tables.append(ablation_effects(pd.concat(frames, ignore_index=True), 2))
            found, fresh = tables
            # a loose discovery (q < 0.5) so that there is something to check in most replicates
            found = found.assign(seat_q=found["seat_q"] * 0.1, spread_q=found["spread_q"] * 0.1,
                                 leads_q=found["leads_q"] * 0.1)
            result = fresh_check(found, fresh)
            confirmed = [result[f"{t}_confirmed"] for t in ("seat", "spread", "leads")]
            wrong += bool(any((c == 1).any() for c in confirmed))
            checked += bool(any(c.notna().any() for c in confirmed))
        return Result(int(wrong), replicates, ALPHA, "false rate", replicates, f"{checked} replicates checked some")
    return run


def planted_objective_difference(games: int = 3000):
    """Two designs on the same deals, the first seat's win rate at 0.36 and 0.33 (fair 1/3): coverage
    of the paired bootstrap interval of their objective difference (first seat's unbiased loss)."""
    f = 1 / 3
    rates = [np.array([0.36, 0.32, 0.32]), np.array([0.33, 1 / 3, 1 / 3 - 0.0033333333])]
    truth = (rates[0][0] - f) ** 2 - (rates[1][0] - f) ** 2

    def loss(out: Outcomes) -> float:
        return measure_loss("fair", measure_estimate("first_seat", out), 3)

    def run(replicates: int, seed: int) -> Result:
        rng = np.random.default_rng(seed)
        hits = 0
        for _ in range(replicates):
            u = rng.random(games)  # shared chance: the same deal favours the same seats in both designs
            outs = []
            for r in rates:
                winners = np.searchsorted(np.cumsum(r / r.sum()), u)
                outs.append(_outcomes(np.eye(3)[winners]))
            members = deal_members(outs[0])
            diffs = []
            for _ in range(100):
                pick = np.concatenate([members[i] for i in rng.integers(0, games, games)])
                diffs.append(loss(outs[0].take(pick)) - loss(outs[1].take(pick)))
            low, high = np.percentile(diffs, [2.5, 97.5])
            hits += low <= truth <= high
        return Result(int(hits), replicates, NOMINAL, "coverage", replicates)
    return run


def planted_clustered_means(deals: int = 200, seatings: int = 24, naive: bool = False):
    """A mean over games whose deals move together (deal effect sd 1, game noise sd 1, 24 seatings a
    deal, as a 4-player mixed table): coverage of its t interval clustered by deal; ``naive``: t over
    games as if independent."""
    def run(replicates: int, seed: int) -> Result:
        from bgsim.sim.stats.balance import clustered_mean

        rng = np.random.default_rng(seed)
        hits = 0
        for _ in range(replicates):
            values = np.repeat(rng.normal(0, 1, deals), seatings) + rng.normal(0, 1, deals * seatings)
            if naive:
                low, high = t_bounds(np.array([values.mean()]), np.array([values.std(ddof=1)]),
                                     np.array([len(values)]))
                low, high = low[0], high[0]
            else:
                mean, cov, g = clustered_mean(values, np.repeat(np.arange(deals), seatings))
                half = stats.t.ppf(0.975, g - 1) * np.sqrt(cov[0, 0])
                low, high = mean[0] - half, mean[0] + half
            hits += low <= 0 <= high
        return Result(int(hits), replicates, NOMINAL, "coverage", replicates)
    return run


def planted_ablation_intervals(deals: int = 400, effect: float = 0.04):
    """Ablation's paired intervals: each deal played with a component and without it, seat 1 winning
    ``effect`` more often with it (2 players); coverage of the seat change's 95 % t interval."""
    def run(replicates: int, seed: int) -> Result:
        rng = np.random.default_rng(seed)
        hits = 0
        for _ in range(replicates):
            strength = rng.uniform(0.2, 0.8, deals)  # how a deal favours seat 1, the same in both games
            won_with = rng.random(deals) < np.clip(strength + effect, 0, 1)
            won_without = rng.random(deals) < strength
            frame = {"deal": np.arange(deals), "component": 0, "replacement": -1,
                     "win_with_0": won_with * 1.0, "win_with_1": 1.0 - won_with,
                     "win_without_0": won_without * 1.0, "win_without_1": 1.0 - won_without,
                     "spread_with": 10, "spread_without": 10, "leads_with": 1, "leads_without": 1,
                     "winner_changed": (won_with != won_without).astype(int)}
            row = ablation_effects(pd.DataFrame(frame)[list(deal_columns(2))], 2).iloc[0]
            hits += row["seat0_low"] <= effect <= row["seat0_high"]  # strengths stay below 1 - effect
        return Result(int(hits), replicates, NOMINAL, "coverage", replicates)
    return run


def _lean(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-(np.log(0.58 / 0.42) + x)))


@functools.cache
def _lean_truth() -> float:
    """The matchup cell's truth: the lean averaged over every deal's luck (4 million drawn)."""
    return float(np.mean(_lean(np.random.default_rng(0).normal(0, 0.8, 4_000_000))))


def planted_balance_rates(games: int = 3000, matchup: bool = False):
    """A balance search's rate measures on fresh deals: the first seat's win rate (seat 1 at 30 % of 3
    seats), or one matchup cell (strategy a ahead of b in 58 % of games, both rotations of every deal);
    coverage of the measure's 95 % interval."""
    def run(replicates: int, seed: int) -> Result:
        rng = np.random.default_rng(seed)
        hits = 0
        for _ in range(replicates):
            if not matchup:
                estimate = measure_estimate("first_seat", _outcomes(_multinomial_shares(
                    rng, np.array([0.30, 0.35, 0.35]), games)))
                hits += estimate.low <= 0.30 <= estimate.high
                continue
            deals = games // 2
            luck = rng.normal(0, 0.8, deals)  # a deal leans the same way in both rotations
            a_wins = rng.random((deals, 2)) < _lean(luck[:, None])
            seat_strategy = np.array([[0, 1], [1, 0]] * deals)  # rotation 0: a in seat 1; rotation 1: b there
            winner_is_a = a_wins.reshape(-1)
            winner_seat = np.where(np.arange(2 * deals) % 2 == 0, np.where(winner_is_a, 0, 1),
                                   np.where(winner_is_a, 1, 0))
            base = np.eye(2, dtype=np.int64)[winner_seat]
            out = Outcomes(deal=np.repeat(np.arange(deals), 2), pair=np.zeros(2 * deals, np.int64),
                           rotation=np.tile([0, 1], deals), seat_strategy=seat_strategy, base=base,
                           start=np.zeros(2, np.int64), tiebreak=np.tile([1, 2], (2 * deals, 1)),
                           length=np.full(2 * deals, 10))
            estimate = measure_estimate("matchup", out, pairs=[(0, 1)], strategies=[0, 1])
            hits += estimate.low[0, 1] <= _lean_truth() <= estimate.high[0, 1]
        return Result(int(hits), replicates, NOMINAL, "coverage", replicates)
    return run


def planted_compensation(deficit: int = 3, games: int = 4000, replicates_boot: int = 60):
    """The compensating start vector's bootstrap interval: 2 players whose seat 2 is ``deficit`` points
    behind an otherwise fair game (normal scores, sd 15), so that seat 2 starting ``deficit`` above
    seat 1 is the balancing value; coverage of seat 2's interval."""
    def run(replicates: int, seed: int) -> Result:
        from bgsim.sim.stats.compensation import GameScores, solve_with_bootstrap

        rng = np.random.default_rng(seed)
        hits = 0
        for r in range(replicates):
            base = rng.normal(110, 15, (games, 2)).round().astype(np.int64) - np.array([0, deficit])
            tiebreak = np.argsort(rng.random((games, 2)), axis=1) + 1
            scores = GameScores(base, tiebreak, np.arange(games), np.array([8, 8]))
            _, table = solve_with_bootstrap(scores, replicates_boot, seed=r, low=0, high=20)
            row = table.iloc[1]
            hits += row["low"] <= 8 + deficit <= row["high"]
        return Result(int(hits), replicates, NOMINAL, "coverage", replicates)
    return run


CHECKS = (
    Check("seat rates, self-play", "95 % win-rate intervals (Wilson)", "played: 3p self-play, 600-game replicates",
          seat_rates(3, False), 300, 1000),
    Check("seat rates, small cells", "95 % win-rate intervals (Wilson)", "played: 3p self-play, 48-game replicates",
          seat_rates(3, False, games=48), 300, 1000),
    Check("seat rates, mixed seating", "95 % win-rate intervals clustered by deal", "played: 4p mixed table",
          seat_rates(4, True), 300, 1000),
    Check("seat rates, mixed seating", "the same, every game counted as independent (before)",
          "played: 4p mixed table", seat_rates(4, True, naive=True), 300, 1000, replaced=True),
    Check("seat rates, 3-player mixed", "95 % win-rate intervals clustered by deal", "played: 3p mixed table",
          seat_rates(3, True), 300, 1000),
    Check("shared wins, mixed seating", "95 % win-share intervals clustered by deal",
          "played: 4p mixed table, tied wins shared", seat_rates(4, True, "shared"), 300, 1000),
    Check("mean scores, mixed seating", "95 % t intervals clustered by deal", "played: 4p mixed table",
          seat_means(4), 300, 1000),
    Check("start effects", "95 % paired intervals (rulebook against equal start values)", "played: 3p mixed table",
          start_effects(3), 300, 1000),
    Check("what-if changes", "95 % paired intervals (a rule change against the rulebook)", "played: 3p mixed table",
          what_if_changes(3), 300, 1000),
    Check("means of clustered games", "95 % t intervals clustered by deal", "planted: deal effects, 24 seatings",
          planted_clustered_means(), 400, 2000),
    Check("means of clustered games", "the same, t over games as if independent (before)",
          "planted: deal effects, 24 seatings", planted_clustered_means(naive=True), 400, 2000, replaced=True),
    Check("seat imbalance, played", "95 % interval", "played: 3p self-play, 2,400-game replicates",
          game_imbalance(3, False), 100, 1000),
    Check("seat imbalance, played, mixed", "95 % interval clustered by deal", "played: 4p mixed table",
          game_imbalance(4, True), 100, 1000),
    Check("seat imbalance at perfect balance", "95 % interval", "planted: 4 fair seats, 4,000 games",
          planted_imbalance(4, 0.0), 300, 1000),
    Check("seat imbalance near balance", "95 % interval", "planted: 3 seats, +-1 pp, 4,000 games",
          planted_imbalance(3, 1.0), 300, 1000),
    Check("seat imbalance, imbalanced", "95 % interval", "planted: 2 seats, +-2 pp, 4,000 games",
          planted_imbalance(2, 2.0), 300, 1000),
    Check("seat spread at perfect balance", "best minus worst seat, percentile bootstrap (before)",
          "planted: 4 fair seats, 4,000 games", planted_imbalance(4, 0.0, replaced=True), 60, 200, replaced=True),
    Check("balance loss at its target", "first seat's loss, blocks reading above 0", "planted: fair first seat",
          planted_loss_bias(), 400, 2000),
    Check("balance loss at its target", "|rate - 1/n| (before), blocks reading above 0", "planted: fair first seat",
          planted_loss_bias(replaced=True), 400, 2000, replaced=True),
    Check("balance: first seat's rate", "95 % t interval", "planted: seat 1 at 30 % of 3, 3,000 deals",
          planted_balance_rates(), 400, 2000),
    Check("balance: a matchup cell", "95 % t interval clustered by deal",
          "planted: a lean varying deal by deal, 3,000 games",
          planted_balance_rates(matchup=True), 400, 2000),
    Check("ablation: a seat's change", "95 % paired t interval over deals", "planted: +4 pp with it, 400 deals",
          planted_ablation_intervals(), 400, 2000),
    Check("objective against the rulebook", "95 % paired bootstrap interval of the difference",
          "planted: first seat 36 % against 33 %, 3,000 deals", planted_objective_difference(), 100, 1000),
    Check("compensating start vector", "95 % bootstrap interval of a seat's value", "planted: 3 points behind, "
          "4,000 games", planted_compensation(), 150, 600),
    Check("seats held within ±2 pp", "false 'off' with every seat fair", "planted: 4 fair seats, 8,000 games",
          planted_seat_verdicts(4, 0.0), 400, 2000),
    Check("seats held within ±2 pp", "false 'held' with a seat at the tolerance", "planted: 4 seats, seat 1 +2 pp",
          planted_seat_verdicts(4, 2.0), 400, 2000),
    Check("seats within ±2 pp, small cells", "false 'off' with every seat fair", "planted: 2 fair seats, 48 games",
          planted_seat_verdicts(2, 0.0, 48), 400, 2000),
    Check("seats within ±2 pp, small cells", "false 'off' with every seat fair", "planted: 3 fair seats, 48 games",
          planted_seat_verdicts(3, 0.0, 48), 400, 2000),
    Check("seats within ±2 pp, small cells", "false 'off' with every seat fair", "planted: 4 fair seats, 48 games",
          planted_seat_verdicts(4, 0.0, 48), 400, 2000),
    Check("off by more than the tolerance", "false 'off' inside it, far too few games to tell",
          "planted: at target, error 20 tolerances", planted_off_when_unresolved(), 2000, 4000),
    Check("off by more than the tolerance", "read from the held test's interval (before)",
          "planted: at target, error 20 tolerances", planted_off_when_unresolved(replaced=True), 2000, 4000,
          replaced=True),
    Check("seats held", "every interval contains 1/n (before): not held with every seat fair",
          "planted: 4 fair seats, 4,800 games", planted_seat_verdicts(4, 0.0, 4800, replaced=True), 400, 2000,
          replaced=True),
    Check("seats held", "every interval contains 1/n (before, no tolerance): held with a seat 1.5 pp off",
          "planted: 4 seats, seat 1 +1.5 pp, 4,800 games", planted_seat_verdicts(4, 1.5, 4800, replaced=True), 400,
          2000, replaced=True),
    Check("seats held within ±1 pp", "false 'held' with a seat 1.5 pp off", "planted: 4 seats, 4,800 games",
          planted_seat_verdicts_tight(), 400, 2000),
    Check("seats held, 2 players", "false 'held' with a seat at the tolerance", "planted: 2 seats, seat 1 +2 pp",
          planted_seat_verdicts(2, 2.0), 400, 2000),
    Check("payout held within ±0.5 step", "false 'off' at even", "planted: fresh value at 0",
          planted_payout_verdicts(0.0), 400, 2000),
    Check("payout held within ±0.5 step", "false 'held' at the tolerance", "planted: fresh value half a step off",
          planted_payout_verdicts(0.5), 400, 2000),
    Check("payout held", "interval contains 0 (before): false 'held' a whole step off", "planted: a step off",
          planted_payout_verdicts(1.0, replaced=True), 400, 2000, replaced=True),
    Check("choice values, 3 alike on offer", "false flags (q < 0.05) per component", "planted: 12 alike components",
          planted_choice_values(3), 8, 100),
    Check("choice values, 8 alike on offer", "false flags (q < 0.05) per component", "planted: 12 alike components",
          planted_choice_values(8), 8, 100),
    Check("choice values, alone on offer", "false flags (q < 0.05) per component", "planted: 12 alike components",
          planted_choice_values(1, alone=True), 8, 100),
    Check("choice values, 3 alike on offer", "95 % intervals cover 0", "planted: 12 alike components",
          planted_choice_coverage(3), 8, 100),
    Check("choice values, 3 alike on offer", "against the best without it (before): false flags",
          "planted: 12 alike components", planted_replaced_choice_values(3), 8, 100, replaced=True),
    Check("what-if findings, no change", "a false finding in a family of 18 (Benjamini–Hochberg)",
          "planted: clustered paired changes", planted_family(), 400, 2000),
    Check("what-if findings, no change", "uncorrected intervals excluding 0 (before)",
          "planted: clustered paired changes", planted_family(replaced=True), 400, 2000, replaced=True),
    Check("ablation effects confirmed", "a false confirmation on fresh deals", "planted: 12 components, no effect",
          planted_fresh_confirmation(), 150, 600),
)


def run_checks(full: bool = False, seed: int = 20_261_129, only: Callable[[Check], bool] | None = None,
               on_row: Callable[[dict], None] | None = None) -> pd.DataFrame:
    """Run every check (``full``: the full replicates, else the short form) and return the table."""
    rows = []
    _SIZE["truth"] = TRUTH_GAMES["full" if full else "quick"]
    try:
        for i, check in enumerate(CHECKS):
            if only is not None and not only(check):
                continue
            started = time.perf_counter()
            result = check.run(check.full if full else check.quick, seed + i)
            truth = check.truth.replace("played:", f"{make_game(calibration_game().game).profile.title}:")
            row = {"check": check.name, "what": check.what, "truth": truth,
                   "method": "replaced (before)" if check.replaced else "current", "kind": result.kind,
                   "nominal": result.nominal, "rate": result.rate, "bound": result.bound,
                   "replicates": result.replicates, "trials": result.trials, "passes": result.passes,
                   "as expected": result.passes != check.replaced, "detail": result.detail,
                   "seconds": round(time.perf_counter() - started, 1)}
            rows.append(row)
            if on_row:
                on_row(row)
    finally:
        if PLAYED is not None:
            PLAYED.close()
    return pd.DataFrame(rows)


def markdown(table: pd.DataFrame) -> str:
    """The table as the README's statistics page shows it."""
    lines = ["| check | interval or verdict | truth | method | measured | nominal | bound | replicates | result |",
             "|---|---|---|---|---:|---:|---:|---:|---|"]
    for r in table.to_dict(orient="records"):
        sign = ">=" if r["kind"] == "coverage" else "<="
        result = ("passes" if r["passes"] else "fails") + ("" if r["as expected"] else " (unexpected)")
        check, what, truth = (str(r[k]).replace("|", "\\|") for k in ("check", "what", "truth"))  # a cell's own bars
        lines.append(f"| {check} | {what} | {truth} | {r['method']} | {100 * r['rate']:.1f} % | "
                     f"{100 * r['nominal']:.0f} % | {sign} {100 * r['bound']:.1f} % | {r['replicates']:,} | {result} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bgsim.experiments.calibration_suite",
                                     description="Coverage and false-flag rates of every interval and verdict the "
                                                 "reports print, at planted truths.")
    parser.add_argument("--quick", action="store_true", help="the short form make test runs")
    parser.add_argument("--out", help="also write the table as CSV here")
    args = parser.parse_args(argv)

    def show(row: dict) -> None:
        flag = "ok " if row["as expected"] else "BAD"
        print(f"{flag} {row['check']}: {row['what']} — {100 * row['rate']:.1f} % "
              f"({'>=' if row['kind'] == 'coverage' else '<='} {100 * row['bound']:.1f} %), {row['method']}, "
              f"{row['seconds']} s", flush=True)

    table = run_checks(full=not args.quick, on_row=show)
    print()
    print(markdown(table))
    if args.out:
        table.to_csv(args.out, index=False)
    return 0 if table["as expected"].all() else 1


if __name__ == "__main__":
    sys.exit(main())
