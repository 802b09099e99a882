"""``goishi generate``: requests that no layout can satisfy are refused at once (each proof checked
here against exhaustive counts), requests on the border of the possible still generate, and a
run that gives up still prints a JSON document with ``--json``."""

from __future__ import annotations

import functools
import itertools
import json
import shutil
from pathlib import Path

import pytest

from boardpuzzles.cli import _run
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.formats import goishi as formats
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import goishi as gh
from boardpuzzles.puzzles.goishi import search
from tests.reference import goishi_orders
from tests.timing import measured

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *args):
    code = _run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "size,stones,fragment",
    [
        ("2", "4", "no full 2x2 board has exactly one order"),
        ("1x5", "5", "on one line the walk runs from one end to the other"),
        ("1x20", "10", "on one line"),
        ("20x1", "2", "on one line"),
        ("3x3", "9", "no full 3x3 board"),
        ("7x7", "49", "no full 7x7 board"),
        ("3x3", "8", "`goishi layouts 3` counts every layout of 3x3 and finds none with more than 1 stone"),
        ("4x4", "11", "finds none with more than 10 stones"),
        ("3x4", "11", "without its empty rows and columns it fits 4x4"),
        ("5x5", "16", "finds none with more than 15 stones"),
        ("6x6", "22", "finds none with more than 21 stones"),
        ("10x10", "2", "2 to 6 stones never do"),
        ("19x19", "6", "2 to 6 stones never do"),
        ("5x5", "26", "do not fit"),  # more stones than points: refused before, still refused
    ],
)
def test_impossible_requests_are_refused_at_once(capsys, size, stones, fragment):
    with measured() as used:
        code, out, err = run(capsys, "goishi", "generate", size, "--stones", stones, "--json")
    assert used.cpu < 10  # CPU seconds; a search would run to the default time limit, 60 s
    assert code == 2 and not out and err.startswith("boardpuzzles: error:") and err.count("\n") == 1
    assert fragment in err


def _has_a_layout_with_one_order(rows: int, cols: int, stones: int) -> bool:
    """Whether some layout of ``stones`` stones on the board has exactly one order, by trying
    every layout (the counter capped at 2)."""
    return any(
        gh.count_at_most(gh.Puzzle(rows, cols, cells), 2) == 1
        for cells in itertools.combinations(range(rows * cols), stones)
    )


def test_no_request_that_could_succeed_is_refused_on_small_boards():
    """Every board up to 4x4 (and 2x7, 1x9), every number of stones: where a request is
    refused, no layout satisfies it. On the square boards the refusals are exact: every
    impossible request is refused."""
    for rows, cols in [(r, c) for r in range(1, 5) for c in range(1, 5)] + [(2, 7), (1, 9)]:
        for stones in range(1, rows * cols + 1):
            reason = gh.impossible_request(rows, cols, stones)
            possible = _has_a_layout_with_one_order(rows, cols, stones)
            assert not (reason is not None and possible), (rows, cols, stones, reason)
            assert reason is not None or possible or rows != cols, (rows, cols, stones)
            assert reason is None or "\n" not in reason
    assert all(gh.impossible_request(*r) for r in ((2, 2, 4), (1, 5, 5), (3, 3, 9)))
    assert gh.impossible_request(1, 1, 1) is None and gh.impossible_request(4, 4, 7) is None


def test_the_table_of_stones_is_the_exhaustive_layout_count(tmp_path, monkeypatch):
    """MOST_UNIQUE_STONES and FEWEST_UNIQUE_STONES against ``unique_layout_counts``: computed for
    1 to 5 a side, read from the committed 6x6 checkpoint (a copy) for 6."""
    for n in range(1, 6):
        by_size = gh.unique_layout_counts(n, Limits(jobs=2)).by_size
        sizes = [k for k, count in enumerate(by_size) if count]
        assert max(sizes) == gh.MOST_UNIQUE_STONES[n], n
        assert [k for k in sizes if k > 1][:1] in ([], [gh.FEWEST_UNIQUE_STONES]), n
    copy = tmp_path / "six.db"
    shutil.copyfile(ROOT / "records" / "goishi-layouts-6.db", copy)
    work = search._layout_piece

    @functools.wraps(work)  # the same plan; a range left to search would be a failure
    def must_not_run(spec, limits):
        raise AssertionError(f"range {spec} is missing from the committed checkpoint")

    monkeypatch.setattr(search, "_layout_piece", must_not_run)
    by_size = gh.unique_layout_counts(6, Limits(checkpoint=str(copy), jobs=1)).by_size
    sizes = [k for k, count in enumerate(by_size) if count]
    assert max(sizes) == gh.MOST_UNIQUE_STONES[6]
    assert min(k for k in sizes if k > 1) == gh.FEWEST_UNIQUE_STONES  # 2 to 6 stones never, on any board
    assert set(gh.MOST_UNIQUE_STONES) == set(range(1, 7))


