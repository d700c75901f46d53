"""A board no student can skew, through a page's real websocket: a script that floods a dice
tray's buttons with comm messages, and one that types the same seed again and again, leave the
class pool's pooled chances within what a person could do (henkit/classpool/limits.py).

The messages are the ones the page's own widget manager sends for a click or a typed value,
sent from the page as fast as it can send them.
"""

from __future__ import annotations

import json
import time

import pytest

from henkit.classpool import open_store
from henkit.classpool.exact import first_roll_comparisons
from henkit.classpool.limits import most_allowed

from .browsing import VoilaServer, free_port, open_dashboard_page, wait_for_widgets

pytestmark = pytest.mark.browser

TRAY = "tray.ipynb"

# Finds the models of the page's widgets by what they show, and sends each `times` times the
# message a click (or a value typed in a text box) sends.
SEND = """async ([plan, times]) => {
  const manager = window.jupyterapp.widgetManager;
  const state = (await manager.get_state()).state;
  const find = (name, key, value) => Object.keys(state).find(
      id => state[id].model_name === name && state[id].state[key] === value);
  const models = [];
  for (const [name, key, value] of plan) {
    const id = find(name, key, value);
    if (!id) throw new Error("no " + name + " with " + key + " " + value);
    models.push(await manager.get_model(id));
  }
  for (let i = 0; i < times; i++) {
    plan.forEach(([name, , , typed], j) => {
      if (name === "TextModel") {
        // As a script sends it: the widget manager itself would merge updates sent faster
        // than the kernel answers into one.
        models[j].comm.send({method: "update", state: {value: typed}, buffer_paths: []});
      } else {
        models[j].send({event: "click"}, {});
      }
    });
  }
  return models.length;
}"""


def tray_notebook(folder) -> None:
    """A page with one dice tray and nothing else, so that its buttons are the only ones."""
    cell = {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
            "source": "from henkit.widgets import DiceTray\nDiceTray()"}
    nb = {"cells": [cell], "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                      "language": "python"}}}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / TRAY).write_text(json.dumps(nb))


@pytest.fixture(scope="module")
def tray_server(tmp_path_factory):
    """The tray served with a class pool of its own (DATA), as make serve serves it."""
    root = tmp_path_factory.mktemp("board-integrity")
    tray_notebook(root / "site")
    server = VoilaServer(port=free_port(), site=root / "site", data=root / "data").start()
    try:
        server.wait_for_pools([TRAY])
        yield server, root / "data" / "class.sqlite3"
    finally:
        server.stop()


def pool_now(path) -> tuple[int, int, int, int]:
    """(first rolls pooled, rolls stored, rolls left out as replayed, records dropped too fast)."""
    store = open_store(str(path))
    try:
        board = store.board()
        firsts = sum(c.n for c in first_roll_comparisons(board))
        s = board.summary
        return firsts, s.rolls, s.replayed, s.too_fast
    finally:
        store.close()


def settled(path, seconds: float = 3.0, timeout: float = 180.0) -> tuple[int, int, int, int]:
    """The pool once its counts have stood still for `seconds` (the kernel has worked through
    every message and its recorder has written)."""
    last, since, deadline = pool_now(path), time.monotonic(), time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = pool_now(path)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= seconds:
            return now
    raise AssertionError(f"the pool was still moving after {timeout} s: {last}")


def test_a_flood_of_new_games_is_held_to_a_persons_pace(tray_server, page):
    server, pool = tray_server
    open_dashboard_page(page, server, TRAY)
    wait_for_widgets(page)
    before = settled(pool)
    started = time.monotonic()
    # New seed then Roll, 400 times: 400 fresh first rolls if nothing held them back.
    plan = [["ButtonModel", "description", "New seed"],
            ["ButtonModel", "description", "Roll the dice"]]
    assert page.evaluate(SEND, [plan, 400]) == 2
    after = settled(pool)
    elapsed = time.monotonic() - started
    stored = after[1] - before[1]
    assert 0 < stored <= most_allowed("roll", elapsed), (stored, elapsed)
    assert after[3] > before[3]  # the rest were dropped, and counted
    assert stored + (after[3] - before[3]) >= 300  # made by the flood, not lost on the way


def test_a_seed_typed_again_and_again_is_left_out_of_the_pooled_chances(tray_server, page):
    server, pool = tray_server
    open_dashboard_page(page, server, TRAY)
    wait_for_widgets(page)
    before = settled(pool)
    # The same seed typed 300 times, each time followed by a roll: 300 times the same first
    # roll. (The box shows a seed as "7001" once it has read it, so "07001" is a change each
    # time.)
    plan = [["TextModel", "description", "Seed", "07001"],
            ["ButtonModel", "description", "Roll the dice"]]
    assert page.evaluate(SEND, [plan, 300]) == 2
    after = settled(pool)
    assert after[0] == before[0]  # the pooled first rolls did not move
    stored, dropped = after[1] - before[1], after[3] - before[3]
    assert stored == after[2] - before[2]  # every replayed roll stored is marked, left out
    assert stored + dropped >= 250  # the replays were made, and stored or counted
