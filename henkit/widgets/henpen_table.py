"""The Henpen table: a whole game of Henpen against 1-6 bots, one click at a time.

The game is a `henkit.core.Game` (seeded dice, bots by `make_bot` spec). The human plays from a
`DiceTray` that shares the game; bots move only when asked ("Next bot move" or "Let bots play"),
so no threads or timers are involved and every step can be tested by clicking. The log says what
every player did and, for bots, what the solver thinks of it (`henkit.henpen.advice`).

The table shows its seed, takes a typed one and draws a new one, each starting a new game
(`seeding.SeedBox`), and writes every roll and finished turn, the bots' too, to the class pool
(`seeding.PoolLine`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from henkit.checks import whole
from henkit.classpool import seat_names
from henkit.core import CHANCE, Game, Seed
from henkit.henpen.actions import Roll, Stop, Take
from henkit.henpen.advice import advice
from henkit.henpen.bots import make_bot
from henkit.henpen.dice import describe_roll, face_name, face_value
from henkit.henpen.rules import Rules
from henkit.henpen.state import Phase, State
from henkit.widgets.common import (
    Guarded,
    bot_buttons,
    bot_move,
    bot_specs,
    bots_play,
    esc,
    flag,
    hbox,
    html,
    keep_alive,
    log_html,
    say,
    shared_layout,
)
from henkit.widgets.dice_tray import DiceTray
from henkit.widgets.pieces import ROOT_CLASS, style_widget, tile_html
from henkit.widgets.seeding import PoolLine, SeedBox, start_seed

MAX_BOTS = 6
LOG_SHOWN = 60
"""How many log lines the table shows (newest first); `log_lines` keeps them all."""


class HenpenTable(Guarded, w.VBox):
    """A whole Henpen game: you against `bots` (make_bot specs such as 'optimal', 'threshold:25').

    `seed` fixes the dice (and random bots), so the same seed and the same clicks give the same
    game. `human` is your seat (0 plays first). Bots play on `next_move()` / `play_bots()`.
    `seed` is the notebook's: on a dashboard each viewer gets a fresh seed unless `pin_seed`;
    the seed box starts a new game with a typed or a fresh seed. `pool`: the class pool's
    Recorder (None: the page's; False: record nothing).
    """

    def __init__(
        self,
        bots: Sequence[str] | str = ("optimal",),
        seed: Seed = None,
        *,
        human: int = 0,
        rules: Rules | None = None,
        show_advice: bool = True,
        show_chart: bool = True,
        pin_seed: bool = False,
        pool: Any = None,
    ) -> None:
        specs = bot_specs(bots, MAX_BOTS, "a Henpen table has 2 to 7 players")
        robots = [make_bot(s) for s in specs]  # ValueError naming the known bots
        players = len(robots) + 1
        human = whole(human, "human (your seat)", 0, players - 1)
        show_advice = flag(show_advice, "show_advice")
        show_chart = flag(show_chart, "show_chart")
        first_seed = start_seed(seed, pin_seed)
        self.pool_line = PoolLine(pool, "rolls")
        self.pool_line.play(first_seed)  # fresh, or typed/pinned: marked
        seats = [*robots[:human], None, *robots[human:]]
        self.game = Game(State.new(players, rules), seats, first_seed,
                         observer=self.pool_line.observer(seat_names(seats)))
        self.names = [
            f"Player {p + 1} (you)" if b is None else f"Player {p + 1} ({b.name})"
            for p, b in enumerate(seats)
        ]
        self.log_lines: list[str] = []
        self._logged = 0  # history entries already written to the log

        self.tray = DiceTray(game=self.game, names=self.names, on_move=self._after_move,
                             show_advice=show_advice, show_chart=show_chart)
        self.status = self.tray.status  # one status line for the whole table
        self.seed_box = SeedBox(first_seed, pinned=bool(pin_seed), restart=self._restart,
                                report=lambda text, error: say(self.status, text, error),
                                what="dice",
                                pool_line=self.pool_line)
        self.grill_html = html()
        self.players_html = html()
        self.next_button, self.play_button = bot_buttons(self.next_move, self.play_bots)
        self.log_html = html()
        keep_alive(self)  # see common.keep_alive: Voilà keeps no reference to it
        super().__init__([
            html("<h3>Henpen</h3>"),
            self.seed_box,
            self.pool_line,
            self.grill_html,
            self.players_html,
            hbox([self.next_button, self.play_button]),
            self.tray,
            html("<b>What happened</b> (newest first):"),
            self.log_html,
            style_widget(),  # the drawn dice and servings, and the projector sizes
        ], layout=shared_layout())
        self.add_class(ROOT_CLASS)
        self.refresh()
        say(self.status, self._prompt())

    # ----- the state -------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The engine state of the game."""
        return self.game.state  # type: ignore[return-value]

    def _restart(self, seed: int) -> str:
        """The seed box's restart: a new game from the first position, with dice from `seed`."""
        g = self.game
        self.game = Game(g.states[0], g.bots, seed, observer=g.observer)
        self.log_lines = []
        self._logged = 0
        self.tray.use_game(self.game)
        self.refresh()
        return f"A new game with seed {seed}. " + self._prompt()

    # ----- bots ------------------------------------------------------------------------------
    def next_move(self) -> None:
        """One bot move (a roll shows its dice at once); says why when it is not a bot's turn."""
        try:
            self._bot_move()
        except ValueError as e:
            self.refresh()
            say(self.status, str(e), error=True)
            return
        self._after_move()
        say(self.status, self.log_lines[-1] if self.log_lines else self._prompt())

    def play_bots(self) -> None:
        """Let the bots play until the human is to move or the game is over."""
        try:
            self._bots_turn()
            try:
                bots_play(self.game)
            finally:
                self._write_log()
        except ValueError as e:
            self.refresh()
            say(self.status, str(e), error=True)
            return
        self._after_move()
        say(self.status, self._prompt())

    def _bots_turn(self) -> None:
        """ValueError saying why no bot can move now."""
        if self.state.is_over:
            raise ValueError("the game is over: no bot has a move left")
        if self.game.waiting_for_human:
            raise ValueError("it is your turn: play it in the dice tray")

    def _bot_move(self) -> None:
        self._bots_turn()
        try:
            bot_move(self.game)  # the bot's choice, and the dice of its roll land at once
        finally:
            self._write_log()

    def _after_move(self) -> None:
        """After any move (the tray's or a bot's): log it and redraw the table."""
        self._write_log()
        self.refresh()
        if self.state.is_over:
            say(self.status, self._prompt())

    # ----- the log ---------------------------------------------------------------------------
    def _write_log(self) -> None:
        g = self.game
        for i in range(self._logged, len(g.history)):
            line = self._describe(g.history[i].player, g.history[i].action, g.states[i],
                                  g.states[i + 1])
            if line:
                self.log_lines.append(line)
        self._logged = len(g.history)

    def _describe(self, player: int, action: object, before: State, after: State) -> str:
        """One move in words; a bot's choice also gets the solver's verdict."""
        name = self.names[before.player]
        ended = after.turns_played > before.turns_played
        if player == CHANCE:
            text = f"{name} rolled {describe_roll(action)}."  # type: ignore[arg-type]
            return f"{text} {after.last_turn}" if ended else text
        if isinstance(action, Roll):
            if before.phase != Phase.DECIDE:
                return ""  # the roll's dice make the line
            text = f"{name} rolled again at total {before.total}"
        elif isinstance(action, Take):
            n = before.roll[action.face - 1] if before.roll else 0
            total = before.total + n * face_value(action.face)
            text = f"{name} took the {face_name(action.face, plural=n > 1)} ({n} × {face_value(action.face)}, total {total})"
        elif isinstance(action, Stop):
            text = f"{name} stopped at {before.total}"
        else:
            text = f"{name}: {action}"
        if self.game.bots[before.player] is not None:
            text += self._why(before, action)
        text += "."
        if ended and after.last_turn is not None:
            text += f" {after.last_turn}"
        return text

    @staticmethod
    def _why(before: State, action: object) -> str:
        """The solver's view of a bot's choice: its expected worms and the best choice."""
        ranked = advice(before)
        if len(ranked) < 2:
            return ""
        value = next((a.value for a in ranked if a.action == action), None)
        if value is None:
            return ""
        best = ranked[0]
        if best.action == action or float(best.value) == float(value):
            return f": expected {float(value):+.2f} worms, the solver's choice too"
        return (f": expected {float(value):+.2f} worms, where the solver would {best.action} "
                f"({float(best.value):+.2f})")

    # ----- drawing ---------------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw the grill, the players, the buttons, the tray and the log."""
        s = self.state
        bots_turn = not s.is_over and not self.game.waiting_for_human
        self.next_button.disabled = not bots_turn
        self.play_button.disabled = not bots_turn
        self.tray.refresh()
        self.pool_line.refresh()
        self._show_grill(s)
        self._show_players(s)
        shown = reversed(self.log_lines[-LOG_SHOWN:])
        self.log_html.value = log_html(list(shown))

    def _show_grill(self, s: State) -> None:
        # Servings as tiles: the number, its worms drawn (pieces) and said in words.
        out = ", ".join(map(str, s.out_of_play)) or "none"
        value = (
            f"<div><b>Grill</b> ({len(s.grill)} servings; out of play: {esc(out)})</div>"
            f"<div>{''.join(tile_html(t, s.rules.worms(t)) for t in s.grill)}</div>"
        )
        if self.grill_html.value != value:
            self.grill_html.value = value

    def _show_players(self, s: State) -> None:
        winners = set(s.winners()) if s.is_over else set()
        rows = []
        for p in range(s.players):
            to_play = p == s.player and not s.is_over
            mark = " (winner)" if p in winners else (" (to play)" if to_play else "")
            top = s.top(p)
            name = f"<b>{esc(self.names[p])}{mark}</b>" if to_play or p in winners else \
                esc(self.names[p])
            shown = tile_html(top, s.rules.worms(top), "the top of the stack") \
                if top is not None else "none"
            rows.append(
                f"<tr><th scope='row'>{name}</th><td>{shown}</td>"
                f"<td style='text-align:right'>{s.worms(p)}</td>"
                f"<td style='text-align:right'>{len(s.stacks[p])}</td></tr>"
            )
        self.players_html.value = (
            "<table><thead><tr><th scope='col'>Player</th><th scope='col'>Top serving (can be "
            "stolen)</th><th scope='col'>Worms</th><th scope='col'>Servings</th></tr></thead>"
            "<tbody>" + "".join(rows) + "</tbody></table>"
        )

    def _prompt(self) -> str:
        s = self.state
        if s.is_over:
            w_ = s.winners()
            names = " and ".join(self.names[p] for p in w_)
            verb = "share the win" if len(w_) > 1 else "wins"
            return f"Game over: {names} {verb} with {s.worms(w_[0])} worms."
        if self.game.waiting_for_human:
            return f"Your turn ({self.names[s.player]}): roll the dice in the tray."
        return f"{self.names[s.player]} is to play: press Next bot move or Let bots play."
