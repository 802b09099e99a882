"""Domino tilings: published counts (OEIS A004003, A099390 and its rows), the kernel against a
plain-Python twin, Kasteleyn's product formula as an independent count, solve against count,
the checker on bad tilings, JSON and text round trips, and pictures that draw dominoes as tiles."""

from __future__ import annotations

import itertools
import json
import math
import time
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardpuzzles._kernels import STOPPED
from boardpuzzles._kernels import dominoes as kernel
from boardpuzzles.answers import CELL_PAIRS, CellPairs
from boardpuzzles.cli import _run
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.faults import Fault
from boardpuzzles.grid import Grid
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import dominoes as dm
from boardpuzzles.render.svg import sheet_svg
from tests import reference

#: OEIS A004003: domino tilings of the 2n x 2n board, n = 0, 1, ...
A004003 = [
    1,
    2,
    36,
    6728,
    12988816,
    258584046368,
    53060477521960000,
    112202208776036178000000,
    2444888770250892795802079170816,
    548943583215388338077567813208427340288,
    1269984011256235834242602753102293934298576249856,
]
#: Rows of OEIS A099390 (tilings of the R x C board): R = 2 is A000045 (Fibonacci, F(C+1)),
#: R = 3 is A001835 (3 x 2n: 1, 3, 11, 41, ...), R = 4 is A005178.
ROW_2 = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89]  # C = 1..10
ROW_3_EVEN = [3, 11, 41, 153, 571, 2131, 7953]  # C = 2, 4, ..., 14
ROW_4 = [1, 5, 11, 36, 95, 281, 781, 2245, 6336, 18061]  # C = 1..10


def twin(width: int, length: int) -> int:
    """The kernel's sweep in plain Python with exact integers (profiles as dict keys)."""
    ways = {0: 1}
    for column in range(length):
        for j in range(width):
            after: dict[int, int] = {}
            bit = 1 << j
            for s, v in ways.items():
                targets = []
                if s & bit:
                    targets.append(s ^ bit)
                else:
                    if column + 1 < length:
                        targets.append(s | bit)
                    if j + 1 < width and not s & (bit << 1):
                        targets.append(s | (bit << 1))
                for t in targets:
                    after[t] = after.get(t, 0) + v
            ways = after
    return ways.get(0, 0)


def kasteleyn(rows: int, cols: int) -> int:
    """Kasteleyn's product formula (1961), in floating point: an independent count for small boards."""
    product = 1.0
    for j in range(1, (rows + 1) // 2 + 1):
        for k in range(1, (cols + 1) // 2 + 1):
            product *= 4 * math.cos(math.pi * j / (rows + 1)) ** 2 + 4 * math.cos(math.pi * k / (cols + 1)) ** 2
    return round(product) if rows * cols % 2 == 0 else 0


def count(words: str) -> int:
    return dm.PUZZLE.count_of(dm.PUZZLE.parse(words), Limits())


# ---------------------------------------------------------------- counts
@pytest.mark.parametrize("n", range(1, len(A004003)))
def test_square_boards_match_a004003(n):
    assert count(str(2 * n)) == A004003[n]


def test_rows_of_a099390():
    assert [count(f"2x{c}") for c in range(1, 11)] == ROW_2
    assert [count(f"3x{2 * c}") for c in range(1, 8)] == ROW_3_EVEN
    assert [count(f"4x{c}") for c in range(1, 11)] == ROW_4
    assert count("3x7") == count("7x3") == count("5x5") == 0  # an odd number of squares


@pytest.mark.parametrize("rows,cols", [(r, c) for r in range(1, 9) for c in range(1, 9)])
def test_count_matches_kasteleyns_formula(rows, cols):
    assert count(f"{rows}x{cols}") == kasteleyn(rows, cols)


@pytest.mark.nojit
@pytest.mark.parametrize("modulus", [2, 7, 1_000_003, kernel.moduli(1)[0]])
def test_the_kernel_matches_its_twin(modulus):
    flag = np.zeros(1, dtype=np.int64)
    for width in range(1, 7):
        for length in range(1, 9):
            assert kernel.count_tilings(width, length, modulus, flag) == twin(width, length) % modulus


def test_the_twin_agrees_on_both_orientations():
    for rows in range(1, 6):
        for cols in range(1, 6):
            assert twin(rows, cols) == twin(cols, rows) == kasteleyn(rows, cols)


def test_the_moduli_are_coprime_and_above_2_61():
    moduli = kernel.moduli(6)
    assert all(2**61 < m < 2**62 for m in moduli)
    assert all(math.gcd(a, b) == 1 for i, a in enumerate(moduli) for b in moduli[i + 1 :])


def test_a_count_past_int64_joins_several_moduli():
    problem = dm.Problem(20, 20)  # the bound 2^200 needs four moduli
    assert dm.count(problem, Limits(jobs=2)) == A004003[10] > 2**63


@pytest.mark.nojit
def test_the_kernel_stops_when_asked():
    flag = np.ones(1, dtype=np.int64)
    assert kernel.count_tilings(20, 400, kernel.moduli(1)[0], flag) == STOPPED


# ---------------------------------------------------------------- solve and check
@pytest.mark.parametrize("rows,cols", [(1, 2), (2, 2), (2, 5), (3, 4), (4, 4), (4, 5), (5, 4), (6, 3), (3, 3)])
def test_solve_lists_every_tiling_once(rows, cols):
    problem = dm.Problem(rows, cols)
    tilings = list(dm.solutions(problem, Limits()))
    assert len(tilings) == len(set(tilings)) == count(f"{rows}x{cols}")
    assert all(dm.violations(problem, tiling) == [] for tiling in tilings)


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 5), (3, 4), (4, 4), (4, 5), (5, 4), (3, 3)])
def test_the_tilings_holding_dominoes_are_the_listing_kept_to_those(rows, cols):
    problem = dm.Problem(rows, cols)
    listing = list(dm.solutions(problem, Limits()))
    dominoes = [(a, b) for a in range(rows * cols) for b in problem.grid.neighbours(a) if a < b]
    for placed in itertools.islice(itertools.combinations(dominoes, 2), 0, None, 3):
        holding = list(dm.solutions_holding(problem, placed, Limits()))
        assert holding == [tiling for tiling in listing if set(placed) <= set(tiling.pairs)], placed
    assert list(dm.solutions_holding(problem, [(0, rows * cols - 1)], Limits())) == []  # no domino


