"""Does a search method beat another across seeds? The balance search against a baseline, seed by seed.

A claim that one search method is faster or better rests on one seed only if it is run once: with
another seed the deals, the sampler's draws and the finalists all change. This module runs two
balance specs that differ only in their search (say TPE with successive halving, and random search)
at several seeds each, with the same budget accounting for both (games played, each chunk of deals
paid once, re-scored designs free), and reads off per seed:

- ``games_to_match``: the games the method spent until its best complete trial was at least as good
  as the baseline's final best, on the same search deals (the same seed deals the same deals to both);
- ``speedup``: the baseline's games until its own best, over the method's ``games_to_match``
  (NaN where the method never matched it within its budget);
- each method's best search objective and the fresh-deal objective of its best finalist, with
  whether any finalist beat the rulebook and met its targets.

``python -m bgsim.experiments.search_seeds SPEC BASELINE --seeds 1 2 3 4 5 --jobs 2`` plays what is
missing (resuming studies on disk), prints the per-seed table and its distribution, and writes it
as CSV. A spec's seed is replaced by each of the seeds, so every study has its own id.
"""

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from bgsim.experiments.balance import run_balance
from bgsim.experiments.balance_spec import BalanceSpec, load_balance

__all__ = ["compare_seeds", "search_trace", "trace_summary"]


def with_seed(spec: BalanceSpec, seed: int) -> BalanceSpec:
    return dataclasses.replace(spec, seed=seed)


def search_trace(directory: Path) -> pd.DataFrame:
    """Per trial of a finished balance study, in the order played: the games spent so far and the
    best complete objective so far (NaN before the first complete trial)."""
    meta = json.loads((Path(directory) / "balance.json").read_text())
    rows, spent, best = [], 0, np.inf
    for number, record in sorted(meta["trials"].items(), key=lambda kv: int(kv[0])):
        spent += record.get("games", 0)
        if record.get("state") == "complete":
            best = min(best, record["rungs"][-1]["objective"][0])
        rows.append({"trial": int(number), "games": spent, "best": best if np.isfinite(best) else np.nan})
    rulebook = sum(games for key, games in meta["paid"].items()) - spent  # the rulebook's games, paid first
    frame = pd.DataFrame(rows)
    frame["games"] += rulebook
    return frame


def trace_summary(method: pd.DataFrame, baseline: pd.DataFrame) -> dict:
    """How fast ``method`` matched ``baseline``'s final best (``search_trace`` tables of one seed)."""
    target = baseline["best"].iloc[-1]
    reached = baseline[baseline["best"] <= target]["games"].iloc[0]
    matched = method[method["best"] <= target]
    games = float(matched["games"].iloc[0]) if len(matched) else np.nan
    return {"baseline_best": float(target), "baseline_games_to_best": float(reached),
            "method_best": float(method["best"].iloc[-1]), "games_to_match": games,
            "speedup": float(reached / games) if np.isfinite(games) and games > 0 else np.nan}


def _fresh(directory: Path) -> dict:
    """The best finalist on fresh deals: its objective, and whether any finalist beat the rulebook and
    met its targets within the tolerance."""
    table = pd.read_csv(Path(directory) / "finalists.csv")
    rulebook, finalists = table.iloc[0], table.iloc[1:]
    best = finalists.loc[finalists["objective"].idxmin()] if len(finalists) else None
    better = finalists["better"].astype(str) == "True"
    held = finalists["outcome"].astype(str) == "held" if "outcome" in finalists else better & False
    return {"fresh_best": float(best["objective"]) if best is not None else np.nan,
            "fresh_rulebook": float(rulebook["objective"]), "beat_rulebook": int(better.sum()),
            "met_targets": int(held.sum()), "finalists": len(finalists)}


def compare_seeds(spec: BalanceSpec, baseline: BalanceSpec, seeds: list[int], out: str | Path = "runs",
                  jobs: int = 1, on_stage=None) -> pd.DataFrame:
    """Play (or resume) both specs at every seed and return one row per seed."""
    rows = []
    for seed in seeds:
        dirs = {}
        for label, which in (("method", spec), ("baseline", baseline)):
            seeded = with_seed(which, seed)
            if on_stage:
                on_stage(f"seed {seed}: {label} {seeded.study_id}")
            dirs[label] = run_balance(seeded, out=out, jobs=jobs, resume=True).directory
        row = {"seed": seed} | trace_summary(search_trace(dirs["method"]), search_trace(dirs["baseline"]))
        for label in ("method", "baseline"):
            row |= {f"{label}_{k}": v for k, v in _fresh(dirs[label]).items()}
        rows.append(row)
    return pd.DataFrame(rows)


def distribution(table: pd.DataFrame) -> str:
    """The speedups and fresh results over the seeds, in words."""
    speed = table["speedup"]
    matched = speed.notna()
    parts = [f"over {len(table)} seeds the method matched the baseline's final best in {int(matched.sum())}"]
    if matched.any():
        parts.append(f"speedup median {speed[matched].median():.2f}x, range {speed[matched].min():.2f}x to "
                     f"{speed[matched].max():.2f}x")
    parts.append(f"its best finalist beat the baseline's on fresh deals in "
                 f"{int((table['method_fresh_best'] < table['baseline_fresh_best']).sum())} of {len(table)} seeds")
    parts.append(f"some finalist beat the rulebook in {int((table['method_beat_rulebook'] > 0).sum())} (method) and "
                 f"{int((table['baseline_beat_rulebook'] > 0).sum())} (baseline) of {len(table)} seeds")
    return "; ".join(parts) + "."


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bgsim.experiments.search_seeds",
                                     description="A balance search against a baseline search, seed by seed.")
    parser.add_argument("spec", help="balance spec of the method (e.g. TPE with successive halving)")
    parser.add_argument("baseline", help="balance spec of the baseline (e.g. random search)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default="runs")
    parser.add_argument("--csv", help="write the per-seed table here")
    args = parser.parse_args(argv)
    table = compare_seeds(load_balance(args.spec), load_balance(args.baseline), args.seeds, args.out, args.jobs,
                          on_stage=lambda text: print(text, file=sys.stderr, flush=True))
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(table.to_string(index=False))
    print(distribution(table))
    if args.csv:
        table.to_csv(args.csv, index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
