"""Goishi Hiroi's generator: the seed layouts, the layout counter against the plain reference,
the ``grow`` and ``regrow`` methods (every puzzle proven unique and checked independently)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardpuzzles.cli import _run
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import goishi as gh
from tests.reference import goishi_orders


def _cells_to_coords(cols: int, cells) -> set[tuple[int, int]]:
    return {divmod(int(c), cols) for c in cells}


def _seed_cells(mask: int) -> list[int]:
    return [bit for bit in range(gh.SEED_SIDE**2) if mask >> bit & 1]


def test_every_seed_has_exactly_one_order_by_the_plain_reference():
    side = gh.SEED_SIDE
    for mask in gh.SEEDS:
        orders = goishi_orders(side, side, _cells_to_coords(side, _seed_cells(mask)))
        assert len(orders) == 1, mask


def test_each_seed_is_the_least_of_its_symmetry_class_and_classes_differ():
    side = gh.SEED_SIDE
    seen = set()
    for mask in gh.SEEDS:
        images = set()
        for symmetry in range(8):
            image = 0
            for bit in _seed_cells(mask):
                r, c = gh._turned(*divmod(bit, side), side, symmetry)
                image |= 1 << (r * side + c)
            images.add(image)
        assert min(images) == mask
        assert not images & seen
        seen |= images


@pytest.mark.nojit
@settings(max_examples=60, deadline=None)
@given(st.integers(2, 5), st.integers(2, 5), st.data())
def test_count_layout_matches_the_plain_reference(rows, cols, data):
    cells = sorted(data.draw(st.sets(st.integers(0, rows * cols - 1), min_size=1, max_size=min(9, rows * cols))))
    found = np.array(cells, dtype=np.int64)
    kernels = gh._kernels()
    flag = np.zeros(1, dtype=np.int64)
    expected = len(goishi_orders(rows, cols, _cells_to_coords(cols, cells)))
    for cap in (1, 2, 1000):
        total = kernels.count_layout(rows, cols, found, gh._BITS[: len(cells)], cap, gh.MAX_MEMO_SLOTS, flag, 0)
        assert total == min(cap, expected)


@pytest.mark.nojit
@settings(max_examples=40, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.data())
def test_layout_rays_match_the_tables(rows, cols, data):
    cells = sorted(data.draw(st.sets(st.integers(0, rows * cols - 1), min_size=1, max_size=rows * cols)))
    puzzle = gh.Puzzle(rows, cols, tuple(cells))
    ray, bit = gh.tables(puzzle)
    got = gh._kernels().layout_rays(rows, cols, np.array(cells, dtype=np.int64), bit)
    assert np.array_equal(got, ray)


def test_a_step_budget_gives_over_budget_not_an_answer():
    # 16 stones in a full 4x4 block have many orders; one step is not enough to count them.
    cells = np.arange(16, dtype=np.int64)
    kernels = gh._kernels()
    flag = np.zeros(1, dtype=np.int64)
    assert kernels.count_layout(4, 4, cells, gh._BITS[:16], 2, gh.MAX_MEMO_SLOTS, flag, 1) == kernels.OVER_BUDGET
    assert kernels.count_layout(4, 4, cells, gh._BITS[:16], 2, gh.MAX_MEMO_SLOTS, flag, 0) == 2


@pytest.mark.parametrize("method", gh.METHODS)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), side=st.integers(5, 9), stones=st.integers(8, 14))
def test_both_methods_make_unique_puzzles(method, seed, side, stones):
    made = gh.generate(side, side, stones, seed=seed, limits=Limits(30), method=method)
    assert made.puzzle.size == stones and made.method in gh.METHODS
    assert gh.check(made.puzzle, made.order)  # the independent checker
    assert gh.count(made.puzzle) == 1
    assert len(goishi_orders(side, side, _cells_to_coords(side, made.puzzle.stones))) == 1
    again = gh.generate(side, side, stones, seed=seed, limits=Limits(30), method=method)
    assert again.puzzle == made.puzzle and again.order == made.order


def test_grow_makes_a_unique_15x15_with_40_stones():
    made = gh.generate(15, 15, 40, seed=3, limits=Limits(60))
    assert made.method == "grow" and made.puzzle.size == 40
    assert gh.check(made.puzzle, made.order) and gh.count(made.puzzle) == 1


def test_small_boards_and_few_stones_fall_back_to_regrow():
    made = gh.generate(3, 6, 8, seed=1, limits=Limits(30))
    assert made.method == "regrow" and gh.is_unique(made.puzzle)


def test_an_unknown_method_is_refused_in_one_line():
    with pytest.raises(BoardPuzzlesError, match="method must be one of grow, regrow"):
        gh.generate(8, 8, 12, seed=1, method="magic")


def test_growth_options_keep_the_walk_legal():
    rng = random.Random(5)
    walk = gh._seed_walk(9, 9, 20, rng)
    puzzle = gh.Puzzle(9, 9, tuple(walk))
    assert gh.check(puzzle, walk)
    options = gh._growth_options(9, 9, walk)
    assert options
    for position, point, weight, kind in options:
        grown = walk[:position] + [point] + walk[position:]
        assert weight > 0 and point not in walk and 0 <= kind < len(gh.GROW_KINDS)
        assert gh.check(gh.Puzzle(9, 9, tuple(grown)), grown), (position, point)


def _cli(capsys, *args):
    code = _run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("method", gh.METHODS)
def test_cli_generate_with_each_method(capsys, method):
    code, out, err = _cli(capsys, "goishi", "generate", "9x9", "--stones", "14", "--seed", "2", "--method", method)
    assert code == 0 and f"({method}:" in err
    puzzle = gh.Puzzle.parse(out)
    assert puzzle.size == 14 and gh.count(puzzle) == 1


def test_cli_generate_refuses_an_unknown_method(capsys):
    code, _, err = _cli(capsys, "goishi", "generate", "9x9", "--stones", "14", "--method", "magic")
    assert code == 2 and "magic" in err
