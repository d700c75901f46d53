"""The endgame explorer: set up a 2-player Henpen endgame, predict, then see the chance to win.

A student types the servings on the grill and in the two stacks (bottom first), presses "Set
up", and sees the position drawn and how many positions the game can reach from it. The chance
to win (both playing to win, `henkit.henpen.endgame.win_chance`) is worked out only when asked
(of the position typed: a position typed but not set up is set up first), so a student
predicts first; each answer is listed with the change from the one before, which
is what the lesson asks about ("does your chance go up or down?").

A position the rules cannot reach, text that is not serving numbers, and an endgame larger than
`limit` positions are refused in words on the status line, and the position shown is kept.
Nothing is solved when the widget is made: on a dashboard it is the lesson's first widget, and
a page is usable once it shows (the solve comes with the first click). A position set up is
worked out in the background at once, in a thread of its own, while the student predicts: a
grill of three servings takes about half a second to solve, and the answer is then ready when
asked for (asked sooner, it comes when the solve ends). Only the newest position set up is
solved ahead; the solver's memo is shared and locked (`henkit.henpen.endgame`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import cache

import ipywidgets as w

from henkit.checks import whole
from henkit.henpen.endgame import DEFAULT_LIMIT, check_position, key_of, positions, win_chance
from henkit.henpen.state import State
from henkit.widgets.common import (
    Guarded,
    build,
    button,
    esc,
    hbox,
    html,
    keep_alive,
    log_html,
    percent,
    say,
    shared_layout,
    status_line,
)
from henkit.widgets.pieces import ROOT_CLASS, style_widget, tile_html
from henkit.words import count

LIMIT = 1_500
"""The most positions the explorer solves by default: a grill of 3 servings with short stacks
(579 positions, about 0.3 s here) fits, a click never waits for seconds (README, endgame)."""
MAX_TYPED = 60
"""The most characters of one typed list of servings read."""
BOXES = (("grill", "Grill", "the servings on the grill, e.g. 21 25"),
         ("mine", "Your stack", "your servings, bottom first (the last is your top), e.g. 30 22"),
         ("theirs", "Their stack", "the other player's servings, bottom first, e.g. 33"))
"""The three text boxes: what each holds, its label, and its tooltip (what to type)."""


def read_servings(text: object, what: str) -> list[int]:
    """Serving numbers typed as text ('30 22' or '30, 22'; '' for none); ValueError saying why."""
    if not isinstance(text, str):
        raise ValueError(f"{what} must be typed as text, not {text!r}"[:300])
    if len(text) > MAX_TYPED:
        raise ValueError(f"{what} is too long ({len(text)} characters): type serving numbers "
                         f"separated by spaces, at most {MAX_TYPED} characters")
    words = [x for x in re.split(r"[\s,]+", text.strip()) if x]
    bad = [x for x in words if not x.isascii() or not x.isdigit()]
    if bad:
        raise ValueError(f"{what} must be serving numbers separated by spaces (e.g. 21 25), "
                         f"not {bad[0]!r}"[:300])
    return [int(x) for x in words]


@cache
def _solver() -> ThreadPoolExecutor:
    """The one thread that works out set-up positions ahead (one solve at a time, in order)."""
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="henkit-endgame-ahead")


class EndgameExplorer(Guarded, w.VBox):
    """Set up a 2-player endgame (grill and stacks), predict, then see the chance to win.

    `start`: a 2-player State at the start of a turn; the player to move is "you". `limit`: the
    most positions one endgame may reach (larger ones are refused in words). The chance to win
    is shown on `work_out()` (the button), never before it is asked for; `ahead` is the
    background solve of the position last set up (None before the first set up).
    """

    def __init__(self, start: State, *, limit: int = LIMIT) -> None:
        start = check_position(start)  # ValueError: not 2 players, not a turn's start, over
        self.limit = whole(limit, "limit (positions)", 1, DEFAULT_LIMIT)
        self.size = self._checked(start)  # ValueError (over the limit) before any model is made
        self.answers: list[tuple[State, float]] = []  # each position worked out, in order
        self.ahead: Future | None = None
        self.status = status_line()
        self.position_html = html()
        grill, mine, theirs = key_of(start)
        self.boxes = {
            name: build(w.Text, value=" ".join(map(str, servings)), description=label,
                        tooltip=tip, placeholder=tip.rsplit("e.g. ", 1)[-1],
                        continuous_update=False, style={"description_width": "6em"},
                        layout={"width": "18em"})
            for (name, label, tip), servings in zip(BOXES, (grill, mine, theirs), strict=True)
        }
        self.set_button = button("Set up", "Set up the position typed in the three boxes",
                                 self.set_up)
        self.work_button = button("Work out my chance to win",
                                  "Work out your chance to win from this position, both "
                                  "playing to win", self.work_out)
        self.log_html = html()
        self.state = start
        keep_alive(self)  # see common.keep_alive: Voilà keeps no reference to it
        super().__init__([
            html("<h3>Endgame explorer</h3>"),
            self.position_html,
            hbox(self.boxes.values(), flex_flow="row wrap"),
            hbox([self.set_button, self.work_button], flex_flow="row wrap"),
            self.status,
            self.log_html,
            style_widget(),  # the drawn servings, and the projector sizes
        ], layout=shared_layout())
        self.add_class(ROOT_CLASS)
        self._show()
        say(self.status, self._prompt())

    # ----- setting up ------------------------------------------------------------------------
    def set_up(self) -> bool:
        """Set up the position typed in the boxes; True if it did (else the status says why)."""
        try:
            state = self._typed_state()
            if state.is_over:
                raise ValueError("the grill is empty, so the game is over: put at least one "
                                 "serving on it")
            size = self._checked(state)
        except ValueError as e:
            say(self.status, f"{e}. The position shown is unchanged.", error=True)
            return False
        self.state, self.size = state, size
        self._show()
        say(self.status, self._prompt())
        if self.ahead is not None:
            self.ahead.cancel()  # still waiting for the thread: no longer wanted
        self.ahead = _solver().submit(win_chance, state, limit=self.limit)
        return True

    def _checked(self, state: State) -> int:
        """The endgame's size, refused in words when it is over the explorer's limit."""
        try:  # the state is checked already: the one refusal left is the size
            return positions(state, limit=self.limit)
        except ValueError:
            raise ValueError(f"this endgame reaches more than {self.limit:,} positions, more "
                             f"than the explorer works out on a click: take a serving off the "
                             f"grill") from None

    # ----- the answer ------------------------------------------------------------------------
    def work_out(self) -> float | None:
        """Work out (and show) the chance to win for the player to move: of the position typed,
        set up first if the boxes say another one (None, the status saying why, if refused)."""
        if self._typed_key() != key_of(self.state) and not self.set_up():
            return None
        say(self.status, "Working it out...")
        # The position shown is the one set up last, whose solve is never cancelled (a set up
        # cancels only the one before it); before any set up, the start is solved here.
        chance = float(win_chance(self.state, limit=self.limit) if self.ahead is None
                       else self.ahead.result())
        before = self.answers[-1][1] if self.answers else None
        self.answers.append((self.state, chance))
        said = f"Your chance to win: {percent(chance)} (the other player's: {percent(1 - chance)})"
        if before is not None:
            change = 100 * (chance - before)
            said += (f", {abs(change):.1f} percentage points {'up' if change > 0 else 'down'} "
                     f"from the last position worked out" if round(change, 1) else
                     ", the same as the last position worked out")
        say(self.status, said + ".")
        self.log_html.value = log_html(
            [f"{self._words(s)}: {percent(p)} to win" for s, p in reversed(self.answers)],
            "Positions worked out, newest first")
        return chance

    def _typed_state(self) -> State:
        """The position typed in the three boxes (grill, yours, theirs), yours to move;
        ValueError naming the box that does not read, or what the rules refuse."""
        grill, mine, theirs = (read_servings(self.boxes[name].value, label.lower())
                               for name, label, _ in BOXES)
        return State.new(2, self.state.rules, grill=grill, stacks=[mine, theirs])

    def _typed_key(self) -> tuple[tuple[int, ...], ...] | None:
        """The position typed, as `key_of` gives it (None when the boxes do not make one)."""
        try:
            return key_of(self._typed_state())
        except ValueError:
            return None

    # ----- showing ---------------------------------------------------------------------------
    def _words(self, state: State) -> str:
        grill, mine, theirs = key_of(state)
        listed = [" ".join(map(str, x)) or "none" for x in (grill, mine, theirs)]
        return f"grill {listed[0]}; you {listed[1]}; them {listed[2]}"

    def _prompt(self) -> str:
        return (f"Your turn. The game can reach {self.size:,} positions from here. Predict "
                f"your chance to win, then press 'Work out my chance to win'.")

    def _show(self) -> None:
        s = self.state
        grill, mine, theirs = key_of(s)

        def row(title: str, servings: Sequence[int], worms: int | None) -> str:
            tiles = "".join(
                tile_html(t, s.rules.worms(t), "the top" if worms is not None and
                          i == len(servings) - 1 else "")
                for i, t in enumerate(servings)) or "<i>no servings</i>"
            said = "" if worms is None else f" ({count(worms, 'worm')})"
            return f"<div><b>{esc(title)}</b>{said}</div><div>{tiles}</div>"

        you, them = s.player, 1 - s.player
        self.position_html.value = (row("Grill", grill, None)
                                    + row("Your stack, bottom first", mine, s.worms(you))
                                    + row("Their stack, bottom first", theirs, s.worms(them)))
