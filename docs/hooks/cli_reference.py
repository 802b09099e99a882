"""MkDocs hook: the CLI reference page, made at build time from the click command tree.

It walks ``boardpuzzles.cli.cli`` through click's own API (``list_commands`` and
``get_command``, so commands that load on demand are found too) and writes each command's help
as ``--help`` prints it: usage, summary, options, examples and exit codes. Nothing on the page
is written by hand, so it cannot drift from the program.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import click
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

PAGE = "reference/cli.md"
WIDTH = 100
#: defaults that name the building machine's core count ("all 2 cores") are shown in general
CORES = re.compile(r"\ball \d+ cores\b")


def _walk(command: click.Command, ctx: click.Context) -> Iterator[tuple[click.Context, click.Command]]:
    yield ctx, command
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            yield from _walk(sub, click.Context(sub, info_name=name, parent=ctx, terminal_width=WIDTH))


def _anchor(path: str) -> str:
    return path.replace(" ", "-")


def cli_reference() -> str:
    from boardpuzzles.cli import cli

    root = click.Context(cli, info_name="boardpuzzles", terminal_width=WIDTH, max_content_width=WIDTH)
    commands = list(_walk(cli, root))
    lines = [
        "# Command-line reference",
        "",
        "Every command's help, as `--help` prints it: usage, options, examples and exit codes.",
        "This page is generated from the program itself each time the site is built.",
        "",
    ]
    lines += ["| command | what it does |", "|---|---|"]
    for ctx, command in commands[1:]:
        path = ctx.command_path
        summary = command.get_short_help_str(limit=200).replace("|", "\\|")
        lines.append(f"| [`{path}`](#{_anchor(path)}) | {summary[:1].upper()}{summary[1:]} |")
    lines.append("")
    for ctx, command in commands:
        path = ctx.command_path
        level = "#" * min(2 + max(path.count(" ") - 1, 0), 4)
        lines += [
            f"{level} {path} {{ #{_anchor(path)} }}",
            "",
            "```text",
            CORES.sub("all cores", command.get_help(ctx)).rstrip(),
            "```",
            "",
        ]
    return "\n".join(lines)


def on_files(files: Files, config: MkDocsConfig) -> Files:
    files.append(File.generated(config, PAGE, content=cli_reference()))
    return files
