"""The turn space's tables, built with whole-array steps, are the tables a plain node-by-node,
roll-by-roll walk of the rules gives: the same nodes in the same order, the same pairs, the same
edges in `take_preference` order, every array equal (values, dtypes, read-only flags)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial

import numpy as np
import pytest

from henkit.henpen.dice import FACES, SIDES, face_value
from henkit.henpen.rules import turn_ends_by_itself
from henkit.henpen.turnspace import (
    FULL_MASK,
    TurnPoint,
    TurnSpace,
    faces_mask,
    roll_pattern,
    take_preference,
)

ROOTS = [
    *(TurnPoint(d) for d in (1, 2, 3, 5, 8, 11)),
    TurnPoint(5, {6, 2}, 14),
    TurnPoint(3, {5}, 25),
    TurnPoint(2, {1, 2, 3, 6}, 11),
    TurnPoint(1, {1, 2, 3, 4, 5}, 15),
    TurnPoint(0, {6}, 5),  # no node can roll: every pair and edge table is empty
]


def plain_rows(n: int, u: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """The projected rolls of n dice on u untaken faces, as the module documents them: by dice
    shown, then in the order combinations_with_replacement lists the faces; each roll's number
    of ordered rolls of n dice (the rest dead) by the multinomial formula."""
    rows, weights = [], []
    for shown in range(n + 1) if u < SIDES else (n,):
        for combo in combinations_with_replacement(range(u), shown):
            c = tuple(combo.count(i) for i in range(u))
            ways = factorial(n) // factorial(n - shown)
            for x in c:
                ways //= factorial(x)
            rows.append(c)
            weights.append(ways * (SIDES - u) ** (n - shown))
    return rows, weights


@pytest.mark.parametrize("n", [*range(11), 20])
def test_roll_patterns_are_the_plain_enumeration(n: int) -> None:
    for u in range(1, SIDES + 1) if n <= 10 else (1, 2, 3):
        pattern = roll_pattern(n, u)
        rows, weights = plain_rows(n, u)
        assert pattern.counts.tolist() == [list(r) for r in rows]
        assert pattern.weights == tuple(weights)
        assert all(type(w) is int for w in pattern.weights)
        assert pattern.counts.dtype == np.int64 and not pattern.counts.flags.writeable


def plain_space(root: TurnPoint) -> dict[str, object]:
    """Every table of a turn space, node by node and roll by roll in plain Python."""
    seen, todo = set(), [(root.dice_left, root.mask, root.total)]
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        n, mask, total = node
        if turn_ends_by_itself(n, mask.bit_count()):
            continue
        for f in FACES:
            if not mask >> (f - 1) & 1:
                todo += [(n - c, mask | 1 << (f - 1), total + c * face_value(f))
                         for c in range(1, n + 1)]
    nodes = sorted(seen)
    index = {node: i for i, node in enumerate(nodes)}
    fail = len(nodes)
    rollable = [not turn_ends_by_itself(n, m.bit_count()) for n, m, _t in nodes]
    pattern_ids: dict[tuple[int, int], int] = {}
    node_pattern, pair_start = [], [0]
    pair_node, pair_prob, pair_local, pair_edge_start, weights = [], [], [], [], []
    edge_child, edge_face, edge_pair = [], [], []
    for i, (n, mask, total) in enumerate(nodes):
        if not rollable[i]:
            node_pattern.append(-1)
            pair_start.append(pair_start[-1])
            continue
        untaken = [f for f in FACES if not mask >> (f - 1) & 1]
        pattern = roll_pattern(n, len(untaken))
        node_pattern.append(pattern_ids.setdefault((n, len(untaken)), len(pattern_ids)))
        for r, row in enumerate(pattern.counts.tolist()):
            pair_edge_start.append(len(edge_child))
            pair_node.append(i)
            pair_prob.append(pattern.weights[r] / SIDES**n)
            weights.append(pattern.weights[r])
            pair_local.append(r)
            shown = sorted(((f, c) for f, c in zip(untaken, row, strict=True) if c),
                           key=lambda fc: take_preference(*fc))
            for f, c in shown or [(0, 0)]:
                edge_pair.append(len(pair_node) - 1)
                edge_face.append(f)
                edge_child.append(index[(n - c, mask | 1 << (f - 1), total + c * face_value(f))]
                                  if f else fail)
        pair_start.append(len(pair_node))
    pair_edge_start.append(len(edge_child))
    width = max(t for _n, _m, t in nodes) + 1
    lookup = np.full((max(n for n, _m, _t in nodes) + 1) * (FULL_MASK + 1) * width, -1)
    for i, (n, mask, total) in enumerate(nodes):
        lookup[(n * (FULL_MASK + 1) + mask) * width + total] = i
    return {
        "n": np.array([n for n, _m, _t in nodes], dtype=np.int64),
        "mask": np.array([m for _n, m, _t in nodes], dtype=np.int64),
        "total": np.array([t for _n, _m, t in nodes], dtype=np.int64),
        "has_worm": np.array([bool(m >> 5 & 1) for _n, m, _t in nodes]),
        "rollable": np.array(rollable),
        "node_pattern": np.array(node_pattern, dtype=np.int64),
        "pair_start": np.array(pair_start, dtype=np.int64),
        "pair_node": np.array(pair_node, dtype=np.int32),
        "pair_prob": np.array(pair_prob, dtype=np.float64),
        "pair_local": np.array(pair_local, dtype=np.int32),
        "pair_edge_start": np.array(pair_edge_start, dtype=np.int64),
        "edge_child": np.array(edge_child, dtype=np.int32),
        "edge_face": np.array(edge_face, dtype=np.int8),
        "edge_pair": np.array(edge_pair, dtype=np.int32),
        "lookup": lookup,
        "patterns": list(pattern_ids),
        "weights": weights,
    }


READ_ONLY = ("pair_start", "pair_node", "pair_prob", "pair_local", "pair_edge_start",
             "edge_child", "edge_face", "edge_pair")


@pytest.mark.parametrize("root", ROOTS, ids=str)
def test_every_table_is_the_plain_walks(root: TurnPoint) -> None:
    space, plain = TurnSpace(root), plain_space(root)
    for name, want in plain.items():
        if name in ("lookup", "patterns", "weights"):
            continue
        got = getattr(space, name)
        assert got.dtype == want.dtype and got.shape == want.shape, name
        assert np.array_equal(got, want), name
        assert got.flags.writeable == (name not in READ_ONLY), name
    assert space.size == space.fail == len(plain["n"])
    assert space.max_total == int(plain["total"].max())
    assert [(p.n, p.u) for p in space.pattern_list] == plain["patterns"]
    # Every node is found at its key; every other key finds nothing.
    lookup = plain["lookup"]
    assert np.array_equal(space._lookup[: len(lookup)], lookup)
    assert (space._lookup[len(lookup):] == -1).all()
    assert space.find(root) == space.find_node(root.dice_left, faces_mask(root.taken), root.total)
    # The exact pair weights and chances read the same rolls.
    assert space.pair_weight_exact == plain["weights"]
    assert all(type(w) is int for w in space.pair_weight_exact)
    assert space.pair_prob_exact == [
        Fraction(w, SIDES ** int(space.n[i])) for w, i in zip(
            plain["weights"], plain["pair_node"].tolist(), strict=True)]
