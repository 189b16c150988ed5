"""What a game may add to the generic reports: ``ReportExtras``.

A game's report package (named in its entry's ``parts.reports``) declares ``EXTRAS =
ReportExtras(...)`` with what the game has to say; every member left out keeps a default that says
nothing, so the generic reports use each member unconditionally and a game without a report
package gets ``NO_EXTRAS``. The conformance suite checks every declared ``EXTRAS``: its type, and
that each function it gives takes the arguments of the default it replaces.

``rows`` is a study's rows: a LazyFrame over its chunks (or a polars or pandas DataFrame);
aggregate it lazily, so that only per-value counts and per-game sums are ever held.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from bgsim.sim.stats.attribution import Valuation
from bgsim.sim.stats.intervals import wilson

__all__ = ["NO_EXTRAS", "EventWords", "ReportExtras", "HOOKS", "measure_lines", "share_measure"]


@dataclass(frozen=True)
class EventWords:
    """How a report says that a seat scored with a component: a card is "triggered", an auction item
    "bought". The defaults fit any game."""

    verb: str = "used"  # past tense, the component its object: "the seats that used it"
    noun: str = "use"  # one event: "payoff per use"
    plural: str = "uses"


def _no_valuation_note() -> str | None:
    """One paragraph on how payouts are turned into score units; None: the generic sentence."""
    return None


def _no_group_split_reason(low: set[str], high: set[str]) -> str | None:
    """Why the component groups ``low`` win less and ``high`` more as a whole, if the rules say why."""
    return None


def _no_study_answers(rows, profile) -> list[str]:
    """The game's own answer lines of a seat-order report."""
    return []


def _no_study_sections(rep, rows, profile) -> None:
    """The game's own sections of a seat-order report, added to the report ``rep``."""


def _no_study_measures(rows, profile) -> pd.DataFrame | None:
    """One row per measure and player count (``measure, n_players, text, trials`` and the values),
    compared across the variants of a robustness report; None for a game without measures."""
    return None


def measure_lines(table: pd.DataFrame) -> list[str]:
    """Answer lines on the measures of every variant (``study_measures`` rows with ``variant``): one
    per measure and player count, its value in the baseline and under each variant."""
    lines = []
    for (measure, n), part in table.groupby(["measure", "n_players"], sort=False):
        values = "; ".join(f"{r.variant}: {r.text}" for r in part.itertuples())
        lines.append(f"{measure} ({n} players): {values}")
    return lines


def share_measure(measure: str, n: int, hits: float, trials: int) -> dict:
    """A ``study_measures`` row for a share: ``hits`` of ``trials`` with its Wilson 95 % interval
    (``value``, ``low``, ``high``) and the ``text`` "12.3 % [10.1, 14.8]"."""
    low, high = wilson(np.array([hits]), np.array([trials]))
    value = hits / trials if trials else np.nan
    text = f"{100 * value:.1f} % [{100 * low[0]:.1f}, {100 * high[0]:.1f}]"
    return {"measure": measure, "n_players": n, "value": value, "low": float(low[0]), "high": float(high[0]),
            "trials": trials, "text": text}


@dataclass(frozen=True)
class ReportExtras:
    """A game's additions to the seat-order, attribution, robustness and difficulty reports."""

    valuation: Valuation = field(default_factory=Valuation)  # how an attributed event's payout is valued
    attribution_method: str = ""  # the game's own Method paragraph on attribution ("": the generic one)
    penalty_label: str = "penalty rate"  # heading of the attribution's penalty-rate column
    event_words: EventWords = field(default_factory=EventWords)  # how its reports call an attributed event
    difficulty_texts: dict[str, str] = field(default_factory=dict)  # difficulty paragraph key -> the game's text
    valuation_note: Callable[[], str | None] = _no_valuation_note
    group_split_reason: Callable[[set[str], set[str]], str | None] = _no_group_split_reason
    study_answers: Callable[..., list[str]] = _no_study_answers
    add_study_sections: Callable[..., None] = _no_study_sections
    study_measures: Callable[..., pd.DataFrame | None] = _no_study_measures
    measure_answers: Callable[[pd.DataFrame], list[str]] = measure_lines


HOOKS = {name: default for name, default in vars(ReportExtras).items() if callable(default) and
         name in ReportExtras.__dataclass_fields__}  # hook name -> the default whose arguments a game keeps
NO_EXTRAS = ReportExtras()
