"""The progress bar of long counts: Rich, on stderr, and only in the CLI (the library reports
progress through a plain callback, ``Limits.progress``)."""

from __future__ import annotations

import sys
import time
from typing import Any


class ProgressBar:
    """A Rich progress bar on stderr that appears only once a count has run for ``delay`` seconds
    (short counts stay silent). ``enabled`` defaults to whether stderr is a terminal."""

    def __init__(
        self, label: str, *, delay: float = 1.0, enabled: bool | None = None, counting: str = "solutions"
    ) -> None:
        self.label = label
        self.counting = counting
        self.delay = delay
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.started = time.monotonic()
        self._progress: Any = None
        self._task: Any = None

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
                TextColumn(f"subtasks · {{task.fields[partial]:,}} {self.counting}"),
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
