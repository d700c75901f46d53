"""A game tree drawn as a plain plotly figure: choices, chances and ends, left to right.

Backward induction is easiest to follow on a drawing: each moment of a small game is a node,
squares where the player chooses, circles where the dice decide, diamonds where the game ends,
and every edge says what happens along it (an action, or a chance as a fraction). The better
choice at a square is drawn thick. The lesson computes the numbers (with the engine's solver);
this module only draws them.

Every word in the drawing is plain ASCII text (no symbol that a classroom computer's fonts may
lack), and nothing is fetched from a CDN: the figure is drawn by the notebook's own plotly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import plotly.graph_objects as go

from henkit.charts.style import (
    EXACT_COLOUR,
    FAIL_COLOUR,
    LABEL_SIZE,
    NEUTRAL_COLOUR,
    STOP_COLOUR,
    figure,
    layout,
)

KINDS = ("decision", "chance", "end")
"""A node is a moment where the player chooses, where the dice decide, or where the game ends."""
SYMBOLS = {"decision": "square", "chance": "circle", "end": "diamond"}
"""How each kind of node is drawn."""
KIND_COLOURS = {"decision": EXACT_COLOUR, "chance": NEUTRAL_COLOUR, "end": STOP_COLOUR}
"""Fill colour per kind (an end worth nothing is drawn in the failure colour)."""
KIND_NAMES = {"decision": "you choose", "chance": "the dice decide", "end": "the turn ends"}
"""The legend's words for each kind of node."""
MAX_NODES = 60
"""A tree drawn by hand stays small: more nodes would not be readable on a projector."""
ROW_PX = 74
"""Height of one row of leaves, in pixels (labels of two lines at 16 px fit)."""
CHAR_PX = 9
"""About the width of one character of 16 px Arial, in pixels: the columns are spaced (and the
figure is as wide as it needs) so that an inner node's words end before its edges turn."""


@dataclass(frozen=True)
class TreeNode:
    """One node of a game tree: its key, its words, its kind, its parent and its edge's words.

    `best` marks the edge from the parent as the better choice (drawn thick); `worthless`
    draws an end in the failure colour (a bust, a turn worth nothing).
    """

    key: str
    label: str
    kind: str = "end"
    parent: str | None = None
    edge: str = ""
    best: bool = False
    worthless: bool = False


def _text(value: object, what: str, empty: bool = True) -> str:
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise ValueError(f"{what} must be text, not {value!r}"[:300])
    if not value.isascii() or any(ord(c) < 32 and c != "\n" for c in value):
        raise ValueError(f"{what} must be plain ASCII text (no symbol a font may lack), "
                         f"not {value!r}"[:300])
    return value


def check_tree(nodes: Sequence[TreeNode]) -> tuple[TreeNode, ...]:
    """The nodes as a tuple, checked: one root first, every parent named before its children,
    keys unique, kinds known, words in plain ASCII. ValueError saying what is wrong otherwise."""
    if isinstance(nodes, str) or not isinstance(nodes, Sequence) or not nodes:
        raise ValueError(f"a tree is a list of TreeNodes, root first, not {nodes!r}"[:300])
    if len(nodes) > MAX_NODES:
        raise ValueError(f"a tree drawn by hand has at most {MAX_NODES} nodes, not {len(nodes)}")
    seen: dict[str, TreeNode] = {}
    for i, node in enumerate(nodes):
        if not isinstance(node, TreeNode):
            raise ValueError(f"a tree's nodes are TreeNodes, not {node!r}"[:300])
        _text(node.key, "a node's key", empty=False)
        _text(node.label, f"node {node.key!r}'s label")
        _text(node.edge, f"node {node.key!r}'s edge words")
        if node.kind not in KINDS:
            raise ValueError(f"node {node.key!r}: kind must be one of {', '.join(KINDS)}, "
                             f"not {node.kind!r}"[:300])
        if not isinstance(node.best, bool) or not isinstance(node.worthless, bool):
            raise ValueError(f"node {node.key!r}: best and worthless must be True or False")
        if node.key in seen:
            raise ValueError(f"two nodes have the key {node.key!r}")
        if i == 0:
            if node.parent is not None:
                raise ValueError("the first node is the root: its parent must be None")
        elif node.parent not in seen:
            raise ValueError(f"node {node.key!r}: its parent {node.parent!r} must come before it "
                             "(only the first node has no parent)"[:300])
        elif seen[node.parent].kind == "end":
            raise ValueError(f"node {node.key!r}: its parent {node.parent!r} is an end")
        if node.best and (i == 0 or seen[node.parent].kind != "decision"):  # type: ignore[index]
            raise ValueError(f"node {node.key!r}: only a choice at a decision can be the best")
        seen[node.key] = node
    return tuple(nodes)


