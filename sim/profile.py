"""A game's profile: the surface the lab analyses, declared by the game beside its rules.

Studies and reports know a game only through its profile: which player counts it has, how its
final score splits into categories, what its result columns mean, what a seat may see, which
components outcomes are attributed to, the parameter that compensates seat order, the automa and
its difficulty knobs, and the variants of its reconstructed components. The runner writes the
profile of the game it played into ``meta.json``; a report reads it from there (``profile_of``),
never from the engine's files, so a run with its own data overrides is described by that data.

Every part is plain data (strings, numbers, tuples) and round-trips through JSON.
"""

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Attribution", "AutomaProfile", "ComponentChoice", "Compensation", "GameProfile", "Knob", "ScoreCategory",
           "VariantInfo"]


@dataclass(frozen=True)
class ScoreCategory:
    """One part of the final score; ``column`` is its per-seat result column (int)."""

    column: str  # e.g. "pts_buildings"
    label: str  # e.g. "buildings", for tables and charts
    doc: str = ""  # what it counts, with rule ids


@dataclass(frozen=True)
class Attribution:
    """Components that studies attribute outcomes to (a game's cards, auction items, buildings).

    ``board_column``: per seat row, the (fixed-size list of) component ids in play in that game,
    -1 for an empty place; ``events_column``: per seat row, a list of structs, one per time the
    seat scored with a component, with at least the fields ``id_field`` and ``payoff_field``.
    ``catalogue``: one dict per component (``id``, ``group``, ``label`` and anything else);
    components are compared within their ``group`` (a deck of cards, a kind of auction item). An
    ``id`` is the component's name as the game names it: specs, tables and labels all use it.
    """

    name: str  # e.g. "building_tiles"
    label: str  # plural, e.g. "building tiles"
    singular: str  # e.g. "building tile"
    board_column: str
    events_column: str
    id_field: str  # the event field holding the component's id, e.g. "tile"
    payoff_field: str  # the event field holding what it paid in score units, e.g. "points"
    group_label: str = "group"  # what a group is called, e.g. "deck"
    catalogue: tuple[dict, ...] = ()
    payoff_fields: tuple[str, ...] = ()  # every amount an event can pay (points, coins, ...), for payoff tables
    # ids that earlier versions gave the components (old id -> id), so that a spec written with one
    # still names the same component
    renamed: dict[str, str] = field(default_factory=dict)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(row["id"] for row in self.catalogue)

    def component(self, name: str) -> dict | None:
        """The catalogue row of the component called ``name`` (its id, or an id it had before), else None."""
        name = self.renamed.get(name, name)
        return next((row for row in self.catalogue if row["id"] == name), None)


@dataclass(frozen=True)
class ComponentChoice:
    """A decision where a seat picks components of an attribution, and the payout a component-value
    study may change (the engine side: ``sim.api.ComponentChoices``).

    A row may take several components (a disc that triggers two cards); a component is *on offer*
    at a decision when some rows take it and some do not.
    """

    attribution: str  # the attribution whose components the rows take, e.g. "scoring_cards"
    decisions: tuple[str, ...]  # the decision kinds, e.g. ("disc",)
    doc: str  # what a row takes, with rule ids
    payout: str  # what a component's payout is, e.g. "VP per fulfilment"
    payout_unit: str  # e.g. "VP"
    payout_range: tuple[int, int]  # the payouts a solver may try, inclusive
    # how an ablation replaces a component on a deal (``sim.api.ComponentAblation``); "" none
    ablation: str = ""
    # the payouts the game's parameter accepts, inclusive, where wider than the solver's range (a
    # balance search's lever may move that far); None: payout_range
    payout_limits: tuple[int, int] | None = None
    # the catalogue groups whose components the rows take and whose payouts the game can change; () every group
    groups: tuple[str, ...] = ()

    @property
    def allowed(self) -> tuple[int, int]:
        """The payouts a lever may set: ``payout_limits``, else ``payout_range``."""
        return self.payout_limits or self.payout_range


