"""The state space of one Henpen turn, its transition tables, and policies over it.

A turn is a small Markov decision process. Its nodes are the moments between a take and the
next roll: (dice left, faces taken, total). A node whose dice are all set aside, or whose six
faces are all taken, ends the turn by itself (P5); at any other node the player may roll, and
may stop instead when a worm is among the taken faces. A fresh turn is the node with every die
left and nothing taken, where stopping is not allowed (no worm), so the same rule covers it.

Only the untaken faces of a roll matter, so a roll is recorded *projected*: how many dice show
each untaken face (the rest are "dead" dice showing taken faces). The projected distribution
depends only on the dice count n and the number u of untaken faces, which keeps the tables
small (34,000 node-roll pairs for a fresh 8-dice turn instead of 68,000 full rolls) and lets
the batch simulator sample from a handful of shared tables.

Layout (all numpy, built once per start node and cached):
- nodes sorted by (dice left, taken mask, total); node ``size`` is a pseudo-node FAIL (bust);
- ``pair_*``: one entry per (rollable node, projected roll), grouped by node;
- ``edge_*``: one entry per face a roll lets the player take, grouped by pair, in *preference
  order* (most points set aside first, then the higher face, a worm counting above a 5); a bust
  pair has a single edge to FAIL. Both tie-breaks and the threshold policy read this order.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from math import factorial
from typing import Any

import numpy as np

from henkit.checks import whole
from henkit.henpen.dice import (
    FACES,
    MAX_DICE,
    SIDES,
    VALUES,
    WORM,
    check_dice,
    check_face,
    check_faces,
    check_roll,
    face_name,
    face_value,
)
from henkit.henpen.inputs import as_fraction, check_flag
from henkit.henpen.rules import turn_ends_by_itself
from henkit.words import count

FULL_MASK = (1 << SIDES) - 1
WORM_BIT = 1 << (WORM - 1)
FAILED = -1
"""Outcome code of a failed turn (bust, or an end without a worm)."""


def faces_mask(taken: Iterable[int]) -> int:
    """Bit mask of a set of faces (bit face-1)."""
    mask = 0
    for f in check_faces(taken):
        mask |= 1 << (f - 1)
    return mask


def mask_faces(mask: int) -> frozenset[int]:
    """The faces whose bits are set in `mask` (0 to 63)."""
    mask = whole(mask, "a mask of faces", 0, FULL_MASK)
    return frozenset(f for f in FACES if mask >> (f - 1) & 1)


@dataclass(frozen=True)
class TurnPoint:
    """A moment of a turn between a take and the next roll: dice left, faces taken, total."""

    dice_left: int
    taken: frozenset[int] = field(default_factory=frozenset)
    total: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice_left", check_dice(self.dice_left, "dice_left"))
        object.__setattr__(self, "taken", check_faces(self.taken))
        object.__setattr__(self, "total", whole(self.total, "total", 0, 5 * MAX_DICE))
        if not self.taken and (self.total != 0 or self.dice_left == 0):
            raise ValueError(
                "with nothing taken yet the total must be 0 and at least one die must be left "
                f"(a fresh turn), not total={self.total}, dice_left={self.dice_left}"
            )
        if self.total < sum(face_value(f) for f in self.taken):
            raise ValueError(
                f"a total of {self.total} is too small: each taken face adds at least its value"
            )

    @classmethod
    def fresh(cls, dice: int) -> TurnPoint:
        """The start of a turn with `dice` dice (1 to MAX_DICE)."""
        return cls(check_dice(dice, "dice", 1))

    @classmethod
    def of(cls, obj: Any) -> TurnPoint:
        """A TurnPoint from any object with `dice_left`, `taken` and `total` (e.g. a game State)."""
        if isinstance(obj, TurnPoint):
            return obj
        try:
            return cls(obj.dice_left, obj.taken, obj.total)
        except AttributeError:
            raise ValueError(
                "a turn start must be a TurnPoint or have dice_left, taken and total, "
                f"not {type(obj).__name__}"
            ) from None

    @property
    def mask(self) -> int:
        """Bit mask of the taken faces."""
        return faces_mask(self.taken)

    @property
    def has_worm(self) -> bool:
        """True when a worm is among the taken faces (stopping is allowed)."""
        return WORM in self.taken

    @property
    def ends_by_itself(self) -> bool:
        """True when no roll is possible: no dice left, or every face taken (P5)."""
        return turn_ends_by_itself(self.dice_left, len(self.taken))

    def after_take(self, face: int, roll: tuple[int, ...]) -> TurnPoint:
        """The point reached by setting aside every die of `face` in `roll`."""
        counts = check_roll(roll, self.dice_left)
        face = check_face(face)
        if face in self.taken:
            raise ValueError(f"the {face_name(face, True)} are already taken this turn")
        c = counts[face - 1]
        if c == 0:
            raise ValueError(f"the roll shows no {face_name(face)}: take a face it shows")
        return TurnPoint(self.dice_left - c, self.taken | {face}, self.total + c * face_value(face))

    def __str__(self) -> str:
        taken = ", ".join(face_name(f) for f in sorted(self.taken)) or "nothing"
        return f"{count(self.dice_left, 'die', 'dice')} left, taken {taken}, total {self.total}"


def start_totals(dice: int, taken: Iterable[int], dice_left: int) -> list[int]:
    """Every total a turn of `dice` dice can have when the faces `taken` are set aside and
    `dice_left` dice are left: each taken face on at least one die, the dice set aside adding
    up to dice - dice_left. Empty when no turn gets there."""
    dice = check_dice(dice, "dice", 1)
    faces = check_faces(taken)
    kept = dice - check_dice(dice_left, "dice_left")
    # (dice used, total) pairs reachable with the faces so far, each face on >= 1 die.
    reach = {(0, 0)}
    for f in sorted(faces):
        v = face_value(f)
        reach = {(n + c, t + c * v) for n, t in reach for c in range(1, kept - n + 1)}
    return sorted({t for n, t in reach if n == kept})


def check_start(point: TurnPoint, dice: int) -> None:
    """ValueError unless a turn of `dice` dice can reach `point`: a fresh turn of `dice` dice,
    or a moment whose taken faces, dice left and total `start_totals` allows."""
    if not isinstance(point, TurnPoint):
        raise ValueError(f"point must be a TurnPoint, not {point!r}")
    dice = check_dice(dice, "dice", 1)
    if not point.taken:
        if point.dice_left != dice:
            raise ValueError(f"a fresh turn of {dice} dice has {dice} dice left, not "
                             f"{point.dice_left}")
        return
    if point.dice_left > dice - len(point.taken):
        raise ValueError(
            f"with {len(point.taken)} faces taken at least {len(point.taken)} of the {dice} dice "
            f"are set aside, so at most {dice - len(point.taken)} are left, not {point.dice_left}")
    totals = start_totals(dice, point.taken, point.dice_left)
    if point.total not in totals:
        names = ", ".join(face_name(f, plural=True) for f in sorted(point.taken))
        raise ValueError(
            f"no turn of {dice} dice reaches ({point}): setting aside {dice - point.dice_left} "
            f"dice showing {names} (each at least once) makes a total of "
            f"{' or '.join(map(str, totals))}, not {point.total}")


@dataclass(frozen=True, eq=False)  # one cached object per (n, u): identity is equality
class RollPattern:
    """The projected rolls of n dice with u untaken faces, and their exact probabilities."""

    n: int
    u: int
    counts: np.ndarray  # (m, u): dice showing each untaken face (in increasing face order)
    weights: tuple[int, ...]  # probability * 6**n, exact

    def __post_init__(self) -> None:
        check_dice(self.n, "n (dice)")
        whole(self.u, "u (faces not taken)", 1, SIDES)
        if not (isinstance(self.counts, np.ndarray) and self.counts.ndim == 2
                and self.counts.shape[1] == self.u and self.counts.dtype.kind in "iu"):
            raise ValueError("counts must be a numpy array of whole numbers, one row per roll, "
                             "one column per untaken face")
        if not (isinstance(self.weights, tuple) and len(self.weights) == len(self.counts)
                and all(type(x) is int for x in self.weights)
                and sum(self.weights) == SIDES**self.n):
            raise ValueError("weights must be one whole number per roll, adding up to 6**n")

    @cached_property
    def probs(self) -> np.ndarray:
        """Float probabilities."""
        return np.array(self.weights, dtype=np.float64) / float(SIDES**self.n)

    @cached_property
    def fractions(self) -> tuple[Fraction, ...]:
        """Exact probabilities."""
        return tuple(Fraction(w, SIDES**self.n) for w in self.weights)


def roll_pattern(n: int, u: int) -> RollPattern:
    """Projected rolls of n dice (0..MAX_DICE) onto u untaken faces (1..6); see `_roll_pattern`."""
    return _roll_pattern(check_dice(n), whole(u, "u (faces not taken)", 1, SIDES))


@cache
def _roll_pattern(n: int, u: int) -> RollPattern:
    """Projected rolls of n dice onto u untaken faces: counts per untaken face, rest dead.

    Rows run by dice shown (0 to n; all n when no face is dead), and within that as
    `itertools.combinations_with_replacement(range(u), shown)` lists the faces the dice show:
    the most dice on the first face first, then on the second, and so on. A projected roll c
    with d = n - sum(c) dead dice has probability n! / (c_1! ... c_u! d!) * (6 - u)**d / 6**n;
    with u = 6 there are no dead dice.
    """
    dead_faces = SIDES - u
    rows = [c for shown in (range(n + 1) if dead_faces else (n,)) for c in _splits(shown, u)]
    counts = np.array(rows, dtype=np.int64).reshape(len(rows), u)
    dead = n - counts.sum(axis=1)
    # Whole numbers up to 6**n (n <= MAX_DICE): int64 holds 6**24; past that, Python ints.
    kind = np.int64 if SIDES**n < 2**62 else object
    fact = np.array([factorial(i) for i in range(n + 1)], dtype=kind)
    ways = fact[n] // (fact[counts].prod(axis=1) * fact[dead]) * np.array(
        [dead_faces**d for d in range(n + 1)], dtype=kind)[dead]
    weights = tuple(int(w) for w in ways.tolist())
    counts.flags.writeable = False
    assert sum(weights) == SIDES**n
    return RollPattern(n, u, counts, weights)


@cache
def _splits(dice: int, parts: int) -> tuple[tuple[int, ...], ...]:
    # Every way to put `dice` dice on `parts` faces, as counts, the most on the first face
    # first (the order combinations_with_replacement lists the same choices in).
    if parts == 1:
        return ((dice,),)
    return tuple((first, *rest) for first in range(dice, -1, -1)
                 for rest in _splits(dice - first, parts - 1))


def take_preference(face: int, count: int) -> tuple[int, int]:
    """Sort key for faces of a roll: most points set aside first, then the higher face."""
    if type(face) is not int or not 1 <= face <= SIDES:  # the common case needs no checks
        face = check_face(face)
    if type(count) is not int:
        count = whole(count, "count (dice showing the face)", 0)
    # Most points set aside first; then the higher face, the worm (6) above the 5.
    return (-count * VALUES[face - 1], -face)


class TurnSpace:
    """Every node reachable from a start point, with the transition tables over them."""

    def __init__(self, root: TurnPoint) -> None:
        if not isinstance(root, TurnPoint):
            raise ValueError(f"a turn space grows from a TurnPoint, not {root!r}")
        self.root = root
        self.n, self.mask, self.total = _reachable(root.dice_left, root.mask, root.total)
        k = len(self.n)
        self.size = k
        """Number of nodes; index `size` is the FAIL pseudo-node."""
        self.fail = k
        self.max_total = int(self.total.max())
        self.has_worm = (self.mask & WORM_BIT) != 0
        # P5, node by node: a node can roll unless its turn ended by itself.
        self.rollable = ~_ends_by_itself()[self.n, _faces_taken()[self.mask]]
        width = self.max_total + 1
        self._lookup = np.full((MAX_DICE + 1) * (FULL_MASK + 1) * width, -1, dtype=np.int64)
        self._width = width
        self._lookup[(self.n * (FULL_MASK + 1) + self.mask) * width + self.total] = np.arange(k)
        self._build_pairs()
        self._build_levels()

    # -- construction -------------------------------------------------------------------------

    def _build_pairs(self) -> None:
        """Fill the pair and edge tables: nodes with the same dice left and taken faces (a
        group) share their rolls and the faces each roll offers, so those are worked out once
        per group (`_group_edges`, all groups of one roll pattern at once), then laid out node
        by node in node order."""
        k = self.size
        group_key = self.n * (FULL_MASK + 1) + self.mask
        starts = np.flatnonzero(np.r_[True, group_key[1:] != group_key[:-1]])
        ends = np.r_[starts[1:], k]
        # A group's nodes share n and the taken faces, so all roll or none does.
        rolls = self.rollable[starts]
        starts, ends = starts[rolls], ends[rolls]
        g_n, g_mask = self.n[starts], self.mask[starts]
        pattern_ids: dict[tuple[int, int], int] = {}
        g_pid = np.array([pattern_ids.setdefault(key, len(pattern_ids)) for key in zip(
            g_n.tolist(), (SIDES - _faces_taken()[g_mask]).tolist(), strict=True)], dtype=np.int64)
        self.pattern_list = [roll_pattern(n, u) for n, u in pattern_ids]
        self._patterns: dict[tuple[int, int], RollPattern] = dict(
            zip(pattern_ids, self.pattern_list, strict=True))
        self.node_pattern = np.full(k, -1, dtype=np.int64)  # (n, u) pattern id per node
        self.node_pattern[self.rollable] = np.repeat(g_pid, ends - starts)

        # Per pattern: its rolls, edges per roll (the faces shown, or one for a bust), each
        # roll's first edge, and these laid end to end (p_off: each pattern's first roll).
        rows = np.array([len(p.weights) for p in self.pattern_list], dtype=np.int64)
        row_edges = [np.maximum((p.counts > 0).sum(axis=1), 1) for p in self.pattern_list]
        edges = np.array([int(e.sum()) for e in row_edges], dtype=np.int64)
        p_off = np.r_[0, np.cumsum(rows)]
        row_start = _joined([np.r_[0, np.cumsum(e)[:-1]] for e in row_edges], np.int64)
        probs = _joined([p.probs for p in self.pattern_list], np.float64)

        # Every group's edges, group after group: child key offsets (-1: a bust) and faces.
        g_edges = edges[g_pid]
        g_off = np.r_[0, np.cumsum(g_edges)]
        rel = np.empty(int(g_off[-1]), dtype=np.int64)
        faces = np.empty(int(g_off[-1]), dtype=np.int8)
        for pid, (n, _u) in enumerate(pattern_ids):
            gi = np.flatnonzero(g_pid == pid)
            at = (g_off[gi][:, None] + np.arange(edges[pid])).ravel()
            rel[at], faces[at] = (x.ravel() for x in _group_edges(
                n, g_mask[gi], self.pattern_list[pid], self._width))

        # Node by node: node i's pairs are its pattern's rolls, its edges its group's edges
        # (child keys offset by its total).
        node_pid = self.node_pattern[self.rollable]
        pair_count = np.zeros(k, dtype=np.int64)
        pair_count[self.rollable] = rows[node_pid]
        edge_count = np.zeros(k, dtype=np.int64)
        edge_count[self.rollable] = edges[node_pid]
        node_g_off = np.zeros(k, dtype=np.int64)
        node_g_off[self.rollable] = np.repeat(g_off[:-1], ends - starts)
        edge_start = np.r_[0, np.cumsum(edge_count)]
        edge_node = np.repeat(np.arange(k), edge_count)
        rel = rel[node_g_off[edge_node] + np.arange(len(edge_node)) - edge_start[edge_node]]
        faces = faces[node_g_off[edge_node] + np.arange(len(edge_node)) - edge_start[edge_node]]
        bust = rel < 0
        child = np.where(bust, self.fail, self._lookup[np.where(bust, 0, rel + self.total[edge_node])])
        assert (child >= 0).all()
        pair_start = np.r_[0, np.cumsum(pair_count)]
        pair_node = np.repeat(np.arange(k), pair_count)
        local = np.arange(len(pair_node)) - pair_start[pair_node]
        row = p_off[self.node_pattern[pair_node]] + local
        pair_edge_start = np.r_[edge_start[pair_node] + row_start[row], len(edge_node)]

        def fixed(a: np.ndarray, dtype: Any) -> np.ndarray:
            out = a.astype(dtype)
            out.flags.writeable = False
            return out

        self.pair_start = fixed(pair_start, np.int64)
        """Pairs of node i are pair_start[i]:pair_start[i+1]."""
        self.pair_node = fixed(pair_node, np.int32)
        self.pair_prob = fixed(probs[row], np.float64)
        self.pair_local = fixed(local, np.int32)
        """Index of each pair's projected roll within its node's RollPattern."""
        self.pair_edge_start = fixed(pair_edge_start, np.int64)
        """Edges of pair p are pair_edge_start[p]:pair_edge_start[p+1] (at least one)."""
        self.edge_child = fixed(child, np.int32)
        self.edge_face = fixed(faces, np.int8)
        """Face each edge takes; 0 for the single edge of a bust."""
        self.edge_pair = fixed(np.repeat(np.arange(len(pair_node)), np.diff(pair_edge_start)),
                               np.int32)

    def _build_levels(self) -> None:
        """Slices per dice count: nodes [a, c) can roll, [c, b) end the turn by themselves."""
        self.levels: list[tuple[int, int, int, int]] = []  # (n, a, c, b)
        for n in range(int(self.n.max()) + 1):
            idx = np.flatnonzero(self.n == n)
            if idx.size == 0:
                continue
            a, b = int(idx[0]), int(idx[-1]) + 1
            c = a + int(self.rollable[a:b].sum())
            assert self.rollable[a:c].all() and not self.rollable[c:b].any()
            self.levels.append((n, a, c, b))

    # -- look-ups -----------------------------------------------------------------------------

    @cached_property
    def level_tables(self) -> list[tuple[int, int, np.ndarray, np.ndarray, np.ndarray]]:
        """Per level of rollable nodes [a, c), fewest dice first: (a, c, children, starts, probs).

        children[k, j] is the node reached by the k-th edge of the level's pair j, padded with
        the pair's first edge to the level's most edges (a repeat leaves a max unchanged), so the
        float solver takes each pair's best edge as one column-wise max instead of a reduceat over
        ragged groups (several times faster); starts[i] is node a+i's first pair in the level.
        """
        counts = np.diff(self.pair_edge_start)
        out = []
        for _n, a, c, _b in self.levels:
            if a == c:
                continue
            p0, p1 = int(self.pair_start[a]), int(self.pair_start[c])
            cnt = counts[p0:p1]
            k = np.arange(int(cnt.max()))[:, None]
            edges = self.pair_edge_start[p0:p1][None, :] + np.minimum(k, cnt[None, :] - 1)
            tables = (
                self.edge_child[edges].astype(np.intp),  # intp: the fastest gather
                (self.pair_start[a:c] - p0).astype(np.intp),
                self.pair_prob[p0:p1],
            )
            for t in tables[:2]:
                t.flags.writeable = False
            out.append((a, c, *tables))
        return out

    @cached_property
    def exact_levels(self) -> list[tuple[int, int, np.ndarray, np.ndarray, np.ndarray, int]]:
        """`level_tables` for whole-number solves: per level of rollable nodes [a, c), fewest
        dice first, (a, c, children, starts, weights, 6**n), where weights holds each pair's
        `pair_weight_exact` as Python ints (an object array: exact sums of any size)."""
        weights = self.pair_weight_exact
        out = []
        levels = [(n, a, c) for n, a, c, _b in self.levels if a != c]
        for (n, a, c), (_a, _c, children, starts, _probs) in zip(
                levels, self.level_tables, strict=True):
            p0, p1 = int(self.pair_start[a]), int(self.pair_start[c])
            w = np.array(weights[p0:p1], dtype=object)
            w.flags.writeable = False
            out.append((a, c, children, starts, w, SIDES**n))
        return out

    def _pair_rows(self) -> list[int]:
        # Each pair's row in its patterns' rows laid end to end (pattern_list order).
        offset = np.r_[0, np.cumsum([len(p.weights) for p in self.pattern_list], dtype=np.int64)]
        return (offset[self.node_pattern[self.pair_node]] + self.pair_local).tolist()

    @cached_property
    def pair_prob_exact(self) -> list[Fraction]:
        """Exact probability of every pair (built on first use: exact mode only)."""
        every = [f for pattern in self.pattern_list for f in pattern.fractions]
        return [every[r] for r in self._pair_rows()]

    @cached_property
    def pair_weight_exact(self) -> list[int]:
        """Every pair's probability times 6**n (n: its node's dice), a whole number (exact mode)."""
        every = [w for pattern in self.pattern_list for w in pattern.weights]
        return [every[r] for r in self._pair_rows()]

    def __len__(self) -> int:
        return self.size

    def __contains__(self, point: object) -> bool:
        return isinstance(point, TurnPoint) and self.find(point) >= 0

    def find(self, point: TurnPoint) -> int:
        """Node index of `point`, or -1 when it is not reachable from this space's root."""
        if not isinstance(point, TurnPoint):
            raise ValueError(f"point must be a TurnPoint, not {point!r}")
        return self.find_node(point.dice_left, point.mask, point.total)

    def find_node(self, dice_left: int, mask: int, total: int) -> int:
        """`find` from the parts of a point (for callers that hold them already: bots); -1 when
        no node has them."""
        if (type(dice_left) is not int or type(mask) is not int or type(total) is not int
                or not 0 <= dice_left <= MAX_DICE or not 0 <= mask <= FULL_MASK or total < 0):
            dice_left = check_dice(dice_left, "dice_left")
            mask = whole(mask, "a mask of faces", 0, FULL_MASK)
            total = whole(total, "total", 0)
        if total > self.max_total:
            return -1
        return int(self._lookup[(dice_left * (FULL_MASK + 1) + mask) * self._width + total])

    def index(self, point: TurnPoint) -> int:
        """Node index of `point`; ValueError when the point is not in this space."""
        i = self.find(point)
        if i < 0:
            raise ValueError(f"the turn point ({point}) cannot be reached from ({self.root})")
        return i

    def point(self, i: int) -> TurnPoint:
        """The TurnPoint of node i."""
        i = whole(i, "a node index", 0, self.size - 1)
        return TurnPoint(int(self.n[i]), mask_faces(int(self.mask[i])), int(self.total[i]))

    def roll_pair(self, i: int, roll: tuple[int, ...]) -> int:
        """The pair index of node i's projected roll for a full counts tuple."""
        if type(i) is not int:
            i = whole(i, "a node index", 0, self.size - 1)
        if not 0 <= i < self.size or not self.rollable[i]:
            raise ValueError(f"node {i} is not a node of this space that can roll")
        n = int(self.n[i])
        roll = check_roll(roll, n)
        mask = int(self.mask[i])
        proj = tuple(c for f, c in zip(FACES, roll, strict=True) if not mask >> (f - 1) & 1)
        local = _pattern_index(n, len(proj))[proj]
        return int(self.pair_start[i]) + local


