"""The knight's tour played by hand (puzzles/knights_tour/play.py, play_position.py): numbers
written in any order, faults of every kind, hints, the solver's clicks and JSON, on blank boards
and on puzzles with given numbers."""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.faults import Fault
from boardpuzzles.limits import Limits, TimeLimitReached
from boardpuzzles.play import Attempt, IllegalMove, play_of
from boardpuzzles.puzzles import get
from boardpuzzles.puzzles.knights_tour import Problem, solutions, violations
from boardpuzzles.puzzles.knights_tour import play as kt
from boardpuzzles.puzzles.knights_tour.play import BEFORE, ERASE, PLAY, STEP, Numbers, TourProblem
from boardpuzzles.puzzles.knights_tour.play_position import chain, legal_next, moves_of, numbers_of, squares_of

PUZZLE = get("knights-tour")
#: Squares of 6x6 by name (row 0 on top): a6 = 0, c5 = 8, d3 = 21, b4 = 13, c2 = 26, f1 = 35.
A6, C5, D3, B4, C2 = 0, 8, 21, 13, 26


def play(problem: TourProblem, state: Numbers, *cells: int, tool: str = STEP) -> Numbers:
    for cell in cells:
        state = PLAY.click(problem, state, cell, tool)
    return state


def path(problem: TourProblem, *cells: int) -> Numbers:
    """The numbers of a path written in order from the start."""
    return play(problem, problem.start(), *cells)


def found(problem: TourProblem, state: Numbers) -> list[Fault]:
    """The faults of a position, less what is only left to do."""
    return [fault for fault in PLAY.faults(problem, state) if fault.kind != "unfinished"]


def blank(side: int = 6, closed: bool = False) -> TourProblem:
    return TourProblem(side, closed)


def numbered(moves: tuple[int, ...] = (1, 5, 10, 20, 36)) -> TourProblem:
    """A puzzle made by hand: the first tour of 6x6 from c5, with these move numbers given."""
    tour = next(solutions(Problem(6, 6, start=C5)))
    return TourProblem(6, givens=tuple((tour[m - 1], m) for m in moves), solution=tour)


# ---------------------------------------------------------------- the record and a new game
def test_the_record_plays_by_this_module_with_open_tours_first() -> None:
    assert play_of(PUZZLE) is PLAY  # type: ignore[arg-type]
    assert (
        PLAY.sizes == (5, 6, 7, 8)
        and PLAY.default_size == 6
        and PLAY.difficulties == ("open", "closed", "easy", "medium", "hard")
    )
    assert [t.name for t in PLAY.tools] == [STEP, ERASE, BEFORE]  # the second tool erases
    problem, state = PLAY.new(6, "open", 0)
    assert problem == blank() and state == Numbers()
    assert PLAY.new(8, "closed", 0) == (blank(8, closed=True), Numbers())


def test_a_closed_tour_on_an_odd_board_is_refused_with_the_theorem() -> None:
    with pytest.raises(BoardPuzzlesError, match="no closed tour: a 5×5 board has an odd number of squares"):
        PLAY.new(5, "closed", 0)
    with pytest.raises(BoardPuzzlesError, match="difficulty is one of"):
        PLAY.new(6, "nightmare", 0)


def test_a_puzzle_has_given_numbers_a_unique_tour_through_them_and_the_same_seed_makes_it_again() -> None:
    problem, state = PLAY.new(5, "hard", 1)
    assert problem.givens and len(problem.solution) == 25
    assert not violations(Problem(5, 5), problem.solution)
    assert all(problem.solution[move - 1] == cell for cell, move in problem.givens)
    assert state == Numbers((), problem.square_of.get(1, -1))  # the given 1 selected
    assert PLAY.new(5, "hard", 1) == (problem, state)
    easy, _ = PLAY.new(5, "easy", 1)
    assert easy.solution == problem.solution and len(easy.givens) > len(problem.givens)


# ---------------------------------------------------------------- clicks
def test_a_path_is_written_click_by_click_and_a_click_on_a_number_selects_it() -> None:
    problem = blank()
    state = path(problem, C5, D3, B4)
    assert chain(problem, state) == (C5, D3, B4) and state.selected == B4
    assert play(problem, state, C5).selected == C5  # select another number
    assert play(problem, state, B4) == state  # the selected one again: it stays selected
    erased = play(problem, state, B4, tool=ERASE)
    assert chain(problem, erased) == (C5, D3) and erased.selected == D3  # the number before is selected
    assert play(problem, erased, A6, tool=ERASE) == erased  # nothing to erase


