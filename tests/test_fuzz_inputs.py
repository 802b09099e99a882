"""Fuzzing every parser and the command line with Hypothesis: whatever the text or the arguments,
a parser returns or raises BoardPuzzlesError, and a command ends with exit 0, 1, 2 or 3 and no
internal error or traceback. The texts mix arbitrary characters with the ingredients that once
broke something: unicode digits, byte-order marks, numbers past Python's 4300-digit limit, deep
parentheses, long lines, NUL characters, and fragments of every format.

Every command example is tiny (small boards, --limit 1, --time-limit 1), so the file runs in well
under a minute; set HYPOTHESIS_PROFILE=thorough for a long run.
"""

from __future__ import annotations

import io
import os
import sys
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardpuzzles.board import parse_board
from boardpuzzles.cli import _run
from boardpuzzles.errors import BoardPuzzlesError
from boardpuzzles.formats import goishi as formats
from boardpuzzles.grid import Grid, parse_size
from boardpuzzles.limits import Limits
from boardpuzzles.puzzles import goishi as gh
from boardpuzzles.puzzles import knights_tour as kt
from boardpuzzles.puzzles.baikago import Record, judge_text
from tests.threads import report

HUGE = "9" * 5000
URL = "https://puzz.link/p?goishi/6/7/vsten1tvo"
PUZZLE = formats.read(URL).puzzle

# ---------------------------------------------------------------- texts
INGREDIENTS = [
    "\ufeff", "²", "\u0663", "\u0669\u0669", "\u212a", "\x00", "\u2028", "\x1c", "\x85",
    HUGE, "0" * 4400 + "7", "1" + "0" * 30, "-1", "0", "1", "2", "7", "12", "00003",
    "(", ")", "((((", "))))", ",", ";", "/", ".", " ", "\t", "\n", "\r", "\r\n", "\n\n",
    "O", "o", "X", "x", "Q", "A", "a1", "h8", "e3", "zz99", "(4,4)", "4,4", "(4,4",
    '"', '"  O  O "', "O.O", "O O", "1 2", ". 3",
    "pzprv3", "pzprv3.1", "goishi", "v:", "history:{}", "info:", "%20",
    "https://puzz.link/p?", "?", "goishi/", "6/7/", "vsten1tvo", "type=editor&", "a=b&", "_edit",
    '[Game "Baikago"]', '[Size "', '[MaxD "', '[Orientations "', '"]', "1.", "1-0", "*",
]  # fmt: skip


def _repeated(piece: str, times: int) -> str:
    return (piece * times)[:100_000]


TEXTS = st.one_of(
    st.text(max_size=60),
    st.lists(st.one_of(st.sampled_from(INGREDIENTS), st.text(max_size=4)), max_size=40).map("".join),
    st.builds(_repeated, st.sampled_from(INGREDIENTS), st.integers(0, 3000)),  # long lines, deep nesting
    st.builds(
        lambda head, body, tail: head + body + tail,
        st.sampled_from(["", "\ufeff", "pzprv3\ngoishi\n", URL + "/", "1. "]),
        st.lists(st.sampled_from(INGREDIENTS), max_size=20).map("".join),
        st.sampled_from(["", "\n", "\r\n", ")" * 500, "9" * 4400]),
    ),
)
NUMBERS = st.one_of(
    st.integers(-5, 80),
    st.integers(),
    st.sampled_from([10**5000, -(10**5000), 2**63, 2**64 + 1, -(2**63)]),
)

#: The thorough profile (HYPOTHESIS_PROFILE=thorough) tries ten times as many examples.
SCALE = 10 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 1
LIBRARY_SETTINGS = settings(max_examples=150 * SCALE, deadline=None, suppress_health_check=list(HealthCheck))


def returns_or_refuses(call, *args, **kwargs) -> None:
    try:
        call(*args, **kwargs)
    except (BoardPuzzlesError, gh.GenerationTimeout):  # refused, or gave up at its time limit
        pass


@LIBRARY_SETTINGS
@given(TEXTS)
def test_parse_size(text):
    returns_or_refuses(parse_size, text)


@LIBRARY_SETTINGS
@given(TEXTS, st.sampled_from([Grid(1, 1), Grid(5, 5), Grid(3, 8), Grid(30, 30, torus=True)]))
def test_cell_named(text, grid):
    returns_or_refuses(grid.cell_named, text)


