"""Goishi Hiroi's generator: the seed layouts, the layout counter against the plain reference,
the ``grow`` and ``regrow`` methods (every puzzle proven unique and checked independently)."""

from __future__ import annotations

import functools
import json
import math
import random
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardpuzzles.cli import _run
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.puzzles import goishi as gh
from boardpuzzles.puzzles.goishi import search
from tests.reference import _goishi_next, goishi_orders

ROOT = Path(__file__).resolve().parent.parent


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
                r, c = gh.turned(*divmod(bit, side), side, symmetry)
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
    kernels = gh.load_kernels()
    flag = np.zeros(1, dtype=np.int64)
    expected = len(goishi_orders(rows, cols, _cells_to_coords(cols, cells)))
    for cap in (1, 2, 1000):
        total = kernels.count_layout(rows, cols, found, gh.STONE_BITS[: len(cells)], cap, gh.MAX_MEMO_SLOTS, flag, 0)
        assert total == min(cap, expected)


@pytest.mark.nojit
@settings(max_examples=40, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.data())
def test_layout_rays_match_the_tables(rows, cols, data):
    cells = sorted(data.draw(st.sets(st.integers(0, rows * cols - 1), min_size=1, max_size=rows * cols)))
    puzzle = gh.Puzzle(rows, cols, tuple(cells))
    ray, bit = gh.tables(puzzle)
    got = gh.load_kernels().layout_rays(rows, cols, np.array(cells, dtype=np.int64), bit)
    assert np.array_equal(got, ray)


def test_a_step_budget_gives_over_budget_not_an_answer():
    # 16 stones in a full 4x4 block have many orders; one step is not enough to count them.
    cells = np.arange(16, dtype=np.int64)
    kernels = gh.load_kernels()
    flag = np.zeros(1, dtype=np.int64)
    assert kernels.count_layout(4, 4, cells, gh.STONE_BITS[:16], 2, gh.MAX_MEMO_SLOTS, flag, 1) == kernels.OVER_BUDGET
    assert kernels.count_layout(4, 4, cells, gh.STONE_BITS[:16], 2, gh.MAX_MEMO_SLOTS, flag, 0) == 2


@pytest.mark.parametrize("method", gh.METHODS)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), side=st.integers(5, 9), stones=st.integers(8, 12))
def test_both_methods_make_unique_puzzles(method, seed, side, stones):
    # At most 12 stones: the old `regrow` needs up to 26 s for 14 stones on 5x5 on a quiet machine
    # (348 random cases), which failed this test's time limit under load; with 12, 1.2 s at most.
    made = gh.generate(side, side, stones, seed=seed, limits=Limits(120), method=method)
    assert made.puzzle.size == stones and made.method in gh.METHODS
    assert gh.check(made.puzzle, made.order)  # the independent checker
    assert gh.count(made.puzzle) == 1
    assert len(goishi_orders(side, side, _cells_to_coords(side, made.puzzle.stones))) == 1
    again = gh.generate(side, side, stones, seed=seed, limits=Limits(120), method=method)
    assert again.puzzle == made.puzzle and again.order == made.order


def test_grow_makes_a_unique_15x15_with_40_stones():
    made = gh.generate(15, 15, 40, seed=3, limits=Limits(60))
    assert made.method == "grow" and made.puzzle.size == 40
    assert gh.check(made.puzzle, made.order) and gh.count(made.puzzle) == 1