def test_where_the_selection_gives_no_number_a_square_takes_the_only_one_it_can() -> None:
    """The selected 1's next is on the board already: c2 is a knight's move from 3 on b4 alone
    among the numbers whose next is missing, so a click there writes 4; with nothing selected
    (and a 1 on the board) the same. f4 could follow 2 on d3 or 10 on e2: the click says so."""
    problem = blank()
    state = play(problem, path(problem, C5, D3, B4), C5)
    assert state.selected == C5
    after = play(problem, state, C2)
    assert numbers_of(problem, after)[C2] == 4 and after.selected == C2
    assert play(problem, Numbers(state.placed), C2) == after
    F4, E2 = 17, 28
    two = Numbers(((C5, 1), (D3, 2), (E2, 10)), C5)
    with pytest.raises(
        IllegalMove, match=r"f4 could hold 3 \(after d3\) or 11 \(after e2\): select the number it follows"
    ):
        PLAY.click(problem, two, F4, STEP)
    with pytest.raises(IllegalMove, match="2 is on d3 already"):  # no number can go there: the selection's reason
        PLAY.click(problem, two, A6, STEP)


def test_numbers_are_written_in_any_order_forwards_and_backwards_from_any_number() -> None:
    problem = numbered((1, 10, 20, 36))
    tour = problem.solution
    state = play(problem, problem.start(), tour[9], tour[10], tour[11])  # select 10, then write 11 and 12
    assert numbers_of(problem, state)[tour[11]] == 12
    state = play(problem, state, tour[9], tour[8], tool=BEFORE)  # select 10, then write 9 before it
    assert numbers_of(problem, state)[tour[8]] == 9 and state.selected == tour[8]
    state = play(problem, state, tour[7], tool=BEFORE)
    assert squares_of(problem, state)[8] == tour[7]


@pytest.mark.parametrize(
    ("cell", "tool", "reason"),
    [
        (D3 + 1, STEP, "e3 is not a knight's move from b4, which shows 3"),
        (36, STEP, "cell 36 is off the 6×6 board"),
        (-1, STEP, "cell -1 is off the 6×6 board"),
        (A6, "queen", "no tool 'queen'"),
    ],
)
def test_illegal_clicks_are_refused_with_the_reason(cell: int, tool: str, reason: str) -> None:
    problem = blank()
    state = path(problem, C5, D3, B4)
    with pytest.raises(IllegalMove, match=reason):
        PLAY.click(problem, state, cell, tool)


def test_given_numbers_stay_and_a_number_is_written_once() -> None:
    problem = TourProblem(6, givens=((C5, 1), (B4, 3), (A6, 7)))
    start = problem.start()
    assert start.selected == C5
    with pytest.raises(IllegalMove, match="c5 shows a given number: it stays"):
        PLAY.click(problem, start, C5, ERASE)
    with pytest.raises(IllegalMove, match="not a knight's move from b4, which shows 3"):
        PLAY.click(problem, start, 4, STEP)  # e6 is a knight's move from c5 (1), not from b4 (3)
    state = play(problem, start, D3)
    assert legal_next(problem, state) == []  # 3 is given: nothing to write after 2
    with pytest.raises(IllegalMove, match="3 is on b4 already"):
        PLAY.click(problem, state, 10, STEP)
    with pytest.raises(IllegalMove, match="select a numbered square first"):
        PLAY.click(problem, Numbers(state.placed), 10, STEP)  # nothing selected, and e5 follows no number
    with pytest.raises(IllegalMove, match="there is no 0"):
        PLAY.click(problem, start, 10, BEFORE)


def test_the_legal_next_squares_are_the_empty_knight_moves_from_the_selected_number() -> None:
    problem = blank()
    assert legal_next(problem, Numbers()) == []
    assert legal_next(problem, path(problem, A6)) == [C5, B4]
    assert legal_next(problem, path(problem, C5, A6)) == [B4]


# ---------------------------------------------------------------- faults
def test_a_dead_end_is_named_at_once() -> None:
    problem = blank()
    state = path(problem, C5, D3, B4, A6)  # a6's two moves are both numbered
    dead = [f for f in found(problem, state) if f.message.startswith("dead end")]
    assert [(f.message, f.cells, f.kind) for f in dead] == [
        ("dead end: no empty square a knight's move from a6 for 5, and 32 squares left", (A6,), "wrong")
    ]
    assert PLAY.faults(problem, state)[0] == Fault("32 squares left to number", kind="unfinished")