def test_a_square_left_alone_is_found_at_once_wherever_it_is():
    """The search from the dominoes placed keeps a tiling of the squares left, so it meets no dead
    end: a corner cut off at the end of the board is found as fast as one at its start."""
    started = time.process_time()
    for n in (8, 20):
        problem, name = dm.Problem(n, n), dm.Problem(n, n).grid.cell_named
        last, before, third = chr(96 + n), chr(95 + n), chr(94 + n)
        for cut in (
            (f"a{n - 1}", f"b{n - 1}", f"b{n}", f"c{n}"),
            (f"{last}2", f"{before}2", f"{before}1", f"{third}1"),
        ):
            placed = [(name(cut[0]), name(cut[1])), (name(cut[2]), name(cut[3]))]
            assert next(dm.solutions_holding(problem, placed, Limits()), None) is None, cut
        tiling = next(dm.solutions_holding(problem, [(name("a1"), name("b1"))], Limits()))
        assert reference.dominoes_tile(n, n, list(tiling.pairs)) and (name("a1"), name("b1")) in tiling.pairs
    assert time.process_time() - started < 5  # about 0.1 s


def test_the_checker_names_what_is_wrong():
    problem = dm.Problem(2, 2)
    grid = problem.grid
    assert dm.violations(problem, CellPairs(grid, ((0, 1), (2, 3)))) == []
    assert dm.violations(problem, CellPairs(grid, ((0, 1),))) == [
        Fault("a1 is not covered", (2,), kind="unfinished"),
        Fault("b1 is not covered", (3,), kind="unfinished"),
    ]
    assert dm.violations(problem, CellPairs(grid, ((0, 1), (1, 3), (2, 3)))) == [
        Fault("b2 is covered 2 times", (1,)),
        Fault("b1 is covered 2 times", (3,)),
    ]
    assert Fault("a2-b1 is no domino", (0, 3)) in dm.violations(problem, CellPairs(grid, ((0, 3), (1, 2))))
    assert dm.violations(problem, CellPairs(Grid(2, 3), ((0, 1), (3, 4), (2, 5))))[0].message.startswith(
        "the board is 2x3"
    )


def test_solve_refuses_boards_too_large_to_list():
    with pytest.raises(BoardPuzzlesError):
        next(dm.solutions(dm.Problem(20, 50), Limits()))


# ---------------------------------------------------------------- JSON, text and pictures
tilings = st.sampled_from(list(dm.solutions(dm.Problem(4, 5), Limits())))


@settings(max_examples=40)
@given(tilings)
def test_json_and_text_round_trips(tiling):
    problem = dm.Problem(4, 5)
    document = json.loads(json.dumps(dm.PUZZLE.answer_to_json(problem, tiling)))
    assert dm.PUZZLE.answer_from_json(problem, document) == tiling
    text = dm.PUZZLE.text_of(problem, tiling)
    assert CELL_PAIRS.read(text) == tiling and set(text) <= set("<>^v \n")


def test_the_text_picture_of_a_tiling():
    problem = dm.Problem(2, 3)
    tiling = CellPairs(problem.grid, ((0, 3), (1, 2), (4, 5)))
    assert dm.PUZZLE.text_of(problem, tiling) == "^ < >\nv < >"


@pytest.mark.parametrize(
    "document", [{"a1": "a2"}, [["a1", "a2", "a3"]], [["a1", "z9"]], [["a1", "b2"]], [["a1", "a2"], ["a2", "a1"]]]
)
def test_bad_json_is_one_clear_error(document):
    with pytest.raises(BoardPuzzlesError):
        dm.PUZZLE.answer_from_json(dm.Problem(2, 2), document)


def test_the_picture_draws_each_domino_as_one_tile():
    problem = dm.Problem(4, 4)
    tiling = next(dm.solutions(problem, Limits()))
    scene = dm.PUZZLE.to_scene(problem, tiling)
    assert [(a, b) for a, b, _ in scene.spans] == list(tiling.pairs) and not scene.pieces
    root = ET.fromstring(sheet_svg([scene]))
    tiles = [e for e in root.iter("{http://www.w3.org/2000/svg}rect") if e.find("{*}title") is not None]
    names = {e.find("{*}title").text for e in tiles}
    assert {f"{problem.grid.name(a)}-{problem.grid.name(b)}" for a, b in tiling.pairs} <= names
    # a tile across is about two cells wide and one high
    across = next(e for e in tiles if e.find("{*}title").text == "a4-b4")
    assert float(across.get("width")) > 1.5 * float(across.get("height"))


# ---------------------------------------------------------------- the command line
def test_the_command_line(capsys, tmp_path):
    assert _run(["dominoes", "count", "8"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "12988816"  # OEIS A004003
    assert _run(["dominoes", "count", "21x21"]) == 2
    assert "20 on the shorter side" in capsys.readouterr().err
    assert _run(["dominoes", "solve", "2x3", "--svg", str(tmp_path / "t.svg")]) == 0
    assert (tmp_path / "t.svg").read_text().count("<title>") >= 3
