"""`boardpuzzles goishi ...`: solve, count, check, animate, convert and generate Goishi Hiroi."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import click

from boardpuzzles.cli.common import (
    COUNT,
    DELAY,
    EXIT_CODES_HELP,
    EXIT_NEGATIVE,
    EXIT_PARTIAL,
    OUTPUT_PATH,
    SECONDS,
    SEED,
    CommandResult,
    OneOf,
    Whole,
    check_writable,
    command_settings,
    count_options,
    emit_count,
    emit_json,
    json_option,
    note,
    read_input,
    run_count,
    write_file_atomically,
)
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.formats import goishi as formats
from boardpuzzles.grid import parse_size
from boardpuzzles.parallel import default_jobs
from boardpuzzles.puzzles import PUZZLES
from boardpuzzles.puzzles import goishi as gh

NAME = "goishi"

FORMATS_HELP = "\b\nFormats (detected automatically; --format to insist):\n" + "\n".join(
    f"  {name:<8} {what}" for name, what in formats.FORMATS.items()
)


def file_argument(f: Callable) -> Callable:
    f = click.option(
        "--format",
        "-f",
        "in_format",
        type=OneOf(list(formats.FORMATS)),
        default=None,
        help="The input's format (default: detected).",
    )(f)
    return click.argument("file", metavar="FILE|-")(f)


def svg_option(f: Callable) -> Callable:
    return click.option("--svg", "svg_path", type=OUTPUT_PATH, metavar="PATH", help="Also draw into an SVG file.")(f)


def _load(file: str, in_format: str | None) -> formats.Document:
    return formats.read(read_input(file), in_format)


def _answer_json(puzzle: gh.Puzzle, order: Sequence[int]) -> dict:
    return {
        "board": gh.numbered_picture(puzzle, order).split("\n"),
        "order": [puzzle.name(c) for c in order],
        "order_rc": [list(puzzle.coords(c)) for c in order],
    }


def _print_answer(puzzle: gh.Puzzle, order: Sequence[int]) -> None:
    click.echo(gh.numbered_picture(puzzle, order))
    click.echo(f"order: {gh.order_names(puzzle, order)}")


def _recheck(puzzle: gh.Puzzle, order: Sequence[int]) -> None:
    problem = gh.first_problem(puzzle, order)  # every answer is re-checked by the plain checker
    if problem is not None:
        raise RuntimeError(f"the search returned a wrong order: {problem}")


def _write_svg(path: str, puzzle: gh.Puzzle, orders: Sequence[Sequence[int]], titles: Sequence[str]) -> None:
    from boardpuzzles.render import animate
    from boardpuzzles.render.svg import sheet_svg

    scenes = [
        animate.scene(puzzle.rows, puzzle.cols, puzzle.stones, order, len(order), title)
        for order, title in zip(orders, titles)
    ]
    write_file_atomically(path, sheet_svg(scenes))
    note(f"wrote {path}")


def make_group() -> click.Group:
    @click.group(
        NAME,
        short_help=PUZZLES[NAME],
        context_settings={"help_option_names": ["-h", "--help"]},
        epilog=f"\b\nTry:\n  boardpuzzles {NAME} solve 'goishi/6/7/vsten1tvo'\n"
        f"  boardpuzzles {NAME} generate --size 10x10 --stones 20 --seed 1",
    )
    def group() -> None:
        """Goishi Hiroi: pick up every stone in one walk. Start at any stone; move along a row or a
        column and pick up the first stone still on the board in that direction; at each stone
        go straight on or turn 90 degrees, never back. The answer is the pick-up order.

        FILE may be a file, `-` for standard input, or a puzz.link URL itself."""

    @group.command(
        "solve",
        context_settings=command_settings(),
        epilog=f"""\b
Prints the first order found as a board of pick-up numbers (1 = picked first) and as square
names (a1 = bottom left). --unique also proves that no other order exists, or prints a second
one (exit 1: the puzzle is not unique).
\b
Examples:
  boardpuzzles {NAME} solve puzzle.txt
  boardpuzzles {NAME} solve 'https://puzz.link/p?goishi/6/7/vsten1tvo' --unique
  boardpuzzles {NAME} solve puzzle.txt --json --svg answer.svg

{FORMATS_HELP}

