"""Knight's tours: a knight visits every square of a board once.

Glossary
--------
problem
    :class:`Problem`: the board (rows x cols), and what is searched: open or ``closed`` tours,
    from one ``start`` square or from every square, ``undirected`` (each path once) or not.
tour
    The squares in the order the knight visits them (row 0 on top, see :mod:`boardpuzzles.grid`);
    consecutive squares are a knight's move apart. The searches yield tuples of cells (``Tour``);
    what the package hands out (the record's answers, ``find``'s tour) is an
    :class:`~boardpuzzles.answers.Path`, which reads as that tuple and draws itself in a notebook.
open / closed
    A closed tour also ends a knight's move from its first square, so it is a cycle.
directed
    A tour is a sequence with a first square: read backwards it is another tour. Counts are
    directed unless ``undirected`` is asked for, which counts each path (or cycle) once. A
    closed tour counted with every start and both directions appears 2 x squares times.
start
    The first square. Counting "every start" sums the tours over all first squares.
forced end
    While searching, an unvisited square with a single way left in must be the last square;
    two of them, or a square with no way in, end the branch (see ``_kernels.knights_tour``).
frontier
    The closed-tour counter sweeps the board square by square and only remembers, for the
    squares near the sweep line, how many tour edges each has and where its path ends.

Roads not taken: Graphillion-style ZDDs of all paths (memory grows with the answer; see the
benchmark), and counting closed tours by backtracking (exponentially slower than the frontier
dynamic program; it stays as the cross-check in the tests).

Modules
-------
rules       :class:`Problem`, the knight's move tables, the independent checker
            (``violations``), ``no_tour_reason`` and the board's symmetry
counting    ``count`` and ``solutions``: open tours by the exhaustive search
closed      the closed-tour count: the frontier sweep from both ends and its subtasks
finding     ``find``: one tour on boards of any size (Warnsdorff, closed by rotations)
formats     reading a tour, the board of move numbers, the scene, answers as JSON
"""

from __future__ import annotations

from boardpuzzles.answers import Path
from boardpuzzles.inputs import MAX_ANSWER_BYTES
from boardpuzzles.protocol import Example, Param, Puzzle, play_in
from boardpuzzles.puzzles.knights_tour.closed import _SWEEPS as _SWEEPS
from boardpuzzles.puzzles.knights_tour.closed import _SWEEPS_LOCK as _SWEEPS_LOCK
from boardpuzzles.puzzles.knights_tour.closed import PLAN_VERSIONS, closed_sweep_report
from boardpuzzles.puzzles.knights_tour.closed import _closed_piece as _closed_piece
from boardpuzzles.puzzles.knights_tour.closed import _closed_share as _closed_share
from boardpuzzles.puzzles.knights_tour.counting import (
    CLOSED_PIECES,
    MAX_COUNT_SQUARES,
    SUBTASKS_PER_START,
    SWEEP_FROM_SQUARES,
    count,
    count_closed,
    solutions,
    validate_count,
)
from boardpuzzles.puzzles.knights_tour.counting import _listed as _listed
from boardpuzzles.puzzles.knights_tour.counting import _met as _met
from boardpuzzles.puzzles.knights_tour.counting import _open_work as _open_work
from boardpuzzles.puzzles.knights_tour.counting import _swept as _swept
from boardpuzzles.puzzles.knights_tour.counting import _tours_from as _tours_from
from boardpuzzles.puzzles.knights_tour.finding import (
    EXACT_FIND_SQUARES,
    MAX_FIND_SQUARES,
    FindResult,
    find,
)
from boardpuzzles.puzzles.knights_tour.formats import _NUMBERED as _NUMBERED
from boardpuzzles.puzzles.knights_tour.formats import (
    TEXT_BLOCK,
    answer_from_json,
    answer_to_json,
    as_path,
    parse_tour,
    picture,
    read_answer,
    to_scene,
    tours,
    view,
)
from boardpuzzles.puzzles.knights_tour.formats import _answer_text as _answer_text
from boardpuzzles.puzzles.knights_tour.formats import _numbered_tour as _numbered_tour
from boardpuzzles.puzzles.knights_tour.formats import _problem as _problem
from boardpuzzles.puzzles.knights_tour.frontier import (
    CLOSED_PLAN_VERSION,
    FRONTIER_MEMORY_SHARE,
    MAX_FRONTIER_SIDE,
    SweepRow,
    frontier_memory,
)
from boardpuzzles.puzzles.knights_tour.frontier import sweep_plan as closed_plan
from boardpuzzles.puzzles.knights_tour.open_sweep import _open_share as _open_share
from boardpuzzles.puzzles.knights_tour.open_sweep import _open_sweep as _open_sweep
from boardpuzzles.puzzles.knights_tour.rules import (
    Problem,
    Tour,
    board,
    check,
    describe,
    identity,
    knight_moves,
    no_tour_reason,
    reach_masks,
    tour_violations,
    violations,
)
from boardpuzzles.puzzles.knights_tour.rules import _closing_squares as _closing_squares
from boardpuzzles.puzzles.knights_tour.rules import _is_tour as _is_tour
from boardpuzzles.puzzles.knights_tour.rules import _prefixes as _prefixes
from boardpuzzles.puzzles.knights_tour.rules import _squares_of as _squares_of
from boardpuzzles.puzzles.knights_tour.rules import _start_classes as _start_classes
from boardpuzzles.puzzles.knights_tour.rules import _symmetries as _symmetries
from boardpuzzles.puzzles.knights_tour.rules import _validate as _validate

