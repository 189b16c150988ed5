"""Synthetic result rows with planted scoring-card effects, shared by the card tests.

Each seat triggers, in each of 4 passes, the cards on a random pair of neighbouring slots of a
12-slot line. The winner of a game is drawn with weights: a small seat advantage, times the weight
of every card the seat triggered (its deck's weight times its own), times ``pair_weight`` per pass
in which it triggered the planted PAIR, times ``late[1]`` per pass-4 trigger of a card of the deck
of ``late[0]`` (a card that seats only trigger in pass 4).
"""

from collections.abc import Mapping

import numpy as np
import polars as pl
from bgsim.reports.carpe_diem import VALUATION
from bgsim.sim.registry import make_game
from bgsim.sim.stats.attribution import catalogue_frame

# Carpe Diem's scoring cards as its profile declares them, and how its reports value a payout.
PROFILE = make_game("carpe_diem").profile
ATTRIBUTION = PROFILE.attribution()
__all__ = ["ATTRIBUTION", "PROFILE", "VALUATION"]

STRONG = 5  # A06
WEAK = 20  # B09
HIDDEN = 14  # B03
NEUTRAL = 40  # D08: no effect of its own
PAIR = (30, 31)  # C08 + C09: side by side in slots 0 and 1 in 30 % of games
LATE = 24  # C02
FIXED = 45  # D13: always pays 2 VP, 1 coin, 3 bread, 1 step with k = 1, b = 1
RED_FIXED = 4  # A05 (give 2 herb): always k = 2, b = 0, 4 VP
RARE = 58  # D26: on the board of 10 games only
NEVER_CARD = 59  # D27: never on the board
N_SLOTS = 12

_DECK = catalogue_frame(ATTRIBUTION)["deck"].to_numpy()


def synthetic(games: int = 4000, seed: int = 1, card_weight: Mapping[int, float] | None = None,
              deck_weight: Mapping[str, float] | None = None, pair_weight: float = 1.0,
              late: tuple[int, float] | None = None, players: tuple[int, ...] = (2, 3, 4)) -> tuple[pl.DataFrame, dict]:
    """Result rows (the runner's columns) of ``games`` games with player counts drawn from ``players``,
    and the true counts the tables must reproduce."""
    rng = np.random.default_rng(seed)
    weight = np.array([(deck_weight or {}).get(d, 1.0) for d in _DECK]) * np.array(
        [(card_weight or {}).get(c, 1.0) for c in range(60)])
    pool = np.array([c for c in range(60) if c not in (RARE, NEVER_CARD)])
    n_players = rng.choice(list(players), games)
    keys = rng.random((games, len(pool)))
    planted = rng.random(games) < 0.3
    for rank, card in enumerate(PAIR):  # smallest keys: slots 0 and 1
        keys[planted, np.flatnonzero(pool == card)[0]] = rank - 2.0
    board = pool[keys.argsort(axis=1)[:, :N_SLOTS]]  # (G, 12)
    board[:10, N_SLOTS - 1] = RARE
    game = np.repeat(np.arange(games), n_players)  # (S,) one entry per seat row
    seat = np.arange(len(game)) - np.repeat(np.cumsum(n_players) - n_players, n_players)
    slot = rng.integers(0, N_SLOTS - 1, (len(game), 4))  # (S, passes)
    if late is not None:
        _avoid_before_last_pass(rng, slot, board[game], late[0])
    cards = np.stack([board[game[:, None], slot], board[game[:, None], slot + 1]], axis=2)  # (S, passes, 2)
    pair = (cards.min(axis=2) == PAIR[0]) & (cards.max(axis=2) == PAIR[1])
    log_weight = (np.log([1.3, 1.0, 0.9, 0.8])[seat] + np.log(weight)[cards].sum(axis=(1, 2))
                  + np.log(pair_weight) * pair.sum(axis=1))
    if late is not None:
        log_weight += np.log(late[1]) * (_DECK[cards[:, 3]] == _DECK[late[0]]).sum(axis=1)
    keys = np.full((games, 4), -np.inf)
    keys[game, seat] = log_weight + rng.gumbel(size=len(game))  # Gumbel-max: a draw proportional to weight
    won = keys.argmax(axis=1)[game] == seat
    rows = pl.DataFrame({"game_index": game, "deal": game, "n_players": n_players[game].astype(np.int8),
                         "seat": seat.astype(np.int8), "won": won, "board_cards": board[game].astype(np.int16)})
    log = pl.DataFrame({"game_index": np.repeat(game, 8), "seat": np.repeat(seat, 8).astype(np.int8),
                        "pass": np.tile(np.repeat(np.arange(1, 5), 2), len(game)).astype(np.int8),
                        "card": cards.reshape(-1).astype(np.int16), **_outcomes(rng, cards.reshape(-1))})
    fields = ["pass", "card", "k", "b", "vp", "coins", "bread", "steps", "penalty"]
    lists = log.group_by("game_index", "seat", maintain_order=True).agg(pl.struct(fields).alias("cards"))
    rows = (rows.join(lists, on=["game_index", "seat"], how="left")
            .with_columns(pl.lit("synthetic").alias("run_id"), pl.lit("greedy").alias("strategy"),
                          pl.lit(0, pl.Int16).alias("final_vp")))
    truth = {"on_board": np.bincount(board.reshape(-1), minlength=60), "pair": int(pair.sum())}
    return rows, truth


