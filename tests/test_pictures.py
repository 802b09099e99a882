"""The pictures the commands draw, made as a user makes them (through the command line), and the
terminal replay of `goishi animate` as a terminal shows it (in a pseudo-terminal).

The pictures are written into the folder named by ``BOARDPUZZLES_PICTURES`` when it is set
(``make pictures`` sets it to ``build/pictures``), so that people can look at them; otherwise
into a temporary folder. Each test also checks what can be checked without eyes: sizes,
coordinates, headings, legends, tooltips.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from boardpuzzles.cli import _run
from boardpuzzles.render import draw

ROOT = Path(__file__).resolve().parent.parent
GOISHI = str(ROOT / "tests" / "data" / "goishi" / "pzprjs_test.txt")
NS = "{http://www.w3.org/2000/svg}"
CLI = [sys.executable, "-c", "from boardpuzzles.cli import main; main()"]


@pytest.fixture
def pictures(tmp_path) -> Path:
    folder = os.environ.get("BOARDPUZZLES_PICTURES")
    if not folder:
        return tmp_path
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = _run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def open_png(path: Path):
    from PIL import Image

    with Image.open(path) as picture:
        assert picture.format == "PNG"
        return picture.convert("RGB")


@pytest.mark.parametrize("n", [8, 50, 300])
def test_tours_as_pictures(capsys, pictures, n):
    png, svg = pictures / f"tour{n}.png", pictures / f"tour{n}.svg"
    code, _, err = run(capsys, "knights-tour", "find", str(n), "--png", str(png), "--svg", str(svg))
    assert code == 0 and f"wrote {svg} and {png}" in err
    picture = open_png(png)
    side = 8 * draw.CELL if n <= draw.DETAIL_SIDE else draw.BOARD_PIXELS
    assert side <= picture.size[0] <= side + 500
    root = ET.fromstring(svg.read_text())
    titles = [e.text for e in root.iter(f"{NS}title")]
    assert titles[0] == f"an open knight's tour of {n}x{n}"
    assert any(t.startswith("start: ") for t in titles) and any(t.startswith("end: ") for t in titles)
    texts = [e.text for e in root.iter(f"{NS}text")]
    assert ("64" in texts) == (n == 8)  # numbers where they are readable, not on large boards
    # the path's colours run from blue to red: the picture holds both ends of the scale
    pixels = np.asarray(picture).reshape(-1, 3).astype(int)
    for colour in (draw.gradient_colour(0.01), draw.gradient_colour(0.99)):
        close = np.abs(pixels - np.array(draw._rgb(colour))).sum(axis=1) < 60
        assert close.sum() > 20


def test_a_1000x1000_tour_stays_under_10_mb(capsys, pictures):
    svg, png = pictures / "tour1000.svg", pictures / "tour1000.png"
    code, out, _ = run(capsys, "knights-tour", "find", "1000", "--svg", str(svg), "--png", str(png))
    assert code == 0 and len(out.splitlines()) == 1000
    for path in (svg, png):  # (about 4.0 MB and 1.6 MB)
        assert path.stat().st_size < 10_000_000, f"{path}: {path.stat().st_size:,} bytes"
    width, height = open_png(png).size
    assert width == draw.BOARD_PIXELS + 2 * draw.GAP and draw.BOARD_PIXELS < height < draw.BOARD_PIXELS + 300
    root = ET.fromstring(svg.read_text())
    bands = [e for e in root.iter(f"{NS}path") if e.get("transform")]
    assert len(bands) == draw.BANDS
    assert len(list(root.iter(f"{NS}rect"))) < 20  # no rect per square


def test_a_goishi_solution_as_a_picture(capsys, pictures):
    png, svg = pictures / "goishi.png", pictures / "goishi.svg"
    code, out, err = run(capsys, "goishi", "solve", GOISHI, "--png", str(png), "--svg", str(svg))
    assert code == 0 and "order: e3 d3" in out
    root = ET.fromstring(svg.read_text())
    heading = [e.text for e in root.iter(f"{NS}text") if e.get("font-weight") == "bold"]
    assert " ".join(heading) == "11 stones on 7x6: the only solution"
    assert int(root.get("width")) <= draw.MIN_SHEET_WIDTH
    texts = [e.text for e in root.iter(f"{NS}text")]
    assert {"a", "f", "1", "7"} <= set(texts) and "ring: the first stone picked up" in texts
    assert "ring: the last stone picked up" in texts and "grey: picked up" in texts  # as every Goishi picture
    assert len(root.findall(f".//{NS}polygon")) == 10  # an arrowhead on each of the 10 steps
    open_png(png)


def test_the_gif_first_frame(capsys, pictures):
    from PIL import Image

    gif = pictures / "walk.gif"
    code, _, _ = run(capsys, "goishi", "animate", GOISHI, "--gif", str(gif))
    assert code == 0
    with Image.open(gif) as frames:
        assert frames.n_frames == 12
        frames.seek(0)
        first = frames.convert("RGB")
        frames.seek(5)
        sixth = frames.convert("RGB")
    first.save(pictures / "gif-frame-0.png")
    sixth.save(pictures / "gif-frame-5.png")
    left = np.asarray(first)[draw.GAP + draw.TITLE_HEIGHT : -80, draw.GAP : draw.GAP + draw.MARGIN]
    assert (left.max(axis=2) < 150).sum() > 30  # rank numbers beside the board
    grey = np.abs(np.asarray(sixth).astype(int) - np.array(draw._rgb(draw.FADED_FILL))).sum(axis=2) < 12
    assert grey.sum() > 5 * 200  # five picked stones greyed


def test_a_sheet_of_many_boards(capsys, pictures):
    svg, png = pictures / "hyperqueen7.svg", pictures / "hyperqueen7.png"
    code, _, err = run(capsys, "hyperqueen", "solve", "7", "--limit", "4", "--svg", str(svg), "--png", str(png))
    assert code == 0 and f"wrote 4 boards to {svg} and {png}" in err
    root = ET.fromstring(svg.read_text())
    texts = [e.text for e in root.iter(f"{NS}text")]
    heading = [e.text for e in root.iter(f"{NS}text") if e.get("font-weight") == "bold"]
    assert " ".join(heading) == "7 queens on the 7x7 torus: the first 4 solutions"
    assert texts[-1] == "dashed border: the board wraps around at every edge (a torus)"
    assert [e.tag for e in root.iter() if e.get("data-piece") == "Q"] == [f"{NS}path"] * 28
    titles = [e.text for e in root.iter(f"{NS}title")]
    assert titles[:2] == ["solution 1", "a7: queen"]
    open_png(png)


def test_a_baikago_position(capsys, pictures):
    png = pictures / "baikago.png"
    assert run(capsys, "baikago", "judge", str(ROOT / "tests/data/baikago/seed_board.txt"), "--png", str(png))[0] == 0
    open_png(png)


# ---------------------------------------------------------------- goishi animate in a terminal
def in_terminal(*args: str, keys: list[bytes], settle: float = 3.0) -> tuple[int, str]:
    """Run a command with a pseudo-terminal as stdin, stdout and stderr; type ``keys`` once it
    has drawn; return its exit code and everything it wrote."""
    leader, follower = os.openpty()
    proc = subprocess.Popen([*CLI, *args], stdin=follower, stdout=follower, stderr=follower, start_new_session=True)
    os.close(follower)
    output = b""

    def read(seconds: float, until: bytes = b"") -> None:
        nonlocal output
        end = time.monotonic() + seconds
        while time.monotonic() < end and not (until and until in output):
            ready, _, _ = select.select([leader], [], [], 0.05)
            if ready:
                try:
                    output += os.read(leader, 1 << 16)
                except OSError:  # the process ended and closed its side
                    return

    try:
        read(60, until=b"q to quit")  # the first frame (after the solver's first compile, if any)
        read(0.3)
        for key in keys:
            os.write(leader, key)
            read(settle / len(keys))
        code = proc.wait(timeout=30)
        read(0.2)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)
    return code, output.decode("utf-8", "replace")


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_animate_in_a_terminal_is_coloured_with_coordinates_and_q_quits():
    code, out = in_terminal("goishi", "animate", GOISHI, keys=[b" ", b"q"])
    assert code == 0, out
    assert "press a key for the next stone, q to quit" in out
    assert "\x1b[1;31m@" in out  # the stone just picked, in red
    assert "\x1b[36ma" in out and "\x1b[36m7" in out  # file letters and rank numbers
    assert "1/11: e3" in out and "2/11" not in out  # q stopped it after the first stone
    assert "Traceback" not in out


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_ctrl_c_ends_animate_quietly_with_130():
    code, out = in_terminal("goishi", "animate", GOISHI, keys=[b" ", b"\x03"])
    assert code == 130, out
    assert "Traceback" not in out and "error" not in out
    assert out.endswith("\r\n")  # the cursor is left at the start of a fresh line


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal and signals")
def test_ctrl_c_during_a_timed_replay_ends_it_quietly_with_130():
    """With --delay nothing reads the keyboard: Ctrl-C arrives as SIGINT (sent here to the
    process group, as a terminal sends it)."""
    leader, follower = os.openpty()
    proc = subprocess.Popen(
        [*CLI, "goishi", "animate", GOISHI, "--delay", "2"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        start_new_session=True,
    )
    os.close(follower)
    output = b""
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end and b"1/11" not in output:
            if select.select([leader], [], [], 0.05)[0]:
                output += os.read(leader, 1 << 16)
        assert b"(Ctrl-C to stop)" in output
        os.killpg(proc.pid, signal.SIGINT)  # in the middle of the 2 s wait
        code = proc.wait(timeout=30)
        while select.select([leader], [], [], 0.2)[0]:
            try:
                output += os.read(leader, 1 << 16)
            except OSError:
                break
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(leader)
    text = output.decode("utf-8", "replace")
    assert code == 130, text
    assert "Traceback" not in text and "2/11" not in text
    assert text.endswith("\r\n")


def test_animate_piped_prints_every_frame_with_coordinates(capsys):
    code, out, _ = run(capsys, "goishi", "animate", GOISHI, "--delay", "0")
    frames = out.rstrip("\n").split("\n\n")
    assert code == 0 and len(frames) == 12
    assert frames[1].splitlines() == [
        "1/11: e3",
        "7 . . . . . .",
        "6 . . O O . .",
        "5 . O . O . .",
        "4 . O . O . .",
        "3 . O O O @ .",
        "2 . . . O . .",
        "1 . . . . . .",
        "  a b c d e f",
    ]
    assert "\x1b" not in out  # no colour when piped
    code, out, _ = run(capsys, "goishi", "animate", GOISHI, "--json")
    assert json.loads(out)["frames"][1] == [line[2:] for line in frames[1].splitlines()[1:-1]]  # JSON: no coordinates


def test_a_found_board_and_a_generated_puzzle_as_pictures(capsys, pictures):
    """`less-than-three find` and `goishi generate` draw what they made into a PNG as well as an SVG."""
    png, svg = pictures / "find24.png", pictures / "find24.svg"
    code, out, err = run(capsys, "less-than-three", "find", "24", "--png", str(png), "--svg", str(svg))
    assert code == 0 and f"wrote {svg} and {png}" in err and len(out.splitlines()) == 24
    titles = [e.text for e in ET.fromstring(svg.read_text()).iter(f"{NS}text")]
    title = " ".join(t for t in titles if t and not (len(t) <= 2 and t.isalnum()))  # less the coordinates
    assert title.startswith("48 stones on 24x24, no three in a line: one board")
    assert open_png(png).size[0] > 24 * 10
    png, svg = pictures / "generated.png", pictures / "generated.svg"
    code, out, err = run(capsys, "goishi", "generate", "7", "--stones", "12", "--seed", "3", "--png", str(png))
    assert code == 0 and f"wrote {png}" in err and out.count("O") == 12
    assert open_png(png).size[0] > 7 * 20
    args = ["goishi", "generate", "7", "--stones", "12", "--seed", "3", "--solution", "--to", "numbers", "--svg"]
    code, out, err = run(capsys, *args, str(svg))
    assert code == 0
    # drawn as `solve` draws its answer (one Goishi style), under a title in words
    from boardpuzzles.puzzles import goishi as gh
    from boardpuzzles.render.svg import sheet_svg

    document = gh.files.read(out)
    scene = gh.to_scene(document.puzzle, document.order)
    scene.title = "12 stones on 7x7: a new puzzle, solved"
    assert svg.read_text() == sheet_svg([scene])


def test_the_commands_that_draw_are_the_ones_the_docs_name():
    """`--svg`/`--png`: every `solve` and `find`, `goishi generate` and `baikago judge`, as the
    conventions page and the README say; `--json`: every command but those that play or serve."""
    import click

    from boardpuzzles.cli import cli

    ctx = click.Context(cli)
    options: dict[str, set[str]] = {}

    def walk(command: click.Command, path: str) -> None:
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), f"{path} {name}".strip())
        else:
            options[path] = {o for p in command.params for o in getattr(p, "opts", [])}

    walk(cli, "")
    drawing = {path for path, opts in options.items() if "--png" in opts}
    named = {p for p in options if p.endswith((" solve", " find")) and not p.startswith("baikago")}
    assert drawing == named | {"goishi generate", "baikago judge"}
    silent = {path for path, opts in options.items() if "--json" not in opts}
    assert silent == {"serve", "demo", "warmup", "baikago play", "baikago serve", "baikago engine"}
    conventions = (ROOT / "docs" / "conventions.md").read_text(encoding="utf-8")
    for words in ("`solve` and `find`", "`goishi generate`", "`baikago judge`", "`baikago engine`", "`warmup`"):
        assert words in conventions