@LIBRARY_SETTINGS
@given(TEXTS, st.booleans(), st.sampled_from([None, True, False]), st.booleans(), st.sampled_from([None, "XO", "Q"]))
def test_parse_board(text, torus, spaced, pad, pieces):
    returns_or_refuses(parse_board, text, torus=torus, spaced=spaced, pad=pad, pieces=pieces)


@LIBRARY_SETTINGS
@given(TEXTS, st.sampled_from([None, *formats.FORMATS]))
def test_goishi_formats_read(text, fmt):
    returns_or_refuses(formats.read, text, fmt)


@LIBRARY_SETTINGS
@given(TEXTS)
def test_goishi_detect(text):
    returns_or_refuses(formats.detect, text)


@LIBRARY_SETTINGS
@given(TEXTS)
def test_goishi_parse_order(text):
    returns_or_refuses(gh.parse_order, PUZZLE, text)


@LIBRARY_SETTINGS
@given(TEXTS, st.sampled_from([(1, 1), (2, 2), (3, 4), (5, 5)]))
def test_knights_tour_parse_tour(text, size):
    returns_or_refuses(kt.parse_tour, text, *size)


@LIBRARY_SETTINGS
@given(TEXTS, st.one_of(st.none(), NUMBERS), st.one_of(st.none(), NUMBERS), st.sampled_from(["+x", "+", "x", "", "xx"]))
def test_baikago_judge_text(text, size, max_d, orientations):
    returns_or_refuses(judge_text, text, size=size, max_d=max_d, orientations=orientations)


@LIBRARY_SETTINGS
@given(TEXTS)
def test_baikago_record_parse_and_replay(text):
    def parse_and_replay(text: str) -> None:
        Record.parse(text).replay()

    returns_or_refuses(parse_and_replay, text)


PARSERS = {
    "parse_size": parse_size,
    "cell_named": Grid(8, 8).cell_named,
    "parse_board": parse_board,
    "goishi.read": formats.read,
    "goishi.read numbers": lambda text: formats.read(text, "numbers"),
    "goishi.read pzprv3": lambda text: formats.read(text, "pzprv3"),
    "goishi.read url": lambda text: formats.read(text, "url"),
    "parse_order": lambda text: gh.parse_order(PUZZLE, text),
    "parse_tour": lambda text: kt.parse_tour(text, 8, 8),
    "judge_text": judge_text,
    "Record.parse": Record.parse,
}


