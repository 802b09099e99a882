"""Goishi Hiroi: published puzzles, reference twins, the checker, formats, the generator, the CLI.

Known answers come from tests/data/goishi/published_instances.md, which names the source of
every board and solution: gridpuzzle.com via newtomsoft/Puzzles-Solver, the "Zen Solitaire" levels of "100 Logic
Games 2" via zwvista/PSL, PencilBox's sample, the pzprjs test vector, and the counts of the
exercise boards from umeya/puzzle_alogorithm_python.
"""

from __future__ import annotations

import itertools
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardpuzzles.cli import _run
from boardpuzzles.errors import BoardPuzzlesError, ParseError, SizeError
from boardpuzzles.faults import messages
from boardpuzzles.formats import goishi as formats
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import goishi as gh
from tests.reference import goishi_orders, goishi_seed_first

DATA = Path(__file__).parent / "data" / "goishi"
INSTANCES = (DATA / "published_instances.md").read_text(encoding="utf-8")


def _full_instances() -> list[tuple[str, gh.Puzzle, gh.Order, str]]:
    """Section 1: (name, puzzle, the source's order, the URL given for it)."""
    found = []
    for block in re.split(r"^### ", INSTANCES, flags=re.M)[1:]:
        head = block.split("\n", 1)[0]
        if not re.match(r"1\.\d+ ", head):
            continue
        name = head.split()[1]
        board = re.search(r"Board:\n```\n(.*?)```", block, flags=re.S).group(1).split()
        puzzle = gh.Puzzle.from_rows(board)
        pairs = re.search(r"Order as \(row, col\): (.*)", block).group(1)
        order = gh.parse_order(puzzle, pairs)
        url = re.search(r"URL: `(goishi/[^`]+)`", block).group(1)
        found.append((name, puzzle, order, url))
    return found


def _levels() -> list[tuple[str, gh.Puzzle, gh.Order]]:
    """Section 3: the 200 Zen Solitaire levels in one-line form."""
    found = []
    for number, rows, pairs in re.findall(r"^(\d{3}) \| \S+ \| +\d+ \| ([.O/]+) \| ([\d, ]+)$", INSTANCES, flags=re.M):
        puzzle = gh.Puzzle.from_rows(rows.split("/"))
        found.append((number, puzzle, gh.parse_order(puzzle, " ".join(f"({p})" for p in pairs.split()))))
    return found


FULL = _full_instances()
LEVELS = _levels()
PZPRJS_URL = "https://puzz.link/p?goishi/6/7/vsten1tvo"
PZPRJS_SOLVED = (
    "pzprv3/goishi/7/6/. . . . . . /. . 9 10 . . /. 5 . 4 . . /. 6 . 3 . . /. 7 8 2 1 . /. . . 11 . . /. . . . . . /"
)


def test_the_instance_file_is_read_whole():
    assert len(FULL) == 23 and len(LEVELS) == 200
    assert sum(p.size for _, p, _ in LEVELS) == sum(
        int(n) for n in re.findall(r"^\d{3} \| \S+ \| +(\d+) \|", INSTANCES, flags=re.M)
    )


@pytest.mark.parametrize("name,puzzle,order,url", FULL, ids=[f[0] for f in FULL])
def test_published_instance_has_exactly_the_sources_solution(name, puzzle, order, url):
    assert gh.check(puzzle, order), gh.violations(puzzle, order)
    assert list(gh.solutions(puzzle)) == [order]
    assert gh.count(puzzle) == 1 and gh.is_unique(puzzle)
    # The URL the file gives decodes to the same board and our encoder writes it back.
    assert formats.read(url).puzzle == puzzle
    assert formats.write(puzzle, "url") == formats.URL_PREFIX + url


def test_all_200_zen_solitaire_levels_are_unique_with_the_sources_solution():
    for number, puzzle, order in LEVELS:
        assert gh.check(puzzle, order), (number, gh.violations(puzzle, order))
        assert gh.first_two(puzzle) == (order, None), number
        assert gh.count_at_most(puzzle, 2) == 1, number


