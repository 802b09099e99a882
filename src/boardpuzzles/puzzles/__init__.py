"""The puzzles, one module each, and the registry that lists them.

Every module of this package that defines ``PUZZLE`` (a :class:`~boardpuzzles.protocol.Puzzle`)
or ``GAME`` (a :class:`~boardpuzzles.protocol.Game`) is registered; so is every object that an
installed package declares under the entry-point group ``boardpuzzles.puzzles``. The command
line, ``demo``, ``warmup``, the conformance test and the README's table all read
:func:`registry`. Modules whose names start with ``_`` are private.

The registry has a light view, :func:`catalogue`: each puzzle's name and title and the module
that holds its record, for ``boardpuzzles --help``, which lists the puzzles and must not import
them (a puzzle module loads its rules, pictures and play, a tenth of a second for them all). The
built-in puzzles are declared for it in :data:`BUILT_IN`, one line each; the conformance test
checks every line against the record it names (same name, same title) and that every record of
this package is declared, so the two cannot drift apart. :func:`get` imports one puzzle only.

Each puzzle module offers the same small protocol (see :mod:`boardpuzzles.protocol`):
``solutions(problem, limits)`` a generator of every solution; ``count(problem, limits)``;
``violations(problem, answer)`` from an independent checker; and ``PUZZLE``, which ties them
together with the puzzle's parameters, pictures and JSON.
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import sys
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from boardpuzzles.protocol import Entry, Puzzle

ENTRY_POINT_GROUP = "boardpuzzles.puzzles"


class Listing(NamedTuple):
    """What the list of puzzles shows of one (its ``name`` and ``title``), and where its record
    is: the attribute ``attribute`` of the module ``home``."""

    name: str
    title: str
    home: str
    attribute: str = "PUZZLE"

    def load(self) -> Entry:
        """The record itself (this imports its module)."""
        entry: Entry = getattr(importlib.import_module(self.home), self.attribute)
        return entry


#: The puzzles of this package, as the list of puzzles shows them (see the module docstring).
BUILT_IN: tuple[Listing, ...] = (
    Listing(
        "baikago",
        "plum-blossom go: five stones in a cross win (judge, play, engine, serve)",
        f"{__name__}.baikago",
        "GAME",
    ),
    Listing("dominoes", "the ways to tile an R x C board with dominoes", f"{__name__}.dominoes"),
    Listing("goishi", "Goishi Hiroi: pick up every stone in one walk", f"{__name__}.goishi"),
    Listing("hyperqueen", "N queens on a torus (the board wraps around at every edge)", f"{__name__}.hyperqueen"),
    Listing("kings", "K kings on a board or torus, no two touching", f"{__name__}.kings"),
    Listing(
        "knights-tour", "a knight visits every square once: list, count and find tours", f"{__name__}.knights_tour"
    ),
    Listing(
        "less-than-three",
        "stones of C colours, never K+1 of a colour on any straight line",
        f"{__name__}.less_than_three",
    ),
    Listing("queens", "the classic N queens puzzle", f"{__name__}.queens"),
)


@functools.cache
def registry() -> dict[str, Entry]:
    """Every registered puzzle and game by name, in alphabetical order (imports them all)."""
    import pkgutil

    found: dict[str, Entry] = {}

    def add(entry: Entry, origin: str) -> None:
        if entry.name in found:
            raise ValueError(f"two puzzles are named {entry.name!r} ({origin} and another)")
        found[entry.name] = entry

    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for attribute in ("PUZZLE", "GAME"):
            if hasattr(module, attribute):
                origin = f"{module.__name__}.{attribute}"
                add(_checked(getattr(module, attribute), origin), origin)
    for point, entry in _plugged_in(tuple(sys.path)):
        add(entry, f"entry point {point.name}")
    return dict(sorted(found.items()))


def catalogue() -> dict[str, Listing]:
    """Every registered puzzle and game by name, in alphabetical order, as the list of puzzles
    shows it: the built-in ones without importing them, and those of other packages."""
    return _catalogue(tuple(sys.path))


@functools.cache
def _catalogue(path: tuple[str, ...]) -> dict[str, Listing]:
    listed = {listing.name: listing for listing in BUILT_IN}
    for point, entry in _plugged_in(path):
        if entry.name in listed:
            raise ValueError(f"two puzzles are named {entry.name!r} (entry point {point.name} and another)")
        listed[entry.name] = Listing(entry.name, entry.title, point.module, point.attr)
    return dict(sorted(listed.items()))


def get(name: str) -> Entry:
    """One registered puzzle or game by name; a built-in one is imported alone."""
    listing = next((listing for listing in BUILT_IN if listing.name == name), None)
    if listing is not None:
        return listing.load()
    try:
        return registry()[name]
    except KeyError:
        from boardpuzzles.errors import BoardPuzzlesError

        raise BoardPuzzlesError(f"no puzzle named {name!r}; known: {', '.join(catalogue())}") from None


def puzzles() -> dict[str, Puzzle[Any, Any]]:
    """The registered puzzles (not the games)."""
    from boardpuzzles.protocol import Puzzle

    return {name: entry for name, entry in registry().items() if isinstance(entry, Puzzle)}


@functools.cache
def _plugged_in(path: tuple[str, ...]) -> list[tuple[EntryPoint, Entry]]:
    """The puzzles and games that the packages installed on ``path`` (``sys.path`` as it is:
    another path may hold other packages) declare, with their entry points."""
    points = entry_points(group=ENTRY_POINT_GROUP)
    return [(point, _checked(point.load(), f"entry point {point.name}")) for point in points]


def entry_points(*, group: str, name: str | None = None) -> list[EntryPoint]:
    """The entry points that installed packages declare in ``group`` (those named ``name``, if
    given), as :func:`importlib.metadata.entry_points` finds them; that module is imported only
    where a package may declare one (see :func:`_may_declare`)."""
    if not _may_declare(group):
        return []
    from importlib import metadata

    found = metadata.entry_points(group=group)
    return list(found if name is None else found.select(name=name))


def _may_declare(group: str) -> bool:
    """Whether an installed package may declare entry points in ``group``: a look at the
    ``entry_points.txt`` files of the folders on the path, which :mod:`importlib.metadata` reads
    too. Importing that module costs as much as the rest of ``boardpuzzles --help`` (it loads
    email, zipfile and csv), and most installations hold no other package's puzzle. True where
    the look cannot tell (an archive on the path)."""
    section = re.compile(rf"^\s*\[\s*{re.escape(group)}\s*\]\s*$", re.MULTILINE)
    for entry in sys.path:
        folder = entry or "."
        try:
            names = os.listdir(folder)
        except NotADirectoryError:
            return True  # a zip archive: importlib.metadata looks inside
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(folder, name, "entry_points.txt"), encoding="utf-8", errors="replace") as f:
                    if section.search(f.read()):
                        return True
            except OSError:
                continue
    return False


def _checked(entry: object, origin: str) -> Entry:
    from boardpuzzles.protocol import Game, Puzzle

    if not isinstance(entry, (Puzzle, Game)):
        raise TypeError(f"{origin} is not a Puzzle or a Game")
    return entry
