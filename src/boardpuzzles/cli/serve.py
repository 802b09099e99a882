"""`boardpuzzles serve`: every puzzle played in a web browser on this computer (and Baikago)."""

from __future__ import annotations

import click

from boardpuzzles.cli.common import Whole, command_settings, games_options, serve_until_stopped


@click.command(
    "serve",
    context_settings=command_settings(),
    epilog="""\b
Opens a web site on this computer only (127.0.0.1): a front page with a card
per puzzle, and a play page for each: new puzzle (size, difficulty), click to
play, every fault shown at once, hint, undo and redo, a link that reopens the
same puzzle. Baikago is at /baikago. Stop it with Ctrl-C.

\b
Games are kept in an SQLite file, --games FILE (default: the file
games.sqlite in $XDG_STATE_HOME/boardpuzzles, else in
~/.local/state/boardpuzzles), so a restart loses none. Up to --max-games
are kept: a solved game, one whose page started another, or one untouched
for a week makes room for a new one; when none can, a new game is refused.

\b
Example:
  boardpuzzles serve --port 8016      # then open http://127.0.0.1:8016/

\b
Exit codes:
  0    stopped
  2    bad options, the port cannot be used, or the game file cannot
       (another server uses it, or it is not a game file)
  70   a bug in boardpuzzles: please report it
  130  interrupted (Ctrl-C)""",
)
@click.option("--port", type=Whole(0, 65535), default=8016, show_default=True, help="0 picks a free port.")
@games_options
def serve(port: int, games_path: str | None, max_games: int) -> None:
    """Play every puzzle in a web browser."""
    from boardpuzzles.web.app import make_app
    from boardpuzzles.web.store import default_path

    games = games_path or default_path().with_name("games.sqlite")
    serve_until_stopped(lambda: make_app(port, games=games, max_games=max_games), port, "Board puzzles")
