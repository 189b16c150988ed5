"""Parameters as data (``sim/games/parameters.py``): what a game's table derives, and that the
compiled parameter array of every game keeps the layout of its former hand-written ``to_array``
(a new parameter appended to a table only lengthens the array).

``parameter_arrays.json`` was recorded from the hand-written parameter modules before the tables
replaced them: for each game its index constants (``PR_...``, ``N_PARAMS``), the array of a default
game per player count, and a grid of parameter sets (every choice, flag, integer edge, start
vector and text form, one at a time and some together) with the entries where the array differs
from the default one. One recorded default has changed since, on purpose: Capitol's ``build_card``
is ``any`` from rules version 2 (the rules' set of builds), ``lowest`` a named simplification.
"""

import dataclasses
import importlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from bgsim.sim import make_game
from bgsim.sim.errors import GameIdError
from bgsim.sim.games.parameters import GameParams, Param, ParamTable, Slot
from bgsim.sim.registry import available_games

RECORDED = Path(__file__).with_name("parameter_arrays.json")
GAMES = ("capitol", "carpe_diem", "sealed_bids")  # the template is checked in a process of its own


def _params_module(game: str):
    return importlib.import_module(f"bgsim.sim.games.{game}.params")


def _slots_module(game: str):
    """The index constants the game's kernels import (written from its table)."""
    return importlib.import_module(f"bgsim.sim.games.{game}.param_slots")


def _recorded_mismatches(module, slots, record: dict) -> list[str]:
    """Where the layout of a params module and its slots module differs from the recorded one: an
    index constant that moved, or an array entry that changed. Rows added after the recorded ones
    may lengthen the array."""
    size = record["constants"]["N_PARAMS"]
    moved = {name: (index, getattr(slots, name, None)) for name, index in record["constants"].items()
             if name != "N_PARAMS" and getattr(slots, name, None) != index}
    problems = [f"index constants moved (recorded, now): {moved}"] if moved else []
    if slots.N_PARAMS < size or slots.N_PARAMS != module.TABLE.size:
        problems.append(f"N_PARAMS shrank from {size} to {slots.N_PARAMS} (the table's: {module.TABLE.size})")
    for values, changed in record["cases"]:
        expected = list(record["defaults"][str(values["n_players"])])
        for index, value in changed.items():
            expected[int(index)] = value
        array = module.Params.from_dict(values).to_array()
        if array.dtype != np.int32 or array[:size].tolist() != expected:
            problems.append(f"{values}: {array[:size].tolist()} != {expected}")
    return problems


# --- the recorded layout


@pytest.mark.parametrize("game", GAMES)
def test_the_compiled_array_keeps_the_recorded_layout(game):
    record = json.loads(RECORDED.read_text())[game]
    assert len(record["cases"]) > 10
    assert _recorded_mismatches(_params_module(game), _slots_module(game), record) == []


def test_the_template_keeps_the_recorded_layout():
    # The template is never imported in the test process (test_registry checks that); a child process
    # imports it instead.
    script = ("import json, sys; from tests.test_parameters import _params_module, _recorded_mismatches, "
              "_slots_module; record = json.load(open(sys.argv[1]))['_template']; "
              "print(json.dumps(_recorded_mismatches(_params_module('_template'), _slots_module('_template'), "
              "record)))")
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", script, str(RECORDED)], capture_output=True, text=True, cwd=root)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


def test_kernels_read_plain_module_level_ints():
    from bgsim.sim.games.capitol import param_slots

    # 36: the 24 recorded entries, then item_points (CAP-VAR-1), one entry per auction item
    assert type(param_slots.PR_CATCH_UP) is int and param_slots.PR_CATCH_UP == 17 and param_slots.N_PARAMS == 36
    assert make_game("capitol(tied_bid=remove)").param_array[param_slots.PR_CATCH_UP] == 0  # the catch-up rule is off


def test_the_slots_module_is_one_plain_assignment_per_slot_in_array_order():
    table = _toy_table()
    namespace: dict = {}
    exec(table.slots_source(), namespace)  # what a game's param_slots.py runs when imported
    assert {k: v for k, v in namespace.items() if k.isupper()} == table.constants
    lines = [line for line in table.slots_source().splitlines() if " = " in line]
    assert lines[0] == "PR_N = 0  # n_players" and lines[-1] == "N_PARAMS = 10  # entries of the array"
    assert "PR_START = 6  # start, 4 entries" in lines and "PR_CONSTANT = 3  # a constant the kernels read" in lines


# --- what a game's table derives


