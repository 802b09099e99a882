"""`boardpuzzles queens find`: the command of the classic n queens of its own (solve, count and
check come from the protocol, see :mod:`boardpuzzles.cli.commands`)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import click

from boardpuzzles.cli.commands import draw_into_files, problem_options
from boardpuzzles.cli.common import EXIT_NEGATIVE, CommandResult, command_settings, json_option, note, picture_options
from boardpuzzles.protocol import REQUIRED
from boardpuzzles.puzzles import queens

NAME = "queens"
FIND_PARAMS = [dataclasses.replace(p, default=REQUIRED) for p in queens.PUZZLE.params if p.name == "n"]


@click.command(
    "find",
    context_settings=command_settings(),
    epilog=f"""Prints ONE placement of N queens at once, for any N up to {queens.MAX_N}, built by the
explicit construction of Hoffman, Loessi and Moore (1969) instead of a search: `solve N --limit 1`
gives the first placement in order, which a search takes longer and longer to reach from about
N = 26 on. The placement is checked like every answer. N = 2 and 3 have none (exit 1).

\b
Examples:
  boardpuzzles {NAME} find 8
  boardpuzzles {NAME} find 60 --svg sixty.svg
  boardpuzzles {NAME} find 40 --json

\b
Exit codes:
  0    found (the board is on stdout)
  1    no placement exists (N = 2 or 3)
  2    bad input or usage
  70   a bug in boardpuzzles: please report it""",
)
@problem_options(FIND_PARAMS)
@json_option
@picture_options("the board")
def find(n: int, as_json: bool, svg_path: str | None, png_path: str | None) -> None:
    """Print one placement of N queens, built directly (any N up to the largest board)."""
    problem = queens.Problem(n)
    columns = queens.construct(n)
    board = None if columns is None else queens.to_board(problem, columns)
    if board is not None:
        problems = queens.violations(problem, board)  # re-checked, as every answer is
        if problems:
            raise RuntimeError(f"the construction gave a wrong board: {problems[0]}")
    summary: dict[str, Any] = {
        "puzzle": NAME,
        "problem": queens.PUZZLE.problem_identity(problem)["problem"],
        "found": board is not None,
        "method": "construction (Hoffman, Loessi and Moore 1969)",
        "solutions": [] if board is None else [queens.PUZZLE.answer_entry(problem, board)],
    }
    if as_json:
        click.echo(json.dumps(summary))
    if board is None:
        note(f"no placement exists: {n} queens cannot share the {n}x{n} board without attacking each other")
        raise CommandResult(EXIT_NEGATIVE)
    if not as_json:
        click.echo(queens.PUZZLE.text_of(problem, board))
    if svg_path or png_path:
        scene = queens.board_scene(problem, board)
        scene.title = f"{n} queens on {n}x{n}: one solution, built directly"
        draw_into_files(svg_path, png_path, scene)


COMMANDS = [find]
