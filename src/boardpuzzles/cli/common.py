"""What every command shares: exit codes, option types, output conventions, safe file writes."""

from __future__ import annotations

import contextlib
import errno
import io
import math
import os
import re
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from boardpuzzles.errors import EXCERPT_LENGTH, MAX_SEED, BoardPuzzlesError, excerpt
from boardpuzzles.files import names_a_folder, replace_file, why_no_new_file, written_in_place
from boardpuzzles.inputs import parse_bytes, read_text
from boardpuzzles.limits import MAX_SECONDS, default_jobs

if TYPE_CHECKING:
    from pathlib import Path

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
  130  interrupted (Ctrl-C, or SIGTERM)"""

#: The exit codes of a count: a count of none is an answer (0 printed, exit 0), never exit 1.
COUNT_EXIT_CODES_HELP = """\b
Exit codes:
  0    counted (0 included: a count of none is an answer, never exit 1)
  2    bad input or usage
  3    stopped at a time limit: the count so far is a lower bound
  70   a bug in boardpuzzles (no input should cause it): please report it
  130  interrupted (Ctrl-C, or SIGTERM)"""

#: The exit codes of the whole command line (``boardpuzzles --help``): a count never exits 1.
ALL_EXIT_CODES_HELP = EXIT_CODES_HELP.replace(
    "the answer is no\n", "the answer is no (not `count`: a count of 0 is an answer, exit 0)\n"
)


class EndNotes:
    """What the command line may say after a command has said its last word."""

    #: How long compiling the kernels took ("compiled the kernels in 9.1 s"): not after a server,
    #: whose compiling was its warm-up, no answer's, and whose last word is "stopped".
    compile_time = True


END_NOTES = EndNotes()


def title_sentence(title: str) -> str:
    """A puzzle's title (a phrase: "the classic N queens puzzle") as the list of commands shows
    it, in the style of the other commands' short help: capitalised, with a full stop."""
    return title[:1].upper() + title[1:].rstrip(".") + "."


CONVENTIONS_HELP = """\b
Output: data on stdout, progress and diagnostics on stderr.
`count` prints the number alone as the last line; --json prints one JSON document."""


class CommandResult(Exception):
    """Raised by a command to end with a given exit code (after printing its output)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


# Option types: every number from the command line is checked here, in one line, before it
# reaches the library (a size of 10**5000, a seed of -1, a time limit of nan).
#: Whole numbers stay within a signed 64-bit word.
MAX_WHOLE = 2**63 - 1
#: --jobs: threads; more than any machine has cores, few enough that starting them is harmless.
MAX_JOBS = 1024


def refuse(what: str, param: click.Parameter | None, ctx: click.Context | None) -> NoReturn:
    """A bad option value in one line, in the wording of the puzzles' own parameters: "--jobs
    must be a whole number from 1 to 1,024, got 0" (as "N must be at least 1, got 0")."""
    raise click.UsageError(f"{option_name(param)} {what}", ctx)


def option_name(param: click.Parameter | None) -> str:
    """How a refusal names the parameter: its longest spelling (--max-d, not -d)."""
    if isinstance(param, click.Option):
        return max(param.opts, key=len)
    return param.human_readable_name if param is not None else "the value"


if TYPE_CHECKING:  # click is generic in its types from 8.3 on; older ones are not subscriptable
    ParamTypeBase = click.ParamType[Any]
    ChoiceBase = click.Choice[str]
else:
    ParamTypeBase = click.ParamType
    ChoiceBase = click.Choice


class Whole(ParamTypeBase):
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
                refuse(f"must be {self.wanted()}, got {excerpt(text)}", param, ctx)
            digits = text.lstrip("+-").lstrip("0") or "0"  # int() counts leading zeros against its limit
            if len(digits) > len(str(MAX_WHOLE)):
                refuse(f"must be {self.wanted()}, got {excerpt(text)}", param, ctx)
            number = -int(digits) if text.startswith("-") else int(digits)
        if not self.min <= number <= self.max:
            refuse(f"must be {self.wanted()}, got {excerpt(number)}", param, ctx)
        return number

    def wanted(self) -> str:
        if (self.min, self.max) == (-MAX_WHOLE, MAX_WHOLE):
            return "a whole number that fits in 64 bits"
        if self.max == MAX_WHOLE:
            return f"a whole number of at least {self.min} that fits in 64 bits"
        return f"a whole number from {self.min:,} to {self.max:,}"


