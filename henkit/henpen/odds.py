"""Exact odds of one Henpen turn: a backward-induction solver and the named objectives.

`solve_turn(reward, ...)` plays a turn optimally for any reward over end totals and returns a
`TurnSolution`: the value of every moment of the turn, the best action for every roll, and the
exact distribution of how the turn ends. Floats by default (vectorised numpy, a few ms for a fresh
8-dice turn); `exact=True` gives `Fraction`s by the same algorithm in plain Python.

Ties, in both modes (float mode treats values within 1e-12 x the largest |reward| as equal, so
both modes choose alike):
- stop or roll: stopping wins when it is at least as good as rolling;
- which face: the face setting aside the most points wins; then the higher face (a worm above a 5).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from typing import Any

import numpy as np

from henkit.checks import whole
from henkit.henpen.dice import SIDES, check_dice, check_faces, check_roll
from henkit.henpen.inputs import as_fraction, check_flag
from henkit.henpen.rules import Claim, Rules, legal_claims
from henkit.henpen.turnspace import (
    EndDistribution,
    TurnPoint,
    TurnPolicy,
    TurnSpace,
    check_start,
    space_for,
)

Number = float | Fraction
_ZERO = Fraction(0)
WORM_MAX = 5  # the most a die adds to a total (a worm, or a 5)
TIE_TOLERANCE = 1e-12
"""Float mode: values this close (relative to the largest |reward|) count as a tie."""

__all__ = [
    "EndDistribution",
    "TurnPoint",
    "TurnReward",
    "TurnSolution",
    "best_claim",
    "best_option",
    "bust_chance",
    "chance_at_least",
    "chance_exactly",
    "check_steal_weight",
    "claim_worth",
    "expected_worms",
    "position_reward",
    "resolve_start",
    "solve_turn",
]


def bust_chance(dice: int, taken: Iterable[int], exact: bool = True) -> Number:
    """Chance that a roll of `dice` dice (1 to 20) shows only faces in `taken`: (k/6)**dice
    (rulebook, Failed turns: such a roll goes bust)."""
    dice = check_dice(dice, "dice (dice rolled)", 1)
    k = len(check_faces(taken))
    p = Fraction(k, SIDES) ** dice
    return p if check_flag(exact, "exact") else float(p)


@dataclass(frozen=True, eq=False)
class TurnReward:
    """What a turn's end is worth: stop_value[t] for stopping at total t with a worm, else
    fail_value (give unclaimable totals the fail value yourself)."""

    stop_value: tuple[Fraction, ...]
    fail_value: Fraction = Fraction(0)

    def __init__(self, stop_value: Iterable[Any], fail_value: Any = 0) -> None:
        if isinstance(stop_value, str | bytes) or not isinstance(stop_value, Iterable):
            raise ValueError(f"stop_value must be a sequence of numbers, not {stop_value!r}")
        values = tuple(as_fraction(v, f"stop_value[{t}]") for t, v in enumerate(stop_value))
        if not values:
            raise ValueError("stop_value must give a value for totals 0, 1, ... (it is empty)")
        object.__setattr__(self, "stop_value", values)
        object.__setattr__(self, "fail_value", as_fraction(fail_value, "fail_value"))

    @classmethod
    def _trusted(cls, stop_value: tuple[Fraction, ...], fail_value: Fraction) -> TurnReward:
        """A reward from values already checked and made Fractions (the engine's fast path)."""
        reward = object.__new__(cls)
        object.__setattr__(reward, "stop_value", stop_value)
        object.__setattr__(reward, "fail_value", fail_value)
        return reward

    @property
    def max_total(self) -> int:
        """The highest total this reward covers."""
        return len(self.stop_value) - 1

    @cached_property
    def floats(self) -> tuple[np.ndarray, float]:
        """(stop_value as a float array, fail_value as a float)."""
        return np.array([float(v) for v in self.stop_value]), float(self.fail_value)

    @cached_property
    def scale(self) -> float:
        """The largest |value|, the yardstick of float ties."""
        return max(1.0, float(max(abs(v) for v in (*self.stop_value, self.fail_value))))

    @classmethod
    def at_least(cls, target: int, max_total: int) -> TurnReward:
        """1 for stopping with a worm at a total >= target, else 0."""
        target = _check_target(target)
        return cls([int(t >= target) for t in range(_check_max_total(max_total) + 1)], 0)

    @classmethod
    def exactly(cls, target: int, max_total: int) -> TurnReward:
        """1 for stopping with a worm at exactly this total, else 0."""
        target = _check_target(target)
        return cls([int(t == target) for t in range(_check_max_total(max_total) + 1)], 0)


MAX_REWARD_TOTAL = 10_000
"""The highest total a named reward covers (a turn of MAX_DICE dice reaches 5 * MAX_DICE)."""


def _check_target(target: object) -> int:
    return whole(target, "target (a total)", 0)


def _check_max_total(m: object) -> int:
    return whole(m, "max_total", 0, MAX_REWARD_TOTAL)


# -- a real game position ----------------------------------------------------------------------


def claim_worth(claim: Claim, rules: Rules, leader: int | None, steal_weight: Any) -> Fraction:
    """A claim's worth: its worms, times (1 + steal_weight) for a steal from the leader (or from
    anyone when no leader is named)."""
    if not isinstance(claim, Claim):
        raise ValueError(f"claim must be a Claim, not {claim!r}")
    rules, leader, weight = _check_worth_args(rules, leader, steal_weight)
    return _worth(claim, rules, leader, weight)


def _check_worth_args(rules: Any, leader: Any, steal_weight: Any) -> tuple[Rules, int | None, Fraction]:
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a henkit.henpen Rules, not {rules!r}")
    if leader is not None:
        leader = whole(leader, "leader (a player number, or None)", 0)
    return rules, leader, check_steal_weight(steal_weight)


def _worth(claim: Claim, rules: Rules, leader: int | None, steal_weight: Fraction) -> Fraction:
    worms = Fraction(rules.worms(claim.tile))
    if claim.owner is None:
        return worms
    # A steal also takes the worms from their owner: weigh that with steal_weight (per worm),
    # for the leader only when a leader is named, else for any opponent.
    bonus = steal_weight if leader is None or claim.owner == leader else Fraction(0)
    return worms * (1 + bonus)


def best_option(
    claims: list[Claim], rules: Rules, leader: int | None, steal_weight: Any
) -> tuple[int, Fraction]:
    """Index of the most valuable of `claims` (see `claim_worth`) and its worth; ties go to the
    earlier claim; (-1, 0) when there is none."""
    if type(steal_weight) is not Fraction or not isinstance(rules, Rules):
        rules, leader, steal_weight = _check_worth_args(rules, leader, steal_weight)
    if not isinstance(claims, list | tuple) or not all(isinstance(c, Claim) for c in claims):
        raise ValueError(f"claims must be a list of Claims, not {claims!r}")
    return _best(claims, lambda c: _worth(c, rules, leader, steal_weight))


def _best(claims: Sequence[Claim], worth: Callable[[Claim], Fraction]) -> tuple[int, Fraction]:
    # `best_option` over checked claims, with any way to price one.
    best, best_gain = -1, _ZERO
    for i, claim in enumerate(claims):
        gain = worth(claim)
        if best < 0 or gain > best_gain:
            best, best_gain = i, gain
    return best, best_gain


def check_steal_weight(steal_weight: Any) -> Fraction:
    """`steal_weight` as a Fraction; ValueError unless it is a number >= 0."""
    weight = as_fraction(steal_weight, "steal_weight")
    if weight < 0:
        raise ValueError(f"steal_weight must be >= 0 (extra worth per stolen worm), not {weight}")
    return weight


def _check_position(
    grill: Iterable[int] | None,
    own_top: int | None,
    others_tops: Mapping[int, int] | None,
    leader: int | None,
    steal_weight: Any,
    rules: Rules,
) -> tuple[tuple[int, ...], int | None, dict[int, int], int | None, Fraction]:
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a henkit.henpen Rules or None, not {rules!r}")
    tiles = set(rules.tiles)
    if grill is None:
        grill_t = rules.tiles
    else:
        if isinstance(grill, str | bytes | Mapping) or not isinstance(grill, Iterable):
            raise ValueError(f"grill must be a list of servings, not {grill!r}")
        grill_t = tuple(sorted(whole(t, "a serving on the grill") for t in grill))
    if len(set(grill_t)) != len(grill_t) or not set(grill_t) <= tiles:
        raise ValueError(f"grill must list distinct servings among {rules.describe_tiles()}, "
                         f"not {grill_t}")
    if others_tops is None:
        tops: dict[int, int] = {}
    elif isinstance(others_tops, Mapping):
        tops = {whole(p, "a player (a key of others_tops)", 0): whole(t, "an opponent's top serving")
                for p, t in others_tops.items()}
    else:
        raise ValueError(f"others_tops must be a dict of player -> top serving, not {others_tops!r}")
    if own_top is not None:
        own_top = whole(own_top, "own_top (a serving, or None)")
    held = [t for t in (own_top, *tops.values()) if t is not None]
    for t in held:
        if t not in tiles:
            raise ValueError(f"no serving {t!r}; servings are {rules.describe_tiles()}")
    if len(set(held)) != len(held) or set(held) & set(grill_t):
        raise ValueError("a serving is in one place only: the grill, one's own top or an "
                         f"opponent's top (grill {grill_t}, own top {own_top}, others {tops})")
    weight = check_steal_weight(steal_weight)
    if leader is not None:
        leader = whole(leader, "leader (a player number, or None)", 0)
    return grill_t, own_top, tops, leader, weight


def best_claim(
    total: int,
    grill: Iterable[int] | None = None,
    own_top: int | None = None,
    others_tops: Mapping[int, int] | None = None,
    leader: int | None = None,
    steal_weight: Any = 0,
    rules: Rules | None = None,
) -> tuple[Claim | None, Fraction]:
    """The best serving to claim when stopping at `total` with a worm, and what it is worth.

    Worth = the serving's worms, times (1 + steal_weight) for a steal (from the leader only,
    when one is named). Ties go to the earlier claim of `legal_claims` (the grill first).
    (None, 0) when nothing can be claimed.
    """
    rules = Rules() if rules is None else rules
    g, own, tops, lead, w = _check_position(grill, own_top, others_tops, leader, steal_weight, rules)
    claims = legal_claims(whole(total, "total", 0), g, own, tops)
    i, gain = best_option(claims, rules, lead, w)
    return (claims[i], gain) if i >= 0 else (None, gain)


def position_reward(
    grill: Iterable[int] | None = None,
    own_top: int | None = None,
    others_tops: Mapping[int, int] | None = None,
    leader: int | None = None,
    steal_weight: Any = 0,
    rules: Rules | None = None,
    max_total: int | None = None,
) -> TurnReward:
    """The worms-gained reward of a real position: the best claim's worth at each total
    (see `best_claim`), the fail value (losing one's own top serving) where none is legal.

    Defaults: the full grill, no opponents' tops, no own top; max_total = rules.max_total.
    """
    rules = Rules() if rules is None else rules
    g, own, tops, lead, w = _check_position(grill, own_top, others_tops, leader, steal_weight, rules)
    fail = -Fraction(rules.worms(own)) if own is not None else Fraction(0)
    top = rules.max_total if max_total is None else _check_max_total(max_total)
    # Every total asks the claim rule; the few servings it names are priced once each.
    worth = cache(lambda c: _worth(c, rules, lead, w))
    values = []
    for t in range(top + 1):
        i, gain = _best(legal_claims(t, g, own, tops), worth)
        values.append(fail if i < 0 else gain)
    return TurnReward._trusted(tuple(values), fail)


# -- the solver --------------------------------------------------------------------------------


def resolve_start(
    start: Any = None,
    dice: int | None = None,
    taken: Iterable[int] = (),
    total: int = 0,
    rules: Rules | None = None,
) -> tuple[TurnPoint, int]:
    """The start point and the turn's dice count from either `start` or dice/taken/total.

    `start` is a TurnPoint or anything with dice_left, taken and total (a game State, whose
    own rules then apply). Without it: a fresh turn of `dice` (default rules.dice) dice, or,
    when `taken` is given, the moment after those takes with `dice` dice left.

    Accepted starts (anything else is a ValueError saying why):
    - a fresh turn: nothing taken, total 0, 1 to 20 dice (a dice count other than rules.dice
      is a turn of its own);
    - a moment of a turn of rules.dice dice that play can reach: with faces F taken and d dice
      left, some counts c_f >= 1 of the faces in F add up to the rules.dice - d dice set aside,
      and their values (a worm counts 5) to the total. E.g. with 8 dice, 5 left and 1s and a
      worm taken, the 3 dice set aside total 7 or 11 (one 1 and two worms, two 1s and a worm),
      never 8.
    """
    if rules is None:
        rules = getattr(start, "rules", None) if isinstance(getattr(start, "rules", None), Rules) else Rules()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a henkit.henpen Rules or None, not {rules!r}")
    taken = check_faces(taken)
    if start is not None:
        if dice is not None or taken or (type(total) is not int or total):
            raise ValueError("give either start or dice/taken/total, not both")
        own = getattr(start, "rules", None)
        if isinstance(own, Rules) and own.dice != rules.dice:
            raise ValueError(f"the start is a state of a {own.dice}-dice game, not of the "
                             f"{rules.dice}-dice rules given")
        point = TurnPoint.of(start)
        check_start(point, rules.dice)
        return point, rules.dice
    if taken and dice is None:
        raise ValueError("a mid-turn start needs dice= (how many dice are left to roll)")
    point = TurnPoint(rules.dice if dice is None else check_dice(dice, "dice", 0), taken, total)
    # A fresh turn with another dice count is its own turn; a mid-turn point is part of a
    # rules.dice turn, and must be one that turn can reach.
    if not taken:
        return point, point.dice_left
    check_start(point, rules.dice)
    return point, rules.dice


def solve_turn(
    reward: TurnReward,
    *,
    start: Any = None,
    dice: int | None = None,
    taken: Iterable[int] = (),
    total: int = 0,
    rules: Rules | None = None,
    exact: bool = False,
) -> TurnSolution:
    """Play a turn to maximise the expected `reward`, from a fresh turn or a mid-turn start.

    The solution covers every node reachable from the start (the whole fresh turn of
    rules.dice dice when the start lies in it, so one solution serves a whole turn).
    """
    if not isinstance(reward, TurnReward):
        raise ValueError(f"reward must be a TurnReward, not {type(reward).__name__}")
    exact = check_flag(exact, "exact")
    point, turn_dice = resolve_start(start, dice, taken, total, rules)
    space = space_for(point, turn_dice)
    if reward.max_total < space.max_total:
        raise ValueError(
            f"stop_value covers totals 0..{reward.max_total}, but this turn can reach "
            f"{space.max_total}: give a value for every total up to it"
        )
    return TurnSolution(space, reward, exact, point)


class TurnSolution:
    """The optimal play of a turn for one reward: values, best actions, end distribution.

    Points are TurnPoints (or game States) between a take and the next roll; rolls are counts
    tuples (1s..5s, worms) of the point's dice left.
    """

    def __init__(self, space: TurnSpace, reward: TurnReward, exact: bool, start: TurnPoint):
        if not isinstance(space, TurnSpace):
            raise ValueError(f"space must be a TurnSpace, not {space!r}")
        if not isinstance(reward, TurnReward):
            raise ValueError(f"reward must be a TurnReward, not {reward!r}")
        exact = check_flag(exact, "exact")
        if not isinstance(start, TurnPoint) or space.find(start) < 0:
            raise ValueError(f"start must be a TurnPoint of the space, not {start!r}")
        if reward.max_total < space.max_total:
            raise ValueError(f"stop_value covers totals 0..{reward.max_total}, but this turn can "
                             f"reach {space.max_total}: give a value for every total up to it")
        self.space = space
        self.reward = reward
        self.exact = exact
        self.start = start
        """The point solved for; the default of every query."""
        if exact:
            self._solve_exact()
        else:
            self._solve_float()

    # -- backward induction -------------------------------------------------------------------

    def _solve_float(self) -> None:
        sp = self.space
        stop_value, fail = self.reward.floats
        # Value of ending at each node: the reward with a worm, the fail value without.
        end = np.where(sp.has_worm, stop_value[sp.total], fail)
        value = np.empty(sp.size + 1)
        value[:-1] = end  # right for nodes that cannot roll; the others are overwritten below
        value[-1] = fail
        roll = np.full(sp.size, np.nan)
        for a, c, children, starts, probs in sp.level_tables:  # fewest dice first
            # Children have fewer dice, so their values are final: each pair's best edge, then
            # each node's expectation over its pairs.
            best = np.maximum.reduce(value[children], axis=0)
            r = np.add.reduceat(best * probs, starts)
            roll[a:c] = r
            value[a:c] = np.where(sp.has_worm[a:c], np.maximum(end[a:c], r), r)
        self._end, self._value, self._roll = end, value, roll

    def _solve_exact(self) -> None:
        # Exact values as whole numbers over one common denominator, `self._scale`: a roll of
        # n dice has chances that are whole numbers over 6**n (`pair_weight_exact`), and a turn
        # rolls at most n + (n-1) + ... + 1 dice, so with the reward's common denominator every
        # value is a whole number over scale. Whole-number sums and comparisons are several
        # times quicker than Fraction ones (no gcd at every step), and give the same numbers:
        # values become Fractions (in lowest terms) when a query asks for one.
        sp = self.space
        stop_value, fail_value = self.reward.stop_value, self.reward.fail_value
        dice = int(sp.n.max()) if sp.size else 0
        den = math.lcm(*(Fraction(v).denominator for v in (*stop_value, fail_value)))
        scale = den * SIDES ** (dice * (dice + 1) // 2)
        scaled = [Fraction(v) * scale for v in stop_value]
        stop = [v.numerator for v in scaled]  # whole: den divides scale
        fail = (Fraction(fail_value) * scale).numerator
        has_worm = sp.has_worm.tolist()
        totals = sp.total.tolist()
        end = [stop[t] if w else fail for t, w in zip(totals, has_worm, strict=True)]
        # Level by level, fewest dice first, in object arrays of Python ints (exact): each
        # pair's best edge (a padded edge repeats one, leaving the max alone), then each node's
        # weighted sum over its pairs, divided by 6**n (exact: see above).
        value = np.array([*end, fail], dtype=object)
        ends = value[:-1].copy()
        roll: list[int | None] = [None] * sp.size
        for a, c, children, starts, weights, unit in sp.exact_levels:
            r = np.add.reduceat(np.maximum.reduce(value[children], axis=0) * weights, starts) // unit
            roll[a:c] = r.tolist()
            value[a:c] = np.where(sp.has_worm[a:c], np.maximum(ends[a:c], r), r)
        self._scale = scale
        self._end, self._value, self._roll = end, value.tolist(), roll

    # -- the policy ---------------------------------------------------------------------------

    @cached_property
    def policy(self) -> TurnPolicy:
        """The optimal policy with the documented tie-breaks, as tables (for batch simulation)."""
        sp = self.space
        if self.exact:
            value, pes, child = self._value, sp.pair_edge_start.tolist(), sp.edge_child.tolist()
            choice = []
            for p in range(len(sp.pair_node)):
                edges = range(pes[p], pes[p + 1])
                best = max(value[child[e]] for e in edges)
                choice.append(next(e for e in edges if value[child[e]] == best))
            stop = [
                not sp.rollable[i] or (sp.has_worm[i] and self._end[i] >= self._roll[i])
                for i in range(sp.size)
            ]
            return TurnPolicy(sp, np.array(choice, dtype=np.int64), np.array(stop), "optimal")
        eps = TIE_TOLERANCE * self.reward.scale
        vals = self._value[sp.edge_child]
        first = sp.pair_edge_start[:-1]
        best = np.maximum.reduceat(vals, first)
        good = vals >= best[sp.edge_pair] - eps
        big = len(vals)
        # Edges are in preference order, so the first good edge of each pair is the tie-break.
        choice = np.minimum.reduceat(np.where(good, np.arange(big), big), first)
        with np.errstate(invalid="ignore"):
            stop = ~sp.rollable | (sp.has_worm & (self._end >= self._roll - eps))
        return TurnPolicy(sp, choice, stop, "optimal")

    # -- queries ------------------------------------------------------------------------------

    def _num(self, x: Any) -> Number:
        # Exact values are kept as whole numbers over self._scale (see _solve_exact).
        return Fraction(x, self._scale) if self.exact else float(x)

    def _node(self, point: Any) -> tuple[TurnPoint, int]:
        p = self.start if point is None else TurnPoint.of(point)
        return p, self.space.index(p)

    @property
    def fail_value(self) -> Number:
        """The value of a failed turn."""
        return self.reward.fail_value if self.exact else float(self.reward.fail_value)

    def value(self, point: Any = None) -> Number:
        """Optimal value at a point: a fresh turn's value, or the best of stop and roll."""
        return self._num(self._value[self._node(point)[1]])

    def value_if_roll(self, point: Any = None) -> Number:
        """Value of rolling now and playing on optimally; ValueError when no roll is left."""
        p, i = self._node(point)
        if not self.space.rollable[i]:
            raise ValueError(f"no roll is left at ({p}): the turn ends by itself")
        return self._num(self._roll[i])

    def value_if_stop(self, point: Any = None) -> Number:
        """Value of stopping now (or of the turn ending by itself); needs a worm to stop."""
        p, i = self._node(point)
        if not p.has_worm and self.space.rollable[i]:
            raise ValueError(f"stopping needs a worm among the taken faces ({p})")
        return self._num(self._end[i])

    def take_values(self, roll: Any, point: Any = None) -> dict[int, Number]:
        """Value of each face the roll lets the player take, best first (empty: a bust).

        The solver's choice comes first; the others follow by value, ties in the solver's
        preference order (most points set aside, then the higher face).
        """
        p, i = self._node(point)
        counts = check_roll(roll, p.dice_left)
        if not self.space.rollable[i]:
            raise ValueError(f"no roll is possible at ({p}): the turn ends by itself")
        return self.take_values_at(i, counts)

    def take_values_at(self, node: int, roll: tuple[int, ...]) -> dict[int, Number]:
        """`take_values` for a node index of the space (bots hold one: see `space.find_node`)."""
        sp = self.space
        pair = sp.roll_pair(node, roll)  # checks the node and the roll
        e0, e1 = int(sp.pair_edge_start[pair]), int(sp.pair_edge_start[pair + 1])
        chosen = self._choice(pair)
        values = [(int(sp.edge_face[e]), self._value[int(sp.edge_child[e])])
                  for e in [chosen, *(e for e in range(e0, e1) if e != chosen)]
                  if sp.edge_face[e]]
        # A stable sort keeps the solver's choice first among equal values.
        values.sort(key=lambda fv: -fv[1])
        return {face: self._num(v) for face, v in values}

    def _choice(self, pair: int) -> int:
        # policy.choice[pair] by the same comparisons, for one pair: a decision needs one
        # pair, and building the whole policy (every pair of the turn) costs far more.
        sp = self.space
        e0, e1 = int(sp.pair_edge_start[pair]), int(sp.pair_edge_start[pair + 1])
        value = self._value
        vals = [value[c] for c in sp.edge_child[e0:e1].tolist()]
        best = max(vals)
        if self.exact:
            return e0 + vals.index(best)
        low = best - TIE_TOLERANCE * self.reward.scale
        return e0 + next(k for k, v in enumerate(vals) if v >= low)

    def stops_at(self, node: int) -> bool:
        """Whether the optimal play stops at a node index of the space (the turn ending by
        itself counts as stopping): `policy.stop[node]` for one node, without the whole policy."""
        sp = self.space
        if type(node) is not int or not 0 <= node < sp.size:
            node = whole(node, "a node index", 0, sp.size - 1)
        i = node
        if not sp.rollable[i]:
            return True
        if not sp.has_worm[i]:
            return False
        if self.exact:
            return bool(self._end[i] >= self._roll[i])
        return bool(self._end[i] >= self._roll[i] - TIE_TOLERANCE * self.reward.scale)

    def value_of_roll(self, roll: Any, point: Any = None) -> Number:
        """Value of a roll just seen: the best face's value, or the fail value for a bust."""
        values = self.take_values(roll, point)
        return next(iter(values.values())) if values else self.fail_value

    def best_face(self, roll: Any, point: Any = None) -> int | None:
        """The face to take from this roll (ties as documented); None for a bust."""
        values = self.take_values(roll, point)
        return next(iter(values)) if values else None

    def best_decision(self, point: Any = None) -> str:
        """'stop' or 'roll' at a point; 'end' when the turn ends by itself (no roll left)."""
        _p, i = self._node(point)
        if not self.space.rollable[i]:
            return "end"
        return "stop" if self.stops_at(i) else "roll"

    def end_distribution(self, point: Any = None) -> EndDistribution:
        """Exact chance of each end total (with a worm) and of failure under the optimal play."""
        p, _i = self._node(point)
        return self.policy.end_distribution(p, exact=self.exact)

    def __repr__(self) -> str:
        mode = "exact" if self.exact else "float"
        return f"TurnSolution({mode}, start=({self.start}), value={float(self.value()):.6g})"


# -- named objectives --------------------------------------------------------------------------


def _objective(
    make: Any, start: Any, dice: int | None, taken: Iterable[int], total: int, roll: Any,
    rules: Rules | None, exact: bool,
) -> Number:
    exact = check_flag(exact, "exact")
    point, turn_dice = resolve_start(start, dice, taken, total, rules)
    space = space_for(point, turn_dice)
    reward = make(max(space.max_total, WORM_MAX * turn_dice))
    sol = TurnSolution(space, reward, exact, point)
    return sol.value() if roll is None else sol.value_of_roll(roll)


def chance_at_least(
    target: int,
    *,
    start: Any = None,
    dice: int | None = None,
    taken: Iterable[int] = (),
    total: int = 0,
    roll: Any = None,
    rules: Rules | None = None,
    exact: bool = False,
) -> Number:
    """Chance of stopping with a worm at a total >= target, playing to maximise exactly that.

    From a fresh turn (default), a mid-turn start, or, with `roll`, just after seeing a roll.
    """
    target = _check_target(target)
    return _objective(lambda m: TurnReward.at_least(target, m), start, dice, taken, total, roll,
                      rules, exact)


def chance_exactly(
    target: int,
    *,
    start: Any = None,
    dice: int | None = None,
    taken: Iterable[int] = (),
    total: int = 0,
    roll: Any = None,
    rules: Rules | None = None,
    exact: bool = False,
) -> Number:
    """Chance of stopping with a worm at exactly `target`, playing to maximise exactly that."""
    target = _check_target(target)
    return _objective(lambda m: TurnReward.exactly(target, m), start, dice, taken, total, roll,
                      rules, exact)


def expected_worms(
    grill: Iterable[int] | None = None,
    own_top: int | None = None,
    others_tops: Mapping[int, int] | None = None,
    leader: int | None = None,
    steal_weight: Any = 0,
    *,
    start: Any = None,
    dice: int | None = None,
    taken: Iterable[int] = (),
    total: int = 0,
    roll: Any = None,
    rules: Rules | None = None,
    exact: bool = False,
) -> Number:
    """Expected worms gained this turn for a real position, playing to maximise them.

    See `position_reward`: a claim is worth its worms (a steal 1 + steal_weight per worm);
    a failed turn costs one's own top serving. No position: full grill, nothing to lose.
    """
    exact = check_flag(exact, "exact")
    point, turn_dice = resolve_start(start, dice, taken, total, rules)
    rules = Rules() if rules is None else rules
    space = space_for(point, turn_dice)
    reward = position_reward(grill, own_top, others_tops, leader, steal_weight, rules,
                             max(space.max_total, rules.max_total))
    sol = TurnSolution(space, reward, exact, point)
    return sol.value() if roll is None else sol.value_of_roll(roll)
