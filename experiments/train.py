"""Train an expert: weights fitted to what a search player found, chosen by games played.

One round (expert iteration):

1. **Record.** Play ``games`` deals with the search in every seat, its rollout policy the best
   expert so far (round 1: the spec's ``start``). At every decision with a choice, keep the table's
   features, the rows searched with their mean rollout outcomes, and the row played.
2. **Fit.** Over the records of every round so far, fit a conditional logit
   (``sim.stats.choice_model``) once per temperature: soft targets, a softmax over the searched
   rows' mean outcomes in score points (a win counts as ``margin`` points), so that rows the
   search found nearly as good keep some weight; temperature 0 fits the row the search played.
   Deals held out of the fit give each candidate's held-out log-likelihood (a diagnostic only:
   agreement with the search is a poor guide to strength). With ``steps``, each fit also gives
   candidates that move the best weights so far that far towards it: a fit can rank the rows the
   search looked at well and the others badly, and a step keeps the best's ranking of the rest.
3. **Choose by games.** Each candidate, as integer weights, plays the best so far on the same
   fresh deals, every deal in every seat (``tune.head_to_head``); the best candidate replaces it
   when it wins more than half of those games (``keep = "shown"``: when the 95 % interval of its
   win rate lies above one half). Each also plays ``start``, for the record.

The run folder keeps the spec (``train.toml``), each round's records and fit (``round-NN/``), the
progress (``train.json``) and the best expert so far (``expert.toml``, a weights file with its
provenance). Records are written a chunk at a time, so an interrupted training resumes with
``--resume`` and loses at most the chunks in flight; the result does not depend on the number of
workers or the chunk size.
"""

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import tomli_w
from bgsim.experiments.train_spec import TrainSpec
from bgsim.experiments.tune import Match, head_to_head, weights_toml
from bgsim.sim.errors import BgsimError
from bgsim.sim.play import play_game
from bgsim.sim.seeding import GameSeeds, block_key, deal_seeds
from bgsim.sim.stats.choice_model import fit_choice_model
from bgsim.strategies import make_strategy
from bgsim.strategies.base import WeightStrategy
from bgsim.strategies.search import RolloutSearch

__all__ = ["Records", "TrainResult", "integer_weights", "run_train", "soft_targets"]

WEIGHT_SCALE = 100_000  # the largest integer weight of an expert: fine steps, exact in every tier
SELECT_SEED_OFFSET = 1_000_003  # selection deals: never those the records were played on
CHECK_SEED_OFFSET = 2_000_006  # the final check against ``start``: deals no round has seen
_CHECK_BLOCK = 999


# --- records


@dataclass
class Records:
    """Searched decisions, stacked: ``features`` (R, F) int32, decision g owning rows
    ``offsets[g]:offsets[g + 1]`` ((G + 1,) int64); ``values`` (R,) float64 each row's mean rollout
    outcome (NaN where not searched); ``chosen`` (G,) int64 the row played; ``deal`` (G,) int64 the
    deal's key (round x 10**6 + deal), for splitting by deal."""

    features: np.ndarray
    offsets: np.ndarray
    values: np.ndarray
    chosen: np.ndarray
    deal: np.ndarray

    @classmethod
    def stack(cls, parts: list["Records"]) -> "Records":
        sizes = np.concatenate([np.diff(p.offsets) for p in parts])
        return cls(np.concatenate([p.features for p in parts]), np.concatenate([[0], np.cumsum(sizes)]),
                   np.concatenate([p.values for p in parts]), np.concatenate([p.chosen for p in parts]),
                   np.concatenate([p.deal for p in parts]))

    def subset(self, keep: np.ndarray) -> "Records":
        """The decisions where ``keep`` (G,) bool is true."""
        sizes = np.diff(self.offsets)
        rows = np.repeat(keep, sizes)
        return Records(self.features[rows], np.concatenate([[0], np.cumsum(sizes[keep])]), self.values[rows],
                       self.chosen[keep], self.deal[keep])

    def save(self, path: Path) -> None:
        """Written whole or not at all: a chunk file on disk is a finished chunk."""
        tmp = path.with_name(path.name + ".part")
        with open(tmp, "wb") as handle:
            np.savez(handle, features=self.features, offsets=self.offsets, values=self.values, chosen=self.chosen,
                     deal=self.deal)
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path) -> "Records":
        try:
            with np.load(path) as f:
                return cls(f["features"], f["offsets"], f["values"], f["chosen"], f["deal"])
        except (OSError, ValueError, KeyError, EOFError):
            raise BgsimError(f"{path}: damaged records file; delete it and resume to play it again") from None


