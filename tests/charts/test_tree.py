"""The game-tree chart: where the nodes sit, what it draws, and the trees it refuses."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.charts.style import EXACT_COLOUR, FAIL_COLOUR, LABEL_SIZE
from henkit.charts.tree import KINDS, MAX_NODES, SYMBOLS, TreeNode, tree_chart, tree_positions

from ..fuzz_values import junk, only_value_error

SMALL = [
    TreeNode("root", "total 21\nworth 7/6", "decision"),
    TreeNode("stop", "1 worm", "end", "root", "stop"),
    TreeNode("roll", "average 7/6", "chance", "root", "roll", best=True),
    TreeNode("bust", "bust: 0 worms", "end", "roll", "4/9", worthless=True),
    TreeNode("four", "take the 4", "decision", "roll", "5/9"),
    TreeNode("four-stop", "2 worms", "end", "four", "stop", best=True),
    TreeNode("four-roll", "1/2 worm", "end", "four", "roll"),
]


def test_leaves_are_one_row_apart_in_order_and_parents_sit_between_their_children():
    pos = tree_positions(SMALL)
    leaves = ["stop", "bust", "four-stop", "four-roll"]
    assert [pos[k][1] for k in leaves] == [0.0, -1.0, -2.0, -3.0]
    depth = {"root": 0, "stop": 1, "roll": 1, "bust": 2, "four": 2, "four-stop": 3, "four-roll": 3}
    assert {k: x for k, (x, _y) in pos.items()} == depth
    for parent, kids in (("four", ["four-stop", "four-roll"]), ("roll", ["bust", "four"]),
                         ("root", ["stop", "roll"])):
        ys = [pos[k][1] for k in kids]
        assert pos[parent][1] == (max(ys) + min(ys)) / 2


def test_the_chart_draws_every_node_edge_and_word():
    fig = tree_chart(SMALL, "A small turn")
    data = json.loads(fig.to_json())
    assert data["layout"]["title"]["text"] == "A small turn"
    thin, thick, *nodes = data["data"]
    # Each edge is an elbow of 4 points and a break; the best choices are the thick ones.
    assert len(thick["x"]) == 5 * sum(n.best for n in SMALL)
    assert len(thin["x"]) == 5 * (len(SMALL) - 1 - sum(n.best for n in SMALL))
    assert thick["line"]["width"] > thin["line"]["width"] and thick["line"]["color"] == EXACT_COLOUR
    drawn = {t["name"]: t for t in nodes}
    for kind in KINDS:
        mine = [n for n in SMALL if n.kind == kind]
        assert drawn[next(k for k in drawn if t_kind(drawn[k]) == kind)]["marker"]["symbol"] == \
            SYMBOLS[kind]
        assert len(drawn[next(k for k in drawn if t_kind(drawn[k]) == kind)]["x"]) == len(mine)
    texts = " ".join(" ".join(t["text"]) for t in nodes)
    for n in SMALL:
        for line in n.label.split("\n"):
            assert line in texts
    edge_words = [a["text"] for a in data["layout"]["annotations"]]
    assert sorted(edge_words) == sorted(n.edge for n in SMALL if n.edge)
    assert all(a["font"]["size"] >= 16 for a in data["layout"]["annotations"]) and LABEL_SIZE >= 16
    ends = next(t for t in nodes if t_kind(t) == "end")
    worthless = [n.worthless for n in SMALL if n.kind == "end"]
    assert [c == FAIL_COLOUR for c in ends["marker"]["color"]] == worthless


def t_kind(trace: dict) -> str:
    """The kind of node a trace draws, from its marker's symbol."""
    return next(k for k, s in SYMBOLS.items() if s == trace["marker"]["symbol"])


def test_the_chart_is_the_same_for_the_same_tree():
    assert tree_chart(SMALL).to_json() == tree_chart(list(SMALL)).to_json()


@pytest.mark.parametrize(("nodes", "words"), [
    ([], "a list of TreeNodes"),
    ("root", "a list of TreeNodes"),
    ([SMALL[1]], "its parent must be None"),
    ([SMALL[0], TreeNode("x", "x", "end", "nowhere")], "must come before it"),
    ([SMALL[0], TreeNode("root", "again", "end", "root")], "two nodes have the key 'root'"),
    ([SMALL[0], TreeNode("x", "x", "maybe", "root")], "kind must be one of decision, chance"),
    ([SMALL[0], TreeNode("x", "worm \U0001FAB1", "end", "root")], "plain ASCII"),
    ([SMALL[0], TreeNode("x", "x", "end", "root", "\u00bd")], "plain ASCII"),
    ([SMALL[0], TreeNode("e", "e", "end", "root"), TreeNode("x", "x", "end", "e")],
     "its parent 'e' is an end"),
    ([SMALL[0], TreeNode("c", "c", "chance", "root"), TreeNode("x", "x", "end", "c", best=True)],
     "only a choice at a decision can be the best"),
    ([SMALL[0], *[TreeNode(str(i), "x", "end", "root") for i in range(MAX_NODES)]],
     f"at most {MAX_NODES} nodes"),
    ([SMALL[0], 3], "a tree's nodes are TreeNodes"),
])
def test_a_tree_that_is_not_one_is_refused_in_words(nodes, words):
    with pytest.raises(ValueError, match=words):
        tree_chart(nodes)


@given(x=junk())
@settings(max_examples=40, deadline=None, derandomize=True)
def test_anything_else_is_a_value_error(x):
    only_value_error(tree_chart, x)
    only_value_error(tree_chart, SMALL, x)
    only_value_error(tree_chart, [TreeNode("r", x, "decision")])
    only_value_error(tree_chart, [SMALL[0], TreeNode("x", "x", x, "root")])


@given(st.lists(st.integers(0, 10), min_size=1, max_size=30))
@settings(max_examples=40, deadline=None, derandomize=True)
def test_any_tree_gets_every_node_placed_leaves_in_rows(parents):
    # Node i+1's parent is one of the nodes before it: every such list is a tree.
    nodes = [TreeNode("n0", "root", "decision")]
    for i, p in enumerate(parents, start=1):
        nodes.append(TreeNode(f"n{i}", f"node {i}", "decision", f"n{min(p, i - 1)}"))
    pos = tree_positions(nodes)
    assert set(pos) == {n.key for n in nodes}
    has_child = {n.parent for n in nodes}
    leaf_rows = sorted(-y for k, (_x, y) in pos.items() if k not in has_child)
    assert leaf_rows == list(range(len(leaf_rows)))
    for n in nodes[1:]:
        assert pos[n.key][0] == pos[n.parent][0] + 1
