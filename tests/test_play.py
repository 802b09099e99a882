"""The interactive protocol (boardpuzzles.play): the game engine, and the default plays of boards
of pieces and of cell pairs (boardpuzzles.plays)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from boardpuzzles.answers import ORDER, Order
from boardpuzzles.board import Board
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.faults import unfinished
from boardpuzzles.grid import Grid
from boardpuzzles.limits import STOP_TIME, Limits
from boardpuzzles.play import ONE_MOVE, RESTART, Attempt, Fault, Hint, IllegalMove, Play, Tool, Verdict, play_of
from boardpuzzles.protocol import Param, Puzzle
from boardpuzzles.puzzles import get, puzzles
from tests import reference


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def kings_play() -> Play:  # type: ignore[type-arg]
    play = play_of(get("kings"))  # type: ignore[arg-type]
    assert play is not None
    return play


def test_kings_get_the_generic_board_play() -> None:
    play = kings_play()
    assert [t.name for t in play.tools] == ["king", "erase"]
    assert play.sizes == (4, 5, 6, 7, 8, 9, 10) and play.default_size == 6 and play.difficulties == ()
    problem, state = play.new(6, "", 0)
    assert state == tuple("." * 36)
    assert play.scene(problem, state).grid.rows == 6


def test_the_answer_type_chooses_the_default_play_and_a_play_is_made_once() -> None:
    plain = dataclasses.replace(get("dominoes"), play=None)  # the record without its own search
    assert [t.name for t in play_of(plain).tools] == ["pair", "erase"]  # type: ignore[union-attr]
    dominoes = get("dominoes")
    assert play_of(dominoes) is play_of(dominoes)  # type: ignore[arg-type]
    assert kings_play().tools[1].name == "erase"  # the second tool: right-click, long-press


def test_click_places_and_removes_a_king_and_touching_kings_are_faults() -> None:
    play = kings_play()
    problem, state = play.new(4, "", 0)
    state = play.click(problem, state, 0, "king")
    assert state[0] == "K" and play.faults(problem, state) == [
        Fault("1 king; the problem asks for 4", kind="unfinished")
    ]
    touching = play.click(problem, state, 1, "king")
    faults = play.faults(problem, touching)
    assert faults[1:] == [Fault("a4 and b4 touch", (0, 1))] and faults[0].kind == "unfinished"
    assert play.click(problem, touching, 1, "king")[1] == "."  # the same tool again takes it off
    assert play.click(problem, touching, 1, "erase")[1] == "."
    with pytest.raises(IllegalMove):
        play.click(problem, state, 16, "king")
    with pytest.raises(IllegalMove):
        play.click(problem, state, 0, "queen")


def test_an_attempt_solves_kings_with_the_solver_clicks_and_times_it() -> None:
    clock = Clock()
    attempt = Attempt.new(kings_play(), 6, "", 0, clock=clock)
    assert not attempt.verdict().solved
    clicks = kings_play().solution(attempt.problem, attempt.state, Limits())  # type: ignore[misc]
    assert len(clicks) == 9  # ceil(6/2)^2 kings
    clock.now += 65
    for cell, tool in clicks:
        attempt.click(cell, tool)
    verdict = attempt.verdict()
    assert verdict.solved and verdict.faults == [] and verdict.seconds == 65
    assert attempt.at == 9
    clock.now += 100
    assert attempt.verdict().seconds == 65  # the time taken stays that of the first solve


def test_undo_redo_and_a_new_click_forgets_the_undone_ones() -> None:
    attempt = Attempt.new(kings_play(), 4, "", 0, clock=Clock())
    attempt.click(0, "king")
    attempt.click(2, "king")
    assert attempt.undo()[2] == "." and attempt.can_redo
    assert attempt.redo()[2] == "K" and not attempt.can_redo
    attempt.undo()
    attempt.click(10, "king")
    assert not attempt.can_redo and attempt.line == [(0, "king"), (10, "king")]
    attempt.undo()
    attempt.undo()
    with pytest.raises(IllegalMove, match="nothing to undo"):
        attempt.undo()


def test_an_illegal_click_leaves_the_game_as_it_was() -> None:
    attempt = Attempt.new(kings_play(), 4, "", 0, clock=Clock())
    attempt.click(0, "king")
    with pytest.raises(BoardPuzzlesError):
        attempt.click(99, "king")
    with pytest.raises(BoardPuzzlesError, match="no tool"):
        attempt.click(1, "rook")
    assert attempt.line == [(0, "king")] and attempt.state[0] == "K"


def test_an_attempt_survives_json_with_its_undone_clicks() -> None:
    attempt = Attempt.new(kings_play(), 5, "", 7, clock=Clock())
    for cell in (0, 2, 4):
        attempt.click(cell, "king")
    attempt.undo()
    again = Attempt.from_json(kings_play(), attempt.to_json(), clock=Clock())
    assert again.state == attempt.state and again.line == attempt.line and again.at == 2
    assert again.redo() == attempt.redo()
    with pytest.raises(BoardPuzzlesError, match="not a stored game"):
        Attempt.from_json(kings_play(), {}, clock=Clock())


def test_restart_is_a_move_that_undo_takes_back_and_it_survives_json() -> None:
    attempt = Attempt.new(kings_play(), 4, "", 0, clock=Clock())
    with pytest.raises(IllegalMove, match="at its start"):
        attempt.restart()
    attempt.click(0, "king")
    attempt.click(2, "king")
    assert attempt.restart() == attempt.start and not attempt.can_restart
    assert attempt.undo()[2] == "K" and attempt.can_redo
    assert attempt.redo() == attempt.start
    again = Attempt.from_json(kings_play(), attempt.to_json(), clock=Clock())
    assert again.state == attempt.start and again.undo()[0] == "K"
    with pytest.raises(BoardPuzzlesError, match="no tool"):
        attempt.click(-1, "restart")  # a restart is not a click a page may send


def test_reveal_plays_the_solution_marks_the_game_and_is_not_timed_as_solved() -> None:
    clock = Clock()
    attempt = Attempt.new(kings_play(), 6, "", 0, clock=clock)
    attempt.click(1, "king")
    attempt.click(2, "king")  # touching: no solution holds these, so the reveal restarts first
    clock.now += 30
    before = attempt.state
    attempt.reveal(Limits(10.0))
    verdict = attempt.verdict()
    assert attempt.revealed and verdict.solved and attempt.solved_seconds is None
    assert get("kings").violations(attempt.problem.problem, Board(attempt.problem.grid, attempt.state)) == []  # type: ignore[union-attr]
    with pytest.raises(IllegalMove, match="solved already"):
        attempt.reveal()
    assert attempt.moves == 3  # two kings, then the solution shown: one move
    attempt.undo()  # the solution shown, whole (its restart included)
    assert attempt.state == before and attempt.at == attempt.moves == 2 and not attempt.verdict().solved
    attempt.redo()
    assert attempt.verdict().solved and attempt.moves == 3
    again = Attempt.from_json(kings_play(), attempt.to_json(), clock=Clock())
    assert again.revealed and again.state == attempt.state and again.moves == 3
    again.undo()
    assert again.state == before


def spending_play(position_fails: bool = True, start_fails: bool = False) -> Play:  # type: ignore[type-arg]
    """Kings whose search spends its whole time limit (as a search that runs out of time does)
    from any position but the start, and from the start too when ``start_fails``; from the
    start it finds the solution only with a limit of its own (one already spent stops it)."""
    base = kings_play()

    def search(problem: Any, state: Any, limits: Limits) -> Any:
        at_start = "K" not in state
        if (position_fails and not at_start) or (start_fails and at_start):
            limits.stop(STOP_TIME)
        limits.check()
        return base.solution(problem, state, limits)  # type: ignore[misc]

    def hint(problem: Any, state: Any, limits: Limits) -> Any:
        limits.stop(STOP_TIME)
        limits.check()

    return dataclasses.replace(base, solution=search, hint=hint)


def test_a_search_out_of_time_ends_in_a_plain_answer_never_an_error() -> None:
    attempt = Attempt.new(spending_play(), 6, "", 0, clock=Clock())
    attempt.click(0, "king")
    limits = Limits(60.0)
    attempt.reveal(limits)  # the search from the start gets a limit of its own
    assert limits.stopped and attempt.revealed and attempt.verdict().solved
    assert attempt.line[1][1] == ONE_MOVE and attempt.line[2] == RESTART
    assert attempt.hint().message == "no hint found in time"

    stuck = Attempt.new(spending_play(start_fails=True), 6, "", 0, clock=Clock())
    stuck.click(0, "king")
    with pytest.raises(IllegalMove, match="^no solution found in time$"):
        stuck.reveal(Limits(60.0))
    assert stuck.line == [(0, "king")] and not stuck.revealed  # the game as it was
    with pytest.raises(IllegalMove, match="^no solution found in time$"):
        Attempt.new(spending_play(start_fails=True), 6, "", 0).reveal(Limits(60.0))


def test_a_copy_changes_without_touching_the_original() -> None:
    attempt = Attempt.new(kings_play(), 4, "", 0, clock=Clock())
    attempt.click(0, "king")
    twin = attempt.copy()
    twin.click(2, "king")
    twin.undo()
    twin.undo()
    assert attempt.line == [(0, "king")] and attempt.at == 1 and attempt.state[0] == "K"
    assert twin.at == 0 and twin.state == attempt.start and twin.can_redo


def test_a_play_says_whether_it_has_aids_and_a_game_has_no_play() -> None:
    from boardpuzzles.play import play_of

    assert play_of(get("baikago")) is None  # type: ignore[arg-type]  (a game: pages of its own)
    has = {name: play.has_aids for name, puzzle in puzzles().items() if (play := play_of(puzzle)) is not None}
    assert has["queens"] and has["hyperqueen"] and has["goishi"] and has["dominoes"] and has["knights-tour"]
    assert not has["kings"] and not has["less-than-three"]


def test_aids_are_a_setting_of_the_game_kept_in_json() -> None:
    attempt = Attempt.new(kings_play(), 4, "", 0, clock=Clock())
    assert not attempt.aids and "aids" not in attempt.to_json()
    attempt.aids = True
    assert Attempt.from_json(kings_play(), attempt.to_json(), clock=Clock()).aids


def test_a_fault_has_a_known_kind() -> None:
    assert Fault("x").to_json() == {"message": "x", "cells": [], "lines": [], "kind": "wrong"}
    with pytest.raises(ValueError, match="kind"):
        Fault("x", kind="bogus")  # type: ignore[arg-type]


def test_hint_is_a_square_of_a_solution_through_the_pieces_placed() -> None:
    play = kings_play()
    problem, state = play.new(4, "", 0)
    hint = play.hint(problem, state, Limits())
    assert len(hint.cells) == 1 and hint.message.startswith("a king on ")
    assert hint.to_json() == {"message": hint.message, "cells": list(hint.cells), "detail": "", "outcome": "step"}
    wrong = play.click(problem, play.click(problem, state, 0, "king"), 1, "king")  # touching
    assert "no solution" in play.hint(problem, wrong, Limits()).message
    assert play.hint(problem, wrong, Limits()).outcome == "dead end"


def test_a_dead_ends_hint_names_the_pieces_no_solution_holds_even_alone() -> None:
    # Nine kings fit on 5x5 only on the squares of odd file and rank; on 6x6, b6 and e6 are each
    # on some solution of nine kings, but on none together (nor b1 and e1).
    play = kings_play()
    problem, state = play.new(5, "", 0)
    for cell in (1, 3, 12):  # b5, d5 and c3 (c3 is held)
        state = play.click(problem, state, cell, "king")
    hint = play.hint(problem, state, Limits())
    assert hint == Hint("no solution holds the kings on b5 and d5: take them off", (1, 3), outcome="dead end")
    problem, state = play.new(6, "", 0)
    for cell in (1, 4, 31):  # b6, e6 and b1: taking b6 or e6 off mends it, not b1
        state = play.click(problem, state, cell, "king")
    hint = play.hint(problem, state, Limits())
    named = "no solution holds these kings together: take off the king on b6 or e6 and the rest can still be completed"
    assert hint == Hint(named, (1, 4), outcome="dead end")
    for kings in ((4, 31), (1, 31)):  # a solution holds the rest, one the independent checker passes
        kept = tuple("K" if c in kings else "." for c in range(36))
        for cell, tool in play.solution(problem, kept, Limits()):  # type: ignore[misc]
            kept = play.click(problem, kept, cell, tool)
        placed = [c for c, piece in enumerate(kept) if piece == "K"]
        assert reference.kings_apart(6, 6, 9, placed) and set(kings) <= set(placed)
    state = play.click(problem, state, 34, "king")  # and e1: no one king taken off is enough
    hint = play.hint(problem, state, Limits())
    assert hint.outcome == "dead end" and hint.cells == ()
    assert (
        hint.message
        == "no solution holds these kings, even with any one of them taken off: take two or more off (undo)"
    )


def test_kings_hint_and_solution_come_at_once_on_every_size_offered() -> None:
    play = kings_play()
    get("kings").warm()  # the kernels compiled before the clock starts
    started = time.process_time()
    for size in play.sizes:
        attempt = Attempt.new(play, size, "", 0, clock=Clock())
        hint = attempt.hint(Limits(60.0))
        assert hint.message.startswith("a king on ") and len(hint.cells) == 1, size
        attempt.click(hint.cells[0], "king")
        attempt.reveal(Limits(60.0))
        kings = [c for c, piece in enumerate(attempt.state) if piece == "K"]
        assert reference.kings_apart(size, size, attempt.problem.problem.kings, kings) and hint.cells[0] in kings
        assert attempt.verdict().solved and RESTART not in attempt.line  # the hint's king kept
    assert time.process_time() - started < 5  # about 0.05 s


def test_the_search_from_what_is_placed_hints_as_the_records_search_does() -> None:
    """Kings and dominoes search from the pieces placed; the default play, given the record
    alone, filters the record's answers: both find the same first answer, or none."""
    for name, size, tool in (("kings", 4, "king"), ("kings", 5, "king"), ("dominoes", 4, "pair")):
        own = play_of(get(name))  # type: ignore[arg-type]
        plain = play_of(dataclasses.replace(get(name), play=None))  # type: ignore[arg-type]
        assert own is not None and plain is not None and own is not plain
        problem, start = own.new(size, "", 0)
        for cells in itertools.product(range(0, size * size, size - 3), repeat=2):
            state = start
            for cell in cells:
                state = own.click(problem, state, cell, tool)
            assert own.hint(problem, state, Limits()) == plain.hint(problem, state, Limits()), (name, cells)


