"""``solve``: the answers of a problem, one after another, each re-checked before it is printed."""

from __future__ import annotations

import json
import re
from typing import Any

import click

from boardpuzzles.cli.common import (
    EXIT_CODES_HELP,
    EXIT_NEGATIVE,
    EXIT_PARTIAL,
    PNG_PATH,
    SVG_PATH,
    CommandResult,
    Whole,
    command_settings,
    json_option,
    note,
    time_limit_option,
)
from boardpuzzles.cli.params import arguments_help, epilog, examples_help, examples_of, problem_options, problem_values
from boardpuzzles.cli.pictures import MAX_SHEET_BOARDS, MAX_SHEET_CELLS, write_sheet
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.protocol import Puzzle


class InternalError(RuntimeError):
    """A bug of ours (a search returned a wrong answer): exit 70, never a wrong answer."""


def solve_command(puzzle: Puzzle[Any, Any]) -> click.Command:
    params = [p for p in puzzle.params if p.taken_by("solve")]
    limit_help = "Stop after K answers" + (f" (default: {puzzle.default_limit})." if puzzle.default_limit else ".")

    @click.command(
        "solve",
        context_settings=command_settings(),
        help=f"Print the solutions of a {puzzle.name} problem, one after another, as they are found.",
        epilog=epilog(
            arguments_help(params),
            "Each answer passes the puzzle's independent checker before it is printed. When the "
            "search ends before --limit, a note on stderr says that every solution was shown.",
            examples_help(puzzle.name, examples_of(puzzle, "solve")),
            EXIT_CODES_HELP,
        ),
    )
    @problem_options(params)
    @click.option("--limit", type=Whole(1, 10**9), default=None, metavar="K", help=limit_help)
    @json_option
    @click.option(
        "--svg",
        "svg_path",
        type=SVG_PATH,
        metavar="PATH",
        help=f"Also draw the answers into an SVG picture (at most {MAX_SHEET_BOARDS}).",
    )
    @click.option(
        "--png",
        "png_path",
        type=PNG_PATH,
        metavar="PATH",
        help=f"Also draw the answers into a PNG picture (at most {MAX_SHEET_BOARDS}).",
    )
    @time_limit_option()
    def solve(
        limit: int | None,
        as_json: bool,
        svg_path: str | None,
        png_path: str | None,
        time_limit: float | None,
        **kwargs: Any,
    ) -> None:
        problem = puzzle.make(**problem_values(params, kwargs))
        for option, path in (("--svg", svg_path), ("--png", png_path)):
            if path and limit is not None and limit > MAX_SHEET_BOARDS:
                raise click.UsageError(
                    f"{option} draws at most {MAX_SHEET_BOARDS} boards: use --limit {MAX_SHEET_BOARDS}"
                )
        run_solve(puzzle, problem, limit, as_json, svg_path, Limits(time_limit), png_path)

    return solve


def run_solve(
    puzzle: Puzzle[Any, Any],
    problem: Any,
    limit: int | None,
    as_json: bool,
    svg_path: str | None,
    limits: Limits,
    png_path: str | None = None,
) -> None:
    """Stream the answers of ``problem`` (text or JSON), re-checking each; see ``solve --help``.
    The answers are also drawn into ``svg_path`` and ``png_path``, where given."""
    wanted = limit if limit is not None else puzzle.default_limit
    stream = _JsonStream(puzzle, problem) if as_json else None
    scenes: list[Any] = []
    cells = 0
    shown = 0
    complete = False
    stopped = False
    answers = limits.iterate(lambda: puzzle.solutions(problem, limits))
    try:
        for answer in answers:
            problems = puzzle.violations(problem, answer)
            if problems:
                raise InternalError(f"the search returned a wrong answer: {problems[0]}")
            shown += 1
            if stream is not None:
                stream.add(answer)
            else:
                click.echo(("\n" if shown > 1 else "") + puzzle.text_of(problem, answer))
            if svg_path or png_path:
                scene = puzzle.to_scene(problem, answer)
                cells += scene.grid.size
                if len(scenes) < MAX_SHEET_BOARDS and cells <= MAX_SHEET_CELLS:
                    scenes.append(scene)
            if wanted is not None and shown >= wanted:
                break
        else:
            complete = True
    except TimeLimitReached:
        stopped = True
    except BaseException:
        if stream is not None and stream.count:  # what was printed stays one valid document
            stream.close(shown, False)
        raise
    finally:
        answers.close()
        limits.close()
    if stream is not None:
        stream.close(shown, complete)
    if scenes:
        heading = sheet_heading(puzzle, problem, len(scenes), shown, complete, stopped)
        write_sheet(svg_path, png_path, scenes, shown, heading, complete)
    _say_how_it_ended(puzzle, problem, limit, shown, complete, stopped)