@pytest.mark.parametrize(
    "rows,count",
    [
        ("O.O../OOO../..OOO/..O..", 1),  # goishi2_78
        ("OOOO/.OOO/..OO/...O", 4),  # goishi2_80Q1
        ("OOOOO/.O..O/.O..O/.OOOO/....O", 2),  # goishi2_80Q2
        (".O..O./OOOOOO/.O..O./.O..O./OOOOOO/.O..O.", 7256),  # goishi2_80Q3
    ],
)
def test_exercise_boards_have_the_published_counts(rows, count):
    puzzle = gh.Puzzle.from_rows(rows.split("/"))
    assert gh.count(puzzle) == count
    assert gh.count_at_most(puzzle, 3) == min(count, 3)
    orders = list(gh.solutions(puzzle))
    assert len(orders) == len(set(orders)) == count
    assert all(gh.check(puzzle, o) for o in orders)


def test_the_pzprjs_solved_file_is_the_unique_answer():
    document = formats.read(PZPRJS_SOLVED)
    assert document.format == "pzprv3" and document.puzzle == formats.read(PZPRJS_URL).puzzle
    assert gh.first_two(document.puzzle) == (document.order, None)


# ---------------------------------------------------------------- reference twins
@st.composite
def small_boards(draw, max_side=5, max_stones=8):
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    cells = draw(st.sets(st.integers(0, rows * cols - 1), min_size=1, max_size=min(max_stones, rows * cols)))
    return gh.Puzzle(rows, cols, tuple(cells))


def _as_cells(puzzle, orders):
    return [tuple(r * puzzle.cols + c for r, c in o) for o in orders]


@pytest.mark.nojit
@given(small_boards())
def test_kernel_lists_the_same_orders_as_the_plain_reference(puzzle):
    stones = {puzzle.coords(c) for c in puzzle.stones}
    expected = _as_cells(puzzle, goishi_orders(puzzle.rows, puzzle.cols, stones))
    assert list(gh.solutions(puzzle)) == expected  # same orders, same order of discovery
    assert gh.count(puzzle) == len(expected)
    assert gh.count_at_most(puzzle, 2) == min(2, len(expected))
    seed = goishi_seed_first(puzzle.rows, puzzle.cols, stones)
    assert gh.solve(puzzle) == (None if seed is None else _as_cells(puzzle, [seed])[0])


@given(small_boards(max_side=6, max_stones=11), st.data())
def test_counts_after_a_prefix_add_up(puzzle, data):
    total = gh.count(puzzle)
    if total == 0:
        return
    order = data.draw(st.sampled_from(list(gh.solutions(puzzle))))
    k = data.draw(st.integers(1, len(order)))
    prefix = order[:k]
    expected = sum(1 for o in gh.solutions(puzzle) if o[:k] == prefix)
    assert gh.Counter(puzzle)(prefix) == expected
    assert list(gh.solutions(puzzle, prefix=prefix)) == [o for o in gh.solutions(puzzle) if o[:k] == prefix]


def test_a_memo_that_cannot_grow_still_gives_exact_answers(monkeypatch):
    puzzle = gh.Puzzle.from_rows(".O..O./OOOOOO/.O..O./.O..O./OOOOOO/.O..O.".split("/"))
    monkeypatch.setattr(gh.search, "MAX_MEMO_SLOTS", 1 << 12)  # the table's starting size: full soon
    assert gh.count(puzzle) == 7256
    assert sum(1 for _ in gh.solutions(puzzle)) == 7256


def test_one_stone_and_unsolvable_boards():
    assert list(gh.solutions("..O")) == [(2,)]
    crossed = gh.Puzzle.from_rows(["O.O", "...", "O.O", "..."])  # a square's corners: solvable
    assert gh.count(crossed) == 8
    apart = gh.Puzzle.from_rows(["O.", ".O"])  # no shared row or column
    assert gh.count(apart) == 0 and gh.solve(apart) is None and gh.first_two(apart) == (None, None)


def test_more_stones_than_the_kernel_word_is_a_size_error():
    puzzle = gh.Puzzle(9, 9, tuple(range(65)))
    with pytest.raises(SizeError, match="at most 64"):
        gh.count(puzzle)
    assert messages(gh.violations(puzzle, ())) == ["the order is empty"]  # the checker has no such limit


