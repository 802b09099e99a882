"""`queens find N`: one placement of N queens built by the construction of Hoffman, Loessi and
Moore (Mathematics Magazine 42, 1969), for every N the board allows. Each placement is checked
here without the library (one queen a row and a column, no two on a diagonal); 2 and 3 have
none (OEIS A000170: 1, 0, 0, 2, 10, ...)."""

from __future__ import annotations

import json

import pytest

from boardpuzzles.board import parse_board
from boardpuzzles.cli import _run
from boardpuzzles.puzzles import queens


def no_two_attack(columns: list[int]) -> bool:
    n = len(columns)
    return (
        sorted(columns) == list(range(n))
        and len({r + c for r, c in enumerate(columns)}) == n
        and len({r - c for r, c in enumerate(columns)}) == n
    )


@pytest.mark.parametrize("n", range(1, queens.MAX_N + 1))
def test_the_construction_places_n_queens_for_every_n_but_2_and_3(n: int) -> None:
    columns = queens.construct(n)
    if n in (2, 3):
        assert columns is None
    else:
        assert columns is not None and len(columns) == n and no_two_attack(columns)


def test_find_prints_a_board_that_check_accepts(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    assert _run(["queens", "find", "40"]) == 0
    out = capsys.readouterr().out
    board = parse_board(out)
    rows = out.strip().splitlines()
    assert len(rows) == 40 and no_two_attack([row.split().index("Q") for row in rows])
    assert board.grid.rows == 40
    assert _run(["queens", "find", "40", "--json"]) == 0
    document = capsys.readouterr().out
    assert json.loads(document)["found"] is True
    saved = tmp_path / "forty.json"
    saved.write_text(document)
    assert _run(["queens", "check", str(saved)]) == 0
    assert "a solution" in capsys.readouterr().out


@pytest.mark.parametrize("n,code", [(2, 1), (3, 1), (0, 2), (queens.MAX_N + 1, 2)])
def test_find_says_when_no_placement_exists_or_the_size_is_wrong(
    capsys: pytest.CaptureFixture[str], n: int, code: int
) -> None:
    assert _run(["queens", "find", str(n)]) == code
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
