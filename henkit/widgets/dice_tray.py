"""The dice tray: one Henpen turn for a student, with live exact odds and the solver's advice.

Every rule is the engine's: the tray asks `State.legal_actions()` what may be clicked, plays
moves through a `henkit.core.Game` (so the dice come from its seeded generator), and reads the
odds from `henkit.henpen.odds` and `henkit.henpen.advice`. A move the engine refuses is shown in
words on the status line and the tray is redrawn from the engine's state, so it never drifts.

The same tray shows the turn in progress of a `HenpenTable`: there it shares the table's Game,
and its buttons work only while the human is to move.

A stand-alone tray shows its seed, takes a typed one and draws a new one (`seeding.SeedBox`: on a
dashboard each viewer starts from a seed of their own unless the lesson pins it), and writes every
roll and finished turn to the class pool (`seeding.PoolLine`); a tray inside a table leaves both
to the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import ipywidgets as w

from henkit.core import Game, Seed
from henkit.henpen.actions import ROLL, Roll, Stop, Take
from henkit.henpen.advice import advice
from henkit.henpen.dice import FACES, face_name, face_value
from henkit.henpen.odds import bust_chance
from henkit.henpen.rules import Claim, Rules
from henkit.henpen.state import Phase, State
from henkit.widgets.common import (
    Guarded,
    build,
    button,
    dice_text,
    esc,
    face_text,
    flag,
    hbox,
    html,
    keep_alive,
    percent,
    say,
    set_shown,
    shared_layout,
    show_figure,
    show_text,
    status_line,
)
from henkit.widgets.pieces import (
    ROOT_CLASS,
    dice_html,
    die_class,
    die_name,
    set_classes,
    style_widget,
)
from henkit.widgets.seeding import PoolLine, SeedBox, check_pool, start_seed

TOP_ADVICE = 6
"""How many of the solver's ranked actions the advice box lists."""


def fraction_text(p: Fraction) -> str:
    """An exact chance in words: '1/6561 (<0.1%)', '0', '1'."""
    if p == 0 or p == 1:
        return str(p)
    return f"{p.numerator}/{p.denominator} ({percent(p)})"


