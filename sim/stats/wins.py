"""Wins as the rules count them: a shared win is a share.

Where a game's rules share a tied win (its profile's ``shared_wins``), every seat with ``rank`` 1 is
a winner, and studies count 1/k of the game to each of the k winners: the ``win_share`` column
(written by the game's records with ``sim.games.base.win_shares``).
Seat and strategy win rates are means of it, so a table's seat rates still add up to exactly 1 per
game. The ``won`` column keeps one winner per game (the game's tie-break order) for whoever wants
that reading. Rows written before ``win_share`` existed fall back to ``won``.

A share is not a 0/1 outcome, so its interval is a Wilson interval on the *effective* number of
games: n * p(1-p) / s², with s² the outcomes' observed variance. For 0/1 outcomes s² = p(1-p) and it
is the plain Wilson interval; shares of 1/k have less variance than wins, and the interval narrows
accordingly.
"""

import numpy as np
import polars as pl
from bgsim.sim.stats.intervals import wilson

__all__ = ["WIN_SHARE", "effective_games", "share_interval", "win_column"]

WIN_SHARE = "win_share"


def win_column(columns) -> pl.Expr:
    """A seat's win as a Float64 expression: ``win_share`` where the rows have it, else ``won``."""
    return pl.col(WIN_SHARE if WIN_SHARE in columns else "won").cast(pl.Float64)


def effective_games(wins: np.ndarray, squares: np.ndarray, games: np.ndarray) -> np.ndarray:
    """(K,) float64 effective number of games of a rate from the (K,) sums of the outcomes, of their
    squares and the games: ``games`` itself for 0/1 outcomes (squares == wins), more for shares."""
    wins, squares, games = (np.asarray(v, dtype=np.float64) for v in (wins, squares, games))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = wins / games
        variance = squares / games - p * p
        ratio = np.where(variance > 0, p * (1 - p) / variance, 1.0)
    # rounding can leave a 0/1 variance a hair off p(1-p): never fewer games than were played
    return games * np.maximum(np.nan_to_num(ratio, nan=1.0), 1.0)


def share_interval(wins: np.ndarray, squares: np.ndarray, games: np.ndarray,
                   confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson intervals of win rates whose outcomes may be shares, from (K,) sums of the outcomes, of
    their squares and the games (module docstring); equal to ``wilson(wins, games)`` for 0/1 outcomes."""
    wins, games = np.asarray(wins, dtype=np.float64), np.asarray(games, dtype=np.float64)
    n = effective_games(wins, squares, games)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(games > 0, wins / games, 0.0)
    return wilson(rate * n, n, confidence)