@pytest.mark.parametrize("game", GAMES)
def test_a_game_table_derives_its_params_docs_and_entry(game):
    module = _params_module(game)
    table = module.TABLE
    fields = dataclasses.fields(module.Params)
    assert [f.name for f in fields] == [row.name for row in table.params]
    assert {f.name: f.default for f in fields} == {row.name: row.default for row in table.params}
    assert module.PARAM_DOCS == {row.name: row.line for row in table.params}
    entry = available_games(unlisted=True)[game]
    assert entry.parameter_docs == module.PARAM_DOCS and entry.parameters == tuple(module.PARAM_DOCS)
    assert module.Params().to_array().shape == (_slots_module(game).N_PARAMS,) == (table.size,)
    with pytest.raises(dataclasses.FrozenInstanceError):
        module.Params().n_players = 2


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_parameter_names_its_rule_in_its_doc_line(game):
    for row in _params_module(game).TABLE.params:
        if row.rule:
            assert row.line.startswith(f"{row.rule} ") and row.doc and "\n" not in row.line


def test_the_profile_lists_the_levers_of_the_table():
    for game_id in ("capitol", "sealed_bids", "carpe_diem"):
        game = make_game(game_id)
        table = _params_module(game.name).TABLE
        comp = game.profile.compensation
        assert comp.parameter == table.compensation.name
        assert all(comp.rulebook[n] == table.compensation.vectors[n] for n in comp.rulebook)
    automa = make_game("carpe_diem(n_players=1)").profile.automa
    table = _params_module("carpe_diem").TABLE
    assert [(k.parameter, k.rulebook) for k in automa.knobs] == [(row.name, row.default) for row in table.tunable]
    for knob in automa.knobs:  # a calibration searches legal values only
        row = table.by_name[knob.parameter]
        assert row.low <= knob.search[0] < knob.search[1] and row.high is None
    assert automa.rules_parameters and set(automa.rules_parameters) <= set(table.by_name)


# --- validation: one line, with did-you-mean


@pytest.mark.parametrize(("game_id", "message"), [
    ("capitol(tide_bid=remove)", "capitol has no parameter 'tide_bid' (see `bgsim games`); did you mean 'tied_bid'?"),
    ("sealed_bids(bid_ti=discard)", "sealed_bids has no parameter 'bid_ti' (see `bgsim games --all`); did you mean "
                                    "'bid_tie'?"),
    ("capitol(tied_bid=remov)", "tied_bid must be one of lower_score, remove, got 'remov'; did you mean 'remove'?"),
    ("carpe_diem(solo_tie=ana)", "solo_tie must be one of banner, human, anna, got 'ana'; did you mean 'anna'?"),
    ("capitol(tied_bid=coin)", "tied_bid must be one of lower_score, remove, got 'coin'"),
    ("capitol(max_unfinished=3)", "max_unfinished must be one of none, unused_roofs, got 3"),
    ("capitol(allow_null_play=yes)", "allow_null_play must be true or false, got 'yes'"),
    ("capitol(hand_limit=0)", "hand_limit must be at least 1, got 0"),
    ("capitol(hand_limit=ten)", "hand_limit must be an integer or none, got 'ten'"),
    ("carpe_diem(anna_zero_tie_vp=none)", "anna_zero_tie_vp must be an integer, got None"),
    ("capitol(n_players=5)", "capitol is for 2 to 4 players, not 5"),
    ("carpe_diem(n_players=0)", "carpe_diem is for 2 to 4 players or solo (1), not 0"),
    ("carpe_diem(n_players='three')", "n_players must be an integer, got 'three'"),
    ("capitol(n_players=3, start_seat=3)", "start_seat must be 0..2 or 'random', got 3"),
    ("capitol(start_points='1/2')", "start_points '1/2' gives 2 values for 4 players"),
    ("carpe_diem(start_vp=lots)", "start_vp must be rulebook, equal or 1..4 integers like '8/9/12', got 'lots'"),
    ("capitol(board_file=7)", "board_file must be a path, got 7"),
    ("carpe_diem(solo_cards='7A')", "solo_cards must name 6 cards by deck"),
])
def test_bad_parameters_give_one_line_errors(game_id, message):
    with pytest.raises(GameIdError) as info:
        make_game(game_id)
    assert str(info.value).startswith(message)
    assert "\n" not in str(info.value) and str(info.value).count("did you mean") <= 1


def test_values_are_read_into_their_canonical_form():
    params = _params_module("carpe_diem").Params.from_dict(
        {"vp_floor": "none", "start_vp": [8, 8, 9, 9], "anna_candidate_order": "B, a, e", "frame_task_vp": " 5/4/ 3"})
    assert (params.vp_floor, params.start_vp, params.anna_candidate_order, params.frame_task_vp) == (
        None, "8/8/9/9", "b,a", "5/4/3")
    assert make_game("capitol(hand_limit=none)").id == "capitol(n_players=4)"  # none is the default


