"""`boardpuzzles less-than-three find`: the command of Less Than Three's own (solve, count and
check come from the protocol, see :mod:`boardpuzzles.cli.commands`)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import click

from boardpuzzles.cli.commands import draw_into_files, problem_options
from boardpuzzles.cli.common import (
    EXIT_NEGATIVE,
    EXIT_PARTIAL,
    CommandResult,
    command_settings,
    jobs_option,
    json_option,
    note,
    picture_options,
    seed_option,
    time_limit_option,
)
from boardpuzzles.compiling import compile_seconds
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.parallel import default_jobs
from boardpuzzles.protocol import REQUIRED
from boardpuzzles.puzzles import less_than_three as lt3
from boardpuzzles.puzzles.less_than_three import orbit_find as less_than_three_find

NAME = "less-than-three"
# find needs N (no default board): the same parameters, N required.
FIND_PARAMS = [
    dataclasses.replace(p, default=REQUIRED) if p.name == "n" else p
    for p in lt3.PUZZLE.params
    if p.name in ("n", "max_in_line")
]


@click.command(
    "find",
    context_settings=command_settings(),
    epilog=f"""Looks for ONE one-colour board with K stones in every row and column on a large board,
where counting every board is out of reach. From N = 22 on (with K = 2) it searches boards
turned onto themselves by 90 degrees (on odd N, by 180 degrees on the diagonals), the forms of
the large known solutions; smaller sizes also try other symmetries and any board. --jobs
searches with short random restarts run side by side until one finds a board or the time runs
out; every board found is checked. On 2 cores even sizes up to 42 take about a minute; some
sizes from 41 on are not found within an hour.

\b
Examples:
  boardpuzzles {NAME} find 20
  boardpuzzles {NAME} find 24 --svg big.svg
  boardpuzzles {NAME} find 17 --seed 3 --json

\b
Exit codes:
  0    found (the board is on stdout)
  1    no such board exists (the search was complete)
  2    bad input or usage
  3    gave up when the time limit ran out (nothing proven)
  70   a bug in boardpuzzles: please report it
  130  interrupted (Ctrl-C, or SIGTERM)""",
)
@problem_options(FIND_PARAMS)
@time_limit_option(default=60.0, what="Give up after S seconds.")
@seed_option("Seed of the random orders (the same seed finds the same board with --jobs 1).")
@jobs_option
@json_option
@picture_options("the board")
def find(
    n: int,
    max_in_line: int,
    time_limit: float,
    seed: int,
    jobs: int | None,
    as_json: bool,
    svg_path: str | None,
    png_path: str | None,
) -> None:
    """Find one one-colour board on a large size quickly."""
    rules = lt3.Rules(n, 1, max_in_line)
    problem = lt3.Problem(rules)
    jobs = jobs or default_jobs()
    result = _search(rules, problem, Limits(time_limit, jobs=jobs), seed)
    summary = _summary(problem, result, jobs)
    if as_json:
        click.echo(json.dumps(summary))
    elif result.board is not None:
        click.echo(lt3.PUZZLE.text_of(problem, result.board))
    if result.board is not None:
        _report_found(problem, result, svg_path, png_path)
        return
    if result.complete:
        note(f"no board exists: {rules.describe()} (the search was complete)")
        raise CommandResult(EXIT_NEGATIVE)
    note(
        f"gave up after {result.seconds:,.0f}s and {result.attempts:,} attempts without a board; "
        "nothing is proven: try a longer --time-limit or another --seed"
    )
    raise CommandResult(EXIT_PARTIAL)


def _search(rules: lt3.Rules, problem: lt3.Problem, limits: Limits, seed: int) -> lt3.FindResult:
    """What the search finds within the limits; a board found is checked again, as every answer is."""
    try:
        result = limits.run(lambda: less_than_three_find.find(rules, limits, seed=seed))
    except TimeLimitReached:  # stopped while building its tables: nothing was tried
        result = lt3.FindResult(None, None, 0, limits.elapsed())
    finally:
        limits.close()
    if result.board is not None:
        problems = lt3.violations(problem, result.board)  # re-checked, as every answer is
        if problems:
            raise RuntimeError(f"find returned a wrong board: {problems[0]}")
    return result


def _summary(problem: lt3.Problem, result: lt3.FindResult, jobs: int) -> dict[str, Any]:
    """The JSON of a find: the problem, what was found and how long it took."""
    summary: dict[str, Any] = {
        "puzzle": NAME,
        "problem": lt3.PUZZLE.problem_identity(problem)["problem"],
        "found": result.board is not None,
        "symmetry": result.symmetry,
        "attempts": result.attempts,
        "jobs": jobs,
        "seconds": round(result.seconds, 3),
        "compile_seconds": round(compile_seconds(), 3),
        "solutions": [],
    }
    if result.board is not None:
        summary["solutions"] = [lt3.PUZZLE.answer_entry(problem, result.board)]
    return summary


def _report_found(problem: lt3.Problem, result: lt3.FindResult, svg_path: str | None, png_path: str | None) -> None:
    """The note on stderr of how the board was found, and its pictures when asked for."""
    assert result.board is not None
    shape = (
        "searched without symmetry"
        if result.symmetry == lt3.NO_SYMMETRY
        else f"searched among boards symmetric under '{result.symmetry}'"
    )
    plural = "s" if result.attempts > 1 else ""
    note(f"found a board ({shape}) after {result.attempts:,} attempt{plural} in {result.seconds:.2f}s")
    if svg_path or png_path:
        from boardpuzzles.puzzles.less_than_three.formats import found_title

        scene = lt3.to_scene(problem, result.board)
        scene.title = found_title(problem, result.symmetry)
        draw_into_files(svg_path, png_path, scene)


COMMANDS = [find]
