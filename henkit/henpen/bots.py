"""Henpen bots: each has a `name` and `choose(state, rng)` returning a legal action.

The rules of thumb (which face to take, which serving to claim) are the solver's own, from
`turnspace.take_preference` and `odds.best_claim`, so a bot and the batch simulator that copy a
strategy play it the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np

from henkit.checks import whole
from henkit.henpen.actions import ROLL, TAKES, Action
from henkit.henpen.advice import best_stop, optimal_action
from henkit.henpen.dice import WORM, check_rng
from henkit.henpen.odds import check_steal_weight
from henkit.henpen.state import Phase, State
from henkit.henpen.turnspace import take_preference

# Module constants: enum members and numpy classes cost an attribute look-up each time.
_TAKE, _DECIDE, _DICE, _OVER = Phase.TAKE, Phase.DECIDE, Phase.DICE, Phase.OVER
_GENERATOR = np.random.Generator


def _check(state: object, rng: object) -> None:
    # Every bot's `choose` refuses anything but a State where a player decides, and a Generator.
    if type(state) is not State:
        raise ValueError(f"state must be a henkit.henpen State, not {state!r}")
    if state.phase is _DICE or state.phase is _OVER:
        raise ValueError(f"no player decides in the {state.phase.value!r} phase")
    if type(rng) is not _GENERATOR:
        check_rng(rng)


def _check_name(name: object) -> None:
    if not isinstance(name, str):
        raise ValueError(f"a bot's name is text, not {name!r}")


@dataclass
class RandomBot:
    """Picks uniformly among the legal actions: the baseline every strategy must beat."""

    name: str = "random"

    def __post_init__(self) -> None:
        _check_name(self.name)

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """A uniformly random legal action."""
        _check(state, rng)
        acts = state.legal_actions()
        return acts[int(rng.integers(len(acts)))]


def most_points_face(state: State) -> int:
    """The face of the roll setting aside the most points (ties: the higher face, worm first)."""
    if type(state) is not State:
        raise ValueError(f"state must be a henkit.henpen State, not {state!r}")
    roll = state.roll
    if roll is None:
        raise ValueError("there is no roll to take from")
    return _most_points(roll, state.takeable)


@lru_cache(maxsize=4096)
def _most_points(roll: tuple[int, ...], faces: tuple[int, ...]) -> int:
    # A pure function of a roll and the faces it offers, asked at every greedy take: cached
    # (tests/henpen/test_fast_paths.py checks it against the definition above).
    return min(faces, key=lambda f: take_preference(f, roll[f - 1]))


def worm_first_face(state: State) -> int:
    """Worms while none are taken, else the most points (the batch threshold policy's rule)."""
    if type(state) is not State:
        raise ValueError(f"state must be a henkit.henpen State, not {state!r}")
    roll = state.roll
    if roll is not None and roll[WORM - 1] and not state.has_worm:
        return WORM
    return most_points_face(state)


@dataclass
class GreedyBot:
    """Takes the most points each roll and stops at the first serving it can claim."""

    name: str = "greedy"

    def __post_init__(self) -> None:
        _check_name(self.name)

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """Most points now; stop as soon as any claim is possible."""
        _check(state, rng)
        if state.phase is _TAKE:
            return TAKES[most_points_face(state)]
        return best_stop(state) or ROLL


@dataclass
class ThresholdBot:
    """Stops once its total reaches `target` with a worm (the rule of thumb students try first)."""

    target: int = 25
    name: str = field(default="")

    def __post_init__(self) -> None:
        self.target = whole(self.target, "threshold target", 1)
        _check_name(self.name)
        self.name = self.name or f"threshold {self.target}"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """Take worms first, then the most points; stop at `target` or more when it can."""
        _check(state, rng)
        if state.phase is _TAKE:
            return TAKES[worm_first_face(state)]
        if state.phase is _DECIDE:
            stop = best_stop(state)
            if stop is not None and (state.total >= self.target or ROLL not in state.legal_actions()):
                return stop
        return ROLL


@dataclass
class OptimalBot:
    """Maximises the expected worms of each turn for the real position (exact solver).

    `steal_weight` > 0 also values what a steal takes from the leader (see `odds.claim_worth`).
    """

    steal_weight: Fraction | int = 0
    name: str = field(default="")

    def __post_init__(self) -> None:
        self.steal_weight = check_steal_weight(self.steal_weight)
        _check_name(self.name)
        self.name = self.name or (
            "optimal" if not self.steal_weight else f"optimal (steal weight {self.steal_weight})"
        )

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """The solver's choice: the best face, then stop or roll by expected worms."""
        _check(state, rng)
        return optimal_action(state, self.steal_weight)


WIN_ENDGAME = 1
"""The win bot plays the whole-game endgame solver once the grill holds this many servings or
fewer. From a real game, a one-serving endgame is about 500 positions (a second or two to solve
once), two servings about 5,000, three about 30,000 (`win:K` sets another K)."""
WIN_LIMIT = 5_000
"""The most endgame positions the win bot solves at one decision; larger, it plays on by the
expected-worms rule below."""


@dataclass
class WinBot:
    """Plays to win a 2-player game (`henkit.henpen.endgame`).

    Once the grill holds `endgame` servings or fewer (and the endgame has at most `limit`
    positions still to solve), every decision is the endgame solver's: the action with the best
    chance to win. Before that it maximises the expected change in the score gap this turn: the
    expected-worms solver with steal weight 1 (a steal takes worms from the opponent as well as
    adding them to one's own, so it moves the gap twice), a failure costing one's top serving.
    With more than 2 players it plays that gap rule all game.
    """

    endgame: int = WIN_ENDGAME
    limit: int = WIN_LIMIT
    name: str = field(default="win")

    def __post_init__(self) -> None:
        self.endgame = whole(self.endgame, "endgame (servings on the grill)", 0)
        self.limit = whole(self.limit, "limit (endgame positions)", 1)
        _check_name(self.name)

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """The endgame solver's best action when the grill is small enough, else the gap rule."""
        _check(state, rng)
        if state.players == 2 and len(state.grill) <= self.endgame:
            from henkit.henpen.endgame import best_action

            try:
                return best_action(state, limit=self.limit).action
            except ValueError:  # too large for the limit: the gap rule below
                pass
        return optimal_action(state, _ONE)


_ONE = Fraction(1)

BOTS = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "threshold": ThresholdBot,
    "optimal": OptimalBot,
    "win": WinBot,
}


