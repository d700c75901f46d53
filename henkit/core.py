"""What both games share: the state protocol, the bot protocol, the game loop and the seating rule.

Every state in henkit is immutable: `apply` returns a new state and never changes the old one.
Chance (dice, a shuffled deck) is a player of its own: at a chance node `is_chance` is true and
`chance_outcomes()` lists every outcome with its exact probability.

One game loop, `play_out`, plays every game in henkit: `simulate` of both games, the arena's
tournaments, and `Game` (the widgets' and the terminal's games, with a history). At a chance
node it applies `state.sample_chance(rng)`, otherwise the move `bots[player].choose(state, rng)`;
an optional observer sees every move.

One seating rule, `seating`, says who sits where in game g of a series and with which seed; a
series of games is `play_series` (both games' `simulate`) or game by game `play_seated` (the
arena, which builds fresh bots for every game). Every finished game is a `GameResult`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

import numpy as np

from henkit.checks import MAX_GAMES, whole

CHANCE = -1
"""The `current_player` of a chance node."""
TERMINAL = -2
"""The `current_player` of a finished game."""

Seed = int | np.integer | np.random.Generator | None


def make_rng(seed: Seed) -> np.random.Generator:
    """Return a numpy Generator from a seed (a whole number 0 or more, or None for a fresh
    random one), or the Generator itself when one is given."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        return np.random.default_rng()
    try:
        value = whole(seed, "seed", 0)
    except ValueError:
        raise ValueError("seed must be a whole number 0 or more, a numpy Generator or None, "
                         f"not {seed!r}") from None
    return np.random.default_rng(value)


@runtime_checkable
class GameState(Protocol):
    """The shape every game state in henkit has (modelled on OpenSpiel's).

    Both games' `State` also have the constructors `State.new(players=2, rules=None, *,
    seed=None, first_player=None)`, `State.from_dict(d)` and `State.from_json(text)`.
    """

    @property
    def players(self) -> int:
        """How many players the game has."""
        ...

    @property
    def current_player(self) -> int:
        """The player to move; CHANCE at a chance node, TERMINAL once the game is over."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        ...

    @property
    def is_chance(self) -> bool:
        """True when chance (dice, the deck) moves next."""
        ...

    @property
    def phase(self) -> str:
        """The phase of play: a member of the game's `Phase` (a str enum)."""
        ...

    def legal_actions(self) -> list[Any]:
        """Every action the player to move may take (none at a chance node or the end)."""
        ...

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        """Every outcome of a chance node with its exact probability; they sum to 1."""
        ...

    def sample_chance(self, rng: np.random.Generator) -> Any:
        """One outcome of a chance node, drawn with `rng` from `chance_outcomes()`."""
        ...

    def apply(self, action: Any) -> GameState:
        """The state after `action`; the state itself never changes. ValueError if illegal."""
        ...

    def scores(self) -> tuple[int, ...]:
        """Every player's score (Henpen: worms; Hens: points)."""
        ...

    def winners(self) -> tuple[int, ...]:
        """The winning seats of a finished game (more than one on a shared win)."""
        ...

    def view(self, player: int) -> Any:
        """What `player` can see (Henpen: the state itself; Hens: a View)."""
        ...

    def validate(self) -> None:
        """ValueError if the rules cannot reach this state."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the state's fields (and "game")."""
        ...

    def to_json(self) -> str:
        """`to_dict()` as JSON text."""
        ...

    def describe(self) -> str:
        """The position in words."""
        ...


class Bot(Protocol):
    """A player: `choose(state, rng)` returns one of `state.legal_actions()`."""

    name: str

    def choose(self, state: Any, rng: np.random.Generator) -> Hashable:
        """The bot's action at `state` (a decision node of its own), using `rng` for any chance."""
        ...


@dataclass(frozen=True)
class Step:
    """One move of a game: who moved (CHANCE for dice and deck), and what."""

    player: int
    action: Any


Observer = Callable[[GameState, Step, GameState], None]
"""Called after every move with (state before, the move, state after)."""

LOOP_NEEDS = ("players", "current_player", "is_over", "is_chance", "sample_chance", "apply")
"""What the game loop reads of a state (of the GameState protocol)."""


# -- the game loop -----------------------------------------------------------------------------


