"""What both games share: the state protocol, the bot protocol and a seeded game runner.

Every state in henkit is immutable: `apply` returns a new state and never changes the old one.
Chance (dice, a shuffled deck) is a player of its own: at a chance node `is_chance` is true and
`chance_outcomes()` lists every outcome with its exact probability.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

import numpy as np

CHANCE = -1
"""The `current_player` of a chance node."""
TERMINAL = -2
"""The `current_player` of a finished game."""

Seed = int | np.random.Generator | None


def make_rng(seed: Seed) -> np.random.Generator:
    """Return a numpy Generator from a seed, or the Generator itself when one is given."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise ValueError(f"seed must be a non-negative int or a numpy Generator, not {seed!r}")
    return np.random.default_rng(seed)


@runtime_checkable
class GameState(Protocol):
    """The shape every game state in henkit has (modelled on OpenSpiel's)."""

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


class Bot(Protocol):
    """A player: `choose(state, rng)` returns one of `state.legal_actions()`."""

    name: str

    def choose(self, state: Any, rng: np.random.Generator) -> Hashable:
        """The bot's action at `state` (a decision node of its own), using `rng` for any chance."""
        ...


@dataclass(frozen=True)
class Step:
    """One entry of a game's history: who acted (CHANCE for dice and deck), and what."""

    player: int
    action: Any


@dataclass
class Game:
    """Plays a state forward with a seeded generator and bots, keeping the history for replay.

    `bots[i]` plays player i; `None` marks a human, whose moves are given to `play(action)`.
    """

    state: GameState
    bots: Sequence[Bot | None]
    seed: Seed = None
    history: list[Step] = field(default_factory=list)
    states: list[GameState] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = make_rng(self.seed)
        self.bots = list(self.bots)
        players = self.state.players
        if len(self.bots) != players:
            raise ValueError(f"a game of {players} players needs {players} bots (None for a "
                             f"human), not {len(self.bots)}")
        for i, bot in enumerate(self.bots):
            if bot is not None and not callable(getattr(bot, "choose", None)):
                raise ValueError(f"player {i + 1}'s bot (seat {i}) {bot!r} has no choose(state, rng) method")
        if not self.states:
            self.states = [self.state]

    @property
    def waiting_for_human(self) -> bool:
        """True when the game is not over and the player to move is a human."""
        s = self.state
        return not s.is_over and not s.is_chance and self.bots[s.current_player] is None

    def play(self, action: Any) -> GameState:
        """Apply one action (a human's, a bot's or a chance outcome) and record it."""
        player = self.state.current_player
        new = self.state.apply(action)  # raises ValueError and leaves everything as it was
        self.history.append(Step(player, action))
        self.states.append(new)
        self.state = new
        return new

    def step(self) -> GameState:
        """Advance by one move of chance or of a bot; a human's turn raises ValueError."""
        s = self.state
        if s.is_over:
            raise ValueError("the game is over: no move is left to play")
        if s.is_chance:
            return self.play(s.sample_chance(self.rng))
        bot = self.bots[s.current_player]
        if bot is None:
            raise ValueError(f"player {s.current_player + 1} (seat {s.current_player}) is a human: give their move to play()")
        return self.play(bot.choose(s, self.rng))

    def advance(self, until: Callable[[GameState], bool] | None = None) -> GameState:
        """Step chance and bots until a human must move, the game ends, or `until(state)`."""
        while not self.state.is_over and not self.waiting_for_human:
            if until is not None and until(self.state):
                break
            self.step()
        return self.state

    def run(self) -> GameState:
        """Play to the end; every player must be a bot."""
        if any(b is None for b in self.bots):
            raise ValueError("run() needs a bot for every player; use advance() with humans")
        return self.advance()
