"""Checkpoint files: the finished subtasks of one count, so that a later run resumes it.

Glossary
--------
identity    what the count is, as a canonical JSON document (the puzzle, every parameter that
            changes the answer, and for a puzzle read from a file its contents, never the file's
            name), and its SHA-256 ``digest``. A file is bound to one identity; any other count
            is refused.
plan        the subtasks a count is split into, with their weights: its digest is stored too, so
            a version of boardpuzzles that splits the same count differently refuses the file
            instead of adding up pieces of two different plans.
row         one finished subtask: its key (the spec as JSON), its value, and a checksum over
            (identity, key, value). Rows that do not verify make the whole file refused, with
            the subtask named: a damaged file never yields a wrong count.
ours        a file is ours when SQLite's header carries our ``application_id``. Any other
            non-empty file (another program's database, a text file) is refused untouched.

Finished subtasks are committed at most a second apart (SQLite's rollback journal makes each
commit all-or-nothing), so a run killed at any moment loses at most that much finished work. While
a run holds the file, an advisory lock keeps a second run off it.

One open file serves several threads of a run: the command opens and closes it, a worker thread
reads and records. After a Ctrl-C the command may close it while a worker it gave up waiting for
is still inside a statement, and Python's SQLite connection is not safe to close under a running
statement (the interpreter crashed there). So every use and the close hold one lock, and a use
after the close is refused with a :class:`CheckpointError`, never a crash.

The checksum finds damage and careless edits; it is not a signature: whoever can write the file
can also recompute it.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import re
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Concatenate, ParamSpec, TypeVar

from boardpuzzles.errors import BoardPuzzlesError

#: ``PRAGMA application_id`` of our files: "BPck" in ASCII.
APPLICATION_ID = int.from_bytes(b"BPck", "big")
#: ``PRAGMA user_version``: the layout of the tables below; other layouts are refused.
SCHEMA_VERSION = 2
SQLITE_MAGIC = b"SQLite format 3\x00"
#: A stored result: an integer of at most 1,500 digits (a subtask may pack several counts into
#: one: Goishi's layout counts of 6x6 pack 74 fields of 64 bits, about 1,430 digits).
_VALUE = re.compile(r"-?[0-9]{1,1500}")
#: Seconds between two commits of finished subtasks.
COMMIT_EVERY = 1.0


class CheckpointError(BoardPuzzlesError):
    """A checkpoint file that cannot be used for this count (one line says why)."""


def _lenient_text(data: bytes) -> str:
    """SQLite's text as str; a damaged page's bytes are not UTF-8, and must not end in a crash."""
    return data.decode("utf-8", errors="replace")


def _has_no_tables(db: sqlite3.Connection) -> bool:
    return bool(db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0)


def _short(err: BaseException) -> str:
    text = str(err)
    return text if len(text) <= 80 else text[:77] + "..."


Args = ParamSpec("Args")
Result = TypeVar("Result")


def _serialized(
    method: Callable[Concatenate[Checkpoint, Args], Result],
) -> Callable[Concatenate[Checkpoint, Args], Result]:
    """A method of :class:`Checkpoint` that holds the file's lock (see the module's last paragraph)."""

    @functools.wraps(method)
    def locked(self: Checkpoint, /, *args: Args.args, **kwargs: Args.kwargs) -> Result:
        with self._lock:
            return method(self, *args, **kwargs)

    return locked


def canonical(document: Any) -> str:
    """The one JSON text of a document: sorted keys, no spaces, ASCII only."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest(document: Any) -> str:
    return hashlib.sha256(canonical(document).encode()).hexdigest()


def _row_check(identity_digest: str, key: str, value: str) -> str:
    return hashlib.sha256(f"{identity_digest}\x00{key}\x00{value}".encode()).hexdigest()[:32]


def _flat(document: Mapping[str, Any]) -> dict[str, Any]:
    """A nested identity as one level: ``{"problem": {"n": 8}}`` gives ``{"n": 8}`` (the
    innermost name is the one a user knows; ``problem.n`` only where two names would clash)."""
    flat: dict[str, Any] = {}
    for key, value in document.items():
        if isinstance(value, Mapping):
            for inner, leaf in _flat(value).items():
                flat[inner if inner not in flat and inner not in document else f"{key}.{inner}"] = leaf
        else:
            flat[key] = value
    return flat


