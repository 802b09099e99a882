"""Baikago from the outside: the judge's output and exit codes, a terminal game fed through
stdin, the Gomocup engine driven as a subprocess, and the web server's JSON API (its hardening and
the page in a real browser are in ``test_web_baikago.py``)."""

import json
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import boardpuzzles
from boardpuzzles.cli import _run
from boardpuzzles.puzzles import baikago as bk
from tests.threads import serve_in_background

DATA = Path(__file__).parent / "data" / "baikago"
CLI = [sys.executable, "-c", "from boardpuzzles.cli import main; main()"]


def run(capsys, *args):
    code = _run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def process(*args, stdin="", timeout=120):
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True, timeout=timeout)


# -------------------------------------------------------------------- judge
def test_judge_the_seed_board_marks_the_cross_when_piped(capsys):
    code, out, err = run(capsys, "baikago", "judge", str(DATA / "seed_board.txt"))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "White wins: x cross centred on f6, d = 2 (arms d8 h8 d4 h4)"
    assert lines[8] == " 8 . X . o . O O o . O . . . . ."  # d8 and h8 marked, in lower case
    assert lines[-1] == "   a b c d e f g h i j k l m n o"
    assert err == "(the stones of the crosses are in lower case)\n"  # the note is not the picture
    # what it prints reads back as the same position
    assert bk.judge_text("\n".join(line[3:] for line in lines[1:16])).verdict == "white"


def test_judge_in_colour_paints_the_cross_red(capsys):
    code, out, _ = run(capsys, "baikago", "judge", str(DATA / "seed_board.txt"), "--colour")
    assert code == 0 and "\x1b[" in out and " o " not in out


def test_judge_json_lists_every_cross(capsys):
    code, out, _ = run(capsys, "baikago", "judge", str(DATA / "both_win.txt"), "--json")
    document = json.loads(out)
    assert code == 1 and document["verdict"] == "inconsistent"
    assert [c["centre"] for c in document["crosses"]["black"]] == ["b6"]
    assert {c["centre"]: c["d"] for c in document["crosses"]["white"]} == {"f3": 1}
    code, out, _ = run(capsys, "baikago", "judge", str(DATA / "black_plus.txt"), "--json", "--max-d", "3")
    assert code == 0 and json.loads(out)["crosses"]["black"][0] == {
        "centre": "d4",
        "d": 3,
        "orientation": "+",
        "points": ["d4", "a4", "g4", "d7", "d1"],
    }


@pytest.mark.parametrize(
    "stdin,args,message",
    [
        ("", [], "the picture is empty"),
        ("XX\nO?\n", [], "line 2, column 2: unexpected '?'"),
        ("X\nO\nX\nO\n", ["--size", "3"], "4 lines: too many"),
        ("X\n", ["--max-d", "0"], "--max-d must be a whole number of at least 1"),
    ],
)
def test_judge_bad_input_is_one_line_and_exit_2(stdin, args, message):
    done = process("baikago", "judge", "-", *args, stdin=stdin)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1


def test_judge_a_missing_file(capsys):
    code, _, err = run(capsys, "baikago", "judge", "no/such/board.txt")
    assert code == 2 and err.strip() == "boardpuzzles: error: no such file: no/such/board.txt"


def test_judge_draws_the_position_with_the_cross_as_a_figure(capsys, tmp_path):
    import xml.etree.ElementTree as ET

    from PIL import Image

    from boardpuzzles.render.baikago import CROSS_COLOUR

    svg, png = tmp_path / "cross.svg", tmp_path / "cross.png"
    code, out, err = run(capsys, "baikago", "judge", str(DATA / "seed_board.txt"), "--svg", str(svg), "--png", str(png))
    assert code == 0 and out.startswith("White wins") and f"wrote {svg} and {png}" in err
    root = ET.fromstring(svg.read_text())
    ns = "{http://www.w3.org/2000/svg}"
    stones = [e.get("data-piece") for e in root.iter(f"{ns}circle") if e.get("data-piece")]
    assert sorted(set(stones)) == ["O", "X"] and len(stones) == out.count("X") + out.count("O") + 5  # cross: o
    arms = [e for e in root.iter(f"{ns}polyline") if e.get("stroke") == CROSS_COLOUR]
    assert len(arms) == 4  # a line from the centre f6 to each arm
    assert root.find(f"{ns}g/{ns}title").text.startswith("White wins: x cross centred on f6")
    with Image.open(png) as picture:
        assert picture.format == "PNG" and picture.size[0] > 15 * 40