def _say_how_it_ended(
    puzzle: Puzzle[Any, Any], problem: Any, limit: int | None, shown: int, complete: bool, stopped: bool
) -> None:
    """The note after a listing, and the exit code when it is not 0 (stopped, or no solution)."""
    wanted = limit if limit is not None else puzzle.default_limit
    if stopped:
        note(
            f"stopped at the time limit after {shown} solution{'s' if shown != 1 else ''}: "
            "the list is not complete; give a longer --time-limit"
        )
        raise CommandResult(EXIT_PARTIAL)
    if shown == 0:
        reason = puzzle.no_solution_reason(problem) if puzzle.no_solution_reason else None
        note(reason or f"no solution: there are no {puzzle.describe(problem)}")
        raise CommandResult(EXIT_NEGATIVE)
    if complete and wanted is not None:
        note("unique: no other solution exists" if shown == 1 else f"all {shown} solutions shown: there are no more")
    elif not complete and limit is None and puzzle.default_limit is not None:
        note(f"at least {shown} solutions (not unique); --limit K shows more")


class _JsonStream:
    """``{"puzzle", "problem", "solutions": [...], "count", "complete"}`` written as the answers
    come, so a long listing never has to fit in memory. The head is written with the first
    answer, so an error before any answer leaves stdout empty."""

    def __init__(self, puzzle: Puzzle[Any, Any], problem: Any) -> None:
        self.puzzle, self.problem = puzzle, problem
        self.count = 0
        self.closed = False

    def _head(self) -> None:
        head = json.dumps(
            {"puzzle": self.puzzle.name, "problem": self.puzzle.problem_identity(self.problem)["problem"]}
        )
        click.echo(head[:-1] + ', "solutions": [', nl=False)

    def add(self, answer: Any) -> None:
        if self.count == 0:
            self._head()
        document = self.puzzle.answer_entry(self.problem, answer)
        click.echo(("," if self.count else "") + "\n " + json.dumps(document), nl=False)
        self.count += 1

    def close(self, count: int, complete: bool) -> None:
        if self.closed:
            return
        self.closed = True
        if self.count == 0:
            self._head()
        tail = json.dumps({"count": count, "complete": complete})
        click.echo(("\n" if self.count else "") + "], " + tail[1:])


def sheet_heading(puzzle: Puzzle[Any, Any], problem: Any, drawn: int, shown: int, complete: bool, stopped: bool) -> str:
    """What a sheet of answers shows, as one would say it: '8 queens on 8x8: all 92 solutions'."""
    subject = re.sub(r"^(placements|pick-up orders) of ", "", puzzle.describe(problem))
    subject = re.sub(r"\bon the (\d+x\d+) board\b", r"on \1", subject)
    if complete:
        which = f"all {shown} solutions" if shown > 1 else "the only solution"
    else:
        which = f"the first {shown} solutions" if shown > 1 else "the first solution"
        which += ", stopped at the time limit" if stopped else ""
    if drawn < shown:
        which += f" (the first {drawn} drawn)"
    return f"{subject}: {which}"
