"""Result records of finished games: one row per (game, seat), built over a whole chunk at once.
The column meanings are ``RECORD_DOCS``; the final score's parts are ``CATEGORY_DOCS``, and
``BUILDING_CATEGORY_DOCS`` under the building_points lever (ARK-VAR-1)."""

import numpy as np
import pyarrow as pa
from bgsim.sim.games.arkadia.components import FAMILIES, SHAPES
from bgsim.sim.games.arkadia.state import BANNERS, COMPLETED, FIELD_HEIGHT, FIELD_TOP, N_FAMILIES, N_FIELDS, STATE
from bgsim.sim.games.base import win_shares

__all__ = ["BUILDING_CATEGORY_DOCS", "CATEGORY_DOCS", "RECORD_DOCS", "seat_records"]

CATEGORY_DOCS = {
    "gold_banners": "gold from seals cashed with banners during the game (ARK-BANNER-3)",
    "gold_final": "gold from the seals cashed at the end (ARK-END-4)",
}
# A category of the score only where the lever is set: the rulebook's score has the two above.
BUILDING_CATEGORY_DOCS = {"gold_buildings": "gold the buildings placed paid at once (ARK-VAR-1, the building_points "
                                            "lever; 0 by the rules)"}

RECORD_DOCS = {
    "start_gold": "gold at the start (the compensation parameter; the rulebook gives none)",
    "final_gold": "final gold: start gold + every cashing (ARK-END-4) + the buildings' own gold (ARK-VAR-1, 0 by "
                  "the rules)",
    "rank": "1 = a winner; equal gold shares the place (ARK-END-5: 'es gibt mehrere Gewinner')",
    "won": "the one winner a study can count: the most gold, then the earlier seat",
    "win_share": "the seat's share of the win: 1/k to each of the k seats with rank 1 (what seat rates count)",
    "tie": "another seat has the same final gold",
    "tiebreak": "place in seat order alone (the rules share a tie; re-ranks games under other start gold)",
    **CATEGORY_DOCS,
    **BUILDING_CATEGORY_DOCS,
    **{f"gold_{family}": f"gold from {family} seals, every cashing included" for family in FAMILIES},
    "banners_used": "banners used (each brings 2 workers and a cashing, ARK-BANNER)",
    "triggered_end": "the seat's turn triggered the end (it then moves last in the final round, ARK-END-2, -3)",
    "ended_by_stall": "the game ended by the stall safeguard before its end was triggered (AMB-5); a stall inside "
                      "the final round ends the game its trigger began (triggered_end, ARK-END-2)",
    "turns": "turns played in the game (the same for every seat)",
    "cashings": "each banner the seat used: the game turn (from 0), the round (turn // players + 1), seals cashed "
                "and the gold they brought",
    "buildings_placed": "buildings the seat placed (action A)",
    "completions": "buildings the seat completed (their own seal and a castle stone each, ARK-COMPLETE-5)",
    "seals_earned": "seals the seat received from completed buildings (ARK-COMPLETE-4, -5)",
    "board_components": "the attributed components: the building shapes 0..6, then the seal families 7..10, in "
                        "rulebook order (the same for every seat and game)",
    "buildings": "each building the seat placed: shape, family, tents covered, whether it was completed, the seals "
                 "it paid the seat, and those seals at the castle's final values (gold)",
    "components": "the buildings list as attributed components: per building two events, its shape (0..6) and its "
                  "seal family (7..10), each with the building's tents, seals and gold",
}


def _field(states: np.ndarray, name: str) -> np.ndarray:
    """Field ``name`` of every state, (G, *shape) int32 (``states`` (G, STATE_SIZE) int32)."""
    f = STATE.fields[name]
    return states[:, f.offset: f.offset + f.size].reshape((states.shape[0], *f.shape))


def final_values(states: np.ndarray, field_print: np.ndarray) -> np.ndarray:
    """(G, N_FAMILIES) int64: each family's seal value at the end, the castle fields showing it
    (ARK-CASTLE-7); ``field_print`` (N_FIELDS,) the printed family of each field, -1 blank."""
    height, top = states[:, FIELD_HEIGHT:FIELD_HEIGHT + N_FIELDS], states[:, FIELD_TOP:FIELD_TOP + N_FIELDS]
    shown = np.where(height > 0, top, field_print[None, :])
    return (shown[:, :, None] == np.arange(N_FAMILIES)[None, None, :]).sum(axis=1)


