"""Result records of finished games: one row per (game, seat), the columns a run stores.

Built with array operations over a whole chunk of final states at once, so recording a
game costs microseconds. The column meanings are listed in ``RECORD_DOCS``.
"""

import numpy as np
import pyarrow as pa
from bgsim.sim.games.carpe_diem.constants import COUNTER_NAMES, N_SLOTS
from bgsim.sim.games.carpe_diem.state import CARD_LOG, CARD_LOG_FIELDS, STATE

__all__ = ["CATEGORY_DOCS", "RECORD_DOCS", "SOLO_RECORD_DOCS", "CARD_FIELDS", "seat_records"]

# cardlog fields in state order (state.py: pass, card, k, b, vp, coins, bread, steps, penalty)
CARD_FIELDS = (
    ("pass", pa.int8()), ("card", pa.int16()), ("k", pa.int8()), ("b", pa.int8()), ("vp", pa.int16()),
    ("coins", pa.int16()), ("bread", pa.int16()), ("steps", pa.int16()), ("penalty", pa.bool_()),
)

_VILLAS = COUNTER_NAMES.index("villas")

# (column, state field or None = computed, meaning)
_CATEGORIES = (
    ("vp_cards", "vp_cards", "net VP from scoring cards: payouts minus -4 penalties (CD-SCORING)"),
    ("vp_villas", "final_villas", "final scoring: completed villas (CD-END-2)"),
    ("vp_leftovers", "final_leftovers", "final scoring: leftover goods, coins and bread / 2 (CD-END-3)"),
    ("vp_banner", None, "final banner position plus VP for steps beyond the track end (CD-END-4, CD-REWARD-10)"),
    ("vp_fountain_cards", "final_fountain", "final scoring: fountain cards (CD-END-5)"),
    ("vp_frame_tasks", "final_frames", "final scoring: frame tasks (CD-END-6)"),
)

CATEGORY_DOCS = {name: doc for name, _, doc in _CATEGORIES}  # the final score's parts, in score-sheet order

RECORD_DOCS = {
    "start_vp": "VP at the start (CD-SETUP-14)",
    "final_vp": "final VP (CD-END-7)",
    "rank": "1 = winner, after the tie-break (CD-TIE)",
    "won": "rank == 1",
    "tie": "another seat has the same final VP, so the tie-break decided between them",
    "tiebreak": "place in the tie-break order alone (CD-TIE-2): 1 = furthest back on the banner track, "
                "so it wins any VP tie; re-ranks games under other start VP",
    **{name: doc for name, _, doc in _CATEGORIES},
    "penalties": "-4 VP penalties taken",
    "villas_built": "completed villas",
    "banner_pos": "banner-disc position at the end",
    "board_cards": f"scoring card id on each of the {N_SLOTS} slots, -1 = empty slot (same for every seat)",
    "cards": "cards this seat triggered: pass, card, fulfilments k and b (bread), vp, coins, bread, "
             "banner steps, penalty",
}
# Solo games (n_players = 1) store the human's row with these columns added.
SOLO_RECORD_DOCS = {
    "anna_vp": "solo: Anna's final VP (CD-ANNA-22)",
    "margin": "solo: the human's final VP minus Anna's",
    "anna_vp_start": "solo: Anna's start VP (0, or the anna_start_vp difficulty knob)",
    "anna_vp_banner": "solo: Anna's banner position plus VP for steps beyond the track end",
    "anna_vp_villa": "solo: Anna's villa-track VP (AMB-26)",
    "anna_vp_majority": "solo: Anna's majority VP over the 11 non-villa tracks (CD-ANNA-23)",
    "anna_vp_fountain": "solo: Anna's fountain-card VP by grey numbers (CD-ANNA-24)",
}


def _field(states: np.ndarray, name: str) -> np.ndarray:
    """Field ``name`` of every state: (G, *shape) int32 (states: (G, STATE_SIZE) int32)."""
    f = STATE.fields[name]
    return states[:, f.offset: f.offset + f.size].reshape((states.shape[0], *f.shape))


