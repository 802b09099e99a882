"""The Gomocup brain (``puzzles/baikago/protocol.py``) fed bad and out-of-place lines: each gets
one ``ERROR ...`` line (never an exception, never a move on a position the manager did not mean),
and the brain still plays afterwards."""

import io
import os

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


# -------------------------------------------------------------------- junk lines and the clock
class CountingStream(io.BytesIO):
    """A byte stream that remembers the largest piece it was asked for."""

    largest = 0

    def readline(self, size=-1):
        line = super().readline(size)
        self.largest = max(self.largest, len(line))
        return line


def test_an_over_long_line_is_skipped_in_bounded_pieces():
    junk = b"X" * (5 * 1024 * 1024)
    stream = CountingStream(b"START 7\n" + junk + b"\nABOUT\n" + junk + b"\n" + b"END\n")
    lines = list(protocol.read_lines(stream))
    assert lines == ["START 7\n", None, "ABOUT\n", None, "END\n"]
    assert stream.largest <= protocol.MAX_LINE
    # A long line with no end of line at all, and one exactly at the limit.
    assert list(protocol.read_lines(io.BytesIO(junk))) == [None]
    fits = b"A" * (protocol.MAX_LINE - 1) + b"\n"
    assert list(protocol.read_lines(io.BytesIO(fits))) == [fits.decode()]


def test_the_engine_answers_a_huge_line_in_one_short_line_and_stays_small(tmp_path):
    import subprocess
    import sys

    def run(*pieces: bytes) -> tuple[list[bytes], int, int]:
        """The engine's answers, exit status and peak memory (KiB) for these lines. The input
        goes through a file, so this process stays small (a child's peak counts the parent's
        memory it was forked from)."""
        path = tmp_path / "input"
        with path.open("wb") as file:
            file.write(b"START 7\n")
            for piece in pieces:
                file.write(piece)
            file.write(b"ABOUT\nEND\n")
        with path.open("rb") as stdin:
            proc = subprocess.Popen(
                [sys.executable, "-m", "boardpuzzles", "baikago", "engine", "--strength", "1"],
                stdin=stdin,
                stdout=subprocess.PIPE,
            )
            out = proc.stdout.read()
            proc.stdout.close()
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
        return out.splitlines(), proc.returncode, usage.ru_maxrss

    _, _, small = run()
    junk = [b"JUNK" * (256 * 1024)] * 20  # 20 MiB in one line
    lines, code, peak = run(*junk, b"\n", b"TURN ", *junk, b"\n")
    assert code == 0
    assert lines[0] == b"OK" and lines[1].startswith(b"ERROR line too long") and lines[2].startswith(b"ERROR line")
    assert lines[3].startswith(b'name="boardpuzzles-baikago"')
    assert all(len(line) < 300 for line in lines)
    assert peak < small + 20 * 1024, (small, peak)  # a 20 MiB line held whole takes several times that


def test_unknown_and_bad_lines_quote_only_a_few_dozen_characters():
    brain = Brain(strength=1)
    for line in ("Z" * 5000, "START " + "x" * 5000, "TURN " + "1" * 5000, "TAKEBACK " + "a" * 5000):
        (answer,) = brain.handle(line)
        assert answer.split()[0] in ("UNKNOWN", "ERROR") and len(answer) < 150
    brain.handle("START 7")
    brain.handle("BOARD")
    (answer,) = brain.handle("1," * 3000)
    assert errors([answer]) and len(answer) < 150
    assert brain.too_long() and errors(brain.handle("DONE"))  # still spoiled, and read to its end


@pytest.mark.parametrize("timeout_ms", [20, 50])
def test_moves_keep_to_timeout_turn(timeout_ms):
    """Each move's CPU time (its own thread: the search runs there) stays within timeout_turn,
    the first move after START included; CPU time, not the wall clock, so a loaded machine
    does not fail it."""
    import time

    brain = Brain(strength=4)
    assert talk("START 15", f"INFO timeout_turn {timeout_ms}", brain=brain) == [["OK"], []]
    spent = []
    for move in range(12):
        started = time.thread_time()
        answer = brain.handle("BEGIN" if move == 0 else f"TURN {free_point(brain)}")
        spent.append(time.thread_time() - started)
        if answer[0].startswith("ERROR"):
            assert "over" in answer[0]
            break
    assert max(spent) <= timeout_ms / 1000, spent


def free_point(brain) -> str:
    """An empty point near the middle (the opponent's move)."""
    n = brain.started_rules.size
    for r in range(n // 2, n // 2 + n):
        for c in range(n):
            if not brain.board[(r % n) * n + c]:
                return f"{c},{r % n}"
    raise AssertionError("the board is full")


def test_timeout_turn_zero_means_as_fast_as_possible_and_time_left_counts():
    brain = Brain(strength=3)
    talk("START 9", "INFO timeout_turn 0", brain=brain)
    assert brain.seconds <= 0.002
    talk("INFO timeout_turn 1000", "INFO time_left 2000", brain=brain)
    assert brain.seconds <= 2.0 * 0.05
    talk("INFO time_left 1000000", brain=brain)
    assert 0.2 < brain.seconds < 0.5
