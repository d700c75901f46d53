"""The class board: the teacher's projected page, the class's pooled results beside the exact laws.

`ClassBoard()` reads the class pool (HENKIT_CLASS_DB, the server's data folder) and shows how many
students (pages) and rolls the current class session holds, and the charts of
`henkit.charts.classboard`: first-roll worms vs Binomial(8, 1/6) and the distance to it shrinking
like 1/sqrt(n), busts vs (k/6)^n, turn endings vs each player's exact end distribution, Hens deck
draws by breed vs the deck.

It refreshes by itself, no click: a daemon thread calls `store.board()` (one indexed query) at
most every `interval` seconds and redraws only when the board changed. A thread rather than an
asyncio task on the kernel's loop: the query (and a bot's exact law, seconds the first time)
never holds up the kernel, and it works the same in JupyterLab, Voilà and a plain Python test.
Closing the widget stops the thread. A store that cannot be reached shows "class pool offline"
and the board keeps trying; why it cannot be reached (which names the server's database address
or file) goes to the server's log only, never to the viewers. A pool file deleted or replaced
under the server stops the board (and the pages' writers) and says so. The board reads
aggregates only (counts), never a record.

Only games from fresh random seeds are pooled: the board says how many records it leaves out
and why (typed or replayed seeds; clicks faster than a person's, `henkit.classpool.limits`).
"""

from __future__ import annotations

import html
import logging
import math
import threading
from datetime import UTC, datetime
from pathlib import Path

import ipywidgets as w

from henkit.charts.classboard import (
    bust_alt,
    bust_chart,
    comparison_alt,
    comparison_chart,
    distance_alt,
    distance_chart,
)
from henkit.classpool.base import Board, ClassStore, StoreError, StoreReplaced
from henkit.classpool.exact import (
    DistanceBand,
    bot_spec,
    bust_cells,
    distance_band,
    draw_comparison,
    ending_comparisons,
    first_roll_comparisons,
    first_roll_law,
    turn_end_law,
)
from henkit.classpool.page import server_log
from henkit.classpool.records import KINDS, check_session
from henkit.classpool.stores import open_store
from henkit.hens.rules import check_players
from henkit.widgets.common import (
    Guarded,
    build,
    button,
    hbox,
    keep_alive,
    shared_layout,
    show_figure,
    show_text,
)

LOG = logging.getLogger("henkit.classpool")
OFFLINE = ("class pool offline: it cannot be reached just now (the server's log says why). The "
           "board tries again every {interval:g} s.")
STOPPED = ("class pool stopped: its file was deleted or replaced while the server was running, "
           "so nothing more is recorded. Restart the server to go on (its log says where what "
           "was recorded is kept).")
KIND_WORDS = {"roll": ("roll", "rolls"), "turn": ("turn", "turns"),
              "draw": ("card draw", "card draws"), "barnyard": ("barnyard", "barnyards")}

MIN_INTERVAL = 2.0
"""The shortest time between two refreshes (seconds): one board query per 2 s at most."""
MAX_INTERVAL = 3600.0
FIRST_DICE = 8
"""A turn's first roll is of 8 dice (Henpen's rules): the board's first-roll chart."""
BAND_NS = tuple(sorted({round(10 ** (k / 4)) for k in range(25)}))
"""The numbers of first rolls the distance band is drawn at: 1 to a million, 4 a decade."""
MAX_HISTORY = 400
"""The most points of the class's distance the board keeps (older ones are thinned)."""
MAX_ENDING_CHARTS = 4
"""Turn-ending charts shown: the students' and the first bots' by name."""

_band_lock = threading.Lock()
_band: DistanceBand | None = None
_live_lock = threading.RLock()
_live: list[ClassBoard] = []
"""The boards refreshing by themselves in this kernel: at most one (re-running a notebook cell
makes a new board; the old one, kept alive for Voilà, stops refreshing)."""


def first_roll_band() -> DistanceBand:
    """Where 95% of classes' distances to Binomial(8, 1/6) lie, at each n of BAND_NS (seeded,
    computed once per kernel)."""
    global _band
    with _band_lock:
        if _band is None:
            _band = distance_band(first_roll_law(FIRST_DICE), BAND_NS, sims=2000, seed=8)
        return _band


def _up_to(band: DistanceBand, most: int) -> DistanceBand:
    """The band's points up to `most` observations (the chart's x axis follows the class)."""
    keep = [i for i, n in enumerate(band.n) if n <= most]
    return DistanceBand(*(tuple(getattr(band, f)[i] for i in keep)
                          for f in ("n", "mean", "low", "high")), band.level, band.sims)


