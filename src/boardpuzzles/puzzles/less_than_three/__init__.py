"""Less Than Three: stones of C colours on an n x n board, at most K of a colour on any line.

The seed puzzle (the first article of the series this project started from): 12 black and 12
white stones on 6x6, at most one stone per cell, no three stones of one colour on a straight
line: 42 placements. With one colour it is
Dudeney's no-three-in-line problem (OEIS A000755, A000769).

Glossary
--------
rules       :class:`Rules`, one member of the family (size, colours, K, stones); a
            :class:`Problem` adds what is counted (every board, or classes with ``unique``).
line        every straight line through at least K+1 cells of the board, of any slope: on 6x6 the
            slopes 1:2 and 2:1 count too. A direction (dr, dc) in lowest terms matters when
            K * max(|dr|, |dc|) <= n - 1.
colours     C >= 1; stones print as ``X`` (black), ``O`` (white), then ``A``, ``B``, ...
stones      S per colour; at most K * n fit (each row is a line), which is the default.
classes     placements identified under the 8 symmetries of the square (``--unique``) and, with
            ``swap_colours``, under every relabelling of the colours too.
orbit       (find) cells that a board with a given symmetry holds all or none of: the 4 cells a
            quarter turn cycles through, or 2 for a half turn (see ``symmetry_orbits``).

Modules
-------
rules       :class:`Rules`, :class:`Problem` and the independent checker (``violations``)
search      the stone by stone search: its tables, ``solutions`` and ``count``
tuples      two or more colours with the most stones, as tuples of one-colour boards
store       the one-colour boards of a tuple count, kept beside its checkpoint
symmetry    the symmetry classes ``find`` searches and their orbits
cell_find   one board by the cell search among symmetric boards
orbit_find  one board on large sizes by the orbits of its class (``less-than-three find``)
formats     answers as JSON, pictures and scenes
"""

from __future__ import annotations

from boardpuzzles.board import Board
from boardpuzzles.protocol import Example, Param, Puzzle, play_in
from boardpuzzles.puzzles.less_than_three.cell_find import FIND_BUDGET_UNIT, MAX_FIND_BUDGET, FindResult, find
from boardpuzzles.puzzles.less_than_three.counting import _classes_work as _classes_work  # the plan's names
from boardpuzzles.puzzles.less_than_three.counting import _count_work as _count_work
from boardpuzzles.puzzles.less_than_three.counting import count
from boardpuzzles.puzzles.less_than_three.formats import answer_from_json, answer_to_json, read_answer, to_scene
from boardpuzzles.puzzles.less_than_three.rules import (
    COLOUR_LETTERS,
    MAX_SIZE,
    PLAN_VERSION,
    SEED,
    Problem,
    Rules,
    check,
    describe,
    identity,
    to_board,
    violations,
)
from boardpuzzles.puzzles.less_than_three.search import CHUNK, MAX_PREFIXES, group_order, line_tables, solutions
from boardpuzzles.puzzles.less_than_three.symmetry import (
    FIND_SYMMETRIES,
    NO_SYMMETRY,
    ROTATE_90,
    ROTATE_90_DIAGONALS_180,
    ROTATE_180,
    symmetry_orbits,
)
from boardpuzzles.puzzles.less_than_three.tuples import TUPLE_PIECES, one_colour_solutions, through_one_colour

__all__ = [
    "CHUNK",
    "COLOUR_LETTERS",
    "FIND_BUDGET_UNIT",
    "FIND_SYMMETRIES",
    "MAX_FIND_BUDGET",
    "MAX_PREFIXES",
    "MAX_SIZE",
    "NO_SYMMETRY",
    "PLAN_VERSION",
    "PUZZLE",
    "ROTATE_90",
    "ROTATE_90_DIAGONALS_180",
    "ROTATE_180",
    "SEED",
    "TUPLE_PIECES",
    "FindResult",
    "Problem",
    "Rules",
    "answer_from_json",
    "answer_to_json",
    "check",
    "count",
    "describe",
    "find",
    "group_order",
    "identity",
    "line_tables",
    "one_colour_solutions",
    "read_answer",
    "solutions",
    "symmetry_orbits",
    "through_one_colour",
    "to_board",
    "to_scene",
    "violations",
]


