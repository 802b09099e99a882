"""Perfect play on solved boards: the computer at its strongest never loses a solved draw and
wins where the position is won; the value of a position agrees with the plain minimax twin."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardpuzzles.puzzles.baikago import perfect
from boardpuzzles.puzzles.baikago.ai import ComputerPlayer, RandomPlayer
from boardpuzzles.puzzles.baikago.game import Position
from boardpuzzles.puzzles.baikago.perfect import (
    BOOKS,
    OPENING_BOOKS,
    OPENING_STONES,
    SolvedValue,
    book,
    check_opening,
    is_solved,
    perfect_move,
    solved_value,
)
from boardpuzzles.puzzles.baikago.rules import Rules
from boardpuzzles.puzzles.baikago.solve import solve
from tests.test_baikago_solve import (
    BLACK,
    EMPTY,
    POSITIONS_4,
    POSITIONS_5,
    RECORDED_SEVEN,
    WHITE,
    all_crosses,
    board_of,
    canonical,
    minimax_value,
    winner,
)

BOOK_FOLDER = Path(__file__).resolve().parent.parent / "src" / "boardpuzzles" / "puzzles" / "baikago" / "books"


def to_move(board: list[int]) -> int:
    return BLACK if board.count(BLACK) == board.count(WHITE) else WHITE


def replay_against_every_reply(rules: Rules, start: list[int], player: int, wins: bool) -> int:
    """Follow every move of the opponent and the perfect move of ``player`` from ``start``: the
    opponent never fills a cross, and with ``wins`` every line ends in the player's cross. The
    positions met (one per symmetry class)."""
    n = rules.size
    crosses = all_crosses(n, None, "+x")
    seen: set[str] = set()

    def visit(board: list[int]) -> None:
        done = winner(board, crosses)
        if done != EMPTY or EMPTY not in board:
            assert done != BLACK + WHITE - player, f"the opponent won: {board}"
            assert not wins or done == player, f"no win: {board}"
            return
        picture = canonical(board, n)[0]
        if picture in seen:
            return
        seen.add(picture)
        if to_move(board) == player:
            found = perfect_move(rules, board)
            assert found is not None and board[found.point] == EMPTY, picture
            assert found.keeps == ("win" if wins else found.keeps)
            board[found.point] = player
            visit(board)
            board[found.point] = EMPTY
        else:
            for p in range(n * n):
                if board[p] == EMPTY:
                    board[p] = BLACK + WHITE - player
                    visit(board)
                    board[p] = EMPTY

    visit(list(start))
    return len(seen)


RECORDS = Path(__file__).resolve().parent.parent / "records"


def test_the_shipped_books_are_the_records() -> None:
    """7x7 and 9x9 ship their whole proofs; 10x10 to 15x15 their openings (compared with the
    records where the records' files are checked, in tests/test_baikago_verify.py)."""
    assert set(BOOKS) == {Rules(7), Rules(9)}
    assert (BOOK_FOLDER / BOOKS[Rules(7)]).read_bytes() == RECORDED_SEVEN.read_bytes()
    assert (BOOK_FOLDER / BOOKS[Rules(9)]).read_bytes() == (RECORDS / "baikago-9.json.gz").read_bytes()
    assert set(OPENING_BOOKS) == {Rules(n) for n in range(10, 16)}
    shipped = {path.name for path in BOOK_FOLDER.glob("*.json.gz")}
    assert shipped == set(BOOKS.values()) | set(OPENING_BOOKS.values())
    assert all(book(rules).opening_stones == OPENING_STONES for rules in OPENING_BOOKS)  # type: ignore[union-attr]
    assert all(book(rules).opening_stones is None for rules in BOOKS)  # type: ignore[union-attr]


def test_only_proved_boards_are_solved() -> None:
    assert [n for n in range(3, 17) if is_solved(Rules(n))] == [3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15]
    assert not is_solved(Rules(15, max_d=2))
    assert not is_solved(Rules(7, max_d=2))
    assert solved_value(Rules(8), [EMPTY] * 64) is None and perfect_move(Rules(8), [EMPTY] * 64) is None


@pytest.mark.nojit
@pytest.mark.parametrize("picture", POSITIONS_4)
def test_values_agree_with_the_minimax_twin(picture: str) -> None:
    board = board_of(picture)
    found = solved_value(Rules(4), board)
    assert found is not None and found.value == minimax_value(4, board)


@pytest.mark.slow
@pytest.mark.parametrize("player", [BLACK, WHITE])
def test_perfect_play_never_loses_4x4_against_any_line(player: int) -> None:
    assert replay_against_every_reply(Rules(4), [EMPTY] * 16, player, wins=False) > 10


@pytest.mark.parametrize("picture", POSITIONS_5)
def test_perfect_play_wins_the_won_5x5_positions_against_any_line(picture: str) -> None:
    board = board_of(picture)
    value = solve(Rules(5), start=board, tt_bits=16).value
    winner_ = BLACK if value == "black" else WHITE
    found = solved_value(Rules(5), board)
    assert found is not None and found.value == value
    if to_move(board) != winner_:  # the loser moves first: every move of its loses
        assert perfect_move(Rules(5), board) is None
        board = list(board)
        board[next(p for p in range(25) if board[p] == EMPTY)] = to_move(board)
    replay_against_every_reply(Rules(5), board, winner_, wins=True)


def test_the_7x7_book_answers_every_first_move_and_every_pairing_leaf() -> None:
    """White's moves come from the proof's strategy, and after one of its pairing leaves from
    the pairing (checked where it is used): a game that reaches a leaf goes on from the book."""
    rules = Rules(7)
    seven = book(rules)
    assert seven is not None
    for p in range(49):
        board = np.zeros(49, dtype=np.int8)
        board[p] = BLACK
        assert seven.move(board, WHITE) is not None
    rng = random.Random(7)
    leaves = seven.leaves[WHITE]
    for i in rng.sample(range(len(leaves)), 20):
        board = leaves[i].copy()
        black = rng.choice([int(p) for p in np.flatnonzero(board == EMPTY)])
        board[black] = BLACK
        move = seven.move(board, WHITE)
        assert move is not None and board[move] == EMPTY


def play(rules: Rules, black: Any, white: Any) -> tuple[int | None, list[str]]:
    position = Position(rules)
    reasons = []
    while not position.is_game_over():
        player = black if position.turn == BLACK else white
        choice = player.choose_for(position)
        reasons.append(choice.reason)
        position.make(choice.move)
    outcome = position.outcome()
    assert outcome is not None
    return outcome.winner, reasons


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1))
def test_the_strongest_computer_never_loses_7x7(seed: int) -> None:
    """Against a random player and against strength 2, as black and as white: no loss, and every
    move the strongest player makes (after a forced one) keeps the solved value."""
    rules = Rules(7)
    for opponent in (RandomPlayer(seed), ComputerPlayer(rules, strength=2, seed=seed)):
        for colour in (BLACK, WHITE):
            best = ComputerPlayer(rules, strength=4, seed=seed)
            black, white = (best, opponent) if colour == BLACK else (opponent, best)
            won, reasons = play(rules, black, white)
            assert won in (colour, None), (seed, type(opponent).__name__, colour)
            mine = reasons[0 if colour == BLACK else 1 :: 2]
            assert set(mine) <= {"perfect", "win", "block"}, mine


