"""A board no student can skew (issue 39), from the kernel side of the websocket.

The attacks are sent as the page's websocket would deliver them: the comm messages a script
sends (`_handle_msg` with a button's "click" event or an "update" of a text box), 2,000 clicks
as fast as the kernel takes them, one seed typed again 300 times, values of the wrong type. The
widgets write through the page's own recorder (`page_recorder()`, as on a dashboard) to a real
SQLite pool made beforehand (as `make serve` makes it). The limits the tests compare with are
computed from `henkit.classpool.limits` and the time the flood took, never written in.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ipywidgets as w
import numpy as np
import pytest

from henkit.classpool import (
    PERSON,
    Recorder,
    RollRecord,
    SQLiteStore,
    most_allowed,
)
from henkit.classpool.exact import first_roll_comparisons
from henkit.classpool.page import close_page_recorder
from henkit.core import CHANCE, Game
from henkit.display import DASHBOARD_ENV
from henkit.henpen import ROLL
from henkit.henpen import State as HenpenState
from henkit.hens import DECK
from henkit.widgets import Arena, BarnyardGame, DiceTray, EndgameExplorer, HenpenTable
from henkit.widgets.class_board import ClassBoard, counts_of, left_out_text, status_of
from henkit.widgets.common import Guarded

WORM = 6


# ----- what a script sends over the websocket ----------------------------------------------------


def click(button: w.Button) -> None:
    """A click as the page sends it: a custom comm message with the event "click"."""
    button._handle_msg({"content": {"data": {"method": "custom",
                                             "content": {"event": "click"}}}, "buffers": []})


def update(widget: w.Widget, **state: Any) -> None:
    """A state update as the page sends it (what typing into a box sends, or a script)."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state,
                                             "buffer_paths": []}}, "buffers": []})


def listen(widget: w.Widget) -> list[dict]:
    """The messages the kernel sends the page for `widget` from now on."""
    sent: list[dict] = []
    widget.comm.send = lambda data=None, metadata=None, buffers=None: sent.append(data)
    return sent


@pytest.fixture
def pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SQLiteStore]:
    """The server's class pool (made before the pages, as `make serve` does), named to the
    kernel by HENKIT_CLASS_DB; a class of 400 honest first rolls already in it."""
    path = tmp_path / "class.sqlite3"
    store = SQLiteStore(path)
    rng = np.random.default_rng(39)
    honest = Recorder(store)
    honest.record_many([RollRecord(8, (8 - int(k), 0, 0, 0, 0, int(k)), frozenset(), False)
                        for k in rng.binomial(8, 1 / 6, 400)])
    honest.close()
    monkeypatch.setenv("HENKIT_CLASS_DB", str(path))
    close_page_recorder()
    yield store
    close_page_recorder()
    store.close()


def first_rolls(store: SQLiteStore) -> tuple[int, float]:
    """The pooled first rolls of 8 dice and their distance to Binomial(8, 1/6)."""
    (c,) = [c for c in first_roll_comparisons(store.board()) if c.keys == tuple(range(9))]
    return c.n, float(c.distance)


def chance_steps(game: Game) -> int:
    return sum(1 for step in game.history if step.player == CHANCE)


# ----- 1. a flood of clicks ------------------------------------------------------------------


