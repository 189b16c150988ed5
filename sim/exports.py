"""Package names imported on first use: ``lazy_exports``.

A package lists what it exports and the module each name lives in; the names are imported when
first read, so importing the package (which every import of one of its subpackages does first)
loads none of those modules.
"""

from collections.abc import Callable
from importlib import import_module

__all__ = ["lazy_exports"]


def lazy_exports(namespace: dict, exports: dict[str, str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of the package whose ``globals()`` is
    ``namespace``, for ``exports`` (name -> module that defines it)."""
    package = namespace["__name__"]

    def __getattr__(name: str):
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(exports[name]), name)
        namespace[name] = value  # later look-ups skip this function
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__