class Seconds(ParamTypeBase):
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
                refuse(f"must be {what} of seconds, got {excerpt(text)}", param, ctx)
            number = float(text)  # 1e999 is inf: out of range below
        if not (0 <= number <= self.maximum) or (number == 0 and not self.zero):
            most = f"{self.maximum:,.0f}" if float(self.maximum).is_integer() else f"{self.maximum:g}"
            wanted = f"from 0 to {most}" if self.zero else f"more than 0 and at most {most}"
            shown = text if len(text) <= EXCERPT_LENGTH else excerpt(text)  # 5,000 nines: cut
            refuse(f"must be {wanted} seconds, got {shown}", param, ctx)
        return number


class ByteSize(ParamTypeBase):
    """A number of bytes, ``20M``, ``1.5G`` or plain (powers of 1024), of at least ``least``:
    :func:`boardpuzzles.inputs.parse_bytes` (``too_little`` says why less will not do). With
    ``unbounded``, that word too (any case), passed on as it is."""

    name = "size"

    def __init__(self, least: int = 1 << 20, too_little: str = "too little", unbounded: str | None = None) -> None:
        self.least, self.too_little, self.unbounded = least, too_little, unbounded

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int | str:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if self.unbounded is not None and str(value).strip().lower() == self.unbounded:
            return self.unbounded
        try:
            return parse_bytes(str(value), option_name(param), self.least, self.too_little, self.unbounded)
        except BoardPuzzlesError as err:
            raise click.UsageError(str(err), ctx) from None


#: What Dask's own parser takes: an optional protocol, a host name, an IPv4 or [IPv6] address, a port.
SCHEDULER_ADDRESS = re.compile(
    r"(?:(?:tcp|tls|ws|wss|ucx|inproc)://)?(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\]):([0-9]{1,5})"
)


class SchedulerAddress(ParamTypeBase):
    """A Dask scheduler's address, ``tcp://host:8786`` or ``host:8786``: refused in one line
    before any work when it cannot be one (Dask itself would answer only after the count began,
    echoing the whole text)."""

    name = "address"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value).strip()
        matched = SCHEDULER_ADDRESS.fullmatch(text)
        if matched is None or not 1 <= int(matched.group(1)) <= 65535:
            refuse(f"must be a Dask scheduler's address like tcp://host:8786, got {excerpt(text)}", param, ctx)
        return text


class OutputPath(ParamTypeBase):
    """A file to write: refused in one line, before any work, when its folder is missing or not
    writable, or when it cannot be a path at all (a name over 255 bytes, a NUL character). With a
    ``suffix`` (a picture's, ``.svg``), a file name must end in it, in any case: a picture in a
    file named for another kind would not open as one. A device or a pipe (``/dev/stdout``), or
    the file behind our own output, is written as it is, whatever its name."""

    name = "path"

    def __init__(self, suffix: str | None = None) -> None:
        self.suffix = suffix

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        path: str = os.fspath(value)
        if not path or "\0" in path:
            self.fail(f"cannot write {shown_path(path)}: not a file name", param, ctx)
        if path == "-":  # would be a file named '-', not the standard output a reader expects
            self.fail("cannot write '-': give a file name (/dev/stdout for the standard output)", param, ctx)
        if ctx is not None:  # two outputs of one command on one file: the second would overwrite the first
            seen: dict[str, str] = ctx.meta.setdefault("boardpuzzles.output_paths", {})
            key = os.path.realpath(path)
            name = param.opts[0] if param is not None and param.opts else "another output"
            if key in seen and seen[key] != name:
                self.fail(f"cannot write {shown_path(path)}: {seen[key]} writes the same file", param, ctx)
            seen[key] = name
        try:
            check_writable(path)
        except OSError as err:
            self.fail(f"cannot write {shown_path(path)}: {err.strerror or err}", param, ctx)
        except ValueError:
            self.fail(f"cannot write {shown_path(path)}: not a file name", param, ctx)
        if self.suffix and not path.lower().endswith(self.suffix) and written_in_place(path) is None:
            kind = self.suffix.lstrip(".").upper()
            raise click.UsageError(
                f"cannot write {shown_path(path)}: {option_name(param)} writes {kind}; "
                f"give a file name ending in {self.suffix}",
                ctx,
            )
        return path