def test_the_9x9_book_wins_after_every_reply_to_its_first_two_moves() -> None:
    """Black's strategy (records/baikago-9.json.gz, replayed by the checker in the records'
    tests) has a move after each of white's replies to its first two moves; the value of the
    empty board comes from it at once, and white, whose every move loses, gets no perfect move."""
    rules = Rules(9)
    nine = book(rules)
    assert nine is not None and nine.winners == {BLACK}
    assert solved_value(rules, [EMPTY] * 81) == SolvedValue("black", "proof")
    board = np.zeros(81, dtype=np.int8)
    first = nine.move(board, BLACK)
    assert first is not None
    board[first] = BLACK
    assert perfect_move(rules, board) is None
    answered = 0
    for reply in np.flatnonzero(board == EMPTY):
        board[reply] = WHITE
        second = nine.move(board, BLACK)
        assert second is not None and board[second] == EMPTY
        board[second] = BLACK
        for again in np.flatnonzero(board == EMPTY):
            board[again] = WHITE
            answered += nine.move(board, BLACK) is not None
            board[again] = EMPTY
        board[second] = EMPTY
        board[reply] = EMPTY
    assert answered == 80 * 78  # every second reply of white, after each first


@pytest.mark.slow
@pytest.mark.parametrize("size", [9, 10, 12, 15])
@pytest.mark.parametrize("seed", range(2))
def test_the_strongest_computer_wins_as_black(size: int, seed: int) -> None:
    """Against a random player and strengths 2 and 3: black wins, every move perfect (on 9x9
    from the book; on 10x10 to 15x15 the first three from the book and the rest from
    threat-space searches) or filling a four."""
    rules = Rules(size)
    for opponent in (
        RandomPlayer(seed),
        ComputerPlayer(rules, strength=2, seed=seed),
        ComputerPlayer(rules, strength=3, seed=seed),
    ):
        won, reasons = play(rules, ComputerPlayer(rules, strength=4, seed=seed), opponent)
        assert won == BLACK, (seed, type(opponent).__name__)
        assert set(reasons[0::2]) <= {"perfect", "win", "block"}, reasons[0::2]


