"""The command line as a user meets it: output conventions, exit codes, and bad input."""

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import click
import pytest

from boardpuzzles.board import parse_board
from boardpuzzles.cli import _run
from boardpuzzles.puzzles import hyperqueen, queens

DATA = Path(__file__).parent / "data"


def run(capsys, *args):
    code = _run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_hyperqueen_solve_7_prints_the_seed_articles_28_boards_in_its_order(capsys):
    # Golden output: tests/data/hyperqueen7_seed.txt is copied from the seed article (see README there).
    code, out, _ = run(capsys, "hyperqueen", "solve", "7")
    assert code == 0
    assert out == (DATA / "hyperqueen7_seed.txt").read_text()
    boards = out.strip().split("\n\n")
    assert len(boards) == 28
    for text in boards:
        board = parse_board(text, torus=True)
        assert queens.violations(queens.Problem(7, torus=True), board) == []


@pytest.mark.parametrize(
    "args,expected",
    [
        (["hyperqueen", "count", "7"], 28),
        (["hyperqueen", "count", "13", "--jobs", "1"], 4524),
        (["hyperqueen", "count", "13", "--unique"], 11),
        (["hyperqueen", "count", "13", "--unique", "--group", "multipliers"], 7),
        (["hyperqueen", "count", "1"], 1),
        (["queens", "count", "8"], 92),
        (["queens", "count", "8", "--unique"], 12),
        (["queens", "count", "12", "-j", "2"], 14200),
    ],
)
def test_count_prints_the_number_alone_on_the_last_line(capsys, args, expected):
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert out.splitlines()[-1] == str(expected)
    code, out, _ = run(capsys, *args, "--json")
    document = json.loads(out)
    assert document["count"] == expected and document["seconds"] >= 0


def test_polya_zero_is_an_answer_with_the_reason_on_stderr(capsys):
    code, out, err = run(capsys, "hyperqueen", "count", "12")
    assert (code, out) == (0, "0\n")
    assert "Polya" in err and "gcd(n, 6) = 1" in err


def test_solve_with_no_solution_exits_1_and_says_why(capsys):
    code, out, err = run(capsys, "hyperqueen", "solve", "9")
    assert code == 1 and out == "" and "divisible by 3" in err
    code, out, err = run(capsys, "queens", "solve", "3", "--json")
    assert code == 1 and json.loads(out)["solutions"] == [] and "no placement" in err


def test_solve_json_is_one_document_of_row_strings(capsys):
    code, out, _ = run(capsys, "hyperqueen", "solve", "7", "--json")
    document = json.loads(out)
    assert code == 0 and document["count"] == 28 == len(document["solutions"])
    problem = hyperqueen.problem(7)
    for item in document["solutions"]:
        placement = tuple(row.replace(" ", "").index("Q") for row in item["board"])
        assert queens.placement_violations(problem, placement) == []
        assert queens.violations(problem, hyperqueen.PUZZLE.answer_from_json(problem, item["answer"])) == []


def test_solve_unique_and_limit(capsys):
    code, out, _ = run(capsys, "hyperqueen", "solve", "13", "--unique", "--json")
    assert json.loads(out)["count"] == 11
    code, out, _ = run(capsys, "queens", "solve", "10", "--limit", "3")
    assert len(out.strip().split("\n\n")) == 3


def test_svg_is_written_whole(capsys, tmp_path):
    target = tmp_path / "hq.svg"
    code, _, err = run(capsys, "hyperqueen", "solve", "7", "--svg", str(target))
    assert code == 0 and "wrote 28 boards" in err
    root = ET.fromstring(target.read_text())
    assert sum(1 for e in root.iter() if e.get("data-piece") == "Q") == 28 * 7
    assert [p.name for p in tmp_path.iterdir()] == ["hq.svg"]  # no temporary file left behind


def test_a_failed_svg_write_leaves_the_users_file_alone(capsys, tmp_path):
    target = tmp_path / "keep.svg"
    target.write_text("precious")
    code, _, err = run(capsys, "hyperqueen", "solve", "9", "--svg", str(target))
    assert code == 1 and target.read_text() == "precious"