def shown_path(path: str) -> str:
    """A path as a message shows it: as typed, unless it is long, empty or holds odd characters."""
    return path if path and len(path) <= 80 and path.isprintable() and path.strip() == path else excerpt(path, 60)


class OneOf(ChoiceBase):
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
#: Pictures: a file whose name ends in the picture's suffix (or a device or pipe).
SVG_PATH = OutputPath(".svg")
PNG_PATH = OutputPath(".png")
GIF_PATH = OutputPath(".gif")
#: Counts of things wanted (--limit K, --max K).
COUNT = Whole(min=1)
#: Seeds of random generators that take any 63-bit seed.
SEED = Whole(min=0, max=MAX_SEED)


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
        type=Whole(min=1, max=MAX_JOBS),
        default=None,
        metavar="J",
        help=f"Parallel workers (default: all {default_jobs()} cores).",
    )(f)


def time_limit_option(default: float | None = None, what: str = "Stop after S seconds (exit 3).") -> Callable[[F], F]:
    return click.option(
        "--time-limit", type=SECONDS, default=default, show_default=default is not None, metavar="S", help=what
    )


def checkpoint_option(f: F) -> F:
    """``--checkpoint FILE``: the command receives ``checkpoint`` (finished subtasks kept there)."""
    return click.option(
        "--checkpoint",
        type=OUTPUT_PATH,
        metavar="FILE",
        help="Record finished subtasks in FILE (SQLite); the same command with the same FILE resumes.",
    )(f)


def quiet_option(f: F) -> F:
    return click.option("--quiet", "-q", is_flag=True, help="No progress bar or notes on stderr.")(f)


def picture_options(what: str) -> Callable[[F], F]:
    """``--svg PATH`` and ``--png PATH``: the command receives ``svg_path`` and ``png_path``."""

    def decorate(f: F) -> F:
        for kind, path, article in (("png", PNG_PATH, "a"), ("svg", SVG_PATH, "an")):
            f = click.option(
                f"--{kind}",
                f"{kind}_path",
                type=path,
                metavar="PATH",
                help=f"Also draw {what} into {article} {kind.upper()} file.",
            )(f)
        return f

    return decorate


def seed_option(help: str = "Seed of the random choices (the same seed gives the same answer).") -> Callable[[F], F]:
    return click.option("--seed", type=SEED, default=0, show_default=True, help=help)


