"""Who makes room for whom in a web server's games (:class:`GameKeeper`), on stand-in games: a new
game always gets a place; a client at its share gives up one of its own; finished or left games
go first, then the least recently used; a store that cannot take the change changes nothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardpuzzles.web.keeper import GameKeeper
from boardpuzzles.web.store import GameStore, Statement, StoreFailed

TABLE = "CREATE TABLE IF NOT EXISTS kept (id TEXT PRIMARY KEY, client TEXT)"


@dataclass
class Game:
    id: str
    client: str = "a"
    can_go: bool = False
    save: Any = field(default=None, repr=False)

    def row(self) -> Statement:
        return "INSERT OR REPLACE INTO kept VALUES (?, ?)", (self.id, self.client)


def keeper(max_games: int, per_client: int | None = None) -> GameKeeper[Game]:
    store = GameStore()
    store.ensure(TABLE)
    return GameKeeper(store, "kept", max_games, per_client)


def stored(keeper: GameKeeper[Game]) -> set[str]:
    return {row[0] for row in keeper.store.rows("SELECT id FROM kept")}


def test_a_client_at_its_share_gives_up_its_own_left_game_then_its_least_recently_used() -> None:
    kept = keeper(10, per_client=3)
    games = [Game(f"a{i}") for i in range(3)] + [Game("b0", "b")]
    for game in games:
        kept.add(game)
    games[1].can_go = True
    kept.add(Game("a3"))
    assert [g.id for g in kept] == ["a0", "a2", "b0", "a3"] and stored(kept) == {"a0", "a2", "b0", "a3"}
    kept.get("a0")  # used again
    kept.add(Game("a4"))
    assert [g.id for g in kept] == ["b0", "a3", "a0", "a4"]  # a2 went, b0 (older, another client's) stayed


def test_a_full_keeper_takes_a_finished_game_first_then_the_least_recently_used() -> None:
    kept = keeper(3, per_client=3)
    for name, client in (("a", "x"), ("b", "y"), ("c", "z")):
        kept.add(Game(name, client))
    kept.get("a")
    kept.add(Game("d", "w"))
    assert [g.id for g in kept] == ["c", "a", "d"]
    kept.get("c")
    next(g for g in kept if g.id == "c").can_go = True
    kept.add(Game("e", "v"))
    assert [g.id for g in kept] == ["a", "d", "e"] and stored(kept) == {"a", "d", "e"}


def test_the_share_is_a_quarter_of_the_games_and_at_least_one() -> None:
    assert keeper(1000).per_client == 250 and keeper(3).per_client == 1


def test_a_store_that_cannot_take_a_new_game_changes_nothing() -> None:
    kept = keeper(1)
    kept.add(Game("a"))
    kept.store.db.execute("PRAGMA query_only = ON")
    with pytest.raises(StoreFailed, match="read-only"):
        kept.add(Game("b"))
    assert [g.id for g in kept] == ["a"] and kept.get("b") is None


def test_a_game_that_made_room_is_not_written_back() -> None:
    kept = keeper(1)
    first = Game("a")
    kept.add(first)
    kept.add(Game("b"))
    first.save(first.row())  # a request that still held it
    assert stored(kept) == {"b"}


@given(st.lists(st.tuples(st.sampled_from("abc"), st.booleans(), st.integers(0, 9)), max_size=60))
def test_every_new_game_is_kept_within_the_bounds(steps: list[tuple[str, bool, int]]) -> None:
    kept = keeper(6, per_client=3)
    for number, (client, finished, reread) in enumerate(steps):
        game = Game(str(number), client, finished)
        kept.add(game)
        kept.get(str(reread))
        assert kept.get(game.id) is game and len(kept) <= 6
        assert all(sum(g.client == c for g in kept) <= 3 for c in "abc")
        assert stored(kept) == {g.id for g in kept}
