"""`boardpuzzles less-than-three ...`: the two-colour 6x6 puzzle and its no-K+1-in-line family."""

from __future__ import annotations

from collections.abc import Callable

import click

from boardpuzzles.board import parse_board
from boardpuzzles.cli.common import (
    COUNT,
    EXIT_CODES_HELP,
    EXIT_NEGATIVE,
    EXIT_PARTIAL,
    OUTPUT_PATH,
    SECONDS,
    SEED,
    CommandResult,
    Whole,
    check_writable,
    command_settings,
    count_options,
    emit_count,
    emit_json,
    jobs_option,
    json_option,
    note,
    read_input,
    run_count,
    spaced_rows,
    stream_boards,
    write_boards_svg,
)
from boardpuzzles.parallel import default_jobs
from boardpuzzles.puzzles import PUZZLES
from boardpuzzles.puzzles import less_than_three as lt3

NAME = "less-than-three"

WHAT_IS_COUNTED = """Counts every placement of the stones: rotations, mirror images and boards that differ
only by exchanging colours all count separately (the seed puzzle: 42). --unique counts classes
under the 8 rotations and reflections of the square; --swap-colours also identifies boards that
differ by a relabelling of the colours. With --colours 1 this is Dudeney's no-three-in-line
problem (OEIS A000755; with --unique, A000769)."""


def rules_options(f: Callable) -> Callable:
    """--size, --colours, --max-in-line, --stones: the member of the family (default: the seed)."""
    f = click.option(
        "--stones",
        type=Whole(),
        default=None,
        metavar="S",
        help="Stones per colour (default: the most possible, K x N).",
    )(f)
    f = click.option(
        "--max-in-line",
        "-k",
        type=Whole(),
        default=2,
        show_default=True,
        metavar="K",
        help="At most K stones of one colour on any line.",
    )(f)
    f = click.option(
        "--colours",
        "-c",
        type=Whole(),
        default=2,
        show_default=True,
        metavar="C",
        help="Number of colours (1: no-three-in-line).",
    )(f)
    f = click.option("--size", "-n", type=Whole(), default=6, show_default=True, metavar="N", help="Board side.")(f)
    return f


def _rules(size: int, colours: int, max_in_line: int, stones: int | None) -> lt3.Rules:
    return lt3.Rules(size, colours, max_in_line, stones)