# ---------------------------------------------------------------- the checker
PZ = formats.read(PZPRJS_URL).puzzle
ANSWER = formats.read(PZPRJS_SOLVED).order


@pytest.mark.parametrize(
    "order_text,expected",
    [
        ("e3 d3 d4 d5 b5 b4 b3 c3 c6 d6 d2", None),
        ("e3 d3 d5", "step 3: d3 -> d5 passes over d4, a stone still on the board"),
        ("e3 d3 e3", "step 3: e3 was already picked up at step 1"),
        ("e3 d3 d4 d5 b5 b4 b3 c3 c6 d6 d5", "step 11: d5 was already picked up at step 4"),
        ("e3 a3", "step 2: a3 is an empty point, not a stone"),
        ("e3 c6", "step 2: e3 -> c6 is not along a row or a column"),
        ("e3 d3 d4 d3", "step 4: d3 was already picked up at step 2"),
        ("d4 d5 d4", "step 3: d4 was already picked up at step 1"),
        ("e3 d3 d4 d5 b5 b4 b3 c3 c6 d6", "1 stone left on the board: d2"),
        ("b5 b4 b3 c3 d3 d4 d5", "4 stones left on the board: c6 d6 e3 d2"),
        ("", "the order is empty"),
    ],
)
def test_checker_names_the_first_illegal_step(order_text, expected):
    order = gh.parse_order(PZ, order_text) if order_text else ()
    problem = gh.first_problem(PZ, order)
    assert (None if problem is None else str(problem)) == expected
    assert messages(gh.violations(PZ, order)) == ([] if expected is None else [expected])


def test_checker_refuses_a_reversal():
    puzzle = gh.Puzzle.from_rows(["OOO"])
    assert str(gh.first_problem(puzzle, (1, 2, 0))) == "step 3: c1 -> a1 turns back the way the walk came"
    assert gh.first_problem(puzzle, (0, 1, 2)) is None


@pytest.mark.nojit
@given(small_boards(max_side=5, max_stones=7), st.data())
def test_checker_accepts_exactly_the_reference_orders(puzzle, data):
    stones = {puzzle.coords(c) for c in puzzle.stones}
    legal = set(_as_cells(puzzle, goishi_orders(puzzle.rows, puzzle.cols, stones)))
    order = tuple(data.draw(st.permutations(list(puzzle.stones))))
    assert gh.check(puzzle, order) == (order in legal)


def test_orders_are_read_as_names_or_pairs():
    assert gh.parse_order(PZ, "(4,4) (4,3)") == gh.parse_order(PZ, "e3 d3") == gh.parse_order(PZ, "4,4 4,3")
    with pytest.raises(ParseError, match="order item 2"):
        gh.parse_order(PZ, "e3 zz99")
    with pytest.raises(ParseError, match=r"order item 1: \(9,9\) is off"):
        gh.parse_order(PZ, "(9,9)")


# ---------------------------------------------------------------- formats
def test_the_pzprjs_test_vector():
    puzzle = formats.read(PZPRJS_URL).puzzle
    assert puzzle.to_rows() == ["......", "..OO..", ".O.O..", ".O.O..", ".OOOO.", "...O..", "......"]
    assert formats.write(puzzle, "url") == PZPRJS_URL
    assert formats.write(puzzle, "pzprv3", ANSWER).replace("\n", "/") + "/" == PZPRJS_SOLVED
    seed_file = (DATA / "pzprjs_test.txt").read_text()
    assert formats.detect(seed_file) == "quoted" and formats.read(seed_file).puzzle == puzzle
    assert formats.write(puzzle, "quoted") + "\n" == seed_file


@pytest.mark.parametrize(
    "text",
    [
        "goishi/6/7/vsten1tvo",
        "http://pzv.jp/p.html?goishi/6/7/vsten1tvo",
        "https://puzz.link/p?goishi_edit/6/7/vsten1tvo/",
        "https://puzz.link/p?type=editor&goishi/6/7/VSTEN1TVO",
        "https://puzz.link/p?v:2/goishi/6/7/vsten1tvo",
        "https://puzz.link/p?pzprv3/goishi/7/6/."
        + "%20." * 5
        + "%20/"
        + "/".join("%20".join(r.replace(".", ".").replace("O", "0")) + "%20" for r in PZ.to_rows()[1:]),
    ],
)
def test_url_spellings(text):
    assert formats.detect(text) == "url"
    assert formats.read(text).puzzle == PZ


