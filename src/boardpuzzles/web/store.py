"""Where a web server keeps its games: one SQLite file, so a restarted server loses none.

Glossary
--------
game file   the SQLite file of one server: a ``meta`` table that marks it as a game file of this
            program (and its version), and one table per kind of game, which each client of the
            server creates and writes (:meth:`GameStore.ensure`).
statement   one SQL statement and its parameters: what a client hands :meth:`GameStore.write`.
state file  the default file: ``$XDG_STATE_HOME/boardpuzzles/NAME`` (or ``~/.local/state/...``
            when ``XDG_STATE_HOME`` is not set), the per-user place for data a program keeps
            between runs. ``:memory:`` keeps the games for one run only.

Every change is written at once, in one small transaction (write-ahead log), so a server that is
killed loses at most the change it was writing; a change the file cannot take (a full disk, a
file system gone read-only) raises :class:`StoreFailed` and writes nothing, so the server can
leave the game as it was. The file is held exclusively while the server runs: a second server on
the same file is refused rather than left to overwrite games. A game file deleted under a running
server is written again from the server's own copy, and says so; one replaced by another file is
left alone, and every change is refused with the reason until the server is restarted on it.

Roads not taken: one JSON file rewritten per move (slow with a thousand games, and a kill in the
middle loses them all); pickled positions (bound to the code that wrote them).
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from boardpuzzles.errors import BoardPuzzlesError

SCHEMA_VERSION = 1
MEMORY = ":memory:"
#: The ``meta`` key that marks a game file (the name it has had since the first server that wrote
#: such files: files written since carry it too).
FILE_MARK = "baikago-games"

#: One SQL statement and its parameters.
Statement = tuple[str, tuple[Any, ...]]


class StoreError(BoardPuzzlesError):
    """The game file cannot be used (not SQLite, from another program, in use, unwritable)."""


class StoreFailed(BoardPuzzlesError):
    """A change the game file could not take (nothing of it was written); the message says why."""


def default_path(name: str = "games.sqlite") -> Path:
    """The per-user state file ``name`` (see the module glossary)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "boardpuzzles" / name


