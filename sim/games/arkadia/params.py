"""Arkadia's parameters: one table (``TABLE``) with the player count, the start seat, the first-game
setup, the start-gold vector (the compensation parameter), one row per rules ambiguity of the
digest (AMB-1..13; ``empty_b_turn`` reads AMB-2's what-if; ``screen_view`` is read by the views
alone, not the kernels) and the buildings' gold (a lab lever, ARK-VAR-1). From it come ``Params``
(``from_dict`` raises one-line GameIdErrors), ``PARAM_DOCS`` and the index constants (``PR_...``,
written to ``param_slots.py``) of the ``(N_PARAMS,) int32`` array that ``Params.to_array`` packs for
the kernels; ``sim/games/parameters.py`` lists the kinds.
"""

import re

from bgsim.sim.errors import GameIdError
from bgsim.sim.games.arkadia.state import MAX_SHAPES
from bgsim.sim.games.parameters import GameParams, Param, ParamTable, per_component_text, per_component_values

__all__ = ["BUILDING_POINTS_RANGE", "CASTLE_CHOSEN", "CASTLE_FIXED", "CASTLE_RANDOM", "PARAM_DOCS",
           "Params", "START_GOLD", "TABLE", "building_points_of", "castle_placement", "check_building_points"]

START_GOLD = {2: (0, 0), 3: (0, 0, 0), 4: (0, 0, 0, 0)}  # the rulebook: every seat starts without gold
BUILDING_POINTS_RANGE = (-20, 20)  # ARK-VAR-1: the gold one building of a shape may pay its placer
CASTLE_RANDOM, CASTLE_FIXED, CASTLE_CHOSEN = range(3)  # how the castle site is placed (AMB-10)
ORIENTATIONS = ("wide", "tall")
_FIXED = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*,\s*(wide|tall)\s*$")


def castle_placement(value) -> tuple[int, int, int, int]:
    """(mode, row, col, orientation) of a ``castle_placement`` value: 'random' (from the chance seed),
    'chosen' (the start player picks a legal site) or 'row,col,wide|tall' (a fixed site)."""
    text = str(value).strip().lower()
    if text == "random":
        return CASTLE_RANDOM, -1, -1, -1
    if text == "chosen":
        return CASTLE_CHOSEN, -1, -1, -1
    found = _FIXED.match(text)
    if not found:
        raise GameIdError(f"castle_placement must be random, chosen or 'row,col,wide|tall' (e.g. '4,6,wide'), "
                          f"got {value!r}")
    return CASTLE_FIXED, int(found[1]), int(found[2]), ORIENTATIONS.index(found[3])


def _check_castle(value) -> str:
    mode, row, col, orientation = castle_placement(value)
    return {CASTLE_RANDOM: "random", CASTLE_CHOSEN: "chosen"}.get(mode, f"{row},{col},{ORIENTATIONS[orientation]}")


def check_building_points(value) -> str:
    """The canonical text of ``building_points`` (ARK-VAR-1): one integer for every shape, or one per
    shape 0..6 (rulebook order) joined by '/'; "0" is the rulebook."""
    return per_component_text("building_points", value, MAX_SHAPES, *BUILDING_POINTS_RANGE, "shape")


def building_points_of(text: str) -> tuple[int, ...]:
    """Gold of shapes 0..6 for a canonical ``building_points`` value."""
    return per_component_values(text, MAX_SHAPES)


def _choice(name, default, choices, doc, rule, slot):
    return Param(name, "choice", default, doc, rule=rule, choices=choices, slot=slot)


def _flag(name, default, doc, rule, slot):
    return Param(name, "flag", default, doc, rule=rule, slot=slot)


