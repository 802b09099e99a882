"""`boardpuzzles knights-tour find` and `estimate`: the commands of knight's tours' own (solve,
count and check come from the protocol, see :mod:`boardpuzzles.cli.commands`)."""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any

import click

from boardpuzzles.cli.commands import draw_into_files, problem_from, problem_options
from boardpuzzles.cli.common import (
    EXIT_NEGATIVE,
    EXIT_PARTIAL,
    PNG_PATH,
    SVG_PATH,
    CommandResult,
    command_settings,
    jobs_option,
    json_option,
    note,
    seed_option,
    time_limit_option,
)
from boardpuzzles.compiling import compile_seconds
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.puzzles import knights_tour as kt

#: Boards with more squares than this are not printed to a terminal (a wall of numbers).
TERMINAL_SQUARES = 10_000
FIND_PARAMS = [p for p in kt.PUZZLE.params if p.name in ("size", "start", "closed")]


@click.command(
    "find",
    context_settings=command_settings(),
    epilog=f"""SIZE is N (an N x N board) or RxC (R rows, C columns), for example 6 or 3x8.

Warnsdorff's rule (go where the fewest onward moves are left, ties towards the edge), with Posa
rotations when it gets stuck and to close a tour; on boards of up to {kt.EXACT_FIND_SQUARES}
squares an exhaustive search settles the rest. When no tour exists (3x3, closed tours on
4xN, ...) it says why, and exits 1. Boards over {TERMINAL_SQUARES:,} squares are not printed to
a terminal: redirect the output or use --json. --time-limit covers the search, the check of the
tour and the text or JSON of it (a 2000x2000 tour is 32 MB of text, a few seconds in all).

--svg and --png draw the tour: its path coloured by move number (blue first, red last), the
start ringed and the end squared. Boards up to 32 a side show the move numbers on a chessboard;
larger ones the path alone on a plain board (the SVG still names each square's move on hover up
to 50x50). A 1000x1000 tour is a 4 MB SVG.

\b
Examples:
  boardpuzzles knights-tour find 8 --closed
  boardpuzzles knights-tour find 3x4 --start a1
  boardpuzzles knights-tour find 50 --png tour50.png --svg tour50.svg
  boardpuzzles knights-tour find 1000 --closed --json > tour.json

\b
Exit codes:
  0    found (the tour is on stdout)
  1    no tour exists (a theorem or the exhaustive search says why)
  2    bad input or usage
  3    gave up without deciding (the time limit, or every attempt failed)
  70   a bug in boardpuzzles: please report it
  130  interrupted (Ctrl-C, or SIGTERM)""",
)
@problem_options(FIND_PARAMS)
@seed_option("Seed for the randomised retries.")
@time_limit_option(default=60.0, what="Give up after S seconds.")
@json_option
@click.option("--svg", "svg_path", type=SVG_PATH, metavar="PATH", help="Also draw the tour into an SVG file.")
@click.option("--png", "png_path", type=PNG_PATH, metavar="PATH", help="Also draw the tour into a PNG file.")
def find(
    seed: int, time_limit: float, as_json: bool, svg_path: str | None, png_path: str | None, **kwargs: Any
) -> None:
    """Find one knight's tour quickly, on boards of any size."""
    problem = problem_from(kt.PUZZLE, kwargs)
    rows, cols = problem.rows, problem.cols
    kind = "closed" if problem.closed else "open"
    article = "n" if kind == "open" else ""
    limits = Limits(time_limit)
    try:
        try:
            result = limits.run(
                lambda: kt.find(problem.rows, problem.cols, problem.closed, problem.start, seed=seed, limits=limits)
            )
        except TimeLimitReached:  # stopped while building its tables: nothing was tried
            result = kt.FindResult(None, "Warnsdorff", "stopped at the time limit", limits.elapsed(), False)
        tour = result.tour
        if tour is None:
            output = _document(problem, result) if as_json else None
        else:  # checking the tour and writing it out are part of the work: within the time limit too
            to_terminal = rows * cols > TERMINAL_SQUARES and sys.stdout.isatty() and not as_json
            output = limits.run(_checked_output, problem, result, as_json, to_terminal, limits)
    except TimeLimitReached:
        note(
            f"found a{article} {kind} tour of {rows}x{cols} in {result.seconds:.2f} s, but the time limit ran "
            f"out while it was checked and written out ({rows * cols:,} squares); give it a longer --time-limit"
        )
        raise CommandResult(EXIT_PARTIAL) from None
    finally:
        limits.close()
    if output is not None:
        click.echo(output)
    elif tour is not None:
        note(f"the {rows}x{cols} board is too big to print here: redirect the output or use --json")
    if tour is not None:
        note(f"found a{article} {kind} tour of {rows}x{cols} in {result.seconds:.2f} s ({result.method})")
        if svg_path or png_path:
            draw_into_files(svg_path, png_path, kt.view(tour, rows, cols, problem.closed))
        return
    note(result.reason or "no tour found")
    raise CommandResult(EXIT_NEGATIVE if result.complete else EXIT_PARTIAL)