@given(small_boards(max_side=9, max_stones=30), st.sampled_from(list(formats.FORMATS)), st.data())
def test_round_trips_are_lossless(puzzle, fmt, data):
    order = None
    if fmt in formats.CARRY_ORDER and data.draw(st.booleans()):
        order = tuple(data.draw(st.permutations(list(puzzle.stones))))[: data.draw(st.integers(1, puzzle.size))]
    text = formats.write(puzzle, fmt, order)
    assert formats.detect(text) == fmt
    assert formats.read(text) == formats.Document(puzzle, order, fmt)
    assert formats.write(formats.read(text).puzzle, fmt, order) == text


@pytest.mark.parametrize(
    "text,message",
    [
        ('"O O"\n"OO"', "line 2: 2 points where line 1 has 3"),
        ("O..\nO.", "line 2: 2 points where line 1 has 3"),
        ("O.x", "line 1, column 3: unexpected 'x'"),
        ("", "the input is empty"),
        ("...\n...", "the board has no stones"),
        ('"   "', "the board has no stones"),
        ("https://puzz.link/p?slither/6/7/abc", "a 'slither' puzzle, not a Goishi one"),
        ("https://example.com/x", "no puzzle after a '?' (a Goishi link reads https://puzz.link/p?goishi/"),
        ("goishi/6/7/vsten1t", "BODY has 7 characters; a 6x7 (cols x rows) board needs 9: the URL is truncated"),
        ("goishi/6/7/vsten1t!o", "BODY character 8 is '!'"),
        ("goishi/6/7", "expected goishi/COLS/ROWS/BODY"),
        ("goishi/6/x7/aaa", "ROWS is 'x7'"),
        ("goishi/100000/100000/v", "COLS is 100000; a board has 1 to 100 columns"),
        ("pzprv3\ngoishi\n3\n3\n. 0 . \n", "line 6: the pzprv3 board ends after 1 of its 3 rows"),
        ("pzprv3\nslither\n3\n3\n", "line 2: this pzprv3 file is for 'slither'"),
        ("pzprv3\ngoishi\n3\n4\n. 0 . \n. . . \n0 . . \n", "line 5: 3 points where the header says 4 columns"),
        ("pzprv3\ngoishi\n99999\n3\n", "line 3: 99999 rows; a board has 1 to 100"),
        ("pzprv3\ngoishi\n2\n2\n1 x \n. . \n", "line 5, column 2: unexpected 'x'"),
        (" 1  2\n 4  .", "pick-up numbers must run 1, 2, 3, ...: 3 is missing"),
        (" 1  1\n .  .", "line 1, column 2: pick-up number 1 appears twice"),
        ("\n".join(["O" * 101] * 2), "at most 100x100"),
        ("1 \u00b2\n0 0\n", "line 1, column 2: unexpected '\u00b2'"),  # '²'.isdigit() is True, int('²') fails
        ("goishi/\u00b2/5/abc", "COLS is '\u00b2', not a whole number"),
        ("goishi/5/\u00b2/abc", "ROWS is '\u00b2', not a whole number"),
        ("pzprv3\ngoishi\n\u00b2\n2\n0 0\n0 0\n", "line 3: the number of rows is '\u00b2'"),
        ("pzprv3\ngoishi\n2\n\u0663\n0 0\n0 0\n", "line 4: the number of columns is '\u0663'"),
    ],
)
def test_bad_input_gets_one_line_naming_the_place(text, message):
    with pytest.raises(BoardPuzzlesError) as err:
        formats.read(text)
    assert message in str(err.value) and "\n" not in str(err.value)


