"""`boardpuzzles baikago ...`: judge a position; play in the terminal, the browser or as an engine."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Union

import click

from boardpuzzles.cli.common import (
    EXIT_NEGATIVE,
    EXIT_PARTIAL,
    OUTPUT_PATH,
    SEED,
    CommandResult,
    OneOf,
    Whole,
    command_settings,
    emit_json,
    json_option,
    note,
    read_input,
    time_limit_option,
    write_file_atomically,
)
from boardpuzzles.compiling import compile_seconds
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago.judge import LOWER_CASE_NOTE
from boardpuzzles.puzzles.baikago.rules import MAX_SIZE
from boardpuzzles.render.baikago import CROSS_COLOUR
from boardpuzzles.render.baikago import position_scene as picture_scene
from boardpuzzles.scene import Scene, scene_text

if TYPE_CHECKING:
    from boardpuzzles.puzzles.baikago.ai import ComputerPlayer
    from boardpuzzles.puzzles.baikago.solve import Solver

NAME = "baikago"
SHORT_HELP = "plum-blossom go: five stones in a cross win (judge, play, engine, serve)"


class NodeCount(Whole):
    """A number of search nodes: a positive whole number (the cap, 2^61, only keeps the kernel's
    node counter far from overflowing, so the error does not spell it out)."""

    def __init__(self) -> None:
        super().__init__(1, 2**61)

    def wanted(self) -> str:
        return "a positive whole number of search nodes"


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


def show(text: str, colour: bool) -> None:
    """Print plain text, or Rich markup in colour."""
    if colour:
        from rich.console import Console

        Console(highlight=False, soft_wrap=True, force_terminal=True).print(text)
    else:
        click.echo(text)


def colour_option(f: Callable) -> Callable:
    return click.option(
        "--colour/--no-colour",
        "--color/--no-color",
        "colour",
        default=None,
        help="Colour the board (default: when stdout is a terminal).",
    )(f)


def _use_colour(colour: bool | None) -> bool:
    return sys.stdout.isatty() if colour is None else colour


def rules_options(f: Callable) -> Callable:
    f = click.option(
        "--orientations",
        type=OneOf(["+x", "+", "x"]),
        default="+x",
        show_default=True,
        help="Which crosses win: + and x, or one kind only.",
    )(f)
    f = click.option(
        "--max-d",
        type=Whole(min=1),
        default=None,
        metavar="D",
        help="Only crosses with arms at distance D or less win (default: any).",
    )(f)
    return f


# -------------------------------------------------------------------- the terminal game
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
    (y/n) if a person plays."""

    def __init__(
        self,
        position: bk.Position,
        players: dict[int, Player],
        read_line: Callable[[str], str | None],
        write: Callable[[str, bool], None],
        colour: bool = False,
        save_path: str | None = None,
    ) -> None:
        self.position = position
        self.players = players  # colour -> "human" or a ComputerPlayer
        self.read_line = read_line
        self.write = write
        self.colour = colour
        self.save_path = save_path
        self.resigned: int | None = None
        self.dirty = True  # the board changed since it was last drawn
        self.input_ended = False

    # ---------------------------------------------------------------- who plays
    def human(self, colour: int) -> bool:
        return self.players[colour] == "human"

    @property
    def against_computer(self) -> bool:
        """One person against the computer: the messages say "you" and "the computer"."""
        return self.human(bk.BLACK) != self.human(bk.WHITE)

    def outcome(self) -> bk.Outcome | None:
        if self.resigned is not None:
            return bk.Outcome(bk.other(self.resigned), "resigned")
        return self.position.outcome()

    def describe(self, outcome: bk.Outcome) -> str:
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
    def run(self) -> bk.Outcome | None:
        """Play games until nobody wants another (or the input ends); the last game's outcome."""
        while True:
            outcome = self.play_one()
            if self.input_ended or not (self.human(bk.BLACK) or self.human(bk.WHITE)):
                return outcome
            answer = self.read_line("Another game? (y/n)> ")
            if answer is None or not answer.strip().lower().startswith("y"):
                return outcome
            self.position = bk.Position(self.position.rules)
            self.resigned = None
            self.dirty = True

    def play_one(self) -> bk.Outcome | None:
        nobody = not (self.human(bk.BLACK) or self.human(bk.WHITE))
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
        return f"{bk.COLOUR_NAMES[turn]} ({stone}) to move> "

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
        who = "The computer" if self.against_computer else f"{bk.COLOUR_NAMES[turn].capitalize()} ({'XO'[turn - 1]})"
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
            raise _Quit
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
            except bk.IllegalMoveError as err:
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
        self.say("took back: your move" if self.against_computer else f"took back: {bk.COLOUR_NAMES[p.turn]} to move")
        self.dirty = True

    def save(self, path: str) -> None:
        from boardpuzzles.cli.common import write_file_atomically

        tags = {"Black": self._who(bk.BLACK), "White": self._who(bk.WHITE)}
        outcome = self.outcome()
        tags["Result"] = outcome.result() if outcome else "*"
        if outcome and outcome.reason == "resigned":
            tags["Termination"] = "resigned"
        try:
            write_file_atomically(path, bk.Record.of(self.position, **tags).to_text())
        except click.UsageError as err:
            self.say(f"not saved: {err.format_message()}")
            return
        self.say(f"saved the game to {path}")

    def _who(self, colour: int) -> str:
        return "human" if self.players[colour] == "human" else "computer"


