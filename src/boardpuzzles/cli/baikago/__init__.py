"""`boardpuzzles baikago ...`: judge a position; play in the terminal, the browser or as an engine;
solve a small board and verify its proof. One module per command (``engine`` also holds ``serve``); the game loop and
the terminal's board live on the puzzle's side (:mod:`boardpuzzles.puzzles.baikago.terminal`)."""

from __future__ import annotations

from boardpuzzles.cli.baikago.engine import engine, serve_command
from boardpuzzles.cli.baikago.judge import judge
from boardpuzzles.cli.baikago.play import play
from boardpuzzles.cli.baikago.solve import solve_command
from boardpuzzles.cli.baikago.verify import verify_command

__all__ = ["COMMANDS"]

NAME = "baikago"
SHORT_HELP = "plum-blossom go: five stones in a cross win (judge, play, engine, serve)"

COMMANDS = [judge, play, engine, serve_command, solve_command, verify_command]
