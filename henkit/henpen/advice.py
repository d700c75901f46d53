"""What the solver advises at a real game position: every legal action with its exact value."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from henkit.henpen.actions import ROLL, TAKES, Action, Roll, Stop, Take
from henkit.henpen.dice import VALUES
from henkit.henpen.inputs import check_flag
from henkit.henpen.odds import (
    TurnReward,
    TurnSolution,
    best_option,
    check_steal_weight,
    claim_worth,
    position_reward,
    solve_turn,
)
from henkit.henpen.rules import Rules
from henkit.henpen.state import Phase, State

Number = Fraction | float
_ZERO = Fraction(0)
# Module constants: an enum member costs an attribute look-up each time (bots ask every decision).
_ROLL, _TAKE, _DECIDE = Phase.ROLL, Phase.TAKE, Phase.DECIDE


@dataclass(frozen=True)
class Position:
    """What a turn's worth depends on: the grill, one's own top and the others' tops."""

    rules: Rules
    grill: tuple[int, ...]
    own_top: int | None
    others_tops: tuple[tuple[int, int], ...]  # (player, top) pairs
    leader: int | None
    steal_weight: Fraction

    def __post_init__(self) -> None:
        # Checked once here: the reward and every worth below trust these fields.
        position_reward(self.grill, self.own_top, dict(_pairs(self.others_tops)), self.leader,
                        self.steal_weight, self.rules, 0)
        object.__setattr__(self, "steal_weight", check_steal_weight(self.steal_weight))
        object.__setattr__(self, "_hash", _hash(self))

    def __hash__(self) -> int:
        # Hashed once: a position keys the solver's cache at every decision of an optimal bot.
        return self._hash  # type: ignore[attr-defined, no-any-return]

    @classmethod
    def of(cls, state: State, steal_weight: Fraction | int = 0) -> Position:
        """The position of the player to move; the leader is the opponent with most worms."""
        _check_state(state)
        weight = _weight(steal_weight)
        # (A zero weight keys the cache as 0: a Fraction's hash costs more than the look-up.)
        return _position_at(state.rules, state.grill, state.stacks, state.player,
                            weight if weight.numerator else 0)

    def reward(self) -> TurnReward:
        """The worms-gained reward of this position (see `odds.position_reward`)."""
        return position_reward(self.grill, self.own_top, dict(self.others_tops), self.leader,
                               self.steal_weight, self.rules)

    def worth(self, stop: Stop) -> Fraction:
        """What one claim is worth here (see `odds.claim_worth`)."""
        if not isinstance(stop, Stop):
            raise ValueError(f"stop must be a Stop, not {stop!r}")
        return claim_worth(stop.claim, self.rules, self.leader, self.steal_weight)


def _pairs(tops: object) -> list[tuple[object, object]]:
    if not isinstance(tops, tuple) or not all(isinstance(p, tuple) and len(p) == 2 for p in tops):
        raise ValueError(f"others_tops must be (player, top serving) pairs, not {tops!r}")
    return list(tops)


@lru_cache(maxsize=1024)
def _position_at(rules: Rules, grill: tuple[int, ...], stacks: tuple[tuple[int, ...], ...],
                 player: int, steal_weight: Fraction | int) -> Position:
    # `Position.of` a valid state's fields: a pure function of them, asked at every decision
    # of an optimal bot (and the same all turn long).
    own = stacks[player][-1] if stacks[player] else None
    tops = tuple((p, s[-1]) for p, s in enumerate(stacks) if s and p != player)
    return _position(rules, grill, own, tops, _leader_of(stacks, player, rules),
                     Fraction(steal_weight))


@lru_cache(maxsize=1024)
def _position(rules: Rules, grill: tuple[int, ...], own_top: int | None,
              others_tops: tuple[tuple[int, int], ...], leader: int | None,
              steal_weight: Fraction) -> Position:
    # The position of a valid state with a checked weight: built without checking again (the
    # checks cost more than the decision). Equal positions are one object, so the solver's
    # cache finds them by identity.
    position = object.__new__(Position)
    position.__dict__.update(rules=rules, grill=grill, own_top=own_top, others_tops=others_tops,
                             leader=leader, steal_weight=steal_weight)
    position.__dict__["_hash"] = _hash(position)
    return position


def _hash(p: Position) -> int:
    return hash((p.rules, p.grill, p.own_top, p.others_tops, p.leader, p.steal_weight))


def _weight(steal_weight: object) -> Fraction:
    # `check_steal_weight`, at once for the Fraction >= 0 a bot holds (its sign is the
    # numerator's): it is asked at every decision of an optimal bot.
    if type(steal_weight) is Fraction and steal_weight.numerator >= 0:
        return steal_weight
    return check_steal_weight(steal_weight)


def _check_state(state: object) -> None:
    if type(state) is not State and not isinstance(state, State):
        raise ValueError(f"state must be a henkit.henpen State, not {state!r}")


def _leader(state: State) -> int | None:
    # The opponent with most worms (the lowest seat on a tie); None alone at the table.
    return _leader_of(state.stacks, state.player, state.rules)


def _leader_of(stacks: tuple[tuple[int, ...], ...], me: int, rules: Rules) -> int | None:
    others = [p for p in range(len(stacks)) if p != me]
    if not others:
        return None
    return max(others, key=lambda p: (sum(map(rules.worms, stacks[p])), -p))