{EXIT_CODES_HELP}""",
    )
    @file_argument
    @click.option("--unique", is_flag=True, help="Prove the order unique, or show a second one.")
    @json_option
    @svg_option
    def solve(file, in_format, unique, as_json, svg_path) -> None:
        """Solve a puzzle: print the pick-up order."""
        puzzle = _document(file, in_format).puzzle
        if svg_path:
            check_writable(svg_path)
        first, second = gh.first_two(puzzle) if unique else (gh.solve(puzzle), None)
        if first is None:
            if as_json:
                emit_json(
                    {
                        "puzzle": NAME,
                        "rows": puzzle.rows,
                        "cols": puzzle.cols,
                        "stones": puzzle.size,
                        "count": 0,
                        "solutions": [],
                    }
                )
            note(f"no solution: no order picks up all {puzzle.size} stones of this {puzzle.describe()}")
            raise CommandResult(EXIT_NEGATIVE)
        for order in (first, second):
            if order is not None:
                _recheck(puzzle, order)
        found = [o for o in (first, second) if o is not None]
        if as_json:
            document = {
                "puzzle": NAME,
                "rows": puzzle.rows,
                "cols": puzzle.cols,
                "stones": puzzle.size,
                "solutions": [_answer_json(puzzle, o) for o in found],
            }
            if unique:
                document["unique"] = second is None
            emit_json(document)
        else:
            _print_answer(puzzle, first)
            if unique and second is None:
                click.echo("unique: no other order exists")
            elif unique:
                click.echo("\nNOT unique; a second order:")
                _print_answer(puzzle, second)
        if svg_path:
            _write_svg(
                svg_path,
                puzzle,
                found,
                ["solution" if len(found) == 1 else f"solution {i + 1}" for i in range(len(found))],
            )
        if unique and second is not None:
            raise CommandResult(EXIT_NEGATIVE)

    @group.command(
        "count",
        context_settings=command_settings(),
        epilog=f"""\b
