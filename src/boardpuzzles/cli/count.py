"""``count``: the number of solutions, in subtasks on threads or a cluster, with time limits,
Ctrl-C and checkpoints."""

from __future__ import annotations

import glob
import json
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import click

from boardpuzzles.cli.common import (
    COUNT_EXIT_CODES_HELP,
    EXIT_PARTIAL,
    CommandResult,
    SchedulerAddress,
    Whole,
    checkpoint_option,
    command_settings,
    jobs_option,
    json_option,
    note,
    quiet_option,
    time_limit_option,
)
from boardpuzzles.cli.params import arguments_help, epilog, examples_help, examples_of, problem_options, problem_values
from boardpuzzles.cli.progress import ProgressBar
from boardpuzzles.compiling import compile_seconds, search_seconds
from boardpuzzles.limits import Interrupted, Limits, TimeLimitReached
from boardpuzzles.parallel import default_jobs
from boardpuzzles.protocol import Puzzle

if TYPE_CHECKING:
    from boardpuzzles.checkpoint import Checkpoint


def count_command(puzzle: Puzzle[Any, Any]) -> click.Command:
    params = [p for p in puzzle.params if p.taken_by("count")]

    @click.command(
        "count",
        context_settings=command_settings(),
        help=f"Print the number of solutions of a {puzzle.name} problem (alone, as the last line).",
        epilog=epilog(
            arguments_help(params),
            "A count runs in subtasks on --jobs threads; --time-limit stops it with a lower bound "
            "(exit 3); --checkpoint FILE keeps each finished subtask, and the same command with "
            "the same FILE resumes (a file made by another count is refused). --max K stops at K "
            "in one search (then K means at least K): `count --max 2` answers 'is it unique?'.",
            examples_help(puzzle.name, examples_of(puzzle, "count")),
            COUNT_EXIT_CODES_HELP,
        ),
    )
    @problem_options(params)
    @click.option("--max", "cap", type=Whole(1, 10**18), default=None, metavar="K", help="Stop counting at K.")
    @checkpoint_option
    @click.option(
        "--scheduler",
        type=SchedulerAddress(),
        metavar="tcp://HOST:PORT",
        help="Run the subtasks on this Dask scheduler's cluster (pip install 'boardpuzzles[distributed]').",
    )
    @time_limit_option(what="Stop after S seconds with a partial count (exit 3); see --checkpoint.")
    @jobs_option
    @quiet_option
    @json_option
    def count(
        cap: int | None,
        checkpoint: str | None,
        scheduler: str | None,
        time_limit: float | None,
        jobs: int | None,
        quiet: bool,
        as_json: bool,
        **kwargs: Any,
    ) -> None:
        problem = puzzle.make(**problem_values(params, kwargs))
        # Opened once for the whole run: a bad path, or a file that is not ours, is refused
        # before anything is said or done; the count's own run uses the same open file.
        opened = None
        if checkpoint is not None:
            from boardpuzzles.checkpoint import Checkpoint

            opened = Checkpoint(checkpoint)
        try:
            if cap is not None and (checkpoint or scheduler):
                given = " and ".join(o for o, v in (("--checkpoint", checkpoint), ("--scheduler", scheduler)) if v)
                raise click.UsageError(f"{given} cannot be used with --max (a capped count is one search)")
            run_count(puzzle, problem, cap, opened, scheduler, time_limit, jobs or default_jobs(), quiet, as_json)
        finally:
            if opened is not None:
                opened.close()

    return count


