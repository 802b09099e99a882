"""N queens on an n x n board: the classic puzzle, and on a torus (see :mod:`..hyperqueen`).

Glossary
--------
problem
    :class:`Problem`: the size ``n``, whether the board is a torus, and ``group``: when set, one
    placement per class under that symmetry group is listed and counted.
placement
    A tuple of n columns, ``placement[r]`` = the column of the queen in row r (row 0 on top).
    Any solution has one queen per row, so this loses nothing; answers are boards (``Q`` on
    each queen's cell), which can also hold what is not a solution (for the checker).
attack
    Two queens attack each other when they share a row, a column or a diagonal; on a torus the
    diagonals wrap around the edges (see :mod:`boardpuzzles.grid`).
class
    The placements that a symmetry group maps onto each other; classes are counted by finding,
    in each class, the one placement that is the least image of itself.

Where things are: the rules and the checker (:mod:`.rules`), the construction of ``queens
find`` (:mod:`.construction`), the plain-Python search of small boards (:mod:`.plain`), the plans
of the classic count and of its classes (:mod:`.classic`), the torus orbit search
(:mod:`.torus`); here, the searches and counts that choose between them, and the protocol. The
counts' work function lives here: a checkpoint's plan is bound to its name.

Roads not taken: a dancing-links exact-cover solver (slower than bitmasks for this shape), and
storing every solution to count classes (memory grows with the answer; least images need none).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.board import Board, parse_board
from boardpuzzles.limits import Limits
from boardpuzzles.parallel import Subtask, run_subtasks
from boardpuzzles.protocol import (
    Example,
    Param,
    Puzzle,
    board_scene,
    dataclass_json,
    pieces_from_json,
    pieces_to_json,
    play_in,
)
from boardpuzzles.puzzles.queens.classic import (
    BORDER_MAX_N,
    BORDER_SUBTASKS,
    border_branching,
    border_starts,
    classic_class_subtasks,
    classic_subtasks,
)
from boardpuzzles.puzzles.queens.construction import construct
from boardpuzzles.puzzles.queens.plain import plain_placements
from boardpuzzles.puzzles.queens.rules import (
    GROUP_HELP,
    GROUP_WORDS,
    MAX_N,
    NAME,
    QUEEN,
    TORUS_GROUPS,
    TORUS_NAME,
    Placement,
    Problem,
    describe,
    no_solution_reason,
    placement_violations,
    polya_reason,
    to_board,
    validate_size,
    violations,
)
from boardpuzzles.puzzles.queens.torus import (
    TORUS_LEVELS,
    OrbitTables,
    TorusOrbits,
    orbit_tables,
    torus_attack_table,
    torus_orbit_run,
    torus_orbit_subtasks,
    torus_orbits,
)

__all__ = [
    "BORDER_MAX_N",
    "BORDER_SUBTASKS",
    "GROUP_HELP",
    "GROUP_WORDS",
    "MAX_N",
    "NAME",
    "PLAIN_MAX_N",
    "PLAN_VERSION",
    "PUZZLE",
    "QUEEN",
    "TORUS_GROUPS",
    "TORUS_LEVELS",
    "TORUS_NAME",
    "OrbitTables",
    "Placement",
    "Problem",
    "TorusOrbits",
    "answer_from_json",
    "answer_to_json",
    "board_scene",
    "border_branching",
    "border_starts",
    "construct",
    "count",
    "count_subtasks",
    "describe",
    "no_solution_reason",
    "orbit_tables",
    "placement_violations",
    "placements",
    "plain_placements",
    "polya_reason",
    "problem_identity",
    "read_answer",
    "solutions",
    "to_board",
    "torus_attack_table",
    "torus_orbit_run",
    "torus_orbit_subtasks",
    "torus_orbits",
    "validate_size",
    "violations",
]


# ------------------------------------------------------------------ searching
def _kernels() -> Any:
    from boardpuzzles._kernels import queens as kernels  # numba loads only when a search runs

    return kernels


def placements(problem: Problem, limits: Limits | None = None) -> Iterator[Placement]:
    """Every placement, in lexicographic order (row 0's column first, as the seed prints them);
    with ``problem.group``, only the least image of each class (one per class). Lazy: stop
    iterating and the search stops."""
    limits = limits if limits is not None else Limits()
    if problem.torus and polya_reason(problem.n):
        return
    n, torus = problem.n, problem.torus
    if problem.group is None and n <= PLAIN_MAX_N:
        yield from plain_placements(n, torus, limits)
        return
    kernels = _kernels()
    maps = problem.grid.group(problem.group).matrices() if problem.group else None
    chunk = 2048
    out = np.empty((chunk, n), dtype=np.int64)
    candidate = np.empty(n, dtype=np.int64)
    pending: list[tuple[int, ...]] = [()]
    while pending:
        prefix = pending.pop()
        found = kernels.row_order_search(n, torus, np.array(prefix, dtype=np.int64), out, chunk + 1, limits.flag)
        if found == kernels.STOPPED:
            limits.raise_stop()
        if found > chunk:
            # Too many to hold at once: split by the next row, keeping lexicographic order.
            pending.extend((*prefix, c) for c in reversed(range(n)))
            continue
        for i in range(found):
            if maps is None or kernels.is_least_image(out[i], maps, torus, candidate):
                yield tuple(int(c) for c in out[i])


#: Up to this size, every placement is listed by plain Python (:func:`plain_placements`) rather
#: than by the kernels: at most a few tens of milliseconds of search, less than loading numba takes.
PLAIN_MAX_N = 11


def solutions(problem: Problem, limits: Limits | None = None) -> Iterator[Board]:
    """Every solution as a board, in the order of :func:`placements`."""
    for placement in placements(problem, limits):
        yield to_board(problem, placement)


def count_subtasks(n: int, torus: bool, what: str = "placements") -> tuple[list[Subtask], int]:
    """Subtasks whose weighted counts, divided by the returned unit, add up to the number of
    placements, or of classes: ``what`` is ``placements`` or a group (``dihedral`` on the
    classic board, one of ``TORUS_GROUPS`` on the torus).

    Classic board: :func:`~boardpuzzles.puzzles.queens.classic.classic_subtasks`; its classes
    follow from Burnside's lemma (:func:`~boardpuzzles.puzzles.queens.classic.classic_class_subtasks`).
    Torus: one search per orbit of the largest group (see :func:`torus_orbit_subtasks`).
    """
    validate_size(n)
    if torus:
        return torus_orbit_subtasks(n, what), 1
    if what == "dihedral":
        return classic_class_subtasks(n), 8
    return classic_subtasks(n), 1


#: Bumped when what a subtask spec means changes (checkpoints of other versions are refused).
#: 2: torus subtasks are least-image starts of the orbit search (were prefixes of rows 0..2).
PLAN_VERSION = 2


def _count_work(spec: tuple[Any, ...], limits: Limits) -> int:
    kernels = _kernels()
    if spec[0] == "border":
        _, n, starts = spec
        table = np.array(starts, dtype=np.int64).reshape(-1, 5)
        found = int(kernels.classic_border_count(n, table[:, :4].copy(), table[:, 4].copy(), limits.flag)[0])
    elif spec[0] == "board":
        _, n, prefix = spec
        found = int(kernels.classic_count(n, np.array(prefix, dtype=np.int64), limits.flag))
    elif spec[0] == "turn":
        _, n, quarter = spec
        found = int(kernels.classic_turn_count(n, quarter, limits.flag)[0])
    elif spec[0] == "mirror":  # placements a reflection fixes: only the single queen of n = 1
        found = 1 if spec[1] == 1 else 0
    elif spec[0] == "torus-plain":  # n < 5: at most one placement (n = 1), a class of its own
        found = sum(1 for _ in plain_placements(spec[1], True, limits))
    else:
        _, n, what, a, c2, c3, last = spec
        out, steps = torus_orbit_run(n, [(0, 0), (1, a), (2, c2), (3, c3), (n - 1, last)], limits.flag)
        found = kernels.STOPPED if steps == kernels.STOPPED else int(out[_OUTPUT[what]])
    if found == kernels.STOPPED:
        limits.raise_stop()
    return found


_OUTPUT = {"placements": 0} | {group: 1 + level for level, group in enumerate(TORUS_LEVELS)}


def count(problem: Problem, limits: Limits | None = None) -> int:
    """The number of placements (every rotation, mirror image and shift counted), or of classes
    when ``problem.group`` is set."""
    limits = limits if limits is not None else Limits()
    n, torus = problem.n, problem.torus
    if torus and polya_reason(n):
        return 0
    if problem.group is None and n <= PLAIN_MAX_N and limits.checkpoint is None and limits.scheduler is None:
        return sum(1 for _ in plain_placements(n, torus, limits))
    subtasks, unit = count_subtasks(n, torus, problem.group or "placements")
    return run_subtasks(_count_work, subtasks, limits, identity=problem_identity(problem), unit=unit)


def problem_identity(problem: Problem) -> dict[str, Any]:
    """What a count's checkpoint is bound to: the puzzle (``queens``, or ``hyperqueen`` on the
    torus) and the problem, as the two PUZZLEs' ``problem_identity`` give it (the tests hold them
    equal), so that this package never reaches up to :mod:`..hyperqueen`."""
    return {"puzzle": TORUS_NAME if problem.torus else NAME, "problem": dataclass_json(problem)}


# ------------------------------------------------------------------ the protocol
def answer_to_json(problem: Problem, board: Board) -> dict[str, list[str]]:
    return pieces_to_json(board)


def answer_from_json(problem: Problem, document: Any) -> Board:
    return pieces_from_json(problem.grid, document, QUEEN)


def read_answer(values: Mapping[str, Any], text: str | None, torus: bool = False) -> tuple[Problem, Board]:
    """A picture of queens (``Q``, ``.`` or space empty, spaced or not; any other character is
    refused); its problem is read off the picture (n = its number of rows)."""
    board = parse_board(text or "", torus=torus, pieces=QUEEN)
    return Problem(board.grid.rows, torus), board


def _problem(n: int, unique: bool = False) -> Problem:
    return Problem(n, False, "dihedral" if unique else None)


#: The warmup's independent parts (``boardpuzzles warmup`` compiles them at the same time); the
#: sizes are past PLAIN_MAX_N, where the kernels search.
_WARMUP = (
    lambda: count(Problem(12)),
    lambda: count(Problem(6, group="dihedral")),
    lambda: next(solutions(Problem(12))),
    lambda: next(solutions(Problem(8, group="dihedral"))),  # one board a class: the least image
)


PUZZLE: Puzzle[Problem, Board] = Puzzle(
    name=NAME,
    title="the classic N queens puzzle",
    description="The classic puzzle: N queens on an N x N board, none attacking another (no two "
    "share a row, a column or a diagonal).",
    params=(
        Param("n", "side", "the board's side", positional=True, metavar="N", maximum=MAX_N),
        Param("unique", "flag", "One placement per class of the 8 rotations and reflections (OEIS A002562).", False),
    ),
    problem=_problem,
    solutions=solutions,
    count=count,
    violations=violations,
    to_scene=board_scene,
    answer_to_json=answer_to_json,
    answer_from_json=answer_from_json,
    read_answer=read_answer,
    describe=describe,
    small="8",
    small_count=92,
    small_source="OEIS A000170",
    slow="20",
    examples=(
        Example("solve 8 --unique --limit 1"),
        Example("count 8", 92, "OEIS A000170"),
        Example("count 8 --unique", 12, "OEIS A002562"),
        Example("count 12", 14200, "OEIS A000170"),
        Example("check tests/data/queens4_wrong.txt"),
    ),
    warmup=_WARMUP,
    play=play_in("boardpuzzles.puzzles.queens.play"),
)