# --- the machinery on a table of its own


def _toy_table(*extra) -> ParamTable:
    return ParamTable("toy", (
        Param("n_players", "players", 3, "player count 2..4", rule="TOY-1", low=2, high=4, slot="PR_N"),
        Param("tie", "choice", "shared", "equal scores: shared or split", rule="AMB-1", choices=("shared", "split"),
              slot="PR_TIE"),
        Param("mercy", "flag", False, "the last seat draws one more", slot="PR_MERCY"),
        Slot("PR_CONSTANT", lambda params: 7, "a constant the kernels read"),
        Param("limit", "int", None, "most cards in hand (none = no limit)", low=1, high=9, none=-1, slot="PR_LIMIT"),
        Param("first", "seat", 0, "the first seat, or random", slot="PR_FIRST"),
        Param("start", "start", "rulebook", "start points by seat", vectors={2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 2, 3)},
              example="0/1/2", slot="PR_START", width=4, lever="compensation"),
        Param("label", "text", "x", "a word", check=lambda value: str(value).lower()),
        Param("deck_file", "path", None, "replacement deck"),
        *extra,
    ))


def _toy_params(table: ParamTable) -> type:
    @table.params_class
    class ToyParams(GameParams):
        """A toy game's parameters."""

    return ToyParams


def test_a_table_derives_the_layout_docs_and_levers():
    table = _toy_table()
    assert table.constants == {"PR_N": 0, "PR_TIE": 1, "PR_MERCY": 2, "PR_CONSTANT": 3, "PR_LIMIT": 4, "PR_FIRST": 5,
                               "PR_START": 6, "N_PARAMS": 10}
    assert table.docs["n_players"] == "TOY-1 player count 2..4"
    assert table.docs["mercy"] == "the last seat draws one more"
    assert table.compensation.name == "start" and table.tunable == () and table.players.name == "n_players"


def test_a_table_packs_each_kind_by_its_code():
    toy = _toy_params(_toy_table())
    assert toy().to_array().tolist() == [3, 0, 0, 7, -1, 0, 0, 1, 2, 0]
    params = toy.from_dict({"n_players": 2, "tie": "split", "mercy": True, "limit": 5, "first": "random",
                            "start": "equal", "label": "Y"})
    assert params.to_array().tolist() == [2, 1, 1, 7, 5, -1, 0, 0, 0, 0]
    assert params.label == "y" and params.start_vector() == (0, 0)
    assert params.non_default() == {"n_players": 2, "tie": "split", "mercy": True, "limit": 5, "first": "random",
                                    "start": "equal", "label": "y"}
    with pytest.raises(GameIdError, match="limit must be at most 9, got 10"):
        toy.from_dict({"limit": 10})


def test_a_new_parameter_is_one_row():
    row = Param("bonus", "choice", "none", "end bonus: none, most or least", rule="AMB-9",
                choices=("none", "most", "least"), slot="PR_BONUS", encode=lambda value, _: {"most": 2}.get(value, 0))
    table = _toy_table(row)
    toy = _toy_params(table)
    assert table.constants["PR_BONUS"] == 10 and table.size == 11 and table.docs["bonus"].startswith("AMB-9 ")
    assert toy.from_dict({"bonus": "most"}).to_array()[10] == 2 and toy().bonus == "none"
    with pytest.raises(GameIdError, match="bonus must be one of none, most, least, got 'mots'; did you mean 'most'"):
        toy.from_dict({"bonus": "mots"})


@pytest.mark.parametrize(("row", "message"), [
    (Param("tie", "flag", False, "twice"), "unique"),
    (Param("odd", "flag", "yes", "a flag with a text default"), "default of odd"),
    (Slot("PR_TIE", lambda params: 0, "a slot taken twice"), "slot PR_TIE twice"),
])
def test_a_table_with_a_mistake_is_refused_when_it_is_built(row, message):
    with pytest.raises(ValueError, match=message):
        _toy_table(row)


@pytest.mark.parametrize(("fields", "message"), [
    ({"kind": "colour"}, "kind 'colour' is not one of"),
    ({"kind": "choice"}, "a choice needs choices"),
    ({"kind": "text", "slot": "PR_X", "check": str}, "packed text needs encode"),
    ({"kind": "flag", "lever": "cosmetic"}, "lever 'cosmetic' is not one of"),
])
def test_a_row_with_a_mistake_is_refused(fields, message):
    with pytest.raises(ValueError, match=message):
        Param(**{"name": "x", "default": None, "doc": "a row", **fields})