@pytest.mark.slow
def test_the_11x11_opening_book_wins_after_every_reply() -> None:
    """The book has black's move after every reply of white to its first two moves, and a
    threat-space search finds black's win after every reply to its third (one in 25 searched
    here; benchmarks/baikago_opening_books.py searches them all). The counts are those of the
    record's strategy (records/baikago-11.json.gz): 1,890 positions of up to 4 stones, 139,984
    of 6."""
    found = check_opening(Rules(11), every=25)
    assert found.missing == ()
    assert (found.book_positions, found.edge_positions) == (1_890, 139_984)
    assert 0 < found.most_nodes


def first_moves(rules: Rules, replies: list[int]) -> np.ndarray:
    """The board after black's book moves, white answering each with the next of ``replies``
    (the first empty point from it on)."""
    opening = book(rules)
    assert opening is not None
    board = np.zeros(rules.size**2, dtype=np.int8)
    for reply in replies:
        move = opening.move(board, BLACK)
        assert move is not None
        board[move] = BLACK
        board[next(p for p in range(reply, rules.size**2) if board[p] == EMPTY)] = WHITE
    return board


def test_past_the_15x15_opening_black_wins_by_a_threat_search() -> None:
    """Past the book's last stones, the value and black's move come from a threat-space search;
    white, whose every move loses, has no perfect move; off the book nothing is claimed (and no
    search of the whole game is made: on 15x15 it would not end)."""
    rules = Rules(15)
    board = first_moves(rules, [0, 17, 40])
    assert int((board != EMPTY).sum()) == OPENING_STONES + 2
    found = perfect_move(rules, board)
    assert found is not None and found.keeps == "win" and found.source == "search" and found.nodes > 0
    assert board[found.point] == EMPTY
    value = solved_value(rules, board)
    assert value is not None and (value.value, value.source) == ("black", "search")
    board[found.point] = BLACK
    assert perfect_move(rules, board) is None  # white to move: every move loses
    value = solved_value(rules, board)
    assert value is not None and value.value == "black"
    corner = np.zeros(225, dtype=np.int8)
    corner[0], corner[1] = BLACK, WHITE  # black's first stone is not the book's
    assert solved_value(rules, corner) is None and perfect_move(rules, corner) is None


def test_no_search_of_the_whole_game_on_the_large_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """On 15x15 only threat-space searches are made (a search of the whole game would not end
    within a move's time), on the book's lines and off them, for the value and for a move."""
    made: list[bool] = []
    real = perfect._attack

    def watched(*args: Any, threats: bool = False) -> Any:
        made.append(threats)
        assert threats, "a search of the whole game"
        return real(*args, threats=threats)

    monkeypatch.setattr(perfect, "_attack", watched)
    rules = Rules(15)
    board = first_moves(rules, [0, 17, 40])
    corner = np.zeros(225, dtype=np.int8)
    corner[0], corner[1] = BLACK, WHITE
    for position in (board, corner):
        solved_value(rules, position)
        perfect_move(rules, position)
    board[perfect_move(rules, board).point] = BLACK  # type: ignore[union-attr]
    assert perfect_move(rules, board) is None  # white, who loses: no search at all
    assert solved_value(rules, board) is not None  # every reply of white answered by a threat search
    assert made and all(made)


def test_the_value_of_a_large_board_stays_within_its_node_budget() -> None:
    """White to move past the 15x15 opening: one threat-space search per reply; a budget too
    small for them all leaves the value unknown, as a stopped search does."""
    rules = Rules(15)
    board = first_moves(rules, [0, 17, 40])
    board[perfect_move(rules, board).point] = BLACK  # type: ignore[union-attr]
    found = solved_value(rules, board)
    assert found is not None and (found.value, found.source) == ("black", "search") and found.nodes > 1
    assert solved_value(rules, board, nodes=found.nodes - 1) is None