def tree_positions(nodes: Sequence[TreeNode]) -> dict[str, tuple[float, float]]:
    """Where each node sits: x is its depth (the root at 0), y its row (leaves one row apart,
    top to bottom in the order given; a parent in the middle of its children)."""
    nodes = check_tree(nodes)
    children: dict[str, list[str]] = {n.key: [] for n in nodes}
    for n in nodes[1:]:
        children[n.parent].append(n.key)  # type: ignore[index]
    pos: dict[str, tuple[float, float]] = {}
    next_row = 0

    def place(key: str, depth: int) -> float:
        nonlocal next_row
        if not children[key]:
            y = -float(next_row)
            next_row += 1
        else:
            ys = [place(c, depth + 1) for c in children[key]]
            y = (max(ys) + min(ys)) / 2
        pos[key] = (float(depth), y)
        return y

    place(nodes[0].key, 0)
    return pos


def tree_chart(nodes: Sequence[TreeNode], title: str = "") -> go.Figure:
    """The tree drawn left to right: squares (choices), circles (chances), diamonds (ends), the
    words of each edge on it, the better choices thick, each node's words beside it."""
    nodes = check_tree(nodes)
    _text(title, "title")
    rows = tree_positions(nodes)
    parents = {n.parent for n in nodes}

    # Columns in characters: an inner node's words sit above-right of it, so its edges turn
    # just after its longest line, and the edge's words (a chance) fit before the child.
    def longest(text: str) -> int:
        return max(len(line) for line in text.split("\n"))

    depth = {n.key: int(rows[n.key][0]) for n in nodes}
    deepest = max(depth.values())
    words = [max((longest(n.label) + 3 for n in nodes if depth[n.key] == d and n.key in parents),
                 default=4) for d in range(deepest + 1)]
    edges = [max((longest(n.edge) + 4 for n in nodes if depth[n.key] == d + 1), default=4)
             for d in range(deepest + 1)]
    column = [0.0]
    for d in range(deepest):
        column.append(column[-1] + words[d] + max(edges[d], 6))
    pos = {k: (column[depth[k]], y) for k, (_x, y) in rows.items()}
    thin_x: list[float | None] = []
    thin_y: list[float | None] = []
    thick_x: list[float | None] = []
    thick_y: list[float | None] = []
    annotations = []
    for n in nodes[1:]:
        (x0, y0), (x1, y1) = pos[n.parent], pos[n.key]  # type: ignore[index]
        xs, ys = (thick_x, thick_y) if n.best else (thin_x, thin_y)
        # An elbow: across from the parent, then down or up to the child's row, then across.
        mid = x0 + words[depth[n.parent]]  # type: ignore[index]
        xs += [x0, mid, mid, x1, None]
        ys += [y0, y0, y1, y1, None]
        if n.edge:
            annotations.append({
                "x": (mid + x1) / 2, "y": y1, "text": n.edge.replace("\n", "<br>"),
                "showarrow": False, "yanchor": "bottom", "yshift": 2,
                "font": {"size": LABEL_SIZE, "color": "#1A1A1A"},
                "bgcolor": "rgba(255,255,255,0.85)",
            })
    traces = [
        {"type": "scatter", "mode": "lines", "x": thin_x, "y": thin_y, "hoverinfo": "skip",
         "line": {"color": "#757575", "width": 2}, "showlegend": False},
        {"type": "scatter", "mode": "lines", "x": thick_x, "y": thick_y, "hoverinfo": "skip",
         "line": {"color": EXACT_COLOUR, "width": 6}, "name": "the better choice"},
    ]
    for kind in KINDS:
        mine = [n for n in nodes if n.kind == kind]
        if not mine:
            continue
        colours = [FAIL_COLOUR if n.worthless else KIND_COLOURS[kind] for n in mine]
        traces.append({
            "type": "scatter", "mode": "markers+text", "name": KIND_NAMES[kind],
            "x": [pos[n.key][0] for n in mine], "y": [pos[n.key][1] for n in mine],
            "marker": {"symbol": SYMBOLS[kind], "size": 22, "color": colours,
                       "line": {"color": "#1A1A1A", "width": 2}},
            "text": [" " + n.label.replace("\n", "<br> ") for n in mine],
            # A leaf's words to its right; an inner node's above it, clear of its edges.
            "textposition": ["top right" if n.key in parents else "middle right" for n in mine],
            "cliponaxis": False,
            "textfont": {"size": LABEL_SIZE, "color": "#1A1A1A"},
            "hovertext": [n.label.replace("\n", " ") for n in mine], "hoverinfo": "text",
        })
    ys = [y for _x, y in pos.values()]
    right = max(x + longest(n.label) + 4 for n, (x, _y) in zip(nodes, (pos[n.key] for n in nodes),
                                                              strict=True))
    leaf_rows = int(-min(ys)) + 1
    lay = layout(title, "", "",
                 xaxis={"visible": False, "range": [-2, right], "fixedrange": True},
                 yaxis={"visible": False, "range": [min(ys) - 0.6, 0.6], "fixedrange": True},
                 legend={"orientation": "h", "x": 0, "y": -0.02, "yanchor": "top"},
                 height=120 + ROW_PX * leaf_rows, width=int(40 + CHAR_PX * (right + 2)),
                 margin={"l": 20, "r": 20, "t": 70, "b": 60},
                 annotations=annotations)
    fig = figure(traces, lay)
    return fig
