"""What makes a widget a student's own: its seed box, and its line about the class pool.

Seeds. A widget that rolls or deals is given the notebook's `seed`. Run as a notebook
(JupyterLab, nbval) it plays that seed, so the lesson is the same every time it runs. On a
dashboard (`henkit.display.on_dashboard()`) every viewer starts from a fresh random seed of their
own (short, so it can be read out and typed again), unless the lesson pins the seed
(`pin_seed=True`), and then the widget says so. Either way the widget shows its seed, takes a
typed one (the same seed replays the same dice or cards) and draws a new one on "New seed".

Fresh seeds. Only a game from a fresh random seed is a new random experiment: a seed typed
in, played again, or pinned by the lesson (or the notebook's own seed, the same for every student
who runs it) replays dice or cards already seen. The page keeps which seeds it drew
(`fresh_seed`) and which it played (`claim_seed`); a widget's `PoolLine` marks the records of a
game that is not fresh (`Record.fresh` False), and the class pool leaves them out of the pooled
chances (the class board says how many).

The class pool. A widget writes its moves to the page's recorder
(`henkit.classpool.page_recorder()`) unless it is given another (`pool=`) or none
(`pool=False`). Writing happens on the recorder's own thread, so a click never waits for the
store; when the store cannot be reached the widget says so in one line, and the recorder keeps
the records and sends them when the store is back.
"""

from __future__ import annotations

import logging
import re
import secrets
import threading
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w
import numpy as np

from henkit.checks import whole
from henkit.classpool import page_recorder, pool_observer
from henkit.core import Observer
from henkit.display import on_dashboard
from henkit.widgets.common import (
    Guarded,
    build,
    button,
    esc,
    flag,
    html,
    set_shown,
    shared_layout,
    shared_style,
)

LOG = logging.getLogger("henkit.classpool")
DASHBOARD_SEEDS = 1_000_000
"""A dashboard viewer's fresh seed is below this: at most six digits, easy to read and type."""
MAX_TYPED_DIGITS = 18
"""The longest seed the seed box takes, in digits."""
SEED_TIP = ("Type a whole number and press Enter to start a new game with it: the same seed "
            "always gives the same {what}")
NEW_SEED_TIP = "Start a new game with a fresh random seed"
PINNED = "the lesson pinned this seed: everyone gets the same {what}"
OFFLINE = "class pool offline: your {what} are kept and sent when it is back"
STOPPED = ("class pool stopped (its file was removed on the server): your {what} are not "
           "recorded any more")
NO_POOL = "class pool not found (the server names none it can use): nothing is recorded"
"""What a viewer reads when the server's class pool setting is wrong; why goes to the server's
log only (the setting may hold a database's address)."""


_seeds_lock = threading.Lock()
_drawn: set[int] = set()
"""Fresh seeds drawn on this page (kernel) and not played yet."""
_played: set[int] = set()
"""Seeds played on this page (kernel)."""


def fresh_seed() -> int:
    """A fresh random seed for a dashboard viewer: a whole number below DASHBOARD_SEEDS, never
    drawn or played on this page before (`claim_seed` then finds it fresh)."""
    with _seeds_lock:
        seed = secrets.randbelow(DASHBOARD_SEEDS)
        while seed in _drawn or seed in _played:  # pragma: no cover - rare
            seed = secrets.randbelow(DASHBOARD_SEEDS)
        _drawn.add(seed)
        return seed


def claim_seed(seed: object) -> bool:
    """Note that this page plays `seed`; True if it is a fresh random one (drawn by `fresh_seed`
    and not played before), False for any other: typed, played again, pinned, the notebook's own
    or a numpy Generator."""
    if not isinstance(seed, int | np.integer) or isinstance(seed, bool | np.bool_):
        return False
    seed = int(seed)
    with _seeds_lock:
        fresh = seed in _drawn and seed not in _played
        _drawn.discard(seed)
        _played.add(seed)
        return fresh