def seat_records(states: np.ndarray, n_players: int, upper_is_back: bool = False,
                 solo: bool = False) -> dict[str, pa.Array]:
    """Columns of G * P rows (game-major, seat-minor) from final states (G, STATE_SIZE) int32.

    ``upper_is_back``: AMB-13, on a shared banner space the upper disc counts as further back.
    ``solo``: one row per game, the human's (n_players 1), with Anna's score in the anna_* columns.
    """
    g = states.shape[0]
    if solo:
        return _solo_records(states, upper_is_back)
    per_seat = lambda name: _field(states, name)[:, :n_players].reshape(-1)  # noqa: E731
    final_vp = per_seat("final_total")
    rank = per_seat("rank")
    totals = _field(states, "final_total")[:, :n_players]
    same_vp = (totals[:, :, None] == totals[:, None, :]).sum(axis=2) > 1  # (G, P): shares its total
    columns = {
        "start_vp": pa.array(per_seat("vp_start"), pa.int16()),
        "final_vp": pa.array(final_vp, pa.int16()),
        "rank": pa.array(rank, pa.int8()),
        "won": pa.array(rank == 1),
        "tie": pa.array(same_vp.reshape(-1)),
        "tiebreak": pa.array(_tiebreak_places(states, n_players, upper_is_back).reshape(-1), pa.int8()),
    }
    for column, field, _ in _CATEGORIES:
        values = per_seat("final_banner") + per_seat("vp_overflow") if field is None else per_seat(field)
        columns[column] = pa.array(values, pa.int16())
    columns["penalties"] = pa.array(per_seat("penalties"), pa.int8())
    columns["villas_built"] = pa.array(_field(states, "count")[:, :n_players, _VILLAS].reshape(-1),
                                       pa.int16())
    columns["banner_pos"] = pa.array(per_seat("banner_pos"), pa.int16())
    slots = np.repeat(_field(states, "slot_card"), n_players, axis=0).astype(np.int16)  # (G*P, N_SLOTS)
    columns["board_cards"] = pa.FixedSizeListArray.from_arrays(pa.array(slots.reshape(-1)), N_SLOTS)
    columns["cards"] = _card_lists(states, n_players, g)
    return columns


def _solo_records(states: np.ndarray, upper_is_back: bool) -> dict[str, pa.Array]:
    """The human's row of each solo game: the 2-seat columns (so tie and tiebreak compare with
    Anna), then Anna's final score by source (CD-ANNA-22)."""
    both = seat_records(states, 2, upper_is_back)
    human = pa.array(np.arange(0, 2 * states.shape[0], 2))
    columns = {name: column.take(human) for name, column in both.items()}
    anna = lambda name: _field(states, name)[:, 1].astype(np.int64)  # noqa: E731
    anna_vp = anna("final_total")
    columns["anna_vp"] = pa.array(anna_vp, pa.int16())
    columns["margin"] = pa.array(_field(states, "final_total")[:, 0] - anna_vp, pa.int16())
    columns["anna_vp_start"] = pa.array(anna("vp_start"), pa.int16())
    columns["anna_vp_banner"] = pa.array(anna("final_banner") + anna("vp_overflow"), pa.int16())
    columns["anna_vp_villa"] = pa.array(anna("final_villas"), pa.int16())
    columns["anna_vp_majority"] = pa.array(_field(states, "anna_final_majority")[:, 0], pa.int16())
    columns["anna_vp_fountain"] = pa.array(anna("final_fountain"), pa.int16())
    return columns


def _tiebreak_places(states: np.ndarray, n_players: int, upper_is_back: bool) -> np.ndarray:
    """(G, P) place of each seat in the CD-TIE-2 order: lower banner position first; on one space
    the lower disc of the stack (earlier stamp) first, or the upper one under AMB-13's alternative."""
    pos = _field(states, "banner_pos")[:, :n_players].astype(np.int64)
    stamp = _field(states, "banner_stamp")[:, :n_players].astype(np.int64)
    key = pos * 1_000_000 + (-stamp if upper_is_back else stamp)  # stamps are small and distinct per game
    return key.argsort(axis=1).argsort(axis=1) + 1


def _card_lists(states: np.ndarray, n_players: int, g: int) -> pa.Array:
    """list<struct> per (game, seat): the first ``cardlog_n`` entries of the seat's card log."""
    log = _field(states, "cardlog")[:, :n_players].reshape(g * n_players, CARD_LOG, CARD_LOG_FIELDS)
    counts = _field(states, "cardlog_n")[:, :n_players].reshape(-1).astype(np.int32)
    valid = np.arange(CARD_LOG)[None, :] < counts[:, None]  # (G*P, CARD_LOG)
    entries = log[valid]  # (total entries, CARD_LOG_FIELDS), row-major = seat order
    children = [
        pa.array(entries[:, i].astype(bool) if kind == pa.bool_() else entries[:, i], kind)
        for i, (_, kind) in enumerate(CARD_FIELDS)
    ]
    structs = pa.StructArray.from_arrays(children, names=[name for name, _ in CARD_FIELDS])
    offsets = np.zeros(g * n_players + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    return pa.ListArray.from_arrays(pa.array(offsets), structs)