def test_2000_clicks_record_no_more_than_a_person_could(pool: SQLiteStore, dashboard) -> None:
    """2,000 click messages as fast as the kernel takes them (Roll, a die, Stop or New turn,
    whichever the tray shows): every roll the game made is either stored or counted as too fast, the
    stored ones are at most what a person could record in that time, the counts reach the
    pool, and the class's distance moves at most by the share of first rolls let through."""
    tray = DiceTray(show_chart=False, show_advice=False)
    rec = tray.pool_line.recorder
    assert rec.limits == PERSON
    n0, d0 = first_rolls(pool)
    made = 0
    start = time.monotonic()
    for _ in range(2000):
        if tray.turn_over:
            made += chance_steps(tray.game)
            click(tray.new_turn_button)
        elif tray.state.phase == "take":
            click(next(b for b in tray.dice_buttons
                       if not b.disabled and b.layout.display != "none"))
        elif tray.roll_button.disabled:  # every die set aside: the turn must stop
            click(tray.stop_buttons[0])
        else:
            click(tray.roll_button)
    elapsed = time.monotonic() - start
    made += chance_steps(tray.game)
    assert rec.flush()
    kept = sum(1 for r in pool.records() if r.page == rec.page and r.kind == "roll")
    assert kept + rec.too_fast["roll"] == made > most_allowed("roll", elapsed)
    assert kept <= most_allowed("roll", elapsed)
    turns = sum(1 for r in pool.records() if r.page == rec.page and r.kind == "turn")
    assert turns <= most_allowed("turn", elapsed)
    board = pool.board()
    assert board.left_out[("too fast", "roll")] == rec.too_fast["roll"] > 0
    n1, d1 = first_rolls(pool)
    added = n1 - n0
    assert 0 <= added <= kept
    # Adding k first rolls to n moves the total variation distance by at most k / (n + k).
    assert abs(d1 - d0) <= added / n1 + 1e-12
    assert "faster than a person can click" in left_out_text(board)


# ----- 2. one seed replayed -----------------------------------------------------------------------


def worm_seed(tries: int = 3000) -> tuple[int, int]:
    """The seed among the first `tries` whose first roll of 8 dice shows the most worms."""
    best = (0, -1)
    for seed in range(tries):
        game = Game(HenpenState.new(1), [None], seed)
        game.play(ROLL)
        game.step()
        best = max(best, (game.state.roll[WORM - 1], seed))
    return best[1], best[0]


def test_a_seed_typed_300_times_leaves_the_pooled_chances_alone(pool: SQLiteStore,
                                                                 dashboard) -> None:
    """The issue's replay: the seed whose first roll shows the most worms typed into the seed
    box 300 times (as update messages), each followed by a Roll click. Every roll shows those
    worms, none is pooled: the class's first rolls and its distance are exactly as before, and
    the board says how many were left out and why."""
    seed, worms = worm_seed()
    assert worms >= 5
    tray = DiceTray(show_chart=False, show_advice=False)
    rec = tray.pool_line.recorder
    before = first_rolls(pool), pool.board().first_rolls
    for i in range(300):
        # Spaces around differ each time (the box shows the seed back without them): a change.
        update(tray.seed_box.text, value=f" {seed}" if i % 2 == 0 else f"{seed} ")
        click(tray.roll_button)
        assert tray.state.roll[WORM - 1] == worms
    assert rec.flush()
    board = pool.board()
    assert (first_rolls(pool), board.first_rolls) == before
    left = board.left_out.get(("replayed", "roll"), 0) + board.left_out.get(("too fast", "roll"), 0)
    assert left == 300
    assert board.left_out[("replayed", "roll")] > 0
    assert all(not r.fresh for r in pool.records() if r.page == rec.page)
    shown = ClassBoard(pool, auto=False)
    try:
        assert "from typed or replayed seeds" in left_out_text(board)
        assert f"{board.summary.rolls - board.left_out[('replayed', 'roll')]:,} rolls" in \
            counts_of(shown)
    finally:
        shown.close()


def play_one_move(widget: Any) -> None:
    """One move that records something: a roll (tray, table) or a draw from the deck."""
    if isinstance(widget, DiceTray):
        click(widget.roll_button)
    elif isinstance(widget, HenpenTable):
        click(widget.tray.roll_button)
    elif not widget.my_turn:
        click(widget.play_button)  # the bots draw first (their draws are this game's too)
    else:
        assert widget.state.phase == "draw"
        widget.draw(DECK)


