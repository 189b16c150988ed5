"""The tournament report: Markdown, two charts, every number as JSON, and the spec.

``write_report(summary, directory)`` writes::

    README.md         what was played (first: game ids, data files by hash, strategies, seed,
                      versions), the spec, standings, pairwise matrix, ratings, neighbour
                      comparisons, games and run id per pairing, versions and git sha
    ratings.png       ratings with interval bars (reports.charts.ratings_chart)
    pairwise.png      heatmap of the win matrix (reports.charts.pairwise_heatmap)
    summary.json      all numbers, machine-readable
    provenance.json   what was played, machine-readable (``sim.results.played``), as beside every
                      report's tables
    tournament.toml   the resolved tournament spec

Each file is written atomically. The summary is plain data (frames and dicts), built by
``experiments.tournament.summarise`` from the stored results.
"""

import json
import math
from pathlib import Path

import pandas as pd
import tomli_w
from bgsim.reports.charts import pairwise_heatmap, ratings_chart
from bgsim.reports.provenance import header
from bgsim.sim.results.contents import StudyContents
from bgsim.sim.results.store import RunStoreError, write_atomic, write_json, write_toml
from bgsim.sim.stats.ratings import TournamentSummary

__all__ = ["markdown", "neighbour_sentence", "write_report"]


# --- formatting


def _pct(x: float) -> str:
    return "–" if x is None or math.isnan(x) else f"{100 * x:.1f} %"


def _interval(low: float, high: float, digits: int = 1, scale: float = 1.0) -> str:
    if math.isnan(low) or math.isnan(high):
        return "–"
    return f"[{scale * low:.{digits}f}, {scale * high:.{digits}f}]"


def _p(p: float, name: str = "p") -> str:
    if math.isnan(p):
        return "–"
    return f"{name} < 0.001" if p < 0.001 else f"{name} = {p:.3f}"


def _table(headers: list[str], rows: list[list]) -> str:
    cell = lambda v: str(v).replace("|", "\\|")  # noqa: E731
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def _level(confidence: float) -> str:
    return f"{100 * (1 - confidence):g} %"


def neighbour_sentence(row: dict, confidence: float = 0.95) -> str:
    """One sentence on a strategy and the next one in the list: head-to-head share, whether it
    differs from 50 % at the test level, and the rating difference."""
    lower, upper, n = row["lower"], row["upper"], row["n_players"]
    level = _level(confidence)
    rating = (f"Rating difference {row['rating_difference']:+.0f} Elo "
              f"{_interval(row['difference_low'], row['difference_high'], 0)}.")
    if not row["games"]:
        return f"**{upper}** vs **{lower}** ({n} players): they did not meet in a game. {rating}"
    verdict = "significant" if row["significant"] else "not significant"
    return (f"**{upper}** vs **{lower}** ({n} players, {row['games']:,} games): {upper} finished ahead in "
            f"{_pct(row['share'])} {_interval(row['low'], row['high'], 1, 100)}; the difference from 50 % is "
            f"{verdict} at {level} (two-sided exact binomial test, {_p(row['p_value'])}). {rating}")


def _standings_md(s: pd.DataFrame, unit: str) -> str:
    rows = [[r.n_players, r.strategy, f"{r.games:,}", f"{_pct(r.win_rate)} {_interval(r.win_low, r.win_high, 1, 100)}",
             r.tie_break_wins, f"{r.mean_score:.1f} {_interval(r.score_low, r.score_high)}",
             f"{r.mean_rank:.2f} {_interval(r.rank_low, r.rank_high, 2)}"] for r in s.itertuples()]
    return _table(["players", "strategy", "games", "win rate [95 % CI]", "tie-break wins",
                   f"mean {unit} [95 % CI]", "mean rank [95 % CI]"], rows)


def _matrix_md(pairwise: pd.DataFrame, order: list[str], n: int) -> str:
    rows_n = pairwise[pairwise["n_players"] == n]
    cells = {(r.a, r.b): r for r in rows_n.itertuples()}
    present = [s for s in order if s in set(rows_n["a"])]
    rows = []
    for a in present:
        row = [a]
        for b in present:
            r = cells.get((a, b))
            if a == b:
                row.append("—")
            elif r is None:
                row.append("·")
            else:
                mark = "*" if r.significant else ""
                row.append(f"{_pct(r.share)}{mark} {_interval(r.low, r.high, 1, 100)}")
        rows.append(row)
    return _table(["ahead of →"] + present, rows)


