"""Regression tests of the input audit: each input here once ended in an internal error (exit 70),
a traceback, a hang or unbounded memory, or was misread. Every error must reach the user as one
short line with exit 2; the library raises BoardPuzzlesError and nothing else.

Input caps (documented in ``cli.common``): a FILE or standard input holds at most 1 MiB
(``MAX_INPUT_BYTES``), a knight's tour file 1 MiB plus 16 bytes a square; a text picture at most
1,048,576 cells (``board.MAX_CELLS``); numbers at most 18 digits in files (``errors.MAX_DIGITS``)
and a signed 64-bit word on the command line; seconds finite and at most 10,000,000 (``--delay``:
60); seeds 0 .. 2**63 - 1 (knight's tours: 2**32 - 1, what numba keeps).
"""

from __future__ import annotations

import io
import math
import os
import subprocess
import sys
import textwrap
import tracemalloc

import pytest

from boardpuzzles import board as board_module
from boardpuzzles.cli import _run
from boardpuzzles.errors import BoardPuzzlesError, ParseError, SizeError, excerpt, whole_number
from boardpuzzles.formats import goishi as formats
from boardpuzzles.grid import Grid, parse_size
from boardpuzzles.inputs import MAX_INPUT_BYTES
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import goishi as gh
from boardpuzzles.puzzles import knights_tour as kt
from boardpuzzles.puzzles import less_than_three as lt3
from boardpuzzles.puzzles.baikago import Record, judge_text
from tests.timing import measured

URL = "https://puzz.link/p?goishi/6/7/vsten1tvo"
ORDER = "e3 d3 d4 d5 b5 b4 b3 c3 c6 d6 d2"  # its solution
HUGE = "9" * 5000  # beyond Python's 4300-digit limit of int()
QUEENS4 = ".Q..\n...Q\nQ...\n..Q.\n"
CLI = [sys.executable, "-c", "from boardpuzzles.cli import main; main()"]
TOUR3X4 = "1 4 7 10\n12 9 2 5\n3 6 11 8\n"  # kt.picture of a 3x4 tour


def run(capsys, monkeypatch, *args, stdin: str | bytes | None = None):
    if stdin is not None:
        data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    code = _run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def refused(code: int, err: str, fragment: str = "") -> bool:
    """One short error line, exit 2: the convention for bad input."""
    return (
        code == 2
        and err.startswith("boardpuzzles: error: ")
        and err.count("\n") == 1
        and len(err) < 400
        and "internal error" not in err
        and fragment in err
    )


# ---------------------------------------------------------------- 1. long strings are not file names
LONG_ORDER = " ".join([ORDER] * 30)  # 989 characters: a legal spelling of an illegal order
LONG_URL = "https://puzz.link/p?type=editor&" + "a=b&" * 1100 + "goishi/6/7/vsten1tvo"  # over PATH_MAX


@pytest.mark.parametrize(
    "args,codes",
    [
        (["goishi", "check", URL, LONG_ORDER], {1}),
        (["goishi", "check", URL, "x" * 300], {2}),
        (["goishi", "animate", URL, "--order", LONG_ORDER, "--json"], {2}),  # replays only legal orders
        (["goishi", "solve", LONG_URL], {0}),
        (["goishi", "solve", "/" + "a" * 5000], {2}),
        (["goishi", "check", URL, "(" * 10_000 + "1,1" + ")" * 10_000], {2}),
    ],
)
def test_long_orders_and_urls_are_not_tried_as_file_names(capsys, monkeypatch, args, codes):
    code, _, err = run(capsys, monkeypatch, *args)
    assert code in codes and "internal error" not in err and len(err) < 400


@pytest.mark.parametrize("option", ["--svg", "--checkpoint"])
@pytest.mark.parametrize("path", ["p" * 300, "a\0b", ""])
def test_an_output_path_that_cannot_be_a_file_is_refused_in_one_line(capsys, monkeypatch, option, path):
    command = ["queens", "count", "4"] if option == "--checkpoint" else ["queens", "solve", "4"]
    code, _, err = run(capsys, monkeypatch, *command, option, path)
    assert refused(code, err, "cannot write")