def test_a_play_says_which_puzzles_the_seed_chooses() -> None:
    """Where the play says the seed changes nothing (a blank board), every seed makes the same
    puzzle; elsewhere two seeds make two puzzles."""
    for name, puzzle in puzzles().items():
        play = play_of(puzzle)
        assert play is not None
        seeded = [d for d in play.difficulties or ("",) if play.seeded(d)]
        assert [d for d in play.difficulties or ("",) if d not in seeded] == list(play.seedless), name
        for difficulty in play.seedless:
            for size in play.sizes:
                try:
                    made = {json.dumps(play.problem_to_json(play.new(size, difficulty, s)[0])) for s in (0, 1, 7)}
                except BoardPuzzlesError:  # none of that size (no closed knight's tour on 5x5)
                    continue
                assert len(made) == 1, (name, difficulty, size)
        if seeded:  # the cheapest: the smallest board of the first difficulty
            made = {json.dumps(play.problem_to_json(play.new(play.sizes[0], seeded[0], seed)[0])) for seed in (0, 1)}
            assert len(made) == 2, name
    assert not Attempt.new(kings_play(), 4, "", 3).seeded
    assert Attempt.new(play_of(get("queens")), 8, "easy", 3).seeded  # type: ignore[arg-type]
    assert not Attempt.new(play_of(get("queens")), 8, "blank", 3).seeded  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seedless"):
        dataclasses.replace(kings_play(), seedless=("easy",))


