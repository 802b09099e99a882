"""The web server when its game file fails it: a change the file cannot take is answered 503
with the reason and not played (a client that tries again plays it once); a file deleted under
the server is written again and said so, one replaced is refused with the reason; lines on stderr
come at once, under the command's own name; a full server never turns a visitor away; a file
that cannot be used says truly why."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from boardpuzzles.web.app import PlayServer, make_app
from boardpuzzles.web.store import GameStore, StoreError
from tests.threads import serve_in_background
from tests.timing import LOADED


@contextmanager
def serving(path: Path | str = ":memory:", **options: Any) -> Iterator[PlayServer]:
    server = make_app(0, games=path, warm=False, **options)
    thread = serve_in_background(server)
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def call(server: PlayServer, method: str, path: str, body: Any = None, client: str = "127.0.0.1") -> tuple[int, Any]:
    """One request from the loopback address ``client`` (Linux routes all of 127/8 to this computer)."""
    port = server.server_address[1]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(client, 0))
    headers = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json"}
    connection.request(method, path, None if body is None else json.dumps(body), headers)
    response = connection.getresponse()
    document = json.loads(response.read())
    connection.close()
    return response.status, document


def new_kings(server: PlayServer, client: str = "127.0.0.1") -> str:
    status, state = call(server, "POST", "/api/kings/new", {"size": 4, "seed": 1}, client)
    assert status == 200, state
    return str(state["game"])


def click(server: PlayServer, game: str, cell: int) -> tuple[int, Any]:
    return call(server, "POST", f"/api/games/{game}/click", {"cell": cell, "tool": "king"})


class FullDisk:
    """A store's SQLite connection on a disk that is full: every write fails as SQLite's does."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, parameters: Any = ()) -> Any:
        if not sql.lstrip().upper().startswith(("SELECT", "ROLLBACK")):
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, parameters)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


# -------------------------------------------------------------------- a write that fails (N14)
def test_a_click_the_store_cannot_take_is_503_and_not_played_so_a_retry_plays_it_once(tmp_path) -> None:
    path = tmp_path / "games.sqlite"
    with serving(path) as server:
        game = new_kings(server)
        assert click(server, game, 0)[1]["state"][:2] == "K."
        db = server.store.db
        server.store.db = FullDisk(db)  # type: ignore[assignment]
        status, document = click(server, game, 1)
        assert status == 503 and "the disk is full" in document["error"] and "nothing was changed" in document["error"]
        assert call(server, "GET", f"/api/games/{game}")[1]["state"][:2] == "K."  # the click was not played
        assert call(server, "POST", f"/api/games/{game}/undo", {})[0] == 503
        assert call(server, "POST", "/api/kings/new", {"size": 4})[0] == 503
        assert len(server.puzzles.games) == 1  # no game was added either
        server.store.db = db  # the disk has room again: the client tries once more
        assert click(server, game, 1)[1]["state"][:2] == "KK"  # played once, not toggled back
    with serving(path) as server:
        assert call(server, "GET", f"/api/games/{game}")[1]["state"][:2] == "KK"


def test_a_baikago_move_the_store_cannot_take_is_503_and_not_played(tmp_path) -> None:
    with serving(tmp_path / "games.sqlite") as server:
        status, state = call(server, "POST", "/api/new", {"human": "black", "strength": 1, "size": 7})
        game = state["game"]
        db = server.store.db
        server.store.db = FullDisk(db)  # type: ignore[assignment]
        status, document = call(server, "POST", "/api/move", {"game": game, "point": "d4", "ply": 0})
        assert status == 503 and "disk is full" in document["error"]
        assert call(server, "GET", f"/api/state?game={game}")[1]["moves"] == []
        server.store.db = db
        status, state = call(server, "POST", "/api/move", {"game": game, "point": "d4", "ply": 0})
        assert status == 200 and state["moves"] == ["d4"]


def test_a_store_gone_read_only_is_refused_with_that_reason(tmp_path) -> None:
    with serving(tmp_path / "games.sqlite") as server:
        game = new_kings(server)
        server.store.db.execute("PRAGMA query_only = ON")  # SQLite refuses every write as read-only
        status, document = click(server, game, 0)
        assert status == 503 and "read-only" in document["error"] and "disk I/O" not in document["error"]
        assert call(server, "GET", f"/api/games/{game}")[1]["moves"] == 0


# -------------------------------------------------------------------- the file under the server (N16)
def test_a_game_file_deleted_under_the_server_is_written_again_and_said_so(tmp_path, capfd) -> None:
    path = tmp_path / "games.sqlite"
    with serving(path) as server:
        game = new_kings(server)
        click(server, game, 0)
        path.unlink()  # as `rm games.sqlite` does: the log beside it stays
        deadline = time.monotonic() + 10 + LOADED  # the server looks every 2 s, even when idle
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert path.exists()
        assert click(server, game, 2)[0] == 200
    assert "was deleted while the server ran: written again" in capfd.readouterr().err
    with serving(path) as server:  # a restart finds every game, and every move
        assert call(server, "GET", f"/api/games/{game}")[1]["state"][:3] == "K.K"


