"""Baikago's undo and redo over real sockets: redo plays the moves undone again up to the human's
next turn, a new move clears them, a change the store cannot take leaves them as they were; and a
refusal by the rules asked for as data (``"refusal": "state"``) is 200 with ``"refused"`` and the
state unchanged, while the default stays an error status."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.web import baikago as web
from boardpuzzles.web.store import StoreFailed
from tests.test_web_baikago import new_game, request
from tests.threads import serve_in_background

AS_STATE = {"refusal": "state"}


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    # 8x8: not solved, so no answer waits on a search for the position's value; the computer is
    # compiled first, so that a reply comes within the test's timeout
    srv = web.make_server(0, bk.Rules(8))
    serve_in_background(srv)
    yield srv.server_address[1]
    srv.shutdown()
    srv.server_close()


def post(port: int, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    status, _, document = request(port, "POST", path, body)
    return status, document


def played(port: int, game: str, *points: str) -> dict[str, Any]:
    """The state after the human's ``points``, each answered by the computer."""
    state: dict[str, Any] = {}
    for point in points:
        assert post(port, "/api/move", {"game": game, "point": point})[0] == 200
        status, state = post(port, "/api/reply", {"game": game})
        assert status == 200, state
    return state


def test_redo_plays_the_human_move_and_the_reply_again_and_a_new_move_clears_it(port: int) -> None:
    game = new_game(port, seed=3)
    assert not game["can_undo"] and not game["can_redo"]
    line = played(port, game["game"], "d4", "c3")["moves"]
    status, state = post(port, "/api/undo", {"game": game["game"]})
    assert status == 200 and state["moves"] == line[:2] and state["can_undo"] and state["can_redo"]
    state = post(port, "/api/undo", {"game": game["game"]})[1]
    assert state["moves"] == [] and not state["can_undo"] and state["can_redo"]
    status, state = post(port, "/api/redo", {"game": game["game"]})
    assert status == 200 and state["moves"] == line[:2] and state["can_redo"]  # to the human's next turn
    state = post(port, "/api/redo", {"game": game["game"]})[1]
    assert state["moves"] == line and not state["can_redo"] and state["turn"] == "black"
    post(port, "/api/undo", {"game": game["game"]})
    state = played(port, game["game"], "a1")  # a new move: what could be redone is gone
    assert state["moves"][:3] == [*line[:2], "a1"] and not state["can_redo"]
    status, answer = post(port, "/api/redo", {"game": game["game"]})
    assert status == 400 and "nothing to redo" in answer["error"]


def test_redo_after_a_move_the_computer_had_not_answered_leaves_it_its_turn(port: int) -> None:
    game = new_game(port, human="white", seed=5)["game"]
    opening = post(port, "/api/reply", {"game": game})[1]["moves"]
    assert post(port, "/api/move", {"game": game, "point": "a1"})[1]["turn"] == "black"
    assert post(port, "/api/undo", {"game": game})[1]["moves"] == opening  # the computer's opening stays
    state = post(port, "/api/redo", {"game": game})[1]
    assert state["moves"] == [*opening, "a1"] and state["turn"] == "black" and not state["can_redo"]
    assert len(post(port, "/api/reply", {"game": game})[1]["moves"]) == 3


def test_a_refusal_asked_for_as_state_is_200_with_the_reason_and_the_state_unchanged(port: int) -> None:
    game = new_game(port, seed=4)["game"]
    before = played(port, game, "d4")
    taken = before["moves"][1]  # the computer's stone
    for path, body, reason in (
        ("/api/redo", {"game": game}, "nothing to redo"),
        ("/api/move", {"game": game, "point": taken}, "already taken"),
        ("/api/move", {"game": game, "point": "z9"}, "z9"),
        ("/api/move", {"game": game, "point": "a1" * 5}, "not a point"),
    ):
        status, document = post(port, path, {**body, **AS_STATE})
        assert status == 200 and reason in document["refused"], document
        # the same state but the time played, which goes on while the game does
        assert {k: v for k, v in document.items() if k not in ("refused", "seconds")} == {
            k: v for k, v in before.items() if k != "seconds"
        }
        status, document = post(port, path, body)  # the default: an error status, as before
        assert status == 400 and reason in document["error"]
    # Only the rules' refusals change: a malformed request, a position left, an unknown game do not.
    assert post(port, "/api/move", {"game": game, "point": 5, **AS_STATE})[0] == 400
    status, document = post(port, "/api/move", {"game": game, "point": "a1", "ply": 0, **AS_STATE})
    assert status == 200 and document["moved_on"] and "moves" in document["refused"]  # the game as it stands
    assert post(port, "/api/move", {"game": game, "point": "a1", "ply": 0})[0] == 409  # the default
    assert post(port, "/api/redo", {"game": "0123abcd", **AS_STATE})[0] == 404
    status, document = post(port, "/api/undo", {"game": game, **AS_STATE})
    assert status == 200 and "refused" not in document and document["moves"] == []
    for bad in ("State", 1, ["state"]):
        status, document = post(port, "/api/redo", {"game": game, "refusal": bad})
        assert status == 400 and '"state"' in document["error"]
    assert post(port, "/api/move", {"game": game, "point": "a1", "refusal": "yes"})[0] == 400


