"""Playing Baikago at a text terminal: the game loop of ``baikago play`` (:class:`TerminalGame`)
and the board as text, plain or in colour (Rich markup).

The loop reads lines and writes text through the functions it is given, so the command line
only connects it to the terminal, and tests feed it moves.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Union

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.files import replace_file
from boardpuzzles.puzzles.baikago.game import IllegalMoveError, Outcome, Position, Record
from boardpuzzles.puzzles.baikago.rules import BLACK, COLOUR_NAMES, WHITE, other
from boardpuzzles.render.baikago import CROSS_COLOUR
from boardpuzzles.render.baikago import position_scene as picture_scene
from boardpuzzles.scene import Scene, scene_text

if TYPE_CHECKING:
    from boardpuzzles.puzzles.baikago.ai import ComputerPlayer


# -------------------------------------------------------------------- drawing the board
def position_scene(points: list[int], n: int, highlight: Iterable[int] = (), last: int | None = None) -> Scene:
    """A position as a scene: stones, the crosses' stones marked, the last stone marked too."""
    scene = picture_scene(points, n, (), last)
    scene.marks.update({p: CROSS_COLOUR for p in highlight})
    return scene


#: Rich styles of the terminal board: each colour its own, a winning cross on red, the last
#: stone underlined.
STONE_STYLES = {"X": "bold cyan", "O": "bold yellow"}
CROSS_STYLE = "bold white on red"


def board_picture(
    points: list[int], n: int, highlight: Iterable[int] = (), last: int | None = None, colour: bool = False
) -> str:
    """The board with row numbers on the left and column letters below, top row first.

    In colour (Rich markup) black and white stones have colours of their own, the stones of a
    cross are painted on red and the last stone is underlined; without colour the highlighted
    stones are printed in lower case (``x``, ``o``), which the judge reads back as ordinary
    stones."""
    marked = set(highlight)
    scene = position_scene(points, n, marked)
    text = scene_text(scene, coordinates=True, marks_in_lower_case=not colour)
    if not colour:
        return text
    styles = {p: STONE_STYLES[piece] for p, piece in scene.pieces.items()}
    styles.update({p: CROSS_STYLE for p in marked})
    if last is not None and last not in marked and last in styles:
        styles[last] += " underline"
    return _with_markup(text, n, styles)


def _with_markup(text: str, n: int, styles: dict[int, str]) -> str:
    """Wrap the characters of some points of a coordinate picture in Rich markup (right to left
    along each line, so that earlier columns keep their places)."""
    rank_width = len(str(n))
    lines = text.split("\n")
    for point, style in sorted(styles.items(), reverse=True):
        r, c = divmod(point, n)
        column = rank_width + 1 + 2 * c
        line = lines[r]
        lines[r] = f"{line[:column]}[{style}]{line[column]}[/]{line[column + 1 :]}"
    return "\n".join(lines)


# -------------------------------------------------------------------- the game loop
PLAY_HELP = """Type a point such as h8 (column letter, row number from the bottom) to play there.
Commands: undo (take back your last move), resign, redraw, save FILE, help, quit."""


#: Who plays a colour: "human", or the computer player.
Player = Union[str, "ComputerPlayer"]