def test_check_accepts_and_refuses(capsys, tmp_path):
    code, out, _ = run(capsys, "hyperqueen", "check", str(DATA / "hyperqueen7_first.txt"))
    assert code == 0 and out.startswith("a solution")
    code, out, _ = run(capsys, "queens", "check", str(DATA / "queens4_wrong.txt"), "--json")
    document = json.loads(out)
    assert code == 1 and document["valid"] is False and len(document["violations"]) == 2
    assert document["faults"] == [
        {"message": "a4 and d1 share a diagonal", "squares": ["a4", "d1"], "lines": [["a4", "d1"]], "kind": "wrong"},
        {"message": "c3 and b2 share a diagonal", "squares": ["c3", "b2"], "lines": [["c3", "b2"]], "kind": "wrong"},
    ]
    assert [f["message"] for f in document["faults"]] == document["violations"]
    # A classic 6x6 solution, which the wrapped diagonals of the torus refuse:
    wrapped = tmp_path / "wrapped.txt"
    wrapped.write_text(".Q....\n...Q..\n.....Q\nQ.....\n..Q...\n....Q.\n")
    assert run(capsys, "queens", "check", str(wrapped))[0] == 0
    assert run(capsys, "hyperqueen", "check", str(wrapped))[0] == 1


@pytest.mark.parametrize(
    "puzzle,picture,foreign",
    [
        ("queens", ". K . .\n. . . Q\nQ . . .\n. . Q .\n", "K"),  # a solution, but for a K
        ("hyperqueen", "Q......\n..Z....\n....Q..\n......Q\n.Q.....\n...Q...\n.....Q.\n", "Z"),
        ("kings", "K . Q .\n. . . .\nZ . K .\n. . . .\n", "Q"),
        ("queens", "hello\nworld\nfoo\n", "h"),  # was judged as a 3x5 board of queens
        ("less-than-three", "XOQ\n...\n...\n", "Q"),
    ],
)
def test_check_refuses_a_character_that_is_not_the_puzzles_piece(capsys, tmp_path, puzzle, picture, foreign):
    answer = tmp_path / "answer.txt"
    answer.write_text(picture)
    code, out, err = run(capsys, puzzle, "check", str(answer))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"unexpected {foreign!r}" in err and "'.' or space" in err


def test_check_still_reads_its_own_pieces_in_every_spelling(capsys, tmp_path):
    answer = tmp_path / "answer.txt"
    for picture in (".Q..\n...Q\nQ...\n..Q.\n", '" Q  "\n"   Q"\n"Q   "\n"  Q "\n'):  # plain, quoted
        answer.write_text(picture)
        assert run(capsys, "queens", "check", str(answer))[0] == 0
    answer.write_text("K . K .\n. . . .\nK . K .\n")
    assert run(capsys, "kings", "check", str(answer))[0] == 0
    assert run(capsys, "kings", "check", str(DATA / "kings4_wrong.txt"))[0] == 1


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["hyperqueen", "count", "-3"], "at least 1"),
        (["hyperqueen", "count", "0"], "at least 1"),
        (["hyperqueen", "count", "abc"], "must be a whole number"),
        (["hyperqueen", "count", "2.5"], "must be a whole number"),
        (["hyperqueen", "count", "63"], "at most 62"),
        (["queens", "count", "100000"], "at most 62"),
        (["queens", "solve", "-1"], "at least 1"),
        (["queens", "count"], "Missing argument"),
        (["queens", "count", "8", "9"], "unexpected extra argument"),
        (["hyperqueen", "count", "7", "--jobs", "0"], "--jobs"),
        (["hyperqueen", "count", "7", "--unique", "--group", "dihedral"], "--group"),
        (["hyperqueen", "solve", "7", "--limit", "0"], "--limit"),
        (["hyperqueen", "solve", "7", "--svg", "/no/such/folder/x.svg"], "does not exist"),
        # a folder that takes no new files, which os.access allows root: refused before the search
        (["queens", "solve", "8", "--svg", "/proc/x.svg"], "cannot write /proc/x.svg"),
        # a group without --unique was silently ignored (the count of all placements came back)
        (["hyperqueen", "count", "7", "--group", "full"], "add --unique"),
        (["hyperqueen", "check", "/no/such/file.txt"], "no such file"),
        (["hyperqueen", "frobnicate"], "No such command"),
        (["sudoku"], "No such command"),
        (["hyperqueen", "count", "7", "--bogus"], "bogus"),
    ],
)
def test_bad_input_gets_one_line_and_exit_2(capsys, args, fragment):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.startswith("boardpuzzles: error: ") and err.count("\n") == 1, err
    assert fragment in err


