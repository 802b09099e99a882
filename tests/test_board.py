"""Text pictures: the three spellings we read, what we write, and clear errors."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardpuzzles.board import Board, parse_board
from boardpuzzles.errors import ParseError
from boardpuzzles.grid import Grid


@st.composite
def boards(draw):
    rows, cols = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    cells = draw(st.lists(st.sampled_from(".QXO"), min_size=rows * cols, max_size=rows * cols))
    return Board(Grid(rows, cols), cells)


@given(boards(), st.booleans())
def test_format_then_parse_gives_the_board_back(board, spaced):
    text = board.to_text(spaced=spaced)
    assert parse_board(text, spaced=spaced) == board


@given(boards())
def test_quoted_rows_round_trip(board):
    quoted = "\n".join(f'"{row.replace(".", " ")}"' for row in board.rows())
    assert parse_board(quoted) == board


def test_spaced_rows_are_detected():
    board = parse_board("Q . .\n. . Q\n. Q .\n")
    assert board.rows() == ["Q..", "..Q", ".Q."]


def test_seed_style_quoted_rows_keep_spaces_as_cells():
    # The Goishi Hiroi seed's input format: quotes make the row width visible.
    board = parse_board('"  O  O  "\n"O      O"\n')
    assert board.grid.cols == 8
    assert board.rows() == ["..O..O..", "O......O"]


def test_blank_edges_and_crlf_and_short_rows_are_tolerated():
    board = parse_board("\n\nQ..\r\n.Q\r\n\n")
    assert board.rows() == ["Q..", ".Q."]


def test_short_rows_can_be_refused():
    with pytest.raises(ParseError, match="line 2"):
        parse_board("Q..\n.Q\n", pad=False)


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("", "empty"),
        ("\n  \n", "empty"),
        ("Q.1\n", "line 1, column 3"),
        ("..\n.#\n", "line 2, column 2"),
        ('"ab"\n"cd\n', "line 2"),
    ],
)
def test_bad_pictures_name_the_place(text, fragment):
    with pytest.raises(ParseError, match=fragment):
        parse_board(text)


def test_pieces_can_be_limited():
    with pytest.raises(ParseError, match="'Q'"):
        parse_board("XO\nQ.\n", pieces="XO")


def test_board_indexing_and_queries():
    board = Board.with_pieces(Grid(3, 3), {0: "Q", 4: "X"})
    assert board[0] == "Q" and board[1, 1] == "X" and board[2, 2] == "."
    assert board.occupied() == [0, 4]
    assert board.cells_with("X") == [4]
    copy = board.copy()
    copy[8] = "O"
    assert board[8] == "." and copy != board