def test_a_game_file_replaced_under_the_server_is_left_alone_and_changes_are_refused(tmp_path, capfd) -> None:
    path = tmp_path / "games.sqlite"
    other = tmp_path / "other.sqlite"
    with serving(path) as server:
        game = new_kings(server)
        GameStore(other).close()
        os.replace(other, path)
        status, document = click(server, game, 0)
        assert status == 503 and "replaced by another file" in document["error"]
        assert call(server, "GET", f"/api/games/{game}")[0] == 200  # reading goes on
        assert "replaced by another file" in capfd.readouterr().err
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'puzzle_games'").fetchone() == (0,)
    db.close()


# -------------------------------------------------------------------- stderr (N15)
def test_the_servers_lines_come_at_once_under_its_own_command(tmp_path) -> None:
    path = tmp_path / "games.sqlite"
    with serving(path) as server:
        status, state = call(server, "POST", "/api/new", {"human": "black", "strength": 1, "size": 7})
        call(server, "POST", "/api/move", {"game": state["game"], "point": "d4"})
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET moves = ?", (json.dumps(["d4", "d4"]),))  # no longer replays
    db.close()
    process = subprocess.Popen(
        [sys.executable, "-m", "boardpuzzles", "serve", "--port", "0", "--games", str(path)],
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(process.stderr or []), daemon=True)
    reader.start()

    def said(words: str) -> bool:
        deadline = time.monotonic() + 60 + LOADED
        while not any(words in line for line in lines) and time.monotonic() < deadline:
            time.sleep(0.1)
        return process.poll() is None and any(words in line for line in lines)

    try:
        serving_now = said("Board puzzles on http://")
        path.unlink()  # a line while it serves, not at start-up: said at once, not kept until it stops
        written_again = said("written again")
    finally:
        process.terminate()
        process.communicate(timeout=30)
        reader.join(10)
    assert serving_now and written_again, lines
    ours = [line for line in lines if "dropped" in line or "written again" in line]
    assert len(ours) == 2 and all(line.startswith("boardpuzzles serve: ") for line in ours), lines


# -------------------------------------------------------------------- a full server (N17)
def test_one_client_starting_games_in_a_loop_never_locks_others_out(tmp_path) -> None:
    path = tmp_path / "games.sqlite"
    with serving(path, max_games=20) as server:  # 5 games a client
        theirs = new_kings(server, "127.0.0.2")
        mine = [new_kings(server) for _ in range(60)]  # the old server refused the 21st, for a week
        assert all(call(server, "GET", f"/api/games/{game}")[0] == 404 for game in mine[:-5])
        assert all(call(server, "GET", f"/api/games/{game}")[0] == 200 for game in mine[-5:])
        assert call(server, "GET", f"/api/games/{theirs}")[0] == 200  # only its own games made room
        assert len(server.puzzles.games) == 6
        new_kings(server, "127.0.0.3")
    with serving(path, max_games=6) as server:  # restarted with fewer: the stored games belong to no one
        assert len(server.puzzles.games) == 7
        newcomers = [new_kings(server, client) for client in ("127.0.0.4", "127.0.0.5")]
        assert len(server.puzzles.games) == 6 and all(
            call(server, "GET", f"/api/games/{g}")[0] == 200 for g in newcomers
        )


# -------------------------------------------------------------------- true reasons (N20)
def test_a_game_file_under_a_regular_file_says_so(tmp_path, capsys) -> None:
    from boardpuzzles.cli import main

    (tmp_path / "notes").write_text("a file, not a folder\n")
    with pytest.raises(StoreError, match=r"notes is a file, not a folder"):
        GameStore(tmp_path / "notes" / "deeper" / "games.sqlite")
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", "0", "--games", str(tmp_path / "notes" / "games.sqlite")])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "is a file, not a folder" in err and "File exists" not in err


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` read-only, for root too: the immutable flag where root would write through a mode."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip("root writes any file, and this file system has no immutable flag")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_read_only_game_file_or_folder_says_so_not_disk_io_error(tmp_path) -> None:
    path = tmp_path / "games.sqlite"
    GameStore(path).close()
    with read_only(path), pytest.raises(StoreError) as refused:
        GameStore(path)
    assert "read-only" in str(refused.value) and "disk I/O" not in str(refused.value)
    folder = tmp_path / "folder"
    folder.mkdir()
    with read_only(folder), pytest.raises(StoreError, match="folder .* is read-only"):
        GameStore(folder / "games.sqlite")
