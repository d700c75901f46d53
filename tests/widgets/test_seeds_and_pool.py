"""Every rolling or dealing widget shows its seed, takes a typed one, draws a new one, keeps a
pinned one on a dashboard, and writes its moves to the class pool (or says it is offline)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from henkit.classpool import Recorder, SQLiteStore
from henkit.classpool.page import close_page_recorder
from henkit.core import CHANCE, Game, make_rng
from henkit.henpen import ROLL
from henkit.henpen import State as HenpenState
from henkit.hens import DECK
from henkit.hens import State as HensState
from henkit.widgets import Arena, BarnyardGame, DiceTray, HenpenTable
from henkit.widgets.common import status_text
from henkit.widgets.seeding import DASHBOARD_SEEDS, parse_seed


def tray_roll(seed: int) -> tuple[int, ...]:
    """The first roll a fresh one-player turn gets from `seed`, played by a bare Game."""
    game = Game(HenpenState.new(1), [None], seed)
    game.play(ROLL)
    game.step()
    return game.state.roll


def first_deal(seed: int, players: int = 2) -> HensState:
    """The state a Hens game dealt from `seed` starts in, as the barnyard widget deals it."""
    return HensState.new(players, seed=make_rng(seed))


WIDGETS = {
    "tray": lambda **kw: DiceTray(show_chart=False, show_advice=False, **kw),
    "table": lambda **kw: HenpenTable(["greedy"], show_chart=False, show_advice=False, **kw),
    "barnyard": lambda **kw: BarnyardGame(["greedy"], show_chart=False, **kw),
}


# ----- seeds in a notebook --------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(WIDGETS))
def test_a_notebook_plays_the_seed_it_gives_and_shows_it(kind, notebook):
    widget = WIDGETS[kind](seed=12)
    assert widget.seed_box.seed == 12 and widget.seed_box.text.value == "12"
    assert widget.seed_box.text.description == "Seed" and widget.seed_box.text.tooltip
    assert widget.seed_box.new_button.description == "New seed"
    assert widget.seed_box.new_button.tooltip
    assert widget.seed_box.note_text == ""  # not pinned: nothing to say


def test_typing_a_seed_replays_the_dice_of_a_game_with_that_seed(notebook):
    tray = WIDGETS["tray"](seed=1)
    tray.roll()
    tray.seed_box.text.value = "42"  # what the browser sends on Enter
    assert tray.game.history == [] and tray.state.phase == "roll"
    assert "seed 42" in status_text(tray.status)
    tray.roll()
    assert tray.state.roll == tray_roll(42)
    assert tray_roll(42) != tray_roll(1)
    tray.seed_box.text.value = " 1 "  # spaces around are fine
    tray.roll()
    assert tray.state.roll == tray_roll(1) and tray.seed_box.text.value == "1"


def test_typing_a_seed_starts_a_table_game_like_a_new_table_with_that_seed(notebook):
    table = WIDGETS["table"](seed=3)
    table.tray.roll()
    table.seed_box.text.value = "8"
    other = WIDGETS["table"](seed=8)
    assert table.game.history == [] and table.log_lines == []
    for t in (table, other):
        if not t.game.waiting_for_human:
            t.play_bots()
        t.tray.roll()
    assert table.state == other.state
    assert table.tray.game is table.game  # the tray plays the table's new game


def test_typing_a_seed_deals_a_new_hens_game(notebook):
    game = WIDGETS["barnyard"](seed=2)
    game.seed_box.set_seed(9)
    start = first_deal(9)
    assert game.state == start and game.log_lines == []
    assert "A new game with seed 9" in status_text(game.status)
    assert game.state == WIDGETS["barnyard"](seed=9).state


@pytest.mark.parametrize("kind", list(WIDGETS))
def test_new_seed_starts_a_new_game_with_a_fresh_seed(kind, notebook):
    widget = WIDGETS[kind](seed=5)
    before = widget.state
    seeds = set()
    for _ in range(3):
        widget.seed_box.new_button.click()
        seed = widget.seed_box.seed
        assert seed is not None and 0 <= seed < DASHBOARD_SEEDS
        assert widget.seed_box.text.value == str(seed)
        assert f"seed {seed}" in status_text(widget.status)
        seeds.add(seed)
    assert len(seeds) > 1 and 5 not in seeds
    if kind == "barnyard":
        assert widget.state == first_deal(widget.seed_box.seed)
    else:
        assert widget.state == before  # Henpen's start needs no chance: only the dice change
        assert widget.game.history == []


@pytest.mark.parametrize("bad", ["abc", "-3", "1.5", "", "12 34", "9" * 19, "4²"])
@pytest.mark.parametrize("kind", list(WIDGETS))
def test_a_seed_that_is_not_one_is_refused_and_the_game_goes_on(kind, bad, notebook):
    widget = WIDGETS[kind](seed=4)
    if kind == "tray":
        widget.roll()
    game, state, history = widget.game, widget.state, list(widget.game.history)
    widget.seed_box.text.value = bad
    said = status_text(widget.status)
    assert said.startswith("Not allowed: a seed is a whole number 0 or more"), said
    assert "the game goes on with seed 4" in said
    assert widget.game is game and widget.state == state and widget.game.history == history
    assert widget.seed_box.text.value == "4" and widget.seed_box.seed == 4
    assert not widget.seed_box.set_seed(-1) and widget.game is game


def test_parse_seed_says_what_a_seed_is():
    assert parse_seed("007") == 7 and parse_seed(" 42\n") == 42
    assert parse_seed("４２") == 42  # full-width digits, as some keyboards type them
    for bad in ("x", "-1", "", None, 3.0, "1e3"):
        with pytest.raises(ValueError, match="a seed is a whole number"):
            parse_seed(bad)


def test_a_tray_inside_a_table_has_no_seed_box_of_its_own(notebook):
    table = WIDGETS["table"](seed=2)
    assert table.tray.seed_box is None and table.tray.pool_line is None
    assert table.seed_box in table.children


def test_a_notebooks_own_generator_is_played_and_said(notebook):
    tray = WIDGETS["tray"](seed=np.random.default_rng(3))
    assert tray.seed_box.seed is None and tray.seed_box.text.value == ""
    assert "generator" in tray.seed_box.note_text
    tray.seed_box.set_seed(3)
    tray.roll()
    assert tray.state.roll == tray_roll(3) and tray.seed_box.note_text == ""


# ----- seeds on a dashboard -------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(WIDGETS))
def test_on_a_dashboard_each_viewer_gets_a_fresh_seed(kind, dashboard):
    seeds = [WIDGETS[kind](seed=1).seed_box.seed for _ in range(3)]
    assert all(s is not None and 0 <= s < DASHBOARD_SEEDS for s in seeds)
    assert len(set(seeds)) > 1  # two viewers, two games (a repeat: one chance in a million)
    widget = WIDGETS[kind](seed=1)
    assert widget.seed_box.note_text == ""
    if kind == "tray":
        widget.roll()
        assert widget.state.roll == tray_roll(widget.seed_box.seed)


@pytest.mark.parametrize("kind", list(WIDGETS))
def test_a_pinned_seed_is_kept_on_a_dashboard_and_the_widget_says_so(kind, dashboard):
    widgets = [WIDGETS[kind](seed=7, pin_seed=True) for _ in range(2)]
    what = "cards" if kind == "barnyard" else "dice"
    for widget in widgets:
        assert widget.seed_box.seed == 7 and widget.seed_box.text.value == "7"
        assert widget.seed_box.note_text == (
            f"the lesson pinned this seed: everyone gets the same {what}")
    assert widgets[0].state == widgets[1].state
    widget = widgets[0]
    widget.seed_box.set_seed(8)  # a viewer may still play another seed...
    assert "the lesson pinned seed 7" in widget.seed_box.note_text
    widget.seed_box.set_seed(7)  # ...and get the class's back
    assert "everyone gets the same" in widget.seed_box.note_text


def test_a_pinned_seed_in_a_notebook_is_played_and_said(notebook):
    tray = WIDGETS["tray"](seed=7, pin_seed=True)
    assert tray.seed_box.seed == 7 and "pinned" in tray.seed_box.note_text


def test_the_arena_shows_types_and_draws_its_seed(notebook):
    a = Arena("henpen", ["greedy", "random"], games=2, seed=3, show_chart=False)
    assert a.seed.value == 3 and a.seed.description == "Seed"
    assert a.new_seed_button.description == "New seed" and a.new_seed_button.tooltip
    assert a.seed_note.layout.display == "none"
    a.new_seed_button.click()
    seed = a.seed.value
    assert seed != 3 and 0 <= seed < DASHBOARD_SEEDS
    assert f"New seed {seed}" in status_text(a.status)
    assert a.run() is not None and a.tournament.seed == seed
    a.seed.value = 11  # typed into the number field
    assert a.run().seed == 11


def test_the_arena_on_a_dashboard(dashboard):
    seeds = {Arena(seed=1).seed.value for _ in range(3)}
    assert len(seeds) > 1
    pinned = Arena(seed=1, pin_seed=True)
    assert pinned.seed.value == 1
    assert "the lesson pinned this seed: everyone gets the same games" in pinned.seed_note.value
    pinned.seed.value = 2
    assert "pinned seed 1" in pinned.seed_note.value
    with pytest.raises(ValueError, match="pin_seed"):
        Arena(pin_seed="yes")


def test_the_arena_records_nothing():
    assert not hasattr(Arena(), "pool_line")


# ----- the class pool -------------------------------------------------------------------------


def stored(store: SQLiteStore, recorder: Recorder) -> list:
    """The records a recorder wrote, in its order."""
    recorder.flush()
    return sorted((r for r in store.records() if r.page == recorder.page), key=lambda r: r.seq)


def test_a_trays_rolls_and_turns_reach_the_store(tmp_path: Path, notebook):
    store = SQLiteStore(tmp_path / "class.sqlite3")
    rec = Recorder(store)
    tray = DiceTray(seed=6, show_chart=False, show_advice=False, pool=rec)
    histories = []
    for _ in range(3):  # three turns: the New turn button keeps recording
        while not tray.turn_over:
            s = tray.state
            stops = [a for a in s.legal_actions() if a != ROLL and s.phase == "decide"]
            if stops and s.total >= 22:
                tray.stop(stops[0])
            elif s.phase == "take":
                tray.take(s.legal_actions()[0].face)
            else:
                tray.roll()
        histories.append(tray.game.history)
        tray.new_turn_button.click()
    records = stored(store, rec)
    rolls = sum(1 for h in histories for step in h if step.player == CHANCE)
    assert Counter(r.kind for r in records) == {"roll": rolls, "turn": 3}
    assert {r.who for r in records if r.kind == "turn"} == {"student"}
    assert tray.pool_line.text == "" and tray.pool_line.layout.display == "none"
    rec.close()
    store.close()


def test_a_tables_moves_reach_the_store_with_who_played(tmp_path: Path, notebook):
    store = SQLiteStore(tmp_path / "class.sqlite3")
    rec = Recorder(store)
    table = HenpenTable(["greedy", "threshold:25"], seed=4, show_chart=False,
                        show_advice=False, pool=rec)
    for _ in range(2):
        if table.game.waiting_for_human:
            table.tray.roll()
            while table.game.waiting_for_human and table.state.phase == "take":
                table.tray.take(table.state.legal_actions()[-1].face)
                if table.game.waiting_for_human and table.state.phase == "decide":
                    stops = [a for a in table.state.legal_actions() if a != ROLL]
                    if stops:
                        table.tray.stop(stops[0])
                    else:
                        table.tray.roll()
        table.play_bots()
    records = stored(store, rec)
    g = table.game
    assert sum(1 for r in records if r.kind == "roll") == sum(
        1 for step in g.history if step.player == CHANCE)
    assert sum(1 for r in records if r.kind == "turn") == g.state.turns_played > 0
    assert {r.who for r in records if r.kind == "turn"} <= {"student", "greedy", "threshold 25"}
    rec.close()
    store.close()


def test_a_barnyards_draws_and_final_scores_reach_the_store(tmp_path: Path, notebook):
    store = SQLiteStore(tmp_path / "class.sqlite3")
    rec = Recorder(store)
    game = BarnyardGame(["greedy"], seed=2, show_chart=False, pool=rec)
    clicks = 0
    while not game.state.is_over:  # a whole game: the student draws from the deck, places
        clicks += 1
        assert clicks < 500
        if not game.my_turn:
            game.play_bots()
            continue
        s = game.state
        legal = s.legal_actions()
        if s.phase == "draw":
            game.draw(DECK)
        else:
            game.game.play(legal[0])  # the engine's first legal placement, discard or rooster
            game.refresh()
    records = stored(store, rec)
    history = game.game.history
    deck_draws = sum(1 for step in history if step.player == CHANCE)
    kinds = Counter(r.kind for r in records)
    assert kinds["draw"] >= deck_draws > 0 and kinds["barnyard"] == 2
    assert [r.total for r in records if r.kind == "barnyard"] == list(game.state.scores())
    assert [r.who for r in records if r.kind == "barnyard"] == ["student", "greedy"]
    rec.close()
    store.close()


def test_an_offline_pool_is_said_and_the_widget_keeps_working(tmp_path: Path, notebook):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the data folder should be")
    rec = Recorder(blocker / "class.sqlite3", retry_interval=0)
    tray = DiceTray(seed=3, show_chart=False, show_advice=False, pool=rec)
    assert tray.pool_line.text == ""  # nothing written yet: nothing known to be wrong
    tray.roll()
    assert not rec.online and rec.pending >= 1
    assert tray.pool_line.text == ("class pool offline: your rolls are kept and sent when it "
                                   "is back")
    assert tray.pool_line.layout.display == ""
    tray.take(tray.state.legal_actions()[0].face)  # the tray plays on
    assert tray.state.phase == "decide" and tray.state.total > 0
    blocker.unlink()  # the pool is back: the next move sends what was kept
    tray.roll()
    assert rec.online and rec.pending == 0
    assert tray.pool_line.text == "" and tray.pool_line.layout.display == "none"
    rec.close()


def test_an_offline_pool_on_a_barnyard_says_draws(tmp_path: Path, notebook):
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    rec = Recorder(blocker / "class.sqlite3", retry_interval=0)
    game = BarnyardGame(["greedy"], seed=1, show_chart=False, pool=rec)
    if not game.my_turn:
        game.play_bots()
    game.draw(DECK)
    assert "class pool offline: your draws are kept" in game.pool_line.text
    assert len(game.hand) == 5 or game.state.phase != "draw"  # the draw happened


def test_pool_false_records_nothing_and_bad_pools_are_refused(notebook):
    tray = DiceTray(seed=1, show_chart=False, pool=False)
    assert tray.pool_line.recorder is None and tray.game.observer is None
    tray.roll()
    assert tray.pool_line.text == ""
    for bad in (True, np.bool_(True), "pool", 3, object()):
        for make in WIDGETS.values():
            with pytest.raises(ValueError, match="pool is a henkit.classpool Recorder"):
                make(seed=1, pool=bad)


def test_without_a_pool_the_widgets_share_the_pages_recorder(tmp_path, monkeypatch, notebook):
    close_page_recorder()
    monkeypatch.setenv("HENKIT_CLASS_DB", str(tmp_path / "page.sqlite3"))
    try:
        tray = WIDGETS["tray"](seed=2)
        table = WIDGETS["table"](seed=2)
        assert tray.pool_line.recorder is table.pool_line.recorder
        tray.roll()
        rec = tray.pool_line.recorder
        assert rec.flush()
        store = SQLiteStore(tmp_path / "page.sqlite3")
        assert [r.kind for r in store.records() if r.page == rec.page] == ["roll"]
        store.close()
    finally:
        close_page_recorder()


def test_a_class_pool_setting_that_names_no_pool_is_said_and_play_goes_on(monkeypatch, notebook):
    close_page_recorder()
    monkeypatch.setenv("HENKIT_CLASS_DB", "mysql://not-a-class-pool")
    try:
        tray = WIDGETS["tray"](seed=2)
        assert tray.pool_line.text.startswith("class pool not found")
        assert "nothing is recorded" in tray.pool_line.text
        tray.roll()
        assert tray.state.phase in ("take", "roll")
    finally:
        close_page_recorder()