class _RecordingSearch:
    """Plays as ``search`` does and keeps every decision it searched."""

    def __init__(self, search: RolloutSearch):
        self.search = search
        self.id = search.id
        self.features, self.values, self.chosen, self.deal = [], [], [], []
        self.current_deal = 0

    def choose(self, table, stream) -> int:
        if len(table) == 1:
            return 0
        found = self.search.search(table, stream)
        values = np.full(len(table), np.nan)
        values[found.rows] = found.means
        self.features.append(table.features.copy())  # the table views the game's buffer
        self.values.append(values)
        self.chosen.append(found.chosen)
        self.deal.append(self.current_deal)
        return found.chosen

    def compiled_policy(self, game):
        return None

    def records(self, n_features: int) -> Records:
        sizes = [len(v) for v in self.values]
        features = np.concatenate(self.features) if sizes else np.zeros((0, n_features), np.int32)
        return Records(features.astype(np.int32), np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
                       np.concatenate(self.values) if sizes else np.zeros(0),
                       np.array(self.chosen, dtype=np.int64), np.array(self.deal, dtype=np.int64))


def teacher(spec: TrainSpec, game, policy: WeightStrategy) -> RolloutSearch:
    """The search whose decisions are recorded, with ``policy`` for its rollouts and row order."""
    return RolloutSearch(f"{game.name}/search(policy={policy.id!r})", game, policy, spec.width, spec.rollouts,
                         float(spec.margin), spec.race)


_GAMES: dict = {}  # (train id) -> game, per worker process


def record_chunk(spec: TrainSpec, policy: np.ndarray, round_no: int, first: int, stop: int, path: str) -> int:
    """Play deals ``first .. stop - 1`` of ``round_no`` with the search in every seat, ``policy``
    ((F,) int64 weights) inside it, and store its decisions in ``path``; returns the games played."""
    if spec.train_id not in _GAMES:
        _GAMES[spec.train_id] = spec.make_game()
    game = _GAMES[spec.train_id]
    recorder = _RecordingSearch(teacher(spec, game, WeightStrategy("policy", policy)))
    deals = np.arange(first, stop, dtype=np.int64)
    chance, strategy = deal_seeds(block_key(spec.seed, round_no), deals)
    for deal, c, s in zip(deals, chance, strategy, strict=True):
        recorder.current_deal = round_no * 10**6 + int(deal)
        play_game(game, [recorder] * game.n_players, GameSeeds(int(c), int(s)))
    recorder.records(len(game.feature_names)).save(Path(path))
    return len(deals)


# --- fitting


def soft_targets(records: Records, temperature: float, margin: float) -> np.ndarray:
    """Each row's target probability (R,) float64: a softmax over the searched rows' mean outcomes
    in score points (outcome x ``margin``) at ``temperature`` points; the row played where the
    temperature is 0 or fewer than two rows were rolled out."""
    offsets, values = records.offsets, records.values
    sizes = np.diff(offsets)
    group = np.repeat(np.arange(len(sizes)), sizes)
    searched = np.isfinite(values)
    counted = np.add.reduceat(searched.astype(np.int64), offsets[:-1])
    targets = np.zeros(len(values))
    hard = (counted < 2) if temperature > 0 else np.ones(len(sizes), dtype=bool)
    targets[(offsets[:-1] + records.chosen)[hard]] = 1.0
    soft_rows = ~hard[group] & searched
    if soft_rows.any():
        points = np.where(soft_rows, values * margin / max(temperature, 1e-12), -np.inf)
        top = np.maximum.reduceat(points, offsets[:-1])
        exps = np.zeros(len(values))
        exps[soft_rows] = np.exp(points[soft_rows] - top[group][soft_rows])
        totals = np.add.reduceat(exps, offsets[:-1])
        targets[soft_rows] = exps[soft_rows] / totals[group][soft_rows]
    return targets


def integer_weights(weights: np.ndarray) -> np.ndarray:
    """(F,) int64 weights with the same ratios as ``weights`` (F,) float64, the largest
    ``WEIGHT_SCALE`` in size: what every tier sums exactly."""
    top = np.abs(weights).max(initial=0.0)
    if top == 0:
        return np.zeros(len(weights), dtype=np.int64)
    return np.round(weights * (WEIGHT_SCALE / top)).astype(np.int64)


