"""Tabular Q-learning of one Henpen turn, graded by the exact turn solver.

The learner plays fresh turns and keeps a table of action values over the solver's own state
indexing (`turnspace.TurnSpace`), so its table can be compared with the exact answer state by
state:

- at a node (a moment between a take and the next roll) where stopping is allowed, the value of
  stopping and of rolling: ``q_stop[node]``, ``q_roll[node]``;
- after a roll (a *pair* of the space: node and projected roll), the value of keeping each face
  the roll shows: ``q_take[edge]`` (one edge per face, in the solver's preference order).

The reward is the solver's objective: a `TurnReward` (default: the worms of a full grill with
nothing to lose, `odds.position_reward()`), paid when the turn ends, with no discount. Updates
are one-step Q-learning: stopping aims at the reward, rolling at the best kept face of the roll
seen (the fail value on a bust), keeping a face at the best action of the moment it leads to
(the reward when the turn ends there by itself).

Speed: turns are played in batches, all against the same table, as whole numpy arrays (one step
per roll of every turn in the batch, not one per turn). A batch's updates are then applied
together: an entry updated k times in the batch, towards targets averaging m, moves as k plain
updates towards m would, ``q += (1 - (1 - rate)**k) * (m - q)``. Everything random comes from one
numpy Generator, so the same seed gives the same table.

Grading (`QLearner.grade`) is exact, not simulated: the learned greedy policy becomes a
`TurnPolicy` and is evaluated by the solver's machinery (backward over the same tables, or
`TurnPolicy.end_distribution`), then compared with the solver's optimal play.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from henkit.checks import whole
from henkit.henpen.dice import FACES, face_name
from henkit.henpen.inputs import check_flag, check_seed
from henkit.henpen.odds import TurnReward, TurnSolution, position_reward, solve_turn
from henkit.henpen.rules import Rules
from henkit.henpen.turnspace import TurnPoint, TurnPolicy, TurnSpace

__all__ = [
    "TIE",
    "Disagreement",
    "Grade",
    "QLearner",
    "evaluate_policy",
    "learning_curve",
    "policy_values",
]

TIE = 1e-9
"""Values closer than this (in worms) count as equally good when grading a choice."""
MAX_EPISODES = 10_000_000
"""The most turns one `QLearner.train` call plays."""
MAX_BATCH = 100_000
"""The most turns played together against one table."""


def _rate(x: Any, what: str) -> float:
    """A number from 0 to 1 (a rate or a chance) as a float; ValueError naming `what` otherwise."""
    if isinstance(x, bool | np.bool_) or not isinstance(x, int | float | np.integer | np.floating
                                                         | Fraction):
        raise ValueError(f"{what} must be a number from 0 to 1, not {x!r}")
    f = float(x)
    if not 0.0 <= f <= 1.0:
        raise ValueError(f"{what} must be a number from 0 to 1, not {x!r}")
    return f


def _finite(x: Any, what: str) -> float:
    """A finite number as a float; ValueError naming `what` otherwise."""
    if isinstance(x, bool | np.bool_) or not isinstance(x, int | float | np.integer | np.floating
                                                         | Fraction):
        raise ValueError(f"{what} must be a number, not {x!r}")
    f = float(x)
    if not np.isfinite(f):
        raise ValueError(f"{what} must be a finite number, not {x!r}")
    return f


def _check_reward(reward: Any, rules: Any) -> tuple[TurnReward, Rules]:
    """The reward (default: a full grill's worms under `rules`) and the rules, both checked."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a henkit.henpen Rules or None, not {rules!r}")
    if reward is None:
        reward = position_reward(rules=rules)
    if not isinstance(reward, TurnReward):
        raise ValueError(f"reward must be a TurnReward (e.g. position_reward()) or None, "
                         f"not {type(reward).__name__}")
    return reward, rules


# -- exact evaluation of a policy ---------------------------------------------------------------


def _end_values(space: TurnSpace, reward: TurnReward) -> np.ndarray:
    """Per node (and FAIL last): what ending the turn there is worth."""
    if reward.max_total < space.max_total:
        raise ValueError(f"the reward covers totals 0..{reward.max_total}, but this turn can "
                         f"reach {space.max_total}: give a value for every total up to it")
    stop_value, fail = reward.floats
    return np.r_[np.where(space.has_worm, stop_value[space.total], fail), fail]


def policy_values(policy: TurnPolicy, reward: TurnReward) -> np.ndarray:
    """Expected reward of playing `policy` from every node of its space (FAIL last), worked out
    backwards over the space's exact roll chances (floats; nothing is simulated)."""
    if not isinstance(policy, TurnPolicy):
        raise ValueError(f"policy must be a TurnPolicy, not {type(policy).__name__}")
    if not isinstance(reward, TurnReward):
        raise ValueError(f"reward must be a TurnReward, not {type(reward).__name__}")
    sp = policy.space
    value = _end_values(sp, reward)
    end = value.copy()
    # Children have fewer dice than their parent: levels fewest dice first finish them first.
    for _n, a, c, _b in sp.levels:
        if a == c:
            continue
        p0, p1 = int(sp.pair_start[a]), int(sp.pair_start[c])
        rolled = np.bincount(sp.pair_node[p0:p1] - a,
                             weights=sp.pair_prob[p0:p1] * value[policy.next[p0:p1]],
                             minlength=c - a)
        value[a:c] = np.where(policy.stop[a:c], end[a:c], rolled)
    return value


def evaluate_policy(policy: TurnPolicy, reward: TurnReward | None = None,
                    exact: bool = False) -> float | Fraction:
    """Expected reward of a fresh turn played by `policy`: exact fractions with `exact=True`
    (the solver's forward pass over every roll), else floats. Nothing is simulated."""
    if not isinstance(policy, TurnPolicy):
        raise ValueError(f"policy must be a TurnPolicy, not {type(policy).__name__}")
    reward, _rules = _check_reward(reward, None)
    if check_flag(exact, "exact"):
        _end_values(policy.space, reward)  # checks the reward covers every total
        ends = policy.end_distribution(exact=True)
        return ends.expectation(reward.stop_value, reward.fail_value)
    root = policy.space.index(policy.space.root)
    return float(policy_values(policy, reward)[root])


# -- the learner --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Grade:
    """The learned greedy play against the exact solver after some episodes of training."""

    episodes: int
    """Turns played so far."""
    agreement: float
    """Share of all decision points where the learned choice is an optimal one."""
    agreement_seen: float
    """The same share among the decision points training has met at least once (0 before
    training has met any)."""
    agreement_weighted: float
    """The same share, each decision point weighted by how often optimal play meets it."""
    value: float
    """Expected reward of a fresh turn played by the learned greedy policy (exact)."""
    optimum: float
    """The solver's expected reward of a fresh turn."""

    def __post_init__(self) -> None:
        # A grade is made by `QLearner.grade`; one made by hand is checked the same way.
        object.__setattr__(self, "episodes", whole(self.episodes, "episodes", 0))
        for name in ("agreement", "agreement_seen", "agreement_weighted"):
            object.__setattr__(self, name, _rate(getattr(self, name), name))
        for name in ("value", "optimum"):
            object.__setattr__(self, name, _finite(getattr(self, name), name))

    @property
    def value_lost(self) -> float:
        """How much the learned play earns less than the optimum, per turn."""
        return self.optimum - self.value


@dataclass(frozen=True)
class Disagreement:
    """A decision point where the learned play chooses something the solver rates lower."""

    point: TurnPoint
    """The moment of the turn (dice left, faces taken, total)."""
    shown: tuple[int, ...] | None
    """For a choice of face: how many dice show each face 1..6 among the faces not taken yet
    (taken faces 0); None for a choice between stopping and rolling."""
    optimal: str
    """The solver's choice: 'stop', 'roll' or a face name ('4', 'worm')."""
    learned: str
    """The learner's choice, in the same words."""
    cost: float
    """Worms lost each time the learned choice is made here (optimal play afterwards)."""
    reach: float
    """Chance that optimal play meets this decision in a fresh turn."""
    met: int = 0
    """Times training met this decision."""

    def __post_init__(self) -> None:
        if not isinstance(self.point, TurnPoint):
            raise ValueError(f"point must be a TurnPoint, not {self.point!r}"[:300])
        if self.shown is not None:
            if not isinstance(self.shown, tuple) or len(self.shown) != len(FACES):
                raise ValueError(f"shown must be None or {len(FACES)} counts (1s..5s, worms), "
                                 f"not {self.shown!r}"[:300])
            object.__setattr__(self, "shown", tuple(
                whole(c, "a count of dice shown", 0, self.point.dice_left) for c in self.shown))
        for name in ("optimal", "learned"):
            if not isinstance(getattr(self, name), str):
                raise ValueError(f"{name} must be text ('stop', 'roll' or a face), "
                                 f"not {getattr(self, name)!r}"[:300])
        object.__setattr__(self, "cost", _finite(self.cost, "cost"))
        object.__setattr__(self, "reach", _rate(self.reach, "reach (a chance)"))
        object.__setattr__(self, "met", whole(self.met, "met (times met in training)", 0))

    @property
    def loss_per_turn(self) -> float:
        """Worms lost per turn on average: reach times cost."""
        return self.reach * self.cost

    @property
    def dead_dice(self) -> int:
        """Dice of the roll showing faces already taken (none can be kept)."""
        return 0 if self.shown is None else self.point.dice_left - sum(self.shown)


class QLearner:
    """Tabular Q-learning of a fresh Henpen turn, seeded and graded by the exact solver."""

    def __init__(
        self,
        reward: TurnReward | None = None,
        *,
        rules: Rules | None = None,
        learning_rate: float = 0.3,
        exploration: float = 0.3,
        initial: float = 0.0,
        batch: int = 1000,
        seed: Any = 0,
    ) -> None:
        reward, rules = _check_reward(reward, rules)
        self.learning_rate = _rate(learning_rate, "learning_rate")
        if self.learning_rate == 0.0:
            raise ValueError("learning_rate must be more than 0 and at most 1, not 0")
        self.exploration = _rate(exploration, "exploration (the chance of a random move)")
        initial = _finite(initial, "initial (the value every action starts with)")
        self.batch = whole(batch, "batch (turns played against one table)", 1, MAX_BATCH)
        check_seed(seed)
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self.reward, self.rules = reward, rules
        self.solution: TurnSolution = solve_turn(reward, rules=rules)
        sp = self.space = self.solution.space
        self.root = sp.index(sp.root)
        self.episodes = 0
        """Turns played so far."""
        self._end = _end_values(sp, reward)
        self.fail_value = float(self._end[-1])
        self.q_stop = np.full(sp.size, initial)
        """Learned value of stopping at each node (used where a worm is taken)."""
        self.q_roll = np.full(sp.size, initial)
        """Learned value of rolling at each node (used where a roll is possible)."""
        self.q_take = np.full(len(sp.edge_child), initial)
        """Learned value of keeping each edge's face after its roll (busts: the fail value)."""
        self.bust_edge = sp.edge_face == 0
        self.q_take[self.bust_edge] = self.fail_value
        self.node_visits = np.zeros(sp.size, dtype=np.int64)
        """Times training decided between stopping and rolling at each node."""
        self.pair_visits = np.zeros(len(sp.pair_node), dtype=np.int64)
        """Times training saw each roll at each node."""
        self._opt: dict[str, np.ndarray] | None = None
        self._tables()

    def _tables(self) -> None:
        """Look-up tables shared by every batch (built once per learner)."""
        sp = self.space
        counts = np.diff(sp.pair_edge_start)
        self._edge_count = counts
        k = np.arange(int(counts.max()))[None, :]
        # Each pair's edges padded with its first edge: a row max or argmax needs no ragged loop,
        # and argmax's first maximum is the solver's preference order among equal values.
        self._edges = sp.pair_edge_start[:-1, None] + np.where(k < counts[:, None], k, 0)
        # A node's rolls follow its (dice, faces untaken) pattern, shared by many nodes and in
        # the same order as the node's pairs: the cumulative chances of every pattern, each
        # offset by its pattern number, make one short sorted array to sample from.
        pats = sp.pattern_list
        self._cum = np.concatenate([k + np.cumsum(p.probs) for k, p in enumerate(pats)])
        self._pat_first = np.r_[0, np.cumsum([len(p.weights) for p in pats])[:-1]]
        self._terminal = np.r_[~sp.rollable, True]  # FAIL ends the turn too
        self._choice_node = sp.rollable & sp.has_worm

    def table_counts(self) -> dict[str, int]:
        """How many choices of each kind the table covers and how many guesses it holds:
        'stop or roll' (moments with a worm that can roll), 'pick a face' (rolls at a moment
        showing two faces or more), 'guesses' (values the learner uses)."""
        sp = self.space
        return {
            "stop or roll": int(self._choice_node.sum()),
            "pick a face": int((self._edge_count > 1).sum()),
            "guesses": int(self._choice_node.sum() + sp.rollable.sum() + (~self.bust_edge).sum()),
        }

    # -- playing ------------------------------------------------------------------------------

    def node_values(self) -> np.ndarray:
        """What the table says each node is worth now (FAIL last): the reward where the turn ends
        by itself, else the better of stopping (with a worm) and rolling."""
        v = np.where(self.space.has_worm, np.maximum(self.q_stop, self.q_roll), self.q_roll)
        return np.where(self._terminal, self._end, np.r_[v, 0.0])

    def train(self, episodes: int) -> QLearner:
        """Play `episodes` more turns (epsilon-greedy), updating the table after every batch."""
        episodes = whole(episodes, "episodes", 0, MAX_EPISODES)
        left = episodes
        while left:
            size = min(self.batch, left)
            self._batch(size)
            left -= size
            self.episodes += size
        return self

    def _batch(self, size: int) -> None:
        """Play `size` turns against the current table, then update it once."""
        sp, rng, eps = self.space, self.rng, self.exploration
        node = np.full(size, self.root, dtype=np.int64)
        stops, rolls, roll_pairs, takes = [], [], [], []
        while node.size:
            # Every node here can roll; a worm lets it stop too.
            can_stop = sp.has_worm[node]
            greedy = can_stop & (self.q_stop[node] >= self.q_roll[node])
            explore = rng.random(node.size) < eps
            coin = rng.random(node.size) < 0.5
            stop = np.where(explore & can_stop, coin, greedy)
            np.add.at(self.node_visits, node[can_stop], 1)
            stops.append(node[stop])
            node = node[~stop]
            # Roll: the first roll of the node's pattern whose cumulative chance passes u.
            u = rng.random(node.size)
            pid = sp.node_pattern[node]
            local = np.searchsorted(self._cum, pid + u, side="right") - self._pat_first[pid]
            pair = np.minimum(sp.pair_start[node] + local, sp.pair_start[node + 1] - 1)  # rounding
            np.add.at(self.pair_visits, pair, 1)
            rolls.append(node)
            roll_pairs.append(pair)
            # Keep a face: the best by the table (first in preference order among equals), or
            # with chance eps any face the roll shows.
            row = self._edges[pair]
            best = row[np.arange(pair.size), np.argmax(self.q_take[row], axis=1)]
            explore = rng.random(pair.size) < eps
            pick = sp.pair_edge_start[pair] + (
                rng.random(pair.size) * self._edge_count[pair]).astype(np.int64)
            edge = np.where(explore, pick, best)
            live = ~self.bust_edge[edge]
            edge = edge[live]
            takes.append(edge)
            child = sp.edge_child[edge].astype(np.int64)
            node = child[~self._terminal[child]]
        self._update(np.concatenate(stops), np.concatenate(rolls), np.concatenate(roll_pairs),
                     np.concatenate(takes))

    def _update(self, stops: np.ndarray, rolls: np.ndarray, pairs: np.ndarray,
                takes: np.ndarray) -> None:
        """Move each table entry towards the mean of its batch's targets (see the module)."""
        # Targets from the table as it was while the batch played (only the entries it met).
        value = self.node_values()
        targets = (
            (self.q_stop, stops, self._end[stops]),
            (self.q_roll, rolls, self.q_take[self._edges[pairs]].max(axis=1)),
            (self.q_take, takes, value[self.space.edge_child[takes]]),
        )
        rate = self.learning_rate
        for table, idx, target in targets:
            if not idx.size:
                continue
            # Counts and sums per entry straight from the indices (no sort, as np.unique
            # would do); each entry's targets are added in the batch's order, as before.
            counts = np.bincount(idx, minlength=table.size)
            keys = np.flatnonzero(counts)
            k = counts[keys]
            mean = np.bincount(idx, weights=target, minlength=table.size)[keys] / k
            table[keys] += (1.0 - (1.0 - rate) ** k) * (mean - table[keys])

    # -- the learned play -----------------------------------------------------------------------

    def policy(self) -> TurnPolicy:
        """The greedy play of the table as a solver policy (ties: stop; the preferred face)."""
        sp = self.space
        stop = ~sp.rollable | (sp.has_worm & (self.q_stop >= self.q_roll))
        row = self._edges
        choice = row[np.arange(len(row)), np.argmax(self.q_take[row], axis=1)]
        return TurnPolicy(sp, choice.astype(np.int64), stop, f"Q-learning, {self.episodes} turns")

    def _optimal(self) -> dict[str, np.ndarray]:
        """The solver's values (per node, per roll, per kept face) and how often optimal play
        meets each decision; worked out once per learner."""
        if self._opt is None:
            sp, best = self.space, self.solution.policy
            v = policy_values(best, self.reward)
            edge_value = v[sp.edge_child]
            rolled = np.bincount(sp.pair_node, weights=sp.pair_prob * edge_value[best.choice],
                                 minlength=sp.size)
            # Chance that optimal play is at each node, then sees each roll there.
            mass = np.zeros(sp.size + 1)
            mass[self.root] = 1.0
            for _n, a, c, _b in reversed(sp.levels):
                if a == c:
                    continue
                p0, p1 = int(sp.pair_start[a]), int(sp.pair_start[c])
                going = mass[a:c] * ~best.stop[a:c]
                w = going[sp.pair_node[p0:p1] - a] * sp.pair_prob[p0:p1]
                mass += np.bincount(best.next[p0:p1], weights=w, minlength=sp.size + 1)
            pair_reach = (mass[:-1] * ~best.stop[:-1])[sp.pair_node] * sp.pair_prob
            self._opt = {"value": v, "edge": edge_value, "roll": rolled, "reach": mass[:-1],
                         "pair_reach": pair_reach, "stop": best.stop[:-1]}
        return self._opt

    def _judge(self, policy: TurnPolicy) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                  np.ndarray]:
        """Per decision point: (cost of the learned choice; weight; visited; is a node)."""
        opt = self._optimal()
        nodes = np.flatnonzero(self._choice_node)
        learned = np.where(policy.stop[nodes], self._end[nodes], opt["roll"][nodes])
        node_cost = opt["value"][nodes] - learned
        pairs = np.flatnonzero(self._edge_count > 1)
        edge = opt["edge"]
        pair_best = edge[self._edges].max(axis=1)
        pair_cost = pair_best[pairs] - edge[policy.choice[pairs]]
        cost = np.r_[node_cost, pair_cost]
        weight = np.r_[opt["reach"][nodes], opt["pair_reach"][pairs]]
        seen = np.r_[self.node_visits[nodes] > 0, self.pair_visits[pairs] > 0]
        is_node = np.r_[np.ones(nodes.size, bool), np.zeros(pairs.size, bool)]
        return np.maximum(cost, 0.0), weight, seen, is_node

    def grade(self) -> Grade:
        """The learned greedy play graded by the solver: agreement and exact value lost."""
        policy = self.policy()
        cost, weight, seen, _ = self._judge(policy)
        agree = cost <= TIE
        return Grade(
            episodes=self.episodes,
            agreement=float(agree.mean()),
            agreement_seen=float(agree[seen].mean()) if seen.any() else 0.0,
            agreement_weighted=float(weight[agree].sum() / weight.sum()),
            value=evaluate_policy(policy, self.reward),
            optimum=float(self._optimal()["value"][self.root]),
        )

    def guesses_at(self, point: Any) -> dict[str, float]:
        """The table at a moment of the turn (a TurnPoint or anything with dice_left, taken and
        total): 'stop' (with a worm) and 'roll' (when a roll is left) guesses, and 'met', the
        times training decided there."""
        sp = self.space
        i = sp.index(TurnPoint.of(point))
        out: dict[str, float] = {}
        if sp.has_worm[i] and sp.rollable[i]:
            out["stop"] = float(self.q_stop[i])
        if sp.rollable[i]:
            out["roll"] = float(self.q_roll[i])
        out["met"] = int(self.node_visits[i])
        return out

    def positions_met(self) -> list[bool]:
        """For every decision point that `grade` counts (moments to stop or roll, then rolls
        with a face to pick): whether training has met it at least once."""
        return self._judge(self.policy())[2].tolist()

    def disagreements(self, top: int = 10) -> list[Disagreement]:
        """The `top` decisions where the learned play loses most worms per turn (reach times
        cost, optimal play elsewhere), most first; only decisions optimal play can meet."""
        top = whole(top, "top (how many disagreements)", 0)
        sp, policy, opt = self.space, self.policy(), self._optimal()
        cost, weight, _seen, is_node = self._judge(policy)
        nodes = np.flatnonzero(self._choice_node)
        pairs = np.flatnonzero(self._edge_count > 1)
        where = np.r_[nodes, pairs]
        loss = weight * cost
        order = [i for i in np.argsort(-loss, kind="stable") if loss[i] > 0 and cost[i] > TIE]
        out = []
        for i in order[:top]:
            if is_node[i]:
                n = int(where[i])
                point = sp.point(n)
                learned = "stop" if policy.stop[n] else "roll"
                optimal = "roll" if learned == "stop" else "stop"
                out.append(Disagreement(point, None, optimal, learned, float(cost[i]),
                                        float(weight[i]), int(self.node_visits[n])))
                continue
            p = int(where[i])
            n = int(sp.pair_node[p])
            point = sp.point(n)
            edges = range(int(sp.pair_edge_start[p]), int(sp.pair_edge_start[p + 1]))
            best_edge = max(edges, key=lambda e: (opt["edge"][e], -e))
            out.append(Disagreement(point, self._shown(p), face_name(int(sp.edge_face[best_edge])),
                                    face_name(int(sp.edge_face[policy.choice[p]])),
                                    float(cost[i]), float(weight[i]), int(self.pair_visits[p])))
        return out

    def _shown(self, pair: int) -> tuple[int, ...]:
        """How many dice of a pair's roll show each face 1..6 (taken faces: 0)."""
        sp = self.space
        n = int(sp.pair_node[pair])
        mask = int(sp.mask[n])
        pattern = sp.pattern_list[int(sp.node_pattern[n])]
        counts = iter(pattern.counts[int(sp.pair_local[pair])].tolist())
        return tuple(0 if mask >> (f - 1) & 1 else next(counts) for f in FACES)

    def __repr__(self) -> str:
        return (f"QLearner({self.episodes} turns, rate {self.learning_rate}, exploration "
                f"{self.exploration}, batch {self.batch})")


