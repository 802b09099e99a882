"""Goishi Hiroi reads back what it writes: ``solve``'s text (boards of pick-up numbers with their
``order:`` lines, one answer or a listing of several), the ``--json`` documents of its commands,
and puzz.link URLs, which are refused whole when anything follows their board."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardpuzzles.cli import _run
from boardpuzzles.errors import BoardPuzzlesError, ParseError
from boardpuzzles.formats import goishi as formats
from boardpuzzles.puzzles import goishi as gh
from tests.reference import goishi_orders

URL = "goishi/6/7/vsten1tvo"  # the pzprjs test vector: one order
SQUARE = "goishi/4/4/1370"  # umeya's goishi2_80Q1: four orders, so solve lists two


def run(capsys, *args):
    code = _run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _reference_orders(puzzle: gh.Puzzle) -> set[gh.Order]:
    """Every order of the puzzle by the plain reference search (no kernel, no checker)."""
    stones = {puzzle.coords(c) for c in puzzle.stones}
    return {tuple(r * puzzle.cols + c for r, c in o) for o in goishi_orders(puzzle.rows, puzzle.cols, stones)}


def _one_line_error(code: int, out: str, err: str, fragment: str) -> bool:
    return code == 2 and not out and err.startswith("boardpuzzles: error:") and err.count("\n") == 1 and fragment in err


# ---------------------------------------------------------------- solve's text
def test_every_command_reads_what_solve_prints(capsys, tmp_path):
    code, printed, _ = run(capsys, "goishi", "solve", URL)
    assert code == 0 and printed.splitlines()[-1].startswith("order: ")
    answer = tmp_path / "answer.txt"
    answer.write_text(printed)
    puzzle = formats.read(URL).puzzle
    document = formats.read(printed)
    assert document.puzzle == puzzle and document.format == "numbers" and document.more_orders == ()
    assert gh.check(puzzle, document.order) and {document.order} == _reference_orders(puzzle)

    code, out, _ = run(capsys, "goishi", "check", str(answer))  # the file's own numbers are checked
    assert code == 0 and out.startswith("a solution")
    assert run(capsys, "goishi", "solve", str(answer))[:2] == (0, printed)
    assert run(capsys, "goishi", "count", str(answer))[:2] == (0, "1\n")
    assert run(capsys, "goishi", "convert", str(answer), "--to", "url")[:2] == (0, formats.URL_PREFIX + URL + "\n")
    code, out, _ = run(capsys, "goishi", "convert", str(answer), "--to", "pzprv3")
    assert code == 0 and formats.read(out).order == document.order  # the numbers are kept
    assert run(capsys, "goishi", "hint", str(answer)) == run(capsys, "goishi", "hint", URL)
    code, out, _ = run(capsys, "goishi", "animate", str(answer), "--json")
    assert code == 0 and json.loads(out)["order"] == [puzzle.name(c) for c in document.order]
    # --order reads the file's order too: a whole order leaves nothing to hint.
    assert _one_line_error(*run(capsys, "goishi", "hint", URL, "--order", str(answer)), "every stone is picked up")


def test_check_judges_the_numbers_of_a_solved_file(capsys, tmp_path):
    """A solve-like file whose numbers (and order line) spell an illegal walk is not a solution:
    the file's order is judged, not merely read."""
    puzzle = formats.read(URL).puzzle
    legal = formats.read(run(capsys, "goishi", "solve", URL)[1]).order
    wrong = legal[:2] + legal[3:4] + legal[2:3] + legal[4:]  # pick-ups 3 and 4 swapped
    assert not gh.check(puzzle, wrong)
    spoilt = tmp_path / "spoilt.txt"
    spoilt.write_text(gh.answer_text(puzzle, wrong) + "\n")
    code, out, _ = run(capsys, "goishi", "check", str(spoilt))
    assert code == 1 and out == f"not a solution: {gh.first_problem(puzzle, wrong)}\n"


@pytest.mark.parametrize(
    "edit,message",
    [
        (
            lambda line: line.replace("e3 d3", "d3 e3"),
            "line 8: the order line contradicts the pick-up numbers above it",
        ),
        (lambda line: line.rsplit(" ", 1)[0], "it names 10 stones where the numbers give 11"),
        (lambda line: line + " zz", "line 8: the order line: order item 12: 'zz' is not a square name"),
        (lambda line: "order:", "line 8: the order line: the order is empty"),
    ],
)
def test_an_order_line_that_contradicts_the_numbers_is_refused(capsys, tmp_path, edit, message):
    printed = run(capsys, "goishi", "solve", URL)[1]
    board, line = printed.rstrip("\n").rsplit("\n", 1)
    text = f"{board}\n{edit(line)}\n"
    with pytest.raises(ParseError) as refused:
        formats.read(text)
    assert message in str(refused.value) and "\n" not in str(refused.value)
    path = tmp_path / "edited.txt"
    path.write_text(text)
    for command in ("check", "solve", "hint"):
        assert _one_line_error(*run(capsys, "goishi", command, str(path)), message)


