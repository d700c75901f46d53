"""What the solver advises at a real game position: every legal action with its exact value."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from henkit.henpen.actions import ROLL, Action, Roll, Stop, Take
from henkit.henpen.odds import (
    TurnReward,
    TurnSolution,
    best_claim,
    claim_worth,
    position_reward,
    solve_turn,
)
from henkit.henpen.rules import Rules
from henkit.henpen.state import DECIDE, ROLL_PHASE, TAKE, State

Number = Fraction | float


@dataclass(frozen=True)
class Position:
    """What a turn's worth depends on: the grill, one's own top and the others' tops."""

    rules: Rules
    grill: tuple[int, ...]
    own_top: int | None
    others_tops: tuple[tuple[int, int], ...]  # (player, top) pairs
    leader: int | None
    steal_weight: Fraction

    @classmethod
    def of(cls, state: State, steal_weight: Fraction | int = 0) -> Position:
        """The position of the player to move; the leader is the opponent with most worms."""
        me = state.player
        others = [p for p in range(state.players) if p != me]
        leader = max(others, key=lambda p: (state.worms(p), -p)) if others else None
        return cls(state.rules, state.grill, state.top(me), tuple(sorted(state.others_tops().items())),
                   leader, Fraction(steal_weight))

    def reward(self) -> TurnReward:
        """The worms-gained reward of this position (see `odds.position_reward`)."""
        return position_reward(self.grill, self.own_top, dict(self.others_tops), self.leader,
                               self.steal_weight, self.rules)

    def worth(self, stop: Stop) -> Fraction:
        """What one claim is worth here (see `odds.claim_worth`)."""
        return claim_worth(stop.claim, self.rules, self.leader, self.steal_weight)


@lru_cache(maxsize=256)
def _solve(position: Position, exact: bool) -> TurnSolution:
    # One solve serves a whole turn (every state and roll of it), so bots and the dice tray
    # ask for it once per turn; the cache keeps the last positions seen.
    return solve_turn(position.reward(), rules=position.rules, exact=exact)


def solution_for(state: State, steal_weight: Fraction | int = 0, exact: bool = False) -> TurnSolution:
    """The optimal-play solution of the turn in progress, for expected worms gained."""
    return _solve(Position.of(state, steal_weight), bool(exact))


@dataclass(frozen=True)
class Advice:
    """One legal action and its value: expected worms gained this turn if played, then best play."""

    action: Action
    value: Number

    def __str__(self) -> str:
        return f"{self.action}: {float(self.value):+.3f} worms expected"


def advice(state: State, steal_weight: Fraction | int = 0, exact: bool = False) -> list[Advice]:
    """Every legal action of the player to move with its exact value, best first.

    The value is the expected worms gained this turn (a failed turn costs one's top serving),
    playing optimally afterwards. Ties keep the solver's order (stop before roll; see odds).
    """
    if state.is_over or state.is_chance:
        return []
    position = Position.of(state, steal_weight)
    sol = _solve(position, bool(exact))
    if state.phase == ROLL_PHASE:
        return [Advice(ROLL, sol.value(state))]
    if state.phase == TAKE:
        return [Advice(Take(f), v) for f, v in sol.take_values(state.roll, state).items()]
    assert state.phase == DECIDE
    out = []
    for a in state.legal_actions():
        if isinstance(a, Roll):
            out.append(Advice(a, sol.value_if_roll(state)))
        else:
            worth = position.worth(a)
            out.append(Advice(a, worth if exact else float(worth)))
    # Stable sort: equal values keep the order stops-before-roll, the grill before steals.
    out.sort(key=lambda ad: (-ad.value, isinstance(ad.action, Roll)))
    return out


def best_stop(state: State, steal_weight: Fraction | int = 0) -> Stop | None:
    """The most valuable legal stop for the player to move, or None when none is legal."""
    if state.phase != DECIDE or not state.has_worm:
        return None
    position = Position.of(state, steal_weight)
    claim, _worth = best_claim(state.total, position.grill, position.own_top,
                               dict(position.others_tops), position.leader,
                               position.steal_weight, position.rules)
    return Stop(claim) if claim is not None else None
