"""Dependencies point one way: the puzzles never name the command line (not even in a string that
a loader could import) and never import the file formats; the CLI registers a puzzle's own
commands."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "boardpuzzles"
PUZZLES = SRC / "puzzles"
CORE = [SRC / "protocol.py", SRC / "limits.py", SRC / "checkpoint.py", SRC / "parallel.py"]


def _modules() -> list[Path]:
    return sorted(PUZZLES.rglob("*.py")) + CORE


def _imported(tree: ast.AST) -> list[str]:
    """Every module an import statement names (``from a import b`` names ``a`` and ``a.b``)."""
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return names


def _refers_to(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_the_core_and_the_puzzles_never_import_the_cli_or_the_formats(path: Path) -> None:
    tree = ast.parse(path.read_text(), str(path))
    wrong = [
        name
        for name in _imported(tree)
        if _refers_to(name, "boardpuzzles.cli") or _refers_to(name, "boardpuzzles.formats")
    ]
    assert not wrong, f"{path.relative_to(SRC)} imports {wrong}"


@pytest.mark.parametrize("path", sorted(PUZZLES.rglob("*.py")), ids=lambda p: str(p.relative_to(SRC)))
def test_no_string_in_the_puzzles_names_the_cli(path: Path) -> None:
    tree = ast.parse(path.read_text(), str(path))
    named = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "boardpuzzles.cli" in node.value
    ]
    assert named == [], path


def test_the_checks_can_fail() -> None:
    """The walks above find what they look for (a module that imports the CLI, a loader string)."""
    tree = ast.parse(
        'from boardpuzzles.cli import commands\nimport boardpuzzles.formats.goishi\nX = "boardpuzzles.cli.x:Y"'
    )
    assert "boardpuzzles.cli.commands" in _imported(tree) and "boardpuzzles.formats.goishi" in _imported(tree)
    assert any(isinstance(n, ast.Constant) and n.value == "boardpuzzles.cli.x:Y" for n in ast.walk(tree))


def test_every_puzzles_own_commands_come_from_the_cli() -> None:
    """The CLI's registry of a puzzle's own commands names registered puzzles, and each module it
    names lists click commands (the records no longer do)."""
    import click

    from boardpuzzles.cli.commands import EXTRA_COMMANDS, extra_commands
    from boardpuzzles.puzzles import registry

    assert set(EXTRA_COMMANDS) <= set(registry())
    for name in EXTRA_COMMANDS:
        commands = extra_commands(name)
        assert commands and all(isinstance(c, click.Command) for c in commands), name
    assert not any(hasattr(entry, "commands") for entry in registry().values())


def test_a_package_registers_a_puzzles_own_commands_by_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands under the entry-point group ``boardpuzzles.commands`` join the puzzle's group,
    loaded only when the group's commands are first listed or asked for."""
    import click

    from boardpuzzles.cli import commands
    from boardpuzzles.puzzles import get

    loaded: list[str] = []

    class Point:
        name = "kings"

        def load(self) -> list[click.Command]:
            loaded.append(self.name)
            return [click.Command("hello", callback=lambda: None)]

    def points(group: str, name: str) -> list[Point]:
        return [Point()] if (group, name) == (commands.COMMANDS_ENTRY_POINT_GROUP, "kings") else []

    monkeypatch.setattr(commands, "entry_points", points)
    group = commands.puzzle_group(get("kings"))
    assert loaded == []
    assert group.get_command(click.Context(group), "count") is not None and loaded == []
    assert sorted(group.commands) == ["check", "count", "hello", "solve"] and loaded == ["kings"]
