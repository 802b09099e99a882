"""Queens and HyperQueen played by hand (boardpuzzles.puzzles.queens.play): clicks, faults with
their lines (cut where the torus wraps), the solved state against the record's checker, hints and
solutions from the search of completions, and JSON read back with checks."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import STOP_TIME, Limits
from boardpuzzles.play import Attempt, IllegalMove, Play, play_of
from boardpuzzles.puzzles import get, hyperqueen, queens
from boardpuzzles.puzzles.queens import givens
from boardpuzzles.puzzles.queens.play import (
    ATTACKED_COLOUR,
    BLANK,
    GIVEN_COLOUR,
    HYPERQUEEN_PLAY,
    PLAY,
    SHARED_COLOUR,
    QueensPuzzle,
    State,
    attacks,
)
from boardpuzzles.puzzles.queens.rules import Problem, violations

PLAYS = {"queens": PLAY, "hyperqueen": HYPERQUEEN_PLAY}
QueensPlay = Play[QueensPuzzle, State]


def blank(play: QueensPlay, n: int) -> QueensPuzzle:
    return play.new(n, BLANK, 0)[0]


def place(play: QueensPlay, puzzle: QueensPuzzle, names: list[str]) -> State:
    state: State = ()
    for name in names:
        state = play.click(puzzle, state, puzzle.problem.grid.cell_named(name), "queen")
    return state


def named(puzzle: QueensPuzzle, cells: Any) -> list[Any]:
    grid = puzzle.problem.grid
    return [grid.name(c) if isinstance(c, int) else tuple(grid.name(x) for x in c) for c in cells]


# ---------------------------------------------------------------- the records name the plays
def test_the_records_name_their_plays() -> None:
    assert play_of(queens.PUZZLE) is PLAY and play_of(get("queens")) is PLAY  # type: ignore[arg-type]
    assert play_of(hyperqueen.PUZZLE) is HYPERQUEEN_PLAY and play_of(get("hyperqueen")) is HYPERQUEEN_PLAY  # type: ignore[arg-type]
    assert PLAY.sizes == (5, 6, 7, 8, 9, 10) and PLAY.default_size == 8
    assert HYPERQUEEN_PLAY.sizes == (5, 7, 11, 13) and HYPERQUEEN_PLAY.default_size == 7  # gcd(n, 6) = 1 (Polya 1918)
    for play in PLAYS.values():
        assert play.difficulties == ("easy", "medium", "hard", BLANK)
        assert [t.name for t in play.tools] == ["queen", "erase"]


# ---------------------------------------------------------------- new
@pytest.mark.parametrize("name", PLAYS)
def test_new_puzzles_are_the_givens_of_the_generator_and_the_same_seed_gives_the_same(name: str) -> None:
    play = PLAYS[name]
    torus = name == "hyperqueen"
    for size in play.sizes:
        for difficulty in givens.DIFFICULTIES:
            puzzle, state = play.new(size, difficulty, 5)
            made = givens.make(size, difficulty, 5, torus=torus)
            assert state == () and puzzle.problem == Problem(size, torus)
            assert puzzle.givens == tuple(sorted(made.givens))
            assert play.new(size, difficulty, 5) == (puzzle, state)
            assert len(givens.completions(puzzle.problem, dict.fromkeys(puzzle.givens, "Q"), 2)) == 1
        assert play.new(size, BLANK, 9) == (QueensPuzzle(Problem(size, torus)), ())


def test_new_refuses_sizes_and_difficulties_it_does_not_offer() -> None:
    with pytest.raises(BoardPuzzlesError, match="size is one of 5, 7, 11, 13,"):
        HYPERQUEEN_PLAY.new(9, BLANK, 0)
    with pytest.raises(BoardPuzzlesError, match="size is one of"):
        PLAY.new(11, "easy", 0)
    with pytest.raises(BoardPuzzlesError, match="difficulty"):
        PLAY.new(8, "fiendish", 0)
    with pytest.raises(BoardPuzzlesError, match="seed"):
        PLAY.new(8, BLANK, -1)


# ---------------------------------------------------------------- clicks
def test_a_click_places_a_queen_and_a_second_click_takes_it_off() -> None:
    puzzle = blank(PLAY, 8)
    state = place(PLAY, puzzle, ["c3", "a1"])
    assert named(puzzle, state) == ["c3", "a1"]  # sorted by cell (top row first): one state per set
    assert named(puzzle, place(PLAY, puzzle, ["c3", "a1", "c3"])) == ["a1"]


def test_a_given_queen_stays_and_the_click_says_why() -> None:
    puzzle, state = PLAY.new(8, "hard", 0)
    cell = puzzle.givens[0]
    with pytest.raises(IllegalMove, match=f"the queen on {puzzle.problem.grid.name(cell)} is given: it stays"):
        PLAY.click(puzzle, state, cell, "queen")


def test_no_queen_beyond_n_and_no_click_off_the_board_or_with_another_tool() -> None:
    puzzle = blank(HYPERQUEEN_PLAY, 5)
    full = place(HYPERQUEEN_PLAY, puzzle, ["a1", "b1", "c1", "d1", "e1"])
    with pytest.raises(IllegalMove, match="5 queens are on the board already"):
        HYPERQUEEN_PLAY.click(puzzle, full, 0, "queen")
    for cell in (-1, 25, True, "3", 2.0):
        with pytest.raises(IllegalMove, match="off the 5×5 board"):
            HYPERQUEEN_PLAY.click(puzzle, (), cell, "queen")  # type: ignore[arg-type]
    with pytest.raises(IllegalMove, match="no tool"):
        HYPERQUEEN_PLAY.click(puzzle, (), 0, "rook")


def test_the_second_tool_takes_a_queen_off_and_places_none() -> None:
    puzzle = blank(PLAY, 8)
    state = place(PLAY, puzzle, ["c3", "a1"])
    assert named(puzzle, PLAY.click(puzzle, state, puzzle.problem.grid.cell_named("c3"), "erase")) == ["a1"]
    assert PLAY.click(puzzle, state, 0, "erase") == state


# ---------------------------------------------------------------- faults
def test_faults_on_the_classic_board_join_the_queens_of_each_line() -> None:
    puzzle = blank(PLAY, 8)
    state = place(PLAY, puzzle, ["a3", "c3", "f3", "c5"])
    count, *faults = PLAY.faults(puzzle, state)
    assert count.kind == "unfinished" and count.message == "4 queens on the 8×8 board; a solution has 8"
    assert [(f.message, named(puzzle, f.cells), named(puzzle, f.lines)) for f in faults] == [
        ("a3, c3 and f3 share a row", ["a3", "c3", "f3"], [("a3", "c3"), ("c3", "f3")]),
        ("c5 and c3 share a column", ["c5", "c3"], [("c5", "c3")]),
        ("c5 and a3 share a diagonal", ["c5", "a3"], [("c5", "a3")]),
    ]
    assert not PLAY.solved(puzzle, state)


def test_fewer_queens_than_n_and_no_attack_is_only_unfinished() -> None:
    puzzle = blank(PLAY, 8)
    state = place(PLAY, puzzle, ["a1", "b3"])
    assert [f.kind for f in PLAY.faults(puzzle, state)] == ["unfinished"]
    assert not PLAY.solved(puzzle, state)
    assert violations(puzzle.problem, queens.to_board(puzzle.problem, [])) != []


@pytest.mark.parametrize(
    ("queens_at", "segments"),
    [
        # d7 to a3 down to the right: off the right edge at g4, back at a3; the other way is
        # shorter: a3, b2, c1, off the bottom edge, back at d7 on top.
        (["a3", "d7"], [("a3", "c1")]),
        # a2, b1, then c7 on top and d6: two segments, each ending on a cell next to an edge.
        (["a2", "d6"], [("a2", "b1"), ("c7", "d6")]),
        # neighbours across the corner (a1, then b7 on top): no straight run of two cells
        (["a1", "b7"], []),
        # a row: the arc that wraps (f3, g3, a3) is the one left out
        (["a3", "c3", "f3"], [("a3", "c3"), ("c3", "f3")]),
    ],
)
def test_on_the_torus_an_attack_is_drawn_the_shortest_way_cut_where_it_wraps(
    queens_at: list[str], segments: list[tuple[str, str]]
) -> None:
    puzzle = blank(HYPERQUEEN_PLAY, 7)
    state = place(HYPERQUEEN_PLAY, puzzle, queens_at)
    _, fault = HYPERQUEEN_PLAY.faults(puzzle, state)
    assert sorted(named(puzzle, fault.cells)) == sorted(queens_at)
    assert named(puzzle, fault.lines) == segments


def _straight(n: int, a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    return ra == rb or ca == cb or abs(ra - rb) == abs(ca - cb)


@st.composite
def positions(draw: st.DrawFn) -> tuple[QueensPlay, QueensPuzzle, State]:
    name = draw(st.sampled_from(sorted(PLAYS)))
    play = PLAYS[name]
    n = draw(st.sampled_from(play.sizes))
    difficulty = draw(st.sampled_from(play.difficulties))
    puzzle = play.new(n, difficulty, draw(st.integers(0, 20)))[0]
    free = [c for c in range(n * n) if c not in puzzle.givens]
    state = draw(st.lists(st.sampled_from(free), unique=True, max_size=n - len(puzzle.givens)))
    return play, puzzle, tuple(sorted(state))


@settings(max_examples=150, deadline=None)
@given(positions())
def test_faults_are_the_checkers_violations_and_solved_agrees_with_it(
    position: tuple[QueensPlay, QueensPuzzle, State],
) -> None:
    play, puzzle, state = position
    n, torus = puzzle.n, puzzle.problem.torus
    queens_on = set(puzzle.givens) | set(state)
    board = queens.to_board(puzzle.problem, [])
    for cell in queens_on:
        board[cell] = "Q"
    found = violations(puzzle.problem, board)
    faults = play.faults(puzzle, state)
    assert [(f.cells, f.lines, f.kind) for f in faults] == [(f.cells, f.lines, f.kind) for f in found]
    page = [f.message.replace(f"on a {n}x{n} board", f"on the {n}×{n} board") for f in found]  # as a page writes it
    assert [f.message for f in faults] == page
    assert play.solved(puzzle, state) == (found == [])
    for fault in (f for f in faults if f.kind == "wrong"):
        assert len(fault.cells) >= 2 and set(fault.cells) <= queens_on
        for a, b in fault.lines:
            assert a != b and _straight(n, a, b)  # a straight run: cut where the torus wraps
        if not torus:  # each neighbouring pair joined, end to end
            assert len(fault.lines) == len(fault.cells) - 1
    attacked_lines = {cell for a in attacks(puzzle, state) for cell in a.line}
    marks = play.scene(puzzle, state).marks
    assert {c for c, colour in marks.items() if colour == SHARED_COLOUR} == attacked_lines - set(puzzle.givens)


# ---------------------------------------------------------------- solved, hints, solutions
@pytest.mark.parametrize("name", PLAYS)
def test_every_seeds_solution_passes_the_records_checker(name: str) -> None:
    play = PLAYS[name]
    puzzle_record = {"queens": queens.PUZZLE, "hyperqueen": hyperqueen.PUZZLE}[name]
    assert play.solution is not None
    for size in play.sizes:
        for difficulty in play.difficulties:
            for seed in range(4):
                session = Attempt.new(play, size, difficulty, seed)
                for cell, tool in play.solution(session.problem, session.state, Limits(10.0)):
                    session.click(cell, tool)
                assert session.verdict().solved
                board = queens.to_board(session.problem.problem, [])
                for cell in (*session.problem.givens, *session.state):
                    board[cell] = "Q"
                assert puzzle_record.violations(session.problem.problem, board) == []
                assert len(session.problem.givens) + len(session.state) == size


def test_the_solution_takes_wrong_queens_off_first() -> None:
    puzzle, _ = PLAY.new(8, "hard", 3)
    (answer,) = givens.completions(puzzle.problem, dict.fromkeys(puzzle.givens, "Q"), 2)
    wrong = next(c for c in range(64) if answer[c] == "." and c not in puzzle.givens)
    assert PLAY.solution is not None
    clicks = PLAY.solution(puzzle, (wrong,), Limits())
    assert clicks[0] == (wrong, "queen")
    state: State = (wrong,)
    for cell, tool in clicks:
        state = PLAY.click(puzzle, state, cell, tool)
    assert PLAY.solved(puzzle, state)


@pytest.mark.parametrize(("name", "size"), [("queens", 8), ("queens", 6), ("hyperqueen", 7), ("hyperqueen", 13)])
def test_following_the_hints_solves_a_blank_board(name: str, size: int) -> None:
    play = PLAYS[name]
    puzzle, state = play.new(size, BLANK, 0)
    for _ in range(size):
        hint = play.hint(puzzle, state, Limits(10.0))
        assert hint.message.startswith("a queen on ") and len(hint.cells) == 1
        state = play.click(puzzle, state, hint.cells[0], "queen")
    assert play.solved(puzzle, state)
    assert play.hint(puzzle, state, Limits()).message == "solved: nothing left to do"


def test_a_hint_names_the_queen_no_solution_holds() -> None:
    puzzle, _ = HYPERQUEEN_PLAY.new(11, "medium", 2)
    (answer,) = givens.completions(puzzle.problem, dict.fromkeys(puzzle.givens, "Q"), 2)
    wrong = next(c for c in range(121) if answer[c] == "." and c not in puzzle.givens)
    right = next(c for c in range(121) if answer[c] == "Q" and c not in puzzle.givens)
    hint = HYPERQUEEN_PLAY.hint(puzzle, tuple(sorted((wrong, right))), Limits())
    name = puzzle.problem.grid.name(wrong)
    assert hint.message == f"no solution continues from here: take the queen on {name} off"
    assert hint.outcome == "dead end"
    assert hint.cells == (wrong,)
    assert HYPERQUEEN_PLAY.hint(puzzle, (right,), Limits()).message.startswith("a queen on ")


def test_a_hint_out_of_time_says_so() -> None:
    puzzle, _ = PLAY.new(10, "hard", 0)
    limits = Limits(10.0)
    limits.stop(STOP_TIME)
    assert PLAY.hint(puzzle, (), limits).message == "no hint found in time"


# ---------------------------------------------------------------- the scene
def test_the_scene_marks_givens_attacked_squares_and_lines_with_two_queens() -> None:
    puzzle, _ = PLAY.new(8, "hard", 1)
    free = next(c for c in range(64) if c not in puzzle.givens)
    scene = PLAY.scene(puzzle, (free,))
    assert set(scene.pieces) == {*puzzle.givens, free}
    assert {c for c, colour in scene.marks.items() if colour == GIVEN_COLOUR} == set(puzzle.givens)
    assert free not in scene.marks  # the player's queen is drawn plainly
    assert scene.tooltips == {c: f"{puzzle.problem.grid.name(c)}: given queen" for c in puzzle.givens}
    assert ATTACKED_COLOUR not in scene.marks.values()  # a spoiler: drawn only with the aids on
    assert PLAY.scene_with_aids is not None
    blank_scene = PLAY.scene_with_aids(blank(PLAY, 8), (0,))
    assert {c for c, colour in blank_scene.marks.items() if colour == ATTACKED_COLOUR} == (
        set(range(1, 8)) | set(range(8, 64, 8)) | set(range(9, 64, 9))
    )
    # the legend stays the same as queens come and go: the board does not move
    assert blank_scene.mark_meanings == PLAY.scene_with_aids(blank(PLAY, 8), ()).mark_meanings
    assert GIVEN_COLOUR in scene.mark_meanings and GIVEN_COLOUR not in blank_scene.mark_meanings


def test_with_the_aids_an_attempt_draws_the_attacked_squares_and_on_easy_they_leave_the_answer() -> None:
    attempt = Attempt.new(PLAY, 8, "easy", 2)
    assert ATTACKED_COLOUR not in attempt.scene().marks.values()
    attempt.aids = True
    shaded = {c for c, colour in attempt.scene().marks.items() if colour == ATTACKED_COLOUR}
    (answer,) = givens.completions(attempt.problem.problem, dict.fromkeys(attempt.problem.givens, "Q"), 2)
    assert not shaded & set(answer.occupied())  # never an answer square: what is left gives it away


def test_screen_readers_hear_words() -> None:
    attempt = Attempt.new(PLAY, 8, "hard", 1)
    free = next(c for c in range(64) if c not in attempt.problem.givens)
    attempt.click(free, "queen")
    words = attempt.describe_cells()
    assert words[attempt.problem.givens[0]] == "given queen" and words[free] == "queen"
    assert set(words) == {"given queen", "queen", "empty"}


# ---------------------------------------------------------------- JSON
@settings(max_examples=60, deadline=None)
@given(positions())
def test_a_game_goes_to_json_and_back(position: tuple[QueensPlay, QueensPuzzle, State]) -> None:
    play, puzzle, state = position
    problem_doc = json.loads(json.dumps(play.problem_to_json(puzzle)))
    assert play.problem_from_json(problem_doc) == puzzle
    state_doc = json.loads(json.dumps(play.state_to_json(puzzle, state)))
    assert play.state_from_json(puzzle, state_doc) == state


def test_a_session_survives_json_with_its_clicks() -> None:
    session = Attempt.new(HYPERQUEEN_PLAY, 7, "easy", 4)
    assert HYPERQUEEN_PLAY.solution is not None
    for cell, tool in HYPERQUEEN_PLAY.solution(session.problem, session.state, Limits()):
        session.click(cell, tool)
    session.undo()
    again = Attempt.from_json(HYPERQUEEN_PLAY, json.loads(json.dumps(session.to_json())))
    assert again.state == session.state and again.can_redo
    again.redo()
    assert again.verdict().solved


@pytest.mark.parametrize(
    "document",
    [
        None,
        [],
        {"n": 8, "torus": False},
        {"n": 8, "torus": False, "givens": [], "extra": 1},
        {"n": 11, "torus": False, "givens": []},
        {"n": 8.0, "torus": False, "givens": []},
        {"n": True, "torus": False, "givens": []},
        {"n": 8, "torus": True, "givens": []},
        {"n": 8, "torus": 0, "givens": []},
        {"n": 8, "torus": False, "givens": [64]},
        {"n": 8, "torus": False, "givens": [1, 1]},
        {"n": 8, "torus": False, "givens": ["a1"]},
        {"n": 8, "torus": False, "givens": [0, 9]},  # the givens attack each other
        {"n": 5, "torus": False, "givens": [0, 7, 14, 16, 23]},  # nothing left to place
    ],
)
def test_a_bad_stored_problem_is_refused_with_a_clear_error(document: Any) -> None:
    with pytest.raises(BoardPuzzlesError):
        PLAY.problem_from_json(document)


@pytest.mark.parametrize("document", [None, "a1", [64], [0, 0], [True], [1.0], list(range(9))])
def test_a_bad_stored_state_is_refused_with_a_clear_error(document: Any) -> None:
    with pytest.raises(BoardPuzzlesError):
        PLAY.state_from_json(blank(PLAY, 8), document)


def test_a_stored_state_holds_no_given_queen() -> None:
    puzzle, _ = PLAY.new(8, "easy", 0)
    with pytest.raises(BoardPuzzlesError, match="not the givens"):
        PLAY.state_from_json(puzzle, [puzzle.givens[0]])


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=3),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(st.sampled_from(["n", "torus", "givens", "x"]), inner, max_size=4)
        ),
    )
)
def test_any_stored_json_is_read_or_refused_never_a_traceback(document: Any) -> None:
    for play in PLAYS.values():
        try:
            puzzle = play.problem_from_json(document)
        except BoardPuzzlesError:
            puzzle = blank(play, play.sizes[0])
        try:
            play.state_from_json(puzzle, document)
        except BoardPuzzlesError:
            pass
