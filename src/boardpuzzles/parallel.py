"""Splitting a count into independent subtasks and running them: threads, a cluster, resume.

Glossary
--------
subtask   a picklable description of one independent piece of a search (for the queens: the
          columns of the first rows) with a ``weight`` that its result is multiplied by, so
          symmetry can stand in for work (a mirrored prefix is counted once, weight 2).
work      a function ``work(spec, limits) -> int`` that counts one subtask. It passes
          ``limits.flag`` to its kernels, or calls ``limits.check()`` every so often if it is
          plain Python (see :mod:`boardpuzzles.limits`). It may be a closure; on a cluster it
          travels by cloudpickle with what it holds.
identity  what the count is (see :mod:`boardpuzzles.checkpoint`): required with a checkpoint, so
          that the file is bound to the exact problem its subtasks belong to.

Workers are daemon threads: every kernel releases the GIL (``nogil``), so threads run in
parallel with no start-up cost and share the compiled code. The answer never depends on
``jobs`` (integer sums do not care about order). The calling thread only waits, records and
reports: on Ctrl-C or at the time limit it sets the stop flag, the kernels return within
milliseconds, and the subtasks that finished are kept (and recorded, with a checkpoint).
"""

from __future__ import annotations

import json
import queue
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from boardpuzzles.errors import BoardPuzzlesError, excerpt
from boardpuzzles.limits import (
    NAP,
    STOP_ERROR,
    STOP_INTERRUPT,
    STOP_NONE,
    STOP_TIME,
    Interrupted,
    Limits,
    Progress,
    TimeLimitReached,
    _Abandoned,
    default_jobs,
    wait_for,
)

if TYPE_CHECKING:  # loaded by a count with a checkpoint: the command line's help needs none
    from boardpuzzles.checkpoint import Checkpoint

__all__ = ["Limits", "Progress", "Subtask", "TimeLimitReached", "default_jobs", "run_subtasks", "subtask_key"]

Work = Callable[[Any, Limits], int]

#: Seconds to wait for a Dask scheduler's port to accept a connection.
PROBE_SECONDS = 5.0


@dataclass(frozen=True)
class Subtask:
    spec: Any  # what ``work`` receives: plain values (tuples, numbers, strings, frozen dataclasses)
    weight: int = 1


def _plain(value: Any) -> Any:
    """JSON for what a spec may hold besides plain values: numbers of numpy types, and frozen
    dataclasses of parameters (as the list of their fields)."""
    import dataclasses

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.astuple(value)
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return value.tolist()
    return int(value)


def subtask_key(spec: Any) -> str:
    """A subtask's stable identity: its spec as JSON."""
    return json.dumps(spec, default=_plain)


def run_subtasks(
    work: Work,
    subtasks: Sequence[Subtask],
    limits: Limits | None = None,
    *,
    identity: Mapping[str, Any] | None = None,
    unit: int = 1,
) -> int:
    """The weighted sum of ``work(s.spec, limits)`` over the subtasks, run under ``limits`` (its
    jobs, progress, time limit, checkpoint and scheduler).

    ``identity`` names the count (required with a checkpoint). ``unit``: results are in 1/unit of
    a solution (symmetry weights can be fractions); the sum must come out whole and is returned
    divided by ``unit``. Raises :class:`TimeLimitReached` with the partial sum at the time
    limit, and :class:`Interrupted` on Ctrl-C, after keeping what finished."""
    if not isinstance(limits, (Limits, type(None))):
        raise TypeError(f"limits must be a Limits, got {type(limits).__name__}")
    limits = limits if limits is not None else Limits()
    run = _Run(subtasks, limits, unit)
    checkpoint = None
    keys: list[str] = []
    given = limits.checkpoint_file
    if given is not None and given.path != limits.checkpoint:
        given = None  # a stage of the count that was given another file (or none)
    opened_here = given is None  # else the caller opened it, and closes it
    if limits.checkpoint:
        if identity is None:
            raise ValueError("a checkpoint needs the identity of the count it belongs to")
        keys = [subtask_key(s.spec) for s in subtasks]
        plan = plan_digest(work, subtasks, keys, unit)
        from boardpuzzles.checkpoint import Checkpoint

        checkpoint = given if given is not None else Checkpoint(limits.checkpoint)
        try:
            checkpoint.bind(plan, identity)
        except BaseException:
            if opened_here:
                checkpoint.close()
            raise
        run.keys, run.checkpoint = keys, checkpoint
    try:
        todo = list(range(len(subtasks)))
        if checkpoint is not None:
            earlier = checkpoint.finished()
            for i in todo:
                if keys[i] in earlier:
                    run.record(i, earlier[keys[i]], fresh=False)
            todo = [i for i in todo if keys[i] not in earlier]
        if todo and not limits.stopped:
            if limits.scheduler:
                _run_on_cluster(limits.scheduler, work, run, todo)
            else:
                _run_locally(work, run, todo)
    finally:
        if checkpoint is not None:
            if opened_here:
                checkpoint.close()
            else:
                checkpoint.commit()  # what finished is durable now, whatever the caller does next
    return run.result()