@lru_cache(maxsize=256)
def _solve(position: Position, exact: bool) -> TurnSolution:
    # One solve serves a whole turn (every state and roll of it), so bots and the dice tray
    # ask for it once per turn; the cache keeps the last positions seen.
    reward = position.reward()
    return _solve_values(reward.stop_value, reward.fail_value, position.rules, exact)


@lru_cache(maxsize=256)  # ~50 KB a solution (values of each of its ~2,000 nodes)
def _solve_values(
    stop_value: tuple[Fraction, ...], fail_value: Fraction, rules: Rules, exact: bool
) -> TurnSolution:
    # Positions that differ only where the reward does not (a serving out of reach, a steal
    # worth what the grill offers, ...) share one solve: keyed on the reward's exact values,
    # this cache hits across turns and games where the position cache above cannot.
    return solve_turn(TurnReward(stop_value, fail_value), rules=rules, exact=exact)


def solution_for(state: State, steal_weight: Fraction | int = 0, exact: bool = False) -> TurnSolution:
    """The optimal-play solution of the turn in progress, for expected worms gained."""
    return _solve(Position.of(state, steal_weight), check_flag(exact, "exact"))


def _node(sol: TurnSolution, state: State) -> int:
    # The state's node in the solution's space, straight from its kept dice: a game state is
    # valid by construction, so the checked TurnPoint of `TurnSolution` queries is not needed.
    kept = state.kept
    mask = total = 0
    for f, (c, v) in enumerate(zip(kept, VALUES, strict=True)):
        if c:
            mask |= 1 << f
            total += c * v
    i = sol.space.find_node(state.rules.dice - sum(kept), mask, total)
    if i < 0:
        raise ValueError(f"the turn point of this state is not in the solved turn ({sol.start})")
    return i


def optimal_action(state: State, steal_weight: Fraction | int = 0) -> Action:
    """The optimal play's action for the player to move (expected worms gained this turn):
    the solver's face, then stop when the solver stops (with the best claim) or roll.

    The same answers as `solution_for(state).best_face` / `best_decision` and `best_stop`, with
    one position and one node look-up per decision (OptimalBot's hot path).
    """
    _check_state(state)
    weight = _weight(steal_weight)
    phase = state.phase
    if phase is not _TAKE and phase is not _DECIDE:
        if phase is _ROLL:
            return ROLL  # a turn starts with a roll: no position needed
        raise ValueError(f"no player decides in the {phase.value!r} phase")
    position = _position_at(state.rules, state.grill, state.stacks, state.player,
                            weight if weight.numerator else 0)
    sol = _solve(position, False)
    i = _node(sol, state)
    if phase is _TAKE:
        return TAKES[next(iter(sol.take_values_at(i, state.roll)))]  # type: ignore[arg-type]
    if sol.stops_at(i) and state.has_worm:
        stop = _best_stop(state, position.steal_weight, position.leader)
        if stop is not None:
            return stop
    return ROLL


@dataclass(frozen=True)
class Advice:
    """One legal action and its value: expected worms gained this turn if played, then best play."""

    action: Action
    value: Number

    def __post_init__(self) -> None:
        if not isinstance(self.action, Roll | Take | Stop):
            raise ValueError(f"action must be a Henpen action (Roll, Take, Stop), not {self.action!r}")
        v = self.value
        if isinstance(v, bool) or not isinstance(v, Fraction | float | int) or not math.isfinite(v):
            raise ValueError(f"value must be a number (expected worms), not {v!r}")

    def __str__(self) -> str:
        return f"{self.action}: {float(self.value):+.3f} worms expected"


def advice(state: State, steal_weight: Fraction | int = 0, exact: bool = False) -> list[Advice]:
    """Every legal action of the player to move with its exact value, best first.

    The value is the expected worms gained this turn (a failed turn costs one's top serving),
    playing optimally afterwards. Ties keep the solver's order (stop before roll; see odds).
    """
    position = Position.of(state, steal_weight)
    exact = check_flag(exact, "exact")
    if state.is_over or state.is_chance:
        return []
    sol = _solve(position, exact)
    if state.phase is _ROLL:
        return [Advice(ROLL, sol.value(state))]
    if state.phase is _TAKE:
        return [Advice(Take(f), v) for f, v in sol.take_values(state.roll, state).items()]
    assert state.phase is _DECIDE
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
    # The default weight 0 (every greedy and threshold decision) needs no Fraction or check.
    plain = type(steal_weight) is int and steal_weight == 0
    weight = _ZERO if plain else check_steal_weight(steal_weight)
    if type(state) is not State:
        _check_state(state)
    if state.phase is not _DECIDE or not state.has_worm:
        return None
    return _best_stop(state, weight, None)


def _best_stop(state: State, weight: Fraction, leader: int | None) -> Stop | None:
    # The state's own (cached) claims are `best_claim`'s candidates in the same order; the
    # leader matters only to a weighted steal, so it is worked out only then (when not given).
    claims = state.claims()
    if len(claims) < 2:
        return Stop(claims[0]) if claims else None
    if weight and leader is None:
        leader = _leader(state)
    i, _gain = best_option(claims, state.rules, leader, weight)
    return Stop(claims[i])