class _Quit(Exception):
    pass


def _terminal_io(colour: bool) -> tuple[Callable[[str], str | None], Callable[[str, bool], None]]:
    interactive = sys.stdin.isatty()

    def read_line(prompt: str) -> str | None:
        if interactive:
            try:
                return input(prompt)
            except EOFError:
                return None
        click.echo(prompt, nl=False)
        line = sys.stdin.readline()
        if not line:
            click.echo()
            return None
        click.echo(line.rstrip("\n"))  # echo piped moves so the transcript reads like a game typed in
        return line

    def write(text: str, markup: bool) -> None:
        show(text, colour and markup)

    return read_line, write


# -------------------------------------------------------------------- the commands
@click.command(
    "judge",
    context_settings=command_settings(),
    epilog="""\b
The picture: one line per row, top row first; X black, O white, '.' or space empty (the seed's
board.txt). Short or missing lines are empty points. The size is the larger of the line count
and the widest line, or --size. The judge's own output reads back as the same position: its
verdict, rank numbers and file letters are skipped, lower-case stones are stones.

--svg and --png draw the position on a go board, each winning cross ringed in red with a line
from its centre to each arm.

\b
Examples:
  boardpuzzles baikago judge tests/data/baikago/seed_board.txt
  boardpuzzles baikago judge tests/data/baikago/seed_board.txt --svg cross.svg
  boardpuzzles baikago judge board.txt --json
  cat board.txt | boardpuzzles baikago judge - --size 19

\b
Exit codes:
  0    judged: a winner, or nobody has won yet
  1    inconsistent: both colours have a cross, or alternate play cannot give these stones
  2    unreadable picture or bad options
  70   a bug in boardpuzzles: please report it""",
)
@click.argument("file", metavar="FILE|-")
@click.option(
    "--size", "-n", type=Whole(3, MAX_SIZE), default=None, metavar="N", help="Board side (default: from the picture)."
)
@rules_options
@json_option
@colour_option
@click.option("--svg", "svg_path", type=OUTPUT_PATH, metavar="PATH", help="Also draw the position into an SVG file.")
@click.option("--png", "png_path", type=OUTPUT_PATH, metavar="PATH", help="Also draw the position into a PNG file.")
def judge(
    file: str,
    size: int | None,
    max_d: int | None,
    orientations: str,
    as_json: bool,
    colour: bool | None,
    svg_path: str | None,
    png_path: str | None,
) -> None:
    """Say who has won a position, and show the winning cross."""
    judgement = bk.judge_text(read_input(file), size=size, max_d=max_d, orientations=orientations)
    if as_json:
        emit_json(judgement.to_json())
    else:
        use_colour = _use_colour(colour)
        click.echo(judgement.summary())
        show(
            board_picture(judgement.points, judgement.rules.size, judgement.highlighted, colour=use_colour),
            use_colour,
        )
        if judgement.highlighted and not use_colour:
            note(LOWER_CASE_NOTE)
    if svg_path or png_path:
        from boardpuzzles.cli.commands import draw_into_files

        crosses = [cross.points for c in (bk.BLACK, bk.WHITE) for cross in judgement.crosses[c]]
        scene = picture_scene(judgement.points, judgement.rules.size, crosses, title=judgement.summary())
        draw_into_files(svg_path, png_path, scene)
    if judgement.verdict == "inconsistent":
        raise CommandResult(EXIT_NEGATIVE)


