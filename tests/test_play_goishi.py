"""Goishi Hiroi played by hand (boardpuzzles.puzzles.goishi.play): new puzzles by size and
difficulty, picks judged by the rules, faults and hints from the counter, URLs and JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.faults import Fault, unfinished
from boardpuzzles.limits import STOP_TIME, Limits
from boardpuzzles.play import Attempt, IllegalMove, play_of
from boardpuzzles.puzzles import get
from boardpuzzles.puzzles.goishi import PUZZLE, Puzzle, first_problem, is_unique, legal_moves, rate, solve
from boardpuzzles.puzzles.goishi import hint as forced_hint
from boardpuzzles.puzzles.goishi.play import (
    DIFFICULTIES,
    PICK,
    PLAY,
    SIZES,
    STONES,
    click,
    difficulty_score,
    faults,
    hint,
    in_words,
    new,
    problem_from_url,
    problem_to_url,
    scene,
    solution,
    solved,
    state_from_json,
    state_to_json,
)
from tests.timing import measured

#: a4 b4 c4 on the top row, a2 below a4: two orders (a2 a4 b4 c4 and its reverse).
SMALL = Puzzle.parse("OOO.\n....\nO...\n....")
A4, B4, C4, D4, A2 = 0, 1, 2, 3, 8


def pick_all(puzzle: Puzzle, cells: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    state: tuple[int, ...] = ()
    for cell in cells:
        state = click(puzzle, state, cell, PICK)
    return state


def test_the_record_offers_this_play() -> None:
    assert get("goishi") is PUZZLE and play_of(PUZZLE) is PLAY
    assert [t.name for t in PLAY.tools] == [PICK, "put-back"]
    assert (
        PLAY.sizes == SIZES == (5, 6, 7, 8, 9, 10)
        and PLAY.default_size == 7
        and PLAY.difficulties == ("easy", "medium", "hard")
    )


@pytest.mark.parametrize("size", SIZES)
def test_new_puzzles_have_one_order_and_the_stones_of_their_difficulty(size: int) -> None:
    for level, difficulty in enumerate(DIFFICULTIES):
        puzzle, state = new(size, difficulty, 5)
        assert state == ()
        assert (puzzle.rows, puzzle.cols, puzzle.size) == (size, size, STONES[size][level])
        assert is_unique(puzzle)
        assert new(size, difficulty, 5) == (puzzle, ())  # the same seed, the same puzzle


def test_harder_puzzles_have_more_steps_with_a_real_choice() -> None:
    for seed in range(3):
        scores = [difficulty_score(rate(new(8, d, seed)[0])) for d in DIFFICULTIES]
        assert scores[0] < scores[1] < scores[2], scores


def test_new_refuses_what_it_cannot_make() -> None:
    for size, difficulty, seed in ((4, "easy", 0), (7, "fiendish", 0), (7, "easy", -1), (7, "easy", "1")):
        with pytest.raises(BoardPuzzlesError):
            new(size, difficulty, seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", SIZES)
def test_the_hardest_puzzles_of_each_size_are_made_quickly(size: int) -> None:
    for seed in range(3):
        with measured() as used:
            new(size, "hard", seed)
        assert used.cpu < 10.0, (size, seed, used.cpu)  # measured: at most about 0.6 s


def test_the_first_stone_may_be_any_stone_and_the_next_one_in_line() -> None:
    assert click(SMALL, (), B4, PICK) == (B4,)
    assert click(SMALL, (B4,), A4, PICK) == (B4, A4)
    assert pick_all(SMALL, [A2, A4, B4, C4]) == (A2, A4, B4, C4)


@pytest.mark.parametrize(
    ("picked", "cell", "reason"),
    [
        ((), D4, "d4 is an empty point, not a stone"),
        ((A4,), C4, "the step from a4 to c4 passes over b4, a stone still on the board"),
        ((B4, A4), B4, "b4 was already picked up at step 1"),
        ((B4, A4), C4, "the step from a4 to c4 turns back the way the walk came"),
        ((A2,), B4, "the step from a2 to b4 is not along a row or a column"),
    ],
)
def test_an_illegal_pick_is_refused_with_the_rules_reason(picked: tuple[int, ...], cell: int, reason: str) -> None:
    """The rules' reason, a step in words (``check`` writes it "a2 -> b4 is not ...")."""
    with pytest.raises(IllegalMove) as refused:
        click(SMALL, picked, cell, PICK)
    assert str(refused.value) == reason
    checked = first_problem(SMALL, (*picked, cell))
    assert checked is not None and in_words(checked.reason) == reason


def test_clicks_off_the_board_with_another_tool_or_after_the_end_are_refused() -> None:
    for cell, tool in ((16, PICK), (-1, PICK), (True, PICK), (A4, "erase"), (A4, "put-back")):
        with pytest.raises(IllegalMove):
            click(SMALL, (), cell, tool)
    with pytest.raises(IllegalMove, match="every stone is picked up already"):
        click(SMALL, (A2, A4, B4, C4), A4, PICK)


