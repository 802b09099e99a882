"""What the `baikago` commands share: the rules options, the colour option and printing in colour."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from boardpuzzles.cli.common import OneOf, Whole


def show(text: str, colour: bool) -> None:
    """Print plain text, or Rich markup in colour."""
    if colour:
        from rich.console import Console

        Console(highlight=False, soft_wrap=True, force_terminal=True).print(text)
    else:
        click.echo(text)


def colour_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--colour/--no-colour",
        "--color/--no-color",
        "colour",
        default=None,
        help="Colour the board (default: when stdout is a terminal).",
    )(f)


def wants_colour(colour: bool | None) -> bool:
    return sys.stdout.isatty() if colour is None else colour


def rules_options(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option(
        "--orientations",
        type=OneOf(["+x", "+", "x"]),
        default="+x",
        show_default=True,
        help="Which crosses win: + and x, or one kind only.",
    )(f)
    f = click.option(
        "--max-d",
        type=Whole(min=1),
        default=None,
        metavar="D",
        help="Only crosses with arms at distance D or less win (default: any).",
    )(f)
    return f
