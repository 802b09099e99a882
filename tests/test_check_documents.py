"""`check` reads a JSON document's problem as strictly as the command line's parameters (same
limits, same messages), and refuses (exit 2) a problem that is not the one its boards are judged
against. The audit's reproducers: `queens check` passed a document whose problem said n = 7 (on
8x8 boards), -8, "8", 10**30, null or nothing; `less-than-three check` took size 10**6; a JSON
`null` was read as a 1x4 board. Each is tried on every puzzle that has `check`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardpuzzles.cli import _run
from boardpuzzles.cli.documents import LISTING_FIELDS
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.grid import Grid
from boardpuzzles.puzzles.queens import TORUS_GROUPS

GOISHI = "goishi/6/7/vsten1tvo"

#: puzzle -> (the words of `solve`, the words of `check` before ANSWER, the board's size field)
PUZZLES = {
    "queens": (["8"], [], "n"),
    "hyperqueen": (["5"], [], "n"),
    "kings": (["4"], [], "rows"),
    "less-than-three": (["6"], [], "size"),
    "knights-tour": (["5", "--start", "a1"], ["5"], "rows"),
    "goishi": ([GOISHI], [GOISHI], "rows"),
}

#: The audit's bad values of the board's size field ("missing": the field left out).
BAD_SIZES = {"wrong": None, "negative": -8, "text": "8", "huge": 10**30, "null": None, "missing": None}


def solved(capsys, name: str, *extra: str) -> dict:
    words = PUZZLES[name][0] if not extra else PUZZLES[name][0][:1]
    assert _run([name, "solve", *words, "--json", "--limit", "2", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def check(capsys, tmp_path: Path, name: str, document: object, *options: str) -> tuple[int, str, str]:
    path = tmp_path / "answer.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    code = _run([name, "check", *options, *PUZZLES[name][1], str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def refused(code: int, out: str, err: str, *words: str) -> bool:
    one_line = err.startswith("boardpuzzles: error: ") and err.count("\n") == 1 and "Traceback" not in err
    return code == 2 and out == "" and one_line and all(w in err for w in words)


@pytest.mark.parametrize("name", PUZZLES)
def test_a_document_as_solve_prints_it_passes(capsys, tmp_path, name):
    code, out, err = check(capsys, tmp_path, name, solved(capsys, name))
    assert code == 0 and "solution" in out, err


@pytest.mark.parametrize("name", PUZZLES)
@pytest.mark.parametrize("bad", BAD_SIZES)
def test_a_bad_board_size_in_the_problem_is_refused(capsys, tmp_path, name, bad):
    document = solved(capsys, name)
    size = PUZZLES[name][2]
    if bad == "missing":
        del document["problem"][size]
    elif bad == "wrong":
        document["problem"][size] -= 1
    else:
        document["problem"][size] = BAD_SIZES[bad]
    code, out, err = check(capsys, tmp_path, name, document)
    assert refused(code, out, err, "ANSWER's problem"), (code, out, err)


@pytest.mark.parametrize("name", PUZZLES)
@pytest.mark.parametrize("problem", [None, [], "8", 8])
def test_a_problem_that_is_not_an_object_is_refused(capsys, tmp_path, name, problem):
    document = solved(capsys, name)
    document["problem"] = problem
    assert refused(*check(capsys, tmp_path, name, document), "ANSWER's problem")


@pytest.mark.parametrize("name", PUZZLES)
@pytest.mark.parametrize("text", ["null", " true\n", "false", "[]", "[1, 2]"])
def test_json_that_is_no_document_is_refused(capsys, tmp_path, name, text):
    """`null` was read as a picture: a 1x4 board of four pieces."""
    assert refused(*check(capsys, tmp_path, name, text), "ANSWER is JSON but not a document")


@pytest.mark.parametrize("name", PUZZLES)
def test_a_field_the_problem_cannot_have_is_refused(capsys, tmp_path, name):
    document = solved(capsys, name)
    document["problem"]["colour_of_the_sky"] = "blue"
    assert refused(*check(capsys, tmp_path, name, document), "colour_of_the_sky")


@pytest.mark.parametrize(
    ("name", "words"),
    [("queens", ["-8"]), ("queens", [str(10**30)]), ("queens", ["63"]), ("less-than-three", ["1000000"])],
)
def test_a_board_size_gets_the_command_lines_own_message(capsys, tmp_path, name, words):
    assert _run([name, "count", *words]) == 2
    typed = capsys.readouterr().err.removeprefix("boardpuzzles: error: ").strip()
    document = solved(capsys, name)
    document["problem"][PUZZLES[name][2]] = int(words[0])
    code, out, err = check(capsys, tmp_path, name, document)
    assert refused(code, out, err) and err.strip().endswith(f"ANSWER's problem: {typed}"), (typed, err)


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("size", 10**6, "N must be at most"),
        ("colours", 10**30, "too large"),
        ("colours", 0, "must be at least 1"),
        ("colours", 11, "between 1 and 10"),
        ("max_in_line", 0, "must be at least 1"),
        ("max_in_line", 10**6, "must be at most"),
        ("stones", "12", "must be a whole number"),
        ("stones", 12.0, "must be a whole number"),
        ("stones", True, "must be a whole number"),
        ("unique", "yes", "is a flag"),
        ("swap_colours", 1, "is a flag"),
    ],
)
def test_less_than_three_problem_fields_are_validated(capsys, tmp_path, field, value, says):
    document = solved(capsys, "less-than-three")
    document["problem"][field] = value
    assert refused(*check(capsys, tmp_path, "less-than-three", document), says)


@pytest.mark.parametrize(
    ("name", "field", "value", "says"),
    [
        ("queens", "torus", True, "torus is true in the problem but false"),
        ("queens", "torus", 0, "torus is 0"),
        ("hyperqueen", "group", "nonsense", "must be one of"),
        ("kings", "kings", -1, "--kings must be at least 0"),
        ("kings", "cols", 5, "cols is 5 in the problem but 4"),
        ("kings", "torus", "no", "is a flag"),
        ("knights-tour", "start", "z9", "off the 5x5 board"),
        ("knights-tour", "start", 7, "must be text"),
        ("goishi", "stones", [0, 1], "stones is [0, 1] in the problem"),
    ],
)
def test_other_problem_fields_are_validated_and_compared(capsys, tmp_path, name, field, value, says):
    document = solved(capsys, name)
    document["problem"][field] = value
    code, out, err = check(capsys, tmp_path, name, document)
    assert refused(code, out, err, says), err


def test_a_stricter_problem_is_judged_not_ignored(capsys, tmp_path):
    """A problem that fits its boards but asks for more (3 kings on 4x4) is judged: the answers
    are not solutions of it (exit 1), as before."""
    document = solved(capsys, "kings")
    document["problem"]["kings"] = 3
    code, out, _ = check(capsys, tmp_path, "kings", document)
    assert code == 1 and "the problem asks for 3" in out


def test_a_start_square_from_the_problem_is_judged(capsys, tmp_path):
    document = solved(capsys, "knights-tour")
    document["problem"]["start"] = "b1"
    code, out, _ = check(capsys, tmp_path, "knights-tour", document)
    assert code == 1 and "b1" in out


def test_an_option_on_the_command_line_wins_over_the_document(capsys, tmp_path):
    document = solved(capsys, "kings")
    document["problem"]["kings"] = 3
    code, out, err = check(capsys, tmp_path, "kings", document, "--kings", "4")
    assert code == 0, err


@pytest.mark.parametrize(
    ("name", "extra"),
    [
        ("queens", ["--unique"]),
        ("hyperqueen", ["--unique", "--group", "full"]),
        ("less-than-three", ["--unique", "--swap-colours"]),
        ("knights-tour", ["--undirected"]),
    ],
)
def test_listing_fields_are_not_compared(capsys, tmp_path, name, extra):
    """`solve --unique --json` writes which solutions it listed; any solution passes `check`."""
    code, out, err = check(capsys, tmp_path, name, solved(capsys, name, *extra))
    assert code == 0, err


def test_a_document_without_a_problem_is_judged_by_its_boards(capsys, tmp_path):
    document = solved(capsys, "queens")
    del document["problem"]
    code, out, _ = check(capsys, tmp_path, "queens", document)
    assert code == 0 and "8 queens on the 8x8 board" in out


def test_each_answer_must_fit_the_problem(capsys, tmp_path):
    """Two boards of different sizes under one problem: the second does not fit it."""
    eight = solved(capsys, "queens")
    assert _run(["queens", "solve", "6", "--json", "--limit", "1"]) == 0
    six = json.loads(capsys.readouterr().out)
    eight["solutions"].append(six["solutions"][0])
    assert refused(*check(capsys, tmp_path, "queens", eight), "n is 8 in the problem but 6")


@pytest.mark.parametrize(("field", "value"), [("rows", -8), ("rows", 10**30), ("rows", "7"), ("rows", None)])
def test_goishi_reads_a_documents_problem_as_its_file_too(capsys, tmp_path, field, value):
    """`goishi check FILE` with the document as FILE: the puzzle's own reader validates it."""
    document = solved(capsys, "goishi")
    document["problem"][field] = value
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(document))
    code = _run(["goishi", "check", str(path)])
    out, err = capsys.readouterr()
    assert refused(code, out, err), err


