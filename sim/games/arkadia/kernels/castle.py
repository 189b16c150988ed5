"""The castle (ARK-CASTLE): seal values, and castle stones placed level by level with the leftover
rules and the end trigger. ``s`` is the state, ``t`` the component table (``state.py``)."""

from bgsim.sim.games.arkadia.events import EV_LEVEL, EV_STONE, EV_TRIGGER, log_event
from bgsim.sim.games.arkadia.state import (
    END_TRIGGERED,
    FIELD_HEIGHT,
    FIELD_TOP,
    LEVEL,
    LEVELS,
    N_FAMILIES,
    N_FIELDS,
    SEAT,
    STONE_SUPPLY,
    STONES_OWED,
    T_FIELD_PRINT,
    TRIGGER_SEAT,
)
from numba import njit

STONES_PER_LEVEL = (3, 3, 1)  # per family on the level-1, level-2 and level-3 supplies (ARK-SETUP-5)


@njit(cache=True)
def reset_castle(s):
    """ARK-SETUP-5, -8: empty fields, 12 + 12 + 4 stones on the supplies, level 1 next."""
    for f in range(N_FIELDS):
        s[FIELD_HEIGHT + f] = 0
        s[FIELD_TOP + f] = -1
    for level in range(LEVELS):
        for family in range(N_FAMILIES):
            s[STONE_SUPPLY + level * N_FAMILIES + family] = STONES_PER_LEVEL[level]
    s[LEVEL] = 1
    s[STONES_OWED] = 0
    s[END_TRIGGERED] = 0


@njit(cache=True)
def seal_value(s, t, family):
    """ARK-CASTLE-7: the castle fields whose visible top shows ``family``: a field's top stone, or
    the printed seal of an empty field (a blank field shows none)."""
    value = 0
    for f in range(N_FIELDS):
        shown = s[FIELD_TOP + f] if s[FIELD_HEIGHT + f] > 0 else t[T_FIELD_PRINT + f]
        if shown == family:
            value += 1
    return value


@njit(cache=True)
def stone_is_legal(s, family, field):
    """ARK-CASTLE-3: a stone of a family on the current level's supply, on a field holding exactly
    level - 1 stones."""
    level = s[LEVEL]
    return (0 <= family < N_FAMILIES and 0 <= field < N_FIELDS
            and s[STONE_SUPPLY + (level - 1) * N_FAMILIES + family] > 0 and s[FIELD_HEIGHT + field] == level - 1)


@njit(cache=True)
def stones_available(s):
    """Stones left on the current level's supply (0: owed stones are not placed, AMB-9)."""
    level = s[LEVEL]
    total = 0
    for family in range(N_FAMILIES):
        total += s[STONE_SUPPLY + (level - 1) * N_FAMILIES + family]
    return total


@njit(cache=True)
def place_stone(s, family, field, log=None):
    """Put one castle stone (ARK-CASTLE-3) and owe one stone less. When it fills level 1 or 2, that
    level's leftover stones move to the level-3 supply (ARK-CASTLE-4, -5), the next level opens,
    and a full level 2 triggers the end (ARK-END-1). Level 3 never fills (ARK-CASTLE-6). ``log``:
    the event log, None where a rules test places stones by hand."""
    level = s[LEVEL]
    s[STONE_SUPPLY + (level - 1) * N_FAMILIES + family] -= 1
    s[FIELD_HEIGHT + field] += 1
    s[FIELD_TOP + field] = family
    if s[STONES_OWED] > 0:
        s[STONES_OWED] -= 1
    log_event(log, EV_STONE, s[SEAT], family, field, s[FIELD_HEIGHT + field], s[STONES_OWED])
    if level >= LEVELS:
        return
    for f in range(N_FIELDS):
        if s[FIELD_HEIGHT + f] < level:
            return
    for fam in range(N_FAMILIES):  # the level is full: its leftovers go to the level-3 supply
        s[STONE_SUPPLY + (LEVELS - 1) * N_FAMILIES + fam] += s[STONE_SUPPLY + (level - 1) * N_FAMILIES + fam]
        s[STONE_SUPPLY + (level - 1) * N_FAMILIES + fam] = 0
    s[LEVEL] = level + 1
    log_event(log, EV_LEVEL, -1, level, level + 1)
    if level == 2 and s[END_TRIGGERED] == 0:
        log_event(log, EV_TRIGGER, s[SEAT], 0)
        s[TRIGGER_SEAT] = s[SEAT]
    if level == 2:
        s[END_TRIGGERED] = 1