def make_group() -> click.Group:
    @click.group(
        NAME,
        short_help=PUZZLES[NAME],
        context_settings={"help_option_names": ["-h", "--help"]},
        epilog=f"\b\nTry:\n  boardpuzzles {NAME} solve --limit 1\n  boardpuzzles {NAME} count\n"
        f"  boardpuzzles {NAME} count --colours 1 --size 8",
    )
    def group() -> None:
        """Less Than Three: C colours of stones on an N x N board, never more than K of a colour on
        a straight line of any slope. The seed puzzle: 12 black (X) and 12 white (O) stones on
        6x6, no three of a colour in a line."""

    @group.command(
        "solve",
        context_settings=command_settings(),
        epilog=f"""\b
Examples:
  boardpuzzles {NAME} solve                      all 42 boards of the seed puzzle, as found
  boardpuzzles {NAME} solve --limit 1 --svg b.svg
  boardpuzzles {NAME} solve --unique --swap-colours
  boardpuzzles {NAME} solve --colours 1 --size 8 --limit 3 --json

{EXIT_CODES_HELP}""",
    )
    @rules_options
    @click.option("--limit", type=COUNT, default=None, metavar="K", help="Stop after K boards.")
    @click.option("--unique", is_flag=True, help="One board per class of the 8 symmetries of the square.")
    @click.option("--swap-colours", is_flag=True, help="With --unique: colour relabellings identify boards too.")
    @json_option
    @click.option("--svg", "svg_path", type=OUTPUT_PATH, metavar="PATH", help="Also draw the boards into an SVG file.")
    def solve(size, colours, max_in_line, stones, limit, unique, swap_colours, as_json, svg_path) -> None:
        """Print the placements, one board after another, as they are found."""
        rules = _rules(size, colours, max_in_line, stones)
        if swap_colours and not unique:
            raise click.UsageError("--swap-colours goes with --unique")
        if svg_path:
            check_writable(svg_path)
        found = lt3.solutions(rules, unique=unique, swap_colours=swap_colours)
        boards = stream_boards(found, lambda board: lt3.violations(board, rules), limit, as_json)
        if as_json:
            emit_json(
                {
                    "puzzle": NAME,
                    "rules": _rules_json(rules),
                    "unique": unique,
                    "swap_colours": swap_colours,
                    "count": len(boards),
                    "solutions": [b.rows() for b in boards],
                }
            )
        if svg_path and boards:
            write_boards_svg(svg_path, boards)
        if not boards:
            note(f"no placement exists: {rules.describe()}")
            raise CommandResult(EXIT_NEGATIVE)

    @group.command(
        "count",
        context_settings=command_settings(),
        epilog=f"""{WHAT_IS_COUNTED}

\b
Examples:
  boardpuzzles {NAME} count                         42
  boardpuzzles {NAME} count --unique --swap-colours
  boardpuzzles {NAME} count --colours 1 --size 10   1135 (OEIS A000755)
  boardpuzzles {NAME} count --colours 3 --size 6

{EXIT_CODES_HELP}""",
    )
    @rules_options
    @click.option("--unique", is_flag=True, help="Count classes under the 8 symmetries of the square.")
    @click.option("--swap-colours", is_flag=True, help="With --unique: colour relabellings identify boards too.")
    @count_options
    def count(size, colours, max_in_line, stones, unique, swap_colours, jobs, quiet, as_json) -> None:
        """Print the number of placements (see below for exactly what is counted)."""
        rules = _rules(size, colours, max_in_line, stones)
        if swap_colours and not unique:
            raise click.UsageError("--swap-colours goes with --unique")
        jobs = jobs or default_jobs()
        if unique:

            def compute(bar):
                return lt3.count_classes(rules, swap_colours=swap_colours, jobs=jobs, progress=bar)
        else:

            def compute(bar):
                return lt3.count(rules, jobs=jobs, progress=bar)

        value, seconds = run_count(f"{NAME} {size}x{size}", quiet, compute)
        if value == 0:
            note(f"no placement exists: {rules.describe()}")
        emit_count(
            {
                "puzzle": NAME,
                "rules": _rules_json(rules),
                "unique": unique,
                "swap_colours": swap_colours,
                "count": value,
                "jobs": jobs,
            },
            as_json,
            seconds,
        )

    @group.command(
        "find",
        context_settings=command_settings(),
        epilog=f"""Looks for ONE one-colour board
with K stones in every row on a large board, where counting every board is out of reach. It
searches symmetric boards first: turned by 90 degrees (where the stone count allows it), turned
by 90 degrees except on the diagonals, which turn by 180 (the form of the large known
solutions), then, on smaller boards, turned by 180 and any board. It takes the row or column
with the least room first, tries random orders with restarts, and runs --jobs searches side by
side until one finds a board or the time runs out. On 2 cores boards up to 30 take seconds,
and up to 36 nearly always under a minute; larger ones may need a much longer --time-limit, or
may not be found at all (the largest known, 60, took a cluster).

\b
Examples:
  boardpuzzles {NAME} find --size 20
  boardpuzzles {NAME} find --size 24 --svg big.svg
  boardpuzzles {NAME} find --size 17 --seed 3 --json
\b
Exit codes:
  0    found (the board is on stdout)
  1    no such board exists (the search was complete)
  2    bad input or usage
  3    gave up when the time limit ran out (nothing proven)""",
    )
    @click.option("--size", "-n", type=Whole(), required=True, metavar="N", help="Board side.")
    @click.option(
        "--colours", "-c", type=Whole(), default=1, show_default=True, metavar="C", help="Only 1 is supported."
    )
    @click.option("--max-in-line", "-k", type=Whole(), default=2, show_default=True, metavar="K")
    @click.option(
        "--time-limit",
        type=SECONDS,
        default=60.0,
        show_default=True,
        metavar="S",
        help="Give up after S seconds.",
    )
    @click.option(
        "--seed",
        type=SEED,
        default=0,
        show_default=True,
        help="Seed of the random orders (the same seed finds the same board with --jobs 1).",
    )
    @jobs_option
    @json_option
    @click.option("--svg", "svg_path", type=OUTPUT_PATH, metavar="PATH", help="Also draw the board into an SVG file.")
    def find(size, colours, max_in_line, time_limit, seed, jobs, as_json, svg_path) -> None:
        """Find one board on a large size quickly (one colour)."""
        if colours != 1:
            raise click.UsageError("find works with one colour only (--colours 1)")
        rules = _rules(size, colours, max_in_line, None)
        if svg_path:
            check_writable(svg_path)
        jobs = jobs or default_jobs()
        result = lt3.find(rules, time_limit=time_limit, seed=seed, jobs=jobs)
        if result.board is not None:
            problems = lt3.violations(result.board, rules)  # re-checked, as every answer is
            if problems:
                raise RuntimeError(f"find returned a wrong board: {problems[0]}")
        summary = {
            "puzzle": NAME,
            "rules": _rules_json(rules),
            "found": result.board is not None,
            "symmetry": result.symmetry,
            "attempts": result.attempts,
            "jobs": jobs,
            "seconds": round(result.seconds, 3),
            "solutions": [result.board.rows()] if result.board is not None else [],
        }
        if as_json:
            emit_json(summary)
        elif result.board is not None:
            click.echo(spaced_rows(result.board.rows()))
        if result.board is not None:
            shape = (
                "searched without symmetry"
                if result.symmetry == lt3.NO_SYMMETRY
                else f"searched among boards symmetric under '{result.symmetry}'"
            )
            note(
                f"found a board ({shape}) after {result.attempts} attempt"
                f"{'s' if result.attempts > 1 else ''} in {result.seconds:.2f}s"
            )
            if svg_path:
                write_boards_svg(
                    svg_path, [result.board], [f"{size}x{size}, found among boards symmetric under '{result.symmetry}'"]
                )
            return
        if result.complete:
            note(f"no board exists: {rules.describe()} (the search was complete)")
            raise CommandResult(EXIT_NEGATIVE)
        note(
            f"gave up after {result.seconds:.0f}s and {result.attempts} attempts without a board; "
            f"nothing is proven: try a longer --time-limit or another --seed"
        )
        raise CommandResult(EXIT_PARTIAL)

    @group.command(
        "check",
        context_settings=command_settings(),
        epilog=f"""\b
The picture has one line per row: X, O (then A, B, ...) for stones, '.' or space for empty,
optionally separated by spaces as `solve` prints them. The size is read from the picture.
\b
Examples:
  boardpuzzles {NAME} solve --limit 1 > mine.txt
  boardpuzzles {NAME} check mine.txt
  boardpuzzles {NAME} check --colours 1 --stones 16 eight.txt
\b
Exit codes:
  0    a solution
  1    not a solution (each problem is listed)
  2    unreadable picture or bad options""",
    )
    @click.argument("file", metavar="FILE|-")
    @click.option("--colours", "-c", type=Whole(), default=2, show_default=True, metavar="C")
    @click.option("--max-in-line", "-k", type=Whole(), default=2, show_default=True, metavar="K")
    @click.option("--stones", type=Whole(), default=None, metavar="S", help="Stones per colour (default K x N).")
    @json_option
    def check(file, colours, max_in_line, stones, as_json) -> None:
        """Tell whether a board picture is a solution, and if not, why."""
        board = parse_board(read_input(file))
        if board.grid.rows != board.grid.cols:
            raise click.UsageError(f"the picture is {board.grid.rows}x{board.grid.cols}; the board must be square")
        rules = _rules(board.grid.rows, colours, max_in_line, stones)
        problems = lt3.violations(board, rules)
        if as_json:
            emit_json({"puzzle": NAME, "rules": _rules_json(rules), "valid": not problems, "problems": problems})
        else:
            for problem in problems:
                click.echo(f"not a solution: {problem}")
            if not problems:
                click.echo(f"a solution: {rules.describe()}")
        if problems:
            raise CommandResult(EXIT_NEGATIVE)

    return group


def _rules_json(rules: lt3.Rules) -> dict:
    return {"size": rules.size, "colours": rules.colours, "max_in_line": rules.max_in_line, "stones": rules.per_colour}