# ---------------------------------------------------------------- the generator
@settings(max_examples=12)
@given(st.integers(0, 10**6), st.integers(6, 8), st.integers(8, 12))
def test_generated_puzzles_are_unique_and_reproducible(seed, side, stones):
    # Few stones cannot be unique at all (three stones can always be picked in reverse), so
    # the sizes are the ones puzzles use.
    made = gh.generate(side, side, stones, seed=seed, limits=Limits(20))
    assert made.puzzle.size == stones
    assert gh.check(made.puzzle, made.order)
    assert gh.first_two(made.puzzle) == (made.order, None)
    stones_set = {made.puzzle.coords(c) for c in made.puzzle.stones}
    assert len(goishi_orders(side, side, stones_set)) == 1  # the plain reference agrees
    assert gh.generate(side, side, stones, seed=seed, limits=Limits(20)).puzzle == made.puzzle


def test_a_unique_10x10_with_20_stones():
    made = gh.generate(10, 10, 20, seed=7, limits=Limits(30))
    assert gh.is_unique(made.puzzle) and gh.check(made.puzzle, made.order)


def test_generation_gives_up_at_its_time_limit():
    with pytest.raises(gh.GenerationTimeout, match="found in"):
        gh.generate(19, 19, 60, seed=1, limits=Limits(0.2))


def test_giving_up_suggests_more_stones_when_there_are_few():
    # 5 stones are refused at once now (no layout of 2 to 6 stones has one order). 7 stones on
    # two rows fill at most 2x7, and no layout of 7 stones there has one order (counted here),
    # so the generator cannot succeed and must give up, though nothing refuses the request.
    assert all(gh.count_at_most(gh.Puzzle(2, 7, cells), 2) != 1 for cells in itertools.combinations(range(14), 7))
    assert gh.impossible_request(2, 20, 7) is None
    with pytest.raises(gh.GenerationTimeout, match="try more stones") as gave_up:
        gh.generate(2, 20, 7, seed=1, limits=Limits(0.2))
    assert gave_up.value.method == "regrow" and gave_up.value.restarts > 0 and gave_up.value.seconds > 0.1


def test_count_cap_by_position_or_keyword():
    puzzle = gh.Puzzle.from_rows(["OOOO", ".OOO", "..OO", "...O"])
    assert gh.count(puzzle) == 4 and gh.count_at_most(puzzle, 2) == 2 and gh.count_at_most(puzzle, 3) == 3


@pytest.mark.parametrize("name,puzzle,order,url", _full_instances())
def test_the_count_split_by_start_stone_is_the_single_count(name, puzzle, order, url):
    assert gh.count(puzzle, Limits(jobs=1)) == gh.count(puzzle, Limits(jobs=2)) == gh.count(puzzle) == 1


def test_first_ambiguity():
    puzzle = gh.Puzzle.from_rows(["OOO"])
    assert gh.first_ambiguity(puzzle, (0, 1, 2)) == 0  # (2, 1, 0) starts elsewhere
    assert gh.first_ambiguity(PZ, ANSWER) is None


# ---------------------------------------------------------------- the command line
def run(capsys, *args):
    code = _run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_solve_prints_numbers_and_names_and_proves_unique(capsys):
    code, out, err = run(capsys, "goishi", "solve", PZPRJS_URL)
    assert code == 0
    board, order_line = out.rsplit("\n", 2)[0], out.splitlines()[-1]
    assert formats.read(board).order == ANSWER
    assert order_line == "order: e3 d3 d4 d5 b5 b4 b3 c3 c6 d6 d2" and "unique: no other solution exists" in err


def test_cli_solve_not_unique_shows_a_second_order(capsys, tmp_path):
    path = tmp_path / "q1.txt"
    path.write_text("OOOO\n.OOO\n..OO\n...O\n")
    code, out, err = run(capsys, "goishi", "solve", str(path), "--json")
    document = json.loads(out)
    assert code == 0 and document["complete"] is False and len(document["solutions"]) == 2
    assert "not unique" in err
    puzzle = formats.read(path.read_text()).puzzle
    for answer in document["solutions"]:
        assert gh.check(puzzle, gh.parse_order(puzzle, " ".join(answer["answer"])))