def check_bots(bots: Any, humans: bool = False) -> list[Any]:
    """`bots` as a list, each with a `choose(state, rng)` method (None for a human if
    `humans`); ValueError naming the seat otherwise."""
    if isinstance(bots, str | bytes | dict) or not isinstance(bots, Sequence | list | tuple):
        raise ValueError(f"bots must be a list of bots, one per seat, not {bots!r}")
    out = list(bots)
    if not out:
        raise ValueError("bots must name at least one bot: one per seat")
    for i, bot in enumerate(out):
        if bot is None and humans:
            continue
        if not callable(getattr(bot, "choose", None)):
            what = "a bot (None for a human)" if humans else "a bot"
            raise ValueError(f"seat {i} (player {i + 1}) needs {what} with a choose(state, rng) "
                             f"method, not {bot!r}")
    return out


def check_state(state: object) -> GameState:
    """`state` if the game loop can play it (a henkit game state); ValueError otherwise."""
    if not all(hasattr(state, a) for a in LOOP_NEEDS):
        raise ValueError(f"state must be a henkit game state (e.g. henkit.henpen.State), "
                         f"not {state!r}")
    return state  # type: ignore[return-value]


def play_out(
    state: GameState,
    bots: Sequence[Bot | None],
    rng: Seed,
    *,
    observer: Observer | None = None,
    until: Callable[[GameState], bool] | None = None,
    max_moves: int | None = None,
) -> GameState:
    """The game loop: play `state` forward and return the state where it stopped.

    At a chance node it applies `state.sample_chance(rng)`; otherwise the move
    `bots[p].choose(state, rng)` of the player p to move. It stops when the game is over, when
    a human (a `None` bot) is to move, when `until(state)` is true (asked before every move),
    or after `max_moves` moves. `observer(before, Step(player, action), after)` is called after
    every move; without an observer nothing is kept (the fast path of `simulate`).
    `rng`: a numpy Generator (or a seed for a new one).
    """
    s = check_state(state)
    bots = check_bots(bots, humans=True)
    if len(bots) != s.players:
        raise ValueError(f"a game of {s.players} players needs {s.players} bots (None for a "
                         f"human), not {len(bots)}")
    rng = make_rng(rng)
    for what, f in (("observer", observer), ("until", until)):
        if f is not None and not callable(f):
            raise ValueError(f"{what} must be a function or None, not {f!r}")
    if max_moves is not None:
        max_moves = whole(max_moves, "max_moves", 1)
    return _play_out(s, bots, rng, observer, until, max_moves)


def _play_out(
    s: GameState,
    bots: list[Bot | None],
    rng: np.random.Generator,
    observer: Observer | None = None,
    until: Callable[[GameState], bool] | None = None,
    max_moves: int | None = None,
) -> GameState:
    """`play_out` on checked arguments (one bot or None per seat, a Generator): the loop."""
    if observer is None and until is None and max_moves is None:
        # The fast path of `simulate`: the same moves as the loop below, with nothing to ask
        # or tell between them.
        while True:
            p = s.current_player
            if p >= 0:
                bot = bots[p]
                if bot is None:
                    return s
                s = s.apply(bot.choose(s, rng))
            elif p == CHANCE:
                s = s.apply(s.sample_chance(rng))
            else:
                return s
    moves = 0
    # One property read per move (current_player is CHANCE or TERMINAL when no player moves).
    while True:
        if until is not None and until(s):
            return s
        p = s.current_player
        if p >= 0:
            bot = bots[p]
            if bot is None:
                return s
            action = bot.choose(s, rng)
        elif p == CHANCE:
            action = s.sample_chance(rng)
        else:
            return s
        after = s.apply(action)
        if observer is not None:
            observer(s, Step(p, action), after)
        s = after
        if max_moves is not None:
            moves += 1
            if moves >= max_moves:
                return s


# -- one game with a history (widgets, the terminal) -------------------------------------------