def test_join_makes_a_unique_19x19_with_60_stones_crossing_once():
    made = gh.generate(19, 19, 60, seed=4, limits=Limits(120))
    assert made.method == "join" and made.puzzle.size == 60
    assert gh.check(made.puzzle, made.order) and gh.count(made.puzzle) == 1
    (_, _, stones_a), _ = gh.generator._halves(19, 19, 60)
    a, b = made.order[:stones_a], made.order[stones_a:]
    lines = lambda cells: {("r", c // 19) for c in cells} | {("c", c % 19) for c in cells}  # noqa: E731
    assert lines(a) & lines(b) == {("r", b[0] // 19)}  # the halves share one row, where they meet
    assert a[-1] // 19 == b[0] // 19 and sum(c // 19 == b[0] // 19 for c in b) == 1


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), side=st.integers(8, 11))
def test_join_on_small_boards_is_unique_by_the_plain_reference_too(seed, side):
    made = gh.generate(side, side, 16, seed=seed, limits=Limits(30), method="join")
    assert made.method == "join" and gh.check(made.puzzle, made.order)
    assert len(goishi_orders(side, side, _cells_to_coords(side, made.puzzle.stones))) == 1


def test_auto_grows_below_join_from_and_join_needs_room():
    assert gh.generate(12, 12, 20, seed=1).method == "grow"
    assert not gh.generator._join_fits(7, 7, 16) and gh.generate(7, 7, 16, seed=1, method="join").method == "grow"


def test_small_boards_and_few_stones_fall_back_to_regrow():
    made = gh.generate(3, 6, 8, seed=1, limits=Limits(30))
    assert made.method == "regrow" and gh.is_unique(made.puzzle)


def test_an_unknown_method_is_refused_in_one_line():
    with pytest.raises(BoardPuzzlesError, match="method must be one of auto, grow, join, regrow"):
        gh.generate(8, 8, 12, seed=1, method="magic")


def test_growth_options_keep_the_walk_legal():
    rng = random.Random(5)
    walk = gh.generator._seed_walk(9, 9, 20, rng)
    puzzle = gh.Puzzle(9, 9, tuple(walk))
    assert gh.check(puzzle, walk)
    options = gh.generator._growth_options(9, 9, walk)
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
    code, out, err = _cli(capsys, "goishi", "generate", "9x9", "--stones", "16", "--seed", "2", "--method", method)
    ran = gh.generate(9, 9, 16, seed=2, method=method).method
    assert code == 0 and f"({ran}:" in err and (ran == method or method == "auto")
    puzzle = gh.Puzzle.parse(out)
    assert puzzle.size == 16 and gh.count(puzzle) == 1


def test_a_method_that_cannot_serve_says_why_and_which_runs():
    assert gh.fallback_reason(9, 9, 16, "join") is None and gh.fallback_reason(5, 5, 10, "auto") is None
    join = gh.fallback_reason(5, 5, 10, "join")
    assert join is not None and join.startswith("join cannot serve 10 stones on 5x5 (join would split it into 3x3")
    assert join.endswith("): grow runs instead")
    grow = gh.fallback_reason(3, 6, 8, "grow")
    assert grow == "grow cannot serve 8 stones on 3x6 (grow needs a board of at least 4x4 and at least 7 stones): " + (
        "regrow runs instead"
    )
    assert gh.generate(3, 6, 8, seed=1, method="grow", limits=Limits(30)).method == "regrow"


def test_cli_generate_says_when_the_method_asked_cannot_serve(capsys):
    code, out, err = _cli(capsys, "goishi", "generate", "5", "--stones", "10", "--method", "join", "--seed", "3")
    said = [line for line in err.splitlines() if "cannot serve" in line]
    assert code == 0 and gh.Puzzle.parse(out).size == 10 and "(grow:" in err
    assert len(said) == 1 and said[0].startswith("--method join cannot serve 10 stones on 5x5 (")
    code, _, err = _cli(capsys, "goishi", "generate", "5", "--stones", "10", "--method", "grow", "--seed", "3")
    assert code == 0 and "cannot serve" not in err


def test_cli_generate_refuses_an_unknown_method(capsys):
    code, _, err = _cli(capsys, "goishi", "generate", "9x9", "--stones", "14", "--method", "magic")
    assert code == 2 and "magic" in err


# ---------------------------------------------------------------- hints and ratings
def _plain_doomed(rows, cols, on_board, cur) -> bool:
    """A stone left that sees no stone (nor ``cur``) along any line, or two seeing some along one."""
    seen = set(on_board) | {cur}
    enders = 0
    for s in on_board:
        dirs = sum(
            1
            for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
            if any((s[0] + k * dr, s[1] + k * dc) in seen for k in range(1, max(rows, cols)))
        )
        if dirs == 0:
            return True
        enders += dirs == 1
    return enders >= 2


def _plain_depth(rows, cols, on_board, cur, came) -> int:
    """The most pick-ups a line makes from here before it stops or is doomed (plain, no memo)."""
    if _plain_doomed(rows, cols, on_board, cur):
        return 0
    best = 0
    for step in ((-1, 0), (0, 1), (1, 0), (0, -1)):
        if came is not None and step == (-came[0], -came[1]):
            continue
        nxt = _goishi_next(rows, cols, on_board, cur, step)
        if nxt is not None:
            best = max(best, 1 + _plain_depth(rows, cols, on_board - {nxt}, nxt, step))
    return best


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), side=st.integers(5, 7), stones=st.integers(8, 11))
def test_hints_follow_the_only_order_and_refute_the_rest_as_deep_as_the_plain_search(seed, side, stones):
    made = gh.generate(side, side, stones, seed=seed, limits=Limits(30))
    puzzle, order = made.puzzle, made.order
    coords = _cells_to_coords(side, puzzle.stones)
    (only,) = goishi_orders(side, side, coords)
    for k in range(stones):
        found = gh.hint(puzzle, order[:k])
        assert found.forced and found.right == (order[k],)
        assert {c for c, _ in found.wrong} | {order[k]} == {c for c, _ in gh.legal_moves(puzzle, order[:k])}
        on_board = coords - _cells_to_coords(side, order[:k])
        for cell, depth in found.wrong:
            at = divmod(cell, side)
            came = None
            if k:
                here = divmod(order[k - 1], side)
                came = ((at[0] > here[0]) - (at[0] < here[0]), (at[1] > here[1]) - (at[1] < here[1]))
            assert not only[: k + 1] == tuple(_cells_to_coords(side, [c]).pop() for c in (*order[:k], cell))
            expected = 1 + _plain_depth(side, side, on_board - {at}, at, came)
            assert depth == (expected if expected <= gh.LOOKAHEAD_CAP else None)
    rating = gh.rate(puzzle)
    assert rating.choices == sum(len(gh.legal_moves(puzzle, order[:k])) > 1 for k in range(stones))
    assert len(rating.steps) == stones and (rating.steps[0] is None or rating.steps[0] >= 1)