# ---------------------------------------------------------------- 2. huge numbers
@pytest.mark.parametrize(
    "call",
    [
        lambda: parse_size(HUGE),
        lambda: parse_size("3x" + HUGE),
        lambda: Grid(5, 5).cell_named("a" + HUGE),
        lambda: Grid(5, 5).cell_named("a" * 100_000 + "1"),
        lambda: formats.read("goishi/" + HUGE + "/7/vsten1tvo"),
        lambda: formats.read(f"pzprv3\ngoishi\n{HUGE}\n3\n"),
        lambda: formats.read(f"O {HUGE}\n. O\n"),
        lambda: gh.parse_order(formats.read(URL).puzzle, f"({HUGE},1)"),
        lambda: kt.parse_tour(HUGE, 1, 1),
        lambda: Record.parse(f'[Size "{HUGE}"]\n'),
        lambda: Record.parse(f'[MaxD "{HUGE}"]\n'),
        lambda: judge_text("X\n", size=10**5000),
        lambda: gh.generate(10**5000, 4, 3),
    ],
)
def test_a_huge_number_is_a_board_puzzles_error(call):
    with pytest.raises(BoardPuzzlesError) as caught:
        call()
    assert len(str(caught.value)) < 300


@pytest.mark.parametrize(
    "args",
    [
        ["knights-tour", "find", HUGE],
        ["knights-tour", "solve", "5", "--start", "a" + HUGE],
        ["queens", "count", HUGE],
        ["queens", "solve", "4", "--limit", "1" + "0" * 30],  # islice refused it: exit 70
        ["queens", "count", "4", "--jobs", "1" + "0" * 30],
        ["less-than-three", "find", "6", "--jobs", "100000"],  # one thread per job
        ["less-than-three", "count", HUGE],
        ["goishi", "generate", HUGE, "--stones", "3"],
        ["goishi", "generate", "4", "--stones", HUGE],
        ["goishi", "count", URL, "--max", HUGE],
        ["baikago", "judge", "-", "--size", HUGE],
        ["baikago", "judge", "-", "--max-d", HUGE],
    ],
)
def test_a_huge_number_on_the_command_line_is_one_short_line(capsys, monkeypatch, args):
    code, _, err = run(capsys, monkeypatch, *args, stdin="X..\n...\n...\n")
    assert refused(code, err)


ZEROS = "0" * 5000  # int() counts leading zeros against its limit too


def test_leading_zeros_do_not_reach_int(capsys, monkeypatch):
    puzzle = formats.read(URL).puzzle
    assert parse_size(ZEROS + "5") == (5, 5)
    assert Grid(5, 5).cell_named("a" + ZEROS + "1") == 20
    assert whole_number(ZEROS + "7", "n") == 7
    assert kt.parse_tour(ZEROS + "1", 1) == [0]
    assert gh.parse_order(puzzle, f"({ZEROS}4,{ZEROS}4)") == gh.parse_order(puzzle, "e3")
    assert formats.read(f"pzprv3\ngoishi\n{ZEROS}1\n{ZEROS}2\n{ZEROS}1 0 \n").order == (0,)
    code, out, _ = run(capsys, monkeypatch, "queens", "count", ZEROS + "8")
    assert (code, out) == (0, "92\n")


def test_whole_number_reads_ascii_digits_only_and_bounds_them_first():
    assert whole_number("0042", "n") == 42
    for text in ("\u0664", "1_0", " 1", "+1", "²", ""):
        with pytest.raises(ParseError):
            whole_number(text, "n")
    with pytest.raises(SizeError, match="too large"):
        whole_number("1" * 19, "n")


