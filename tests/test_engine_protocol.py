"""The Gomocup brain (``puzzles/baikago/protocol.py``) fed bad and out-of-place lines: each gets
one ``ERROR ...`` line (never an exception, never a move on a position the manager did not mean),
and the brain still plays afterwards."""

import io

import pytest

from boardpuzzles.puzzles.baikago import protocol
from boardpuzzles.puzzles.baikago.protocol import Brain


def talk(*lines, brain=None):
    """Feed lines; the answers of each, in order."""
    brain = brain or Brain(strength=1)
    return [brain.handle(line) for line in lines]


def is_move(answers, size=7):
    (answer,) = answers
    x, y = map(int, answer.split(","))
    return 0 <= x < size and 0 <= y < size


def errors(answers):
    return len(answers) == 1 and answers[0].startswith("ERROR ")


def test_a_point_twice_in_one_board_block_is_an_error_and_no_move_follows():
    brain = Brain(strength=1)
    answers = talk("START 7", "BOARD", "1,1,1", "1,1,2", "DONE", brain=brain)
    assert answers[2] == []
    assert errors(answers[3]) and "1,1" in answers[3][0] and "twice" in answers[3][0]
    assert errors(answers[4])  # no move for a board the manager did not mean
    # A good block afterwards is read as usual.
    assert is_move(talk("BOARD", "1,1,1", "2,2,2", "DONE", brain=brain)[-1])


@pytest.mark.parametrize("first", [["BEGIN"], ["TURN 1,1"], ["BOARD", "3,3,2", "DONE"]])
def test_a_second_begin_on_a_board_with_stones_is_an_error(first):
    brain = Brain(strength=1)
    talk("START 7", *first, brain=brain)
    stones = list(brain.board)
    assert errors(brain.handle("BEGIN"))
    assert brain.board == stones  # nothing played
    assert talk("RESTART", "BEGIN", brain=brain) == [["OK"], ["3,3"]]  # after RESTART it opens again


@pytest.mark.parametrize(
    "line",
    [
        "START 0",
        "START 2",
        "START -5",
        "START 53",
        "START 99999999999999999999999999999999",
        "START " + "9" * 5000,  # int() itself refuses this many digits
        "START 1e400",
        "START seven",
        "START",
        "RECTSTART 7",
        "RECTSTART 7,9",
        "RECTSTART 0,0",
        "RECTSTART 99999999999999999999,99999999999999999999",
    ],
)
def test_bad_sizes_are_errors(line):
    brain = Brain(strength=1)
    assert errors(brain.handle(line))
    assert errors(brain.handle("BEGIN"))  # still no game
    assert brain.handle("START 7") == ["OK"]


@pytest.mark.parametrize("command", ["BEGIN", "TURN 1,1", "BOARD", "TAKEBACK 1,1", "RESTART"])
def test_commands_before_start_are_errors(command):
    assert errors(Brain(strength=1).handle(command))


@pytest.mark.parametrize(
    "argument",
    ["", "1", "1,1,1", "7,0", "0,7", "-1,0", "-0,0", "99999999999999999999,1", "1.5,1", "١,١", "1_0,1", "a,b"],
)
def test_bad_turns_are_errors_and_the_game_goes_on(argument):
    brain = Brain(strength=1)
    talk("START 7", brain=brain)
    assert errors(brain.handle(f"TURN {argument}"))
    assert not any(brain.board)
    assert is_move(brain.handle("TURN 3,3"))


def test_a_turn_on_a_taken_point_is_an_error():
    brain = Brain(strength=1)
    talk("START 7", brain=brain)
    reply = brain.handle("TURN 3,3")[0]
    for taken in ("3,3", reply):
        answer = brain.handle(f"TURN {taken}")
        assert errors(answer) and "taken" in answer[0]
    assert sum(1 for p in brain.board if p) == 2


@pytest.mark.parametrize("line", ["1,1", "1,1,0", "1,1,4", "7,1,1", "a,b,c", "1,1,1,1", "ABOUT", "START 9"])
def test_a_bad_board_line_spoils_the_block(line):
    brain = Brain(strength=1)
    answers = talk("START 7", "BOARD", "3,3,1", line, "DONE", brain=brain)
    assert errors(answers[3]) and errors(answers[4])
    assert not brain.in_board


def test_no_move_once_a_cross_has_won():
    brain = Brain(strength=1)
    # The opponent's + cross around (3,3) is complete: the game is over.
    board = ["3,3,2", "2,3,2", "4,3,2", "3,2,2", "3,4,2", "0,0,1", "6,6,1", "0,6,1", "6,0,1"]
    answers = talk("START 7", "BOARD", *board, "DONE", brain=brain)
    assert errors(answers[-1]) and "over" in answers[-1][0]
    assert errors(brain.handle("TURN 1,1"))
    # The opponent completing a cross with TURN: no reply move either.
    brain = Brain(strength=1)
    talk(
        "START 7", "BOARD", "3,3,2", "2,3,2", "4,3,2", "3,2,2", "0,0,1", "6,6,1", "0,6,1", "6,1,1", "DONE", brain=brain
    )
    assert errors(brain.handle("TURN 3,4"))


@pytest.mark.parametrize(
    "line", ["INFO timeout_turn 99999999999999999999999999999", "INFO timeout_turn 1e9", "INFO time_left -5", "INFO"]
)
def test_odd_info_lines_are_ignored(line):
    brain = Brain(strength=1)
    assert talk("START 7", line, "BEGIN", brain=brain) == [["OK"], [], ["3,3"]]
    assert 0.05 <= brain.seconds


def test_serve_answers_an_internal_failure_with_error_and_goes_on(monkeypatch):
    brain = Brain(strength=1)

    def broken(rest):
        raise RuntimeError("boom")

    monkeypatch.setattr(brain, "_on_about", broken)
    out = io.StringIO()
    protocol.serve(["START 7\n", "ABOUT\n", "BEGIN\n", "END\n", "BEGIN\n"], lambda s: out.write(s + "\n"), brain)
    assert out.getvalue().splitlines() == ["OK", "ERROR internal error on 'ABOUT': RuntimeError: boom", "3,3"]