def test_a_hint_after_a_wrong_start_says_nothing_leads_on():
    made = gh.generate(7, 7, 10, seed=3, limits=Limits(30))
    wrong = gh.hint(made.puzzle).wrong[0][0]
    found = gh.hint(made.puzzle, (wrong,))
    assert found.right == () and "lead nowhere" in gh.hint_text(made.puzzle, found)


def test_a_puzzle_with_several_orders_has_no_rating_and_no_forced_start():
    puzzle = gh.Puzzle.from_rows(["OO", ".."])
    assert not gh.hint(puzzle).forced and "no forced move" in gh.hint_text(puzzle, gh.hint(puzzle))
    with pytest.raises(BoardPuzzlesError, match="exactly one order"):
        gh.rate(puzzle)


def test_cli_hint_names_the_forced_pick_ups_and_rates(capsys, tmp_path):
    made = gh.generate(8, 8, 14, seed=5, limits=Limits(30))
    path = tmp_path / "p.txt"
    path.write_text(str(made.puzzle) + "\n")
    name = made.puzzle.name
    code, out, _ = _cli(capsys, "goishi", "hint", str(path))
    assert code == 0 and out.startswith(f"start at {name(made.order[0])}:")
    prefix = " ".join(name(c) for c in made.order[:3])
    code, out, _ = _cli(capsys, "goishi", "hint", str(path), "--order", prefix, "--rate", "--json")
    document = json.loads(out)
    assert code == 0 and document["right"] == [name(made.order[3])] and document["forced"]
    assert document["rating"]["choices"] == gh.rate(made.puzzle).choices
    code, _, err = _cli(
        capsys, "goishi", "hint", str(path), "--order", f"{name(made.order[1])} {name(made.order[0])} a1"
    )
    assert code == 2 and "illegal" in err and "\n" not in err.strip()


# ---------------------------------------------------------------- layouts with exactly one order
def _plain_unique_layouts(n: int, max_stones: int) -> tuple[list[int], list[int]]:
    """By plain search (tests/reference.py): layouts of the n x n board with at most ``max_stones``
    stones and exactly one order, by size, in total and one per class of the 8 symmetries."""
    by_size, classes = [0] * (n * n + 1), [0] * (n * n + 1)
    for mask in range(1, 1 << (n * n)):
        if mask.bit_count() > max_stones:
            continue
        stones = {divmod(p, n) for p in range(n * n) if mask >> p & 1}
        if len(goishi_orders(n, n, stones)) != 1:
            continue
        by_size[len(stones)] += 1
        images = [sum(1 << int(gh.square_images(n)[t, p]) for p in range(n * n) if mask >> p & 1) for t in range(8)]
        classes[len(stones)] += min(images) == mask
    return by_size, classes


