"""The README's examples print what the README says they print.

Console blocks: each `$ boardpuzzles ...` line runs as a process of its own (forked from a warm
interpreter, tests/warm.py), stdout and stderr merged as a terminal shows them, and its output
must equal the lines below it; the one-time notes of a first run that compiles kernels
("compiling the search kernels...", "compiled the kernels in ...") are left out, so an example
does not depend on the state of the kernel cache. Python blocks (`pycon`) run as doctests.
tests/test_docs.py runs the documentation pages' examples the same way.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.warm import launcher

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
COMPILE_NOTE = re.compile(r"^compil(ing|ed) the (search )?kernels\b")


def console_examples(text: str) -> list[tuple[str, str]]:
    """(command, expected output) for every `$ ` line of every ```console block."""
    examples = []
    for block in re.findall(r"^```console\n(.*?)^```", text, flags=re.S | re.M):
        command, output = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command:
                    examples.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
        if command:
            examples.append((command, "\n".join(output)))
    return examples


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```pycon\n(.*?)^```", text, flags=re.S | re.M)


def run_console_example(command: str, expected: str) -> None:
    args = shlex.split(command)
    assert args[0] == "boardpuzzles", f"an example runs boardpuzzles, not {args[0]}"
    run = subprocess.run(
        [launcher(), *args[1:]],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "COLUMNS": "100"},
        timeout=120,
    )
    printed = "\n".join(line for line in run.stdout.splitlines() if not COMPILE_NOTE.match(line))
    assert printed.rstrip("\n") == expected.rstrip("\n")


def run_python_blocks(text: str, name: str) -> int:
    """Run the page's pycon blocks as doctests, from the repository root; return the failures."""
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for i, block in enumerate(python_blocks(text)):
        runner.run(parser.get_doctest(block, {}, f"{name} block {i}", name, 0))
    return runner.failures


EXAMPLES = console_examples(README.read_text(encoding="utf-8"))


def test_the_readme_has_an_example_per_puzzle():
    from boardpuzzles.puzzles import registry

    commands = {command.split()[1] for command, _ in EXAMPLES}
    assert set(registry()) <= commands


def test_the_readme_is_a_front_page():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 250


def test_the_readme_picture_exists():
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README.read_text(encoding="utf-8"))
    assert pictures and all((ROOT / p).is_file() for p in pictures)


@pytest.mark.parametrize("command,expected", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_console_example(command, expected):
    run_console_example(command, expected)


def test_python_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    text = README.read_text(encoding="utf-8")
    assert python_blocks(text)
    failures = run_python_blocks(text, "README.md")
    assert failures == 0, f"{failures} README doctest failures (see output above)"
