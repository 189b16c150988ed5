"""Parameters as data: a game declares one table of ``Param`` rows and everything else is derived.

A game's ``params.py`` writes each parameter once, as a row of its ``ParamTable``::

    TABLE = ParamTable("mygame", (
        Param("n_players", "players", 3, "player count 2..4", rule="XX-SETUP-1", low=2, high=4,
              slot="PR_N_PLAYERS"),
        Param("temple_from", "choice", "same_round", "a temple doubles from ...", rule="AMB-3",
              choices=("same_round", "next_round"), slot="PR_TEMPLE_FROM"),
        ...
    ))

    @TABLE.params_class
    class Params(GameParams): ...      # a frozen dataclass with one field per row

From the table come: the ``Params`` dataclass with ``from_dict`` (one-line ``GameIdError``s, with
"did you mean" for a misspelt name or choice), ``docs`` (one line per parameter for `bgsim games`),
the layout of the compiled parameter array (``constants``; ``Params.to_array``) and the levers a
profile lists (``compensation``, ``tunable``, ``automa_rules``).

The kernels import the array's indices from the game's ``param_slots.py``, a module written from the
table (``slots_source``: ``PR_N_PLAYERS = 0``, ``PR_TEMPLE_FROM = 1``, ..., ``N_PARAMS``) by
``python -m tests.param_slots``; the conformance suite fails while it differs from the table. Plain
assignments, so that a reader and an editor can follow each name to its value, and numba compiles
each index in as a constant.

Kinds, what a value may be, and its code in the compiled array unless the row has an ``encode``:

| kind    | value                                                       | code                      |
|---------|-------------------------------------------------------------|---------------------------|
| players | the player count, ``low..high``                             | the count                 |
| choice  | one of ``choices``                                          | its index in ``choices``  |
| flag    | true or false                                               | 1 or 0                    |
| int     | an integer >= ``low`` (<= ``high``); none if ``none`` is set | the integer; ``none``     |
| seat    | a seat 0..n-1 or 'random'                                   | the seat; -1 for random   |
| start   | a start vector: rulebook, equal or integers joined by '/'   | the values by seat        |
| text    | text that the row's ``check`` reads and canonicalises        | (needs ``encode``)        |
| path    | a file or directory path, or none                           | (not packed)              |

Rows with a ``slot`` take the next ``width`` entries of the array, in table order; ``Slot`` rows
reserve entries that no single parameter sets (a constant, or a value derived from several).
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

import numpy as np
from bgsim.sim.errors import GameIdError, did_you_mean

__all__ = ["KINDS", "LEVERS", "GameParams", "Param", "ParamTable", "Slot", "check_start_text", "per_component_text",
           "per_component_values", "start_vector"]

# The generated parameter table of a game's spec page sits between these two lines.
PAGE_BEGIN = "<!-- parameters: generated from params.py by `python -m tests.spec_pages`; do not edit -->"
PAGE_END = "<!-- end of parameters -->"
KINDS = ("players", "choice", "flag", "int", "seat", "start", "text", "path")
LEVERS = ("compensation", "tunable")  # seat-order compensation; a knob players may set at the table
MAX_SEATS = 4  # most values a start vector may list

Code = int | Sequence[int]  # what one row puts into the array: one entry, or up to ``width`` entries


@dataclass(frozen=True)
class Param:
    """One game parameter: its value space, default, docs and place in the compiled array."""

    name: str
    kind: str  # one of KINDS
    default: Any
    doc: str  # one line: what it settles and what each value means
    rule: str = ""  # the rule or ambiguity id it belongs to ("CAP-AUCTION-7", "AMB-3"); shown before the doc
    choices: tuple[str, ...] = ()  # choice: the values, in code order
    low: int | None = None  # players / int: the least value
    high: int | None = None  # players / int: the largest value
    none: int | None = None  # int: the code of none (None: none is not allowed)
    vectors: Mapping[int, tuple[int, ...]] | None = None  # start: the rulebook's vector by player count
    example: str = ""  # start: a valid vector for the error message, e.g. '0/1/2'
    what: str = ""  # players: the counts as the error names them (default "2 to 4 players")
    check: Callable[[Any], Any] | None = None  # text: value -> canonical value, or raises GameIdError
    slot: str | None = None  # name of the index constant in the compiled array; None: the kernels never read it
    width: int = 1  # array entries the row takes
    encode: Callable[[Any, Any], Code] | None = None  # (value, params) -> code, instead of the kind's code
    lever: str | None = None  # one of LEVERS, or None
    automa: bool = False  # a rule of the game's automa opponent

    def __post_init__(self):
        problems = (
            (self.kind not in KINDS, f"kind {self.kind!r} is not one of {', '.join(KINDS)}"),
            (self.lever not in (None, *LEVERS), f"lever {self.lever!r} is not one of {', '.join(LEVERS)}"),
            (self.kind == "players" and (self.name != "n_players" or None in (self.low, self.high)),
             "the player count is n_players, with low and high"),
            (self.kind == "choice" and not self.choices, "a choice needs choices"),
            (self.kind == "start" and not self.vectors, "a start vector needs vectors"),
            (self.kind == "text" and self.check is None, "text needs a check"),
            (bool(self.slot) and self.kind in ("text", "path") and self.encode is None, "packed text needs encode"),
        )
        for failed, message in problems:
            if failed:
                raise ValueError(f"parameter {self.name}: {message}")

    @property
    def line(self) -> str:
        """The doc line `bgsim games` shows: the rule id, then the doc."""
        return f"{self.rule} {self.doc}" if self.rule else self.doc

    def clean(self, value, n_players: int, game: str):
        """The canonical value of ``value`` for a game of ``n_players``, or a one-line GameIdError."""
        return _CLEAN[self.kind](self, value, n_players, game)

    def code(self, params) -> Code:
        """What the row puts into the compiled array for ``params``."""
        value = getattr(params, self.name)
        return self.encode(value, params) if self.encode else _CODE[self.kind](self, value, params)


@dataclass(frozen=True)
class Slot:
    """Array entries that no single parameter sets: ``encode(params)`` gives their code."""

    slot: str
    encode: Callable[[Any], Code]
    doc: str
    width: int = 1


class ParamTable:
    """A game's parameters, in table order; rows may be ``Param`` or ``Slot``."""

    def __init__(self, game: str, rows: Sequence[Param | Slot], listing_hint: str = "bgsim games"):
        self.game = game
        self.listing_hint = listing_hint  # where a user finds the parameter list
        self.rows = tuple(rows)
        self.params = tuple(row for row in self.rows if isinstance(row, Param))
        self.by_name = {row.name: row for row in self.params}
        players = [row for row in self.params if row.kind == "players"]
        compensation = [row for row in self.params if row.lever == "compensation"]
        if len(self.by_name) != len(self.params) or len(players) != 1 or len(compensation) > 1:
            raise ValueError(f"{game}: parameter names must be unique, with one players row and at most one "
                             "compensation lever")
        self.players = players[0]
        self.player_counts = tuple(range(self.players.low, self.players.high + 1))  # the counts the game plays
        self.compensation = compensation[0] if compensation else None
        self.tunable = tuple(row for row in self.params if row.lever == "tunable")
        self.automa_rules = tuple(row.name for row in self.params if row.automa and row.lever is None)
        self.docs = {row.name: row.line for row in self.params}
        self.packed, self.constants = _layout(game, self.rows)  # (row, first index) pairs; PR_... -> index
        self.size = self.constants["N_PARAMS"]
        for row in self.params:  # a table whose defaults fail its own checks is a bug in the table
            try:
                canonical = row.clean(row.default, self.players.default, game) == row.default
            except GameIdError as exc:
                raise ValueError(f"{game}: the default of {row.name} fails its check: {exc}") from None
            if not canonical:
                raise ValueError(f"{game}: the default of {row.name} is not in its canonical form")

    # --- the dataclass

    def params_class(self, cls: type) -> type:
        """Class decorator: ``cls`` (a GameParams) becomes the frozen dataclass with one field per row."""
        clash = [row.name for row in self.params if row.name in vars(cls)]
        if clash:
            raise ValueError(f"{self.game}: {', '.join(clash)} defined in the class and in the table")
        cls.__annotations__ = {**vars(cls).get("__annotations__", {}),
                               **{row.name: _ANNOTATIONS[row.kind] for row in self.params}}
        for row in self.params:
            setattr(cls, row.name, row.default)
        cls.table, cls.game_name, cls.listing_hint = self, self.game, self.listing_hint
        return dataclass(frozen=True)(cls)

    def reject_unknown(self, values: Mapping) -> None:
        """A one-line error for the first name in ``values`` that is no parameter of the game."""
        for name in values:
            if name in self.by_name:
                continue
            if str(name).endswith("_file"):  # a spec's data = {NAME = ...} arrives as NAME_file
                files = sorted(row.name.removesuffix("_file") for row in self.params if row.name.endswith("_file"))
                stem = str(name).removesuffix("_file")
                known = ", ".join(files) if files else "none"
                raise GameIdError(f"{self.game} has no data file {stem!r} to replace (its data files: {known})"
                                  f"{did_you_mean(stem, files)}")
            raise GameIdError(f"{self.game} has no parameter {name!r} (see `{self.listing_hint}`)"
                              f"{did_you_mean(str(name), self.by_name)}")

    def clean(self, values: Mapping) -> dict:
        """Canonical values of the parameters in ``values``; the player count is checked first, since
        seats and start vectors depend on it."""
        self.reject_unknown(values)
        players = self.players
        n_players = players.clean(values.get(players.name, players.default), 0, self.game)
        return {name: self.by_name[name].clean(value, n_players, self.game) for name, value in values.items()}

    def markdown(self) -> str:
        """The parameter table of the game's spec page (its README.md, between ``PAGE_BEGIN`` and
        ``PAGE_END``): one row per parameter with its rule, default, values and doc."""
        lines = ["| parameter | rule | default | values | what it settles |", "|---|---|---|---|---|"]
        for row in self.params:
            cells = (f"`{row.name}`", row.rule, _default_text(row), _values_text(row), row.doc)
            lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
        return "\n".join(lines)

    def on_page(self, page: str) -> str:
        """``page`` (a spec page's text) with its generated parameter table replaced by ``markdown()``."""
        begin, end = page.find(PAGE_BEGIN), page.find(PAGE_END)
        if begin < 0 or end < begin:
            raise ValueError(f"{self.game}'s spec page has no parameter table between {PAGE_BEGIN} and {PAGE_END}")
        return page[: begin + len(PAGE_BEGIN)] + "\n" + self.markdown() + "\n" + page[end:]

    def slots_source(self) -> str:
        """The text of the game's ``param_slots.py``: one ``PR_... = index`` line per packed row, in
        array order, then ``N_PARAMS``."""
        lines = [f'"""{_SLOTS_DOC}"""', ""]
        for row, index in self.packed:
            what = row.doc if isinstance(row, Slot) else row.name
            width = f", {row.width} entries" if row.width > 1 else ""
            lines.append(f"{row.slot} = {index}  # {what}{width}")
        lines.append(f"N_PARAMS = {self.size}  # entries of the array")
        return "\n".join(lines) + "\n"

    def to_array(self, params) -> np.ndarray:
        """The ``(N_PARAMS,) int32`` array the kernels read: each packed row's code at its slot."""
        array = np.zeros(self.size, dtype=np.int32)
        for row, index in self.packed:
            code = row.encode(params) if isinstance(row, Slot) else row.code(params)
            codes = (code,) if np.ndim(code) == 0 else tuple(code)
            if len(codes) > row.width:
                raise ValueError(f"{self.game}: {row.slot} has {row.width} entries, not {len(codes)}")
            for offset, value in enumerate(codes):
                array[index + offset] = value
        return array


