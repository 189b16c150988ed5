"""Equivalence: "held" as a claim within a tolerance, never as "nothing was detected".

A start vector, a payout or a design *holds* when every quantity it is judged on lies within the
designer's tolerance of its target. That is tested with two one-sided tests (TOST) for each
quantity, all at once (Bonferroni over the k quantities):

- **held within the tolerance**: every quantity's interval at level 1 - 2 alpha / k (both one-sided
  tests reject at alpha / k) lies inside -tolerance .. +tolerance;
- **off by more than the tolerance**: some quantity's interval at level 1 - alpha / k lies wholly
  outside it. The wider interval is needed because "off" is claimed on either side: a truth inside
  the tolerance can be called off above or below, and where the games are too few to resolve the
  tolerance (the interval much wider than it) the 1 - 2 alpha interval would call a fair family off
  up to 2 alpha of the time;
- **cannot tell with these games**: neither, or fewer than ``MIN_GAMES`` games; ``games_to_tell``
  says how many games would decide, if the estimates stayed where they are.

A quantity truly at the edge of the tolerance is called held with probability at most alpha / k,
and a family truly inside it is called off with probability at most alpha, whatever the number of
games: neither outcome is the mere absence of evidence. ``plan_games`` sizes a sample for the test:
the games at which a family truly at its target is called held with the wanted power.

Seat win rates of one game are k = n seats (the rates of two seats mirror each other, so k = 1 at
2 players). Pure numpy/scipy; estimates and standard errors come from the callers (clustered by
deal where deals repeat, ``sim.stats.clustered``).
"""

from dataclasses import dataclass

import numpy as np
from scipy import stats

__all__ = ["CANNOT_TELL", "HELD", "MIN_GAMES", "OFF", "OUTCOME_WORDS", "Equivalence", "Tolerance", "equivalence",
           "plan_games", "plan_seat_games", "seat_tests", "to_tell"]

HELD, OFF, CANNOT_TELL = "held", "off", "cannot tell"
# The fewest independent games (or deals) a verdict is given on: the smallest sample at which the
# calibration suite measures it. Below it the normal intervals are not to be trusted: 4 fair seats
# on 24 games were called off 16 % of the time (a seat with one or two wins has a tiny standard error).
MIN_GAMES = 48
OUTCOME_WORDS = {HELD: "held within the tolerance", OFF: "off by more than the tolerance",
                 CANNOT_TELL: "cannot tell with these games"}


@dataclass(frozen=True)
class Tolerance:
    """What a designer accepts as even, and how sure the checks are.

    seat_pp: a seat's win rate may lie this many percentage points from its fair share; rate_pp: a
    win rate set to a target (a difficulty level) this many from the target; payout_steps: a
    component's value may lie this many payout steps (the value one unit of its payout moves) from
    even; alpha: the error rate of each verdict; power: the chance a sample sized by ``plan_games``
    calls a family that is truly on target held."""

    seat_pp: float = 2.0
    payout_steps: float = 0.5
    alpha: float = 0.05
    power: float = 0.8
    rate_pp: float = 2.0  # a win rate aimed at a target (an automa's level) may lie this many pp from it

    def __post_init__(self):
        for name in ("seat_pp", "payout_steps", "rate_pp"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0):
                raise ValueError(f"tolerance {name} must be a positive number, not {value!r}")
        if not 0 < self.alpha < 0.5:
            raise ValueError(f"tolerance alpha must be between 0 and 0.5, not {self.alpha!r}")
        if not 0.5 <= self.power < 1:
            raise ValueError(f"tolerance power must be at least 0.5 and below 1, not {self.power!r}")

    def text(self) -> str:
        return (f"±{self.seat_pp:g} pp per seat, ±{self.payout_steps:g} payout step, alpha {self.alpha:g}, "
                f"power {100 * self.power:.0f} %")