class TerminalGame:
    """The game loop of `baikago play`, independent of the terminal: lines come from
    ``read_line`` (None at the end of input) and text goes to ``write(text, markup)``, so tests
    feed moves through stdin.

    The board is drawn once a turn: before a person's move (after the computer's reply, when
    playing against it), and after every move when the computer plays both sides. Against the
    computer the messages say "you" and "the computer". When a game ends, another is offered
    (y/n) if a person plays. ``write_file(path, text)`` saves a record (``save FILE``, and
    ``save_path`` when a game ends); it raises :class:`BoardPuzzlesError` with the reason when it
    cannot."""

    def __init__(
        self,
        position: Position,
        players: dict[int, Player],
        read_line: Callable[[str], str | None],
        write: Callable[[str, bool], None],
        colour: bool = False,
        save_path: str | None = None,
        write_file: Callable[[str, str], None] | None = None,
    ) -> None:
        self.position = position
        self.players = players  # colour -> "human" or a ComputerPlayer
        self.read_line = read_line
        self.write = write
        self.colour = colour
        self.save_path = save_path
        self.write_file = write_file or write_text_file
        self.resigned: int | None = None
        self.dirty = True  # the board changed since it was last drawn
        self.input_ended = False

    # ---------------------------------------------------------------- who plays
    def human(self, colour: int) -> bool:
        return self.players[colour] == "human"

    @property
    def against_computer(self) -> bool:
        """One person against the computer: the messages say "you" and "the computer"."""
        return self.human(BLACK) != self.human(WHITE)

    def outcome(self) -> Outcome | None:
        if self.resigned is not None:
            return Outcome(other(self.resigned), "resigned")
        return self.position.outcome()

    def describe(self, outcome: Outcome) -> str:
        """The end of a game; against the computer, as "You win: ..." or "The computer wins: ..."."""
        grid = self.position.grid
        if not self.against_computer or outcome.winner is None:
            return outcome.describe(grid)
        you = self.human(outcome.winner)
        if outcome.reason == "resigned":
            return "You resigned: the computer wins" if not you else "The computer resigned: you win"
        crosses = "; ".join(c.describe(grid) for c in outcome.crosses)
        return f"{'You win' if you else 'The computer wins'}: {crosses}"

    def say(self, text: str) -> None:
        self.write(text, False)

    def draw(self) -> None:
        p = self.position
        outcome = p.outcome()
        highlight = {q for cross in (outcome.crosses if outcome else ()) for q in cross.points}
        self.write(board_picture(p.board, p.grid.rows, highlight, p.last_move, self.colour), self.colour)
        self.dirty = False

    # ---------------------------------------------------------------- the loop
    def run(self) -> Outcome | None:
        """Play games until nobody wants another (or the input ends); the last game's outcome."""
        while True:
            outcome = self.play_one()
            if self.input_ended or not (self.human(BLACK) or self.human(WHITE)):
                return outcome
            answer = self.read_line("Another game? (y/n)> ")
            if answer is None or not answer.strip().lower().startswith("y"):
                return outcome
            self.position = Position(self.position.rules)
            self.resigned = None
            self.dirty = True

    def play_one(self) -> Outcome | None:
        nobody = not (self.human(BLACK) or self.human(WHITE))
        while self.outcome() is None:
            turn = self.position.turn
            player = self.players[turn]
            if self.dirty and (isinstance(player, str) or nobody):
                self.draw()
            if not isinstance(player, str):
                self.computer_move(player)
                continue
            line = self.read_line(self.prompt(turn))
            if line is None:
                self.say("(end of input: the game stops here)")
                self.input_ended = True
                break
            self.command(line.strip())
        outcome = self.outcome()
        if outcome is not None:
            if self.dirty:
                self.draw()
            self.say(self.describe(outcome))
        if self.save_path:
            self.save(self.save_path)
        return outcome

    def prompt(self, turn: int) -> str:
        stone = "XO"[turn - 1]
        if self.against_computer:
            return f"your move ({stone})> "
        return f"{COLOUR_NAMES[turn]} ({stone}) to move> "

    def computer_move(self, player: ComputerPlayer) -> None:
        # The search runs in a worker thread: Ctrl-C reaches this one at once.
        turn = self.position.turn
        limits = player.limits_for_move()
        started = time.perf_counter()
        try:
            choice = limits.run(player.choose_for, self.position, limits)
        finally:
            limits.close()
        seconds = time.perf_counter() - started
        self.position.make(choice.move)
        self.dirty = True
        name = self.position.grid.name(choice.move)
        who = "The computer" if self.against_computer else f"{COLOUR_NAMES[turn].capitalize()} ({'XO'[turn - 1]})"
        self.say(f"{who} plays {name} (thinking {seconds:.1f} s)")

    def command(self, line: str) -> None:
        word, _, rest = line.partition(" ")
        word = word.lower()
        if not word:
            return
        if word in ("help", "?"):
            self.say(PLAY_HELP)
        elif word in ("redraw", "board"):
            self.draw()
        elif word == "resign":
            self.resigned = self.position.turn
        elif word == "quit":
            self.say("(quit)")
            self.resigned = None
            raise QuitGame
        elif word == "save":
            if not rest.strip():
                self.say("save needs a file name: save game.txt")
            else:
                self.save(rest.strip())
        elif word == "undo":
            self.undo()
        else:
            try:
                move = self.position.make_named(line)
            except IllegalMoveError as err:
                self.say(f"illegal move: {err} (type help for commands)")
                return
            self.dirty = True
            if self.against_computer:
                self.say(f"You play {self.position.grid.name(move)}")

    def undo(self) -> None:
        """Take back moves until it is a human's turn again (against the computer: its reply and
        your move)."""
        p = self.position
        if not p.move_stack:
            self.say("nothing to undo")
            return
        p.unmake()
        while p.move_stack and self.players[p.turn] != "human":
            p.unmake()
        self.say("took back: your move" if self.against_computer else f"took back: {COLOUR_NAMES[p.turn]} to move")
        self.dirty = True

    def save(self, path: str) -> None:
        tags = {"Black": self._who(BLACK), "White": self._who(WHITE)}
        outcome = self.outcome()
        tags["Result"] = outcome.result() if outcome else "*"
        if outcome and outcome.reason == "resigned":
            tags["Termination"] = "resigned"
        try:
            self.write_file(path, Record.of(self.position, **tags).to_text())
        except BoardPuzzlesError as err:
            self.say(f"not saved: {err}")
            return
        self.say(f"saved the game to {path}")

    def _who(self, colour: int) -> str:
        return "human" if self.players[colour] == "human" else "computer"


class QuitGame(Exception):
    """The player typed ``quit``: the game loop stops at once."""


def write_text_file(path: str, text: str) -> None:
    """Write a game record whole or not at all; :class:`BoardPuzzlesError` when it cannot."""
    try:
        replace_file(path, [text.encode("utf-8")])
    except OSError as err:
        raise BoardPuzzlesError(f"cannot write {path}: {err.strerror or err}") from None
