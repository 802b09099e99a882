"""Kings, the worked example: counts against brute force and OEIS.

Known answers: OEIS A018807 (n^2 nonattacking kings on a 2n x 2n board: 1, 4, 79, 3600, 281571)
and A172158 (6 nonattacking kings on an n x n board: 978 on 5x5, 62266 on 6x6). Everything else is
checked against a brute force over every set of cells (plain arithmetic, no row masks).
"""

import itertools

import pytest

from boardpuzzles.faults import Fault
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import kings


def brute_force(rows: int, cols: int, k: int, torus: bool) -> int:
    def touch(a: int, b: int) -> bool:
        (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
        dr, dc = abs(ra - rb), abs(ca - cb)
        if torus:
            dr, dc = min(dr, rows - dr), min(dc, cols - dc)
        return max(dr, dc) <= 1

    return sum(
        1
        for cells in itertools.combinations(range(rows * cols), k)
        if not any(touch(a, b) for a, b in itertools.combinations(cells, 2))
    )


@pytest.mark.nojit
@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 5), (2, 3), (3, 3), (3, 4), (4, 4), (4, 5)])
@pytest.mark.parametrize("torus", [False, True])
def test_counts_and_listings_equal_brute_force(rows, cols, torus):
    for k in range(0, min(5, rows * cols + 1)):
        problem = kings.Problem(rows, cols, k, torus)
        expected = brute_force(rows, cols, k, torus)
        assert kings.count(problem) == expected, (rows, cols, k, torus)
        found = list(kings.solutions(problem))
        assert len(found) == expected == len(set(found))
        assert all(kings.violations(problem, board) == [] for board in found)


@pytest.mark.parametrize("n,expected", [(1, 4), (2, 79), (3, 3600)])
def test_oeis_a018807(n, expected):
    assert kings.PUZZLE.parse(str(2 * n)).kings == n * n
    assert kings.count(kings.PUZZLE.parse(str(2 * n)), Limits(jobs=2)) == expected


@pytest.mark.parametrize("n,expected", [(5, 978), (6, 62266)])
def test_oeis_a172158(n, expected):
    assert kings.count(kings.Problem(n, n, 6)) == expected


def test_the_checker_names_touching_kings():
    problem = kings.Problem(2, 3, 2)
    board = kings.PUZZLE.answer_from_json(problem, {"K": ["a1", "b2"]})
    assert kings.violations(problem, board) == [Fault("b2 and a1 touch", (1, 3))]
    short, touching = kings.violations(kings.Problem(2, 3, 3), board)
    assert (short.message, short.kind, short.cells) == ("2 kings; the problem asks for 3", "unfinished", ())
    assert kings.violations(kings.Problem(2, 3, 1), board)[0].kind == "wrong"  # too many kings