# ---------------------------------------------------------------- 3. unicode digits
@pytest.mark.parametrize("text", ["1²", "1 2²\n3 4\n", "\u0661\n"])
def test_unicode_digits_in_a_numbered_tour_are_refused(capsys, monkeypatch, text):
    code, _, err = run(capsys, monkeypatch, "knights-tour", "check", "2" if "\n3" in text else "1", "-", stdin=text)
    assert refused(code, err)
    with pytest.raises(ParseError, match="is not"):
        kt.parse_tour(text, 2 if "\n3" in text else 1)


@pytest.mark.parametrize(
    "call",
    [
        lambda: gh.parse_order(formats.read(URL).puzzle, "(\u0664,\u0664)"),
        lambda: formats.read("pzprv3\ngoishi\n\u0663\n3\n"),
        lambda: Record.parse('[Size "\u0669"]\n'),
        lambda: Record.parse('[Size "1_5"]\n'),
        lambda: Grid(12, 12).cell_named("\u212a1"),  # the Kelvin sign lower-cases to an ASCII k
    ],
)
def test_unicode_digits_are_not_numbers_anywhere(call):
    with pytest.raises(BoardPuzzlesError):
        call()


# ---------------------------------------------------------------- 4. seconds
@pytest.mark.parametrize(
    "args",
    [
        ["goishi", "animate", URL, "--delay", "nan"],
        ["goishi", "animate", URL, "--delay", "1e308"],  # time.sleep overflowed
        ["goishi", "animate", URL, "--delay", "inf"],
        ["goishi", "animate", URL, "--delay", "300", "--gif", "walk.gif"],  # a GIF frame holds 655 s
        ["queens", "count", "6", "--time-limit", "nan"],  # meant "no limit"
        ["queens", "count", "6", "--time-limit", "inf"],
        ["queens", "count", "6", "--time-limit", "1e308"],
        ["hyperqueen", "count", "1", "--time-limit", HUGE],  # echoed all 5,000 digits (CI, stop 22)
        ["less-than-three", "find", "6", "--time-limit", "nan"],
        ["goishi", "generate", "4", "--stones", "5", "--time-limit", "nan"],  # ran forever
        ["goishi", "generate", "4", "--stones", "5", "--time-limit", "-1"],
    ],
)
def test_seconds_must_be_finite_and_sensible(capsys, monkeypatch, tmp_path, args):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, monkeypatch, *args)
    assert refused(code, err, "seconds")


def test_a_time_limit_that_is_not_a_number_is_refused():
    for bad in (math.nan, math.inf, 0, -1, "60"):
        with pytest.raises(BoardPuzzlesError, match="time limit"):
            Limits(bad)


# ---------------------------------------------------------------- 5. seeds
@pytest.mark.parametrize(
    "args",
    [
        ["less-than-three", "find", "6", "--seed", "-1"],
        ["knights-tour", "find", "8", "--seed", "18446744073709551616"],  # was a 15-line numba error
        ["knights-tour", "find", "8", "--seed", "-1"],
        ["goishi", "generate", "4", "--stones", "5", "--seed", "-1"],
        ["goishi", "generate", "4", "--stones", "5", "--seed", HUGE],
    ],
)
def test_seeds_out_of_range_are_refused_on_the_command_line(capsys, monkeypatch, args):
    code, _, err = run(capsys, monkeypatch, *args)
    assert refused(code, err, "--seed")


@pytest.mark.parametrize(
    "call",
    [
        lambda: lt3.find(lt3.Rules(6, 1, 2), Limits(1), seed=-1),
        lambda: kt.find(8, seed=2**64),
        lambda: kt.find(8, seed=-1),
        lambda: kt.find(8, seed="1"),
        lambda: gh.generate(5, 5, 8, seed=-1, limits=Limits(30)),  # random.Random took -1 as 1
        lambda: gh.generate(5, 5, 8, seed=1.5, limits=Limits(30)),
    ],
)
def test_library_functions_validate_their_seeds(call):
    with pytest.raises(BoardPuzzlesError, match="the seed must"):
        call()