WIDGETS = {
    "tray": lambda **kw: DiceTray(show_chart=False, show_advice=False, **kw),
    "table": lambda **kw: HenpenTable(["greedy"], show_chart=False, show_advice=False, **kw),
    "barnyard": lambda **kw: BarnyardGame(["greedy"], show_chart=False, **kw),
}


@pytest.mark.parametrize("kind", list(WIDGETS))
def test_only_games_from_fresh_seeds_are_pooled(kind: str, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Which games count: a dashboard viewer's fresh seed and "New seed" do; a seed typed in,
    the same seed played again, a pinned lesson seed and a notebook's own seed do not (their
    records are stored, marked)."""
    store = SQLiteStore(tmp_path / "class.sqlite3")

    def marks(widget: Any, rec: Recorder) -> set[bool]:
        rec.flush()
        got = {r.fresh for r in store.records() if r.page == rec.page and r.seq >= seen[0]}
        seen[0] = rec.written
        return got

    monkeypatch.setenv(DASHBOARD_ENV, "/")
    rec = Recorder(store)
    seen = [0]
    widget = WIDGETS[kind](pool=rec)
    play_one_move(widget)
    assert marks(widget, rec) == {True}  # a viewer's own fresh seed
    fresh = widget.seed_box.seed
    update(widget.seed_box.text, value="12345")
    play_one_move(widget)
    assert marks(widget, rec) == {False}  # typed
    click(widget.seed_box.new_button)
    play_one_move(widget)
    assert marks(widget, rec) == {True}  # New seed
    update(widget.seed_box.text, value=str(fresh))
    play_one_move(widget)
    assert marks(widget, rec) == {False}  # a fresh seed played again
    pinned = WIDGETS[kind](seed=7, pin_seed=True, pool=rec)
    play_one_move(pinned)
    assert marks(pinned, rec) == {False}  # the lesson's pinned seed: the whole class's dice
    monkeypatch.delenv(DASHBOARD_ENV)
    in_notebook = WIDGETS[kind](seed=8, pool=rec)
    play_one_move(in_notebook)
    assert marks(in_notebook, rec) == {False}  # every student running the notebook gets it
    rec.close()
    store.close()


# ----- 3. what the board says -------------------------------------------------------------------


def test_the_offline_line_names_no_database(caplog: pytest.LogCaptureFixture) -> None:
    """A PostgreSQL pool that cannot be reached: the board says offline without its address
    (viewers may open it); the server's log has it."""
    caplog.set_level(logging.INFO, logger="henkit.classpool")
    url = "postgresql://postgres@127.0.0.1:9/henkit"
    board = ClassBoard(url, auto=False)
    try:
        text = status_of(board)
        assert text.startswith("class pool offline")
        for secret in ("127.0.0.1", "postgres", ":9", "henkit", "refused"):
            assert secret not in text.split("offline", 1)[1].lower(), text
        assert any("127.0.0.1" in r.getMessage() for r in caplog.records)
    finally:
        board.close()


def test_a_deleted_pool_is_said_on_the_board(tmp_path: Path) -> None:
    """The pool file deleted under the server: the board stops and says so (no path shown)."""
    path = tmp_path / "class.sqlite3"
    store = SQLiteStore(path)
    store.current_session()
    board = ClassBoard(store, auto=False)
    try:
        path.unlink()
        assert board.refresh() is False
        assert board.stopped and status_of(board).startswith("class pool stopped")
        assert str(tmp_path) not in status_of(board)
    finally:
        board.close()
        store.close()


# ----- 4. updates of the wrong type --------------------------------------------------------------


def widgets_in(root: w.Widget) -> list[w.Widget]:
    """Every widget model of a widget's tree (children, and their layouts and styles)."""
    out, todo = [], [root]
    while todo:
        x = todo.pop()
        if any(x is y for y in out):
            continue
        out.append(x)
        todo.extend(getattr(x, "children", ()))
        todo.extend(v for k in ("layout", "style") if isinstance(v := getattr(x, k, None), w.Widget))
    return out