def _interval(interval: object) -> float:
    if isinstance(interval, bool) or not isinstance(interval, int | float) or not (
            math.isfinite(interval) and MIN_INTERVAL <= interval <= MAX_INTERVAL):
        raise ValueError(f"interval is the seconds between refreshes, from {MIN_INTERVAL:g} to "
                         f"{MAX_INTERVAL:g}, not {interval!r}"[:300])
    return float(interval)


def _store(store: object) -> tuple[ClassStore, bool]:
    """The store to read and whether the board opened it (then it closes it)."""
    if isinstance(store, ClassStore):
        return store, False
    if store is None or (isinstance(store, str | Path) and str(store).strip()):
        return open_store(store), True
    raise ValueError(f"store is a class pool (ClassStore), a file path or postgresql:// URL, or "
                     f"None for HENKIT_CLASS_DB, not {store!r}"[:300])


def _half(children: list[w.Widget]) -> w.Box:
    return build(w.Box, *children, layout={"display": "flex", "flex_flow": "row wrap",
                                           "width": "100%"})


def _cell() -> w.Output:
    # One Layout shared by the board's eight charts (common.shared_layout: a model less each).
    return build(w.Output, layout={"width": "50%", "min_width": "420px", "flex": "1 1 420px"})


class ClassBoard(Guarded, w.VBox):
    """The class board: counts of students and rolls, the pooled charts, refreshing by itself.

    `store`: a ClassStore, a path or URL, or None (HENKIT_CLASS_DB / the data folder). `session`:
    a class session id, or None for the current one (a `henkit class new` moves the board to the
    new session). `interval`: seconds between refreshes, 2 or more. `hens_players`: None (each
    deck draw compared with the deck of its own game, 2 to 4 players), or a player count to show
    only the draws of games of that many players. `auto=False` starts no refresher (call
    `refresh()`).
    """

    def __init__(self, store: ClassStore | str | Path | None = None, session: str | None = None,
                 interval: float = MIN_INTERVAL, *, hens_players: int | None = None,
                 auto: bool = True) -> None:
        self.interval = _interval(interval)
        if session is not None:
            check_session(session)
        self.hens_players = None if hens_players is None else check_players(hens_players)
        if not isinstance(auto, bool):
            raise ValueError(f"auto is True or False, not {auto!r}")
        server_log()  # why the pool is offline goes to the server's log, not to viewers
        self.store, self._owns_store = _store(store)
        self.session = session
        self.board: Board | None = None
        self.online: bool | None = None
        self.stopped = False
        """Whether the pool's file was deleted or replaced (the board reads no more)."""
        self.refreshes = 0
        self.redraws = 0
        self.history: list[tuple[int, float]] = []
        self._laws_lock = threading.Lock()
        self._laws_ready: set[str] = set()  # players whose exact law is worked out
        self._laws_wanted: set[str] = set()  # players whose law is asked for
        self._laws_drawn: set[str] = set()  # players whose law the charts show
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._law_thread: threading.Thread | None = None

        self.header = build(w.HTML, layout={"min_height": "2.2em"})
        self.counts = build(w.HTML)
        self.left_out = build(w.HTML)
        self.status = build(w.HTML, layout={"min_height": "1.6em"})
        # Not needed (the board refreshes by itself): for a teacher who wants it now.
        self.refresh_button = button("Refresh now", "Read the class pool now (the board also "
                                     "refreshes by itself)", self.refresh)
        self.first_out, self.distance_out = _cell(), _cell()
        self.bust_out, self.draw_out = _cell(), _cell()
        self.ending_outs = [_cell() for _ in range(MAX_ENDING_CHARTS)]
        super().__init__([
            self.header, self.counts, self.left_out, hbox([self.refresh_button, self.status]),
            _half([self.first_out, self.distance_out]),
            _half([self.bust_out, self.draw_out]),
            _half(self.ending_outs),
        ], layout=shared_layout())
        self.add_class("henkit-class-board")
        self._say_header()
        keep_alive(self)  # see common.keep_alive: Voilà keeps no reference to it
        self.refresh()
        if auto:
            self.start()

    # ----- refreshing ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start refreshing by itself every `interval` seconds (a daemon thread); a board of this
        kernel that was refreshing stops (one board, one query every 2 s)."""
        with _live_lock:
            for other in [b for b in _live if b is not self]:
                other.stop()
                other._say("stopped: a newer class board on this page refreshes instead")
            _live[:] = [self]
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="henkit-class-board",
                                            daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop refreshing (the board keeps what it shows)."""
        if not hasattr(self, "_stop"):
            return  # a board whose arguments were refused never started
        with _live_lock:
            if self in _live:
                _live.remove(self)
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10)
        self._thread = None

    @property
    def running(self) -> bool:
        """Whether the board refreshes by itself."""
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        # The distance band takes seconds to simulate: work it out now, while the page is
        # preheated or the class has not rolled yet, not on the session's first roll (which
        # then reached the board after 8 s instead of 0.4-2.3 s, measured in Voila).
        first_roll_band()
        while not self._stop.wait(self.interval):
            try:
                self.refresh()
            except Exception:  # never let the refresher die: log, try again next time
                LOG.exception("the class board could not refresh")

    def refresh(self) -> bool:
        """Read the board once (one `store.board()` call) and redraw if it changed; return
        whether it redrew. An unreachable store shows "class pool offline" (no error)."""
        with self._lock:
            self.refreshes += 1
            try:
                board = self.store.board(self.session)
            except StoreReplaced as e:
                if self.online is not False or not self.stopped:
                    self.online = False
                    self.stopped = True
                    LOG.error("the class board stopped: %s", e)
                    self._say(STOPPED, offline=True)
                return False
            except StoreError as e:
                if self.online is not False:
                    self.online = False
                    # The reason names the database's address or file: the server's log only.
                    LOG.warning("the class board cannot read the class pool: %s", e)
                    self._say(OFFLINE.format(interval=self.interval), offline=True)
                return False
            came_back = self.online is False
            if came_back:
                LOG.info("the class board reads the class pool again")
            self.online = True
            if board == self.board and not came_back and not self._new_laws():
                return False
            self._draw(board)
            return True

    def close(self) -> None:
        """Stop refreshing, close the store if the board opened it, and close the widget."""
        self.stop()
        if getattr(self, "_owns_store", False):
            try:
                self.store.close()
            except StoreError:
                pass
        super().close()

    # ----- drawing ------------------------------------------------------------------------------

    def _new_laws(self) -> bool:
        """Whether a bot's exact law became ready since the last redraw."""
        with self._laws_lock:
            return bool(self._laws_ready - self._laws_drawn)

    def _draw(self, board: Board) -> None:
        self.board = board
        self.redraws += 1
        s = board.summary
        stamp = datetime.now(UTC).strftime("%H:%M:%S")
        # The pooled counts: what the charts hold (records of replayed seeds are stored, not
        # pooled; clicks too fast were never stored).
        pooled = pooled_counts(board)
        parts = [f"<b>{s.pages:,}</b> student page{'' if s.pages == 1 else 's'}"]
        parts += [f"<b>{pooled[k]:,}</b> {KIND_WORDS[k][pooled[k] != 1]}" for k in KINDS]
        self.counts.value = (
            "<div role='status' aria-live='polite' style='font-size:1.6em; line-height:1.4'>"
            + " · ".join(parts) + "</div>")
        self.left_out.value = left_out_html(board)
        self._say(f"class pool online, session {board.session or 'none yet'}; last change "
                  f"shown {stamp} UTC")

        eights = [c for c in first_roll_comparisons(board) if c.keys == tuple(range(FIRST_DICE + 1))]
        first = eights[0]
        # Always drawn: before the first roll it shows the exact law the class will fill in.
        show_figure(self.first_out, comparison_chart(first, "worms shown"), comparison_alt(first))
        if first.n:
            d = first.distance
            if not self.history or self.history[-1][0] != first.n:
                self.history.append((first.n, float(d)))
                if len(self.history) > MAX_HISTORY:
                    self.history = self.history[::2] + ([self.history[-1]]
                                                        if len(self.history) % 2 == 0 else [])
            band = _up_to(first_roll_band(), max(1000, 10 * first.n))
            show_figure(self.distance_out,
                        distance_chart(self.history, band, first_roll_law(FIRST_DICE)),
                        distance_alt(self.history, band))
        else:
            show_text(self.distance_out, "The distance to the exact law appears with the "
                                         "class's first rolls.")
        cells = bust_cells(board)
        if any(c.rolls for c in cells):
            show_figure(self.bust_out, bust_chart(cells), bust_alt(cells))
        else:
            show_text(self.bust_out, "Busts appear when the class rolls.")
        draws = draw_comparison(board, self.hens_players)
        if draws.n:
            show_figure(self.draw_out, comparison_chart(draws, "breed"), comparison_alt(draws))
        else:
            show_text(self.draw_out, "Hens deck draws appear when the class plays Hens.")
        self._draw_endings(board)

    def _draw_endings(self, board: Board) -> None:
        players = sorted({who for who, _ in board.endings}, key=lambda x: (x != "student", x))
        self._want_laws(players)
        with self._laws_lock:
            ready = set(self._laws_ready)
        self._laws_drawn = ready
        comparisons = ending_comparisons(board, laws=ready)[:MAX_ENDING_CHARTS]
        for out, c in zip(self.ending_outs, comparisons, strict=False):
            pending = not c.has_law and bot_spec(c.title.removesuffix("'s turns")
                                                 if c.title != "students' turns" else "student")
            title = c.title.capitalize() + (" (exact law being worked out...)" if pending else "")
            fig = comparison_chart(c, "end of the turn: failure, or the total of a serving",
                                   title=title)
            alt = comparison_alt(c) + (f" {c.note.capitalize()}." if c.note else "")
            show_figure(out, fig, alt)
        for out in self.ending_outs[len(comparisons):]:
            out.outputs = ()
        if not comparisons:
            show_text(self.ending_outs[0], "Turn endings appear when the class finishes turns.")

    def _want_laws(self, players: list[str]) -> None:
        """Work out the exact laws of players new to the board in a thread of their own (a few
        seconds each, once per kernel): the board shows counts until they are ready."""
        missing = [p for p in players if p not in self._laws_wanted and bot_spec(p)]
        if not missing:
            return
        self._laws_wanted.update(missing)

        def work() -> None:
            for who in missing:
                try:
                    turn_end_law(who)
                except Exception:
                    LOG.exception("no exact turn law for %r", who)
                    continue
                with self._laws_lock:
                    self._laws_ready.add(who)

        self._law_thread = threading.Thread(target=work, name="henkit-turn-laws", daemon=True)
        self._law_thread.start()

    def wait_for_laws(self, timeout: float = 300.0) -> None:
        """Wait until the exact laws asked for so far are ready (a notebook or a test)."""
        thread = self._law_thread
        if thread is not None:
            thread.join(timeout=timeout)

    # ----- words ------------------------------------------------------------------------------

    def _say_header(self) -> None:
        # Not the store's location: any viewer may open the board, and a server path or a
        # database address is none of their business (`henkit class status` tells the teacher).
        session = html.escape(self.session or "the current session")
        self.header.value = (
            "<h2 style='margin:0.2em 0'>Class board</h2>"
            f"<div>Pooled from the class pool, {session}; refreshes by itself every "
            f"{self.interval:g} s. Counts only: no student's name or record is shown.</div>")

    def _say(self, text: str, offline: bool = False) -> None:
        body = html.escape(text)
        if offline:
            body = f"<b style='color:#B00020'>{body}</b>"
        self.status.value = f"<div role='status' aria-live='polite'>{body}</div>"