@pytest.mark.nojit
@pytest.mark.parametrize("n", [1, 2, 3])
def test_unique_layout_counts_match_the_plain_search(n):
    found = gh.unique_layout_counts(n)
    by_size, classes = _plain_unique_layouts(n, n * n)
    assert list(found.by_size) == by_size and list(found.classes_by_size) == classes


def test_unique_layouts_of_4x4_single_stones_and_the_seeds():
    found = gh.unique_layout_counts(4)
    by_size, classes = _plain_unique_layouts(4, 6)  # the plain search up to 6 stones (14893 layouts)
    assert list(found.by_size[:7]) == by_size[:7] == [0, 16, 0, 0, 0, 0, 0]
    assert list(found.classes_by_size[:7]) == classes[:7]
    # Every class of 7 stones or more is a seed (each checked above by the plain search), and
    # no seed is missing.
    assert found.classes - found.classes_by_size[1] == len(gh.SEEDS)
    for k in range(7, 17):
        assert found.classes_by_size[k] == sum(m.bit_count() == k for m in gh.SEEDS)
    assert (found.total, found.classes) == (416, 53)


def test_unique_layout_counts_refuse_a_bad_side_and_stop_at_the_time_limit():
    for side in (0, 7, 8, True):
        with pytest.raises(BoardPuzzlesError, match="side must be"):
            gh.unique_layout_counts(side)
    with pytest.raises(TimeLimitReached):
        gh.unique_layout_counts(6, Limits(0.05))


def _kernel_sums(kernel, n, lo, hi, table):
    by_size, classes = np.zeros(n * n + 1, np.int64), np.zeros(n * n + 1, np.int64)
    assert kernel(n, lo, hi, table, gh.STONE_BITS, by_size, classes, np.zeros(1, np.int64)) == hi
    return by_size.tolist(), classes.tolist()


def test_image_bytes_give_the_images_of_square_images():
    rng = random.Random(5)
    for n in (3, 5, 6):
        table, images = gh.image_bytes(n), gh.square_images(n)
        for _ in range(50):
            mask = rng.getrandbits(n * n)
            for t in range(8):
                by_bytes = 0
                for g in range(table.shape[1]):
                    by_bytes |= int(table[t, g, (mask >> (8 * g)) & 255])
                assert by_bytes == sum(1 << int(images[t, p]) for p in range(n * n) if mask >> p & 1)


def test_searching_one_layout_a_class_agrees_with_searching_every_layout():
    """The class kernel against the kernel that searches every layout: all of 4x4, and ranges of
    5x5 and 6x6 (each holding classes), where the classes whose least layout lies in the range
    must agree, and each class found must weigh its orbit's size, counted here in Python."""
    kernels = gh.load_kernels()
    every = _kernel_sums(kernels.unique_layouts, 4, 0, 1 << 16, gh.square_images(4))
    one_a_class = _kernel_sums(kernels.unique_layout_classes, 4, 0, 1 << 16, gh.image_bytes(4))
    assert one_a_class == every and sum(every[0]) == 416
    for n, width, starts in ((5, 1 << 14, (0, 5 << 14, 97 << 14)), (6, 1 << 12, (0, 3 << 20, 40 << 25))):
        images = gh.square_images(n)
        for lo in starts:
            by_size, classes = _kernel_sums(kernels.unique_layout_classes, n, lo, lo + width, gh.image_bytes(n))
            assert sum(classes) > 0
            assert classes == _kernel_sums(kernels.unique_layouts, n, lo, lo + width, images)[1]
            orbits = [0] * (n * n + 1)
            for mask in range(max(lo, 1), lo + width):
                points = [p for p in range(n * n) if mask >> p & 1]
                orbit = {sum(1 << int(images[t, p]) for p in points) for t in range(8)}
                if mask == min(orbit) and _orders_capped(n, points) == 1:
                    orbits[len(points)] += len(orbit)
            assert by_size == orbits


def _orders_capped(n: int, points: list[int]) -> int:
    """Orders of the layout capped at 2, by the solver's own count (no whole-layout test, starts
    in board order): the check of the layout kernels' shortcuts."""
    cells = np.array(points, dtype=np.int64)
    return int(gh.load_kernels().count_layout(n, n, cells, gh.STONE_BITS, 2, 1 << 12, np.zeros(1, np.int64), 0))