def _problem(
    n: int = 6,
    colours: int = 2,
    max_in_line: int = 2,
    stones: int | None = None,
    unique: bool = False,
    swap_colours: bool = False,
) -> Problem:
    return Problem(Rules(n, colours, max_in_line, stones), unique, swap_colours)


def _warm_orbit_find() -> None:
    """The orbit search of large boards (`find 22` and up), stopped after a second at most."""
    from boardpuzzles.limits import Limits, TimeLimitReached
    from boardpuzzles.puzzles.less_than_three.orbit_find import FIRST_SIZE, find_in_class

    limits = Limits(time_limit=1)
    try:
        find_in_class(Rules(FIRST_SIZE, 1), limits)
    except TimeLimitReached:
        pass  # compiled: the search itself is not the point
    finally:
        limits.close()  # its timer


#: The warmup's independent parts (``boardpuzzles warmup`` compiles them at the same time).
_WARMUP = (
    lambda: count(Problem(Rules(4, 1))),
    lambda: count(Problem(Rules(4, 1), unique=True)),
    lambda: next(solutions(Problem(Rules(4, 1))), None),
    lambda: find(Rules(4, 1)),
    lambda: count(Problem(Rules(4, 2))),  # several colours: disjoint one-colour boards
    _warm_orbit_find,
)


PUZZLE: Puzzle[Problem, Board] = Puzzle(
    name="less-than-three",
    display_name="Less Than Three",
    title="stones of C colours, never K+1 of a colour on any straight line",
    description="Less Than Three: C colours of stones on an N x N board, never more than K of a colour on "
    "a straight line of any slope (not only rows, columns and diagonals: on 6x6 the slopes 1:2 and 2:1 "
    "count too). The seed puzzle: 12 black (X) and 12 white (O) stones on 6x6, no three of a colour "
    "in a line. With one colour it is Dudeney's no-three-in-line problem (OEIS A000755, A000769).",
    params=(
        Param("n", "side", "the board's side", 6, positional=True, metavar="N", maximum=MAX_SIZE),
        Param("colours", "int", "Number of colours (1: no-three-in-line).", 2, short="-c", metavar="C", minimum=1),
        Param(
            "max_in_line",
            "int",
            "At most K stones of one colour on any line.",
            2,
            short="-k",
            metavar="K",
            minimum=1,
            maximum=MAX_SIZE,
        ),
        Param(
            "stones",
            "int",
            "Stones per colour (default: the most possible, K x N).",
            None,
            metavar="S",
            minimum=0,
            maximum=MAX_SIZE * MAX_SIZE,
        ),
        Param("unique", "flag", "One board per class of the 8 rotations and reflections of the square.", False),
        Param("swap_colours", "flag", "With --unique: colour relabellings identify boards too.", False),
    ),
    problem=_problem,
    solutions=solutions,
    count=count,
    violations=violations,
    to_scene=to_scene,
    answer_to_json=answer_to_json,
    answer_from_json=answer_from_json,
    read_answer=read_answer,
    describe=describe,
    identity=identity,
    check_params=("colours", "max_in_line", "stones"),
    small="",
    small_count=42,
    small_source="the seed article",
    slow="16 --colours 1",
    examples=(
        Example("solve --limit 1"),
        Example("find 23"),
        Example("count", 42, "the seed article"),
        Example("count --unique"),
        Example("count 10 --colours 1", 1135, "OEIS A000755"),
        Example("count 9 --colours 1 --unique", 51, "OEIS A000769"),
    ),
    warmup=_WARMUP,
    play=play_in("boardpuzzles.puzzles.less_than_three.play"),
)
