"""A board: a grid plus what stands on each cell, and its text pictures.

Glossary
--------
piece
    One character on a cell: a letter (``Q`` queen, ``X`` black stone, ``O`` white stone, ...).
empty
    ``.`` in pictures we write; ``.`` or a space in pictures we read.
text picture
    One line per row, top row first. Three spellings are read:

    * plain rows: ``Q......`` (one character per cell);
    * spaced rows: ``Q . . .`` (cells separated by single spaces, as the seed articles print);
    * quoted rows: ``"  O  O "`` (the seed files: quotes make the row width visible, and every
      character between them, spaces included, is a cell).

    Blank lines before and after are ignored; short rows are padded with empty cells unless the
    reader is told to refuse them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from boardpuzzles.errors import ParseError, SizeError
from boardpuzzles.grid import Cell, Grid

EMPTY = "."
_EMPTY_READ = {".", " "}
#: The most cells a text picture may spell (1024 x 1024): short rows are padded, so a few long
#: lines among many short ones would otherwise make a small file a huge board.
MAX_CELLS = 1 << 20


class Board:
    """A grid and one character per cell (``EMPTY`` or a piece letter)."""

    __slots__ = ("grid", "_cells")

    def __init__(self, grid: Grid, cells: Iterable[str] | None = None) -> None:
        self.grid = grid
        self._cells = list(cells) if cells is not None else [EMPTY] * grid.size
        if len(self._cells) != grid.size:
            raise ValueError(f"{len(self._cells)} cells given for a {grid.describe()} board")

    @classmethod
    def with_pieces(cls, grid: Grid, pieces: dict[Cell, str]) -> Board:
        board = cls(grid)
        for cell, piece in pieces.items():
            board[cell] = piece
        return board

    def __getitem__(self, where: Cell | tuple[int, int]) -> str:
        return self._cells[self._cell(where)]

    def __setitem__(self, where: Cell | tuple[int, int], piece: str) -> None:
        if len(piece) != 1:
            raise ValueError(f"a piece is one character, got {piece!r}")
        self._cells[self._cell(where)] = piece

    def _cell(self, where: Cell | tuple[int, int]) -> Cell:
        if isinstance(where, tuple):
            return self.grid.index(*where)
        if not 0 <= where < self.grid.size:
            raise IndexError(f"cell {where} is off the {self.grid.describe()} board")
        return where

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.grid == other.grid and self._cells == other._cells

    def __hash__(self) -> int:
        return hash((self.grid.rows, self.grid.cols, self.grid.torus, tuple(self._cells)))

    def __iter__(self) -> Iterator[str]:
        return iter(self._cells)

    def copy(self) -> Board:
        return Board(self.grid, self._cells)

    def cells_with(self, piece: str) -> list[Cell]:
        """The cells holding ``piece``, in index order."""
        return [i for i, p in enumerate(self._cells) if p == piece]

    def occupied(self) -> list[Cell]:
        return [i for i, p in enumerate(self._cells) if p != EMPTY]

    def rows(self) -> list[str]:
        """The board as row strings, top row first (the JSON form of a board)."""
        c = self.grid.cols
        return ["".join(self._cells[r * c : (r + 1) * c]) for r in range(self.grid.rows)]

    def to_text(self, spaced: bool = False) -> str:
        """The text picture: plain rows, or spaced rows (``Q . .``) as the seed articles print."""
        sep = " " if spaced else ""
        return "\n".join(sep.join(row) for row in self.rows())

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Board({self.grid!r}, {self.rows()!r})"

    def _repr_svg_(self) -> str:  # Jupyter shows boards as pictures
        from boardpuzzles.render.svg import board_svg

        return board_svg(self)


def parse_board(
    text: str,
    *,
    torus: bool = False,
    spaced: bool | None = None,
    pad: bool = True,
    pieces: str | None = None,
) -> Board:
    """Read a text picture (see the module glossary).

    ``spaced=None`` detects the spaced spelling: every row has a space at each odd position and
    a non-space at each even one. Pass ``spaced=False`` where gaps are meaningful (a row such as
    ``O O O`` is then five cells). ``pieces`` limits the accepted letters (for example ``"XO"``).
    ``pad=False`` refuses rows of unequal width instead of padding them.
    """
    rows, quoted = _picture_rows(text)
    if not quoted and spaced is None:
        spaced = _looks_spaced([row for _, row in rows])
    if spaced and not quoted:
        rows = [(number, row[::2]) for number, row in rows]

    width = max(len(row) for _, row in rows)
    if width == 0:
        raise ParseError("the picture is empty: every row is blank")
    grid = Grid(len(rows), width, torus)  # refuses a size beyond MAX_SIDE before any cell is stored
    if len(rows) * width > MAX_CELLS:
        raise SizeError(
            f"the picture is {len(rows)}x{width} ({len(rows) * width:,} cells); "
            f"a picture holds at most {MAX_CELLS:,} cells (short rows count as padded)"
        )
    return Board(grid, _read_cells(rows, width, pad, pieces))


def _picture_rows(text: str) -> tuple[list[tuple[int, str]], bool]:
    """The rows of a picture from its first filled line to its last, each with its line number
    (from 1), the quotes taken off quoted rows; and whether the rows were quoted."""
    text = text.removeprefix("\ufeff")  # a byte-order mark that an editor put at the start
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    filled = [i for i, line in enumerate(lines) if line.strip()]
    if not filled:
        raise ParseError("the picture is empty: no rows")
    first, last = filled[0], filled[-1]
    Grid(last - first + 1, 1)  # too many rows: refused before anything is built per row
    numbered = [(i + 1, lines[i]) for i in range(first, last + 1)]

    quoted = all(line.strip().startswith('"') for _, line in numbered if line.strip())
    rows: list[tuple[int, str]] = []
    for number, line in numbered:
        if quoted:
            body = line.strip()
            if len(body) < 2 or not body.endswith('"'):
                raise ParseError(f"line {number}: a quoted row must end with '\"'")
            rows.append((number, body[1:-1]))
        else:
            rows.append((number, line.rstrip()))
    return rows, quoted


def _read_cells(rows: list[tuple[int, str]], width: int, pad: bool, pieces: str | None) -> list[str]:
    """The piece (or ``EMPTY``) on each cell, row by row, short rows padded to ``width``."""
    cells: list[str] = []
    for number, row in rows:
        if len(row) != width and not pad:
            raise ParseError(f"line {number}: {len(row)} cells where the first widest row has {width}")
        for column, ch in enumerate(row.ljust(width)):
            if ch in _EMPTY_READ:
                cells.append(EMPTY)
            elif ch.isalpha() and (pieces is None or ch in pieces):
                cells.append(ch)
            else:
                allowed = "a letter" if pieces is None else f"one of {pieces!r}" if len(pieces) > 1 else repr(pieces)
                raise ParseError(
                    f"line {number}, column {column + 1}: unexpected {ch!r} (expected {allowed}, '.' or space)"
                )
    return cells


def _looks_spaced(rows: list[str]) -> bool:
    if not any(len(row) >= 3 for row in rows):
        return False
    for row in rows:
        if any(ch != " " for ch in row[1::2]) or any(ch == " " for ch in row[::2]):
            return False
    return True