def _group_edges(
    n: int, masks: np.ndarray, pat: RollPattern, width: int
) -> tuple[np.ndarray, np.ndarray]:
    """The edges of the nodes with n dice left and the faces of each of `masks` taken (one
    row per mask; all with `pat`'s number of untaken faces), roll by roll of `pat`: child key
    offsets, -1 for a bust, and faces, 0 for a bust; each roll's faces in `take_preference`
    order."""
    untaken = _untaken()[masks, : pat.u]  # (groups, u)
    values = _VALUES[untaken]
    counts = np.broadcast_to(pat.counts, (len(masks), *pat.counts.shape))  # (groups, rolls, u)
    # take_preference as one number: points set aside * 8 + face orders by points, then by
    # face (faces are 1..6), highest first; faces the roll does not show go last.
    rank = np.where(counts > 0, counts * values[:, None, :] * 8 + untaken[:, None, :], -1)
    order = np.argsort(-rank, axis=2, kind="stable")
    c = np.take_along_axis(counts, order, axis=2)
    f = np.take_along_axis(np.broadcast_to(untaken[:, None, :], counts.shape), order, axis=2)
    shown = pat.counts > 0
    # The faces a roll shows do not depend on the group: keep the shown ones, or the bust.
    keep = np.concatenate([np.sort(shown, axis=1)[:, ::-1], ~shown.any(axis=1)[:, None]],
                          axis=1).ravel()
    key = ((n - c) * (FULL_MASK + 1) + (masks[:, None, None] | (1 << (f - 1)))) * width + (
        c * _VALUES[f])
    pad = (*counts.shape[:2], 1)
    rel = np.concatenate([key, np.full(pad, -1)], axis=2).reshape(len(masks), -1)[:, keep]
    faces = np.concatenate([f, np.zeros(pad, np.int64)], axis=2).reshape(len(masks), -1)[:, keep]
    return rel, faces.astype(np.int8)


