"""Knight's tours as text and pictures: reading a tour (a board of move numbers or a list of
square names), the board of move numbers, the scene, and answers as JSON.

A tour that the package hands out (``solve``'s answers, ``find``'s tour, a tour read back) is an
:class:`~boardpuzzles.answers.Path` (:func:`as_path`): it reads as the tuple of its squares, and
a notebook shows its picture. Every function here also takes a plain sequence of squares.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.answers import Path, path_scene
from boardpuzzles.errors import BoardPuzzlesError, ParseError, excerpt
from boardpuzzles.grid import file_letters
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles.knights_tour.counting import solutions
from boardpuzzles.puzzles.knights_tour.rules import Problem, _squares_of, board

#: ``picture`` writes this many squares of text at a time, looking at the limits in between.
TEXT_BLOCK = 1 << 18


# ------------------------------------------------------------------ reading a tour
#: A board of move numbers: ASCII digits or '.' only, separated by white space.
_NUMBERED = re.compile(r"\s*+(?:(?:[0-9]++|\.)(?:\s++(?:[0-9]++|\.))*+)?\s*+")


def parse_tour(text: str, rows: int, cols: int | None = None) -> list[int]:
    """A tour from a board of move numbers (one row per line, ``.`` an unvisited square; the
    numbers run 1, 2, 3, ... each once) or from a list of square names (separated
    by spaces or commas). A tour names each square at most once, so a list longer than the board
    is refused as soon as it is seen, and a number is read only if it has at most 9 digits."""
    cols = rows if cols is None else cols
    grid = board(rows, cols)
    squares = rows * cols
    text = text.removeprefix("\ufeff")  # a byte-order mark that an editor put at the start
    if not text.strip():
        raise ParseError("the tour is empty")
    if _NUMBERED.fullmatch(text):
        return _numbered_tour(text, rows, cols)
    words = re.finditer(r"\S++", text)
    first = next(words, None)
    if first is not None and re.fullmatch(r"[+-]?+[0-9]++|\.", first.group()):  # numbers were meant
        # Name the word that is not one, and its line (counted as the board's lines are).
        stranger = next(w for w in itertools.chain([first], words) if not re.fullmatch(r"[0-9]++|\.", w.group()))
        line = len((text[: stranger.start()] + "_").splitlines())
        where = f"line {line}: {excerpt(stranger.group())} is not a move number"
        if re.fullmatch(r"[+-][0-9]++", stranger.group()):
            raise ParseError(f"{where}: the moves of a {rows}x{cols} tour are numbered 1 to {squares}")
        raise ParseError(f"{where}: a numbered board holds ASCII digits and '.'")
    tour = []
    for k, match in enumerate(re.finditer(r"[^\s,]++", text), start=1):
        if k > squares:
            raise ParseError(f"more than {squares} squares listed: a tour of {rows}x{cols} visits each square once")
        try:
            tour.append(grid.cell_named(match.group()))
        except BoardPuzzlesError as err:
            raise ParseError(str(err)) from None
    return tour


def _numbered_tour(text: str, rows: int, cols: int) -> list[int]:
    """The squares of a board of move numbers in the order of their numbers. The numbers must be
    1, 2, 3, ... with none repeated or skipped, each at most rows x cols: sorting anything else
    would read a board that is no tour (a 99, a 0, two 7s) as one. ``.`` squares are unvisited:
    1 to k on the other squares is a partial tour, which the checker refuses."""
    grid = board(rows, cols)
    squares = rows * cols
    lines = [(number, line) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if len(lines) != rows:
        raise ParseError(
            f"a numbered board of {rows}x{cols} needs {rows} lines of {cols} numbers; got {len(lines)} lines"
        )
    square_of = np.full(squares + 1, -1, np.int64)  # the square of each move number; -1: none yet
    for r, (number, line) in enumerate(lines):
        words = line.split(None, cols)  # at most one more than a row holds: a long line stays cheap
        if len(words) != cols:
            raise ParseError(
                f"a numbered board of {rows}x{cols} needs {rows} lines of {cols} numbers; "
                f"line {number} has {'more than ' + str(cols) if len(words) > cols else len(words)}"
            )
        for c, word in enumerate(words):
            if word == ".":
                continue
            cell = r * cols + c
            significant = word.lstrip("0") or "0"  # int() counts leading zeros against its limit
            move = int(significant) if len(significant) <= 9 else None  # None: far too large
            if move is None or not 1 <= move <= squares:
                raise ParseError(
                    f"line {number}: {grid.name(cell)} holds move number "
                    f"{excerpt(significant) if move is None else move}, "
                    f"but the moves of a {rows}x{cols} tour are numbered 1 to {squares}"
                )
            if square_of[move] >= 0:
                raise ParseError(
                    f"line {number}: move number {move} appears twice, on {grid.name(int(square_of[move]))} "
                    f"and on {grid.name(cell)}"
                )
            square_of[move] = cell
    numbered = np.flatnonzero(square_of >= 0)  # the move numbers present, in increasing order
    if len(numbered) and numbered[-1] != len(numbered):  # a gap: the knight skipped a move
        missing = int(np.flatnonzero(square_of[1:] < 0)[0]) + 1
        raise ParseError(
            f"move number {missing} is missing: the numbers must run 1, 2, 3, ... without a gap "
            f"(the highest is {int(numbered[-1])}; '.' marks an unvisited square)"
        )
    tour: list[int] = square_of[numbered].tolist()
    return tour


# ------------------------------------------------------------------ pictures and text
def picture(rows: int, cols: int, tour: Sequence[int], limits: Limits | None = None) -> str:
    """The tour as a board of move numbers (1 = the first square), right-aligned and one space
    apart: the scene's text picture. A tour of every square is written by numpy a block of rows
    at a time (a 2000x2000 tour, 32 MB of text, in about a second), and ``limits`` are looked at
    between blocks; any other sequence of squares is drawn by the scene."""
    squares = rows * cols
    order = _squares_of(tour, squares) if len(tour) == squares else None
    number = np.zeros(squares, np.int64 if order is None else order.dtype)
    if order is not None:
        number[order] = np.arange(1, squares + 1, dtype=number.dtype)
    if order is None or not number.all():  # not every square once
        from boardpuzzles.scene import scene_text

        return scene_text(to_scene(Problem(rows, cols), tour))
    del order
    width = len(str(squares))
    powers = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
    text = np.empty((squares, width + 1), np.uint8)
    step = max(1, TEXT_BLOCK // cols) * cols
    for first in range(0, squares, step):
        if limits is not None:
            limits.check()
        block = number[first : first + step, None]
        digits = (block // powers % 10 + ord("0")).astype(np.uint8)
        digits[:, :-1][block < powers[:-1]] = ord(" ")  # no leading zeros
        text[first : first + step, :width] = digits
    text[:, width] = ord(" ")
    text[cols - 1 :: cols, width] = ord("\n")
    return str(text.reshape(-1)[:-1].data, "ascii")


def _answer_text(problem: Problem, tour: Sequence[int]) -> str:
    return picture(problem.rows, problem.cols, tour)


def as_path(problem: Problem, tour: Sequence[int]) -> Path:
    """A tour of the problem's board as an answer value (closed when the problem is)."""
    if isinstance(tour, Path) and tour.grid == problem.grid and tour.closed == problem.closed:
        return tour
    return Path(problem.grid, tuple(tour), problem.closed)


