"""Baikago: the judge (seed position and hand-made ones), the game core, and the computer player's
kernels against their plain twins in tests/reference.py."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardpuzzles.errors import BoardPuzzlesError, ParseError
from boardpuzzles.puzzles import baikago as bk
from boardpuzzles.puzzles.baikago import ai
from tests import reference

DATA = Path(__file__).parent / "data" / "baikago"


def names(rules, points):
    return {rules.grid.name(p) for p in points}


# -------------------------------------------------------------------- cross tables
@pytest.mark.parametrize(
    "rules",
    [
        bk.Rules(3),
        bk.Rules(7),
        bk.Rules(15),
        bk.Rules(9, max_d=2),
        bk.Rules(8, orientations="x"),
        bk.Rules(6, orientations="+"),
    ],
)
def test_cross_table_lists_every_cross_once_and_every_cross_through_each_point(rules):
    table = rules.table
    expected = reference.baikago_crosses(rules.size, rules.max_d, rules.orientations)
    assert sorted(map(tuple, table.cells.tolist())) == sorted(expected)
    for point in range(rules.size**2):
        listed = set(table.through[point, : table.through_count[point]].tolist())
        assert listed == {k for k, cross in enumerate(table.cells.tolist()) if point in cross}
    assert bk.cross_table(rules) is table  # computed once


def test_fifteen_has_910_crosses():
    # + crosses of distance d have (15 - 2d)^2 centres, d = 1..7; as many x crosses.
    assert len(bk.Rules().table) == 2 * sum((15 - 2 * d) ** 2 for d in range(1, 8)) == 910


def test_bad_rules_are_refused_with_a_reason():
    for kwargs in ({"size": 2}, {"size": 99}, {"max_d": 0}, {"orientations": "*"}, {"orientations": ""}):
        with pytest.raises(BoardPuzzlesError):
            bk.Rules(**kwargs)


# -------------------------------------------------------------------- the judge
def test_the_seed_position_is_won_by_white_with_the_x_cross_of_its_screenshot():
    judgement = bk.judge_text((DATA / "seed_board.txt").read_text())
    assert judgement.rules.size == 15  # 13 lines of 15 points: the seed's 15x15 board
    assert judgement.verdict == "white"
    (cross,) = judgement.crosses[bk.WHITE]
    assert (cross.orientation, cross.d) == ("x", 2)
    assert names(judgement.rules, cross.points) == {"f6", "d8", "h8", "d4", "h4"}
    assert judgement.stones == {bk.BLACK: 20, bk.WHITE: 20}


def test_both_colours_with_a_cross_is_inconsistent():
    judgement = bk.judge_text((DATA / "both_win.txt").read_text())
    assert judgement.verdict == "inconsistent"
    assert judgement.crosses[bk.BLACK] and judgement.crosses[bk.WHITE]
    assert "both colours" in judgement.problems[0]


def test_a_wide_plus_cross_and_max_d():
    text = (DATA / "black_plus.txt").read_text()
    judgement = bk.judge_text(text)
    assert judgement.verdict == "black"
    (cross,) = judgement.crosses[bk.BLACK]
    assert (cross.orientation, cross.d, judgement.rules.grid.name(cross.centre)) == ("+", 3, "d4")
    assert bk.judge_text(text, max_d=2).verdict == "none"
    assert bk.judge_text(text, orientations="x").verdict == "none"


@pytest.mark.parametrize(
    "picture,problem",
    [
        ("XX.\n...\n...", "black has as many stones as white or one more"),
        ("O..\n...\n...", "black has as many stones as white or one more"),
        (".X.\nXXX\n.X.\nOOOO\n", "black played last"),  # black's cross, but 5 black and 4 white... (ok)
    ],
)
def test_stone_counts_that_alternate_play_cannot_give(picture, problem):
    judgement = bk.judge_text(picture, size=5)
    if "played last" in problem:
        # 5 black, 4 white, black's cross: consistent. Add a white stone: white moved last.
        assert judgement.verdict == "black"
        judgement = bk.judge_text(picture + "O", size=5)
    assert judgement.verdict == "inconsistent"
    assert problem in judgement.problems[0]


def test_two_crosses_of_the_winner_without_a_common_stone_are_inconsistent():
    picture = "\n".join([".X.....X.", "XXX...XXX", ".X.....X.", "OOOOOOOOO"])
    judgement = bk.judge_text(picture, size=9)
    assert len(judgement.crosses[bk.BLACK]) == 2
    assert judgement.verdict == "inconsistent" and "share no stone" in judgement.problems[0]
    # Two crosses sharing the last stone are a normal win.
    shared = "\n".join([".X.X.", "XXXXX", ".X.X.", "OOOOO", "OOO.."])
    assert bk.judge_text(shared).verdict == "black"


def test_pictures_short_lines_padding_size_and_spaced_rows():
    n, points = bk.read_points("X\n\nO")
    assert n == 3 and points == [1, 0, 0, 0, 0, 0, 2, 0, 0]
    n, points = bk.read_points("X", size=4)
    assert n == 4 and sum(points) == 1
    n, points = bk.read_points("X . O\n. . .\nx . o\n")  # the judge's own spelling, marks included
    assert n == 3 and points == [1, 0, 2, 0, 0, 0, 1, 0, 2]
    n, points = bk.read_points("X X\n")  # no dots: the seed's plain rows, spaces are points
    assert n == 3 and points[:3] == [1, 0, 1]


@pytest.mark.parametrize(
    "text,size,message",
    [
        ("", None, "empty"),
        ("   \n  \n", None, "empty"),
        ("X#O", None, "line 1, column 2: unexpected '#'"),
        ("XO\n\tX", None, "line 2, column 1"),
        ("X\nO\nX\nO", 3, "4 lines: too many for a 3x3 board"),
        ("XOXOX", 4, "line 1: 5 points, too long"),
        ("XO", None, "too small"),
        ("X", 60, "size must be between"),
    ],
)
def test_bad_pictures_get_one_line_errors(text, size, message):
    with pytest.raises(ParseError) as err:
        bk.read_points(text, size)
    assert message in str(err.value) and "\n" not in str(err.value)


# -------------------------------------------------------------------- the game
def test_early_draw_when_every_cross_holds_both_colours():
    position = bk.Position(bk.Rules(3))  # two crosses, both centred on b2
    for name in ("b2", "b1", "a1", "c3"):
        assert not position.is_game_over()
        position.make_named(name)
    outcome = position.outcome()
    assert outcome.winner is None and outcome.reason == "no cross left"
    assert list(position.legal_moves()) == []
    position.unmake()
    assert position.outcome() is None


def test_win_is_detected_through_the_last_stone_and_illegal_moves_are_refused():
    position = bk.Position(bk.Rules(5))
    for name in ("c3", "a1", "b3", "a2", "d3", "a4", "c4", "e1"):
        position.make_named(name)
    with pytest.raises(bk.IllegalMoveError, match="already taken"):
        position.make_named("c3")
    with pytest.raises(bk.IllegalMoveError, match="off the"):
        position.make_named("f9")
    position.make_named("c2")
    outcome = position.outcome()
    assert outcome.winner == bk.BLACK and outcome.reason == "cross"
    assert names(position.rules, outcome.crosses[0].points) == {"c3", "b3", "d3", "c4", "c2"}
    with pytest.raises(bk.IllegalMoveError, match="over"):
        position.make_named("e5")


def test_position_from_board_finds_the_side_to_move_and_refuses_impossible_boards():
    n, points = bk.read_points((DATA / "seed_board.txt").read_text())
    position = bk.Position.from_board(points, bk.Rules(n))
    assert position.outcome().winner == bk.WHITE
    with pytest.raises(bk.InconsistentPositionError):
        bk.Position.from_board([1, 1] + [0] * 7, bk.Rules(3))
    position = bk.Position.from_board([1, 2, 1] + [0] * 6, bk.Rules(3))
    assert position.turn == bk.WHITE and position.copy().board == position.board


moves_strategy = st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=60)


def play_random(position, picks):
    played = []
    for pick in picks:
        legal = list(position.legal_moves())
        if not legal:
            break
        position.make(legal[pick % len(legal)])
        played.append(position.last_move)
    return played


@given(size=st.integers(5, 9), picks=moves_strategy, max_d=st.sampled_from([None, 1, 2]))
def test_make_then_unmake_restores_the_position(size, picks, max_d):
    position = bk.Position(bk.Rules(size, max_d))
    before = (list(position.board), [list(c) for c in position.counts], position.dead, position.turn)
    play_random(position, picks)
    while position.move_stack:
        position.unmake()
    assert (list(position.board), [list(c) for c in position.counts], position.dead, position.turn) == before


@given(size=st.integers(5, 9), picks=moves_strategy, orientations=st.sampled_from(["+x", "+", "x"]))
def test_incremental_win_detection_agrees_with_the_full_board_judge(size, picks, orientations):
    rules = bk.Rules(size, None, orientations)
    position = bk.Position(rules)
    for pick in picks:
        legal = list(position.legal_moves())
        if not legal:
            break
        position.make(legal[pick % len(legal)])
        judgement = bk.judge(position.board, rules)
        outcome = position.outcome()
        winner = outcome.winner if outcome and outcome.reason == "cross" else None
        assert judgement.verdict == ({bk.BLACK: "black", bk.WHITE: "white"}.get(winner, "none"))
        if winner:
            assert set(outcome.crosses) == set(judgement.crosses[winner])
        # the early draw: every cross holds both colours, by brute force
        dead = all(
            any(position.board[p] == 1 for p in x) and any(position.board[p] == 2 for p in x)
            for x in reference.baikago_crosses(size, None, orientations)
        )
        assert (outcome is not None and outcome.reason == "no cross left") == (dead and winner is None)


def test_records_round_trip_and_name_the_bad_move():
    position = bk.Position(bk.Rules(9, max_d=3))
    for name in ("e5", "d4", "f5", "a1", "g5"):
        position.make_named(name)
    record = bk.Record.of(position, Black="human", White="computer")
    text = record.to_text()
    assert '[Size "9"]' in text and '[MaxD "3"]' in text and "1. e5 d4 2. f5 a1 3. g5" in text
    again = bk.Record.parse(text)
    assert again.rules == position.rules and again.tags["White"] == "computer"
    assert again.replay().board == position.board
    with pytest.raises(ParseError, match="move 2"):
        bk.Record.parse("1. e5 e5").replay()
    with pytest.raises(ParseError, match="not a move"):
        bk.Record.parse("1. e5 zz")


# -------------------------------------------------------------------- kernels vs their twins
def random_position(size, seed, stones, max_d=None):
    """A position of random play, stopped before anyone has a cross."""
    rng = np.random.default_rng(seed)
    position = bk.Position(bk.Rules(size, max_d))
    for _ in range(stones):
        legal = list(position.legal_moves())
        move = legal[rng.integers(len(legal))]
        position.make(move)
        if position.is_game_over():
            position.unmake()
            break
    return position


def kernel_state(position):
    return ai._state(position.board, position.rules)


@pytest.mark.nojit
@pytest.mark.parametrize("seed", range(12))
def test_move_scores_evaluation_and_fours_match_the_twins(seed):
    from boardpuzzles._kernels import baikago as k

    position = random_position(7, seed, 6 + seed)
    table, crosses = position.table, [tuple(x) for x in position.table.cells.tolist()]
    board, cnt = kernel_state(position)
    for me in (bk.BLACK, bk.WHITE):
        scores = np.empty(board.shape[0], dtype=np.int64)
        k.move_scores(board, cnt, table.through, table.through_count, me, ai.ATTACK, ai.DEFEND, scores)
        assert scores.tolist() == reference.baikago_move_scores(position.board, crosses, me, ai.ATTACK, ai.DEFEND)
        assert k.evaluate(cnt, me, ai.VALUE) == reference.baikago_evaluate(position.board, crosses, me, ai.VALUE)
        out = np.empty(board.shape[0], dtype=np.int32)
        n = k.four_points(board, cnt, table.cells, me, out)
        assert set(out[:n].tolist()) == reference.baikago_fours(position.board, crosses, me)


@pytest.mark.nojit
@pytest.mark.parametrize("seed", range(16))
def test_vcf_finds_exactly_what_the_plain_search_finds(seed):
    from boardpuzzles._kernels import baikago as k

    position = random_position(7, 100 + seed, 14 + seed % 8)
    crosses = [tuple(x) for x in position.table.cells.tolist()]
    board, cnt = kernel_state(position)
    me = position.turn
    if reference.baikago_fours(position.board, crosses, 1) or reference.baikago_fours(position.board, crosses, 2):
        pytest.skip("a four on the board: VCF's precondition does not hold")
    stats = np.zeros(2, dtype=np.int64)
    move = k.vcf(ai.search_tables(position.rules), board, cnt, me, 3, 10**9, stats, np.zeros(1, dtype=np.int64))
    assert (move >= 0) == reference.baikago_vcf(list(position.board), crosses, me, 3)
    if move >= 0:  # the move really starts a win: the twin, after it and the forced reply, agrees
        board2 = list(position.board)
        board2[move] = me
        replies = reference.baikago_fours(board2, crosses, me)
        assert replies
        if len(replies) == 1:
            board2[replies.pop()] = 3 - me
            assert reference.baikago_vcf(board2, crosses, me, 2) or reference.baikago_fours(board2, crosses, me)


@pytest.mark.nojit
@pytest.mark.parametrize("seed,depth", [(s, d) for s in range(6) for d in (1, 2, 3)])
def test_alpha_beta_with_its_table_returns_the_plain_minimax_value(seed, depth):
    from boardpuzzles._kernels import baikago as k

    position = random_position(6, 200 + seed, 5 + seed)
    crosses = [tuple(x) for x in position.table.cells.tolist()]
    board, cnt = kernel_state(position)
    me, width = position.turn, 4
    player = ai.ComputerPlayer(position.rules, tt_bits=10)
    key = ai.position_key(player.zob, position.board, me)
    run = k.Run(width, 10**9, np.zeros(2, dtype=np.int64), np.zeros(1, dtype=np.int64))
    value = k.negamax(player.tables, player.tt, run, board, cnt, me, depth, key, 0)
    expected = reference.baikago_minimax(
        list(position.board), crosses, me, depth, width, ai.ATTACK, ai.DEFEND, ai.VALUE
    )
    assert value == expected
    assert board.tolist() == position.board  # the kernel put every stone back


@pytest.mark.parametrize("seed", range(4))
def test_the_table_tells_the_side_to_move_apart(seed):
    # choose(points, me) is public and the table persists: the same board with the other side to
    # move must not be answered from the first call's entries.
    position = random_position(6, 300 + seed, 6)
    player = ai.ComputerPlayer(position.rules, strength=2, seconds=1000, seed=0, tt_bits=10)
    assert ai.position_key(player.zob, position.board, bk.BLACK) != ai.position_key(
        player.zob, position.board, bk.WHITE
    )
    for me in (bk.BLACK, bk.WHITE):
        fresh = ai.ComputerPlayer(position.rules, strength=2, seconds=1000, seed=0, tt_bits=10)
        expected = fresh.choose(position.board, me)
        got = player.choose(position.board, me)
        assert (got.reason, got.value, got.depth) == (expected.reason, expected.value, expected.depth)


# -------------------------------------------------------------------- the computer player
def test_the_computer_wins_when_it_can_and_blocks_when_it_must():
    rules = bk.Rules(9)
    position = bk.Position(rules)
    for name in ("e5", "a1", "d5", "a9", "f5", "i1", "e6", "i9"):  # black: four of the + cross on e5
        position.make_named(name)
    player = ai.ComputerPlayer(rules, strength=2, seed=0)
    choice = player.choose_for(position)
    assert (rules.grid.name(choice.move), choice.reason) == ("e4", "win")
    position.make_named("b2")  # black wastes the move... and now white must block e4
    choice = player.choose_for(position)
    assert (rules.grid.name(choice.move), choice.reason) == ("e4", "block")


def test_the_computer_finds_a_win_by_continuous_fours():
    # Black has threes on the + and x crosses of e5 (d5 f5 e4; d4 f4 d6) and on the + cross of d5
    # (d5 d4 d6): no four yet, so no win at once and nothing to block, but e5 would make two fours
    # and c5 a four that forces white's reply: a win by continuous fours (VCF).
    from boardpuzzles._kernels import baikago as kernels

    rules = bk.Rules(9)
    position = bk.Position(rules)
    for black, white in zip(("d5", "f5", "e4", "d4", "f4", "d6"), ("a1", "b1", "a2", "i9", "h9", "i8"), strict=True):
        position.make_named(black)
        position.make_named(white)
    assert ai.ComputerPlayer(rules, strength=1, seed=0).choose_for(position).reason == "search"  # no VCF
    computer = ai.ComputerPlayer(rules, strength=2, seed=0)
    defender = ai.ComputerPlayer(rules, strength=2, seed=0)
    choice = computer.choose_for(position)
    assert choice.reason == "vcf" and choice.value == kernels.WIN
    for _ in range(10):  # every black move a four (or the win), every white reply a forced block
        position.make(choice.move)
        if position.is_game_over():
            break
        reply = defender.choose_for(position)
        assert reply.reason == "block"
        position.make(reply.move)
        choice = computer.choose_for(position)
        assert choice.reason in ("vcf", "win")
    assert position.outcome().winner == bk.BLACK


@pytest.mark.parametrize("colour", [bk.BLACK, bk.WHITE])
def test_the_computer_beats_the_greedy_player_on_15x15(colour):
    # (benchmarks/baikago_speed.py plays 25 games a side.) The time per move is set out of reach
    # so the node budget alone bounds the search: the game is the same however busy the machine
    # is (a 0.2 s budget lost as white on a loaded CI machine).
    rules = bk.Rules(15)
    for game in range(2):
        position = bk.Position(rules)
        computer = ai.ComputerPlayer(rules, strength=3, seconds=1000, seed=game)
        greedy = ai.GreedyPlayer(seed=game)
        while not position.is_game_over():
            player = computer if position.turn == colour else greedy
            position.make(player.choose_for(position).move)
        assert position.outcome().winner == colour


def test_a_move_may_be_a_numpy_integer_but_not_a_float_or_a_string():
    position = bk.Position(bk.Rules(9))
    position.make(np.int64(40))
    position.make(np.int32(0))
    assert position.move_stack == [40, 0] and all(type(m) is int for m in position.move_stack)
    for bad in (1.0, "3", None, 81, -1):
        with pytest.raises(bk.IllegalMoveError):
            position.make(bad)


def test_the_judge_reads_a_picture_with_a_byte_order_mark():
    assert bk.read_points("\ufeffX.O\n...\n...\n") == (3, [1, 0, 2] + [0] * 6)


def test_a_one_line_picture_too_wide_says_one_line():
    from boardpuzzles.puzzles.baikago.rules import MAX_SIZE

    with pytest.raises(ParseError, match=rf"the picture is 1 line by {MAX_SIZE + 1} points"):
        bk.read_points("X" * (MAX_SIZE + 1))