def _joined(parts: list[np.ndarray], dtype: Any) -> np.ndarray:
    # Arrays end to end (an empty array of `dtype` when there are none).
    return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype=dtype)


_VALUES = np.array((0, *VALUES), dtype=np.int64)
"""Points per die by face (index 0 unused)."""


@cache
def _untaken() -> np.ndarray:
    # Per mask of taken faces: the untaken faces in increasing order, padded with 0.
    table = np.zeros((FULL_MASK + 1, SIDES), dtype=np.int64)
    for mask in range(FULL_MASK + 1):
        faces = [f for f in FACES if not mask >> (f - 1) & 1]
        table[mask, : len(faces)] = faces
    table.flags.writeable = False
    return table


@cache
def _faces_taken() -> np.ndarray:
    # Per mask of taken faces: how many faces it holds.
    table = np.array([mask.bit_count() for mask in range(FULL_MASK + 1)], dtype=np.int64)
    table.flags.writeable = False
    return table


@cache
def _ends_by_itself() -> np.ndarray:
    # P5 (`turn_ends_by_itself`) per (dice left, faces taken).
    table = np.array([[turn_ends_by_itself(n, f) for f in range(SIDES + 1)]
                      for n in range(MAX_DICE + 1)], dtype=bool)
    table.flags.writeable = False
    return table


