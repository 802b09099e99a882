"""Less Than Three and the no-K+1-in-line family.

Known answers: the seed puzzle has 42 placements (tests/data/known_counts.md, from the seed
article); one colour is Dudeney's no-three-in-line problem, OEIS A000755 (every placement) and
A000769 (up to the 8 symmetries), Flammenkamp 1992/1998. Every board a test sees passes the
brute-force checker.
"""

import functools
import itertools
import math
import os
import time

import numpy as np
import pytest

from boardpuzzles.board import parse_board
from boardpuzzles.errors import BoardPuzzlesError, SizeError
from boardpuzzles.faults import messages
from boardpuzzles.grid import Grid
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import less_than_three as lt3
from boardpuzzles.puzzles.less_than_three import cell_find as lt3_find
from boardpuzzles.puzzles.less_than_three import counting as lt3_counting
from boardpuzzles.puzzles.less_than_three import search as lt3_search
from boardpuzzles.puzzles.less_than_three import symmetry as lt3_symmetry
from boardpuzzles.puzzles.less_than_three import tuples as lt3_tuples
from tests import reference

Rules = lt3.Rules
Problem = lt3.Problem


def count(rules=lt3.SEED, unique=False, swap_colours=False, **limits):
    return lt3.count(Problem(rules, unique, swap_colours), Limits(**limits))


def solutions(rules=lt3.SEED, unique=False, swap_colours=False):
    return lt3.solutions(Problem(rules, unique, swap_colours))


def violations(board, rules=lt3.SEED):
    return lt3.violations(Problem(rules), board)


def find(rules, time_limit=60, jobs=1):
    return lt3.find(rules, Limits(time_limit, jobs=jobs))


A000755 = {2: 1, 3: 2, 4: 11, 5: 32, 6: 50, 7: 132, 8: 380, 9: 368, 10: 1135}
A000769 = {2: 1, 3: 1, 4: 4, 5: 5, 6: 11, 7: 22, 8: 57, 9: 51, 10: 156}


def as_tuple(board):
    return tuple(".XOABCDEFGH".index(p) for p in board)


@pytest.fixture(scope="module")
def seed_boards():
    return list(solutions())


def test_the_seed_puzzle_has_42_placements_all_checked(seed_boards):
    assert len(seed_boards) == 42 == count()
    assert len({b.rows().__str__() for b in seed_boards}) == 42
    for board in seed_boards:
        assert violations(board) == []
        assert len(board.cells_with("X")) == len(board.cells_with("O")) == 12


def reference_classes(boards, swap):
    """Classes by canonical forms from the grid: each colour's cells, under the 8 symmetries."""
    grid = Grid(6, 6)
    forms = set()
    for board in boards:
        layers = [board.cells_with(p) for p in "XO"]
        images = []
        for symmetry in grid.group("dihedral"):
            moved = [tuple(sorted(grid.transform(cells, symmetry))) for cells in layers]
            images.append(tuple(moved))
            if swap:
                images.append(tuple(reversed(moved)))
        forms.add(min(images))
    return len(forms)


@pytest.mark.parametrize("swap", [False, True])
def test_seed_classes_agree_with_canonical_forms(seed_boards, swap):
    expected = reference_classes(seed_boards, swap)
    assert count(unique=True, swap_colours=swap) == expected
    representatives = list(solutions(unique=True, swap_colours=swap))
    assert len(representatives) == expected
    assert all(violations(b) == [] for b in representatives)


@pytest.mark.parametrize("n,expected", A000755.items())
def test_one_colour_counts_oeis_a000755(n, expected):
    assert count(Rules(n, 1), jobs=2) == expected


@pytest.mark.parametrize("n,expected", A000769.items())
def test_one_colour_classes_oeis_a000769(n, expected):
    assert count(Rules(n, 1), unique=True) == expected


#: Cases that run compiled only: as plain Python (the nojit run) each takes five to fifteen seconds,
#: and smaller cases of the same rules run there.
COMPILED_ONLY = pytest.mark.skipif(
    os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="compiled only (a smaller case runs as plain Python)"
)