# ---------------------------------------------------------------- any change of the problem
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3),
    max_leaves=4,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(PUZZLES)), pick=st.integers(min_value=0), value=JSON_VALUES)
def test_a_document_passes_only_with_the_problem_its_boards_solve(capsys, tmp_path, name, pick, value):
    """Change one field of a good document's problem (or add one): `check` answers 0 only when
    the change is no change (the same JSON) or touches a listing field; never a traceback or 70."""
    document = solved(capsys, name)
    fields = [*document["problem"], "extra"]
    field = fields[pick % len(fields)]
    unchanged = field in document["problem"] and json.dumps(document["problem"][field]) == json.dumps(value)
    document["problem"][field] = value
    code, out, err = check(capsys, tmp_path, name, document)
    assert code in (0, 1, 2) and "Traceback" not in err and "internal error" not in err, err
    if code == 0:
        # A tour from a1 is also a tour of the same board from any start: dropping the start only
        # widens the problem, so its boards still solve it.
        widened = name == "knights-tour" and field == "start" and value is None
        listing = field in LISTING_FIELDS and value in (None, True, False, "dihedral", *TORUS_GROUPS)
        assert unchanged or widened or listing, (field, value, out)
    if code == 2:
        assert err.count("\n") == 1


# ---------------------------------------------------------------- one spelling, each square once
#: Puzzles whose answers are sets of squares: a square named twice would pass as one.
SQUARE_SETS = ["queens", "hyperqueen", "kings", "less-than-three"]


