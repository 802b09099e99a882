"""What every puzzle command shares: exit codes, options, output conventions, safe file writes."""

from __future__ import annotations

import io
import itertools
import json
import math
import os
import re
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import click

from boardpuzzles.board import Board
from boardpuzzles.errors import MAX_SEED, excerpt
from boardpuzzles.parallel import Checkpoint, ProgressBar, TimeLimitReached, default_jobs, limits

# Exit codes: each means one thing (listed in --help).
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
  3    stopped at a time limit without an answer
  130  interrupted (Ctrl-C)"""

CONVENTIONS_HELP = """\b
Output: data on stdout, progress and diagnostics on stderr.
`count` prints the number alone as the last line; --json prints one JSON document."""


# Option types: every number from the command line is checked here, in one line, before it
# reaches the library (a size of 10**5000, a seed of -1, a time limit of nan).
#: Whole numbers stay within a signed 64-bit word.
MAX_WHOLE = 2**63 - 1
#: Seconds-valued options (time limits) stop at about 16 weeks; NaN and infinity are refused.
MAX_SECONDS = 10_000_000
#: --jobs: threads; more than any machine has cores, few enough that starting them is harmless.
MAX_JOBS = 1024


class Whole(click.ParamType):
    """A whole number in ASCII digits (with an optional sign) from ``min`` to ``max``; anything
    else, a huge number included, is refused in one line before ``int()`` converts it."""

    name = "integer"

    def __init__(self, min: int = -MAX_WHOLE, max: int = MAX_WHOLE) -> None:
        self.min, self.max = min, max

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not re.fullmatch(r"[+-]?[0-9]+", text):
                self.fail(f"{excerpt(text)} is not a valid integer", param, ctx)
            digits = text.lstrip("+-").lstrip("0") or "0"  # int() counts leading zeros against its limit
            if len(digits) > len(str(MAX_WHOLE)):
                self.fail(f"{excerpt(text)} {self.out_of_range()}", param, ctx)
            number = -int(digits) if text.startswith("-") else int(digits)
        if not self.min <= number <= self.max:
            self.fail(f"{excerpt(number)} {self.out_of_range()}", param, ctx)
        return number

    def out_of_range(self) -> str:
        if (self.min, self.max) == (-MAX_WHOLE, MAX_WHOLE):
            return "is too large: whole numbers here fit in 64 bits"
        return f"is out of range: give a whole number from {self.min} to {self.max}"


class Seconds(click.ParamType):
    """A number of seconds: finite, at least 0 (or above 0 unless ``zero`` is allowed), at most
    ``maximum``; ASCII decimal notation (``1.5``, ``2e3``)."""

    name = "seconds"

    def __init__(self, zero: bool = False, maximum: float = MAX_SECONDS) -> None:
        self.zero, self.maximum = zero, maximum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            text, number = repr(value), float(value)
        else:
            text = str(value).strip()
            if not re.fullmatch(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", text):
                try:
                    special = math.isnan(float(text)) or math.isinf(float(text))  # nan, inf, -infinity
                except ValueError:
                    special = False
                what = "a finite number" if special else "a number"
                self.fail(f"{excerpt(text)} is not {what} of seconds", param, ctx)
            number = float(text)  # 1e999 is inf: out of range below
        if not (0 <= number <= self.maximum) or (number == 0 and not self.zero):
            most = f"{self.maximum:,.0f}" if float(self.maximum).is_integer() else f"{self.maximum:g}"
            wanted = f"0 to {most}" if self.zero else f"more than 0 and at most {most}"
            self.fail(f"{excerpt(text)} is out of range: give {wanted} seconds", param, ctx)
        return number


class OutputPath(click.ParamType):
    """A file to write: refused in one line, before any work, when its folder is missing or not
    writable, or when it cannot be a path at all (a name over 255 bytes, a NUL character)."""

    name = "path"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        path = os.fspath(value)
        if not path or "\0" in path:
            self.fail(f"cannot write {_shown_path(path)}: not a file name", param, ctx)
        try:
            check_writable(path)
        except OSError as err:
            self.fail(f"cannot write {_shown_path(path)}: {err.strerror or err}", param, ctx)
        except ValueError:
            self.fail(f"cannot write {_shown_path(path)}: not a file name", param, ctx)
        return path


def _shown_path(path: str) -> str:
    """A path as a message shows it: as typed, unless it is long, empty or holds odd characters."""
    return path if path and len(path) <= 80 and path.isprintable() and path.strip() == path else excerpt(path, 60)


class OneOf(click.Choice):
    """``click.Choice`` whose messages fit on one line (click lists a missing choice one per
    line) and cut a long wrong value short."""

    def get_missing_message(self, param: click.Parameter, ctx: click.Context | None) -> str:
        return "Choose from " + ", ".join(map(str, self.choices))

    def get_invalid_choice_message(self, value: Any, ctx: click.Context | None) -> str:
        return f"{excerpt(str(value))} is not one of {', '.join(map(repr, self.choices))}"


#: Time limits (positive), and pauses between frames (zero allowed; at most a minute, which also
#: keeps a GIF frame, held three times as long at the end, within the format's 655 seconds).
SECONDS = Seconds()
DELAY = Seconds(zero=True, maximum=60)
OUTPUT_PATH = OutputPath()
#: Counts of things wanted (--limit K, --max K).
COUNT = Whole(min=1)
#: Seeds of random generators that take any 63-bit seed.
SEED = Whole(min=0, max=MAX_SEED)


class CommandResult(Exception):
    """Raised by a command to end with a given exit code (after printing its output)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def size_argument(name: str = "N") -> Callable:
    return click.argument(name.lower(), metavar=name, type=Whole())