def start_seed(seed: object, pin_seed: object = False) -> int | np.random.Generator:
    """The seed a widget starts from: the notebook's `seed` in a notebook (or when pinned), a
    fresh random one on a dashboard or when `seed` is None; a numpy Generator is used as given.

    ValueError for a seed that is not None, a whole number 0 or more, or a Generator, and for a
    `pin_seed` that is not True or False.
    """
    pinned = flag(pin_seed, "pin_seed")
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None:
        seed = whole(seed, "seed (None, a whole number 0 or more, or a numpy Generator)", 0)
    if seed is None or (on_dashboard() and not pinned):
        return fresh_seed()
    return seed


def parse_seed(text: object) -> int:
    """A seed typed into a seed box: a whole number 0 or more (spaces around are ignored, and
    any script's digits read as numbers do); ValueError saying what a seed is otherwise."""
    raw = text.strip() if isinstance(text, str) else text
    if isinstance(raw, str) and re.fullmatch(rf"\d{{1,{MAX_TYPED_DIGITS}}}", raw):
        return int(raw)
    shown = repr(text) if len(repr(text)) <= 40 else repr(text)[:37] + "..."
    raise ValueError(f"a seed is a whole number 0 or more (at most {MAX_TYPED_DIGITS} digits), "
                     f"e.g. 42, not {shown}")


class SeedBox(Guarded, w.Box):
    """The seed a game plays, a box to type another, and a "New seed" button.

    A plain Box laid out as a row (not an HBox): pages and tests that find a widget's rows of
    buttons by their HBox class find the same rows as before the seed box came.

    `restart(seed)` starts the widget's game again with `seed` and returns what to say;
    `report(text, error)` says it on the widget's status line. A seed that is not one is
    refused in words and the game goes on unchanged. `pool_line`: the widget's PoolLine, told
    each seed before its game starts (`PoolLine.play`), so that the records of a typed or
    replayed seed are marked.
    """

    def __init__(self, seed: int | np.random.Generator, *, pinned: bool,
                 restart: Callable[[int], str], report: Callable[[str, bool], None],
                 what: str = "dice", pool_line: PoolLine | None = None) -> None:
        if not callable(restart) or not callable(report):
            raise ValueError("a SeedBox needs restart(seed) and report(text, error) functions")
        if pool_line is not None and not isinstance(pool_line, PoolLine):
            raise ValueError(f"pool_line is the widget's PoolLine or None, not {pool_line!r}"[:300])
        self.restart, self.report, self.what = restart, report, str(what)
        self.pool_line = pool_line
        self.pinned_seed = seed if pinned and not isinstance(seed, np.random.Generator) else None
        self.seed: int | None = None if isinstance(seed, np.random.Generator) else int(seed)
        self._setting = False
        self.text = build(
            w.Text, value="" if self.seed is None else str(self.seed), description="Seed",
            placeholder="e.g. 42", continuous_update=False,
            tooltip=SEED_TIP.format(what=self.what), layout={"width": "16em"},
        )
        self.new_button = button("New seed", NEW_SEED_TIP, self.new_seed)
        self.note = html(margin="0 0 0 1em", display="none")  # _show_note shows a note
        self.text.observe(self._typed, names="value")
        super().__init__([self.text, self.new_button, self.note],
                         layout=shared_layout(display="flex", flex_flow="row wrap",
                                              align_items="center"))
        self._show_note()

    def _typed(self, change: dict[str, Any]) -> None:
        if not self._setting:
            self.set_seed(change["new"])

    def set_seed(self, seed: object) -> bool:
        """Start again with `seed` (a whole number, or its text as typed); True if it did.

        A seed that is not one is refused on the status line and nothing changes."""
        was_fresh = None if self.pool_line is None else self.pool_line.fresh
        try:
            value = seed if isinstance(seed, int | np.integer) and not isinstance(
                seed, bool | np.bool_) and seed >= 0 else parse_seed(seed)
            if self.pool_line is not None:
                self.pool_line.play(int(value))  # before the game starts: its bots may move
            text = self.restart(int(value))
        except ValueError as e:
            if self.pool_line is not None and was_fresh is not None:
                self.pool_line.fresh = was_fresh
            self._show(self.seed)
            now = "" if self.seed is None else f" (the game goes on with seed {self.seed})"
            self.report(f"{e}{now}", True)
            return False
        self.seed = int(value)
        self._show(self.seed)
        self._show_note()
        self.report(text, False)
        return True

    def new_seed(self) -> None:
        """Start again with a fresh random seed (the "New seed" button)."""
        seed = fresh_seed()
        while seed == self.seed:  # pragma: no cover - one chance in a million
            seed = fresh_seed()
        self.set_seed(seed)

    def _show(self, seed: int | None) -> None:
        self._setting = True
        try:
            self.text.value = "" if seed is None else str(seed)
        finally:
            self._setting = False

    def _show_note(self) -> None:
        if self.seed is None:
            text = "this game plays the notebook's own random generator"
        elif self.pinned_seed is None:
            text = ""
        elif self.seed == self.pinned_seed:
            text = PINNED.format(what=self.what)
        else:
            text = (f"the lesson pinned seed {self.pinned_seed}: type it to get the class's "
                    f"{self.what} back")
        self.note.value = f"<i>{esc(text)}</i>" if text else ""
        set_shown(self.note, bool(text))

    @property
    def note_text(self) -> str:
        """The note beside the seed (pinned, or the notebook's generator), as plain text."""
        return re.sub(r"<[^>]+>", "", self.note.value)


