"""Splitting a count into independent subtasks, running them, and reporting progress.

Glossary
--------
subtask   a picklable description of one independent piece of a search (for the queens: the
          columns of the first rows) with a ``weight`` that its result is multiplied by, so
          symmetry can stand in for work (a mirrored prefix is counted once, weight 2).
work      a function ``work(spec) -> int`` that counts one subtask (module-level, so that a
          process or cluster back end can import it too).
progress  a callable ``progress(done, total, partial_answer)`` called after each subtask.

Workers are threads: every kernel releases the GIL (``nogil``), so threads run in parallel with
no start-up cost and share the compiled code. The answer never depends on ``jobs`` (integer sums
do not care about order). On Ctrl-C, queued subtasks are cancelled and ``KeyboardInterrupt``
is raised once the running ones end (subtasks are small, so that is soon).

limits    ``with limits(time_limit=S, checkpoint=Checkpoint(...)):`` around any count: after S
          seconds no new subtask starts and :class:`TimeLimitReached` carries the partial sum;
          every finished subtask is recorded in the checkpoint, and a later run with the same
          checkpoint skips it. A context rather than parameters, so that every puzzle's count
          gets both without knowing about them.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import json
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from boardpuzzles.errors import BoardPuzzlesError

Progress = Callable[[int, int, int], None]


@dataclass(frozen=True)
class Subtask:
    spec: Any  # what ``work`` receives: a tuple of plain values
    weight: int = 1


class TimeLimitReached(Exception):
    """A count stopped at its time limit: ``partial`` is the sum of the subtasks finished (a lower
    bound of the answer), ``done`` of ``total`` subtasks."""

    def __init__(self, partial: int, done: int, total: int) -> None:
        super().__init__(f"time limit reached after {done} of {total} subtasks")
        self.partial, self.done, self.total = partial, done, total


class Checkpoint:
    """Finished subtasks of one count, kept in an SQLite file so that a later run resumes.

    The file records the count's parameters; opening it for another count is refused. Each
    subtask is committed as it finishes (SQLite's journal makes each commit all-or-nothing), so
    a run killed at any moment loses only the subtasks that were running."""

    def __init__(self, path: str, parameters: dict[str, Any]) -> None:
        self.path = path
        self.parameters = json.dumps(parameters, sort_keys=True)
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self._db.execute("CREATE TABLE IF NOT EXISTS done (subtask TEXT PRIMARY KEY, value TEXT NOT NULL)")
            row = self._db.execute("SELECT value FROM meta WHERE key = 'parameters'").fetchone()
        except sqlite3.DatabaseError as err:
            raise BoardPuzzlesError(f"checkpoint {path} is not a checkpoint file ({err})") from None
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('parameters', ?)", (self.parameters,))
        elif row[0] != self.parameters:
            raise BoardPuzzlesError(
                f"checkpoint {path} belongs to another count ({_describe(row[0])}); use a new file for this one"
            )

    def finished(self) -> dict[str, int]:
        return {key: int(value) for key, value in self._db.execute("SELECT subtask, value FROM done")}

    def record(self, key: str, value: int) -> None:
        self._db.execute("INSERT OR REPLACE INTO done VALUES (?, ?)", (key, str(value)))

    def close(self) -> None:
        self._db.close()


def _describe(parameters: str) -> str:
    return ", ".join(f"{k}={v}" for k, v in json.loads(parameters).items())


@dataclass
class _Limits:
    time_limit: float | None = None
    checkpoint: Checkpoint | None = None
    scheduler: str | None = None  # a Dask scheduler address: run the subtasks on its cluster


_LIMITS: contextvars.ContextVar[_Limits] = contextvars.ContextVar("limits", default=_Limits())


@contextlib.contextmanager
def limits(
    time_limit: float | None = None, checkpoint: Checkpoint | None = None, scheduler: str | None = None
) -> Iterator[None]:
    """Every :func:`run_subtasks` inside stops after ``time_limit`` seconds, records its finished
    subtasks in ``checkpoint`` (see the module glossary), and runs on the Dask cluster whose
    scheduler is at ``scheduler`` (``tcp://host:port``) instead of local threads."""
    token = _LIMITS.set(_Limits(time_limit, checkpoint, scheduler))
    try:
        yield
    finally:
        _LIMITS.reset(token)


def _plain(value: Any) -> Any:
    """JSON for what a spec may hold besides plain values: numbers of numpy types, and frozen
    dataclasses of parameters (as the list of their fields)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.astuple(value)
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return value.tolist()
    return int(value)


_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("deadline", default=None)


def stop_if_out_of_time() -> None:
    """For a long subtask that can stop part way (a count made of one sweep): raises
    :class:`TimeLimitReached` when the time limit of the run it belongs to has passed (local
    threads only: on a Dask cluster a subtask always runs to its end)."""
    deadline = _DEADLINE.get()
    if deadline is not None and time.monotonic() >= deadline:
        raise TimeLimitReached(0, 0, 1)


def subtask_key(spec: Any) -> str:
    """A subtask's stable identity: its spec as JSON."""
    return json.dumps(spec, default=_plain)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def run_subtasks(
    work: Callable[[Any], int],
    subtasks: Sequence[Subtask],
    *,
    jobs: int = 1,
    progress: Progress | None = None,
    unit: int = 1,
) -> int:
    """The weighted sum of ``work(s.spec)`` over the subtasks, using ``jobs`` threads.

    ``unit``: results are in 1/unit of a solution (symmetry weights can be fractions); the sum
    must come out whole and is returned divided by ``unit``."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    settings = _LIMITS.get()
    deadline = None if settings.time_limit is None else time.monotonic() + settings.time_limit
    checkpoint = settings.checkpoint
    keys = [subtask_key(s.spec) for s in subtasks] if checkpoint else []
    total = 0
    done = 0

    def record(index: int, value: int, fresh: bool = True) -> None:
        nonlocal total, done
        total += value * subtasks[index].weight
        done += 1
        if checkpoint and fresh:
            checkpoint.record(keys[index], value)
        if progress is not None:
            progress(done, len(subtasks), total // unit)

    def out_of_time() -> bool:
        return deadline is not None and time.monotonic() >= deadline

    todo = range(len(subtasks))
    if checkpoint:
        earlier = checkpoint.finished()
        for i in todo:
            if keys[i] in earlier:
                record(i, earlier[keys[i]], fresh=False)
        todo = [i for i in todo if keys[i] not in earlier]
    if settings.scheduler:
        _run_on_cluster(settings.scheduler, work, subtasks, todo, record, out_of_time)
        todo = []
    # A subtask may stop part way at the deadline (stop_if_out_of_time): its TimeLimitReached
    # is raised again with the figures of the whole run.
    token = _DEADLINE.set(deadline)
    try:
        _run_locally(work, subtasks, todo, jobs, record, out_of_time)
    except TimeLimitReached:
        raise TimeLimitReached(total // unit, done, len(subtasks)) from None
    finally:
        _DEADLINE.reset(token)
    if done < len(subtasks):
        raise TimeLimitReached(total // unit, done, len(subtasks))
    if total % unit:
        raise ArithmeticError(f"weighted sum {total} is not a whole number of 1/{unit}: a weighting bug")
    return total // unit


def _run_locally(
    work: Callable[[Any], int],
    subtasks: Sequence[Subtask],
    todo: Sequence[int],
    jobs: int,
    record: Callable[[int, int], None],
    out_of_time: Callable[[], bool],
) -> None:
    if jobs == 1:
        for i in todo:
            if out_of_time():
                return
            record(i, work(subtasks[i].spec))
        return
    # Every subtask goes to the pool, the first too: numba compiles a kernel once under its own
    # lock while the other threads wait, so no core idles through a long first subtask.
    rest = list(todo)
    if rest:
        with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="boardpuzzles") as pool:
            # At most two subtasks a worker are queued, so a time limit stops the run soon.
            queue = iter(rest)
            futures = {}
            try:
                pending = set()
                while True:
                    while len(pending) < 2 * jobs and not out_of_time():
                        i = next(queue, None)
                        if i is None:
                            break
                        # Each in the caller's context, so the worker sees the deadline.
                        future = pool.submit(contextvars.copy_context().run, work, subtasks[i].spec)
                        futures[future] = i
                        pending.add(future)
                    if not pending:
                        break
                    # A timeout keeps the main thread awake for Ctrl-C while kernels run.
                    finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                    for future in finished:
                        record(futures[future], future.result())
            except BaseException:
                for future in futures:
                    future.cancel()  # queued subtasks never start; running ones end with their subtask
                raise


def _run_on_cluster(
    address: str,
    work: Callable[[Any], int],
    subtasks: Sequence[Subtask],
    todo: Sequence[int],
    record: Callable[[int, int], None],
    out_of_time: Callable[[], bool],
) -> None:
    """Run subtasks on a Dask cluster. ``work`` travels by cloudpickle with the tables it holds;
    the workers need boardpuzzles installed. Results come back to this process, which records
    them, so progress, checkpoints and time limits behave as with local threads."""
    try:
        from distributed import Client
        from distributed import wait as wait_for
    except ImportError:
        raise BoardPuzzlesError("--scheduler needs Dask: pip install 'boardpuzzles[distributed]'") from None
    try:
        client = Client(address)  # waits up to Dask's distributed.comm.timeouts.connect
    except ValueError as err:  # not an address at all
        raise BoardPuzzlesError(f"{address!r} is not a Dask scheduler address like tcp://host:8786 ({err})") from None
    except (OSError, TimeoutError) as err:
        raise BoardPuzzlesError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    with client:
        # Enough queued to hide the round trips, few enough that a time limit stops soon.
        in_flight = max(64, 8 * sum(client.nthreads().values()))
        queue = iter(todo)
        futures: dict[Any, int] = {}
        pending: set[Any] = set()
        try:
            while True:
                while len(pending) < in_flight and not out_of_time():
                    i = next(queue, None)
                    if i is None:
                        break
                    future = client.submit(work, subtasks[i].spec, pure=False)
                    futures[future] = i
                    pending.add(future)
                if not pending:
                    return
                done, pending = wait_for(list(pending), timeout=None, return_when="FIRST_COMPLETED")
                pending = set(pending)
                for future in done:
                    record(futures.pop(future), future.result())
        except BaseException:
            client.cancel(list(pending))
            raise


class ProgressBar:
    """A Rich progress bar on stderr that appears only once a count has run for ``delay`` seconds
    (short counts stay silent). ``enabled`` defaults to whether stderr is a terminal."""

    def __init__(self, label: str, *, delay: float = 1.0, enabled: bool | None = None) -> None:
        self.label = label
        self.delay = delay
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.started = time.monotonic()
        self._progress = None
        self._task = None

    def __call__(self, done: int, total: int, partial: int) -> None:
        if not self.enabled:
            return
        if self._progress is None:
            if time.monotonic() - self.started < self.delay or done == total:
                return
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("subtasks · {task.fields[partial]:,} solutions"),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task(self.label, total=total, partial=partial)
        self._progress.update(self._task, completed=done, partial=partial)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