def json_option(f: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of text.")(f)


def _keep_in_meta(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    ctx.meta[param.name] = value  # read by run_count, so count commands need no extra arguments
    return value


def _checkpoint_path(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value:
        check_writable(value)  # refuse a bad path before any work (or any diagnostic) starts
    return _keep_in_meta(ctx, param, value)


def count_options(f: Callable) -> Callable:
    f = click.option(
        "--checkpoint",
        type=OUTPUT_PATH,
        metavar="FILE",
        expose_value=False,
        callback=_checkpoint_path,
        help="Record finished subtasks in FILE (SQLite); the same command with the same FILE resumes.",
    )(f)
    f = click.option(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        expose_value=False,
        callback=_keep_in_meta,
        help="Run the subtasks on this Dask scheduler's cluster (pip install 'boardpuzzles[distributed]').",
    )(f)
    f = click.option(
        "--time-limit",
        type=SECONDS,
        metavar="S",
        expose_value=False,
        callback=_keep_in_meta,
        help="Stop after S seconds with a partial count (exit 3); see --checkpoint.",
    )(f)
    f = jobs_option(f)
    f = click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr.")(f)
    return json_option(f)


def jobs_option(f: Callable) -> Callable:
    """``--jobs J``: the command receives ``jobs`` (None means all cores)."""
    return click.option(
        "--jobs",
        "-j",
        type=Whole(min=1, max=MAX_JOBS),
        default=None,
        metavar="J",
        help=f"Parallel workers (default: all {default_jobs()} cores).",
    )(f)


def command_settings() -> dict[str, Any]:
    # Unknown "options" such as -3 reach the command as arguments, so `count -3` is told that
    # the size must be at least 1 instead of "no such option".
    return {"ignore_unknown_options": True, "help_option_names": ["-h", "--help"]}


def note(message: str) -> None:
    """A diagnostic line on stderr."""
    click.echo(message, err=True)


def emit_json(document: dict[str, Any]) -> None:
    click.echo(json.dumps(document, indent=None if len(json.dumps(document)) < 200 else 1))


def run_count(label: str, quiet: bool, compute: Callable[[Any], int]) -> tuple[int, float]:
    """Run ``compute(progress)`` with a progress bar that shows only for counts over a second,
    under the command's --time-limit and --checkpoint. A count stopped by its time limit prints
    what it has and ends the command with exit code 3."""
    ctx = click.get_current_context()
    time_limit = ctx.meta.get("time_limit")
    path = ctx.meta.get("checkpoint")
    checkpoint = None
    if path:
        ignored = {"jobs", "quiet", "as_json"}
        parameters = {"command": ctx.command_path, **{k: v for k, v in ctx.params.items() if k not in ignored}}
        checkpoint = Checkpoint(path, parameters)
    scheduler = ctx.meta.get("scheduler")
    started = time.perf_counter()
    try:
        with ProgressBar(label, enabled=False if quiet else None) as bar, limits(time_limit, checkpoint, scheduler):
            value = compute(bar)
    except TimeLimitReached as stop:
        seconds = time.perf_counter() - started
        if stop.total == 1 and stop.done == 0:
            note(
                f"stopped at the time limit ({time_limit:g} s): this count is one sweep that keeps nothing "
                "part way; give it a longer --time-limit, or none"
            )
        else:
            again = (
                "run the same command again to continue"
                if checkpoint
                else "add --checkpoint FILE to keep the finished part for a later run"
            )
            note(
                f"stopped at the time limit ({time_limit:g} s) after {stop.done} of {stop.total} subtasks: "
                f"at least {stop.partial:,} so far; {again}"
            )
        if ctx.params.get("as_json"):
            emit_json(
                {
                    "complete": False,
                    "partial_count": stop.partial,
                    "subtasks_done": stop.done,
                    "subtasks": stop.total,
                    "seconds": round(seconds, 3),
                }
            )
        raise CommandResult(EXIT_PARTIAL) from None
    finally:
        if checkpoint:
            checkpoint.close()
    return value, time.perf_counter() - started


def emit_count(document: dict[str, Any], as_json: bool, seconds: float) -> None:
    if as_json:
        emit_json({**document, "seconds": round(seconds, 3)})
    else:
        click.echo(document["count"])


def stream_boards(
    found: Iterable[Board], violations: Callable[[Board], list[str]], limit: int | None, as_json: bool
) -> list[Board]:
    """Print boards as they come (unless JSON is wanted, which prints once at the end), re-checking
    each with the puzzle's independent checker; returns them."""
    boards = []
    for i, board in enumerate(itertools.islice(found, limit)):
        problems = violations(board)
        if problems:
            raise RuntimeError(f"the search returned a wrong board: {problems[0]}")
        boards.append(board)
        if not as_json:
            click.echo(("\n" if i else "") + spaced_rows(board.rows()))
    return boards


def spaced_rows(rows: Iterable[str]) -> str:
    return "\n".join(" ".join(row) for row in rows)


def check_writable(path: str) -> Path:
    """The folder a new file at ``path`` would go in; a one-line error if it cannot be written."""
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise click.UsageError(f"cannot write {path}: folder {folder} does not exist")
    if target.is_dir():
        raise click.UsageError(f"cannot write {path}: it is a folder")
    if not os.access(folder, os.W_OK):
        raise click.UsageError(f"cannot write {path}: folder {folder} is not writable")
    return folder


def write_boards_svg(path: str, boards: list, titles: list[str] | None = None) -> None:
    """Draw boards into one SVG sheet at ``path`` (numbered #1, #2, ... unless titled)."""
    from boardpuzzles.render.scene import Scene
    from boardpuzzles.render.svg import sheet_svg

    titles = titles or [f"#{i + 1}" for i in range(len(boards))]
    write_file_atomically(path, sheet_svg([Scene.of_board(b, t) for b, t in zip(boards, titles)]))
    note(f"wrote {len(boards)} board{'s' if len(boards) > 1 else ''} to {path}")


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
        with os.fdopen(fd, "wb") if isinstance(text, bytes) else os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


#: The most a FILE (or standard input) may hold: a puzzle picture, a game record or a pick-up
#: order is a few kilobytes, and parsers keep their work proportional to this. Commands that
#: read more (a knight's tour of a large board) pass their own ``limit``.
MAX_INPUT_BYTES = 1 << 20


def read_input(path: str, limit: int = MAX_INPUT_BYTES) -> str:
    """A file's text, or standard input for ``-``: UTF-8, at most ``limit`` bytes, newlines as
    ``\\n``, a leading byte-order mark dropped. It is read in blocks and never more than
    ``limit + 1`` bytes of it (``/dev/zero`` is refused, not read). Every failure is a one-line
    usage error."""
    name = "standard input" if path == "-" else _shown_path(path)
    try:
        if path == "-":
            if sys.stdin is None:
                raise click.UsageError("there is no standard input to read")
            data = _read_at_most(sys.stdin, limit + 1)
        else:
            with open(path, "rb") as handle:
                data = _read_at_most(handle, limit + 1)
    except FileNotFoundError:
        raise click.UsageError(f"no such file: {name}") from None
    except IsADirectoryError:
        raise click.UsageError(f"{name} is a folder, not a file") from None
    except OSError as err:
        raise click.UsageError(f"cannot read {name}: {err.strerror or err}") from None
    except ValueError:  # a NUL character in the name, or a closed stream
        raise click.UsageError(f"cannot read {name}: not a file name") from None
    if len(data) > limit:
        mib = f" ({limit >> 20} MiB)" if limit % (1 << 20) == 0 else ""
        raise click.UsageError(f"{name} is too large: the limit is {limit:,} bytes{mib}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise click.UsageError(f"{name} is not a UTF-8 text file") from None
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _read_at_most(stream: Any, most: int) -> bytes:
    """Up to ``most`` bytes of a binary stream, or of a text stream's bytes (its ``buffer``; a
    text stream without one, as tests use, is read as characters and encoded back), in blocks of
    64 KiB: a single ``read(most)`` would set aside ``most`` bytes before reading any."""
    binary = stream if isinstance(stream, io.RawIOBase | io.BufferedIOBase) else getattr(stream, "buffer", None)
    chunks: list[bytes] = []
    size = 0
    while size < most:
        if binary is not None:
            chunk = binary.read(min(1 << 16, most - size))
        else:
            chunk = stream.read(min(1 << 14, most - size)).encode("utf-8", "surrogateescape")
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)