def test_the_largest_knights_tour_seed_works_for_every_attempt():
    # seed + attempt once passed 2**63 - 1 to numba; now the 32 bits it keeps are passed.
    result = kt.find(10, closed=True, seed=2**63 - 1)
    assert result.tour is not None and kt.check(10, 10, result.tour, closed=True)


# ---------------------------------------------------------------- 6. input caps and bounded memory
def test_standard_input_over_the_cap_is_refused_without_reading_it_all(capsys, monkeypatch):
    big = io.BytesIO(b"O" * (50 << 20))  # 50 MB: once 3.8 GB of memory and a MemoryError
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(big, encoding="utf-8"))
    code, _, err = run(capsys, monkeypatch, "goishi", "solve", "-")
    assert refused(code, err, "too large") and f"{MAX_INPUT_BYTES:,} bytes" in err
    assert big.tell() <= MAX_INPUT_BYTES + (1 << 16)  # read no further than the cap (and a block)


def test_a_file_at_the_cap_is_read_and_one_byte_more_is_refused(capsys, monkeypatch, tmp_path):
    path = tmp_path / "queens.txt"
    path.write_text(QUEENS4 + "\n" * (MAX_INPUT_BYTES - len(QUEENS4)))
    assert run(capsys, monkeypatch, "queens", "check", str(path))[0] == 0
    path.write_text(QUEENS4 + "\n" * (MAX_INPUT_BYTES - len(QUEENS4) + 1))
    code, _, err = run(capsys, monkeypatch, "queens", "check", str(path))
    assert refused(code, err, "too large")


