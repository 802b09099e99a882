"""Big outputs stay small in memory: long listings stream, and an SVG sheet holds at most
MAX_SHEET_BOARDS boards (the audit: `queens solve 13 --svg` ran out of memory, and `solve 12
--svg` used 2.5 GB to write 195 MB)."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from boardpuzzles.cli.commands import MAX_SHEET_BOARDS

ROOT = Path(__file__).resolve().parent.parent

MEASURE = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print(done.returncode, peak, done.stderr.replace("\\n", " | "))
"""


def peak_megabytes(*args: str) -> tuple[int, int, str]:
    """Run a command in a fresh process and return (exit code, its peak memory in MiB, stderr)."""
    cli = [sys.executable, "-c", "from boardpuzzles.cli import main; main()", *args]
    done = subprocess.run([sys.executable, "-c", MEASURE, *cli], capture_output=True, text=True, cwd=ROOT, timeout=300)
    code, peak, err = done.stdout.split(" ", 2)
    return int(code), int(peak), err


@pytest.mark.slow
def test_an_svg_sheet_is_capped_and_memory_stays_small(tmp_path):
    target = tmp_path / "q12.svg"
    code, peak, err = peak_megabytes("queens", "solve", "12", "--svg", str(target))
    assert code == 0 and f"drew the first {MAX_SHEET_BOARDS} of 14200" in err and "--limit" in err
    assert peak < 500, f"{peak} MiB"
    root = ET.fromstring(target.read_text())
    assert sum(1 for e in root.iter() if e.get("data-piece") == "Q") == MAX_SHEET_BOARDS * 12


@pytest.mark.slow
def test_a_long_json_listing_streams(tmp_path):
    code, peak, _ = peak_megabytes("queens", "solve", "12", "--json")
    assert code == 0 and peak < 300, f"{peak} MiB"


def test_svg_with_a_limit_over_the_sheet_is_refused_before_the_search(capsys):
    from boardpuzzles.cli import _run

    assert _run(["queens", "solve", "12", "--svg", "x.svg", "--limit", str(MAX_SHEET_BOARDS + 1)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--svg draws at most" in err


def test_json_of_a_listing_is_one_document(capsys):
    from boardpuzzles.cli import _run

    assert _run(["queens", "solve", "6", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["count"] == 4 == len(document["solutions"]) and document["complete"] is True  # OEIS A000170