@pytest.mark.parametrize(
    "rows,cols,stones",
    [
        (4, 4, 10),  # the most on 4x4
        (4, 4, gh.FEWEST_UNIQUE_STONES),  # the fewest beyond one, anywhere
        (5, 5, 15),  # the most on 5x5
        (3, 4, 7),  # fits 4x4 once its empty column is left out: not refused, and possible
        (1, 1, 1),  # one stone is its own order
        (1, 7, 1),
    ],
)
def test_requests_on_the_border_of_the_possible_still_generate(capsys, rows, cols, stones):
    assert gh.impossible_request(rows, cols, stones) is None
    code, out, err = run(capsys, "goishi", "generate", f"{rows}x{cols}", "--stones", str(stones), "--seed", "1")
    assert code == 0, err
    puzzle = formats.read(out).puzzle
    assert (puzzle.rows, puzzle.cols, puzzle.size) == (rows, cols, stones)
    orders = goishi_orders(rows, cols, {puzzle.coords(c) for c in puzzle.stones})  # the plain reference
    assert len(orders) == 1
    order = tuple(r * cols + c for r, c in orders[0])
    assert gh.check(puzzle, order)  # the independent checker


def test_the_library_refuses_the_same_requests():
    with pytest.raises(BoardPuzzlesError, match="no full 3x3 board"):
        gh.generate(3, 3, 9, seed=1)
    with pytest.raises(BoardPuzzlesError, match="2 to 6 stones never do"):
        gh.generate(8, 8, 5, seed=1)


# ---------------------------------------------------------------- giving up with --json
def test_giving_up_with_json_prints_a_document_that_says_nothing_was_generated(capsys, tmp_path):
    # 7 stones on 2 rows fill at most 2x7, where no layout of 7 has one order: the run must give up.
    assert not _has_a_layout_with_one_order(2, 7, 7) and gh.impossible_request(2, 30, 7) is None
    args = ["goishi", "generate", "2x30", "--stones", "7", "--seed", "5", "--time-limit", "0.3", "--json"]
    code, out, err = run(capsys, *args)
    document = json.loads(out)
    assert code == 3 and "gave up" in err and out.count("\n") == 1
    assert document["puzzle"] == "goishi" and document["found"] is False and document["solutions"] == []
    assert document["seed"] == 5 and document["request"] == {"rows": 2, "cols": 30, "stones": 7, "method": "auto"}
    assert document["method"] == "regrow" and document["restarts"] > 0 and document["regrowths"] >= 0
    assert 0 < document["seconds"] < 30 and "no unique 2x30 puzzle" in document["reason"]
    # The same command without --json prints nothing on stdout, with the same exit code.
    assert run(capsys, *args[:-1])[:2] == (3, "")
    # The document holds no puzzle: the commands that read a FILE say so in one line.
    path = tmp_path / "none.json"
    path.write_text(out)
    code, out, err = run(capsys, "goishi", "solve", str(path))
    assert code == 2 and not out and "nothing was generated" in err and err.count("\n") == 1


def test_a_generated_document_says_what_was_found_and_how(capsys):
    code, out, _ = run(capsys, "goishi", "generate", "8", "--stones", "14", "--seed", "3", "--json")
    document = json.loads(out)
    assert code == 0 and document["found"] is True and document["request"]["stones"] == 14
    assert document["method"] in gh.METHODS and document["seconds"] >= 0
    puzzle = formats.read(out).puzzle  # read back from the document itself
    assert gh.count(puzzle) == 1 and puzzle.to_rows() == document["board"]