def shown(value: Any) -> str:
    """A value of an identity as a message shows it: ``none``, ``yes``/``no``, lists joined."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(shown(v) for v in value) or "none"
    if isinstance(value, Mapping):
        return canonical(value)
    return str(value)


#: How many differences a refusal names before it says how many more.
SHOWN_DIFFERENCES = 4


def identity_difference(stored: Any, here: Mapping[str, Any], names: Mapping[str, str] | None = None) -> str | None:
    """Where a file's identity differs from this run's, each as ``NAME THERE, here HERE`` (a key
    either side lacks shows as ``none``), joined by ``; `` (the first ``SHOWN_DIFFERENCES``, then
    how many more); None when nothing readable differs. ``names``: what a user calls a key (an
    option's spelling), else the key itself."""
    if not isinstance(stored, Mapping):
        return None
    theirs, ours = _flat(stored), _flat(here)
    found: list[str] = []
    for key in [*ours, *(k for k in theirs if k not in ours)]:
        if theirs.get(key) != ours.get(key):
            name = (names or {}).get(key, key.replace("_", " "))
            there, mine = (shown(v)[:60] for v in (theirs.get(key), ours.get(key)))
            found.append(f"{name} {there}, here {mine}")
    if not found:
        return None
    more = len(found) - SHOWN_DIFFERENCES
    return "; ".join(found[:SHOWN_DIFFERENCES]) + (f"; and {more} more" if more > 0 else "")


class Checkpoint:
    """An open checkpoint file, bound to one identity and one plan (see the module glossary).
    Use it as a context manager, or call :meth:`close`.

    One run opens its file once and passes the object on: made with the path alone it refuses a
    path or a file that is not ours and locks an existing file; :meth:`verify` binds it to the
    count's identity (a file of another count is refused before any work), and :meth:`bind` to
    the count's plan, creating the file when there was none. ``Checkpoint(path, identity,
    plan_digest)`` does the three at once."""

    def __init__(self, path: str, identity: Mapping[str, Any] | None = None, plan_digest: str | None = None) -> None:
        self.path = path
        self.identity_digest: str | None = None
        self._lock_fd: int | None = None
        self._db: sqlite3.Connection | None = None
        self._pending = 0
        self._last_commit = time.monotonic()
        self._plan: str | None = None
        self._identity: Mapping[str, Any] = {}
        self._lock = threading.RLock()
        if check_path(path):  # a file is there: inspected once, under the lock
            self._open(create=False)
        if identity is not None:
            self.verify(identity)
        if plan_digest is not None:
            self.bind(plan_digest)

    def _open(self, create: bool) -> None:
        """Open and lock the file (creating it when ``create``), refuse it when it is not ours,
        and lay out its tables later (:meth:`bind`) when it has none."""
        path = self.path
        try:
            self._lock_fd = os.open(path, os.O_RDWR | (os.O_CREAT if create else 0), 0o666)
        except OSError as err:
            raise CheckpointError(f"cannot open checkpoint {path}: {err.strerror}") from None
        try:
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._release()
            raise CheckpointError(f"checkpoint {path} is in use by another run") from None
        try:
            inspect_path(path)  # decided under the lock, so two first runs cannot both create the file
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.text_factory = _lenient_text
        except sqlite3.DatabaseError as err:
            self.close()
            raise CheckpointError(f"checkpoint {path} is damaged ({_short(err)}); use a new file") from None
        except BaseException:
            self.close()
            raise

    def _guarded(self, step: Callable[[], None]) -> None:
        """Run a step on the open file; a damaged file is refused with one line, and closed."""
        try:
            step()
        except (sqlite3.DatabaseError, UnicodeError) as err:
            self.close()
            raise CheckpointError(f"checkpoint {self.path} is damaged ({_short(err)}); use a new file") from None
        except BaseException:
            self.close()
            raise

    @_serialized
    def verify(self, identity: Mapping[str, Any]) -> None:
        """Bind the checkpoint to the count ``identity``: a file of another count, of another
        layout, damaged, or with a row that does not verify is refused. Nothing is written."""
        wanted = digest(identity)
        if self.identity_digest is not None:
            if self.identity_digest != wanted:
                raise ValueError(f"checkpoint {self.path} was opened for another count")
            return
        self.identity_digest = wanted
        self._identity = dict(identity)
        db = self._db
        if db is not None:
            self._guarded(lambda: None if _has_no_tables(db) else self._verify(identity, None))

    @_serialized
    def bind(self, plan_digest: str, identity: Mapping[str, Any] | None = None) -> None:
        """Bind the checkpoint to the plan of the count (see :func:`verify` for ``identity``):
        a file made for another plan is refused; a new file is created and laid out."""
        if identity is not None:
            self.verify(identity)
        if self.identity_digest is None:
            raise ValueError("a checkpoint is bound to its count's identity before its plan")
        if self._plan is not None:
            if self._plan != plan_digest:
                raise CheckpointError(
                    f"checkpoint {self.path} was made by a version of boardpuzzles that splits this count "
                    "differently; use a new file"
                )
            return
        checked = self._db is not None  # opened and verified already: only the plan is left
        if not checked:
            self._open(create=True)
        db = self._connection

        def lay_out_or_check() -> None:
            if _has_no_tables(db):
                self._create(self._identity, plan_digest)
            elif checked:
                self._verify_plan(plan_digest)
            else:  # made by another run since this one looked
                self._verify(self._identity, plan_digest)

        self._guarded(lay_out_or_check)
        self._plan = plan_digest

    def _create(self, identity: Mapping[str, Any], plan_digest: str) -> None:
        """Mark the file as ours and lay out its tables, in one transaction: a run killed half way
        leaves a file that is still empty, not half made."""
        db = self._connection
        db.execute("BEGIN IMMEDIATE")
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("CREATE TABLE done (subtask TEXT PRIMARY KEY, value TEXT NOT NULL, checksum TEXT NOT NULL)")
        from boardpuzzles import __version__

        db.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [
                ("identity", canonical(identity)),
                ("identity_digest", self.identity_digest),
                ("plan_digest", plan_digest),
                ("made_by", f"boardpuzzles {__version__}"),
                ("created", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())),
            ],
        )
        db.execute("COMMIT")

    def _verify(self, identity: Mapping[str, Any], plan_digest: str | None) -> None:
        db = self._connection
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise CheckpointError(
                f"checkpoint {self.path} was written by another version of boardpuzzles (layout {version}, "
                f"this one reads {SCHEMA_VERSION}); use a new file"
            )
        if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise CheckpointError(f"checkpoint {self.path} is damaged (SQLite's quick_check fails); use a new file")
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("identity_digest") != self.identity_digest:
            stored = meta.get("identity", "{}")
            try:
                other = identity_difference(json.loads(stored), identity) or "not recorded"
            except (ValueError, RecursionError, TypeError):  # not JSON, or nested too deep
                other = "unreadable"
            raise CheckpointError(
                f"checkpoint {self.path} belongs to another count ({other}); use a new file for this one"
            )
        if plan_digest is not None:
            self._verify_plan(plan_digest, meta.get("plan_digest"))
        self.finished()  # every row must verify before the run starts

    def _verify_plan(self, plan_digest: str, stored: str | None = None) -> None:
        if stored is None:
            row = self._connection.execute("SELECT value FROM meta WHERE key = 'plan_digest'").fetchone()
            stored = None if row is None else row[0]
        if stored != plan_digest:
            raise CheckpointError(
                f"checkpoint {self.path} was made by a version of boardpuzzles that splits this count "
                "differently; use a new file"
            )

    @property
    def _digest(self) -> str:
        if self.identity_digest is None:
            raise ValueError("a checkpoint is bound to its count's identity before it is read or written")
        return self.identity_digest

    @property
    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            raise CheckpointError(f"checkpoint {self.path} is closed")
        return self._db

    @_serialized
    def finished(self) -> dict[str, int]:
        """The recorded subtasks, ``key -> value``, every row verified against its checksum."""
        found: dict[str, int] = {}
        try:
            rows = self._connection.execute("SELECT subtask, value, checksum FROM done").fetchall()
        except (sqlite3.DatabaseError, UnicodeError) as err:
            raise CheckpointError(f"checkpoint {self.path} is damaged ({_short(err)}); use a new file") from None
        for key, value, checksum in rows:
            if (
                not isinstance(key, str)
                or not isinstance(value, str)
                or not _VALUE.fullmatch(value)
                or checksum != _row_check(self._digest, key, value)
            ):
                shown = key if isinstance(key, str) and len(key) <= 60 else f"{str(key)[:57]}..."
                raise CheckpointError(
                    f"checkpoint {self.path} is damaged: the row of subtask {shown} does not verify; "
                    "use a new file (or delete that row to recount it)"
                )
            found[key] = int(value)
        return found

    @_serialized
    def record(self, key: str, value: int) -> None:
        """Keep one finished subtask. Rows are committed together at most ``COMMIT_EVERY`` seconds
        apart (a commit per row of a count of 100,000 small subtasks costs more than the count),
        so a run killed at any moment loses at most that much finished work."""
        text = str(int(value))
        try:
            db = self._connection
            if not db.in_transaction:
                db.execute("BEGIN")
            db.execute("INSERT OR REPLACE INTO done VALUES (?, ?, ?)", (key, text, _row_check(self._digest, key, text)))
            self._pending += 1
            if time.monotonic() - self._last_commit >= COMMIT_EVERY:
                self.commit()
        except sqlite3.DatabaseError as err:
            raise CheckpointError(f"cannot record in checkpoint {self.path}: {_short(err)}") from None

    @_serialized
    def commit(self) -> None:
        """Make every recorded subtask durable now (nothing to do once closed: closing commits)."""
        db = self._db
        if db is not None and db.in_transaction:
            db.execute("COMMIT")
        self._pending = 0
        self._last_commit = time.monotonic()

    @_serialized
    def close(self) -> None:
        if self._db is not None:
            try:
                if self._db.in_transaction:
                    self._db.execute("COMMIT")  # what finished is kept, on Ctrl-C and time limits too
            finally:
                self._db.close()
                self._db = None
        self._release()

    def _release(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the descriptor drops its lock
            self._lock_fd = None

    def __enter__(self) -> Checkpoint:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def check_path(path: str) -> bool:
    """Refuse a checkpoint path that no checkpoint could be written at (a folder, a missing or
    read-only folder, something that is not a regular file); True when a file is there, to be
    inspected by its reader, False when there is none. Shared by every kind of checkpoint file."""
    if os.path.isdir(path):
        raise CheckpointError(f"checkpoint {path} is a folder")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CheckpointError(f"cannot write checkpoint {path}: folder {folder} does not exist")
    if not os.path.exists(path):
        if not os.access(folder, os.W_OK):
            raise CheckpointError(f"cannot write checkpoint {path}: folder {folder} is not writable")
        return False
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise CheckpointError(f"checkpoint {path} is not a regular file")
    if not os.access(folder, os.W_OK):  # SQLite writes its journal beside the file
        raise CheckpointError(f"cannot write checkpoint {path}: folder {folder} is not writable")
    return True


def inspect_path(path: str) -> bool:
    """True when ``path`` is free for a new checkpoint (missing, empty, or an SQLite database
    without a single table); None of the files it refuses is opened for writing."""
    if not check_path(path):
        return True
    try:
        with open(path, "rb") as handle:
            header = handle.read(100)
    except OSError as err:
        raise CheckpointError(f"cannot read checkpoint {path}: {err.strerror}") from None
    if not header:
        return True
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise CheckpointError(f"{path} is not a boardpuzzles checkpoint (not an SQLite database); refusing to touch it")
    if not os.access(path, os.W_OK):
        raise CheckpointError(f"cannot write checkpoint {path}: permission denied")
    if int.from_bytes(header[68:72], "big") == APPLICATION_ID:
        return False
    try:  # another program's database, unless it holds nothing at all
        uri = "file:" + os.path.abspath(path).replace("?", "%3f").replace("#", "%23") + "?mode=ro"
        db = sqlite3.connect(uri, uri=True)
        try:
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        finally:
            db.close()
    except sqlite3.DatabaseError as err:
        raise CheckpointError(f"{path} is not a boardpuzzles checkpoint ({err}); refusing to touch it") from None
    if tables:
        raise CheckpointError(
            f"{path} is another program's SQLite database, not a boardpuzzles checkpoint; refusing to touch it"
        )
    return True