def test_the_layout_kernels_shortcuts_agree_with_the_solvers_count():
    """``_orders_of_mask`` (a whole-layout test, then the starts that see one direction only
    first) against the solver's count on random layouts of every density, many of them turned
    away by the whole-layout test."""
    kernels = gh.load_kernels()
    rng = random.Random(11)
    rays = {n: kernels.board_rays(n, gh.STONE_BITS) for n in (4, 5, 6)}
    roots = np.empty((36, 3), np.int64)
    memo = [np.zeros(1 << 10, np.int64) for _ in range(3)]
    used = np.zeros(1, np.int64)  # kept from layout to layout, as the kernels keep it: the memo is cleared
    no_order = 0
    for _ in range(3000):
        n = rng.choice((4, 5, 6))
        density = rng.random()
        mask = sum(1 << p for p in range(n * n) if rng.random() < density) or 1
        points = [p for p in range(n * n) if mask >> p & 1]
        flag = np.zeros(1, np.int64)
        total, k, *memo = kernels._orders_of_mask(n, mask, rays[n], gh.STONE_BITS, roots, *memo, used, flag)
        assert (int(total), int(k)) == (_orders_capped(n, points), len(points)), mask
        no_order += total == 0
    assert no_order > 100


def _doomed_by_walking(n: int, stones: set[int], cur: int) -> bool:
    """``doomed`` in plain Python: walk the board from each stone left (``cur`` just picked)."""
    seen = stones | {cur}
    enders = 0
    for p in stones:
        directions = 0
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            r, c = divmod(p, n)
            r, c = r + dr, c + dc
            while 0 <= r < n and 0 <= c < n and r * n + c not in seen:
                r, c = r + dr, c + dc
            directions += 0 <= r < n and 0 <= c < n
        if directions == 0:
            return True
        enders += directions == 1
    return enders >= 2


@pytest.mark.nojit
def test_the_bit_parallel_doomed_test_agrees_with_walking_the_board():
    """``doomed_square`` (shifts along rows and columns) against a walk over the board, and against
    the solver's ``doomed`` over the board's rays, on random layouts of 1 to 7 a side."""
    kernels = gh.load_kernels()
    rng = random.Random(5)
    verdicts = set()
    for _ in range(4000):
        n = rng.randint(1, 7)
        density = rng.random()
        points = [p for p in range(n * n) if rng.random() < density] or [0]
        cur = rng.choice(points)
        stones = set(points) - {cur}
        mask = sum(1 << p for p in stones)
        expected = _doomed_by_walking(n, stones, cur)
        assert bool(kernels.doomed_square(mask, 1 << cur, n)) == expected, (n, points, cur)
        assert bool(kernels.doomed(kernels.board_rays(n, gh.STONE_BITS), gh.STONE_BITS, mask, cur)) == expected
        verdicts.add(expected)
    assert verdicts == {True, False}


def test_unique_layouts_of_5x5_resume_from_a_checkpoint_with_the_same_counts(tmp_path, monkeypatch):
    """5x5 (docs/records.md: 322,257 layouts, 40,285 classes, first found by searching all 2^25
    layouts; the 1,200 of 7 stones follow from 4x4's 96 by hand there). A run stopped part way
    and resumed from its checkpoint gives the same counts."""
    path = str(tmp_path / "five.db")
    gh.unique_layout_counts(4)  # the kernels loaded before the clock starts
    # Stopped part way: the first limit that lets some subtasks finish (a loaded machine may
    # finish none in a second); the file is new each time, so the stop is one run's alone.
    for seconds in (1.0, 4.0, 16.0):
        Path(path).unlink(missing_ok=True)
        with pytest.raises(TimeLimitReached) as stopped:
            gh.unique_layout_counts(5, Limits(seconds, checkpoint=path, jobs=1))
        if stopped.value.done > 0:
            break
    assert 0 < stopped.value.done < stopped.value.total
    counted = []
    work = search._layout_piece

    @functools.wraps(work)  # the same name and module: the checkpoint's plan is the same
    def counting(spec, limits):
        counted.append(spec)
        return work(spec, limits)

    monkeypatch.setattr(search, "_layout_piece", counting)
    found = gh.unique_layout_counts(5, Limits(checkpoint=path, jobs=2))
    assert len(counted) == stopped.value.total - stopped.value.done  # the rest only: the file was read
    assert (found.total, found.classes) == (322_257, 40_285)
    assert found.by_size[7] == 1_200 and found.classes_by_size[15] == 36


