"""What ships speaks of the product only.

The shipped text is the README, the documentation sources (``docs/**/*.md``, ``mkdocs.yml``),
``records/README.md``, every Python file under ``src/`` (its help texts, messages, docstrings
and comments alike) and the scripts and C programs under ``benchmarks/``. None of it may talk
about how the project was developed: work sessions, the machine it was developed on, "our
runs", issue numbers of a tracker outside the repository, helpers, dates of work, commits; nor
name an absolute path of one machine's file system.

The rule for dates: an ISO calendar date (``2026-11-24``) or a time of day in UTC is a date of
work and fails; a year alone (a publication year, "McKay 1997") is data and passes, and so do
version and arXiv numbers (``arXiv:2602.07751``). The rule for paths: ``/work/``, ``/root/``,
``/home/``, ``/tmp/`` and the like fail where they start a path; the same words inside a URL or a
relative path (``docs/tmp/x``) pass, and so do device paths a user may name (``/dev/stdout``).
Examples in help texts use relative paths.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: name -> pattern (case-insensitive). Each names a way of talking about the work, not the product.
FORBIDDEN = {
    "work session": r"\bsessions?\b",
    "development machine": r"\bdevelopment (?:machine|cores?)\b",
    "this machine": r"\bthis machine\b",
    "our runs": r"\bour (?:own )?runs?\b",
    "issue number": r"\bissues? (?:#\s?)?\d+|(?<![\w/&])#\d{1,2}\b",
    "helper": r"\bhelpers?\b",
    "engineer": r"\bengineers?\b",
    "CEO": r"\bCEO\b",
    "coordinator": r"\bcoordinators?\b",
    "commit hash": r"\bcommit [0-9a-f]{7,40}\b",
    "date of work": r"\b20\d\d-[01]\d-[0-3]\d\b",
    "time of work": r"\b[0-2]?\d:[0-5]\d(?:-[0-2]?\d:[0-5]\d)? UTC\b",
    "absolute path": r"(?<![\w.~/-])/(?:work|root|home|tmp|Users|mnt|srv|opt|scratch|data)/",
}
COMPILED = {name: re.compile(pattern, re.IGNORECASE) for name, pattern in FORBIDDEN.items()}


def shipped_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "mkdocs.yml", ROOT / "records" / "README.md"]
    files += sorted((ROOT / "docs").rglob("*.md"))
    files += sorted((ROOT / "src").rglob("*.py"))
    files += sorted(path for path in (ROOT / "benchmarks").rglob("*") if path.suffix in (".py", ".c", ".md"))
    return [path for path in files if path.is_file()]


def hits_in(text: str) -> list[tuple[int, str, str]]:
    """(line number, rule name, the words that broke it) for every forbidden phrase in text."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for name, pattern in COMPILED.items():
            for match in pattern.finditer(line):
                found.append((number, name, match.group(0)))
    return found


def test_the_shipped_text_is_found():
    names = {path.relative_to(ROOT).as_posix() for path in shipped_files()}
    assert "README.md" in names and "records/README.md" in names and "docs/records.md" in names
    assert "src/boardpuzzles/cli/less_than_three.py" in names
    assert "benchmarks/queens_speed.py" in names and "benchmarks/lt3_tuples.c" in names
    assert len([name for name in names if name.startswith("src/")]) >= 30


@pytest.mark.parametrize("path", shipped_files(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_shipped_text_speaks_of_the_product_only(path):
    found = hits_in(path.read_text(encoding="utf-8"))
    where = path.relative_to(ROOT).as_posix()
    assert not found, "\n".join(f"{where}:{line}: {name}: {words!r}" for line, name, words in found)


@pytest.mark.parametrize(
    "text",
    [
        "resumed across four sessions",
        "in the next session",
        "on the development machine",
        "on this project's development cores",
        "on this machine, loaded",
        "In our runs on 2 free cores",
        "quoted in issue #15",
        "see issue 16",
        "(#27)",
        "the plural helper of this session",
        "two engineers' work",
        "asked by the CEO",
        "the fix (commit 10be81b)",
        "Runs of 2026-11-23 on 2 cores",
        "(09:40-09:50 UTC, load average about 10)",
        "the file /work/runs/kt7.db",
        "kept in /tmp/x.db",
        "`/home/user/boardpuzzles`",
        "/root/.cache",
    ],
)
def test_each_rule_can_fail(text):
    assert hits_in(text), text


@pytest.mark.parametrize(
    "text",
    [
        "OEIS A001230 (McKay 1997; Löbbing and Wegener 1996)",
        "Prellberg (arXiv:2602.07751, 2026)",
        "boardpuzzles queens count 8 --json > out/tour.json",
        "write to /dev/stdout",
        "https://puzz.link/p?goishi/19/19/vtsv",
        "docs/tmp/picture.png and ./work/x",
        "2 cores, 24 GiB; 13:50 of wall time",
        "Professional, accessioned and helpful",
    ],
)
def test_product_text_passes(text):
    assert not hits_in(text), hits_in(text)
