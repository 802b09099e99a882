"""Where ``baikago serve`` keeps its games: one SQLite file, so a restarted server loses none.

Glossary
--------
record      one game as stored: its id, rules (size, max d, orientations), the human's colour,
            the computer's strength and seed, the moves played (point names) and when it was
            last touched. The position is rebuilt by replaying the moves.
left        a game whose page started another one: still readable, but the first to make room.
state file  the default file: ``$XDG_STATE_HOME/boardpuzzles/baikago-games.sqlite`` (or
            ``~/.local/state/...`` when ``XDG_STATE_HOME`` is not set), the per-user place for data
            a program keeps between runs. ``:memory:`` keeps the games for one run only.

Every change is written at once (write-ahead log, one small transaction per move), so a server
that is killed loses at most the move it was writing. The file is held exclusively while the
server runs: a second server on the same file is refused rather than left to overwrite games.
Roads not taken: one JSON file rewritten per move (slow with a thousand games, and a kill in the
middle loses them all); pickled positions (bound to the code that wrote them).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from boardpuzzles.errors import BoardPuzzlesError

SCHEMA_VERSION = 1
MEMORY = ":memory:"


class StoreError(BoardPuzzlesError):
    """The game file cannot be used (not SQLite, from another program, in use, unwritable)."""


def default_path() -> Path:
    """The per-user state file (see the module glossary)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "boardpuzzles" / "baikago-games.sqlite"


@dataclass
class Record:
    id: str
    size: int
    max_d: int | None
    orientations: str
    human: int
    strength: int
    seed: int | None
    moves: list[str]
    touched: float
    over: bool = False
    left: bool = False


class GameStore:
    """The games of one server in one SQLite file (``:memory:``: none kept after the run)."""

    def __init__(self, path: str | os.PathLike[str] = MEMORY) -> None:
        self.path = str(path)
        self.lock = threading.Lock()
        self.closed = False  # a request still running when the server stops writes nothing
        try:
            if self.path != MEMORY:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"cannot use {self.path}: {err.strerror or err}") from None
        try:
            self.db = sqlite3.connect(self.path, timeout=0.5, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA locking_mode = EXCLUSIVE")
            if self.path != MEMORY:
                self.db.execute("PRAGMA journal_mode = WAL")
                self.db.execute("PRAGMA synchronous = NORMAL")
            self._create()
        except sqlite3.OperationalError as err:
            self._close_quietly()
            if "locked" in str(err):
                raise StoreError(f"{self.path} is in use by another server") from None
            raise StoreError(f"cannot use {self.path}: {err}") from None
        except sqlite3.DatabaseError as err:
            self._close_quietly()
            raise StoreError(f"{self.path} is not a game file of this server: {err}") from None

    def _close_quietly(self) -> None:
        try:
            self.db.close()
        except (AttributeError, sqlite3.Error):
            pass

    def _create(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")  # takes the exclusive lock now: a second server fails here
        try:
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            row = self.db.execute("SELECT value FROM meta WHERE key = 'baikago-games'").fetchone()
            if row is None:
                tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                if tables - {"meta"}:
                    raise StoreError(f"{self.path} is an SQLite file of another program: not touched")
                self.db.execute("INSERT INTO meta VALUES ('baikago-games', ?)", (str(SCHEMA_VERSION),))
            elif row[0] != str(SCHEMA_VERSION):
                raise StoreError(f"{self.path} holds games of another version ({row[0]}): not touched")
            self.db.execute(
                """CREATE TABLE IF NOT EXISTS games (
                    id TEXT PRIMARY KEY, rules TEXT NOT NULL, human INTEGER NOT NULL,
                    strength INTEGER NOT NULL, seed INTEGER, moves TEXT NOT NULL,
                    touched REAL NOT NULL, over INTEGER NOT NULL, left_ INTEGER NOT NULL)"""
            )
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def load(self) -> list[Record]:
        """Every stored game, least recently touched first."""
        with self.lock:
            rows = self.db.execute(
                "SELECT id, rules, human, strength, seed, moves, touched, over, left_ FROM games ORDER BY touched"
            ).fetchall()
        records = []
        for game_id, rules, human, strength, seed, moves, touched, over, left in rows:
            r = json.loads(rules)
            records.append(
                Record(
                    game_id,
                    r["size"],
                    r["max_d"],
                    r["orientations"],
                    human,
                    strength,
                    seed,
                    json.loads(moves),
                    touched,
                    bool(over),
                    bool(left),
                )
            )
        return records

    def save(self, record: Record) -> None:
        rules = json.dumps({"size": record.size, "max_d": record.max_d, "orientations": record.orientations})
        with self.lock:
            if self.closed:
                return
            self.db.execute(
                "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.id,
                    rules,
                    record.human,
                    record.strength,
                    record.seed,
                    json.dumps(record.moves),
                    record.touched,
                    int(record.over),
                    int(record.left),
                ),
            )

    def delete(self, game_id: str) -> None:
        with self.lock:
            if not self.closed:
                self.db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def close(self) -> None:
        with self.lock:
            if not self.closed:
                self.closed = True
                self.db.close()