def test_a_square_no_number_can_reach_is_an_aid() -> None:
    problem = blank()
    state = path(problem, C5, D3, B4, C2)
    assert [(f.message, f.kind) for f in found(problem, state)] == [
        ("a6 can no longer get a number: no knight's move leads there", "aid")
    ]
    assert found(problem, path(problem, C5, D3, B4)) == []  # from b4 the knight still reaches a6


def test_a_closed_tour_whose_start_is_boxed_in_can_no_longer_close() -> None:
    state = path(blank(closed=True), A6, C5, D3, B4)
    assert "the tour can no longer close: every square a knight's move from the start, a6, is numbered" in [
        f.message for f in found(blank(closed=True), state) if f.kind == "aid"
    ]
    assert found(blank(), state) == []  # an open tour may go on


def test_a_full_board_that_does_not_close_is_a_fault_of_a_closed_tour_only() -> None:
    tour = next(t for t in solutions(Problem(6, 6, start=A6)) if violations(Problem(6, 6, closed=True), t))
    closed, open_ = blank(closed=True), blank()
    faults = PLAY.faults(closed, path(closed, *tour))
    assert faults == violations(Problem(6, 6, closed=True), tour)
    assert faults[0].message.startswith("not closed") and faults[0].lines == ((tour[-1], tour[0]),)
    assert not PLAY.solved(closed, path(closed, *tour))
    assert PLAY.solved(open_, path(open_, *tour)) and PLAY.faults(open_, path(open_, *tour)) == []


def test_a_start_the_theorems_rule_out_is_an_aid() -> None:
    problem = blank(5)
    (fault,) = found(problem, path(problem, 1))  # b5: not the corners' colour
    assert fault.kind == "aid" and fault.message.startswith("no tour starts on b5: a 5x5 board has one more")


def test_numbers_too_far_apart_or_on_the_wrong_colour_are_aids() -> None:
    far = TourProblem(6, givens=((35, 3),))  # f1 at 3, from a6 at 1
    (fault,) = found(far, path(far, A6))
    assert fault.message == "3 is on f1: from a6 (1) the knight needs 4 moves through the empty squares, and has 2"
    assert fault.cells == (A6, 35) and fault.kind == "aid"
    colour = TourProblem(6, givens=((C5, 3),))  # one move from a6, but 3 is two moves on
    assert [f.message for f in found(colour, path(colour, A6))] == [
        "3 is on c5: from a6 (1), but a knight changes colour every move: it cannot stand there 2 moves later"
    ]


# ---------------------------------------------------------------- solved agrees with the checker
@pytest.mark.parametrize("closed", [False, True])
def test_solved_agrees_with_the_record_checker_on_full_boards(closed: bool) -> None:
    problem, rules = blank(closed=closed), Problem(6, 6, closed=closed)
    for tour in itertools.islice(solutions(Problem(6, 6, start=A6)), 0, 400, 20):
        assert PLAY.solved(problem, path(problem, *tour)) == (not PUZZLE.violations(rules, tour))
    assert not PLAY.solved(problem, path(problem, *tour[:-1]))


# ---------------------------------------------------------------- hints
def test_the_hint_on_a_blank_board_is_a_corner_then_warnsdorff() -> None:
    problem = blank()
    assert PLAY.hint(problem, Numbers(), Limits(30)).cells == (30,)  # a1
    state = path(problem, A6)
    hint = PLAY.hint(problem, state, Limits(30))
    assert hint.message.startswith("Warnsdorff's rule: ") and hint.message.endswith("a tour finishes from there")
    end, cell = hint.cells  # from the path's end to the square named
    assert end == A6
    onward = {x: len(moves_of(6)[x] - {A6}) for x in legal_next(problem, state)}
    assert onward[cell] == min(onward.values())


def test_following_the_hints_finishes_a_tour() -> None:
    problem, state = PLAY.new(6, "closed", 0)
    for _ in range(36):
        state = play(problem, state, *PLAY.hint(problem, state, Limits(30)).cells)
    assert PLAY.solved(problem, state) and PLAY.hint(problem, state, Limits(30)).message == "solved: nothing left to do"


