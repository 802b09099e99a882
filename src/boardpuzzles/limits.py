"""How a long call may run: its deadline, its stop flag, where it records and where it runs.

Glossary
--------
limits      one explicit object passed down to every long call (counts, ``solutions``, ``find``,
            ``generate``, the computer player): a deadline, a stop flag, a checkpoint file, a Dask
            scheduler, the number of jobs and a progress callback. One object serves one run:
            once it has asked the work to stop, it stays stopped.
stop flag   ``limits.flag``, a one-element int64 array shared by Python and the running kernels
            (made when a kernel is first given it: work done in plain Python, such as a small
            problem's, never loads numpy).
            Kernels read it every few thousand steps and return early when it is set
            (``STOP_TIME``: the deadline passed; ``STOP_INTERRUPT``: Ctrl-C; ``STOP_ERROR``: another
            part of the same run failed). A timer sets it at the deadline, so even a kernel that
            runs in the caller's own thread stops on time.
worker      long work runs in daemon worker threads while the calling thread waits in short
            naps: only the main thread hears Ctrl-C, and it must never be inside a kernel then
            (a signal that lands while numba converts a result ends in a ``SystemError``).
contract    (for pure-Python work, such as a newcomer's puzzle before it has a kernel) call
            ``limits.check()`` every so often: it raises :class:`TimeLimitReached` or
            :class:`Interrupted` once the run must stop. Work that does not is still stopped:
            ``GRACE`` seconds after the flag is set, its thread gets the same exception raised
            asynchronously (Python code stops there; a kernel stops when it returns), and the
            caller gives up waiting for it either way.

Roads not taken: processes instead of threads (every kernel releases the GIL, so threads share
compiled code and tables for free), and a numba ``cfunc`` signal handler that sets the flag from
C (workers are simpler and portable).
"""

from __future__ import annotations

import functools
import math
import os
import queue
import re
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from boardpuzzles._lazy import numpy as np
from boardpuzzles.errors import BoardPuzzlesError

if TYPE_CHECKING:
    from boardpuzzles.checkpoint import Checkpoint

#: ``progress(done, total, partial)``: called after each finished subtask of a count.
Progress = Callable[[int, int, int], None]

T = TypeVar("T")

STOP_NONE = 0
STOP_TIME = 1
STOP_INTERRUPT = 2
STOP_ERROR = 3
#: Seconds that work is given to notice the stop flag before it is stopped by force.
GRACE = 0.3
#: The same for a supervisor whose worker may itself supervise workers (a count's run of
#: subtasks): longer, so the inner one stops its workers and keeps their results first.
OUTER_GRACE = 2.5 * GRACE
#: How often a waiting thread wakes up to look at the clock and hear Ctrl-C.
NAP = 0.05
#: The longest time limit accepted (about 16 weeks); more is a typo, not a plan.
MAX_SECONDS = 10_000_000


#: Called once when a kernel starts compiling (numba's cache missed; not when a kernel loads from
#: the cache). A first run can sit for half a minute compiling: the command line sets this to
#: say so on stderr. The kernels package calls it (see ``boardpuzzles._kernels``).
on_first_compile: Callable[[], None] | None = None


class TimeLimitReached(Exception):
    """Work stopped at its time limit. For a count, ``partial`` is the sum of the subtasks that
    finished (a lower bound of the answer), ``done`` of ``total`` subtasks."""

    def __init__(self, partial: int = 0, done: int = 0, total: int = 0) -> None:
        super().__init__(f"time limit reached after {done} of {total} subtasks")
        self.partial, self.done, self.total = partial, done, total


class Interrupted(KeyboardInterrupt):
    """Work stopped because the run was interrupted (Ctrl-C); handled as a KeyboardInterrupt."""


class _Abandoned(BaseException):
    """Raised asynchronously in a worker that ignored the stop flag past the grace period."""


