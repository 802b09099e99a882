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
"""

from __future__ import annotations

import itertools
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

Progress = Callable[[int, int, int], None]


@dataclass(frozen=True)
class Subtask:
    spec: Any  # what ``work`` receives: a tuple of plain values
    weight: int = 1


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
    total = 0
    done = 0

    def record(index: int, value: int) -> None:
        nonlocal total, done
        total += value * subtasks[index].weight
        done += 1
        if progress is not None:
            progress(done, len(subtasks), total // unit)

    indices = iter(range(len(subtasks)))
    # The first subtask runs alone: it compiles (or loads) the kernels once for every thread.
    for i in itertools.islice(indices, 1 if jobs > 1 else None):
        record(i, work(subtasks[i].spec))
    rest = list(indices)
    if rest:
        with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="boardpuzzles") as pool:
            futures = {pool.submit(work, subtasks[i].spec): i for i in rest}
            try:
                pending = set(futures)
                while pending:
                    # A timeout keeps the main thread awake for Ctrl-C while kernels run.
                    finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                    for future in finished:
                        record(futures[future], future.result())
            except BaseException:
                for future in futures:
                    future.cancel()  # queued subtasks never start; running ones end with their subtask
                raise
    if total % unit:
        raise ArithmeticError(f"weighted sum {total} is not a whole number of 1/{unit}: a weighting bug")
    return total // unit


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
