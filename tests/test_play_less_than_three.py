"""Less Than Three played by hand (puzzles/less_than_three/play.py): clicks around the givens,
three in a line flagged, the verdict agreeing with the record's checker, hints from the
completions, the solver's clicks, JSON both ways (checked on reading)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.faults import Fault
from boardpuzzles.limits import STOP_TIME, Limits
from boardpuzzles.play import Attempt, IllegalMove, play_of
from boardpuzzles.puzzles import get
from boardpuzzles.puzzles.less_than_three import PUZZLE
from boardpuzzles.puzzles.less_than_three.play import GIVEN_COLOUR, PLAY, Setup

LEVELS = ("easy", "medium", "hard")
BLANK = Setup(6, "easy", 0, ())  # no givens: faults and clicks on any cell


def wrong(faults: list[Fault]) -> list[Fault]:
    """The faults a page shows at once (not what is left to do)."""
    return [fault for fault in faults if fault.kind == "wrong"]


def at(setup, names):
    """Cells by square name (a1 at the bottom left)."""
    grid = setup.problem.rules.grid
    return [grid.cell_named(name) for name in names.split()]


def place(setup, state, names, tool):
    for cell in at(setup, names):
        state = PLAY.click(setup, state, cell, tool)
    return state


def solve(setup, state):
    for cell, tool in PLAY.solution(setup, state, Limits(10.0)):
        state = PLAY.click(setup, state, cell, tool)
    return state


def test_the_record_plays_it() -> None:
    assert play_of(PUZZLE) is PLAY and play_of(get("less-than-three")) is PLAY  # type: ignore[arg-type]
    assert [t.name for t in PLAY.tools] == ["black", "white", "erase", "cycle"]
    assert [t.key for t in PLAY.tools] == ["b", "w", "e", "c"]
    assert PLAY.default_size == 6 and PLAY.sizes == (6, 7, 8, 9, 10) and PLAY.difficulties == LEVELS


@pytest.mark.parametrize("size", [6, 8])
@pytest.mark.parametrize("level", LEVELS)
def test_new_puzzles_start_with_their_givens_and_the_same_seed_makes_the_same(size: int, level: str) -> None:
    setup, state = PLAY.new(size, level, 7)
    assert PLAY.new(size, level, 7) == (setup, state)
    assert len(state) == size * size and setup.givens
    assert all(state[cell] == letter for cell, letter in setup.givens)
    assert sum(piece != "." for piece in state) == len(setup.givens)
    assert wrong(PLAY.faults(setup, state)) == [] and not PLAY.solved(setup, state)
    assert [f.kind for f in PLAY.faults(setup, state)] == ["unfinished"]


def test_clicks_place_take_off_and_cycle_stones() -> None:
    state = BLANK.start()
    (a1,) = at(BLANK, "a1")
    black = PLAY.click(BLANK, state, a1, "black")
    assert black[a1] == "X"
    assert PLAY.click(BLANK, black, a1, "black")[a1] == "."  # the same colour again takes it off
    assert PLAY.click(BLANK, black, a1, "white")[a1] == "O"
    assert PLAY.click(BLANK, black, a1, "erase")[a1] == "."
    cycled = [state[a1]]
    for _ in range(3):
        state = PLAY.click(BLANK, state, a1, "cycle")
        cycled.append(state[a1])
    assert cycled == [".", "X", "O", "."]


def test_givens_and_bad_clicks_are_refused_with_the_reason() -> None:
    setup, state = PLAY.new(6, "hard", 3)
    cell, letter = setup.givens[0]
    colour = {"X": "black", "O": "white"}[letter]
    for tool in ("black", "white", "erase", "cycle"):
        with pytest.raises(IllegalMove, match=f"{setup.name(cell)} holds a given {colour} stone"):
            PLAY.click(setup, state, cell, tool)
    with pytest.raises(IllegalMove, match="off the board"):
        PLAY.click(setup, state, 36, "black")
    with pytest.raises(IllegalMove, match="off the board"):
        PLAY.click(setup, state, -1, "black")
    with pytest.raises(IllegalMove, match="no tool"):
        PLAY.click(setup, state, 0, "queen")


@pytest.mark.parametrize(
    ("names", "what"),
    [
        ("a6 b6 c6", "a row"),
        ("b1 b3 b5", "a column"),
        ("a1 c3 f6", "a diagonal"),
        ("a6 c5 e4", "a line of slope 1:2, which the rules count too"),
    ],
)
def test_three_of_a_colour_in_a_line_is_a_fault_with_its_stones_and_line(names: str, what: str) -> None:
    cells = at(BLANK, names)
    state = place(BLANK, BLANK.start(), names, "white")
    (fault,) = wrong(PLAY.faults(BLANK, state))
    assert set(fault.cells) == set(cells), what
    assert "3 white stones in a line" in fault.message
    assert len(fault.lines) == 1 and set(fault.lines[0]) <= set(cells) and fault.lines[0][0] != fault.lines[0][1]
    two = PLAY.click(BLANK, state, cells[1], "black")  # the other colour between them is fine
    assert wrong(PLAY.faults(BLANK, two)) == []


def test_fewer_stones_than_the_rules_ask_is_unfinished_and_four_in_a_line_is_a_fault() -> None:
    (left,) = PLAY.faults(BLANK, place(BLANK, BLANK.start(), "a1 b1", "black"))
    assert (left.kind, left.message, left.cells) == ("unfinished", "10 black and 12 white stones left to place", ())
    state = place(BLANK, BLANK.start(), "a1 b1 c1 d1", "black")
    (fault,) = wrong(PLAY.faults(BLANK, state))
    assert fault.message.startswith("4 black stones") and len(fault.cells) == 4


@pytest.mark.parametrize("size", [6, 7, 8, 9, 10])
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_solvers_clicks_solve_it_and_the_records_checker_agrees(size: int, level: str, seed: int) -> None:
    setup, state = PLAY.new(size, level, seed)
    done = solve(setup, state)
    assert PLAY.solved(setup, done) and PLAY.faults(setup, done) == []
    assert PUZZLE.violations(setup.problem, setup.board(done)) == []
    assert all(done[cell] == letter for cell, letter in setup.givens)
    assert PLAY.hint(setup, done, Limits()).message.startswith("solved")


def test_a_complete_board_that_breaks_the_rules_is_not_solved() -> None:
    setup, state = PLAY.new(6, "hard", 1)
    done = solve(setup, state)
    free = [c for c in range(36) if c not in setup.given and done[c] != "."]
    swapped = PLAY.click(setup, done, free[0], "cycle")  # a black turns white, or a white is taken off
    assert not PLAY.solved(setup, swapped)
    assert PUZZLE.violations(setup.problem, setup.board(swapped))


def test_the_hint_is_a_stone_of_the_one_completion() -> None:
    setup, state = PLAY.new(6, "hard", 3)
    answer = solve(setup, state)
    hints = 0
    while not PLAY.solved(setup, state):
        hint = PLAY.hint(setup, state, Limits(10.0))
        (cell,) = hint.cells
        colour = {"X": "black", "O": "white"}[answer[cell]]
        assert state[cell] == "." and hint.message.startswith(f"a {colour} stone on {setup.name(cell)}")
        state = PLAY.click(setup, state, cell, colour)
        hints += 1
    assert state == answer and hints == sum(p != "." for p in answer) - len(setup.givens)


def test_the_hint_gives_the_rules_reason_when_it_has_one() -> None:
    setup, state = PLAY.new(6, "hard", 3)  # givens e6, c5, a3 (white): d6 white would line up with c5 and a3
    assert dict(setup.givens) == dict(zip(at(setup, "e6 c5 a3"), "OOO", strict=True))
    hint = PLAY.hint(setup, state, Limits(10.0))
    assert hint.cells == tuple(at(setup, "d6"))
    assert "a white one there would make three in a line with c5, a3" in hint.message


def test_the_hint_names_the_stones_to_take_back_when_nothing_completes_them() -> None:
    setup, state = PLAY.new(6, "medium", 4)
    answer = solve(setup, state)
    wrong = [c for c in range(36) if answer[c] == "." and c not in setup.given][:2]
    once = PLAY.click(setup, state, wrong[0], "black")
    hint = PLAY.hint(setup, once, Limits(10.0))
    assert hint.cells == (wrong[0],)
    assert hint.message == f"no completion from here: undo to before your stone on {setup.name(wrong[0])}, or erase it"
    assert hint.outcome == "dead end"
    twice = PLAY.click(setup, once, wrong[1], "white")
    assert PLAY.hint(setup, twice, Limits(10.0)).cells == tuple(wrong)
    assert solve(setup, twice) == answer  # the solver's clicks take them off first


def test_a_hint_out_of_time_says_so() -> None:
    setup, state = PLAY.new(6, "easy", 0)
    limits = Limits()
    limits.stop(STOP_TIME)
    assert PLAY.hint(setup, state, limits).message == "no hint found in time"


def test_the_scene_shades_the_givens_only() -> None:
    setup, state = PLAY.new(6, "easy", 2)
    played = PLAY.click(setup, state, next(c for c in range(36) if state[c] == "."), "black")
    scene = PLAY.scene(setup, played)
    assert scene.marks == {cell: GIVEN_COLOUR for cell, _ in setup.givens}
    assert scene.mark_meanings == {GIVEN_COLOUR: "given stone"}
    names = {"X": "black", "O": "white"}
    assert scene.tooltips == {c: f"{setup.name(c)}: given {names[p]} stone" for c, p in setup.givens}
    assert scene.pieces == {c: p for c, p in enumerate(played) if p != "."}


def test_json_round_trips_and_a_session_is_rebuilt_from_its_clicks() -> None:
    setup, state = PLAY.new(8, "medium", 11)
    problem = json.loads(json.dumps(PLAY.problem_to_json(setup)))
    assert PLAY.problem_from_json(problem) == setup
    played = solve(setup, state)
    assert PLAY.state_from_json(setup, json.loads(json.dumps(PLAY.state_to_json(setup, played)))) == played
    session = Attempt.new(PLAY, 8, "medium", 11)
    for cell, tool in PLAY.solution(session.problem, session.state, Limits())[:5]:
        session.click(cell, tool)
    again = Attempt.from_json(PLAY, json.loads(json.dumps(session.to_json())))
    assert again.state == session.state and again.problem == setup


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(size=11), "puzzle is 6x6 to 10x10"),
        (lambda d: d.update(size="6"), "puzzle is 6x6"),
        (lambda d: d.update(difficulty="expert"), "difficulty is one of"),
        (lambda d: d.update(seed=-1), "seed must be between"),
        (lambda d: d.update(givens=[]), "givens are an object"),
        (lambda d: d["givens"].update(z9="X"), "off the 6x6 board"),
        (lambda d: d["givens"].update(a1="Q"), "a given is a square name and X or O"),
        (lambda d: d["givens"].update(E6="O"), "named twice"),
        (lambda d: d.update(givens={}), "exactly one completion"),
        (lambda d: d.pop("seed"), "an object of size, difficulty, seed and givens"),
    ],
)
def test_a_bad_stored_problem_is_refused_with_a_reason(change, message: str) -> None:
    setup, _ = PLAY.new(6, "hard", 3)
    document = PLAY.problem_to_json(setup)
    change(document)
    with pytest.raises(BoardPuzzlesError, match=message):
        PLAY.problem_from_json(document)


@pytest.mark.parametrize("document", [None, 36, "X" * 35, "Q" * 36, "." * 36, ["."] * 36])
def test_a_bad_stored_board_is_refused(document: object) -> None:
    setup, _ = PLAY.new(6, "hard", 3)  # "." * 36 lacks the givens
    with pytest.raises(BoardPuzzlesError):
        PLAY.state_from_json(setup, document)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 50),
    clicks=st.lists(st.tuples(st.integers(0, 35), st.sampled_from(["black", "white", "erase", "cycle"])), max_size=30),
)
def test_any_clicks_keep_the_givens_and_the_verdict_agrees_with_the_checker(seed: int, clicks: list) -> None:
    setup, state = PLAY.new(6, "medium", seed)
    for cell, tool in clicks:
        try:
            state = PLAY.click(setup, state, cell, tool)
        except IllegalMove:
            assert cell in setup.given
    assert all(state[cell] == letter for cell, letter in setup.givens)
    violations = PUZZLE.violations(setup.problem, setup.board(state))
    faults = PLAY.faults(setup, state)
    assert PLAY.solved(setup, state) == (not violations)
    assert bool(wrong(faults)) == any(v.lines for v in violations)
    assert all(0 <= c < 36 for fault in faults for c in fault.cells)
    assert PLAY.state_from_json(setup, PLAY.state_to_json(setup, state)) == state
    hint = PLAY.hint(setup, state, Limits(10.0))
    if hint.message.startswith("a "):
        assert state[hint.cells[0]] == "." and not wrong(faults)
    assert PLAY.solved(setup, solve(setup, state))


@settings(max_examples=40, deadline=None)
@given(
    document=st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=3),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    )
)
def test_any_json_is_read_or_refused_never_a_traceback(document: object) -> None:
    try:
        PLAY.problem_from_json(document)
    except BoardPuzzlesError:
        pass


def test_more_stones_of_a_colour_than_the_board_holds_is_a_fault() -> None:
    names = " ".join(f"{f}{r}" for r in (1, 2) for f in "abcdef") + " a3"
    state = place(BLANK, BLANK.start(), names, "black")
    messages = [fault.message for fault in PLAY.faults(BLANK, state)]
    assert "13 black stones: the board holds 12" in messages
    assert sum("in a line" in m for m in messages) >= 3
