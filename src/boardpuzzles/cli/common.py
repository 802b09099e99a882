"""What every command shares: exit codes, option types, output conventions, safe file writes."""

from __future__ import annotations

import difflib
import json
import math
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.inputs import read_text
from boardpuzzles.limits import MAX_SECONDS
from boardpuzzles.parallel import default_jobs

F = TypeVar("F", bound=Callable[..., Any])

# Exit codes: each means one thing (listed in every --help).
EXIT_ANSWERED = 0
EXIT_NEGATIVE = 1  # no solution / the answer is no
EXIT_BAD_INPUT = 2  # bad input or usage
EXIT_PARTIAL = 3  # stopped at a time limit without a (complete) answer
EXIT_INTERNAL = 70  # a bug in boardpuzzles: please report it
EXIT_INTERRUPTED = 130  # Ctrl-C

EXIT_CODES_HELP = """\b
Exit codes:
  0    answered
  1    no solution, or the answer is no
  2    bad input or usage
  3    stopped at a time limit without a complete answer
  70   a bug in boardpuzzles (no input should cause it): please report it
  130  interrupted (Ctrl-C)"""

CONVENTIONS_HELP = """\b
Output: data on stdout, progress and diagnostics on stderr.
`count` prints the number alone as the last line; --json prints one JSON document."""

#: The most a seed may be (numpy and random take any; numba kernels take 64 bits).
MAX_SEED = 2**63 - 1


class CommandResult(Exception):
    """Raised by a command to end with a given exit code (after printing its output)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class Seconds(click.ParamType):
    """A number of seconds: finite, more than 0 (or at least 0 with ``zero``), at most MAX_SECONDS."""

    name = "seconds"

    def __init__(self, zero: bool = False) -> None:
        self.zero = zero

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float):
            return value
        try:
            seconds = float(str(value)) if len(str(value)) <= 40 else math.nan
        except ValueError:
            self.fail(f"{str(value)[:40]!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds > MAX_SECONDS or seconds < 0 or (seconds == 0 and not self.zero):
            low = "at least 0" if self.zero else "more than 0"
            self.fail(f"{str(value)[:40]!r}: seconds must be {low} and at most {MAX_SECONDS:g}", param, ctx)
        return seconds


SECONDS = Seconds()
SECONDS_OR_ZERO = Seconds(zero=True)
SEED = click.IntRange(0, MAX_SEED)


def command_settings() -> dict[str, Any]:
    # Unknown "options" such as -3 reach the command as arguments, so `count -3` is told that
    # the size must be at least 1 instead of "no such option".
    return {"ignore_unknown_options": True, "help_option_names": ["-h", "--help"]}


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of text.")(f)


def jobs_option(f: F) -> F:
    """``--jobs J``: the command receives ``jobs`` (None means all cores)."""
    return click.option(
        "--jobs",
        "-j",
        type=click.IntRange(min=1, max=4096),
        default=None,
        metavar="J",
        help=f"Parallel workers (default: all {default_jobs()} cores).",
    )(f)


def time_limit_option(default: float | None = None, what: str = "Stop after S seconds (exit 3).") -> Callable[[F], F]:
    return click.option(
        "--time-limit", type=SECONDS, default=default, show_default=default is not None, metavar="S", help=what
    )


def seed_option(help: str = "Seed of the random choices (the same seed gives the same answer).") -> Callable[[F], F]:
    return click.option("--seed", type=SEED, default=0, show_default=True, help=help)


def unknown_option_message(word: str, ctx: click.Context) -> str:
    """ "no such option: --jbos (did you mean --jobs?)", with a pointer to the command's help."""
    known = [name for param in ctx.command.params for name in getattr(param, "opts", []) if name.startswith("--")]
    close = difflib.get_close_matches(word.split("=")[0], known, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return f"no such option: {word[:40]}{hint}; see `{ctx.command_path} --help`"


def note(message: str) -> None:
    """A diagnostic line on stderr."""
    click.echo(message, err=True)


def emit_json(document: dict[str, Any]) -> None:
    text = json.dumps(document)
    click.echo(text if len(text) < 200 else json.dumps(document, indent=1))


def check_writable(path: str) -> Path:
    """The folder a new file at ``path`` would go in; a one-line error if it cannot be written."""
    if not path or len(path) > 4096 or "\x00" in path:
        raise click.UsageError(f"cannot write {path[:40]!r}: not a file name")
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise click.UsageError(f"cannot write {path}: folder {folder} does not exist")
    if target.is_dir():
        raise click.UsageError(f"cannot write {path}: it is a folder")
    if not os.access(folder, os.W_OK):
        raise click.UsageError(f"cannot write {path}: folder {folder} is not writable")
    return folder


def write_file_atomically(path: str, text: str | bytes) -> None:
    """Write via a temporary file in the same folder and rename, so an interrupted or failed write
    never leaves a half-written file where the user's file was. A symlink is written through
    (its target is replaced, the link stays), and an existing file keeps its permissions."""
    real = os.path.realpath(path)
    folder = check_writable(real)
    if os.path.exists(real):
        mode = stat.S_IMODE(os.stat(real).st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{Path(real).name}.", suffix=".tmp")
    try:
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def read_input(path: str) -> str:
    """A file's text, or standard input for ``-``; errors become one-line messages."""
    try:
        return read_text(path)
    except BoardPuzzlesError as err:
        raise click.UsageError(str(err)) from None