def check_pool(pool: object) -> Any:
    """A widget's `pool`: None (the page's recorder), False (record nothing) or a Recorder
    (anything with `record_many` and `online`); ValueError otherwise."""
    if pool is None:
        return None
    if isinstance(pool, bool | np.bool_):
        if pool:
            raise ValueError("pool is a henkit.classpool Recorder, None (the page's own) or "
                             "False (record nothing), not True")
        return False
    if not callable(getattr(pool, "record_many", None)) or not hasattr(pool, "online"):
        raise ValueError(f"pool is a henkit.classpool Recorder, None (the page's own) or False "
                         f"(record nothing), not {pool!r}"[:300])
    return pool


class PoolLine(Guarded, w.HTML):
    """One line under a game: empty while the class pool takes the records, else why not.

    `fresh`: whether the game now played comes from a fresh random seed (`play(seed)` says);
    records of a game that is not fresh are marked and left out of the pooled chances. False
    until `play` is first called: a game whose seed nobody told is not counted as fresh.
    """

    def __init__(self, pool: object = None, what: str = "rolls") -> None:
        pool = check_pool(pool)
        self.what = str(what)
        self.fresh = False
        self.problem: str | None = None
        self.recorder: Any = None
        if pool is None:
            try:
                self.recorder = page_recorder()
            except ValueError as e:  # HENKIT_CLASS_DB names no class pool: say so, play on
                LOG.error("this page records nothing: %s", e)
                self.problem = NO_POOL
        elif pool is not False:
            self.recorder = pool
        super().__init__(value="", layout=shared_layout(display="none"),
                         style=shared_style(w.HTML))
        self.refresh()

    def play(self, seed: object) -> bool:
        """A game starts from `seed`: note whether it is fresh (`claim_seed`); return that."""
        self.fresh = claim_seed(seed)
        return self.fresh

    def observer(self, who: str | Sequence[str | None]) -> Observer | None:
        """The observer that records a game's moves (None when nothing is recorded), marking
        them when the game's seed is not fresh."""
        if self.recorder is None:
            return None
        return pool_observer(self.recorder, who, fresh=lambda: self.fresh)

    @property
    def text(self) -> str:
        """What the line says now ('' when all is well)."""
        if self.problem:
            return self.problem
        if self.recorder is not None and getattr(self.recorder, "stopped", None):
            return STOPPED.format(what=self.what)
        if self.recorder is not None and not getattr(self.recorder, "online", True):
            return OFFLINE.format(what=self.what)
        return ""

    def refresh(self) -> None:
        """Say whether the class pool takes the records (asked at every redraw of the game)."""
        text = self.text
        value = f"<div role='note'><small>{esc(text)}</small></div>" if text else ""
        if self.value != value:
            self.value = value
            set_shown(self, bool(text))
