"""`boardpuzzles demo` (a short tour of every registered puzzle) and `boardpuzzles warmup`.

Both read the registry: the demo runs each puzzle's examples (its solve and own commands as a
person would type them; its counts compared with their published values), and warmup compiles
each puzzle's kernels. A new puzzle appears in both with no change here.
"""

from __future__ import annotations

import shlex
import time

import click

from boardpuzzles.cli.common import note
from boardpuzzles.limits import Limits
from boardpuzzles.parallel import default_jobs
from boardpuzzles.protocol import Game, Puzzle
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
        seconds = time.perf_counter() - started
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
def warmup() -> None:
    """Compile the search kernels now (they are cached on disk; later runs start fast)."""
    started = time.perf_counter()
    _compile_kernels()
    note(f"kernels ready ({time.perf_counter() - started:.1f}s)")


def _compile_kernels() -> None:
    for entry in registry().values():
        entry.warm()
