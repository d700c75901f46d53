"""Click-to-update times of the widgets, headless: the engine move plus every model update.

Each figure is the median (and the 95th percentile) over many real clicks in seeded games, with
the charts on: what a student waits for between a click and the redrawn widget (the browser's
own drawing comes on top). Target: under 100 ms per click. Widget messages are serialised to
JSON as a kernel would (a comm that encodes every message), so their cost is in the figures;
the note gives the bytes a click sends to the browser.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import comm
from comm.base_comm import BaseComm

from benchmarks.harness import Result
from henkit.henpen import State
from henkit.henpen.endgame import cache_clear
from henkit.widgets import BarnyardGame, DiceTray, EndgameExplorer, HenpenTable

TARGET_MS = 100.0


class _JsonComm(BaseComm):
    """A comm that encodes every message to JSON, as the kernel does before sending it."""

    sent = 0  # bytes encoded so far, all comms together

    def publish_msg(self, msg_type: str, data: Any = None, metadata: Any = None,
                    buffers: Any = None, **keys: Any) -> None:
        _JsonComm.sent += len(json.dumps(data))


_bytes: dict[str, list[int]] = defaultdict(list)


def _timed(times: dict[str, list[float]], kind: str, click: Callable[[], object]) -> None:
    before = _JsonComm.sent
    t0 = time.perf_counter()
    click()
    times[kind].append(1000 * (time.perf_counter() - t0))
    _bytes[kind].append(_JsonComm.sent - before)


def _dice_tray_clicks(turns: int = 60) -> dict[str, list[float]]:
    times: dict[str, list[float]] = defaultdict(list)
    tray = DiceTray(seed=1)
    for _ in range(turns):
        _timed(times, "new turn", tray.new_turn_button.click) if tray.turn_over else None
        while not tray.turn_over:
            s = tray.state
            if s.phase == "take":
                i = max((i for i, b in enumerate(tray.dice_buttons)
                         if b.layout.display != "none" and not b.disabled),
                        key=lambda i: s.roll[tray._die_face[i] - 1])
                _timed(times, "take", tray.dice_buttons[i].click)
            elif tray.stop_buttons and (s.total >= 27 or tray.roll_button.disabled):
                _timed(times, "stop", tray.stop_buttons[0].click)
            else:
                _timed(times, "roll", tray.roll_button.click)
    return times


def _table_clicks(games: int = 2) -> dict[str, list[float]]:
    times: dict[str, list[float]] = defaultdict(list)
    for g in range(games):
        table = HenpenTable(["optimal", "greedy", "threshold:25"], seed=g)
        while not table.state.is_over:
            if table.game.waiting_for_human:
                tray, s = table.tray, table.state
                if s.phase == "take":
                    i = next(i for i, b in enumerate(tray.dice_buttons)
                             if b.layout.display != "none" and not b.disabled)
                    tray.dice_buttons[i].click()
                elif tray.stop_buttons:
                    tray.stop_buttons[0].click()
                else:
                    tray.roll_button.click()
            else:
                _timed(times, "next bot move", table.next_button.click)
    return times


def _barnyard_clicks(games: int = 3) -> dict[str, list[float]]:
    times: dict[str, list[float]] = defaultdict(list)
    for g in range(games):
        b = BarnyardGame(["greedy", "greedy"], seed=g)
        while not b.state.is_over:
            if not b.my_turn:
                b.next_button.click()
                continue
            phase = b.state.phase  # a Phase: a str enum equal to its JSON name
            if phase == "draw":
                _timed(times, "draw", b.source_buttons[0].click)
            elif phase == "place":
                hand = [x for x in b.hand_buttons if x.layout.display != "none"]
                legal: list = []
                for x in hand:
                    _timed(times, "select a card (cells re-checked)", x.click)
                    legal = [c for c, btn in b.cells.items()
                             if btn.button_style == "success" and btn in b.grid.children]
                    if legal:
                        break
                if not legal:
                    b.coop_toggle.value = True
                    legal = [c for c, btn in b.cells.items()
                             if btn.button_style == "success" and btn in b.grid.children]
                _timed(times, "place", b.cells[legal[0]].click)
            elif phase == "discard":
                [x for x in b.hand_buttons if x.layout.display != "none"][-1].click()
                _timed(times, "discard", b.discard_button.click)
            else:
                hens = [c for c, btn in b.cells.items() if btn.button_style == "warning"]
                b.cells[hens[0]].click() if hens else b.no_rooster_button.click()
    return times


# Lesson 9's positions in the explorer: the start, the chart's one-serving leads (the other
# player on 25, then on 28), and the start with a third serving (27) on the grill.
_LESSON_9 = [("21 25", "30 22", "33"),
             *(("24", mine, theirs) for theirs in ("25", "28")
               for mine in ("", "21", "26", "29", "33", "33 21", "33 26", "33 29")),
             ("21 25 27", "30 22", "33")]


def _explorer_clicks(rounds: int = 6) -> dict[str, list[float]]:
    # Half the rounds press "Work out" once the solve ahead has ended (a student who predicted
    # first, as the lesson asks), half at once after "Set up" (waiting for the solve's rest).
    times: dict[str, list[float]] = defaultdict(list)
    for r in range(rounds):
        cache_clear()  # each round solves afresh, as a new kernel would
        e = EndgameExplorer(State.new(2, grill=[23], stacks=[[24], [26]]))
        predicted = r % 2 == 0
        for grill, mine, theirs in _LESSON_9:
            e.boxes["grill"].value, e.boxes["mine"].value = grill, mine
            e.boxes["theirs"].value = theirs
            _timed(times, "set up", e.set_button.click)
            if predicted:
                e.ahead.result()
            servings = "3 servings" if grill.count(" ") == 2 else "1-2 servings"
            when = "once predicted" if predicted else "at once after set up"
            _timed(times, f"work out, {servings} on the grill, {when}", e.work_button.click)
    return times


def _results(prefix: str, times: dict[str, list[float]]) -> list[Result]:
    out = []
    for kind, ms in times.items():
        ms = sorted(ms)
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        out.append(Result(f"{prefix}: {kind} (median of {len(ms)} clicks)",
                          statistics.median(ms), "ms", TARGET_MS, higher_is_better=False,
                          note=f"95th percentile {p95:.1f} ms, worst {ms[-1]:.1f} ms; median "
                               f"{statistics.median(_bytes[kind]) / 1000:.1f} kB sent per click"))
    return out


def run() -> list[Result]:
    """Median click-to-update times of the dice tray, the Henpen table, the barnyard and the
    endgame explorer."""
    original = comm.create_comm
    comm.create_comm = _JsonComm  # every widget made from here on encodes its messages
    try:
        DiceTray(seed=0)  # imports (plotly, the solver tables) are paid once, not per click
        return _run()
    finally:
        comm.create_comm = original


def _run() -> list[Result]:
    _bytes.clear()
    return [
        *_results("dice tray", _dice_tray_clicks()),
        *_results("Henpen table", _table_clicks()),
        *_results("barnyard", _barnyard_clicks()),
        *_results("endgame explorer", _explorer_clicks()),
    ]