@pytest.mark.parametrize("seed", range(3))
def test_a_hint_is_followed_by_a_click_on_its_square_whatever_is_selected(seed: int) -> None:
    """A player who selected some other number (whose next may be on the board already) asks for
    a hint and clicks its square, the last of its cells: the hinted number is written there, or
    the hint said which number to select first, its square the first of the cells. Followed so to
    the end, the hints solve the puzzle."""
    problem, state = PLAY.new(6, "easy", seed)
    pick = random.Random(seed)
    while not PLAY.solved(problem, state):
        state = play(problem, state, pick.choice(sorted(numbers_of(problem, state))))  # select any number
        hint = PLAY.hint(problem, state, Limits(30))
        k, tool = int(hint.message.split()[0]), BEFORE if "Number before" in hint.message else STEP
        if "select" in hint.message:
            state = play(problem, state, hint.cells[0])
        state = play(problem, state, hint.cells[-1], tool=tool)
        assert numbers_of(problem, state)[hint.cells[-1]] == k and hint.cells[-1] == problem.solution[k - 1]
        assert hint.cells[0] in (problem.solution[k - 2 : k - 1] + problem.solution[k : k + 1])  # beside


def test_a_hint_whose_square_could_take_another_number_says_what_to_select_first() -> None:
    """f4 could follow 2 on d3 or 10 on e2, and d4 takes 11 after e2 where the hint writes 9
    before it: each hint says what to select (and the tool), and its cells, clicked so, play it."""
    problem, F4, E2, D4 = blank(), 17, 28, 15
    two = Numbers(((C5, 1), (D3, 2), (E2, 10)), C5)  # the selected 1's next is on the board
    hint = kt._number_hint(problem, two, 3, F4)
    assert hint.message == "3 goes on f4, a knight's move from d3 (2); select d3 first" and hint.cells == (D3, F4)
    assert numbers_of(problem, play(problem, two, *hint.cells))[F4] == 3
    hint = kt._number_hint(problem, two, 9, D4)
    assert hint.message == "9 goes on d4, a knight's move from e2 (10); select e2, then click d4 with Number before"
    assert numbers_of(problem, play(problem, play(problem, two, E2), D4, tool=BEFORE))[D4] == 9


def test_the_hint_says_when_no_tour_finishes() -> None:
    problem = blank()
    trapped = path(problem, C5, D3, B4)  # a6 is left with a single way in, from b4: it must be last
    assert found(problem, trapped) == []
    hint = PLAY.hint(problem, trapped, Limits(30))
    assert hint.message == "no tour finishes from here (the search tried every way on): take back (undo)"
    assert hint.outcome == "dead end"
    cut = play(problem, trapped, C2)
    assert PLAY.hint(problem, cut, Limits(30)).message.startswith("no tour finishes from here: a6 can no longer")


