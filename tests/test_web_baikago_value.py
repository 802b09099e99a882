"""The value of the position that the Baikago page shows on a solved board (the state's
``"value"``), against the plain minimax of ``tests/test_baikago_solve.py``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.web import baikago as web
from tests.test_baikago_solve import POSITIONS_4, board_of, minimax_value
from tests.test_web_baikago import new_game, request
from tests.threads import serve_in_background


def moves_of(picture: str, size: int) -> tuple[str, ...]:
    """A game that reaches ``picture``: black's and white's stones in turn, black first."""
    grid = bk.Rules(size).grid
    black = [grid.name(p) for p, ch in enumerate(picture) if ch == "X"]
    white = [grid.name(p) for p, ch in enumerate(picture) if ch == "O"]
    assert len(black) - len(white) in (0, 1)
    white += [""] * (len(black) - len(white))
    return tuple(name for pair in zip(black, white, strict=True) for name in pair if name)


@pytest.mark.parametrize("picture", POSITIONS_4)
def test_the_value_is_the_minimax_value(picture: str) -> None:
    expected = minimax_value(4, board_of(picture))
    value = web.position_value(bk.Rules(4), moves_of(picture, 4))
    assert value == ("draw" if expected == "draw" else f"{expected} wins")


def test_no_value_on_boards_not_solved_or_not_yet_searched() -> None:
    assert web.position_value(bk.Rules(8), ()) is None  # 8x8 is open
    assert web.position_value(bk.Rules(15, max_d=2), ()) is None  # other rules are not solved
    moves = ("a1", "b2", "c1")
    assert web.position_value(bk.Rules(5), moves, search=False) is None  # not searched: not known
    assert web.position_value(bk.Rules(5), moves) == "draw"  # 5x5 has a pairing of the empty board
    assert web.position_value(bk.Rules(5), moves, search=False) == "draw"  # known now


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    srv = web.make_server(0, bk.Rules(7), warm=False)
    serve_in_background(srv)
    yield srv.server_address[1]
    srv.shutdown()
    srv.server_close()


def test_the_value_is_an_aid_off_unless_asked_for(port: int) -> None:
    game = new_game(port, size=7)
    assert game["aids"] is False and game["value"] is None  # a spoiler: not told unasked
    status, _, state = request(port, "POST", "/api/aids", {"game": game["game"], "on": True})
    assert status == 200 and state["aids"] is True and state["value"] == "draw"
    state = request(port, "POST", "/api/aids", {"game": game["game"], "on": False})[2]
    assert state["aids"] is False and state["value"] is None
    for bad in ({"on": "yes"}, {}, {"on": 1}):
        assert request(port, "POST", "/api/aids", {"game": game["game"], **bad})[0] == 400
    assert request(port, "POST", "/api/new", {"aids": "on"})[0] == 400


def test_the_state_says_the_value_on_a_solved_board(port: int) -> None:
    game = new_game(port, size=7, aids=True)  # the value is an aid: shown once asked for
    assert game["value"] == "draw"  # 7x7 is a draw (records/baikago-7.json.gz)
    # the centre: white's answer is in the 7x7 proof, and so is black's defence after it
    state = request(port, "POST", "/api/move", {"game": game["game"], "point": "d4", "ply": 0})[2]
    assert state["moves"] == ["d4"] and state["value"] in (None, "draw")  # the move's answer searches nothing
    state = request(port, "GET", f"/api/state?game={game['game']}")[2]
    assert state["value"] == "draw"
    assert new_game(port, size=9, aids=True)["value"] == "black wins"  # records/baikago-9.json.gz
    assert new_game(port, size=19, aids=True)["value"] is None  # 19x19 is not solved
    assert new_game(port, size=15, aids=True)["value"] == "black wins"  # records/baikago-15.json.gz
