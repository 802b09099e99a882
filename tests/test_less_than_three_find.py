"""Less Than Three's find on large sizes: the search over quarter-turn orbits
(:mod:`boardpuzzles.puzzles.less_than_three.orbit_find` and its kernel).

Every board a test sees passes the brute-force checker (``less_than_three.violations``), and its
symmetry is checked with the grid's own turns, not with the search's orbit tables. The kernel's
twin is the plain include-or-skip backtracker of ``tests/reference.py`` over orbits made here
from ``less_than_three.symmetry_orbits`` (not from the module's ``class_orbits``). The classes
are those of Flammenkamp's large solutions (J. Combin. Theory A 81, 1998) and of Prellberg
(arXiv:2602.07751, 2026).
"""

import functools
import itertools
import json
import threading
from pathlib import Path

import numpy as np
import pytest

from boardpuzzles.board import parse_board
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.grid import Grid
from boardpuzzles.limits import Interrupted, Limits
from boardpuzzles.puzzles import less_than_three as lt3
from boardpuzzles.puzzles.less_than_three import orbit_find as large
from tests import reference

Rules = lt3.Rules
ROOT = Path(__file__).resolve().parent.parent
RECORDED_BOARDS = sorted((ROOT / "records").glob("less-than-three-*.json"))


def turned(cells, n, label):
    grid = Grid(n, n)
    turn = {s.label: s for s in grid.group("dihedral")}
    return sorted(grid.transform(list(cells), turn[label]))