@dataclass
class Game:
    """Plays a state forward with a seeded generator and bots, keeping the history for replay.

    `bots[i]` plays player i; `None` marks a human, whose moves are given to `play(action)`.
    `history[i]` is move i and `states[i]` the state before it (`states[-1]` is `state`).
    `observer(before, step, after)`, if given, sees every move (after the history has it).
    The moves of bots and chance are made by `play_out`, the loop every henkit game uses.
    """

    state: GameState
    bots: Sequence[Bot | None]
    seed: Seed = None
    observer: Observer | None = None
    history: list[Step] = field(default_factory=list, init=False)
    states: list[GameState] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        check_state(self.state)
        self.rng = make_rng(self.seed)
        self.bots = check_bots(self.bots, humans=True)
        players = self.state.players
        if len(self.bots) != players:
            raise ValueError(f"a game of {players} players needs {players} bots (None for a "
                             f"human), not {len(self.bots)}")
        if self.observer is not None and not callable(self.observer):
            raise ValueError(f"observer must be a function of (before, step, after), "
                             f"not {self.observer!r}")
        self.states = [self.state]

    def _record(self, before: GameState, step: Step, after: GameState) -> None:
        self.history.append(step)
        self.states.append(after)
        self.state = after
        if self.observer is not None:
            self.observer(before, step, after)

    @property
    def waiting_for_human(self) -> bool:
        """True when the game is not over and the player to move is a human."""
        p = self.state.current_player
        return p >= 0 and self.bots[p] is None

    def play(self, action: Any) -> GameState:
        """Apply one action (a human's, a bot's or a chance outcome) and record it."""
        before = self.state
        player = before.current_player
        after = before.apply(action)  # raises ValueError and leaves everything as it was
        self._record(before, Step(player, action), after)
        return after

    def step(self) -> GameState:
        """Advance by one move of chance or of a bot; a human's turn raises ValueError."""
        s = self.state
        if s.is_over:
            raise ValueError("the game is over: no move is left to play")
        if self.waiting_for_human:
            p = s.current_player
            raise ValueError(f"player {p + 1} (seat {p}) is a human: give their move to play()")
        return play_out(s, self.bots, self.rng, observer=self._record, max_moves=1)

    def advance(
        self, until: Callable[[GameState], bool] | None = None, max_moves: int | None = None
    ) -> GameState:
        """Step chance and bots until a human must move, the game ends, `until(state)` (asked
        before every move) or after `max_moves` moves; every move is recorded."""
        if until is not None and not callable(until):
            raise ValueError(f"until must be a function of the state, or None, not {until!r}")
        return play_out(self.state, self.bots, self.rng, observer=self._record, until=until,
                        max_moves=max_moves)

    def run(self) -> GameState:
        """Play to the end; every player must be a bot."""
        if any(b is None for b in self.bots):
            raise ValueError("run() needs a bot for every player; use advance() with humans")
        return self.advance()


# -- the seating rule and series of games ------------------------------------------------------


def seating(game: int, players: int, seed: int, rotate: bool = True) -> tuple[int, tuple[int, ...]]:
    """Seed and seating of game `game` of a series: (seed, seats), seats[s] = the bot in seat s.

    The one seating rule of henkit (both games' `simulate` and the arena):
    - rotate=True: games come in deals of k games for k bots. Deal d = game // k is played with
      seed `seed + d`, once in each rotation of the seating: game d*k + r puts bot (s + r) mod k
      in seat s. Every bot plays every seat equally often (exactly when the number of games is
      a multiple of k) and meets the same starting luck (first dice, Hens' deal and goal).
    - rotate=False: bot i sits in seat i, and game g has seed `seed + g`.
    Who starts is the game's own rule: Henpen's seat 0; Hens' first player is drawn from the
    seed (rulebook: the first player is chosen at random).
    """
    return _seating(whole(game, "game", 0), whole(players, "players", 1, MAX_SEATS),
                    whole(seed, "seed", 0), rotate)


def _seating(g: int, k: int, base: int, rotate: bool) -> tuple[int, tuple[int, ...]]:
    """`seating` of checked whole numbers: the rule itself."""
    if not rotate:
        return base + g, tuple(range(k))
    deal, r = divmod(g, k)
    return base + deal, tuple((s + r) % k for s in range(k))


def seating_text(games: int, players: int, seed: int, rotate: bool = True) -> str:
    """`seating`'s rule for a series in words (for a table's heading), e.g.
    '6 games, seeds 1 to 3, each seed played in all 2 seatings' or
    '6 games, seeds 1 to 6, bot i in seat i'."""
    n = whole(games, "games", 1)
    k = whole(players, "players", 1, MAX_SEATS)
    last, _ = seating(n - 1, k, seed, rotate)
    first, _ = seating(0, k, seed, rotate)
    seeds = f"seed {first}" if first == last else f"seeds {first} to {last}"
    what = f"{n} game{'s' if n != 1 else ''}, {seeds}"
    if not rotate or k == 1:
        return f"{what}, bot i in seat i"
    return f"{what}, each seed played in all {k} seatings" + (
        "" if n % k == 0 else f" (seed {last} in only {n % k})")