W = TypeVar("W", bound=Callable[..., int])


def planned_as(module: str) -> Callable[[W], W]:
    """A decorator that names a count's work function by ``module`` in its plan (see
    :func:`plan_digest`): a package split into modules keeps the name its work functions had
    before, so that the checkpoints of earlier counts stay good."""

    def named(work: W) -> W:
        work.__module__ = module
        return work

    return named


def plan_digest(work: Work, subtasks: Sequence[Subtask], keys: Sequence[str], unit: int) -> str:
    """What a checkpoint's rows mean: the subtasks and weights, and the work that counts them
    with its version: the module's ``PLAN_VERSIONS[name]`` for that work function, else the
    module's ``PLAN_VERSION`` (bumped when a spec's meaning changes, say a table that specs index
    into is reordered, so old rows are never read with the new meaning; a version per work
    function keeps one kind of count's change from voiding the files of another)."""
    module = sys.modules.get(getattr(work, "__module__", "") or "")
    qualname = getattr(work, "__qualname__", "?")
    version = getattr(module, "PLAN_VERSIONS", {}).get(qualname, getattr(module, "PLAN_VERSION", 1))
    name = f"{getattr(work, '__module__', '?')}.{qualname}"
    from boardpuzzles.checkpoint import digest

    return digest(
        {
            "work": name,
            "version": version,
            "unit": unit,
            "subtasks": [[k, s.weight] for k, s in zip(keys, subtasks, strict=True)],
        }
    )


