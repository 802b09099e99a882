"""The command line: thin. It parses options, calls the library, prints, and picks the exit code.

Every error reaches the user as one line on stderr (``boardpuzzles: error: ...``), never a
traceback; set ``BOARDPUZZLES_DEBUG=1`` to see the traceback of an internal error.
"""

from __future__ import annotations

import functools
import os
import re
import sys
import time

import click

from boardpuzzles import _ctrl_c, compiling
from boardpuzzles import limits as limits_module
from boardpuzzles.cli.common import (
    ALL_EXIT_CODES_HELP,
    CONVENTIONS_HELP,
    END_NOTES,
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_PARTIAL,
    CommandResult,
    failed_output,
    output_failure_message,
    standard_streams,
    title_sentence,
    unknown_option_message,
)
from boardpuzzles.cli.demo import demo, warmup
from boardpuzzles.cli.serve import serve
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.limits import TimeLimitReached
from boardpuzzles.puzzles import catalogue, get


class _ReaderGone(Exception):
    """The reader of our output went away (``head``, a closed pager): a BrokenPipeError under a
    name that click's main does not catch (it turns EPIPE into ``sys.exit(1)``)."""


class _Group(click.Group):
    """The top command. A puzzle's group is made the first time it is run or asked for, from its
    record alone; listing the puzzles (``--help``) reads the registry's light catalogue, which
    imports none of them. ``commands`` holds every group (making them all) for who reads it."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise _ReaderGone from None

    @property  # type: ignore[override]
    def commands(self) -> dict[str, click.Command]:
        for name in catalogue():
            self._own.setdefault(name, _puzzle_group(name))
        return self._own

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:  # click.Group.__init__ sets it
        self._own = value

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self._own, *catalogue()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self._own:
            return self._own[cmd_name]
        return _puzzle_group(cmd_name) if cmd_name in catalogue() else None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their short help, as click lays them out, each puzzle's from the
        catalogue (its title is its group's short help)."""
        listed = catalogue()
        shown = [
            (name, self._own.get(name) or click.Command(name, short_help=title_sentence(listed[name].title)))
            for name in self.list_commands(ctx)
        ]
        shown = [(name, command) for name, command in shown if not command.hidden]
        if shown:
            limit = formatter.width - 6 - max(len(name) for name, _ in shown)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in shown])


@functools.cache
def _puzzle_group(name: str) -> click.Group:
    from boardpuzzles.cli.commands import puzzle_group

    return puzzle_group(get(name))


@click.group(
    "boardpuzzles",
    cls=_Group,
    commands=[demo, warmup, serve],
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=f"{CONVENTIONS_HELP}\n\n{ALL_EXIT_CODES_HELP}\n\n\bRun `boardpuzzles PUZZLE --help` for examples.",
)
@click.version_option(package_name="boardpuzzles", message="%(prog)s %(version)s")
def cli() -> None:
    """Solve, count and draw grid-board puzzles.

    Each puzzle is a command with its own subcommands (solve, count, check, ...).
    """


def main(argv: list[str] | None = None) -> int:
    """The command line: ``argv`` (default: the process's own arguments). It owns its process:
    it ends in ``sys.exit``, deaf to Ctrl-C once the outcome is decided."""
    started = time.perf_counter()
    END_NOTES.compile_time = True
    _ctrl_c.install()
    try:
        code = _run(argv)
        if code in (0, EXIT_PARTIAL):  # after an error or a Ctrl-C, that line is the last word
            _compiled(started)
        _ctrl_c.deafen()
    except KeyboardInterrupt:  # a Ctrl-C just as the command ended, after its own handling
        _ctrl_c.deafen()
        _error("interrupted")
        code = EXIT_INTERRUPTED
    sys.exit(code)


def _compiling() -> None:
    click.echo("compiling the search kernels (once: they are cached for later runs)...", err=True)