def _say(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


class GameStore:
    """The games of one server in one SQLite file (``:memory:``: none kept after the run).
    ``note`` says a line to whoever runs the server (the file written again, say)."""

    def __init__(self, path: str | os.PathLike[str] = MEMORY, note: Callable[[str], None] = _say) -> None:
        self.path = str(path)
        self.note = note
        self.lock = threading.Lock()
        self.closed = False  # a request still running when the server stops writes nothing
        #: Why every change is refused (the file was replaced under the server), or None.
        self.broken: str | None = None
        self.db = self._open()
        self.identity = self._identity()

    # ---------------------------------------------------------------- opening
    def _open(self) -> sqlite3.Connection:
        if self.path != MEMORY:
            self._make_folder()
            unusable = self._unwritable()
            if unusable:
                raise StoreError(f"cannot use {self.path}: {unusable}")
        db: sqlite3.Connection | None = None
        try:
            db = sqlite3.connect(self.path, timeout=0.5, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA locking_mode = EXCLUSIVE")
            if self.path != MEMORY:
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = NORMAL")
            self._create(db)
            return db
        except sqlite3.OperationalError as err:
            _close_quietly(db)
            if "locked" in str(err):
                raise StoreError(f"{self.path} is in use by another server") from None
            raise StoreError(f"cannot use {self.path}: {self.reason(err)}") from None
        except sqlite3.DatabaseError as err:
            _close_quietly(db)
            raise StoreError(f"{self.path} is not a game file of this server: {err}") from None
        except BaseException:
            _close_quietly(db)
            raise

    def _make_folder(self) -> None:
        """The file's folder, made when missing; a file where a folder should be is named as such
        (``mkdir`` itself only says "File exists" or "Not a directory")."""
        folder = Path(self.path).parent
        for above in (folder, *folder.parents):
            if above.exists():
                if not above.is_dir():
                    raise StoreError(f"cannot use {self.path}: {above} is a file, not a folder")
                break
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"cannot make the folder {folder}: {err.strerror or err}") from None

    def _unwritable(self) -> str | None:
        """Why the file (or its folder, where the write-ahead log goes) cannot be written, or None.
        SQLite itself says "disk I/O error" for a read-only file."""
        path = Path(self.path)
        if path.is_dir():
            return "it is a folder"
        if path.exists() and not os.access(path, os.W_OK):
            return "the file is read-only"
        if not os.access(path.parent, os.W_OK | os.X_OK):
            return f"the folder {path.parent} is read-only (the server writes the file and its log there)"
        return None

    def _create(self, db: sqlite3.Connection) -> None:
        db.execute("BEGIN IMMEDIATE")  # takes the exclusive lock now: a second server fails here
        try:
            db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            row = db.execute("SELECT value FROM meta WHERE key = ?", (FILE_MARK,)).fetchone()
            if row is None:
                tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                if tables - {"meta"}:
                    raise StoreError(f"{self.path} is an SQLite file of another program: not touched")
                db.execute("INSERT INTO meta VALUES (?, ?)", (FILE_MARK, str(SCHEMA_VERSION)))
            elif row[0] != str(SCHEMA_VERSION):
                raise StoreError(f"{self.path} holds games of another version ({row[0]}): not touched")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _identity(self) -> tuple[int, int] | None:
        """Which file the store holds (device and inode), to notice it deleted or replaced."""
        if self.path == MEMORY:
            return None
        st = os.stat(self.path)
        return st.st_dev, st.st_ino

    # ---------------------------------------------------------------- reading and writing
    def ensure(self, table: str) -> None:
        """Create a client's table (``CREATE TABLE IF NOT EXISTS ...``)."""
        with self.lock:
            try:
                self.db.execute(table)
            except sqlite3.Error as err:
                raise StoreError(f"cannot use {self.path}: {self.reason(err)}") from None

    def rows(self, query: str, parameters: tuple[Any, ...] = ()) -> list[Any]:
        with self.lock:
            return self.db.execute(query, parameters).fetchall()

    def write(self, *statements: Statement) -> None:
        """Run ``statements`` in one transaction, or none of them: :class:`StoreFailed` says why
        the file could not take them. Once the store is closed, nothing is written."""
        with self.lock:
            if self.closed:
                return
            self._check_file()
            if self.broken is not None:
                raise StoreFailed(self.broken)
            try:
                self.db.execute("BEGIN IMMEDIATE")
                for sql, parameters in statements:
                    self.db.execute(sql, parameters)
                self.db.execute("COMMIT")
            except sqlite3.Error as err:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # SQLite rolled back already
                raise StoreFailed(f"the server cannot save games: {self.reason(err)}; nothing was changed") from None

    def reason(self, err: sqlite3.Error) -> str:
        """SQLite's error in words a user can act on."""
        name = str(getattr(err, "sqlite_errorname", ""))
        text = str(err)
        if name.startswith("SQLITE_FULL") or "disk is full" in text:
            return "the disk is full"
        if name == "SQLITE_READONLY_DBMOVED":
            return "the game file was moved or deleted"
        unwritable = self._unwritable() if self.path != MEMORY else None
        if unwritable:
            return unwritable
        if name.startswith("SQLITE_READONLY") or "readonly" in text:
            return "the game file is read-only"
        return f"{text} ({name})" if name else text

    # ---------------------------------------------------------------- the file under the server
    def check(self) -> None:
        """Notice a game file deleted or replaced under the running server (see the module docstring)."""
        with self.lock:
            if not self.closed:
                self._check_file()

    def _check_file(self) -> None:
        if self.identity is None or self.broken is not None:
            return
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            self._write_again()
            return
        except OSError as err:
            self._refuse(f"the game file {self.path} cannot be reached any more ({err.strerror or err})")
            return
        if (st.st_dev, st.st_ino) != self.identity:
            self._empty_log()  # else the new file's next reader would take our log for its own
            self._refuse(f"the game file {self.path} was replaced by another file while the server ran")

    def _empty_log(self) -> None:
        """Move the write-ahead log into the (moved or deleted) file the store holds open, and
        empty it: SQLite leaves the log of such a file at its old name when it closes, where a
        file made at that name later would read it as its own."""
        try:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass

    def _refuse(self, why: str) -> None:
        self.broken = f"the server cannot save games: {why}; restart it"
        self.note(f"{why}: no change is saved until the server is restarted")

    def _write_again(self) -> None:
        """The file was deleted: write every game into a new one at the same path, from the old
        file, which the store still holds open (copied to memory first: the new file takes the
        old one's name, and its log's)."""
        copy = sqlite3.connect(MEMORY)
        try:
            self.db.backup(copy)
            self._empty_log()
            _close_quietly(self.db)
            for log in (f"{self.path}-wal", f"{self.path}-shm"):  # ours, emptied: a new file starts afresh
                Path(log).unlink(missing_ok=True)
            self.db = self._open()
            copy.backup(self.db)
            self.db.execute("PRAGMA journal_mode = WAL")
            self.identity = self._identity()
        except (StoreError, sqlite3.Error, OSError) as err:
            self._refuse(f"the game file {self.path} was deleted while the server ran and cannot be made again: {err}")
            return
        finally:
            copy.close()
        self.note(f"the game file {self.path} was deleted while the server ran: written again, with every game")

    def close(self) -> None:
        """Close the file (written again first if it was deleted, so that a restart finds the games)."""
        with self.lock:
            if not self.closed:
                self._check_file()
                self.closed = True
                self.db.close()


def _close_quietly(db: sqlite3.Connection | None) -> None:
    try:
        if db is not None:
            db.close()
    except sqlite3.Error:
        pass