def test_the_put_back_tool_puts_a_picked_stone_back_with_every_later_one() -> None:
    assert click(SMALL, (A2, A4, B4), A4, "put-back") == (A2,)
    assert click(SMALL, (A2, A4, B4), A2, "put-back") == ()


def test_a_position_no_order_finishes_from_is_an_aid_naming_the_pick_that_led_nowhere() -> None:
    assert faults(SMALL, ()) == [unfinished("4 of 4 stones left to pick up")]
    assert faults(SMALL, (A2, A4)) == [unfinished("2 of 4 stones left to pick up")]
    led_nowhere = Fault("no order finishes from here: picking up b4 (pick 1) leads nowhere", (B4,), kind="aid")
    assert faults(SMALL, (B4,)) == [unfinished("3 of 4 stones left to pick up"), led_nowhere]
    stuck = faults(SMALL, (A4, A2))  # anyone sees this one: wrong, not an aid
    assert stuck[1:] == [Fault("stuck: no stone is in line from a2, and 2 are left", (A2,))]
    hopeless = Puzzle.parse("O.\n.O")
    assert faults(hopeless, ())[1:] == [Fault("no order picks up every stone of this puzzle", kind="aid")]
    assert hint(hopeless, (), Limits(5.0)).message == "no order picks up every stone of this puzzle"


def test_a_wrong_pick_on_a_new_puzzle_is_flagged_and_the_hint_says_undo() -> None:
    puzzle, start = new(7, "medium", 2)
    wrong = forced_hint(puzzle, ()).wrong[0][0]
    state = click(puzzle, start, wrong, PICK)
    assert faults(puzzle, state)[-1].cells == (wrong,) and faults(puzzle, state)[-1].kind == "aid"
    assert hint(puzzle, state, Limits(5.0)) == hint(puzzle, state, Limits(5.0))
    assert hint(puzzle, state, Limits(5.0)).message == "no order finishes from here: undo"
    assert hint(puzzle, state, Limits(5.0)).outcome == "dead end"


def test_hints_lead_through_the_one_order_to_the_solved_state() -> None:
    puzzle, state = new(8, "hard", 1)
    order = solve(puzzle)
    assert order is not None
    while not solved(puzzle, state):
        assert [f.kind for f in faults(puzzle, state)] == ["unfinished"]
        given_hint = hint(puzzle, state, Limits(5.0))
        assert given_hint.cells == (order[len(state)],)
        verb = "start at" if not state else "pick up"
        assert given_hint.message == f"{verb} {puzzle.name(order[len(state)])}"  # short: the why is its detail
        assert given_hint.detail.startswith(("every other", "it is the only legal move")), given_hint.detail
        state = click(puzzle, state, given_hint.cells[0], PICK)
    assert state == order and hint(puzzle, state, Limits(5.0)).message == "solved: every stone is picked up"


def test_a_hint_with_several_picks_that_lead_on_names_them() -> None:
    shown = hint(SMALL, (), Limits(5.0))
    assert shown.cells == (C4,) and shown.message == "start at c4" and shown.detail == "other picks that lead on: a2"
    full = hint(problem_from_url("goishi/3/3/00"), (), Limits(5.0))  # every point a stone: every start leads on
    assert (full.message, full.detail) == ("start at a3", "other picks that lead on: b3 c3 a2 b2 c2 and 3 more")


def test_a_hint_out_of_time_says_so() -> None:
    limits = Limits(5.0)
    limits.stop(STOP_TIME)  # the time limit, reached already
    try:
        assert hint(SMALL, (), limits).message == "no hint found in time"
    finally:
        limits.close()


@pytest.mark.parametrize("size", SIZES)
def test_every_seeds_solution_passes_the_records_checker(size: int) -> None:
    for difficulty in DIFFICULTIES:
        for seed in range(2):
            puzzle, state = new(size, difficulty, seed)
            clicks = solution(puzzle, state, Limits(10.0))
            for cell, tool in clicks:
                state = click(puzzle, state, cell, tool)
            assert solved(puzzle, state) and PUZZLE.violations(puzzle, state) == []
            assert faults(puzzle, state) == []


def test_a_solution_goes_on_from_a_start_and_is_empty_where_none_does() -> None:
    assert solution(SMALL, (A2,), Limits(5.0)) == [(A4, PICK), (B4, PICK), (C4, PICK)]
    assert solution(SMALL, (B4,), Limits(5.0)) == []
    assert solution(SMALL, (A2, A4, B4, C4), Limits(5.0)) == []


def test_the_scene_shows_the_stones_left_and_the_picked_ones_faded_and_numbered() -> None:
    picture = scene(SMALL, (A2, A4))
    assert set(picture.pieces) == {B4, C4}
    assert picture.faded == {A2, A4} and picture.labels == {A2: "1", A4: "2"}
    assert picture.path == [A2, A4] and picture.style == "points"
    assert picture.title == "2 of 4 stones picked up"