# Small enough for the twins' plain Python (the nojit run); the larger ones run compiled only.
TWIN_RULES = [Rules(3, 1), Rules(4, 1), Rules(4, 1, 1), Rules(3, 2, 1), Rules(3, 3, 2, 2), Rules(3, 2, 2, 3)]
LARGER_TWIN_RULES = [Rules(4, 2, 2, 3), Rules(4, 1, 3, 7), Rules(5, 1, 2, 6)]


@pytest.mark.nojit
@pytest.mark.parametrize(
    "rules",
    [
        Rules(3, 1),
        Rules(4, 1),
        pytest.param(Rules(4, 2, 2, 3), marks=COMPILED_ONLY),
        Rules(4, 1, 1),
        Rules(3, 2, 1),
        Rules(4, 1, 3, 7),
        Rules(3, 3, 2, 2),
        pytest.param(Rules(5, 1, 2, 6), marks=COMPILED_ONLY),
        Rules(3, 2, 2, 3),
    ],
)
def test_kernel_equals_the_reference_backtracker(rules):
    expected = sorted(
        reference.less_than_three_solutions(rules.size, rules.colours, rules.max_in_line, rules.per_colour)
    )
    found = sorted(as_tuple(b) for b in solutions(rules))
    assert found == expected
    assert count(rules) == len(expected)
    assert all(violations(lt3.to_board(rules, b), rules) == [] for b in found)


def test_solutions_split_when_a_chunk_overflows(monkeypatch):
    monkeypatch.setattr(lt3_search, "CHUNK", 16)
    found = [as_tuple(b) for b in solutions(Rules(7, 1))]
    assert len(found) == len(set(found)) == A000755[7]


def test_jobs_do_not_change_the_answer():
    assert count(Rules(8, 1), jobs=1) == count(Rules(8, 1), jobs=3) == A000755[8]


def test_checker_sees_lines_of_every_slope():
    # Three black stones on the slope-1:2 line a6, b4, c2: not a row, column or diagonal.
    rules = Rules(6, 1, 2, 3)
    board = parse_board("X.....\n......\n.X....\n......\n..X...\n......\n")
    (fault,) = violations(board, rules)
    assert fault.message == "3 X stones on one line: a6, b4, c2" and fault.cells == (0, 13, 26)
    assert fault.lines == ((0, 26),) and fault.kind == "wrong"
    fine = parse_board("X.....\n......\n.X....\n......\n...X..\n......\n")
    assert violations(fine, rules) == []


def test_checker_reports_counts_and_strangers():
    rules = Rules(3, 2, 2, 2)
    problems = messages(violations(parse_board("XX.\nOQ.\n...\n"), rules))
    assert any("'Q'" in p for p in problems) and any("1 O stones" in p for p in problems)
    assert messages(violations(parse_board("X.\n.X\n"), rules)) == ["the board is 2x2, not 3x3"]
    short = next(f for f in violations(parse_board("XX.\nO..\n...\n"), rules) if f.message.startswith("1 O"))
    assert short.kind == "unfinished"  # a stone short is only what is left to do


@pytest.mark.parametrize(
    "kwargs,fragment",
    [
        ({"size": 0}, "between 1 and 62"),
        ({"size": 63}, "between 1 and 62"),
        ({"colours": 0}, "colours"),
        ({"max_in_line": 0}, "at least 1"),
        ({"stones": 13}, "at most 12"),
        ({"stones": -1}, ">= 0"),
        ({"size": 4, "colours": 3}, "do not fit"),
        ({"size": 2.5}, "whole number"),
    ],
)
def test_impossible_rules_are_refused_with_the_reason(kwargs, fragment):
    with pytest.raises(SizeError, match=fragment):
        Rules(**kwargs)


def test_swap_colours_needs_two_colours():
    with pytest.raises(BoardPuzzlesError):
        Problem(Rules(5, 1), unique=True, swap_colours=True)


