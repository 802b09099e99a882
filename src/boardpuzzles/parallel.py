"""Splitting a count into independent subtasks, running them, and reporting progress.

Glossary
--------
subtask   a picklable description of one independent piece of a search (for the queens: the
          columns of the first rows) with a ``weight`` that its result is multiplied by, so
          symmetry can stand in for work (a mirrored prefix is counted once, weight 2).
work      a module-level function ``work(spec) -> int`` that counts one subtask; module-level so
          that worker processes can import it.
progress  a callable ``progress(done, total, partial_answer)`` called after each subtask.

Workers are separate processes started with ``spawn`` (numba kernels and Rich's refresh thread
do not mix with ``fork``). With ``jobs=1`` everything runs in this process. The answer never
depends on ``jobs``: results are added in the order of the subtasks. Ctrl-C stops the workers at
once and raises ``KeyboardInterrupt``.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
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


def _ignore_sigint() -> None:
    # The parent decides what Ctrl-C means; workers just get terminated.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_one(args: tuple[Callable[[Any], int], int, Any]) -> tuple[int, int]:
    work, index, spec = args
    return index, work(spec)


def run_subtasks(
    work: Callable[[Any], int],
    subtasks: Sequence[Subtask],
    *,
    jobs: int = 1,
    progress: Progress | None = None,
) -> int:
    """The weighted sum of ``work(s.spec)`` over the subtasks."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    results: list[int | None] = [None] * len(subtasks)
    total = 0
    done = 0

    def record(index: int, value: int) -> None:
        nonlocal total, done
        results[index] = value
        total += value * subtasks[index].weight
        done += 1
        if progress is not None:
            progress(done, len(subtasks), total)

    if jobs == 1 or len(subtasks) <= 1:
        for i, s in enumerate(subtasks):
            record(i, work(s.spec))
        return total

    # Compile (or load) the kernels here first, so the workers only read the on-disk cache.
    record(0, work(subtasks[0].spec))
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(min(jobs, len(subtasks) - 1), initializer=_ignore_sigint)
    try:
        pending = pool.imap_unordered(_run_one, [(work, i, s.spec) for i, s in enumerate(subtasks) if i > 0])
        for index, value in pending:
            record(index, value)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
    return total


class ProgressBar:
    """A Rich progress bar on stderr that appears only once a count has run for ``delay`` seconds
    (short counts stay silent), and only when stderr is a terminal unless ``force`` is set."""

    def __init__(self, label: str, *, delay: float = 1.0, force: bool = False, unit: str = "solutions") -> None:
        self.label = label
        self.delay = delay
        self.unit = unit
        self.enabled = force or sys.stderr.isatty()
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
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
            from rich.progress import TimeRemainingColumn

            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("subtasks · {task.fields[partial]:,} " + self.unit),
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