class _Run:
    """The bookkeeping of one run: the weighted sum so far, the subtasks done, the records."""

    def __init__(self, subtasks: Sequence[Subtask], limits: Limits, unit: int) -> None:
        self.subtasks = subtasks
        self.limits = limits
        self.unit = unit
        self.total = 0
        self.done = 0
        self.keys: list[str] = []
        self.checkpoint: Checkpoint | None = None

    def record(self, index: int, value: int, fresh: bool = True) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            value = int(value)  # numpy integers from kernels
        self.total += value * self.subtasks[index].weight
        self.done += 1
        if self.checkpoint is not None and fresh:
            self.checkpoint.record(self.keys[index], value)
        if self.limits.progress is not None:
            self.limits.progress(self.done, len(self.subtasks), self.total // self.unit)

    def result(self) -> int:
        if self.done < len(self.subtasks):
            if self.limits.reason == STOP_TIME:
                raise TimeLimitReached(self.total // self.unit, self.done, len(self.subtasks))
            raise Interrupted()
        if self.total % self.unit:
            raise ArithmeticError(f"weighted sum {self.total} is not a whole number of 1/{self.unit}: a weighting bug")
        return self.total // self.unit


#: What a worker hands to the recording thread: the subtask, its value or the error it raised.
_Results = queue.SimpleQueue[tuple[int, int | None, BaseException | None]]


def _start_workers(work: Work, run: _Run, todo: list[int], results: _Results) -> list[threading.Thread]:
    """``jobs`` daemon threads that take the subtasks ``todo`` from a queue and put what each
    gives (or the error it raised) into ``results``, until the queue is empty or a stop."""
    limits = run.limits
    tasks: queue.SimpleQueue[int] = queue.SimpleQueue()
    for i in todo:
        tasks.put(i)

    def worker() -> None:
        while limits.reason == STOP_NONE:
            try:
                i = tasks.get_nowait()
            except queue.Empty:
                return
            try:
                results.put((i, work(run.subtasks[i].spec, limits), None))
            except (TimeLimitReached, Interrupted, _Abandoned):
                return  # stopped part way: nothing to keep
            except BaseException as err:  # handed to the recording thread, which raises it
                results.put((i, None, err))
                return

    threads = [
        threading.Thread(target=worker, name=f"boardpuzzles-{n}", daemon=True)
        for n in range(min(limits.jobs, len(todo)))
    ]
    for thread in threads:
        thread.start()
    return threads


def _run_locally(work: Work, run: _Run, todo: list[int]) -> None:
    """``jobs`` daemon threads take subtasks from a queue; this thread records their results as
    they come. A failure in one subtask stops the others and is raised here."""
    limits = run.limits
    results: _Results = queue.SimpleQueue()
    threads = _start_workers(work, run, todo, results)
    failure: BaseException | None = None

    def collect() -> None:
        nonlocal failure
        while True:
            try:
                i, value, error = results.get_nowait()
            except queue.Empty:
                return
            if error is not None:
                if failure is None:
                    failure = error
                    limits.stop(STOP_ERROR)
            elif value is not None:
                run.record(i, value)

    try:
        while any(t.is_alive() for t in threads):
            collect()
            for t in threads:
                t.join(NAP / len(threads))
                collect()
            if limits.reason != STOP_NONE:
                wait_for(threads, limits)  # a stop was asked: give the workers their grace
                break
        collect()
    except KeyboardInterrupt:
        limits.stop(STOP_INTERRUPT)
        wait_for(threads, limits)
        collect()  # keep (and record) what finished
        raise Interrupted() from None
    except BaseException:  # recording failed (a full disk): the workers must not go on alone
        limits.stop(STOP_ERROR)
        wait_for(threads, limits)
        raise
    if failure is not None:
        raise failure


def _run_on_cluster(address: str, work: Work, run: _Run, todo: list[int]) -> None:
    """Run subtasks on a Dask cluster; the workers need boardpuzzles installed. Results come
    back to this process, which records them, so progress, checkpoints and time limits behave
    as with local threads (a subtask already running on the cluster runs to its end)."""
    try:
        from distributed import Client
        from distributed import wait as wait_for_futures
    except ImportError:
        raise BoardPuzzlesError("--scheduler needs Dask: pip install 'boardpuzzles[distributed]'") from None
    try:
        _probe(address)
        client = Client(address)  # waits up to Dask's distributed.comm.timeouts.connect
    except ValueError:  # not an address at all
        raise BoardPuzzlesError(f"{excerpt(address)} is not a Dask scheduler address like tcp://host:8786") from None
    except (OSError, TimeoutError) as err:
        reason = (err.strerror if isinstance(err, OSError) else None) or str(err)
        raise BoardPuzzlesError(f"cannot reach the Dask scheduler at {excerpt(address)}: {reason[:200]}") from None
    limits = run.limits
    with client:
        # Enough queued to hide the round trips, few enough that a time limit stops soon.
        in_flight = max(64, 8 * sum(client.nthreads().values()))
        waiting = iter(todo)
        futures: dict[Any, int] = {}
        pending: set[Any] = set()
        try:
            while True:
                while len(pending) < in_flight and limits.reason == STOP_NONE:
                    i = next(waiting, None)
                    if i is None:
                        break
                    future = client.submit(_remote, work, run.subtasks[i].spec, pure=False)
                    futures[future] = i
                    pending.add(future)
                if not pending or limits.reason != STOP_NONE:
                    return
                try:  # short waits, so that a stop is seen soon
                    done, not_done = wait_for_futures(list(pending), timeout=NAP * 4, return_when="FIRST_COMPLETED")
                except TimeoutError:
                    continue
                pending = set(not_done)
                for future in done:
                    run.record(futures.pop(future), future.result())
        finally:
            client.cancel(list(pending))


def _probe(address: str) -> None:
    """Refuse at once a TCP address where nothing listens, or whose host has no address: Dask
    retries a refused connection until its connect timeout (30 s by default). Raises OSError."""
    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(address)
    if scheme != "tcp":
        return  # the other protocols are left to Dask
    host, port = parse_host_port(location)
    import socket

    with socket.create_connection((host, port), timeout=PROBE_SECONDS):
        pass


def _remote(work: Work, spec: Any) -> int:
    """A subtask on a cluster worker, under limits of its own (it runs to its end)."""
    return work(spec, Limits())