@click.command(
    "play",
    context_settings=command_settings(),
    epilog=f"""{PLAY_HELP}

Against the computer the board is shown once a turn, after its reply ("The computer plays g7
(thinking 0.4 s)"). In a terminal black (X) and white (O) have colours of their own and a
winning cross is painted on red. When a game ends another is offered (y/n); --save keeps the
record of each game as it ends.

\b
Examples:
  boardpuzzles baikago play                           # two people at one terminal
  boardpuzzles baikago play --white computer          # you play black against the computer
  boardpuzzles baikago play --black computer --strength 4
  boardpuzzles baikago play --load game.txt --save game.txt
  printf 'h8\\ng7\\n' | boardpuzzles baikago play    # moves from stdin

\b
Exit codes:
  0    the game ended or was left (end of input, quit)
  2    bad options or an unreadable record
  70   a bug in boardpuzzles: please report it
  130  interrupted (Ctrl-C)""",
)
@click.option("--black", type=OneOf(["human", "computer"]), default="human", show_default=True, help="Who plays black.")
@click.option("--white", type=OneOf(["human", "computer"]), default="human", show_default=True, help="Who plays white.")
@click.option(
    "--strength",
    type=Whole(1, 4),
    default=3,
    show_default=True,
    help="1 quick and weak ... 4 slow (up to 3 s a move).",
)
@click.option("--size", "-n", type=Whole(3, MAX_SIZE), default=15, show_default=True, metavar="N", help="Board side.")
@rules_options
@click.option("--load", "load_path", metavar="FILE", help="Continue a saved game (its rules replace the options).")
@click.option(
    "--save", "save_path", type=OUTPUT_PATH, metavar="FILE", help="Save the game record here when the game ends."
)
@click.option("--seed", type=SEED, default=None, help="Seed of the computer's choices among equal moves.")
@colour_option
def play(
    black: str,
    white: str,
    strength: int,
    size: int,
    max_d: int | None,
    orientations: str,
    load_path: str | None,
    save_path: str | None,
    seed: int | None,
    colour: bool | None,
) -> None:
    """Play in the terminal: two people, or a person against the computer."""
    from boardpuzzles.puzzles.baikago.ai import ComputerPlayer

    if load_path:
        position = bk.Record.parse(read_input(load_path)).replay()
    else:
        position = bk.Position(bk.Rules(size, max_d, orientations))
    players: dict[int, Player] = {}
    for colour_id, who in ((bk.BLACK, black), (bk.WHITE, white)):
        players[colour_id] = "human" if who == "human" else ComputerPlayer(position.rules, strength, seed=seed)
    use_colour = _use_colour(colour)
    read_line, write = _terminal_io(use_colour)
    game = TerminalGame(position, players, read_line, write, use_colour, save_path)
    if black == white == "human":
        game.say("Black (X) and white (O) take turns; " + PLAY_HELP.splitlines()[0].lower())
    try:
        game.run()
    except _Quit:
        if save_path:
            game.save(save_path)


@click.command(
    "engine",
    context_settings=command_settings(),
    epilog="""\b
Speaks the Gomocup (Piskvork) protocol on stdin/stdout: START n, BEGIN, TURN x,y,
BOARD ... DONE, TAKEBACK x,y, RESTART, INFO key value, ABOUT, END. Coordinates: x the
column from the left, y the row from the top, from 0. Point a tournament manager at
`boardpuzzles baikago engine` as the brain's command.

\b
Example:
  printf 'START 15\\nBEGIN\\nEND\\n' | boardpuzzles baikago engine

\b
Exit codes:
  0    the input ended (or END)
  2    bad options
  70   a bug in boardpuzzles: please report it
  130  interrupted (Ctrl-C)""",
)
@click.option(
    "--strength", type=Whole(1, 4), default=3, show_default=True, help="1 quick and weak ... 4 slow (up to 3 s a move)."
)
@rules_options
def engine(strength: int, max_d: int | None, orientations: str) -> None:
    """Run as a Gomocup engine (brain) on stdin and stdout."""
    from boardpuzzles.puzzles.baikago.protocol import Brain, read_lines, serve

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    serve(read_lines(sys.stdin.buffer), write, Brain(strength, max_d, orientations))


