"""A puzzle's parameters as click arguments and options, and the help texts built from them.

``solve``, ``count`` and ``check`` (and a puzzle's own commands) take the same parameters with
:func:`problem_options` and turn a command's keyword arguments back into a problem with
:func:`problem_from`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import click

from boardpuzzles.cli.common import F, OneOf, ParamTypeBase, unknown_option_message
from boardpuzzles.inputs import is_existing_file, read_text
from boardpuzzles.protocol import Entry, Game, Param, Puzzle


class _ParamType(ParamTypeBase):
    """Converts a typed word with the parameter's own parser (one-line errors, exit 2)."""

    def __init__(self, param: Param) -> None:
        self.param = param
        self.name = param.kind

    def convert(self, value: Any, p: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value  # a default
        if value.startswith("--") and ctx is not None:  # an unknown option let through, not a value
            raise click.UsageError(unknown_option_message(value, ctx))
        if self.param.kind == "file":
            # An existing file wins over a look-alike literal (a folder named goishi/...).
            literal = self.param.literal is not None and self.param.literal(value)
            if literal and not is_existing_file(value):
                return value
            if value == "-" and ctx is not None:
                ctx.meta["stdin_read"] = True  # check must not read it again for the answer
            return read_text(value)
        return self.param.parse(value)


def problem_options(params: Sequence[Param]) -> Callable[[F], F]:
    """Click arguments and options for the parameters (positional ones in their order)."""

    def decorate(f: F) -> F:
        for p in reversed(params):
            # Click (8.3 on) takes an explicit default=None as a default: pass none when required.
            default = {} if p.required else {"default": p.default}
            if p.positional:
                name = p.metavar or p.name.upper()
                metavar = name if p.required else f"[{name}]"
                f = click.argument(p.name, metavar=metavar, type=_ParamType(p), required=p.required, **default)(f)
                continue
            names = [p.option] + ([p.short] if p.short else [])
            if p.kind == "flag":
                f = click.option(*names, p.name, is_flag=True, default=bool(p.default), help=p.help)(f)
            elif p.kind == "choice":
                f = click.option(
                    *names,
                    p.name,
                    type=OneOf(p.choices),
                    **default,
                    required=p.required,
                    show_default=not p.required and p.default is not None,
                    help=p.help,
                )(f)
            else:
                f = click.option(
                    *names,
                    p.name,
                    type=_ParamType(p),
                    **default,
                    required=p.required,
                    show_default=not p.required and p.default is not None,
                    metavar=p.metavar or p.kind.upper(),
                    help=p.help,
                )(f)
        return f

    return decorate


def problem_values(params: Sequence[Param], kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The parameter values among a command's keyword arguments."""
    return {p.name: kwargs[p.name] for p in params if p.name in kwargs}


def problem_from(puzzle: Puzzle[Any, Any] | Game, kwargs: Mapping[str, Any]) -> Any:
    """The problem a command's keyword arguments describe."""
    values = problem_values(puzzle.params, kwargs)
    if isinstance(puzzle, Game):
        return puzzle.problem(**values)
    return puzzle.make(**values)


def arguments_help(params: Iterable[Param]) -> str:
    lines = [
        f"  {(p.metavar or p.name.upper()):<9} {p.help}" + ("" if p.required else f" (default: {p.default})")
        for p in params
        if p.positional
    ]
    return "\b\nArguments:\n" + "\n".join(lines) if lines else ""


def examples_help(name: str, examples: Iterable[str]) -> str:
    lines = [f"  boardpuzzles {name} {words}" for words in examples]
    return "\b\nExamples:\n" + "\n".join(lines) if lines else ""


def epilog(*parts: str) -> str:
    return "\n\n".join(part for part in parts if part)


def examples_of(puzzle: Entry, command: str) -> list[str]:
    """The words of the puzzle's examples that run ``command``."""
    return [e.command for e in puzzle.examples if e.command.split()[0] == command]