class DiceTray(Guarded, w.VBox):
    """One Henpen turn: Roll, click a die to take every die of its face, Stop to claim a serving.

    `DiceTray(seed=7)` plays a fresh one-player turn; give `state=` to play from a lesson's
    position (any `State` that is not over). When the turn ends (a stop or a bust) the tray says
    how in words and `New turn` starts again from the same position with the next dice.
    `show_advice=False` hides the solver's advice for an exercise (the checkbox brings it back).
    `game=` shares a running `Game` (the Henpen table does this); `on_move()` is called after
    every move made from the tray.

    `seed` is the notebook's: a notebook plays it; on a dashboard each viewer gets a fresh seed
    unless `pin_seed=True`. The seed box shows the seed, takes a typed one and draws a new one.
    `pool`: the class pool's Recorder (None: the page's, `page_recorder()`; False: record
    nothing). With `game=` the table that owns the game has the seed box and the pool.
    """

    def __init__(
        self,
        seed: Seed = None,
        state: State | None = None,
        *,
        players: int = 1,
        rules: Rules | None = None,
        show_advice: bool = True,
        show_chart: bool = True,
        game: Game | None = None,
        names: Sequence[str] | None = None,
        on_move: Callable[[], Any] | None = None,
        pin_seed: bool = False,
        pool: Any = None,
    ) -> None:
        show_advice = flag(show_advice, "show_advice")
        show_chart = flag(show_chart, "show_chart")
        first_seed = start_seed(seed, pin_seed)
        if names is not None and (not isinstance(names, list | tuple)
                                  or not all(isinstance(n, str) for n in names)):
            raise ValueError(f"names must be a list of player names, not {names!r}")
        if on_move is not None and not callable(on_move):
            raise ValueError(f"on_move must be a function (or None), not {on_move!r}")
        if game is None:
            if state is not None and not isinstance(state, State):
                raise ValueError(f"state must be a henkit.henpen State, not {state!r}")
            start = state if state is not None else State.new(players, rules)
            if start.is_over or start.is_chance:
                raise ValueError(
                    f"the tray starts a turn from a position where a player moves, not one in "
                    f"the {start.phase.value!r} phase"
                )
            self.pool_line: PoolLine | None = PoolLine(pool, "rolls")
            self.pool_line.play(first_seed)  # fresh, or typed/pinned: marked
            game = Game(start, [None] * start.players, first_seed,
                        observer=self.pool_line.observer("student"))
            self.standalone = True
        elif not isinstance(game, Game) or not isinstance(game.state, State):
            raise ValueError(f"game must be a henkit.core Game of Henpen, not {game!r}")
        else:
            self.standalone = False
            check_pool(pool)  # the table that owns the game records it
            self.pool_line = None
        self.game = game
        self.start = game.state
        self._turn_start = game.state.turns_played
        self.names = list(names) if names else None
        self.on_move = on_move
        dice = game.state.rules.dice

        self.header = html()
        self.status = status_line()
        self.seed_box: SeedBox | None = None
        if self.standalone:
            self.seed_box = SeedBox(first_seed, pinned=bool(pin_seed), restart=self._restart,
                                    report=lambda text, error: say(self.status, text, error),
                                    what="dice",
                                    pool_line=self.pool_line)
        self.roll_button = button("Roll the dice", "Roll every die not yet set aside", self.roll)
        self.new_turn_button = button(
            "New turn", "Start a new turn from the same position", self.new_turn,
            layout={"display": "" if self.standalone else "none"},
        )
        self._die_face: list[int] = [0] * dice
        self.dice_buttons = [self._die_button(i) for i in range(dice)]
        self.dice_box = hbox(self.dice_buttons, flex_flow="row wrap")
        self.taken_html = html()
        self._stop_pool: list[w.Button] = []  # made once, reused (see _show_stops)
        self._stop_claims: tuple[Claim, ...] | None = None
        self.stop_box = hbox(flex_flow="row wrap")
        self.odds_html = html()
        self.advice_toggle = build(
            w.Checkbox, value=show_advice, description="Show the solver's advice", indent=False,
            layout={"width": "auto", "margin": "0 2em 0 0"},
            tooltip="Hide the advice to try a turn on your own",
        )
        self.chart_toggle = build(
            w.Checkbox, value=show_chart, description="Show the solver's outlook", indent=False,
            layout={"width": "auto"},
            tooltip="The chance of ending this turn on each serving, playing as the solver would "
                    "(a chart and its text; hide it, with the advice, for an exercise)",
        )
        self.advice_html = html()
        self.chart = build(w.Output)
        self.advice_toggle.observe(lambda _c: self._show_odds(), names="value")
        self.chart_toggle.observe(lambda _c: self._show_odds(), names="value")
        keep_alive(self)  # see common.keep_alive: Voilà keeps no reference to it
        super().__init__([
            *([self.seed_box] if self.seed_box is not None else []),
            self.header,
            hbox([self.roll_button, self.new_turn_button]),
            self.dice_box,
            self.taken_html,
            self.stop_box,
            self.status,
            *([self.pool_line] if self.pool_line is not None else []),
            self.odds_html,
            hbox([self.advice_toggle, self.chart_toggle]),
            self.advice_html,
            self.chart,
            # The drawn dice and the projector sizes, last (pages find the header as the first
            # HTML child): brought by the outermost widget only.
            *([style_widget()] if self.standalone else []),
        ], layout=shared_layout())
        if self.standalone:
            self.add_class(ROOT_CLASS)
        self.refresh()
        say(self.status, self._prompt())

    # ----- the state -------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The engine state the tray shows."""
        return self.game.state  # type: ignore[return-value]

    @property
    def stop_buttons(self) -> list[w.Button]:
        """The Stop buttons shown now, one per legal claim."""
        return list(self.stop_box.children)

    @property
    def turn_over(self) -> bool:
        """True in a stand-alone tray once its turn has ended (press New turn)."""
        return self.standalone and self.state.turns_played > self._turn_start

    @property
    def can_act(self) -> bool:
        """True when the tray's buttons may move: a human is to move and the turn is on."""
        return self.game.waiting_for_human and not self.turn_over

    def _name(self, player: int) -> str:
        if self.names:
            return self.names[player]
        return "You" if self.state.players == 1 else f"Player {player + 1}"

    # ----- moves -----------------------------------------------------------------------------
    def roll(self) -> None:
        """Roll the dice left (the Roll button)."""

        def act() -> str:
            self._check_turn()
            self.game.play(ROLL)
            self.game.step()  # the dice land: a chance move drawn from the game's generator
            s = self.state
            if s.phase == Phase.TAKE:
                return f"Rolled {dice_text(s.roll)}. Click a die to take every die of its face."
            return self._ended()

        self._do(act)

    def take(self, face: int) -> None:
        """Take every die of `face` (1..5, or 6 for the worm) from the last roll."""

        def act() -> str:
            self._check_turn()
            action = Take(face)
            before = self.state
            self.game.play(action)
            s = self.state
            if s.turns_played > before.turns_played:
                return self._ended()
            n = before.roll[face - 1] if before.roll else 0
            return (f"Took the {face_name(face, plural=n > 1)} ({n} × {face_value(face)} = "
                    f"{n * face_value(face)}): total {s.total}, {s.dice_left} dice left.")

        self._do(act)

    def stop(self, claim: Claim | Stop | int) -> None:
        """Stop and claim a serving: a Claim, a Stop, or a serving number (the grill first)."""

        def act() -> str:
            self._check_turn()
            self.game.play(Stop(self._claim(claim)))
            return self._ended()

        self._do(act)

    def new_turn(self) -> None:
        """Start the tray's turn again from its starting position (stand-alone trays only)."""
        if not self.standalone:
            say(self.status, "this tray shows a table's game: the table decides whose turn it is",
                error=True)
            return
        # A fresh Game on the same generator: the position repeats, the dice go on.
        self.game = Game(self.start, self.game.bots, self.game.rng, observer=self.game.observer)
        self._turn_start = self.start.turns_played
        self.refresh()
        say(self.status, "A new turn from the same position. " + self._prompt())

    def _restart(self, seed: int) -> str:
        """The seed box's restart: the starting position again, with dice from `seed`."""
        self.game = Game(self.start, self.game.bots, seed, observer=self.game.observer)
        self._turn_start = self.start.turns_played
        self.refresh()
        return f"New dice from seed {seed}. " + self._prompt()

    def use_game(self, game: Game) -> None:
        """Show another running Game of Henpen (a table that starts a new game)."""
        if not isinstance(game, Game) or not isinstance(game.state, State):
            raise ValueError(f"game must be a henkit.core Game of Henpen, not {game!r}"[:300])
        self.game = game
        self.start = game.state
        self._turn_start = game.state.turns_played
        self.refresh()

    def _claim(self, claim: Claim | Stop | int) -> Claim:
        if isinstance(claim, Stop):
            return claim.claim
        if isinstance(claim, Claim):
            return claim
        if isinstance(claim, int) and not isinstance(claim, bool):
            options = [a.claim for a in self.state.legal_actions() if isinstance(a, Stop)]
            for c in options:
                if c.tile == claim:
                    return c
            return Claim(claim)  # not claimable: the engine says why
        raise ValueError(f"stop needs a serving number or a Claim, not {claim!r}")

    def _check_turn(self) -> None:
        if self.turn_over:
            raise ValueError("this turn is over: press New turn to play another")
        s = self.state
        if s.is_over:
            raise ValueError("the game is over: no move is left")
        if not self.game.waiting_for_human:
            raise ValueError(f"it is {self._name(s.player)}'s turn, a bot's: wait for it to play")

    def _do(self, act: Callable[[], str]) -> None:
        """Run a move; show what happened, or the engine's reason when it refuses."""
        try:
            text = act()
        except ValueError as e:
            self.refresh()
            say(self.status, str(e), error=True)
            return
        self.refresh()
        say(self.status, text)
        if self.on_move is not None:
            self.on_move()

    def _ended(self) -> str:
        """The turn just ended: the engine's words for how."""
        end = self.state.last_turn
        text = str(end) if end is not None else "The turn ended."
        if self.state.is_over:
            return text + " That was the last serving: the game is over."
        if self.turn_over:
            text += " Press New turn to play again from the same position."
        return text

    def _prompt(self) -> str:
        s = self.state
        if s.is_over:
            return "The game is over."
        if not self.game.waiting_for_human:
            return f"{self._name(s.player)} (a bot) is to play."
        if self.turn_over:
            return "This turn is over: press New turn."
        return {
            Phase.ROLL: "Roll the dice to start the turn.",
            Phase.TAKE: "Click a die to take every die of its face.",
            Phase.DECIDE: "Roll again, or stop and claim a serving.",
        }.get(s.phase, "")

    # ----- drawing ---------------------------------------------------------------------------
    def _die_button(self, i: int) -> w.Button:
        # Words until the first refresh shows the die (a button always has some).
        # Drawn by its classes (pieces.piece_style): the pips or the worm above the face's word.
        b = button("die", "a die", lambda: self.take(self._die_face[i]))
        b.add_class("hk-die")
        return b

    def refresh(self) -> None:
        """Redraw every part of the tray from the engine's state."""
        s = self.state
        act = self.can_act
        legal = s.legal_actions() if act else []
        self._show_header(s)
        self.roll_button.disabled = ROLL not in legal
        self.new_turn_button.disabled = not self.turn_over
        self._show_dice(s, act)
        self._show_taken(s)
        self._show_stops([a.claim for a in legal if isinstance(a, Stop)])
        self._show_odds()
        if self.pool_line is not None:
            self.pool_line.refresh()

    def _show_header(self, s: State) -> None:
        if s.is_over:
            self.header.value = "<b>The game is over.</b>"
            return
        if self.turn_over:
            self.header.value = "<b>Turn over.</b>"
            return
        worm = "a worm taken" if s.has_worm else "no worm yet"
        self.header.value = (
            f"<b>{esc(self._name(s.player))}</b>: total <b>{s.total}</b>, "
            f"{s.dice_left} dice left, {worm}."
        )

    def _shown_roll(self, s: State) -> tuple[tuple[int, ...] | None, bool]:
        """The roll to draw and whether it can be clicked: the live roll, or a bust's dice."""
        if s.phase == Phase.TAKE:
            return s.roll, True
        end = s.last_turn
        if end is not None and end.roll is not None and (s.phase == Phase.ROLL or s.is_over):
            return end.roll, False  # the roll that went bust, until the next turn's first roll
        return None, False

    def _show_dice(self, s: State, act: bool) -> None:
        roll, live = self._shown_roll(s)
        faces = [f for f in FACES for _ in range(roll[f - 1])] if roll else []
        for i, b in enumerate(self.dice_buttons):
            if i >= len(faces):
                set_shown(b, False)
                self._die_face[i] = 0
                continue
            f = faces[i]
            self._die_face[i] = f
            set_shown(b, True)
            b.description = face_text(f)
            name = die_name(f)
            if not live:
                b.disabled, b.button_style = True, "danger"
                b.tooltip = f"{name}: this roll went bust"
                set_classes(b, ("hk-die", die_class(f), "hk-bust"))
            elif s.kept[f - 1]:
                b.disabled, b.button_style = True, ""
                b.tooltip = f"{name}: {face_name(f, True)} are already taken this turn"
                set_classes(b, ("hk-die", die_class(f)))
            else:
                b.disabled, b.button_style = not act, "info"
                b.tooltip = f"{name}: {self._take_tip(s, f)}"
                set_classes(b, ("hk-die", die_class(f), "hk-live"))

    def _take_tip(self, s: State, f: int) -> str:
        n = s.roll[f - 1] if s.roll else 0
        left = s.dice_left - n
        tip = (f"take the {face_name(f, True)}: {n} {'die' if n == 1 else 'dice'}, "
               f"+{n * face_value(f)} to {s.total + n * face_value(f)}, {left} dice left")
        taken = s.taken | {f}
        if left and len(taken) < len(FACES):
            tip += f"; the next roll would bust with chance {fraction_text(bust_chance(left, taken))}"
        return tip

    def _show_taken(self, s: State) -> None:
        end = s.last_turn if (self.turn_over or (s.phase == Phase.ROLL and s.last_turn)) else None
        if end is not None and s.phase == Phase.ROLL:
            self.taken_html.value = (f"Last turn set aside {dice_html(end.kept)} "
                                     f"{esc(dice_text(end.kept))}: total {end.total}.")
            return
        self.taken_html.value = (f"Taken: {dice_html(s.kept)} {esc(dice_text(s.kept))}; "
                                 f"total <b>{s.total}</b>.")

    def _show_stops(self, claims: list[Claim]) -> None:
        key = tuple(claims)
        if key == self._stop_claims:
            return
        self._stop_claims = key
        worms = self.state.rules.worms
        # Reuse the buttons, made once and kept: ipywidgets keeps a widget's model open until it
        # is closed (its registry holds it, so dropping it frees nothing), and a button made per
        # change would be one model more in the kernel and in every viewer's page.
        pool = self._stop_pool
        while len(pool) < len(claims):
            i = len(pool)
            pool.append(button("stop", "stop and claim a serving", lambda i=i: self.stop(self._stop_claims[i]),
                               button_style="success", layout={"width": "auto"}))
        for b, c in zip(pool, claims, strict=False):
            n = f"{worms(c.tile)} worm{'s' if worms(c.tile) > 1 else ''}"
            b.description = f"Stop: {c} ({n})"  # the worms at stake in plain sight
            b.tooltip = f"stop at {self.state.total} and {c} ({n})"
        self.stop_box.children = tuple(pool[: len(claims)])

    # ----- odds, advice, chart ---------------------------------------------------------------
    def _show_odds(self) -> None:
        s = self.state
        if s.is_over or self.turn_over or s.is_chance:
            self.odds_html.value = ""
            self.advice_html.value = ""
            show_text(self.chart, "")
            return
        self.odds_html.value = self._odds_text(s)
        show = self.advice_toggle.value
        set_shown(self.advice_html, show)
        self.advice_html.value = self._advice_text(s) if show else ""
        if self.chart_toggle.value:
            from henkit.charts.henpen import turn_outlook_chart

            show_figure(self.chart, turn_outlook_chart(s))
        else:
            show_text(self.chart, "")

    def _odds_text(self, s: State) -> str:
        lines = []
        if s.phase == Phase.TAKE:
            # Where each take leads, in plain sight (a projected class never sees a tooltip).
            takes = "".join(f"<li>{dice_html([0] * (f - 1) + [1])} {esc(self._take_tip(s, f))}</li>"
                            for f in FACES if s.roll and s.roll[f - 1] and not s.kept[f - 1])
            lines.append(f"Pick a face. Where each take leads:<ul>{takes}</ul>")
        elif Roll() in s.legal_actions():
            if s.taken:
                p = bust_chance(s.dice_left, s.taken)
                lines.append(f"Chance the next roll goes bust: <b>{fraction_text(p)}</b> "
                             f"(every one of {s.dice_left} dice shows a face already taken).")
            else:
                lines.append("Chance the next roll goes bust: <b>0</b> (nothing is taken yet).")
        if self.chart_toggle.value:
            # The outlook tells what the solver would do, so it hides with its chart.
            lines.append(esc(self._outlook_text(s)))
        return "<br>".join(lines)

    def _outlook_text(self, s: State) -> str:
        """The outlook chart's text equivalent: the chance of each serving, or of failing."""
        from henkit.henpen.distributions import turn_outlook

        outlook = turn_outlook(s)
        fail = outlook.pop(None, 0.0)
        likely = sorted(outlook.items(), key=lambda kv: -kv[1])[:5]
        ends = ", ".join(
            f"{c.tile}{'' if c.owner is None else f' stolen from player {c.owner + 1}'} "
            f"({percent(p)})" for c, p in likely
        )
        lead = "After the best take, playing" if s.phase == Phase.TAKE else "Playing"
        return (f"{lead} on as the solver would, this turn fails with chance {percent(fail)}; "
                f"most likely servings: {ends or 'none'}.")

    def _advice_text(self, s: State) -> str:
        ranked = advice(s)
        if not ranked:
            return ""
        rows = "".join(
            f"<li>{'<b>' if i == 0 else ''}{esc(a.action)}: {float(a.value):+.2f} worms "
            f"expected{'</b> (best)' if i == 0 else ''}</li>"
            for i, a in enumerate(ranked[:TOP_ADVICE])
        )
        return f"The solver's advice (expected worms gained this turn):<ol>{rows}</ol>"

    # ----- words -----------------------------------------------------------------------------
    def describe(self) -> str:
        """The tray in plain words: position, dice, and what may be clicked."""
        s = self.state
        parts = [s.describe()]
        if s.roll is not None:
            parts.append("Dice: " + dice_text(s.roll))
        return "\n".join(parts)
