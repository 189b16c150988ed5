"""Named slices of one flat int32 buffer: the storage scheme of every compiled game state.

A game's state (and its component tables) is a single ``int32`` array. Kernels address it
through integer offsets that are module constants, so a compiled call unboxes one array
instead of dozens, and copying a state for a search player is one ``ndarray.copy``.
"""

from dataclasses import dataclass

import numpy as np

__all__ = ["Field", "Layout"]


@dataclass(frozen=True)
class Field:
    name: str
    offset: int
    shape: tuple[int, ...]
    doc: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1


class Layout:
    """An append-only list of fields; ``add`` returns the offset of the new field."""

    def __init__(self, title: str):
        self.title = title
        self.fields: dict[str, Field] = {}
        self.size = 0

    def add(self, name: str, shape: tuple[int, ...] | int, doc: str) -> int:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        if name in self.fields:
            raise ValueError(f"duplicate field {name!r} in {self.title}")
        field = Field(name, self.size, shape, doc)
        self.fields[name] = field
        self.size += field.size
        return field.offset

    def view(self, buffer: np.ndarray, name: str) -> np.ndarray:
        """The named field of ``buffer`` as an array of its declared shape (a view, not a copy)."""
        field = self.fields[name]
        flat = buffer[field.offset: field.offset + field.size]
        return flat.reshape(field.shape) if field.shape else flat

    def describe(self) -> str:
        """One line per field: offset, name, shape and meaning (used in docs and debugging)."""
        return "\n".join(
            f"{f.offset:6d}  {f.name:<22} {str(f.shape):<12} {f.doc}" for f in self.fields.values()
        )