def symmetric(board, n, symmetry):
    """The class's symmetry, checked with the grid's turns (independent of ``has_symmetry``)."""
    stones = sorted(board.cells_with("X"))
    if symmetry == lt3.ROTATE_90:
        return turned(stones, n, "rotate 90") == stones
    assert symmetry == lt3.ROTATE_90_DIAGONALS_180
    off = [c for c in stones if c // n != c % n and c // n + c % n != n - 1]
    return turned(stones, n, "rotate 180") == stones and turned(off, n, "rotate 90") == off


def board_from_cells(n, cells):
    return parse_board("\n".join("".join("X" if r * n + c in cells else "." for c in range(n)) for r in range(n)))


def independent_orbits(n):
    """The class, from the general orbits of ``less_than_three``: the quarter-turn orbits (on odd n
    the half-turn pairs on the diagonals too), without the anti-diagonal on odd n."""
    orbits = lt3.symmetry_orbits(Rules(n, 1), large.symmetry_for(n))
    return [o for o in orbits if not (n % 2 and any(c // n + c % n == n - 1 for c in o))]


@functools.cache
def twin_boards(n):
    return reference.symmetric_line_boards(n, 2, independent_orbits(n))


@pytest.mark.parametrize("n", [2, 3, 6, 7, 10, 11, 22, 23])
def test_class_orbits_are_the_turns_of_the_grid(n):
    mine = sorted(sorted(o) for o in large.class_orbits(n))
    assert mine == sorted(sorted(o) for o in independent_orbits(n))
    covered = sorted(c for o in mine for c in o)
    assert covered == sorted(set(covered))  # disjoint
    empty = set(range(n * n)) - set(covered)
    assert empty == ({r * n + n - 1 - r for r in range(n)} if n % 2 else set())


# Boards of the class by the twin: n=6: 6 and n=8: 8 are the quarter-turn counts of Flammenkamp's
# table (also in tests/test_less_than_three.py); 5, 7 and 11 have none.
@pytest.mark.parametrize(("n", "boards"), [(5, 0), (6, 6), (7, 0), (8, 8)])
def test_the_twin_knows_some_counts(n, boards):
    assert len(twin_boards(n)) == boards


@pytest.mark.nojit
@pytest.mark.parametrize("n", range(2, 11))
def test_the_kernel_agrees_with_its_plain_twin(n):
    """With an unbounded budget the kernel finds a board exactly when plain backtracking over the
    same orbits does (NONE otherwise), and the board it finds is one of the twin's."""
    boards = twin_boards(n)
    built = large.tables(n, Limits())
    kernels = large._kernels()
    for seed in range(4):
        status, placed, _ = built.attempt(seed, 10**9, np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64))
        if not boards:
            assert status == kernels.NONE
            continue
        assert status == kernels.FOUND
        board = large.board_of(n, built.orbits, placed)
        assert frozenset(board.cells_with("X")) in boards


@pytest.mark.parametrize("n", [6, 8, 9, 10])
def test_every_twin_board_passes_the_checker_and_has_the_symmetry(n):
    assert twin_boards(n)
    for cells in twin_boards(n):
        board = board_from_cells(n, cells)
        assert lt3.violations(lt3.Problem(Rules(n, 1)), board) == []
        assert symmetric(board, n, large.symmetry_for(n))
        assert large.has_symmetry(board, large.symmetry_for(n))


@pytest.mark.parametrize(("n", "half", "quarter_turn"), [(6, 18, 6), (7, 40, 0)])
def test_has_symmetry_refuses_boards_that_only_turn_by_180(n, half, quarter_turn):
    """Of the boards turned onto themselves by 180 degrees (18 and 40 in Flammenkamp's table, see
    tests/test_less_than_three.py), only those of the class pass."""
    half_turn = reference.symmetric_line_boards(n, 2, lt3.symmetry_orbits(Rules(n, 1), lt3.ROTATE_180))
    assert len(half_turn) == half
    passed = 0
    for cells in half_turn:
        board = board_from_cells(n, cells)
        assert lt3.violations(lt3.Problem(Rules(n, 1)), board) == []
        verdict = large.has_symmetry(board, large.symmetry_for(n))
        assert verdict == symmetric(board, n, large.symmetry_for(n))
        passed += verdict
    assert passed == quarter_turn
    lonely = board_from_cells(n, {0})
    assert not large.has_symmetry(lonely, lt3.ROTATE_90)
    assert not large.has_symmetry(lonely, lt3.ROTATE_90_DIAGONALS_180)
    assert not large.has_symmetry(lonely, lt3.ROTATE_180)


@pytest.mark.parametrize("n", [22, 23, 26, 27])
def test_find_on_large_sizes_returns_a_checked_board_of_the_class(n):
    rules = Rules(n, 1)
    result = large.find(rules, Limits(120, jobs=1), seed=n)
    assert result.board is not None
    assert lt3.violations(lt3.Problem(rules), result.board) == []
    assert result.symmetry == large.symmetry_for(n)
    assert symmetric(result.board, n, result.symmetry)
    assert len(result.board.cells_with("X")) == 2 * n


def test_one_job_and_a_seed_give_the_same_board():
    rules = Rules(24, 1)
    first = large.find_in_class(rules, Limits(120, jobs=1), seed=5)
    again = large.find_in_class(rules, Limits(120, jobs=1), seed=5)
    assert first is not None and again is not None and first.board is not None
    assert first.board == again.board


def test_two_jobs_find_a_checked_board():
    rules = Rules(25, 1)
    result = large.find_in_class(rules, Limits(120, jobs=2), seed=1)
    assert result is not None and result.board is not None
    assert lt3.violations(lt3.Problem(rules), result.board) == []
    assert symmetric(result.board, 25, result.symmetry)


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_time_limit_gives_up_without_claiming_anything(jobs):
    result = large.find(Rules(56, 1), Limits(0.5, jobs=jobs))
    assert result.board is None and not result.complete


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_stops_the_search(jobs):
    large.tables(56, Limits())  # built first, so that the stop lands in the search itself
    limits = Limits(jobs=jobs)
    timer = threading.Timer(0.3, limits.stop)
    timer.start()
    with pytest.raises(Interrupted):
        large.find(Rules(56, 1), limits)
    timer.join()


def test_ctrl_c_stops_the_table_build():
    limits = Limits(jobs=1)
    limits.stop()
    with pytest.raises(Interrupted):
        large.tables(57, limits)
    assert 57 not in large._CACHE


def test_an_error_in_a_thread_reaches_the_caller(monkeypatch):
    class Broken:
        STOPPED, FOUND, NONE = -2, 1, 0

        @staticmethod
        def search(*args):
            raise MemoryError("no room")

        conflict_tables = staticmethod(large._kernels().conflict_tables)
        OrbitTables = large._kernels().OrbitTables

    monkeypatch.setattr(large, "_kernels", lambda: Broken)
    with pytest.raises(MemoryError):
        large.find_in_class(Rules(22, 1), Limits(5, jobs=2))


def test_a_class_without_boards_hands_back_to_the_general_search(monkeypatch):
    monkeypatch.setattr(large, "FIRST_SIZE", 5)  # 5x5 has no board of the class (the twin)
    result = large.find(Rules(5, 1), Limits(jobs=1))  # no time limit: compiling may be slow
    assert result.board is not None and lt3.violations(lt3.Problem(Rules(5, 1)), result.board) == []
    assert result.symmetry != lt3.ROTATE_90_DIAGONALS_180 or symmetric(result.board, 5, result.symmetry)


def test_the_search_is_only_for_two_in_line():
    with pytest.raises(ValueError):
        large.find_in_class(Rules(22, 1, 3), Limits())
    with pytest.raises(BoardPuzzlesError):
        large.find(Rules(22, 2))


def test_luby_sequence():
    assert [large._luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_a_thread_abandoned_after_a_stop_is_no_error(monkeypatch):
    """Under a heavy load ``wait_for`` raises its exception in a thread that missed the grace; numba
    may wrap it in a SystemError. That is the stop, not a bug: find answers without a board."""
    from boardpuzzles.limits import _Abandoned, abandoned

    def wrapped():
        try:
            raise _Abandoned()
        except _Abandoned as cause:
            raise SystemError("returned a result with an exception set") from cause

    class Stubborn:
        STOPPED, FOUND, NONE = -2, 1, 0

        @staticmethod
        def search(*args):
            wrapped()

        conflict_tables = staticmethod(large._kernels().conflict_tables)
        OrbitTables = large._kernels().OrbitTables

    with pytest.raises(SystemError) as caught:
        wrapped()
    assert abandoned(caught.value) and not abandoned(MemoryError("no room"))
    monkeypatch.setattr(large, "_kernels", lambda: Stubborn)
    result = large.find_in_class(Rules(22, 1), Limits(5, jobs=2))
    assert result is not None and result.board is None and not result.complete


def test_the_records_folder_holds_found_boards():
    assert RECORDED_BOARDS, "records/less-than-three-*.json: the boards found by long runs"


@pytest.mark.parametrize("path", RECORDED_BOARDS, ids=lambda path: path.name)
def test_a_recorded_board_has_no_three_in_line_and_the_symmetry_it_claims(path):
    """The boards of long `find` runs kept in records/ (`find 44 --json` as it printed), checked here
    without the library's checker: every row and column 2 stones, and no three stones on a line,
    by the cross product of every triple."""
    document = json.loads(path.read_text())
    n = document["problem"]["size"]
    assert document["found"] and path.name == f"less-than-three-{n}.json"
    board = lt3.answer_from_json(lt3.Problem(Rules(n, 1)), document["solutions"][0]["answer"])
    stones = [divmod(cell, n) for cell in sorted(board.cells_with("X"))]
    assert len(stones) == 2 * n
    for index in range(n):
        assert sum(r == index for r, _ in stones) == 2 and sum(c == index for _, c in stones) == 2
    for (r1, c1), (r2, c2), (r3, c3) in itertools.combinations(stones, 3):
        assert (r2 - r1) * (c3 - c1) != (r3 - r1) * (c2 - c1), "three stones on one line"
    assert document["symmetry"] == large.symmetry_for(n)
    assert symmetric(board, n, document["symmetry"])


def test_check_found_passes_a_board_of_the_class_and_refuses_a_broken_one():
    """(The symmetry half of the check is ``has_symmetry``, tested above.)"""
    cells = sorted(twin_boards(8)[0])
    large.check_found(board_from_cells(8, set(cells)), large.symmetry_for(8))
    with pytest.raises(AssertionError):  # one stone short of 2n
        large.check_found(board_from_cells(8, set(cells[1:])), large.symmetry_for(8))
