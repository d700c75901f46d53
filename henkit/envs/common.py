"""What henkit's environments share: checking an action index, the illegal-action message, the
reward and illegal-action options, a bounded cache for masks and board encodings, and the AEC
environments' reward bookkeeping after a step."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

ILLEGAL_MODES = ("raise", "terminate")
"""What an illegal action does: "raise" (ValueError, nothing changes) or "terminate" (the episode
ends at once with reward -1 for the offender, PettingZoo's TerminateIllegalWrapper convention,
for learners that sample unmasked actions)."""

CACHE_SIZE = 1 << 16
"""Entries a `BoundedCache` keeps before it starts afresh (masks and board encodings recur a
lot in play, so a plain dict lookup is the fast path; the bound keeps memory flat)."""


class BoundedCache(dict):
    """A dict that empties itself once it holds `CACHE_SIZE` entries (cheaper than an LRU)."""

    def put(self, key: Hashable, value: Any) -> Any:
        """Store `value` under `key` and return it."""
        if len(self) >= CACHE_SIZE:
            self.clear()
        self[key] = value
        return value


def check_choice(value: object, what: str, allowed: Sequence[str]) -> str:
    """`value` if it is one of `allowed`, else ValueError naming them."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(map(repr, allowed))}, not {value!r}")
    return value


def check_action(action: object, count: int) -> int:
    """An action index as a plain int 0..count-1 (numpy integers and 0-d arrays too); ValueError
    naming the allowed range otherwise."""
    if type(action) is int and 0 <= action < count:
        return action
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action.item()
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise ValueError(f"an action is a whole number 0 to {count - 1} (see the action "
                         f"encoding), not {action!r}")
    if not 0 <= int(action) < count:
        raise ValueError(f"action {int(action)} is out of range: actions are 0 to {count - 1}")
    return int(action)


def illegal_message(index: int, words: str, legal: Sequence[int],
                    describe: Callable[[int], str], limit: int = 12) -> str:
    """'action 3 (take the 3s) is not legal now; legal: 0 (roll the dice), 5 (take the 5s)'."""
    shown = [f"{i} ({describe(i)})" for i in legal[:limit]]
    more = f" and {len(legal) - limit} more" if len(legal) > limit else ""
    allowed = ", ".join(shown) + more if shown else "nothing (the game is over: call reset())"
    return f"action {index} ({words}) is not legal now; legal: {allowed}"


def legal_indices(mask: np.ndarray) -> list[int]:
    """The indices a mask allows, lowest first."""
    return np.flatnonzero(mask).tolist()


class SettlesRewards:
    """The AEC environments' bookkeeping after a step (one rule for both games).

    Expects `state`, `possible_agents`, `agents`, `_seat` (agent -> seat), `_paid`, `rewards`,
    `terminations`, `agent_selection`, `render_mode`, `render()` and PettingZoo's
    `_accumulate_rewards()`.
    """

    def _begin(self) -> None:
        # A new episode's bookkeeping, once `state` holds the new game.
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._paid = False
        self.agent_selection = self.possible_agents[self.state.player]

    def _settle(self, new: Any, before: Sequence[int], dense: bool) -> None:
        # dense: every step pays each agent its score change; else the "win" returns are paid
        # once, at the end. Rewards are the last step's: zero them only when a step paid
        # something, and skip adding zeros.
        if dense:
            after = new.scores()
            self.rewards = {a: float(after[s] - before[s]) for a, s in self._seat.items()}
        elif self._paid:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._paid = False
        if new.is_over:
            if not dense:
                self.rewards = dict(zip(self.possible_agents, map(float, new.returns()),
                                        strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[new.player]
        if dense or new.is_over:
            self._paid = True
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()