def test_sizes_and_difficulties_are_checked() -> None:
    with pytest.raises(BoardPuzzlesError, match="^size is one of 4, 5, 6, 7, 8, 9, 10, got 99$"):
        Attempt.new(kings_play(), 99, "", 0)


def test_a_play_offers_its_sizes_in_ascending_order_and_keeps_its_default() -> None:
    base = kings_play()
    play = dataclasses.replace(base, sizes=(8, 5, 6), default_size=0)  # 0: the first as written
    assert play.sizes == (5, 6, 8) and play.default_size == 8
    assert dataclasses.replace(base, sizes=(9, 4), default_size=9).sizes == (4, 9)
    with pytest.raises(ValueError, match="default size 7"):
        dataclasses.replace(base, sizes=(5, 6), default_size=7)
    for puzzle in puzzles().values():
        offered = play_of(puzzle)
        assert offered is not None and list(offered.sizes) == sorted(set(offered.sizes)), puzzle.name
        assert offered.default_size in offered.sizes


def test_a_play_refuses_repeated_tool_keys() -> None:
    base = kings_play()
    with pytest.raises(ValueError, match="repeat"):
        Play(**{**base.__dict__, "tools": (Tool("a", "A", "k"), Tool("b", "B", "k"))})


def test_every_registered_puzzle_is_playable() -> None:
    for name, puzzle in puzzles().items():
        assert play_of(puzzle) is not None, name