def learning_curve(
    episodes: int,
    every: int,
    *,
    learner: QLearner | None = None,
    seed: Any = 0,
    cache: bool = True,
    **options: Any,
) -> list[Grade]:
    """Train for `episodes` turns, grading the learned play before training and after every
    `every` turns: the list of grades. A new QLearner(seed=seed, **options) unless `learner`.

    cache: a fresh learner's curve is read from henkit's results cache when the same settings
    were trained before by the same code (the learner then holds what training leaves), and
    kept there otherwise; False always trains."""
    episodes = whole(episodes, "episodes", 0, MAX_EPISODES)
    every = whole(every, "every (turns between two grades)", 1, MAX_EPISODES)
    if learner is None:
        learner = QLearner(seed=seed, **options)
    elif not isinstance(learner, QLearner):
        raise ValueError(f"learner must be a QLearner or None, not {type(learner).__name__}")
    elif options:
        raise ValueError(f"give options ({', '.join(sorted(options))}) or a learner, not both")
    cache = check_flag(cache, "cache")
    if not cache or learner.episodes:
        return _curve(learner, episodes, every)
    # A fresh learner's curve is a pure function of its settings, its starting table and its
    # generator's state: kept in henkit's results cache (as tournaments are: see
    # `henkit.tournament_cache`, HENKIT_CACHE=off turns it off), so a class's kernels replay a
    # lesson's training once, not once each. Read back, the learner holds what training leaves
    # (table, visits, the generator's state): training on from there goes as after a real run.
    from henkit import tournament_cache

    key = _curve_key(learner, episodes, every)
    if key is None:
        return _curve(learner, episodes, every)
    with tournament_cache.hold(key):
        tables: list[np.ndarray] = []
        rows = tournament_cache.load(key, _row_checker(learner, tables))
        if len(rows) == 2:
            return _restore(learner, tables, rows[1], episodes)
        grades = _curve(learner, episodes, every)
        tournament_cache.store(key, _rows(learner, grades))
    return grades


