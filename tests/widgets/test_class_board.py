"""The class board widget: counts and charts from an SQLite class pool, refreshing by itself."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from henkit.classpool import (
    DrawRecord,
    RollRecord,
    SQLiteStore,
    StoreError,
    TurnRecord,
    new_page_id,
)
from henkit.display import PLOTLY_MIME
from henkit.widgets.class_board import ClassBoard, counts_of, status_of


class CountingStore(SQLiteStore):
    """An SQLite store that counts what the board asks of it, and can be switched off."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.calls: list[str] = []
        self.down = False

    def board(self, session=None):
        self.calls.append("board")
        if self.down:
            raise StoreError("the class pool at test cannot be used: switched off")
        return super().board(session)

    def records(self, session=None):
        self.calls.append("records")
        return super().records(session)

    def aggregate(self, name, session=None):
        self.calls.append("aggregate")
        return super().aggregate(name, session)


@pytest.fixture
def store(tmp_path: Path) -> CountingStore:
    s = CountingStore(str(tmp_path / "class.sqlite3"))
    yield s
    s.close()


def first_roll(worms: int) -> RollRecord:
    return RollRecord(8, (8 - worms, 0, 0, 0, 0, worms), frozenset(), False)


def write(store: SQLiteStore, page: str, records: list) -> None:
    store.add_many([r.stamped(page=page, seq=i) for i, r in enumerate(records)])


def figure_of(out) -> dict:
    (entry,) = out.outputs
    return entry["data"][PLOTLY_MIME]


def test_counts_and_charts_follow_the_pool(store: CountingStore) -> None:
    board = ClassBoard(store, auto=False)
    try:
        assert counts_of(board).startswith("0 student pages · 0 rolls · 0 turns")
        assert status_of(board).startswith("class pool online")
        a, b = new_page_id(), new_page_id()
        write(store, a, [first_roll(1), first_roll(0),
                         RollRecord(2, (1, 1, 0, 0, 0, 0), frozenset({1, 2, 6}), True),
                         TurnRecord("student", 12, "bust")])
        write(store, b, [first_roll(2), DrawRecord("deck", "Pa3", 2), DrawRecord(1, "Mo2", 2)])
        assert board.refresh() is True
        assert counts_of(board) == ("2 student pages · 4 rolls · 1 turn · 2 card draws · "
                                    "0 barnyards")
        first = figure_of(board.first_out)
        assert first["data"][0]["customdata"][:3] == [1, 1, 1]
        busts = figure_of(board.bust_out)
        assert busts["data"][0]["x"] == ["0 taken, 8 dice", "3 taken, 2 dice"]
        draws = figure_of(board.draw_out)
        assert sum(draws["data"][0]["customdata"]) == 1  # the pile draw is not a chance draw
        assert board.history == [(3, pytest.approx(board.history[0][1]))]
        # Nothing new (once the students' law, worked out in a thread, is drawn): no redraw.
        board.wait_for_laws()
        board.refresh()
        redraws = board.redraws
        assert board.refresh() is False and board.redraws == redraws
    finally:
        board.close()


def test_deck_draws_are_compared_with_the_deck_of_their_own_game(store: CountingStore) -> None:
    """Lesson 6 plays 3-player Hens, lesson 5 2-player: the board pools both, each draw against
    its own game's deck (the 2-player deck has no Se or Ba half the time)."""
    write(store, new_page_id(), [DrawRecord("deck", "Se2", 3), DrawRecord("deck", "Pa3", 2)])
    board, only_two = ClassBoard(store, auto=False), ClassBoard(store, auto=False, hens_players=2)
    try:
        board.refresh()
        only_two.refresh()
        title = figure_of(board.draw_out)["layout"]["title"]["text"]
        assert "2 and 3-player games" in title
        assert sum(figure_of(board.draw_out)["data"][0]["customdata"]) == 2
        assert "2-player games" in figure_of(only_two.draw_out)["layout"]["title"]["text"]
        assert sum(figure_of(only_two.draw_out)["data"][0]["customdata"]) == 1
    finally:
        board.close()
        only_two.close()


def test_one_board_query_per_refresh_and_never_a_record(store: CountingStore) -> None:
    board = ClassBoard(store, auto=False)
    try:
        write(store, new_page_id(), [first_roll(3)])
        store.calls.clear()
        for _ in range(3):
            board.refresh()
        assert store.calls == ["board"] * 3
    finally:
        board.close()