def seat_records(states: np.ndarray, n_players: int, place_first: np.ndarray,
                 field_print: np.ndarray) -> dict[str, pa.Array]:
    """Columns of G * P rows (game-major, seat-minor) from final states (G, STATE_SIZE) int32;
    ``place_first`` (N_SHAPES + 1,) the first placement row of each shape, ``field_print`` as in
    ``final_values``."""
    g, n = states.shape[0], n_players
    seat_col = lambda name: _field(states, name)[:, :n]  # noqa: E731  (G, P)
    flat = lambda a: np.asarray(a).reshape(-1)  # noqa: E731
    total = seat_col("total").astype(np.int64)
    rank = seat_col("rank")
    key = total * (n + 1) - seat_col("tiebreak")
    won = np.zeros((g, n), dtype=bool)
    won[np.arange(g), np.argmax(key, axis=1)] = True
    tie = (total[:, :, None] == total[:, None, :]).sum(axis=2) > 1
    start = seat_col("start_gold")
    banners = seat_col("gold_banner").astype(np.int64)
    buildings = seat_col("gold_buildings").astype(np.int64)  # ARK-VAR-1, 0 by the rules
    family_gold = _field(states, "gold_family")[:, :n]  # (G, P, F)
    columns = {
        "start_gold": pa.array(flat(start), pa.int16()),
        "final_gold": pa.array(flat(total), pa.int16()),
        "rank": pa.array(flat(rank), pa.int8()),
        "won": pa.array(flat(won)),
        "win_share": pa.array(flat(win_shares(rank))),
        "tie": pa.array(flat(tie)),
        "tiebreak": pa.array(flat(seat_col("tiebreak")), pa.int8()),
        "gold_banners": pa.array(flat(banners), pa.int16()),
        "gold_final": pa.array(flat(total - start - banners - buildings), pa.int16()),
        "gold_buildings": pa.array(flat(buildings), pa.int16()),
        **{f"gold_{family}": pa.array(flat(family_gold[:, :, f]), pa.int16()) for f, family in enumerate(FAMILIES)},
        "banners_used": pa.array(flat(BANNERS - seat_col("banners")), pa.int8()),
    }
    trigger = _field(states, "trigger_seat")[:, 0]
    columns["triggered_end"] = pa.array(flat(trigger[:, None] == np.arange(n)[None, :]))
    columns["ended_by_stall"] = pa.array(np.repeat(trigger < 0, n))
    columns["turns"] = pa.array(np.repeat(_field(states, "turn")[:, 0] + 1, n), pa.int16())  # turn counts from 0
    columns["cashings"] = _cashings(states, n)
    columns.update(_building_columns(states, n, place_first, field_print))
    return columns


def _cashings(states: np.ndarray, n: int) -> pa.Array:
    """Per seat row, one struct per banner used, in the order used: turn, round, seals, gold."""
    g = states.shape[0]
    turn = _field(states, "banner_turn")[:, :n].reshape(g * n, -1)
    used = turn >= 0
    seals = _field(states, "banner_seals")[:, :n].reshape(g * n, -1)[used]
    gold = _field(states, "banner_gold")[:, :n].reshape(g * n, -1)[used]
    structs = pa.StructArray.from_arrays(
        [pa.array(turn[used], pa.int16()), pa.array(turn[used] // n + 1, pa.int16()), pa.array(seals, pa.int16()),
         pa.array(gold, pa.int16())], names=["turn", "round", "seals", "gold"])
    offsets = np.zeros(g * n + 1, dtype=np.int32)
    np.cumsum(used.sum(axis=1), out=offsets[1:])
    return pa.ListArray.from_arrays(pa.array(offsets), structs)


def _building_columns(states: np.ndarray, n: int, place_first: np.ndarray, field_print: np.ndarray) -> dict:
    """The per-building columns: counts per seat and the ``buildings`` list (one struct per building
    a seat placed, in placement order), with the fixed ``board_shapes`` / ``board_families``."""
    g = states.shape[0]
    count = _field(states, "n_buildings")[:, 0]
    placer = _field(states, "b_placer")  # (G, B)
    exists = np.arange(placer.shape[1])[None, :] < count[:, None]
    paid = _field(states, "b_paid")  # (G, B, MAX_P)
    family = _field(states, "b_family")
    shape = np.searchsorted(place_first, _field(states, "b_placement"), side="right") - 1
    completed = _field(states, "b_state") == COMPLETED
    values = final_values(states, field_print)  # (G, F)
    mine = exists[:, None, :] & (placer[:, None, :] == np.arange(n)[None, :, None])  # (G, P, B)
    seat_paid = np.transpose(paid[:, :, :n], (0, 2, 1))  # (G, P, B)
    completions = _field(states, "completions")[:, :n]
    columns = {
        "buildings_placed": pa.array(mine.sum(axis=2).reshape(-1), pa.int8()),
        "completions": pa.array(completions.reshape(-1), pa.int8()),
        "seals_earned": pa.array((seat_paid * exists[:, None, :]).sum(axis=2).reshape(-1), pa.int16()),
    }
    n_shapes, n_families = len(SHAPES), len(FAMILIES)
    n_components = n_shapes + n_families
    columns["board_components"] = pa.FixedSizeListArray.from_arrays(
        pa.array(np.tile(np.arange(n_components, dtype=np.int8), g * n)), n_components)
    pick = mine.reshape(g * n, -1)
    rep = lambda a: np.repeat(a, n, axis=0)[pick]  # noqa: E731  (G, B) -> events, seat by seat
    seals = seat_paid.reshape(g * n, -1)[pick]
    gold = seals * np.take_along_axis(values, family.astype(np.int64), axis=1).repeat(n, axis=0)[pick]
    structs = pa.StructArray.from_arrays(
        [pa.array(rep(shape), pa.int8()), pa.array(rep(family), pa.int8()),
         pa.array(rep(_field(states, "b_tents")), pa.int8()), pa.array(rep(completed)),
         pa.array(seals, pa.int16()), pa.array(gold, pa.int16())],
        names=["shape", "family", "tents", "completed", "seals", "gold"])
    offsets = np.zeros(g * n + 1, dtype=np.int32)
    np.cumsum(pick.sum(axis=1), out=offsets[1:])
    columns["buildings"] = pa.ListArray.from_arrays(pa.array(offsets), structs)
    # each building twice, as its shape and as its family, side by side
    component = np.stack([rep(shape), rep(family) + n_shapes], axis=1).reshape(-1)
    twice = lambda a: np.repeat(a, 2)  # noqa: E731
    parts = pa.StructArray.from_arrays(
        [pa.array(component, pa.int8()), pa.array(twice(rep(_field(states, "b_tents"))), pa.int8()),
         pa.array(twice(seals), pa.int16()), pa.array(twice(gold), pa.int16())],
        names=["component", "tents", "seals", "gold"])
    columns["components"] = pa.ListArray.from_arrays(pa.array(2 * offsets), parts)
    return columns

