"""``baikago serve`` keeps every game: a hundred open games all read back, a restart loses none,
and past ``max_games`` a new game takes the place of a finished or left game first, else of
the one untouched longest (a client that holds its share, of its own)."""

import json
import sqlite3
from contextlib import contextmanager

import pytest

from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.web import baikago as web
from boardpuzzles.web.store import GameStore, StoreError
from tests.test_web_baikago import new_game, request
from tests.threads import serve_in_background


@contextmanager
def serving(path, size=7, **options):
    """A running server on ``path`` (its computer compiled on first use)."""
    srv = web.make_server(0, bk.Rules(size), games=path, warm=False, **options)
    thread = serve_in_background(srv)
    try:
        yield srv.server_address[1]
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(10)


def play(port, game, point):
    status, _, state = request(port, "POST", "/api/move", {"game": game, "point": point})
    assert status == 200, state
    status, _, state = request(port, "POST", "/api/reply", {"game": game})
    assert status == 200, state
    return state


def test_a_hundred_open_games_are_all_kept_and_survive_a_restart(tmp_path):
    path = tmp_path / "games.sqlite"
    with serving(path) as port:
        games = {}
        for i in range(100):
            game = new_game(port, seed=i)["game"]
            games[game] = play(port, game, ["d4", "c3", "e5", "b2"][i % 4])["moves"]
        for game, moves in games.items():  # the 32-game server of old kept 32 of these
            status, _, state = request(port, "GET", f"/api/state?game={game}")
            assert status == 200 and state["moves"] == moves
    with serving(path) as port:  # a new server on the same file
        for game, moves in games.items():
            status, _, state = request(port, "GET", f"/api/state?game={game}")
            assert status == 200 and state["moves"] == moves and state["strength"] == 1
        game = next(iter(games))
        assert len(play(port, game, "a1")["moves"]) == 4  # and play goes on


def test_past_the_bound_a_left_game_makes_room_first_then_the_least_recently_used(tmp_path):
    with serving(tmp_path / "games.sqlite", max_games=8) as port:  # 2 games a client
        games = [new_game(port)["game"] for _ in range(2)]
        # A page that starts another game leaves its own: that one makes room, though used last.
        assert request(port, "GET", f"/api/state?game={games[1]}")[0] == 200
        status, _, fresh = request(port, "POST", "/api/new", {"strength": 1, "replaces": games[1]})
        assert status == 200
        assert request(port, "GET", f"/api/state?game={games[1]}")[0] == 404
        assert request(port, "GET", f"/api/state?game={games[0]}")[0] == 200
        assert request(port, "POST", "/api/new", {"strength": 1})[0] == 200  # never refused
        assert request(port, "GET", f"/api/state?game={fresh['game']}")[0] == 404  # used least recently
        assert request(port, "GET", f"/api/state?game={games[0]}")[0] == 200
        assert request(port, "POST", "/api/new", {"strength": 1, "replaces": 5})[0] == 400


def test_a_finished_game_makes_room_first(tmp_path):
    with serving(tmp_path / "games.sqlite", size=3, max_games=8) as port:  # 2 games a client
        game = new_game(port)["game"]
        state = request(port, "GET", f"/api/state?game={game}")[2]
        while not state["over"]:  # on 3x3 a game ends within a few moves (a draw at the latest)
            state = play(port, game, next(n for n in state["names"] if n not in state["moves"]))
        other = new_game(port)["game"]
        assert request(port, "GET", f"/api/state?game={game}")[0] == 200  # the finished one, used last
        assert request(port, "POST", "/api/new", {"strength": 1})[0] == 200
        assert request(port, "GET", f"/api/state?game={game}")[0] == 404
        assert request(port, "GET", f"/api/state?game={other}")[0] == 200


def test_a_second_server_on_the_same_file_is_refused_and_other_files_are_left_alone(tmp_path):
    path = tmp_path / "games.sqlite"
    with serving(path):
        with pytest.raises(StoreError, match="in use"):
            web.make_server(0, bk.Rules(7), games=path, warm=False)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(StoreError, match="another program"):
        GameStore(other)
    text = tmp_path / "text"
    text.write_text("hello\n")
    with pytest.raises(StoreError):
        GameStore(text)
    assert text.read_text() == "hello\n"


def test_the_cli_refuses_a_game_file_it_cannot_use_in_one_line(tmp_path, capsys):
    from boardpuzzles.cli import main

    text = tmp_path / "text"
    text.write_text("hello\n")
    with pytest.raises(SystemExit) as stop:
        main(["baikago", "serve", "--port", "0", "--games", str(text)])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "not a game file" in err and len(err.strip().splitlines()) == 1


def test_a_stored_game_that_no_longer_replays_is_dropped(tmp_path, capfd):
    path = tmp_path / "games.sqlite"
    with serving(path) as port:
        game = new_game(port)["game"]
        play(port, game, "d4")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET moves = ?", (json.dumps(["d4", "d4"]),))
    db.close()
    capfd.readouterr()
    with serving(path) as port:
        assert request(port, "GET", f"/api/state?game={game}")[0] == 404
    assert "dropped" in capfd.readouterr().err


def test_what_redo_would_play_survives_a_restart_and_a_game_stored_before_redo_still_loads(tmp_path):
    path = tmp_path / "games.sqlite"
    with serving(path, size=8) as port:  # 8x8: no answer waits on the position's value
        game = new_game(port)["game"]
        line = play(port, game, "d4")["moves"]
        old = new_game(port)["game"]
        play(port, old, "e5")
        assert request(port, "POST", "/api/undo", {"game": game})[2]["can_redo"]
    with sqlite3.connect(path) as db:  # the other game as a server from before redo stored it
        (rules,) = db.execute("SELECT rules FROM games WHERE id = ?", (old,)).fetchone()
        db.execute("UPDATE games SET rules = ? WHERE id = ?", (rules.replace(', "undone": []', ""), old))
        assert "undone" not in db.execute("SELECT rules FROM games WHERE id = ?", (old,)).fetchone()[0]
    db.close()
    with serving(path, size=8) as port:
        status, _, state = request(port, "GET", f"/api/state?game={game}")
        assert status == 200 and state["moves"] == [] and state["can_redo"]
        assert request(port, "POST", "/api/redo", {"game": game})[2]["moves"] == line
        status, _, state = request(port, "GET", f"/api/state?game={old}")
        assert status == 200 and len(state["moves"]) == 2 and not state["can_redo"]


def test_the_aids_survive_a_restart_and_a_game_stored_before_them_loads_with_them_off(tmp_path):
    path = tmp_path / "games.sqlite"
    with serving(path, size=8) as port:  # 8x8: no answer waits on the position's value
        game = new_game(port)["game"]
        assert request(port, "POST", "/api/aids", {"game": game, "on": True})[2]["aids"]
        old = new_game(port)["game"]
    with sqlite3.connect(path) as db:  # the other game as a server from before the aids stored it
        db.execute("UPDATE games SET rules = ? WHERE id = ?", ('{"size": 8, "max_d": null, "orientations": "+x"}', old))
    db.close()
    with serving(path, size=8) as port:
        assert request(port, "GET", f"/api/state?game={game}")[2]["aids"] is True
        status, _, state = request(port, "GET", f"/api/state?game={old}")
        assert status == 200 and state["aids"] is False and state["value"] is None
