"""`boardpuzzles serve`: every puzzle played in a web browser (and Baikago); how a web server
is started and stopped, shared with `baikago serve`."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, TypeVar

import click

from boardpuzzles import _ctrl_c
from boardpuzzles.cli.common import END_NOTES, Whole, command_settings, games_options

F = TypeVar("F", bound=Callable[..., Any])

#: The address a server listens on unless told otherwise: this computer only.
LOOPBACK = "127.0.0.1"


def host_option(f: F) -> F:
    """``--host ADDRESS`` of the web servers (``host``)."""
    return click.option(
        "--host",
        default=LOOPBACK,
        show_default=True,
        metavar="ADDRESS",
        help="Address to listen on: 0.0.0.0 (or this computer's address) lets other devices on your network play.",
    )(f)


def serve_until_stopped(start: Callable[[], Any], host: str, port: int, title: str, command: str) -> None:
    """Start a web server (``start()``), say where it listens (and, beyond this computer, one
    line of warning), and serve until Ctrl-C or SIGTERM (exit 0): an address or port that
    cannot be used is bad input (exit 2), one line."""
    shown = f"[{host}]" if ":" in host else host
    END_NOTES.compile_time = False  # "stopped" is the last word; the warm-up's compiling is no answer's
    try:
        server = start()
    except OSError as err:
        raise click.UsageError(f"cannot listen on {shown}:{port}: {err.strerror or err}") from None
    try:
        with _quiet_on_kill():  # before the address is said: a stop from then on ends quietly
            _say_where(server, host, title, command)
            server.serve_forever()
    except _Killed:
        pass  # a kill (SIGTERM) is how services are stopped: a quiet end, exit 0
    except KeyboardInterrupt:
        # Ctrl-C is how the pages say to stop it: an ordinary end, not an error
        click.echo("stopped", err=True)
    finally:
        server.server_close()


def _say_where(server: Any, host: str, title: str, command: str) -> None:
    """Where the server listens, on stderr (and, beyond this computer, one line of warning)."""
    from boardpuzzles.web.hosts import HostRules

    shown = f"[{host}]" if ":" in host else host
    bound = server.server_address[1]
    rules = HostRules(host, bound)
    if rules.public:
        where = rules.shared_at(None)
        click.echo(f"{title} on {where}/  (devices on your network can open it; Ctrl-C stops)", err=True)
        click.echo(
            f"{command}: warning: listening on {host}: anyone on your network can open these pages and play",
            err=True,
        )
    else:
        click.echo(f"{title} on http://{shown}:{bound}/  (Ctrl-C stops)", err=True)
    sys.stderr.flush()


class _Killed(Exception):
    """SIGTERM arrived while serving."""


@contextlib.contextmanager
def _quiet_on_kill() -> Iterator[None]:
    """While serving, SIGTERM ends the server quietly (:class:`_Killed`) instead of as an
    interruption (the command line takes it as Ctrl-C: exit 130, one line)."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) not in (
        signal.SIG_DFL,
        _ctrl_c.on_ctrl_c,
    ):
        yield
        return

    def killed(signum: int, frame: FrameType | None) -> None:
        raise _Killed

    previous = signal.signal(signal.SIGTERM, killed)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@click.command(
    "serve",
    context_settings=command_settings(),
    epilog="""\b
Opens a web site on this computer (127.0.0.1): a front page with a card per
puzzle, and a play page for each: new puzzle (size, difficulty), click to
play, wrong moves shown at once, check, hint, undo, redo, restart, show the
solution, a link that reopens the same puzzle. Baikago is at /baikago.
Stop it with Ctrl-C. With --host 0.0.0.0 (or one of this computer's
addresses) other devices on your network can play too, a class or a family:
it says so in one line of warning, and each game's link then works on them.

\b
Games are kept in an SQLite file, --games FILE (default: the file
games.sqlite in $XDG_STATE_HOME/boardpuzzles, else in
~/.local/state/boardpuzzles), so a restart loses none. Up to --max-games
are kept: a new game always gets a place, taken from a solved game, one
whose page started another, else the one untouched longest; one visitor
holds at most a quarter of them. A move the file cannot take (a full disk)
is refused with the reason, and not played.

\b
Example:
  boardpuzzles serve --port 8016      # then open http://127.0.0.1:8016/

\b
Exit codes:
  0    stopped (Ctrl-C, or SIGTERM as a service manager sends it)
  2    bad options, the address or port cannot be used, or the game file
       cannot (another server uses it, or it is not a game file)
  70   a bug in boardpuzzles: please report it""",
)
@click.option("--port", type=Whole(0, 65535), default=8016, show_default=True, help="0 picks a free port.")
@host_option
@games_options
def serve(port: int, host: str, games_path: str | None, max_games: int) -> None:
    """Play every puzzle in a web browser."""
    from boardpuzzles.web.app import make_app
    from boardpuzzles.web.store import default_path

    games = games_path or default_path("games.sqlite")
    serve_until_stopped(
        lambda: make_app(port, games=games, max_games=max_games, host=host),
        host,
        port,
        "Board puzzles",
        "boardpuzzles serve",
    )
