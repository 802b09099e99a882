"""`boardpuzzles baikago verify`: the shipped checker of proof files, against the tests' own.

The shipped checker (``puzzles/baikago/verify.py``) and the tests' checker
(``tests/test_baikago_solve.py``) are two separate readings of the documented format; neither
shares code with the solver. Here they must agree on every file, the sound and the damaged,
and the shipped one must refuse each damage with one line (exit 1).
"""

from __future__ import annotations

import ast
import copy
import functools
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardpuzzles.cli import _run
from boardpuzzles.puzzles.baikago.perfect import OPENING_BOOKS, opening
from boardpuzzles.puzzles.baikago.rules import BLACK, Rules
from boardpuzzles.puzzles.baikago.solve import solve
from boardpuzzles.puzzles.baikago.verify import Geometry, ProofError, read_document, verify_document
from tests.test_baikago_perfect import BOOK_FOLDER
from tests.test_baikago_solve import POSITIONS_5, RECORDED_SEVEN, board_of, check_proof

VERIFY_MODULE = Path(__file__).resolve().parent.parent / "src" / "boardpuzzles" / "puzzles" / "baikago" / "verify.py"


def refuses(document: dict[str, Any]) -> str:
    """The shipped checker's reason for refusing the document (it must refuse it)."""
    with pytest.raises(ProofError) as caught:
        verify_document(document)
    message = str(caught.value)
    assert "\n" not in message
    return message


def own_checker_refuses(document: dict[str, Any]) -> bool:
    try:
        check_proof(document)
    except (AssertionError, KeyError, ValueError, TypeError, AttributeError, IndexError):
        return True
    return False


@pytest.fixture(scope="module")
def seven() -> dict[str, Any]:
    return read_document(RECORDED_SEVEN.read_bytes())


@pytest.fixture(scope="module")
def four() -> dict[str, Any]:
    """4x4 without pairings: both sides' defending strategies (30 and 10 positions)."""
    return json.loads(solve(Rules(4), pairings=False).proof_bytes(compress=False))