def test_a_listing_of_several_answers_is_one_puzzle_with_several_orders(capsys, tmp_path):
    code, printed, err = run(capsys, "goishi", "solve", SQUARE)
    assert code == 0 and "not unique" in err and printed.count("order:") == 2
    puzzle = formats.read(SQUARE).puzzle
    document = formats.read(printed)
    assert document.puzzle == puzzle and len(document.orders) == 2 and document.orders[0] != document.orders[1]
    assert set(document.orders) <= _reference_orders(puzzle)
    listing = tmp_path / "two.txt"
    listing.write_text(printed)
    assert run(capsys, "goishi", "check", str(listing))[0] == 0
    assert run(capsys, "goishi", "check", str(listing), str(listing))[1].startswith("all 2 answers are solutions")
    code, out, err = run(capsys, "goishi", "convert", str(listing), "--to", "numbers")
    assert code == 0 and formats.read(out).order == document.orders[0] and "holds 2 orders" in err

    # A listing passes check only when every answer in it is a solution: spoil the second.
    first = printed.rstrip("\n").split("\n\n")[0]
    wrong = document.orders[1][::-1]
    assert not gh.check(puzzle, wrong)
    listing.write_text(f"{first}\n\n{gh.answer_text(puzzle, wrong)}\n")
    code, out, _ = run(capsys, "goishi", "check", str(listing))
    assert code == 1 and out == f"not a solution: {gh.first_problem(puzzle, wrong)}\n"

    other = formats.read(run(capsys, "goishi", "solve", URL)[1])  # another puzzle's answer
    listing.write_text(f"{first}\n\n{gh.answer_text(other.puzzle, other.order)}\n")
    assert _one_line_error(*run(capsys, "goishi", "check", str(listing)), "a different board from the one on line 1")


@st.composite
def puzzles_and_orders(draw):
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    stones = draw(st.sets(st.integers(0, rows * cols - 1), min_size=1, max_size=rows * cols))
    puzzle = gh.Puzzle(rows, cols, tuple(stones))
    order = tuple(draw(st.permutations(sorted(stones))))[: draw(st.integers(1, len(stones)))]
    return puzzle, order


@given(st.lists(puzzles_and_orders(), min_size=1, max_size=3))
def test_solves_text_reads_back_as_the_puzzle_and_its_orders(answers):
    """Any order (legal or not, whole or a first part) printed as solve prints it reads back
    as itself; a listing of several reads back as all of them when they share one board."""
    puzzle = answers[0][0]
    orders = [order for p, order in answers if p == puzzle]
    text = "\n\n".join(gh.answer_text(puzzle, order) for order in orders) + "\n"
    document = formats.read(text)
    assert (document.puzzle, document.orders, document.format) == (puzzle, tuple(orders), "numbers")


# ---------------------------------------------------------------- JSON documents
def test_json_documents_of_the_commands_are_read_back(capsys, tmp_path):
    puzzle = formats.read(SQUARE).puzzle
    solved = run(capsys, "goishi", "solve", SQUARE, "--json")[1]
    document = formats.read(solved)
    listed = [tuple(puzzle.grid.cell_named(n) for n in s["answer"]) for s in json.loads(solved)["solutions"]]
    assert document.format == "json" and document.puzzle == puzzle and list(document.orders) == listed
    assert set(document.orders) <= _reference_orders(puzzle) and len(document.orders) == 2
    for words in (["count", SQUARE, "--json"], ["hint", SQUARE, "--json"], ["check", SQUARE, "a4 b4", "--json"]):
        found = formats.read(run(capsys, "goishi", *words)[1])
        assert (found.puzzle, found.order) == (puzzle, None), words
    animated = formats.read(run(capsys, "goishi", "animate", SQUARE, "--json")[1])
    assert animated.puzzle == puzzle and gh.check(puzzle, animated.order)
    converted = formats.read(run(capsys, "goishi", "convert", SQUARE, "--to", "pzprv3", "--solve", "--json")[1])
    assert converted.puzzle == puzzle and gh.check(puzzle, converted.order)

    path = tmp_path / "solved.json"
    path.write_text(solved)
    assert run(capsys, "goishi", "check", str(path))[0] == 0
    assert run(capsys, "goishi", "solve", str(path))[1] == run(capsys, "goishi", "solve", SQUARE)[1]
    assert run(capsys, "goishi", "convert", str(path), "--to", "url")[1] == formats.URL_PREFIX + SQUARE + "\n"


