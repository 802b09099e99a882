"""The rooms stay small: no module under ``src/boardpuzzles`` is over 600 lines, no function or
method outside the compiled kernels (``_kernels/``) is over 60 lines (from its ``def`` line to
the end of its body, docstring included; decorators not counted), and no string in
``puzzles/`` names ``boardpuzzles.cli`` (the core never names the command line).

Each check names every offender as ``path:line`` with its length, so a failure says what to
split."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "boardpuzzles"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60
CLI = "boardpuzzles.cli"


def _modules(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def _where(path: Path, line: int) -> str:
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    return f"{shown}:{line}"


def long_modules(folder: Path, limit: int = MAX_MODULE_LINES) -> list[str]:
    """``path:1 (N lines)`` for each module under ``folder`` longer than ``limit`` lines."""
    found = []
    for path in _modules(folder):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append(f"{_where(path, 1)} ({lines} lines)")
    return found


def long_functions(folder: Path, limit: int = MAX_FUNCTION_LINES, exempt: Path | None = None) -> list[str]:
    """``path:line name (N lines)`` for each function or method (nested ones too) under
    ``folder`` longer than ``limit`` lines, leaving out the modules under ``exempt``."""
    found = []
    for path in _modules(folder):
        if exempt is not None and path.is_relative_to(exempt):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert node.end_lineno is not None
                length = node.end_lineno - node.lineno + 1  # lineno is the def line, not a decorator's
                if length > limit:
                    found.append(f"{_where(path, node.lineno)} {node.name} ({length} lines)")
    return found


def strings_naming(folder: Path, name: str) -> list[str]:
    """``path:line 'text'`` for each string constant under ``folder`` that contains ``name``."""
    found = []
    for path in _modules(folder):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and name in node.value:
                found.append(f"{_where(path, node.lineno)} {node.value[:80]!r}")
    return found


def test_the_walk_sees_the_whole_package() -> None:
    modules = _modules(PACKAGE)
    assert PACKAGE / "board.py" in modules and PACKAGE / "_kernels" / "__init__.py" in modules
    assert len(modules) > 50 and any(p.is_relative_to(PACKAGE / "puzzles") for p in modules)


def test_no_module_is_over_600_lines() -> None:
    offenders = long_modules(PACKAGE)
    assert not offenders, f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(offenders)


def test_no_function_outside_the_kernels_is_over_60_lines() -> None:
    offenders = long_functions(PACKAGE, exempt=PACKAGE / "_kernels")
    assert not offenders, f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(offenders)


def test_no_string_in_the_puzzles_names_the_cli() -> None:
    offenders = strings_naming(PACKAGE / "puzzles", CLI)
    assert not offenders, f"strings in puzzles/ that name {CLI}:\n" + "\n".join(offenders)


def test_the_checks_find_what_breaks_the_limits(tmp_path: Path) -> None:
    """A package with a module and a method one line over the limits, a kernel as long (exempt)
    and a loader string: each check names its offender, and passes what is just within."""
    body = "".join(f"x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES - 2))
    fine = "def fine():\n" + textwrap.indent(body + "return x0\n", "    ")  # at the limit: within
    long = "class A:\n    @staticmethod\n    def long():\n" + textwrap.indent(body + "x = 1\nreturn x\n", " " * 8)
    package = tmp_path / "pkg"
    (package / "_kernels").mkdir(parents=True)
    (package / "puzzles").mkdir()
    (package / "fine.py").write_text(fine + "\n" * (MAX_MODULE_LINES - fine.count("\n")))
    (package / "long.py").write_text(long)
    (package / "_kernels" / "k.py").write_text(long)
    (package / "big.py").write_text("x = 1\n" * (MAX_MODULE_LINES + 1))
    (package / "puzzles" / "p.py").write_text(f'COMMANDS = "{CLI}.queens:COMMANDS"\nOTHER = "boardpuzzles.grid"\n')

    assert long_modules(package) == [f"{package / 'big.py'}:1 ({MAX_MODULE_LINES + 1} lines)"]
    over = f"{package / 'long.py'}:3 long ({MAX_FUNCTION_LINES + 1} lines)"
    assert long_functions(package, exempt=package / "_kernels") == [over]
    assert len(long_functions(package)) == 2  # the kernel too, when it is not exempt
    assert strings_naming(package / "puzzles", CLI) == [
        f"{package / 'puzzles' / 'p.py'}:1 'boardpuzzles.cli.queens:COMMANDS'"
    ]