# Rows with a slot fill the compiled array in table order.
TABLE = ParamTable("arkadia", (
    Param("n_players", "players", 3, "player count 2..4", rule="ARK-SETUP-1", low=2, high=4, slot="PR_N_PLAYERS"),
    Param("start_seat", "seat", 0, "the start player: a seat 0..n-1 (the youngest), or 'random' (from the chance "
          "seed)", rule="ARK-SETUP-7", slot="PR_START_SEAT"),
    _flag("intro_setup", False, "the first-game setup: 7 buildings and the castle site laid out as the components "
          "file's [intro] gives them (read and checked only then), extra neutral workers (3/2/1 each at 2/3/4 "
          "players)", "ARK-SETUP-9", "PR_INTRO"),
    Param("castle_placement", "text", "random", "where the castle site goes: random (among the legal sites, from the "
          "chance seed), chosen (by the start player) or 'row,col,wide|tall'", rule="AMB-10", check=_check_castle,
          slot="PR_CASTLE", width=4, encode=lambda value, params: castle_placement(value)),
    _choice("no_action_policy", "skip_part1", ("skip_part1", "skip_turn"), "a player with no legal action A or B "
            "skips part 1 and may still use a banner (skip_part1), or skips the whole turn", "AMB-1",
            "PR_NO_ACTION"),
    Param("min_workers_in_b", "int", 1, "fewest workers action B places (1; 0 makes B a pass)", rule="AMB-2", low=0,
          high=1, slot="PR_MIN_WORKERS"),
    _choice("tent_reward", "take_all", ("take_all", "choose"), "the neutral workers for covered tents: take them all, "
            "or choose how many (0 up to the tents covered)", "ARK-PLACE-5", "PR_TENT_CHOOSE"),
    _flag("castle_is_worker_target", False, "action B may place workers around the castle site", "AMB-3",
          "PR_CASTLE_TARGET"),
    _choice("refill_rule", "one_card", ("one_card", "fill_to_4"), "after action A the player takes one card, or fills "
            "the hand to 4 while cards remain", "AMB-4", "PR_REFILL"),
    _choice("deck_exhaustion", "continue", ("continue", "trigger_end"), "an empty deck changes nothing (continue), or "
            "triggers the end like a full level 2", "AMB-4", "PR_DECK_END"),
    _choice("stall_rule", "end_immediately", ("end_immediately", "none"), "the game ends at once when nobody can "
            "act any more or a whole round changed nothing (end_immediately), or never (none: a run needs a turn "
            "cap)", "AMB-5", "PR_STALL"),
    _flag("allow_mirror", False, "buildings may be placed as mirror images too (the smithy and the trade centre)",
          "AMB-6", "PR_MIRROR"),
    Param("neutral_supply", "int", 24, "neutral workers in the supply: 24, or none for unlimited", rule="AMB-7",
          low=0, none=-1, slot="PR_NEUTRAL_SUPPLY"),
    _choice("seal_supply", "unlimited", ("unlimited", "physical_88"), "seals per family: unlimited, or the 88 of the "
            "box (20 singles and 2 fives per family; payouts stop when none is left)", "AMB-8", "PR_SEALS"),
    _flag("refill_before_completion", False, "action A refills the hand before completions and castle stones (the "
          "player then knows the new card when he places stones)", "AMB-11", "PR_REFILL_FIRST"),
    Param("start_gold", "start", "rulebook", "gold by seat at the start, added to the final gold: rulebook (none), "
          "equal, or a list such as '0/2/4'", rule="ARK-END", vectors=START_GOLD, example="0/2/4", slot="PR_START",
          width=4, lever="compensation"),
    # Appended after the rulebook's rows, so their indices stay where they were.
    Param("building_points", "text", "0", "a lab lever, not a rule: gold a seat scores at once when it places a "
          "building, by shape: one integer -20..20 for every shape or 7 joined by '/' in rulebook order (residence, "
          "farm, tavern, mill, smithy, trade centre, monastery); 0 = the rulebook", rule="ARK-VAR-1",
          check=check_building_points, encode=lambda value, _: building_points_of(value), slot="PR_BUILDING_POINTS",
          width=MAX_SHAPES),
    _choice("empty_b_turn", "idle", ("idle", "action"), "with min_workers_in_b = 0, an action B that places no worker "
            "counts as a turn that changed nothing for the stall rule (idle: a whole round of them ends the game), or "
            "as an action (action: such a game may never end)", "AMB-2", "PR_EMPTY_B"),
    _choice("screen_view", "recall", ("recall", "hidden"), "what a seat's view (the observation strategies see) "
            "shows of the other seats' screens (workers, seals) and gold: as a player with perfect recall knows them, "
            "every change being a public event (recall), or nothing (hidden: the seat keeps no count); the rules "
            "and the features, which read only the seat's own screen, are the same either way", "AMB-12", None),
    Param("data_dir", "path", None, "directory with a replacement components.toml; any other TOML file there is an "
          "error"),
    Param("components_file", "path", None, "replacement components.toml (AMB-13: grid, tents, castle site, shapes "
          "and their cards, and the first-game layout, which only intro_setup reads)", rule="AMB-13"),
))
PARAM_DOCS = TABLE.docs


@TABLE.params_class
class Params(GameParams):
    """Arkadia's parameters: one field per row of ``TABLE``."""