# ---------------------------------------------------------------- answers that are pairs of cells (dominoes)
def dominoes_play() -> Play:  # type: ignore[type-arg]
    play = play_of(get("dominoes"))  # type: ignore[arg-type]
    assert play is not None
    return play


def test_dominoes_get_the_generic_pairs_play() -> None:
    play = dominoes_play()
    assert (
        [t.name for t in play.tools] == ["pair", "erase"]
        and play.sizes == (4, 6, 8)
        and play.default_size == 6
        and play.drag
    )
    problem, state = play.new(4, "", 0)
    faults = play.faults(problem, state)
    # the record says each square not covered; the play says them as one
    assert faults == [Fault("16 squares left to cover", tuple(range(16)), kind="unfinished")]
    assert not play.solved(problem, state)


def test_a_square_then_one_beside_it_places_a_pair_and_a_click_on_it_takes_it_off() -> None:
    play = dominoes_play()
    problem, state = play.new(4, "", 0)
    state = play.click(problem, state, 5, "pair")
    assert state == ((), 5)
    assert play.click(problem, state, 15, "pair") == ((), 15)  # not beside it: a new first square
    assert play.click(problem, state, 5, "pair") == ((), -1)  # the same square again: none picked
    state = play.click(problem, state, 1, "pair")
    assert state == (((1, 5),), -1)
    assert play.click(problem, state, 5, "pair") == ((), 5)  # taken off, and picked: a drag on from it moves it
    assert play.click(problem, state, 5, "erase") == ((), -1)  # the second tool takes a pair off
    assert play.click(problem, ((), -1), 5, "erase") == ((), -1)  # and nothing else
    assert play.state_from_json(problem, play.state_to_json(problem, state)) == state