def _curve(learner: QLearner, episodes: int, every: int) -> list[Grade]:
    """Train and grade (see `learning_curve`), with no cache."""
    grades = [learner.grade()]
    done = 0
    while done < episodes:
        step = min(every, episodes - done)
        learner.train(step)
        done += step
        grades.append(learner.grade())
    return grades


_TABLES = ("q_stop", "q_roll", "q_take", "node_visits", "pair_visits")
"""The learner's arrays that training changes, in the order the cache keeps them."""
_GRADE_FIELDS = ("episodes", "agreement", "agreement_seen", "agreement_weighted", "value",
                 "optimum")


def _curve_key(learner: QLearner, episodes: int, every: int) -> dict[str, Any] | None:
    """The cache key of a fresh learner's curve: every setting and its whole starting state
    (tables digested); None when the generator's state cannot be written as JSON."""
    import json

    state = learner.rng.bit_generator.state
    try:
        start = json.dumps({
            "reward": [str(v) for v in (*learner.reward.stop_value, learner.reward.fail_value)],
            "rules": learner.rules.to_dict(), "rng": state,
            "learning_rate": repr(learner.learning_rate), "exploration": repr(learner.exploration),
            "batch": learner.batch}, sort_keys=True)
    except (TypeError, ValueError):
        return None
    from henkit import tournament_cache

    tables = [(name, getattr(learner, name)) for name in _TABLES]
    return {"what": "henpen.learning_curve", "episodes": episodes, "every": every,
            "start": tournament_cache.digest(start, tables)}


