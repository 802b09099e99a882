"""The Baikago judge reads back what it prints: its verdict line, rank numbers, file letters,
lower-case stones, the note on stderr and the colour codes are skipped, so the same position and
the same verdict come back; real junk is still refused with a one-line error naming its line."""

import pytest

from boardpuzzles.cli import _run
from boardpuzzles.errors import ParseError
from boardpuzzles.puzzles import baikago as bk
from tests.test_baikago_cli import DATA, process

FULL_3X3 = "XOX\nOXO\nXOX\n"  # no empty point: the rows hold no '.', and must still read as spaced
#: (picture, judge_text's options): a white win, nobody yet, a black win, an inconsistent
#: position, a full board, a board larger than its picture, and two-letter files (aa, ab, ...).
POSITIONS = [
    ((DATA / "seed_board.txt").read_text(), {}),
    ((DATA / "black_plus.txt").read_text(), {"max_d": 2}),
    ((DATA / "black_plus.txt").read_text(), {}),
    ((DATA / "both_win.txt").read_text(), {}),
    (FULL_3X3, {}),
    ("X.O\n.X.\n", {"size": 9, "orientations": "x"}),
    ("O" + "." * 26 + "X\n" + "X.X\n.X.\nX.X\n", {"size": 30}),
]


def judge_cli(capsys, tmp_path, picture, options, flag):
    """``baikago judge`` run on ``picture`` with judge_text's ``options`` as its own."""
    path = tmp_path / "picture.txt"
    path.write_text(picture)
    words = [word for name, value in options.items() for word in (f"--{name.replace('_', '-')}", str(value))]
    code = _run(["baikago", "judge", str(path), *words, flag])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("picture", "options"), POSITIONS)
@pytest.mark.parametrize("flag", ["--no-colour", "--colour"])
def test_the_judges_output_reads_back_as_the_same_position_and_verdict(capsys, tmp_path, picture, options, flag):
    original = bk.judge_text(picture, **options)
    code, out, err = judge_cli(capsys, tmp_path, picture, options, flag)
    assert code == (1 if original.verdict == "inconsistent" else 0)
    assert out.splitlines()[0] == original.summary()  # the verdict line is there, to be skipped
    rules = {name: value for name, value in options.items() if name != "size"}  # the coordinates give it
    for printed in (out, out + err, "\n".join(out.splitlines()[1:])):  # as piped, with 2>&1, verdict cut
        again = bk.judge_text(printed, **rules)
        assert (again.rules.size, again.points) == (original.rules.size, original.points)
        assert again.verdict == original.verdict and again.summary() == original.summary()
    # Judging the output again prints it again, character for character.
    assert judge_cli(capsys, tmp_path, out, rules, flag) == (code, out, err)


def test_the_audits_pipe_judge_into_judge_reads_standard_input():
    first = process("baikago", "judge", str(DATA / "seed_board.txt"), "--no-colour")
    again = process("baikago", "judge", "-", "--no-colour", stdin=first.stdout)
    assert (again.returncode, again.stdout, again.stderr) == (0, first.stdout, first.stderr)


def test_a_coordinate_picture_keeps_its_own_size():
    printed = "3 X . O\n2 . x .\n1 . . .\n  a b c\n"
    assert bk.read_points(printed) == (3, [1, 0, 2, 0, 1, 0, 0, 0, 0])
    assert bk.read_points(printed, size=3)[0] == 3
    assert bk.read_points("\n\n" + printed)[1] == bk.read_points(printed)[1]  # blank lines above
    with pytest.raises(ParseError, match="coordinates are those of a 3x3 board, not 5x5"):
        bk.read_points(printed, size=5)  # ranks count from the bottom: on 5x5 every stone would move


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Hello\nX . O\n", "line 1, column 1: unexpected 'H'"),
        ("White wins: x cross centred on b2\n", "the judge's verdict but no board"),
        ("3 X . O\n2 . . .\n1 . . .\n", "line 3: a board with rank numbers needs its file letters"),
        (
            "3 X . O\n2 . . .\n1 . . .\n  a b d\n",
            "line 4: expected the file letters a to c of a 3x3 board, got 'a b d'",
        ),
        ("3 X . O\n1 . . .\n2 . . .\n  a b c\n", "line 2: expected rank number 2 at the start of the row, got '1'"),
        ("3 X . O\n2 . . .\n  a b c\n", "line 3: expected the row of rank 1 before the file letters"),
        ("3 X . O\n2 . . .\n1 . . .\n0 . . .\n  a b c\n", "line 4: expected the file letters (a b c ...) below"),
        ("3 X . O\n2 . . .\n1 . . .\n  a b c\nmore\n", "line 5: unexpected 'more' below the file letters"),
        ("3 X . O\nfoo\n2 . . .\n1 . . .\n  a b c\n", "line 2: expected rank number 2 at the start of the row"),
        ("3 X . O\n2 . .  .\n1 . . .\n  a b c\n", "line 2, column 7: expected a point"),
        ("3 X.O\n2 . . .\n1 . . .\n  a b c\n", "line 1, column 4: expected a space between two points, got '.'"),
        ("3 X . O\n2 . . W\n1 . . .\n  a b c\n", "line 2, column 3: unexpected 'W'"),
        ("3 X . O\n2 . .\n1 . . .\n  a b c\n", "line 2: 2 points in a row of a 3x3 board"),
        ("Black wins: x\n3 X . O\n2 .\t. .\n1 . . .\n  a b c\n", "line 3, column 4: expected a space"),
        ("60 X\n  a\n", "line 1: rank '60': a board has 3 to 52 rows"),
        ("9" * 5000 + " X\n  a\n", "a board has 3 to 52 rows"),
        ("  a b c\n", "line 1: file letters with no board above them"),
        ("\x1b[2J3 X . O\n2 . . .\n1 . . .\n  a b c\n", "line 1: expected the top row's rank number"),
        ("\x1b[31m\x1b[0m\n", "the picture is empty"),
    ],
)
def test_junk_is_still_refused_with_one_line_naming_its_place(text, message):
    with pytest.raises(ParseError) as err:
        bk.read_points(text)
    assert message in str(err.value) and "\n" not in str(err.value)