def _pairs_md(pairwise: pd.DataFrame, order: list[str]) -> str:
    position = {s: i for i, s in enumerate(order)}
    once = pairwise[pairwise["a"].map(position) < pairwise["b"].map(position)]
    rows = [[r.n_players, r.a, r.b, f"{r.games:,}", f"{r.ahead:,}", f"{r.behind:,}",
             f"{_pct(r.share)} {_interval(r.low, r.high, 1, 100)}", _p(r.p_value), _p(r.q_value, "q"),
             "yes" if r.significant else "no"] for r in once.itertuples()]
    return _table(["players", "a", "b", "games", "a ahead", "b ahead", "a's share [95 % CI]", "binomial test",
                   "Benjamini–Hochberg", "significant"], rows)


def _ratings_md(ratings: pd.DataFrame) -> str:
    rows = [[r.n_players, r.strategy, f"{r.rating:+.0f}", _interval(r.low, r.high, 0), f"{r.comparisons:,}"]
            for r in ratings.itertuples()]
    return _table(["players", "strategy", "rating (Elo)", "95 % interval", "comparisons"], rows)


def _rating_intervals_text(settings: dict, confidence: float) -> str:
    """How the rating intervals were found, or that ``--bootstrap 0`` skipped them."""
    replicates = settings.get("bootstrap_replicates", 0)
    if not replicates:
        return "No intervals: the bootstrap over deals was skipped (`--bootstrap 0`)."
    return (f"Intervals: {100 * confidence:g} % percentile bootstrap with {replicates:,} resamples of the deals "
            f"(seed {settings.get('bootstrap_seed')}; all games of a deal stay together, in every pairing), "
            f"relative to the anchor, whose interval is a point.")


def _perfect_records(pairwise: pd.DataFrame, order: list[str]) -> list[str]:
    """A warning for pairs in which one side never finished ahead: there the rating gap is set
    by the pseudo-game prior and the number of games, and no resample can show how large it is."""
    position = {s: i for i, s in enumerate(order)}
    perfect = pairwise[(pairwise["share"] == 1) & (pairwise["games"] > 0)]
    if perfect.empty:
        return []
    pairs = ", ".join(f"{r.a} over {r.b} ({r.n_players} players, {r.ahead:,} of {r.ahead + r.behind:,})"
                      for r in perfect.sort_values(["n_players", "a"], key=lambda c: c.map(position)
                                                   if c.name == "a" else c).itertuples())
    return [f"Perfect records: {pairs}. The rating gap of such a pair is a lower bound set by the prior and the "
            f"number of games, and its interval understates the uncertainty.", ""]