_SLOTS_DOC = """Where each parameter sits in the compiled parameter array, ``(N_PARAMS,) int32``
(``Params.to_array``): the index constants of ``params.TABLE`` that the kernels import, so that
numba compiles each in as a constant.

Written from params.py by ``python -m tests.param_slots``; do not edit.
"""


class GameParams:
    """Base of a game's parameter dataclass; ``ParamTable.params_class`` adds the fields."""

    table: ClassVar[ParamTable]
    game_name: ClassVar[str] = ""
    listing_hint: ClassVar[str] = "bgsim games"

    @classmethod
    def from_dict(cls, values: dict) -> "GameParams":
        """Validated parameters from user input (a game id or a run spec); unknown names are errors."""
        return cls(**cls.table.clean(values))

    def to_array(self) -> np.ndarray:
        """The ``(N_PARAMS,) int32`` array the compiled kernels read."""
        return self.table.to_array(self)

    def start_vector(self) -> tuple[int, ...]:
        """Start values by seat, as the compensation parameter asks (``rulebook``, ``equal`` or a list)."""
        row = self.table.compensation
        return start_vector(row.name, getattr(self, row.name), row.vectors[self.n_players])

    def non_default(self) -> dict:
        """The parameters that differ from their defaults (the canonical game id lists these)."""
        return {k: v for k, v in asdict(self).items() if self.table.by_name[k].default != v}


