"""The tutorial's second worked example (docs/add-a-puzzle.md, "An answer that is a path"): its
package is built from the page's own code blocks, registered through its entry point as an
installed package would be, and then it must do all the page says: solve, count (the published
count), check, JSON and pictures from the command line, and a play page and JSON API with no play
code, the default play of paths (click, drag, cut back, hints, the solution)."""

from __future__ import annotations

import http.client
import importlib
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardpuzzles.limits import Limits
from boardpuzzles.play import Attempt, IllegalMove, Play, play_of
from tests.threads import serve_in_background

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "add-a-puzzle.md").read_text(encoding="utf-8")
SECTION = PAGE[PAGE.index("## An answer that is a path") :]
#: The code blocks of the section, by their titles (```python title="kingtours/__init__.py").
FILES = dict(
    (title, code) for title, code in re.findall(r'^```\w+ title="([^"]+)"\n(.*?)^```', SECTION, flags=re.S | re.M)
)
#: The most lines the module may have (the kernel apart): the page's promise.
MOST_LINES = 120


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package written from the page, with the metadata pip would write for it (its entry
    point), in a folder of its own."""
    folder = tmp_path_factory.mktemp("tutorial")
    project = tomllib.loads(FILES["pyproject.toml"])["project"]
    for title, code in FILES.items():
        if title.endswith(".py"):
            (folder / title).parent.mkdir(parents=True, exist_ok=True)
            (folder / title).write_text(code, encoding="utf-8")
    info = folder / f"{project['name']}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n")
    points = "".join(
        f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in entries.items())
        for group, entries in project["entry-points"].items()
    )
    (info / "entry_points.txt").write_text(points)
    return folder


@pytest.fixture(scope="module")
def registered(package: Path) -> Iterator[Any]:
    """The registry with the package on the path: its puzzle, then the registry as it was."""
    from boardpuzzles.puzzles import get, registry

    sys.path.insert(0, str(package))
    importlib.invalidate_caches()
    registry.cache_clear()
    try:
        yield get("kings-tour")
    finally:
        sys.path.remove(str(package))
        for name in [m for m in sys.modules if m == "kingtours" or m.startswith("kingtours.")]:
            del sys.modules[name]
        importlib.invalidate_caches()
        registry.cache_clear()


def test_the_page_gives_the_three_files_and_the_module_keeps_to_its_size() -> None:
    assert set(FILES) == {"pyproject.toml", "kingtours/__init__.py", "kingtours/kernel.py"}
    lines = FILES["kingtours/__init__.py"].count("\n")
    assert lines <= MOST_LINES and f"`kingtours/__init__.py` ({lines} lines)" in SECTION
    assert f"`kingtours/kernel.py` ({FILES['kingtours/kernel.py'].count(chr(10))} lines)" in SECTION
    assert "Play(" not in FILES["kingtours/__init__.py"] and "play=" not in FILES["kingtours/__init__.py"]


# ---------------------------------------------------------------- the command line
def boardpuzzles(package: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(package), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run(
        [sys.executable, "-c", "from boardpuzzles.cli import main; main()", *args],
        cwd=package,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path, "COLUMNS": "100"},
        timeout=300,
    )


def transcript() -> list[tuple[list[str], str]]:
    """The section's ``$ boardpuzzles ...`` lines and what they print."""
    (block,) = re.findall(r"^```text\n(.*?)^```", SECTION, flags=re.S | re.M)
    runs: list[tuple[list[str], list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            runs.append((shlex.split(line[2:])[1:], []))
        else:
            runs[-1][1].append(line)
    return [(words, "\n".join(lines)) for words, lines in runs]


def test_the_commands_print_what_the_page_shows_and_take_json_and_pictures(package: Path) -> None:
    (package / "partial.txt").write_text("1 2 3\n. 5 4\n. . .\n")
    assert boardpuzzles(package, "kings-tour", "count", "3").returncode == 0  # compiles the kernel once
    for words, expected in transcript():
        done = boardpuzzles(package, *words)
        assert (done.stderr + done.stdout).strip("\n") == expected, (words, done.stdout, done.stderr)
    solved = boardpuzzles(package, "kings-tour", "solve", "3", "--limit", "1", "--json")
    document = json.loads(solved.stdout)
    assert document["count"] == 1 and document["solutions"][0]["answer"]["cells"][:2] == ["a3", "b3"]
    assert boardpuzzles(package, "kings-tour", "check", "-", stdin=solved.stdout).returncode == 0
    checked = boardpuzzles(package, "kings-tour", "check", "partial.txt", "--json")
    assert checked.returncode == 1
    (fault,) = json.loads(checked.stdout)["faults"]
    # the squares left, in cell order (the top row first)
    assert fault["kind"] == "unfinished" and fault["squares"] == ["a2", "a1", "b1", "c1"]
    assert boardpuzzles(package, "kings-tour", "solve", "4", "--limit", "1", "--svg", "tour.svg").returncode == 0
    assert (package / "tour.svg").read_text().startswith("<svg")
    counted = json.loads(boardpuzzles(package, "kings-tour", "count", "4", "--json", "--jobs", "2").stdout)
    assert counted["count"] == 2 * 171592  # OEIS A308129, each tour once each way


# ---------------------------------------------------------------- the play, with no play code
def test_the_record_gets_the_default_play_of_paths(registered: Any) -> None:
    play = play_of(registered)
    assert play is not None and play.drag and [t.name for t in play.tools] == ["step", "erase"]
    assert play.default_size == 6 and play.sizes == (3, 4, 5, 6, 7, 8)  # 9x9 is past the 64 squares
    assert play.rules.startswith("Walk a king over every square once")


def kings_play(registered: Any) -> Play[Any, Any]:
    play = play_of(registered)
    assert play is not None
    return play


def test_clicks_extend_the_path_cut_it_back_and_refuse_what_is_no_kings_step(registered: Any) -> None:
    play = kings_play(registered)
    game = Attempt.new(play, 4, "", 0)
    for cell in (0, 1, 5, 6):  # a4 b4 b3 c3: a drag along them
        game.click(cell, "step")
    assert game.state == (0, 1, 5, 6) and game.at == 4
    game.click(6, "step")  # the path's end again (a drag that stays): no move
    assert game.at == 4
    game.click(1, "step")  # a square of the path: cut back to it
    assert game.state == (0, 1)
    with pytest.raises(IllegalMove, match="d1 is not a step from b4"):
        game.click(15, "step")
    game.click(0, "erase")  # the second tool: take back from here on
    assert game.state == () and game.undo() == (0, 1)
    scene = game.scene()
    assert {c for c, colour in scene.marks.items() if colour} == {2, 4, 5, 6}  # the next steps
    assert game.describe_cells()[0] == "step 1" and game.describe_cells()[15] == "empty"


def test_faults_hints_and_the_solution_come_from_the_record(registered: Any) -> None:
    play = kings_play(registered)
    game = Attempt.new(play, 5, "", 0)
    assert [f.kind for f in game.verdict().faults] == ["unfinished"]
    for cell in (0, 1, 2):  # a5 b5 c5
        game.click(cell, "step")
    hint = game.hint(Limits(30))
    assert hint.message.startswith("next: ") and hint.cells[0] in game.play.scene(game.problem, game.state).marks
    game.reveal(Limits(30))
    assert game.verdict().solved and registered.violations(game.problem.problem, play_answer(game)) == []


def play_answer(game: Attempt[Any, Any]) -> Any:
    from boardpuzzles.answers import Path as Walk

    return Walk(game.problem.grid, game.state)


def test_the_json_api_plays_it(registered: Any) -> None:
    from boardpuzzles.web.app import make_app

    server = make_app(0, warm=False)
    serve_in_background(server)
    try:
        port = server.server_address[1]

        def call(method: str, path: str, body: Any = None) -> tuple[int, Any]:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            headers = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json"}
            connection.request(method, path, None if body is None else json.dumps(body).encode(), headers)
            response = connection.getresponse()
            data = response.read()
            connection.close()
            is_json = response.getheader("Content-Type", "").startswith("application/json")
            return response.status, json.loads(data) if is_json else data.decode()

        assert call("GET", "/play/kings-tour")[0] == 200
        status, state = call("POST", "/api/kings-tour/new", {"size": 4, "seed": 1})
        assert status == 200 and state["state"] == [] and not state["solved"]
        play = kings_play(registered)
        game = Attempt.new(play, 4, "", 1)
        assert play.solution is not None
        for cell, tool in play.solution(game.problem, game.state, Limits(30)):
            status, state = call("POST", f"/api/games/{state['game']}/click", {"cell": cell, "tool": tool})
            assert status == 200, state
        assert state["solved"] and state["faults"] == [] and len(state["state"]) == 16
    finally:
        server.shutdown()
        server.server_close()
