"""The knight's tour played by hand (puzzles/knights_tour/play.py): clicks, faults, hints, the
solver's clicks and JSON, on blank boards and on puzzles with given numbers."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import Attempt, IllegalMove, play_of
from boardpuzzles.puzzles import get
from boardpuzzles.puzzles.knights_tour import Problem, solutions, violations
from boardpuzzles.puzzles.knights_tour import play as kt
from boardpuzzles.puzzles.knights_tour.play import PLAY, STEP, TourProblem

PUZZLE = get("knights-tour")
#: Squares of 6x6 by name (row 0 on top): a6 = 0, c5 = 8, d3 = 21, b4 = 13, c2 = 26, f1 = 35.
A6, C5, D3, B4, C2 = 0, 8, 21, 13, 26


def play(problem: TourProblem, path: tuple[int, ...], *cells: int) -> tuple[int, ...]:
    for cell in cells:
        path = PLAY.click(problem, path, cell, STEP)
    return path


def found(problem: TourProblem, path: tuple[int, ...]) -> list[Any]:
    """The faults of a path, less what is only left to do."""
    return [fault for fault in PLAY.faults(problem, path) if fault.kind != "unfinished"]


def blank(side: int = 6, closed: bool = False) -> TourProblem:
    return TourProblem(side, closed)


def numbered(moves: tuple[int, ...] = (1, 5, 10, 20, 36)) -> TourProblem:
    """A puzzle made by hand: the first tour of 6x6 from c5, with these move numbers given."""
    tour = next(solutions(Problem(6, 6, start=C5)))
    return TourProblem(6, givens=tuple((tour[m - 1], m) for m in moves), solution=tour)


# ---------------------------------------------------------------- the record and a new game
def test_the_record_plays_by_this_module_with_open_tours_first() -> None:
    assert play_of(PUZZLE) is PLAY  # type: ignore[arg-type]
    assert PLAY.sizes == (6, 5, 7, 8) and PLAY.difficulties == ("open", "closed", "easy", "medium", "hard")
    assert [t.name for t in PLAY.tools] == [STEP]
    problem, path = PLAY.new(6, "open", 0)
    assert problem == blank() and path == ()
    assert PLAY.new(8, "closed", 0) == (blank(8, closed=True), ())


def test_a_closed_tour_on_an_odd_board_is_refused_with_the_theorem() -> None:
    with pytest.raises(BoardPuzzlesError, match="no closed tour: a 5x5 board has an odd number of squares"):
        PLAY.new(5, "closed", 0)
    with pytest.raises(BoardPuzzlesError, match="difficulty is one of"):
        PLAY.new(6, "nightmare", 0)


def test_a_puzzle_has_given_numbers_a_unique_tour_through_them_and_the_same_seed_makes_it_again() -> None:
    problem, path = PLAY.new(5, "hard", 1)
    assert problem.givens and len(problem.solution) == 25
    assert not violations(Problem(5, 5), problem.solution)
    assert all(problem.solution[move - 1] == cell for cell, move in problem.givens)
    assert path == ((problem.square_of[1],) if 1 in problem.square_of else ())
    assert PLAY.new(5, "hard", 1) == (problem, path)
    easy, _ = PLAY.new(5, "easy", 1)
    assert easy.solution == problem.solution and len(easy.givens) > len(problem.givens)


# ---------------------------------------------------------------- clicks
def test_the_first_click_starts_then_knight_moves_and_a_click_on_the_last_takes_it_back() -> None:
    problem = blank()
    path = play(problem, (), C5)
    assert path == (C5,)
    path = play(problem, path, D3, B4)
    assert path == (C5, D3, B4)
    assert play(problem, path, B4) == (C5, D3)
    assert play(problem, (C5,), C5) == ()


@pytest.mark.parametrize(
    ("cell", "tool", "reason"),
    [
        (D3 + 1, STEP, "e3 is not a knight's move from b4"),
        (C5, STEP, r"c5 is already visited \(step 1\)"),
        (36, STEP, "cell 36 is off the 6x6 board"),
        (-1, STEP, "cell -1 is off the 6x6 board"),
        (A6, "queen", "no tool 'queen'"),
    ],
)
def test_illegal_clicks_are_refused_with_the_reason(cell: int, tool: str, reason: str) -> None:
    problem = blank()
    path = play(problem, (), C5, D3, B4)
    with pytest.raises(IllegalMove, match=reason):
        PLAY.click(problem, path, cell, tool)


def test_given_numbers_must_be_respected_and_a_given_start_stays() -> None:
    problem = TourProblem(6, givens=((C5, 1), (B4, 3), (A6, 7)))
    path = problem.start()
    assert path == (C5,)
    with pytest.raises(IllegalMove, match="c5 is the given start"):
        PLAY.click(problem, path, C5, STEP)
    with pytest.raises(IllegalMove, match="a6 shows 7: it is step 7, not step 2"):
        PLAY.click(problem, path, A6, STEP)  # c5 -> a6 is a knight's move
    path = play(problem, path, D3)
    with pytest.raises(IllegalMove, match="step 3 is given on b4: it cannot be skipped"):
        PLAY.click(problem, path, 10, STEP)  # d3 -> e5, a knight's move
    assert kt.legal_next(problem, path) == [B4]
    assert play(problem, path, B4) == (C5, D3, B4)


def test_the_legal_next_squares_are_the_unvisited_knight_moves() -> None:
    problem = blank()
    assert kt.legal_next(problem, ()) == []
    assert kt.legal_next(problem, (A6,)) == [C5, B4]
    assert kt.legal_next(problem, (C5, A6)) == [B4]


# ---------------------------------------------------------------- faults
def test_a_dead_end_is_named_at_once() -> None:
    problem = blank()
    path = play(problem, (), C5, D3, B4, A6)  # a6's two moves are both visited
    messages = [f.message for f in found(problem, path)]
    assert "dead end: no legal next square from a6, and 32 squares left" in messages
    assert next(f for f in found(problem, path) if f.message.startswith("dead end")).cells == (A6,)


def test_a_square_no_path_can_reach_is_named() -> None:
    problem = blank()
    path = play(problem, (), C5, D3, B4, C2)
    assert [f.message for f in found(problem, path)] == [
        "a6 can no longer be reached: every square a knight's move away is visited"
    ]
    assert found(problem, path[:3]) == []  # from b4 the knight still reaches a6


def test_a_closed_tour_whose_start_is_boxed_in_can_no_longer_close() -> None:
    problem = blank(closed=True)
    path = play(problem, (), A6, C5, D3, B4)
    assert "the tour can no longer close: every square a knight's move from the start, a6, is visited" in [
        f.message for f in found(problem, path)
    ]
    assert found(blank(), path) == []  # an open tour may go on


def test_a_full_path_that_does_not_close_is_a_fault_of_a_closed_tour_only() -> None:
    tour = next(t for t in solutions(Problem(6, 6, start=A6)) if violations(Problem(6, 6, closed=True), t))
    closed, open_ = blank(closed=True), blank()
    faults = found(closed, tour)
    assert faults == violations(Problem(6, 6, closed=True), tour)
    assert faults[0].message.startswith("not closed") and faults[0].lines == ((tour[-1], tour[0]),)
    assert not PLAY.solved(closed, tour) and PLAY.solved(open_, tour) and found(open_, tour) == []


def test_a_start_the_theorems_rule_out_is_a_fault() -> None:
    problem = blank(5)
    faults = found(problem, play(problem, (), 1))  # b5: not the corners' colour
    assert len(faults) == 1 and faults[0].message.startswith("no tour starts on b5: a 5x5 board has one more")


def test_a_given_number_out_of_reach_is_named() -> None:
    far = TourProblem(6, givens=((35, 3),))  # f1 at step 3, from a6 at step 1
    fault = found(far, (A6,))
    assert [f.message for f in fault] == [
        "step 3 is given on f1: from a6 the knight needs 4 moves through the unvisited squares, and 2 are left"
    ]
    assert fault[0].cells == (A6, 35)
    colour = TourProblem(6, givens=((C5, 3),))  # one move from a6, but step 3 is two moves on
    assert [f.message for f in found(colour, (A6,))] == [
        "step 3 is given on c5, but a knight changes colour every move: "
        "from a6 at step 1 it stands on that colour only at even steps"
    ]


# ---------------------------------------------------------------- solved agrees with the checker
@pytest.mark.parametrize("closed", [False, True])
def test_solved_agrees_with_the_record_checker_on_complete_paths(closed: bool) -> None:
    problem, rules = blank(closed=closed), Problem(6, 6, closed=closed)
    for tour in itertools.islice(solutions(Problem(6, 6, start=A6)), 0, 400, 20):
        assert PLAY.solved(problem, tour) == (not PUZZLE.violations(rules, tour))
    assert not PLAY.solved(problem, tour[:-1])


# ---------------------------------------------------------------- hints
def test_the_hint_on_a_blank_board_is_a_corner_then_warnsdorff() -> None:
    problem = blank()
    assert PLAY.hint(problem, (), Limits(30)).cells == (30,)  # a1
    path = (A6,)
    hint = PLAY.hint(problem, path, Limits(30))
    assert hint.message.startswith("Warnsdorff's rule: ") and hint.message.endswith("a tour finishes from there")
    (cell,) = hint.cells
    onward = {x: len(kt._moves(6)[x] - {A6}) for x in kt.legal_next(problem, path)}
    assert onward[cell] == min(onward.values())


def test_following_the_hints_finishes_a_tour() -> None:
    problem, path = PLAY.new(6, "closed", 0)
    for _ in range(36):
        path = play(problem, path, *PLAY.hint(problem, path, Limits(30)).cells)
    assert PLAY.solved(problem, path) and PLAY.hint(problem, path, Limits(30)).message == "solved: nothing left to do"


def test_the_hint_says_when_no_tour_finishes() -> None:
    problem = blank()
    trapped = play(problem, (), C5, D3, B4)  # a6 is left with a single way in, from b4: it must be last
    assert found(problem, trapped) == []
    hint = PLAY.hint(problem, trapped, Limits(30))
    assert hint.message == "no tour finishes from here (the search tried every way on): take back (undo)"
    cut = play(problem, trapped, C2)
    assert PLAY.hint(problem, cut, Limits(30)).message.startswith("no tour finishes from here: a6 can no longer")


def test_the_hint_admits_a_search_out_of_time(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(*args: Any) -> None:
        raise TimeLimitReached()

    monkeypatch.setattr(kt, "_completion", slow)
    hint = PLAY.hint(blank(8), (0,), Limits(1))
    assert hint.message.startswith("Warnsdorff's rule: ") and "could not tell in time" in hint.message


def test_the_hint_of_a_puzzle_is_the_next_square_of_its_tour_or_where_to_take_back() -> None:
    problem = numbered((1, 12, 24, 36))
    path, tour = problem.start(), problem.solution
    assert PLAY.hint(problem, path, Limits(30)).cells == (tour[1],)
    path = play(problem, path, *tour[1:3])
    wrong = next(x for x in kt.legal_next(problem, path) if x != tour[3] and not found(problem, path + (x,)))
    astray = play(problem, path, wrong)
    assert found(problem, astray) == []
    hint = PLAY.hint(problem, astray, Limits(30))
    assert hint.message.startswith("no tour through the given numbers finishes from here: take back to step 3")
    assert hint.cells == (wrong,)


# ---------------------------------------------------------------- the solver's clicks
def solve_by_clicks(size: int, difficulty: str, seed: int) -> Attempt[Any, Any]:
    attempt = Attempt.new(PLAY, size, difficulty, seed)
    assert PLAY.solution is not None
    for cell, tool in PLAY.solution(attempt.problem, attempt.state, Limits(60)):
        attempt.click(cell, tool)
    return attempt


@pytest.mark.parametrize(
    ("size", "difficulty", "seeds"),
    [(size, mode, range(2)) for size in (5, 6, 7, 8) for mode in ("open", "closed") if size % 2 == 0 or mode == "open"]
    + [(5, level, range(4)) for level in ("easy", "medium", "hard")]
    + [(6, level, range(3)) for level in ("easy", "hard")]
    + [(7, "hard", range(1)), (8, "medium", range(1))],
)
def test_every_seed_s_solution_passes_the_record_checker(size: int, difficulty: str, seeds: range) -> None:
    for seed in seeds:
        attempt = solve_by_clicks(size, difficulty, seed)
        problem = attempt.problem
        assert attempt.verdict().solved and attempt.verdict().faults == []
        assert PUZZLE.violations(problem.rules, attempt.state) == []
        assert all(attempt.state[move - 1] == cell for cell, move in problem.givens)


def test_the_solution_from_a_lost_position_takes_back_first() -> None:
    problem = blank()
    for lost in (play(problem, (), C5, D3, B4), play(problem, (), C5, D3, B4, C2)):
        path = lost
        assert PLAY.solution is not None
        clicks = PLAY.solution(problem, path, Limits(30))
        assert clicks[0] == (lost[-1], STEP)
        path = play(problem, path, *(cell for cell, _ in clicks))
        assert PLAY.solved(problem, path)
    puzzle = numbered()
    start = puzzle.start()
    astray = play(puzzle, start, next(x for x in kt.legal_next(puzzle, start) if x != puzzle.solution[len(start)]))
    assert PLAY.solved(puzzle, play(puzzle, astray, *(cell for cell, _ in PLAY.solution(puzzle, astray, Limits()))))


# ---------------------------------------------------------------- the picture
def test_the_scene_shows_steps_givens_and_the_legal_next_squares() -> None:
    problem = TourProblem(6, givens=((C5, 1), (B4, 3), (C2, 5)))
    path = play(problem, problem.start(), D3)
    scene = PLAY.scene(problem, path)
    assert scene.labels[C5] == "1" and scene.labels[D3] == "2" and scene.labels[C2] == "5"
    assert scene.path == [C5, D3] and scene.start == C5 and scene.end == D3
    assert scene.marks[B4] == kt.LEGAL_COLOUR and scene.marks[C2] == kt.GIVEN_COLOUR
    assert scene.marks[C5] == kt.GIVEN_COLOUR and D3 not in scene.marks
    assert "given" in scene.tooltips[C2]
    assert scene.text().splitlines()[1:3] == [". . 1 . . .", ". 3 . . . ."]  # c5 and b4, rows 2 and 3
    full = PLAY.scene(blank(6, closed=True), next(solutions(Problem(6, 6, start=A6, closed=True))))
    assert full.path[0] == full.path[-1] == A6 and not full.marks  # a closed tour drawn closed


# ---------------------------------------------------------------- JSON
def test_problem_and_path_survive_json_and_a_session_replays() -> None:
    problem = numbered()
    attempt = Attempt(PLAY, problem, problem.start())
    again = PLAY.problem_from_json(PLAY.problem_to_json(problem))
    assert again == problem
    for cell in PLAY.solution(problem, attempt.state, Limits(30))[:5]:  # type: ignore[misc]
        attempt.click(*cell)
    assert PLAY.state_from_json(again, PLAY.state_to_json(problem, attempt.state)) == attempt.state
    attempt.undo()
    restored = Attempt.from_json(PLAY, attempt.to_json())
    assert restored.state == attempt.state and restored.redo() == attempt.redo()


@pytest.mark.parametrize(
    "document",
    [
        None,
        [],
        {"size": 6, "closed": False, "givens": {}},
        {"size": 9, "closed": False, "givens": {}, "solution": []},
        {"size": True, "closed": False, "givens": {}, "solution": []},
        {"size": 5, "closed": True, "givens": {}, "solution": []},
        {"size": 6, "closed": "no", "givens": {}, "solution": []},
        {"size": 6, "closed": False, "givens": {"z9": 1}, "solution": []},
        {"size": 6, "closed": False, "givens": {"a1": 99}, "solution": []},
        {"size": 6, "closed": False, "givens": {"a1": 1}, "solution": ["a1"]},
        {"size": 6, "closed": False, "givens": {}, "solution": ["a1"]},
        {"size": 6, "closed": False, "givens": [], "solution": []},
    ],
)
def test_a_bad_stored_problem_is_refused(document: Any) -> None:
    with pytest.raises(BoardPuzzlesError):
        PLAY.problem_from_json(document)


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        ("a6", "a path is a list"),
        (["a6", "a6"], "already visited"),
        (["a6", "a5"], "not a knight's move"),
        (["zz99"], "off the 6x6 board"),
        ([7], "not a square name"),
        (["a6"] * 37, "at most 36"),
    ],
)
def test_a_bad_stored_path_is_refused_with_the_reason(document: Any, reason: str) -> None:
    with pytest.raises(BoardPuzzlesError, match=reason):
        PLAY.state_from_json(blank(), document)


def test_a_stored_path_of_a_puzzle_keeps_its_given_start() -> None:
    problem = TourProblem(6, givens=((C5, 1),))
    with pytest.raises(BoardPuzzlesError, match="the given start, c5"):
        PLAY.state_from_json(problem, [])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 70) | st.text(max_size=4) | st.sampled_from(["a1", "c5", "f6", "b3"]),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=4), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(json_values, json_values)
def test_any_json_is_read_or_refused_cleanly(problem_doc: Any, state_doc: Any) -> None:
    for read, document in (
        (PLAY.problem_from_json, problem_doc),
        (lambda d: PLAY.state_from_json(blank(), d), state_doc),
    ):
        try:
            read(document)
        except BoardPuzzlesError:
            pass


PROBLEMS = {
    "open 5x5": blank(5),
    "open 6x6": blank(6),
    "closed 6x6": blank(6, closed=True),
    "numbered": numbered((1, 7, 12, 20, 36)),
    "numbered, no start": numbered((3, 9, 17)),
}


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(sorted(PROBLEMS)), st.lists(st.integers(0, 35), max_size=60))
def test_random_clicks_keep_a_path_through_the_givens_and_faults_name_every_dead_end(
    which: str, cells: list[int]
) -> None:
    problem = PROBLEMS[which]
    path = problem.start()
    for cell in cells:
        try:
            path = PLAY.click(problem, path, cell % problem.squares, STEP)
        except IllegalMove:
            continue
        assert len(set(path)) == len(path) and path[: len(problem.start())] == problem.start()
        assert all(b in kt._moves(problem.side)[a] for a, b in itertools.pairwise(path))
        assert all(problem.move_on.get(c, step) == step for step, c in enumerate(path, start=1))
        assert all(problem.square_of.get(step, c) == c for step, c in enumerate(path, start=1))
        faults = found(problem, path)
        stuck = 0 < len(path) < problem.squares and not kt.legal_next(problem, path)
        assert stuck == any(f.message.startswith("dead end") for f in faults)
        assert PLAY.state_from_json(problem, PLAY.state_to_json(problem, path)) == path
        PLAY.scene(problem, path)
    hint = PLAY.hint(problem, path, Limits(30))
    if hint.message.startswith(("Warnsdorff", "step")) and path:
        assert list(hint.cells) == [c for c in kt.legal_next(problem, path) if c in hint.cells] != []
        assert found(problem, play(problem, path, *hint.cells)) == []