def run_count(
    puzzle: Puzzle[Any, Any],
    problem: Any,
    cap: int | None,
    checkpoint: Checkpoint | None,
    scheduler: str | None,
    time_limit: float | None,
    jobs: int,
    quiet: bool,
    as_json: bool,
) -> None:
    """Count, and print the number (or the JSON document); see ``count --help``. ``checkpoint``
    is the open file of ``--checkpoint`` (its caller closes it)."""
    if puzzle.validate_count is not None:
        puzzle.validate_count(problem)
    identity = puzzle.problem_identity(problem)
    path = None
    if checkpoint is not None:
        checkpoint.verify(identity)  # a file that cannot serve is refused before anything is said
        path = checkpoint.path
    reason = puzzle.no_solution_reason(problem) if puzzle.no_solution_reason else None
    if reason:
        note(reason)
    elif not quiet and not as_json:
        note(f"counting {puzzle.describe(problem)}")
    started = time.perf_counter()
    with ProgressBar(f"{puzzle.name}", enabled=False if quiet else None) as bar:
        limits = Limits(time_limit, checkpoint=checkpoint, scheduler=scheduler, jobs=jobs, progress=bar)
        try:
            if cap is not None:
                value = limits.run(puzzle.count_up_to, problem, cap, limits)
            else:
                value = limits.run(puzzle.count_of, problem, limits)
        except TimeLimitReached as stop:
            bar.close()
            _stopped(stop, time_limit, path, as_json, identity, started)
        except (KeyboardInterrupt, Interrupted):
            interrupted(bar, path)
            raise
        finally:
            limits.close()
    _say_count(puzzle, problem, identity, value, cap, jobs, as_json, started, quiet_no_solution=bool(reason))


def _say_count(
    puzzle: Puzzle[Any, Any],
    problem: Any,
    identity: Mapping[str, Any],
    value: int,
    cap: int | None,
    jobs: int,
    as_json: bool,
    started: float,
    quiet_no_solution: bool,
) -> None:
    """The count on stdout (alone, or as a JSON document), and a note when it is a lower bound
    or zero (unless the reason for zero was already said)."""
    seconds = search_seconds(started)
    at_least = cap is not None and value >= cap
    if at_least:
        note(f"stopped counting at {value}: there are at least that many")
    elif value == 0 and not quiet_no_solution:
        note(f"no solution: there are no {puzzle.describe(problem)}")
    if as_json:
        document = {
            "puzzle": puzzle.name,
            "problem": identity["problem"],
            "count": value,
            "complete": not at_least,
            "at_least": at_least,
            "jobs": 1 if cap is not None else jobs,  # a capped count is one search
            "seconds": round(seconds, 3),
            "compile_seconds": round(compile_seconds(started), 3),
        }
        click.echo(json.dumps(document))
    else:
        click.echo(value)


def interrupted(bar: ProgressBar, checkpoint: str | None) -> None:
    """On Ctrl-C: the progress bar goes, and a checkpoint's user learns that the work is kept."""
    bar.close()
    if checkpoint:
        note(f"interrupted: the finished subtasks are kept in {checkpoint}; the same command resumes")


def _stopped(
    stop: TimeLimitReached,
    time_limit: float | None,
    checkpoint: str | None,
    as_json: bool,
    identity: Mapping[str, Any],
    started: float,
) -> None:
    limit = f"{time_limit:g} s" if time_limit is not None else "its limit"
    if stop.total == 0:
        note(f"stopped at the time limit ({limit}) while the count was being prepared: nothing counted yet")
    elif stop.total == 1 and stop.done == 0 and checkpoint and glob.glob(glob.escape(checkpoint) + ".*.npz"):
        # A frontier sweep keeps its rows in a layer file next to the checkpoint (knight's tours).
        note(
            f"stopped at the time limit ({limit}): the rows swept so far are kept; "
            "run the same command again to continue"
        )
    elif stop.total == 1 and stop.done == 0:
        note(
            f"stopped at the time limit ({limit}): this count is one piece of work that keeps nothing "
            "part way; give it a longer --time-limit, or none"
        )
    else:
        again = (
            "run the same command again to continue"
            if checkpoint
            else "add --checkpoint FILE to keep the finished part for a later run"
        )
        note(
            f"stopped at the time limit ({limit}) after {stop.done} of {stop.total} subtasks: "
            f"at least {stop.partial:,} so far; {again}"
        )
    if as_json:
        document = {
            "puzzle": identity["puzzle"],
            "problem": identity["problem"],
            "complete": False,
            "partial_count": stop.partial,
            "subtasks_done": stop.done,
            "subtasks": stop.total,
            "seconds": round(search_seconds(started), 3),
            "compile_seconds": round(compile_seconds(started), 3),
        }
        click.echo(json.dumps(document))
    raise CommandResult(EXIT_PARTIAL)