def _first_name(answer: object) -> list:
    """The list that holds the first square name of an answer (a set of pieces, a tour, an
    order, pairs), and that name's place in it."""
    if isinstance(answer, dict):
        return _first_name(next(iter(answer.values())))
    assert isinstance(answer, list) and answer
    return answer if isinstance(answer[0], str) else _first_name(answer[0])


@pytest.mark.parametrize("name", SQUARE_SETS)
def test_a_square_named_twice_in_an_answer_is_refused(capsys, tmp_path, name):
    """The audit's reproducer: `check` passed a queens answer naming a square twice (the board
    picture and the answer then held different pieces)."""
    document = solved(capsys, name)
    names = _first_name(document["solutions"][0]["answer"])
    names.append(names[0])
    assert refused(*check(capsys, tmp_path, name, document), f"square {names[0]} appears twice")


def _dominoes(capsys) -> dict:
    assert _run(["dominoes", "solve", "2x3", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "spelling",
    [str.upper, lambda n: n[0] + "0" + n[1:], lambda n: f" {n}", lambda n: f"{n}\n"],
    ids=["upper-case", "leading-zero", "space", "newline"],
)
@pytest.mark.parametrize("name", [*PUZZLES, "dominoes"])
def test_a_square_spelt_otherwise_in_an_answer_is_refused(capsys, tmp_path, name, spelling):
    """Documents name a square one way, as boardpuzzles writes it: `D1`, `d01`, ` d1` are refused
    (the audit found them accepted by every puzzle but dominoes); typed options stay tolerant."""
    document = _dominoes(capsys) if name == "dominoes" else solved(capsys, name)
    names = _first_name(document["solutions"][0]["answer"])
    written = names[0]
    names[0] = spelling(written)
    if name == "dominoes":
        path = tmp_path / "answer.json"
        path.write_text(json.dumps(document))
        code = _run(["dominoes", "check", str(path)])
        result = (code, *capsys.readouterr())
    else:
        result = check(capsys, tmp_path, name, document)
    assert refused(*result, f"should be written {written!r}")


def test_a_typed_square_stays_tolerant():
    grid = Grid(8, 8)
    assert grid.cell_named("D1") == grid.cell_named(" d01 ") == grid.cell_written("d1")
    for spelling in ("D1", "d01", " d1", "d1 "):
        with pytest.raises(BoardPuzzlesError, match="should be written 'd1'"):
            grid.cell_written(spelling)


@pytest.mark.parametrize(
    ("name", "field", "value"),
    [
        ("queens", "group", "bogus"),  # the audit's reproducer
        ("queens", "group", "torus"),  # a group, but not one the queens list by
        ("queens", "group", True),
        ("hyperqueen", "group", "bogus"),
        ("hyperqueen", "unique", "yes"),
        ("less-than-three", "unique", "bogus"),
        ("less-than-three", "swap_colours", 1),
        ("knights-tour", "undirected", "bogus"),
    ],
)
def test_a_listing_field_holds_only_what_solve_writes(capsys, tmp_path, name, field, value):
    document = solved(capsys, name)
    document["problem"][field] = value
    assert refused(*check(capsys, tmp_path, name, document), field.replace("_", "-"))


@pytest.mark.parametrize(("name", "field"), [("queens", "swap_colours"), ("queens", "undirected"), ("kings", "group")])
def test_a_listing_field_of_another_puzzle_is_refused(capsys, tmp_path, name, field):
    document = solved(capsys, name)
    document["problem"][field] = None
    assert refused(*check(capsys, tmp_path, name, document), f"has no field {field!r}")