def _default_text(row: Param) -> str:
    if row.default is None:
        return "none"
    if isinstance(row.default, bool):
        return "`true`" if row.default else "`false`"
    return f"`{row.default}`"


def _values_text(row: Param) -> str:
    """What a value of ``row`` may be, in words."""
    if row.kind == "choice":
        return ", ".join(f"`{choice}`" for choice in row.choices)
    if row.kind == "flag":
        return "`true`, `false`"
    if row.kind in ("players", "int"):
        span = f"{row.low}..{row.high}" if row.high is not None else f"an integer ≥ {row.low or 0}"
        return span + (", none" if row.none is not None else "")
    if row.kind == "seat":
        return "a seat 0..n-1, or `random`"
    if row.kind == "start":
        return f"`rulebook`, `equal` or one value per seat (`{row.example}`)"
    if row.kind == "path":
        return "a file path"
    return "text"


def _layout(game: str, rows: tuple[Param | Slot, ...]) -> tuple[tuple[tuple[Param | Slot, int], ...], dict[str, int]]:
    """The packed rows with their first index, in array order, and the index constants by name
    (the first entry of each slot) with ``N_PARAMS``, the array length."""
    constants, packed, index = {}, [], 0
    for row in rows:
        if row.slot:
            if row.slot in constants:
                raise ValueError(f"{game}: slot {row.slot} twice")
            constants[row.slot] = index
            packed.append((row, index))
            index += row.width
    return tuple(packed), {**constants, "N_PARAMS": index}