def default_jobs() -> int:
    """The cores this process may run on: the jobs of a run that names none."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class Limits:
    """The limits of one run (see the module glossary).

    ``time_limit`` seconds count from the moment the object is made; ``checkpoint`` is the path
    of an SQLite file that records finished subtasks of a count (bound to that count: see
    :mod:`boardpuzzles.checkpoint`), or that file already opened by the caller (who closes it;
    ``checkpoint_file``, with its path as ``checkpoint``); ``scheduler`` a Dask address (``tcp://host:port``) whose
    cluster runs the subtasks; ``jobs`` the local worker threads; ``progress`` is called after
    each finished subtask. ``force=False`` makes the time limit a request only: work that runs
    past it is waited for (the computer player, which answers with its last complete search
    even when compiling its kernels took longer than the move's time); Ctrl-C still forces.

    """

    def __init__(
        self,
        time_limit: float | None = None,
        *,
        checkpoint: str | Checkpoint | None = None,
        scheduler: str | None = None,
        jobs: int = 1,
        progress: Progress | None = None,
        force: bool = True,
    ) -> None:
        if time_limit is not None:
            if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
                raise BoardPuzzlesError(f"the time limit must be a number of seconds, got {time_limit!r}")
            if not math.isfinite(time_limit) or not 0 < time_limit <= MAX_SECONDS:
                raise BoardPuzzlesError(f"the time limit must be more than 0 and at most {MAX_SECONDS:g} s")
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
            raise BoardPuzzlesError(f"jobs must be a whole number >= 1, got {jobs!r}")
        self.time_limit = time_limit
        self.checkpoint_file: Checkpoint | None = None
        self.checkpoint: str | None = None
        if isinstance(checkpoint, str):
            self.checkpoint = checkpoint
        elif checkpoint is not None:
            self.checkpoint_file, self.checkpoint = checkpoint, checkpoint.path
        self.scheduler = scheduler
        self.jobs = jobs
        self.progress = progress
        self.force = force
        self.started = time.monotonic()
        self.deadline = None if time_limit is None else self.started + time_limit
        self._flag: np.ndarray | None = None
        self._early_reason = STOP_NONE  # the reason to stop, until the flag is made
        self._making_flag = threading.Lock()
        #: Threads that ``wait_for`` gave up on: whatever error ends them is the stop's doing (the
        #: exception it raises there may land in numba's compiler and come out as another error).
        self.forced_threads: set[int] = set()
        self._timer: threading.Timer | None = None
        if time_limit is not None:
            self._timer = threading.Timer(time_limit, self.stop, args=(STOP_TIME,))
            self._timer.daemon = True
            self._timer.start()

    def __repr__(self) -> str:
        return f"Limits(time_limit={self.time_limit!r}, jobs={self.jobs}, checkpoint={self.checkpoint!r})"

    # ------------------------------------------------------------------ the stop flag
    @property
    def flag(self) -> np.ndarray:
        """The stop flag that kernels read (see the module glossary), made on first use."""
        flag = self._flag
        if flag is None:
            with self._making_flag:
                if self._flag is None:
                    made = np.zeros(1, dtype=np.int64)
                    made[0] = self._early_reason
                    self._flag = made
                flag = self._flag
        return flag

    def stop(self, reason: int = STOP_INTERRUPT) -> None:
        """Ask every part of the run to stop (the first reason given is kept)."""
        if self._flag is None:
            with self._making_flag:
                if self._flag is None:
                    self._early_reason = self._early_reason or reason
                    return
        if self._flag[0] == STOP_NONE:
            self._flag[0] = reason

    @property
    def reason(self) -> int:
        """Why the run must stop (``STOP_NONE`` while it may go on); the deadline is read from
        the clock too, so the answer is right even before the timer fires."""
        if self._reason() == STOP_NONE and self.deadline is not None and time.monotonic() >= self.deadline:
            self.stop(STOP_TIME)
        return self._reason()

    def _reason(self) -> int:
        flag = self._flag
        return self._early_reason if flag is None else int(flag[0])

    @property
    def stopped(self) -> bool:
        return self.reason != STOP_NONE

    def check(self) -> None:
        """Raise :class:`TimeLimitReached` or :class:`Interrupted` if the run must stop (the
        contract of pure-Python work: call this every so often)."""
        if self.reason != STOP_NONE:
            self.raise_stop()

    def raise_stop(self) -> NoReturn:
        """Raise the exception that matches the flag (after a kernel returned early)."""
        if self.reason == STOP_TIME:
            raise TimeLimitReached()
        raise Interrupted()

    def remaining(self) -> float | None:
        """Seconds left before the deadline (None: no deadline)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def close(self) -> None:
        """Stop the deadline timer (a finished run no longer needs it)."""
        if self._timer is not None:
            self._timer.cancel()

    # ------------------------------------------------------------------ supervised work
    def iterate(self, make: Callable[[], Iterator[T]]) -> Generator[T, None, None]:
        """The items of the iterator ``make()`` returns, each computed on demand in a daemon
        worker thread (so this thread only waits, and hears Ctrl-C): a generator of solutions
        runs its kernels there. Closing this generator early stops the worker."""
        requests: queue.SimpleQueue[bool] = queue.SimpleQueue()
        replies: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()

        def produce() -> None:
            try:
                items = make()
                while requests.get():
                    try:
                        replies.put(("item", next(items)))
                    except StopIteration:
                        replies.put(("end", None))
                        return
            except BaseException as err:  # handed to the waiting thread, which raises it
                replies.put(("error", err))

        worker = threading.Thread(target=produce, name="boardpuzzles-solutions", daemon=True)
        worker.start()
        try:
            while True:
                requests.put(True)
                kind, value = self._reply(replies, worker)
                if kind == "end":
                    return
                if kind == "error":
                    if self._forced_out(value, worker):
                        self.raise_stop()
                    raise value
                yield value
        finally:
            requests.put(False)

    def _reply(self, replies: queue.SimpleQueue[tuple[str, Any]], worker: threading.Thread) -> tuple[str, Any]:
        """The worker's next reply, waiting in naps (Ctrl-C sets the stop flag; a worker that
        neither answers nor stops within the grace periods is given up)."""
        stop_seen: float | None = None
        forced = False
        try:
            while True:
                try:
                    return replies.get(timeout=NAP)
                except queue.Empty:
                    pass
                if not worker.is_alive():
                    try:
                        return replies.get_nowait()
                    except queue.Empty:  # it died without a word: never a silent end of the list
                        if self.stopped:
                            self.raise_stop()
                        raise RuntimeError("the search thread ended without an answer") from None
                reason = self.reason
                if reason == STOP_NONE or (reason == STOP_TIME and not self.force):
                    continue
                now = time.monotonic()
                stop_seen = now if stop_seen is None else stop_seen
                if not forced and now - stop_seen >= OUTER_GRACE and worker.ident is not None:
                    forced = _raise_in(worker.ident, _Abandoned, self.forced_threads)
                if now - stop_seen >= 2 * OUTER_GRACE:
                    self.raise_stop()
        except KeyboardInterrupt:
            self.stop(STOP_INTERRUPT)
            raise Interrupted() from None

    def _forced_out(self, error: BaseException, worker: threading.Thread) -> bool:
        """Whether ``error`` ended a worker that was stopped by force: then the stop is the answer.
        The forced exception may land in a C callback (numba compiling a kernel: llvmlite's
        callbacks swallow it) and the thread then fail with an unrelated error, so any error of a
        forced thread counts, not only one caused by the forced exception."""
        return abandoned(error) or (self.stopped and worker.ident in self.forced_threads)

    def run(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in a daemon worker thread, while this thread waits in short naps:
        Ctrl-C (heard only by the main thread) sets the stop flag, and work that ignores the
        flag is stopped by force after the grace period (see the module glossary). The call's
        result is returned, its exception raised here."""
        box: dict[str, Any] = {}

        def target() -> None:
            try:
                box["value"] = call(*args)
            except BaseException as err:  # handed to the waiting thread, which raises it
                box["error"] = err

        worker = threading.Thread(target=target, name="boardpuzzles-work", daemon=True)
        worker.start()
        try:
            wait_for([worker], self, OUTER_GRACE)
        except KeyboardInterrupt:
            self.stop(STOP_INTERRUPT)
            wait_for([worker], self, OUTER_GRACE)
            raise Interrupted() from None
        error = box.get("error")
        if error is not None and self._forced_out(error, worker):
            self.raise_stop()
        if error is not None:
            raise error
        if "value" not in box:  # abandoned: it never returned
            self.raise_stop()
        value: T = box["value"]
        return value


def wait_for(threads: list[threading.Thread], limits: Limits, grace: float = GRACE) -> None:
    """Wait until the threads end. Once the run must stop, give them ``grace`` seconds to notice
    the flag, then raise an exception inside those still running, and give up on them after
    another ``grace`` (they are daemon threads: they cannot keep the program alive). A time
    limit of ``force=False`` limits is waited out; an interruption is not."""
    stop_seen: float | None = None
    forced = False
    while any(t.is_alive() for t in threads):
        for t in threads:
            t.join(NAP / len(threads))
        reason = limits.reason
        if reason == STOP_NONE or (reason == STOP_TIME and not limits.force):
            continue
        now = time.monotonic()
        if stop_seen is None:
            stop_seen = now
        elif now - stop_seen >= 2 * grace:
            return
        elif not forced and now - stop_seen >= grace:
            left = [t.ident for t in threads if t.is_alive() and t.ident not in limits.forced_threads]
            forced = all([_raise_in(ident, _Abandoned, limits.forced_threads) for ident in left if ident is not None])


def abandoned(err: BaseException) -> bool:
    """Whether ``err`` is (or was caused by) the exception that ``wait_for`` raises in a thread
    still running after the grace of a stop: under a heavy load that is no bug, and the stop
    itself is the answer (numba may wrap it in a SystemError when it lands in a dispatcher)."""
    seen: BaseException | None = err
    for _ in range(8):
        if seen is None:
            return False
        if isinstance(seen, _Abandoned):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def run_in_threads(worker: Callable[[int], None], limits: Limits, finish: Callable[[], None]) -> None:
    """``worker(i)`` for i below ``limits.jobs``, one thread each (with one job, here). ``finish``
    tells the others to end: it is called when a thread fails and once all is over. An error in a
    thread reaches the caller, not the one ``wait_for`` raises in a thread it gave up on; Ctrl-C
    stops every worker."""
    if limits.jobs <= 1:
        worker(0)
        return
    failures: list[BaseException] = []

    def guarded(index: int) -> None:
        try:
            worker(index)
        except BaseException as err:
            if not (abandoned(err) or threading.get_ident() in limits.forced_threads):
                failures.append(err)
            finish()

    threads = [threading.Thread(target=guarded, args=(i,), daemon=True) for i in range(limits.jobs)]
    for thread in threads:
        thread.start()
    try:
        wait_for(threads, limits)
    except KeyboardInterrupt:
        limits.stop(STOP_INTERRUPT)
        raise
    finally:
        finish()
    if failures:
        raise failures[0]


def _raise_in(thread_id: int, exception: type[BaseException], forced: set[int]) -> bool:
    """Raise ``exception`` in another thread at its next Python instruction (CPython only), and
    add the thread to ``forced``; or, while the thread runs numba's or llvmlite's own code, do
    nothing and return False (ask again later). An exception landing there can end the thread
    between numba taking its compiler lock and giving it back: every later compile, in any
    other thread of the process, would then wait forever."""
    _quiet_about_abandoned()
    import ctypes  # noqa: F401 (loaded here, not between the look and the raise: an import lets threads run)

    # The look and the raise must not let the thread run in between (it could enter the
    # compiler): a long switch interval keeps the GIL here for these few instructions.
    with _raising:
        interval = sys.getswitchinterval()
        sys.setswitchinterval(60.0)
        try:
            return _raise_unless_compiling(thread_id, exception, forced)
        finally:
            sys.setswitchinterval(interval)


def _raise_unless_compiling(thread_id: int, exception: type[BaseException], forced: set[int]) -> bool:
    import ctypes  # loaded already by the caller: this finds it in sys.modules

    frame = sys._current_frames().get(thread_id)
    if frame is not None and _calling_from_here(frame):
        return False
    while frame is not None:
        if _COMPILER_CODE.search(frame.f_code.co_filename):
            return False
        frame = frame.f_back
    forced.add(thread_id)
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.py_object(exception))
    return True


#: Where numba's and llvmlite's Python code lives (a forced stop must not land there).
_COMPILER_CODE = re.compile(r"[/\\](numba|llvmlite)[/\\]")
#: This package's own code: the work that may be running a kernel when it is stopped.
_OWN_CODE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _calling_from_here(frame: Any) -> bool:
    """Whether the innermost frame is this package's code inside a call, which may be a kernel's.
    A forced exception set while a kernel runs is raised when numba converts its result (it calls
    back into Python there): the call then returns a value with an exception set (SystemError),
    or the process crashes. Kernels read the stop flag themselves; the raise waits for a moment
    when the thread runs Python code."""
    if not frame.f_code.co_filename.startswith(_OWN_CODE):
        return False
    return frame.f_code.co_code[frame.f_lasti] in _call_opcodes()


@functools.cache
def _call_opcodes() -> frozenset[int]:
    import dis  # only when a stop is forced: start-up stays light

    names = ("CALL", "CALL_FUNCTION", "CALL_METHOD", "CALL_FUNCTION_EX", "CALL_KW")
    return frozenset(dis.opmap[name] for name in names if name in dis.opmap)


_raising = threading.Lock()


_quiet = threading.Lock()


def _quiet_about_abandoned() -> None:
    """Keep Python from reporting :class:`_Abandoned` where it cannot be raised on: in a C callback
    (numba's compiler calls back into Python, and Python prints 'Exception ignored on calling
    ctypes callback function' with a traceback) or at the top of a thread of someone else's. The
    stop is the answer there, said once by the run; the hooks let every other exception through."""
    with _quiet:
        if getattr(sys.unraisablehook, "_boardpuzzles", False):
            return
        unraisable, in_thread = sys.unraisablehook, threading.excepthook

        def unraisable_hook(info: Any) -> None:
            if not _is_abandoned(info.exc_type):
                unraisable(info)

        def thread_hook(args: Any) -> None:
            if not _is_abandoned(args.exc_type):
                in_thread(args)

        unraisable_hook._boardpuzzles = True  # type: ignore[attr-defined]
        sys.unraisablehook = unraisable_hook
        threading.excepthook = thread_hook


def _is_abandoned(kind: type[BaseException] | None) -> bool:
    return isinstance(kind, type) and issubclass(kind, _Abandoned)