def _compiled(started: float) -> None:
    """After a run that compiled kernels: how long that took, apart from the answer's own time
    (the compiling since ``started``, not an earlier command's in the same process). Nothing
    while a kernel is still compiling in an abandoned worker: it is not cached yet."""
    seconds = compiling.compile_seconds(started)
    if seconds > 0 and not compiling.running() and END_NOTES.compile_time:
        try:
            click.echo(f"compiled the kernels in {seconds:.1f} s (once; cached)", err=True)
        except (OSError, ValueError):  # stderr takes nothing (gone, full, closed)
            pass


def _run(argv: list[str] | None) -> int:
    with standard_streams():
        return _finished(_outcome(argv))


def _finished(code: int) -> int:
    """The exit code once what the command wrote has reached its readers: the final flush is part of
    the command (a full disk or a closed output is exit 2, with one line when stdout failed)."""
    error = failed_output()
    if error is None or code in (EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED):
        return code  # a failure already said: its own code stands
    if isinstance(error, BrokenPipeError):
        return code  # the reader went away, as `head` does: quietly, as having answered
    _error(output_failure_message(error))
    return EXIT_BAD_INPUT


def _outcome(argv: list[str] | None) -> int:
    limits_module.on_first_compile = _compiling
    try:
        result = cli.main(args=argv, prog_name="boardpuzzles", standalone_mode=False)
        return result if isinstance(result, int) else 0
    except CommandResult as done:
        return done.code
    except click.exceptions.NoArgsIsHelpError as err:  # a bare group: show its help, not an error
        click.echo(err.ctx.get_help() if err.ctx else "")
        return 0
    except click.ClickException as err:
        _error(_unknown_option(err) or err.format_message())
        return EXIT_BAD_INPUT
    except BoardPuzzlesError as err:
        _error(str(err))
        return EXIT_BAD_INPUT
    except (KeyboardInterrupt, click.exceptions.Abort):
        _error("interrupted")
        return EXIT_INTERRUPTED
    except TimeLimitReached:
        _error("stopped at the time limit")
        return EXIT_PARTIAL
    except (BrokenPipeError, _ReaderGone):
        # The reader (`head`, a closed pager) went away: stop quietly, as having answered. What is
        # still buffered for stdout goes to /dev/null, so the exit flush cannot fail either.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # stdout is not a file descriptor (captured by a test)
            pass
        return 0
    except SystemError as err:
        # numba reports a Ctrl-C that lands while it converts a result as a SystemError whose
        # cause is the KeyboardInterrupt: that is an interruption, not a bug.
        if isinstance(err.__cause__ or err.__context__, KeyboardInterrupt):
            _error("interrupted")
            return EXIT_INTERRUPTED
        return _internal(err)
    except OSError as err:  # a standard output that fails (a full disk) is no bug
        failed = failed_output()
        if failed is None:
            return _internal(err)
        _error(output_failure_message(failed))
        return EXIT_BAD_INPUT
    except Exception as err:  # a bug of ours: one line, unless debugging
        return _internal(err)


def _internal(err: BaseException) -> int:
    if os.environ.get("BOARDPUZZLES_DEBUG"):
        raise err
    _error(
        f"internal error: {type(err).__name__}: {str(err)[:200]} (a bug: please report it; "
        "set BOARDPUZZLES_DEBUG=1 for details)"
    )
    return EXIT_INTERNAL


def _unknown_option(err: click.ClickException) -> str | None:
    """Commands let unknown options through (so that `-5` reaches a command as a size and is
    refused with a reason); one left over is named here as what it is, with a suggestion."""
    match = re.fullmatch(r"Got unexpected extra arguments? \((.*)\)", err.message)
    ctx = getattr(err, "ctx", None)
    if not match or ctx is None:
        return None
    word = next((w for w in match.group(1).split() if re.match(r"-+[A-Za-z]", w)), None)
    if word is None:
        return None
    return unknown_option_message(word, ctx)


def _error(message: str) -> None:
    try:
        one_line = " ".join(message.split())  # the convention is one line, whatever the message holds
        click.echo(f"boardpuzzles: error: {one_line}", err=True)
    except (OSError, ValueError):  # stderr takes nothing (gone, full, closed): the exit code still says it
        pass