def test_a_pair_is_one_move_and_a_drag_from_a_placed_pair_moves_it() -> None:
    # The review: one undo after placing a4-b4 left a4 picked, and a drag from b4-c4's c4 to d4
    # took the domino off and placed none.
    game = Attempt.new(dominoes_play(), 4, "", 0)
    for cell in (0, 1):  # a4, then b4 beside it
        game.click(cell, "pair")
    assert game.state == (((0, 1),), -1) and game.moves == 1
    game.undo()
    assert game.state == ((), -1) and not game.can_undo
    game.redo()
    assert game.state == (((0, 1),), -1)
    game.click(5, "pair")  # b3: picked, a move of its own until a pair is placed
    assert game.moves == 2
    game.undo()
    assert game.state == (((0, 1),), -1)
    for cell in (1, 2):  # a drag from the pair's b4 on to c4: taken off (a move), placed again
        game.click(cell, "pair")
    assert game.state == (((1, 2),), -1) and game.moves == 3
    again = Attempt.from_json(game.play, game.to_json())
    assert again.state == game.state and again.moves == 3
    again.undo()
    again.undo()
    assert again.state == (((0, 1),), -1)


def test_pairs_no_tiling_can_complete_are_a_fault() -> None:
    play = dominoes_play()
    problem, state = play.new(4, "", 0)
    for cell in (1, 5, 4, 8):  # b4-b3 and a3-a2 leave a4 alone in its corner
        state = play.click(problem, state, cell, "pair")
    faults = [f for f in play.faults(problem, state) if f.kind != "unfinished"]
    assert faults == [Fault("a4 can no longer be covered: take a pair beside it off (undo)", (0,), kind="aid")]
    cut_off = Hint("a4 can no longer be covered: take a pair beside it off (undo)", (0,), outcome="dead end")
    assert play.hint(problem, state, Limits()) == cut_off  # the hint says what the check does
    # a4-b4, b3-c3 and b2-b1 leave no square alone, but a3, a2 and a1 apart: three squares, which
    # no dominoes cover (a search finds it). Each of the three alone is in a tiling (as every
    # domino of a 4x4 board is), and so are any two: taking off any one mends it. All three are
    # named, the last placed first, and marked.
    state = ((), -1)
    for cell in (0, 1, 5, 6, 9, 13):
        state = play.click(problem, state, cell, "pair")
    faults = [f for f in play.faults(problem, state) if f.kind != "unfinished"]
    any_one = (
        "no solution holds these pairs together: take off b2-b1, b3-c3 or a4-b4 and the rest can still be completed"
    )
    assert faults == [Fault(any_one, (9, 13, 5, 6, 0, 1), kind="aid")]
    assert play.hint(problem, state, Limits()) == Hint(any_one, (9, 13, 5, 6, 0, 1), outcome="dead end")
    assert reference.dominoes_completion(4, 4, list(state[0])) is None
    for pair in state[0]:  # each alone, and the others without it: a tiling holds them, one the checker passes
        for kept in ((pair,), tuple(p for p in state[0] if p != pair)):
            placed: Any = (kept, -1)
            for cell, tool in play.solution(problem, placed, Limits()):
                placed = play.click(problem, placed, cell, tool)
            assert reference.dominoes_tile(4, 4, list(placed[0])) and set(kept) <= set(placed[0])


def test_pairs_that_no_tiling_holds_even_alone_are_named_and_marked_alone() -> None:
    """A domino on d1-e1 of a 1x10 strip leaves three squares on its left: no tiling holds it,
    whatever else is placed, and the dead end names it (as the board play names a piece) and
    marks it alone, not i1-j1, which a tiling holds. No square is cut off (c1, f1 and h1 each
    have a free neighbour)."""
    play = dominoes_play()
    problem = play.problem_from_json({"size": [1, 10]})
    state: Any = ((), -1)
    for cell in (3, 4, 8, 9):  # d1-e1, i1-j1
        state = play.click(problem, state, cell, "pair")
    assert state == (((3, 4), (8, 9)), -1)
    faults = [f for f in play.faults(problem, state) if f.kind == "aid"]
    named = "no solution holds the pair d1-e1, even alone: take it off"
    assert faults == [Fault(named, (3, 4), kind="aid")]
    assert play.hint(problem, state, Limits()) == Hint(named, (3, 4), outcome="dead end")
    state = play.click(problem, state, 3, "erase")  # taken off: the rest is held
    assert [f for f in play.faults(problem, state) if f.kind == "aid"] == []
    for cell, tool in play.solution(problem, state, Limits()):
        state = play.click(problem, state, cell, tool)
    assert reference.dominoes_tile(1, 10, list(state[0])) and (8, 9) in state[0] and play.solved(problem, state)
    # A square cut off is said first: b1-c1 leaves a1 alone (and f1-g1 no tiling either).
    state = ((), -1)
    for cell in (1, 2, 5, 6):
        state = play.click(problem, state, cell, "pair")
    (fault,) = [f for f in play.faults(problem, state) if f.kind == "aid"]
    assert fault == Fault("a1 can no longer be covered: take a pair beside it off (undo)", (0,), kind="aid")
    # Two of them are listed: d1-e1 and h1-i1 of a 1x12 strip leave three squares, two, three.
    problem = play.problem_from_json({"size": [1, 12]})
    state = ((), -1)
    for cell in (3, 4, 7, 8):
        state = play.click(problem, state, cell, "pair")
    (fault,) = [f for f in play.faults(problem, state) if f.kind == "aid"]
    assert fault == Fault(
        "no solution holds the pairs d1-e1 and h1-i1, even alone: take them off", (3, 4, 7, 8), kind="aid"
    )


