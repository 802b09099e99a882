"""`boardpuzzles knights-tour ...`: solve, count, find and check knight's tours."""

from __future__ import annotations

import sys

import click

from boardpuzzles.cli.common import (
    COUNT,
    EXIT_CODES_HELP,
    EXIT_NEGATIVE,
    EXIT_PARTIAL,
    MAX_INPUT_BYTES,
    OUTPUT_PATH,
    CommandResult,
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
from boardpuzzles.grid import parse_size
from boardpuzzles.parallel import default_jobs
from boardpuzzles.puzzles import PUZZLES
from boardpuzzles.puzzles import knights_tour as kt

#: Boards with more squares than this are not printed to a terminal (a wall of numbers).
TERMINAL_SQUARES = 10_000
#: SVG pictures number the squares up to this size; larger ones show the path alone.
SVG_LABEL_SQUARES = 2_500

SIZE_HELP = "SIZE is N (an N x N board) or RxC (R rows, C columns), for example 6 or 3x8."

COUNT_EPILOG = f"""\b
What is counted (published counts differ by these factors):
  a tour is a sequence of squares, so by default every tour is counted from
  each start square and in each direction (directed);
  --start SQUARE   only the tours that begin on SQUARE;
  --undirected     each path or cycle once, whatever its start and direction;
  --closed         closed tours only (the last square is a knight's move from
                   the first). A closed tour counted directed from every start
                   appears 2 x squares times; --closed --undirected counts the
                   cycles themselves (OEIS A001230).
Known answers: 5x5 from a corner 304; 5 all starts 1728 and 6 all starts
6637920 (A165134); 6 from a corner 524486; 6 --closed --undirected 9862.
Open tours are counted on boards up to {kt.MAX_COUNT_SQUARES} squares, in many subtasks;
closed tours on boards with a side of at most {kt.MAX_FRONTIER_SIDE}, by one sweep on one core
(--jobs does not speed it up; --time-limit stops it between rows with nothing counted).
\b
Examples:
  boardpuzzles knights-tour count 5 --start a1
  boardpuzzles knights-tour count 6 --jobs 2
  boardpuzzles knights-tour count 6 --closed --undirected
  boardpuzzles knights-tour count 3x10 --undirected --json

{EXIT_CODES_HELP}"""


def _start(rows: int, cols: int, start: str | None, all_starts: bool) -> int | None:
    if start is not None and all_starts:
        raise click.UsageError("--start and --all-starts contradict each other; give one")
    return kt.board(rows, cols).cell_named(start) if start is not None else None  # '' is refused there


def _names(rows: int, cols: int, tour: kt.Tour) -> list[str]:
    grid = kt.board(rows, cols)
    return [grid.name(c) for c in tour]


def _convention(rows: int, cols: int, start: int | None, closed: bool, undirected: bool) -> str:
    kind = "closed" if closed else "open"
    if undirected:
        return f"{kind} tours of {rows}x{cols}, each {'cycle' if closed else 'path'} once"
    where = f"starting on {kt.board(rows, cols).name(start)}" if start is not None else "from every start square"
    return f"{kind} tours of {rows}x{cols}, directed, {where}"


def _write_svg(path: str, rows: int, cols: int, tours: list[kt.Tour], closed: bool, titles: list[str]) -> None:
    from boardpuzzles.render.scene import Scene
    from boardpuzzles.render.svg import sheet_svg

    grid = kt.board(rows, cols)
    numbered = rows * cols <= SVG_LABEL_SQUARES
    scenes = [
        Scene(
            grid,
            labels={c: str(i + 1) for i, c in enumerate(t)} if numbered else {},
            path=list(t) + ([t[0]] if closed else []),
            title=title,
            coordinates=numbered,
        )
        for t, title in zip(tours, titles)
    ]
    write_file_atomically(path, sheet_svg(scenes))
    note(f"wrote {len(tours)} tour{'s' if len(tours) > 1 else ''} to {path}")


def make_group() -> click.Group:
    @click.group(
        "knights-tour",
        short_help=PUZZLES["knights-tour"],
        context_settings={"help_option_names": ["-h", "--help"]},
        epilog="\b\nTry:\n  boardpuzzles knights-tour solve 5 --start a1 --limit 1\n"
        "  boardpuzzles knights-tour count 6 --start a1\n"
        "  boardpuzzles knights-tour find 1000 --closed --json > tour.json",
    )
    def group() -> None:
        """A knight visits every square of a board once: list, count and find tours."""

    size_arg = click.argument("size", metavar="SIZE")
    start_opt = click.option("--start", metavar="SQUARE", help="The first square, as a chess name (a1 is bottom left).")
    closed_opt = click.option(
        "--closed", is_flag=True, help="Closed tours only: the last square is a knight's move from the first."
    )

    @group.command(
        "solve",
        context_settings=command_settings(),
        epilog=f"""{SIZE_HELP}
Each tour is a board of move numbers (1 is the first square), as the seed
article prints them; boards are separated by a blank line. Without --start,
the tours from every square in turn.
\b
Examples:
  boardpuzzles knights-tour solve 5 --start a1            all 304 from a corner
  boardpuzzles knights-tour solve 5 --start a1 --limit 1  the first one
  boardpuzzles knights-tour solve 6 --closed --limit 2 --json
  boardpuzzles knights-tour solve 5 --start a1 --limit 4 --svg tours.svg

{EXIT_CODES_HELP}""",
    )
    @size_arg
    @start_opt
    @click.option("--all-starts", is_flag=True, help="Every start square (the default).")
    @closed_opt
    @click.option("--limit", type=COUNT, default=None, metavar="K", help="Stop after K tours.")
    @json_option
    @click.option("--svg", "svg_path", type=OUTPUT_PATH, metavar="PATH", help="Also draw the tours into an SVG file.")
    def solve(
        size: str,
        start: str | None,
        all_starts: bool,
        closed: bool,
        limit: int | None,
        as_json: bool,
        svg_path: str | None,
    ) -> None:
        """Print knight's tours of a board, one after another."""
        rows, cols = parse_size(size)
        first = _start(rows, cols, start, all_starts)
        if svg_path:
            check_writable(svg_path)
        tours = []
        for i, tour in enumerate(kt.solutions(rows, cols, first, closed)):
            problems = kt.violations(rows, cols, tour, closed)
            if problems:
                raise RuntimeError(f"the search returned a wrong tour: {problems[0]}")
            tours.append(tour)
            if not as_json:
                click.echo(("\n" if i else "") + kt.picture(rows, cols, tour))
            if limit and len(tours) >= limit:
                break
        if as_json:
            emit_json(
                {
                    "puzzle": "knights-tour",
                    "rows": rows,
                    "cols": cols,
                    "closed": closed,
                    "start": start,
                    "count": len(tours),
                    "tours": [_names(rows, cols, t) for t in tours],
                }
            )
        if svg_path and tours:
            _write_svg(svg_path, rows, cols, tours, closed, [f"#{i + 1}" for i in range(len(tours))])
        if not tours:
            note(
                kt.no_tour_reason(rows, cols, closed, first)
                or f"no {'closed' if closed else 'open'} tour of {rows}x{cols}"
                + (f" starts on {start}" if start else " exists")
            )
            raise CommandResult(EXIT_NEGATIVE)

    @group.command("count", context_settings=command_settings(), epilog=COUNT_EPILOG)
    @size_arg
    @start_opt
    @click.option("--all-starts", is_flag=True, help="Sum over every start square (the default).")
    @closed_opt
    @click.option("--undirected", is_flag=True, help="Count each path or cycle once, not once per direction and start.")
    @count_options
    def count(
        size: str,
        start: str | None,
        all_starts: bool,
        closed: bool,
        undirected: bool,
        jobs: int | None,
        quiet: bool,
        as_json: bool,
    ) -> None:
        """Print the number of knight's tours of a board (see below for what is counted)."""
        rows, cols = parse_size(size)
        first = _start(rows, cols, start, all_starts)
        kt.validate_count(rows, cols, first, closed, undirected)
        jobs = 1 if closed else jobs or default_jobs()  # a closed count is one sweep on one core
        reason = kt.no_tour_reason(rows, cols, closed, first)
        if reason:
            note(reason)
        elif not quiet and not as_json:
            note(f"counting {_convention(rows, cols, first, closed, undirected)}")
        value, seconds = run_count(
            f"knights-tour {rows}x{cols}",
            quiet,
            lambda bar: kt.count(rows, cols, first, closed, undirected, jobs=jobs, progress=bar),
        )
        emit_count(
            {
                "puzzle": "knights-tour",
                "rows": rows,
                "cols": cols,
                "start": start,
                "closed": closed,
                "undirected": undirected,
                "counted": _convention(rows, cols, first, closed, undirected),
                "count": value,
                "jobs": jobs,
            },
            as_json,
            seconds,
        )

    @group.command(
        "find",
        context_settings=command_settings(),
        epilog=f"""{SIZE_HELP}
Warnsdorff's rule (go where the fewest onward moves are left, ties towards
the edge), with Posa rotations when it gets stuck and to close a tour; on
boards of up to {kt.EXACT_FIND_SQUARES} squares an exhaustive search settles the rest. When
no tour exists (3x3, closed tours on 4xN, ...) it says why, and exits 1.
Boards over {TERMINAL_SQUARES:,} squares are not printed to a terminal: redirect
the output or use --json.
\b
Examples:
  boardpuzzles knights-tour find 8 --closed
  boardpuzzles knights-tour find 3x4 --start a1
  boardpuzzles knights-tour find 1000 --closed --json > tour.json

{EXIT_CODES_HELP}""",
    )
    @size_arg
    @closed_opt
    @start_opt
    @click.option(
        "--seed", type=Whole(0, kt.MAX_SEED), default=0, show_default=True, help="Seed for the randomised retries."
    )
    @json_option
    @click.option("--svg", "svg_path", type=OUTPUT_PATH, metavar="PATH", help="Also draw the tour into an SVG file.")
    def find(size: str, closed: bool, start: str | None, seed: int, as_json: bool, svg_path: str | None) -> None:
        """Find one knight's tour quickly, on boards of any size."""
        rows, cols = parse_size(size)
        first = _start(rows, cols, start, False)
        if svg_path:
            check_writable(svg_path)
        result = kt.find(rows, cols, closed, first, seed=seed)
        tour = result.tour
        if tour is not None:
            problems = kt.violations(rows, cols, tour, closed)
            if problems:
                raise RuntimeError(f"find returned a wrong tour: {problems[0]}")
        kind = "closed" if closed else "open"
        if as_json:
            emit_json(
                {
                    "puzzle": "knights-tour",
                    "rows": rows,
                    "cols": cols,
                    "closed": closed,
                    "start": start,
                    "found": tour is not None,
                    "method": result.method,
                    "reason": result.reason,
                    "seconds": round(result.seconds, 3),
                    "tour": _names(rows, cols, tour) if tour is not None else None,
                }
            )
        elif tour is not None:
            if rows * cols > TERMINAL_SQUARES and sys.stdout.isatty():
                note(f"the {rows}x{cols} board is too big to print here: redirect the output or use --json")
            else:
                click.echo(kt.picture(rows, cols, tour))
        if tour is not None:
            note(
                f"found a{'n' if kind == 'open' else ''} {kind} tour of {rows}x{cols} in {result.seconds:.2f} s "
                f"({result.method})"
            )
            if svg_path:
                _write_svg(svg_path, rows, cols, [tour], closed, [f"{kind} tour of {rows}x{cols}"])
            return
        note(result.reason or "no tour found")
        raise CommandResult(EXIT_NEGATIVE if result.complete else EXIT_PARTIAL)

    @group.command(
        "check",
        context_settings=command_settings(),
        epilog=f"""{SIZE_HELP}
The tour is either a board of move numbers, one row per line (as `solve` and
`find` print it), or a list of square names in order (a1 c2 e1 ...).
\b
Examples:
  boardpuzzles knights-tour solve 5 --start a1 --limit 1 > tour.txt
  boardpuzzles knights-tour check 5 tour.txt
\b
Exit codes:
  0    a tour
  1    not a tour (each problem is listed)
  2    unreadable input""",
    )
    @size_arg
    @click.argument("file", metavar="FILE|-")
    @closed_opt
    @json_option
    def check(size: str, file: str, closed: bool, as_json: bool) -> None:
        """Tell whether a tour is a knight's tour of the board, and if not, why."""
        rows, cols = parse_size(size)
        # A tour file holds a number or a name per square: 16 bytes a square is room for the
        # move numbers of a board as large as `find` makes, with spaces to spare.
        kt.board(rows, cols)  # a size beyond any board is refused before the file is read
        limit = MAX_INPUT_BYTES + 16 * min(rows * cols, kt.MAX_FIND_SQUARES)
        tour = kt.parse_tour(read_input(file, limit), rows, cols)
        problems = kt.violations(rows, cols, tour, closed)
        if as_json:
            emit_json({"puzzle": "knights-tour", "valid": not problems, "problems": problems})
        else:
            for problem in problems:
                click.echo(f"not a tour: {problem}")
            if not problems:
                click.echo(f"a{' closed' if closed else 'n open'} knight's tour of {rows}x{cols}")
        if problems:
            raise CommandResult(EXIT_NEGATIVE)

    return group