def test_line_tables_hold_every_line_with_more_than_k_cells():
    cell_lines, line_cells = lt3.line_tables(Rules(6, 2))
    # On 6x6 with K=2: 6 rows, 6 columns, 2 x 7 diagonals of >= 3 cells, and the 1:2 and 2:1
    # slopes (8 directions in all, as the seed article says).
    lines = {tuple(c for c in row if c >= 0) for row in line_cells}
    assert all(len(line) >= 3 for line in lines)
    brute = set()
    for a, b in itertools.combinations(range(36), 2):
        (r1, c1), (r2, c2) = divmod(a, 6), divmod(b, 6)
        on = tuple(x for x in range(36) if (r2 - r1) * (x % 6 - c1) == (c2 - c1) * (x // 6 - r1))
        if len(on) >= 3:
            brute.add(on)
    assert {tuple(sorted(line)) for line in lines} == brute


def test_solutions_stream_without_finishing_the_search(monkeypatch):
    # The first board comes from the first small subtask, not after a whole count.
    calls = []
    real_run = lt3_search._run

    def counting_run(rules, prefix, rows_limit, limits, **kwargs):
        result = real_run(rules, prefix, rows_limit, limits, **kwargs)
        calls.append((len(prefix), rows_limit, result[0]))
        return result

    monkeypatch.setattr(lt3_search, "_run", counting_run)
    first = next(solutions(Rules(11, 1)))
    assert violations(first, Rules(11, 1)) == []
    whole_board_calls = [c for c in calls if c[1] == 11]
    assert all(length == 2 * 11 for length, _, _ in whole_board_calls)  # each from a 2-row subtask
    assert sum(found for _, _, found in whole_board_calls) < 1120  # far from all 1120 boards


def test_rows_are_searched_middle_out_but_boards_come_back_in_place():
    layout = lt3_search._layout(Rules(7, 1))
    # Virtual row 0 is the middle row 3; the mapping is a permutation and its inverse.
    assert sorted(layout.virtual) == list(range(49))
    assert all(layout.physical[layout.virtual[c]] == c for c in range(49))
    assert layout.virtual[3 * 7] == 0


def has_the_symmetry(board, n, symmetry):
    """Checked with the grid's own rotations, not with find's orbit tables."""
    grid = Grid(n, n)
    turn = {s.label: s for s in grid.group("dihedral")}
    stones = board.cells_with("X")
    off_diagonals = [c for c in stones if c // n != c % n and c // n + c % n != n - 1]
    if symmetry == lt3.ROTATE_90:
        return sorted(grid.transform(stones, turn["rotate 90"])) == stones
    if symmetry == lt3.ROTATE_90_DIAGONALS_180:
        return sorted(grid.transform(stones, turn["rotate 180"])) == stones and sorted(
            grid.transform(off_diagonals, turn["rotate 90"])
        ) == sorted(off_diagonals)
    if symmetry == lt3.ROTATE_180:
        return sorted(grid.transform(stones, turn["rotate 180"])) == stones
    return symmetry == lt3.NO_SYMMETRY


@pytest.mark.parametrize("n", [3, 6, 9, 12, 16, 20, 21, 25])
def test_find_returns_a_checked_board_with_the_symmetry_it_names(n):
    rules = Rules(n, 1)
    result = find(rules)
    assert result.board is not None and violations(result.board, rules) == []
    assert has_the_symmetry(result.board, n, result.symmetry)


def test_find_with_two_jobs_finds_a_checked_board():
    rules = Rules(18, 1)
    result = find(rules, jobs=2)
    assert result.board is not None and violations(result.board, rules) == []
    assert has_the_symmetry(result.board, 18, result.symmetry)


def test_an_error_in_a_find_thread_reaches_the_caller(monkeypatch):
    class Broken:
        FindTables = lt3_find._kernel_module().FindTables

        @staticmethod
        def find_symmetric(*args):
            raise MemoryError("no room")

    monkeypatch.setattr(lt3_find, "_kernel_module", lambda: Broken)
    with pytest.raises(MemoryError):
        find(Rules(20, 1), time_limit=5, jobs=2)


@functools.cache
def symmetric_boards(n, k, symmetry):
    return reference.symmetric_line_boards(n, k, lt3.symmetry_orbits(Rules(n, 1, k), symmetry))


# Boards with each symmetry, from Flammenkamp's table of solutions by symmetry class
# (wwwhomes.uni-bielefeld.de/achim/no3in/table.html): a class with only the quarter turn ("c")
# holds 2 boards; one with the half turn only (":") 4, with both diagonals ("x") 2.
# Turned by 180 degrees: n=6: 2x4 + 3x2 + 2x2 = 18; n=7: 10x4 = 40; n=8: 7x4 + 4x2 = 36.
# Turned by 90: n=6: 3x2 = 6; n=8: 4x2 = 8.
@pytest.mark.parametrize(
    ("n", "symmetry", "boards"),
    [
        (6, lt3.ROTATE_180, 18),
        (7, lt3.ROTATE_180, 40),
        (8, lt3.ROTATE_180, 36),
        (6, lt3.ROTATE_90, 6),
        (7, lt3.ROTATE_90, 0),
        (8, lt3.ROTATE_90, 8),
    ],
)
def test_symmetric_boards_match_flammenkamps_table(n, symmetry, boards):
    found = symmetric_boards(n, 2, symmetry)
    assert len(found) == boards
    for cells in found:
        board = parse_board("\n".join("".join("X" if r * n + c in cells else "." for c in range(n)) for r in range(n)))
        assert violations(board, Rules(n, 1)) == [] and has_the_symmetry(board, n, symmetry)


@pytest.mark.nojit
@pytest.mark.parametrize("n", range(2, 9))
@pytest.mark.parametrize("k", [1, 2])
@pytest.mark.parametrize("symmetry", lt3.FIND_SYMMETRIES[:3])
def test_the_find_kernel_agrees_with_its_plain_twin(n, k, symmetry):
    """With an unbounded budget the kernel finds a board exactly when plain backtracking over the
    same orbits does, and the board it finds is one of them."""
    import numpy as np

    if (n, k, symmetry) == (8, 2, "rotate 180") and os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("compiled only (as plain Python: ten seconds; the smaller boards run)")
    rules = Rules(n, 1, k)
    boards = symmetric_boards(n, k, symmetry)
    table, orbit_of = lt3_symmetry._orbit_tables(rules, symmetry)
    cell_lines, line_cells = lt3.line_tables(rules)
    kernels = lt3_find._kernel_module()
    tables = kernels.FindTables(n, k, cell_lines, line_cells, table, orbit_of)
    rng = np.random.default_rng(n * 10 + k)
    for _ in range(3):
        order = np.array([rng.permutation(n) for _ in range(2 * n)], dtype=np.int64)
        flag = np.zeros(1, dtype=np.int64)
        status, board = kernels.find_symmetric(tables, order, 10**9, flag)
        assert status == (1 if boards else 0)
        if boards:
            assert frozenset(int(c) for c in np.flatnonzero(board)) in boards


def test_find_proves_there_is_none_when_the_search_is_complete():
    result = find(Rules(4, 1, 1))  # K=1: any two stones share a line
    assert result.board is None and result.complete


def test_find_proves_there_is_none_on_a_large_board_too():
    # K=1 on 21x21: every symmetric class is ruled out, then the plain search; none may be skipped.
    result = find(Rules(21, 1, 1))
    assert result.board is None and result.complete


def test_weaker_symmetries_wait_on_large_boards_until_the_stronger_are_ruled_out():
    strong = {lt3.ROTATE_90, lt3.ROTATE_90_DIAGONALS_180}
    assert lt3_find._symmetries_to_try(30, set()) == [lt3.ROTATE_90, lt3.ROTATE_90_DIAGONALS_180]
    assert lt3_find._symmetries_to_try(30, strong) == [lt3.ROTATE_180]
    assert lt3_find._symmetries_to_try(30, strong | {lt3.ROTATE_180}) == [lt3.NO_SYMMETRY]
    assert lt3_find._symmetries_to_try(12, set()) == list(lt3.FIND_SYMMETRIES[:3]) + [lt3.NO_SYMMETRY]


def test_find_gives_up_at_the_time_limit_without_claiming_anything():
    result = find(Rules(44, 1), time_limit=0.5)
    assert result.board is None and not result.complete


def test_the_cell_search_out_of_time_while_building_its_tables_claims_nothing():
    limits = Limits(time_limit=0.001)
    time.sleep(0.01)  # the limit has passed before the first table is built
    result = lt3_find.find(Rules(30, 1), limits)
    assert result.board is None and not result.complete and result.attempts == 0


def test_find_is_for_one_colour():
    with pytest.raises(BoardPuzzlesError):
        lt3.find(Rules(8, 2))


# ---------------------------------------------------------------- classes and many colours
def least_image_classes(rules, swap):
    """The classes as counted before the weighted route: the least-image test at every leaf of
    the unreduced search."""
    limits = Limits()
    first = lt3_search._first_rows(rules, limits)
    return sum(lt3_search._run(rules, p, rules.size, limits, symmetric=True, swap_colours=swap)[1] for p in first)


@pytest.mark.nojit
@pytest.mark.parametrize("rules", TWIN_RULES)
def test_classes_equal_the_least_image_count_and_the_twins_canonical_forms(rules):
    check_classes_against_the_twin(rules)


@pytest.mark.parametrize("rules", LARGER_TWIN_RULES)
def test_classes_equal_the_twins_canonical_forms_on_larger_boards(rules):
    check_classes_against_the_twin(rules)


def check_classes_against_the_twin(rules):
    boards = reference.less_than_three_solutions(rules.size, rules.colours, rules.max_in_line, rules.per_colour)
    for swap in [False, True] if rules.colours > 1 else [False]:
        expected = reference.less_than_three_classes(boards, rules.size, rules.colours, swap)
        assert count(rules, unique=True, swap_colours=swap) == expected
        assert lt3_counting._count_by_search(Problem(rules, True, swap), Limits()) == expected
        assert least_image_classes(rules, swap) == expected


@pytest.mark.parametrize(
    "rules",
    [Rules(4, 2, 2, 6), Rules(5, 2, 2, 9), Rules(7, 1), Rules(8, 1)],
)
def test_weighted_classes_equal_the_least_image_count(rules):
    for swap in [False, True] if rules.colours > 1 else [False]:
        assert count(rules, unique=True, swap_colours=swap) == least_image_classes(rules, swap)


def test_the_stabiliser_counts_symmetries_with_relabellings():
    kernels = lt3_search._kernel_module()
    layout = lt3_search._layout(Rules(4, 2))
    empty = np.zeros(16, dtype=np.int64)
    assert kernels.stabiliser(empty, layout.maps, 2, False) == 8
    assert kernels.stabiliser(empty, layout.maps, 2, True) == 16  # both colours absent: 2 relabellings each
    # One stone of each colour on the two ends of the middle row's diagonal... any board with a
    # half-turn that swaps the colours: fixed by (rotate 180, swap) and the identity only.
    board = np.zeros(16, dtype=np.int64)
    board[layout.virtual[0]], board[layout.virtual[15]] = 1, 2  # a4 black, d1 white
    assert kernels.stabiliser(board, layout.maps, 2, False) == 2  # identity, anti-diagonal mirror
    assert kernels.stabiliser(board, layout.maps, 2, True) == 4  # and rotate 180, main mirror with swap


@pytest.mark.parametrize("rules", [Rules(4, 2), Rules(5, 2), Rules(6, 2), Rules(6, 2, 3), Rules(3, 2, 1)])
def test_many_colours_through_one_colour_solutions_equal_the_search(rules):
    assert lt3.through_one_colour(rules)
    for unique, swap in [(False, False), (True, False), (True, True)]:
        problem = Problem(rules, unique, swap)
        assert lt3.count(problem) == lt3_counting._count_by_search(problem, Limits())


def test_the_seed_counts_through_one_colour_solutions():
    # The seed article: 42 placements; 12 classes, 10 with colour swaps (these tests, above).
    assert (count(), count(unique=True), count(unique=True, swap_colours=True)) == (42, 12, 10)


@pytest.mark.parametrize("n", [4, 5])
def test_one_colour_solutions_are_the_twins_boards(n):
    rules = Rules(n, 1)
    listed = lt3.one_colour_solutions(rules)
    expected = sorted(reference.less_than_three_solutions(n, 1, 2, 2 * n))
    assert sorted(tuple(int(c) for c in b) for b in listed) == expected


@functools.cache
def eight_by_eight():
    """The 380 one-colour boards of 8x8 (OEIS A000755), each checked, as sets of cells."""
    rules = Rules(8, 1)
    boards = lt3.one_colour_solutions(rules)
    assert len(boards) == A000755[8]
    assert all(violations(lt3.to_board(rules, b), rules) == [] for b in boards)
    return [frozenset(int(c) for c in np.flatnonzero(b)) for b in boards]


def brute_force_tuples(solutions, colours):
    """Every ordered tuple of pairwise disjoint solutions, by plain set arithmetic."""
    found = []

    def extend(chosen, used):
        if len(chosen) == colours:
            found.append(tuple(chosen))
            return
        for s in solutions:
            if not s & used:
                extend([*chosen, s], used | s)

    extend([], frozenset())
    return found


@pytest.mark.parametrize(
    ("colours", "counts"),
    # 8x8 with 3 colours: 144 (the figure of the C program in the issue); with 4 the board is
    # filled: 96 ordered, so 96 / 4! = 4 ways to split the board into four solutions.
    [(2, (4644, 621, 342)), (3, (144, 18, 3)), (4, (96, 12, 2))],
)
def test_eight_by_eight_tuples_and_classes_by_brute_force(colours, counts):
    tuples = brute_force_tuples(eight_by_eight(), colours)
    boards = []
    for t in tuples:
        board = [0] * 64
        for colour, cells in enumerate(t, 1):
            for c in cells:
                board[c] = colour
        boards.append(tuple(board))
    expected = (
        len(boards),
        reference.less_than_three_classes(boards, 8, colours, False),
        reference.less_than_three_classes(boards, 8, colours, True),
    )
    assert expected == counts
    rules = Rules(8, colours)
    got = (count(rules), count(rules, unique=True), count(rules, unique=True, swap_colours=True))
    assert got == counts


def test_ten_by_ten_with_two_colours_is_the_issues_c_figure():
    # 22,090: the C program quoted in issue #15 (one-colour solutions, then disjoint pairs); also
    # benchmarks/lt3_tuples.c, an independent C listing without symmetry.
    assert count(Rules(10, 2), jobs=2) == 22090


def test_eight_by_eight_splits_into_four_solutions_in_four_ways():
    assert count(Rules(8, 4)) // math.factorial(4) == 4
    assert count(Rules(8, 4), jobs=2) == 96


@pytest.mark.nojit
@pytest.mark.parametrize("seed", range(6))
def test_disjoint_selections_kernel_agrees_with_its_twin(seed):
    rng = np.random.default_rng(seed)
    cells = int(rng.integers(4, 70))
    sizes = rng.integers(1, 5, size=int(rng.integers(1, 14)))
    groups = np.sort(rng.integers(0, 3, size=len(sizes)))
    sets = [frozenset(int(c) for c in rng.choice(cells, size=int(k), replace=False)) for k in sizes]
    rows = np.zeros((len(sets), cells), dtype=np.uint8)
    for i, s in enumerate(sets):
        rows[i, list(s)] = 1
    items = lt3_tuples._bitsets(rows)
    flag = np.zeros(1, dtype=np.int64)
    for positions in ([0], [0, 0], [0, 1], [0, 0, 2], [1, 1, 1], [0, 1, 1, 2]):
        lo = int(rng.integers(0, len(sets) + 1))
        hi = int(rng.integers(lo, len(sets) + 1))
        expected = reference.disjoint_selections(sets, list(groups), positions, range(lo, hi))
        got = lt3_search._kernel_module().disjoint_selections(items, groups, np.array(positions), lo, hi, flag)
        assert got == expected


def test_bitsets_put_cell_x_in_word_x_over_64():
    rows = np.zeros((1, 130), dtype=np.uint8)
    rows[0, [0, 63, 64, 129]] = 1
    words = lt3_tuples._bitsets(rows).view(np.uint64)
    assert words.tolist() == [[1 | 1 << 63, 1, 2]]


def test_cycle_types_and_their_sizes():
    assert lt3_tuples._cycle_types(4) == [(4,), (3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1)]
    assert [lt3_tuples._permutations_of_type(t) for t in lt3_tuples._cycle_types(4)] == [6, 8, 3, 6, 1]
    assert sum(lt3_tuples._permutations_of_type(t) for t in lt3_tuples._cycle_types(7)) == math.factorial(7)


# Plan digests of checkpoint files written by boardpuzzles before Less Than Three became a package
# (boardpuzzles less-than-three count ARGS --checkpoint FILE): files of earlier counts stay valid.
EARLIER_PLANS = [
    ((8, 1, False, False), "a2cb44013618ca5df6d4e77106cdf4dd653e4f0f748877e4ec20819c524525b0"),
    ((7, 1, True, False), "257bcb54c3e467b3c1773906b59616b0a7851e14ad778a96b9753dfb2332145d"),
    ((7, 2, False, False), "749c3f8f31a467c81f6e292fa0e6b35977abef52e3d3f7b6352265be8502877e"),
    ((6, 2, True, False), "96317e2e24fb2b606e4ea094dde193703b9073eaa79d0a76441febd0cdb1362c"),
    ((6, 3, True, True), "cb3d772bcb6313abde220674a0d2468081c5e11571bbfae69c671c7434bd2921"),
]


@pytest.mark.parametrize(("args", "digest"), EARLIER_PLANS)
def test_checkpoints_of_earlier_versions_keep_their_plan(tmp_path, args, digest):
    import sqlite3

    n, colours, unique, swap = args
    db = str(tmp_path / "c.db")
    count(Rules(n, colours), unique=unique, swap_colours=swap, checkpoint=db)
    with sqlite3.connect(db) as connection:
        stored = connection.execute("SELECT value FROM meta WHERE key = 'plan_digest'").fetchone()[0]
    assert stored == digest


def test_a_tuple_count_resumes_from_its_checkpoint_and_shares_the_one_colour_list(tmp_path, monkeypatch):
    db = str(tmp_path / "c.db")
    assert count(Rules(7, 2), checkpoint=db) == 348
    store = tmp_path / "less-than-three-one-colour-7x7-k2.db"
    assert store.exists()
    searched = []
    real_run = lt3_tuples._run

    def spy(rules, prefix, rows_limit, limits, **kwargs):
        if rows_limit == rules.size:
            searched.append(prefix)
        return real_run(rules, prefix, rows_limit, limits, **kwargs)

    monkeypatch.setattr(lt3_tuples, "_run", spy)
    assert count(Rules(7, 2), checkpoint=db) == 348
    # Another count of the same board in the same folder: the one-colour list comes from the store.
    assert count(Rules(7, 2), unique=True, checkpoint=str(tmp_path / "u.db")) == 70
    assert searched == []


def test_a_one_colour_store_of_something_else_is_refused(tmp_path):
    (tmp_path / "less-than-three-one-colour-6x6-k2.db").write_text("not a database\n" * 20)
    with pytest.raises(BoardPuzzlesError, match="one-colour store"):
        count(Rules(6, 2), checkpoint=str(tmp_path / "c.db"))


def test_a_damaged_one_colour_store_is_refused(tmp_path):
    import sqlite3

    count(Rules(6, 2), checkpoint=str(tmp_path / "c.db"))
    store = str(tmp_path / "less-than-three-one-colour-6x6-k2.db")
    with sqlite3.connect(store) as db:
        db.execute("UPDATE piece SET found = found || '0' WHERE rowid = (SELECT min(rowid) FROM piece)")
    with pytest.raises(BoardPuzzlesError, match="damaged"):
        count(Rules(6, 2), checkpoint=str(tmp_path / "d.db"))


def test_a_tuple_count_stopped_while_listing_says_nothing_is_counted():
    from boardpuzzles.limits import TimeLimitReached

    with pytest.raises(TimeLimitReached) as stop:
        count(Rules(11, 2), time_limit=0.3)
    assert (stop.value.partial, stop.value.total) == (0, 0)