def test_the_board_shows_counts_never_records(store: CountingStore) -> None:
    page = new_page_id()
    write(store, page, [first_roll(1), TurnRecord("student", 25, serving=25),
                        DrawRecord("deck", "Ce6", 2)])
    board = ClassBoard(store, auto=False)
    try:
        shown = json.dumps([board.header.value, board.counts.value, board.status.value,
                            *[list(o.outputs) for o in (board.first_out, board.distance_out,
                                                        board.bust_out, board.draw_out,
                                                        *board.ending_outs)]])
        assert page not in shown
        assert store.location not in shown  # nor where the pool is
        assert store.current_session() in shown  # the session is named, pages are not
    finally:
        board.close()


def test_offline_store_is_said_and_retried(store: CountingStore) -> None:
    write(store, new_page_id(), [first_roll(1)])
    board = ClassBoard(store, auto=False)
    try:
        store.down = True
        assert board.refresh() is False
        assert board.online is False
        assert status_of(board).startswith("class pool offline")
        assert "1 roll" in counts_of(board)  # what was shown stays
        store.down = False
        write(store, new_page_id(), [first_roll(2)])
        assert board.refresh() is True
        assert board.online is True and status_of(board).startswith("class pool online")
        assert "2 rolls" in counts_of(board)
    finally:
        board.close()


def test_an_unreachable_file_is_offline_not_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the pool's folder should be")
    board = ClassBoard(str(blocker / "class.sqlite3"), auto=False)
    try:
        assert board.online is False
        assert status_of(board).startswith("class pool offline")
    finally:
        board.close()


def test_it_refreshes_by_itself_and_stops_when_closed(store: CountingStore) -> None:
    board = ClassBoard(store, interval=2.0)
    try:
        assert board.running
        write(store, new_page_id(), [first_roll(1), first_roll(4)])
        deadline = time.monotonic() + 60  # a generous wait for the thread, not a speed check
        while "2 rolls" not in counts_of(board) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "2 rolls" in counts_of(board)
    finally:
        board.close()
    assert not board.running


def test_bot_turns_get_their_exact_law(store: CountingStore) -> None:
    write(store, new_page_id(), [TurnRecord("greedy", 26, serving=26),
                                 TurnRecord("greedy", 9, "bust")])
    board = ClassBoard(store, auto=False)
    try:
        board.wait_for_laws()
        board.refresh()  # redraws if the law arrived after the first drawing
        assert board.refresh() is False  # and only once
        fig = figure_of(board.ending_outs[0])
        assert [t["type"] for t in fig["data"]] == ["bar", "scatter"]
        assert "Greedy's turns" in fig["layout"]["title"]["text"]
        assert "being worked out" not in fig["layout"]["title"]["text"]
        assert board.ending_outs[1].outputs == ()
    finally:
        board.close()


@pytest.mark.parametrize("kwargs", [
    {"interval": 1}, {"interval": "2"}, {"interval": float("nan")}, {"interval": True},
    {"session": "today"}, {"store": 3}, {"store": ""}, {"hens_players": 5}, {"auto": "yes"},
    {"store": "mysql://class"},
])
def test_bad_input_is_a_value_error(kwargs: dict, store: CountingStore) -> None:
    with pytest.raises(ValueError):
        ClassBoard(**{"store": store, "auto": False, **kwargs})


def test_a_law_still_being_worked_out_is_said_then_drawn(store: CountingStore,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from henkit.widgets import class_board

    go_on = threading.Event()
    real = class_board.turn_end_law

    def slow_law(who, rules=None):  # a walk that takes as long as the test says
        go_on.wait(timeout=60)
        return real(who, rules)

    monkeypatch.setattr(class_board, "turn_end_law", slow_law)
    write(store, new_page_id(), [TurnRecord("optimal", 30, serving=30)])
    board = ClassBoard(store, auto=False)
    try:
        fig = figure_of(board.ending_outs[0])
        assert "being worked out" in fig["layout"]["title"]["text"]
        assert [t["type"] for t in fig["data"]] == ["bar"]  # counts only, meanwhile
        go_on.set()
        board.wait_for_laws()
        assert board.refresh() is True  # nothing new in the pool, but the law arrived
        fig = figure_of(board.ending_outs[0])
        assert "being worked out" not in fig["layout"]["title"]["text"]
        assert [t["type"] for t in fig["data"]] == ["bar", "scatter"]
    finally:
        go_on.set()
        board.close()


def test_a_new_board_stops_the_old_ones_refresher(store: CountingStore) -> None:
    # Re-running a notebook cell makes a new board; the old one (kept alive) stops querying.
    old = ClassBoard(store, interval=2.0)
    new = ClassBoard(store, interval=2.0)
    try:
        assert new.running and not old.running
        assert status_of(old).startswith("stopped: a newer class board")
    finally:
        new.close()
        old.close()