MAX_SEATS = 100
"""More seats than any game of henkit has (Henpen: 7), a guard for `seating`."""


@dataclass(frozen=True)
class GameResult:
    """One finished game of a series: its number, seed, who sat where, scores and winners.

    The one result type of henkit: both games' `simulate` and the arena's records. `final` is
    the finished state (None in the arena's records, which travel between processes and into
    the results cache); it plays no part in comparisons.
    """

    game: int  # 0, 1, ... in the series
    seed: int
    seats: tuple[int, ...]  # seats[s]: index (in the series' bots) of the bot in seat s
    bots: tuple[str, ...]  # bot label by seat
    totals: tuple[int, ...]  # score by seat (worms in Henpen, points in Hens)
    winners: tuple[int, ...]  # winning seats (several on a shared win)
    first_player: int  # the seat that moved first
    final: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Checked and normalised once (numpy integers become ints): results travel between
        # processes and into the results cache as plain data.
        def ints(x: object, what: str, low: int | None = None, high: int | None = None,
                 ) -> tuple[int, ...]:
            if isinstance(x, str | bytes) or not isinstance(x, Sequence):
                raise ValueError(f"a GameResult's {what} must be a tuple of whole numbers, "
                                 f"not {x!r}")
            return tuple(whole(v, f"each of a GameResult's {what}", low, high) for v in x)

        k = len(ints(self.seats, "seats"))
        put = object.__setattr__
        put(self, "game", whole(self.game, "a GameResult's game", 0))
        if self.seed is not None:
            put(self, "seed", whole(self.seed, "a GameResult's seed", 0))
        put(self, "seats", ints(self.seats, "seats", 0))
        put(self, "totals", ints(self.totals, "totals"))
        put(self, "winners", ints(self.winners, "winners", 0, k - 1))
        put(self, "first_player", whole(self.first_player, "a GameResult's first_player", 0,
                                        max(0, k - 1)))
        if (isinstance(self.bots, str) or not isinstance(self.bots, Sequence)
                or not all(isinstance(b, str) for b in self.bots)):
            raise ValueError(f"a GameResult's bots must be a tuple of names, not {self.bots!r}")
        put(self, "bots", tuple(self.bots))
        if not (len(self.bots) == len(self.totals) == k) or not self.winners:
            raise ValueError("a GameResult needs one bot and one total per seat, and a winner")

    @classmethod
    def _of_play(cls, game: int, seed: int, seats: tuple[int, ...], bots: tuple[str, ...],
                 totals: tuple[int, ...], winners: tuple[int, ...], first_player: int,
                 final: Any) -> GameResult:
        """A result of a game `play_series` has just played, from values it checked once for
        the series (plain ints and tuples of them, bot labels): not checked again per game."""
        r = object.__new__(cls)
        put = object.__setattr__
        put(r, "game", game)
        put(r, "seed", seed)
        put(r, "seats", seats)
        put(r, "bots", bots)
        put(r, "totals", totals)
        put(r, "winners", winners)
        put(r, "first_player", first_player)
        put(r, "final", final)
        return r

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (without the final state; use `final.to_dict()` for that)."""
        return {"game": self.game, "seed": self.seed, "seats": list(self.seats),
                "bots": list(self.bots), "totals": list(self.totals),
                "winners": list(self.winners), "first_player": self.first_player}


def unique_labels(names: Sequence[str]) -> tuple[str, ...]:
    """Bot names made unique for a table: ['greedy', 'random', 'greedy'] ->
    ('greedy #1', 'random', 'greedy #2')."""
    if isinstance(names, str | bytes) or not isinstance(names, Sequence):
        raise ValueError(f"names must be a list of bot names, not {names!r}")
    names = [str(n) for n in names]
    out = []
    for i, name in enumerate(names):
        n = names[:i].count(name)
        out.append(name if n == 0 and names.count(name) == 1 else f"{name} #{n + 1}")
    return tuple(out)


def bot_labels(bots: Sequence[Bot]) -> tuple[str, ...]:
    """The bots' names (a bot without one is called by its class), made unique."""
    return unique_labels([getattr(b, "name", None) or type(b).__name__
                          for b in check_bots(bots)])