def test_urls_export_and_import_the_puzzle() -> None:
    puzzle, _ = new(7, "easy", 0)
    url = problem_to_url(puzzle)
    assert url.startswith("https://puzz.link/p?goishi/7/7/")
    assert problem_from_url(url) == puzzle
    assert problem_from_url("  goishi/4/4/1370\n") == Puzzle.parse("OOOO\n.OOO\n..OO\n...O")
    assert problem_to_url(SMALL) == "https://puzz.link/p?goishi/4/4/3tvg"  # 00011 11101 11111 1: 1 where no stone


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("https://puzz.link/p?nurikabe/4/4/1370", "not a Goishi one"),
        ("goishi/4/4/13", "truncated"),
        ("goishi/4/4/13z0", "not a base-32 digit"),
        ("goishi/4/4/vvvv", "no stones"),
        ("goishi/9/9/" + "0" * 17, "at most 64"),
        (None, "is text"),
    ],
)
def test_a_bad_url_is_refused_with_a_reason(url: object, reason: str) -> None:
    with pytest.raises(BoardPuzzlesError, match=reason):
        problem_from_url(url)  # type: ignore[arg-type]


def test_a_game_survives_json() -> None:
    session = Attempt.new(PLAY, 6, "medium", 4)
    for cell, tool in solution(session.problem, session.state, Limits(5.0))[:5]:
        session.click(cell, tool)
    session.undo()
    stored = json.loads(json.dumps(session.to_json()))
    assert stored["problem"].startswith("https://puzz.link/p?goishi/6/6/")
    again = Attempt.from_json(PLAY, stored)
    assert again.problem == session.problem and again.state == session.state and again.can_redo
    assert state_from_json(session.problem, state_to_json(session.problem, session.state)) == session.state


@pytest.mark.parametrize(
    "document",
    [None, "a4", [0], ["a4", "a4"], ["d4"], ["a4", "c4"], ["a4", "zz99"], ["x" * 10_000]],
)
def test_a_bad_stored_state_is_refused(document: object) -> None:
    with pytest.raises(BoardPuzzlesError):
        state_from_json(SMALL, document)


def test_a_bad_stored_game_is_refused() -> None:
    session = Attempt.new(PLAY, 5, "easy", 0)
    stored = session.to_json()
    for problem in ("goishi/2/2/", 7, "pzprv3"):
        with pytest.raises(BoardPuzzlesError):
            Attempt.from_json(PLAY, {**stored, "problem": problem})


@st.composite
def puzzles_and_clicks(draw: st.DrawFn) -> tuple[Puzzle, list[int]]:
    rows, cols = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    stones = draw(st.sets(st.integers(0, rows * cols - 1), min_size=1, max_size=12))
    clicks = draw(st.lists(st.integers(0, rows * cols - 1), max_size=40))
    return Puzzle(rows, cols, tuple(stones)), clicks


@settings(max_examples=80, deadline=None)
@given(puzzles_and_clicks())
def test_random_clicks_agree_with_the_legal_moves_and_the_records_checker(case: tuple[Puzzle, list[int]]) -> None:
    puzzle, clicks = case
    state: tuple[int, ...] = ()
    for cell in clicks:
        allowed = {stone for stone, _ in legal_moves(puzzle, state)}
        try:
            state = click(puzzle, state, cell, PICK)
        except IllegalMove:
            assert cell not in allowed
        else:
            assert cell in allowed
    assert solved(puzzle, state) == (PUZZLE.violations(puzzle, state) == [])
    stuck = not legal_moves(puzzle, state)
    if solved(puzzle, state):
        assert faults(puzzle, state) == []
    elif stuck:
        assert any(f.kind == "wrong" for f in faults(puzzle, state))  # stones are left and none can be picked
    finishes = all(f.kind == "unfinished" for f in faults(puzzle, state))
    assert finishes == (solved(puzzle, state) or bool(solution(puzzle, state, Limits(5.0))))


def test_the_play_imports_and_exports_urls_and_starts_an_imported_puzzle_empty() -> None:
    url = "https://puzz.link/p?goishi/6/7/vsten1tvo"  # robx/pzprjs, test/script/goishi.js
    attempt = Attempt.from_url(PLAY, url)
    assert attempt.url == url and attempt.state == () and (attempt.problem.rows, attempt.problem.cols) == (7, 6)
    for cell, tool in solution(attempt.problem, attempt.state, Limits(5.0)):
        attempt.click(cell, tool)
    assert attempt.verdict().solved


def test_the_legend_names_the_last_stone_picked_only_once_one_is() -> None:
    assert scene(SMALL, ()).mark_meanings == {}
    assert list(scene(SMALL, (A2,)).mark_meanings.values()) == ["the last stone picked up"]
