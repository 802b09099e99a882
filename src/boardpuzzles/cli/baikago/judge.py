"""`boardpuzzles baikago judge`: who has won a position."""

from __future__ import annotations

import click

from boardpuzzles.cli.baikago.options import colour_option, rules_options, show, wants_colour
from boardpuzzles.cli.common import (
    EXIT_NEGATIVE,
    PNG_PATH,
    SVG_PATH,
    CommandResult,
    Whole,
    command_settings,
    emit_json,
    json_option,
    note,
    read_input,
)
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago.judge import LOWER_CASE_NOTE
from boardpuzzles.puzzles.baikago.rules import MAX_SIZE
from boardpuzzles.puzzles.baikago.terminal import board_picture
from boardpuzzles.render.baikago import position_scene as picture_scene


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
  boardpuzzles baikago judge tests/data/baikago/black_plus.txt --json
  cat tests/data/baikago/seed_board.txt | boardpuzzles baikago judge - --size 19

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
@click.option("--svg", "svg_path", type=SVG_PATH, metavar="PATH", help="Also draw the position into an SVG file.")
@click.option("--png", "png_path", type=PNG_PATH, metavar="PATH", help="Also draw the position into a PNG file.")
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
        use_colour = wants_colour(colour)
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
