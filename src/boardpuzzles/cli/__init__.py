"""The command line: thin. It parses options, calls the library, prints, and picks the exit code.

Every error reaches the user as one line on stderr (``boardpuzzles: error: ...``), never a
traceback; set ``BOARDPUZZLES_DEBUG=1`` to see the traceback of an internal error.
"""

from __future__ import annotations

import difflib
import os
import re
import sys

import click

from boardpuzzles.cli.baikago import make_group as make_baikago
from boardpuzzles.cli.common import (
    CONVENTIONS_HELP,
    EXIT_BAD_INPUT,
    EXIT_CODES_HELP,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    CommandResult,
)
from boardpuzzles.cli.demo import demo, warmup
from boardpuzzles.cli.goishi import make_group as make_goishi
from boardpuzzles.cli.knights_tour import make_group as make_knights_tour
from boardpuzzles.cli.less_than_three import make_group as make_less_than_three
from boardpuzzles.cli.queens import make_group
from boardpuzzles.errors import BoardPuzzlesError


class _ReaderGone(Exception):
    """The reader of our output went away (``head``, a closed pager): a BrokenPipeError under a
    name that click's main does not catch (it turns EPIPE into ``sys.exit(1)``)."""


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise _ReaderGone from None


@click.group(
    "boardpuzzles",
    cls=_Group,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=f"{CONVENTIONS_HELP}\n\n{EXIT_CODES_HELP}\n\n\bRun `boardpuzzles PUZZLE --help` for examples.",
)
@click.version_option(package_name="boardpuzzles", message="%(prog)s %(version)s")
def cli() -> None:
    """Solve, count and draw grid-board puzzles.

    Each puzzle is a command with its own subcommands (solve, count, ...).
    """


cli.add_command(make_group(torus=True))
cli.add_command(make_group(torus=False))
cli.add_command(make_less_than_three())
cli.add_command(make_knights_tour())
cli.add_command(make_baikago())
cli.add_command(make_goishi())
cli.add_command(demo)
cli.add_command(warmup)


def main(argv: list[str] | None = None) -> int:
    code = _run(argv)
    sys.exit(code)


def _run(argv: list[str] | None) -> int:
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
    except (BrokenPipeError, _ReaderGone):
        # The reader (`head`, a closed pager) went away: stop quietly, as having answered. What is
        # still buffered for stdout goes to /dev/null, so the exit flush cannot fail either.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # stdout is not a file descriptor (captured by a test)
            pass
        return 0
    except Exception as err:  # a bug of ours: one line, unless debugging
        if os.environ.get("BOARDPUZZLES_DEBUG"):
            raise
        _error(f"internal error: {type(err).__name__}: {err} (set BOARDPUZZLES_DEBUG=1 for details)")
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
    known = [name for param in ctx.command.params for name in param.opts if name.startswith("--")]
    close = difflib.get_close_matches(word.split("=")[0], known, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return f"no such option: {word}{hint}; see `{ctx.command_path} --help`"


def _error(message: str) -> None:
    try:
        click.echo(f"boardpuzzles: error: {message.strip()}", err=True)
    except BrokenPipeError:  # nobody reads stderr any more: the exit code still says it
        pass
