"""The Gomocup (Piskvork) engine protocol, so tournament managers can run our computer player.

One command per line on stdin, answers on stdout. Coordinates are ``x,y``: x the column from
the left, y the row from the top, both from 0. Stones are the brain's own (1) and the
opponent's (2); Baikago's rules do not depend on who is black, only on whose turn it is, so the
brain is always the side to move when it is asked for a move.

START n, RECTSTART w,h (square only), RESTART, BEGIN, TURN x,y, BOARD ... DONE, TAKEBACK x,y,
INFO key value (timeout_turn and time_left set the thinking time), ABOUT, END. Anything else
gets ``UNKNOWN``; a bad argument, or a command that makes no sense in the present state (BEGIN
on a board that has stones, a move on a taken point, a point twice in one BOARD block, a move
asked for when a cross has already won), gets ``ERROR ...`` and leaves the position as it was
(a spoiled BOARD block leaves an empty board). A brain that crashes loses its game, so
:func:`serve` answers even an internal failure with ``ERROR``.

Input is read in bounded pieces (:func:`read_lines`): a line longer than ``MAX_LINE`` bytes is
skipped to its end unread and answered ``ERROR line too long``, and no answer quotes more than
``SHOWN`` characters of what it was sent. The kernels are loaded at START, so the first move's
clock holds only thinking; a move takes at most about half of ``timeout_turn`` (and a twentieth
of ``time_left``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO

from boardpuzzles import __version__
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.puzzles.baikago.ai import MIN_SECONDS, STRENGTHS, ComputerPlayer, warm_up
from boardpuzzles.puzzles.baikago.rules import MAX_SIZE, Rules

OWN, OPPONENT = 1, 2
ABOUT = (
    f'name="boardpuzzles-baikago", version="{__version__}", author="boardpuzzles", country="JP", '
    'game="Baikago: five stones in a + or x cross"'
)
#: Whole numbers as the protocol writes them: ASCII digits only (``int`` would also take "١" or
#: "1_0"), and few of them, so a huge number is just a bad argument.
NUMBER = r"\s*(\d{1,9})\s*"
POINT = re.compile(f"{NUMBER},{NUMBER}", re.ASCII)
BOARD_LINE = re.compile(f"{NUMBER},{NUMBER},{NUMBER}", re.ASCII)
#: The longest line read (bytes, end of line included): protocol lines are short; an INFO folder
#: path is the longest a manager sends.
MAX_LINE = 8192
#: At most this many characters of a bad line are quoted back.
SHOWN = 40
#: Seconds kept back from ``timeout_turn`` for reading, answering and the manager's own clock.
TURN_MARGIN = 0.015


def show(text: str) -> str:
    """``text`` quoted for an answer, cut to ``SHOWN`` characters."""
    text = text.strip()
    return repr(text) if len(text) <= SHOWN else repr(text[:SHOWN]) + f"... ({len(text):,} characters)"


def read_lines(stream: BinaryIO, limit: int = MAX_LINE) -> Iterator[str | None]:
    """The lines of a byte stream, decoded (bad UTF-8 replaced); ``None`` for a line longer than
    ``limit`` bytes, whose rest is read and dropped ``limit`` bytes at a time (so memory stays
    bounded whatever comes)."""
    while True:
        line = stream.readline(limit)
        if not line:
            return
        if len(line) < limit or line.endswith(b"\n"):
            yield line.decode("utf-8", errors="replace")
            continue
        while line and not line.endswith(b"\n"):
            line = stream.readline(limit)
        yield None


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
        self.timeout_turn: float | None = None  # seconds, from INFO
        self.time_left: float | None = None
        self.in_board = False
        self.board_error = ""  # why the BOARD block being read cannot be used ("" while it can)
        self.finished = False

    @property
    def started_rules(self) -> Rules:
        """The rules of the game in play (the handlers that read them run only after START)."""
        if self.rules is None:
            raise BoardPuzzlesError("no game: START comes first")
        return self.rules

    @property
    def started_player(self) -> ComputerPlayer:
        if self.player is None:
            raise BoardPuzzlesError("no game: START comes first")
        return self.player

    def too_long(self) -> list[str]:
        """The answer to a line over ``MAX_LINE`` bytes (inside a BOARD block it spoils the block)."""
        if self.in_board:
            self.board_error = "a line too long"
        return [f"ERROR line too long (over {MAX_LINE} bytes): ignored"]

    def handle(self, line: str) -> list[str]:
        words = line.strip().split(maxsplit=1)
        if not words:
            return []
        command, rest = words[0].upper(), (words[1] if len(words) > 1 else "")
        if self.in_board:
            return self._board_line(command, line.strip())
        handler = getattr(self, f"_on_{command.lower()}", None)
        if handler is None:
            return [f"UNKNOWN command {command if len(command) <= SHOWN else command[:SHOWN] + '...'}"]
        if command not in ("START", "RECTSTART", "ABOUT", "END", "INFO") and self.rules is None:
            return ["ERROR no game: send START first"]
        answer: list[str] = handler(rest)
        return answer

    def _board_line(self, command: str, line: str) -> list[str]:
        """One line inside BOARD ... DONE. A bad line spoils the block: DONE then answers ERROR
        rather than a move for a position the manager did not mean."""
        if command == "DONE":
            self.in_board = False
            if self.board_error:
                self.board = [0] * len(self.board)
                return [f"ERROR the BOARD block was not used ({self.board_error}); send it again"]
            return [self._move()]
        match = BOARD_LINE.fullmatch(line)
        if match is None:
            self.board_error = f"bad line {show(line)}"
            return [f"ERROR expected x,y,field or DONE, got {show(line)}"]
        x, y, who = (int(v) for v in match.groups())
        point = self._point(x, y)
        if point is None or who not in (1, 2, 3):
            self.board_error = f"bad line {show(line)}"
            return [
                f"ERROR bad BOARD line {show(line)}: x and y from 0 to {self.started_rules.size - 1}, field 1, 2 or 3"
            ]
        if self.board[point]:
            self.board_error = f"{x},{y} given twice"
            return [f"ERROR {x},{y} is given twice in one BOARD block"]
        self.board[point] = OWN if who == 1 else OPPONENT
        return []

    # ---------------------------------------------------------------- commands
    def _on_start(self, rest: str) -> list[str]:
        match = re.fullmatch(NUMBER, rest, re.ASCII)
        if match is None:
            return [f"ERROR START needs a board size, got {show(rest)}"]
        size = int(match.group(1))
        if not 3 <= size <= MAX_SIZE:
            return [f"ERROR unsupported size {size}: 3 to {MAX_SIZE}"]
        try:
            rules = Rules(size, self.max_d, self.orientations)
        except BoardPuzzlesError as err:
            return [f"ERROR {err}"]
        warm_up()  # load the kernels now, not on the first move's clock
        self.rules = rules
        self.player = ComputerPlayer(self.rules, self.strength, seconds=self.seconds)
        self.board = [0] * size * size
        return ["OK"]

    def _on_rectstart(self, rest: str) -> list[str]:
        match = POINT.fullmatch(rest)
        if match is None:
            return [f"ERROR RECTSTART needs width,height, got {show(rest)}"]
        width, height = (int(v) for v in match.groups())
        if width != height:
            return ["ERROR only square boards are supported"]
        return self._on_start(str(width))

    def _on_restart(self, rest: str) -> list[str]:
        self.board = [0] * len(self.board)
        return ["OK"]

    def _on_begin(self, rest: str) -> list[str]:
        # BEGIN opens a game: on a board with stones it is a manager's mistake, not a request
        # for one more move.
        if any(self.board):
            return ["ERROR BEGIN is for an empty board: send RESTART (or BOARD) first"]
        return [self._move()]

    def _on_turn(self, rest: str) -> list[str]:
        point = self._parse_point(rest)
        if point is None:
            return [f"ERROR TURN needs x,y from 0 to {self.started_rules.size - 1}, got {show(rest)}"]
        if self.board[point]:
            return [f"ERROR {rest.strip()} is already taken"]
        won = self._winner()
        if won:
            return [f"ERROR the game is over: {won}"]
        self.board[point] = OPPONENT
        return [self._move()]

    def _on_board(self, rest: str) -> list[str]:
        self.board = [0] * len(self.board)
        self.in_board = True
        self.board_error = ""
        return []

    def _on_takeback(self, rest: str) -> list[str]:
        point = self._parse_point(rest)
        if point is None or not self.board[point]:
            return [f"ERROR nothing to take back at {show(rest)}"]
        self.board[point] = 0
        return ["OK"]

    def _on_info(self, rest: str) -> list[str]:
        key, _, value = rest.partition(" ")
        if key in ("timeout_turn", "time_left"):
            digits = value.strip()
            if not re.fullmatch(r"[0-9]{1,12}", digits.lstrip("0") or "0"):
                return []  # not a count of milliseconds we can use (or longer than 31 years)
            ms = int(digits.lstrip("0") or "0")
            if key == "timeout_turn":
                self.timeout_turn = ms / 1000  # 0: as fast as possible
            else:
                self.time_left = ms / 1000
            self.seconds = self._thinking_time()
            if self.player is not None:
                self.player.seconds = self.seconds
        return []

    def _thinking_time(self) -> float:
        """Seconds a move may think: with no clock, the strength's time; with one, at most three
        times that, and the move (its last safety check included) ends well inside half of
        ``timeout_turn`` and a twentieth of ``time_left``."""
        own = STRENGTHS[self.strength].seconds
        if self.timeout_turn is None and self.time_left is None:
            return own
        budget = own * 3
        if self.timeout_turn is not None:
            budget = min(budget, max(0.0, self.timeout_turn * 0.5 - TURN_MARGIN))
        if self.time_left is not None:
            budget = min(budget, self.time_left * 0.05)
        return max(MIN_SECONDS, budget)

    def _on_about(self, rest: str) -> list[str]:
        return [ABOUT]

    def _on_end(self, rest: str) -> list[str]:
        self.finished = True
        return []

    # ---------------------------------------------------------------- internals
    def _parse_point(self, text: str) -> int | None:
        match = POINT.fullmatch(text)
        return self._point(*(int(v) for v in match.groups())) if match else None

    def _point(self, x: int, y: int) -> int | None:
        n = self.started_rules.size if self.rules else 0
        return y * n + x if 0 <= x < n and 0 <= y < n else None

    def _winner(self) -> str:
        """Whose cross is already on the board ("" if none): after it there is no move to make."""
        for cells in self.started_rules.table.cells:
            first = self.board[cells[0]]
            if first and all(self.board[p] == first for p in cells[1:]):
                y, x = divmod(int(cells[0]), self.started_rules.size)
                whose = "my" if first == OWN else "the opponent's"
                return f"{whose} cross centred on {x},{y}"
        return ""

    def _move(self) -> str:
        if 0 not in self.board:
            return "ERROR the board is full"
        won = self._winner()
        if won:
            return f"ERROR the game is over: {won}"
        try:
            choice = self.started_player.choose(self.board, OWN)
        except BoardPuzzlesError as err:
            return f"ERROR {err}"
        self.board[choice.move] = OWN
        y, x = divmod(choice.move, self.started_rules.size)
        return f"{x},{y}"


def serve(lines: Iterable[str | None], write: Callable[[str], None], brain: Brain | None = None) -> None:
    """Answer protocol lines until END or the end of input (``None``: a line that was too long,
    as :func:`read_lines` gives it)."""
    brain = brain or Brain()
    for line in lines:
        if line is None:
            for answer in brain.too_long():
                write(answer)
            continue
        try:
            answers = brain.handle(line)
        except Exception as err:  # a brain that dies forfeits; one line says why
            answers = [f"ERROR internal error on {show(line)}: {type(err).__name__}: {str(err)[:200]}"]
        for answer in answers:
            write(answer)
        if brain.finished:
            break