def placed_pairs(play: Play, size: int, names: list[str]) -> tuple[Any, Any]:  # type: ignore[type-arg]
    """A blank board of ``size`` and the dominoes named ("b3-b2") placed on it in that order."""
    problem, state = play.new(size, "", 0)
    cell = {problem.grid.name(c): c for c in problem.grid.cells()}
    for name in names:
        for square in name.split("-"):
            state = play.click(problem, state, cell[square], "pair")
    return problem, state


def dead_end_of(play: Play, problem: Any, state: Any) -> tuple[Fault, Hint]:  # type: ignore[type-arg]
    """The dead end the check shows (the fault of the aids) and the hint's."""
    (fault,) = [f for f in play.faults(problem, state) if f.kind == "aid"]
    return fault, play.hint(problem, state, Limits())


def test_a_dead_end_names_the_pair_whose_removal_alone_mends_it() -> None:
    """On 4x4, b4-c4, c1-d1, c2-d2, b3-b2 and a4-a3 leave two regions of three squares (c3, d3
    and d4; a2, a1 and b1): no square alone, each pair alone in a tiling, but only b3-b2 stands
    between the two regions, and taking it off joins them into one that a tiling covers. The
    check and the hint name it and mark it alone."""
    play = dominoes_play()
    names = ["b4-c4", "c1-d1", "c2-d2", "b3-b2", "a4-a3"]
    problem, state = placed_pairs(play, 4, names)
    assert state[0] == ((1, 2), (14, 15), (10, 11), (5, 9), (0, 4))  # in the order placed
    named = "no solution holds these pairs together: take off b3-b2 and the rest can still be completed"
    assert dead_end_of(play, problem, state) == (
        Fault(named, (5, 9), kind="aid"),
        Hint(named, (5, 9), outcome="dead end"),
    )
    assert reference.dominoes_completion(4, 4, list(state[0])) is None
    for pair in state[0]:  # the independent search agrees: only b3-b2 taken off leaves a tiling
        rest = reference.dominoes_completion(4, 4, [p for p in state[0] if p != pair])
        assert (rest is not None) == (pair == (5, 9)) and (rest is None or reference.dominoes_tile(4, 4, rest))
    state = play.click(problem, state, 5, "erase")  # taken off: the rest is completed by the solution
    assert [f for f in play.faults(problem, state) if f.kind == "aid"] == []
    for cell, tool in play.solution(problem, state, Limits()):
        state = play.click(problem, state, cell, tool)
    tiling = list(state[0])
    assert play.solved(problem, state) and reference.dominoes_tile(4, 4, tiling)
    assert {(1, 2), (14, 15), (10, 11), (0, 4)} <= set(tiling)


def test_a_dead_end_names_the_last_placed_of_many_that_mend_it_and_counts_the_others() -> None:
    """On 6x6, a4-a3, d5-e5, e4-e3, c3-d3 and c6-d6 can each be the one taken off: the last
    three placed are named, the last first, the other two counted; all five are marked. A pair
    moved (taken off and placed again) counts as placed last."""
    play = dominoes_play()
    problem, state = placed_pairs(play, 6, ["a4-a3", "d5-e5", "e4-e3", "c3-d3", "c6-d6"])
    message = (
        "no solution holds these pairs together: take off c6-d6, c3-d3, e4-e3 or one of the 2 others"
        " marked, and the rest can still be completed"
    )
    marked = (2, 3, 20, 21, 16, 22, 9, 10, 12, 18)  # c6-d6, c3-d3, e4-e3, d5-e5, a4-a3
    assert dead_end_of(play, problem, state) == (
        Fault(message, marked, kind="aid"),
        Hint(message, marked, outcome="dead end"),
    )
    for pair in state[0]:  # without any one of them, a tiling the checker passes holds the rest
        rest = reference.dominoes_completion(6, 6, [p for p in state[0] if p != pair])
        assert rest is not None and reference.dominoes_tile(6, 6, rest)
    for cell in (12, 18):  # a4-a3 taken off and placed again: now the last placed
        state = play.click(problem, state, cell, "pair")
    assert state[0][-1] == (12, 18)
    fault, _ = dead_end_of(play, problem, state)
    assert fault.message.startswith("no solution holds these pairs together: take off a4-a3, c6-d6, c3-d3 or one of")