def test_cli_no_solution_exits_1(capsys):
    code, out, err = run(capsys, "goishi", "solve", "goishi/2/2/i")  # i = 10010: stones at b2 and a1 only
    assert code == 1 and out == "" and "no solution" in err


def test_cli_count_and_cap(capsys, tmp_path):
    path = tmp_path / "q3.txt"
    path.write_text(".O..O.\nOOOOOO\n.O..O.\n.O..O.\nOOOOOO\n.O..O.\n")
    assert run(capsys, "goishi", "count", str(path))[:2] == (0, "7256\n")
    code, out, err = run(capsys, "goishi", "count", str(path), "--max", "5")
    assert (code, out.splitlines()[-1]) == (0, "5") and "at least" in err
    code, out, _ = run(capsys, "goishi", "count", str(path), "--max", "5", "--json")
    assert json.loads(out)["at_least"] is True


def test_cli_count_jobs_agree_and_bad_digits_exit_2(capsys, tmp_path):
    path = tmp_path / "q3.txt"
    path.write_text(".O..O.\nOOOOOO\n.O..O.\n.O..O.\nOOOOOO\n.O..O.\n")
    one = run(capsys, "goishi", "count", str(path), "--jobs", "1", "--json")
    two = run(capsys, "goishi", "count", str(path), "--jobs", "2", "--json")
    assert one[0] == two[0] == 0 and json.loads(one[1])["count"] == json.loads(two[1])["count"] == 7256
    for text in ("1 \u00b2\n0 0\n", "pzprv3\ngoishi\n\u00b2\n2\n0 0\n0 0\n"):
        path.write_text(text)
        code, out, err = run(capsys, "goishi", "solve", str(path))
        assert code == 2 and out == "" and err.startswith("boardpuzzles: error:") and err.count("\n") == 1


def test_cli_rows_take_a_space_as_an_empty_point(capsys, tmp_path):
    path = tmp_path / "spaces.txt"
    path.write_text("O O\nOOO\n")
    code, out, _ = run(capsys, "goishi", "solve", str(path))
    assert code == 0 and out.splitlines()[0].split() == ["1", ".", "2"]
    assert formats.read("O O\nOOO\n").puzzle == formats.read("O.O\nOOO\n").puzzle


def test_cli_check(capsys, tmp_path):
    assert run(capsys, "goishi", "check", PZPRJS_URL, "e3 d3 d4 d5 b5 b4 b3 c3 c6 d6 d2")[0] == 0
    code, out, _ = run(capsys, "goishi", "check", PZPRJS_URL, "e3 d3 d5")
    assert code == 1 and out == "not a solution: step 3: d3 -> d5 passes over d4, a stone still on the board\n"
    solved = tmp_path / "solved.pzprv3"
    solved.write_text(PZPRJS_SOLVED)
    assert run(capsys, "goishi", "check", str(solved))[0] == 0
    answer = tmp_path / "answer.txt"
    code, out, _ = run(capsys, "goishi", "solve", PZPRJS_URL)
    answer.write_text(out)
    assert run(capsys, "goishi", "check", PZPRJS_URL, str(answer))[0] == 0
    code, _, err = run(capsys, "goishi", "check", PZPRJS_URL)
    assert code == 2 and "no order to check" in err