def _child(args: list[str], stdin: bytes | None = None, memory: int = 2 << 30) -> tuple[int, str, float]:
    """Run the command line in a fresh interpreter under a memory limit (so that old code fails
    instead of exhausting the machine); returns its exit code, stderr and peak memory in MB.

    The peak is the child's own high-water mark (VmHWM): ``ru_maxrss`` would also count the
    memory of the process it was forked from (pytest, hundreds of MB into the suite)."""
    probe = textwrap.dedent(
        f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))
        from boardpuzzles.cli import _run
        code = _run(sys.argv[1:])
        with open("/proc/self/status") as status:
            peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
        sys.stderr.write(f"\\nPEAK {{peak}}\\n")
        sys.exit(code)
        """
    )
    done = subprocess.run([sys.executable, "-c", probe, *args], input=stdin, capture_output=True, timeout=120)
    err = done.stderr.decode(errors="replace")
    peak = next((int(line.split()[1]) / 1024 for line in err.splitlines() if line.startswith("PEAK ")), math.inf)
    return done.returncode, err.split("\nPEAK ")[0], peak


@pytest.mark.parametrize(
    "args,stdin",
    [
        (["goishi", "solve", "-"], (b"O" * 50 + b"\n") * (1 << 20)),  # 53 MB: 3.8 GB, then a MemoryError
        (["queens", "check", "/dev/zero"], None),  # was read until memory ran out
        (["baikago", "judge", "/dev/zero"], None),
        (["knights-tour", "check", "999999999", "/dev/zero"], None),
    ],
)
@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the peak from /proc (Linux)")
def test_big_inputs_stay_in_small_memory(args, stdin):
    code, err, peak = _child(args, stdin)
    assert code == 2 and err.count("\n") == 1 and "internal error" not in err, err
    assert peak < 200, f"{peak:.0f} MB"


@pytest.mark.parametrize(
    "call",
    [
        lambda: board_module.parse_board("Q\n" * 2000 + "Q" * 4000),  # padding: 8 million cells
        lambda: board_module.parse_board("Q" * (1 << 20)),
        lambda: board_module.parse_board("Q\n" * (1 << 19)),
        lambda: formats.read("O" * (1 << 20)),
        lambda: formats.read("O \n" * (1 << 18)),
        lambda: formats.read("pzprv3\ngoishi\n100000\n100000\n"),
        lambda: formats.read("pzprv3\ngoishi\n2\n2\n" + "0 " * (1 << 19)),
        lambda: formats.read("https://puzz.link/p?" + "a=b&" * (1 << 18) + "goishi/6/7/vsten1tvo"),
        lambda: kt.parse_tour("a1 " * (1 << 18), 5, 5),
        lambda: judge_text("X" * (1 << 20)),
        lambda: Record.parse("1. " + "h" * (1 << 20)),
    ],
)
def test_parsers_stay_small_and_quick_on_inputs_under_the_cap(call):
    tracemalloc.start()
    try:
        with measured() as used:  # CPU time, which other jobs on the machine do not stretch
            call()
    except BoardPuzzlesError as err:
        assert len(str(err)) < 300
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert peak < 100 << 20, f"{peak >> 20} MB"
    assert used.cpu < 10, f"{used.cpu:.1f} s of CPU"


@pytest.mark.parametrize(
    "call",
    [
        lambda: board_module.parse_board("\n" * (1 << 20) + "Q"),  # 200,000 blank lines took 9 s
        lambda: formats.read("\n" * (1 << 20) + "O"),  # 500,000 took 30 s
        lambda: gh.parse_order(formats.read(URL).puzzle, "1" * (1 << 20)),
        lambda: gh.parse_order(formats.read(URL).puzzle, "1 " * (1 << 19)),
    ],
)
def test_blank_lines_and_digit_runs_take_linear_time(call):
    try:
        with measured() as used:  # CPU time, which other jobs on the machine do not stretch
            call()
    except BoardPuzzlesError:
        pass
    assert used.cpu < 5, f"{used.cpu:.1f} s of CPU"


def test_a_full_size_tour_file_is_read(capsys, monkeypatch, tmp_path):
    # The tour cap is 1 MiB + 16 bytes a square: a numbered 500x500 tour (1.75 MB) passes.
    found = kt.find(500, seed=0)
    path = tmp_path / "tour.txt"
    path.write_text(kt.picture(500, 500, found.tour))
    assert os.path.getsize(path) > MAX_INPUT_BYTES
    code, out, _ = run(capsys, monkeypatch, "knights-tour", "check", "500", str(path))
    assert code == 0 and "a solution: one of the open tours of 500x500" in out


# ---------------------------------------------------------------- 7. messages, BOMs, pairs, --start, pipes
def test_a_huge_bad_token_is_echoed_cut_short(capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, "goishi", "solve", "-", stdin="O 1\nO " + "Z" * 1_000_000 + "\n")
    assert refused(code, err, "1,000,000 characters")
    assert excerpt("Z" * 1000) == repr("Z" * 40) + "... (1,000 characters)"
    assert excerpt(10**5000).startswith("a number of about 5,00")


@pytest.mark.parametrize(
    "args,text",
    [
        (["queens", "check", "-"], QUEENS4),
        (["less-than-three", "check", "-", "--colours", "1", "--stones", "2"], "X.\n.X\n"),
        (["goishi", "solve", "-"], "O.O\n...\nO.O\n"),
        (["knights-tour", "check", "3x4", "-"], TOUR3X4),
        (["baikago", "judge", "-"], "X..\n...\n...\n"),
    ],
)
def test_a_byte_order_mark_is_accepted_everywhere(capsys, monkeypatch, args, text):
    code, _, err = run(capsys, monkeypatch, *args, stdin="\ufeff" + text)
    assert code in (0, 1) and err.count("boardpuzzles: error") == 0, err


def test_library_parsers_accept_a_byte_order_mark():
    puzzle = formats.read(URL).puzzle
    assert board_module.parse_board("\ufeff" + QUEENS4) == board_module.parse_board(QUEENS4)
    assert formats.read("\ufeffO.O\n...\n").puzzle == formats.read("O.O\n...\n").puzzle
    assert formats.read("\ufeffO.O\n...\n", "rows").puzzle == formats.read("O.O\n...\n").puzzle
    assert gh.parse_order(puzzle, "\ufeff" + ORDER) == gh.parse_order(puzzle, ORDER)
    assert kt.parse_tour("\ufeff" + TOUR3X4, 3, 4) == kt.parse_tour(TOUR3X4, 3, 4)
    assert Record.parse('\ufeff[Size "9"]\n1. e5 e6\n').rules.size == 9


@pytest.mark.parametrize("text", ["(4,4", "4,4)", "(4,4) (4,3", "((4,4))", "(4,4)(4,3))"])
def test_an_unclosed_pair_is_refused(text):
    with pytest.raises(ParseError, match="parenthes"):
        gh.parse_order(formats.read(URL).puzzle, text)


def test_pairs_still_read_in_every_spelling():
    puzzle = formats.read(URL).puzzle
    expected = gh.parse_order(puzzle, "e3 d3")
    for text in ("(4,4) (4,3)", "4,4 4,3", "(4, 4);(4, 3)", "( 4 , 4 ) ( 4 , 3 )", "4,4;4,3"):
        assert gh.parse_order(puzzle, text) == expected, text


@pytest.mark.parametrize("command", ["solve", "find", "count"])
def test_an_empty_start_square_is_refused(capsys, monkeypatch, command):
    extra = ["--limit", "1"] if command == "solve" else []
    code, _, err = run(capsys, monkeypatch, "knights-tour", command, "5", "--start", "", *extra)
    assert refused(code, err, "square name")


def test_a_closed_pipe_stops_quietly_with_exit_0():
    process = subprocess.Popen(
        [*CLI, "queens", "solve", "12"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout.readline()  # the first row of the first board, as `head -1` reads it
    process.stdout.close()
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0 and err == b""


def test_a_closed_stderr_keeps_the_exit_code_of_an_error():
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody reads stderr
    try:
        done = subprocess.run(
            [*CLI, "queens", "solve", "x"],
            stdout=subprocess.DEVNULL,
            stderr=write_end,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert done.returncode == 2


# ---------------------------------------------------------------- 11. every option, too long
def _example_argv_by_command() -> dict[str, list[str]]:
    """For each command that a help example runs, the first such example's arguments."""
    import shlex

    import click

    from boardpuzzles.cli import cli
    from tests.test_help_examples import NOT_RUN, help_examples

    found: dict[str, list[str]] = {}
    for _, example in help_examples():
        if example in NOT_RUN or any(sign in example for sign in "|<>"):
            continue
        words = shlex.split(example.split("#")[0])
        command, depth = cli, 1
        while isinstance(command, click.Group) and depth < len(words) and words[depth] in command.commands:
            command, depth = command.commands[words[depth]], depth + 1
        found.setdefault(" ".join(words[1:depth]), words[1:])
    return found


