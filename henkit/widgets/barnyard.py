"""The barnyard: a whole game of Hens against bots, placing hens by clicking cells.

A turn is the engine's: draw two cards (the deck or an opponent's discard top), place one card
as a hen or face down as a chicken coop, discard down to four; after round 6 everyone puts the
rooster on a hen. The widget asks `State.legal_actions()` which cells are legal for the
selected card and highlights them; every other cell carries the engine's own reason
(`Barnyard.check_place`, naming the neighbour and the rule) as its tooltip, and clicking it shows
that reason on the status line. The score breakdown is `henkit.hens.scoring.score`.

Hidden information stays hidden: the log never names a card a bot drew from the deck or put
face down, and opponents' barnyards are shown from your seat (`State.view`).

The game shows its seed, takes a typed one and draws a new one, each dealing a new game
(`seeding.SeedBox`), and writes every draw and the finished barnyards to the class pool
(`seeding.PoolLine`). The pool's draw records name the card drawn, as the class board counts
them; the page shows nobody a card it hides.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from henkit.checks import whole
from henkit.classpool import seat_names
from henkit.core import CHANCE, Game, Seed, make_rng
from henkit.hens.actions import DECK, Discard, Draw, Place, PlaceCoop, PlaceRooster
from henkit.hens.barnyard import BOX_RULE, Cell, box_problem
from henkit.hens.bots import make_bot
from henkit.hens.cards import Card, card
from henkit.hens.goals import goal_card
from henkit.hens.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from henkit.hens.scoring import score
from henkit.hens.state import State
from henkit.widgets.common import (
    Guarded,
    bot_buttons,
    bot_move,
    bot_specs,
    bots_play,
    build,
    button,
    esc,
    flag,
    guarded,
    hbox,
    html,
    keep_alive,
    log_html,
    say,
    set_shown,
    shared_layout,
    show_figure,
    status_line,
)
from henkit.widgets.pieces import (
    ROOT_CLASS,
    card_class,
    card_name,
    set_classes,
    style_widget,
    yard_html,
)
from henkit.widgets.seeding import PoolLine, SeedBox, start_seed
from henkit.words import count

CELLS = range(-1, 5)  # rows and columns a card may be given (-1 grows the barnyard)
HAND_SLOTS = 6  # four cards plus two draws
LOG_SHOWN = 60
SELECTED = " (selected)"
"""What the selected card's button adds to its words (it is also drawn raised)."""


class _Cells(dict):
    """The grid's cell buttons by (row, column), each made the first time it is asked for."""

    def __init__(self, make: Any) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, cell: Cell) -> w.Button:
        if not (isinstance(cell, tuple) and len(cell) == 2 and all(
                type(x) is int and x in CELLS for x in cell)):
            raise KeyError(cell)
        made = self[cell] = self._make(cell)
        return made


def card_label(k: Card) -> str:
    """A card as its button says it, e.g. 'Pa3 · 1 egg' (medals too, when it has some)."""
    eggs = f"{k.eggs} egg{'s' if k.eggs > 1 else ''}"
    medals = f" · {k.medals} medal{'s' if k.medals > 1 else ''}" if k.medals else ""
    return f"{k} · {eggs}{medals}"


