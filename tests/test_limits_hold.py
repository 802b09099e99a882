"""Limits that hold for the whole command: time (writing a huge answer out is part of the work),
memory before a count starts, and the wait for a Dask scheduler that is not there.

The audit's reproducers: `knights-tour find 2000x2000 --time-limit 20` took 27-28 s and 1.16 GB;
`less-than-three count 40 --colours 7` peaked at 2.3 GB before it started; `--scheduler
tcp://127.0.0.1:1` waited 31 s before failing. Memory is the peak resident size of a child
process (its ``VmHWM``); times are CPU seconds or wall bounds with a wide margin.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardpuzzles.faults import Fault
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import knights_tour as kt
from boardpuzzles.puzzles import less_than_three as lt
from boardpuzzles.puzzles.less_than_three import search as lts

ROOT = Path(__file__).resolve().parent.parent
MB = 1 << 20


def command(*args: str) -> list[str]:
    return [sys.executable, "-c", "from boardpuzzles.cli import main; main()", *args]


def child_peak(script: str) -> tuple[str, int, float]:
    """Run ``script`` in a fresh Python; its stdout, its peak resident bytes and its CPU seconds."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent(script)
            + textwrap.dedent(
                """
                import resource, sys
                usage = resource.getrusage(resource.RUSAGE_SELF)
                # The child's own high-water mark: ru_maxrss also counts the memory of the process
                # that started it (a large test run), which the child shared until it exec'd.
                with open("/proc/self/status") as status:
                    peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
                print(peak, usage.ru_utime + usage.ru_stime, file=sys.stderr)
                """
            ),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    peak, cpu = done.stderr.split()[-2:]
    return done.stdout, int(peak) * 1024, float(cpu)


# ------------------------------------------------------------------ less-than-three: the prefixes
def test_splitting_a_40x40_count_holds_its_prefixes_not_whole_boards():
    # The two first rows of 40x40 can be filled in 165,121 ways (under the symmetry of the
    # first row): held as whole boards of int64 that was 165,121 x 1,600 x 8 bytes = 2.1 GB.
    out, peak, _ = child_peak(
        """
        from boardpuzzles.limits import Limits
        from boardpuzzles.puzzles import less_than_three as lt
        from boardpuzzles.puzzles.less_than_three import search

        prefixes = search._first_rows(lt.Rules(40, 1), Limits(), weigh=True)
        print(len(prefixes), len(prefixes[0]))
        """
    )
    assert out.split() == ["165121", "80"]
    assert peak < 1000 * MB, f"{peak / MB:.0f} MB"


@pytest.mark.parametrize("rules", [lt.Rules(9, 1), lt.Rules(8, 2), lt.Rules(6, 3), lt.Rules(7, 2, stones=5)], ids=str)
@pytest.mark.parametrize("weigh", [False, True])
def test_the_prefixes_are_the_rows_of_the_whole_boards_in_the_same_order(rules, weigh):
    """Reference twin: the listing that keeps whole boards (the plan of a checkpoint depends on
    this list and its order, so it must not change)."""
    limits = Limits()
    n = rules.size
    for rows in (1, 2):
        found, _, _ = lts._run(rules, (), rows, limits, weigh=weigh, stop_after=lts.MAX_PREFIXES + 1)
        if found > lts.MAX_PREFIXES:
            assert lts._prefixes(rules, (), rows, limits, weigh) is None
            continue
        _, _, whole = lts._run(rules, (), rows, limits, capacity=found, weigh=weigh)
        assert lts._prefixes(rules, (), rows, limits, weigh) == [tuple(int(c) for c in b[: rows * n]) for b in whole]
    first = lts._prefixes(rules, (), 1, limits, weigh)[0]
    found, _, _ = lts._run(rules, first, 2, limits, weigh=weigh, stop_after=lts.MAX_PREFIXES + 1)
    _, _, whole = lts._run(rules, first, 2, limits, capacity=found, weigh=weigh)
    assert lts._prefixes(rules, first, 2, limits, weigh) == [tuple(int(c) for c in b[: 2 * n]) for b in whole]


def test_a_hopeless_many_colour_count_starts_without_gigabytes():
    out, peak, _ = child_peak(
        """
        from boardpuzzles.cli import main

        try:
            main(["less-than-three", "count", "40", "--colours", "7", "--time-limit", "8"])
        except SystemExit as end:
            print(end.code)
        """
    )
    assert out == "3\n"  # stopped at the time limit, still listing the one-colour boards
    assert peak < 1000 * MB, f"{peak / MB:.0f} MB"


# ------------------------------------------------------------------ --scheduler
def test_a_refused_scheduler_address_fails_within_seconds():
    pytest.importorskip("distributed")
    with socket.socket() as bound:  # a port that is taken and never listens: every connect is refused
        bound.bind(("127.0.0.1", 0))
        port = bound.getsockname()[1]
        started = time.monotonic()
        done = subprocess.run(
            command("queens", "count", "8", "--scheduler", f"tcp://127.0.0.1:{port}", "-q"),
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
        )
        took = time.monotonic() - started
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert (
        done.stderr
        == f"boardpuzzles: error: cannot reach the Dask scheduler at 'tcp://127.0.0.1:{port}': Connection refused\n"
    )
    assert took < 15, f"{took:.1f} s (Dask alone waits 30 s)"