@settings(max_examples=40 * SCALE, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from(sorted(PARSERS)),
    st.lists(st.sampled_from(INGREDIENTS[:-1] + ["\n", "O", "1 ", "a1 "]), min_size=1, max_size=4).map("".join),
    st.sampled_from(["", "pzprv3\ngoishi\n3\n3\n", URL + "/", "\ufeff"]),
)
def test_parsers_stay_small_on_inputs_up_to_the_cap(name, piece, head):
    # A FILE holds at most 1 MiB (cli.common.MAX_INPUT_BYTES): whatever it repeats, a parser
    # needs no more than a small multiple of that.
    text = head + piece * ((1 << 20) // len(piece))
    tracemalloc.start()
    try:
        returns_or_refuses(PARSERS[name], text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 120 << 20, (name, repr(piece), peak >> 20)


FEW = st.one_of(st.integers(-3, 9), st.sampled_from([10**5000, -(10**5000), 2**63, 2**64 + 1]))


@LIBRARY_SETTINGS
@given(FEW, FEW, NUMBERS)
def test_knights_tour_find_validates_sizes_and_seeds(rows, cols, seed):
    returns_or_refuses(kt.find, rows, cols, seed=seed, attempts=2)


@LIBRARY_SETTINGS
@given(FEW, FEW, FEW, NUMBERS, st.sampled_from([1, 0.5, 0.0, -1.0, float("nan"), float("inf")]))
def test_goishi_generate_validates_its_input(rows, cols, stones, seed, time_limit):
    def generate() -> None:
        gh.generate(rows, cols, stones, seed=seed, limits=Limits(time_limit))

    returns_or_refuses(generate)


# ---------------------------------------------------------------- the command line
# Values as a user may type them: valid small ones, and every kind of wrong one.
WEIRD = [
    "",
    " ",
    "-1",
    "-0",
    "0",
    "nan",
    "inf",
    "-inf",
    "1e308",
    "1e-300",
    HUGE,
    "1" + "0" * 30,
    "²",
    "\u0663",
    "1_0",
    "+2",
    " 3 ",
    "0x10",
    "abc",
    "a\x00b",
    "\ufeff1",
    "18446744073709551616",
    "9223372036854775807",
]
SIZES = st.sampled_from(["1", "2", "3", "4", "5", "3x4", "2x3", "4X4", "1*5", "2x", "x3", "3x4x5", *WEIRD])
SMALL = st.sampled_from(["1", "2", "3", "4", *WEIRD])
# Known, outside this audit: with 3 or more colours and few stones on the default 6x6 board the
# less-than-three solver sets aside one row of 36 int64 per filling of the first two rows (24.5
# GiB for --colours 4 --stones 4), so colour counts stay at 1 and 2 here.
COLOURS = st.sampled_from(["1", "2", *WEIRD])
SQUARES = st.sampled_from(["a1", "b3", "e5", "c2", "z9", "a0", "A1", "a01", "aaaa1", "a" + HUGE, *WEIRD])
SECONDS = st.sampled_from(["1", "0.5", "0.01", *WEIRD])  # every valid one is short
SEEDS = st.sampled_from(["0", "1", "42", "4294967295", *WEIRD])
LIMITS = st.sampled_from(["1", "2", *WEIRD])
JOBS = st.sampled_from(["1", "2", "1024", "1025", *WEIRD])
GOISHI_FILES = st.sampled_from(["-", URL, "goishi/3/3/" + "0" * 2, "goishi/" + HUGE + "/2/0", "x" * 300, "", "("])
ORDERS = st.one_of(st.sampled_from(["e3 d3", "(4,4) (4,3)", "(4,4", "4,4)", "-", "", "x" * 300]), TEXTS)


def options(pairs: dict[str, st.SearchStrategy]) -> st.SearchStrategy[list[str]]:
    """Some of the options, each with a drawn value, in a random order; flags have value None."""
    names = sorted(pairs)
    return st.lists(st.sampled_from(names), unique=True, max_size=len(names)).flatmap(
        lambda chosen: st.tuples(*[pairs[n] if pairs[n] is not None else st.none() for n in chosen]).map(
            lambda values: [x for n, v in zip(chosen, values, strict=True) for x in ((n,) if v is None else (n, v))]
        )
    )


def command(head: list[str], positional: list[st.SearchStrategy], extra: dict, fixed: list[str] = ()):
    return st.tuples(st.tuples(*positional), options(extra)).map(lambda drawn: [*head, *drawn[0], *drawn[1], *fixed])


FLAG = None
COMMANDS = st.one_of(
    # queens and hyperqueen: boards up to 5, one placement
    command(["queens", "solve"], [SMALL], {"--unique": FLAG, "--json": FLAG}, ["--limit", "1"]),
    command(["hyperqueen", "solve"], [SMALL], {"--unique": FLAG, "--limit": LIMITS, "--json": FLAG}),
    command(["queens", "count"], [SMALL], {"--jobs": JOBS, "--unique": FLAG, "--json": FLAG, "-q": FLAG}),
    command(["hyperqueen", "count"], [SMALL], {"--time-limit": SECONDS, "--unique": FLAG, "--jobs": JOBS}),
    # less-than-three: small boards; find always with a short time limit
    command(
        ["less-than-three", "solve"],
        [SMALL],
        {"--colours": COLOURS, "--max-in-line": SMALL, "--stones": SMALL, "--unique": FLAG},
        ["--limit", "1"],
    ),
    command(["less-than-three", "count"], [SMALL], {"--colours": COLOURS, "-k": SMALL, "--time-limit": SECONDS}),
    command(
        ["less-than-three", "find"],
        [SMALL],
        {"-k": SMALL, "--seed": SEEDS, "--jobs": st.sampled_from(["1", "2", *WEIRD]), "--json": FLAG},
        ["--time-limit", "1"],
    ),
    # kings, the worked example
    command(["kings", "solve"], [SIZES], {"--kings": SMALL, "--torus": FLAG, "--json": FLAG}, ["--limit", "1"]),
    command(["kings", "count"], [SIZES], {"--kings": SMALL, "--torus": FLAG, "--max": LIMITS}, ["--time-limit", "1"]),
    command(["kings", "check"], [st.just("-")], {"--kings": SMALL, "--torus": FLAG, "--json": FLAG}),
    # knights-tour: boards up to 5x5
    command(
        ["knights-tour", "solve"], [SIZES], {"--start": SQUARES, "--closed": FLAG, "--json": FLAG}, ["--limit", "1"]
    ),
    command(
        ["knights-tour", "count"],
        [st.sampled_from(["1", "2", "3", "3x4", "4", "0", "4x9", *WEIRD])],
        {"--start": SQUARES, "--closed": FLAG, "--undirected": FLAG, "--jobs": JOBS},
        ["--time-limit", "1"],
    ),
    command(["knights-tour", "find"], [SIZES], {"--start": SQUARES, "--closed": FLAG, "--seed": SEEDS, "--json": FLAG}),
    command(["knights-tour", "check"], [SIZES, st.just("-")], {"--closed": FLAG, "--json": FLAG}),
    # goishi: the 6x7 puzzle, tiny generated boards
    command(
        ["goishi", "solve"],
        [GOISHI_FILES],
        {"--limit": LIMITS, "--json": FLAG, "--format": st.sampled_from(list(formats.FORMATS))},
    ),
    command(
        ["goishi", "count"], [GOISHI_FILES], {"--max": LIMITS, "--jobs": JOBS, "--json": FLAG}, ["--time-limit", "1"]
    ),
    command(["goishi", "check"], [GOISHI_FILES, ORDERS], {"--json": FLAG}),
    command(["goishi", "animate"], [GOISHI_FILES], {"--order": ORDERS, "--delay": SECONDS}, ["--json"]),
    command(["goishi", "convert"], [GOISHI_FILES], {"--to": st.sampled_from(list(formats.FORMATS)), "--solve": FLAG}),
    command(
        ["goishi", "generate"],
        [st.sampled_from(["3", "4", "3x4", *WEIRD])],
        {
            "--stones": SMALL,
            "--seed": SEEDS,
            "--to": st.sampled_from(list(formats.FORMATS)),
        },
        ["--time-limit", "1"],
    ),
    # baikago: judging only (play, serve and engine wait on a person or a socket)
    command(
        ["baikago", "judge", "-"],
        [],
        {"--size": SMALL, "--max-d": SMALL, "--orientations": st.sampled_from(["+x", "+", "x", "y"]), "--json": FLAG},
    ),
)
STDIN = st.one_of(
    TEXTS,
    st.sampled_from(
        [".Q..\n...Q\nQ...\n..Q.\n", "1 4 7 10\n12 9 2 5\n3 6 11 8\n", "X..\n.X.\n..X\n", "O.O\n...\nO.O\n"]
    ),
)


@settings(max_examples=250 * SCALE, deadline=None, suppress_health_check=list(HealthCheck))
@given(COMMANDS, STDIN)
def test_every_command_ends_with_a_known_exit_code(args, stdin):
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(
        io.BytesIO(stdin.encode("utf-8", "surrogatepass")), encoding="utf-8", errors="surrogatepass"
    )
    sys.stdout, sys.stderr = out, err
    try:
        code = _run(args)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    message = err.getvalue()
    assert code in (0, 1, 2, 3), (args, code, message[-500:])
    assert "internal error" not in message and "Traceback" not in message, (args, message[-500:])
    if code == 2:
        assert message.startswith("boardpuzzles: error: ") and message.count("\n") == 1, (
            args,
            message[-500:],
            report(),
        )
        assert len(message) < 1000, (args, len(message))


@pytest.mark.parametrize("argv", [["queens", "solve", "4", "--limit", "1"], ["knights-tour", "find", "5"]])
def test_the_fuzz_harness_sees_output(argv):
    # A sanity check of the in-process harness above: a good command prints and exits 0.
    out = io.StringIO()
    saved = sys.stdout
    sys.stdout = out
    try:
        code = _run(argv)
    finally:
        sys.stdout = saved
    assert code == 0 and out.getvalue().strip(), report()
