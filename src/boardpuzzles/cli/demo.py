"""`boardpuzzles demo` (a short tour of every registered puzzle) and `boardpuzzles warmup`.

Both read the registry: the demo runs each puzzle's examples (its solve and own commands as a
person would type them; its counts compared with their published values), and warmup compiles
each puzzle's kernels. A new puzzle appears in both with no change here.
"""

from __future__ import annotations

import collections
import os
import shlex
import signal
import sys
import time
from typing import Any

import click

from boardpuzzles.cli.common import note
from boardpuzzles.compiling import search_seconds
from boardpuzzles.limits import Limits, default_jobs
from boardpuzzles.puzzles import registry

#: Lines of one example's output the demo shows.
SHOWN_LINES = 30


def _heading(text: str) -> None:
    click.secho(f"\n== {text}", bold=True)


@click.command(
    "demo",
    context_settings={"help_option_names": ["-h", "--help"]},
    short_help="A short tour of every puzzle, checked against published counts.",
)
def demo() -> None:
    """A short tour of every puzzle: a few of its commands, and counts checked against their
    published values."""
    from boardpuzzles.cli import _run
    from boardpuzzles.protocol import Game, Puzzle  # here: `boardpuzzles --help` loads this module

    note("Preparing the search kernels (compiled on first use, then cached on disk)...")
    _compile_kernels()
    checks = []
    for entry in registry().values():
        _heading(f"{entry.name}: {entry.title}")
        if isinstance(entry, Game) and entry.demo is not None:
            click.echo(entry.demo())
        for example in entry.examples:
            words = shlex.split(example.command)
            if example.expect is not None and isinstance(entry, Puzzle) and words[0] == "count":
                checks.append((entry, example))
                continue
            if words[0] == "check":
                continue  # its files live in the repository, not wherever the demo runs
            click.secho(f"$ boardpuzzles {entry.name} {example.command}", fg="cyan")
            _run([entry.name, *words])
    _heading("Counts (each compared with its published value)")
    for entry, example in checks:
        words = shlex.split(example.command)[1:]
        started = time.perf_counter()
        value = entry.count_of(entry.parse(words), Limits(jobs=default_jobs()))
        seconds = search_seconds(started)
        ok = value == example.expect
        verdict = click.style("ok", fg="green") if ok else click.style("MISMATCH", fg="red")
        command = f"{entry.name} {example.command}"
        click.echo(f"  boardpuzzles {command:<55} {value:>10,}  {verdict} ({example.source})  {seconds:.2f}s")
    click.echo("\nNext: `boardpuzzles PUZZLE --help` for each puzzle's commands and examples.")


@click.command(
    "warmup",
    context_settings={"help_option_names": ["-h", "--help"]},
    short_help="Compile the search kernels now (cached on disk).",
)
@click.option(
    "--jobs",
    type=click.IntRange(1, 1024),
    default=None,
    metavar="N",
    help="Worker processes, each compiling one puzzle's kernels (default: one per core).",
)
def warmup(jobs: int | None) -> None:
    """Compile the search kernels now, every puzzle's in a worker process of its own (they are
    cached on disk; later runs start fast). A progress bar on stderr follows the puzzles."""
    started = time.perf_counter()
    _compile_kernels(jobs)
    note(f"kernels ready ({time.perf_counter() - started:.1f}s)")


def _compile_kernels(jobs: int | None = None) -> None:
    """Every puzzle's kernels compiled into numba's on-disk cache, by ``jobs`` worker processes
    (default: one per core), each taking the next part of a puzzle's warmup as it becomes free;
    with one job, or with the kernels running as plain Python, in this process."""
    parts = [(name, i) for name, entry in registry().items() for i in range(len(entry.warm_parts()))]
    workers = min(jobs or default_jobs(), len(parts))
    with _WarmupBar(parts) as bar:
        if workers <= 1 or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
            for part in parts:
                bar.done(*_warm(part))
            return
        _warm_in_workers(parts, workers, bar)


