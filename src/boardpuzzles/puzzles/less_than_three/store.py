"""The one-colour boards of a tuple count, kept beside its checkpoint."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Mapping
from typing import Any

from boardpuzzles._lazy import numpy as np
from boardpuzzles.checkpoint import CheckpointError
from boardpuzzles.puzzles.less_than_three.rules import PLAN_VERSION, Rules


class _OneColourStore:
    """The pieces of a one-colour listing that finished, kept in an SQLite file in the folder of
    a count's checkpoint, named after the board (``less-than-three-one-colour-14x14-k2.db``):
    every count of that board with a checkpoint in that folder (all boards, classes, any number
    of colours) shares it, and a listing that was stopped resumes. A row is one subtask of the
    listing: its prefix, its weighted count and its boards, with a checksum over the three and
    what the file lists; a file of anything else, or with a row that does not verify, is refused
    with one line. Rows are committed at most a second apart, and when the listing stops."""

    APPLICATION_ID = int.from_bytes(b"BPl3", "big")
    COMMIT_EVERY = 1.0

    def __init__(self, path: str, what: Mapping[str, Any]) -> None:
        self.path = path
        self.what = json.dumps(dict(what), sort_keys=True)
        self._lock = threading.Lock()
        self._last_commit = time.monotonic()
        self._rows: dict[str, tuple[int, np.ndarray]] = {}
        self._db: sqlite3.Connection | None = None
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=60)
            self._open(self._db)
        except sqlite3.DatabaseError as err:
            self.close()
            raise CheckpointError(f"{path} is not a one-colour store of boardpuzzles ({err}); move it away") from None
        except BaseException:
            self.close()
            raise

    @classmethod
    def beside(cls, checkpoint: str, rules: Rules) -> _OneColourStore:
        folder = os.path.dirname(os.path.abspath(checkpoint))
        n, k = rules.size, rules.max_in_line
        name = f"less-than-three-one-colour-{n}x{n}-k{k}.db"
        what = {"puzzle": "less-than-three", "size": n, "max_in_line": k, "stones": rules.per_colour}
        return cls(os.path.join(folder, name), {**what, "plan_version": PLAN_VERSION})

    def _open(self, db: sqlite3.Connection) -> None:
        db.execute("BEGIN IMMEDIATE")
        try:
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if tables == 0:
                db.execute(f"PRAGMA application_id = {self.APPLICATION_ID}")
                db.execute("CREATE TABLE meta (what TEXT NOT NULL)")
                db.execute("CREATE TABLE piece (prefix TEXT PRIMARY KEY, found TEXT, boards BLOB, checksum TEXT)")
                db.execute("INSERT INTO meta VALUES (?)", (self.what,))
            elif db.execute("PRAGMA application_id").fetchone()[0] != self.APPLICATION_ID:
                raise CheckpointError(f"{self.path} is another program's database; move it away")
            elif db.execute("SELECT what FROM meta").fetchone() != (self.what,):
                raise CheckpointError(f"{self.path} was made by another version of boardpuzzles; delete it")
            rows = db.execute("SELECT prefix, found, boards, checksum FROM piece").fetchall()
        finally:
            db.execute("COMMIT")
        for prefix, found, boards, checksum in rows:
            if checksum != self._checksum(prefix, found, boards):
                raise CheckpointError(f"{self.path} is damaged (a row does not verify); delete it")
            self._rows[prefix] = (int(found), np.frombuffer(boards, dtype=np.uint8))

    def _checksum(self, prefix: str, found: str, boards: bytes) -> str:
        return hashlib.sha256(b"\0".join([self.what.encode(), prefix.encode(), found.encode(), boards])).hexdigest()

    def get(self, prefix: tuple[int, ...], cells: int) -> tuple[int, np.ndarray] | None:
        """The weighted count and the boards (rows of ``cells``) of a finished piece, or None."""
        row = self._rows.get(json.dumps(prefix))
        if row is None:
            return None
        found, flat = row
        if len(flat) % cells:
            raise CheckpointError(f"{self.path} is damaged (a row holds a part of a board); delete it")
        return found, flat.reshape(-1, cells)

    def put(self, prefix: tuple[int, ...], found: int, boards: np.ndarray) -> None:
        key, text, blob = json.dumps(prefix), str(found), np.ascontiguousarray(boards, dtype=np.uint8).tobytes()
        with self._lock:
            db = self._db
            if db is None:
                return  # a worker that outlived its stopped run
            if not db.in_transaction:
                db.execute("BEGIN")
            db.execute(
                "INSERT OR REPLACE INTO piece VALUES (?, ?, ?, ?)", (key, text, blob, self._checksum(key, text, blob))
            )
            if time.monotonic() - self._last_commit >= self.COMMIT_EVERY:
                db.execute("COMMIT")
                self._last_commit = time.monotonic()

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                if self._db.in_transaction:
                    self._db.execute("COMMIT")
                self._db.close()
                self._db = None