@dataclass(frozen=True)
class Equivalence:
    """A family's verdict: ``outcome`` (HELD, OFF or CANNOT_TELL), the simultaneous intervals
    ``low``/``high`` of the held test and ``off_low``/``off_high`` of the off test ((k,) float64, the
    estimates' units), the tolerance, the games the estimates came from and ``games_to_tell`` (how
    many would decide where the outcome is CANNOT_TELL; the games themselves otherwise; inf where an
    estimate sits exactly on the tolerance)."""

    outcome: str
    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    tolerance: float
    games: float
    games_to_tell: float
    off_low: np.ndarray
    off_high: np.ndarray

    @property
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The interval to show for each quantity, the one that answers its question: the off test's
        where the estimate lies beyond the tolerance (is it off?), the held test's where it lies
        inside (is it held?). So a shown interval wholly outside the tolerance always means off."""
        beyond = np.abs(self.estimate) > self.tolerance
        return np.where(beyond, self.off_low, self.low), np.where(beyond, self.off_high, self.high)

    @property
    def words(self) -> str:
        return OUTCOME_WORDS[self.outcome]

    @property
    def worst(self) -> int:
        """The quantity furthest from its target (its index)."""
        return int(np.argmax(np.abs(self.estimate)))

    @property
    def decisive(self) -> int:
        """The quantity that decides the outcome: where it is OFF, the one whose interval lies
        furthest beyond the tolerance (the furthest estimate need not be that one: a wider interval
        can reach back inside); otherwise ``worst``."""
        if self.outcome != OFF:
            return self.worst
        beyond = np.maximum(self.off_low - self.tolerance, -self.tolerance - self.off_high)
        return int(np.argmax(beyond))


def _z(alpha: float, k: int) -> float:
    return float(stats.norm.ppf(1 - alpha / k))


def equivalence(estimate, se, tolerance: float, games: float, alpha: float = 0.05, k: int | None = None) -> Equivalence:
    """The verdict on a family of quantities: ``estimate`` (k,) their distances from target (e.g. a
    seat's win rate minus its fair share), ``se`` (k,) their standard errors, ``tolerance`` the
    largest distance accepted (same units), ``games`` the sample behind them; ``k`` the number of
    tests the Bonferroni adjustment counts (default: the quantities)."""
    estimate = np.atleast_1d(np.asarray(estimate, dtype=np.float64))
    se = np.atleast_1d(np.asarray(se, dtype=np.float64))
    k = len(estimate) if k is None else k
    half, half_off = _z(alpha, k) * se, _z(alpha / 2, k) * se  # the held test's and the off test's

    def verdict(outcome: str, to_tell: float) -> Equivalence:
        return Equivalence(outcome, estimate, estimate - half, estimate + half, tolerance, games, to_tell,
                           estimate - half_off, estimate + half_off)

    if not (np.isfinite(estimate).all() and np.isfinite(half).all()):
        return verdict(CANNOT_TELL, float("inf"))
    if games < MIN_GAMES:
        return verdict(CANNOT_TELL, max(float(MIN_GAMES), _games_to_tell(estimate, half, half_off, tolerance, games)))
    if (np.abs(estimate) - half_off > tolerance).any():
        return verdict(OFF, games)
    if (np.abs(estimate) + half < tolerance).all():
        return verdict(HELD, games)
    return verdict(CANNOT_TELL, _games_to_tell(estimate, half, half_off, tolerance, games))


def _games_to_tell(estimate: np.ndarray, half: np.ndarray, half_off: np.ndarray, tolerance: float,
                   games: float) -> float:
    """Games at which the intervals (half-widths ``half`` of the held test and ``half_off`` of the off
    test now, shrinking as 1/sqrt(games)) would decide, the estimates staying put: held needs every
    half-width below its distance to the tolerance, off one below its distance beyond it."""
    margin = tolerance - np.abs(estimate)
    with np.errstate(divide="ignore"):
        held = float(np.max((half / margin) ** 2)) if (margin > 0).all() else np.inf
        beyond = -margin[margin < 0]
        off = float(np.min((half_off[margin < 0] / beyond) ** 2)) if len(beyond) else np.inf
    factor = min(held, off)
    return float(np.ceil(games * factor)) if np.isfinite(factor) else float("inf")


def plan_games(sd: float | np.ndarray, tolerance: float, alpha: float = 0.05, power: float = 0.8, k: int | None = None,
               offset: float = 0.0) -> int:
    """Games for a family of ``k`` quantities (default: len(sd)) with per-game standard deviations
    ``sd`` (a quantity's standard error is sd / sqrt(games)) whose true distance from target is
    ``offset``: enough that each simultaneous interval falls inside the tolerance with probability
    1 - (1 - power) / k, so the family is called held with at least the wanted power."""
    sd = np.atleast_1d(np.asarray(sd, dtype=np.float64))
    k = len(sd) if k is None else k
    room = tolerance - abs(offset)
    if room <= 0:
        raise ValueError("no sample can show a quantity within the tolerance when its true distance is the tolerance "
                         "or more")
    z = _z(alpha, k) + float(stats.norm.ppf(1 - (1 - power) / (2 * k)))
    return int(np.ceil(float(np.max((z * sd / room) ** 2))))


def plan_seat_games(n_players: int, tolerance: Tolerance, design_effect: float = 1.0, offset: float = 0.0) -> int:
    """Games for a seat verdict at ``n_players``: enough that seats ``offset`` (a fraction, at most
    half the tolerance) from their fair share are called held within the tolerance with the wanted
    power, each seat's win variance at the fair share times ``design_effect`` (a mixed table's deals,
    played in every seating, move together: a study measures how much)."""
    fair = 1.0 / n_players
    sd = np.sqrt(fair * (1 - fair) * max(design_effect, 1.0))
    room = tolerance.seat_pp / 100
    return plan_games(sd, room, tolerance.alpha, tolerance.power, k=seat_tests(n_players),
                      offset=min(abs(offset), room / 2))


FAR = 50  # games to tell beyond this many times those played: the estimate sits on the tolerance


def to_tell(needed: float | None, played: float | None, unit: str = "games") -> str:
    """How many ``unit`` would decide a "cannot tell", in words for a report clause: "about 41,250
    games would tell"; where that is more than ``FAR`` times those ``played`` (or unknown), that only
    far more would, because the estimate sits on the edge of the tolerance."""
    if needed is None or not np.isfinite(needed):
        return f"no number of {unit} would tell: the estimate sits on the edge of the tolerance"
    if played and needed > FAR * played:
        return f"only far more {unit} would tell: the estimate sits near the edge of the tolerance"
    return f"about {int(needed):,} {unit} would tell"


def seat_tests(n_players: int) -> int:
    """How many seat tests a family of ``n_players`` seat rates counts: the seats, or one at two
    players (one seat's gap is the other's, negated)."""
    return 1 if n_players == 2 else n_players