# --- checks and codes by kind


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _clean_players(row: Param, value, _n, game: str) -> int:
    if not _is_int(value):
        raise GameIdError(f"{row.name} must be an integer, got {value!r}")
    if not row.low <= value <= row.high:
        raise GameIdError(f"{game} is for {row.what or f'{row.low} to {row.high} players'}, not {value!r}")
    return value


def _clean_choice(row: Param, value, _n, _game) -> str:
    if isinstance(value, str) and value in row.choices:
        return value
    hint = did_you_mean(value, row.choices) if isinstance(value, str) else ""
    raise GameIdError(f"{row.name} must be one of {', '.join(row.choices)}, got {value!r}{hint}")


def _clean_flag(row: Param, value, _n, _game) -> bool:
    if not isinstance(value, bool):
        raise GameIdError(f"{row.name} must be true or false, got {value!r}")
    return value


def _clean_int(row: Param, value, _n, _game) -> int | None:
    nullable = row.none is not None
    if value is None or (isinstance(value, str) and value.lower() == "none"):
        if nullable:
            return None
        raise GameIdError(f"{row.name} must be an integer, got {value!r}")
    if not _is_int(value):
        raise GameIdError(f"{row.name} must be an integer{' or none' if nullable else ''}, got {value!r}")
    if row.low is not None and value < row.low:
        raise GameIdError(f"{row.name} must be at least {row.low}, got {value}")
    if row.high is not None and value > row.high:
        raise GameIdError(f"{row.name} must be at most {row.high}, got {value}")
    return value


def _clean_seat(row: Param, value, n_players: int, _game) -> int | str:
    if value != "random" and not (_is_int(value) and 0 <= value < n_players):
        raise GameIdError(f"{row.name} must be 0..{n_players - 1} or 'random', got {value!r}")
    return value


