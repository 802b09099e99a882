"""The Gomocup (Piskvork) engine protocol, so tournament managers can run our computer player.

One command per line on stdin, answers on stdout. Coordinates are ``x,y``: x the column from
the left, y the row from the top, both from 0. Stones are the brain's own (1) and the
opponent's (2); Baikago's rules do not depend on who is black, only on whose turn it is, so the
brain is always the side to move when it is asked for a move.

START n, RECTSTART w,h (square only), RESTART, BEGIN, TURN x,y, BOARD ... DONE, TAKEBACK x,y,
INFO key value (timeout_turn and time_left set the thinking time), ABOUT, END. Anything else
gets ``UNKNOWN``; a bad argument gets ``ERROR ...``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.puzzles.baikago.ai import STRENGTHS, ComputerPlayer
from boardpuzzles.puzzles.baikago.rules import MAX_SIZE, Rules

OWN, OPPONENT = 1, 2
ABOUT = (
    'name="boardpuzzles-baikago", version="0.1", author="boardpuzzles", country="JP", '
    'www="https://github.com/", game="Baikago: five stones in a + or x cross"'
)


class Brain:
    """The protocol's state machine: ``handle(line)`` returns the lines to answer (maybe none)."""

    def __init__(self, strength: int = 3, max_d: int | None = None, orientations: str = "+x") -> None:
        self.strength = strength
        self.max_d = max_d
        self.orientations = orientations
        self.rules: Rules | None = None
        self.player: ComputerPlayer | None = None
        self.board: list[int] = []
        self.seconds = STRENGTHS[strength].seconds
        self.in_board = False
        self.finished = False

    def handle(self, line: str) -> list[str]:
        words = line.strip().split(maxsplit=1)
        if not words:
            return []
        command, rest = words[0].upper(), (words[1] if len(words) > 1 else "")
        if self.in_board:
            if command == "DONE":
                self.in_board = False
                return [self._move()]
            try:
                x, y, who = (int(v) for v in line.split(","))
            except ValueError:
                return [f"ERROR expected x,y,field or DONE, got {line.strip()!r}"]
            point = self._point(x, y)
            if point is None or who not in (1, 2, 3):
                return [f"ERROR bad BOARD line {line.strip()!r}"]
            self.board[point] = OWN if who == 1 else OPPONENT
            return []
        handler = getattr(self, f"_on_{command.lower()}", None)
        if handler is None:
            return [f"UNKNOWN command {command}"]
        if command not in ("START", "RECTSTART", "ABOUT", "END", "INFO") and self.rules is None:
            return ["ERROR no game: send START first"]
        return handler(rest)

    # ---------------------------------------------------------------- commands
    def _on_start(self, rest: str) -> list[str]:
        try:
            size = int(rest)
        except ValueError:
            return [f"ERROR START needs a board size, got {rest!r}"]
        if not 3 <= size <= MAX_SIZE:
            return [f"ERROR unsupported size {size}: 3 to {MAX_SIZE}"]
        self.rules = Rules(size, self.max_d, self.orientations)
        self.player = ComputerPlayer(self.rules, self.strength, seconds=self.seconds)
        self.board = [0] * size * size
        return ["OK"]

    def _on_rectstart(self, rest: str) -> list[str]:
        try:
            width, height = (int(v) for v in rest.split(","))
        except ValueError:
            return [f"ERROR RECTSTART needs width,height, got {rest!r}"]
        if width != height:
            return ["ERROR only square boards are supported"]
        return self._on_start(str(width))

    def _on_restart(self, rest: str) -> list[str]:
        self.board = [0] * len(self.board)
        return ["OK"]

    def _on_begin(self, rest: str) -> list[str]:
        return [self._move()]

    def _on_turn(self, rest: str) -> list[str]:
        point = self._parse_point(rest)
        if point is None or self.board[point]:
            return [f"ERROR bad or taken point {rest!r}"]
        self.board[point] = OPPONENT
        return [self._move()]

    def _on_board(self, rest: str) -> list[str]:
        self.board = [0] * len(self.board)
        self.in_board = True
        return []

    def _on_takeback(self, rest: str) -> list[str]:
        point = self._parse_point(rest)
        if point is None or not self.board[point]:
            return [f"ERROR nothing to take back at {rest!r}"]
        self.board[point] = 0
        return ["OK"]

    def _on_info(self, rest: str) -> list[str]:
        key, _, value = rest.partition(" ")
        if key in ("timeout_turn", "time_left"):
            try:
                ms = int(value)
            except ValueError:
                return []
            if ms > 0:
                # Leave a margin: the manager counts its own overhead.
                budget = ms / 1000 * (0.5 if key == "timeout_turn" else 0.05)
                self.seconds = max(0.05, min(STRENGTHS[self.strength].seconds * 3, budget))
                if self.player is not None:
                    self.player.seconds = self.seconds
        return []

    def _on_about(self, rest: str) -> list[str]:
        return [ABOUT]

    def _on_end(self, rest: str) -> list[str]:
        self.finished = True
        return []

    # ---------------------------------------------------------------- helpers
    def _parse_point(self, text: str) -> int | None:
        try:
            x, y = (int(v) for v in text.split(","))
        except ValueError:
            return None
        return self._point(x, y)

    def _point(self, x: int, y: int) -> int | None:
        n = self.rules.size if self.rules else 0
        return y * n + x if 0 <= x < n and 0 <= y < n else None

    def _move(self) -> str:
        if 0 not in self.board:
            return "ERROR the board is full"
        try:
            choice = self.player.choose(self.board, OWN)
        except BoardPuzzlesError as err:
            return f"ERROR {err}"
        self.board[choice.move] = OWN
        y, x = divmod(choice.move, self.rules.size)
        return f"{x},{y}"


def serve(lines: Iterable[str], write: Callable[[str], None], brain: Brain | None = None) -> None:
    """Answer protocol lines until END or the end of input."""
    brain = brain or Brain()
    for line in lines:
        for answer in brain.handle(line):
            write(answer)
        if brain.finished:
            break
