"""The commands of every puzzle, built once from its :class:`~boardpuzzles.protocol.Puzzle`, and
the commands of a puzzle's own, registered here.

``solve``, ``count`` and ``check`` (:mod:`~boardpuzzles.cli.solve`, :mod:`~boardpuzzles.cli.count`,
:mod:`~boardpuzzles.cli.check`) take the puzzle's parameters (as arguments and options made from
its ``params``) and the options every puzzle shares (``--json``, ``--svg``, ``--limit``,
``--jobs``, ``--time-limit``, ``--checkpoint``, ``--scheduler``, ``--max``), and follow one set of
conventions: answers re-checked before they are printed, one JSON shape, the exit codes of
:mod:`boardpuzzles.cli.common`.

A puzzle's own commands (``find``, ``generate``, ``play``...) are module-level click commands,
listed as ``COMMANDS`` in a module of this package that :data:`EXTRA_COMMANDS` names under the
puzzle's name; they take the same parameters with :func:`problem_options` and :func:`problem_from`.
A package of its own registers a puzzle's commands with an entry point in the group
``boardpuzzles.commands``: its name is the puzzle's, its object a list of click commands. Either
is loaded only when the puzzle's group lists or runs one of them, and the puzzle's record never
names them: the library does not know the command line.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import click

from boardpuzzles.cli.check import answer_text, check_command
from boardpuzzles.cli.common import title_sentence
from boardpuzzles.cli.count import count_command, interrupted, run_count
from boardpuzzles.cli.params import arguments_help, epilog, examples_help, problem_from, problem_options, problem_values
from boardpuzzles.cli.pictures import MAX_SHEET_BOARDS, MAX_SHEET_CELLS, draw_into_files, write_pictures
from boardpuzzles.cli.solve import InternalError, run_solve, solve_command
from boardpuzzles.protocol import Entry, Puzzle
from boardpuzzles.puzzles import entry_points

__all__ = [
    "COMMANDS_ENTRY_POINT_GROUP",
    "EXTRA_COMMANDS",
    "MAX_SHEET_BOARDS",
    "MAX_SHEET_CELLS",
    "InternalError",
    "answer_text",
    "arguments_help",
    "check_command",
    "count_command",
    "draw_into_files",
    "epilog",
    "examples_help",
    "extra_commands",
    "interrupted",
    "problem_from",
    "problem_options",
    "problem_values",
    "puzzle_group",
    "run_count",
    "run_solve",
    "solve_command",
    "write_pictures",
]

#: The module of this package whose ``COMMANDS`` are a puzzle's own, by the puzzle's name.
EXTRA_COMMANDS: dict[str, str] = {
    "baikago": "boardpuzzles.cli.baikago",
    "goishi": "boardpuzzles.cli.goishi",
    "knights-tour": "boardpuzzles.cli.knights_tour",
    "less-than-three": "boardpuzzles.cli.less_than_three",
    "queens": "boardpuzzles.cli.queens",
}
#: The entry-point group under which other packages register a puzzle's own commands.
COMMANDS_ENTRY_POINT_GROUP = "boardpuzzles.commands"


def extra_commands(name: str) -> list[click.Command]:
    """The commands of the puzzle ``name``'s own: this package's, then other packages'."""
    found: list[click.Command] = []
    if name in EXTRA_COMMANDS:
        found += importlib.import_module(EXTRA_COMMANDS[name]).COMMANDS
    for point in entry_points(group=COMMANDS_ENTRY_POINT_GROUP, name=name):
        found += point.load()
    return found


class PuzzleGroup(click.Group):
    """A puzzle's group, whose commands of its own are loaded the first time its commands are
    listed or one of them is asked for (``boardpuzzles --help`` and ``NAME count`` load none)."""

    def __init__(self, *args: Any, extras: Callable[[], list[click.Command]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._extras = extras

    @property  # type: ignore[override]
    def commands(self) -> dict[str, click.Command]:
        load = getattr(self, "_extras", None)
        if load is not None:
            self._extras = None  # before adding: adding reads ``commands``
            for command in load():
                self.add_command(command)
        return self._own

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:  # click.Group.__init__ sets it
        self._own = value

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return self._own.get(cmd_name) or super().get_command(ctx, cmd_name)


def puzzle_group(entry: Entry) -> click.Group:
    """``boardpuzzles NAME ...``: the generated commands and the puzzle's own."""
    tries = [e.command for e in entry.examples][:3]
    group = PuzzleGroup(
        entry.name,
        help=entry.description,
        short_help=title_sentence(entry.title),
        context_settings={"help_option_names": ["-h", "--help"]},
        epilog=("\b\nTry:\n" + "\n".join(f"  boardpuzzles {entry.name} {t}" for t in tries)) if tries else None,
    )
    if isinstance(entry, Puzzle):
        group.add_command(solve_command(entry))
        group.add_command(count_command(entry))
        group.add_command(check_command(entry))
    group._extras = lambda: extra_commands(entry.name)
    return group
