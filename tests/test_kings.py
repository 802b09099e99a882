"""Kings, the worked example: the transfer count against its plain twin, a brute force, the
row-by-row listing and OEIS.

Known answers: OEIS A018807 (n^2 nonattacking kings on a 2n x 2n board), A172158 (6
nonattacking kings on an n x n board) and A179426 (6 on the n x n torus), the terms as OEIS
lists them. Everything else is checked against a brute force over every set of cells (plain
arithmetic, no row masks) and the kernel against ``twin``: the same transfer with rows as sets
of columns and exact integers.
"""

import itertools
import sqlite3
import time
from collections import Counter

import numpy as np
import pytest

from boardpuzzles._kernels import STOPPED, moduli
from boardpuzzles.faults import Fault
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import kings
from tests import reference

#: OEIS A018807, n = 0..10 (a(10), on 20 x 20, is past 2^64).
A018807 = [1, 4, 79, 3600, 281571, 32572756, 5109144543, 1027533353168, 254977173389319]
A018807 += [75925129079783308, 26568150968269086211]
#: OEIS A172158 (6 kings on n x n), n = 1..20.
A172158 = [0, 0, 0, 0, 978, 62266, 1220298, 12033330, 77784658, 377818258, 1492665418, 5042436754]
A172158 += [15062292834, 40736208186, 101489568538, 235984235970, 517314078210, 1077720399538]
A172158 += [2147500025914, 4114538426818]
#: OEIS A179426 (6 kings on the n x n torus), n = 1..14.
A179426 = [0, 0, 0, 0, 0, 10596, 486668, 7063520, 55345356, 299491100, 1263811604, 4455716184]
A179426 += [13701863604, 37823872044]


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


def twin(rows: int, cols: int, k: int, torus: bool) -> int:
    """The kernel's transfer in plain Python with exact integers: rows are sets of columns, the
    ways kept per (last row, kings so far); on a torus every first row is tried, and the last
    row must not touch it."""

    def near(c: int) -> set[int]:
        return {(c + d) % cols for d in (-1, 0, 1)} if torus else {c - 1, c, c + 1}

    lines = [
        frozenset(s)
        for size in range(cols + 1)
        for s in itertools.combinations(range(cols), size)
        if not any(near(c) & set(s) - {c} for c in s)
    ]
    after_of = {a: [b for b in lines if not any(near(c) & b for c in a)] for a in lines}
    total = 0
    for first in lines if torus and rows > 1 else [None]:
        ways = Counter({(a, len(a)): 1 for a in lines if first in (None, a) and len(a) <= k})
        for _ in range(rows - 1):
            after: Counter[tuple[frozenset[int], int]] = Counter()
            for (a, placed), v in ways.items():
                for b in after_of[a]:
                    if placed + len(b) <= k:
                        after[b, placed + len(b)] += v
            ways = after
        total += sum(v for (a, placed), v in ways.items() if placed == k and (first is None or a in after_of[first]))
    return total


@pytest.mark.nojit
@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 5), (2, 3), (3, 3), (3, 4), (4, 4), (4, 5)])
@pytest.mark.parametrize("torus", [False, True])
def test_counts_and_listings_equal_brute_force(rows, cols, torus):
    for k in range(0, min(5, rows * cols + 1)):
        problem = kings.Problem(rows, cols, k, torus)
        expected = brute_force(rows, cols, k, torus)
        assert kings.count(problem) == twin(rows, cols, k, torus) == expected, (rows, cols, k, torus)
        found = list(kings.solutions(problem))
        assert len(found) == expected == len(set(found))
        assert all(kings.violations(problem, board) == [] for board in found)


@pytest.mark.nojit
@pytest.mark.parametrize("modulus", [2, 7, 1_000_003, moduli(1)[0]])
@pytest.mark.parametrize("rows,cols,k,torus", [(5, 5, 4, False), (4, 6, 5, True), (6, 5, 6, True), (3, 7, 4, True)])
def test_the_kernel_counts_modulo_any_modulus_as_its_twin(rows, cols, k, torus, modulus):
    """Per class of first rows on a torus, weighted by the class's size: the twin tries every first row."""
    problem, flag = kings.Problem(rows, cols, k, torus), np.zeros(1, dtype=np.int64)
    found = sum(
        weight * kings.count_modulo(problem, first, modulus, flag) for first, weight in kings.first_rows(problem)
    )
    assert found % modulus == twin(rows, cols, k, torus) % modulus


@pytest.mark.parametrize("rows,cols,k", [(5, 6, 6), (6, 5, 7), (6, 6, 9), (7, 4, 6), (4, 7, 5)])
@pytest.mark.parametrize("torus", [False, True])
def test_counts_equal_the_row_by_row_listing(rows, cols, k, torus):
    """The listing is the row-by-row enumeration the count was before the transfer."""
    problem = kings.Problem(rows, cols, k, torus)
    assert kings.count(problem, Limits(jobs=2)) == sum(1 for _ in kings.solutions(problem))


@pytest.mark.parametrize("n", range(1, 8))
def test_oeis_a018807(n):
    problem = kings.PUZZLE.parse(str(2 * n))
    assert problem.kings == n * n
    assert kings.count(problem, Limits(jobs=2)) == A018807[n]


