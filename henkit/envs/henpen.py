"""Henpen as reinforcement-learning environments: one player against henkit bots (Gymnasium,
`HenpenEnv`) and every player a learner (PettingZoo AEC, `HenpenAECEnv`), 2 to 7 players.

The rules are the engine's (`henkit.henpen.State`): the environments only number its legal
actions, roll its dice with the environment's numpy Generator, and read its state.

Actions (`Discrete(8 + players - 1)`, the same numbering at every decision, seats counted from
the acting player):

    0        roll the dice
    1 .. 6   take the dice showing that face (1s..5s; 6 = the worms)
    7        stop and take the serving the total claims from the grill
    7 + r    stop and steal the top serving of the player r seats after you (r = 1 .. players-1)

The turn's first roll is the only legal action at the start of a turn, so the environments play
it (and every roll of the dice) themselves: a player is asked only at real decisions, where the
mask lists exactly the engine's `legal_actions()`.

Observations (a vector of whole numbers, `observation_layout` names every entry; seats counted
from the observer, who is seat 0): where each serving is (grill, out of play, or whose stack) and
how deep in that stack, every player's worms and top serving, then the turn: dice set aside and
the roll waiting (counts per face), dice left, total, phase (0 take, 1 roll-or-stop, 2 game
over), the player to move, whether a worm is set aside. Henpen hides nothing, so this is the
whole state.

Rewards: `reward="win"` (default) pays at the end of the game the engine's `State.returns()`:
1 for a sole winner, 1/k to each of k tied winners, 0 otherwise, so a game's rewards add up to
exactly 1 over the players. `reward="worms"` pays after every step each player's change in worms,
so a player's rewards add up to its final worms.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from henkit.envs.common import (
    ILLEGAL_MODES,
    BoundedCache,
    SettlesRewards,
    check_action,
    check_choice,
    illegal_message,
)
from henkit.henpen.actions import ROLL, TAKES, Action, Roll, Stop, Take
from henkit.henpen.bots import make_bot
from henkit.henpen.dice import SIDES
from henkit.henpen.rules import MAX_PLAYERS, Rules
from henkit.henpen.state import Phase, State

ROLL_ACTION = 0
"""Roll the dice."""
GRILL_ACTION = 7
"""Stop and take the serving the total claims from the grill; 7 + r steals from the player r
seats after the one acting."""
REWARDS = ("win", "worms")
MIN_ENV_PLAYERS = 2
_DICE, _ROLL, _TAKE, _OVER = Phase.DICE, Phase.ROLL, Phase.TAKE, Phase.OVER
_NO_DICE = (0,) * SIDES


def check_env_players(players: object) -> int:
    """2 to 7 players as an int; ValueError otherwise."""
    if type(players) is not int or not MIN_ENV_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"a Henpen environment has {MIN_ENV_PLAYERS} to {MAX_PLAYERS} players, "
                         f"not {players!r}")
    return players


def play_on(state: State, rng: np.random.Generator) -> State:
    """Roll the dice and play every turn's opening roll (the only legal action there) until a
    player decides or the game is over."""
    while True:
        phase = state.phase
        if phase is _DICE:
            state = state.apply(state.sample_chance(rng))
        elif phase is _ROLL:
            state = state.apply(ROLL)
        else:
            return state


class HenpenCodec:
    """The fixed numbering of Henpen actions and the observation vector for `players` seats
    (see the module note)."""

    def __init__(self, players: int, rules: Rules) -> None:
        self.players = n = check_env_players(players)
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a henkit.henpen Rules or None, not {rules!r}")
        self.rules = rules
        self.tiles = rules.tiles
        self.tile_index = {t: i for i, t in enumerate(self.tiles)}
        self.actions = GRILL_ACTION + n
        t = len(self.tiles)
        worms = sum(rules.worms(x) for x in self.tiles)
        dice = rules.dice
        self.board_size = 2 * t + 2 * n
        high = ([1 + n] * t + [t] * t + [worms] * n + [t] * n
                + [dice] * SIDES + [dice] * SIDES + [dice, rules.max_total, 2, n - 1, 1])
        self.high = np.array(high, dtype=np.int32)
        self.size = len(high)
        self._masks: BoundedCache = BoundedCache()
        self._boards: BoundedCache = BoundedCache()
        self._last: dict[int, tuple[Any, Any, np.ndarray]] = {}  # seat -> grill, stacks, board

    def observation_layout(self) -> list[str]:
        """The name of every entry of the observation vector, in order."""
        n, tiles = self.players, self.tiles
        names = [f"where {x} is (0 grill, 1 out of play, 2+r stack of seat +r)" for x in tiles]
        names += [f"depth of {x} in its stack (0 none, 1 bottom)" for x in tiles]
        names += [f"worms of seat +{r}" for r in range(n)]
        names += [f"top serving of seat +{r} (0 none, else index in the servings + 1)"
                  for r in range(n)]
        faces = ("1s", "2s", "3s", "4s", "5s", "worms")
        names += [f"set aside: {f}" for f in faces] + [f"roll: {f}" for f in faces]
        names += ["dice left", "total", "phase (0 take, 1 roll or stop, 2 game over)",
                  "player to move (seat +r)", "a worm is set aside"]
        return names

    def describe(self, index: int) -> str:
        """What action `index` does, in words."""
        if index == ROLL_ACTION:
            return str(ROLL)
        if index < GRILL_ACTION:
            return str(TAKES[index])
        if index == GRILL_ACTION:
            return "stop and take the serving the total claims from the grill"
        r = index - GRILL_ACTION
        return f"stop and steal the top serving of the player {r} seat{'s' * (r > 1)} after you"

    def index_of(self, action: Action, player: int) -> int:
        """The index of an engine action taken by seat `player`."""
        if type(action) is Take:
            return action.face
        if type(action) is Roll:
            return ROLL_ACTION
        if type(action) is Stop:
            owner = action.claim.owner
            return GRILL_ACTION if owner is None else GRILL_ACTION + (owner - player) % self.players
        raise ValueError(f"{action!r} is not a Henpen action")

    def legal(self, state: State) -> tuple[int, ...]:
        """The indices of the legal actions of the player to move, lowest first (none at the
        end), from the engine's `legal_actions()`."""
        if state.phase is _TAKE:
            return state.takeable  # the faces offered: Take(f) is action f
        player = state.player
        return tuple(sorted(self.index_of(a, player) for a in state.legal_actions()))

    def mask(self, legal: tuple[int, ...]) -> np.ndarray:
        """The action mask (int8, 1 = legal) of these legal indices; a fresh array."""
        mask = self._masks.get(legal)
        if mask is None:
            mask = np.zeros(self.actions, dtype=np.int8)
            mask[list(legal)] = 1
            self._masks.put(legal, mask)
        return mask.copy()

    def action(self, state: State, index: int) -> Action:
        """The engine action of a legal index for the player to move (check legality first)."""
        if index < GRILL_ACTION:
            return TAKES[index] if index else ROLL
        owner = None if index == GRILL_ACTION else (state.player + index - GRILL_ACTION) % self.players
        for claim in state.claims():
            if claim.owner == owner:
                return Stop(claim)
        raise ValueError(f"action {index} ({self.describe(index)}) claims nothing here")

    def observe(self, state: State, seat: int) -> np.ndarray:
        """The observation vector of `state` from `seat` (a fresh array)."""
        # The board changes only between turns, and the engine hands the same grill and stacks
        # objects on through a turn: an identity check finds it first.
        grill, stacks = state.grill, state.stacks
        last = self._last.get(seat)
        if last is not None and last[0] is grill and last[1] is stacks:
            board = last[2]
        else:
            key = (seat, grill, stacks)
            board = self._boards.get(key)
            if board is None:
                board = self._boards.put(key, self._board(state, seat))
            self._last[seat] = (grill, stacks, board)
        n = self.players
        obs = np.empty(self.size, dtype=np.int32)
        b = self.board_size
        obs[:b] = board
        phase = state.phase
        obs[b:] = (*state.kept, *(state.roll or _NO_DICE), state.dice_left, state.total,
                   0 if phase is _TAKE else 2 if phase is _OVER else 1,
                   (state.player - seat) % n, state.has_worm)
        return obs

    def _board(self, state: State, seat: int) -> np.ndarray:
        # The part of the observation that changes only between turns: cached by position.
        n, t, index = self.players, len(self.tiles), self.tile_index
        board = np.zeros(self.board_size, dtype=np.int32)
        for x in self.tiles:
            if x not in state.grill:
                board[index[x]] = 1  # out of play unless a stack holds it (below)
        for p, stack in enumerate(state.stacks):
            r = (p - seat) % n
            for depth, x in enumerate(stack, 1):
                board[index[x]] = 2 + r
                board[t + index[x]] = depth
            board[2 * t + r] = sum(self.rules.worms(x) for x in stack)
            board[2 * t + n + r] = index[stack[-1]] + 1 if stack else 0
        board.flags.writeable = False
        return board

    def observation_space(self) -> spaces.Box:
        """The Box of observation vectors."""
        return spaces.Box(low=np.zeros(self.size, dtype=np.int32), high=self.high.copy(),
                          dtype=np.int32)

    def render(self, state: State) -> str:
        """The position in words, and the legal actions by index."""
        text = state.describe()
        if not state.is_over:
            text += "\nActions: " + "; ".join(f"{i} {self.describe(i)}"
                                              for i in self.legal(state))
        return text


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a henkit.henpen Rules or None, not {rules!r}")
    return rules