@click.command(
    "serve",
    context_settings=command_settings(),
    epilog="""\b
Opens a web page on this computer only (127.0.0.1): click a point to play, the computer
answers; new game, undo, your colour and the computer's strength are on the page.
Stop it with Ctrl-C.

\b
Games are kept in an SQLite file, --games FILE (default: the file
baikago-games.sqlite in $XDG_STATE_HOME/boardpuzzles, else in
~/.local/state/boardpuzzles), so a restart loses none. Up to --max-games
are kept: a finished game, one whose page started another, or one untouched
for a week makes room for a new one; when none can, a new game is refused.
The computer's replies share the cores: each comes within about its
strength's time (up to 3 s at strength 4); with many games at once it thinks
less rather than answers later.

\b
Example:
  boardpuzzles baikago serve --port 8015      # then open http://127.0.0.1:8015/

\b
Exit codes:
  0    stopped
  2    bad options, the port cannot be used, or the game file cannot
       (another server uses it, or it is not a game file)
  70   a bug in boardpuzzles: please report it
  130  interrupted (Ctrl-C)""",
)
@click.option("--port", type=Whole(0, 65535), default=8015, show_default=True, help="0 picks a free port.")
@click.option("--size", "-n", type=Whole(3, MAX_SIZE), default=15, show_default=True, metavar="N", help="Board side.")
@rules_options
@click.option(
    "--games",
    "games_path",
    default=None,
    metavar="FILE",
    help="SQLite file that keeps the games (':memory:': none kept).  [default: per-user state file]",
)
@click.option(
    "--max-games", type=Whole(1, 1_000_000), default=1000, show_default=True, metavar="N", help="Games kept at most."
)
def serve_command(
    port: int, size: int, max_d: int | None, orientations: str, games_path: str | None, max_games: int
) -> None:
    """Play in a web browser against the computer."""
    from boardpuzzles.web.baikago import make_server
    from boardpuzzles.web.store import default_path

    rules = bk.Rules(size, max_d, orientations)
    try:
        server = make_server(port, rules, games=games_path or default_path(), max_games=max_games)
    except OSError as err:
        raise click.UsageError(f"cannot listen on 127.0.0.1:{port}: {err.strerror}") from None
    host, bound = server.server_address[:2]
    click.echo(f"Baikago on http://{host!s}:{bound}/  (Ctrl-C stops)", err=True)
    sys.stderr.flush()
    try:
        server.serve_forever()
    finally:
        server.server_close()


