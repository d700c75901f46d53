"""The arena: choose a game, bots, games and a seed; run a tournament; see who wins and how surely.

The tournament is `henkit.arena.run_tournament` (seeded, the same records on any executor); the
charts are `henkit.charts.arena`'s win rates and mean scores with 95% intervals. The widget only
collects the settings, reports progress on an `IntProgress` bar and shows the results.

Seeds as in every widget that deals or rolls (`seeding`): a notebook plays the seed it gives;
on a dashboard each viewer starts from a fresh seed unless the lesson pins it (`pin_seed`), and
"New seed" draws one. The seed stays a number field: a tournament runs only on its button.

The arena writes nothing to the class pool, on purpose: one click plays hundreds of bot games,
tens of thousands of rolls or draws that would swamp the students' own on the class board (it
pools what students roll and draw, to compare with the exact chances), and its tournaments are
already kept, by seed, in henkit's results cache.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import Executor

import ipywidgets as w

from henkit.arena import MAX_GAMES, SERIAL, Tournament, run_tournament
from henkit.checks import whole
from henkit.widgets.common import (
    Guarded,
    build,
    button,
    esc,
    figure_output,
    flag,
    hbox,
    html,
    keep_alive,
    say,
    set_shown,
    shared_layout,
    status_line,
)
from henkit.widgets.pieces import ROOT_CLASS, style_widget
from henkit.widgets.seeding import PINNED, fresh_seed, start_seed

BOT_CHOICES: Mapping[str, tuple[str, ...]] = {
    "henpen": ("optimal", "greedy", "random", "threshold:20", "threshold:25", "threshold:28",
               "threshold:30"),
    "hens": ("lookahead", "greedy", "random"),
}
"""Bot specs offered per game (any `make_bot` spec works through `Arena.set_bots`)."""
SEATS: Mapping[str, tuple[int, int]] = {"henpen": (2, 7), "hens": (2, 4)}
UNITS = {"henpen": "worms", "hens": "points"}
MAX_SEED = 2**31 - 1
"""The largest seed the seed box takes."""


def _specs(game: str, bots: object) -> list[str]:
    """Bot specs (strings) for `game`'s seats; ValueError otherwise. A spec the game's
    `make_bot` refuses is reported on the status line when the tournament runs."""
    lo, hi = SEATS[game]
    if isinstance(bots, str | bytes) or not isinstance(bots, Sequence):
        raise ValueError(f"bots must be a list of bot specs, e.g. ['greedy', 'random'], not {bots!r}")
    specs = list(bots)
    if not lo <= len(specs) <= hi:
        raise ValueError(f"{game} needs {lo} to {hi} bots, not {len(specs)}")
    for spec in specs:
        if not isinstance(spec, str):
            raise ValueError(f"bots are given by spec strings (e.g. 'greedy'), not {spec!r}")
    return specs


class Arena(Guarded, w.VBox):
    """Run a seeded tournament between bots and show win rates, mean scores and a table.

    `executor` is any concurrent.futures Executor for the games. By default the games are
    played in the kernel itself: a dashboard shared by a class must not start a process pool for
    every viewer, and in-process play moves the progress bar just as well.
    `seed` is the notebook's; on a dashboard each viewer starts from a fresh seed unless
    `pin_seed=True` (the lesson's seed, whose tournaments the results cache then holds).
    """

    def __init__(
        self,
        game: str = "henpen",
        bots: Sequence[str] = ("optimal", "greedy"),
        games: int = 100,
        seed: int = 0,
        *,
        executor: Executor | str | None = SERIAL,
        show_chart: bool = True,
        pin_seed: bool = False,
    ) -> None:
        if not isinstance(game, str) or game not in BOT_CHOICES:
            raise ValueError(f"game must be one of {', '.join(BOT_CHOICES)}, not {game!r}")
        bots = _specs(game, bots)
        games = whole(games, "games", 1, MAX_GAMES)
        seed = whole(seed, "seed", 0, MAX_SEED)
        self.pinned_seed = seed if flag(pin_seed, "pin_seed") else None
        seed = int(start_seed(seed, pin_seed))  # an int seed gives an int
        if not (
            executor is None
            or (isinstance(executor, str) and executor == SERIAL)
            or isinstance(executor, Executor)
            or callable(getattr(executor, "submit", None))
        ):
            raise ValueError(f"executor must be a concurrent.futures Executor, {SERIAL!r} or "
                             f"None (henkit.arena's default), not {executor!r}")
        show_chart = flag(show_chart, "show_chart")
        self.executor = executor
        self.tournament: Tournament | None = None
        self.game_select = build(
            w.Dropdown, options=[("Henpen (dice)", "henpen"), ("Hens (cards)", "hens")], value=game,
            description="Game", tooltip="Which game the bots play",
        )
        self.seats = build(w.BoundedIntText, value=len(bots), min=2, max=7, description="Bots",
                                      tooltip="How many bots sit at the table")
        self.bot_box = build(w.VBox)
        self.bot_selects: list[w.Dropdown] = []
        self._select_pool: list[w.Dropdown] = []  # made once, reused (see _fit_seats)
        self.games = build(w.BoundedIntText, value=games, min=1, max=MAX_GAMES, description="Games",
                                      tooltip="How many games to play")
        self.seed = build(w.BoundedIntText, value=seed, min=0, max=MAX_SEED, description="Seed",
                                     tooltip="The same seed gives the same games")
        self.new_seed_button = button("New seed", "Put a fresh random seed in the seed box "
                                      "(then press Run tournament)", self.new_seed)
        self.seed_note = html(margin="0 0 0 1em", display="none")  # shown when it has a note
        self.seed.observe(lambda _c: self._show_seed_note(), names="value")
        self._show_seed_note()
        self.rotate = build(w.Checkbox, value=True, indent=False, description="Rotate seats",
                                 tooltip="Every bot plays every seat equally often")
        self.run_button = button("Run tournament", "Play the games and show the results", self.run,
                                 button_style="primary")
        self.progress = build(w.IntProgress, value=0, min=0, max=1, description="Progress",
                                      tooltip="Games played so far")
        self.status = status_line()
        self.show_chart = show_chart
        self.charts = build(w.Output)
        self.table_html = html()
        self.game_select.observe(lambda _c: self._new_game(), names="value")
        self.seats.observe(lambda _c: self._fit_seats(), names="value")
        self._new_game(bots)
        keep_alive(self)  # see common.keep_alive: Voilà keeps no reference to it
        super().__init__([
            html("<h3>Strategy arena</h3>"),
            hbox([self.game_select, self.seats]),
            self.bot_box,
            hbox([self.games, self.seed, self.new_seed_button, self.rotate], flex_flow="row wrap"),
            self.seed_note,
            hbox([self.run_button, self.progress]),
            self.status,
            self.table_html,
            self.charts,
            style_widget(),  # projector sizes and readable button colours
        ], layout=shared_layout())
        self.add_class(ROOT_CLASS)
        say(self.status, "Choose the bots, the number of games and a seed, then press Run.")

    # ----- settings --------------------------------------------------------------------------
    @property
    def game(self) -> str:
        """The chosen game: 'henpen' or 'hens'."""
        return self.game_select.value

    @property
    def bots(self) -> list[str]:
        """The chosen bot specs, one per seat."""
        return [d.value for d in self.bot_selects]

    def set_bots(self, bots: Sequence[str]) -> None:
        """Seat these bots (specs of the chosen game; unknown specs are added to the choices)."""
        bots = _specs(self.game, bots)
        self.seats.value = len(bots)  # _fit_seats makes the dropdowns
        for d, spec in zip(self.bot_selects, bots, strict=True):
            if spec not in d.options:
                d.options = (*d.options, spec)
            d.value = spec

    def new_seed(self) -> None:
        """Put a fresh random seed in the seed box (the "New seed" button); Run plays it."""
        seed = fresh_seed()
        while seed == self.seed.value:  # pragma: no cover - one chance in a million
            seed = fresh_seed()
        self.seed.value = seed
        say(self.status, f"New seed {seed}: press Run tournament to play its games.")

    def _show_seed_note(self) -> None:
        pinned = self.pinned_seed
        if pinned is None:
            text = ""
        elif self.seed.value == pinned:
            text = PINNED.format(what="games")
        else:
            text = f"the lesson pinned seed {pinned}: type it to play the class's games"
        self.seed_note.value = f"<i>{esc(text)}</i>" if text else ""
        set_shown(self.seed_note, bool(text))

    def _new_game(self, bots: Sequence[str] | None = None) -> None:
        lo, hi = SEATS[self.game]
        self.bot_selects = []
        self.seats.min, self.seats.max = lo, hi
        choices = BOT_CHOICES[self.game]
        wanted = _specs(self.game, bots) if bots else list(choices[:2])
        self.seats.value = len(wanted)
        self._fit_seats()
        self.set_bots(wanted)
        self.tournament = None

    def _fit_seats(self) -> None:
        n = self.seats.value
        choices = BOT_CHOICES[self.game]
        # Reuse the dropdowns: ipywidgets keeps a dropped widget's model open (its registry holds
        # it), so a dropdown made per change was a leak, 3 models a seat. A seat added (or every
        # seat, for a new game) starts from the game's choices, as a new one would.
        pool = self._select_pool
        while len(pool) < n:
            i = len(pool)
            pool.append(build(
                w.Dropdown, options=choices, value=choices[i % len(choices)],
                description=f"Seat {i + 1}", tooltip=f"The bot in seat {i + 1}",
            ))
        for i in range(len(self.bot_selects), n):
            d = pool[i]
            if tuple(d.options) != tuple(choices):
                d.options = choices
            d.value = choices[i % len(choices)]
        self.bot_selects = pool[:n]
        if self.bot_box.children != tuple(self.bot_selects):
            self.bot_box.children = tuple(self.bot_selects)

    # ----- running ---------------------------------------------------------------------------
    def run(self) -> Tournament | None:
        """Play the tournament with the chosen settings and show its results."""
        self.run_button.disabled = True
        self.progress.value = 0
        self.progress.max = max(1, self.games.value)
        say(self.status, f"Playing {self.games.value} games of {self.game}...")

        def progress(done: int, total: int) -> None:
            self.progress.max = max(1, total)
            self.progress.value = done

        try:
            t = run_tournament(self.game, self.bots, self.games.value, self.seed.value,
                               rotate=self.rotate.value, executor=self.executor,
                               on_progress=progress)
        except ValueError as e:
            say(self.status, str(e), error=True)
            return None
        finally:
            self.run_button.disabled = False
        self.tournament = t
        self._show(t)
        best = max(t.summary(), key=lambda s: s.win_rate)
        # Games another run already played with these settings are read, not replayed: say so,
        # or a student timing a rerun would wonder how 320 games took no time.
        if t.cached:
            done = (f"{t.games} games (seed {t.seed}): {t.games - t.cached} played, {t.cached} "
                    "read from henkit's results cache")
        else:
            done = f"Played {t.games} games (seed {t.seed})"
        unit = UNITS[t.game]
        say(self.status, f"{done}. Most wins: {best.bot}, {best.win_rate:.1%} of its "
                         f"{best.games} games (95% interval {best.win_low:.1%} to "
                         f"{best.win_high:.1%}), mean {best.mean_score:.2f} {unit} "
                         f"({best.score_low:.2f} to {best.score_high:.2f}).")
        return t

    def _show(self, t: Tournament) -> None:
        unit = UNITS[t.game]
        rows = "".join(
            f"<tr><th scope='row'>{esc(s.bot)}</th><td>{s.games}</td><td>{s.wins:g}</td>"
            f"<td>{s.win_rate:.1%}</td><td>{s.win_low:.1%} to {s.win_high:.1%}</td>"
            f"<td>{s.mean_score:.2f}</td><td>{s.score_low:.2f} to {s.score_high:.2f}</td></tr>"
            for s in t.summary()
        )
        self.table_html.value = (
            "<table><thead><tr><th scope='col'>Bot</th><th scope='col'>Games</th>"
            "<th scope='col'>Wins</th><th scope='col'>Win rate</th><th scope='col'>Win rate: "
            f"95% interval</th><th scope='col'>Mean {unit}</th><th scope='col'>Mean {unit}: 95% "
            f"interval</th></tr></thead><tbody>{rows}</tbody></table>"
            "<div>A shared win counts as a fraction. Intervals: Wilson for win rates, mean ± 1.96 "
            "standard errors for scores.</div>"
        )
        if not self.show_chart:
            self.charts.outputs = ()
            return
        from henkit.charts.arena import mean_score_chart, win_rate_chart
        self.charts.outputs = (
            figure_output(win_rate_chart(t), alt=t.table()),
            figure_output(mean_score_chart(t, unit=unit), alt=t.table()),
        )