def _varying_columns(records: Records) -> np.ndarray:
    """Columns (k,) int64 that differ between the rows of at least one decision."""
    x = records.features
    low = np.minimum.reduceat(x, records.offsets[:-1], axis=0)
    high = np.maximum.reduceat(x, records.offsets[:-1], axis=0)
    return np.flatnonzero((high > low).any(axis=0))


def _held_out_deals(records: Records, share: float) -> np.ndarray:
    """(G,) bool: the decisions of the deals held out of the fit, about ``share`` of the deals,
    drawn by a hash of the deal key so that a deal is in or out whatever else was recorded."""
    mixed = (records.deal.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)
    return (mixed % np.uint64(10_000)).astype(np.int64) < int(round(share * 10_000))


def _mean_log_likelihood(records: Records, targets: np.ndarray, weights: np.ndarray) -> float:
    """Per decision: the targets' expected log-probability under ``weights`` (F,) float64."""
    if len(records.chosen) == 0:
        return float("nan")
    logits = records.features.astype(np.float64) @ weights
    sizes = np.diff(records.offsets)
    group = np.repeat(np.arange(len(sizes)), sizes)
    top = np.maximum.reduceat(logits, records.offsets[:-1])
    log_norm = top + np.log(np.add.reduceat(np.exp(logits - top[group]), records.offsets[:-1]))
    return float((targets * (logits - log_norm[group])).sum() / len(sizes))


@dataclass(frozen=True)
class Candidate:
    label: str  # "T=2" or "choice"
    temperature: float
    weights: np.ndarray  # (F,) int64
    fitted: int  # decisions fitted
    held_out_log_likelihood: float | None  # per held-out decision, of its own targets; None for a step
    converged: bool


def fit_candidates(spec: TrainSpec, records: Records, best: np.ndarray | None = None) -> list[Candidate]:
    """One fitted candidate per temperature of the spec, on the records outside the held-out deals;
    with ``best`` ((F,) int64, the best weights so far), also one per step of the spec: ``best``
    moved that far towards the fit (both scaled to 1 at most), for a fit that ranks well where the
    search looked and badly elsewhere."""
    held = _held_out_deals(records, spec.held_out)
    train, test = records.subset(~held), records.subset(held)
    if len(train.chosen) == 0:
        raise BgsimError("no searched decision to fit: record more games (train.games)")
    columns = _varying_columns(train)
    out = []
    for temperature in spec.temperatures:
        fit = fit_choice_model(train.features[:, columns], train.offsets,
                               targets=soft_targets(train, temperature, spec.margin))
        weights = np.zeros(train.features.shape[1])
        weights[columns] = fit.weights
        label = f"T={temperature:g}" if temperature > 0 else "choice"
        test_targets = soft_targets(test, temperature, spec.margin)
        out.append(Candidate(label, temperature, integer_weights(weights), fit.decisions,
                             _mean_log_likelihood(test, test_targets, weights), fit.converged))
        if best is None or not np.abs(best).max(initial=0):
            continue
        for step in spec.steps:
            moved = best / np.abs(best).max() + step * weights / max(np.abs(weights).max(), 1e-300)
            out.append(Candidate(f"{label} step {step:g}", temperature, integer_weights(moved), fit.decisions,
                                 None, fit.converged))
    return out


# --- the rounds


@dataclass(frozen=True)
class TrainResult:
    directory: Path
    rounds: list[dict]  # each round's summary, as train.json keeps it
    games_played: int  # search games played in this session
    seconds: float


ProgressCallback = Callable[[int, int], None]  # (games done, games in all) of this session