@dataclass(frozen=True)
class Compensation:
    """The parameter that gives seats different starting positions, and how studies vary it.

    A start vector is written ``"8/9/13"`` (one value per seat), or one of the named vectors
    (``named``: name -> description; ``"rulebook"`` is the game's own, ``"equal"`` every seat alike).
    """

    parameter: str  # game parameter that takes a start vector, e.g. "start_points"
    column: str  # per seat result column with the seat's value, e.g. "start_points"
    label: str  # e.g. "start points"
    unit: str  # what one step of the value is, e.g. "points"
    fixed_first: int  # the first seat's value, held fixed by the solver
    rulebook: dict[int, tuple[int, ...]] = field(default_factory=dict)  # player count -> the rulebook's vector
    named: dict[str, str] = field(default_factory=dict)
    tiebreak_column: str | None = None  # per seat place in the tie-break order, to re-rank under other vectors
    adds_to_score: bool = True  # the value is part of the final score (re-scoring adds the difference)
    # Where the value also changes play (a rule reads the score during the game), re-scoring stored
    # games only gives a first guess: the seat-order study then refines the vector on fresh deals.
    changes_play: str = ""  # "" when it only adds to the final score; else how it changes play, with rule ids


@dataclass(frozen=True)
class Knob:
    """A difficulty knob of an automa: an integer game parameter a player can set at the table."""

    parameter: str  # e.g. "bot_start_points"
    label: str  # e.g. "the bot's start points"
    rulebook: int  # the value of the unmodified game
    harder: int  # +1 if a larger value makes the automa harder, -1 if easier
    table_text: str  # how a player applies a value: "the bot starts with {value} points"; also {half} and {s}
    search: tuple[int, int] | None = None  # legal values a calibration searches by default (None: rulebook +-150)

    def at_the_table(self, value: int) -> str:
        """The setting as a player applies it, e.g. "the bot starts with -6 points"."""
        return self.table_text.format(value=value, half=value // 2, s="" if value == 1 else "s")


@dataclass(frozen=True)
class AutomaProfile:
    """An automa opponent: the player counts it plays at, its knobs, and its result columns."""

    name: str  # e.g. "the bot"
    player_counts: tuple[int, ...]  # e.g. (1,): solo
    knobs: tuple[Knob, ...]
    score_column: str  # the automa's final score on the human's row, e.g. "bot_points"
    margin_column: str  # human minus automa, e.g. "margin"
    category_columns: dict[str, str] = field(default_factory=dict)  # automa score part -> column
    rules_parameters: tuple[str, ...] = ()  # the automa's rule parameters (ambiguities), shown in reports
    calibration_knob: str = ""  # the knob a difficulty study calibrates by default

    def knob(self, parameter: str) -> Knob:
        for knob in self.knobs:
            if knob.parameter == parameter:
                return knob
        raise KeyError(parameter)


@dataclass(frozen=True)
class VariantInfo:
    """A named variant of a reconstructed component, declared once in the game's profile: the game
    parameters it sets and the data files it replaces, each by a recipe of the game's variants part
    (``experiments.variants.VariantData``)."""

    name: str
    description: str
    params: dict[str, Any] = field(default_factory=dict)  # game parameter -> the value it sets
    data: dict[str, str] = field(default_factory=dict)  # data file it replaces -> the recipe that derives it


@dataclass(frozen=True)
class GameProfile:
    """What a study or a report may know about a game."""

    game: str  # registry name
    title: str  # as printed on the box
    player_counts: tuple[int, ...]
    score_column: str  # the final score's result column, e.g. "final_points"
    score_unit: str  # e.g. "points"
    categories: tuple[ScoreCategory, ...]  # sum to the final score
    records: dict[str, str]  # every per-seat result column the game adds -> its meaning
    seat_view: str  # what a seat may see, and what is hidden from it
    attributions: tuple[Attribution, ...] = ()
    compensation: Compensation | None = None
    automa: AutomaProfile | None = None
    variants: tuple[VariantInfo, ...] = ()
    choices: tuple[ComponentChoice, ...] = ()  # decisions that pick components (component-value studies)
    data_overrides: dict[str, str] = field(default_factory=dict)  # override name -> what the file holds
    # The rules share a tied win: every seat with rank 1 wins, and rates count 1/k to each of the k
    # winners (the ``win_share`` column, sim/stats/wins.py); ``won`` keeps the tie-break's one winner.
    shared_wins: str = ""  # "" when a tie-break always decides; else the rule that shares, e.g. "CAP-END-2"
    # per-game numbers a balance search may target (name -> what it counts), from ``sim.api.GameMeasures``
    measures: dict[str, str] = field(default_factory=dict)

    @property
    def category_columns(self) -> tuple[str, ...]:
        return tuple(c.column for c in self.categories)

    def category_label(self, column: str) -> str:
        return next((c.label for c in self.categories if c.column == column), column)

    def attribution(self, name: str | None = None) -> Attribution | None:
        """The attribution called ``name``, or the first one; None if the game declares none."""
        for item in self.attributions:
            if name is None or item.name == name:
                return item
        return None

    def choice(self, attribution: str | None = None) -> ComponentChoice | None:
        """The component choice over ``attribution`` (or the first one); None if the game declares none."""
        for item in self.choices:
            if attribution is None or item.attribution == attribution:
                return item
        return None

    def choice_catalogue(self, choice: ComponentChoice | None = None) -> tuple[dict, ...]:
        """The catalogue rows of the components ``choice`` (or the first choice) takes and pays: those of
        its groups; () if the game declares no choice."""
        choice = choice or self.choice()
        if choice is None:
            return ()
        rows = self.attribution(choice.attribution).catalogue
        return tuple(row for row in rows if not choice.groups or row.get("group") in choice.groups)

    def list_columns(self) -> tuple[str, ...]:
        """Result columns holding lists (component ids and events), which flat tables leave out."""
        return tuple(c for a in self.attributions for c in (a.board_column, a.events_column))

    def to_json(self) -> dict:
        return _plain(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, doc: dict) -> "GameProfile":
        doc = dict(doc)
        doc["player_counts"] = tuple(doc["player_counts"])
        doc["categories"] = tuple(ScoreCategory(**c) for c in doc["categories"])
        doc["attributions"] = tuple(Attribution(**{**a, "catalogue": tuple(a.get("catalogue", ())),
                                                   "payoff_fields": tuple(a.get("payoff_fields", ()))})
                                    for a in doc.get("attributions", ()))
        comp = doc.get("compensation")
        if comp is not None:
            comp = dict(comp)
            comp["rulebook"] = {int(n): tuple(v) for n, v in comp.get("rulebook", {}).items()}
            doc["compensation"] = Compensation(**comp)
        automa = doc.get("automa")
        if automa is not None:
            automa = dict(automa)
            automa["player_counts"] = tuple(automa["player_counts"])
            automa["knobs"] = tuple(Knob(**{**k, "search": None if k.get("search") is None else tuple(k["search"])})
                                    for k in automa["knobs"])
            automa["rules_parameters"] = tuple(automa.get("rules_parameters", ()))
            doc["automa"] = AutomaProfile(**automa)
        doc["choices"] = tuple(ComponentChoice(**{**c, "decisions": tuple(c["decisions"]),
                                                  "payout_range": tuple(c["payout_range"]),
                                                  "payout_limits": tuple(c["payout_limits"])
                                                  if c.get("payout_limits") else None,
                                                  "groups": tuple(c.get("groups", ()))})
                               for c in doc.get("choices", ()))
        doc["variants"] = tuple(VariantInfo(**{**v, "data": _recipes(v.get("data", {}))})
                                for v in doc.get("variants", ()))
        return cls(**doc)


def _recipes(data) -> dict[str, str]:
    """A variant's data recipes as stored; profiles written before recipes listed the file names only."""
    return dict(data) if isinstance(data, dict) else {name: "" for name in data}


def _plain(value):
    """JSON-ready: tuples as lists, dict keys as strings (player counts)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def round_trip(profile: GameProfile) -> GameProfile:
    """The profile as a report will read it back from ``meta.json`` (for tests and the runner)."""
    return GameProfile.from_json(json.loads(json.dumps(profile.to_json())))
