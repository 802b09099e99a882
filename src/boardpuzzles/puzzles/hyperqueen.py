"""HyperQueen: n queens on an n x n torus, no two in a row, column or (wrapped) diagonal.

The puzzle of the science magazine *Quark*, solved for 7x7 in the seed article (28 placements).
The searches are those of :mod:`.queens`, on the torus.

Glossary
--------
torus       the board glued at opposite edges, so every diagonal wraps around (:mod:`..grid`);
Polya's rule  placements exist exactly when gcd(n, 6) = 1 (Polya 1918); otherwise the count is 0;
groups      ``torus`` (rotations, reflections and shifts; OEIS A053994), ``multipliers`` (also
            (r, c) -> (u r, u c) for units u; OEIS A062166) and ``full`` (also the 45-degree map
            (r, c) -> (r + c, r - c); unpublished). See :mod:`boardpuzzles.grid`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from boardpuzzles.board import Board
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import Limits
from boardpuzzles.protocol import Example, Param, Puzzle, board_scene, play_in
from boardpuzzles.puzzles import queens
from boardpuzzles.puzzles.queens import GROUP_HELP, MAX_N, TORUS_GROUPS, TORUS_NAME, Problem, polya_reason
from boardpuzzles.puzzles.queens.rules import to_board

__all__ = ["PUZZLE", "Problem", "polya_reason", "problem", "solutions"]

DEFAULT_GROUP = "torus"


def problem(n: int, unique: bool = False, group: str | None = None) -> Problem:
    """n queens on the n x n torus; with ``unique``, one placement per class under ``group``
    (default ``torus``). A group without ``unique`` is refused: it would be silently ignored."""
    if group is not None and not unique:
        raise BoardPuzzlesError(f"a symmetry group ({group}) only chooses the classes of --unique: add --unique")
    return Problem(n, True, (group or DEFAULT_GROUP) if unique else None)


def solutions(problem: Problem, limits: Limits | None = None) -> Iterator[Board]:
    """Every solution as a board, in lexicographic order; with ``--unique``, the least image of
    each class, found by the class search of :func:`~.queens.torus.class_placements` (the same
    answers in the same order as keeping the least images of every placement)."""
    limits = limits if limits is not None else Limits()
    if problem.group is None or problem.n < 5 or polya_reason(problem.n):
        yield from queens.solutions(problem, limits)
        return
    from boardpuzzles.puzzles.queens.torus import class_placements

    for placement in class_placements(problem.n, problem.group, limits):
        yield to_board(problem, placement)


def _read_answer(values: Mapping[str, Any], text: str | None) -> tuple[Problem, Board]:
    return queens.read_answer(values, text, torus=True)


#: The warmup's independent parts (``boardpuzzles warmup`` compiles them at the same time); 13 is
#: past the sizes answered in plain Python.
_WARMUP = (
    lambda: queens.count(Problem(13, True)),
    lambda: queens.count(Problem(5, True, "torus")),
    lambda: next(queens.solutions(Problem(13, True))),
    lambda: next(solutions(Problem(13, True, "torus"))),
)


PUZZLE: Puzzle[Problem, Board] = Puzzle(
    name=TORUS_NAME,
    display_name="HyperQueen",
    title="N queens on a torus (the board wraps around at every edge)",
    description="HyperQueen: N queens on an N x N torus (leave on the right, come back on the left; "
    "leave at the top, come back at the bottom), no two in a row, a column or a wrapped diagonal. "
    "The puzzle of the magazine Quark; placements exist exactly when gcd(N, 6) = 1 (Polya 1918).",
    params=(
        Param("n", "side", "the board's side", positional=True, metavar="N", maximum=MAX_N),
        Param("unique", "flag", "One placement per symmetry class (see --group).", False),
        Param(
            "group",
            "choice",
            "Symmetry group for --unique: "
            + "; ".join(f"{g}: {GROUP_HELP[g]}" for g in TORUS_GROUPS)
            + f" (default: {DEFAULT_GROUP}).",
            None,
            choices=TORUS_GROUPS,
        ),
    ),
    problem=problem,
    solutions=solutions,
    count=queens.count,
    violations=queens.violations,
    to_scene=board_scene,
    answer_to_json=queens.answer_to_json,
    answer_from_json=queens.answer_from_json,
    read_answer=_read_answer,
    describe=queens.describe,
    no_solution_reason=queens.no_solution_reason,
    small="7",
    small_count=28,
    small_source="OEIS A051906; the seed article",
    slow="29",
    examples=(
        Example("solve 7 --limit 2"),
        Example("count 13", 4524, "OEIS A051906"),
        Example("count 13 --unique", 11, "OEIS A053994"),
        Example("count 13 --unique --group multipliers", 7, "OEIS A062166"),
        Example("count 17", 140692, "OEIS A051906"),
        Example("count 12", 0, "Polya 1918: gcd(12, 6) > 1"),
        Example("check tests/data/hyperqueen7_first.txt"),
    ),
    warmup=_WARMUP,
    play=play_in("boardpuzzles.puzzles.queens.play", "HYPERQUEEN_PLAY"),
)
