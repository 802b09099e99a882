"""The puzzles, one module each, and the registry that lists them.

Every module of this package that defines ``PUZZLE`` (a :class:`~boardpuzzles.protocol.Puzzle`)
or ``GAME`` (a :class:`~boardpuzzles.protocol.Game`) is registered; so is every object that an
installed package declares under the entry-point group ``boardpuzzles.puzzles``. Nothing else
keeps a list: the command line, ``demo``, ``warmup``, the conformance test and the README's table
all read :func:`registry`. Modules whose names start with ``_`` are private.

Each puzzle module offers the same small protocol (see :mod:`boardpuzzles.protocol`):
``solutions(problem, limits)`` a generator of every solution; ``count(problem, limits)``;
``violations(problem, answer)`` from an independent checker; and ``PUZZLE``, which ties them
together with the puzzle's parameters, pictures and JSON.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from importlib.metadata import entry_points
from typing import Any

from boardpuzzles.protocol import Entry, Game, Puzzle

ENTRY_POINT_GROUP = "boardpuzzles.puzzles"


@functools.cache
def registry() -> dict[str, Entry]:
    """Every registered puzzle and game by name, in alphabetical order."""
    found: dict[str, Entry] = {}

    def add(entry: object, origin: str) -> None:
        if not isinstance(entry, (Puzzle, Game)):
            raise TypeError(f"{origin} is not a Puzzle or a Game")
        if entry.name in found:
            raise ValueError(f"two puzzles are named {entry.name!r} ({origin} and another)")
        found[entry.name] = entry

    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for attribute in ("PUZZLE", "GAME"):
            if hasattr(module, attribute):
                add(getattr(module, attribute), f"{module.__name__}.{attribute}")
    for point in entry_points(group=ENTRY_POINT_GROUP):
        add(point.load(), f"entry point {point.name}")
    return dict(sorted(found.items()))


def get(name: str) -> Entry:
    """One registered puzzle or game by name."""
    try:
        return registry()[name]
    except KeyError:
        from boardpuzzles.errors import BoardPuzzlesError

        raise BoardPuzzlesError(f"no puzzle named {name!r}; known: {', '.join(registry())}") from None


def puzzles() -> dict[str, Puzzle[Any, Any]]:
    """The registered puzzles (not the games)."""
    return {name: entry for name, entry in registry().items() if isinstance(entry, Puzzle)}
