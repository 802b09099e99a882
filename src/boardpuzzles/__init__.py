"""boardpuzzles: solve, count, play and draw grid-board puzzles.

Geometry lives in :mod:`boardpuzzles.grid`, boards with contents in :mod:`boardpuzzles.board`,
each puzzle in :mod:`boardpuzzles.puzzles`, pictures in :mod:`boardpuzzles.render`.

The names below are loaded on first use, so that importing the package itself (as the command
line's entry point does before it can catch a Ctrl-C) loads nothing heavy: not even ``typing``
(30 ms, a third of the time before the entry point takes Ctrl-C).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    from boardpuzzles.board import Board, parse_board
    from boardpuzzles.errors import BoardPuzzlesError, ParseError, SizeError
    from boardpuzzles.grid import Grid

__version__ = "0.1.0"
__all__ = ["Board", "BoardPuzzlesError", "Grid", "ParseError", "SizeError", "parse_board"]

_HOMES = {
    "Board": "boardpuzzles.board",
    "parse_board": "boardpuzzles.board",
    "BoardPuzzlesError": "boardpuzzles.errors",
    "ParseError": "boardpuzzles.errors",
    "SizeError": "boardpuzzles.errors",
    "Grid": "boardpuzzles.grid",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'boardpuzzles' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*__all__, *(name for name in globals() if name.startswith("__"))})