def test_the_committed_6x6_checkpoint_holds_the_whole_count_for_the_current_plan(tmp_path, monkeypatch):
    """The 6x6 record (docs/records.md, "Goishi Hiroi: layouts with exactly one pick-up order":
    429,381,348 layouts, 53,672,670 classes, 5.5 hours of two cores) lives in
    records/goishi-layouts-6.db. A change to the plan of ranges or to what the checkpoint is bound
    to would make the file refused, and the record could no longer be printed or audited: this
    test fails first. A copy is read, so the committed file is never written."""
    committed = ROOT / "records" / "goishi-layouts-6.db"
    copy = tmp_path / "six.db"
    shutil.copyfile(committed, copy)
    four_by_four = gh.unique_layout_counts(4)
    work = search._layout_piece

    @functools.wraps(work)  # the same plan; any range left to search would be a failure
    def must_not_run(spec, limits):
        raise AssertionError(f"range {spec} is missing from the committed checkpoint")

    monkeypatch.setattr(search, "_layout_piece", must_not_run)
    found = gh.unique_layout_counts(6, Limits(checkpoint=str(copy), jobs=1))
    assert (found.total, found.classes) == (429_381_348, 53_672_670)
    # No one-order layout of 2 or more stones is symmetric (as on 5x5): 8 layouts a class.
    assert all(found.by_size[k] == 8 * found.classes_by_size[k] for k in range(2, len(found.by_size)))
    # An empty row or column changes no order, and 4x4's 96 layouts of 7 stones each fill 4 rows
    # and 3 of the 4 columns or the transpose: 96 / (2 * 4) = 12 patterns of 4 x 3, so 6x6 has
    # C(6,4) * C(6,3) * 12 * 2 of them (the same argument gives 5x5's 1,200).
    patterns = four_by_four.by_size[7] // (2 * math.comb(4, 3))
    assert found.by_size[7] == math.comb(6, 4) * math.comb(6, 3) * patterns * 2 == 7_200
    assert (found.by_size[1], found.classes_by_size[1]) == (36, 6)


def test_cli_layouts(capsys, tmp_path):
    code, out, err = _cli(capsys, "goishi", "layouts", "4", "--json")
    document = json.loads(out)
    assert code == 0 and (document["layouts"], document["classes"]) == (416, 53)
    assert document["by_stones"]["7"] == [96, 12]
    code, out, err = _cli(capsys, "goishi", "layouts", "3")
    assert code == 0 and out.splitlines()[0] == "9 layouts of 3x3 have exactly one order (3 up to symmetry)"
    code, out, err = _cli(capsys, "goishi", "layouts", "4")
    table = out.splitlines()[1:]  # one row a number of stones, the columns aligned on the right
    assert code == 0 and table[0] == "   1 stone :  16  (3)" and table[1] == "   7 stones:  96 (12)"
    assert len(table) == 5 and len({len(row) for row in table}) == 1
    code, out, err = _cli(capsys, "goishi", "layouts", "7")
    assert code == 2 and "\n" not in err.strip() and not out
    code, out, err = _cli(capsys, "goishi", "layouts", "6", "--time-limit", "0.5", "--json")
    stopped = json.loads(out)
    assert code == 3 and stopped["complete"] is False and stopped["subtasks"] == 2048
    assert stopped["partial_count"] >= 0 and "stopped at the time limit" in err
    path = tmp_path / "c.db"
    assert _cli(capsys, "goishi", "layouts", "3", "--checkpoint", str(path))[0] == 0
    code, out, err = _cli(capsys, "goishi", "layouts", "4", "--checkpoint", str(path))
    assert code == 2 and "\n" not in err.strip() and not out


def test_a_hint_on_a_puzzle_without_an_order_says_every_start_fails(capsys, tmp_path):
    puzzle = gh.Puzzle.from_rows(["O.", ".O"])  # two stones on no common line
    assert gh.count(puzzle) == 0
    found = gh.hint(puzzle)
    assert found.right == () and gh.hint_text(puzzle, found) == "no order picks up every stone: every start fails"
    path = tmp_path / "p.txt"
    path.write_text(str(puzzle) + "\n")
    assert _cli(capsys, "goishi", "hint", str(path))[0] == 1


def test_giving_up_at_the_most_stones_does_not_suggest_more():
    with pytest.raises(gh.GenerationTimeout, match="try another seed, or fewer stones"):
        gh.generate(19, 19, gh.MAX_STONES, seed=0, limits=Limits(0.2))