class BarnyardGame(Guarded, w.VBox):
    """A whole Hens game: you against `bots` (Hens make_bot names: random, greedy, lookahead).

    `seed` fixes the deal, the goal card, who starts, every deck draw and the bots' choices.
    `human` is your seat. Draw with the source buttons, select a card in your hand, then click a
    cell (tick "chicken coop" to place it face down); bots play on `next_move()` / `play_bots()`.
    `seed` is the notebook's: on a dashboard each viewer gets a fresh seed unless `pin_seed`;
    the seed box deals a new game with a typed or a fresh seed. `pool`: the class pool's
    Recorder (None: the page's; False: record nothing).
    """

    def __init__(
        self,
        bots: Sequence[str] | str = ("greedy",),
        seed: Seed = None,
        *,
        human: int = 0,
        rules: Rules | None = None,
        show_chart: bool = True,
        pin_seed: bool = False,
        pool: Any = None,
    ) -> None:
        specs = bot_specs(bots, MAX_PLAYERS - 1, f"Hens is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        robots = [make_bot(s) for s in specs]  # ValueError naming the known bots
        players = len(robots) + 1
        human = whole(human, "human (your seat)", 0, players - 1)
        show_chart = flag(show_chart, "show_chart")
        if rules is None:
            rules = Rules(players=players)
        elif not isinstance(rules, Rules) or rules.players != players:
            raise ValueError(f"rules must be henkit.hens Rules for {players} players")
        first_seed = start_seed(seed, pin_seed)
        self.pool_line = PoolLine(pool, "draws")
        self.pool_line.play(first_seed)  # fresh, or typed/pinned: marked
        seats = [*robots[:human], None, *robots[human:]]
        self.rules = rules
        self.game = self._new_game(seats, first_seed, self.pool_line.observer(seat_names(seats)))
        self.human = human
        self.names = [
            f"Player {p + 1} (you)" if b is None else f"Player {p + 1} ({b.name})"
            for p, b in enumerate(seats)
        ]
        self.selected: Card | None = None
        self.log_lines: list[str] = []
        self._logged = 0

        self.header = html()
        self.status = status_line()
        self.seed_box = SeedBox(first_seed, pinned=bool(pin_seed), restart=self._restart,
                                report=lambda text, error: say(self.status, text, error),
                                what="cards",
                                pool_line=self.pool_line)
        self.source_box = hbox(flex_flow="row wrap")
        self._sources: tuple = ()
        self._source_pool: list[w.Button] = []  # made once, reused (see _show_sources)
        self.hand_buttons = [self._hand_button(i) for i in range(HAND_SLOTS)]
        self._hand: tuple[Card, ...] = ()
        self.coop_toggle = build(
            w.Checkbox, value=False, indent=False, description="Place face down as a chicken coop (-1 point)",
            tooltip="A coop may go on any free square touching the barnyard",
            layout={"width": "auto"},
        )
        self.coop_toggle.observe(lambda _c: self.refresh(), names="value")
        self.discard_button = button("Discard the selected card",
                                     "Put the selected card on your discard pile", self._discard,
                                     layout={"width": "auto"})
        self.no_rooster_button = button(
            "No hen for the rooster", "Your barnyard has no hen: the rooster stays off",
            lambda: self.rooster(None), layout={"display": "none"})
        # A cell's button is made when the grid first shows it: a new game shows 4 of the 36
        # cells, and a button never shown would still be a model in every viewer's page.
        self.cells: dict[Cell, w.Button] = _Cells(self._cell_button)
        # The grid's own Layout: its columns change as the barnyard grows.
        self.grid = build(w.GridBox, layout=guarded(w.Layout)(grid_gap="4px", width="max-content"))
        self.grid.add_class("hk-grid")  # framed: the barnyard's field
        self.grid_caption = html()
        self.score_html = html()
        self.chart_toggle = build(w.Checkbox, value=show_chart, indent=False,
                                  description="Show the score chart", layout={"width": "auto"},
                                  tooltip="Your score, step by step, as a waterfall chart")
        self.chart_toggle.observe(lambda _c: self._show_score(), names="value")
        self.score_chart = build(w.Output)
        self.others_html = html()
        self.next_button, self.play_button = bot_buttons(self.next_move, self.play_bots)
        self.log_html = html()
        keep_alive(self)  # see common.keep_alive: Voilà keeps no reference to it
        super().__init__([
            html("<h3>Hens: your barnyard</h3>"),
            self.seed_box,
            self.header,
            hbox([self.next_button, self.play_button]),
            html("<b>Draw from</b>"),
            self.source_box,
            html("<b>Your hand</b> (select a card, then a square)"),
            hbox(self.hand_buttons, flex_flow="row wrap"),
            hbox([self.coop_toggle, self.discard_button, self.no_rooster_button]),
            self.status,
            self.pool_line,
            self.grid_caption,
            self.grid,
            self.score_html,
            self.chart_toggle,
            self.score_chart,
            self.others_html,
            html("<b>What happened</b> (newest first):"),
            self.log_html,
            style_widget(cards=True),  # the drawn cards, coops and rooster; projector sizes
        ], layout=shared_layout())
        self.add_class(ROOT_CLASS)
        self.refresh()
        say(self.status, self._prompt())

    def _new_game(self, seats: list, seed: Seed, observer: Any) -> Game:
        rng = make_rng(seed)  # one generator: the deal, then every draw and bot choice
        return Game(State.new(len(seats), self.rules, seed=rng), seats, rng, observer=observer)

    def _restart(self, seed: int) -> str:
        """The seed box's restart: a new deal, goal and first player, all from `seed`."""
        self.game = self._new_game(self.game.bots, seed, self.game.observer)
        self.selected = None
        self.coop_toggle.value = False
        self.log_lines = []
        self._logged = 0
        self.refresh()
        return f"A new game with seed {seed}. " + self._prompt()

    # ----- the state -------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The engine state of the game."""
        return self.game.state  # type: ignore[return-value]

    @property
    def hand(self) -> tuple[Card, ...]:
        """Your hand."""
        return self.state.hands[self.human]

    @property
    def my_turn(self) -> bool:
        """True when you are to move."""
        return self.game.waiting_for_human

    # ----- your moves ------------------------------------------------------------------------
    def draw(self, source: int = DECK) -> None:
        """Draw a card: from the deck (DECK, -1) or the top of player `source`'s discard pile."""

        def act() -> str:
            s = self.state
            ok = type(source) is int and 0 <= source < s.players and s.discards[source]
            top = s.discards[source][-1] if ok else None
            self.game.play(Draw(source, top))
            if self.state.is_chance:
                self.game.step()  # the deck brings a card, drawn with the game's generator
                got = self.game.history[-1].action
                return f"You drew {card(got).describe()} from the deck."
            return f"You took {card(top).describe()} from {self.names[source]}'s discard pile."

        self._do(act)

    def select(self, k: Card | str | int) -> None:
        """Select a card of your hand (to place or discard)."""
        try:
            k = card(k)
            if k not in self.hand:
                raise ValueError(f"{k} is not in your hand ({' '.join(map(str, self.hand))})")
        except ValueError as e:
            say(self.status, str(e), error=True)
            return
        self.selected = k
        self.refresh()
        say(self.status, f"Selected {k.describe()}. " + self._prompt())

    def place(self, k: Card | str | int, cell: Cell, coop: bool | None = None) -> None:
        """Place card k at cell as a hen (or a coop: coop=True, default the coop checkbox)."""

        def act() -> str:
            kk = card(k)
            as_coop = self.coop_toggle.value if coop is None else bool(coop)
            action = PlaceCoop(kk, cell) if as_coop else Place(kk, cell)
            self.game.play(action)
            self.selected = None
            self.coop_toggle.value = False
            text = f"You {str(action).replace('place', 'placed', 1)}."
            if self.state.phase == "discard" and self.my_turn:
                text += " Now select a card to discard."
            return text

        self._do(act)

    def discard(self, k: Card | str | int) -> None:
        """Discard card k from your hand."""

        def act() -> str:
            kk = card(k)
            self.game.play(Discard(kk))
            self.selected = None
            return f"You discarded {kk.describe()}."

        self._do(act)

    def rooster(self, cell: Cell | None) -> None:
        """Put the rooster on your hen at cell (None only when you have no hen)."""

        def act() -> str:
            action = PlaceRooster(cell)
            self.game.play(action)
            return f"You chose to {action}; roosters are revealed once everyone has chosen."

        self._do(act)

    def click_cell(self, cell: Cell) -> None:
        """What clicking a cell does now: place the selected card, or put the rooster."""
        phase = self.state.phase
        if self.my_turn and phase == "rooster":
            self.rooster(cell)
        elif self.my_turn and phase == "place":
            if self.selected is None:
                say(self.status, "select a card of your hand first, then the square", error=True)
            else:
                self.place(self.selected, cell)
        else:
            say(self.status, f"you cannot place a card now: {self._prompt()}", error=True)

    def _discard(self) -> None:
        if self.selected is None:
            say(self.status, "select the card to discard first", error=True)
            return
        self.discard(self.selected)

    def _do(self, act) -> None:
        """Run your move; show what happened, or the engine's reason when it refuses."""
        try:
            if not self.my_turn:
                raise ValueError(self._prompt())
            text = act()
        except ValueError as e:
            self.refresh()
            say(self.status, str(e), error=True)
            return
        self._write_log()
        self.refresh()
        say(self.status, text + ("" if self.my_turn else " " + self._prompt()))

    # ----- bots ------------------------------------------------------------------------------
    def next_move(self) -> None:
        """One bot move (a deck draw lands at once); says why when it is not a bot's turn."""
        try:
            self._bot_move()
        except ValueError as e:
            self.refresh()
            say(self.status, str(e), error=True)
            return
        self.refresh()
        say(self.status, (self.log_lines[-1] + " " if self.log_lines else "") + self._prompt())

    def play_bots(self) -> None:
        """Let the bots play until you are to move or the game is over."""
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
        self.refresh()
        say(self.status, self._prompt())

    def _bots_turn(self) -> None:
        """ValueError saying why no bot can move now."""
        if self.state.is_over:
            raise ValueError("the game is over: no bot has a move left")
        if self.my_turn:
            raise ValueError(f"it is your turn: {self._prompt()}")

    def _bot_move(self) -> None:
        self._bots_turn()
        try:
            bot_move(self.game)  # the bot's choice, and a card it draws from the deck at once
        finally:
            self._write_log()

    # ----- the log ---------------------------------------------------------------------------
    def _write_log(self) -> None:
        g = self.game
        for i in range(self._logged, len(g.history)):
            step, before, after = g.history[i], g.states[i], g.states[i + 1]
            line = self._describe(step.player, step.action, before, after)
            if line:
                self.log_lines.append(line)
        self._logged = len(g.history)

    def _describe(self, player: int, action: object, before: State,
                  after: State) -> str:
        """One move in words, hiding what the human may not see."""
        who = before.player
        name = self.names[who]
        mine = who == self.human
        if player == CHANCE:
            return f"{name} drew {action} from the deck." if mine else \
                f"{name} drew a card from the deck."
        if isinstance(action, Draw):
            if action.source == DECK:
                return ""  # the chance line follows
            return f"{name} took {action.card} from {self.names[action.source]}'s discard pile."
        if isinstance(action, PlaceCoop):
            where = f"row {action.cell[0]}, column {action.cell[1]}"
            what = f"{action.card} face down" if mine else "a card face down"
            return f"{name} placed {what} as a chicken coop at {where}."
        if isinstance(action, Place):
            return f"{name} placed {action.card} at row {action.cell[0]}, column {action.cell[1]}."
        if isinstance(action, Discard):
            return f"{name} discarded {action.card}."
        if isinstance(action, PlaceRooster):
            text = f"{name} chose where the rooster goes."
            if after.round != before.round:  # everyone has chosen: the roosters are revealed
                cells = "; ".join(f"{self.names[q]}: {y.rooster_cell or 'no hen'}"
                                  for q, y in enumerate(after.barnyards))
                text += f" The roosters are revealed ({cells})."
            return text
        return f"{name}: {action}."

    # ----- drawing ---------------------------------------------------------------------------
    def _hand_button(self, i: int) -> w.Button:
        # The words are set by refresh(); a button starts with some (common.button needs them).
        b = button("card", "a card of your hand", lambda: self._click_hand(i))
        b.add_class("hk-card")  # drawn by its class (pieces): breed band and name, number, eggs
        b.add_class("hk-hand")
        return b

    def _click_hand(self, i: int) -> None:
        if i < len(self._hand):
            self.select(self._hand[i])

    def _cell_button(self, cell: Cell) -> w.Button:
        b = button("cell", f"row {cell[0]}, column {cell[1]}", lambda: self.click_cell(cell))
        b.add_class("hk-cell")
        return b

    def refresh(self) -> None:
        """Redraw everything from the engine's state."""
        s = self.state
        mine = self.my_turn
        legal = s.legal_actions() if mine else []
        if self.selected is not None and self.selected not in self.hand:
            self.selected = None
        bots_turn = not s.is_over and not mine
        self.next_button.disabled = self.play_button.disabled = not bots_turn
        self._show_header(s)
        self._show_sources(s, [a for a in legal if isinstance(a, Draw)])
        self._show_hand(s, mine)
        phase = s.phase
        self.coop_toggle.disabled = not (mine and phase == "place")
        self.discard_button.disabled = not (mine and phase == "discard")
        none_legal = PlaceRooster(None) in legal
        set_shown(self.no_rooster_button, none_legal)
        self._show_grid(s, set(legal))
        self._show_score()
        self._show_others(s)
        self.pool_line.refresh()
        self.log_html.value = log_html(list(reversed(self.log_lines[-LOG_SHOWN:])))

    def _show_header(self, s: State) -> None:
        goal = goal_card(s.goal)
        self.header.value = (
            f"<div>Round {min(s.round, 12)} of 12 · {esc(self.names[s.player])} to play "
            f"({s.phase}) · deck: {len(s.deck)} cards</div>"
            f"<div><b>Goal card {goal.number}</b>: top: {esc(goal.top.text)}; "
            f"bottom: {esc(goal.bottom.text)}</div>"
        )

    def _show_sources(self, s: State, draws: list[Draw]) -> None:
        key = tuple(draws)
        if key == self._sources:
            for b in self.source_buttons:
                if b.description.startswith("Draw from the deck"):
                    b.description = f"Draw from the deck ({len(s.deck)} cards)"
            return
        self._sources = key
        # Reuse the buttons, made once and kept: ipywidgets keeps a widget's model open until it
        # is closed (its registry holds it, so dropping it frees nothing), and a button made per
        # change would be one model more in the kernel and in every viewer's page.
        pool = self._source_pool
        while len(pool) < len(draws):
            i = len(pool)
            pool.append(button("draw", "a draw source", lambda i=i: self.draw(self._sources[i].source),
                               layout={"width": "auto"}))
        for b, d in zip(pool, draws, strict=False):
            if d.source == DECK:
                b.description = f"Draw from the deck ({len(s.deck)} cards)"
                b.tooltip = "Draw the top card of the deck (you see it, the others do not)"
                set_classes(b, ())
            else:
                name = self.names[d.source]
                b.description = f"Take {card_label(d.card)} from {name}"
                b.tooltip = f"Take {card_name(d.card)} from the top of {name}'s discard pile"
                set_classes(b, ("hk-source", card_class(d.card)))
        self.source_box.children = tuple(pool[: len(draws)])

    @property
    def source_buttons(self) -> list[w.Button]:
        """The draw sources shown now: the deck and the discard tops one may take."""
        return list(self.source_box.children)

    def _show_hand(self, s: State, mine: bool) -> None:
        self._hand = hand = self.hand
        # Copies of a kind are alike: the first button of the selected kind shows the selection.
        marked = hand.index(self.selected) if self.selected in hand else -1
        for i, b in enumerate(self.hand_buttons):
            if i >= len(hand):
                set_shown(b, False)
                continue
            k = hand[i]
            set_shown(b, True)
            chosen = i == marked
            b.description = card_label(k) + (SELECTED if chosen else "")
            b.tooltip = card_name(k) + (SELECTED if chosen else "")
            b.disabled = not mine
            set_classes(b, ("hk-card", "hk-hand", card_class(k), *(("hk-selected",) if chosen else ())))

    def _show_grid(self, s: State, legal: set) -> None:
        yard = s.barnyards[self.human]
        h, wd = yard.shape
        rows = [r for r in CELLS if r <= h]
        cols = [c for c in CELLS if c <= wd]
        phase = s.phase
        k = self.selected
        coop = self.coop_toggle.value
        children = []
        for r in rows:
            for c in cols:
                b = self.cells[(r, c)]
                children.append(b)
                self._show_cell(b, yard, (r, c), phase, k, coop, legal)
        if self.grid.children != tuple(children):
            self.grid.children = children
        template = f"repeat({len(cols)}, 6em)"
        if self.grid.layout.grid_template_columns != template:
            self.grid.layout.grid_template_columns = template
        self._show_caption(yard, phase, k, coop)

    def _show_caption(self, yard, phase: str, k: Card | None, coop: bool) -> None:
        h, wd = yard.shape if len(yard) else (0, 0)
        size = (f"{h} row{'s' if h != 1 else ''} by {wd} column{'s' if wd != 1 else ''}"
                if len(yard) else "empty")
        text = (f"<b>Your barnyard</b> ({esc(size)}; it must fit in a 3 by 4 or 4 by 3 box: "
                "grey squares are outside it).")
        if phase == "place" and self.my_turn and k is not None:
            what = "a chicken coop" if coop else esc(card_name(k))
            text += f" Green squares: where {what} may go."
        elif phase == "rooster" and self.my_turn:
            text += " Green squares: the hens the rooster may stand on."
        if self.grid_caption.value != text:
            self.grid_caption.value = text

    def _show_cell(self, b: w.Button, yard, cell: Cell, phase: str, k: Card | None,
                   coop: bool, legal: set) -> None:
        r, c = cell
        where = f"row {r}, column {c}"
        hen = yard.at(cell) if 0 <= r and 0 <= c else None
        b.disabled = False
        b.button_style = ""
        h, wd = yard.shape
        inside = len(yard) and 0 <= r < h and 0 <= c < wd
        frame = ("hk-cell", *(("hk-in-yard",) if inside else ()))
        if hen is not None:
            rooster = yard.rooster_cell == cell
            b.description = str(hen)  # the card's code; the card and the rooster are drawn
            b.tooltip = f"{card_name(hen)}, with the rooster, at {where}" if rooster else \
                f"{card_name(hen)} at {where}"
            marks = ["hk-card", card_class(hen), *(["hk-rooster"] if rooster else [])]
            if phase == "rooster" and PlaceRooster(cell) in legal:
                b.tooltip = f"{card_name(hen)} at {where}: click to put the rooster here"
                b.button_style = "warning"
                marks.append("hk-legal")
            set_classes(b, (*frame, *marks))
            return
        if 0 <= r and 0 <= c and yard.is_coop(cell):
            card_inside = yard.coop_card(cell)
            b.description = "coop"
            b.tooltip = f"a chicken coop at {where}" + (
                f" ({card_inside} face down)" if card_inside else "")
            set_classes(b, (*frame, "hk-coop"))
            return
        b.description = ""
        # Outside the 3 by 4 / 4 by 3 box: a card there would break the box rule.
        out = bool(len(yard)) and box_problem(yard, cell) is not None
        if phase != "place" or not legal or k is None:
            b.tooltip = f"empty, {where}" + (f" (outside the box: {BOX_RULE})" if out else "")
            set_classes(b, (*frame, *(("hk-outside",) if out else ())))
            return
        action = PlaceCoop(k, cell) if coop else Place(k, cell)
        if action in legal:
            b.description = "+ coop" if coop else f"+ {k}"
            b.button_style = "success"
            b.tooltip = f"{action} (legal)"
            set_classes(b, (*frame, "hk-legal"))
            return
        try:
            yard.check_place(k, cell, coop)
            b.tooltip = f"{action} is not allowed now"  # pragma: no cover - engine says legal
        except ValueError as e:
            b.tooltip = str(e)  # the engine's reason: the cell, the neighbour and the rule
        set_classes(b, (*frame, *(("hk-outside",) if out else ())))

    def cell_reason(self, cell: Cell) -> str:
        """What a cell's tooltip says right now (legal, or the engine's reason why not)."""
        return self.cells[cell].tooltip

    def _show_score(self) -> None:
        s = self.state
        sc = score(s.barnyards[self.human], s.goal)
        rows = "".join(f"<tr><th scope='row' style='text-align:left;font-weight:normal'>"
                       f"{esc(x.step)}</th><td style='text-align:right'>{x.points:+d}</td>"
                       f"<td>{esc(x.reason)}</td></tr>" for x in sc.lines)
        # Header cells name the columns and rows for screen readers; the caption is the title.
        self.score_html.value = (
            "<table><caption style='text-align:left'><b>Your score</b></caption>"
            "<thead><tr><th scope='col' style='text-align:left'>step</th>"
            "<th scope='col'>points</th><th scope='col' style='text-align:left'>why</th></tr>"
            "</thead><tbody>" + rows + "</tbody><tfoot><tr><th scope='row' "
            f"style='text-align:left'>total</th><td style='text-align:right'><b>{sc.total}</b>"
            "</td><td></td></tr></tfoot></table>"
        )
        if self.chart_toggle.value:
            from henkit.charts.hens import score_waterfall

            show_figure(self.score_chart, score_waterfall(sc, "Your score, step by step"),
                        alt=str(sc))
        else:
            self.score_chart.outputs = ()

    def _show_others(self, s: State) -> None:
        if s.is_over:
            totals = s.scores()
            winners = set(s.winners())
            rows = "".join(
                f"<tr><td>{esc(self.names[p])}{' (winner)' if p in winners else ''}</td>"
                f"<td style='text-align:right'>{totals[p]}</td></tr>" for p in range(s.players)
            )
            yards = "".join(f"<div>{esc(self.names[p])}<br>"
                            f"{yard_html(s.barnyards[p], self.names[p])}</div>"
                            for p in range(s.players))
            self.others_html.value = ("<b>Final scores</b><table><tr><th scope='col'>Player</th>"
                                      f"<th scope='col'>Points</th></tr>{rows}</table>{yards}")
            return
        view = s.view(self.human)
        parts = []
        for q in range(s.players):
            if q == self.human:
                continue
            pile = view.discards[q]
            top = pile[-1] if pile else "empty"
            parts.append(
                f"<div><b>{esc(self.names[q])}</b>: {count(view.hand_sizes[q], 'card')} in hand, "
                f"discard top {esc(top)}, {count(len(view.barnyards[q]), 'card')} placed<br>"
                f"{yard_html(view.barnyards[q], self.names[q])}</div>"
            )
        value = "<b>The other barnyards</b> (the houses are face-down coops)" + "".join(parts)
        if self.others_html.value != value:
            self.others_html.value = value

    def _prompt(self) -> str:
        s = self.state
        if s.is_over:
            totals = s.scores()
            win = s.winners()
            names = " and ".join(self.names[p] for p in win)
            verb = "share the win" if len(win) > 1 else "wins"
            scores = ", ".join(f"{self.names[p]} {totals[p]}" for p in range(s.players))
            return f"Game over: {names} {verb} (points: {scores})."
        if not self.my_turn:
            return f"{self.names[s.player]} is to play: press Next bot move or Let bots play."
        return {
            "draw": "Your turn: draw a card (the deck or a discard top).",
            "place": "Select a card, then click a green square (tick the coop box to place it face "
                     "down).",
            "discard": "Select a card and press Discard to get down to 4 cards.",
            "rooster": "Put the rooster on one of your hens: click a hen.",
        }.get(s.phase, "")