@pytest.mark.slow
@pytest.mark.parametrize("n", [8, 9, 10])
def test_oeis_a018807_up_to_20x20_past_64_bits(n):
    problem = kings.PUZZLE.parse(str(2 * n))
    assert kings.moduli_needed(problem) > 1  # the bound is past 2^61, and a(10) itself past 2^64
    assert kings.count(problem, Limits(jobs=2)) == A018807[n]


@pytest.mark.parametrize("n", range(3, len(A172158) + 1))  # 6 kings fit on 3 x 3 squares and up
def test_oeis_a172158(n):
    assert kings.count(kings.Problem(n, n, 6)) == A172158[n - 1]


@pytest.mark.parametrize("n", range(3, len(A179426) + 1))
def test_oeis_a179426_on_the_torus(n):
    assert kings.count(kings.Problem(n, n, 6, torus=True)) == A179426[n - 1]


def test_a_count_past_2_61_joins_two_moduli_exactly():
    problem = kings.Problem(9, 10, 20)
    assert kings.moduli_needed(problem) == 2
    assert kings.count(problem, Limits(jobs=2)) == twin(9, 10, 20, False) > 2**32


def test_more_moduli_than_needed_give_the_same_count(monkeypatch):
    """The Chinese remainder join, per first-row class of a torus, with moduli to spare."""
    problem = kings.Problem(7, 9, 8, torus=True)
    expected = kings.count(problem)
    monkeypatch.setattr(kings, "moduli_needed", lambda problem: 3)
    assert kings.count(problem, Limits(jobs=2)) == expected == twin(7, 9, 8, True)


def test_a_board_counts_as_its_transpose_and_too_many_kings_count_zero():
    assert kings.count(kings.Problem(3, 11, 6)) == kings.count(kings.Problem(11, 3, 6)) == twin(3, 11, 6, False)
    assert kings.count(kings.Problem(5, 20, 4, True)) == twin(20, 5, 4, True)
    assert kings.moduli_needed(kings.Problem(6, 6, 10)) == 0 and kings.count(kings.Problem(6, 6, 10)) == 0


def test_a_checkpointed_torus_count_keeps_every_subtask(tmp_path):
    problem, path = kings.Problem(7, 7, 6, torus=True), str(tmp_path / "kings.db")
    for _ in range(2):  # made, then read back
        assert kings.count(problem, Limits(jobs=2, checkpoint=path)) == A179426[6]
    with sqlite3.connect(path) as connection:
        (rows,) = connection.execute("SELECT COUNT(*) FROM done").fetchone()
    assert rows == len(kings.first_rows(problem)) > 1


@pytest.mark.nojit
def test_the_kernel_stops_when_asked():
    flag = np.ones(1, dtype=np.int64)
    assert kings.count_modulo(kings.Problem(8, 8, 16), -1, moduli(1)[0], flag) == STOPPED


def test_the_checker_names_touching_kings():
    problem = kings.Problem(2, 3, 2)
    board = kings.PUZZLE.answer_from_json(problem, {"K": ["a1", "b2"]})
    assert kings.violations(problem, board) == [Fault("b2 and a1 touch", (1, 3))]
    short, touching = kings.violations(kings.Problem(2, 3, 3), board)
    assert (short.message, short.kind, short.cells) == ("2 kings; the problem asks for 3", "unfinished", ())
    assert kings.violations(kings.Problem(2, 3, 1), board)[0].kind == "wrong"  # too many kings


@pytest.mark.parametrize("rows,cols,k,torus", [(4, 4, 4, False), (5, 5, 9, False), (4, 5, 3, True), (5, 4, 5, False)])
def test_the_placements_holding_kings_are_the_listing_kept_to_those(rows, cols, k, torus):
    problem = kings.Problem(rows, cols, k, torus)
    listing = list(kings.solutions(problem))
    for size in range(4):
        for kept in itertools.islice(itertools.combinations(range(rows * cols), size), 0, None, 7):
            holding = list(kings.solutions_holding(problem, kept, Limits()))
            assert holding == [board for board in listing if all(board[c] == kings.KING for c in kept)], kept


def test_the_most_kings_a_board_holds_are_placed_at_once_given_kings_or_not():
    """A bounded board's search meets no dead end: 25 kings on 10x10 take no longer than 4 on 4x4,
    and kings placed that no placement keeps are answered at once too."""
    kings.PUZZLE.warm()  # the kernels compiled before the clock starts
    started = time.process_time()
    for n in range(4, 13):
        problem = kings.Problem(n, n, ((n + 1) // 2) ** 2)
        for kept in ((), (n * n - 1,)):
            board = next(kings.solutions_holding(problem, kept, Limits()))
            assert reference.kings_apart(n, n, problem.kings, board.occupied()) and set(kept) <= set(board.occupied())
        assert next(kings.solutions_holding(problem, (1, n + 2), Limits()), None) is None  # b and c touch
        if n % 2:  # the most kings sit on the odd rows and columns only, not on b2
            assert next(kings.solutions_holding(problem, (n + 1,), Limits()), None) is None
    assert time.process_time() - started < 5  # about 0.1 s