@pytest.mark.parametrize(
    "picture,fragment",
    [
        ("", "empty"),
        ("Q.7\n", "line 1, column 3"),
        ("Q..\n.Q.\n", "the board is 2x3"),
        ("Q..\n...\n..Q\n", "2 queens on a 3x3 board"),
    ],
)
def test_bad_pictures_for_check(capsys, tmp_path, picture, fragment):
    import re

    path = tmp_path / "p.txt"
    path.write_text(picture)
    code, out, err = run(capsys, "queens", "check", str(path))
    assert code in (1, 2)
    assert re.search(fragment, out + err)
    assert "Traceback" not in out + err


def test_help_lists_the_puzzles_and_each_puzzle_shows_examples(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "hyperqueen" in out and "queens" in out and "Exit codes" in out
    for puzzle in ("hyperqueen", "queens"):
        for command in ("solve", "count", "check"):
            code, out, _ = run(capsys, puzzle, command, "--help")
            assert code == 0 and "Examples:" in out


def test_bare_command_shows_help(capsys):
    code, out, _ = run(capsys)
    assert code == 0 and "Usage" in out


def test_the_console_script_is_installed_and_reports_exit_codes():
    script = Path(sys.executable).parent / "boardpuzzles"
    assert script.exists()
    done = subprocess.run([str(script), "hyperqueen", "count", "abc"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    done = subprocess.run([str(script), "queens", "count", "6"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "4\n"


def test_python_dash_m_runs_the_same_command_line():
    done = subprocess.run(
        [sys.executable, "-m", "boardpuzzles", "queens", "count", "6"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout == "4\n"  # OEIS A000170
    done = subprocess.run(
        [sys.executable, "-m", "boardpuzzles", "queens", "count", "x"], capture_output=True, text=True
    )
    assert done.returncode == 2 and done.stderr.startswith("boardpuzzles: error:") and done.stderr.count("\n") == 1


def test_output_into_a_closed_pipe_is_not_an_error():
    script = Path(sys.executable).parent / "boardpuzzles"
    done = subprocess.run(
        f"'{script}' queens solve 10 | head -n 1", shell=True, capture_output=True, text=True, env={**os.environ}
    )
    assert done.stdout == ". Q . . . . . . . .\n" or done.stdout.startswith("Q")
    assert "Traceback" not in done.stderr and "Error" not in done.stderr


def test_less_than_three_find_exit_codes(capsys):
    code, out, err = run(capsys, "less-than-three", "find", "10")
    assert code == 0 and len(out.strip().splitlines()) == 10 and "found a board" in err
    code, out, err = run(capsys, "less-than-three", "find", "44", "--time-limit", "0.5")
    assert code == 3 and out == "" and "gave up" in err
    code, out, err = run(capsys, "less-than-three", "find", "4", "--max-in-line", "1")
    assert code == 1 and "no board exists" in err


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["less-than-three", "count", "7", "--stones", "20"], "at most 14"),
        (["less-than-three", "count", "abc"], "must be a whole number"),
        (["less-than-three", "count", "4", "--colours", "3"], "do not fit"),
        (["less-than-three", "count", "--swap-colours"], "--unique"),
        (["less-than-three", "find", "8", "--colours", "2"], "no such option: --colours"),
        (["less-than-three", "find"], "Missing argument 'N'"),
        (["less-than-three", "check", "/no/such/file"], "no such file"),
    ],
)
def test_less_than_three_bad_input_gets_one_line_and_exit_2(capsys, args, fragment):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and fragment in err


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["queens", "count", "8", "--foo"], "no such option: --foo;"),
        (["less-than-three", "find", "20", "--jbos", "2"], "--jbos (did you mean --jobs?)"),
        (["knights-tour", "count", "5", "--stat=a1"], "--stat=a1 (did you mean --start?)"),
        (["queens", "count", "8", "9"], "unexpected extra argument (9)"),
        (["queens", "count", "8", "9", "--foo"], "no such option: --foo;"),
        (["queens", "count", "-5"], "at least 1"),
    ],
)
def test_unknown_options_are_named_as_such(capsys, args, fragment):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and err.count("\n") == 1 and fragment in err


def test_less_than_three_check(capsys, tmp_path):
    code, out, _ = run(capsys, "less-than-three", "solve", "--limit", "1")
    picture = tmp_path / "b.txt"
    picture.write_text(out)
    assert run(capsys, "less-than-three", "check", str(picture))[0] == 0
    picture.write_text(out.replace("X", "O", 1))
    code, out, _ = run(capsys, "less-than-three", "check", str(picture))
    assert code == 1 and "13 O stones" in out


def test_an_impossible_family_member_counts_zero_and_says_so(capsys):
    # With K = 1 no two stones may share a line, and any two stones do.
    code, out, err = run(capsys, "less-than-three", "count", "3", "--colours", "1", "--max-in-line", "1")
    assert (code, out) == (0, "0\n") and "no solution" in err


def test_the_demo_runs_and_every_count_matches(capsys):
    # `make demo` is the README's first command: it must finish, and every published value match.
    assert _run(["demo"]) == 0
    out = capsys.readouterr().out
    assert "MISMATCH" not in out and out.count(" ok (") >= 15
    assert "order:" in out and "Black wins" in out
    # the Baikago block says what was played and draws the board as `baikago judge` does
    assert "A game on 9x9, black first: e5 a1" in out and "  a b c d e f g h i" in out


def test_writing_a_file_keeps_its_permissions_and_links(tmp_path):
    from boardpuzzles.cli.common import write_file_atomically

    target = tmp_path / "picture.svg"
    target.write_text("old")
    target.chmod(0o644)
    link = tmp_path / "link.svg"
    link.symlink_to(target)
    write_file_atomically(str(link), "new")
    assert link.is_symlink() and target.read_text() == "new"
    assert (target.stat().st_mode & 0o777) == 0o644
    fresh = tmp_path / "fresh.svg"
    write_file_atomically(str(fresh), "x")
    assert (fresh.stat().st_mode & 0o777) == 0o666 & ~_umask()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_writing_to_a_named_pipe_writes_into_it_and_leaves_the_pipe(tmp_path):
    # Renaming over a device or a pipe would leave a plain file in its place (found with
    # `--svg /dev/null`, which turned /dev/null into a file when run as root).
    import threading

    from boardpuzzles.files import replace_file

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_bytes()))
    reader.start()
    replace_file(str(pipe), [b"drawn"])
    reader.join(10)
    assert received == [b"drawn"]
    assert pipe.is_fifo()


