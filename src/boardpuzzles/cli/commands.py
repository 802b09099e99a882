"""The commands every puzzle gets, built once from its :class:`~boardpuzzles.protocol.Puzzle`.

``solve``, ``count`` and ``check`` take the puzzle's parameters (as arguments and options made
from its ``params``) and the options every puzzle shares (``--json``, ``--svg``, ``--limit``,
``--jobs``, ``--time-limit``, ``--checkpoint``, ``--scheduler``, ``--max``), and follow one set of
conventions: answers re-checked before they are printed, one JSON shape, the exit codes of
:mod:`boardpuzzles.cli.common`. A puzzle's own commands (``find``, ``generate``, ``play``...) are
module-level click commands named by ``Puzzle.commands``; they use :func:`problem_options` and
:func:`problem_from` to take the same parameters.
"""

from __future__ import annotations

import importlib
import json
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import click

from boardpuzzles.checkpoint import inspect_path, verify_file
from boardpuzzles.cli.common import (
    EXIT_CODES_HELP,
    EXIT_NEGATIVE,
    EXIT_PARTIAL,
    OUTPUT_PATH,
    CommandResult,
    F,
    OneOf,
    SchedulerAddress,
    Whole,
    checkpoint_option,
    command_settings,
    jobs_option,
    json_option,
    note,
    quiet_option,
    time_limit_option,
    unknown_option_message,
    write_file_atomically,
)
from boardpuzzles.cli.documents import is_document, read_document
from boardpuzzles.cli.progress import ProgressBar
from boardpuzzles.compiling import compile_seconds, search_seconds
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.inputs import MAX_INPUT_BYTES, is_existing_file, read_text
from boardpuzzles.limits import Interrupted, Limits, TimeLimitReached
from boardpuzzles.parallel import default_jobs
from boardpuzzles.protocol import Entry, Game, Param, Puzzle

#: An SVG sheet holds at most this many boards (one board per answer); --limit chooses fewer.
MAX_SHEET_BOARDS = 500
#: ... and at most this many cells in all (a 2000 x 2000 board, drawn as a path).
MAX_SHEET_CELLS = 4_000_000


class InternalError(RuntimeError):
    """A bug of ours (a search returned a wrong answer): exit 70, never a wrong answer."""