def test_an_undo_or_redo_for_a_position_the_game_has_left_is_refused_with_the_game_as_it_stands(port: int) -> None:
    """With the number of moves the page saw (``ply``), an undo or a redo from a tab the game moved
    on from takes nothing back and plays nothing: 409 by default, as a move's; asked for as data,
    200 with the game as it stands and ``"moved_on"``. Without ``ply`` they act as before."""
    game = new_game(port, seed=6)["game"]
    line = played(port, game, "d4", "c3")["moves"]  # four moves; a page that saw two is behind
    for path in ("/api/undo", "/api/redo"):
        status, document = post(port, path, {"game": game, "ply": 2})
        assert status == 409 and "4 moves, not 2" in document["error"]
        status, document = post(port, path, {"game": game, "ply": 2, **AS_STATE})
        assert status == 200 and document["moved_on"] and document["moves"] == line, document
        assert "4 moves, not 2" in document["refused"] and not document["can_redo"]
    status, state = post(port, "/api/undo", {"game": game, "ply": 4, **AS_STATE})
    assert status == 200 and state["moves"] == line[:2] and "refused" not in state and "moved_on" not in state
    status, document = post(port, "/api/redo", {"game": game, "ply": 4, **AS_STATE})  # undone elsewhere
    assert status == 200 and document["moved_on"] and document["moves"] == line[:2] and document["can_redo"]
    status, state = post(port, "/api/redo", {"game": game, "ply": 2, **AS_STATE})
    assert status == 200 and state["moves"] == line and "moved_on" not in state
    status, state = post(port, "/api/undo", {"game": game})  # no ply: the game as the server has it
    assert status == 200 and state["moves"] == line[:2]
    for ply in ("2", 2.0, False):
        assert post(port, "/api/undo", {"game": game, "ply": ply})[0] == 400


def test_the_history_token_sees_another_tab_undo_play_and_undo_again_where_the_ply_cannot(port: int) -> None:
    """Tab B undoes, plays elsewhere and undoes again: the game has as many moves as tab A shows,
    other ones, and other moves to redo. A's redo with the number of moves alone would play B's
    moves, which A never showed; with the state's ``history`` token it is refused as moved on,
    and so is A's move. The token changes with every move, undo and redo, not with the aids."""
    game = new_game(port, seed=7)["game"]
    tab_a = played(port, game, "d4", "c3")
    post(port, "/api/undo", {"game": game})
    tab_a = request(port, "GET", f"/api/state?game={game}")[2]
    assert tab_a["can_redo"] and len(tab_a["moves"]) == 2
    played(port, game, "a1")  # tab B
    tab_b = post(port, "/api/undo", {"game": game})[1]
    assert len(tab_b["moves"]) == len(tab_a["moves"]) and tab_b["can_redo"]
    assert tab_b["moves"] == tab_a["moves"] and tab_b["history"] != tab_a["history"]  # a1 to redo, not c3
    seen = {"game": game, "ply": len(tab_a["moves"]), "history": tab_a["history"]}
    for path, body in (("/api/redo", seen), ("/api/move", {**seen, "point": "h8"})):
        status, document = post(port, path, body)
        assert status == 409 and "changed elsewhere" in document["error"]
        status, document = post(port, path, {**body, **AS_STATE})
        assert status == 200 and document["moved_on"], document
        assert (document["moves"], document["history"]) == (tab_b["moves"], tab_b["history"])  # untouched
    status, state = post(port, "/api/redo", {**seen, "history": tab_b["history"]})  # what B shows
    assert status == 200 and state["moves"][2] == "a1" and state["history"] not in (tab_a["history"], tab_b["history"])
    aided = post(port, "/api/aids", {"game": game, "on": True})[1]
    assert aided["history"] == state["history"]
    for bad in (5, ["x"], True):
        assert post(port, "/api/undo", {"game": game, "history": bad})[0] == 400


def full_store(statement: Any) -> None:
    raise StoreFailed("the disk is full")


def test_an_undo_or_redo_the_store_cannot_take_leaves_the_game_and_its_redo_as_they_were() -> None:
    game = web.WebGame(bk.Rules(7), bk.BLACK, 1)
    for name in ("d4", "c3", "e5", "b2"):
        game.position.make_named(name)
    game.undo()
    assert [game.position.grid.name(m) for m in game.undone] == ["e5", "b2"]
    game.save = full_store
    for change in (game.undo, game.redo):
        with pytest.raises(StoreFailed):
            change()
        assert game.state()["moves"] == ["d4", "c3"] and game.record().undone == ["e5", "b2"]
    with pytest.raises(StoreFailed):
        game.move("a1")
    assert game.state()["moves"] == ["d4", "c3"] and game.record().undone == ["e5", "b2"]


def test_a_record_with_undone_moves_replays_them_only_where_they_follow() -> None:
    game = web.WebGame(bk.Rules(7), bk.BLACK, 1)
    for name in ("d4", "c3"):
        game.position.make_named(name)
    game.undo()
    record = game.record()
    assert record.undone == ["d4", "c3"] and '"undone": ["d4", "c3"]' in record.row()[1][1]
    again = web.WebGame.from_record(record, bk.Rules(7))
    assert again.state()["can_redo"] and again.record() == record
    for broken in (["d4", "d4"], ["q9"], "d4", [4]):
        record.undone = broken  # type: ignore[assignment]
        with pytest.raises(BoardPuzzlesError):
            web.WebGame.from_record(record, bk.Rules(7))
