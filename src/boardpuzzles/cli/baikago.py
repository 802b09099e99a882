"""`boardpuzzles baikago ...`: judge a position; play in the terminal, the browser or as an engine."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

import click

from boardpuzzles.cli.common import (
    EXIT_NEGATIVE,
    CommandResult,
    command_settings,
    emit_json,
    json_option,
    read_input,
)
from boardpuzzles.grid import file_letters
from boardpuzzles.puzzles import baikago as bk

NAME = "baikago"
SHORT_HELP = "plum-blossom go: five stones in a cross win (judge, play, engine, serve)"


# -------------------------------------------------------------------- drawing the board
def board_picture(points: list[int], n: int, highlight: Iterable[int] = (), last: int | None = None,
                  colour: bool = False) -> str:
    """The board with row numbers on the left and column letters below, top row first.

    In colour (Rich markup) the highlighted stones are red and the last stone is underlined;
    without colour the highlighted stones are printed in lower case (``x``, ``o``), which the
    judge reads back as ordinary stones."""
    marked = set(highlight)
    label = len(str(n))
    lines = []
    for r in range(n):
        cells = []
        for c in range(n):
            point = r * n + c
            letter = ".XO"[points[point]]
            if point in marked:
                cell = f"[bold red]{letter}[/]" if colour else letter.lower()
            elif colour and point == last:
                cell = f"[bold underline]{letter}[/]"
            else:
                cell = letter
            cells.append(cell)
        lines.append(f"{n - r:>{label}} " + " ".join(cells))
    lines.append(" " * (label + 1) + " ".join(file_letters(c) for c in range(n)))
    return "\n".join(lines)


def show(text: str, colour: bool) -> None:
    """Print plain text, or Rich markup in colour."""
    if colour:
        from rich.console import Console

        Console(highlight=False, soft_wrap=True).print(text)
    else:
        click.echo(text)


def colour_option(f: Callable) -> Callable:
    return click.option("--colour/--no-colour", "--color/--no-color", "colour", default=None,
                        help="Colour the board (default: when stdout is a terminal).")(f)


def _use_colour(colour: bool | None) -> bool:
    return sys.stdout.isatty() if colour is None else colour


def rules_options(f: Callable) -> Callable:
    f = click.option("--orientations", type=click.Choice(["+x", "+", "x"]), default="+x", show_default=True,
                     help="Which crosses win: + and x, or one kind only.")(f)
    f = click.option("--max-d", type=click.IntRange(min=1), default=None, metavar="D",
                     help="Only crosses with arms at distance D or less win (default: any).")(f)
    return f


# -------------------------------------------------------------------- the commands
def make_group() -> click.Group:
    @click.group(NAME, short_help=SHORT_HELP, context_settings={"help_option_names": ["-h", "--help"]},
                 epilog=f"\b\nTry:\n  boardpuzzles {NAME} judge tests/data/baikago/seed_board.txt\n"
                        f"  boardpuzzles {NAME} play --white computer")
    def group() -> None:
        """Baikago (plum-blossom go): black (X) and white (O) take turns, black first; five stones
        of one colour in a cross win: a centre and four stones at the same distance d from it,
        left-right-up-down (+) or on the four diagonals (x)."""

    @group.command("judge", context_settings=command_settings(), epilog="""\b
The picture: one line per row, top row first; X black, O white, '.' or space empty (the seed's
board.txt, or the judge's own spaced output). Short or missing lines are empty points. The size
is the larger of the line count and the widest line, or --size.
\b
Examples:
  boardpuzzles baikago judge tests/data/baikago/seed_board.txt
  boardpuzzles baikago judge board.txt --json
  cat board.txt | boardpuzzles baikago judge - --size 19
\b
Exit codes:
  0    judged: a winner, or nobody has won yet
  1    inconsistent: both colours have a cross, or alternate play cannot give these stones
  2    unreadable picture or bad options""")
    @click.argument("file", metavar="FILE|-")
    @click.option("--size", "-n", type=int, default=None, metavar="N", help="Board side (default: from the picture).")
    @rules_options
    @json_option
    @colour_option
    def judge(file, size, max_d, orientations, as_json, colour) -> None:
        """Say who has won a position, and show the winning cross."""
        judgement = bk.judge_text(read_input(file), size=size, max_d=max_d, orientations=orientations)
        if as_json:
            emit_json(judgement.to_json())
        else:
            use_colour = _use_colour(colour)
            click.echo(judgement.summary())
            show(board_picture(judgement.points, judgement.rules.size, judgement.highlighted, colour=use_colour),
                 use_colour)
            if judgement.highlighted and not use_colour:
                click.echo("(the stones of the crosses are in lower case)")
        if judgement.verdict == "inconsistent":
            raise CommandResult(EXIT_NEGATIVE)

    return group
