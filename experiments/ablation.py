"""The ablation of a component-value study: deals played with a component and again with it replaced.

Per player count the study deals ``ablation.deals`` games (the source games' deals: deal g is
source game g's). Each deal is played once as dealt, and once per component it holds with that
component replaced as the game declares (``sim.api.ComponentAblation``; its profile's choice says
how in ``ablation``: another component in its place, or none); both with the
same chance and seat streams, every seat by the population's compiled policy (seat s of deal g
plays ``strategies[(s + g) % m]``, as in the source games). One row per (deal, component): each
seat's win share, the score spread and the lead changes with and without it
(``sim.stats.ablation.deal_columns``), streamed to ``ablation/n<players>/chunk-*.parquet``.

Everything is a function of (spec, player count, deal, component): identical for any number of
workers and chunk size, and a killed study keeps its finished chunks.
"""

import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from bgsim.sim.api import CompiledPlay, ComponentAblation, LockstepBatches, supports
from bgsim.sim.games.base import win_shares
from bgsim.sim.results.store import RunStoreError, write_chunk
from bgsim.sim.seeding import block_key, deal_seeds, seat_streams
from bgsim.sim.stats.ablation import ablation_moments, add_moments, correct_family, deal_columns, effects_from_moments

__all__ = ["ablates", "ablation_table", "deal_picks", "sample_ablation_chunk"]

ABLATION_DIR = "ablation"
FRESH_DIR = "ablation_fresh"  # the check on deals of seed + 1


def folder(fresh: bool) -> str:
    return FRESH_DIR if fresh else ABLATION_DIR


def ablates(setup) -> bool:
    """Whether the game of a component-value setup declares an ablation and can play one."""
    game = setup.game
    return bool(setup.choice.ablation) and all(supports(game, cap) for cap in (ComponentAblation, CompiledPlay,
                                                                              LockstepBatches))


def deal_picks(seed: int, n: int, component: int, deals: np.ndarray) -> np.ndarray:
    """(D,) float64 in [0, 1): which replacement ``component`` gets in each deal of ``deals`` ((D,)
    int64) at ``n`` players; a function of the deal alone, so chunks and workers agree."""
    key = int(np.random.SeedSequence(seed, spawn_key=(n, component, 1)).generate_state(1, dtype=np.uint64)[0])
    bits = deal_seeds(key, np.asarray(deals, dtype=np.int64))[0] >> np.uint64(11)
    return bits.astype(np.float64) * 2.0 ** -53


def sample_ablation_chunk(setup, seed: int, start: int, stop: int) -> pa.Table:
    """The (deal, component) rows of deals ``start..stop-1`` (``deal_columns``)."""
    game = setup.game
    n = game.n_players
    deals = np.arange(start, stop, dtype=np.int64)
    chance, strategy = deal_seeds(block_key(seed, n), deals)
    streams = seat_streams(strategy, n)
    seat_strategy = (np.arange(n)[None, :] + deals[:, None]) % len(setup.strategies)
    dealt = game.deal_states(chance)
    held = game.dealt_components(dealt)
    played = dealt.copy()
    leads_with = game.play_dealt(played, streams.copy(), seat_strategy, setup.policies)
    scores_with, ranks_with = game.final_standings(played)
    shares_with = win_shares(ranks_with)
    frames = []
    for component in np.flatnonzero(held.any(axis=0)):
        rows = np.flatnonzero(held[:, component])
        ablated, replacement = game.ablate(dealt[rows], int(component),
                                           deal_picks(seed, n, int(component), deals[rows]))
        leads = game.play_dealt(ablated, streams[rows].copy(), seat_strategy[rows], setup.policies)
        scores, ranks = game.final_standings(ablated)
        shares = win_shares(ranks)
        frame = {"deal": deals[rows], "component": np.full(len(rows), component, dtype=np.int64),
                 "replacement": replacement}
        for i in range(n):
            frame[f"win_with_{i}"] = shares_with[rows, i]
        for i in range(n):
            frame[f"win_without_{i}"] = shares[:, i]
        frame |= {"spread_with": _spread(scores_with[rows]), "spread_without": _spread(scores),
                  "leads_with": leads_with[rows].astype(np.int64), "leads_without": leads.astype(np.int64),
                  "winner_changed": np.any((ranks_with[rows] == 1) != (ranks == 1), axis=1).astype(np.int64)}
        frames.append(pd.DataFrame(frame))
    columns = list(deal_columns(n))
    table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)
    dtypes = {c: ("float64" if c.startswith("win_") else "int64") for c in columns}
    return pa.Table.from_pandas(table[columns].astype(dtypes), preserve_index=False)


def _spread(scores: np.ndarray) -> np.ndarray:
    """Best final score minus the worst per game ((G, P) in, (G,) int64 out)."""
    return (scores.max(axis=1) - scores.min(axis=1)).astype(np.int64)


def timed_chunk(setup_of, spec, chunk: tuple) -> tuple[tuple, pa.Table, float]:
    """``sample_ablation_chunk`` of ``chunk`` (n, first, stop, fresh: deals of seed + 1) with its wall
    time (for the workers)."""
    began = time.perf_counter()
    n, first, stop, fresh = chunk
    table = sample_ablation_chunk(setup_of(spec, n), spec.seed + (1 if fresh else 0), first, stop)
    return chunk, table, time.perf_counter() - began


def chunk_path(directory: Path, n: int, first: int, fresh: bool = False) -> Path:
    return Path(directory) / folder(fresh) / f"n{n}" / f"chunk-{first:06d}.parquet"


def write_ablation_chunk(directory: Path, n: int, first: int, table: pa.Table, fresh: bool = False) -> dict:
    path = Path(directory) / folder(fresh) / f"n{n}"
    path.mkdir(parents=True, exist_ok=True)
    return write_chunk(path, first, table)


def ablation_table(directory: Path, players: tuple[int, ...], catalogue_of, fresh: bool = False) -> pd.DataFrame:
    """The ablation effects per player count from the chunks on disk (``fresh``: the check's), one
    chunk at a time (their moments add up, so memory does not grow with the deals), with the
    catalogue's id and group (``catalogue_of(n)``: id field and rows of the attribution)."""
    frames = []
    for n in players:
        moments = None
        for path in sorted((Path(directory) / folder(fresh) / f"n{n}").glob("chunk-*.parquet")):
            try:
                rows = pq.read_table(path).to_pandas()
            except (OSError, pa.ArrowInvalid) as exc:
                raise RunStoreError(f"{path}: damaged ({exc}); run the study again with --resume to replace "
                                    f"it") from None
            chunk = ablation_moments(rows, n)
            moments = chunk if moments is None else add_moments(moments, chunk)
        table = effects_from_moments(moments, n) if moments is not None else pd.DataFrame()
        if table.empty:
            continue
        id_field, catalogue = catalogue_of(n)
        by_id = {row[id_field]: row for row in catalogue}
        table.insert(0, "n_players", table.pop("n_players"))
        table.insert(2, "id", [by_id[c]["id"] for c in table["component"]])
        table.insert(3, "group", [by_id[c].get("group", "") for c in table["component"]])
        frames.append(table)
    # one family over every player count: q-values of the whole table
    return correct_family(pd.concat(frames, ignore_index=True)) if frames else pd.DataFrame()