@pytest.mark.parametrize("make", [
    lambda: DiceTray(seed=1, pool=False),
    lambda: HenpenTable(["greedy", "optimal"], seed=1, pool=False),
    lambda: BarnyardGame(["greedy"], seed=1, pool=False),
    lambda: Arena(games=2, show_chart=False),
    lambda: EndgameExplorer(HenpenState.new(2, grill=[21, 25], stacks=[[30, 22], [33]])),
], ids=["tray", "table", "barnyard", "arena", "endgame"])
def test_every_widget_model_refuses_a_bad_update_and_resends(make, notebook) -> None:
    """Every model a henkit widget puts on the page is Guarded, and one that gets an update of
    the wrong type for a trait keeps its value and sends it back to the page."""
    root = make()
    models = widgets_in(root)
    assert all(isinstance(m, Guarded) for m in models), [
        type(m).__name__ for m in models if not isinstance(m, Guarded)]
    for m in models:
        trait = next((k for k in ("value", "description", "tooltip") if k in m.keys), None)
        if trait is None or isinstance(getattr(m, trait), dict):
            continue
        held = getattr(m, trait)
        sent = listen(m)
        update(m, **{trait: {"not": "a value"}})
        assert getattr(m, trait) == held
        assert sent[-1]["method"] == "update" and trait in sent[-1]["state"], (type(m), sent)


@pytest.mark.parametrize("bad", [{"a": 1}, None, 42, ["7"], True])
def test_the_seed_box_refuses_what_a_script_sends_and_shows_the_games_seed(bad, notebook) -> None:
    """The issue's "[object Object]": a dict (or None, a number, a list) sent for the seed box's
    text is refused, the game keeps its seed and dice, and the page is sent the seed back."""
    tray = DiceTray(seed=11, pool=False, show_chart=False, show_advice=False)
    tray.roll()
    roll = tray.state.roll
    box = tray.seed_box.text
    sent = listen(box)
    update(box, value=bad)
    assert box.value == "11" and tray.seed_box.seed == 11 and tray.state.roll == roll
    assert sent[-1] == {"method": "update", "state": {"value": "11"}, "buffer_paths": []}


def test_a_good_update_still_works(notebook) -> None:
    """The guard refuses only what the traits refuse: a typed seed starts its game."""
    tray = DiceTray(seed=11, pool=False, show_chart=False, show_advice=False)
    update(tray.seed_box.text, value="42")
    assert tray.seed_box.seed == 42
    update(tray.advice_toggle, value=False)
    assert tray.advice_toggle.value is False


def test_a_students_page_names_no_database_and_says_when_the_pool_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        notebook) -> None:
    """A class pool setting that names no pool: the page says nothing is recorded without the
    setting (it may hold an address and a password), the server's log has it. A pool file
    deleted under the server: the page says its rolls are not recorded any more."""
    caplog.set_level(logging.INFO, logger="henkit.classpool")
    close_page_recorder()
    monkeypatch.setenv("HENKIT_CLASS_DB", "mysql://root:secret@10.0.0.5/class")
    try:
        tray = DiceTray(seed=2, show_chart=False, show_advice=False)
        assert "nothing is recorded" in tray.pool_line.text
        assert "secret" not in tray.pool_line.text and "10.0.0.5" not in tray.pool_line.text
        assert any("10.0.0.5" in r.getMessage() for r in caplog.records)
    finally:
        close_page_recorder()
    path = tmp_path / "class.sqlite3"
    store = SQLiteStore(path)
    rec = Recorder(store)
    tray = DiceTray(seed=2, show_chart=False, show_advice=False, pool=rec)
    click(tray.roll_button)
    assert rec.written == 1 and tray.pool_line.text == ""
    path.unlink()
    click(tray.new_turn_button if tray.turn_over else tray.dice_buttons[0])
    click(tray.roll_button)
    assert rec.stopped and "not recorded any more" in tray.pool_line.text
    assert str(tmp_path) not in tray.pool_line.text
    rec.close()
    store.close()