def test_cli_convert_and_files_written_whole(capsys, tmp_path):
    out_path = tmp_path / "p.txt"
    assert run(capsys, "goishi", "convert", PZPRJS_URL, "--to", "quoted", "-o", str(out_path))[0] == 0
    assert out_path.read_text() == (DATA / "pzprjs_test.txt").read_text()
    code, out, _ = run(capsys, "goishi", "convert", str(out_path), "--to", "pzprv3", "--solve")
    assert code == 0 and formats.read(out).order == ANSWER
    code, out, _ = run(capsys, "goishi", "convert", str(out_path), "--to", "url")
    assert out == PZPRJS_URL + "\n"
    before = out_path.read_text()
    bad = tmp_path / "bad.txt"
    bad.write_text("O.x\n")
    code, _, err = run(capsys, "goishi", "convert", str(bad), "--to", "rows", "-o", str(out_path))
    assert code == 2 and err.count("\n") == 1 and out_path.read_text() == before  # the user's file is untouched
    code, _, err = run(capsys, "goishi", "convert", PZPRJS_URL, "--to", "url", "-o", str(tmp_path / "no" / "x"))
    assert code == 2 and "does not exist" in err


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["solve", "goishi/6/7/vsten"], "truncated"),
        (["solve", "https://puzz.link/p?slither/3/3/abc"], "not a Goishi one"),
        (["solve", "missing-file.txt"], "no such file"),
        (["solve", "puzzles/1.txt"], "no such file: puzzles/1.txt"),  # a mistyped path is not a bad URL
        (["solve", "goishi/\u00b2/5/abc"], "COLS is"),
        (["count", "goishi/6/7/vsten1tvo", "--max", "2", "--checkpoint", "x.db"], "cannot be used with --max"),
        (["count", "goishi/6/7/vsten1tvo", "--max", "0"], "--max"),
        (["generate", "ten", "--stones", "5"], "not a size"),
        (["generate", "5x5", "--stones", "26"], "do not fit"),
        (["generate", "5x5", "--stones", "5", "--solution"], "--solution needs"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(capsys, args, fragment):
    code, out, err = run(capsys, "goishi", *args)
    assert code == 2 and err.startswith("boardpuzzles: error:") and err.count("\n") == 1 and fragment in err


def test_cli_generate_is_reproducible_and_unique(capsys, tmp_path):
    code, out, err = run(capsys, "goishi", "generate", "8x8", "--stones", "14", "--seed", "3", "--to", "url")
    assert code == 0 and "seed 3: unique" in err
    again = run(capsys, "goishi", "generate", "8x8", "--stones", "14", "--seed", "3", "--to", "url")[1]
    assert out == again
    assert gh.is_unique(formats.read(out).puzzle)
    svg = tmp_path / "g.svg"
    code, out, _ = run(
        capsys,
        "goishi",
        "generate",
        "6",
        "--stones",
        "8",
        "--seed",
        "1",
        "--to",
        "pzprv3",
        "--solution",
        "--svg",
        str(svg),
        "--json",
    )
    document = json.loads(out)
    made = formats.read(document["text"])
    assert code == 0 and gh.check(made.puzzle, made.order)
    ET.fromstring(svg.read_text())


def test_cli_animate_frames_svg_and_gif(capsys, tmp_path):
    code, out, _ = run(capsys, "goishi", "animate", PZPRJS_URL, "--delay", "0")
    frames = out.split("\n\n")
    assert code == 0 and len(frames) == 12
    assert frames[-1].splitlines()[0] == "11/11: d2" and frames[-1].count("=") == 10 and "O" not in frames[-1]
    gif, svg = tmp_path / "walk.gif", tmp_path / "walk.svg"
    assert run(capsys, "goishi", "animate", PZPRJS_URL, "--gif", str(gif), "--svg", str(svg))[0] == 0
    from PIL import Image

    with Image.open(gif) as image:
        assert image.n_frames == 12
    root = ET.fromstring(svg.read_text())
    assert len(root.findall(".//{http://www.w3.org/2000/svg}g")) == 12
    code, out, _ = run(capsys, "goishi", "animate", PZPRJS_URL, "--json")
    assert code == 0 and len(json.loads(out)["frames"]) == 12


def test_replay_redraws_in_place_on_a_terminal():
    from boardpuzzles.render.animate import replay

    written: list[str] = []
    replay(["a\nb", "c\nd"], ["one", "two"], written.append, lambda k: None, in_place=True)
    assert written == ["one\na\nb\n", "\x1b[3F\x1b[J", "two\nc\nd\n"]


def test_counts_are_checkpointed_under_the_protocols_identity():
    # search.count binds its checkpoint without reaching back up to PUZZLE; the two must agree.
    puzzle = gh.Puzzle.parse("OOOO\n.OOO\n..OO\n...O")
    assert gh.search.problem_identity(puzzle) == gh.PUZZLE.problem_identity(puzzle)
    assert gh.search.problem_identity(puzzle) != gh.PUZZLE.problem_identity(gh.Puzzle.parse("OO\n.O"))