def tours(problem: Problem, limits: Limits | None = None) -> Iterator[Path]:
    """Every tour the problem describes (see ``solutions``), lazily, as answer values."""
    for tour in solutions(problem, limits):
        yield Path(problem.grid, tour, problem.closed)


def to_scene(problem: Problem, tour: Sequence[int]) -> Any:
    """The tour's picture: move numbers on the squares, the path coloured by move number (closed:
    back to the start), its start ringed and, when open, its end squared. Large boards drop the
    numbers and the squares and keep the path (see :mod:`boardpuzzles.render.draw`)."""
    return path_scene(as_path(problem, tour), "move")


def view(tour: Sequence[int], rows: int | None = None, cols: int | None = None, closed: bool = False) -> Any:
    """A tour as a picture for notebooks: a scene, which Jupyter shows as SVG (``_repr_svg_``)
    and whose ``text()`` is the board of move numbers, titled in words. ``view(find(8).tour)``
    (a plain sequence of squares needs its board: ``view(squares, 8)``)."""
    if isinstance(tour, Path):
        rows, cols, closed = tour.grid.rows, tour.grid.cols, tour.closed
    elif rows is None:
        raise TypeError("view needs the board's rows (and columns) for a plain sequence of squares")
    cols = rows if cols is None else cols
    scene = to_scene(Problem(rows, cols, closed=closed), tour)
    scene.title = f"{'a closed' if closed else 'an open'} knight's tour of {rows}x{cols}"
    return scene


def answer_to_json(problem: Problem, tour: Sequence[int]) -> list[str]:
    """The tour as square names in order (``Grid.name`` of each, from tables of the names of the
    files and ranks: a tour of millions of squares is named in about a second)."""
    grid = problem.grid
    order = _squares_of(tour, grid.size)
    if order is None:
        return [grid.name(c) for c in tour]
    files = [file_letters(c) for c in range(grid.cols)]
    ranks = [str(grid.rows - r) for r in range(grid.rows)]
    rows, cols = np.divmod(order, grid.cols)
    return list(map(str.__add__, map(files.__getitem__, cols.tolist()), map(ranks.__getitem__, rows.tolist())))


def answer_from_json(problem: Problem, document: Any) -> Path:
    if not isinstance(document, list):
        raise BoardPuzzlesError('a tour is a list of square names: ["a1", "c2", ...]')
    return as_path(problem, [problem.grid.cell_written(str(name)) for name in document])


def read_answer(values: Mapping[str, Any], text: str | None) -> tuple[Problem, Path]:
    rows, cols = values["size"]
    problem = _problem(values["size"], values.get("start"), values.get("closed", False))
    return problem, as_path(problem, parse_tour(text or "", rows, cols))


def _problem(
    size: tuple[int, int], start: str | None = None, closed: bool = False, undirected: bool = False
) -> Problem:
    rows, cols = size
    cell = None
    if start is not None:
        if not start.strip():
            raise BoardPuzzlesError("--start needs a square name such as a1 (it was empty)")
        cell = board(rows, cols).cell_named(start)
    return Problem(rows, cols, cell, closed, undirected)