def _warm_in_workers(parts: list[tuple[str, int]], workers: int, bar: _WarmupBar) -> None:
    """The parts shared out to ``workers`` processes (no more than parts), each taking the next part
    as it becomes free. Each worker talks to this process over a pipe of its own and shares no lock with it or with
    the others, so that a Ctrl-C (which they ignore: this process hears it) or an error ends them
    all at once: killed, nothing can be left waiting on a lock that a killed worker held, as
    ``multiprocessing.Pool.terminate`` can be."""
    import multiprocessing
    from multiprocessing.connection import wait

    # spawn: fresh interpreters, whatever this one holds (threads, a loaded numba)
    context = multiprocessing.get_context("spawn")
    processes = []
    links: list[Any] = []  # this process's ends of the pipes
    finished = False
    try:
        # Started deaf to Ctrl-C (a disposition a new interpreter keeps), so that one pressed while
        # they import ends them through this process, not with a traceback of their own.
        hearing = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            for _ in range(workers):
                mine, theirs = context.Pipe()
                process = context.Process(target=_warm_worker, args=(theirs,), daemon=True)
                processes.append(process)
                process.start()
                theirs.close()
                links.append(mine)
        finally:
            signal.signal(signal.SIGINT, hearing)
        waiting = list(parts)
        busy = list(links)  # the workers with a part under way: at first all (workers <= parts)
        for link in links:
            link.send(waiting.pop(0))
        while busy:
            ready: list[Any] = wait(busy)
            for link in ready:
                outcome = link.recv()  # EOFError: the worker died (killed from outside)
                if outcome[0] == "failed":
                    raise outcome[1] from _WorkerTraceback(outcome[2])
                bar.done(*outcome[1:])
                if waiting:
                    link.send(waiting.pop(0))
                else:
                    link.send(None)  # no more parts: the worker ends
                    busy.remove(link)
        finished = True
    finally:
        for process in processes:
            if not finished and process.pid is not None:
                process.kill()
            if process.pid is not None:
                process.join()


class _WorkerTraceback(Exception):
    """Where an error in a warmup worker came from: its traceback, shown under the error."""


def _warm_worker(link: Any) -> None:
    """A warmup worker: parts in, ("done", puzzle, seconds) or ("failed", error, traceback) out,
    until it is sent None."""
    import traceback

    while (part := link.recv()) is not None:
        try:
            link.send(("done", *_warm(part)))
        except Exception as error:  # the parent raises it
            try:
                link.send(("failed", error, traceback.format_exc()))
            except Exception:  # an error that does not pickle
                link.send(("failed", RuntimeError(repr(error)), traceback.format_exc()))


def _warm(part: tuple[str, int]) -> tuple[str, float]:
    """Compile one part of a puzzle's kernels (in a worker process): its puzzle and its seconds."""
    name, index = part
    started = time.perf_counter()
    registry()[name].warm_parts()[index]()
    return name, time.perf_counter() - started


class _WarmupBar:
    """Progress over the parts of the puzzles' warmups: a Rich bar on a terminal's stderr (with
    the puzzles still compiling), one line per finished puzzle otherwise."""

    def __init__(self, parts: list[tuple[str, int]]) -> None:
        self.left = collections.Counter(name for name, _ in parts)
        self.seconds: collections.defaultdict[str, float] = collections.defaultdict(float)
        self.total = len(parts)
        self.finished = 0
        self._progress: Any = None
        self._task: Any = None
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self._progress = Progress(
                TextColumn("compiling the kernels"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("{task.fields[left]}"),
                console=Console(stderr=True),
                transient=True,
            )
            self._task = self._progress.add_task("kernels", total=self.total, left=self._left())
            self._progress.start()

    def _left(self) -> str:
        return ", ".join(name for name, count in self.left.items() if count)

    def done(self, name: str, seconds: float) -> None:
        self.finished += 1
        self.left[name] -= 1
        self.seconds[name] += seconds
        if self._progress is not None:
            self._progress.update(self._task, completed=self.finished, left=self._left())
        elif not self.left[name]:
            note(f"compiled {name} ({self.seconds[name]:.1f}s)")

    def __enter__(self) -> _WarmupBar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()