# -------------------------------------------------------------------- play in the terminal
def boards_drawn(out: str) -> int:
    return sum(1 for line in out.splitlines() if line.strip().startswith("a b c"))


def test_two_people_play_through_stdin_and_save_the_record(tmp_path):
    record = tmp_path / "game.txt"
    moves = ["c3", "a1", "b3", "a2", "zz", "d3", "c3", "a4", "undo", "a4", "c4", "e1", "c2"]
    done = process("baikago", "play", "--size", "5", "--save", str(record), stdin="\n".join(moves) + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "illegal move: 'zz' is not a square name" in out
    assert "illegal move: c3 is already taken" in out
    assert "took back: white to move" in out
    assert out.rstrip().endswith(
        f"Black wins: + cross centred on c3, d = 1 (arms b3 d3 c4 c2)\nsaved the game to {record}\nAnother game? (y/n)>"
    )
    assert "3 . x x x ." in out  # the winning cross marked
    # one board a move: the start, ten moves, the position after undo; none after a mistake
    assert boards_drawn(out) == 1 + 10 + 1
    text = record.read_text()
    assert '[Result "1-0"]' in text and "1. c3 a1 2. b3 a2 3. d3 a4 4. c4 e1 5. c2" in text
    # Loaded again, the game is already over.
    done = process("baikago", "play", "--load", str(record))
    assert "Black wins" in done.stdout


def test_against_the_computer_it_says_you_and_the_computer_and_shows_the_board_once_a_turn():
    done = process(
        "baikago",
        "play",
        "--size",
        "9",
        "--white",
        "computer",
        "--strength",
        "1",
        "--seed",
        "1",
        stdin="e5\nd4\nundo\nresign\n",
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    lines = out.splitlines()
    assert "your move (X)> e5" in lines and "You play e5" in lines
    replies = [line for line in lines if line.startswith("The computer plays ")]
    assert len(replies) == 2 and all(
        re.fullmatch(r"The computer plays [a-i][1-9] \(thinking \d+\.\d s\)", r) for r in replies
    )
    assert "took back: your move" in lines
    assert "You resigned: the computer wins" in lines
    # the board: at the start, after each of the computer's two replies, after the undo
    assert boards_drawn(out) == 4
    assert lines.index("You play e5") < lines.index(replies[0]) < lines.index(replies[0]) + 1 < len(lines)
    assert lines[lines.index(replies[0]) + 1].startswith("9 ")  # the board follows the reply at once


def test_another_game_is_offered_and_played():
    done = process(
        "baikago",
        "play",
        "--size",
        "5",
        "--white",
        "computer",
        "--strength",
        "1",
        "--seed",
        "2",
        stdin="resign\ny\nc3\nresign\nn\nc3\n",
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines.count("You resigned: the computer wins") == 2
    assert "Another game? (y/n)> y" in lines and lines[-1] == "Another game? (y/n)> n"  # the last line: n ends it
    assert "your move (X)> c3" in lines


def test_the_computer_plays_both_sides_to_the_end():
    done = process(
        "baikago", "play", "--size", "9", "--black", "computer", "--white", "computer", "--strength", "1", "--seed", "3"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "wins:" in lines[-1] or "draw" in lines[-1]  # no other game offered to nobody
    moves = [line for line in lines if re.match(r"(Black \(X\)|White \(O\)) plays [a-i][1-9] \(thinking", line)]
    assert len(moves) >= 9 and boards_drawn(done.stdout) == len(moves) + 1  # every position once


def test_in_colour_black_and_white_stones_differ():
    from boardpuzzles.puzzles.baikago.terminal import CROSS_STYLE, STONE_STYLES, TerminalGame

    written: list[tuple[str, bool]] = []
    lines = iter(["e5", "a1", "d5", "a9", "f5", "i1", "e6", "i9", "e4"])
    game = TerminalGame(
        bk.Position(bk.Rules(9)),
        {bk.BLACK: "human", bk.WHITE: "human"},
        lambda prompt: next(lines, None),
        lambda text, markup: written.append((text, markup)),
        colour=True,
    )
    outcome = game.run()
    assert outcome is not None and outcome.winner == bk.BLACK
    boards = [text for text, markup in written if markup]
    assert len(boards) == 10  # the start and each move, once
    assert f"[{STONE_STYLES['X']}]X[/]" in boards[3] and f"[{STONE_STYLES['O']}]O[/]" in boards[3]
    assert f"[{STONE_STYLES['X']} underline]X[/]" in boards[3]  # the last stone, d5
    assert STONE_STYLES["X"] != STONE_STYLES["O"]
    assert boards[-1].count(f"[{CROSS_STYLE}]X[/]") == 5  # the winning cross on red
    from rich.text import Text

    assert "e" in Text.from_markup(boards[-1]).plain  # the markup is well-formed


def test_a_bad_record_is_one_line():
    done = process("baikago", "play", "--load", "-", stdin='[Size "9"]\n1. e5 e5\n')
    assert done.returncode == 2 and "move 2 (e5): e5 is already taken" in done.stderr


# -------------------------------------------------------------------- the Gomocup engine
def test_the_engine_speaks_the_gomocup_protocol():
    brain = subprocess.Popen(
        [*CLI, "baikago", "engine", "--strength", "2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    watchdog = threading.Timer(90, brain.kill)  # a protocol mistake must fail the test, not hang it
    watchdog.start()

    def ask(line):
        brain.stdin.write(line + "\n")
        brain.stdin.flush()
        return brain.stdout.readline().strip()

    try:
        assert ask("START 15") == "OK"
        about = ask("ABOUT")
        assert about.startswith('name="boardpuzzles-baikago"') and f'version="{boardpuzzles.__version__}"' in about
        x, y = map(int, ask("BEGIN").split(","))
        assert (x, y) == (7, 7)  # the centre
        answer = ask("TURN 0,0")
        x, y = map(int, answer.split(","))
        assert 0 <= x < 15 and 0 <= y < 15 and (x, y) not in ((7, 7), (0, 0))
        assert ask("TURN 0,0").startswith("ERROR")
        # A position where the brain (1) has four stones of the + cross around (5,5): it must win.
        brain.stdin.write("BOARD\n5,5,1\n4,5,1\n6,5,1\n5,4,1\n0,0,2\n1,0,2\n2,0,2\n3,0,2\nDONE\n")
        brain.stdin.flush()
        assert brain.stdout.readline().strip() == "5,6"
        # The opponent's four must be blocked.
        brain.stdin.write("BOARD\n9,9,2\n8,9,2\n10,9,2\n9,8,2\n0,0,1\n14,14,1\n0,14,1\nDONE\n")
        brain.stdin.flush()
        assert brain.stdout.readline().strip() == "9,10"
        assert ask("TAKEBACK 9,10") == "OK"
        brain.stdin.write("INFO timeout_turn 1000\n")  # INFO has no answer: the next line is RESTART's
        assert ask("RESTART") == "OK"
        assert ask("FLY") == "UNKNOWN command FLY"
        brain.stdin.write("END\n")
        brain.stdin.flush()
        assert brain.wait(timeout=30) == 0
    finally:
        watchdog.cancel()
        if brain.poll() is None:
            brain.kill()


# -------------------------------------------------------------------- the web page
@pytest.fixture
def web_server():
    from boardpuzzles.web.baikago import make_server

    srv = make_server(0, bk.Rules(9))
    serve_in_background(srv)
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def server(web_server):
    return f"http://127.0.0.1:{web_server.server_address[1]}"


def post(url, body, headers=None):
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_the_web_api_plays_a_whole_game(server):
    with urllib.request.urlopen(server + "/", timeout=10) as page:
        assert b"<title>Baikago" in page.read()
    status, state = post(server + "/api/new", {"human": "white", "strength": 1})
    assert status == 200 and state["moves"] == [] and state["turn"] == "black"  # the computer's turn
    status, state = post(server + "/api/reply", {"game": state["game"]})
    assert status == 200 and state["moves"] == ["e5"] and state["turn"] == "white"  # the computer opened
    assert post(server + "/api/move", {"game": state["game"], "point": "e5"})[0] == 400
    assert post(server + "/api/move", {"game": "nope", "point": "a1"})[0] == 404
    assert post(server + "/api/new", {"human": "red"})[0] == 400
    status, after = post(server + "/api/move", {"game": state["game"], "point": "a1"})
    assert status == 200 and after["moves"] == ["e5", "a1"]  # the human's stone alone, at once
    status, after = post(server + "/api/reply", {"game": state["game"]})
    assert status == 200 and len(after["moves"]) == 3
    status, undone = post(server + "/api/undo", {"game": state["game"]})
    assert undone["moves"] == ["e5"]
    while not state["over"]:  # the human plays the first empty point; the computer wins
        empty = next(n for n, s in zip(state["names"], "".join(state["rows"]), strict=True) if s == ".")
        status, state = post(server + "/api/move", {"game": state["game"], "point": empty})
        assert status == 200
        status, state = post(server + "/api/reply", {"game": state["game"]})
        assert status == 200
    assert state["winner"] == "black" and state["outcome"] == "computer" and len(state["cross"]) == 5
    with urllib.request.urlopen(f"{server}/api/state?game={state['game']}", timeout=10) as response:
        assert json.loads(response.read())["result"] == state["result"]


@pytest.mark.parametrize(
    "body",
    [
        {"human": []},
        {"human": 1},
        {"human": None},
        {"strength": [1]},
        {"strength": "2"},
        {"strength": 2.5},
        {"strength": True},
        {"strength": {}},
    ],
)
def test_the_web_api_answers_fields_of_the_wrong_type_with_400(server, body):
    status, answer = post(server + "/api/new", body)
    assert status == 400 and "strength one of" in answer["error"]


@pytest.mark.parametrize("body", [{"game": [], "point": "a1"}, {"game": {}}, {"point": 5}])
def test_the_web_api_answers_a_move_of_the_wrong_type_with_400(server, body):
    _, state = post(server + "/api/new", {"human": "black", "strength": 1})
    body = {"game": state["game"], **body}
    for action in ("/api/move", "/api/undo"):
        status, answer = post(server + action, body)
        assert status == 400 and answer["error"] == "game and point are strings"
    assert post(server + "/api/move", {"game": state["game"], "point": "a1"})[0] == 200  # still served


def test_the_web_server_keeps_every_open_game_up_to_its_bound(web_server, server):
    kept = web_server.baikago.games
    kept.max_games = kept.per_client = 40  # the real bound: web.MAX_GAMES (1,000); see tests/test_web_store.py
    games = [post(server + "/api/new", {"strength": 1})[1]["game"] for _ in range(40)]
    assert all(post(server + "/api/undo", {"game": game})[0] == 200 for game in games)
    assert post(server + "/api/new", {"strength": 1})[0] == 200  # never refused: the least recently used goes
    assert [post(server + "/api/undo", {"game": game})[0] for game in games[:2]] == [404, 200]


@pytest.mark.parametrize(
    "host,allowed",
    [
        ("127.0.0.1", True),
        ("127.0.0.1:8765", True),
        ("localhost", True),
        ("LOCALHOST:80", True),
        ("evil.example", False),
        ("evil.example:8765", False),
        ("127.0.0.1.evil.example", False),
        ("localhost:x", False),
        ("", False),
    ],
)
def test_the_web_server_refuses_other_host_names(server, host, allowed):
    status, _ = post(server + "/api/new", {"strength": 1}, {"Host": host})
    assert status == (200 if allowed else 403)
    request = urllib.request.Request(server + "/", headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            got = response.status
    except urllib.error.HTTPError as err:
        got = err.code
    assert got == (200 if allowed else 403)


# A whole game in headless Chromium: tests/test_web_baikago.py (Playwright).


def test_solve_with_threats_says_when_it_finds_no_win(capsys, tmp_path):
    """A threat-space search that finds no win settles nothing: one line, exit 1; stopped at a
    limit without a checkpoint, it says how to keep it."""
    args = ["baikago", "solve", "6", "--side", "black", "--no-pairings", "--tt-bits", "14", "--threats-from", "4"]
    code, out, err = run(capsys, *args)
    assert code == 1 and err == ""
    said = r"6x6, \+ and x crosses, any d: black has no win that plays only threats from 4 stones on"
    assert re.fullmatch(said + r" \([\d,]+ search nodes\); that does not settle the board\n", out)
    code, out, _ = run(capsys, *args, "--json")
    document = json.loads(out)
    assert code == 1 and document["value"] == "unknown" and document["threat_space_win"] is False
    assert (document["attacker"], document["threats_from"]) == ("black", 4)
    code, _, err = run(
        capsys, "baikago", "solve", "9", "--side", "black", "--threats-from", "8", "--node-limit", "1000"
    )
    assert code == 3 and "add --checkpoint FILE to keep the search for a later run" in err


def test_solve_with_threats_searches_each_side_asked(capsys):
    """With both sides (the default), a threat-space search that finds no win for black goes on
    to white's, and says that neither has one."""
    args = ["baikago", "solve", "6", "--no-pairings", "--tt-bits", "14", "--threats-from", "4"]
    code, out, err = run(capsys, *args)
    assert code == 1 and err == ""
    assert "neither black nor white has a win that plays only threats from 4 stones on" in out
    code, out, _ = run(capsys, *args, "--json")
    assert code == 1 and json.loads(out)["attacker"] == "both"


def test_a_threat_space_search_is_kept_in_its_own_checkpoint(capsys, tmp_path):
    """``--threats-from F --checkpoint FILE``: a stopped threat-space search goes on from its file,
    one that found no win says so again from it, and the file is bound to F: neither
    another F nor the whole game's search takes it (their disproofs differ), nor it theirs."""
    kept = tmp_path / "nine.dfpn"
    args = ["baikago", "solve", "9", "--side", "black", "--tt-bits", "16", "--checkpoint", str(kept)]
    code, _, err = run(capsys, *args, "--threats-from", "6", "--node-limit", "20000")
    assert code == 3 and kept.exists() and "the same command continues it" in err
    before = kept.read_bytes()
    for other in (["--threats-from", "8"], []):
        code, _, err = run(capsys, *args, *other, "--node-limit", "10")
        assert code == 2 and "--threats-from" in err and len(err.strip().splitlines()) == 1
        assert kept.read_bytes() == before
    code, out, err = run(capsys, *args, "--threats-from", "6", "--node-limit", "5000", "--json")
    document = json.loads(out)
    assert code == 3 and "continuing from" in err and document["searches"][0]["nodes"] >= 25_000
    whole = tmp_path / "six.dfpn"
    six = ["baikago", "solve", "6", "--side", "black", "--no-pairings", "--tt-bits", "14", "--checkpoint", str(whole)]
    assert run(capsys, *six, "--threats-from", "4")[0] == 1
    code, out, err = run(capsys, *six, "--threats-from", "4")
    assert code == 1 and "continuing from" in err and "no win that plays only threats from 4 stones on" in out
    code, _, err = run(capsys, *six)
    assert code == 2 and "(--threats-from 4, here off)" in err
    # the refusal names the command that continues the file, and that command does
    command = err.split("`")[1].split()
    assert command[:3] == ["boardpuzzles", "baikago", "solve"] and "--threats-from" in command
    code, out, err = run(capsys, *command[1:])
    assert code == 1 and "continuing from" in err and "no win that plays only threats from 4 stones on" in out
