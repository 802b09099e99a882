"""Answer types: the shapes a puzzle's answers take, each with its text picture, its JSON (both
ways, validated on reading) and its scene, so that a puzzle whose answer is one of them writes
no converter: its :class:`~boardpuzzles.protocol.Puzzle` record names the type
(``answer_type=CELL_PAIRS``) and the record's pictures and JSON come from it.

Glossary
--------
answer type  an :class:`AnswerType`: the converters of one kind of answer. ``to_json`` and
             ``from_json(grid, document)`` (the grid is the problem's ``grid``), ``text`` (the
             picture ``solve`` prints) and ``read`` (that picture back, the grid read off it),
             ``scene`` (what SVG and PNG draw), and ``play``: the default play of a puzzle
             whose answers are of this type (:mod:`boardpuzzles.plays`), so that such a puzzle
             gets a play page from its record alone.
board        a :class:`~boardpuzzles.board.Board` of piece letters (:func:`board_of`): JSON
             ``{"Q": ["a1", ...]}``, the board's picture.
path         a :class:`Path`: cells in the order walked, open or closed (a tour): JSON
             ``{"cells": ["a1", "b3", ...], "closed": false}``, each cell showing its step number.
cell pairs   a :class:`CellPairs`: pairs of orthogonally neighbouring cells (dominoes, edges of
             the grid graph): JSON ``[["a1", "a2"], ...]``; the picture of dominoes is ``< >``
             for one across and ``^`` over ``v`` for one down (see :func:`pairs_text`).
order        an :class:`Order`: some cells numbered 1, 2, ... (a pick-up order): JSON
             ``["c3", "a1", ...]``, each cell showing its number.

value        the answers themselves are small frozen values that know their grid: a path and an
             order read as the sequence of their cells (``len``, indexing, iteration,
             ``numpy.asarray``), so code written for tuples of cells takes them unchanged; each
             shows its text picture as ``str`` and, in a notebook, its picture (``_repr_svg_``,
             drawn by :mod:`boardpuzzles.render`, imported only then).

Not taken: answer classes that convert themselves (``to_json`` methods). The converters stay in a
record of functions, which a puzzle can replace one by one; the values only read and draw.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from boardpuzzles.board import EMPTY, Board, parse_board
from boardpuzzles.errors import BoardPuzzlesError, shorten
from boardpuzzles.grid import Cell, Direction, Grid
from boardpuzzles.scene import Scene, scene_text

if TYPE_CHECKING:
    from boardpuzzles.play import Play
    from boardpuzzles.protocol import PlayFactory, Puzzle

A = TypeVar("A")
P = TypeVar("P")
Json = Any


@dataclass(frozen=True)
class AnswerType(Generic[A]):
    """The converters of one kind of answer (see the module glossary)."""

    name: str
    to_json: Callable[[A], Json]
    from_json: Callable[[Grid, Json], A]
    text: Callable[[A], str]
    read: Callable[[str], A]
    scene: Callable[[A], Scene]
    #: The default play of a puzzle whose answers are of this type (None: there is none).
    play: PlayFactory | None = None

    def reader(self, problem_of: Callable[[Mapping[str, Any], Grid], P]) -> Callable[..., tuple[P, A]]:
        """A puzzle's ``read_answer``: the answer read from its picture, and the problem that
        ``problem_of(values, grid)`` makes of ``check``'s parameters and the picture's grid."""

        def read_answer(values: Mapping[str, Any], text: str | None) -> tuple[P, A]:
            answer = self.read(text or "")
            return problem_of(values, getattr(answer, "grid")), answer  # noqa: B009 (A is any answer with a grid)

        return read_answer


# ---------------------------------------------------------------- values
class Pictured:
    """A value with a picture: its :meth:`scene`, shown as text by ``str`` and as SVG by Jupyter
    (``_repr_svg_``: the renderer is imported only when a picture is asked for)."""

    def scene(self) -> Scene:
        raise NotImplementedError

    def __str__(self) -> str:
        return scene_text(self.scene())

    def _repr_svg_(self) -> str:
        from boardpuzzles.render.svg import sheet_svg

        return sheet_svg([self.scene()])


class CellSequence(Pictured, Sequence[Cell]):
    """An answer that is cells in order (a path, a pick-up order): it reads as the tuple of its
    ``cells`` does, so code written for tuples of cells takes it unchanged."""

    cells: tuple[Cell, ...]
    if TYPE_CHECKING:  # a field of each value (a property of a pick-up order), not of this class

        @property
        def grid(self) -> Grid: ...

    def __len__(self) -> int:
        return len(self.cells)

    @overload
    def __getitem__(self, index: int) -> Cell: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Cell, ...]: ...
    def __getitem__(self, index: int | slice) -> Cell | tuple[Cell, ...]:
        return self.cells[index]

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.cells)

    def __contains__(self, cell: object) -> bool:
        return cell in self.cells

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        """The cells as a numpy array (a tour of millions of squares is checked in arrays)."""
        import numpy as np

        return np.asarray(self.cells, dtype=dtype)

    def __repr__(self) -> str:
        shown = " ".join(self.grid.name(c) for c in self.cells[:_REPR_CELLS])
        more = f" ... ({len(self.cells)} cells)" if len(self.cells) > _REPR_CELLS else ""
        return f"<{type(self).__name__} on {self.grid.rows}x{self.grid.cols}: {shown or 'no cells'}{more}>"


#: A value's repr names at most this many cells (a notebook prints the repr of a million-step
#: tour too).
_REPR_CELLS = 12


@dataclass(frozen=True, repr=False)
class Path(CellSequence):
    """Cells in the order walked; ``closed``: the walk returns from the last to the first."""

    grid: Grid
    cells: tuple[Cell, ...] = ()
    closed: bool = False

    def scene(self) -> Scene:
        return path_scene(self)


@dataclass(frozen=True, repr=False)
class CellPairs(Pictured):
    """Pairs of neighbouring cells, each ``(smaller, larger)``, sorted: equal sets compare equal."""

    grid: Grid
    pairs: tuple[tuple[Cell, Cell], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "pairs", tuple(sorted((min(a, b), max(a, b)) for a, b in self.pairs)))

    def __len__(self) -> int:
        return len(self.pairs)

    def __iter__(self) -> Iterator[tuple[Cell, Cell]]:
        return iter(self.pairs)

    def scene(self) -> Scene:
        return _pairs_scene(self)

    def __str__(self) -> str:
        return pairs_text(self)

    def __repr__(self) -> str:
        name = self.grid.name
        shown = " ".join(f"{name(a)}-{name(b)}" for a, b in self.pairs[:_REPR_CELLS])
        more = f" ... ({len(self.pairs)} pairs)" if len(self.pairs) > _REPR_CELLS else ""
        return f"<CellPairs on {self.grid.rows}x{self.grid.cols}: {shown or 'no pairs'}{more}>"


@dataclass(frozen=True, repr=False)
class Order(CellSequence):
    """Cells numbered in order: ``cells[0]`` is number 1."""

    grid: Grid
    cells: tuple[Cell, ...] = ()

    def scene(self) -> Scene:
        return _numbered(self.grid, self.cells)


# ---------------------------------------------------------------- reading JSON
def _names(grid: Grid, document: Json, what: str) -> list[Cell]:
    if not isinstance(document, list) or not all(isinstance(name, str) for name in document):
        raise BoardPuzzlesError(f'{what} is a list of square names like ["a1", "b3"]')
    return [grid.cell_written(name) for name in document]


def _path_from_json(grid: Grid, document: Json) -> Path:
    if not isinstance(document, dict) or set(document) - {"cells", "closed"} or "cells" not in document:
        raise BoardPuzzlesError('a path is {"cells": ["a1", ...], "closed": false}')
    closed = document.get("closed", False)
    if not isinstance(closed, bool):
        raise BoardPuzzlesError('a path\'s "closed" is true or false')
    return Path(grid, tuple(_names(grid, document["cells"], "a path")), closed)


def _pairs_from_json(grid: Grid, document: Json) -> CellPairs:
    if not isinstance(document, list) or not all(isinstance(pair, list) and len(pair) == 2 for pair in document):
        raise BoardPuzzlesError('cell pairs are a list of pairs of square names like [["a1", "a2"], ...]')
    answer = _side_by_side(
        CellPairs(grid, tuple((a, b) for a, b in (_names(grid, pair, "a pair") for pair in document)))
    )
    if len(set(answer.pairs)) != len(answer.pairs):
        raise BoardPuzzlesError("a pair appears twice")
    return answer


def _side_by_side(answer: CellPairs) -> CellPairs:
    """The answer, when the cells of each pair are side by side (else a one-line error)."""
    grid = answer.grid
    for a, b in answer.pairs:
        if b >= grid.size or abs(a // grid.cols - b // grid.cols) + abs(a % grid.cols - b % grid.cols) != 1:
            raise BoardPuzzlesError(f"the pair at {grid.name(a)} is not two squares side by side")
    return answer


def _order_from_json(grid: Grid, document: Json) -> Order:
    cells = _names(grid, document, "an order")
    if len(set(cells)) != len(cells):
        twice = next(cell for k, cell in enumerate(cells) if cell in cells[:k])
        raise BoardPuzzlesError(f"{grid.name(twice)} appears twice in an order")
    return Order(grid, tuple(cells))


# ---------------------------------------------------------------- text pictures
def _numbered(grid: Grid, cells: tuple[Cell, ...]) -> Scene:
    return Scene(grid, labels={cell: str(k + 1) for k, cell in enumerate(cells)})


def _read_numbers(text: str, what: str) -> tuple[Grid, tuple[Cell, ...]]:
    """A picture of numbered cells (``.`` for none): the grid and the cells by number."""
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    if not rows or any(len(row) != len(rows[0]) for row in rows):
        raise BoardPuzzlesError(f"{what} is rows of numbers and dots, all of one length")
    grid = Grid(len(rows), len(rows[0]))
    numbers: dict[int, Cell] = {}
    for cell, word in enumerate(word for row in rows for word in row):
        if word == ".":
            continue
        if not word.isdigit() or len(word) > 9:
            raise BoardPuzzlesError(f"unexpected {shorten(word)!r} in {what}: numbers and dots")
        if int(word) in numbers:
            raise BoardPuzzlesError(f"number {word} appears twice in {what}")
        numbers[int(word)] = cell
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        raise BoardPuzzlesError(f"the numbers of {what} run from 1 to {len(numbers)} without a gap")
    return grid, tuple(numbers[k] for k in range(1, len(numbers) + 1))


#: A cell's letter in the picture of a matching: its partner is right, left, below or above.
_ENDS = {1: "<", -1: ">", 2: "^", -2: "v"}


def pairs_text(answer: CellPairs) -> str:
    """A matching (each cell in at most one pair: dominoes) as one letter a cell: ``<`` and ``>``
    for a pair across, ``^`` over ``v`` for a pair down, ``.`` for a cell in no pair. Other sets
    (edges sharing cells) as ``o`` cells joined by ``-``, with rows between them showing ``|``
    under a pair down (``+`` between cells, so that no row is blank)."""
    grid, pairs = answer.grid, set(answer.pairs)
    letters = {cell: "." for cell in grid.cells()}
    for a, b in answer.pairs:
        if letters[a] != "." or letters[b] != ".":
            return _edges_text(grid, pairs)
        down = 2 if b - a == grid.cols else 1
        letters[a], letters[b] = _ENDS[down], _ENDS[-down]
    return "\n".join(" ".join(letters[r * grid.cols + c] for c in range(grid.cols)) for r in range(grid.rows))


def _edges_text(grid: Grid, pairs: set[tuple[Cell, Cell]]) -> str:
    lines = []
    for r in range(grid.rows):
        row = [r * grid.cols + c for c in range(grid.cols)]
        lines.append(
            "".join(
                "o" + ("-" if (cell + 1) % grid.cols and (cell, cell + 1) in pairs else " ") for cell in row
            ).rstrip()
        )
        if r + 1 < grid.rows:
            lines.append("+".join("|" if (cell, cell + grid.cols) in pairs else " " for cell in row).rstrip())
    return "\n".join(lines)


def read_pairs(text: str) -> CellPairs:
    """The cell pairs that :func:`pairs_text` drew."""
    lines = [line.rstrip() for line in text.strip("\n").split("\n")]
    if any(ch in line for line in lines for ch in "o-|+"):
        return _read_edges(lines)
    rows = [line.split() for line in lines]
    if not rows or not rows[0] or any(len(row) != len(rows[0]) for row in rows):
        raise BoardPuzzlesError("cell pairs are rows of < > ^ v and . of one length (or o joined by - and |)")
    grid, pairs = Grid(len(rows), len(rows[0])), []
    steps = {"<": 1, "^": len(rows[0])}
    for cell, letter in enumerate(letter for row in rows for letter in row):
        if letter not in "<>^v.":
            raise BoardPuzzlesError(f"unexpected {shorten(letter)!r} in cell pairs: < > ^ v and .")
        if letter in steps:
            pairs.append((cell, cell + steps[letter]))
    answer = _side_by_side(CellPairs(grid, tuple(pairs)))
    if pairs_text(answer).split() != [letter for row in rows for letter in row]:
        raise BoardPuzzlesError("cell pairs: each < needs a > to its right and each ^ a v below it")
    return answer


def _read_edges(lines: list[str]) -> CellPairs:
    cols = (len(lines[0]) + 1) // 2
    if len(lines) % 2 == 0 or not cols:
        raise BoardPuzzlesError("cell pairs are rows of o joined by - with rows of | and + between them")
    grid, pairs = Grid(len(lines) // 2 + 1, cols), []
    for i, line in enumerate(lines):
        cells, joins = ("o", "- ") if i % 2 == 0 else ("| ", "+")
        full = line.ljust(2 * cols - 1)
        if len(full) != 2 * cols - 1 or not set(full[::2]) <= set(cells) or not set(full[1::2]) <= set(joins):
            raise BoardPuzzlesError(f"line {i + 1} of the cell pairs does not fit a board {cols} wide")
        first, step, mark = i // 2 * cols, (1 if i % 2 == 0 else cols), ("-" if i % 2 == 0 else "|")
        marks = full[1::2] if i % 2 == 0 else full[::2]
        pairs += [(first + c, first + c + step) for c, ch in enumerate(marks) if ch == mark]
    return CellPairs(grid, tuple(pairs))


def _pairs_scene(answer: CellPairs) -> Scene:
    return Scene(answer.grid, spans=[(a, b, "#fffdf7") for a, b in answer.pairs], style="grid")


def path_scene(answer: Path, meaning: str = "step") -> Scene:
    """A path's picture: each cell numbered, the walk coloured from its first step to its last
    (closed: back to the start), its start ringed and, when open, its end squared; ``meaning``
    is what a number is called on hover (``c3: step 17``, or ``move 17`` for a knight)."""
    cells = list(answer.cells)
    walk = cells + cells[:1] if answer.closed and len(cells) > 2 else cells
    scene = _numbered(answer.grid, answer.cells)
    scene.path, scene.path_colours, scene.label_meaning = walk, "gradient", meaning
    if cells:
        scene.start, scene.end = cells[0], (None if answer.closed else cells[-1])
    return scene


def _read_path(text: str, closed: bool) -> Path:
    grid, cells = _read_numbers(text, "a path")
    return Path(grid, cells, closed)


def _read_order(text: str) -> Order:
    return Order(*_read_numbers(text, "an order"))


# ---------------------------------------------------------------- the types
def board_of(letters: str, torus: bool = False) -> AnswerType[Board]:
    """Boards holding pieces among ``letters`` (on a torus when ``torus``)."""
    return AnswerType(
        "board",
        pieces_to_json,
        lambda grid, document: pieces_from_json(grid, document, letters),
        lambda board: scene_text(Scene.of_board(board)),
        lambda text: parse_board(text, torus=torus, pieces=letters),
        Scene.of_board,
        lambda puzzle: _board_play(puzzle, letters),
    )


def path_of(closed: bool = False, steps: Sequence[Direction] | None = None) -> AnswerType[Path]:
    """Paths, open or closed (the picture cannot show which: a path read from it is ``closed``);
    ``steps``, when given, are the moves from a cell to the next (``KING_STEPS``), which the
    default play uses to refuse other clicks and to search (the checker still judges them)."""
    return AnswerType(
        "path",
        lambda p: {"cells": [p.grid.name(c) for c in p.cells], "closed": p.closed},
        _path_from_json,
        lambda p: scene_text(_numbered(p.grid, p.cells)),
        lambda text: _read_path(text, closed),
        path_scene,
        lambda puzzle: _path_play(puzzle, closed, steps),
    )


CELL_PAIRS: AnswerType[CellPairs] = AnswerType(
    "cell pairs",
    lambda answer: [[answer.grid.name(a), answer.grid.name(b)] for a, b in answer.pairs],
    _pairs_from_json,
    pairs_text,
    read_pairs,
    _pairs_scene,
    lambda puzzle: _pairs_play(puzzle),
)

ORDER: AnswerType[Order] = AnswerType(
    "order",
    lambda answer: [answer.grid.name(c) for c in answer.cells],
    _order_from_json,
    lambda answer: scene_text(_numbered(answer.grid, answer.cells)),
    _read_order,
    lambda answer: _numbered(answer.grid, answer.cells),
    lambda puzzle: _order_play(puzzle),
)


# ---------------------------------------------------------------- the default plays (loaded when asked for)
def _board_play(puzzle: Puzzle[Any, Any], letters: str) -> Play[Any, Any] | None:
    from boardpuzzles.plays.boards import board_play

    return board_play(puzzle, letters)


def _path_play(puzzle: Puzzle[Any, Any], closed: bool, steps: Sequence[Direction] | None) -> Play[Any, Any] | None:
    from boardpuzzles.plays.paths import path_play

    return path_play(puzzle, closed, steps)


def _order_play(puzzle: Puzzle[Any, Any]) -> Play[Any, Any] | None:
    from boardpuzzles.plays.paths import order_play

    return order_play(puzzle)


def _pairs_play(puzzle: Puzzle[Any, Any]) -> Play[Any, Any] | None:
    from boardpuzzles.plays.pairs import pairs_play

    return pairs_play(puzzle)


def pieces_to_json(board: Any) -> dict[str, list[str]]:
    """A board of pieces as JSON: each letter's squares by name, ``{"Q": ["a1", ...]}``."""
    found: dict[str, list[str]] = {}
    for cell in board.occupied():
        found.setdefault(board[cell], []).append(board.grid.name(cell))
    return found


def pieces_from_json(grid: Any, document: Json, letters: str) -> Board:
    """The board that :func:`pieces_to_json` wrote, on ``grid``, with pieces among ``letters``."""
    if not isinstance(document, dict):
        raise BoardPuzzlesError(f'an answer is {{"{letters[0]}": ["a1", ...]}}')
    board = Board(grid)
    for letter, names in document.items():
        if not isinstance(letter, str) or letter not in letters or not isinstance(names, list):
            raise BoardPuzzlesError(
                f"unexpected {shorten(str(letter))!r} in an answer: pieces are {', '.join(letters)}"
            )
        for cell in _names(grid, names, f"an answer's {letter}"):
            if board[cell] != EMPTY:  # a square named twice would pass as one piece
                raise BoardPuzzlesError(f"square {grid.name(cell)} appears twice in an answer")
            board[cell] = letter
    return board