def test_the_hint_admits_a_search_out_of_time(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(*args: Any) -> None:
        raise TimeLimitReached()

    monkeypatch.setattr(kt, "_completion", slow)
    hint = PLAY.hint(blank(8), path(blank(8), 0), Limits(1))
    assert hint.message.startswith("Warnsdorff's rule: ") and "could not tell in time" in hint.message


def test_the_hint_of_a_puzzle_is_a_number_of_its_tour_or_the_number_to_erase() -> None:
    problem = numbered((1, 12, 24, 36))
    tour = problem.solution
    assert PLAY.hint(problem, problem.start(), Limits(30)).cells == (tour[0], tour[1])  # from the 1, to the 2
    state = play(problem, problem.start(), *tour[1:3])
    wrong = next(x for x in legal_next(problem, state) if x != tour[3] and not found(problem, play(problem, state, x)))
    astray = play(problem, state, wrong)
    assert found(problem, astray) == []
    hint = PLAY.hint(problem, astray, Limits(30))
    assert hint.message.startswith(f"no tour through the given numbers has 4 on {problem.name(wrong)}: erase it")
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
        tour = chain(problem, attempt.state)
        assert PUZZLE.violations(problem.rules, tour) == []
        assert all(tour[move - 1] == cell for cell, move in problem.givens)


def test_the_solution_from_a_lost_position_erases_first() -> None:
    problem = blank()
    for lost in (path(problem, C5, D3, B4), path(problem, C5, D3, B4, C2)):
        assert PLAY.solution is not None
        clicks = PLAY.solution(problem, lost, Limits(30))
        assert clicks[0][1] == ERASE and clicks[0][0] in (D3, B4, C2)  # no tour keeps them all
        assert PLAY.solved(problem, play_all(problem, lost, clicks))
    puzzle = numbered()
    start = puzzle.start()
    astray = play(puzzle, start, next(x for x in legal_next(puzzle, start) if x != puzzle.solution[1]))
    assert PLAY.solved(puzzle, play_all(puzzle, astray, PLAY.solution(puzzle, astray, Limits())))


def test_the_solution_writes_the_numbers_before_the_lowest_one_backwards() -> None:
    """No 1 on the board and another number selected: the 1 cannot be written from nowhere (a
    click selects, never lets go), so the solution writes 4, 3, 2, 1 before the given 5."""
    puzzle = numbered((5, 10, 20, 36))
    selected = play(puzzle, puzzle.start(), puzzle.solution[9])  # the given 10
    assert PLAY.solution is not None
    clicks = PLAY.solution(puzzle, selected, Limits(30))
    assert clicks[:3] == [(puzzle.solution[4], STEP), (puzzle.solution[3], BEFORE), (puzzle.solution[2], BEFORE)]
    assert PLAY.solved(puzzle, play_all(puzzle, selected, clicks))


def play_all(problem: TourProblem, state: Numbers, clicks: list[tuple[int, str]]) -> Numbers:
    for cell, tool in clicks:
        state = PLAY.click(problem, state, cell, tool)
    return state


# ---------------------------------------------------------------- the picture and the words
def test_the_scene_shows_steps_givens_the_selected_number_and_the_legal_next_squares() -> None:
    problem = TourProblem(6, givens=((C5, 1), (B4, 3), (C2, 5)))
    state = path(problem, D3)
    scene = PLAY.scene(problem, state)
    assert scene.labels[C5] == "1" and scene.labels[D3] == "2" and scene.labels[C2] == "5"
    assert scene.path == [C5, D3, B4] and scene.start is None and scene.end is None  # the numbers say them
    assert scene.marks[C2] == kt.GIVEN_COLOUR and scene.marks[C5] == kt.GIVEN_COLOUR
    assert scene.marks[D3] == kt.SELECTED_COLOUR
    assert "given" in scene.tooltips[C2]
    assert scene.text().splitlines()[1:3] == [". . 1 . . .", ". 3 . . . ."]  # c5 and b4, rows 2 and 3
    full = PLAY.scene(
        blank(6, closed=True), path(blank(6, closed=True), *next(solutions(Problem(6, 6, start=A6, closed=True))))
    )
    assert full.path[0] == full.path[-1] == A6  # a closed tour drawn closed


def test_one_marker_says_what_a_square_is_and_a_solved_board_has_no_selection() -> None:
    """The 1 of a fresh puzzle is the selected number: one tint says so (no ring for the start
    nor square for the path's end, which its number says, in the path's colours up to red, the
    colour of mistakes). A full board has no next number: nothing is marked as the one it follows."""
    problem = numbered((1, 12, 24, 36))
    fresh = PLAY.scene(problem, problem.start())
    assert fresh.marks[problem.solution[0]] == kt.SELECTED_COLOUR and fresh.start is None and fresh.end is None
    tour = PLAY.scene(problem, path(problem, *problem.solution[1:]))
    assert tour.path_colours == "plain" and tour.start is None and tour.end is None
    assert kt.SELECTED_COLOUR not in tour.marks.values() and kt.SELECTED_COLOUR not in tour.mark_meanings
    words = Attempt(PLAY, problem, path(problem, *problem.solution[1:])).describe_cells()
    assert not any(word.endswith("selected") for word in words)


def test_numbers_away_from_the_start_are_joined_by_segments() -> None:
    problem = numbered((1, 10, 20, 36))
    tour = problem.solution
    state = play(problem, problem.start(), tour[9], tour[10], tour[11])
    scene = PLAY.scene(problem, state)
    assert (tour[9], tour[10], kt.CHAIN_COLOUR) in scene.lines and (tour[10], tour[11], kt.CHAIN_COLOUR) in scene.lines
    assert scene.labels[tour[11]] == "12"


def test_screen_readers_hear_words() -> None:
    problem = TourProblem(6, givens=((C5, 1),))
    state = path(problem, D3)
    words = Attempt(PLAY, problem, state).describe_cells()
    assert words[C5] == "given 1" and words[D3] == "step 2, selected"
    assert words[A6] == "empty" and "empty, a legal next square" in words


# ---------------------------------------------------------------- JSON
def test_problem_and_numbers_survive_json_and_a_session_replays() -> None:
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


def test_a_stored_path_of_an_older_game_is_read_as_its_numbers() -> None:
    problem = TourProblem(6, givens=((C5, 1),))
    state = PLAY.state_from_json(problem, ["c5", "d3", "b4"])
    assert chain(problem, state) == (C5, D3, B4) and state.selected == B4


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
        ("a6", "the numbers are"),
        ({"numbers": {"a6": 1, "a5": 2}, "selected": None}, "not a knight's move"),
        ({"numbers": {"a6": 1, "c5": 1}, "selected": None}, "1 is on a6 already"),
        ({"numbers": {"a6": 0}, "selected": None}, "there is no 0"),
        ({"numbers": {"a6": "1"}, "selected": None}, "holds '1'"),
        ({"numbers": {"zz99": 1}, "selected": None}, "off the 6x6 board"),
        ({"numbers": {"a6": 1}, "selected": "c5"}, "holds no number"),
        ({"numbers": {}}, "the numbers are"),
    ],
)
def test_bad_stored_numbers_are_refused_with_the_reason(document: Any, reason: str) -> None:
    with pytest.raises(BoardPuzzlesError, match=reason):
        PLAY.state_from_json(blank(), document)


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
        (lambda d: PLAY.state_from_json(blank(), {"numbers": d, "selected": None}), state_doc),
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
@given(
    st.sampled_from(sorted(PROBLEMS)),
    st.lists(st.tuples(st.integers(0, 35), st.sampled_from([STEP, STEP, STEP, ERASE, BEFORE])), max_size=60),
)
def test_random_clicks_keep_the_numbers_a_knights_move_apart_and_faults_name_every_dead_end(
    which: str, clicks: list[tuple[int, str]]
) -> None:
    problem = PROBLEMS[which]
    state = problem.start()
    moves = moves_of(problem.side)
    for cell, tool in clicks:
        try:
            state = PLAY.click(problem, state, cell % problem.squares, tool)
        except IllegalMove:
            continue
        at, by_move = numbers_of(problem, state), squares_of(problem, state)
        assert problem.move_on.items() <= at.items()  # the givens stay
        assert all(by_move[k + 1] in moves[c] for k, c in by_move.items() if k + 1 in by_move)
        assert state.selected == -1 or state.selected in at
        faults = PLAY.faults(problem, state)
        stuck = [c for k, c in by_move.items() if not moves[c] - set(at) and len(at) < problem.squares]
        dead = [f for f in faults if f.message.startswith("dead end")]
        assert {c for f in dead for c in f.cells} <= set(stuck)
        assert PLAY.state_from_json(problem, PLAY.state_to_json(problem, state)) == state
        PLAY.scene(problem, state)
    assert PLAY.solved(problem, play_all(problem, state, PLAY.solution(problem, state, Limits(30))))  # type: ignore[misc]


def test_closed_tours_are_offered_on_even_sides_only() -> None:
    # A closed tour alternates colours, so it needs as many light squares as dark: none on odd sides.
    assert PLAY.sizes_for("closed") == (6, 8) and PLAY.sizes_for("easy") == PLAY.sizes
    with pytest.raises(BoardPuzzlesError, match="closed is offered on sizes 6, 8, not on 7"):
        Attempt.new(PLAY, 7, "closed", 1)
    with pytest.raises(ValueError, match="sizes_by_difficulty"):
        dataclasses.replace(PLAY, sizes_by_difficulty={"closed": (9,)})


def test_selecting_a_number_is_part_of_the_move_that_writes_the_next() -> None:
    game = Attempt.new(PLAY, 6, "open", 1)
    for cell in (0, 8):  # 1 on a6, 2 on c5 (a knight's move on)
        game.click(cell, STEP)
    before = game.state
    game.click(0, STEP)  # select 1, then 2 again: selections only
    game.click(8, STEP)
    game.click(4, STEP)  # 3 on e6, a knight's move from c5
    assert game.state.placed == ((0, 1), (8, 2), (4, 3)) and game.moves == 3
    game.undo()  # the selections and the 3, as one move
    assert game.state == before and game.moves == 2