NewState = Callable[..., GameState]
"""A game's constructor, called as new(players, rules, seed=rng): `State.new` of either game."""


def play_seated(
    new: NewState,
    bots: Sequence[Bot],
    game: int,
    seed: int,
    rules: Any = None,
    *,
    rotate: bool = True,
    labels: Sequence[str] | None = None,
    observer: Observer | None = None,
) -> GameResult:
    """Play game `game` of a series between `bots` (bots[b] is bot b), seated by `seating`.

    One generator, made from the game's seed, sets the game up (`new(players, rules,
    seed=rng)`: Hens' deal, goal and first player) and then plays it. `labels[b]` names bot b
    in the result (default: the bots' names, made unique).
    """
    if not callable(new):
        raise ValueError(f"new must be a game's State.new, not {new!r}")
    bots = check_bots(bots)
    if not isinstance(rotate, bool | np.bool_):
        raise ValueError(f"rotate must be True or False, not {rotate!r}")
    if labels is not None and (
        isinstance(labels, str) or not isinstance(labels, Sequence) or len(labels) != len(bots)
        or not all(isinstance(x, str) for x in labels)
    ):
        raise ValueError(f"labels must be one text per bot ({len(bots)}), not {labels!r}")
    if observer is not None and not callable(observer):
        raise ValueError(f"observer must be a function of (before, step, after), not {observer!r}")
    game_seed, seats = seating(game, len(bots), seed, bool(rotate))
    return _play_seated(new, bots, game, game_seed, seats, rules,
                        labels if labels is not None else bot_labels(bots), observer)


def _play_seated(new: NewState, bots: list[Bot], game: int, game_seed: int,
                 seats: tuple[int, ...], rules: Any, names: Sequence[str],
                 observer: Observer | None) -> GameResult:
    """`play_seated` on checked arguments, with the game's seed and seats from `seating`."""
    rng = np.random.default_rng(game_seed)  # = make_rng(game_seed): a whole number
    start = check_state(new(len(bots), rules, seed=rng))
    first = start.current_player
    if len(seats) != start.players:
        raise ValueError(f"a game of {start.players} players needs {start.players} bots, "
                         f"not {len(seats)}")
    end = _play_out(start, [bots[b] for b in seats], rng, observer)
    totals = tuple(map(int, end.scores()))
    winners = tuple(map(int, end.winners()))
    if len(totals) != len(seats) or not winners:
        raise ValueError(f"{end!r} did not end with a score per seat and a winner")
    return GameResult._of_play(game, game_seed, seats, tuple(names[b] for b in seats), totals,
                               winners, first, end)


def play_series(
    new: NewState,
    bots: Sequence[Bot],
    games: int,
    seed: int = 0,
    rules: Any = None,
    *,
    rotate: bool = True,
    observer: Observer | None = None,
) -> list[GameResult]:
    """Play games 0..games-1 of a series between `bots`, seated by `seating`.

    Checks its arguments (ValueError): bots (objects with `choose` and a `name`), games (1 to
    MAX_GAMES), seed (a whole number 0 or more), rotate (a bool); `new` checks the rules and
    the number of players.
    """
    bots = check_bots(bots)
    games = whole(games, "games", 1, MAX_GAMES)
    seed = whole(seed, "seed", 0)
    if not isinstance(rotate, bool | np.bool_):
        raise ValueError(f"rotate must be True or False, not {rotate!r}")
    if observer is not None and not callable(observer):
        raise ValueError(f"observer must be a function of (before, step, after), not {observer!r}")
    if not callable(new):
        raise ValueError(f"new must be a game's State.new, not {new!r}")
    labels = bot_labels(bots)
    k = len(bots)
    rotate = bool(rotate)
    # Checked once for the series; `new` checks the rules and the number of players (and the
    # game's own states play on from there).
    out = []
    for g in range(games):
        game_seed, seats = _seating(g, k, seed, rotate)
        out.append(_play_seated(new, bots, g, game_seed, seats, rules, labels, observer))
    return out