# -------------------------------------------------------------------- the recorded 7x7 draw
@pytest.mark.slow
def test_verify_prints_the_draw_of_the_recorded_7x7_proof(capsys: Any) -> None:
    assert _run(["baikago", "verify", str(RECORDED_SEVEN)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "draw: 7x7, + and x crosses, any d (the proof holds)"
    # black's attack: white's defence ends 3,689 lines in a pairing and leaves out the
    # positions where white fills its own cross at once (203,006 lines end so; they are not kept)
    assert "19,272 positions replayed" in out[1] and "3,689 ending in a pairing" in out[1]
    assert "203,006 lines ending with white to move on a four" in out[1]
    assert out[2].startswith("  white cannot win: black's strategy, 598 positions replayed")


def test_a_copy_of_the_7x7_proof_without_one_position_is_refused(
    seven: dict[str, Any], tmp_path: Path, capsys: Any
) -> None:
    document = copy.deepcopy(seven)
    strategy = document["proofs"][0]["strategy"]
    # white's answer to black's first stone in a corner: the first position the replay meets
    # (black's stones are tried point by point from a1), so the refusal comes at once
    answer = Geometry(7, None, "+x").canonical(bytearray(b"X" + b"." * 48))[0].decode()
    assert isinstance(strategy[answer], str)
    del strategy[answer]
    path = tmp_path / "seven-cut.json.gz"
    path.write_bytes(gzip.compress(json.dumps(document).encode()))
    assert _run(["baikago", "verify", str(path)]) == 1
    assert capsys.readouterr().out == f"refused: no move of white's at {answer} (the proof is incomplete)\n"


# -------------------------------------------------------------------- damaged files
def test_a_file_cut_short_or_not_json_is_refused_with_one_line(tmp_path: Path, capsys: Any) -> None:
    data = gzip.compress(solve(Rules(4), pairings=False).proof_bytes(compress=False))
    cases = {
        "cut.json.gz": data[: len(data) // 2],
        "text.json": b"not a proof",
        "list.json": b"[1, 2]",
        "twice.json": b'{"format": "baikago-proof/1", "format": "baikago-proof/1"}',
        "binary.json": bytes(range(256)),
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_bytes(content)
        assert _run(["baikago", "verify", str(path)]) == 1, name
        out, err = capsys.readouterr()
        assert out.count("\n") == 1 and out.startswith("refused: "), (name, out)
    assert _run(["baikago", "verify", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_verify_json_says_whether_the_proof_holds(tmp_path: Path, capsys: Any, four: dict[str, Any]) -> None:
    path = tmp_path / "four.json"
    path.write_text(json.dumps(four))
    assert _run(["baikago", "verify", str(path), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["holds"] is True and document["value"] == "draw"
    assert [c["claim"] for c in document["claims"]] == ["black cannot win", "white cannot win"]
    assert all(c["positions"] > 0 and c["pairing_leaves"] == 0 for c in document["claims"])
    broken = copy.deepcopy(four)
    broken["value"] = "black"
    path.write_text(json.dumps(broken))
    assert _run(["baikago", "verify", str(path), "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["holds"] is False and "value" in document["reason"]


def _owner_moves(document: dict[str, Any]) -> list[tuple[int, str]]:
    return [
        (i, key)
        for i, proof in enumerate(document["proofs"])
        for key, entry in sorted(proof.get("strategy", {}).items())
        if isinstance(entry, str)
    ]


@given(st.data())
def test_both_checkers_agree_on_damaged_strategies(four: dict[str, Any], data: st.DataObject) -> None:
    """A random entry is removed, moved to another point, or renamed: the two checkers (written
    apart) accept or refuse the damaged file together, and a refusal is one line."""
    document = copy.deepcopy(four)
    proof_number, key = data.draw(st.sampled_from(_owner_moves(document)))
    strategy = document["proofs"][proof_number]["strategy"]
    damage = data.draw(st.sampled_from(["remove", "move", "name"]))
    if damage == "remove":
        del strategy[key]
    elif damage == "move":
        strategy[key] = data.draw(st.sampled_from([f"{c}{r}" for c in "abcd" for r in "1234"]))
    else:
        strategy[key] = data.draw(st.sampled_from(["e1", "a5", "A1", "a01", "", "a", 7, None]))
    try:
        verify_document(document)
        shipped_refuses = False
    except ProofError as err:
        assert "\n" not in str(err)
        shipped_refuses = True
    assert shipped_refuses == own_checker_refuses(document)


def test_the_document_must_say_what_it_proves(four: dict[str, Any]) -> None:
    assert verify_document(copy.deepcopy(four)).value == "draw"
    for field, value in [
        ("format", "baikago-proof/2"),
        ("game", "gomoku"),
        ("value", "white"),
        ("value", "unknown"),
        ("start", "." * 15),
        ("start", "X" * 16),
        ("start", "OO" + "." * 14),
        ("rules", {"size": 4, "max_d": None}),
        ("rules", {"size": 4, "max_d": 0, "orientations": "+x"}),
        ("rules", {"size": 4, "max_d": None, "orientations": "+y"}),
        ("proofs", []),
    ]:
        document = copy.deepcopy(four)
        document[field] = value
        refuses(document)
        assert own_checker_refuses(document) or field in ("rules", "proofs"), field
    document = copy.deepcopy(four)
    document["proofs"][0]["player"] = "black"
    assert "player" in refuses(document)
    document = copy.deepcopy(four)
    document["proofs"][1].update(claim="black cannot win", player="white")
    assert "second claim" in refuses(document)


def test_a_pairing_is_checked_point_by_point() -> None:
    document = json.loads(solve(Rules(5)).proof_bytes(compress=False))
    assert verify_document(copy.deepcopy(document)).value == "draw"
    pairs = document["proofs"][0]["pairing"]
    for damaged in (pairs[1:], [*pairs[1:], [pairs[0][0], pairs[1][0]]], [*pairs, [pairs[0][0], "a1"]]):
        broken = copy.deepcopy(document)
        broken["proofs"][0]["pairing"] = damaged
        refuses(broken)
        assert own_checker_refuses(broken)


# -------------------------------------------------------------------- wins
@pytest.mark.parametrize("picture", POSITIONS_5)
def test_wins_are_replayed_like_the_tests_checker_does(picture: str) -> None:
    """From 5x5 positions won by one side: the winner's strategy (a move wherever it is to move,
    every reply followed, every line ending in its cross) holds in both checkers, and a copy
    without one of its moves holds in neither."""
    document = json.loads(solve(Rules(5), start=board_of(picture), tt_bits=16).proof_bytes(compress=False))
    value = document["value"]
    verdict = verify_document(copy.deepcopy(document))
    assert verdict.value == check_proof(copy.deepcopy(document)) == value and value in ("black", "white")
    replay = verdict.replays[-1]
    assert replay.claim == f"{value} wins" and replay.crosses_filled + replay.immediate_wins > 0
    assert replay.pairing_leaves == replay.no_cross_left == replay.full_boards == 0
    winning = document["proofs"][-1]["strategy"]
    first = min(winning, key=lambda key: key.count("."), default=None)
    if first is None:
        return  # the winner fills a four at once: nothing to remove
    del winning[first]
    refuses(document)
    assert own_checker_refuses(document)


def test_a_pairing_cannot_prove_a_win() -> None:
    document = json.loads(solve(Rules(5), start=board_of(POSITIONS_5[0]), tt_bits=16).proof_bytes(compress=False))
    proof = document["proofs"][-1]
    proof["pairing"] = [["a1", "b1"]]
    del proof["strategy"]
    assert "pairing" in refuses(document)


# -------------------------------------------------------------------- independence
def imports_of(module: Path) -> set[str]:
    imported = set()
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    return imported


def test_the_shipped_checker_shares_no_code_with_the_solver() -> None:
    """It imports the standard library and the package's error class, nothing else; the join of
    several files imports the checker and the error class."""
    standard = {"__future__", "json", "operator", "zlib", "collections.abc", "dataclasses", "typing"}
    imported = imports_of(VERIFY_MODULE)
    ours = {name for name in imported if name.startswith("boardpuzzles")}
    assert ours == {"boardpuzzles.errors"} and imported - ours <= standard
    joining = imports_of(VERIFY_MODULE.with_name("verify_join.py"))
    ours = {name for name in joining if name.startswith("boardpuzzles")}
    assert ours == {"boardpuzzles.puzzles.baikago.verify"} and joining - ours <= standard


@pytest.mark.parametrize(
    ("name", "claim", "row", "positions", "nodes"),
    [
        ("baikago-8-white.json.gz", "white cannot win", "Baikago 8x8: can white win?", 233_342, 6_193_075),
        ("baikago-9-white.json.gz", "white cannot win", "Baikago 9x9: can white win?", 164_715, 2_005_520),
        ("baikago-9.json.gz", "black wins", "Baikago 9x9: who wins", 164_954, 2_024_423),
        ("baikago-10.json.gz", "black wins", "Baikago 10x10: who wins", 738_699, 5_046_277),
        ("baikago-11.json.gz", "black wins", "Baikago 11x11: who wins", 470_496, 2_369_293),
        ("baikago-12.json.gz", "black wins", "Baikago 12x12: who wins", 1_900_248, 11_818_182),
        ("baikago-13.json.gz", "black wins", "Baikago 13x13: who wins", 872_405, 3_636_960),
        ("baikago-14.json.gz", "black wins", "Baikago 14x14: who wins", 4_905_625, 15_718_223),
        (
            "baikago-15.json.gz",
            "black wins",
            "Baikago 15x15: who wins (the seed article's board)",
            1_905_820,
            5_825_522,
        ),
    ],
)
def test_the_committed_proofs_are_the_files_the_records_describe(
    name: str, claim: str, row: str, positions: int, nodes: int
) -> None:
    """records/baikago-8-white.json.gz and baikago-9-white.json.gz (white cannot win on 8x8 nor on
    9x9) and baikago-9 to -15.json.gz (black wins on 9x9 to 15x15), each replayed whole by
    `baikago verify` in half a minute to 50 CPU minutes, too long for the tests: its SHA-256
    and size are those records/README.md gives, and it claims what docs/records.md says, with the
    strategy's size and the search's nodes given there. All these strategies are black's. On
    10x10 to 15x15 the computer's opening book is the strategy's first moves."""
    import hashlib

    root = Path(__file__).resolve().parent.parent
    path = root / "records" / name
    data = path.read_bytes()
    (line,) = [line for line in (root / "records" / "README.md").read_text().splitlines() if f"`{name}`" in line[:40]]
    assert f"SHA-256 {hashlib.sha256(data).hexdigest()}, {len(data):,} bytes" in line
    document = json.loads(gzip.decompress(data))
    size = int(name.split("-")[1].split(".")[0])
    assert document["rules"] == {"size": size, "max_d": None, "orientations": "+x"}
    (proof,) = document["proofs"]
    assert (proof["claim"], proof["player"]) == (claim, "black")
    assert (len(proof["strategy"]), proof["nodes"]) == (positions, nodes)
    records = (root / "docs" / "records.md").read_text()
    (record,) = [line for line in records.splitlines() if line.startswith(f"| {row} |")]
    assert f"{positions:,} positions" in record and f"{nodes:,}" in record
    if Rules(size) in OPENING_BOOKS:  # the computer's book of the board is this proof's opening
        shipped = (BOOK_FOLDER / OPENING_BOOKS[Rules(size)]).read_bytes()
        assert json.loads(gzip.decompress(shipped)) == opening(document)


def test_verify_reads_standard_input_and_says_what_one_side_proves(tmp_path: Path) -> None:
    """``-`` reads the proof from standard input; a file of one side's claim says what that claim
    proves (not just "unknown")."""
    import subprocess
    import sys

    path = tmp_path / "four.json"
    document = solve(Rules(4), pairings=False, attackers=(BLACK,), tt_bits=12).to_json()
    path.write_text(json.dumps(document))
    command = [sys.executable, "-m", "boardpuzzles", "baikago", "verify", "-"]
    done = subprocess.run(command, stdin=path.open("rb"), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith("black cannot win (the value needs the other side's claim too): 4x4"), first


# -------------------------------------------------------------------- several files joined
def proof_after(tmp_path: Path, size: int, side: str, after: str | None, pairings: bool = False) -> str:
    """A proof file of `solve SIZE --side SIDE --after AFTER` (by default without pairings: real
    strategies)."""
    path = tmp_path / f"{side}-{after or 'empty'}.json"
    where = ["--after", after] if after else []
    pairing = [] if pairings else ["--no-pairings"]
    command = ["baikago", "solve", str(size), "--side", side, *pairing, "--tt-bits", "12", *where]
    assert _run([*command, "--proof", str(path)]) == 0
    return str(path)


def test_files_about_each_first_move_join_into_the_claim_about_the_board(tmp_path: Path, capsys: Any) -> None:
    """4x4 (a draw): black's three first moves up to symmetry (a corner, an edge, a centre point)
    each with a file where black cannot win: together, black cannot win on the empty board. A
    corner left out leaves nothing proved, and the line names it; a file of its mirror image
    (d1 for a4) covers it as well."""
    files = {m: proof_after(tmp_path, 4, "black", m) for m in ("a4", "b4", "b3", "d1")}
    capsys.readouterr()
    assert _run(["baikago", "verify", files["a4"], files["b4"], files["b3"]]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (
        out[-1]
        == "joined, from the positions one move on: black cannot win: 4x4, + and x crosses, any d, on the empty board"
    )
    assert _run(["baikago", "verify", files["d1"], files["b4"], files["b3"]]) == 0  # d1 is a4's image
    capsys.readouterr()
    white = proof_after(tmp_path, 4, "white", None)  # about the empty board itself: its claim adds up
    assert _run(["baikago", "verify", files["a4"], files["b4"], files["b3"], white]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith(": draw: 4x4, + and x crosses, any d, on the empty board")
    assert _run(["baikago", "verify", files["b4"], files["b3"]]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-2].endswith("nothing follows: 4x4, + and x crosses, any d, on the empty board")
    assert out[-1] == "  black cannot win would need files for a4 too"  # the corners, by the first point
    assert _run(["baikago", "verify", files["b4"], files["b3"], "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert [f["holds"] for f in document["files"]] == [True, True]
    assert document["joined"]["claims"] == [] and document["joined"]["missing"] == {"black cannot win": ["a4"]}


def test_one_move_of_the_side_to_move_is_enough_for_its_own_claim(tmp_path: Path, capsys: Any) -> None:
    """After black's b3, white to move: one white reply after which black cannot win shows that
    black cannot win (white plays it); a black win after one white reply shows nothing."""
    first, second = proof_after(tmp_path, 4, "black", "b3,c2"), proof_after(tmp_path, 4, "black", "b3,a1")
    capsys.readouterr()
    assert _run(["baikago", "verify", first, second, "--json"]) == 0
    joined = json.loads(capsys.readouterr().out)["joined"]
    assert (
        joined["claims"] == ["black cannot win"] and joined["start"] == ".....X.........." and joined["missing"] == {}
    )
    from boardpuzzles.puzzles.baikago.verify import Replay
    from boardpuzzles.puzzles.baikago.verify_join import join_verdicts

    after_c2, after_a1 = (verify_document(read_document(Path(f).read_bytes())) for f in (first, second))
    won = copy.deepcopy(after_a1)
    won.replays = [Replay("black wins", "black")]  # as if a file proved it after a1: one reply only
    joined = join_verdicts([after_c2, won])
    assert joined.claims() == ["black cannot win"] and joined.missing == {}  # black's win is refuted: not asked for


def test_files_about_one_position_add_up_their_claims(tmp_path: Path, capsys: Any) -> None:
    black, white = proof_after(tmp_path, 4, "black", None), proof_after(tmp_path, 4, "white", None)
    capsys.readouterr()
    assert _run(["baikago", "verify", black, white]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "joined: draw: 4x4, + and x crosses, any d, on the empty board"


def test_files_that_do_not_fit_together_are_refused_with_one_line(tmp_path: Path, capsys: Any) -> None:
    four, five = proof_after(tmp_path, 4, "black", "a4"), proof_after(tmp_path, 5, "black", "c3", pairings=True)
    capsys.readouterr()
    assert _run(["baikago", "verify", four, five]) == 1
    assert capsys.readouterr().out.splitlines()[-1].startswith("not joined: the files are proofs for different rules")
    broken = tmp_path / "broken.json"
    broken.write_text("{}")
    assert _run(["baikago", "verify", four, str(broken)]) == 1
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"refused: {broken}: not a Baikago proof")


def test_files_further_on_are_carried_back_one_move_at_a_time(tmp_path: Path, capsys: Any) -> None:
    """4x4: black cannot win on the empty board, from files two and three moves on. After a4
    and after b4, one white reply where black cannot win is enough (white plays it); after b3,
    white's c2 and then every black move up to the mirror in the a4-d1 diagonal (which keeps b3
    and c2). One black move left out there leaves nothing proved on the empty board; the files
    after b3 and c2 alone are joined at that position, and name the move."""
    third = {
        m: proof_after(tmp_path, 4, "black", f"b3,c2,{m}") for m in ("a4", "b4", "c4", "d4", "c3", "d3", "d2", "d1")
    }
    files = [proof_after(tmp_path, 4, "black", moves) for moves in ("a4,d1", "b4,c3")] + list(third.values())
    capsys.readouterr()
    assert _run(["baikago", "verify", *files]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "joined, from the positions up to 3 moves on: black cannot win: 4x4, + and x crosses, any d, on the empty board"
    )
    white = proof_after(tmp_path, 4, "white", None)
    capsys.readouterr()
    assert _run(["baikago", "verify", *files, white, "--json"]) == 0
    joined = json.loads(capsys.readouterr().out)["joined"]
    assert (joined["value"], joined["depth"], joined["from"]) == ("draw", 3, "positions further on")
    without_d2 = [f for f in files if f != third["d2"]]
    assert _run(["baikago", "verify", *without_d2]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-2].endswith(": nothing follows: 4x4, + and x crosses, any d, on the empty board")
    assert out[-1] == "  black cannot win would need files for b3 too"
    assert _run(["baikago", "verify", *(f for m, f in third.items() if m != "d2")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-2].endswith("nothing follows: 4x4, + and x crosses, any d, with black on b3 and white on c2")
    assert out[-1] == "  black cannot win would need files for d2 too"


def test_files_are_joined_at_a_position_play_can_reach(tmp_path: Path, capsys: Any) -> None:
    """Files after a4 c2, b4 c2 and b3 c2 share only white's c2, which alternate play cannot
    leave alone on the board: they are joined on the empty board (white's c2 answers each of
    black's first moves there)."""
    files = [proof_after(tmp_path, 4, "black", f"{m},c2") for m in ("a4", "b4", "b3")]
    capsys.readouterr()
    assert _run(["baikago", "verify", *files]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "joined, from the positions up to 2 moves on: black cannot win: 4x4, + and x crosses, any d, on the empty board"
    )


def _position(moves: str) -> str:
    """The 4x4 picture after ``moves`` (point names, black first)."""
    names = [c + r for r in "4321" for c in "abcd"]
    board = ["."] * 16
    for number, move in enumerate(moves.split(",")):
        board[names.index(move)] = "XO"[number % 2]
    return "".join(board)


def test_a_position_two_lines_reach_in_two_frames_has_both_parents() -> None:
    """After black's a4, each white reply with a file two moves on where white cannot win:
    a4 b3 d1 and a4 c2 d1 are one position up to the mirror that swaps a4 and d1, so the file of
    either line serves both replies (so do b4/d2 and c4/d3)."""
    from boardpuzzles.puzzles.baikago.verify import Replay, Verdict
    from boardpuzzles.puzzles.baikago.verify_join import join_verdicts

    rules = {"size": 4, "max_d": None, "orientations": "+x"}
    replies = {"b4": "d1", "c4": "d1", "d4": "d1", "b3": "d1", "c3": "d1", "d3": "d1", "c2": "d1", "d2": "d1"}
    replies["d1"] = "c2"
    files = [
        Verdict("unknown", rules, _position(f"a4,{w},{b}"), [Replay("white cannot win", "black")])
        for w, b in replies.items()
    ]
    joined = join_verdicts(files)
    assert joined.claims() == ["white cannot win"] and joined.missing == {} and joined.start == _position("a4")


def test_a_claim_the_files_refute_is_not_asked_for() -> None:
    """Where one child shows black wins, the line of moves black cannot win would still need is
    not printed: the files settle black's claim."""
    from boardpuzzles.puzzles.baikago.verify import Replay, Verdict
    from boardpuzzles.puzzles.baikago.verify_join import join_verdicts

    rules = {"size": 4, "max_d": None, "orientations": "+x"}
    parent = _position("a3,b4,c3,d4,b2,b3,d2,d1")  # black a3 c3 b2 d2, white b4 d4 b3 d1
    won, lost = parent[:14] + "X" + parent[15:], parent[:2] + "X" + parent[3:]  # c1 and c4
    files = [Verdict("unknown", rules, won, [Replay("black wins", "black")])]
    files.append(Verdict("unknown", rules, lost, [Replay("black cannot win", "white")]))
    joined = join_verdicts(files)
    assert joined.claims() == ["black wins"] and joined.missing == {} and joined.gaps() == []


def test_shared_stones_that_no_one_position_explains_are_refused() -> None:
    """Files after a4 c2 b3 and after a4 d1 b3 share black's a4 and b3 alone: either could be
    black's first move, so no position is chosen for them."""
    from boardpuzzles.puzzles.baikago.verify import Replay, Verdict
    from boardpuzzles.puzzles.baikago.verify_join import join_verdicts

    rules = {"size": 4, "max_d": None, "orientations": "+x"}
    files = [
        Verdict("unknown", rules, _position(m), [Replay("black cannot win", "white")]) for m in ("a4,c2,b3", "a4,d1,b3")
    ]
    with pytest.raises(ProofError, match=r"share \(2 black, 0 white\) are no position that play reaches"):
        join_verdicts(files)


def test_a_claim_every_reply_must_carry_is_joined_by_the_classes_of_the_position(tmp_path: Path, capsys: Any) -> None:
    """After black's b3 on 4x4, white to move: white cannot win there when every white reply has
    a file where white cannot. b3 lies on the a4-d1 diagonal, so its mirror in that diagonal
    pairs white's replies (c4 with a2, ...): one of each pair is enough, and a pair left out is
    named by its first point (classes taken on the empty board would be wrong here)."""
    replies = ["a4", "b4", "c4", "d4", "a3", "c3", "d3", "a2", "b2", "c2", "d2", "a1", "b1", "c1", "d1"]
    files = {r: proof_after(tmp_path, 4, "white", f"b3,{r}", pairings=True) for r in replies}
    capsys.readouterr()
    assert _run(["baikago", "verify", *files.values()]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (
        out[-1]
        == "joined, from the positions one move on: white cannot win: 4x4, + and x crosses, any d, with black on b3"
    )
    mirrored = [files[r] for r in replies if r not in ("a3", "a2", "a1", "b2", "b1", "c1")]  # one of each pair kept
    assert _run(["baikago", "verify", *mirrored]) == 0
    capsys.readouterr()
    assert _run(["baikago", "verify", *(files[r] for r in replies if r not in ("c4", "a2"))]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "  white cannot win would need files for c4 too"


def test_a_move_that_fills_a_cross_wins_and_contradictions_are_refused() -> None:
    """The side to move fills a cross: it wins, with no file; no claim that every move must
    carry follows. Claims that contradict each other are refused (one checker would be wrong)."""
    from boardpuzzles.puzzles.baikago.verify import Replay, Verdict
    from boardpuzzles.puzzles.baikago.verify_join import join_verdicts

    rules = {"size": 4, "max_d": None, "orientations": "+x"}
    # black on b4, a3, c3 and b2 (b3's + cross but its centre), white on a4, d4, a1, d1: black to move
    parent = "OX.O" + "X.X." + ".X.." + "O..O"
    children = [parent[:2] + "X" + parent[3:], parent[:7] + "X" + parent[8:]]  # c4 and d3: neither fills
    verdicts = [Verdict("unknown", rules, child, [Replay("white cannot win", "black")]) for child in children]
    joined = join_verdicts(verdicts)
    assert joined.value == "black" and joined.fills == ["b3"] and joined.missing == {}
    assert joined.gaps() == ["black fills a cross at b3"]
    empty = "." * 16
    same = [
        Verdict("unknown", rules, empty, [Replay(claim, player)])
        for claim, player in (("white wins", "white"), ("white cannot win", "black"))
    ]
    with pytest.raises(ProofError, match="contradict each other about white"):
        join_verdicts(same)
    first_moves = [empty[:p] + "X" + empty[p + 1 :] for p in (0, 1, 5)]  # a4, b4, b3: every class
    children_say = [Verdict("unknown", rules, first_moves[0], [Replay("black wins", "black")])]
    children_say += [Verdict("unknown", rules, m, [Replay("black cannot win", "white")]) for m in first_moves]
    with pytest.raises(ProofError, match="contradict each other about black"):
        join_verdicts(children_say)


#: Black's first moves on 8x8 up to symmetry, each named by its first point (a8 first, row by row).
FIRST_MOVES_8 = ["a8", "b8", "c8", "d8", "b7", "c7", "d7", "c6", "d6", "d5"]
#: Black's moves after d5 e4 up to the mirror in the a8-h1 diagonal (which keeps both stones), by first point.
AFTER_D5_E4 = "a8 b8 c8 d8 e8 f8 g8 h8 b7 c7 d7 e7 f7 g7 h7 c6 d6 e6 f6 g6 h6 e5 f5 g5 h5 f4 g4 h4 f3 g3 h3 g2 h2 h1"


def _committed_8x8_pieces(line_about: str) -> tuple[list[list[str]], list[Any]]:
    """Each records/baikago-8-after-*.json.gz: its moves (from its name, black first) and its
    claims as a verdict for the join, once its SHA-256 and size are those records/README.md gives,
    its start is the position after its moves, and the row of docs/records.md that has
    ``line_about`` gives its last move's strategy size and search nodes (when it is about the
    moves that row is about: the first move alone, or d5 e4 and one more)."""
    from boardpuzzles.puzzles.baikago.verify import Replay, Verdict

    root = Path(__file__).resolve().parent.parent
    readme = (root / "records" / "README.md").read_text().splitlines()
    (record,) = [line for line in (root / "docs" / "records.md").read_text().splitlines() if line_about in line]
    geometry = Geometry(8, None, "+x")
    pieces, verdicts = [], []
    for path in sorted((root / "records").glob("baikago-8-after-*.json.gz")):
        moves = path.name.removeprefix("baikago-8-after-").removesuffix(".json.gz").split("-")
        digest, size, rules, start, claims, positions, nodes = _read_piece(path)
        (line,) = [line for line in readme if f"`{path.name}`" in line[:60]]
        assert f"SHA-256 {digest}, {size:,} bytes" in line
        after = ["."] * 64
        for turn, move in enumerate(moves):
            after[geometry.point_of[move]] = "XO"[turn % 2]
        assert start == "".join(after) and rules["size"] == 8
        assert claims == [("black cannot win", "white")]
        if (len(moves) == 1) == ("first move" in line_about):
            assert f"{moves[-1]}: {positions:,} positions, {nodes:,} nodes" in record
        pieces.append(moves)
        verdicts.append(Verdict("unknown", rules, start, [Replay("black cannot win", "white")]))
    return pieces, verdicts


@functools.cache
def _read_piece(path: Path) -> tuple[str, int, dict[str, Any], str, list[tuple[str, str]], int, int]:
    """A proof file's SHA-256, size, rules, start, claims (with their players), and its one
    strategy's positions and search nodes: read once for the tests that look at it."""
    import hashlib

    data = path.read_bytes()
    document = json.loads(gzip.decompress(data))
    proofs = document["proofs"]
    claims = [(proof["claim"], proof["player"]) for proof in proofs]
    return (
        hashlib.sha256(data).hexdigest(),
        len(data),
        document["rules"],
        document["start"],
        claims,
        len(proofs[0]["strategy"]),
        proofs[0]["nodes"],
    )


def test_the_committed_8x8_first_moves_are_the_files_the_records_describe() -> None:
    """records/baikago-8-after-M.json.gz: black cannot win 8x8 after its first move M, each
    replayed whole by `baikago verify` in half a minute to two CPU minutes (too long for the
    tests), is the file records/README.md and docs/records.md describe. Joined (claims and starts,
    without the replays) with the files further on (after d5 e4), they leave unproved exactly
    the first moves they lack, d5 while any piece after d5 e4 is missing."""
    from boardpuzzles.puzzles.baikago.verify_join import join_verdicts

    pieces, verdicts = _committed_8x8_pieces("after its first move")
    found = [moves[0] for moves in pieces if len(moves) == 1]
    after_d5 = {moves[-1] for moves in pieces if moves[:2] == ["d5", "e4"] and len(moves) == 3}
    assert found and set(found) <= set(FIRST_MOVES_8) and len(pieces) == len(found) + len(after_d5)
    if after_d5 == set(AFTER_D5_E4.split()):
        found.append("d5")
    left = [m for m in FIRST_MOVES_8 if m not in found]
    assert join_verdicts(verdicts).missing.get("black cannot win", []) == left


def test_the_committed_8x8_pieces_after_d5_e4_are_the_files_the_records_describe() -> None:
    """records/baikago-8-after-d5-e4-X.json.gz: black cannot win 8x8 after d5 e4 X, each the file
    the records describe; joined, they leave unproved exactly black's moves after d5 e4 that no
    file covers (the join of these alone is at d5 e4, the stones they share)."""
    from boardpuzzles.puzzles.baikago.verify_join import join_verdicts

    pieces, verdicts = _committed_8x8_pieces("after d5 e4, black's moves")
    verdicts = [v for v, moves in zip(verdicts, pieces, strict=True) if len(moves) == 3]
    found = [moves[2] for moves in pieces if len(moves) == 3]
    assert all(moves[:2] == ["d5", "e4"] for moves in pieces if len(moves) == 3)
    assert len(found) > 1 and set(found) <= set(AFTER_D5_E4.split())
    joined = join_verdicts(verdicts)
    assert joined.start.count("X") == 1 and joined.start.count("O") == 1
    left = [m for m in AFTER_D5_E4.split() if m not in found]
    assert joined.missing.get("black cannot win", []) == left