def _render_mode(mode: object, modes: Sequence[str]) -> str | None:
    if mode is None:
        return None
    return check_choice(mode, "render_mode", modes)


class HenpenEnv(gymnasium.Env):
    """Henpen for one learner against henkit bots (Gymnasium). See the module note for the
    actions, observations and rewards.

    `opponents` names the bots of the other seats, as `henkit.henpen.make_bot` reads them
    ('random', 'greedy', 'threshold:28', 'optimal', 'win'...): one name for all of them, or one
    per opponent in seat order after the learner. `seat` is the learner's seat (0 plays first);
    None draws it at every reset. `info["action_mask"]` (int8, 1 = legal) comes with every
    observation. An illegal action raises ValueError naming it and the legal ones, and changes
    nothing; `illegal="terminate"` ends the episode instead with reward -1 (the convention of
    PettingZoo's TerminateIllegalWrapper, for learners and checkers that sample unmasked).
    The dice and the bots draw from the environment's Generator: the same seed to `reset`
    and the same actions give the same game.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, players: int = 2, opponents: str | Sequence[str] = "random", *,
                 seat: int | None = 0, rules: Rules | None = None, reward: str = "win",
                 illegal: str = "raise", render_mode: str | None = None) -> None:
        self.codec = HenpenCodec(players, _rules(rules))
        n = self.codec.players
        names = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != n - 1:
            raise ValueError(f"opponents must name one bot, or {n - 1} (one per opponent), "
                             f"not {opponents!r}")
        self.opponents = [make_bot(name) for name in names]  # ValueError for an unknown bot
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise ValueError(f"seat must be None (drawn at each reset) or 0 to {n - 1}, not {seat!r}")
        self.seat_choice = seat
        self.seat = 0 if seat is None else seat
        self.reward_kind = check_choice(reward, "reward", REWARDS)
        self.illegal = check_choice(illegal, "illegal", ILLEGAL_MODES)
        self.render_mode = _render_mode(render_mode, self.metadata["render_modes"])
        self.action_space = spaces.Discrete(self.codec.actions)
        self.observation_space = self.codec.observation_space()
        self.state: State | None = None
        self._bots: dict[int, Any] = {}
        self._legal: tuple[int, ...] = ()
        self._ended = False

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game: the bots play up to the learner's first decision."""
        super().reset(seed=seed)
        rng = self.np_random
        n = self.codec.players
        if self.seat_choice is None:
            self.seat = int(rng.integers(n))
        others = [(self.seat + r) % n for r in range(1, n)]
        self._bots = dict(zip(others, self.opponents, strict=True))
        self._ended = False
        self._set(self._play_on(State.new(n, self.codec.rules)))
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the bots, up to the learner's next decision or the
        end of the game."""
        state = self.state
        if state is None:
            raise ValueError("call reset() before step()")
        if self._ended or state.is_over:
            raise ValueError("the game is over: call reset() to play another")
        codec = self.codec
        i = check_action(action, codec.actions)
        legal = self._legal
        if i not in legal:
            if self.illegal == "raise":
                raise ValueError(illegal_message(i, codec.describe(i), legal, codec.describe))
            self._ended = True
            return self._observation(), -1.0, True, False, {
                "action_mask": np.zeros(codec.actions, dtype=np.int8), "illegal_action": True}
        before = state.worms(self.seat) if self.reward_kind == "worms" else 0
        state = self._set(self._play_on(state.apply(codec.action(state, i))))
        over = state.is_over
        if self.reward_kind == "worms":
            reward = float(state.worms(self.seat) - before)
        else:
            reward = float(state.returns()[self.seat]) if over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, over, False, self._info()

    def _play_on(self, state: State) -> State:
        # The dice and the bots play until it is the learner's decision or the game is over.
        rng, seat, bots = self.np_random, self.seat, self._bots
        while True:
            state = play_on(state, rng)
            if state.phase is _OVER or state.player == seat:
                return state
            state = state.apply(bots[state.player].choose(state, rng))

    def _set(self, state: State) -> State:
        # The new state and its legal actions, worked out once for the step and the mask.
        self.state = state
        self._legal = self.codec.legal(state)
        return state

    def _observation(self) -> np.ndarray:
        assert self.state is not None
        return self.codec.observe(self.state, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.codec.mask(self._legal)}

    def action_masks(self) -> np.ndarray:
        """The current action mask (the name sb3-contrib's MaskablePPO asks for)."""
        return self._info()["action_mask"]

    def render(self) -> str | None:
        """The game in words ("ansi" returns it, "human" prints it); None without a mode."""
        if self.render_mode is None or self.state is None:
            return None
        text = self.codec.render(self.state)
        text = f"You are player {self.seat + 1}.\n{text}"
        if self.render_mode == "human":
            print(text)
            return None
        return text


class HenpenAECEnv(SettlesRewards, AECEnv):
    """Henpen with every seat a learner (PettingZoo AEC), agents "player_0".."player_{n-1}"
    (seat i; player_0 plays first). See the module note for the actions, observations and
    rewards. Each observation is {"observation": vector, "action_mask": int8 mask}; the mask is
    all zeros for an agent that is not to move. An illegal action raises ValueError naming it and
    the legal ones, and changes nothing. The dice draw from the environment's Generator, so the
    same seed to `reset` and the same actions give the same game."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "henpen_v0",
                "is_parallelizable": False, "render_fps": 4}

    def __init__(self, players: int = 2, *, rules: Rules | None = None, reward: str = "win",
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.codec = codec = HenpenCodec(players, _rules(rules))
        self.reward_kind = check_choice(reward, "reward", REWARDS)
        self.render_mode = _render_mode(render_mode, self.metadata["render_modes"])
        self.possible_agents = [f"player_{i}" for i in range(codec.players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": codec.observation_space(),
            "action_mask": spaces.Box(0, 1, shape=(codec.actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(codec.actions) for a in self.possible_agents}
        self.state: State | None = None
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self._legal: tuple[int, ...] = ()
        self._paid = False

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of `agent` (the same for all)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The action space of `agent` (the same for all)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, its dice drawn from a Generator seeded with `seed`."""
        if seed is not None or self.state is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self._set(play_on(State.new(self.codec.players, self.codec.rules), self.np_random))
        self._begin()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What `agent` sees now, with its action mask (zeros unless it is to move)."""
        state = self.state
        assert state is not None, "call reset() first"
        seat = self._seat[agent]
        codec = self.codec
        mask = codec.mask(self._legal if state.player == seat else ())
        return {"observation": codec.observe(state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (None once it is done), then the dice, up to the
        next decision or the end of the game."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        codec = self.codec
        i = check_action(action, codec.actions)
        if i not in self._legal:
            raise ValueError(illegal_message(i, codec.describe(i), self._legal, codec.describe))
        worms = self.reward_kind == "worms"
        before = state.scores() if worms else ()
        new = self._set(play_on(state.apply(codec.action(state, i)), self.np_random))
        self._cumulative_rewards[agent] = 0.0
        self._settle(new, before, worms)

    def _set(self, state: State) -> State:
        # The new state and its legal actions, worked out once for the step and the masks.
        self.state = state
        self._legal = self.codec.legal(state)
        return state

    def render(self) -> str | None:
        """The game in words ("ansi" returns it, "human" prints it); None without a mode."""
        if self.render_mode is None or self.state is None:
            return None
        text = self.codec.render(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (text rendering only)."""