def make_bot(spec: str) -> RandomBot | GreedyBot | ThresholdBot | OptimalBot | WinBot:
    """A bot from a short name: 'random', 'greedy', 'optimal', 'optimal:1' (steal weight 1),
    'threshold' or 'threshold:28', 'win' or 'win:3' (the endgame solver from 3 servings on)."""
    if not isinstance(spec, str):
        raise ValueError(f"a bot is named by text like 'greedy' or 'threshold:28', not {spec!r}")
    name, _, arg = spec.strip().lower().partition(":")
    if name not in BOTS:
        raise ValueError(f"unknown Henpen bot {spec!r}; bots are {', '.join(BOTS)} "
                         "(threshold:T, optimal:W, win:K)")
    if name == "threshold":
        try:
            return ThresholdBot(int(arg) if arg else 25)
        except (ValueError, OverflowError):
            raise ValueError(f"threshold bots are written threshold:T with T a number, not {spec!r}") from None
    if name == "optimal" and arg:
        try:
            return OptimalBot(Fraction(arg))
        except (ValueError, ZeroDivisionError, OverflowError):
            raise ValueError(f"optimal bots are written optimal:W with W a steal weight >= 0 "
                             f"(a number like 1 or 1/2), not {spec!r}") from None
    if name == "win" and arg:
        try:
            return WinBot(int(arg))
        except (ValueError, OverflowError):
            raise ValueError(f"win bots are written win:K with K the servings left on the grill "
                             f"when the endgame solver takes over (a number >= 0), not {spec!r}") from None
    if arg:
        raise ValueError(f"the {name} bot takes no argument, not {spec!r}")
    return BOTS[name]()
