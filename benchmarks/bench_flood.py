"""A flood of clicks from one page (issue 39): how fast the kernel takes a script's clicks, and
what the page's recorder lets into the class pool of them.

The dice tray is clicked with the comm messages a script sends over the page's websocket (Roll,
a die, Stop or New turn, whichever it shows), back to back, as a dashboard shows it (advice and
chart) and bare. The figures: the kernel's time per click (what bounds a script: the issue's
author saw 75 rolls a second), and of 2,000 clicks through a page's recorder
(`henkit.classpool.limits.PERSON`), the rolls stored against `most_allowed` for the time taken
(target: never more).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from benchmarks.harness import Result


def _click(button: object) -> None:
    button._handle_msg({"content": {"data": {"method": "custom",  # type: ignore[attr-defined]
                                             "content": {"event": "click"}}}, "buffers": []})


def _flood(tray: object, clicks: int) -> tuple[float, int]:
    """Send `clicks` click messages; return the seconds taken and the rolls made."""
    from henkit.core import CHANCE

    made, start = 0, time.perf_counter()
    for _ in range(clicks):
        if tray.turn_over:  # type: ignore[attr-defined]
            made += sum(1 for s in tray.game.history if s.player == CHANCE)  # type: ignore[attr-defined]
            _click(tray.new_turn_button)  # type: ignore[attr-defined]
        elif tray.state.phase == "take":  # type: ignore[attr-defined]
            _click(next(b for b in tray.dice_buttons  # type: ignore[attr-defined]
                        if not b.disabled and b.layout.display != "none"))
        elif tray.roll_button.disabled:  # type: ignore[attr-defined]
            _click(tray.stop_buttons[0])  # type: ignore[attr-defined]
        else:
            _click(tray.roll_button)  # type: ignore[attr-defined]
    made += sum(1 for s in tray.game.history if s.player == CHANCE)  # type: ignore[attr-defined]
    return time.perf_counter() - start, made


def run() -> list[Result]:
    """The kernel's ms per click (dashboard tray, bare tray) and a page's recorder against a
    2,000-click flood."""
    from henkit.classpool import PERSON, Recorder, SQLiteStore, most_allowed
    from henkit.widgets import DiceTray

    out = []
    for label, kw in (("dice tray as shown", {}),
                      ("dice tray, advice and chart hidden",
                       {"show_advice": False, "show_chart": False})):
        tray = DiceTray(seed=3, pool=False, **kw)
        seconds, made = _flood(tray, 300)
        out.append(Result(f"flood: kernel time per click, {label}", 1000 * seconds / 300, "ms",
                          note=f"{made / seconds:.0f} rolls/s a script gets"))
    with tempfile.TemporaryDirectory(prefix="henkit-bench-flood-") as folder:
        store = SQLiteStore(Path(folder) / "class.sqlite3")
        rec = Recorder(store, limits=PERSON)
        tray = DiceTray(seed=4, pool=rec, show_advice=False, show_chart=False)
        seconds, made = _flood(tray, 2000)
        rec.flush()
        kept = store.board().summary.rolls
        allowed = most_allowed("roll", seconds)
        out.append(Result("flood: rolls stored of 2,000 clicks", kept, "rolls", target=allowed,
                          higher_is_better=False,
                          note=f"{made} made in {seconds:.1f} s, {rec.too_fast['roll']} counted "
                               f"too fast; most a person could: {allowed}"))
        rec.close()
        store.close()
    return out