__all__ = [
    "CLOSED_PIECES",
    "CLOSED_PLAN_VERSION",
    "EXACT_FIND_SQUARES",
    "FRONTIER_MEMORY_SHARE",
    "FindResult",
    "MAX_COUNT_SQUARES",
    "SWEEP_FROM_SQUARES",
    "MAX_FIND_SQUARES",
    "MAX_FRONTIER_SIDE",
    "PLAN_VERSIONS",
    "PUZZLE",
    "Problem",
    "SUBTASKS_PER_START",
    "SweepRow",
    "TEXT_BLOCK",
    "Tour",
    "answer_from_json",
    "answer_to_json",
    "as_path",
    "board",
    "check",
    "closed_plan",
    "closed_sweep_report",
    "count",
    "count_closed",
    "describe",
    "find",
    "frontier_memory",
    "identity",
    "knight_moves",
    "no_tour_reason",
    "parse_tour",
    "picture",
    "reach_masks",
    "read_answer",
    "solutions",
    "to_scene",
    "tour_violations",
    "tours",
    "validate_count",
    "view",
    "violations",
]


def _warm_halves() -> None:
    """The open halves' kernels (boards 7 wide), on a small board."""
    from boardpuzzles.limits import Limits
    from boardpuzzles.puzzles.knights_tour.closed import halves
    from boardpuzzles.puzzles.knights_tour.meeting import pair_piece

    limits = Limits()
    meeting = halves(5, 6, True, 4, limits)
    for piece in range(4):
        pair_piece(meeting, piece, limits, "5x6")


#: The warmup's independent parts (``boardpuzzles warmup`` compiles them at the same time).
_WARMUP = (
    lambda: count(Problem(5, 5, start=0)),
    lambda: count(Problem(5, 6, closed=True, undirected=True)),
    lambda: next(solutions(Problem(5, 5, start=0))),
    lambda: find(6, closed=True),
    _warm_halves,
)


MEMORY_HELP = (
    "Memory the count may hold, like 8G (default: half the computer's); past it the frontier sweep "
    "keeps its layers on disk in shards (`knights-tour estimate` sizes them)."
)

PUZZLE: Puzzle[Problem, Path] = Puzzle(
    name="knights-tour",
    display_name="Knight's tour",
    title="a knight visits every square once: list, count and find tours",
    description="A knight visits every square of a board once. SIZE is N (an N x N board) or RxC (R "
    "rows, C columns). A tour is a sequence of squares, so by default every tour is counted from each "
    "start square and in each direction (directed, OEIS A165134); --start counts those from one square, "
    "--undirected each path or cycle once, --closed the tours that end a knight's move from their start "
    "(--closed --undirected: OEIS A001230).",
    params=(
        Param("size", "size", "the board: N or RxC (rows x columns)", positional=True, metavar="SIZE"),
        Param("start", "text", "The first square, as a chess name (a1 is bottom left).", None, metavar="SQUARE"),
        Param("closed", "flag", "Closed tours only: the last square is a knight's move from the first.", False),
        Param("undirected", "flag", "Each path or cycle once, not once per direction and start.", False),
        Param("memory", "text", MEMORY_HELP, None, metavar="SIZE", commands=("count",)),
    ),
    problem=_problem,
    solutions=tours,
    count=count,
    violations=violations,
    to_scene=to_scene,
    answer_text=_answer_text,
    answer_to_json=answer_to_json,
    answer_from_json=answer_from_json,
    read_answer=read_answer,
    describe=describe,
    identity=identity,
    no_solution_reason=lambda p: no_tour_reason(p.rows, p.cols, p.closed, p.start),
    validate_count=validate_count,
    check_params=("size", "start", "closed"),
    answer_bytes=MAX_ANSWER_BYTES,
    small="5",
    small_count=1728,
    small_source="OEIS A165134",
    slow="7",
    examples=(
        Example("solve 5 --start a1 --limit 1"),
        Example("find 8 --closed"),
        Example("count 5 --start a1", 304, "the seed article"),
        Example("count 6", 6637920, "OEIS A165134"),
        Example("count 6 --closed --undirected", 9862, "OEIS A001230"),
        Example("count 3x10 --undirected", 3048, "OEIS A118067 (6096 directed)"),
    ),
    warmup=_WARMUP,
    play=play_in("boardpuzzles.puzzles.knights_tour.play"),
)
