"""Knight's-tour input that must never pass as a tour: numbered boards whose numbers are not 1, 2,
3, ... each once (sorting them would read them as a tour), the closed "tour" of a single square,
and the no-tour messages, which name the board as the user gave it."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardpuzzles.errors import ParseError
from boardpuzzles.puzzles import knights_tour as kt
from tests.test_knights_tour import run

#: The tour that ``knights-tour solve 5 --start a1 --limit 1`` prints (a1 is bottom left).
TOUR_5X5 = """\
 3 16  7 22  5
 8 21  4 17 12
15  2 11  6 23
20  9 24 13 18
 1 14 19 10 25
"""


def with_number(board, old, new):
    """The board with the number ``old`` (as a whole word) written as ``new``."""
    rows = [[new if word == old else word for word in line.split()] for line in board.splitlines()]
    return "\n".join(" ".join(row) for row in rows) + "\n"


def test_the_seed_tour_reads_as_a_tour():
    tour = kt.parse_tour(TOUR_5X5, 5, 5)
    assert kt.check(5, 5, tour) and tour[0] == kt.board(5, 5).cell_named("a1")
    assert kt.parse_tour(with_number(TOUR_5X5, "25", "0025"), 5, 5) == tour  # leading zeros are fine


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("25", "99", "line 5: e1 holds move number 99, but the moves of a 5x5 tour are numbered 1 to 25"),
        ("1", "70", "line 5: a1 holds move number 70, but the moves of a 5x5 tour are numbered 1 to 25"),
        ("25", "26", "line 5: e1 holds move number 26"),
        ("25", "0", "line 5: e1 holds move number 0"),
        ("25", "000", "line 5: e1 holds move number 0"),
        ("25", "9" * 40, "line 5: e1 holds move number '9999"),
        ("25", "24", "line 5: move number 24 appears twice, on c2 and on e1"),
        ("3", "16", "line 1: move number 16 appears twice, on a5 and on b5"),
        ("25", "-25", "line 5: '-25' is not a move number: the moves of a 5x5 tour are numbered 1 to 25"),
        ("3", "-3", "line 1: '-3' is not a move number: the moves of a 5x5 tour are numbered 1 to 25"),
        ("3", "+3", "line 1: '+3' is not a move number"),
        ("24", ".", "move number 24 is missing"),  # 25 follows a gap: the knight skipped a move
        ("1", ".", "move number 1 is missing"),
    ],
)
def test_a_wrongly_numbered_board_is_refused_naming_the_square_or_number(old, new, message):
    with pytest.raises(ParseError) as err:
        kt.parse_tour(with_number(TOUR_5X5, old, new), 5, 5)
    assert message in str(err.value) and "\n" not in str(err.value)


@settings(max_examples=60, deadline=None)
@given(cell=st.integers(0, 24), number=st.integers(0, 60))
def test_changing_any_one_number_of_a_tour_never_reads_as_a_tour(cell, number):
    # One changed number repeats another or leaves 1..25: the board must be refused, never
    # sorted into a "tour". (A '.' instead leaves a partial tour, which the checker refuses.)
    words = TOUR_5X5.split()
    if int(words[cell]) == number:
        return
    words[cell] = str(number)
    board = "\n".join(" ".join(words[r * 5 : r * 5 + 5]) for r in range(5))
    with pytest.raises(ParseError):
        kt.parse_tour(board, 5, 5)


def test_a_partial_tour_with_dots_is_read_and_is_not_a_solution():
    tour = kt.parse_tour(with_number(TOUR_5X5, "25", "."), 5, 5)
    assert len(tour) == 24
    (left,) = kt.tour_violations(5, 5, tour)
    assert (left.message, left.kind, left.cells) == ("1 square never visited: e1", "unfinished", (24,))


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("25", "99", "e1 holds move number 99"),
        ("1", "70", "a1 holds move number 70"),
        ("25", "24", "move number 24 appears twice"),
        ("25", "0", "e1 holds move number 0"),
        ("25", "-25", "'-25' is not a move number"),
    ],
)
def test_check_refuses_a_wrongly_numbered_board_as_unreadable(capsys, tmp_path, old, new, message):
    # As every numbered board of the project (goishi's pick-up numbers too): exit 2, one line.
    path = tmp_path / "tour.txt"
    path.write_text(with_number(TOUR_5X5, old, new))
    code, out, err = run(capsys, "knights-tour", "check", "5", str(path))
    assert code == 2 and out == "" and "a solution" not in out
    assert err.startswith("boardpuzzles: error: ") and message in err and err.count("\n") == 1


def test_check_accepts_the_tour_as_solve_prints_it(capsys, tmp_path):
    code, out, _ = run(capsys, "knights-tour", "solve", "5", "--start", "a1", "--limit", "1")
    assert code == 0 and out == TOUR_5X5  # the board the tests above change
    path = tmp_path / "tour.txt"
    path.write_text(out)
    code, out, _ = run(capsys, "knights-tour", "check", "5", str(path))
    assert code == 0 and out.startswith("a solution: ")


# ------------------------------------------------------------------ a single square
def test_a_single_square_has_an_open_tour_and_no_closed_one():
    assert kt.tour_violations(1, 1, [0]) == []
    problems = kt.tour_violations(1, 1, [0], closed=True)
    assert problems and "single square has no closed tour" in problems[0].message
    closed = kt.Problem(1, 1, closed=True)
    assert kt.violations(closed, (0,)) and kt.count(closed) == 0 and list(kt.solutions(closed)) == []
    assert kt.find(1, 1, closed=True).tour is None


def test_check_agrees_with_the_solver_on_1x1(capsys, tmp_path):
    path = tmp_path / "tour.txt"
    path.write_text("1\n")
    code, out, _ = run(capsys, "knights-tour", "check", "1", str(path), "--closed")
    assert code == 1 and out.startswith("not a solution: ") and "single square has no closed tour" in out
    assert run(capsys, "knights-tour", "check", "1", str(path))[0] == 0  # as an open tour it is one
    code, out, err = run(capsys, "knights-tour", "count", "1", "--closed")
    assert code == 0 and out.strip() == "0" and "single square has no closed tour" in err
    assert run(capsys, "knights-tour", "find", "1", "--closed")[0] == 1


# ------------------------------------------------------------------ the size as given
@pytest.mark.parametrize(
    ("rows", "cols"), [(4, 3), (3, 4), (8, 3), (6, 3), (9, 4), (10, 2), (2, 10), (7, 1), (4, 4), (5, 3), (2, 5), (5, 2)]
)
def test_no_tour_messages_name_the_board_as_given(capsys, rows, cols):
    for closed in (True, False):
        reason = kt.no_tour_reason(rows, cols, closed)
        if reason is None:
            continue
        assert f"{rows}x{cols}" in reason
        if rows != cols:
            assert f"{cols}x{rows}" not in reason
        code, out, err = run(capsys, "knights-tour", "find", f"{rows}x{cols}", *(["--closed"] if closed else []))
        assert code == 1 and out == "" and err.strip() == reason


def test_find_4x3_closed_talks_about_4x3(capsys):
    code, _, err = run(capsys, "knights-tour", "find", "4x3", "--closed")
    assert code == 1 and "4x3" in err and "3x4" not in err and "Schwenk" in err
