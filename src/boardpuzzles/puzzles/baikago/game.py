"""The game: a position with make/unmake, legal moves, incremental win detection, and records.

Only the crosses through the last stone are examined after a move (``CrossTable.through``): each
keeps a count of black and of white stones, a cross whose count reaches 5 wins, and a cross that
holds both colours is dead for good. When every cross is dead nobody can win any more: the game
is drawn early, before the board fills.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import BoardPuzzlesError, ParseError, excerpt, whole_number
from boardpuzzles.grid import Cell, Grid
from boardpuzzles.puzzles.baikago.rules import (
    BLACK,
    COLOUR_NAMES,
    EMPTY_POINT,
    STONE_LETTERS,
    WHITE,
    Colour,
    Cross,
    Rules,
    other,
)

Move = Cell  #: a move is the point the stone goes on


class IllegalMoveError(BoardPuzzlesError):
    """A move onto an occupied point, off the board, or after the game has ended."""


class InconsistentPositionError(BoardPuzzlesError):
    """Stones that alternate play from an empty board (black first) cannot produce."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` None for a draw; ``reason`` one of ``cross``, ``full board``,
    ``no cross left`` (every cross holds both colours) or ``resigned``."""

    winner: Colour | None
    reason: str
    crosses: tuple[Cross, ...] = ()

    def result(self) -> str:
        """``1-0`` (black won), ``0-1`` (white won) or ``1/2-1/2``."""
        return {BLACK: "1-0", WHITE: "0-1", None: "1/2-1/2"}[self.winner]

    def describe(self, grid: Grid) -> str:
        if self.winner is None:
            return (
                "draw: the board is full"
                if self.reason == "full board"
                else "draw: every cross already holds both colours, nobody can win"
            )
        name = COLOUR_NAMES[self.winner].capitalize()
        if self.reason == "resigned":
            return f"{name} wins: {COLOUR_NAMES[other(self.winner)]} resigned"
        return f"{name} wins: " + "; ".join(c.describe(grid) for c in self.crosses)


class Position:
    """A Baikago position. ``make(move)`` plays a stone for the side to move, ``unmake()`` takes
    the last one back (python-chess style: a move stack, nothing copied)."""

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()
        self.grid = self.rules.grid
        self.table = self.rules.table
        self._through = self.table.through_lists
        self._points = [c.points for c in self.table.crosses]
        self.board: list[int] = [EMPTY_POINT] * self.grid.size
        # counts[colour][k]: stones of that colour on cross k (index 0 unused).
        self.counts: list[list[int]] = [[], [0] * len(self.table), [0] * len(self.table)]
        self.dead = 0  # crosses holding both colours
        self.stones = 0
        self.turn: Colour = BLACK
        self.move_stack: list[Move] = []
        self._setup: list[Move] = []  # stones placed by from_board, not undoable
        self._wins: list[tuple[int, ...]] = [()]  # per ply: crosses the last stone completed

    # ---------------------------------------------------------------- set-up
    @classmethod
    def from_board(cls, cells: Iterable[int], rules: Rules | None = None) -> Position:
        """A position from point colours (row-major, row 0 the top). The side to move follows
        from the counts (black moves first); a position alternate play cannot reach raises
        :class:`InconsistentPositionError`."""
        position = cls(rules)
        cells = list(cells)
        if len(cells) != position.grid.size:
            raise BoardPuzzlesError(f"{len(cells)} points given for a {position.grid.describe()} board")
        black = sum(1 for c in cells if c == BLACK)
        white = sum(1 for c in cells if c == WHITE)
        if black - white not in (0, 1):
            raise InconsistentPositionError(
                f"{black} black and {white} white stones: with black moving first, black has as many "
                f"stones as white or one more"
            )
        completed: dict[Colour, list[int]] = {BLACK: [], WHITE: []}
        for point, colour in enumerate(cells):
            if colour in (BLACK, WHITE):
                completed[colour].extend(position._put(point, colour))
                position._setup.append(point)
            elif colour != EMPTY_POINT:
                raise BoardPuzzlesError(f"point {point} holds {colour!r}, not 0, 1 or 2")
        position.turn = BLACK if black == white else WHITE
        winners = [c for c in (BLACK, WHITE) if completed[c]]
        if len(winners) == 2:
            raise InconsistentPositionError("both colours have a cross: the game ends at the first one")
        if winners:
            (winner,) = winners
            if position.turn == winner:
                raise InconsistentPositionError(
                    f"{COLOUR_NAMES[winner]} has a cross but {COLOUR_NAMES[winner]} is to move: "
                    f"the winning stone must have been the last one played"
                )
            position._wins[0] = tuple(sorted(set(completed[winner])))
        return position

    # ---------------------------------------------------------------- make / unmake
    def _put(self, point: Cell, colour: Colour) -> list[int]:
        """Place a stone, update the counts of the crosses through it; the crosses it completes."""
        self.board[point] = colour
        self.stones += 1
        mine, theirs = self.counts[colour], self.counts[other(colour)]
        completed = []
        for k in self._through[point]:
            mine[k] += 1
            if mine[k] == 1 and theirs[k]:
                self.dead += 1
            elif mine[k] == 5:
                completed.append(k)
        return completed

    def _take(self, point: Cell) -> None:
        colour = self.board[point]
        mine, theirs = self.counts[colour], self.counts[other(colour)]
        for k in self._through[point]:
            if mine[k] == 1 and theirs[k]:
                self.dead -= 1
            mine[k] -= 1
        self.board[point] = EMPTY_POINT
        self.stones -= 1

    def make(self, move: Move) -> None:
        """Play a stone for the side to move (an :class:`IllegalMoveError` if it cannot go there)."""
        try:
            move = operator.index(move)  # numpy integers too; not floats or strings
        except TypeError:
            raise IllegalMoveError(f"{move!r} is not a point of the {self.grid.describe()} board") from None
        if isinstance(move, bool) or not 0 <= move < self.grid.size:
            raise IllegalMoveError(f"{move!r} is not a point of the {self.grid.describe()} board")
        if self.board[move] != EMPTY_POINT:
            raise IllegalMoveError(f"{self.grid.name(move)} is already taken")
        if self.is_game_over():
            raise IllegalMoveError("the game is over")
        self._wins.append(tuple(self._put(move, self.turn)))
        self.move_stack.append(move)
        self.turn = other(self.turn)

    def unmake(self) -> Move:
        """Take back the last move and return it."""
        if not self.move_stack:
            raise IllegalMoveError("no move to take back")
        move = self.move_stack.pop()
        self._wins.pop()
        self._take(move)
        self.turn = other(self.turn)
        return move

    def make_named(self, name: str) -> Move:
        move = self.parse_move(name)
        self.make(move)
        return move

    def parse_move(self, name: str) -> Move:
        """``h8``: column letter from the left, row number from the bottom."""
        try:
            return self.grid.cell_named(name)
        except BoardPuzzlesError as err:
            raise IllegalMoveError(str(err)) from None

    # ---------------------------------------------------------------- questions
    @property
    def last_move(self) -> Move | None:
        return self.move_stack[-1] if self.move_stack else None

    def legal_moves(self) -> Iterator[Move]:
        """The empty points, lazily (none once the game is over)."""
        if self.is_game_over():
            return
        for point, colour in enumerate(self.board):
            if colour == EMPTY_POINT:
                yield point

    def is_legal(self, move: Move) -> bool:
        return 0 <= move < self.grid.size and self.board[move] == EMPTY_POINT and not self.is_game_over()

    def winning_crosses(self) -> tuple[Cross, ...]:
        """The crosses the last stone completed (only those through it were looked at)."""
        return tuple(self.table.crosses[k] for k in self._wins[-1])

    def outcome(self) -> Outcome | None:
        """None while the game goes on."""
        if self._wins[-1]:
            return Outcome(other(self.turn), "cross", self.winning_crosses())
        if self.stones == self.grid.size:
            return Outcome(None, "full board")
        if self.dead == len(self.table):
            return Outcome(None, "no cross left")
        return None

    def is_game_over(self) -> bool:
        return bool(self._wins[-1]) or self.stones == self.grid.size or self.dead == len(self.table)

    def array(self) -> np.ndarray:
        """The points as an int8 array (0 empty, 1 black, 2 white), for the kernels."""
        return np.array(self.board, dtype=np.int8)

    def rows(self) -> list[str]:
        """Row strings, top row first: ``X`` black, ``O`` white, ``.`` empty."""
        letters = {EMPTY_POINT: ".", **STONE_LETTERS}
        n = self.grid.cols
        return ["".join(letters[p] for p in self.board[r * n : (r + 1) * n]) for r in range(self.grid.rows)]

    def copy(self) -> Position:
        """An independent position with the same set-up stones and move stack."""
        clone = Position.from_board(self._setup_cells(), self.rules)
        for move in self.move_stack:
            clone.make(move)
        return clone

    def _setup_cells(self) -> list[int]:
        cells = [EMPTY_POINT] * self.grid.size
        for point in self._setup:  # moves never go on set-up points, so the board still shows them
            cells[point] = self.board[point]
        return cells

    def __str__(self) -> str:
        return "\n".join(" ".join(row) for row in self.rows())

    def __repr__(self) -> str:
        moves = " ".join(self.grid.name(m) for m in self.move_stack)
        return f"<Position {self.rules.describe()}, {COLOUR_NAMES[self.turn]} to move, moves: {moves or '-'}>"

    def _repr_svg_(self) -> str:
        """Jupyter shows a position as a go board: the last stone ringed, a winning cross drawn."""
        from boardpuzzles.render.baikago import position_scene
        from boardpuzzles.render.svg import sheet_svg

        outcome = self.outcome()
        crosses = [cross.points for cross in outcome.crosses] if outcome else []
        title = outcome.describe(self.grid) if outcome else f"{COLOUR_NAMES[self.turn]} to move"
        return sheet_svg([position_scene(self.board, self.grid.rows, crosses, self.last_move, title)])


# -------------------------------------------------------------------- game records
@dataclass
class Record:
    """A game record: the rules, the moves (names), who played, and the result if it ended.

    Text form (PGN-like)::

        [Game "Baikago"]
        [Size "15"]
        [MaxD "-"]
        [Orientations "+x"]
        [Black "human"]
        [White "computer"]
        [Result "1-0"]

        1. h8 i9 2. g7 ...
    """

    rules: Rules
    moves: list[str] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, position: Position, **tags: str) -> Record:
        if position._setup:
            raise BoardPuzzlesError("a position set up from a board has no complete game record")
        return cls(position.rules, [position.grid.name(m) for m in position.move_stack], dict(tags))

    def to_text(self) -> str:
        tags = {
            "Game": "Baikago",
            "Size": str(self.rules.size),
            "MaxD": "-" if self.rules.max_d is None else str(self.rules.max_d),
            "Orientations": self.rules.orientations,
            **self.tags,
        }
        head = "\n".join(f'[{key} "{value}"]' for key, value in tags.items())
        pairs = []
        for i in range(0, len(self.moves), 2):
            pairs.append(f"{i // 2 + 1}. " + " ".join(self.moves[i : i + 2]))
        body = "\n".join(" ".join(pairs[i : i + 8]) for i in range(0, len(pairs), 8))
        return f"{head}\n\n{body}\n"

    @classmethod
    def parse(cls, text: str) -> Record:
        tags: dict[str, str] = {}
        moves: list[str] = []
        text = text.removeprefix("\ufeff")  # a byte-order mark that an editor put at the start
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            tag = re.fullmatch(r'\[(\w+)\s+"([^"]*)"\]', line)
            if tag:
                tags[tag.group(1)] = tag.group(2)
                continue
            if line.startswith("["):
                raise ParseError(f'line {number}: a tag looks like [Name "value"]')
            for word in line.split():
                if re.fullmatch(r"[0-9]+\.", word) or word in ("1-0", "0-1", "1/2-1/2", "*"):
                    continue
                if not re.fullmatch(r"[a-zA-Z]{1,2}[0-9]{1,2}", word):
                    raise ParseError(f"line {number}: {excerpt(word)} is not a move like h8")
                moves.append(word.lower())
        if tags.get("Game", "Baikago") != "Baikago":
            raise ParseError(f"not a Baikago record (Game {excerpt(tags['Game'])})")
        size = whole_number(tags.get("Size", "15").strip(), "the Size tag")
        max_d_text = tags.get("MaxD", "-").strip()
        max_d = None if max_d_text in ("-", "") else whole_number(max_d_text, "the MaxD tag")
        orientations = tags.get("Orientations", "+x")
        if len(orientations) > 2:  # Rules names a bad value whole: a long one is cut here
            raise ParseError(f"the Orientations tag is {excerpt(orientations)}: '+x', '+' or 'x'")
        rules = Rules(size, max_d, orientations)
        rest = {k: v for k, v in tags.items() if k not in ("Game", "Size", "MaxD", "Orientations")}
        return cls(rules, moves, rest)

    def replay(self) -> Position:
        """The position after the recorded moves (an error names the first illegal one)."""
        position = Position(self.rules)
        for i, name in enumerate(self.moves):
            try:
                position.make_named(name)
            except IllegalMoveError as err:
                raise ParseError(f"move {i + 1} ({name}): {err}") from None
        return position