# ------------------------------------------------------------------ knights-tour find on huge boards
@pytest.mark.slow
def test_finding_and_printing_a_2000x2000_tour_takes_well_under_a_gigabyte(tmp_path):
    # The audit: 1.16 GB (the picture went through a label per square; the check kept a set).
    out, peak, _ = child_peak(
        f"""
        import sys
        from boardpuzzles.cli import main

        sys.stdout = open({str(tmp_path / "tour.txt")!r}, "w")
        try:
            main(["knights-tour", "find", "2000x2000", "--time-limit", "600"])
        except SystemExit as end:
            sys.stdout.close()
            sys.stdout = sys.__stdout__
            print(end.code)
        """
    )
    assert out == "0\n"
    text = (tmp_path / "tour.txt").read_text()
    assert len(text) == 2000 * 2000 * 8  # seven digits and a space or a newline a square
    assert text.split("\n", 1)[0].split()[0] == "1"  # the first square, a2000 (top left)
    assert peak < 900 * MB, f"{peak / MB:.0f} MB"


def test_checking_and_writing_the_tour_out_are_within_the_time_limit():
    # The search is quick; what follows it (here a check made slow on purpose) ran past the
    # limit unchecked: the command printed its board long after the limit and exited 0.
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                """
                import time
                from boardpuzzles.cli import main
                from boardpuzzles.puzzles import knights_tour as kt

                checked = kt.violations

                def slow_check(problem, tour):
                    time.sleep(8)
                    return checked(problem, tour)

                kt.violations = slow_check
                main(["knights-tour", "find", "8", "--time-limit", "4"])
                """
            ),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 3, done.stderr
    assert done.stdout == ""
    assert "but the time limit ran out while it was checked and written out" in done.stderr


@pytest.mark.parametrize("rows, cols", [(1, 1), (3, 4), (5, 5), (4, 11), (10, 10), (32, 33), (100, 101)])
def test_the_picture_of_a_tour_is_the_scenes_text_picture(rows, cols):
    """Reference twin: the scene's text picture (a label per square, right-aligned)."""
    from boardpuzzles.scene import scene_text

    problem = kt.Problem(rows, cols)
    tour = kt.find(rows, cols).tour
    assert tour is not None
    assert kt.picture(rows, cols, tour) == scene_text(kt.to_scene(problem, tour))
    assert kt.PUZZLE.text_of(problem, tour) == scene_text(kt.to_scene(problem, tour))
    assert kt.answer_to_json(problem, tour) == [problem.grid.name(c) for c in tour]
    if len(tour) > 2:  # not a tour any more: drawn by the scene, as it is
        broken = (tour[0], tour[0], *tour[2:])
        assert kt.picture(rows, cols, broken) == scene_text(kt.to_scene(problem, broken))
        assert kt.picture(rows, cols, tour[:-1]) == scene_text(kt.to_scene(problem, tour[:-1]))


@given(st.data())
@settings(max_examples=80)
def test_the_quick_check_agrees_with_the_plain_one(data):
    rows, cols = data.draw(st.integers(1, 7)), data.draw(st.integers(1, 7))
    closed = data.draw(st.booleans())
    found = kt.find(rows, cols, closed=closed).tour
    squares = rows * cols
    base = list(found) if found is not None else data.draw(st.permutations(range(squares)))
    how = data.draw(st.sampled_from(["as is", "swap", "repeat", "drop", "off the board", "shuffle"]))
    tour = list(base)
    if how == "swap" and len(tour) > 1:
        i, j = data.draw(st.integers(0, len(tour) - 1)), data.draw(st.integers(0, len(tour) - 1))
        tour[i], tour[j] = tour[j], tour[i]
    elif how == "repeat" and len(tour) > 1:
        tour[data.draw(st.integers(1, len(tour) - 1))] = tour[0]
    elif how == "drop":
        tour = tour[:-1]
    elif how == "off the board":
        tour[data.draw(st.integers(0, len(tour) - 1))] = data.draw(st.sampled_from([-1, squares, 10**30]))
    elif how == "shuffle":
        tour = data.draw(st.permutations(tour))
    plain = _plain_violations(rows, cols, tuple(tour), closed)
    assert kt._is_tour(rows, cols, tuple(tour), closed) == (plain == [])
    assert kt.tour_violations(rows, cols, tuple(tour), closed) == plain


def _plain_violations(rows: int, cols: int, tour: tuple[int, ...], closed: bool) -> list[Fault]:
    """The checker's plain loops alone (the quick numpy test turned off)."""
    quick = kt._is_tour
    kt._is_tour = lambda *args: False
    try:
        return kt.tour_violations(rows, cols, tour, closed)
    finally:
        kt._is_tour = quick