def test_a_dead_end_that_no_one_pair_taken_off_mends_says_so() -> None:
    """On 6x6, c6-c5, b5-b4 and a4-a3 wall a6, b6 and a5 off in their corner, and d1-d2, e2-e3
    and f3-f4 wall f1, e1 and f2 off in theirs: three squares each, which no dominoes cover.
    Taking one pair off opens one corner, never both, so none is named: every pair is marked."""
    play = dominoes_play()
    problem, state = placed_pairs(play, 6, ["c6-c5", "b5-b4", "a4-a3", "d1-d2", "e2-e3", "f3-f4"])
    message = "no solution holds these pairs, even with any one of them taken off: take two or more off (undo)"
    every = tuple(c for pair in state[0] for c in pair)
    assert dead_end_of(play, problem, state) == (
        Fault(message, every, kind="aid"),
        Hint(message, (), outcome="dead end"),
    )
    for pair in state[0]:  # the independent search agrees; each alone is in a tiling the checker passes
        assert reference.dominoes_completion(6, 6, [p for p in state[0] if p != pair]) is None
        alone = reference.dominoes_completion(6, 6, [pair])
        assert alone is not None and reference.dominoes_tile(6, 6, alone)


def test_a_dead_end_whose_removals_run_out_of_time_claims_nothing_of_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the searches without one pair run past ``CHECK_SECONDS`` (shared with the searches
    of each pair alone), the dead end stops there and says only what was proved: each alone is
    held, not together."""
    from boardpuzzles.plays import pairs
    from boardpuzzles.puzzles import dominoes

    monkeypatch.setattr(pairs, "_KEPT", {})  # nothing answered from earlier searches

    def slow(problem: Any, placed: tuple[tuple[int, int], ...], limits: Limits) -> Iterator[Any]:
        while len(placed) == 4:  # the five placed but one: a search that runs until the clock stops it
            limits.check()
            time.sleep(0.01)
        yield from dominoes.solutions_holding(problem, placed, limits)

    play = pairs.pairs_play(get("dominoes"), slow)
    assert play is not None
    problem, state = placed_pairs(play, 4, ["b4-c4", "c1-d1", "c2-d2", "b3-b2", "a4-a3"])
    started = time.monotonic()
    fault, hint = dead_end_of(play, problem, state)
    assert time.monotonic() - started < 2 * (pairs.CHECK_SECONDS + 0.5)  # the check's search, then the hint's
    message = "no solution holds these pairs together, though each alone fits one: take one off (undo)"
    assert fault == Fault(message, (1, 2, 14, 15, 10, 11, 5, 9, 0, 4), kind="aid")
    assert hint == Hint(message, (), outcome="dead end")


def test_dominoes_are_solved_by_the_solution_clicks_even_from_a_picked_square() -> None:
    play = dominoes_play()
    for first in ((), (7,), (7, 8)):
        attempt = Attempt.new(play, 4, "", 0, clock=Clock())
        for cell in first:
            attempt.click(cell, "pair")
        for cell, tool in play.solution(attempt.problem, attempt.state, Limits()):  # type: ignore[misc]
            attempt.click(cell, tool)
        assert attempt.verdict().solved and attempt.verdict().faults == [], first


def test_the_generic_picture_says_what_is_left_to_place() -> None:
    play = kings_play()
    problem, state = play.new(4, "", 0)
    assert play.scene(problem, state).title == "0 kings; the problem asks for 4"
    state = play.click(problem, state, 0, "king")
    assert play.scene(problem, state).title == "1 king; the problem asks for 4"
    for cell in (2, 8, 10):
        state = play.click(problem, state, cell, "king")
    assert play.scene(problem, state).title == "every piece placed" and play.solved(problem, state)


def url_play() -> Play:  # type: ignore[type-arg]
    """Kings whose problems travel as URLs ``kings:N`` (a stand-in for a puzzle site's)."""
    import dataclasses

    play = kings_play()

    def read(url: str) -> object:
        if not url.startswith("kings:") or not url[6:].isdigit():
            raise BoardPuzzlesError(f"not a kings URL: {url!r}\nsecond line")
        return play.new(int(url[6:]), "", 0)[0]

    return dataclasses.replace(
        play,
        problem_to_url=lambda problem: f"kings:{problem.grid.rows}",
        problem_from_url=read,
        start=lambda problem: tuple("." * problem.grid.size),
    )


def test_a_problem_imported_from_a_url_is_played_and_survives_json() -> None:
    play = url_play()
    attempt = Attempt.from_url(play, " kings:5 ")
    assert attempt.imported and attempt.url == "kings:5" and attempt.state == tuple("." * 25)
    attempt.click(0, "king")
    again = Attempt.from_json(play, attempt.to_json())
    assert again.imported and again.url == "kings:5" and again.state == attempt.state and not again.seeded
    assert not Attempt.new(play, 6, "", 0).imported and "imported" not in Attempt.new(play, 6, "", 0).to_json()


@pytest.mark.parametrize(("url", "words"), [("kings:x", "not a kings URL"), ("", "non-empty"), (7, "non-empty")])
def test_a_bad_url_is_refused_on_one_line(url: object, words: str) -> None:
    with pytest.raises(BoardPuzzlesError, match=words) as err:
        Attempt.from_url(url_play(), url)  # type: ignore[arg-type]
    assert "\n" not in str(err.value)


def test_a_play_without_urls_imports_none_and_one_that_imports_needs_a_start() -> None:
    import dataclasses

    with pytest.raises(BoardPuzzlesError, match="imports no URLs"):
        Attempt.from_url(kings_play(), "kings:5")
    with pytest.raises(ValueError, match="start"):
        dataclasses.replace(url_play(), start=None)


def test_the_generic_rules_line_is_a_sentence_for_a_player() -> None:
    assert kings_play().rules.startswith("Place the kings on the board, no two on neighbouring squares")
    dominoes = play_of(get("dominoes"))  # type: ignore[arg-type]
    assert (
        dominoes is not None and dominoes.rules == "Cover the board with dominoes. Click a square, then one beside it."
    )


# ---------------------------------------------------------------- the engine's rules for every play
def test_a_click_that_changes_nothing_is_no_move() -> None:
    attempt = Attempt.new(kings_play(), 4, "", 0, clock=Clock())
    attempt.click(0, "erase")  # nothing to erase
    assert attempt.at == 0 and not attempt.can_undo


def test_the_verdict_shows_wrong_faults_and_the_aids_only_when_asked() -> None:
    faults = [Fault("w"), Fault("u", kind="unfinished"), Fault("a", kind="aid")]
    verdict = Verdict(faults, False, 0.0)
    assert verdict.shown(False) == faults[:1] and verdict.shown(True) == [faults[0], faults[2]]


def test_screen_readers_hear_words_not_letters() -> None:
    attempt = Attempt.new(kings_play(), 4, "", 0, clock=Clock())
    attempt.click(5, "king")
    words = attempt.describe_cells()
    assert words[5] == "king" and words[0] == "empty" and len(words) == 16


# ---------------------------------------------------------------- answers that are orders of cells
def order_record() -> Puzzle[Any, Order]:
    """Number the squares of a board in any order: every order is an answer (a record of the
    ORDER answer type, and nothing else)."""

    @dataclasses.dataclass(frozen=True)
    class Problem:
        rows: int
        cols: int

        @property
        def grid(self) -> Grid:
            return Grid(self.rows, self.cols)

    def violations(problem: Problem, answer: Order) -> list[Fault]:
        left = tuple(c for c in problem.grid.cells() if c not in answer.cells)
        return [unfinished(f"{len(left)} squares left", left)] if left else []

    def solutions(problem: Problem, limits: Limits) -> Iterator[Order]:
        for cells in itertools.permutations(problem.grid.cells()):
            yield Order(problem.grid, cells)

    return Puzzle(
        name="numbering",
        title="number the squares",
        description="Number the squares.",
        params=(Param("size", "size", "the board", positional=True),),
        problem=lambda size: Problem(*size),
        solutions=solutions,
        violations=violations,
        answer_type=ORDER,
        read_answer=ORDER.reader(lambda values, grid: Problem(grid.rows, grid.cols)),
        small="2",
    )


def test_a_record_of_orders_gets_the_default_play_of_orders() -> None:
    play = play_of(order_record())
    assert play is not None and [t.name for t in play.tools] == ["step", "erase"] and not play.drag
    attempt = Attempt.new(play, 2, "", 0, clock=Clock())
    for cell in (3, 0, 2):
        attempt.click(cell, "step")
    assert attempt.state == (3, 0, 2) and attempt.describe_cells()[3] == "number 1"
    attempt.click(0, "erase")
    assert attempt.state == (3,)
    assert play.hint(attempt.problem, attempt.state, Limits()).cells  # the next square of an answer
    attempt.reveal(Limits())
    assert attempt.verdict().solved and sorted(attempt.state) == [0, 1, 2, 3]


def test_a_record_names_a_factory_of_its_play_not_a_play() -> None:
    with pytest.raises(ValueError, match="factory"):
        dataclasses.replace(order_record(), play=kings_play())  # type: ignore[arg-type]