@cache
def _pattern_index(n: int, u: int) -> dict[tuple[int, ...], int]:
    return {tuple(r): j for j, r in enumerate(_roll_pattern(n, u).counts.tolist())}


def _reachable(n0: int, mask0: int, total0: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (dice, mask, total) reachable from a start node, the start included, sorted: the
    dice, masks and totals as three arrays."""
    width = max(VALUES) * MAX_DICE + 1
    bits = (1 << (np.array(FACES, dtype=np.int64) - 1))[:, None]
    worth = _VALUES[1:, None]
    levels = [np.array([(n0 * (FULL_MASK + 1) + mask0) * width + total0], dtype=np.int64)]
    # Each take adds a face, so the nodes of a step are new: none was reached at an earlier one.
    while True:
        n, rest = np.divmod(levels[-1], (FULL_MASK + 1) * width)
        mask, total = np.divmod(rest, width)
        live = ~_ends_by_itself()[n, _faces_taken()[mask]]
        n, mask, total = n[live, None, None], mask[live, None, None], total[live, None, None]
        if not n.size:
            break
        c = np.arange(1, int(n.max()) + 1)  # dice showing the face taken
        ok = ((mask & bits) == 0) & (c <= n)
        keys = ((n - c) * (FULL_MASK + 1) + (mask | bits)) * width + total + c * worth
        keys = np.sort(keys[ok])
        levels.append(keys[np.r_[True, keys[1:] != keys[:-1]]])  # np.unique, without numpy.ma
    n, rest = np.divmod(np.sort(np.concatenate(levels)), (FULL_MASK + 1) * width)
    mask, total = np.divmod(rest, width)
    return n, mask, total


def turn_space(root: TurnPoint) -> TurnSpace:
    """The (cached) turn space of every node reachable from `root`."""
    if not isinstance(root, TurnPoint):
        raise ValueError(f"a turn space grows from a TurnPoint, not {root!r}")
    return _turn_space(root)


@lru_cache(maxsize=32)
def _turn_space(root: TurnPoint) -> TurnSpace:
    return TurnSpace(root)


def space_for(point: TurnPoint, dice: int) -> TurnSpace:
    """The fresh `dice`-dice space when it holds `point` (shared, cached), else one rooted there."""
    if not isinstance(point, TurnPoint):
        raise ValueError(f"point must be a TurnPoint, not {point!r}")
    fresh = turn_space(TurnPoint.fresh(dice))
    return fresh if fresh.find(point) >= 0 else turn_space(point)


# -- policies ----------------------------------------------------------------------------------


class TurnPolicy:
    """A deterministic way to play a turn: which edge to take per roll, where to stop."""

    def __init__(self, space: TurnSpace, choice: np.ndarray, stop: np.ndarray, name: str) -> None:
        if not isinstance(space, TurnSpace):
            raise ValueError(f"a policy is over a TurnSpace, not {space!r}")
        if not isinstance(name, str):
            raise ValueError(f"a policy's name is text, not {name!r}")
        self.space = space
        self.name = name
        if not (isinstance(choice, np.ndarray) and choice.dtype.kind in "iu"):
            raise ValueError("choice must be a numpy array of edge indices, one per pair")
        if not (isinstance(stop, np.ndarray) and stop.dtype.kind == "b"):
            raise ValueError("stop must be a numpy array of bools, one per node")
        choice = np.asarray(choice, dtype=np.int64)
        if choice.shape == space.pair_node.shape and choice.size and (
                (choice < space.pair_edge_start[:-1]).any() or (choice >= space.pair_edge_start[1:]).any()):
            raise ValueError("each pair's choice must be one of its own edges")
        if choice.shape != space.pair_node.shape or stop.shape != (space.size,):
            raise ValueError("a policy needs one choice per pair and one stop flag per node")
        # A turn that ends by itself must stop; stopping without a worm is not allowed.
        if (~stop & ~space.rollable).any() or (stop & space.rollable & ~space.has_worm).any():
            raise ValueError("a policy may stop only with a worm, and must stop when no roll is left")
        self.choice = choice
        """Chosen edge per pair."""
        self.stop = np.r_[stop, True]
        """Per node (FAIL included): the turn ends here."""
        self.next = space.edge_child[choice].astype(np.int32)
        """Node reached per pair (FAIL on a bust)."""
        self.outcome = np.r_[np.where(space.has_worm, space.total, FAILED), FAILED].astype(np.int16)
        """Per node: the end total if the turn stops there, FAILED without a worm."""
        for a in (self.choice, self.stop, self.next, self.outcome):
            a.flags.writeable = False

    def face(self, i: int, roll: tuple[int, ...]) -> int | None:
        """The face this policy takes at node i for a full roll (None: bust)."""
        f = int(self.space.edge_face[self.choice[self.space.roll_pair(i, roll)]])
        return f or None

    def end_distribution(self, start: TurnPoint | None = None, exact: bool = False) -> EndDistribution:
        """Exact distribution of how the turn ends under this policy, from `start` (root)."""
        sp = self.space
        s = sp.index(TurnPoint.of(start)) if start is not None else sp.index(sp.root)
        return _forward_exact(self, s) if check_flag(exact, "exact") else _forward_float(self, s)


def threshold_policy_on(space: TurnSpace, threshold: int) -> TurnPolicy:
    """Stop once the total is >= threshold with a worm; take worms while none are taken, else
    the face setting aside the most points (ties: the higher face, a worm above a 5)."""
    if not isinstance(space, TurnSpace):
        raise ValueError(f"space must be a TurnSpace, not {space!r}")
    threshold = whole(threshold, "threshold", 0)
    stop = ~space.rollable | (space.has_worm & (space.total >= threshold))
    first = space.pair_edge_start[:-1]
    wants_worm = (space.edge_face == WORM) & ~space.has_worm[space.pair_node[space.edge_pair]]
    big = len(space.edge_child)
    worm_edge = np.minimum.reduceat(
        np.where(wants_worm, np.arange(big), big), first
    ) if big else np.zeros(0, dtype=np.int64)
    choice = np.where(worm_edge < big, worm_edge, first)
    return TurnPolicy(space, choice, stop, f"threshold {threshold}")


@dataclass(frozen=True)
class EndDistribution:
    """How a turn ends: probability of stopping with a worm at each total, and of failing."""

    at_total: tuple[Any, ...]  # index t: chance to end with a worm and total t
    fail: Any  # chance the turn fails (bust, or ending without a worm)

    def __post_init__(self) -> None:
        # Chances are Fractions (exact) or floats, each from 0 to 1.
        if isinstance(self.at_total, str | bytes) or not isinstance(self.at_total, tuple | list):
            raise ValueError(f"at_total must be a list of chances, not {self.at_total!r}")
        object.__setattr__(self, "at_total", tuple(self.at_total))
        for p in (*self.at_total, self.fail):
            if isinstance(p, bool) or not isinstance(p, Fraction | float | int) or not -1e-9 <= p <= 1 + 1e-9:
                raise ValueError(f"an end distribution holds chances from 0 to 1, not {p!r}")

    def chance_at_least(self, target: int) -> Any:
        """Chance to end with a worm and a total >= target."""
        target = whole(target, "target")
        return sum(self.at_total[max(target, 0):], 0 * self.fail)

    def chance_exactly(self, target: int) -> Any:
        """Chance to end with a worm and exactly this total."""
        target = whole(target, "target")
        return self.at_total[target] if 0 <= target < len(self.at_total) else 0 * self.fail

    def expectation(self, stop_value: Any, fail_value: Any) -> Any:
        """Expected reward: sum of P(t) * stop_value[t] plus P(fail) * fail_value."""
        if isinstance(stop_value, str | bytes) or not isinstance(stop_value, Iterable):
            raise ValueError(f"stop_value must be a list of numbers, not {stop_value!r}")
        values = [as_fraction(v, "stop_value") if not isinstance(v, float) else v for v in stop_value]
        fail = fail_value if isinstance(fail_value, float) else as_fraction(fail_value, "fail_value")
        for v in (*values, fail):
            if isinstance(v, float) and not np.isfinite(v):
                raise ValueError(f"values must be finite, not {v!r}")
        return sum((p * v for p, v in zip(self.at_total, values, strict=False) if p),
                   self.fail * fail)

    def total_probability(self) -> Any:
        """Sum of every end's chance (1, up to rounding in float mode)."""
        return sum(self.at_total, self.fail)


def _forward_float(policy: TurnPolicy, s: int) -> EndDistribution:
    sp = policy.space
    mass = np.zeros(sp.size + 1)
    mass[s] = 1.0
    n_start = int(sp.n[s])
    for n, a, c, _b in reversed(sp.levels):
        if n > n_start or a == c:
            continue
        p0, p1 = int(sp.pair_start[a]), int(sp.pair_start[c])
        rolling = mass[a:c] * ~policy.stop[a:c]
        w = rolling[sp.pair_node[p0:p1] - a] * sp.pair_prob[p0:p1]
        mass += np.bincount(policy.next[p0:p1], weights=w, minlength=sp.size + 1)
    ends = mass[:-1] * policy.stop[:-1]
    worm = sp.has_worm
    at_total = np.bincount(sp.total[worm], weights=ends[worm], minlength=sp.max_total + 1)
    fail = float(ends[~worm].sum() + mass[-1])
    return EndDistribution(tuple(float(x) for x in at_total), fail)


def _forward_exact(policy: TurnPolicy, s: int) -> EndDistribution:
    sp = policy.space
    # Chances as whole numbers over one denominator, 6**(n + (n-1) + ... + 1) for n dice at the
    # start: a path rolls at most that many dice, each roll of k dice a whole number over 6**k,
    # so every mass below is whole (the division by 6**k is exact). Whole-number sums are
    # several times quicker than Fraction ones; the chances become Fractions at the end.
    weight = sp.pair_weight_exact
    dice_left = sp.n.tolist()
    top = dice_left[s]
    scale = SIDES ** (top * (top + 1) // 2)
    stop, has_worm, totals = policy.stop.tolist(), sp.has_worm.tolist(), sp.total.tolist()
    pair_start, follow = sp.pair_start.tolist(), policy.next.tolist()
    mass: dict[int, int] = {s: scale}
    at_total = [0] * (sp.max_total + 1)
    fail = 0
    # Nodes are sorted by dice left and a child always has fewer dice than its parent, so
    # popping the highest index first finishes every node's incoming mass before it is spread.
    heap = [-s]
    while heap:
        i = -heapq.heappop(heap)
        m = mass.pop(i)
        if stop[i]:
            if has_worm[i]:
                at_total[totals[i]] += m
            else:
                fail += m
            continue
        unit = SIDES ** dice_left[i]
        for p in range(pair_start[i], pair_start[i + 1]):
            j = follow[p]
            share = m * weight[p] // unit  # exact: see above
            if j == sp.fail:
                fail += share
                continue
            if j not in mass:
                mass[j] = 0
                heapq.heappush(heap, -j)
            mass[j] += share
    return EndDistribution(tuple(Fraction(x, scale) for x in at_total), Fraction(fail, scale))