# ---------------------------------------------------------------- parameters as click options
class _ParamType(click.ParamType):
    """Converts a typed word with the parameter's own parser (one-line errors, exit 2)."""

    def __init__(self, param: Param) -> None:
        self.param = param
        self.name = param.kind

    def convert(self, value: Any, p: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value  # a default
        if value.startswith("--") and ctx is not None:  # an unknown option let through, not a value
            raise click.UsageError(unknown_option_message(value, ctx))
        if self.param.kind == "file":
            # An existing file wins over a look-alike literal (a folder named goishi/...).
            literal = self.param.literal is not None and self.param.literal(value)
            if literal and not is_existing_file(value):
                return value
            if value == "-" and ctx is not None:
                ctx.meta["stdin_read"] = True  # check must not read it again for the answer
            return read_text(value)
        return self.param.parse(value)


def problem_options(params: Sequence[Param]) -> Callable[[F], F]:
    """Click arguments and options for the parameters (positional ones in their order)."""

    def decorate(f: F) -> F:
        for p in reversed(params):
            # Click (8.3 on) takes an explicit default=None as a default: pass none when required.
            default = {} if p.required else {"default": p.default}
            if p.positional:
                metavar = (p.metavar or p.name.upper()) + ("" if p.required else "?")
                f = click.argument(p.name, metavar=metavar, type=_ParamType(p), required=p.required, **default)(f)
                continue
            names = [p.option] + ([p.short] if p.short else [])
            if p.kind == "flag":
                f = click.option(*names, p.name, is_flag=True, default=bool(p.default), help=p.help)(f)
            elif p.kind == "choice":
                f = click.option(
                    *names,
                    p.name,
                    type=OneOf(p.choices),
                    **default,
                    required=p.required,
                    show_default=not p.required and p.default is not None,
                    help=p.help,
                )(f)
            else:
                f = click.option(
                    *names,
                    p.name,
                    type=_ParamType(p),
                    **default,
                    required=p.required,
                    show_default=not p.required and p.default is not None,
                    metavar=p.metavar or p.kind.upper(),
                    help=p.help,
                )(f)
        return f

    return decorate


def problem_values(params: Sequence[Param], kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The parameter values among a command's keyword arguments."""
    return {p.name: kwargs[p.name] for p in params if p.name in kwargs}


def problem_from(puzzle: Puzzle[Any, Any] | Game, kwargs: Mapping[str, Any]) -> Any:
    """The problem a command's keyword arguments describe."""
    values = problem_values(puzzle.params, kwargs)
    if isinstance(puzzle, Game):
        return puzzle.problem(**values)
    return puzzle.make(**values)


def arguments_help(params: Iterable[Param]) -> str:
    lines = [
        f"  {(p.metavar or p.name.upper()):<9} {p.help}" + ("" if p.required else f" (default: {p.default})")
        for p in params
        if p.positional
    ]
    return "\b\nArguments:\n" + "\n".join(lines) if lines else ""


def examples_help(name: str, examples: Iterable[str]) -> str:
    lines = [f"  boardpuzzles {name} {words}" for words in examples]
    return "\b\nExamples:\n" + "\n".join(lines) if lines else ""


def epilog(*parts: str) -> str:
    return "\n\n".join(part for part in parts if part)


# ---------------------------------------------------------------- the group of one puzzle
def puzzle_group(entry: Entry) -> click.Group:
    """``boardpuzzles NAME ...``: the generated commands and the puzzle's own."""
    tries = [e.command for e in entry.examples][:3]
    group = click.Group(
        entry.name,
        help=entry.description,
        short_help=entry.title,
        context_settings={"help_option_names": ["-h", "--help"]},
        epilog=("\b\nTry:\n" + "\n".join(f"  boardpuzzles {entry.name} {t}" for t in tries)) if tries else None,
    )
    if isinstance(entry, Puzzle):
        group.add_command(solve_command(entry))
        group.add_command(count_command(entry))
        group.add_command(check_command(entry))
    for command in load_commands(entry.commands):
        group.add_command(command)
    return group


def load_commands(path: str | None) -> list[click.Command]:
    """The commands that ``"module:attribute"`` names (a puzzle's own)."""
    if not path:
        return []
    module, _, attribute = path.partition(":")
    return list(getattr(importlib.import_module(module), attribute or "COMMANDS"))


def _examples_of(puzzle: Entry, command: str) -> list[str]:
    return [e.command for e in puzzle.examples if e.command.split()[0] == command]


# ---------------------------------------------------------------- solve
def solve_command(puzzle: Puzzle[Any, Any]) -> click.Command:
    limit_help = "Stop after K answers" + (f" (default: {puzzle.default_limit})." if puzzle.default_limit else ".")

    @click.command(
        "solve",
        context_settings=command_settings(),
        help=f"Print the solutions of a {puzzle.name} problem, one after another, as they are found.",
        epilog=epilog(
            arguments_help(puzzle.params),
            "Each answer passes the puzzle's independent checker before it is printed. When the "
            "search ends before --limit, a note on stderr says that every solution was shown.",
            examples_help(puzzle.name, _examples_of(puzzle, "solve")),
            EXIT_CODES_HELP,
        ),
    )
    @problem_options(puzzle.params)
    @click.option("--limit", type=Whole(1, 10**9), default=None, metavar="K", help=limit_help)
    @json_option
    @click.option(
        "--svg",
        "svg_path",
        type=OUTPUT_PATH,
        metavar="PATH",
        help=f"Also draw the answers into an SVG picture (at most {MAX_SHEET_BOARDS}).",
    )
    @click.option(
        "--png",
        "png_path",
        type=OUTPUT_PATH,
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
        problem = puzzle.make(**problem_values(puzzle.params, kwargs))
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
        heading = _heading(puzzle, problem, len(scenes), shown, complete, stopped)
        _write_sheet(svg_path, png_path, scenes, shown, heading, complete)
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


def _heading(puzzle: Puzzle[Any, Any], problem: Any, drawn: int, shown: int, complete: bool, stopped: bool) -> str:
    """What a sheet of answers shows, as one would say it: '8 queens on 8x8: all 92 solutions'."""
    subject = re.sub(r"^placements of ", "", puzzle.describe(problem))
    subject = re.sub(r"\bon the (\d+x\d+) board\b", r"on \1", subject)
    if complete:
        which = f"all {shown} solutions" if shown > 1 else "the only solution"
    else:
        which = f"the first {shown} solutions" if shown > 1 else "the first solution"
        which += ", stopped at the time limit" if stopped else ""
    if drawn < shown:
        which += f" (the first {drawn} drawn)"
    return f"{subject}: {which}"


def write_pictures(svg_path: str | None, png_path: str | None, scenes: Sequence[Any], heading: str = "") -> None:
    """Draw the scenes on one sheet into an SVG and/or a PNG file (each written whole or not at
    all)."""
    if svg_path:
        from boardpuzzles.render.svg import sheet_svg

        write_file_atomically(svg_path, sheet_svg(scenes, heading=heading))
    if png_path:
        from boardpuzzles.render.png import png_bytes

        write_file_atomically(png_path, png_bytes(scenes, heading=heading))


def draw_into_files(svg_path: str | None, png_path: str | None, scene: Any) -> None:
    """Draw one answer into the ``--svg``/``--png`` files given (if any) and say where, on stderr."""
    if svg_path or png_path:
        write_pictures(svg_path, png_path, [scene])
        note(f"wrote {' and '.join(p for p in (svg_path, png_path) if p)}")


def _write_sheet(
    svg_path: str | None, png_path: str | None, scenes: list[Any], shown: int, heading: str, complete: bool
) -> None:
    for i, scene in enumerate(scenes):
        if not scene.title and len(scenes) > 1:
            scene.title = f"{i + 1} of {shown}" if complete else f"solution {i + 1}"
    write_pictures(svg_path, png_path, scenes, heading)
    paths = " and ".join(p for p in (svg_path, png_path) if p)
    if len(scenes) < shown:
        note(
            f"drew the first {len(scenes)} of {shown} answers into {paths} (a sheet holds at most "
            f"{MAX_SHEET_BOARDS} boards; --limit chooses how many)"
        )
    else:
        note(f"wrote {len(scenes)} board{'s' if len(scenes) > 1 else ''} to {paths}")


# ---------------------------------------------------------------- count
def count_command(puzzle: Puzzle[Any, Any]) -> click.Command:
    @click.command(
        "count",
        context_settings=command_settings(),
        help=f"Print the number of solutions of a {puzzle.name} problem (alone, as the last line).",
        epilog=epilog(
            arguments_help(puzzle.params),
            "A count runs in subtasks on --jobs threads; --time-limit stops it with a lower bound "
            "(exit 3); --checkpoint FILE keeps each finished subtask, and the same command with "
            "the same FILE resumes (a file made by another count is refused). --max K stops at K "
            "in one search: `count --max 2` answers 'is it unique?'.",
            examples_help(puzzle.name, _examples_of(puzzle, "count")),
            EXIT_CODES_HELP,
        ),
    )
    @problem_options(puzzle.params)
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
        problem = puzzle.make(**problem_values(puzzle.params, kwargs))
        if checkpoint is not None:
            inspect_path(checkpoint)  # a bad path is refused before anything is said or done
        if cap is not None and (checkpoint or scheduler):
            given = " and ".join(o for o, v in (("--checkpoint", checkpoint), ("--scheduler", scheduler)) if v)
            raise click.UsageError(f"{given} cannot be used with --max (a capped count is one search)")
        run_count(puzzle, problem, cap, checkpoint, scheduler, time_limit, jobs or default_jobs(), quiet, as_json)

    return count


def run_count(
    puzzle: Puzzle[Any, Any],
    problem: Any,
    cap: int | None,
    checkpoint: str | None,
    scheduler: str | None,
    time_limit: float | None,
    jobs: int,
    quiet: bool,
    as_json: bool,
) -> None:
    if puzzle.validate_count is not None:
        puzzle.validate_count(problem)
    identity = puzzle.problem_identity(problem)
    if checkpoint is not None:
        verify_file(checkpoint, identity)  # a file that cannot serve is refused before anything is said
    described = puzzle.describe(problem)
    reason = puzzle.no_solution_reason(problem) if puzzle.no_solution_reason else None
    if reason:
        note(reason)
    elif not quiet and not as_json:
        note(f"counting {described}")
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
            _stopped(stop, time_limit, checkpoint, as_json, identity, started)
        except (KeyboardInterrupt, Interrupted):
            interrupted(bar, checkpoint)
            raise
        finally:
            limits.close()
    seconds = search_seconds(started)
    at_least = cap is not None and value >= cap
    if at_least:
        note(f"stopped counting at {value}: there are at least that many")
    elif value == 0 and not reason:
        note(f"no solution: there are no {described}")
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


# ---------------------------------------------------------------- check
def check_command(puzzle: Puzzle[Any, Any]) -> click.Command:
    params = [p for p in puzzle.params if p.name in puzzle.check_params]
    answer_help = (
        "ANSWER is a file (or - for standard input) holding an answer as `solve` prints it, or the JSON "
        "document that `solve --json` (or find, generate) prints: each of its answers is checked"
    )
    if puzzle.literal_answers:
        answer_help += ", or the answer itself"
    if puzzle.answer_optional:
        answer_help += "; without it, the answer held by the problem's own file is checked"
    answer_help += "."
    options = [
        f"{p.option} {p.metavar or p.kind.upper()}" if p.kind != "flag" else p.option
        for p in params
        if not p.positional and p.name != "format"  # how the file is read, not what it must solve
    ]
    from_answer = [
        f"{p.metavar or p.name.upper()} ({p.help})" for p in puzzle.params if p.positional and p not in params
    ]
    if options:
        answer_help += (
            f" The options give the problem that the answer must solve ({', '.join(options)}; the defaults as "
            "for solve)"
        )
        answer_help += f"; the answer itself gives {' and '.join(from_answer)}." if from_answer else "."
    elif from_answer:
        answer_help += f" The answer itself gives {' and '.join(from_answer)}."

    @click.command(
        "check",
        context_settings=command_settings(),
        help=f"Tell whether an answer solves a {puzzle.name} problem, and if not, why.",
        epilog=epilog(
            arguments_help(params),
            answer_help,
            examples_help(puzzle.name, _examples_of(puzzle, "check")),
            "\b\nExit codes:\n  0    a solution\n  1    not a solution (each problem is listed)\n"
            "  2    unreadable input or bad options\n  70   a bug in boardpuzzles: please report it",
        ),
    )
    @problem_options(params)
    @click.argument("answer", metavar="ANSWER" if not puzzle.answer_optional else "[ANSWER]", required=False)
    @json_option
    def check(answer: str | None, as_json: bool, **kwargs: Any) -> None:
        if answer is None and not puzzle.answer_optional:
            raise click.UsageError("missing ANSWER: a file holding the answer, or - for standard input")
        if answer == "-" and click.get_current_context().meta.get("stdin_read"):
            raise click.UsageError("standard input can hold the problem or the answer, not both: give one as a file")
        text = None if answer is None else answer_text(answer, puzzle.literal_answers, puzzle.answer_bytes)
        values = problem_values(params, kwargs)
        pictures: list[str | None] = [text]
        listed: list[Any] = [None]  # each answer's "answer" entry, where a JSON document has one
        claimed = None  # a JSON document's answers and the problem it says they solve
        if text is not None and is_document(text):
            claimed = read_document(puzzle, params, values, text)
            values, pictures, listed = claimed.values, claimed.pictures, claimed.listed
        elif text is not None:
            pictures = list(_pictures_of(text))
            listed = [None] * len(pictures)
        problems = []
        for i, (picture, as_listed) in enumerate(zip(pictures, listed, strict=True), 1):
            try:
                problem, proposed = puzzle.read_answer(values, picture)
                if claimed is not None:
                    claimed.agree(puzzle, problem)  # the problem the document claims is the one judged
                if as_listed is not None:
                    _same_answer(puzzle, problem, proposed, as_listed)
            except BoardPuzzlesError as error:
                if len(pictures) == 1:
                    raise
                raise BoardPuzzlesError(f"answer {i}: {error}") from None
            found = puzzle.violations(problem, proposed)
            problems += [f"answer {i}: {p}" for p in found] if len(pictures) > 1 else found
        if as_json:
            identity = puzzle.problem_identity(problem)
            document = {"puzzle": puzzle.name, "problem": identity["problem"], "valid": not problems}
            click.echo(json.dumps({**document, "violations": problems}))
        else:
            for problem_text in problems:
                click.echo(f"not a solution: {problem_text}")
            if not problems:
                if len(pictures) > 1:
                    click.echo(f"all {len(pictures)} answers are solutions: {puzzle.describe(problem)}")
                else:
                    click.echo(f"a solution: one of the {puzzle.describe(problem)}")
        if problems:
            raise CommandResult(EXIT_NEGATIVE)

    return check


def _same_answer(puzzle: Puzzle[Any, Any], problem: Any, proposed: Any, as_listed: Any) -> None:
    """A JSON answer holds the answer twice, as its ``"answer"`` and as its ``"board"`` picture;
    ``check`` judges the picture, so the two must be the same answer (a hand-edited document
    might change one only). Raises a one-line error when they differ or the first is unreadable."""
    try:
        listed = puzzle.answer_to_json(problem, puzzle.answer_from_json(problem, as_listed))
    except (BoardPuzzlesError, ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
        raise BoardPuzzlesError(f"'answer' cannot be read ({error}): remove it to check the 'board' alone") from None
    if listed != puzzle.answer_to_json(problem, proposed):
        raise BoardPuzzlesError("'answer' and 'board' hold different answers: correct one of them or remove 'answer'")


def _pictures_of(text: str) -> list[str]:
    """The answers of a text: ``solve`` prints boards with an empty line between them. The text
    is split only where every part has the same number of lines and of characters in its first
    line, so one picture whose empty row was typed as an empty line is still read whole (and a
    listing is never read as one tall board)."""
    blocks = [block.strip("\n") for block in text.replace("\r\n", "\n").split("\n\n")]
    blocks = [block for block in blocks if block.strip()]
    if len(blocks) < 2:
        return [text]
    shapes = {(block.count("\n"), len(block.split("\n")[0].rstrip())) for block in blocks}
    return blocks if len(shapes) == 1 else [text]


def answer_text(argument: str, literal: bool, limit: int = MAX_INPUT_BYTES) -> str:
    """The text of an answer argument: a file, standard input (``-``), or, where answers may be
    typed, the argument itself (decided without touching the file system for long text)."""
    if argument == "-" or not literal or is_existing_file(argument):
        return read_text(argument, limit)
    return argument
