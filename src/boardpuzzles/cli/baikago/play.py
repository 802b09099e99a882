"""`boardpuzzles baikago play`: the terminal game (:class:`TerminalGame`, on the puzzle's side)
connected to stdin and stdout."""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from boardpuzzles.cli.baikago.options import colour_option, rules_options, show, wants_colour
from boardpuzzles.cli.common import OUTPUT_PATH, SEED, OneOf, Whole, command_settings, read_input, write_file_atomically
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago.rules import MAX_SIZE
from boardpuzzles.puzzles.baikago.terminal import PLAY_HELP, Player, QuitGame, TerminalGame


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
  boardpuzzles baikago play --load game.txt --save game.txt   # go on with a saved game
  printf 'h8\\ng7\\n' | boardpuzzles baikago play    # moves from stdin

\b
Exit codes:
  0    the game ended or was left (end of input, quit)
  2    bad options or an unreadable record
  70   a bug in boardpuzzles: please report it
  130  interrupted (Ctrl-C, or SIGTERM)""",
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
    use_colour = wants_colour(colour)
    read_line, write = _terminal_io(use_colour)
    game = TerminalGame(position, players, read_line, write, use_colour, save_path, _write_game)
    if black == white == "human":
        game.say("Black (X) and white (O) take turns; " + PLAY_HELP.splitlines()[0].lower())
    try:
        game.run()
    except QuitGame:
        if save_path:
            game.save(save_path)


def _write_game(path: str, text: str) -> None:
    """Save a game record as every command writes a user's file (a bad path: the reason)."""
    try:
        write_file_atomically(path, text)
    except click.UsageError as err:
        raise BoardPuzzlesError(err.format_message()) from None


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