def _avoid_before_last_pass(rng: np.random.Generator, slot: np.ndarray, boards: np.ndarray, card: int) -> None:
    """Redraw the slots of passes 1-3 that would trigger ``card``; ``slot`` (S, 4) int64 in place,
    ``boards`` (S, 12) the board of each seat's game."""
    where = np.where((boards == card).any(axis=1), (boards == card).argmax(axis=1), -9)  # (S,) its slot
    for p in range(3):
        bad = (slot[:, p] == where) | (slot[:, p] + 1 == where)
        while bad.any():
            slot[bad, p] = rng.integers(0, N_SLOTS - 1, int(bad.sum()))
            bad = (slot[:, p] == where) | (slot[:, p] + 1 == where)


def _outcomes(rng: np.random.Generator, cards: np.ndarray) -> dict[str, np.ndarray]:
    """Card-log fields of the triggers of ``cards`` (T,) int: 10 % penalties, else k = 1 or 2
    for 3 VP each and 0 or 1 coin, bread and step; FIXED and RED_FIXED pay fixed amounts."""
    t = len(cards)
    penalty = rng.random(t) < 0.1
    k = np.where(penalty, 0, rng.integers(1, 3, t))
    out = {"k": k, "b": np.zeros(t, dtype=np.int64), "vp": np.where(penalty, -4, 3 * k)}
    for kind in ("coins", "bread", "steps"):
        out[kind] = np.where(penalty, 0, rng.integers(0, 2, t))
    fixed = {FIXED: (1, 1, 2, 1, 3, 1), RED_FIXED: (2, 0, 4, 0, 0, 0)}
    for card, values in fixed.items():
        for kind, value in zip(("k", "b", "vp", "coins", "bread", "steps"), values, strict=True):
            out[kind] = np.where(cards == card, value, out[kind])
    penalty &= ~np.isin(cards, list(fixed))
    dtypes = {"k": np.int8, "b": np.int8}
    columns = {kind: values.astype(dtypes.get(kind, np.int16)) for kind, values in out.items()}
    return {**columns, "penalty": penalty}


# The planted scenarios of the card tests.
PLANTED = {"card_weight": {STRONG: 4.0, WEAK: 0.25}, "pair_weight": 4.0}
DECKS_PLANTED = {"deck_weight": {"B": 0.5, "D": 2.5}, "card_weight": {HIDDEN: 3.0}}
LATE_PLANTED = {"late": (LATE, 3.0)}
