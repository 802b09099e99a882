"""The documentation site: every page's examples run, and the site builds in strict mode.

Console blocks (`$ boardpuzzles ...` and the lines it prints) and Python blocks (`pycon`
doctests) of every page under docs/ run exactly as the README's do (tests/test_readme.py). The
site is built with `mkdocs build --strict` into a temporary folder: a broken link, a missing
page or a reference that does not resolve fails the test.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.test_readme import ROOT, console_examples, python_blocks, run_console_example, run_python_blocks

DOCS = ROOT / "docs"
PAGES = sorted(p.relative_to(ROOT).as_posix() for p in DOCS.rglob("*.md"))
EXAMPLES = [
    (page, command, expected)
    for page in PAGES
    for command, expected in console_examples((ROOT / page).read_text(encoding="utf-8"))
]
PYTHON_PAGES = [page for page in PAGES if python_blocks((ROOT / page).read_text(encoding="utf-8"))]


def test_every_puzzle_has_a_page_with_examples():
    from boardpuzzles.puzzles import registry

    for name in registry():
        assert f"docs/puzzles/{name}.md" in PAGES
        assert any(page == f"docs/puzzles/{name}.md" for page, _, _ in EXAMPLES), f"no example for {name}"


@pytest.mark.parametrize("page,command,expected", EXAMPLES, ids=[f"{p}: {c}" for p, c, _ in EXAMPLES])
def test_console_example(page, command, expected):
    run_console_example(command, expected)


@pytest.mark.parametrize("page", PYTHON_PAGES)
def test_python_examples(monkeypatch, page):
    monkeypatch.chdir(ROOT)
    failures = run_python_blocks((ROOT / page).read_text(encoding="utf-8"), page)
    assert failures == 0, f"{failures} doctest failures in {page} (see output above)"


def test_the_gallery_shows_every_picture_it_has():
    gallery = (DOCS / "gallery.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"\(gallery/([^)]+\.png)\)", gallery))
    assert shown and shown == {p.name for p in (DOCS / "gallery").glob("*.png")}
    assert sum(p.stat().st_size for p in (DOCS / "gallery").glob("*.png")) < 600_000


def test_the_site_builds_in_strict_mode(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install '.[docs]')")
    pytest.importorskip("mkdocstrings")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    cli = (tmp_path / "site" / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    # the generated CLI reference holds every command of every puzzle, with its exit codes
    from boardpuzzles.puzzles import registry

    for name in registry():
        assert f"boardpuzzles {name}" in cli
    assert "Exit codes" in cli or "exit codes" in cli