def _checked_output(
    problem: kt.Problem, result: kt.FindResult, as_json: bool, to_terminal: bool, limits: Limits
) -> str | None:
    """The tour checked, and what find prints (None: nothing, a board too big for a terminal)."""
    assert result.tour is not None
    problems = kt.violations(problem, result.tour)
    if problems:
        raise RuntimeError(f"find returned a wrong tour: {problems[0]}")
    if as_json:
        return _document(problem, result)
    return None if to_terminal else kt.picture(problem.rows, problem.cols, result.tour, limits)


def _document(problem: kt.Problem, result: kt.FindResult) -> str:
    return json.dumps(
        {
            "puzzle": kt.PUZZLE.name,
            "problem": kt.identity(problem),
            "found": result.tour is not None,
            "method": result.method,
            "reason": result.reason,
            "seconds": round(result.seconds, 3),
            "compile_seconds": round(compile_seconds(), 3),
            "solutions": [] if result.tour is None else [kt.PUZZLE.answer_entry(problem, result.tour)],
        }
    )


#: --memory as the estimate takes it: the memory of the count it sizes.
ESTIMATE_MEMORY_HELP = (
    "Memory the count would hold, like 8G (default: half the computer's): the shards, disk and "
    "core-hours of a count past it are estimated."
)
ESTIMATE_PARAMS = [
    dataclasses.replace(p, help=ESTIMATE_MEMORY_HELP) if p.name == "memory" else p
    for p in kt.PUZZLE.params
    if p.name in ("size", "closed", "memory")
]


@click.command(
    "estimate",
    context_settings=command_settings(),
    epilog="""SIZE is N (an N x N board) or RxC (R rows, C columns).

What counting all tours of a board by the frontier sweep (open tours from every start, or
--closed) will take, before the run: the frontier states row by row, the top and bottom layers
where the halves meet, their leaves and pairings, the memory a count in memory would need,
and for a count in shards under --memory: the shards, the disk and the core-hours (CPU time
measured on this computer). Rows whose layers are small are swept; the rest follow the trend of
the boards one to three squares narrower, so figures past the swept rows are rough: on 7x8
the leaves came to four times their estimate. Plan for several times the figures.

\b
Examples:
  boardpuzzles knights-tour estimate 8 --memory 8G --jobs 64
  boardpuzzles knights-tour estimate 6x8 --closed --json

\b
Exit codes:
  0    estimated
  2    bad input or usage
  70   a bug in boardpuzzles: please report it
  130  interrupted (Ctrl-C, or SIGTERM)""",
)
@problem_options(ESTIMATE_PARAMS)
@jobs_option
@json_option
def estimate(jobs: int | None, as_json: bool, **kwargs: Any) -> None:
    """Estimate the states, memory, disk and core-hours of a count of tours by the sweep."""
    from boardpuzzles.puzzles.knights_tour.estimate import estimate as estimated

    problem = problem_from(kt.PUZZLE, kwargs)
    kt.validate_count(problem)
    if min(problem.rows, problem.cols) < 3 or max(problem.rows, problem.cols) < 4:
        raise click.UsageError("the estimate is for boards of at least 3x4; count smaller ones at once")
    limits = Limits()
    try:
        found = limits.run(estimated, problem.rows, problem.cols, not problem.closed, problem.memory, jobs or 1)
    finally:
        limits.close()
    if as_json:
        click.echo(json.dumps(found.document()))
        return
    click.echo(_estimate_text(found, jobs or 1))


def _estimate_text(found: Any, jobs: int) -> str:
    kind = "open" if found.paths else "closed"
    lines = [
        f"{kind} tours of {found.rows}x{found.cols}, swept {found.width} squares a row for {found.length} rows; "
        f"the halves meet after row {found.top_rows} (top) and {found.bottom_rows} (bottom)",
        f"{'row':>4} {'states at its end':>18} {'most in the row':>16}",
    ]
    for r in range(found.top_rows):
        how = "swept" if r < found.figures.exact else "trend"
        lines.append(f"{r + 1:>4} {found.figures.states[r]:>18,.0f} {found.figures.peak[r]:>16,.0f}  ({how})")
    seconds = found.core_hours * 3600
    lines += [
        f"top layer {found.top_states:,.0f} states, bottom layer {found.bottom_states:,.0f}",
        f"leaves {found.top_leaves:,.0f} (top) and {found.bottom_leaves:,.0f} (bottom); pairings {found.pairings:,.0f}",
        f"memory for a count in memory: {_bytes(found.memory_in_memory)}",
        f"in shards under --memory {_bytes(found.memory)}: {found.shards} shards, {_bytes(found.disk)} of disk",
        f"CPU time {_duration(seconds)} (sweep {_duration(found.sweep_seconds)}, leaves "
        f"{_duration(found.leaf_seconds)}, pairing {_duration(found.pair_seconds)}): "
        f"{_duration(seconds / jobs)} on {jobs} core{'s' if jobs > 1 else ''}",
    ]
    return "\n".join(lines)


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:,.1f} h"
    return f"{seconds / 60:.1f} min" if seconds >= 60 else f"{seconds:.1f} s"


def _bytes(n: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if n >= size:
            return f"{n / size:,.1f} {unit}"
    return f"{n / 1e3:,.1f} kB"


COMMANDS = [find, estimate]
