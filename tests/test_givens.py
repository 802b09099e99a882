"""Puzzle modes: givens whose completion is unique (Less Than Three, queens and HyperQueen,
knight's tours).

Each generator is checked against an independent brute force on small sizes: every board (or
tour) the puzzle's own search lists is filtered by the givens, and exactly one must be left, the
generator's solution, which the puzzle's own checker accepts. The same seed gives the same
puzzle, and a harder level never has more givens than an easier one.
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardpuzzles.errors import BoardPuzzlesError, SizeError
from boardpuzzles.puzzles import knights_tour as kt
from boardpuzzles.puzzles import less_than_three as lt3
from boardpuzzles.puzzles import queens
from boardpuzzles.puzzles.knights_tour import givens as kt_givens
from boardpuzzles.puzzles.less_than_three import givens as lt3_givens
from boardpuzzles.puzzles.queens import givens as queens_givens

LEVELS = ("easy", "medium", "hard")
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


# ---------------------------------------------------------------- Less Than Three
@functools.cache
def lt3_boards(size):
    """Every two-colour board of the size, listed by the stone by stone search (not the pairs of
    one-colour boards the generator uses), as {cell: letter} of the stones."""
    boards = lt3.solutions(lt3.Problem(lt3.Rules(size, 2, 2)))
    return [{c: p for c, p in enumerate(b) if p != "."} for b in boards]


def lt3_brute(size, givens):
    return [b for b in lt3_boards(size) if all(b.get(c) == letter for c, letter in givens.items())]


def test_lt3_the_pairs_are_the_boards_the_search_counts():
    # The seed puzzle has 42 placements (the seed article).
    for size, known in ((6, 42), (7, None)):
        pairs = lt3_givens._pairs(size).pairs
        assert len(pairs) == len(lt3_boards(size)) == (known or lt3.count(lt3.Problem(lt3.Rules(size))))


@pytest.mark.parametrize("size", [6, 7])
@pytest.mark.parametrize("difficulty", LEVELS)
@pytest.mark.parametrize("seed", range(6))
def test_lt3_the_completion_is_unique_by_brute_force(size, difficulty, seed):
    puzzle = lt3_givens.make(size, difficulty, seed)
    only = lt3_brute(size, puzzle.givens)
    assert len(only) == 1
    assert only[0] == {c: p for c, p in enumerate(puzzle.solution) if p != "."}
    assert not lt3.violations(puzzle.problem, puzzle.solution)
    assert all(puzzle.solution[c] == letter for c, letter in puzzle.givens.items())
    assert lt3_givens.completions(puzzle.rules, puzzle.givens) == [puzzle.solution]


@given(seed=SEEDS, size=st.sampled_from(lt3_givens.SIZES))
def test_lt3_same_seed_same_puzzle_and_harder_has_fewer_givens(seed, size):
    made = [lt3_givens.make(size, level, seed) for level in LEVELS]
    assert made[0] == lt3_givens.make(size, "easy", seed)
    assert len({p.solution for p in made}) == 1  # one solution per (size, seed), every level
    sizes = [len(p.givens) for p in made]
    assert sizes == sorted(sizes, reverse=True)
    assert set(made[2].givens.items()) <= set(made[1].givens.items()) <= set(made[0].givens.items())
    for p in made:
        assert lt3_givens.completions(p.rules, p.givens, cap=3) == [p.solution]
        assert not lt3.violations(p.problem, p.solution)


@given(seed=st.integers(0, 1000))
def test_lt3_hard_givens_are_irreducible(seed):
    puzzle = lt3_givens.make(8, "hard", seed)
    for cell in puzzle.givens:
        fewer = {c: p for c, p in puzzle.givens.items() if c != cell}
        assert len(lt3_givens.completions(puzzle.rules, fewer)) == 2


def test_lt3_bad_requests_are_refused_with_a_reason():
    with pytest.raises(SizeError, match="6x6 to 10x10"):
        lt3_givens.make(3)
    with pytest.raises(BoardPuzzlesError, match="difficulty must be one of"):
        lt3_givens.make(6, "fiendish")
    with pytest.raises(BoardPuzzlesError, match="seed"):
        lt3_givens.make(6, "easy", -1)
    with pytest.raises(BoardPuzzlesError, match="a given is"):
        lt3_givens.completions(lt3.Rules(6), {0: "Q"})


# ---------------------------------------------------------------- queens and HyperQueen
@functools.cache
def queen_placements(size, torus):
    """Every placement, listed by the package's search (OEIS A000170 on the board: 4 on 6x6, 92
    on 8x8, 724 on 10x10; A051906 on the torus: 10 on 5x5, 28 on 7x7, 88 on 11x11)."""
    return list(queens.placements(queens.Problem(size, torus)))


def queens_brute(size, torus, givens):
    rows = {cell // size: cell % size for cell in givens}
    return [p for p in queen_placements(size, torus) if all(p[r] == c for r, c in rows.items())]


def test_queens_the_brute_force_lists_the_known_counts():
    known = {(6, False): 4, (8, False): 92, (10, False): 724, (5, True): 10, (7, True): 28, (11, True): 88}
    assert {key: len(queen_placements(*key)) for key in known} == known


@pytest.mark.parametrize(("size", "torus"), [(6, False), (8, False), (10, False), (5, True), (7, True), (11, True)])
@pytest.mark.parametrize("difficulty", LEVELS)
@pytest.mark.parametrize("seed", range(5))
def test_queens_the_completion_is_unique_by_brute_force(size, torus, difficulty, seed):
    puzzle = queens_givens.make(size, difficulty, seed, torus=torus)
    only = queens_brute(size, torus, puzzle.givens)
    assert len(only) == 1
    assert queens.to_board(puzzle.problem, only[0]) == puzzle.solution
    assert not queens.violations(puzzle.problem, puzzle.solution)
    assert all(puzzle.solution[c] == "Q" for c in puzzle.givens)
    assert queens_givens.completions(puzzle.problem, puzzle.givens, cap=5) == [puzzle.solution]


@given(seed=SEEDS, where=st.sampled_from([(n, False) for n in (4, 8, 12, 14)] + [(n, True) for n in (5, 7, 13)]))
def test_queens_same_seed_same_puzzle_and_harder_has_fewer_givens(seed, where):
    size, torus = where
    made = [queens_givens.make(size, level, seed, torus=torus) for level in LEVELS]
    assert made[1] == queens_givens.make(size, "medium", seed, torus=torus)
    assert len({p.solution for p in made}) == 1
    assert set(made[2].givens) <= set(made[1].givens) <= set(made[0].givens)
    for p in made:
        assert queens_givens.completions(p.problem, p.givens, cap=3) == [p.solution]
        assert not queens.violations(p.problem, p.solution)
    hard = made[2]
    for cell in hard.givens:  # irreducible: each given queen is needed
        fewer = {c: q for c, q in hard.givens.items() if c != cell}
        assert len(queens_givens.completions(hard.problem, fewer)) == 2


def test_queens_completions_of_givens_that_attack_each_other_are_none():
    problem = queens.Problem(8)
    assert queens_givens.completions(problem, {0: "Q", 9: "Q"}) == []  # a8 and b7 share a diagonal
    assert queens_givens.completions(problem, {0: "Q", 1: "Q"}) == []  # one row
    torus = queens.Problem(7, True)
    assert queens_givens.completions(torus, {0: "Q", 6 * 7 + 1: "Q"}) == []  # a wrapped diagonal


def test_queens_bad_requests_are_refused_with_a_reason():
    with pytest.raises(SizeError, match="4x4 to 14x14"):
        queens_givens.make(3)
    with pytest.raises(SizeError, match="Polya"):
        queens_givens.make(9, torus=True)
    with pytest.raises(BoardPuzzlesError, match="difficulty must be one of"):
        queens_givens.make(8, "fiendish")
    with pytest.raises(BoardPuzzlesError, match="a given is"):
        queens_givens.completions(queens.Problem(8), {64: "Q"})


# ---------------------------------------------------------------- knight's tours
@functools.cache
def tours_from(size, start, closed):
    """Every tour from ``start``, listed by the package's exhaustive search (304 open tours of
    5x5 from a corner: the seed article)."""
    return list(kt.solutions(kt.Problem(size, size, start=start, closed=closed)))


def tours_brute(size, closed, givens):
    start = next(cell for cell, move in givens.items() if move == 1)  # the first number is always given
    return [t for t in tours_from(size, start, closed) if all(t[m - 1] == c for c, m in givens.items())]


def test_kt_the_brute_force_lists_the_known_count():
    assert len(tours_from(5, 0, False)) == 304  # the seed article


@pytest.mark.parametrize(("size", "closed", "seeds"), [(5, False, range(8)), (6, True, range(4)), (6, False, range(2))])
@pytest.mark.parametrize("difficulty", LEVELS)
def test_kt_the_completion_is_unique_by_brute_force(size, closed, seeds, difficulty):
    for seed in seeds:
        puzzle = kt_givens.make(size, difficulty, seed, closed=closed)
        assert tours_brute(size, closed, puzzle.givens) == [puzzle.solution]
        assert not kt.violations(puzzle.problem, puzzle.solution)
        assert all(puzzle.solution[m - 1] == c for c, m in puzzle.givens.items())
        assert kt_givens.completions(puzzle.problem, puzzle.givens, cap=3) == [puzzle.solution]


@settings(max_examples=6)  # each example makes three puzzles and proves each unique: seconds
@given(seed=SEEDS, where=st.sampled_from([(n, False) for n in kt_givens.SIZES] + [(n, True) for n in (6, 8)]))
def test_kt_same_seed_same_puzzle_and_harder_has_fewer_givens(seed, where):
    size, closed = where
    made = [kt_givens.make(size, level, seed, closed=closed) for level in LEVELS]
    assert made[2] == kt_givens.make(size, "hard", seed, closed=closed)
    assert len({p.solution for p in made}) == 1
    assert set(made[2].givens.items()) <= set(made[1].givens.items()) <= set(made[0].givens.items())
    n = size * size
    ends = {1} if closed else {1, n}
    for p in made:
        assert ends <= set(p.givens.values())
        assert kt_givens.completions(p.problem, p.givens, cap=3) == [p.solution]
        assert not kt.violations(p.problem, p.solution)


@pytest.mark.parametrize("seed", range(3))
def test_kt_hard_givens_are_irreducible_where_the_search_can_tell(seed):
    puzzle = kt_givens.make(6, "hard", seed)
    for cell, move in puzzle.givens.items():
        if move in (1, 36):
            continue
        fewer = {c: m for c, m in puzzle.givens.items() if c != cell}
        try:
            found = kt_givens.completions(
                puzzle.problem, fewer, max_nodes=kt_givens.MAX_NODES, max_options=kt_givens.MAX_OPTIONS
            )
        except kt_givens.Undecided:
            continue
        assert len(found) == 2


def test_kt_a_search_with_too_few_numbers_is_undecided_not_endless():
    with pytest.raises(kt_givens.Undecided, match="ways to fill"):
        kt_givens.completions(kt.Problem(8, 8), {0: 1})
    with pytest.raises(kt_givens.Undecided, match="stopped after"):
        puzzle = kt_givens.make(6, "hard", 0)
        kt_givens.completions(puzzle.problem, puzzle.givens, max_nodes=0)


def test_kt_givens_that_no_tour_visits_have_no_completion():
    problem = kt.Problem(5, 5)
    assert kt_givens.completions(problem, {0: 1, 1: 2}) == []  # a1 and b1 are no knight's move apart
    assert kt_givens.completions(problem, {0: 1, 7: 1}) == []  # two first squares


def test_kt_bad_requests_are_refused_with_a_reason():
    with pytest.raises(SizeError, match="5x5, 6x6, 7x7, 8x8"):
        kt_givens.make(4)
    with pytest.raises(SizeError, match="closed knight's tour puzzle is 6x6, 8x8"):
        kt_givens.make(7, closed=True)
    with pytest.raises(BoardPuzzlesError, match="difficulty must be one of"):
        kt_givens.make(6, "fiendish")
    with pytest.raises(BoardPuzzlesError, match="a given is"):
        kt_givens.completions(kt.Problem(5, 5), {0: 26})