def test_an_output_on_the_file_behind_stdout_follows_what_was_printed(tmp_path):
    # `--svg /dev/stdout > out.txt`: the picture goes after the boards, not over them.
    out = tmp_path / "out.txt"
    with out.open("wb") as handle:
        done = subprocess.run(
            [sys.executable, "-m", "boardpuzzles", "queens", "solve", "5", "--limit", "1", "--svg", "/dev/stdout"],
            stdout=handle,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")},
            check=False,
        )
    assert done.returncode == 0
    text = out.read_text()
    assert text.startswith("Q . . . .") and text.count("<svg") == 1 and text.rstrip().endswith("</svg>")


def test_an_output_to_stdout_on_a_pipe_is_written_into_the_pipe():
    # /dev/stdout on a pipe is a link that os.path.realpath cannot name ("pipe:[...]").
    done = subprocess.run(
        [sys.executable, "-m", "boardpuzzles", "queens", "find", "5", "--svg", "/dev/stdout"],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode()
    assert text.startswith(". Q . . .") and text.count("<svg") == 1 and text.rstrip().endswith("</svg>")


def test_two_outputs_on_one_file_and_a_dash_are_refused_before_any_work(capsys, tmp_path):
    picture = tmp_path / "x.svg"
    code, _, err = run(capsys, "queens", "solve", "5", "--limit", "1", "--svg", str(picture), "--png", str(picture))
    assert code == 2 and "--svg writes the same file" in err and not picture.exists()
    code, _, err = run(capsys, "queens", "solve", "5", "--limit", "1", "--svg", "-")
    assert code == 2 and "/dev/stdout" in err and not Path("-").exists()


def test_json_nested_too_deeply_is_bad_input_not_a_bug(capsys, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    code, _, err = run(capsys, "queens", "check", str(deep))
    assert code == 2 and "nested too deeply" in err


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_an_error_before_any_answer_leaves_json_stdout_empty(capsys):
    """The review: `solve --json` printed the head of its document, then failed, leaving broken JSON."""
    code, out, err = run(capsys, "knights-tour", "solve", "9x9", "--json")
    assert code == 2 and out == "" and "64 squares" in err


def test_a_file_wins_over_a_look_alike_literal(capsys, tmp_path, monkeypatch):
    """The review: a path starting with goishi/ was read as a puz.link URL, and an existing but
    unreadable answer file was parsed as an order."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "goishi").mkdir()
    (tmp_path / "goishi" / "x.txt").write_text("OOO\n.O.\n")
    code, out, _ = run(capsys, "goishi", "count", "goishi/x.txt")
    assert code == 0 and out.strip().isdigit()
    big = tmp_path / "big.txt"
    big.write_bytes(b"a1 " * (1024 * 1024))
    code, _, err = run(capsys, "goishi", "check", "goishi/4/4/1370", str(big))
    assert code == 2 and "too large" in err


# ---------------------------------------------------------------- check reads what --json prints
GOISHI_6X6 = "O..O..\n.O.O..\n...O.O\n...O.O\n......\n.OO...\n"  # goishi generate 6x6 --stones 10 --seed 1


@pytest.mark.parametrize(
    "make,check,answers",
    [
        (["queens", "solve", "6", "--json"], ["queens", "check"], 4),  # OEIS A000170: 4 on 6x6
        (["hyperqueen", "solve", "7", "--json", "--limit", "3"], ["hyperqueen", "check"], 3),
        (["kings", "solve", "4", "--kings", "4", "--json", "--limit", "2"], ["kings", "check"], 2),
        (["knights-tour", "solve", "5", "--json", "--limit", "2"], ["knights-tour", "check", "5"], 2),
        (["knights-tour", "find", "6x6", "--closed", "--json"], ["knights-tour", "check", "6"], 1),
        (["less-than-three", "find", "10", "--json"], ["less-than-three", "check"], 1),
        (["less-than-three", "solve", "4", "-c", "1", "--json", "--limit", "3"], ["less-than-three", "check"], 3),
        (["goishi", "solve", "{puzzle}", "--json"], ["goishi", "check", "{puzzle}"], 1),
    ],
)
def test_check_reads_the_json_that_solve_and_find_print(capsys, tmp_path, make, check, answers):
    puzzle = tmp_path / "goishi.txt"
    puzzle.write_text(GOISHI_6X6)
    make = [str(puzzle) if a == "{puzzle}" else a for a in make]
    check = [str(puzzle) if a == "{puzzle}" else a for a in check]
    code, out, _ = run(capsys, *make)
    assert code == 0 and len(json.loads(out)["solutions"]) == answers
    document = tmp_path / "answers.json"
    document.write_text(out)
    # The problem's own options (--closed, --colours 1) come from the document.
    code, out, err = run(capsys, *check, str(document))
    assert code == 0, err
    assert out.startswith(f"all {answers} answers are solutions" if answers > 1 else "a solution")
    # Each answer is checked: spoil the last one's board (its first row twice), and it alone is named.
    spoilt = json.loads(document.read_text())
    board = spoilt["solutions"][-1]["board"]
    board[1] = board[0]
    if board[-1].startswith("order:"):  # Goishi's picture ends with the order, which is what is read
        board[-1] = "order: " + " ".join(reversed(board[-1].split()[1:]))
    del spoilt["solutions"][-1]["answer"]  # else the board would no longer match it (tested below)
    document.write_text(json.dumps(spoilt))
    code, out, err = run(capsys, *check, str(document))
    if code == 2:  # a picture that does not read (a number twice in a tour): named as well
        assert err.startswith(f"boardpuzzles: error: answer {answers}:" if answers > 1 else "boardpuzzles: error:")
    else:
        assert code == 1 and "not a solution" in out
        assert answers == 1 or out.count(f"answer {answers}:") == out.count("not a solution") > 0


@pytest.mark.parametrize(
    "make,check",
    [
        (["queens", "solve", "6", "--json", "--limit", "2"], ["queens", "check"]),
        (["less-than-three", "find", "10", "--json"], ["less-than-three", "check"]),
        (["knights-tour", "solve", "5", "--json", "--limit", "1"], ["knights-tour", "check", "5"]),
    ],
)
def test_check_refuses_a_document_whose_answer_and_board_differ(capsys, tmp_path, make, check):
    """A JSON answer holds the answer twice ("answer" and the "board" picture); check judges the
    picture, so an "answer" edited alone must not pass unseen."""
    code, out, _ = run(capsys, *make)
    document = json.loads(out)
    item = document["solutions"][-1]
    answer = tmp_path / "edited.json"
    first = next(iter(item["answer"].values())) if isinstance(item["answer"], dict) else item["answer"]
    first[0], first[1] = first[1], first[0]  # two squares swapped: another answer, or another order
    if isinstance(item["answer"], dict):  # squares by piece: move one piece to an empty square
        empty = next(f"{c}{r}" for c in "abcdefghij" for r in range(1, 11) if f"{c}{r}" not in first)
        first[0] = empty
    answer.write_text(json.dumps(document))
    code, out, err = run(capsys, *check, str(answer))
    assert code == 2 and "'answer' and 'board' hold different answers" in err and out == ""
    item["answer"] = {"nonsense": 3}
    answer.write_text(json.dumps(document))
    code, out, err = run(capsys, *check, str(answer))
    assert code == 2 and "'answer' cannot be read" in err and err.count("\n") == 1
    del item["answer"]  # the picture alone is checked, as before
    answer.write_text(json.dumps(document))
    assert run(capsys, *check, str(answer))[0] == 0


def test_an_option_given_to_check_wins_over_the_documents_problem(capsys, tmp_path):
    code, out, _ = run(capsys, "less-than-three", "solve", "4", "-c", "1", "--json", "--limit", "1")
    document = tmp_path / "one.json"
    document.write_text(out)
    assert run(capsys, "less-than-three", "check", str(document))[0] == 0
    code, out, _ = run(capsys, "less-than-three", "check", "-c", "2", str(document))
    assert code == 1 and "not a solution" in out  # 8 stones of one colour are no 2-colour board


@pytest.mark.parametrize(
    "text,fragment",
    [
        ('{"solutions": [', "not valid JSON"),
        ("[1, 2]", "not a document of answers"),
        ('{"puzzle": "hyperqueen", "solutions": []}', "'hyperqueen' answers, not 'queens'"),
        ('{"puzzle": "queens", "solutions": []}', "holds no answer"),
        ('{"puzzle": 3, "solutions": []}', "should be a puzzle's name, got 3"),
        ('{"puzzle": "queens"}', "without 'solutions'"),
        ('{"solutions": [{"answer": [1, 3, 0, 2]}]}', "need their 'board'"),
        ('{"solutions": [{"board": "Q..."}]}', "need their 'board'"),
    ],
)
def test_a_bad_json_answer_gets_one_line_and_exit_2(capsys, tmp_path, text, fragment):
    answer = tmp_path / "answer.json"
    answer.write_text(text)
    code, out, err = run(capsys, "queens", "check", str(answer))
    assert code == 2 and fragment in err and err.count("\n") == 1 and out == ""


def test_check_reads_every_board_of_a_listing_as_solve_prints_it(capsys, tmp_path):
    code, out, _ = run(capsys, "queens", "solve", "6")
    listing = tmp_path / "six.txt"
    listing.write_text(out)
    code, out, _ = run(capsys, "queens", "check", str(listing))
    assert code == 0 and out.startswith("all 4 answers are solutions")  # OEIS A000170: 4 on 6x6
    boards = listing.read_text().split("\n\n")
    rows = boards[1].split("\n")
    rows[1] = rows[0]  # two queens in one column
    boards[1] = "\n".join(rows)
    listing.write_text("\n\n".join(boards))
    code, out, _ = run(capsys, "queens", "check", str(listing))
    assert code == 1 and out.count("answer 2:") == out.count("not a solution") > 0
    # Parts of different shapes are one picture (here: a board with an empty row typed empty).
    gap = tmp_path / "gap.txt"
    gap.write_text("K . K .\n\n. . . .\nK . K .\n")
    code, out, _ = run(capsys, "kings", "check", "--kings", "4", str(gap))
    assert code == 0 and out.startswith("a solution")


def test_the_exit_codes_a_count_lists_are_the_ones_it_gives(capsys):
    """A count of none is an answer: 0 printed, exit 0 (scripts read the number); its help says
    so, in every count command, instead of the "1: no solution" of the others."""
    from boardpuzzles.cli import cli

    for puzzle, command in cli.commands.items():
        if isinstance(command, click.Group) and "count" in command.commands:
            code, text, _ = run(capsys, puzzle, "count", "--help")
            codes = text.split("Exit codes:")[1]
            assert code == 0
            assert "0    counted (0 included" in codes and "\n  1 " not in codes, puzzle
    for args in (["queens", "count", "3"], ["dominoes", "count", "3"], ["queens", "count", "3", "--max", "2"]):
        code, out, err = run(capsys, *args)
        assert (code, out.splitlines()[-1]) == (0, "0") and "no solution" in err
    code, out, err = run(capsys, "queens", "count", "8", "--max", "2")
    assert (code, out) == (0, "2\n") and "at least" in err
    assert "not `count`: a count of 0 is an answer" in run(capsys, "--help")[1]


def test_the_list_of_commands_is_in_one_style(capsys):
    """Each command's short help in `boardpuzzles --help` is a sentence: a capital and a full stop,
    whether it is a puzzle's title or a command's own first line."""
    code, out, _ = run(capsys, "--help")
    listing = out.split("Commands:\n")[1].split("\n\n")[0]
    entries: list[str] = []
    for line in listing.splitlines():
        if line.startswith("   "):  # the wrapped rest of the entry above
            entries[-1] += " " + line.strip()
        else:
            entries.append(line.strip().partition("  ")[2].strip())
    assert code == 0 and len(entries) >= 10
    for text in entries:
        assert text[:1].isupper() and text.endswith(".") and not text.endswith(".."), text


@pytest.mark.parametrize(
    "args",
    [
        ["queens", "solve", "8", "--limit", "1", "--svg", "{}/a.png"],
        ["queens", "solve", "8", "--limit", "1", "--png", "{}/a.svg"],
        ["queens", "find", "8", "--svg", "{}/a"],
        ["knights-tour", "find", "5", "--png", "{}/tour.svg"],
        ["less-than-three", "find", "6", "--svg", "{}/board.svg.txt"],
        ["goishi", "generate", "6", "--stones", "9", "--svg", "{}/new.png"],
        ["goishi", "animate", "goishi/6/7/vsten1tvo", "--gif", "{}/walk.png"],
        ["goishi", "animate", "goishi/6/7/vsten1tvo", "--svg", "{}/walk.gif"],
        ["baikago", "judge", "tests/data/baikago/black_plus.txt", "--svg", "{}/cross.png"],
        ["baikago", "judge", "tests/data/baikago/black_plus.txt", "--png", "{}/cross.svg"],
    ],
)
def test_a_picture_file_named_for_another_kind_is_refused_before_any_work(capsys, tmp_path, args):
    words = [word.format(tmp_path) for word in args]
    code, out, err = run(capsys, *words)
    option = next(word for word in words if word in ("--svg", "--png", "--gif"))
    kind = option[2:]
    assert code == 2 and out == "" and list(tmp_path.iterdir()) == []
    assert err.startswith("boardpuzzles: error: cannot write ") and err.count("\n") == 1
    assert err.rstrip().endswith(f"{option} writes {kind.upper()}; give a file name ending in .{kind}")


def test_a_picture_suffix_is_taken_in_any_case(capsys, tmp_path):
    code, _, err = run(capsys, "queens", "solve", "5", "--limit", "1", "--svg", str(tmp_path / "A.SVG"))
    assert code == 0 and (tmp_path / "A.SVG").read_text().startswith("<svg")


def test_usage_lines_and_picture_options_read_as_usual(capsys):
    """An optional argument is shown [N] in the usage line, and a picture goes into "an SVG file"."""
    code, out, _ = run(capsys, "less-than-three", "count", "--help")
    assert code == 0 and out.splitlines()[0] == "Usage: boardpuzzles less-than-three count [OPTIONS] [N]"
    code, out, _ = run(capsys, "goishi", "generate", "--help")
    flat = " ".join(out.split())
    assert code == 0 and "into an SVG file" in flat and "a SVG" not in flat and "into a PNG file" in flat