Counts every legal pick-up order, one subtask per start stone (run by --jobs threads; Ctrl-C,
--time-limit and --checkpoint stop between subtasks). With --max K the count stops at K ("at
least K") in one fast search, so `count --max 2` answers "is it unique?": 1 means unique.
\b
Examples:
  boardpuzzles {NAME} count puzzle.txt
  boardpuzzles {NAME} count puzzle.txt --max 2
  boardpuzzles {NAME} count puzzle.txt --jobs 4 --time-limit 60 --checkpoint count.db

{FORMATS_HELP}

{EXIT_CODES_HELP}""",
    )
    @file_argument
    @click.option(
        "--max",
        "cap",
        type=COUNT,
        default=None,
        metavar="K",
        help="Stop counting at K (one search; --jobs and the limits do not apply).",
    )
    @count_options
    def count(file, in_format, cap, jobs, quiet, as_json) -> None:
        """Count the solutions (the number alone is the last line)."""
        puzzle = _document(file, in_format).puzzle
        jobs = jobs or default_jobs()
        if cap is not None:
            meta = click.get_current_context().meta
            given = [f"--{k.replace('_', '-')}" for k in ("time_limit", "checkpoint", "scheduler") if meta.get(k)]
            if given:
                raise click.UsageError(
                    f"{' and '.join(given)} cannot be used with --max (a capped count is one search)"
                )
            value, seconds = run_count(f"{NAME} {puzzle.describe()}", True, lambda bar: gh.count(puzzle, cap))
        else:
            value, seconds = run_count(
                f"{NAME} {puzzle.describe()}", quiet, lambda bar: gh.count(puzzle, jobs=jobs, progress=bar)
            )
        capped = cap is not None and value >= cap
        ceiling = cap is None and value >= gh.COUNT_CEILING
        if capped or ceiling:
            note(f"stopped counting at {value}: there are at least that many orders")
        elif value == 0:
            note(f"no solution: no order picks up all {puzzle.size} stones")
        emit_count(
            {
                "puzzle": NAME,
                "rows": puzzle.rows,
                "cols": puzzle.cols,
                "stones": puzzle.size,
                "count": value,
                "max": cap,
                "at_least": capped or ceiling,
                "jobs": None if cap is not None else jobs,
            },
            as_json,
            seconds,
        )

    @group.command(
        "check",
        context_settings=command_settings(),
        epilog=f"""\b
ORDER is square names (e3 d3 d4 ...) or 0-based (row,col) pairs ((4,4) (4,3) ...), as
`solve` prints them and the published instance files write them; or a file holding them (or
holding `solve`'s output, or a board of pick-up numbers). Without ORDER, the pick-up numbers in
FILE itself are checked (a solved pzprv3 file, a numbers board).
\b
Examples:
  boardpuzzles {NAME} check puzzle.txt "e3 d3 d4 d5 b5 b4 b3 c3 c6 d6 d2"
  boardpuzzles {NAME} check solved.pzprv3
\b
Exit codes:
  0    a solution
  1    not a solution: the first illegal step and why, or the stones left
  2    unreadable input""",
    )
    @file_argument
    @click.argument("order_text", metavar="[ORDER]", required=False)
    @json_option
    def check(file, in_format, order_text, as_json) -> None:
        """Tell whether an order picks up every stone legally, and if not, why."""
        document = _document(file, in_format)
        puzzle = document.puzzle
        if order_text is not None:
            order = _read_order(puzzle, order_text)
        elif document.order is not None:
            order = document.order
        else:
            raise click.UsageError(
                "no order to check: give ORDER (square names such as 'e3 d3 ...'), or a FILE with pick-up numbers"
            )
        problem = gh.first_problem(puzzle, order)
        if as_json:
            emit_json(
                {
                    "puzzle": NAME,
                    "valid": problem is None,
                    "steps": len(order),
                    "problem": None if problem is None else {"step": problem.step, "reason": problem.reason},
                }
            )
        elif problem is None:
            click.echo(f"a solution: picks up all {puzzle.size} stones")
        else:
            click.echo(f"not a solution: {problem}")
        if problem is not None:
            raise CommandResult(EXIT_NEGATIVE)

    @group.command(
        "animate",
        context_settings=command_settings(),
        epilog=f"""\b
Replays the solution (or the order in FILE, or --order) one stone at a time: press a key for
the next stone, or give --delay S. In a terminal each frame is drawn over the last; otherwise
the frames are printed one after another. O is a stone on the board, = a point whose stone has
been picked up, @ the stone just picked. --gif and --svg write the frames to a file instead.
\b
Examples:
  boardpuzzles {NAME} animate puzzle.txt
  boardpuzzles {NAME} animate puzzle.txt --delay 0.3
  boardpuzzles {NAME} animate puzzle.txt --gif walk.gif --svg frames.svg

{EXIT_CODES_HELP}""",
    )
    @file_argument
    @click.option("--order", "order_text", metavar="ORDER", help="Replay this order instead of the solution.")
    @click.option(
        "--delay",
        type=DELAY,
        default=None,
        metavar="S",
        help="Seconds between stones (default: wait for a key).",
    )
    @click.option(
        "--gif", "gif_path", type=OUTPUT_PATH, metavar="PATH", help="Write an animated GIF instead of replaying."
    )
    @svg_option
    @json_option
    def animate(file, in_format, order_text, delay, gif_path, svg_path, as_json) -> None:
        """Replay the pick-up order step by step."""
        from boardpuzzles.render import animate as anim

        document = _document(file, in_format)
        puzzle = document.puzzle
        for path in (gif_path, svg_path):
            if path:
                check_writable(path)
        if order_text is not None:
            order = _read_order(puzzle, order_text)
        else:
            order = document.order or gh.solve(puzzle)
        if order is None:
            note(f"no solution: no order picks up all {puzzle.size} stones")
            raise CommandResult(EXIT_NEGATIVE)
        problem = gh.first_problem(puzzle, order)
        if problem is not None and problem.step:
            raise click.UsageError(f"cannot replay an illegal order: {problem}")
        frames = [anim.text_frame(puzzle.rows, puzzle.cols, puzzle.stones, order, k) for k in range(len(order) + 1)]
        captions = ["start: every stone on the board"] + [
            f"{k}/{len(order)}: {puzzle.name(order[k - 1])}" for k in range(1, len(order) + 1)
        ]
        if as_json:
            emit_json(
                {"puzzle": NAME, "order": [puzzle.name(c) for c in order], "frames": [f.split("\n") for f in frames]}
            )
        if gif_path or svg_path:
            scenes = anim.scenes(puzzle.rows, puzzle.cols, puzzle.stones, order, puzzle.name)
            if svg_path:
                write_file_atomically(svg_path, anim.frames_svg(scenes))
                note(f"wrote {len(scenes)} frames to {svg_path}")
            if gif_path:
                write_file_atomically(gif_path, anim.gif_bytes(scenes, delay if delay else 0.6))
                note(f"wrote {len(scenes)} frames to {gif_path}")
        if as_json or gif_path or svg_path:
            return
        interactive = sys.stdout.isatty()
        if delay is not None:
            wait = anim.sleeper(delay)
        elif interactive and sys.stdin.isatty():

            def wait(k: int) -> None:
                click.getchar()
        else:
            wait = anim.sleeper(0)  # nobody to press a key: print every frame
        anim.replay(frames, captions, lambda s: click.echo(s, nl=False), wait, in_place=interactive)
        if problem is not None:
            note(f"the order stops early: {problem}")

    @group.command(
        "convert",
        context_settings=command_settings(),
        epilog=f"""\b
Round trips are lossless: the board keeps its size and empty border, and the pick-up numbers
stay where the target format can hold them (numbers, pzprv3). --solve adds the solution's
numbers.
\b
Examples:
  boardpuzzles {NAME} convert puzzle.txt --to url
  boardpuzzles {NAME} convert 'goishi/6/7/vsten1tvo' --to quoted -o seed.txt
  boardpuzzles {NAME} convert puzzle.txt --to pzprv3 --solve

{FORMATS_HELP}

{EXIT_CODES_HELP}""",
    )
    @file_argument
    @click.option("--to", "out_format", type=OneOf(list(formats.FORMATS)), required=True, help="The format to write.")
    @click.option("--solve", "with_solution", is_flag=True, help="Include the solution's pick-up numbers.")
    @click.option(
        "--output", "-o", "out_path", type=OUTPUT_PATH, metavar="PATH", help="Write to a file (default: stdout)."
    )
    @json_option
    def convert(file, in_format, out_format, with_solution, out_path, as_json) -> None:
        """Write a puzzle in another format."""
        document = _document(file, in_format)
        if out_path:
            check_writable(out_path)
        order = document.order
        if with_solution:
            if out_format not in formats.CARRY_ORDER:
                raise click.UsageError(
                    f"--solve needs a format that holds pick-up numbers: {' or '.join(formats.CARRY_ORDER)}"
                )
            order = gh.solve(document.puzzle)
            if order is None:
                note("no solution: nothing to add")
                raise CommandResult(EXIT_NEGATIVE)
        if order is not None and out_format not in formats.CARRY_ORDER:
            note(f"the {out_format} format holds no pick-up numbers: the order is left out")
            order = None
        text = formats.write(document.puzzle, out_format, order)
        _emit_text(text, out_path, as_json, {"from": document.format, "to": out_format})

    @group.command(
        "generate",
        context_settings=command_settings(),
        epilog=f"""\b
Makes a new puzzle with exactly one solution: a random legal walk, regrown from its first
point of ambiguity until no other order exists (proven by the solver). The same --seed gives
the same puzzle; without one, a seed is chosen and reported on stderr.
\b
Examples:
  boardpuzzles {NAME} generate --size 10x10 --stones 20 --seed 1
  boardpuzzles {NAME} generate --size 15x15 --stones 40 --to url
  boardpuzzles {NAME} generate --size 8 --stones 16 --solution --svg puzzle.svg
\b
Exit codes:
  0    generated
  2    bad input or usage
  3    gave up at the time limit""",
    )
    @click.option("--size", "size_text", required=True, metavar="RxC", help="Rows x columns (or one side).")
    @click.option("--stones", type=Whole(), required=True, metavar="K", help="Number of stones.")
    @click.option("--seed", type=SEED, default=None, help="Seed of the random walk.")
    @click.option(
        "--to",
        "out_format",
        type=OneOf(list(formats.FORMATS)),
        default="rows",
        show_default=True,
        help="The format to write.",
    )
    @click.option("--solution", is_flag=True, help="Write the pick-up numbers too (numbers, pzprv3).")
    @click.option(
        "--time-limit",
        type=SECONDS,
        default=60.0,
        show_default=True,
        metavar="S",
        help="Give up after S seconds.",
    )
    @click.option(
        "--output", "-o", "out_path", type=OUTPUT_PATH, metavar="PATH", help="Write to a file (default: stdout)."
    )
    @json_option
    @svg_option
    def generate(size_text, stones, seed, out_format, solution, time_limit, out_path, as_json, svg_path) -> None:
        """Generate a new puzzle with exactly one solution."""
        import random

        rows, cols = parse_size(size_text)
        if solution and out_format not in formats.CARRY_ORDER:
            raise click.UsageError(
                f"--solution needs a format that holds pick-up numbers: {' or '.join(formats.CARRY_ORDER)}"
            )
        for path in (out_path, svg_path):
            if path:
                check_writable(path)
        chosen = seed if seed is not None else random.SystemRandom().randrange(2**31)
        try:
            made = gh.generate(rows, cols, stones, seed=chosen, time_limit=time_limit)
        except gh.GenerationTimeout as err:
            note(f"gave up: {err}")
            raise CommandResult(EXIT_PARTIAL) from None
        if not gh.is_unique(made.puzzle) or not gh.check(made.puzzle, made.order):  # proven, not assumed
            raise RuntimeError("the generator returned a puzzle that is not unique")
        note(
            f"seed {chosen}: unique {made.puzzle.describe()} after {made.regrowths} regrowth"
            f"{'s' if made.regrowths != 1 else ''} and {made.restarts} restart{'s' if made.restarts != 1 else ''}"
            f" in {made.seconds:.2f}s"
        )
        text = formats.write(made.puzzle, out_format, made.order if solution else None)
        if svg_path:
            _write_svg(
                svg_path,
                made.puzzle,
                [made.order] if solution else [()],
                ["solution" if solution else f"{rows}x{cols}, {stones} stones"],
            )
        _emit_text(
            text,
            out_path,
            as_json,
            {
                "seed": chosen,
                "rows": rows,
                "cols": cols,
                "stones": stones,
                "format": out_format,
                "board": made.puzzle.to_rows(),
                "order": [made.puzzle.name(c) for c in made.order],
            },
        )

    return group


def _document(file: str, in_format: str | None) -> formats.Document:
    """The puzzle in FILE, or FILE itself when it is a puzz.link URL (not a file that exists).
    Only what looks like a URL is read as one, so a mistyped path is reported as a missing file."""
    if file != "-" and not _is_file(file, exists=True) and _looks_like_url(file):
        return formats.read(file, in_format or "url")
    return _load(file, in_format)


def _is_file(text: str, exists: bool = False) -> bool:
    """Whether ``text`` names a file (or, with ``exists``, anything) that exists. Text that cannot
    be a path (over the system's 4096-byte limit on a path or 255 on a name, or with a NUL) is
    not looked up at all, and a failed look-up counts as no: it is then read as an order or URL."""
    try:
        too_long = len(os.fsencode(text)) > 4096 or any(len(part) > 255 for part in os.fsencode(text).split(b"/"))
        if not text or too_long or "\0" in text:
            return False
        return Path(text).exists() if exists else Path(text).is_file()
    except (OSError, ValueError):
        return False


def _looks_like_url(text: str) -> bool:
    text = text.strip()
    return "://" in text or text.startswith(("goishi/", "pzprv3", "?goishi/", "p?goishi/"))


def _read_order(puzzle: gh.Puzzle, text: str) -> gh.Order:
    """ORDER as text, or the order held by a file (``solve`` output, a numbers board, pzprv3)."""
    if text == "-" or _is_file(text):
        content = read_input(text)
        line = next((ln for ln in content.splitlines() if ln.strip().startswith("order:")), None)
        if line is not None:
            return gh.parse_order(puzzle, line.split(":", 1)[1])
        try:
            document = formats.read(content)
        except BoardPuzzlesError:
            return gh.parse_order(puzzle, content)
        if document.puzzle != puzzle:
            raise click.UsageError(f"{text} shows a different board from the puzzle's")
        if document.order is None:
            raise click.UsageError(f"{text} holds no pick-up order")
        return document.order
    return gh.parse_order(puzzle, text)


def _emit_text(text: str, out_path: str | None, as_json: bool, extra: dict) -> None:
    if out_path:
        write_file_atomically(out_path, text + "\n")
        note(f"wrote {out_path}")
    if as_json:
        emit_json({"puzzle": NAME, **extra, "text": text})
    elif not out_path:
        click.echo(text)