@click.command(
    "solve",
    context_settings=command_settings(),
    epilog="""Who wins on an empty N x N board with perfect play. A pairing of the board proves a draw;
otherwise a proof-number search runs for each side (--side: one side only). --proof writes each
side's strategy (JSON, gzip when the name ends in .gz) for an independent checker to replay.
3x3 to 6x6 are draws; on 7x7 white cannot win (--side white, seconds).

--checkpoint FILE keeps the search tables when the run stops or ends, and the same command with
the same FILE continues from them. A file made for another board, rules, --side, --pairings or
--tt-bits, or a damaged one, is refused (exit 2) and left as it was; it takes up to 155 MB at the
default --tt-bits 22.

\b
Examples:
  boardpuzzles baikago solve 5
  boardpuzzles baikago solve 4 --no-pairings --proof four.json.gz
  boardpuzzles baikago solve 6 --json
  boardpuzzles baikago solve 4 --no-pairings --tt-bits 16 --checkpoint four.dfpn

\b
Exit codes:
  0    solved
  2    bad options, or a checkpoint that cannot serve this search
  3    stopped at the time limit or the node limit (with --checkpoint the
       search is kept and the same command continues it; without, a later
       run starts afresh)
  70   a bug in boardpuzzles: please report it
  130  interrupted (Ctrl-C; with --checkpoint the search is kept)""",
)
@click.argument("size", type=Whole(3, 9), metavar="N")
@rules_options
@click.option("--proof", "proof_path", type=OUTPUT_PATH, default=None, metavar="FILE", help="Write the proof here.")
@click.option(
    "--pairings/--no-pairings", default=True, show_default=True, help="Use pairings (draw certificates) in proofs."
)
@click.option(
    "--tt-bits",
    type=Whole(10, 26),
    default=22,
    show_default=True,
    metavar="B",
    help="2^B transposition table slots (33 bytes each).",
)
@click.option(
    "--side",
    type=OneOf(["both", "black", "white"]),
    default="both",
    show_default=True,
    help="Search whether this side can win (both: the value).",
)
@click.option(
    "--checkpoint",
    type=OUTPUT_PATH,
    default=None,
    metavar="FILE",
    help="Keep the searches in FILE when the run stops or ends; the same command continues from it.",
)
@click.option(
    "--node-limit",
    type=NodeCount(),
    default=None,
    metavar="K",
    help="Stop after K search nodes in this run (exit 3); see --checkpoint.",
)
@time_limit_option(what="Stop after S seconds (exit 3); see --checkpoint.")
@json_option
def solve_command(
    size: int,
    max_d: int | None,
    orientations: str,
    proof_path: str | None,
    pairings: bool,
    tt_bits: int,
    side: str,
    checkpoint: str | None,
    node_limit: int | None,
    time_limit: float | None,
    as_json: bool,
) -> None:
    """Solve a small board: who wins with perfect play, with a proof file."""
    from boardpuzzles.limits import Limits, TimeLimitReached
    from boardpuzzles.puzzles.baikago import solve as bs

    rules = bk.Rules(size, max_d, orientations)
    attackers = {"both": (bk.BLACK, bk.WHITE), "black": (bk.BLACK,), "white": (bk.WHITE,)}[side]
    solver = bs.Solver(rules, tt_bits, None, pairings, attackers, checkpoint)  # a bad file: refused here
    if solver.loaded:
        note(f"continuing from {checkpoint}: " + "; ".join(_standing(solver)))
    solver.report = note
    limits = Limits(time_limit)
    try:
        solution = limits.run(solver.run, limits, node_limit)
    except (TimeLimitReached, KeyboardInterrupt) as stop:
        limits.close()
        if isinstance(stop, bs.NodeLimitReached):
            what = str(stop)
        elif isinstance(stop, TimeLimitReached):
            what = f"stopped at the time limit ({time_limit:g} s)" if time_limit else "stopped at the time limit"
        else:
            what = "interrupted"
        if checkpoint is None:
            if not isinstance(stop, bs.NodeLimitReached):
                raise
            note(f"{what}; add --checkpoint FILE to keep the search for a later run")
            raise CommandResult(EXIT_PARTIAL) from None
        saved = solver.save()
        for line in _standing(solver):
            note(f"  {line}")
        if saved:
            note(f"{what}: the search is kept in {checkpoint}; the same command continues it")
        else:
            note(f"{what}: the search did not let go of its table in time; {checkpoint} is as it was")
        if isinstance(stop, KeyboardInterrupt):
            raise
        if as_json:
            emit_json(
                {
                    "puzzle": "baikago",
                    "rules": rules.to_json(),
                    "complete": False,
                    "checkpoint": checkpoint if saved else None,
                    "searches": solver.standing(),
                }
            )
        raise CommandResult(EXIT_PARTIAL) from None
    finally:
        limits.close()
    if checkpoint is not None and not solver.save():
        note(f"the search did not let go of its table in time; {checkpoint} is as it was")
    if proof_path is not None:
        write_file_atomically(proof_path, bs.write_proof(solution, proof_path))
    if as_json:
        document = solution.to_json()
        emit_json(
            {
                "puzzle": "baikago",
                "rules": document["rules"],
                "value": document["value"],
                "seconds": document["seconds"],
                "compile_seconds": round(compile_seconds(), 2),
                "claims": [
                    {"claim": c.statement(), "method": c.method(), "nodes": c.nodes, "seconds": round(c.seconds, 2)}
                    for c in solution.claims
                ],
                "proof": proof_path,
                "checkpoint": checkpoint,
                "resumed": solver.loaded,
            }
        )
    else:
        click.echo(solution.summary())
        for line in solution.details():
            click.echo(f"  {line}")
        if proof_path is not None:
            note(f"proof written to {proof_path}")
        if checkpoint is not None:
            note(f"the searches are kept in {checkpoint}")


def _standing(solver: Solver) -> list[str]:
    """One line per search of a solver: how far it got."""
    lines = []
    for s in solver.standing():
        if s["state"] == "open":
            lines.append(
                f"{s['attacker']} attacking: {s['nodes']:,} search nodes, {s['seconds']:.0f} s so far; "
                f"at the root pn {s['pn']:,}, dn {s['dn']:,}"
            )
        else:
            verdict = "it wins" if s["state"] == "proved" else "it cannot win"
            lines.append(f"{s['attacker']} attacking: {s['state']} ({verdict}), {s['nodes']:,} search nodes")
    return lines


COMMANDS = [judge, play, engine, serve_command, solve_command]
