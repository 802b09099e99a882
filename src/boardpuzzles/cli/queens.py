"""`boardpuzzles hyperqueen ...` and `boardpuzzles queens ...`: one command group per board kind."""

from __future__ import annotations

import click

from boardpuzzles.board import parse_board
from boardpuzzles.cli.common import (
    COUNT,
    EXIT_CODES_HELP,
    EXIT_NEGATIVE,
    OUTPUT_PATH,
    CommandResult,
    OneOf,
    check_writable,
    command_settings,
    count_options,
    emit_count,
    emit_json,
    json_option,
    note,
    read_input,
    run_count,
    size_argument,
    stream_boards,
    write_boards_svg,
)
from boardpuzzles.parallel import default_jobs
from boardpuzzles.puzzles import PUZZLES, hyperqueen, queens

GROUP_HELP = {
    "torus": "rotations, reflections and torus shifts (OEIS A053994)",
    "multipliers": "also (r,c)->(u*r,u*c) for units u mod N (OEIS A062166)",
    "full": "also the 45-degree map (r,c)->(r+c,r-c) (unpublished)",
    "dihedral": "the 8 rotations and reflections of the square (OEIS A002562)",
}


class Variant:
    """What differs between the classic board and the torus."""

    def __init__(self, torus: bool) -> None:
        self.torus = torus
        self.name = "hyperqueen" if torus else "queens"
        self.groups = hyperqueen.GROUPS if torus else ("dihedral",)
        self.default_group = self.groups[0]
        # Both modules offer solutions(n, group=), count(n, jobs=, progress=) and count_classes.
        self.module = hyperqueen if torus else queens

    def none_reason(self, n: int) -> str | None:
        return hyperqueen.polya_reason(n) if self.torus else None


def _solve_epilog(v: Variant) -> str:
    return f"""\b
Examples:
  boardpuzzles {v.name} solve 7              every placement, as the seed prints them
  boardpuzzles {v.name} solve 8 --limit 1    the first one only
  boardpuzzles {v.name} solve 7 --unique     one placement per symmetry class
  boardpuzzles {v.name} solve 7 --json       {{"solutions": [["Q......", ...], ...]}}
  boardpuzzles {v.name} solve 7 --svg q.svg  also draw them

{EXIT_CODES_HELP}"""


def _count_epilog(v: Variant) -> str:
    unique = (
        "classes under rotations, reflections and torus shifts (A053994)"
        if v.torus
        else "classes under the 8 symmetries of the square (A002562)"
    )
    known = "N=7: 28, N=13: 4524, N=17: 140692 (OEIS A051906)" if v.torus else "N=8: 92, N=12: 14200 (OEIS A000170)"
    return f"""Counts every placement, rotations, mirror images{" and shifts" if v.torus else ""} included:
{known}. With --unique it counts {unique}.

\b
Examples:
  boardpuzzles {v.name} count {13 if v.torus else 8}
  boardpuzzles {v.name} count {13 if v.torus else 8} --unique{
        '''
  boardpuzzles hyperqueen count 13 --unique --group multipliers'''
        if v.torus
        else ""
    }
  boardpuzzles {v.name} count {19 if v.torus else 14} --jobs 2 --json

{EXIT_CODES_HELP}"""


def make_group(torus: bool) -> click.Group:
    v = Variant(torus)
    title = (
        hyperqueen.__doc__.splitlines()[0]
        if torus
        else "The classic puzzle: N queens on an N x N board, none attacking another."
    )

    @click.group(
        v.name,
        help=title,
        short_help=PUZZLES[v.name],
        context_settings={"help_option_names": ["-h", "--help"]},
        epilog=f"\b\nTry:\n  boardpuzzles {v.name} solve {7 if torus else 8}\n"
        f"  boardpuzzles {v.name} count {13 if torus else 12}",
    )
    def group() -> None:
        pass

    group_option = click.option(
        "--group",
        type=OneOf(v.groups),
        default=v.default_group,
        show_default=True,
        help="Symmetry group for --unique: " + "; ".join(f"{g}: {GROUP_HELP[g]}" for g in v.groups) + ".",
    )

    @group.command("solve", context_settings=command_settings(), epilog=_solve_epilog(v))
    @size_argument()
    @click.option("--limit", type=COUNT, default=None, metavar="K", help="Stop after K placements.")
    @click.option("--unique", is_flag=True, help="Keep one placement per symmetry class (see --group).")
    @group_option
    @json_option
    @click.option(
        "--svg", "svg_path", type=OUTPUT_PATH, metavar="PATH", help="Also draw the placements into an SVG file."
    )
    def solve(n: int, limit: int | None, unique: bool, group: str, as_json: bool, svg_path: str | None) -> None:
        """Print the placements of N queens, one board after another."""
        queens.validate_size(n)
        if svg_path:
            check_writable(svg_path)  # fail before the search, not after it
        found = v.module.solutions(n, group=group if unique else None)
        boards = stream_boards((queens.to_board(n, p, torus) for p in found), queens.board_violations, limit, as_json)
        if as_json:
            emit_json(
                {
                    "puzzle": v.name,
                    "n": n,
                    "group": group if unique else None,
                    "count": len(boards),
                    "solutions": [b.rows() for b in boards],
                }
            )
        if svg_path and boards:
            write_boards_svg(svg_path, boards)
        if not boards:
            note(v.none_reason(n) or f"no placement of {n} queens exists on the {n}x{n} board")
            raise CommandResult(EXIT_NEGATIVE)

    @group.command("count", context_settings=command_settings(), epilog=_count_epilog(v))
    @size_argument()
    @click.option("--unique", is_flag=True, help="Count symmetry classes instead (see --group).")
    @group_option
    @count_options
    def count(n: int, unique: bool, group: str, jobs: int | None, quiet: bool, as_json: bool) -> None:
        """Print the number of placements of N queens."""
        queens.validate_size(n)
        reason = v.none_reason(n)
        if reason:
            note(reason)
        jobs = jobs or default_jobs()
        label = f"{v.name} {n}" + (f" ({group} classes)" if unique else "")

        def compute(bar):
            if unique:
                return v.module.count_classes(n, group, jobs=jobs, progress=bar)
            return v.module.count(n, jobs=jobs, progress=bar)

        value, seconds = run_count(label, quiet, compute)
        emit_count(
            {"puzzle": v.name, "n": n, "count": value, "group": group if unique else None, "jobs": jobs},
            as_json,
            seconds,
        )

    @group.command(
        "check",
        context_settings=command_settings(),
        epilog=f"""\b
The picture has one line per row: Q (or any letter) for a queen, '.' or space for
an empty cell, optionally separated by spaces as `solve` prints them.
\b
Examples:
  boardpuzzles {v.name} solve {7 if torus else 8} --limit 1 > mine.txt
  boardpuzzles {v.name} check mine.txt
\b
Exit codes:
  0    a solution
  1    not a solution (each problem is listed)
  2    unreadable picture""",
    )
    @click.argument("file", metavar="FILE|-")
    @json_option
    def check(file: str, as_json: bool) -> None:
        """Tell whether a board picture is a solution, and if not, why."""
        board = parse_board(read_input(file), torus=torus)
        problems = queens.board_violations(board)
        if as_json:
            emit_json({"puzzle": v.name, "valid": not problems, "problems": problems})
        else:
            for problem in problems:
                click.echo(f"not a solution: {problem}")
            if not problems:
                click.echo(f"a solution: {board.grid.rows} queens, none attacking another")
        if problems:
            raise CommandResult(EXIT_NEGATIVE)

    return group