def markdown(summary: TournamentSummary) -> str:
    """The report's README.md."""
    spec, st = summary.spec, summary.settings
    conf = st.get("confidence", 0.95)
    caps = spec["run"].get("games_for", {})
    lines = [f"# Tournament {summary.name}", ""]
    if summary.description:
        lines += [summary.description, ""]
    played = {k: v for k, v in header(summary.provenance.get("played") or {}).items() if k != "description"}
    if played:  # what was played, before anything else (the description is the line above)
        lines += [f"- {label}: {text}" for label, text in played.items()] + [""]
    lines += [
        "## What was played", "",
        f"- Game: `{spec['game']['id']}` with {', '.join(str(n) for n in spec['game']['players'])} players"
        + (f", parameters `{spec['game']['params']}`" if spec["game"].get("params") else "")
        + (f", data overrides `{spec['game']['data']}`" if spec["game"].get("data") else ""),
        "- Strategies (in list order; the rating anchor is the first): "
        + ", ".join(f"`{s}` ({summary.strategy_ids.get(s, s)})" for s in summary.strategies),
        f"- Pairings: `{spec['tournament']['pairings']}`; {spec['run']['games']:,} games per pairing and player count"
        + ("; at most " + ", ".join(f"{v:,} for pairings with `{k}`" for k, v in caps.items()) if caps else ""),
        f"- Every deal is played in every seating of its pairing, and all pairings share the deals "
        f"(seed {spec['run']['seed']}, tier `{spec['run']['tier']}`).",
        f"- Results: `{summary.directory}` (tournament id `{summary.tournament_id}`)", "",
        "## Standings", "",
        (f"A win is rank 1; the rules share a tied win ({summary.shared_wins}), and each winner counts its share; "
         if summary.shared_wins else "A win is rank 1 after the rules' tie-break; ")
        + f"*tie-break wins* counts wins with equal {summary.score_unit}. "
        "Intervals: Wilson "
        "(win rate) and t (means), clustered by deal (a deal's games in every pairing and seating move together). "
        "Pooled over every game a strategy played, so they also reflect whom it met.", "",
        _standings_md(summary.standings, summary.score_unit), "",
        "## Pairwise", "",
        "Share of the games with both strategies in which the row strategy finished ahead of the column strategy "
        f"(2 players: the head-to-head win rate), with its Wilson interval on the effective comparisons (clustered by "
        f"deal); `*`: different from 50 % at "
        f"{_level(conf)} (two-sided exact binomial test); `·`: never met.", "",
    ]
    for n in sorted(summary.pairwise["n_players"].unique()):
        lines += [f"### {n} players", "", _matrix_md(summary.pairwise, summary.strategies, n), ""]
    lines += ["Every pair once (q: Benjamini–Hochberg over the pairs of a player count):", "",
              _pairs_md(summary.pairwise, summary.strategies), "",
              "## Ratings", "",
              f"Bradley–Terry strengths fitted by maximum likelihood to every pair of seats of every game, in Elo "
              f"points (400·log10 of the strength ratio; +200 means finishing ahead about 76 % of the time), "
              f"`{st.get('anchor')}` = 0. Each compared pair gets {st.get('prior_games', 1):g} pseudo-game split "
              f"half and half, which keeps a strategy that never loses finite. {_rating_intervals_text(st, conf)}",
              "",
              _ratings_md(summary.ratings), ""] + _perfect_records(summary.pairwise, summary.strategies) + [
              "![ratings](ratings.png)", "",
              "## Neighbours in the list", ""]
    lines += [f"- {neighbour_sentence(row, conf)}" for row in summary.neighbours.to_dict(orient="records")]
    lines += ["", "![pairwise](pairwise.png)", "", "## Pairings", "",
              _table(["players", "strategies", "games", "run id", "seconds"],
                     [[r.n_players, r.strategies, f"{r.games:,}", f"`{r.run_id}`", r.seconds]
                      for r in summary.pairings.itertuples()]), "",
              "## Provenance", ""]
    prov = summary.provenance
    for git in prov.get("git", []):
        git = git or {}
        lines.append(f"- git sha `{git.get('sha')}`" + (" (uncommitted changes)" if git.get("dirty") else ""))
    for versions in prov.get("versions", []):
        lines.append("- versions: " + ", ".join(f"{k} {v}" for k, v in (versions or {}).items()))
    lines.append(f"- rules versions: {', '.join(map(str, prov.get('rules_versions', [])))}; component data files: "
                 f"{', '.join(f'`{h}`' for h in prov.get('data_hashes', []))}")
    lines += ["", "## Spec", "", "```toml", tomli_w.dumps(spec).rstrip(), "```", ""]
    return "\n".join(lines)


def write_report(summary: TournamentSummary, directory: str | Path) -> Path:
    """Write README.md, ratings.png, pairwise.png, summary.json, provenance.json and tournament.toml into
    ``directory``."""
    directory = Path(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunStoreError(f"cannot write the report to {directory}: {exc.strerror or exc}") from None
    text = markdown(summary)
    write_atomic(directory / "README.md", lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
    for name, figure in (("ratings.png", ratings_chart(summary.ratings, summary.strategies)),
                         ("pairwise.png", pairwise_heatmap(summary.pairwise, summary.strategies))):
        write_atomic(directory / name, lambda tmp, figure=figure: figure.savefig(tmp, format="png", dpi=120))
    write_json(directory / "summary.json", json.loads(json.dumps(summary.to_json(), default=str)))
    if summary.provenance.get("played"):
        write_json(directory / "provenance.json", summary.provenance["played"])
    write_toml(directory / "tournament.toml", summary.spec)
    return directory


class TournamentPages:
    """A tournament's report as ``bgsim report`` writes it: the same files as ``bgsim tournament --report``."""

    def __init__(self, summary: TournamentSummary):
        self.summary = summary

    def write(self, directory: str | Path) -> Path:
        return write_report(self.summary, directory)


def report(contents: StudyContents, extras=None) -> tuple[TournamentPages, None]:
    """The tournament's report from what it gathered (``experiments.tournament.contents``): its summary."""
    return TournamentPages(contents.parts["summary"]), None
