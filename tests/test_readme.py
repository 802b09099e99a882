"""The README's examples print what the README says they print.

Console blocks: each `$ boardpuzzles ...` line runs as a real process (stdout and stderr merged,
as a terminal shows them) and its output must equal the lines below it. Python blocks (`pycon`)
run as doctests.
"""

import doctest
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def console_examples() -> list[tuple[str, str]]:
    examples = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.S):
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


EXAMPLES = console_examples()


def test_the_readme_has_examples():
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize("command,expected", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_console_example(command, expected):
    args = shlex.split(command)
    assert args[0] == "boardpuzzles"
    run = subprocess.run(
        [sys.executable, "-c", "from boardpuzzles.cli import main; main()", *args[1:]],
        cwd=ROOT,
        capture_output=False,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "COLUMNS": "100"},
        timeout=120,
    )
    assert run.stdout.rstrip("\n") == expected.rstrip("\n")


def test_python_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```pycon\n(.*?)```", README, flags=re.S)
    assert blocks
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for i, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README block {i}", "README.md", 0))
    assert runner.failures == 0, f"{runner.failures} README doctest failures (see output above)"