def run_train(spec: TrainSpec, out: str | Path = "runs", jobs: int = 1, resume: bool = False,
              on_progress: ProgressCallback | None = None,
              on_stage: Callable[[str], None] | None = None) -> TrainResult:
    """Train (see the module doc) into ``out/<train id>/``; ``resume`` keeps what an earlier session
    finished there."""
    started = time.perf_counter()
    directory = Path(out) / spec.train_id
    meta = _prepare(spec, directory, resume)
    game = spec.make_game()
    start = make_strategy(spec.start, game)
    stage = on_stage or (lambda text: None)
    best = _best_so_far(meta, start)
    todo = _games_to_play(spec, directory, meta)
    done = 0
    if on_progress:
        on_progress(0, todo)
    for round_no in range(len(meta["rounds"]) + 1, spec.rounds + 1):
        folder = directory / f"round-{round_no:02d}"
        folder.mkdir(exist_ok=True)
        stage(f"round {round_no}: recording the search with {best.id} inside")
        for played in _record_round(spec, folder, round_no, best, jobs):
            done += played
            if on_progress:
                on_progress(done, todo)
        records = Records.stack([Records.load(p) for r in range(1, round_no + 1)
                                 for p in sorted((directory / f"round-{r:02d}").glob("records-*.npz"))])
        stage(f"round {round_no}: fitting {len(spec.temperatures)} temperatures to {len(records.chosen):,} decisions")
        candidates = fit_candidates(spec, records, best.weights)
        stage(f"round {round_no}: each candidate against {best.id} on {_deals(spec, game) * game.n_players:,} games")
        summary = _select(spec, game, round_no, candidates, best, start, len(records.chosen))
        (folder / "fit.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
        meta["rounds"].append(summary)
        best = _best_so_far(meta, start)
        _write_expert(spec, game, directory, meta, best, start)
        _write_meta(directory, meta)
    if meta["rounds"] and not (directory / "expert.toml").is_file():
        _write_expert(spec, game, directory, meta, best, start)
    return TrainResult(directory, meta["rounds"], done, time.perf_counter() - started)


def _record_round(spec: TrainSpec, folder: Path, round_no: int, policy: WeightStrategy, jobs: int):
    """Play the round's missing chunks (in parallel when ``jobs`` > 1), yielding each one's games."""
    from joblib import Parallel, delayed

    chunks = [(first, min(first + spec.chunk_size, spec.games)) for first in range(0, spec.games, spec.chunk_size)]
    missing = [(first, stop) for first, stop in chunks if not _chunk_path(folder, first).is_file()]
    tasks = [delayed(record_chunk)(spec, policy.weights, round_no, first, stop, str(_chunk_path(folder, first)))
             for first, stop in missing]
    if jobs == 1 or len(tasks) < 2:
        for task in tasks:
            function, args, kwargs = task
            yield function(*args, **kwargs)
        return
    yield from Parallel(n_jobs=jobs, return_as="generator_unordered")(tasks)


def _chunk_path(folder: Path, first: int) -> Path:
    return folder / f"records-{first:06d}.npz"


def _deals(spec: TrainSpec, game) -> int:
    return max(1, spec.select_games // game.n_players)


def _select(spec: TrainSpec, game, round_no: int, candidates: list[Candidate], best: WeightStrategy,
            start: WeightStrategy, decisions: int) -> dict:
    """Each candidate against the best so far and against ``start`` on the same fresh deals."""
    deals = _deals(spec, game)
    seed, first = spec.seed + SELECT_SEED_OFFSET, (round_no - 1) * deals
    rows = []
    for c in candidates:
        player = WeightStrategy(f"round {round_no} {c.label}", c.weights)
        against_best = _match_doc(head_to_head(game, player, best, deals, seed, first))
        against_start = against_best if best is start else _match_doc(head_to_head(game, player, start, deals, seed,
                                                                                   first))
        rows.append({"label": c.label, "temperature": c.temperature, "fitted": c.fitted, "converged": c.converged,
                     "held_out_log_likelihood": c.held_out_log_likelihood, "weights": _named(game, c.weights),
                     "against_best": against_best, "against_start": against_start})
    top = max(range(len(rows)), key=lambda i: rows[i]["against_best"]["win_rate"])
    # "shown": the 95 % interval above one half, so that noise between near equals replaces nothing
    kept = rows[top]["against_best"]["low" if spec.keep == "shown" else "win_rate"] > 0.5
    return {"round": round_no, "decisions": decisions, "policy": best.id, "candidates": rows,
            "kept": rows[top]["label"] if kept else None}


def _best_so_far(meta: dict, start: WeightStrategy) -> WeightStrategy:
    """The last kept candidate, or ``start`` while none was kept."""
    for summary in reversed(meta["rounds"]):
        if summary["kept"] is not None:
            row = next(c for c in summary["candidates"] if c["label"] == summary["kept"])
            names = list(meta["feature_names"])
            weights = np.zeros(len(names), dtype=np.int64)
            for name, value in row["weights"].items():
                weights[names.index(name)] = value
            return WeightStrategy(f"round {summary['round']} {summary['kept']}", weights)
    return start


def _named(game, weights: np.ndarray) -> dict[str, int]:
    return {name: int(w) for name, w in zip(game.feature_names, weights, strict=True) if w != 0}


def _match_doc(match: Match) -> dict:
    low, high = match.interval()
    return {"games": match.games, "wins": match.wins, "win_rate": match.win_rate, "low": low, "high": high,
            "score_margin": match.score_margin}


def _games_to_play(spec: TrainSpec, directory: Path, meta: dict) -> int:
    todo = 0
    for round_no in range(len(meta["rounds"]) + 1, spec.rounds + 1):
        folder = directory / f"round-{round_no:02d}"
        for first in range(0, spec.games, spec.chunk_size):
            if not _chunk_path(folder, first).is_file():
                todo += min(spec.chunk_size, spec.games - first)
    return todo


# --- the run folder


def _prepare(spec: TrainSpec, directory: Path, resume: bool) -> dict:
    """The progress so far (a new one for a new folder); a one-line error for a folder in the way."""
    meta_path = directory / "train.json"
    if directory.exists() and any(directory.iterdir()):
        if not resume:
            raise BgsimError(f"{directory} exists: add --resume to continue that training, or remove it")
        if not meta_path.is_file():
            raise BgsimError(f"{directory} holds no training (no train.json): remove it or choose another --out")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            assert meta["train_id"] == spec.train_id and isinstance(meta["rounds"], list)
        except (ValueError, KeyError, AssertionError):
            raise BgsimError(f"{meta_path}: damaged or of another training; remove the folder to start again") \
                from None
        if meta.get("chunk_size") != spec.chunk_size:  # the stored chunks split the deals another way
            raise BgsimError(f"{directory} was recorded in chunks of {meta.get('chunk_size')} games: "
                             f"resume with train.chunk_size = {meta.get('chunk_size')}")
        return meta
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "train.toml").write_text(tomli_w.dumps(spec.as_doc()), encoding="utf-8")
    game = spec.make_game()
    meta = {"train_id": spec.train_id, "game": game.id, "players": spec.players, "rules_version": game.version,
            "feature_names": list(game.feature_names), "chunk_size": spec.chunk_size, "rounds": []}
    _write_meta(directory, meta)
    return meta


def _write_meta(directory: Path, meta: dict) -> None:
    tmp = directory / "train.json.part"
    tmp.write_text(json.dumps(meta, indent=1), encoding="utf-8")
    os.replace(tmp, directory / "train.json")


def _write_expert(spec: TrainSpec, game, directory: Path, meta: dict, best: WeightStrategy,
                  start: WeightStrategy) -> None:
    """``expert.toml``: the best weights so far, checked against ``start`` on deals no round has
    seen, with their provenance."""
    deals = _deals(spec, game)
    check = head_to_head(game, best, start, deals, spec.seed + CHECK_SEED_OFFSET, 0)
    low, high = check.interval()
    rounds = len(meta["rounds"])
    kept = [s["round"] for s in meta["rounds"] if s["kept"]]
    fitted = next((s for s in meta["rounds"] if kept and s["round"] == kept[-1]), None)
    decisions = fitted["decisions"] if fitted else 0  # the records the chosen weights were fitted to
    against = spec.start.split("(")[0]
    source = f"round {kept[-1]} of {rounds}, {decisions:,} decisions" if kept else f"none of {rounds} rounds kept"
    description = (f"fitted to the search ({source}, seed {spec.seed}, {spec.players} players): "
                   f"{100 * check.win_rate:.1f} % against {against} on fresh deals")
    provenance = {
        "train_id": spec.train_id, "game": game.id, "players": spec.players, "rules_version": game.version,
        "teacher": f"search(width={spec.width}, rollouts={spec.rollouts}, race={spec.race:g}, margin={spec.margin})",
        "start": spec.start, "rounds": rounds, "rounds_kept": kept, "decisions": decisions, "seed": spec.seed,
        "chosen": best.id, "check_games": check.games, "check_win_rate": round(check.win_rate, 4),
        "check_low": round(low, 4), "check_high": round(high, 4), "check_against": spec.start,
    }
    text = weights_toml(_named(game, best.weights), description, [
        f"Trained by: bgsim train ({spec.train_id})",
        "The expert: integer weights fitted to a search player's decisions, chosen by games played.",
    ])
    text += "\n" + tomli_w.dumps({"provenance": provenance})
    tmp = directory / "expert.toml.part"
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, directory / "expert.toml")
