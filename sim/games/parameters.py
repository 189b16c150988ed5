"""What every game's parameter dataclass shares: ``GameParams`` and the start-vector parameter.

A game's ``Params`` is a frozen dataclass that also inherits ``GameParams`` and names its game;
its ``from_dict`` checks each value (one-line ``GameIdError``s). The compensation parameter of a
game (start points, start VP ...) is text: ``rulebook``, ``equal`` or integers joined by ``/``,
read by ``check_start_text`` and ``start_vector``.
"""

from dataclasses import asdict
from typing import ClassVar

from bgsim.sim.errors import GameIdError

__all__ = ["GameParams", "check_start_text", "start_vector"]


class GameParams:
    """Mixin for a game's frozen parameter dataclass (which has ``n_players``)."""

    game_name: ClassVar[str] = ""
    listing_hint: ClassVar[str] = "bgsim games"  # where a user finds the parameter list

    @classmethod
    def reject_unknown(cls, values: dict) -> None:
        """A one-line error for the first name in ``values`` that is no parameter of the game."""
        known = cls.__dataclass_fields__
        for name in values:
            if name not in known:
                raise GameIdError(f"{cls.game_name} has no parameter {name!r} (see `{cls.listing_hint}`)")

    @classmethod
    def check_player_count(cls, n, low: int, high: int, what: str | None = None) -> None:
        """``n`` must be an integer in low..high; ``what`` names the counts in the error."""
        if not isinstance(n, int) or isinstance(n, bool) or not low <= n <= high:
            raise GameIdError(f"{cls.game_name} is for {what or f'{low} to {high} players'}, not {n!r}")

    def non_default(self) -> dict:
        """The parameters that differ from their defaults (the canonical game id lists these)."""
        defaults = type(self)()
        return {k: v for k, v in asdict(self).items() if getattr(defaults, k) != v}


def check_start_text(name: str, value, example: str, max_seats: int = 4) -> str:
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