def unknown_option_message(word: str, ctx: click.Context) -> str:
    """ "no such option: --jbos (did you mean --jobs?)", with a pointer to the command's help."""
    known = [name for param in ctx.command.params for name in getattr(param, "opts", []) if name.startswith("--")]
    import difflib

    close = difflib.get_close_matches(word.split("=")[0], known, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return f"no such option: {word[:40]}{hint}; see `{ctx.command_path} --help`"


def note(message: str) -> None:
    """A diagnostic line on stderr."""
    click.echo(message, err=True)


def emit_json(document: dict[str, Any]) -> None:
    import json

    text = json.dumps(document)
    click.echo(text if len(text) < 200 else json.dumps(document, indent=1))


def check_writable(path: str, probe: bool = True) -> Path:
    """The folder a new file at ``path`` would go in; a one-line error if it cannot be written.
    ``probe``: also make (and remove) a file there; without it, the caller's own write is the test."""
    if not path or len(path) > 4096 or "\x00" in path:
        raise click.UsageError(f"cannot write {shown_path(path)}: not a file name")
    import tempfile
    from pathlib import Path

    target = Path(path)
    folder = target.parent
    shown = shown_path(path)
    if names_a_folder(path):  # Path("outdir/") is Path("outdir"): the file would take the folder's name
        why = f"a file name cannot end in {os.sep}" if path.endswith(os.sep) else "a file name cannot be . or .."
        raise click.UsageError(f"cannot write {shown}: it names a folder ({why})")
    try:
        if not folder.is_dir():
            raise click.UsageError(f"cannot write {shown}: folder {shown_path(str(folder))} does not exist")
        if target.is_dir():
            raise click.UsageError(f"cannot write {shown}: it is a folder")
        if written_in_place(path):  # a device, a pipe or our own output: no new file in the folder
            if not os.access(target, os.W_OK):
                raise click.UsageError(f"cannot write {shown}: not writable")
            return folder
        if not os.access(folder, os.W_OK):
            raise click.UsageError(f"cannot write {shown}: {why_no_new_file(str(folder))}")
        if probe:
            # os.access says yes to root everywhere, and to folders such as /proc that take no new
            # files: make (and remove) an empty file there, so the refusal comes before any search
            try:
                handle, probe_path = tempfile.mkstemp(prefix=".boardpuzzles-", dir=folder)
            except OSError as err:
                raise click.UsageError(f"cannot write {shown}: {why_no_new_file(str(folder), err)}") from None
            os.close(handle)
            os.unlink(probe_path)
    except (OSError, ValueError) as err:  # a name too long for the system, and the like
        raise click.UsageError(f"cannot write {shown}: {getattr(err, 'strerror', None) or err}") from None
    return folder


def write_file_atomically(path: str, text: str | bytes) -> None:
    """Write a user's file whole or not at all (:func:`boardpuzzles.files.replace_file`), after
    checking its folder; failures are one-line usage errors."""
    # A link's target folder is the one written (the write below is the test); a device or pipe
    # (/dev/stdout on a pipe, whose link realpath cannot name) is written as it is.
    check_writable(path if written_in_place(path) else os.path.realpath(path), probe=False)
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    try:
        replace_file(path, [data])
    except OSError as err:  # a full disk, a file system that went read-only: the user's file stays
        folder = os.path.dirname(os.path.realpath(path)) or "."
        reason = err.strerror or str(err)
        if err.errno in (errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOENT) and os.path.isdir(folder):
            reason = why_no_new_file(folder, err)  # the new file beside it could not be made
        raise click.UsageError(f"cannot write {shown_path(path)}: {reason}") from None


# ---------------------------------------------------------------- standard output and error
# Writing the answer is part of the command: a standard output that cannot take it (a full disk,
# a closed descriptor) ends the command with exit 2 and one line on stderr, never with exit 0 and
# the answer lost, nor as an internal error. During a command both standard streams write through
# a guard that remembers the error a write met, so that an OSError is traced to its stream. A
# standard error that cannot take a note changes nothing: the answer still goes to stdout, and
# the exit code is the answer's (as for `solve`, which writes nothing to stderr).
class _Guard(io.RawIOBase):
    """A standard stream's descriptor (None: the process was started without it, ``>&-``, where
    Python sets ``sys.stdout`` to None and click drops what is echoed): writes go to it, and the
    first error one meets is kept in ``error``. ``discard``: writes go nowhere (after a failure).
    ``forgiving`` (standard error): a failed write is dropped, not raised, and so are the next."""

    def __init__(self, fd: int | None, forgiving: bool = False) -> None:
        super().__init__()
        self.fd = fd
        self.error: OSError | None = None
        self.discard = False
        self.forgiving = forgiving

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        if self.fd is None:
            raise io.UnsupportedOperation("the stream is closed")
        return self.fd

    def isatty(self) -> bool:
        return self.fd is not None and os.isatty(self.fd)

    def write(self, data: Any) -> int | None:
        if self.discard:
            return len(data)
        try:
            if self.fd is None:
                raise OSError(errno.EBADF, "it is closed")
            return os.write(self.fd, data)
        except BlockingIOError:  # a non-blocking descriptor that is full for now: the buffer waits
            return None
        except OSError as err:
            self.error = self.error or err
            if self.forgiving:
                self.discard = True
                return len(data)
            raise


#: The guards of the command running now, by stream name.
_GUARDS: dict[str, _Guard] = {}


@contextlib.contextmanager
def standard_streams() -> Iterator[None]:
    """Run a command with its standard output and error behind guards (:class:`_Guard`); a
    closed one gets a stand-in whose every write fails. Streams that are not the process's own
    descriptors (captured by a test) are left as they are."""
    originals: dict[str, Any] = {}
    wrappers: dict[str, Any] = {}
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            fd = None
        elif stream is getattr(sys, f"__{name}__"):
            try:
                fd = stream.fileno()
                stream.flush()
            except (OSError, ValueError, AttributeError):
                continue
        else:
            continue
        guard = _Guard(fd, forgiving=name == "stderr")
        encoding = getattr(stream, "encoding", None) or "utf-8"
        errors = getattr(stream, "errors", None) or "strict"
        line_buffering = bool(getattr(stream, "line_buffering", True))
        wrapped = io.TextIOWrapper(io.BufferedWriter(guard), encoding, errors, line_buffering=line_buffering)
        originals[name], _GUARDS[name], wrappers[name] = stream, guard, wrapped
        setattr(sys, name, wrapped)
    try:
        yield
    finally:
        for name, stream in originals.items():
            guard = _GUARDS.pop(name)
            guard.discard = guard.discard or guard.error is not None
            try:
                wrappers[name].flush()
            except (OSError, ValueError):
                guard.discard = True
            # Put back only what this command set: a stream put in its place meanwhile (by a
            # program that runs commands in-process on other threads) is left as it is.
            if getattr(sys, name) is wrappers[name]:
                setattr(sys, name, stream)


def failed_output() -> OSError | ValueError | None:
    """The error that kept standard output from taking all that was written to it, once it is
    flushed (the final flush is part of the command); None when it took everything. A failed
    stream drops what it still holds, so that the interpreter's own flush at exit cannot fail
    again. Standard error is flushed too, and its failure forgiven (see :class:`_Guard`)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.flush()
    stream, guard = sys.stdout, _GUARDS.get("stdout")
    try:
        if stream is not None:
            stream.flush()
    except (OSError, ValueError) as err:  # ValueError: a stream closed under us
        if guard is None:
            return err
    if guard is not None and guard.error is not None:
        guard.discard = True
        return guard.error
    return None


def output_failure_message(error: OSError | ValueError) -> str:
    """The one line for a standard output that failed: 'cannot write to standard output: No space
    left on device'."""
    reason = error.strerror if isinstance(error, OSError) and error.strerror else "it is closed"
    return f"cannot write to standard output: {reason}"


def read_input(path: str, limit: int | None = None) -> str:
    """A file's text, or standard input for ``-`` (see :func:`boardpuzzles.inputs.read_text`);
    errors become one-line usage errors."""
    try:
        return read_text(path) if limit is None else read_text(path, limit)
    except BoardPuzzlesError as err:
        raise click.UsageError(str(err)) from None


def games_options(f: F) -> F:
    """``--games FILE`` and ``--max-games N`` of the web servers (``games_path``, ``max_games``)."""
    f = click.option(
        "--max-games",
        type=Whole(1, 1_000_000),
        default=1000,
        show_default=True,
        metavar="N",
        help="Games kept at most.",
    )(f)
    return click.option(
        "--games",
        "games_path",
        default=None,
        metavar="FILE",
        help="SQLite file that keeps the games (':memory:': none kept).  [default: per-user state file]",
    )(f)