def pooled_counts(board: Board) -> dict[str, int]:
    """The records of each kind the board pools: those stored less those of replayed seeds."""
    if not isinstance(board, Board):
        raise ValueError(f"board is a class pool Board, not {board!r}"[:300])
    s = board.summary
    stored = {"roll": s.rolls, "turn": s.turns, "draw": s.draws, "barnyard": s.barnyards}
    return {k: stored[k] - board.left_out.get(("replayed", k), 0) for k in KINDS}


def _kinds_text(counts: dict[str, int]) -> str:
    parts = [f"{n:,} {KIND_WORDS[k][n != 1]}" for k in KINDS if (n := counts.get(k, 0))]
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def left_out_text(board: Board) -> str:
    """What the board leaves out of its charts and why, in words ('' when nothing)."""
    if not isinstance(board, Board):
        raise ValueError(f"board is a class pool Board, not {board!r}"[:300])
    said = []
    replayed = {k: n for (why, k), n in board.left_out.items() if why == "replayed" and n}
    too_fast = {k: n for (why, k), n in board.left_out.items() if why == "too fast" and n}
    if replayed:
        said.append(f"{_kinds_text(replayed)} from typed or replayed seeds (a game played "
                    "again is not a new experiment)")
    if too_fast:
        said.append(f"{_kinds_text(too_fast)} faster than a person can click")
    return ("Left out of the charts: " + "; ".join(said) + ".") if said else ""


def left_out_html(board: Board) -> str:
    """`left_out_text` as the board's HTML line ('' when nothing is left out)."""
    text = left_out_text(board)
    return f"<div role='note'>{html.escape(text)}</div>" if text else ""


def status_of(board: ClassBoard) -> str:
    """The board's status line as plain text (for tests and logs)."""
    import re

    if not isinstance(board, ClassBoard):
        raise ValueError(f"board is a ClassBoard, not {board!r}"[:300])
    return html.unescape(re.sub(r"<[^>]+>", "", board.status.value))


def counts_of(board: ClassBoard) -> str:
    """The board's counts line as plain text (for tests and logs)."""
    import re

    if not isinstance(board, ClassBoard):
        raise ValueError(f"board is a ClassBoard, not {board!r}"[:300])
    return html.unescape(re.sub(r"<[^>]+>", "", board.counts.value))