def _clean_start(row: Param, value, n_players: int, _game) -> str:
    text = check_start_text(row.name, value, row.example)
    start_vector(row.name, text, row.vectors[n_players])  # a list of the wrong length fails now, not at setup
    return text


def _clean_text(row: Param, value, _n, _game):
    return row.check(value)


def _clean_path(row: Param, value, _n, _game) -> str | None:
    if value is not None and not isinstance(value, str):
        raise GameIdError(f"{row.name} must be a path, got {value!r}")
    return value


_CLEAN = {"players": _clean_players, "choice": _clean_choice, "flag": _clean_flag, "int": _clean_int,
          "seat": _clean_seat, "start": _clean_start, "text": _clean_text, "path": _clean_path}

_CODE = {
    "players": lambda row, value, params: value,
    "choice": lambda row, value, params: row.choices.index(value),
    "flag": lambda row, value, params: int(value),
    "int": lambda row, value, params: row.none if value is None else value,
    "seat": lambda row, value, params: -1 if value == "random" else value,
    "start": lambda row, value, params: start_vector(row.name, value, row.vectors[params.n_players]),
}

_ANNOTATIONS = {"players": int, "choice": str, "flag": bool, "int": int | None, "seat": int | str, "start": str,
                "text": str | None, "path": str | None}


# --- start vectors (the usual compensation parameter)


def check_start_text(name: str, value, example: str, max_seats: int = MAX_SEATS) -> str:
    """The canonical text of a start-vector parameter: 'rulebook', 'equal', or 1..max_seats integers
    joined by '/' (a list is accepted and joined). ``example`` shows a valid list in the error."""
    if isinstance(value, list | tuple):
        value = "/".join(str(v) for v in value)
    if value in ("rulebook", "equal"):
        return value
    try:
        numbers = [int(part.strip()) for part in str(value).split("/")]
    except ValueError:
        numbers = []
    if not 1 <= len(numbers) <= max_seats or any(abs(v) > 999 for v in numbers):
        raise GameIdError(f"{name} must be rulebook, equal or 1..{max_seats} integers like '{example}', got {value!r}")
    return "/".join(str(v) for v in numbers)


def start_vector(name: str, text: str, rulebook: tuple[int, ...]) -> tuple[int, ...]:
    """Start values by seat from the start player: the ``rulebook`` vector, ``equal`` (everyone
    gets the start player's value) or the listed integers, one per seat."""
    n_players = len(rulebook)
    if text == "rulebook":
        return tuple(rulebook)
    if text == "equal":
        return (rulebook[0],) * n_players
    values = tuple(int(x) for x in text.split("/"))
    if len(values) != n_players:
        raise GameIdError(f"{name} {text!r} gives {len(values)} values for {n_players} players")
    return values


# --- a per-component lever: one integer for every component, or one each


def per_component_text(name: str, value, size: int, low: int, high: int, what: str) -> str:
    """The canonical text of an integer-per-component parameter (a payout lever such as the points an
    item pays): one integer for every component, or ``size`` joined by '/' in component order (a list
    is accepted and joined); equal values are written once, so an all-zero vector is "0". Anything
    else is a one-line GameIdError naming ``what`` a component is (e.g. "item")."""
    if isinstance(value, list | tuple):
        value = "/".join(str(v) for v in value)
    try:
        numbers = [int(part.strip()) for part in str(value).split("/")]
    except ValueError:
        numbers = []
    if len(numbers) not in (1, size) or not all(low <= v <= high for v in numbers):
        example = "/".join(["3"] + ["0"] * (size - 1))
        raise GameIdError(f"{name} must be one integer {low}..{high} for every {what} or {size} joined by '/' "
                          f"({what} ids 0..{size - 1}, e.g. '{example}'), got {value!r}")
    return str(numbers[0]) if len(set(numbers)) == 1 else "/".join(str(v) for v in numbers)


def per_component_values(text: str, size: int) -> tuple[int, ...]:
    """The ``size`` integers of a canonical ``per_component_text``."""
    numbers = tuple(int(v) for v in text.split("/"))
    return numbers * size if len(numbers) == 1 else numbers