def test_generates_json_is_a_file_every_command_reads(capsys, tmp_path):
    code, out, _ = run(capsys, "goishi", "generate", "6", "--stones", "10", "--seed", "1", "--json")
    made = json.loads(out)
    assert code == 0 and made["found"] is True
    path = tmp_path / "made.json"
    path.write_text(out)
    document = formats.read(out)
    assert document.puzzle.to_rows() == made["board"] and {document.order} == _reference_orders(document.puzzle)
    assert run(capsys, "goishi", "check", str(path))[0] == 0
    assert run(capsys, "goishi", "count", str(path))[1] == "1\n"


def _solved_document(capsys) -> dict:
    return json.loads(run(capsys, "goishi", "solve", URL, "--json")[1])


@pytest.mark.parametrize(
    "spoil,message",
    [
        (lambda d: d.update(puzzle="queens"), "JSON: this is a document of 'queens', not goishi"),
        (lambda d: d.pop("problem"), "JSON: the document holds no puzzle"),
        (lambda d: d["problem"].update(rows="7"), "JSON: the problem's 'rows' should be a whole number"),
        (lambda d: d["problem"].update(stones=[8, 8]), "'stones' name a point twice"),
        (lambda d: d["problem"].update(stones=[8, 999]), "JSON: the problem: a stone lies off the 7x6 board"),
        (lambda d: d["solutions"][0]["answer"].reverse(), "'answer' and 'board' hold different orders"),
        (lambda d: d["solutions"][0]["answer"].append("z9"), "JSON: solution 1's 'answer': square 'z9' is off"),
        (lambda d: d["solutions"][0].update(board=["1"]), "JSON: solution 1's 'board' shows a different board"),
        (lambda d: d.update(solutions={}), "JSON: 'solutions' should be a list"),
    ],
)
def test_a_spoilt_json_document_is_refused_in_one_line(capsys, tmp_path, spoil, message):
    document = _solved_document(capsys)
    spoil(document)
    path = tmp_path / "spoilt.json"
    path.write_text(json.dumps(document))
    for command in ("check", "solve", "convert"):
        args = ["--to", "url"] if command == "convert" else []
        assert _one_line_error(*run(capsys, "goishi", command, str(path), *args), message), command


@pytest.mark.parametrize(
    "text,message",
    [
        ("{", "JSON: not valid JSON"),
        ("[1, 2]", "JSON: expected a document"),
        ("[" * 100_000, "JSON: nested too deeply"),
        ('{"puzzle": "goishi", "found": false}', "nothing was generated"),
    ],
)
def test_text_that_is_not_a_goishi_document_is_refused(text, message):
    with pytest.raises(BoardPuzzlesError) as refused:
        formats.read(text)
    assert message in str(refused.value) and "\n" not in str(refused.value)


# ---------------------------------------------------------------- URLs
@pytest.mark.parametrize(
    "url,message",
    [
        ("goishi/6/7/vsten1tvo!!", "URL: unexpected '!!' after BODY: a 6x7 (cols x rows) board needs exactly 9"),
        ("goishi/6/7/vsten1tvoZZ", "URL: unexpected 'ZZ' after BODY"),
        ("https://puzz.link/p?goishi/6/7/vsten1tvo0", "URL: unexpected '0' after BODY"),
        ("goishi/6/7/vsten1tvo/more", "URL: unexpected '/more' after goishi/COLS/ROWS/BODY"),
        ("goishi/6/7/vsten1t!o", "BODY character 8 is '!'"),  # inside the body: as before
        ("goishi/", "URL: nothing after 'goishi/'"),
        ("https://puzz.link/p?goishi/", "URL: nothing after 'goishi/'"),
        ("goishi/6/7/", "URL: expected goishi/COLS/ROWS/BODY: BODY (the stones) is missing"),
        ("goishi/6", "ROWS and BODY are missing"),
    ],
)
def test_a_url_with_anything_after_its_board_or_no_board_is_refused(capsys, url, message):
    with pytest.raises(ParseError) as refused:
        formats.read(url)
    assert message in str(refused.value)
    assert _one_line_error(*run(capsys, "goishi", "solve", url), message)


def test_a_url_may_still_end_with_a_slash():
    assert formats.read(URL + "/").puzzle == formats.read(URL).puzzle  # pzprjs may end a URL with '/'
