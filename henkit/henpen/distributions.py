"""Distributions the Henpen lessons and charts show, computed here so a notebook, the CLI and a
chart get each number from one place (`henkit.charts.henpen` only draws them).

- `face_count_distribution`: exact chance that k of n dice show a face; `simulate_face_counts`
  draws seeded rolls of the same distribution;
- `bust_chances`: the exact bust chance by dice left and faces taken;
- `policy_distributions`: how a fresh turn ends under the optimal play and threshold policies;
- `turn_outlook`: the chance of ending the turn in progress on each serving (or failing);
- `decision_map`: where the optimal play stops or rolls, by dice left and total.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from henkit.checks import whole
from henkit.henpen.advice import Position, solution_for
from henkit.henpen.batch import threshold_policy
from henkit.henpen.dice import (
    FACES,
    MAX_DICE,
    MAX_ROLLS,
    WORM,
    check_dice,
    check_face,
    face_name,
    roll_outcomes,
    roll_probabilities,
    sample_rolls,
)
from henkit.henpen.inputs import check_flag, check_seed
from henkit.henpen.odds import (
    EndDistribution,
    TurnSolution,
    best_claim,
    bust_chance,
    check_steal_weight,
    position_reward,
    solve_turn,
)
from henkit.henpen.rules import Claim, Rules
from henkit.henpen.state import Phase, State
from henkit.henpen.turnspace import FULL_MASK, TurnPoint, faces_mask, mask_faces

__all__ = [
    "DecisionMap",
    "bust_chances",
    "decision_map",
    "face_count_distribution",
    "policy_distributions",
    "simulate_face_counts",
    "turn_outlook",
]


# -- one roll ----------------------------------------------------------------------------------


def face_count_distribution(n: int, face: int = WORM) -> tuple[Fraction, ...]:
    """Exact chance that exactly k of n dice (1 to 20) show `face`, k = 0..n (summed over the
    engine's rolls)."""
    n = check_dice(n, "n (dice rolled)", 1)
    face = check_face(face)
    out = [Fraction(0)] * (n + 1)
    for counts, p in zip(roll_outcomes(n), roll_probabilities(n), strict=True):
        out[counts[face - 1]] += p
    return tuple(out)


def simulate_face_counts(n: int, face: int, rolls: int, seed: Any = 0) -> np.ndarray:
    """How many dice show `face` in each of `rolls` seeded rolls of n dice (engine's roll table)."""
    n = check_dice(n, "n (dice rolled)", 1)
    face = check_face(face)
    rolls = whole(rolls, "rolls", 1, MAX_ROLLS)
    check_seed(seed)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return sample_rolls(n, rng, rolls)[:, face - 1]


def bust_chances(max_dice: int = 8) -> tuple[tuple[Fraction, ...], ...]:
    """Exact bust chance of the next roll: row k (0..6 faces taken), column d-1 (d = 1..max_dice
    dice left). The chance depends only on how many faces are taken (see `odds.bust_chance`)."""
    max_dice = check_dice(max_dice, "max_dice", 1)
    return tuple(tuple(bust_chance(d, FACES[:k]) for d in range(1, max_dice + 1))
                 for k in range(len(FACES) + 1))


# -- how a turn ends ---------------------------------------------------------------------------


def policy_distributions(
    thresholds: Iterable[int] = (25,),
    optimal: bool = True,
    rules: Rules | None = None,
    exact: bool = False,
) -> dict[str, EndDistribution]:
    """End distributions of a fresh turn: the optimal play (expected worms, full grill) and
    'stop at T' threshold policies, by name."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a henkit.henpen Rules or None, not {rules!r}")
    optimal, exact = check_flag(optimal, "optimal"), check_flag(exact, "exact")
    if isinstance(thresholds, str | bytes) or not isinstance(thresholds, Iterable):
        raise ValueError(f"thresholds must be a list of totals, not {thresholds!r}")
    ts = [whole(t, "a threshold", 0, 5 * MAX_DICE) for t in thresholds]
    out: dict[str, EndDistribution] = {}
    if optimal:
        sol = solve_turn(position_reward(rules=rules), rules=rules, exact=exact)
        out["optimal (expected worms)"] = sol.end_distribution()
    for t in ts:
        out[f"stop at {t}"] = threshold_policy(t, rules=rules).end_distribution(exact=exact)
    return out


@lru_cache(maxsize=256)
def _claims(position: Position, max_total: int) -> tuple[Claim | None, ...]:
    """The serving the best stop claims at each total 0..max_total (None: none claimable)."""
    return tuple(
        best_claim(t, position.grill, position.own_top, dict(position.others_tops),
                   position.leader, position.steal_weight, position.rules)[0]
        for t in range(max_total + 1)
    )


def turn_outlook(state: State, steal_weight: Fraction | int = 0) -> dict[Claim | None, float]:
    """Chance of ending the turn on each serving (None: failing) under optimal play from now.

    In the take phase the player is assumed to take the solver's best face of the roll shown.
    """
    if not isinstance(state, State):
        raise ValueError(f"state must be a henpen State, not {state!r}")
    if state.phase is Phase.OVER:
        raise ValueError("the game is over: there is no turn to look ahead in")
    weight = check_steal_weight(steal_weight)
    sol = solution_for(state, weight)
    point = TurnPoint.of(state)
    if state.phase is Phase.TAKE:
        face = sol.best_face(state.roll, state)
        if face is None:
            return {None: 1.0}
        point = point.after_take(face, state.roll)  # type: ignore[arg-type]
    dist = sol.end_distribution(point)
    claims = _claims(Position.of(state, weight), len(dist.at_total) - 1)
    out: dict[Claim | None, float] = {None: float(dist.fail)}
    for t, p in enumerate(dist.at_total):
        if p:
            c = claims[t]
            out[c] = out.get(c, 0.0) + float(p)
    return out


# -- the solver's stop-or-roll map -------------------------------------------------------------


@dataclass(frozen=True)
class DecisionMap:
    """The optimal play's decision at each (dice left, total) with a stop-or-roll choice.

    `cells[(dice, total)]` lists the decision at every moment with those dice left and that
    total (one per set of taken faces): 'stop', 'roll' or 'tie' (stopping and rolling worth
    exactly the same, where the solver's tie rule, stop, decides).
    """

    what: str  # the taken faces covered, in words
    dice: tuple[int, ...]  # dice left, rows
    totals: tuple[int, ...]  # totals, columns
    cells: dict[tuple[int, int], tuple[str, ...]]

    def __post_init__(self) -> None:
        if not (isinstance(self.what, str) and isinstance(self.dice, tuple)
                and isinstance(self.totals, tuple) and isinstance(self.cells, dict)
                and all(set(v) <= {"stop", "roll", "tie"} for v in self.cells.values()
                        if isinstance(v, tuple))):
            raise ValueError("a DecisionMap is built by decision_map(solution, taken)")

    def kind(self, dice: int, total: int) -> str | None:
        """'stop', 'roll', 'tie' when every moment there agrees (ties aside), 'depends' when
        they differ, None where no moment has a choice."""
        got = self.cells.get((dice, total))
        if not got:
            return None
        kinds = set(got) - {"tie"}
        if not kinds:
            return "tie"
        return kinds.pop() if len(kinds) == 1 else "depends"


def decision_map(solution: TurnSolution, taken: Iterable[int] | None = None) -> DecisionMap:
    """Where the optimal play stops or rolls (worm taken, a roll possible), by dice left and
    total: with `taken` (faces including the worm) only moments with exactly those faces taken,
    else every set of taken faces with a worm."""
    if not isinstance(solution, TurnSolution):
        raise ValueError(f"solution must be a TurnSolution (odds.solve_turn), not {solution!r}")
    sp = solution.space
    choice = sp.has_worm & sp.rollable
    if taken is not None:
        mask = faces_mask(taken)
        if not mask & (1 << (WORM - 1)) or mask == FULL_MASK:
            raise ValueError("taken must include the worm and leave a face untaken "
                             f"(otherwise there is no stop-or-roll choice), not {sorted(mask_faces(mask))}")
        choice = choice & (sp.mask == mask)
        what = "taken " + ", ".join(face_name(f) for f in sorted(mask_faces(mask)))
    else:
        what = "any faces taken, with a worm"
    idx = np.flatnonzero(choice)
    if idx.size == 0:
        raise ValueError(f"no moment of this turn has a stop-or-roll choice with {what}")
    stop = solution.policy.stop
    eps = 0 if solution.exact else 1e-12 * solution.reward.scale  # the solver's own tie tolerance
    cells: dict[tuple[int, int], list[str]] = {}
    for i in idx.tolist():
        point = sp.point(i)
        if abs(solution.value_if_stop(point) - solution.value_if_roll(point)) <= eps:
            decision = "tie"
        else:
            decision = "stop" if stop[i] else "roll"
        cells.setdefault((int(sp.n[i]), int(sp.total[i])), []).append(decision)
    dice = tuple(sorted(set(sp.n[idx].tolist())))
    totals = tuple(range(int(sp.total[idx].min()), int(sp.total[idx].max()) + 1))
    return DecisionMap(what, dice, totals, {k: tuple(v) for k, v in cells.items()})