def test_every_option_refuses_a_5000_character_value_in_one_short_line(capsys, monkeypatch, tmp_path):
    """The fuzz test once found ``--time-limit`` echoing 5,000 nines and ``--scheduler`` echoing
    any text (after the count had begun): here every option of every command with an example
    gets such values, deterministically."""
    import click

    from boardpuzzles.cli import cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "puzzle.txt").write_text(".......\n..OO...\n.O.O...\n.O.O...\n.OOOO..\n...O...\n.......\n")
    (tmp_path / "game.txt").write_text('[Game "Baikago"]\n[Size "9"]\n\n1. e5 a1 2. d5 a9\n')
    examples = _example_argv_by_command()
    tried = 0
    for path, argv in examples.items():
        command: click.Command = cli
        for word in path.split():
            command = command.commands[word]  # type: ignore[attr-defined]
        for param in command.params:
            if not isinstance(param, click.Option) or param.is_flag or param.count:
                continue
            option = max(param.opts, key=len)
            for value in (HUGE, "x" * 5000, "é" * 300):
                code, out, err = run(capsys, monkeypatch, *argv, option, value)
                assert refused(code, err), (path, option, value[:5], code, err[:300])
                tried += 1
    assert len(examples) >= 20 and tried >= 300, (len(examples), tried)