def _rows(learner: QLearner, grades: list[Grade]) -> list[list[Any]]:
    """[tables, [generator state, grades]] as the cache keeps them. Each table is its exact
    bytes, compressed, as text (JSON holds no bytes): a third of its numbers written out."""
    from henkit import tournament_cache

    tables = [tournament_cache.pack(getattr(learner, name)) for name in _TABLES]
    return [tables, [learner.rng.bit_generator.state,
                     [[getattr(g, f) for f in _GRADE_FIELDS] for g in grades]]]


def _row_checker(learner: QLearner, tables: list[np.ndarray]) -> Any:
    """The check `tournament_cache.load` runs on each row (a row that fails it is a damaged
    entry, removed): the tables must decode to this learner's shapes (put in `tables`), the
    generator's state must fit its kind, the grades must be grades."""
    from henkit import tournament_cache

    def check(g: int, row: Any) -> bool:
        try:
            if g == 0:
                tables.clear()
                for name, text in zip(_TABLES, row, strict=True):
                    old = getattr(learner, name)
                    tables.append(tournament_cache.unpack(text, old.dtype, old.shape))
                return True
            state, grades = row
            type(learner.rng.bit_generator)().state = state
            return g == 1 and all(Grade(**dict(zip(_GRADE_FIELDS, x, strict=True)))
                                  for x in grades)
        except (ValueError, TypeError, KeyError, AttributeError):
            return False

    return check


def _restore(learner: QLearner, tables: list[np.ndarray], row: list[Any],
             episodes: int) -> list[Grade]:
    """Put a cached curve's end state (checked by `_row_checker`) into `learner`; its grades."""
    state, grades = row
    for name, array in zip(_TABLES, tables, strict=True):
        setattr(learner, name, array)
    learner.rng.bit_generator.state = state
    learner.episodes += episodes
    return [Grade(**dict(zip(_GRADE_FIELDS, g, strict=True))) for g in grades]
