"""`boardpuzzles baikago engine` and `serve`: the computer player for a tournament manager
(Gomocup protocol on stdin and stdout) and in a web page."""

from __future__ import annotations

import sys

import click

from boardpuzzles.cli.baikago.options import rules_options
from boardpuzzles.cli.common import Whole, command_settings, games_options
from boardpuzzles.cli.serve import host_option, serve_until_stopped
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago.rules import MAX_SIZE


@click.command(
    "engine",
    context_settings=command_settings(),
    epilog="""\b
Speaks the Gomocup (Piskvork) protocol on stdin/stdout: START n, BEGIN, TURN x,y,
BOARD ... DONE, TAKEBACK x,y, RESTART, INFO key value, ABOUT, END. Coordinates: x the
column from the left, y the row from the top, from 0. Point a tournament manager at
`boardpuzzles baikago engine` as the brain's command.

\b
Example:
  printf 'START 15\\nBEGIN\\nEND\\n' | boardpuzzles baikago engine

\b
Exit codes:
  0    the input ended (or END)
  2    bad options
  70   a bug in boardpuzzles: please report it
  130  interrupted (Ctrl-C, or SIGTERM)""",
)
@click.option(
    "--strength", type=Whole(1, 4), default=3, show_default=True, help="1 quick and weak ... 4 slow (up to 3 s a move)."
)
@rules_options
def engine(strength: int, max_d: int | None, orientations: str) -> None:
    """Run as a Gomocup engine (brain) on stdin and stdout."""
    from boardpuzzles.puzzles.baikago.protocol import Brain, read_lines, serve

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    serve(read_lines(sys.stdin.buffer), write, Brain(strength, max_d, orientations))


@click.command(
    "serve",
    context_settings=command_settings(),
    epilog="""\b
Opens a web page on this computer (127.0.0.1): click a point to play, the computer
answers; new game, undo, your colour and the computer's strength are on the page.
Stop it with Ctrl-C. With --host 0.0.0.0 other devices on your network can play too.

\b
Games are kept in an SQLite file, --games FILE (default: the file
baikago-games.sqlite in $XDG_STATE_HOME/boardpuzzles, else in
~/.local/state/boardpuzzles), so a restart loses none. Up to --max-games
are kept: a new game always gets a place, taken from a finished game, one
whose page started another, else the one untouched longest; one visitor
holds at most a quarter of them.
The computer's replies share the cores: each comes within about its
strength's time (up to 3 s at strength 4); with many games at once it thinks
less rather than answers later.

\b
Example:
  boardpuzzles baikago serve --port 8015      # then open http://127.0.0.1:8015/

\b
Exit codes:
  0    stopped (Ctrl-C, or SIGTERM as a service manager sends it)
  2    bad options, the address or port cannot be used, or the game file cannot
       (another server uses it, or it is not a game file)
  70   a bug in boardpuzzles: please report it""",
)
@click.option("--port", type=Whole(0, 65535), default=8015, show_default=True, help="0 picks a free port.")
@host_option
@click.option("--size", "-n", type=Whole(3, MAX_SIZE), default=15, show_default=True, metavar="N", help="Board side.")
@rules_options
@games_options
def serve_command(
    port: int, host: str, size: int, max_d: int | None, orientations: str, games_path: str | None, max_games: int
) -> None:
    """Play in a web browser against the computer."""
    from boardpuzzles.web.baikago import make_server
    from boardpuzzles.web.store import default_path

    rules = bk.Rules(size, max_d, orientations)
    games = games_path or default_path("baikago-games.sqlite")
    serve_until_stopped(
        lambda: make_server(port, rules, games=games, max_games=max_games, host=host),
        host,
        port,
        "Baikago",
        "boardpuzzles baikago serve",
    )
